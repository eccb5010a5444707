"""Executor-side reading: one offset range of one partition as Spark Arrow batches."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pyarrow as pa

from kafkawire.protocol.error_codes import OffsetOutOfRangeError
from kafkawire.records.arrow import kafka_batches
from kafkawire.spark._options import DataLossError, ReadOptions
from kafkawire.spark._planning import OffsetRange

log = logging.getLogger("kafkawire.spark")


def read_offset_range(opts: ReadOptions, r: OffsetRange) -> Iterator[pa.RecordBatch]:
    """The records of ``r`` as Arrow batches with Spark's Kafka columns, in offset order.

    Records that vanished since planning (retention, truncation) raise DataLossError, or
    with failOnDataLoss=false are skipped.
    """
    tp = r.tp
    name = f"{tp.topic}-{tp.partition}"
    position = r.start
    if position >= r.end:
        return
    with opts.client.client() as client:
        while position < r.end:
            try:
                for chunk in client.read_range(
                    tp,
                    position,
                    r.end,
                    isolation_level=opts.isolation_level,
                    verify_crc=opts.verify_crc,
                    partition_max_bytes=opts.partition_max_bytes,
                    max_wait_ms=opts.max_wait_ms,
                ):
                    yield from kafka_batches(
                        chunk.view,
                        tp.topic,
                        tp.partition,
                        include_headers=opts.include_headers,
                        start=chunk.start,
                        stop=chunk.stop,
                    )
                    position = chunk.next_offset
                break
            except OffsetOutOfRangeError as exc:
                earliest = client.earliest_offsets([tp])[tp]
                message = f"{name}: offset {position} is out of range ({exc})"
                if opts.fail_on_data_loss:
                    raise DataLossError(message) from None
                if earliest <= position:
                    log.warning("%s; failOnDataLoss=false: the rest of %s is skipped", message, r)
                    return
                log.warning("%s; failOnDataLoss=false: going on from %d", message, earliest)
                position = earliest
        if position < r.end:
            # the partition ended early: fine if what is left are control records
            end = client.latest_offsets([tp], isolation_level=opts.isolation_level)[tp]
            if end < r.end:
                message = f"{name}: the partition ends at {end}, before {r.end}"
                if opts.fail_on_data_loss:
                    raise DataLossError(message)
                log.warning("%s; failOnDataLoss=false: going on without it", message)
