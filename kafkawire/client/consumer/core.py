"""The consumer as a sans-IO state machine: assigned partitions with their positions, a fetch
in flight to every leader, fetched bytes buffered until polled, and the group membership
(``groups/classic.py``; ``groups/consumer_protocol.py`` under group.protocol=consumer). The faces
(``consumer/faces.py``) drive its flows with either transport.

Positions: ``position`` is the next offset to hand out; ``fetch_offset`` the next one to
fetch, ahead of it by what is buffered. When an answer comes, the end of its last complete
batch is read from the batch headers and the next fetch to that broker goes out at once,
before the answer is decoded; decoding happens when the user polls. A fetch answered for a
partition that was sought or revoked meanwhile is dropped (``_Partition.epoch``).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import numpy as np

from kafkawire.errors import DecodeError
from kafkawire.protocol.error_codes import (
    ERRORS,
    BrokerError,
    ErrorCode,
    raise_for_code,
)
from kafkawire.records import ConsumerRecord, RecordView, decode_records

from ..core import ClientCore
from ..errors import ClientError
from ..flow import Call, Continued, Flow, Sleep, Start, Wait
from ..groups.classic import CommitFailedError, GroupMember
from ..groups.consumer_protocol import ConsumerGroupMember
from ..stats import leader_of, topics_object
from ..types import (
    EARLIEST,
    LATEST,
    READ_COMMITTED,
    ArrowFrames,
    ClusterMetadata,
    FetchedPartition,
    OffsetAndMetadata,
    TopicPartition,
)
from . import offsets as offset_flows
from .config import ConsumerConfig
from .fetch_session import FetchSession, SessionRequest
from .fetcher import aborts_from_markers, batches_end, fetch_call, fetched_partitions

if TYPE_CHECKING:
    import pyarrow as pa

_PATTERN_CHECK = 30.0  # how often a pattern subscription looks for new topics, at most
OFFSET_INVALID = -1001  # librdkafka's "no offset known" (cached watermarks before a fetch)
T = TypeVar("T")


class NoOffsetError(ClientError):
    """A partition has no committed offset (or its position is out of range) and
    auto.offset.reset is none."""


class DeserializationError(ClientError):
    """The consumer's key_deserializer or value_deserializer failed on a record: the records
    before it were handed out, the partition's position is this record's offset, and
    ``seek(topic_partition, offset + 1)`` steps over it."""

    def __init__(self, message: str, topic_partition: TopicPartition, offset: int) -> None:
        super().__init__(message)
        self.topic_partition = topic_partition
        self.offset = offset


@dataclass
class PartitionRecords(ArrowFrames):
    """The records one poll gives of one partition: a RecordView (no object per record)."""

    tp: TopicPartition
    view: RecordView

    def __len__(self) -> int:
        return len(self.view)

    @property
    def offsets(self) -> np.ndarray:
        return self.view.offsets

    @property
    def timestamps(self) -> np.ndarray:
        return self.view.timestamps

    @property
    def keys(self):
        return self.view.keys

    @property
    def values(self):
        return self.view.values

    @property
    def leader_epochs(self) -> np.ndarray:
        return self.view.batches["partition_leader_epoch"][self.view.batch_index]

    def records(self) -> list[ConsumerRecord]:
        """One ConsumerRecord per record (bytes copies of keys and values)."""
        return self.view.consumer_records(self.tp.topic, self.tp.partition)

    def to_arrow(self, *, include_headers: bool = True, binary: str = "plain") -> pa.Table:
        """The Kafka columns (key, value, topic, partition, offset, timestamp,
        timestampType[, headers]; see RecordView.to_arrow for ``binary``)."""
        return self.view.to_arrow(
            binary=binary,
            topic=self.tp.topic,
            partition=self.tp.partition,
            include_headers=include_headers,
        )


@dataclass
class ConsumerBatch(ArrowFrames):
    """What one columnar poll gives: each partition's records, in offset order."""

    partitions: list[PartitionRecords]
    # registry deserializers (kafkawire.registry.RegistryDeserializer) to_arrow() applies
    value_deserializer: Any = None
    key_deserializer: Any = None

    def __len__(self) -> int:
        return sum(len(p) for p in self.partitions)

    def __iter__(self) -> Iterator[ConsumerRecord]:
        for part in self.partitions:
            yield from part.records()

    def records(self) -> list[ConsumerRecord]:
        return [r for part in self.partitions for r in part.records()]

    def to_arrow(self, *, include_headers: bool = True, binary: str = "plain") -> pa.Table:
        """One table of every partition's rows (the Kafka columns, see RecordView.to_arrow),
        with the value and key columns decoded by the consumer's value_deserializer and
        key_deserializer, when it has them."""
        table = self._concat(True, binary)
        if self.value_deserializer is not None:
            table = self.value_deserializer.apply(table)
        if self.key_deserializer is not None:
            table = self.key_deserializer.apply(table, key=True)
        return table if include_headers else table.drop_columns(["headers"])

    def _kafka_table(self) -> pa.Table:
        return self._concat(True, "plain")

    def _concat(self, include_headers: bool, binary: str) -> pa.Table:
        import pyarrow as pa

        from kafkawire.records.arrow import arrow_schema

        tables = [
            p.to_arrow(include_headers=include_headers, binary=binary) for p in self.partitions
        ]
        if not tables:
            return arrow_schema(include_headers, binary).empty_table()
        return pa.concat_tables(tables)


@dataclass
class _Fetched:
    part: FetchedPartition
    end: int  # the offset after its last complete batch
    view: RecordView | None = None
    row: int = 0  # the next row to hand out


@dataclass
class _Partition:
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

    def move_to(self, offset: int) -> None:
        self.position = self.fetch_offset = offset
        self.reset = False
        self.epoch += 1  # answers to fetches already sent are dropped
        self.buffered.clear()


@dataclass
class _CommitJob:
    """An asynchronous commit that the polls step: its flow, and the call it waits for (a
    ticket) or, between tries, the end of its backoff."""

    flow: Flow[None]
    partitions: list[TopicPartition]
    ticket: Any = None
    wake_at: float = 0.0


class _InFlight(NamedTuple):
    node: int
    sent: dict[TopicPartition, tuple[int, int]]  # tp -> (fetch offset, partition epoch)
    names: dict
    session: FetchSession
    request: SessionRequest  # what the Fetch named of the session's partitions
    wanted: dict[TopicPartition, tuple[int, int]]


Callback = Callable[[list[TopicPartition]], Any]


class ConsumerCore:
    def __init__(self, core: ClientCore, config: ConsumerConfig) -> None:
        self.core = core
        self.config = config
        self.member: GroupMember | None = None
        if config.group_id is not None:
            kip848 = config.group_protocol == "consumer"
            self.member = (ConsumerGroupMember if kip848 else GroupMember)(config)
        self.parts: dict[TopicPartition, _Partition] = {}
        self.topics: list[str] = []  # subscribed (or matched by the pattern)
        self.pattern: re.Pattern | None = None
        self.subscribed = False
        self.callbacks: dict[str, Callback | None] = {}
        self._in_flight: dict[Any, _InFlight] = {}  # ticket -> fetch
        self._commits: list[_CommitJob] = []  # asynchronous commits under way
        self._sessions: dict[int, FetchSession] = {}  # by broker
        self._fetch_options = {
            "max_wait_ms": config.fetch_max_wait_ms,
            "min_bytes": config.fetch_min_bytes,
            "max_bytes": config.fetch_max_bytes,
            "partition_max_bytes": config.max_partition_fetch_bytes,
            "isolation_level": config.isolation_level,
        }
        self._next_commit = time.monotonic() + config.auto_commit_interval
        self._next_pattern_check = 0.0
        self._rotation = 0
        self._backoff = core.config.retry_backoff
        self._settling: Continued | None = None  # _settle's work, across polls
        self._ends: list[tuple[TopicPartition, int]] = []  # enable.partition.eof's reports

    # ---- subscription and assignment (no IO) --------------------------------------------------

    def subscribe(self, topics: Iterable[str] | str | re.Pattern, callbacks) -> None:
        if self.member is None:
            raise ClientError("subscribe needs a group.id; use assign without one")
        if isinstance(topics, re.Pattern) or (isinstance(topics, str) and topics.startswith("^")):
            self.pattern = re.compile(topics)
            self.topics = []
        else:
            names = [topics] if isinstance(topics, str) else list(topics)
            if not names or not all(isinstance(t, str) and t for t in names):
                raise ClientError(f"subscribe takes topic names or a pattern, not {topics!r}")
            self.pattern = None
            self.topics = sorted(set(names))
        self.callbacks = callbacks
        self.subscribed = True
        self.member.rejoin_needed = True

    def assign(self, tps: Iterable[TopicPartition]) -> None:
        if self.subscribed:
            raise ClientError("the consumer is subscribed: unsubscribe before assign")
        wanted = {TopicPartition(*tp) for tp in tps}
        self.parts = {tp: self.parts.get(tp) or _Partition() for tp in sorted(wanted)}

    def incremental_assign(self, tps: Iterable[TopicPartition]) -> None:
        """Add ``tps`` to the manual assignment; the partitions already assigned keep their
        positions and what was fetched for them."""
        if self.subscribed:
            raise ClientError("the consumer is subscribed: unsubscribe before incremental_assign")
        added = [TopicPartition(*tp) for tp in tps]
        already = [tp for tp in added if tp in self.parts]
        if already:
            raise ClientError(f"incremental_assign: {_names(already)} already assigned")
        self.parts = dict(sorted({**self.parts, **{tp: _Partition() for tp in added}}.items()))

    def incremental_unassign(self, tps: Iterable[TopicPartition]) -> None:
        """Drop ``tps`` from the manual assignment; the others are untouched."""
        if self.subscribed:
            raise ClientError("the consumer is subscribed: unsubscribe before incremental_unassign")
        removed = [TopicPartition(*tp) for tp in tps]
        missing = [tp for tp in removed if tp not in self.parts]
        if missing:
            raise ClientError(f"incremental_unassign: {_names(missing)} not assigned")
        for tp in removed:
            del self.parts[tp]

    def unsubscribe(self) -> Flow[None]:
        """Give the subscription up: the pending asynchronous commits end, the partitions are
        committed (enable.auto.commit) and revoked (on_revoke), and the member leaves the
        group. Nothing happens when the consumer is not subscribed (a manual assignment
        stays, as librdkafka's)."""
        if not self.subscribed:
            return
        yield from self._finish_commits()
        owned = self.assignment()
        yield from self._commit_before_revoke(owned)
        self.parts.clear()
        self.subscribed = False  # the polls leave the group alone (the faces stopped the beats)
        self.topics, self.pattern = [], None
        try:
            if owned:
                self._call("on_revoke", owned)
        finally:
            self.callbacks = {}
            yield from self.member.leave(self.core, "the consumer unsubscribed")

    def assignment(self) -> list[TopicPartition]:
        return sorted(self.parts)

    def partition(self, tp: TopicPartition) -> _Partition:
        part = self.parts.get(TopicPartition(*tp))
        if part is None:
            raise ClientError(f"{tp[0]}-{tp[1]} is not assigned to this consumer")
        return part

    def seek(self, tp: TopicPartition, offset: int) -> None:
        if offset < 0:
            raise ClientError(f"seek to {offset}: offsets are >= 0 (seek_to_beginning/end)")
        self.partition(tp).move_to(int(offset))

    def pause(self, tps: Iterable[TopicPartition]) -> None:
        for tp in tps:
            self.partition(tp).paused = True

    def resume(self, tps: Iterable[TopicPartition]) -> None:
        for tp in tps:
            self.partition(tp).paused = False

    def paused(self) -> list[TopicPartition]:
        return sorted(tp for tp, p in self.parts.items() if p.paused)

    # ---- positions ----------------------------------------------------------------------------

    def seek_to(self, tps: Iterable[TopicPartition] | None, spec: int) -> Flow[None]:
        chosen = list(self.parts) if tps is None else [TopicPartition(*tp) for tp in tps]
        for tp in chosen:
            self.partition(tp)
        found = yield from offset_flows.list_offsets(
            self.core, dict.fromkeys(chosen, spec), isolation_level=self.config.isolation_level
        )
        for tp in chosen:
            self.parts[tp].move_to(found[tp].offset)

    def watermarks(self, tp: TopicPartition, cached: bool) -> Flow[tuple[int, int]]:
        """(low, high): the log start offset and the end (the last stable offset under
        read_committed); ``cached``: as the last fetch answer gave them, OFFSET_INVALID for
        a partition not fetched yet (librdkafka's answer)."""
        tp = TopicPartition(*tp)
        if cached:
            part = self.parts.get(tp)
            return (OFFSET_INVALID, OFFSET_INVALID) if part is None else (part.low, part.high)

        def ask() -> Flow[tuple[int, int]]:
            low = yield from offset_flows.list_offsets(self.core, {tp: EARLIEST})
            high = yield from offset_flows.list_offsets(
                self.core, {tp: LATEST}, isolation_level=self.config.isolation_level
            )
            return low[tp].offset, high[tp].offset

        return (yield from ask())

    def list_topics(self, topic: str | None) -> Flow[ClusterMetadata]:
        """The brokers and the topics (one, or all of them)."""
        return (yield from self.core.metadata(None if topic is None else [topic]))

    def position(self, tp: TopicPartition) -> Flow[int]:
        part = self.partition(tp)
        if part.position is None:
            yield from self._resolve_positions()
        return part.position

    def _resolve_positions(self) -> Flow[None]:
        """Positions for partitions without one: the group's committed offset, else (or
        when out of range) auto.offset.reset."""
        unknown = [tp for tp, p in self.parts.items() if p.position is None]
        resets = [tp for tp, p in self.parts.items() if p.reset and not p.buffered]
        if not unknown and not resets:
            return
        if unknown and self.member is not None:
            committed = yield from self.member.committed(self.core, unknown)
            for tp, found in committed.items():
                part = self.parts.get(tp)
                if found is not None and part is not None and part.position is None:
                    part.move_to(found.offset)
                    part.leader_epoch = -1 if found.leader_epoch is None else found.leader_epoch
        resets += [tp for tp in unknown if self.parts[tp].position is None]
        if not resets:
            return
        policy = self.config.auto_offset_reset
        if policy == "none":
            raise NoOffsetError(
                f"no offset to start from for {_names(resets)} and auto.offset.reset is none"
            )
        yield from self.seek_to(resets, EARLIEST if policy == "earliest" else LATEST)

    # ---- polling ------------------------------------------------------------------------------

    def poll(self, max_records: int | None, timeout: float) -> Flow[list[PartitionRecords]]:
        """Records from the positions on, at most ``max_records`` (max.poll.records), waiting
        up to ``timeout`` seconds for some; fetches go on while the caller works. A poll
        returns by its timeout whatever the brokers do: a group join or a position lookup
        that takes longer goes on across polls (``_settle``)."""
        limit = self.config.max_poll_records if max_records is None else max_records
        if limit <= 0:
            raise ClientError(f"max_records is {limit}: ask for at least one record")
        end = time.monotonic() + max(0.0, timeout)
        if self.member is not None:
            self.member.last_poll = time.monotonic()
        waited = False  # a poll takes what has come at least once, even poll(0)
        while True:
            settled = yield from self._settle(end)
            yield from self._auto_commit()
            out = self._drain(limit)
            if self.config.enable_partition_eof:
                self._note_ends()
            yield from self._send_fetches()
            yield from self._step_commits({})  # those whose backoff ended
            now = time.monotonic()
            if out or (now >= end and waited):
                return out
            if settled and now < end and self.subscribed and self._group_needs_poll():
                continue
            tickets = [*self._in_flight, *self._commit_tickets()]
            if not tickets:  # nothing to fetch (no partitions, all paused, backoff)
                if now >= end:
                    return out
                yield Sleep(min(end - now, 0.05))
                continue
            waited = True
            timeout = max(0.0, end - now)
            if len(tickets) < len(self._in_flight) + len(self._commits):
                timeout = min(timeout, 0.05)  # a commit backs off: step it when it is time
            done = yield Wait(tickets, timeout)
            failure = None
            for ticket, outcome in done.items():
                fetch = self._in_flight.pop(ticket, None)
                if fetch is None:
                    continue  # a commit's answer, stepped below
                try:  # every answer is taken: the transport has handed its tickets back
                    self._receive(fetch, outcome)
                except (ClientError, BrokerError) as exc:
                    failure = failure or exc
            yield from self._step_commits(done)
            if failure is not None:
                raise failure

    def _note_ends(self) -> None:
        """enable.partition.eof: a partition whose records have all been handed out up to
        the end the last fetch answer gave is reported once, until more records come."""
        for tp, part in self.parts.items():
            if part.position is None or part.buffered or part.high < 0:
                continue
            if part.position >= part.high:
                if not part.at_end:
                    part.at_end = True
                    self._ends.append((tp, part.position))
            else:
                part.at_end = False

    def statistics(self) -> dict[str, Any]:
        """The topics object of stats_cb's JSON (``stats.py``): each assigned partition's
        offsets and fetch queue, under librdkafka's names."""
        fields = {}
        for tp, part in self.parts.items():
            leader = leader_of(self.core, tp.topic, tp.partition)
            position = OFFSET_INVALID if part.position is None else part.position
            if self.config.enable_auto_offset_store:
                stored = position
            else:
                stored = OFFSET_INVALID if part.stored is None else part.stored.offset
            fields[tp] = {
                "broker": leader if part.replica is None else part.replica,
                "leader": leader,
                "fetchq_size": sum(len(f.part.records) for f in part.buffered),
                "next_offset": part.fetch_offset,
                "app_offset": position,
                "stored_offset": stored,
                "lo_offset": part.low,
                "hi_offset": part.high,
                "consumer_lag_stored": part.high - stored if part.high >= 0 <= stored else -1,
            }
        return topics_object(fields)

    def take_ends(self) -> list[tuple[TopicPartition, int]]:
        """The partitions that reached their end since the last call, with the offset there
        (enable.partition.eof; librdkafka's _PARTITION_EOF events)."""
        ends, self._ends = self._ends, []
        return ends

    def _settle(self, end: float) -> Flow[bool]:
        """Bring the group membership and the positions up to date, for up to ``end``;
        whether that is done. What is unfinished then (a JoinGroup the coordinator holds
        until every member has joined, say) stays in flight for the next poll; its calls
        keep their own timeouts and retries, which end it with an error if the brokers
        never answer."""
        if self._settling is None:
            if not self._needs_settling():
                return True
            self._settling = Continued(self._settle_flow(), "poll", None)
        try:
            done = yield from self._settling.advance(max(0.0, end - time.monotonic()))
        except BaseException:
            self._settling = None
            raise
        if done:
            self._settling = None
        return done

    def _needs_settling(self) -> bool:
        member = self.member
        if member is not None and self.subscribed:
            if member.fatal is not None or member.lost or self._group_needs_poll():
                return True
            if isinstance(member, ConsumerGroupMember) and member.subscription != tuple(
                self.topics
            ):
                return True  # the heartbeats must tell the new subscription
            if self.pattern is not None and time.monotonic() >= self._next_pattern_check:
                return True
        return any(p.position is None or (p.reset and not p.buffered) for p in self.parts.values())

    def _settle_flow(self) -> Flow[None]:
        yield from self._maintain_group()
        yield from self._resolve_positions()

    def abandon_settling(self) -> None:
        """Give up the group work and position lookups under way (unsubscribe, close)."""
        if self._settling is not None:
            self._settling.close()
            self._settling = None

    def _drain(self, limit: int) -> list[PartitionRecords]:
        out = []
        ready = [tp for tp, p in self.parts.items() if p.buffered and not p.paused]
        if not ready:
            return out
        self._rotation = (self._rotation + 1) % len(ready)  # every partition gets its turn
        for tp in ready[self._rotation :] + ready[: self._rotation]:
            part = self.parts[tp]
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

    # ---- fetching -----------------------------------------------------------------------------

    def _send_fetches(self) -> Flow[None]:
        """A fetch to every leader that has none in flight, for the partitions with a
        position, not paused and with at most one answer buffered."""
        now = time.monotonic()
        busy = {f.node for f in self._in_flight.values()}
        wanted = [
            tp
            for tp, p in self.parts.items()
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
                self.parts[tp].retry_at = now + self._backoff
            return
        groups = self._to_replicas(groups, now)
        c = self.config
        for node, tps in groups.items():
            if node in busy:
                continue
            wanted = {
                tp: (
                    self.parts[tp].fetch_offset,
                    self.parts[tp].limit or c.max_partition_fetch_bytes,
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
            sent = {tp: (wanted[tp][0], self.parts[tp].epoch) for tp in tps}
            for tp in tps:
                self.parts[tp].in_flight = True
            self._in_flight[ticket] = _InFlight(node, sent, names, session, request, wanted)

    def _to_replicas(self, groups: dict[int, list[TopicPartition]], now: float) -> dict:
        """The partitions to fetch by broker: the leader's, or the follower it named
        (KIP-392, with client.rack) while that holds and the follower's address is known."""
        out: dict[int, list[TopicPartition]] = {}
        for leader, tps in groups.items():
            for tp in tps:
                part = self.parts[tp]
                node = leader
                if part.replica is not None:
                    if now < part.replica_until and part.replica in self.core.brokers:
                        node = part.replica
                    else:
                        part.replica = None
                out.setdefault(node, []).append(tp)
        return out

    def _receive(self, fetch: _InFlight, outcome) -> None:
        now = time.monotonic()
        mine = {tp: s for tp, s in fetch.sent.items() if tp in self.parts}
        for tp in mine:
            self.parts[tp].in_flight = False
        if isinstance(outcome, BaseException):
            fetch.session.failed()
            if isinstance(outcome, BrokerError) and not outcome.retriable:
                raise outcome
            self._stale(mine, now)  # lost connection, timeout: the same offsets again later
            return
        fetch.session.answered(fetch.request, fetch.wanted, outcome.error_code, outcome.session_id)
        info = ERRORS.get(outcome.error_code)
        if outcome.error_code and info is not None and info.retriable:
            self._stale(mine, now)  # e.g. a fetch session the broker lost: a full one next
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
            part = self.parts[tp]
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
            self._stale(stale, now)

    def _stale(self, tps, now: float) -> None:
        """Leaders moved or a broker is unreachable: back off those partitions (doubling) and
        look the leaders up again."""
        for tp in tps:
            self.parts[tp].retry_at = now + self._backoff
            self.parts[tp].replica = None  # a follower that failed: the leader next
        self._backoff = min(self._backoff * 2, self.core.config.retry_backoff_max)
        self.core.forget_topics({tp.topic for tp in tps})

    # ---- the group ----------------------------------------------------------------------------

    def _group_needs_poll(self) -> bool:
        member = self.member
        if isinstance(member, ConsumerGroupMember):
            return member.needs_poll()
        return member is not None and (member.rejoin_needed or member.lost)

    def _maintain_group(self) -> Flow[None]:
        member = self.member
        if member is None or not self.subscribed:
            return
        if self.pattern is not None and time.monotonic() >= self._next_pattern_check:
            yield from self._match_pattern()
        fatal, member.fatal = member.fatal, None
        if fatal is not None:  # a heartbeat's: raised once, the heartbeats go on
            raise fatal
        if member.lost:
            self._drop_lost()
        if isinstance(member, ConsumerGroupMember):
            yield from self._follow_assignment(member)
            return
        if not member.rejoin_needed:
            return
        owned = self.assignment()
        if not member.cooperative and owned:
            yield from self._commit_before_revoke(owned)
            self.parts.clear()
            self._call("on_revoke", owned)
            owned = []
        result = yield from member.join(self.core, self.topics, owned)
        new = set(result.assignment)
        revoked = [tp for tp in owned if tp not in new]
        added = sorted(new - set(owned))
        if revoked:  # cooperative: give these up, then rejoin so others can take them
            yield from self._commit_before_revoke(revoked)
            for tp in revoked:
                self.parts.pop(tp, None)
            self._call("on_revoke", revoked)
            member.rejoin_needed = True
        for tp in added:
            self.parts[tp] = _Partition()
        if added or not member.cooperative:
            self._call("on_assign", added)

    def _drop_lost(self) -> None:
        """The group took the partitions without a revoke (this member was fenced or left):
        no commit, on_lost (or on_revoke)."""
        lost = self.assignment()
        self.parts.clear()
        self.member.lost = False
        self._call("on_lost" if self.callbacks.get("on_lost") else "on_revoke", lost)

    def _follow_assignment(self, member: ConsumerGroupMember) -> Flow[None]:
        """KIP-848 (after _maintain_group raised a kept error and dropped lost partitions): join
        when out of the group, then make the partitions owned the broker's newest assignment:
        the revoked ones first (committed with auto-commit, on_revoke), then the added ones
        (on_assign); the heartbeat loop acknowledges what is owned at once."""
        with member.lock:
            member.subscription = tuple(self.topics)
        if not member.joined and self.topics:
            yield from member.join(self.core)
        target = yield from member.target_assignment(self.core)
        if target is None:
            return
        owned = set(self.parts)
        revoked = sorted(owned - target)
        added = sorted(target - owned)
        if revoked:
            yield from self._commit_before_revoke(revoked)
            for tp in revoked:
                self.parts.pop(tp, None)
            self._call("on_revoke", revoked)
        for tp in added:
            self.parts[tp] = _Partition()
        member.reconciled(set(self.parts))
        if added:
            self._call("on_assign", added)

    def _match_pattern(self) -> Flow[None]:
        cluster = yield from self.core.metadata(None)
        skip_internal = self.config.exclude_internal_topics  # __consumer_offsets and the like
        matched = sorted(
            name
            for name, info in cluster.topics.items()
            if self.pattern.fullmatch(name) and not (skip_internal and info.is_internal)
        )
        if matched != self.topics:
            self.topics = matched
            self.member.rejoin_needed = True
        every = min(_PATTERN_CHECK, self.core.config.metadata_max_age)
        self._next_pattern_check = time.monotonic() + every

    def _call(self, name: str, tps: list[TopicPartition]) -> None:
        callback = self.callbacks.get(name)
        if callback is not None:
            callback(tps)

    def _commit_before_revoke(self, tps: list[TopicPartition]) -> Flow[None]:
        if not self.config.enable_auto_commit:
            return
        # a fenced member's commit fails: the next owner starts from the last commit
        with contextlib.suppress(ClientError, BrokerError):
            yield from self.commit(self._to_commit({tp: self.parts[tp] for tp in tps}))

    # ---- offsets ------------------------------------------------------------------------------

    def _to_commit(self, parts: Mapping[TopicPartition, _Partition] | None = None) -> dict:
        """What a commit without offsets takes: the positions, or with
        enable.auto.offset.store=false what store_offsets stored."""
        parts = self.parts if parts is None else parts
        if not self.config.enable_auto_offset_store:
            return {tp: p.stored for tp, p in parts.items() if p.stored is not None}
        return {
            tp: OffsetAndMetadata(p.position, "", None if p.leader_epoch < 0 else p.leader_epoch)
            for tp, p in parts.items()
            if p.position is not None
        }

    def store_offsets(self, records: Any = None, offsets: Any = None) -> None:
        """Store, for the next commit without offsets, the offset after each record of
        ``records`` (a ConsumerRecord or several) and ``offsets`` (as commit takes them)."""
        if self.config.enable_auto_offset_store:
            raise ClientError(
                "store_offsets needs enable.auto.offset.store=false: with it true (the "
                "default) every position poll hands out is stored"
            )
        chosen = _offsets(records or [], "store_offsets")
        chosen.update(_offsets(offsets or [], "store_offsets"))
        if not chosen:
            raise ClientError("store_offsets: give records or offsets to store")
        missing = [tp for tp in chosen if tp not in self.parts]
        if missing:
            raise ClientError(f"store_offsets: {_names(missing)} not assigned to this consumer")
        for tp, offset in chosen.items():
            self.parts[tp].stored = offset

    def _offsets_to_commit(self, offsets: Any) -> dict[TopicPartition, OffsetAndMetadata]:
        if self.member is None:
            raise ClientError("commit needs a group.id")
        if self.subscribed and self.member.generation < 0:
            raise CommitFailedError(
                f"commit to group {self.member.group_id!r} refused: this member is not in the "
                "group (it left, or the group rebalanced without it); poll to rejoin"
            )
        return self._to_commit() if offsets is None else _offsets(offsets, "commit")

    def commit(self, offsets: Any = None) -> Flow[None]:
        """Commit ``offsets`` ({tp: offset or OffsetAndMetadata}, ConsumerRecords: the offset
        after each, or objects with topic, partition and offset: confluent-kafka's
        TopicPartition), or every position; after the asynchronous commits sent before it."""
        chosen = self._offsets_to_commit(offsets)
        yield from self._finish_commits()
        yield from self.member.commit(self.core, chosen)

    def commit_async(self, offsets: Any = None) -> Flow[None]:
        """Send the commit and return: the polls that follow take the answer (and try again
        where the commit flow does) and tell on_commit how it ended."""
        chosen = self._offsets_to_commit(offsets)
        job = _CommitJob(self.member.commit(self.core, chosen), sorted(chosen))
        self._commits.append(job)
        yield from self._step_commit(job, None)

    def _step_commit(self, job: _CommitJob, outcome: Any) -> Flow[None]:
        """Hand an asynchronous commit what it waited for; send the call it asks for next
        (Start: nobody waits for it), or report its end."""
        job.ticket = None
        try:
            if isinstance(outcome, BaseException):
                effect = job.flow.throw(outcome)
            else:
                effect = job.flow.send(outcome)
            if isinstance(effect, Sleep):
                job.wake_at = time.monotonic() + effect.seconds
                return
            if not isinstance(effect, Call):
                raise TypeError(f"a commit flow yielded {effect!r}")
            job.ticket = yield Start(effect)
        except StopIteration:
            self._commit_ended(job, None)
        except (ClientError, BrokerError) as exc:
            self._commit_ended(job, exc)

    def _commit_tickets(self) -> list:
        return [job.ticket for job in self._commits if job.ticket is not None]

    def _step_commits(self, done: Mapping) -> Flow[None]:
        """Step the asynchronous commits whose call is in ``done`` or whose backoff ended."""
        now = time.monotonic()
        for job in list(self._commits):
            if job.ticket is None and now >= job.wake_at:
                yield from self._step_commit(job, None)
            elif job.ticket is not None and job.ticket in done:
                yield from self._step_commit(job, done[job.ticket])

    def _finish_commits(self) -> Flow[None]:
        """Wait for the asynchronous commits under way (each call has its own deadline)."""
        while self._commits:
            done = {}
            if tickets := self._commit_tickets():
                done = yield Wait(tickets, 0.05)
            else:
                yield Sleep(0.01)  # every one is backing off
            yield from self._step_commits(done)

    def _commit_ended(self, job: _CommitJob, error: BaseException | None) -> None:
        self._commits.remove(job)
        self._report_commit(error, job.partitions)

    def _report_commit(self, error: BaseException | None, tps: list[TopicPartition]) -> None:
        if self.config.on_commit is not None:
            self.config.on_commit(error, tps)

    def _auto_commit(self) -> Flow[None]:
        if self.member is None or not self.config.enable_auto_commit:
            return
        now = time.monotonic()
        if now < self._next_commit:
            return
        self._next_commit = now + self.config.auto_commit_interval
        chosen = self._to_commit()
        if not chosen:
            return
        # sent and left to the polls that follow (a poll never waits for it); as Java's, one
        # that fails is reported to on_commit and the next interval commits again
        try:
            yield from self.commit_async(chosen)
        except (ClientError, BrokerError) as exc:
            self._report_commit(exc, sorted(chosen))

    def committed(self, tps: Iterable[TopicPartition]) -> Flow[dict]:
        if self.member is None:
            raise ClientError("committed offsets need a group.id")
        return (yield from self.member.committed(self.core, [TopicPartition(*t) for t in tps]))

    def offsets_for_times(self, specs: Mapping[TopicPartition, int]) -> Flow[dict]:
        """For each partition, the first offset whose timestamp is at least the one given
        (None when there is none)."""
        found = yield from offset_flows.list_offsets(
            self.core,
            {TopicPartition(*tp): int(ts) for tp, ts in specs.items()},
            isolation_level=self.config.isolation_level,
        )
        return {tp: (r if r.offset >= 0 else None) for tp, r in found.items()}

    def close(self, *, commit: bool) -> Flow[None]:
        """Commit the positions (auto-commit on), then leave the group."""
        try:
            yield from self._finish_commits()
            if commit and self.member is not None and self.config.enable_auto_commit:
                yield from self._commit_before_revoke(self.assignment())
            if self.member is not None and self.subscribed:
                yield from self.member.leave(self.core)
        finally:
            self.parts.clear()
            self._in_flight.clear()


def _names(tps: Iterable[TopicPartition]) -> str:
    return ", ".join(f"{t}-{p}" for t, p in sorted(tps))


def _offsets(offsets: Any, what: str) -> dict[TopicPartition, OffsetAndMetadata]:
    """{tp: OffsetAndMetadata} from {tp: offset or OffsetAndMetadata}, or from ConsumerRecords
    (the offset after each, as confluent-kafka's ``message``) and objects with topic,
    partition and offset (confluent-kafka's TopicPartition: that offset)."""
    if isinstance(offsets, Mapping):
        return {
            TopicPartition(*tp): o if isinstance(o, OffsetAndMetadata) else OffsetAndMetadata(o)
            for tp, o in offsets.items()
        }
    chosen = {}
    for item in [offsets] if isinstance(offsets, ConsumerRecord) else offsets:
        if isinstance(item, ConsumerRecord):
            epoch = None if item.leader_epoch < 0 else item.leader_epoch
            chosen[TopicPartition(item.topic, item.partition)] = OffsetAndMetadata(
                item.offset + 1, "", epoch
            )
            continue
        if getattr(item, "offset", None) is None:
            raise ClientError(
                f"{what}: {item!r} has no offset; give {{TopicPartition: offset}} or objects "
                "with topic, partition and offset"
            )
        metadata = getattr(item, "metadata", None) or ""
        epoch = getattr(item, "leader_epoch", None)
        chosen[TopicPartition(item.topic, item.partition)] = OffsetAndMetadata(
            item.offset, metadata, epoch
        )
    return chosen
