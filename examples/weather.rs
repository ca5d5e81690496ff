//! A small Rust host for toolgate: registers two tools, prints the definitions a model
//! would see, then answers three model calls (a valid one, one the model got wrong, and
//! one whose tool fails), printing the tool message of each.
//!
//! Run: `cargo run --example weather`

use toolgate_core::{CallContext, NamePolicy, Registry, ToolSpec};

const WEATHER_SCHEMA: &str = r#"{"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer", "minimum": 1, "maximum": 7}, "unit": {"enum": ["c", "f"]}}, "required": ["city"], "additionalProperties": false}"#;

const TIME_SCHEMA: &str = r#"{"type": "object", "properties": {"timezone": {"type": "string", "pattern": "^[A-Za-z_]+/[A-Za-z_]+$"}}, "required": ["timezone"], "additionalProperties": false}"#;

/// A handler gets the argument bytes exactly as the model sent them, after they passed
/// the schema, so reading them cannot fail on anything the schema rules out.
fn get_weather(args: &[u8], _cx: &CallContext) -> Result<String, String> {
    let args: serde_json::Value = serde_json::from_slice(args).map_err(|e| e.to_string())?;
    let days = args.get("days").and_then(|d| d.as_u64()).unwrap_or(1);
    Ok(format!(
        "forecast for {}, {days} days: sunny, 21 C",
        args["city"].as_str().unwrap_or_default()
    ))
}

/// A tool that fails: its message reaches the model as `error: ...`.
fn get_time(_args: &[u8], _cx: &CallContext) -> Result<String, String> {
    Err("the clock service is not configured".into())
}

fn call(registry: &Registry, call_id: &str, name: &str, args: &str) {
    let result = registry.call(call_id, name, args.as_bytes());
    println!("\nmodel calls {name}({args})");
    println!("tool message: {}", result.tool_message_json());
    println!("content:\n{}", result.content);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("toolgate {}", toolgate_core::VERSION);
    let registry = Registry::new(NamePolicy::Default);
    registry.register(
        ToolSpec {
            name: "get_weather".into(),
            description: "Weather forecast for a city, 1 to 7 days ahead.".into(),
            parameters: Some(WEATHER_SCHEMA.into()),
            output_schema: None,
            idempotent: true,
            timeout_ms: 5000,
            exclusive: false,
        },
        Box::new(get_weather),
        false,
    )?;
    registry.register(
        ToolSpec {
            name: "get_time".into(),
            description: "Current time in an IANA time zone.".into(),
            parameters: Some(TIME_SCHEMA.into()),
            ..Default::default()
        },
        Box::new(get_time),
        false,
    )?;
    println!(
        "definitions (sorted by name):\n{}",
        registry.definitions_json()
    );

    call(
        &registry,
        "call_1",
        "get_weather",
        r#"{"city":"Paris","days":3}"#,
    );
    call(
        &registry,
        "call_2",
        "get_weather",
        r#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
    );
    call(
        &registry,
        "call_3",
        "get_time",
        r#"{"timezone":"Europe/Paris"}"#,
    );
    Ok(())
}
