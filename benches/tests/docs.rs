//! The benchmark tables in docs/benchmarks.md are the ones the benchmark prints: the
//! same sections, tables, columns and rows, in the same order. The binary writes that
//! file itself (`cargo run -p toolgate-bench --release -- --write-docs`); this test runs
//! it with `--labels` (everything set up and checked, nothing timed, every figure a
//! placeholder) and compares the labels, not the figures, which are a run's own.
//!
//! And nothing is pasted twice: no table of the generated file is also in
//! BENCHMARKS.md, and no table appears twice across BENCHMARKS.md, docs/benchmarks.md
//! and the Python and Go benchmarks' results.
//!
//! The cycling mix reads `realworld-tools` (`../shared/testdata` beside the
//! repository, or `TOOLGATE_TESTDATA`); without it the comparison says SKIPPED loudly,
//! and fails when `TOOLGATE_REQUIRE_TESTDATA=1` (CI).

use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(relative: &str) -> String {
    let path = repository().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One Markdown table: the heading above it, its column headers, and the first cell
/// of each row. Digits in headings and first cells are written `N`: a heading may state
/// a run's counts, and a table of one row may start with a figure.
#[derive(Debug, PartialEq, Eq)]
struct Table {
    heading: String,
    columns: Vec<String>,
    rows: Vec<String>,
    /// The whole table's text, for the test of tables pasted twice.
    text: String,
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(|c| c.trim().to_owned()).collect()
}

fn without_digits(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('N') {
                out.push('N');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The tables of `markdown`, in order (tables inside code blocks are not tables).
fn tables(markdown: &str) -> Vec<Table> {
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut in_code = false;
    let mut lines = markdown.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if line.starts_with('#') {
            heading = without_digits(line.trim());
            continue;
        }
        let is_rule = |l: &str| l.trim().starts_with("|-") || l.trim().starts_with("|:");
        if line.trim_start().starts_with('|') && lines.peek().is_some_and(|l| is_rule(l)) {
            let mut text = format!("{line}\n");
            text.push_str(lines.next().unwrap_or_default());
            text.push('\n');
            let mut rows = Vec::new();
            while let Some(row) = lines.next_if(|l| l.trim_start().starts_with('|')) {
                rows.push(without_digits(
                    &cells(row).into_iter().next().unwrap_or_default(),
                ));
                text.push_str(row);
                text.push('\n');
            }
            out.push(Table {
                heading: heading.clone(),
                columns: cells(line),
                rows,
                text,
            });
        }
    }
    out
}

/// The benchmark's report with placeholder figures, or `None` (after a loud SKIPPED)
/// when the data the cycling mix reads is missing.
fn labels_report() -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_toolgate-bench"))
        .arg("--labels")
        .output()
        .expect("run toolgate-bench --labels");
    assert!(
        out.status.success(),
        "toolgate-bench --labels failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).expect("the report is UTF-8");
    if report.contains("SKIPPED: realworld-tools") {
        let message = "SKIPPED: the benchmark's tables against docs/benchmarks.md: \
                       realworld-tools is missing (set TOOLGATE_TESTDATA)";
        if std::env::var("TOOLGATE_REQUIRE_TESTDATA").as_deref() == Ok("1") {
            panic!("{message}; TOOLGATE_REQUIRE_TESTDATA=1 makes this a failure");
        }
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), "\n{message}\n");
        return None;
    }
    Some(report)
}

#[test]
fn the_documented_tables_are_the_ones_the_benchmark_prints() {
    let Some(report) = labels_report() else {
        return;
    };
    let printed = tables(&report);
    let documented = tables(&read("docs/benchmarks.md"));
    assert!(
        printed.len() >= 10,
        "the benchmark printed {} tables",
        printed.len()
    );
    let label = |t: &Table| (t.heading.clone(), t.columns.clone(), t.rows.clone());
    for (i, (p, d)) in printed.iter().zip(&documented).enumerate() {
        assert_eq!(
            label(d),
            label(p),
            "table {} of docs/benchmarks.md (left) is not what the benchmark prints (right); \
             run `cargo run -p toolgate-bench --release -- --write-docs`",
            i + 1
        );
    }
    assert_eq!(
        documented.len(),
        printed.len(),
        "docs/benchmarks.md has {} tables, the benchmark prints {}; run \
         `cargo run -p toolgate-bench --release -- --write-docs`",
        documented.len(),
        printed.len()
    );
}

#[test]
fn no_table_is_pasted_twice() {
    let generated = tables(&read("docs/benchmarks.md"));
    assert!(!generated.is_empty(), "docs/benchmarks.md has no table");
    let written = tables(&read("BENCHMARKS.md"));
    for table in &written {
        assert!(
            !generated.iter().any(|g| g.columns == table.columns),
            "BENCHMARKS.md pastes a table that docs/benchmarks.md generates ({}): link to it \
             instead\n{}",
            table.heading,
            table.text
        );
    }
    let mut seen: Vec<(&str, &Table)> = Vec::new();
    let files = [
        ("BENCHMARKS.md", written.as_slice()),
        ("docs/benchmarks.md", generated.as_slice()),
    ];
    let python = tables(&read("python/bench/RESULTS.md"));
    let go = tables(&read("go/bench/RESULTS.md"));
    let files = files.into_iter().chain([
        ("python/bench/RESULTS.md", python.as_slice()),
        ("go/bench/RESULTS.md", go.as_slice()),
    ]);
    for (file, tables) in files {
        for table in tables {
            // A table of placeholders or one row says too little to call a copy.
            if table.rows.len() < 2 {
                continue;
            }
            if let Some((first, _)) = seen.iter().find(|(_, t)| {
                t.columns == table.columns && t.text.lines().skip(2).eq(table.text.lines().skip(2))
            }) {
                panic!(
                    "the same table is in {first} and {file}: keep one and link to it\n{}",
                    table.text
                );
            }
            seen.push((file, table));
        }
    }
}

#[test]
fn tables_are_read_with_their_headings_and_row_labels() {
    let md = "# Title\n\n## Run 25 of 40 ms\n\n| input | a |\n|---|---:|\n| x | 1 |\n| y | 2 |\n\n\
              ```text\n| not | a table |\n|---|---|\n```\n";
    let t = tables(md);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].heading, "## Run N of N ms");
    assert_eq!(t[0].columns, ["input", "a"]);
    assert_eq!(t[0].rows, ["x", "y"]);
    assert_eq!(tables("| a |\n|---|\n| 594.3 ms |\n")[0].rows, ["N.N ms"]);
}
