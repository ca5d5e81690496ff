//! Values in many spellings under `uniqueItems`, `enum` and `const`, against a
//! reference comparison of canonical decimals (see `toolgate_fuzz::equality`).
#![no_main]

use arbitrary::Unstructured;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(case) = toolgate_fuzz::equality::Case::generate(&mut Unstructured::new(data)) {
        toolgate_fuzz::equality::check(&case);
    }
});
