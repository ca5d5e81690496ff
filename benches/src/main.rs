//! `cargo run -p toolgate-bench --release [-- --rounds N --ms M]`
//!
//! Runs every contender in this one process on the same `&[u8]` inputs, interleaved:
//! each round gives every contender a fixed time slice (default 25 rounds × 40 ms).
//! A time is the median of its rounds; a ratio is the median of the rounds' own
//! ratios (see [`paired`]). Prints markdown tables of ns/op, the ratios set as
//! targets, and PASS/MISS for each target. `--write-docs` writes the same report to
//! docs/benchmarks.md; `--labels` lays the tables out without timing anything (every
//! figure a placeholder), which benches/tests/docs.rs compares with that file.
//!
//! Timing figures only: nothing here asserts a time, and no unit test does.

use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use serde_json::Value;
use toolgate_bench::*;

/// Everything the tables' report prints, kept for `--write-docs`.
static REPORT: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// `println!` into the report: standard output, and the text `--write-docs` writes.
macro_rules! out {
    () => {
        out!("")
    };
    ($($arg:tt)*) => {{
        let line = format!($($arg)*);
        println!("{line}");
        let mut report = REPORT.lock().unwrap_or_else(|e| e.into_inner());
        report.push_str(&line);
        report.push('\n');
    }};
}

/// Whether this run only lays out the tables (`--labels`): every contender is set up
/// and checked, nothing is timed, and every figure is a placeholder. The docs test runs
/// it to compare the tables' headings, columns and rows with docs/benchmarks.md.
static LABELS_ONLY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn labels_only() -> bool {
    LABELS_ONLY.load(std::sync::atomic::Ordering::Relaxed)
}

/// A part of the benchmark, chosen with `--only`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// The core profile's ratio table (validation, compile, registry, threads).
    Core,
    /// The full profile's schemas.
    Full,
    /// The cycling mix over the published tool schemas.
    Cycle,
    /// Registering 10,000 tools one by one and in one batch.
    Batch,
}

struct Config {
    rounds: usize,
    slice: Duration,
    sections: Vec<Section>,
    /// `--write-docs`: the report also goes to docs/benchmarks.md.
    write_docs: bool,
}

fn parse_args() -> Config {
    let mut cfg = Config {
        rounds: 25,
        slice: Duration::from_millis(40),
        sections: vec![Section::Core, Section::Full, Section::Cycle, Section::Batch],
        write_docs: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                cfg.rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .expect("--rounds N (N > 0)")
            }
            "--ms" => {
                cfg.slice = Duration::from_millis(
                    args.next()
                        .and_then(|v| v.parse().ok())
                        .filter(|&n: &u64| n > 0)
                        .expect("--ms M (M > 0)"),
                )
            }
            "--only" => {
                cfg.sections = args
                    .next()
                    .expect("--only core,full,cycle")
                    .split(',')
                    .map(|p| match p {
                        "core" => Section::Core,
                        "full" => Section::Full,
                        "cycle" => Section::Cycle,
                        "batch" => Section::Batch,
                        other => {
                            panic!("--only: unknown section {other:?} (core, full, cycle, batch)")
                        }
                    })
                    .collect()
            }
            "--write-docs" => cfg.write_docs = true,
            "--labels" => {
                LABELS_ONLY.store(true, std::sync::atomic::Ordering::Relaxed);
                cfg.rounds = 1;
            }
            "--quick" => {
                cfg.rounds = 3;
                cfg.slice = Duration::from_millis(50);
            }
            "-h" | "--help" => {
                println!(
                    "usage: toolgate-bench [--rounds N] [--ms M] [--quick] [--only core,full,cycle] [--write-docs] [--labels]\n\
                     Runs each contender N rounds (default 25) of M ms (default 40), interleaved,\n\
                     and prints ns/op (median of rounds), ratios (median of the rounds' ratios)\n\
                     and PASS/MISS per target. --only runs some sections: core (the core\n\
                     profile's table), full (the full profile's schemas), cycle (the cycling mix\n\
                     over realworld-tools), batch (registering 10,000 tools one by one and in\n\
                     one batch); all four by default. --write-docs also writes the report to\n\
                     docs/benchmarks.md (a full run, every section, only). --labels times nothing\n\
                     and prints the tables with placeholder figures (what the docs test compares)."
                );
                std::process::exit(0);
            }
            // `cargo bench` passes --bench to every target; ignore what we do not know.
            _ => {}
        }
    }
    cfg
}

/// One contender: a closure that does one operation.
struct Entry<'a> {
    key: String,
    f: Box<dyn FnMut() -> usize + 'a>,
    batch: u64,
    samples: Vec<f64>,
}

impl<'a> Entry<'a> {
    fn new(key: impl Into<String>, f: impl FnMut() -> usize + 'a) -> Self {
        Entry {
            key: key.into(),
            f: Box::new(f),
            batch: 1,
            samples: Vec::new(),
        }
    }

    /// Finds a batch size of about 50 µs so the clock is read rarely.
    fn calibrate(&mut self) {
        let mut batch = 1u64;
        loop {
            let t = Instant::now();
            for _ in 0..batch {
                black_box((self.f)());
            }
            let e = t.elapsed();
            if e >= Duration::from_micros(50) || batch >= 1 << 24 {
                self.batch = batch;
                return;
            }
            batch *= 2;
        }
    }

    /// Runs batches for `slice` and records ns per operation.
    fn round(&mut self, slice: Duration) {
        let mut iters = 0u64;
        let t = Instant::now();
        loop {
            for _ in 0..self.batch {
                black_box((self.f)());
            }
            iters += self.batch;
            if t.elapsed() >= slice {
                break;
            }
        }
        let ns = t.elapsed().as_nanos() as f64 / iters as f64;
        self.samples.push(ns);
    }

    fn median(&self) -> f64 {
        median(&self.samples)
    }

    /// (max - min) / median over the rounds: how steady the figure was.
    fn spread(&self) -> f64 {
        let lo = self.samples.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = self.samples.iter().cloned().fold(0.0, f64::max);
        (hi - lo) / self.median()
    }
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = s.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

fn run_interleaved(entries: &mut [Entry<'_>], cfg: &Config) {
    if labels_only() {
        for e in entries.iter_mut() {
            e.samples = vec![1.0; cfg.rounds];
        }
        return;
    }
    for e in entries.iter_mut() {
        e.calibrate();
    }
    for r in 0..cfg.rounds {
        eprint!("  round {}/{}\r", r + 1, cfg.rounds);
        for e in entries.iter_mut() {
            e.round(cfg.slice);
        }
    }
    eprintln!();
}

fn entry<'e, 'a>(entries: &'e [Entry<'a>], key: &str) -> &'e Entry<'a> {
    entries
        .iter()
        .find(|e| e.key == key)
        .unwrap_or_else(|| panic!("no entry {key}"))
}

fn get(entries: &[Entry<'_>], key: &str) -> f64 {
    entry(entries, key).median()
}

/// `num ÷ den` as the median of the rounds' own ratios. Each round times the two
/// moments apart, so a drift of the whole machine's speed (up to 2x within a minute
/// on a shared VM) cancels out of every round's ratio, which a ratio of the two
/// medians, taken from different rounds, does not do.
fn paired(entries: &[Entry<'_>], num: &str, den: &str) -> f64 {
    let (n, d) = (entry(entries, num), entry(entries, den));
    let ratios: Vec<f64> = n
        .samples
        .iter()
        .zip(&d.samples)
        .map(|(a, b)| a / b)
        .collect();
    median(&ratios)
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 10_000.0 {
        format!("{:.1} µs", ns / 1000.0)
    } else if ns >= 100.0 {
        format!("{ns:.0}")
    } else {
        format!("{ns:.1}")
    }
}

struct Target {
    what: String,
    measured: f64,
    rule: String,
    pass: bool,
}

fn at_least(what: impl Into<String>, measured: f64, min: f64) -> Target {
    Target {
        what: what.into(),
        measured,
        rule: format!("≥ {min}x"),
        pass: measured >= min,
    }
}

fn at_most(what: impl Into<String>, measured: f64, max: f64) -> Target {
    Target {
        what: what.into(),
        measured,
        rule: format!("≤ {max}x"),
        pass: measured <= max,
    }
}

fn machine_line() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown cpu".to_string());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let rustc = std::process::Command::new("rustc")
        .arg("-V")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "rustc ?".to_string());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    format!("{cpu}, {cores} cores, {rustc}, load average at start {load}")
}

/// The checked-out commit (`git describe --always --dirty`), or `unknown`.
fn commit() -> String {
    std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Throughput of `threads` threads each running `op` `per_thread` times, in
/// operations per second (wall time from a common start to the last thread's end).
fn thread_throughput(threads: usize, per_thread: u64, op: &(dyn Fn() -> bool + Sync)) -> f64 {
    if labels_only() {
        return 1.0;
    }
    let barrier = Barrier::new(threads + 1);
    let (start, end) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                s.spawn(move || {
                    barrier.wait();
                    let mut ok = 0u64;
                    for _ in 0..per_thread {
                        ok += black_box(op()) as u64;
                    }
                    assert_eq!(ok, per_thread, "every threaded operation must succeed");
                })
            })
            .collect();
        barrier.wait();
        let start = Instant::now();
        for h in handles {
            h.join().expect("bench thread");
        }
        (start, Instant::now())
    });
    (threads as u64 * per_thread) as f64 / (end - start).as_secs_f64()
}

fn main() {
    let cfg = parse_args();
    out!("# toolgate benchmark\n");
    out!(
        "`cargo run -p toolgate-bench --release` — {} rounds × {} ms per contender, interleaved; \
         figures are the median of rounds, in ns per operation (lower is better).\n",
        cfg.rounds,
        cfg.slice.as_millis()
    );
    out!("Machine: {}\n", machine_line());
    out!("Commit: {}\n", commit());

    if cfg.sections.contains(&Section::Core) {
        let mut targets = ratio_table(&cfg);
        answers(&cfg, &mut targets);
        print_targets("Targets of the core profile", &targets);
    }
    let mut targets = Vec::new();
    if cfg.sections.contains(&Section::Full) {
        full_profile(&cfg, &mut targets);
    }
    if cfg.sections.contains(&Section::Cycle) {
        cycling(&cfg, &mut targets);
    }
    if cfg.sections.contains(&Section::Batch) {
        batch_registration(&cfg);
    }
    if !targets.is_empty() {
        print_targets("Targets: the full profile and the cycling mix", &targets);
    }
    if cfg.write_docs {
        write_docs(&cfg);
    }
}

/// Writes the report to docs/benchmarks.md, under a note that says where it comes from.
/// Only a full run (every section, real timings) may: the docs test compares that
/// file's tables with every section's.
fn write_docs(cfg: &Config) {
    assert!(
        !labels_only() && cfg.sections.len() == 4,
        "--write-docs needs a full run: every section, timed (no --only, no --labels)"
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let report = REPORT.lock().unwrap_or_else(|e| e.into_inner());
    let text = format!(
        "<!-- Written by `cargo run -p toolgate-bench --release -- --write-docs`; do not edit.\n     \
         benches/tests/docs.rs checks that its tables' headings, columns and rows are the ones\n     \
         the benchmark prints (the figures are this run's). -->\n\n{report}"
    );
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!("wrote {}", path.display());
}

/// Registering 10,000 tools (the registry table's tools) one by one, each a copy of the
/// registry's snapshot, against one batch, one copy. Interleaved rounds; the tools'
/// specs are built outside the timed part, the registry's drop too.
fn batch_registration(cfg: &Config) {
    const TOOLS: usize = 10_000;
    // A round of each takes about a second one by one: a few rounds are enough.
    let rounds = cfg.rounds.clamp(1, 5);
    eprintln!("batch registration: {rounds} rounds of {TOOLS} tools, one by one and in one batch");
    let (mut single, mut batch, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    if labels_only() {
        (single, batch, ratios) = (vec![1.0], vec![1.0], vec![1.0]);
    }
    for _ in 0..if labels_only() { 0 } else { rounds } {
        let specs = bench_batch(TOOLS);
        let reg = toolgate_core::Registry::new(toolgate_core::NamePolicy::Default);
        let t = Instant::now();
        for (spec, handler) in specs {
            reg.register(spec, handler, false).expect("register");
        }
        let one_by_one = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(reg.len(), TOOLS);
        drop(reg);

        let specs = bench_batch(TOOLS);
        let reg = toolgate_core::Registry::new(toolgate_core::NamePolicy::Default);
        let t = Instant::now();
        reg.register_batch(specs, false).expect("register_batch");
        let at_once = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(reg.len(), TOOLS);
        drop(reg);
        single.push(one_by_one);
        batch.push(at_once);
        ratios.push(one_by_one / at_once);
    }
    out!("## Registering {TOOLS} tools\n");
    out!("The registry table's tools (two realistic schemas and fillers of the weather schema), each schema compiled; median of {rounds} interleaved rounds.\n");
    out!("| one by one (`register`) | one batch (`register_batch`) | one by one ÷ batch |");
    out!("|---:|---:|---:|");
    out!(
        "| {:.1} ms | {:.1} ms | {:.1}x |\n",
        median(&single),
        median(&batch),
        median(&ratios)
    );
    // A time, not a ratio, so it is not in the ratio targets' table.
    let at_once = median(&batch);
    out!(
        "Target: {TOOLS} tools in one batch under 50 ms: {:.1} ms, {}\n",
        at_once,
        if at_once < 50.0 { "PASS" } else { "**MISS**" }
    );
}

/// A tool whose handler answers `answer`, written into the caller's buffer (so the
/// handler itself allocates nothing and times nothing but the registry's work).
struct Answers(&'static str);

impl toolgate_core::Handler for Answers {
    fn call(&self, _: &[u8], _: &toolgate_core::CallContext) -> Result<String, String> {
        Ok(self.0.to_owned())
    }
    fn call_into(
        &self,
        _: &[u8],
        _: &toolgate_core::CallContext,
        out: &mut String,
    ) -> toolgate_core::Written {
        out.push_str(self.0);
        toolgate_core::Written::Answer
    }
}

/// What checking a tool's answer against its output schema costs: beside checking
/// arguments of the same bytes against the same schema, and in a call (the same
/// handler and answer, with and without an output schema). Each valid call of the
/// table's tools serves as both: its schema is the parameters of one tool and the
/// output schema of another, whose handler answers with the call's bytes.
fn answers(cfg: &Config, targets: &mut Vec<Target>) {
    use toolgate_core::{CallContext, CallResult, Registry, ToolSpec};
    let valid: Vec<&Case> = cases().iter().filter(|c| c.valid).collect();
    let registry = Registry::default();
    for (i, case) in valid.iter().enumerate() {
        let spec = |name: String, parameters: Option<&str>, output: Option<&str>| ToolSpec {
            name,
            parameters: parameters.map(|p| p.as_bytes().to_vec()),
            output_schema: output.map(|o| o.as_bytes().to_vec()),
            ..ToolSpec::default()
        };
        let answer = Box::new(Answers(case.instance));
        registry
            .register(
                spec(format!("args{i}"), Some(case.schema), None),
                answer,
                false,
            )
            .expect("arguments tool");
        let answer = Box::new(Answers(case.instance));
        registry
            .register(
                spec(format!("checked{i}"), None, Some(case.schema)),
                answer,
                false,
            )
            .expect("checked tool");
        let answer = Box::new(Answers(case.instance));
        registry
            .register(spec(format!("free{i}"), None, None), answer, false)
            .expect("unchecked tool");
        // What is timed is what it seems: both checks pass, the checked call is structured.
        assert_eq!(
            registry.validate(&format!("args{i}"), case.instance.as_bytes()),
            Some(vec![])
        );
        assert_eq!(
            registry.validate_result(&format!("checked{i}"), case.instance.as_bytes()),
            Some(vec![])
        );
        let checked = registry.call("c", &format!("checked{i}"), b"{}");
        assert!(
            checked.structured && checked.content == case.instance,
            "{checked:?}"
        );
    }
    let registry = &registry;
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (i, case) in valid.iter().enumerate() {
        let input = case.instance.as_bytes();
        let n = case.name;
        let (args, checked, free) = (
            format!("args{i}"),
            format!("checked{i}"),
            format!("free{i}"),
        );
        let args_tool = args.clone();
        entries.push(Entry::new(format!("{n}|arguments"), move || {
            registry
                .validate(&args_tool, black_box(input))
                .map_or(9, |e| e.len())
        }));
        let checked_tool = checked.clone();
        entries.push(Entry::new(format!("{n}|answer"), move || {
            registry
                .validate_result(&checked_tool, black_box(input))
                .map_or(9, |e| e.len())
        }));
        let mut reused = CallResult::default();
        entries.push(Entry::new(format!("{n}|call_free"), move || {
            registry.call_into(
                "c",
                &free,
                black_box(b"{}"),
                &CallContext::NONE,
                &mut reused,
            );
            reused.content.len()
        }));
        let mut reused = CallResult::default();
        entries.push(Entry::new(format!("{n}|call_checked"), move || {
            registry.call_into(
                "c",
                &checked,
                black_box(b"{}"),
                &CallContext::NONE,
                &mut reused,
            );
            reused.content.len()
        }));
    }
    eprintln!("answers: {} contenders", entries.len());
    run_interleaved(&mut entries, cfg);

    out!(
        "## Checking a tool's answer against its output schema
"
    );
    out!("Each valid call's bytes checked as arguments (`Registry::validate`, the schema as parameters) and as a tool's answer (`Registry::validate_result`, the same schema as its output schema); then `call_into` of a tool answering those bytes, without and with that output schema (a reused result, a handler that writes into it).
");
    out!("| input | bytes | arguments (`validate`) | answer (`validate_result`) | answer ÷ arguments | call, no output schema | call, answer checked | checked ÷ unchecked |");
    out!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for case in &valid {
        let n = case.name;
        let g = |k: &str| fmt_ns(get(&entries, &format!("{n}|{k}")));
        let r = |a: &str, b: &str| paired(&entries, &format!("{n}|{a}"), &format!("{n}|{b}"));
        let answer_ratio = r("answer", "arguments");
        out!(
            "| {n} | {} | {} | {} | {answer_ratio:.2}x | {} | {} | {:.2}x |",
            case.instance.len(),
            g("arguments"),
            g("answer"),
            g("call_free"),
            g("call_checked"),
            r("call_checked", "call_free"),
        );
        targets.push(at_most(
            format!("{n}: checking an answer ÷ checking arguments of the same bytes"),
            answer_ratio,
            1.25,
        ));
    }
    out!();
}

/// The ratio table of the core profile: validation, compile, registry, threads.
fn ratio_table(cfg: &Config) -> Vec<Target> {
    let slices = cfg.rounds as u32;

    eprintln!("checking that every contender agrees on every input…");
    let report = sanity_report();
    out!("Errors each contender reports on the invalid inputs (checked before timing):\n");
    out!("```text\n{}```\n", report);

    let mut targets: Vec<Target> = Vec::new();

    // ---------------------------------------------------------------- validation
    let compiled: Vec<(Case, Compiled)> = cases()
        .iter()
        .map(|c| (*c, Compiled::new(c.schema)))
        .collect();
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (case, c) in &compiled {
        let input = case.instance.as_bytes();
        let n = case.name;
        entries.push(Entry::new(format!("{n}|floor"), move || {
            floor_parse(black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{n}|tg_is_valid"), move || {
            toolgate_is_valid(&c.toolgate, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{n}|tg_validate_json"), move || {
            toolgate_validate_json(&c.toolgate, black_box(input))
        }));
        entries.push(Entry::new(format!("{n}|js_is_valid"), move || {
            jsonschema_is_valid(&c.jsonschema, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{n}|js_errors"), move || {
            jsonschema_errors(&c.jsonschema, black_box(input)).len()
        }));
        entries.push(Entry::new(format!("{n}|boon_is_valid"), move || {
            boon_is_valid(&c.boon, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{n}|boon_errors"), move || {
            boon_errors(&c.boon, black_box(input)).len()
        }));
    }
    eprintln!(
        "validation: {} contenders × {} rounds × {} ms",
        entries.len(),
        cfg.rounds,
        cfg.slice.as_millis()
    );
    run_interleaved(&mut entries, cfg);

    out!("## Validation, ns/op\n");
    out!("All contenders take the same bytes. Peers parse with `serde_json::from_slice::<Value>` first; \"floor\" is `serde_json::from_slice::<IgnoredAny>` alone.\n");
    out!("| input | bytes | floor (parse only) | toolgate `is_valid` | toolgate `validate_json` | jsonschema parse+`is_valid` | jsonschema parse+`iter_errors`→strings | boon parse+`validate` | boon parse+errors→strings |");
    out!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (case, _) in &compiled {
        let n = case.name;
        let g = |k: &str| fmt_ns(get(&entries, &format!("{n}|{k}")));
        out!(
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} |",
            case.instance.len(),
            g("floor"),
            g("tg_is_valid"),
            g("tg_validate_json"),
            g("js_is_valid"),
            g("js_errors"),
            g("boon_is_valid"),
            g("boon_errors"),
        );
    }
    out!();
    out!("### Ratios (how many times toolgate is faster; for \"/ floor\", toolgate's cost in units of the parse floor)\n");
    out!("| input | jsonschema `is_valid` ÷ toolgate `is_valid` | boon ÷ toolgate `is_valid` | toolgate `is_valid` ÷ floor | jsonschema `iter_errors` ÷ toolgate `validate_json` | boon errors ÷ toolgate `validate_json` | toolgate `validate_json` ÷ floor |");
    out!("|---|---:|---:|---:|---:|---:|---:|");
    for (case, _) in &compiled {
        let n = case.name;
        let r = |a: &str, b: &str| paired(&entries, &format!("{n}|{a}"), &format!("{n}|{b}"));
        let r_js_iv = r("js_is_valid", "tg_is_valid");
        let r_boon_iv = r("boon_is_valid", "tg_is_valid");
        let r_floor = r("tg_is_valid", "floor");
        let r_js_err = r("js_errors", "tg_validate_json");
        let r_boon_err = r("boon_errors", "tg_validate_json");
        let r_vj_floor = r("tg_validate_json", "floor");
        out!(
            "| {n} | {r_js_iv:.2}x | {r_boon_iv:.2}x | {r_floor:.2}x | {r_js_err:.2}x | {r_boon_err:.2}x | {r_vj_floor:.2}x |"
        );
        if case.valid {
            targets.push(at_least(
                format!("{n}: jsonschema parse+is_valid ÷ toolgate is_valid"),
                r_js_iv,
                4.0,
            ));
            targets.push(at_most(
                format!("{n}: toolgate is_valid ÷ parse floor"),
                r_floor,
                1.25,
            ));
        } else {
            targets.push(at_least(
                format!("{n}: jsonschema parse+iter_errors ÷ toolgate validate_json"),
                r_js_err,
                3.0,
            ));
        }
    }
    let worst = entries
        .iter()
        .map(|e| (e.spread(), e.key.as_str()))
        .fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a });
    out!(
        "\nLargest spread between rounds: {:.0}% ({}).\n",
        worst.0 * 100.0,
        worst.1.replace('|', " / ")
    );
    drop(entries);

    // ---------------------------------------------------------------- compile
    let compile_inputs: [(&str, &[u8]); 2] = [
        ("search_flights", toolgate_bench::flight().schema.as_bytes()),
        (
            "create_calendar_event",
            toolgate_bench::event().schema.as_bytes(),
        ),
    ];
    let values: Vec<Value> = compile_inputs
        .iter()
        .map(|(_, b)| serde_json::from_slice(b).expect("schema is JSON"))
        .collect();
    let mut entries = Vec::new();
    for ((name, bytes), value) in compile_inputs.iter().zip(&values) {
        let bytes: &[u8] = bytes;
        entries.push(Entry::new(format!("{name}|tg"), move || {
            toolgate_compile(black_box(bytes)).is_ok() as usize
        }));
        entries.push(Entry::new(format!("{name}|js_value"), move || {
            black_box(jsonschema_compile_value(black_box(value)));
            1
        }));
        entries.push(Entry::new(format!("{name}|js_bytes"), move || {
            black_box(jsonschema_compile_bytes(black_box(bytes)));
            1
        }));
        entries.push(Entry::new(format!("{name}|boon_value"), move || {
            black_box(boon_compile(black_box(value).clone()));
            1
        }));
        entries.push(Entry::new(format!("{name}|boon_bytes"), move || {
            black_box(boon_compile_bytes(black_box(bytes)));
            1
        }));
    }
    eprintln!("compile: {} contenders", entries.len());
    run_interleaved(&mut entries, cfg);
    out!("## Compile, ns/op (÷ toolgate)\n");
    out!("| schema | bytes | toolgate `Schema::compile` (bytes) | jsonschema `validator_for` (parsed `Value`) | jsonschema parse + `validator_for` | boon compile (clone of parsed `Value`) | boon parse + compile |");
    out!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, bytes) in compile_inputs {
        let g = |k: &str| get(&entries, &format!("{name}|{k}"));
        let tg = g("tg");
        let r = |k: &str| paired(&entries, &format!("{name}|{k}"), &format!("{name}|tg"));
        let cell = |k: &str| format!("{} ({:.2}x)", fmt_ns(g(k)), r(k));
        out!(
            "| {name} | {} | {} | {} | {} | {} | {} |",
            bytes.len(),
            fmt_ns(tg),
            cell("js_value"),
            cell("js_bytes"),
            cell("boon_value"),
            cell("boon_bytes"),
        );
        targets.push(at_least(
            format!("compile {name}: jsonschema validator_for (from Value) ÷ toolgate compile (from bytes)"),
            r("js_value"),
            3.0,
        ));
    }
    out!();
    drop(entries);

    // ---------------------------------------------------------------- registry
    eprintln!("registry: building registries of 10 and 10,000 tools…");
    let reg10 = registry_with(10);
    let reg10k = registry_with(10_000);
    let (bare10, bare10k) = (BareDispatch::with(10), BareDispatch::with(10_000));
    let weather = Compiled::new(toolgate_bench::weather().schema);
    let flights = Compiled::new(toolgate_bench::flight().schema);
    let reg_inputs: [(&str, &str, &[u8], &toolgate_core::Schema); 2] = [
        (
            "get_weather valid",
            "get_weather",
            toolgate_bench::weather().valid.as_bytes(),
            &weather.toolgate,
        ),
        (
            "search_flights valid",
            "search_flights",
            toolgate_bench::flight().valid.as_bytes(),
            &flights.toolgate,
        ),
    ];
    for (label, tool, input, _) in reg_inputs {
        for reg in [&reg10, &reg10k] {
            let r = reg.call("sanity", tool, input);
            assert!(
                !r.is_error && r.content == HANDLER_ANSWER,
                "{label}: registry call failed: {}",
                r.content
            );
        }
        for bare in [&bare10, &bare10k] {
            let mut r = toolgate_core::CallResult::default();
            assert!(
                bare.call_into(tool, input, &mut r) && r.content == HANDLER_ANSWER,
                "{label}: bare dispatch failed: {}",
                r.content
            );
        }
    }
    let mut entries = Vec::new();
    for (label, tool, input, schema) in reg_inputs {
        let (r10, r10k) = (&reg10, &reg10k);
        entries.push(Entry::new(format!("{label}|is_valid"), move || {
            toolgate_is_valid(schema, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{label}|call10"), move || {
            registry_call(r10, tool, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{label}|call10k"), move || {
            registry_call(r10k, tool, black_box(input)) as usize
        }));
        let mut reused10 = toolgate_core::CallResult::default();
        entries.push(Entry::new(format!("{label}|into10"), move || {
            registry_call_into(r10, tool, black_box(input), &mut reused10) as usize
        }));
        let mut reused10k = toolgate_core::CallResult::default();
        entries.push(Entry::new(format!("{label}|into10k"), move || {
            registry_call_into(r10k, tool, black_box(input), &mut reused10k) as usize
        }));
        let (b10, b10k) = (&bare10, &bare10k);
        let mut bare_reused10 = toolgate_core::CallResult::default();
        entries.push(Entry::new(format!("{label}|bare10"), move || {
            b10.call_into(tool, black_box(input), &mut bare_reused10) as usize
        }));
        let mut bare_reused10k = toolgate_core::CallResult::default();
        entries.push(Entry::new(format!("{label}|bare10k"), move || {
            b10k.call_into(tool, black_box(input), &mut bare_reused10k) as usize
        }));
    }
    eprintln!("registry: {} contenders", entries.len());
    run_interleaved(&mut entries, cfg);
    out!("## Registry `call` (lookup, validate, handler returning a fixed string, result)\n");
    out!("`call` returns a new `CallResult`; `call_into` refills one the caller reuses (the handler writes its answer into the result's buffer). \"Bare\" is the least any dispatcher does for the same call: a `HashMap` lookup, `is_valid`, the handler and the copies into a reused result, with no synchronization, no panic catch and no error texts (`BareDispatch` in benches/src/lib.rs).\n");
    out!("| input | `is_valid` alone | `call`, 10 tools | `call`, 10,000 tools | `call_into`, 10 tools | `call_into`, 10,000 tools | bare, 10 tools | bare, 10,000 tools | call ÷ is_valid (10 / 10k) | call_into ÷ is_valid (10 / 10k) | bare ÷ is_valid (10 / 10k) | call_into ÷ bare (10 / 10k) | 10k ÷ 10 (call / call_into) |");
    out!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (label, _, _, _) in reg_inputs {
        let g = |k: &str| get(&entries, &format!("{label}|{k}"));
        let r =
            |a: &str, b: &str| paired(&entries, &format!("{label}|{a}"), &format!("{label}|{b}"));
        let (r10, r10k, flat) = (
            r("call10", "is_valid"),
            r("call10k", "is_valid"),
            r("call10k", "call10"),
        );
        let (i10, i10k, iflat) = (
            r("into10", "is_valid"),
            r("into10k", "is_valid"),
            r("into10k", "into10"),
        );
        let (b10, b10k) = (r("bare10", "is_valid"), r("bare10k", "is_valid"));
        let (ib10, ib10k) = (r("into10", "bare10"), r("into10k", "bare10k"));
        out!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} | {r10:.2}x / {r10k:.2}x | {i10:.2}x / {i10k:.2}x | {b10:.2}x / {b10k:.2}x | {ib10:.2}x / {ib10k:.2}x | {flat:.3} / {iflat:.3} |",
            fmt_ns(g("is_valid")),
            fmt_ns(g("call10")),
            fmt_ns(g("call10k")),
            fmt_ns(g("into10")),
            fmt_ns(g("into10k")),
            fmt_ns(g("bare10")),
            fmt_ns(g("bare10k")),
        );
        for (what, ratio) in [
            ("registry call (10 tools) ÷ is_valid", r10),
            ("registry call (10,000 tools) ÷ is_valid", r10k),
            (
                "registry call_into, reused result (10 tools) ÷ is_valid",
                i10,
            ),
            (
                "registry call_into, reused result (10,000 tools) ÷ is_valid",
                i10k,
            ),
        ] {
            targets.push(at_most(format!("{label}: {what}"), ratio, 1.3));
        }
        for (what, ratio) in [("call", flat), ("call_into", iflat)] {
            targets.push(Target {
                what: format!("{label}: {what} cost 10,000 tools ÷ 10 tools"),
                measured: ratio,
                rule: "within 0.90–1.10".to_string(),
                pass: (0.9..=1.1).contains(&ratio),
            });
        }
    }
    out!();
    let one_call_ns = get(&entries, "search_flights valid|call10");
    drop(entries);

    // ---------------------------------------------------------------- threads
    // The registry's figure, and a control with no shared state at all (`is_valid` on
    // a schema each thread borrows): the control shows what this machine's two cores
    // give to any work, so a low registry figure can be told from a slow machine.
    let per_thread = ((cfg.slice.as_nanos() as f64 / one_call_ns) as u64).max(1000);
    let flights_valid = toolgate_bench::flight().valid.as_bytes();
    let call_op = || registry_call(&reg10, "search_flights", black_box(flights_valid));
    let control_op = || toolgate_is_valid(&flights.toolgate, black_box(flights_valid));
    let (mut c1, mut c2, mut k1, mut k2) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    eprintln!("threads: {per_thread} operations per thread per round");
    thread_throughput(2, per_thread / 10, &call_op); // warm-up
    for _ in 0..slices {
        c1.push(thread_throughput(1, per_thread, &call_op));
        c2.push(thread_throughput(2, per_thread, &call_op));
        k1.push(thread_throughput(1, per_thread, &control_op));
        k2.push(thread_throughput(2, per_thread, &control_op));
    }
    let (m1, m2) = (median(&c1), median(&c2));
    let (n1, n2) = (median(&k1), median(&k2));
    let best = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    out!(
        "## Threads: `search_flights` valid, {per_thread} operations per thread, {slices} rounds\n"
    );
    out!("| threads | registry `call` (10 tools), calls/s, median | ÷ one thread | best round | ÷ one thread (best) | control: `is_valid` alone, ops/s, median | ÷ one thread |");
    out!("|---:|---:|---:|---:|---:|---:|---:|");
    out!(
        "| 1 | {m1:.0} | 1.00x | {:.0} | 1.00x | {n1:.0} | 1.00x |",
        best(&c1)
    );
    out!(
        "| 2 | {m2:.0} | {:.2}x | {:.0} | {:.2}x | {n2:.0} | {:.2}x |",
        m2 / m1,
        best(&c2),
        best(&c2) / best(&c1),
        n2 / n1
    );
    out!(
        "\n(This machine has {} hardware threads. The control shares nothing between threads; when it \
         scales no better than the registry, the limit is the machine or its other load, not the registry.)\n",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(0)
    );
    targets.push(at_least(
        "2 threads ÷ 1 thread, registry call throughput (medians)",
        m2 / m1,
        1.8,
    ));

    targets
}

fn print_targets(title: &str, targets: &[Target]) {
    out!("## {title}\n");
    out!("| target | measured | required | |");
    out!("|---|---:|---:|---|");
    for t in targets {
        let measured = if t.measured.is_nan() {
            "n/a".to_string()
        } else {
            format!("{:.2}x", t.measured)
        };
        out!(
            "| {} | {measured} | {} | {} |",
            t.what,
            t.rule,
            if t.pass { "PASS" } else { "**MISS**" }
        );
    }
    let missed = targets.iter().filter(|t| !t.pass).count();
    out!(
        "\n{} of {} targets met{}.\n",
        targets.len() - missed,
        targets.len(),
        if missed > 0 {
            format!("; {missed} MISSED")
        } else {
            String::new()
        }
    );
}

// ------------------------------------------------------------------ full profile

/// The full profile's schemas, valid and invalid, and their compile: toolgate with
/// `Profile::Full`, jsonschema and boon with formats asserted.
fn full_profile(cfg: &Config, targets: &mut Vec<Target>) {
    use toolgate_bench::full::FULL_CASES;
    eprintln!("full profile: checking every contender's verdicts…");
    let (report, usable) = full_sanity_report();
    out!("## Full profile: tool schemas as pydantic, zod 4 and zod-to-json-schema write them\n");
    out!("toolgate compiles with `Options::default().with_profile(Profile::Full)`; jsonschema with `options().should_validate_formats(true)`; boon with `enable_format_assertions()`. Errors each contender reports on the invalid inputs, and any case where toolgate refuses the schema or gives a wrong verdict (its figures are then left out):\n");
    out!("```text\n{report}```\n");

    let compiled: Vec<(Case, FullCompiled, bool)> = FULL_CASES
        .iter()
        .zip(&usable)
        .map(|(c, ok)| (*c, FullCompiled::new(c.schema), *ok))
        .collect();
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (case, c, ok) in &compiled {
        let input = case.instance.as_bytes();
        let n = case.name;
        entries.push(Entry::new(format!("{n}|floor"), move || {
            floor_parse(black_box(input)) as usize
        }));
        if let (true, Ok(tg)) = (*ok, &c.toolgate) {
            entries.push(Entry::new(format!("{n}|tg_is_valid"), move || {
                toolgate_is_valid(tg, black_box(input)) as usize
            }));
            entries.push(Entry::new(format!("{n}|tg_validate_json"), move || {
                toolgate_validate_json(tg, black_box(input))
            }));
        }
        entries.push(Entry::new(format!("{n}|js_is_valid"), move || {
            jsonschema_is_valid(&c.jsonschema, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{n}|js_errors"), move || {
            jsonschema_errors(&c.jsonschema, black_box(input)).len()
        }));
        entries.push(Entry::new(format!("{n}|boon_is_valid"), move || {
            boon_is_valid(&c.boon, black_box(input)) as usize
        }));
        entries.push(Entry::new(format!("{n}|boon_errors"), move || {
            boon_errors(&c.boon, black_box(input)).len()
        }));
    }
    eprintln!("full profile validation: {} contenders", entries.len());
    run_interleaved(&mut entries, cfg);
    let has = |entries: &[Entry<'_>], k: &str| entries.iter().any(|e| e.key == k);

    out!("### Validation, ns/op\n");
    out!("| input | bytes | floor (parse only) | toolgate `is_valid` | toolgate `validate_json` | jsonschema parse+`is_valid` | jsonschema parse+`iter_errors`→strings | boon parse+`validate` | boon parse+errors→strings |");
    out!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (case, _, _) in &compiled {
        let n = case.name;
        let g = |k: &str| {
            let key = format!("{n}|{k}");
            if has(&entries, &key) {
                fmt_ns(get(&entries, &key))
            } else {
                "—".to_string()
            }
        };
        out!(
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} |",
            case.instance.len(),
            g("floor"),
            g("tg_is_valid"),
            g("tg_validate_json"),
            g("js_is_valid"),
            g("js_errors"),
            g("boon_is_valid"),
            g("boon_errors"),
        );
    }
    out!();
    out!("### Ratios\n");
    out!("| input | jsonschema `is_valid` ÷ toolgate `is_valid` | boon ÷ toolgate `is_valid` | toolgate `is_valid` ÷ floor | jsonschema `iter_errors` ÷ toolgate `validate_json` | boon errors ÷ toolgate `validate_json` | toolgate `validate_json` ÷ floor |");
    out!("|---|---:|---:|---:|---:|---:|---:|");
    for (case, _, ok) in &compiled {
        let n = case.name;
        if !ok {
            out!("| {n} | — | — | — | — | — | — |");
            let why = "n/a: toolgate refuses the schema or gives a wrong verdict";
            if case.valid {
                targets.push(missing(
                    format!("{n}: jsonschema parse+is_valid ÷ toolgate is_valid"),
                    "≥ 5x",
                    why,
                ));
                targets.push(missing(
                    format!("{n}: toolgate is_valid ÷ parse floor"),
                    "≤ 1.5x",
                    why,
                ));
            } else {
                targets.push(missing(
                    format!("{n}: jsonschema parse+iter_errors ÷ toolgate validate_json"),
                    "≥ 3x",
                    why,
                ));
            }
            continue;
        }
        let r = |a: &str, b: &str| paired(&entries, &format!("{n}|{a}"), &format!("{n}|{b}"));
        let r_js_iv = r("js_is_valid", "tg_is_valid");
        let r_floor = r("tg_is_valid", "floor");
        let r_js_err = r("js_errors", "tg_validate_json");
        out!(
            "| {n} | {r_js_iv:.2}x | {:.2}x | {r_floor:.2}x | {r_js_err:.2}x | {:.2}x | {:.2}x |",
            r("boon_is_valid", "tg_is_valid"),
            r("boon_errors", "tg_validate_json"),
            r("tg_validate_json", "floor"),
        );
        if case.valid {
            targets.push(at_least(
                format!("{n}: jsonschema parse+is_valid ÷ toolgate is_valid"),
                r_js_iv,
                5.0,
            ));
            targets.push(at_most(
                format!("{n}: toolgate is_valid ÷ parse floor"),
                r_floor,
                1.5,
            ));
        } else {
            targets.push(at_least(
                format!("{n}: jsonschema parse+iter_errors ÷ toolgate validate_json"),
                r_js_err,
                3.0,
            ));
        }
    }
    out!();
    drop(entries);

    // Compile: each schema once (its valid case names it).
    let schemas: Vec<(&str, &str, bool)> = compiled
        .iter()
        .filter(|(c, _, _)| c.valid)
        .map(|(c, fc, _)| {
            (
                c.name.trim_end_matches(" valid"),
                c.schema,
                fc.toolgate.is_ok(),
            )
        })
        .collect();
    let values: Vec<Value> = schemas
        .iter()
        .map(|(_, s, _)| serde_json::from_str(s).expect("schema is JSON"))
        .collect();
    let opts = full_options();
    let mut entries = Vec::new();
    for ((name, schema, tg_ok), value) in schemas.iter().zip(&values) {
        let bytes = schema.as_bytes();
        let opts = &opts;
        if *tg_ok {
            entries.push(Entry::new(format!("{name}|tg"), move || {
                toolgate_compile_full(black_box(bytes), opts).is_ok() as usize
            }));
        }
        entries.push(Entry::new(format!("{name}|js_value"), move || {
            black_box(jsonschema_compile_value(black_box(value)));
            1
        }));
        entries.push(Entry::new(format!("{name}|js_formats"), move || {
            black_box(jsonschema_formats(black_box(value)).is_ok()) as usize
        }));
        entries.push(Entry::new(format!("{name}|js_bytes"), move || {
            black_box(jsonschema_formats_bytes(black_box(bytes)));
            1
        }));
        entries.push(Entry::new(format!("{name}|boon_value"), move || {
            black_box(boon_compile_formats(black_box(value).clone()).is_ok()) as usize
        }));
        entries.push(Entry::new(format!("{name}|boon_bytes"), move || {
            black_box(boon_compile_formats_bytes(black_box(bytes)));
            1
        }));
    }
    eprintln!("full profile compile: {} contenders", entries.len());
    run_interleaved(&mut entries, cfg);
    out!("### Compile, ns/op (÷ toolgate)\n");
    out!("| schema | bytes | toolgate `compile_with` (full, bytes) | jsonschema `validator_for` (parsed `Value`) | jsonschema formats on (parsed `Value`) | jsonschema parse + formats on | boon, formats (clone of parsed `Value`) | boon parse + compile, formats |");
    out!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, schema, tg_ok) in &schemas {
        let g = |k: &str| get(&entries, &format!("{name}|{k}"));
        if !tg_ok {
            out!(
                "| {name} | {} | refused | {} | {} | {} | {} | {} |",
                schema.len(),
                fmt_ns(g("js_value")),
                fmt_ns(g("js_formats")),
                fmt_ns(g("js_bytes")),
                fmt_ns(g("boon_value")),
                fmt_ns(g("boon_bytes")),
            );
            targets.push(missing(
                format!("compile {name}: jsonschema validator_for ÷ toolgate compile"),
                "≥ 3x",
                "n/a: toolgate refuses the schema",
            ));
            continue;
        }
        let r = |k: &str| paired(&entries, &format!("{name}|{k}"), &format!("{name}|tg"));
        let cell = |k: &str| format!("{} ({:.2}x)", fmt_ns(g(k)), r(k));
        out!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            schema.len(),
            fmt_ns(g("tg")),
            cell("js_value"),
            cell("js_formats"),
            cell("js_bytes"),
            cell("boon_value"),
            cell("boon_bytes"),
        );
        targets.push(at_least(
            format!("compile {name}: jsonschema validator_for (from Value) ÷ toolgate compile (from bytes)"),
            r("js_value"),
            3.0,
        ));
    }
    out!();
}

/// A target that could not be measured (toolgate refuses the input): a MISS.
fn missing(what: impl Into<String>, rule: &str, why: &str) -> Target {
    Target {
        what: format!("{} ({why})", what.into()),
        measured: f64::NAN,
        rule: rule.to_string(),
        pass: false,
    }
}

// ------------------------------------------------------------------ cycling mix

/// Every compilable schema of realworld-tools, one generated call each, validated in
/// turn (one operation is a pass over the whole mix; the tables give ns per call).
fn cycling(cfg: &Config, targets: &mut Vec<Target>) {
    use toolgate_bench::instances::Strings;
    use toolgate_bench::mix::{build_mix, load_realworld, mix_bare, mix_registry, Mix};

    out!("## Cycling mix: every published tool schema, one call each, in turn\n");
    let tools = match load_realworld() {
        Ok(t) => t,
        Err(e) => {
            out!("SKIPPED: realworld-tools cannot be read ({e}); set TOOLGATE_TESTDATA to the folder holding realworld-tools/.\n");
            eprintln!("cycling mix SKIPPED: {e}");
            for what in [
                "cycling mix (core): toolgate is_valid ÷ parse floor",
                "cycling mix (core): jsonschema ÷ toolgate is_valid",
                "cycling mix (core, non-ASCII): toolgate is_valid ÷ parse floor",
                "cycling mix (core): registry call_into ÷ bare dispatcher",
                "cycling mix (full): toolgate is_valid ÷ parse floor",
                "cycling mix (full): jsonschema ÷ toolgate is_valid",
                "every schema (full): jsonschema ÷ toolgate is_valid",
            ] {
                targets.push(missing(what, "—", "n/a: no data"));
            }
            return;
        }
    };
    eprintln!(
        "cycling mix: compiling {} schemas with every contender and generating calls…",
        tools.len()
    );
    let core = toolgate_core::Options::default();
    let full = full_options();
    let mixes: [(&str, Mix); 3] = [
        ("core", build_mix(&tools, &core, Strings::Ascii)),
        (
            "core, non-ASCII",
            build_mix(&tools, &core, Strings::NonAscii),
        ),
        ("full", build_mix(&tools, &full, Strings::Ascii)),
    ];
    out!("{} schemas in `realworld-tools/tools.jsonl`. A mix holds every schema that toolgate (in the profile named), jsonschema (formats on) and boon (formats asserted) compile, with one call from the deterministic generator (`benches/src/instances.rs`) that all three accept; the non-ASCII mix writes its free text in accented Latin, Greek, Cyrillic, CJK and emoji, and holds only the tools whose call has some. One operation is one pass over the mix in order; figures are ns per call.\n", tools.len());
    out!("| mix | tools | left out | mean call bytes |");
    out!("|---|---:|---:|---:|");
    for (label, mix) in &mixes {
        out!(
            "| {label} | {} | {} | {:.0} |",
            mix.tools.len(),
            mix.dropped.len(),
            mix.mean_call_bytes()
        );
    }
    out!();
    let mut left_out = String::new();
    for (label, mix) in &mixes {
        let mut why: std::collections::BTreeMap<String, usize> = Default::default();
        for (_, reason) in &mix.dropped {
            let key = reason.split(':').next().unwrap_or(reason).to_string();
            *why.entry(key).or_default() += 1;
        }
        for (reason, n) in why {
            left_out.push_str(&format!("{label}: {n} × {reason}\n"));
        }
    }
    if !left_out.is_empty() {
        out!("Left out, by reason:\n\n```text\n{left_out}```\n");
    }

    let reg = mix_registry(&mixes[0].1, &core);
    let bare = mix_bare(&mixes[0].1, &core);
    for t in &mixes[0].1.tools {
        let mut r = toolgate_core::CallResult::default();
        assert!(
            registry_call_into(&reg, &t.name, &t.call, &mut r) && r.content == HANDLER_ANSWER,
            "{}: registry call failed: {}",
            t.tool,
            r.content
        );
        assert!(
            bare.call_into(&t.name, &t.call, &mut r),
            "{}: bare dispatch failed",
            t.tool
        );
    }

    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (label, mix) in &mixes {
        let tools = &mix.tools;
        if tools.is_empty() {
            continue;
        }
        entries.push(Entry::new(format!("{label}|floor"), move || {
            tools
                .iter()
                .map(|t| floor_parse(black_box(&t.call)) as usize)
                .sum()
        }));
        entries.push(Entry::new(format!("{label}|tg_is_valid"), move || {
            tools
                .iter()
                .map(|t| toolgate_is_valid(&t.toolgate, black_box(&t.call)) as usize)
                .sum()
        }));
        entries.push(Entry::new(format!("{label}|tg_validate_json"), move || {
            tools
                .iter()
                .map(|t| toolgate_validate_json(&t.toolgate, black_box(&t.call)))
                .sum()
        }));
        entries.push(Entry::new(format!("{label}|js_is_valid"), move || {
            tools
                .iter()
                .map(|t| jsonschema_is_valid(&t.jsonschema, black_box(&t.call)) as usize)
                .sum()
        }));
        entries.push(Entry::new(format!("{label}|boon_is_valid"), move || {
            tools
                .iter()
                .map(|t| boon_is_valid(&t.boon, black_box(&t.call)) as usize)
                .sum()
        }));
    }
    let core_tools = &mixes[0].1.tools;
    if !core_tools.is_empty() {
        let (reg, bare) = (&reg, &bare);
        let mut reused = toolgate_core::CallResult::default();
        entries.push(Entry::new("core|call_into", move || {
            core_tools
                .iter()
                .map(|t| registry_call_into(reg, &t.name, black_box(&t.call), &mut reused) as usize)
                .sum()
        }));
        let mut bare_reused = toolgate_core::CallResult::default();
        entries.push(Entry::new("core|bare", move || {
            core_tools
                .iter()
                .map(|t| bare.call_into(&t.name, black_box(&t.call), &mut bare_reused) as usize)
                .sum()
        }));
    }
    eprintln!("cycling mix: {} contenders", entries.len());
    run_interleaved(&mut entries, cfg);

    out!("### ns per call\n");
    out!("| mix | floor (parse only) | toolgate `is_valid` | toolgate `validate_json` | jsonschema parse+`is_valid` | boon parse+`validate` | registry `call_into` | bare dispatcher |");
    out!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let has = |k: &str| entries.iter().any(|e| e.key == k);
    for (label, mix) in &mixes {
        let n = mix.tools.len().max(1) as f64;
        let g = |k: &str| {
            let key = format!("{label}|{k}");
            if has(&key) {
                fmt_ns(get(&entries, &key) / n)
            } else {
                "—".to_string()
            }
        };
        out!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} |",
            g("floor"),
            g("tg_is_valid"),
            g("tg_validate_json"),
            g("js_is_valid"),
            g("boon_is_valid"),
            g("call_into"),
            g("bare"),
        );
    }
    out!();
    out!("### Ratios\n");
    out!("| mix | toolgate `is_valid` ÷ floor | jsonschema ÷ toolgate `is_valid` | boon ÷ toolgate `is_valid` | toolgate `validate_json` ÷ floor | `call_into` ÷ bare | `call_into` ÷ `is_valid` |");
    out!("|---|---:|---:|---:|---:|---:|---:|");
    let mut ratio_of = std::collections::BTreeMap::new();
    for (label, mix) in &mixes {
        if mix.tools.is_empty() {
            out!("| {label} | — | — | — | — | — | — |");
            continue;
        }
        let r =
            |a: &str, b: &str| paired(&entries, &format!("{label}|{a}"), &format!("{label}|{b}"));
        let floor = r("tg_is_valid", "floor");
        let js = r("js_is_valid", "tg_is_valid");
        let reg_cells = if *label == "core" {
            let (a, b) = (r("call_into", "bare"), r("call_into", "tg_is_valid"));
            ratio_of.insert("core|call_into".to_string(), a);
            (format!("{a:.2}x"), format!("{b:.2}x"))
        } else {
            ("—".to_string(), "—".to_string())
        };
        out!(
            "| {label} | {floor:.2}x | {js:.2}x | {:.2}x | {:.2}x | {} | {} |",
            r("boon_is_valid", "tg_is_valid"),
            r("tg_validate_json", "floor"),
            reg_cells.0,
            reg_cells.1
        );
        ratio_of.insert(format!("{label}|floor"), floor);
        ratio_of.insert(format!("{label}|js"), js);
    }
    out!();
    // (target, ratio key, at least?, bound)
    let wanted: [(&str, &str, bool, f64); 6] = [
        (
            "cycling mix (core): toolgate is_valid ÷ parse floor",
            "core|floor",
            false,
            1.3,
        ),
        (
            "cycling mix (core): jsonschema parse+is_valid ÷ toolgate is_valid",
            "core|js",
            true,
            6.0,
        ),
        (
            "cycling mix (core, non-ASCII): toolgate is_valid ÷ parse floor",
            "core, non-ASCII|floor",
            false,
            1.5,
        ),
        (
            "cycling mix (core): registry call_into ÷ bare dispatcher",
            "core|call_into",
            false,
            1.2,
        ),
        (
            "cycling mix (full): toolgate is_valid ÷ parse floor",
            "full|floor",
            false,
            2.0,
        ),
        (
            "cycling mix (full): jsonschema parse+is_valid ÷ toolgate is_valid",
            "full|js",
            true,
            6.0,
        ),
    ];
    for (what, key, least, bound) in wanted {
        targets.push(match (ratio_of.get(key), least) {
            (Some(&v), true) => at_least(what, v, bound),
            (Some(&v), false) => at_most(what, v, bound),
            (None, true) => missing(what, &format!("≥ {bound}x"), "n/a: empty mix"),
            (None, false) => missing(what, &format!("≤ {bound}x"), "n/a: empty mix"),
        });
    }
    slowest_against_jsonschema(&mixes[2].1, targets);
}

/// Each schema of the full mix on its own call, toolgate's `is_valid` against
/// jsonschema's parse and `is_valid`, interleaved per schema (best of five rounds of a
/// few hundred calls each): the five where toolgate leads least, and the target that
/// it leads by 2x on every one. `--labels` times nothing (every ratio is then 1).
fn slowest_against_jsonschema(mix: &toolgate_bench::mix::Mix, targets: &mut Vec<Target>) {
    const WHAT: &str = "every schema (full): jsonschema ÷ toolgate is_valid";
    const CALLS: u32 = 300;
    if mix.tools.is_empty() {
        targets.push(missing(WHAT, "≥ 2x", "n/a: empty mix"));
        return;
    }
    let best_ns = |f: &dyn Fn() -> bool| {
        if labels_only() {
            return 1.0;
        }
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                for _ in 0..CALLS {
                    black_box(f());
                }
                t.elapsed().as_nanos() as f64 / f64::from(CALLS)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mut ratios: Vec<(f64, f64, f64, &toolgate_bench::mix::MixTool)> = mix
        .tools
        .iter()
        .map(|t| {
            let tg = best_ns(&|| toolgate_is_valid(&t.toolgate, black_box(&t.call)));
            let js = best_ns(&|| jsonschema_is_valid(&t.jsonschema, black_box(&t.call)));
            (js / tg, tg, js, t)
        })
        .collect();
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    out!("### The schemas where toolgate leads jsonschema least (full profile)\n");
    out!("Each schema of the full mix alone, its one call repeated ({CALLS} calls, best of five rounds, the two interleaved per schema); ns per call.\n");
    // Ranked rows: which schemas come last depends on the run's timings.
    out!("| rank | source | tool | call bytes | toolgate `is_valid` | jsonschema parse+`is_valid` | jsonschema ÷ toolgate |");
    out!("|---:|---|---|---:|---:|---:|---:|");
    for (rank, &(ratio, tg, js, t)) in ratios.iter().take(5).enumerate() {
        out!(
            "| {} | {} | {} | {} | {} | {} | {ratio:.2}x |",
            rank + 1,
            t.source,
            t.tool,
            t.call.len(),
            fmt_ns(tg),
            fmt_ns(js)
        );
    }
    let median = ratios[ratios.len() / 2].0;
    out!(
        "\nMedian over the {} schemas: {median:.2}x.\n",
        ratios.len()
    );
    targets.push(at_least(WHAT, ratios[0].0, 2.0));
}
