"""What the encoders share: the framing a written value starts with, a column made plain
(Arrow types whose ``to_pylist`` gives what fastavro, ``json`` and protobuf's ``json_format``
take), and an Avro schema's named types looked up (for the Python and the compiled Avro
writers alike)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa

# what turns one to_pylist value into what a writer takes (None: nothing to do)
Converter = Callable[[Any], Any]


def framing(schema_id: int) -> bytes:
    """Magic byte 0 and the 4-byte big-endian schema id."""
    if not 0 <= schema_id < 1 << 32:
        raise ValueError(f"schema id {schema_id} does not fit 4 bytes")
    return b"\x00" + schema_id.to_bytes(4, "big")


def plain(column: pa.Array) -> pa.Array:
    """The column with types to_pylist gives what fastavro writes: views and large types to
    plain ones, timestamps to microseconds, date64 to date32, durations to int64
    microseconds, dictionaries decoded."""
    target = _plain_type(column.type)
    if target == column.type:
        return column
    return _cast(column, target)


def _cast(column: pa.Array, target: pa.DataType) -> pa.Array:
    t = column.type
    if pa.types.is_duration(t):
        return column.cast(pa.duration("us"), safe=False).cast(pa.int64())
    if pa.types.is_dictionary(t):
        return _cast(column.dictionary_decode(), target)
    if pa.types.is_struct(t):
        children = [_cast(column.field(k), target.field(k).type) for k in range(t.num_fields)]
        return pa.StructArray.from_arrays(
            children,
            fields=[target.field(k) for k in range(t.num_fields)],
            mask=column.is_null() if column.null_count else None,
        )
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        if pa.types.is_fixed_size_list(t) or pa.types.is_large_list(t):
            column = column.cast(pa.list_(t.value_field))
        offsets, values = list_parts(column)
        values = _cast(values, target.value_type)
        return pa.ListArray.from_arrays(
            offsets, values, type=target, mask=column.is_null() if column.null_count else None
        )
    if pa.types.is_map(t):
        offsets, entries = list_parts(column)
        keys = _cast(entries.field(0), target.key_type)
        items = _cast(entries.field(1), target.item_type)
        return pa.MapArray.from_arrays(
            offsets,
            keys,
            items,
            type=target,
            mask=column.is_null() if column.null_count else None,
        )
    return column.cast(target, safe=False)


def list_parts(column: pa.Array) -> tuple[pa.Array, pa.Array]:
    """(offsets from 0, the values they index) of a list or map array, sliced or not."""
    offsets = column.offsets
    start, end = offsets[0].as_py(), offsets[-1].as_py()
    values = column.values.slice(start, end - start)
    if start:
        offsets = pa.array(offsets.to_numpy() - start, offsets.type)
    return offsets, values


def _plain_type(t: pa.DataType) -> pa.DataType:
    if pa.types.is_dictionary(t):
        return _plain_type(t.value_type)
    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return pa.binary()
    if pa.types.is_timestamp(t):
        return pa.timestamp("us", tz=t.tz)
    if pa.types.is_date64(t):
        return pa.date32()
    if pa.types.is_duration(t):
        return pa.int64()
    if pa.types.is_time64(t):
        return pa.time64("us")
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        f = t.value_field
        return pa.list_(f.with_type(_plain_type(f.type)))
    if pa.types.is_map(t):
        return pa.map_(
            t.key_field.with_type(_plain_type(t.key_type)),
            t.item_field.with_type(_plain_type(t.item_type)),
        )
    if pa.types.is_struct(t):
        return pa.struct(
            [t.field(k).with_type(_plain_type(t.field(k).type)) for k in range(t.num_fields)]
        )
    return t


def resolve_named(schema: Any, named: dict) -> Any:
    """The schema with names looked up and ``{"type": <schema>}`` wrappers unwrapped (one
    with a logicalType kept), as the writers (avro_writer.py, _avro_encode.pyx) walk it."""
    while isinstance(schema, str) and schema in named:
        schema = named[schema]
    if isinstance(schema, dict) and isinstance(schema.get("type"), (dict, list)):
        return resolve_named(schema["type"], named) if "logicalType" not in schema else schema
    return schema
