"""Arrow struct columns to Protobuf messages framed for a schema registry (magic byte 0,
the 4-byte big-endian schema id, message index 0, the message's encoding), and proto3
schemas derived from Arrow types."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from kafkawire.registry.encode_columns import Converter, framing, plain
from kafkawire.registry.errors import EncodeError, SchemaError

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema, SchemaRegistryClient

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
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


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
    """to_pylist's values of :func:`plain` of type ``t`` to protobuf's JSON mapping (what
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
    if pa.types.is_duration(t):  # int64 microseconds after plain
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
    for i, row in enumerate(plain(struct_array).to_pylist()):
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
