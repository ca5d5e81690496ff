//! What streaming costs and what it saves, on the real-world tool mix
//! (`realworld-tools/tools.jsonl`, one generated valid call per tool, core profile):
//!
//! - cost: the time of a stream fed each call in 16-byte chunks and finished, over the
//!   time of `validate_json` on the whole call (the median of the rounds' ratios, the
//!   two run moments apart in each round); and the same for 64-byte chunks and for the
//!   whole call in one feed; on the mix, then on the non-ASCII mix (the same tools'
//!   calls with their free text in accented Latin, Greek, Cyrillic, CJK and emoji);
//!   beside them, the peer `actson` (an incremental parser that checks syntax only)
//!   fed the same chunks, and the least a stream that refuses nothing early costs: the
//!   16-byte chunks appended to a buffer kept between calls, then `validate_json`;
//! - saving: for invalid calls (the generator's mutants of each call: wrong type,
//!   missing required, extra property, out of bounds, bad enum, ...), the share of the
//!   call's bytes read when the stream refused it (1 when only `finish` did): the
//!   median over all invalid calls, the share refused before their last byte, and the
//!   median per kind of mutant.
//!
//! `cargo run -p toolgate-bench --release --bin stream`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use actson::feeder::PushJsonFeeder;
use actson::{JsonEvent, JsonParser};
use serde_json::Value;
use toolgate_bench::instances::{generate, mutants, Rng, Strings};
use toolgate_bench::mix::{build_mix, realworld_or_skip, Mix};
use toolgate_bench::timing::median;
use toolgate_bench::{buffered, streamed};
use toolgate_core::{Options, Schema};

const ROUNDS: usize = 21;
const PASSES: usize = 200;
/// Chunk sizes: a provider's small deltas, larger ones, and the whole call at once.
const CHUNKS: [(usize, &str); 3] = [
    (16, "16-byte chunks"),
    (64, "64-byte chunks"),
    (usize::MAX, "one feed"),
];

/// `call` pushed to `parser` (reset first) in chunks of `chunk` bytes and parsed to
/// its end: the number of events, the values and names it read.
fn actson_events(parser: &mut JsonParser<PushJsonFeeder>, call: &[u8], chunk: usize) -> usize {
    parser.reset_fully();
    let (mut pushed, mut events) = (0, 0);
    while let Some(event) = parser.next_event().expect("a valid call") {
        match event {
            JsonEvent::NeedMoreInput => {
                let end = pushed + chunk.min(call.len() - pushed);
                pushed += parser.feeder.push_bytes(&call[pushed..end]);
                if pushed == call.len() {
                    parser.feeder.done();
                }
            }
            _ => events += 1,
        }
    }
    events
}

/// What streaming `mix`'s calls costs, against `validate_json` of each whole call and
/// against the peer, fed the same chunks; printed under `label`.
fn cost(label: &str, mix: &Mix) {
    let calls: Vec<(&Schema, &[u8])> = mix
        .tools
        .iter()
        .map(|t| (&t.toolgate, &t.call[..]))
        .collect();
    println!(
        "{label}: {} tools, mean call {:.0} bytes",
        calls.len(),
        mix.mean_call_bytes()
    );

    let mut ratios = vec![Vec::new(); CHUNKS.len()];
    let mut stream_ns = vec![Vec::new(); CHUNKS.len()];
    let mut whole_ns = Vec::new();
    let mut peer_ratios = vec![Vec::new(); CHUNKS.len()];
    let mut peer_ns = vec![Vec::new(); CHUNKS.len()];
    let mut against_peer = vec![Vec::new(); CHUNKS.len()];
    let mut buffered_ratios = Vec::new();
    let mut buffer = Vec::new();
    let mut parser = JsonParser::new(PushJsonFeeder::new());
    let per_call = (PASSES * calls.len()) as f64;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for _ in 0..PASSES {
            for (s, call) in &calls {
                black_box(s.validate_json(black_box(call)));
            }
        }
        let whole = t.elapsed().as_secs_f64();
        whole_ns.push(whole * 1e9 / per_call);
        let t = Instant::now();
        for _ in 0..PASSES {
            for (s, call) in &calls {
                black_box(buffered(s, black_box(call), 16, &mut buffer));
            }
        }
        buffered_ratios.push(t.elapsed().as_secs_f64() / whole);
        for (i, &(chunk, _)) in CHUNKS.iter().enumerate() {
            let t = Instant::now();
            for _ in 0..PASSES {
                for (s, call) in &calls {
                    black_box(streamed(s, black_box(call), chunk));
                }
            }
            let stream = t.elapsed().as_secs_f64();
            ratios[i].push(stream / whole);
            stream_ns[i].push(stream * 1e9 / per_call);
            let t = Instant::now();
            for _ in 0..PASSES {
                for (_, call) in &calls {
                    black_box(actson_events(&mut parser, black_box(call), chunk));
                }
            }
            let peer = t.elapsed().as_secs_f64();
            peer_ratios[i].push(peer / whole);
            peer_ns[i].push(peer * 1e9 / per_call);
            against_peer[i].push(stream / peer);
        }
    }
    println!("validate_json: {:.0} ns per call", median(whole_ns));
    println!(
        "floor: 16-byte chunks kept in a buffer, then validate_json (refuses nothing early) / validate_json on the whole call: {:.2}x",
        median(buffered_ratios)
    );
    for (i, (_, label)) in CHUNKS.iter().enumerate() {
        println!(
            "cost: stream in {label} + finish / validate_json on the whole call: {:.2}x ({:.0} ns per call; median of {ROUNDS} rounds)",
            median(ratios[i].clone()),
            median(stream_ns[i].clone())
        );
    }
    for (i, (_, label)) in CHUNKS.iter().enumerate() {
        println!(
            "peer: actson (syntax only) in {label} / validate_json on the whole call: {:.2}x ({:.0} ns per call); toolgate's stream / actson: {:.2}x",
            median(peer_ratios[i].clone()),
            median(peer_ns[i].clone()),
            median(against_peer[i].clone())
        );
    }
}

fn main() {
    let Some(tools) = realworld_or_skip() else {
        return;
    };
    let opts = Options::default();
    let mix = build_mix(&tools, &opts, Strings::Ascii);
    cost("mix", &mix);
    // The same calls' free text in accented Latin, Greek, Cyrillic, CJK and emoji:
    // what UTF-8 costs a stream, which checks it byte by byte.
    cost(
        "non-ASCII mix",
        &build_mix(&tools, &opts, Strings::NonAscii),
    );

    let mut shares = Vec::new();
    let mut early = 0usize;
    let mut by_kind: BTreeMap<&'static str, Vec<f64>> = BTreeMap::new();
    for (i, t) in mix.tools.iter().enumerate() {
        let schema_value: Value = serde_json::from_slice(&t.schema_bytes).expect("schema");
        let g = generate(&schema_value, i as u64 + 1, Strings::Ascii);
        let mut rng = Rng::new(i as u64 + 11);
        for m in mutants(&g, &mut rng) {
            if t.toolgate.validate_json(&m.bytes).is_empty() {
                continue;
            }
            let mut stream = t.toolgate.stream();
            for b in m.bytes.chunks(1) {
                if stream.feed(b).is_refused() {
                    break;
                }
            }
            let share = match stream.bytes_before_refusal() {
                Some(n) => n as f64 / m.bytes.len() as f64,
                None => 1.0,
            };
            if share < 1.0 {
                early += 1;
            }
            shares.push(share);
            by_kind.entry(m.kind.label()).or_default().push(share);
        }
    }
    println!(
        "saving: {} invalid calls, {} ({:.0}%) refused before their last byte; median share of bytes read before the refusal: {:.2}",
        shares.len(),
        early,
        100.0 * early as f64 / shares.len().max(1) as f64,
        median(shares.clone())
    );
    for (kind, v) in by_kind {
        println!(
            "  {kind:<18} {:>5} calls, median share {:.2}",
            v.len(),
            median(v)
        );
    }
}
