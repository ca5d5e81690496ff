from typing import Any, Iterable, List, Literal, Optional, Sequence

from ._native import Canceller, Registry
from ._types import CallResult, JSONArgs

class ToolRegistry(Registry):
    def __enter__(self) -> "ToolRegistry": ...
    async def acall(self, call_id: str, name: str, args: JSONArgs) -> CallResult: ...
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
