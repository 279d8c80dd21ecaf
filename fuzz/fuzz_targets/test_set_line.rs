//! `plylab::fuzzing::test_set_line` under libFuzzer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| plylab::fuzzing::test_set_line(data));
