"""What a confluent-kafka (or aiokafka) user reaches for first on the consumer, with
confluent-kafka's names and meanings, through both faces and (where both have it) on both test
beds: unsubscribe, list_topics, get_watermark_offsets, store_offsets with
enable.auto.offset.store, commit(asynchronous=True) with on_commit, incremental_assign /
incremental_unassign, rebalance callbacks of either signature, and deserializers. Where a
meaning was in doubt, librdkafka's consumer on the same broker is the reference."""

from __future__ import annotations

import io
import json
import struct
import time
import uuid

import pytest

from kafkawire.client import (
    Client,
    ClientError,
    ClusterMetadata,
    ConfigError,
    DeserializationError,
    RequestTimeoutError,
    TopicPartition,
)
from tests.support.broker import free_port
from tests.support.faces import make_consumer

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")

RECORDS = 30  # in partition 0 of each topic; partition 1 has 10


@pytest.fixture(scope="module")
def admin(cluster):
    with Client(cluster.bootstrap, request_timeout=20) as c:
        yield c


def new_topic(cluster, admin, values=None) -> str:
    """Two partitions: 30 records (values v0..v29, keys k0..) in 0, 10 in 1."""
    name = cluster.create_topic(f"ck-{uuid.uuid4().hex[:10]}", 2)
    values = values or [b"v%d" % i for i in range(RECORDS)]
    admin.produce_columns((name, 0), values, keys=[b"k%d" % i for i in range(len(values))])
    admin.produce_columns((name, 1), [b"p1-%d" % i for i in range(10)])
    return name


def poll_until(consumer, count: int, timeout: float = 20.0, max_records=None) -> list:
    got: list = []
    end = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < end:
        got += consumer.poll(0.5, max_records)
    return got


def group_config(**more) -> dict:
    return {
        "group.id": f"ck-{uuid.uuid4().hex[:8]}",
        "auto.offset.reset": "earliest",
        # Tansu answers a JoinGroup after half the session timeout: keep it short
        "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 500,
        **more,
    }


# ---- unsubscribe and the rebalance callbacks ------------------------------------------------


def test_unsubscribe_commits_revokes_and_leaves_with_confluent_callbacks(cluster, admin, face):
    topic = new_topic(cluster, admin)
    config = group_config()
    assigned: list = []
    revoked: list = []

    def on_assign(consumer, partitions):  # confluent-kafka's form: the consumer first
        assigned.append((consumer, sorted(partitions), consumer.assignment()))

    c = make_consumer(face, cluster.bootstrap, config=config)
    with c:
        c.subscribe([topic], on_assign=on_assign, on_revoke=revoked.append)
        got = poll_until(c, RECORDS + 10)
        assert len(got) == RECORDS + 10
        (consumer, partitions, inside), *_ = assigned
        # the face itself (the asyncio one behind the test's blocking adapter)
        assert consumer is getattr(c, "_client", c)
        assert partitions == [(topic, 0), (topic, 1)] and inside == partitions
        c.unsubscribe()
        assert revoked == [[(topic, 0), (topic, 1)]]
        assert c.assignment() == []
        assert c.poll(0.5) == []  # no group to join: nothing comes
        # enable.auto.commit (the default) commits before the revoke
        committed = c.committed([(topic, 0), (topic, 1)])
        assert committed[TopicPartition(topic, 0)].offset == RECORDS
        assert committed[TopicPartition(topic, 1)].offset == 10
        if cluster.name == "tansu":  # the mock has no DescribeGroups
            group = admin.describe_groups([config["group.id"]])[config["group.id"]]
            assert group.members == []  # LeaveGroup was sent: no session timeout to wait for
        c.assign([(topic, 1)])  # no longer subscribed: a manual assignment is allowed
        c.seek((topic, 1), 8)
        assert [r.offset for r in poll_until(c, 2)] == [8, 9]
        c.unsubscribe()  # not subscribed: the manual assignment stays, as librdkafka's
        assert c.assignment() == [(topic, 1)]


def test_unsubscribe_leaves_a_kip848_group(mock_cluster, admin_of_mock, face):
    from tests.client.test_consumer_group_kip848 import Member, config, wait_until

    topic = f"ck-{uuid.uuid4().hex[:10]}"
    mock_cluster.create_topic(topic, 4)
    for p in range(4):
        admin_of_mock.produce_columns((topic, p), [b"%d" % i for i in range(5)])
    group = f"ck-{uuid.uuid4().hex[:8]}"
    stays = Member("librdkafka", mock_cluster.bootstrap, group, topic)
    revoked: list = []
    try:
        with make_consumer(face, mock_cluster.bootstrap, config=config(group)) as c:
            c.subscribe([topic], on_revoke=lambda consumer, partitions: revoked.append(partitions))
            wait_until(lambda: c.poll(0.2) is not None and len(c.assignment()) == 2, what="two")
            owned = c.assignment()
            revoked.clear()  # what the librdkafka member took when it joined
            c.unsubscribe()
            assert revoked == [owned] and c.assignment() == []
            # well inside the session timeout: the leave moved them, not the broker's timer
            wait_until(lambda: len(stays.assigned) == 4, timeout=15, what="all four")
            for _ in range(5):  # no heartbeat joins the group again
                assert c.poll(0.2) == [] and c.assignment() == []
            assert len(stays.assigned) == 4
            c.subscribe([topic])  # and a new subscription joins it again, heartbeats and all
            wait_until(lambda: c.poll(0.2) is not None and len(c.assignment()) == 2, what="two")
            wait_until(lambda: len(stays.assigned) == 2, what="two left to the other member")
    finally:
        stays.leave()
    assert stays.errors == []


@pytest.fixture(scope="module")
def admin_of_mock(mock_cluster):
    with Client(mock_cluster.bootstrap, request_timeout=20) as c:
        yield c


def test_subscribe_refuses_callbacks_of_neither_form(broker, face):
    async def coroutine(partitions):
        return partitions

    with make_consumer(face, broker.bootstrap, config={"group.id": "ck-callbacks"}) as c:
        with pytest.raises(TypeError, match=r"on_assign .* takes neither"):
            c.subscribe(["t"], on_assign=lambda: None)
        with pytest.raises(TypeError, match=r"on_revoke .* takes neither"):
            c.subscribe(["t"], on_revoke=lambda a, b, c: None)
        with pytest.raises(TypeError, match=r"on_lost is 5, not a callable"):
            c.subscribe(["t"], on_lost=5)
        with pytest.raises(TypeError, match="on_assign is a coroutine function"):
            c.subscribe(["t"], on_assign=coroutine)
        c.subscribe(["t"], on_assign=print, on_revoke=lambda *partitions: None)  # builtins too


# ---- metadata and watermarks ----------------------------------------------------------------


def test_list_topics(cluster, admin, face):
    topic = new_topic(cluster, admin)
    with make_consumer(face, cluster.bootstrap) as c:
        one = c.list_topics(topic, timeout=10)
        assert isinstance(one, ClusterMetadata)
        assert list(one.topics) == [topic] and sorted(one.topics[topic].partitions) == [0, 1]
        assert one.brokers
        assert topic in c.list_topics().topics


def test_list_topics_gives_up_at_its_timeout(face):
    nobody = f"127.0.0.1:{free_port()}"  # refuses connections: the retries go on and on
    with make_consumer(face, nobody, retries=1000) as c:
        started = time.monotonic()
        with pytest.raises(RequestTimeoutError, match=r"list_topics: not done in 1 s"):
            c.list_topics(timeout=1.0)
        assert time.monotonic() - started < 10


def test_get_watermark_offsets_as_librdkafka(cluster, admin, face):
    topic = new_topic(cluster, admin)
    tp = TopicPartition(topic, 0)
    expected = (0, RECORDS)
    if cluster.name == "mock":
        # librdkafka as the reference; not on Tansu, whose ListOffsets answers the last
        # batch's base offset + 1 for the end, which librdkafka hands on as it is (kafkawire
        # checks the answer against a fetch's high watermark)
        reference = confluent_kafka.Consumer(
            {"bootstrap.servers": cluster.bootstrap, "group.id": "ck-watermarks"}
        )
        try:
            wanted = confluent_kafka.TopicPartition(topic, 0)
            assert reference.get_watermark_offsets(wanted, 10) == expected
        finally:
            reference.close()
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        assert c.get_watermark_offsets(tp, timeout=10) == expected
        assert c.get_watermark_offsets((topic, 1)) == (0, 10)  # assigned or not
        assert c.get_watermark_offsets(tp, cached=True) == (-1001, -1001)  # nothing fetched
        c.assign([tp])
        poll_until(c, 5)
        assert c.get_watermark_offsets(tp, cached=True) == expected


# ---- stored offsets -------------------------------------------------------------------------


def test_store_offsets_decides_what_commit_commits(cluster, admin, face):
    topic = new_topic(cluster, admin)
    tp = TopicPartition(topic, 0)
    config = group_config(**{"enable.auto.commit": False, "enable.auto.offset.store": False})
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.assign([tp])
        got = poll_until(c, RECORDS)
        assert len(got) == RECORDS
        c.commit()  # nothing stored: nothing committed (the positions are not)
        assert c.committed([tp]) == {tp: None}
        c.store_offsets(got[3])  # a record: the offset after it
        c.commit()
        assert c.committed([tp])[tp].offset == 4
        c.store_offsets(offsets={tp: 7})
        c.commit()
        assert c.committed([tp])[tp].offset == 7
        # confluent-kafka's TopicPartition with an offset, as confluent's users write it
        c.store_offsets(offsets=[confluent_kafka.TopicPartition(topic, 0, 9)])
        c.commit()
        assert c.committed([tp])[tp].offset == 9
        with pytest.raises(ClientError, match=rf"store_offsets: {topic}-1 not assigned"):
            c.store_offsets(offsets={(topic, 1): 3})
        with pytest.raises(ClientError, match=r"has no offset"):
            c.store_offsets(offsets=[tp])
        c.commit(got[10])  # a record, as confluent-kafka's message: the offset after it
        assert c.committed([tp])[tp].offset == 11
        c.incremental_unassign([tp])
        c.incremental_assign([tp])  # a new assignment starts with nothing stored
        c.seek(tp, 20)
        c.commit()
        assert c.committed([tp])[tp].offset == 11


def test_auto_commit_takes_only_what_was_stored(cluster, admin, face):
    topic = new_topic(cluster, admin)
    tp = TopicPartition(topic, 0)
    config = group_config(**{"enable.auto.offset.store": "false"})
    c = make_consumer(face, cluster.bootstrap, config=config)
    with c:
        c.assign([tp])
        got = poll_until(c, RECORDS)
        c.store_offsets(got[4:6])
    # close() auto-commits: the stored offset (6), not the position (30)
    with make_consumer(face, cluster.bootstrap, config=config) as later:
        assert later.committed([tp])[tp].offset == 6


def test_store_offsets_needs_enable_auto_offset_store_off(broker, face):
    with make_consumer(face, broker.bootstrap, config={"group.id": "ck-store"}) as c:
        c.assign([("t", 0)])
        with pytest.raises(ClientError, match=r"enable\.auto\.offset\.store=false"):
            c.store_offsets(offsets={("t", 0): 1})


# ---- asynchronous commits -------------------------------------------------------------------


def test_asynchronous_commit_reports_to_on_commit(cluster, admin, face):
    topic = new_topic(cluster, admin)
    tp = TopicPartition(topic, 0)
    outcomes: list = []
    config = group_config(**{"enable.auto.commit": False, "on_commit": _append_to(outcomes)})
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.assign([tp])
        poll_until(c, RECORDS)
        assert c.commit(asynchronous=True) is None
        end = time.monotonic() + 20
        while not outcomes and time.monotonic() < end:
            c.poll(0.2)  # the answer is taken, and on_commit called, by the polls
        assert outcomes == [(None, [tp])]
        assert c.committed([tp])[tp].offset == RECORDS


def test_asynchronous_commit_failure_goes_to_on_commit(face):
    nobody = f"127.0.0.1:{free_port()}"
    outcomes: list = []
    config = {"group.id": "ck-async", "on_commit": _append_to(outcomes), "retries": 1}
    with make_consumer(face, nobody, config=config) as c:
        c.commit({("t", 0): 5}, asynchronous=True)  # no broker: returns all the same
        assert outcomes == []
        end = time.monotonic() + 20
        while not outcomes and time.monotonic() < end:
            c.poll(0.2)
        ((error, partitions),) = outcomes
        assert partitions == [("t", 0)]
        assert isinstance(error, ClientError) and nobody in str(error)


def test_on_commit_hears_the_auto_commits(cluster, admin, face):
    topic = new_topic(cluster, admin)
    tp = TopicPartition(topic, 0)
    outcomes: list = []
    config = group_config(**{"auto.commit.interval.ms": 100, "on_commit": _append_to(outcomes)})
    with make_consumer(face, cluster.bootstrap, config=config) as c:
        c.assign([tp])
        poll_until(c, RECORDS)
        outcomes.clear()  # the next auto-commit has every record's position
        end = time.monotonic() + 20
        while not outcomes and time.monotonic() < end:
            c.poll(0.2)
        assert outcomes[0] == (None, [tp])
        assert c.committed([tp])[tp].offset == RECORDS


def _append_to(outcomes: list):
    def on_commit(error, partitions):
        outcomes.append((error, partitions))

    return on_commit


# ---- incremental assignment -----------------------------------------------------------------


def test_incremental_assign_and_unassign_keep_the_other_positions(cluster, admin, face):
    topic = new_topic(cluster, admin)
    p0, p1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    with make_consumer(face, cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        c.assign([p0])
        c.seek(p0, 20)
        assert [r.offset for r in poll_until(c, 3, max_records=1)] == [20, 21, 22]
        c.pause([p0])
        c.incremental_assign([p1])
        assert c.assignment() == [p0, p1] and c.paused() == [p0]
        got = poll_until(c, 10)
        assert {(r.partition, r.offset) for r in got} == {(1, i) for i in range(10)}
        c.resume([p0])
        c.incremental_unassign([p1])
        assert c.assignment() == [p0]
        rest = poll_until(c, RECORDS - 23)
        assert [r.offset for r in rest] == list(range(23, RECORDS))  # p0 went on from 23
        with pytest.raises(ClientError, match=rf"incremental_assign: {topic}-0 already"):
            c.incremental_assign([p0])
        with pytest.raises(ClientError, match=rf"incremental_unassign: {topic}-1 not assigned"):
            c.incremental_unassign([p1])


# ---- deserializers --------------------------------------------------------------------------


def test_plain_deserializers_apply_to_poll(cluster, admin, face):
    values = [json.dumps({"n": i}).encode() for i in range(RECORDS - 1)] + [None]
    topic = new_topic(cluster, admin, values)
    seen_none: list = []

    def value(data):
        if data is None:
            seen_none.append(True)  # a tombstone reaches the deserializer, as in aiokafka
            return "tombstone"
        return json.loads(data)

    with make_consumer(
        face,
        cluster.bootstrap,
        config={"auto.offset.reset": "earliest"},
        key_deserializer=bytes.decode,
        value_deserializer=value,
    ) as c:
        c.assign([(topic, 0)])
        got = poll_until(c, RECORDS)
    assert [r.value for r in got] == [{"n": i} for i in range(RECORDS - 1)] + ["tombstone"]
    assert [r.key for r in got] == [f"k{i}" for i in range(RECORDS)]
    assert seen_none == [True]
    assert got[5].offset == 5 and got[5].topic == topic and got[5].partition == 0


def test_poll_batch_refuses_a_plain_deserializer_before_fetching(cluster, admin, face):
    topic = new_topic(cluster, admin)
    with make_consumer(
        face,
        cluster.bootstrap,
        config={"auto.offset.reset": "earliest"},
        value_deserializer=bytes.decode,
    ) as c:
        c.assign([(topic, 0)])
        with pytest.raises(ConfigError, match="poll_batch cannot apply value_deserializer"):
            c.poll_batch(1.0)
        got = poll_until(c, RECORDS)  # nothing was consumed by the refused poll_batch
        assert [r.value for r in got] == [f"v{i}" for i in range(RECORDS)]


def test_a_failing_deserializer_stops_at_its_record(cluster, admin, face):
    topic = new_topic(cluster, admin)
    tp = TopicPartition(topic, 0)

    def value(data):
        if data == b"v12":
            raise ValueError("not this one")
        return data.decode()

    with make_consumer(
        face,
        cluster.bootstrap,
        config={"auto.offset.reset": "earliest"},
        value_deserializer=value,
    ) as c:
        c.assign([tp])
        got: list = []
        end = time.monotonic() + 20
        with pytest.raises(DeserializationError) as raised:
            while time.monotonic() < end:
                got += c.poll(0.5)
        # the records before it were handed out, once each; the next poll raised at it
        assert [r.offset for r in got] == list(range(12))
        error = raised.value
        assert (error.topic_partition, error.offset) == (tp, 12)
        assert f"value_deserializer failed on {topic}-0 at offset 12" in str(error)
        assert isinstance(error.__cause__, ValueError)
        assert c.position(tp) == 12
        with pytest.raises(DeserializationError):
            c.poll(5.0)  # still there
        c.seek(tp, 13)  # stepped over
        rest = poll_until(c, RECORDS - 13)
        assert [r.value for r in rest] == [f"v{i}" for i in range(13, RECORDS)]


def test_a_deserializer_of_neither_kind_is_refused_at_construction(broker, face):
    with pytest.raises(TypeError, match=r"value_deserializer is 'json': give a callable"):
        make_consumer(face, broker.bootstrap, value_deserializer="json")


USER = {
    "type": "record",
    "name": "User",
    "fields": [{"name": "id", "type": "int"}, {"name": "name", "type": "string"}],
}


def test_registry_deserializer_in_poll_and_poll_batch(broker, face, tmp_path):
    fastavro = pytest.importorskip("fastavro")
    from kafkawire.registry import Schema, SchemaRegistryClient
    from kafkawire.registry.deserializer import RegistryDeserializer
    from kafkawire.registry.errors import PayloadError

    registry = SchemaRegistryClient(tmp_path)
    schema_id = registry.register("users-value", Schema(json.dumps(USER))).schema_id

    def framed(value) -> bytes:
        out = io.BytesIO()
        fastavro.schemaless_writer(out, fastavro.parse_schema(USER), value)
        return b"\0" + struct.pack(">I", schema_id) + out.getvalue()

    users = [{"id": i, "name": f"u{i}"} for i in range(RECORDS)]
    with Client(broker.bootstrap, request_timeout=20) as admin:
        topic = f"ck-{uuid.uuid4().hex[:10]}"
        admin.create_topics({topic: 1})
        admin.produce_columns((topic, 0), [framed(u) for u in users])
        admin.produce_columns((topic, 0), [b"\x09not framed"])
    with make_consumer(
        face,
        broker.bootstrap,
        config={"auto.offset.reset": "earliest"},
        value_deserializer=RegistryDeserializer(registry),
    ) as c:
        tp = TopicPartition(topic, 0)
        c.assign([tp])
        got: list = []
        end = time.monotonic() + 20
        with pytest.raises(PayloadError, match=rf"^{topic}-0 offset {RECORDS}: magic byte 9"):
            while time.monotonic() < end:
                got += c.poll(0.5)
        assert [r.value for r in got] == users  # every record before the one that failed
        assert c.position(tp) == RECORDS
        c.seek(tp, 0)
        rows: list = []
        end = time.monotonic() + 20
        while len(rows) < RECORDS and time.monotonic() < end:
            batch = c.poll_batch(0.5, max_records=RECORDS - len(rows))
            rows += batch.to_arrow()["value"].to_pylist()
        assert rows == users
