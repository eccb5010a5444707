"""Consumers against the local broker (Tansu on 127.0.0.1): 1M records (16-byte keys,
100-byte values) in 4 partitions, uncompressed and lz4, read from the beginning by a fresh
consumer each round.

Every reader touches what a consumer loop touches: each record's offset, key and value
(per-record readers: the attributes of each record object; kafkawire's columnar poll: each
poll's rows converted to one Arrow table, which copies every key and value). Peers:
confluent-kafka's Consumer (librdkafka) and aiokafka's. The ceiling, two ways, the faster
counting: the Fetch requests that read the topic (worked out once, untimed: positions advanced
from the batch headers) replayed one after the other over a bare socket, each answer read into
one reused buffer and dropped; and the same fetches through kafkawire's request-level
``Client.fetch``, the records not decoded. Both are the broker and the loopback, with next to
no client.

confluent-kafka runs with its fetch settings tuned for throughput (``CONFLUENT_TUNED``: the
same fetch sizes, a prefetch queue of up to 1M records / 2 GiB per partition instead of
100,000 / 64 MiB, no auto-commit, batches of 100,000 from ``consume``).

``test_consumer_paired`` alternates kafkawire's columnar poll, its per-record poll,
confluent-kafka and the ceilings (A, B, C, D, D, C, B, A, ...) and records the medians of the
rounds' ratios (goals: columnar >= 0.9 of the ceiling uncompressed and >= 5x confluent-kafka;
per-record >= 1x), and the ceiling's own ratio over confluent-kafka: the most any client could
reach over it against this broker. Wall time: the broker and librdkafka work in other threads
and processes. The broker runs alone, not behind tests/support's recording proxy, whose pumps
are Python threads that would share this process's GIL with the readers measured.
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import time
import uuid
from types import SimpleNamespace

import numpy as np
import pytest

from kafkawire import Consumer
from kafkawire.client import Client, TopicPartition
from kafkawire.client.consumer.fetcher import batches_end
from kafkawire.protocol import decode_response, encode_request
from kafkawire.protocol import messages as m

confluent_kafka = pytest.importorskip("confluent_kafka")
aiokafka = pytest.importorskip("aiokafka")
broker_mod = pytest.importorskip("tests.support.broker")

RECORDS = 1_000_000
PARTITIONS = 4
KEY_BYTES = 16
VALUE_BYTES = 100
CODECS = ["none", "lz4"]
PAIRED_ROUNDS = 6
FETCH = {"fetch.max.bytes": 52428800, "max.partition.fetch.bytes": 10485760}
CONFLUENT_TUNED = {
    **FETCH,
    "queued.min.messages": 1_000_000,
    "queued.max.messages.kbytes": 2_097_151,
    "enable.auto.commit": False,
    "enable.partition.eof": False,
}


@pytest.fixture(scope="module")
def broker():
    with broker_mod.tansu_alone() as (_, bootstrap):
        yield SimpleNamespace(bootstrap=bootstrap)


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
    out = {"name": name, "codec": request.param, "bootstrap": broker.bootstrap}
    with Client(broker.bootstrap) as client:
        out["id"] = client.metadata([name]).topics[name].topic_id
    out["ceiling"] = prepare_ceiling(out)
    return out


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
        {"bootstrap.servers": topic["bootstrap"], "group.id": "bench", **CONFLUENT_TUNED}
    )
    consumer.assign([confluent_kafka.TopicPartition(topic["name"], p, 0) for p in range(4)])
    count = 0
    deadline = time.monotonic() + 120
    try:
        while count < RECORDS and time.monotonic() < deadline:
            for msg in consumer.consume(num_messages=100_000, timeout=1.0):
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


FETCH_VERSION = 16  # Tansu's newest (topic ids)


def _fetch_frame(topic, positions: dict, correlation_id: int) -> bytes:
    partitions = [
        m.FetchRequest.FetchPartition(
            partition=tp.partition,
            fetch_offset=offset,
            partition_max_bytes=FETCH["max.partition.fetch.bytes"],
        )
        for tp, offset in positions.items()
    ]
    request = m.FetchRequest(
        replica_id=-1,
        max_wait_ms=500,
        min_bytes=1,
        max_bytes=FETCH["fetch.max.bytes"],
        session_epoch=-1,  # no fetch session: each request stands alone
        topics=[
            m.FetchRequest.FetchTopic(
                topic=topic["name"], topic_id=topic["id"], partitions=partitions
            )
        ],
    )
    return encode_request(
        request, version=FETCH_VERSION, correlation_id=correlation_id, client_id="ceiling"
    )


def _read_frame(sock: socket.socket, buf: bytearray) -> memoryview:
    """One size-prefixed answer into buf (grown when short), without a copy."""
    head = bytearray(4)
    got = 0
    while got < 4:
        got += sock.recv_into(memoryview(head)[got:])
    size = int.from_bytes(head, "big")
    if size > len(buf):
        buf.extend(bytes(size - len(buf)))
    view = memoryview(buf)
    got = 0
    while got < size:
        n = sock.recv_into(view[got:size])
        if n == 0:
            raise ConnectionError("the broker closed the connection")
        got += n
    return view[:size]


def _advance(positions: dict, tp: TopicPartition, records) -> None:
    """Move tp past the batches of a fetch answer; drop it once it has read its records."""
    positions[tp] = batches_end(records, positions[tp])
    if positions[tp] >= RECORDS // PARTITIONS:
        del positions[tp]


def prepare_ceiling(topic) -> list[bytes]:
    """The Fetch requests that read the whole topic from the start, found by sending them
    once (untimed): each one's positions advanced from the answer before."""
    host, port = topic["bootstrap"].rsplit(":", 1)
    positions = dict.fromkeys(_tps(topic), 0)
    frames: list[bytes] = []
    buf = bytearray(1 << 20)
    with socket.create_connection((host, int(port))) as sock:
        while positions:
            frames.append(_fetch_frame(topic, positions, len(frames)))
            sock.sendall(frames[-1])
            with _read_frame(sock, buf) as answer:  # a copy to decode: buf is reused
                frame = bytes(answer)
            _, response = decode_response(frame, api_key=1, api_version=FETCH_VERSION)
            for answer in response.responses:
                for part in answer.partitions:
                    assert part.error_code == 0, (part.partition_index, part.error_code)
                    tp = TopicPartition(topic["name"], part.partition_index)
                    if tp in positions:
                        _advance(positions, tp, part.records)
    return frames


def read_ceiling_client(topic) -> int:
    """The same fetches through kafkawire's request-level Client, the records not decoded
    (positions advanced from the batch headers)."""
    positions = dict.fromkeys(_tps(topic), 0)
    with Client(topic["bootstrap"]) as client:
        while positions:
            answers = client.fetch(
                positions,
                max_bytes=FETCH["fetch.max.bytes"],
                partition_max_bytes=FETCH["max.partition.fetch.bytes"],
            )
            for tp, part in answers.items():
                _advance(positions, tp, part.records)
    return RECORDS


def read_ceiling(topic) -> int:
    """The topic's Fetch requests replayed over a bare socket, each answer read and dropped."""
    host, port = topic["bootstrap"].rsplit(":", 1)
    buf = bytearray(64 << 20)
    with socket.create_connection((host, int(port))) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for frame in topic["ceiling"]:
            sock.sendall(frame)
            _read_frame(sock, buf).release()
    return RECORDS


READERS = {
    "kafkawire columnar": read_kafkawire_columnar,
    "kafkawire records": read_kafkawire_records,
    "kafkawire asyncio records": read_kafkawire_asyncio,
    "confluent-kafka": read_confluent,
    "aiokafka": read_aiokafka,
    "ceiling (fetch, no decode)": read_ceiling,
    "ceiling (Client.fetch, no decode)": read_ceiling_client,
}
CEILINGS = ["ceiling (fetch, no decode)", "ceiling (Client.fetch, no decode)"]


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
    """kafkawire columnar, kafkawire per-record, confluent-kafka and the two ceilings in
    alternation; the medians of the rounds' ratios. Each round's ceiling is the faster of
    the two (the bare socket's replay, and kafkawire's Client, which was the faster here)."""
    order = ["kafkawire columnar", "kafkawire records", "confluent-kafka", *CEILINGS]
    seconds: list[dict[str, float]] = []

    def one_round() -> None:
        took = {}
        # the order reversed every other round (A, B, C, C, B, A, ...): no reader always
        # follows the same one
        for name in order if len(seconds) % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            assert READERS[name](topic) == RECORDS
            took[name] = time.perf_counter() - start
        took["ceiling"] = min(took[name] for name in CEILINGS)
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
        columnar_share_of_ceiling=median("kafkawire columnar", "ceiling"),
        ceiling_over_confluent=median("ceiling", "confluent-kafka"),
        seconds=[{k: round(v, 3) for k, v in r.items()} for r in rounds],
    )
