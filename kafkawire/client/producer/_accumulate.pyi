"""The producer's batches and futures (compiled)."""

from collections.abc import Awaitable, Callable, Generator
from typing import Any, Generic, TypeVar

from ..types import RecordMetadata, TopicPartition

T = TypeVar("T")

QUEUED: int
IN_FLIGHT: int
DONE: int

class ProducerBatch:
    tp: TopicPartition
    builder: Any
    data: bytes | None
    count: int
    created: float
    deadline: float
    sequence: int
    stamp: object  # the producer identity it was numbered under
    built_as: tuple[int, int, int] | None
    attempts: int
    retry_at: float
    state: int
    base_offset: int
    log_append_time: int
    error: BaseException | None
    waiters: list[Any] | None
    callbacks: list[tuple[Callable[..., Any], Any]] | None
    last_error: BaseException | None
    accounted: int
    def __init__(
        self,
        tp: TopicPartition,
        builder: Any,
        data: bytes | None,
        count: int,
        now: float,
        deadline: float,
    ) -> None: ...
    @property
    def size(self) -> int: ...
    def build(self, producer_id: int, epoch: int, sequence: int, transactional: bool) -> bytes: ...
    def finish(
        self, base_offset: int, log_append_time: int, error: BaseException | None
    ) -> tuple[tuple[Callable[..., Any], Any], ...] | list[tuple[Callable[..., Any], Any]]: ...

class RecordFuture:
    """The outcome of one ``Producer.send``."""

    def done(self) -> bool: ...
    def cancelled(self) -> bool: ...
    def cancel(self) -> bool: ...
    def result(self, timeout: float | None = None) -> RecordMetadata: ...
    def exception(self, timeout: float | None = None) -> BaseException | None: ...
    def add_done_callback(self, fn: Callable[[RecordFuture], Any]) -> None: ...

class AsyncRecordFuture:
    """The outcome of one ``kafkawire.aio.Producer.send``: await it."""

    def done(self) -> bool: ...
    def cancelled(self) -> bool: ...
    def cancel(self) -> bool: ...
    def result(self) -> RecordMetadata: ...
    def exception(self) -> BaseException | None: ...
    def add_done_callback(self, fn: Callable[[AsyncRecordFuture], Any]) -> None: ...
    def __await__(self) -> Generator[Any, None, RecordMetadata]: ...

def record_future(
    b: ProducerBatch, index: int, timestamp: int, signal: Any
) -> RecordFuture | AsyncRecordFuture: ...

class PartitionQueue:
    tp: TopicPartition
    batches: Any
    open: ProducerBatch | None
    in_flight: int
    retrying: bool
    next_sequence: int
    acked: int
    sent_to: int
    def __init__(self, tp: TopicPartition) -> None: ...
    def requeue(self, batch: ProducerBatch) -> None: ...

class Topic:
    name: str
    queues: list[PartitionQueue]
    sticky: int
    def __init__(self, name: str) -> None: ...

def append_fast(
    topics: dict[str, Topic],
    topic: str,
    value: Any,
    key: Any,
    headers: Any,
    timestamp: int | None,
    signal: Any,
) -> RecordFuture | AsyncRecordFuture | None: ...

class FastSend:
    def __init__(
        self, lock: Any, core: Any, signal: Any, full_path: Callable[..., Any]
    ) -> None: ...
    def send(
        self,
        topic: str,
        value: Any = None,
        *,
        key: Any = None,
        headers: Any = None,
        partition: int | None = None,
        timestamp: Any = None,
    ) -> RecordFuture: ...

class Ready(Generic[T]):
    """An awaitable whose result is there already."""

    def __init__(self, value: T) -> None: ...
    def __await__(self) -> Generator[Any, None, T]: ...
    def __iter__(self) -> Ready[T]: ...
    def __next__(self) -> Any: ...
    def send(self, value: Any) -> Any: ...
    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any: ...
    def close(self) -> None: ...

class AsyncFastSend:
    def __init__(
        self, core: Any, full_path: Callable[..., Awaitable[AsyncRecordFuture]]
    ) -> None: ...
    def send(
        self,
        topic: str,
        value: Any = None,
        *,
        key: Any = None,
        headers: Any = None,
        partition: int | None = None,
        timestamp: Any = None,
    ) -> Awaitable[AsyncRecordFuture]: ...
