//! An instance fed to a stream in fuzzer-chosen chunks, against `validate_json` on the
//! whole bytes (see `toolgate_fuzz::stream`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    toolgate_fuzz::stream::check(data);
});
