"""Driver-side planning of a Kafka read: which partitions, which offsets, which Spark splits.

Plain Python over kafkawire's Client, no Spark: the data sources call these from Spark's
planner processes, and tests call them directly.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from kafkawire.client import (
    EARLIEST,
    LATEST,
    BrokerConnectionError,
    Client,
    RequestTimeoutError,
    TopicPartition,
)
from kafkawire.protocol.error_codes import (
    BrokerError,
    UnknownTopicOrPartitionError,
    raise_for_code,
)
from kafkawire.spark._options import DataLossError, OptionError, Subscription
from kafkawire.spark._read_options import OffsetSpec

log = logging.getLogger("kafkawire.spark")

Offsets = dict[TopicPartition, int]
T = TypeVar("T")


def with_retries(fetch: Callable[[], T], attempts: int, interval_ms: int) -> T:
    """``fetch()``, tried ``attempts`` times in all, ``interval_ms`` apart, while it fails in a
    way a retry may mend (a lost connection, a timeout, a retriable broker error): Spark's
    fetchOffset.numRetries and fetchOffset.retryIntervalMs, around the driver's offset
    lookups."""
    for attempt in range(1, attempts):
        try:
            return fetch()
        except (BrokerConnectionError, RequestTimeoutError, BrokerError) as exc:
            if isinstance(exc, BrokerError) and not exc.retriable:
                raise
            log.warning("fetching offsets, attempt %d of %d failed: %s", attempt, attempts, exc)
            time.sleep(interval_ms / 1000)
    return fetch()  # the last attempt: its failure is the query's


@dataclass(frozen=True)
class OffsetRange:
    """Records ``start <= offset < end`` of one partition: one Spark task's share."""

    tp: TopicPartition
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


def subscribed_partitions(
    client: Client, sub: Subscription, *, missing_topics_ok: bool = False
) -> list[TopicPartition]:
    """The partitions a subscription covers now, sorted.

    :param missing_topics_ok: a topic named by subscribe that does not exist (yet) covers
        no partition, as a pattern matching nothing (streams wait for it, as Spark's do).
    :raises UnknownTopicOrPartitionError: subscribe or assign names a topic (or assign a
        partition) the cluster does not have. A pattern matching nothing covers nothing.
    """
    if sub.kind == "subscribePattern":
        pattern = re.compile(sub.pattern or "")
        topics = client.metadata(None).topics
        return sorted(
            TopicPartition(name, p)
            for name, info in topics.items()
            if not info.is_internal and not info.error_code and pattern.fullmatch(name)
            for p in info.partitions
        )
    names = sub.topics if sub.kind == "subscribe" else tuple({tp.topic for tp in sub.assigned})
    topics = client.metadata(list(names)).topics
    present = []
    for name in names:
        info = topics.get(name)
        code = UnknownTopicOrPartitionError.code if info is None else info.error_code
        waited_for = missing_topics_ok and sub.kind == "subscribe"
        if code == UnknownTopicOrPartitionError.code and waited_for:
            continue
        raise_for_code(code, f"topic {name!r}")
        present.append(name)
    if sub.kind == "subscribe":
        return sorted(TopicPartition(n, p) for n in present for p in topics[n].partitions)
    missing = [tp for tp in sub.assigned if tp.partition not in topics[tp.topic].partitions]
    if missing:
        raise UnknownTopicOrPartitionError(f"assign names partitions that do not exist: {missing}")
    return sorted(set(sub.assigned))


@dataclass(frozen=True)
class Bounds:
    """Each partition's log start offset and end (high watermark, or last stable offset)."""

    earliest: Offsets
    latest: Offsets

    @classmethod
    def fetch(cls, client: Client, tps: Iterable[TopicPartition], isolation_level: int) -> Bounds:
        tps = list(tps)
        if not tps:
            return cls({}, {})
        return cls(
            client.earliest_offsets(tps),
            client.latest_offsets(tps, isolation_level=isolation_level),
        )


def resolve_offsets(
    client: Client,
    spec: OffsetSpec,
    tps: list[TopicPartition],
    bounds: Bounds,
    *,
    starting: bool,
    timestamp_strategy: str = "error",
) -> Offsets:
    """The offset ``spec`` names for each partition (-2 / -1 resolved against ``bounds``)."""
    if spec.kind == "earliest":
        return {tp: bounds.earliest[tp] for tp in tps}
    if spec.kind == "latest":
        return {tp: bounds.latest[tp] for tp in tps}
    side = "starting" if starting else "ending"
    if spec.kind in ("offsets", "timestamps"):
        given = set(spec.per_partition)
        if given != set(tps):
            option = f"{side}Offsets" + ("ByTimestamp" if spec.kind == "timestamps" else "")
            raise OptionError(
                f"option {option} must name every subscribed partition and no other: "
                f"missing {sorted(set(tps) - given)}, unknown {sorted(given - set(tps))}"
            )
    if spec.kind == "offsets":
        resolved = {}
        for tp in tps:
            offset = spec.per_partition[tp]
            resolved[tp] = {EARLIEST: bounds.earliest[tp], LATEST: bounds.latest[tp]}.get(
                offset, offset
            )
        return resolved
    wanted: dict[TopicPartition, int]
    if spec.kind == "timestamp":
        assert spec.timestamp is not None
        wanted = dict.fromkeys(tps, spec.timestamp)
    else:
        wanted = {tp: spec.per_partition[tp] for tp in tps}
    found = client.list_offsets(wanted) if wanted else {}
    resolved = {}
    for tp in tps:
        offset = found[tp].offset
        if offset < 0:  # no record at or after the timestamp
            if starting and timestamp_strategy == "error":
                raise OptionError(
                    f"no record of {tp.topic}-{tp.partition} has a timestamp at or after "
                    f"{wanted[tp]}; set startingOffsetsByTimestampStrategy=latest to start at "
                    "the end of such partitions"
                )
            offset = bounds.latest[tp]
        resolved[tp] = offset
    return resolved


def clamp_ending_offsets(
    ends: Mapping[TopicPartition, int], bounds: Bounds, *, fail_on_data_loss: bool
) -> Offsets:
    """A batch read's ending offsets, checked against where the partitions end: an offset
    past the end names records never written (not lost ones), an OptionError; with
    failOnDataLoss=false (Spark's reader then reads what there is) the end of the partition
    is taken instead, with a warning."""
    clamped = dict(ends)
    for tp, end in ends.items():
        high = bounds.latest[tp]
        if end <= high:
            continue
        message = (
            f"endingOffsets asks for {tp.topic}-{tp.partition} up to offset {end}, but the "
            f"partition ends at {high}: offsets {high} to {end - 1} have not been written"
        )
        if fail_on_data_loss:
            raise OptionError(
                f"{message}. End at latest (-1) or at an offset up to {high}, or set "
                "failOnDataLoss=false to read up to the end"
            )
        log.warning("%s; failOnDataLoss=false: reading up to the end", message)
        clamped[tp] = high
    return clamped


def _loss(fail: bool, message: str) -> None:
    if fail:
        raise DataLossError(message)
    log.warning("%s; failOnDataLoss=false: going on without it", message)


def check_ranges(
    starts: Mapping[TopicPartition, int],
    ends: Mapping[TopicPartition, int],
    bounds: Bounds,
    *,
    fail_on_data_loss: bool,
) -> list[OffsetRange]:
    """Ranges from resolved offsets, checked against what the partitions hold.

    A start below the log start offset, or a start or end past the partition's end, is data
    loss: DataLossError, or with ``fail_on_data_loss`` false the range shrinks to what exists.

    :raises OptionError: a start after its end.
    """
    ranges = []
    for tp in sorted(ends):
        start, end = starts[tp], ends[tp]
        low, high = bounds.earliest[tp], bounds.latest[tp]
        name = f"{tp.topic}-{tp.partition}"
        lost = False
        if end > high:
            _loss(fail_on_data_loss, f"{name}: ending offset {end} is past the end {high}")
            end, lost = high, True
        if start < low:
            _loss(fail_on_data_loss, f"{name}: offsets {start} to {low - 1} are gone")
            start, lost = low, True
        elif start > high:
            _loss(fail_on_data_loss, f"{name}: starting offset {start} is past the end {high}")
            start, lost = high, True
        if start > end:
            if not lost:
                raise OptionError(
                    f"{name}: starting offset {start} is after the ending offset {end}"
                )
            end = start  # what was asked for is gone: nothing to read
        ranges.append(OffsetRange(tp, start, end))
    return ranges


def _split(r: OffsetRange, parts: int) -> list[OffsetRange]:
    out = []
    remaining, start = r.size, r.start
    for i in range(parts):
        this = remaining // (parts - i)  # the last parts take the rounding
        remaining -= this
        out.append(OffsetRange(r.tp, start, start + this))
        start += this
    return out


def split_ranges(
    ranges: list[OffsetRange],
    *,
    min_partitions: int | None = None,
    max_records_per_partition: int | None = None,
) -> list[OffsetRange]:
    """Spark's splitting of a read into tasks: empty ranges dropped; ranges over
    ``max_records_per_partition`` cut into equal parts; then, while fewer ranges than
    ``min_partitions``, each range cut in proportion to its share of all the records."""
    ranges = [r for r in ranges if r.size > 0]
    if max_records_per_partition:
        ranges = [
            part
            for r in ranges
            for part in _split(r, math.ceil(r.size / max_records_per_partition))
        ]
    if min_partitions and len(ranges) < min_partitions:
        ideal = sum(r.size for r in ranges) / min_partitions
        ranges = [
            part
            for r in ranges
            for part in _split(r, max(math.floor(r.size / ideal + 0.5), 1))
            if part.size > 0
        ]
    return ranges


def rate_limit(starts: Offsets, ends: Offsets, max_records: int) -> Offsets:
    """Ends moved back so that about ``max_records`` records are read in all, each partition
    taking its share of what is available (at least one record when it has any)."""
    sizes = {tp: end - starts[tp] for tp, end in ends.items() if end - starts[tp] > 0}
    total = sum(sizes.values())
    if total <= max_records:
        return dict(ends)
    limited = {}
    for tp, end in ends.items():
        if tp not in sizes:
            limited[tp] = end
            continue
        share = max_records * sizes[tp] / total
        share = math.ceil(share) if share < 1 else math.floor(share)
        limited[tp] = min(end, starts[tp] + share)
    return limited


def to_json(offsets: Mapping[TopicPartition, int]) -> dict[str, dict[str, int]]:
    """Spark's Kafka offset JSON: {"topic": {"0": 23}}, topics and partitions in order."""
    out: dict[str, dict[str, int]] = {}
    for tp in sorted(offsets):
        out.setdefault(tp.topic, {})[str(tp.partition)] = int(offsets[tp])
    return out


def from_json(offsets: Mapping[str, Mapping[str, int]]) -> Offsets:
    return {
        TopicPartition(topic, int(p)): int(n)
        for topic, parts in offsets.items()
        for p, n in parts.items()
    }


def offsets_behind_latest(source_progress: Mapping) -> dict[str, float]:
    """Spark's Kafka source metrics (minOffsetsBehindLatest, maxOffsetsBehindLatest,
    avgOffsetsBehindLatest) from one source's entry of a streaming query's progress
    (``query.lastProgress.sources[0]``, a dict): how far each partition's latest offset
    is ahead of where the micro-batch ended. Python data sources cannot report metrics of
    their own (pyspark has no hook for it); the kafkawire reader reports its latest offsets,
    from which these follow. Empty when the progress has no latest offsets."""

    def offsets(name: str) -> Offsets:
        value = source_progress.get(name)
        if isinstance(value, str):  # Spark's offset JSON
            value = json.loads(value)
        return from_json(value) if isinstance(value, Mapping) else {}

    latest, consumed = offsets("latestOffset"), offsets("endOffset")
    behind = [end - consumed.get(tp, 0) for tp, end in latest.items()]
    if not behind:
        return {}
    return {
        "minOffsetsBehindLatest": min(behind),
        "maxOffsetsBehindLatest": max(behind),
        "avgOffsetsBehindLatest": sum(behind) / len(behind),
    }
