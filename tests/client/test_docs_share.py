"""docs/share-groups.md's Python blocks run as written against librdkafka's mock cluster (share
groups, KIP-932; Tansu has none): the broker address pointed at the mock, the topic and group
names made unique, and what a block calls but does not define (``handle``, ``process``) given
by the test, which ends a block's endless loop by raising once every record reached its
documented end. After each block, a member of the same group checks that nothing it accepted
or rejected is handed out again. Then what the page says of lock expiry, on a mock of its own
with a short lock. The other pages' blocks run in tests/test_docs_examples.py."""

from __future__ import annotations

import logging
import time
import uuid

import numpy as np
import pytest

import kafkawire
from kafkawire import AcquisitionLockExpiredError
from kafkawire.client import Client, TopicPartition
from tests.test_docs_examples import MARKERS, Stop, block, renamed, run

PAGE = "share-groups.md"


class Done(BaseException):
    """Ends a block whose loop catches Exception (the explicit block's handle)."""


def share_block(marker: str) -> str:
    assert marker in MARKERS[PAGE]
    return block(PAGE, marker)


def mock_cluster(**settings):
    pytest.importorskip("confluent_kafka")
    from tests.support.mock_cluster import share_cluster

    return share_cluster(**settings)


@pytest.fixture(scope="module")
def share_mock():
    cluster = mock_cluster()
    yield cluster
    cluster.close()


class Writer:
    """Produces through one Client kept open: librdkafka's mock closes every share session
    of a broker when a connection to it closes, so a Client opened and closed while a block
    runs would take its sessions (and the acknowledgements in flight) away."""

    def __init__(self, bootstrap: str) -> None:
        self.client = Client(bootstrap, request_timeout=10)

    def __call__(self, topic: str, values: dict[int, list[bytes]]) -> None:
        for partition, vs in values.items():
            self.client.produce_columns(TopicPartition(topic, partition), vs)

    def close(self) -> None:
        self.client.close()


@pytest.fixture
def writer(share_mock):
    w = Writer(share_mock.bootstrap)
    yield w
    w.close()


def produce(bootstrap: str, topic: str, values: dict[int, list[bytes]]) -> None:
    """Produces outside the blocks (no share session is open)."""
    with Client(bootstrap, request_timeout=10) as client:
        for partition, vs in values.items():
            client.produce_columns(TopicPartition(topic, partition), vs)


def make_topic(cluster, topic: str, values: dict[int, list[bytes]]) -> None:
    cluster.create_topic(topic, partitions=len(values))
    produce(cluster.bootstrap, topic, values)


def left_in_group(bootstrap: str, topic: str, group: str, partitions: int) -> list[bytes]:
    """One more record to each partition, then a member of ``group`` polls until it has them
    all: the values of the other records it got (those the group still hands out: it hands a
    partition's available records out in offset order, so they come before the new ones)."""
    produce(bootstrap, topic, {p: [b"sentinel"] for p in range(partitions)})
    waiting = set(range(partitions))
    others = []
    deadline = time.monotonic() + 60  # a failure's bound, not a verdict
    with kafkawire.ShareConsumer(bootstrap, config={"group.id": group}) as consumer:
        consumer.subscribe([topic])
        while waiting:
            assert time.monotonic() < deadline, f"no sentinel from partitions {waiting}"
            for record in consumer.poll(1.0):
                if record.value == b"sentinel":
                    waiting.discard(record.partition)
                else:
                    others.append(record.value)
    return others


def test_the_implicit_block_hands_each_record_to_the_loop_once(share_mock):
    code, names = renamed(share_block(MARKERS[PAGE][0]), "jobs", "workers")
    values = {p: [b"job-%d-%d" % (p, i) for i in range(25)] for p in range(2)}
    make_topic(share_mock, names["jobs"], values)
    expected = {v for vs in values.values() for v in vs}
    handled: list[tuple[bytes, int]] = []

    def handle(value, delivery_count):
        handled.append((value, delivery_count))
        if {v for v, _ in handled} == expected:
            raise Stop

    with pytest.raises(Stop):
        run(code, PAGE, share_mock, handle=handle)
    assert sorted(handled) == sorted((v, 1) for v in expected)  # once each, first delivery
    # the close accepted the last poll, the polls the ones before: nothing comes again
    assert left_in_group(share_mock.bootstrap, names["jobs"], names["workers"], 2) == []


def test_the_asyncio_block_iterates_the_records(share_mock):
    code, names = renamed(share_block(MARKERS[PAGE][1]), "jobs", "workers")
    assert code.count("        ...\n") == 1
    code = code.replace("        ...\n", "        handle(record)\n")
    values = {p: [b"async-%d-%d" % (p, i) for i in range(15)] for p in range(2)}
    make_topic(share_mock, names["jobs"], values)
    expected = {(p, i, v) for p, vs in values.items() for i, v in enumerate(vs)}
    handled = []

    def handle(record):
        assert record.topic == names["jobs"] and record.delivery_count == 1
        handled.append((record.partition, record.offset, record.value))
        if set(handled) == expected:
            raise Stop

    with pytest.raises(Stop):
        run(
            code,
            PAGE,
            share_mock,
            scope={"__name__": "docs", "kafkawire": kafkawire},
            handle=handle,
        )
    assert sorted(handled) == sorted(expected)
    assert left_in_group(share_mock.bootstrap, names["jobs"], names["workers"], 2) == []


def test_the_explicit_block_retries_then_rejects(share_mock, writer, caplog):
    """Records whose handling fails are released twice and rejected on their third
    delivery; the others are accepted once. ``handle`` sends one more record (b"stop") once
    every record came as often as it should, and ends the loop when that one comes."""
    code, names = renamed(share_block(MARKERS[PAGE][2]), "jobs", "workers")
    topic = names["jobs"]
    good = [b"good-%d" % i for i in range(12)]
    bad = [b"bad-%d" % i for i in range(3)]
    mixed = [v for pair in zip(good[:3], bad, strict=True) for v in pair] + good[3:]
    make_topic(share_mock, topic, {0: mixed})
    seen: dict[bytes, int] = {}

    def handle(value):
        if value == b"stop":
            raise Done
        seen[value] = seen.get(value, 0) + 1
        if all(seen.get(v) == 1 for v in good) and all(seen.get(v) == 3 for v in bad):
            writer(topic, {0: [b"stop"]})
        if value.startswith(b"bad"):
            raise ValueError(value)

    with caplog.at_level(logging.WARNING), pytest.raises(Done):
        scope = {"__name__": "docs"}
        run(code, PAGE, share_mock, scope=scope, handle=handle)
    assert seen == {**dict.fromkeys(good, 1), **dict.fromkeys(bad, 3)}
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    # accepted and rejected records never come again; b"stop", not acknowledged, does
    assert left_in_group(share_mock.bootstrap, topic, names["workers"], 1) == [b"stop"]
    # the block's callback sorts the outcomes as its comments say
    on_commit = scope["on_commit"]
    tp = TopicPartition(topic, 0)
    with caplog.at_level(logging.WARNING):
        caplog.clear()
        on_commit({tp: {1, 2}}, None)
        assert caplog.records == []
        on_commit({tp: {3}}, AcquisitionLockExpiredError("lock ran out"))
        on_commit({tp: {4}}, kafkawire.ShareAcknowledgeError("refused", 76))
    assert [r.levelname for r in caplog.records] == ["WARNING", "ERROR"]


def test_the_columnar_block_releases_by_mask_and_accepts_the_rest(share_mock, writer):
    """``process`` reports the rows with a value "retry-..." on their first delivery as not
    done: they come again (delivery count 2) and are done then; every row is done once."""
    code, names = renamed(share_block(MARKERS[PAGE][3]), "jobs", "workers")
    topic = names["jobs"]
    values = {
        p: [(b"retry-%d-%d" if i % 4 == 0 else b"ok-%d-%d") % (p, i) for i in range(20)]
        for p in range(2)
    }
    make_topic(share_mock, topic, values)
    expected = {(p, i, v) for p, vs in values.items() for i, v in enumerate(vs)}
    done_rows: list[tuple[int, int, bytes, int]] = []

    def process(table):
        assert table.column_names[-1] == "delivery_count"
        assert {"key", "value", "topic", "partition", "offset", "headers"} <= set(
            table.column_names
        )
        rows = table.to_pylist()
        if any(r["value"] == b"stop" for r in rows):
            raise Stop
        done = np.array(
            [not (r["value"].startswith(b"retry") and r["delivery_count"] == 1) for r in rows]
        )
        for r, ok in zip(rows, done, strict=True):
            if ok:
                done_rows.append((r["partition"], r["offset"], r["value"], r["delivery_count"]))
        if {row[:3] for row in done_rows} == expected:
            writer(topic, {0: [b"stop"]})
        return done

    with pytest.raises(Stop):
        run(code, PAGE, share_mock, process=process)
    assert len(done_rows) == len(expected)  # each row done once
    assert {row[:3] for row in done_rows} == expected
    assert all(dc == (2 if v.startswith(b"retry") else 1) for _, _, v, dc in done_rows)
    assert left_in_group(share_mock.bootstrap, topic, names["workers"], 2) == [b"stop"]


def test_an_acknowledgement_after_the_lock_ran_out_is_not_sent():
    """What the page says of lock expiry, with a 1.5 s lock: records acknowledged after it
    ran out are reported to the callback and by commit_sync as AcquisitionLockExpiredError,
    and the group hands them out again with delivery count 2."""
    cluster = mock_cluster(lock_ms=1500)
    try:
        topic = f"docs-share-lock-{uuid.uuid4().hex[:8]}"
        make_topic(cluster, topic, {0: [b"slow-%d" % i for i in range(5)]})
        told = []
        config = {"group.id": f"g-{uuid.uuid4().hex[:8]}", "share.acknowledgement.mode": "explicit"}
        with kafkawire.ShareConsumer(cluster.bootstrap, config=config) as consumer:
            consumer.set_acknowledgement_commit_callback(lambda o, e: told.append((o, e)))
            consumer.subscribe([topic])
            records = []
            deadline = time.monotonic() + 30
            while not records:
                assert time.monotonic() < deadline, "no records"
                records = consumer.poll(1.0)
            time.sleep(2.5)  # longer than the lock, counted from the ShareFetch
            for r in records:
                consumer.acknowledge(r)
            late = {r.offset for r in records}
            results = consumer.commit_sync()
            tp = TopicPartition(topic, 0)
            assert list(results) == [tp] and isinstance(results[tp], AcquisitionLockExpiredError)
            assert told == [({tp: late}, results[tp])]
            # not accepted: handed out again, one delivery more
            again = {}
            while not late <= set(again):
                assert time.monotonic() < deadline + 30, again
                batch = consumer.poll(1.0)
                again.update((r.offset, r.delivery_count) for r in batch)
                for r in batch:
                    consumer.acknowledge(r)
            assert {o: again[o] for o in late} == dict.fromkeys(late, 2)
            assert all(error is None for error in consumer.commit_sync().values())
    finally:
        cluster.close()
