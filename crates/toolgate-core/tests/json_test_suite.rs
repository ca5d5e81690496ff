//! The strict reader against nst/JSONTestSuite's `test_parsing/` (RFC 8259 parsing
//! cases): every `y_` document is accepted, every `n_` document refused, and an `i_`
//! document (left to implementations) gets one verdict through both paths, without a
//! panic. Where the reader is stricter than RFC 8259 on purpose, the case is listed
//! with the rule that refuses it.
//!
//! The suite is read from `../shared/testdata/json-test-suite` beside the crate
//! (`TOOLGATE_TESTDATA` names another `testdata` folder). When it is missing the test
//! says SKIPPED loudly, and fails when `TOOLGATE_REQUIRE_TESTDATA=1` (CI).

#[path = "support/test_data.rs"]
mod test_data;

use toolgate_core::Schema;

/// `y_` documents refused on purpose: duplicate keys (a validator could check one value
/// while the tool's parser reads the other).
const STRICTER: &[(&str, &str)] = &[
    ("y_object_duplicated_key.json", "duplicate property \"a\""),
    (
        "y_object_duplicated_key_and_value.json",
        "duplicate property \"a\"",
    ),
];

#[test]
fn json_test_suite_parsing() {
    let Some(files) = test_data::json_test_suite_documents() else {
        return;
    };
    let schema = Schema::compile(b"{}").unwrap();
    let mut counts = [0usize; 3];
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let outcome = std::panic::catch_unwind(|| {
            let errors = schema.validate_json(&bytes);
            (schema.is_valid(&bytes), errors)
        });
        let Ok((valid, errors)) = outcome else {
            failures.push(format!("{name}: panicked"));
            continue;
        };
        if valid != errors.is_empty() {
            failures.push(format!(
                "{name}: is_valid {valid}, validate_json {errors:?}"
            ));
            continue;
        }
        let refusal = errors.first().map(|e| e.message.as_str()).unwrap_or("");
        match &name[..2] {
            "y_" => {
                counts[0] += 1;
                match STRICTER.iter().find(|(n, _)| *n == name) {
                    Some((_, why)) if !refusal.ends_with(why) => {
                        failures.push(format!("{name}: want refused for {why}, got {errors:?}"))
                    }
                    None if !valid => failures.push(format!("{name}: refused: {refusal}")),
                    _ => {}
                }
            }
            "n_" => {
                counts[1] += 1;
                if valid {
                    failures.push(format!("{name}: accepted"));
                } else if errors.len() != 1 || errors[0].keyword != "json" {
                    failures.push(format!("{name}: want one json error, got {errors:?}"));
                }
            }
            _ => counts[2] += 1,
        }
    }
    test_data::say(&format!(
        "JSONTestSuite test_parsing: {} y_ accepted ({} refused on purpose), {} n_ refused, {} i_ with one verdict",
        counts[0] - STRICTER.len(),
        STRICTER.len(),
        counts[1],
        counts[2]
    ));
    assert!(
        counts.iter().sum::<usize>() > 300,
        "only {counts:?} files: is the suite complete?"
    );
    for (name, _) in STRICTER {
        assert!(
            files
                .iter()
                .any(|f| f.file_name().is_some_and(|f| f == *name)),
            "{name} is not in the suite any more"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
