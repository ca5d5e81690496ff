//! What deep arguments cost: arrays nested 100 to 1023 levels (an input of about
//! 200 KB, as many copies of one nesting as fit), against a recursive schema, a
//! recursive schema under `anyOf` with `unevaluatedItems`, and one that only checks the
//! outer type. Each is validated (`is_valid`) on a thread with an 8 MiB stack, where
//! the walk stays on the thread, and on a 256 KiB one, where each nesting past the
//! room left goes on on a thread of its own. The ratio is the median of paired passes
//! in the same process. (No peer here: serde_json, which the peers read with, stops at
//! 128 levels.)
//! `cargo run -p toolgate-bench --release --bin deep_nesting`.

use std::time::Duration;

use toolgate_bench::timing::paired;
use toolgate_core::{Options, Profile, Schema};

const SCHEMAS: [&str; 3] = [
    r##"{"items":{"$ref":"#"}}"##,
    r##"{"anyOf":[{"items":{"$ref":"#"}}],"unevaluatedItems":false}"##,
    r#"{"type":"array"}"#,
];
const DEPTHS: [usize; 4] = [100, 200, 400, 1023];
const INPUT_BYTES: usize = 200_000;
const ROUNDS: usize = 7;

/// Runs `f` on a new thread with a stack of `stack` bytes and waits for it.
fn on_thread<T: Send>(stack: usize, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .expect("no panic")
    })
}

fn ns_per_byte(t: Duration, bytes: usize) -> f64 {
    t.as_secs_f64() * 1e9 / bytes as f64
}

fn main() {
    let opts = Options::default()
        .with_profile(Profile::Full)
        .with_max_depth(Options::MAX_DEPTH_LIMIT);
    println!(
        "| schema | depth | 8 MiB thread, ns/byte | 256 KiB thread, ns/byte | 256 KiB ÷ 8 MiB |"
    );
    println!("|---|---:|---:|---:|---:|");
    for schema in SCHEMAS {
        let ours = Schema::compile_with(schema.as_bytes(), &opts).expect("compiles");
        for depth in DEPTHS {
            let one = format!("{}0{}", "[".repeat(depth), "]".repeat(depth));
            let copies = (INPUT_BYTES / (one.len() + 1)).max(1);
            let input = format!("[{}]", vec![one.as_str(); copies].join(","));
            let big = || on_thread(8 << 20, || assert!(ours.is_valid(input.as_bytes())));
            let small = || on_thread(256 << 10, || assert!(ours.is_valid(input.as_bytes())));
            let stacks = paired(ROUNDS, big, small);
            println!(
                "| `{schema}` | {depth} | {:.1} | {:.1} | {:.2}x |",
                ns_per_byte(stacks.ours, input.len()),
                ns_per_byte(stacks.theirs, input.len()),
                stacks.ratio,
            );
        }
    }
}
