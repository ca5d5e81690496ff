//! Sequences of C-API calls, made as a C host makes them: raw pointers, texts as
//! pointer + length, NULL handles and buffers, NULL texts with non-zero lengths,
//! lengths that cut a buffer short (mid-character too), unknown policies and flags,
//! handlers that answer, fail, reply twice, reply invalid UTF-8 or call back into the
//! registry. A Rust `Registry` given the same registrations is the reference for every
//! status and every refusal's text; each registration's destructor must run exactly
//! once (counted), and the sanitizer reports any memory error or leak.
//!
//! The target itself never passes a length past the end of a buffer it owns, nor a
//! handle it has freed, so that whatever the sanitizer reports is the library's.

use std::ffi::{c_char, c_void};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicIsize, Ordering::SeqCst};

use arbitrary::Arbitrary;
use toolgate::error::{tg_error_free, tg_error_message, tg_error_status};
use toolgate::errors::{tg_errors_count, tg_errors_free, tg_errors_json, tg_errors_text};
use toolgate::registry::{
    tg_registry_call, tg_registry_call_into, tg_registry_definitions, tg_registry_describe,
    tg_registry_free, tg_registry_names, tg_registry_new, tg_registry_register,
    tg_registry_unregister, tg_registry_validate,
};
use toolgate::reply::{tg_reply_error, tg_reply_ok};
use toolgate::result::{
    tg_result_call_id, tg_result_content, tg_result_free, tg_result_is_error, tg_result_name,
    tg_result_new, tg_result_tool_message,
};
use toolgate::schema::{
    tg_schema_compile, tg_schema_free, tg_schema_is_valid, tg_schema_is_valid_arguments,
    tg_schema_validate, tg_schema_validate_arguments,
};
use toolgate::text::{tg_text_data, tg_text_free};
use toolgate::tool_info::{
    tg_tool_info_free, tg_tool_info_idempotent, tg_tool_info_name, tg_tool_info_parameters,
    tg_tool_info_timeout_ms,
};
use toolgate::{
    tg_error, tg_errors, tg_registry, tg_reply, tg_result, tg_status, tg_tool_def,
    TG_REGISTER_OVERRIDE,
};
use toolgate_core::{
    CallContext, NamePolicy, Options, RegisterErrorKind, Registry, Schema, ToolSpec,
};

/// Registrations whose `user_data` has not been destroyed yet.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// Texts to draw from: tool names of each policy, near misses, invalid UTF-8.
const TEXTS: &[&[u8]] = &[
    b"get_weather",
    b"db.get_user",
    b"a-b.c_d",
    b"x",
    b"",
    b"bad name",
    b"caf\xc3\xa9",
    b"\xff\xfe",
    b"toolong_toolong_toolong_toolong_toolong_toolong_toolong_toolong_x",
    br#"{"city":"Paris"}"#,
    br#"{"city":1}"#,
    b"{}",
    b"  ",
    b"[1,2]",
    b"{\"a\":1,\"a\":2}",
    b"{\"city\":\"\xe2\x82\"}",
];

const SCHEMAS: &[&[u8]] = &[
    br#"{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}"#,
    br#"{"type":"object"}"#,
    br#"{"type":"string"}"#,
    br#"{"type":"object","format":"x"}"#,
    b"{",
    b"",
    br#"{"type":"object","properties":{"a":{"pattern":"^[a-z]+$"}}}"#,
];

/// A text as a C host might pass it.
#[derive(Arbitrary, Debug)]
pub struct Text {
    bytes: TextBytes,
    len: Len,
}

#[derive(Arbitrary, Debug)]
enum TextBytes {
    Known(u8),
    Raw(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
enum Len {
    Whole,
    /// A prefix: `n` modulo the length plus one.
    Cut(u8),
    /// A NULL pointer with this length (0 is the empty text; any other a NULL error).
    Null(usize),
}

/// A text's bytes, kept alive while the call that borrows them runs.
struct Owned {
    buf: Vec<u8>,
    len: Len2,
}

enum Len2 {
    Prefix(usize),
    Null(usize),
}

impl Owned {
    fn new(t: &Text) -> Owned {
        let buf = match &t.bytes {
            TextBytes::Known(i) => TEXTS[*i as usize % TEXTS.len()].to_vec(),
            TextBytes::Raw(b) => b.clone(),
        };
        let len = match t.len {
            Len::Whole => Len2::Prefix(buf.len()),
            Len::Cut(n) => Len2::Prefix(n as usize % (buf.len() + 1)),
            Len::Null(n) => Len2::Null(n),
        };
        Owned { buf, len }
    }
    fn ptr(&self) -> *const c_char {
        match self.len {
            Len2::Prefix(_) => self.buf.as_ptr().cast(),
            Len2::Null(_) => null(),
        }
    }
    fn len(&self) -> usize {
        match self.len {
            Len2::Prefix(n) | Len2::Null(n) => n,
        }
    }
    /// The text the library reads, or why it must refuse it (`TG_ERR_NULL`).
    fn bytes(&self) -> Result<&[u8], tg_status> {
        match self.len {
            Len2::Prefix(n) => Ok(&self.buf[..n]),
            Len2::Null(0) => Ok(&[]),
            Len2::Null(_) => Err(tg_status::TG_ERR_NULL),
        }
    }
    /// As `bytes`, for text that must be UTF-8.
    fn str(&self) -> Result<&str, tg_status> {
        std::str::from_utf8(self.bytes()?).map_err(|_| tg_status::TG_ERR_UTF8)
    }
}

/// What a handler does; its `user_data` says which.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Answers with its arguments.
    Echo,
    /// Replies an error message and returns `TG_OK`.
    ReplyError,
    /// Returns a failure without a reply.
    FailSilently,
    /// Answers twice: the second answer stands.
    AnswerTwice,
    /// Answers bytes that are not UTF-8.
    InvalidUtf8,
    /// Answers NULL with length 0, then tries NULL with a length (refused).
    NullReply,
    /// Calls back into the registry given as `call_ctx` (read-only calls), then answers.
    Reenter,
}

struct HandlerData {
    mode: Mode,
}

#[derive(Arbitrary, Debug)]
pub enum Op {
    NewRegistry {
        policy: i8,
    },
    FreeRegistry {
        slot: u8,
    },
    Register {
        slot: u8,
        name: Text,
        description: Text,
        schema: Option<u8>,
        mode: Mode,
        flags: u8,
        idempotent: bool,
        timeout_ms: u64,
        null_def: bool,
        null_handler: bool,
        null_error_out: bool,
    },
    Unregister {
        slot: u8,
        name: Text,
    },
    Call {
        slot: u8,
        call_id: Text,
        name: Text,
        args: Text,
        reenter: bool,
        into: Option<u8>,
    },
    NewResult,
    FreeResult {
        slot: u8,
    },
    Validate {
        slot: u8,
        name: Text,
        args: Text,
    },
    Describe {
        slot: u8,
        name: Text,
    },
    List {
        slot: u8,
        definitions: bool,
        null_out: bool,
    },
    Compile {
        schema: Text,
        max_depth: u16,
    },
    SchemaCheck {
        slot: u8,
        instance: Text,
        arguments: bool,
        null_out: bool,
    },
    FreeSchema {
        slot: u8,
    },
}

struct RegistrySlot {
    handle: *mut tg_registry,
    shadow: Registry,
    /// The mode of each registered tool, by name.
    modes: std::collections::BTreeMap<String, Mode>,
}

#[derive(Default)]
struct State {
    registries: Vec<RegistrySlot>,
    results: Vec<*mut tg_result>,
    schemas: Vec<(*mut toolgate::schema::tg_schema, Schema)>,
}

fn pick<T>(v: &[T], slot: u8) -> Option<usize> {
    (!v.is_empty()).then(|| slot as usize % v.len())
}

/// A sentinel that a failing call must leave in its out-parameter.
fn sentinel<T>() -> *mut T {
    std::ptr::NonNull::dangling().as_ptr()
}

/// The text at `(ptr, len)`, which the library documents as NUL-terminated.
///
/// # Safety
/// `ptr`/`len` came from a successful accessor of a live handle.
unsafe fn owned_text(ptr: *const c_char, len: usize) -> Vec<u8> {
    assert!(!ptr.is_null(), "text pointer is NULL");
    // SAFETY: the accessor's contract: `len` bytes and a NUL after them, owned by a
    // live handle.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len + 1) };
    assert_eq!(bytes[len], 0, "text not NUL-terminated");
    bytes[..len].to_vec()
}

type Accessor<H> = unsafe extern "C" fn(*const H, *mut *const c_char, *mut usize) -> tg_status;

/// Reads one text accessor of a live handle, checking NULL out-parameters first.
///
/// # Safety
/// `h` is a live handle of the accessor's kind.
unsafe fn read_text<H>(h: *const H, f: Accessor<H>) -> Vec<u8> {
    let (mut p, mut n) = (null::<c_char>(), 0usize);
    // SAFETY: NULL out-parameters are allowed (refused with a status).
    assert_eq!(unsafe { f(h, null_mut(), &mut n) }, tg_status::TG_ERR_NULL);
    // SAFETY: as above.
    assert_eq!(unsafe { f(h, &mut p, null_mut()) }, tg_status::TG_ERR_NULL);
    // SAFETY: `h` is live; the out-parameters are writable.
    assert_eq!(unsafe { f(h, &mut p, &mut n) }, tg_status::TG_OK);
    // SAFETY: just returned by the accessor of a live handle.
    let text = unsafe { owned_text(p, n) };
    assert!(std::str::from_utf8(&text).is_ok(), "text not UTF-8");
    text
}

/// Checks and frees the error a failing call returned with status `status`.
///
/// # Safety
/// `err` is NULL, the sentinel, or a live `tg_error`.
unsafe fn take_error(status: tg_status, err: *mut tg_error, asked: bool) {
    if status == tg_status::TG_OK || !asked {
        assert_eq!(err, sentinel(), "error_out written on success");
        return;
    }
    assert!(
        err != sentinel() && !err.is_null(),
        "no error for {status:?}"
    );
    // SAFETY: a live error just returned.
    unsafe {
        assert_eq!(tg_error_status(err), status);
        let message = read_text(err, tg_error_message);
        assert!(!message.is_empty(), "empty error message");
        tg_error_free(err);
    }
}

/// Whether the out-parameter was left alone on failure and set on success.
fn check_out<T>(status: tg_status, out: *mut T) {
    if status == tg_status::TG_OK {
        assert!(out != sentinel() && !out.is_null(), "no output on success");
    } else {
        assert_eq!(out, sentinel(), "output written on failure");
    }
}

/// The first failure among argument checks (`None`: all pass). Which of several the
/// library reports is its choice, so the caller accepts any of them.
fn faults(checks: &[Result<(), tg_status>]) -> Vec<tg_status> {
    checks.iter().filter_map(|c| c.err()).collect()
}

fn expect_status(got: tg_status, faults: &[tg_status], otherwise: tg_status, what: &str) {
    if faults.is_empty() {
        assert_eq!(got, otherwise, "{what}");
    } else {
        assert!(
            faults.contains(&got),
            "{what}: {got:?}, expected one of {faults:?}"
        );
    }
}

unsafe extern "C" fn destroy(user_data: *mut c_void) {
    // SAFETY: `user_data` came from `Box::into_raw` in `register`, and the library
    // destroys each exactly once (a second time is a double free the sanitizer reports).
    drop(unsafe { Box::from_raw(user_data.cast::<HandlerData>()) });
    LIVE.fetch_sub(1, SeqCst);
}

unsafe extern "C" fn handler(
    user_data: *mut c_void,
    call_ctx: *mut c_void,
    args: *const c_char,
    args_len: usize,
    reply: *mut tg_reply,
) -> i32 {
    // SAFETY: `user_data` is the live `HandlerData` of this registration.
    let mode = unsafe { &*user_data.cast::<HandlerData>() }.mode;
    // SAFETY: the library passes the argument bytes for the duration of the call.
    let args = unsafe { std::slice::from_raw_parts(args.cast::<u8>(), args_len) };
    // SAFETY (every reply below): `reply` is this call's live reply; texts are ours.
    unsafe {
        match mode {
            Mode::Echo => tg_reply_ok(reply, args.as_ptr().cast(), args.len()) as i32,
            Mode::ReplyError => {
                tg_reply_error(reply, b"no luck".as_ptr().cast(), 7);
                tg_status::TG_OK as i32
            }
            Mode::FailSilently => tg_status::TG_ERR_HANDLER as i32,
            Mode::AnswerTwice => {
                tg_reply_ok(reply, b"first".as_ptr().cast(), 5);
                tg_reply_ok(reply, b"second".as_ptr().cast(), 6) as i32
            }
            Mode::InvalidUtf8 => tg_reply_ok(reply, b"a\xffb".as_ptr().cast(), 3) as i32,
            Mode::NullReply => {
                assert_eq!(tg_reply_ok(reply, null(), 0), tg_status::TG_OK);
                assert_eq!(tg_reply_ok(reply, null(), 5), tg_status::TG_ERR_NULL);
                assert_eq!(tg_reply_ok(null_mut(), null(), 0), tg_status::TG_ERR_NULL);
                tg_status::TG_OK as i32
            }
            Mode::Reenter => {
                let registry = call_ctx.cast::<tg_registry>();
                if !registry.is_null() {
                    let mut names = sentinel();
                    assert_eq!(
                        tg_registry_names(registry, &mut names, null_mut()),
                        tg_status::TG_OK
                    );
                    tg_text_free(names);
                    let mut result = sentinel();
                    let status = tg_registry_call(
                        registry,
                        b"inner".as_ptr().cast(),
                        5,
                        b"no_such_tool".as_ptr().cast(),
                        12,
                        null(),
                        0,
                        null_mut(),
                        &mut result,
                        null_mut(),
                    );
                    assert_eq!(status, tg_status::TG_OK);
                    let mut is_error = false;
                    assert_eq!(tg_result_is_error(result, &mut is_error), tg_status::TG_OK);
                    assert!(is_error);
                    tg_result_free(result);
                }
                tg_reply_ok(reply, b"back".as_ptr().cast(), 4) as i32
            }
        }
    }
}

/// What the handler's call gives, given the arguments it ran with.
fn answer(mode: Mode, name: &str, args: &[u8]) -> (String, bool) {
    match mode {
        Mode::Echo => (String::from_utf8_lossy(args).into_owned(), false),
        Mode::ReplyError => ("error: no luck".into(), true),
        Mode::FailSilently => (format!("error: tool {name} failed"), true),
        Mode::AnswerTwice => ("second".into(), false),
        Mode::InvalidUtf8 => ("a\u{fffd}b".into(), false),
        Mode::NullReply => (String::new(), false),
        Mode::Reenter => ("back".into(), false),
    }
}

fn policy_of(p: i8) -> Option<NamePolicy> {
    match p {
        0 => Some(NamePolicy::Default),
        1 => Some(NamePolicy::Dotted),
        2 => Some(NamePolicy::Mcp),
        _ => None,
    }
}

/// Runs the ops, then frees whatever is left; checks as it goes.
pub fn run(ops: &[Op]) {
    let live_before = LIVE.load(SeqCst);
    let mut st = State::default();
    for op in ops {
        // SAFETY: every handle passed is live (taken from `st`, removed when freed) or
        // NULL; every text points into a buffer that outlives the call, with a length
        // within it (or is NULL); out-parameters point to locals.
        unsafe { step(&mut st, op) };
    }
    // SAFETY: as above; each handle is freed once and dropped from `st`.
    unsafe {
        for r in st.registries.drain(..) {
            tg_registry_free(r.handle);
        }
        for r in st.results.drain(..) {
            tg_result_free(r);
        }
        for (s, _) in st.schemas.drain(..) {
            tg_schema_free(s);
        }
        // `_free(NULL)` is a no-op.
        tg_registry_free(null_mut());
        tg_result_free(null_mut());
        tg_schema_free(null_mut());
        tg_errors_free(null_mut());
        tg_error_free(null_mut());
        tg_text_free(null_mut());
        tg_tool_info_free(null_mut());
    }
    assert_eq!(
        LIVE.load(SeqCst),
        live_before,
        "destructors run {} times too few",
        LIVE.load(SeqCst) - live_before
    );
}

/// # Safety
/// See `run`: `st` holds only live handles.
unsafe fn step(st: &mut State, op: &Op) {
    use tg_status::*;
    match op {
        Op::NewRegistry { policy } => {
            if st.registries.len() >= 3 {
                return;
            }
            let mut out = sentinel();
            let mut err = sentinel();
            // SAFETY: out-parameters are locals.
            let status = unsafe { tg_registry_new(i32::from(*policy), &mut out, &mut err) };
            check_out(status, out);
            // SAFETY: `err` is the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            match policy_of(*policy) {
                Some(p) => {
                    assert_eq!(status, TG_OK);
                    st.registries.push(RegistrySlot {
                        handle: out,
                        shadow: Registry::new(p),
                        modes: Default::default(),
                    });
                }
                None => assert_eq!(status, TG_ERR_ARGUMENT),
            }
            // SAFETY: a NULL out-parameter is refused.
            assert_eq!(
                unsafe { tg_registry_new(0, null_mut(), null_mut()) },
                TG_ERR_NULL
            );
        }
        Op::FreeRegistry { slot } => {
            if let Some(i) = pick(&st.registries, *slot) {
                let r = st.registries.swap_remove(i);
                // SAFETY: live, and dropped from `st`.
                unsafe { tg_registry_free(r.handle) };
            }
        }
        Op::Register {
            slot,
            name,
            description,
            schema,
            mode,
            flags,
            idempotent,
            timeout_ms,
            null_def,
            null_handler,
            null_error_out,
        } => {
            let i = pick(&st.registries, *slot);
            let handle = i.map_or(null_mut(), |i| st.registries[i].handle);
            let name = Owned::new(name);
            let description = Owned::new(description);
            let parameters = schema.map(|s| SCHEMAS[s as usize % SCHEMAS.len()]);
            let def = tg_tool_def {
                name: name.ptr(),
                name_len: name.len(),
                description: description.ptr(),
                description_len: description.len(),
                parameters: parameters.map_or(null(), |p| p.as_ptr().cast()),
                parameters_len: parameters.map_or(12345, <[u8]>::len),
                idempotent: *idempotent,
                timeout_ms: *timeout_ms,
            };
            let flags = u32::from(*flags) & 0x81;
            let data = Box::into_raw(Box::new(HandlerData { mode: *mode })).cast::<c_void>();
            LIVE.fetch_add(1, SeqCst);
            let mut err = sentinel();
            let err_out = if *null_error_out {
                null_mut()
            } else {
                &mut err
            };
            let live = LIVE.load(SeqCst);
            // SAFETY: `def`'s texts borrow `name`, `description` and a static schema,
            // alive for the call; `data` is owned by the registration from here on.
            let status = unsafe {
                tg_registry_register(
                    handle,
                    if *null_def { null() } else { &def },
                    if *null_handler { None } else { Some(handler) },
                    data,
                    Some(destroy),
                    flags,
                    err_out,
                )
            };
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, !*null_error_out) };
            if status != TG_OK {
                assert_eq!(
                    LIVE.load(SeqCst),
                    live - 1,
                    "a failed registration kept user_data"
                );
            }
            let f = faults(&[
                if handle.is_null() || *null_def || *null_handler {
                    Err(TG_ERR_NULL)
                } else {
                    Ok(())
                },
                name.str().map(drop),
                description.str().map(drop),
                if flags & !TG_REGISTER_OVERRIDE != 0 {
                    Err(TG_ERR_ARGUMENT)
                } else {
                    Ok(())
                },
            ]);
            let Some(i) = i.filter(|_| f.is_empty()) else {
                expect_status(status, &f, TG_OK, "register");
                return;
            };
            let slot = &mut st.registries[i];
            let tool_name = name.str().unwrap().to_owned();
            let spec = ToolSpec {
                name: tool_name.clone(),
                description: description.str().unwrap().to_owned(),
                parameters: parameters.map(<[u8]>::to_vec),
                output_schema: None,
                idempotent: *idempotent,
                timeout_ms: *timeout_ms,
                exclusive: false,
            };
            let noop = |_: &[u8], _: &CallContext| -> Result<String, String> { Ok(String::new()) };
            let want = match slot.shadow.register(spec, Box::new(noop), flags != 0) {
                Ok(()) => {
                    slot.modes.insert(tool_name, *mode);
                    TG_OK
                }
                Err(e) => match e.kind {
                    RegisterErrorKind::InvalidName => TG_ERR_NAME,
                    RegisterErrorKind::Duplicate => TG_ERR_DUPLICATE,
                    RegisterErrorKind::InvalidSchema(_)
                    | RegisterErrorKind::InvalidOutputSchema(_)
                    | RegisterErrorKind::Refused(_) => TG_ERR_SCHEMA,
                    RegisterErrorKind::NotObject => TG_ERR_NOT_OBJECT,
                },
            };
            assert_eq!(status, want, "register {:?}", name.bytes());
        }
        Op::Unregister { slot, name } => {
            let i = pick(&st.registries, *slot);
            let handle = i.map_or(null_mut(), |i| st.registries[i].handle);
            let name = Owned::new(name);
            let mut err = sentinel();
            // SAFETY: `name` outlives the call.
            let status =
                unsafe { tg_registry_unregister(handle, name.ptr(), name.len(), &mut err) };
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            let f = faults(&[
                if handle.is_null() {
                    Err(TG_ERR_NULL)
                } else {
                    Ok(())
                },
                name.str().map(drop),
            ]);
            match i.filter(|_| f.is_empty()) {
                Some(i) => {
                    let slot = &mut st.registries[i];
                    let n = name.str().unwrap();
                    let removed = slot.shadow.unregister(n);
                    slot.modes.remove(n);
                    assert_eq!(status, if removed { TG_OK } else { TG_ERR_NOT_FOUND });
                }
                None => expect_status(status, &f, TG_OK, "unregister"),
            }
        }
        Op::Call {
            slot,
            call_id,
            name,
            args,
            reenter,
            into,
        } => {
            let i = pick(&st.registries, *slot);
            let handle = i.map_or(null_mut(), |i| st.registries[i].handle);
            let (call_id, name, args) = (Owned::new(call_id), Owned::new(name), Owned::new(args));
            let ctx = if *reenter {
                handle.cast::<c_void>()
            } else {
                null_mut()
            };
            let reuse = into.and_then(|r| pick(&st.results, r));
            let mut err = sentinel();
            let (status, result) = match reuse {
                Some(r) => {
                    let result = st.results[r];
                    // SAFETY: texts outlive the call; `result` is live and not shared.
                    let status = unsafe {
                        tg_registry_call_into(
                            handle,
                            call_id.ptr(),
                            call_id.len(),
                            name.ptr(),
                            name.len(),
                            args.ptr(),
                            args.len(),
                            ctx,
                            result,
                            &mut err,
                        )
                    };
                    (status, result)
                }
                None => {
                    let mut out = sentinel();
                    // SAFETY: texts outlive the call; out-parameters are locals.
                    let status = unsafe {
                        tg_registry_call(
                            handle,
                            call_id.ptr(),
                            call_id.len(),
                            name.ptr(),
                            name.len(),
                            args.ptr(),
                            args.len(),
                            ctx,
                            &mut out,
                            &mut err,
                        )
                    };
                    check_out(status, out);
                    (status, out)
                }
            };
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            let f = faults(&[
                if handle.is_null() {
                    Err(TG_ERR_NULL)
                } else {
                    Ok(())
                },
                call_id.str().map(drop),
                name.str().map(drop),
                args.bytes().map(drop),
            ]);
            let Some(i) = i.filter(|_| f.is_empty()) else {
                expect_status(status, &f, TG_OK, "call");
                return;
            };
            assert_eq!(status, TG_OK, "call");
            let slot = &st.registries[i];
            let (id, n, a) = (
                call_id.str().unwrap(),
                name.str().unwrap(),
                args.bytes().unwrap(),
            );
            let shadow = slot.shadow.call(id, n, a);
            let passed = slot.shadow.validate(n, a).is_some_and(|e| e.is_empty());
            let (content, is_error) = if passed {
                let blank = a.iter().all(|b| b" \t\r\n".contains(b));
                answer(slot.modes[n], n, if blank { b"{}" } else { a })
            } else {
                (shadow.content.clone(), true)
            };
            // SAFETY: `result` is live (a new one, or one of `st`'s).
            unsafe {
                assert_eq!(read_text(result, tg_result_call_id), id.as_bytes());
                assert_eq!(read_text(result, tg_result_name), n.as_bytes());
                let got = read_text(result, tg_result_content);
                assert_eq!(String::from_utf8_lossy(&got), content, "content of {n}");
                let mut e = !is_error;
                assert_eq!(tg_result_is_error(result, &mut e), TG_OK);
                assert_eq!(e, is_error);
                let message = read_text(result, tg_result_tool_message);
                let doc: serde_json::Value =
                    serde_json::from_slice(&message).expect("tool message is JSON");
                assert_eq!(doc["content"].as_str(), Some(content.as_str()));
                assert_eq!(doc["tool_call_id"].as_str(), Some(id));
                if reuse.is_none() {
                    tg_result_free(result);
                }
            }
        }
        Op::NewResult => {
            if st.results.len() < 3 {
                let mut out = sentinel();
                // SAFETY: out-parameter is a local.
                assert_eq!(unsafe { tg_result_new(&mut out, null_mut()) }, TG_OK);
                check_out(TG_OK, out);
                st.results.push(out);
            }
        }
        Op::FreeResult { slot } => {
            if let Some(i) = pick(&st.results, *slot) {
                // SAFETY: live, and dropped from `st`.
                unsafe { tg_result_free(st.results.swap_remove(i)) };
            }
        }
        Op::Validate { slot, name, args } => {
            let i = pick(&st.registries, *slot);
            let handle = i.map_or(null_mut(), |i| st.registries[i].handle);
            let (name, args) = (Owned::new(name), Owned::new(args));
            let (mut out, mut err) = (sentinel(), sentinel());
            // SAFETY: texts outlive the call; out-parameters are locals.
            let status = unsafe {
                tg_registry_validate(
                    handle,
                    name.ptr(),
                    name.len(),
                    args.ptr(),
                    args.len(),
                    &mut out,
                    &mut err,
                )
            };
            check_out(status, out);
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            let f = faults(&[
                if handle.is_null() {
                    Err(TG_ERR_NULL)
                } else {
                    Ok(())
                },
                name.str().map(drop),
                args.bytes().map(drop),
            ]);
            let Some(i) = i.filter(|_| f.is_empty()) else {
                expect_status(status, &f, TG_OK, "validate");
                return;
            };
            let want = st.registries[i]
                .shadow
                .validate(name.str().unwrap(), args.bytes().unwrap());
            let Some(want) = want else {
                assert_eq!(status, TG_ERR_NOT_FOUND);
                return;
            };
            assert_eq!(status, TG_OK);
            // SAFETY: `out` is a live list.
            unsafe { check_errors(out, &want) };
        }
        Op::Describe { slot, name } => {
            let i = pick(&st.registries, *slot);
            let handle = i.map_or(null_mut(), |i| st.registries[i].handle);
            let name = Owned::new(name);
            let (mut out, mut err) = (sentinel(), sentinel());
            // SAFETY: texts outlive the call; out-parameters are locals.
            let status =
                unsafe { tg_registry_describe(handle, name.ptr(), name.len(), &mut out, &mut err) };
            check_out(status, out);
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            let f = faults(&[
                if handle.is_null() {
                    Err(TG_ERR_NULL)
                } else {
                    Ok(())
                },
                name.str().map(drop),
            ]);
            let Some(i) = i.filter(|_| f.is_empty()) else {
                expect_status(status, &f, TG_OK, "describe");
                return;
            };
            let Some(info) = st.registries[i].shadow.describe(name.str().unwrap()) else {
                assert_eq!(status, TG_ERR_NOT_FOUND);
                return;
            };
            assert_eq!(status, TG_OK);
            // SAFETY: `out` is a live tool info, freed once here.
            unsafe {
                assert_eq!(read_text(out, tg_tool_info_name), info.name.as_bytes());
                assert_eq!(
                    read_text(out, tg_tool_info_parameters),
                    info.parameters.as_bytes()
                );
                let mut idem = !info.idempotent;
                assert_eq!(tg_tool_info_idempotent(out, &mut idem), TG_OK);
                assert_eq!(idem, info.idempotent);
                let mut t = info.timeout_ms.wrapping_add(1);
                assert_eq!(tg_tool_info_timeout_ms(out, &mut t), TG_OK);
                assert_eq!(t, info.timeout_ms);
                assert_eq!(tg_tool_info_timeout_ms(out, null_mut()), TG_ERR_NULL);
                tg_tool_info_free(out);
            }
        }
        Op::List {
            slot,
            definitions,
            null_out,
        } => {
            let i = pick(&st.registries, *slot);
            let handle = i.map_or(null_mut(), |i| st.registries[i].handle);
            let (mut out, mut err) = (sentinel(), sentinel());
            let out_ptr = if *null_out { null_mut() } else { &mut out };
            // SAFETY: out-parameters are locals or NULL.
            let status = unsafe {
                if *definitions {
                    tg_registry_definitions(handle, out_ptr, &mut err)
                } else {
                    tg_registry_names(handle, out_ptr, &mut err)
                }
            };
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            let Some(i) = i.filter(|_| !*null_out) else {
                assert_eq!(status, TG_ERR_NULL);
                assert_eq!(out, sentinel());
                return;
            };
            assert_eq!(status, TG_OK);
            let shadow = &st.registries[i].shadow;
            let want = if *definitions {
                shadow.definitions_json().to_string()
            } else {
                shadow.names().join("\n")
            };
            // SAFETY: `out` is a live text, freed once here.
            unsafe {
                assert_eq!(read_text(out, tg_text_data), want.as_bytes());
                tg_text_free(out);
            }
        }
        Op::Compile { schema, max_depth } => {
            if st.schemas.len() >= 3 {
                return;
            }
            let json = Owned::new(schema);
            let (mut out, mut err) = (sentinel(), sentinel());
            let depth = usize::from(*max_depth);
            // SAFETY: `json` outlives the call; out-parameters are locals.
            let status =
                unsafe { tg_schema_compile(json.ptr(), json.len(), depth, &mut out, &mut err) };
            check_out(status, out);
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(status, err, true) };
            let bytes = match json.bytes() {
                Ok(b) => b,
                Err(e) => return assert_eq!(status, e),
            };
            match Schema::compile_with(bytes, &Options::default().with_max_depth(depth)) {
                Ok(s) => {
                    assert_eq!(status, TG_OK);
                    st.schemas.push((out, s));
                }
                Err(_) => assert_eq!(status, TG_ERR_SCHEMA),
            }
        }
        Op::SchemaCheck {
            slot,
            instance,
            arguments,
            null_out,
        } => {
            let i = pick(&st.schemas, *slot);
            let handle = i.map_or(null_mut(), |i| st.schemas[i].0);
            let inst = Owned::new(instance);
            let mut valid = false;
            let valid_out: *mut bool = if *null_out { null_mut() } else { &mut valid };
            // SAFETY: `inst` outlives the call; out-parameters are locals or NULL.
            let status = unsafe {
                if *arguments {
                    tg_schema_is_valid_arguments(handle, inst.ptr(), inst.len(), valid_out)
                } else {
                    tg_schema_is_valid(handle, inst.ptr(), inst.len(), valid_out)
                }
            };
            let (mut list, mut err) = (sentinel(), sentinel());
            // SAFETY: as above.
            let list_status = unsafe {
                if *arguments {
                    tg_schema_validate_arguments(
                        handle,
                        inst.ptr(),
                        inst.len(),
                        &mut list,
                        &mut err,
                    )
                } else {
                    tg_schema_validate(handle, inst.ptr(), inst.len(), &mut list, &mut err)
                }
            };
            check_out(list_status, list);
            // SAFETY: the sentinel or a new error.
            unsafe { take_error(list_status, err, true) };
            let f = faults(&[
                if handle.is_null() {
                    Err(TG_ERR_NULL)
                } else {
                    Ok(())
                },
                inst.bytes().map(drop),
            ]);
            let Some(i) = i.filter(|_| f.is_empty()) else {
                expect_status(list_status, &f, TG_OK, "validate");
                let mut f = f;
                if *null_out {
                    f.push(TG_ERR_NULL);
                }
                expect_status(status, &f, TG_OK, "is_valid");
                return;
            };
            let s = &st.schemas[i].1;
            let bytes = inst.bytes().unwrap();
            let (want_valid, want_errors) = if *arguments {
                (s.is_valid_arguments(bytes), s.validate_arguments(bytes))
            } else {
                (s.is_valid(bytes), s.validate_json(bytes))
            };
            if *null_out {
                assert_eq!(status, TG_ERR_NULL);
            } else {
                assert_eq!(status, TG_OK);
                assert_eq!(valid, want_valid);
            }
            assert_eq!(list_status, TG_OK);
            // SAFETY: `list` is a live list.
            unsafe { check_errors(list, &want_errors) };
        }
        Op::FreeSchema { slot } => {
            if let Some(i) = pick(&st.schemas, *slot) {
                // SAFETY: live, and dropped from `st`.
                unsafe { tg_schema_free(st.schemas.swap_remove(i).0) };
            }
        }
    }
}

/// Compares a C list with the Rust one, then frees it.
///
/// # Safety
/// `list` is a live `tg_errors`.
unsafe fn check_errors(list: *mut tg_errors, want: &[toolgate_core::ValidationError]) {
    use toolgate::errors::{
        tg_errors_keyword, tg_errors_message, tg_errors_path, tg_errors_pointer,
    };
    type Item =
        unsafe extern "C" fn(*const tg_errors, usize, *mut *const c_char, *mut usize) -> tg_status;
    // SAFETY: `list` is live; out-parameters are locals; indices past the end are
    // refused with a status.
    unsafe {
        let mut count = usize::MAX;
        assert_eq!(tg_errors_count(list, &mut count), tg_status::TG_OK);
        assert_eq!(count, want.len());
        let item = |f: Item, i: usize| {
            let (mut p, mut n) = (null::<c_char>(), 0usize);
            assert_eq!(f(list, i, &mut p, &mut n), tg_status::TG_OK);
            owned_text(p, n)
        };
        for (i, e) in want.iter().enumerate() {
            assert_eq!(item(tg_errors_path, i), e.path.as_bytes());
            assert_eq!(item(tg_errors_pointer, i), e.pointer.as_bytes());
            assert_eq!(item(tg_errors_keyword, i), e.keyword.as_bytes());
            assert_eq!(item(tg_errors_message, i), e.message.as_bytes());
        }
        let (mut p, mut n) = (null::<c_char>(), 0usize);
        assert_eq!(
            tg_errors_path(list, want.len(), &mut p, &mut n),
            tg_status::TG_ERR_RANGE
        );
        assert_eq!(
            read_text(list, tg_errors_text),
            toolgate_core::ValidationError::join_lines(want).as_bytes()
        );
        assert_eq!(
            read_text(list, tg_errors_json),
            toolgate_core::ValidationError::json_array(want).as_bytes()
        );
        tg_errors_free(list);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(i: u8) -> Text {
        Text {
            bytes: TextBytes::Known(i),
            len: Len::Whole,
        }
    }

    #[test]
    fn a_fixed_sequence_runs_clean() {
        let register = |mode, schema, name| Op::Register {
            slot: 0,
            name: text(name),
            description: text(4),
            schema,
            mode,
            flags: 0,
            idempotent: true,
            timeout_ms: 5,
            null_def: false,
            null_handler: false,
            null_error_out: false,
        };
        let call = |args, reenter, into| Op::Call {
            slot: 0,
            call_id: text(3),
            name: text(0),
            args: text(args),
            reenter,
            into,
        };
        let ops = vec![
            Op::NewRegistry { policy: 0 },
            Op::NewRegistry { policy: 9 },
            register(Mode::Reenter, Some(0), 0),
            register(Mode::Echo, Some(2), 3),
            register(Mode::Echo, None, 5),
            call(9, true, None),
            call(10, false, None),
            Op::NewResult,
            call(12, false, Some(0)),
            Op::Validate {
                slot: 0,
                name: text(0),
                args: text(10),
            },
            Op::Describe {
                slot: 0,
                name: text(0),
            },
            Op::List {
                slot: 0,
                definitions: true,
                null_out: false,
            },
            Op::Unregister {
                slot: 0,
                name: text(0),
            },
            call(9, false, Some(0)),
            Op::Compile {
                schema: Text {
                    bytes: TextBytes::Raw(SCHEMAS[0].to_vec()),
                    len: Len::Whole,
                },
                max_depth: 0,
            },
            Op::SchemaCheck {
                slot: 0,
                instance: text(10),
                arguments: false,
                null_out: false,
            },
            Op::SchemaCheck {
                slot: 0,
                instance: Text {
                    bytes: TextBytes::Known(0),
                    len: Len::Null(7),
                },
                arguments: true,
                null_out: true,
            },
        ];
        run(&ops);
    }
}
