"""kafkawire.Producer (and kafkawire.aio.Producer) against both test beds (the ``cluster``
fixture: Tansu, then librdkafka's 3-broker mock): futures and their metadata, keyed
partitioning that agrees with librdkafka's murmur2 (Java's), the columnar send, idempotent
batches, bad records, and transactions read by librdkafka and by kafkawire; on Tansu alone
(each test says why): read_committed, fencing, an exactly-once read-process-write loop."""

from __future__ import annotations

import itertools
import threading
import time
import types
import uuid

import pyarrow as pa
import pytest

from kafkawire import Codec, read_batches
from kafkawire.client import (
    READ_COMMITTED,
    BatchMetadata,
    Client,
    ClientError,
    ConfigError,
    RecordMetadata,
    RecordTooLargeError,
    TopicPartition,
    TransactionStateError,
    default_partition,
)
from kafkawire.errors import EncodeError
from kafkawire.protocol.error_codes import ProducerFencedError, UnknownTopicOrPartitionError
from tests.support.faces import make_consumer, make_producer

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="module")
def admin(cluster):
    with Client(cluster.bootstrap, request_timeout=20) as c:
        yield c


@pytest.fixture(scope="module")
def tansu_admin(broker):
    """The admin client of the tests that stay on Tansu (each says why)."""
    with Client(broker.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(cluster, partitions: int = 1) -> str:
    return cluster.create_topic(f"kw-{uuid.uuid4().hex[:10]}", partitions)


def tansu_topic(admin, partitions: int = 1) -> str:
    topic = f"kw-{uuid.uuid4().hex[:10]}"
    admin.create_topics({topic: partitions})
    return topic


def stored_batches(admin, topic: str, *, keep_control: bool = False, verify_crc: bool = True):
    """Every batch of partition 0, one fetch from each next offset (the mock answers a fetch
    with one batch, Tansu with several)."""
    tp = TopicPartition(topic, 0)
    end = admin.latest_offsets([tp])[tp]
    batches, offset = [], 0
    while offset < end:
        records = admin.fetch({tp: offset})[tp].records
        got = list(read_batches(records, keep_control=True, verify_crc=verify_crc))
        batches += got
        offset = got[-1].last_offset + 1
    return [b for b in batches if keep_control or not b.is_control]


def read_all(admin, topic: str, partitions: int, *, isolation=0) -> dict[int, list]:
    """Every record of every partition, as (offset, key, value, headers, timestamp)."""
    out = {}
    for p in range(partitions):
        rows = []
        for chunk in admin.read_range((topic, p), 0, isolation_level=isolation):
            view = chunk.view
            for i in range(chunk.start, chunk.stop):
                rows.append(
                    (
                        int(view.offsets[i]),
                        view.key(i),
                        view.value(i),
                        view.headers(i),
                        int(view.timestamps[i]),
                    )
                )
        out[p] = rows
    return out


# The mock answers every Produce with log_append_time 1234 (rdkafka_mock_handlers.c), as if its
# topics kept LogAppendTime: librdkafka's delivery reports give 1234 too (timestamp type 2).
MOCK_APPEND_TIME = 1234


def answered(cluster, timestamp: int) -> int:
    """The timestamp a produce future reports for a record sent with ``timestamp``."""
    return MOCK_APPEND_TIME if cluster.name == "mock" else timestamp


def bare(value):
    return None if value is None else bytes(value)


def test_send_gives_each_record_its_metadata_and_every_field_arrives(cluster, admin, face):
    topic = new_topic(cluster, 3)
    with make_producer(face, cluster.bootstrap) as producer:
        futures = [
            producer.send(
                topic,
                b"v%d" % i if i % 7 else None,  # tombstones too
                key=b"k%d" % i,
                headers=[("n", b"%d" % i), ("dup", None), ("dup", b"x")] if i % 3 else None,
                timestamp=1_700_000_000_000 + i,
            )
            for i in range(300)
        ]
        futures.append(producer.send(topic, "text", key="str-key", headers={"h": "s"}))
        assert producer.flush(20) == 0
        results = [f.result(10) for f in futures]
    by_partition: dict[int, list[RecordMetadata]] = {}
    for i, md in enumerate(results[:300]):
        assert md.topic == topic
        assert md.partition == default_partition(b"k%d" % i, 3)
        assert md.timestamp == answered(cluster, 1_700_000_000_000 + i)
        by_partition.setdefault(md.partition, []).append(md)
    stored = read_all(admin, topic, 3)
    for mds in by_partition.values():
        # the offsets in the futures are where the records are, in send order
        assert [md.offset for md in mds] == sorted(md.offset for md in mds)
    for i, md in enumerate(results[:300]):
        _, key, value, headers, ts = next(r for r in stored[md.partition] if r[0] == md.offset)
        assert bare(key) == b"k%d" % i
        assert bare(value) == (b"v%d" % i if i % 7 else None)
        expected = [("n", b"%d" % i), ("dup", None), ("dup", b"x")] if i % 3 else []
        assert [(k, bare(v)) for k, v in headers] == expected
        assert ts == 1_700_000_000_000 + i
    last = results[-1]
    assert last.partition == default_partition(b"str-key", 3)
    row = next(r for r in stored[last.partition] if r[0] == last.offset)
    assert (bare(row[1]), bare(row[2]), [(k, bare(v)) for k, v in row[3]]) == (
        b"str-key",
        b"text",
        [("h", b"s")],
    )


@pytest.mark.parametrize("partitions", [1, 3, 7, 16])
def test_keys_land_where_librdkafka_puts_them(cluster, admin, face, partitions):
    ours, theirs = new_topic(cluster, partitions), new_topic(cluster, partitions)
    keys = [b"user-%d" % i for i in range(1000)] + [b"", b"\x00\xff" * 9]
    rdk = confluent_kafka.Producer(
        {"bootstrap.servers": cluster.bootstrap, "partitioner": "murmur2_random", "linger.ms": 5}
    )
    landed = {}

    def report(err, msg):
        assert err is None
        landed[msg.key()] = msg.partition()

    for k in keys:
        rdk.produce(theirs, b"v", k, on_delivery=report)
    assert rdk.flush(30) == 0
    with make_producer(face, cluster.bootstrap) as producer:
        futures = {k: producer.send(ours, b"v", key=k) for k in keys}
        assert {k: f.result(20).partition for k, f in futures.items()} == landed


def test_keyless_records_stick_to_a_partition_per_batch(cluster, admin, face):
    topic = new_topic(cluster, 4)
    with make_producer(face, cluster.bootstrap, config={"batch.size": 2000}) as producer:
        futures = [producer.send(topic, b"x" * 100) for _ in range(400)]
        producer.flush(20)
        parts = [f.result().partition for f in futures]
    # sticky: long runs in one partition, and more than one partition used
    switches = sum(a != b for a, b in itertools.pairwise(parts))
    assert len(set(parts)) > 1
    assert switches < 60


def test_the_partitioners_draw_from_kafkawires_own_generator(cluster, monkeypatch, face):
    """Keyless records (sticky, random partitioner, send and send_batch) place themselves
    with the client's own generator: the ``random`` module's shared stream, which an
    application may have seeded, and numpy's are not drawn from (a draw is told by who made
    it: other libraries' threads in this process may draw meanwhile)."""
    import random
    import sys

    import numpy as np

    callers = []

    def spy(name, module):
        real = getattr(module, name)

        def draw(*args, **kwargs):
            callers.append(sys._getframe(1).f_globals.get("__name__", ""))
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, draw)

    for name in ("randrange", "randint", "random", "uniform", "choice"):
        spy(name, random)
    spy("randint", np.random)
    topic = new_topic(cluster, 4)
    values = pa.array([b"v%d" % i for i in range(50)], pa.binary())
    for partitioner in ("murmur2_random", "random"):
        config = {"partitioner": partitioner, "batch.size": 500}
        with make_producer(face, cluster.bootstrap, config=config) as producer:
            futures = [producer.send(topic, b"x" * 100) for _ in range(40)]
            futures.append(producer.send_batch(topic, values))
            for f in futures:
                f.result(20)
    assert not [c for c in callers if c.startswith("kafkawire")]


def test_send_batch_is_columnar_and_partitions_as_send(cluster, admin, face):
    topic = new_topic(cluster, 5)
    n = 5000
    keys = pa.array([b"k%d" % (i % 97) if i % 11 else None for i in range(n)], pa.binary())
    values = pa.array([b"value-%d" % i for i in range(n)], pa.binary())
    headers = pa.array(
        [[{"key": "i", "value": b"%d" % i}] for i in range(n)],
        pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())])),
    )
    with make_producer(face, cluster.bootstrap, config={"compression.type": "lz4"}) as producer:
        future = producer.send_batch(
            topic, values, keys=keys, headers=headers, timestamps=list(range(n))
        )
        md = future.result(30)
    assert isinstance(md, BatchMetadata)
    for i in range(n):
        if i % 11:
            assert md.partitions[i] == default_partition(b"k%d" % (i % 97), 5)
    # null keys: one partition for the call
    assert len({int(md.partitions[i]) for i in range(0, n, 11)}) == 1
    stored = read_all(admin, topic, 5)
    for i in range(0, n, 37):
        _, key, value, hdrs, ts = next(
            r for r in stored[int(md.partitions[i])] if r[0] == md.offsets[i]
        )
        assert bare(value) == b"value-%d" % i
        assert bare(key) == (b"k%d" % (i % 97) if i % 11 else None)
        assert [(k, bare(v)) for k, v in hdrs] == [("i", b"%d" % i)]
        assert ts == i
    assert sum(len(rows) for rows in stored.values()) == n


def test_send_arrow_takes_a_table(cluster, admin, face):
    topic = new_topic(cluster, 2)
    table = pa.table(
        {
            "key": pa.array(["a", "b", "c"]),
            "value": pa.array(["1", "2", "3"]),
            "partition": pa.array([1, 0, 1], pa.int32()),
            "timestamp": pa.array([5, 6, 7], pa.timestamp("ms")),
        }
    )
    with make_producer(face, cluster.bootstrap) as producer:
        md = producer.send_arrow(topic, table).result(20)
    assert md.partitions.tolist() == [1, 0, 1]
    stored = read_all(admin, topic, 2)
    assert [(bare(k), bare(v), ts) for _, k, v, _, ts in stored[1]] == [
        (b"a", b"1", 5),
        (b"c", b"3", 7),
    ]


def test_send_batch_bad_rows(cluster, admin, face):
    topic = new_topic(cluster, 2)
    config = {"message.max.bytes": 5000}
    with make_producer(face, cluster.bootstrap, config=config) as producer:
        with pytest.raises(RecordTooLargeError, match=r"row 1 .*message\.max\.bytes"):
            producer.send_batch(topic, [b"small", b"x" * 9000], partitions=[0, 0])
        with pytest.raises(UnknownTopicOrPartitionError, match="no partition 2, 9"):
            producer.send_batch(topic, [b"a", b"b", b"c"], partitions=[9, 0, 2])
        assert producer.partitions_for(topic) == [0, 1]
        with pytest.raises(ValueError, match="partition column has 1 nulls"):
            producer.send_arrow(
                topic, pa.table({"value": [b"a", b"b"], "partition": pa.array([0, None])})
            )
        before = int(time.time() * 1000)
        table = pa.table(
            {
                "value": [b"a", b"b"],
                "timestamp": pa.array([7, None], pa.int64()),
                "partition": pa.array([None, None], pa.int32()),
            }
        )
        md = producer.send_arrow(topic, table).result(20)
    stored = read_all(admin, topic, 2)
    rows = {bare(v): ts for p in stored for _, _, v, _, ts in stored[p]}
    assert rows[b"a"] == 7 and rows[b"b"] >= before  # a null timestamp is now
    assert b"small" not in rows
    assert set(md.partitions.tolist()) <= {0, 1}


def test_send_batch_bad_row_in_a_later_partition_queues_nothing(cluster, admin, face):
    """Arrow rows are encoded and queued partition by partition (the sender starts on the
    first while the rest are encoded); a row that would fail later, too large or with a null
    header key, is found before anything is queued."""
    topic = new_topic(cluster, 2)
    config = {"message.max.bytes": 5000, "batch.size": 5000, "linger.ms": 0}
    header_type = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
    with make_producer(face, cluster.bootstrap, config=config) as producer:
        with pytest.raises(RecordTooLargeError, match=r"row 2 .*message\.max\.bytes"):
            producer.send_batch(topic, pa.array([b"a", b"b", b"x" * 9000]), partitions=[0, 0, 1])
        headers = pa.array(
            [[{"key": "h", "value": b"1"}], [], [{"key": None, "value": b"2"}]], header_type
        )
        with pytest.raises(EncodeError, match="row 2: a header key is null"):
            producer.send_batch(
                topic, pa.array([b"a", b"b", b"c"]), headers=headers, partitions=[0, 0, 1]
            )
        md = producer.send_batch(topic, pa.array([b"c", b"d"]), partitions=[1, 0]).result(20)
    assert md.offsets.tolist() == [0, 0]
    stored = read_all(admin, topic, 2)
    assert [bare(v) for _, _, v, _, _ in stored[0]] == [b"d"]
    assert [bare(v) for _, _, v, _, _ in stored[1]] == [b"c"]


def test_send_batch_of_a_column_that_is_not_bytes_is_a_kafkawire_error():
    """Sizing the rows before encoding leaves a column of another type to build_batches,
    which names it (not an Arrow error from the sizing)."""
    from kafkawire.client.producer import columns
    from kafkawire.client.producer.config import ProducerConfig

    for values in (pa.array([1, 2]), pa.array([1.5, 2.0])):
        with pytest.raises(EncodeError, match="values: unsupported Arrow type"):
            columns.encode_rows(ProducerConfig(), "t", 2, values, None, None, None, [0, 1])


def _watch_batches(monkeypatch, columns, seen):
    """Make the producer's batch encoders append (the thread, the partition's rows) to
    ``seen`` as each batch is encoded."""
    real = columns.iter_batches

    def watched(*args, **kwargs):
        batches = real(*args, **kwargs)

        def each():
            while True:
                seen.append((threading.current_thread(), kwargs["rows"]))
                if (batch := next(batches, None)) is None:
                    return
                yield batch

        return each()

    monkeypatch.setattr(columns, "iter_batches", watched)


def test_send_batch_encodes_batch_by_batch_round_robin(monkeypatch):
    """With Arrow columns, encode_rows gives each batch as soon as it is encoded, a batch of
    each partition in turn (the first request carries every partition); with Python lists
    (whose rows cannot be sized cheaply) every batch is encoded first."""
    from kafkawire.client.producer import columns
    from kafkawire.client.producer.config import ProducerConfig

    seen = []
    _watch_batches(monkeypatch, columns, seen)
    config = ProducerConfig(batch_size=100)  # a few records a batch
    values = [b"value-%03d" % i for i in range(40)]
    partitions = [i % 2 for i in range(40)]
    _, batches = columns.encode_rows(config, "t", 2, pa.array(values), None, None, None, partitions)
    batches = iter(batches)
    first = next(batches)
    assert len(seen) == 1  # one batch encoded, and given
    assert first[0] == TopicPartition("t", 0) and first[2].tolist()[:2] == [0, 2]
    rest = list(batches)
    order = [tp.partition for tp, _, _ in [first, *rest]]
    assert len(order) >= 6 and order[: len(order) // 2 * 2] == [0, 1] * (len(order) // 2)
    for p in (0, 1):  # each partition's rows, in order, once
        rows = [r for tp, _, rs in [first, *rest] if tp.partition == p for r in rs.tolist()]
        assert rows == list(range(p, 40, 2))
    seen.clear()
    _, batches = columns.encode_rows(config, "t", 2, values, None, None, None, partitions)
    assert isinstance(batches, list) and len(batches) == len(order)
    assert len(seen) == len(order) + 2  # encoded before the call returned


def test_idempotent_by_default_batches_carry_producer_id_and_sequences(cluster, admin, face):
    topic = new_topic(cluster, 1)
    with make_producer(face, cluster.bootstrap, config={"batch.size": 1000}) as producer:
        futures = [producer.send(topic, b"x" * 50, partition=0) for _ in range(200)]
        producer.flush(20)
        assert [f.result().offset for f in futures] == list(range(200))
    batches = stored_batches(admin, topic)
    assert len(batches) > 5
    assert len({b.producer_id for b in batches}) == 1 and batches[0].producer_id >= 0
    expected = 0
    for b in batches:  # sequence numbers follow the records
        assert b.base_sequence == expected
        expected += b.record_count


@pytest.mark.parametrize("acks", ["0", "1", "all"])
def test_acks(cluster, admin, face, acks):
    topic = new_topic(cluster, 1)
    config = {"acks": acks, "enable.idempotence": acks == "all"}
    with make_producer(face, cluster.bootstrap, config=config) as producer:
        futures = [producer.send(topic, b"%d" % i) for i in range(50)]
        producer.flush(20)
        offsets = [f.result().offset for f in futures]
    assert offsets == ([-1] * 50 if acks == "0" else list(range(50)))
    assert admin.latest_offsets([TopicPartition(topic, 0)])[TopicPartition(topic, 0)] == 50


def test_bad_records_are_refused_alone(cluster, admin, face):
    topic = new_topic(cluster, 1)
    config = {"message.max.bytes": 10000, "linger.ms": 50}
    with make_producer(face, cluster.bootstrap, config=config) as producer:
        before = producer.send(topic, b"a", partition=0)
        with pytest.raises(RecordTooLargeError, match=r"message\.max\.bytes.*not sent"):
            producer.send(topic, b"x" * 20000, partition=0)
        with pytest.raises(EncodeError, match="value must be bytes-like"):
            producer.send(topic, 12345, partition=0)
        with pytest.raises(EncodeError, match="key must be bytes-like"):
            producer.send(topic, b"v", key=3.5)
        # the topic's partitions are not known yet: send does not wait for them, the future
        # fails; once they are known, send raises at once
        with pytest.raises(UnknownTopicOrPartitionError, match="no partition 4"):
            producer.send(topic, b"v", partition=4).result(20)
        producer.partitions_for(topic)
        with pytest.raises(UnknownTopicOrPartitionError, match="no partition 4"):
            producer.send(topic, b"v", partition=4)
        after = producer.send(topic, b"b", partition=0)
        producer.flush(20)
        assert (before.result().offset, after.result().offset) == (0, 1)
    assert [bare(v) for _, _, v, _, _ in read_all(admin, topic, 1)[0]] == [b"a", b"b"]


def test_unknown_topic_is_a_clear_error(cluster, face):
    config = {"topic.metadata.propagation.max.ms": 1500}
    with make_producer(face, cluster.bootstrap, config=config) as producer:
        started = time.monotonic()
        future = producer.send(f"missing-{uuid.uuid4().hex[:8]}", b"v")
        assert time.monotonic() - started < 1  # send never waits for the topic
        with pytest.raises(UnknownTopicOrPartitionError, match=r"not in the cluster after 1\.5 s"):
            future.result(10)
        assert time.monotonic() - started < 10


def test_callbacks_flush_close(cluster, admin, face):
    topic = new_topic(cluster, 2)
    seen = []
    done = threading.Event()
    producer = make_producer(face, cluster.bootstrap, config={"linger.ms": 200})
    futures = [producer.send(topic, b"%d" % i, key=b"%d" % i) for i in range(100)]
    for f in futures:
        f.add_done_callback(lambda fut: (seen.append(fut.result().offset), done.set()))
    producer.close()  # delivers what is queued first
    assert done.wait(10)
    deadline = time.monotonic() + 5
    while len(seen) < 100 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(seen) == 100
    assert all(f.done() for f in futures)
    if face == "sync":  # (the asyncio adapter's loop is gone with it: see the next test)
        with pytest.raises(ClientError, match="closed"):
            producer.send(topic, b"late")


def test_asyncio_producer_in_its_own_loop(cluster, admin):
    import asyncio

    from kafkawire.aio import Producer as AsyncProducer

    topic = new_topic(cluster, 2)

    async def main():
        async with AsyncProducer(cluster.bootstrap) as producer:
            futures = [await producer.send(topic, b"%d" % i, key=b"%d" % i) for i in range(50)]
            first = await futures[0]
            rest = await asyncio.gather(*futures[1:])
            sent = await producer.send_and_wait(topic, b"last", partition=1)
        with pytest.raises(ClientError, match="closed"):
            await producer.send(topic, b"late")
        return [first, *rest], sent

    results, sent = asyncio.run(main())
    assert [r.partition for r in results] == [default_partition(b"%d" % i, 2) for i in range(50)]
    assert sent.partition == 1 and sent.offset >= 0


def test_asyncio_send_batch_encodes_off_the_event_loop(cluster, admin, monkeypatch):
    """A large send_batch is encoded in a worker thread, a batch at a time: other tasks run
    between the batches' encodings, and every row arrives where the partitioner put it."""
    import asyncio

    from kafkawire.aio import Producer as AsyncProducer
    from kafkawire.client.producer import columns

    encodings = []  # (thread, the ticker's count) as each batch's encoding starts

    class Ticks(list):
        def append(self, entry):
            encodings.append((entry[0], ticks))

    _watch_batches(monkeypatch, columns, Ticks())
    ticks = 0

    topic = new_topic(cluster, 3)
    n = 30_000
    keys = pa.array([b"k%d" % (i % 97) for i in range(n)])
    values = pa.array([b"v%d" % i for i in range(n)])

    async def main():
        running = True

        async def ticker():
            nonlocal ticks
            while running:
                ticks += 1
                await asyncio.sleep(0)

        async with AsyncProducer(cluster.bootstrap) as producer:
            await producer.partitions_for(topic)
            task = asyncio.ensure_future(ticker())
            await asyncio.sleep(0)
            future = await producer.send_batch(topic, values, keys=keys)
            running = False
            await task
            return await future, threading.current_thread()

    md, loop_thread = asyncio.run(main())
    assert len(encodings) >= 3  # a batch a partition at least (and each one's end)
    assert all(thread is not loop_thread for thread, _ in encodings)
    assert encodings[0][1] < encodings[1][1] < encodings[2][1]  # the loop ran in between
    assert md.partitions.tolist() == [default_partition(b"k%d" % (i % 97), 3) for i in range(n)]
    stored = read_all(admin, topic, 3)
    assert sorted(bare(v) for p in stored for _, _, v, _, _ in stored[p]) == sorted(
        b"v%d" % i for i in range(n)
    )
    for p in stored:  # each partition's rows in the call's order
        rows = [int(bare(v)[1:]) for _, _, v, _, _ in stored[p]]
        assert rows == sorted(rows)


@pytest.mark.parametrize("codec", ["lz4", "none"])
def test_large_send_batch_compressed_by_two_threads(cluster, admin, monkeypatch, codec):
    """A large compressed send_batch encodes its batches in a pool of two threads (an
    uncompressed one in the caller's thread); each partition's rows still arrive in the
    call's order."""
    from kafkawire.client.producer import columns

    seen = []
    _watch_batches(monkeypatch, columns, seen)
    topic = new_topic(cluster, 4)
    n = 20_000
    keys = pa.array([b"k%d" % (i % 101) for i in range(n)])
    values = pa.array([b"v%d" % i for i in range(n)])
    with make_producer("sync", cluster.bootstrap, config={"compression.type": codec}) as producer:
        md = producer.send_batch(topic, values, keys=keys).result(20)
    threads = {thread.name for thread, _ in seen}
    if codec == "none":
        assert threads == {threading.current_thread().name}
    else:
        # the pool's threads (how many of them took a partition is up to the scheduler)
        assert threads and all(t.startswith("kafkawire-encode") for t in threads)
    assert md.partitions.tolist() == [default_partition(b"k%d" % (i % 101), 4) for i in range(n)]
    stored = read_all(admin, topic, 4)
    assert sum(len(rows) for rows in stored.values()) == n
    for p, rows in stored.items():
        got = [int(bare(v)[1:]) for _, _, v, _, _ in rows]
        assert got == [i for i in range(n) if md.partitions[i] == p]
        assert [offset for offset, *_ in rows] == md.offsets[md.partitions == p].tolist()


class _Holder:
    """The producer core's lock, telling which thread holds it (the sender takes it with
    ``with``, which is all the core asks of it)."""

    def __init__(self, lock):
        self.lock, self.owner = lock, None

    def __enter__(self):
        self.lock.__enter__()
        self.owner = threading.get_ident()
        return self

    def __exit__(self, *exc):
        self.owner = None
        return self.lock.__exit__(*exc)


def test_the_sender_compresses_batches_outside_the_lock_every_send_takes(
    cluster, admin, monkeypatch
):
    """The per-record path's batches are compressed by the sender with the producer's lock
    released, so the callers' sends do not wait for the compression (gzip: compressed through
    a Python call, which the test watches)."""
    import kafkawire.compression as compression

    compressing = []  # per compression: whether the compressing thread held the lock
    original = compression.compress

    def watched(codec, data, **kwargs):
        compressing.append(holder.owner == threading.get_ident())
        return original(codec, data, **kwargs)

    monkeypatch.setattr(compression, "compress", watched)
    topic = new_topic(cluster, 2)
    with make_producer("sync", cluster.bootstrap, config={"compression.type": "gzip"}) as p:
        holder = p._producer.lock = _Holder(p._producer.lock)
        futures = [p.send(topic, b"v%d" % i * 10, key=b"k%d" % i) for i in range(3000)]
        p.flush(20)
        offsets = [f.result().offset for f in futures]
    assert compressing and not any(compressing)
    stored = read_all(admin, topic, 2)
    assert sorted(bare(v) for rows in stored.values() for _, _, v, _, _ in rows) == sorted(
        b"v%d" % i * 10 for i in range(3000)
    )
    assert all(o >= 0 for o in offsets)


def test_settings_are_checked():
    from kafkawire import Producer

    with pytest.raises(ConfigError, match=r"acks.*not 0, 1 or all"):
        Producer("127.0.0.1:9", config={"acks": "2"})
    with pytest.raises(ConfigError, match=r"did you mean .linger\.ms."):
        Producer("127.0.0.1:9", config={"linger.mss": 5})
    with pytest.raises(ConfigError, match=r"enable\.idempotence conflicts with acks=1"):
        Producer("127.0.0.1:9", config={"acks": 1, "enable.idempotence": True})
    # not asked for: idempotence turns off quietly with acks=1, as in librdkafka
    Producer("127.0.0.1:9", config={"acks": 1}).close(0)


def test_compression_roundtrip(cluster, admin, face):
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        topic = new_topic(cluster, 1)
        with make_producer(face, cluster.bootstrap, config={"compression.type": codec}) as p:
            futures = [p.send(topic, b"v%d" % i * 20, key=b"k") for i in range(500)]
            p.flush(20)
            assert futures[-1].result().offset == 499
        batches = stored_batches(admin, topic)
        assert {b.compression for b in batches} == {Codec[codec.upper()]}
        values = [bare(v) for _, _, v, _, _ in read_all(admin, topic, 1)[0]]
        assert values == [b"v%d" % i * 20 for i in range(500)]


# ---- transactions --------------------------------------------------------------------------


def rdk_read(cluster, topic: str, isolation: str) -> list[bytes]:
    """Partition 0 as librdkafka's consumer returns it, read up to the end of the log."""
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": cluster.bootstrap,
            "group.id": f"g-{uuid.uuid4().hex[:8]}",
            "isolation.level": isolation,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    tp = confluent_kafka.TopicPartition(topic, 0, 0)
    consumer.assign([tp])
    _, end = consumer.get_watermark_offsets(tp, 10)
    got = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and consumer.position([tp])[0].offset < end:
        msg = consumer.poll(0.2)
        if msg is not None and msg.error() is None:
            got.append(msg.value())
    consumer.close()
    return got


def kw_transactions(cluster, topic, face):
    config = {"transactional.id": f"tx-{topic}"}
    with make_producer(face, cluster.bootstrap, config=config) as producer:
        producer.init_transactions()
        for values, commit in (([b"c0", b"c1"], True), ([b"a0", b"a1"], False), ([b"c2"], True)):
            producer.begin_transaction()
            futures = [producer.send(topic, v, partition=0) for v in values]
            if commit:
                producer.commit_transaction()
                assert all(f.result().offset >= 0 for f in futures)
            else:
                producer.flush(10)
                producer.abort_transaction()


def rdk_transactions(cluster, topic):
    producer = confluent_kafka.Producer(
        {"bootstrap.servers": cluster.bootstrap, "transactional.id": f"tx-{topic}"}
    )
    producer.init_transactions(20)
    for values, commit in (([b"c0", b"c1"], True), ([b"a0", b"a1"], False), ([b"c2"], True)):
        producer.begin_transaction()
        for v in values:
            producer.produce(topic, v, partition=0)
        producer.flush(20)
        (producer.commit_transaction if commit else producer.abort_transaction)(20)


def test_transactions_write_the_log_librdkafka_writes(cluster, admin, face):
    ours, theirs = new_topic(cluster), new_topic(cluster)
    kw_transactions(cluster, ours, face)
    rdk_transactions(cluster, theirs)
    # the same log: records, markers (offsets 2, 5, 7) and transactional batches
    assert admin.latest_offsets([(ours, 0)])[(ours, 0)] == 8
    for topic in (ours, theirs):
        # (the mock writes its markers with CRC 0: "mock doesn't validate CRC", rdkafka_mock.c)
        crc = cluster.name != "mock"
        batches = stored_batches(admin, topic, keep_control=True, verify_crc=crc)
        assert [(b.is_transactional, b.is_control) for b in batches] == [
            (True, False),
            (True, True),
            (True, False),
            (True, True),
            (True, False),
            (True, True),
        ]
    # librdkafka sees kafkawire's transactions exactly as its own (neither bed lists aborted
    # transactions in Fetch answers: librdkafka's read_committed keeps the aborted records)
    for isolation in ("read_committed", "read_uncommitted"):
        assert rdk_read(cluster, ours, isolation) == rdk_read(cluster, theirs, isolation)
    assert rdk_read(cluster, ours, "read_uncommitted") == [b"c0", b"c1", b"a0", b"a1", b"c2"]


def test_read_committed_leaves_out_the_aborted_transactions_of_either_producer(
    broker, tansu_admin, face
):
    """Tansu only: the mock answers one batch a fetch and lists no aborted transactions, so no
    ABORT marker shares an answer with the records it aborts (librdkafka returns them too)."""
    ours, theirs = tansu_topic(tansu_admin), tansu_topic(tansu_admin)
    kw_transactions(broker, ours, face)
    rdk_transactions(broker, theirs)
    for topic in (ours, theirs):
        committed = read_all(tansu_admin, topic, 1, isolation=READ_COMMITTED)[0]
        assert [bare(v) for _, _, v, _, _ in committed] == [b"c0", b"c1", b"c2"]
        everything = read_all(tansu_admin, topic, 1)[0]
        assert [bare(v) for _, _, v, _, _ in everything] == [b"c0", b"c1", b"a0", b"a1", b"c2"]


def test_transaction_misuse_is_a_clear_error(cluster, admin, face):
    topic = new_topic(cluster)
    with make_producer(face, cluster.bootstrap, config={"transactional.id": f"m-{topic}"}) as p:
        with pytest.raises(TransactionStateError, match="init_transactions"):
            p.send(topic, b"v")
        p.init_transactions()
        with pytest.raises(TransactionStateError, match="begin_transaction"):
            p.send(topic, b"v")
        with pytest.raises(TransactionStateError, match="no transaction"):
            p.commit_transaction()
        p.begin_transaction()
        with pytest.raises(TransactionStateError, match="under way"):
            p.begin_transaction()
        p.send(topic, b"v")
        p.commit_transaction()
    with (
        make_producer(face, cluster.bootstrap) as plain,
        pytest.raises(TransactionStateError, match=r"transactional\.id"),
    ):
        plain.begin_transaction()


def test_a_second_instance_fences_the_first(broker, tansu_admin, face):
    """Tansu only: the mock fences nobody (librdkafka's own zombie produces and commits there
    after its successor's init_transactions)."""
    topic = tansu_topic(tansu_admin)
    config = {"transactional.id": f"z-{topic}"}
    zombie = make_producer(face, broker.bootstrap, config=config)
    zombie.init_transactions()
    zombie.begin_transaction()
    zombie.send(topic, b"zombie", partition=0).result(10)
    with make_producer(face, broker.bootstrap, config=config) as successor:
        successor.init_transactions()  # aborts the zombie's open transaction
        successor.begin_transaction()
        successor.send(topic, b"successor", partition=0)
        # the zombie learns it at its next produce (Tansu 0.6 answers its EndTxn by closing
        # the connection rather than with PRODUCER_FENCED)
        late = zombie.send(topic, b"zombie-late", partition=0)
        with pytest.raises(ProducerFencedError, match=r"fenced.*z-"):
            late.result(10)
        successor.commit_transaction()
    with pytest.raises(ProducerFencedError):
        zombie.commit_transaction()
    with pytest.raises(ProducerFencedError):
        zombie.send(topic, b"more")
    zombie.close()
    committed = read_all(tansu_admin, topic, 1, isolation=READ_COMMITTED)[0]
    assert [bare(v) for _, _, v, _, _ in committed] == [b"successor"]


def test_exactly_once_read_process_write(broker, tansu_admin, face):
    """Tansu only: the mock's TxnOffsetCommit stores no offsets (librdkafka's
    send_offsets_to_transaction leaves none committed there), and its read_committed
    returns aborted records."""
    source, sink = tansu_topic(tansu_admin, 2), tansu_topic(tansu_admin, 2)
    with make_producer(face, broker.bootstrap) as feeder:
        for i in range(400):
            feeder.send(source, b"%d" % i, key=b"%d" % i)
    group = f"eos-{uuid.uuid4().hex[:8]}"
    consumer_config = {
        "group.id": group,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "isolation.level": "read_committed",
        "session.timeout.ms": 6000,
    }

    def run(limit: int, *, crash: bool) -> int:
        """Copy (value * 2) from source to sink in transactions of ~50; with ``crash``,
        abort the last one as a crashed instance would leave it."""
        done = 0
        config = {"transactional.id": f"eos-{sink}"}
        with make_consumer(face, broker.bootstrap, config=consumer_config) as consumer:
            consumer.subscribe([source])
            with make_producer(face, broker.bootstrap, config=config) as producer:
                producer.init_transactions()
                deadline = time.monotonic() + 30
                while done < limit and time.monotonic() < deadline:
                    records = consumer.poll(1.0, max_records=50)
                    if not records:
                        continue
                    producer.begin_transaction()
                    for r in records:
                        producer.send(sink, r.value * 2, key=r.key)
                    positions = {
                        TopicPartition(r.topic, r.partition): r.offset + 1 for r in records
                    }
                    producer.send_offsets_to_transaction(positions, consumer.group_metadata())
                    if crash and done + len(records) >= limit:
                        producer.abort_transaction()
                        return done
                    producer.commit_transaction()
                    done += len(records)
        return done

    first = run(200, crash=True)
    assert 0 < first < 400
    second = run(400 - first, crash=False)
    assert first + second == 400
    copied = read_all(tansu_admin, sink, 2, isolation=READ_COMMITTED)
    values = sorted(int(bare(v)) for rows in copied.values() for _, _, v, _, _ in rows)
    assert values == sorted(int(b"%d" % i * 2) for i in range(400))
    offsets = tansu_admin.list_group_offsets(group)
    assert sum(o.offset for o in offsets.values()) == 400


def test_a_sender_that_dies_fails_everything_instead_of_hanging(cluster, admin):
    """A bug in the sender (simulated) must not leave futures, flush or jobs waiting."""
    from kafkawire import Producer

    topic = new_topic(cluster, 1)
    producer = Producer(cluster.bootstrap, config={"linger.ms": 100000})
    queued = producer.send(topic, b"queued")  # waits for linger: still queued below
    core = producer._producer

    def broken(now):
        raise RuntimeError("simulated sender bug")

    core._drain = broken
    producer.flush(0)  # ends the linger: the sender wakes into the bug
    with pytest.raises(ClientError, match=r"sender stopped.*simulated sender bug"):
        queued.result(10)
    with pytest.raises(ClientError):
        producer.send(topic, b"after")
    assert producer.flush(5) == 0
    producer.close(5)


def test_a_closed_producer_refuses_transactions_at_once(cluster, admin):
    """Both faces: a transaction method of a closed producer raises, naming why, without
    waiting for its timeout (the asyncio face's started its sender again)."""
    import asyncio

    from kafkawire import Producer
    from kafkawire.aio import Producer as AsyncProducer

    topic = new_topic(cluster)
    config = {"transactional.id": f"closed-{topic}"}
    offsets, group = {TopicPartition(topic, 0): 1}, f"g-{topic}"
    producer = Producer(cluster.bootstrap, config=config)
    producer.close()
    for call in (
        lambda: producer.init_transactions(timeout=5),
        producer.begin_transaction,
        lambda: producer.send_offsets_to_transaction(offsets, group, timeout=5),
        lambda: producer.commit_transaction(timeout=5),
        lambda: producer.abort_transaction(timeout=5),
    ):
        with pytest.raises(ClientError, match="closed"):
            call()

    async def main():
        producer = AsyncProducer(cluster.bootstrap, config=config)
        await producer.close()
        with pytest.raises(ClientError, match="closed"):
            producer.begin_transaction()
        for call in (
            lambda: producer.init_transactions(timeout=5),
            lambda: producer.send_offsets_to_transaction(offsets, group, timeout=5),
            lambda: producer.commit_transaction(timeout=5),
            lambda: producer.abort_transaction(timeout=5),
        ):
            with pytest.raises(ClientError, match="closed"):
                await asyncio.wait_for(call(), 10)

    asyncio.run(main())


def test_every_kind_of_key_lands_in_the_same_partition(cluster, admin, face):
    """The compiled per-record path (bytes and str keys, no headers) and the whole path
    (other bytes-likes, headers) hash a key alike; a timestamp past int64 is refused, naming
    it, on either."""
    topic = new_topic(cluster, 7)
    kinds = [bytes, bytearray, memoryview, lambda k: k.decode()]
    with make_producer(face, cluster.bootstrap) as producer:
        futures = [
            (key, producer.send(topic, b"v", key=kind(key), headers=headers))
            for key in (b"user-%d" % i for i in range(50))
            for kind in kinds
            for headers in (None, [("h", b"x")])
        ]
        for key, future in futures:
            assert future.result(10).partition == default_partition(key, 7), key
        for headers in (None, [("h", b"x")]):
            with pytest.raises((EncodeError, TypeError), match="timestamp"):
                producer.send(topic, b"v", key=b"k", headers=headers, timestamp=2**63)


def test_send_is_the_compiled_paths_builtin_method(cluster):
    """``send`` is a builtin method of the compiled path on both producers: the interpreter
    passes its keywords straight, where a callable object's ``__call__`` gets a new dict of
    them each record. Its keywords arrive: the key places the record."""
    import asyncio

    from kafkawire import Producer
    from kafkawire.aio import Producer as AsyncProducer

    topic = new_topic(cluster, 7)
    keys = [b"user-%d" % i for i in range(20)]
    with Producer(cluster.bootstrap) as producer:
        assert isinstance(producer.send, types.BuiltinMethodType)
        assert type(producer.send.__self__).__name__ == "FastSend"
        futures = [producer.send(topic, b"v", key=key) for key in keys]
        assert [f.result(10).partition for f in futures] == [
            default_partition(key, 7) for key in keys
        ]

    async def main():
        async with AsyncProducer(cluster.bootstrap) as producer:
            assert isinstance(producer.send, types.BuiltinMethodType)
            assert type(producer.send.__self__).__name__ == "AsyncFastSend"
            futures = [await producer.send(topic, b"v", key=key) for key in keys]
            return [(await f).partition for f in futures]

    assert asyncio.run(main()) == [default_partition(key, 7) for key in keys]


def test_asyncio_sends_are_awaitables_asyncio_takes_every_way(cluster, admin):
    """The compiled path hands back a finished awaitable rather than a coroutine: awaited,
    gathered or made a task, it gives the record's future; a loop that awaits nothing but
    its sends, to a topic not known yet, gets every record delivered in order."""
    import asyncio

    from kafkawire.aio import Producer as AsyncProducer

    topic = new_topic(cluster, 2)

    async def main():
        async with AsyncProducer(cluster.bootstrap) as producer:
            futures = [await producer.send(topic, b"%d" % i, key=b"k") for i in range(3000)]
            probe = producer.send(topic, b"probe", key=b"k")
            assert asyncio.iscoroutine(probe)  # whichever path took it
            await probe
            tasked = await asyncio.create_task(producer.send(topic, b"task", key=b"k"))
            gathered = await asyncio.gather(*(producer.send(topic, b"g", key=b"k") for _ in "ab"))
            results = [await f for f in [*futures, tasked, *gathered]]
            again = await futures[0]  # a delivered future awaited twice
        return results, again

    results, again = asyncio.run(main())
    assert again == results[0]
    assert len({r.partition for r in results}) == 1  # one key: one partition, in send order
    offsets = [r.offset for r in results]
    assert offsets[:3000] == sorted(offsets[:3000])
    stored = read_all(admin, topic, 2)[results[0].partition]
    values = {offset: bare(value) for offset, _, value, _, _ in stored}
    assert [values[r.offset] for r in results[:3000]] == [b"%d" % i for i in range(3000)]
    assert values[results[3000].offset] == b"task"


def test_a_records_metadata_is_a_plain_record_metadata_and_leaks_nothing(cluster, admin, face):
    """The compiled futures build RecordMetadata themselves: it is the NamedTuple, equal to
    one made the usual way, and reading it 20,000 times holds on to none of its fields."""
    import sys

    topic = new_topic(cluster)
    with make_producer(face, cluster.bootstrap) as producer:
        future = producer.send(topic, b"v", key=b"k", timestamp=1_700_000_000_000)
        md = future.result(10)
        assert type(md) is RecordMetadata
        assert md == RecordMetadata(topic, 0, md.offset, answered(cluster, 1_700_000_000_000))
        assert md._asdict()["topic"] == topic and hash(md) == hash(tuple(md))
        held = sys.getrefcount(md.topic)  # the one field every record's metadata shares
        for _ in range(20_000):
            future.result(10)
        assert sys.getrefcount(md.topic) - held < 100  # (the sender may hold it for a while)
