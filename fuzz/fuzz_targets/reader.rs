//! Arbitrary bytes as a JSON document and as tool-call arguments (see
//! `toolgate_fuzz::reader`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolgate_fuzz::reader::check(data));
