"""Executor-side reading: one offset range of one partition as Spark Arrow batches."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from kafkawire.client import NoOffsetError, RequestTimeoutError
from kafkawire.records.arrow import kafka_batches
from kafkawire.spark._options import DataLossError
from kafkawire.spark._planning import OffsetRange
from kafkawire.spark._read_options import ReadOptions
from kafkawire.spark._registry import decode_batch

log = logging.getLogger("kafkawire.spark")


def read_offset_range(opts: ReadOptions, r: OffsetRange) -> Iterator[pa.RecordBatch]:
    """The records of ``r`` as Arrow batches with Spark's Kafka columns, in offset order,
    through the consumer's fetch path (the next fetch goes out while one is decoded).

    Records that vanished since planning (retention, truncation) raise DataLossError, or
    with failOnDataLoss=false are skipped. Records that the partition says exist but that no
    poll brings for kafkaConsumer.pollTimeoutMs raise RequestTimeoutError. With
    registry formats (``opts.planned``) the key / value columns are decoded structs.
    """
    tp = r.tp
    if r.start >= r.end:
        return
    consumer = opts.client.consumer(
        dict(opts.consumer_properties),
        auto_offset_reset="none",  # out of range is data loss here, not a reason to move
        enable_auto_commit=False,
        group_id=opts.group_id,
        isolation_level=opts.isolation_level,
        check_crcs=opts.verify_crc,
        max_partition_fetch_bytes=opts.partition_max_bytes,
        fetch_max_wait_ms=opts.max_wait_ms,
    )
    # the client (it connects on first use) answers the rare questions: where the log starts
    # and ends, after an out-of-range position or an empty poll
    with consumer, opts.client.client() as client:
        consumer.assign([tp])
        consumer.seek(tp, r.start)
        position = r.start
        progress_deadline = time.monotonic() + opts.poll_timeout_ms / 1000
        while position < r.end:
            try:
                batch = consumer.poll_batch(opts.max_wait_ms / 1000 + 1.0, max_records=1 << 30)
            except NoOffsetError:
                position = _out_of_range(opts, client, consumer, r, position)
                if position is None:
                    return
                continue
            for part in batch.partitions:
                stop = int(np.searchsorted(part.offsets, r.end, "left"))
                batches = kafka_batches(
                    part.view,
                    tp.topic,
                    tp.partition,
                    # registry formats: the schema id may travel in a header
                    include_headers=opts.include_headers or opts.planned is not None,
                    stop=stop,
                )
                if opts.planned is None:
                    yield from batches
                else:
                    for b in batches:
                        yield decode_batch(b, opts.planned, opts.include_headers)
            previous, position = position, consumer.position(tp)
            if position > previous:
                progress_deadline = time.monotonic() + opts.poll_timeout_ms / 1000
            elif len(batch) == 0 and _ended(opts, client, r, position):
                return
            elif time.monotonic() > progress_deadline:
                raise RequestTimeoutError(
                    f"{tp.topic}-{tp.partition}: no record at offset {position} came in "
                    f"{opts.poll_timeout_ms} ms (kafkaConsumer.pollTimeoutMs)"
                )


def _out_of_range(opts: ReadOptions, client, consumer, r: OffsetRange, position: int) -> int | None:
    """Where to go on after ``position`` fell out of the log (None: skip the rest)."""
    tp = r.tp
    earliest = client.earliest_offsets([tp])[tp]
    message = f"{tp.topic}-{tp.partition}: offset {position} is out of range"
    if opts.fail_on_data_loss:
        raise DataLossError(message)
    if earliest <= position:
        log.warning("%s; failOnDataLoss=false: the rest of %s is skipped", message, r)
        return None
    log.warning("%s; failOnDataLoss=false: going on from %d", message, earliest)
    consumer.seek(tp, earliest)
    return earliest


def _ended(opts: ReadOptions, client, r: OffsetRange, position: int) -> bool:
    """Whether the partition ends before ``r.end`` (an empty poll): fine if what is left are
    control records, data loss otherwise."""
    tp = r.tp
    end = client.latest_offsets([tp], isolation_level=opts.isolation_level)[tp]
    if end > position:
        return False  # more is coming: poll again
    if end < r.end:
        message = f"{tp.topic}-{tp.partition}: the partition ends at {end}, before {r.end}"
        if opts.fail_on_data_loss:
            raise DataLossError(message)
        log.warning("%s; failOnDataLoss=false: going on without it", message)
    return True
