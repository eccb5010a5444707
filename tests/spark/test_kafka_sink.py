"""The "kafkawire" Spark sink writing through kafkawire.Producer against a real broker (Tansu):
keyed rows land where Java's producer (and librdkafka's murmur2_random) put them, every field
reads back, kafkawire.createTopic creates the topic and its absence is a clear error."""

from __future__ import annotations

import uuid

import pytest
from pyspark.errors import PySparkException
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    StringType,
    StructField,
    StructType,
)

from kafkawire.client import Client, TopicPartition, default_partition
from kafkawire.spark import OptionError
from kafkawire.spark._write_options import write_options

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")

SCHEMA = StructType(
    [
        StructField("key", StringType()),
        StructField("value", BinaryType()),
        StructField(
            "headers",
            ArrayType(
                StructType([StructField("key", StringType()), StructField("value", BinaryType())])
            ),
        ),
        StructField("partition", IntegerType()),
    ]
)
KEYS = 1000


@pytest.fixture(scope="module")
def client(broker):
    with Client(broker.bootstrap, request_timeout=20) as c:
        yield c


def topic_name() -> str:
    return f"sink-{uuid.uuid4().hex[:10]}"


def writer(df, broker, **options):
    w = df.write.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap)
    for name, value in options.items():
        w = w.option(name, value)
    return w.mode("append")


def read_back(spark, broker, topic: str) -> list[dict]:
    return (
        spark.read.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic)
        .option("includeHeaders", "true")
        .load()
        .toArrow()
        .to_pylist()
    )


def rows(partitions: int) -> list[tuple]:
    """(key, value, headers, partition): KEYS keyed rows (some tombstones, some headers, some
    with an explicit partition), then keyless rows; each value or key names its row."""
    out = []
    for i in range(KEYS):
        headers = [("i", b"%d" % i), ("none", None)] if i % 3 == 0 else None
        value = None if i % 97 == 5 else b"keyed-%d" % i
        partition = (i // 11) % partitions if i % 11 == 0 else None
        out.append((f"key-{i}-é", value, headers, partition))
    for i in range(50):
        partition = 0 if i % 10 == 0 else None
        out.append((None, b"keyless-%d" % i, [("j", b"")] if i % 2 else [], partition))
    return out


def librdkafka_partitions(broker, topic: str, keys: list[bytes]) -> dict[bytes, int]:
    """Where confluent-kafka's Producer (partitioner murmur2_random) puts each key."""
    producer = confluent_kafka.Producer(
        {"bootstrap.servers": broker.bootstrap, "partitioner": "murmur2_random", "linger.ms": 20}
    )
    where: dict[bytes, int] = {}

    def delivered(error, msg):
        assert error is None, error
        where[msg.key()] = msg.partition()

    for key in keys:
        producer.produce(topic, value=b"", key=key, on_delivery=delivered)
    assert producer.flush(30) == 0
    return where


@pytest.mark.parametrize("partitions", [3, 7])
def test_keyed_rows_land_where_java_puts_them(spark, broker, client, partitions):
    topic, check = topic_name(), topic_name()
    data = rows(partitions)
    df = spark.createDataFrame(data, SCHEMA).repartition(2)
    # the topic does not exist: kafkawire.createTopic creates it with the partitions asked
    writer(
        df,
        broker,
        topic=topic,
        **{"kafkawire.createTopic": "true", "kafkawire.createTopic.partitions": str(partitions)},
    ).save()
    assert client.partitions_for(topic) == list(range(partitions))

    got = read_back(spark, broker, topic)
    assert len(got) == len(data)
    by_row = {}
    for r in got:
        assert r["topic"] == topic
        name = r["key"] if r["key"] is not None else r["value"]
        assert name not in by_row
        by_row[name] = r
    client.create_topics({check: partitions})
    librdkafka = librdkafka_partitions(
        broker, check, [key.encode() for key, *_ in data if key is not None]
    )
    keyless_partitions = set()
    for key, value, headers, partition in data:
        r = by_row[key.encode() if key is not None else value]
        assert r["key"] == (None if key is None else key.encode())
        assert r["value"] == value
        assert [(h["key"], h["value"]) for h in r["headers"] or []] == list(headers or [])
        if partition is not None:
            assert r["partition"] == partition
        elif key is not None:
            assert r["partition"] == default_partition(key.encode(), partitions)
            assert r["partition"] == librdkafka[key.encode()]
        else:
            keyless_partitions.add(r["partition"])
    # keyless rows: one partition per send_batch call (per Arrow batch and task)
    assert keyless_partitions and keyless_partitions <= set(range(partitions))


def test_create_topic_and_missing_topic(spark, broker, client):
    df = spark.createDataFrame([("k", b"v", None, None)], SCHEMA)
    missing = topic_name()
    # without kafkawire.createTopic a missing topic fails the write, saying how to create it
    with pytest.raises(PySparkException, match=r"UnknownTopicOrPartition.*kafkawire.createTopic"):
        writer(
            df, broker, topic=missing, **{"kafka.topic.metadata.propagation.max.ms": "2000"}
        ).save()
    # ... as does a partition column naming a partition of a topic that is not there
    with pytest.raises(PySparkException, match=r"UnknownTopicOrPartition.*kafkawire.createTopic"):
        writer(spark.createDataFrame([("k", b"v", None, 0)], SCHEMA), broker, topic=missing).save()
    assert missing not in client.metadata().topics

    # the broker's default replication factor; a topic that exists is left as it is
    created = topic_name()
    options = {
        "kafkawire.createTopic": "TRUE",
        "kafkawire.createTopic.partitions": "4",
        "kafkawire.createTopic.replicationFactor": "-1",
    }
    writer(df, broker, topic=created, **options).save()
    assert client.partitions_for(created) == [0, 1, 2, 3]
    writer(df, broker, topic=created, **{**options, "kafkawire.createTopic.partitions": "9"}).save()
    assert client.partitions_for(created) == [0, 1, 2, 3]
    assert sorted(r["value"] for r in read_back(spark, broker, created)) == [b"v", b"v"]
    # no partition 4 in it
    with pytest.raises(PySparkException, match=r"has 4 partitions: no partition \[4, 7\]"):
        writer(
            spark.createDataFrame([("k", b"v", None, 7), ("k", b"v", None, 4)], SCHEMA).coalesce(1),
            broker,
            topic=created,
        ).save()

    # a record the producer refuses fails the task with the producer's error
    with pytest.raises(PySparkException, match=r"RecordTooLargeError.*larger than message"):
        writer(
            df.selectExpr("key", "CAST(repeat('x', 1100000) AS BINARY) AS value"),
            broker,
            topic=created,
        ).save()

    # with a topic column only, the topics are not known up front
    with pytest.raises(PySparkException, match=r"kafkawire\.createTopic needs the topic option"):
        writer(
            df.selectExpr("value", f"'{topic_name()}' AS topic"),
            broker,
            **{"kafkawire.createTopic": "true"},
        ).save()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"kafkawire.createTopic": "yes"}, "must be true or false"),
        ({"kafkawire.createTopic": "true", "topic": None}, "needs the topic option"),
        ({"kafkawire.createTopic.partitions": "3"}, "needs kafkawire.createTopic=true"),
        (
            {"kafkawire.createTopic": "true", "kafkawire.createTopic.partitions": "0"},
            "partitions must be at least 1",
        ),
        (
            {"kafkawire.createTopic": "true", "kafkawire.createTopic.replicationFactor": "0"},
            "at least 1, or -1 for the broker's default",
        ),
        ({"kafka.enable.idempotence": "true", "kafka.acks": "1"}, "needs kafka.acks=all"),
        ({"kafka.linger.ms": "soon"}, "producer property 'linger.ms'"),
        ({"kafka.delivery.timeout.ms": "-1"}, "producer property 'delivery.timeout.ms'"),
        # a misspelled option would quietly write elsewhere (the topic column): refused
        ({"topics": "t"}, r"unknown option 'topics' for a Kafka write \(did you mean 'topic'"),
        ({"subscribe": "t"}, "option 'subscribe' is not an option of a Kafka write"),
        ({"kafka.lingerms": "5"}, r"unknown producer property 'lingerms' \(did you mean"),
        ({"kafka.transactional.id": "etl"}, "at-least-once, without transactions"),
    ],
)
def test_write_option_errors(options, message):
    given = {"kafka.bootstrap.servers": "h:1", "topic": "t", **options}
    with pytest.raises(OptionError, match=message):
        write_options({k: v for k, v in given.items() if v is not None})


def test_write_options_to_producer_properties():
    base = {"kafka.bootstrap.servers": "h:1", "topic": "t"}
    default = write_options(base)
    assert default.producer_config() == {
        "acks": "all",
        "compression.type": "none",
        "batch.size": "1048576",
        "enable.idempotence": "true",
        "buffer.memory": "33554432",
        "max.request.size": "1048576",
    }
    assert default.flush_timeout() == 120 + 30 + 5
    tuned = write_options(
        {
            **base,
            "kafka.acks": "1",
            "kafka.compression.type": "LZ4",
            "kafka.batch.size": "65536",
            "kafka.linger.ms": "50",
            "kafka.delivery.timeout.ms": "10000",
            "kafka.request.timeout.ms": "5000",
            "kafka.partitioner.class": "ignored (a Java class)",
            "kafka.retry.backoff.ms": "20",
            "checkpointLocation": "/tmp/checkpoint",  # Spark adds these to a stream's options
            "queryName": "etl",
        }
    )
    assert tuned.producer_config() == {
        "acks": "1",
        "compression.type": "lz4",
        "batch.size": "65536",
        "enable.idempotence": "false",  # acks=1: off, as in Java
        "buffer.memory": "33554432",
        "max.request.size": "1048576",
        "linger.ms": "50",
        "delivery.timeout.ms": "10000",
        "retry.backoff.ms": "20",
    }
    assert tuned.flush_timeout() == 10 + 5 + 5
    # idempotence not asked for: off when a setting conflicts with it, as in Java
    assert not write_options(
        {**base, "kafka.max.in.flight.requests.per.connection": "8"}
    ).idempotent


def test_copying_a_topic_into_one_with_fewer_partitions(spark, broker, client):
    # a DataFrame read from a topic keeps its partition column; Spark's sink, and this one,
    # honour it: the error says so and what to do, and without the column the copy works
    source, target = topic_name(), topic_name()
    client.create_topics({source: 4, target: 2})
    client.produce_columns(TopicPartition(source, 3), [b"from-3"])
    client.produce_columns(TopicPartition(source, 0), [b"from-0"])
    df = (
        spark.read.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", source)
        .load()
    )
    with pytest.raises(PySparkException) as failed:
        writer(df.select("key", "value", "partition"), broker, topic=target).save()
    text = str(failed.value)
    assert f"topic '{target}' has 2 partitions: no partition [3]" in text
    assert "df.drop('partition')" in text
    # what docs/spark.md says of Spark's exception text: Spark's words and the traceback
    # first, the kafkawire error's name and message on the last line
    assert text.startswith("An exception was thrown from the Python worker:\nTraceback")
    *_, last = text.rstrip().splitlines()
    error = "kafkawire.spark._options.OptionError"
    assert last.startswith(f"{error}: topic '{target}' has 2 partitions: no partition [3]")
    # and the whole traceback, with the lines of the calls, once Spark does not shorten it
    simplified = "spark.sql.execution.pyspark.udf.simplifiedTraceback.enabled"
    spark.conf.set(simplified, "false")
    try:
        with pytest.raises(PySparkException) as failed:
            writer(df.select("key", "value", "partition"), broker, topic=target).save()
    finally:
        spark.conf.unset(simplified)
    assert "in write_batches\n    producer.write(batch)\n" in str(failed.value)
    writer(df.drop("partition"), broker, topic=target).save()
    # the failed job's task for source partition 0 may have written its row (at least once)
    values = [r["value"] for r in read_back(spark, broker, target)]
    assert set(values) == {b"from-0", b"from-3"} and values.count(b"from-3") == 1
