"""Consumer-group and config administration (kafkawire/client/groups/admin.py and
kafkawire/client/admin.py) against a real broker (Tansu), through both faces, with groups that
librdkafka (confluent-kafka) joined and committed in. Tansu only: librdkafka's mock cluster has
none of these admin APIs (ListGroups, DescribeGroups, DeleteGroups, OffsetDelete, the configs
and partitions APIs), and the assignment test reads librdkafka's SyncGroup requests off Tansu's
recording proxy.

Tansu 0.x, as these tests see it: ListGroups lists the groups that have committed offsets,
with state "Unknown"; DescribeGroups gives no client id, host, assignor or assignment bytes,
and answers "Empty" for a group that does not exist (Kafka: "Dead"); DescribeConfigs lists
only the configs set on a topic, each with source DEFAULT_CONFIG; OffsetDelete,
CreatePartitions and the older AlterConfigs are not supported.
"""

from __future__ import annotations

import struct
import time
import uuid
from types import SimpleNamespace

import pytest

from kafkawire.client import Client, TopicPartition
from kafkawire.client.admin import ConfigEntry, ConfigResource, create_partitions_request
from kafkawire.client.errors import BrokerConnectionError
from kafkawire.client.groups.admin import GroupDescription, GroupListing, PartitionLag
from kafkawire.client.types import OffsetAndMetadata
from kafkawire.protocol import ApiKey, decode_request, encode_request, messages
from kafkawire.protocol.error_codes import UnsupportedVersionError
from tests.support.faces import FACES, make_client

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")

RECORDS = 3  # per partition, before the tests produce more


def consumer(bootstrap: str, group_id: str):
    return confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group_id,
            "client.id": f"client-{group_id}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            # Tansu waits out the session timeout before a first join completes: 6 s, not 45
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 500,
            "log_level": 3,
        }
    )


def join_and_commit(bootstrap: str, topic: str, group_ids: list[str], wanted: int) -> dict:
    """One consumer per group, joined at once (Tansu's joins take seconds), each reading
    ``wanted`` records and committing them; the consumers, still members."""
    consumers = {g: consumer(bootstrap, g) for g in group_ids}
    seen = dict.fromkeys(group_ids, 0)
    for c in consumers.values():
        c.subscribe([topic])
    deadline = time.monotonic() + 60
    while any(n < wanted for n in seen.values()) and time.monotonic() < deadline:
        for g, c in consumers.items():
            msg = c.poll(0.1)
            if msg is not None and msg.error() is None:
                seen[g] += 1
    assert all(n == wanted for n in seen.values()), seen
    for c in consumers.values():
        c.commit(asynchronous=False)
    return consumers


def requests_of(stream: bytes, api_key: int) -> list:
    """The requests of ``api_key`` in one direction of a captured connection."""
    found, pos = [], 0
    while pos + 4 <= len(stream):
        (size,) = struct.unpack_from(">i", stream, pos)
        frame = bytes(stream[pos + 4 : pos + 4 + size])
        pos += 4 + size
        if len(frame) == size:
            header, request = decode_request(frame)
            if header.request_api_key == api_key:
                found.append(request)
    return found


@pytest.fixture(scope="module")
def groups(broker):
    """A topic of two partitions (3 records each) and groups that consumed and committed them
    all: ``stable`` keeps its member for the module, ``left[face]`` lost theirs (closed)."""
    topic = f"ga-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap, request_timeout=20) as client:
        client.create_topics({topic: 2})
        for partition in range(2):
            client.produce_columns(TopicPartition(topic, partition), [b"v"] * RECORDS)
    stable = f"stable-{uuid.uuid4().hex[:8]}"
    left = {face: f"left-{face}-{uuid.uuid4().hex[:8]}" for face in FACES}
    with broker.proxy.capture() as capture:  # librdkafka's SyncGroup requests
        consumers = join_and_commit(broker.bootstrap, topic, [stable, *left.values()], 2 * RECORDS)
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    committed = {
        TopicPartition(p.topic, p.partition): p.offset
        for p in consumers[stable].committed(
            [confluent_kafka.TopicPartition(topic, p) for p in range(2)], timeout=10
        )
    }
    for group_id in left.values():
        consumers.pop(group_id).close()  # the member leaves
    yield SimpleNamespace(
        topic=topic,
        tps=tps,
        stable=stable,
        left=left,
        committed=committed,
        sync_groups=[
            r for c in capture.connections for r in requests_of(c.requests, ApiKey.SYNC_GROUP)
        ],
    )
    consumers[stable].close()


@pytest.fixture(scope="module", params=FACES)
def client(broker, request):
    with make_client(request.param, broker.bootstrap, request_timeout=20) as c:
        c.face = request.param
        yield c


def test_list_groups_sees_the_groups(client, groups):
    listed = {g.group_id: g for g in client.list_groups()}
    assert all(isinstance(g, GroupListing) for g in listed.values())
    stable = listed[groups.stable]
    assert stable.protocol_type == "consumer"
    assert stable.state in ("Stable", "Unknown")  # Tansu 0.x answers ListGroups v5 "Unknown"


def test_describe_groups_shows_the_member(client, groups):
    found = client.describe_groups([groups.stable, "no-such-group"])
    assert list(found) == [groups.stable, "no-such-group"]
    group = found[groups.stable]
    assert isinstance(group, GroupDescription)
    assert (group.group_id, group.state, group.protocol_type) == (
        groups.stable,
        "Stable",
        "consumer",
    )
    assert group.coordinator in client.metadata().brokers
    (member,) = group.members
    assert member.member_id.startswith(f"client-{groups.stable}")  # the client id, a uuid
    assert member.group_instance_id is None
    # Tansu sends empty member_assignment bytes (and no assignor name): nothing to decode.
    # Against Kafka, librdkafka's member owns both partitions.
    assert sorted(member.assignment) in ([], groups.tps)

    missing = found["no-such-group"]
    assert missing.members == []
    assert missing.state in ("Dead", "Empty")  # Kafka: "Dead"; Tansu 0.x: "Empty"

    # a lone id, not a list of characters
    assert list(client.describe_groups(groups.stable)) == [groups.stable]


def test_member_assignments_are_decoded(groups):
    """What a DescribeGroups member_assignment holds for a consumer group is what the group's
    leader sent in SyncGroup: here librdkafka's own bytes (Tansu's DescribeGroups leaves them
    out), decoded as describe_groups decodes them."""
    pytest.importorskip("kafkawire.client.groups.assignors")
    from kafkawire.client.groups.admin import _member

    (sync,) = [r for r in groups.sync_groups if r.group_id == groups.stable and r.assignments]
    (assignment,) = sync.assignments
    assert len(assignment.assignment) > 0
    member = messages.DescribeGroupsResponse.DescribedGroupMember(
        member_id=assignment.member_id,
        client_id="c",
        client_host="/127.0.0.1",
        member_assignment=assignment.assignment,
    )
    described = _member("consumer", member)
    assert described.member_id == assignment.member_id
    assert sorted(described.assignment) == groups.tps
    assert all(isinstance(tp, TopicPartition) for tp in described.assignment)
    # other protocols' assignments are not the consumer protocol's: left undecoded
    assert _member("connect", member).assignment == []


def test_list_group_offsets_equal_what_librdkafka_committed(client, groups):
    offsets = client.list_group_offsets(groups.stable)
    assert (
        {tp: o.offset for tp, o in offsets.items()}
        == groups.committed
        == {tp: RECORDS for tp in groups.tps}
    )
    assert all(isinstance(o, OffsetAndMetadata) and o.metadata == "" for o in offsets.values())
    some = client.list_group_offsets(groups.stable, [groups.tps[1]])
    assert some == {groups.tps[1]: offsets[groups.tps[1]]}
    # partitions with nothing committed are left out; so is a group that does not exist
    elsewhere = TopicPartition(groups.topic, 7)
    assert client.list_group_offsets(groups.stable, [elsewhere]) == {}
    assert client.list_group_offsets(f"never-{uuid.uuid4().hex[:8]}") == {}
    assert client.list_group_offsets(groups.stable, []) == {}


def test_group_lag_is_end_minus_committed(client, groups):
    tp0, tp1 = groups.tps
    before = client.latest_offsets(groups.tps)
    client.produce_columns(tp0, [b"more"] * 4)
    lag = client.group_lag(groups.stable)
    end0 = before[tp0] + 4
    assert lag == {
        tp0: PartitionLag(RECORDS, end0, end0 - RECORDS),
        tp1: PartitionLag(RECORDS, before[tp1], before[tp1] - RECORDS),
    }
    assert lag[tp1].lag == 0
    assert client.group_lag(f"never-{uuid.uuid4().hex[:8]}") == {}


def test_delete_groups_after_the_member_left(client, groups):
    group_id = groups.left[client.face]
    assert client.list_group_offsets(group_id)  # committed before its member left
    client.delete_groups([group_id])
    assert group_id not in {g.group_id for g in client.list_groups()}
    assert client.list_group_offsets(group_id) == {}
    gone = client.describe_groups([group_id])[group_id]
    assert gone.members == [] and gone.state in ("Dead", "Empty")
    # the other groups are untouched
    assert client.list_group_offsets(groups.stable)


def test_apis_tansu_lacks_fail_naming_the_api(client, groups):
    with pytest.raises(UnsupportedVersionError, match="the broker does not support OffsetDelete"):
        client.delete_group_offsets(groups.stable, [groups.tps[0]])
    with pytest.raises(
        UnsupportedVersionError, match="the broker does not support CreatePartitions"
    ):
        client.create_partitions({groups.topic: 3})
    with pytest.raises(UnsupportedVersionError, match="the broker does not support AlterConfigs"):
        client.alter_configs({("topic", groups.topic): {"retention.ms": "1"}}, incremental=False)
    assert client.partitions_for(groups.topic) == [0, 1]
    assert client.list_group_offsets(groups.stable)  # nothing was deleted


def test_create_partitions_request_encoding():
    request = create_partitions_request({"a": 3, "bc": 5}, timeout_ms=1234, validate_only=True)
    # version 0 as the protocol guide lays it out
    frame = encode_request(request, version=0, correlation_id=9, client_id="c")
    header = struct.pack(">hhih", 37, 0, 9, 1) + b"c"
    body = (
        struct.pack(">i", 2)
        + struct.pack(">h", 1)
        + b"a"
        + struct.pack(">ii", 3, -1)  # count, null assignments
        + struct.pack(">h", 2)
        + b"bc"
        + struct.pack(">ii", 5, -1)
        + struct.pack(">i?", 1234, True)
    )
    assert frame == struct.pack(">i", len(header + body)) + header + body
    for version in range(4):  # and every version back again
        frame = encode_request(request, version=version, size_prefix=False)
        header, decoded = decode_request(frame)
        assert (header.request_api_key, header.request_api_version) == (37, version)
        assert [(t.name, t.count, t.assignments) for t in decoded.topics] == [
            ("a", 3, None),
            ("bc", 5, None),
        ]
        assert (decoded.timeout_ms, decoded.validate_only) == (1234, True)


def test_configs_round_trip_on_a_topic(client):
    topic = f"cfg-{uuid.uuid4().hex[:8]}"
    client.create_topics([topic])
    resource = ConfigResource("topic", topic)
    # Tansu lists only the configs set on the topic: none yet (Kafka lists every config)
    before = client.describe_configs({"topic": [topic]})
    assert list(before) == [resource]

    client.alter_configs({resource: {"retention.ms": "1000", "cleanup.policy": "compact"}})
    configs = client.describe_configs([resource])[resource]
    assert configs["retention.ms"].value == "1000"
    assert configs["cleanup.policy"].value == "compact"
    entry = configs["retention.ms"]
    assert isinstance(entry, ConfigEntry)
    assert (entry.name, entry.is_read_only, entry.is_sensitive) == ("retention.ms", False, False)
    # Tansu 0.x reports a config set on the topic as DEFAULT_CONFIG (Kafka:
    # DYNAMIC_TOPIC_CONFIG, is_default False); is_default follows the source, as in Kafka
    assert entry.source in ("DYNAMIC_TOPIC_CONFIG", "DEFAULT_CONFIG")
    assert entry.is_default == (entry.source == "DEFAULT_CONFIG")

    # incremental: a set leaves the other configs alone, None deletes one
    client.alter_configs({("topic", topic): {"retention.ms": "2000"}})
    client.alter_configs({resource: {"cleanup.policy": None}})
    after = client.describe_configs(resource)[resource]
    assert after["retention.ms"].value == "2000"
    assert "cleanup.policy" not in after or after["cleanup.policy"].is_default

    # the same resource whichever way it is named
    for named in ([("topic", topic)], [(2, topic)], {"topic": topic}, ("topic", topic)):
        assert list(client.describe_configs(named)) == [resource]


def test_broker_configs_go_to_that_broker(client):
    node = min(client.metadata().brokers)
    resource = ConfigResource("broker", str(node))
    found = client.describe_configs({"broker": [node]})
    assert list(found) == [resource]  # Tansu answers with no configs
    with pytest.raises(BrokerConnectionError, match="broker 987654 is not in the cluster"):
        client.describe_configs({"broker": ["987654"]})
    with pytest.raises(ValueError, match="unknown config resource type 'bucket'"):
        client.describe_configs({"bucket": ["x"]})
    with pytest.raises(ValueError, match="named by a node id"):
        client.describe_configs({"broker": ["localhost"]})
