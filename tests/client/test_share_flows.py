"""kafkawire/client/share/membership.py's and session.py's flows (share groups, KIP-932) driven by
kafkawire's transports against librdkafka's mock cluster: a member joins and gets its assignment
by name, a share session acquires records and settles them (accept, release: back with delivery
count 2, reject: never again), acknowledgements ride on the next ShareFetch or go alone, the
session closes and the member leaves. Then what needs no broker: acknowledgement batches, gaps,
the checks on acknowledge."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from kafkawire.client import Client, TopicPartition
from kafkawire.client.config.client import client_config
from kafkawire.client.core import ClientCore
from kafkawire.client.share.membership import ShareGroupMember, TopicIdPartition
from kafkawire.client.share.session import AcknowledgeType, Acquired, ShareSession
from kafkawire.client.sync_transport import SyncTransport
from kafkawire.protocol import ApiKey
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import BrokerError, ErrorCode

ACCEPT, RELEASE, REJECT = AcknowledgeType.ACCEPT, AcknowledgeType.RELEASE, AcknowledgeType.REJECT


@pytest.fixture(scope="module")
def share_mock():
    """A mock cluster of its own: share groups start at the log's beginning and give out a
    1 s heartbeat interval (settings of the whole cluster, kept off the shared mock)."""
    pytest.importorskip("confluent_kafka")
    from tests.support.mock_cluster import share_cluster

    cluster = share_cluster()
    yield cluster
    cluster.close()


class Driver:
    """A ClientCore and the SyncTransport that runs flows on it, as kafkawire.Client does."""

    def __init__(self, bootstrap: str) -> None:
        self.core = ClientCore(client_config(bootstrap, request_timeout=10))
        self.transport = SyncTransport(self.core)

    def run(self, flow):
        return self.transport.run(flow)

    def close(self) -> None:
        self.transport.close()


@pytest.fixture
def driver(share_mock):
    d = Driver(share_mock.bootstrap)
    yield d
    d.close()


def new_topic(share_mock, partitions: int, per_partition: int) -> tuple[str, dict]:
    topic = f"share-flow-{uuid.uuid4().hex[:8]}"
    share_mock.create_topic(topic, partitions=partitions)
    values = {p: [b"%d-%d" % (p, i) for i in range(per_partition)] for p in range(partitions)}
    with Client(share_mock.bootstrap, request_timeout=10) as client:
        for p, vs in values.items():
            if not vs:
                continue
            client.produce_columns(TopicPartition(topic, p), vs)
    return topic, values


def joined_member(driver, topic: str) -> tuple[ShareGroupMember, dict]:
    member = ShareGroupMember(f"share-{uuid.uuid4().hex[:8]}")
    driver.run(member.join(driver.core, [topic]))
    return member, driver.run(member.assignment(driver.core))


def session_for(driver, member, assignment, partition: int) -> tuple[ShareSession, object]:
    tp = assignment[TopicPartition(next(iter(assignment)).topic, partition)]
    leader = driver.core.cluster.topics[next(iter(assignment)).topic].partitions[partition].leader
    session = ShareSession(leader, member.group_id, member.member_id, names=member.topic_names())
    return session, tp


def offsets(records) -> list[tuple[int, int]]:
    return [(r.offset, r.delivery_count) for r in records]


def test_join_assigns_the_partitions_by_name_and_leave_takes_the_member_out(share_mock, driver):
    topic, _ = new_topic(share_mock, partitions=3, per_partition=0)
    member, assignment = joined_member(driver, topic)
    assert member.joined and member.epoch > 0
    assert member.interval == 1.0  # the coordinator's heartbeat interval
    topic_id = driver.core.cluster.topics[topic].topic_id
    assert assignment == {TopicPartition(topic, p): TopicIdPartition(topic_id, p) for p in range(3)}
    assert member.assigned_ids == {topic_id: frozenset({0, 1, 2})}
    # a heartbeat of a member in the group keeps its epoch, the assignment unchanged
    epoch = member.epoch
    driver.run(member.heartbeat(driver.core))
    assert member.epoch == epoch and not member.assignment_changed

    member_id, node = member.member_id, member.coordinator
    driver.run(member.leave(driver.core))
    assert not member.joined and member.assigned_ids == {}

    def stale():
        return (
            yield driver.core.call(
                node,
                m.ShareGroupHeartbeatRequest(
                    group_id=member.group_id, member_id=member_id, member_epoch=epoch
                ),
            )
        )

    assert driver.run(stale()).error_code == ErrorCode.UNKNOWN_MEMBER_ID
    # a fenced member joins again with the same member id
    driver.run(member.join(driver.core))
    assert member.joined and member.member_id == member_id
    driver.run(member.leave(driver.core))


def test_accept_release_reject_through_a_share_session(share_mock, driver):
    topic, values = new_topic(share_mock, partitions=2, per_partition=6)
    member, assignment = joined_member(driver, topic)
    session, tp = session_for(driver, member, assignment, 0)
    share_mock.start_tracking()
    try:
        # epoch 0 opens the session: all six records, first delivery
        first = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
        assert session.epoch == 1
        assert first.acquisition_lock_timeout_ms > 0 and not first.errors
        assert offsets(first.records) == [(o, 1) for o in range(6)]
        assert [r.value for r in first.records] == values[0]
        assert {(r.topic, r.partition) for r in first.records} == {(topic, 0)}
        assert session.in_flight == {tp: dict.fromkeys(range(6), 1)}

        # accept 0-1, release 2-3, reject 4; 5 stays acquired (not acknowledged)
        for offset, kind in [(0, ACCEPT), (1, ACCEPT), (2, RELEASE), (3, RELEASE), (4, REJECT)]:
            session.acknowledge(tp, offset, kind)
        assert session.pending == {tp: {0: 1, 1: 1, 2: 2, 3: 2, 4: 3}}
        with pytest.raises(ValueError, match="acknowledged already"):
            session.acknowledge(tp, 4, ACCEPT)  # settled already

        # the acknowledgements ride on the next ShareFetch: the released come back, second
        # delivery; offset 5, still acquired by this member, is not handed out again
        share_mock.requests()  # clear
        second = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
        sent = [key for _, key in share_mock.requests()]
        assert sent == [ApiKey.SHARE_FETCH]  # no ShareAcknowledge: piggy-backed
        assert session.epoch == 2 and session.pending == {}
        assert not second.acknowledge_errors
        # (the mock names 5 again, delivery count 1: the session hands a record out once)
        assert offsets(second.records) == [(2, 2), (3, 2)]
        assert [r.value for r in second.records] == values[0][2:4]
        assert session.in_flight == {tp: {2: 2, 3: 2, 5: 1}}

        # release 2 once more, accept everything else, alone in a ShareAcknowledge
        session.acknowledge(tp, 2, RELEASE)
        session.acknowledge_all(ACCEPT)
        assert session.in_flight == {}
        codes = driver.run(session.commit(driver.core))
        assert codes == {tp: 0}
        assert [key for _, key in share_mock.requests()] == [ApiKey.SHARE_ACKNOWLEDGE]
        assert session.epoch == 3

        # only 2 comes back, third delivery; the rejected 4 and the accepted never do
        third = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
        assert offsets(third.records) == [(2, 3)]
        session.acknowledge(tp, 2, ACCEPT)
        fourth = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
        assert fourth.records == [] and not fourth.acknowledge_errors
        assert session.epoch == 5

        # close (epoch -1), then the member leaves
        driver.run(session.close(driver.core))
        assert session.epoch == 0
        assert [key for _, key in share_mock.requests()][-1] == ApiKey.SHARE_FETCH
        driver.run(member.leave(driver.core))
    finally:
        share_mock.stop_tracking()

    # a new member of the group finds partition 0 done and partition 1 untouched
    again = ShareGroupMember(member.group_id)
    driver.run(again.join(driver.core, [topic]))
    assignment = driver.run(again.assignment(driver.core))
    got = {}
    for partition in (0, 1):
        s, p = session_for(driver, again, assignment, partition)
        fetched = driver.run(s.fetch(driver.core, [p], max_wait_ms=100))
        got[partition] = [r.value for r in fetched.records]
        assert all(r.delivery_count == 1 for r in fetched.records)
        s.acknowledge_all(ACCEPT)
        driver.run(s.close(driver.core))
    assert got == {0: [], 1: values[1]}
    driver.run(again.leave(driver.core))


def test_close_with_acknowledgements_and_without_releases_what_is_held(share_mock, driver):
    topic, values = new_topic(share_mock, partitions=1, per_partition=4)
    member, assignment = joined_member(driver, topic)
    session, tp = session_for(driver, member, assignment, 0)
    first = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
    assert offsets(first.records) == [(o, 1) for o in range(4)]
    session.acknowledge(tp, 0, ACCEPT)
    share_mock.start_tracking()
    try:
        # pending acknowledgements: the close is a ShareAcknowledge with epoch -1
        assert driver.run(session.close(driver.core)) == {tp: 0}
        assert [key for _, key in share_mock.requests()] == [ApiKey.SHARE_ACKNOWLEDGE]
    finally:
        share_mock.stop_tracking()
    assert session.epoch == 0 and session.in_flight == {} and session.pending == {}
    # the three not acknowledged were released by the close: a new session gets them again
    second = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
    assert offsets(second.records) == [(1, 2), (2, 2), (3, 2)]
    assert [r.value for r in second.records] == values[0][1:]
    session.acknowledge_all(REJECT)
    driver.run(session.close(driver.core))
    third = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
    assert third.records == []
    driver.run(session.close(driver.core))
    driver.run(member.leave(driver.core))


def test_a_lost_session_is_reopened_by_the_next_fetch(share_mock, driver):
    topic, _ = new_topic(share_mock, partitions=1, per_partition=2)
    member, assignment = joined_member(driver, topic)
    session, tp = session_for(driver, member, assignment, 0)
    first = driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
    assert len(first.records) == 2
    session.acknowledge(tp, 0, ACCEPT)
    session.epoch = 7  # out of turn: the broker expects 1
    with pytest.raises(BrokerError) as caught:
        driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
    assert caught.value.code in (
        ErrorCode.INVALID_SHARE_SESSION_EPOCH,
        ErrorCode.SHARE_SESSION_NOT_FOUND,
    )
    assert session.epoch == 0 and session.pending == {} and session.in_flight == {}
    driver.run(session.fetch(driver.core, [tp], max_wait_ms=100))
    assert session.epoch == 1
    driver.run(session.close(driver.core))
    driver.run(member.leave(driver.core))


def test_the_asyncio_transport_drives_the_same_flows(share_mock):
    from kafkawire.client.aio_transport import AsyncTransport

    topic, values = new_topic(share_mock, partitions=1, per_partition=3)

    async def main():
        core = ClientCore(client_config(share_mock.bootstrap, request_timeout=10))
        transport = AsyncTransport(core)
        try:
            member = ShareGroupMember(f"share-{uuid.uuid4().hex[:8]}")
            await transport.run(member.join(core, [topic]))
            assignment = await transport.run(member.assignment(core))
            (tp,) = assignment.values()
            leader = core.cluster.topics[topic].partitions[0].leader
            session = ShareSession(leader, member.group_id, member.member_id)
            fetched = await transport.run(session.fetch(core, [tp], max_wait_ms=100))
            session.acknowledge_all(ACCEPT)
            await transport.run(session.close(core))
            await transport.run(member.leave(core))
            return fetched
        finally:
            await transport.close()

    fetched = asyncio.run(main())
    assert [r.value for r in fetched.records] == values[0]
    assert {r.topic for r in fetched.records} == {None}  # no names given to that session


# ---- no broker -----------------------------------------------------------------------------

TID = uuid.UUID(int=7)
TP = TopicIdPartition(TID, 0)


def held_session(offsets_held, deadline: float = 1e18) -> ShareSession:
    """A session holding ``offsets_held`` (delivery count 1), as a ShareFetch leaves it."""
    session = ShareSession(1, "g", "m")
    for offset in offsets_held:
        session._acquired.setdefault(TP, []).append(Acquired(TP, offset, offset, 1, deadline))
    return session


def test_acknowledgement_batches_are_runs_of_consecutive_offsets():
    session = held_session([5, 6, 7, 9, 10, 12])
    for offset, kind in [(5, ACCEPT), (6, ACCEPT), (7, RELEASE), (9, REJECT), (10, REJECT)]:
        session.acknowledge(TP, offset, kind)
    B = m.ShareFetchRequest.AcknowledgementBatch
    batches = session._batches(TP, B)
    assert [(b.first_offset, b.last_offset, b.acknowledge_types) for b in batches] == [
        (5, 7, [1, 1, 2]),  # mixed: one type an offset
        (9, 10, [3]),  # one type for the run
    ]
    assert session.in_flight == {TP: {12: 1}}


def test_acknowledge_refuses_what_is_not_held_and_gap():
    session = held_session([1])
    with pytest.raises(ValueError, match="not acquired"):
        session.acknowledge(TP, 2, ACCEPT)
    with pytest.raises(ValueError, match="GAP"):
        session.acknowledge(TP, 1, AcknowledgeType.GAP)
    with pytest.raises(ValueError):
        session.acknowledge(TP, 1, 9)
    session.acknowledge(TP, 1, RELEASE)
    assert session.pending == {TP: {1: 2}}


def test_offsets_of_an_acquired_range_without_records_are_acknowledged_as_gaps():
    from kafkawire.records import build_batches

    R = m.ShareFetchResponse
    records = b"".join(build_batches([b"a", b"b"], base_offset=10))  # offsets 10, 11
    part = R.PartitionData(
        partition_index=0,
        records=records,
        acquired_records=[R.AcquiredRecords(first_offset=10, last_offset=13, delivery_count=1)],
    )
    session = ShareSession(1, "g", "m", names={TID: "t"})
    got = [r for rows in session._acquired_rows(TP, part, 1e18) for r in rows.records()]
    assert [(r.topic, r.offset, r.value) for r in got] == [("t", 10, b"a"), ("t", 11, b"b")]
    assert session.in_flight == {TP: {10: 1, 11: 1}}
    assert session.pending == {TP: {12: 0, 13: 0}}  # GAP


UNNAMED = str(TID)  # the member got no names: the callback names topics by their id


def sessions_on_two_brokers():
    """A share consumer core with a session on broker 1 (partition 0) and one on broker 2
    (partition 1), each with offset 4 accepted and not sent; what its callback is told."""
    from kafkawire.client.consumer.config import consumer_config
    from kafkawire.client.share.core import ShareConsumerCore

    client, consumer = consumer_config("127.0.0.1:9", group_id="g")
    share = ShareConsumerCore(ClientCore(client), consumer, explicit=True)
    reported = []
    share.on_commit = lambda offsets, error: reported.append((offsets, error))
    for node, partition in ((1, 0), (2, 1)):
        session = ShareSession(node, "g", "m", names={TID: "t"})
        tp = TopicIdPartition(TID, partition)
        session._acquired[tp] = [Acquired(tp, 4, 4, 1, 1e18)]
        session.epoch = 3
        session.acknowledge(tp, 4, ACCEPT)
        share.sessions[node] = session
    return share, reported


def started(flow, effect) -> tuple[object, dict]:
    """Run ``flow``'s Starts from ``effect`` on (tickets 1, 2, ...): the next effect and the
    requests started, by ticket."""
    from kafkawire.client.flow import Start

    requests = {}
    while isinstance(effect, Start):
        ticket = len(requests) + 1
        requests[ticket] = effect.call.request
        effect = flow.send(ticket)
    return effect, requests


def acknowledged(request):
    """A ShareAcknowledge's answer taking every acknowledgement of ``request``."""
    R = m.ShareAcknowledgeResponse
    partitions = [p.partition_index for t in request.topics for p in t.partitions]
    return R(
        responses=[
            R.ShareAcknowledgeTopicResponse(
                topic_id=TID, partitions=[R.PartitionData(partition_index=p) for p in partitions]
            )
        ]
    )


def outcomes(reported) -> dict:
    return {tp: (offs, error) for offsets, error in reported for tp, offs in offsets.items()}


def test_closing_sessions_on_two_brokers_waits_for_both_answers():
    """A Wait ends at the first answers: closing sessions on two brokers, the later answer
    still settles its broker's acknowledgements; one that never comes before the caller's
    deadline is reported as unanswered, naming the broker."""
    from kafkawire.client.flow import Wait

    share, reported = sessions_on_two_brokers()
    flow = share.close_sessions()
    effect, requests = started(flow, next(flow))
    assert isinstance(effect, Wait) and sorted(effect.tickets) == [1, 2]
    effect = flow.send({1: acknowledged(requests[1])})  # broker 1 answers first
    assert isinstance(effect, Wait) and effect.tickets == [2]  # the close waits on broker 2
    with pytest.raises(StopIteration):
        flow.send({2: acknowledged(requests[2])})
    assert outcomes(reported) == {
        TopicPartition(UNNAMED, 0): ({4}, None),
        TopicPartition(UNNAMED, 1): ({4}, None),
    }
    assert share.sessions == {}

    share, reported = sessions_on_two_brokers()
    flow = share.close_sessions()
    _, requests = started(flow, next(flow))
    flow.send({2: acknowledged(requests[2])})
    flow.close()  # the caller's deadline came first
    got = outcomes(reported)
    assert got[TopicPartition(UNNAMED, 1)] == ({4}, None)
    offsets, error = got[TopicPartition(UNNAMED, 0)]
    assert offsets == {4} and "no answer to the close from broker 1" in str(error)
    assert share.sessions == {}


def test_a_failed_answer_in_flight_does_not_stop_the_close():
    """A request in flight when the close starts is refused for good: the other broker's
    session is still closed with its acknowledgements, then the refusal is raised."""
    from kafkawire.client.flow import Wait
    from kafkawire.client.share.core import _Request
    from kafkawire.protocol.error_codes import error_class

    share, reported = sessions_on_two_brokers()
    first = share.sessions[1]
    request, sent = first.acknowledge_request(first.pending_partitions())
    share._in_flight[0] = _Request(first, request, [], sent, 0.0)
    refusal = error_class(ErrorCode.GROUP_AUTHORIZATION_FAILED)("refused")
    flow = share.close_sessions()
    effect = next(flow)
    assert isinstance(effect, Wait) and effect.tickets == [0]
    effect, requests = started(flow, flow.send({0: refusal}))
    assert list(requests) == [1]  # broker 2's close (broker 1's session went with the refusal)
    assert isinstance(effect, Wait) and effect.tickets == [1]
    with pytest.raises(type(refusal)):
        flow.send({1: acknowledged(requests[1])})
    got = outcomes(reported)
    assert got[TopicPartition(UNNAMED, 0)] == ({4}, refusal)  # the refused request's
    assert got[TopicPartition(UNNAMED, 1)] == ({4}, None)  # closed with its acknowledgement
    assert share.sessions == {}


# ---- more than one member, faults -----------------------------------------------------------


def test_a_leaving_members_partitions_and_released_records_go_to_the_others(share_mock, driver):
    topic, values = new_topic(share_mock, partitions=1, per_partition=4)
    a, assignment_a = joined_member(driver, topic)
    b = ShareGroupMember(a.group_id)
    driver.run(b.join(driver.core, [topic]))
    driver.run(a.heartbeat(driver.core))
    # the mock gives the one partition to one member (Kafka may give it to both)
    assert driver.run(a.assignment(driver.core)) == assignment_a
    assert driver.run(b.assignment(driver.core)) == {}
    session_a, tp = session_for(driver, a, assignment_a, 0)
    got_a = driver.run(session_a.fetch(driver.core, [tp], max_wait_ms=100))
    assert offsets(got_a.records) == [(o, 1) for o in range(4)]
    session_a.acknowledge(tp, 0, ACCEPT)
    driver.run(session_a.close(driver.core))  # releases 1-3, held and not acknowledged
    driver.run(a.leave(driver.core))
    driver.run(b.heartbeat(driver.core))
    assert b.assignment_changed
    assignment_b = driver.run(b.assignment(driver.core))
    assert assignment_b == assignment_a
    session_b, _ = session_for(driver, b, assignment_b, 0)
    got_b = driver.run(session_b.fetch(driver.core, [tp], max_wait_ms=100))
    assert offsets(got_b.records) == [(1, 2), (2, 2), (3, 2)]
    assert [r.value for r in got_b.records] == values[0][1:]
    session_b.acknowledge_all(ACCEPT)
    driver.run(session_b.close(driver.core))
    driver.run(b.leave(driver.core))


def test_heartbeat_loop_keeps_the_member_in_and_rejoins_after_fencing(share_mock, driver):
    import time

    topic, _ = new_topic(share_mock, partitions=1, per_partition=0)
    member, _ = joined_member(driver, topic)
    member_id = member.member_id
    share_mock.push_errors(ApiKey.SHARE_GROUP_HEARTBEAT, [ErrorCode.FENCED_MEMBER_EPOCH])
    share_mock.start_tracking()
    cap = time.monotonic() + 20  # only against a hang: the verdict is what was sent

    def heartbeats() -> int:
        sent = share_mock.requests(clear=False)
        return sum(key == ApiKey.SHARE_GROUP_HEARTBEAT for _, key in sent)

    try:
        # fenced (pushed error), joined again with epoch 0, then one at the 1 s interval
        driver.run(
            member.heartbeat_loop(driver.core, lambda: heartbeats() >= 3 or time.monotonic() > cap)
        )
        assert heartbeats() >= 3
    finally:
        share_mock.stop_tracking()
        share_mock.clear_errors(ApiKey.SHARE_GROUP_HEARTBEAT)
    assert member.fatal is None
    assert member.joined and member.member_id == member_id
    driver.run(member.leave(driver.core))


def test_a_moved_coordinator_is_found_again(share_mock, driver):
    topic, _ = new_topic(share_mock, partitions=1, per_partition=0)
    member, _ = joined_member(driver, topic)
    old = member.coordinator
    new = next(b for b in share_mock.broker_ids if b != old)
    share_mock.set_coordinator("group", member.group_id, new)
    with pytest.raises(BrokerError) as caught:
        driver.run(member.heartbeat(driver.core))
    assert caught.value.code == ErrorCode.NOT_COORDINATOR
    assert member.coordinator is None and member.joined
    epoch = member.epoch
    driver.run(member.heartbeat(driver.core))
    assert member.coordinator == new and member.epoch == epoch
    driver.run(member.leave(driver.core))
