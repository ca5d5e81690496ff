//! libtoolgate: the C surface of the toolgate core (`toolgate-core`) and its provider
//! dialects (`toolgate-dialect`). No logic and no message text live here: only the
//! boundary between C and the core.
//!
//! One module per C type; every `extern "C"` entry point runs its body through
//! `boundary`, which catches panics, turns a NULL handle into a status and hands
//! the message of a failure back through the call's optional `tg_error **error_out`.
//! `include/toolgate.h` is generated from these files by `build.rs` (cbindgen), so
//! the doc comments here are the C documentation.
//!
//! Conventions of every function (repeated in the header's preamble):
//! - status first: every function that can fail returns `tg_status`; `TG_OK` is 0;
//! - input text is pointer + length, not NUL-terminated; NULL with length 0 is the
//!   empty text;
//! - out-parameters come last (`error_out` is the very last) and are written only on
//!   success (`error_out` only on failure, and only when non-NULL);
//! - text owned by a handle is returned as pointer + length, is also NUL-terminated,
//!   and lives as long as the handle;
//! - every handle kind has one `_free` function, and `_free(NULL)` is a no-op.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
// The C names are the Rust names: cbindgen copies them into the header as they are.
#![allow(non_camel_case_types)]

pub(crate) mod boundary;
pub mod calls;
pub mod dialect;
pub mod dispatch;
pub mod error;
pub mod errors;
pub mod observer;
pub mod options;
pub mod registry;
pub mod reply;
pub mod result;
pub mod running_call;
pub mod schema;
pub mod status;
pub mod stream;
pub mod text;
pub mod tool_info;
pub mod tool_spec;
pub mod version;

pub use calls::tg_calls;
pub use dialect::{tg_dialect, tg_lint_target};
pub use dispatch::{tg_call, tg_dispatch_options, TG_DISPATCH_ALL_OR_NOTHING, TG_DISPATCH_ISOLATE};
pub use error::tg_error;
pub use errors::tg_errors;
pub use observer::{tg_call_event, tg_observer_fn};
pub use options::{tg_compile_options, tg_draft, tg_profile, tg_resource, tg_str};
pub use registry::{
    tg_name_policy, tg_registry, tg_registry_options, tg_tool_def, TG_DEFAULT_MAX_ARGUMENT_BYTES,
    TG_REGISTER_OVERRIDE, TG_TARGET_ANTHROPIC_STRICT, TG_TARGET_GEMINI, TG_TARGET_OPENAI_STRICT,
};
pub use reply::{tg_destroy_fn, tg_handler_fn, tg_reply};
pub use result::{tg_outcome, tg_result};
pub use running_call::{tg_cancel_fn, tg_canceller, tg_running_call};
pub use schema::tg_schema;
pub use status::tg_status;
pub use text::tg_text;
pub use tool_info::tg_tool_info;
pub use tool_spec::{tg_tool_binding, tg_tool_spec};
