"""The state every flow shares: the settings and what is known of the cluster (brokers,
topics, leaders), with the metadata flows that keep it current. No IO."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError, raise_for_code

from .config.client import ClientConfig
from .errors import BrokerConnectionError
from .flow import ANY_BROKER, Call, Flow, retrying
from .types import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition

ConnectionKey = int | tuple[str, int]  # a broker's node id, or a bootstrap address


class ClientCore:
    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self.brokers: dict[int, tuple[str, int]] = {}
        self.cluster: ClusterMetadata | None = None

    # ---- building blocks of flows -----------------------------------------------------------

    def call(
        self, node: int | None, request, *, extra_timeout: float = 0.0, newest: int | None = None
    ) -> Call:
        """A Call with the request timeout (plus ``extra_timeout``: a broker-side wait)."""
        return Call(node, request, self.config.request_timeout + extra_timeout, newest)

    def retrying(self, attempt, what: str) -> Flow:
        """``attempt()`` with the configured retries, refreshing metadata between tries."""
        c = self.config
        return retrying(
            attempt,
            what,
            retries=c.retries,
            backoff=c.retry_backoff,
            backoff_max=c.retry_backoff_max,
            refresh=self.metadata_once,
        )

    def route(self, node: int | None) -> list[tuple[ConnectionKey, tuple[str, int]]]:
        """Where a Call to ``node`` may go, in the order to try: the broker itself, or for
        ANY_BROKER every known broker, then the bootstrap servers."""
        if node is ANY_BROKER:
            known: list[tuple[ConnectionKey, tuple[str, int]]] = list(self.brokers.items())
            return known + [(addr, addr) for addr in self.config.bootstrap_servers]
        address = self.brokers.get(node)
        return [] if address is None else [(node, address)]

    def idle_too_long(self, address: str, last_used: float, busy: bool, log) -> bool:
        """Whether a connection to ``address`` unused since ``last_used`` (monotonic) and with
        nothing in flight (``busy`` False) is past connections.max.idle.ms (a load balancer or
        firewall may have dropped it without a word): the transports close it, not use it."""
        limit = self.config.connections_max_idle
        if not limit or busy:
            return False
        idle = time.monotonic() - last_used
        if idle < limit:
            return False
        log.debug("closing %s: idle for %.3g s (connections.max.idle.ms)", address, idle)
        return True

    def broker_name(self, node: int) -> str:
        """How errors name a broker: its node id and, when known, its address."""
        address = self.brokers.get(node)
        return (
            f"broker {node}" if address is None else f"broker {node} at {address[0]}:{address[1]}"
        )

    # ---- metadata ----------------------------------------------------------------------------

    def metadata(self, topics: Sequence[str] | None = None) -> Flow[ClusterMetadata]:
        """Brokers and topics (all of them when ``topics`` is None), with retries."""
        return self.retrying(lambda: self.metadata_once(topics), "Metadata")

    def metadata_once(self, topics: Sequence[str] | None = None) -> Flow[ClusterMetadata]:
        request = m.MetadataRequest(
            topics=None
            if topics is None
            else [m.MetadataRequest.MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=self.config.allow_auto_create_topics,
        )
        response = yield self.call(ANY_BROKER, request)
        return self._apply_metadata(response, topics)

    def _apply_metadata(self, response, topics: Sequence[str] | None) -> ClusterMetadata:
        brokers = {b.node_id: (b.host, b.port) for b in response.brokers}
        self.brokers.update(brokers)
        found = {}
        for t in response.topics:
            partitions = {
                p.partition_index: PartitionInfo(
                    p.partition_index,
                    p.leader_id,
                    p.leader_epoch,
                    list(p.replica_nodes),
                    list(p.isr_nodes),
                    p.error_code,
                )
                for p in t.partitions
            }
            found[t.name] = TopicInfo(t.name, t.topic_id, partitions, t.error_code, t.is_internal)
        answer = ClusterMetadata(brokers, found, response.controller_id, response.cluster_id)
        if self.cluster is None or topics is None:
            self.cluster = ClusterMetadata(brokers, dict(found), answer.controller_id, None)
        else:
            self.cluster.brokers = brokers
            self.cluster.topics.update(found)
        return answer

    def take_leader(self, topic: str, partition: int, current, endpoints: dict) -> bool | None:
        """KIP-951: an answer that refuses a partition (Produce NOT_LEADER_OR_FOLLOWER, Fetch
        12+) names its leader (CurrentLeader) and, in NodeEndpoints (``endpoints``: node id
        to (host, port)), addresses the client may lack. True: the leader is taken; False: the
        known leader is newer news; None: the answer names none that can be used (metadata
        must be asked)."""
        leader = current.leader_id
        if leader < 0 or (leader not in endpoints and leader not in self.brokers):
            return None
        info = None if self.cluster is None else self.cluster.topics.get(topic)
        known = None if info is None else info.partitions.get(partition)
        if known is None:
            return None
        if current.leader_epoch < known.leader_epoch:
            return False
        if leader in endpoints:
            self.brokers[leader] = endpoints[leader]
        info.partitions[partition] = known._replace(
            leader=leader, leader_epoch=current.leader_epoch, error_code=0
        )
        return True

    def take_current_leaders(self, response, names) -> set[TopicPartition]:
        """The partitions a Fetch (or ShareFetch) answer refused whose new leader it names
        (``take_leader``), which need no metadata refresh. ``names``: topic id to name."""
        endpoints = {e.node_id: (e.host, e.port) for e in response.node_endpoints or ()}
        moved: set[TopicPartition] = set()
        for t in response.responses:
            name = getattr(t, "topic", None) or names.get(t.topic_id)  # ShareFetch: ids only
            for p in t.partitions:
                if p.error_code and self.take_leader(
                    name, p.partition_index, p.current_leader, endpoints
                ):
                    moved.add(TopicPartition(name, p.partition_index))
        return moved

    def forget_topics(self, names: Iterable[str]) -> None:
        if self.cluster is not None:
            for name in names:
                self.cluster.topics.pop(name, None)

    def topic(self, name: str, *, refresh: bool = False) -> Flow[TopicInfo]:
        """What is known of topic ``name``, asked for when unknown or failed."""
        info = None if self.cluster is None or refresh else self.cluster.topics.get(name)
        if info is None or info.error_code:
            info = (yield from self.metadata([name])).topics.get(name)
        if info is None:
            raise UnknownTopicOrPartitionError(name)
        raise_for_code(info.error_code, f"topic {name!r}")
        return info

    def leader(self, tp: TopicPartition) -> Flow[int]:
        info = yield from self.topic(tp.topic)
        part = info.partitions.get(tp.partition)
        if part is None:
            raise UnknownTopicOrPartitionError(f"{tp.topic}-{tp.partition}")
        raise_for_code(part.error_code, f"{tp.topic}-{tp.partition}")
        yield from self.known_node(part.leader)
        return part.leader

    def by_leader(self, tps: Iterable[TopicPartition]) -> Flow[dict[int, list[TopicPartition]]]:
        groups: dict[int, list[TopicPartition]] = {}
        for tp in tps:
            groups.setdefault((yield from self.leader(tp)), []).append(tp)
        return groups

    def known_node(self, node: int) -> Flow[None]:
        """Make sure broker ``node``'s address is known (a Call to it can be routed)."""
        if node not in self.brokers:
            yield from self.metadata()
        if node not in self.brokers:
            raise BrokerConnectionError(f"broker {node} is not in the cluster metadata")

    def controller(self) -> Flow[int | None]:
        """The controller's node id, or ANY_BROKER when the cluster names none."""
        cluster = yield from self.metadata([])
        if cluster.controller_id >= 0 and cluster.controller_id in self.brokers:
            return cluster.controller_id
        return ANY_BROKER
