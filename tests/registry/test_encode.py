"""kafkawire.registry.encode: Arrow struct columns to registry-framed Avro, read back by
fastavro's schemaless_reader and by decode_column; avro_schema_for for every Arrow type;
rows that do not fit; kafkawire.registry.naming's subject name strategies."""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal

import fastavro
import pyarrow as pa
import pytest

from kafkawire.registry.client import Reference, Schema, SchemaRegistryClient
from kafkawire.registry.decode import decode_column
from kafkawire.registry.encode import (
    EncodeError,
    avro_schema_for,
    encode_avro,
    encode_json,
    encode_protobuf,
    framing,
    json_schema_for,
    proto_schema_for,
)
from kafkawire.registry.errors import SchemaError
from kafkawire.registry.naming import record_full_name, strategy_name, subject_name

UTC = dt.timezone.utc

TYPE = pa.struct(
    [
        pa.field("id", pa.int64(), nullable=False),
        ("small", pa.int8()),
        ("u16", pa.uint16()),
        ("u32", pa.uint32()),
        ("u64", pa.uint64()),
        ("f", pa.float32()),
        ("d", pa.float64()),
        ("ok", pa.bool_()),
        ("s", pa.large_string()),
        ("b", pa.binary()),
        ("fixed", pa.binary(3)),
        ("price", pa.decimal128(12, 3)),
        ("day", pa.date32()),
        ("ms", pa.time32("ms")),
        ("us", pa.time64("us")),
        ("at", pa.timestamp("ns", tz="UTC")),
        ("local", pa.timestamp("ms")),
        ("wait", pa.duration("ms")),
        ("tags", pa.list_(pa.string())),
        ("big", pa.large_list(pa.int32())),
        ("attrs", pa.map_(pa.string(), pa.int64())),
        ("inner", pa.struct([("x", pa.float64()), ("y", pa.struct([("z", pa.string())]))])),
        ("cat", pa.dictionary(pa.int8(), pa.string())),
        ("nothing", pa.null()),
    ]
)


def rows() -> list[dict | None]:
    full = {
        "id": 1,
        "small": -3,
        "u16": 65535,
        "u32": 2**32 - 1,
        "u64": 2**64 - 1,
        "f": 1.5,
        "d": 2.25,
        "ok": True,
        "s": "héllo",
        "b": b"\x00\x01",
        "fixed": b"abc",
        "price": Decimal("12.345"),
        "day": dt.date(2024, 2, 29),
        "ms": dt.time(1, 2, 3, 4000),
        "us": dt.time(1, 2, 3, 4),
        "at": dt.datetime(2024, 1, 2, 3, 4, 5, 6, UTC),
        "local": dt.datetime(2024, 1, 2, 3, 4, 5, 6000),
        "wait": dt.timedelta(seconds=2, milliseconds=5),
        "tags": ["a", None, "c"],
        "big": [1, 2],
        "attrs": [("k", 1), ("l", None)],
        "inner": {"x": 0.5, "y": {"z": "deep"}},
        "cat": "red",
        "nothing": None,
    }
    empty = {name: None for name in TYPE.names} | {"id": 2}
    return [full, None, empty]


@pytest.fixture
def files(tmp_path) -> SchemaRegistryClient:
    return SchemaRegistryClient(tmp_path)


def registered(registry: SchemaRegistryClient, schema: dict | str, subject="t-value") -> Schema:
    text = schema if isinstance(schema, str) else json.dumps(schema)
    return registry.register(subject, Schema(text))


def test_round_trip_through_fastavro_and_decode_column(files):
    derived = avro_schema_for(TYPE, "Row", "test.ns")
    schema = registered(files, derived)
    array = pa.array(rows(), TYPE)
    encoded = encode_avro(array, schema)
    assert encoded.type == pa.binary()
    assert encoded.null_count == 1 and encoded[1].as_py() is None  # a null row: a tombstone
    prefix = framing(schema.schema_id)
    assert prefix == b"\x00" + schema.schema_id.to_bytes(4, "big")
    parsed = fastavro.parse_schema(derived)
    first = encoded[0].as_py()
    assert first.startswith(prefix)
    back = fastavro.schemaless_reader(io.BytesIO(first[5:]), parsed)
    assert back["u64"] == Decimal(2**64 - 1)
    assert back["at"] == dt.datetime(2024, 1, 2, 3, 4, 5, 6, UTC)  # ns to microseconds
    assert back["wait"] == 2005000  # microseconds
    assert back["attrs"] == {"k": 1, "l": None}
    assert back["inner"] == {"x": 0.5, "y": {"z": "deep"}}
    assert back["ms"] == dt.time(1, 2, 3, 4000) and back["us"] == dt.time(1, 2, 3, 4)
    assert back["local"] == dt.datetime(2024, 1, 2, 3, 4, 5, 6000)
    assert back["cat"] == "red" and back["fixed"] == b"abc" and back["s"] == "héllo"

    decoded = decode_column(encoded, files)
    assert decoded.error_count == 0
    values = decoded.values.to_pylist()
    assert values[1] is None
    assert values[0]["tags"] == ["a", None, "c"] and values[0]["big"] == [1, 2]
    assert values[0]["price"] == Decimal("12.345") and values[0]["day"] == dt.date(2024, 2, 29)
    assert values[0]["u32"] == 2**32 - 1 and values[0]["small"] == -3
    assert values[2] == {name: None for name in TYPE.names} | {"id": 2}
    assert decoded.schema_ids.to_pylist() == [schema.schema_id, None, schema.schema_id]


def test_sliced_and_chunked_input(files):
    schema = registered(files, avro_schema_for(TYPE, "Row"))
    array = pa.array(rows(), TYPE)
    whole = encode_avro(array, schema).to_pylist()
    assert encode_avro(array.slice(1), schema).to_pylist() == whole[1:]
    chunked = pa.chunked_array([array.slice(0, 1), array.slice(1)])
    assert encode_avro(chunked, schema).to_pylist() == whole


def test_given_schema_defaults_and_non_record(files):
    schema = registered(
        files,
        {
            "type": "record",
            "name": "R",
            "fields": [
                {"name": "a", "type": "long"},
                {"name": "note", "type": "string", "default": "none"},
            ],
        },
    )
    encoded = encode_avro(pa.array([{"a": 5}], pa.struct([("a", pa.int32())])), schema)
    assert decode_column(encoded, files).values.to_pylist() == [{"a": 5, "note": "none"}]
    # a non-record schema takes the struct's single field (as decode_column gives it)
    text = registered(files, '"string"', subject="s-value")
    column = pa.array([{"value": "x"}, None, {"value": None}], pa.struct([("value", pa.string())]))
    with pytest.raises(EncodeError, match=r"row 2: the value: None does not fit"):
        encode_avro(column, text)
    encoded = encode_avro(column.slice(0, 2), text)
    assert encoded.to_pylist()[1] is None
    assert decode_column(encoded, files).values.to_pylist() == [{"value": "x"}, None]


@pytest.mark.parametrize(
    ("schema", "arrow", "value", "message"),
    [
        (
            {"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]},
            pa.struct([("a", pa.int64())]),
            {"a": 2**40},
            r"row 1: field R\.a: 1099511627776 does not fit the Avro type int",
        ),
        (
            {"type": "record", "name": "R", "fields": [{"name": "a", "type": "string"}]},
            pa.struct([("a", pa.string())]),
            {"a": None},
            r"row 1: field R\.a: None does not fit the Avro type string",
        ),
        (
            {
                "type": "record",
                "name": "R",
                "fields": [{"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A"]}}],
            },
            pa.struct([("e", pa.string())]),
            {"e": "B"},
            r"row 1: field R\.e: 'B' does not fit",
        ),
    ],
)
def test_rows_that_do_not_fit(files, schema, arrow, value, message):
    registered_schema = registered(files, schema)
    first = {name: None for name in arrow.names} | {arrow.names[0]: 1}
    if schema["fields"][0]["type"] == "string":
        first = {"a": "fine"}
    if "e" in arrow.names:
        first = {"e": "A"}
    with pytest.raises(EncodeError, match=message) as info:
        encode_avro(pa.array([first, value], arrow), registered_schema)
    assert info.value.row == 1


def test_columns_that_do_not_fit(files):
    schema = registered(
        files,
        {
            "type": "record",
            "name": "R",
            "fields": [{"name": "a", "type": "int"}, {"name": "b", "type": "int", "default": 0}],
        },
    )
    extra = pa.array([{"a": 1, "extra": 2}], pa.struct([("a", pa.int32()), ("extra", pa.int32())]))
    with pytest.raises(EncodeError, match=r"fields \['extra'\] of the column are not in"):
        encode_avro(extra, schema)
    with pytest.raises(EncodeError, match=r"fields \['a'\] of the Avro record R \(without a"):
        encode_avro(pa.array([{"b": 1}], pa.struct([("b", pa.int32())])), schema)


def test_needs_an_id_and_a_struct(files):
    with pytest.raises(ValueError, match="no id"):
        encode_avro(pa.array([{"a": 1}]), Schema('"int"'))
    schema = registered(files, '"int"', subject="i-value")
    with pytest.raises(TypeError, match="struct"):
        encode_avro(pa.array([1]), schema)
    with pytest.raises(SchemaError, match="Avro schema is needed"):
        encode_avro(pa.array([{"a": 1}]), Schema("{}", "JSON", schema_id=3))


def test_references_resolved_through_the_registry(registry, subject):
    client = SchemaRegistryClient(registry.url)
    point = {
        "type": "record",
        "name": "Point",
        "namespace": "geo",
        "fields": [{"name": "x", "type": "int"}],
    }
    client.register(f"{subject}-point", Schema(json.dumps(point)))
    outer = Schema(
        json.dumps(
            {"type": "record", "name": "Shape", "fields": [{"name": "p", "type": "geo.Point"}]}
        ),
        references=(Reference("geo.Point", f"{subject}-point", 1),),
    )
    schema = client.register(subject, outer)
    encoded = encode_avro(pa.array([{"p": {"x": 7}}]), schema, registry=client)
    assert decode_column(encoded, client).values.to_pylist() == [{"p": {"x": 7}}]


@pytest.mark.parametrize(
    ("arrow", "avro"),
    [
        (pa.null(), "null"),
        (pa.bool_(), "boolean"),
        (pa.int8(), "int"),
        (pa.int16(), "int"),
        (pa.int32(), "int"),
        (pa.uint8(), "int"),
        (pa.uint16(), "int"),
        (pa.int64(), "long"),
        (pa.uint32(), "long"),
        (pa.uint64(), {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 0}),
        (pa.float16(), "float"),
        (pa.float32(), "float"),
        (pa.float64(), "double"),
        (pa.string(), "string"),
        (pa.large_string(), "string"),
        (pa.string_view(), "string"),
        (pa.binary(), "bytes"),
        (pa.large_binary(), "bytes"),
        (pa.binary_view(), "bytes"),
        (pa.binary(16), {"type": "fixed", "name": "f", "namespace": "ns.R", "size": 16}),
        (
            pa.decimal128(10, 2),
            {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2},
        ),
        (
            pa.decimal256(50, 5),
            {"type": "bytes", "logicalType": "decimal", "precision": 50, "scale": 5},
        ),
        (pa.date32(), {"type": "int", "logicalType": "date"}),
        (pa.date64(), {"type": "int", "logicalType": "date"}),
        (pa.time32("s"), {"type": "int", "logicalType": "time-millis"}),
        (pa.time64("ns"), {"type": "long", "logicalType": "time-micros"}),
        (pa.timestamp("s", tz="Europe/Paris"), {"type": "long", "logicalType": "timestamp-micros"}),
        (pa.timestamp("us"), {"type": "long", "logicalType": "local-timestamp-micros"}),
        (pa.duration("s"), "long"),
        (pa.list_(pa.int32()), {"type": "array", "items": ["null", "int"]}),
        (
            pa.list_(pa.field("e", pa.int32(), nullable=False)),
            {"type": "array", "items": "int"},
        ),
        (pa.large_list(pa.string()), {"type": "array", "items": ["null", "string"]}),
        (pa.list_(pa.int8(), 2), {"type": "array", "items": ["null", "int"]}),
        (pa.map_(pa.string(), pa.float64()), {"type": "map", "values": ["null", "double"]}),
        (
            pa.struct([pa.field("x", pa.int32(), nullable=False)]),
            {
                "type": "record",
                "name": "f",
                "namespace": "ns.R",
                "fields": [{"name": "x", "type": "int"}],
            },
        ),
        (pa.dictionary(pa.int32(), pa.string()), "string"),
    ],
)
def test_avro_schema_for_every_type(arrow, avro):
    first = pa.field("f", arrow, nullable=arrow == pa.null())  # null is nullable
    schema = avro_schema_for(pa.struct([first, pa.field("n", arrow)]), "R", "ns")
    assert schema["type"] == "record" and schema["name"] == "R" and schema["namespace"] == "ns"
    assert schema["fields"][0] == {"name": "f", "type": avro}
    nullable = schema["fields"][1]
    if avro == "null":
        assert nullable == {"name": "n", "type": "null"}
    else:
        assert nullable["type"][0] == "null" and nullable["default"] is None
    if not (isinstance(avro, dict) and avro.get("type") in ("fixed", "record")):
        fastavro.parse_schema(schema)  # valid Avro (two fixed/records of one name would not be)


def test_avro_schema_for_nested_names_and_refusals():
    t = pa.struct([("a", pa.struct([("b", pa.struct([("c", pa.int32())]))]))])
    schema = avro_schema_for(t, "Top", "")
    a = schema["fields"][0]["type"][1]
    assert (a["name"], a["namespace"]) == ("a", "Top")
    b = a["fields"][0]["type"][1]
    assert (b["name"], b["namespace"]) == ("b", "Top.a")
    fastavro.parse_schema(schema)
    with pytest.raises(SchemaError, match="string keys"):
        avro_schema_for(pa.struct([("m", pa.map_(pa.int32(), pa.int32()))]))
    with pytest.raises(SchemaError, match="no Avro counterpart"):
        avro_schema_for(pa.struct([("i", pa.month_day_nano_interval())]))
    with pytest.raises(SchemaError, match="struct type"):
        avro_schema_for(pa.int32())


def test_subject_name_strategies():
    assert subject_name("TopicNameStrategy", "orders", "shop.Order") == "orders-value"
    assert subject_name("TopicNameStrategy", "orders", None, key=True) == "orders-key"
    assert subject_name("RecordNameStrategy", "orders", "shop.Order") == "shop.Order"
    assert subject_name("TopicRecordNameStrategy", "orders", "shop.Order") == "orders-shop.Order"
    java = "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy"
    assert strategy_name(java) == "TopicRecordNameStrategy"
    assert strategy_name("recordnamestrategy") == "RecordNameStrategy"
    with pytest.raises(ValueError, match="must be one of"):
        strategy_name("TopicStrategy")
    with pytest.raises(ValueError, match="needs the topic"):
        subject_name("TopicNameStrategy", None, "R")
    with pytest.raises(ValueError, match="named"):
        subject_name("RecordNameStrategy", "t", None)
    assert record_full_name({"type": "record", "name": "R", "namespace": "a.b"}) == "a.b.R"
    assert record_full_name({"type": "record", "name": "x.R", "namespace": "a.b"}) == "x.R"
    assert record_full_name("string") is None


# ---- JSON Schema --------------------------------------------------------------------------

JSON_TYPE = pa.struct(
    [
        pa.field("id", pa.int64(), nullable=False),
        ("name", pa.string()),
        ("ratio", pa.float64()),
        ("ok", pa.bool_()),
        ("blob", pa.binary()),
        ("day", pa.date32()),
        ("at", pa.timestamp("us", tz="UTC")),
        ("tags", pa.list_(pa.string())),
        ("attrs", pa.map_(pa.string(), pa.int64())),
        ("inner", pa.struct([("x", pa.float64())])),
    ]
)


def json_rows() -> list[dict | None]:
    return [
        {
            "id": 1,
            "name": "a\nb",
            "ratio": 0.5,
            "ok": True,
            "blob": b"\x00\xff",
            "day": dt.date(2024, 2, 29),
            "at": dt.datetime(2024, 1, 2, 3, 4, 5, 6, UTC),
            "tags": ["x", "y"],
            "attrs": [("k", 1)],
            "inner": {"x": 1.5},
        },
        None,
        {"id": 2} | {name: None for name in JSON_TYPE.names[1:]},
    ]


def test_json_round_trip_through_decode_column(files):
    derived = json_schema_for(JSON_TYPE, "shop.Row")
    assert derived["title"] == "shop.Row" and derived["required"] == ["id"]
    assert derived["properties"]["blob"] == {
        "type": ["string", "null"],
        "contentEncoding": "base64",
    }
    schema = files.register("j-value", Schema(json.dumps(derived), "JSON"))
    encoded = encode_json(pa.array(json_rows(), JSON_TYPE), schema)
    first = encoded[0].as_py()
    assert first[:5] == framing(schema.schema_id)
    text = json.loads(first[5:])
    assert text["at"] == "2024-01-02T03:04:05.000006Z" and text["blob"] == "AP8="
    assert text["attrs"] == {"k": 1} and text["day"] == "2024-02-29"
    assert encoded[1].as_py() is None
    decoded = decode_column(encoded, files, format="json")
    assert decoded.error_count == 0
    values = decoded.values.to_pylist()
    assert values[0] == {**json_rows()[0], "attrs": [("k", 1)]}
    assert values[1] is None and values[2]["id"] == 2 and values[2]["name"] is None


def test_json_rows_that_do_not_fit(files):
    schema = files.register(
        "jj-value",
        Schema(
            json.dumps(
                {
                    "type": "object",
                    "properties": {"n": {"type": "integer", "maximum": 10}},
                    "required": ["n"],
                }
            ),
            "JSON",
        ),
    )
    t = pa.struct([("n", pa.int64())])
    with pytest.raises(EncodeError, match=r"row 1: field n: 11 is greater than the maximum"):
        encode_json(pa.array([{"n": 1}, {"n": 11}], t), schema)
    with pytest.raises(EncodeError, match=r"row 0: field n: None is not of type 'integer'"):
        encode_json(pa.array([{"n": None}], t), schema)
    assert encode_json(pa.array([{"n": 11}], t), schema, validate=False)[0].as_py()[5:] == (
        b'{"n":11}'
    )
    with pytest.raises(SchemaError, match="JSON Schema is needed"):
        encode_json(pa.array([{"n": 1}], t), Schema("{}", schema_id=1))


@pytest.mark.parametrize(
    ("arrow", "node"),
    [
        (pa.null(), {"type": "null"}),
        (pa.bool_(), {"type": "boolean"}),
        (pa.uint64(), {"type": "integer"}),
        (pa.float32(), {"type": "number"}),
        (pa.decimal128(5, 2), {"type": "number"}),
        (pa.large_string(), {"type": "string"}),
        (pa.binary(4), {"type": "string", "contentEncoding": "base64"}),
        (pa.date32(), {"type": "string", "format": "date"}),
        (pa.timestamp("ms", tz="UTC"), {"type": "string", "format": "date-time"}),
        (pa.timestamp("ms"), {"type": "string"}),
        (pa.time64("us"), {"type": "string"}),
        (pa.duration("us"), {"type": "integer"}),
        (
            pa.list_(pa.field("e", pa.int32(), nullable=False)),
            {"type": "array", "items": {"type": "integer"}},
        ),
        (
            pa.map_(pa.string(), pa.int32()),
            {"type": "object", "additionalProperties": {"type": ["integer", "null"]}},
        ),
    ],
)
def test_json_schema_for_every_type(arrow, node):
    schema = json_schema_for(pa.struct([pa.field("f", arrow, nullable=arrow == pa.null())]))
    assert schema["properties"]["f"] == node
    with pytest.raises(SchemaError, match="string keys"):
        json_schema_for(pa.struct([("m", pa.map_(pa.int32(), pa.int32()))]))


# ---- Protobuf -----------------------------------------------------------------------------

PROTO_TYPE = pa.struct(
    [
        pa.field("id", pa.int64(), nullable=False),
        ("name", pa.string()),
        ("u", pa.uint64()),
        ("at", pa.timestamp("us", tz="UTC")),
        ("wait", pa.duration("us")),
        ("day", pa.date32()),
        ("price", pa.decimal128(10, 2)),
        ("b", pa.binary()),
        ("tags", pa.list_(pa.string())),
        ("m", pa.map_(pa.string(), pa.int32())),
        ("im", pa.map_(pa.int64(), pa.string())),
        ("inner", pa.struct([("x", pa.float64()), ("deep", pa.struct([("z", pa.bool_())]))])),
        ("items", pa.list_(pa.struct([("q", pa.int32())]))),
        ("ms", pa.time32("ms")),
    ]
)


def test_protobuf_round_trip_through_decode_column(files):
    text = proto_schema_for(PROTO_TYPE, "Row", "shop.v1")
    assert "package shop.v1;" in text and "optional uint64 u = 3;" in text
    assert "  int64 id = 1;" in text and "repeated Items items = 13;" in text
    schema = files.register("p-value", Schema(text, "PROTOBUF"))
    row = {
        "id": 1,
        "name": "x",
        "u": 2**64 - 1,
        "at": dt.datetime(2024, 1, 1, 0, 0, 0, 5, UTC),
        "wait": dt.timedelta(seconds=1, microseconds=5),
        "day": dt.date(2024, 1, 2),
        "price": Decimal("1.25"),
        "b": b"\x00\x01",
        "tags": ["a", "b"],
        "m": [("k", 3)],
        "im": [(5, "five")],
        "inner": {"x": 1.5, "deep": {"z": True}},
        "items": [{"q": 1}, {"q": None}],
        "ms": dt.time(0, 0, 1),
    }
    encoded = encode_protobuf(pa.array([row, None, {"id": 2}], PROTO_TYPE), schema)
    assert encoded[0].as_py()[:6] == framing(schema.schema_id) + b"\x00"  # message index 0
    assert encoded[1].as_py() is None
    decoded = decode_column(encoded, files, format="protobuf")
    values = decoded.values.to_pylist()
    assert values[0] == {
        **row,
        "day": 19724,  # days since 1970-01-01
        "price": "1.25",
        "ms": 1000,
    }
    assert values[1] is None
    assert values[2]["id"] == 2 and values[2]["name"] is None and values[2]["tags"] == []


def test_protobuf_refusals(files):
    for arrow, message in [
        (pa.list_(pa.list_(pa.int32())), "no list of lists"),
        (pa.map_(pa.float64(), pa.int32()), "map key cannot be double"),
        (pa.null(), "no Protobuf counterpart"),
    ]:
        with pytest.raises(SchemaError, match=message):
            proto_schema_for(pa.struct([("f", arrow)]))
    with pytest.raises(SchemaError, match="not a Protobuf identifier"):
        proto_schema_for(pa.struct([("a-b", pa.int32())]))
    schema = files.register(
        "q-value", Schema(proto_schema_for(pa.struct([("n", pa.int32())])), "PROTOBUF")
    )
    with pytest.raises(EncodeError, match=r"fields \['extra'\] of the column are not in"):
        encode_protobuf(
            pa.array([{"n": 1, "extra": 2}], pa.struct([("n", pa.int32()), ("extra", pa.int32())])),
            schema,
        )
    with pytest.raises(EncodeError, match=r"row 1: .*n"):
        encode_protobuf(pa.array([{"n": 1}, {"n": 2**40}], pa.struct([("n", pa.int64())])), schema)
