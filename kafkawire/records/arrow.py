"""Arrow export of a RecordView (pyarrow is an optional dependency).

Keys and values become binary_view columns whose data buffers are the input
buffer and the decompressed payloads themselves, so nothing is copied but the
16-byte view structs; "plain"/"large" copy into the classic binary layouts that
every Arrow consumer reads.  Offsets and timestamps are the view's own arrays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kafkawire.errors import CorruptError

if TYPE_CHECKING:
    import pyarrow as pa

    from kafkawire.records._decode import RecordView

_BINARY_KINDS = ("view", "plain", "large")


def _validity(lengths: np.ndarray):
    import pyarrow as pa

    nulls = int(np.count_nonzero(lengths < 0))
    if not nulls:
        return None, 0
    return pa.py_buffer(np.packbits(lengths >= 0, bitorder="little")), nulls


def _binary_column(view: RecordView, pos, lengths, starts, kind: str) -> pa.Array:
    import pyarrow as pa

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
    import pyarrow as pa

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
    import pyarrow as pa

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
