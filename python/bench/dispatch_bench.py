"""What ``ToolRegistry.dispatch`` costs and what it buys, in one process:

* per-call overhead: one no-op call through ``dispatch`` (a batch of one, and a batch
  of eight, per call) against ``call`` (the handler runs inline on the caller's
  thread there, on a worker thread under ``dispatch``);
* eight calls of a 1 ms sync handler (``time.sleep(0.001)``) dispatched together
  against the same eight run one after another with ``call``;
* eight calls of a 1 ms async handler (``await asyncio.sleep(0.001)``) under
  ``adispatch`` against the same eight awaited one after another with ``acall``.

Each pair runs interleaved for ``--rounds`` rounds; a cell is the median wall time
per operation, and a ratio the median over rounds of the per-round ratio (so a round
disturbed by other load moves both sides of its own ratio).

Usage: ``python bench/dispatch_bench.py [--rounds 15]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from typing import Callable, List, Tuple

import toolgate


def per_op(fn: Callable[[], object], n: int) -> float:
    """Seconds per call of ``fn`` over ``n`` calls (wall clock)."""
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def compare(name: str, base: Callable[[], object], other: Callable[[], object], n: int,
            rounds: int, scale: float = 1.0) -> Tuple[str, float, float, float]:
    """Median seconds per op of ``base`` and ``other`` (``other``'s divided by
    ``scale``, the calls it makes per op) and the median per-round ratio
    other/base."""
    base(), other()  # warm up (threads started, caches filled)
    b: List[float] = []
    o: List[float] = []
    for _ in range(rounds):
        b.append(per_op(base, n))
        o.append(per_op(other, n) / scale)
    ratio = statistics.median(x / y for x, y in zip(o, b))
    return name, statistics.median(b), statistics.median(o), ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    reg = toolgate.ToolRegistry()
    reg.register("noop", None, lambda: "ok")
    reg.register("sleep", None, lambda: time.sleep(0.001) or "ok")

    async def asleep() -> str:
        await asyncio.sleep(0.001)
        return "ok"

    reg.register("asleep", None, asleep)
    one = [("c1", "noop", "")]
    eight_noop = [(f"c{i}", "noop", "") for i in range(8)]
    eight_sleep = [(f"c{i}", "sleep", "") for i in range(8)]
    eight_asleep = [(f"c{i}", "asleep", "") for i in range(8)]

    rows = []
    rows.append(compare("no-op: dispatch([1 call]) vs call", lambda: reg.call("c1", "noop", ""),
                        lambda: reg.dispatch(one), 2000, args.rounds))
    rows.append(compare("no-op: dispatch([8 calls]) per call vs call", lambda: reg.call("c1", "noop", ""),
                        lambda: reg.dispatch(eight_noop), 400, args.rounds, scale=8))

    def in_sequence() -> None:
        for c in eight_sleep:
            reg.call(*c)

    rows.append(compare("8 x 1 ms sync: dispatch together vs call in sequence", in_sequence,
                        lambda: reg.dispatch(eight_sleep), 20, args.rounds))

    loop = asyncio.new_event_loop()

    async def awaited_in_sequence() -> None:
        for c in eight_asleep:
            await reg.acall(*c)

    rows.append(compare("8 x 1 ms async: adispatch together vs acall in sequence",
                        lambda: loop.run_until_complete(awaited_in_sequence()),
                        lambda: loop.run_until_complete(reg.adispatch(eight_asleep)), 20, args.rounds))
    loop.close()
    reg.close()

    print(f"Python {sys.version.split()[0]}, toolgate {toolgate.__version__} (core {toolgate.library_version}), "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, {args.rounds} interleaved rounds, wall clock")
    print(f"{'':58} {'baseline':>12} {'dispatch':>12} {'ratio':>8}")
    for name, base, other, ratio in rows:
        print(f"{name:58} {base * 1e6:10.1f}us {other * 1e6:10.1f}us {ratio:7.2f}x")


if __name__ == "__main__":
    main()
