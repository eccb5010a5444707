"""Avro payloads to Arrow (kafkawire.registry.avro, src_c/avro_decode.c): the truth is
fastavro's reader and confluent-kafka's AvroSerializer/AvroDeserializer, through the local
registry server and kafkawire's SchemaRegistryClient."""

from __future__ import annotations

import datetime as dt
import decimal
import io
import json
import math
import random
import struct
import uuid

import fastavro
import pyarrow as pa
import pytest

from kafkawire.client import TopicPartition
from kafkawire.records import BatchBuilder, decode_records
from kafkawire.registry import (
    PayloadError,
    RegistryDeserializer,
    Schema,
    SchemaError,
    SchemaNotFoundError,
    SchemaRegistryClient,
    decode_column,
)

UTC = dt.timezone.utc

EVERY_TYPE = {
    "type": "record",
    "name": "Every",
    "namespace": "test.avro",
    "fields": [
        {"name": "b", "type": "boolean"},
        {"name": "i", "type": "int"},
        {"name": "l", "type": "long"},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "by", "type": "bytes"},
        {"name": "s", "type": "string"},
        {"name": "n", "type": "null"},
        {
            "name": "dec",
            "type": {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 4},
        },
        {
            "name": "decf",
            "type": {
                "type": "fixed",
                "name": "D16",
                "size": 16,
                "logicalType": "decimal",
                "precision": 38,
                "scale": 2,
            },
        },
        {"name": "date", "type": {"type": "int", "logicalType": "date"}},
        {"name": "tms", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "tus", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "tsms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "tsus", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "ltsms", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
        {"name": "ltsus", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
        {"name": "uuid", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
        {"name": "e", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
        {"name": "arr", "type": {"type": "array", "items": "long"}},
        {"name": "m", "type": {"type": "map", "values": ["null", "string"]}},
        {"name": "opt", "type": ["null", "string"], "default": None},
        {"name": "u", "type": ["null", "int", "string", "Color"]},
        {
            "name": "rec",
            "type": {
                "type": "record",
                "name": "Inner",
                "fields": [
                    {"name": "x", "type": "int"},
                    {"name": "tags", "type": {"type": "array", "items": "string"}},
                ],
            },
        },
        {"name": "recs", "type": {"type": "array", "items": "Inner"}},
        {"name": "nested", "type": {"type": "map", "values": {"type": "array", "items": "Inner"}}},
    ],
}


def every_value(i: int) -> dict:
    return {
        "b": i % 2 == 0,
        "i": [-(2**31), 0, 2**31 - 1, -1, 64][i % 5],
        "l": [-(2**63), 2**63 - 1, 0, -64, 1 << 40][i % 5],
        "f": [1.5, -0.0, 3.4028234663852886e38, 1e-30, 7.0][i % 5],
        "d": [math.pi, -1e300, 0.0, 5e-324, 2.5][i % 5],
        "by": bytes(range(i % 7)),
        "s": ["", "ascii", "ünïcödé ✓", "𝄞 clef", "x" * 300][i % 5],
        "n": None,
        "dec": decimal.Decimal(
            ["0", "-12345678.9012", "99999999999999.9999", "0.0001", "-0.5"][i % 5]
        ),
        "decf": decimal.Decimal(
            ["123.45", "-999999999999999999999999999999999999.99", "0.01", "0", "1"][i % 5]
        ),
        "date": dt.date(1970, 1, 1) + dt.timedelta(days=[0, -1, 20000, 1, 365][i % 5]),
        "tms": dt.time(i % 24, i % 60, 7, 123000),
        "tus": dt.time(23, 59, 59, 999999 - i),
        "tsms": dt.datetime(2024, 2, 29, 12, 0, 0, 123000, tzinfo=UTC) + dt.timedelta(days=i),
        "tsus": dt.datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=UTC) + dt.timedelta(hours=i),
        "ltsms": dt.datetime(2001, 1, 1, 1, 1, 1, 1000) + dt.timedelta(minutes=i),
        "ltsus": dt.datetime(2001, 1, 1, 1, 1, 1, 1) + dt.timedelta(minutes=i),
        "uuid": str(uuid.UUID(int=i * 7919)),
        "fx": struct.pack(">I", i),
        "e": ["RED", "GREEN"][i % 2],
        "arr": list(range(i % 4)),
        "m": {f"k{j}": (None if j % 2 else f"v{j}") for j in range(i % 3)},
        "opt": None if i % 3 == 0 else f"opt{i}",
        "u": [None, 42, "str", "GREEN"][i % 4],
        "rec": {"x": i, "tags": [str(j) for j in range(i % 3)]},
        "recs": [{"x": j, "tags": []} for j in range(i % 3)],
        "nested": {"a": [{"x": 1, "tags": ["t"]}], "b": []} if i % 2 else {},
    }


def plain(value, t: pa.DataType):
    """A decoded Arrow value in fastavro's shape: general unions (struct<member0..>) become
    the member that is set, maps become dicts."""
    if value is None:
        return None
    if pa.types.is_struct(t):
        names = [t.field(k).name for k in range(t.num_fields)]
        if names and all(n == f"member{k}" for k, n in enumerate(names)):
            for k, n in enumerate(names):
                if value[n] is not None:
                    return plain(value[n], t.field(k).type)
            return None
        return {n: plain(value[n], t.field(n).type) for n in names}
    if pa.types.is_map(t):
        return {k: plain(v, t.item_type) for k, v in value}
    if pa.types.is_list(t):
        return [plain(v, t.value_type) for v in value]
    return value


def frame(schema_id: int, payload: bytes) -> bytes:
    return b"\0" + struct.pack(">I", schema_id) + payload


def avro_bytes(schema, value) -> bytes:
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(schema), value)
    return buf.getvalue()


@pytest.fixture
def files(tmp_path):
    """A file registry: register(schema dict) -> id."""
    client = SchemaRegistryClient(tmp_path)

    def register(schema, subject="t-value") -> int:
        return client.register(subject, Schema(json.dumps(schema))).schema_id

    register.client = client
    return register


def test_every_type_equals_fastavro(files):
    sid = files(EVERY_TYPE)
    values = [every_value(i) for i in range(40)]
    payloads = [avro_bytes(EVERY_TYPE, v) for v in values]
    decoded = decode_column(pa.array([frame(sid, p) for p in payloads]), files.client)
    assert decoded.error_count == 0
    assert decoded.schema_ids.to_pylist() == [sid] * 40
    decoded.values.validate(full=True)
    t = decoded.values.type
    assert t.field("dec").type == pa.decimal128(20, 4)
    assert t.field("tsms").type == pa.timestamp("ms", tz="UTC")
    assert t.field("ltsus").type == pa.timestamp("us")
    assert t.field("u").type == pa.struct(
        [("member0", pa.int32()), ("member1", pa.string()), ("member2", pa.string())]
    )
    parsed = fastavro.parse_schema(EVERY_TYPE)
    for got, payload in zip(decoded.values.to_pylist(), payloads, strict=True):
        want = fastavro.schemaless_reader(io.BytesIO(payload), parsed, None)
        want["uuid"] = str(want["uuid"])
        assert plain(got, t) == want


def test_nulls_and_bad_rows_keep_their_places(files):
    sid = files(EVERY_TYPE)
    good = frame(sid, avro_bytes(EVERY_TYPE, every_value(1)))
    column = pa.array([good, None, b"\x07abc", good[:-2], b"", good, good + b"\0"])
    decoded = decode_column(column, files.client, on_error="null")
    rows = decoded.values.to_pylist()
    assert rows[0] is not None and rows[5] is not None
    assert rows[1] is None and rows[2] is None and rows[3] is None and rows[4] is None
    assert rows[6] is None
    errors = decoded.errors.to_pylist()
    assert errors[0] is None and errors[1] is None and errors[5] is None
    assert "magic byte 7" in errors[2]
    assert "ends inside a field" in errors[3] and "field nested" in errors[3]
    assert "empty value" in errors[4]
    assert "left over" in errors[6]
    assert decoded.schema_ids.to_pylist() == [sid, None, None, None, None, sid, None]
    decoded.values.validate(full=True)
    with pytest.raises(PayloadError, match="row 2: magic byte 7"):
        decode_column(column, files.client)


@pytest.mark.parametrize(
    ("schema", "payload", "message"),
    [
        (["null", "int"], b"\x04\x02", "union branch index outside"),  # index 2 of 2
        ("long", b"\xff" * 11, "longer than 10 bytes"),
        ("long", b"\xff\xff", "ends inside a field"),
        ("int", b"\x80\x80\x80\x80\x20", "outside 32 bits"),
        ("string", b"\x03", "negative"),
        ("string", b"\x10ab", "ends inside"),
        ("string", b"\x04\xff\xfe", "not valid UTF-8"),
        ({"type": "enum", "name": "E", "symbols": ["A"]}, b"\x02", "enum index"),
        ("boolean", b"\x02", "impossible"),
        ({"type": "array", "items": "null"}, b"\xfe\xff\xff\xff\x0f", "impossible"),
        ({"type": "fixed", "name": "F", "size": 8}, b"1234", "ends inside"),
        (
            {"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 0},
            b"\x06\x01\x00\x00",
            "wider than",
        ),
    ],
)
def test_bad_payloads_are_errors_with_the_byte(files, schema, payload, message):
    sid = files(schema)
    decoded = decode_column(pa.array([frame(sid, payload)]), files.client, on_error="null")
    assert decoded.values.to_pylist() == [None]
    assert message in decoded.errors[0].as_py()
    assert "byte" in decoded.errors[0].as_py()
    with pytest.raises(PayloadError, match=message):
        decode_column(pa.array([frame(sid, payload)]), files.client)


def test_non_record_schema_is_a_struct_of_value(files):
    sid = files("string")
    decoded = decode_column(pa.array([frame(sid, b"\x04hi"), None]), files.client)
    assert decoded.values.type == pa.struct([("value", pa.string())])
    assert decoded.values.to_pylist() == [{"value": "hi"}, None]


V1 = {
    "type": "record",
    "name": "User",
    "fields": [
        {"name": "id", "type": "int"},
        {"name": "name", "type": "string"},
        {"name": "old", "type": "string"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}},
        {"name": "score", "type": "float"},
    ],
}
V2 = {
    "type": "record",
    "name": "User",
    "fields": [
        {"name": "id", "type": "long"},  # int -> long
        {"name": "full_name", "type": "string", "aliases": ["name"]},
        {
            "name": "kind",
            "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "Z"], "default": "Z"},
        },
        {"name": "score", "type": "double"},  # float -> double
        {"name": "email", "type": ["null", "string"], "default": None},
        {"name": "tags", "type": {"type": "array", "items": "string"}, "default": ["t"]},
        {
            "name": "meta",
            "type": {
                "type": "record",
                "name": "Meta",
                "fields": [{"name": "v", "type": "int", "default": 2}],
            },
            "default": {"v": 9},
        },
    ],
}


def test_writer_versions_resolved_to_the_reader_in_one_column(files):
    v1 = files(V1)
    v2 = files(V2)
    column = pa.array(
        [
            frame(
                v1, avro_bytes(V1, {"id": 1, "name": "ann", "old": "x", "kind": "C", "score": 0.5})
            ),
            frame(
                v2,
                avro_bytes(
                    V2,
                    {
                        "id": 2**40,
                        "full_name": "bob",
                        "kind": "B",
                        "score": 0.25,
                        "email": "b@x",
                        "tags": [],
                        "meta": {"v": 1},
                    },
                ),
            ),
            frame(
                v1, avro_bytes(V1, {"id": 3, "name": "cy", "old": "y", "kind": "A", "score": 2.0})
            ),
        ]
    )
    decoded = decode_column(column, files.client)  # reader: the newest id (v2)
    assert decoded.values.to_pylist() == [
        {
            "id": 1,
            "full_name": "ann",
            "kind": "Z",
            "score": 0.5,
            "email": None,
            "tags": ["t"],
            "meta": {"v": 9},
        },
        {
            "id": 2**40,
            "full_name": "bob",
            "kind": "B",
            "score": 0.25,
            "email": "b@x",
            "tags": [],
            "meta": {"v": 1},
        },
        {
            "id": 3,
            "full_name": "cy",
            "kind": "A",
            "score": 2.0,
            "email": None,
            "tags": ["t"],
            "meta": {"v": 9},
        },
    ]
    assert decoded.schema_ids.to_pylist() == [v1, v2, v1]
    # read as v1: v2's rows cannot give "name" / "old" (no defaults): those rows fail alone
    as_v1 = decode_column(column, files.client, reader_schema=v1, on_error="null")
    assert as_v1.values.to_pylist()[0]["name"] == "ann"
    assert as_v1.values.to_pylist()[1] is None
    assert "lacks field" in as_v1.errors[1].as_py() or "cannot be read" in as_v1.errors[1].as_py()


def test_union_resolution_branch_by_branch(files):
    writer = {
        "type": "record",
        "name": "R",
        "fields": [{"name": "v", "type": ["null", "int", "string", "boolean"]}],
    }
    reader = {
        "type": "record",
        "name": "R",
        "fields": [{"name": "v", "type": ["null", "double", "string"]}],
    }
    w = files(writer)
    r = files(reader)
    column = pa.array([frame(w, avro_bytes(writer, {"v": v})) for v in (None, 7, "s", True)])
    decoded = decode_column(column, files.client, reader_schema=r, on_error="null")
    rows = [plain(x, decoded.values.type) for x in decoded.values.to_pylist()]
    assert rows[:3] == [{"v": None}, {"v": 7.0}, {"v": "s"}]
    assert rows[3] is None  # boolean has no place in the reader's union
    assert "boolean" in decoded.errors[3].as_py() and "field v" in decoded.errors[3].as_py()


def test_unknown_schema_id_and_unsupported_schemas(files, tmp_path):
    with pytest.raises(SchemaNotFoundError):
        decode_column(pa.array([frame(999, b"\x02")]), files.client)
    linked = {
        "type": "record",
        "name": "Node",
        "fields": [{"name": "next", "type": ["null", "Node"]}],
    }
    sid = files(linked)
    with pytest.raises(SchemaError, match="recursive Avro type Node"):
        decode_column(pa.array([frame(sid, b"\x00")]), files.client)


def test_references_to_other_subjects(files):
    inner = {
        "type": "record",
        "name": "Addr",
        "namespace": "x",
        "fields": [{"name": "city", "type": "string"}],
    }
    files(inner, "addr-value")
    outer = {
        "type": "record",
        "name": "Person",
        "fields": [
            {"name": "home", "type": "x.Addr"},
            {"name": "work", "type": ["null", "x.Addr"]},
        ],
    }
    from kafkawire.registry import Reference

    sid = files.client.register(
        "person-value",
        Schema(json.dumps(outer), references=(Reference("x.Addr", "addr-value", 1),)),
    ).schema_id
    payload = avro_bytes(
        {
            **outer,
            "fields": [
                {"name": "home", "type": inner},
                {"name": "work", "type": ["null", "x.Addr"]},
            ],
        },
        {"home": {"city": "Oslo"}, "work": {"city": "Rome"}},
    )
    decoded = decode_column(pa.array([frame(sid, payload)]), files.client)
    assert decoded.values.to_pylist() == [{"home": {"city": "Oslo"}, "work": {"city": "Rome"}}]


# ---- confluent-kafka's serializers through the HTTP registry ------------------------------


@pytest.fixture
def confluent_client(registry):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient

    client = ConfluentClient({"url": registry.url})
    yield client
    client.close()


@pytest.mark.interop
@pytest.mark.parametrize("id_in", ["prefix", "header"])
def test_confluent_serializer_payloads_equal_its_deserializer(
    registry, confluent_client, subject, id_in
):
    from confluent_kafka.schema_registry import header_schema_id_serializer
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    topic = subject.removesuffix("-value")
    conf = {"schema.id.serializer": header_schema_id_serializer} if id_in == "header" else {}
    serializer = AvroSerializer(confluent_client, json.dumps(EVERY_TYPE), conf=conf)
    deserializer = AvroDeserializer(confluent_client)
    payloads, header_lists, wanted = [], [], []
    for i in range(25):
        headers: list = []
        ctx = SerializationContext(topic, MessageField.VALUE, headers)
        payload = serializer(every_value(i), ctx)
        payloads.append(payload)
        header_lists.append([{"key": k, "value": v} for k, v in headers])
        want = deserializer(payload, SerializationContext(topic, MessageField.VALUE, headers))
        want["uuid"] = str(want["uuid"])
        wanted.append(want)
    headers_column = pa.array(
        header_lists,
        pa.list_(pa.field("element", pa.struct([("key", pa.string()), ("value", pa.binary())]))),
    )
    with SchemaRegistryClient(registry.url) as client:
        decoded = decode_column(pa.array(payloads), client, headers=headers_column)
    t = decoded.values.type
    assert [plain(v, t) for v in decoded.values.to_pylist()] == wanted
    registered = confluent_client.get_latest_version(subject).schema_id
    assert decoded.schema_ids.to_pylist() == [registered] * 25  # looked up by GUID too
    if id_in == "header":
        assert all(h[0]["key"] == "__value_schema_id" for h in header_lists)
        assert not any(p.startswith(b"\0" + struct.pack(">I", registered)) for p in payloads)


@pytest.mark.interop
def test_registry_down_cached_schemas_keep_working(registry, confluent_client, subject):
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    from kafkawire.registry import RegistryUnavailableError

    ctx = SerializationContext(subject.removesuffix("-value"), MessageField.VALUE)
    payload = AvroSerializer(confluent_client, json.dumps(V1))(
        {"id": 1, "name": "a", "old": "o", "kind": "A", "score": 1.0}, ctx
    )
    client = SchemaRegistryClient(registry.url, retries=1, retry_backoff=0.01)
    first = decode_column(pa.array([payload]), client)
    registry.stop()
    try:
        again = decode_column(pa.array([payload]), client)  # from the cache
        assert again.values.to_pylist() == first.values.to_pylist()
        with pytest.raises(RegistryUnavailableError):
            decode_column(pa.array([frame(12345, b"\x02")]), client)
    finally:
        registry.start()


# ---- the faces ----------------------------------------------------------------------------


def test_record_view_decode_values_and_keys(files):
    sid = files(V1)
    kid = files("long", "t-key")
    builder = BatchBuilder()
    for i in range(5):
        value = {"id": i, "name": f"n{i}", "old": "", "kind": "B", "score": float(i)}
        builder.append(
            key=frame(kid, avro_bytes("long", i * 10)), value=frame(sid, avro_bytes(V1, value))
        )
    builder.append(key=None, value=None)
    view = decode_records(builder.build())
    values = view.decode_values(files.client)
    assert values.to_pylist()[:2] == [
        {"id": 0, "name": "n0", "old": "", "kind": "B", "score": 0.0},
        {"id": 1, "name": "n1", "old": "", "kind": "B", "score": 1.0},
    ]
    assert values.to_pylist()[5] is None
    assert view.decode_keys(files.client).to_pylist() == [
        {"value": 0},
        {"value": 10},
        {"value": 20},
        {"value": 30},
        {"value": 40},
        None,
    ]


@pytest.mark.parametrize("compression", ["lz4", "gzip"])
def test_decode_values_in_place_equals_a_gathered_column(files, compression):
    # decode_values reads the values where they are when the view's batches share one
    # buffer (the input, or one decompressed slab), else gathers them: both as decode_column
    from kafkawire.records.arrow import binary_field

    sid = files(V1)
    parts = []
    for b in range(4):
        builder = BatchBuilder(compression=compression if b % 2 else None, base_offset=b * 3)
        for i in range(3):
            value = {"id": b * 3 + i, "name": "n" * i, "old": "", "kind": "A", "score": 0.5}
            builder.append(value=None if i == 1 else frame(sid, avro_bytes(V1, value)))
        parts.append(builder.build())
    mixed = decode_records(b"".join(parts))
    plain = decode_records(parts[0] + parts[2])
    packed = decode_records(parts[1])
    for view in (mixed, mixed[2:10], mixed[4:5], plain, plain[1:4], packed, packed[1:]):
        want = decode_column(binary_field(view, "value"), files.client).values
        got = view.decode_values(files.client)
        assert got.equals(want)
        assert got.to_pylist() == want.to_pylist()
    assert plain._extents(False) is not None and packed._extents(False) is not None
    assert mixed._extents(False) is None  # several buffers: gathered


@pytest.mark.interop
def test_consumer_value_deserializer(broker, files):
    from kafkawire import Client, Consumer, Producer

    sid = files(V1)
    topic = f"registry-consumer-{random.randrange(1 << 30)}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: 1})
    with Producer(broker.bootstrap) as producer:
        for i in range(20):
            value = {"id": i, "name": "n", "old": "", "kind": "A", "score": 0.0}
            producer.send(topic, frame(sid, avro_bytes(V1, value)), key=b"k")
        producer.send(topic, b"\x09not framed")
        producer.flush(10)
    spec = RegistryDeserializer(files.client, on_error="null")
    with Consumer(
        broker.bootstrap, auto_offset_reset="earliest", value_deserializer=spec
    ) as consumer:
        consumer.assign([(topic, 0)])
        rows = []
        for _ in range(20):
            batch = consumer.poll_batch(2.0)
            table = batch.to_arrow()
            rows += list(
                zip(table["value"].to_pylist(), table["valueError"].to_pylist(), strict=True)
            )
            if len(rows) >= 21:
                break
    assert [r[0]["id"] for r in rows[:20]] == list(range(20))
    assert rows[20][0] is None and "magic byte 9" in rows[20][1]


def test_a_value_that_does_not_decode_is_named_by_its_record(files):
    # the row of a column is no use to a reader of a topic: views name the record's offset,
    # consumer batches and chunks its topic, partition and offset
    from kafkawire.client import PartitionRecords

    sid = files(V1)
    good = {"id": 1, "name": "n", "old": "", "kind": "A", "score": 0.0}
    builder = BatchBuilder(base_offset=500)
    for i in range(4):
        builder.append(value=b"\x07junk" if i == 2 else frame(sid, avro_bytes(V1, good)))
    view = decode_records(builder.build())
    with pytest.raises(PayloadError, match=r"^offset 502: magic byte 7") as raised:
        view.decode_values(files.client)
    assert raised.value.row == 2
    with pytest.raises(PayloadError, match=r"^offset 502: "):
        view[1:].decode_values(files.client)  # the row is 1 there, the record the same
    records = PartitionRecords(TopicPartition("orders", 3), view)
    with pytest.raises(PayloadError, match=r"^orders-3 offset 502: magic byte 7"):
        records.decode_values(files.client)
    with pytest.raises(PayloadError, match=r"^orders-3 offset 502: magic byte 7"):
        RegistryDeserializer(files.client).apply(records.to_arrow())
    # decode_column knows no records: it names the row
    with pytest.raises(PayloadError, match=r"^row 2: magic byte 7"):
        decode_column(records.to_arrow()["value"].combine_chunks(), files.client)


def test_a_table_decoded_names_the_record_when_it_has_kafka_columns_and_the_row_otherwise(files):
    # RegistryDeserializer.decode_table / apply (poll_batch, to_arrow, Spark) name the record
    # by the table's topic, partition and offset columns; a table without an offset column
    # has only its row to name ("offset None" named nothing)
    sid = files(V1)
    good = {"id": 1, "name": "n", "old": "", "kind": "A", "score": 0.0}
    builder = BatchBuilder(base_offset=1200)
    for i in range(5):
        builder.append(value=b"\x07junk" if i == 3 else frame(sid, avro_bytes(V1, good)))
    view = decode_records(builder.build())
    deserializer = RegistryDeserializer(files.client)
    table = view.to_arrow(topic="orders", partition=7)
    for decode in (deserializer.decode_table, deserializer.apply):
        with pytest.raises(PayloadError, match=r"^orders-7 offset 1203: magic byte 7") as raised:
            decode(table)
        assert raised.value.row == 3 and raised.value.record == "orders-7 offset 1203"
    with pytest.raises(PayloadError, match=r"^offset 1203: magic byte 7"):
        deserializer.apply(view.to_arrow())  # no topic or partition: the offset alone
    bare = table.select(["key", "value", "headers"])
    with pytest.raises(PayloadError, match=r"^row 3: magic byte 7") as raised:
        deserializer.apply(bare)
    assert raised.value.row == 3 and raised.value.record is None


# ---- randomized: generated schemas, fastavro writes, kafkawire reads -----------------------


class _Gen:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.names = 0

    def name(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def schema(self, depth: int):
        r = self.rng
        simple = [
            "boolean",
            "int",
            "long",
            "float",
            "double",
            "bytes",
            "string",
            {"type": "int", "logicalType": "date"},
            {"type": "long", "logicalType": "timestamp-micros"},
            {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 3},
        ]
        if depth <= 0 or r.random() < 0.45:
            kind = r.randrange(len(simple) + 2)
            if kind == len(simple):
                return {"type": "enum", "name": self.name("E"), "symbols": ["A", "B", "C"]}
            if kind == len(simple) + 1:
                return {"type": "fixed", "name": self.name("F"), "size": r.randrange(1, 9)}
            return simple[kind]
        kind = r.choice(["record", "array", "map", "nullable", "union"])
        if kind == "record":
            return {
                "type": "record",
                "name": self.name("R"),
                "fields": [
                    {"name": f"f{k}", "type": self.schema(depth - 1)}
                    for k in range(r.randrange(1, 5))
                ],
            }
        if kind == "array":
            return {"type": "array", "items": self.schema(depth - 1)}
        if kind == "map":
            return {"type": "map", "values": self.schema(depth - 1)}
        if kind == "nullable":
            inner = self.schema(depth - 1)
            if isinstance(inner, list):  # unions do not nest
                return inner
            return ["null", inner] if r.random() < 0.5 else [inner, "null"]
        return [
            "null",
            "long",
            "string",
            {
                "type": "record",
                "name": self.name("U"),
                "fields": [{"name": "x", "type": self.schema(depth - 1)}],
            },
        ]

    def value(self, s):
        r = self.rng
        if isinstance(s, list):
            return self.value(r.choice(s))
        if isinstance(s, str):
            s = {"type": s}
        t, lt = s["type"], s.get("logicalType")
        if t == "null":
            return None
        if lt == "date":
            return dt.date(1970, 1, 1) + dt.timedelta(days=r.randrange(-(10**5), 10**5))
        if lt == "timestamp-micros":
            return dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(
                microseconds=r.randrange(-(10**15), 10**15)
            )
        if lt == "decimal":
            return decimal.Decimal(r.randrange(-(10**12) + 1, 10**12)).scaleb(-3)
        if t == "boolean":
            return r.random() < 0.5
        if t == "int":
            return r.randrange(-(2**31), 2**31)
        if t == "long":
            return r.randrange(-(2**63), 2**63)
        if t == "float":
            return struct.unpack("<f", struct.pack("<f", r.uniform(-1e6, 1e6)))[0]
        if t == "double":
            return r.uniform(-1e300, 1e300)
        if t == "bytes":
            return r.randbytes(r.randrange(20))
        if t == "string":
            return "".join(
                chr(r.choice([r.randrange(32, 127), r.randrange(0xA0, 0x3000)]))
                for _ in range(r.randrange(12))
            )
        if t == "enum":
            return r.choice(s["symbols"])
        if t == "fixed":
            return r.randbytes(s["size"])
        if t == "array":
            return [self.value(s["items"]) for _ in range(r.randrange(4))]
        if t == "map":
            return {f"k{k}": self.value(s["values"]) for k in range(r.randrange(4))}
        if t == "record":
            return {f["name"]: self.value(f["type"]) for f in s["fields"]}
        raise AssertionError(t)


def test_randomized_schemas_fastavro_writes_kafkawire_reads(files):
    rng = random.Random(20261126)
    for round_ in range(40):
        gen = _Gen(rng)
        schema = {
            "type": "record",
            "name": f"Top{round_}",
            "fields": [
                {"name": f"c{k}", "type": gen.schema(3)} for k in range(rng.randrange(1, 6))
            ],
        }
        sid = files(schema, f"random{round_}-value")
        parsed = fastavro.parse_schema(schema)
        values = [gen.value(schema) for _ in range(30)]
        payloads = [avro_bytes(schema, v) for v in values]
        decoded = decode_column(pa.array([frame(sid, p) for p in payloads]), files.client)
        decoded.values.validate(full=True)
        t = decoded.values.type
        for got, p in zip(decoded.values.to_pylist(), payloads, strict=True):
            want = fastavro.schemaless_reader(io.BytesIO(p), parsed, None)
            assert plain(got, t) == want, json.dumps(schema)


def test_random_bytes_never_crash(files):
    sid = files(EVERY_TYPE)
    rng = random.Random(7)
    good = [frame(sid, avro_bytes(EVERY_TYPE, every_value(i))) for i in range(10)]
    column = []
    for _ in range(3000):
        b = bytearray(rng.choice(good))
        for _ in range(rng.randrange(1, 6)):
            op = rng.randrange(3)
            if len(b) <= 6:
                break
            at = rng.randrange(5, len(b))
            if op == 0:
                b[at] = rng.randrange(256)
            elif op == 1:
                del b[at:]
                b += b"" if rng.random() < 0.5 else rng.randbytes(rng.randrange(8))
            else:
                b[at:at] = rng.randbytes(rng.randrange(1, 10))
        column.append(bytes(b))
    decoded = decode_column(pa.array(column), files.client, on_error="null")
    decoded.values.validate(full=True)
    assert len(decoded.values) == 3000
    # (valid Arrow timestamps of mutated payloads may lie outside Python's datetime range:
    # compare validity, not Python values)
    valid = decoded.values.is_valid().to_pylist()
    errors = decoded.errors.to_pylist()
    assert all(ok == (err is None) for ok, err in zip(valid, errors, strict=True))
    assert 0 < sum(valid) < 3000


def test_unknown_schema_id_is_a_row_error_by_option(files):
    sid = files("long")
    column = pa.array([frame(sid, b"\x02"), frame(4242, b"\x02"), None])
    decoded = decode_column(column, files.client, on_error="null")
    assert decoded.values.to_pylist() == [{"value": 1}, None, None]
    assert "schema id 4242 not found" in decoded.errors[1].as_py()
    assert decoded.schema_ids.to_pylist() == [sid, None, None]
    with pytest.raises(SchemaNotFoundError):
        decode_column(column, files.client)
    only_unknown = decode_column(pa.array([frame(4242, b"\x02")]), files.client, on_error="null")
    assert only_unknown.values.null_count == 1 and only_unknown.error_count == 1
