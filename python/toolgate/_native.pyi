"""Type stubs of the native module ``toolgate._native`` (the Rust core, compiled in)."""

from types import TracebackType
from typing import Any, Callable, Coroutine, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Tuple, Type, Union, final

from typing_extensions import disjoint_base

from ._types import CallEvent, CallResult, JSONArgs, _Dialect, Ok, ToolCall, ToolRecord, ValidationError

#: Arguments up to this many bytes are validated with the GIL held; larger ones
#: release it so other threads run meanwhile.
GIL_HELD_MAX_BYTES: int
#: The largest arguments a registry reads unless told otherwise (4 MiB).
DEFAULT_MAX_ARGUMENT_BYTES: int
#: The nesting limit unless told otherwise (128).
DEFAULT_MAX_DEPTH: int
#: The largest nesting limit that may be set (larger ones are clamped to it).
MAX_DEPTH_LIMIT: int
#: The most violations a registry lists in a refusal.
LISTED_VIOLATIONS: int
#: The version of the Rust core.
version: str
#: The core's statuses: (name, number, description), what toolgate.Status numbers.
STATUSES: List[Tuple[str, int, str]]
#: The core's outcome names, in the order of its numbers (toolgate.CallOutcome's values).
OUTCOMES: List[str]

__all__ = [
    "Schema",
    "compile",
    "strict_schema",
    "lint_schema",
    "result_json",
    "results_message_json",
    "read_calls",
    "Registry",
    "_PreparedCall",
    "SchemaStream",
    "CallStream",
    "GIL_HELD_MAX_BYTES",
    "DEFAULT_MAX_ARGUMENT_BYTES",
    "DEFAULT_MAX_DEPTH",
    "MAX_DEPTH_LIMIT",
    "LISTED_VIOLATIONS",
    "STATUSES",
    "OUTCOMES",
    "RunningCall",
    "Canceller",
    "_running_call",
    "version",
]

@final
class Schema:
    """A compiled JSON Schema (core profile), immutable and thread-safe."""

    def __new__(
        cls,
        schema: Any,
        *,
        max_depth: int = 0,
        profile: Literal["core", "full"] = "core",
        draft: Optional[Literal["2020-12", "7"]] = None,
        resources: Optional[Dict[str, Any]] = None,
        annotation_formats: Optional[List[str]] = None,
        masked_values: bool = False,
    ) -> "Schema": ...
    def is_valid(self, args: JSONArgs) -> bool: ...
    def is_valid_arguments(self, args: JSONArgs) -> bool: ...
    def validate(
        self, args: JSONArgs, *, at_most: Optional[int] = None
    ) -> Union[Ok, List[ValidationError]]: ...
    def validate_arguments(
        self, args: JSONArgs, *, at_most: Optional[int] = None
    ) -> Union[Ok, List[ValidationError]]: ...
    def stream(self, *, at_most: Optional[int] = None) -> "SchemaStream": ...
    @property
    def json(self) -> str: ...
    @property
    def schema(self) -> Any: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Schema": ...
    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None: ...

def compile(
    schema: Any,
    *,
    max_depth: int = 0,
    profile: Literal["core", "full"] = "core",
    draft: Optional[Literal["2020-12", "7"]] = None,
    resources: Optional[Dict[str, Any]] = None,
    annotation_formats: Optional[List[str]] = None,
    masked_values: bool = False,
) -> Schema: ...

def strict_schema(
    target: Literal["openai-strict", "anthropic-strict", "gemini"], schema: Any
) -> Dict[str, Any]: ...
def lint_schema(
    target: Literal["openai-strict", "anthropic-strict", "gemini"], schema: Any
) -> List[Dict[str, str]]: ...

def result_json(dialect: _Dialect, result: CallResult) -> str: ...
def results_message_json(dialect: _Dialect, results: Iterable[CallResult]) -> str: ...
def read_calls(dialect: _Dialect, response: Union[str, bytes, bytearray, memoryview]) -> List[ToolCall]: ...

@final
class _PreparedCall:
    """A call the core let through, for ``acall`` to run and await."""

    def start(self) -> Any: ...
    def finish(self, value: Any) -> CallResult: ...
    def failed(self, exc: BaseException) -> CallResult: ...

@final
class SchemaStream:
    """An instance of a schema validated as its chunks arrive (``Schema.stream()``)."""

    def feed(self, chunk: Union[str, bytes, bytearray, memoryview]) -> Optional[List[ValidationError]]: ...
    def finish(self) -> Union[Ok, List[ValidationError]]: ...
    @property
    def refused(self) -> bool: ...
    @property
    def bytes_read(self) -> int: ...
    @property
    def bytes_before_refusal(self) -> Optional[int]: ...
    @property
    def finished(self) -> bool: ...

@final
class CallStream:
    """A tool call whose arguments arrive in chunks (``ToolRegistry.stream_call``)."""

    def feed(self, chunk: Union[str, bytes, bytearray, memoryview]) -> Optional[CallResult]: ...
    def finish(self) -> CallResult: ...
    def afinish(self) -> Coroutine[Any, Any, CallResult]: ...
    @property
    def refused(self) -> bool: ...
    @property
    def bytes_read(self) -> int: ...
    @property
    def bytes_before_refusal(self) -> Optional[int]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def call_id(self) -> str: ...
    @property
    def name(self) -> str: ...

@disjoint_base
class Registry:
    """The native registry; ``toolgate.ToolRegistry`` adds ``acall``."""

    def __new__(
        cls,
        names: Literal["dotted", "default", "mcp"] = "dotted",
        *,
        max_argument_bytes: Optional[int] = 4194304,
        max_depth: int = 0,
        profile: Literal["core", "full"] = "core",
        draft: Optional[Literal["2020-12", "7"]] = None,
        resources: Optional[Dict[str, Any]] = None,
        annotation_formats: Optional[List[str]] = None,
        targets: Optional[List[Literal["openai-strict", "anthropic-strict", "gemini"]]] = None,
        masked_values: bool = False,
        remember_call_ids: int = 0,
        default_timeout: Optional[float] = None,
        observer: Optional[Callable[[CallEvent], Any]] = None,
    ) -> "Registry": ...
    @property
    def policy(self) -> str: ...
    @property
    def max_argument_bytes(self) -> Optional[int]: ...
    @property
    def max_depth(self) -> int: ...
    @property
    def masked_values(self) -> bool: ...
    @property
    def remember_call_ids(self) -> int: ...
    @property
    def default_timeout(self) -> Optional[float]: ...
    @property
    def observer(self) -> Optional[Callable[[CallEvent], Any]]: ...
    def _dispatch(
        self,
        calls: Iterable[Any],
        policy: str,
        max_concurrency: Optional[int],
        max_batch: Optional[int],
        timeout: Optional[float],
        max_attempts: Optional[int],
        backoff: Optional[float],
        event_loop: Any = None,
        canceller: Optional["Canceller"] = None,
    ) -> Tuple[List[CallResult], Optional[Callable[[CallEvent], Any]], Optional[List[Tuple[Optional[str], int, float, int, bool]]]]: ...
    def register(
        self,
        name: str,
        schema: Any,
        handler: Callable[..., Any],
        *,
        description: str = "",
        idempotent: bool = False,
        timeout_ms: Optional[int] = None,
        override: bool = False,
        arguments: Literal["kwargs", "dict", "json"] = "kwargs",
        output_schema: Any = None,
        exclusive: bool = False,
    ) -> ToolRecord: ...
    def register_all(
        self, tools: Iterable[Mapping[str, Any]], *, override: bool = False
    ) -> List[ToolRecord]: ...
    def unregister(self, name: str) -> None: ...
    def get(self, name: str) -> ToolRecord: ...
    def names(self) -> List[str]: ...
    def __contains__(self, name: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def definitions(self) -> List[Dict[str, Any]]: ...
    def definitions_json(self) -> str: ...
    def dialect_definitions(self, dialect: str) -> Tuple[str, str]: ...
    def lint(self, target: str) -> List[Dict[str, str]]: ...
    def validate(self, name: str, args: JSONArgs) -> Union[Ok, List[ValidationError]]: ...
    def call(self, call_id: str, name: str, args: JSONArgs) -> CallResult: ...
    def stream_call(self, call_id: str, name: str) -> "CallStream": ...
    def _prepare(self, call_id: str, name: str, args: JSONArgs) -> Union[CallResult, _PreparedCall]: ...
    def _call_in_core(self, call_id: str, name: str, args: JSONArgs) -> CallResult: ...
    def _library_names(self) -> List[str]: ...
    @property
    def _tools(self) -> Dict[int, Callable[..., Any]]: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Registry": ...
    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None: ...

@final
class RunningCall:
    """One dispatched call while its handler runs (``toolgate.running_call()``)."""

    @property
    def cancelled(self) -> bool: ...
    @property
    def deadline(self) -> Optional[float]: ...
    def time_left(self) -> Optional[float]: ...
    def retry_later(self) -> None: ...
    def on_cancel(self, callback: Callable[[], Any]) -> None: ...

@final
class Canceller:
    """Cancels the dispatches it is given to, from any thread."""

    def __new__(cls) -> "Canceller": ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

def _running_call() -> Optional[RunningCall]: ...
