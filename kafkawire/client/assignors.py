"""Consumer-group assignors of Kafka's classic protocol, and the ConsumerProtocol payloads they
travel in (JoinGroup metadata: a member's subscription; SyncGroup: its assignment). No IO: the
group flow (``group.py``) hands the leader's members and the topics' partition counts in.

Whoever is the group's leader (a kafkawire member, a Java one, librdkafka) computes every
member's assignment, so the eager assignors follow Java's rules exactly; the cooperative one
guarantees what the protocol needs (each partition to one member, balance, stickiness, no
partition handed over in the round its old owner gives it up).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import ClassVar, NamedTuple

from kafkawire.errors import DecodeError, KafkawireError
from kafkawire.protocol import decode, encode
from kafkawire.protocol import messages as m

from .errors import ConfigError
from .types import TopicPartition

_VERSION = struct.Struct(">h")
_NEWEST = 3  # of ConsumerProtocolSubscription / ConsumerProtocolAssignment


class Subscription(NamedTuple):
    topics: list[str]
    user_data: bytes | None = None
    owned_partitions: list[TopicPartition] = []
    generation_id: int = -1
    rack_id: str | None = None


class Assignment(NamedTuple):
    partitions: list[TopicPartition]
    user_data: bytes | None = None


class Member(NamedTuple):
    member_id: str
    group_instance_id: str | None
    subscription: Subscription


def _by_topic(tps: Iterable[TopicPartition], cls) -> list:
    topics: dict[str, list[int]] = {}
    for topic, partition in tps:
        topics.setdefault(topic, []).append(partition)
    return [cls(topic=t, partitions=sorted(p)) for t, p in sorted(topics.items())]


def _payload(data: bytes, cls, what: str):
    """The message of a ``version`` + message payload; a version newer than kafkawire knows
    is read as the newest it knows, as Java does."""
    if len(data) < 2:
        raise DecodeError(f"{what}: {len(data)} bytes, not even a version", offset=0)
    (version,) = _VERSION.unpack_from(data)
    if version < 0:
        raise DecodeError(f"{what}: version {version}", offset=0, field="version")
    try:
        return decode(cls, memoryview(data)[2:], version=min(version, _NEWEST))
    except KafkawireError as exc:
        raise DecodeError(f"{what} (version {version}): {exc}", offset=2) from None


def encode_subscription(sub: Subscription, version: int = _NEWEST) -> bytes:
    message = m.ConsumerProtocolSubscription(
        topics=list(sub.topics),
        user_data=sub.user_data,
        owned_partitions=_by_topic(
            sub.owned_partitions, m.ConsumerProtocolSubscription.TopicPartition
        ),
        generation_id=sub.generation_id,
        rack_id=sub.rack_id,
    )
    return _VERSION.pack(version) + bytes(encode(message, version=version))


def decode_subscription(data: bytes) -> Subscription:
    s = _payload(data, m.ConsumerProtocolSubscription, "consumer subscription")
    owned = [TopicPartition(t.topic, p) for t in s.owned_partitions or [] for p in t.partitions]
    user_data = None if s.user_data is None else bytes(s.user_data)
    return Subscription(list(s.topics), user_data, owned, s.generation_id, s.rack_id)


def encode_assignment(assignment: Assignment, version: int = _NEWEST) -> bytes:
    message = m.ConsumerProtocolAssignment(
        assigned_partitions=_by_topic(
            assignment.partitions, m.ConsumerProtocolAssignment.TopicPartition
        ),
        user_data=assignment.user_data,
    )
    return _VERSION.pack(version) + bytes(encode(message, version=version))


def decode_assignment(data: bytes) -> Assignment:
    """A member's assignment; an empty payload (what brokers send a member given nothing)
    is an empty assignment."""
    if not data:
        return Assignment([])
    a = _payload(data, m.ConsumerProtocolAssignment, "consumer assignment")
    tps = [TopicPartition(t.topic, p) for t in a.assigned_partitions for p in t.partitions]
    return Assignment(tps, None if a.user_data is None else bytes(a.user_data))


def _member_order(member: Member) -> tuple:
    """Java's order of members: static ones first, by instance id, then by member id."""
    if member.group_instance_id is not None:
        return (0, member.group_instance_id)
    return (1, member.member_id)


class _Assignor:
    name: ClassVar[str]
    rebalance_protocol: ClassVar[str] = "eager"

    def assign(
        self, members: list[Member], partitions_per_topic: dict[str, int]
    ) -> dict[str, Assignment]:
        plan = self._plan(sorted(members, key=_member_order), partitions_per_topic)
        return {member.member_id: Assignment(sorted(plan[member.member_id])) for member in members}

    def _plan(self, members: list[Member], counts: dict[str, int]) -> dict[str, list]:
        raise NotImplementedError


class RangeAssignor(_Assignor):
    """Per topic, its partitions in contiguous ranges over the members subscribed to it; the
    first ``n % m`` members (in Java's order) get one more."""

    name = "range"

    def _plan(self, members, counts):
        plan: dict[str, list] = {member.member_id: [] for member in members}
        topics = sorted({t for member in members for t in member.subscription.topics})
        for topic in topics:
            if topic not in counts:
                continue
            takers = [mb for mb in members if topic in mb.subscription.topics]
            each, extra = divmod(counts[topic], len(takers))
            start = 0
            for i, member in enumerate(takers):
                length = each + (1 if i < extra else 0)
                plan[member.member_id] += [
                    TopicPartition(topic, p) for p in range(start, start + length)
                ]
                start += length
        return plan


class RoundRobinAssignor(_Assignor):
    """Every topic-partition, sorted, dealt in turn to the members (in Java's order),
    skipping those not subscribed to its topic."""

    name = "roundrobin"

    def _plan(self, members, counts):
        plan: dict[str, list] = {member.member_id: [] for member in members}
        topics = sorted({t for member in members for t in member.subscription.topics} & set(counts))
        turn = 0
        for topic in topics:
            for partition in range(counts[topic]):
                for step in range(len(members)):
                    member = members[(turn + step) % len(members)]
                    if topic in member.subscription.topics:
                        plan[member.member_id].append(TopicPartition(topic, partition))
                        turn = (turn + step + 1) % len(members)
                        break
        return plan


class CooperativeStickyAssignor(_Assignor):
    """Balanced and sticky: members keep what they own (the claims of the newest generation
    win), the rest goes to the least loaded members that can take it, then partitions move
    from the most to the least loaded until no eligible move narrows the gap. A partition
    that changes owner is left out of this round (its owner revokes it, rejoins, and the
    next round hands it over): the cooperative protocol's rule."""

    name = "cooperative-sticky"
    rebalance_protocol = "cooperative"

    def _plan(self, members, counts):
        everything = {
            TopicPartition(t, p)
            for t in {t for mb in members for t in mb.subscription.topics}
            if t in counts
            for p in range(counts[t])
        }
        wants = {mb.member_id: set(mb.subscription.topics) for mb in members}
        owner = self._owners(members, everything, wants)
        plan: dict[str, set] = {mb.member_id: set() for mb in members}
        for tp, member_id in owner.items():
            plan[member_id].add(tp)
        order = [mb.member_id for mb in members]

        def lightest(tp):
            able = [mid for mid in order if tp.topic in wants[mid]]
            return min(able, key=lambda mid: len(plan[mid])) if able else None

        for tp in sorted(everything - set(owner)):
            member_id = lightest(tp)
            if member_id is not None:
                plan[member_id].add(tp)
        moved = True
        while moved:  # move from the heaviest to a lighter member while it narrows the gap
            moved = False
            for heavy in sorted(order, key=lambda mid: -len(plan[mid])):
                for tp in sorted(plan[heavy], reverse=True):
                    light = lightest(tp)
                    if light is not None and len(plan[light]) + 1 < len(plan[heavy]):
                        plan[heavy].discard(tp)
                        plan[light].add(tp)
                        moved = True
                        break
                if moved:
                    break
        # a partition whose owner changes waits for its owner to give it up
        return {mid: [tp for tp in tps if owner.get(tp, mid) == mid] for mid, tps in plan.items()}

    @staticmethod
    def _owners(members, everything, wants) -> dict[TopicPartition, str]:
        """Who owns what now: claims of existing, still subscribed partitions; when two
        members claim one, the newer generation's claim stands."""
        owner: dict[TopicPartition, str] = {}
        generation: dict[TopicPartition, int] = {}
        for member in members:
            sub = member.subscription
            for tp in sub.owned_partitions:
                if tp not in everything or tp.topic not in wants[member.member_id]:
                    continue
                if tp not in owner or sub.generation_id > generation[tp]:
                    owner[tp] = member.member_id
                    generation[tp] = sub.generation_id
        return owner


ASSIGNORS: dict[str, type[_Assignor]] = {
    a.name: a for a in (RangeAssignor, RoundRobinAssignor, CooperativeStickyAssignor)
}
_JAVA_NAMES = {
    "org.apache.kafka.clients.consumer.RangeAssignor": "range",
    "org.apache.kafka.clients.consumer.RoundRobinAssignor": "roundrobin",
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor": "cooperative-sticky",
}


def assignors_for(names: str | list[str]) -> list[_Assignor]:
    """The assignors of a ``partition.assignment.strategy`` value (librdkafka's names or
    Java's class names, comma-separated), in the order of preference given."""
    listed = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    chosen = []
    for name in filter(None, listed):
        key = _JAVA_NAMES.get(name, name.lower())
        if key not in ASSIGNORS:
            raise ConfigError(
                f"partition.assignment.strategy: unknown assignor {name!r} "
                f"(known: {', '.join(ASSIGNORS)})"
            )
        chosen.append(ASSIGNORS[key]())
    if not chosen:
        raise ConfigError("partition.assignment.strategy names no assignor")
    return chosen
