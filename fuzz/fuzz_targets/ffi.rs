//! Sequences of C-API calls under AddressSanitizer (see `toolgate_fuzz::ffi`).
#![no_main]

libfuzzer_sys::fuzz_target!(|ops: Vec<toolgate_fuzz::ffi::Op>| {
    // Long sequences add time, not coverage: the state is a few handles.
    toolgate_fuzz::ffi::run(&ops[..ops.len().min(64)]);
});
