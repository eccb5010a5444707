"""ListOffsets: earliest, latest and by-timestamp offsets, with the checks some brokers need."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from kafkawire.errors import CorruptError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import raise_for_code
from kafkawire.records import decode_records

from ..core import ClientCore
from ..flow import Flow, Gather
from ..types import (
    EARLIEST,
    LATEST,
    READ_COMMITTED,
    READ_UNCOMMITTED,
    OffsetAndTimestamp,
    TopicPartition,
)
from .fetcher import RangeReader, fetch


def list_offsets(
    core: ClientCore,
    specs: Mapping[TopicPartition, int],
    *,
    isolation_level: int = READ_UNCOMMITTED,
) -> Flow[dict[TopicPartition, OffsetAndTimestamp]]:
    """Offsets by spec: EARLIEST, LATEST (the high watermark, or the last stable offset with
    READ_COMMITTED) or a timestamp in ms (the first offset whose timestamp is at least that,
    offset -1 when there is none). One request per leader, all at once."""
    specs = {TopicPartition(*tp): spec for tp, spec in specs.items()}

    def attempt():
        groups = yield from core.by_leader(specs)
        calls = [
            core.call(leader, _request(core, {tp: specs[tp] for tp in tps}, isolation_level))
            for leader, tps in groups.items()
        ]
        found = {}
        for response in (yield Gather(calls)):
            if isinstance(response, BaseException):
                raise response
            for t in response.topics:
                for p in t.partitions:
                    raise_for_code(p.error_code, f"{t.name}-{p.partition_index}")
                    found[TopicPartition(t.name, p.partition_index)] = OffsetAndTimestamp(
                        p.offset, p.timestamp
                    )
        missing = set(specs) - set(found)
        if missing:
            raise CorruptError(f"ListOffsets answer lacks {sorted(missing)}")
        latest = [tp for tp, spec in specs.items() if spec == LATEST]
        if latest:
            yield from _confirm_latest(core, found, latest, isolation_level)
        timed = [tp for tp, spec in specs.items() if spec >= 0 and found[tp].offset >= 0]
        untimed = [tp for tp in timed if found[tp].timestamp < 0]
        if len(untimed) < len(timed):
            untimed += yield from _wrong_answers(core, found, specs, set(timed) - set(untimed))
        if untimed:
            yield from _find_by_timestamp(core, found, specs, untimed)
        return found

    return (yield from core.retrying(attempt, "ListOffsets"))


def _request(core: ClientCore, specs: Mapping[TopicPartition, int], isolation_level: int):
    topics: dict[str, list] = {}
    for tp, spec in specs.items():
        topics.setdefault(tp.topic, []).append(
            m.ListOffsetsRequest.ListOffsetsPartition(partition_index=tp.partition, timestamp=spec)
        )
    return m.ListOffsetsRequest(
        replica_id=-1,
        isolation_level=isolation_level,
        topics=[
            m.ListOffsetsRequest.ListOffsetsTopic(name=name, partitions=parts)
            for name, parts in topics.items()
        ],
        timeout_ms=int(core.config.request_timeout * 1000),
    )


def _confirm_latest(core, found, tps, isolation_level) -> Flow[None]:
    """Check LATEST answers against the end a fetch reports. Some brokers (Tansu 0.x) answer
    ListOffsets LATEST with the last batch's base offset + 1; a fetch's high watermark (last
    stable offset under READ_COMMITTED) is the end by definition."""
    answers = yield from fetch(
        core,
        {tp: found[tp].offset for tp in tps},
        max_wait_ms=1,  # Tansu answers a fetch with max wait 0 without partitions
        partition_max_bytes=1,
        isolation_level=isolation_level,
    )
    for tp in tps:
        part = answers[tp]
        if part.error_code:
            continue  # keep ListOffsets' answer
        end = part.high_watermark
        if isolation_level == READ_COMMITTED and part.last_stable_offset >= 0:
            end = part.last_stable_offset
        found[tp] = OffsetAndTimestamp(end, found[tp].timestamp)


def _wrong_answers(core, found, specs, tps) -> Flow[list[TopicPartition]]:
    """The timestamp answers that the records contradict: the record at the offset given is
    older than the time asked (Tansu 0.6 answers the first offset with its append time)."""
    answers = yield from fetch(
        core, {tp: found[tp].offset for tp in tps}, max_wait_ms=1, partition_max_bytes=1
    )
    wrong = []
    for tp in tps:
        part = answers[tp]
        if part.error_code or not len(part.records):
            continue
        view = decode_records(part.records)
        row = int(np.searchsorted(view.offsets, found[tp].offset, "left"))
        if row < len(view) and view.timestamps[row] < specs[tp]:
            wrong.append(tp)
    return wrong


def _find_by_timestamp(core, found, specs, tps) -> Flow[None]:
    """Look up by reading for answers to a timestamp lookup that carry an offset but no
    timestamp: Tansu 0.x answers offset 0, timestamp -1 whatever the time asked. The partition
    is read from that offset and timestamps compared in numpy."""
    ends = yield from latest_offsets(core, tps)
    for tp in tps:
        reader = RangeReader(core, tp, found[tp].offset, ends[tp])
        found[tp] = OffsetAndTimestamp(-1, -1)  # no record at or after the time
        while (chunk := (yield from reader.next_chunk())) is not None:
            hits = np.flatnonzero(chunk.timestamps >= specs[tp])
            if len(hits):
                row = int(hits[0])
                found[tp] = OffsetAndTimestamp(int(chunk.offsets[row]), int(chunk.timestamps[row]))
                break


def reader(
    core: ClientCore, tp: TopicPartition, start: int, end: int | None = None, **options
) -> Flow[RangeReader]:
    """A RangeReader of ``tp`` from ``start`` to ``end``; None: the high watermark (the last
    stable offset under READ_COMMITTED) now."""
    if end is None:
        level = options.get("isolation_level", READ_UNCOMMITTED)
        end = (yield from latest_offsets(core, [tp], isolation_level=level))[TopicPartition(*tp)]
    return RangeReader(core, tp, start, end, **options)


def earliest_offsets(core: ClientCore, tps: Iterable[TopicPartition]) -> Flow[dict]:
    found = yield from list_offsets(core, dict.fromkeys(tps, EARLIEST))
    return {tp: r.offset for tp, r in found.items()}


def latest_offsets(
    core: ClientCore, tps: Iterable[TopicPartition], *, isolation_level: int = READ_UNCOMMITTED
) -> Flow[dict]:
    found = yield from list_offsets(
        core, dict.fromkeys(tps, LATEST), isolation_level=isolation_level
    )
    return {tp: r.offset for tp, r in found.items()}
