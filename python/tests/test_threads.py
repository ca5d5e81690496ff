"""Many threads at once: every result checked."""

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import toolgate

from conftest import USER_SCHEMA, WEATHER_SCHEMA


def test_many_threads_calling_at_once(registry):
    counter = {"n": 0}
    lock = threading.Lock()

    def get_user(id, fields=("id",)):
        with lock:
            counter["n"] += 1
        return {"id": id, "thread": threading.get_ident() != 0}

    registry.register("db.get_user", USER_SCHEMA, get_user)
    registry.register("get_weather", WEATHER_SCHEMA, lambda city, **kw: f"weather in {city}")

    def job(i):
        kind = i % 5
        if kind == 0:
            r = registry.call(f"c{i}", "db.get_user", {"id": i})
            assert r == toolgate.CallResult(f"c{i}", "db.get_user", json.dumps({"id": i, "thread": True}, separators=(",", ":")), False)
        elif kind == 1:
            r = registry.call(f"c{i}", "db.get_user", f'{{"id": "{i}"}}')
            assert r.is_error and r.content.endswith("$.id: expected integer, got string")
        elif kind == 2:
            r = registry.call(f"c{i}", "get_weather", {"city": f"city{i}"})
            assert (r.content, r.is_error) == (f"weather in city{i}", False)
        elif kind == 3:
            errors = registry.validate("db.get_user", {"id": 1, "fields": ["id", f"x{i}"]})
            assert [(e.path, e.keyword) for e in errors] == [("/fields/1", "enum")]
        else:
            r = registry.call(f"c{i}", "missing", "{}")
            assert r.is_error and r.content.startswith('error: unknown tool "missing"')
        return i

    n = 4000
    with ThreadPoolExecutor(max_workers=8) as pool:
        done = list(pool.map(job, range(n)))
    assert done == list(range(n))
    assert counter["n"] == n // 5


def test_register_and_unregister_while_calling(registry):
    registry.register("stable", None, lambda: "stable")
    stop = threading.Event()
    errors = []

    def churn(t):
        i = 0
        while not stop.is_set():
            name = f"tmp{t}_{i % 3}"
            try:
                registry.register(name, None, lambda: "tmp", override=True)
                registry.unregister(name)
            except Exception as exc:  # pragma: no cover - reported below
                errors.append(exc)
            i += 1

    def caller(i):
        r = registry.call(f"c{i}", "stable", "")
        assert (r.content, r.is_error) == ("stable", False)
        r = registry.call(f"c{i}", f"tmp0_{i % 3}", "")
        assert r.content in ("tmp",) or r.content.startswith("error: unknown tool")

    churners = [threading.Thread(target=churn, args=(t,)) for t in range(2)]
    for t in churners:
        t.start()
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(caller, range(2000)))
    finally:
        stop.set()
        for t in churners:
            t.join()
    assert errors == []
    assert registry.names() == ["stable"]
    assert registry._library_names() == ["stable"]
    assert len(registry._tools) == 1  # every replaced registration was destroyed


def test_schema_shared_by_threads():
    with toolgate.compile(WEATHER_SCHEMA) as schema:

        def job(i):
            if i % 2:
                assert schema.is_valid(f'{{"city": "c{i}", "days": {1 + i % 7}}}')
                assert schema.validate({"city": f"c{i}"}) is toolgate.OK
            else:
                errs = schema.validate(f'{{"city": "", "days": {i + 8}}}')
                assert [(e.path, e.keyword) for e in errs] == [("/city", "minLength"), ("/days", "maximum")]
            return True

        with ThreadPoolExecutor(max_workers=8) as pool:
            assert all(pool.map(job, range(4000)))
