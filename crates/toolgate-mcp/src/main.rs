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
use tokio::process::Command;
use tokio::sync::mpsc;
use toolgate_core::{Draft, NamePolicy, Options, Profile, RegistryOptions};

mod frame;
mod gateway;
mod tools;

use frame::{error_frame, read_line, Line};
use gateway::{Config, Gateway, Out};
use rmcp::model::ErrorCode;

const USAGE: &str = "\
usage: toolgate-mcp [OPTIONS] -- COMMAND [ARGS...]

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
  -h, --help               this text
  -V, --version            the version
";

/// The command line, read.
struct Args {
    max_frame_bytes: usize,
    config: Config,
    command: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut max_frame_bytes = 16 << 20;
    let mut max_argument_bytes = RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES;
    let mut max_depth = Options::DEFAULT_MAX_DEPTH;
    let mut draft = Draft::Draft2020_12;
    let mut pass_unchecked = false;
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
            "--pass-unchecked" => pass_unchecked = true,
            other => return Err(format!("unknown option {other:?}")),
        }
        i += 1;
    }
    let command = args.get(i + 1..).unwrap_or_default().to_vec();
    if command.is_empty() {
        return Err("no upstream command: toolgate-mcp [OPTIONS] -- COMMAND [ARGS...]".into());
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
        config: Config {
            registry,
            pass_unchecked,
        },
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

/// Sends each frame to its side; the log lines to stderr.
fn dispatch(
    gw: &Mutex<Gateway>,
    outs: Vec<Out>,
    host: &mpsc::UnboundedSender<Vec<u8>>,
    upstream: &mpsc::UnboundedSender<Vec<u8>>,
) {
    for line in gw.lock().unwrap_or_else(PoisonError::into_inner).take_log() {
        log(&line);
    }
    for out in outs {
        // A side whose writer has stopped is gone; its reader ends the gateway.
        let _ = match out {
            Out::Host(f) => host.send(f),
            Out::Upstream(f) => upstream.send(f),
        };
    }
}

/// Writes each frame from `rx`, a line each, flushing when no more are waiting.
async fn write_frames<W: tokio::io::AsyncWrite + Unpin>(
    mut w: W,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
) {
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

/// How the gateway ended.
enum End {
    /// The host closed its input.
    HostClosed,
    /// The upstream closed its output (it exited, most likely).
    UpstreamClosed,
}

async fn run(args: Args) -> ExitCode {
    let mut child = match Command::new(&args.command[0])
        .args(&args.command[1..])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            log(&format!("cannot start {:?}: {e}", args.command[0]));
            return ExitCode::from(1);
        }
    };
    let child_in = child.stdin.take().expect("piped");
    let child_out = child.stdout.take().expect("piped");
    let gw = Arc::new(Mutex::new(Gateway::new(args.config)));
    let (to_host, host_rx) = mpsc::unbounded_channel();
    let (to_upstream, upstream_rx) = mpsc::unbounded_channel();
    let host_writer = tokio::spawn(write_frames(tokio::io::stdout(), host_rx));
    let upstream_writer = tokio::spawn(write_frames(child_in, upstream_rx));
    let max = args.max_frame_bytes;

    let from_host = {
        let (gw, to_host, to_upstream) = (gw.clone(), to_host.clone(), to_upstream.clone());
        async move {
            let mut stdin = BufReader::new(tokio::io::stdin());
            loop {
                let outs = match read_line(&mut stdin, max).await {
                    Ok(Line::Frame(f)) => gw
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .host_frame(&f),
                    Ok(Line::TooLong(n)) => {
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
                dispatch(&gw, outs, &to_host, &to_upstream);
            }
        }
    };
    let from_upstream = {
        let (gw, to_host, to_upstream) = (gw.clone(), to_host.clone(), to_upstream.clone());
        async move {
            let mut reader = BufReader::new(child_out);
            loop {
                let outs = match read_line(&mut reader, max).await {
                    Ok(Line::Frame(f)) => gw
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .upstream_frame(&f),
                    Ok(Line::TooLong(n)) => {
                        log(&format!(
                            "a frame of {n} bytes from the upstream dropped (limit {max})"
                        ));
                        Vec::new()
                    }
                    Ok(Line::Eof) | Err(_) => {
                        let outs = gw
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .upstream_closed();
                        dispatch(&gw, outs, &to_host, &to_upstream);
                        return End::UpstreamClosed;
                    }
                };
                dispatch(&gw, outs, &to_host, &to_upstream);
            }
        }
    };

    let end = tokio::select! {
        end = from_host => end,
        end = from_upstream => end,
    };
    drop((to_host, to_upstream));
    match end {
        End::HostClosed => {
            // The host is gone: close the upstream's input, give it a moment to exit
            // on its own, then kill it, so no server outlives its host.
            upstream_writer.abort();
            let _ = upstream_writer.await;
            match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                Ok(_) => {}
                Err(_) => {
                    let _ = child.kill().await;
                }
            }
            let _ = host_writer.await;
            ExitCode::SUCCESS
        }
        End::UpstreamClosed => {
            // Every pending request has its error queued: write them, then end.
            let _ = host_writer.await;
            upstream_writer.abort();
            let status = child.wait().await;
            match status {
                Ok(s) => log(&format!("the upstream server exited ({s})")),
                Err(e) => log(&format!("the upstream server is gone ({e})")),
            }
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
        assert!(!args.config.pass_unchecked);
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
    }
}
