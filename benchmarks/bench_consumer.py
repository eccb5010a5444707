"""Consumers against the local broker (Tansu on 127.0.0.1): 1M records (16-byte keys,
100-byte values) in 4 partitions, uncompressed and lz4, read from the beginning by a fresh
consumer each round.

Every reader touches what a consumer loop touches: each record's offset, key and value
(per-record readers: the attributes of each record object; kafkawire's columnar poll: each
poll's rows converted to one Arrow table, which copies every key and value). Peers:
confluent-kafka's Consumer (librdkafka) and aiokafka's. The ceiling: the same Fetch requests
with the answers' bytes not decoded (positions advanced from the batch headers).

``test_consumer_paired`` alternates kafkawire's columnar poll, its per-record poll,
confluent-kafka and the ceiling (A, B, C, D, A, B, ...) and records the medians of the rounds'
ratios (goals: columnar >= 2x the fastest peer and >= 0.8 of the ceiling; per-record >= 1x).
Wall time: the broker and librdkafka work in other threads and processes.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid

import numpy as np
import pytest

from kafkawire import Consumer
from kafkawire.client import Client, TopicPartition
from kafkawire.client.consumer.fetcher import batches_end

confluent_kafka = pytest.importorskip("confluent_kafka")
aiokafka = pytest.importorskip("aiokafka")
broker_mod = pytest.importorskip("tests.support.broker")

RECORDS = 1_000_000
PARTITIONS = 4
KEY_BYTES = 16
VALUE_BYTES = 100
CODECS = ["none", "lz4"]
PAIRED_ROUNDS = 4
FETCH = {"fetch.max.bytes": 52428800, "max.partition.fetch.bytes": 10485760}


@pytest.fixture(scope="module")
def broker():
    b = broker_mod.start_broker()
    yield b
    broker_mod.stop_broker(b)


@pytest.fixture(scope="module", params=CODECS)
def topic(request, broker):
    rng = np.random.default_rng(3)
    per = RECORDS // PARTITIONS
    values = rng.integers(0, 256, (per, VALUE_BYTES), dtype=np.uint8).view(f"S{VALUE_BYTES}")
    keys = np.array([b"key-%012d" % i for i in range(per)], dtype=f"S{KEY_BYTES}")
    name = f"bench-consumer-{request.param}-{uuid.uuid4().hex[:6]}"
    with Client(broker.bootstrap) as client:
        client.create_topics({name: PARTITIONS})
        for p in range(PARTITIONS):
            for start in range(0, per, 25_000):
                client.produce_columns(
                    TopicPartition(name, p),
                    values.reshape(-1)[start : start + 25_000],
                    keys=keys[start : start + 25_000],
                    compression=None if request.param == "none" else request.param,
                )
    return {"name": name, "codec": request.param, "bootstrap": broker.bootstrap}


def _tps(topic):
    return [TopicPartition(topic["name"], p) for p in range(PARTITIONS)]


def read_kafkawire_columnar(topic) -> int:
    count = 0
    config = {"auto.offset.reset": "earliest", **FETCH}
    with Consumer(topic["bootstrap"], config=config) as consumer:
        consumer.assign(_tps(topic))
        deadline = time.monotonic() + 120
        while count < RECORDS and time.monotonic() < deadline:
            table = consumer.poll_batch(1.0, max_records=100_000).to_arrow(include_headers=False)
            count += table.num_rows
    return count


def read_kafkawire_records(topic) -> int:
    count = 0
    config = {"auto.offset.reset": "earliest", **FETCH}
    with Consumer(topic["bootstrap"], config=config) as consumer:
        consumer.assign(_tps(topic))
        deadline = time.monotonic() + 120
        while count < RECORDS and time.monotonic() < deadline:
            for r in consumer.poll(1.0, max_records=100_000):
                r.offset, r.key, r.value  # noqa: B018  (what the loop touches)
                count += 1
    return count


def read_kafkawire_asyncio(topic) -> int:
    from kafkawire.aio import Consumer as AsyncConsumer

    async def read() -> int:
        count = 0
        config = {"auto.offset.reset": "earliest", **FETCH}
        async with AsyncConsumer(topic["bootstrap"], config=config) as consumer:
            consumer.assign(_tps(topic))
            deadline = time.monotonic() + 120
            while count < RECORDS and time.monotonic() < deadline:
                for r in await consumer.poll(1.0, max_records=100_000):
                    r.offset, r.key, r.value  # noqa: B018
                    count += 1
        return count

    return asyncio.run(read())


def read_confluent(topic) -> int:
    consumer = confluent_kafka.Consumer(
        {"bootstrap.servers": topic["bootstrap"], "group.id": "bench", **FETCH}
    )
    consumer.assign([confluent_kafka.TopicPartition(topic["name"], p, 0) for p in range(4)])
    count = 0
    deadline = time.monotonic() + 120
    try:
        while count < RECORDS and time.monotonic() < deadline:
            for msg in consumer.consume(num_messages=10_000, timeout=1.0):
                if msg.error() is None:
                    msg.offset(), msg.key(), msg.value()
                    count += 1
    finally:
        consumer.close()
    return count


def read_aiokafka(topic) -> int:
    from aiokafka import AIOKafkaConsumer
    from aiokafka import TopicPartition as AioTopicPartition

    async def read() -> int:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=topic["bootstrap"],
            enable_auto_commit=False,
            max_partition_fetch_bytes=FETCH["max.partition.fetch.bytes"],
            fetch_max_bytes=FETCH["fetch.max.bytes"],
        )
        await consumer.start()
        tps = [AioTopicPartition(topic["name"], p) for p in range(PARTITIONS)]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        count = 0
        deadline = time.monotonic() + 240
        try:
            while count < RECORDS and time.monotonic() < deadline:
                batches = await consumer.getmany(timeout_ms=1000, max_records=100_000)
                for records in batches.values():
                    for r in records:
                        r.offset, r.key, r.value  # noqa: B018
                        count += 1
        finally:
            await consumer.stop()
        return count

    return asyncio.run(read())


def read_ceiling(topic) -> int:
    """The same fetches, the bytes not decoded: the broker and the network alone."""
    positions = dict.fromkeys(_tps(topic), 0)
    ends = dict.fromkeys(positions, RECORDS // PARTITIONS)
    with Client(topic["bootstrap"]) as client:
        while positions:
            answers = client.fetch(
                positions,
                max_bytes=FETCH["fetch.max.bytes"],
                partition_max_bytes=FETCH["max.partition.fetch.bytes"],
            )
            for tp, part in answers.items():
                positions[tp] = batches_end(part.records, positions[tp])
                if positions[tp] >= ends[tp]:
                    del positions[tp]
    return RECORDS


READERS = {
    "kafkawire columnar": read_kafkawire_columnar,
    "kafkawire records": read_kafkawire_records,
    "kafkawire asyncio records": read_kafkawire_asyncio,
    "confluent-kafka": read_confluent,
    "aiokafka": read_aiokafka,
    "ceiling (fetch, no decode)": read_ceiling,
}


@pytest.mark.parametrize("impl", list(READERS))
@pytest.mark.benchmark(timer=time.perf_counter)
def test_consume_topic(benchmark, topic, impl):
    benchmark.group = f"consume {RECORDS:,} records, {PARTITIONS} partitions ({topic['codec']})"
    benchmark.extra_info.update(suite="consumer", impl=impl, codec=topic["codec"], records=RECORDS)
    rounds = 2 if impl == "aiokafka" else 3
    count = benchmark.pedantic(READERS[impl], args=(topic,), rounds=rounds, warmup_rounds=1)
    assert count == RECORDS


@pytest.mark.benchmark(timer=time.perf_counter)
def test_consumer_paired(benchmark, topic):
    """kafkawire columnar, kafkawire per-record, confluent-kafka and the ceiling in
    alternation; the medians of the rounds' ratios."""
    order = [
        "kafkawire columnar",
        "kafkawire records",
        "confluent-kafka",
        "ceiling (fetch, no decode)",
    ]
    seconds: list[dict[str, float]] = []

    def one_round() -> None:
        took = {}
        for name in order:
            start = time.perf_counter()
            assert READERS[name](topic) == RECORDS
            took[name] = time.perf_counter() - start
        seconds.append(took)

    benchmark.group = f"consumer paired rounds ({topic['codec']})"
    benchmark.extra_info.update(suite="consumer-paired")  # kept out of the rate tables
    benchmark.pedantic(one_round, rounds=PAIRED_ROUNDS, warmup_rounds=1)
    rounds = seconds[1:]  # the warm-up round

    def median(a: str, b: str) -> float:  # throughput of a over b
        return round(statistics.median(r[b] / r[a] for r in rounds), 3)

    benchmark.extra_info.update(
        suite="consumer-paired",
        impl="paired",
        codec=topic["codec"],
        columnar_over_confluent=median("kafkawire columnar", "confluent-kafka"),
        records_over_confluent=median("kafkawire records", "confluent-kafka"),
        columnar_share_of_ceiling=median("kafkawire columnar", "ceiling (fetch, no decode)"),
        seconds=[{k: round(v, 3) for k, v in r.items()} for r in rounds],
    )
