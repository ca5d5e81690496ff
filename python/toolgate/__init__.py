"""toolgate: a tool registry for LLM agents, over the toolgate Rust core.

::

    from toolgate import ToolRegistry, Ok

    registry = ToolRegistry()                     # names="dotted" (also "default", "mcp")
    registry.register("db.get_user", schema, get_user, description="...")
    registry.validate("db.get_user", '{"id": "forty-two"}')
    # [ValidationError(path='/id', keyword='type', message='expected integer, got string',
    #                  expected_type='integer')]
    result = registry.call("call_1", "db.get_user", '{"id": 42}')
    result.message()   # {"role": "tool", "tool_call_id": "call_1", "content": ...}
    results = registry.dispatch([("c1", "db.get_user", '{"id": 1}'), ("c2", ...)], timeout=30)

and ``toolgate.compile(schema)`` for standalone validation. With a provider's
response, ``toolgate.read_calls(dialect, response)`` reads the calls it asks for, and
``result.result_json(dialect)`` / ``toolgate.results_message_json(dialect, results)``
write the answers in that provider's shape. The core is compiled into
the native module ``toolgate._native``; every text (refusals, violations, a handler's
failure) is the core's, the same bytes every host shows.
"""

from ._errors import (
    DuplicateToolError,
    InvalidArgumentError,
    InvalidNameError,
    InvalidResponseError,
    InvalidTextError,
    LibraryNotFoundError,
    NotObjectSchemaError,
    RetryableError,
    SchemaError,
    Status,
    ToolgateError,
    ToolNotFoundError,
)

try:
    from . import _native
except ImportError as exc:  # pragma: no cover - a package without its native module
    raise LibraryNotFoundError(
        f"cannot load the native module toolgate._native ({exc}). Install the package with "
        "`pip install ./python` (which builds it; Rust is needed) or from a wheel built "
        "for this platform.",
        tried=[f"toolgate._native: {exc}"],
    ) from exc

from ._types import OK, CallEvent, CallOutcome, CallResult, Ok, ToolCall, ToolRecord, ValidationError
from ._dispatch import running_call
from ._native import (
    CallStream,
    Canceller,
    RunningCall,
    Schema,
    SchemaStream,
    compile,
    lint_schema,
    read_calls,
    results_message_json,
    strict_schema,
)
from ._registry import ToolRegistry

__version__ = "0.1.0"

#: The version of the Rust core compiled into the native module.
library_version: str = _native.version
#: The file the native module was loaded from.
library_path: str = _native.__file__

#: The largest arguments a registry reads unless told otherwise (4 MiB).
DEFAULT_MAX_ARGUMENT_BYTES: int = _native.DEFAULT_MAX_ARGUMENT_BYTES
#: The nesting limit of schemas and arguments unless told otherwise (128).
DEFAULT_MAX_DEPTH: int = _native.DEFAULT_MAX_DEPTH
#: The most violations a registry lists in a refusal (``Schema.validate``'s
#: ``at_most`` for a list that goes back to a model).
LISTED_VIOLATIONS: int = _native.LISTED_VIOLATIONS

__all__ = [
    "CallEvent",
    "CallOutcome",
    "CallResult",
    "CallStream",
    "Canceller",
    "DEFAULT_MAX_ARGUMENT_BYTES",
    "DEFAULT_MAX_DEPTH",
    "DuplicateToolError",
    "InvalidArgumentError",
    "InvalidNameError",
    "InvalidResponseError",
    "InvalidTextError",
    "LISTED_VIOLATIONS",
    "LibraryNotFoundError",
    "NotObjectSchemaError",
    "OK",
    "Ok",
    "RetryableError",
    "RunningCall",
    "Schema",
    "SchemaError",
    "SchemaStream",
    "Status",
    "ToolCall",
    "ToolNotFoundError",
    "ToolRecord",
    "ToolRegistry",
    "ToolgateError",
    "ValidationError",
    "compile",
    "library_path",
    "library_version",
    "lint_schema",
    "read_calls",
    "results_message_json",
    "running_call",
    "strict_schema",
]
