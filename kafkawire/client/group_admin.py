"""Administration of consumer groups and configs: ListGroups (every broker at once),
DescribeGroups and OffsetFetch (to each group's coordinator), a group's lag, OffsetDelete,
DeleteGroups, DescribeConfigs, IncrementalAlterConfigs / AlterConfigs and CreatePartitions.

Sans-IO flows like the rest of the client (``flow.py``); the faces' methods of the same names
start them. An API the broker does not speak fails with ``UnsupportedVersionError`` saying
"the broker does not support <Api>".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from kafkawire.errors import CorruptError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ErrorCode, UnsupportedVersionError, raise_for_code

from .coordinator import find_coordinator
from .core import ClientCore
from .errors import BrokerConnectionError, RequestTimeoutError
from .flow import ANY_BROKER, Call, Deadline, Flow, Gather, Sleep
from .offsets import latest_offsets
from .types import OffsetAndMetadata, TopicPartition

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


class ConfigResource(NamedTuple):
    type: str  # "topic", "broker", "broker_logger", "group", "client_metrics"
    name: str  # a topic name, a broker's node id as text ("" for the cluster-wide default)


class ConfigEntry(NamedTuple):
    name: str
    value: str | None  # None for a sensitive value
    source: str  # "DYNAMIC_TOPIC_CONFIG", "DEFAULT_CONFIG", ... ("UNKNOWN" when not told)
    is_read_only: bool
    is_sensitive: bool
    is_default: bool


RESOURCE_TYPES = {
    "topic": 2,
    "group": 3,
    "broker": 4,
    "broker_logger": 8,
    "client_metrics": 16,
}
_RESOURCE_NAMES = {code: name for name, code in RESOURCE_TYPES.items()}

CONFIG_SOURCES = {
    0: "UNKNOWN",
    1: "DYNAMIC_TOPIC_CONFIG",
    2: "DYNAMIC_BROKER_CONFIG",
    3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG",
    5: "DEFAULT_CONFIG",
    6: "DYNAMIC_BROKER_LOGGER_CONFIG",
    7: "CLIENT_METRICS_CONFIG",
    8: "GROUP_CONFIG",
}
_DEFAULT_CONFIG = 5
_SET, _DELETE = 0, 1  # IncrementalAlterConfigs' operations

# ---- calls that name the API the broker lacks -------------------------------------------------

_API_NAMES = {
    m.ListGroupsRequest: "ListGroups",
    m.DescribeGroupsRequest: "DescribeGroups",
    m.OffsetFetchRequest: "OffsetFetch",
    m.OffsetDeleteRequest: "OffsetDelete",
    m.DeleteGroupsRequest: "DeleteGroups",
    m.DescribeConfigsRequest: "DescribeConfigs",
    m.AlterConfigsRequest: "AlterConfigs",
    m.IncrementalAlterConfigsRequest: "IncrementalAlterConfigs",
    m.CreatePartitionsRequest: "CreatePartitions",
}


def _named(exc: BaseException, call: Call) -> BaseException:
    """The session's "does not support" error with the API's Kafka name (OffsetDelete, not
    OFFSET_DELETE); other failures as they are."""
    if isinstance(exc, UnsupportedVersionError) and (exc.message or "").startswith(
        "the broker does not support"
    ):
        name = _API_NAMES.get(type(call.request), type(call.request).__name__)
        return UnsupportedVersionError(f"the broker does not support {name}")
    return exc


def _call(call: Call) -> Flow[Any]:
    try:
        return (yield call)
    except UnsupportedVersionError as exc:
        raise _named(exc, call) from None


def _gather(calls: list[Call]) -> Flow[list]:
    """The calls' responses, in order; the first failure raised."""
    if not calls:
        return []
    outcomes = yield Gather(calls)
    for call, outcome in zip(calls, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            raise _named(outcome, call) from None
    return outcomes


# ---- groups -----------------------------------------------------------------------------------


def list_groups(core: ClientCore) -> Flow[list[GroupListing]]:
    """Every group of the cluster: ListGroups to each broker at once, merged (sorted by id)."""

    def attempt():
        cluster = yield from core.metadata()
        nodes = sorted(cluster.brokers) or [ANY_BROKER]
        responses = yield from _gather([core.call(n, m.ListGroupsRequest()) for n in nodes])
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
        responses = yield from _gather(
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
        response = yield from _call(core.call(node, request))
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
        response = yield from _call(core.call(node, request))
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
        for response in (yield from _gather(calls)):
            for r in response.results:
                raise_for_code(r.error_code, f"group {r.group_id!r}")
                answered.add(r.group_id)
        missing = [g for g in group_ids if g not in answered]
        if missing:
            raise CorruptError(f"DeleteGroups answer lacks {missing}")

    yield from core.retrying(attempt, "DeleteGroups")


# ---- configs ----------------------------------------------------------------------------------


def config_resource(resource) -> ConfigResource:
    """A ConfigResource from one, or from a (type, name) pair; the type by name or by Kafka's
    code (2 topic, 4 broker, ...)."""
    kind, name = resource
    if isinstance(kind, int):
        if kind not in _RESOURCE_NAMES:
            raise ValueError(f"unknown config resource type {kind}")
        kind = _RESOURCE_NAMES[kind]
    kind = str(kind).lower()
    if kind not in RESOURCE_TYPES:
        raise ValueError(
            f"unknown config resource type {kind!r} (one of {', '.join(RESOURCE_TYPES)})"
        )
    name = str(name)
    if kind in ("broker", "broker_logger") and name and not name.isdigit():
        raise ValueError(f"a {kind} resource is named by a node id, not {name!r}")
    return ConfigResource(kind, name)


def config_resources(resources) -> list[ConfigResource]:
    """``{"topic": ["t1", "t2"], "broker": [1]}``, or ConfigResources / (type, name) pairs."""
    if isinstance(resources, Mapping):
        pairs = [
            (kind, name)
            for kind, names in resources.items()
            for name in ([names] if isinstance(names, (str, int)) else names)
        ]
    elif isinstance(resources, tuple) and len(resources) == 2 and isinstance(resources[1], str):
        pairs = [resources]  # one resource
    else:
        pairs = list(resources)
    return list(dict.fromkeys(config_resource(p) for p in pairs))


def _by_node(core: ClientCore, resources: list[ConfigResource]) -> Flow[dict]:
    """Where each resource's request goes: broker (and broker logger) resources to that
    broker, the rest (topics, the cluster-wide broker default) to any broker."""
    groups: dict[int | None, list[ConfigResource]] = {}
    for r in resources:
        node = ANY_BROKER
        if r.type in ("broker", "broker_logger") and r.name:
            node = int(r.name)
            if node not in core.brokers:
                yield from core.metadata()
            if node not in core.brokers:
                raise BrokerConnectionError(
                    f"broker {node} is not in the cluster metadata (brokers: "
                    f"{', '.join(map(str, sorted(core.brokers)))})"
                )
        groups.setdefault(node, []).append(r)
    return groups


def describe_configs(
    core: ClientCore, resources
) -> Flow[dict[ConfigResource, dict[str, ConfigEntry]]]:
    """resource -> config name -> ConfigEntry, for every config of each resource."""
    wanted = config_resources(resources)
    groups = yield from _by_node(core, wanted)

    def attempt():
        calls = [
            core.call(
                node,
                m.DescribeConfigsRequest(
                    resources=[
                        m.DescribeConfigsRequest.DescribeConfigsResource(
                            resource_type=RESOURCE_TYPES[r.type],
                            resource_name=r.name,
                            configuration_keys=None,
                        )
                        for r in rs
                    ]
                ),
            )
            for node, rs in groups.items()
        ]
        found = {}
        for response in (yield from _gather(calls)):
            for result in response.results:
                resource = config_resource((result.resource_type, result.resource_name))
                raise_for_code(
                    result.error_code, result.error_message or f"{resource.type} {resource.name}"
                )
                found[resource] = {c.name: _entry(c) for c in result.configs}
        missing = [r for r in wanted if r not in found]
        if missing:
            raise CorruptError(f"DescribeConfigs answer lacks {missing}")
        return {r: found[r] for r in wanted}

    return (yield from core.retrying(attempt, "DescribeConfigs"))


def _entry(c) -> ConfigEntry:
    source = c.config_source
    if source < 0:  # version 0: no source, only is_default
        source = _DEFAULT_CONFIG if c.is_default else 0
    return ConfigEntry(
        c.name,
        c.value,
        CONFIG_SOURCES.get(source, str(source)),
        c.read_only,
        c.is_sensitive,
        source == _DEFAULT_CONFIG,
    )


def alter_configs(
    core: ClientCore,
    changes: Mapping[Any, Mapping[str, str | None]],
    *,
    incremental: bool = True,
    validate_only: bool = False,
) -> Flow[None]:
    """Change configs: ``{ConfigResource("topic", "t1"): {"retention.ms": "1000",
    "cleanup.policy": None}}``. Incremental (IncrementalAlterConfigs): a value sets the
    config, None deletes it (back to its default). Not incremental (the older AlterConfigs):
    the given configs replace all the resource's dynamic ones, None ones left out."""
    changes = {config_resource(r): dict(c) for r, c in changes.items()}

    def request(rs: list[ConfigResource]):
        if incremental:
            make = m.IncrementalAlterConfigsRequest
            return make(
                resources=[
                    make.AlterConfigsResource(
                        resource_type=RESOURCE_TYPES[r.type],
                        resource_name=r.name,
                        configs=[
                            make.AlterableConfig(
                                name=k, config_operation=_DELETE if v is None else _SET, value=v
                            )
                            for k, v in changes[r].items()
                        ],
                    )
                    for r in rs
                ],
                validate_only=validate_only,
            )
        return m.AlterConfigsRequest(
            resources=[
                m.AlterConfigsRequest.AlterConfigsResource(
                    resource_type=RESOURCE_TYPES[r.type],
                    resource_name=r.name,
                    configs=[
                        m.AlterConfigsRequest.AlterableConfig(name=k, value=v)
                        for k, v in changes[r].items()
                        if v is not None
                    ],
                )
                for r in rs
            ],
            validate_only=validate_only,
        )

    groups = yield from _by_node(core, list(changes))

    def attempt():
        calls = [core.call(node, request(rs)) for node, rs in groups.items()]
        for response in (yield from _gather(calls)):
            for result in response.responses:
                raise_for_code(
                    result.error_code,
                    result.error_message or f"{result.resource_name!r}",
                )

    yield from core.retrying(attempt, "IncrementalAlterConfigs" if incremental else "AlterConfigs")


# ---- partitions -------------------------------------------------------------------------------


def create_partitions_request(
    counts: Mapping[str, int], *, timeout_ms: int = 30000, validate_only: bool = False
):
    """The CreatePartitionsRequest raising each topic's partition count to ``counts[topic]``
    (the broker places the new partitions)."""
    return m.CreatePartitionsRequest(
        topics=[
            m.CreatePartitionsRequest.CreatePartitionsTopic(
                name=name, count=int(count), assignments=None
            )
            for name, count in counts.items()
        ],
        timeout_ms=timeout_ms,
        validate_only=validate_only,
    )


def create_partitions(
    core: ClientCore,
    counts: Mapping[str, int],
    *,
    timeout_ms: int = 30000,
    validate_only: bool = False,
) -> Flow[None]:
    """Raise topics' partition counts (``{"topic": new_total_count}``) and, unless
    ``validate_only``, wait until the new partitions have leaders."""
    counts = dict(counts)
    request = create_partitions_request(counts, timeout_ms=timeout_ms, validate_only=validate_only)
    controller = yield from core.controller()
    response = yield from _call(core.call(controller, request, extra_timeout=timeout_ms / 1000))
    for r in response.results:
        raise_for_code(r.error_code, r.error_message or r.name)
    if validate_only:
        return
    deadline = Deadline(timeout_ms / 1000)
    while True:
        topics = (yield from core.metadata(list(counts))).topics
        if all(
            n in topics
            and not topics[n].error_code
            and len(topics[n].partitions) >= count
            and all(p.leader >= 0 for p in topics[n].partitions.values())
            for n, count in counts.items()
        ):
            return
        if deadline.expired:
            raise RequestTimeoutError(
                f"the new partitions of {sorted(counts)} have no leaders after {timeout_ms} ms"
            )
        yield Sleep(0.05)
