"""statistics.interval.ms and stats_cb: the consumer's and the producer's polls hand stats_cb
librdkafka's JSON; every field kafkawire gives is one librdkafka gives, under the same name and
at the same place (librdkafka's own statistics, on the same broker, are the reference), and
the offsets in it are the consumer's."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from kafkawire.client import Client, TopicPartition
from tests.support.faces import make_consumer, make_producer

VALUES = [b"s-%d" % i for i in range(7)]


@pytest.fixture
def topic(broker) -> str:
    name = f"stats-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap) as admin:
        admin.create_topics({name: 1})
        for value in VALUES:  # one batch each (Tansu answers librdkafka's watermarks so)
            admin.produce_columns(TopicPartition(name, 0), [value])
    return name


def librdkafka_statistics(broker, topic: str) -> dict:
    confluent_kafka = pytest.importorskip("confluent_kafka")
    seen: list[str] = []
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": f"g-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
            "statistics.interval.ms": 200,
            "stats_cb": seen.append,
        }
    )
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            consumer.poll(0.2)
            if seen and topic in json.loads(seen[-1])["topics"]:
                return json.loads(seen[-1])
    finally:
        consumer.close()
    raise AssertionError("librdkafka gave no statistics of the topic")


def same_names(ours, theirs, path: str = "") -> None:
    """Every key of ``ours`` is in ``theirs``, recursively (brokers' and topics' keys are
    names of their own, compared by shape: one of theirs stands for all)."""
    for key, value in ours.items():
        here = f"{path}.{key}"
        if path.endswith((".brokers", ".partitions")) or path == ".topics":
            match = next(iter(theirs.values()))
        else:
            assert key in theirs, f"{here} is not one of librdkafka's fields"
            match = theirs[key]
        if isinstance(value, dict):
            same_names(value, match, here)
        else:
            assert isinstance(value, type(match)) or {type(value), type(match)} <= {int, float}


def test_consumer_statistics_are_librdkafkas(broker, topic, face):
    theirs = librdkafka_statistics(broker, topic)
    seen: list[str] = []
    consumer = make_consumer(
        face,
        broker.bootstrap,
        config={
            "statistics.interval.ms": 200,
            "stats_cb": seen.append,
            "client.id": "stats",
            "auto.offset.reset": "earliest",
        },
    )
    try:
        consumer.assign([TopicPartition(topic, 0)])
        got = []
        deadline = time.monotonic() + 30
        while len(got) < len(VALUES) and time.monotonic() < deadline:
            got += consumer.poll(0.3)
        seen.clear()
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            consumer.poll(0.3)
    finally:
        consumer.close()
    assert len(got) == len(VALUES) and seen
    ours = json.loads(seen[-1])
    same_names(ours, theirs)
    assert ours["type"] == theirs["type"] == "consumer" and ours["client_id"] == "stats"
    part = ours["topics"][topic]["partitions"]["0"]
    assert part["app_offset"] == part["hi_offset"] == len(VALUES)
    assert part["lo_offset"] == 0 and part["consumer_lag_stored"] == 0
    assert theirs["topics"][topic]["partitions"]["0"]["hi_offset"] == len(VALUES)


def test_producer_statistics_come_from_poll(broker, topic, face):
    seen: list[str] = []
    producer = make_producer(
        face, broker.bootstrap, config={"statistics.interval.ms": 100, "stats_cb": seen.append}
    )
    try:
        for value in VALUES:
            producer.produce(topic, value)
        producer.flush(20)
        time.sleep(0.15)
        producer.poll(0)
    finally:
        producer.close()
    assert seen
    last = json.loads(seen[-1])
    assert last["type"] == "producer" and last["msg_cnt"] == 0
    assert last["topics"][topic]["partitions"]["0"]["msgq_cnt"] == 0
    assert any(json.loads(s)["brokers"] for s in seen)


def test_no_statistics_without_an_interval(broker, topic):
    seen: list[str] = []
    consumer = make_consumer("sync", broker.bootstrap, config={"stats_cb": seen.append})
    try:
        consumer.assign([TopicPartition(topic, 0)])
        for _ in range(3):
            consumer.poll(0.2)
    finally:
        consumer.close()
    assert seen == []  # statistics.interval.ms is 0 (off) by default, as librdkafka's
