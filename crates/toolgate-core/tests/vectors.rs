//! The shared conformance vectors (tests/vectors.json): the same file is run by the
//! C, Go and Python tests, so every host sees identical bytes.
//!
//! A vector's `as` says what its instance stands for: `"arguments"` (tool-call
//! arguments: validated with the argument rule, empty meaning `{}`, and also through a
//! registry by the hosts that test one), `"document"` (a JSON document: empty is
//! malformed; not run through a registry), or nothing when the two agree.

use serde_json::Value;
use toolgate_core::Schema;

#[test]
fn shared_conformance_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors.json");
    let vectors: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(vectors.len() >= 40, "the vector file lost cases");
    let mut failures = Vec::new();
    for v in &vectors {
        let name = v["name"].as_str().unwrap();
        let schema = Schema::compile(&serde_json::to_vec(&v["schema"]).unwrap())
            .unwrap_or_else(|e| panic!("{name}: schema refused: {e}"));
        let instance = v["instance"].as_str().unwrap().as_bytes();
        let arguments = v["as"].as_str() == Some("arguments");
        let (errors, is_valid) = if arguments {
            (
                schema.validate_arguments(instance),
                schema.is_valid_arguments(instance),
            )
        } else {
            (schema.validate_json(instance), schema.is_valid(instance))
        };
        let got: Vec<[String; 5]> = errors
            .into_iter()
            .map(|e| {
                [
                    e.path,
                    e.pointer,
                    e.keyword.to_string(),
                    e.message,
                    e.schema_location,
                ]
            })
            .collect();
        let want: Vec<[String; 5]> = v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                ["path", "pointer", "keyword", "message", "schemaLocation"]
                    .map(|k| e[k].as_str().unwrap().to_string())
            })
            .collect();
        // The errors as the compact JSON every host can ask for: the same objects, keys in
        // the file's order.
        let json: Value =
            serde_json::from_str(&toolgate_core::ValidationError::json_array(&if arguments {
                schema.validate_arguments(instance)
            } else {
                schema.validate_json(instance)
            }))
            .unwrap();
        if json != v["errors"] {
            failures.push(format!("{name}: json_array {json}"));
        }
        let valid = v["valid"].as_bool().unwrap();
        if got != want || is_valid != valid || valid != want.is_empty() {
            failures.push(format!("{name}:\n  got  {got:?}\n  want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
