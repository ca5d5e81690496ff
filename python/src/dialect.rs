//! Strict conversion and the lint of one parameters schema, before it is a tool's: the
//! core's `strict_parameters` and `lint_schema`, with the core's texts.

use pyo3::prelude::*;

use crate::convert;
use crate::errors::{self, status};
use crate::text::json_input;

/// A target name (`openai-strict`, `anthropic-strict`, `gemini`), or ValueError.
pub(crate) fn target(py: Python<'_>, name: &str) -> PyResult<toolgate_dialect::Target> {
    name.parse()
        .map_err(|e: toolgate_dialect::UnknownName| errors::invalid_argument(py, &e.message))
}

/// The parameters schema `schema` (a JSON value, or JSON text as str/bytes) converted to
/// the form `target` accepts, meaning the same except for what the conversion states:
/// `{"schema": <the converted schema>, "nullable": [pointer, ...], "closed": [pointer,
/// ...]}`, the pointers (into the original schema) of the optional properties made
/// required and nullable (the tool then receives None for them; OpenAI strict) and of
/// the objects closed with `"additionalProperties": false`.
///
/// Raises `SchemaError` when no strict form exists, its message one line per reason
/// (`#POINTER: MESSAGE [RULE]`), `.pointer` and `.keyword` the first reason's pointer
/// and rule; `InvalidArgumentError` for an unknown target.
#[pyfunction]
pub(crate) fn strict_schema<'py>(
    py: Python<'py>,
    target: &str,
    schema: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let target = self::target(py, target)?;
    let input = json_input(schema)?;
    let text =
        std::str::from_utf8(input.bytes()).map_err(|_| errors::invalid_text(py, "schema"))?;
    match toolgate_dialect::strict_parameters(target, text) {
        Ok(converted) => {
            let report = converted.report_json();
            let json = format!("{{\"schema\":{},{}", converted.schema, &report[1..]);
            convert::to_python(py, json.as_bytes())
        }
        Err(problems) => {
            let (pointer, rule) = problems
                .first()
                .map_or(("", ""), |p| (p.pointer.as_str(), p.rule));
            Err(errors::toolgate_error(
                py,
                "SchemaError",
                &toolgate_dialect::strict_refusal(target, &problems),
                status::SCHEMA,
                pointer,
                rule,
            ))
        }
    }
}

/// Every problem `target` finds in one parameters schema on its own (no tool name to
/// check): `[{"tool": "", "pointer", "rule", "message"}, ...]`, sorted; empty when the
/// provider accepts it. Text that is not JSON is one problem (rule `json`).
#[pyfunction]
pub(crate) fn lint_schema<'py>(
    py: Python<'py>,
    target: &str,
    schema: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let target = self::target(py, target)?;
    let input = json_input(schema)?;
    let text =
        std::str::from_utf8(input.bytes()).map_err(|_| errors::invalid_text(py, "schema"))?;
    let problems = toolgate_dialect::lint_schema(target, text);
    let json = toolgate_dialect::LintProblem::json_array(&problems);
    convert::to_python(py, json.as_bytes())
}
