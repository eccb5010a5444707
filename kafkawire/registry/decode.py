"""A column of registry-framed values to one Arrow struct column.

The framing of Confluent's serializers: magic byte 0 and a 4-byte big-endian schema id, or
magic byte 1 and a 16-byte schema GUID, then the payload (Protobuf adds its message indexes
after the id). Newer serializers may put the id or GUID in a record header
(``__value_schema_id`` / ``__key_schema_id``) and leave the payload bare; with ``headers=``
given, a row with that header is read that way.

The framing is read for the whole column at once (in C over the values); the payloads then
go to the format's decoder: Avro and Protobuf in kafkawire's C, one pass over the column with a
program per writer schema, JSON Schema through Arrow's C++ JSON reader.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kafkawire.registry.errors import PayloadError, SchemaError, SchemaNotFoundError

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema, SchemaRegistryClient

VALUE_SCHEMA_HEADER = "__value_schema_id"
KEY_SCHEMA_HEADER = "__key_schema_id"
OnError = Literal["raise", "null"]
_FORMATS = {"avro": "AVRO", "protobuf": "PROTOBUF", "json": "JSON"}


@dataclass
class Decoded:
    """The result of :func:`decode_column`: one row per input value.

    ``values`` is null where the input was null or did not decode; ``errors`` says why for the
    latter (null elsewhere); ``schema_ids`` is each row's writer schema id (null where there
    was none, or where the schema was named by GUID only).
    """

    values: pa.StructArray
    errors: pa.StringArray
    schema_ids: pa.Int32Array

    @property
    def error_count(self) -> int:
        return len(self.errors) - self.errors.null_count


@dataclass
class _Frames:
    """Where each value's payload is, and which schema it names."""

    data: np.ndarray  # uint8, the column's data buffer
    starts: np.ndarray  # int64 payload start (after the framing)
    ends: np.ndarray  # int64 payload end
    keys: np.ndarray  # int64: index into `schemas` (-1 null value, -2 bad framing)
    schemas: list  # ("id", int) or ("guid", str)
    errors: dict[int, str]  # row -> framing error
    # row -> the bytes after the id or GUID of a schema-id header (Protobuf's message indexes
    # travel there when the id does)
    header_tails: dict[int, bytes] = field(default_factory=dict)
    # every payload's first byte is 0 (Protobuf: the message indexes [0]), as the framing
    # scan saw in passing
    zero_first: bool = False


@dataclass
class _Extents:
    """Where each value of a binary column lies: data[starts[i]:ends[i]] unless not valid[i]."""

    data: np.ndarray  # uint8
    starts: np.ndarray  # int64
    ends: np.ndarray  # int64
    valid: np.ndarray  # bool


def _binary_parts(column: pa.Array) -> _Extents:
    """The extents of a binary-like array's values, read in place."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    t = column.type
    if pa.types.is_binary_view(t) or pa.types.is_string_view(t):
        column = column.cast(pa.large_binary())
        t = column.type
    if pa.types.is_string(t):
        column = column.cast(pa.binary())
    elif pa.types.is_large_string(t):
        column = column.cast(pa.large_binary())
    t = column.type
    if not (pa.types.is_binary(t) or pa.types.is_large_binary(t)):
        raise TypeError(f"a binary column is needed, not {t}")
    n = len(column)
    _validity, offsets_buf, data_buf = column.buffers()
    dtype = np.int64 if pa.types.is_large_binary(t) else np.int32
    offsets = np.frombuffer(offsets_buf, dtype=dtype)[column.offset : column.offset + n + 1]
    data = (
        np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    )
    valid = column.is_valid().to_numpy(zero_copy_only=False) if column.null_count else None
    if valid is None:
        valid = np.ones(n, dtype=bool)
    offsets = offsets.astype(np.int64)
    return _Extents(data, offsets[:-1], offsets[1:], valid)


def _header_ids(headers: pa.Array | None, name: str, n: int) -> dict[int, bytes]:
    """Row -> the value of header ``name`` (the last one, as a consumer reads them)."""
    if headers is None:
        return {}
    if isinstance(headers, pa.ChunkedArray):
        headers = headers.combine_chunks()
    if len(headers) != n:
        raise ValueError(f"headers has {len(headers)} rows for {n} values")
    flat = headers.flatten()
    if len(flat) == 0:
        return {}
    hit = pc.equal(flat.field("key"), name).fill_null(False).to_numpy(zero_copy_only=False)
    if not hit.any():
        return {}
    parents = pc.list_parent_indices(headers).to_numpy()
    values = flat.field("value")
    return {int(parents[i]): values[int(i)].as_py() for i in np.flatnonzero(hit)}


def frame(
    column: pa.Array | _Extents, headers: pa.Array | None = None, *, key: bool = False
) -> _Frames:
    """Reads the framing of every value (see the module docstring)."""
    from kafkawire.registry._avro import scan_framing, single_schema_id

    ext = column if isinstance(column, _Extents) else _binary_parts(column)
    data, valid = ext.data, ext.valid
    n = len(valid)
    if not len(data):
        data = np.zeros(1, np.uint8)
    ends = np.ascontiguousarray(ext.ends)  # read only: no copy
    header_ids = _header_ids(headers, KEY_SCHEMA_HEADER if key else VALUE_SCHEMA_HEADER, n)
    single_id, zero_first = (
        (-1, False)
        if header_ids
        else single_schema_id(data, ext.starts, ends, valid.view(np.uint8))
    )
    if single_id >= 0:  # the usual column: one schema id, every value
        starts = ext.starts + 5
        keys = np.zeros(n, np.int64)
        return _Frames(ext.data, starts, ends, keys, [("id", single_id)], {}, {}, zero_first)
    starts, magic, ids = scan_framing(data, ext.starts, ends, valid.view(np.uint8))
    data = ext.data
    lengths = ends - ext.starts
    keys = np.full(n, -2, dtype=np.int64)
    keys[~valid] = -1
    errors: dict[int, str] = {}
    schemas: list = []
    index: dict = {}

    def intern(ref) -> int:
        if ref not in index:
            index[ref] = len(schemas)
            schemas.append(ref)
        return index[ref]

    # an id in a header wins: the payload is then bare (its first byte means nothing)
    in_header = np.zeros(n, dtype=bool)
    header_tails: dict[int, bytes] = {}
    for row, value in header_ids.items():
        if not valid[row]:
            continue
        in_header[row] = True
        starts[row] = ext.starts[row]
        ref = _header_ref(value)
        if ref is None:
            errors[row] = "the schema id header is neither magic 0 + id nor magic 1 + GUID"
            continue
        keys[row] = intern(ref)
        header_tails[row] = bytes(value[17 if value[0] == 1 else 5 :])
    magic[in_header] = -3
    by_id = magic == 0
    if by_id.any():
        first = ids[np.argmax(by_id)]
        if (ids[by_id] == first).all():  # the usual column: one schema
            keys[by_id] = intern(("id", int(first)))
        else:
            uniq, inverse = np.unique(ids[by_id], return_inverse=True)
            mapped = np.array([intern(("id", int(u))) for u in uniq], dtype=np.int64)
            keys[by_id] = mapped[inverse]
    for row in np.flatnonzero(magic == 1):
        s = int(ext.starts[row])
        keys[row] = intern(("guid", str(uuid.UUID(bytes=bytes(data[s + 1 : s + 17])))))
    for row in np.flatnonzero(keys == -2):
        row = int(row)
        if row in errors:
            continue
        length = int(lengths[row])
        first = int(data[ext.starts[row]]) if length else None
        if first in (0, 1):
            errors[row] = f"a {length}-byte value is too short for its framing (magic {first})"
        elif first is None:
            errors[row] = "an empty value has no schema registry framing"
        else:
            errors[row] = f"magic byte {first} at byte 0: not schema registry framing"
    return _Frames(data, starts, ends, keys, schemas, errors, header_tails)


def _header_ref(value: bytes | None):
    if value and value[0] == 1 and len(value) >= 17:
        return ("guid", str(uuid.UUID(bytes=bytes(value[1:17]))))
    if value and value[0] == 0 and len(value) >= 5:
        return ("id", int.from_bytes(value[1:5], "big"))
    return None


def _fetch(registry: SchemaRegistryClient, ref) -> Schema:
    kind, what = ref
    return registry.schema_by_id(what) if kind == "id" else registry.schema_by_guid(what)


def decode_column(
    column: pa.Array | _Extents,
    registry: SchemaRegistryClient,
    *,
    headers: pa.Array | None = None,
    key: bool = False,
    reader_schema: Schema | int | None = None,
    format: str | None = None,
    on_error: OnError = "raise",
) -> Decoded:
    """Decodes a binary column of registry-framed values into one Arrow struct column.

    :param column: the values (binary, large_binary or binary_view; a RecordView's values as
        ``view.to_arrow()["value"]``, or use ``view.decode_values``, which reads them in
        place).
    :param registry: a :class:`~kafkawire.registry.SchemaRegistryClient` (HTTP or a
        directory).
    :param headers: the records' headers column (list<struct<key, value>>), for values whose
        schema id travels in a ``__value_schema_id`` header.
    :param key: the column holds keys (the ``__key_schema_id`` header).
    :param reader_schema: the schema to read every value as (the others resolved to it by the
        format's evolution rules): a Schema, a schema id, or None for the newest writer schema
        in the column (the highest id).
    :param format: "avro", "protobuf" or "json": refuse values of another format (None: the
        writer schemas' format; they must agree).
    :param on_error: "raise" a :class:`PayloadError` at the first bad value, or "null": bad
        values become null rows with the reason in ``errors``.
    """
    if on_error not in ("raise", "null"):
        raise ValueError(f"on_error must be 'raise' or 'null', not {on_error!r}")
    if format is not None and format not in _FORMATS:
        raise ValueError(f"format must be one of {sorted(_FORMATS)}, not {format!r}")
    frames = frame(column, headers, key=key)
    n = len(frames.keys)
    if on_error == "raise" and frames.errors:
        row = min(frames.errors)
        raise PayloadError(frames.errors[row], row=row, offset=0, field="framing")
    keys = frames.keys  # copied before a change (most columns have none)
    errors = dict(frames.errors)
    writers = []
    for k, ref in enumerate(frames.schemas):
        try:
            writers.append(_fetch(registry, ref))
        except SchemaNotFoundError as exc:
            # every value naming it is bad alike: null rows, by option (registry down, on
            # the other hand, is no verdict on the values: RegistryUnavailableError goes up)
            if on_error == "raise":
                raise
            writers.append(None)
            rows = np.flatnonzero(keys == k)
            for row in rows:
                errors[int(row)] = str(exc)  # names the id or GUID and the registry
            keys = keys.copy()
            keys[rows] = -2
    if isinstance(reader_schema, int):
        reader_schema = registry.schema_by_id(reader_schema)
    if reader_schema is None:
        reader_schema = _newest(writers)
    if reader_schema is None:
        if not errors_possible(frames) or (on_error == "null" and not (keys >= 0).any()):
            # nothing to decode and no schema to say the type: null rows of an empty struct
            return Decoded(pa.nulls(n, pa.struct([])), _errors(errors, n), pa.nulls(n, pa.int32()))
        wanted = _FORMATS[format] if format else "AVRO"
        raise SchemaError(
            f"no value in the column names a schema: pass reader_schema= ({wanted} expected)"
        )
    kind = reader_schema.schema_type or "AVRO"
    if format is not None and _FORMATS[format] != kind:
        raise SchemaError(f"the reader schema is {kind}, not {format}")
    for k, w in enumerate(writers):
        if w is not None and (w.schema_type or "AVRO") != kind:
            rows = np.flatnonzero(keys == k)
            for row in rows:
                errors[int(row)] = (
                    f"schema {_name(frames.schemas[k])} is {w.schema_type}, not {kind}"
                )
            keys = keys.copy()
            keys[rows] = -2
    decoder = _decoder(kind)
    values, failed = decoder(registry, reader_schema, writers, frames, keys)
    errors.update(failed)
    if on_error == "raise" and errors:
        row = min(errors)
        raise PayloadError(errors[row], row=row, field="value")
    if not errors and len(writers) == 1 and writers[0].schema_id is not None and (keys == 0).all():
        return Decoded(values, _errors(errors, n), _repeat_int32(writers[0].schema_id, n))
    ids = np.full(n, -1, dtype=np.int64)
    schema_id_of = np.array(
        [-1 if w is None or w.schema_id is None else w.schema_id for w in writers] or [-1],
        dtype=np.int64,
    )
    good = keys >= 0
    for row in errors:
        good[row] = False
    ids[good] = schema_id_of[keys[good]]
    return Decoded(values, _errors(errors, n), pa.array(ids, pa.int32(), mask=ids < 0))


def _repeat_int32(value: int, n: int) -> pa.Int32Array:
    return pa.Array.from_buffers(pa.int32(), n, [None, pa.py_buffer(np.full(n, value, np.int32))])


def _errors(errors: dict[int, str], n: int) -> pa.StringArray:
    """The error column: each failed row's reason, null elsewhere."""
    if not errors:
        return pa.nulls(n, pa.string())
    column = [None] * n
    for row, text in errors.items():
        column[row] = text
    return pa.array(column, pa.string())


def decode_view(
    view,
    registry: SchemaRegistryClient,
    *,
    key: bool = False,
    reader_schema: Schema | int | None = None,
    format: str | None = None,
    on_error: OnError = "raise",
) -> Decoded:
    """decode_column over a RecordView's keys or values (with its headers, for ids carried
    in a ``__value_schema_id`` / ``__key_schema_id`` header)."""
    from kafkawire.records.arrow import binary_field, headers_field

    extents = view._extents(key)  # the values read where they are, when in one buffer
    try:
        return decode_column(
            _Extents(*extents)
            if extents is not None
            else binary_field(view, "key" if key else "value"),
            registry,
            headers=headers_field(view),
            key=key,
            reader_schema=reader_schema,
            format=format,
            on_error=on_error,
        )
    except PayloadError as exc:
        if exc.row is None:
            raise
        raise exc.located(f"offset {int(view.offsets[exc.row])}") from exc


def record_name(columns: Mapping[str, Any], row: int) -> str:
    """``topic-partition offset N`` of a row of Spark's Kafka columns (arrays by name), as
    Kafka names a partition; what of it is missing or null is left out."""

    def cell(name: str):
        column = columns.get(name)
        return None if column is None else column[row].as_py()

    topic, partition, offset = cell("topic"), cell("partition"), cell("offset")
    if partition is not None:
        topic = f"{topic}-{partition}" if topic else f"partition {partition}"
    return f"{topic} offset {offset}" if topic else f"offset {offset}"


def errors_possible(frames: _Frames) -> bool:
    """Whether any value is not null (all-null columns need no schema)."""
    return bool((frames.keys != -1).any())


def _name(ref) -> str:
    return f"id {ref[1]}" if ref[0] == "id" else f"GUID {ref[1]}"


def _newest(writers: list) -> Any:
    known = [w for w in writers if w is not None]
    if not known:
        return None
    return max(known, key=lambda s: -1 if s.schema_id is None else s.schema_id)


def _decoder(kind: str):
    if kind == "AVRO":
        return _decode_avro
    if kind == "PROTOBUF":
        from kafkawire.registry.protobuf import decode_frames

        return decode_frames
    if kind == "JSON":
        from kafkawire.registry.json_reader import decode_frames

        return decode_frames
    raise SchemaError(f"schema type {kind!r} unsupported")


# ---- Avro ---------------------------------------------------------------------------------


def avro_named(registry: SchemaRegistryClient | None, schema: Schema) -> tuple[Any, dict]:
    """(the parsed Avro schema, its named types including those of its references)."""
    from kafkawire.registry import avro

    named: dict = {}
    if schema.references:
        if registry is None:
            raise SchemaError("a schema with references needs a registry to resolve them")
        refs = registry.references(schema)
        done: set = set()

        def visit(s) -> None:
            for r in s.references:
                if r.name in done:
                    continue
                done.add(r.name)
                target = refs.get(r.name)
                if target is None:
                    raise SchemaError(f"reference {r.name!r} not found in the registry")
                visit(target)
                avro.parse(target.schema_str, named)

        visit(schema)
    return avro.parse(schema.schema_str, named), named


def _decode_avro(registry, reader: Schema, writers: list, frames: _Frames, keys: np.ndarray):
    from kafkawire.registry import _avro, avro

    rparsed, rnamed = avro_named(registry, reader)
    # the writer schemas present (keys are small: a count, not a sort of the column)
    used = np.flatnonzero(np.bincount(np.maximum(keys, -1) + 1)[1:]).tolist()
    parsed = [avro_named(registry, writers[k]) for k in used]
    compiled = avro.compile_programs(rparsed, rnamed, parsed)
    program_of = np.full(len(writers) + 2, -1, dtype=np.int32)
    for p, k in enumerate(used):
        program_of[k] = p
    which = program_of[keys]  # keys -1 and -2 index program_of's last two entries: -1
    table = _avro.ColumnTable(compiled.layout.kinds, compiled.layout.types)
    data = frames.data if len(frames.data) else np.zeros(1, np.uint8)
    rows, codes, nodes, offsets = _avro.decode(
        table, compiled.root, compiled.programs, data, frames.starts, frames.ends, which
    )
    values = table.finish(compiled.root)
    failed = {}
    for row, code, node, off in zip(
        rows.tolist(), codes.tolist(), nodes.tolist(), offsets.tolist(), strict=True
    ):
        p = int(which[row])
        path = compiled.paths[p][node]
        text = compiled.messages[p].get(node) or avro.ERROR_TEXT.get(code, f"error {code}")
        failed[row] = f"{text} (field {path}, byte {off} of the Avro payload)"
    return values, failed
