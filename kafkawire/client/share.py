"""Share groups (KIP-932, "Kafka queues") as sans-IO flows: the membership and the share
sessions a share consumer is made of. No IO: flows yield ``Call``/``Sleep`` effects
(``flow.py``) that either transport drives.

``ShareGroupMember`` is one member of a share group. ShareGroupHeartbeat joins (member epoch
0, with a member id made here once, KIP-1082, and kept across rejoins), keeps the member in at
the interval the coordinator gives, carries the assignment (topic ids and partitions; several
members may be given the same partition: the broker hands each record to one of them) and
leaves (epoch -1).

``ShareSession`` is the member's share session with one broker, the leader of some of its
partitions. ShareFetch acquires records for the member, each with its delivery count (how many
times the broker handed it out), for the group's acquisition lock time. Every acquired record
is acknowledged once: ACCEPT (done), RELEASE (hand it out again, to any member) or REJECT
(never again); offsets of an acquired range that hold no record (compacted away, transaction
markers) are acknowledged as GAP by the session itself. Acknowledgements ride on the next
ShareFetch, or go alone in a ShareAcknowledge (``commit``). The session epoch is 0 to open
the session, then counts the requests (1, 2, ...); -1 closes it, and the broker releases what
the member still holds.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

from kafkawire.errors import UnsupportedError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    BrokerError,
    ErrorCode,
    UnsupportedVersionError,
    raise_for_code,
)
from kafkawire.records import read_batches

from .coordinator import find_coordinator
from .core import ClientCore
from .errors import BrokerConnectionError, ClientError, RequestTimeoutError
from .flow import Flow, Sleep
from .types import ClusterMetadata, TopicPartition

__all__ = [
    "AcknowledgeType",
    "ShareFetchResult",
    "ShareGroupMember",
    "ShareRecord",
    "ShareSession",
    "TopicIdPartition",
]

_LEAVE = -1  # the member epoch of a leaving member
_CLOSE = -1  # the share session epoch that closes a session
_INT32_MAX = 2**31 - 1
_LOOP_TICK = 0.05  # seconds between the heartbeat loop's looks at the clock
_COORDINATOR_MOVED = {
    ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_COORDINATOR,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
}
_FENCED = {ErrorCode.FENCED_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID}
_SESSION_LOST = {ErrorCode.SHARE_SESSION_NOT_FOUND, ErrorCode.INVALID_SHARE_SESSION_EPOCH}


class AcknowledgeType(IntEnum):
    """How a member settles an acquired record (ShareFetch/ShareAcknowledge AcknowledgeTypes)."""

    GAP = 0  # an offset of an acquired range that holds no record
    ACCEPT = 1  # processed: never handed out again
    RELEASE = 2  # hand it out again (its delivery count goes up)
    REJECT = 3  # unprocessable: never handed out again


class TopicIdPartition(NamedTuple):
    topic_id: uuid.UUID
    partition: int


@dataclass(frozen=True, slots=True)
class ShareRecord:
    """One record a ShareFetch acquired for this member."""

    topic: str | None  # None when the session was not told the topic id's name
    topic_id: uuid.UUID
    partition: int
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list
    delivery_count: int  # 1 on the first delivery, 2 after one release (or lock expiry), ...


@dataclass(slots=True)
class ShareFetchResult:
    """What one ShareFetch brought: the records acquired (partition by partition as the
    answer lists them, in offset order within one), the partitions the broker refused (error
    codes), the acknowledgements it refused (error codes, by partition), and the group's
    acquisition lock time (ms)."""

    records: list[ShareRecord] = field(default_factory=list)
    errors: dict[TopicIdPartition, int] = field(default_factory=dict)
    acknowledge_errors: dict[TopicIdPartition, int] = field(default_factory=dict)
    acquisition_lock_timeout_ms: int = 0


# ---- membership ----------------------------------------------------------------------------


class ShareGroupMember:
    """One member of share group ``group_id``; ``epoch`` is its member epoch (-1: not in)."""

    def __init__(
        self, group_id: str, *, member_id: str | None = None, rack_id: str | None = None
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id or str(uuid.uuid4())
        self.rack_id = rack_id
        self.lock = threading.Lock()
        self.epoch = -1
        self.coordinator: int | None = None
        self.subscription: tuple[str, ...] = ()
        self.interval = 5.0  # seconds, until the coordinator gives its own
        self.next_heartbeat = 0.0  # time.monotonic() of the next heartbeat due
        self._sent_subscription: tuple[str, ...] | None = None  # what the broker knows
        self._assigned: dict[uuid.UUID, frozenset[int]] = {}
        self.assignment_changed = False  # a new assignment not yet read by ``assignment``
        self._names: dict[uuid.UUID, str] = {}
        self.fatal: BaseException | None = None  # an error of the heartbeat loop, to raise

    @property
    def joined(self) -> bool:
        return self.epoch > 0

    def subscribe(self, topics: Iterable[str]) -> None:
        """The topics to be assigned partitions of; the next heartbeat tells the broker."""
        with self.lock:
            self.subscription = tuple(sorted(set(topics)))

    def due(self, now: float | None = None) -> bool:
        """A heartbeat is due: the interval passed, or the subscription changed."""
        now = time.monotonic() if now is None else now
        with self.lock:
            if not self.joined:
                return bool(self.subscription)
            return self.subscription != self._sent_subscription or now >= self.next_heartbeat

    def _request(self) -> tuple[m.ShareGroupHeartbeatRequest, tuple[str, ...]]:
        """The next heartbeat (under ``lock``): epoch 0 to join; the subscription and rack
        only when joining or when they changed (null otherwise)."""
        epoch = max(self.epoch, 0)
        subscription = self.subscription
        full = epoch == 0 or self._sent_subscription is None
        names = subscription if full or subscription != self._sent_subscription else None
        request = m.ShareGroupHeartbeatRequest(
            group_id=self.group_id,
            member_id=self.member_id,
            member_epoch=epoch,
            rack_id=self.rack_id if full else None,
            subscribed_topic_names=None if names is None else list(names),
        )
        return request, subscription

    def ensure_coordinator(self, core: ClientCore) -> Flow[int]:
        node = self.coordinator
        if node is None or node not in core.brokers:
            node = self.coordinator = yield from find_coordinator(core, self.group_id)
        return node

    def heartbeat(self, core: ClientCore) -> Flow[m.ShareGroupHeartbeatResponse]:
        """One ShareGroupHeartbeat (epoch 0 when not in the group). A fenced member is out
        (epoch -1: the next heartbeat joins again, with the same member id) and a moved
        coordinator forgotten before the error is raised."""
        with self.lock:
            request, subscription = self._request()
        node = yield from self.ensure_coordinator(core)
        try:
            response = yield core.call(node, request)
        except UnsupportedVersionError:
            raise UnsupportedError(
                f"share group {self.group_id!r}: the coordinator ({core.broker_name(node)}) "
                "does not support ShareGroupHeartbeat (share groups, KIP-932: Apache Kafka "
                "4.1 or later, with share groups enabled)"
            ) from None
        except (BrokerConnectionError, RequestTimeoutError):
            with self.lock:
                self.coordinator = None
                self._sent_subscription = None
            raise
        code = response.error_code
        with self.lock:
            if code == 0:
                if response.member_id:
                    self.member_id = response.member_id
                self.epoch = response.member_epoch
                if response.heartbeat_interval_ms > 0:
                    self.interval = response.heartbeat_interval_ms / 1000
                self.next_heartbeat = time.monotonic() + self.interval
                if request.subscribed_topic_names is not None:
                    self._sent_subscription = subscription
                if response.assignment is not None:  # null: unchanged
                    assigned = {
                        t.topic_id: frozenset(t.partitions)
                        for t in response.assignment.topic_partitions
                    }
                    if assigned != self._assigned:
                        self._assigned = assigned
                        self.assignment_changed = True
                return response
            self._sent_subscription = None
            if code in _COORDINATOR_MOVED:
                self.coordinator = None
            if code in _FENCED:
                self.epoch = -1
                if self._assigned:
                    self._assigned = {}
                    self.assignment_changed = True
        raise_for_code(
            code,
            f"ShareGroupHeartbeat of group {self.group_id!r} (member {self.member_id}, epoch "
            f"{request.member_epoch}) to {core.broker_name(node)}: "
            f"{response.error_message or ''}",
        )
        raise AssertionError("unreachable")

    def join(self, core: ClientCore, topics: Iterable[str] | None = None) -> Flow[None]:
        """Subscribe to ``topics`` (if given) and heartbeat with epoch 0 until the coordinator
        takes this member in, through coordinator moves and fencing (backing off, doubling);
        errors the broker will repeat (no authorization, no share groups) are raised, and
        connection failures after the configured retries."""
        if topics is not None:
            self.subscribe(topics)
        if not self.subscription:
            raise ClientError(f"share group {self.group_id!r}: subscribe to topics first")
        backoff = core.config.retry_backoff
        failures = 0
        while not self.joined:
            try:
                yield from self.heartbeat(core)
                if not self.joined:  # answered without taking the member in yet
                    yield Sleep(backoff)
                continue
            except (BrokerConnectionError, RequestTimeoutError):
                failures += 1
                if failures > core.config.retries:
                    raise
            except BrokerError as exc:
                if exc.code not in _COORDINATOR_MOVED and exc.code not in _FENCED:
                    raise
            yield Sleep(backoff)
            backoff = min(backoff * 2, core.config.retry_backoff_max)

    def heartbeat_loop(self, core: ClientCore, stopped: Callable[[], bool]) -> Flow[None]:
        """Heartbeats whenever one is due (``due``), until ``stopped()``: the member stays in
        the group, rejoins (same member id) after fencing, and learns new assignments
        (``assignment_changed``). Failures are retried after a backoff (doubling); an error
        the broker will repeat is kept in ``fatal`` for the consumer to raise."""
        backoff = 0.0
        retry_at = 0.0
        while not stopped():
            yield Sleep(_LOOP_TICK)
            now = time.monotonic()
            if now < retry_at or not self.due(now):
                continue
            try:
                yield from self.heartbeat(core)
                backoff = 0.0
            except (ClientError, BrokerError) as exc:
                retriable = isinstance(exc, (BrokerConnectionError, RequestTimeoutError)) or (
                    isinstance(exc, BrokerError)
                    and (exc.code in _COORDINATOR_MOVED or exc.code in _FENCED)
                )
                if not retriable:
                    self.fatal = exc
                backoff = min(
                    max(backoff * 2, core.config.retry_backoff), core.config.retry_backoff_max
                )
                retry_at = time.monotonic() + backoff

    def leave(self, core: ClientCore) -> Flow[None]:
        """A heartbeat with member epoch -1: the group hands this member's partitions to the
        others now rather than after the session timeout. The member is out either way."""
        with self.lock:
            joined = self.joined
        if not joined:
            return
        try:
            node = yield from self.ensure_coordinator(core)
            request = m.ShareGroupHeartbeatRequest(
                group_id=self.group_id, member_id=self.member_id, member_epoch=_LEAVE
            )
            response = yield core.call(node, request)
            if response.error_code not in (0, *_FENCED):
                raise_for_code(
                    response.error_code,
                    f"leaving share group {self.group_id!r} at {core.broker_name(node)}",
                )
        finally:
            with self.lock:
                self.epoch = -1
                self._sent_subscription = None
                self._assigned = {}
                self.assignment_changed = False

    # ---- the assignment -----------------------------------------------------------------------

    @property
    def assigned_ids(self) -> dict[uuid.UUID, frozenset[int]]:
        """The newest assignment, by topic id."""
        with self.lock:
            return dict(self._assigned)

    def topic_names(self) -> dict[uuid.UUID, str]:
        """The topic ids resolved so far, with their names."""
        return dict(self._names)

    def assignment(self, core: ClientCore) -> Flow[dict[TopicPartition, TopicIdPartition]]:
        """The newest assignment, by topic name, each partition with its topic id. Topic ids
        the known metadata lacks are looked up (the subscribed topics' metadata); any still
        unknown (a topic made or deleted just now) are left out."""
        with self.lock:
            assigned = dict(self._assigned)
            self.assignment_changed = False
        if any(tid not in self._names for tid in assigned):
            self._learn_names(core.cluster)
        if any(tid not in self._names for tid in assigned):
            self._learn_names((yield from core.metadata(list(self.subscription))))
        return {
            TopicPartition(self._names[tid], p): TopicIdPartition(tid, p)
            for tid, partitions in assigned.items()
            if tid in self._names
            for p in sorted(partitions)
        }

    def _learn_names(self, cluster: ClusterMetadata | None) -> None:
        if cluster is not None:
            for name, info in cluster.topics.items():
                if info.topic_id is not None and info.topic_id.int:
                    self._names[info.topic_id] = name


# ---- share sessions ------------------------------------------------------------------------


class ShareSession:
    """The share session of member ``member_id`` of share group ``group_id`` with broker
    ``node``. ``names`` (topic id to name) fills ShareRecord.topic.

    Not thread-safe: one flow at a time uses a session."""

    def __init__(
        self,
        node: int,
        group_id: str,
        member_id: str,
        *,
        names: Mapping[uuid.UUID, str] | None = None,
    ) -> None:
        self.node = node
        self.group_id = group_id
        self.member_id = member_id
        self.names: dict[uuid.UUID, str] = dict(names or {})
        self.epoch = 0  # the next request's: 0 opens the session
        self._in_session: set[TopicIdPartition] = set()
        # acquired and not yet acknowledged: offset -> delivery count, by partition
        self._in_flight: dict[TopicIdPartition, dict[int, int]] = {}
        # acknowledged, not yet sent: offset -> AcknowledgeType, by partition
        self._pending: dict[TopicIdPartition, dict[int, int]] = {}

    # ---- acknowledgements ---------------------------------------------------------------------

    @property
    def in_flight(self) -> dict[TopicIdPartition, dict[int, int]]:
        """Acquired records not acknowledged yet: offset -> delivery count, by partition."""
        return {tp: dict(offsets) for tp, offsets in self._in_flight.items() if offsets}

    @property
    def pending(self) -> dict[TopicIdPartition, dict[int, int]]:
        """Acknowledgements not sent yet: offset -> type, by partition."""
        return {tp: dict(offsets) for tp, offsets in self._pending.items() if offsets}

    def acknowledge(
        self,
        tp: TopicIdPartition,
        offset: int,
        kind: AcknowledgeType | int = AcknowledgeType.ACCEPT,
    ) -> None:
        """Settle one acquired record; sent with the next ``fetch``, ``commit`` or ``close``.

        :raises ValueError: the record is not acquired by this session (never was, or was
            acknowledged already), or ``kind`` is not ACCEPT, RELEASE or REJECT.
        """
        kind = AcknowledgeType(kind)
        if kind == AcknowledgeType.GAP:
            raise ValueError("GAP is for offsets without a record; the session sends those")
        tp = TopicIdPartition(*tp)
        held = self._in_flight.get(tp)
        if held is None or offset not in held:
            raise ValueError(f"offset {offset} of {tp} is not acquired by this share session")
        del held[offset]
        self._pending.setdefault(tp, {})[offset] = int(kind)

    def acknowledge_all(self, kind: AcknowledgeType | int = AcknowledgeType.ACCEPT) -> int:
        """Settle every acquired record not acknowledged yet as ``kind``; how many."""
        count = 0
        for tp, held in list(self._in_flight.items()):
            for offset in sorted(held):
                self.acknowledge(tp, offset, kind)
                count += 1
        return count

    def _batches(self, tp: TopicIdPartition, cls) -> list:
        """The pending acknowledgements of ``tp`` as AcknowledgementBatch ``cls``es: one a
        run of consecutive offsets, with one type when the run has one, else one an offset."""
        pending = self._pending.get(tp) or {}
        batches = []
        offsets = sorted(pending)
        start = 0
        for i in range(1, len(offsets) + 1):
            if i < len(offsets) and offsets[i] == offsets[i - 1] + 1:
                continue
            run = offsets[start:i]
            types = [pending[o] for o in run]
            batches.append(
                cls(
                    first_offset=run[0],
                    last_offset=run[-1],
                    acknowledge_types=types[:1] if len(set(types)) == 1 else types,
                )
            )
            start = i
        return batches

    def _sent(self, tps: Iterable[TopicIdPartition]) -> None:
        for tp in tps:
            self._pending.pop(tp, None)

    def _advance(self) -> None:
        self.epoch = 1 if self.epoch >= _INT32_MAX else self.epoch + 1

    def _lost(self) -> None:
        """The broker no longer has this session: what it held is released (or will be, at
        its lock's end); acknowledgements not sent cannot be any more."""
        self.epoch = 0
        self._in_session.clear()
        self._in_flight.clear()
        self._pending.clear()

    def _raise_top(self, core: ClientCore, what: str, response) -> None:
        code = response.error_code
        if code == 0:
            return
        if code in _SESSION_LOST:
            self._lost()
        raise_for_code(
            code,
            f"{what} of share group {self.group_id!r} (member {self.member_id}) to "
            f"{core.broker_name(self.node)}: {response.error_message or ''}",
        )

    # ---- fetching -----------------------------------------------------------------------------

    def fetch(
        self,
        core: ClientCore,
        partitions: Iterable[TopicIdPartition],
        *,
        max_wait_ms: int = 500,
        min_bytes: int = 1,
        max_bytes: int = 50 * 1024 * 1024,
        max_records: int = 500,
        batch_size: int = 500,
    ) -> Flow[ShareFetchResult]:
        """One ShareFetch of ``partitions`` (all led by this session's broker), carrying the
        pending acknowledgements of those partitions; those of other partitions go first in
        a ShareAcknowledge (``commit``). Partitions of the session no longer wanted are
        forgotten. A lost session (SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH)
        drops what it held and raises; the next fetch opens a new one."""
        wanted = [TopicIdPartition(*tp) for tp in dict.fromkeys(partitions)]
        others = [tp for tp in self._pending if self._pending[tp] and tp not in wanted]
        if others and self.epoch > 0:
            yield from self.commit(core, others)
        SF = m.ShareFetchRequest
        by_topic: dict[uuid.UUID, list] = {}
        for tp in wanted:
            by_topic.setdefault(tp.topic_id, []).append(
                SF.FetchPartition(
                    partition_index=tp.partition,
                    acknowledgement_batches=self._batches(tp, SF.AcknowledgementBatch),
                )
            )
        forgotten: dict[uuid.UUID, list[int]] = {}
        if self.epoch > 0:
            for tp in sorted(self._in_session - set(wanted)):
                forgotten.setdefault(tp.topic_id, []).append(tp.partition)
        request = SF(
            group_id=self.group_id,
            member_id=self.member_id,
            share_session_epoch=self.epoch,
            max_wait_ms=max_wait_ms,
            min_bytes=min_bytes,
            max_bytes=max_bytes,
            max_records=max_records,
            batch_size=batch_size,
            topics=[SF.FetchTopic(topic_id=t, partitions=ps) for t, ps in by_topic.items()],
            forgotten_topics_data=[
                SF.ForgottenTopic(topic_id=t, partitions=ps) for t, ps in forgotten.items()
            ],
        )
        response = yield core.call(self.node, request, extra_timeout=max_wait_ms / 1000)
        self._raise_top(core, "ShareFetch", response)
        self._advance()
        self._sent(wanted)
        self._in_session = set(wanted)
        return self._take(response)

    def _take(self, response) -> ShareFetchResult:
        result = ShareFetchResult(acquisition_lock_timeout_ms=response.acquisition_lock_timeout_ms)
        for topic in response.responses:
            for part in topic.partitions:
                tp = TopicIdPartition(topic.topic_id, part.partition_index)
                if part.acknowledge_error_code:
                    result.acknowledge_errors[tp] = part.acknowledge_error_code
                if part.error_code:
                    result.errors[tp] = part.error_code
                    continue
                result.records += self._acquired(tp, part)
        return result

    def _acquired(self, tp: TopicIdPartition, part) -> list[ShareRecord]:
        """The records of ``part`` in its acquired ranges, now in flight (a record this
        session still holds, at the same delivery count, is not handed out again); the
        offsets of those ranges without a record are acknowledged as GAP."""
        counts: dict[int, int] = {}
        for a in part.acquired_records:
            for offset in range(a.first_offset, a.last_offset + 1):
                counts[offset] = a.delivery_count
        if not counts:
            return []
        found = []
        records = part.records
        if records is not None and len(records):
            for batch in read_batches(records):
                for record in batch:
                    if record.offset in counts:
                        found.append(record)
        topic = self.names.get(tp.topic_id)
        held = self._in_flight.setdefault(tp, {})
        out = []
        seen = set()
        for record in sorted(found, key=lambda r: r.offset):
            if record.offset in seen:
                continue
            seen.add(record.offset)
            count = counts[record.offset]
            if held.get(record.offset) == count:
                continue  # named again while still held (librdkafka's mock does): handed out once
            held[record.offset] = count
            out.append(
                ShareRecord(
                    topic,
                    tp.topic_id,
                    tp.partition,
                    record.offset,
                    record.timestamp,
                    record.key,
                    record.value,
                    record.headers,
                    count,
                )
            )
        gaps = [o for o in counts if o not in seen]
        if gaps:
            pending = self._pending.setdefault(tp, {})
            for offset in gaps:
                pending[offset] = int(AcknowledgeType.GAP)
        return out

    # ---- acknowledging alone, closing ---------------------------------------------------------

    def _acknowledge_request(self, epoch: int, tps: list[TopicIdPartition]):
        SA = m.ShareAcknowledgeRequest
        by_topic: dict[uuid.UUID, list] = {}
        for tp in tps:
            batches = self._batches(tp, SA.AcknowledgementBatch)
            if batches:
                by_topic.setdefault(tp.topic_id, []).append(
                    SA.AcknowledgePartition(
                        partition_index=tp.partition, acknowledgement_batches=batches
                    )
                )
        return SA(
            group_id=self.group_id,
            member_id=self.member_id,
            share_session_epoch=epoch,
            topics=[SA.AcknowledgeTopic(topic_id=t, partitions=ps) for t, ps in by_topic.items()],
        )

    def commit(
        self, core: ClientCore, partitions: Iterable[TopicIdPartition] | None = None
    ) -> Flow[dict[TopicIdPartition, int]]:
        """Send the pending acknowledgements (of ``partitions``, default all) now, in a
        ShareAcknowledge; the error code of each partition acknowledged (0: accepted).

        :raises ClientError: acknowledgements pending while no session is open (they
            belong to a session the broker no longer has)."""
        tps = [
            TopicIdPartition(*tp)
            for tp in (self._pending if partitions is None else partitions)
            if self._pending.get(TopicIdPartition(*tp))
        ]
        if not tps:
            return {}
        if self.epoch == 0:
            raise ClientError("acknowledgements without an open share session")
        request = self._acknowledge_request(self.epoch, tps)
        response = yield core.call(self.node, request)
        self._raise_top(core, "ShareAcknowledge", response)
        self._advance()
        self._sent(tps)
        return _partition_codes(response)

    def close(self, core: ClientCore) -> Flow[dict[TopicIdPartition, int]]:
        """Close the session (epoch -1), with the pending acknowledgements (a ShareAcknowledge)
        or without (a ShareFetch that fetches nothing); the broker releases the records
        still acquired and not acknowledged. The error code of each partition acknowledged.
        The session is closed here whatever the answer: the next fetch opens a new one."""
        if self.epoch == 0:  # never opened, or lost
            self._lost()
            return {}
        tps = [tp for tp, pending in self._pending.items() if pending]
        try:
            if tps:
                request = self._acknowledge_request(_CLOSE, tps)
            else:
                request = m.ShareFetchRequest(
                    group_id=self.group_id,
                    member_id=self.member_id,
                    share_session_epoch=_CLOSE,
                    max_wait_ms=0,
                    min_bytes=0,
                    max_bytes=0,
                )
            response = yield core.call(self.node, request)
            if response.error_code not in (0, *_SESSION_LOST):
                self._raise_top(core, "closing the share session", response)
            return _partition_codes(response) if tps else {}
        finally:
            self._lost()


def _partition_codes(response) -> dict[TopicIdPartition, int]:
    return {
        TopicIdPartition(t.topic_id, p.partition_index): p.error_code
        for t in response.responses
        for p in t.partitions
    }
