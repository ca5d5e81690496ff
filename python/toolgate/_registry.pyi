from typing import Any, AsyncIterable, Iterable, List, Literal, Optional, Sequence, Union

from ._native import Canceller, Registry
from ._types import CallResult, JSONArgs

class ToolRegistry(Registry):
    def __enter__(self) -> "ToolRegistry": ...
    async def acall(self, call_id: str, name: str, args: JSONArgs) -> CallResult: ...
    def call_deltas(self, call_id: str, name: str, deltas: Iterable[Any]) -> CallResult: ...
    async def acall_deltas(
        self, call_id: str, name: str, deltas: Union[AsyncIterable[Any], Iterable[Any]]
    ) -> CallResult: ...
    def dispatch(
        self,
        calls: Iterable[Any],
        *,
        policy: Literal["isolate", "all-or-nothing"] = "isolate",
        max_concurrency: Optional[int] = None,
        max_batch: Optional[int] = None,
        timeout: Optional[float] = None,
        max_attempts: Optional[int] = None,
        backoff: Optional[float] = None,
        canceller: Optional[Canceller] = None,
    ) -> List[CallResult]: ...
    async def adispatch(
        self,
        calls: Iterable[Any],
        *,
        policy: Literal["isolate", "all-or-nothing"] = "isolate",
        max_concurrency: Optional[int] = None,
        max_batch: Optional[int] = None,
        timeout: Optional[float] = None,
        max_attempts: Optional[int] = None,
        backoff: Optional[float] = None,
    ) -> List[CallResult]: ...

async def _finish_stream(
    registry: Any, call_id: str, name: str, refusal: Optional[CallResult], args: Optional[bytes]
) -> CallResult: ...
def _argument_text(call: Any) -> str: ...
def _tell(
    observer: Any,
    calls: Sequence[Any],
    results: Sequence[CallResult],
    events: Sequence[Any],
    started: int,
    masked: bool,
) -> None: ...
def _await_blocking(awaitable: Any) -> Any: ...
def _unaccepted_property(handler: Any, schema: Any) -> Optional[str]: ...
