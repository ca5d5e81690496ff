"""toolgate vs Python's JSON Schema validators, on the raw JSON text a model sends.

Every contender starts from the same ``str`` (what an LLM SDK hands over as the
tool call's ``arguments``) and answers the same question:

* toolgate      ``Schema.is_valid(text)`` / ``Schema.validate(text)`` (the library
                parses and validates the text itself, in one pass)
* jsonschema    ``json.loads(text)`` + a pre-built ``Draft202012Validator``'s
                ``is_valid`` / ``list(iter_errors)``
* fastjsonschema ``json.loads(text)`` + the compiled validator (it raises on the
                first error; ``errors`` mode catches that one exception)
* jsonschema-rs ``json.loads(text)`` + a pre-built validator's ``is_valid`` /
                ``list(iter_errors)`` (it validates Python objects only: it has no
                entry point for raw JSON text)

Modes: ``valid?`` is the boolean question (the hot path of a dispatcher),
``errors`` materializes the error list (what goes back to the model).

Measurement: ``timeit`` in one process, contenders interleaved round-robin for
``--repeat`` rounds, the best round kept (the least disturbed by other load); each
round runs enough iterations to last about ``--target`` seconds. The clock is the
benchmarking thread's CPU time (``time.thread_time``), so time spent descheduled
on a busy machine is not counted (``--clock wall`` for wall time). Before timing,
every contender's verdict is checked against the expected one.

Usage: ``python bench/bench.py [--repeat 40] [--target 0.02] [--markdown RESULTS.md]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import timeit
from typing import Callable, Dict, List, Optional, Tuple

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

# --- inputs -------------------------------------------------------------------

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "unit": {"enum": ["c", "f"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}
WEATHER_VALID = '{"city": "Paris", "days": 3, "unit": "c"}'
WEATHER_INVALID = '{"days": "3", "unit": "kelvin", "country": "FR"}'

CALENDAR_SCHEMA = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1, "maxLength": 200},
        "start": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}"},
        "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440},
        "attendees": {
            "type": "array",
            "maxItems": 50,
            "items": {
                "type": "object",
                "properties": {
                    "email": {"type": "string", "pattern": "^[^@ ]+@[^@ ]+$"},
                    "optional": {"type": "boolean"},
                },
                "required": ["email"],
                "additionalProperties": False,
            },
        },
        "location": {
            "type": "object",
            "properties": {"room": {"type": "string"}, "floor": {"type": "integer", "minimum": 0}},
            "additionalProperties": False,
        },
        "visibility": {"enum": ["default", "public", "private"]},
        "reminders": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "method": {"enum": ["email", "popup"]},
                    "minutes_before": {"type": "number", "minimum": 0, "maximum": 40320},
                },
                "required": ["method", "minutes_before"],
                "additionalProperties": False,
            },
        },
        "notes": {"type": "string", "maxLength": 2000},
    },
    "required": ["title", "start", "duration_minutes"],
    "additionalProperties": False,
}
CALENDAR_VALID = (
    '{"title": "Quarterly planning review", "start": "2025-03-14T15:30:00+01:00", '
    '"duration_minutes": 90, "attendees": [{"email": "ana@example.com"}, '
    '{"email": "li.wei@example.com", "optional": true}, {"email": "sam@example.org"}], '
    '"location": {"room": "Atlas", "floor": 4}, "visibility": "private", '
    '"reminders": [{"method": "popup", "minutes_before": 15}, '
    '{"method": "email", "minutes_before": 1440}], '
    '"notes": "Bring the Q1 numbers and the hiring plan."}'
)
CALENDAR_INVALID = (
    '{"title": "Quarterly planning review", "start": "next friday", '
    '"duration_minutes": "90", "attendees": [{"email": "ana@example.com"}, '
    '{"email": "li.wei", "optional": "yes"}, {"email": "sam@example.org"}], '
    '"location": {"room": "Atlas", "floor": 4}, "visibility": "secret", '
    '"reminders": [{"method": "popup", "minutes_before": 15}, '
    '{"method": "sms", "minutes_before": -5}], "color": "blue"}'
)

CASES = [
    ("get_weather (seed)", "valid", WEATHER_SCHEMA, WEATHER_VALID, True),
    ("get_weather (seed)", "invalid", WEATHER_SCHEMA, WEATHER_INVALID, False),
    ("create_calendar_event", "valid", CALENDAR_SCHEMA, CALENDAR_VALID, True),
    ("create_calendar_event", "invalid", CALENDAR_SCHEMA, CALENDAR_INVALID, False),
]

# --- contenders -----------------------------------------------------------------


def contenders(schema) -> Dict[str, Tuple[Callable[[str], bool], Callable[[str], int]]]:
    """name -> (is_valid(text) -> bool, errors(text) -> number of errors found)."""
    loads = json.loads
    out: Dict[str, Tuple[Callable[[str], bool], Callable[[str], int]]] = {}

    compiled = toolgate.compile(schema)
    tg_is_valid = compiled.is_valid
    tg_validate = compiled.validate

    def tg_errors(text: str) -> int:
        result = tg_validate(text)
        return 0 if result is toolgate.OK else len(result)

    out["toolgate"] = (tg_is_valid, tg_errors)

    if jsonschema is not None:
        v = jsonschema.Draft202012Validator(schema)
        v_is_valid = v.is_valid
        v_iter = v.iter_errors
        out["jsonschema"] = (lambda t: v_is_valid(loads(t)), lambda t: len(list(v_iter(loads(t)))))

    if fastjsonschema is not None:
        fv = fastjsonschema.compile(schema)
        exc = fastjsonschema.JsonSchemaValueException

        def fj_is_valid(t: str) -> bool:
            try:
                fv(loads(t))
                return True
            except exc:
                return False

        def fj_errors(t: str) -> int:
            try:
                fv(loads(t))
                return 0
            except exc as e:  # the first error only: that is all it reports
                return 1 if e.message else 1

        out["fastjsonschema"] = (fj_is_valid, fj_errors)

    if jsonschema_rs is not None:
        rv = jsonschema_rs.validator_for(schema)
        rv_is_valid = rv.is_valid
        rv_iter = rv.iter_errors
        out["jsonschema-rs"] = (lambda t: rv_is_valid(loads(t)), lambda t: len(list(rv_iter(loads(t)))))

    return out


# --- measurement --------------------------------------------------------------


# The clock: CPU time of this thread by default, so that time spent descheduled
# (other work on a shared machine) is not counted; `--clock wall` for wall time.
CLOCK = time.thread_time


def calibrate(fn: Callable[[], object], target: float) -> int:
    number = 1
    while True:
        elapsed = timeit.Timer(fn, timer=CLOCK).timeit(number=number)
        if elapsed >= target / 4 or number >= 10_000_000:
            return max(1, int(number * target / max(elapsed, 1e-9)))
        number *= 4


def measure(fns: Dict[str, Callable[[], object]], repeat: int, target: float) -> Dict[str, float]:
    """Best ns/op of each function, interleaved round-robin."""
    numbers = {name: calibrate(fn, target) for name, fn in fns.items()}
    best = {name: float("inf") for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            n = numbers[name]
            t = timeit.Timer(fn, timer=CLOCK).timeit(number=n) / n * 1e9
            best[name] = min(best[name], t)
    return best


def run(repeat: int, target: float, only: Optional[str]) -> List[dict]:
    rows = []
    for tool, kind, schema, text, expected in CASES:
        if only and only not in tool:
            continue
        cs = contenders(schema)
        for name, (is_valid, errors) in cs.items():
            got = is_valid(text)
            if got is not expected:
                raise SystemExit(f"{name} says {got} for {tool} {kind}; expected {expected}")
            n = errors(text)
            if (n == 0) is not expected:
                raise SystemExit(f"{name} found {n} errors for {tool} {kind}")
        for mode, idx in (("valid?", 0), ("errors", 1)):
            fns = {name: (lambda f=fns_[idx]: f(text)) for name, fns_ in cs.items()}
            times = measure(fns, repeat, target)
            counts = {name: cs[name][1](text) for name in cs}
            rows.append(
                {
                    "tool": tool,
                    "kind": kind,
                    "bytes": len(text.encode()),
                    "mode": mode,
                    "ns": times,
                    "errors": counts,
                }
            )
            report_row(rows[-1])
    return rows


def floors(repeat: int, target: float) -> Dict[str, float]:
    """Where the time goes: the binding's fixed cost and the parse every peer pays."""
    empty = toolgate.compile({"type": "object"})
    calendar = toolgate.compile(CALENDAR_SCHEMA)
    encoded = CALENDAR_VALID.encode()
    fns = {
        "toolgate is_valid, schema {\"type\":\"object\"}, text {} (ctypes + binding floor)": lambda: empty.is_valid("{}"),
        "toolgate is_valid, create_calendar_event valid, bytes in": lambda: calendar.is_valid(encoded),
        "toolgate is_valid, create_calendar_event valid, str in": lambda: calendar.is_valid(CALENDAR_VALID),
        "json.loads of the create_calendar_event valid text (what every peer pays first)": lambda: json.loads(CALENDAR_VALID),
    }
    return measure(fns, repeat, target)


def report_row(row: dict) -> None:
    ns = row["ns"]
    others = {k: v for k, v in ns.items() if k != "toolgate"}
    fastest = min(others, key=others.get) if others else None
    parts = [f"{k} {v:,.0f}" for k, v in ns.items()]
    ratio = f"  toolgate {others[fastest] / ns['toolgate']:.2f}x vs {fastest}" if fastest else ""
    print(f"{row['tool']:22s} {row['kind']:7s} {row['mode']:6s} ns/op: " + ", ".join(parts) + ratio, flush=True)


def markdown(rows: List[dict], repeat: int, target: float, clock: str, floor: Dict[str, float]) -> str:
    names = list(rows[0]["ns"]) if rows else []
    versions = {
        "toolgate": f"{toolgate.__version__} (libtoolgate {toolgate.library_version})",
        "jsonschema": None,
        "fastjsonschema": getattr(fastjsonschema, "VERSION", None) if fastjsonschema else None,
        "jsonschema-rs": None,
    }
    if jsonschema is not None and versions["jsonschema"] is None:
        try:
            from importlib.metadata import version

            versions["jsonschema"] = version("jsonschema")
        except Exception:
            pass
    if jsonschema_rs is not None and versions["jsonschema-rs"] is None:
        try:
            from importlib.metadata import version

            versions["jsonschema-rs"] = version("jsonschema-rs")
        except Exception:
            pass
    lines = [
        "| call | bytes | mode | "
        + " | ".join(f"{n} ns/op" for n in names)
        + " | toolgate vs fastest other | vs fastest listing every error |",
        "|---|---:|---|" + "---:|" * len(names) + "---|---|",
    ]
    for r in rows:
        others = {k: v for k, v in r["ns"].items() if k != "toolgate"}
        fastest = min(others, key=others.get)
        cells = []
        for n in names:
            cell = f"{r['ns'][n]:,.0f}"
            if n == "toolgate":
                cell = f"**{cell}**"
            cells.append(cell)
        ratio = others[fastest] / r["ns"]["toolgate"]
        full = "="
        if r["mode"] == "errors" and r["kind"] == "invalid":
            # fastjsonschema stops at the first error: compare with the peers that
            # return the whole list, as toolgate does.
            complete = {k: v for k, v in others.items() if r["errors"][k] >= r["errors"]["toolgate"]}
            if complete:
                best = min(complete, key=complete.get)
                full = f"{complete[best] / r['ns']['toolgate']:.2f}x ({best})"
            else:
                full = "n/a"
        lines.append(
            f"| {r['tool']} {r['kind']} | {r['bytes']} | {r['mode']} | "
            + " | ".join(cells)
            + f" | **{ratio:.2f}x** ({fastest}) | {full} |"
        )
    env = (
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {os.cpu_count()} CPUs, load average "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} at the end of the run"
    )
    vers = ", ".join(f"{k} {v}" for k, v in versions.items() if v)
    return "\n".join(
        [
            f"Measured {time.strftime('%Y-%m-%d %H:%M')}: {env}; {vers}.",
            f"Best of {repeat} interleaved rounds of ~{target}s each, same process, same input text; "
            + ("clock: CPU time of the benchmarking thread (time.thread_time)." if clock == "cpu" else "clock: wall time."),
            "",
            *lines,
            "",
            "| errors reported on the invalid calls | " + " | ".join(names) + " |",
            "|---|" + "---:|" * len(names),
            *[
                f"| {r['tool']} invalid | " + " | ".join(str(r["errors"][n]) for n in names) + " |"
                for r in rows
                if r["kind"] == "invalid" and r["mode"] == "errors"
            ],
            "",
            "| where the time goes | ns/op |",
            "|---|---:|",
            *[f"| {k} | {v:,.0f} |" for k, v in floor.items()],
        ]
    )


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=40)
    p.add_argument("--target", type=float, default=0.02, help="seconds per round per contender")
    p.add_argument("--only", help="run only the cases whose name contains this")
    p.add_argument("--markdown", help="write the table to this file (or - for stdout)")
    p.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="thread CPU time (default) or wall time")
    args = p.parse_args(argv)
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" else time.perf_counter
    print(f"toolgate {toolgate.__version__} / libtoolgate {toolgate.library_version} from {toolgate.library_path}")
    missing = [n for n, m in (("jsonschema", jsonschema), ("fastjsonschema", fastjsonschema), ("jsonschema-rs", jsonschema_rs)) if m is None]
    if missing:
        print(f"not installed (pip install './python[bench]'): {', '.join(missing)}", file=sys.stderr)
    rows = run(args.repeat, args.target, args.only)
    floor = floors(args.repeat, args.target)
    for k, v in floor.items():
        print(f"{k}: {v:,.0f} ns/op")
    table = markdown(rows, args.repeat, args.target, args.clock, floor)
    if args.markdown == "-":
        print(table)
    elif args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
