"""Schema-registry formats in the "kafkawire" Spark source and sink, against a real broker
(Tansu), a Confluent-compatible registry over HTTP (tests/registry/registry_server.py) and
confluent-kafka's AvroSerializer / AvroDeserializer on the other side. Few Spark jobs, each
checked for several things, since every job costs seconds."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from decimal import Decimal

import pyarrow as pa
import pytest
from pyspark.errors import PySparkException
from pyspark.sql.types import (
    ArrayType,
    DateType,
    DecimalType,
    DoubleType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from kafkawire.client import Client
from kafkawire.registry.client import Schema, SchemaRegistryClient
from kafkawire.spark import OptionError
from kafkawire.spark._read_options import read_options
from kafkawire.spark._registry import spark_arrow_type, spark_type, to_spark_arrow
from kafkawire.spark._write_options import write_options
from tests.registry.registry_server import start_registry

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentRegistry  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

UTC = dt.timezone.utc
ORDER_V1 = {
    "type": "record",
    "name": "Order",
    "namespace": "shop",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "qty", "type": "int"},
        {"name": "name", "type": "string"},
        {
            "name": "price",
            "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2},
        },
        {"name": "ok", "type": "boolean"},
        {"name": "ratio", "type": "double"},
        {"name": "blob", "type": "bytes"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "tod", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "long"}},
        {
            "name": "addr",
            "type": [
                "null",
                {
                    "type": "record",
                    "name": "Addr",
                    "fields": [
                        {"name": "city", "type": "string"},
                        {"name": "zip", "type": ["null", "int"], "default": None},
                    ],
                },
            ],
            "default": None,
        },
        {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 4}},
    ],
}
# version 2: a field added with a default
ORDER_V2 = {
    **ORDER_V1,
    "fields": [*ORDER_V1["fields"], {"name": "note", "type": "string", "default": "none"}],
}


def order(i: int, note: str | None = None) -> dict:
    row = {
        "id": 10_000_000_000 + i,
        "qty": i,
        "name": f"order-{i}",
        "price": Decimal(f"{i}.{i % 100:02d}"),
        "ok": i % 2 == 0,
        "ratio": i / 4,
        "blob": bytes([i, i + 1]),
        "kind": "AB"[i % 2],
        "day": dt.date(2024, 1, 1) + dt.timedelta(days=i),
        "at": dt.datetime(2024, 5, 1, 12, 0, i, 123456, tzinfo=UTC),
        "tod": dt.time(1, 2, 3, (i % 1000) * 1000),
        "tags": [f"t{j}" for j in range(i % 3)],
        "attrs": {f"a{j}": j * i for j in range(i % 2 + 1)},
        "addr": None if i % 3 == 0 else {"city": f"c{i}", "zip": None if i % 2 else 1000 + i},
        "digest": i.to_bytes(4, "big"),
    }
    if note is not None:
        row["note"] = note
    return row


def as_spark(row: dict, note: str) -> dict:
    """What the source gives for an order (as pyarrow's to_pylist of df.toArrow())."""
    tod = row["tod"]
    return {
        **row,
        "tod": ((tod.hour * 60 + tod.minute) * 60 + tod.second) * 1000 + tod.microsecond // 1000,
        "attrs": sorted(row["attrs"].items()),
        "note": row.get("note", note),
    }


def normal(value: dict) -> dict:
    return {**value, "attrs": sorted(value["attrs"])}


@pytest.fixture(scope="module")
def registry():
    server = start_registry()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def sr(registry):
    """confluent-kafka's registry client, for its serializers."""
    c = ConfluentRegistry({"url": registry.url})
    yield c
    c.close()


@pytest.fixture(scope="module")
def client(broker):
    with Client(broker.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(client: Client, partitions: int = 1) -> str:
    name = f"reg-{uuid.uuid4().hex[:10]}"
    client.create_topics({name: partitions})
    return name


def produce(broker, topic: str, rows: list[tuple[bytes | None, bytes | None]]) -> None:
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
    for key, value in rows:
        producer.produce(topic, key=key, value=value)
    assert producer.flush(30) == 0


def reader(spark, broker, registry, topic: str, **options):
    r = (
        spark.read.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic)
        .option("schema.registry.url", registry.url)
    )
    for name, value in options.items():
        r = r.option(name, value)
    return r.load()


@pytest.fixture(scope="module")
def orders(broker, client, sr):
    """A topic of orders written by confluent-kafka's AvroSerializer: 4 with version 1 of
    the schema, then 3 with version 2, keys Avro strings; a tombstone last."""
    topic = new_topic(client)
    key_ser = AvroSerializer(sr, '"string"')
    v1 = AvroSerializer(sr, json.dumps(ORDER_V1))
    v2 = AvroSerializer(sr, json.dumps(ORDER_V2))
    key_ctx = SerializationContext(topic, MessageField.KEY)
    ctx = SerializationContext(topic, MessageField.VALUE)
    rows = [order(i) for i in range(4)] + [order(i, note=f"n{i}") for i in range(4, 7)]
    produce(
        broker,
        topic,
        [(key_ser(f"k{i}", key_ctx), (v1 if i < 4 else v2)(r, ctx)) for i, r in enumerate(rows)]
        + [(key_ser("gone", key_ctx), None)],
    )
    return topic, rows


def test_read_avro_two_versions_and_keys_and_stream(spark, broker, registry, orders, tmp_path):
    topic, rows = orders
    df = reader(spark, broker, registry, topic, valueFormat="avro", keyFormat="avro")
    # the reader schema is the subject's latest version (2), in Spark types
    value_type = df.schema["value"].dataType
    assert value_type["note"].dataType == StringType()
    assert value_type["price"].dataType == DecimalType(10, 2)
    assert value_type["at"].dataType == TimestampType()
    assert value_type["tod"].dataType == IntegerType()
    assert value_type["day"].dataType == DateType()
    assert value_type["attrs"].dataType == MapType(StringType(), LongType(), True)
    assert df.schema["key"].dataType == StructType([StructField("value", StringType())])
    got = df.toArrow().to_pylist()
    assert [r["key"] for r in got] == [{"value": f"k{i}"} for i in range(7)] + [{"value": "gone"}]
    # version 1 values resolved to version 2 (note: its default), version 2 values as written
    assert [normal(r["value"]) for r in got[:7]] == [as_spark(r, "none") for r in rows]
    assert got[7]["value"] is None  # the tombstone
    assert [r["offset"] for r in got] == list(range(8))

    # a reader schema by id: version 1, which has no note
    sr = SchemaRegistryClient(registry.url)
    v1_id = sr.version(f"{topic}-value", 1).schema_id
    old = reader(spark, broker, registry, topic, valueFormat="avro", valueSchemaId=str(v1_id))
    assert "note" not in old.schema["value"].dataType.names
    assert old.schema["key"].dataType.simpleString() == "binary"  # keyFormat raw
    got = old.where("value IS NOT NULL").select("value.id", "value.name").toArrow().to_pylist()
    assert got == [{"id": r["id"], "name": r["name"]} for r in rows]

    # streaming: one trigger (availableNow) of the same topic into a memory table
    name = f"registry_{uuid.uuid4().hex[:8]}"
    query = (
        spark.readStream.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("schema.registry.url", registry.url)
        .option("valueFormat", "avro")
        .load()
        .selectExpr("offset", "value.id AS id", "value.note AS note", "value.tags AS tags")
        .writeStream.format("memory")
        .queryName(name)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(120)
    assert query.exception() is None
    streamed = sorted(spark.table(name).toArrow().to_pylist(), key=lambda r: r["offset"])
    assert [(r["id"], r["note"], r["tags"]) for r in streamed[:7]] == [
        (r["id"], r.get("note", "none"), r["tags"]) for r in rows
    ]
    assert streamed[7]["id"] is None


ITEM_PROTO = """
syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
message Item {
  enum Color { RED = 0; GREEN = 1; }
  uint32 count = 1;
  uint64 big = 2;
  google.protobuf.Timestamp at = 3;
  google.protobuf.Duration wait = 4;
  map<int32, string> names = 5;
  repeated sint64 deltas = 6;
  Color color = 7;
}
"""
POINT_JSON = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": ["string", "null"]},
        "at": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}


def proto_class(text: str, full_name: str):
    """The protobuf package's message class of a .proto text's message."""
    from google.protobuf import descriptor_pool, message_factory

    from kafkawire.registry import proto_text

    pool = descriptor_pool.DescriptorPool()
    fdp = proto_text.parse(text, "item.proto", {})
    for dep in fdp.dependency:
        pool.AddSerializedFile(proto_text.well_known(dep).SerializeToString())
    pool.AddSerializedFile(fdp.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))


def test_read_protobuf_with_header_ids_and_json(spark, broker, client, registry, sr):
    from confluent_kafka.schema_registry import header_schema_id_serializer
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer

    item = proto_class(ITEM_PROTO, "shop.Item")
    ser = ProtobufSerializer(
        item,
        sr,
        {"use.deprecated.format": False, "schema.id.serializer": header_schema_id_serializer},
    )
    proto_topic, json_topic = new_topic(client), new_topic(client)
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(3):
        m = item(count=2**32 - 1 - i, big=2**64 - 1 - i, deltas=[-i, i], color=i % 2)
        m.at.FromDatetime(dt.datetime(2024, 3, 1, 0, 0, i, tzinfo=UTC))
        m.wait.FromTimedelta(dt.timedelta(seconds=i, microseconds=5))
        m.names[i] = f"n{i}"
        headers: list = []  # the serializer puts the schema GUID in a header
        value = ser(m, SerializationContext(proto_topic, MessageField.VALUE, headers))
        producer.produce(proto_topic, value=value, headers=headers)
    json_ser = JSONSerializer(json.dumps(POINT_JSON), sr)
    points = [
        {
            "id": i,
            "name": None if i == 1 else f"p{i}",
            "at": f"2024-03-0{i + 1}T10:00:00Z",
            "tags": ["a"] * i,
        }
        for i in range(3)
    ]
    for p in points:
        producer.produce(
            json_topic, value=json_ser(p, SerializationContext(json_topic, MessageField.VALUE))
        )
    assert producer.flush(30) == 0

    df = reader(spark, broker, registry, proto_topic, valueFormat="protobuf")
    assert "headers" not in df.schema.names  # read for the schema ids, not shown
    value_type = df.schema["value"].dataType
    assert value_type["count"].dataType == LongType()
    assert value_type["big"].dataType == DecimalType(20, 0)
    assert value_type["wait"].dataType.simpleString() == "interval day to second"
    got = [r["value"] for r in df.select("value").toArrow().to_pylist()]
    assert got == [
        {
            "count": 2**32 - 1 - i,
            "big": Decimal(2**64 - 1 - i),
            "at": dt.datetime(2024, 3, 1, 0, 0, i, tzinfo=UTC),
            "wait": dt.timedelta(seconds=i, microseconds=5),
            "names": [(i, f"n{i}")],
            "deltas": [-i, i],
            "color": ["RED", "GREEN"][i % 2],
        }
        for i in range(3)
    ]

    df = reader(spark, broker, registry, json_topic, valueFormat="json")
    got = [r["value"] for r in df.select("value").toArrow().to_pylist()]
    assert got == [
        {**p, "at": dt.datetime(2024, 3, i + 1, 10, tzinfo=UTC)} for i, p in enumerate(points)
    ]


def test_bad_values_null_or_raise(spark, broker, client, registry, sr):
    topic = new_topic(client)
    ser = AvroSerializer(sr, json.dumps(ORDER_V1))
    good = ser(order(1), SerializationContext(topic, MessageField.VALUE))
    produce(
        broker,
        topic,
        [
            (None, good),
            (None, b"not registry framing"),
            (None, good[:12]),  # cut inside the payload
            (None, None),
            (None, good),
            (None, b"\x00" + (10**6).to_bytes(4, "big") + good[5:]),  # no such schema id
        ],
    )
    df = reader(spark, broker, registry, topic, valueFormat="avro", valueErrors="null")
    assert df.schema.names[-1] == "valueError"
    got = df.select("offset", "value.id", "valueError").toArrow().to_pylist()
    assert [r["id"] for r in got] == [order(1)["id"], None, None, None, order(1)["id"], None]
    errors = [r["valueError"] for r in got]
    assert errors[0] is None and errors[3] is None and errors[4] is None
    assert "magic byte" in errors[1]
    assert errors[2]  # the payload ends inside a field
    assert "schema id 1000000 not found in schema registry" in errors[5]
    with pytest.raises(Exception, match=rf"{topic}-0 offset 1.*valueErrors=null"):
        reader(spark, broker, registry, topic, valueFormat="avro").collect()


def test_sink_avro_each_subject_strategy(spark, broker, client, registry, sr):
    schema = StructType(
        [
            StructField("key", StringType()),
            StructField(
                "value",
                StructType(
                    [
                        StructField("id", LongType(), False),
                        StructField("name", StringType()),
                        StructField("tags", ArrayType(StringType())),
                        StructField("attrs", MapType(StringType(), IntegerType())),
                        StructField("at", TimestampType()),
                        StructField("price", DecimalType(10, 2)),
                        StructField("day", DateType()),
                        StructField("inner", StructType([StructField("x", DoubleType())])),
                    ]
                ),
            ),
        ]
    )
    values = [
        {
            "id": i,
            "name": None if i == 2 else f"n{i}",
            "tags": ["a", None] if i else [],
            "attrs": {"k": i},
            "at": dt.datetime(2024, 1, 1, 0, 0, i, tzinfo=UTC),
            "price": Decimal(f"{i}.50"),
            "day": dt.date(2024, 2, i + 1),
            "inner": None if i == 1 else {"x": i / 2},
        }
        for i in range(4)
    ]
    df = spark.createDataFrame([(f"k{i}", v) for i, v in enumerate(values)], schema)
    topics = {}
    for strategy in ("TopicNameStrategy", "RecordNameStrategy", "TopicRecordNameStrategy"):
        topic = topics[strategy] = new_topic(client)
        (
            df.write.format("kafkawire")
            .option("kafka.bootstrap.servers", broker.bootstrap)
            .option("topic", topic)
            .option("schema.registry.url", registry.url)
            .option("valueFormat", "avro")
            .option("subject.name.strategy", strategy)
            .option("recordName", "Event")
            .option("recordNamespace", f"ns{topic.replace('-', '_')}")
            .mode("append")
            .save()
        )
    for strategy, topic in topics.items():
        full = f"ns{topic.replace('-', '_')}.Event"
        subject = {
            "TopicNameStrategy": f"{topic}-value",
            "RecordNameStrategy": full,
            "TopicRecordNameStrategy": f"{topic}-{full}",
        }[strategy]
        assert subject in registry.subjects, (strategy, sorted(registry.subjects))
        # confluent-kafka's deserializer reads what the sink wrote
        de = AvroDeserializer(sr)
        consumer = confluent_kafka.Consumer(
            {"bootstrap.servers": broker.bootstrap, "group.id": uuid.uuid4().hex}
        )
        consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
        got = []
        try:
            while len(got) < 4:
                msg = consumer.poll(10)
                assert msg is not None and msg.error() is None
                got.append(de(msg.value(), SerializationContext(topic, MessageField.VALUE)))
        finally:
            consumer.close()
        got.sort(key=lambda v: v["id"])
        assert got == [{**v, "at": v["at"]} for v in values], strategy

    # a struct key too (its own <topic>-key subject), and the value with a schema id given
    # (nothing registered for the value)
    first = topics["TopicNameStrategy"]
    latest = SchemaRegistryClient(registry.url).latest_version(f"{first}-value")
    topic = new_topic(client)
    (
        df.selectExpr("struct(key AS name) AS key", "value")
        .write.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("topic", topic)
        .option("schema.registry.url", registry.url)
        .option("keyFormat", "avro")
        .option("valueFormat", "avro")
        .option("valueSchemaId", str(latest.schema_id))
        .mode("append")
        .save()
    )
    assert f"{topic}-key" in registry.subjects and f"{topic}-value" not in registry.subjects
    # kafkawire's source reads it back as the same structs
    back = reader(
        spark,
        broker,
        registry,
        topic,
        valueFormat="avro",
        keyFormat="avro",
        valueSubject=f"{first}-value",
    )
    got = sorted(back.select("key", "value").toArrow().to_pylist(), key=lambda r: r["value"]["id"])
    assert [r["key"] for r in got] == [{"name": f"k{i}"} for i in range(4)]
    assert [r["value"] for r in got] == [{**v, "attrs": list(v["attrs"].items())} for v in values]
    raw = reader(spark, broker, registry, topic).select("value").toArrow().to_pylist()
    assert {r["value"][:5] for r in raw} == {b"\x00" + latest.schema_id.to_bytes(4, "big")}

    # auto.register.schemas=false: a schema not under the subject is refused up front
    with pytest.raises(Exception, match=r"auto\.register\.schemas=false"):
        (
            df.write.format("kafkawire")
            .option("kafka.bootstrap.servers", broker.bootstrap)
            .option("topic", new_topic(client))
            .option("schema.registry.url", registry.url)
            .option("valueFormat", "avro")
            .option("auto.register.schemas", "false")
            .mode("append")
            .save()
        )


def test_load_checks_registry_options(spark, broker, registry):
    with pytest.raises(PySparkException, match="valueSubject or valueSchemaId"):
        (
            spark.read.format("kafkawire")
            .option("kafka.bootstrap.servers", broker.bootstrap)
            .option("subscribePattern", "reg-.*")
            .option("schema.registry.url", registry.url)
            .option("valueFormat", "avro")
            .load()
        )


READ = {"kafka.bootstrap.servers": "localhost:9092", "subscribe": "t"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"valueFormat": "xml"}, "valueFormat must be one of raw, avro, protobuf, json"),
        ({"valueFormat": "avro"}, "needs the option schema.registry.url"),
        (
            {"subscribe": "a,b", "keyFormat": "avro", "schema.registry.url": "http://r"},
            "give keySubject or keySchemaId",
        ),
        (
            {"valueFormat": "avro", "schema.registry.url": "http://r", "valueErrors": "skip"},
            "valueErrors must be raise or null",
        ),
        (
            {"valueFormat": "json", "valueSchemaId": "1", "valueSubject": "s"},
            "not both",
        ),
        ({"valueSubject": "s"}, "valueSubject needs valueFormat avro, protobuf or json"),
        (
            {"valueFormat": "avro", "schema.registry.url": "http://r", "valueSchemaID": "x"},
            "valueSchemaId must be an integer",
        ),
        ({"valueFromat": "avro"}, "did you mean 'valueFormat'"),
        (
            {"valueFormat": "avro", "schema.registry.url": "/no/such/registry"},
            "is not a directory",
        ),
        (
            {
                "valueFormat": "avro",
                "schema.registry.url": "http://r",
                "schema.registry.tiemout": "1",
            },
            "unknown schema registry setting",
        ),
    ],
)
def test_read_option_errors(options, message):
    with pytest.raises(OptionError, match=message):
        read_options({**READ, **options}, streaming=False)


WRITE = {"kafka.bootstrap.servers": "localhost:9092", "topic": "t"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {
                "valueFormat": "protobuf",
                "schema.registry.url": "http://r",
                "valueSchemaId": "1",
                "valueSubject": "s",
            },
            "give valueSchemaId alone",
        ),
        ({"valueFormat": "avro"}, "needs the option schema.registry.url"),
        (
            {"valueFormat": "avro", "schema.registry.url": "http://r", "valueSchema": "{"},
            "valueSchema is not Avro JSON",
        ),
        (
            {
                "valueFormat": "avro",
                "schema.registry.url": "http://r",
                "subject.name.strategy": "TopicStrategy",
            },
            "subject name strategy must be one of",
        ),
        ({"valueSchemaId": "3"}, "valueSchemaId needs valueFormat avro"),
        ({"auto.register.schemas": "false"}, "needs valueFormat or keyFormat avro"),
    ],
)
def test_write_option_errors(options, message):
    with pytest.raises(OptionError, match=message):
        write_options({**WRITE, **options})


def test_write_options_accept_java_strategy_names():
    opts = write_options(
        {
            **WRITE,
            "valueFormat": "avro",
            "schema.registry.url": "http://r",
            "schema.registry.basic.auth.user.info": "u:p",
            "subject.name.strategy": "io.confluent.kafka.serializers.subject.RecordNameStrategy",
        }
    )
    assert opts.formats.strategy == "RecordNameStrategy"
    assert "u:p" not in repr(opts)


@pytest.mark.parametrize(
    ("arrow", "values", "expected"),
    [
        (pa.time32("ms"), [1000, None], [1000, None]),
        (pa.time64("us"), [5, None], [5, None]),
        (pa.uint8(), [255], [255]),
        (pa.uint32(), [2**32 - 1], [2**32 - 1]),
        (pa.uint64(), [2**64 - 1, None], [Decimal(2**64 - 1), None]),
        (pa.binary(2), [b"ab", None], [b"ab", None]),
        (pa.large_string(), ["x"], ["x"]),
        (pa.timestamp("ns", tz="UTC"), [1_000_001_000], [dt.datetime(1970, 1, 1, 0, 0, 1, 1, UTC)]),
        (pa.timestamp("ms"), [1], [dt.datetime(1970, 1, 1, 0, 0, 0, 1000)]),
        (pa.duration("ms"), [1500], [dt.timedelta(seconds=1.5)]),
        (pa.decimal256(40, 2), [Decimal("1.50")], ["1.50"]),
        (pa.date64(), [86_400_000], [dt.date(1970, 1, 2)]),
        (
            pa.month_day_nano_interval(),
            [pa.MonthDayNano([1, 2, 3]), None],
            [{"months": 1, "days": 2, "nanoseconds": 3}, None],
        ),
        (pa.list_(pa.uint32()), [[1, None], None], [[1, None], None]),
        (pa.large_list(pa.time32("ms")), [[7]], [[7]]),
        (pa.map_(pa.string(), pa.uint64()), [[("a", 1)]], [[("a", Decimal(1))]]),
        (
            pa.struct([pa.field("t", pa.time32("ms"), nullable=False)]),
            [{"t": 3}, None],
            [{"t": 3}, None],
        ),
        (pa.dictionary(pa.int8(), pa.string()), ["a", "a"], ["a", "a"]),
    ],
)
def test_arrow_to_spark_types(arrow, values, expected):
    from pyspark.sql.pandas.types import to_arrow_type

    target = spark_arrow_type(arrow)
    # what Spark expects of a batch is the Arrow type of the Spark type
    assert to_arrow_type(spark_type(arrow), timezone="UTC") == target
    array = pa.array(values, arrow)
    converted = to_spark_arrow(array, target)
    assert converted.type == target
    assert converted.to_pylist() == expected
    assert to_spark_arrow(array.slice(len(values) - 1), target).to_pylist() == expected[-1:]


def test_planned_reader_schema_stays_in_the_data_source(registry, tmp_path):
    """The reader schema is fixed when the DataFrame is created (schema(), in load()):
    a newer version registered afterwards does not change what reader() decodes to."""
    from kafkawire.spark._sources import KafkaDataSource

    subject = f"fixed-{uuid.uuid4().hex[:8]}-value"
    sr = SchemaRegistryClient(registry.url)
    sr.register(subject, Schema(json.dumps(ORDER_V1)))
    source = KafkaDataSource(
        {
            **READ,
            "subscribe": subject.removesuffix("-value"),
            "valueFormat": "avro",
            "schema.registry.url": registry.url,
        }
    )
    schema = source.schema()
    assert "note" not in schema["value"].dataType.names
    sr.register(subject, Schema(json.dumps(ORDER_V2)))
    import pickle

    again = pickle.loads(pickle.dumps(source))
    reader = again.reader(schema)
    assert "note" not in reader.opts.planned.columns[0].reader.schema_str


def test_plan_write_latest_version_and_lookup(registry):
    """use.latest.version and auto.register.schemas=false on the driver (no Spark job)."""
    from kafkawire.spark._registry import plan_write

    sr = SchemaRegistryClient(registry.url)
    subject = f"plan-{uuid.uuid4().hex[:8]}-value"
    sr.register(subject, Schema(json.dumps(ORDER_V1)))
    v2 = sr.register(subject, Schema(json.dumps(ORDER_V2)))
    struct = StructType([StructField("id", LongType()), StructField("name", StringType())])
    base = {**WRITE, "valueFormat": "avro", "schema.registry.url": registry.url}

    def plan(**options):
        opts = write_options({**base, **options})
        return dict(plan_write(opts.formats, opts.topic, {"value": struct}).schemas)["value"]

    # the struct lacks fields of the Order schemas without a default: refused up front
    with pytest.raises(OptionError, match=r"schema \d+: fields \['at', .*without a default"):
        plan(valueSubject=subject, **{"use.latest.version": "true"})
    small = {
        "type": "record",
        "name": "Small",
        "fields": [
            {"name": "id", "type": ["null", "long"], "default": None},
            {"name": "name", "type": ["null", "string"], "default": None},
        ],
    }
    other = f"plan-{uuid.uuid4().hex[:8]}-value"  # (the latest version is cached a while)
    sr.register(other, Schema(json.dumps(ORDER_V1)))
    v3 = sr.register(other, Schema(json.dumps(small)))
    assert plan(valueSubject=other, **{"use.latest.version": "true"}).schema_id == v3.schema_id
    # auto.register.schemas=false: looked up (found), or refused
    found = plan(
        valueSubject=other, valueSchema=json.dumps(small), **{"auto.register.schemas": "false"}
    )
    assert found.schema_id == v3.schema_id and v2.schema_id != v3.schema_id
    with pytest.raises(OptionError, match="is not registered under subject"):
        plan(**{"auto.register.schemas": "false"})
    # RecordNameStrategy without a topic: the derived record's full name
    opts = write_options(
        {
            **base,
            "topic": "",
            "subject.name.strategy": "RecordNameStrategy",
            "recordName": "Small",
            "recordNamespace": f"x{uuid.uuid4().hex[:6]}",
        }
    )
    planned = plan_write(opts.formats, None, {"value": struct})
    assert dict(planned.schemas)["value"].subject.startswith("x")
    with pytest.raises(OptionError, match="TopicNameStrategy needs the topic"):
        opts = write_options({**base, "topic": ""})
        plan_write(opts.formats, None, {"value": struct})


def test_sink_json_and_protobuf(spark, broker, client, registry, sr):
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer

    schema = StructType(
        [
            StructField(
                "value",
                StructType(
                    [
                        StructField("id", LongType(), False),
                        StructField("name", StringType()),
                        StructField("at", TimestampType()),
                        StructField("tags", ArrayType(StringType())),
                        StructField("attrs", MapType(StringType(), IntegerType())),
                    ]
                ),
            )
        ]
    )
    values = [
        {
            "id": i,
            "name": None if i == 1 else f"n{i}",
            "at": dt.datetime(2024, 1, 1, 0, 0, i, tzinfo=UTC),
            "tags": ["a"] * i,
            "attrs": {"k": i},
        }
        for i in range(3)
    ]
    topic = new_topic(client)
    (
        spark.createDataFrame([(v,) for v in values], schema)
        .write.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("topic", topic)
        .option("schema.registry.url", registry.url)
        .option("valueFormat", "json")
        .mode("append")
        .save()
    )
    registered = SchemaRegistryClient(registry.url).latest_version(f"{topic}-value")
    assert registered.schema_type == "JSON"
    assert json.loads(registered.schema_str)["title"] == "topLevelRecord"
    # confluent-kafka's deserializer (which validates against the schema) reads it
    de = JSONDeserializer(None, schema_registry_client=sr)
    consumer = confluent_kafka.Consumer(
        {"bootstrap.servers": broker.bootstrap, "group.id": uuid.uuid4().hex}
    )
    consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
    got = []
    try:
        while len(got) < 3:
            msg = consumer.poll(10)
            assert msg is not None and msg.error() is None
            got.append(de(msg.value(), SerializationContext(topic, MessageField.VALUE)))
    finally:
        consumer.close()
    assert sorted(got, key=lambda v: v["id"]) == [
        {**v, "at": v["at"].isoformat().replace("+00:00", "Z")} for v in values
    ]
    back = reader(spark, broker, registry, topic, valueFormat="json").select("value")
    got = sorted((r["value"] for r in back.toArrow().to_pylist()), key=lambda v: v["id"])
    assert got == [{**v, "attrs": list(v["attrs"].items())} for v in values]

    # Protobuf: a proto3 schema derived from the struct, RecordNameStrategy's subject
    topic = new_topic(client)
    (
        spark.createDataFrame([(v,) for v in values], schema)
        .write.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("topic", topic)
        .option("schema.registry.url", registry.url)
        .option("valueFormat", "protobuf")
        .option("subject.name.strategy", "RecordNameStrategy")
        .option("recordName", "Point")
        .option("recordNamespace", f"p{topic.replace('-', '_')}")
        .mode("append")
        .save()
    )
    full = f"p{topic.replace('-', '_')}.Point"
    registered = SchemaRegistryClient(registry.url).latest_version(full)
    assert registered.schema_type == "PROTOBUF" and "optional string name = 2;" in (
        registered.schema_str
    )
    point = proto_class(registered.schema_str, full)
    de = ProtobufDeserializer(point, {"use.deprecated.format": False})
    consumer = confluent_kafka.Consumer(
        {"bootstrap.servers": broker.bootstrap, "group.id": uuid.uuid4().hex}
    )
    consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
    got = []
    try:
        while len(got) < 3:
            msg = consumer.poll(10)
            assert msg is not None and msg.error() is None
            got.append(de(msg.value(), SerializationContext(topic, MessageField.VALUE)))
    finally:
        consumer.close()
    got.sort(key=lambda m: m.id)
    assert [(m.id, m.HasField("name"), m.name, list(m.tags), dict(m.attrs)) for m in got] == [
        (v["id"], v["name"] is not None, v["name"] or "", v["tags"], v["attrs"]) for v in values
    ]
    assert [m.at.ToDatetime(tzinfo=UTC) for m in got] == [v["at"] for v in values]
    back = reader(spark, broker, registry, topic, valueFormat="protobuf", valueSubject=full)
    got = back.select("value").toArrow().to_pylist()
    got = sorted((r["value"] for r in got), key=lambda v: v["id"])
    assert got == [{**v, "attrs": list(v["attrs"].items())} for v in values]


def test_stream_to_stream_through_a_file_registry(
    spark, broker, client, registry, orders, tmp_path
):
    """readStream of Avro values (HTTP registry) into writeStream of Avro values registered in
    a file registry (a directory: no server), read back by a batch read of that registry."""
    topic, rows = orders
    files = tmp_path / "registry"
    files.mkdir()
    sink = new_topic(client)
    query = (
        spark.readStream.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("schema.registry.url", registry.url)
        .option("valueFormat", "avro")
        .load()
        .where("value IS NOT NULL")
        .select("value")
        .writeStream.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("topic", sink)
        .option("schema.registry.url", str(files))
        .option("valueFormat", "avro")
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(120)
    assert query.exception() is None
    assert sorted(p.name for p in files.iterdir()) == ["1.avsc", "1.meta.json"]
    assert json.loads((files / "1.meta.json").read_text())["subject"] == f"{sink}-value"
    got = (
        spark.read.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", sink)
        .option("schema.registry.url", str(files))
        .option("valueFormat", "avro")
        .load()
        .select("value")
        .toArrow()
        .to_pylist()
    )
    assert sorted((normal(r["value"]) for r in got), key=lambda v: v["id"]) == [
        as_spark(r, "none") for r in rows
    ]
