//! `toolgate-mcp`: a validating gateway in front of any MCP server.
//!
//! ```text
//! toolgate-mcp [OPTIONS] -- COMMAND [ARGS...]
//! ```
//!
//! Starts COMMAND as the upstream MCP server (stdio), serves the host over stdio, and
//! relays every frame as it was written, except: the host's `tools/call` requests,
//! whose arguments are checked (strict JSON, size and depth limits, the tool's
//! `inputSchema`) before they are forwarded, a refused call being answered by the
//! gateway with `isError: true` and never reaching the upstream; the upstream's
//! `tools/list` results, less the tools whose schemas do not compile; and its
//! `tools/call` results, whose `structuredContent` is checked against the tool's
//! `outputSchema`. See the crate README.

use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;
use toolgate_core::{Draft, NamePolicy, Options, Profile, RegistryOptions};
use toolgate_dialect::Target;

mod frame;
mod gateway;
mod http;
mod tools;

use frame::{error_frame, read_line, Line};
use gateway::{Config, Gateway, Out};
use tools::ListPolicy;

/// How many frames wait to be written to either side. A side whose peer does not read
/// them fills its queue, and the gateway stops reading the side that sends them.
const QUEUE_FRAMES: usize = 32;
use rmcp::model::ErrorCode;

const USAGE: &str = "\
usage: toolgate-mcp [OPTIONS] -- COMMAND [ARGS...]
       toolgate-mcp [OPTIONS] --upstream-url URL

A validating gateway in front of an MCP server: starts COMMAND as the upstream server
(stdio) and serves the host over stdio. Tool calls are checked against the tools'
inputSchema before they reach the server (a refused call is answered with isError and
the violations); results are checked against outputSchema; tools whose schemas do not
compile are withheld. Everything else passes through unchanged.

options:
  --max-frame-bytes N      the longest frame read from either side (default 16777216)
  --max-argument-bytes N   the longest arguments (and structured result) checked
                           (default 4194304)
  --max-depth N            the deepest nesting of a schema or a value (default 128)
  --default-draft D        the draft of a schema without $schema: 2020-12 (default) or 7
  --pass-unchecked         pass tools whose schemas do not compile through
                           UNVALIDATED (default: withhold them)
  --target T               report each listed tool's lint for a provider mode:
                           openai-strict, anthropic-strict or gemini
  --enforce-target         withhold the tools the --target refuses
  --upstream-url URL       reach a streamable-HTTP server (http:// or https://)
                           instead of starting COMMAND
  --upstream-ca FILE       also trust the certificates of this PEM file for an
                           https:// upstream (a self-signed or private server)
  --listen ADDR            serve the host over streamable HTTP at ADDR (a port alone
                           means 127.0.0.1:PORT) instead of stdio
  --on-upstream-exit W     when the server exits: exit (default; the gateway exits
                           with status 1) or restart (start it again and initialize
                           it as the host did)
  -h, --help               this text
  -V, --version            the version
";

/// The command line, read.
struct Args {
    max_frame_bytes: usize,
    config: Config,
    /// Start the upstream again when it exits.
    restart: bool,
    /// Serve the host over streamable HTTP here.
    listen: Option<std::net::SocketAddr>,
    /// Reach a streamable-HTTP upstream here instead of starting `command`.
    upstream_url: Option<String>,
    /// A PEM file of roots trusted for an `https://` upstream, besides the Mozilla ones.
    upstream_ca: Option<std::path::PathBuf>,
    command: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut max_frame_bytes = 16 << 20;
    let mut max_argument_bytes = RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES;
    let mut max_depth = Options::DEFAULT_MAX_DEPTH;
    let mut draft = Draft::Draft2020_12;
    let mut policy = ListPolicy::default();
    let mut restart = false;
    let mut listen = None;
    let mut upstream_url = None;
    let mut upstream_ca = None;
    let mut i = 0;
    let number = |v: Option<&String>, name: &str| -> Result<usize, String> {
        v.and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{name} needs a positive number"))
    };
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "--" => break,
            "--max-frame-bytes" => {
                i += 1;
                max_frame_bytes = number(args.get(i), arg)?;
            }
            "--max-argument-bytes" => {
                i += 1;
                max_argument_bytes = number(args.get(i), arg)?;
            }
            "--max-depth" => {
                i += 1;
                max_depth = number(args.get(i), arg)?;
            }
            "--default-draft" => {
                i += 1;
                let v = args.get(i).ok_or("--default-draft needs a draft")?;
                draft = v.parse::<Draft>().map_err(|e| e.message)?;
            }
            "--pass-unchecked" => policy.pass_unchecked = true,
            "--target" => {
                i += 1;
                let v = args.get(i).ok_or("--target needs a target")?;
                policy.target = Some(v.parse::<Target>().map_err(|e| e.message)?);
            }
            "--enforce-target" => policy.enforce_target = true,
            "--upstream-url" => {
                i += 1;
                upstream_url = Some(args.get(i).ok_or("--upstream-url needs a URL")?.clone());
            }
            "--upstream-ca" => {
                i += 1;
                let v = args.get(i).ok_or("--upstream-ca needs a PEM file")?;
                upstream_ca = Some(std::path::PathBuf::from(v));
            }
            "--listen" => {
                i += 1;
                let v = args.get(i).ok_or("--listen needs an address")?;
                let addr = match v.parse::<u16>() {
                    Ok(port) => std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                    Err(_) => v
                        .parse()
                        .map_err(|_| format!("--listen needs HOST:PORT or a port, not {v:?}"))?,
                };
                listen = Some(addr);
            }
            "--on-upstream-exit" => {
                i += 1;
                restart = match args.get(i).map(String::as_str) {
                    Some("exit") => false,
                    Some("restart") => true,
                    _ => return Err("--on-upstream-exit needs exit or restart".into()),
                };
            }
            other => return Err(format!("unknown option {other:?}")),
        }
        i += 1;
    }
    if policy.enforce_target && policy.target.is_none() {
        return Err("--enforce-target needs a --target".into());
    }
    let command = args.get(i + 1..).unwrap_or_default().to_vec();
    if command.is_empty() && upstream_url.is_none() {
        return Err("no upstream command: toolgate-mcp [OPTIONS] -- COMMAND [ARGS...]".into());
    }
    if !command.is_empty() && upstream_url.is_some() {
        return Err("--upstream-url and an upstream command exclude each other".into());
    }
    if upstream_ca.is_some() && upstream_url.is_none() {
        return Err("--upstream-ca needs an https:// --upstream-url".into());
    }
    if restart && upstream_url.is_some() {
        return Err("--on-upstream-exit restart needs an upstream command".into());
    }
    let schema = Options::default()
        .with_profile(Profile::Full)
        .with_default_draft(draft)
        .with_max_depth(max_depth);
    let registry = RegistryOptions::default()
        .with_names(NamePolicy::Mcp)
        .with_max_argument_bytes(max_argument_bytes)
        .with_schema_options(schema);
    Ok(Args {
        max_frame_bytes,
        config: Config { registry, policy },
        restart,
        listen,
        upstream_url,
        upstream_ca,
        command,
    })
}

fn log(line: &str) {
    eprintln!("toolgate-mcp: {line}");
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "-h" || a == "--help")
    {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if argv
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "-V" || a == "--version")
    {
        println!("toolgate-mcp {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(e) => {
            log(&e);
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .expect("a runtime");
    let code = runtime.block_on(run(args));
    // The stdin reader may still be blocked in a read on its own thread: do not wait
    // for it.
    runtime.shutdown_background();
    code
}

/// Sends each frame to its side, waiting while that side's queue is full (so the side
/// the frames came from is not read meanwhile); the log lines to stderr. Frames to the
/// upstream are marked with the upstream they are for.
async fn dispatch(gw: &Mutex<Gateway>, outs: Vec<Out>, sides: &Sides) {
    let (lines, generation) = {
        let mut gw = gw.lock().unwrap_or_else(PoisonError::into_inner);
        (gw.take_log(), gw.generation())
    };
    for line in lines {
        log(&line);
    }
    for out in outs {
        // A side whose writer has stopped is gone; its reader ends the gateway.
        let _ = match out {
            Out::Host(f) => sides.host.send(f).await.map_err(drop),
            Out::Upstream(f) => sides.upstream.send((generation, f)).await.map_err(drop),
        };
    }
}

/// The queues of frames to write to either side.
#[derive(Clone)]
struct Sides {
    host: mpsc::Sender<Vec<u8>>,
    /// Each frame with the generation of the upstream it is for.
    upstream: mpsc::Sender<(u64, Vec<u8>)>,
}

/// Writes each frame from `rx`, a line each, flushing when no more are waiting.
async fn write_frames<W: tokio::io::AsyncWrite + Unpin>(mut w: W, mut rx: mpsc::Receiver<Vec<u8>>) {
    while let Some(mut frame) = rx.recv().await {
        frame.push(b'\n');
        if w.write_all(&frame).await.is_err() {
            return;
        }
        if rx.is_empty() && w.flush().await.is_err() {
            return;
        }
    }
}

/// Writes each frame from `rx` to the upstream of its generation, whose input arrives
/// on `inputs` as each upstream starts; a frame for an upstream that is gone is
/// dropped. Aborting this task closes the current upstream's input.
async fn write_upstream(
    mut rx: mpsc::Receiver<(u64, Vec<u8>)>,
    mut inputs: mpsc::UnboundedReceiver<(u64, ChildStdin)>,
) {
    let mut current: Option<(u64, ChildStdin)> = None;
    loop {
        tokio::select! {
            biased;
            input = inputs.recv() => match input {
                Some(input) => current = Some(input),
                None => return,
            },
            frame = rx.recv() => {
                let Some((generation, mut frame)) = frame else { return };
                let Some((current_generation, w)) = current.as_mut() else { continue };
                if *current_generation != generation {
                    continue;
                }
                frame.push(b'\n');
                let mut ok = w.write_all(&frame).await.is_ok();
                if ok && rx.is_empty() {
                    ok = w.flush().await.is_ok();
                }
                if !ok {
                    current = None;
                }
            }
        }
    }
}

/// How the gateway ended.
enum End {
    /// The host closed its input.
    HostClosed,
    /// The upstream closed its output (it exited, most likely), or could not start.
    UpstreamClosed,
}

fn spawn(command: &[String]) -> std::io::Result<Child> {
    Command::new(&command[0])
        .args(&command[1..])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
}

/// The bytes read from either side at once.
const READ_BUFFER: usize = 64 << 10;

/// The host's input: read without a helper thread when it is a pipe (as MCP hosts
/// connect it), through tokio's stdin otherwise.
fn host_input() -> Box<dyn tokio::io::AsyncRead + Unpin + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() {
            if let Ok(pipe) = tokio::net::unix::pipe::Receiver::from_owned_fd(fd) {
                return Box::new(pipe);
            }
        }
    }
    Box::new(tokio::io::stdin())
}

/// The host's output: written without a helper thread when it is a pipe that is not
/// also the log's (stderr), through tokio's stdout otherwise.
fn host_output() -> Box<dyn tokio::io::AsyncWrite + Unpin + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let id = |fd: std::os::fd::BorrowedFd<'_>| {
            let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
            let meta = file.metadata().ok()?;
            Some((meta.dev(), meta.ino()))
        };
        let out = std::io::stdout();
        let shared = id(out.as_fd()).is_none_or(|o| Some(o) == id(std::io::stderr().as_fd()));
        if !shared {
            if let Ok(fd) = out.as_fd().try_clone_to_owned() {
                if let Ok(pipe) = tokio::net::unix::pipe::Sender::from_owned_fd(fd) {
                    return Box::new(pipe);
                }
            }
        }
    }
    Box::new(tokio::io::stdout())
}

type ChildSlot = Arc<tokio::sync::Mutex<Option<Child>>>;

/// Reads the upstream's frames until it exits; then, with `restart`, starts it again
/// (the first `child` is already started), until it cannot be.
async fn upstream_side(
    args: &Args,
    first_child: Child,
    gw: Arc<Mutex<Gateway>>,
    sides: Sides,
    inputs: mpsc::UnboundedSender<(u64, ChildStdin)>,
    slot: ChildSlot,
) -> End {
    let max = args.max_frame_bytes;
    let mut next = Some(first_child);
    let mut first = true;
    let mut delay = Duration::from_millis(100);
    loop {
        let mut child = match next.take() {
            Some(child) => child,
            None => match spawn(&args.command) {
                Ok(child) => child,
                Err(e) => {
                    log(&format!("cannot start {:?} again: {e}", args.command[0]));
                    return End::UpstreamClosed;
                }
            },
        };
        let started = tokio::time::Instant::now();
        let child_in = child.stdin.take().expect("piped");
        let child_out: ChildStdout = child.stdout.take().expect("piped");
        *slot.lock().await = Some(child);
        let restarted = {
            let mut gw = gw.lock().unwrap_or_else(PoisonError::into_inner);
            let outs = (!first).then(|| gw.upstream_restarted());
            let _ = inputs.send((gw.generation(), child_in));
            outs
        };
        first = false;
        if let Some(outs) = restarted {
            dispatch(&gw, outs, &sides).await;
        }
        let mut reader = BufReader::with_capacity(READ_BUFFER, child_out);
        loop {
            let outs = match read_line(&mut reader, max).await {
                Ok(Line::Frame(f)) => gw
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .upstream_frame(&f),
                Ok(Line::TooLong { len, head }) => gw
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .upstream_too_long(len, max, &head),
                Ok(Line::Eof) | Err(_) => break,
            };
            dispatch(&gw, outs, &sides).await;
        }
        let outs = gw
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .upstream_closed();
        dispatch(&gw, outs, &sides).await;
        let status = match slot.lock().await.as_mut() {
            Some(child) => child.wait().await,
            None => return End::UpstreamClosed,
        };
        match status {
            Ok(s) => log(&format!("the upstream server exited ({s})")),
            Err(e) => log(&format!("the upstream server is gone ({e})")),
        }
        if !args.restart {
            return End::UpstreamClosed;
        }
        // A server that keeps exiting soon after its start is started again less and
        // less often.
        if started.elapsed() < Duration::from_secs(10) {
            delay = (delay * 2).min(Duration::from_secs(5));
        } else {
            delay = Duration::from_millis(100);
        }
        log(&format!(
            "starting the upstream server again in {} ms (--on-upstream-exit restart)",
            delay.as_millis()
        ));
        tokio::time::sleep(delay).await;
    }
}

async fn run(args: Args) -> ExitCode {
    let child = match &args.upstream_url {
        Some(_) => None,
        None => match spawn(&args.command) {
            Ok(c) => Some(c),
            Err(e) => {
                log(&format!("cannot start {:?}: {e}", args.command[0]));
                return ExitCode::from(1);
            }
        },
    };
    let listener = match args.listen {
        Some(addr) => match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => {
                log(&format!(
                    "serving the host at http://{}",
                    l.local_addr().unwrap_or(addr)
                ));
                Some(l)
            }
            Err(e) => {
                log(&format!("cannot listen on {addr}: {e}"));
                return ExitCode::from(1);
            }
        },
        None => None,
    };
    let gw = Arc::new(Mutex::new(Gateway::new(args.config.clone())));
    let (to_host, host_rx) = mpsc::channel(QUEUE_FRAMES);
    let (to_upstream, upstream_rx) = mpsc::channel(QUEUE_FRAMES);
    let (inputs, inputs_rx) = mpsc::unbounded_channel();
    let sides = Sides {
        host: to_host,
        upstream: to_upstream,
    };
    let host_http = listener
        .as_ref()
        .map(|_| http::HostHttp::new(gw.clone(), sides.clone(), args.max_frame_bytes));
    let host_writer = match &host_http {
        Some(h) => tokio::spawn(http::route_to_host(host_rx, h.clone())),
        None => tokio::spawn(write_frames(host_output(), host_rx)),
    };
    let upstream_writer = match &args.upstream_url {
        Some(url) => {
            let upstream = match http::UpstreamHttp::new(
                url,
                args.upstream_ca.as_deref(),
                gw.clone(),
                sides.clone(),
                args.max_frame_bytes,
            ) {
                Ok(u) => u,
                Err(e) => {
                    log(&e);
                    return ExitCode::from(2);
                }
            };
            tokio::spawn(http::post_frames(upstream_rx, upstream))
        }
        None => tokio::spawn(write_upstream(upstream_rx, inputs_rx)),
    };
    let slot: ChildSlot = Arc::default();
    let max = args.max_frame_bytes;

    let from_host = {
        let (gw, sides) = (gw.clone(), sides.clone());
        async move {
            if let (Some(listener), Some(host)) = (listener, host_http) {
                http::serve(listener, host).await;
                return End::HostClosed;
            }
            let mut stdin = BufReader::with_capacity(READ_BUFFER, host_input());
            loop {
                let outs = match read_line(&mut stdin, max).await {
                    Ok(Line::Frame(f)) => gw
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .host_frame(&f),
                    Ok(Line::TooLong { len: n, .. }) => {
                        log(&format!(
                            "a frame of {n} bytes from the host refused (limit {max})"
                        ));
                        let message = format!(
                            "toolgate-mcp: frame of {n} bytes refused: more than the limit of {max}"
                        );
                        vec![Out::Host(error_frame(
                            None,
                            ErrorCode::INVALID_REQUEST,
                            message,
                        ))]
                    }
                    Ok(Line::Eof) | Err(_) => return End::HostClosed,
                };
                dispatch(&gw, outs, &sides).await;
            }
        }
    };
    let from_upstream = async {
        match child {
            Some(child) => {
                upstream_side(
                    &args,
                    child,
                    gw.clone(),
                    sides.clone(),
                    inputs,
                    slot.clone(),
                )
                .await
            }
            // An HTTP upstream has no end of its own.
            None => std::future::pending().await,
        }
    };

    let end = tokio::select! {
        end = from_host => end,
        end = from_upstream => end,
    };
    drop(sides);
    match end {
        End::HostClosed => {
            // The host is gone: close the upstream's input, give it a moment to exit
            // on its own, then kill it, so no server outlives its host.
            upstream_writer.abort();
            let _ = upstream_writer.await;
            if let Some(mut child) = slot.lock().await.take() {
                match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                    Ok(_) => {}
                    Err(_) => {
                        let _ = child.kill().await;
                    }
                }
            }
            let _ = host_writer.await;
            ExitCode::SUCCESS
        }
        End::UpstreamClosed => {
            // Every pending request has its error queued: write them, then end.
            let _ = host_writer.await;
            upstream_writer.abort();
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_command_follows_the_double_dash() {
        let args = parse_args(&strings(&[
            "--max-frame-bytes",
            "99",
            "--",
            "python",
            "-u",
            "s.py",
        ]))
        .unwrap();
        assert_eq!(args.command, ["python", "-u", "s.py"]);
        assert_eq!(args.max_frame_bytes, 99);
        assert!(!args.config.policy.pass_unchecked);
        assert!(!args.restart);
        assert_eq!(
            args.config.registry.schema_options().profile(),
            Profile::Full
        );
        assert_eq!(args.config.registry.names(), NamePolicy::Mcp);
    }

    #[test]
    fn bad_command_lines_are_refused() {
        assert!(parse_args(&strings(&["--",])).is_err());
        assert!(parse_args(&strings(&["--max-depth", "x", "--", "a"])).is_err());
        assert!(parse_args(&strings(&["--frobnicate", "--", "a"])).is_err());
        let e = parse_args(&strings(&["--default-draft", "4", "--", "a"]))
            .err()
            .unwrap();
        assert!(e.contains("unknown draft"), "{e}");
        let e = parse_args(&strings(&["--target", "openai", "--", "a"]))
            .err()
            .unwrap();
        assert!(e.contains("openai-strict"), "{e}");
        assert!(parse_args(&strings(&["--enforce-target", "--", "a"])).is_err());
        assert!(parse_args(&strings(&["--on-upstream-exit", "later", "--", "a"])).is_err());
    }

    #[tokio::test]
    async fn a_full_queue_holds_the_sender_until_its_side_reads() {
        let config = parse_args(&strings(&["--", "x"])).unwrap().config;
        let gw = Mutex::new(Gateway::new(config));
        let (host, mut host_rx) = mpsc::channel(1);
        let (upstream, _upstream_rx) = mpsc::channel(1);
        let sides = Sides { host, upstream };
        dispatch(&gw, vec![Out::Host(b"1".to_vec())], &sides).await;
        let mut second = std::pin::pin!(dispatch(&gw, vec![Out::Host(b"2".to_vec())], &sides));
        tokio::select! {
            biased;
            _ = &mut second => panic!("a frame was queued past the limit"),
            _ = tokio::task::yield_now() => {}
        }
        // The host reads one frame: the second goes in.
        assert_eq!(host_rx.recv().await.unwrap(), b"1");
        second.await;
        assert_eq!(host_rx.recv().await.unwrap(), b"2");
    }

    #[test]
    fn listen_takes_a_port_or_an_address_and_excludes_nothing_else() {
        let args = parse_args(&strings(&["--listen", "8123", "--", "a"])).unwrap();
        assert_eq!(args.listen, Some(([127, 0, 0, 1], 8123).into()));
        let args = parse_args(&strings(&["--listen", "0.0.0.0:9", "--", "a"])).unwrap();
        assert_eq!(args.listen, Some(([0, 0, 0, 0], 9).into()));
        let args = parse_args(&strings(&["--upstream-url", "http://127.0.0.1:1/mcp"])).unwrap();
        assert!(args.command.is_empty());
        assert!(parse_args(&strings(&["--upstream-url", "http://h/", "--", "a"])).is_err());
        assert!(parse_args(&strings(&["--listen", "nowhere", "--", "a"])).is_err());
        let args = parse_args(&strings(&[
            "--upstream-url",
            "https://h/mcp",
            "--upstream-ca",
            "ca.pem",
        ]))
        .unwrap();
        assert_eq!(args.upstream_ca.as_deref(), Some("ca.pem".as_ref()));
        assert!(parse_args(&strings(&["--upstream-ca", "ca.pem", "--", "a"])).is_err());
    }

    #[test]
    fn the_target_and_the_restart_are_read() {
        let args = parse_args(&strings(&[
            "--target",
            "gemini",
            "--enforce-target",
            "--on-upstream-exit",
            "restart",
            "--",
            "a",
        ]))
        .unwrap();
        assert_eq!(args.config.policy.target, Some(Target::Gemini));
        assert!(args.config.policy.enforce_target && args.restart);
    }
}
