"""The share-group APIs (KIP-932) at version 1, the stable version brokers speak (Apache Kafka
4.1 on, librdkafka's mock): the schemas' v1 layouts encode and decode, and librdkafka's mock
cluster answers them as kafkawire reads them. ShareGroupHeartbeat joins a share group,
ShareFetch acquires records, ShareAcknowledge settles them; librdkafka's own ShareConsumer then
reads what is left of the same group."""

from __future__ import annotations

import time
import uuid

import pytest

from kafkawire.errors import EncodeError
from kafkawire.protocol import messages as m
from kafkawire.protocol._codec import (
    decode_request,
    decode_response,
    encode_request,
    encode_response,
)
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.protocol.versions import negotiate
from kafkawire.records import read_batches

SHARE_APIS = {
    "ShareGroupHeartbeat": 76,
    "ShareGroupDescribe": 77,
    "ShareFetch": 78,
    "ShareAcknowledge": 79,
}
ACCEPT, RELEASE, REJECT = 1, 2, 3

SF = m.ShareFetchRequest
SA = m.ShareAcknowledgeRequest
TOPIC_ID = uuid.UUID("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")


def round_trip_request(msg, version):
    frame = encode_request(msg, version=version, correlation_id=7, client_id="share")
    header, back = decode_request(frame, size_prefix=True)
    assert (header.request_api_key, header.request_api_version) == (msg.api_key, version)
    return frame, back


def round_trip_response(msg, version):
    frame = encode_response(msg, version=version, correlation_id=7)
    _, back = decode_response(frame, api_key=msg.api_key, api_version=version, size_prefix=True)
    return frame, back


def fetch_request(**overrides):
    fields = dict(
        group_id="g",
        member_id="member",
        share_session_epoch=3,
        max_wait_ms=500,
        min_bytes=1,
        max_bytes=1 << 20,
        topics=[
            SF.FetchTopic(
                topic_id=TOPIC_ID,
                partitions=[
                    SF.FetchPartition(
                        partition_index=2,
                        acknowledgement_batches=[
                            SF.AcknowledgementBatch(
                                first_offset=10, last_offset=12, acknowledge_types=[1, 0, 3]
                            )
                        ],
                    )
                ],
            )
        ],
        forgotten_topics_data=[SF.ForgottenTopic(topic_id=TOPIC_ID, partitions=[5])],
    )
    fields.update(overrides)
    return SF(**fields)


# ---- the schemas -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SHARE_APIS))
def test_every_share_api_speaks_versions_0_and_1(name):
    for kind in ("Request", "Response"):
        cls = getattr(m, name + kind)
        assert cls.api_key == SHARE_APIS[name]
        assert cls.valid_versions == range(2)
        assert cls.latest_version == 1  # stable at 1: no latestVersionUnstable any more


def test_share_fetch_request_v1_has_max_records_and_batch_size_not_partition_max_bytes():
    v1 = fetch_request(max_records=500, batch_size=100)
    frame1, back = round_trip_request(v1, 1)
    assert back == v1
    assert (back.max_records, back.batch_size) == (500, 100)
    # the same request at version 0: PartitionMaxBytes (int32) per partition instead of
    # MaxRecords and BatchSize (two int32s): 4 bytes shorter with one partition
    v0 = fetch_request(topics=[SF.FetchTopic(topic_id=TOPIC_ID, partitions=[])])
    v0.topics[0].partitions.append(
        SF.FetchPartition(
            partition_index=2,
            partition_max_bytes=1 << 20,
            acknowledgement_batches=v1.topics[0].partitions[0].acknowledgement_batches,
        )
    )
    frame0, back0 = round_trip_request(v0, 0)
    assert back0.topics[0].partitions[0].partition_max_bytes == 1 << 20
    assert len(frame1) - len(frame0) == 4
    # the v1 bytes: ... MaxBytes, MaxRecords, BatchSize right after it, big-endian
    tail = (1 << 20).to_bytes(4, "big") + (500).to_bytes(4, "big") + (100).to_bytes(4, "big")
    assert tail in frame1
    # a v1-only value cannot go out at version 0, nor a v0-only one at version 1
    with pytest.raises(EncodeError, match=r"ShareFetchRequest\.max_records"):
        encode_request(v1, version=0)
    with pytest.raises(EncodeError, match=r"partitions\[0\]\.partition_max_bytes"):
        encode_request(v0, version=1)


def test_share_fetch_response_v1_has_the_acquisition_lock_timeout():
    R = m.ShareFetchResponse
    records = b"\x00" * 70  # opaque to the codec
    response = R(
        acquisition_lock_timeout_ms=30000,
        responses=[
            R.ShareFetchableTopicResponse(
                topic_id=TOPIC_ID,
                partitions=[
                    R.PartitionData(
                        partition_index=1,
                        records=records,
                        acquired_records=[
                            R.AcquiredRecords(first_offset=4, last_offset=9, delivery_count=2)
                        ],
                    )
                ],
            )
        ],
        node_endpoints=[R.NodeEndpoint(node_id=3, host="h", port=9092, rack=None)],
    )
    frame1, back = round_trip_response(response, 1)
    assert back.acquisition_lock_timeout_ms == 30000
    assert bytes(back.responses[0].partitions[0].records) == records
    acquired = back.responses[0].partitions[0].acquired_records[0]
    assert (acquired.first_offset, acquired.last_offset, acquired.delivery_count) == (4, 9, 2)
    response.acquisition_lock_timeout_ms = 0
    frame0, _ = round_trip_response(response, 0)
    assert len(frame1) - len(frame0) == 4
    assert (30000).to_bytes(4, "big") in frame1


def test_share_fetch_response_records_are_nullable_at_version_0_only():
    R = m.ShareFetchResponse
    response = R(
        responses=[
            R.ShareFetchableTopicResponse(
                topic_id=TOPIC_ID, partitions=[R.PartitionData(partition_index=0, records=None)]
            )
        ]
    )
    _, back = round_trip_response(response, 0)
    assert back.responses[0].partitions[0].records is None
    with pytest.raises(EncodeError, match="not nullable at this version"):
        encode_response(response, version=1, correlation_id=1)


def test_share_group_heartbeat_and_acknowledge_round_trip_at_v1():
    request = m.ShareGroupHeartbeatRequest(
        group_id="g", member_id="m", member_epoch=0, rack_id=None, subscribed_topic_names=["a"]
    )
    assert round_trip_request(request, 1)[1] == request
    H = m.ShareGroupHeartbeatResponse
    response = H(
        member_id="m",
        member_epoch=2,
        heartbeat_interval_ms=5000,
        assignment=H.Assignment(
            topic_partitions=[H.TopicPartitions(topic_id=TOPIC_ID, partitions=[1, 0])]
        ),
    )
    assert round_trip_response(response, 1)[1] == response
    ack = SA(
        group_id="g",
        member_id="m",
        share_session_epoch=-1,
        topics=[
            SA.AcknowledgeTopic(
                topic_id=TOPIC_ID,
                partitions=[
                    SA.AcknowledgePartition(
                        partition_index=0,
                        acknowledgement_batches=[
                            SA.AcknowledgementBatch(
                                first_offset=0, last_offset=4, acknowledge_types=[ACCEPT]
                            )
                        ],
                    )
                ],
            )
        ],
    )
    assert round_trip_request(ack, 1)[1] == ack
    describe = m.ShareGroupDescribeRequest(group_ids=["g"], include_authorized_operations=True)
    assert round_trip_request(describe, 1)[1] == describe


# ---- against librdkafka's mock cluster ------------------------------------------------------


@pytest.fixture(scope="module")
def share_mock():
    """A mock cluster of its own: its share groups start at the log's beginning (a setting of
    the whole cluster, kept off the session's shared mock)."""
    pytest.importorskip("confluent_kafka")
    from tests.support.mock_cluster import MockCluster

    cluster = MockCluster(3)
    cluster.set_share_auto_offset_reset(earliest=True)
    yield cluster
    cluster.close()


class Wire:
    """One request at a time through kafkawire's SyncTransport (ApiVersions negotiation,
    routing by node id), each decoded response returned."""

    def __init__(self, bootstrap: str) -> None:
        from kafkawire.client.config.client import client_config
        from kafkawire.client.core import ClientCore
        from kafkawire.client.sync_transport import SyncTransport

        self.core = ClientCore(client_config(bootstrap, request_timeout=10))
        self.transport = SyncTransport(self.core)

    def run(self, flow):
        return self.transport.run(flow)

    def call(self, node, request):
        def flow():
            return (yield self.core.call(node, request))

        return self.run(flow())

    def close(self) -> None:
        self.transport.close()


def produce(bootstrap: str, topic: str, per_partition: dict[int, list[bytes]]) -> None:
    from kafkawire.client import Client, TopicPartition

    with Client(bootstrap, request_timeout=10) as client:
        for partition, values in per_partition.items():
            client.produce_columns(TopicPartition(topic, partition), values)


def acknowledge(group, member, epoch, topic_id, first, last, types, partition=0):
    """A ShareAcknowledgeRequest of one range of one partition."""
    batch = SA.AcknowledgementBatch(first_offset=first, last_offset=last, acknowledge_types=types)
    return SA(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        topics=[
            SA.AcknowledgeTopic(
                topic_id=topic_id,
                partitions=[
                    SA.AcknowledgePartition(
                        partition_index=partition, acknowledgement_batches=[batch]
                    )
                ],
            )
        ],
    )


def acquired(response, partition):
    ((topic,),) = [response.responses]
    (data,) = [p for p in topic.partitions if p.partition_index == partition]
    assert (data.error_code, data.acknowledge_error_code) == (0, 0), data
    ranges = [(a.first_offset, a.last_offset, a.delivery_count) for a in data.acquired_records]
    values = {
        record.offset: record.value
        for batch in read_batches(data.records)
        for record in batch
        if any(first <= record.offset <= last for first, last, _ in ranges)
    }
    return ranges, values


def test_the_mock_announces_the_share_apis_at_version_1(share_mock):
    from kafkawire.client.flow import ANY_BROKER

    wire = Wire(share_mock.bootstrap)
    try:
        answer = wire.call(ANY_BROKER, m.ApiVersionsRequest())
    finally:
        wire.close()
    announced = {a.api_key: (a.min_version, a.max_version) for a in answer.api_keys}
    for key in (76, 78, 79):
        assert announced[key] == (1, 1)
    assert 77 not in announced  # the mock has no ShareGroupDescribe
    chosen = negotiate(answer)
    assert [chosen[key] for key in (76, 78, 79)] == [1, 1, 1]


def test_heartbeat_fetch_acknowledge_v1_against_the_mock(share_mock):
    from kafkawire.client.flow import ANY_BROKER

    topic = f"share-wire-{uuid.uuid4().hex[:8]}"
    group = f"share-group-{uuid.uuid4().hex[:8]}"
    share_mock.create_topic(topic, partitions=2)
    values = {p: [b"p%d-%d" % (p, i) for i in range(5)] for p in (0, 1)}
    produce(share_mock.bootstrap, topic, values)
    wire = Wire(share_mock.bootstrap)
    try:
        meta = wire.run(wire.core.metadata([topic]))
        topic_id = meta.topics[topic].topic_id
        leader = meta.topics[topic].partitions[0].leader
        coordinator = wire.call(ANY_BROKER, m.FindCoordinatorRequest(key=group, key_type=0))
        assert coordinator.error_code == 0
        node = coordinator.node_id

        # join: member epoch 0, the member id made by the client (KIP-1082)
        member = str(uuid.uuid4())
        joined = wire.call(
            node,
            m.ShareGroupHeartbeatRequest(
                group_id=group, member_id=member, member_epoch=0, subscribed_topic_names=[topic]
            ),
        )
        assert joined.error_code == 0, joined.error_message
        assert joined.member_id == member
        assert joined.member_epoch > 0
        assert joined.heartbeat_interval_ms > 0
        assert {t.topic_id: sorted(t.partitions) for t in joined.assignment.topic_partitions} == {
            topic_id: [0, 1]
        }

        def share_fetch(epoch, acks=(), partitions=(0,)):
            return wire.call(
                leader,
                SF(
                    group_id=group,
                    member_id=member,
                    share_session_epoch=epoch,
                    max_wait_ms=100,
                    min_bytes=1,
                    max_bytes=1 << 20,
                    max_records=500,
                    batch_size=500,
                    topics=[
                        SF.FetchTopic(
                            topic_id=topic_id,
                            partitions=[
                                SF.FetchPartition(
                                    partition_index=p,
                                    acknowledgement_batches=[
                                        SF.AcknowledgementBatch(
                                            first_offset=a, last_offset=b, acknowledge_types=t
                                        )
                                        for a, b, t in acks
                                    ],
                                )
                                for p in partitions
                            ],
                        )
                    ],
                ),
            )

        # open the share session (epoch 0): the five records, acquired once
        first = share_fetch(0)
        assert first.error_code == 0
        assert first.acquisition_lock_timeout_ms > 0
        ranges, got = acquired(first, 0)
        assert ranges == [(0, 4, 1)]
        assert got == dict(enumerate(values[0]))

        # settle them in the session (epoch 1): accept 0-2, release 3-4 (one type an offset)
        ack = wire.call(
            leader, acknowledge(group, member, 1, topic_id, 0, 4, [ACCEPT] * 3 + [RELEASE] * 2)
        )
        assert ack.error_code == 0
        assert [(p.partition_index, p.error_code) for p in ack.responses[0].partitions] == [(0, 0)]

        # the next fetch (epoch 2): only the released ones, delivered a second time
        second = share_fetch(2)
        ranges, got = acquired(second, 0)
        assert ranges == [(3, 4, 2)]
        assert got == {3: values[0][3], 4: values[0][4]}

        # reject 3, accept 4, piggy-backed on a fetch (epoch 3): nothing is left to acquire
        third = share_fetch(3, acks=[(3, 4, [REJECT, ACCEPT])])
        assert acquired(third, 0) == ([], {})

        # close the session (ShareFetch epoch -1, nothing to fetch), then a new one sees none
        closed = share_fetch(-1, partitions=())
        assert closed.error_code == 0
        reopened = share_fetch(0)
        assert acquired(reopened, 0) == ([], {})
        # a session epoch out of turn is refused (1 is next, 5 is not)
        skipped = share_fetch(5)
        assert skipped.error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH

        # leave (member epoch -1): the member is gone, a heartbeat of it is refused
        left = wire.call(
            node, m.ShareGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=-1)
        )
        assert left.error_code == 0
        stale = wire.call(
            node,
            m.ShareGroupHeartbeatRequest(
                group_id=group, member_id=member, member_epoch=joined.member_epoch
            ),
        )
        assert stale.error_code == ErrorCode.UNKNOWN_MEMBER_ID
    finally:
        wire.close()

    # librdkafka's ShareConsumer in the same group: partition 1's records, none of partition 0
    # (all settled above)
    confluent_kafka = pytest.importorskip("confluent_kafka")
    if not hasattr(confluent_kafka, "ShareConsumer"):
        pytest.fail(f"confluent_kafka {confluent_kafka.version()} has no ShareConsumer")
    consumer = confluent_kafka.ShareConsumer(
        {"bootstrap.servers": share_mock.bootstrap, "group.id": group}
    )
    seen = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + 30
        while len(seen) < len(values[1]) and time.monotonic() < deadline:
            for msg in _polled(consumer.poll(0.5)):
                assert msg.error() is None, msg.error()
                seen.append((msg.partition(), msg.offset(), msg.value()))
        for msg in _polled(consumer.poll(0.5)):  # nothing more comes
            seen.append((msg.partition(), msg.offset(), msg.value()))
    finally:
        consumer.close()
    assert sorted(seen) == [(1, i, v) for i, v in enumerate(values[1])]


def _polled(result):
    """ShareConsumer.poll's answer (a Messages container; None or one Message tolerated) as
    a list."""
    import confluent_kafka

    if result is None:
        return []
    return [result] if isinstance(result, confluent_kafka.Message) else list(result)
