"""The assignors and the ConsumerProtocol payloads, without a broker: Java's documented
examples for range and roundrobin, the properties cooperative-sticky promises, and the
payload bytes written out by hand from the schemas."""

from __future__ import annotations

import random
import struct

import pytest

from kafkawire.client import ConfigError, TopicPartition
from kafkawire.client.assignors import (
    Assignment,
    CooperativeStickyAssignor,
    Member,
    RangeAssignor,
    RoundRobinAssignor,
    Subscription,
    assignors_for,
    decode_assignment,
    decode_subscription,
    encode_assignment,
    encode_subscription,
)
from kafkawire.errors import DecodeError

T0, T1 = "t0", "t1"


def tp(topic: str, partition: int) -> TopicPartition:
    return TopicPartition(topic, partition)


def member(member_id: str, topics, owned=(), generation=-1, instance=None) -> Member:
    return Member(member_id, instance, Subscription(list(topics), None, list(owned), generation))


def plan(assignor, members, counts) -> dict[str, list[TopicPartition]]:
    return {k: v.partitions for k, v in assignor.assign(members, counts).items()}


# ---- payloads -------------------------------------------------------------------------------


def _string(s: str) -> bytes:
    return struct.pack(">h", len(s)) + s.encode()


def test_subscription_bytes_at_version_1_are_the_schemas():
    sub = Subscription(["a", "bb"], b"\x01\x02", [tp("a", 3), tp("a", 1)], 7)
    expected = (
        struct.pack(">h", 1)  # version
        + struct.pack(">i", 2) + _string("a") + _string("bb")  # topics
        + struct.pack(">i", 2) + b"\x01\x02"  # user data
        + struct.pack(">i", 1) + _string("a") + struct.pack(">iii", 2, 1, 3)  # owned, sorted
    )  # fmt: skip
    assert encode_subscription(sub, version=1) == expected
    # version 1 has no generation: it reads back as -1
    assert decode_subscription(expected) == sub._replace(
        owned_partitions=[tp("a", 1), tp("a", 3)], generation_id=-1
    )


def test_assignment_bytes_at_version_0_are_the_schemas():
    expected = (
        struct.pack(">h", 0)
        + struct.pack(">i", 1) + _string("t") + struct.pack(">iii", 2, 0, 5)
        + struct.pack(">i", -1)  # no user data
    )  # fmt: skip
    assert encode_assignment(Assignment([tp("t", 5), tp("t", 0)]), version=0) == expected
    assert decode_assignment(expected) == Assignment([tp("t", 0), tp("t", 5)], None)


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_round_trips_at_every_version(version):
    sub = Subscription([T0], None, [tp(T0, 0)], 4, "rack-a")
    back = decode_subscription(encode_subscription(sub, version))
    assert back.topics == [T0]
    assert back.owned_partitions == ([tp(T0, 0)] if version >= 1 else [])
    assert back.generation_id == (4 if version >= 2 else -1)
    assert back.rack_id == ("rack-a" if version >= 3 else None)
    a = Assignment([tp(T0, 1), tp(T1, 0)], b"x")
    assert decode_assignment(encode_assignment(a, version)) == a


def test_a_newer_version_is_read_as_the_newest_known():
    data = encode_subscription(Subscription([T0], None, [], 2), version=3)
    assert decode_subscription(struct.pack(">h", 9) + data[2:]).topics == [T0]


def test_empty_assignment_and_bad_payloads():
    assert decode_assignment(b"") == Assignment([])
    for bad in (b"\x00", b"\x00\x00\x00\x00\x00\x05ab", b"\xff\xff", b"\x00\x01" + b"\x7f" * 9):
        with pytest.raises(DecodeError):
            decode_subscription(bad)
    with pytest.raises(DecodeError):
        decode_assignment(b"\x00\x00\x00\x00\x00\x01")


# ---- range and roundrobin: Java's documented examples --------------------------------------


def test_range_as_javas_example():
    # two consumers, two topics of three partitions
    members = [member("C1", [T0, T1]), member("C0", [T0, T1])]
    assert plan(RangeAssignor(), members, {T0: 3, T1: 3}) == {
        "C0": [tp(T0, 0), tp(T0, 1), tp(T1, 0), tp(T1, 1)],
        "C1": [tp(T0, 2), tp(T1, 2)],
    }


def test_roundrobin_as_javas_examples():
    members = [member("C0", [T0, T1]), member("C1", [T0, T1])]
    assert plan(RoundRobinAssignor(), members, {T0: 3, T1: 3}) == {
        "C0": [tp(T0, 0), tp(T0, 2), tp(T1, 1)],
        "C1": [tp(T0, 1), tp(T1, 0), tp(T1, 2)],
    }
    # uneven subscriptions: C0 t0; C1 t0, t1; C2 t0, t1, t2 (1, 2, 3 partitions)
    members = [member("C0", ["t0"]), member("C1", ["t0", "t1"]), member("C2", ["t0", "t1", "t2"])]
    assert plan(RoundRobinAssignor(), members, {"t0": 1, "t1": 2, "t2": 3}) == {
        "C0": [tp("t0", 0)],
        "C1": [tp("t1", 0)],
        "C2": [tp("t1", 1), tp("t2", 0), tp("t2", 1), tp("t2", 2)],
    }


def test_static_members_come_first_ordered_by_instance_id():
    members = [member("a", [T0]), member("z", [T0], instance="i1"), member("m", [T0])]
    assert plan(RangeAssignor(), members, {T0: 4}) == {
        "z": [tp(T0, 0), tp(T0, 1)],
        "a": [tp(T0, 2)],
        "m": [tp(T0, 3)],
    }


def test_members_get_only_subscribed_existing_topics():
    members = [member("a", [T0, "missing"]), member("b", [T1])]
    for assignor in (RangeAssignor(), RoundRobinAssignor(), CooperativeStickyAssignor()):
        got = plan(assignor, members, {T0: 2, T1: 1})
        assert got == {"a": [tp(T0, 0), tp(T0, 1)], "b": [tp(T1, 0)]}
    assert plan(RangeAssignor(), [member("a", [T0]), member("b", [T0])], {T0: 1})["b"] == []


# ---- cooperative-sticky ---------------------------------------------------------------------


def _check_valid(result, members, counts):
    owned = [p for ps in result.values() for p in ps]
    assert len(owned) == len(set(owned))
    topics = {m.member_id: set(m.subscription.topics) for m in members}
    assert all(p.topic in topics[mid] for mid, ps in result.items() for p in ps)
    return set(owned)


def test_sticky_keeps_owned_partitions_when_a_member_joins():
    first = plan(CooperativeStickyAssignor(), [member("a", [T0]), member("b", [T0])], {T0: 6})
    assert sorted(len(v) for v in first.values()) == [3, 3]
    members = [
        member("a", [T0], first["a"], generation=1),
        member("b", [T0], first["b"], generation=1),
        member("c", [T0]),
    ]
    second = plan(CooperativeStickyAssignor(), members, {T0: 6})
    # the newcomer gets nothing this round: what it will get is revoked from others first
    assert second["c"] == []
    assert set(second["a"]) <= set(first["a"]) and set(second["b"]) <= set(first["b"])
    assert len(second["a"]) + len(second["b"]) == 4  # one partition from each to revoke
    # next round: the revoked ones are no one's; they go to the newcomer
    members = [
        member("a", [T0], second["a"], generation=2),
        member("b", [T0], second["b"], generation=2),
        member("c", [T0], [], generation=2),
    ]
    third = plan(CooperativeStickyAssignor(), members, {T0: 6})
    assert third["a"] == second["a"] and third["b"] == second["b"]
    assert len(third["c"]) == 2


def test_sticky_when_a_member_leaves():
    owned = {"a": [tp(T0, 0), tp(T0, 1)], "b": [tp(T0, 2), tp(T0, 3)], "c": [tp(T0, 4)]}
    members = [member(k, [T0], v, generation=3) for k, v in owned.items() if k != "c"]
    got = plan(CooperativeStickyAssignor(), members, {T0: 5})
    assert set(owned["a"]) <= set(got["a"]) and set(owned["b"]) <= set(got["b"])
    assert {p for ps in got.values() for p in ps} == {tp(T0, i) for i in range(5)}


def test_the_newer_generation_wins_a_double_claim():
    members = [
        member("old", [T0], [tp(T0, 0), tp(T0, 1)], generation=1),
        member("new", [T0], [tp(T0, 0)], generation=2),
    ]
    got = plan(CooperativeStickyAssignor(), members, {T0: 2})
    assert tp(T0, 0) in got["new"] and tp(T0, 0) not in got["old"]
    assert got["old"] == [tp(T0, 1)]


def test_sticky_is_balanced_over_random_groups():
    rng = random.Random(7)
    for _ in range(200):
        counts = {f"t{i}": rng.randrange(1, 9) for i in range(rng.randrange(1, 4))}
        topics = sorted(counts)
        ids = [f"m{i}" for i in range(rng.randrange(1, 6))]
        same = rng.random() < 0.5
        members = [
            member(i, topics if same else rng.sample(topics, rng.randrange(1, len(topics) + 1)))
            for i in ids
        ]
        got = plan(CooperativeStickyAssignor(), members, counts)
        owned = _check_valid(got, members, counts)
        subscribed = {t for m in members for t in m.subscription.topics}
        assert owned == {tp(t, p) for t in subscribed for p in range(counts[t])}
        if same:
            sizes = [len(v) for v in got.values()]
            assert max(sizes) - min(sizes) <= 1
        # a second round from this one changes nothing
        again = [member(m.member_id, m.subscription.topics, got[m.member_id], 5) for m in members]
        assert plan(CooperativeStickyAssignor(), again, counts) == got


# ---- partition.assignment.strategy -----------------------------------------------------------


def test_strategy_names():
    assert [a.name for a in assignors_for("range, roundrobin")] == ["range", "roundrobin"]
    java = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
    assert [a.name for a in assignors_for(java)] == ["cooperative-sticky"]
    assert assignors_for(["cooperative-sticky"])[0].rebalance_protocol == "cooperative"
    with pytest.raises(ConfigError, match="unknown assignor 'sticky'"):
        assignors_for("range,sticky")
    with pytest.raises(ConfigError, match="names no assignor"):
        assignors_for(" , ")
