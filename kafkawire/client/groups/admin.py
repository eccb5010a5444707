"""Administration of consumer groups: ListGroups (every broker at once), DescribeGroups and
OffsetFetch (to each group's coordinator), a group's lag, OffsetDelete and DeleteGroups.

Sans-IO flows like the rest of the client (``client/flow.py``); the faces' methods of the same
names start them. An API the broker does not speak fails with ``UnsupportedVersionError``
saying "the broker does not support <Api>" (``client/admin.py``'s ``named_call``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from kafkawire.errors import CorruptError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ErrorCode, raise_for_code

from ..admin import gathered, named_call
from ..consumer.offsets import latest_offsets
from ..core import ClientCore
from ..flow import ANY_BROKER, Flow
from ..types import OffsetAndMetadata, TopicPartition
from .coordinator import find_coordinator

# ---- value types ------------------------------------------------------------------------------


class GroupListing(NamedTuple):
    group_id: str
    protocol_type: str  # "consumer" for consumer groups, "" for groups of offsets only
    state: str | None  # "Stable", "Empty", ...; None when the broker's ListGroups lacks states


class MemberDescription(NamedTuple):
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    assignment: list[TopicPartition]  # decoded for protocol type "consumer", else empty


class GroupDescription(NamedTuple):
    group_id: str
    state: str  # "Dead" for a group that does not exist
    protocol_type: str
    protocol: str  # the assignor ("range", "cooperative-sticky", ...) of a consumer group
    members: list[MemberDescription]
    coordinator: int  # node id


class PartitionLag(NamedTuple):
    committed: int
    end: int  # the high watermark
    lag: int  # end - committed


# ---- groups -----------------------------------------------------------------------------------


def list_groups(core: ClientCore) -> Flow[list[GroupListing]]:
    """Every group of the cluster: ListGroups to each broker at once, merged (sorted by id)."""

    def attempt():
        cluster = yield from core.metadata()
        nodes = sorted(cluster.brokers) or [ANY_BROKER]
        responses = yield from gathered([core.call(n, m.ListGroupsRequest()) for n in nodes])
        found: dict[str, GroupListing] = {}
        for node, response in zip(nodes, responses, strict=True):
            raise_for_code(response.error_code, f"ListGroups on broker {node}")
            for g in response.groups:
                found[g.group_id] = GroupListing(g.group_id, g.protocol_type, g.group_state or None)
        return [found[k] for k in sorted(found)]

    return (yield from core.retrying(attempt, "ListGroups"))


def _coordinators(core: ClientCore, group_ids: Iterable[str]) -> Flow[dict[int, list[str]]]:
    by_node: dict[int, list[str]] = {}
    for group_id in dict.fromkeys(group_ids):
        by_node.setdefault((yield from find_coordinator(core, group_id)), []).append(group_id)
    return by_node


def describe_groups(core: ClientCore, group_ids: Iterable[str]) -> Flow[dict]:
    """group id -> GroupDescription; a group that does not exist has state "Dead"."""
    group_ids = [group_ids] if isinstance(group_ids, str) else list(dict.fromkeys(group_ids))

    def attempt():
        by_node = yield from _coordinators(core, group_ids)
        nodes = list(by_node)
        requests = [m.DescribeGroupsRequest(groups=by_node[n]) for n in nodes]
        responses = yield from gathered(
            [core.call(n, r) for n, r in zip(nodes, requests, strict=True)]
        )
        found = {}
        for node, response in zip(nodes, responses, strict=True):
            for g in response.groups:
                if g.group_id not in by_node[node]:
                    continue
                if g.error_code == ErrorCode.GROUP_ID_NOT_FOUND:
                    found[g.group_id] = GroupDescription(g.group_id, "Dead", "", "", [], node)
                    continue
                raise_for_code(g.error_code, f"group {g.group_id!r}")
                found[g.group_id] = GroupDescription(
                    g.group_id,
                    g.group_state,
                    g.protocol_type,
                    g.protocol_data,
                    [_member(g.protocol_type, x) for x in g.members],
                    node,
                )
        missing = [g for g in group_ids if g not in found]
        if missing:
            raise CorruptError(f"DescribeGroups answer lacks {missing}")
        return {g: found[g] for g in group_ids}

    return (yield from core.retrying(attempt, "DescribeGroups"))


def _member(protocol_type: str, member) -> MemberDescription:
    assignment: list[TopicPartition] = []
    data = member.member_assignment
    if protocol_type == "consumer" and data is not None and len(data):
        from .assignors import decode_assignment  # written beside this module

        assignment = [TopicPartition(*tp) for tp in decode_assignment(data).partitions]
    return MemberDescription(
        member.member_id, member.group_instance_id, member.client_id, member.client_host, assignment
    )


def _by_topic(tps: Iterable[TopicPartition]) -> dict[str, list[int]]:
    topics: dict[str, list[int]] = {}
    for topic, partition in tps:
        topics.setdefault(topic, []).append(partition)
    return topics


def _offset_fetch_request(
    group_id: str,
    partitions: Iterable[TopicPartition] | None,
    member: tuple[str, int] | None = None,
):
    # a KIP-848 member's id and epoch (v9+): the broker refuses a member it fenced
    member_id, member_epoch = (None, -1) if member is None else member
    if partitions is None:
        return m.OffsetFetchRequest(
            group_id=group_id,
            topics=None,
            groups=[
                m.OffsetFetchRequest.OffsetFetchRequestGroup(
                    group_id=group_id, member_id=member_id, member_epoch=member_epoch, topics=None
                )
            ],
        )
    topics = _by_topic(partitions)
    return m.OffsetFetchRequest(
        group_id=group_id,
        topics=[
            m.OffsetFetchRequest.OffsetFetchRequestTopic(name=t, partition_indexes=p)
            for t, p in topics.items()
        ],
        groups=[
            m.OffsetFetchRequest.OffsetFetchRequestGroup(
                group_id=group_id,
                member_id=member_id,
                member_epoch=member_epoch,
                topics=[
                    m.OffsetFetchRequest.OffsetFetchRequestTopics(name=t, partition_indexes=p)
                    for t, p in topics.items()
                ],
            )
        ],
    )


def list_group_offsets(
    core: ClientCore,
    group_id: str,
    partitions: Iterable[TopicPartition] | None = None,
    *,
    member: tuple[str, int] | None = None,
) -> Flow[dict[TopicPartition, OffsetAndMetadata]]:
    """The group's committed offsets (of ``partitions``, or all of them when None); partitions
    without a committed offset are left out. ``member``: (member id, member epoch) of a KIP-848
    member asking for its own group's (sent from OffsetFetch v9 on)."""
    if partitions is not None:
        partitions = [TopicPartition(*tp) for tp in partitions]
        if not partitions:
            return {}
    request = _offset_fetch_request(group_id, partitions, member)

    def attempt():
        node = yield from find_coordinator(core, group_id)
        response = yield from named_call(core.call(node, request))
        if response.groups:  # v8+: one answer per group
            answers = [g for g in response.groups if g.group_id == group_id]
            if not answers:
                raise CorruptError(f"OffsetFetch answer lacks {group_id!r}")
            error_code, topics = answers[0].error_code, answers[0].topics
        else:
            error_code, topics = response.error_code, response.topics
        raise_for_code(error_code, f"offsets of group {group_id!r}")
        found = {}
        for t in topics:
            for p in t.partitions:
                raise_for_code(p.error_code, f"group {group_id!r} {t.name}-{p.partition_index}")
                if p.committed_offset < 0:
                    continue
                epoch = p.committed_leader_epoch
                found[TopicPartition(t.name, p.partition_index)] = OffsetAndMetadata(
                    p.committed_offset, p.metadata or "", None if epoch < 0 else epoch
                )
        return found

    return (yield from core.retrying(attempt, "OffsetFetch"))


def group_lag(core: ClientCore, group_id: str) -> Flow[dict[TopicPartition, PartitionLag]]:
    """Per partition with a committed offset: committed, the end (high watermark) and
    end - committed."""
    committed = yield from list_group_offsets(core, group_id)
    if not committed:
        return {}
    ends = yield from latest_offsets(core, committed)
    return {
        tp: PartitionLag(c.offset, ends[tp], ends[tp] - c.offset)
        for tp, c in sorted(committed.items())
    }


def delete_group_offsets(
    core: ClientCore, group_id: str, partitions: Iterable[TopicPartition]
) -> Flow[None]:
    """Forget the group's committed offsets of ``partitions`` (OffsetDelete); the group must
    not be subscribed to their topics."""
    topics = _by_topic(TopicPartition(*tp) for tp in partitions)
    request = m.OffsetDeleteRequest(
        group_id=group_id,
        topics=[
            m.OffsetDeleteRequest.OffsetDeleteRequestTopic(
                name=t,
                partitions=[
                    m.OffsetDeleteRequest.OffsetDeleteRequestPartition(partition_index=p)
                    for p in parts
                ],
            )
            for t, parts in topics.items()
        ],
    )

    def attempt():
        node = yield from find_coordinator(core, group_id)
        response = yield from named_call(core.call(node, request))
        raise_for_code(response.error_code, f"group {group_id!r}")
        for t in response.topics:
            for p in t.partitions:
                raise_for_code(p.error_code, f"group {group_id!r} {t.name}-{p.partition_index}")

    yield from core.retrying(attempt, "OffsetDelete")


def delete_groups(core: ClientCore, group_ids: Iterable[str]) -> Flow[None]:
    """Delete groups (each must have no members), their committed offsets with them."""
    group_ids = [group_ids] if isinstance(group_ids, str) else list(dict.fromkeys(group_ids))

    def attempt():
        by_node = yield from _coordinators(core, group_ids)
        nodes = list(by_node)
        calls = [core.call(n, m.DeleteGroupsRequest(groups_names=by_node[n])) for n in nodes]
        answered = set()
        for response in (yield from gathered(calls)):
            for r in response.results:
                raise_for_code(r.error_code, f"group {r.group_id!r}")
                answered.add(r.group_id)
        missing = [g for g in group_ids if g not in answered]
        if missing:
            raise CorruptError(f"DeleteGroups answer lacks {missing}")

    yield from core.retrying(attempt, "DeleteGroups")
