//! The dispatcher's cost, in one process: 8 calls of a 1 ms handler dispatched together
//! against the same 8 called one after another (target: at most 1.3 ms together, against
//! about 8 ms in sequence), and the per-call overhead of `dispatch` over `call` on a
//! handler that does nothing, once through the Rust API and once through the C surface
//! (`tg_registry_dispatch` against `tg_registry_call`, with a C handler), each as
//! absolute ns and as a ratio. `cargo run -p toolgate-bench --release --bin dispatch`.

use std::ffi::{c_char, c_void};
use std::time::{Duration, Instant};

use toolgate::dispatch::tg_registry_dispatch;
use toolgate::registry::{
    tg_registry_call, tg_registry_free, tg_registry_new, tg_registry_register,
};
use toolgate::result::tg_result_free;
use toolgate::{tg_call, tg_handler_fn, tg_registry, tg_reply, tg_result, tg_status, tg_tool_def};
use toolgate_bench::timing::median;
use toolgate_core::registry::{Call, DispatchOptions};
use toolgate_core::{CallContext, Registry, ToolSpec};

/// The most the 8 × 1 ms dispatch may take.
const TARGET_8X1MS: Duration = Duration::from_micros(1300);

/// The median over 7 samples of one run of `f`, each sample the mean of `n` runs.
fn per_run(n: u32, f: &dyn Fn()) -> Duration {
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
}

/// The median wall time of `rounds` runs of `f`.
fn per_round(rounds: usize, f: &dyn Fn()) -> Duration {
    median(
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn ns(d: Duration) -> f64 {
    d.as_secs_f64() * 1e9
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One line: `call` against `dispatch`, absolute and as a ratio, the overhead per call.
fn report(label: &str, calls: usize, call: Duration, dispatch: Duration) {
    println!(
        "{label}: call {:.0} ns, dispatch {:.0} ns, overhead per call {:.0} ns, ratio {:.2}",
        ns(call),
        ns(dispatch),
        (ns(dispatch) - ns(call)) / calls as f64,
        ns(dispatch) / ns(call)
    );
}

fn report_sleep(label: &str, together: Duration, in_sequence: Duration) {
    println!(
        "{label}: dispatch {:.3} ms, in sequence {:.3} ms, ratio {:.2} ({} against {:.1} ms)",
        ms(together),
        ms(in_sequence),
        in_sequence.as_secs_f64() / together.as_secs_f64(),
        if together <= TARGET_8X1MS {
            "PASS"
        } else {
            "MISS"
        },
        ms(TARGET_8X1MS)
    );
}

fn main() {
    rust_api();
    c_surface();
}

fn rust_api() {
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

    let together = per_round(200, &|| {
        std::hint::black_box(registry.dispatch(&calls, &options));
    });
    let in_sequence = per_round(50, &|| {
        for call in &calls {
            std::hint::black_box(registry.call(call.id, call.name, call.arguments));
        }
    });
    report_sleep("Rust, 8 x 1 ms handler", together, in_sequence);

    let one = [Call::new("call_0", "noop", b"{}")];
    let n = 20_000;
    for _ in 0..1000 {
        registry.dispatch(&one, &options);
    }
    let call = per_run(n, &|| {
        std::hint::black_box(registry.call("call_0", "noop", b"{}"));
    });
    let dispatch = per_run(n, &|| {
        std::hint::black_box(registry.dispatch(&one, &options));
    });
    report("Rust, no-op handler, 1 call", 1, call, dispatch);
    let eight: Vec<Call> = ids.iter().map(|id| Call::new(id, "noop", b"{}")).collect();
    let call8 = per_run(n / 8, &|| {
        for c in &eight {
            std::hint::black_box(registry.call(c.id, c.name, c.arguments));
        }
    });
    let dispatch8 = per_run(n / 8, &|| {
        std::hint::black_box(registry.dispatch(&eight, &options));
    });
    report("Rust, no-op handler, 8 calls", 8, call8, dispatch8);
}

/// A C handler that answers nothing (the empty answer).
unsafe extern "C" fn c_noop(
    _user_data: *mut c_void,
    _call_ctx: *mut c_void,
    _args: *const c_char,
    _args_len: usize,
    _reply: *mut tg_reply,
) -> i32 {
    tg_status::TG_OK as i32
}

/// A C handler that sleeps 1 ms.
unsafe extern "C" fn c_sleep(
    _user_data: *mut c_void,
    _call_ctx: *mut c_void,
    _args: *const c_char,
    _args_len: usize,
    _reply: *mut tg_reply,
) -> i32 {
    std::thread::sleep(Duration::from_millis(1));
    tg_status::TG_OK as i32
}

/// The C registry, its two tools registered.
struct CRegistry(*mut tg_registry);

impl CRegistry {
    fn new() -> CRegistry {
        let mut reg = std::ptr::null_mut();
        // SAFETY: `reg` is a writable out-pointer; NULL error_out is allowed.
        let status = unsafe { tg_registry_new(0, &mut reg, std::ptr::null_mut()) };
        assert_eq!(status, tg_status::TG_OK);
        let tools: [(&str, tg_handler_fn); 2] = [("noop", Some(c_noop)), ("sleep", Some(c_sleep))];
        for (name, handler) in tools {
            let def = tg_tool_def {
                name: name.as_ptr().cast(),
                name_len: name.len(),
                description: std::ptr::null(),
                description_len: 0,
                parameters: std::ptr::null(),
                parameters_len: 0,
                idempotent: false,
                timeout_ms: 0,
            };
            // SAFETY: `reg` is live; `def`'s texts are static; the handler is a C
            // function that touches none of its pointers but returns a status; no
            // user_data and no destructor.
            let status = unsafe {
                tg_registry_register(
                    reg,
                    &def,
                    handler,
                    std::ptr::null_mut(),
                    None,
                    0,
                    std::ptr::null_mut(),
                )
            };
            assert_eq!(status, tg_status::TG_OK);
        }
        CRegistry(reg)
    }

    /// `tg_registry_call` of one call, its result freed.
    fn call(&self, call: &tg_call) {
        let mut result: *mut tg_result = std::ptr::null_mut();
        // SAFETY: the registry is live; the call's texts point to their lengths'
        // bytes (static strings); `result` is a writable out-pointer.
        let status = unsafe {
            tg_registry_call(
                self.0,
                call.id,
                call.id_len,
                call.name,
                call.name_len,
                call.args,
                call.args_len,
                std::ptr::null_mut(),
                &mut result,
                std::ptr::null_mut(),
            )
        };
        debug_assert_eq!(status, tg_status::TG_OK);
        // SAFETY: a result this library returned, freed once.
        unsafe { tg_result_free(std::hint::black_box(result)) };
    }

    /// `tg_registry_dispatch` of `calls` (at most 8), every result freed.
    fn dispatch(&self, calls: &[tg_call]) {
        let mut results: [*mut tg_result; 8] = [std::ptr::null_mut(); 8];
        assert!(calls.len() <= results.len());
        // SAFETY: the registry is live; `calls` holds `calls.len()` calls whose texts
        // point to their lengths' bytes; NULL options mean the defaults; `results`
        // has room for every call.
        let status = unsafe {
            tg_registry_dispatch(
                self.0,
                calls.as_ptr(),
                calls.len(),
                std::ptr::null(),
                std::ptr::null_mut(),
                results.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        debug_assert_eq!(status, tg_status::TG_OK);
        for result in &results[..calls.len()] {
            // SAFETY: each a result this library wrote, freed once.
            unsafe { tg_result_free(std::hint::black_box(*result)) };
        }
    }
}

impl Drop for CRegistry {
    fn drop(&mut self) {
        // SAFETY: the registry this value made, no call on it running.
        unsafe { tg_registry_free(self.0) };
    }
}

/// A `tg_call` of static texts.
fn c_call(id: &'static str, name: &'static str) -> tg_call {
    let args = "{}";
    tg_call {
        id: id.as_ptr().cast(),
        id_len: id.len(),
        name: name.as_ptr().cast(),
        name_len: name.len(),
        args: args.as_ptr().cast(),
        args_len: args.len(),
    }
}

fn c_surface() {
    const IDS: [&str; 8] = [
        "call_0", "call_1", "call_2", "call_3", "call_4", "call_5", "call_6", "call_7",
    ];
    let registry = CRegistry::new();
    let sleeps: Vec<tg_call> = IDS.iter().map(|id| c_call(id, "sleep")).collect();
    registry.dispatch(&sleeps);
    let together = per_round(200, &|| registry.dispatch(&sleeps));
    let in_sequence = per_round(50, &|| sleeps.iter().for_each(|c| registry.call(c)));
    report_sleep("C, 8 x 1 ms handler", together, in_sequence);

    let one = [c_call("call_0", "noop")];
    let n = 20_000;
    for _ in 0..1000 {
        registry.dispatch(&one);
    }
    let call = per_run(n, &|| registry.call(&one[0]));
    let dispatch = per_run(n, &|| registry.dispatch(&one));
    report("C, no-op handler, 1 call", 1, call, dispatch);
    let eight: Vec<tg_call> = IDS.iter().map(|id| c_call(id, "noop")).collect();
    let call8 = per_run(n / 8, &|| eight.iter().for_each(|c| registry.call(c)));
    let dispatch8 = per_run(n / 8, &|| registry.dispatch(&eight));
    report("C, no-op handler, 8 calls", 8, call8, dispatch8);
}
