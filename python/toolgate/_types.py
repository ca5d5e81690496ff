"""Plain value types of the package: Ok, ValidationError, ToolRecord, CallResult."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Union


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

    def __reduce__(self):
        return (Ok, ())


OK = Ok()

_TYPE_MESSAGE = re.compile(r"\Aexpected (.+), got [a-z]+\Z", re.S)


@dataclass(frozen=True)
class ValidationError:
    """One violation found by a validation.

    * ``path``: RFC 6901 JSON Pointer to where the fix goes (seed 003: ``/id``,
      ``/fields/1``; ``""`` is the whole value). For a missing required property it
      is the missing member, for an unexpected property that property.
    * ``keyword``: the schema keyword that failed (``type``, ``required``, ``enum``,
      ...; ``json`` for malformed JSON).
    * ``message``: the library's terse text (``expected integer, got string``).
    * ``expected_type``: for ``type`` errors the expected type as the message
      words it (``"integer"``, ``"integer or null"``), else ``None``.
    * ``location`` (not part of equality): the seed-000 form of the path the
      library uses in call results (``$``, ``$.days``, ``$.fields[1]``);
      ``str(error)`` is ``location: message``, the line of a refused call.
    """

    path: str
    keyword: str
    message: str
    expected_type: Optional[str] = None
    location: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.location or '$'}: {self.message}"


def expected_type_of(keyword: str, message: str) -> Optional[str]:
    if keyword != "type":
        return None
    m = _TYPE_MESSAGE.match(message)
    return m.group(1) if m else None


_new = object.__new__
_set = object.__setattr__
# The C scanner behind json.loads, called directly: the library's text is compact
# UTF-8 JSON, so the encoding detection and whitespace handling of json.loads are
# not needed on this hot path.
_scan_once = json.JSONDecoder().scan_once


def _parse(text: bytes) -> Any:
    try:
        value, end = _scan_once(text.decode("utf-8"), 0)
    except (StopIteration, ValueError):
        return json.loads(text)
    return value


def errors_from_json(text: bytes) -> List[ValidationError]:
    """ValidationErrors from the library's tg_errors_json array.

    The instances are built without going through the frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` per field): this is the hot part of
    materializing an error list.
    """
    out = []
    append = out.append
    for item in _parse(text):
        keyword = item["keyword"]
        message = item["message"]
        error = _new(ValidationError)
        _set(
            error,
            "__dict__",
            {
                "path": item["pointer"],
                "keyword": keyword,
                "message": message,
                "expected_type": expected_type_of(keyword, message) if keyword == "type" else None,
                "location": item["path"],
            },
        )
        append(error)
    return out


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


JSONArgs = Union[str, bytes, bytearray, memoryview, Dict[str, Any], List[Any]]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def args_bytes(args: Any) -> bytes:
    """The bytes the library validates.

    ``str``/``bytes`` are the raw JSON text, passed as received (a ``str`` is
    encoded to UTF-8, lone surrogates kept so that the library reports them as
    malformed). Any other value (dict, list, ...) is serialized without loss:
    compact, ``True`` stays ``true``, big integers stay exact, NaN/Infinity refused
    (``ValueError``), and an unserializable value raises ``TypeError``.
    """
    t = type(args)
    if t is bytes:
        return args
    if t is str:
        return args.encode("utf-8", "surrogatepass")
    if isinstance(args, (bytes, bytearray, memoryview)):
        return bytes(args)
    if isinstance(args, str):
        return str(args).encode("utf-8", "surrogatepass")
    return _dumps(args).encode("utf-8", "surrogatepass")


def schema_bytes(schema: Any) -> Optional[bytes]:
    """A schema as JSON bytes (str/bytes passed as given); None stays None."""
    if schema is None:
        return None
    return args_bytes(schema)
