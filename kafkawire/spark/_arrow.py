"""Spark's Kafka columns as Arrow record batches, built from a RecordView.

Spark checks the first batch a Python data source yields against
``to_arrow_schema(schema, timezone="UTC")`` exactly, so the types here are those:
binary (not binary_view), timestamp[us, tz=UTC], int32, and a headers list whose
item field is named "element". This module needs pyarrow, not pyspark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

if TYPE_CHECKING:
    from kafkawire.records._decode import RecordView

HEADERS_TYPE = pa.list_(
    pa.field("element", pa.struct([("key", pa.string()), ("value", pa.binary())]))
)
TIMESTAMP_TYPE = pa.timestamp("us", tz="UTC")
_BASE_FIELDS = [
    pa.field("key", pa.binary()),
    pa.field("value", pa.binary()),
    pa.field("topic", pa.string()),
    pa.field("partition", pa.int32()),
    pa.field("offset", pa.int64()),
    pa.field("timestamp", TIMESTAMP_TYPE),
    pa.field("timestampType", pa.int32()),
]
SCHEMA = pa.schema(_BASE_FIELDS)
SCHEMA_WITH_HEADERS = pa.schema([*_BASE_FIELDS, pa.field("headers", HEADERS_TYPE)])

# Rows per Arrow batch handed to Spark: large enough to amortise the per-batch cost, small
# enough that a batch (and the topic column repeated in it) stays well under 2 GiB.
MAX_ROWS_PER_BATCH = 1 << 17


def arrow_schema(include_headers: bool) -> pa.Schema:
    return SCHEMA_WITH_HEADERS if include_headers else SCHEMA


def _repeat_string(value: str | None, n: int) -> pa.Array:
    if value is None:
        return pa.nulls(n, pa.string())
    data = value.encode()
    offsets = np.arange(n + 1, dtype=np.int64) * len(data)
    if offsets[-1] > 0x7FFFFFFF:
        raise OverflowError(f"{n} copies of the topic name do not fit one Arrow string column")
    return pa.Array.from_buffers(
        pa.string(), n, [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data * n)]
    )


def _repeat_int32(value: int | None, n: int) -> pa.Array:
    if value is None:
        return pa.nulls(n, pa.int32())
    return pa.Array.from_buffers(pa.int32(), n, [None, pa.py_buffer(np.full(n, value, np.int32))])


def _single(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    if isinstance(column, pa.ChunkedArray):
        return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    return column


def _headers(column: pa.ListArray) -> pa.Array:
    """Records without headers get null, not an empty list, as Spark's Kafka source gives."""
    offsets = np.asarray(column.offsets)
    present = np.diff(offsets) > 0
    if present.all():
        return column.cast(HEADERS_TYPE)
    validity = pa.py_buffer(np.packbits(present, bitorder="little"))
    return pa.Array.from_buffers(
        HEADERS_TYPE,
        len(column),
        [validity, pa.py_buffer((offsets - offsets[0]).astype(np.int32))],
        null_count=int(np.count_nonzero(~present)),
        children=[column.flatten()],
    )


def kafka_batches(
    view: RecordView,
    topic: str | None,
    partition: int | None,
    *,
    include_headers: bool,
    start: int = 0,
    stop: int | None = None,
    max_rows: int = MAX_ROWS_PER_BATCH,
) -> list[pa.RecordBatch]:
    """Rows ``start:stop`` of ``view`` as Spark Kafka-source batches of at most ``max_rows``.

    Keys and values are copied once into plain binary columns; offsets, timestamp types and
    headers come from RecordView.to_arrow; the timestamp goes from ms to us (Spark's unit).
    """
    stop = len(view) if stop is None else stop
    if stop <= start:
        return []
    table = view.to_arrow(binary="plain")
    if start or stop != table.num_rows:
        table = table.slice(start, stop - start)
    schema = arrow_schema(include_headers)
    out = []
    for lo in range(0, table.num_rows, max_rows):
        part = table.slice(lo, max_rows) if table.num_rows > max_rows else table
        n = part.num_rows
        columns = [
            _single(part.column("key")),
            _single(part.column("value")),
            _repeat_string(topic, n),
            _repeat_int32(partition, n),
            _single(part.column("offset")),
            _single(part.column("timestamp")).cast(TIMESTAMP_TYPE),
            _single(part.column("timestampType")),
        ]
        if include_headers:
            columns.append(_headers(_single(part.column("headers"))))
        out.append(pa.RecordBatch.from_arrays(columns, schema=schema))
    return out
