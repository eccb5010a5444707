"""The consumer's two faces: ``Consumer`` (blocking, ``kafkawire.Consumer``) and
``AsyncConsumer`` (asyncio, ``kafkawire.aio.Consumer``).

Both are written once in ``_ConsumerMethods`` over the sans-IO ``ConsumerCore``; the group's
heartbeats run beside the poll loop, on a thread with a connection of its own (blocking face)
or as a task on the same event loop (asyncio face), so a slow poll loop keeps its membership
until max.poll.interval.ms.
"""

from __future__ import annotations

import functools
import inspect
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from kafkawire.records import ConsumerRecord
from kafkawire.records._decode import _consumer_record

from ..aio_transport import AsyncTransport
from ..core import ClientCore
from ..errors import (
    AuthenticationError,
    BrokerConnectionError,
    ClientError,
    ConfigError,
    NotKafkaError,
    RequestTimeoutError,
    TlsError,
)
from ..flow import Flow, within
from ..groups.heartbeats import HeartbeatTask, HeartbeatThread
from ..producer.transactions import ConsumerGroupMetadata
from ..stats import Statistics
from ..sync_transport import SyncTransport
from ..types import EARLIEST, LATEST, TopicPartition
from .batches import ConsumerBatch, DeserializationError, PartitionRecords
from .config import consumer_config
from .core import ConsumerCore

_FOREVER = 1e9  # poll(timeout=None): as long as it takes
# what error_cb hears instead of poll raising it (librdkafka's error events)
_ERROR_EVENTS = (
    BrokerConnectionError,
    RequestTimeoutError,
    AuthenticationError,
    TlsError,
    NotKafkaError,
)


class _ConsumerMethods:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None:
        # callables (bytes or None -> object), for poll() only, or registry deserializers
        # (kafkawire.registry.RegistryDeserializer), which decode the columns of both polls
        self.value_deserializer = _deserializer(
            "value_deserializer", settings.pop("value_deserializer", None)
        )
        self.key_deserializer = _deserializer(
            "key_deserializer", settings.pop("key_deserializer", None)
        )
        client, consumer = consumer_config(bootstrap_servers, config, **settings)
        self._core = ClientCore(client)
        self._stats = Statistics(self._core, "consumer")
        self._consumer = ConsumerCore(self._core, consumer)
        self._closed = False

    def _run(self, flow: Flow):
        raise NotImplementedError

    def _call(self, flow: Flow, timeout: float | None, what: str):
        """A blocking call: it returns or raises within ``timeout`` seconds (None:
        default.api.timeout.ms), whatever the brokers do."""
        return self._run(within(flow, self._seconds(timeout), what))

    def _seconds(self, timeout: float | None) -> float:
        return self._core.config.default_api_timeout if timeout is None else timeout

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
        member was fenced; without on_lost, on_revoke is called): ``callback(partitions)``,
        or confluent-kafka's ``callback(consumer, partitions)`` when it takes two arguments.

        :raises TypeError: a callback that is not a function of one of those forms."""
        callbacks = {"on_assign": on_assign, "on_revoke": on_revoke, "on_lost": on_lost}
        self._consumer.subscribe(
            topics, {name: _rebalance_callback(name, fn, self) for name, fn in callbacks.items()}
        )

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        """Read these partitions, outside any group membership (commits still go to
        group.id if set). Positions start from the committed offset or auto.offset.reset."""
        self._consumer.assign(partitions)

    def incremental_assign(self, partitions: Iterable[TopicPartition]) -> None:
        """Add ``partitions`` to the manual assignment; those assigned already keep their
        positions. A partition already assigned is an error."""
        self._consumer.incremental_assign(partitions)

    def incremental_unassign(self, partitions: Iterable[TopicPartition]) -> None:
        """Remove ``partitions`` from the manual assignment; the others keep their positions.
        A partition not assigned is an error."""
        self._consumer.incremental_unassign(partitions)

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

    # Every call below that asks the brokers takes ``timeout`` (seconds; None:
    # default.api.timeout.ms) and returns or raises RequestTimeoutError by then.

    def position(self, partition: TopicPartition, timeout: float | None = None):
        """The offset of the next record poll gives for ``partition``."""
        return self._call(self._consumer.position(partition), timeout, "position")

    def seek_to_beginning(
        self, partitions: Iterable[TopicPartition] | None = None, timeout: float | None = None
    ):
        flow = self._consumer.seek_to(partitions, EARLIEST)
        return self._call(flow, timeout, "seek_to_beginning")

    def seek_to_end(
        self, partitions: Iterable[TopicPartition] | None = None, timeout: float | None = None
    ):
        return self._call(self._consumer.seek_to(partitions, LATEST), timeout, "seek_to_end")

    def offsets_for_times(
        self, timestamps: Mapping[TopicPartition, int], timeout: float | None = None
    ):
        """{tp: OffsetAndTimestamp of the first record at or after the time (ms), or None}."""
        flow = self._consumer.offsets_for_times(timestamps)
        return self._call(flow, timeout, "offsets_for_times")

    def committed(self, partitions: Iterable[TopicPartition], timeout: float | None = None):
        """{tp: OffsetAndMetadata, or None where the group committed nothing}."""
        return self._call(self._consumer.committed(partitions), timeout, "committed")

    def commit(
        self, offsets: Any = None, *, asynchronous: bool = False, timeout: float | None = None
    ):
        """Commit ``offsets`` ({tp: next offset to read}, a ConsumerRecord or several: the
        offset after each, or confluent-kafka's TopicPartitions with offsets), or the positions
        (with enable.auto.offset.store=false: what store_offsets stored). ``asynchronous``:
        send the commit and return; the polls that follow take the answer and call
        on_commit(error, partitions).

        :raises CommitFailedError: the group rebalanced and fenced this member."""
        if asynchronous:
            return self._call(self._consumer.commit_async(offsets), timeout, "commit")
        return self._call(self._consumer.commit(offsets), timeout, "commit")

    def store_offsets(self, records: Any = None, offsets: Any = None) -> None:
        """With enable.auto.offset.store=false: store the offset after each record of
        ``records`` (a ConsumerRecord or several) and ``offsets`` (as commit takes them) for
        the next commit without offsets and auto-commit. The partitions must be assigned; an
        assignment starts with nothing stored."""
        self._consumer.store_offsets(records, offsets)

    def list_topics(self, topic: str | None = None, timeout: float | None = None):
        """The cluster's metadata (kafkawire's ClusterMetadata: brokers, topics with their
        partitions, controller), of one topic or of all.

        :raises RequestTimeoutError: not answered within ``timeout``."""
        return self._call(self._consumer.list_topics(topic), timeout, "list_topics")

    def get_watermark_offsets(
        self, partition: TopicPartition, timeout: float | None = None, cached: bool = False
    ):
        """(low, high): the partition's first offset and its end (the offset after the last
        record; the last stable offset under read_committed), asked of the leader within
        ``timeout`` seconds; ``cached``: as the last fetch answer gave them, without asking
        (-1001, librdkafka's OFFSET_INVALID, before a fetch)."""
        what = f"get_watermark_offsets of {partition[0]}-{partition[1]}"
        return self._call(self._consumer.watermarks(partition, cached), timeout, what)

    def _poll_flow(self, timeout: float | None, max_records: int | None):
        if self._closed:
            raise RuntimeError("the consumer is closed")
        if self._consumer.subscribed:  # from the first poll on (the asyncio one: on its loop)
            self._start_heartbeats()
        return self._consumer.poll(max_records, _FOREVER if timeout is None else timeout)

    def _batch_flow(self, timeout: float | None, max_records: int | None):
        for name in ("key_deserializer", "value_deserializer"):
            if callable(getattr(self, name)):  # refused before anything is fetched
                raise ConfigError(
                    f"poll_batch cannot apply {name}: it is a plain callable, which decodes one "
                    "record at a time, and poll_batch gives Arrow columns, which only a "
                    "kafkawire.registry.RegistryDeserializer decodes; use poll() with it"
                )
        return self._poll_flow(timeout, max_records)

    def _told(self, error: BaseException) -> bool:
        """error_cb (librdkafka's error events): a poll that lost its brokers (unreachable,
        silent, refusing) tells error_cb and returns nothing rather than raising; the work
        goes on at the next poll. False: no error_cb, the poll raises."""
        if self._core.config.error_cb is None:
            return False
        self._core.config.error_cb(error)
        return True

    def _statistics(self) -> tuple[dict, dict]:
        return self._consumer.statistics(), {}

    def _batch(self, parts: list[PartitionRecords]) -> ConsumerBatch:
        self._stats.tick(self._statistics)
        return ConsumerBatch(parts, self.value_deserializer, self.key_deserializer)

    def _records(self, parts: list[PartitionRecords]) -> list[ConsumerRecord]:
        """The records of a poll, deserialized. When a deserializer fails, the records before
        the one it failed on are handed out and the positions go back to the rest, so that the
        next poll raises at that record (as Java's consumer does)."""
        self._stats.tick(self._statistics)  # statistics.interval.ms, stats_cb
        if self.key_deserializer is None and self.value_deserializer is None:
            if len(parts) == 1:
                return parts[0].records()
            return [r for part in parts for r in part.records()]
        out: list[ConsumerRecord] = []
        for i, part in enumerate(parts):
            try:
                out += self._deserialized(part)
            except Exception as exc:
                failure, rest = exc, parts[i + 1 :]
                break
        else:
            return out
        # the row it failed on (a registry error that names none: the first)
        if isinstance(failure, DeserializationError):
            row = int(part.offsets.searchsorted(failure.offset))
        else:
            row = getattr(failure, "row", None) or 0
        if row:
            out += self._deserialized(PartitionRecords(part.tp, part.view[:row]))
        rewound: dict[TopicPartition, int] = {part.tp: int(part.offsets[row])}
        for later in rest:
            rewound.setdefault(later.tp, int(later.offsets[0]))
        for tp, offset in rewound.items():
            self._consumer.seek(tp, offset)
        # the error's frames hold the records' views: an error kept in a reference cycle
        # would have the collector clear views whose buffers are still exported
        traceback.clear_frames(failure.__traceback__)
        del part, parts, rest
        if out:
            return out
        raise failure

    def _deserialized(self, part: PartitionRecords) -> list[ConsumerRecord]:
        rows = part.records()
        keys = _decoded(self.key_deserializer, part, rows, key=True)
        values = _decoded(self.value_deserializer, part, rows, key=False)
        return [
            _consumer_record(
                r.topic,
                r.partition,
                r.offset,
                r.timestamp,
                r.timestamp_type,
                k,
                v,
                r.headers,
                r.leader_epoch,
            )
            for r, k, v in zip(rows, keys, values, strict=True)
        ]


def _deserializer(name: str, value: Any) -> Any:
    if value is None or callable(value):
        return value
    from kafkawire.registry.deserializer import RegistryDeserializer

    if isinstance(value, RegistryDeserializer):
        return value
    raise TypeError(
        f"{name} is {value!r}: give a callable (bytes or None -> object) or a "
        "kafkawire.registry.RegistryDeserializer"
    )


def _decoded(deserializer: Any, part: PartitionRecords, rows: list, *, key: bool) -> list:
    """The keys (or values) of ``rows`` through ``deserializer``."""
    raw = [r.key if key else r.value for r in rows]
    if deserializer is None:
        return raw
    if not callable(deserializer):  # a RegistryDeserializer: the column at once
        return deserializer.decode_table(part.to_arrow(), key=key).values.to_pylist()
    out = []
    for r, data in zip(rows, raw, strict=True):
        try:
            out.append(deserializer(data))
        except Exception as exc:
            name = "key_deserializer" if key else "value_deserializer"
            raise DeserializationError(
                f"{name} failed on {r.topic}-{r.partition} at offset {r.offset}: {exc!r}",
                TopicPartition(r.topic, r.partition),
                r.offset,
            ) from exc
    return out


def _rebalance_callback(name: str, callback: Any, consumer: Any) -> Callable | None:
    """``callback`` as a function of the partitions: as it is when it takes one argument,
    given ``consumer`` first when it needs two (confluent-kafka's form)."""
    if callback is None:
        return None
    if not callable(callback):
        raise TypeError(f"{name} is {callback!r}, not a callable")
    if inspect.iscoroutinefunction(callback):
        raise TypeError(
            f"{name} is a coroutine function: poll calls the callbacks and does not await "
            "them; give a plain function"
        )
    try:
        signature = inspect.signature(callback)
    except (TypeError, ValueError):  # a builtin without one (print): given the partitions
        return callback
    if _takes(signature, 1):
        return callback
    if _takes(signature, 2):
        return functools.partial(callback, consumer)
    raise TypeError(
        f"{name} {callback!r} takes neither (partitions) nor (consumer, partitions): its "
        f"signature is {signature}"
    )


def _takes(signature: inspect.Signature, count: int) -> bool:
    try:
        signature.bind(*[None] * count)
    except TypeError:
        return False
    return True


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
        self._heartbeats = HeartbeatThread("kafkawire-heartbeat")

    def _run(self, flow: Flow):
        return self._transport.run(flow)

    def _start_heartbeats(self) -> None:
        self._heartbeats.start(self._core.config, self._consumer.member.heartbeat_loop)

    def poll(self, timeout: float | None = 1.0, max_records: int | None = None):
        """Up to ``max_records`` (max.poll.records) records as ConsumerRecords, in offset
        order per partition, keys and values through the deserializers; waits up to
        ``timeout`` seconds (None: until there are some)."""
        return self._records(self._polled(self._poll_flow, timeout, max_records))

    def _polled(self, flow, timeout: float | None, max_records: int | None) -> list:
        try:
            return self._run(flow(timeout, max_records))
        except _ERROR_EVENTS as exc:
            if not self._told(exc):
                raise
            return []

    def poll_batch(self, timeout: float | None = 1.0, max_records: int | None = None):
        """``poll``, columnar: a ConsumerBatch of per-partition RecordViews (no Python
        object per record; ``to_arrow()`` for one table, its columns decoded by registry
        deserializers).

        :raises ConfigError: a deserializer is a plain callable (poll applies those)."""
        return self._batch(self._polled(self._batch_flow, timeout, max_records))

    def __iter__(self) -> Iterator[ConsumerRecord]:
        while True:
            yield from self.poll(None)

    def __enter__(self) -> Consumer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _stop_heartbeats(self, seconds: float = 5.0) -> None:
        """End the heartbeats before a leave: one sent after it would join the group again
        (and one naming no topics is refused). Waits ``seconds`` at most: a heartbeat
        waiting on a silent coordinator ends on its own, by its request timeout."""
        self._heartbeats.stop(seconds)

    def unsubscribe(self) -> None:
        """Leave the group: the partitions are committed (enable.auto.commit) and revoked
        (on_revoke) and the member leaves. A manual assignment (``assign``) stays."""
        self._stop_heartbeats()
        self._consumer.abandon_settling()
        self._call(self._consumer.unsubscribe(), None, "unsubscribe")

    def close(self, *, commit: bool = True, timeout: float | None = None) -> None:
        """Commit the positions (with enable.auto.commit), leave the group, disconnect;
        within ``timeout`` seconds (None: default.api.timeout.ms), after which the connections
        close anyway and RequestTimeoutError is raised."""
        if self._closed:
            return
        self._closed = True
        end = time.monotonic() + self._seconds(timeout)  # the heartbeats' wait counts too
        self._stop_heartbeats(end - time.monotonic())
        self._consumer.abandon_settling()
        try:
            self._call(self._consumer.close(commit=commit), end - time.monotonic(), "close")
        finally:
            self._transport.close()


class AsyncConsumer(_ConsumerMethods):
    """The asyncio consumer: ``Consumer``'s constructor and methods, as coroutines
    (``async for record in consumer``). Use it from one event loop."""

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = AsyncTransport(self._core)
        self._heartbeats = HeartbeatTask()

    async def _run(self, flow: Flow):
        return await self._transport.run(flow)

    def _start_heartbeats(self) -> None:
        self._heartbeats.start(self._transport, self._core, self._consumer.member.heartbeat_loop)

    async def _stop_heartbeats(self, seconds: float | None = None) -> None:
        """As Consumer._stop_heartbeats; one still waiting after ``seconds`` is cancelled."""
        await self._heartbeats.stop(seconds)

    async def unsubscribe(self) -> None:
        await self._stop_heartbeats()
        self._consumer.abandon_settling()
        await self._call(self._consumer.unsubscribe(), None, "unsubscribe")

    async def poll(self, timeout: float | None = 1.0, max_records: int | None = None):
        return self._records(await self._polled(self._poll_flow, timeout, max_records))

    async def poll_batch(self, timeout: float | None = 1.0, max_records: int | None = None):
        return self._batch(await self._polled(self._batch_flow, timeout, max_records))

    async def _polled(self, flow, timeout: float | None, max_records: int | None) -> list:
        try:
            return await self._run(flow(timeout, max_records))
        except _ERROR_EVENTS as exc:
            if not self._told(exc):
                raise
            return []

    async def __aiter__(self) -> AsyncIterator[ConsumerRecord]:
        while True:
            for record in await self.poll(None):
                yield record

    async def __aenter__(self) -> AsyncConsumer:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def close(self, *, commit: bool = True, timeout: float | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        end = time.monotonic() + self._seconds(timeout)
        await self._stop_heartbeats(end - time.monotonic())  # first, as in Consumer.close
        self._consumer.abandon_settling()
        try:
            await self._call(self._consumer.close(commit=commit), end - time.monotonic(), "close")
        finally:
            await self._transport.close()
