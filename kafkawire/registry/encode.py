"""Arrow struct columns to schema-registry framed values (magic byte 0, the 4-byte big-endian
schema id, then the Avro binary encoding or the JSON text), for the Spark sink and other
producers. :func:`encode_json` and :func:`json_schema_for` are the JSON Schema side (see
their docstrings); the rest of this docstring is Avro's.

:func:`encode_avro` checks every row against the schema (fastavro's validation) before it is
written, and raises :class:`EncodeError` naming the row and the field that does not fit.
:func:`avro_schema_for` derives an Avro schema from an Arrow (or Spark, through Arrow) struct
type when none is given:

============================================  =============================================
Arrow                                         Avro
============================================  =============================================
null                                          null
bool                                          boolean
int8, int16, int32, uint8, uint16             int
int64, uint32                                 long
uint64                                        bytes, decimal(20, 0)
float16, float32 / float64                    float / double
string, large_string, string_view             string
binary, large_binary, binary_view             bytes
fixed_size_binary(n)                          fixed (size n, named after the field)
decimal128/256(p, s)                          bytes, decimal(p, s)
date32, date64                                int, date
time32                                        int, time-millis
time64                                        long, time-micros
timestamp (with a time zone)                  long, timestamp-micros
timestamp (without)                           long, local-timestamp-micros
duration                                      long (microseconds)
list, large_list, fixed_size_list             array
map<string, T>                                map
struct                                        record (nested: named after the field, in the
                                              parent's namespace + "." + the parent's name,
                                              as Spark's to_avro names them)
dictionary<T>                                 T
a nullable field or element                   ["null", T] (a field: with default null)
============================================  =============================================
"""

from __future__ import annotations

import decimal
import io
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from kafkawire import errors
from kafkawire.registry.errors import SchemaError

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema, SchemaRegistryClient


class EncodeError(errors.EncodeError):
    """A row that does not fit the schema it is written with (kafkawire's EncodeError, with
    the row and the field)."""

    def __init__(self, message: str, *, row: int | None = None, field: str | None = None):
        self.row = row
        self.field = field
        super().__init__(message)


# ---- avro_schema_for ----------------------------------------------------------------------


def avro_schema_for(
    arrow_type: pa.DataType, name: str = "topLevelRecord", namespace: str = ""
) -> dict:
    """An Avro record schema for values of the Arrow struct type (see the module docstring).

    :param name: the record's name.
    :param namespace: its namespace ("" for none).
    :raises SchemaError: a type with no Avro counterpart (a map with non-string keys, an
        Arrow union, a month_day_nano interval), or not a struct.
    """
    if not pa.types.is_struct(arrow_type):
        raise SchemaError(f"an Avro record is derived from a struct type, not {arrow_type}")
    return _record(arrow_type, name, namespace, "")


def _record(t: pa.StructType, name: str, namespace: str, path: str) -> dict:
    record: dict[str, Any] = {"type": "record", "name": name}
    if namespace:
        record["namespace"] = namespace
    child_namespace = f"{namespace}.{name}" if namespace else name
    fields = []
    for k in range(t.num_fields):
        f = t.field(k)
        avro = _avro(f.type, f.name, child_namespace, f"{path}{f.name}")
        if f.nullable and avro != "null":
            fields.append({"name": f.name, "type": ["null", avro], "default": None})
        else:
            fields.append({"name": f.name, "type": avro})
    record["fields"] = fields
    return record


def _avro(t: pa.DataType, name: str, namespace: str, path: str) -> Any:
    if pa.types.is_dictionary(t):
        return _avro(t.value_type, name, namespace, path)
    if pa.types.is_null(t):
        return "null"
    if pa.types.is_boolean(t):
        return "boolean"
    if t in (pa.int8(), pa.int16(), pa.int32(), pa.uint8(), pa.uint16()):
        return "int"
    if t in (pa.int64(), pa.uint32()):
        return "long"
    if t == pa.uint64():
        return {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 0}
    if pa.types.is_float16(t) or pa.types.is_float32(t):
        return "float"
    if pa.types.is_float64(t):
        return "double"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return "bytes"
    if pa.types.is_fixed_size_binary(t):
        return {"type": "fixed", "name": name, "namespace": namespace, "size": t.byte_width}
    if pa.types.is_decimal(t):
        return {
            "type": "bytes",
            "logicalType": "decimal",
            "precision": t.precision,
            "scale": t.scale,
        }
    if pa.types.is_date(t):
        return {"type": "int", "logicalType": "date"}
    if pa.types.is_time32(t):
        return {"type": "int", "logicalType": "time-millis"}
    if pa.types.is_time64(t):
        return {"type": "long", "logicalType": "time-micros"}
    if pa.types.is_timestamp(t):
        logical = "timestamp-micros" if t.tz is not None else "local-timestamp-micros"
        return {"type": "long", "logicalType": logical}
    if pa.types.is_duration(t):
        return "long"
    if (
        pa.types.is_list(t)
        or pa.types.is_large_list(t)
        or pa.types.is_fixed_size_list(t)
        or pa.types.is_list_view(t)
        or pa.types.is_large_list_view(t)
    ):
        item = t.value_field
        avro = _avro(item.type, name, namespace, f"{path}[]")
        return {"type": "array", "items": ["null", avro] if item.nullable else avro}
    if pa.types.is_map(t):
        key = t.key_type
        if not (pa.types.is_string(key) or pa.types.is_large_string(key)):
            raise SchemaError(f"field {path}: an Avro map has string keys, not {key}")
        item = t.item_field
        avro = _avro(item.type, name, namespace, f"{path}{{}}")
        return {"type": "map", "values": ["null", avro] if item.nullable else avro}
    if pa.types.is_struct(t):
        return _record(t, name, namespace, f"{path}.")
    raise SchemaError(f"field {path}: Arrow type {t} has no Avro counterpart")


# ---- encode_avro --------------------------------------------------------------------------


def framing(schema_id: int) -> bytes:
    """Magic byte 0 and the 4-byte big-endian schema id."""
    if not 0 <= schema_id < 1 << 32:
        raise ValueError(f"schema id {schema_id} does not fit 4 bytes")
    return b"\x00" + schema_id.to_bytes(4, "big")


def writer_schema(schema: Schema, registry: SchemaRegistryClient | None = None) -> Any:
    """The schema parsed for fastavro's writer (its references' named types resolved
    through ``registry``)."""
    import fastavro

    from kafkawire.registry.decode import avro_named

    if (schema.schema_type or "AVRO") != "AVRO":
        raise SchemaError(f"an Avro schema is needed, not {schema.schema_type}")
    _parsed, named = avro_named(registry, schema)
    try:
        return fastavro.parse_schema(json.loads(schema.schema_str), named_schemas=named)
    except Exception as exc:  # fastavro raises a variety of types for bad schemas
        raise SchemaError(f"bad Avro schema: {exc}") from exc


def encode_avro(
    struct_array: pa.Array,
    schema: Schema,
    *,
    registry: SchemaRegistryClient | None = None,
    parsed: Any = None,
) -> pa.BinaryArray:
    """Each row of ``struct_array`` as magic 0 + ``schema.schema_id`` + its Avro encoding
    (a null row stays null: a tombstone).

    A record schema takes the struct's fields by name (fields the schema does not have are
    an error; fields it has but the struct lacks take the schema's default). Any other
    top-level schema takes the struct's single field (``struct<value: T>``, as
    :func:`~kafkawire.registry.decode.decode_column` gives such values).

    :param registry: resolves the schema's references (when it has any).
    :param parsed: the schema already parsed by :func:`writer_schema` (saves parsing it per
        call).
    :raises EncodeError: a row that does not fit, naming the row and the field.
    """
    if schema.schema_id is None:
        raise ValueError("the schema has no id: register it (or look it up) first")
    prefix = framing(schema.schema_id)
    if parsed is None:
        parsed = writer_schema(schema, registry)
    if isinstance(struct_array, pa.ChunkedArray):
        struct_array = struct_array.combine_chunks()
    if not pa.types.is_struct(struct_array.type):
        raise TypeError(f"a struct column is needed, not {struct_array.type}")
    named = parsed.get("__named_schemas", {}) if isinstance(parsed, dict) else {}
    is_record = isinstance(parsed, dict) and parsed.get("type") == "record"
    column: pa.Array = struct_array
    if not is_record:
        if struct_array.type.num_fields != 1:
            raise EncodeError(
                f"a non-record Avro schema ({_describe(parsed)}) takes a struct of one field, "
                f"not {struct_array.type}"
            )
        column = struct_array.field(0)
        if struct_array.null_count:  # a null row is null whatever its field holds
            column = pa.compute.if_else(struct_array.is_valid(), column, None)
    else:
        _check_fields(struct_array.type, parsed)
    column = _plain(column)
    compiled = _encode_compiled(column, struct_array, parsed, named, prefix, is_record)
    if compiled is not None:
        return compiled
    convert = _converter(column.type, parsed, named)
    # rows are validated unless the column's type cannot hold a value the schema refuses
    # that fastavro's writer would write anyway (an int past 32 bits for an Avro int...)
    check = not _fits(column.type, parsed, named)
    rows = column.to_pylist()
    from fastavro import schemaless_writer
    from fastavro.validation import validate

    out: list[bytes | None] = []
    buffer = io.BytesIO()
    valid = struct_array.is_valid().to_pylist() if struct_array.null_count else None
    for i, row in enumerate(rows):
        if valid is not None and not valid[i]:
            out.append(None)
            continue
        if row is None and is_record:
            out.append(None)
            continue
        if convert is not None:
            row = convert(row)
        if check and not validate(row, parsed, raise_errors=False, strict=is_record):
            _raise_for(i, row, parsed, is_record)
        buffer.seek(0)
        buffer.truncate()
        try:
            schemaless_writer(buffer, parsed, row, strict_allow_default=is_record)
        except Exception as exc:
            if not check:  # say which field, as a checked row would
                _raise_for(i, row, parsed, is_record)
            raise EncodeError(f"row {i}: {exc}", row=i) from exc
        out.append(prefix + buffer.getvalue())
    return pa.array(out, pa.binary())


def _encode_compiled(
    column: pa.Array, rows: pa.Array, parsed: Any, named: dict, prefix: bytes, is_record: bool
) -> pa.BinaryArray | None:
    """The column written by the compiled encoder (kafkawire.registry._avro_encode), or None
    when it does not take the (schema, type) pair or a row fails: fastavro's path then
    writes the column (and names a failing row as it always has)."""
    try:
        from kafkawire.registry import _avro_encode
    except ImportError:  # pragma: no cover - a build without the extension
        return None
    try:
        program = _avro_encode.Program(column, parsed, named, rows)
    except _avro_encode.Unsupported:
        return None
    out, failed = program.encode(prefix, len(rows))
    if failed is None:
        return out
    row, field, text, _code = failed
    # fastavro's path raises for the same row with the same message as ever; should it
    # accept the row, the compiled path's reason is raised
    _encode_fallback_row(column, rows, row, parsed, named, is_record)
    what = f"field {field}" if field else "the value"
    raise EncodeError(f"row {row}: {what}: {text}", row=row, field=field or None)


def _encode_fallback_row(
    column: pa.Array, rows: pa.Array, row: int, parsed: Any, named: dict, is_record: bool
) -> None:
    """Raises fastavro's path's EncodeError for ``row`` (if it has one)."""
    from fastavro import schemaless_writer

    if not rows[row].is_valid:
        return
    value = column[row].as_py()
    convert = _converter(column.type, parsed, named)
    if convert is not None:
        value = convert(value)
    from fastavro.validation import validate

    if not validate(value, parsed, raise_errors=False, strict=is_record):
        _raise_for(row, value, parsed, is_record)
    try:
        schemaless_writer(io.BytesIO(), parsed, value, strict_allow_default=is_record)
    except Exception as exc:
        raise EncodeError(f"row {row}: {exc}", row=row) from exc


_SAFE_LEAVES = {
    "int": lambda t: t in (pa.int8(), pa.int16(), pa.int32(), pa.uint8(), pa.uint16()),
    "long": lambda t: pa.types.is_signed_integer(t) or t in (pa.uint8(), pa.uint16(), pa.uint32()),
    "float": lambda t: pa.types.is_float32(t) or pa.types.is_float16(t),
    "double": lambda t: pa.types.is_floating(t),
    "string": lambda t: pa.types.is_string(t),
    "bytes": lambda t: pa.types.is_binary(t),
    "boolean": lambda t: pa.types.is_boolean(t),
    "null": lambda t: pa.types.is_null(t),
}


def _fits(t: pa.DataType, schema: Any, named: dict) -> bool:
    """Whether every value of Arrow type ``t`` (after :func:`_plain`) that fastavro's writer
    accepts for ``schema`` is one the schema allows: then rows need no validation (a value
    the writer refuses, a null for a non-null type, still fails the row). False when unsure."""
    schema = _resolve(schema, named)
    if isinstance(schema, list):
        branches = [_resolve(b, named) for b in schema]
        nonnull = [b for b in branches if b != "null"]
        return len(nonnull) == 1 and len(branches) == 2 and _fits(t, nonnull[0], named)
    if isinstance(schema, str):
        safe = _SAFE_LEAVES.get(schema)
        return safe is not None and safe(t)
    if not isinstance(schema, dict):
        return False
    kind, logical = schema.get("type"), schema.get("logicalType")
    if logical == "decimal":
        return (
            pa.types.is_decimal(t)
            and t.scale == schema.get("scale", 0)
            and t.precision <= schema.get("precision", 0)
        )
    if logical == "date":
        return pa.types.is_date32(t)
    if logical in ("timestamp-micros", "timestamp-millis"):
        return pa.types.is_timestamp(t) and t.tz is not None
    if logical in ("local-timestamp-micros", "local-timestamp-millis"):
        return pa.types.is_timestamp(t) and t.tz is None
    if logical is not None:
        return False
    if kind == "array":
        return pa.types.is_list(t) and _fits(t.value_type, schema["items"], named)
    if kind == "map":
        return pa.types.is_map(t) and _fits(t.item_type, schema["values"], named)
    if kind == "fixed":
        return pa.types.is_fixed_size_binary(t) and t.byte_width == schema.get("size")
    if kind == "record":
        if not pa.types.is_struct(t):
            return False
        fields = {f["name"]: f["type"] for f in schema["fields"]}
        return all(
            t.field(k).name in fields and _fits(t.field(k).type, fields[t.field(k).name], named)
            for k in range(t.num_fields)
        )
    if isinstance(kind, str) and kind in _SAFE_LEAVES:
        return _SAFE_LEAVES[kind](t)
    return False


def _check_fields(t: pa.StructType, record: dict) -> None:
    """The struct's fields against the record's, once for the column."""
    names = {t.field(k).name for k in range(t.num_fields)}
    fields = {f["name"]: f for f in record.get("fields", [])}
    extra = sorted(names - set(fields))
    if extra:
        raise EncodeError(
            f"fields {extra} of the column are not in the Avro record {record['name']}"
        )
    missing = sorted(n for n, f in fields.items() if n not in names and "default" not in f)
    if missing:
        raise EncodeError(
            f"fields {missing} of the Avro record {record['name']} (without a default) are not "
            "in the column"
        )


def _describe(schema: Any) -> str:
    text = json.dumps(schema, default=str) if not isinstance(schema, str) else schema
    return text if len(text) <= 80 else text[:77] + "..."


def _raise_for(row: int, value: Any, parsed: Any, is_record: bool) -> None:
    from fastavro.validation import ValidationError, validate

    try:
        validate(value, parsed, raise_errors=True, strict=is_record)
    except ValidationError as exc:
        errors = getattr(exc, "errors", None) or []
        if errors:
            first = errors[0]
            field = getattr(first, "field", None)
            datum = getattr(first, "datum", None)
            expected = getattr(first, "schema", None)
            what = f"field {field}" if field else "the value"
            raise EncodeError(
                f"row {row}: {what}: {datum!r} does not fit the Avro type {_describe(expected)}",
                row=row,
                field=field,
            ) from None
        raise EncodeError(f"row {row}: {exc}", row=row) from None
    except ValueError as exc:  # strict: fields the schema does not have
        raise EncodeError(f"row {row}: {exc}", row=row) from None
    raise EncodeError(f"row {row} does not fit the Avro schema", row=row)


def _plain(column: pa.Array) -> pa.Array:
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


Converter = Callable[[Any], Any]


def _resolve(schema: Any, named: dict) -> Any:
    while isinstance(schema, str) and schema in named:
        schema = named[schema]
    if isinstance(schema, dict) and isinstance(schema.get("type"), (dict, list)):
        return _resolve(schema["type"], named) if "logicalType" not in schema else schema
    return schema


def _converter(t: pa.DataType, schema: Any, named: dict) -> Converter | None:
    """What turns to_pylist's value of Arrow type ``t`` into what fastavro writes for
    ``schema`` (None: nothing to do): maps from lists of pairs to dicts, integers to
    Decimal for a decimal, recursively."""
    schema = _resolve(schema, named)
    if isinstance(schema, list):  # a union: the one non-null branch, if there is one
        branches = [b for b in schema if _resolve(b, named) != "null"]
        if len(branches) != 1:
            return None
        inner = _converter(t, branches[0], named)
        if inner is None:
            return None
        return lambda v: None if v is None else inner(v)
    kind = schema.get("type") if isinstance(schema, dict) else schema
    if isinstance(schema, dict) and schema.get("logicalType") == "decimal":
        if pa.types.is_integer(t):
            return lambda v: None if v is None else decimal.Decimal(v)
        return None
    if pa.types.is_map(t):
        values = schema.get("values") if kind == "map" else None
        inner = _converter(t.item_type, values, named) if values is not None else None
        if inner is None:
            return lambda v: None if v is None else dict(v)
        return lambda v: None if v is None else {k: inner(x) for k, x in v}
    if pa.types.is_list(t) and kind == "array":
        inner = _converter(t.value_type, schema["items"], named)
        if inner is None:
            return None
        return lambda v: None if v is None else [inner(x) for x in v]
    if pa.types.is_struct(t) and kind == "record":
        fields = {f["name"]: f["type"] for f in schema["fields"]}
        convs = {}
        for k in range(t.num_fields):
            f = t.field(k)
            if f.name in fields:
                c = _converter(f.type, fields[f.name], named)
                if c is not None:
                    convs[f.name] = c
        if not convs:
            return None

        def record(v: Any) -> Any:
            if v is None:
                return None
            for name, c in convs.items():
                v[name] = c(v[name])
            return v

        return record
    return None


# ---- JSON Schema --------------------------------------------------------------------------


def json_schema_for(arrow_type: pa.DataType, title: str | None = None) -> dict:
    """A JSON Schema (draft-07) for values of the Arrow struct type, as
    :mod:`kafkawire.registry.json_schema` reads them back: struct: object with properties
    (non-nullable fields ``required``); nullable: ``[T, "null"]``; integers: integer; floats
    and decimals: number; bool: boolean; string: string; binary: string with
    ``contentEncoding: base64``; date: string ``format: date``; timestamp with a zone: string
    ``format: date-time``; without one, time: string; duration: integer (microseconds);
    list: array; map<string, T>: object with ``additionalProperties``; null: null.

    :param title: the schema's title (RecordNameStrategy's record name for JSON Schema).
    """
    if not pa.types.is_struct(arrow_type):
        raise SchemaError(f"a JSON object schema is derived from a struct type, not {arrow_type}")
    schema = {"$schema": "http://json-schema.org/draft-07/schema#"}
    if title:
        schema["title"] = title
    schema.update(_json(arrow_type, ""))
    return schema


def _nullable(node: dict) -> dict:
    t = node.get("type")
    if t is None or t == "null":
        return node
    return {**node, "type": [t, "null"]}


def _json(t: pa.DataType, path: str) -> dict:
    if pa.types.is_dictionary(t):
        return _json(t.value_type, path)
    if pa.types.is_null(t):
        return {"type": "null"}
    if pa.types.is_boolean(t):
        return {"type": "boolean"}
    if pa.types.is_integer(t):
        return {"type": "integer"}
    if pa.types.is_floating(t) or pa.types.is_decimal(t):
        return {"type": "number"}
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return {"type": "string"}
    if (
        pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
        or pa.types.is_binary_view(t)
        or pa.types.is_fixed_size_binary(t)
    ):
        return {"type": "string", "contentEncoding": "base64"}
    if pa.types.is_date(t):
        return {"type": "string", "format": "date"}
    if pa.types.is_timestamp(t):
        return {"type": "string", "format": "date-time"} if t.tz else {"type": "string"}
    if pa.types.is_time(t):
        return {"type": "string"}
    if pa.types.is_duration(t):
        return {"type": "integer"}
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        item = _json(t.value_type, f"{path}[]")
        return {"type": "array", "items": _nullable(item) if t.value_field.nullable else item}
    if pa.types.is_map(t):
        if not (pa.types.is_string(t.key_type) or pa.types.is_large_string(t.key_type)):
            raise SchemaError(f"field {path}: a JSON object has string keys, not {t.key_type}")
        item = _json(t.item_type, f"{path}{{}}")
        return {
            "type": "object",
            "additionalProperties": _nullable(item) if t.item_field.nullable else item,
        }
    if pa.types.is_struct(t):
        properties = {}
        required = []
        for k in range(t.num_fields):
            f = t.field(k)
            node = _json(f.type, f"{path}{f.name}" if not path else f"{path}.{f.name}")
            properties[f.name] = _nullable(node) if f.nullable else node
            if not f.nullable:
                required.append(f.name)
        out: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            out["required"] = required
        return out
    raise SchemaError(f"field {path}: Arrow type {t} has no JSON Schema counterpart")


def _json_value(value: Any) -> Any:
    """json.dumps's default: what JSON has no literal for."""
    import base64
    import datetime as dt

    if isinstance(value, dt.datetime):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"{type(value).__name__} has no JSON form")


def _json_converter(t: pa.DataType) -> Converter | None:
    """Maps (lists of pairs) to dicts, recursively, by the Arrow type."""
    if pa.types.is_map(t):
        inner = _json_converter(t.item_type)
        if inner is None:
            return lambda v: None if v is None else dict(v)
        return lambda v: None if v is None else {k: inner(x) for k, x in v}
    if pa.types.is_list(t):
        inner = _json_converter(t.value_type)
        if inner is None:
            return None
        return lambda v: None if v is None else [inner(x) for x in v]
    if pa.types.is_struct(t):
        convs = {
            t.field(k).name: c
            for k in range(t.num_fields)
            if (c := _json_converter(t.field(k).type)) is not None
        }
        if not convs:
            return None

        def record(v: Any) -> Any:
            if v is None:
                return None
            for name, c in convs.items():
                v[name] = c(v[name])
            return v

        return record
    return None


def json_validator(schema: Schema) -> Any:
    """A jsonschema validator of the schema (None: jsonschema is not installed, or the schema
    has references, which are not resolved here: rows are then not validated)."""
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - confluent-kafka's json extra installs it
        return None
    if schema.references:
        return None
    try:
        parsed = json.loads(schema.schema_str)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"JSON Schema is not JSON: {exc}") from exc
    cls = jsonschema.validators.validator_for(parsed)
    try:
        cls.check_schema(parsed)
    except jsonschema.SchemaError as exc:
        raise SchemaError(f"bad JSON Schema: {exc.message}") from exc
    return cls(parsed, format_checker=cls.FORMAT_CHECKER)


def encode_json(
    struct_array: pa.Array, schema: Schema, *, validator: Any = None, validate: bool = True
) -> pa.BinaryArray:
    """Each row of ``struct_array`` as magic 0 + ``schema.schema_id`` + its JSON text (UTF-8,
    compact). Dates and times as ISO 8601 / RFC 3339 text (UTC timestamps with ``Z``), bytes
    as base64, decimals as numbers, durations as integer microseconds; a null row stays null.
    An object schema takes the struct as the object; any other top-level schema takes the
    struct's single field (``struct<value: T>``).

    :param validator: a :func:`json_validator` of the schema (made per call when not given).
    :param validate: check each row against the schema (jsonschema, when installed).
    :raises EncodeError: a row that the schema refuses, naming the row and the field.
    """
    if schema.schema_id is None:
        raise ValueError("the schema has no id: register it (or look it up) first")
    if (schema.schema_type or "AVRO") != "JSON":
        raise SchemaError(f"a JSON Schema is needed, not {schema.schema_type}")
    prefix = framing(schema.schema_id)
    if validate and validator is None:
        validator = json_validator(schema)
    if isinstance(struct_array, pa.ChunkedArray):
        struct_array = struct_array.combine_chunks()
    if not pa.types.is_struct(struct_array.type):
        raise TypeError(f"a struct column is needed, not {struct_array.type}")
    parsed = json.loads(schema.schema_str)
    is_object = isinstance(parsed, dict) and (
        parsed.get("type") == "object" or "properties" in parsed
    )
    column: pa.Array = struct_array
    if not is_object:
        if struct_array.type.num_fields != 1:
            raise EncodeError(
                f"a JSON Schema that is not an object takes a struct of one field, not "
                f"{struct_array.type}"
            )
        column = struct_array.field(0)
    column = _plain(column)
    convert = _json_converter(column.type)
    valid = struct_array.is_valid().to_pylist() if struct_array.null_count else None
    out: list[bytes | None] = []
    for i, row in enumerate(column.to_pylist()):
        if valid is not None and not valid[i]:
            out.append(None)
            continue
        if convert is not None:
            row = convert(row)
        try:
            text = json.dumps(row, default=_json_value, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise EncodeError(f"row {i}: {exc}", row=i) from None
        if validate and validator is not None:
            error = next(iter(validator.iter_errors(json.loads(text))), None)
            if error is not None:
                field = ".".join(str(p) for p in error.absolute_path) or None
                what = f"field {field}" if field else "the value"
                raise EncodeError(
                    f"row {i}: {what}: {error.message} (JSON Schema {schema.schema_id})",
                    row=i,
                    field=field,
                )
        out.append(prefix + text.encode())
    return pa.array(out, pa.binary())


# ---- Protobuf -----------------------------------------------------------------------------

_PROTO_SCALARS = [
    (lambda t: t in (pa.int8(), pa.int16(), pa.int32()), "int32"),
    (lambda t: pa.types.is_int64(t), "int64"),
    (lambda t: t in (pa.uint8(), pa.uint16(), pa.uint32()), "uint32"),
    (lambda t: pa.types.is_uint64(t), "uint64"),
    (lambda t: pa.types.is_float16(t) or pa.types.is_float32(t), "float"),
    (lambda t: pa.types.is_float64(t), "double"),
    (lambda t: pa.types.is_boolean(t), "bool"),
    (
        lambda t: (
            pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
        ),
        "string",
    ),
    (
        lambda t: (
            pa.types.is_binary(t)
            or pa.types.is_large_binary(t)
            or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)
        ),
        "bytes",
    ),
    (lambda t: pa.types.is_decimal(t), "string"),
    (lambda t: pa.types.is_date(t), "int32"),
    (lambda t: pa.types.is_time32(t), "int32"),
    (lambda t: pa.types.is_time64(t), "int64"),
]
_PROTO_KEYS = ("int32", "int64", "uint32", "uint64", "bool", "string")
_IDENTIFIER = __import__("re").compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def proto_schema_for(
    arrow_type: pa.DataType, name: str = "topLevelRecord", package: str = ""
) -> str:
    """A proto3 schema (.proto text) whose first message holds values of the Arrow struct
    type: fields numbered from 1 in order; a nullable scalar is ``optional``; int8/16/32:
    int32; int64: int64; uint8/16/32: uint32; uint64: uint64; float16/32: float; float64:
    double; bool; string; binary and fixed_size_binary: bytes; decimal: string (its digits);
    date: int32 (days since 1970-01-01); time32: int32 (ms); time64: int64 (us); timestamp:
    google.protobuf.Timestamp; duration: google.protobuf.Duration; struct: a nested message
    named after the field (capitalized); list: repeated (not of lists, elements not null);
    map<K, V>: map (K string, integer or bool; V not a list or map).

    :raises SchemaError: a type with no proto3 counterpart, or a name that is not an
        identifier.
    """
    if not pa.types.is_struct(arrow_type):
        raise SchemaError(f"a Protobuf message is derived from a struct type, not {arrow_type}")
    imports: set[str] = set()
    body = _message(arrow_type, _ident(name, "message"), "", imports)
    lines = ['syntax = "proto3";']
    if package:
        for part in package.split("."):
            _ident(part, "package")
        lines.append(f"package {package};")
    lines += [f'import "{i}";' for i in sorted(imports)]
    return "\n".join([*lines, *body]) + "\n"


def _ident(name: str, what: str) -> str:
    if not _IDENTIFIER.match(name):
        raise SchemaError(f"{what} name {name!r} is not a Protobuf identifier")
    return name


def _message(t: pa.StructType, name: str, indent: str, imports: set) -> list[str]:
    lines = [f"{indent}message {name} {{"]
    nested: list[str] = []
    for k in range(t.num_fields):
        f = t.field(k)
        field_name = _ident(f.name, "field")
        kind, repeated = _proto_field(f.type, field_name, indent + "  ", nested, imports)
        optional = f.nullable and not repeated and kind in {s for _, s in _PROTO_SCALARS}
        label = "repeated " if repeated else ("optional " if optional else "")
        lines.append(f"{indent}  {label}{kind} {field_name} = {k + 1};")
    return [*lines, *nested, f"{indent}}}"]


def _proto_field(
    t: pa.DataType, name: str, indent: str, nested: list, imports: set, in_list: bool = False
) -> tuple[str, bool]:
    """(the field's type, whether it is repeated)."""
    if pa.types.is_dictionary(t):
        return _proto_field(t.value_type, name, indent, nested, imports, in_list)
    for test, scalar in _PROTO_SCALARS:
        if test(t):
            return scalar, False
    if pa.types.is_timestamp(t):
        imports.add("google/protobuf/timestamp.proto")
        return "google.protobuf.Timestamp", False
    if pa.types.is_duration(t):
        imports.add("google/protobuf/duration.proto")
        return "google.protobuf.Duration", False
    if pa.types.is_struct(t):
        message = name[:1].upper() + name[1:]
        nested.extend(_message(t, message, indent, imports))
        return message, False
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        if in_list:
            raise SchemaError(f"field {name}: Protobuf has no list of lists")
        kind, _ = _proto_field(t.value_type, name, indent, nested, imports, True)
        if kind.startswith("map<"):
            raise SchemaError(f"field {name}: Protobuf has no list of maps")
        return kind, True
    if pa.types.is_map(t):
        if in_list:
            raise SchemaError(f"field {name}: Protobuf has no list of maps")
        key, _ = _proto_field(t.key_type, name, indent, nested, imports, True)
        if key not in _PROTO_KEYS or pa.types.is_decimal(t.key_type):
            raise SchemaError(f"field {name}: a Protobuf map key cannot be {t.key_type}")
        value, _ = _proto_field(t.item_type, name + "Value", indent, nested, imports, True)
        if value.startswith("map<"):
            raise SchemaError(f"field {name}: Protobuf has no map of maps")
        return f"map<{key}, {value}>", False
    raise SchemaError(f"field {name}: Arrow type {t} has no Protobuf counterpart")


def _proto_converter(t: pa.DataType) -> Converter | None:
    """to_pylist's values of :func:`_plain` of type ``t`` to protobuf's JSON mapping (what
    json_format.ParseDict takes)."""
    import base64
    import datetime as dt

    if pa.types.is_dictionary(t):
        return _proto_converter(t.value_type)
    if pa.types.is_timestamp(t):

        def stamp(v: Any) -> Any:
            if v is None:
                return None
            if v.tzinfo is None:
                v = v.replace(tzinfo=dt.timezone.utc)
            return v.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z")

        return stamp
    if pa.types.is_duration(t):  # int64 microseconds after _plain
        return lambda v: None if v is None else f"{v // 1_000_000}.{v % 1_000_000:06d}s"
    if pa.types.is_date(t):
        epoch = dt.date(1970, 1, 1)
        return lambda v: None if v is None else (v - epoch).days
    if pa.types.is_time32(t):
        return lambda v: (
            None
            if v is None
            else (((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000)
        )
    if pa.types.is_time64(t):
        return lambda v: (
            None
            if v is None
            else (((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond)
        )
    if pa.types.is_decimal(t):
        return lambda v: None if v is None else str(v)
    if (
        pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
        or pa.types.is_binary_view(t)
        or pa.types.is_fixed_size_binary(t)
    ):
        return lambda v: None if v is None else base64.b64encode(v).decode("ascii")
    if pa.types.is_map(t):
        key = _proto_converter(t.key_type) or (lambda v: v)
        inner = _proto_converter(t.item_type) or (lambda v: v)
        return lambda v: None if v is None else {str(key(k)): inner(x) for k, x in v}
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        inner = _proto_converter(t.value_type)
        if inner is None:
            return None
        return lambda v: None if v is None else [inner(x) for x in v]
    if pa.types.is_struct(t):
        convs = {
            t.field(k).name: c
            for k in range(t.num_fields)
            if (c := _proto_converter(t.field(k).type)) is not None
        }

        def record(v: Any) -> Any:
            if v is None:
                return None
            for name, c in convs.items():
                v[name] = c(v[name])
            return {name: x for name, x in v.items() if x is not None}

        return record
    return None


def proto_message(schema: Schema, registry: SchemaRegistryClient | None = None) -> Any:
    """The message class of the schema's first message (what :func:`encode_protobuf`
    writes), its references resolved through ``registry``."""
    from google.protobuf import message_factory

    from kafkawire.registry.protobuf import load_schema

    if (schema.schema_type or "AVRO") != "PROTOBUF":
        raise SchemaError(f"a Protobuf schema is needed, not {schema.schema_type}")
    loaded = load_schema(registry, schema)
    name = loaded.message_name([0])
    if name is None:
        raise SchemaError("the Protobuf schema has no message")
    return message_factory.GetMessageClass(loaded.message(name))


def encode_protobuf(
    struct_array: pa.Array,
    schema: Schema,
    *,
    registry: SchemaRegistryClient | None = None,
    message: Any = None,
) -> pa.BinaryArray:
    """Each row of ``struct_array`` as magic 0 + ``schema.schema_id`` + message index 0 (the
    schema's first message, Confluent's one-byte shorthand) + the message's Protobuf
    encoding; a null row stays null. Fields are matched by name; null fields are left unset.

    :param message: the message class (:func:`proto_message`; made per call when not given).
    :raises EncodeError: a row protobuf refuses (a value out of range, a null list element),
        naming the row.
    """
    from google.protobuf import json_format

    if schema.schema_id is None:
        raise ValueError("the schema has no id: register it (or look it up) first")
    if message is None:
        message = proto_message(schema, registry)
    prefix = framing(schema.schema_id) + b"\x00"
    if isinstance(struct_array, pa.ChunkedArray):
        struct_array = struct_array.combine_chunks()
    if not pa.types.is_struct(struct_array.type):
        raise TypeError(f"a struct column is needed, not {struct_array.type}")
    known = set(message.DESCRIPTOR.fields_by_name)
    extra = sorted(set(struct_array.type.names) - known)
    if extra:
        raise EncodeError(
            f"fields {extra} of the column are not in the Protobuf message "
            f"{message.DESCRIPTOR.full_name}"
        )
    convert = _proto_converter(struct_array.type)
    out: list[bytes | None] = []
    for i, row in enumerate(_plain(struct_array).to_pylist()):
        if row is None:
            out.append(None)
            continue
        if convert is not None:
            row = convert(row)
        try:
            value = json_format.ParseDict(row, message())
        except json_format.ParseError as exc:
            raise EncodeError(f"row {i}: {exc}", row=i) from None
        out.append(prefix + value.SerializeToString())
    return pa.array(out, pa.binary())
