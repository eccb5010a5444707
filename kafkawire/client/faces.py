"""The two faces of the request-level client: ``Client`` (blocking) and ``AsyncClient``
(asyncio, ``kafkawire.aio.Client``).

Both have the same constructor and methods, written once in ``_Methods``: each method starts
a flow (``flow.py``) and hands it to ``_run``, which the blocking face drives to its end and
the asyncio face turns into a coroutine. Only ``read_range`` (an iterator, or an async one)
and the lifecycle methods differ.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

from . import admin
from .aio_transport import AsyncTransport
from .config.client import ClientConfig, client_config
from .consumer import offsets
from .consumer.fetcher import fetch
from .core import ClientCore
from .flow import Flow, within
from .groups import admin as group_admin
from .producer import requests as produce_flows
from .sync_transport import SyncTransport
from .types import READ_UNCOMMITTED, RecordChunk, TopicPartition


class _Methods:
    _core: ClientCore

    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None:
        self._core = ClientCore(client_config(bootstrap_servers, config, **settings))

    def _run(self, flow: Flow):
        raise NotImplementedError

    def _call(self, flow: Flow, timeout: float | None, what: str):
        """Every method's call: it returns or raises RequestTimeoutError within ``timeout``
        seconds (None: default.api.timeout.ms), its retries included, whatever the brokers
        do; each request within that also keeps request.timeout.ms."""
        seconds = self._core.config.default_api_timeout if timeout is None else timeout
        return self._run(within(flow, seconds, what))

    @property
    def config(self) -> ClientConfig:
        return self._core.config

    def __repr__(self) -> str:
        config = self.config
        servers = ",".join(f"{h}:{p}" for h, p in config.bootstrap_servers)
        security = config.security_protocol
        if config.sasl_mechanism and security.startswith("SASL"):
            security += f" {config.sasl_mechanism} as {config.sasl_username!r}"
        # no secret: passwords, keys and tokens stay out (ClientConfig's repr masks them too)
        return f"<{type(self).__qualname__} {servers} client_id={config.client_id!r} {security}>"

    def metadata(self, topics: Sequence[str] | None = None, *, timeout: float | None = None):
        """Brokers and topics (all of them when ``topics`` is None); refreshes the leaders the
        client sends requests to."""
        return self._call(self._core.metadata(topics), timeout, "metadata")

    def partitions_for(self, topic: str, *, timeout: float | None = None):
        """The partition numbers of ``topic``.

        :raises UnknownTopicOrPartitionError: no such topic."""

        def flow():
            return sorted((yield from self._core.topic(topic, refresh=True)).partitions)

        return self._call(flow(), timeout, "partitions_for")

    def list_offsets(
        self, specs, *, isolation_level: int = READ_UNCOMMITTED, timeout: float | None = None
    ):
        """Offsets by spec: EARLIEST, LATEST (the high watermark, or the last stable offset
        with READ_COMMITTED) or a timestamp in ms (the first offset whose timestamp is at least
        that, offset -1 when there is none)."""
        flow = offsets.list_offsets(self._core, specs, isolation_level=isolation_level)
        return self._call(flow, timeout, "list_offsets")

    def earliest_offsets(self, tps, *, timeout: float | None = None):
        return self._call(offsets.earliest_offsets(self._core, tps), timeout, "earliest_offsets")

    def latest_offsets(
        self, tps, *, isolation_level: int = READ_UNCOMMITTED, timeout: float | None = None
    ):
        flow = offsets.latest_offsets(self._core, tps, isolation_level=isolation_level)
        return self._call(flow, timeout, "latest_offsets")

    def fetch(self, positions, *, timeout: float | None = None, **options):
        """One Fetch per partition leader (all at once); each partition's raw record batches
        and state. Options: max_wait_ms, min_bytes, max_bytes, partition_max_bytes,
        isolation_level. Partition errors are in ``FetchedPartition.error_code``; a leader
        change is retried."""
        return self._call(fetch(self._core, positions, **options), timeout, "fetch")

    def produce(
        self,
        tp,
        batches,
        *,
        acks: int = -1,
        timeout_ms: int = 30000,
        transactional_id: str | None = None,
        timeout: float | None = None,
    ):
        """Append record batches (from BatchBuilder / build_batches) to one partition."""
        flow = produce_flows.produce(
            self._core,
            tp,
            batches,
            acks=acks,
            timeout_ms=timeout_ms,
            transactional_id=transactional_id,
        )
        return self._call(flow, timeout, "produce")

    def produce_columns(self, tp, values, *, timeout: float | None = None, **options):
        """Encode columns (as build_batches takes them) into batches and produce them to one
        partition; options: keys, timestamps, headers, compression, acks, max_batch_bytes,
        producer (an IdempotentProducer), timeout_ms."""
        flow = produce_flows.produce_columns(self._core, tp, values, **options)
        return self._call(flow, timeout, "produce_columns")

    def init_producer_id(
        self, transactional_id: str | None = None, *, timeout: float | None = None, **options
    ):
        """A producer id and epoch from the broker (InitProducerId)."""
        flow = produce_flows.init_producer_id(self._core, transactional_id, **options)
        return self._call(flow, timeout, "init_producer_id")

    def idempotent_producer(self, *, timeout: float | None = None):
        """A producer identity for produce_columns(..., producer=...)."""
        return self._call(
            produce_flows.idempotent_producer(self._core), timeout, "idempotent_producer"
        )

    def create_topics(self, topics, *, timeout: float | None = None, **options):
        """Create topics (a mapping gives each its partition count) and wait until their
        leaders are known; options: num_partitions, replication_factor, configs, timeout_ms,
        exist_ok. Returns what this call created: {name: TopicInfo (partitions, topic id)};
        a topic that existed already (exist_ok) is left out."""
        return self._call(
            admin.create_topics(self._core, topics, **options), timeout, "create_topics"
        )

    def delete_topics(
        self, names: Sequence[str], *, timeout_ms: int = 30000, timeout: float | None = None
    ):
        flow = admin.delete_topics(self._core, names, timeout_ms=timeout_ms)
        return self._call(flow, timeout, "delete_topics")

    def create_partitions(
        self,
        counts,
        *,
        timeout_ms: int = 30000,
        validate_only: bool = False,
        timeout: float | None = None,
    ):
        """Raise topics' partition counts (``{"topic": new_total_count}``) and, unless
        ``validate_only``, wait until the new partitions have leaders (CreatePartitions)."""
        flow = admin.create_partitions(
            self._core, counts, timeout_ms=timeout_ms, validate_only=validate_only
        )
        return self._call(flow, timeout, "create_partitions")

    def list_groups(self, *, timeout: float | None = None):
        """Every group of the cluster (ListGroups to each broker at once, merged) as
        GroupListings; the state is None when the broker's ListGroups does not give it."""
        return self._call(group_admin.list_groups(self._core), timeout, "list_groups")

    def describe_groups(self, group_ids, *, timeout: float | None = None):
        """group id -> GroupDescription (state, assignor, members with their assignments,
        coordinator); a group that does not exist has state "Dead"."""
        flow = group_admin.describe_groups(self._core, group_ids)
        return self._call(flow, timeout, "describe_groups")

    def list_group_offsets(self, group_id: str, partitions=None, *, timeout: float | None = None):
        """A group's committed offsets, TopicPartition -> OffsetAndMetadata (of
        ``partitions``, or all when None); partitions with nothing committed are left out."""
        flow = group_admin.list_group_offsets(self._core, group_id, partitions)
        return self._call(flow, timeout, "list_group_offsets")

    def group_lag(self, group_id: str, *, timeout: float | None = None):
        """TopicPartition -> PartitionLag(committed, end, lag) for each partition the group
        has committed an offset for; end is the high watermark, lag end - committed."""
        return self._call(group_admin.group_lag(self._core, group_id), timeout, "group_lag")

    def delete_group_offsets(self, group_id: str, partitions, *, timeout: float | None = None):
        """Forget a group's committed offsets of ``partitions`` (OffsetDelete); the group
        must not be subscribed to their topics."""
        flow = group_admin.delete_group_offsets(self._core, group_id, partitions)
        return self._call(flow, timeout, "delete_group_offsets")

    def delete_groups(self, group_ids, *, timeout: float | None = None):
        """Delete groups that have no members, with their committed offsets (DeleteGroups)."""
        return self._call(
            group_admin.delete_groups(self._core, group_ids), timeout, "delete_groups"
        )

    def describe_configs(self, resources, *, timeout: float | None = None):
        """ConfigResource -> config name -> ConfigEntry. ``resources``: ``{"topic": ["t1"],
        "broker": ["1"]}``, or ConfigResources / (type, name) pairs."""
        flow = admin.describe_configs(self._core, resources)
        return self._call(flow, timeout, "describe_configs")

    def alter_configs(
        self,
        changes,
        *,
        incremental: bool = True,
        validate_only: bool = False,
        timeout: float | None = None,
    ):
        """``{ConfigResource("topic", "t1"): {"retention.ms": "1000", "cleanup.policy":
        None}}``: with ``incremental`` (IncrementalAlterConfigs) a value sets a config and
        None deletes it; without, AlterConfigs replaces all the resource's dynamic configs."""
        flow = admin.alter_configs(
            self._core, changes, incremental=incremental, validate_only=validate_only
        )
        return self._call(flow, timeout, "alter_configs")


class Client(_Methods):
    """A blocking client for one Kafka cluster.

    :param bootstrap_servers: "host:port,host:port" or a list of "host:port".
    :param config: Kafka client properties (``client.id``, ``request.timeout.ms``, ...).
    :param settings: ``client_id``, ``request_timeout``, ``connect_timeout`` (seconds),
        ``retries``, ``retry_backoff``, ``retry_backoff_max``, ``max_frame_size``; they
        override ``config``.

    Not thread-safe: use one client per thread.
    """

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = SyncTransport(self._core)

    def _run(self, flow: Flow):
        return self._transport.run(flow)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        self._transport.close()

    def read_range(
        self, tp: TopicPartition, start: int, end: int | None = None, **options
    ) -> Iterator[RecordChunk]:
        """The records of one partition with ``start <= offset < end``, in offset order, as
        RecordChunks (no Python object per record). ``end`` None: the high watermark (the
        last stable offset with READ_COMMITTED) when the read starts. Options:
        isolation_level, verify_crc, partition_max_bytes, max_wait_ms.

        :raises OffsetOutOfRangeError: ``start`` is below the log start offset or past the end.
        """
        flow = offsets.reader(self._core, tp, start, end, **options)
        reader = self._call(flow, None, "read_range")
        while (chunk := self._call(reader.next_chunk(), None, "read_range")) is not None:
            yield chunk


class AsyncClient(_Methods):
    """The asyncio client: ``Client``'s constructor and methods, as coroutines
    (``read_range`` is an async iterator). Use it from one event loop."""

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = AsyncTransport(self._core)

    async def _run(self, flow: Flow):
        return await self._transport.run(flow)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def close(self) -> None:
        await self._transport.close()

    async def read_range(
        self, tp: TopicPartition, start: int, end: int | None = None, **options
    ) -> AsyncIterator[RecordChunk]:
        """``Client.read_range``, as an async iterator."""
        flow = offsets.reader(self._core, tp, start, end, **options)
        reader = await self._call(flow, None, "read_range")
        while (chunk := await self._call(reader.next_chunk(), None, "read_range")) is not None:
            yield chunk
