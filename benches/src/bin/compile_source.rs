//! Compiles the published tool schemas of one source (`realworld-tools/tools.jsonl`,
//! full profile with formats) in a loop, for callgrind: the instructions and the
//! allocations of compiling what one source publishes, around the loop only.
//!
//! ```sh
//! cargo build -p toolgate-bench --release --bin compile_source
//! valgrind --tool=callgrind --toggle-collect='*compile_all*' --callgrind-out-file=/dev/null \
//!     target/release/compile_source openai-node 20
//! ```
//!
//! The first argument is part of a source's name (`all` for every schema), the second
//! how many times each schema is compiled.

use toolgate_bench::full_options;
use toolgate_bench::mix::load_realworld;
use toolgate_core::{Options, Schema};

/// Compiles each schema once; how many compiled.
#[inline(never)]
fn compile_all(schemas: &[&[u8]], opts: &Options) -> usize {
    schemas
        .iter()
        .filter(|s| std::hint::black_box(Schema::compile_with(s, opts)).is_ok())
        .count()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(source), Some(Ok(times))) = (args.get(1), args.get(2).map(|n| n.parse::<usize>()))
    else {
        eprintln!("usage: compile_source SOURCE|all TIMES");
        std::process::exit(2);
    };
    let tools = load_realworld().unwrap_or_else(|e| {
        eprintln!("SKIPPED: realworld-tools cannot be read ({e}); set TOOLGATE_TESTDATA");
        std::process::exit(77);
    });
    let schemas: Vec<&[u8]> = tools
        .iter()
        .filter(|t| source == "all" || t.source.contains(source.as_str()))
        .map(|t| t.schema_bytes.as_slice())
        .collect();
    let opts = full_options();
    let compiled: usize = (0..times).map(|_| compile_all(&schemas, &opts)).sum();
    eprintln!(
        "{} schemas of {source}, {} bytes; {compiled} compiles",
        schemas.len(),
        schemas.iter().map(|s| s.len()).sum::<usize>()
    );
}
