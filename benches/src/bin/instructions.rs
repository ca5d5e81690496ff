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
//! get_weather example's valid call: `is_valid` (toolgate against its schema), `skip`
//! (toolgate against `{"type":"object"}`: the strict reader alone), `floor`
//! (`serde_json::from_slice::<IgnoredAny>`), `spaced_is_valid` (the same call with a
//! space after every `:` and `,`), `call` (a full registry call, 10 tools), `call_into`
//! (the same into a reused result), `bare_call_into` (`BareDispatch`: the least any
//! dispatcher does for that call); on the
//! get_weather example's invalid call: `validate_json_invalid`; on the two realistic calls, the same
//! with a `flight_` or `event_` prefix (`flight_is_valid`, `flight_floor`,
//! `flight_skip`, `flight_spaced_is_valid`, `flight_validate_json_invalid`,
//! `flight_call`, `event_is_valid`, `event_floor`, `event_skip`,
//! `event_validate_json_invalid`); `flight_no_patterns` and `event_no_patterns`, the
//! valid realistic calls against their schemas without `pattern`; `flight_compile` and
//! `event_compile`, `Schema::compile` of the two realistic schemas; and `none`, the empty
//! loop. The tiny call `{"a":42,"b":42}` against two integer properties: `tiny_floor`,
//! `tiny_skip` (the reader alone) and `tiny_is_valid`.
//!
//! The full profile's schemas (benches/src/full.rs): `booking_floor`, `booking_is_valid`,
//! `booking_validate_json_invalid`, `booking_compile` (pydantic's `$defs`/`$ref`,
//! `anyOf` with `null`, formats, `exclusiveMinimum`), `payment_is_valid` (zod 4's
//! `oneOf` told apart by `const`), `orders_is_valid` (zod-to-json-schema's draft-07
//! `definitions`). When toolgate refuses the schema the program says so and exits
//! with status 3.
//!
//! The cycling mix (benches/src/mix.rs, core profile): iteration `i` takes call
//! `i % len` of the mix: `cycle_floor`, `cycle_is_valid`, `cycle_validate_json`,
//! `cycle_non_ascii_floor`, `cycle_non_ascii_is_valid`, `cycle_call_into`,
//! `cycle_bare_call_into`, `cycle_compile` and `cycle_compile_full` (`Schema::compile_with`
//! of the tool's schema, core profile and full profile with formats),
//! `cycle_schema_value` and `cycle_schema_floor` (the tool's schema parsed into
//! `Value` and dropped, and passed over with `serde_json`'s `IgnoredAny`: what the
//! schema tree costs a compile), `cycle_stream_4`,
//! `cycle_stream_16`, `cycle_stream_64` and `cycle_stream_whole` (a schema stream fed
//! the call in chunks of that many bytes, or in one feed, and finished;
//! `cycle_non_ascii_stream_16` the non-ASCII mix's calls in 16-byte chunks;
//! `cycle_stream_syntax_16` the same calls streamed to the schema `{}`, which checks
//! their syntax and duplicate names alone, and `cycle_syntax_validate_json` `validate_json` of `{}` on
//! them; `cycle_buffered_16` the calls appended in 16-byte chunks to a
//! buffer kept between calls, then `validate_json`: a stream that refuses nothing early),
//! `cycle_jsonschema_is_valid` and `cycle_boon_is_valid` (the peers: the call parsed
//! into a `serde_json::Value`, then validated), `cycle_value_floor` (that parse
//! alone), and `cycle_none`,
//! the empty loop after building the mixes, registry and bare dispatcher (subtract it
//! from those, not `none`).
//!
//! openai-node's four `query` tools of the full-profile mix, their calls in turn:
//! `query_is_valid`, and `query_none`, the empty loop after building that mix (subtract
//! it from `query_is_valid`).

use std::hint::black_box;

use toolgate_bench::full::{
    BOOKING_INVALID, BOOKING_SCHEMA, BOOKING_VALID, ORDERS_SCHEMA, ORDERS_VALID, PAYMENT_SCHEMA,
    PAYMENT_VALID,
};
use toolgate_bench::instances::Strings;
use toolgate_bench::mix::{build_mix, load_realworld, mix_bare, mix_registry};
use toolgate_bench::{
    boon_is_valid, buffered, floor_parse, full_options, jsonschema_is_valid, registry_call,
    registry_call_into, registry_with, streamed, without_patterns, BareDispatch,
};
use toolgate_core::value::Value;
use toolgate_core::{Options, Schema};

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "is_valid".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    // The inputs, looked up once: the measured loop touches only their bytes.
    let (weather_in, flight_in, event_in) = (
        toolgate_bench::weather(),
        toolgate_bench::flight(),
        toolgate_bench::event(),
    );
    let weather = Schema::compile(weather_in.schema.as_bytes()).expect("schema compiles");
    let object = Schema::compile(br#"{"type":"object"}"#).expect("schema compiles");
    let valid = weather_in.valid.as_bytes();
    let invalid = weather_in.invalid.as_bytes();
    let flight = Schema::compile(flight_in.schema.as_bytes()).expect("schema compiles");
    let event = Schema::compile(event_in.schema.as_bytes()).expect("schema compiles");
    let no_patterns = |schema: &str| {
        let stripped = without_patterns(schema);
        assert!(!stripped.contains("\"pattern\""), "a pattern is left");
        Schema::compile(stripped.as_bytes()).expect("schema compiles")
    };
    let (flight_bare, event_bare) = (no_patterns(flight_in.schema), no_patterns(event_in.schema));
    // The tiny call: two integers against two integer properties, the fixed cost of a
    // call with almost nothing in it.
    let tiny = Schema::compile(
        br#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}"#,
    )
    .expect("schema compiles");
    let tiny_call: &[u8] = br#"{"a":42,"b":42}"#;
    let registry = registry_with(10);
    let bare = BareDispatch::with(10);
    let mut reused = toolgate_core::CallResult::default();
    // The same calls with a space after every colon and comma, as Python's
    // `json.dumps` writes them: whitespace must stay cheap, not only compact JSON.
    let spaced = |compact: &str| compact.replace("\":", "\": ").replace(",\"", ", \"");
    let (weather_spaced, flight_spaced) = (spaced(weather_in.valid), spaced(flight_in.valid));
    if which.starts_with("cycle_") {
        cycle(&which, n);
        return;
    }
    if which.starts_with("query_") {
        query(&which, n);
        return;
    }
    let full = |schema: &str| {
        Schema::compile_with(schema.as_bytes(), &full_options()).map_err(|e| e.to_string())
    };
    let (booking, payment, orders) = (
        full(BOOKING_SCHEMA),
        full(PAYMENT_SCHEMA),
        full(ORDERS_SCHEMA),
    );
    // The full-profile schema this contender needs; a refusal ends the run (status 3).
    let needed = match which.as_str() {
        "booking_is_valid" | "booking_validate_json_invalid" | "booking_compile" => Some(&booking),
        "payment_is_valid" => Some(&payment),
        "orders_is_valid" => Some(&orders),
        _ => None,
    };
    let schema_for = match needed {
        Some(Err(e)) => {
            eprintln!("{which}: toolgate refuses the schema: {e}");
            std::process::exit(3);
        }
        Some(Ok(s)) => Some(s),
        None => None,
    };
    let mut count = 0usize;
    for _ in 0..n {
        count += match which.as_str() {
            "booking_floor" => floor_parse(black_box(BOOKING_VALID.as_bytes())) as usize,
            "booking_is_valid" | "payment_is_valid" | "orders_is_valid" => {
                let input = match which.as_str() {
                    "booking_is_valid" => BOOKING_VALID,
                    "payment_is_valid" => PAYMENT_VALID,
                    _ => ORDERS_VALID,
                };
                schema_for
                    .as_ref()
                    .expect("compiled")
                    .is_valid(black_box(input.as_bytes())) as usize
            }
            "booking_validate_json_invalid" => schema_for
                .as_ref()
                .expect("compiled")
                .validate_json(black_box(BOOKING_INVALID.as_bytes()))
                .len(),
            "booking_compile" => {
                Schema::compile_with(black_box(BOOKING_SCHEMA.as_bytes()), &full_options()).is_ok()
                    as usize
            }
            "is_valid" => weather.is_valid(black_box(valid)) as usize,
            "tiny_floor" => floor_parse(black_box(tiny_call)) as usize,
            "tiny_skip" => object.is_valid(black_box(tiny_call)) as usize,
            "tiny_is_valid" => tiny.is_valid(black_box(tiny_call)) as usize,
            "skip" => object.is_valid(black_box(valid)) as usize,
            "spaced_is_valid" => weather.is_valid(black_box(weather_spaced.as_bytes())) as usize,
            "flight_spaced_is_valid" => {
                flight.is_valid(black_box(flight_spaced.as_bytes())) as usize
            }
            "floor" => floor_parse(black_box(valid)) as usize,
            "validate_json_invalid" => weather.validate_json(black_box(invalid)).len(),
            "flight_is_valid" => flight.is_valid(black_box(flight_in.valid.as_bytes())) as usize,
            "flight_floor" => floor_parse(black_box(flight_in.valid.as_bytes())) as usize,
            "flight_skip" => object.is_valid(black_box(flight_in.valid.as_bytes())) as usize,
            "flight_validate_json_invalid" => flight
                .validate_json(black_box(flight_in.invalid.as_bytes()))
                .len(),
            "event_is_valid" => event.is_valid(black_box(event_in.valid.as_bytes())) as usize,
            "event_no_patterns" => {
                event_bare.is_valid(black_box(event_in.valid.as_bytes())) as usize
            }
            "flight_no_patterns" => {
                flight_bare.is_valid(black_box(flight_in.valid.as_bytes())) as usize
            }
            "event_floor" => floor_parse(black_box(event_in.valid.as_bytes())) as usize,
            "event_skip" => object.is_valid(black_box(event_in.valid.as_bytes())) as usize,
            "event_validate_json_invalid" => event
                .validate_json(black_box(event_in.invalid.as_bytes()))
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
                black_box(flight_in.valid.as_bytes()),
                &mut reused,
            ) as usize,
            "flight_call" => registry_call(
                &registry,
                "search_flights",
                black_box(flight_in.valid.as_bytes()),
            ) as usize,
            "flight_compile" => {
                Schema::compile(black_box(flight_in.schema.as_bytes())).is_ok() as usize
            }
            "event_compile" => {
                Schema::compile(black_box(event_in.schema.as_bytes())).is_ok() as usize
            }
            "none" => black_box(1),
            other => panic!("unknown contender {other:?}"),
        };
    }
    println!("{which}: {count} over {n} iterations");
}

/// The cycling mix's contenders: iteration `i` takes call `i % len`.
/// `call` parsed into a `serde_json::Value` and dropped: the parse the peers'
/// validators need before they validate.
#[inline(never)]
fn value_parse(call: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(call).is_ok()
}

/// openai-node's `query` tools of the full-profile mix (an `anyOf` of objects under
/// `items`, a recursive `$ref` under `anyOf`: where toolgate leads jsonschema least),
/// their calls in turn: `query_is_valid`, and `query_none` (the loop after building the
/// mix; subtract it).
fn query(which: &str, n: usize) {
    let tools = load_realworld().unwrap_or_else(|e| {
        eprintln!("{which}: realworld-tools cannot be read: {e}");
        std::process::exit(2);
    });
    let mix = build_mix(&tools, &full_options(), Strings::Ascii);
    let calls: Vec<_> = mix
        .tools
        .iter()
        .filter(|t| t.source == "openai/openai-node" && t.tool == "query")
        .collect();
    assert!(!calls.is_empty(), "no query tool in the mix");
    let mut count = 0usize;
    for i in 0..n {
        let a = calls[i % calls.len()];
        count += match which {
            "query_is_valid" => a.toolgate.is_valid(black_box(&a.call)) as usize,
            "query_none" => black_box(1),
            other => panic!("unknown contender {other:?}"),
        };
    }
    println!("{which}: {count} over {n} iterations");
}

fn cycle(which: &str, n: usize) {
    let tools = load_realworld().unwrap_or_else(|e| {
        eprintln!("{which}: realworld-tools cannot be read: {e}");
        std::process::exit(2);
    });
    let core = toolgate_core::Options::default();
    let full = full_options();
    let mix = build_mix(&tools, &core, Strings::Ascii);
    let non_ascii = build_mix(&tools, &core, Strings::NonAscii);
    let registry = mix_registry(&mix, &core);
    let bare = mix_bare(&mix, &core);
    let mut reused = toolgate_core::CallResult::default();
    // `{}`: a stream of it checks the bytes' syntax and duplicate names alone, at each
    // byte.
    let anything = Schema::compile(b"{}").expect("{} compiles");
    let mut buffer = Vec::new();
    let (t, u) = (&mix.tools, &non_ascii.tools);
    assert!(!t.is_empty() && !u.is_empty(), "empty mix");
    let mut count = 0usize;
    for i in 0..n {
        let (a, b) = (&t[i % t.len()], &u[i % u.len()]);
        count += match which {
            "cycle_floor" => floor_parse(black_box(&a.call)) as usize,
            "cycle_is_valid" => a.toolgate.is_valid(black_box(&a.call)) as usize,
            "cycle_validate_json" => a.toolgate.validate_json(black_box(&a.call)).len(),
            "cycle_non_ascii_floor" => floor_parse(black_box(&b.call)) as usize,
            "cycle_non_ascii_is_valid" => b.toolgate.is_valid(black_box(&b.call)) as usize,
            "cycle_call_into" => {
                registry_call_into(&registry, &a.name, black_box(&a.call), &mut reused) as usize
            }
            "cycle_bare_call_into" => {
                bare.call_into(&a.name, black_box(&a.call), &mut reused) as usize
            }
            "cycle_compile" => {
                Schema::compile_with(black_box(&a.schema_bytes), &core).is_ok() as usize
            }
            "cycle_compile_full" => {
                Schema::compile_with(black_box(&a.schema_bytes), &full).is_ok() as usize
            }
            "cycle_schema_value" => {
                Value::parse(black_box(&a.schema_bytes), Options::DEFAULT_MAX_DEPTH).is_ok()
                    as usize
            }
            "cycle_schema_floor" => floor_parse(black_box(&a.schema_bytes)) as usize,
            "cycle_stream_4" => streamed(&a.toolgate, black_box(&a.call), 4),
            "cycle_stream_16" => streamed(&a.toolgate, black_box(&a.call), 16),
            "cycle_non_ascii_stream_16" => streamed(&b.toolgate, black_box(&b.call), 16),
            "cycle_stream_64" => streamed(&a.toolgate, black_box(&a.call), 64),
            "cycle_stream_whole" => streamed(&a.toolgate, black_box(&a.call), usize::MAX),
            "cycle_stream_syntax_16" => streamed(&anything, black_box(&a.call), 16),
            "cycle_syntax_validate_json" => anything.validate_json(black_box(&a.call)).len(),
            "cycle_buffered_16" => buffered(&a.toolgate, black_box(&a.call), 16, &mut buffer),
            "cycle_jsonschema_is_valid" => {
                jsonschema_is_valid(&a.jsonschema, black_box(&a.call)) as usize
            }
            "cycle_boon_is_valid" => boon_is_valid(&a.boon, black_box(&a.call)) as usize,
            "cycle_value_floor" => value_parse(black_box(&a.call)) as usize,
            "cycle_none" => black_box(1),
            other => panic!("unknown contender {other:?}"),
        };
    }
    println!("{which}: {count} over {n} iterations");
}
