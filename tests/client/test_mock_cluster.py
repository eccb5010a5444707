"""The second test bed, librdkafka's mock cluster (tests/support/mock_cluster.py): proven with
librdkafka itself first, then kafkawire's handshake and basic calls on it."""

from __future__ import annotations

import uuid

import pytest

from kafkawire.client import TopicPartition
from kafkawire.protocol import ApiKey
from tests.support.faces import make_client

confluent_kafka = pytest.importorskip("confluent_kafka")


def topic_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def librdkafka_consume(bootstrap: str, topic: str, count: int, timeout: float = 20.0):
    """``count`` messages of ``topic`` read by librdkafka from the beginning, as (partition,
    offset, key, value)."""
    import time

    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": topic_name("reader"),
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    got = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            got.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
    finally:
        consumer.close()
    return got


def test_the_bed_works_for_librdkafka(mock_cluster):
    topic = topic_name("bed")
    mock_cluster.create_topic(topic, partitions=3, replication_factor=3)
    producer = confluent_kafka.Producer({"bootstrap.servers": mock_cluster.bootstrap})
    for i in range(300):
        producer.produce(topic, b"v%d" % i, key=b"k%d" % (i % 7))
        if i == 150:  # a leader moves halfway
            mock_cluster.set_leader(topic, 0, 3)
    assert producer.flush(20) == 0
    got = librdkafka_consume(mock_cluster.bootstrap, topic, 300)
    assert sorted(v for *_, v in got) == sorted(b"v%d" % i for i in range(300))
    metadata = producer.list_topics(topic, timeout=10)
    assert sorted(metadata.brokers) == [1, 2, 3]
    assert metadata.topics[topic].partitions[0].leader == 3
    assert len(metadata.topics[topic].partitions[0].replicas) == 3


def test_kafkawire_connects_through_the_mock_handshake(face, mock_cluster):
    # the mock answers ApiVersions v4 with UNSUPPORTED_VERSION in a v4-shaped body: kafkawire
    # retries at the version it names (3), as librdkafka does
    topic = topic_name("handshake")
    mock_cluster.create_topic(topic, partitions=4)
    mock_cluster.start_tracking()
    try:
        with make_client(face, mock_cluster.bootstrap, request_timeout=10) as client:
            meta = client.metadata([topic])
    finally:
        seen = mock_cluster.requests()
        mock_cluster.stop_tracking()
    assert sorted(meta.brokers) == [1, 2, 3]
    assert sorted(meta.topics[topic].partitions) == [0, 1, 2, 3]
    assert all(len(p.replicas) == 3 for p in meta.topics[topic].partitions.values())
    assert [key for _, key in seen[:2]] == [ApiKey.API_VERSIONS, ApiKey.API_VERSIONS]


def test_kafkawire_writes_what_librdkafka_reads(face, mock_cluster):
    topic = topic_name("rw")
    mock_cluster.create_topic(topic, partitions=3, spread=True)
    values = [b"value-%d" % i for i in range(500)]
    with make_client(face, mock_cluster.bootstrap, request_timeout=10) as client:
        meta = client.metadata([topic])
        leaders = {p: info.leader for p, info in meta.topics[topic].partitions.items()}
        for partition in range(3):
            client.produce_columns(
                TopicPartition(topic, partition), values[partition::3], compression="lz4"
            )
        read = []
        for partition in range(3):
            for chunk in client.read_range(TopicPartition(topic, partition), 0):
                read += [bytes(chunk.view.value(i)) for i in range(len(chunk.view))]
    assert sorted(read) == sorted(values)
    assert len(set(leaders.values())) > 1  # the partitions really are on several brokers
    got = librdkafka_consume(mock_cluster.bootstrap, topic, 500)
    assert sorted(v for *_, v in got) == sorted(values)
