"""Record batches built by librdkafka (confluent-kafka) decode in kafkawire to
the records they were given.  The batches are taken off the wire: the produce
requests a real producer sends to a real broker (Tansu) through a proxy."""

from __future__ import annotations

import uuid

import pytest

from kafkawire import decode_records, read_batches
from kafkawire.protocol import decode_request

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")


def produced_batches(broker, topic: str) -> list[bytes]:
    """The records fields of the Produce requests recorded for `topic`."""
    out = []
    for frame in broker.proxy.take_frames():
        if int.from_bytes(frame[:2], "big") != 0:  # api key 0: Produce
            continue
        _header, request = decode_request(frame)
        for topic_data in request.topic_data:
            if topic_data.name == topic:
                out.extend(bytes(p.records) for p in topic_data.partition_data if p.records)
    return out


def create_topic(broker, topic: str, partitions: int = 1) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    for future in admin.create_topics([NewTopic(topic, partitions, 1)]).values():
        future.result(20)


@pytest.mark.parametrize("codec", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_librdkafka_batches_decode(broker, codec):
    topic = f"rdk-{codec}-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic)
    messages = [
        (
            None if i % 4 == 0 else b"key-%d" % i,
            None if i % 9 == 5 else (b"value-%d " % i) * (i % 13),
            [(f"h{i % 3}", b"x" * (i % 5)), ("dup", None), ("dup", b"2")] if i % 2 else [],
            1_700_000_000_000 + i,
        )
        for i in range(300)
    ]
    producer = confluent_kafka.Producer(
        {
            "bootstrap.servers": broker.bootstrap,
            "compression.type": codec,
            "linger.ms": 50,
            "batch.size": 8192,
        }
    )
    broker.proxy.take_frames()
    broker.proxy.recording.set()
    try:
        for key, value, headers, ts in messages:
            producer.produce(
                topic, value=value, key=key, headers=headers, timestamp=ts, partition=0
            )
        assert producer.flush(30) == 0
    finally:
        broker.proxy.recording.clear()
    batches = produced_batches(broker, topic)
    assert batches, "no produce request recorded"
    decoded = []
    for raw in batches:
        view = decode_records(raw)
        decoded.extend((r.key, r.value, [(k, v) for k, v in r.headers], r.timestamp) for r in view)
        assert {b.compression.name.lower() for b in read_batches(raw)} == {codec}
    expected = [(k, v, h, ts) for k, v, h, ts in messages]
    assert decoded == expected
