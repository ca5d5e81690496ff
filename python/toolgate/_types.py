"""Plain value types of the package: Ok, ValidationError, ToolRecord, CallOutcome,
CallResult, ToolCall, CallEvent.

The native module builds ValidationError, CallResult and ToolCall instances directly
(as ``object.__new__`` plus ``object.__setattr__`` per field, what the frozen
dataclass's ``__init__`` does), so they are ordinary dataclass instances in every
respect; they have ``__slots__`` (one is made for every call), so they have no
``__dict__``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    List,
    Literal,
    Optional,
    Tuple,
    Type,
    TypeVar,
    Union,
)

_T = TypeVar("_T")


def _slotted(cls: Type[_T]) -> Type[_T]:
    """``cls`` (a frozen dataclass) made again with ``__slots__`` for its fields, as
    ``dataclass(slots=True)`` does from Python 3.10 on: the native module fills a
    slot directly, where an instance dict costs a dict per result. ``__weakref__``
    stays, and ``__reduce__`` rebuilds an instance from its fields (a frozen class's
    ``__setattr__`` refuses the default way of restoring slots)."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    body = dict(cls.__dict__)
    for name in names:
        body.pop(name, None)  # the defaults: __init__ keeps its own
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__slots__"] = names + ("__weakref__",)

    def __reduce__(self: Any) -> Tuple[Any, Tuple[Any, ...]]:
        return (type(self), tuple(getattr(self, name) for name in names))

    body["__reduce__"] = __reduce__
    slotted: Any = type(cls.__name__, cls.__bases__, body)
    slotted.__qualname__ = cls.__qualname__
    return slotted  # type: ignore[no-any-return]


class Ok:
    """The answer of a validation that found nothing wrong.

    There is one instance, :data:`toolgate.OK`; ``Ok()`` returns it. It is truthy,
    and a failed validation returns a non-empty list (also truthy), so test with
    ``isinstance(result, Ok)`` or ``result is OK`` (or use ``Schema.is_valid``).
    """

    _instance: "Optional[Ok]" = None
    __slots__ = ()

    def __new__(cls) -> "Ok":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "Ok"

    def __reduce__(self) -> Tuple[Type["Ok"], Tuple[()]]:
        return (Ok, ())


OK = Ok()


@_slotted
@dataclass(frozen=True)
class ValidationError:
    """One violation found by a validation.

    * ``path``: RFC 6901 JSON Pointer to where the fix goes (``/id``, ``/fields/1``;
      ``""`` is the whole value). For a missing required property it is the missing
      member, for an unexpected property that property.
    * ``keyword``: the schema keyword that failed (``type``, ``required``, ``enum``,
      ...; ``json`` for malformed JSON, ``size`` for arguments over the registry's limit).
    * ``message``: the core's terse text (``expected integer, got string``).
    * ``expected_type``: for ``type`` errors the expected type as the message
      words it (``"integer"``, ``"integer or null"``), else ``None``.
    * ``location`` (not part of equality): the path as call results write it
      (``$``, ``$.days``, ``$.fields[1]``); ``str(error)`` is ``location: message``,
      the line of a refused call.
    * ``schema_location`` (not part of equality): where the failing keyword is in the
      schema, as a URI fragment (``#/properties/days/type``; ``#`` for malformed JSON
      or a value over the size limit, which no keyword of the schema refused).
    """

    path: str
    keyword: str
    message: str
    expected_type: Optional[str] = None
    location: str = field(default="", compare=False, repr=False)
    schema_location: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.location or '$'}: {self.message}"


@dataclass(frozen=True)
class ToolRecord:
    """A registered tool as ``ToolRegistry.get`` returns it.

    ``schema`` is the value given to ``register`` (the same dict object; for a
    schema given as JSON text, the parsed value; ``{"type": "object"}`` when none
    was given). ``timeout_ms`` is ``None`` when none was given. ``output_schema`` is
    the schema of the tool's answers as given (JSON text parsed, as for ``schema``),
    ``None`` for a tool whose answers are free text. ``exclusive``: the tool runs
    alone in a dispatch (the calls before it finish first, those after it wait).
    """

    name: str
    description: str
    schema: Any
    handler: Callable[..., Any]
    idempotent: bool = False
    timeout_ms: Optional[int] = None
    output_schema: Any = None
    exclusive: bool = False


class _Outcome(str, enum.Enum):
    """The base of :class:`CallOutcome` (a ``str`` enum written as its value)."""

    def __str__(self) -> str:
        return str(self.value)

    if TYPE_CHECKING:
        # What Enum.__new__ takes (a member's value), not str's arguments.
        def __new__(cls, value: str) -> "_Outcome": ...


_OUTCOME_DOC = """What became of a call (``CallResult.outcome``). A ``str`` enum: each member
    equals its value (``result.outcome == "invalid_result"``) and is written as that
    string by ``json.dumps``. The members are the core's outcome names
    (``toolgate._native.OUTCOMES``), upper-cased.

    * ``ANSWERED``: the handler answered (and its answer passed the tool's output
      schema, if it has one); the only outcome that is not an error.
    * ``UNKNOWN_TOOL``: no tool of that name is registered.
    * ``INVALID_ARGUMENTS``: the arguments were over the size limit, malformed or
      invalid; the handler did not run.
    * ``HANDLER_FAILED``: the handler raised, or answered with a value that has no
      JSON form.
    * ``INVALID_RESULT``: the handler answered with something its tool's output
      schema refuses (malformed JSON, over the size limit, or invalid).
    * ``INTERNAL``: a failure of toolgate itself.
    * ``TIMED_OUT``: a dispatched call's deadline passed before its handler answered.
    * ``NOT_RUN``: a dispatched call that was not run though nothing is wrong with it
      alone (the batch over its limit, a call id used twice, or another call of an
      all-or-nothing batch refused).
    * ``CANCELLED``: the host cancelled the dispatch (or closed the registry) before
      the call answered.
    """

if TYPE_CHECKING:
    # The members as type checkers see them; at run time they are the core's names
    # (a test checks that the two agree).
    class CallOutcome(_Outcome):
        ANSWERED = "answered"
        UNKNOWN_TOOL = "unknown_tool"
        INVALID_ARGUMENTS = "invalid_arguments"
        HANDLER_FAILED = "handler_failed"
        INVALID_RESULT = "invalid_result"
        INTERNAL = "internal"
        TIMED_OUT = "timed_out"
        NOT_RUN = "not_run"
        CANCELLED = "cancelled"

        def __new__(cls, value: str) -> "CallOutcome": ...

else:
    # The package imports the native module before this one (and says so when it
    # cannot be loaded).
    from ._native import OUTCOMES as _OUTCOMES

    CallOutcome = _Outcome(
        "CallOutcome",
        [(name.upper(), name) for name in _OUTCOMES],
        module=__name__,
        qualname="CallOutcome",
    )
    CallOutcome.__doc__ = _OUTCOME_DOC


#: The provider dialects a result is written in and calls are read from (a Union of
#: one-name Literals, which the stub checker reads as the alias it is).
_Dialect = Union[
    Literal["openai-chat"],
    Literal["openai-responses"],
    Literal["anthropic"],
    Literal["mcp"],
    Literal["gemini"],
]


@_slotted
@dataclass(frozen=True)
class CallResult:
    """The outcome of ``ToolRegistry.call``/``acall``: always produced.

    ``content`` is the tool's answer, or for any failure (unknown tool, malformed
    or invalid arguments, a handler that raised, an answer the tool's output schema
    refuses) text starting with ``error: `` that the model can act on; ``is_error``
    says which, and ``outcome`` (a :class:`CallOutcome`) which failure.

    * ``structured``: the content is the handler's answer, checked against the
      tool's output schema (so it is JSON of that shape).
    * ``violations``: for ``INVALID_ARGUMENTS`` and ``INVALID_RESULT``, every
      :class:`ValidationError`, in the order the content lists them; else empty.
    * ``invalid_result``: for ``INVALID_RESULT``, the handler's answer as JSON text
      (which the content does not hold), to log or inspect; else ``None``.
    * ``attempts``: how many times the handler ran: 1 when it ran (answered, failed
      or answered invalidly), 0 when it did not; a dispatched call retried after
      ``RetryableError`` counts each run, and a replayed one (``remember_call_ids``)
      the runs of the call it repeats.

    Equality and hash are those of the first four fields, what the model reads: the
    others follow from the call (the content names every failure).
    """

    call_id: str
    name: str
    content: str
    is_error: bool
    outcome: CallOutcome = field(default=CallOutcome.ANSWERED, compare=False)
    structured: bool = field(default=False, compare=False)
    violations: List[ValidationError] = field(default_factory=list, compare=False)
    invalid_result: Optional[str] = field(default=None, compare=False)
    attempts: int = field(default=0, compare=False)

    def message(self) -> Dict[str, str]:
        """The tool message answering the call:
        ``{"role": "tool", "tool_call_id": call_id, "content": content}``."""
        return {"role": "tool", "tool_call_id": self.call_id, "content": self.content}

    def result_json(self, dialect: _Dialect) -> str:
        """The item that answers the call in ``dialect``'s shape, as compact JSON (the
        same bytes in every host):

        * ``openai-chat``: ``{"role":"tool","tool_call_id":ID,"content":CONTENT}``;
        * ``openai-responses``: ``{"type":"function_call_output","call_id":ID,"output":CONTENT}``;
        * ``anthropic``: ``{"type":"tool_result","tool_use_id":ID,"content":CONTENT}``,
          with ``"is_error":true`` for a failure;
        * ``mcp``: a ``CallToolResult``: the content as one text block,
          ``structuredContent`` for a structured answer that is an object, ``isError``,
          and the violations under ``_meta`` (``toolgate/violations``);
        * ``gemini``: a ``functionResponse`` part, its ``response``
          ``{"output": ANSWER}`` (the answer's JSON when structured) or
          ``{"error": CONTENT}``.

        An unknown dialect raises ``ValueError``. See also :func:`toolgate.results_message_json`.
        """
        from . import _native

        return _native.result_json(dialect, self)


@_slotted
@dataclass(frozen=True)
class ToolCall:
    """One call a model asked for, as :func:`toolgate.read_calls` reads it from a
    provider's response.

    * ``id``: the id the call's result must carry (``""`` for a Gemini call without
      one; for MCP the JSON-RPC id's JSON text, ``7`` or ``"a"`` with its quotes).
    * ``name``: the tool's name as the provider sent it.
    * ``arguments``: the argument text exactly as sent (the decoded ``arguments``
      string for OpenAI, the bytes of the argument object for Anthropic, Gemini and
      MCP); ``""`` when the call sent none, which the registry reads as ``{}``.

    ``registry.call(c.id, c.name, c.arguments)`` runs it.
    """

    id: str
    name: str
    arguments: str


@_slotted
@dataclass(frozen=True)
class CallEvent:
    """What an observer (``ToolRegistry(observer=...)``) is told of one dispatched
    call, refused ones included: once the batch is done, in the batch's order, on
    the thread that called ``dispatch`` (for ``adispatch``, in the awaiting task).

    * ``call_id``, ``tool``: the call's id and the tool name it asked for (even when
      unknown).
    * ``outcome``: the result's :class:`CallOutcome`; ``error_type``: ``None`` for an
      answer, else a short fixed name of the failure: ``unknown_tool``,
      ``invalid_arguments``, ``tool_error``, ``panic``, ``invalid_result``,
      ``timeout``, ``internal``, ``not_run``, ``batch_too_large``,
      ``duplicate_call_id``, ``call_id_reused``, ``call_id_running``, ``cancelled``.
    * ``attempts``: how many times the handler ran now (0 for a replay).
    * ``duration``: seconds from the call's start to its result (for a refused call,
      its validation); ``start_time_ns``: when the batch started (``time.time_ns()``),
      so the call ran within ``[start_time_ns, start_time_ns + duration]`` when it
      started with the batch.
    * ``argument_bytes``: the length of the argument bytes; ``replayed``: the result is
      the one recorded for this call id and the tool did not run again.
    * ``arguments``: the argument text as sent; ``result``: the call's
      :class:`CallResult`. Both hold the call's values: ``masked_values`` says the
      registry keeps values out of its texts, and an observer that records them
      should not then (``toolgate.otel`` does not).
    """

    call_id: str
    tool: str
    outcome: CallOutcome
    error_type: Optional[str]
    attempts: int
    duration: float
    argument_bytes: int
    replayed: bool
    arguments: str
    result: CallResult
    start_time_ns: int
    masked_values: bool


#: What validation and calls accept as arguments: raw JSON text, or a JSON value.
JSONArgs = Union[str, bytes, bytearray, memoryview, Dict[str, Any], List[Any]]
