//! The benchmark inputs (`benches/inputs.jsonl`, read by the Rust, Python and C
//! benchmarks) say what the benchmarks expect of them: every schema compiles, every
//! valid call is accepted, every invalid call is refused with the number of violations
//! the file states, and the calls keep the sizes the published figures were measured on.

use toolgate_bench::{cases, event, flight, tools, weather};
use toolgate_core::Schema;

#[test]
fn every_tool_accepts_its_valid_calls_and_refuses_its_invalid_call_with_the_stated_count() {
    assert_eq!(tools().len(), 3);
    for t in tools() {
        let schema = Schema::compile(t.schema.as_bytes())
            .unwrap_or_else(|e| panic!("{}: the schema does not compile: {e}", t.name));
        assert!(
            schema.is_valid(t.valid.as_bytes()),
            "{}: valid call refused",
            t.name
        );
        if let Some(call) = t.valid_with_unit {
            assert!(
                schema.is_valid(call.as_bytes()),
                "{}: {call} refused",
                t.name
            );
        }
        assert!(
            !schema.is_valid(t.invalid.as_bytes()),
            "{}: invalid call accepted",
            t.name
        );
        let errors = schema.validate_json(t.invalid.as_bytes());
        assert_eq!(
            errors.len(),
            t.invalid_violations,
            "{}: {:?}",
            t.name,
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn the_calls_keep_the_sizes_the_published_figures_were_measured_on() {
    let sizes = |t: &toolgate_bench::Tool| (t.schema.len(), t.valid.len(), t.invalid.len());
    assert_eq!(sizes(weather()), (218, 25, 48));
    assert_eq!(weather().valid_with_unit.map(str::len), Some(36));
    assert_eq!(sizes(flight()), (1976, 432, 402));
    assert_eq!(sizes(event()), (1549, 400, 369));
}

#[test]
fn the_cases_are_every_tools_valid_then_invalid_call() {
    let names: Vec<&str> = cases().iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "get_weather valid",
            "get_weather invalid",
            "search_flights valid",
            "search_flights invalid",
            "create_calendar_event valid",
            "create_calendar_event invalid",
        ]
    );
    for c in cases() {
        let t = tools().iter().find(|t| c.name.starts_with(t.name)).unwrap();
        assert_eq!(c.schema, t.schema);
        assert_eq!(c.instance, if c.valid { t.valid } else { t.invalid });
    }
}
