//! The routing, frame by frame: what each side's frame becomes.

use super::*;
use toolgate_core::{NamePolicy, Options, Profile};

fn gateway(pass_unchecked: bool) -> Gateway {
    Gateway::new(Config {
        registry: RegistryOptions::default()
            .with_names(NamePolicy::Mcp)
            .with_max_argument_bytes(1024)
            .with_schema_options(Options::default().with_profile(Profile::Full)),
        policy: crate::tools::ListPolicy {
            pass_unchecked,
            ..Default::default()
        },
    })
}

const TOOLS: &str = r#"{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"n":{"type":"integer"}},"required":["text"]},"outputSchema":{"type":"object","properties":{"got":{"type":"string"}},"required":["got"]}},{"name":"broken","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://example.invalid/s.json"}}}}]}"#;

fn text(out: &Out) -> (&'static str, String) {
    match out {
        Out::Host(f) => ("host", String::from_utf8(f.clone()).unwrap()),
        Out::Upstream(f) => ("upstream", String::from_utf8(f.clone()).unwrap()),
    }
}

/// A gateway past `initialized`, its own tool list read.
fn ready(pass_unchecked: bool) -> Gateway {
    let mut gw = gateway(pass_unchecked);
    let out = gw.host_frame(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(out.len(), 2);
    let (to, fetch) = text(&out[1]);
    assert_eq!(to, "upstream");
    assert_eq!(
        fetch,
        r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","method":"tools/list","params":{}}"#
    );
    let answer = format!(r#"{{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{TOOLS}}}"#);
    assert!(gw.upstream_frame(answer.as_bytes()).is_empty());
    let log = gw.take_log();
    assert!(log[0].contains("broken"), "{log:?}");
    gw
}

#[test]
fn a_valid_call_is_forwarded_byte_for_byte() {
    let mut gw = ready(false);
    let call = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{ "n" : 1.0e0, "text":"h\u00e9" }}}"#;
    assert_eq!(gw.host_frame(call), vec![Out::Upstream(call.to_vec())]);
    assert_eq!(gw.pending(), 1);
}

#[test]
fn a_wrong_typed_call_is_answered_by_the_gateway_with_the_violations() {
    let mut gw = ready(false);
    let out = gw.host_frame(br#"{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"echo","arguments":{"text":3}}}"#);
    assert_eq!(out.len(), 1);
    let (to, frame) = text(&out[0]);
    assert_eq!(to, "host");
    let v: serde_json::Value = serde_json::from_str(&frame).unwrap();
    assert_eq!(v["id"], "c1");
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["content"][0]["text"],
        "error: invalid arguments for echo:\n$.text: expected string, got integer"
    );
    let violation = &v["result"]["_meta"]["toolgate/violations"][0];
    assert_eq!(violation["pointer"], "/text");
    assert_eq!(violation["keyword"], "type");
    assert_eq!(gw.pending(), 0);
}

#[test]
fn duplicate_keys_in_arguments_are_refused() {
    let mut gw = ready(false);
    let out = gw.host_frame(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","text":"b"}}}"#);
    let (to, frame) = text(&out[0]);
    assert_eq!(to, "host");
    assert!(frame.contains("duplicate"), "{frame}");
}

#[test]
fn an_unknown_tool_gets_the_did_you_mean_text() {
    let mut gw = ready(false);
    let out = gw.host_frame(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ecko","arguments":{}}}"#);
    let (_, frame) = text(&out[0]);
    let v: serde_json::Value = serde_json::from_str(&frame).unwrap();
    let content = v["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        content.starts_with(r#"error: unknown tool "ecko""#),
        "{content}"
    );
    assert!(content.contains("echo"), "{content}");
    // A tool withheld for its schema is unknown too.
    let out = gw.host_frame(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"broken","arguments":{}}}"#);
    assert!(text(&out[0]).1.contains(r#"unknown tool \"broken\""#));
}

#[test]
fn calls_before_the_tool_list_wait_for_it() {
    let mut gw = gateway(false);
    let call = br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#;
    let out = gw.host_frame(call);
    // The gateway asks for the list itself; the call waits.
    assert_eq!(out.len(), 1);
    assert!(text(&out[0]).1.contains(r#""method":"tools/list""#));
    let answer = format!(r#"{{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{TOOLS}}}"#);
    assert_eq!(
        gw.upstream_frame(answer.as_bytes()),
        vec![Out::Upstream(call.to_vec())]
    );
}

#[test]
fn the_tool_list_is_read_page_by_page() {
    let mut gw = gateway(false);
    gw.host_frame(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let page1 = r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"c2"}}"#;
    let out = gw.upstream_frame(page1.as_bytes());
    assert_eq!(
        text(&out[0]).1,
        r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/2","method":"tools/list","params":{"cursor":"c2"}}"#
    );
    let page2 = r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/2","result":{"tools":[{"name":"b","inputSchema":{"type":"object"}}]}}"#;
    assert!(gw.upstream_frame(page2.as_bytes()).is_empty());
    assert_eq!(gw.tools.registry.names(), ["a", "b"]);
}

#[test]
fn the_hosts_tool_list_loses_the_tools_withheld() {
    let mut gw = ready(false);
    assert_eq!(
        gw.host_frame(br#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#)
            .len(),
        1
    );
    let answer = format!(r#"{{"jsonrpc":"2.0","id":4,"result":{TOOLS}}}"#);
    let out = gw.upstream_frame(answer.as_bytes());
    let (to, frame) = text(&out[0]);
    assert_eq!(to, "host");
    let v: serde_json::Value = serde_json::from_str(&frame).unwrap();
    assert_eq!(v["id"], 4);
    assert_eq!(v["result"]["tools"].as_array().unwrap().len(), 1);
    assert_eq!(v["result"]["tools"][0]["name"], "echo");
}

#[test]
fn pass_unchecked_relays_the_tool_and_its_calls() {
    let mut gw = ready(true);
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"broken","arguments":{"a":[]}}}"#;
    assert_eq!(gw.host_frame(call), vec![Out::Upstream(call.to_vec())]);
}

#[test]
fn a_result_its_output_schema_refuses_becomes_an_error_result() {
    let mut gw = ready(false);
    gw.host_frame(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#);
    let bad = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{}"}],"structuredContent":{"got":5}}}"#;
    let out = gw.upstream_frame(bad);
    let (to, frame) = text(&out[0]);
    assert_eq!(to, "host");
    let v: serde_json::Value = serde_json::from_str(&frame).unwrap();
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["content"][0]["text"],
        "error: tool echo returned an invalid result:\n$.got: expected string, got integer"
    );
    assert_eq!(
        v["result"]["_meta"]["toolgate/violations"][0]["pointer"],
        "/got"
    );
    assert!(gw.take_log()[0].contains(r#""structuredContent":{"got":5}"#));
}

#[test]
fn a_conforming_result_and_an_error_result_pass_unchanged() {
    let mut gw = ready(false);
    for id in [1, 2] {
        gw.host_frame(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"x"}}}}}}"#).as_bytes());
    }
    let good =
        br#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"got":"x"}}}"#;
    assert_eq!(gw.upstream_frame(good), vec![Out::Host(good.to_vec())]);
    let error = br#"{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true}}"#;
    assert_eq!(gw.upstream_frame(error), vec![Out::Host(error.to_vec())]);
}

#[test]
fn a_list_change_makes_the_gateway_read_the_list_again() {
    let mut gw = ready(false);
    let note = br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    let out = gw.upstream_frame(note);
    assert_eq!(
        text(&out[0]).1,
        r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/2/1","method":"tools/list","params":{}}"#
    );
    assert_eq!(out[1], Out::Host(note.to_vec()));
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fresh","arguments":{}}}"#;
    assert!(
        gw.host_frame(call).is_empty(),
        "the call waits for the new list"
    );
    let answer = r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/2/1","result":{"tools":[{"name":"fresh","inputSchema":{"type":"object"}}]}}"#;
    assert_eq!(
        gw.upstream_frame(answer.as_bytes()),
        vec![Out::Upstream(call.to_vec())]
    );
}

#[test]
fn everything_else_passes_through_unchanged() {
    let mut gw = ready(false);
    for frame in [
        &br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://y"}}"#[..],
        br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
        br#"{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}"#,
    ] {
        assert_eq!(gw.host_frame(frame), vec![Out::Upstream(frame.to_vec())]);
    }
    for frame in [
        &br#"{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}"#[..],
        br#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#,
        br#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}"#,
    ] {
        assert_eq!(gw.upstream_frame(frame), vec![Out::Host(frame.to_vec())]);
    }
}

#[test]
fn malformed_frames_from_the_host_get_a_parse_error_and_the_gateway_goes_on() {
    let mut gw = ready(false);
    let out = gw.host_frame(b"{\"jsonrpc\":\"2.0\",\"id\":1,");
    let (to, frame) = text(&out[0]);
    assert_eq!(to, "host");
    assert!(
        frame.starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"#),
        "{frame}"
    );
    let out = gw
        .host_frame(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#);
    assert!(text(&out[0]).1.contains(r#""id":3,"error":{"code":-32602"#));
    assert!(gw.upstream_frame(b"not json").is_empty());
    assert!(gw
        .take_log()
        .iter()
        .any(|l| l.contains("from the upstream dropped")));
    let call = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#;
    assert_eq!(gw.host_frame(call), vec![Out::Upstream(call.to_vec())]);
}

#[test]
fn arguments_over_the_limit_are_refused() {
    let mut gw = ready(false);
    let long = "x".repeat(2000);
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{long}"}}}}}}"#
    );
    let out = gw.host_frame(call.as_bytes());
    assert!(
        text(&out[0]).1.contains("more than the limit of 1024"),
        "{:?}",
        out
    );
}

#[test]
fn when_the_upstream_closes_every_pending_request_gets_an_error() {
    let mut gw = gateway(false);
    gw.host_frame(br#"{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":"echo","arguments":{}}}"#);
    gw.host_frame(br#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#);
    let out = gw.upstream_closed();
    let frames: Vec<String> = out.iter().map(|o| text(o).1).collect();
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert!(frames
        .iter()
        .any(|f| f.contains(r#""id":1,"error":{"code":-32603"#)));
    assert!(frames.iter().any(|f| f.contains(r#""id":"q","error""#)));
}

const SLOW: &[u8] = br#"{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"echo","arguments":{"text":"slow"}}}"#;
const CANCEL: &[u8] =
    br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":20,"reason":"x"}}"#;

#[test]
fn a_cancelled_calls_late_answer_is_not_forwarded_and_its_entry_is_removed() {
    let mut gw = ready(false);
    assert_eq!(gw.host_frame(SLOW), vec![Out::Upstream(SLOW.to_vec())]);
    assert_eq!(gw.pending(), 1);
    assert_eq!(gw.host_frame(CANCEL), vec![Out::Upstream(CANCEL.to_vec())]);
    assert_eq!((gw.pending(), gw.cancelled()), (0, 1));
    let late =
        br#"{"jsonrpc":"2.0","id":20,"result":{"content":[],"structuredContent":{"got":"x"}}}"#;
    assert!(gw.upstream_frame(late).is_empty());
    assert_eq!(gw.cancelled(), 0);
    // The gateway goes on: the next answer with that id (a new request) passes.
    gw.host_frame(SLOW);
    assert_eq!(gw.upstream_frame(late), vec![Out::Host(late.to_vec())]);
}

#[test]
fn a_call_cancelled_while_it_waits_for_the_tool_list_never_reaches_the_upstream() {
    let mut gw = gateway(false);
    let out = gw.host_frame(SLOW);
    assert_eq!(out.len(), 1, "only the gateway's own tools/list");
    assert!(gw.host_frame(CANCEL).is_empty());
    assert_eq!(gw.pending(), 0);
    let answer = format!(r#"{{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{TOOLS}}}"#);
    assert!(gw.upstream_frame(answer.as_bytes()).is_empty());
}

#[test]
fn the_cancelled_requests_remembered_are_bounded() {
    let mut gw = ready(false);
    for i in 0..CANCELLED_REMEMBERED + 10 {
        gw.host_frame(format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#).as_bytes());
        gw.host_frame(
            format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{i}}}}}"#)
                .as_bytes(),
        );
    }
    assert_eq!((gw.pending(), gw.cancelled()), (0, CANCELLED_REMEMBERED));
    // The oldest were forgotten: their late answers reach the host, which ignores them.
    let old = br#"{"jsonrpc":"2.0","id":0,"result":{}}"#;
    assert_eq!(gw.upstream_frame(old), vec![Out::Host(old.to_vec())]);
    let recent = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{}}}}"#,
        CANCELLED_REMEMBERED
    );
    assert!(gw.upstream_frame(recent.as_bytes()).is_empty());
}

#[test]
fn an_answer_over_the_frame_limit_is_answered_with_an_error_for_its_request() {
    let mut gw = ready(false);
    gw.host_frame(
        br#"{"jsonrpc":"2.0","id":"big","method":"resources/read","params":{"uri":"x://y"}}"#,
    );
    let out = gw.upstream_too_long(
        99_999,
        1000,
        br#"{"jsonrpc":"2.0","id":"big","result":{"contents":[{"text":"xxxxxxx"#,
    );
    assert_eq!(
        out,
        vec![Out::Host(
            br#"{"jsonrpc":"2.0","id":"big","error":{"code":-32603,"message":"toolgate-mcp: the upstream's answer of 99999 bytes is more than the limit of 1000"}}"#.to_vec()
        )]
    );
    assert_eq!(gw.pending(), 0);
    assert!(gw.take_log()[0].contains("a frame of 99999 bytes from the upstream dropped"));
    // Without a readable id, or for a request nobody waits for, it is only logged.
    assert!(gw
        .upstream_too_long(5000, 1000, br#"{"jsonrpc":"2.0","result":{"x":"#)
        .is_empty());
    assert!(gw
        .upstream_too_long(5000, 1000, br#"{"id":"nobody","result":{"x":"#)
        .is_empty());
}

#[test]
fn a_tool_list_page_over_the_frame_limit_ends_the_fetch_with_no_tool() {
    let mut gw = gateway(false);
    gw.host_frame(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let call = br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}"#;
    assert!(gw.host_frame(call).is_empty());
    let out = gw.upstream_too_long(
        5000,
        1000,
        br#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{"tools":["#,
    );
    // The waiting call is answered: the tool is unknown.
    assert_eq!(out.len(), 1);
    assert!(
        text(&out[0]).1.contains(r#"unknown tool \"echo\""#),
        "{out:?}"
    );
    assert!(gw
        .take_log()
        .iter()
        .any(|l| l.contains("a page of the upstream's tool list of 5000 bytes")));
}

#[test]
fn a_withheld_tool_is_logged_once_however_often_it_is_listed() {
    let mut gw = ready(false);
    for id in 1..4 {
        gw.host_frame(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#).as_bytes());
        let answer = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{TOOLS}}}"#);
        gw.upstream_frame(answer.as_bytes());
    }
    assert!(
        gw.take_log().is_empty(),
        "logged when first read, in ready()"
    );
}

#[test]
fn without_an_initialize_the_gateways_tool_list_carries_the_hosts_protocol_context() {
    // A revision without the handshake: every request carries its protocol context in
    // `_meta`, and the first is a call.
    let mut gw = gateway(false);
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":5,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}}}}"#;
    let out = gw.host_frame(call);
    assert_eq!(
        text(&out[0]).1,
        r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#
    );
    let page1 =
        r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{"tools":[],"nextCursor":"c"}}"#;
    let out = gw.upstream_frame(page1.as_bytes());
    assert_eq!(
        text(&out[0]).1,
        r#"{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/2","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}},"cursor":"c"}}"#
    );
    // A host of a revision with the handshake sends none: the request has no `_meta`.
    assert_eq!(
        client_context(Some(
            &RawValue::from_string(r#"{"_meta":{"progressToken":1}}"#.into()).unwrap()
        )),
        None
    );
}

#[test]
fn a_restarted_upstream_is_initialized_as_the_host_did_and_the_host_waits_meanwhile() {
    let mut gw = gateway(false);
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}"#;
    gw.host_frame(init);
    gw.upstream_frame(br#"{"jsonrpc":"2.0","id":0,"result":{}}"#);
    gw.host_frame(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let answer = format!(r#"{{"jsonrpc":"2.0","id":"toolgate-mcp/tools/1/1","result":{TOOLS}}}"#);
    gw.upstream_frame(answer.as_bytes());
    gw.host_frame(SLOW);
    assert_eq!(gw.generation(), 0);
    // The upstream exits: the pending call gets its error, and what the host sends
    // before the new upstream is ready waits.
    let out = gw.upstream_closed();
    assert!(text(&out[0]).1.contains(r#""id":20,"error""#));
    let ping = br#"{"jsonrpc":"2.0","id":21,"method":"ping"}"#;
    assert!(gw.host_frame(ping).is_empty());
    let out = gw.upstream_restarted();
    assert_eq!(gw.generation(), 1);
    assert_eq!(
        out,
        vec![Out::Upstream(
            br#"{"jsonrpc":"2.0","id":"toolgate-mcp/initialize/1","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}"#.to_vec()
        )]
    );
    assert!(gw.host_frame(SLOW).is_empty());
    // Its answer is the gateway's: not passed to the host.
    let out =
        gw.upstream_frame(br#"{"jsonrpc":"2.0","id":"toolgate-mcp/initialize/1","result":{}}"#);
    let frames: Vec<(&str, String)> = out.iter().map(text).collect();
    assert_eq!(frames.len(), 3, "{frames:?}");
    assert_eq!(
        frames[0].1,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    );
    assert!(frames[1].1.contains(r#""id":"toolgate-mcp/tools/2/1""#));
    assert_eq!(
        frames[2],
        ("upstream", String::from_utf8(ping.to_vec()).unwrap())
    );
    // The call waits for the new list, then goes.
    let answer = format!(r#"{{"jsonrpc":"2.0","id":"toolgate-mcp/tools/2/1","result":{TOOLS}}}"#);
    assert_eq!(
        gw.upstream_frame(answer.as_bytes()),
        vec![Out::Upstream(SLOW.to_vec())]
    );
}

#[test]
fn the_frames_waiting_for_the_tool_list_are_bounded() {
    let mut gw = gateway(false);
    let text = "x".repeat(1 << 20);
    let mut refused = 0;
    for i in 0..70 {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{text}"}}}}}}"#
        );
        for out in gw.host_frame(call.as_bytes()) {
            if let Out::Host(f) = out {
                assert!(String::from_utf8(f)
                    .unwrap()
                    .contains("already wait for the upstream"));
                refused += 1;
            }
        }
    }
    assert_eq!(gw.pending(), 70 - refused);
    assert!(refused > 0 && gw.pending() * (1 << 20) <= WAITING_BYTES);
}
