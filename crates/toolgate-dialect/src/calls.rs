//! The tool calls a provider's response asks for, read in each dialect's shape: the id
//! to answer, the tool's name, and the argument bytes exactly as the provider sent
//! them (the registry validates them; nothing here re-serializes them).
//!
//! | dialect | reads | id | arguments |
//! |---|---|---|---|
//! | `openai-chat` | a Chat Completions response (`choices[0].message.tool_calls`) or an assistant message (`{"role":"assistant","tool_calls":[...]}`) | `id` | the decoded text of the `function.arguments` string |
//! | `openai-responses` | a response (`output` items of type `function_call`) or the `output` array itself | `call_id` | the decoded text of the `arguments` string |
//! | `anthropic` | a Messages response or an assistant message (`content` blocks of type `tool_use`) | `id` | the exact bytes of the `input` object |
//! | `gemini` | a `GenerateContentResponse` (`candidates[0].content.parts[].functionCall`) or a `Content` (`parts[].functionCall`) | `id`, or `""` when the call has none | the exact bytes of the `args` object; empty (read as `{}`) when absent |
//! | `mcp` | a `tools/call` request (or a JSON array of JSON-RPC messages) | the JSON-RPC id's JSON text (`7`, `"a"`) | the exact bytes of `params.arguments`; empty (read as `{}`) when absent |

use std::fmt;

use toolgate_core::schema::Options;
use toolgate_core::value::Value;

use super::span::Span;
use super::{quote, Dialect};

/// One call a model asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolCall {
    /// The id the call's result must carry (empty for a Gemini call without one).
    pub id: String,
    /// The tool's name, as the provider sent it.
    pub name: String,
    /// The argument bytes as the provider sent them: the decoded text of an argument
    /// string (OpenAI), or the exact bytes of the argument object in the response
    /// (Anthropic, Gemini, MCP). Empty when the call sent none, which the registry
    /// reads as `{}`.
    pub arguments: Vec<u8>,
}

/// Why the calls of a response could not be read: the response is not JSON, not the
/// dialect's shape, or one call is malformed (then `index` is that call's place among
/// the response's calls, from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallsError {
    /// The call at fault, counting the response's calls from 0; `None` when the fault
    /// is the response's (not JSON, not the dialect's shape).
    pub index: Option<usize>,
    /// What is wrong: `tool call 2 (openai-chat): missing "id"`,
    /// `anthropic response: not valid JSON: ...` (`mcp request: ...` for MCP, whose
    /// calls come in requests).
    pub message: String,
}

impl fmt::Display for CallsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CallsError {}

/// The calls `response` asks for, in the order the provider listed them (see the
/// [module table](self) for what each dialect reads). The response is read strictly
/// (RFC 8259, duplicate keys refused). A response without calls (text only, an empty
/// choice list) gives no calls; a call missing its id or name, or whose arguments are
/// not what the dialect sends (a string for OpenAI, an object elsewhere), refuses the
/// whole response, naming the call. Arguments are not checked further: their
/// validation is the registry's, whose refusal answers the call.
pub fn read_calls(dialect: Dialect, response: &[u8]) -> Result<Vec<ToolCall>, CallsError> {
    if let Err(e) = Value::parse(response, Options::MAX_DEPTH_LIMIT) {
        return Err(whole(
            dialect,
            format!("not valid JSON: {}", e.message(response)),
        ));
    }
    let doc = Span::document(response);
    let mut reader = Calls {
        dialect,
        calls: Vec::new(),
    };
    match dialect {
        Dialect::OpenAiChat => reader.openai_chat(doc)?,
        Dialect::OpenAiResponses => reader.openai_responses(doc)?,
        Dialect::Anthropic => reader.anthropic(doc)?,
        Dialect::Gemini => reader.gemini(doc)?,
        Dialect::Mcp => reader.mcp(doc)?,
    }
    Ok(reader.calls)
}

/// An error of the whole response.
fn whole(dialect: Dialect, what: String) -> CallsError {
    CallsError {
        index: None,
        message: format!(
            "{dialect} {}: {what}",
            if dialect == Dialect::Mcp {
                "request"
            } else {
                "response"
            }
        ),
    }
}

/// The calls read so far, and the dialect they are read in.
struct Calls {
    dialect: Dialect,
    calls: Vec<ToolCall>,
}

impl Calls {
    /// An error of the call about to be read (the next index).
    fn bad_call(&self, what: String) -> CallsError {
        let index = self.calls.len();
        CallsError {
            index: Some(index),
            message: format!("tool call {index} ({}): {what}", self.dialect),
        }
    }

    fn bad_shape(&self, expected: &str, got: Span<'_>) -> CallsError {
        whole(
            self.dialect,
            format!("expected {expected}, got {}", got.type_name()),
        )
    }

    /// The member `key` of a call, a string.
    fn string(&self, call: Span<'_>, key: &str) -> Result<String, CallsError> {
        match call.get(key) {
            None => Err(self.bad_call(format!("missing {}", quote(key)))),
            Some(v) => v.as_str().ok_or_else(|| {
                self.bad_call(format!(
                    "{} must be a string, got {}",
                    quote(key),
                    v.type_name()
                ))
            }),
        }
    }

    /// The member `key` of a call, an object, as its exact bytes (empty when absent or
    /// null and `optional`).
    fn object(&self, call: Span<'_>, key: &str, optional: bool) -> Result<Vec<u8>, CallsError> {
        match call.get(key) {
            None if optional => Ok(Vec::new()),
            Some(v) if optional && v.is_null() => Ok(Vec::new()),
            None => Err(self.bad_call(format!("missing {}", quote(key)))),
            Some(v) if v.is_object() => Ok(v.bytes().to_vec()),
            Some(v) => Err(self.bad_call(format!(
                "{} must be an object, got {}",
                quote(key),
                v.type_name()
            ))),
        }
    }

    /// The members' value of `key` of `holder` as a list: absent or null is empty.
    fn list<'a>(&self, holder: Span<'a>, key: &str) -> Result<Vec<Span<'a>>, CallsError> {
        match holder.get(key) {
            None => Ok(Vec::new()),
            Some(v) if v.is_null() => Ok(Vec::new()),
            Some(v) if v.type_name() == "array" => Ok(v.items()),
            Some(v) => Err(whole(
                self.dialect,
                format!("{} must be an array, got {}", quote(key), v.type_name()),
            )),
        }
    }

    fn openai_chat(&mut self, doc: Span<'_>) -> Result<(), CallsError> {
        const SHAPE: &str = "a Chat Completions response or an assistant message";
        if !doc.is_object() {
            return Err(self.bad_shape(SHAPE, doc));
        }
        let message = if doc.get("choices").is_some() {
            let choices = self.list(doc, "choices")?;
            let Some(first) = choices.first() else {
                return Ok(());
            };
            match first.get("message") {
                Some(m) if m.is_object() => m,
                Some(m) => return Err(self.bad_shape("an object \"message\"", m)),
                None => return Err(whole(self.dialect, "choice 0 has no \"message\"".into())),
            }
        } else {
            doc
        };
        for call in self.list(message, "tool_calls")? {
            if !call.is_object() {
                return Err(self.bad_call(format!("expected an object, got {}", call.type_name())));
            }
            if let Some(kind) = call.get("type") {
                let kind = kind.as_str().unwrap_or_default();
                if kind != "function" {
                    return Err(self.bad_call(format!("type {} is not \"function\"", quote(&kind))));
                }
            }
            let id = self.string(call, "id")?;
            let Some(function) = call.get("function").filter(|f| f.is_object()) else {
                return Err(self.bad_call("missing the object \"function\"".into()));
            };
            let name = self.string(function, "name")?;
            let arguments = self.string(function, "arguments")?;
            self.calls.push(ToolCall {
                id,
                name,
                arguments: arguments.into_bytes(),
            });
        }
        Ok(())
    }

    fn openai_responses(&mut self, doc: Span<'_>) -> Result<(), CallsError> {
        let items = if doc.is_object() {
            self.list(doc, "output")?
        } else if doc.type_name() == "array" {
            doc.items()
        } else {
            return Err(self.bad_shape("a response or its \"output\" array", doc));
        };
        for item in items {
            if item.get("type").and_then(Span::as_str).as_deref() != Some("function_call") {
                continue;
            }
            let id = self.string(item, "call_id")?;
            let name = self.string(item, "name")?;
            let arguments = self.string(item, "arguments")?;
            self.calls.push(ToolCall {
                id,
                name,
                arguments: arguments.into_bytes(),
            });
        }
        Ok(())
    }

    fn anthropic(&mut self, doc: Span<'_>) -> Result<(), CallsError> {
        if !doc.is_object() {
            return Err(self.bad_shape("a Messages response or an assistant message", doc));
        }
        // `content` may be a plain string: text, no calls.
        if doc.get("content").and_then(Span::as_str).is_some() {
            return Ok(());
        }
        for block in self.list(doc, "content")? {
            if block.get("type").and_then(Span::as_str).as_deref() != Some("tool_use") {
                continue;
            }
            let id = self.string(block, "id")?;
            let name = self.string(block, "name")?;
            let arguments = self.object(block, "input", false)?;
            self.calls.push(ToolCall {
                id,
                name,
                arguments,
            });
        }
        Ok(())
    }

    fn gemini(&mut self, doc: Span<'_>) -> Result<(), CallsError> {
        const SHAPE: &str = "a GenerateContentResponse or a Content";
        if !doc.is_object() {
            return Err(self.bad_shape(SHAPE, doc));
        }
        let content = if doc.get("candidates").is_some() {
            let candidates = self.list(doc, "candidates")?;
            let Some(first) = candidates.first() else {
                return Ok(());
            };
            match first.get("content") {
                // A candidate stopped before any content (a safety stop): no calls.
                None => return Ok(()),
                Some(c) if c.is_object() => c,
                Some(c) => return Err(self.bad_shape("an object \"content\"", c)),
            }
        } else {
            doc
        };
        for part in self.list(content, "parts")? {
            let Some(call) = part.get("functionCall") else {
                continue;
            };
            if !call.is_object() {
                return Err(self.bad_call(format!(
                    "\"functionCall\" must be an object, got {}",
                    call.type_name()
                )));
            }
            let id = match call.get("id") {
                None => String::new(),
                Some(_) => self.string(call, "id")?,
            };
            let name = self.string(call, "name")?;
            let arguments = self.object(call, "args", true)?;
            self.calls.push(ToolCall {
                id,
                name,
                arguments,
            });
        }
        Ok(())
    }

    fn mcp(&mut self, doc: Span<'_>) -> Result<(), CallsError> {
        let messages = if doc.type_name() == "array" {
            doc.items()
        } else {
            vec![doc]
        };
        for message in messages {
            if !message.is_object() {
                return Err(self.bad_shape("a JSON-RPC request", message));
            }
            let Some(method) = message.get("method") else {
                return Err(whole(
                    self.dialect,
                    "not a JSON-RPC request: no \"method\"".into(),
                ));
            };
            if method.as_str().as_deref() != Some("tools/call") {
                continue;
            }
            let id = match message.get("id") {
                None => return Err(self.bad_call("missing \"id\"".into())),
                Some(id) if matches!(id.type_name(), "string" | "integer" | "number") => {
                    String::from_utf8_lossy(id.bytes()).into_owned()
                }
                Some(id) => {
                    return Err(self.bad_call(format!(
                        "\"id\" must be a string or a number, got {}",
                        id.type_name()
                    )))
                }
            };
            let Some(params) = message.get("params").filter(|p| p.is_object()) else {
                return Err(self.bad_call("missing the object \"params\"".into()));
            };
            let name = self.string(params, "name")?;
            let arguments = self.object(params, "arguments", true)?;
            self.calls.push(ToolCall {
                id,
                name,
                arguments,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(dialect: Dialect, response: &str) -> Vec<(String, String, String)> {
        read_calls(dialect, response.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(|c| (c.id, c.name, String::from_utf8(c.arguments).unwrap()))
            .collect()
    }

    fn error(dialect: Dialect, response: &str) -> CallsError {
        read_calls(dialect, response.as_bytes()).unwrap_err()
    }

    fn one(id: &str, name: &str, arguments: &str) -> Vec<(String, String, String)> {
        vec![(id.into(), name.into(), arguments.into())]
    }

    #[test]
    fn openai_chat_response_and_message() {
        let message = r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Paris\"}"}}]}"#;
        let expect = one("call_1", "get_weather", r#"{"city": "Paris"}"#);
        assert_eq!(calls(Dialect::OpenAiChat, message), expect);
        let response = format!(
            r#"{{"id":"chatcmpl-1","object":"chat.completion","choices":[{{"index":0,"message":{message},"finish_reason":"tool_calls"}}]}}"#
        );
        assert_eq!(calls(Dialect::OpenAiChat, &response), expect);
        assert!(calls(
            Dialect::OpenAiChat,
            r#"{"role":"assistant","content":"hi"}"#
        )
        .is_empty());
        assert!(calls(Dialect::OpenAiChat, r#"{"choices":[]}"#).is_empty());
    }

    #[test]
    fn openai_chat_errors_name_the_call() {
        let e = error(
            Dialect::OpenAiChat,
            r#"{"tool_calls":[{"id":"a","function":{"name":"x","arguments":"{}"}},{"function":{"name":"y","arguments":"{}"}}]}"#,
        );
        assert_eq!(e.index, Some(1));
        assert_eq!(e.message, r#"tool call 1 (openai-chat): missing "id""#);
        assert_eq!(
            error(
                Dialect::OpenAiChat,
                r#"{"tool_calls":[{"id":"a","function":{"name":"x","arguments":{}}}]}"#
            )
            .message,
            r#"tool call 0 (openai-chat): "arguments" must be a string, got object"#
        );
        assert_eq!(
            error(
                Dialect::OpenAiChat,
                r#"{"tool_calls":[{"id":"a","type":"custom","custom":{"name":"x","input":""}}]}"#
            )
            .message,
            r#"tool call 0 (openai-chat): type "custom" is not "function""#
        );
        let e = error(Dialect::OpenAiChat, "[1]");
        assert_eq!(e.index, None);
        assert_eq!(
            e.message,
            "openai-chat response: expected a Chat Completions response or an assistant message, got array"
        );
    }

    #[test]
    fn not_json_and_duplicate_keys_are_refused() {
        let e = error(Dialect::Anthropic, "{\"content\":[}");
        assert!(
            e.message
                .starts_with("anthropic response: not valid JSON: "),
            "{e}"
        );
        let e = error(
            Dialect::Anthropic,
            r#"{"content":[{"type":"tool_use","id":"t","name":"x","input":{"a":1,"a":2}}]}"#,
        );
        assert!(e.message.contains("duplicate"), "{e}");
    }

    #[test]
    fn openai_responses_uses_call_id() {
        let output = r#"[{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"}]"#;
        let expect = one("call_1", "get_weather", r#"{"city":"Paris"}"#);
        assert_eq!(calls(Dialect::OpenAiResponses, output), expect);
        let response = format!(r#"{{"id":"resp_1","object":"response","output":{output}}}"#);
        assert_eq!(calls(Dialect::OpenAiResponses, &response), expect);
        assert_eq!(
            error(
                Dialect::OpenAiResponses,
                r#"[{"type":"function_call","id":"fc_1","name":"x","arguments":"{}"}]"#
            )
            .message,
            r#"tool call 0 (openai-responses): missing "call_id""#
        );
    }

    #[test]
    fn anthropic_input_keeps_its_bytes() {
        let response = r#"{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{ "city" : "Paris", "n": 1.50 }}],"stop_reason":"tool_use"}"#;
        assert_eq!(
            calls(Dialect::Anthropic, response),
            one(
                "toolu_1",
                "get_weather",
                r#"{ "city" : "Paris", "n": 1.50 }"#
            )
        );
        assert!(calls(Dialect::Anthropic, r#"{"role":"assistant","content":"hi"}"#).is_empty());
        assert_eq!(
            error(
                Dialect::Anthropic,
                r#"{"content":[{"type":"tool_use","id":"t","name":"x","input":"{}"}]}"#
            )
            .message,
            r#"tool call 0 (anthropic): "input" must be an object, got string"#
        );
        assert_eq!(
            error(
                Dialect::Anthropic,
                r#"{"content":[{"type":"tool_use","id":"t","input":{}}]}"#
            )
            .message,
            r#"tool call 0 (anthropic): missing "name""#
        );
    }

    #[test]
    fn gemini_ids_and_missing_args() {
        let content = r#"{"role":"model","parts":[{"text":"ok"},{"functionCall":{"name":"a","args":{"x":[1, 2]}}},{"functionCall":{"id":"c2","name":"b"}}]}"#;
        let expect = vec![
            (
                String::new(),
                "a".to_string(),
                r#"{"x":[1, 2]}"#.to_string(),
            ),
            ("c2".to_string(), "b".to_string(), String::new()),
        ];
        assert_eq!(calls(Dialect::Gemini, content), expect);
        let response =
            format!(r#"{{"candidates":[{{"content":{content},"finishReason":"STOP"}}]}}"#);
        assert_eq!(calls(Dialect::Gemini, &response), expect);
        assert!(calls(
            Dialect::Gemini,
            r#"{"candidates":[{"finishReason":"SAFETY"}]}"#
        )
        .is_empty());
        assert_eq!(
            error(
                Dialect::Gemini,
                r#"{"parts":[{"functionCall":{"name":"a","args":[]}}]}"#
            )
            .message,
            r#"tool call 0 (gemini): "args" must be an object, got array"#
        );
    }

    #[test]
    fn mcp_reads_tools_call_requests() {
        let request = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}}"#;
        assert_eq!(
            calls(Dialect::Mcp, request),
            one("7", "get_weather", r#"{"city":"Paris"}"#)
        );
        let batch = r#"[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"r\u002d1","method":"tools/call","params":{"name":"ping"}}]"#;
        assert_eq!(calls(Dialect::Mcp, batch), one(r#""r\u002d1""#, "ping", ""));
        assert_eq!(
            error(
                Dialect::Mcp,
                r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"}}"#
            )
            .message,
            r#"tool call 0 (mcp): missing "id""#
        );
        assert_eq!(
            error(Dialect::Mcp, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).message,
            r#"mcp request: not a JSON-RPC request: no "method""#
        );
    }
}
