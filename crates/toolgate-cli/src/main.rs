//! `toolgate`: check arguments against a schema, lint a tool list against a provider's
//! strict mode, and convert a tool list between providers' shapes. For a person at a
//! terminal and for CI (exit status 0 clean, 1 invalid or problems found, 2 the command
//! itself could not run: usage, a missing file, bad JSON).

use std::io::{Read as _, Write as _};
use std::process::ExitCode;

use toolgate_core::{Draft, Options, Profile, Schema, SchemaDialect, ValidationError};
use toolgate_dialect::{
    admit_definitions, dotted_spelling, fingerprint, lint_as_sent, provider_name, read_tools,
    render, strict_parameters, strict_refusal, strict_schema, Dialect, LintProblem, Target,
};

const USAGE: &str = "\
usage: toolgate <command> [options]

commands:
  check SCHEMA.json [ARGS.json | -]   compile a schema; validate arguments against it
  lint --dialect TARGET TOOLS.json    every problem a provider's strict mode would refuse
  definitions --dialect DIALECT TOOLS.json
                                      a tool list in a provider's shape
  convert --dialect TARGET SCHEMA.json
                                      a parameters schema in the form a provider's
                                      strict mode accepts

`toolgate <command> --help` describes each command.
";

const CHECK_HELP: &str = "\
usage: toolgate check SCHEMA.json [ARGS.json | -] [options]

Compiles the schema; with ARGS.json (or - for standard input), validates those
arguments against it and prints the verdict and one line per error. Empty arguments
mean {}, as in a tool call.

options:
  --profile core|full       which keywords a schema may use (default core)
  --draft 2020-12|7         the draft of a schema without $schema (full profile)
  --openapi                 the schema is an OpenAPI 3.0 schema object
  --format text|json        output form (default text)

exit status: 0 valid (or the schema compiles), 1 invalid, 2 the schema does not
compile or a file cannot be read.
";

const LINT_HELP: &str = "\
usage: toolgate lint --dialect TARGET TOOLS.json [options]

Lints every tool of TOOLS.json against TARGET and prints each problem as
TOOL#POINTER: MESSAGE [RULE], then a summary with how many tools pass unchanged and
how many pass after strict conversion. TOOLS.json holds a tool list in any provider's
shape, a single parameters schema, or JSON Lines of those (or of
{\"tool\": NAME, \"schema\": SCHEMA}).

targets: openai-strict, anthropic-strict, gemini

options:
  --format text|json        output form (default text)

exit status: 0 no problem, 1 problems found, 2 usage or input errors.
";

const DEFINITIONS_HELP: &str = "\
usage: toolgate definitions --dialect DIALECT TOOLS.json [options]

Prints the tools of TOOLS.json (any provider's shape, see `toolgate lint --help`) in
DIALECT's shape, sorted by name, byte-stable.

Nothing the provider would refuse is written: a dotted name (db.get_user) is written
with each . as _ (db_get_user) for OpenAI, Anthropic and Gemini, and anything else the
provider's rules find (a name no rewrite fixes, two tools under one spelling, a keyword
outside Gemini's subset, with --strict the whole strict lint) is printed on standard
error as TOOL#POINTER: MESSAGE [RULE], and nothing is written on standard output.

dialects: openai-chat, openai-responses, anthropic, mcp, gemini

options:
  --strict                  mark every tool strict (OpenAI, Anthropic); refused unless
                            every tool passes that provider's strict lint
  --allow-lint-problems     write the definitions even so (the problems still go to
                            standard error), exit status 0
  --format text|json        text: the definitions; json: {\"fingerprint\", \"definitions\"}

exit status: 0 written, 1 the provider would refuse them (nothing written), 2 usage or
input errors.
";

const CONVERT_HELP: &str = "\
usage: toolgate convert --dialect TARGET SCHEMA.json [options]

Prints the parameters schema of SCHEMA.json (or - for standard input) converted to the
form TARGET accepts, meaning the same except for what the conversion states, which is
printed on standard error: optional properties made required and nullable (the tool
receives null for them; OpenAI strict), objects closed with
\"additionalProperties\": false. Nothing that asserts is dropped: when no strict form
exists, every reason is printed on standard error as #POINTER: MESSAGE [RULE].

targets: openai-strict, anthropic-strict, gemini

options:
  --format text|json        text: the schema; json: {\"schema\", \"nullable\", \"closed\"}

exit status: 0 converted, 1 no strict form exists, 2 usage or input errors.
";

/// A failure of the command itself: the message, exit status 2.
struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("lint") => lint(&args[1..]),
        Some("definitions") => definitions(&args[1..]),
        Some("convert") => convert(&args[1..]),
        Some("--help" | "-h" | "help") => {
            print!("{USAGE}");
            Ok(0)
        }
        Some("--version" | "-V") => {
            println!("toolgate {}", toolgate_core::VERSION);
            Ok(0)
        }
        Some(other) => Err(Usage(format!("unknown command \"{other}\"\n\n{USAGE}"))),
        None => Err(Usage(USAGE.to_owned())),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(Usage(message)) => {
            let _ = writeln!(std::io::stderr(), "toolgate: {}", message.trim_end());
            ExitCode::from(2)
        }
    }
}

/// The command line of one command: its flags and its positional arguments.
struct Parsed {
    positional: Vec<String>,
    flags: Vec<(String, Option<String>)>,
}

impl Parsed {
    /// `with_value` names the flags that take a value.
    fn new(args: &[String], with_value: &[&str], without: &[&str]) -> Result<Parsed, Usage> {
        let mut parsed = Parsed {
            positional: Vec::new(),
            flags: Vec::new(),
        };
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a == "-" || !a.starts_with('-') {
                parsed.positional.push(a.clone());
            } else if let Some((flag, value)) =
                a.split_once('=').filter(|(f, _)| with_value.contains(f))
            {
                parsed.flags.push((flag.to_owned(), Some(value.to_owned())));
            } else if with_value.contains(&a.as_str()) {
                let value = args
                    .get(i + 1)
                    .ok_or_else(|| Usage(format!("{a} needs a value")))?;
                parsed.flags.push((a.clone(), Some(value.clone())));
                i += 1;
            } else if without.contains(&a.as_str()) {
                parsed.flags.push((a.clone(), None));
            } else {
                return Err(Usage(format!("unknown option \"{a}\" (see --help)")));
            }
            i += 1;
        }
        Ok(parsed)
    }

    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|(f, _)| f == flag)
    }

    fn value(&self, flag: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(f, _)| f == flag)
            .and_then(|(_, v)| v.as_deref())
    }

    fn json(&self) -> Result<bool, Usage> {
        match self.value("--format") {
            None | Some("text") => Ok(false),
            Some("json") => Ok(true),
            Some(other) => Err(Usage(format!(
                "unknown format \"{other}\" (known: text, json)"
            ))),
        }
    }
}

fn read(path: &str) -> Result<String, Usage> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Usage(format!("standard input: {e}")))?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|e| Usage(format!("{path}: {e}")))
}

fn stem(path: &str) -> String {
    std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("tool")
        .to_owned()
}

/// A JSON string literal (the command's own JSON output).
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn check(args: &[String]) -> Result<u8, Usage> {
    let p = Parsed::new(
        args,
        &["--profile", "--draft", "--format"],
        &["--openapi", "--help", "-h"],
    )?;
    if p.has("--help") || p.has("-h") {
        print!("{CHECK_HELP}");
        return Ok(0);
    }
    let json = p.json()?;
    let mut opts = Options::default();
    if let Some(profile) = p.value("--profile") {
        opts = opts.with_profile(profile.parse::<Profile>().map_err(|e| Usage(e.message))?);
    }
    if let Some(draft) = p.value("--draft") {
        opts = opts.with_default_draft(draft.parse::<Draft>().map_err(|e| Usage(e.message))?);
    }
    if p.has("--openapi") {
        opts = opts.with_schema_dialect(SchemaDialect::OpenApi3_0);
    }
    let (schema_path, args_path) = match p.positional.as_slice() {
        [s] => (s, None),
        [s, a] => (s, Some(a)),
        [] => return Err(Usage(format!("check needs a schema file\n\n{CHECK_HELP}"))),
        _ => {
            return Err(Usage(
                "check takes a schema file and at most one arguments file".into(),
            ))
        }
    };
    let schema_text = read(schema_path)?;
    let schema = Schema::compile_with(schema_text.as_bytes(), &opts)
        .map_err(|e| Usage(format!("{schema_path}: the schema does not compile:\n{e}")))?;
    let Some(args_path) = args_path else {
        if json {
            println!("{{\"compiles\":true}}");
        } else {
            println!("{schema_path}: the schema compiles");
        }
        return Ok(0);
    };
    let arguments = read(args_path)?;
    let errors = schema.validate_arguments(arguments.as_bytes());
    if json {
        println!(
            "{{\"valid\":{},\"errors\":{}}}",
            errors.is_empty(),
            ValidationError::json_array(&errors)
        );
    } else if errors.is_empty() {
        println!("valid");
    } else {
        println!("invalid\n{}", ValidationError::join_lines(&errors));
    }
    Ok(u8::from(!errors.is_empty()))
}

fn lint(args: &[String]) -> Result<u8, Usage> {
    let p = Parsed::new(args, &["--dialect", "--format"], &["--help", "-h"])?;
    if p.has("--help") || p.has("-h") {
        print!("{LINT_HELP}");
        return Ok(0);
    }
    let json = p.json()?;
    let target: Target = p
        .value("--dialect")
        .ok_or_else(|| Usage(format!("lint needs --dialect\n\n{LINT_HELP}")))?
        .parse()
        .map_err(|e: toolgate_dialect::UnknownName| Usage(e.message))?;
    let [path] = p.positional.as_slice() else {
        return Err(Usage(format!("lint takes one tools file\n\n{LINT_HELP}")));
    };
    let tools = read_tools(&read(path)?, &stem(path)).map_err(|e| Usage(format!("{path}: {e}")))?;
    let mut problems = Vec::new();
    let (mut pass, mut pass_converted) = (0usize, 0usize);
    for t in &tools {
        let found = lint_as_sent(target, &t.name, &t.parameters);
        if found.is_empty() {
            pass += 1;
            pass_converted += 1;
        } else if strict_schema(target, &dotted_spelling(&t.name), &t.parameters).is_ok() {
            pass_converted += 1;
        }
        problems.extend(found);
    }
    problems.sort();
    let failing = tools.len() - pass;
    if json {
        println!(
            "{{\"dialect\":{},\"tools\":{},\"pass\":{pass},\"pass_after_conversion\":{pass_converted},\"problems\":{}}}",
            json_string(target.name()),
            tools.len(),
            LintProblem::json_array(&problems)
        );
    } else {
        for problem in &problems {
            println!("{}", problem.line());
        }
        println!(
            "{target}: {} tools, {pass} pass, {failing} with problems ({} problems); {pass_converted} pass after strict conversion",
            tools.len(),
            problems.len()
        );
    }
    Ok(u8::from(!problems.is_empty()))
}

fn definitions(args: &[String]) -> Result<u8, Usage> {
    let p = Parsed::new(
        args,
        &["--dialect", "--format"],
        &["--strict", "--allow-lint-problems", "--help", "-h"],
    )?;
    if p.has("--help") || p.has("-h") {
        print!("{DEFINITIONS_HELP}");
        return Ok(0);
    }
    let json = p.json()?;
    let dialect: Dialect = p
        .value("--dialect")
        .ok_or_else(|| Usage(format!("definitions needs --dialect\n\n{DEFINITIONS_HELP}")))?
        .parse()
        .map_err(|e: toolgate_dialect::UnknownName| Usage(e.message))?;
    let [path] = p.positional.as_slice() else {
        return Err(Usage(format!(
            "definitions takes one tools file\n\n{DEFINITIONS_HELP}"
        )));
    };
    let tools = read_tools(&read(path)?, &stem(path)).map_err(|e| Usage(format!("{path}: {e}")))?;
    let strict = p.has("--strict");
    if strict && dialect.strict_target().is_none() {
        return Err(Usage(format!("{dialect} has no strict mode")));
    }
    let tools = match admit_definitions(dialect, &tools, strict) {
        Ok(admitted) => admitted,
        Err(refused) => {
            let _ = writeln!(std::io::stderr(), "toolgate: {refused}");
            if !p.has("--allow-lint-problems") {
                return Ok(1);
            }
            // Written as asked, in the provider's spelling where there is one.
            tools
                .iter()
                .map(|t| toolgate_dialect::ToolDefinition {
                    name: provider_name(dialect, &t.name).into_owned(),
                    ..t.clone()
                })
                .collect()
        }
    };
    let text = render(dialect, &tools, strict);
    if json {
        println!(
            "{{\"fingerprint\":{},\"definitions\":{text}}}",
            json_string(&fingerprint(text.as_bytes()))
        );
    } else {
        println!("{text}");
    }
    Ok(0)
}

fn convert(args: &[String]) -> Result<u8, Usage> {
    let p = Parsed::new(args, &["--dialect", "--format"], &["--help", "-h"])?;
    if p.has("--help") || p.has("-h") {
        print!("{CONVERT_HELP}");
        return Ok(0);
    }
    let json = p.json()?;
    let target: Target = p
        .value("--dialect")
        .ok_or_else(|| Usage(format!("convert needs --dialect\n\n{CONVERT_HELP}")))?
        .parse()
        .map_err(|e: toolgate_dialect::UnknownName| Usage(e.message))?;
    let [path] = p.positional.as_slice() else {
        return Err(Usage(format!(
            "convert takes one schema file\n\n{CONVERT_HELP}"
        )));
    };
    let schema = read(path)?;
    let converted = match strict_parameters(target, &schema) {
        Ok(converted) => converted,
        Err(problems) => {
            let _ = writeln!(
                std::io::stderr(),
                "toolgate: {path}: {}",
                strict_refusal(target, &problems)
            );
            return Ok(1);
        }
    };
    if json {
        let report = converted.report_json();
        // `{"nullable":[..],"closed":[..]}` with the schema in front.
        println!("{{\"schema\":{},{}", converted.schema, &report[1..]);
    } else {
        println!("{}", converted.schema);
        let mut err = std::io::stderr();
        for pointer in &converted.nullable {
            let _ = writeln!(
                err,
                "toolgate: #{pointer}: optional, now required and nullable (the tool receives null when the model leaves it out)"
            );
        }
        for pointer in &converted.closed {
            let _ = writeln!(
                err,
                "toolgate: #{pointer}: closed with \"additionalProperties\": false"
            );
        }
    }
    Ok(0)
}
