"""Kafka records as Arrow: one schema for every face (RecordView.to_arrow, consumer batches,
segment files, the Spark sources and the CLI).

The schema is Spark's Kafka source's, so that a table from any of them can stand where
``spark.read.format("kafka")`` output stood:

    key: binary, value: binary, topic: string, partition: int32, offset: int64,
    timestamp: timestamp[us, tz=UTC], timestampType: int32,
    headers: list<element: struct<key: string, value: binary>>

Spark checks the first batch a Python data source yields against
``to_arrow_schema(schema, timezone="UTC")`` exactly: hence binary (not binary_view),
microseconds in UTC and the list item named "element". ``binary="view"`` (binary_view
columns whose data buffers are the input buffer and the decompressed payloads themselves:
nothing copied but the 16-byte view structs) and ``binary="large"`` are the explicit
alternatives for key and value outside Spark. topic and partition are null where they are not
known (a bare buffer, a segment file outside a ``<topic>-<partition>`` directory). timestamp
is null where Kafka has none (magic 0). headers is ``[]`` for a record without headers and
null only where Kafka has no headers (magic 0 and 1); Spark's JVM source gives null for a
record without headers instead (docs/spark.md says so).

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


# ---- the schema ---------------------------------------------------------------------------

HEADERS_TYPE = pa.list_(
    pa.field("element", pa.struct([("key", pa.string()), ("value", pa.binary())]))
)
TIMESTAMP_TYPE = pa.timestamp("us", tz="UTC")
_BINARY_TYPES = {"plain": pa.binary(), "view": pa.binary_view(), "large": pa.large_binary()}

# Rows per Arrow batch handed to Spark: large enough to amortise the per-batch cost, small
# enough that a batch (and the topic column repeated in it) stays well under 2 GiB.
MAX_ROWS_PER_BATCH = 1 << 17


def arrow_schema(include_headers: bool = True, binary: str = "plain") -> pa.Schema:
    """The Kafka columns' schema (see the module docstring)."""
    if binary not in _BINARY_KINDS:
        raise ValueError(f"binary must be one of {_BINARY_KINDS}, not {binary!r}")
    fields = [
        pa.field("key", _BINARY_TYPES[binary]),
        pa.field("value", _BINARY_TYPES[binary]),
        pa.field("topic", pa.string()),
        pa.field("partition", pa.int32()),
        pa.field("offset", pa.int64()),
        pa.field("timestamp", TIMESTAMP_TYPE),
        pa.field("timestampType", pa.int32()),
    ]
    if include_headers:
        fields.append(pa.field("headers", HEADERS_TYPE))
    return pa.schema(fields)


SCHEMA = arrow_schema(False)
SCHEMA_WITH_HEADERS = arrow_schema(True)


def _record_columns(view: RecordView, binary: str, include_headers: bool) -> dict:
    """The per-record columns of the whole view (all but topic and partition)."""
    n = len(view)
    kp, kl, vp, vl = view._columns()
    starts = view._record_starts()
    timestamp_types = view.timestamp_types
    # magic 0 records have no timestamp (-1): null
    ts_validity, ts_nulls = None, 0
    if (timestamp_types < 0).any():
        ts_validity, ts_nulls = _validity(np.where(timestamp_types < 0, -1, 0))
    columns = {
        "key": _binary_column(view, kp, kl, starts, binary),
        "value": _binary_column(view, vp, vl, starts, binary),
        "offset": pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(view.offsets)]),
        "timestamp": pa.Array.from_buffers(
            TIMESTAMP_TYPE,
            n,
            [ts_validity, pa.py_buffer(view.timestamps * 1000)],
            null_count=ts_nulls,
        ),
        "timestampType": pa.array(timestamp_types.astype(np.int32)),
    }
    if include_headers:
        columns["headers"] = _headers_column(view, starts)
    return columns


def _headers_column(view: RecordView, starts) -> pa.Array:
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
    struct = pa.StructArray.from_arrays([keys, values], fields=list(HEADERS_TYPE.value_type))
    # null where Kafka has no headers: records of magic 0 and 1
    legacy = view.batches["magic"] < 2
    validity, nulls = None, 0
    if legacy.any():
        has_headers = ~np.repeat(legacy, np.diff(starts))
        validity = pa.py_buffer(np.packbits(has_headers, bitorder="little"))
        nulls = int(np.count_nonzero(~has_headers))
    return pa.Array.from_buffers(
        HEADERS_TYPE,
        len(view),
        [validity, pa.py_buffer(list_offsets)],
        null_count=nulls,
        children=[struct],
    )


def binary_field(view: RecordView, which: str) -> pa.Array:
    """The view's keys (``which="key"``) or values as one binary column."""
    kp, kl, vp, vl = view._columns()
    pos, lengths = (kp, kl) if which == "key" else (vp, vl)
    return _binary_column(view, pos, lengths, view._record_starts(), "plain")


def headers_field(view: RecordView) -> pa.Array | None:
    """The view's headers column (None when no record has a header)."""
    if not view.num_headers:
        return None
    return _headers_column(view, view._record_starts())


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


def kafka_batches(
    view: RecordView,
    topic: str | None,
    partition: int | None,
    *,
    include_headers: bool = True,
    binary: str = "plain",
    start: int = 0,
    stop: int | None = None,
    max_rows: int = MAX_ROWS_PER_BATCH,
) -> list[pa.RecordBatch]:
    """Rows ``start:stop`` of ``view`` as record batches of at most ``max_rows`` rows in the
    Kafka columns' schema (:func:`arrow_schema`)."""
    schema = arrow_schema(include_headers, binary)
    stop = len(view) if stop is None else stop
    if stop <= start:
        return []
    columns = _record_columns(view, binary, include_headers)
    out = []
    for lo in range(start, stop, max_rows):
        n = min(max_rows, stop - lo)
        part = {name: column.slice(lo, n) for name, column in columns.items()}
        arrays = [
            part["key"],
            part["value"],
            _repeat_string(topic, n),
            _repeat_int32(partition, n),
            part["offset"],
            part["timestamp"],
            part["timestampType"],
        ]
        if include_headers:
            arrays.append(part["headers"])
        out.append(pa.RecordBatch.from_arrays(arrays, schema=schema))
    return out


def record_view_to_arrow(
    view: RecordView,
    *,
    binary: str = "plain",
    topic: str | None = None,
    partition: int | None = None,
    include_headers: bool = True,
) -> pa.Table:
    batches = kafka_batches(
        view,
        topic,
        partition,
        include_headers=include_headers,
        binary=binary,
        max_rows=max(len(view), 1),
    )
    return pa.Table.from_batches(batches, schema=arrow_schema(include_headers, binary))


def to_pandas(table: pa.Table):
    """A pandas DataFrame of a table of Kafka columns: ``partition`` as pandas' nullable
    ``Int32`` whether it is known or not (pandas makes an int32 column with nulls float64, so
    a bare view's and a consumer batch's frames would differ), the rest as Arrow converts it."""
    import pandas as pd

    frame = table.to_pandas()
    if "partition" in table.column_names:
        frame["partition"] = table.column("partition").to_pandas(
            types_mapper={pa.int32(): pd.Int32Dtype()}.get
        )
    return frame
