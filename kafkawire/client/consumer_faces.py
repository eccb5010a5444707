"""The consumer's two faces: ``Consumer`` (blocking, ``kafkawire.Consumer``) and
``AsyncConsumer`` (asyncio, ``kafkawire.aio.Consumer``).

Both are written once in ``_ConsumerMethods`` over the sans-IO ``ConsumerCore``; the group's
heartbeats run beside the poll loop, on a thread with a connection of its own (blocking face)
or as a task on the same event loop (asyncio face), so a slow poll loop keeps its membership
until max.poll.interval.ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import Any

from .aio_transport import AsyncTransport
from .consumer import ConsumerBatch, ConsumerCore, ConsumerRecord, PartitionRecords
from .consumer_config import consumer_config
from .core import ClientCore
from .errors import ClientError
from .flow import Flow
from .sync_transport import SyncTransport
from .transactions import ConsumerGroupMetadata
from .types import EARLIEST, LATEST, TopicPartition

_FOREVER = 1e9  # poll(timeout=None): as long as it takes


class _ConsumerMethods:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None:
        # registry deserializers of poll_batch(): kafkawire.registry.RegistryDeserializer
        self.value_deserializer = settings.pop("value_deserializer", None)
        self.key_deserializer = settings.pop("key_deserializer", None)
        client, consumer = consumer_config(bootstrap_servers, config, **settings)
        self._core = ClientCore(client)
        self._consumer = ConsumerCore(self._core, consumer)
        self._closed = False

    def _run(self, flow: Flow):
        raise NotImplementedError

    def _start_heartbeats(self) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        group = self._consumer.config.group_id
        return f"<{type(self).__qualname__} group={group!r} assignment={self.assignment()}>"

    def subscribe(
        self,
        topics,
        *,
        on_assign=None,
        on_revoke=None,
        on_lost=None,
    ) -> None:
        """Join the group (at the next poll) for ``topics`` (names, or a regex pattern:
        a ``re.Pattern`` or a string starting with ``^``). The callbacks get the list of
        TopicPartitions assigned, revoked, or lost (taken by the group without a revoke: the
        member was fenced; without on_lost, on_revoke is called)."""
        self._consumer.subscribe(
            topics, {"on_assign": on_assign, "on_revoke": on_revoke, "on_lost": on_lost}
        )

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        """Read these partitions, outside any group membership (commits still go to
        group.id if set). Positions start from the committed offset or auto.offset.reset."""
        self._consumer.assign(partitions)

    def assignment(self) -> list[TopicPartition]:
        return self._consumer.assignment()

    def group_metadata(self) -> ConsumerGroupMetadata:
        """This member's group id, generation and member id, for
        ``Producer.send_offsets_to_transaction`` (the broker refuses a fenced member's)."""
        member = self._consumer.member
        if member is None:
            raise ClientError("group_metadata needs a group.id")
        return ConsumerGroupMetadata(
            member.group_id, member.generation, member.member_id, member.instance_id
        )

    def seek(self, partition: TopicPartition, offset: int) -> None:
        """The next poll returns ``partition``'s records from ``offset`` on."""
        self._consumer.seek(partition, offset)

    def pause(self, partitions: Iterable[TopicPartition]) -> None:
        self._consumer.pause(partitions)

    def resume(self, partitions: Iterable[TopicPartition]) -> None:
        self._consumer.resume(partitions)

    def paused(self) -> list[TopicPartition]:
        return self._consumer.paused()

    def position(self, partition: TopicPartition):
        """The offset of the next record poll gives for ``partition``."""
        return self._run(self._consumer.position(partition))

    def seek_to_beginning(self, partitions: Iterable[TopicPartition] | None = None):
        return self._run(self._consumer.seek_to(partitions, EARLIEST))

    def seek_to_end(self, partitions: Iterable[TopicPartition] | None = None):
        return self._run(self._consumer.seek_to(partitions, LATEST))

    def offsets_for_times(self, timestamps: Mapping[TopicPartition, int]):
        """{tp: OffsetAndTimestamp of the first record at or after the time (ms), or None}."""
        return self._run(self._consumer.offsets_for_times(timestamps))

    def committed(self, partitions: Iterable[TopicPartition]):
        """{tp: OffsetAndMetadata, or None where the group committed nothing}."""
        return self._run(self._consumer.committed(partitions))

    def commit(self, offsets: Mapping[TopicPartition, Any] | None = None):
        """Commit ``offsets`` ({tp: next offset to read}), or the current positions.

        :raises CommitFailedError: the group rebalanced and fenced this member."""
        return self._run(self._consumer.commit(offsets))

    def _poll_flow(self, timeout: float | None, max_records: int | None):
        if self._closed:
            raise RuntimeError("the consumer is closed")
        if self._consumer.subscribed:  # from the first poll on (the asyncio one: on its loop)
            self._start_heartbeats()
        return self._consumer.poll(max_records, _FOREVER if timeout is None else timeout)


def _records(parts: list[PartitionRecords]) -> list[ConsumerRecord]:
    if len(parts) == 1:
        return parts[0].records()
    return [r for part in parts for r in part.records()]


class Consumer(_ConsumerMethods):
    """A blocking Kafka consumer: ``subscribe`` (a group) or ``assign``, then ``poll``.

    :param bootstrap_servers: "host:port,..." or a list.
    :param config: Kafka properties, librdkafka's or Java's names: group.id,
        auto.offset.reset, enable.auto.commit, isolation.level, fetch.*, the security
        settings, ... (``docs/consumer.md``).

    Not thread-safe: poll from one thread (heartbeats have their own).
    """

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = SyncTransport(self._core)
        self._heartbeats: threading.Thread | None = None
        self._stopping = threading.Event()

    def _run(self, flow: Flow):
        return self._transport.run(flow)

    def _start_heartbeats(self) -> None:
        if self._heartbeats is not None:
            return
        member = self._consumer.member
        core = ClientCore(self._core.config)  # its own connection: the transports are not shared

        def beat() -> None:
            transport = SyncTransport(core)
            try:
                while not self._stopping.is_set():
                    with contextlib.suppress(Exception):  # a flow's error: go on beating
                        transport.run(member.heartbeat_loop(core, self._stopping.is_set))
            finally:
                transport.close()

        self._heartbeats = threading.Thread(target=beat, name="kafkawire-heartbeat", daemon=True)
        self._heartbeats.start()

    def poll(self, timeout: float | None = 1.0, max_records: int | None = None):
        """Up to ``max_records`` (max.poll.records) records as ConsumerRecords, in offset
        order per partition; waits up to ``timeout`` seconds (None: until there are some)."""
        return _records(self._run(self._poll_flow(timeout, max_records)))

    def poll_batch(self, timeout: float | None = 1.0, max_records: int | None = None):
        """``poll``, columnar: a ConsumerBatch of per-partition RecordViews (no Python
        object per record; ``to_arrow()`` for one table)."""
        return ConsumerBatch(
            self._run(self._poll_flow(timeout, max_records)),
            self.value_deserializer,
            self.key_deserializer,
        )

    def __iter__(self) -> Iterator[ConsumerRecord]:
        while True:
            yield from self.poll(None)

    def __enter__(self) -> Consumer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self, *, commit: bool = True) -> None:
        """Commit the positions (with enable.auto.commit), leave the group, disconnect."""
        if self._closed:
            return
        self._closed = True
        self._stopping.set()
        # the heartbeats end first: one sent after the leave would join the group again
        if self._heartbeats is not None:
            self._heartbeats.join(5)
        try:
            self._run(self._consumer.close(commit=commit))
        finally:
            self._transport.close()


class AsyncConsumer(_ConsumerMethods):
    """The asyncio consumer: ``Consumer``'s constructor and methods, as coroutines
    (``async for record in consumer``). Use it from one event loop."""

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = AsyncTransport(self._core)
        self._heartbeats = None
        self._stopping = False

    async def _run(self, flow: Flow):
        return await self._transport.run(flow)

    def _start_heartbeats(self) -> None:
        if self._heartbeats is None:
            flow = self._consumer.member.heartbeat_loop(self._core, lambda: self._stopping)
            self._heartbeats = _task(self._transport.run(flow))

    async def poll(self, timeout: float | None = 1.0, max_records: int | None = None):
        return _records(await self._run(self._poll_flow(timeout, max_records)))

    async def poll_batch(self, timeout: float | None = 1.0, max_records: int | None = None):
        return ConsumerBatch(
            await self._run(self._poll_flow(timeout, max_records)),
            self.value_deserializer,
            self.key_deserializer,
        )

    async def __aiter__(self) -> AsyncIterator[ConsumerRecord]:
        while True:
            for record in await self.poll(None):
                yield record

    async def __aenter__(self) -> AsyncConsumer:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def close(self, *, commit: bool = True) -> None:
        if self._closed:
            return
        self._closed = True
        self._stopping = True
        if self._heartbeats is not None:  # first, as in Consumer.close
            with contextlib.suppress(Exception):
                await self._heartbeats
        try:
            await self._run(self._consumer.close(commit=commit))
        finally:
            await self._transport.close()


def _task(coroutine) -> asyncio.Task:
    """A task whose failure is retrieved (no "never retrieved" warning at exit)."""
    task = asyncio.ensure_future(coroutine)
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return task
