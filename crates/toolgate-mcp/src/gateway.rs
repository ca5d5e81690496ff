//! The gateway's routing, without I/O: each frame from the host or the upstream goes
//! in, the frames to write to either side come out. Every frame passes on as its
//! sender wrote it, except the host's `tools/call` requests (checked before they are
//! forwarded), the upstream's `tools/list` results (tools whose schemas do not compile
//! withheld) and `tools/call` results (structured content checked against the tool's
//! output schema).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet, VecDeque};

use rmcp::model::{
    CallToolRequestMethod, CancelledNotificationMethod, ConstString, ErrorCode,
    InitializeResultMethod, InitializedNotificationMethod, ListToolsRequestMethod,
    ToolListChangedNotificationMethod,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use toolgate_core::registry::CallRefusalKind;
use toolgate_core::{PreparedCall, RegistryOptions, ValidationError};
use toolgate_dialect::{result_json, Dialect, ResultView};

use crate::frame::{error_frame, head_id, id_key, result_frame, Envelope};
use crate::tools::{read_page, ListPolicy, Logged, ToolSet};

/// How many cancelled requests are remembered, so that their late answers are dropped.
/// The oldest is forgotten first; a late answer to a forgotten one reaches the host,
/// which ignores an answer to a request it cancelled.
const CANCELLED_REMEMBERED: usize = 4096;

/// How many bytes of the host's frames may wait in the gateway, for the upstream's tool
/// list or for a restarted upstream.
const WAITING_BYTES: usize = 64 << 20;

/// The keys of a request's `_meta` the gateway copies from the host's requests into
/// its own (the per-request protocol context of MCP revisions without an `initialize`
/// handshake).
const CLIENT_CONTEXT: [&str; 3] = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/clientCapabilities",
];

/// A frame to write, and to whom.
#[derive(Debug, PartialEq, Eq)]
pub enum Out {
    /// To the host (the MCP client).
    Host(Vec<u8>),
    /// To the upstream server.
    Upstream(Vec<u8>),
}

/// How the gateway checks.
#[derive(Clone, Debug)]
pub struct Config {
    /// The registry options tools are compiled with (the full profile, MCP names).
    pub registry: RegistryOptions,
    /// How listed tools are judged besides compiling.
    pub policy: ListPolicy,
}

/// A host request the upstream has not answered yet.
enum Pending {
    /// A `tools/list`: its result is filtered.
    List,
    /// A checked `tools/call`: its result is checked against the tool's output schema.
    Call(PreparedCall<'static>),
    /// Any other request, or a call to an unchecked tool: its answer passes unchanged.
    Other,
}

/// The gateway's own walk through the upstream's tool list.
struct Fetch {
    /// The id of the page request in flight, as a key.
    key: String,
    /// The tools read so far.
    set: ToolSet,
    /// How many page requests the gateway has sent (ids are numbered by it).
    page: u64,
}

/// The routing state.
pub struct Gateway {
    config: Config,
    /// The tools calls are checked against; replaced whole by each complete fetch.
    tools: ToolSet,
    /// Whether `tools` is the upstream's current list. While it is not, the host's
    /// calls wait in `queued`.
    ready: bool,
    queued: Vec<Vec<u8>>,
    fetch: Option<Fetch>,
    /// A list change arrived while a fetch was running: fetch again after it.
    fetch_again: bool,
    fetches: u64,
    pending: HashMap<String, Pending>,
    /// Requests the host cancelled while the upstream had them: their answers are
    /// dropped. In the order cancelled, the oldest forgotten past a bound.
    cancelled: HashSet<String>,
    cancelled_order: VecDeque<String>,
    /// The tools already logged.
    logged: Logged,
    /// The `_meta` members of [`CLIENT_CONTEXT`] of the host's first request that had
    /// any, as a JSON object's members (`"k":v,...`), copied into the gateway's own
    /// requests.
    client_context: Option<String>,
    /// The params of the host's `initialize`, as written, to initialize a restarted
    /// upstream with.
    initialize: Option<Vec<u8>>,
    /// Whether the host sent `notifications/initialized`.
    initialized: bool,
    /// The key of the gateway's own `initialize` of a restarted upstream, in flight;
    /// the host's frames wait in `held` meanwhile.
    reinit: Option<String>,
    /// The upstream exited and has not been started again: the host's frames wait in
    /// `held`.
    down: bool,
    held: Vec<Vec<u8>>,
    restarts: u64,
    /// Lines for the log (stderr), taken by the caller.
    log: Vec<String>,
}

/// The params of a `tools/call`, the arguments as the host wrote them.
#[derive(Deserialize)]
struct CallParams<'a> {
    name: String,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

/// What the gateway reads of a `CallToolResult`.
#[derive(Deserialize)]
struct CallResultView<'a> {
    #[serde(rename = "isError", default)]
    is_error: Option<bool>,
    #[serde(rename = "structuredContent", borrow, default)]
    structured: Option<&'a RawValue>,
}

impl Gateway {
    /// A gateway that has not read the upstream's tools yet.
    pub fn new(config: Config) -> Gateway {
        Gateway {
            tools: ToolSet::new(config.registry.clone()),
            config,
            ready: false,
            queued: Vec::new(),
            fetch: None,
            fetch_again: false,
            fetches: 0,
            pending: HashMap::new(),
            cancelled: HashSet::new(),
            cancelled_order: VecDeque::new(),
            logged: Logged::default(),
            client_context: None,
            initialize: None,
            initialized: false,
            reinit: None,
            down: false,
            held: Vec::new(),
            restarts: 0,
            log: Vec::new(),
        }
    }

    /// The log lines written since the last call, for stderr.
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    /// Which upstream the gateway talks to: 0 for the first, one more for each
    /// restart.
    pub fn generation(&self) -> u64 {
        self.restarts
    }

    /// How many host requests await the upstream's answer.
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.pending.len() + self.queued.len() + self.held.len()
    }

    /// How many cancelled requests are remembered.
    #[cfg(test)]
    pub fn cancelled(&self) -> usize {
        self.cancelled.len()
    }

    /// A frame from the host.
    pub fn host_frame(&mut self, frame: &[u8]) -> Vec<Out> {
        let mut out = Vec::new();
        if frame.iter().all(u8::is_ascii_whitespace) {
            return out;
        }
        let env = match Envelope::parse(frame) {
            Ok(env) => env,
            Err(e) => {
                self.log
                    .push(format!("malformed frame from the host refused: {e}"));
                let message = format!("toolgate-mcp: malformed JSON-RPC frame refused: {e}");
                out.push(Out::Host(error_frame(
                    None,
                    ErrorCode::PARSE_ERROR,
                    message,
                )));
                return out;
            }
        };
        if self.reinit.is_some() || self.down {
            // The upstream is being started again: the frame waits for it.
            if self.may_wait(frame, &env, &mut out) {
                self.held.push(frame.to_vec());
            }
            return out;
        }
        if env.id.is_some() && self.client_context.is_none() {
            self.client_context = client_context(env.params);
        }
        match (env.method.as_deref(), env.id) {
            (Some(CallToolRequestMethod::VALUE), Some(_)) if !self.ready => {
                if self.fetch.is_none() {
                    self.start_fetch(&mut out);
                }
                if self.may_wait(frame, &env, &mut out) {
                    self.queued.push(frame.to_vec());
                }
            }
            (Some(CallToolRequestMethod::VALUE), Some(id)) => self.call(frame, &env, id, &mut out),
            (Some(method), Some(id)) => {
                if method == InitializeResultMethod::VALUE {
                    self.initialize = env.params.map(|p| p.get().as_bytes().to_vec());
                }
                let pending = if method == ListToolsRequestMethod::VALUE {
                    Pending::List
                } else {
                    Pending::Other
                };
                self.pending.insert(id_key(id), pending);
                out.push(Out::Upstream(frame.to_vec()));
            }
            (Some(CancelledNotificationMethod::VALUE), None) => self.cancel(frame, &env, &mut out),
            (Some(InitializedNotificationMethod::VALUE), None) => {
                self.initialized = true;
                out.push(Out::Upstream(frame.to_vec()));
                if self.fetch.is_none() && !self.ready {
                    self.start_fetch(&mut out);
                }
            }
            _ => out.push(Out::Upstream(frame.to_vec())),
        }
        out
    }

    /// Whether `frame` may wait in the gateway (for the tool list, or for a restarted
    /// upstream): the frames waiting hold at most [`WAITING_BYTES`]. A request past
    /// that is answered with an error; any other frame is dropped, and logged.
    fn may_wait(&mut self, frame: &[u8], env: &Envelope<'_>, out: &mut Vec<Out>) -> bool {
        let waiting: usize = self.queued.iter().chain(&self.held).map(Vec::len).sum();
        if waiting + frame.len() <= WAITING_BYTES {
            return true;
        }
        self.log.push(format!(
            "a frame from the host refused: {WAITING_BYTES} bytes already wait for the upstream"
        ));
        if let (Some(id), Some(_)) = (env.id, env.method.as_deref()) {
            let message = format!(
                "toolgate-mcp: refused: {WAITING_BYTES} bytes of requests already wait for the upstream"
            );
            out.push(Out::Host(error_frame(
                Some(id),
                ErrorCode::INTERNAL_ERROR,
                message,
            )));
        }
        false
    }

    /// The host cancels a request: a request the upstream has is forgotten, its late
    /// answer to be dropped, and the notification forwarded; a call still waiting for
    /// the tool list is dropped with it (the upstream never saw either).
    fn cancel(&mut self, frame: &[u8], env: &Envelope<'_>, out: &mut Vec<Out>) {
        #[derive(Deserialize)]
        struct Cancelled<'a> {
            #[serde(rename = "requestId", borrow)]
            request_id: &'a RawValue,
        }
        let Some(cancelled) = env
            .params
            .and_then(|p| serde_json::from_str::<Cancelled<'_>>(p.get()).ok())
        else {
            out.push(Out::Upstream(frame.to_vec()));
            return;
        };
        let key = id_key(cancelled.request_id);
        let before = self.queued.len();
        self.queued.retain(|f| {
            Envelope::parse(f)
                .ok()
                .and_then(|e| e.id.map(id_key))
                .is_none_or(|k| k != key)
        });
        if self.queued.len() < before {
            return;
        }
        if self.pending.remove(&key).is_some() {
            if self.cancelled_order.len() == CANCELLED_REMEMBERED {
                if let Some(old) = self.cancelled_order.pop_front() {
                    self.cancelled.remove(&old);
                }
            }
            self.cancelled.insert(key.clone());
            self.cancelled_order.push_back(key);
        }
        out.push(Out::Upstream(frame.to_vec()));
    }

    /// Checks a `tools/call` against the current tools: forwarded as it is when its
    /// arguments pass, answered by the gateway when they do not.
    fn call(&mut self, frame: &[u8], env: &Envelope<'_>, id: &RawValue, out: &mut Vec<Out>) {
        let params = env
            .params
            .ok_or_else(|| "params missing".to_owned())
            .and_then(|p| {
                serde_json::from_str::<CallParams<'_>>(p.get()).map_err(|e| e.to_string())
            });
        let params = match params {
            Ok(p) => p,
            Err(e) => {
                let message = format!("toolgate-mcp: invalid tools/call params: {e}");
                out.push(Out::Host(error_frame(
                    Some(id),
                    ErrorCode::INVALID_PARAMS,
                    message,
                )));
                return;
            }
        };
        if self.tools.unchecked.contains(&params.name) {
            self.pending.insert(id_key(id), Pending::Other);
            out.push(Out::Upstream(frame.to_vec()));
            return;
        }
        let args = params.arguments.map_or("", RawValue::get);
        match self.tools.registry.prepare(&params.name, args.as_bytes()) {
            Ok(call) => {
                self.pending
                    .insert(id_key(id), Pending::Call(call.into_owned()));
                out.push(Out::Upstream(frame.to_vec()));
            }
            Err(refusal) => {
                let violations: &[ValidationError] = match &refusal.kind {
                    CallRefusalKind::InvalidArguments(v) => v,
                    _ => &[],
                };
                self.log.push(format!(
                    "call {} refused: {}",
                    id.get(),
                    refusal.content.replace('\n', " | ")
                ));
                let result = result_json(
                    Dialect::Mcp,
                    &ResultView {
                        call_id: id.get(),
                        name: &params.name,
                        content: &refusal.content,
                        is_error: true,
                        structured: false,
                        violations,
                    },
                );
                out.push(Out::Host(result_frame(id, &result)));
            }
        }
    }

    /// Asks the upstream for the first page of its tools.
    fn start_fetch(&mut self, out: &mut Vec<Out>) {
        self.fetches += 1;
        self.fetch = Some(Fetch {
            key: String::new(),
            set: ToolSet::new(self.config.registry.clone()),
            page: 0,
        });
        self.request_page(None, out);
    }

    /// Asks for one page of the tool list (the gateway's own request, never seen by
    /// the host).
    fn request_page(&mut self, cursor: Option<&str>, out: &mut Vec<Out>) {
        let fetches = self.fetches;
        let fetch = self.fetch.as_mut().expect("a fetch is running");
        fetch.page += 1;
        let id = format!("\"toolgate-mcp/tools/{fetches}/{}\"", fetch.page);
        fetch.key = id.clone();
        let params = match cursor {
            Some(c) => format!(
                r#"{{"cursor":{}}}"#,
                serde_json::to_string(c).expect("a string")
            ),
            None => "{}".to_owned(),
        };
        let params = match (&self.client_context, cursor) {
            (None, _) => params,
            (Some(context), None) => format!(r#"{{"_meta":{{{context}}}}}"#),
            (Some(context), Some(_)) => format!(r#"{{"_meta":{{{context}}},{}"#, &params[1..]),
        };
        let frame =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{params}}}"#);
        out.push(Out::Upstream(frame.into_bytes()));
    }

    /// A frame from the upstream.
    pub fn upstream_frame(&mut self, frame: &[u8]) -> Vec<Out> {
        let mut out = Vec::new();
        if frame.iter().all(u8::is_ascii_whitespace) {
            return out;
        }
        let env = match Envelope::parse(frame) {
            Ok(env) => env,
            Err(e) => {
                self.log
                    .push(format!("malformed frame from the upstream dropped: {e}"));
                return out;
            }
        };
        if let Some(method) = env.method.as_deref() {
            if method == ToolListChangedNotificationMethod::VALUE {
                self.ready = false;
                if self.fetch.is_some() {
                    self.fetch_again = true;
                } else {
                    self.start_fetch(&mut out);
                }
            }
            out.push(Out::Host(frame.to_vec()));
            return out;
        }
        let Some(id) = env.id else {
            out.push(Out::Host(frame.to_vec()));
            return out;
        };
        let key = id_key(id);
        if self.fetch.as_ref().is_some_and(|f| f.key == key) {
            let page = env.result.ok_or_else(|| {
                let why = env.error.map_or("no result", RawValue::get);
                format!("the upstream refused tools/list ({why}); no tool is offered")
            });
            self.fetched(page, &mut out);
            return out;
        }
        if self.reinit.as_ref() == Some(&key) {
            self.reinitialized(&env, &mut out);
            return out;
        }
        if self.forget_cancelled(&key) {
            return out;
        }
        match self.pending.remove(&key) {
            Some(Pending::List) => self.listed(frame, &env, id, &mut out),
            Some(Pending::Call(call)) => self.answered(frame, &env, id, &call, &mut out),
            Some(Pending::Other) | None => out.push(Out::Host(frame.to_vec())),
        }
        out
    }

    /// Whether `key` is a request the host cancelled (forgotten now: its answer is
    /// dropped).
    fn forget_cancelled(&mut self, key: &str) -> bool {
        if !self.cancelled.remove(key) {
            return false;
        }
        self.cancelled_order.retain(|k| k != key);
        true
    }

    /// A frame from the upstream longer than the limit, of which `head` was kept: if it
    /// answers a request the gateway tracks (its id read from the head), that request
    /// is answered with an error; otherwise it is dropped. Logged either way.
    pub fn upstream_too_long(&mut self, len: usize, max: usize, head: &[u8]) -> Vec<Out> {
        let mut out = Vec::new();
        self.log.push(format!(
            "a frame of {len} bytes from the upstream dropped (limit {max})"
        ));
        let Some(id) = head_id(head) else {
            return out;
        };
        let key = id_key(&id);
        if self.fetch.as_ref().is_some_and(|f| f.key == key) {
            let why = format!(
                "a page of the upstream's tool list of {len} bytes is more than the limit of {max}; no tool is offered"
            );
            self.fetched(Err(why), &mut out);
        } else if self.forget_cancelled(&key) {
        } else if self.pending.remove(&key).is_some() {
            let message = format!(
                "toolgate-mcp: the upstream's answer of {len} bytes is more than the limit of {max}"
            );
            out.push(Out::Host(error_frame(
                Some(&id),
                ErrorCode::INTERNAL_ERROR,
                message,
            )));
        }
        out
    }

    /// A frame could not be delivered to the upstream (an HTTP upstream that cannot be
    /// reached, or refused it): a request the gateway tracks is answered with an
    /// error.
    pub fn upstream_unreachable(&mut self, frame: &[u8], why: &str) -> Vec<Out> {
        let mut out = Vec::new();
        let Ok(Envelope {
            id: Some(id),
            method: Some(_),
            ..
        }) = Envelope::parse(frame)
        else {
            return out;
        };
        let key = id_key(id);
        if self.fetch.as_ref().is_some_and(|f| f.key == key) {
            let why =
                format!("the upstream's tool list could not be read ({why}); no tool is offered");
            self.fetched(Err(why), &mut out);
        } else if self.reinit.as_ref() == Some(&key) {
            self.reinit = None;
        } else if self.pending.remove(&key).is_some() {
            let message = format!("toolgate-mcp: the upstream server could not be reached: {why}");
            out.push(Out::Host(error_frame(
                Some(id),
                ErrorCode::INTERNAL_ERROR,
                message,
            )));
        }
        out
    }

    /// A page of the gateway's own fetch (or why there is none): the next page asked
    /// for, or the new tools put in place and the waiting calls checked against them.
    fn fetched(&mut self, page: Result<&RawValue, String>, out: &mut Vec<Out>) {
        let mut fetch = self.fetch.take().expect("a fetch is running");
        let mut log = Vec::new();
        let next = match page {
            Ok(result) => {
                match read_page(
                    result,
                    &mut fetch.set,
                    &self.config.policy,
                    &mut self.logged,
                    &mut |l| log.push(l),
                ) {
                    Ok(page) => page.next_cursor,
                    Err(e) => {
                        log.push(format!(
                            "the upstream's tool list is unreadable ({e}); no tool is offered"
                        ));
                        None
                    }
                }
            }
            Err(why) => {
                log.push(why);
                None
            }
        };
        self.log.append(&mut log);
        if let Some(cursor) = next {
            self.fetch = Some(fetch);
            self.request_page(Some(&cursor), out);
            return;
        }
        self.tools = fetch.set;
        if self.fetch_again {
            self.fetch_again = false;
            self.start_fetch(out);
            return;
        }
        self.ready = true;
        for frame in std::mem::take(&mut self.queued) {
            let env = Envelope::parse(&frame).expect("a queued frame was read before");
            let id = env.id.expect("a queued call has an id");
            self.call(&frame, &env, id, out);
        }
    }

    /// The answer to the host's `tools/list`: passed on, less the tools withheld. The
    /// host sees this list, so its tools are put into the current set as it declares
    /// them (a page the gateway's own fetch has not read yet among them).
    fn listed(&mut self, frame: &[u8], env: &Envelope<'_>, id: &RawValue, out: &mut Vec<Out>) {
        let Some(result) = env.result else {
            out.push(Out::Host(frame.to_vec()));
            return;
        };
        let mut log = Vec::new();
        let page = read_page(
            result,
            &mut self.tools,
            &self.config.policy,
            &mut self.logged,
            &mut |l| log.push(l),
        );
        self.log.append(&mut log);
        match page {
            Ok(page) if page.withheld == 0 => out.push(Out::Host(frame.to_vec())),
            Ok(page) => out.push(Out::Host(result_frame(id, &page.rewritten()))),
            Err(e) => {
                self.log
                    .push(format!("unreadable tools/list result refused: {e}"));
                let message = format!("toolgate-mcp: the upstream's tool list is unreadable: {e}");
                out.push(Out::Host(error_frame(
                    Some(id),
                    ErrorCode::INTERNAL_ERROR,
                    message,
                )));
            }
        }
    }

    /// The answer to a checked call: passed on unchanged unless it is a result that
    /// is not an error and whose structured content the tool's output schema refuses.
    fn answered(
        &mut self,
        frame: &[u8],
        env: &Envelope<'_>,
        id: &RawValue,
        call: &PreparedCall<'static>,
        out: &mut Vec<Out>,
    ) {
        let (Some(result), Some(_)) = (env.result, call.output_schema()) else {
            out.push(Out::Host(frame.to_vec()));
            return;
        };
        let view: CallResultView<'_> = match serde_json::from_str(result.get()) {
            Ok(v) => v,
            Err(e) => {
                self.log.push(format!(
                    "call {}: unreadable result from the upstream ({e}): {}",
                    id.get(),
                    result.get()
                ));
                let message = format!("toolgate-mcp: the upstream's result is unreadable: {e}");
                out.push(Out::Host(error_frame(
                    Some(id),
                    ErrorCode::INTERNAL_ERROR,
                    message,
                )));
                return;
            }
        };
        if view.is_error == Some(true) {
            out.push(Out::Host(frame.to_vec()));
            return;
        }
        // A tool with an output schema must answer with structured content; none is
        // refused as an answer that is not JSON.
        let answer = view.structured.map_or("", RawValue::get);
        match call.check_result(answer.as_bytes()) {
            Ok(_) => out.push(Out::Host(frame.to_vec())),
            Err(refusal) => {
                self.log.push(format!(
                    "call {}: {}; the upstream's result was: {}",
                    id.get(),
                    refusal.content.replace('\n', " | "),
                    result.get()
                ));
                let result = result_json(
                    Dialect::Mcp,
                    &ResultView {
                        call_id: id.get(),
                        name: call.name(),
                        content: &refusal.content,
                        is_error: true,
                        structured: false,
                        violations: &refusal.violations,
                    },
                );
                out.push(Out::Host(result_frame(id, &result)));
            }
        }
    }

    /// The upstream is gone: every request still waiting for it is answered with an
    /// error.
    pub fn upstream_closed(&mut self) -> Vec<Out> {
        let mut out = Vec::new();
        let message = || "toolgate-mcp: the upstream server exited before answering".to_owned();
        let mut keys: Vec<String> = self.pending.drain().map(|(k, _)| k).collect();
        keys.sort();
        for key in keys {
            let id: Box<RawValue> = RawValue::from_string(key).expect("a key is JSON");
            out.push(Out::Host(error_frame(
                Some(&id),
                ErrorCode::INTERNAL_ERROR,
                message(),
            )));
        }
        let waiting = std::mem::take(&mut self.queued);
        for frame in waiting.iter().chain(&std::mem::take(&mut self.held)) {
            if let Ok(Envelope {
                id: Some(id),
                method: Some(_),
                ..
            }) = Envelope::parse(frame)
            {
                out.push(Out::Host(error_frame(
                    Some(id),
                    ErrorCode::INTERNAL_ERROR,
                    message(),
                )));
            }
        }
        self.cancelled.clear();
        self.cancelled_order.clear();
        self.fetch = None;
        self.fetch_again = false;
        self.ready = false;
        self.reinit = None;
        self.down = true;
        out
    }

    /// A new upstream was started in place of the one that exited (after
    /// [`Gateway::upstream_closed`]): it is initialized with the host's `initialize`
    /// request, the host's frames waiting until it has answered.
    pub fn upstream_restarted(&mut self) -> Vec<Out> {
        let mut out = Vec::new();
        self.restarts += 1;
        self.down = false;
        let Some(params) = &self.initialize else {
            // Never initialized (or a revision without the handshake): the next call
            // makes the gateway read the tool list.
            for frame in std::mem::take(&mut self.held) {
                let more = self.host_frame(&frame);
                out.extend(more);
            }
            return out;
        };
        let id = format!("\"toolgate-mcp/initialize/{}\"", self.restarts);
        let mut frame =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":"#).into_bytes();
        frame.extend_from_slice(params);
        frame.push(b'}');
        self.reinit = Some(id);
        out.push(Out::Upstream(frame));
        out
    }

    /// The restarted upstream answered the gateway's `initialize`: the host's
    /// `initialized` is repeated, the tool list read again, and the frames the host
    /// sent meanwhile go on.
    fn reinitialized(&mut self, env: &Envelope<'_>, out: &mut Vec<Out>) {
        self.reinit = None;
        if let Some(error) = env.error {
            self.log.push(format!(
                "the restarted upstream refused initialize: {}",
                error.get()
            ));
        }
        if self.initialized {
            out.push(Out::Upstream(
                br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec(),
            ));
            self.start_fetch(out);
        }
        for frame in std::mem::take(&mut self.held) {
            let more = self.host_frame(&frame);
            out.extend(more);
        }
    }
}

/// The members of [`CLIENT_CONTEXT`] in a request's `params._meta`, as the host wrote
/// them, or `None` when it has none.
fn client_context(params: Option<&RawValue>) -> Option<String> {
    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(rename = "_meta", borrow, default)]
        meta: Option<HashMap<Cow<'a, str>, &'a RawValue>>,
    }
    let params: Params<'_> = serde_json::from_str(params?.get()).ok()?;
    let meta = params.meta?;
    let members: Vec<String> = CLIENT_CONTEXT
        .iter()
        .filter_map(|k| {
            meta.get(*k)
                .map(|v| format!("{}:{}", serde_json::to_string(k).expect("a key"), v.get()))
        })
        .collect();
    (!members.is_empty()).then(|| members.join(","))
}

#[cfg(test)]
mod tests;
