"""Share groups (KIP-932): 1M records (16-byte keys, 100-byte values, no headers) consumed by
a share consumer, on librdkafka's mock cluster (tests/support/mock_cluster.py: three brokers
in this process, the only broker here with share groups), kafkawire against confluent-kafka.

The records are produced once per module; each consumer joins a share group of its own (a new
group id), which starts at the log's beginning (``share.auto.offset.reset`` earliest, a
setting of the whole mock cluster) and reads until it has had every record once. Both clients
run in implicit acknowledgement mode (a poll accepts what the poll before gave; close accepts
the last) with the same ShareFetch settings, both libraries' defaults named explicitly
(``SHARE_CONFIG``: max.poll.records 500, fetch.max.bytes 50 MiB, fetch.wait.max.ms 500,
fetch.min.bytes 1).

Every reader touches every record:

- per record (kafkawire ``ShareConsumer.poll``, confluent-kafka ``ShareConsumer.poll``): each
  record's offset, timestamp, key, value, headers and delivery count;
- columnar (kafkawire ``ShareConsumer.poll_batch``): each acquired range's RecordView, its
  columns reduced through numpy over every row: sums of the offsets, the timestamps, the key
  and value lengths, the per-row header counts and the delivery counts (the sums are checked);
- the limit: kafkawire.decode_records over the same records as batches built beforehand and
  the same reductions, no broker: what the decoding alone costs.

The mock cluster, not the clients, sets most of the time. It answers each ShareFetch by
walking every offset from the share-partition start to the log end of each partition of the
session, looking each one up in a linked list of the partition's in-flight records
(rdkafka_mock_handlers.c, ``rd_kafka_mock_sgrp_write_acquired_records`` and ``..._meta``):
the cost of a fetch grows with (records left in the partition) x (records in flight), so
reading a partition costs the square of its length. 1M records in 4 partitions would take the
mock minutes; the records are spread over ``PARTITIONS`` partitions of ~1,000 records each,
where it takes seconds. It also answers with every batch that holds a record acquired by the
member and not yet acknowledged, so batches are kept at 16 KiB (Java's batch.size; at 1 MiB a
fetch of 500 records carried ~9,000). ``test_share_paired`` records the CPU time of the mock's
thread next to each contender's (Linux: /proc/self/task).

``test_share_paired`` runs the contenders one after the other, round after round, the order
reversed every other round (A, B, C, D, D, C, B, A, ...), one warm-up round dropped, and
records the medians of the rounds' ratios (goals: per record >= 1x confluent-kafka, columnar
>= 3x). Wall time (the mock and librdkafka work in threads of this process); GC stays on.
``KAFKAWIRE_BENCH_SHARE_RECORDS=20000`` tries the suite in seconds.
"""

from __future__ import annotations

import os
import statistics
import time
import uuid

import numpy as np
import pytest

import kafkawire
from kafkawire.client import Client, TopicPartition

confluent_kafka = pytest.importorskip("confluent_kafka", reason="the confluent-kafka peer")
if not hasattr(confluent_kafka, "ShareConsumer"):
    pytest.skip(
        f"confluent-kafka {confluent_kafka.version()[0]} has no ShareConsumer",
        allow_module_level=True,
    )
mock_cluster = pytest.importorskip("tests.support.mock_cluster", reason="the mock cluster")

# a smaller count for a quick try of the suite (the report's numbers are for 1M)
RECORDS = int(os.environ.get("KAFKAWIRE_BENCH_SHARE_RECORDS", 1_000_000))
# ~1,000 records a partition at 1M: the mock's cost is quadratic in a partition's length
PARTITIONS = int(os.environ.get("KAFKAWIRE_BENCH_SHARE_PARTITIONS", 1024))
KEY_BYTES = 16
VALUE_BYTES = 100
BATCH_BYTES = 16384
PAIRED_ROUNDS = 3  # after one warm-up round
DEADLINE = 600  # seconds a reader may take before the benchmark fails
SHARE_CONFIG = {
    "max.poll.records": 500,
    "fetch.max.bytes": 52428800,
    "fetch.wait.max.ms": 500,
    "fetch.min.bytes": 1,
}


def _columns(count: int, seed: int):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 256, (count, VALUE_BYTES), dtype=np.uint8).view(f"S{VALUE_BYTES}")
    keys = np.array([b"key-%012d" % i for i in range(count)], dtype=f"S{KEY_BYTES}")
    return values.reshape(-1), keys


def _counts() -> list[int]:
    """Records per partition, adding up to RECORDS."""
    per, extra = divmod(RECORDS, PARTITIONS)
    return [per + (p < extra) for p in range(PARTITIONS)]


@pytest.fixture(scope="module")
def cluster():
    c = mock_cluster.MockCluster(3)
    c.set_share_auto_offset_reset(earliest=True)
    c.set_share_group_timeouts(session_ms=30000, heartbeat_ms=1000)
    yield c
    c.close()


@pytest.fixture(scope="module")
def topic(cluster):
    name = f"bench-share-{uuid.uuid4().hex[:6]}"
    cluster.create_topic(name, partitions=PARTITIONS)
    counts = _counts()
    values, keys = _columns(max(counts), seed=3)
    with Client(cluster.bootstrap) as client:
        for p, count in enumerate(counts):
            if count:
                client.produce_columns(
                    TopicPartition(name, p),
                    values[:count],
                    keys=keys[:count],
                    max_batch_bytes=BATCH_BYTES,
                )
    # what every reader's sums must come to (offsets start at 0 in each partition)
    expected = {
        "offsets": sum(c * (c - 1) // 2 for c in counts),
        "key_bytes": RECORDS * KEY_BYTES,
        # numpy's S dtype drops a value's trailing NUL bytes, and so do the batches built
        "value_bytes": sum(int(np.char.str_len(values[:c]).sum()) for c in counts),
        "headers": 0,
        "deliveries": RECORDS,
    }
    batches = [
        b"".join(kafkawire.build_batches(values[:c], keys=keys[:c], max_bytes=BATCH_BYTES))
        for c in counts
        if c
    ]
    return {"name": name, "bootstrap": cluster.bootstrap, "expected": expected, "batches": batches}


def _group() -> str:
    return f"bench-share-{uuid.uuid4().hex[:12]}"


def read_kafkawire_records(topic) -> int:
    count = 0
    config = {"group.id": _group(), **SHARE_CONFIG}
    with kafkawire.ShareConsumer(topic["bootstrap"], config=config) as consumer:
        consumer.subscribe([topic["name"]])
        deadline = time.monotonic() + DEADLINE
        while count < RECORDS and time.monotonic() < deadline:
            for r in consumer.poll(1.0):
                r.offset, r.timestamp, r.key, r.value, r.headers, r.delivery_count  # noqa: B018
                count += 1
    return count


def _reduce(view, delivery_count: int, sums: dict) -> int:
    """Every row of a RecordView through numpy: the sums the topic fixture expects."""
    n = len(view)
    sums["offsets"] += int(view.offsets.sum())
    sums["timestamps"] += int(view.timestamps.sum())
    sums["key_bytes"] += int(view.keys.lengths.sum())
    sums["value_bytes"] += int(view.values.lengths.sum())
    sums["headers"] += int(np.diff(view.header_offsets).sum())
    sums["deliveries"] += delivery_count * n
    return n


def _sums() -> dict:
    return dict.fromkeys(
        ("offsets", "timestamps", "key_bytes", "value_bytes", "headers", "deliveries"), 0
    )


def _check(sums: dict, topic) -> None:
    got = {k: v for k, v in sums.items() if k != "timestamps"}
    assert got == topic["expected"], (got, topic["expected"])


def read_kafkawire_columnar(topic) -> int:
    count = 0
    sums = _sums()
    config = {"group.id": _group(), **SHARE_CONFIG}
    with kafkawire.ShareConsumer(topic["bootstrap"], config=config) as consumer:
        consumer.subscribe([topic["name"]])
        deadline = time.monotonic() + DEADLINE
        while count < RECORDS and time.monotonic() < deadline:
            for part in consumer.poll_batch(1.0).partitions:
                count += _reduce(part.view, part.delivery_count, sums)
    if count == RECORDS:
        _check(sums, topic)
    return count


def read_confluent(topic) -> int:
    consumer = confluent_kafka.ShareConsumer(
        {"bootstrap.servers": topic["bootstrap"], "group.id": _group(), **SHARE_CONFIG}
    )
    count = 0
    try:
        consumer.subscribe([topic["name"]])
        deadline = time.monotonic() + DEADLINE
        while count < RECORDS and time.monotonic() < deadline:
            for msg in consumer.poll(1.0):
                if msg.error() is None:
                    msg.offset(), msg.timestamp(), msg.key(), msg.value()
                    msg.headers(), msg.delivery_count()
                    count += 1
    finally:
        consumer.close()
    return count


def read_limit(topic) -> int:
    """The same records decoded from batches built beforehand, the same reductions: no
    broker, no consumer."""
    count = 0
    sums = _sums()
    for batches in topic["batches"]:
        count += _reduce(kafkawire.decode_records(batches), 1, sums)
    _check(sums, topic)
    return count


READERS = {
    "kafkawire records": read_kafkawire_records,
    "kafkawire columnar": read_kafkawire_columnar,
    "confluent-kafka": read_confluent,
    "limit (decode_records, no broker)": read_limit,
}


def _mock_cpu() -> float | None:
    """CPU seconds of the mock cluster's thread(s) so far (None off Linux)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:  # a thread that ended meanwhile
            continue
        if stat[stat.index("(") + 1 : stat.rindex(")")] == "rdk:mock":
            fields = stat[stat.rindex(")") + 2 :].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _timed(name: str, topic) -> dict[str, float]:
    mock0, cpu0, start = _mock_cpu(), time.process_time(), time.perf_counter()
    count = READERS[name](topic)
    wall, cpu, mock1 = time.perf_counter() - start, time.process_time() - cpu0, _mock_cpu()
    assert count == RECORDS, f"{name}: {count} of {RECORDS} records"
    out = {"wall": wall}
    if mock0 is not None and mock1 is not None:
        out["mock_cpu"] = mock1 - mock0
        out["client_cpu"] = cpu - out["mock_cpu"]  # the rest of the process: the client
    return out


@pytest.mark.parametrize("impl", list(READERS))
@pytest.mark.benchmark(timer=time.perf_counter)
def test_share_consume(benchmark, topic, impl):
    benchmark.group = f"share-group consume {RECORDS:,} records, {PARTITIONS} partitions"
    benchmark.extra_info.update(suite="share", impl=impl, records=RECORDS, partitions=PARTITIONS)
    rounds = 30 if impl.startswith("limit") else 2
    count = benchmark.pedantic(READERS[impl], args=(topic,), rounds=rounds, warmup_rounds=1)
    assert count == RECORDS


@pytest.mark.benchmark(timer=time.perf_counter)
def test_share_paired(benchmark, topic):
    """kafkawire per record, kafkawire columnar, confluent-kafka and the limit in alternation;
    the medians of the rounds' ratios."""
    order = list(READERS)
    rounds: list[dict[str, dict[str, float]]] = []

    def one_round() -> None:
        names = order if len(rounds) % 2 == 0 else order[::-1]
        rounds.append({name: _timed(name, topic) for name in names})

    benchmark.group = "share-group paired rounds"
    benchmark.extra_info.update(suite="share-paired")  # kept out of the rate tables
    benchmark.pedantic(one_round, rounds=PAIRED_ROUNDS, warmup_rounds=1)
    measured = rounds[1:]  # the warm-up round

    def ratios(a: str, b: str) -> list[float]:  # throughput of a over b, round by round
        return [round(r[b]["wall"] / r[a]["wall"], 3) for r in measured]

    records = ratios("kafkawire records", "confluent-kafka")
    columnar = ratios("kafkawire columnar", "confluent-kafka")
    summary = {
        "records_over_confluent": round(statistics.median(records), 3),
        "columnar_over_confluent": round(statistics.median(columnar), 3),
        "records_over_confluent_rounds": records,
        "columnar_over_confluent_rounds": columnar,
        "seconds": [
            {name: {k: round(v, 3) for k, v in t.items()} for name, t in r.items()}
            for r in measured
        ],
    }
    benchmark.extra_info.update(
        suite="share-paired", impl="paired", records=RECORDS, partitions=PARTITIONS, **summary
    )
    print(f"\nshare groups, {RECORDS:,} records in {PARTITIONS} partitions, paired rounds:")
    for r in measured:
        print("  " + "; ".join(f"{n}: {_text(t)}" for n, t in r.items()))
    print(
        f"  kafkawire records / confluent-kafka: {summary['records_over_confluent']}x "
        f"(rounds {records}); columnar: {summary['columnar_over_confluent']}x "
        f"(rounds {columnar})"
    )


def _text(t: dict[str, float]) -> str:
    parts = [f"{t['wall']:.2f} s"]
    if "mock_cpu" in t:
        parts.append(f"mock CPU {t['mock_cpu']:.2f} s, client CPU {t['client_cpu']:.2f} s")
    return " (".join(parts) + (")" if len(parts) > 1 else "")
