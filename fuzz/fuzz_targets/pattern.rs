//! A generated ECMA pattern and strings, every matcher against the others and against
//! the `regex` crate (see `toolgate_fuzz::pattern`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    toolgate_fuzz::pattern::check(data);
});
