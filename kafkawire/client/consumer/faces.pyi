import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

from kafkawire.records import ConsumerRecord
from kafkawire.registry.deserializer import RegistryDeserializer

from ..producer.transactions import ConsumerGroupMetadata
from ..types import ClusterMetadata, OffsetAndMetadata, OffsetAndTimestamp, TopicPartition
from .batches import ConsumerBatch

_Topics = str | Iterable[str] | re.Pattern[str]
# (partitions), or confluent-kafka's (consumer, partitions)
_Callback = (
    Callable[[list[TopicPartition]], Any] | Callable[[Any, list[TopicPartition]], Any] | None
)
# {tp: offset}, records (the offset after each), or objects with topic, partition and offset
# (confluent-kafka's TopicPartition)
_Offsets = Mapping[TopicPartition, int | OffsetAndMetadata] | ConsumerRecord | Iterable[Any]
# aiokafka's type; a null key or value (a tombstone) is handed to it as None
_Deserializer = Callable[[bytes], Any] | RegistryDeserializer | None

class _Common:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        value_deserializer: _Deserializer = None,
        key_deserializer: _Deserializer = None,
        **settings: Any,
    ) -> None: ...
    def subscribe(
        self,
        topics: _Topics,
        *,
        on_assign: _Callback = None,
        on_revoke: _Callback = None,
        on_lost: _Callback = None,
    ) -> None: ...
    def assign(self, partitions: Iterable[TopicPartition]) -> None: ...
    def incremental_assign(self, partitions: Iterable[TopicPartition]) -> None: ...
    def incremental_unassign(self, partitions: Iterable[TopicPartition]) -> None: ...
    def store_offsets(
        self,
        records: ConsumerRecord | Iterable[ConsumerRecord] | None = None,
        offsets: _Offsets | None = None,
    ) -> None: ...
    def assignment(self) -> list[TopicPartition]: ...
    def group_metadata(self) -> ConsumerGroupMetadata: ...
    def seek(self, partition: TopicPartition, offset: int) -> None: ...
    def pause(self, partitions: Iterable[TopicPartition]) -> None: ...
    def resume(self, partitions: Iterable[TopicPartition]) -> None: ...
    def paused(self) -> list[TopicPartition]: ...

class Consumer(_Common):
    def unsubscribe(self) -> None: ...
    def list_topics(
        self, topic: str | None = None, timeout: float | None = None
    ) -> ClusterMetadata: ...
    def get_watermark_offsets(
        self, partition: TopicPartition, timeout: float | None = None, cached: bool = False
    ) -> tuple[int, int]: ...
    def position(self, partition: TopicPartition, timeout: float | None = None) -> int: ...
    def seek_to_beginning(
        self, partitions: Iterable[TopicPartition] | None = None, timeout: float | None = None
    ) -> None: ...
    def seek_to_end(
        self, partitions: Iterable[TopicPartition] | None = None, timeout: float | None = None
    ) -> None: ...
    def offsets_for_times(
        self, timestamps: Mapping[TopicPartition, int], timeout: float | None = None
    ) -> dict[TopicPartition, OffsetAndTimestamp | None]: ...
    def committed(
        self, partitions: Iterable[TopicPartition], timeout: float | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None]: ...
    def commit(
        self,
        offsets: _Offsets | None = None,
        *,
        asynchronous: bool = False,
        timeout: float | None = None,
    ) -> None: ...
    def poll(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> list[ConsumerRecord]: ...
    def poll_batch(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> ConsumerBatch: ...
    def __iter__(self) -> Iterator[ConsumerRecord]: ...
    def __enter__(self) -> Consumer: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    def close(self, *, commit: bool = True, timeout: float | None = None) -> None: ...

class AsyncConsumer(_Common):
    async def unsubscribe(self) -> None: ...
    async def list_topics(
        self, topic: str | None = None, timeout: float | None = None
    ) -> ClusterMetadata: ...
    async def get_watermark_offsets(
        self, partition: TopicPartition, timeout: float | None = None, cached: bool = False
    ) -> tuple[int, int]: ...
    async def position(self, partition: TopicPartition, timeout: float | None = None) -> int: ...
    async def seek_to_beginning(
        self, partitions: Iterable[TopicPartition] | None = None, timeout: float | None = None
    ) -> None: ...
    async def seek_to_end(self, partitions: Iterable[TopicPartition] | None = None) -> None: ...
    async def offsets_for_times(
        self, timestamps: Mapping[TopicPartition, int], timeout: float | None = None
    ) -> dict[TopicPartition, OffsetAndTimestamp | None]: ...
    async def committed(
        self, partitions: Iterable[TopicPartition], timeout: float | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None]: ...
    async def commit(
        self,
        offsets: _Offsets | None = None,
        *,
        asynchronous: bool = False,
        timeout: float | None = None,
    ) -> None: ...
    async def poll(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> list[ConsumerRecord]: ...
    async def poll_batch(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> ConsumerBatch: ...
    def __aiter__(self) -> AsyncIterator[ConsumerRecord]: ...
    async def __aenter__(self) -> AsyncConsumer: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    async def close(self, *, commit: bool = True, timeout: float | None = None) -> None: ...
