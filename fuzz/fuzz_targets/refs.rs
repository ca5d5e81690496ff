//! A generated graph of `$ref`/`$dynamicRef` schemas and nested instances, with the
//! validation's work bounded (see `toolgate_fuzz::refs`).
#![no_main]

use arbitrary::Unstructured;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(case) = toolgate_fuzz::refs::Case::generate(&mut Unstructured::new(data)) {
        toolgate_fuzz::refs::check(&case);
    }
});
