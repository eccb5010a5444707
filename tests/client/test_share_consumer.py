"""kafkawire.ShareConsumer and kafkawire.aio.ShareConsumer (share groups, KIP-932) against
librdkafka's mock cluster (3 brokers), beside librdkafka's own ShareConsumer: a mixed group
reads every record once; explicit RELEASE brings records back, REJECT never; a member that
stops polling gives its records up to another; locks that run out; the columnar poll and
its acknowledgement by mask against the per-record one; faults (leaders moving, a broker
down, injected ShareFetch errors, the coordinator moving). Verdicts are read with librdkafka
where a reader that is not kafkawire is needed: after the members close, a fresh librdkafka
ShareConsumer of the group finds nothing left."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
import uuid

import numpy as np
import pytest

import kafkawire
import kafkawire.aio
from kafkawire import AcknowledgeType, TopicPartition
from kafkawire.client import Client, ClientError, ConfigError
from kafkawire.protocol import ApiKey
from kafkawire.protocol.error_codes import BrokerError, ErrorCode

ACCEPT, RELEASE, REJECT = AcknowledgeType.ACCEPT, AcknowledgeType.RELEASE, AcknowledgeType.REJECT
confluent_kafka = pytest.importorskip("confluent_kafka")


def new_cluster(*, lock_ms: int | None = None):
    from tests.support.mock_cluster import share_cluster

    return share_cluster(lock_ms=lock_ms, session_ms=10000, heartbeat_ms=500)


@pytest.fixture(scope="module")
def mock():
    cluster = new_cluster()
    yield cluster
    cluster.close()


def new_topic(cluster, partitions: int) -> str:
    topic = f"share-{uuid.uuid4().hex[:8]}"
    cluster.create_topic(topic, partitions=partitions, spread=True)
    return topic


def produce(cluster, topic: str, partitions: int, per_partition: int, start: int = 0) -> set:
    """``per_partition`` records into each partition; the (partition, value) pairs."""
    made = set()
    with Client(cluster.bootstrap, request_timeout=10) as client:
        for p in range(partitions):
            values = [b"%d-%d" % (p, start + i) for i in range(per_partition)]
            client.produce_columns(TopicPartition(topic, p), values)
            made |= {(p, v) for v in values}
    return made


def group_name() -> str:
    return f"g-{uuid.uuid4().hex[:8]}"


class AsyncFace:
    """kafkawire.aio.ShareConsumer called from this thread: its event loop runs on another,
    and each coroutine method is awaited there. The tests run each case through both faces
    with the same code."""

    def __init__(self, bootstrap: str, **settings) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

        async def make():
            return kafkawire.aio.ShareConsumer(bootstrap, **settings)

        self._consumer = self._wait(make())

    def _wait(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(120)

    def __getattr__(self, name: str):
        attr = getattr(self._consumer, name)
        if inspect.iscoroutinefunction(attr):
            return lambda *args, **kwargs: self._wait(attr(*args, **kwargs))
        return attr

    def close(self, timeout: float | None = None) -> None:
        try:
            self._wait(self._consumer.close(timeout))
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()

    def __enter__(self) -> AsyncFace:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


@pytest.fixture(params=["sync", "asyncio"])
def face(request):
    """How a test makes its share consumers: kafkawire.ShareConsumer, or
    kafkawire.aio.ShareConsumer through AsyncFace."""
    return kafkawire.ShareConsumer if request.param == "sync" else AsyncFace


def leftover(cluster, group: str, topic: str, seconds: float = 4.0) -> list:
    """What a fresh librdkafka ShareConsumer of ``group`` is handed within ``seconds``
    (accepting it): records nobody settled."""
    consumer = confluent_kafka.ShareConsumer(
        {"bootstrap.servers": cluster.bootstrap, "group.id": group}
    )
    got = []
    try:
        consumer.subscribe([topic])
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            got += [(m.partition(), m.offset()) for m in _messages(consumer.poll(0.5))]
    finally:
        consumer.close()
    return got


def _messages(result) -> list:
    if result is None:
        return []
    if isinstance(result, confluent_kafka.Message):
        result = [result]
    out = []
    for message in result:
        assert message.error() is None, message.error()
        out.append(message)
    return out


def wait_assigned(consumer, seconds: float = 15.0) -> list:
    """Poll until the member has partitions; what those polls gave (partition, value,
    delivery count)."""
    got = []
    end = time.monotonic() + seconds
    while not consumer.assignment() and time.monotonic() < end:
        got += [(r.partition, r.value, r.delivery_count) for r in consumer.poll(0.2)]
    assert consumer.assignment(), "no partition assigned"
    return got


# ---- a mixed group -------------------------------------------------------------------------


def test_two_kafkawire_members_and_librdkafka_share_a_group_each_record_accepted_once(mock):
    """The done-when case. One connection closing to a broker closes every share session the
    mock has on that broker (rdkafka_mock_sharegrp.c, node_connection_closed), releasing what
    they held: the producer stays connected until every member has committed, and the
    members commit before any of them closes."""
    topic = new_topic(mock, partitions=6)
    group = group_name()
    total = 6 * 600
    names = ("sync", "asyncio", "librdkafka")
    got: dict[str, list] = {name: [] for name in names}
    joined = {name: threading.Event() for name in names}
    stop = threading.Event()
    committed = threading.Barrier(3, timeout=60)
    errors: list = []
    acks: list = []  # (member, offsets, error): every kafkawire acknowledgement's outcome

    def sync_member() -> None:
        with kafkawire.ShareConsumer(mock.bootstrap, config={"group.id": group}) as consumer:
            consumer.set_acknowledgement_commit_callback(lambda o, e: acks.append(("sync", o, e)))
            consumer.subscribe([topic])
            while not stop.is_set():
                records = consumer.poll(0.2)
                if consumer.assignment():
                    joined["sync"].set()
                got["sync"] += [(r.partition, r.value, r.delivery_count) for r in records]
            consumer.commit_sync()
            committed.wait()

    def asyncio_member() -> None:
        async def main() -> None:
            async with kafkawire.aio.ShareConsumer(mock.bootstrap, group_id=group) as consumer:
                consumer.set_acknowledgement_commit_callback(
                    lambda o, e: acks.append(("asyncio", o, e))
                )
                consumer.subscribe([topic])
                while not stop.is_set():
                    records = await consumer.poll(0.2)
                    if consumer.assignment():
                        joined["asyncio"].set()
                    got["asyncio"] += [(r.partition, r.value, r.delivery_count) for r in records]
                await consumer.commit_sync()
                await asyncio.to_thread(committed.wait)

        asyncio.run(main())

    def librdkafka_member() -> None:
        consumer = confluent_kafka.ShareConsumer(
            {"bootstrap.servers": mock.bootstrap, "group.id": group}
        )
        try:
            consumer.subscribe([topic])
            while not stop.is_set():
                messages = _messages(consumer.poll(0.2))
                joined["librdkafka"].set()  # its assignment is not visible: joined by now
                got["librdkafka"] += [(m.partition(), m.value(), 1) for m in messages]
            consumer.commit_sync()
            committed.wait()
        finally:
            consumer.close()

    def guarded(fn):
        def run() -> None:
            try:
                fn()
            except BaseException as exc:  # reported by the test, not lost in the thread
                errors.append(exc)
                committed.abort()

        return run

    producer = Client(mock.bootstrap, request_timeout=10)
    threads = [
        threading.Thread(target=guarded(fn), daemon=True)
        for fn in (sync_member, asyncio_member, librdkafka_member)
    ]
    try:
        producer.metadata()  # connected to every broker before the members open sessions
        for thread in threads:
            thread.start()
        for name in names:
            assert joined[name].wait(30), f"the {name} member did not join"
        time.sleep(1.0)  # librdkafka's first heartbeats
        made = set()
        for p in range(6):  # after every member joined
            values = [b"%d-%d" % (p, i) for i in range(600)]
            producer.produce_columns(TopicPartition(topic, p), values)
            made |= {(p, v) for v in values}
        end = time.monotonic() + 60
        while sum(len(v) for v in got.values()) < total and time.monotonic() < end:
            assert not errors, errors
            time.sleep(0.1)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
        producer.close()
    assert not errors, errors
    seen = [(p, v) for records in got.values() for p, v, _ in records]
    assert len(seen) == total and set(seen) == made  # every record, each once in all
    assert got["sync"] and got["asyncio"]  # each kafkawire member had a share
    assert all(count == 1 for records in got.values() for *_, count in records)
    assert [a for a in acks if a[2] is not None] == []
    told = [(tp.partition, o) for _, offsets, _ in acks for tp, os in offsets.items() for o in os]
    assert len(told) == len(set(told)) == len(got["sync"]) + len(got["asyncio"])
    assert leftover(mock, group, topic) == []  # all accepted: none handed out again


# ---- explicit acknowledgement ---------------------------------------------------------------


def consume_explicit(consumer, want: int, decide, seconds: float = 30.0) -> list:
    """Poll, settle each record as ``decide(record)`` says, until ``want`` records were
    accepted; every (partition, offset, delivery count, type) settled."""
    settled = []
    end = time.monotonic() + seconds
    while sum(1 for *_, kind in settled if kind == ACCEPT) < want and time.monotonic() < end:
        for record in consumer.poll(0.3):
            kind = decide(record)
            consumer.acknowledge(record, kind)
            settled.append((record.partition, record.offset, record.delivery_count, kind))
    return settled


def test_explicit_release_brings_records_back_and_reject_never(mock, face):
    topic = new_topic(mock, partitions=2)
    produce(mock, topic, 2, 100)
    group = group_name()
    reported = []
    config = {"group.id": group, "share.acknowledgement.mode": "explicit"}
    with face(mock.bootstrap, config=config) as consumer:
        consumer.set_acknowledgement_commit_callback(lambda o, e: reported.append((o, e)))
        consumer.subscribe([topic])

        def decide(record):
            if record.offset % 10 == 0:
                return RELEASE if record.delivery_count == 1 else ACCEPT
            if record.offset % 10 == 5:
                return REJECT
            return ACCEPT

        settled = consume_explicit(consumer, 2 * 90, decide)
        # the rejected ones stay away: a few more polls bring nothing
        later = [r for _ in range(4) for r in consumer.poll(0.3)]
        assert consumer.commit_sync() == {}  # nothing pending: the polls carried it all
    assert later == []
    accepted = [(p, o) for p, o, _, kind in settled if kind == ACCEPT]
    assert len(accepted) == len(set(accepted)) == 180
    released = {(p, o) for p, o, count, kind in settled if kind == RELEASE}
    assert released == {(p, o) for p in range(2) for o in range(0, 100, 10)}
    assert {(p, o, c) for p, o, c, kind in settled if (p, o) in released and kind == ACCEPT} == {
        (p, o, 2) for p, o in released
    }  # back once, second delivery, then accepted
    rejected = [(p, o) for p, o, _, kind in settled if kind == REJECT]
    assert sorted(rejected) == [(p, o) for p in range(2) for o in range(5, 100, 10)]
    assert all(error is None for _, error in reported)
    told = {(tp.partition, o) for offsets, _ in reported for tp, os in offsets.items() for o in os}
    assert told == {(p, o) for p, o, *_ in settled}  # the callback heard of every one
    assert leftover(mock, group, topic) == []


def test_explicit_mode_refuses_to_poll_past_unacknowledged_records(mock, face):
    topic = new_topic(mock, partitions=1)
    produce(mock, topic, 1, 5)
    config = {"group.id": group_name(), "share.acknowledgement.mode": "explicit"}
    with face(mock.bootstrap, config=config) as consumer:
        consumer.subscribe([topic])
        records = []
        end = time.monotonic() + 20
        while not records and time.monotonic() < end:
            records = consumer.poll(0.3)
        assert [r.offset for r in records] == [0, 1, 2, 3, 4]
        consumer.acknowledge(records[0])
        with pytest.raises(ClientError, match=r"4 record\(s\) of the last poll.* offset 1"):
            consumer.poll(0.1)
        with pytest.raises(ValueError, match="acknowledged already"):
            consumer.acknowledge(records[0], REJECT)
        with pytest.raises(ValueError, match="no record there was acquired"):
            consumer.acknowledge_offset(topic, 0, 99)
        for record in records[1:]:
            consumer.acknowledge_offset(record.topic, record.partition, record.offset, ACCEPT)
        assert consumer.poll(0.3) == []  # allowed again
        assert consumer.commit_sync() == {}


def test_commit_sync_answers_by_partition_and_the_callback_hears_each_commit(mock, face):
    topic = new_topic(mock, partitions=3)
    produce(mock, topic, 3, 20)
    calls = []
    config = {"group.id": group_name(), "share.acknowledgement.mode": "explicit"}
    with face(mock.bootstrap, config=config) as consumer:
        consumer.set_acknowledgement_commit_callback(lambda o, e: calls.append((o, e)))
        consumer.subscribe([topic])
        records = []
        end = time.monotonic() + 20
        while len(records) < 60 and time.monotonic() < end:
            batch = consumer.poll(0.3)
            for record in batch:
                consumer.acknowledge(record)
            records += batch
            result = consumer.commit_sync(timeout=10)
            assert set(result) == {TopicPartition(topic, p) for p in {r.partition for r in batch}}
            assert all(error is None for error in result.values())
    offsets = {(tp.partition, o) for o_by_tp, _ in calls for tp, os in o_by_tp.items() for o in os}
    assert offsets == {(p, o) for p in range(3) for o in range(20)}
    assert all(error is None for _, error in calls)


# ---- a member that stops polling, locks that run out ----------------------------------------


def test_a_member_that_stops_polling_leaves_and_another_gets_its_records(face):
    cluster = new_cluster()
    try:
        topic = new_topic(cluster, partitions=2)
        want = produce(cluster, topic, 2, 50)
        group = group_name()
        explicit = {"group.id": group, "share.acknowledgement.mode": "explicit"}
        idle = face(cluster.bootstrap, config={**explicit, "max.poll.interval.ms": 2000})
        idle.subscribe([topic])
        taken = []
        end = time.monotonic() + 20
        while not taken and time.monotonic() < end:
            taken = idle.poll(0.3, max_records=100)
        assert taken and {r.delivery_count for r in taken} == {1}
        # it stops polling, holding what it took unacknowledged; another member comes
        with kafkawire.ShareConsumer(cluster.bootstrap, config={"group.id": group}) as other:
            other.subscribe([topic])
            got = consume_all(other, want, seconds=30)
        again = {(p, v) for p, v, count in got if count == 2}
        # what it took is handed out a second time (and what it had acquired without
        # handing it out yet, a fetch ahead of its polls)
        assert again >= {(r.partition, r.value) for r in taken}
        assert_once_or_redelivered(got, want)
        idle.close()
        assert leftover(cluster, group, topic) == []
    finally:
        cluster.close()


def test_an_acknowledgement_after_the_lock_ran_out_is_not_sent_and_the_record_comes_back(face):
    cluster = new_cluster(lock_ms=1500)
    try:
        topic = new_topic(cluster, partitions=1)
        produce(cluster, topic, 1, 4)
        reported = []
        config = {"group.id": group_name(), "share.acknowledgement.mode": "explicit"}
        with face(cluster.bootstrap, config=config) as consumer:
            consumer.set_acknowledgement_commit_callback(lambda o, e: reported.append((o, e)))
            consumer.subscribe([topic])
            first = []
            end = time.monotonic() + 20
            while not first and time.monotonic() < end:
                first = consumer.poll(0.3)
            assert [(r.offset, r.delivery_count) for r in first] == [(o, 1) for o in range(4)]
            consumer.acknowledge(first[0])  # in time, sent with the commit
            assert consumer.commit_sync() == {TopicPartition(topic, 0): None}
            time.sleep(2.0)  # past the 1.5 s lock
            for record in first[1:]:
                consumer.acknowledge(record, ACCEPT)  # too late: kept back
            result = consumer.commit_sync()
            (error,) = result.values()
            assert isinstance(error, kafkawire.AcquisitionLockExpiredError)
            assert "acquisition locks ran out" in str(
                error
            ) and f"{topic}-0 offsets 1, 2, 3" in str(error)
            assert [(o, e) for o, e in reported if e is not None] == [
                ({TopicPartition(topic, 0): {1, 2, 3}}, error)
            ]
            back = []
            end = time.monotonic() + 20
            while len(back) < 3 and time.monotonic() < end:
                back += consumer.poll(0.3)
                for record in back:
                    if record.delivery_count == 2:
                        consumer.acknowledge(record)
            assert [(r.offset, r.delivery_count) for r in back] == [(o, 2) for o in (1, 2, 3)]
    finally:
        cluster.close()


# ---- columnar ------------------------------------------------------------------------------


def test_the_columnar_poll_gives_what_the_per_record_poll_gives(mock, face):
    topic = new_topic(mock, partitions=3)
    produce(mock, topic, 3, 200)

    def per_record() -> list:
        out = []
        with face(mock.bootstrap, group_id=group_name()) as consumer:
            consumer.subscribe([topic])
            end = time.monotonic() + 30
            while len(out) < 600 and time.monotonic() < end:
                out += [
                    (r.topic, r.partition, r.offset, r.timestamp, r.key, r.value, r.delivery_count)
                    for r in consumer.poll(0.3)
                ]
        return out

    def columnar() -> list:
        out = []
        with face(mock.bootstrap, group_id=group_name()) as consumer:
            consumer.subscribe([topic])
            end = time.monotonic() + 30
            while len(out) < 600 and time.monotonic() < end:
                batch = consumer.poll_batch(0.3)
                table = batch.to_arrow()
                assert table.num_rows == len(batch)
                assert table.column_names[-1] == "delivery_count"
                rows = table.to_pylist()
                stamps = [
                    int(p.view.timestamps[i]) for p in batch.partitions for i in range(len(p))
                ]
                assert np.array_equal(batch.delivery_counts, [r["delivery_count"] for r in rows])
                out += [
                    (
                        r["topic"],
                        r["partition"],
                        r["offset"],
                        ts,
                        r["key"],
                        r["value"],
                        r["delivery_count"],
                    )
                    for r, ts in zip(rows, stamps, strict=True)
                ]
                assert [tuple(x[:3]) for x in out[-len(rows) :]] == [
                    (r.topic, r.partition, r.offset) for r in batch.records()
                ]
        return out

    a, b = per_record(), columnar()
    assert len(a) == len(b) == 600
    assert sorted(a) == sorted(b)


def test_a_batch_is_acknowledged_by_mask_then_the_rest(mock, face):
    topic = new_topic(mock, partitions=1)
    produce(mock, topic, 1, 40)
    group = group_name()
    config = {"group.id": group, "share.acknowledgement.mode": "explicit"}
    with face(mock.bootstrap, config=config) as consumer:
        consumer.subscribe([topic])
        batch = None
        end = time.monotonic() + 20
        while not batch and time.monotonic() < end:
            batch = consumer.poll_batch(0.3)
        assert len(batch) == 40
        offsets = batch.to_arrow().column("offset").to_numpy()
        odd = offsets % 2 == 1
        assert batch.acknowledge(RELEASE, odd) == 20
        with pytest.raises(ValueError, match="acknowledged already"):
            batch.acknowledge(ACCEPT, np.flatnonzero(odd)[:1])
        with pytest.raises(ValueError, match="a mask of"):
            batch.acknowledge(ACCEPT, odd[:5])
        assert batch.acknowledge(ACCEPT) == 20  # the rest
        assert consumer.commit_sync() == {TopicPartition(topic, 0): None}
        back = None
        end = time.monotonic() + 20
        while not back and time.monotonic() < end:
            back = consumer.poll_batch(0.3)
        assert sorted(back.to_arrow().column("offset").to_pylist()) == list(range(1, 40, 2))
        assert set(back.delivery_counts.tolist()) == {2}
        back.acknowledge(REJECT)
    assert leftover(mock, group, topic) == []


# ---- faults --------------------------------------------------------------------------------


def consume_all(consumer, want: set, seconds: float = 60.0, step=None, got=None) -> list:
    """Poll (implicit mode) until every (partition, value) of ``want`` came; what came
    (after ``got``), with delivery counts, in order. ``step(n)`` is called after each poll
    with the count so far."""
    got = list(got or [])
    end = time.monotonic() + seconds
    while {(p, v) for p, v, _ in got} < want and time.monotonic() < end:
        got += [(r.partition, r.value, r.delivery_count) for r in consumer.poll(0.2)]
        if step is not None:
            step(len(got))
    # then until nothing comes for 2 s: records whose acceptance failed (a fault hit the
    # request carrying it) come back, with a higher delivery count
    quiet = time.monotonic() + 2.0
    while time.monotonic() < min(quiet, end):
        records = consumer.poll(0.2)
        got += [(r.partition, r.value, r.delivery_count) for r in records]
        if records:
            quiet = time.monotonic() + 2.0
    return got


def assert_once_or_redelivered(got: list, want: set, refused: set = frozenset()) -> None:
    """Every record came; one that came twice came back from the broker (a higher delivery
    count), never twice from one acquisition, unless its acceptance was refused (the
    callback was told; ``refused``) and the broker handed it out again as still acquired
    by this member (librdkafka's mock, after a leader move)."""
    assert {(p, v) for p, v, _ in got} == want
    counts: dict = {}
    for p, v, count in got:
        if (p, v) not in refused:
            assert count > counts.get((p, v), 0), f"{p}/{v} handed out twice at delivery {count}"
        counts[(p, v)] = count


def refusals(consumer) -> set:
    """Set the acknowledgement-commit callback; the (partition, value) of every record whose
    acknowledgement failed, as it is told (values are b"<partition>-<offset>" here)."""
    refused: set = set()

    def told(offsets, error) -> None:
        if error is not None:
            refused.update(
                (tp.partition, b"%d-%d" % (tp.partition, o))
                for tp, os in offsets.items()
                for o in os
            )

    consumer.set_acknowledgement_commit_callback(told)
    return refused


def test_leaders_moving_mid_consumption(mock, face):
    topic = new_topic(mock, partitions=3)
    want = produce(mock, topic, 3, 300)
    group = group_name()
    moved = []

    def move(n: int) -> None:  # after every 100 records taken, until 4 moves
        if n >= 100 * (len(moved) + 1) and len(moved) < 4:
            for p in range(3):
                mock.set_leader(topic, p, (p + len(moved) + 1) % 3 + 1)
            moved.append(n)

    config = {"group.id": group, "max.poll.records": 30}  # many polls, small ShareFetches
    with face(mock.bootstrap, config=config) as consumer:
        refused = refusals(consumer)
        consumer.subscribe([topic])
        got = consume_all(consumer, want, step=move)
    assert len(moved) == 4 and moved[-1] < len(want)  # all four while records remained
    assert_once_or_redelivered(got, want, refused)
    assert leftover(mock, group, topic) == []


def test_injected_share_fetch_errors_are_ridden_out(mock, face):
    topic = new_topic(mock, partitions=2)
    want = produce(mock, topic, 2, 100)
    group = group_name()
    with face(mock.bootstrap, group_id=group) as consumer:
        refused = refusals(consumer)
        consumer.subscribe([topic])
        first = wait_assigned(consumer)
        mock.push_errors(
            ApiKey.SHARE_FETCH,
            [
                ErrorCode.NOT_LEADER_OR_FOLLOWER,
                ErrorCode.SHARE_SESSION_NOT_FOUND,
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                ErrorCode.INVALID_SHARE_SESSION_EPOCH,
            ],
        )
        got = consume_all(consumer, want, got=first)
    assert_once_or_redelivered(got, want, refused)
    assert leftover(mock, group, topic) == []


def test_a_fatal_share_fetch_error_names_the_partition_and_broker(mock, face):
    topic = new_topic(mock, partitions=1)
    produce(mock, topic, 1, 3)
    with face(mock.bootstrap, group_id=group_name()) as consumer:
        consumer.subscribe([topic])
        first = wait_assigned(consumer)
        mock.push_errors(ApiKey.SHARE_FETCH, [ErrorCode.TOPIC_AUTHORIZATION_FAILED])
        with pytest.raises(BrokerError) as caught:
            end = time.monotonic() + 10
            while time.monotonic() < end:
                consumer.poll(0.3)
        assert "ShareFetch" in str(caught.value) and "127.0.0.1:" in str(caught.value)
        want = {(0, b"0-%d" % i) for i in range(3)}
        got = consume_all(consumer, want, seconds=20, got=first)
        assert_once_or_redelivered(got, want)  # consumption goes on after the error


def test_a_close_whose_sessions_end_refused_still_leaves_the_group(mock, face):
    """close_sessions raises a refusal from an answer that was in flight once the sessions
    are closed (tests/client/test_share_flows.py); the face still stops the heartbeats and
    takes the member out of the group, then raises it."""
    from kafkawire.protocol.error_codes import error_class

    topic = new_topic(mock, partitions=1)
    refused = error_class(ErrorCode.GROUP_AUTHORIZATION_FAILED)("a ShareFetch in flight")
    consumer = face(mock.bootstrap, group_id=group_name())
    share = consumer._share
    closing, leaving = share.close_sessions, share.leave
    left = []

    def close_sessions():
        yield from closing()
        raise refused

    def leave():
        yield from leaving()
        left.append(share.member.epoch)

    share.close_sessions, share.leave = close_sessions, leave
    consumer.subscribe([topic])
    wait_assigned(consumer)
    with pytest.raises(type(refused)):
        consumer.close()
    assert left == [-1]  # the leave ran to its end: the member is out


def test_a_broker_down_and_back_and_the_coordinator_moving(face):
    cluster = new_cluster()
    try:
        topic = new_topic(cluster, partitions=3)
        want = produce(cluster, topic, 3, 200)
        group = group_name()
        events = []

        def step(n: int) -> None:
            if n >= 100 and not events:
                cluster.broker_down(2)
                events.append("down")
            elif n >= 250 and events == ["down"]:
                cluster.broker_up(2)
                cluster.set_coordinator("group", group, 3)
                events.append("up, coordinator moved")

        # small polls, so the steps come between them (one poll of 500 could take all 600);
        # broker 2 leads partition 1 only, so 400 records stay reachable while it is down
        with face(
            cluster.bootstrap, group_id=group, request_timeout_ms=3000, max_poll_records=50
        ) as consumer:
            refused = refusals(consumer)
            consumer.subscribe([topic])
            got = consume_all(consumer, want, seconds=90, step=step)
        assert events == ["down", "up, coordinator moved"]
        assert_once_or_redelivered(got, want, refused)
        assert leftover(cluster, group, topic) == []
    finally:
        cluster.close()


# ---- settings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"auto.offset.reset": "earliest"}, "share.auto.offset.reset"),
        ({"enable.auto.commit": False}, "share.acknowledgement.mode"),
        ({"group.instance.id": "x"}, "no static members"),
        ({"share.acknowledgement.mode": "manual"}, "not implicit or explicit"),
    ],
)
def test_settings_share_groups_do_not_have_are_refused(config, match):
    with pytest.raises(ConfigError, match=match):
        kafkawire.ShareConsumer("127.0.0.1:9", config={"group.id": "g", **config})


def test_a_share_consumer_needs_a_group_and_a_subscription():
    with pytest.raises(ClientError, match=r"group\.id"):
        kafkawire.ShareConsumer("127.0.0.1:9")
    with kafkawire.ShareConsumer("127.0.0.1:9", group_id="g") as consumer:
        with pytest.raises(ClientError, match="subscribe to topics before polling"):
            consumer.poll(0)
        with pytest.raises(ValueError, match="no topic"):
            consumer.subscribe([])
        with pytest.raises(TypeError, match="list of topic names"):
            consumer.subscribe("topic")


def test_a_broker_without_share_groups_is_named_by_the_poll(broker):
    """Tansu has no ShareGroupHeartbeat: the heartbeats' refusal reaches the caller."""
    with kafkawire.ShareConsumer(broker.bootstrap, group_id=group_name()) as consumer:
        consumer.subscribe(["any-topic"])
        with pytest.raises(kafkawire.UnsupportedError, match="ShareGroupHeartbeat") as caught:
            end = time.monotonic() + 20
            while time.monotonic() < end:
                assert consumer.poll(0.2) == []
        assert "Apache Kafka 4.1" in str(caught.value)


@pytest.mark.parametrize("face_name", ["sync", "asyncio"])
def test_poll_and_close_keep_their_timeouts_on_a_silent_peer(face_name):
    from tests.client.test_deadline_model import MARGIN, silent_peer

    peer = silent_peer()
    make = kafkawire.ShareConsumer if face_name == "sync" else AsyncFace
    try:
        consumer = make(peer.address, group_id=group_name(), request_timeout_ms=30000)
        consumer.subscribe(["t"])
        for timeout in (0.0, 1.0):
            start = time.monotonic()
            assert consumer.poll(timeout) == []
            assert time.monotonic() - start < timeout + MARGIN
        start = time.monotonic()
        consumer.close(timeout=1.0)
        assert time.monotonic() - start < 1.0 + MARGIN
    finally:
        peer.close()
