"""KIP-848 consumer groups (group.protocol=consumer) on librdkafka's mock cluster: the scenario
proven with librdkafka first, then kafkawire members (both faces) alone, together, with
librdkafka members, and through fencing, coordinator moves and injected heartbeat errors.

The mock computes a range assignment itself (it ignores the assignor a member names) and hands
out new partitions only once their previous owner acknowledged their revocation, as Kafka does.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafkawire.client import Client, CommitFailedError, TopicPartition
from kafkawire.client.config.client import client_config
from kafkawire.client.consumer.config import consumer_config
from kafkawire.client.core import ClientCore
from kafkawire.client.errors import ConfigError
from kafkawire.client.groups.consumer_protocol import ConsumerGroupMember
from kafkawire.protocol import ApiKey, ErrorCode, decode_request, encode_request
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import FencedMemberEpochError, UnsupportedAssignorError
from tests.support.faces import make_consumer

confluent_kafka = pytest.importorskip("confluent_kafka")

PER_PARTITION = 50
HEARTBEAT_MS = 300


@pytest.fixture(scope="module")
def mock():
    """A mock cluster of this module's own (its tests inject faults), with a short heartbeat
    interval and a session timeout long enough that only a leave moves partitions quickly."""
    from tests.support.mock_cluster import MockCluster

    cluster = MockCluster(3)
    cluster.set_consumer_group_timeouts(session_ms=30000, heartbeat_ms=HEARTBEAT_MS)
    yield cluster
    cluster.close()


@pytest.fixture(scope="module")
def admin(mock):
    with Client(mock.bootstrap, request_timeout=10) as client:
        yield client


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def new_topic(mock, admin, partitions: int, records: int = PER_PARTITION) -> tuple[str, set]:
    """A topic of ``partitions`` partitions with ``records`` records each; its values."""
    name = unique("kip848")
    mock.create_topic(name, partitions)
    return name, produce(admin, name, partitions, 0, records)


def produce(admin, topic: str, partitions: int, start: int, count: int) -> set[bytes]:
    """Records ``start`` to ``start + count`` of every partition; their values."""
    values = set()
    for p in range(partitions):
        batch = [b"%s-%d-%04d" % (topic.encode(), p, i) for i in range(start, start + count)]
        admin.produce_columns(TopicPartition(topic, p), batch)
        values.update(batch)
    return values


def config(group: str, **extra) -> dict:
    return {
        "group.id": group,
        "group.protocol": "consumer",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        **extra,
    }


def wait_until(condition, timeout: float = 60.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def committed_to_the_end(admin, group: str, topic: str, partitions: int) -> bool:
    tps = [TopicPartition(topic, p) for p in range(partitions)]
    # partitions named: the mock answers an OffsetFetch for all of a group's with a null array
    found = admin.list_group_offsets(group, tps)
    return all(found.get(tp) is not None and found[tp].offset == PER_PARTITION for tp in tps)


class Member(threading.Thread):
    """One group member polling in a thread of its own, kafkawire ("sync", "asyncio") or
    librdkafka; it commits after each poll's records are taken (kafkawire's "sync" members
    poll columnar batches, the others records)."""

    def __init__(self, kind: str, bootstrap: str, group: str, topic: str, **extra) -> None:
        super().__init__(daemon=True)
        self.kind = kind
        self.values: list[bytes] = []
        self.assigned: set[TopicPartition] = set()
        self.revoked: list[TopicPartition] = []
        self.lost: list[TopicPartition] = []
        self.errors: list[BaseException] = []
        self.stop = threading.Event()
        settings = config(group, **extra)
        if kind == "librdkafka":
            self.consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, **settings})
            self.consumer.subscribe(
                [topic], on_assign=self._on_assign_rd, on_revoke=self._on_revoke_rd
            )
        else:
            self.consumer = make_consumer(kind, bootstrap, config=settings, request_timeout=10)
            self.consumer.subscribe(
                [topic], on_assign=self._assign, on_revoke=self._revoke, on_lost=self._lose
            )
        self.start()

    def _assign(self, tps) -> None:
        self.assigned |= {TopicPartition(*tp) for tp in tps}

    def _revoke(self, tps) -> None:
        tps = [TopicPartition(*tp) for tp in tps]
        self.revoked += tps
        self.assigned -= set(tps)

    def _lose(self, tps) -> None:
        tps = [TopicPartition(*tp) for tp in tps]
        self.lost += tps
        self.assigned -= set(tps)

    # KIP-848 rebalances are incremental: librdkafka wants incremental (un)assign calls
    def _on_assign_rd(self, consumer, tps) -> None:
        consumer.incremental_assign(tps)
        self._assign([(t.topic, t.partition) for t in tps])

    def _on_revoke_rd(self, consumer, tps) -> None:
        consumer.incremental_unassign(tps)
        self._revoke([(t.topic, t.partition) for t in tps])

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                if self.kind == "librdkafka":
                    messages = [m for m in self.consumer.consume(20, 0.2) if not m.error()]
                    self.values += [m.value() for m in messages]
                    if messages:
                        self.consumer.commit(asynchronous=False)
                elif self.kind == "sync":
                    batch = self.consumer.poll_batch(0.2, max_records=20)
                    self.values += [bytes(r.value) for r in batch]
                    if len(batch):
                        self.consumer.commit()
                else:
                    records = self.consumer.poll(0.2, max_records=20)
                    self.values += [r.value for r in records]
                    if records:
                        self.consumer.commit()
        except BaseException as exc:  # reported by the test
            self.errors.append(exc)
        finally:
            self.consumer.close()

    def leave(self) -> None:
        self.stop.set()
        self.join(30)
        assert not self.is_alive(), f"{self.kind} member did not close"


def balanced(members, partitions: int) -> bool:
    owned = [tp for m in members for tp in m.assigned]
    return len(owned) == len(set(owned)) == partitions and all(m.assigned for m in members)


def consumed(members) -> list[bytes]:
    return [v for m in members for v in m.values]


# ---- the bed ----------------------------------------------------------------------------------


def test_librdkafka_consumes_everything_as_a_kip848_member(mock, admin):
    topic, values = new_topic(mock, admin, 4)
    group = unique("g")
    member = Member("librdkafka", mock.bootstrap, group, topic)
    try:
        wait_until(lambda: len(member.values) == len(values), what="every record")
        wait_until(lambda: committed_to_the_end(admin, group, topic, 4), what="the commits")
        assigned = set(member.assigned)
    finally:
        member.leave()
    assert member.errors == []
    assert sorted(member.values) == sorted(values)
    assert assigned == {TopicPartition(topic, p) for p in range(4)}


# ---- kafkawire members ------------------------------------------------------------------------


def test_a_member_consumes_every_record(mock, admin, face):
    topic, values = new_topic(mock, admin, 4)
    group = unique("g")
    assigned = []
    mock.start_tracking()
    try:
        with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
            c.subscribe([topic], on_assign=assigned.append)
            got = []
            end = time.monotonic() + 60
            while len(got) < len(values) and time.monotonic() < end:
                records = c.poll(0.5)
                got += [r.value for r in records]
                if records:
                    c.commit()
            committed = c.committed([TopicPartition(topic, p) for p in range(4)])
            metadata = c.group_metadata()
    finally:
        sent = {key for _, key in mock.requests()}
        mock.stop_tracking()
    assert sorted(got) == sorted(values)
    assert [sorted(a) for a in assigned] == [[TopicPartition(topic, p) for p in range(4)]]
    assert {tp.partition: o.offset for tp, o in committed.items()} == dict.fromkeys(
        range(4), PER_PARTITION
    )
    assert metadata.generation_id >= 1  # the member epoch, which commits carry
    assert ApiKey.CONSUMER_GROUP_HEARTBEAT in sent
    assert not {ApiKey.JOIN_GROUP, ApiKey.SYNC_GROUP, ApiKey.HEARTBEAT} & sent


def test_a_third_member_moves_partitions_without_stopping_the_others(mock, admin):
    half = PER_PARTITION // 2
    topic, values = new_topic(mock, admin, 6, half)
    group = unique("g")
    first = [Member(kind, mock.bootstrap, group, topic) for kind in ("sync", "asyncio")]
    third = None
    try:
        wait_until(lambda: balanced(first, 6), what="two members sharing the partitions")
        before = [(set(m.assigned), len(m.revoked)) for m in first]
        third = Member("asyncio", mock.bootstrap, group, topic)
        members = [*first, third]
        wait_until(lambda: balanced(members, 6), what="three members sharing the partitions")
        values |= produce(admin, topic, 6, half, PER_PARTITION - half)
        wait_until(lambda: len(consumed(members)) >= len(values), what="every record")
        wait_until(lambda: committed_to_the_end(admin, group, topic, 6), what="the commits")
        after = [(set(m.assigned), list(m.revoked)) for m in members]  # before the closes
    finally:
        for m in [*first, *([third] if third else [])]:
            m.leave()
    assert [e for m in members for e in m.errors] == []
    # each record exactly once: commits after processing, revocations after the commit
    assert sorted(consumed(members)) == sorted(values)
    for member, (had, seen), (owns, revoked) in zip(first, before, after[:2], strict=True):
        kept = had & owns
        since = set(revoked[seen:])  # revoked once the third member came
        assert kept, f"{member.kind} kept none of {sorted(had)}"
        # incremental: what stayed was never revoked, only what moved
        assert not kept & since
        assert since and since <= had
    assert after[2] == (after[2][0], []) and len(after[2][0]) == 2


def test_a_mixed_group_with_librdkafka_consumes_each_record_once(mock, admin):
    half = PER_PARTITION // 2
    topic, values = new_topic(mock, admin, 6, half)
    group = unique("g")
    members = [Member(kind, mock.bootstrap, group, topic) for kind in ("librdkafka", "sync")]
    try:
        wait_until(lambda: balanced(members, 6), what="two members sharing the partitions")
        members.append(Member("asyncio", mock.bootstrap, group, topic))
        wait_until(lambda: balanced(members, 6), what="three members sharing the partitions")
        # records for every member: each owns two partitions now
        values |= produce(admin, topic, 6, half, PER_PARTITION - half)
        wait_until(lambda: len(consumed(members)) >= len(values), what="every record")
        wait_until(lambda: committed_to_the_end(admin, group, topic, 6), what="the commits")
    finally:
        for m in members:
            m.leave()
    assert [e for m in members for e in m.errors] == []
    assert sorted(consumed(members)) == sorted(values)
    assert all(m.values for m in members)  # each member read its share


def test_close_leaves_the_group_and_the_other_member_takes_over(mock, admin, face):
    topic, _ = new_topic(mock, admin, 4)
    group = unique("g")
    stays = Member("librdkafka", mock.bootstrap, group, topic)
    try:
        with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
            c.subscribe([topic])
            wait_until(lambda: c.poll(0.2) is not None and len(c.assignment()) == 2, what="two")
            wait_until(lambda: len(stays.assigned) == 2, what="the other two")
        start = time.monotonic()
        # well inside the session timeout (30 s): the leave moved them, not the broker's timer
        wait_until(lambda: len(stays.assigned) == 4, timeout=15, what="all four partitions")
        assert time.monotonic() - start < 15
        wait_until(lambda: committed_to_the_end(admin, group, topic, 4), what="the commits")
    finally:
        stays.leave()
    assert stays.errors == []


# ---- faults -----------------------------------------------------------------------------------


@pytest.mark.parametrize("error", [ErrorCode.FENCED_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID])
def test_a_fenced_member_loses_its_partitions_and_rejoins(mock, admin, face, error):
    topic, _ = new_topic(mock, admin, 2)
    group = unique("g")
    assigned, lost = [], []
    with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
        c.subscribe([topic], on_assign=assigned.append, on_lost=lost.append)
        got = []
        wait_until(lambda: got.extend(r.value for r in c.poll(0.2)) or len(got) > 0, what="one")
        c.commit()
        mock.push_errors(ApiKey.CONSUMER_GROUP_HEARTBEAT, [error])
        wait_until(lambda: got.extend(r.value for r in c.poll(0.2)) or lost, what="the fence")
        wait_until(lambda: c.poll(0.2) is not None and len(c.assignment()) == 2, what="a rejoin")
    assert sorted(lost[0]) == [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    assert len(assigned) == 2  # joined, fenced, joined again
    assert sorted(assigned[1]) == sorted(lost[0])


def test_auto_commit_commits_what_is_revoked_before_it_moves(mock, admin, face):
    topic, values = new_topic(mock, admin, 4)
    group = unique("g")
    # no commit on the interval during the test: only the one before the revocation
    settings = {**config(group), "enable.auto.commit": True, "auto.commit.interval.ms": 600000}
    at_revoke = {}

    def on_revoke(tps) -> None:
        # read before this member acknowledges: nobody else can own (or commit) them yet
        at_revoke.update(admin.list_group_offsets(group, tps))

    with make_consumer(face, mock.bootstrap, config=settings, request_timeout=10) as c:
        c.subscribe([topic], on_revoke=on_revoke)
        got = []
        end = time.monotonic() + 60
        while len(got) < len(values) and time.monotonic() < end:
            got += [r.value for r in c.poll(0.5)]
        other = Member("librdkafka", mock.bootstrap, group, topic)
        try:
            wait_until(lambda: polled(c) and len(other.assigned) == 2, what="a handover")
            taken = set(other.assigned)
        finally:
            other.leave()
    assert sorted(got) == sorted(values)
    assert {tp: o.offset for tp, o in at_revoke.items()} == dict.fromkeys(taken, PER_PARTITION)
    assert other.values == []  # it started from the commit: nothing read twice


def test_a_moved_coordinator_is_found_again(mock, admin, face):
    topic, values = new_topic(mock, admin, 2)
    group = unique("g")
    mock.set_coordinator("group", group, 1)
    lost = []
    with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
        c.subscribe([topic], on_lost=lost.append, on_revoke=lost.append)
        got = [r.value for r in c.poll(5.0)]
        wait_until(lambda: len(c.assignment()) == 2, what="the assignment")
        mock.start_tracking()
        mock.set_coordinator("group", group, 2)
        seen = poll_tracked(
            mock,
            c,
            got,
            lambda seen: len(got) == len(values) and (2, ApiKey.CONSUMER_GROUP_HEARTBEAT) in seen,
        )
        c.commit()
        assert c.committed([TopicPartition(topic, 0)])[TopicPartition(topic, 0)].offset == 50
    assert (2, ApiKey.FIND_COORDINATOR) in seen or (1, ApiKey.FIND_COORDINATOR) in seen
    assert (2, ApiKey.CONSUMER_GROUP_HEARTBEAT) in seen  # heartbeats went on at the new one
    assert lost == []  # the membership lives in the group, not at one broker
    assert sorted(got) == sorted(values)


def test_a_coordinator_down_for_a_while_costs_no_partitions(mock, admin, face):
    topic, values = new_topic(mock, admin, 2)
    group = unique("g")
    mock.set_coordinator("group", group, 3)
    lost = []
    with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=5) as c:
        c.subscribe([topic], on_lost=lost.append, on_revoke=lost.append)
        got = []
        wait_until(lambda: got.extend(r.value for r in c.poll(0.2)) or got, what="one record")
        mock.broker_down(3)
        try:
            # heartbeats fail (connections refused) for a few intervals, well inside the
            # session timeout
            end = time.monotonic() + 2
            while time.monotonic() < end:
                got += [r.value for r in c.poll(0.2)]
        finally:
            mock.broker_up(3)
        mock.start_tracking()
        seen = poll_tracked(
            mock,
            c,
            got,
            lambda seen: len(got) == len(values) and (3, ApiKey.CONSUMER_GROUP_HEARTBEAT) in seen,
        )
        c.commit()
        assert len(c.assignment()) == 2
    assert (3, ApiKey.CONSUMER_GROUP_HEARTBEAT) in seen  # back at the coordinator
    assert lost == []
    assert sorted(got) == sorted(values)
    assert committed_to_the_end(admin, group, topic, 2)


def test_retriable_heartbeat_errors_are_ridden_out(mock, admin, face):
    topic, values = new_topic(mock, admin, 2)
    group = unique("g")
    lost = []
    with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
        c.subscribe([topic], on_lost=lost.append, on_revoke=lost.append)
        got = []
        wait_until(lambda: got.extend(r.value for r in c.poll(0.2)) or got, what="one record")
        mock.start_tracking()
        mock.push_errors(
            ApiKey.CONSUMER_GROUP_HEARTBEAT,
            [
                ErrorCode.COORDINATOR_NOT_AVAILABLE,
                ErrorCode.NOT_COORDINATOR,
                ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
            ],
        )

        def beats(seen) -> int:
            return sum(1 for _, key in seen if key == ApiKey.CONSUMER_GROUP_HEARTBEAT)

        seen = poll_tracked(mock, c, got, lambda seen: len(got) == len(values) and beats(seen) >= 5)
        assert len(c.assignment()) == 2
    # three refused, then answered again (at least two more after them)
    assert beats(seen) >= 5
    assert ApiKey.FIND_COORDINATOR in {key for _, key in seen}
    assert lost == []
    assert sorted(got) == sorted(values)


def test_a_commit_with_a_stale_member_epoch_fails_and_the_next_succeeds(mock, admin, face):
    topic, _ = new_topic(mock, admin, 1)
    group = unique("g")
    with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
        c.subscribe([topic])
        got = []
        wait_until(lambda: got.extend(r.value for r in c.poll(0.2)) or got, what="records")
        mock.push_errors(ApiKey.OFFSET_COMMIT, [ErrorCode.STALE_MEMBER_EPOCH])
        with pytest.raises(CommitFailedError, match="STALE_MEMBER_EPOCH"):
            c.commit()
        c.commit()
        position = c.position(TopicPartition(topic, 0))
        found = c.committed([TopicPartition(topic, 0)])[TopicPartition(topic, 0)]
    assert found.offset == position == len(got) > 0


def test_an_error_the_broker_would_repeat_is_raised_by_the_poll(mock, admin, face):
    topic, _ = new_topic(mock, admin, 1)
    group = unique("g")
    settings = config(group, **{"group.remote.assignor": "sticky"})
    with make_consumer(face, mock.bootstrap, config=settings, request_timeout=10) as c:
        c.subscribe([topic])
        # to the join, which the poll sends
        mock.push_errors(ApiKey.CONSUMER_GROUP_HEARTBEAT, [ErrorCode.UNSUPPORTED_ASSIGNOR])
        with pytest.raises(UnsupportedAssignorError, match=f"group '{group}'.*broker"):
            c.poll(5.0)
        wait_until(lambda: polled(c) and len(c.assignment()) == 1, what="a join")
        # to a heartbeat of the heartbeat loop: kept for the next poll
        mock.push_errors(ApiKey.CONSUMER_GROUP_HEARTBEAT, [ErrorCode.UNSUPPORTED_ASSIGNOR])
        with pytest.raises(UnsupportedAssignorError, match=f"group '{group}'.*broker"):
            wait_until(lambda: polled(c) and False, what="the error")
        polled(c)  # raised once: the member goes on
        assert len(c.assignment()) == 1


def test_a_member_not_polled_for_max_poll_interval_leaves_and_rejoins(mock, admin, face):
    topic, _ = new_topic(mock, admin, 2)
    group = unique("g")
    lost = []
    settings = config(group, **{"max.poll.interval.ms": 1500})
    with make_consumer(face, mock.bootstrap, config=settings, request_timeout=10) as c:
        c.subscribe([topic], on_lost=lost.append)
        wait_until(lambda: c.poll(0.2, max_records=1) != [], what="a first record")
        mock.start_tracking()
        try:
            time.sleep(4)  # no poll for longer than max.poll.interval.ms: the member left
        finally:
            seen = mock.requests()
            mock.stop_tracking()
        wait_until(lambda: polled(c) and lost != [], what="on_lost")
        wait_until(lambda: polled(c) and len(c.assignment()) == 2, what="a rejoin")
    assert sorted(lost[0]) == [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    assert ApiKey.CONSUMER_GROUP_HEARTBEAT in {key for _, key in seen}


def test_a_static_member_comes_back_to_its_partitions(mock, admin, face):
    topic, _ = new_topic(mock, admin, 4)
    group = unique("g")
    settings = config(group, **{"group.instance.id": unique("instance")})
    other = None
    try:
        with make_consumer(face, mock.bootstrap, config=settings, request_timeout=10) as c:
            c.subscribe([topic])
            wait_until(lambda: polled(c) and len(c.assignment()) == 4, what="four partitions")
            # the mock's range assignment follows the order of joining: this member first
            other = Member("librdkafka", mock.bootstrap, group, topic)
            wait_until(lambda: polled(c) and len(other.assigned) == 2, what="the other two")
            mine = c.assignment()
            revoked_before = len(other.revoked)
        # left with epoch -2: the broker keeps this instance's place and partitions for it (a
        # member that left with -1 would be gone, the other one first, owning these two)
        with make_consumer(face, mock.bootstrap, config=settings, request_timeout=10) as c:
            c.subscribe([topic])
            wait_until(lambda: polled(c) and c.assignment() == mine, what="the same two")
        assert other.revoked[revoked_before:] == []
        assert not set(mine) & other.assigned
    finally:
        if other is not None:
            other.leave()
    assert other.errors == []


def poll_tracked(mock, consumer, got: list, done) -> list[tuple[int, int]]:
    """With the mock tracking requests: poll into ``got`` (up to 60 s) until ``done(the
    requests seen so far)``; the (broker, api key) of every request, tracking stopped."""
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and not done(mock.requests(clear=False)):
            got += [r.value for r in consumer.poll(0.2)]
    finally:
        seen = mock.requests()
        mock.stop_tracking()
    return seen


def polled(consumer) -> bool:
    consumer.poll(0.2)
    return True


def test_a_pattern_subscription_sends_the_matching_names(mock, admin, face):
    prefix = unique("kip848pat")
    topics = [f"{prefix}-{i}" for i in range(2)]
    values = set()
    for name in topics:
        mock.create_topic(name, 1)
        values |= produce(admin, name, 1, 0, 10)
    mock.create_topic(unique("kip848other"), 1)
    group = unique("g")
    with make_consumer(face, mock.bootstrap, config=config(group), request_timeout=10) as c:
        c.subscribe(f"^{prefix}-.*")
        got = []
        end = time.monotonic() + 60
        while len(got) < len(values) and time.monotonic() < end:
            got += [r.value for r in c.poll(0.5)]
        assignment = c.assignment()
    assert sorted(got) == sorted(values)
    assert assignment == [TopicPartition(name, 0) for name in topics]


# ---- the heartbeat's contents (no broker) -----------------------------------------------------


def _answer(member, request, subscription, owned, *, epoch, assignment=None):
    response = m.ConsumerGroupHeartbeatResponse(
        member_id=member.member_id,
        member_epoch=epoch,
        heartbeat_interval_ms=HEARTBEAT_MS,
        assignment=assignment,
    )
    member._answered(_NoBrokers(), 1, request, response, subscription, owned)


def test_heartbeats_name_only_what_changed():
    member = ConsumerGroupMember(consumer_config("h:1", config("g"))[1])
    member.subscription = ("a", "b")
    topic_id = uuid.uuid4()
    join, subscription, owned = member._request()
    assert (join.member_epoch, join.subscribed_topic_names, join.subscribed_topic_regex) == (
        0,
        ["a", "b"],
        "",
    )
    assert join.topic_partitions == [] and join.rebalance_timeout_ms == 300000
    given = m.ConsumerGroupHeartbeatResponse.Assignment(
        topic_partitions=[
            m.ConsumerGroupHeartbeatResponse.TopicPartitions(topic_id=topic_id, partitions=[0, 1])
        ]
    )
    _answer(member, join, subscription, owned, epoch=3, assignment=given)
    assert member.generation == 3 and member.interval == HEARTBEAT_MS / 1000

    steady, *_ = member._request()  # nothing changed: only who and which epoch
    assert steady.member_epoch == 3
    assert steady.subscribed_topic_names is None and steady.subscribed_topic_regex is None
    assert steady.topic_partitions is None and steady.rebalance_timeout_ms == -1

    member._names[topic_id] = "a"
    member.reconciled({TopicPartition("a", 0), TopicPartition("a", 1)})
    ack, subscription, owned = member._request()  # the acknowledgement: what it owns now
    assert [(t.topic_id, t.partitions) for t in ack.topic_partitions] == [(topic_id, [0, 1])]
    assert ack.subscribed_topic_names is None
    _answer(member, ack, subscription, owned, epoch=3)
    assert member._request()[0].topic_partitions is None

    member.subscription = ("a",)
    assert member._request()[0].subscribed_topic_names == ["a"]

    fenced = m.ConsumerGroupHeartbeatResponse(error_code=ErrorCode.FENCED_MEMBER_EPOCH)
    with pytest.raises(FencedMemberEpochError, match=r"group 'g'.*broker 1:"):
        member._answered(_NoBrokers(), 1, ack, fenced, subscription, owned)
    assert member.lost and member.generation == -1
    rejoin, *_ = member._request()  # the same member id, epoch 0, everything named again
    assert (rejoin.member_id, rejoin.member_epoch, rejoin.topic_partitions) == (
        member.member_id,
        0,
        [],
    )


def test_committed_offsets_are_asked_for_with_the_member_id_and_epoch():
    member = ConsumerGroupMember(consumer_config("h:1", config("g"))[1])
    member.generation = 7
    core = ClientCore(client_config("h:1", {}))
    flow = member.committed(core, [TopicPartition("t", 0)])
    next(flow)  # FindCoordinator
    coordinator = m.FindCoordinatorResponse.Coordinator(key="g", node_id=1, host="h", port=1)
    call = flow.send(m.FindCoordinatorResponse(coordinators=[coordinator]))
    frame = encode_request(call.request, version=9, drop_unsupported=True)
    (group,) = decode_request(frame, size_prefix=True)[1].groups
    assert (group.group_id, group.member_id, group.member_epoch) == ("g", member.member_id, 7)
    # older versions (librdkafka's mock speaks up to 6) have no such fields: left out
    frame = encode_request(call.request, version=6, drop_unsupported=True)
    older = decode_request(frame, size_prefix=True)[1]
    assert older.group_id == "g" and [t.name for t in older.topics] == ["t"]


class _NoBrokers:
    """A core that knows no broker addresses (the errors name the broker by id only)."""

    brokers: dict = {}
    broker_name = ClientCore.broker_name


# ---- settings ---------------------------------------------------------------------------------


def test_group_protocol_settings():
    def parsed(**properties):
        return consumer_config("127.0.0.1:9092", {"group.id": "g", **properties})[1]

    assert parsed().group_protocol == "classic"
    chosen = parsed(**{"group.protocol": "CONSUMER", "group.remote.assignor": "uniform"})
    assert (chosen.group_protocol, chosen.group_remote_assignor) == ("consumer", "uniform")
    for name in ("session.timeout.ms", "heartbeat.interval.ms", "partition.assignment.strategy"):
        value = "range" if name.startswith("partition") else 1000
        with pytest.raises(ConfigError, match=f"'{name}' is not used with group"):
            parsed(**{"group.protocol": "consumer", name: value})
    with pytest.raises(ConfigError, match=r"group\.remote\.assignor' needs group\.protocol"):
        parsed(**{"group.remote.assignor": "range"})
    with pytest.raises(ConfigError, match="not classic or consumer"):
        parsed(**{"group.protocol": "share"})
