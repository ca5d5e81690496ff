"""register_all: every tool or none, the refused tool named, handlers released."""

import gc
import weakref

import pytest

import toolgate

CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def answering(name):
    def handler(city):
        return f"{name} ran for {city}"

    return {"name": name, "schema": CITY, "handler": handler, "description": f"the {name} tool"}


def test_accepted_batch_registers_every_tool():
    reg = toolgate.ToolRegistry()
    records = reg.register_all([answering("b"), answering("a"), {"name": "c", "schema": None, "handler": lambda: "c"}])
    assert [r.name for r in records] == ["b", "a", "c"]
    assert reg.names() == ["b", "a", "c"]  # in registration order, as for register
    assert reg.get("b").description == "the b tool"
    r = reg.call("1", "a", '{"city": "Oslo"}')
    assert (r.content, r.is_error) == ("a ran for Oslo", False)
    assert reg.call("2", "a", "{}").is_error
    assert reg.register_all([]) == []


@pytest.mark.parametrize(
    "bad, error, message",
    [
        ({"name": "bad name", "schema": None, "handler": lambda: 1}, toolgate.InvalidNameError,
         'invalid tool name "bad name"'),
        ({"name": "s", "schema": {"type": "string"}, "handler": lambda: 1}, toolgate.NotObjectSchemaError,
         'parameters for "s" must declare "type": "object"'),
        ({"name": "taken", "schema": None, "handler": lambda: 1}, toolgate.DuplicateToolError,
         'tool "taken" is already registered'),
        ({"name": "t1", "schema": None, "handler": lambda: 1}, toolgate.DuplicateToolError,
         'tool "t1" is listed twice in the batch'),
    ],
)
@pytest.mark.parametrize("at", [0, 1, 3])
def test_refused_batch_changes_nothing(bad, error, message, at):
    reg = toolgate.ToolRegistry()
    reg.register("taken", None, lambda: "kept")
    batch = [answering("t0"), answering("t1"), answering("t2")]
    batch.insert(at, bad)
    with pytest.raises(error) as info:
        reg.register_all(batch)
    assert str(info.value).startswith(message)
    assert reg.names() == ["taken"]
    assert reg.call("1", "taken", "{}").content == "kept"


def test_refused_batch_releases_its_handlers():
    class Handler:
        def __call__(self):
            return "ok"

    reg = toolgate.ToolRegistry()
    handlers = [Handler() for _ in range(3)]
    refs = [weakref.ref(h) for h in handlers]
    batch = [{"name": f"h{i}", "schema": None, "handler": h} for i, h in enumerate(handlers)]
    batch.append({"name": "h0", "schema": None, "handler": lambda: 1})
    del handlers
    with pytest.raises(toolgate.DuplicateToolError):
        reg.register_all(batch)
    del batch
    gc.collect()
    assert [r() for r in refs] == [None, None, None]


def test_bad_items_are_refused_before_anything_registers():
    reg = toolgate.ToolRegistry()
    with pytest.raises(TypeError, match="must be a dict"):
        reg.register_all([answering("a"), ("b", None, print)])
    with pytest.raises(TypeError, match="unknown tool field 'nmae'"):
        reg.register_all([{"nmae": "a", "schema": None, "handler": print}])
    with pytest.raises(TypeError, match="each tool needs \"handler\""):
        reg.register_all([{"name": "a", "schema": None}])
    with pytest.raises(TypeError, match="handler must be callable"):
        reg.register_all([answering("a"), {"name": "b", "schema": None, "handler": 3}])
    assert reg.names() == []


def test_override_replaces():
    reg = toolgate.ToolRegistry()
    reg.register("t", None, lambda: "old")
    reg.register_all([{"name": "t", "schema": None, "handler": lambda: "new"}], override=True)
    assert reg.call("1", "t", "{}").content == "new"
