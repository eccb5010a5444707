"""Fetch from a follower (KIP-392, client.rack) on librdkafka's mock cluster: the leader names a
preferred read replica in its Fetch answer (and gives no records), and the consumer fetches
from that replica from then on; librdkafka's consumer does the same first, to prove the bed."""

from __future__ import annotations

import time
import uuid

import pytest

from kafkawire.client import Client, TopicPartition
from kafkawire.protocol import ApiKey
from tests.support.faces import make_consumer
from tests.support.mock_cluster import MockCluster

LEADER, FOLLOWER = 1, 3
VALUES = [b"ff-%03d" % i for i in range(20)]


@pytest.fixture(scope="module")
def mock():
    with MockCluster(3) as cluster:
        for broker in cluster.broker_ids:
            cluster.set_rack(broker, f"rack-{broker}")
        yield cluster


@pytest.fixture
def topic(mock) -> str:
    name = f"ff-{uuid.uuid4().hex[:8]}"
    mock.create_topic(name, 1)
    mock.set_leader(name, 0, LEADER)
    with Client(mock.bootstrap) as admin:
        admin.produce_columns(TopicPartition(name, 0), VALUES)
    mock.set_follower(name, 0, FOLLOWER)
    return name


def fetches_by_broker(mock) -> dict[int, int]:
    counts: dict[int, int] = {}
    for broker, api_key in mock.requests():
        if api_key == ApiKey.FETCH:
            counts[broker] = counts.get(broker, 0) + 1
    return counts


def read(consumer, count: int, **options) -> list[bytes]:
    """The values of up to ``count`` records, polled for 30 s at most."""
    got: list[bytes] = []
    deadline = time.monotonic() + 30
    while len(got) < count and time.monotonic() < deadline:
        got += [r.value for r in consumer.poll(0.5, **options)]
    return got


def test_librdkafka_fetches_from_the_follower(mock, topic):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": mock.bootstrap,
            "group.id": f"g-{uuid.uuid4().hex[:8]}",
            "client.rack": f"rack-{FOLLOWER}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    mock.start_tracking()
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
        got = []
        deadline = time.monotonic() + 30
        while len(got) < len(VALUES) and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                got.append(message.value())
        assert got == VALUES
        assert fetches_by_broker(mock).get(FOLLOWER, 0) >= 1
    finally:
        mock.stop_tracking()
        consumer.close()


def test_consumer_fetches_from_the_follower_the_leader_names(mock, topic, face):
    consumer = make_consumer(
        face,
        mock.bootstrap,
        config={"client.rack": f"rack-{FOLLOWER}", "auto.offset.reset": "earliest"},
    )
    mock.start_tracking()
    try:
        consumer.assign([TopicPartition(topic, 0)])
        got = read(consumer, len(VALUES))
        assert got == VALUES
        fetches = fetches_by_broker(mock)
        # the leader is asked once and names the follower; the records come from the follower
        assert fetches.get(FOLLOWER, 0) >= 1
        assert fetches.get(LEADER, 0) <= 2, fetches
    finally:
        mock.stop_tracking()
        consumer.close()


def test_a_follower_that_goes_down_sends_the_consumer_back_to_the_leader(mock, topic, face):
    consumer = make_consumer(
        face,
        mock.bootstrap,
        config={"client.rack": f"rack-{FOLLOWER}", "auto.offset.reset": "earliest"},
        request_timeout=2,
    )
    try:
        consumer.assign([TopicPartition(topic, 0)])
        got = read(consumer, 5, max_records=5)
        assert got == VALUES[:5]
        mock.set_follower(topic, 0, -1)  # the leader names no follower any more
        mock.broker_down(FOLLOWER)
        try:
            got += read(consumer, len(VALUES) - len(got))
        finally:
            mock.broker_up(FOLLOWER)
        assert got == VALUES
    finally:
        consumer.close()
