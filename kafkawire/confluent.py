"""confluent-kafka's names and shapes over kafkawire's client, for programs written for it.

Change the import line and nothing else::

    from kafkawire.confluent import Consumer, KafkaError, KafkaException, Producer, TopicPartition

covers the common program: ``Producer(config)`` with ``produce(topic, value, key, partition,
on_delivery=..., timestamp=..., headers=...)``, ``poll(timeout)`` running the delivery
callbacks on the caller's thread, ``flush(timeout)`` and ``len(producer)``; ``Consumer(config)``
with ``subscribe(topics, on_assign=..., on_revoke=...)`` (callbacks of ``(consumer,
partitions)``), ``poll(timeout)`` giving one ``Message`` or None, ``consume(num_messages,
timeout)``, ``commit(message=..., offsets=..., asynchronous=...)``, ``assign``, ``seek``,
``committed``, ``position``, ``get_watermark_offsets``, ``close``. ``Message`` has
``topic()``, ``partition()``, ``offset()``, ``key()``, ``value()``, ``headers()``,
``timestamp()`` (``(TIMESTAMP_CREATE_TIME, ms)``), ``error()``, ``latency()``; ``KafkaError``
``code()``, ``name()``, ``str()``, ``retriable()``, ``fatal()`` and librdkafka's code constants
(``KafkaError._PARTITION_EOF``, ``KafkaError.UNKNOWN_TOPIC_OR_PART``, ...).
``ShareConsumer(config)`` (share groups) with ``subscribe``, ``poll(timeout)`` giving a list of
Messages (``delivery_count()``), ``acknowledge(message, AcknowledgeType.X)``,
``acknowledge_offset``, ``commit_sync`` ({partition: None or KafkaException}), ``commit_async``,
``set_acknowledgement_commit_callback``, ``close``.

These are thin wrappers: the work is kafkawire's ``Producer`` and ``Consumer`` (which this
module's classes are, so their other methods are there too, with kafkawire's shapes). The
differences from confluent-kafka worth knowing: the producer's partitioner defaults to
librdkafka's (consistent_random, CRC32 of the key), so keyed messages go to the partitions
confluent-kafka chooses (kafkawire.Producer's own default is Java's murmur2_random, the one
its compiled send path takes); a consumer's poll turns kafkawire's errors
into a Message whose ``error()`` is set (as librdkafka's events are), and ``consume`` returns
what has arrived rather than waiting for ``num_messages``; the configuration takes kafkawire's
properties (librdkafka's and Java's names, ``docs/configuration.md``): ``error_cb`` (called
from poll with the brokers' connection failures), ``stats_cb`` (librdkafka's statistics JSON,
with the fields kafkawire keeps) and ``logger`` work as there, and ``throttle_cb`` is refused
rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kafkawire.client.confluent_shapes import (
    OFFSET_BEGINNING,
    OFFSET_END,
    OFFSET_INVALID,
    OFFSET_STORED,
    TIMESTAMP_CREATE_TIME,
    TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE,
    KafkaError,
    KafkaException,
    Message,
    TopicPartition,
)
from kafkawire.client.consumer import faces as consumer_faces
from kafkawire.client.errors import ConfigError
from kafkawire.client.producer import faces as producer_faces
from kafkawire.client.share import faces as share_faces
from kafkawire.client.share.session import AcknowledgeType
from kafkawire.client.types import TopicPartition as _TP
from kafkawire.errors import KafkawireError

__all__ = [
    "OFFSET_BEGINNING",
    "OFFSET_END",
    "OFFSET_INVALID",
    "OFFSET_STORED",
    "TIMESTAMP_CREATE_TIME",
    "TIMESTAMP_LOG_APPEND_TIME",
    "TIMESTAMP_NOT_AVAILABLE",
    "AcknowledgeType",
    "Consumer",
    "KafkaError",
    "KafkaException",
    "Message",
    "Producer",
    "ShareConsumer",
    "TopicPartition",
]


def _tp(tp: Any) -> _TP:
    """kafkawire's TopicPartition for confluent-kafka's (or a (topic, partition) pair)."""
    if isinstance(tp, TopicPartition):
        return _TP(tp.topic, tp.partition)
    return _TP(*tp)


def _ck(tp: Any, offset: int = OFFSET_INVALID) -> TopicPartition:
    return TopicPartition(tp[0], tp[1], offset)


def _offsets(partitions: Iterable[TopicPartition]) -> dict[_TP, int]:
    return {_tp(p): p.offset for p in partitions}


def _config(config: Mapping[str, Any] | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The configuration dict (confluent-kafka also takes its properties as keywords)."""
    merged = dict(config or {})
    merged.update(kwargs)
    unsupported = sorted({"throttle_cb"} & merged.keys())
    if unsupported:
        raise ConfigError(
            f"kafkawire.confluent does not take {', '.join(unsupported)}: kafkawire does not "
            "report broker throttling yet"
        )
    return merged


def _raising(exc: BaseException) -> BaseException:
    """What a confluent-kafka program expects to catch for one of kafkawire's errors."""
    if isinstance(exc, TypeError | BufferError):
        return exc
    return KafkaException._of(exc)


class Producer(producer_faces.Producer):
    """confluent-kafka's ``Producer(config)``: ``produce``, ``poll``, ``flush``, ``len``
    (kafkawire.Producer's, which takes them too), with confluent-kafka's exceptions."""

    def __init__(self, config: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        config = _config(config, kwargs)
        # librdkafka's default: keyed messages land where confluent-kafka puts them
        config.setdefault("partitioner", "consistent_random")
        on_delivery = None
        if "on_delivery" in config and not hasattr(_producer_config_fields(), "on_delivery"):
            on_delivery = config.pop("on_delivery")
        try:
            super().__init__(config=config)
        except KafkawireError as exc:
            raise _raising(exc) from exc
        if on_delivery is not None:
            self._on_delivery = on_delivery

    def produce(
        self,
        topic: str,
        value: Any = None,
        key: Any = None,
        partition: int = -1,
        on_delivery: Callable | None = None,
        callback: Callable | None = None,
        timestamp: Any = 0,
        headers: Any = None,
    ) -> None:
        """kafkawire.Producer.produce; its errors as confluent-kafka's: KafkaException, a
        BufferError when the buffer stays full, TypeError for a value of the wrong kind."""
        try:
            super().produce(topic, value, key, partition, on_delivery, callback, timestamp, headers)
        except KafkawireError as exc:
            if isinstance(exc, BufferError | TypeError):
                raise
            raise _raising(exc) from exc

    def init_transactions(self, timeout: float | None = None) -> None:
        try:
            super().init_transactions(timeout)
        except KafkawireError as exc:
            raise _raising(exc) from exc

    def commit_transaction(self, timeout: float | None = None) -> None:
        try:
            super().commit_transaction(timeout)
        except KafkawireError as exc:
            raise _raising(exc) from exc

    def abort_transaction(self, timeout: float | None = None) -> None:
        try:
            super().abort_transaction(timeout)
        except KafkawireError as exc:
            raise _raising(exc) from exc

    def send_offsets_to_transaction(  # type: ignore[override]
        self, positions: Any, group_metadata: Any, timeout: float | None = None
    ) -> None:
        """``positions``: TopicPartitions with the next offsets to read (or kafkawire's
        mapping)."""
        if not isinstance(positions, Mapping):
            positions = _offsets(positions)
        try:
            super().send_offsets_to_transaction(positions, group_metadata, timeout)
        except KafkawireError as exc:
            raise _raising(exc) from exc


def _producer_config_fields() -> Any:
    from kafkawire.client.producer.config import ProducerConfig

    return ProducerConfig


def _message(record: Any) -> Message:
    def plain(data: Any) -> Any:
        return bytes(data) if isinstance(data, memoryview) else data

    ts_type = record.timestamp_type
    return Message(
        record.topic,
        record.partition,
        record.offset,
        plain(record.key),
        plain(record.value),
        [(k, plain(v)) for k, v in record.headers] if record.headers else None,
        timestamp=record.timestamp if ts_type >= 0 else None,
        timestamp_type=TIMESTAMP_LOG_APPEND_TIME if ts_type == 1 else TIMESTAMP_CREATE_TIME,
        leader_epoch=record.leader_epoch,
        delivery_count=record.delivery_count,
    )


def _after(message: Message) -> dict[_TP, int]:
    """{its partition: the offset after it}, for commit and store_offsets."""
    topic, partition, offset = message.topic(), message.partition(), message.offset()
    if topic is None or partition is None or offset is None or offset < 0:
        raise ValueError(f"{message!r} is not a consumed message: it has no offset to commit")
    return {_TP(topic, partition): offset + 1}


def _seconds(timeout: float | None) -> float | None:
    """confluent-kafka's timeouts: None or negative wait as long as it takes."""
    return None if timeout is None or timeout < 0 else timeout


class Consumer(consumer_faces.Consumer):
    """confluent-kafka's ``Consumer(config)``: ``poll`` gives one Message or None."""

    def __init__(self, config: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        try:
            super().__init__(config=_config(config, kwargs))
        except KafkawireError as exc:
            raise _raising(exc) from exc
        self._rebalancing = False  # in a subscribe callback
        self._pending: list[Message] = []  # messages a consume had no room for
        # where the partitions given to assign() in on_assign start (librdkafka's meaning of
        # assign there): applied when the poll that called on_assign returns
        self._starts: dict[_TP, int] = {}

    def subscribe(  # type: ignore[override]
        self,
        topics: Any,
        on_assign: Callable | None = None,
        on_revoke: Callable | None = None,
        on_lost: Callable | None = None,
    ) -> None:
        """Join the group for ``topics``; the callbacks get (consumer, [TopicPartition])."""

        def given(callback: Callable | None) -> Callable | None:
            if callback is None:
                return None
            if not callable(callback):
                raise TypeError(f"{callback!r} is not a callable (consumer, partitions)")

            def call(partitions: list) -> None:
                self._rebalancing = True
                try:
                    callback(self, [_ck(p) for p in partitions])
                finally:
                    self._rebalancing = False

            return call

        super().subscribe(
            topics, on_assign=given(on_assign), on_revoke=given(on_revoke), on_lost=given(on_lost)
        )

    def poll(self, timeout: float | None = None) -> Message | None:  # type: ignore[override]
        """The next message, or None when none came within ``timeout`` seconds (None or
        negative: as long as it takes); an error comes as a Message whose ``error()`` is
        set."""
        got = self.consume(1, -1 if timeout is None else timeout)
        return got[0] if got else None

    def consume(self, num_messages: int = 1, timeout: float | None = -1) -> list[Message]:
        """Up to ``num_messages`` messages, those that have arrived within ``timeout``."""
        if num_messages < 1:
            raise ValueError("num_messages must be at least 1")
        if self._pending:  # end-of-partition events a poll had no room for
            out, self._pending = self._pending[:num_messages], self._pending[num_messages:]
            return out
        try:
            records = super().poll(_seconds(timeout), num_messages)
        except KafkawireError as exc:
            if isinstance(exc, ConfigError):
                raise _raising(exc) from exc
            return [Message(error=KafkaError._of(exc))]
        if self._starts:  # on_assign said where to start: what came from elsewhere goes
            starts, self._starts = self._starts, {}
            for tp, offset in starts.items():
                self._start_at(tp, offset)
            records = [r for r in records if (r.topic, r.partition) not in starts]
        messages = [_message(r) for r in records]
        # enable.partition.eof: librdkafka's event, after the partition's last records
        for (topic, partition), offset in self._consumer.take_ends():
            end = KafkaError(
                KafkaError._PARTITION_EOF,
                f"{topic} [{partition}] reached end at offset {offset}",
            )
            messages.append(Message(topic, partition, offset, error=end))
        out, self._pending = messages[:num_messages], messages[num_messages:]
        return out

    def _start_at(self, tp: _TP, offset: int) -> None:
        if offset == OFFSET_BEGINNING:
            super().seek_to_beginning([tp])
        elif offset == OFFSET_END:
            super().seek_to_end([tp])
        elif offset >= 0:
            super().seek(tp, offset)

    def _given_starts(self, partitions: list) -> None:
        for p in partitions:
            offset = getattr(p, "offset", OFFSET_INVALID)
            if offset >= 0 or offset in (OFFSET_BEGINNING, OFFSET_END):
                self._starts[_tp(p)] = offset

    def assign(self, partitions: Iterable[Any]) -> None:  # type: ignore[override]
        """Read these TopicPartitions; an offset given (or OFFSET_BEGINNING / OFFSET_END) is
        where reading starts. In an on_assign callback (librdkafka's meaning): the group's
        partitions start at the offsets given."""
        partitions = list(partitions)
        if self._rebalancing:
            self._given_starts(partitions)
            return
        super().assign([_tp(p) for p in partitions])
        for p in partitions:
            self._start_at(_tp(p), getattr(p, "offset", OFFSET_INVALID))

    def incremental_assign(self, partitions: Iterable[Any]) -> None:  # type: ignore[override]
        """As ``assign``, adding to the assignment."""
        partitions = list(partitions)
        if self._rebalancing:
            self._given_starts(partitions)
            return
        super().incremental_assign([_tp(p) for p in partitions])
        for p in partitions:
            self._start_at(_tp(p), getattr(p, "offset", OFFSET_INVALID))

    def incremental_unassign(self, partitions: Iterable[Any]) -> None:  # type: ignore[override]
        if not self._rebalancing:  # (in on_revoke: the group takes them anyway)
            super().incremental_unassign([_tp(p) for p in partitions])

    def unassign(self) -> None:
        """Drop the manual assignment (in on_revoke: nothing to do, the group takes the
        partitions)."""
        if not self._rebalancing:
            super().assign([])

    def assignment(self) -> list[TopicPartition]:  # type: ignore[override]
        return [_ck(p) for p in super().assignment()]

    def seek(self, partition: Any, offset: int | None = None) -> None:  # type: ignore[override]
        """confluent-kafka's ``seek(TopicPartition with its offset)``."""
        offset = partition.offset if offset is None else offset
        if offset not in (OFFSET_BEGINNING, OFFSET_END) and offset < 0:
            raise ValueError(f"seek to {offset}: give an offset, OFFSET_BEGINNING or OFFSET_END")
        self._start_at(_tp(partition), offset)

    def pause(self, partitions: Iterable[Any]) -> None:
        super().pause([_tp(p) for p in partitions])

    def resume(self, partitions: Iterable[Any]) -> None:
        super().resume([_tp(p) for p in partitions])

    def commit(  # type: ignore[override]
        self,
        message: Message | None = None,
        offsets: Iterable[TopicPartition] | None = None,
        asynchronous: bool = True,
    ) -> list[TopicPartition] | None:
        """Commit the offset after ``message``, or ``offsets`` (TopicPartitions), or the
        positions; ``asynchronous=False`` waits and returns the TopicPartitions committed."""
        if message is not None and offsets is not None:
            raise ValueError("give message or offsets, not both")
        given: dict[_TP, int] | None = None
        if message is not None:
            given = _after(message)
        elif offsets is not None:
            given = _offsets(offsets)
        try:
            super().commit(given, asynchronous=asynchronous)
        except KafkawireError as exc:
            raise _raising(exc) from exc
        if asynchronous:
            return None
        if given is None:
            return None
        return [_ck(tp, offset) for tp, offset in given.items()]

    def committed(  # type: ignore[override]
        self, partitions: Iterable[Any], timeout: float | None = None
    ) -> list[TopicPartition]:
        """The TopicPartitions with the group's committed offsets (OFFSET_INVALID: none)."""
        try:
            got = super().committed([_tp(p) for p in partitions], _seconds(timeout))
        except KafkawireError as exc:
            raise _raising(exc) from exc
        return [_ck(tp, OFFSET_INVALID if om is None else om.offset) for tp, om in got.items()]

    def position(self, partitions: Iterable[Any]) -> list[TopicPartition]:  # type: ignore[override]
        """The TopicPartitions with the offset of the next message poll gives."""
        return [_ck(_tp(p), super(Consumer, self).position(_tp(p))) for p in partitions]

    def get_watermark_offsets(  # type: ignore[override]
        self, partition: Any, timeout: float | None = None, cached: bool = False
    ) -> tuple[int, int]:
        try:
            low, high = super().get_watermark_offsets(_tp(partition), _seconds(timeout), cached)
            return low, high
        except KafkawireError as exc:
            raise _raising(exc) from exc

    def store_offsets(  # type: ignore[override]
        self, message: Message | None = None, offsets: Iterable[TopicPartition] | None = None
    ) -> None:
        if message is not None:
            super().store_offsets(None, _after(message))
        if offsets is not None:
            super().store_offsets(None, _offsets(offsets))

    def close(self) -> None:  # type: ignore[override]
        """Commit (with enable.auto.commit), leave the group, disconnect."""
        try:
            super().close()
        except KafkawireError as exc:
            raise _raising(exc) from exc


class ShareConsumer(share_faces.ShareConsumer):
    """confluent-kafka's ``ShareConsumer(config)``: ``poll`` gives a list of Messages, with
    confluent-kafka's exceptions and TopicPartitions."""

    def __init__(self, config: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        try:
            super().__init__(config=_config(config, kwargs))
        except KafkawireError as exc:
            raise _raising(exc) from exc

    def poll(self, timeout: float | None = -1, max_records: int | None = None) -> list:  # type: ignore[override]
        try:
            return [_message(r) for r in super().poll(_seconds(timeout), max_records)]
        except KafkawireError as exc:
            raise _raising(exc) from exc

    def commit_sync(self, timeout: float | None = 60) -> dict:  # type: ignore[override]
        try:
            results = super().commit_sync(_seconds(timeout))
        except KafkawireError as exc:
            raise _raising(exc) from exc
        return {
            _ck(tp): None if error is None else KafkaException._of(error)
            for tp, error in results.items()
        }

    def set_acknowledgement_commit_callback(self, callback: Callable | None) -> None:
        if callback is None:
            super().set_acknowledgement_commit_callback(None)
            return
        if not callable(callback):
            raise TypeError(f"the acknowledgement commit callback is {callback!r}, not callable")

        def told(offsets: dict, error: BaseException | None) -> None:
            callback(
                {_ck(tp): set(os) for tp, os in offsets.items()},
                None if error is None else KafkaException._of(error),
            )

        super().set_acknowledgement_commit_callback(told)

    def close(self, timeout: float | None = None) -> None:  # type: ignore[override]
        try:
            super().close(timeout)
        except KafkawireError as exc:
            raise _raising(exc) from exc
