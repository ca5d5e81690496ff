//! A generated full-profile schema and instance, against the `jsonschema` crate (see
//! `toolgate_fuzz::generate::Case::generate_full`).
#![no_main]

use arbitrary::Unstructured;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(case) = toolgate_fuzz::generate::Case::generate_full(&mut Unstructured::new(data)) {
        toolgate_fuzz::generate::check_full(&case);
    }
});
