"""What a handler receives and what becomes of its answer: keyword-named properties,
the argument modes, answers that are not JSON, and the texts of every failure (the
core's, the same for call and acall)."""

import asyncio
import decimal
import json

import pytest

import toolgate
from toolgate import CallResult

KEYWORDS_SCHEMA = {
    "type": "object",
    "properties": {"class": {"type": "string"}, "from": {"type": "string"}, "to": {"type": "string"}},
    "required": ["from"],
    "additionalProperties": False,
}
KEYWORDS_CALL = '{"class": "economy", "from": "CDG", "to": "JFK"}'


def both(registry, call_id, name, args):
    """The result of call and of acall, which must agree."""
    sync = registry.call(call_id, name, args)
    asynchronous = asyncio.run(registry.acall(call_id, name, args))
    assert asynchronous == sync
    return sync


# Properties no parameter can be named after.
def test_keyword_properties_reach_a_kwargs_handler(registry):
    registry.register("flights.search", KEYWORDS_SCHEMA, lambda **kw: kw)
    result = both(registry, "c", "flights.search", KEYWORDS_CALL)
    assert not result.is_error
    assert json.loads(result.content) == {"class": "economy", "from": "CDG", "to": "JFK"}


def test_keyword_properties_reach_a_handler_beside_named_parameters(registry):
    registry.register("flights.search", KEYWORDS_SCHEMA, lambda to=None, **rest: f"{rest['from']}->{to} in {rest['class']}")
    assert both(registry, "c", "flights.search", KEYWORDS_CALL).content == "CDG->JFK in economy"


def test_dict_mode_passes_one_dict(registry):
    def search(arguments):
        return f"{arguments['from']}->{arguments['to']} ({sorted(arguments)})"

    registry.register("flights.search", KEYWORDS_SCHEMA, search, arguments="dict")
    result = both(registry, "c", "flights.search", KEYWORDS_CALL)
    assert result.content == "CDG->JFK (['class', 'from', 'to'])"
    # Empty arguments are {} in this mode too.
    registry.register("noargs", None, lambda arguments: repr(arguments), arguments="dict")
    assert both(registry, "c", "noargs", "").content == "{}"


def test_json_mode_passes_the_text_as_sent(registry):
    registry.register("flights.search", KEYWORDS_SCHEMA, lambda text: text, arguments="json")
    assert both(registry, "c", "flights.search", KEYWORDS_CALL).content == KEYWORDS_CALL
    assert both(registry, "c", "flights.search", KEYWORDS_CALL.encode()).content == KEYWORDS_CALL


@pytest.mark.parametrize(
    "handler, missing",
    [
        (lambda to=None: to, "class"),
        (lambda cls=None, to=None: to, "class"),
        (lambda *args: args, "class"),
        (lambda from_=None, to=None, **_kw: to, None),
    ],
    ids=["no-kwargs", "renamed", "positional-only", "kwargs"],
)
def test_a_handler_that_cannot_take_a_property_is_refused_at_registration(registry, handler, missing):
    """A property the handler has no parameter for would fail every call that sends it
    with a Python TypeError the model cannot act on: registration refuses it instead,
    with the core's text."""
    if missing is None:
        registry.register("flights.search", KEYWORDS_SCHEMA, handler)
        return
    with pytest.raises(TypeError) as info:
        registry.register("flights.search", KEYWORDS_SCHEMA, handler)
    assert str(info.value) == f'handler for "flights.search" cannot take property "{missing}"'
    assert registry.names() == [] and registry._tools == {}
    # The dict mode takes any property.
    registry.register("flights.search", KEYWORDS_SCHEMA, handler, arguments="dict")


def test_unknown_argument_mode(registry):
    with pytest.raises(toolgate.InvalidArgumentError) as info:
        registry.register("t", None, lambda **kw: "", arguments="positional")
    assert "'kwargs', 'dict', 'json'" in str(info.value)


def test_a_handler_whose_signature_cannot_be_read_is_registered(registry):
    # Some builtins have no signature; they are called as they are.
    registry.register("t", {"type": "object", "properties": {"x": {}}}, dict)
    assert json.loads(registry.call("c", "t", '{"x": [1]}').content) == {"x": [1]}


# Answers that are not JSON: the core's text names the value's type.
@pytest.mark.parametrize(
    "answer, type_name",
    [
        (lambda: object(), "object"),
        (lambda: {1, 2}, "set"),
        (lambda: {"price": decimal.Decimal("1.5")}, "Decimal"),
        (lambda: [1, 2, (3, b"x")], "bytes"),
        (lambda: {("a", "b"): 1}, "tuple"),
        (lambda: float("nan"), "float (nan)"),
        (lambda: {"t": float("-inf")}, "float (-inf)"),
    ],
    ids=["object", "set", "nested-decimal", "nested-bytes", "tuple-key", "nan", "-inf"],
)
def test_an_answer_that_is_not_json_names_its_type(registry, answer, type_name):
    registry.register("db.report", None, answer)
    result = both(registry, "c9", "db.report", "{}")
    assert result == CallResult(
        "c9",
        "db.report",
        f"error: tool db.report returned a value of type {type_name}, which is not JSON serializable",
        True,
    )


def test_an_answer_that_contains_itself(registry):
    loop = []
    loop.append(loop)
    registry.register("t", None, lambda: loop)
    result = both(registry, "c", "t", "")
    assert result.content == "error: tool t returned a value of type list, which is not JSON serializable"


def test_answers_are_written_as_json_writes_them(registry):
    import enum

    class Level(enum.IntEnum):
        HIGH = 3

    class Subtle(float):
        def __repr__(self):
            return "not a float"

    answer = {
        "text": 'quote " backslash \\ newline \n tab \t bell \x07 del \x7f é \u2028',
        "floats": [1.5, 1e16, 1e-05, 0.1, -0.0, 123456789.125, Subtle(2.5)],
        "ints": [0, -1, 2**63, -(2**70), Level.HIGH, True, False, None],
        "keys": {7: "int", 2.5: "float", True: "bool", None: "none"},
        "tuple": (1, [2, {}]),
    }
    registry.register("t", None, lambda: answer)
    expected = json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    assert both(registry, "c", "t", "").content == expected


def test_exceptions_are_the_tools_failure_and_interrupts_propagate(registry):
    def fails():
        raise LookupError('no user "42"')

    registry.register("fails", None, fails)
    assert both(registry, "c", "fails", "").content == 'error: no user "42"'

    async def cancelled():
        raise asyncio.CancelledError()

    registry.register("cancelled", None, cancelled)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(registry.acall("c", "cancelled", ""))


def test_a_failure_while_building_the_arguments_is_the_calls_failure(registry):
    # JSON allows integers Python will not read (over 4,300 digits): the call fails
    # with Python's reason; the handler does not run.
    calls = []
    registry.register("t", None, lambda **kw: calls.append(kw))
    result = registry.call("c", "t", '{"n": ' + "9" * 5000 + "}")
    assert result.is_error and result.content.startswith("error: ")
    assert calls == []


def test_the_core_calling_the_handler_answers_as_call_does(registry):
    """`call` runs handlers from the module; the core can also run them itself
    (calling back into Python). Both words the same outcome the same way."""

    def silent():
        raise ValueError()

    registry.register("flights.search", KEYWORDS_SCHEMA, lambda **kw: {"from": kw["from"], "n": 1.5})
    registry.register("fails", None, lambda: 1 / 0)
    registry.register("silent", None, silent)
    registry.register("not_json", None, lambda: {1, 2})
    registry.register("text", None, lambda text: text, arguments="json")
    registry.register("later", None, answer_later)
    cases = [
        ("flights.search", KEYWORDS_CALL),
        ("flights.search", '{"from": 1}'),
        ("fails", ""),
        ("silent", ""),
        ("not_json", ""),
        ("text", '{"a": [1, 2.50]}'),
        ("later", ""),
        ("nope", "{}"),
    ]
    for name, args in cases:
        assert registry._call_in_core("c", name, args) == registry.call("c", name, args), name


async def answer_later():
    await asyncio.sleep(0)
    return ["done"]
