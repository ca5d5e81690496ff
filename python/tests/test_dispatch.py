"""ToolRegistry.dispatch / adispatch: one model turn's calls run together on the core's
worker threads, under deadlines, with retries and call ids run at most once. The texts,
outcomes and attempts are the shared ones of tests/registry_texts.json; no assertion
depends on timing (waits are bounded by PATIENCE, and only fail a test that hangs)."""

import ast
import asyncio
import inspect
import json
import os
import threading
import time

import pytest

import toolgate
from toolgate import CallOutcome, RetryableError, ToolRegistry, _native

from conftest import REPO_ROOT

PATIENCE = 10.0  # seconds: a bound on waits that only a broken dispatcher reaches

TEXTS = json.loads((REPO_ROOT / "tests" / "registry_texts.json").read_text(encoding="utf-8"))
DISPATCH_CASES = [case for case in TEXTS if case.get("what") == "dispatch"]


def until_cancelled(_text):
    """Blocks until its call is cancelled (told by on_cancel), then answers too late."""
    told = threading.Event()
    toolgate.running_call().on_cancel(told.set)
    assert told.wait(PATIENCE), "the call was never cancelled"
    return "too late"


def fail_retryable(_text):
    raise RetryableError("busy")


def crash(_text):
    raise SystemExit("boom")


BEHAVIOURS = {
    "echo": lambda text: text,
    "block": until_cancelled,
    "fail_retryable": fail_retryable,
    "panic": crash,
}


def settle(condition, what):
    """Waits (bounded) until `condition()` holds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def os_threads():
    """The threads of this process, as the OS counts them (Python's count misses
    threads that never ran Python code)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


# -- the shared vectors ------------------------------------------------------------


@pytest.mark.parametrize("case", DISPATCH_CASES, ids=[c["case"] for c in DISPATCH_CASES])
def test_the_shared_dispatch_texts(case):
    with ToolRegistry(remember_call_ids=case.get("remember_call_ids", 0)) as reg:
        for h in case["handlers"]:
            reg.register(
                h["name"],
                h.get("parameters"),
                BEHAVIOURS[h["behaviour"]],
                arguments="json",
                timeout_ms=h.get("timeout_ms"),
                idempotent=h.get("idempotent", False),
            )
        o = case.get("dispatch_options", {})
        options = {}
        if "policy" in o:
            options["policy"] = o["policy"]
        if "max_batch" in o:
            options["max_batch"] = o["max_batch"]
        if "timeout_ms" in o:
            options["timeout"] = o["timeout_ms"] / 1000
        if "max_attempts" in o:
            options["max_attempts"] = o["max_attempts"]
        if "backoff_ms" in o:
            options["backoff"] = o["backoff_ms"] / 1000
        if case.get("earlier"):
            reg.dispatch([tuple(c) for c in case["earlier"]], **options)
        batch = [tuple(c) for c in case["batch"]]
        results = reg.dispatch(batch, **options)
        assert [r.content for r in results] == case["contents"]
        assert [r.outcome.value for r in results] == case["outcomes"]
        assert [r.attempts for r in results] == case["attempts"]
        assert [(r.call_id, r.name) for r in results] == [(c[0], c[1]) for c in batch]
        assert all(r.is_error is (r.outcome is not CallOutcome.ANSWERED) for r in results)
        # adispatch answers the same.
        if case["case"] not in ("call_id_remembered",):
            again = asyncio.run(reg.adispatch(batch, **options))
            assert [r.content for r in again] == case["contents"]
            assert [r.attempts for r in again] == case["attempts"]


def test_every_dispatch_vector_ran():
    assert len(DISPATCH_CASES) == 9


# -- results as call gives them ------------------------------------------------------


def test_results_are_what_call_gives_byte_for_byte():
    forecast = {"type": "object", "properties": {"high": {"type": "integer"}}, "required": ["high"]}
    with ToolRegistry() as reg:
        reg.register("w.get", {"type": "object", "properties": {"city": {"type": "string"}}},
                     lambda city="x": {"city": city, "note": "é"})
        reg.register("w.out", None, lambda: {"high": "hot"}, output_schema=forecast)
        reg.register("w.ok", None, lambda: {"high": 21}, output_schema=forecast)
        reg.register("w.fail", None, lambda: 1 / 0)
        reg.register("w.odd", None, lambda: object())
        calls = [
            ("c1", "w.get", '{"city": "Paris"}'),
            ("c2", "w.get", b'{"city": 7}'),
            ("c3", "nope", "{}"),
            ("c4", "w.out", ""),
            ("c5", "w.ok", ""),
            ("c6", "w.fail", ""),
            ("c7", "w.odd", ""),
            ("c8", "w.get", "{"),
            ("c9", "w.get", {"city": "Oslo"}),
        ]
        got = reg.dispatch(calls)
        want = [reg.call(*c) for c in calls]
        fields = ("call_id", "name", "content", "is_error", "outcome", "structured",
                  "violations", "invalid_result", "attempts")
        for g, w in zip(got, want):
            assert [getattr(g, f) for f in fields] == [getattr(w, f) for f in fields]
        assert [r.attempts for r in got] == [1, 0, 0, 1, 1, 1, 1, 0, 1]
        assert got[5].content == "error: division by zero"


def test_a_tool_call_read_from_a_response_is_a_call():
    with ToolRegistry() as reg:
        reg.register("echo", None, lambda text: text, arguments="json")
        calls = [toolgate.ToolCall("a", "echo", '{"x":1}'), ["b", "echo", ""]]
        assert [r.content for r in reg.dispatch(calls)] == ['{"x":1}', "{}"]
        with pytest.raises(TypeError, match="each call must be"):
            reg.dispatch([("a", "echo")])
        with pytest.raises(TypeError, match="call_id must be str"):
            reg.dispatch([(1, "echo", "")])


def test_an_empty_batch_gives_no_results():
    with ToolRegistry() as reg:
        assert reg.dispatch([]) == []
        assert reg.dispatch(iter(())) == []
        assert asyncio.run(reg.adispatch([])) == []


def test_a_handler_that_raises_fails_its_call_only():
    def bad(text):
        raise ValueError("no such row")

    with ToolRegistry() as reg:
        reg.register("bad", None, bad, arguments="json")
        reg.register("echo", None, lambda text: text, arguments="json")
        bad_result, good = reg.dispatch([("c1", "bad", ""), ("c2", "echo", "{}")])
        assert (bad_result.content, bad_result.outcome, bad_result.attempts) == (
            "error: no such row", CallOutcome.HANDLER_FAILED, 1)
        assert (good.content, good.outcome) == ("{}", CallOutcome.ANSWERED)


def test_duplicate_ids_in_a_batch_are_both_refused():
    ran = []
    with ToolRegistry() as reg:
        reg.register("echo", None, lambda text: ran.append(text) or text, arguments="json")
        results = reg.dispatch([("c1", "echo", '{"n":1}'), ("c1", "echo", '{"n":2}'), ("", "echo", ""), ("", "echo", "")])
        text = 'error: call id "c1" is used by more than one call of the batch'
        assert [r.content for r in results] == [text, text, "{}", "{}"]
        assert [r.outcome for r in results[:2]] == [CallOutcome.NOT_RUN] * 2
        assert sorted(ran) == ["{}", "{}"]


def test_bad_options_are_refused():
    with ToolRegistry() as reg:
        with pytest.raises(toolgate.InvalidArgumentError, match="unknown dispatch policy"):
            reg.dispatch([], policy="all")
        with pytest.raises(toolgate.InvalidArgumentError, match="timeout"):
            reg.dispatch([], timeout=-1)
        with pytest.raises(toolgate.InvalidArgumentError, match="at least 1"):
            reg.dispatch([], max_concurrency=0)
    with pytest.raises(toolgate.InvalidArgumentError, match="default_timeout"):
        ToolRegistry(default_timeout=0)
    with pytest.raises(TypeError, match="observer must be callable"):
        ToolRegistry(observer=3)
    reg = ToolRegistry(remember_call_ids=4, default_timeout=0.0101)
    assert (reg.remember_call_ids, reg.default_timeout, reg.observer) == (4, 0.0101, None)


# -- running together ----------------------------------------------------------------


def test_eight_calls_run_at_once():
    # Each handler waits until all eight are inside a handler: only calls that run
    # together get past the barrier (and only if dispatch let go of the GIL).
    barrier = threading.Barrier(8, timeout=PATIENCE)
    threads = set()

    def meet(n):
        barrier.wait()
        threads.add(threading.get_ident())
        return n

    with ToolRegistry() as reg:
        reg.register("meet", {"type": "object", "properties": {"n": {"type": "integer"}}}, meet)
        calls = [(f"c{i}", "meet", {"n": i}) for i in range(8)]
        results = reg.dispatch(calls)
        assert [r.content for r in results] == [str(i) for i in range(8)]
        assert threading.get_ident() not in threads and len(threads) == 8


def test_max_concurrency_one_runs_the_calls_in_order():
    order = []
    with ToolRegistry() as reg:
        reg.register("step", None, lambda text: order.append(text) or text, arguments="json")
        calls = [(f"c{i}", "step", f'{{"i":{i}}}') for i in range(5)]
        reg.dispatch(calls, max_concurrency=1)
        assert order == [c[2] for c in calls]


def test_an_exclusive_tool_runs_alone():
    # Each handler notes which calls run while it starts: the exclusive one finds
    # none but itself (the calls before it have finished, those after it wait).
    running = []
    lock = threading.Lock()
    seen = []

    def track(text):
        with lock:
            running.append(text)
            seen.append(list(running))
        time.sleep(0.001)
        with lock:
            running.remove(text)
        return text

    with ToolRegistry() as reg:
        reg.register("plain", None, track, arguments="json")
        record = reg.register("alone", None, track, arguments="json", exclusive=True)
        assert record.exclusive is True and reg.get("plain").exclusive is False
        calls = [("c1", "plain", '{"n":1}'), ("c2", "plain", '{"n":2}'), ("c3", "alone", '{"n":3}'),
                 ("c4", "plain", '{"n":4}')]
        results = reg.dispatch(calls)
        assert [r.content for r in results] == [c[2] for c in calls]
        assert ['{"n":3}'] in seen
        (alone,) = [s for s in seen if '{"n":3}' in s]
        assert alone == ['{"n":3}']
        [batch] = reg.register_all([{"name": "alone2", "schema": None, "handler": track,
                                     "arguments": "json", "exclusive": True}])
        assert batch.exclusive is True


# -- deadlines and cancellation --------------------------------------------------------


def test_a_sync_handler_that_polls_its_call_stops_at_the_timeout():
    seen = {}

    def slow(text):
        call = toolgate.running_call()
        seen["deadline"] = call.deadline
        seen["left"] = call.time_left()
        deadline = time.monotonic() + PATIENCE
        while not call.cancelled and time.monotonic() < deadline:
            time.sleep(0.001)
        seen["cancelled"] = call.cancelled
        return "too late"

    with ToolRegistry() as reg:
        reg.register("slow", None, slow, arguments="json")
        (result,) = reg.dispatch([("c1", "slow", "")], timeout=0.05)
        assert (result.content, result.outcome, result.is_error, result.attempts) == (
            "error: tool slow timed out after 50 ms", CallOutcome.TIMED_OUT, True, 1)
        settle(lambda: "cancelled" in seen, "the handler never returned")
        assert seen["cancelled"] is True
        assert seen["deadline"] is not None and 0 <= seen["left"] <= 0.05


def test_running_call_is_none_outside_a_dispatch():
    assert toolgate.running_call() is None
    with ToolRegistry() as reg:
        reg.register("probe", None, lambda: repr(toolgate.running_call()))
        assert reg.call("c1", "probe", "").content == "None"
        assert asyncio.run(reg.acall("c1", "probe", "")).content == "None"
        (result,) = reg.dispatch([("c1", "probe", "")])
        assert result.content == "<toolgate.RunningCall cancelled=False>"
        (result,) = reg.dispatch([("c1", "probe", "")], timeout=PATIENCE)
        assert result.content.startswith("<toolgate.RunningCall cancelled=False time_left=")


def test_the_registry_default_timeout_and_the_tool_timeout():
    with ToolRegistry(default_timeout=0.02) as reg:
        reg.register("slow", None, until_cancelled, arguments="json")
        reg.register("slower", None, until_cancelled, arguments="json", timeout_ms=30)
        results = reg.dispatch([("c1", "slow", ""), ("c2", "slower", "")])
        assert [r.content for r in results] == [
            "error: tool slow timed out after 20 ms",
            "error: tool slower timed out after 30 ms",
        ]


def test_an_async_handler_under_adispatch_runs_on_the_callers_loop_and_is_cancelled():
    seen = {}

    async def slow(text):
        seen["loop"] = asyncio.get_running_loop()
        seen["call"] = toolgate.running_call()
        try:
            await asyncio.sleep(PATIENCE)
        except asyncio.CancelledError:
            seen["cancelled"] = True
            raise
        return "too late"

    async def quick(text):
        await asyncio.sleep(0)
        return text

    async def main():
        with ToolRegistry() as reg:
            reg.register("slow", None, slow, arguments="json", timeout_ms=30)
            reg.register("quick", None, quick, arguments="json")
            results = await reg.adispatch([("c1", "slow", ""), ("c2", "quick", '{"q":1}')])
            for _ in range(1000):
                if "cancelled" in seen:
                    break
                await asyncio.sleep(0.005)
            return results, asyncio.get_running_loop()

    results, loop = asyncio.run(main())
    assert [(r.content, r.outcome) for r in results] == [
        ("error: tool slow timed out after 30 ms", CallOutcome.TIMED_OUT),
        ('{"q":1}', CallOutcome.ANSWERED),
    ]
    assert seen["loop"] is loop
    assert seen["call"] is not None and seen["call"].cancelled
    assert seen.get("cancelled") is True


def test_an_async_handler_under_dispatch_runs_on_a_private_loop():
    seen = {}

    async def handler(text):
        seen["loop"] = asyncio.get_running_loop()
        seen["call"] = toolgate.running_call()
        await asyncio.sleep(0)
        return text

    async def forever(text):
        try:
            await asyncio.sleep(PATIENCE)
        except asyncio.CancelledError:
            seen["cancelled"] = True
            raise

    with ToolRegistry() as reg:
        reg.register("a", None, handler, arguments="json")
        reg.register("forever", None, forever, arguments="json", timeout_ms=20)
        first, second = reg.dispatch([("c1", "a", '{"x":1}'), ("c2", "forever", "")])
        assert first.content == '{"x":1}' and seen["call"] is not None
        assert seen["loop"].is_closed()
        assert second.content == "error: tool forever timed out after 20 ms"
        settle(lambda: "cancelled" in seen, "the private loop's task was never cancelled")


# -- retries -------------------------------------------------------------------------


def test_a_retryable_failure_of_an_idempotent_tool_runs_again():
    runs = {"flaky": 0, "marked": 0, "once": 0}

    def flaky(text):
        runs["flaky"] += 1
        if runs["flaky"] < 3:
            raise RetryableError("service busy")
        return "done"

    def marked(text):
        runs["marked"] += 1
        if runs["marked"] == 1:
            toolgate.running_call().retry_later()
            raise ConnectionError("reset")
        return "done"

    def once(text):
        runs["once"] += 1
        raise RetryableError("busy")

    with ToolRegistry() as reg:
        reg.register("flaky", None, flaky, arguments="json", idempotent=True)
        reg.register("marked", None, marked, arguments="json", idempotent=True)
        reg.register("once", None, once, arguments="json")
        results = reg.dispatch([("c1", "flaky", ""), ("c2", "marked", ""), ("c3", "once", "")], backoff=0)
        assert [(r.content, r.attempts) for r in results] == [("done", 3), ("done", 2), ("error: busy", 1)]
        assert runs == {"flaky": 3, "marked": 2, "once": 1}
        # A plain call never retries.
        runs["flaky"] = 0
        assert reg.call("c4", "flaky", "").content == "error: service busy"
        assert runs["flaky"] == 1


# -- call ids remembered ---------------------------------------------------------------


def test_a_remembered_call_id_is_replayed_not_run_again():
    runs = []
    events = []
    with ToolRegistry(remember_call_ids=2, observer=events.append) as reg:
        reg.register("echo", None, lambda text: runs.append(text) or text, arguments="json")
        (first,) = reg.dispatch([("c1", "echo", '{"a":1}')])
        (again,) = reg.dispatch([("c1", "echo", '{"a":1}')])
        assert (again.content, again.outcome, again.attempts) == ('{"a":1}', CallOutcome.ANSWERED, 1)
        assert runs == ['{"a":1}']
        (other,) = reg.dispatch([("c1", "echo", '{"a":2}')])
        assert (other.content, other.outcome) == (
            'error: call id "c1" was already used with other arguments', CallOutcome.NOT_RUN)
        assert [(e.replayed, e.attempts, e.error_type) for e in events] == [
            (False, 1, None), (True, 0, None), (False, 0, "call_id_reused")]
        # Remembering is per registry, and a plain call does not remember.
        assert reg.call("c1", "echo", '{"a":3}').content == '{"a":3}'


# -- cancellation by the host ----------------------------------------------------------


def test_a_canceller_stops_a_dispatch_from_another_thread():
    started = threading.Event()

    def blocking(text):
        started.set()
        return until_cancelled(text)

    stop = toolgate.Canceller()
    with ToolRegistry() as reg:
        reg.register("block", None, blocking, arguments="json")
        reg.register("echo", None, lambda text: text, arguments="json")
        stopper = threading.Thread(target=lambda: (started.wait(PATIENCE), stop.cancel()))
        stopper.start()
        results = reg.dispatch([("c1", "block", ""), ("c2", "echo", "{}")], canceller=stop, max_concurrency=1)
        stopper.join()
        assert [(r.content, r.outcome) for r in results] == [
            ("error: call cancelled", CallOutcome.CANCELLED),
            ("error: call cancelled", CallOutcome.CANCELLED),
        ]
        assert stop.cancelled
        # Once cancelled it stays so: a later dispatch given it runs nothing.
        (late,) = reg.dispatch([("c3", "echo", "{}")], canceller=stop)
        assert late.outcome is CallOutcome.CANCELLED
        assert reg.dispatch([("c4", "echo", "{}")])[0].content == "{}"


def test_adispatch_cancelled_by_its_caller_cancels_the_calls():
    sync_started = threading.Event()
    seen = {}

    def blocking(text):
        sync_started.set()
        seen["sync"] = until_cancelled(text)
        return seen["sync"]

    async def waiting(text):
        seen["async_started"] = True
        try:
            await asyncio.sleep(PATIENCE)
        except asyncio.CancelledError:
            seen["async_cancelled"] = True
            raise

    events = []

    async def main():
        with ToolRegistry(observer=events.append) as reg:
            reg.register("block", None, blocking, arguments="json")
            reg.register("wait", None, waiting, arguments="json")
            task = asyncio.ensure_future(reg.adispatch([("c1", "block", ""), ("c2", "wait", "")]))
            for _ in range(2000):
                if sync_started.is_set() and seen.get("async_started"):
                    break
                await asyncio.sleep(0.005)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            for _ in range(2000):
                if seen.get("async_cancelled") and "sync" in seen:
                    break
                await asyncio.sleep(0.005)
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            return others

    others = asyncio.run(main())
    assert seen["sync"] == "too late" and seen.get("async_cancelled") is True
    assert others == []
    # The observer heard of both calls, cancelled.
    assert [(e.call_id, e.outcome, e.error_type, e.result.content) for e in events] == [
        ("c1", CallOutcome.CANCELLED, "cancelled", "error: call cancelled"),
        ("c2", CallOutcome.CANCELLED, "cancelled", "error: call cancelled"),
    ]


def test_close_during_a_dispatch_cancels_it_and_leaves_no_thread():
    threads_before = threading.active_count()
    os_before = os_threads()
    started = threading.Event()
    box = {}

    def blocking(text):
        started.set()
        return until_cancelled(text)

    reg = ToolRegistry()
    reg.register("block", None, blocking, arguments="json")
    reg.register("echo", None, lambda text: text, arguments="json")

    def run():
        # One at a time: c1 has its answer before c2 starts, c3 waits for c2.
        box["results"] = reg.dispatch([("c1", "echo", "{}"), ("c2", "block", ""), ("c3", "block", "")],
                                      max_concurrency=1)

    runner = threading.Thread(target=run)
    runner.start()
    assert started.wait(PATIENCE)
    reg.close()
    runner.join(PATIENCE)
    assert not runner.is_alive()
    assert [(r.content, r.outcome) for r in box["results"]] == [
        ("{}", CallOutcome.ANSWERED),
        ("error: call cancelled", CallOutcome.CANCELLED),
        ("error: call cancelled", CallOutcome.CANCELLED),
    ]
    assert reg.closed
    with pytest.raises(ValueError, match="closed"):
        reg.dispatch([("c4", "echo", "{}")])
    settle(lambda: threading.active_count() <= threads_before, "a Python thread outlived close")
    settle(lambda: os_threads() <= os_before, "a worker thread outlived close")


def test_close_during_adispatch_leaves_no_task_nor_thread():
    os_before = os_threads()
    seen = {}

    async def waiting(text):
        seen["started"] = True
        try:
            await asyncio.sleep(PATIENCE)
        except asyncio.CancelledError:
            seen["cancelled"] = True
            raise

    async def main():
        reg = ToolRegistry()
        reg.register("wait", None, waiting, arguments="json")
        reg.register("echo", None, lambda text: text, arguments="json")
        # One at a time: c1 has its answer before c2 starts.
        task = asyncio.ensure_future(
            reg.adispatch([("c1", "echo", "{}"), ("c2", "wait", "")], max_concurrency=1))
        for _ in range(2000):
            if seen.get("started"):
                break
            await asyncio.sleep(0.005)
        reg.close()
        results = await task
        for _ in range(2000):
            if len(asyncio.all_tasks()) == 1:
                break
            await asyncio.sleep(0.005)
        return results, len(asyncio.all_tasks())

    results, tasks = asyncio.run(main())
    assert [(r.content, r.outcome) for r in results] == [
        ("{}", CallOutcome.ANSWERED),
        ("error: call cancelled", CallOutcome.CANCELLED),
    ]
    assert seen.get("cancelled") is True and tasks == 1
    settle(lambda: os_threads() <= os_before, "a thread outlived close")


# -- the observer ------------------------------------------------------------------------


def test_the_observer_is_told_every_call_with_its_arguments_and_result():
    events = []

    def observe(event):
        events.append((event, threading.get_ident()))
        if event.call_id == "c2":
            raise RuntimeError("an observer's own failure is logged, not raised")

    with ToolRegistry(observer=observe) as reg:
        reg.register("echo", {"type": "object", "properties": {"a": {"type": "integer"}}},
                     lambda text: text, arguments="json")
        before = time.time_ns()
        results = reg.dispatch([("c1", "echo", '{"a":1}'), ("c2", "nope", b"{}"), ("c3", "echo", {"a": "x"})])
        assert [e.call_id for e, _ in events] == ["c1", "c2", "c3"]
        assert {t for _, t in events} == {threading.get_ident()}
        e1, e2, e3 = (e for e, _ in events)
        assert (e1.tool, e1.outcome, e1.error_type, e1.attempts, e1.argument_bytes, e1.replayed) == (
            "echo", CallOutcome.ANSWERED, None, 1, 7, False)
        assert (e1.arguments, e1.result) == ('{"a":1}', results[0])
        assert (e2.tool, e2.outcome, e2.error_type, e2.attempts, e2.arguments) == (
            "nope", CallOutcome.UNKNOWN_TOOL, "unknown_tool", 0, "{}")
        assert (e3.error_type, e3.arguments, e3.masked_values) == ("invalid_arguments", '{"a":"x"}', False)
        assert before <= e1.start_time_ns <= time.time_ns() and e1.duration >= 0

        async def main():
            return await reg.adispatch([("c4", "echo", "{}")])

        asyncio.run(main())
        assert events[-1][0].call_id == "c4"
    with ToolRegistry(observer=events.append, masked_values=True) as reg:
        reg.dispatch([("c5", "nope", "{}")])
        assert events[-1].masked_values is True


# -- CallOutcome is the core's table ---------------------------------------------------


def test_call_outcome_is_made_from_the_core_names():
    assert [o.value for o in CallOutcome] == list(_native.OUTCOMES)
    assert [o.name for o in CallOutcome] == [n.upper() for n in _native.OUTCOMES]
    assert CallOutcome.CANCELLED == "cancelled" and str(CallOutcome.TIMED_OUT) == "timed_out"
    import pickle

    assert pickle.loads(pickle.dumps(CallOutcome.NOT_RUN)) is CallOutcome.NOT_RUN
    # The members type checkers see are the same names.
    source = inspect.getsource(inspect.getmodule(CallOutcome))
    typing_view = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "CallOutcome":
            typing_view = [s.value.value for s in node.body
                           if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)]
    assert typing_view == list(_native.OUTCOMES)
