"""The share consumer (KIP-932, "Kafka queues") as a sans-IO state machine: the member of a share
group (``share/session.py``'s ``ShareGroupMember``, kept in by the faces' heartbeats), one share
session per broker leading an assigned partition, a ShareFetch to each once what it gave is
handed out and acknowledged (carrying those acknowledgements), the acquired rows buffered until
polled, and the acknowledgements. The faces (``share/faces.py``) drive its flows with either
transport.

Acknowledgement: in implicit mode (``share.acknowledgement.mode=implicit``, the default) the
records a poll handed out are accepted by the next poll, commit or close; in explicit mode
each is acknowledged by the caller (accept, release, reject), and a poll refuses to go on
while some of the last poll's are not. Acknowledgements ride the next ShareFetch to their
broker, or go alone in a ShareAcknowledge (commit, close, a partition no longer fetched).
Every acknowledgement's outcome goes to the acknowledgement-commit callback, on the caller's
thread, from the call that took the answer.

Locks: a record is the member's until its acquisition lock runs out, counted from when its
ShareFetch went out. A record whose lock ran out is dropped from the buffer, and its
acknowledgement, if it comes later or was not sent yet, is not sent (the group hands the
record out again): the callback hears of it as ``AcquisitionLockExpiredError``.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ERRORS, BrokerError, ErrorCode, raise_for_code
from kafkawire.records import ConsumerRecord

from ..consumer.config import ConsumerConfig
from ..core import ClientCore
from ..errors import ClientError, RequestTimeoutError
from ..flow import Continued, Flow, Sleep, Start, Wait
from ..types import ArrowFrames, TopicPartition
from .membership import ShareGroupMember, TopicIdPartition
from .session import BUFFERED, EXPIRED, HELD, AcknowledgeType, AcquiredRows, ShareSession

if TYPE_CHECKING:
    import pyarrow as pa

ACCEPT, RELEASE, REJECT = AcknowledgeType.ACCEPT, AcknowledgeType.RELEASE, AcknowledgeType.REJECT
_TICK = 0.05  # seconds a poll waits between looks while it has nothing in flight
_FOREVER = 86400.0  # a Wait bounded only by the call's timeout (``within``)
# a ShareFetch refused as the member is out of the group: its heartbeats join it again
_MEMBER_GONE = {ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.FENCED_MEMBER_EPOCH}


class AcquisitionLockExpiredError(ClientError):
    """Records were acknowledged after their acquisition locks ran out (or before, but not
    sent in time): the acknowledgement is not sent, the group hands them out again."""


class ShareAcknowledgeError(ClientError):
    """A broker refused acknowledgements (``code``: its error code, e.g. INVALID_RECORD_STATE
    when the lock had run out there)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


# the acknowledgement-commit callback: ({TopicPartition: {offset, ...}}, error or None)
CommitCallback = Callable[[dict[TopicPartition, set[int]], BaseException | None], Any]


@dataclass
class SharePartitionRecords(ArrowFrames):
    """Records one poll gives of one partition with one delivery count: a RecordView slice
    (no object per record)."""

    tp: TopicPartition
    rows: AcquiredRows

    def __len__(self) -> int:
        return len(self.rows.view)

    @property
    def view(self):
        return self.rows.view

    @property
    def offsets(self) -> np.ndarray:
        return self.rows.view.offsets

    @property
    def delivery_count(self) -> int:
        return self.rows.delivery_count

    def records(self) -> list[ConsumerRecord]:
        """One ConsumerRecord per record, with its delivery_count."""
        return self.rows.view.consumer_records(
            self.tp.topic, self.tp.partition, self.rows.delivery_count
        )

    def to_arrow(self, *, include_headers: bool = True, binary: str = "plain") -> pa.Table:
        """The Kafka columns (see RecordView.to_arrow) and delivery_count (int32)."""
        import pyarrow as pa

        table = self.rows.view.to_arrow(
            binary=binary,
            topic=self.tp.topic,
            partition=self.tp.partition,
            include_headers=include_headers,
        )
        counts = pa.array(np.full(len(self), self.rows.delivery_count, np.int32))
        return table.append_column("delivery_count", counts)


@dataclass
class ShareBatch(ArrowFrames):
    """What one columnar poll of a share consumer gives: the records acquired, partition by
    partition (one entry per acquired range), and ``acknowledge`` for all of them or for rows
    picked by a mask, without a Python object per record."""

    partitions: list[SharePartitionRecords]
    _consumer: ShareConsumerCore

    def __len__(self) -> int:
        return sum(len(p) for p in self.partitions)

    def __iter__(self) -> Iterator[ConsumerRecord]:
        for part in self.partitions:
            yield from part.records()

    def records(self) -> list[ConsumerRecord]:
        return [r for part in self.partitions for r in part.records()]

    @property
    def delivery_counts(self) -> np.ndarray:
        """int32, one a row, in the rows' order (``to_arrow``'s)."""
        if not self.partitions:
            return np.empty(0, np.int32)
        return np.concatenate(
            [np.full(len(p), p.delivery_count, np.int32) for p in self.partitions]
        )

    def to_arrow(self, *, include_headers: bool = True, binary: str = "plain") -> pa.Table:
        """One table of every row: the Kafka columns and delivery_count."""
        import pyarrow as pa

        tables = [
            p.to_arrow(include_headers=include_headers, binary=binary) for p in self.partitions
        ]
        if tables:
            return pa.concat_tables(tables)
        from kafkawire.records.arrow import arrow_schema

        schema = arrow_schema(include_headers, binary)
        return schema.append(pa.field("delivery_count", pa.int32())).empty_table()

    def acknowledge(self, type: AcknowledgeType | int = ACCEPT, rows: Any = None) -> int:
        """Acknowledge rows of this batch as ``type``: ``rows`` is a boolean mask or row
        numbers (``to_arrow``'s order); None: every row not acknowledged yet (so a worker
        releases some rows by a mask, then accepts the rest). How many were acknowledged
        (rows whose lock ran out are left out: the acknowledgement-commit callback hears of
        them).

        :raises ValueError: a row picked is acknowledged already, or the mask's length is
            not the batch's."""
        return self._consumer.acknowledge_batch(self.partitions, type, rows)


class _Request(NamedTuple):
    """A request in flight to one share session's broker."""

    session: ShareSession
    request: Any  # ShareFetchRequest or ShareAcknowledgeRequest
    wanted: list[TopicIdPartition]  # a ShareFetch's partitions
    sent: dict[TopicIdPartition, list[int]]  # acknowledgements it carries: offsets
    sent_at: float


class ShareConsumerCore:
    """A share consumer's state: ``poll``, ``acknowledge``, ``commit``, ``close`` (flows for
    the faces), the membership in ``member`` (its heartbeats are the faces')."""

    def __init__(self, core: ClientCore, config: ConsumerConfig, *, explicit: bool = False) -> None:
        if not config.group_id:
            raise ClientError("a share consumer needs group.id (the share group's name)")
        self.core = core
        self.config = config
        self.explicit = explicit
        self.member = ShareGroupMember(
            config.group_id,
            rack_id=core.config.client_rack,
            max_poll_interval=config.max_poll_interval,
        )
        self.on_commit: CommitCallback | None = None
        self.sessions: dict[int, ShareSession] = {}
        self._assignment: dict[TopicPartition, TopicIdPartition] = {}
        self._in_flight: dict[Any, _Request] = {}
        self._buffer: deque[SharePartitionRecords] = deque()
        self._delivered: list[SharePartitionRecords] = []  # handed out by the last poll
        self._retry_at: dict[TopicPartition, float] = {}
        self._backoff = core.config.retry_backoff
        self._results: dict[TopicPartition, BaseException | None] = {}  # for commit()
        self._looking: Continued | None = None  # _leaders, across polls
        self._groups: dict[int, list[TopicPartition]] | None = None  # _leaders' last answer
        self._groups_until = 0.0  # when a backoff in it ends

    # ---- subscription ---------------------------------------------------------------------

    def subscribe(self, topics: Iterable[str]) -> None:
        if isinstance(topics, str):
            raise TypeError("subscribe takes a list of topic names, not one string")
        names = list(topics)
        bad = [t for t in names if not isinstance(t, str) or not t]
        if bad:
            raise ValueError(f"subscribe: {bad[0]!r} is not a topic name")
        if not names:
            raise ValueError("subscribe: no topic named (unsubscribe leaves the group)")
        if len(set(names)) != len(names):
            raise ValueError(f"subscribe: a topic is named twice in {names}")
        self.member.subscribe(names)

    def subscription(self) -> list[str]:
        return list(self.member.subscription)

    def assignment(self) -> list[TopicPartition]:
        return sorted(self._assignment)

    # ---- acknowledging --------------------------------------------------------------------

    def _topic_id(self, topic: str, partition: int) -> TopicIdPartition:
        tp = TopicPartition(topic, partition)
        tip = self._assignment.get(tp)
        if tip is not None:
            return tip
        for topic_id, name in self.member.topic_names().items():
            if name == topic:
                return TopicIdPartition(topic_id, partition)
        raise ValueError(f"{topic}-{partition}: no record of it was acquired by this consumer")

    def acknowledge_offset(
        self,
        topic: str,
        partition: int,
        offset: int,
        type: AcknowledgeType | int = ACCEPT,
        delivery_count: int | None = None,
    ) -> None:
        """Settle the record at ``offset`` of ``topic``-``partition`` that a poll handed out;
        sent with the next poll, commit or close. A record whose lock ran out is not sent:
        the acknowledgement-commit callback hears of it.

        :raises ValueError: no poll handed that record out, or it is acknowledged already."""
        tip = self._topic_id(topic, partition)
        for session in self._holders(tip):
            if session.find(tip, offset, delivery_count) is not None:
                session.acknowledge(tip, offset, type, delivery_count)
                return
        raise ValueError(
            f"offset {offset} of {topic}-{partition}: no record there was acquired by this "
            "consumer (or it was acknowledged and sent already)"
        )

    def _holders(self, tip: TopicIdPartition) -> list[ShareSession]:
        return [s for s in self.sessions.values() if s.holds(tip)]

    def acknowledge_batch(
        self, parts: list[SharePartitionRecords], kind: AcknowledgeType | int, rows: Any
    ) -> int:
        kind = AcknowledgeType(kind)
        if kind == AcknowledgeType.GAP:
            raise ValueError("GAP is for offsets without a record; the session sends those")
        sizes = [len(p) for p in parts]
        total = sum(sizes)
        if rows is None:
            pick = None
        else:
            pick = np.asarray(rows)
            if pick.dtype == bool:
                if pick.shape != (total,):
                    raise ValueError(f"a mask of {pick.shape} rows for a batch of {total}")
            else:
                index = pick.astype(np.int64)
                if len(index) and (index.min() < 0 or index.max() >= total):
                    raise ValueError(f"row numbers outside 0..{total - 1}")
                pick = np.zeros(total, bool)
                pick[index] = True
        count = 0
        start = 0
        for part, size in zip(parts, sizes, strict=True):
            offsets = part.offsets
            a = part.rows.acquired
            if pick is None:  # every row not acknowledged yet
                state = a.state[offsets - a.first]
                offsets = offsets[(state == HELD) | (state == EXPIRED)]
            else:
                offsets = offsets[pick[start : start + size]]
            start += size
            if len(offsets):
                session = self.sessions.get(_node_of(self.sessions, a))
                if session is None:  # its session was lost: the broker released them
                    continue
                count += session.acknowledge_rows(a, offsets, kind)
        return count

    def _settle_delivered(self) -> None:
        """Before a poll: implicit mode accepts what the last poll handed out; explicit mode
        refuses to go on while some of it is not acknowledged."""
        delivered, self._delivered = self._delivered, []
        if not delivered:
            return
        if not self.explicit:
            self.acknowledge_batch(delivered, ACCEPT, None)
            return
        for part in delivered:
            a = part.rows.acquired
            held = a.state[part.offsets - a.first] == HELD
            if held.any():
                self._delivered = delivered
                offset = int(part.offsets[held][0])
                raise ClientError(
                    f"share.acknowledgement.mode=explicit: {_unsettled(delivered)} record(s) "
                    f"of the last poll are not acknowledged (the first: {part.tp.topic}-"
                    f"{part.tp.partition} at offset {offset}); acknowledge each before polling "
                    "again"
                )

    # ---- polling ----------------------------------------------------------------------------

    def poll(self, max_records: int | None, timeout: float) -> Flow[list[SharePartitionRecords]]:
        """Records acquired for this member, at most ``max_records`` (max.poll.records),
        waiting up to ``timeout`` seconds for some; a ShareFetch stays in flight to every
        leader while the caller works."""
        limit = self.config.max_poll_records if max_records is None else max_records
        if limit <= 0:
            raise ClientError(f"max_records is {limit}: ask for at least one record")
        if not self.member.subscription:
            raise ClientError(
                f"share group {self.member.group_id!r}: subscribe to topics before polling"
            )
        self._settle_delivered()
        self.member.polled()
        end = time.monotonic() + max(0.0, timeout)
        waited = False  # a poll takes what has come at least once, even poll(0)
        while True:
            self._raise_fatal()
            now = time.monotonic()
            self._expire(now)
            yield from self._send(now, end)
            out = self._drain(limit)  # after the last yield: what is drained is returned
            if out or (now >= end and waited):
                self._delivered = out
                return out
            tickets = list(self._in_flight)
            if not tickets:  # not in the group yet, no partitions, backing off
                if now >= end:
                    return []
                yield Sleep(min(end - now, _TICK))
                continue
            waited = True
            done = yield Wait(tickets, max(0.0, end - now))
            self._take(done)

    def _raise_fatal(self) -> None:
        error = self.member.fatal
        if error is not None:
            self.member.fatal = None
            raise error

    def _take(self, done: Mapping[Any, Any]) -> None:
        """Take the answers that came; the first failure that must reach the caller is raised
        after all are taken (the transport has handed their tickets back)."""
        failure = None
        for ticket, outcome in done.items():
            request = self._in_flight.pop(ticket, None)
            if request is None:
                continue
            try:
                self._receive(request, outcome)
            except (ClientError, BrokerError) as exc:
                failure = failure or exc
        if failure is not None:
            raise failure

    def _drain(self, limit: int) -> list[SharePartitionRecords]:
        out: list[SharePartitionRecords] = []
        while self._buffer and limit > 0:
            part = self._buffer[0]
            if len(part) > limit:  # the rest stays buffered
                rows = part.rows
                head = AcquiredRows(
                    rows.tp, rows.topic, rows.view[:limit], rows.delivery_count, rows.acquired
                )
                rows.view = rows.view[limit:]
                part = SharePartitionRecords(part.tp, head)
            else:
                self._buffer.popleft()
            a = part.rows.acquired
            a.state[part.offsets - a.first] = HELD  # handed out from now on
            out.append(part)
            limit -= len(part)
        return out

    def _expire(self, now: float) -> None:
        """Give up the records whose locks ran out (``ShareSession.expire``), drop them from
        the buffer, and tell the callback of acknowledgements that came too late."""
        for session in self.sessions.values():
            session.expire(now)
            late = session.take_late()
            if late:
                self._report(
                    late,
                    AcquisitionLockExpiredError(
                        f"share group {self.member.group_id!r}: acknowledgements of "
                        f"{_offsets_text(self._names(late))} not sent: their acquisition "
                        "locks ran out; the group hands those records out again"
                    ),
                )
        if any(p.rows.acquired.deadline <= now for p in self._buffer):
            self._buffer = deque(p for p in self._buffer if p.rows.acquired.deadline > now)

    # ---- sending ----------------------------------------------------------------------------

    def _leaders(self, now: float) -> Flow[dict[int, list[TopicPartition]]]:
        """The assigned partitions not backing off, by leader (names and leaders looked up
        where unknown). Kept until the assignment changes, a leader moves or a backoff
        ends (``_groups``)."""
        member = self.member
        if member.assignment_changed or not self._assignment:
            self._assignment = yield from member.assignment(self.core)
            self._groups = None
        if self._groups is not None and now < self._groups_until:
            return self._groups
        wanted = [tp for tp in self._assignment if now >= self._retry_at.get(tp, 0.0)]
        waiting = [at for tp, at in self._retry_at.items() if at > now and tp in self._assignment]
        self._groups_until = min(waiting, default=float("inf"))
        if not wanted:
            self._groups = {}
            return {}
        try:
            self._groups = yield from self.core.by_leader(wanted)
        except (ClientError, BrokerError):  # leaders unknown yet: after a backoff
            self._back_off(wanted, now)
            return {}
        return self._groups

    def _send(self, now: float, end: float) -> Flow[None]:
        """A ShareFetch to every leader of assigned partitions that has no request in flight
        and holds no record not acknowledged (buffered or handed out: the broker would name
        them again); a ShareAcknowledge instead where acknowledgements wait for partitions no
        longer fetched from that broker. Looking names and leaders up goes on across polls
        (``Continued``): a poll returns by its timeout."""
        groups: dict[int, list[TopicPartition]] = {}
        if self.member.joined:
            if self._looking is None:
                self._looking = Continued(self._leaders(now), "share poll", None)
            try:
                done = yield from self._looking.advance(max(0.0, end - time.monotonic()))
            except BaseException:
                self._looking = None
                raise
            if done:
                groups, self._looking = self._looking.result, None
        busy = {r.session.node for r in self._in_flight.values()}
        c = self.config
        for node, tps in groups.items():
            session = self._session(node)
            if node in busy:
                continue
            tips = [self._assignment[tp] for tp in tps]
            pending = session.pending_partitions()
            others = [tp for tp in pending if tp not in tips]
            if others and session.epoch > 0:
                yield from self._start_acknowledge(session, others)
                continue
            if session.holding():
                # what it gave is not all handed out and acknowledged: a ShareFetch now would
                # have the broker name those records again; the next poll's carries their
                # acknowledgements
                continue
            request, fetched, sent = session.fetch_request(
                tips,
                max_wait_ms=c.fetch_max_wait_ms,
                min_bytes=c.fetch_min_bytes,
                max_bytes=c.fetch_max_bytes,
                max_records=c.max_poll_records,
                batch_size=c.max_poll_records,
            )
            call = self.core.call(node, request, extra_timeout=c.fetch_max_wait_ms / 1000)
            ticket = yield Start(call)
            self._in_flight[ticket] = _Request(session, request, fetched, sent, now)
        for node, session in self.sessions.items():  # acknowledgements of brokers not fetched
            if node not in groups and node not in busy and session.epoch > 0:
                pending = session.pending_partitions()
                if pending:
                    yield from self._start_acknowledge(session, pending)

    def _session(self, node: int) -> ShareSession:
        session = self.sessions.get(node)
        if session is None:
            session = self.sessions[node] = ShareSession(
                node,
                self.member.group_id,
                self.member.member_id,
                verify_crc=self.config.check_crcs,
            )
            session.elsewhere = lambda tp, me=session: [
                a for s in self.sessions.values() if s is not me for a in s.ranges(tp)
            ]
        session.names.update(self.member.topic_names())
        return session

    def _start_acknowledge(self, session: ShareSession, tps: list[TopicIdPartition]) -> Flow:
        request, sent = session.acknowledge_request(tps)
        ticket = yield Start(self.core.call(session.node, request))
        self._in_flight[ticket] = _Request(session, request, [], sent, time.monotonic())
        return ticket

    def _back_off(self, tps: Iterable[TopicPartition], now: float) -> None:
        self._groups = None  # their leaders are asked again after it
        for tp in tps:
            self._retry_at[tp] = now + self._backoff
        self._backoff = min(self._backoff * 2, self.core.config.retry_backoff_max)

    # ---- answers ----------------------------------------------------------------------------

    def _receive(self, req: _Request, outcome: Any) -> None:
        session = req.session
        where = self.core.broker_name(session.node)
        now = time.monotonic()
        if isinstance(outcome, BaseException):
            self._session_failed(req, outcome, now)
            if isinstance(outcome, BrokerError) and not outcome.retriable:
                raise outcome
            return
        if isinstance(req.request, m.ShareAcknowledgeRequest):
            try:
                codes = session.acknowledged(self.core, outcome)
            except BrokerError as exc:
                self._session_failed(req, exc, now)
                if not exc.retriable:
                    raise
                return
            self._report_codes(req.sent, codes, where)
            return
        try:
            result = session.fetched(self.core, req.wanted, outcome, req.sent_at)
        except BrokerError as exc:
            self._session_failed(req, exc, now)
            if not exc.retriable and exc.code not in _MEMBER_GONE:
                raise
            return
        self._backoff = self.core.config.retry_backoff
        self._report_codes(req.sent, result.acknowledge_errors, where)
        for rows in result.parts:
            a = rows.acquired
            a.state[rows.view.offsets - a.first] = BUFFERED
            name = self.member.topic_names().get(rows.tp.topic_id, rows.topic)
            self._buffer.append(
                SharePartitionRecords(TopicPartition(name, rows.tp.partition), rows)
            )
        if result.errors:
            self._refused(session, outcome, result.errors, now)

    def _refused(self, session: ShareSession, response, errors: dict, now: float) -> None:
        """Partitions a ShareFetch refused: a moved leader named in the answer is taken
        (KIP-951), else the metadata is asked again after a backoff; an error the broker will
        repeat is raised, naming the partition and the broker."""
        names = self.member.topic_names()
        moved = self.core.take_current_leaders(response, names)
        self._groups = None  # partitions move
        stale = []
        for tip, code in errors.items():
            tp = TopicPartition(names.get(tip.topic_id, str(tip.topic_id)), tip.partition)
            info = ERRORS.get(code)
            if info is None or not info.retriable:
                raise_for_code(
                    code,
                    f"ShareFetch {tp.topic}-{tp.partition} from "
                    f"{self.core.broker_name(session.node)}",
                )
            if tp not in moved:
                stale.append(tp)
        if stale:
            self._back_off(stale, now)
            self.core.forget_topics({tp.topic for tp in stale})

    def _session_failed(self, req: _Request, error: BaseException, now: float) -> None:
        """A request that failed (no answer, or the session refused): the session is gone
        with what it held (the broker releases it); the acknowledgements it carried, and
        those not sent yet, are reported failed; the partitions are fetched again after a
        backoff, from leaders asked again."""
        session = req.session
        lost = session.lost()
        for tp, offsets in req.sent.items():
            lost.setdefault(tp, []).extend(offsets)
        if lost:
            self._report(lost, error)
        self._buffer = deque(
            p for p in self._buffer if _node_of(self.sessions, p.rows.acquired) is not None
        )
        names = self.member.topic_names()
        tps = [TopicPartition(names.get(t.topic_id, ""), t.partition) for t in req.wanted]
        if tps:
            self._back_off(tps, now)
            self.core.forget_topics({tp.topic for tp in tps})

    # ---- telling the callback ---------------------------------------------------------------

    def _names(self, by_id: Mapping[TopicIdPartition, list[int]]) -> dict:
        names = self.member.topic_names()
        return {
            TopicPartition(names.get(tip.topic_id, str(tip.topic_id)), tip.partition): set(offs)
            for tip, offs in by_id.items()
            if offs
        }

    def _report_codes(self, sent: Mapping, codes: Mapping[TopicIdPartition, int], where) -> None:
        ok = {tip: offs for tip, offs in sent.items() if not codes.get(tip)}
        if ok:
            self._report(ok, None)
        for tip, offs in sent.items():
            code = codes.get(tip)
            if code:
                info = ERRORS.get(code)
                name = info.name if info is not None else f"error {code}"
                self._report(
                    {tip: offs},
                    ShareAcknowledgeError(
                        f"acknowledgements of {_offsets_text(self._names({tip: offs}))} refused "
                        f"by {where}: {name}",
                        code,
                    ),
                )

    def _report(self, by_id: Mapping[TopicIdPartition, list[int]], error) -> None:
        offsets = self._names(by_id)
        if not offsets:
            return
        for tp in offsets:
            self._results[tp] = error
        if self.on_commit is not None:
            self.on_commit(offsets, error)

    # ---- committing, leaving ------------------------------------------------------------------

    def commit(self) -> Flow[dict[TopicPartition, BaseException | None]]:
        """Send the acknowledgements now (implicit mode: the last poll's records accepted
        first) and wait for the answers: {partition: None, or the error of its
        acknowledgements}; {} when there were none."""
        if not self.explicit:
            self._settle_delivered()
        self._results = {}
        while True:
            busy = {r.session.node for r in self._in_flight.values()}
            waiting_on = set()  # brokers with acknowledgements still to send
            for node, session in self.sessions.items():
                if session.epoch > 0 and session.pending_partitions():
                    if node in busy:
                        waiting_on.add(node)
                    else:
                        yield from self._start_acknowledge(session, session.pending_partitions())
            waiting = [
                ticket
                for ticket, r in self._in_flight.items()
                if r.sent or r.session.node in waiting_on
            ]
            if not waiting:
                break
            self._take((yield Wait(waiting, _FOREVER)))
        self._expire(time.monotonic())
        results, self._results = self._results, {}
        return results

    def commit_async(self) -> Flow[None]:
        """Send the acknowledgements now (implicit mode: the last poll's records accepted
        first) and return; polls take the answers and tell the callback. Those of a broker
        with a ShareFetch in flight ride the next one."""
        if not self.explicit:
            self._settle_delivered()
        busy = {r.session.node for r in self._in_flight.values()}
        for node, session in self.sessions.items():
            pending = session.pending_partitions()
            if pending and node not in busy and session.epoch > 0:
                yield from self._start_acknowledge(session, pending)

    def leave(self) -> Flow[None]:
        """Leave the group (after ``close_sessions``, with the heartbeats stopped: one sent
        after the leave would join again)."""
        self.member.subscribe(())
        self._assignment = {}
        yield from self.member.leave(self.core)

    def close_sessions(self) -> Flow[None]:
        """Close the share sessions: implicit mode accepts the last poll's records first,
        what was acquired and not handed out is released, acknowledgements go with the
        closing requests. An error in the answer of a request that was in flight is raised
        once the sessions are closed."""
        if self._looking is not None:
            self._looking.close()
            self._looking = None
        if not self.explicit:
            self._settle_delivered()
        self._delivered = []
        failure = None
        while self._in_flight:  # their answers acquire records, which the close then releases
            try:
                self._take((yield Wait(list(self._in_flight), _FOREVER)))
            except (ClientError, BrokerError) as exc:
                failure = failure or exc
        for part in self._buffer:  # acquired, never handed out: back to the group now
            a = part.rows.acquired
            held = part.offsets[a.state[part.offsets - a.first] == BUFFERED]
            a.state[held - a.first] = HELD
            session = self.sessions.get(_node_of(self.sessions, a))
            if session is not None and len(held):
                session.acknowledge_rows(a, held, RELEASE)
        self._buffer.clear()
        closing = []
        for session in self.sessions.values():
            request, sent = session.close_request()
            if request is None:
                session.lost()
                continue
            ticket = yield Start(self.core.call(session.node, request))
            closing.append((session, request, sent, ticket))
        answers: dict = {}
        waiting = [ticket for *_, ticket in closing]
        try:
            while waiting:  # a Wait ends at the first answers: each broker's is waited for
                answers.update((yield Wait(waiting, _FOREVER)))
                waiting = [t for t in waiting if t not in answers]
        finally:  # also when the caller's deadline ends the flow: the rest had no answer
            self.sessions.clear()
            for session, request, sent, ticket in closing:
                self._closed(session, request, sent, answers.get(ticket))
        if failure is not None:
            raise failure

    def _closed(self, session: ShareSession, request, sent: Mapping, outcome) -> None:
        """Take the answer to a session's close (None: none came); its acknowledgements'
        outcomes go to the callback."""
        if outcome is None or isinstance(outcome, BaseException):
            session.lost()
            if sent:
                where = self.core.broker_name(session.node)
                self._report(
                    sent, outcome or RequestTimeoutError(f"no answer to the close from {where}")
                )
            return
        try:
            codes = session.closed(self.core, request, outcome)
        except BrokerError as exc:
            if sent:
                self._report(sent, exc)
            return
        if sent:
            self._report_codes(sent, codes, self.core.broker_name(session.node))


def _node_of(sessions: Mapping[int, ShareSession], a) -> int | None:
    """The broker whose session holds acquired range ``a`` (None: none does any more)."""
    for node, session in sessions.items():
        if session.holds_range(a):
            return node
    return None


def _unsettled(parts: list[SharePartitionRecords]) -> int:
    count = 0
    for part in parts:
        a = part.rows.acquired
        count += int((a.state[part.offsets - a.first] == HELD).sum())
    return count


def _offsets_text(offsets: Mapping[TopicPartition, set[int]]) -> str:
    parts = []
    for tp, offs in offsets.items():
        ordered = sorted(offs)
        shown = ", ".join(map(str, ordered[:5])) + (", ..." if len(ordered) > 5 else "")
        parts.append(f"{tp.topic}-{tp.partition} offsets {shown}")
    return "; ".join(parts)
