//! `plylab::fuzzing::connect4` under libFuzzer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| plylab::fuzzing::connect4(data));
