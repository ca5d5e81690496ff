//! One contender in a loop, for counting instructions instead of timing them:
//!
//! ```sh
//! cargo build -p toolgate-bench --release --bin instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/instructions is_valid 100000
//! ```
//!
//! Callgrind's instruction total is repeatable whatever else the machine does; run the
//! same loop with `none` and subtract it, then divide by the count. Contenders on the
//! seed's valid get_weather call: `is_valid` (toolgate against its schema), `skip`
//! (toolgate against `{"type":"object"}`: the strict reader alone), `floor`
//! (`serde_json::from_slice::<IgnoredAny>`), `spaced_is_valid` (the same call with a
//! space after every `:` and `,`), `call` (a full registry call, 10 tools), `call_into`
//! (the same into a reused result), `bare_call_into` (`BareDispatch`: the least any
//! dispatcher does for that call); on the
//! seed's invalid call: `validate_json_invalid`; on the two realistic calls, the same
//! with a `flight_` or `event_` prefix (`flight_is_valid`, `flight_floor`,
//! `flight_skip`, `flight_spaced_is_valid`, `flight_validate_json_invalid`,
//! `flight_call`, `event_is_valid`, `event_floor`, `event_skip`,
//! `event_validate_json_invalid`); `flight_no_patterns` and `event_no_patterns`, the
//! valid realistic calls against their schemas without `pattern`; `flight_compile` and
//! `event_compile`, `Schema::compile` of the two realistic schemas; and `none`, the empty
//! loop.

use std::hint::black_box;

use toolgate::Schema;
use toolgate_bench::{
    floor_parse, registry_call, registry_call_into, registry_with, without_patterns, BareDispatch,
    EVENT_INVALID, EVENT_SCHEMA, EVENT_VALID, FLIGHT_INVALID, FLIGHT_SCHEMA, FLIGHT_VALID,
    WEATHER_INVALID, WEATHER_SCHEMA, WEATHER_VALID,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "is_valid".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let weather = Schema::compile(WEATHER_SCHEMA.as_bytes()).expect("schema compiles");
    let object = Schema::compile(br#"{"type":"object"}"#).expect("schema compiles");
    let valid = WEATHER_VALID.as_bytes();
    let invalid = WEATHER_INVALID.as_bytes();
    let flight = Schema::compile(FLIGHT_SCHEMA.as_bytes()).expect("schema compiles");
    let event = Schema::compile(EVENT_SCHEMA.as_bytes()).expect("schema compiles");
    let no_patterns = |schema: &str| {
        let stripped = without_patterns(schema);
        assert!(!stripped.contains("\"pattern\""), "a pattern is left");
        Schema::compile(stripped.as_bytes()).expect("schema compiles")
    };
    let (flight_bare, event_bare) = (no_patterns(FLIGHT_SCHEMA), no_patterns(EVENT_SCHEMA));
    let registry = registry_with(10);
    let bare = BareDispatch::with(10);
    let mut reused = toolgate::CallResult::default();
    // The same calls with a space after every colon and comma, as Python's
    // `json.dumps` writes them: whitespace must stay cheap, not only compact JSON.
    let spaced = |compact: &str| compact.replace("\":", "\": ").replace(",\"", ", \"");
    let (weather_spaced, flight_spaced) = (spaced(WEATHER_VALID), spaced(FLIGHT_VALID));
    let mut count = 0usize;
    for _ in 0..n {
        count += match which.as_str() {
            "is_valid" => weather.is_valid(black_box(valid)) as usize,
            "skip" => object.is_valid(black_box(valid)) as usize,
            "spaced_is_valid" => weather.is_valid(black_box(weather_spaced.as_bytes())) as usize,
            "flight_spaced_is_valid" => {
                flight.is_valid(black_box(flight_spaced.as_bytes())) as usize
            }
            "floor" => floor_parse(black_box(valid)) as usize,
            "validate_json_invalid" => weather.validate_json(black_box(invalid)).len(),
            "flight_is_valid" => flight.is_valid(black_box(FLIGHT_VALID.as_bytes())) as usize,
            "flight_floor" => floor_parse(black_box(FLIGHT_VALID.as_bytes())) as usize,
            "flight_skip" => object.is_valid(black_box(FLIGHT_VALID.as_bytes())) as usize,
            "flight_validate_json_invalid" => flight
                .validate_json(black_box(FLIGHT_INVALID.as_bytes()))
                .len(),
            "event_is_valid" => event.is_valid(black_box(EVENT_VALID.as_bytes())) as usize,
            "event_no_patterns" => event_bare.is_valid(black_box(EVENT_VALID.as_bytes())) as usize,
            "flight_no_patterns" => {
                flight_bare.is_valid(black_box(FLIGHT_VALID.as_bytes())) as usize
            }
            "event_floor" => floor_parse(black_box(EVENT_VALID.as_bytes())) as usize,
            "event_skip" => object.is_valid(black_box(EVENT_VALID.as_bytes())) as usize,
            "event_validate_json_invalid" => event
                .validate_json(black_box(EVENT_INVALID.as_bytes()))
                .len(),
            "call" => registry_call(&registry, "get_weather", black_box(valid)) as usize,
            "bare_call_into" => {
                bare.call_into("get_weather", black_box(valid), &mut reused) as usize
            }
            "call_into" => {
                registry_call_into(&registry, "get_weather", black_box(valid), &mut reused) as usize
            }
            "flight_call_into" => registry_call_into(
                &registry,
                "search_flights",
                black_box(FLIGHT_VALID.as_bytes()),
                &mut reused,
            ) as usize,
            "flight_call" => registry_call(
                &registry,
                "search_flights",
                black_box(FLIGHT_VALID.as_bytes()),
            ) as usize,
            "flight_compile" => {
                Schema::compile(black_box(FLIGHT_SCHEMA.as_bytes())).is_ok() as usize
            }
            "event_compile" => Schema::compile(black_box(EVENT_SCHEMA.as_bytes())).is_ok() as usize,
            "none" => black_box(1),
            other => panic!("unknown contender {other:?}"),
        };
    }
    println!("{which}: {count} over {n} iterations");
}
