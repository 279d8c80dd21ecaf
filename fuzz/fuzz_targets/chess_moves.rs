//! `plylab::fuzzing::chess_moves` under libFuzzer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| plylab::fuzzing::chess_moves(data));
