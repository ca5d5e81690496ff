//! `toolgate._native`: the toolgate Rust core as a Python extension module (PyO3, the
//! limited API of Python 3.9, so one wheel serves every CPython from 3.9 on).
//!
//! The core is linked directly, not through its C ABI; every text a model or a host
//! reads (refusals, violations, handler failures) is the core's. The pure-Python part of
//! the package (`toolgate/*.py`) holds the exception and result types, `acall`, and the
//! few steps that are Python by nature (inspecting a handler's signature, running an
//! event loop).

mod convert;
mod dialect;
mod dispatch;
mod errors;
mod registry;
mod results;
mod schema;
mod stream;
mod text;

use pyo3::prelude::*;

/// Arguments up to this many bytes are validated without releasing the GIL, which
/// costs more than validating them; larger ones release it so other threads run.
pub(crate) const GIL_HELD_MAX_BYTES: usize = 64 * 1024;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<schema::Schema>()?;
    m.add_function(wrap_pyfunction!(schema::compile, m)?)?;
    m.add_function(wrap_pyfunction!(dialect::strict_schema, m)?)?;
    m.add_function(wrap_pyfunction!(dialect::lint_schema, m)?)?;
    m.add_class::<registry::Registry>()?;
    m.add_class::<registry::Step>()?;
    m.add_class::<stream::SchemaStream>()?;
    m.add_class::<stream::CallStream>()?;
    m.add_class::<dispatch::PyRunningCall>()?;
    m.add_class::<dispatch::PyCanceller>()?;
    m.add_function(wrap_pyfunction!(dispatch::_running_call, m)?)?;
    m.add_function(wrap_pyfunction!(results::result_json, m)?)?;
    m.add_function(wrap_pyfunction!(results::results_message_json, m)?)?;
    m.add_function(wrap_pyfunction!(results::read_calls, m)?)?;
    m.add("GIL_HELD_MAX_BYTES", GIL_HELD_MAX_BYTES)?;
    m.add(
        "DEFAULT_MAX_ARGUMENT_BYTES",
        toolgate_core::RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES,
    )?;
    m.add(
        "DEFAULT_MAX_DEPTH",
        toolgate_core::Options::DEFAULT_MAX_DEPTH,
    )?;
    m.add("MAX_DEPTH_LIMIT", toolgate_core::Options::MAX_DEPTH_LIMIT)?;
    m.add(
        "LISTED_VIOLATIONS",
        toolgate_core::schema::Schema::LISTED_VIOLATIONS,
    )?;
    m.add("version", toolgate_core::VERSION)?;
    // The core's statuses, (name, number, description), which `toolgate.Status` must
    // match (a test checks it; the enum itself is Python source so that the package's
    // errors load even when this module cannot).
    let statuses: Vec<(&str, i32, &str)> = toolgate_core::Status::ALL
        .iter()
        .map(|s| (s.name(), s.code(), s.description()))
        .collect();
    m.add("STATUSES", statuses)?;
    // The core's outcome names, in the order of its numbers: `toolgate.CallOutcome`
    // is made from them, so that Python holds no list of its own.
    let outcomes: Vec<&str> = toolgate_core::CallOutcome::ALL
        .iter()
        .map(|o| o.name())
        .collect();
    m.add("OUTCOMES", outcomes)?;
    Ok(())
}
