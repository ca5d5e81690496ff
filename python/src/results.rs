//! Results and calls in the providers' shapes: a `CallResult` written as the item that
//! answers its call (`result_json`), the results of one model turn as the message that
//! answers them all (`results_message_json`), and the tool calls of a provider's
//! response (`read_calls`). The bytes are the dialect crate's, the same in every host.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use toolgate_dialect::results::AsViolation;
use toolgate_dialect::{Dialect, ResultView, Violation};

use crate::errors;
use crate::schema::is_text;
use crate::text::{json_input, required_str, type_name};
use crate::GIL_HELD_MAX_BYTES;

/// A dialect name (`openai-chat`, `openai-responses`, `anthropic`, `mcp`, `gemini`),
/// or `InvalidArgumentError` (a `ValueError`) with the dialect crate's text.
fn dialect(py: Python<'_>, name: &str) -> PyResult<Dialect> {
    name.parse()
        .map_err(|e: toolgate_dialect::UnknownName| errors::invalid_argument(py, &e.message))
}

/// A `ValidationError`'s fields, read from Python.
struct OwnedViolation {
    pointer: String,
    keyword: String,
    message: String,
    schema_location: String,
}

impl AsViolation for OwnedViolation {
    fn as_violation(&self) -> Violation<'_> {
        Violation {
            pointer: &self.pointer,
            keyword: &self.keyword,
            message: &self.message,
            schema_location: &self.schema_location,
        }
    }
}

/// A `CallResult`'s fields, read from Python.
struct OwnedResult {
    call_id: String,
    name: String,
    content: String,
    is_error: bool,
    structured: bool,
    violations: Vec<OwnedViolation>,
}

/// A text field of `obj`: `TypeError` when it is not a `str`.
fn text_field(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<String> {
    let value = obj.getattr(field)?;
    Ok(required_str(&value, field)?.to_owned())
}

impl OwnedResult {
    /// The fields of a `CallResult` (any object with its attributes: `call_id`,
    /// `name`, `content`, `is_error`, `structured`, `violations`, each violation with
    /// `path`, `keyword`, `message`, `schema_location`).
    fn read(obj: &Bound<'_, PyAny>) -> PyResult<OwnedResult> {
        let mut violations = Vec::new();
        for v in obj.getattr("violations")?.try_iter()? {
            let v = v?;
            violations.push(OwnedViolation {
                pointer: text_field(&v, "path")?,
                keyword: text_field(&v, "keyword")?,
                message: text_field(&v, "message")?,
                schema_location: text_field(&v, "schema_location")?,
            });
        }
        Ok(OwnedResult {
            call_id: text_field(obj, "call_id")?,
            name: text_field(obj, "name")?,
            content: text_field(obj, "content")?,
            is_error: obj.getattr("is_error")?.is_truthy()?,
            structured: obj.getattr("structured")?.is_truthy()?,
            violations,
        })
    }

    fn view(&self) -> ResultView<'_, OwnedViolation> {
        ResultView {
            call_id: &self.call_id,
            name: &self.name,
            content: &self.content,
            is_error: self.is_error,
            structured: self.structured,
            violations: &self.violations,
        }
    }
}

/// The item that answers one call in `dialect`'s shape (`CallResult.result_json`).
#[pyfunction]
pub(crate) fn result_json(
    py: Python<'_>,
    dialect: &str,
    result: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let dialect = self::dialect(py, dialect)?;
    let owned = OwnedResult::read(result)?;
    Ok(toolgate_dialect::result_json(dialect, &owned.view()))
}

/// What answers all the calls of one model turn in `dialect`'s shape, in the order of
/// `results` (an iterable of `CallResult`): a JSON array of tool messages
/// (`openai-chat`), of `function_call_output` items (`openai-responses`) or of
/// JSON-RPC responses (`mcp`, one per call); one user message of `tool_result` blocks
/// (`anthropic`); one `Content` of `functionResponse` parts (`gemini`). Compact JSON,
/// the same bytes in every host. An unknown dialect raises `InvalidArgumentError`.
#[pyfunction]
pub(crate) fn results_message_json(
    py: Python<'_>,
    dialect: &str,
    results: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let dialect = self::dialect(py, dialect)?;
    let owned = results
        .try_iter()?
        .map(|r| OwnedResult::read(&r?))
        .collect::<PyResult<Vec<_>>>()?;
    let views: Vec<ResultView<'_, OwnedViolation>> = owned.iter().map(OwnedResult::view).collect();
    Ok(toolgate_dialect::results_message_json(dialect, &views))
}

/// The tool calls a provider's response asks for, in the order it lists them: a list
/// of `ToolCall(id, name, arguments)`, `arguments` the argument text exactly as sent.
/// `response` is the response's JSON text (`str` or bytes), read strictly (duplicate
/// keys refused). A response without calls gives `[]`; one that is not JSON or not
/// the dialect's shape, or with a malformed call, raises `InvalidResponseError` (a
/// `ValueError`; `.index` is the call at fault). An unknown dialect raises
/// `InvalidArgumentError`.
#[pyfunction]
pub(crate) fn read_calls<'py>(
    py: Python<'py>,
    dialect: &str,
    response: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let dialect = self::dialect(py, dialect)?;
    if !is_text(response) {
        return Err(PyTypeError::new_err(format!(
            "response must be the response's JSON text (str or bytes), not {}",
            type_name(response)
        )));
    }
    let input = json_input(response)?;
    let bytes = input.bytes();
    let read = if bytes.len() > GIL_HELD_MAX_BYTES {
        py.detach(|| toolgate_dialect::read_calls(dialect, bytes))
    } else {
        toolgate_dialect::read_calls(dialect, bytes)
    };
    let calls = read.map_err(|e| errors::invalid_response(py, &e))?;
    let list = PyList::empty(py);
    for call in &calls {
        // The arguments are text of the validated response, so UTF-8.
        let arguments = String::from_utf8_lossy(&call.arguments);
        list.append(errors::tool_call(py, &call.id, &call.name, &arguments)?)?;
    }
    Ok(list)
}
