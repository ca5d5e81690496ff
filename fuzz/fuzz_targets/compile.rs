//! Arbitrary bytes as a schema under every profile (see `toolgate_fuzz::compile`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolgate_fuzz::compile::check(data));
