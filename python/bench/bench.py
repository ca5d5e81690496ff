"""toolgate against what a Python developer would use instead, on the raw JSON text
a model sends as a tool call's arguments.

Every contender starts from the same ``str`` (what an LLM SDK hands over) and answers
the same question:

* toolgate         ``Schema.is_valid(text)`` / ``Schema.validate(text)``: the core
                   reads and validates the text in one pass
* json.loads       alone: the floor every peer pays before validating
* jsonschema-rs    ``json.loads`` + a pre-built validator's ``is_valid`` /
                   ``list(iter_errors)`` (it validates Python values)
* fastjsonschema   ``json.loads`` + the compiled function (it raises on the first
                   error, so its error list has one entry)
* jsonschema       ``json.loads`` + ``Draft202012Validator.is_valid`` /
                   ``list(iter_errors)``
* pydantic         ``TypeAdapter(Model).validate_json(text)``, a strict model that
                   accepts exactly what the schema accepts (``extra="forbid"``, no
                   coercion, optional fields absent rather than null); its error list
                   is ``ValidationError.errors()``

and for the registry, ``ToolRegistry.call`` / ``acall`` against the dispatcher a
developer writes in ten lines: a dict lookup, ``json.loads``, jsonschema-rs
``iter_errors`` and ``handler(**kwargs)``, answering a tuple.

Measurement: one process; each row's contenders run interleaved round-robin for
``--rounds`` rounds, each run lasting about ``--target`` seconds; a row reports each
contender's median ns/op and, for every peer, the median over rounds of the per-round
ratio peer/toolgate (so a round disturbed by other load moves both sides of its own
ratio). The clock is this thread's CPU time (``--clock wall`` for wall time). Every
contender's verdict (and error count) is checked before timing.

Usage: ``python bench/bench.py [--rounds 25] [--target 0.02] [--markdown RESULTS.md]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import toolgate

try:
    import jsonschema
except ImportError:  # pragma: no cover
    jsonschema = None
try:
    import fastjsonschema
except ImportError:  # pragma: no cover
    fastjsonschema = None
try:
    import jsonschema_rs
except ImportError:  # pragma: no cover
    jsonschema_rs = None
try:
    import pydantic
except ImportError:  # pragma: no cover
    pydantic = None

from inputs import CASES, MODELS

# --- measurement --------------------------------------------------------------

CLOCK = time.thread_time


def timed(fn: Callable[[], object], number: int) -> float:
    """Seconds per call of ``fn`` over ``number`` calls."""
    clock = CLOCK
    start = clock()
    for _ in range(number):
        fn()
    return (clock() - start) / number


def calibrate(fn: Callable[[], object], target: float) -> int:
    number = 1
    while True:
        elapsed = timed(fn, number) * number
        if elapsed >= target / 4 or number >= 10_000_000:
            return max(1, int(number * target / max(elapsed, 1e-9)))
        number *= 4


class Row:
    """One measured row: contenders by name, the first being toolgate's."""

    def __init__(self, title: str, fns: Dict[str, Callable[[], object]]) -> None:
        self.title = title
        self.fns = fns
        self.samples: Dict[str, List[float]] = {name: [] for name in fns}

    def run(self, rounds: int, target: float) -> "Row":
        numbers = {name: calibrate(fn, target) for name, fn in self.fns.items()}
        for _ in range(rounds):
            for name, fn in self.fns.items():
                self.samples[name].append(timed(fn, numbers[name]) * 1e9)
        return self

    @property
    def base(self) -> str:
        return next(iter(self.fns))

    def ns(self, name: str) -> float:
        return statistics.median(self.samples[name])

    def ratio(self, peer: str) -> float:
        """Median over rounds of peer time / toolgate time (> 1: toolgate faster)."""
        base = self.samples[self.base]
        return statistics.median(p / b for p, b in zip(self.samples[peer], base))


# --- contenders -----------------------------------------------------------------

loads = json.loads


def validators(case) -> Dict[str, Tuple[Callable[[str], bool], Callable[[str], int]]]:
    """name -> (is_valid(text), number of errors listed for text)."""
    out: Dict[str, Tuple[Callable[[str], bool], Callable[[str], int]]] = {}
    schema = toolgate.compile(case.schema)
    tg_validate = schema.validate
    out["toolgate"] = (schema.is_valid, lambda t: 0 if tg_validate(t) is toolgate.OK else len(tg_validate(t)))
    if jsonschema_rs is not None:
        rv = jsonschema_rs.validator_for(case.schema)
        rv_valid, rv_iter = rv.is_valid, rv.iter_errors
        out["jsonschema-rs"] = (lambda t: rv_valid(loads(t)), lambda t: len(list(rv_iter(loads(t)))))
    if fastjsonschema is not None:
        fv = fastjsonschema.compile(case.schema)
        exc = fastjsonschema.JsonSchemaValueException

        def fj_valid(t: str) -> bool:
            try:
                fv(loads(t))
                return True
            except exc:
                return False

        def fj_errors(t: str) -> int:
            try:
                fv(loads(t))
                return 0
            except exc:
                return 1

        out["fastjsonschema"] = (fj_valid, fj_errors)
    if jsonschema is not None:
        v = jsonschema.Draft202012Validator(case.schema)
        v_valid, v_iter = v.is_valid, v.iter_errors
        out["jsonschema"] = (lambda t: v_valid(loads(t)), lambda t: len(list(v_iter(loads(t)))))
    if pydantic is not None:
        adapter = pydantic.TypeAdapter(MODELS[case.tool])
        pv = adapter.validate_json
        perr = pydantic.ValidationError

        def pd_valid(t: str) -> bool:
            try:
                pv(t)
                return True
            except perr:
                return False

        def pd_errors(t: str) -> int:
            try:
                pv(t)
                return 0
            except perr as e:
                return len(e.errors())

        out["pydantic"] = (pd_valid, pd_errors)
    return out


def check(case, vs) -> Dict[str, int]:
    counts = {}
    for name, (is_valid, errors) in vs.items():
        got = is_valid(case.text)
        if got is not case.valid:
            raise SystemExit(f"{name} says {got} for {case.title}; expected {case.valid}")
        counts[name] = errors(case.text)
        if (counts[name] == 0) is not case.valid:
            raise SystemExit(f"{name} lists {counts[name]} errors for {case.title}")
    return counts


# --- the registry and the plain dispatcher ------------------------------------


def answer(**kwargs: Any) -> str:
    return "ok"


async def answer_async(**kwargs: Any) -> str:
    return "ok"


class PlainDispatcher:
    """What a developer writes instead of a registry."""

    def __init__(self) -> None:
        self.tools: Dict[str, Tuple[Any, Callable[..., Any]]] = {}

    def register(self, name: str, schema: dict, handler: Callable[..., Any]) -> None:
        self.tools[name] = (jsonschema_rs.validator_for(schema), handler)

    def _check(self, call_id: str, name: str, args: str):
        entry = self.tools.get(name)
        if entry is None:
            return None, (call_id, name, f"error: unknown tool {name!r}", True)
        validator, handler = entry
        try:
            kwargs = json.loads(args) if args else {}
        except ValueError as e:
            return None, (call_id, name, f"error: invalid arguments for {name}: {e}", True)
        errors = list(validator.iter_errors(kwargs))
        if errors:
            lines = "\n".join(f"{e.instance_path}: {e.message}" for e in errors)
            return None, (call_id, name, f"error: invalid arguments for {name}:\n{lines}", True)
        return (handler, kwargs), None

    def call(self, call_id: str, name: str, args: str):
        ready, refusal = self._check(call_id, name, args)
        if refusal:
            return refusal
        handler, kwargs = ready
        try:
            return (call_id, name, handler(**kwargs), False)
        except Exception as e:
            return (call_id, name, f"error: {e}", True)

    async def acall(self, call_id: str, name: str, args: str):
        ready, refusal = self._check(call_id, name, args)
        if refusal:
            return refusal
        handler, kwargs = ready
        try:
            return (call_id, name, await handler(**kwargs), False)
        except Exception as e:
            return (call_id, name, f"error: {e}", True)


def in_loop(loop: asyncio.AbstractEventLoop, make: Callable[[], Any], batch: int = 64) -> Callable[[], object]:
    """A function running ``batch`` awaits of ``make()`` in one pass of ``loop``; its
    time divided by ``batch`` is the cost of one await (the loop's own is shared)."""

    async def many() -> None:
        for _ in range(batch):
            await make()

    run = loop.run_until_complete
    return lambda: run(many())


# --- GIL release on large arguments -------------------------------------------


def parallel(schema: Any, text: str, threads: int = 2, calls: int = 20) -> Tuple[float, float, float]:
    """(wall time of ``threads * calls`` validations in one thread over the wall time
    of the same work spread over ``threads`` threads (ideal: ``threads``), CPU µs per
    validation alone, CPU µs per validation beside the other threads)."""

    def work(n: int, cpu: List[float]) -> None:
        start = time.thread_time()
        for _ in range(n):
            assert schema.is_valid(text)
        cpu.append((time.thread_time() - start) / n * 1e6)

    alone: List[float] = []
    start = time.perf_counter()
    work(threads * calls, alone)
    one = time.perf_counter() - start
    beside: List[float] = []
    pool = [threading.Thread(target=work, args=(calls, beside)) for _ in range(threads)]
    start = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return one / (time.perf_counter() - start), alone[0], statistics.mean(beside)


# --- the run ------------------------------------------------------------------


def fmt_ns(ns: float) -> str:
    return f"{ns:,.0f}"


def versions() -> str:
    def v(mod: Any, name: str) -> str:
        if mod is None:
            return f"{name} absent"
        try:
            from importlib.metadata import version

            return f"{name} {version(name)}"
        except Exception:
            return f"{name} ?"

    return ", ".join(
        [
            f"Python {platform.python_version()} ({platform.python_implementation()})",
            f"{platform.machine()}, {os.cpu_count()} CPUs",
            f"toolgate {toolgate.__version__} (core {toolgate.library_version})",
            v(jsonschema_rs, "jsonschema-rs"),
            v(fastjsonschema, "fastjsonschema"),
            v(jsonschema, "jsonschema"),
            v(pydantic, "pydantic"),
        ]
    )


def main() -> None:
    global CLOCK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--target", type=float, default=0.02, help="seconds per contender per round")
    ap.add_argument("--clock", choices=["thread", "wall"], default="thread")
    ap.add_argument("--markdown", help="write the tables to this file")
    args = ap.parse_args()
    CLOCK = time.thread_time if args.clock == "thread" else time.perf_counter
    R, T = args.rounds, args.target
    out: List[str] = []

    def emit(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    emit(f"Measured {time.strftime('%Y-%m-%d %H:%M')}: {versions()}.")
    emit(f"{R} interleaved rounds of ~{T}s per contender; clock: {args.clock} time; load average {os.getloadavg()[0]:.1f} at the start.")
    emit()

    # 1. The boolean question.
    peers = ["json.loads", "jsonschema-rs", "fastjsonschema", "jsonschema", "pydantic"]
    emit("### is_valid: is this call's text valid? (ns per call; `peer ÷ toolgate` below each: >1 means toolgate is faster)")
    emit()
    emit("| call | bytes | toolgate `is_valid(str)` | " + " | ".join(peers) + " |")
    emit("|---|---:|---:|" + "---:|" * len(peers))
    results: Dict[Tuple[str, str], Row] = {}
    for case in CASES:
        vs = validators(case)
        counts = check(case, vs)
        text = case.text
        fns: Dict[str, Callable[[], object]] = {"toolgate": (lambda f=vs["toolgate"][0]: f(text))}
        fns["json.loads"] = lambda: loads(text)
        for name in peers[1:]:
            if name in vs:
                fns[name] = lambda f=vs[name][0]: f(text)
        row = Row(case.title, fns).run(R, T)
        results[("valid?", case.title)] = row
        cells = [fmt_ns(row.ns(p)) if p in fns else "—" for p in peers]
        ratios = [f"{row.ratio(p):.2f}x" if p in fns else "—" for p in peers]
        emit(f"| {case.title} | {len(text.encode())} | **{fmt_ns(row.ns('toolgate'))}** | " + " | ".join(cells) + " |")
        emit(f"| ↳ ÷ toolgate | | | " + " | ".join(ratios) + " |")
        case.counts = counts
    emit()

    # 2. The error list.
    epeers = ["jsonschema-rs", "fastjsonschema", "jsonschema", "pydantic"]
    emit("### validate: the list of every violation (ns per call; errors listed in brackets)")
    emit()
    emit("| call | toolgate `validate(str)` | " + " | ".join(epeers) + " |")
    emit("|---|---:|" + "---:|" * len(epeers))
    for case in CASES:
        if case.valid:
            continue
        vs = validators(case)
        text = case.text
        fns = {"toolgate": (lambda f=vs["toolgate"][1]: f(text))}
        for name in epeers:
            if name in vs:
                fns[name] = lambda f=vs[name][1]: f(text)
        row = Row(case.title, fns).run(R, T)
        results[("errors", case.title)] = row
        cells = [f"{fmt_ns(row.ns(p))} [{case.counts[p]}]" if p in fns else "—" for p in epeers]
        ratios = [f"{row.ratio(p):.2f}x" if p in fns else "—" for p in epeers]
        emit(f"| {case.title} | **{fmt_ns(row.ns('toolgate'))}** [{case.counts['toolgate']}] | " + " | ".join(cells) + " |")
        emit("| ↳ ÷ toolgate | | " + " | ".join(ratios) + " |")
    emit()

    # 3. The registry against the plain dispatcher.
    emit("### ToolRegistry.call / acall against the plain dispatcher (ns per call; the handler answers \"ok\")")
    emit()
    emit("| call | toolgate | plain dispatcher | plain ÷ toolgate |")
    emit("|---|---:|---:|---:|")
    registry = toolgate.ToolRegistry(names="default")
    plain = PlainDispatcher()
    for case in CASES:
        if case.tool not in registry:
            registry.register(case.tool, case.schema, answer)
            registry.register(case.tool + "_async", case.schema, answer_async)
            plain.register(case.tool, case.schema, answer)
            plain.register(case.tool + "_async", case.schema, answer_async)
    loop = asyncio.new_event_loop()
    for case in CASES:
        text = case.text
        name = case.tool
        r = registry.call("c1", name, text)
        p = plain.call("c1", name, text)
        assert r.is_error is p[3] is (not case.valid), (r, p)
        row = Row(f"call {case.title}", {
            "toolgate": lambda: registry.call("c1", name, text),
            "plain": lambda: plain.call("c1", name, text),
        }).run(R, T)
        results[("call", case.title)] = row
        emit(f"| `call` {case.title} | **{fmt_ns(row.ns('toolgate'))}** | {fmt_ns(row.ns('plain'))} | {row.ratio('plain'):.2f}x |")
        if case.valid:
            an = name + "_async"
            assert loop.run_until_complete(registry.acall("c1", an, text)).content == "ok"
            batch = 64
            row = Row(f"acall {case.title}", {
                "toolgate": in_loop(loop, lambda: registry.acall("c1", an, text), batch),
                "plain": in_loop(loop, lambda: plain.acall("c1", an, text), batch),
            }).run(R, T)
            for samples in row.samples.values():
                samples[:] = [s / batch for s in samples]
            results[("acall", case.title)] = row
            emit(f"| `acall` {case.title} (async handler) | **{fmt_ns(row.ns('toolgate'))}** | {fmt_ns(row.ns('plain'))} | {row.ratio('plain'):.2f}x |")
    loop.close()
    emit()

    # 4. Threads on large arguments (the GIL is released over 64 KiB).
    big = '{"notes": [' + ",".join(['"' + "y" * 1000 + '"'] * 2000) + "]}"
    schema = toolgate.compile({"type": "object", "properties": {"notes": {"type": "array", "items": {"type": "string", "maxLength": 5000}}}})
    runs = [parallel(schema, big) for _ in range(5)]
    ratios = sorted(r[0] for r in runs)
    emit(f"### Threads: {len(big) >> 20} MiB arguments (the GIL is released over 64 KiB), 2 threads against 1")
    emit()
    emit(
        f"Wall time, 1 thread ÷ 2 threads (2.00x is perfect scaling), median of 5: **{statistics.median(ratios):.2f}x** "
        f"(runs: {', '.join(f'{r:.2f}' for r in ratios)}). CPU time per validation alone "
        f"{statistics.median(r[1] for r in runs):,.0f} µs, beside the other thread {statistics.median(r[2] for r in runs):,.0f} µs; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs."
    )
    emit()

    # 5. The targets.
    def ratio(kind: str, title: str, peer: str) -> float:
        return results[(kind, title)].ratio(peer)

    targets = [
        ("`is_valid` >= 5x faster than `json.loads` + jsonschema-rs, realistic valid calls", 5.0,
         [ratio("valid?", c.title, "jsonschema-rs") for c in CASES if c.realistic and c.valid]),
        ("`is_valid` >= 3x faster than pydantic `validate_json`, realistic valid calls", 3.0,
         [ratio("valid?", c.title, "pydantic") for c in CASES if c.realistic and c.valid and pydantic]),
        ("25-byte call: `is_valid(str)` <= 0.5x `json.loads` alone (json.loads ÷ is_valid >= 2)", 2.0,
         [ratio("valid?", c.title, "json.loads") for c in CASES if len(c.text) == 25]),
        ("`ToolRegistry.call` >= 1.5x faster than the plain dispatcher (valid calls)", 1.5,
         [ratio("call", c.title, "plain") for c in CASES if c.valid]),
        ("errors path >= 3x faster than jsonschema-rs `iter_errors`", 3.0,
         [ratio("errors", c.title, "jsonschema-rs") for c in CASES if not c.valid]),
    ]
    emit("### Targets")
    emit()
    emit("| target | measured (÷, one per call) | met |")
    emit("|---|---|---|")
    for label, need, got in targets:
        met = "yes" if got and min(got) >= need else "**no**"
        emit(f"| {label} | {', '.join(f'{g:.2f}x' for g in got)} | {met} |")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    sys.setswitchinterval(0.005)
    main()
