//! A generated schema and instance, against the `jsonschema` crate (see
//! `toolgate_fuzz::generate`).
#![no_main]

use arbitrary::Unstructured;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(case) = toolgate_fuzz::generate::Case::generate(&mut Unstructured::new(data)) {
        toolgate_fuzz::generate::check(&case);
    }
});
