from ._errors import (
    DuplicateToolError as DuplicateToolError,
    InvalidArgumentError as InvalidArgumentError,
    InvalidNameError as InvalidNameError,
    InvalidResponseError as InvalidResponseError,
    InvalidTextError as InvalidTextError,
    LibraryNotFoundError as LibraryNotFoundError,
    NotObjectSchemaError as NotObjectSchemaError,
    RetryableError as RetryableError,
    SchemaError as SchemaError,
    Status as Status,
    ToolgateError as ToolgateError,
    ToolNotFoundError as ToolNotFoundError,
)
from ._dispatch import running_call as running_call
from ._native import (
    CallStream as CallStream,
    Canceller as Canceller,
    RunningCall as RunningCall,
    Schema as Schema,
    SchemaStream as SchemaStream,
    compile as compile,
    lint_schema as lint_schema,
    read_calls as read_calls,
    results_message_json as results_message_json,
    strict_schema as strict_schema,
)
from ._registry import ToolRegistry as ToolRegistry
from ._types import (
    OK as OK,
    CallEvent as CallEvent,
    CallOutcome as CallOutcome,
    CallResult as CallResult,
    JSONArgs as JSONArgs,
    Ok as Ok,
    ToolCall as ToolCall,
    ToolRecord as ToolRecord,
    ValidationError as ValidationError,
)

__version__: str
library_version: str
library_path: str
DEFAULT_MAX_ARGUMENT_BYTES: int
DEFAULT_MAX_DEPTH: int
LISTED_VIOLATIONS: int
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
