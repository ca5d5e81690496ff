//! What a compiled schema costs to make and to keep, on the published tool schemas of
//! `realworld-tools`: the heap bytes each compiled schema holds (median, 95th
//! percentile and total, per profile) and the heap blocks they are in, the allocations
//! a compile makes, and compile time against `jsonschema`'s, on the
//! whole set and per source. Both contenders compile the same bytes in the same
//! process, in alternating passes over the set; a ratio is the median of the ratios
//! of the pairs of passes.
//! `cargo run -p toolgate-bench --release --bin program_size`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;

use toolgate_bench::mix::load_realworld;
use toolgate_bench::timing::paired;
use toolgate_bench::{full_options, jsonschema_formats, jsonschema_formats_bytes};
use toolgate_core::{Options, Schema};

/// The system allocator, counting the bytes and the blocks live on the heap.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static BLOCKS: AtomicIsize = AtomicIsize::new(0);
/// Allocations and reallocations made, ever.
static MADE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every method forwards to `System` with the caller's own arguments, which
// satisfy `GlobalAlloc`'s contract as the caller promised; the counter is a side effect
// that does not touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        BLOCKS.fetch_add(1, Ordering::Relaxed);
        MADE.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as this method's own contract requires.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        BLOCKS.fetch_sub(1, Ordering::Relaxed);
        // SAFETY: forwarded as this method's own contract requires.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        MADE.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as this method's own contract requires.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The heap bytes and blocks `value` holds: what dropping it frees. Measured on the
/// drop, not around the compile that made it: a compile keeps emptied tables for the
/// thread's next one, which are not the schema's.
fn held<T>(value: T) -> (usize, usize) {
    let (bytes, blocks) = (LIVE.load(Ordering::Relaxed), BLOCKS.load(Ordering::Relaxed));
    drop(value);
    (
        (bytes - LIVE.load(Ordering::Relaxed)).max(0) as usize,
        (blocks - BLOCKS.load(Ordering::Relaxed)).max(0) as usize,
    )
}

fn percentile(sorted: &[usize], p: f64) -> usize {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let tools = match load_realworld() {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("SKIPPED: realworld-tools cannot be read ({e}); set TOOLGATE_TESTDATA");
            std::process::exit(77);
        }
    };
    let profiles: [(&str, Options); 2] = [("core", Options::default()), ("full", full_options())];
    println!("{} schemas in realworld-tools/tools.jsonl", tools.len());
    // A schema whose text has no `$` is compiled without a search for identifiers.
    let plain = tools
        .iter()
        .filter(|t| !t.schema_bytes.contains(&b'$'))
        .count();
    println!("{plain} of them with no `$` in their text\n");
    println!("| profile | compiled | median bytes | p95 bytes | max bytes | total | median heap blocks | p95 heap blocks |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, opts) in &profiles {
        let compiled: Vec<(usize, usize, usize)> = tools
            .iter()
            .filter_map(|t| Schema::compile_with(&t.schema_bytes, opts).ok())
            .map(|schema| {
                let text = schema.to_json().len();
                let (bytes, blocks) = held(schema);
                (bytes, text, blocks)
            })
            .collect();
        // The schema's text is one block of them.
        let mut blocks: Vec<usize> = compiled.iter().map(|&(_, _, b)| b).collect();
        blocks.sort_unstable();
        // All it keeps, and without the schema's own text (kept for definitions).
        for (what, mut sizes) in [
            (
                "",
                compiled.iter().map(|&(all, _, _)| all).collect::<Vec<_>>(),
            ),
            (
                " (without its JSON text)",
                compiled
                    .iter()
                    .map(|&(all, text, _)| all.saturating_sub(text))
                    .collect(),
            ),
        ] {
            sizes.sort_unstable();
            println!(
                "| {name}{what} | {} | {} | {} | {} | {:.1} KB | {} | {} |",
                sizes.len(),
                percentile(&sizes, 0.5),
                percentile(&sizes, 0.95),
                sizes.last().copied().unwrap_or(0),
                sizes.iter().sum::<usize>() as f64 / 1024.0,
                percentile(&blocks, 0.5),
                percentile(&blocks, 0.95),
            );
        }
    }

    // What a compile allocates while it works (the tables it fills and frees, its
    // result's block): the mean over the set, each schema compiled once before on this
    // thread as a registry compiles many (the compiler keeps its emptied work tables
    // per thread).
    println!("\n| profile | allocations per compile (mean) |\n|---|---:|");
    for (name, opts) in &profiles {
        let schemas: Vec<&[u8]> = tools
            .iter()
            .map(|t| t.schema_bytes.as_slice())
            .filter(|s| Schema::compile_with(s, opts).is_ok())
            .collect();
        let before = MADE.load(Ordering::Relaxed);
        for s in &schemas {
            std::hint::black_box(Schema::compile_with(s, opts).ok());
        }
        let made = (MADE.load(Ordering::Relaxed) - before) as f64;
        println!("| {name} | {:.1} |", made / schemas.len() as f64);
    }

    println!("\nCompile, toolgate against jsonschema (full profile with formats; jsonschema from bytes, formats on), schemas both compile:\n");
    println!(
        "| source | schemas | toolgate µs/schema | jsonschema µs/schema | jsonschema ÷ toolgate |"
    );
    println!("|---|---:|---:|---:|---:|");
    let (_, opts) = &profiles[1];
    let mut by_source: BTreeMap<&str, Vec<&[u8]>> = BTreeMap::new();
    for t in &tools {
        let bytes = t.schema_bytes.as_slice();
        let both =
            Schema::compile_with(bytes, opts).is_ok() && jsonschema_formats(&t.schema).is_ok();
        if both {
            by_source.entry(&t.source).or_default().push(bytes);
        }
    }
    let all: Vec<&[u8]> = by_source.values().flatten().copied().collect();
    let mut rows: Vec<(&str, Vec<&[u8]>)> = vec![("(all)", all)];
    rows.extend(by_source);
    for (source, schemas) in rows {
        let rounds = (2000 / schemas.len()).clamp(15, 200);
        let timed = paired(
            rounds,
            || {
                for s in &schemas {
                    std::hint::black_box(Schema::compile_with(s, opts).ok());
                }
            },
            || {
                for s in &schemas {
                    std::hint::black_box(jsonschema_formats_bytes(s));
                }
            },
        );
        let per = |d: Duration| d.as_secs_f64() * 1e6 / schemas.len() as f64;
        println!(
            "| {source} | {} | {:.1} | {:.1} | {:.2}x |",
            schemas.len(),
            per(timed.ours),
            per(timed.theirs),
            timed.ratio
        );
    }
}
