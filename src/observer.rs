//! `tg_call_event` and `tg_observer_fn`: what a registry's observer
//! (`tg_registry_options.observer`) is told about each dispatched call, the attributes
//! of a trace span for it.

use std::ffi::{c_char, c_void, CString};
use std::fmt;
use std::sync::OnceLock;

use super::result::{tg_outcome, RawOutcome};
use toolgate_core::registry::{CallErrorType, CallEvent, CallObserver};

/// What became of one dispatched call, as the registry's observer is told: the
/// attributes of a trace span for it (OpenTelemetry's `execute_tool`). Every pointer
/// is borrowed for the observer's call only: copy what you keep.
#[repr(C)]
pub struct tg_call_event {
    /// The call's id, as given (UTF-8, not NUL-terminated).
    pub call_id: *const c_char,
    /// Length of `call_id` in bytes.
    pub call_id_len: usize,
    /// The tool name the call asked for, as given, even when no such tool is
    /// registered (UTF-8, not NUL-terminated).
    pub tool: *const c_char,
    /// Length of `tool` in bytes.
    pub tool_len: usize,
    /// What became of the call (a `tg_outcome`; `tg_outcome_name` names it).
    pub outcome: RawOutcome,
    /// How many times the handler ran (0 when it did not run in this dispatch, a
    /// replayed result included).
    pub attempts: u32,
    /// NULL for an answer, else a short fixed name of the failure, static and
    /// NUL-terminated: `unknown_tool`, `invalid_arguments`, `tool_error`, `panic`,
    /// `invalid_result`, `timeout`, `internal`, `not_run`, `batch_too_large`,
    /// `duplicate_call_id`, `call_id_reused`, `call_id_running`, `cancelled`.
    pub error_type: *const c_char,
    /// How long the call took, in nanoseconds: from its start to its result (for a
    /// refused call, its validation).
    pub duration_ns: u64,
    /// The length of the call's argument bytes.
    pub argument_bytes: usize,
    /// Non-zero when the result is the one recorded for this call id
    /// (`tg_registry_options.remember_call_ids`) and the tool did not run again.
    pub replayed: u32,
}

/// A registry's observer (`tg_registry_options.observer`): `data` is
/// `tg_registry_options.observer_data`, `event` one dispatched call, borrowed for this
/// call only.
pub type tg_observer_fn =
    Option<unsafe extern "C" fn(data: *mut c_void, event: *const tg_call_event)>;

/// The static NUL-terminated name of an error type: made once for every type, then
/// indexed (the observer runs once per dispatched call).
fn error_type_name(error: CallErrorType) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        CallErrorType::ALL
            .iter()
            .map(|e| CString::new(e.name()).expect("names hold no NUL"))
            .collect()
    });
    CallErrorType::ALL
        .iter()
        .position(|&e| e == error)
        .map_or(std::ptr::null(), |i| names[i].as_ptr())
}

/// A C observer as the core's `CallObserver`.
pub(crate) struct CObserver {
    observer: unsafe extern "C" fn(data: *mut c_void, event: *const tg_call_event),
    data: *mut c_void,
}

// SAFETY: the library never dereferences `data`: it hands it to the caller's observer,
// which `tg_registry_options.observer` documents is called on the threads that call
// `tg_registry_dispatch`, with `data`, for as long as the registry lives.
unsafe impl Send for CObserver {}
// SAFETY: as for `Send`: `data` is only passed along, never read.
unsafe impl Sync for CObserver {}

impl fmt::Debug for CObserver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CObserver").finish_non_exhaustive()
    }
}

impl CObserver {
    /// The observer `observer` with its `data`, or None for a NULL function.
    pub(crate) fn new(observer: tg_observer_fn, data: *mut c_void) -> Option<CObserver> {
        observer.map(|observer| CObserver { observer, data })
    }
}

impl CallObserver for CObserver {
    fn observe(&self, event: &CallEvent<'_>) {
        let c = tg_call_event {
            call_id: event.call_id.as_ptr().cast(),
            call_id_len: event.call_id.len(),
            tool: event.tool.as_ptr().cast(),
            tool_len: event.tool.len(),
            outcome: tg_outcome::from(event.outcome) as RawOutcome,
            attempts: event.attempts,
            error_type: event.error_type.map_or(std::ptr::null(), error_type_name),
            duration_ns: u64::try_from(event.duration.as_nanos()).unwrap_or(u64::MAX),
            argument_bytes: event.argument_bytes,
            replayed: u32::from(event.replayed),
        };
        // SAFETY: the caller's observer, with the `data` it was given for it, called
        // on the dispatching thread as `tg_registry_options.observer` documents; `c`
        // and the texts it points to outlive the call.
        unsafe { (self.observer)(self.data, &c) }
    }
}
