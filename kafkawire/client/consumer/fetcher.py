"""Fetch: raw record batches per partition, and offset ranges read into RecordView chunks."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Mapping

import numpy as np

from kafkawire.errors import CorruptError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    ERRORS,
    BrokerError,
    ErrorCode,
    OffsetOutOfRangeError,
    raise_for_code,
)
from kafkawire.records import decode_records, read_batches

from ..core import ClientCore
from ..errors import ClientError
from ..flow import Flow, Gather
from ..types import (
    NO_TOPIC_ID,
    READ_COMMITTED,
    READ_UNCOMMITTED,
    FetchedPartition,
    RecordChunk,
    TopicPartition,
)
from .fetch_session import SessionRequest

FETCH_DEFAULTS = {
    "max_wait_ms": 500,
    "min_bytes": 1,
    "max_bytes": 52428800,
    "partition_max_bytes": 10485760,
    "isolation_level": READ_UNCOMMITTED,
}


_BATCH_HEAD = struct.Struct(">qi")  # base offset, length
_LAST_OFFSET_DELTA = struct.Struct(">i")  # at byte 23 of a v2 batch
_LENGTH = struct.Struct(">i")  # at byte 8
_ATTRIBUTES = struct.Struct(">h")  # at byte 21
_PRODUCER_ID = struct.Struct(">q")  # at byte 43
_TRANSACTIONAL, _CONTROL = 0x10, 0x20


class _MissingPartitions(BrokerError):
    """A fetch answer left out partitions it was asked for: ask again."""

    retriable = True


def fetch(
    core: ClientCore, positions: Mapping[TopicPartition, int], **options
) -> Flow[dict[TopicPartition, FetchedPartition]]:
    """One Fetch per partition leader, all leaders at once; each partition's raw record
    batches and state. Partition errors are reported in ``FetchedPartition.error_code``, not
    raised, but a leader change (NOT_LEADER_OR_FOLLOWER and friends) is retried."""
    options = {**FETCH_DEFAULTS, **options}
    positions = {TopicPartition(*tp): offset for tp, offset in positions.items()}
    results: dict[TopicPartition, FetchedPartition] = {}

    def attempt():
        pending = [tp for tp in positions if tp not in results]
        groups = yield from core.by_leader(pending)
        calls = []
        names_of = []
        for leader, tps in groups.items():
            call, names = yield from fetch_call(core, leader, {tp: positions[tp] for tp in tps})
            calls.append(call)
            names_of.append(names)
        answers = yield Gather([c(options) for c in calls])
        stale = failure = None
        for answer, names, leader in zip(answers, names_of, groups, strict=True):
            if isinstance(answer, BaseException):
                failure = failure or answer
                continue
            for tp, part in fetched_partitions(answer, names, core.broker_name(leader)).items():
                info = ERRORS.get(part.error_code)
                if part.error_code and info is not None and info.retriable:
                    stale = part
                else:
                    results[tp] = part
        if failure is not None:  # the other leaders' answers are kept
            raise failure
        if stale is not None:  # a leader moved: refresh and ask the new one
            stale.raise_for_error()
        missing = [tp for tp in positions if tp not in results]
        if missing:
            raise _MissingPartitions(f"Fetch answer lacks {missing}")
        return results

    return (yield from core.retrying(attempt, "Fetch"))


def fetch_call(
    core: ClientCore,
    leader: int,
    positions: Mapping[TopicPartition, int],
    limits: Mapping[TopicPartition, int] | None = None,
    session: SessionRequest | None = None,
    topics: Iterable[str] = (),
):
    """(a function of the fetch options that makes the Call, {topic id: name}); ``limits``
    overrides partition_max_bytes for some partitions. With a fetch ``session``, the
    request carries its id, epoch and forgotten partitions; ``topics`` are those whose
    partitions an incremental answer may hold without the request naming them."""
    limits = limits or {}
    forgotten: dict[str, list[int]] = {}
    for tp in session.forgotten if session else ():
        forgotten.setdefault(tp.topic, []).append(tp.partition)
    by_topic: dict[str, dict[int, int]] = {}
    for tp, offset in positions.items():
        by_topic.setdefault(tp.topic, {})[tp.partition] = offset
    ids = {}
    for name in sorted({*by_topic, *forgotten, *topics}):
        ids[name] = (yield from core.topic(name)).topic_id
    names = {topic_id: name for name, topic_id in ids.items()}

    def make(options):
        request = m.FetchRequest(
            replica_id=-1,
            max_wait_ms=options["max_wait_ms"],
            min_bytes=options["min_bytes"],
            max_bytes=options["max_bytes"],
            isolation_level=options["isolation_level"],
            rack_id=core.config.client_rack or "",  # KIP-392: a replica in this rack may serve
            # without a session: -1, every fetch names its partitions
            session_id=session.session_id if session else 0,
            session_epoch=session.epoch if session else -1,
            forgotten_topics_data=[
                m.FetchRequest.ForgottenTopic(topic=name, topic_id=ids[name], partitions=parts)
                for name, parts in forgotten.items()
            ],
            topics=[
                # both the name and the id: the version chosen keeps the one it has
                m.FetchRequest.FetchTopic(
                    topic=name,
                    topic_id=ids[name],
                    partitions=[
                        m.FetchRequest.FetchPartition(
                            partition=partition,
                            fetch_offset=offset,
                            partition_max_bytes=limits.get(
                                (name, partition), options["partition_max_bytes"]
                            ),
                        )
                        for partition, offset in parts.items()
                    ],
                )
                for name, parts in by_topic.items()
            ],
        )
        # Fetch 13+ names topics by id: only when the broker knows the ids
        newest = None if all(i != NO_TOPIC_ID for i in ids.values()) else 12
        return core.call(
            leader, request, extra_timeout=options["max_wait_ms"] / 1000, newest=newest
        )

    return make, names


def fetched_partitions(response, names, broker: str) -> dict[TopicPartition, FetchedPartition]:
    """Each partition of a Fetch answer from ``broker`` (how errors name it)."""
    if response.error_code:
        asked = ", ".join(
            f"{t.topic or names.get(t.topic_id)}-{p.partition_index}"
            for t in response.responses
            for p in t.partitions
        )
        raise_for_code(response.error_code, f"Fetch of {asked or 'nothing'} from {broker}")
    out = {}
    for t in response.responses:
        name = t.topic or names.get(t.topic_id)
        for p in t.partitions:
            tp = TopicPartition(name, p.partition_index)
            aborted = p.aborted_transactions
            out[tp] = FetchedPartition(
                tp,
                memoryview(p.records if p.records is not None else b""),
                p.error_code,
                p.high_watermark,
                p.last_stable_offset,
                p.log_start_offset,
                None if aborted is None else [(a.producer_id, a.first_offset) for a in aborted],
                p.preferred_read_replica,
            )
    return out


class RangeReader:
    """Reads the records of one partition with ``start <= offset < end`` as RecordChunks:
    each ``next_chunk()`` flow returns the next chunk, or None at the end (``offsets.reader``
    makes one whose end is the partition's end when the read starts). Control records,
    and with READ_COMMITTED the records of aborted transactions, are left out; offsets removed
    by compaction or retention inside the range are skipped."""

    def __init__(
        self,
        core: ClientCore,
        tp: TopicPartition,
        start: int,
        end: int,
        *,
        isolation_level: int = READ_UNCOMMITTED,
        verify_crc: bool = True,
        partition_max_bytes: int = 10485760,
        max_wait_ms: int = 500,
    ) -> None:
        self.core = core
        self.tp = TopicPartition(*tp)
        self.position = start
        self.end = end
        self.isolation_level = isolation_level
        self.verify_crc = verify_crc
        self.limit = partition_max_bytes
        self.max_wait_ms = max_wait_ms

    def next_chunk(self) -> Flow[RecordChunk | None]:
        tp = self.tp
        end = self.end
        max_frame_size = self.core.config.max_frame_size
        while self.position < end:
            position = self.position
            part = (
                yield from fetch(
                    self.core,
                    {tp: position},
                    isolation_level=self.isolation_level,
                    partition_max_bytes=self.limit,
                    max_bytes=max(self.limit, 52428800),
                    max_wait_ms=self.max_wait_ms,
                )
            )[tp]
            outside = OffsetOutOfRangeError(
                f"{tp.topic}-{tp.partition}: offset {position} is outside "
                f"[{part.log_start_offset}, {part.high_watermark}]"
            )
            if part.error_code == ErrorCode.OFFSET_OUT_OF_RANGE:
                raise outside
            part.raise_for_error()
            if not part.log_start_offset <= position <= part.high_watermark:
                raise outside  # brokers that answer such a fetch with no records and no error
            stable = (
                part.last_stable_offset
                if self.isolation_level == READ_COMMITTED and part.last_stable_offset >= 0
                else part.high_watermark
            )
            if len(part.records) == 0:
                if stable <= position:
                    return None  # the partition ends before `end`: nothing more to read
                continue
            aborted = None  # control batches are left out either way
            if self.isolation_level == READ_COMMITTED:
                aborted = [*(part.aborted_transactions or []), *aborts_from_markers(part.records)]
            view = decode_records(
                part.records, verify_crc=self.verify_crc, aborted_transactions=aborted
            )
            if view.num_batches == 0 and view.next_offset <= position:
                # one batch larger than the partition limit: ask again with room for it
                if self.limit >= max_frame_size:
                    raise ClientError(
                        f"{tp.topic}-{tp.partition}: the batch at offset {position} does not "
                        f"fit in {max_frame_size} bytes"
                    )
                self.limit = min(self.limit * 4, max_frame_size)
                continue
            next_offset = view.next_offset
            if next_offset <= position:
                raise CorruptError(
                    f"{tp.topic}-{tp.partition}: fetch at offset {position} made no progress",
                    batch_offset=position,
                )
            offsets = view.offsets
            lo = int(np.searchsorted(offsets, position, "left")) if len(offsets) else 0
            hi = int(np.searchsorted(offsets, end, "left")) if len(offsets) else 0
            self.position = min(next_offset, end)
            if hi > lo:
                return RecordChunk(tp, view, lo, hi, self.position)
        return None


def batches_end(records: memoryview, start: int) -> int:
    """The offset after the last complete batch in ``records`` (``start`` when none is
    complete), read from the batch headers alone."""
    end = start
    for _, last, _ in _batch_heads(records):
        end = max(end, last + 1)
    return end


def _batch_heads(records: memoryview) -> Iterator[tuple[int, int, int]]:
    """(base offset, last offset, byte position) of each complete batch, from its header."""
    pos = 0
    size = len(records)
    while pos + 17 <= size:  # base offset, length, leader epoch / crc, magic
        base, length = _BATCH_HEAD.unpack_from(records, pos)
        if length < 14 or pos + 12 + length > size:
            return  # partial (or corrupt: decoding says so)
        if records[pos + 16] >= 2:
            (delta,) = _LAST_OFFSET_DELTA.unpack_from(records, pos + 23)
            yield base, base + delta, pos
        else:
            yield base, base, pos  # a legacy message (a compressed wrapper: its last offset)
        pos += 12 + length


def aborts_from_markers(records: memoryview) -> list[tuple[int, int]]:
    """(producer id, first offset) of the transactions that an ABORT marker in ``records``
    ends. Kafka's Fetch answer lists them (aborted_transactions); brokers that send an empty
    list (Tansu 0.6) still write the markers, so records before a marker in the same answer
    are dropped all the same. Only headers are read, and control batches decoded."""
    first: dict[int, int] = {}  # producer id -> first offset of its open transaction
    aborted = []
    for base, _, pos in _batch_heads(records):
        if records[pos + 16] < 2:
            continue
        (attributes,) = _ATTRIBUTES.unpack_from(records, pos + 21)
        if not attributes & _TRANSACTIONAL:
            continue
        (producer,) = _PRODUCER_ID.unpack_from(records, pos + 43)
        if not attributes & _CONTROL:
            first.setdefault(producer, base)
            continue
        (length,) = _LENGTH.unpack_from(records, pos + 8)
        batch = next(
            read_batches(records[pos : pos + 12 + length], verify_crc=False, keep_control=True)
        )
        marker = batch.control_record
        opened = first.pop(producer, None)
        if marker is not None and marker.is_abort and opened is not None:
            aborted.append((producer, opened))
    return aborted
