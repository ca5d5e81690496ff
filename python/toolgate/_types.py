"""Plain value types of the package: Ok, ValidationError, ToolRecord, CallResult.

The native module builds ValidationError and CallResult instances directly (as
``object.__new__`` plus ``object.__setattr__`` per field, what the frozen dataclass's
``__init__`` does), so they are ordinary dataclass instances in every respect; both
have ``__slots__`` (one is made for every call), so they have no ``__dict__``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar, Union

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
    """

    path: str
    keyword: str
    message: str
    expected_type: Optional[str] = None
    location: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.location or '$'}: {self.message}"


@dataclass(frozen=True)
class ToolRecord:
    """A registered tool as ``ToolRegistry.get`` returns it.

    ``schema`` is the value given to ``register`` (the same dict object; for a
    schema given as JSON text, the parsed value; ``{"type": "object"}`` when none
    was given). ``timeout_ms`` is ``None`` when none was given.
    """

    name: str
    description: str
    schema: Any
    handler: Callable[..., Any]
    idempotent: bool = False
    timeout_ms: Optional[int] = None


@_slotted
@dataclass(frozen=True)
class CallResult:
    """The outcome of ``ToolRegistry.call``/``acall``: always produced.

    ``content`` is the tool's answer, or for any failure (unknown tool, malformed
    or invalid arguments, a handler that raised) text starting with ``error: ``
    that the model can act on; ``is_error`` says which.
    """

    call_id: str
    name: str
    content: str
    is_error: bool

    def message(self) -> Dict[str, str]:
        """The tool message answering the call:
        ``{"role": "tool", "tool_call_id": call_id, "content": content}``."""
        return {"role": "tool", "tool_call_id": self.call_id, "content": self.content}


#: What validation and calls accept as arguments: raw JSON text, or a JSON value.
JSONArgs = Union[str, bytes, bytearray, memoryview, Dict[str, Any], List[Any]]
