import datetime
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa

from kafkawire.confluent import KafkaError, Message

from ..errors import BufferFullError
from ..types import OffsetAndMetadata, RecordMetadata, TopicPartition
from ._accumulate import AsyncRecordFuture, RecordFuture
from .transactions import ConsumerGroupMetadata

_Bytes = bytes | bytearray | memoryview
_Value = _Bytes | str | None
_Headers = Iterable[tuple[str, _Bytes | str | None]] | Mapping[str, _Bytes | str | None] | None
_Offsets = Mapping[TopicPartition, int | OffsetAndMetadata]
_Column = Any  # Arrow array, numpy 'S<n>' array, or a sequence of bytes | str | None
# ms since the epoch, seconds since the epoch (time.time()), a datetime (naive: local time)
_Timestamp = int | float | datetime.datetime | None
_OnDelivery = Callable[[KafkaError | None, Message], Any]

class QueueFullError(BufferFullError, BufferError): ...

class BatchMetadata(NamedTuple):
    topic: str
    partitions: np.ndarray
    offsets: np.ndarray

class BatchFuture:
    def done(self) -> bool: ...
    def result(self, timeout: float | None = None) -> BatchMetadata: ...

class AsyncBatchFuture:
    def done(self) -> bool: ...
    def __await__(self) -> Generator[Any, None, BatchMetadata]: ...

class _Common:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None: ...

class Producer(_Common):
    def send(
        self,
        topic: str,
        value: _Value = None,
        *,
        key: _Value = None,
        headers: _Headers = None,
        partition: int | None = None,
        timestamp: _Timestamp = None,
    ) -> RecordFuture: ...
    def send_batch(
        self,
        topic: str,
        values: _Column,
        *,
        keys: _Column | None = None,
        headers: _Column | None = None,
        timestamps: _Column | None = None,
        partitions: _Column | None = None,
    ) -> BatchFuture: ...
    def send_arrow(self, topic: str, table: pa.Table | pa.RecordBatch) -> BatchFuture: ...
    def produce(
        self,
        topic: str,
        value: _Value = None,
        key: _Value = None,
        partition: int = -1,
        on_delivery: _OnDelivery | None = None,
        callback: _OnDelivery | None = None,
        timestamp: _Timestamp = 0,
        headers: _Headers = None,
    ) -> None: ...
    def poll(self, timeout: float | None = 0) -> int: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def partitions_for(self, topic: str) -> list[int]: ...
    def flush(self, timeout: float | None = None) -> int: ...
    def close(self, timeout: float | None = None) -> None: ...
    def __enter__(self) -> Producer: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    def init_transactions(self, timeout: float | None = None) -> None: ...
    def begin_transaction(self) -> None: ...
    def send_offsets_to_transaction(
        self,
        offsets: _Offsets,
        group_metadata: ConsumerGroupMetadata | str,
        timeout: float | None = None,
    ) -> None: ...
    def commit_transaction(self, timeout: float | None = None) -> None: ...
    def abort_transaction(self, timeout: float | None = None) -> None: ...

class AsyncProducer(_Common):
    async def send(
        self,
        topic: str,
        value: _Value = None,
        *,
        key: _Value = None,
        headers: _Headers = None,
        partition: int | None = None,
        timestamp: _Timestamp = None,
    ) -> AsyncRecordFuture: ...
    async def send_and_wait(
        self,
        topic: str,
        value: _Value = None,
        *,
        key: _Value = None,
        headers: _Headers = None,
        partition: int | None = None,
        timestamp: _Timestamp = None,
    ) -> RecordMetadata: ...
    async def send_batch(
        self,
        topic: str,
        values: _Column,
        *,
        keys: _Column | None = None,
        headers: _Column | None = None,
        timestamps: _Column | None = None,
        partitions: _Column | None = None,
    ) -> AsyncBatchFuture: ...
    async def send_arrow(
        self, topic: str, table: pa.Table | pa.RecordBatch
    ) -> AsyncBatchFuture: ...
    async def partitions_for(self, topic: str) -> list[int]: ...
    async def produce(
        self,
        topic: str,
        value: _Value = None,
        key: _Value = None,
        partition: int = -1,
        on_delivery: _OnDelivery | None = None,
        callback: _OnDelivery | None = None,
        timestamp: _Timestamp = 0,
        headers: _Headers = None,
    ) -> None: ...
    async def poll(self, timeout: float | None = 0) -> int: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    async def flush(self, timeout: float | None = None) -> int: ...
    async def close(self, timeout: float | None = None) -> None: ...
    async def __aenter__(self) -> AsyncProducer: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    async def init_transactions(self, timeout: float | None = None) -> None: ...
    def begin_transaction(self) -> None: ...
    async def send_offsets_to_transaction(
        self,
        offsets: _Offsets,
        group_metadata: ConsumerGroupMetadata | str,
        timeout: float | None = None,
    ) -> None: ...
    async def commit_transaction(self, timeout: float | None = None) -> None: ...
    async def abort_transaction(self, timeout: float | None = None) -> None: ...
