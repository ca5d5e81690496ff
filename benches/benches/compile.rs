//! Criterion: compiling the two realistic tool schemas (~2 KB and ~1.5 KB as written).
//! `cargo bench -p toolgate-bench --bench compile`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
use toolgate_bench::*;

fn compile(c: &mut Criterion) {
    for (name, schema) in [
        ("search_flights", flight().schema),
        ("create_calendar_event", event().schema),
    ] {
        let bytes = schema.as_bytes();
        let value: Value = serde_json::from_slice(bytes).expect("schema is JSON");
        let mut g = c.benchmark_group(format!("compile_{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("toolgate_compile", |b| {
            b.iter(|| toolgate_compile(black_box(bytes)).expect("toolgate compiles"))
        });
        g.bench_function("jsonschema_validator_for_value", |b| {
            b.iter(|| jsonschema_compile_value(black_box(&value)))
        });
        g.bench_function("jsonschema_parse_validator_for", |b| {
            b.iter(|| jsonschema_compile_bytes(black_box(bytes)))
        });
        g.bench_function("boon_compile_value_clone", |b| {
            b.iter(|| boon_compile(black_box(&value).clone()))
        });
        g.bench_function("boon_parse_compile", |b| {
            b.iter(|| boon_compile_bytes(black_box(bytes)))
        });
        g.finish();
    }
}

criterion_group!(benches, compile);
criterion_main!(benches);
