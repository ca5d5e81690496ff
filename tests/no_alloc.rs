//! What allocates nothing, counted with a global allocator: `is_valid` on valid
//! input, and a registry call into a reused result (`Registry::call_into`, and
//! `tg_registry_call_into` with a C handler, for a tool without an output schema and
//! for one whose answer passes its output schema) once the result's buffers have grown,
//! and reading what the result says of the call.

use std::ffi::{c_char, c_void};

use toolgate::errors::tg_errors_count;
use toolgate::registry::{
    tg_registry_call_into, tg_registry_free, tg_registry_new, tg_registry_register,
    tg_registry_register_tool,
};
use toolgate::reply::tg_reply_ok;
use toolgate::result::{
    tg_result_content, tg_result_free, tg_result_invalid_result, tg_result_new, tg_result_outcome,
    tg_result_structured, tg_result_violations,
};
use toolgate::{tg_errors, tg_outcome, tg_reply, tg_status, tg_tool_def, tg_tool_spec};
use toolgate_core::{
    CallResult, Handler, NamePolicy, Options, Profile, Registry, Schema, ToolSpec, Written,
};

#[path = "../crates/toolgate-core/tests/support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations;

/// Its patterns take each of the validator's matchers: `start` is fixed-width (one
/// vector check), `until` a few fixed shapes, `email` an automaton walked by shuffles.
const REALISTIC: &str = r#"{"type":"object","properties":{
  "title":{"type":"string","minLength":1,"maxLength":120},
  "start":{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$"},
  "until":{"type":"string","pattern":"^\\d{2}:\\d{2}(:\\d{2})?(Z|[+-]\\d{2}:\\d{2})$"},
  "duration_minutes":{"type":"integer","minimum":5,"maximum":480},
  "attendees":{"type":"array","maxItems":20,"items":{"type":"object","properties":{
      "email":{"type":"string","pattern":"^[^@\\s]+@[^@\\s]+$"},
      "optional":{"type":"boolean"}},"required":["email"],"additionalProperties":false}},
  "location":{"anyOf":[{"type":"string"},{"type":"null"}]},
  "priority":{"enum":["low","normal","high"]},
  "reminder":{"const":true},
  "budget":{"type":"number","minimum":0}},
 "required":["title","start"],"additionalProperties":false}"#;

#[test]
fn is_valid_allocates_nothing_on_valid_input() {
    let weather = Schema::compile(br#"{"type": "object","properties": {"city": {"type": "string", "minLength": 1},"days": {"type": "integer", "minimum": 1, "maximum": 7},"unit": {"enum": ["c", "f"]}},"required": ["city"], "additionalProperties": false}"#).unwrap();
    let realistic = Schema::compile(REALISTIC.as_bytes()).unwrap();
    // Exponents of any length are compared exactly, still without allocating.
    let huge = Schema::compile(
        br#"{"type":"array","items":{"anyOf":[
          {"type":"integer","minimum":-1e4503599627370497,"maximum":1e99999999999999999999999},
          {"enum":[1e-4503599627370497, 2.5e-99999999999999999999999]}]}}"#,
    )
    .unwrap();
    let cases: [(&Schema, &[u8]); 5] = [
        (&weather, br#"{"city":"Paris","days":3}"#),
        (&weather, br#"{"city":"Zurich","unit":"c","days":7}"#),
        (
            &realistic,
            br#"{"title":"Design review","start":"2026-12-01T10:30","until":"11:15:30+01:00","duration_minutes":45,
            "attendees":[{"email":"ana@example.com"},{"email":"bo@example.org","optional":true}],
            "location":null,"priority":"high","reminder":true,"budget":12.5}"#,
        ),
        (
            &weather,
            b" {\n  \"unit\" : \"f\", \"city\" : \"Caf\\u00e9\"\n} ",
        ),
        (
            &huge,
            b"[-9223372036854775808,1e4503599627370498,-0.1e4503599627370498,10e-4503599627370498,25e-100000000000000000000000]",
        ),
    ];
    for (s, input) in cases {
        assert!(s.is_valid(input));
        let before = allocations();
        for _ in 0..100 {
            assert!(s.is_valid(input));
        }
        let after = allocations();
        assert_eq!(
            after - before,
            0,
            "is_valid allocated on {}",
            String::from_utf8_lossy(input)
        );
    }
    // The counter works: validate_json on an invalid input allocates.
    let before = allocations();
    assert!(!weather.validate_json(br#"{"days":"3"}"#).is_empty());
    assert!(allocations() > before);
}

/// A full-profile tool schema of the kind pydantic and zod write: `$defs`/`$ref`,
/// `oneOf` discriminated by `const`, `allOf`, `if`/`then`, `format`, `exclusiveMinimum`,
/// `multipleOf`, `patternProperties`, `propertyNames`, `dependentRequired`.
const FULL: &str = r##"{
  "$defs": {
    "Address": {"type": "object", "properties": {
      "city": {"type": "string", "minLength": 1},
      "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}, "required": ["city"]},
    "Card": {"type": "object", "properties": {"kind": {"const": "card"},
      "number": {"type": "string"}, "cvc": {"type": "string"}},
      "required": ["kind", "number"], "dependentRequired": {"number": ["cvc"]}},
    "Cash": {"type": "object", "properties": {"kind": {"const": "cash"},
      "amount": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.01}},
      "required": ["kind", "amount"]}
  },
  "type": "object",
  "properties": {
    "when": {"type": "string", "format": "date-time"},
    "email": {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]},
    "where": {"$ref": "#/$defs/Address"},
    "pay": {"oneOf": [{"$ref": "#/$defs/Card"}, {"$ref": "#/$defs/Cash"}]},
    "tags": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"},
             "patternProperties": {"^[a-z]+$": {"type": "integer"}}},
    "guests": {"type": "integer", "minimum": 1},
    "room": {"type": "string"}
  },
  "allOf": [{"required": ["when"]}],
  "if": {"properties": {"guests": {"minimum": 3}}, "required": ["guests"]},
  "then": {"required": ["room"]},
  "required": ["where", "pay"],
  "additionalProperties": false
}"##;

/// The full profile's `is_valid` allocates nothing either, on a schema without
/// recursion, `uniqueItems` or `unevaluated*` (those keep state per value).
#[test]
fn full_profile_is_valid_allocates_nothing() {
    let opts = Options::default().with_profile(Profile::Full);
    let full = Schema::compile_with(FULL.as_bytes(), &opts).unwrap();
    let calls: [&[u8]; 3] = [
        br#"{"when":"2026-12-01T10:30:00Z","email":"ana@example.com","where":{"city":"Paris","zip":"75001"},"pay":{"kind":"card","number":"4242","cvc":"123"},"tags":{"vip":1}}"#,
        br#"{"when":"2026-12-01T10:30:00+01:00","email":null,"where":{"city":"Oslo"},"pay":{"kind":"cash","amount":12.5},"guests":4,"room":"B2"}"#,
        br#"{"when":"2026-12-01T10:30:00Z","where":{"city":"Rome"},"pay":{"kind":"cash","amount":0.01},"guests":2}"#,
    ];
    for input in calls {
        assert!(full.is_valid(input), "{}", String::from_utf8_lossy(input));
        let before = allocations();
        for _ in 0..100 {
            assert!(full.is_valid(input));
        }
        assert_eq!(
            allocations() - before,
            0,
            "is_valid allocated on {}",
            String::from_utf8_lossy(input)
        );
    }
    // And it checks what it says: each of these breaks one rule.
    for bad in [
        &br#"{"when":"2026-13-01T10:30:00Z","where":{"city":"Paris"},"pay":{"kind":"cash","amount":1}}"#[..],
        br#"{"when":"2026-12-01T10:30:00Z","where":{"city":"Paris"},"pay":{"kind":"card","number":"4242"}}"#,
        br#"{"when":"2026-12-01T10:30:00Z","where":{"city":"Paris"},"pay":{"kind":"cash","amount":0.001}}"#,
        br#"{"when":"2026-12-01T10:30:00Z","where":{"city":"Paris"},"pay":{"kind":"cash","amount":1},"guests":3}"#,
        br#"{"where":{"city":"Paris"},"pay":{"kind":"cash","amount":1}}"#,
        br#"{"when":"2026-12-01T10:30:00Z","where":{"city":"Paris"},"pay":{"kind":"cash","amount":1},"tags":{"VIP":1}}"#,
    ] {
        assert!(!full.is_valid(bad), "{}", String::from_utf8_lossy(bad));
    }
}

/// Values nested a few levels, skipped (a property no keyword names) and compared
/// with an `enum` and a `const` of nested values: no allocation either.
#[test]
fn nested_values_skipped_and_compared_allocate_nothing() {
    let schema = Schema::compile(
        br#"{"type":"object","properties":{
            "e":{"enum":[{"a":[1,{"b":[2.50,-0]}]},3]},
            "c":{"const":[[1,[2]],{"d":{"e":null}}]}}}"#,
    )
    .unwrap();
    let input: &[u8] = br#"{"x":{"y":[[1],{"z":{"w":[2,{"v":[true]}]}}]},"e":{"a":[1.0,{"b":[25e-1,0]}]},"c":[[1,[2e0]],{"d":{"e":null}}]}"#;
    assert!(schema.is_valid(input));
    let before = allocations();
    for _ in 0..100 {
        assert!(schema.is_valid(input));
    }
    assert_eq!(allocations() - before, 0, "is_valid allocated");
    assert!(!schema.is_valid(br#"{"e":{"a":[1,{"b":[2.5,1]}]}}"#));
    assert!(!schema.is_valid(br#"{"c":[[1,[2]],{"d":{"e":0}}]}"#));
}

const WEATHER: &str = r#"{"type": "object","properties": {"city": {"type": "string", "minLength": 1},"days": {"type": "integer", "minimum": 1, "maximum": 7},"unit": {"enum": ["c", "f"]}},"required": ["city"], "additionalProperties": false}"#;

/// Writes its answer into the caller's buffer.
struct Sunny;

impl Handler for Sunny {
    fn call(&self, _args: &[u8], _ctx: usize) -> Result<String, String> {
        Ok("sunny".to_owned())
    }
    fn call_into(&self, _args: &[u8], _ctx: usize, out: &mut String) -> Written {
        out.push_str("sunny");
        Written::Answer
    }
}

#[test]
fn call_into_a_reused_result_allocates_nothing() {
    let reg = Registry::new(NamePolicy::Default);
    let spec = ToolSpec {
        name: "get_weather".into(),
        parameters: Some(WEATHER.as_bytes().to_vec()),
        ..ToolSpec::default()
    };
    reg.register(spec, Box::new(Sunny), false).unwrap();
    let args = br#"{"city":"Paris","days":3}"#;
    let mut result = CallResult::default();
    // The first call grows the buffers (and sets up this thread's snapshot slot).
    reg.call_into("call_0001", "get_weather", args, 0, &mut result);
    assert_eq!((result.content.as_str(), result.is_error), ("sunny", false));
    let before = allocations();
    for _ in 0..100 {
        reg.call_into("call_0002", "get_weather", args, 0, &mut result);
    }
    assert_eq!(allocations() - before, 0, "call_into allocated");
    assert_eq!(
        (result.call_id.as_str(), result.content.as_str()),
        ("call_0002", "sunny")
    );
    // The counter works: the allocating call allocates.
    let before = allocations();
    assert_eq!(reg.call("c", "get_weather", args).content, "sunny");
    assert!(allocations() > before);
}

unsafe extern "C" fn sunny(
    _user_data: *mut c_void,
    _call_ctx: *mut c_void,
    _args: *const c_char,
    _args_len: usize,
    reply: *mut tg_reply,
) -> i32 {
    // SAFETY: `reply` is the live reply of this handler call.
    unsafe { tg_reply_ok(reply, b"sunny".as_ptr().cast(), 5) as i32 }
}

#[test]
fn tg_registry_call_into_allocates_nothing() {
    let (id, name, args) = ("call_0001", "get_weather", br#"{"city":"Paris","days":3}"#);
    let text = |p: *const c_char, n: usize| {
        // SAFETY: a text accessor's pointer and length, valid until the next refill.
        String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) })
            .into_owned()
    };
    // SAFETY: every pointer passed below is NULL (where allowed) or points to live
    // data of the given length; handles are used only between their creation and
    // their free.
    unsafe {
        let mut reg = std::ptr::null_mut();
        assert_eq!(
            tg_registry_new(0, &mut reg, std::ptr::null_mut()),
            tg_status::TG_OK
        );
        let def = tg_tool_def {
            name: name.as_ptr().cast(),
            name_len: name.len(),
            parameters: WEATHER.as_ptr().cast(),
            parameters_len: WEATHER.len(),
            ..std::mem::zeroed()
        };
        let status = tg_registry_register(
            reg,
            &def,
            Some(sunny),
            std::ptr::null_mut(),
            None,
            0,
            std::ptr::null_mut(),
        );
        assert_eq!(status, tg_status::TG_OK);
        let mut result = std::ptr::null_mut();
        assert_eq!(
            tg_result_new(&mut result, std::ptr::null_mut()),
            tg_status::TG_OK
        );
        let call = |result| {
            tg_registry_call_into(
                reg,
                id.as_ptr().cast(),
                id.len(),
                name.as_ptr().cast(),
                name.len(),
                args.as_ptr().cast(),
                args.len(),
                std::ptr::null_mut(),
                result,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(call(result), tg_status::TG_OK);
        let before = allocations();
        for _ in 0..100 {
            assert_eq!(call(result), tg_status::TG_OK);
        }
        assert_eq!(allocations() - before, 0, "tg_registry_call_into allocated");
        let (mut p, mut n) = (std::ptr::null(), 0);
        assert_eq!(tg_result_content(result, &mut p, &mut n), tg_status::TG_OK);
        assert_eq!(text(p, n), "sunny");
        tg_result_free(result);
        tg_registry_free(reg);
    }
}

/// Answers `{"temp":21}`, which the output schema of the test below accepts.
unsafe extern "C" fn temp(
    _user_data: *mut c_void,
    _call_ctx: *mut c_void,
    _args: *const c_char,
    _args_len: usize,
    reply: *mut tg_reply,
) -> i32 {
    const ANSWER: &[u8] = br#"{"temp":21,"unit":"c"}"#;
    // SAFETY: `reply` is the live reply of this handler call.
    unsafe { tg_reply_ok(reply, ANSWER.as_ptr().cast(), ANSWER.len()) as i32 }
}

/// A tool with an output schema: its answer is checked on every call, and a call whose
/// answer passes allocates nothing either; nor does reading the outcome, the structured
/// flag, the (empty) violations and the (absent) refused answer.
#[test]
fn tg_registry_call_into_a_checked_answer_allocates_nothing() {
    const OUTPUT: &str = r#"{"type":"object","properties":{"temp":{"type":"number"},"unit":{"enum":["c","f"]}},"required":["temp"],"additionalProperties":false}"#;
    let (id, name, args) = ("call_0001", "get_weather", br#"{"city":"Paris","days":3}"#);
    // SAFETY: every pointer passed below is NULL (where allowed) or points to live
    // data of the given length; handles are used only between their creation and
    // their free.
    unsafe {
        let mut reg = std::ptr::null_mut();
        assert_eq!(
            tg_registry_new(0, &mut reg, std::ptr::null_mut()),
            tg_status::TG_OK
        );
        let spec = tg_tool_spec {
            size: std::mem::size_of::<tg_tool_spec>(),
            name: name.as_ptr().cast(),
            name_len: name.len(),
            parameters: WEATHER.as_ptr().cast(),
            parameters_len: WEATHER.len(),
            output_schema: OUTPUT.as_ptr().cast(),
            output_schema_len: OUTPUT.len(),
            ..std::mem::zeroed()
        };
        let status = tg_registry_register_tool(
            reg,
            &spec,
            Some(temp),
            std::ptr::null_mut(),
            None,
            0,
            std::ptr::null_mut(),
        );
        assert_eq!(status, tg_status::TG_OK);
        let mut result = std::ptr::null_mut();
        assert_eq!(
            tg_result_new(&mut result, std::ptr::null_mut()),
            tg_status::TG_OK
        );
        let call = |result| {
            tg_registry_call_into(
                reg,
                id.as_ptr().cast(),
                id.len(),
                name.as_ptr().cast(),
                name.len(),
                args.as_ptr().cast(),
                args.len(),
                std::ptr::null_mut(),
                result,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(call(result), tg_status::TG_OK);
        let (mut outcome, mut structured) = (-1, false);
        let (mut violations, mut count): (*const tg_errors, usize) = (std::ptr::null(), 9);
        let (mut p, mut n) = (std::ptr::null(), 9);
        let before = allocations();
        for _ in 0..100 {
            assert_eq!(call(result), tg_status::TG_OK);
            assert_eq!(tg_result_outcome(result, &mut outcome), tg_status::TG_OK);
            assert_eq!(
                tg_result_structured(result, &mut structured),
                tg_status::TG_OK
            );
            assert_eq!(
                tg_result_violations(result, &mut violations),
                tg_status::TG_OK
            );
            assert_eq!(tg_errors_count(violations, &mut count), tg_status::TG_OK);
            assert_eq!(
                tg_result_invalid_result(result, &mut p, &mut n),
                tg_status::TG_OK
            );
        }
        assert_eq!(allocations() - before, 0, "tg_registry_call_into allocated");
        assert_eq!(outcome, tg_outcome::TG_OUTCOME_ANSWERED as i32);
        assert!(structured);
        assert_eq!((count, p.is_null(), n), (0, true, 0));
        assert_eq!(tg_result_content(result, &mut p, &mut n), tg_status::TG_OK);
        // SAFETY: a text accessor's pointer and length, valid until the next refill.
        let content = std::slice::from_raw_parts(p.cast::<u8>(), n);
        assert_eq!(content, br#"{"temp":21,"unit":"c"}"#);
        tg_result_free(result);
        tg_registry_free(reg);
    }
}
