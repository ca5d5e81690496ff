//! A call's result written as each provider takes it back: the item that answers one
//! call ([`result_json`]) and the message (or list of items) that answers all the
//! calls of one model turn ([`results_message_json`]).
//!
//! Compact JSON, members in a fixed order, strings escaped by the core's writer
//! ([`write_json_string`]): the same result gives the same bytes in every host.
//!
//! | dialect | one result |
//! |---|---|
//! | `openai-chat` | `{"role":"tool","tool_call_id":ID,"content":CONTENT}` |
//! | `openai-responses` | `{"type":"function_call_output","call_id":ID,"output":CONTENT}` |
//! | `anthropic` | `{"type":"tool_result","tool_use_id":ID,"content":CONTENT}`, with `"is_error":true` added for a failure |
//! | `mcp` | `{"content":[{"type":"text","text":CONTENT}],"structuredContent":ANSWER?,"isError":BOOL,"_meta":{"toolgate/violations":[...]}?}` |
//! | `gemini` | `{"functionResponse":{"id":ID?,"name":NAME,"response":{"output":ANSWER}}}`, or `{"error":CONTENT}` for a failure |

use toolgate_core::value::{write_json_string, Value};
use toolgate_core::{CallResult, ValidationError};

use super::Dialect;

/// The `_meta` key under which an MCP result lists the violations of a refused call
/// (its arguments, or the tool's answer, against the tool's schema). Namespaced with a
/// prefix (`toolgate/`), as MCP asks of keys that are not the protocol's own; the
/// prefix is one label, so it claims no domain name.
pub const MCP_VIOLATIONS_KEY: &str = "toolgate/violations";

/// One call's result, as a provider's result item is written from it: a borrowed view,
/// so a result held in any shape (the core's `CallResult`, a C result's buffers, a
/// binding's object) is written without copying. Its violations are a slice of any
/// type that reads as a [`Violation`] ([`AsViolation`]): [`Violation`]s themselves by
/// default, or the items of a result's own list.
#[derive(Debug, PartialEq, Eq)]
pub struct ResultView<'a, V: AsViolation = Violation<'a>> {
    /// The id of the call this result answers, as the provider sent it (for MCP, the
    /// JSON-RPC id's JSON text, as [`read_calls`](crate::read_calls) reads it).
    pub call_id: &'a str,
    /// The tool name the call asked for (Gemini's response names it).
    pub name: &'a str,
    /// The tool's answer, or the `error: ...` text of a failure.
    pub content: &'a str,
    /// Whether the call failed (unknown tool, invalid arguments, handler failure,
    /// invalid result, internal error).
    pub is_error: bool,
    /// Whether `content` is the tool's answer as one JSON text that conformed to the
    /// tool's output schema. Then the answer is written as JSON where a provider takes
    /// it (MCP's `structuredContent` when it is an object, Gemini's `output`), its
    /// bytes unchanged: the caller promises they are valid JSON. Ignored when
    /// `is_error`.
    pub structured: bool,
    /// The violations of a refused call: its arguments against the tool's parameters,
    /// or its answer against the tool's output schema. Written by the MCP dialect only
    /// (under `_meta`); every dialect's content already lists them as text.
    pub violations: &'a [V],
}

impl<V: AsViolation> Clone for ResultView<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: AsViolation> Copy for ResultView<'_, V> {}

impl Default for ResultView<'_> {
    fn default() -> Self {
        ResultView {
            call_id: "",
            name: "",
            content: "",
            is_error: false,
            structured: false,
            violations: &[],
        }
    }
}

/// What reads as a [`Violation`]: the item type of a [`ResultView`]'s violations.
pub trait AsViolation {
    /// The violation's fields, borrowed.
    fn as_violation(&self) -> Violation<'_>;
}

impl AsViolation for Violation<'_> {
    fn as_violation(&self) -> Violation<'_> {
        *self
    }
}

/// The core's violations read as they are, so a registry's result is written without
/// copying its list.
impl AsViolation for ValidationError {
    fn as_violation(&self) -> Violation<'_> {
        Violation {
            pointer: &self.pointer,
            keyword: self.keyword,
            message: &self.message,
            schema_location: &self.schema_location,
        }
    }
}

/// The view of a registry's result: every field borrowed from it.
impl<'a> From<&'a CallResult> for ResultView<'a, ValidationError> {
    fn from(result: &'a CallResult) -> Self {
        ResultView {
            call_id: &result.call_id,
            name: &result.name,
            content: &result.content,
            is_error: result.is_error,
            structured: result.structured,
            violations: &result.violations,
        }
    }
}

/// One violation of a schema, borrowed: where and which rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Violation<'a> {
    /// RFC 6901 pointer into the value that broke the rule (`/days`; `""` the whole
    /// value).
    pub pointer: &'a str,
    /// The schema keyword that failed (`type`, `required`, ...).
    pub keyword: &'a str,
    /// The terse message (`expected integer, got string`).
    pub message: &'a str,
    /// Where the failing keyword is in the schema, as a URI fragment
    /// (`#/properties/days/type`).
    pub schema_location: &'a str,
}

impl<V: AsViolation> ResultView<'_, V> {
    /// Whether the answer is written as JSON (structured, and not a failure).
    fn json_answer(&self) -> bool {
        self.structured && !self.is_error
    }
}

/// The provider's item that answers one call, as compact JSON (see the
/// [module table](self)).
///
/// - `openai-chat`: the tool message, byte for byte what
///   `toolgate_core::registry::tool_message_json` writes.
/// - `openai-responses`: a `function_call_output` input item.
/// - `anthropic`: a `tool_result` content block; `"is_error":true` only for a failure
///   (the provider's default is `false`).
/// - `mcp`: a `CallToolResult`. The content is one text block; `structuredContent` is
///   the answer's JSON when it is structured and an object (what MCP's output schemas
///   describe); `isError` is always written; a call with violations lists them under
///   `_meta` ([`MCP_VIOLATIONS_KEY`]) as `{"pointer","keyword","message","schemaLocation"}`.
/// - `gemini`: a `functionResponse` part, `id` written when the call had one. Its
///   `response` is an object: `{"output":ANSWER}` (the answer's JSON when structured,
///   else its text as a string), or `{"error":CONTENT}` for a failure.
pub fn result_json<V: AsViolation>(dialect: Dialect, result: &ResultView<'_, V>) -> String {
    let mut out = String::with_capacity(result.call_id.len() + result.content.len() + 64);
    write_result(&mut out, dialect, result);
    out
}

/// What answers all the calls of one model turn, as the provider wants it appended to
/// the conversation, in the order of `results`:
///
/// - `openai-chat`: a JSON array of tool messages (append each to `messages`);
/// - `openai-responses`: a JSON array of `function_call_output` items (append each to
///   `input`);
/// - `anthropic`: one user message, `{"role":"user","content":[tool_result, ...]}`;
/// - `gemini`: one `Content`, `{"role":"user","parts":[functionResponse, ...]}`;
/// - `mcp`: a JSON array of JSON-RPC responses, one per call,
///   `{"jsonrpc":"2.0","id":ID,"result":CallToolResult}` (send each as its own message).
///   `ID` is the call id as JSON text (what [`read_calls`](crate::read_calls) gives); an
///   id that is not a JSON number or string is written as a string.
pub fn results_message_json<V: AsViolation>(
    dialect: Dialect,
    results: &[ResultView<'_, V>],
) -> String {
    let mut out = String::new();
    match dialect {
        Dialect::Anthropic => out.push_str(r#"{"role":"user","content":["#),
        Dialect::Gemini => out.push_str(r#"{"role":"user","parts":["#),
        Dialect::OpenAiChat | Dialect::OpenAiResponses | Dialect::Mcp => out.push('['),
    }
    for (i, result) in results.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if dialect == Dialect::Mcp {
            out.push_str(r#"{"jsonrpc":"2.0","id":"#);
            write_jsonrpc_id(&mut out, result.call_id);
            out.push_str(r#","result":"#);
            write_result(&mut out, dialect, result);
            out.push('}');
        } else {
            write_result(&mut out, dialect, result);
        }
    }
    match dialect {
        Dialect::Anthropic | Dialect::Gemini => out.push_str("]}"),
        Dialect::OpenAiChat | Dialect::OpenAiResponses | Dialect::Mcp => out.push(']'),
    }
    out
}

fn write_result<V: AsViolation>(out: &mut String, dialect: Dialect, r: &ResultView<'_, V>) {
    match dialect {
        Dialect::OpenAiChat => {
            out.push_str(r#"{"role":"tool","tool_call_id":"#);
            write_json_string(out, r.call_id);
            out.push_str(r#","content":"#);
            write_json_string(out, r.content);
            out.push('}');
        }
        Dialect::OpenAiResponses => {
            out.push_str(r#"{"type":"function_call_output","call_id":"#);
            write_json_string(out, r.call_id);
            out.push_str(r#","output":"#);
            write_json_string(out, r.content);
            out.push('}');
        }
        Dialect::Anthropic => {
            out.push_str(r#"{"type":"tool_result","tool_use_id":"#);
            write_json_string(out, r.call_id);
            out.push_str(r#","content":"#);
            write_json_string(out, r.content);
            if r.is_error {
                out.push_str(r#","is_error":true"#);
            }
            out.push('}');
        }
        Dialect::Mcp => {
            out.push_str(r#"{"content":[{"type":"text","text":"#);
            write_json_string(out, r.content);
            out.push_str("}]");
            if r.json_answer() && starts_object(r.content) {
                out.push_str(r#","structuredContent":"#);
                out.push_str(r.content.trim_matches(JSON_WS));
            }
            out.push_str(r#","isError":"#);
            out.push_str(if r.is_error { "true" } else { "false" });
            if !r.violations.is_empty() {
                out.push_str(r#","_meta":{"#);
                write_json_string(out, MCP_VIOLATIONS_KEY);
                out.push_str(":[");
                for (i, v) in r.violations.iter().enumerate() {
                    let v = v.as_violation();
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(r#"{"pointer":"#);
                    write_json_string(out, v.pointer);
                    out.push_str(r#","keyword":"#);
                    write_json_string(out, v.keyword);
                    out.push_str(r#","message":"#);
                    write_json_string(out, v.message);
                    out.push_str(r#","schemaLocation":"#);
                    write_json_string(out, v.schema_location);
                    out.push('}');
                }
                out.push_str("]}");
            }
            out.push('}');
        }
        Dialect::Gemini => {
            out.push_str(r#"{"functionResponse":{"#);
            if !r.call_id.is_empty() {
                out.push_str(r#""id":"#);
                write_json_string(out, r.call_id);
                out.push(',');
            }
            out.push_str(r#""name":"#);
            write_json_string(out, r.name);
            if r.is_error {
                out.push_str(r#","response":{"error":"#);
                write_json_string(out, r.content);
            } else {
                out.push_str(r#","response":{"output":"#);
                if r.json_answer() {
                    out.push_str(r.content.trim_matches(JSON_WS));
                } else {
                    write_json_string(out, r.content);
                }
            }
            out.push_str("}}}");
        }
    }
}

/// JSON's insignificant whitespace, trimmed off a structured answer's ends.
const JSON_WS: &[char] = &[' ', '\t', '\n', '\r'];

/// Whether a JSON text is an object.
fn starts_object(json: &str) -> bool {
    json.trim_start_matches(JSON_WS).starts_with('{')
}

/// A JSON-RPC id: its JSON text when that is a number or a string, else the text as a
/// string.
fn write_jsonrpc_id(out: &mut String, id: &str) {
    match Value::parse(id.as_bytes(), 1) {
        Ok(Value::Number(_) | Value::String(_)) => out.push_str(id.trim_matches(JSON_WS)),
        _ => write_json_string(out, id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAYS: Violation<'static> = Violation {
        pointer: "/days",
        keyword: "type",
        message: "expected integer, got string",
        schema_location: "#/properties/days/type",
    };

    fn answered(content: &str, structured: bool) -> ResultView<'_> {
        ResultView {
            call_id: "call_1",
            name: "get_weather",
            content,
            structured,
            ..ResultView::default()
        }
    }

    #[test]
    fn openai_chat_is_the_core_tool_message() {
        for (id, content) in [
            ("call_1", "sunny"),
            ("", ""),
            ("a\"b\\c\n", "line\u{1}\u{7f}é\t{\"x\":1}"),
        ] {
            let view = ResultView {
                call_id: id,
                content,
                is_error: true,
                ..ResultView::default()
            };
            assert_eq!(
                result_json(Dialect::OpenAiChat, &view),
                toolgate_core::registry::tool_message_json(id, content)
            );
        }
    }

    #[test]
    fn anthropic_marks_only_failures() {
        let ok = answered("sunny", false);
        assert_eq!(
            result_json(Dialect::Anthropic, &ok),
            r#"{"type":"tool_result","tool_use_id":"call_1","content":"sunny"}"#
        );
        let failed = ResultView {
            is_error: true,
            content: "error: tool get_weather failed",
            ..ok
        };
        assert_eq!(
            result_json(Dialect::Anthropic, &failed),
            r#"{"type":"tool_result","tool_use_id":"call_1","content":"error: tool get_weather failed","is_error":true}"#
        );
    }

    #[test]
    fn mcp_structured_content_only_for_structured_objects() {
        let object = answered(" {\"t\": 21}\n", true);
        assert_eq!(
            result_json(Dialect::Mcp, &object),
            r#"{"content":[{"type":"text","text":" {\"t\": 21}\n"}],"structuredContent":{"t": 21},"isError":false}"#
        );
        // An answer that is JSON but not an object: text only.
        assert_eq!(
            result_json(Dialect::Mcp, &answered("[1]", true)),
            r#"{"content":[{"type":"text","text":"[1]"}],"isError":false}"#
        );
        // Not structured: text only, even when it looks like JSON.
        assert_eq!(
            result_json(Dialect::Mcp, &answered("{}", false)),
            r#"{"content":[{"type":"text","text":"{}"}],"isError":false}"#
        );
    }

    #[test]
    fn mcp_violations_go_under_meta() {
        let refused = ResultView {
            content:
                "error: invalid arguments for get_weather:\n$.days: expected integer, got string",
            is_error: true,
            structured: true,
            violations: &[DAYS],
            ..answered("", false)
        };
        assert_eq!(
            result_json(Dialect::Mcp, &refused),
            r##"{"content":[{"type":"text","text":"error: invalid arguments for get_weather:\n$.days: expected integer, got string"}],"isError":true,"_meta":{"toolgate/violations":[{"pointer":"/days","keyword":"type","message":"expected integer, got string","schemaLocation":"#/properties/days/type"}]}}"##
        );
    }

    /// A result's own violation type (owned strings, as the core's errors hold them)
    /// is written as the borrowed [`Violation`] it reads as.
    #[test]
    fn violations_of_any_type_that_reads_as_one() {
        struct Owned {
            pointer: String,
            keyword: &'static str,
            message: String,
            location: String,
        }
        impl AsViolation for Owned {
            fn as_violation(&self) -> Violation<'_> {
                Violation {
                    pointer: &self.pointer,
                    keyword: self.keyword,
                    message: &self.message,
                    schema_location: &self.location,
                }
            }
        }
        let owned = [Owned {
            pointer: DAYS.pointer.into(),
            keyword: "type",
            message: DAYS.message.into(),
            location: DAYS.schema_location.into(),
        }];
        let base = ResultView {
            content: "error: invalid arguments",
            is_error: true,
            ..answered("", false)
        };
        let theirs = ResultView {
            call_id: base.call_id,
            name: base.name,
            content: base.content,
            is_error: true,
            structured: false,
            violations: &owned[..],
        };
        let ours = ResultView {
            violations: &[DAYS],
            ..base
        };
        for d in Dialect::ALL {
            assert_eq!(result_json(d, &theirs), result_json(d, &ours), "{d}");
        }
    }

    /// A registry's own result is written as the view of its fields: no copy of its
    /// violations, the same bytes as a view built by hand.
    #[test]
    fn a_registry_result_is_its_view() {
        use toolgate_core::{Registry, ToolSpec};
        let registry = Registry::default();
        let spec = ToolSpec {
            name: "get_weather".into(),
            parameters: Some(
                br#"{"type":"object","properties":{"days":{"type":"integer"}}}"#.to_vec(),
            ),
            output_schema: Some(br#"{"type":"object"}"#.to_vec()),
            ..ToolSpec::default()
        };
        let handler = |_: &[u8], _: usize| Ok(r#"{"t":21}"#.to_string());
        registry.register(spec, Box::new(handler), false).unwrap();
        let refused = registry.call("call_1", "get_weather", br#"{"days":"3"}"#);
        let view = ResultView::from(&refused);
        assert_eq!(view.violations.len(), 1);
        let by_hand = ResultView {
            call_id: "call_1",
            name: "get_weather",
            content: &refused.content,
            is_error: true,
            structured: false,
            violations: &[DAYS],
        };
        for d in Dialect::ALL {
            assert_eq!(result_json(d, &view), result_json(d, &by_hand), "{d}");
        }
        let answered = registry.call("call_2", "get_weather", b"{}");
        let view = ResultView::from(&answered);
        assert!(view.structured && !view.is_error);
        assert_eq!(
            result_json(Dialect::Mcp, &view),
            r#"{"content":[{"type":"text","text":"{\"t\":21}"}],"structuredContent":{"t":21},"isError":false}"#
        );
    }

    #[test]
    fn gemini_output_and_error() {
        assert_eq!(
            result_json(Dialect::Gemini, &answered("{\"t\":21}", true)),
            r#"{"functionResponse":{"id":"call_1","name":"get_weather","response":{"output":{"t":21}}}}"#
        );
        assert_eq!(
            result_json(Dialect::Gemini, &answered("21", true)),
            r#"{"functionResponse":{"id":"call_1","name":"get_weather","response":{"output":21}}}"#
        );
        let no_id = ResultView {
            call_id: "",
            ..answered("sunny", false)
        };
        assert_eq!(
            result_json(Dialect::Gemini, &no_id),
            r#"{"functionResponse":{"name":"get_weather","response":{"output":"sunny"}}}"#
        );
        let failed = ResultView {
            is_error: true,
            structured: true,
            ..answered("error: boom", false)
        };
        assert_eq!(
            result_json(Dialect::Gemini, &failed),
            r#"{"functionResponse":{"id":"call_1","name":"get_weather","response":{"error":"error: boom"}}}"#
        );
    }

    #[test]
    fn messages_group_as_each_provider_wants() {
        let a = answered("x", false);
        let b = ResultView {
            call_id: "call_2",
            ..answered("y", false)
        };
        let both = [a, b];
        assert_eq!(
            results_message_json(Dialect::Anthropic, &both),
            format!(
                r#"{{"role":"user","content":[{},{}]}}"#,
                result_json(Dialect::Anthropic, &a),
                result_json(Dialect::Anthropic, &b)
            )
        );
        assert_eq!(
            results_message_json(Dialect::Gemini, &both),
            format!(
                r#"{{"role":"user","parts":[{},{}]}}"#,
                result_json(Dialect::Gemini, &a),
                result_json(Dialect::Gemini, &b)
            )
        );
        for d in [Dialect::OpenAiChat, Dialect::OpenAiResponses] {
            assert_eq!(
                results_message_json(d, &both),
                format!("[{},{}]", result_json(d, &a), result_json(d, &b))
            );
            assert_eq!(results_message_json::<Violation>(d, &[]), "[]");
        }
        assert_eq!(
            results_message_json::<Violation>(Dialect::Anthropic, &[]),
            r#"{"role":"user","content":[]}"#
        );
    }

    #[test]
    fn mcp_messages_are_jsonrpc_responses() {
        let ids = [
            ("7", "7"),
            ("\"req-1\"", "\"req-1\""),
            ("req-1", "\"req-1\""),
        ];
        for (id, written) in ids {
            let view = ResultView {
                call_id: id,
                ..answered("x", false)
            };
            assert_eq!(
                results_message_json(Dialect::Mcp, &[view]),
                format!(
                    r#"[{{"jsonrpc":"2.0","id":{written},"result":{}}}]"#,
                    result_json(Dialect::Mcp, &view)
                )
            );
        }
    }
}
