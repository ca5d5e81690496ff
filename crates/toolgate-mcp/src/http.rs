//! MCP's streamable HTTP transport, at both ends of the gateway, with the frames kept
//! as their senders wrote them: `--listen` serves the host (each POST one JSON-RPC
//! message; a request's answer is the response's JSON body; the server's own
//! notifications and requests go on the host's GET stream), and `--upstream-url`
//! reaches a server (each frame POSTed; the answer read from a JSON body or an SSE
//! stream; a GET stream opened for the server's own messages).

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{HeaderValue, ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use rmcp::model::{ConstString, ErrorCode, InitializeResultMethod};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};
use tokio_rustls::TlsConnector;

use crate::frame::{error_frame, id_key, Envelope, HEAD};
use crate::gateway::{Gateway, Out};
use crate::{dispatch, log, Sides, QUEUE_FRAMES};

const SESSION: &str = "mcp-session-id";
const PROTOCOL: &str = "mcp-protocol-version";

type Body_ = BoxBody<Bytes, Infallible>;

fn full(bytes: impl Into<Bytes>) -> Body_ {
    Full::new(bytes.into()).boxed()
}

fn respond(status: StatusCode, content_type: Option<&str>, body: Body_) -> Response<Body_> {
    let mut r = Response::new(body);
    *r.status_mut() = status;
    if let Some(t) = content_type {
        r.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_str(t).expect("a header"));
    }
    r
}

/// A body whose chunks arrive on a channel: a server-sent-event stream.
struct Stream(mpsc::Receiver<Bytes>);

impl Body for Stream {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b))))
    }
}

/// One server-sent event carrying `frame` (a line per `data:`, should it hold any).
fn event(frame: &[u8]) -> Bytes {
    let mut out = b"event: message\n".to_vec();
    for line in frame.split(|&b| b == b'\n') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.push(b'\n');
    out.into()
}

/// The host's side, served over streamable HTTP.
pub struct HostHttp {
    gw: Arc<Mutex<Gateway>>,
    sides: Sides,
    /// The host's requests waiting for their answer, by id key.
    waiting: Mutex<HashMap<String, oneshot::Sender<Vec<u8>>>>,
    /// The host's GET stream, for the server's notifications and requests.
    stream: Mutex<Option<mpsc::Sender<Bytes>>>,
    /// The session, once the host has initialized.
    session: Mutex<Option<String>>,
    max: usize,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl HostHttp {
    /// The host's side for the gateway `gw`, frames to the upstream queued on `sides`.
    pub fn new(gw: Arc<Mutex<Gateway>>, sides: Sides, max: usize) -> Arc<HostHttp> {
        Arc::new(HostHttp {
            gw,
            sides,
            waiting: Mutex::new(HashMap::new()),
            stream: Mutex::new(None),
            session: Mutex::new(None),
            max,
        })
    }
}

/// Takes each frame for the host off `rx`: an answer to a request goes to the POST
/// waiting for it, anything else to the host's GET stream (dropped, and logged, when
/// the host has none open).
pub async fn route_to_host(mut rx: mpsc::Receiver<Vec<u8>>, host: Arc<HostHttp>) {
    while let Some(frame) = rx.recv().await {
        let waiting = match Envelope::parse(&frame) {
            Ok(Envelope {
                id: Some(id),
                method: None,
                ..
            }) => lock(&host.waiting).remove(&id_key(id)),
            _ => None,
        };
        if let Some(tx) = waiting {
            let _ = tx.send(frame);
            continue;
        }
        let stream = lock(&host.stream).clone();
        let sent = match stream {
            Some(s) => s.send(event(&frame)).await.is_ok(),
            None => false,
        };
        if !sent {
            log("a message for the host dropped: the host has no GET stream open");
        }
    }
}

/// Serves the host on `listener` until accepting fails.
pub async fn serve(listener: TcpListener, host: Arc<HostHttp>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        let host = host.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| handle(req, host.clone()));
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Whether an `Origin` header names this machine (MCP asks servers to refuse other
/// origins, against DNS rebinding).
fn local_origin(origin: &str) -> bool {
    let Ok(uri) = origin.parse::<Uri>() else {
        return false;
    };
    matches!(
        uri.host(),
        Some("localhost" | "127.0.0.1" | "[::1]" | "::1")
    )
}

async fn handle(
    req: Request<Incoming>,
    host: Arc<HostHttp>,
) -> Result<Response<Body_>, Infallible> {
    if let Some(origin) = req.headers().get(ORIGIN) {
        if !origin.to_str().is_ok_and(local_origin) {
            return Ok(respond(StatusCode::FORBIDDEN, None, full("origin refused")));
        }
    }
    let session = req
        .headers()
        .get(SESSION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let known = lock(&host.session).clone();
    match *req.method() {
        Method::GET => {
            let wants_stream = req
                .headers()
                .get(ACCEPT)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|a| a.contains("text/event-stream"));
            if !wants_stream {
                return Ok(respond(StatusCode::METHOD_NOT_ALLOWED, None, full("")));
            }
            if known.is_none() || session != known {
                return Ok(respond(
                    StatusCode::NOT_FOUND,
                    None,
                    full("no such session"),
                ));
            }
            let (tx, rx) = mpsc::channel(QUEUE_FRAMES);
            *lock(&host.stream) = Some(tx);
            Ok(respond(
                StatusCode::OK,
                Some("text/event-stream"),
                Stream(rx).boxed(),
            ))
        }
        Method::POST => Ok(post(req, host, session, known).await),
        // The session lasts as long as the gateway: the host may not end it.
        _ => Ok(respond(StatusCode::METHOD_NOT_ALLOWED, None, full(""))),
    }
}

fn json(status: StatusCode, frame: Vec<u8>) -> Response<Body_> {
    respond(status, Some("application/json"), full(frame))
}

async fn post(
    req: Request<Incoming>,
    host: Arc<HostHttp>,
    session: Option<String>,
    known: Option<String>,
) -> Response<Body_> {
    let max = host.max;
    let body = match Limited::new(req.into_body(), max).collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => {
            log(&format!("a message over {max} bytes from the host refused"));
            let message =
                format!("toolgate-mcp: message refused: more than the limit of {max} bytes");
            return json(
                StatusCode::PAYLOAD_TOO_LARGE,
                error_frame(None, ErrorCode::INVALID_REQUEST, message),
            );
        }
    };
    let env = Envelope::parse(&body);
    let request = match &env {
        Ok(Envelope {
            id: Some(id),
            method: Some(method),
            ..
        }) => Some((id_key(id), method == InitializeResultMethod::VALUE)),
        _ => None,
    };
    let initialize = request.as_ref().is_some_and(|(_, i)| *i);
    if !initialize && known.is_some() && session != known {
        return if session.is_none() {
            respond(
                StatusCode::BAD_REQUEST,
                None,
                full("Mcp-Session-Id missing"),
            )
        } else {
            respond(StatusCode::NOT_FOUND, None, full("no such session"))
        };
    }
    let outs = lock(&host.gw).host_frame(&body);
    if env.is_err() {
        // The gateway answers a malformed message itself, with id null.
        let answer = outs.into_iter().find_map(|o| match o {
            Out::Host(f) => Some(f),
            Out::Upstream(_) => None,
        });
        dispatch(&host.gw, Vec::new(), &host.sides).await;
        return json(StatusCode::BAD_REQUEST, answer.unwrap_or_default());
    }
    let Some((key, initialize)) = request else {
        if let Some(cancelled) = cancelled_key(env.as_ref().ok()) {
            // The gateway drops the cancelled request's answer: nothing will come for
            // the POST that waits for it, which ends now.
            lock(&host.waiting).remove(&cancelled);
        }
        dispatch(&host.gw, outs, &host.sides).await;
        return respond(StatusCode::ACCEPTED, None, full(""));
    };
    let (tx, rx) = oneshot::channel();
    lock(&host.waiting).insert(key.clone(), tx);
    dispatch(&host.gw, outs, &host.sides).await;
    let Ok(answer) = rx.await else {
        // Cancelled by the host: it reads no answer.
        return respond(StatusCode::ACCEPTED, None, full(""));
    };
    let mut response = json(StatusCode::OK, answer);
    if initialize {
        let id = lock(&host.session)
            .get_or_insert_with(new_session_id)
            .clone();
        response
            .headers_mut()
            .insert(SESSION, HeaderValue::from_str(&id).expect("hex"));
    }
    response
}

/// The id key of the request a `notifications/cancelled` names.
fn cancelled_key(env: Option<&Envelope<'_>>) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Cancelled<'a> {
        #[serde(rename = "requestId", borrow)]
        request_id: &'a serde_json::value::RawValue,
    }
    let env = env?;
    if env.method.as_deref() != Some("notifications/cancelled") || env.id.is_some() {
        return None;
    }
    let params: Cancelled<'_> = serde_json::from_str(env.params?.get()).ok()?;
    Some(id_key(params.request_id))
}

/// A session id nobody can guess: 128 bits from the system's random source.
fn new_session_id() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_err()
    {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        bytes = (t ^ u128::from(std::process::id())).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The TLS of an `https://` upstream: the server's name to verify, and the connector
/// trusting the Mozilla roots (`webpki-roots`) and those of `--upstream-ca`.
struct Tls {
    name: ServerName<'static>,
    connector: TlsConnector,
}

/// The roots an `https://` upstream is verified against: the Mozilla roots, and every
/// certificate of the PEM file `ca` (or why that file cannot be read).
fn tls_config(ca: Option<&Path>) -> Result<ClientConfig, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca {
        let shown = path.display();
        let pem = std::fs::read(path).map_err(|e| format!("--upstream-ca {shown}: {e}"))?;
        let mut count = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| format!("--upstream-ca {shown}: not a PEM file: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("--upstream-ca {shown}: a certificate refused: {e}"))?;
            count += 1;
        }
        if count == 0 {
            return Err(format!(
                "--upstream-ca {shown}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it"
            ));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// A streamable-HTTP upstream.
pub struct UpstreamHttp {
    uri: Uri,
    /// The `Host` header: the URL's authority as written.
    authority: String,
    /// Where to connect: the host and the port (80 or 443 when the URL has none).
    address: (String, u16),
    tls: Option<Tls>,
    session: Mutex<Option<String>>,
    protocol: Mutex<Option<String>>,
    /// Whether the GET stream for the server's own messages was opened.
    listening: Mutex<bool>,
    gw: Arc<Mutex<Gateway>>,
    sides: Sides,
    max: usize,
}

impl UpstreamHttp {
    /// The upstream at `url` (`http://` or `https://HOST[:PORT]/PATH`; an `https://`
    /// server verified against the Mozilla roots and the PEM file `ca`), or why it
    /// cannot be one.
    pub fn new(
        url: &str,
        ca: Option<&Path>,
        gw: Arc<Mutex<Gateway>>,
        sides: Sides,
        max: usize,
    ) -> Result<Arc<UpstreamHttp>, String> {
        let uri: Uri = url.parse().map_err(|e| format!("{url:?}: {e}"))?;
        let https = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            Some(other) => {
                return Err(format!(
                    "{url:?}: the scheme {other}:// is not supported (http:// or https://)"
                ))
            }
            None => return Err(format!("{url:?}: no scheme (http:// or https://)")),
        };
        if ca.is_some() && !https {
            return Err(format!("{url:?}: --upstream-ca needs an https:// URL"));
        }
        let authority = uri
            .authority()
            .ok_or_else(|| format!("{url:?}: no host"))?
            .to_string();
        let host = uri.host().unwrap_or_default();
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host)
            .to_owned();
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        let tls = if https {
            let name = ServerName::try_from(host.clone())
                .map_err(|e| format!("{url:?}: not a TLS server name: {e}"))?;
            let connector = TlsConnector::from(Arc::new(tls_config(ca)?));
            Some(Tls { name, connector })
        } else {
            None
        };
        Ok(Arc::new(UpstreamHttp {
            uri,
            authority,
            address: (host, port),
            tls,
            session: Mutex::new(None),
            protocol: Mutex::new(None),
            listening: Mutex::new(false),
            gw,
            sides,
            max,
        }))
    }

    /// A connection to the server (TLS for `https://`), ready for one request.
    async fn connect(
        &self,
    ) -> Result<hyper::client::conn::http1::SendRequest<Full<Bytes>>, String> {
        let (host, port) = &self.address;
        let stream = TcpStream::connect((host.as_str(), *port))
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", self.authority))?;
        let Some(tls) = &self.tls else {
            return handshake(stream).await;
        };
        let stream = tls
            .connector
            .connect(tls.name.clone(), stream)
            .await
            .map_err(|e| format!("TLS with {} failed: {e}", self.authority))?;
        handshake(stream).await
    }

    async fn send(&self, method: Method, body: Bytes) -> Result<Response<Incoming>, String> {
        let mut sender = self.connect().await?;
        let mut req = Request::builder()
            .method(method)
            .uri(self.uri.path_and_query().map_or("/", |p| p.as_str()))
            .header(HOST, &self.authority)
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json");
        if let Some(s) = lock(&self.session).as_deref() {
            req = req.header(SESSION, s);
        }
        if let Some(p) = lock(&self.protocol).as_deref() {
            req = req.header(PROTOCOL, p);
        }
        let req = req.body(Full::new(body)).map_err(|e| e.to_string())?;
        sender.send_request(req).await.map_err(|e| e.to_string())
    }

    /// A frame from the upstream, routed as any other.
    async fn frame(&self, frame: &[u8]) {
        let outs = if frame.len() > self.max {
            let head = &frame[..HEAD.min(frame.len())];
            lock(&self.gw).upstream_too_long(frame.len(), self.max, head)
        } else {
            lock(&self.gw).upstream_frame(frame)
        };
        dispatch(&self.gw, outs, &self.sides).await;
    }

    /// Reads a response's frames: one JSON body, or an SSE stream's events.
    async fn read(&self, response: Response<Incoming>) -> Result<(), String> {
        let is_stream = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let mut body = response.into_body();
        if !is_stream {
            let bytes = Limited::new(body, self.max.saturating_add(1))
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            if !bytes.iter().all(u8::is_ascii_whitespace) {
                self.frame(&bytes).await;
            }
            return Ok(());
        }
        let mut pending = Vec::new();
        let mut data: Option<Vec<u8>> = None;
        while let Some(chunk) = body.frame().await {
            let chunk = chunk.map_err(|e| e.to_string())?;
            let Ok(bytes) = chunk.into_data() else {
                continue;
            };
            pending.extend_from_slice(&bytes);
            while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = pending.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.is_empty() {
                    if let Some(frame) = data.take() {
                        self.frame(&frame).await;
                    }
                } else if let Some(rest) = line.strip_prefix(b"data:") {
                    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
                    let d = data.get_or_insert_with(Vec::new);
                    if !d.is_empty() {
                        d.push(b'\n');
                    }
                    d.extend_from_slice(rest);
                    if d.len() > self.max.saturating_mul(2) {
                        return Err("an event longer than the frame limit".into());
                    }
                }
            }
            if pending.len() > self.max.saturating_mul(2) {
                return Err("an event line longer than the frame limit".into());
            }
        }
        Ok(())
    }

    /// POSTs one frame and reads what answers it.
    async fn post(self: Arc<Self>, frame: Vec<u8>) {
        let (initialize, initialized) = match Envelope::parse(&frame) {
            Ok(env) => (
                env.method.as_deref() == Some(InitializeResultMethod::VALUE) && env.id.is_some(),
                env.method.as_deref() == Some("notifications/initialized"),
            ),
            Err(_) => (false, false),
        };
        let result = async {
            let response = self.send(Method::POST, Bytes::from(frame.clone())).await?;
            if let Some(s) = response
                .headers()
                .get(SESSION)
                .and_then(|v| v.to_str().ok())
            {
                *lock(&self.session) = Some(s.to_owned());
            }
            let status = response.status();
            let is_json_rpc = response
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|t| {
                    t.starts_with("application/json") || t.starts_with("text/event-stream")
                });
            if status == StatusCode::ACCEPTED {
                return Ok(());
            }
            if !status.is_success() && !is_json_rpc {
                return Err(format!("HTTP status {status}"));
            }
            if initialize {
                // The protocol version the server chose goes on every later request.
                let answer = Limited::new(response.into_body(), self.max.saturating_add(1))
                    .collect()
                    .await
                    .map_err(|e| e.to_string())?
                    .to_bytes();
                let answer = sse_or_json(&answer);
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&answer) {
                    if let Some(p) = v["result"]["protocolVersion"].as_str() {
                        *lock(&self.protocol) = Some(p.to_owned());
                    }
                }
                self.frame(&answer).await;
                return Ok(());
            }
            self.read(response).await
        }
        .await;
        match result {
            Ok(()) if initialized => {
                let first = !std::mem::replace(&mut *lock(&self.listening), true);
                if first {
                    tokio::spawn(self.clone().listen());
                }
            }
            Ok(()) => {}
            Err(why) => {
                log(&format!("the upstream server could not be reached: {why}"));
                let outs = lock(&self.gw).upstream_unreachable(&frame, &why);
                dispatch(&self.gw, outs, &self.sides).await;
            }
        }
    }

    /// Opens the GET stream for the server's own messages (a server may have none).
    async fn listen(self: Arc<Self>) {
        let Ok(response) = self.send(Method::GET, Bytes::new()).await else {
            return;
        };
        if response.status().is_success() {
            let _ = self.read(response).await;
        }
    }
}

/// An HTTP/1 connection over `io`, driven on its own task.
async fn handshake<T>(io: T) -> Result<hyper::client::conn::http1::SendRequest<Full<Bytes>>, String>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(io))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    Ok(sender)
}

/// The frame of a body that is either one JSON message or an SSE stream holding one.
fn sse_or_json(body: &[u8]) -> Vec<u8> {
    let trimmed = body.trim_ascii_start();
    if trimmed.first() == Some(&b'{') {
        return body.to_vec();
    }
    let mut data = Vec::new();
    for line in body.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Some(rest) = line.strip_prefix(b"data:") {
            if !data.is_empty() {
                data.push(b'\n');
            }
            data.extend_from_slice(rest.strip_prefix(b" ").unwrap_or(rest));
        }
    }
    data
}

/// POSTs each frame for the upstream, each on its own task (so calls are in flight at
/// once).
pub async fn post_frames(mut rx: mpsc::Receiver<(u64, Vec<u8>)>, upstream: Arc<UpstreamHttp>) {
    while let Some((_, frame)) = rx.recv().await {
        tokio::spawn(upstream.clone().post(frame));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_become_events_and_events_frames() {
        assert_eq!(
            &event(br#"{"a":1}"#)[..],
            b"event: message\ndata: {\"a\":1}\n\n"
        );
        assert_eq!(
            sse_or_json(b"event: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n"),
            b"{\"a\":\n1}"
        );
        assert_eq!(sse_or_json(b" {\"a\":1}"), b" {\"a\":1}");
    }

    #[test]
    fn only_local_origins_are_served() {
        assert!(local_origin("http://localhost:3000"));
        assert!(local_origin("http://127.0.0.1"));
        assert!(!local_origin("https://evil.example"));
        assert!(!local_origin("null"));
    }

    #[test]
    fn session_ids_are_128_bit_hex() {
        let a = new_session_id();
        assert_eq!(a.len(), 32);
        assert_ne!(a, new_session_id());
    }
}
