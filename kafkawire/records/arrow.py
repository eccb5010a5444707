"""Kafka records as Arrow: a RecordView exported to pyarrow, and Spark's Kafka columns.

``record_view_to_arrow`` (behind ``RecordView.to_arrow``): keys and values become binary_view
columns whose data buffers are the input buffer and the decompressed payloads themselves, so
nothing is copied but the 16-byte view structs; "plain"/"large" copy into the classic binary
layouts that every Arrow consumer reads. Offsets and timestamps are the view's own arrays.

``kafka_batches``: rows of a view as the columns of Spark's Kafka source (key, value, topic,
partition, offset, timestamp, timestampType, headers), for the Spark sources, segment files
and the CLI. Spark checks the first batch a Python data source yields against
``to_arrow_schema(schema, timezone="UTC")`` exactly, so the types are those: binary (not
binary_view), timestamp[us, tz=UTC], int32, and a headers list whose item field is named
"element".

This module needs pyarrow (an optional dependency): it is imported only when Arrow is asked
for, so ``import kafkawire.records`` does not import pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from kafkawire.errors import CorruptError

if TYPE_CHECKING:
    from kafkawire.records._decode import RecordView

_BINARY_KINDS = ("view", "plain", "large")


def _validity(lengths: np.ndarray):
    nulls = int(np.count_nonzero(lengths < 0))
    if not nulls:
        return None, 0
    return pa.py_buffer(np.packbits(lengths >= 0, bitorder="little")), nulls


def _binary_column(view: RecordView, pos, lengths, starts, kind: str) -> pa.Array:
    n = len(lengths)
    validity, nulls = _validity(lengths)
    if kind == "view":
        buffers = view._segment_buffers()
        if any(len(b) > 0x7FFFFFFF for b in buffers):
            raise OverflowError("buffers over 2 GiB cannot back binary_view; use binary='large'")
        structs = np.empty(16 * n, dtype=np.uint8)
        view._fill_views(pos, lengths, structs)
        return pa.Array.from_buffers(
            pa.binary_view(),
            n,
            [validity, pa.py_buffer(structs), *(pa.py_buffer(b) for b in buffers)],
            null_count=nulls,
        )
    large = kind == "large"
    offsets, data = view._gather(pos, lengths, starts, large)
    return pa.Array.from_buffers(
        pa.large_binary() if large else pa.binary(),
        n,
        [validity, pa.py_buffer(offsets), pa.py_buffer(data)],
        null_count=nulls,
    )


def _headers_column(view: RecordView) -> pa.Array:
    list_offsets, kp, kl, vp, vl, header_starts = view._header_index()
    key_offsets, key_data = view._gather(kp, kl, header_starts, False)
    keys = pa.Array.from_buffers(
        pa.string(), len(kl), [None, pa.py_buffer(key_offsets), pa.py_buffer(key_data)]
    )
    try:
        keys.validate(full=True)
    except pa.ArrowInvalid as exc:
        raise CorruptError(
            f"header key is not valid UTF-8: {exc}", field="record.header.key"
        ) from None
    val_offsets, val_data = view._gather(vp, vl, header_starts, False)
    validity, nulls = _validity(vl)
    values = pa.Array.from_buffers(
        pa.binary(),
        len(vl),
        [validity, pa.py_buffer(val_offsets), pa.py_buffer(val_data)],
        null_count=nulls,
    )
    struct = pa.StructArray.from_arrays([keys, values], names=["key", "value"])
    return pa.ListArray.from_arrays(pa.array(list_offsets), struct)


def record_view_to_arrow(view: RecordView, binary: str = "view") -> pa.Table:
    if binary not in _BINARY_KINDS:
        raise ValueError(f"binary must be one of {_BINARY_KINDS}, not {binary!r}")
    n = len(view)
    kp, kl, vp, vl = view._columns()
    starts = view._record_starts()
    timestamps = view.timestamps
    # magic 0 records have no timestamp (-1): null in Arrow
    ts_validity, ts_nulls = (None, 0)
    if np.any(view.batches["magic"] == 0):
        ts_validity, ts_nulls = _validity(np.where(view.timestamp_types < 0, -1, 0))
    columns = {
        "key": _binary_column(view, kp, kl, starts, binary),
        "value": _binary_column(view, vp, vl, starts, binary),
        "offset": pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(view.offsets)]),
        "timestamp": pa.Array.from_buffers(
            pa.timestamp("ms"), n, [ts_validity, pa.py_buffer(timestamps)], null_count=ts_nulls
        ),
        "timestampType": pa.array(view.timestamp_types.astype(np.int32)),
        "headers": _headers_column(view),
    }
    return pa.table(columns)


# ---- Spark's Kafka columns ---------------------------------------------------------------

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
