"""JSON Schema payloads to Arrow: the schema mapping, and payloads made by confluent-kafka's own
JSONSerializer decoded to what its JSONDeserializer returns."""

from __future__ import annotations

import base64
import datetime as dt
import json
import random

import pyarrow as pa
import pytest

from kafkawire.registry.decode import decode_column
from kafkawire.registry.errors import PayloadError, SchemaError
from kafkawire.registry.json_schema import json_schema_to_arrow

try:
    from kafkawire.registry.client import Reference, Schema
except ImportError:  # pragma: no cover - a stand-in with the client's fields
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Reference:
        name: str
        subject: str
        version: int

    @dataclass(frozen=True)
    class Schema:
        schema_str: str
        schema_type: str = "AVRO"
        references: tuple = ()
        schema_id: int | None = None
        guid: str | None = None
        subject: str | None = None
        version: int | None = None


confluent = pytest.importorskip("confluent_kafka.schema_registry")
from confluent_kafka.schema_registry.json_schema import (  # noqa: E402
    JSONDeserializer,
    JSONSerializer,
)
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

UTC = dt.timezone.utc
CTX = SerializationContext("events", MessageField.VALUE)


class StubRegistry:
    """What decode_column asks of a registry: schemas by id or GUID, and references."""

    def __init__(self, schemas: dict[int, Schema] | None = None, refs: dict | None = None):
        self.schemas = dict(schemas or {})
        self.refs = dict(refs or {})

    def schema_by_id(self, schema_id: int) -> Schema:
        return self.schemas[schema_id]

    def schema_by_guid(self, guid: str) -> Schema:
        for s in self.schemas.values():
            if s.guid == guid:
                return s
        raise KeyError(guid)

    def references(self, schema: Schema) -> dict:
        return self.refs


def _framed(schema_id: int, payload: bytes) -> bytes:
    return b"\x00" + schema_id.to_bytes(4, "big") + payload


class Confluent:
    """confluent-kafka's mock registry, serializer and deserializer for one schema."""

    def __init__(self, schema: dict, topic: str = "events"):
        self.client = confluent.SchemaRegistryClient.new_client({"url": "mock://test"})
        self.text = json.dumps(schema)
        self.ctx = SerializationContext(topic, MessageField.VALUE)
        self.serializer = JSONSerializer(self.text, self.client)
        self.deserializer = JSONDeserializer(self.text)

    def serialize(self, values: list) -> list[bytes]:
        return [None if v is None else self.serializer(v, self.ctx) for v in values]

    def registry(self, payloads: list) -> tuple[StubRegistry, int]:
        sid = next(int.from_bytes(p[1:5], "big") for p in payloads if p is not None)
        registered = self.client.get_schema(sid)
        schema = Schema(registered.schema_str, "JSON", schema_id=sid)
        return StubRegistry({sid: schema}), sid

    def decode(self, values: list):
        payloads = self.serialize(values)
        registry, _ = self.registry(payloads)
        decoded = decode_column(pa.array(payloads, pa.binary()), registry, on_error="null")
        expected = [None if p is None else self.deserializer(p, self.ctx) for p in payloads]
        return decoded, expected


def _expect(value, t: pa.DataType):
    """A JSON value as Arrow should give it back for type ``t``."""
    if value is None:
        return None
    if pa.types.is_struct(t):
        return {f.name: _expect(value.get(f.name), f.type) for f in t}
    if pa.types.is_map(t):
        return {k: _expect(v, t.item_type) for k, v in value.items() if v is not None}
    if pa.types.is_list(t):
        return [_expect(v, t.value_type) for v in value]
    if pa.types.is_timestamp(t):
        return dt.datetime.fromisoformat(value.replace("z", "Z")).astimezone(UTC)
    if pa.types.is_date32(t):
        return dt.date.fromisoformat(value)
    if pa.types.is_binary(t):
        return base64.b64decode(value + "=" * (-len(value) % 4), altchars=b"-_")
    if pa.types.is_floating(t):
        return float(value)
    return value


def _actual(value, t: pa.DataType):
    """Arrow's Python value with maps as dicts (entries compare without their order)."""
    if value is None:
        return None
    if pa.types.is_struct(t):
        return {f.name: _actual(value[f.name], f.type) for f in t}
    if pa.types.is_map(t):
        return {k: _actual(v, t.item_type) for k, v in value}
    if pa.types.is_list(t):
        return [_actual(v, t.value_type) for v in value]
    return value


def _check(decoded, expected) -> None:
    t = decoded.values.type
    assert decoded.errors.null_count == len(decoded.errors), decoded.errors.to_pylist()
    got = [_actual(v, t) for v in decoded.values.to_pylist()]
    assert got == [_expect(v, t) for v in expected]


ORDER = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Order",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "big": {"type": "integer"},
        "price": {"type": "number"},
        "paid": {"type": "boolean"},
        "note": {"type": ["string", "null"]},
        "name": {"type": "string"},
        "status": {"enum": ["NEW", "PAID", "SHIPPED"]},
        "at": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "attrs": {"type": "object", "additionalProperties": {"type": "integer"}},
        "customer": {"$ref": "#/definitions/Customer"},
        "lines": {"type": "array", "items": {"$ref": "#/definitions/Line"}},
        "coupon": {"oneOf": [{"type": "null"}, {"type": "string"}]},
    },
    "required": ["id"],
    "definitions": {
        "Customer": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "address": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                },
            },
        },
        "Line": {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
        },
    },
}


def _order(i: int) -> dict:
    value = {
        "id": i,
        "big": [2**53 - 1, 2**53 + 1, 2**63 - 1, -(2**63), -(2**53)][i % 5],
        "price": i * 1.25,
        "paid": i % 2 == 0,
        "note": None if i % 3 else f"note {i}",
        "name": ["plain", "ünïcödé", "日本語", "emoji 😀 \u2028", 'quote " back \\ slash'][i % 5],
        "status": ["NEW", "PAID", "SHIPPED"][i % 3],
        "at": [
            "2024-02-29T23:59:59.123456Z",
            "2024-01-01T00:00:00+02:00",
            "1970-01-01T00:00:00Z",
            "0001-01-01T00:00:00Z",
        ][i % 4],
        "day": ["2024-02-29", "1999-12-31", "0001-01-01"][i % 3],
        "tags": [f"t{j}" for j in range(i % 4)],
        "attrs": {f"k{j}": j * i for j in range(i % 3)},
        "customer": {"name": f"c{i}", "address": {"city": "Zürich", "zip": str(8000 + i)}},
        "lines": [{"sku": f"s{j}", "qty": j} for j in range(i % 3)],
        "coupon": None if i % 2 else "SAVE",
    }
    if i % 7 == 3:
        del value["customer"]
        del value["note"]
    return value


def test_confluent_serializer_payloads_decode_as_its_deserializer_reads_them():
    c = Confluent(ORDER)
    values = [_order(i) for i in range(40)]
    values[5] = None
    decoded, expected = c.decode(values)
    _check(decoded, expected)
    t = decoded.values.type
    assert [f.name for f in t] == list(ORDER["properties"])
    assert t.field("at").type == pa.timestamp("us", "UTC")
    assert t.field("day").type == pa.date32()
    assert t.field("attrs").type == pa.map_(pa.string(), pa.int64())
    assert t.field("tags").type == pa.list_(pa.field("element", pa.string()))
    assert decoded.values.is_null().to_pylist()[5]
    assert decoded.values[6]["big"].as_py() == 2**53 + 1
    assert decoded.values[7]["big"].as_py() == 2**63 - 1
    assert decoded.schema_ids.to_pylist()[0] == decoded.schema_ids.to_pylist()[1]


def test_indented_payloads_and_carriage_returns():
    c = Confluent(ORDER)
    values = [_order(i) for i in range(12)]
    payloads = c.serialize(values)
    registry, sid = c.registry(payloads)
    indented = [
        _framed(
            sid,
            json.dumps(v, indent=(i % 3) or None, ensure_ascii=bool(i % 2))
            .replace("\n", "\r\n" if i % 2 else "\n")
            .encode(),
        )
        for i, v in enumerate(values)
    ]
    decoded = decode_column(pa.array(indented, pa.binary()), registry, on_error="null")
    _check(decoded, values)


def test_bare_payloads_with_the_schema_id_in_a_header():
    c = Confluent(ORDER)
    values = [_order(i) for i in range(6)]
    registry, sid = c.registry(c.serialize(values[:1]))
    bare = [json.dumps(v).encode() for v in values]
    header = pa.array(
        [[{"key": "__value_schema_id", "value": b"\x00" + sid.to_bytes(4, "big")}]] * 6,
        pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())])),
    )
    decoded = decode_column(pa.array(bare, pa.binary()), registry, headers=header)
    _check(decoded, values)


def test_writer_schema_versions_read_with_the_reader_schema():
    old = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    new = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "c": {"type": "number"}},
    }
    registry = StubRegistry(
        {
            1: Schema(json.dumps(old), "JSON", schema_id=1),
            2: Schema(json.dumps(new), "JSON", schema_id=2),
        }
    )
    column = pa.array(
        [
            _framed(1, b'{"a": 1, "b": "x"}'),
            _framed(2, b'{"a": 2, "c": 2.5}'),
            _framed(1, b'{"b": "y"}'),
        ]
    )
    decoded = decode_column(column, registry)
    assert decoded.values.to_pylist() == [
        {"a": 1, "c": None},
        {"a": 2, "c": 2.5},
        {"a": None, "c": None},
    ]
    assert decoded.schema_ids.to_pylist() == [1, 2, 1]
    decoded = decode_column(column, registry, reader_schema=1)
    assert decoded.values.to_pylist()[1] == {"a": 2, "b": None}


@pytest.mark.parametrize(
    ("schema", "values"),
    [
        ({"type": "string"}, ["a", "ü\n", ""]),
        ({"type": "integer"}, [1, -(2**63), 2**63 - 1]),
        ({"type": "array", "items": {"type": "number"}}, [[1.5, 2], []]),
        ({"type": "object", "additionalProperties": {"type": "string"}}, [{"x": "1"}, {}]),
        ({"type": "string", "format": "date-time"}, ["2024-05-06T07:08:09.5-01:00"]),
    ],
)
def test_top_level_non_objects_are_a_struct_with_a_value_field(schema, values):
    c = Confluent(schema)
    decoded, expected = c.decode(values)
    assert [f.name for f in decoded.values.type] == ["value"]
    t = decoded.values.type
    got = [_actual(v, t) for v in decoded.values.to_pylist()]
    assert got == [{"value": _expect(v, t.field("value").type)} for v in expected]


def test_maps_nested_in_lists_and_maps():
    schema = {
        "type": "object",
        "properties": {
            "m": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {"type": "string", "format": "date"},
                },
            },
            "l": {
                "type": "array",
                "items": {"type": "object", "additionalProperties": {"type": "boolean"}},
            },
        },
    }
    c = Confluent(schema)
    values = [
        {"m": {"a": {"x": "2024-01-01"}, "b": {}}, "l": [{"p": True}, {}, {"q": False}]},
        {"m": {}, "l": []},
        {"m": {"c": {"y": "2023-06-30", "x": "2020-02-29"}}},
        {},
    ]
    decoded, expected = c.decode(values)
    _check(decoded, expected)
    assert decoded.values.type.field("m").type == pa.map_(
        pa.string(), pa.map_(pa.string(), pa.date32())
    )


def test_base64_and_date_time_forms():
    schema = {
        "type": "object",
        "properties": {
            "b": {"type": "string", "contentEncoding": "base64"},
            "t": {"type": "string", "format": "date-time"},
            "time": {"type": "string", "format": "time"},
        },
    }
    registry = StubRegistry({7: Schema(json.dumps(schema), "JSON", schema_id=7)})
    rows = [
        {"b": "", "t": "2024-01-01t10:00:00z", "time": "10:00:00Z"},
        {"b": "AA==", "t": "2024-01-01T10:00:00.123456789+05:30"},
        {"b": "AAE", "t": "2024-01-01 10:00:00Z"},
        {"b": "_-8", "t": None},
        {"b": base64.b64encode(bytes(range(256))).decode()},
        {"b": "not base64!", "t": "2024-01-01T10:00:00Z"},
        {"b": "AA==", "t": "2024-02-30T10:00:00Z"},
        {"b": "A", "t": "2024-01-01T10:00:00"},
        {"b": "AA=A"},
    ]
    column = pa.array([_framed(7, json.dumps(r).encode()) for r in rows])
    decoded = decode_column(column, registry, on_error="null")
    got = decoded.values.to_pylist()
    errors = decoded.errors.to_pylist()
    assert got[0] == {
        "b": b"",
        "t": dt.datetime(2024, 1, 1, 10, tzinfo=UTC),
        "time": "10:00:00Z",
    }
    assert got[1]["b"] == b"\x00"
    assert got[1]["t"] == dt.datetime(2024, 1, 1, 4, 30, 0, 123456, tzinfo=UTC)
    assert got[2]["b"] == b"\x00\x01"
    assert got[3]["b"] == b"\xff\xef"
    assert got[4]["b"] == bytes(range(256))
    assert errors[:5] == [None] * 5
    assert got[5:] == [None] * 4
    assert "'not base64!' is not base64" in errors[5] and "/b" in errors[5]
    assert "is not an RFC 3339 date-time" in errors[6] and "/t" in errors[6]
    assert "is not base64" in errors[7] and "is not an RFC 3339" not in errors[7]
    assert "is not base64" in errors[8]


def test_bad_payloads_are_null_rows_with_errors_and_the_rest_decode():
    c = Confluent(ORDER)
    values = [_order(i) for i in range(30)]
    payloads = c.serialize(values)
    registry, sid = c.registry(payloads)
    bad = {
        2: b'{"id": 1, "name": ',  # truncated
        5: b'{"id": "seven"}',  # a string where an integer is declared
        9: b'{"id": 1} {"id": 2}',  # two values
        11: b"[1, 2]",  # not an object
        12: b"",  # empty
        13: b"  \n ",  # only whitespace
        17: b'{"id": 1.5}',
        18: b'{"id": 9223372036854775808}',
        20: b'{"tags": ["a", 3]}',
        21: b'{"lines": [{"sku": "a", "qty": "many"}]}',
        22: b'{"id": 1,}',
        23: b'{"name": "\xff\xfe"}',
        24: b'{"attrs": {"k": "v"}}',
        25: b'"just a string"',
        28: b'{"name": "\\ud800"}',  # a lone surrogate: Python reads it, Arrow does not
        26: b'{"id":',
    }
    column = list(payloads)
    for row, payload in bad.items():
        column[row] = _framed(sid, payload)
    column[27] = b"\x07junk"
    decoded = decode_column(pa.array(column, pa.binary()), registry, on_error="null")
    errors = decoded.errors.to_pylist()
    got = decoded.values.to_pylist()
    t = decoded.values.type
    for i, v in enumerate(values):
        if i in bad or i == 27:
            assert got[i] is None, i
            assert errors[i], i
        else:
            assert errors[i] is None, (i, errors[i])
            assert _actual(got[i], t) == _expect(v, t)
    assert "invalid JSON" in errors[2] and "byte" in errors[2]
    assert "/id" in errors[5]
    assert "invalid JSON: Extra data (byte 10" in errors[9]
    assert errors[11] == "the JSON payload is an array, not an object"
    assert errors[12] == errors[13] == "an empty payload (no JSON value)"
    assert "/tags" in errors[20]
    assert "/lines" in errors[21]
    assert "not UTF-8" in errors[23]
    assert errors[25] == "the JSON payload is a string, not an object"
    assert "magic byte 7" in errors[27]
    assert errors[28] == (
        "Arrow's JSON reader refuses the payload: The surrogate pair in string is invalid."
    )
    assert decoded.error_count == len(bad) + 1
    with pytest.raises(PayloadError, match="row 2: invalid JSON"):
        decode_column(pa.array(column[:27], pa.binary()), registry, on_error="raise")


def test_many_bad_rows_among_good_ones():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    registry = StubRegistry({3: Schema(json.dumps(schema), "JSON", schema_id=3)})
    rows = [_framed(3, b'{"a": "x"}' if i % 97 == 5 else b'{"a": %d}' % i) for i in range(5000)]
    decoded = decode_column(pa.array(rows), registry, on_error="null")
    got = decoded.values.to_pylist()
    assert decoded.error_count == len([i for i in range(5000) if i % 97 == 5])
    assert all((got[i] is None) if i % 97 == 5 else got[i] == {"a": i} for i in range(5000))


# ---- the schema mapping -------------------------------------------------------------------


def _struct(**fields) -> pa.DataType:
    return pa.struct([pa.field(k, v) for k, v in fields.items()])


def _list(t: pa.DataType) -> pa.DataType:
    return pa.list_(pa.field("element", t))


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "integer"}, pa.int64()),
        ({"$ref": "#/definitions/A", "definitions": {"A": {"type": "integer"}}}, pa.int64()),
        ({"type": "number"}, pa.float64()),
        ({"type": "boolean"}, pa.bool_()),
        ({"type": "null"}, pa.null()),
        ({"type": "string", "format": "time"}, pa.string()),
        ({"type": "string", "format": "uuid"}, pa.string()),
        ({"type": "string", "connect.type": "bytes"}, pa.binary()),
        ({"type": ["string", "null"]}, pa.string()),
        ({"type": ["integer", "number"]}, pa.float64()),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, pa.int64()),
        (
            {
                "oneOf": [{"type": "null"}, {"$ref": "#/$defs/D"}],
                "$defs": {"D": {"type": "string", "format": "date"}},
            },
            pa.date32(),
        ),
        ({"enum": ["a", "b", None]}, pa.string()),
        ({"enum": [1, 2]}, pa.int64()),
        ({"const": True}, pa.bool_()),
        ({"type": "array", "items": {"enum": [1.5, 2]}}, _list(pa.float64())),
        (
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}]},
            _list(pa.string()),
        ),
        (
            {
                "type": "array",
                "items": [{"type": "integer"}],
                "additionalItems": {"type": "integer"},
            },
            _list(pa.int64()),
        ),
        ({"type": "object", "additionalProperties": False}, pa.struct([])),
        ({"patternProperties": {"^x": {"type": "integer"}}}, pa.map_(pa.string(), pa.int64())),
        (
            {
                "properties": {"b": {"type": "integer"}, "a": {"type": "string"}},
                "additionalProperties": {"type": "number"},
            },
            _struct(b=pa.int64(), a=pa.string()),
        ),
        (
            {
                "allOf": [
                    {"$ref": "#/definitions/Base"},
                    {"properties": {"c": {"type": "boolean"}, "a": {"minimum": 3}}},
                ],
                "definitions": {
                    "Base": {"type": "object", "properties": {"a": {"type": "integer"}}}
                },
            },
            _struct(a=pa.int64(), c=pa.bool_()),
        ),
        (
            {"allOf": [{"type": "object"}, {"properties": {"x": {"type": "number"}}}]},
            _struct(x=pa.float64()),
        ),
        ({"allOf": [{"type": "number"}, {"type": "integer"}]}, pa.int64()),
        (
            {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
                    },
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "dog"}, "good": {"type": "boolean"}},
                    },
                ]
            },
            _struct(kind=pa.string(), lives=pa.int64(), good=pa.bool_()),
        ),
        (
            {
                "type": "object",
                "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
                "properties": {"a": {"type": "string"}},
            },
            _struct(a=pa.string()),
        ),
        (
            {
                "properties": {"x": {"$ref": "#/definitions/X", "description": "sibling"}},
                "definitions": {"X": {"type": "string"}},
            },
            _struct(x=pa.string()),
        ),
        (
            {"properties": {"a~b/c": {"type": "string"}, "r": {"$ref": "#/properties/a~0b~1c"}}},
            _struct(**{"a~b/c": pa.string(), "r": pa.string()}),
        ),
        (
            {
                "properties": {"p": {"$ref": "#/definitions/P"}, "q": {"$ref": "#/definitions/P"}},
                "definitions": {"P": {"type": "integer"}},
            },
            _struct(p=pa.int64(), q=pa.int64()),
        ),
        (
            {"type": "object", "properties": {"f": False, "g": {"type": "integer"}}},
            _struct(f=pa.null(), g=pa.int64()),
        ),
    ],
)
def test_schema_to_arrow(schema, expected):
    assert json_schema_to_arrow(schema).equals(expected)
    assert json_schema_to_arrow(json.dumps(schema)).equals(expected)


def test_references_to_other_registered_schemas():
    other = {
        "$id": "https://example.com/schemas/address.json",
        "type": "object",
        "properties": {"city": {"type": "string"}, "geo": {"$ref": "#/definitions/Geo"}},
        "definitions": {
            "Geo": {"type": "object", "properties": {"lat": {"type": "number"}}},
            "Zip": {"type": "string"},
        },
    }
    docs = {"address.json": other}
    main = {
        "$id": "https://example.com/schemas/person.json",
        "type": "object",
        "properties": {
            "home": {"$ref": "address.json"},
            "zip": {"$ref": "address.json#/definitions/Zip"},
            "abs": {"$ref": "https://example.com/schemas/address.json#/definitions/Geo"},
        },
    }

    def resolve(name):
        return docs.get(name) or docs.get(name.rsplit("/", 1)[-1] if "example" in name else "")

    geo = _struct(lat=pa.float64())
    assert json_schema_to_arrow(main, resolve).equals(
        _struct(home=_struct(city=pa.string(), geo=geo), zip=pa.string(), abs=geo)
    )
    registry = StubRegistry(
        {
            4: Schema(
                json.dumps(main),
                "JSON",
                references=(Reference("address.json", "address", 1),),
                schema_id=4,
            )
        },
        refs={"address.json": Schema(json.dumps(other), "JSON", schema_id=3)},
    )
    decoded = decode_column(
        pa.array([_framed(4, b'{"home": {"city": "Oslo", "geo": {"lat": 59.9}}, "zip": "0150"}')]),
        registry,
    )
    assert decoded.values.to_pylist() == [
        {"home": {"city": "Oslo", "geo": {"lat": 59.9}}, "zip": "0150", "abs": None}
    ]


@pytest.mark.parametrize(
    ("schema", "match"),
    [
        (
            {"properties": {"u": {"type": ["string", "integer"]}}},
            r"union \(type list\) of string, int64 at #/properties/u/type",
        ),
        (
            {
                "properties": {
                    "u": {
                        "anyOf": [
                            {"type": "string"},
                            {"type": "array", "items": {"type": "string"}},
                        ]
                    }
                }
            },
            r"union \(anyOf\) .* at #/properties/u/anyOf",
        ),
        (
            {
                "properties": {
                    "u": {
                        "oneOf": [
                            {"type": "boolean"},
                            {"type": "object", "properties": {"a": {"type": "string"}}},
                        ]
                    }
                }
            },
            r"at #/properties/u/oneOf",
        ),
        (
            {
                "properties": {"n": {"$ref": "#/definitions/Node"}},
                "definitions": {"Node": {"properties": {"next": {"$ref": "#/definitions/Node"}}}},
            },
            r"recursive \$ref '#/definitions/Node' at #/definitions/Node/properties/next",
        ),
        ({"properties": {"me": {"$ref": "#"}}}, r"recursive \$ref '#' at #/properties/me"),
        (
            {"properties": {"x": {"$ref": "#/definitions/Missing"}}},
            r"unknown \$ref '#/definitions/Missing' at #/properties/x",
        ),
        (
            {"properties": {"x": {"$ref": "other.json"}}},
            r"unknown \$ref 'other.json' at #/properties/x",
        ),
        ({"properties": {"x": {}}}, r"a schema that allows any value at #/properties/x"),
        (
            {"properties": {"x": {"type": "object"}}},
            r"an object with no properties .* at #/properties/x",
        ),
        (
            {"properties": {"x": {"type": "array"}}},
            r"an array with no items schema at #/properties/x",
        ),
        (
            {
                "properties": {
                    "x": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}
                }
            },
            r"tuple array .* at #/properties/x/prefixItems",
        ),
        (
            {"properties": {"x": {"allOf": [{"type": "string"}, {"type": "integer"}]}}},
            r"allOf of incompatible types .* at #/properties/x/allOf",
        ),
        (
            {
                "oneOf": [
                    {"properties": {"a": {"type": "string"}}},
                    {"properties": {"a": {"type": "integer"}}},
                ]
            },
            r"property 'a' is string in one member and int64 in another, at #/oneOf",
        ),
        (
            {"properties": {"x": {"enum": [{"a": 1}]}}},
            r"enum or const of objects or arrays at #/properties/x",
        ),
        ({"properties": {"x": {"type": "strin"}}}, r"unknown type 'strin' at #/properties/x"),
    ],
)
def test_schema_errors_name_the_construct_and_where(schema, match):
    with pytest.raises(SchemaError, match=match):
        json_schema_to_arrow(schema)


def test_schema_error_reaches_decode_column():
    schema = {"type": "object", "properties": {"u": {"type": ["string", "integer"]}}}
    registry = StubRegistry({1: Schema(json.dumps(schema), "JSON", schema_id=1)})
    with pytest.raises(SchemaError, match="#/properties/u"):
        decode_column(pa.array([_framed(1, b'{"u": 1}')]), registry)


def test_recursion_across_referenced_schemas():
    docs = {
        "a.json": {"properties": {"b": {"$ref": "b.json"}}},
        "b.json": {"properties": {"a": {"$ref": "a.json"}}},
    }
    with pytest.raises(SchemaError, match=r"recursive \$ref 'a.json' at b.json#/properties/a"):
        json_schema_to_arrow({"properties": {"top": {"$ref": "a.json"}}}, docs.get)


# ---- randomized ---------------------------------------------------------------------------


def _random_schema(rng: random.Random, depth: int) -> dict:
    kinds = ["integer", "number", "boolean", "string", "date-time", "date", "base64", "enum"]
    if depth < 3:
        kinds += ["object", "object", "array", "map", "nullable"]
    kind = rng.choice(kinds)
    if kind == "object":
        props = {
            f"f{i}_{rng.choice(['x', 'ü', 'a b', 'q'])}": _random_schema(rng, depth + 1)
            for i in range(rng.randint(1, 4))
        }
        return {"type": "object", "properties": props}
    if kind == "array":
        return {"type": "array", "items": _random_schema(rng, depth + 1)}
    if kind == "map":
        return {"type": "object", "additionalProperties": _random_schema(rng, depth + 1)}
    if kind == "nullable":
        inner = _random_schema(rng, depth + 1)
        return {"oneOf": [{"type": "null"}, inner]} if rng.random() < 0.5 else inner
    if kind == "date-time":
        return {"type": "string", "format": "date-time"}
    if kind == "date":
        return {"type": "string", "format": "date"}
    if kind == "base64":
        return {"type": "string", "contentEncoding": "base64"}
    if kind == "enum":
        return {"enum": ["RED", "GREEN", "BLUE"]}
    return {"type": kind}


def _random_value(rng: random.Random, schema: dict):
    if "oneOf" in schema:
        return None if rng.random() < 0.3 else _random_value(rng, schema["oneOf"][1])
    if rng.random() < 0.1:
        return None
    kind = schema.get("type")
    if kind == "object" and "properties" in schema:
        out = {}
        for name, sub in schema["properties"].items():
            if rng.random() < 0.85:
                out[name] = _random_value(rng, sub)
        if rng.random() < 0.2:
            out["undeclared"] = [1, {"x": "y"}]
        return out
    if kind == "object":
        return {
            rng.choice(["k", "ключ", "k2", 'a"b', "x y"]) + str(rng.randint(0, 5)): v
            for v in [_random_value(rng, schema["additionalProperties"]) for _ in range(3)]
            if v is not None
        }
    if kind == "array":
        return [_random_value(rng, schema["items"]) for _ in range(rng.randint(0, 3))]
    if kind == "integer":
        return rng.choice([0, -1, 2**53, 2**63 - 1, -(2**63), rng.randint(-1000, 1000)])
    if kind == "number":
        return rng.choice([0.0, -1.5, 1e300, 2.5e-300, rng.random()])
    if kind == "boolean":
        return rng.random() < 0.5
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("format") == "date-time":
        moment = dt.datetime(1900, 1, 1, tzinfo=UTC) + dt.timedelta(
            seconds=rng.randint(0, 6 * 10**9), microseconds=rng.randint(0, 999999)
        )
        offset = dt.timezone(dt.timedelta(minutes=rng.choice([0, 60, -330])))
        return moment.astimezone(offset).isoformat().replace("+00:00", "Z")
    if schema.get("format") == "date":
        return (dt.date(1900, 1, 1) + dt.timedelta(days=rng.randint(0, 60000))).isoformat()
    if schema.get("contentEncoding") == "base64":
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 7)))
        return base64.b64encode(raw).decode()
    return rng.choice(["", "plain", "ünï\ncode\t", "😀", '"\\/', "\u0000x"])


@pytest.mark.parametrize("seed", range(12))
def test_random_schemas_and_values(seed):
    rng = random.Random(seed)
    schema = _random_schema(rng, 0)
    if schema.get("type") != "object" or "properties" not in schema:
        schema = {"type": "object", "properties": {"only": schema}}
    registry = StubRegistry({9: Schema(json.dumps(schema), "JSON", schema_id=9)})
    values = [_random_value(rng, schema) or {} for _ in range(60)]
    payloads = [
        _framed(9, json.dumps(v, indent=rng.choice([None, None, 1, 2])).encode()) for v in values
    ]
    if seed % 2:
        payloads[rng.randrange(60)] = None
    decoded = decode_column(pa.array(payloads, pa.binary()), registry, on_error="null")
    t = decoded.values.type
    assert decoded.error_count == 0, [e for e in decoded.errors.to_pylist() if e]
    expected = [None if p is None else v for p, v in zip(payloads, values, strict=True)]
    assert [_actual(v, t) for v in decoded.values.to_pylist()] == [_expect(v, t) for v in expected]


def test_columns_of_nulls_and_empty_columns():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    registry = StubRegistry({1: Schema(json.dumps(schema), "JSON", schema_id=1)})
    reader = registry.schemas[1]
    decoded = decode_column(pa.array([None, None], pa.binary()), registry, reader_schema=reader)
    assert decoded.values.to_pylist() == [None, None]
    assert decoded.values.type == pa.struct([pa.field("a", pa.int64())])
    decoded = decode_column(pa.array([], pa.binary()), registry, reader_schema=reader)
    assert len(decoded.values) == 0
    column = pa.array([_framed(1, b'{"a": 1}'), _framed(1, b"x"), None], pa.large_binary())
    decoded = decode_column(column, registry, on_error="null")
    assert decoded.values.to_pylist() == [{"a": 1}, None, None]
    assert decoded.errors.to_pylist()[1].startswith("invalid JSON")


def test_map_keys_found_where_arrow_inference_refuses_a_group():
    schema = {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}},
    }
    registry = StubRegistry({1: Schema(json.dumps(schema), "JSON", schema_id=1)})
    values = [
        {"m": {f"k{i % 7}": i}, "extra": [i, "x"] if i % 500 == 0 else i} for i in range(1500)
    ]
    column = pa.array([_framed(1, json.dumps(v).encode()) for v in values])
    decoded = decode_column(column, registry)
    assert decoded.values.to_pylist() == [{"m": list(v["m"].items())} for v in values]


def test_a_payload_of_two_values_does_not_shift_the_blame():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    registry = StubRegistry({1: Schema(json.dumps(schema), "JSON", schema_id=1)})
    payloads = [b'{"a": 0}', b'{"a": 1}{"a": 1}', b'{"a": 2}', b'{"a": "3"}', b'{"a": 4}']
    column = pa.array([_framed(1, p) for p in payloads * 3])
    decoded = decode_column(column, registry, on_error="null")
    assert decoded.values.to_pylist() == [{"a": 0}, None, {"a": 2}, None, {"a": 4}] * 3
    errors = decoded.errors.to_pylist()
    assert [i for i, e in enumerate(errors) if e] == [1, 3, 6, 8, 11, 13]
    assert "Extra data" in errors[1] and "Column(/a)" in errors[3]
