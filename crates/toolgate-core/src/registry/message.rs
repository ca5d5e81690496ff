//! Every text the registry shows a model or a host: call refusals, handler failures
//! and registration refusals. The C surface and the bindings pass these bytes on and
//! never build their own, so every host shows the same text for the same event.

use super::text::{push_json_string, quote};
use crate::schema::{CompileError, ValidationError};
use crate::suggest;

/// `tool "x" is already registered`.
pub(crate) fn already_registered(name: &str) -> String {
    format!("tool {} is already registered", quote(name))
}

/// `tool "x" is listed twice in the batch`: a batch registration that names one tool
/// twice (refused whole, whatever the override flag says).
pub(crate) fn listed_twice(name: &str) -> String {
    format!("tool {} is listed twice in the batch", quote(name))
}

/// `invalid parameters for "x": #/pointer: what` (one line per problem).
pub(crate) fn invalid_parameters(name: &str, error: &CompileError) -> String {
    format!("invalid parameters for {}: {error}", quote(name))
}

/// `invalid output schema for "x": #/pointer: what` (one line per problem).
pub(crate) fn invalid_output_schema(name: &str, error: &CompileError) -> String {
    format!("invalid output schema for {}: {error}", quote(name))
}

/// `parameters for "x" must declare "type": "object"`.
pub(crate) fn not_object(name: &str) -> String {
    format!(
        r#"parameters for {} must declare "type": "object""#,
        quote(name)
    )
}

/// `unknown tool "x"`: what a host is told when it asks about (describes, unregisters)
/// a tool that is not registered.
pub fn unknown_tool_name(name: &str) -> String {
    format!("unknown tool {}", quote(name))
}

/// `error: unknown tool "x"; available tools: a, b[; did you mean "y"?]`: the content
/// of a call to a tool that is not registered. `sorted_names` are the registered names
/// in byte order and `available` their listing (see `suggest::available_list`).
pub(crate) fn unknown_tool<'a>(
    name: &str,
    available: &str,
    sorted_names: impl Iterator<Item = &'a str>,
) -> String {
    let mut out = format!(
        "error: {}; available tools: {available}",
        unknown_tool_name(name)
    );
    if let Some(close) = suggest::closest(name, sorted_names) {
        out.push_str("; did you mean ");
        push_json_string(&mut out, close);
        out.push('?');
    }
    out
}

/// The content of a call whose arguments the schema rejected: malformed JSON on one
/// line, schema violations one per line (`path: message`).
pub(crate) fn invalid_arguments(name: &str, errors: &[ValidationError]) -> String {
    let mut out = format!("error: invalid arguments for {name}:");
    push_violations(&mut out, errors, "parameters schema");
    out
}

/// `error: tool NAME returned an invalid result:` and the violations, as
/// [`invalid_arguments`] lists them: the content of a call whose handler answered with
/// text its tool's output schema refuses.
pub(crate) fn invalid_result(name: &str, errors: &[ValidationError]) -> String {
    let mut out = format!("error: tool {name} returned an invalid result:");
    push_violations(&mut out, errors, "output schema");
    out
}

/// The violations after a refusal's colon: malformed or over-long text on the same
/// line, schema violations one per line (`\npath: message`).
fn push_violations(out: &mut String, errors: &[ValidationError], schema: &str) {
    match errors {
        // Malformed or over-long text: one line, after the colon.
        [only] if only.keyword == "json" || only.keyword == "size" => {
            out.push(' ');
            out.push_str(&only.message);
        }
        // `is_valid` and `validate_json` disagree: refuse anyway, since only
        // what passed may go on.
        [] => {
            out.push_str(" rejected by the ");
            out.push_str(schema);
        }
        _ => {
            for e in errors {
                out.push('\n');
                out.push_str(&e.path);
                out.push_str(": ");
                out.push_str(&e.message);
            }
        }
    }
}

/// `N bytes is more than the limit of M`: arguments longer than the registry reads.
pub(crate) fn too_large(len: usize, limit: usize) -> String {
    format!("{len} bytes is more than the limit of {limit}")
}

/// `error: call cancelled`: the content of a call its host cancelled before the tool
/// ran (a Go `context` already cancelled or past its deadline); the tool does not run.
pub const CALL_CANCELLED: &str = "error: call cancelled";

/// The prefix of every failure's content.
pub const ERROR_PREFIX: &str = "error: ";

/// `error: MESSAGE`: the content of a call whose handler reported an error.
pub(crate) fn handler_error(message: &str) -> String {
    let mut out = String::with_capacity(ERROR_PREFIX.len() + message.len());
    out.push_str(ERROR_PREFIX);
    out.push_str(message);
    out
}

/// Writes `tool NAME failed` into `out` (emptied first): the error message of a handler
/// that failed without saying why. The call's content is then `error: tool NAME failed`.
pub fn write_tool_failed(out: &mut String, name: &str) {
    out.clear();
    out.push_str("tool ");
    out.push_str(name);
    out.push_str(" failed");
}

/// Writes `tool NAME exited without an answer` into `out` (emptied first): the error
/// message of a handler that ended without returning, panicking or raising (a Go tool
/// that called `runtime.Goexit`, as `t.Fatal` does). The call's content is then
/// `error: tool NAME exited without an answer`.
pub fn write_tool_exited(out: &mut String, name: &str) {
    out.clear();
    out.push_str("tool ");
    out.push_str(name);
    out.push_str(" exited without an answer");
}

/// `error: tool NAME returned a value of type TYPE, which is not JSON serializable`: the
/// content of a call whose handler answered with a value that its host cannot write as
/// JSON (in a host whose handlers return values, not text). `type_name` is the
/// offending value's type as the host names it.
pub fn result_not_json(name: &str, type_name: &str) -> String {
    format!(
        "error: tool {name} returned a value of type {type_name}, which is not JSON serializable"
    )
}

/// `handler for "x" cannot take property "from"`: a registration refused because the
/// schema declares a property that the handler has no parameter for (in a host that
/// passes arguments by name, a property named like a keyword of its language, or one
/// the handler's signature leaves out), so every call that sent it would fail.
pub fn property_not_accepted(name: &str, property: &str) -> String {
    format!(
        "handler for {} cannot take property {}",
        quote(name),
        quote(property)
    )
}

/// Writes `error: tool NAME panicked` into `out` (emptied first): the content of a call
/// whose handler panicked (or raised, in a host whose handlers raise). Never the
/// panic's text or a stack trace: those are for logs, not for the model's context.
pub(crate) fn write_tool_panicked(out: &mut String, name: &str) {
    out.clear();
    out.push_str("error: tool ");
    out.push_str(name);
    out.push_str(" panicked");
}

/// Writes `error: internal error while calling tool "NAME"` into `out` (emptied first):
/// a failure of the registry itself, never expected.
pub(crate) fn write_internal_error(out: &mut String, name: &str) {
    out.clear();
    out.push_str("error: internal error while calling tool ");
    push_json_string(out, name);
}

/// `error: tool NAME timed out after N ms`: the content of a dispatched call whose
/// deadline passed before its handler answered (its answer, if it comes, is dropped).
pub(crate) fn timed_out(name: &str, ms: u128) -> String {
    format!("error: tool {name} timed out after {ms} ms")
}

/// `error: not run: call "ID" to tool "NAME" in the same batch was refused`: the content
/// of a valid call an all-or-nothing dispatch did not run, naming the first refused
/// call of its batch.
pub(crate) fn not_run(refused_id: &str, refused_name: &str) -> String {
    format!(
        "error: not run: call {} to tool {} in the same batch was refused",
        quote(refused_id),
        quote(refused_name)
    )
}

/// `error: the batch holds N calls, more than the limit of M`: the content of every call
/// of a dispatch over its size limit (none runs).
pub(crate) fn batch_too_large(len: usize, limit: usize) -> String {
    format!("error: the batch holds {len} calls, more than the limit of {limit}")
}

/// `error: call id "X" is used by more than one call of the batch`: the content of every
/// call of a dispatch whose id another call of the same batch has too (none of them
/// runs).
pub(crate) fn duplicate_call_id(id: &str) -> String {
    format!(
        "error: call id {} is used by more than one call of the batch",
        quote(id)
    )
}

/// `error: call id "X" was already used with other arguments`: a call whose id the
/// registry remembers from a call with another tool name or other argument bytes.
pub(crate) fn call_id_reused(id: &str) -> String {
    format!(
        "error: call id {} was already used with other arguments",
        quote(id)
    )
}

/// `error: call id "X" is still running in another dispatch`: a call whose id a
/// concurrent dispatch of the same registry is running (it runs at most once).
pub(crate) fn call_id_running(id: &str) -> String {
    format!(
        "error: call id {} is still running in another dispatch",
        quote(id)
    )
}

/// `tool "t" is refused by openai-strict:` and one line per problem.
pub(crate) fn refused_by_check(name: &str, refusal: &super::CheckRefusal) -> String {
    format!(
        "tool {} is refused by {}:\n{}",
        quote(name),
        refusal.by,
        super::ToolProblem::join_lines(&refusal.problems)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(already_registered("a"), r#"tool "a" is already registered"#);
        assert_eq!(
            listed_twice("a"),
            r#"tool "a" is listed twice in the batch"#
        );
        assert_eq!(
            not_object("a"),
            r#"parameters for "a" must declare "type": "object""#
        );
        assert_eq!(unknown_tool_name("a\"b"), r#"unknown tool "a\"b""#);
        assert_eq!(handler_error("no station"), "error: no station");
        assert_eq!(CALL_CANCELLED, "error: call cancelled");
        let mut out = String::from("left over");
        write_tool_failed(&mut out, "t");
        assert_eq!(out, "tool t failed");
        write_tool_panicked(&mut out, "t");
        assert_eq!(out, "error: tool t panicked");
        write_tool_exited(&mut out, "t");
        assert_eq!(out, "tool t exited without an answer");
        assert_eq!(
            result_not_json("t", "set"),
            "error: tool t returned a value of type set, which is not JSON serializable"
        );
        assert_eq!(
            property_not_accepted("t", "from"),
            r#"handler for "t" cannot take property "from""#
        );
        write_internal_error(&mut out, "t");
        assert_eq!(out, r#"error: internal error while calling tool "t""#);
        assert_eq!(timed_out("t", 50), "error: tool t timed out after 50 ms");
        assert_eq!(
            not_run("c2", "nope"),
            r#"error: not run: call "c2" to tool "nope" in the same batch was refused"#
        );
        assert_eq!(
            batch_too_large(3, 2),
            "error: the batch holds 3 calls, more than the limit of 2"
        );
        assert_eq!(
            duplicate_call_id("c1"),
            r#"error: call id "c1" is used by more than one call of the batch"#
        );
        assert_eq!(
            call_id_reused("c1"),
            r#"error: call id "c1" was already used with other arguments"#
        );
        assert_eq!(
            call_id_running("c1"),
            r#"error: call id "c1" is still running in another dispatch"#
        );
    }

    fn violation(keyword: &'static str, path: &str, message: &str) -> ValidationError {
        ValidationError {
            path: path.into(),
            pointer: String::new(),
            keyword,
            message: message.into(),
            schema_location: "#".into(),
        }
    }

    #[test]
    fn invalid_result_texts() {
        let two = [
            violation("required", "$", "missing required property \"high\""),
            violation("type", "$.sky", "expected string, got integer"),
        ];
        assert_eq!(
            invalid_result("forecast", &two),
            "error: tool forecast returned an invalid result:\n\
             $: missing required property \"high\"\n\
             $.sky: expected string, got integer"
        );
        let malformed = [violation(
            "json",
            "$",
            "malformed JSON at line 1 column 1: expected a value",
        )];
        assert_eq!(
            invalid_result("t", &malformed),
            "error: tool t returned an invalid result: malformed JSON at line 1 column 1: expected a value"
        );
        let long = [violation("size", "$", &too_large(20, 16))];
        assert_eq!(
            invalid_result("t", &long),
            "error: tool t returned an invalid result: 20 bytes is more than the limit of 16"
        );
        assert_eq!(
            invalid_result("t", &[]),
            "error: tool t returned an invalid result: rejected by the output schema"
        );
        assert_eq!(
            invalid_arguments("t", &[]),
            "error: invalid arguments for t: rejected by the parameters schema"
        );
        let compile = CompileError::single("/type", "type", "\"type\" must be a type name");
        assert_eq!(
            invalid_output_schema("t", &compile),
            "invalid output schema for \"t\": #/type: \"type\" must be a type name"
        );
    }
}
