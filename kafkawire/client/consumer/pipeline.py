"""The consumer's data path: each assigned partition's state (``_Partition``), a fetch in
flight to every leader, fetched bytes buffered until polled, and the buffers drained into
PartitionRecords by ``poll``. ``fetcher.py`` makes the Fetch requests and reads their answers;
this module keeps them in flight and places what they bring.

Positions: ``position`` is the next offset to hand out; ``fetch_offset`` the next one to
fetch, ahead of it by what is buffered. When an answer comes, the end of its last complete
batch is read from the batch headers and the next fetch to that broker goes out at once,
before the answer is decoded; decoding happens when the user polls. A fetch answered for a
partition that was sought or revoked meanwhile is dropped (``_Partition.epoch``).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from kafkawire.errors import DecodeError
from kafkawire.protocol.error_codes import ERRORS, BrokerError, ErrorCode, raise_for_code
from kafkawire.records import RecordView, decode_records

from ..core import ClientCore
from ..errors import ClientError
from ..flow import Flow, Start
from ..types import READ_COMMITTED, FetchedPartition, OffsetAndMetadata, TopicPartition
from .batches import PartitionRecords
from .config import ConsumerConfig
from .fetch_session import FetchSession, SessionRequest
from .fetcher import aborts_from_markers, batches_end, fetch_call, fetched_partitions

OFFSET_INVALID = -1001  # librdkafka's "no offset known" (cached watermarks before a fetch)


@dataclass
class _Fetched:
    part: FetchedPartition
    end: int  # the offset after its last complete batch
    view: RecordView | None = None
    row: int = 0  # the next row to hand out


@dataclass
class _Partition:
    """An assigned partition: its positions, what is fetched and buffered for it, the
    watermarks the last answer gave, the offset store_offsets stored."""

    position: int | None = None
    fetch_offset: int = -1
    leader_epoch: int = -1  # of the last record handed out
    paused: bool = False
    reset: bool = False  # out of range: auto.offset.reset applies once the buffer is empty
    epoch: int = 0
    in_flight: bool = False
    retry_at: float = 0.0
    limit: int | None = None  # a partition_max_bytes grown for a batch larger than the setting
    buffered: deque[_Fetched] = field(default_factory=deque)
    # the watermarks the last fetch answer gave (the end: the last stable offset under
    # read_committed, as librdkafka's cached watermarks)
    low: int = OFFSET_INVALID
    high: int = OFFSET_INVALID
    stored: OffsetAndMetadata | None = None  # store_offsets' (enable.auto.offset.store=false)
    # KIP-392: the follower the leader said to fetch from (client.rack), until replica_until
    replica: int | None = None
    replica_until: float = 0.0
    at_end: bool = False  # enable.partition.eof: its end was reported (until more records)

    @property
    def caught_up(self) -> bool:
        """Fetched up to the end the last answer gave: the broker has nothing more now."""
        return self.high >= 0 and self.fetch_offset >= self.high

    def move_to(self, offset: int) -> None:
        self.position = self.fetch_offset = offset
        self.reset = False
        self.epoch += 1  # answers to fetches already sent are dropped
        self.buffered.clear()


class _InFlight(NamedTuple):
    node: int
    sent: dict[TopicPartition, tuple[int, int]]  # tp -> (fetch offset, partition epoch)
    names: dict
    session: FetchSession
    request: SessionRequest  # what the Fetch named of the session's partitions
    wanted: dict[TopicPartition, tuple[int, int]]


Parts = dict[TopicPartition, _Partition]  # the consumer's assigned partitions


class FetchPipeline:
    """The fetches in flight (one to each broker that leads, or serves under KIP-392, assigned
    partitions, in that broker's fetch session), their answers placed in the partitions'
    states, and those states' buffers handed out as PartitionRecords."""

    def __init__(self, core: ClientCore, config: ConsumerConfig) -> None:
        self.core = core
        self.config = config
        self.in_flight: dict[Any, _InFlight] = {}  # ticket -> fetch
        self._sessions: dict[int, FetchSession] = {}  # by broker
        self._fetch_options = {
            "max_wait_ms": config.fetch_max_wait_ms,
            "min_bytes": config.fetch_min_bytes,
            "max_bytes": config.fetch_max_bytes,
            "partition_max_bytes": config.max_partition_fetch_bytes,
            "isolation_level": config.isolation_level,
        }
        self._rotation = 0
        self._backoff = core.config.retry_backoff

    def send(self, parts: Parts) -> Flow[None]:
        """A fetch to every leader that has none in flight, for the partitions with a
        position, not paused and with at most one answer buffered."""
        now = time.monotonic()
        busy = {f.node for f in self.in_flight.values()}
        wanted = [
            tp
            for tp, p in parts.items()
            if p.position is not None
            and not p.paused
            and not p.in_flight
            and not p.reset
            and len(p.buffered) < 2
            and now >= p.retry_at
        ]
        if not wanted:
            return
        try:
            groups = yield from self.core.by_leader(wanted)
        except (ClientError, BrokerError):
            for tp in wanted:  # the leaders are not known yet: try again after a backoff
                parts[tp].retry_at = now + self._backoff
            return
        groups = self._to_replicas(parts, groups, now)
        # a fetch of caught-up partitions only waits at the broker (fetch.wait.max.ms) for
        # records to come, and holds back that broker's next fetch: while partitions are
        # left out because their buffers are full, it is not sent before they have room (a
        # paused partition's buffer waits for resume, not for the caller: it holds nothing)
        held = any(len(p.buffered) >= 2 and not p.paused for p in parts.values())
        c = self.config
        for node, tps in groups.items():
            if node in busy or (held and all(parts[tp].caught_up for tp in tps)):
                continue
            wanted = {
                tp: (
                    parts[tp].fetch_offset,
                    parts[tp].limit or c.max_partition_fetch_bytes,
                )
                for tp in tps
            }
            session = self._sessions.setdefault(node, FetchSession())
            request = session.request(wanted)
            make, names = yield from fetch_call(
                self.core,
                node,
                {tp: offset for tp, (offset, _) in request.partitions.items()},
                {tp: limit for tp, (_, limit) in request.partitions.items()},
                request,
                {tp.topic for tp in tps},
            )
            ticket = yield Start(make(self._fetch_options))
            sent = {tp: (wanted[tp][0], parts[tp].epoch) for tp in tps}
            for tp in tps:
                parts[tp].in_flight = True
            self.in_flight[ticket] = _InFlight(node, sent, names, session, request, wanted)

    def _to_replicas(
        self, parts: Parts, groups: dict[int, list[TopicPartition]], now: float
    ) -> dict:
        """The partitions to fetch by broker: the leader's, or the follower it named
        (KIP-392, with client.rack) while that holds and the follower's address is known."""
        out: dict[int, list[TopicPartition]] = {}
        for leader, tps in groups.items():
            for tp in tps:
                part = parts[tp]
                node = leader
                if part.replica is not None:
                    if now < part.replica_until and part.replica in self.core.brokers:
                        node = part.replica
                    else:
                        part.replica = None
                out.setdefault(node, []).append(tp)
        return out

    def receive(self, parts: Parts, fetch: _InFlight, outcome) -> None:
        """Place a fetch's answer (or act on its failure): each partition's bytes buffered up
        to the end of its last complete batch, its watermarks, the errors that move it."""
        now = time.monotonic()
        mine = {tp: s for tp, s in fetch.sent.items() if tp in parts}
        for tp in mine:
            parts[tp].in_flight = False
        if isinstance(outcome, BaseException):
            fetch.session.failed()
            if isinstance(outcome, BrokerError) and not outcome.retriable:
                raise outcome
            self._stale(parts, mine, now)  # lost connection, timeout: the same offsets again later
            return
        fetch.session.answered(fetch.request, fetch.wanted, outcome.error_code, outcome.session_id)
        info = ERRORS.get(outcome.error_code)
        if outcome.error_code and info is not None and info.retriable:
            self._stale(parts, mine, now)  # e.g. a fetch session the broker lost: a full one next
            return
        self._backoff = self.core.config.retry_backoff
        answers = fetched_partitions(outcome, fetch.names, self.core.broker_name(fetch.node))
        moved = self.core.take_current_leaders(outcome, fetch.names)  # no refresh for these
        # a partition a full fetch's answer leaves out (or names by a topic id no longer
        # known: the topic was recreated) needs fresh metadata; an incremental answer leaves
        # out the partitions without news
        stale = {tp: s for tp, s in mine.items() if tp not in answers and fetch.request.full}
        for tp, answer in answers.items():
            if tp not in mine:
                continue
            part = parts[tp]
            offset, epoch = mine[tp]
            if epoch != part.epoch:
                continue  # sought meanwhile: not the bytes asked for now
            code = answer.error_code
            if code and part.replica == fetch.node:  # the follower cannot serve it: the leader
                part.replica = None
                stale[tp] = mine[tp]
                continue
            if code == ErrorCode.OFFSET_OUT_OF_RANGE:
                part.reset = True
                continue
            if code:
                info = ERRORS.get(code)
                if info is not None and info.retriable:
                    if tp not in moved:
                        stale[tp] = mine[tp]
                    continue
                raise_for_code(
                    code,
                    f"Fetch {tp.topic}-{tp.partition} from {self.core.broker_name(fetch.node)}",
                )
            if answer.preferred_read_replica >= 0 and answer.preferred_read_replica != fetch.node:
                part.replica = answer.preferred_read_replica  # the next fetch goes there
                part.replica_until = now + self.core.config.metadata_max_age
            part.low = answer.log_start_offset
            committed_end = self.config.isolation_level == READ_COMMITTED
            part.high = (
                answer.last_stable_offset
                if committed_end and answer.last_stable_offset >= 0
                else answer.high_watermark
            )
            if len(answer.records) == 0:
                if not answer.log_start_offset <= offset <= answer.high_watermark:
                    part.reset = True  # brokers that answer this without OFFSET_OUT_OF_RANGE
                continue
            end = batches_end(answer.records, offset)
            if end > offset:
                part.fetch_offset = end
                part.limit = None
                part.buffered.append(_Fetched(answer, end))
            else:  # one batch larger than the partition limit: ask with room for it
                ceiling = self.core.config.max_frame_size
                grown = min((part.limit or self.config.max_partition_fetch_bytes) * 4, ceiling)
                if grown == part.limit:
                    raise ClientError(
                        f"{tp.topic}-{tp.partition}: the batch at offset {offset} does not "
                        f"fit in {ceiling} bytes (receive.message.max.bytes)"
                    )
                part.limit = grown
        if stale:
            self._stale(parts, stale, now)

    def _stale(self, parts: Parts, tps, now: float) -> None:
        """Leaders moved or a broker is unreachable: back off those partitions (doubling) and
        look the leaders up again."""
        for tp in tps:
            parts[tp].retry_at = now + self._backoff
            parts[tp].replica = None  # a follower that failed: the leader next
        self._backoff = min(self._backoff * 2, self.core.config.retry_backoff_max)
        self.core.forget_topics({tp.topic for tp in tps})

    def drain(self, parts: Parts, limit: int) -> list[PartitionRecords]:
        """Up to ``limit`` records from the buffers, from each partition's position on, the
        partitions taking turns; an answer is decoded when the drain first reaches it."""
        out = []
        ready = [tp for tp, p in parts.items() if p.buffered and not p.paused]
        if not ready:
            return out
        self._rotation = (self._rotation + 1) % len(ready)  # every partition gets its turn
        for tp in ready[self._rotation :] + ready[: self._rotation]:
            part = parts[tp]
            while limit > 0 and part.buffered:
                fetched = part.buffered[0]
                view = fetched.view
                if view is None:
                    view = fetched.view = self._decode(tp, part, fetched)
                    offsets = view.offsets
                    fetched.row = int(np.searchsorted(offsets, part.position, "left"))
                take = min(limit, len(view) - fetched.row)
                if take > 0:
                    rows = view[fetched.row : fetched.row + take]
                    out.append(PartitionRecords(tp, rows))
                    fetched.row += take
                    limit -= take
                    part.position = int(rows.offsets[-1]) + 1
                    part.leader_epoch = int(rows.batches["partition_leader_epoch"][-1])
                if fetched.row >= len(view):
                    part.buffered.popleft()
                    # past what the batches hold beyond their records: control records,
                    # aborted transactions, compacted-away offsets
                    part.position = max(part.position, fetched.end)
            if limit <= 0:
                break
        return out

    def _decode(self, tp: TopicPartition, part: _Partition, fetched: _Fetched) -> RecordView:
        raw = fetched.part
        aborted = None  # control records are left out either way
        if self.config.isolation_level == READ_COMMITTED:
            aborted = [*(raw.aborted_transactions or []), *aborts_from_markers(raw.records)]
        try:
            return decode_records(
                raw.records, verify_crc=self.config.check_crcs, aborted_transactions=aborted
            )
        except DecodeError as exc:
            part.move_to(part.position)  # the bad bytes are dropped; a poll fetches again
            raise type(exc)(
                f"{tp.topic}-{tp.partition} at offset {part.position}: {exc.reason}",
                offset=exc.offset,
                batch_offset=exc.batch_offset,
                field=exc.field,
            ) from exc
