"""kafkawire.client against both test beds (Tansu, librdkafka's 3-broker mock) and real clients
(librdkafka through confluent-kafka, kafka-python): records produced by one side are read
back by the other."""

from __future__ import annotations

import random
import time
import uuid

import numpy as np
import pyarrow as pa
import pytest

from kafkawire import build_batches, decode_records
from kafkawire.client import (
    EARLIEST,
    LATEST,
    READ_COMMITTED,
    READ_UNCOMMITTED,
    TopicPartition,
    default_partition,
    key_partitions,
    murmur2,
)
from kafkawire.protocol.error_codes import OffsetOutOfRangeError, UnknownTopicOrPartitionError
from tests.support.faces import FACES, make_client

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


@pytest.fixture(scope="module", params=FACES)
def client(cluster, request):
    """The suite runs through the blocking face and the asyncio one, on both test beds."""
    with make_client(request.param, cluster.bootstrap, request_timeout=20) as c:
        yield c


@pytest.fixture(scope="module", params=FACES)
def tansu_client(broker, request):
    """The client of the tests that stay on Tansu (each says why), through both faces."""
    with make_client(request.param, broker.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(cluster, partitions: int = 1) -> str:
    return cluster.create_topic(f"kw-{uuid.uuid4().hex[:10]}", partitions)


def tansu_topic(client, partitions: int = 1) -> str:
    topic = f"kw-{uuid.uuid4().hex[:10]}"
    client.create_topics({topic: partitions})
    return topic


def sample_rows(n: int, seed: int = 0):
    """Rows with null keys and values, repeated and null header values, varied sizes."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        key = None if i % 5 == 0 else b"key-%d" % rng.randrange(50)
        value = None if i % 11 == 7 else bytes(rng.randrange(256) for _ in range(i % 40))
        headers = [(f"h{i % 3}", b"v%d" % i), ("dup", None), ("dup", b"x")] if i % 2 else []
        rows.append((key, value, headers, 1_700_000_000_000 + i))
    return rows


def rows_of(chunks) -> list:
    out = []
    for chunk in chunks:
        view = chunk.view
        for i in range(chunk.start, chunk.stop):
            key, value = view.key(i), view.value(i)
            out.append(
                (
                    None if key is None else bytes(key),
                    None if value is None else bytes(value),
                    view.headers(i),
                    int(view.timestamps[i]),
                )
            )
    return out


def test_murmur2_matches_java_and_kafka_python():
    # Java's Utils.murmur2 test vectors (signed results)
    assert murmur2(b"21") == -973932308
    assert murmur2(b"foobar") == -790332482
    assert murmur2(b"a-little-bit-long-string") == -985981536
    assert murmur2(b"") == 275646681
    from kafka.partitioner.default import murmur2 as kp_murmur2

    rng = random.Random(1)
    for _ in range(300):
        key = rng.randbytes(rng.randrange(20))
        assert murmur2(key) & 0xFFFFFFFF == kp_murmur2(key)
        assert default_partition(key, 7) == (kp_murmur2(key) & 0x7FFFFFFF) % 7
    keys = [rng.randbytes(rng.randrange(30)) if i % 7 else None for i in range(500)]
    expected = [-1 if k is None else (kp_murmur2(k) & 0x7FFFFFFF) % 12 for k in keys]
    for column in (keys, pa.array(keys), pa.array(keys, pa.large_binary())):
        assert key_partitions(column, 12).tolist() == expected
    chunked = pa.chunked_array([pa.array(keys[:100]), pa.array(keys[100:])])
    assert key_partitions(chunked, 12).tolist() == expected
    with pytest.raises(ValueError):
        key_partitions(keys, 0)


# The mock places each partition's leader at random: the 12 partitions of a topic all led by
# one of its 3 brokers is a 1 in 177147 chance. (Placing them with the mock's set_leader
# instead now and then takes it a second.)
SPREAD = 12


def test_metadata_names_every_partition_and_its_leader(cluster, client):
    topic = new_topic(cluster, SPREAD)
    meta = client.metadata([topic])
    info = meta.topics[topic]
    assert sorted(info.partitions) == list(range(SPREAD))
    assert len(meta.brokers) == (1 if cluster.name == "tansu" else 3)
    leaders = {p.leader for p in info.partitions.values()}
    assert leaders <= set(meta.brokers)
    assert (len(leaders) > 1) == (cluster.name == "mock")
    assert client.partitions_for(topic) == list(range(SPREAD))
    assert topic in client.metadata().topics


def test_create_and_delete_topics(tansu_client):
    """Tansu only: the mock has no CreateTopics or DeleteTopics."""
    client = tansu_client
    topic = tansu_topic(client, 3)
    assert client.partitions_for(topic) == [0, 1, 2]
    assert client.create_topics([topic]) == {}  # exist_ok: it was there, nothing created
    other = f"{topic}-b"
    created = client.create_topics({topic: 3, other: 2})  # what this call made, with metadata
    assert list(created) == [other] and sorted(created[other].partitions) == [0, 1]
    assert created[other].topic_id is not None
    client.delete_topics([topic, other])
    with pytest.raises(UnknownTopicOrPartitionError):
        client.partitions_for(topic)


def test_unknown_topic_is_reported(cluster, client):
    with pytest.raises(UnknownTopicOrPartitionError):
        client.partitions_for("no-such-topic-" + uuid.uuid4().hex)
    with pytest.raises(UnknownTopicOrPartitionError):
        list(client.read_range(TopicPartition("no-such-" + uuid.uuid4().hex, 0), 0, 1))


@pytest.mark.parametrize("codec", CODECS)
def test_kafkawire_produces_librdkafka_consumes(cluster, client, codec):
    topic = new_topic(cluster)
    tp = TopicPartition(topic, 0)
    rows = sample_rows(400, seed=len(codec))
    keys, values, headers, timestamps = map(list, zip(*rows, strict=True))
    result = client.produce_columns(
        tp,
        values,
        keys=keys,
        headers=headers,
        timestamps=timestamps,
        compression=None if codec == "none" else codec,
        max_batch_bytes=4096,  # several batches
    )
    assert result.base_offset == 0
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": cluster.bootstrap,
            "group.id": f"g-{topic}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
        got = []
        deadline = time.monotonic() + 30
        while len(got) < len(rows) and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            got.append(
                (
                    msg.key(),
                    msg.value(),
                    [(k, v) for k, v in msg.headers() or []],
                    msg.timestamp()[1],
                )
            )
    finally:
        consumer.close()
    assert got == rows
    # and kafkawire reads back the same rows
    assert rows_of(client.read_range(tp, 0)) == rows


@pytest.mark.parametrize("codec", CODECS)
def test_librdkafka_produces_kafkawire_reads(cluster, client, codec):
    topic = new_topic(cluster)
    rows = sample_rows(500, seed=7)
    producer = confluent_kafka.Producer(
        {
            "bootstrap.servers": cluster.bootstrap,
            "compression.type": codec,
            "linger.ms": 20,
            "batch.size": 6000,
        }
    )
    for key, value, headers, ts in rows:
        producer.produce(topic, value=value, key=key, headers=headers, timestamp=ts, partition=0)
    assert producer.flush(30) == 0
    tp = TopicPartition(topic, 0)
    assert client.latest_offsets([tp])[tp] == len(rows)
    chunks = list(client.read_range(tp, 0, partition_max_bytes=8192))
    assert rows_of(chunks) == rows
    offsets = np.concatenate([c.offsets for c in chunks])
    assert offsets.tolist() == list(range(len(rows)))
    # a range in the middle
    middle = rows_of(client.read_range(tp, 123, 321))
    assert middle == rows[123:321]
    table = pa.concat_tables(c.to_arrow() for c in client.read_range(tp, 10, 20))
    assert table.column("offset").to_pylist() == list(range(10, 20))
    assert table.column("value").to_pylist() == [r[1] for r in rows[10:20]]


def test_kafka_python_both_directions(broker, tansu_client):
    """Tansu only: kafka-python cannot bootstrap from the mock (it fails to decode the mock's
    answer to ApiVersions v4, UNSUPPORTED_VERSION with the v0 body)."""
    from kafka import KafkaConsumer, KafkaProducer
    from kafka import TopicPartition as KpTopicPartition

    topic = tansu_topic(tansu_client)
    tp = TopicPartition(topic, 0)
    # kafka-python takes neither null header values nor a record without key and value
    rows = [
        (k if k is not None or v is not None else b"k", v, [h for h in hs if h[1] is not None], ts)
        for k, v, hs, ts in sample_rows(200, seed=3)
    ]
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, compression_type="gzip")
    for key, value, headers, ts in rows:
        producer.send(topic, value=value, key=key, headers=headers, timestamp_ms=ts, partition=0)
    producer.flush(30)
    producer.close()
    assert rows_of(tansu_client.read_range(tp, 0)) == rows

    more = sample_rows(150, seed=4)
    keys, values, headers, timestamps = map(list, zip(*more, strict=True))
    tansu_client.produce_columns(
        tp, values, keys=keys, headers=headers, timestamps=timestamps, compression="lz4"
    )
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False)
    try:
        consumer.assign([KpTopicPartition(topic, 0)])
        consumer.seek(KpTopicPartition(topic, 0), len(rows))
        got = []
        deadline = time.monotonic() + 30
        while len(got) < len(more) and time.monotonic() < deadline:
            for records in consumer.poll(1000).values():
                got.extend(
                    (r.key, r.value, [(k, v) for k, v in r.headers], r.timestamp) for r in records
                )
    finally:
        consumer.close()
    assert got == more


BASE = 1_800_000_000_000


def timestamped(client, topic: str) -> TopicPartition:
    """Partition 0 of ``topic`` given 20 records in 4 batches, timestamps 1 s apart from BASE."""
    tp = TopicPartition(topic, 0)
    for i in range(4):  # one batch per call: 5 records each
        client.produce_columns(
            tp, [b"v"] * 5, timestamps=[BASE + 1000 * (5 * i + j) for j in range(5)]
        )
    return tp


def test_one_call_spans_the_partitions_of_every_leader(cluster, client):
    """produce (raw batches), fetch and list_offsets over 12 partitions: on the mock their
    leaders are several brokers, each call split by leader and its answers put together."""
    topic = new_topic(cluster, SPREAD)
    tps = [TopicPartition(topic, p) for p in range(SPREAD)]
    leaders = {p.leader for p in client.metadata([topic]).topics[topic].partitions.values()}
    assert (len(leaders) > 1) == (cluster.name == "mock")
    for p, tp in enumerate(tps):
        values = [b"p%d-%d" % (p, i) for i in range(p + 1)]
        for batch in build_batches(values, keys=[b"k"] * len(values)):
            assert client.produce(tp, batch).base_offset == 0
    assert client.latest_offsets(tps) == {tp: p + 1 for p, tp in enumerate(tps)}
    assert client.earliest_offsets(tps) == dict.fromkeys(tps, 0)
    fetched = client.fetch(dict.fromkeys(tps, 0))
    assert sorted(fetched) == tps
    for p, tp in enumerate(tps):
        answer = fetched[tp]
        assert (answer.error_code, answer.high_watermark) == (0, p + 1)
        view = decode_records(answer.records)
        assert [bytes(view.value(i)) for i in range(len(view))] == [
            b"p%d-%d" % (p, i) for i in range(p + 1)
        ]
        assert [bytes(view.key(i)) for i in range(len(view))] == [b"k"] * (p + 1)


def test_list_offsets_earliest_latest(cluster, client):
    tp = TopicPartition(new_topic(cluster), 0)
    empty = client.list_offsets({tp: EARLIEST})[tp].offset
    assert empty == 0 and client.latest_offsets([tp])[tp] == 0
    tp = timestamped(client, new_topic(cluster))
    assert client.earliest_offsets([tp])[tp] == 0
    assert client.latest_offsets([tp])[tp] == 20
    assert client.list_offsets({tp: LATEST})[tp].offset == 20


def test_list_offsets_by_timestamp(tansu_client):
    """Tansu only: the mock answers every ListOffsets by time with -1 (rdkafka_mock_handlers.c)."""
    client = tansu_client
    tp = timestamped(client, tansu_topic(client))
    assert client.list_offsets({tp: BASE - 1})[tp].offset == 0
    found = client.list_offsets({tp: BASE + 10_000})[tp]
    assert found == (10, BASE + 10_000)
    assert client.list_offsets({tp: BASE + 12_500})[tp] == (13, BASE + 13_000)
    assert client.list_offsets({tp: BASE + 99_000})[tp].offset == -1  # after every record


def test_offset_out_of_range(cluster, client):
    topic = new_topic(cluster)
    tp = TopicPartition(topic, 0)
    client.produce_columns(tp, [b"a", b"b"])
    with pytest.raises(OffsetOutOfRangeError):
        list(client.read_range(tp, 50, 60))
    assert rows_of(client.read_range(tp, 2)) == []  # at the end: nothing, no error


def test_acks_and_idempotent_producer(cluster, client):
    topic = new_topic(cluster)
    tp = TopicPartition(topic, 0)
    assert client.produce_columns(tp, [b"a"], acks=1).base_offset == 0
    assert client.produce_columns(tp, [b"b"], acks=0).base_offset == -1
    producer = client.idempotent_producer()
    assert producer.producer_id >= 0 and producer.producer_epoch >= 0
    client.produce_columns(tp, [b"c%d" % i for i in range(10)], producer=producer)
    client.produce_columns(tp, [b"d%d" % i for i in range(5)], producer=producer)
    assert producer.sequences[tp] == 15
    deadline = time.monotonic() + 10
    while client.latest_offsets([tp])[tp] < 17 and time.monotonic() < deadline:
        time.sleep(0.05)  # the acks=0 record lands asynchronously
    chunks = list(client.read_range(tp, 0))
    values = [bytes(v) for c in chunks for v in c.view.values.to_pylist()[c.start : c.stop]]
    assert values == [b"a", b"b"] + [b"c%d" % i for i in range(10)] + [b"d%d" % i for i in range(5)]
    # every chunk's batches: the mock answers a fetch with one batch
    pids = np.concatenate([c.view.batches["producer_id"] for c in chunks])
    sequences = np.concatenate([c.view.batches["base_sequence"] for c in chunks])
    assert set(pids[sequences >= 0]) == {producer.producer_id}
    assert sorted(sequences[sequences >= 0]) == [0, 10]


def test_acks_0_as_the_first_call_is_sent(cluster, client, request):
    """A fire-and-forget produce finishes when handed over, even before the handshake has
    ended: it must still go out, before close() returns."""
    topic = new_topic(cluster)
    tp = TopicPartition(topic, 0)
    face = request.node.callspec.params["client"]
    with make_client(face, cluster.bootstrap) as fresh:
        assert fresh.produce_columns(tp, [b"fire", b"forget"], acks=0).base_offset == -1
    deadline = time.monotonic() + 10
    while client.latest_offsets([tp])[tp] < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # the broker appends it after it answered nobody
    assert [bytes(v) for v in pa_values(client, tp)] == [b"fire", b"forget"]


def pa_values(client, tp):
    return [v.as_py() for c in client.read_range(tp, 0) for v in c.to_arrow()["value"]]


def test_large_records(cluster, client):
    topic = new_topic(cluster)
    tp = TopicPartition(topic, 0)
    big = [np.random.default_rng(5).bytes(3 * 1024 * 1024), b"small", b"z" * 2_000_000]
    for value in big:
        client.produce_columns(tp, [value], max_batch_bytes=8 * 1024 * 1024)
    # the first batch is larger than the partition limit asked for: the read asks again
    got = rows_of(client.read_range(tp, 0, partition_max_bytes=64 * 1024))
    assert [v for _, v, _, _ in got] == big


def rdk_transactions(bootstrap: str, topic: str) -> None:
    """librdkafka writes 3 records and commits, 1 and aborts, 1 and commits: records at
    offsets 0, 1, 2, 4, 6, markers at 3, 5, 7."""
    producer = confluent_kafka.Producer(
        {"bootstrap.servers": bootstrap, "transactional.id": f"tx-{topic}"}
    )
    producer.init_transactions(20)
    producer.begin_transaction()
    for i in range(3):
        producer.produce(topic, b"committed-%d" % i, partition=0)
    producer.commit_transaction(20)
    producer.begin_transaction()
    producer.produce(topic, b"aborted", partition=0)
    producer.flush(20)
    producer.abort_transaction(20)
    producer.begin_transaction()
    producer.produce(topic, b"last", partition=0)
    producer.commit_transaction(20)


def test_transaction_markers_are_skipped(cluster, client):
    topic = new_topic(cluster)
    tp = TopicPartition(topic, 0)
    rdk_transactions(cluster.bootstrap, topic)
    # (the mock writes its markers with CRC 0: "mock doesn't validate CRC", rdkafka_mock.c)
    crc = cluster.name != "mock"
    chunks = list(client.read_range(tp, 0, isolation_level=READ_UNCOMMITTED, verify_crc=crc))
    values = [bytes(v) for c in chunks for v in c.view.values.to_pylist()[c.start : c.stop]]
    # the three transaction markers (offsets 3, 5, 7) are control records: never returned
    assert values == [b"committed-0", b"committed-1", b"committed-2", b"aborted", b"last"]
    assert np.concatenate([c.offsets for c in chunks]).tolist() == [0, 1, 2, 4, 6]
    assert client.latest_offsets([tp])[tp] == 8


def test_read_committed_leaves_out_aborted_records(broker, tansu_client):
    """Tansu only: the mock lists no aborted transactions and answers one batch a fetch, so no
    ABORT marker shares an answer with the records it aborts (librdkafka returns them too)."""
    client = tansu_client
    topic = tansu_topic(client)
    tp = TopicPartition(topic, 0)
    rdk_transactions(broker.bootstrap, topic)
    # READ_COMMITTED leaves the aborted record out (Tansu lists no aborted transactions:
    # its ABORT marker names it)
    chunks = list(client.read_range(tp, 0, isolation_level=READ_COMMITTED))
    values = [bytes(v) for c in chunks for v in c.view.values.to_pylist()[c.start : c.stop]]
    assert values == [b"committed-0", b"committed-1", b"committed-2", b"last"]
    raw = client.fetch({tp: 0})[tp].records
    view = decode_records(raw, keep_control=True)  # the markers, when asked for
    markers = [view.control_record(i) for i in range(len(view)) if view.control_record(i)]
    assert [mk.is_commit for mk in markers] == [True, False, True]
