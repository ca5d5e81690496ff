//! The `toolgate` command, run as built: each subcommand's output and exit status,
//! its help, its errors, and its summary over the realworld tool schemas.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[path = "../../toolgate-core/tests/support/test_data.rs"]
mod test_data;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A file in a fresh directory of this test's own.
fn file(test: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolgate-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const SCHEMA: &str = r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#;

#[test]
fn check_prints_the_verdict_and_the_errors() {
    let schema = file("check", "schema.json", SCHEMA);
    let good = file("check", "good.json", r#"{"n":1}"#);
    let bad = file("check", "bad.json", r#"{"n":"x"}"#);
    let o = run(&["check", s(&schema), s(&good)]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    let o = run(&["check", s(&schema), s(&bad)]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "invalid\n$.n: expected integer, got string\n");
    let o = run(&["check", s(&schema), s(&bad), "--format", "json"]);
    assert_eq!(
        stdout(&o),
        "{\"valid\":false,\"errors\":[{\"path\":\"$.n\",\"pointer\":\"/n\",\"keyword\":\"type\",\"message\":\"expected integer, got string\",\"schemaLocation\":\"#/properties/n/type\"}]}\n"
    );
    let o = run_stdin(&["check", s(&schema), "-"], r#"{"n":2}"#);
    assert_eq!(stdout(&o), "valid\n");
    let o = run(&["check", s(&schema)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).ends_with("the schema compiles\n"));
}

#[test]
fn check_profiles_drafts_and_openapi() {
    let one_of = file(
        "profiles",
        "oneof.json",
        r#"{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}"#,
    );
    let o = run(&["check", s(&one_of)]);
    assert_eq!(o.status.code(), Some(2), "the core profile refuses oneOf");
    assert!(stderr(&o).contains("does not compile"), "{}", stderr(&o));
    let args = file("profiles", "args.json", r#"{"a":1,"b":2}"#);
    let o = run(&["check", s(&one_of), s(&args), "--profile", "full"]);
    assert_eq!(o.status.code(), Some(1));
    let tuple = file(
        "profiles",
        "tuple.json",
        r#"{"type":"array","items":[{"type":"string"}]}"#,
    );
    let arr = file("profiles", "arr.json", "[1]");
    assert_eq!(
        run(&[
            "check",
            s(&tuple),
            s(&arr),
            "--profile",
            "full",
            "--draft",
            "7"
        ])
        .status
        .code(),
        Some(1)
    );
    let nullable = file(
        "profiles",
        "nullable.json",
        r#"{"type":"object","properties":{"n":{"type":"integer","nullable":true}}}"#,
    );
    let null = file("profiles", "null.json", r#"{"n":null}"#);
    assert_eq!(
        run(&["check", s(&nullable), s(&null), "--openapi"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn lint_names_every_problem_and_sums_up() {
    let tools = file(
        "lint",
        "tools.json",
        &format!(
            r#"[{{"type":"function","function":{{"name":"get","description":"d","parameters":{SCHEMA}}}}}]"#
        ),
    );
    let o = run(&["lint", "--dialect", "openai-strict", s(&tools)]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "get#: an object must set \"additionalProperties\": false [additional-properties]\n\
         openai-strict: 1 tools, 0 pass, 1 with problems (1 problems); 1 pass after strict conversion\n"
    );
    let o = run(&[
        "lint",
        "--dialect",
        "anthropic-strict",
        s(&tools),
        "--format",
        "json",
    ]);
    assert!(stdout(&o).starts_with(r#"{"dialect":"anthropic-strict","tools":1,"pass":0,"pass_after_conversion":1,"problems":[{"tool":"get","pointer":"","rule":"additional-properties""#), "{}", stdout(&o));
    let o = run(&["lint", "--dialect", "gemini", s(&tools)]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn definitions_convert_between_shapes() {
    let tools = file(
        "defs",
        "mcp.json",
        &format!(r#"{{"tools":[{{"name":"get","description":"d","inputSchema":{SCHEMA}}}]}}"#),
    );
    let o = run(&["definitions", "--dialect", "anthropic", s(&tools)]);
    assert_eq!(
        stdout(&o),
        format!("[{{\"name\":\"get\",\"description\":\"d\",\"input_schema\":{SCHEMA}}}]\n")
    );
    let o = run(&[
        "definitions",
        "--dialect",
        "gemini",
        s(&tools),
        "--format",
        "json",
    ]);
    let text = stdout(&o);
    let defs = format!("{{\"functionDeclarations\":[{{\"name\":\"get\",\"description\":\"d\",\"parametersJsonSchema\":{SCHEMA}}}]}}");
    assert_eq!(
        text,
        format!(
            "{{\"fingerprint\":\"{}\",\"definitions\":{defs}}}\n",
            toolgate_dialect::fingerprint(defs.as_bytes())
        )
    );
    // --strict is refused while a tool fails the strict lint.
    let o = run(&[
        "definitions",
        "--dialect",
        "openai-chat",
        "--strict",
        s(&tools),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[additional-properties]"));
}

/// What a provider would refuse (here Gemini, a name that starts with a digit) is
/// printed on standard error, nothing on standard output, exit status 1, unless
/// --allow-lint-problems; dotted names are rewritten.
#[test]
fn definitions_refuse_what_the_provider_would() {
    let tools = file(
        "defs-refuse",
        "tools.json",
        r#"[{"name":"1db.find","description":"d","parameters":{"type":"object","properties":{"q":{"type":["string","null"]}}}}]"#,
    );
    let o = run(&["definitions", "--dialect", "gemini", s(&tools)]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "toolgate: definitions for gemini refused:\n1db.find#: tool name \"1db_find\" must start with a letter or an underscore, then letters, digits, _ . : or -, at most 64 characters [tool-name]\n"
    );
    let o = run(&[
        "definitions",
        "--dialect",
        "gemini",
        "--allow-lint-problems",
        s(&tools),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("[tool-name]"), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(r#"{"functionDeclarations":[{"name":"1db_find","#),
        "{}",
        stdout(&o)
    );
    let o = run(&["definitions", "--dialect", "anthropic", s(&tools)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(r#"[{"name":"1db_find","#),
        "{}",
        stdout(&o)
    );
    let o = run(&["definitions", "--dialect", "mcp", s(&tools)]);
    assert!(
        stdout(&o).starts_with(r#"[{"name":"1db.find","#),
        "{}",
        stdout(&o)
    );
}

#[test]
fn convert_prints_the_strict_schema_or_every_reason() {
    let schema = file(
        "convert",
        "schema.json",
        r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}"#,
    );
    let o = run(&["convert", "--dialect", "openai-strict", s(&schema)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":[\"integer\",\"null\"]}},\"required\":[\"a\",\"b\"],\"additionalProperties\":false}\n"
    );
    assert_eq!(
        stderr(&o),
        "toolgate: #/properties/b: optional, now required and nullable (the tool receives null when the model leaves it out)\n\
         toolgate: #: closed with \"additionalProperties\": false\n"
    );
    let o = run(&[
        "convert",
        "--dialect",
        "anthropic-strict",
        s(&schema),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "{\"schema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}},\"required\":[\"a\"],\"additionalProperties\":false},\"nullable\":[],\"closed\":[\"\"]}\n"
    );
    let o = run_stdin(
        &["convert", "--dialect", "openai-strict", "-"],
        r#"{"type":"object","properties":{"a":{"type":"string","minLength":1}},"required":["a"]}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "toolgate: -: openai-strict cannot take the schema, even converted:\n#/properties/a/minLength: keyword \"minLength\" is not supported by openai-strict [unsupported-keyword]\n"
    );
    let o = run(&["convert", "--dialect", "anthropic", s(&schema)]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn help_per_subcommand() {
    for (cmd, first) in [
        ("check", "usage: toolgate check"),
        ("lint", "usage: toolgate lint"),
        ("definitions", "usage: toolgate definitions"),
        ("convert", "usage: toolgate convert"),
    ] {
        let o = run(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).starts_with(first), "{cmd}");
    }
    assert!(stdout(&run(&["--help"])).starts_with("usage: toolgate <command>"));
}

#[test]
fn clear_errors() {
    let cases: [(&[&str], &str); 6] = [
        (&["check", "/nonexistent/schema.json"], "toolgate: /nonexistent/schema.json: No such file or directory"),
        (&["lint", "--dialect", "openai", "x.json"], "toolgate: unknown lint target \"openai\" (known: openai-strict, anthropic-strict, gemini)"),
        (&["definitions", "--dialect", "claude", "x.json"], "toolgate: unknown dialect \"claude\" (known: openai-chat, openai-responses, anthropic, mcp, gemini)"),
        (&["frobnicate"], "toolgate: unknown command \"frobnicate\""),
        (&["lint", "x.json"], "toolgate: lint needs --dialect"),
        (&["check", "--colour"], "toolgate: unknown option \"--colour\" (see --help)"),
    ];
    for (args, start) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with(start), "{args:?}: {}", stderr(&o));
    }
    let bad = file("errors", "bad.json", "{\"type\":");
    let o = run(&["lint", "--dialect", "gemini", s(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.json: not valid JSON: "),
        "{}",
        stderr(&o)
    );
}

fn testdata() -> Option<PathBuf> {
    test_data::testdata_or_skip(
        "lint of the real-world tools",
        "realworld-tools/tools.jsonl",
    )
}

#[test]
fn realworld_tools_summary() {
    let Some(path) = testdata() else { return };
    let expected = [
        ("openai-strict", "openai-strict: 334 tools, 44 pass, 290 with problems (916 problems); 302 pass after strict conversion"),
        ("anthropic-strict", "anthropic-strict: 334 tools, 45 pass, 289 with problems (488 problems); 243 pass after strict conversion"),
        ("gemini", "gemini: 334 tools, 259 pass, 75 with problems (198 problems); 261 pass after strict conversion"),
    ];
    for (target, summary) in expected {
        let o = run(&["lint", "--dialect", target, s(&path)]);
        assert_eq!(o.status.code(), Some(1), "{target}");
        let out = stdout(&o);
        assert_eq!(out.lines().last(), Some(summary), "{target}");
        assert_eq!(
            out.lines().count(),
            summary
                .split('(')
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()
                + 1
        );
    }
    let o = run(&["definitions", "--dialect", "mcp", s(&path)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("[{\"name\":"));
}
