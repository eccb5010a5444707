"""Fetch throughput over TLS against PLAINTEXT, and against librdkafka over the same TLS.

Tansu speaks PLAINTEXT only, so TLS is terminated by a forwarder on Python's ssl in front of
it; PLAINTEXT goes through the same forwarder without TLS (the same threads and copies), so the
two differ by TLS alone. Two Tansu brokers hold the same topic, each advertising its forwarder.
Wall time (the broker, the forwarder and librdkafka work in other threads and processes); each
round reads the whole topic with a fresh client. ``test_tls_vs_plaintext_paired`` alternates
the two (A, B, A, B ...) and records the median of the rounds' ratios.
"""

from __future__ import annotations

import statistics
import time
import uuid

import numpy as np
import pytest

from kafkawire.client import Client, TopicPartition

confluent_kafka = pytest.importorskip("confluent_kafka")
trustme = pytest.importorskip("trustme")
broker_mod = pytest.importorskip("tests.support.broker")
tls_mod = pytest.importorskip("tests.support.tls")

RECORDS = 200_000
VALUE_BYTES = 100
PAIRED_ROUNDS = 9


@pytest.fixture(scope="module")
def beds():
    """{"plain": bootstrap, "tls": bootstrap, "config": TLS client properties, "topic": name}"""
    ca = trustme.CA()
    context = tls_mod.server_context(ca, "127.0.0.1")
    topic = f"bench-tls-{uuid.uuid4().hex[:6]}"
    rng = np.random.default_rng(7)
    values = rng.integers(0, 256, (RECORDS, VALUE_BYTES), dtype=np.uint8).view(f"S{VALUE_BYTES}")
    values = values.reshape(-1)
    keys = np.array([b"key-%06d" % i for i in range(RECORDS)], dtype="S10")
    started = []
    addresses = {}
    try:
        for name, ctx in (("plain", None), ("tls", context)):
            port = broker_mod.free_port()
            forwarder = tls_mod.TlsForwarder(port, ctx).start()
            started.append((forwarder, broker_mod.launch_tansu(port, forwarder.address)))
            addresses[name] = forwarder.address
        config = {"security.protocol": "SSL", "ssl.ca.pem": ca.cert_pem.bytes().decode()}
        for name, extra in (("plain", {}), ("tls", config)):
            with Client(addresses[name], config=extra) as client:
                client.create_topics([topic])
                for start in range(0, RECORDS, 20_000):
                    client.produce_columns(
                        TopicPartition(topic, 0),
                        values[start : start + 20_000],
                        keys=keys[start : start + 20_000],
                    )
        yield {**addresses, "config": config, "topic": topic}
    finally:
        for forwarder, process in started:
            forwarder.stop()
            process.terminate()
            process.wait(10)


def read_kafkawire(bootstrap: str, topic: str, config: dict) -> int:
    """Every field a consumer uses, through the columnar view."""
    tp = TopicPartition(topic, 0)
    count = 0
    with Client(bootstrap, config=config) as client:
        for chunk in client.read_range(tp, 0, RECORDS):
            view = chunk.view
            count += len(view)
            assert view.offsets[-1] >= 0 and view.values.lengths.sum() > 0
    return count


def read_confluent(bootstrap: str, topic: str, config: dict) -> int:
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "bench",
            "enable.auto.commit": False,
            "fetch.max.bytes": 52428800,
            "max.partition.fetch.bytes": 10485760,
            **config,
        }
    )
    consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
    count = 0
    deadline = time.monotonic() + 120
    try:
        while count < RECORDS and time.monotonic() < deadline:
            for msg in consumer.consume(num_messages=10_000, timeout=1.0):
                if msg.error() is None:
                    msg.key(), msg.value(), msg.offset(), msg.timestamp()
                    count += 1
    finally:
        consumer.close()
    return count


CASES = {
    "kafkawire PLAINTEXT": (read_kafkawire, "plain"),
    "kafkawire TLS": (read_kafkawire, "tls"),
    "confluent-kafka PLAINTEXT": (read_confluent, "plain"),
    "confluent-kafka TLS": (read_confluent, "tls"),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.benchmark(timer=time.perf_counter)
def test_fetch_over_tls(benchmark, beds, case):
    reader, bed = CASES[case]
    config = beds["config"] if bed == "tls" else {}
    benchmark.group = f"fetch {RECORDS:,} records over TLS and PLAINTEXT (forwarded)"
    benchmark.extra_info.update(suite="tls", impl=case, records=RECORDS, value_bytes=VALUE_BYTES)
    count = benchmark.pedantic(
        reader, args=(beds[bed], beds["topic"], config), rounds=5, warmup_rounds=1
    )
    assert count == RECORDS


@pytest.mark.benchmark(timer=time.perf_counter)
def test_tls_vs_plaintext_paired(benchmark, beds):
    """kafkawire over TLS and over PLAINTEXT in alternation: TLS throughput as a share of
    PLAINTEXT's (goal: at least 0.8), from the median of the rounds' ratios."""
    ratios, seconds = [], []

    def one_pair() -> None:
        start = time.perf_counter()
        read_kafkawire(beds["plain"], beds["topic"], {})
        plain = time.perf_counter() - start
        start = time.perf_counter()
        read_kafkawire(beds["tls"], beds["topic"], beds["config"])
        tls = time.perf_counter() - start
        ratios.append(plain / tls)
        seconds.append((round(plain, 3), round(tls, 3)))

    benchmark.group = "kafkawire TLS / PLAINTEXT, paired rounds"
    benchmark.pedantic(one_pair, rounds=PAIRED_ROUNDS, warmup_rounds=1)
    ratios = ratios[1:]  # the warm-up pair
    benchmark.extra_info.update(
        suite="tls",
        impl="kafkawire TLS vs PLAINTEXT",
        tls_share_of_plaintext=statistics.median(ratios),
        rounds=[round(r, 3) for r in ratios],
        seconds_plaintext_tls=seconds[1:],
    )
