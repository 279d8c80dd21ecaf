//! `plylab::fuzzing::checkers` under libFuzzer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| plylab::fuzzing::checkers(data));
