"""Topic administration: CreateTopics (waiting until every partition has a leader) and
DeleteTopics, sent to the controller."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ErrorCode, raise_for_code

from .core import ClientCore
from .errors import RequestTimeoutError
from .flow import Deadline, Flow, Sleep
from .types import TopicInfo


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
