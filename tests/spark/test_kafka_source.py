"""The "kafkawire" Spark source and sink against a real broker (Tansu) and librdkafka
(confluent-kafka) on the other side: what librdkafka produces Spark reads exactly, what
Spark writes librdkafka consumes exactly. Few tests, each doing several Spark actions,
since every action costs seconds."""

from __future__ import annotations

import json
import time
import uuid

import pytest
from pyspark.errors import PySparkException
from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    StringType,
    StructField,
    StructType,
)

import kafkawire.spark
from kafkawire import read_batches
from kafkawire.client import Client, TopicPartition, default_partition
from kafkawire.spark import OptionError, offsets_behind_latest

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")
T0 = 1_700_000_000_000


@pytest.fixture(scope="module")
def client(broker):
    with Client(broker.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(client: Client, partitions: int) -> str:
    name = f"spark-{uuid.uuid4().hex[:10]}"
    client.create_topics({name: partitions})
    return name


def produce(broker, topic: str, rows, **config) -> None:
    """librdkafka produces rows (key, value, headers, timestamp, partition)."""
    producer = confluent_kafka.Producer(
        {"bootstrap.servers": broker.bootstrap, "linger.ms": 20, **config}
    )
    for key, value, headers, ts, partition in rows:
        kwargs = {} if partition is None else {"partition": partition}
        if ts is not None:
            kwargs["timestamp"] = ts
        producer.produce(topic, value=value, key=key, headers=headers, **kwargs)
    assert producer.flush(30) == 0


def consume(broker, topics: dict[str, int], count: int) -> list[tuple]:
    """librdkafka reads every partition of ``topics`` from the start:
    (topic, partition, offset, key, value, headers, timestamp ms, timestampType)."""
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": f"g-{uuid.uuid4().hex}",
            "enable.auto.commit": False,
        }
    )
    consumer.assign(
        [confluent_kafka.TopicPartition(t, p, 0) for t, n in topics.items() for p in range(n)]
    )
    got = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            kind, ts = msg.timestamp()
            got.append(
                (
                    msg.topic(),
                    msg.partition(),
                    msg.offset(),
                    msg.key(),
                    msg.value(),
                    [(k, v) for k, v in msg.headers() or []],
                    ts,
                    kind - 1,  # librdkafka's CREATE_TIME is 1, Kafka's (and Spark's) 0
                )
            )
        time.sleep(0.3)  # nothing more than expected should arrive
        extra = consumer.poll(0.5)
        assert extra is None or extra.error() is not None, "more records than expected"
    finally:
        consumer.close()
    assert len(got) == count
    return sorted(got, key=lambda r: (r[0], r[1], r[2]))


def spark_rows(df) -> list[tuple]:
    out = []
    for r in df.toArrow().to_pylist():
        headers = [(h["key"], h["value"]) for h in r.get("headers") or []]
        ts = round(r["timestamp"].timestamp() * 1000)
        out.append(
            (
                r["topic"],
                r["partition"],
                r["offset"],
                r["key"],
                r["value"],
                headers,
                ts,
                r["timestampType"],
            )
        )
    return sorted(out, key=lambda r: (r[0], r[1], r[2]))


def sample(n: int, partitions: int) -> list[tuple]:
    return [
        (
            None if i % 5 == 0 else b"key-%d" % i,
            None if i % 13 == 4 else b"value-%d;" % i * (i % 17),
            [("h", b"%d" % i), ("dup", None), ("dup", b"")] if i % 3 == 0 else None,
            T0 + 7 * i,
            i % partitions,
        )
        for i in range(n)
    ]


def reader(spark, broker, **options):
    r = spark.read.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap)
    for name, value in options.items():
        r = r.option(name, value)
    return r


def test_batch_read_matches_librdkafka(spark, broker, client):
    topic = new_topic(client, 3)
    rows = sample(900, 3)
    produce(broker, topic, rows[:450], **{"compression.type": "lz4", "batch.size": 4000})
    produce(broker, topic, rows[450:], **{"compression.type": "zstd", "batch.size": 9000})
    want = consume(broker, {topic: 3}, len(rows))

    df = reader(spark, broker, subscribe=topic, includeHeaders="true").load()
    assert df.columns == [
        "key",
        "value",
        "topic",
        "partition",
        "offset",
        "timestamp",
        "timestampType",
        "headers",
    ]
    assert spark_rows(df) == want
    # records without headers get an empty list (Spark's JVM source gives null; kafkawire keeps
    # null for records of magic 0/1, which have no headers at all: docs/spark.md)
    assert df.filter(F.size("headers") == 0).count() == 600
    assert df.filter(F.col("headers").isNull()).count() == 0

    # offset ranges by JSON (-2 earliest, -1 latest), split into more tasks than partitions
    starting = {topic: {"0": 10, "1": -2, "2": 250}}
    ending = {topic: {"0": 110, "1": -1, "2": 300}}
    ranged = reader(
        spark,
        broker,
        assign=json.dumps({topic: [0, 1, 2]}),
        startingOffsets=json.dumps(starting),
        endingOffsets=json.dumps(ending),
        minPartitions="6",
    ).load()
    assert ranged.rdd.getNumPartitions() >= 6
    assert "headers" not in ranged.columns
    in_range = [
        r[:5] + r[6:]
        for r in want
        if (r[1] == 0 and 10 <= r[2] < 110) or r[1] == 1 or (r[1] == 2 and r[2] >= 250)
    ]
    assert [r[:5] + r[6:] for r in spark_rows(ranged)] == in_range


def test_write_then_librdkafka_consumes(spark, broker, client):
    kafkawire.spark.register(spark)  # explicit registration, on top of the automatic one
    out_a, out_b = new_topic(client, 4), new_topic(client, 2)
    schema = StructType(
        [
            StructField("topic", StringType()),
            StructField("partition", IntegerType()),
            StructField("key", BinaryType()),
            StructField("value", StringType()),
            StructField(
                "headers",
                ArrayType(
                    StructType(
                        [StructField("key", StringType()), StructField("value", BinaryType())]
                    )
                ),
            ),
            StructField("ignored", StringType()),
        ]
    )
    rows = [
        Row(
            topic=out_a if i % 3 else out_b,
            partition=1 if i % 10 == 0 else None,
            key=None if i % 4 == 0 else b"user-%d" % (i % 37),
            value=None if i % 29 == 3 and i % 10 else f"payload {i} é",
            headers=[Row(key="n", value=b"%d" % i), Row(key="z", value=None)] if i % 2 else None,
            ignored="x",
        )
        for i in range(600)
    ]
    df = spark.createDataFrame(rows, schema).repartition(2)
    df.write.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap).mode(
        "append"
    ).save()
    got = consume(broker, {out_a: 4, out_b: 2}, len(rows))
    produced = sorted(((t, k, v, h) for t, _p, _o, k, v, h, _ts, _tt in got), key=repr)
    expected = sorted(
        (
            (
                r.topic,
                r.key,
                None if r.value is None else r.value.encode(),
                [(h.key, h.value) for h in r.headers or []],
            )
            for r in rows
        ),
        key=repr,
    )
    assert produced == expected
    # explicit partitions kept; keyed records partitioned as Java's producer does
    for t, p, _o, k, v, _h, _ts, tt in got:
        n = int(v.split()[1]) if v is not None else None
        if n is not None and n % 10 == 0:
            assert p == 1
        elif k is not None:
            assert p == default_partition(k, 4 if t == out_a else 2)
        assert tt == 0
    # ... which is what librdkafka's murmur2 partitioner picks too
    check = new_topic(client, 4)
    keys = sorted({r.key for r in rows if r.key is not None})
    produce(broker, check, [(k, b"", None, None, None) for k in keys], partitioner="murmur2_random")
    by_librdkafka = {r[3]: r[1] for r in consume(broker, {check: 4}, len(keys))}
    by_spark = {k: p for t, p, _o, k, v, *_ in got if t == out_a and k is not None and p != 1}
    assert by_spark and all(by_librdkafka[k] == p for k, p in by_spark.items())

    # the topic option overrides the topic column; a string key is written as UTF-8
    extra = new_topic(client, 1)
    spark.createDataFrame(
        [("k1", "v1", out_b), ("k2", "v2", out_b)], "key string, value string, topic string"
    ).write.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap).option(
        "topic", extra
    ).option("kafka.compression.type", "zstd").mode("append").save()
    assert sorted((r[3], r[4]) for r in consume(broker, {extra: 1}, 2)) == [
        (b"k1", b"v1"),
        (b"k2", b"v2"),
    ]
    tp = TopicPartition(extra, 0)
    codecs = {b.compression.name.lower() for b in read_batches(client.fetch({tp: 0})[tp].records)}
    assert codecs == {"zstd"}

    writer = df.write.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap)
    with pytest.raises(PySparkException, match="cannot be overwritten"):
        writer.mode("overwrite").save()
    with pytest.raises(PySparkException, match="needs a value column"):
        df.drop("value").write.format("kafkawire").option(
            "kafka.bootstrap.servers", broker.bootstrap
        ).mode("append").save()


def test_stream_available_now_with_limit_into_kafka_sink(spark, broker, client, tmp_path):
    source, sink = new_topic(client, 2), new_topic(client, 3)
    rows = [(b"k%d" % i, b"v%d" % i, None, T0 + i, i % 2) for i in range(25)]
    produce(broker, source, rows)

    def run() -> list[int]:
        query = (
            spark.readStream.format("kafkawire")
            .option("kafka.bootstrap.servers", broker.bootstrap)
            .option("subscribe", source)
            .option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", "10")
            .load()
            .selectExpr("key", "value", "concat(value, '!') AS v2")
            .selectExpr("key", "v2 AS value")
            .writeStream.format("kafkawire")
            .option("kafka.bootstrap.servers", broker.bootstrap)
            .option("topic", sink)
            .option("checkpointLocation", str(tmp_path / "checkpoint"))
            .trigger(availableNow=True)
            .start()
        )
        assert query.awaitTermination(120)
        assert query.exception() is None
        batches = [p for p in query.recentProgress if p["numInputRows"]]
        # Spark's Kafka source metrics, from the latest offsets the reader reports
        behind = [offsets_behind_latest(p["sources"][0]) for p in batches]
        return [p["numInputRows"] for p in batches], [b["maxOffsetsBehindLatest"] for b in behind]

    # maxOffsetsPerTrigger honoured under AvailableNow, shared between the partitions (13 and
    # 12 records) by size and rounded down, as Spark's Kafka source does: 5+4, 5+5, 3+3,
    # leaving 8, then 3, then 0 records of each partition behind the latest offsets
    assert run() == ([9, 10, 6], [8, 3, 0])
    got = consume(broker, {sink: 3}, 25)
    assert sorted((r[3], r[4]) for r in got) == sorted((k, v + b"!") for k, v, *_ in rows)
    # the checkpoint resumes after what was read: only the new records go through
    more = [(b"k%d" % i, b"v%d" % i, None, T0 + i, i % 2) for i in range(25, 30)]
    produce(broker, source, more)
    assert run() == ([5], [0])
    assert len(consume(broker, {sink: 3}, 30)) == 30


def test_faults(spark, broker, client):
    missing = f"no-such-{uuid.uuid4().hex[:8]}"
    with pytest.raises(PySparkException, match=f"UnknownTopicOrPartition.*{missing}"):
        reader(spark, broker, subscribe=missing).load().collect()
    topic = new_topic(client, 1)
    produce(broker, topic, [(None, b"x%d" % i, None, T0, 0) for i in range(10)])
    past = json.dumps({topic: {"0": 50}})
    with pytest.raises(PySparkException, match=r"DataLossError.*starting offset 50 is past"):
        reader(spark, broker, subscribe=topic, startingOffsets=past).load().collect()
    lenient = reader(spark, broker, subscribe=topic, startingOffsets=past, failOnDataLoss="false")
    assert lenient.load().count() == 0
    ending = json.dumps({topic: {"0": 40}})
    # records never written are not lost ones: the option is what is wrong
    with pytest.raises(PySparkException) as past_the_end:
        reader(spark, broker, subscribe=topic, endingOffsets=ending).load().collect()
    message = str(past_the_end.value)
    assert f"OptionError: endingOffsets asks for {topic}-0 up to offset 40" in message
    assert "offsets 10 to 39 have not been written" in message
    assert "DataLossError" not in message and "np." not in message
    tail = reader(spark, broker, subscribe=topic, endingOffsets=ending, failOnDataLoss="false")
    assert [r.value for r in tail.load().select("value").collect()] == [
        b"x%d" % i for i in range(10)
    ]
    with pytest.raises(PySparkException, match="exactly one of"):
        reader(spark, broker, subscribe=topic, subscribePattern="x.*").load().collect()


def test_options_checked_at_load_and_save_with_sparks_save_modes(spark, broker, client):
    """Option mistakes fail load() and save() themselves, naming the closest valid option;
    df.write's default save mode appends, as with Spark's Kafka sink."""
    kafkawire.spark.register(spark)  # also lets the default save mode through
    topic = new_topic(client, 1)
    with pytest.raises(PySparkException) as typo:
        reader(spark, broker, subscribe=topic, startingOffset="earliest").load()  # no action
    assert "unknown option 'startingoffset' for a Kafka read" in str(typo.value)
    assert "did you mean 'startingOffsets'?" in str(typo.value)
    # as docs/spark.md says: Spark's error class and the traceback first, the kafkawire
    # error's name and message on the traceback's last line, then Spark's SQLSTATE
    text = str(typo.value)
    assert text.startswith(
        "[PYTHON_DATA_SOURCE_ERROR] Failed to create Python data source instance: Traceback"
    )
    *_, last, sqlstate = text.rstrip().splitlines()
    assert last.startswith("kafkawire.spark._options.OptionError: unknown option 'startingoffset'")
    assert sqlstate == " SQLSTATE: 38000"
    with pytest.raises(PySparkException, match=r"did you mean 'isolation\.level'"):
        reader(spark, broker, subscribe=topic, **{"kafka.isolation.levle": "x"}).load()
    with pytest.raises(PySparkException, match="for a Kafka read"):
        spark.readStream.format("kafkawire").option(
            "kafka.bootstrap.servers", broker.bootstrap
        ).option("subscribe", topic).option("maxOffsetPerTrigger", "5").load()

    rows = spark.createDataFrame([("k1", "v1"), ("k2", "v2")], "key string, value string")

    def writer():
        return rows.write.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap)

    with pytest.raises(PySparkException, match="did you mean 'topic'"):
        writer().option("topics", topic).save()
    with pytest.raises(PySparkException, match=r"unknown producer property 'linger\.mss'"):
        writer().option("topic", topic).option("kafka.linger.mss", "5").save()
    writer().option("topic", topic).save()  # ErrorIfExists, the default: appends
    writer().option("topic", topic).mode("errorifexists").save()
    writer().save(format="kafkawire", mode="error", topic=topic)
    with pytest.raises(OptionError, match="save mode Ignore is not allowed"):
        writer().option("topic", topic).mode("ignore").save()
    with pytest.raises(PySparkException, match="cannot be overwritten"):
        writer().option("topic", topic).mode("overwrite").save()
    got = consume(broker, {topic: 1}, 6)
    assert sorted((r[3], r[4]) for r in got) == [(b"k1", b"v1")] * 3 + [(b"k2", b"v2")] * 3
    # other formats keep Spark's modes
    with pytest.raises(PySparkException, match="UNSUPPORTED_DATA_SOURCE_SAVE_MODE"):
        rows.write.format("kafkawire_segments").save("/nonexistent")


def test_stream_waits_for_a_subscribed_topic_that_does_not_exist_yet(spark, broker, client):
    topic = f"spark-later-{uuid.uuid4().hex[:8]}"
    query = (
        spark.readStream.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic)
        .load()
        .selectExpr("CAST(value AS STRING) AS value")
        .writeStream.format("memory")
        .queryName(f"later_{uuid.uuid4().hex[:8]}")
        .trigger(processingTime="500 milliseconds")
        .start()
    )
    try:
        deadline = time.monotonic() + 60
        while len(query.recentProgress) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert query.isActive and query.exception() is None  # waiting, not failed
        client.create_topics({topic: 2})
        produce(broker, topic, [(None, b"v%d" % i, None, T0, i % 2) for i in range(6)])
        table = spark.table(query.name)
        while table.count() < 6 and time.monotonic() < deadline + 60:
            time.sleep(0.5)
        # read from the beginning of the new topic, though the stream starts at latest
        assert sorted(r.value for r in table.collect()) == [f"v{i}" for i in range(6)]
    finally:
        query.stop()


def test_stream_min_offsets_per_trigger(spark, broker, client):
    """Spark's planner keeps the reader between triggers: micro-batches wait until
    minOffsetsPerTrigger records are there (maxTriggerDelay, 1 h here, not reached)."""
    topic = new_topic(client, 1)
    query = (
        spark.readStream.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("minOffsetsPerTrigger", "5")
        .option("maxTriggerDelay", "1h")
        .load()
        .selectExpr("CAST(value AS STRING) AS value")
        .writeStream.format("memory")
        .queryName(f"min_{uuid.uuid4().hex[:8]}")
        .trigger(processingTime="300 milliseconds")
        .start()
    )
    try:
        table = spark.table(query.name)
        deadline = time.monotonic() + 60
        while not query.recentProgress and time.monotonic() < deadline:
            time.sleep(0.2)  # the first trigger (never delayed) has run, on an empty topic
        produce(broker, topic, [(None, b"a%d" % i, None, T0, 0) for i in range(2)])
        time.sleep(3)  # ten triggers
        assert table.count() == 0  # 2 < 5: no micro-batch
        produce(broker, topic, [(None, b"b%d" % i, None, T0, 0) for i in range(3)])
        deadline = time.monotonic() + 60
        while table.count() < 5 and time.monotonic() < deadline:
            time.sleep(0.3)
        assert sorted(r.value for r in table.collect()) == ["a0", "a1", "b0", "b1", "b2"]
        assert query.exception() is None
    finally:
        query.stop()
