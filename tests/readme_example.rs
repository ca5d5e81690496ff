//! The README's Rust example, kept compiling and true.

use toolgate::{NamePolicy, Registry, Schema, ToolSpec};

#[test]
fn readme_rust_example() -> Result<(), Box<dyn std::error::Error>> {
    let schema = Schema::compile(
        br#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#,
    )?;
    assert!(schema.is_valid(br#"{"city":"Paris"}"#));
    let errors = schema.validate_json(br#"{"city":3}"#);
    assert_eq!(
        errors[0].to_string(),
        "$.city: expected string, got integer"
    );

    let registry = Registry::new(NamePolicy::Default);
    registry.register(
        ToolSpec {
            name: "get_weather".into(),
            parameters: Some(br#"{"type":"object"}"#.to_vec()),
            ..Default::default()
        },
        Box::new(|args: &[u8], _ctx: usize| Ok(format!("got {}", String::from_utf8_lossy(args)))),
        false,
    )?;
    let result = registry.call("call_1", "get_weather", br#"{"city":"Paris"}"#);
    assert_eq!(
        result.tool_message_json(),
        r#"{"role":"tool","tool_call_id":"call_1","content":"got {\"city\":\"Paris\"}"}"#
    );
    Ok(())
}
