"""Share groups (KIP-932, "Kafka queues"): a share consumer's share sessions and the records
they acquire, as sans-IO flows. No IO: flows yield ``Call`` effects (``flow.py``) that either
transport drives. The membership they belong to is ``membership.py``'s.

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

import contextlib
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import BrokerError, ErrorCode, raise_for_code
from kafkawire.records import ConsumerRecord, RecordView, decode_records

from ..core import ClientCore
from ..errors import BrokerConnectionError, ClientError, RequestTimeoutError
from ..flow import Flow
from .membership import TopicIdPartition

__all__ = [
    "AcknowledgeType",
    "Acquired",
    "AcquiredRows",
    "ShareFetchResult",
    "ShareSession",
]

_CLOSE = -1  # the share session epoch that closes a session
_INT32_MAX = 2**31 - 1
_SESSION_LOST = {ErrorCode.SHARE_SESSION_NOT_FOUND, ErrorCode.INVALID_SHARE_SESSION_EPOCH}


class AcknowledgeType(IntEnum):
    """How a member settles an acquired record (ShareFetch/ShareAcknowledge AcknowledgeTypes)."""

    GAP = 0  # an offset of an acquired range that holds no record
    ACCEPT = 1  # processed: never handed out again
    RELEASE = 2  # hand it out again (its delivery count goes up)
    REJECT = 3  # unprocessable: never handed out again


@dataclass(slots=True)
class AcquiredRows:
    """Records of one acquired range of one partition, all with the same delivery count: a
    RecordView slice (no object per record) and the range they belong to."""

    tp: TopicIdPartition
    topic: str | None  # None when the session was not told the topic id's name
    view: RecordView
    delivery_count: int  # 1 on the first delivery, 2 after one release (or lock expiry), ...
    acquired: Acquired

    def __len__(self) -> int:
        return len(self.view)

    def records(self) -> list[ConsumerRecord]:
        """One ConsumerRecord per row, with its delivery_count."""
        return self.view.consumer_records(self.topic, self.tp.partition, self.delivery_count)


@dataclass(slots=True)
class ShareFetchResult:
    """What one ShareFetch brought: the rows acquired (partition by partition as the answer
    lists them, in offset order within one), the partitions the broker refused (error codes),
    the acknowledgements it refused (error codes, by partition), and the group's acquisition
    lock time (ms)."""

    parts: list[AcquiredRows] = field(default_factory=list)
    errors: dict[TopicIdPartition, int] = field(default_factory=dict)
    acknowledge_errors: dict[TopicIdPartition, int] = field(default_factory=dict)
    acquisition_lock_timeout_ms: int = 0

    @property
    def records(self) -> list[ConsumerRecord]:
        return [r for part in self.parts for r in part.records()]


# ---- acquired records ----------------------------------------------------------------------

# The state of one acquired offset (``Acquired.state``):
BUFFERED = -2  # acquired, not handed out by a poll yet (the consumer's buffer)
HELD = -1  # handed out, not acknowledged
# 0..3: acknowledged as that AcknowledgeType (0: GAP), not sent yet
SENT = 4  # the acknowledgement went out
EXPIRED = 5  # the lock ran out first: the group hands the record out again
LATE = 6  # acknowledged or pending when its lock ran out: reported, never sent


class Acquired:
    """One acquired range of one partition: offsets ``first``..``last`` with one delivery
    count, locked to this member until ``deadline`` (time.monotonic(); counted from when
    the ShareFetch was sent, so the client gives a record up before the broker does)."""

    __slots__ = ("deadline", "delivery_count", "first", "state", "tp")

    def __init__(
        self, tp: TopicIdPartition, first: int, last: int, delivery_count: int, deadline: float
    ) -> None:
        self.tp = tp
        self.first = first
        self.delivery_count = delivery_count
        self.deadline = deadline
        self.state = np.full(last - first + 1, HELD, np.int8)

    @property
    def last(self) -> int:
        return self.first + len(self.state) - 1

    def __contains__(self, offset: int) -> bool:
        return self.first <= offset <= self.first + len(self.state) - 1

    def settled(self) -> bool:
        return bool((self.state >= SENT).all()) and not (self.state == LATE).any()

    def expire(self, now: float) -> None:
        """Past the deadline: what is not sent is given up (``ShareSession.expire``)."""
        if self.deadline <= now:
            s = self.state
            s[s < 0] = EXPIRED
            s[(s > 0) & (s < SENT)] = LATE
            s[s == AcknowledgeType.GAP] = SENT  # a gap is nobody's record


def _describe(tp: TopicIdPartition, offset: int, state: int, names) -> str:
    where = f"offset {offset} of {names.get(tp.topic_id, tp.topic_id)}-{tp.partition}"
    if state == BUFFERED:
        return f"{where} was not handed out by a poll yet"
    if state in (EXPIRED, LATE):
        return f"{where}: its acquisition lock ran out"
    return f"{where} is acknowledged already"


# ---- share sessions ------------------------------------------------------------------------


class ShareSession:
    """The share session of member ``member_id`` of share group ``group_id`` with broker
    ``node``. ``names`` (topic id to name) fills the records' topic.

    Not thread-safe, and one request at a time: the session epoch counts the answers."""

    def __init__(
        self,
        node: int,
        group_id: str,
        member_id: str,
        *,
        names: Mapping[uuid.UUID, str] | None = None,
        verify_crc: bool = True,
    ) -> None:
        self.node = node
        self.group_id = group_id
        self.member_id = member_id
        self.names: dict[uuid.UUID, str] = dict(names or {})
        self.verify_crc = verify_crc
        self.epoch = 0  # the next request's: 0 opens the session
        self._in_session: set[TopicIdPartition] = set()
        self._acquired: dict[TopicIdPartition, list[Acquired]] = {}
        # the member's other sessions' ranges of a partition (its leader moved)
        self.elsewhere: Callable[[TopicIdPartition], list[Acquired]] | None = None

    # ---- acknowledgements ---------------------------------------------------------------------

    def _states(self, wanted) -> dict[TopicIdPartition, dict[int, int]]:
        out: dict[TopicIdPartition, dict[int, int]] = {}
        for tp, ranges in self._acquired.items():
            for a in ranges:
                for i in np.flatnonzero(wanted(a.state)).tolist():
                    out.setdefault(tp, {})[a.first + i] = a
        return out

    @property
    def in_flight(self) -> dict[TopicIdPartition, dict[int, int]]:
        """Acquired records not acknowledged yet: offset -> delivery count, by partition."""
        held = self._states(lambda s: s < 0)
        return {tp: {o: a.delivery_count for o, a in sorted(d.items())} for tp, d in held.items()}

    @property
    def pending(self) -> dict[TopicIdPartition, dict[int, int]]:
        """Acknowledgements not sent yet: offset -> type, by partition."""
        acked = self._states(lambda s: (s >= 0) & (s < SENT))
        return {
            tp: {o: int(a.state[o - a.first]) for o, a in sorted(d.items())}
            for tp, d in acked.items()
        }

    def holds(self, tp: TopicIdPartition) -> bool:
        """Records of ``tp`` are acquired here, or acknowledgements of them not sent."""
        return bool(self._acquired.get(tp))

    def ranges(self, tp: TopicIdPartition) -> list[Acquired]:
        """The acquired ranges of ``tp`` this session holds."""
        return list(self._acquired.get(tp, ()))

    def holds_range(self, a: Acquired) -> bool:
        return any(r is a for r in self._acquired.get(a.tp, ()))

    def find(
        self, tp: TopicIdPartition, offset: int, delivery_count: int | None = None
    ) -> Acquired | None:
        """The range that holds ``offset`` now (a released record acquired again is in a
        newer range than the one its first delivery was in), of that delivery if given."""
        found = None
        for a in reversed(self._acquired.get(tp, ())):
            if delivery_count is not None and a.delivery_count != delivery_count:
                continue
            if offset in a:
                if a.state[offset - a.first] != SENT:
                    return a
                found = found or a
        return found

    def acknowledge(
        self,
        tp: TopicIdPartition,
        offset: int,
        kind: AcknowledgeType | int = AcknowledgeType.ACCEPT,
        delivery_count: int | None = None,
    ) -> None:
        """Settle one acquired record (of its ``delivery_count``-th delivery, when given: a
        record handed out again is another acquisition); sent with the next ``fetch``,
        ``commit`` or ``close``. A record whose lock ran out is not acknowledged late:
        ``take_late`` reports it.

        :raises ValueError: the record is not acquired by this session (never was, or was
            acknowledged already), or ``kind`` is not ACCEPT, RELEASE or REJECT.
        """
        kind = _kind(kind)
        tp = TopicIdPartition(*tp)
        a = self.find(tp, offset, delivery_count)
        if a is not None:
            a.expire(time.monotonic())
        state = None if a is None else int(a.state[offset - a.first])
        if a is None or state == SENT or state == AcknowledgeType.GAP:
            raise ValueError(f"offset {offset} of {tp} is not acquired by this share session")
        if state == EXPIRED:
            a.state[offset - a.first] = LATE
        elif state == HELD:
            a.state[offset - a.first] = kind
        else:
            raise ValueError(_describe(tp, offset, state, self.names))

    def acknowledge_rows(self, a: Acquired, offsets: np.ndarray, kind: int) -> int:
        """Settle the records at ``offsets`` (all in ``a``) as ``kind`` at once; those whose
        lock ran out are left for ``take_late`` to report. How many were settled.

        :raises ValueError: one of them is not handed out or acknowledged already."""
        idx = np.asarray(offsets, np.int64) - a.first
        a.expire(time.monotonic())
        state = a.state[idx]
        bad = (state != HELD) & (state != EXPIRED)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise ValueError(_describe(a.tp, int(offsets[first]), int(state[first]), self.names))
        held = state == HELD
        a.state[idx[held]] = kind
        a.state[idx[~held]] = LATE
        return int(held.sum())

    def acknowledge_all(self, kind: AcknowledgeType | int = AcknowledgeType.ACCEPT) -> int:
        """Settle every handed-out record not acknowledged yet as ``kind``; how many."""
        kind = _kind(kind)
        count = 0
        for ranges in self._acquired.values():
            for a in ranges:
                held = a.state == HELD
                count += int(held.sum())
                a.state[held] = kind
        return count

    def expire(self, now: float) -> None:
        """Give up the records whose lock ran out: not handed out or not acknowledged
        (EXPIRED: the group hands them out again), acknowledged but not sent (LATE)."""
        for ranges in self._acquired.values():
            for a in ranges:
                a.expire(now)

    def take_late(self) -> dict[TopicIdPartition, list[int]]:
        """The offsets acknowledged too late to be sent (their locks ran out), once each."""
        out: dict[TopicIdPartition, list[int]] = {}
        for tp, ranges in list(self._acquired.items()):
            for a in ranges:
                late = np.flatnonzero(a.state == LATE)
                if len(late):
                    out.setdefault(tp, []).extend((late + a.first).tolist())
                    a.state[late] = SENT
            self._compact(tp)
        return out

    def _compact(self, tp: TopicIdPartition) -> None:
        ranges = self._acquired.get(tp)
        if ranges is not None:
            ranges[:] = [a for a in ranges if not a.settled()]
            if not ranges:
                del self._acquired[tp]

    def _batches(self, tp: TopicIdPartition, cls) -> list:
        """The pending acknowledgements of ``tp`` as AcknowledgementBatch ``cls``es: one a
        run of consecutive offsets, with one type when the run has one, else one an offset."""
        batches = []
        for a in self._acquired.get(tp, ()):
            s = a.state
            pending = (s >= 0) & (s < SENT)
            if not pending.any():
                continue
            edges = np.flatnonzero(np.diff(np.concatenate(([0], pending.view(np.int8), [0]))))
            for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
                types = s[start:stop]
                same = bool((types == types[0]).all())
                batches.append(
                    cls(
                        first_offset=a.first + start,
                        last_offset=a.first + stop - 1,
                        acknowledge_types=[int(types[0])] if same else types.tolist(),
                    )
                )
        batches.sort(key=lambda b: b.first_offset)  # brokers want them in offset order
        return _merged(batches)

    def _mark_sent(self, tps: Iterable[TopicIdPartition]) -> dict[TopicIdPartition, list[int]]:
        """The pending acknowledgements of ``tps`` are in a request: SENT. Their offsets,
        gaps left out (what an acknowledgement-commit callback is told)."""
        out: dict[TopicIdPartition, list[int]] = {}
        for tp in tps:
            for a in self._acquired.get(tp, ()):
                s = a.state
                pending = np.flatnonzero((s >= 0) & (s < SENT))
                records = pending[s[pending] != AcknowledgeType.GAP]
                if len(records):
                    out.setdefault(tp, []).extend((records + a.first).tolist())
                s[pending] = SENT
            self._compact(tp)
        return out

    def pending_partitions(self) -> list[TopicIdPartition]:
        """The partitions with acknowledgements not sent yet."""
        return [
            tp
            for tp, ranges in self._acquired.items()
            if any(((a.state >= 0) & (a.state < SENT)).any() for a in ranges)
        ]

    def holding(self) -> bool:
        """Records are acquired here and not acknowledged yet (buffered or handed out): a
        ShareFetch now would have the broker name them again (librdkafka's mock does)."""
        return any((a.state < 0).any() for ranges in self._acquired.values() for a in ranges)

    def _advance(self) -> None:
        self.epoch = 1 if self.epoch >= _INT32_MAX else self.epoch + 1

    def lost(self) -> dict[TopicIdPartition, list[int]]:
        """The broker no longer has this session (or cannot be reached): what it held is
        released (or will be, at its lock's end); acknowledgements not sent cannot be any
        more. Their offsets, gaps left out, by partition."""
        unsent: dict[TopicIdPartition, list[int]] = {}
        for tp, ranges in self._acquired.items():
            for a in ranges:
                s = a.state
                acked = np.flatnonzero(((s > 0) & (s < SENT)) | (s == LATE))
                if len(acked):
                    unsent.setdefault(tp, []).extend((acked + a.first).tolist())
        self.epoch = 0
        self._in_session.clear()
        self._acquired.clear()
        return unsent

    @contextlib.contextmanager
    def _lost_on_failure(self) -> Iterator[None]:
        """A request of the session's own flows failed: no answer, or the session gone at
        the broker; it is dropped (``lost``) and the error goes on."""
        try:
            yield
        except (BrokerConnectionError, RequestTimeoutError):
            self.lost()
            raise
        except BrokerError as exc:
            if exc.code in _SESSION_LOST:
                self.lost()
            raise

    def _raise_top(self, core: ClientCore, what: str, response) -> None:
        code = response.error_code
        if code == 0:
            return
        raise_for_code(  # a lost session (_SESSION_LOST) is dropped by the caller, ``lost``
            code,
            f"{what} of share group {self.group_id!r} (member {self.member_id}) to "
            f"{core.broker_name(self.node)}: {response.error_message or ''}",
        )

    # ---- fetching -----------------------------------------------------------------------------

    def fetch_request(
        self,
        partitions: Iterable[TopicIdPartition],
        *,
        max_wait_ms: int = 500,
        min_bytes: int = 1,
        max_bytes: int = 50 * 1024 * 1024,
        max_records: int = 500,
        batch_size: int = 500,
    ) -> tuple[m.ShareFetchRequest, list[TopicIdPartition], dict]:
        """A ShareFetch of ``partitions`` (all led by this session's broker) carrying their
        pending acknowledgements (SENT from now on; their offsets are returned), forgetting
        the partitions of the session no longer wanted. An open session is told only what
        changed (KIP-932: the partitions it lacks, and those with acknowledgements); the
        request that opens one names them all, without acknowledgements. Pending
        acknowledgements of other partitions must go first (``pending_partitions``,
        ``commit``)."""
        wanted = [TopicIdPartition(*tp) for tp in dict.fromkeys(partitions)]
        pending = set(self.pending_partitions()) if self.epoch > 0 else set()
        SF = m.ShareFetchRequest
        by_topic: dict[uuid.UUID, list] = {}
        for tp in wanted:
            if self.epoch > 0 and tp in self._in_session and tp not in pending:
                continue  # in the session, nothing to say
            by_topic.setdefault(tp.topic_id, []).append(
                SF.FetchPartition(
                    partition_index=tp.partition,
                    acknowledgement_batches=(
                        self._batches(tp, SF.AcknowledgementBatch) if tp in pending else []
                    ),
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
        return request, wanted, self._mark_sent([tp for tp in wanted if tp in pending])

    def fetched(
        self, core: ClientCore, wanted: list[TopicIdPartition], response, sent_at: float
    ) -> ShareFetchResult:
        """Take a ShareFetch's answer (``sent_at``: time.monotonic() when it went out)."""
        self._raise_top(core, "ShareFetch", response)
        self._advance()
        self._in_session = set(wanted)
        deadline = sent_at + response.acquisition_lock_timeout_ms / 1000
        result = ShareFetchResult(acquisition_lock_timeout_ms=response.acquisition_lock_timeout_ms)
        for topic in response.responses:
            for part in topic.partitions:
                if not (part.acquired_records or part.error_code or part.acknowledge_error_code):
                    continue  # a partition of the session without news (the common case)
                tp = TopicIdPartition(topic.topic_id, part.partition_index)
                if part.acknowledge_error_code:
                    result.acknowledge_errors[tp] = part.acknowledge_error_code
                if part.error_code:  # the leader it names: ClientCore.take_current_leaders
                    result.errors[tp] = part.error_code
                    continue
                result.parts += self._acquired_rows(tp, part, deadline)
        return result

    def fetch(
        self, core: ClientCore, partitions: Iterable[TopicIdPartition], **options
    ) -> Flow[ShareFetchResult]:
        """One ShareFetch of ``partitions`` (options as ``fetch_request``); the pending
        acknowledgements of other partitions go first in a ShareAcknowledge. A lost session
        (SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH) drops what it held and raises;
        the next fetch opens a new one."""
        wanted = [TopicIdPartition(*tp) for tp in partitions]
        others = [tp for tp in self.pending_partitions() if tp not in wanted]
        if others and self.epoch > 0:
            yield from self.commit(core, others)
        request, wanted, _ = self.fetch_request(wanted, **options)
        sent_at = time.monotonic()
        extra = request.max_wait_ms / 1000
        with self._lost_on_failure():
            response = yield core.call(self.node, request, extra_timeout=extra)
            return self.fetched(core, wanted, response, sent_at)

    def _acquired_rows(self, tp: TopicIdPartition, part, deadline: float) -> list[AcquiredRows]:
        """The records of ``part`` in its acquired ranges, held from now on (a record this
        session holds already, at the same delivery count, is not handed out again); the
        offsets of those ranges without a record are acknowledged as GAP."""
        if not part.acquired_records:
            return []
        records = part.records
        if records is not None and len(records):
            view = decode_records(records, verify_crc=self.verify_crc)
        else:
            view = None
        offsets = view.offsets if view is not None else np.empty(0, np.int64)
        topic = self.names.get(tp.topic_id)
        ranges = self._acquired.setdefault(tp, [])
        out = []
        for r in part.acquired_records:
            a = Acquired(tp, r.first_offset, r.last_offset, r.delivery_count, deadline)
            lo = int(np.searchsorted(offsets, r.first_offset, "left"))
            hi = int(np.searchsorted(offsets, r.last_offset, "right"))
            found = offsets[lo:hi]
            mine = np.ones(hi - lo, bool)
            a.state[:] = AcknowledgeType.GAP
            a.state[found - a.first] = HELD
            # named again while still held, here or at the partition's former leader
            # (librdkafka's mock does): handed out once
            held = [*ranges, *(self.elsewhere(tp) if self.elsewhere is not None else ())]
            for old in held:
                if old.delivery_count != r.delivery_count:
                    continue
                inside = (found >= old.first) & (found <= old.last)
                if inside.any():
                    again = np.flatnonzero(inside)
                    keep = old.state[found[again] - old.first] != SENT
                    mine[again[keep]] = False
            a.state[found[~mine] - a.first] = SENT
            ranges.append(a)
            if view is None:
                continue
            edges = np.flatnonzero(np.diff(np.concatenate(([0], mine.view(np.int8), [0]))))
            for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
                out.append(
                    AcquiredRows(tp, topic, view[lo + start : lo + stop], r.delivery_count, a)
                )
        self._compact(tp)
        return out

    # ---- acknowledging alone, closing ---------------------------------------------------------

    def acknowledge_request(
        self, tps: Iterable[TopicIdPartition], *, closing: bool = False
    ) -> tuple[m.ShareAcknowledgeRequest, dict]:
        """A ShareAcknowledge of the pending acknowledgements of ``tps`` (SENT from now
        on; their offsets are returned), closing the session when ``closing``."""
        SA = m.ShareAcknowledgeRequest
        by_topic: dict[uuid.UUID, list] = {}
        tps = [TopicIdPartition(*tp) for tp in tps]
        for tp in tps:
            batches = self._batches(tp, SA.AcknowledgementBatch)
            if batches:
                by_topic.setdefault(tp.topic_id, []).append(
                    SA.AcknowledgePartition(
                        partition_index=tp.partition, acknowledgement_batches=batches
                    )
                )
        request = SA(
            group_id=self.group_id,
            member_id=self.member_id,
            share_session_epoch=_CLOSE if closing else self.epoch,
            topics=[SA.AcknowledgeTopic(topic_id=t, partitions=ps) for t, ps in by_topic.items()],
        )
        return request, self._mark_sent(tps)

    def acknowledged(self, core: ClientCore, response) -> dict[TopicIdPartition, int]:
        """Take a ShareAcknowledge's answer: the error code of each partition (0: taken)."""
        self._raise_top(core, "ShareAcknowledge", response)
        self._advance()
        return partition_codes(response)

    def commit(
        self, core: ClientCore, partitions: Iterable[TopicIdPartition] | None = None
    ) -> Flow[dict[TopicIdPartition, int]]:
        """Send the pending acknowledgements (of ``partitions``, default all) now, in a
        ShareAcknowledge; the error code of each partition acknowledged (0: accepted).

        :raises ClientError: acknowledgements pending while no session is open (they
            belong to a session the broker no longer has)."""
        pending = self.pending_partitions()
        wanted = pending if partitions is None else [TopicIdPartition(*tp) for tp in partitions]
        tps = [tp for tp in wanted if tp in pending]
        if not tps:
            return {}
        if self.epoch == 0:
            raise ClientError("acknowledgements without an open share session")
        request, _ = self.acknowledge_request(tps)
        with self._lost_on_failure():
            response = yield core.call(self.node, request)
            return self.acknowledged(core, response)

    def close_request(self) -> tuple[Any, dict[TopicIdPartition, list[int]]]:
        """The request that closes the session (epoch -1): a ShareAcknowledge with the pending
        acknowledgements (their offsets returned), or a ShareFetch that fetches nothing; None
        when no session is open. The broker releases what the member still holds."""
        if self.epoch == 0:
            return None, {}
        tps = self.pending_partitions()
        if tps:
            return self.acknowledge_request(tps, closing=True)
        request = m.ShareFetchRequest(
            group_id=self.group_id,
            member_id=self.member_id,
            share_session_epoch=_CLOSE,
            max_wait_ms=0,
            min_bytes=0,
            max_bytes=0,
        )
        return request, {}

    def closed(self, core: ClientCore, request, response) -> dict[TopicIdPartition, int]:
        """Take the answer to ``close_request``; the error code of each partition
        acknowledged. The session is closed whatever the answer."""
        try:
            if response.error_code not in (0, *_SESSION_LOST):
                self._raise_top(core, "closing the share session", response)
            if isinstance(request, m.ShareAcknowledgeRequest):
                return partition_codes(response)
            return {}
        finally:
            self.lost()

    def close(self, core: ClientCore) -> Flow[dict[TopicIdPartition, int]]:
        """Close the session (``close_request``, ``closed``). The next fetch opens a new one."""
        request, _ = self.close_request()
        if request is None:  # never opened, or lost
            self.lost()
            return {}
        try:
            response = yield core.call(self.node, request)
        except BaseException:
            self.lost()
            raise
        return self.closed(core, request, response)


def _merged(batches: list) -> list:
    """Batches whose offsets meet (two acquired ranges side by side) joined into one."""
    out: list = []
    for b in batches:
        prev = out[-1] if out else None
        if prev is None or prev.last_offset + 1 != b.first_offset:
            out.append(b)
            continue
        types = _each(prev) + _each(b)
        out[-1] = type(b)(
            first_offset=prev.first_offset,
            last_offset=b.last_offset,
            acknowledge_types=types[:1] if len(set(types)) == 1 else types,
        )
    return out


def _each(batch) -> list[int]:
    """A batch's type of every offset."""
    types = list(batch.acknowledge_types)
    if len(types) == 1:
        return types * (batch.last_offset - batch.first_offset + 1)
    return types


def _kind(kind: AcknowledgeType | int) -> AcknowledgeType:
    kind = AcknowledgeType(kind)
    if kind == AcknowledgeType.GAP:
        raise ValueError("GAP is for offsets without a record; the session sends those")
    return kind


def partition_codes(response) -> dict[TopicIdPartition, int]:
    return {
        TopicIdPartition(t.topic_id, p.partition_index): p.error_code
        for t in response.responses
        for p in t.partitions
    }
