#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fifteen_fuzz::checks::board(data));
