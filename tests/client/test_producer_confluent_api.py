"""confluent-kafka's producer shapes on kafkawire.Producer (and, as coroutines, on
kafkawire.aio.Producer): produce with on_delivery(err, msg) run by poll/flush on the caller's
thread, len(producer); and one rule for what send, produce and send_batch take: bytes-like,
str or None for values and keys, timestamps as int ms, float seconds or datetimes. What was
written is read back by librdkafka's consumer (confluent_kafka), not by kafkawire."""

from __future__ import annotations

import array
import asyncio
import datetime
import threading
import uuid

import numpy as np
import pytest

from kafkawire.client import Client, DeliveryTimeoutError, Producer, RecordTooLargeError
from kafkawire.confluent import (
    OFFSET_INVALID,
    TIMESTAMP_CREATE_TIME,
    KafkaError,
    Message,
)
from kafkawire.errors import EncodeError
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from tests.support.faces import make_producer

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="module")
def admin(broker):
    with Client(broker.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(admin, partitions: int = 1) -> str:
    topic = f"ck-{uuid.uuid4().hex[:10]}"
    admin.create_topics({topic: partitions})
    return topic


def read_back(bootstrap: str, topic: str, count: int) -> list:
    """``count`` records of ``topic`` as librdkafka's consumer reads them: (partition, offset,
    key, value, headers, timestamp), in offset order per partition."""
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"rb-{uuid.uuid4().hex[:8]}",  # (assign: no group is joined)
            "enable.auto.commit": False,
        }
    )
    partitions = consumer.list_topics(topic, 10).topics[topic].partitions
    consumer.assign(
        [
            confluent_kafka.TopicPartition(topic, p, confluent_kafka.OFFSET_BEGINNING)
            for p in partitions
        ]
    )
    got = []
    try:
        for _ in range(120):
            if len(got) >= count:
                break
            for msg in consumer.consume(count - len(got), 0.5):
                assert msg.error() is None, msg.error()
                got.append(
                    (
                        msg.partition(),
                        msg.offset(),
                        msg.key(),
                        msg.value(),
                        msg.headers(),
                        msg.timestamp()[1],
                    )
                )
    finally:
        consumer.close()
    assert len(got) == count
    return sorted(got)


# ---- produce / on_delivery / poll / flush / len ------------------------------------------------


def test_produce_reports_on_the_callers_thread_from_poll_and_flush(broker, admin):
    topic = new_topic(admin, 3)
    reports: list = []
    threads: set = set()

    def on_delivery(err, msg):
        threads.add(threading.get_ident())
        reports.append((err, msg))

    with Producer(broker.bootstrap, config={"linger.ms": 50}) as producer:
        for i in range(30):
            producer.produce(
                topic,
                b"v%d" % i,
                b"k%d" % i,
                on_delivery=on_delivery,
                headers=[("n", b"%d" % i)],
                timestamp=1_700_000_000_000 + i,
            )
            assert producer.poll(0) >= 0
        producer.produce(topic, "text", "str-key", callback=on_delivery)  # the alias
        producer.produce(topic, b"to-1", partition=1, on_delivery=on_delivery)
        producer.produce(topic, b"no-callback")
        assert len(producer) >= 1  # queued, in flight, or a report not run yet
        assert producer.flush(20) == 0
        assert len(producer) == 0
        assert producer.poll(0) == 0  # flush ran them all
    assert threads == {threading.get_ident()}
    assert len(reports) == 32
    assert all(err is None and msg.error() is None for err, msg in reports)
    by_value = {msg.value(): msg for _, msg in reports}
    stored = {value: row for row in read_back(broker.bootstrap, topic, 33) for value in [row[3]]}
    for i in range(30):
        msg = by_value[b"v%d" % i]
        assert isinstance(msg, Message)
        assert (msg.topic(), msg.key(), msg.headers()) == (topic, b"k%d" % i, [("n", b"%d" % i)])
        assert msg.timestamp() == (TIMESTAMP_CREATE_TIME, 1_700_000_000_000 + i)
        assert msg.latency() is not None and msg.latency() >= 0
        partition, offset, key, _, headers, ts = stored[b"v%d" % i]
        assert (msg.partition(), msg.offset()) == (partition, offset)
        assert (key, headers, ts) == (b"k%d" % i, [("n", b"%d" % i)], 1_700_000_000_000 + i)
    assert by_value[b"text"].key() == b"str-key"
    assert stored[b"text"][2] == b"str-key"
    assert by_value[b"to-1"].partition() == 1 == stored[b"to-1"][0]
    assert b"no-callback" in stored


def test_poll_runs_reports_queued_since_the_last_poll(broker, admin):
    topic = new_topic(admin)
    seen: list = []
    with Producer(broker.bootstrap) as producer:
        producer.produce(topic, b"a", on_delivery=lambda err, msg: seen.append(msg.offset()))
        # nothing runs until the caller polls, however long the sender has had
        ran = 0
        for _ in range(100):
            ran += producer.poll(0.2)
            if ran:
                break
        assert (ran, seen) == (1, [0])
        producer.produce(topic, b"b", on_delivery=lambda err, msg: seen.append(msg.offset()))
        producer.produce(topic, b"c", on_delivery=lambda err, msg: seen.append(msg.offset()))
        while len(producer):
            producer.poll(0.2)
        assert seen == [0, 1, 2]


def test_a_callback_that_raises_leaves_the_rest_for_the_next_poll(broker, admin):
    topic = new_topic(admin)
    calls: list = []

    def boom(err, msg):
        calls.append(msg.value())
        raise RuntimeError("boom")

    with Producer(broker.bootstrap) as producer:
        assert producer and len(producer) == 0  # true, though empty
        producer.produce(topic, b"a", on_delivery=boom)
        producer.produce(topic, b"b", on_delivery=lambda err, msg: calls.append(msg.value()))
        with pytest.raises(RuntimeError, match="boom"):  # as confluent-kafka's poll/flush
            producer.flush(20)
        assert calls == [b"a"] and len(producer) == 1  # b's report, not run yet
        assert producer.poll(0) == 1
        assert calls == [b"a", b"b"] and len(producer) == 0


def test_a_failed_delivery_reports_a_kafka_error(broker, admin):
    topic = new_topic(admin, 1)
    missing = f"missing-{uuid.uuid4().hex[:8]}"
    reports: list = []
    config = {"message.max.bytes": 2000, "topic.metadata.propagation.max.ms": 1500}
    with Producer(broker.bootstrap, config=config) as producer:
        producer.produce(topic, b"ok", on_delivery=lambda e, m: reports.append((e, m)))
        producer.produce(missing, b"lost", b"k", on_delivery=lambda e, m: reports.append((e, m)))
        assert producer.flush(20) == 0
        assert len(producer) == 0
        # the topic is known now: a record too large is refused by produce itself
        with pytest.raises(RecordTooLargeError, match=r"message\.max\.bytes"):
            producer.produce(topic, b"x" * 5000, on_delivery=lambda e, m: reports.append(e))
        assert producer.flush(5) == 0
    ok, failed = sorted(reports, key=lambda r: r[0] is not None)
    assert ok[0] is None and ok[1].offset() == 0 and ok[1].value() == b"ok"
    err, msg = failed
    assert isinstance(err, KafkaError) and msg.error() is err
    assert err.code() == KafkaError.UNKNOWN_TOPIC_OR_PART == 3
    assert err.name() == "UNKNOWN_TOPIC_OR_PART"
    assert missing in err.str() and isinstance(err.retriable(), bool)
    assert isinstance(err.exception, UnknownTopicOrPartitionError)
    assert (msg.topic(), msg.partition(), msg.offset()) == (missing, -1, OFFSET_INVALID)
    assert (msg.key(), msg.value()) == (b"k", b"lost")
    # kafkawire's own errors as librdkafka's local codes
    timed_out = KafkaError._of(DeliveryTimeoutError("timed out"))
    assert (timed_out.code(), timed_out.name()) == (KafkaError._MSG_TIMED_OUT, "_MSG_TIMED_OUT")
    assert timed_out.str() == "timed out" and timed_out.retriable()
    assert timed_out == KafkaError._MSG_TIMED_OUT == -192


def test_config_on_delivery_is_the_default_callback(broker, admin):
    topic = new_topic(admin)
    missing = f"missing-{uuid.uuid4().hex[:8]}"
    seen: list = []

    def own(err, msg):
        seen.append(("own", msg.value()))

    def configured(err, msg):
        seen.append(("config", msg.value(), err is None))

    config = {"on_delivery": configured, "topic.metadata.propagation.max.ms": 1000}
    with Producer(broker.bootstrap, config=config) as producer:
        producer.produce(topic, b"a")
        producer.produce(topic, b"b", on_delivery=own)
        assert producer.flush(20) == 0
    assert seen == [("config", b"a", True), ("own", b"b")]
    # delivery.report.only.error: the reports of records delivered are not run
    seen.clear()
    config["delivery.report.only.error"] = True
    with Producer(broker.bootstrap, config=config) as producer:
        producer.produce(topic, b"c")
        producer.produce(missing, b"d")
        assert producer.flush(20) == 0
        assert producer.poll(0) == 0
    assert seen == [("config", b"d", False)]


def test_send_futures_keep_their_callbacks_on_the_sender_thread(broker, admin):
    topic = new_topic(admin)
    threads: list = []
    with Producer(broker.bootstrap, config={"linger.ms": 20}) as producer:
        future = producer.send(topic, b"x")
        future.add_done_callback(lambda f: threads.append(threading.current_thread().name))
        producer.flush(20)
        assert producer.poll(0) == 0  # send()'s outcome is not a produce report
    assert future.result().offset == 0
    assert threads and threads[0] != threading.current_thread().name


def test_asyncio_produce_poll_flush(broker, admin):
    from kafkawire.aio import Producer as AsyncProducer

    topic = new_topic(admin, 2)
    seen: list = []

    async def main():
        async with AsyncProducer(broker.bootstrap) as producer:
            for i in range(10):
                await producer.produce(
                    topic, f"v{i}", key=b"k", on_delivery=lambda e, m: seen.append((e, m))
                )
            assert len(producer) >= 1
            ran = 0
            while ran < 10:
                ran += await producer.poll(1)
            assert await producer.flush(10) == 0
            assert len(producer) == 0

    asyncio.run(main())
    assert [m.value() for _, m in seen] == [b"v%d" % i for i in range(10)]
    assert all(e is None for e, _ in seen)
    assert [m.offset() for _, m in seen] == list(range(10))  # one key: one partition
    stored = read_back(broker.bootstrap, topic, 10)
    assert [(p, o, v) for p, o, _, v, _, _ in stored] == [
        (seen[0][1].partition(), i, b"v%d" % i) for i in range(10)
    ]


# ---- one rule for values, keys and timestamps ---------------------------------------------------

KINDS = [
    (b"bytes", b"bytes"),
    (bytearray(b"bytearray"), b"bytearray"),
    (memoryview(b"memoryview"), b"memoryview"),
    (array.array("B", b"array"), b"array"),
    ("str-é", "str-é".encode()),
    (None, None),
]


def test_send_takes_every_bytes_kind_and_str_for_values_and_keys(cluster, face):
    topic = cluster.create_topic(f"ck-{uuid.uuid4().hex[:10]}")
    with make_producer(face, cluster.bootstrap) as producer:
        futures = [producer.send(topic, given, key=given, partition=0) for given, _ in KINDS]
        futures += [producer.send(topic, given, key=given) for given, _ in KINDS]
        assert producer.flush(20) == 0
        [f.result(10) for f in futures]
    stored = read_back(cluster.bootstrap, topic, 2 * len(KINDS))
    expected = [want for _, want in KINDS] * 2
    assert [(key, value) for _, _, key, value, _, _ in stored] == list(
        zip(expected, expected, strict=True)
    )


def test_produce_and_send_batch_take_the_same_kinds(broker, admin, face):
    topic = new_topic(admin)
    with make_producer(face, broker.bootstrap) as producer:
        md = producer.send_batch(topic, ["a", "b", None, b"c"], keys=["k", None, "é", b"k"])
        md = md.result(20)
        assert md.offsets.tolist() == [0, 1, 2, 3]
        producer.send_batch(topic, (bytearray(b"d"), memoryview(b"e"))).result(20)
        producer.send_batch(topic, np.array(["f", "g"])).result(20)  # numpy's str
    with Producer(broker.bootstrap) as producer:
        for given, _ in KINDS:
            producer.produce(topic, given, given)
        assert producer.flush(20) == 0
    stored = read_back(broker.bootstrap, topic, 8 + len(KINDS))
    assert [(k, v) for _, _, k, v, _, _ in stored] == [
        (b"k", b"a"),
        (None, b"b"),
        ("é".encode(), None),
        (b"k", b"c"),
        (None, b"d"),
        (None, b"e"),
        (None, b"f"),
        (None, b"g"),
        *[(want, want) for _, want in KINDS],
    ]


def test_a_wrong_kind_is_a_type_error_that_names_the_field(broker, admin, face):
    topic = new_topic(admin)
    with make_producer(face, broker.bootstrap) as producer:
        for call in (
            lambda: producer.send(topic, 123),
            lambda: producer.send(topic, 123, partition=0),
            lambda: producer.send_batch(topic, [b"a", 123]),
        ):
            with pytest.raises(TypeError, match=r"value.* must be .*str .*not int") as info:
                call()
            assert isinstance(info.value, EncodeError)  # what the builder raised before
        with pytest.raises(TypeError, match=r"key must be .*bytes-like.*str.*not float"):
            producer.send(topic, b"v", key=3.5)
        with pytest.raises(TypeError, match=r"value must be .*not int64"):
            producer.send(topic, np.int64(5))  # a buffer, but a number
        with pytest.raises(TypeError, match=r"keys\[1\]: key must be .*not dict"):
            producer.send_batch(topic, [b"a", b"b"], keys=[b"k", {}])
        with pytest.raises(TypeError, match=r"timestamp is a bool"):
            producer.send(topic, b"v", timestamp=True)
        with pytest.raises(ValueError, match=r"timestamp -5 is before the epoch"):
            producer.send(topic, b"v", timestamp=-5)
        with pytest.raises(ValueError, match=r"timestamps\[0\]: timestamp -1 is before"):
            producer.send_batch(topic, [b"a"], timestamps=[-1])
        with pytest.raises(TypeError, match=r"timestamp must be .*datetime.*not str"):
            producer.send(topic, b"v", timestamp="2024-01-01")
        assert producer.send(topic, b"fine").result(20).offset == 0
    with Producer(broker.bootstrap) as producer:
        with pytest.raises(TypeError, match=r"value must be .*not int"):
            producer.produce(topic, 123)
        with pytest.raises(TypeError, match=r"timestamp is a bool"):
            producer.produce(topic, b"v", timestamp=False)
        assert len(producer) == 0
    assert len(read_back(broker.bootstrap, topic, 1)) == 1  # nothing refused was written


def test_timestamps_as_ms_seconds_and_datetimes(broker, admin, face):
    topic = new_topic(admin)
    utc = datetime.timezone.utc
    minus_5h = datetime.timezone(-datetime.timedelta(hours=5))
    naive = datetime.datetime(2024, 5, 6, 7, 8, 9, 123000)
    given = [
        1_700_000_000_123,
        1_700_000_000.456,
        datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=utc),
        datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=minus_5h),
        naive,
        0,
    ]
    want = [
        1_700_000_000_123,
        1_700_000_000_456,
        1_704_164_645_678,
        1_704_164_645_678 + 5 * 3_600_000,
        round(naive.timestamp() * 1000),  # local time, as Python's .timestamp()
        0,
    ]
    with make_producer(face, broker.bootstrap) as producer:
        futures = [producer.send(topic, b"%d" % i, timestamp=t) for i, t in enumerate(given)]
        assert [f.result(20).timestamp for f in futures] == want
        producer.send_batch(topic, [b"b%d" % i for i in range(3)], timestamps=given[1:4]).result(20)
    with Producer(broker.bootstrap) as producer:
        producer.produce(topic, b"p", timestamp=given[2])
        before = int(datetime.datetime.now(utc).timestamp() * 1000)
        producer.produce(topic, b"now", timestamp=0)  # confluent-kafka's 0: now
        assert producer.flush(20) == 0
    stored = {v: ts for _, _, _, v, _, ts in read_back(broker.bootstrap, topic, 11)}
    assert [stored[b"%d" % i] for i in range(6)] == want
    assert [stored[b"b%d" % i] for i in range(3)] == want[1:4]
    assert stored[b"p"] == want[2]
    assert stored[b"now"] >= before - 1000
