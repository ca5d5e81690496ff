//! Criterion: validation of the same `&[u8]` inputs by every contender.
//! `cargo bench -p toolgate-bench --bench validate`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use toolgate_bench::*;

fn validate(c: &mut Criterion) {
    for case in cases() {
        let compiled = Compiled::new(case.schema);
        let input = case.instance.as_bytes();
        let mut g = c.benchmark_group(case.name.replace(' ', "_"));
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function("floor_parse", |b| b.iter(|| floor_parse(black_box(input))));
        g.bench_function("toolgate_is_valid", |b| {
            b.iter(|| toolgate_is_valid(&compiled.toolgate, black_box(input)))
        });
        g.bench_function("toolgate_validate_json", |b| {
            b.iter(|| toolgate_validate_json(&compiled.toolgate, black_box(input)))
        });
        g.bench_function("jsonschema_parse_is_valid", |b| {
            b.iter(|| jsonschema_is_valid(&compiled.jsonschema, black_box(input)))
        });
        g.bench_function("jsonschema_parse_iter_errors", |b| {
            b.iter(|| jsonschema_errors(&compiled.jsonschema, black_box(input)))
        });
        g.bench_function("boon_parse_validate", |b| {
            b.iter(|| boon_is_valid(&compiled.boon, black_box(input)))
        });
        g.bench_function("boon_parse_errors", |b| {
            b.iter(|| boon_errors(&compiled.boon, black_box(input)))
        });
        g.finish();
    }
}

fn check(c: &mut Criterion) {
    // Verdicts are checked once before anything is timed.
    let _ = c;
    let _ = sanity_report();
}

criterion_group!(benches, check, validate);
criterion_main!(benches);
