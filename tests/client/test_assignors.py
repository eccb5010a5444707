"""The assignors and the ConsumerProtocol payloads, without a broker: payload bytes written out
by hand from the schemas, Java's documented examples for range and roundrobin, and the
properties the cooperative protocol relies on, checked over rounds of a simulated group."""

from __future__ import annotations

import contextlib
import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafkawire.client import ConfigError, TopicPartition
from kafkawire.client.consumer.config import ConsumerConfig
from kafkawire.client.groups.assignors import (
    ASSIGNORS,
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
from kafkawire.client.groups.classic import GroupMember
from kafkawire.errors import DecodeError, EncodeError, UnsupportedError

T0, T1, T2 = "t0", "t1", "t2"


def tp(topic: str, partition: int) -> TopicPartition:
    return TopicPartition(topic, partition)


def tps(topic: str, *partitions: int) -> list[TopicPartition]:
    return [tp(topic, p) for p in partitions]


def member(member_id, topics, owned=(), generation=-1, instance=None, user_data=None) -> Member:
    sub = Subscription(list(topics), user_data, list(owned), generation)
    return Member(member_id, instance, sub)


def plan(assignor, members, counts) -> dict[str, list[TopicPartition]]:
    result = assignor.assign(members, counts)
    assert set(result) == {mb.member_id for mb in members}
    assert all(a.user_data is None for a in result.values())
    return {k: v.partitions for k, v in result.items()}


# ---- the payloads, by hand -------------------------------------------------------------------


def i16(n: int) -> bytes:
    return struct.pack(">h", n)


def i32(*ns: int) -> bytes:
    return struct.pack(f">{len(ns)}i", *ns)


def string(s: str | None) -> bytes:
    return i16(-1) if s is None else i16(len(s.encode())) + s.encode()


def nbytes(b: bytes | None) -> bytes:
    return i32(-1) if b is None else i32(len(b)) + b


def test_subscription_v3_bytes_are_the_schemas():
    sub = Subscription(["b", "a"], b"\x01\x02", [tp("b", 0), tp("a", 3), tp("a", 1)], 7, "r1")
    expected = (
        i16(3)  # version
        + i32(2) + string("a") + string("b")  # topics, sorted as Java writes them
        + nbytes(b"\x01\x02")  # user data
        + i32(2)  # owned partitions, by topic, each sorted
        + string("a") + i32(2, 1, 3)
        + string("b") + i32(1, 0)
        + i32(7)  # generation
        + string("r1")  # rack
    )  # fmt: skip
    assert encode_subscription(sub) == expected
    assert decode_subscription(expected) == Subscription(
        ["a", "b"], b"\x01\x02", [tp("a", 1), tp("a", 3), tp("b", 0)], 7, "r1"
    )


def test_subscription_v0_bytes_leave_out_the_later_fields():
    sub = Subscription(["t"], None, [tp("t", 0)], 4, "r")
    expected = i16(0) + i32(1) + string("t") + nbytes(None)
    assert encode_subscription(sub, version=0) == expected
    assert decode_subscription(expected) == Subscription(["t"], None, [], -1, None)


def test_assignment_v1_bytes_are_the_schemas():
    a = Assignment([tp("z", 2), tp("a", 5), tp("z", 0)], b"u")
    expected = (
        i16(1)
        + i32(2) + string("a") + i32(1, 5) + string("z") + i32(2, 0, 2)
        + nbytes(b"u")
    )  # fmt: skip
    assert encode_assignment(a, version=1) == expected
    assert decode_assignment(expected) == Assignment([tp("a", 5), tp("z", 0), tp("z", 2)], b"u")


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_round_trips_at_every_version(version):
    sub = Subscription([T0, T1], b"ud", tps(T0, 0, 2) + tps(T1, 1), 4, "rack-a")
    back = decode_subscription(encode_subscription(sub, version))
    assert back.topics == [T0, T1] and back.user_data == b"ud"
    assert back.owned_partitions == (sub.owned_partitions if version >= 1 else [])
    assert back.generation_id == (4 if version >= 2 else -1)
    assert back.rack_id == ("rack-a" if version >= 3 else None)
    empty = Subscription([], None, [])
    assert decode_subscription(encode_subscription(empty, version)) == empty
    for a in (Assignment(tps(T0, 1) + tps(T1, 0, 3), b"x"), Assignment([], None)):
        assert decode_assignment(encode_assignment(a, version)) == a


def test_a_future_version_reads_the_fields_known_and_ignores_the_rest():
    # version 4 of each: version 3's fields, then one more (an int32 and a string, say)
    sub = Subscription([T0], b"u", tps(T0, 1), 9, "r")
    body = encode_subscription(sub, version=3)[2:]
    assert decode_subscription(i16(4) + body + i32(77) + string("new")) == sub
    a = Assignment(tps(T1, 0, 1), None)
    body = encode_assignment(a, version=3)[2:]
    assert decode_assignment(i16(4) + body + i32(1, 2, 3)) == a
    # Java also reads a known version's fields and leaves what follows
    assert decode_subscription(i16(0) + i32(0) + nbytes(None) + b"extra").topics == []


def test_an_empty_rack_reads_as_none():
    data = i16(3) + i32(0) + nbytes(None) + i32(0) + i32(1) + string("")
    assert decode_subscription(data).rack_id is None


def test_an_empty_assignment_payload_is_an_empty_assignment():
    assert decode_assignment(b"") == Assignment([], None)


def test_truncated_payloads_raise_kafkawire_errors():
    sub = encode_subscription(Subscription(["a", "b"], b"xy", tps("a", 1, 2), 3, "r"))
    for cut in range(len(sub)):
        with pytest.raises(DecodeError):
            decode_subscription(sub[:cut])
    a = encode_assignment(Assignment(tps("a", 1, 2), b"xy"))
    for cut in range(1, len(a)):
        with pytest.raises(DecodeError):
            decode_assignment(a[:cut])


@pytest.mark.parametrize(
    "data",
    [
        b"\x00",  # not even a version
        i16(0) + i32(0x7FFFFFFF),  # two billion topics in four bytes
        i16(0) + i32(1) + i16(500) + b"ab",  # a topic longer than the payload
        i16(0) + i32(-1) + nbytes(None),  # null topics
        i16(1) + i32(0) + nbytes(None) + i32(1) + string("t") + i32(1000),  # owned, truncated
        i16(2) + i32(0) + nbytes(None) + i32(0) + b"\x00\x01",  # half a generation
    ],
)
def test_garbage_subscriptions_raise_kafkawire_errors(data):
    with pytest.raises(DecodeError, match="consumer protocol subscription"):
        decode_subscription(data)


def test_negative_versions_are_unsupported():
    with pytest.raises(UnsupportedError, match="version -1"):
        decode_subscription(i16(-1) + i32(0) + nbytes(None))
    with pytest.raises(UnsupportedError, match="version -2"):
        decode_assignment(i16(-2) + i32(0) + nbytes(None))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=64))
def test_any_bytes_decode_or_raise_a_decode_error(data):
    for decoder in (decode_subscription, decode_assignment):
        with contextlib.suppress(DecodeError):
            decoder(data)


def test_unknown_versions_do_not_encode():
    with pytest.raises(EncodeError, match="0 to 3, not 4"):
        encode_subscription(Subscription([T0], None, []), version=4)
    with pytest.raises(EncodeError, match="0 to 3, not -1"):
        encode_assignment(Assignment([]), version=-1)


# ---- range and roundrobin --------------------------------------------------------------------

EAGER = (RangeAssignor(), RoundRobinAssignor())


def test_range_as_javas_example():
    # two consumers, two topics of three partitions (RangeAssignor's javadoc)
    members = [member("C1", [T0, T1]), member("C0", [T0, T1])]
    assert plan(RangeAssignor(), members, {T0: 3, T1: 3}) == {
        "C0": tps(T0, 0, 1) + tps(T1, 0, 1),
        "C1": tps(T0, 2) + tps(T1, 2),
    }


def test_roundrobin_as_javas_examples():
    # RoundRobinAssignor's javadoc: the same group as range's
    members = [member("C1", [T0, T1]), member("C0", [T0, T1])]
    assert plan(RoundRobinAssignor(), members, {T0: 3, T1: 3}) == {
        "C0": tps(T0, 0, 2) + tps(T1, 1),
        "C1": tps(T0, 1) + tps(T1, 0, 2),
    }
    # ... and its uneven one: C0 takes t0; C1 t0, t1; C2 t0, t1, t2 (1, 2 and 3 partitions)
    members = [member("C0", [T0]), member("C1", [T0, T1]), member("C2", [T0, T1, T2])]
    assert plan(RoundRobinAssignor(), members, {T0: 1, T1: 2, T2: 3}) == {
        "C0": tps(T0, 0),
        "C1": tps(T1, 0),
        "C2": tps(T1, 1) + tps(T2, 0, 1, 2),
    }


def test_range_with_uneven_subscriptions_ranges_each_topic_over_its_own_members():
    members = [member("A", [T0, T1]), member("B", [T0]), member("C", [T1])]
    assert plan(RangeAssignor(), members, {T0: 5, T1: 4}) == {
        "A": tps(T0, 0, 1, 2) + tps(T1, 0, 1),
        "B": tps(T0, 3, 4),
        "C": tps(T1, 2, 3),
    }


def test_roundrobin_skips_members_not_subscribed_and_keeps_its_turn():
    members = [member("A", [T0, T1]), member("B", [T1]), member("C", [T0, T1])]
    assert plan(RoundRobinAssignor(), members, {T0: 3, T1: 3}) == {
        "A": tps(T0, 0, 2) + tps(T1, 2),
        "B": tps(T1, 0),
        "C": tps(T0, 1) + tps(T1, 1),
    }


def test_static_members_come_first_by_instance_id_then_dynamic_by_member_id():
    # the member ids sort the other way round: static members are ordered by instance id
    members = [
        member("a", [T0]),
        member("z-1", [T0], instance="i1"),
        member("m", [T0]),
        member("z-2", [T0], instance="i0"),
    ]
    assert plan(RangeAssignor(), members, {T0: 6}) == {
        "z-2": tps(T0, 0, 1),
        "z-1": tps(T0, 2, 3),
        "a": tps(T0, 4),
        "m": tps(T0, 5),
    }
    assert plan(RoundRobinAssignor(), members, {T0: 6}) == {
        "z-2": tps(T0, 0, 4),
        "z-1": tps(T0, 1, 5),
        "a": tps(T0, 2),
        "m": tps(T0, 3),
    }


def test_members_are_ordered_as_java_compares_strings():
    # Java compares UTF-16 code units: U+1F600 (a surrogate pair, D83D DE00) sorts before
    # U+FF01, where Python's code point order puts it after
    members = [member("\uff01", [T0]), member("\U0001f600", [T0])]
    assert plan(RangeAssignor(), members, {T0: 3}) == {
        "\U0001f600": tps(T0, 0, 1),
        "\uff01": tps(T0, 2),
    }


@pytest.mark.parametrize("assignor", [*EAGER, CooperativeStickyAssignor()], ids=repr)
def test_members_get_only_subscribed_topics_that_exist(assignor):
    members = [
        member("a", [T0, "missing"]),
        member("b", [T1]),
        member("idle", ["missing"]),
        member("none", []),
    ]
    got = plan(assignor, members, {T0: 2, T1: 1, "unsubscribed": 4, "empty": 0})
    assert got == {"a": tps(T0, 0, 1), "b": tps(T1, 0), "idle": [], "none": []}
    assert assignor.assign([], {T0: 1}) == {}


@pytest.mark.parametrize("assignor", EAGER, ids=repr)
def test_more_members_than_partitions_leaves_some_with_nothing(assignor):
    members = [member(f"m{i}", [T0]) for i in range(4)]
    got = plan(assignor, members, {T0: 2})
    assert got == {"m0": tps(T0, 0), "m1": tps(T0, 1), "m2": [], "m3": []}


@pytest.mark.parametrize("assignor", [*EAGER, CooperativeStickyAssignor()], ids=repr)
def test_the_order_members_come_in_does_not_matter(assignor):
    rng = random.Random(3)
    topics = [T0, T1, T2]
    members = [
        member(f"m{i}", rng.sample(topics, rng.randint(1, 3)), instance=rng.choice([None, f"s{i}"]))
        for i in range(7)
    ]
    counts = {T0: 5, T1: 8, T2: 3}
    expected = assignor.assign(members, counts)
    for _ in range(5):
        rng.shuffle(members)
        assert assignor.assign(members, counts) == expected


# ---- cooperative-sticky ----------------------------------------------------------------------

STICKY = CooperativeStickyAssignor()


def check_valid(result: dict, members: list[Member], counts: dict[str, int]) -> set:
    owned = [p for ps in result.values() for p in ps]
    assert len(owned) == len(set(owned)), "a partition given twice"
    topics = {mb.member_id: set(mb.subscription.topics) for mb in members}
    for member_id, ps in result.items():
        for p in ps:
            assert p.topic in topics[member_id] and 0 <= p.partition < counts[p.topic]
    return set(owned)


def everything(members: list[Member], counts: dict[str, int]) -> set:
    subscribed = {t for mb in members for t in mb.subscription.topics if t in counts}
    return {tp(t, p) for t in subscribed for p in range(counts[t])}


def next_round(members: list[Member], result: dict, generation: int) -> list[Member]:
    """The members rejoining after a round: each claims what it was given."""
    return [
        member(mb.member_id, mb.subscription.topics, result[mb.member_id], generation)
        for mb in members
    ]


def test_fresh_assignment_deals_partitions_in_turn():
    # what Java's constrained assignment gives for this group: sorted partitions in turn
    got = plan(STICKY, [member("C1", [T0, T1]), member("C0", [T0, T1])], {T0: 3, T1: 3})
    assert got == {"C0": tps(T0, 0, 2) + tps(T1, 1), "C1": tps(T0, 1) + tps(T1, 0, 2)}


def test_a_joining_member_gets_partitions_only_after_their_owners_let_go():
    counts = {T0: 6}
    first = plan(STICKY, [member("a", [T0]), member("b", [T0])], counts)
    assert [len(first["a"]), len(first["b"])] == [3, 3]

    members = [
        member("a", [T0], first["a"], 1),
        member("b", [T0], first["b"], 1),
        member("c", [T0]),
    ]
    second = plan(STICKY, members, counts)
    # a and b keep two each and give one up; c gets nothing while they still own them
    assert second["c"] == []
    assert set(second["a"]) < set(first["a"]) and len(second["a"]) == 2
    assert set(second["b"]) < set(first["b"]) and len(second["b"]) == 2
    revoked = everything(members, counts) - set(second["a"]) - set(second["b"])
    assert len(revoked) == 2

    third = plan(STICKY, next_round(members, second, 2), counts)
    # the revoked ones are no one's now: they go to c, the others stay put
    assert third == {"a": second["a"], "b": second["b"], "c": sorted(revoked)}
    assert plan(STICKY, next_round(members, third, 3), counts) == third  # settled


def test_a_leaving_members_partitions_go_to_the_others_at_once():
    owned = {"a": tps(T0, 0, 1, 6), "b": tps(T0, 2, 3, 7), "c": tps(T0, 4, 5)}
    members = [member(k, [T0], v, generation=3) for k, v in owned.items() if k != "c"]
    got = plan(STICKY, members, {T0: 8})
    assert set(owned["a"]) < set(got["a"]) and set(owned["b"]) < set(got["b"])
    assert sorted(got["a"] + got["b"]) == tps(T0, *range(8))  # no one claims c's: no wait


def test_a_moved_partition_is_in_no_assignment_until_its_owner_lets_go():
    # a owns all four; b subscribes too: two move, and neither a nor b has them this round
    counts = {T0: 4}
    members = [member("a", [T0], tps(T0, 0, 1, 2, 3), 5), member("b", [T0])]
    first = plan(STICKY, members, counts)
    moving = set(tps(T0, 0, 1, 2, 3)) - set(first["a"])
    assert len(moving) == 2 and first["b"] == []
    assert not moving & set(first["a"] + first["b"])
    # a revoked them and rejoins without them: now b gets them
    second = plan(STICKY, next_round(members, first, 6), counts)
    assert second == {"a": first["a"], "b": sorted(moving)}


def test_a_partition_of_a_topic_its_owner_dropped_waits_for_the_owner_to_let_go():
    counts = {T0: 2, T1: 2}
    members = [
        member("a", [T0], tps(T0, 0) + tps(T1, 0, 1), 2),  # still claims t1, no longer wants it
        member("b", [T0, T1], tps(T0, 1), 2),
    ]
    first = plan(STICKY, members, counts)
    # balanced, b is to have t1 and a both of t0; every partition changing hands waits
    assert first == {"a": tps(T0, 0), "b": []}
    second = plan(STICKY, next_round(members, first, 3), counts)
    assert second == {"a": tps(T0, 0, 1), "b": tps(T1, 0, 1)}


def test_the_newer_generation_wins_a_contested_partition():
    members = [
        member("old", [T0], tps(T0, 0, 1), generation=1),
        member("new", [T0], tps(T0, 0), generation=2),
    ]
    got = plan(STICKY, members, {T0: 2})
    # new keeps p0; old's claim on p0 is stale, its uncontested claim on p1 stands
    assert got == {"new": tps(T0, 0), "old": tps(T0, 1)}
    # the order of the claims does not matter
    assert plan(STICKY, members[::-1], {T0: 2}) == got


def test_a_partition_claimed_twice_in_one_generation_goes_to_neither_at_first():
    counts = {T0: 3}
    members = [
        member("a", [T0], tps(T0, 0, 1), generation=4),
        member("b", [T0], tps(T0, 1, 2), generation=4),
    ]
    first = plan(STICKY, members, counts)
    assert first == {"a": tps(T0, 0), "b": tps(T0, 2)}
    # both let it go; then it is free
    second = plan(STICKY, next_round(members, first, 5), counts)
    assert sorted(second["a"] + second["b"]) == tps(T0, 0, 1, 2)
    assert set(first["a"]) <= set(second["a"]) and set(first["b"]) <= set(second["b"])


def test_the_generation_of_an_old_subscription_is_read_from_its_user_data():
    # a version-1 subscription has no generation field: Java's cooperative-sticky members
    # put it in the user data, and the leader reads it there
    user_data = STICKY.subscription_user_data(5)
    assert user_data == i32(5)
    old_format = decode_subscription(
        encode_subscription(Subscription([T0], user_data, tps(T0, 0)), version=1)
    )
    assert old_format.generation_id == -1 and old_format.user_data == i32(5)
    members = [
        Member("v1", None, old_format),
        member("v3", [T0], tps(T0, 0, 1), generation=3),
    ]
    assert plan(STICKY, members, {T0: 2}) == {"v1": tps(T0, 0), "v3": tps(T0, 1)}


def test_sticky_keeps_every_owned_partition_it_can_when_a_topic_grows():
    members = [member("a", [T0], tps(T0, 0, 1), 1), member("b", [T0], tps(T0, 2, 3), 1)]
    got = plan(STICKY, members, {T0: 6})
    assert got == {"a": tps(T0, 0, 1, 4), "b": tps(T0, 2, 3, 5)}


def test_a_chain_of_moves_balances_what_no_single_move_can():
    # a (t0 only) holds 3, b (t0 and t1) 2, c (t1 only) 1: a gives b a t0 partition and b
    # gives c a t1 one, all end with 2
    counts = {T0: 4, T1: 2}
    members = [
        member("a", [T0], tps(T0, 0, 1, 2), 1),
        member("b", [T0, T1], tps(T0, 3) + tps(T1, 0), 1),
        member("c", [T1], tps(T1, 1), 1),
    ]
    first = plan(STICKY, members, counts)
    assert first == {"a": tps(T0, 0, 1), "b": tps(T0, 3), "c": tps(T1, 1)}
    second = plan(STICKY, next_round(members, first, 2), counts)
    assert second == {"a": tps(T0, 0, 1), "b": tps(T0, 2, 3), "c": tps(T1, 0, 1)}


def test_partitions_let_go_are_used_before_an_owner_gives_up_more():
    # the round after a revocation: balance is reachable by placing the free partitions
    # alone, so m0 must keep both of its own (moving one would cost another round)
    counts = {T0: 1, T1: 2, T2: 3}
    members = [
        member("m0", [T2], tps(T2, 0, 1), 2),
        member("m1", [T0, T1, T2], [], 2),
        member("m2", [T2, T0], [], 2),
        member("new", [T0], [], 2),
    ]
    got = plan(STICKY, members, counts)
    assert got == {"m0": tps(T2, 0, 1), "m1": tps(T1, 0, 1), "m2": tps(T2, 2), "new": tps(T0, 0)}


def least_max_load(members: list[Member], counts: dict[str, int]) -> int:
    """The smallest largest load any assignment can have, by bipartite matching with member
    capacities (an algorithm unlike the assignor's)."""
    parts = sorted(everything(members, counts))
    takers = {
        p: [mb.member_id for mb in members if p.topic in mb.subscription.topics] for p in parts
    }

    def fits(cap: int) -> bool:
        holder: dict[str, list[TopicPartition]] = {mb.member_id: [] for mb in members}

        def place(p: TopicPartition, seen: set[str]) -> bool:
            for mid in takers[p]:
                if mid in seen:
                    continue
                seen.add(mid)
                if len(holder[mid]) < cap:
                    holder[mid].append(p)
                    return True
                for q in list(holder[mid]):
                    if place(q, seen):
                        holder[mid].remove(q)
                        holder[mid].append(p)
                        return True
            return False

        return all(place(p, set()) for p in parts)

    return next(cap for cap in range(len(parts) + 1) if fits(cap))


def check_balanced(result: dict, members: list[Member], counts: dict[str, int]) -> None:
    loads = {k: len(v) for k, v in result.items()}
    by_subscription: dict[frozenset, list[int]] = {}
    for mb in members:
        key = frozenset(t for t in mb.subscription.topics if t in counts)
        by_subscription.setdefault(key, []).append(loads[mb.member_id])
    for same in by_subscription.values():
        assert max(same) - min(same) <= 1, f"members of one subscription: {same}"
    # no partition could move to a member that subscribes to it and has two fewer (Java's
    # isBalanced), and the largest load is the least any assignment can have
    topics = {mb.member_id: set(mb.subscription.topics) for mb in members}
    for giver, ps in result.items():
        for p in ps:
            for taker in result:
                if p.topic in topics[taker]:
                    assert loads[taker] + 1 >= loads[giver], (p, giver, taker)
    assert max(loads.values(), default=0) == least_max_load(members, counts)


def groups(most_members: int = 6, least_members: int = 1):
    @st.composite
    def group(draw):
        counts = {f"t{i}": draw(st.integers(0, 7)) for i in range(draw(st.integers(1, 4)))}
        names = sorted(counts)
        same = draw(st.booleans())
        members = []
        for i in range(draw(st.integers(least_members, most_members))):
            topics = names if same else draw(st.lists(st.sampled_from(names), unique=True))
            # claims from some earlier state: any partitions (even gone or contested)
            owned = draw(st.lists(st.tuples(st.sampled_from(names), st.integers(0, 8)), max_size=6))
            generation = draw(st.integers(-1, 3))
            members.append(member(f"m{i}", topics, [tp(*o) for o in owned], generation))
        return members, counts

    return group()


@settings(max_examples=300, deadline=None)
@given(groups())
def test_sticky_over_random_groups(group):
    members, counts = group
    first = plan(STICKY, members, counts)
    check_valid(first, members, counts)
    # the cooperative rule: a partition goes to a member that claims it at the newest
    # generation of its claims (alone), or that no other member claims
    for member_id, ps in first.items():
        for p in ps:
            claims = {
                mb.member_id: mb.subscription.generation_id
                for mb in members
                if p in mb.subscription.owned_partitions
            }
            others = {k: g for k, g in claims.items() if k != member_id}
            if others:
                assert member_id in claims and claims[member_id] > max(others.values())
    # once the moving partitions are let go, everything is assigned, balanced, and stays
    second = plan(STICKY, next_round(members, first, 10), counts)
    assert check_valid(second, members, counts) == everything(members, counts)
    check_balanced(second, members, counts)
    assert plan(STICKY, next_round(members, second, 11), counts) == second


@settings(max_examples=200, deadline=None)
@given(groups(least_members=2))
def test_sticky_keeps_what_balance_allows(group):
    # a settled group where one member leaves and another joins: members with the same
    # subscription keep at least as many of their partitions as an even share allows
    members, counts = group
    members = [member(mb.member_id, sorted(counts), ()) for mb in members]
    settled = plan(STICKY, members, counts)
    after = [*next_round(members[1:], settled, 1), member("new", sorted(counts))]
    got = plan(STICKY, after, counts)
    share = len(everything(after, counts)) // len(after)
    for mb in after[:-1]:
        kept = set(got[mb.member_id]) & set(settled[mb.member_id])
        assert len(kept) >= min(len(settled[mb.member_id]), share)
        assert set(got[mb.member_id]) <= set(settled[mb.member_id]) | set(settled["m0"])


def test_sticky_through_seeded_joins_and_leaves():
    rng = random.Random(20240611)
    counts = {"a": 7, "b": 5, "c": 12}
    topics = sorted(counts)
    current: dict[str, tuple[list[str], list[TopicPartition]]] = {}
    generation = 0
    for step in range(60):
        if current and (rng.random() < 0.35 or len(current) > 7):
            current.pop(rng.choice(sorted(current)))
        else:
            chosen = topics if rng.random() < 0.5 else rng.sample(topics, rng.randint(1, 3))
            current[f"m{step}"] = (chosen, [])
        # rebalance until nothing waits on a revocation
        for rounds in range(3):  # noqa: B007 (read after the loop)
            generation += 1
            members = [member(k, t, o, generation - 1) for k, (t, o) in sorted(current.items())]
            result = plan(STICKY, members, counts)
            assigned = check_valid(result, members, counts)
            for k, (t, o) in current.items():
                # what a member keeps, it owned; new partitions come only from no one's
                assert set(o) & set(result[k]) == set(o) & assigned & set(result[k])
                current[k] = (t, result[k])
            if assigned == everything(members, counts):
                break
        assert rounds <= 1, "one revocation round is always enough"
        check_balanced(result, members, counts)


def test_a_large_group_assigns_in_reasonable_time():
    counts = {f"topic-{i}": 64 for i in range(20)}
    members = [member(f"consumer-{i:03d}", sorted(counts)) for i in range(60)]
    first = plan(STICKY, members, counts)
    sizes = sorted(len(v) for v in first.values())
    assert sizes[0] == 21 and sizes[-1] == 22
    joined = next_round(members, first, 1) + [member(f"late-{i}", sorted(counts)) for i in range(5)]
    second = plan(STICKY, joined, counts)
    assert all(second[f"late-{i}"] == [] for i in range(5))
    third = plan(STICKY, next_round(joined, second, 2), counts)
    check_balanced(third, joined, counts)


# ---- partition.assignment.strategy -----------------------------------------------------------


def test_strategy_names():
    assert list(ASSIGNORS) == ["range", "roundrobin", "cooperative-sticky"]
    assert [a.name for a in assignors_for("range")] == ["range"]
    assert [a.name for a in assignors_for(" roundrobin , range,")] == ["roundrobin", "range"]
    assert [a.name for a in assignors_for(["range", "roundrobin"])] == ["range", "roundrobin"]
    java = "org.apache.kafka.clients.consumer."
    got = assignors_for(f"{java}RangeAssignor,{java}RoundRobinAssignor")
    assert [type(a) for a in got] == [RangeAssignor, RoundRobinAssignor]
    (sticky,) = assignors_for(f"{java}CooperativeStickyAssignor")
    assert sticky.name == "cooperative-sticky" and sticky.rebalance_protocol == "cooperative"
    assert [a.rebalance_protocol for a in assignors_for("range,roundrobin")] == ["eager"] * 2
    # a repeat (in either spelling) is offered once
    assert [a.name for a in assignors_for(f"range,{java}RangeAssignor")] == ["range"]


def test_strategy_errors():
    with pytest.raises(ConfigError, match=r"unknown assignor 'sticky' \(valid: range, roundrobin"):
        assignors_for("range,sticky")
    with pytest.raises(ConfigError, match=r"org\.apache\.kafka\.clients\.consumer\.RangeAssignor"):
        assignors_for("org.apache.kafka.clients.consumer.StickyAssignor")
    with pytest.raises(ConfigError, match="names no assignor"):
        assignors_for(" , ")
    with pytest.raises(ConfigError, match="names no assignor"):
        assignors_for([])
    # a mixed list is Java's upgrade path: accepted, and the member rebalances eagerly
    mixed = assignors_for("cooperative-sticky,range")
    assert [a.rebalance_protocol for a in mixed] == ["cooperative", "eager"]
    assert not GroupMember(
        ConsumerConfig(group_id="g", assignment_strategy="range,cooperative-sticky")
    ).cooperative
    assert GroupMember(
        ConsumerConfig(group_id="g", assignment_strategy="cooperative-sticky")
    ).cooperative


def test_user_data_of_each_assignor():
    assert RangeAssignor().subscription_user_data(3) is None
    assert RoundRobinAssignor().subscription_user_data(3) is None
    assert CooperativeStickyAssignor().subscription_user_data(-1) == b"\xff\xff\xff\xff"
