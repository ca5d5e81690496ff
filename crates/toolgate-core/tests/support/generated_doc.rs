//! Generated blocks in the docs: a reference table that a test can produce lives in a
//! file under `docs/` between two marker lines,
//!
//! ```text
//! <!-- BEGIN GENERATED NAME: ... -->
//! ...
//! <!-- END GENERATED NAME -->
//! ```
//!
//! and the test that owns the facts regenerates the text between them and compares it
//! with the file, so the page cannot drift from what the library does. With
//! `TOOLGATE_BLESS=1` the test writes its text into the file instead (the markers and
//! everything outside them stay as they are).
//!
//! Used by the core's tests and, through `#[path]`, by the dialect crate's.

#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Serializes read-modify-write of the docs files: the tests of one binary run on
/// parallel threads, and several may rewrite blocks of one file.
static FILES: Mutex<()> = Mutex::new(());

/// `docs/NAME` in the repository.
pub fn docs_file(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(name);
    std::fs::canonicalize(&path).unwrap_or(path)
}

/// Whether this run rewrites the generated blocks instead of comparing them.
pub fn blessing() -> bool {
    std::env::var("TOOLGATE_BLESS").as_deref() == Ok("1")
}

fn begin_marker(block: &str) -> String {
    format!("<!-- BEGIN GENERATED {block}:")
}

fn end_marker(block: &str) -> String {
    format!("<!-- END GENERATED {block} -->")
}

/// The byte range of block `block`'s contents in `text` (after its begin line, up to
/// its end line), or why there is none.
fn block_range(text: &str, block: &str) -> Result<(usize, usize), String> {
    let begin = begin_marker(block);
    let end = end_marker(block);
    let start = text
        .find(&begin)
        .ok_or_else(|| format!("no line starting with {begin:?}"))?;
    if text[start + begin.len()..].contains(&begin) {
        return Err(format!("two lines start with {begin:?}"));
    }
    let body = text[start..]
        .find('\n')
        .map(|i| start + i + 1)
        .ok_or_else(|| format!("nothing after {begin:?}"))?;
    let stop = text[body..]
        .find(&end)
        .map(|i| body + i)
        .ok_or_else(|| format!("no {end:?} after {begin:?}"))?;
    Ok((body, stop))
}

/// The current contents of block `block` of `file`, if the file has that block.
pub fn current(file: &Path, block: &str) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let (body, stop) = block_range(&text, block).ok()?;
    Some(text[body..stop].to_string())
}

/// Compares block `block` of `file` with `generated` (complete lines); with
/// `TOOLGATE_BLESS=1`, writes `generated` into the block instead. `command` is how to
/// run the test that generates it, for the failure message.
///
/// Returns the failure, if any, so that a test can report it beside its own.
pub fn check(file: &Path, block: &str, generated: &str, command: &str) -> Result<(), String> {
    assert!(
        generated.is_empty() || generated.ends_with('\n'),
        "a generated block is whole lines"
    );
    let _guard = FILES.lock().unwrap_or_else(|e| e.into_inner());
    let shown = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let (body, stop) = block_range(&text, block).map_err(|e| {
        format!(
            "{shown} has no generated block {block:?} ({e}); add the lines {:?} and {:?} where it goes, then run TOOLGATE_BLESS=1 {command}",
            format!("{} ... -->", begin_marker(block)),
            end_marker(block)
        )
    })?;
    let old = &text[body..stop];
    if old == generated {
        return Ok(());
    }
    if blessing() {
        let mut new = String::with_capacity(text.len() + generated.len());
        new.push_str(&text[..body]);
        new.push_str(generated);
        new.push_str(&text[stop..]);
        std::fs::write(file, new).map_err(|e| format!("cannot write {shown}: {e}"))?;
        // Straight to stderr: libtest would capture eprintln!.
        let _ = writeln!(
            std::io::stderr().lock(),
            "rewrote the generated block {block:?} of {shown}"
        );
        return Ok(());
    }
    Err(format!(
        "{shown}: the generated block {block:?} differs from what the library produces now.\n{}\nIf the change is intended, rewrite the block with:\n    TOOLGATE_BLESS=1 {command}\nand review the diff.",
        first_difference(old, generated)
    ))
}

/// Where two texts first differ, line by line, as a short report.
fn first_difference(old: &str, new: &str) -> String {
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let at = old_lines
        .iter()
        .zip(&new_lines)
        .position(|(a, b)| a != b)
        .unwrap_or(old_lines.len().min(new_lines.len()));
    let line = |lines: &[&str]| {
        lines
            .get(at)
            .map_or("(no line)".to_string(), |l| format!("{l:?}"))
    };
    format!(
        "first difference at line {} of the block ({} lines in the file, {} generated):\n  file:      {}\n  generated: {}",
        at + 1,
        old_lines.len(),
        new_lines.len(),
        line(&old_lines),
        line(&new_lines)
    )
}
