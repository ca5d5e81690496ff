//! Criterion: a full `Registry::call` (lookup, validate, handler, result), and
//! `Registry::call_into` with one reused result, against
//! `is_valid` alone and against `BareDispatch` (the least any dispatcher does) on the
//! same input, with 10 and 10,000 tools registered, and the
//! throughput of 1 and 2 threads calling at once.
//! `cargo bench -p toolgate-bench --bench registry`

use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use toolgate_bench::*;

/// (label, tool, schema, instance) of every input measured here.
fn inputs() -> [(&'static str, &'static str, &'static str, &'static str); 2] {
    [
        (
            "get_weather_valid",
            "get_weather",
            weather().schema,
            weather().valid,
        ),
        (
            "search_flights_valid",
            "search_flights",
            flight().schema,
            flight().valid,
        ),
    ]
}

fn call_vs_is_valid(c: &mut Criterion) {
    let regs = [
        (10usize, registry_with(10)),
        (10_000, registry_with(10_000)),
    ];
    for (label, tool, schema, instance) in inputs() {
        let compiled = Compiled::new(schema);
        let input = instance.as_bytes();
        let mut g = c.benchmark_group(format!("registry_{label}"));
        g.bench_function("is_valid", |b| {
            b.iter(|| toolgate_is_valid(&compiled.toolgate, black_box(input)))
        });
        for n in [10usize, 10_000] {
            let bare = BareDispatch::with(n);
            let mut reused = toolgate_core::CallResult::default();
            assert!(
                bare.call_into(tool, input, &mut reused),
                "{label}: bare call must succeed"
            );
            g.bench_with_input(BenchmarkId::new("bare", n), &bare, |b, bare| {
                b.iter(|| bare.call_into(tool, black_box(input), &mut reused))
            });
        }
        for (n, reg) in &regs {
            assert!(
                registry_call(reg, tool, input),
                "{label}: call must succeed"
            );
            g.bench_with_input(BenchmarkId::new("call", n), reg, |b, reg| {
                b.iter(|| registry_call(reg, tool, black_box(input)))
            });
            let mut reused = toolgate_core::CallResult::default();
            g.bench_with_input(BenchmarkId::new("call_into", n), reg, |b, reg| {
                b.iter(|| registry_call_into(reg, tool, black_box(input), &mut reused))
            });
        }
        g.finish();
    }
}

/// Wall time for `total` calls split over `threads` threads.
fn threaded(reg: &toolgate_core::Registry, threads: usize, total: u64) -> Duration {
    let per = (total / threads as u64).max(1);
    // Looked up once: the timed loop touches only the bytes.
    let input = flight().valid.as_bytes();
    let barrier = Barrier::new(threads + 1);
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                s.spawn(move || {
                    barrier.wait();
                    for _ in 0..per {
                        black_box(registry_call(reg, "search_flights", black_box(input)));
                    }
                })
            })
            .collect();
        barrier.wait();
        let t = Instant::now();
        for h in hs {
            h.join().expect("bench thread");
        }
        t.elapsed()
    })
}

fn threads(c: &mut Criterion) {
    let reg = registry_with(10);
    let mut g = c.benchmark_group("registry_threads_search_flights_valid");
    // Time per call: with 2 threads it should be about half that of 1.
    g.throughput(Throughput::Elements(1));
    for t in [1usize, 2] {
        g.bench_with_input(BenchmarkId::new("threads", t), &t, |b, &t| {
            b.iter_custom(|iters| threaded(&reg, t, iters.max(t as u64)))
        });
    }
    g.finish();
}

criterion_group!(benches, call_vs_is_valid, threads);
criterion_main!(benches);
