"""Arrow struct columns to JSON values framed for a schema registry (magic byte 0, the
4-byte big-endian schema id, the UTF-8 JSON text), checked against their JSON Schema, and
JSON Schemas derived from Arrow types."""

from __future__ import annotations

import decimal
import json
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from kafkawire.registry.encode_columns import Converter, framing, plain
from kafkawire.registry.errors import EncodeError, SchemaError

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema


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
    column = plain(column)
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
