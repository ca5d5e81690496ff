//! The gateway's routing, without I/O: each frame from the host or the upstream goes
//! in, the frames to write to either side come out. Every frame passes on as its
//! sender wrote it, except the host's `tools/call` requests (checked before they are
//! forwarded), the upstream's `tools/list` results (tools whose schemas do not compile
//! withheld) and `tools/call` results (structured content checked against the tool's
//! output schema).

use std::collections::HashMap;

use rmcp::model::{
    CallToolRequestMethod, ConstString, ErrorCode, InitializedNotificationMethod,
    ListToolsRequestMethod, ToolListChangedNotificationMethod,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use toolgate_core::registry::CallRefusalKind;
use toolgate_core::{PreparedCall, RegistryOptions, ValidationError};
use toolgate_dialect::{result_json, Dialect, ResultView};

use crate::frame::{error_frame, id_key, result_frame, Envelope};
use crate::tools::{read_page, ToolSet};

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
    /// Pass tools whose schemas do not compile through unvalidated.
    pub pass_unchecked: bool,
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
            log: Vec::new(),
        }
    }

    /// The log lines written since the last call, for stderr.
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    /// How many host requests await the upstream's answer.
    #[cfg(test)]
    pub fn pending(&self) -> usize {
        self.pending.len() + self.queued.len()
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
        match (env.method.as_deref(), env.id) {
            (Some(CallToolRequestMethod::VALUE), Some(_)) if !self.ready => {
                if self.fetch.is_none() {
                    self.start_fetch(&mut out);
                }
                self.queued.push(frame.to_vec());
            }
            (Some(CallToolRequestMethod::VALUE), Some(id)) => self.call(frame, &env, id, &mut out),
            (Some(method), Some(id)) => {
                let pending = if method == ListToolsRequestMethod::VALUE {
                    Pending::List
                } else {
                    Pending::Other
                };
                self.pending.insert(id_key(id), pending);
                out.push(Out::Upstream(frame.to_vec()));
            }
            (Some(InitializedNotificationMethod::VALUE), None) => {
                out.push(Out::Upstream(frame.to_vec()));
                if self.fetch.is_none() && !self.ready {
                    self.start_fetch(&mut out);
                }
            }
            _ => out.push(Out::Upstream(frame.to_vec())),
        }
        out
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
            self.fetched(&env, &mut out);
            return out;
        }
        match self.pending.remove(&key) {
            Some(Pending::List) => self.listed(frame, &env, id, &mut out),
            Some(Pending::Call(call)) => self.answered(frame, &env, id, &call, &mut out),
            Some(Pending::Other) | None => out.push(Out::Host(frame.to_vec())),
        }
        out
    }

    /// A page of the gateway's own fetch: the next page asked for, or the new tools
    /// put in place and the waiting calls checked against them.
    fn fetched(&mut self, env: &Envelope<'_>, out: &mut Vec<Out>) {
        let mut fetch = self.fetch.take().expect("a fetch is running");
        let mut log = Vec::new();
        let next = match env.result {
            Some(result) => {
                match read_page(
                    result,
                    &mut fetch.set,
                    self.config.pass_unchecked,
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
            None => {
                let why = env.error.map_or("no result", RawValue::get);
                log.push(format!(
                    "the upstream refused tools/list ({why}); no tool is offered"
                ));
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
            self.config.pass_unchecked,
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
        for frame in std::mem::take(&mut self.queued) {
            if let Ok(Envelope { id: Some(id), .. }) = Envelope::parse(&frame) {
                out.push(Out::Host(error_frame(
                    Some(id),
                    ErrorCode::INTERNAL_ERROR,
                    message(),
                )));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
