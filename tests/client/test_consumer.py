"""kafkawire.Consumer (and kafkawire.aio.Consumer) with assigned partitions, against both test
beds (the ``cluster`` fixture: Tansu, then librdkafka's 3-broker mock): positions, seeks that
land inside a batch, resets, pause/resume, both polls, commits, read_committed over
librdkafka's transactions."""

from __future__ import annotations

import time
import uuid

import pytest

from kafkawire import Codec, CrcError, build_batches
from kafkawire.client import (
    Client,
    ConfigError,
    NoOffsetError,
    OffsetAndMetadata,
    TopicPartition,
)
from tests.support.faces import make_consumer

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="module")
def admin(cluster):
    with Client(cluster.bootstrap, request_timeout=20) as c:
        yield c


@pytest.fixture(scope="module")
def filled(cluster, admin):
    """A topic of 3 partitions, 250 records each in batches of 50 (lz4 and uncompressed),
    with keys, headers and timestamps 1000 ms apart."""
    topic = cluster.create_topic(f"kw-{uuid.uuid4().hex[:10]}", 3)
    for p in range(3):
        for b in range(5):
            rows = range(b * 50, b * 50 + 50)
            admin.produce_columns(
                (topic, p),
                [b"p%d-v%d" % (p, i) for i in rows],
                keys=[b"k%d" % i for i in rows],
                headers=[[("n", b"%d" % i)] if i % 2 else [] for i in rows],
                timestamps=[1_700_000_000_000 + 1000 * i for i in rows],
                compression=Codec.LZ4 if b % 2 else Codec.NONE,
            )
    return topic


def consume(consumer, count: int, *, timeout: float = 20.0, batch: bool = False) -> list:
    got = []
    end = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < end:
        if batch:
            got += consumer.poll_batch(0.5).records()
        else:
            got += consumer.poll(0.5)
    return got


def test_poll_gives_every_record_once_in_offset_order(cluster, filled, face):
    tps = [TopicPartition(filled, p) for p in range(3)]
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        c.assign(tps)
        got = consume(c, 750)
        assert c.poll(0.3) == []  # nothing more
    assert len(got) == 750
    for p in range(3):
        mine = [r for r in got if r.partition == p]
        assert [r.offset for r in mine] == list(range(250))
        r = mine[7]
        assert (r.topic, r.key, r.value) == (filled, b"k7", b"p%d-v7" % p)
        assert r.headers == [("n", b"7")] and mine[8].headers == []
        assert r.timestamp == 1_700_000_000_000 + 7000 and r.timestamp_type == 0


def test_seek_inside_a_compressed_batch_returns_nothing_below_it(cluster, filled, face):
    tp = TopicPartition(filled, 1)
    with make_consumer(face, cluster.bootstrap) as c:
        c.assign([tp])
        c.seek(tp, 73)  # the middle of the second batch (lz4, 50..99)
        first = c.poll(5.0, max_records=5)
        assert [r.offset for r in first] == [73, 74, 75, 76, 77]
        assert c.position(tp) == 78
        c.seek(tp, 10)
        batch = c.poll_batch(5.0, max_records=1000)
        offsets = [int(o) for part in batch.partitions for o in part.offsets]
        assert offsets[0] == 10 and offsets == sorted(offsets) and len(set(offsets)) == len(offsets)
        table = batch.to_arrow()
        assert table.column("offset").to_pylist() == offsets
        assert set(table.column("topic").to_pylist()) == {filled}
        assert table.column("value").to_pylist()[0] == b"p1-v10"


def test_seek_to_beginning_and_end(cluster, filled, face):
    tp = TopicPartition(filled, 2)
    with make_consumer(face, cluster.bootstrap) as c:
        c.assign([tp])
        c.seek_to_end()
        assert c.position(tp) == 250
        assert c.poll(0.5) == []
        c.seek_to_beginning([tp])
        assert c.position(tp) == 0


# Tansu only: the mock answers every ListOffsets by time with -1 (rdkafka_mock_handlers.c)
@pytest.mark.parametrize("cluster", ["tansu"], indirect=True)
def test_offsets_for_times(cluster, filled, face):
    tp = TopicPartition(filled, 2)
    with make_consumer(face, cluster.bootstrap) as c:
        c.assign([tp])
        found = c.offsets_for_times({tp: 1_700_000_000_000 + 120_500})
        assert found[tp].offset == 121
        assert c.offsets_for_times({tp: 1_800_000_000_000})[tp] is None


def test_auto_offset_reset(cluster, filled, face):
    tp = TopicPartition(filled, 0)
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "latest"}) as c:
        c.assign([tp])
        assert c.position(tp) == 250
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "none"}) as c:
        c.assign([tp])
        with pytest.raises(NoOffsetError, match=r"auto\.offset\.reset is none"):
            c.poll(1.0)


def test_a_position_past_the_end_follows_auto_offset_reset(cluster, filled, face):
    tp = TopicPartition(filled, 0)
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        c.assign([tp])
        c.seek(tp, 10_000)
        got = consume(c, 250)
        assert [r.offset for r in got] == list(range(250))


def test_pause_and_resume(cluster, filled, face):
    tps = [TopicPartition(filled, 0), TopicPartition(filled, 1)]
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        c.assign(tps)
        c.pause([tps[0]])
        assert c.paused() == [tps[0]]
        got = consume(c, 250, timeout=10)
        assert {r.partition for r in got} == {1} and len(got) == 250
        c.resume([tps[0]])
        got = consume(c, 250, timeout=10)
        assert {r.partition for r in got} == {0} and len(got) == 250


def test_commit_and_committed_without_group_membership(cluster, filled, face):
    tp = TopicPartition(filled, 0)
    group = f"g-{uuid.uuid4().hex[:8]}"
    config = {"group.id": group, "enable.auto.commit": False, "auto.offset.reset": "earliest"}
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.assign([tp])
        assert c.committed([tp]) == {tp: None}
        got = c.poll(5.0, max_records=30)
        c.commit()
        assert c.committed([tp])[tp].offset == got[-1].offset + 1
        c.commit({tp: 200})
        # the mock answers the partition's leader epoch, not the one committed (none)
        epoch = 0 if cluster.name == "mock" else None
        assert c.committed([tp])[tp] == OffsetAndMetadata(200, "", epoch)
    # a new consumer of the group starts from the commit
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.assign([tp])
        assert [r.offset for r in c.poll(5.0, max_records=3)] == [200, 201, 202]


def test_iteration(cluster, filled, face):
    tp = TopicPartition(filled, 2)
    with make_consumer(face, cluster.bootstrap) as c:
        c.assign([tp])
        c.seek(tp, 245)
        offsets = []
        for record in c:
            offsets.append(record.offset)
            if record.offset == 249:
                break
        assert offsets == [245, 246, 247, 248, 249]


# read_committed on Tansu only: the mock lists no aborted transactions and answers one batch
# a fetch, so no ABORT marker shares an answer with its records (librdkafka returns them too)
@pytest.mark.parametrize(
    ("cluster", "isolation"),
    [("tansu", "read_committed"), ("tansu", "read_uncommitted"), ("mock", "read_uncommitted")],
    indirect=["cluster"],
)
def test_read_committed_over_librdkafka_transactions(cluster, admin, face, isolation):
    topic = cluster.create_topic(f"kw-{uuid.uuid4().hex[:10]}")
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
    config = {"isolation.level": isolation, "auto.offset.reset": "earliest"}
    if cluster.name == "mock":
        # the mock writes its markers with CRC 0 ("mock doesn't validate CRC", rdkafka_mock.c):
        # librdkafka with check.crcs=true fails on them as well
        config["check.crcs"] = False
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.assign([TopicPartition(topic, 0)])
        expected = 3 if isolation == "read_committed" else 5
        got = consume(c, expected, timeout=10)
        assert c.poll(0.5) == []
        # the markers at offsets 2, 5 and 7 never reach the user; nor, read_committed, the
        # aborted records (Tansu 0.6 lists no aborted transactions in its Fetch answers:
        # kafkawire finds them from the ABORT markers, where librdkafka returns them)
        assert [r.value for r in got] == (
            [b"c0", b"c1", b"c2"]
            if isolation == "read_committed"
            else [b"c0", b"c1", b"a0", b"a1", b"c2"]
        )
        assert c.position(TopicPartition(topic, 0)) == 8


def test_bad_settings_are_named():
    from kafkawire import Consumer

    with pytest.raises(ConfigError, match=r"did you mean .auto\.offset\.reset."):
        Consumer("127.0.0.1:9", config={"auto.offset.rest": "earliest"})
    with pytest.raises(ConfigError, match=r"isolation\.level"):
        Consumer("127.0.0.1:9", config={"isolation.level": "committed"})
    with pytest.raises(ConfigError, match=r"group\.instance\.id needs a group\.id"):
        Consumer("127.0.0.1:9", config={"group.instance.id": "x"})


def test_a_corrupt_batch_is_a_clear_error_every_time(cluster, admin, face):
    """A batch whose CRC does not match (the broker stores what it is given) ends the poll
    with CrcError naming the partition, the offset and the field; nothing is skipped: the
    next poll fetches it again and says so again."""
    topic = cluster.create_topic(f"kw-{uuid.uuid4().hex[:10]}")
    tp = TopicPartition(topic, 0)
    bad = bytearray(b"".join(build_batches([b"a", b"b"])))
    bad[-1] ^= 0xFF
    admin.produce(tp, bytes(bad))
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        c.assign([tp])
        for _ in range(2):
            with pytest.raises(CrcError, match=rf"{topic}-0 at offset 0: CRC-32C mismatch") as e:
                consume(c, 1, timeout=5)
            assert e.value.field == "crc" and e.value.batch_offset == 0
        assert c.position(tp) == 0


def _watch_zero_waits(monkeypatch, fail_first: BaseException | None = None) -> list:
    """Record each Wait without a timeout that took an answer in (the answers it took);
    ``fail_first``: the first answer so taken becomes this failure instead."""
    from kafkawire.client.sync_transport import SyncTransport

    taken = []
    real = SyncTransport._wait_any

    def watched(self, tickets, timeout):
        done = real(self, tickets, timeout)
        if timeout == 0 and done:
            if fail_first is not None and not taken:
                done[next(iter(done))] = fail_first
            taken.append(dict(done))
        return done

    monkeypatch.setattr(SyncTransport, "_wait_any", watched)
    return taken


def test_a_poll_with_records_takes_in_answers_that_came_without_waiting(
    cluster, filled, monkeypatch
):
    """A poll that hands out buffered records first takes in the fetch answers that have
    arrived, waiting for none: the broker goes on writing while the caller works. Every
    record still comes once, in order."""
    taken = _watch_zero_waits(monkeypatch)
    tps = [TopicPartition(filled, p) for p in range(3)]
    config = {"auto.offset.reset": "earliest", "fetch.max.wait.ms": 10}
    with make_consumer("sync", cluster.bootstrap, config=config) as c:
        c.assign(tps)
        got = []
        end = time.monotonic() + 20
        while len(got) < 750 and time.monotonic() < end:
            got += c.poll(0.5, max_records=7)
            if len(got) == 7:  # the caller's work: the next fetch is answered meanwhile
                time.sleep(1.0)
    assert taken  # answers taken in by polls that returned records
    for p in range(3):
        assert [r.offset for r in got if r.partition == p] == list(range(250))


def test_a_failed_fetch_taken_in_before_records_go_back_is_raised_by_the_next_poll(
    cluster, filled, monkeypatch
):
    """A fetch failure met while a poll takes in answers before returning records leaves
    those records to the caller and is raised by the next poll; the reading goes on after
    it, nothing lost or repeated."""
    from kafkawire.protocol.error_codes import ErrorCode, error_class

    denied = error_class(ErrorCode.TOPIC_AUTHORIZATION_FAILED)("injected")
    taken = _watch_zero_waits(monkeypatch, fail_first=denied)
    tps = [TopicPartition(filled, p) for p in range(3)]
    config = {"auto.offset.reset": "earliest", "fetch.max.wait.ms": 10}
    with make_consumer("sync", cluster.bootstrap, config=config) as c:
        c.assign(tps)
        got, raised = [], []
        end = time.monotonic() + 20
        while len(got) < 750 and time.monotonic() < end:
            try:
                records = c.poll(0.5, max_records=7)
            except type(denied) as exc:
                raised.append((exc, len(taken)))
                continue
            if taken and not raised:
                assert records  # the poll that met the failure returned its records
            got += records
            if len(got) == 7:  # the caller's work: the next fetch is answered meanwhile
                time.sleep(1.0)
    assert [exc for exc, _ in raised] == [denied]
    for p in range(3):
        assert [r.offset for r in got if r.partition == p] == list(range(250))
