"""toolgate: a tool registry for LLM agents, over the Rust core's C ABI.

Seed 002's API::

    from toolgate import ToolRegistry, Ok

    registry = ToolRegistry()                     # names="dotted" (also "default", "mcp")
    registry.register("db.get_user", schema, get_user, description="...")
    registry.validate("db.get_user", '{"id": "forty-two"}')
    # [ValidationError(path='/id', keyword='type', message='expected integer, got string',
    #                  expected_type='integer')]
    result = registry.call("call_1", "db.get_user", '{"id": 42}')
    result.message()   # {"role": "tool", "tool_call_id": "call_1", "content": ...}

and ``toolgate.compile(schema)`` for standalone validation. The shared library is
found through ``$TOOLGATE_LIB``, the copy shipped in the package, a development
checkout's ``target/release``/``target/debug``, or the system's search path.
"""

from ._errors import (
    DuplicateToolError,
    InvalidArgumentError,
    InvalidNameError,
    InvalidTextError,
    LibraryNotFoundError,
    NotObjectSchemaError,
    SchemaError,
    Status,
    ToolgateError,
    ToolNotFoundError,
)
from ._types import OK, CallResult, Ok, ToolRecord, ValidationError
from . import _native
from ._schema import Schema, compile
from ._registry import ToolRegistry

__version__ = "0.1.0"

#: The version of the shared library actually loaded (``tg_version()``).
library_version: str = _native.version
#: The path or name the shared library was loaded from.
library_path: str = _native.path

__all__ = [
    "CallResult",
    "DuplicateToolError",
    "InvalidArgumentError",
    "InvalidNameError",
    "InvalidTextError",
    "LibraryNotFoundError",
    "NotObjectSchemaError",
    "OK",
    "Ok",
    "Schema",
    "SchemaError",
    "Status",
    "ToolNotFoundError",
    "ToolRecord",
    "ToolRegistry",
    "ToolgateError",
    "ValidationError",
    "compile",
    "library_path",
    "library_version",
]
