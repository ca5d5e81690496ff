"""acall(): async handlers awaited in Python; every refusal text from the library."""

import asyncio

import pytest

import toolgate

from conftest import USER_SCHEMA, WEATHER_SCHEMA


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def reg(registry):
    async def get_user(id, fields=("id",)):
        await asyncio.sleep(0)
        return {"id": id, "fields": list(fields)}

    async def weather(city, days=1, unit="c"):
        await asyncio.sleep(0.001)
        return f"{city}: {days}"

    registry.register("db.get_user", USER_SCHEMA, get_user)
    registry.register("get_weather", WEATHER_SCHEMA, weather)
    return registry


def test_acall_awaits_async_handler(reg):
    result = run(reg.acall("c1", "db.get_user", {"id": 7}))
    assert result == toolgate.CallResult("c1", "db.get_user", '{"id":7,"fields":["id"]}', False)


def test_acall_runs_sync_handlers_too(reg):
    reg.register("sync", None, lambda: "sync result")
    assert run(reg.acall("c", "sync", "")).content == "sync result"


@pytest.mark.parametrize(
    "name, args",
    [
        ("db.get_user", '{"id": "forty-two"}'),
        ("db.get_user", '{"fields": ["id"]}'),
        ("db.get_user", '{"id": 1, "fields": ["id", "phone"]}'),
        ("db.get_user", '{"id": 1,}'),
        ("db.get_user", '{"id": 1, "id": 2}'),
        ("get_weather", '{"days": "3", "unit": "kelvin", "country": "FR"}'),
        ("nope", "{}"),
        ("db.get_usr", "{}"),
    ],
)
def test_acall_refusals_are_the_librarys_texts(reg, name, args):
    sync = reg.call("c", name, args)
    asynchronous = run(reg.acall("c", name, args))
    assert sync.is_error
    assert asynchronous == sync


def test_acall_handler_exception(reg):
    async def boom(**kw):
        await asyncio.sleep(0)
        raise LookupError("no such user")

    async def silent(**kw):
        raise RuntimeError()

    reg.register("boom", None, boom)
    reg.register("db.silent", None, silent)
    assert run(reg.acall("c", "boom", "")) == toolgate.CallResult("c", "boom", "error: no such user", True)
    assert run(reg.acall("c", "db.silent", "")).content == "error: tool db.silent failed"
    # Same texts as the synchronous path.
    assert reg.call("c", "boom", "").content == "error: no such user"
    assert reg.call("c", "db.silent", "").content == "error: tool db.silent failed"


def test_acall_result_encoding_matches_call(reg):
    reg.register("v", None, lambda: {"a": [1, 2.5, None, True], "é": "ü"})
    assert run(reg.acall("c", "v", "")) == reg.call("c", "v", "")


def test_acall_runs_concurrently(reg):
    active = 0
    peak = 0

    async def slow(n):
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.01)
        active -= 1
        return n

    reg.register("slow", None, slow)

    async def main():
        return await asyncio.gather(*(reg.acall(f"c{i}", "slow", {"n": i}) for i in range(20)))

    results = run(main())
    assert [r.content for r in results] == [str(i) for i in range(20)]
    assert peak == 20


def test_acall_cancellation_propagates(reg):
    async def forever():
        await asyncio.sleep(3600)

    reg.register("forever", None, forever)

    async def main():
        task = asyncio.ensure_future(reg.acall("c", "forever", ""))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(main())


def test_acall_uses_the_tool_the_library_chose(reg):
    """Override between validation and the await: the call runs the handler that
    was registered when the library accepted the call."""

    async def old():
        reg.register("swap", None, lambda: "new", override=True)
        await asyncio.sleep(0)
        return "old"

    reg.register("swap", None, old)
    assert run(reg.acall("c", "swap", "")).content == "old"
    assert run(reg.acall("c", "swap", "")).content == "new"


def test_sync_call_of_async_handler_inside_a_running_loop(reg):
    async def main():
        # call() blocks; the coroutine runs on a fresh loop in a helper thread.
        return reg.call("c", "db.get_user", {"id": 3})

    assert run(main()).content == '{"id":3,"fields":["id"]}'
