"""Cluster administration: CreateTopics (waiting until every partition has a leader) and
DeleteTopics, sent to the controller; DescribeConfigs, IncrementalAlterConfigs / AlterConfigs
and CreatePartitions. Consumer groups' administration is ``client/groups/admin.py``.

Sans-IO flows like the rest of the client (``flow.py``); the faces' methods of the same names
start them. An API the broker does not speak fails with ``UnsupportedVersionError`` saying
"the broker does not support <Api>".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from kafkawire.errors import CorruptError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ErrorCode, UnsupportedVersionError, raise_for_code

from .core import ClientCore
from .errors import BrokerConnectionError, RequestTimeoutError
from .flow import ANY_BROKER, Call, Deadline, Flow, Gather, Sleep
from .types import TopicInfo

# ---- value types ------------------------------------------------------------------------------


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


def named_call(call: Call) -> Flow[Any]:
    try:
        return (yield call)
    except UnsupportedVersionError as exc:
        raise _named(exc, call) from None


def gathered(calls: list[Call]) -> Flow[list]:
    """The calls' responses, in order; the first failure raised."""
    if not calls:
        return []
    outcomes = yield Gather(calls)
    for call, outcome in zip(calls, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            raise _named(outcome, call) from None
    return outcomes


# ---- topics -----------------------------------------------------------------------------------


def create_topics(
    core: ClientCore,
    topics: Mapping[str, int] | Sequence[str],
    *,
    num_partitions: int = 1,
    replication_factor: int = 1,
    configs: Mapping[str, str] | None = None,
    timeout_ms: int = 30000,
    exist_ok: bool = True,
) -> Flow[dict[str, TopicInfo]]:
    """Create topics (a mapping gives each its partition count) and wait until their leaders
    are known; what this call created, by name (a topic that existed already is left out)."""
    counts = dict(topics) if isinstance(topics, Mapping) else dict.fromkeys(topics, None)
    request = m.CreateTopicsRequest(
        topics=[
            m.CreateTopicsRequest.CreatableTopic(
                name=name,
                num_partitions=num_partitions if count is None else count,
                replication_factor=replication_factor,
                configs=[
                    m.CreateTopicsRequest.CreatableTopicConfig(name=k, value=v)
                    for k, v in (configs or {}).items()
                ],
            )
            for name, count in counts.items()
        ],
        timeout_ms=timeout_ms,
    )
    controller = yield from core.controller()
    response = yield core.call(controller, request, extra_timeout=timeout_ms / 1000)
    created = []
    for t in response.topics:
        if exist_ok and t.error_code == ErrorCode.TOPIC_ALREADY_EXISTS:
            continue
        raise_for_code(t.error_code, t.error_message or t.name)
        created.append(t.name)
    topics = yield from _await_topics(core, list(counts), timeout_ms)
    return {name: topics[name] for name in created}


def _await_topics(
    core: ClientCore, names: list[str], timeout_ms: int
) -> Flow[dict[str, TopicInfo]]:
    deadline = Deadline(timeout_ms / 1000)
    while True:
        topics = (yield from core.metadata(names)).topics
        ready = all(
            n in topics
            and not topics[n].error_code
            and topics[n].partitions
            and all(p.leader >= 0 for p in topics[n].partitions.values())
            for n in names
        )
        if ready:
            return topics
        if deadline.expired:
            raise RequestTimeoutError(f"topics {names} have no leaders after {timeout_ms} ms")
        yield Sleep(0.05)


def delete_topics(core: ClientCore, names: Sequence[str], *, timeout_ms: int = 30000) -> Flow[None]:
    request = m.DeleteTopicsRequest(
        topics=[m.DeleteTopicsRequest.DeleteTopicState(name=n) for n in names],
        topic_names=list(names),
        timeout_ms=timeout_ms,
    )
    controller = yield from core.controller()
    response = yield core.call(controller, request, extra_timeout=timeout_ms / 1000)
    for t in response.responses:
        raise_for_code(t.error_code, t.error_message or t.name)
    core.forget_topics(names)


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
        for response in (yield from gathered(calls)):
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
        for response in (yield from gathered(calls)):
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
    response = yield from named_call(
        core.call(controller, request, extra_timeout=timeout_ms / 1000)
    )
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
