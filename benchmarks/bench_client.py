"""Client fetch-and-decode rate against a real broker (Tansu on 127.0.0.1), beside
confluent-kafka's consumer (librdkafka) and kafka-python's on the same topic.

Wall time, not CPU time: the broker works in another process and librdkafka in its own
threads, so only the elapsed time of reading the whole topic compares the three fairly.
Every round starts a fresh client (connect, metadata, fetches) as a batch job would.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import numpy as np
import pytest

from kafkawire.aio import Client as AsyncClient
from kafkawire.client import Client, TopicPartition

confluent_kafka = pytest.importorskip("confluent_kafka")
broker_mod = pytest.importorskip("tests.support.broker")

RECORDS = 200_000
VALUE_BYTES = 100
CODECS = ["none", "lz4"]


@pytest.fixture(scope="module")
def broker():
    b = broker_mod.start_broker()
    yield b
    broker_mod.stop_broker(b)


@pytest.fixture(scope="module", params=CODECS)
def topic(request, broker):
    """One partition of RECORDS records (10-byte keys, 100-byte values), in 1 MiB batches."""
    rng = np.random.default_rng(11)
    values = rng.integers(0, 256, (RECORDS, VALUE_BYTES), dtype=np.uint8).view(f"S{VALUE_BYTES}")
    values = values.reshape(-1)
    keys = np.array([b"key-%06d" % i for i in range(RECORDS)], dtype="S10")
    name = f"bench-{request.param}-{uuid.uuid4().hex[:6]}"
    with Client(broker.bootstrap) as client:
        client.create_topics([name])
        step = 20_000
        for start in range(0, RECORDS, step):
            client.produce_columns(
                TopicPartition(name, 0),
                values[start : start + step],
                keys=keys[start : start + step],
                compression=None if request.param == "none" else request.param,
            )
        assert client.latest_offsets([TopicPartition(name, 0)])[TopicPartition(name, 0)] == RECORDS
    return {"name": name, "codec": request.param, "bootstrap": broker.bootstrap}


def read_kafkawire(topic) -> int:
    tp = TopicPartition(topic["name"], 0)
    with Client(topic["bootstrap"]) as client:
        return sum(len(chunk) for chunk in client.read_range(tp, 0, RECORDS))


def read_kafkawire_arrow(topic) -> int:
    tp = TopicPartition(topic["name"], 0)
    with Client(topic["bootstrap"]) as client:
        return sum(chunk.to_arrow().num_rows for chunk in client.read_range(tp, 0, RECORDS))


def read_kafkawire_asyncio(topic) -> int:
    tp = TopicPartition(topic["name"], 0)

    async def read() -> int:
        async with AsyncClient(topic["bootstrap"]) as client:
            return sum([len(chunk) async for chunk in client.read_range(tp, 0, RECORDS)])

    return asyncio.run(read())


def read_confluent(topic) -> int:
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": topic["bootstrap"],
            "group.id": "bench",
            "enable.auto.commit": False,
            "fetch.max.bytes": 52428800,
            "max.partition.fetch.bytes": 10485760,
        }
    )
    consumer.assign([confluent_kafka.TopicPartition(topic["name"], 0, 0)])
    count = 0
    deadline = time.monotonic() + 120
    try:
        while count < RECORDS and time.monotonic() < deadline:
            for msg in consumer.consume(num_messages=10_000, timeout=1.0):
                if msg.error() is None:
                    msg.value()  # what a consumer does with each record
                    count += 1
    finally:
        consumer.close()
    return count


def read_kafka_python(topic) -> int:
    from kafka import KafkaConsumer
    from kafka import TopicPartition as KpTopicPartition

    consumer = KafkaConsumer(
        bootstrap_servers=topic["bootstrap"],
        enable_auto_commit=False,
        max_partition_fetch_bytes=10485760,
        fetch_max_bytes=52428800,
    )
    tp = KpTopicPartition(topic["name"], 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    count = 0
    deadline = time.monotonic() + 120
    try:
        while count < RECORDS and time.monotonic() < deadline:
            for records in consumer.poll(1000, max_records=100_000).values():
                count += sum(1 for r in records if r.value is not None)
    finally:
        consumer.close()
    return count


READERS = {
    "kafkawire": read_kafkawire,
    "kafkawire-arrow": read_kafkawire_arrow,
    "kafkawire-asyncio": read_kafkawire_asyncio,
    "confluent-kafka": read_confluent,
    "kafka-python": read_kafka_python,
}


@pytest.mark.parametrize("impl", list(READERS))
@pytest.mark.benchmark(timer=time.perf_counter)
def test_fetch_topic(benchmark, topic, impl):
    benchmark.group = f"fetch {RECORDS:,} records ({topic['codec']}) from the broker"
    benchmark.extra_info.update(
        suite="client", impl=impl, codec=topic["codec"], records=RECORDS, value_bytes=VALUE_BYTES
    )
    rounds = 2 if impl == "kafka-python" else 5
    count = benchmark.pedantic(READERS[impl], args=(topic,), rounds=rounds, warmup_rounds=1)
    assert count == RECORDS
