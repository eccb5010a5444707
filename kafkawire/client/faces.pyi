from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any

from .admin import ConfigEntry, ConfigResource
from .config.client import ClientConfig
from .groups.admin import (
    GroupDescription,
    GroupListing,
    PartitionLag,
)
from .types import (
    ClusterMetadata,
    FetchedPartition,
    IdempotentProducer,
    OffsetAndMetadata,
    OffsetAndTimestamp,
    ProduceResult,
    RecordChunk,
    TopicInfo,
    TopicPartition,
)

_Batches = bytes | bytearray | memoryview | Sequence[bytes | bytearray | memoryview]
_Resources = (
    Mapping[str, Iterable[str | int] | str | int]
    | Iterable[ConfigResource | tuple[str | int, str | int]]
    | ConfigResource
)
_ConfigChanges = Mapping[ConfigResource | tuple[str | int, str | int], Mapping[str, str | None]]

class Client:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        client_id: str = ...,
        request_timeout: float = ...,
        connect_timeout: float = ...,
        retries: int = ...,
        retry_backoff: float = ...,
        retry_backoff_max: float = ...,
        max_frame_size: int = ...,
        security_protocol: str = ...,
        ssl_ca_location: str | None = ...,
        ssl_check_hostname: bool = ...,
        sasl_mechanism: str | None = ...,
        sasl_username: str | None = ...,
        sasl_password: str | None = ...,
        oauth_cb: Callable[..., Any] | None = ...,
        **settings: Any,
    ) -> None: ...
    @property
    def config(self) -> ClientConfig: ...
    def __enter__(self) -> Client: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    def close(self) -> None: ...
    def metadata(
        self, topics: Sequence[str] | None = None, *, timeout: float | None = None
    ) -> ClusterMetadata: ...
    def partitions_for(self, topic: str, *, timeout: float | None = None) -> list[int]: ...
    def list_offsets(
        self,
        specs: Mapping[TopicPartition, int],
        *,
        isolation_level: int = 0,
        timeout: float | None = None,
    ) -> dict[TopicPartition, OffsetAndTimestamp]: ...
    def earliest_offsets(
        self, tps: Iterable[TopicPartition], *, timeout: float | None = None
    ) -> dict[TopicPartition, int]: ...
    def latest_offsets(
        self,
        tps: Iterable[TopicPartition],
        *,
        isolation_level: int = 0,
        timeout: float | None = None,
    ) -> dict[TopicPartition, int]: ...
    def fetch(
        self,
        positions: Mapping[TopicPartition, int],
        *,
        max_wait_ms: int = 500,
        min_bytes: int = 1,
        max_bytes: int = 52428800,
        partition_max_bytes: int = 10485760,
        isolation_level: int = 0,
        timeout: float | None = None,
    ) -> dict[TopicPartition, FetchedPartition]: ...
    def read_range(
        self,
        tp: TopicPartition,
        start: int,
        end: int | None = None,
        *,
        isolation_level: int = 0,
        verify_crc: bool = True,
        partition_max_bytes: int = 10485760,
        max_wait_ms: int = 500,
    ) -> Iterator[RecordChunk]: ...
    def produce(
        self,
        tp: TopicPartition,
        batches: _Batches,
        *,
        acks: int = -1,
        timeout_ms: int = 30000,
        transactional_id: str | None = None,
        timeout: float | None = None,
    ) -> ProduceResult: ...
    def produce_columns(
        self,
        tp: TopicPartition,
        values: Any,
        *,
        keys: Any = None,
        timestamps: Any = None,
        headers: Any = None,
        compression: str | int | None = None,
        acks: int = -1,
        max_batch_bytes: int = 1048576,
        producer: IdempotentProducer | None = None,
        timeout_ms: int = 30000,
        timeout: float | None = None,
    ) -> ProduceResult: ...
    def init_producer_id(
        self,
        transactional_id: str | None = None,
        *,
        transaction_timeout_ms: int = 60000,
        timeout: float | None = None,
    ) -> tuple[int, int]: ...
    def idempotent_producer(self, *, timeout: float | None = None) -> IdempotentProducer: ...
    def create_topics(
        self,
        topics: Mapping[str, int] | Sequence[str],
        *,
        num_partitions: int = 1,
        replication_factor: int = 1,
        configs: Mapping[str, str] | None = None,
        timeout_ms: int = 30000,
        exist_ok: bool = True,
        timeout: float | None = None,
    ) -> dict[str, TopicInfo]: ...
    def delete_topics(
        self, names: Sequence[str], *, timeout_ms: int = 30000, timeout: float | None = None
    ) -> None: ...
    def create_partitions(
        self,
        counts: Mapping[str, int],
        *,
        timeout_ms: int = 30000,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> None: ...
    def list_groups(self, *, timeout: float | None = None) -> list[GroupListing]: ...
    def describe_groups(
        self, group_ids: Iterable[str] | str, *, timeout: float | None = None
    ) -> dict[str, GroupDescription]: ...
    def list_group_offsets(
        self,
        group_id: str,
        partitions: Iterable[TopicPartition] | None = None,
        *,
        timeout: float | None = None,
    ) -> dict[TopicPartition, OffsetAndMetadata]: ...
    def group_lag(
        self, group_id: str, *, timeout: float | None = None
    ) -> dict[TopicPartition, PartitionLag]: ...
    def delete_group_offsets(
        self, group_id: str, partitions: Iterable[TopicPartition], *, timeout: float | None = None
    ) -> None: ...
    def delete_groups(
        self, group_ids: Iterable[str] | str, *, timeout: float | None = None
    ) -> None: ...
    def describe_configs(
        self, resources: _Resources, *, timeout: float | None = None
    ) -> dict[ConfigResource, dict[str, ConfigEntry]]: ...
    def alter_configs(
        self,
        changes: _ConfigChanges,
        *,
        incremental: bool = True,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> None: ...

class AsyncClient:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        client_id: str = ...,
        request_timeout: float = ...,
        connect_timeout: float = ...,
        retries: int = ...,
        retry_backoff: float = ...,
        retry_backoff_max: float = ...,
        max_frame_size: int = ...,
        security_protocol: str = ...,
        ssl_ca_location: str | None = ...,
        ssl_check_hostname: bool = ...,
        sasl_mechanism: str | None = ...,
        sasl_username: str | None = ...,
        sasl_password: str | None = ...,
        oauth_cb: Callable[..., Any] | None = ...,
        **settings: Any,
    ) -> None: ...
    @property
    def config(self) -> ClientConfig: ...
    async def __aenter__(self) -> AsyncClient: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    async def close(self) -> None: ...
    async def metadata(
        self, topics: Sequence[str] | None = None, *, timeout: float | None = None
    ) -> ClusterMetadata: ...
    async def partitions_for(self, topic: str, *, timeout: float | None = None) -> list[int]: ...
    async def list_offsets(
        self,
        specs: Mapping[TopicPartition, int],
        *,
        isolation_level: int = 0,
        timeout: float | None = None,
    ) -> dict[TopicPartition, OffsetAndTimestamp]: ...
    async def earliest_offsets(
        self, tps: Iterable[TopicPartition], *, timeout: float | None = None
    ) -> dict[TopicPartition, int]: ...
    async def latest_offsets(
        self,
        tps: Iterable[TopicPartition],
        *,
        isolation_level: int = 0,
        timeout: float | None = None,
    ) -> dict[TopicPartition, int]: ...
    async def fetch(
        self,
        positions: Mapping[TopicPartition, int],
        *,
        max_wait_ms: int = 500,
        min_bytes: int = 1,
        max_bytes: int = 52428800,
        partition_max_bytes: int = 10485760,
        isolation_level: int = 0,
        timeout: float | None = None,
    ) -> dict[TopicPartition, FetchedPartition]: ...
    def read_range(
        self,
        tp: TopicPartition,
        start: int,
        end: int | None = None,
        *,
        isolation_level: int = 0,
        verify_crc: bool = True,
        partition_max_bytes: int = 10485760,
        max_wait_ms: int = 500,
    ) -> AsyncIterator[RecordChunk]: ...
    async def produce(
        self,
        tp: TopicPartition,
        batches: _Batches,
        *,
        acks: int = -1,
        timeout_ms: int = 30000,
        transactional_id: str | None = None,
        timeout: float | None = None,
    ) -> ProduceResult: ...
    async def produce_columns(
        self,
        tp: TopicPartition,
        values: Any,
        *,
        keys: Any = None,
        timestamps: Any = None,
        headers: Any = None,
        compression: str | int | None = None,
        acks: int = -1,
        max_batch_bytes: int = 1048576,
        producer: IdempotentProducer | None = None,
        timeout_ms: int = 30000,
        timeout: float | None = None,
    ) -> ProduceResult: ...
    async def init_producer_id(
        self,
        transactional_id: str | None = None,
        *,
        transaction_timeout_ms: int = 60000,
        timeout: float | None = None,
    ) -> tuple[int, int]: ...
    async def idempotent_producer(self, *, timeout: float | None = None) -> IdempotentProducer: ...
    async def create_topics(
        self,
        topics: Mapping[str, int] | Sequence[str],
        *,
        num_partitions: int = 1,
        replication_factor: int = 1,
        configs: Mapping[str, str] | None = None,
        timeout_ms: int = 30000,
        exist_ok: bool = True,
        timeout: float | None = None,
    ) -> dict[str, TopicInfo]: ...
    async def delete_topics(
        self, names: Sequence[str], *, timeout_ms: int = 30000, timeout: float | None = None
    ) -> None: ...
    async def create_partitions(
        self,
        counts: Mapping[str, int],
        *,
        timeout_ms: int = 30000,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> None: ...
    async def list_groups(self, *, timeout: float | None = None) -> list[GroupListing]: ...
    async def describe_groups(
        self, group_ids: Iterable[str] | str, *, timeout: float | None = None
    ) -> dict[str, GroupDescription]: ...
    async def list_group_offsets(
        self,
        group_id: str,
        partitions: Iterable[TopicPartition] | None = None,
        *,
        timeout: float | None = None,
    ) -> dict[TopicPartition, OffsetAndMetadata]: ...
    async def group_lag(
        self, group_id: str, *, timeout: float | None = None
    ) -> dict[TopicPartition, PartitionLag]: ...
    async def delete_group_offsets(
        self, group_id: str, partitions: Iterable[TopicPartition], *, timeout: float | None = None
    ) -> None: ...
    async def delete_groups(
        self, group_ids: Iterable[str] | str, *, timeout: float | None = None
    ) -> None: ...
    async def describe_configs(
        self, resources: _Resources, *, timeout: float | None = None
    ) -> dict[ConfigResource, dict[str, ConfigEntry]]: ...
    async def alter_configs(
        self,
        changes: _ConfigChanges,
        *,
        incremental: bool = True,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> None: ...
