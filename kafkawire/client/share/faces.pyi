from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

from kafkawire.records import ConsumerRecord

from ..config.client import ClientConfig
from ..consumer.config import ConsumerConfig
from ..types import TopicPartition
from .core import CommitCallback, ShareBatch
from .session import AcknowledgeType

# a record a poll handed out: a ConsumerRecord, or anything with topic, partition and offset
# (attributes or methods: confluent-kafka's Message)
_Record = ConsumerRecord | Any

def share_consumer_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None,
    settings: dict[str, Any],
) -> tuple[ClientConfig, ConsumerConfig, bool]: ...

class _ShareMethods:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None: ...
    @property
    def member_id(self) -> str: ...
    def subscribe(self, topics: Iterable[str]) -> None: ...
    def subscription(self) -> list[str]: ...
    def assignment(self) -> list[TopicPartition]: ...
    def acknowledge(
        self, record: _Record, type: AcknowledgeType | int = AcknowledgeType.ACCEPT
    ) -> None: ...
    def acknowledge_offset(
        self,
        topic: str,
        partition: int,
        offset: int,
        type: AcknowledgeType | int = AcknowledgeType.ACCEPT,
    ) -> None: ...
    def set_acknowledgement_commit_callback(self, callback: CommitCallback | None) -> None: ...

class ShareConsumer(_ShareMethods):
    def poll(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> list[ConsumerRecord]: ...
    def poll_batch(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> ShareBatch: ...
    def commit_sync(
        self, timeout: float | None = None
    ) -> dict[TopicPartition, BaseException | None]: ...
    def commit_async(self) -> None: ...
    def unsubscribe(self, timeout: float | None = None) -> None: ...
    def close(self, timeout: float | None = None) -> None: ...
    def __iter__(self) -> Iterator[ConsumerRecord]: ...
    def __enter__(self) -> ShareConsumer: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

class AsyncShareConsumer(_ShareMethods):
    async def poll(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> list[ConsumerRecord]: ...
    async def poll_batch(
        self, timeout: float | None = 1.0, max_records: int | None = None
    ) -> ShareBatch: ...
    async def commit_sync(
        self, timeout: float | None = None
    ) -> dict[TopicPartition, BaseException | None]: ...
    async def commit_async(self) -> None: ...
    async def unsubscribe(self, timeout: float | None = None) -> None: ...
    async def close(self, timeout: float | None = None) -> None: ...
    def __aiter__(self) -> AsyncIterator[ConsumerRecord]: ...
    async def __aenter__(self) -> AsyncShareConsumer: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
