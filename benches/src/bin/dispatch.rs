//! The dispatcher's cost: 8 calls of a 1 ms handler dispatched together against the
//! same 8 called one after another, and the per-call overhead of `dispatch` over `call`
//! on a handler that does nothing. `cargo run -p toolgate-bench --release --bin dispatch`.

use std::time::{Duration, Instant};

use toolgate_core::registry::{Call, DispatchOptions};
use toolgate_core::{CallContext, Registry, ToolSpec};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let registry = Registry::default();
    let spec = |name: &str| ToolSpec {
        name: name.into(),
        ..ToolSpec::default()
    };
    let sleep = |_: &[u8], _: &CallContext| {
        std::thread::sleep(Duration::from_millis(1));
        Ok("slept".to_string())
    };
    registry
        .register(spec("sleep"), Box::new(sleep), false)
        .unwrap();
    let noop = |_: &[u8], _: &CallContext| Ok(String::new());
    registry
        .register(spec("noop"), Box::new(noop), false)
        .unwrap();

    let ids: Vec<String> = (0..8).map(|i| format!("call_{i}")).collect();
    let calls: Vec<Call> = ids.iter().map(|id| Call::new(id, "sleep", b"{}")).collect();
    let options = DispatchOptions::default();
    // Warm the workers up.
    registry.dispatch(&calls, &options);

    let rounds = 200;
    let together = median(
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                registry.dispatch(&calls, &options);
                t.elapsed()
            })
            .collect(),
    );
    let in_sequence = median(
        (0..rounds / 4)
            .map(|_| {
                let t = Instant::now();
                for call in &calls {
                    registry.call(call.id, call.name, call.arguments);
                }
                t.elapsed()
            })
            .collect(),
    );
    println!(
        "8 x 1 ms handler: dispatch {:.3} ms, in sequence {:.3} ms, ratio {:.2}",
        together.as_secs_f64() * 1e3,
        in_sequence.as_secs_f64() * 1e3,
        in_sequence.as_secs_f64() / together.as_secs_f64()
    );

    let one = [Call::new("call_0", "noop", b"{}")];
    let n = 20_000;
    for _ in 0..1000 {
        registry.dispatch(&one, &options);
    }
    let per = |f: &dyn Fn()| {
        median(
            (0..7)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..n {
                        f();
                    }
                    t.elapsed() / n
                })
                .collect(),
        )
    };
    let call = per(&|| {
        std::hint::black_box(registry.call("call_0", "noop", b"{}"));
    });
    let dispatch = per(&|| {
        std::hint::black_box(registry.dispatch(&one, &options));
    });
    println!(
        "no-op handler, one call: call {:.2} us, dispatch {:.2} us, overhead {:.2} us, ratio {:.1}",
        call.as_secs_f64() * 1e6,
        dispatch.as_secs_f64() * 1e6,
        (dispatch.as_secs_f64() - call.as_secs_f64()) * 1e6,
        dispatch.as_secs_f64() / call.as_secs_f64()
    );
    let eight: Vec<Call> = ids.iter().map(|id| Call::new(id, "noop", b"{}")).collect();
    let call8 = per(&|| {
        for c in &eight {
            std::hint::black_box(registry.call(c.id, c.name, c.arguments));
        }
    });
    let dispatch8 = per(&|| {
        std::hint::black_box(registry.dispatch(&eight, &options));
    });
    println!(
        "no-op handler, 8 calls: call x8 {:.2} us, dispatch {:.2} us, per call overhead {:.2} us",
        call8.as_secs_f64() * 1e6,
        dispatch8.as_secs_f64() * 1e6,
        (dispatch8.as_secs_f64() - call8.as_secs_f64()) * 1e6 / 8.0
    );
}
