//! `plylab::fuzzing::random_tree` under libFuzzer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| plylab::fuzzing::random_tree(data));
