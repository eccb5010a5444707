"""Consumer-group assignors of Kafka's classic group protocol, and the ConsumerProtocol payloads
they travel in (a member's subscription in JoinGroup's protocol metadata, its assignment in
SyncGroup). No IO: the group flow (``groups/classic.py``) hands the leader the members and the
partition counts, and sends what comes back.

Whoever leads the group (a kafkawire member, a Java one, librdkafka) computes every member's
assignment, so range and roundrobin follow Java's rules to the partition. Cooperative-sticky
keeps what the protocol relies on (one owner per partition, balance, stickiness, no partition
handed to a new owner before its old owner has given it up); its exact choices differ from
Java's as Java's and librdkafka's already differ from each other.
"""

from __future__ import annotations

import struct
from collections import deque
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import ClassVar, NamedTuple

from kafkawire.errors import CorruptError, DecodeError, EncodeError, UnsupportedError
from kafkawire.protocol import decode, encode
from kafkawire.protocol import messages as m

from ..errors import ConfigError
from ..types import TopicPartition

__all__ = [
    "ASSIGNORS",
    "Assignment",
    "Assignor",
    "CooperativeStickyAssignor",
    "Member",
    "RangeAssignor",
    "RoundRobinAssignor",
    "Subscription",
    "assignors_for",
    "decode_assignment",
    "decode_subscription",
    "encode_assignment",
    "encode_subscription",
]

NEWEST_VERSION = 3  # of both ConsumerProtocolSubscription and ConsumerProtocolAssignment
NO_GENERATION = -1

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")


class Subscription(NamedTuple):
    topics: list[str]
    user_data: bytes | None
    owned_partitions: list[TopicPartition]
    generation_id: int = NO_GENERATION
    rack_id: str | None = None


class Assignment(NamedTuple):
    partitions: list[TopicPartition]
    user_data: bytes | None = None


class Member(NamedTuple):
    member_id: str
    group_instance_id: str | None
    subscription: Subscription


# ---- the payloads ------------------------------------------------------------------------------


class _Skipper:
    """Walks the fields of a non-flexible payload without building them, to find where the
    fields of a known version end: a newer version appends fields, and Java (and librdkafka)
    read the ones they know and ignore the rest."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.p = 0

    def take(self, n: int) -> None:
        if n < 0 or self.p + n > len(self.data):
            raise _Short
        self.p += n

    def i32(self) -> int:
        if self.p + 4 > len(self.data):
            raise _Short
        (value,) = _I32.unpack_from(self.data, self.p)
        self.p += 4
        return value

    def string(self) -> None:
        if self.p + 2 > len(self.data):
            raise _Short
        (n,) = _I16.unpack_from(self.data, self.p)
        self.p += 2
        self.take(max(n, 0))  # -1: null

    def bytes_(self) -> None:
        self.take(max(self.i32(), 0))

    def topic_partitions(self) -> None:
        for _ in range(self.i32()):
            self.string()
            self.take(4 * self.i32())


class _Short(Exception):
    """The walk ran out of bytes: the codec's own decode then says precisely where."""


def _known_length(data: bytes, subscription: bool, version: int) -> int:
    s = _Skipper(data)
    try:
        if subscription:
            for _ in range(s.i32()):
                s.string()
            s.bytes_()
            if version >= 1:
                s.topic_partitions()
            if version >= 2:
                s.take(4)
            if version >= 3:
                s.string()
        else:
            s.topic_partitions()
            s.bytes_()
    except _Short:
        return len(data)
    return s.p


def _read(data: bytes, cls: type, what: str):
    """The message behind the 2-byte version prefix, read as Java's ConsumerProtocol reads it:
    a version newer than known is read with the newest known schema, and bytes after the
    known fields are ignored (they are the newer version's fields)."""
    data = bytes(data)
    if len(data) < 2:
        raise CorruptError(f"{what}: {len(data)} bytes, too short for the version", offset=0)
    (version,) = _I16.unpack_from(data)
    if version < 0:
        raise UnsupportedError(f"{what}: version {version}", offset=0, field="version")
    known = min(version, NEWEST_VERSION)
    body = data[2:]
    end = _known_length(body, cls is m.ConsumerProtocolSubscription, known)
    try:
        return decode(cls, body[:end], version=known)
    except DecodeError as exc:
        offset = None if exc.offset is None else exc.offset + 2
        raise type(exc)(
            f"{what} (version {version}): {exc.reason}", offset=offset, field=exc.field
        ) from None


def _grouped(tps: Iterable[TopicPartition], struct_cls: type) -> list:
    by_topic: dict[str, set[int]] = {}
    for topic, partition in tps:
        by_topic.setdefault(topic, set()).add(partition)
    return [struct_cls(topic=t, partitions=sorted(ps)) for t, ps in sorted(by_topic.items())]


def _check_version(version: int, what: str) -> None:
    if not 0 <= version <= NEWEST_VERSION:
        raise EncodeError(f"{what} has versions 0 to {NEWEST_VERSION}, not {version}")


def encode_subscription(sub: Subscription, version: int = NEWEST_VERSION) -> bytes:
    """Fields the version lacks (owned partitions before 1, the generation before 2, the rack
    before 3) are left out, as Java leaves out these ignorable fields."""
    _check_version(version, "ConsumerProtocolSubscription")
    message = m.ConsumerProtocolSubscription(
        topics=sorted(sub.topics),
        user_data=sub.user_data,
        owned_partitions=_grouped(
            sub.owned_partitions, m.ConsumerProtocolSubscription.TopicPartition
        ),
        generation_id=sub.generation_id,
        rack_id=sub.rack_id,
    )
    return _I16.pack(version) + bytes(encode(message, version=version))


def decode_subscription(data: bytes) -> Subscription:
    s = _read(data, m.ConsumerProtocolSubscription, "consumer protocol subscription")
    return Subscription(
        topics=list(s.topics),
        user_data=None if s.user_data is None else bytes(s.user_data),
        owned_partitions=[
            TopicPartition(t.topic, p) for t in s.owned_partitions for p in t.partitions
        ],
        generation_id=s.generation_id,
        rack_id=s.rack_id or None,  # Java reads an empty rack as none
    )


def encode_assignment(assignment: Assignment, version: int = NEWEST_VERSION) -> bytes:
    _check_version(version, "ConsumerProtocolAssignment")
    message = m.ConsumerProtocolAssignment(
        assigned_partitions=_grouped(
            assignment.partitions, m.ConsumerProtocolAssignment.TopicPartition
        ),
        user_data=assignment.user_data,
    )
    return _I16.pack(version) + bytes(encode(message, version=version))


def decode_assignment(data: bytes) -> Assignment:
    """An empty payload is an empty assignment: the broker sends that to a member the leader
    gave nothing (or left out)."""
    if not data:
        return Assignment([], None)
    a = _read(data, m.ConsumerProtocolAssignment, "consumer protocol assignment")
    return Assignment(
        [TopicPartition(t.topic, p) for t in a.assigned_partitions for p in t.partitions],
        None if a.user_data is None else bytes(a.user_data),
    )


# ---- orders ------------------------------------------------------------------------------------


def _java(s: str) -> bytes:
    """Java orders strings by UTF-16 code unit, Python by code point; they differ past U+FFFF,
    and the leader's order must be Java's for the same input to give the same assignment."""
    return s.encode("utf-16-be", "surrogatepass")


def _member_order(member: Member) -> tuple:
    """Java's order of members (AbstractPartitionAssignor.MemberInfo): static members first,
    by group.instance.id, then dynamic ones by member id. (librdkafka compares instance ids
    only when both members are static, which is no total order once the two kinds mix.)"""
    if member.group_instance_id is not None:
        return (0, _java(member.group_instance_id), _java(member.member_id))
    return (1, _java(member.member_id), b"")


def _tp_order(tp: TopicPartition) -> tuple:
    return (_java(tp.topic), tp.partition)


# ---- the assignors -----------------------------------------------------------------------------


class Assignor:
    """What ``groups/classic.py`` needs of an assignor: the protocol name it offers in
    JoinGroup, the rebalance protocol it speaks, and, when the member leads, ``assign``."""

    name: ClassVar[str]
    rebalance_protocol: ClassVar[str] = "eager"

    def subscription_user_data(self, generation: int) -> bytes | None:
        """The user data a member of this assignor puts in its subscription."""
        return None

    def assign(
        self, members: list[Member], partitions_per_topic: dict[str, int]
    ) -> dict[str, Assignment]:
        """Every member's assignment (an empty one for a member that gets nothing); a member
        only gets partitions of topics it subscribes to, and topics missing from
        ``partitions_per_topic`` (no metadata) are skipped."""
        counts = {t: n for t, n in partitions_per_topic.items() if n > 0}
        plan = self._plan(sorted(members, key=_member_order), counts)
        return {
            member.member_id: Assignment(sorted(plan.get(member.member_id, ()), key=_tp_order))
            for member in members
        }

    def _plan(
        self, members: list[Member], counts: dict[str, int]
    ) -> dict[str, Iterable[TopicPartition]]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RangeAssignor(Assignor):
    """Per topic, contiguous ranges of partitions over the members subscribed to it, the first
    ``partitions % members`` getting one more: co-partitioned topics land on the same member,
    which is what joins over keys need."""

    name = "range"

    def _plan(self, members, counts):
        plan: dict[str, list[TopicPartition]] = {mb.member_id: [] for mb in members}
        for topic, n in counts.items():
            takers = [mb.member_id for mb in members if topic in mb.subscription.topics]
            if not takers:
                continue
            each, extra = divmod(n, len(takers))
            start = 0
            for i, member_id in enumerate(takers):
                stop = start + each + (i < extra)
                plan[member_id] += [TopicPartition(topic, p) for p in range(start, stop)]
                start = stop
        return plan


class RoundRobinAssignor(Assignor):
    """All partitions of all subscribed topics, sorted, dealt one at a time around the sorted
    members, skipping a member not subscribed to the partition's topic: the most even spread
    when subscriptions are equal."""

    name = "roundrobin"

    def _plan(self, members, counts):
        plan: dict[str, list[TopicPartition]] = {mb.member_id: [] for mb in members}
        subscribed = [set(mb.subscription.topics) for mb in members]
        topics = sorted(set().union(*subscribed) & counts.keys(), key=_java)
        turn = 0
        for topic in topics:
            for partition in range(counts[topic]):
                while topic not in subscribed[turn]:
                    turn = (turn + 1) % len(members)
                plan[members[turn].member_id].append(TopicPartition(topic, partition))
                turn = (turn + 1) % len(members)
        return plan


def _sticky_generation(sub: Subscription) -> int:
    """A member's generation as Java's CooperativeStickyAssignor reads it: the subscription's
    field from version 2 on, else the int32 its user data starts with (what Java members
    before ConsumerProtocolSubscription v2 sent), else none."""
    if sub.generation_id >= 0:
        return sub.generation_id
    if sub.user_data is not None and len(sub.user_data) >= 4:
        return _I32.unpack_from(sub.user_data)[0]
    return NO_GENERATION


class CooperativeStickyAssignor(Assignor):
    """Sticky and balanced, for the cooperative protocol (KIP-429): members keep what they own
    as far as balance allows, and a partition that changes owner is given to no one this round.
    Its old owner sees it missing, revokes it and rejoins, and the next round, where no one
    claims it any more, hands it over; so no two members consume a partition at once."""

    name = "cooperative-sticky"
    rebalance_protocol = "cooperative"

    def subscription_user_data(self, generation: int) -> bytes | None:
        """The generation as one int32, as Java's CooperativeStickyAssignor sends it: leaders
        that read subscriptions only up to version 1 (Java before ConsumerProtocolSubscription
        v2) find the generation there; newer ones read the subscription's field."""
        return _I32.pack(generation)

    def _plan(self, members, counts):
        ids = sorted((mb.member_id for mb in members), key=_java)
        rank = {member_id: i for i, member_id in enumerate(ids)}
        wants = {mb.member_id: {t for t in mb.subscription.topics if t in counts} for mb in members}
        takers: dict[str, list[str]] = {}
        for member_id in ids:
            for topic in wants[member_id]:
                takers.setdefault(topic, []).append(member_id)
        owner, claims = _owners(members, counts)

        plan: dict[str, set[TopicPartition]] = {member_id: set() for member_id in ids}
        kept: dict[TopicPartition, str] = {}
        for tp, member_id in owner.items():
            if tp.topic in wants[member_id]:
                plan[member_id].add(tp)
                kept[tp] = member_id
        # the rest, the partitions with fewest possible takers first, each to the least loaded
        free = [
            TopicPartition(topic, p)
            for topic in takers
            for p in range(counts[topic])
            if TopicPartition(topic, p) not in kept
        ]
        free.sort(key=lambda tp: (len(takers[tp.topic]), _tp_order(tp)))
        for tp in free:
            taker = min(takers[tp.topic], key=lambda mid: (len(plan[mid]), rank[mid]))
            plan[taker].add(tp)
        _balance(plan, wants, takers, kept, rank)

        # the cooperative rule: a partition someone else still claims waits until it is let go
        return {
            member_id: [
                tp
                for tp in tps
                if owner.get(tp) == member_id or not claims.get(tp, set()) - {member_id}
            ]
            for member_id, tps in plan.items()
        }


def _owners(
    members: Sequence[Member], counts: dict[str, int]
) -> tuple[dict[TopicPartition, str], dict[TopicPartition, set[str]]]:
    """Who owns each partition now, and everyone who claims it. A partition claimed by several
    members belongs to the claim of the newest generation; claimed by several in that same
    generation, it belongs to none of them (Java since 3.5, KAFKA-14639, and librdkafka). A
    claim from an older generation that no one contests still stands."""
    claims: dict[TopicPartition, set[str]] = {}
    newest: dict[TopicPartition, tuple[int, list[str]]] = {}
    for member in members:
        generation = _sticky_generation(member.subscription)
        for tp in set(member.subscription.owned_partitions):
            claims.setdefault(tp, set()).add(member.member_id)
            if not 0 <= tp.partition < counts.get(tp.topic, 0):
                continue
            best = newest.get(tp)
            if best is None or generation > best[0]:
                newest[tp] = (generation, [member.member_id])
            elif generation == best[0]:
                best[1].append(member.member_id)
    owner = {tp: ids[0] for tp, (_, ids) in newest.items() if len(ids) == 1}
    return owner, claims


def _balance(
    plan: dict[str, set[TopicPartition]],
    wants: dict[str, set[str]],
    takers: dict[str, list[str]],
    kept: dict[TopicPartition, str],
    rank: dict[str, int],
) -> None:
    """Moves partitions from heavier to lighter members while a move, or a chain of moves (A
    gives B a partition, B gives C one of another topic), brings a member closer to one at
    least two below it. Each step lowers the sum of squared loads, so this ends; where it
    ends, no reassignment at all is more even (that sum is at its least), and members with
    the same subscription differ by one partition at most."""

    def move(giver: str, taker: str) -> None:
        # the cheapest of the giver's partitions the taker can have: one the giver did not
        # own before this round (no revocation), else the one Java's sticky assignor gives
        # up first (the last by partition, then topic)
        tp = max(
            (tp for tp in plan[giver] if tp.topic in wants[taker]),
            key=lambda tp: (kept.get(tp) != giver, tp.partition, _java(tp.topic)),
        )
        plan[giver].discard(tp)
        plan[taker].add(tp)

    def neighbours(member_id: str, movable) -> list[str]:
        topics = sorted({tp.topic for tp in plan[member_id] if movable(tp, member_id)}, key=_java)
        seen = dict.fromkeys(mid for topic in topics for mid in takers[topic])
        seen.pop(member_id, None)
        return list(seen)

    def step(movable) -> bool:
        """One improving move or chain, from the heaviest member that has one, passing on
        only partitions ``movable`` allows."""
        lightest = min((len(tps) for tps in plan.values()), default=0)
        stuck: set[str] = set()  # reached by a failed search: their own searches fail too
        for source in sorted(plan, key=lambda mid: (-len(plan[mid]), rank[mid])):
            load = len(plan[source])
            if load < lightest + 2:
                return False
            if source in stuck:
                continue
            near = neighbours(source, movable)
            if near:  # straight to the lightest member that can take one, if it is light enough
                taker = min(near, key=lambda mid: (len(plan[mid]), rank[mid]))
                if len(plan[taker]) + 1 < load:
                    move(source, taker)
                    return True
            parent = {source: source}
            queue = deque([source])
            while queue:
                at = queue.popleft()
                for nxt in neighbours(at, movable):
                    if nxt in parent:
                        continue
                    parent[nxt] = at
                    if len(plan[nxt]) + 1 < load:
                        path = [nxt]
                        while path[-1] != source:
                            path.append(parent[path[-1]])
                        for giver, taker in pairwise(reversed(path)):
                            move(giver, taker)
                        return True
                    queue.append(nxt)
            stuck |= parent.keys()
        return False

    def new(tp: TopicPartition, holder: str) -> bool:
        return kept.get(tp) != holder

    def any_(tp: TopicPartition, holder: str) -> bool:
        return True

    # partitions no one had to give up first: when they can even the loads out, no owner
    # revokes anything (and after a revocation round, the ones let go are enough)
    while step(new) or step(any_):
        pass


ASSIGNORS: dict[str, type[Assignor]] = {
    a.name: a for a in (RangeAssignor, RoundRobinAssignor, CooperativeStickyAssignor)
}
_JAVA_CLASSES = {
    "org.apache.kafka.clients.consumer.RangeAssignor": "range",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor": "roundrobin",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor": "cooperative-sticky",
}


def assignors_for(names: str | list[str]) -> list[Assignor]:
    """The assignors of a ``partition.assignment.strategy`` value, in order of preference:
    librdkafka's names or Java's class names, comma-separated (or a list). A list may mix
    eager and cooperative assignors, as Java's may: the member then rebalances eagerly
    (``GroupMember.cooperative`` needs every assignor cooperative), which is Java's path for
    moving a group from range to cooperative-sticky in two rolling restarts."""
    listed = names.split(",") if isinstance(names, str) else list(names)
    chosen: list[Assignor] = []
    for raw in listed:
        name = raw.strip()
        if not name:
            continue
        key = _JAVA_CLASSES.get(name, name.lower())
        if key not in ASSIGNORS:
            valid = ", ".join([*ASSIGNORS, *_JAVA_CLASSES])
            raise ConfigError(
                f"partition.assignment.strategy: unknown assignor {name!r} (valid: {valid})"
            )
        if all(a.name != key for a in chosen):  # a repeat adds nothing (librdkafka, too)
            chosen.append(ASSIGNORS[key]())
    if not chosen:
        raise ConfigError(f"partition.assignment.strategy {names!r} names no assignor")
    return chosen
