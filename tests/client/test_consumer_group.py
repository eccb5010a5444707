"""Consumer groups on both test beds (Tansu, librdkafka's mock): kafkawire members (the
blocking face and the asyncio one) in one group with librdkafka members, under each assignor;
heartbeats that keep a slow poll loop in; max.poll.interval.ms; commits fenced by the
generation; static membership."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafkawire.client import Client, CommitFailedError, TopicPartition
from kafkawire.errors import UnsupportedError
from tests.support.faces import make_consumer

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")

PARTITIONS = 6
PER_PARTITION = 100


@pytest.fixture(scope="module")
def admin(cluster):
    with Client(cluster.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(cluster, admin, partitions: int = PARTITIONS) -> str:
    name = cluster.create_topic(f"grp-{uuid.uuid4().hex[:10]}", partitions)
    for p in range(partitions):
        admin.produce_columns((name, p), [b"%d-%04d" % (p, i) for i in range(PER_PARTITION)])
    return name


class Member(threading.Thread):
    """One group member polling in a thread of its own: kafkawire ("sync", "asyncio") or
    librdkafka ("librdkafka"). It commits after each poll's records are taken."""

    def __init__(self, kind: str, bootstrap: str, group: str, topic: str, strategy: str):
        super().__init__(daemon=True)
        self.kind = kind
        self.values: list[bytes] = []
        self.assigned: set[TopicPartition] = set()
        self.revoked: list[list[TopicPartition]] = []
        self.errors: list[BaseException] = []
        self.stop = threading.Event()
        self.cooperative = strategy == "cooperative-sticky"
        config = {
            "group.id": group,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "partition.assignment.strategy": strategy,
            # Tansu answers a JoinGroup after half the session timeout: keep it short
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 500,
        }
        if kind == "librdkafka":
            self.consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, **config})
            self.consumer.subscribe(
                [topic], on_assign=self._on_assign_rd, on_revoke=self._on_revoke_rd
            )
        else:
            self.consumer = make_consumer(kind, bootstrap, config=config)
            self.consumer.subscribe([topic], on_assign=self._assign, on_revoke=self._revoke)
        self.start()

    def _assign(self, tps):
        self.assigned |= {TopicPartition(*tp) for tp in tps}

    def _revoke(self, tps):
        tps = [TopicPartition(*tp) for tp in tps]
        self.revoked.append(tps)
        self.assigned -= set(tps)

    def _on_assign_rd(self, consumer, tps):
        tps = [TopicPartition(t.topic, t.partition) for t in tps]
        if self.cooperative:
            consumer.incremental_assign([confluent_kafka.TopicPartition(*tp) for tp in tps])
        self._assign(tps)

    def _on_revoke_rd(self, consumer, tps):
        tps = [TopicPartition(t.topic, t.partition) for t in tps]
        if self.cooperative:
            consumer.incremental_unassign([confluent_kafka.TopicPartition(*tp) for tp in tps])
        self._revoke(tps)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                if self.kind == "librdkafka":
                    messages = [m for m in self.consumer.consume(100, 0.3) if not m.error()]
                    self.values += [m.value() for m in messages]
                    if messages:
                        self.consumer.commit(asynchronous=False)
                else:
                    records = self.consumer.poll(0.3, max_records=100)
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


def wait_until(condition, timeout: float = 90.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def polled(consumer) -> bool:
    consumer.poll(0.2)
    return True


def balanced(members, topic: str, partitions: int = PARTITIONS) -> bool:
    owned = [tp for m in members for tp in m.assigned]
    return len(owned) == len(set(owned)) == partitions and all(m.assigned for m in members)


# Tansu only: the mock ends a generation's sync at the leader's SyncGroup and refuses later
# members' (INVALID_REQUEST): they rejoin, so the first generation's commits are refused
# (librdkafka's as well) and records come twice
@pytest.mark.parametrize("cluster", ["tansu"], indirect=True)
@pytest.mark.parametrize("strategy", ["range", "roundrobin", "cooperative-sticky"])
def test_kafkawire_and_librdkafka_members_share_a_group(cluster, admin, strategy):
    topic = new_topic(cluster, admin)
    group = f"g-{uuid.uuid4().hex[:8]}"
    kinds = ["sync", "asyncio", "librdkafka"]
    members = [Member(kind, cluster.bootstrap, group, topic, strategy) for kind in kinds]
    try:
        wait_until(lambda: balanced(members, topic), what="every partition assigned once")
        for m in members:
            assert len(m.assigned) == PARTITIONS // 3, (m.kind, m.assigned)
        everything = sorted(b"%d-%04d" % (p, i) for p in range(PARTITIONS) for i in range(100))
        wait_until(
            lambda: sum(len(m.values) for m in members) >= len(everything), what="all records"
        )
        # a librdkafka member leaves: its partitions go to the kafkawire members
        rd = members.pop()
        rd.leave()
        wait_until(lambda: balanced(members, topic), what="a rebalance after the leave")
        assert sorted(len(m.assigned) for m in members) == [3, 3]
        if strategy == "cooperative-sticky":  # incremental: nobody gave anything up
            assert all(not any(r) for m in members for r in m.revoked)
        for m in members:
            assert not m.errors, m.errors
        values = sorted(v for m in [*members, rd] for v in m.values)
        assert values == everything  # each record once across the members
    finally:
        for m in members:
            m.leave()


def test_heartbeats_keep_a_slow_poll_loop_in_the_group(cluster, admin, face):
    topic = new_topic(cluster, admin, 2)
    config = {
        "group.id": f"g-{uuid.uuid4().hex[:8]}",
        "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 500,
    }
    lost = []
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.subscribe([topic], on_revoke=lost.append, on_lost=lost.append)
        wait_until(lambda: c.poll(0.5, max_records=1) != [], what="a first record")
        time.sleep(9)  # longer than the session timeout: only the heartbeats keep it in
        assert c.poll(1.0, max_records=1) != []
        assert lost == []


def test_max_poll_interval_takes_the_partitions_away(cluster, admin, face):
    topic = new_topic(cluster, admin, 2)
    config = {
        "group.id": f"g-{uuid.uuid4().hex[:8]}",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "max.poll.interval.ms": 2000,
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 300,
    }
    lost = []
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.subscribe([topic], on_lost=lost.append)
        wait_until(lambda: c.poll(0.5, max_records=1) != [], what="a first record")
        time.sleep(3.5)  # no poll for longer than max.poll.interval.ms: the member left
        with pytest.raises(CommitFailedError, match="not in the group"):
            c.commit()
        c.poll(0.5)  # rejoins, and says what was lost first
        assert sorted(lost[0]) == [TopicPartition(topic, 0), TopicPartition(topic, 1)]
        wait_until(lambda: polled(c) and len(c.assignment()) == 2, what="a rejoin")


def test_static_member_comes_back_to_its_partitions(cluster, admin, face):
    topic = new_topic(cluster, admin, 2)
    config = {
        "group.id": f"g-{uuid.uuid4().hex[:8]}",
        "group.instance.id": "instance-a",
        "auto.offset.reset": "earliest",
        "session.timeout.ms": 10000,
    }
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.subscribe([topic])
        wait_until(lambda: c.poll(0.5) != [] and len(c.assignment()) == 2, what="assignment")
    # closed without LeaveGroup (a static member): the same instance takes its place
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.subscribe([topic])
        wait_until(lambda: polled(c) and len(c.assignment()) == 2, what="a rejoin")


def test_the_consumer_group_protocol_is_refused_clearly(broker, face):
    # Tansu only: it has no ConsumerGroupHeartbeat, the mock has (KIP-848)
    topic = f"grp-{uuid.uuid4().hex[:10]}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics([topic])
    config = {"group.id": f"g-{uuid.uuid4().hex[:8]}", "group.protocol": "consumer"}
    with make_consumer(face, broker.bootstrap, config=config) as c:
        c.subscribe([topic])
        with pytest.raises(UnsupportedError, match="KIP-848"):
            c.poll(1.0)
