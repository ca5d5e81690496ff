//! `toolgate.compile(schema) -> Schema`: the core's compiled schema.

use std::sync::{Arc, Mutex, PoisonError};

use arc_swap::ArcSwapOption;
use pyo3::exceptions::PyTypeError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString, PyTuple};
use pyo3::PyTraverseError;

use crate::errors::{self, status};
use crate::text::json_input;
use crate::{convert, GIL_HELD_MAX_BYTES};

/// A nesting limit as Python gives it: an int >= 0, where 0 means the default (128).
pub(crate) struct MaxDepth(pub(crate) usize);

impl<'a, 'py> FromPyObject<'a, 'py> for MaxDepth {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        match obj.extract::<usize>() {
            Ok(n) if !obj.is_instance_of::<pyo3::types::PyBool>() => Ok(MaxDepth(n)),
            _ => Err(errors::invalid_argument(
                obj.py(),
                &format!("max_depth must be a non-negative int, got {}", obj.repr()?),
            )),
        }
    }
}

/// A profile as Python names it: "core" (the default) or "full".
pub(crate) struct ProfileName(pub(crate) toolgate_core::Profile);

impl<'a, 'py> FromPyObject<'a, 'py> for ProfileName {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        // The names are the core's (`Profile::from_str`); the text is this binding's.
        match obj
            .extract::<String>()
            .map(|s| s.parse::<toolgate_core::Profile>())
        {
            Ok(Ok(profile)) => Ok(ProfileName(profile)),
            _ => Err(errors::invalid_argument(
                obj.py(),
                &format!("profile must be 'core' or 'full', got {}", obj.repr()?),
            )),
        }
    }
}

/// A draft as Python names it: "2020-12" (the default) or "7".
pub(crate) struct DraftName(pub(crate) toolgate_core::Draft);

impl<'a, 'py> FromPyObject<'a, 'py> for DraftName {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        // The names are the core's (`Draft::from_str`); the text is this binding's.
        match obj
            .extract::<String>()
            .map(|s| s.parse::<toolgate_core::Draft>())
        {
            Ok(Ok(draft)) => Ok(DraftName(draft)),
            _ => Err(errors::invalid_argument(
                obj.py(),
                &format!("draft must be '2020-12' or '7', got {}", obj.repr()?),
            )),
        }
    }
}

/// The full profile's settings beside the profile: the default draft, resources
/// references may reach (`{uri: schema}`), and format names taken as annotations.
#[derive(Default)]
pub(crate) struct FullSettings<'py> {
    pub(crate) draft: Option<DraftName>,
    pub(crate) resources: Option<Bound<'py, PyAny>>,
    pub(crate) annotation_formats: Option<Vec<String>>,
}

/// The options a schema is compiled with, from the keywords `compile` and
/// `ToolRegistry` take: each new schema option is one more keyword and one more line here.
/// `masked_values`: no value of a validated instance appears in any message.
pub(crate) fn schema_options(
    py: Python<'_>,
    max_depth: MaxDepth,
    profile: ProfileName,
    full: FullSettings<'_>,
    masked_values: bool,
) -> PyResult<toolgate_core::Options> {
    let mut options = toolgate_core::Options::default()
        .with_max_depth(max_depth.0)
        .with_profile(profile.0)
        .with_masked_values(masked_values);
    if let Some(DraftName(draft)) = full.draft {
        options = options.with_default_draft(draft);
    }
    if let Some(formats) = full.annotation_formats {
        options = options.with_annotation_formats(formats);
    }
    if let Some(resources) = full.resources {
        let dict = resources.cast::<pyo3::types::PyDict>().map_err(|_| {
            errors::invalid_argument(py, "resources must be a dict of URI to schema")
        })?;
        for (uri, schema) in dict.iter() {
            let uri: String = uri.extract().map_err(|_| {
                errors::invalid_argument(py, "resources must be a dict of URI to schema")
            })?;
            let input = json_input(&schema)?;
            options = options
                .with_resource(&uri, input.bytes())
                .map_err(|e| schema_error(py, &e, &e.to_string()))?;
        }
    }
    Ok(options)
}

/// True for the types that are raw JSON text rather than a JSON value.
pub(crate) fn is_text(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyBytes>()
        || value.is_instance_of::<PyByteArray>()
        || value.is_instance_of::<PyMemoryView>()
}

/// The core's compile error as `SchemaError`, with its pointer and keyword.
pub(crate) fn schema_error(
    py: Python<'_>,
    e: &toolgate_core::CompileError,
    message: &str,
) -> PyErr {
    errors::toolgate_error(
        py,
        "SchemaError",
        message,
        status::SCHEMA,
        &e.pointer,
        &e.keyword,
    )
}

/// A compiled JSON Schema (core profile), immutable and thread-safe.
///
/// `validate(args)` returns `OK` or a non-empty list of `ValidationError`;
/// `is_valid(args)` is the fast boolean path (no allocation on valid input).
#[pyclass(module = "toolgate", name = "Schema", frozen, weakref)]
pub(crate) struct Schema {
    /// `None` once closed. Loaded per call through a per-thread slot, so parallel
    /// validations share no reference count; a validation running while `close` is
    /// called keeps the schema alive until it returns.
    core: ArcSwapOption<toolgate_core::Schema>,
    /// The schema as given (or, given as text, its value); `None` once cleared by the GC.
    value: Mutex<Option<Py<PyAny>>>,
}

impl Schema {
    fn check(&self, py: Python<'_>, args: &Bound<'_, PyAny>, arguments: bool) -> PyResult<bool> {
        let guard = self.core.load();
        let schema = guard.as_ref().ok_or_else(|| errors::closed("schema"))?;
        let input = json_input(args)?;
        let bytes = input.bytes();
        let check = || {
            if arguments {
                schema.is_valid_arguments(bytes)
            } else {
                schema.is_valid(bytes)
            }
        };
        Ok(if bytes.len() > GIL_HELD_MAX_BYTES {
            py.detach(check)
        } else {
            check()
        })
    }

    fn full<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyAny>,
        arguments: bool,
        at_most: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let max = at_most.unwrap_or(usize::MAX);
        let guard = self.core.load();
        let schema = guard.as_ref().ok_or_else(|| errors::closed("schema"))?;
        let input = json_input(args)?;
        let bytes = input.bytes();
        let large = bytes.len() > GIL_HELD_MAX_BYTES;
        // The boolean fast path first: the error list is built only for input that fails.
        let errors = {
            let run = || {
                let valid = if arguments {
                    schema.is_valid_arguments(bytes)
                } else {
                    schema.is_valid(bytes)
                };
                if valid {
                    None
                } else if arguments {
                    Some(schema.validate_arguments_at_most(bytes, max))
                } else {
                    Some(schema.validate_json_at_most(bytes, max))
                }
            };
            if large {
                py.detach(run)
            } else {
                run()
            }
        };
        match errors {
            None => errors::ok(py),
            Some(found) if found.is_empty() => {
                // The fast path and the full walk disagree: never call such input valid.
                let refusal = toolgate_core::ValidationError {
                    path: "$".to_owned(),
                    pointer: String::new(),
                    keyword: "schema",
                    message: "rejected by the schema".to_owned(),
                    schema_location: "#".to_owned(),
                };
                Ok(errors::validation_errors(py, &[refusal])?.into_any())
            }
            Some(found) => Ok(errors::validation_errors(py, &found)?.into_any()),
        }
    }
}

#[pymethods]
impl Schema {
    /// Compiles `schema` (a JSON value, or JSON text as str/bytes); see `compile`.
    #[new]
    #[pyo3(
        signature = (schema, *, max_depth = MaxDepth(0), profile = ProfileName(toolgate_core::Profile::Core), draft = None, resources = None, annotation_formats = None, masked_values = false),
        text_signature = "(schema, *, max_depth=0, profile='core', draft=None, resources=None, annotation_formats=None, masked_values=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        schema: &Bound<'py, PyAny>,
        max_depth: MaxDepth,
        profile: ProfileName,
        draft: Option<DraftName>,
        resources: Option<Bound<'py, PyAny>>,
        annotation_formats: Option<Vec<String>>,
        masked_values: bool,
    ) -> PyResult<Schema> {
        let full = FullSettings {
            draft,
            resources,
            annotation_formats,
        };
        let options = schema_options(py, max_depth, profile, full, masked_values)?;
        compile_value(py, schema, &options)
    }

    /// True when `args` is well-formed JSON that satisfies the schema.
    fn is_valid(&self, py: Python<'_>, args: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.check(py, args, false)
    }

    /// `is_valid` for tool-call arguments: empty text means `{}`.
    fn is_valid_arguments(&self, py: Python<'_>, args: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.check(py, args, true)
    }

    /// `OK`, or every violation sorted by path then message. With `at_most`, at most
    /// that many: the first met in `args`, sorted, then, when there were more, one last
    /// violation at `$` (keyword `violations`) that says so; validation stops there, so
    /// `args` that break a rule a million times cost about what valid ones do (a
    /// registry lists at most `LISTED_VIOLATIONS` in a refusal).
    #[pyo3(signature = (args, *, at_most = None))]
    fn validate<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyAny>,
        at_most: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.full(py, args, false, at_most)
    }

    /// `validate` for tool-call arguments: empty text means `{}`.
    #[pyo3(signature = (args, *, at_most = None))]
    fn validate_arguments<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyAny>,
        at_most: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.full(py, args, true, at_most)
    }

    /// A stream of an instance of this schema, validated as its chunks arrive (see
    /// `SchemaStream`): refused at the first byte after which no continuation can be
    /// valid; its `finish()` returns what `validate` returns for all the bytes (with
    /// `at_most`, what `validate(..., at_most=...)` returns, and a refusal lists at most
    /// that many violations too).
    #[pyo3(signature = (*, at_most = None))]
    fn stream(&self, at_most: Option<usize>) -> PyResult<crate::stream::SchemaStream> {
        let schema = self
            .core
            .load_full()
            .ok_or_else(|| errors::closed("schema"))?;
        Ok(crate::stream::SchemaStream::new(
            schema,
            at_most.unwrap_or(usize::MAX),
        ))
    }

    /// The schema as compact JSON, keys in the author's order.
    #[getter]
    fn json(&self) -> PyResult<String> {
        let guard = self.core.load();
        let schema = guard.as_ref().ok_or_else(|| errors::closed("schema"))?;
        Ok(schema.to_json().to_owned())
    }

    /// The schema as given to `compile` (for JSON text, its value).
    #[getter]
    fn schema(&self, py: Python<'_>) -> Py<PyAny> {
        let value = self.value.lock().unwrap_or_else(PoisonError::into_inner);
        match value.as_ref() {
            Some(v) => v.clone_ref(py),
            None => py.None(),
        }
    }

    #[getter]
    fn closed(&self) -> bool {
        self.core.load().is_none()
    }

    /// Frees the compiled schema (idempotent); validating afterwards raises `ValueError`.
    fn close(&self) {
        self.core.store(None);
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, _exc: &Bound<'_, PyTuple>) {
        self.close();
    }

    fn __repr__(&self) -> &'static str {
        if self.closed() {
            "<toolgate.Schema closed>"
        } else {
            "<toolgate.Schema compiled>"
        }
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        // A lock held elsewhere cannot be waited for here; not visiting only means the
        // collector treats the value as referenced from outside, which is safe.
        if let Ok(value) = self.value.try_lock() {
            visit.call(value.as_ref())?;
        }
        Ok(())
    }

    fn __clear__(&self) {
        let taken = self
            .value
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        drop(taken);
    }
}

/// Compiles a Python schema argument with `options`.
fn compile_value(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    options: &toolgate_core::Options,
) -> PyResult<Schema> {
    if schema.is_none() {
        return Err(PyTypeError::new_err(
            "schema must be a JSON value or JSON text, not None",
        ));
    }
    let input = json_input(schema)?;
    let compiled = toolgate_core::Schema::compile_with(input.bytes(), options)
        .map_err(|e| schema_error(py, &e, &e.to_string()))?;
    // The schema as given; JSON text is read only once the core has accepted it.
    let value = if is_text(schema) {
        convert::to_python(py, input.bytes())?.unbind()
    } else {
        schema.clone().unbind()
    };
    drop(input);
    Ok(Schema {
        core: ArcSwapOption::new(Some(Arc::new(compiled))),
        value: Mutex::new(Some(value)),
    })
}

/// Compiles `schema` (a JSON value, or JSON text as str/bytes).
///
/// Raises `SchemaError` (a `ValueError`) naming the offending location (`.pointer`)
/// and keyword (`.keyword`) for anything outside the profile. `max_depth` bounds the
/// nesting of the schema and of the instances it validates (0: the default, 128).
/// `profile="full"` takes JSON Schema draft 2020-12 (or draft-07, by `$schema` or
/// `draft="7"`) with references, every applicator and asserted formats; `resources`
/// (`{uri: schema}`) are what references may reach beside the schema itself, and
/// `annotation_formats` names formats to accept without checking them.
/// `masked_values=True` keeps every value of a validated instance out of the messages
/// (`value is not one of ["c","f"]` where `"kelvin" is not one of ["c","f"]` would
/// quote it), for values that must not reach logs or a model's context.
#[pyfunction]
#[pyo3(
    signature = (schema, *, max_depth = MaxDepth(0), profile = ProfileName(toolgate_core::Profile::Core), draft = None, resources = None, annotation_formats = None, masked_values = false),
    text_signature = "(schema, *, max_depth=0, profile='core', draft=None, resources=None, annotation_formats=None, masked_values=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn compile<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    max_depth: MaxDepth,
    profile: ProfileName,
    draft: Option<DraftName>,
    resources: Option<Bound<'py, PyAny>>,
    annotation_formats: Option<Vec<String>>,
    masked_values: bool,
) -> PyResult<Schema> {
    Schema::new(
        py,
        schema,
        max_depth,
        profile,
        draft,
        resources,
        annotation_formats,
        masked_values,
    )
}
