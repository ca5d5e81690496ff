"""The exceptions of the toolgate package.

::

    ToolgateError                      every failure the core reports (.status, .message)
    ├── InvalidNameError   ValueError  TG_ERR_NAME: the name breaks the registry's policy
    ├── DuplicateToolError ValueError  TG_ERR_DUPLICATE: registered already, no override
    ├── SchemaError        ValueError  TG_ERR_SCHEMA: the schema does not compile
    │   └── NotObjectSchemaError       TG_ERR_NOT_OBJECT: parameters must be "type": "object"
    ├── ToolNotFoundError  KeyError    TG_ERR_NOT_FOUND (and get() of an absent name)
    ├── InvalidTextError   ValueError  TG_ERR_UTF8: a name/call id/description is not text
    ├── InvalidArgumentError ValueError TG_ERR_NULL, TG_ERR_ARGUMENT, TG_ERR_RANGE
    └── InvalidResponseError ValueError TG_ERR_RESPONSE: read_calls found no calls' shape
    LibraryNotFoundError   ImportError the native module cannot be loaded
    RetryableError         Exception   raised by a handler: a transient failure

``str(exc)`` is the core's message (for ``ToolNotFoundError`` too, unlike a
plain ``KeyError`` which would show its ``repr``).

A failure *of a tool call* (unknown tool, invalid arguments, a handler that
raised) is not an exception: ``call`` returns a result with ``is_error`` set,
because that text is what the model must read.
"""

from __future__ import annotations

import enum
from typing import Dict, List, Optional, Sequence, Type


class Status(enum.IntEnum):
    """The status of a failure, numbered as the C ABI's ``tg_status`` (explicit and
    never reused), so an error means the same in every host."""

    OK = 0
    ERR_NULL = 1
    ERR_UTF8 = 2
    ERR_ARGUMENT = 3
    ERR_RANGE = 4
    ERR_SCHEMA = 5
    ERR_NAME = 6
    ERR_DUPLICATE = 7
    ERR_NOT_OBJECT = 8
    ERR_NOT_FOUND = 9
    ERR_HANDLER = 10
    ERR_PANIC = 11
    ERR_RESPONSE = 12


class ToolgateError(Exception):
    """A failure reported by the toolgate core.

    Attributes: ``status`` (a :class:`Status`, or the raw int for a value this
    package does not know), ``message`` (the library's text), and for schema
    errors ``pointer`` (RFC 6901 pointer into the schema) and ``keyword``.
    """

    def __init__(
        self,
        message: str,
        status: "int | Status" = Status.ERR_ARGUMENT,
        pointer: str = "",
        keyword: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status: "int | Status"
        try:
            self.status = Status(status)
        except ValueError:
            self.status = status
        self.pointer = pointer
        self.keyword = keyword

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __reduce__(self):
        return (type(self), (self.message, int(self.status), self.pointer, self.keyword))


class InvalidNameError(ToolgateError, ValueError):
    """The tool name does not satisfy the registry's name policy."""


class DuplicateToolError(ToolgateError, ValueError):
    """A tool of that name is already registered and ``override=True`` was not given."""


class SchemaError(ToolgateError, ValueError):
    """The schema does not compile: ``pointer`` and ``keyword`` say where."""


class NotObjectSchemaError(SchemaError):
    """A tool's parameters schema compiles but does not require a JSON object."""


class ToolNotFoundError(ToolgateError, KeyError):
    """No tool of that name is registered."""


class InvalidTextError(ToolgateError, ValueError):
    """A name, call id or description is not valid Unicode text (lone surrogates)."""


class InvalidArgumentError(ToolgateError, ValueError):
    """An argument outside its domain (an unknown name policy, a negative limit)."""


class InvalidResponseError(ToolgateError, ValueError):
    """A provider's response whose tool calls cannot be read (``read_calls``): it is
    not JSON, not the dialect's shape, or one call is malformed. ``index`` is that
    call's place among the response's calls (from 0), ``None`` when the fault is the
    whole response's; the message names it (``tool call 1 (openai-chat): missing
    "id"``)."""

    def __init__(
        self,
        message: str,
        status: "int | Status" = Status.ERR_RESPONSE,
        pointer: str = "",
        keyword: str = "",
        index: Optional[int] = None,
    ) -> None:
        super().__init__(message, status, pointer, keyword)
        self.index = index

    def __reduce__(self):
        return (type(self), (self.message, int(self.status), self.pointer, self.keyword, self.index))


class RetryableError(Exception):
    """Raised by a handler for a transient failure (a dropped connection, a busy
    service): under ``ToolRegistry.dispatch`` the call runs again, after a backoff,
    when its tool is registered ``idempotent=True`` and attempts are left
    (``max_attempts``). The failure's text is ``str(exc)`` as for any exception
    (``error: service busy``); a plain ``call`` does not retry.
    ``toolgate.running_call().retry_later()`` marks any failure of the attempt so.
    """


class LibraryNotFoundError(ImportError):
    """The native module ``toolgate._native`` cannot be loaded (a package built for
    another platform, or a source checkout that was never built).

    ``tried`` lists what was tried, with the reason each failed.
    """

    def __init__(self, message: str, tried: Optional[Sequence[str]] = None) -> None:
        super().__init__(message)
        self.tried: List[str] = list(tried or [])


_BY_STATUS: Dict[int, Type[ToolgateError]] = {
    Status.ERR_NULL: InvalidArgumentError,
    Status.ERR_UTF8: InvalidTextError,
    Status.ERR_ARGUMENT: InvalidArgumentError,
    Status.ERR_RANGE: InvalidArgumentError,
    Status.ERR_SCHEMA: SchemaError,
    Status.ERR_NAME: InvalidNameError,
    Status.ERR_DUPLICATE: DuplicateToolError,
    Status.ERR_NOT_OBJECT: NotObjectSchemaError,
    Status.ERR_NOT_FOUND: ToolNotFoundError,
    Status.ERR_RESPONSE: InvalidResponseError,
}


def error_for(status: int, message: str, pointer: str = "", keyword: str = "") -> ToolgateError:
    """The exception for a failed library call."""
    cls = _BY_STATUS.get(status, ToolgateError)
    return cls(message, status, pointer, keyword)
