"""The share consumer's two faces (KIP-932 share groups, "Kafka queues"): ``ShareConsumer``
(blocking, ``kafkawire.ShareConsumer``) and ``AsyncShareConsumer`` (asyncio,
``kafkawire.aio.ShareConsumer``), with confluent-kafka's ShareConsumer's names.

Both are written once in ``_ShareMethods`` over the sans-IO ``ShareConsumerCore``; the
member's heartbeats run beside the polls, on a thread with a connection of its own (blocking
face) or as a task on the same event loop (asyncio face), as the consumer's do.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any

from kafkawire.protocol.error_codes import BrokerError

from ..aio_transport import AsyncTransport
from ..consumer.config import ConsumerConfig, consumer_config
from ..core import ClientCore
from ..errors import ClientError, ConfigError
from ..flow import Flow, within
from ..groups.heartbeats import HeartbeatTask, HeartbeatThread
from ..sync_transport import SyncTransport
from .core import CommitCallback, ShareBatch, ShareConsumerCore
from .session import AcknowledgeType

_FOREVER = 1e9  # poll(None) or confluent-kafka's poll(-1): as long as it takes
_MODES = {"implicit": False, "explicit": True}
# consumer properties that mean nothing to a share group, with what to use instead
_NOT_FOR_SHARE_GROUPS = {
    "auto_offset_reset": "the group's share.auto.offset.reset (a broker-side group config)",
    "isolation_level": "the group's share.isolation.level (a broker-side group config)",
    "enable_auto_commit": "share.acknowledgement.mode (implicit accepts what poll gave)",
    "group_instance_id": "nothing: share groups have no static members",
    "group_protocol": "nothing: a share group has its own protocol (ShareGroupHeartbeat)",
    "group_remote_assignor": "nothing: the broker assigns a share group's partitions",
    "assignment_strategy": "nothing: the broker assigns a share group's partitions",
}


def share_consumer_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None,
    settings: dict[str, Any],
):
    """The connection settings, the consumer settings a share consumer uses, and whether
    acknowledgement is explicit (``share.acknowledgement.mode``, or the keyword
    ``share_acknowledgement_mode``).

    :raises ConfigError: an unknown mode, or a consumer property share groups do not have
        (set to anything but its default), naming what to use instead."""
    config = dict(config or {})
    mode = config.pop("share.acknowledgement.mode", None)
    keyword = settings.pop("share_acknowledgement_mode", None)
    if mode is not None and keyword is not None and mode != keyword:
        raise ConfigError(
            f"share.acknowledgement.mode is {mode!r} and share_acknowledgement_mode "
            f"{keyword!r}: say it once"
        )
    mode = mode if mode is not None else keyword if keyword is not None else "implicit"
    if mode not in _MODES:
        raise ConfigError(f"share.acknowledgement.mode is {mode!r}, not implicit or explicit")
    client, consumer = consumer_config(bootstrap_servers, config, **settings)
    defaults = ConsumerConfig()
    for f in fields(ConsumerConfig):
        if f.name in _NOT_FOR_SHARE_GROUPS and getattr(consumer, f.name) != getattr(
            defaults, f.name
        ):
            raise ConfigError(
                f"a share consumer has no {f.name} (set to {getattr(consumer, f.name)!r}); "
                f"use {_NOT_FOR_SHARE_GROUPS[f.name]}"
            )
    return client, consumer, _MODES[mode]


class _ShareMethods:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None:
        client, consumer, explicit = share_consumer_config(bootstrap_servers, config, settings)
        self._core = ClientCore(client)
        self._share = ShareConsumerCore(self._core, consumer, explicit=explicit)
        self._closed = False

    def _run(self, flow: Flow):
        raise NotImplementedError

    def _timeout(self, timeout: float | None) -> float:
        return self._core.config.default_api_timeout if timeout is None else timeout

    def _call(self, flow: Flow, timeout: float | None, what: str):
        """A blocking call: it returns or raises within ``timeout`` seconds (None:
        default.api.timeout.ms), whatever the brokers do."""
        return self._run(within(flow, self._timeout(timeout), what))

    def _open(self) -> None:
        if self._closed:
            raise ClientError("the share consumer is closed")

    def __repr__(self) -> str:
        mode = "explicit" if self._share.explicit else "implicit"
        return (
            f"<{type(self).__qualname__} group={self._share.member.group_id!r} "
            f"subscription={self.subscription()} acknowledgement={mode}>"
        )

    @property
    def member_id(self) -> str:
        return self._share.member.member_id

    def subscribe(self, topics: Iterable[str]) -> None:
        """Join the share group (heartbeats start with the next poll) for ``topics``; the
        broker assigns partitions, which other members may share. Replaces the subscription
        before it.

        :raises ValueError: an empty or repeated name, or no topic (``unsubscribe`` leaves)."""
        self._open()
        self._share.subscribe(topics)

    def subscription(self) -> list[str]:
        return self._share.subscription()

    def assignment(self) -> list:
        """The partitions the broker assigned to this member (as of the last poll)."""
        return self._share.assignment()

    def acknowledge(self, record: Any, type: AcknowledgeType | int = AcknowledgeType.ACCEPT):
        """Settle a record a poll handed out (a ConsumerRecord, or anything with topic,
        partition and offset: confluent-kafka's Message too) as ACCEPT, RELEASE (hand it out
        again) or REJECT (never again); sent with the next poll, commit or close.

        :raises ValueError: no poll handed it out, or it is acknowledged already."""
        topic, partition, offset = (_field(record, n) for n in ("topic", "partition", "offset"))
        count = _field(record, "delivery_count", None)  # which delivery of the record
        self._share.acknowledge_offset(topic, partition, offset, type, count)

    def acknowledge_offset(
        self,
        topic: str,
        partition: int,
        offset: int,
        type: AcknowledgeType | int = AcknowledgeType.ACCEPT,
    ) -> None:
        """``acknowledge`` by the record's coordinates."""
        self._share.acknowledge_offset(topic, partition, offset, type)

    def set_acknowledgement_commit_callback(self, callback: CommitCallback | None) -> None:
        """``callback(offsets, error)`` is told how acknowledgements ended: ``offsets`` is
        {TopicPartition: {offset, ...}}, ``error`` None when the broker took them, else why
        not (a broker's refusal, a lost connection, AcquisitionLockExpiredError). Called on
        the caller's thread, from the poll, commit or close that took the answer."""
        if callback is not None and not callable(callback):
            raise TypeError(f"the acknowledgement commit callback is {callback!r}, not callable")
        self._share.on_commit = callback

    def _poll_flow(self, timeout: float | None, max_records: int | None):
        self._open()
        self._start_heartbeats()
        seconds = _FOREVER if timeout is None or timeout < 0 else timeout
        return self._share.poll(max_records, seconds)

    def _records(self, parts: list) -> list:
        if len(parts) == 1:
            return parts[0].records()
        return [r for part in parts for r in part.records()]

    def _start_heartbeats(self) -> None:
        raise NotImplementedError


class ShareConsumer(_ShareMethods):
    """A blocking share consumer (KIP-932): ``subscribe``, then ``poll`` records that the
    group hands to this member, and acknowledge them.

    :param bootstrap_servers: "host:port,..." or a list.
    :param config: Kafka properties, librdkafka's or Java's names: group.id (required),
        share.acknowledgement.mode (implicit, the default, or explicit), max.poll.records,
        fetch.*, the security settings, ... (``docs/share-groups.md``).

    Not thread-safe: poll from one thread (heartbeats have their own)."""

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = SyncTransport(self._core)
        self._heartbeats = HeartbeatThread("kafkawire-share-heartbeat")

    def _run(self, flow: Flow):
        return self._transport.run(flow)

    def _start_heartbeats(self) -> None:
        self._heartbeats.start(self._core.config, self._share.member.heartbeat_loop)

    def _stop_heartbeats(self, seconds: float) -> None:
        """End the heartbeats before leaving: one sent after the leave would join again.
        Waits ``seconds`` at most: a heartbeat waiting on a silent coordinator ends on its
        own, by its request timeout (the thread is told to stop)."""
        self._heartbeats.stop(seconds)

    def poll(self, timeout: float | None = 1.0, max_records: int | None = None) -> list:
        """Up to ``max_records`` (max.poll.records) records acquired for this member, as
        ConsumerRecords with their ``delivery_count``; waits up to ``timeout`` seconds (None
        or a negative number: until there are some). Implicit mode accepts the last poll's
        records first; explicit mode raises ClientError while some are not acknowledged."""
        return self._records(self._run(self._poll_flow(timeout, max_records)))

    def poll_batch(self, timeout: float | None = 1.0, max_records: int | None = None):
        """``poll``, columnar: a ShareBatch of RecordView slices (no Python object per
        record; ``to_arrow()`` with a delivery_count column; ``acknowledge`` by mask)."""
        return ShareBatch(self._run(self._poll_flow(timeout, max_records)), self._share)

    def commit_sync(self, timeout: float | None = None) -> dict:
        """Send the acknowledgements and wait for the broker's answers (implicit mode: the
        last poll's records accepted first): {TopicPartition: None, or the error of its
        acknowledgements}; {} when none were pending."""
        self._open()
        return self._call(self._share.commit(), timeout, "commit_sync")

    def commit_async(self) -> None:
        """Send the acknowledgements and return; the answers reach the acknowledgement
        commit callback from a later poll, commit or close."""
        self._open()
        self._call(self._share.commit_async(), None, "commit_async")

    def unsubscribe(self, timeout: float | None = None) -> None:
        """Leave the share group: acknowledgements sent (implicit mode: the last poll's
        records accepted), what was acquired and not handed out released, the sessions
        closed, then the member out of the group; within ``timeout`` seconds (None:
        default.api.timeout.ms)."""
        self._open()
        self._leave(timeout, "unsubscribe")

    def _leave(self, timeout: float | None, what: str) -> None:
        # the sessions first, while the member is in and its heartbeat connection open
        # (librdkafka's mock closes every share session of a broker a connection to it
        # closes); then the heartbeats, which must not join again after the leave
        end = time.monotonic() + self._timeout(timeout)
        refused = None
        try:
            self._call(self._share.close_sessions(), end - time.monotonic(), what)
        except BrokerError as exc:  # an answer in flight: the sessions closed, the member leaves
            refused = exc
        finally:
            self._stop_heartbeats(end - time.monotonic())
        self._call(self._share.leave(), max(0.0, end - time.monotonic()), what)
        if refused is not None:
            raise refused

    def close(self, timeout: float | None = None) -> None:
        """``unsubscribe`` and disconnect, within ``timeout`` seconds (None:
        default.api.timeout.ms), after which the connections close anyway and
        RequestTimeoutError is raised."""
        if self._closed:
            return
        self._closed = True
        try:
            self._leave(timeout, "close")
        finally:
            self._transport.close()

    def __iter__(self) -> Iterator:
        while True:
            yield from self.poll(None)

    def __enter__(self) -> ShareConsumer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class AsyncShareConsumer(_ShareMethods):
    """The asyncio share consumer: ``ShareConsumer``'s constructor and methods, as
    coroutines (``async for record in consumer``). Use it from one event loop."""

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = AsyncTransport(self._core)
        self._heartbeats = HeartbeatTask()

    async def _run(self, flow: Flow):
        return await self._transport.run(flow)

    def _start_heartbeats(self) -> None:
        self._heartbeats.start(self._transport, self._core, self._share.member.heartbeat_loop)

    async def _stop_heartbeats(self, seconds: float) -> None:
        """As ShareConsumer._stop_heartbeats; a heartbeat still waiting after ``seconds``
        is cancelled."""
        await self._heartbeats.stop(seconds)

    async def poll(self, timeout: float | None = 1.0, max_records: int | None = None) -> list:
        return self._records(await self._run(self._poll_flow(timeout, max_records)))

    async def poll_batch(self, timeout: float | None = 1.0, max_records: int | None = None):
        return ShareBatch(await self._run(self._poll_flow(timeout, max_records)), self._share)

    async def commit_sync(self, timeout: float | None = None) -> dict:
        self._open()
        return await self._call(self._share.commit(), timeout, "commit_sync")

    async def commit_async(self) -> None:
        self._open()
        await self._call(self._share.commit_async(), None, "commit_async")

    async def unsubscribe(self, timeout: float | None = None) -> None:
        self._open()
        await self._leave(timeout, "unsubscribe")

    async def _leave(self, timeout: float | None, what: str) -> None:
        end = time.monotonic() + self._timeout(timeout)  # as ShareConsumer._leave
        refused = None
        try:
            await self._call(self._share.close_sessions(), end - time.monotonic(), what)
        except BrokerError as exc:
            refused = exc
        finally:
            await self._stop_heartbeats(end - time.monotonic())
        await self._call(self._share.leave(), max(0.0, end - time.monotonic()), what)
        if refused is not None:
            raise refused

    async def close(self, timeout: float | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self._leave(timeout, "close")
        finally:
            await self._transport.close()

    async def __aiter__(self) -> AsyncIterator:
        while True:
            for record in await self.poll(None):
                yield record

    async def __aenter__(self) -> AsyncShareConsumer:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()


_REQUIRED = object()


def _field(record: Any, name: str, default: Any = _REQUIRED) -> Any:
    """A record's field: an attribute (ConsumerRecord) or a method (confluent-kafka's
    Message)."""
    value = getattr(record, name, default)
    if value is _REQUIRED:
        raise TypeError(f"acknowledge takes a record a poll gave, not {record!r}")
    return value() if callable(value) else value
