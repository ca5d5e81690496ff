//! Newline-delimited JSON-RPC frames, as the MCP stdio transport carries them: a
//! bounded line reader, the envelope every frame is classified by (its members kept as
//! the exact bytes the peer sent), and the error frames the gateway writes itself.

use std::borrow::Cow;
use std::io;

use rmcp::model::{ErrorCode, ErrorData};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from a peer.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A frame's bytes, without its line end (`\n` or `\r\n`).
    Frame(Vec<u8>),
    /// A line longer than the limit: its length in bytes, and its first [`HEAD`]
    /// bytes at most. The rest was discarded as it arrived, so a peer cannot make the
    /// gateway hold more than the limit.
    TooLong {
        /// The line's length in bytes.
        len: usize,
        /// Its first bytes, where its `id` is looked for.
        head: Vec<u8>,
    },
    /// The peer closed the stream.
    Eof,
}

/// How many bytes of a line over the limit are kept.
pub const HEAD: usize = 4096;

/// Reads the next line of `reader`, holding at most `max` bytes of it: a longer line
/// is read to its end and reported as [`Line::TooLong`]. A last line without a line end
/// is a frame too.
pub async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R, max: usize) -> io::Result<Line> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (len, too_long) {
                (0, _) => Line::Eof,
                (len, true) => Line::TooLong { len, head: buf },
                (_, false) => Line::Frame(trim_cr(buf)),
            });
        }
        let (chunk, end) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        len += chunk.len();
        if len > max && !too_long {
            too_long = true;
            buf.truncate(HEAD);
            buf.shrink_to_fit();
        }
        if too_long {
            let room = HEAD.saturating_sub(buf.len()).min(chunk.len());
            buf.extend_from_slice(&chunk[..room]);
        } else {
            buf.extend_from_slice(chunk);
        }
        let consumed = end.unwrap_or(chunk.len());
        reader.consume(consumed);
        if end.is_some() {
            return Ok(if too_long {
                Line::TooLong { len, head: buf }
            } else {
                Line::Frame(trim_cr(buf))
            });
        }
    }
}

fn trim_cr(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

/// The members of a JSON-RPC message the gateway routes by, each borrowed from the
/// frame as the peer wrote it. A member named twice makes the frame malformed.
#[derive(Debug, Deserialize)]
pub struct Envelope<'a> {
    /// The request's or response's id (`None` for a notification, or a `null` id).
    #[serde(borrow, default)]
    pub id: Option<&'a RawValue>,
    /// The method of a request or notification.
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    /// A request's params.
    #[serde(borrow, default)]
    pub params: Option<&'a RawValue>,
    /// A response's result.
    #[serde(borrow, default)]
    pub result: Option<&'a RawValue>,
    /// An error response's error.
    #[serde(borrow, default)]
    pub error: Option<&'a RawValue>,
}

impl<'a> Envelope<'a> {
    /// The frame's envelope, or why it is not a JSON-RPC message: not JSON, not an
    /// object, a member of the wrong type or named twice. A batch (an array) is not
    /// read: MCP sends one message per frame.
    pub fn parse(frame: &'a [u8]) -> Result<Envelope<'a>, String> {
        if frame.first() == Some(&b'[') {
            return Err("a JSON-RPC batch; one message per frame is expected".to_owned());
        }
        serde_json::from_slice(frame).map_err(|e| e.to_string())
    }
}

/// The key a request is tracked by: its id as canonical JSON, so a peer that writes
/// the same id with other spacing or escapes still pairs up.
pub fn id_key(id: &RawValue) -> String {
    match serde_json::from_str::<serde_json::Value>(id.get()) {
        Ok(value) => value.to_string(),
        Err(_) => id.get().to_owned(),
    }
}

/// The `id` of a frame of which only the head was kept: the top-level object's `id`
/// member, when it is read whole (a string or a number) before the head ends and before
/// any member too long for the head. `None` otherwise.
pub fn head_id(head: &[u8]) -> Option<Box<RawValue>> {
    let mut i = skip_ws(head, 0);
    if head.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(head, i);
        if head.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = skip_value(head, i)?;
        let key: Cow<'_, str> = serde_json::from_slice(&head[i..key_end]).ok()?;
        i = skip_ws(head, key_end);
        if head.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(head, i + 1);
        let end = skip_value(head, start)?;
        if key == "id" {
            let value = std::str::from_utf8(&head[start..end]).ok()?;
            let id: Box<RawValue> = serde_json::from_str(value).ok()?;
            let first = id.get().as_bytes()[0];
            return (first == b'"' || first == b'-' || first.is_ascii_digit()).then_some(id);
        }
        i = skip_ws(head, end);
        match head.get(i) {
            Some(b',') => i += 1,
            _ => return None,
        }
    }
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

/// The end of the JSON value starting at `i`, when it ends within `s` (its syntax is
/// only followed as far as finding the end).
fn skip_value(s: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        match *s.get(i)? {
            b'"' => {
                i += 1;
                loop {
                    match *s.get(i)? {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                i += 1;
            }
            _ if depth > 0 => i += 1,
            _ => {
                // A scalar at the top: up to the next delimiter, which must be there.
                let len = s[i..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))?;
                return (len > 0).then_some(i + len);
            }
        }
        if depth == 0 {
            return Some(i);
        }
    }
}

/// `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":MESSAGE}}`, `ID` the
/// request's id as its sender wrote it (`null` when the frame had none that could be
/// read).
pub fn error_frame(id: Option<&RawValue>, code: ErrorCode, message: String) -> Vec<u8> {
    let error = ErrorData {
        code,
        message: Cow::Owned(message),
        data: None,
    };
    let error = serde_json::to_string(&error).expect("an error serializes");
    let id = id.map_or("null", RawValue::get);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#).into_bytes()
}

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`, both members as given.
pub fn result_frame(id: &RawValue, result: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#, id.get()).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<Line> {
        // A reader that hands out three bytes at a time, so lines cross buffer edges.
        let mut reader = tokio::io::BufReader::with_capacity(3, input);
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut reader, max).await.unwrap();
            let end = line == Line::Eof;
            out.push(line);
            if end {
                return out;
            }
        }
    }

    fn frame(s: &str) -> Line {
        Line::Frame(s.as_bytes().to_vec())
    }

    #[tokio::test]
    async fn lines_are_split_at_newlines_and_lose_their_line_ends() {
        let got = lines(b"{\"a\":1}\n{\"b\":2}\r\n\n{\"c\":3}", 64).await;
        assert_eq!(
            got,
            vec![
                frame(r#"{"a":1}"#),
                frame(r#"{"b":2}"#),
                frame(""),
                frame(r#"{"c":3}"#),
                Line::Eof
            ]
        );
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_reported_and_the_next_line_is_read_whole() {
        let got = lines(b"0123456789abc\n{}\n0123456789abc", 8).await;
        assert_eq!(
            got,
            vec![
                Line::TooLong {
                    len: 13,
                    head: b"0123456789abc".to_vec()
                },
                frame("{}"),
                Line::TooLong {
                    len: 13,
                    head: b"0123456789abc".to_vec()
                },
                Line::Eof
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_a_frame() {
        assert_eq!(
            lines(b"12345678\n", 8).await,
            vec![frame("12345678"), Line::Eof]
        );
    }

    #[tokio::test]
    async fn a_line_over_the_limit_keeps_only_its_head() {
        let long = format!("{}\n", "x".repeat(3 * HEAD));
        let got = lines(long.as_bytes(), 10).await;
        let Line::TooLong { len, head } = &got[0] else {
            panic!("{got:?}")
        };
        assert_eq!((*len, head.len()), (3 * HEAD, HEAD));
    }

    #[test]
    fn the_id_is_read_from_a_frames_head() {
        let id = |s: &str| head_id(s.as_bytes()).map(|id| id.get().to_owned());
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"te"#).as_deref(),
            Some("7")
        );
        assert_eq!(
            id(r#" { "jsonrpc" : "2.0" , "id" : "a\"}" , "result""#).as_deref(),
            Some(r#""a\"}""#)
        );
        assert_eq!(
            id(r#"{"result":{"a":[1,{"b":"}"}]},"id":12,"x"#).as_deref(),
            Some("12")
        );
        // The id member not reached, cut, or not an id.
        assert_eq!(id(r#"{"jsonrpc":"2.0","result":{"content":"xxxx"#), None);
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":12"#), None);
        assert_eq!(id(r#"{"id":{"a":1},"result":1}"#), None);
        assert_eq!(id(r#"[{"id":1}]"#), None);
    }

    #[test]
    fn the_envelope_keeps_the_exact_bytes_of_its_members() {
        let frame = br#"{"jsonrpc":"2.0","id": 7 ,"method":"tools/call","params":{"name":"echo","arguments":{"b":1.50,"a":"x"}}}"#;
        let env = Envelope::parse(frame).unwrap();
        assert_eq!(env.id.unwrap().get(), "7");
        assert_eq!(env.method.as_deref(), Some("tools/call"));
        assert_eq!(
            env.params.unwrap().get(),
            r#"{"name":"echo","arguments":{"b":1.50,"a":"x"}}"#
        );
    }

    #[test]
    fn malformed_frames_batches_and_repeated_members_are_refused() {
        assert!(Envelope::parse(b"{\"id\":1,").is_err());
        assert!(Envelope::parse(b"[{\"id\":1}]")
            .unwrap_err()
            .contains("batch"));
        assert!(Envelope::parse(br#"{"id":1,"method":"a","method":"b"}"#)
            .unwrap_err()
            .contains("duplicate field"));
        assert!(Envelope::parse(b"42").is_err());
    }

    #[test]
    fn ids_pair_up_whatever_their_spelling() {
        let a: &RawValue = serde_json::from_str(r#""r\u0031""#).unwrap();
        let b: &RawValue = serde_json::from_str(r#""r1""#).unwrap();
        assert_eq!(id_key(a), id_key(b));
        let n: &RawValue = serde_json::from_str("1").unwrap();
        assert_ne!(id_key(n), id_key(b));
    }

    #[test]
    fn error_frames_carry_the_request_id_as_sent() {
        let id: &RawValue = serde_json::from_str(r#""abc""#).unwrap();
        let got = error_frame(Some(id), ErrorCode::INVALID_PARAMS, "bad \"x\"".into());
        assert_eq!(
            String::from_utf8(got).unwrap(),
            r#"{"jsonrpc":"2.0","id":"abc","error":{"code":-32602,"message":"bad \"x\""}}"#
        );
        let got = error_frame(None, ErrorCode::PARSE_ERROR, "no".into());
        assert!(String::from_utf8(got).unwrap().contains(r#""id":null"#));
    }
}
