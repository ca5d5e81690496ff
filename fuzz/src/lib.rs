//! What the fuzz targets check, kept out of the targets so that `cargo test` runs
//! the same checks over fixed inputs (the project's vectors) on any toolchain.
//!
//! - [`reader`]: arbitrary bytes as an instance of `{}` and as tool-call arguments;
//! - [`compile`]: arbitrary bytes as a schema, then fixed instances;
//! - [`generate`]: a schema and an instance built together from the fuzzer's bytes,
//!   checked against the `jsonschema` crate, in the core profile and (the
//!   `validate_full` target) the full one;
//! - [`ffi`]: sequences of C-API calls;
//! - [`pattern`]: a generated ECMA pattern and strings, every matcher against the
//!   others and against the `regex` crate;
//! - [`equality`]: values written in many spellings under `uniqueItems`, `enum` and
//!   `const`, against a reference comparison of canonical decimals;
//! - [`refs`]: a generated graph of `$ref`/`$dynamicRef` schemas and nested
//!   instances, the validation's work bounded;
//! - [`stream`]: an instance fed to a stream in chunks, against `validate_json` on the
//!   whole bytes;
//! - [`errors`]: the invariants of every list of violations.

pub mod compile;
pub mod equality;
pub mod errors;
pub mod ffi;
pub mod generate;
pub mod pattern;
pub mod reader;
pub mod refs;
pub mod stream;

/// `n` pseudo-random bytes from xorshift64 (Marsaglia, "Xorshift RNGs", 2003: shifts
/// 13, 7, 17) advancing `seed`: fixed inputs for the unit tests that run a target's
/// checks without the fuzzer.
#[cfg(test)]
pub(crate) fn xorshift_bytes(seed: &mut u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed as u8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The project's vectors: each schema through `compile::check`, each instance
    /// through `reader::check`.
    #[test]
    fn the_vectors_pass_the_reader_and_compile_checks() {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors.json"),
        )
        .expect("tests/vectors.json");
        let vectors: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
        assert!(vectors.len() > 20);
        for v in &vectors {
            let schema = serde_json::to_vec(&v["schema"]).unwrap();
            crate::compile::check(&schema);
            let instance = v["instance"].as_str().expect("instance text");
            crate::reader::check(instance.as_bytes());
        }
    }

    /// JSONTestSuite's parsing cases (outside the repository): every document
    /// through `reader::check`, and the verdicts the suite fixes.
    #[test]
    fn the_parsing_suite_passes_the_reader_check() {
        let testdata = std::env::var_os("TOOLGATE_TESTDATA").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
            Into::into,
        );
        let dir = testdata.join("json-test-suite/test_parsing");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            assert!(
                std::env::var("TOOLGATE_REQUIRE_TESTDATA").as_deref() != Ok("1"),
                "{} is missing (TOOLGATE_REQUIRE_TESTDATA=1)",
                dir.display()
            );
            eprintln!("SKIPPED: {} is missing", dir.display());
            return;
        };
        let any = toolgate_core::Schema::compile(b"{}").unwrap();
        let mut n = 0;
        for e in entries {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let data = std::fs::read(&path).unwrap();
            crate::reader::check(&data);
            let valid = any.is_valid(&data);
            if name.starts_with("y_") && !valid {
                // Refused only by a documented strictness rule.
                let why = &any.validate_json(&data)[0].message;
                assert!(
                    crate::reader::STRICTER.iter().any(|r| why.contains(r)),
                    "{name}: {why}"
                );
            } else if name.starts_with("n_") {
                assert!(!valid, "{name}");
            }
            n += 1;
        }
        assert!(n > 300, "{n} files");
    }
}
