"""Arrow struct columns to Avro values framed for a schema registry (magic byte 0, the
4-byte big-endian schema id, the Avro binary encoding), and Avro schemas derived from Arrow
types.

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
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from kafkawire.registry.encode_columns import Converter, framing, plain, resolve_named
from kafkawire.registry.errors import EncodeError, SchemaError

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema, SchemaRegistryClient


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
    column = plain(column)
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
    """Whether every value of Arrow type ``t`` (after :func:`plain`) that fastavro's writer
    accepts for ``schema`` is one the schema allows: then rows need no validation (a value
    the writer refuses, a null for a non-null type, still fails the row). False when unsure."""
    schema = resolve_named(schema, named)
    if isinstance(schema, list):
        branches = [resolve_named(b, named) for b in schema]
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


def _converter(t: pa.DataType, schema: Any, named: dict) -> Converter | None:
    """What turns to_pylist's value of Arrow type ``t`` into what fastavro writes for
    ``schema`` (None: nothing to do): maps from lists of pairs to dicts, integers to
    Decimal for a decimal, recursively."""
    schema = resolve_named(schema, named)
    if isinstance(schema, list):  # a union: the one non-null branch, if there is one
        branches = [b for b in schema if resolve_named(b, named) != "null"]
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
