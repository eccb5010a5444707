"""Consumer-group membership, classic protocol, as sans-IO flows: JoinGroup and SyncGroup (the
leader runs the assignor), Heartbeat, LeaveGroup, and the group's offsets (OffsetCommit fenced
by the generation, OffsetFetch).

``GroupMember`` holds the membership (member id, generation, coordinator) that the consumer's
poll and its heartbeat thread or task share; what they change together goes under ``lock``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import BrokerError, ErrorCode, raise_for_code

from ..consumer.config import ConsumerConfig
from ..core import ClientCore
from ..errors import BrokerConnectionError, ClientError, RequestTimeoutError
from ..flow import Flow, Sleep
from ..types import OffsetAndMetadata, TopicPartition
from . import assignors
from .admin import list_group_offsets
from .coordinator import find_coordinator

_COORDINATOR_MOVED = {
    ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_COORDINATOR,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
}
_FENCED = {ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION}
# what ends a join for good when SyncGroup says it; any other refusal is joined again
_SYNC_FATAL = {ErrorCode.FENCED_INSTANCE_ID, ErrorCode.GROUP_AUTHORIZATION_FAILED}


class _SyncRefused(Exception):
    """A SyncGroup refused for a reason a new join may clear."""

    def __init__(self, code: int) -> None:
        super().__init__(ErrorCode(code).name)
        self.code = code


class CommitFailedError(ClientError):
    """A commit the group refused: the member was fenced (a rebalance gave its partitions to
    others), so the offsets were not stored. Poll again to rejoin."""


class JoinResult(NamedTuple):
    assignment: list[TopicPartition]
    generation: int


class GroupMember:
    def __init__(self, config: ConsumerConfig) -> None:
        if config.group_id is None:
            raise ClientError("a consumer group needs group.id")
        self.group_id = config.group_id
        self.instance_id = config.group_instance_id
        self.config = config
        self.assignors = assignors.assignors_for(config.assignment_strategy)
        # the cooperative protocol only when every assignor offered speaks it (as Java)
        self.cooperative = all(a.rebalance_protocol == "cooperative" for a in self.assignors)
        self.lock = threading.Lock()
        self.coordinator: int | None = None
        self.member_id = ""
        self.generation = -1
        self.protocol: str | None = None
        self.stable = False  # joined and synced: heartbeats go out
        self.rejoin_needed = True
        self.lost = False  # fenced: the partitions are someone else's already
        self.fatal: BrokerError | None = None  # a heartbeat's, for the next poll to raise
        self.last_poll = time.monotonic()
        self.last_heartbeat = 0.0

    # ---- the coordinator ----------------------------------------------------------------------

    def ensure_coordinator(self, core: ClientCore) -> Flow[int]:
        node = self.coordinator
        if node is None or node not in core.brokers:
            node = self.coordinator = yield from find_coordinator(core, self.group_id)
        return node

    def _coordinator_moved(self) -> None:
        self.coordinator = None

    def _reset(self) -> None:
        """Forget the membership (fenced, or left): the next join starts as a new member."""
        with self.lock:
            self.member_id = ""
            self.generation = -1
            self.stable = False
            self.rejoin_needed = True

    # ---- joining ------------------------------------------------------------------------------

    def join(
        self, core: ClientCore, topics: list[str], owned: Iterable[TopicPartition]
    ) -> Flow[JoinResult]:
        """Join (or rejoin) the group subscribed to ``topics``, owning ``owned``; this
        member's assignment. Retries through coordinator moves and member-id handshakes."""
        owned = sorted(owned)
        backoff = core.config.retry_backoff
        while True:
            node = yield from self.ensure_coordinator(core)
            with self.lock:
                self.stable = False
            try:
                return (yield from self._join_once(core, node, topics, owned))
            except (BrokerError, _SyncRefused) as exc:
                code = exc.code
                if code in _COORDINATOR_MOVED:
                    self._coordinator_moved()
                elif code == ErrorCode.MEMBER_ID_REQUIRED:
                    continue  # the member id is set: join again at once (KIP-394)
                elif code in _FENCED:
                    self._reset()
                elif code != ErrorCode.REBALANCE_IN_PROGRESS and isinstance(exc, BrokerError):
                    raise
            yield Sleep(backoff)
            backoff = min(backoff * 2, core.config.retry_backoff_max)

    def _join_once(self, core, node, topics, owned) -> Flow[JoinResult]:
        config = self.config
        protocols = [
            m.JoinGroupRequest.JoinGroupRequestProtocol(
                name=a.name,
                metadata=assignors.encode_subscription(
                    assignors.Subscription(
                        topics=sorted(topics),
                        user_data=a.subscription_user_data(self.generation),
                        owned_partitions=owned,
                        generation_id=self.generation,
                    )
                ),
            )
            for a in self.assignors
        ]
        request = m.JoinGroupRequest(
            group_id=self.group_id,
            session_timeout_ms=config.session_timeout_ms,
            rebalance_timeout_ms=int(config.max_poll_interval * 1000),
            member_id=self.member_id,
            group_instance_id=self.instance_id,
            protocol_type="consumer",
            protocols=protocols,
            reason=None,
        )
        # the broker holds JoinGroup until every member has rejoined: up to the rebalance time
        response = yield core.call(node, request, extra_timeout=config.max_poll_interval)
        if response.member_id:
            self.member_id = response.member_id  # kept even with MEMBER_ID_REQUIRED
        raise_for_code(
            response.error_code, f"JoinGroup {self.group_id!r} ({core.broker_name(node)})"
        )
        generation = response.generation_id
        protocol = response.protocol_name
        assignments = []
        if response.leader == response.member_id and not response.skip_assignment:
            assignments = yield from self._assign(core, protocol, response.members)
        sync = m.SyncGroupRequest(
            group_id=self.group_id,
            generation_id=generation,
            member_id=self.member_id,
            group_instance_id=self.instance_id,
            protocol_type="consumer",
            protocol_name=protocol,
            assignments=assignments,
        )
        answer = yield core.call(node, sync, extra_timeout=config.max_poll_interval)
        if answer.error_code and answer.error_code not in _SYNC_FATAL:
            # as librdkafka: join again (librdkafka's mock refuses with INVALID_REQUEST a
            # member whose SyncGroup comes after the leader's has completed the generation)
            raise _SyncRefused(answer.error_code)
        raise_for_code(answer.error_code, f"SyncGroup {self.group_id!r} ({core.broker_name(node)})")
        assignment = assignors.decode_assignment(bytes(answer.assignment or b""))
        with self.lock:
            self.generation = generation
            self.protocol = protocol
            self.stable = True
            self.rejoin_needed = False
            self.lost = False
            # time in a join is the group's, not the poll loop's: max.poll.interval.ms
            # counts from here
            self.last_heartbeat = self.last_poll = time.monotonic()
        return JoinResult(sorted(set(assignment.partitions)), generation)

    def _assign(self, core: ClientCore, protocol: str, members) -> Flow[list]:
        """The leader's work: every member's assignment by the group's chosen assignor."""
        (assignor,) = [a for a in self.assignors if a.name == protocol]
        subscribed = []
        for member in members:
            subscription = assignors.decode_subscription(bytes(member.metadata))
            subscribed.append(
                assignors.Member(member.member_id, member.group_instance_id, subscription)
            )
        topics = sorted({t for member in subscribed for t in member.subscription.topics})
        cluster = yield from core.metadata(topics)
        counts = {
            name: len(info.partitions)
            for name, info in cluster.topics.items()
            if not info.error_code and info.partitions
        }
        plan = assignor.assign(subscribed, counts)
        return [
            m.SyncGroupRequest.SyncGroupRequestAssignment(
                member_id=member_id, assignment=assignors.encode_assignment(assignment)
            )
            for member_id, assignment in plan.items()
        ]

    # ---- staying in ---------------------------------------------------------------------------

    def heartbeat_due(self, now: float) -> bool:
        return self.stable and now - self.last_heartbeat >= self.config.heartbeat_interval

    def heartbeat(self, core: ClientCore) -> Flow[None]:
        """One Heartbeat; a rebalance or a fence marks the member for a rejoin."""
        with self.lock:
            if not self.stable:
                return
            member_id, generation = self.member_id, self.generation
        node = yield from self.ensure_coordinator(core)
        request = m.HeartbeatRequest(
            group_id=self.group_id,
            generation_id=generation,
            member_id=member_id,
            group_instance_id=self.instance_id,
        )
        response = yield core.call(node, request)
        self.last_heartbeat = time.monotonic()
        code = response.error_code
        if code in _COORDINATOR_MOVED:
            self._coordinator_moved()
        elif code == ErrorCode.REBALANCE_IN_PROGRESS:
            with self.lock:
                if generation == self.generation:
                    self.rejoin_needed = True
        elif code in _FENCED:
            with self.lock:
                if generation == self.generation:
                    self.lost = True
            self._reset()
        else:
            raise_for_code(code, f"Heartbeat {self.group_id!r} ({core.broker_name(node)})")

    def heartbeat_loop(self, core: ClientCore, stopped: Callable[[], bool]) -> Flow[None]:
        """Heartbeats every heartbeat.interval.ms while joined, until ``stopped()``; a member
        not polled for max.poll.interval.ms leaves the group (its partitions go to others).
        Run by the consumer's heartbeat thread (or task), beside the poll loop."""
        while not stopped():
            yield Sleep(0.05)
            now = time.monotonic()
            if self.stable and now - self.last_poll > self.config.max_poll_interval:
                with self.lock:
                    self.lost = True
                try:
                    yield from self.leave(core, "consumer poll timeout has expired")
                except (ClientError, BrokerError):
                    self._reset()
                continue
            if not self.heartbeat_due(now):
                continue
            try:
                yield from self.heartbeat(core)
            except (ClientError, BrokerError) as exc:
                if isinstance(exc, BrokerError) and not exc.retriable:
                    self.fatal = exc  # e.g. GROUP_AUTHORIZATION_FAILED: the user hears of it
                self._coordinator_moved()  # unreachable: look it up again next time
                self.last_heartbeat = time.monotonic() - self.config.heartbeat_interval / 2

    def leave(self, core: ClientCore, reason: str = "the consumer is closing") -> Flow[None]:
        """LeaveGroup, so the group rebalances now rather than after the session timeout.
        A static member (group.instance.id) stays, as in Java: its partitions wait for it."""
        member_id = self.member_id
        if self.instance_id is not None or not member_id:
            self._reset()
            return
        try:
            node = yield from self.ensure_coordinator(core)
            request = m.LeaveGroupRequest(
                group_id=self.group_id,
                member_id=member_id,
                members=[
                    m.LeaveGroupRequest.MemberIdentity(
                        member_id=member_id, group_instance_id=None, reason=reason
                    )
                ],
            )
            response = yield core.call(node, request)
            if response.error_code not in (0, *_FENCED):
                raise_for_code(
                    response.error_code, f"LeaveGroup {self.group_id!r} ({core.broker_name(node)})"
                )
        finally:
            self._reset()

    # ---- offsets ------------------------------------------------------------------------------

    def commit(
        self, core: ClientCore, offsets: Mapping[TopicPartition, OffsetAndMetadata]
    ) -> Flow[None]:
        """OffsetCommit, fenced by the generation: a member that lost its partitions gets
        CommitFailedError (nothing stored), a coordinator that moved is found again."""
        if not offsets:
            return
        backoff = core.config.retry_backoff
        for attempt in range(core.config.retries + 1):
            with self.lock:
                member_id, generation = self.member_id, self.generation
            node = yield from self.ensure_coordinator(core)
            try:
                response = yield core.call(
                    node, _commit_request(self, member_id, generation, offsets)
                )
            except (BrokerConnectionError, RequestTimeoutError):
                if attempt == core.config.retries:
                    raise
                self._coordinator_moved()  # or the connection broke: the same commit again
                yield Sleep(backoff)
                backoff = min(backoff * 2, core.config.retry_backoff_max)
                continue
            failed = [
                (TopicPartition(t.name, p.partition_index), p.error_code)
                for t in response.topics
                for p in t.partitions
                if p.error_code
            ]
            if not failed:
                return
            tp, code = failed[0]
            if code in _FENCED or code == ErrorCode.REBALANCE_IN_PROGRESS:
                with self.lock:
                    self.rejoin_needed = True
                raise CommitFailedError(
                    f"commit of {len(offsets)} offsets of group {self.group_id!r} refused "
                    f"({ErrorCode(code).name}): the group rebalanced and the partitions may "
                    "be someone else's; poll to rejoin"
                )
            if code in _COORDINATOR_MOVED and attempt < core.config.retries:
                self._coordinator_moved()
                yield Sleep(backoff)
                backoff = min(backoff * 2, core.config.retry_backoff_max)
                continue
            raise_for_code(
                code,
                f"OffsetCommit {tp.topic}-{tp.partition} of group {self.group_id!r} "
                f"({core.broker_name(node)})",
            )

    def committed(
        self, core: ClientCore, tps: Iterable[TopicPartition]
    ) -> Flow[dict[TopicPartition, OffsetAndMetadata | None]]:
        """The group's committed offsets of ``tps`` (None where nothing is committed)."""
        tps = [TopicPartition(*tp) for tp in tps]
        found = yield from list_group_offsets(core, self.group_id, tps)
        return {tp: found.get(tp) for tp in tps}


def _commit_request(member: GroupMember, member_id: str, generation: int, offsets):
    topics: dict[str, list] = {}
    for tp, o in sorted(offsets.items()):
        topics.setdefault(tp.topic, []).append(
            m.OffsetCommitRequest.OffsetCommitRequestPartition(
                partition_index=tp.partition,
                committed_offset=o.offset,
                committed_leader_epoch=-1 if o.leader_epoch is None else o.leader_epoch,
                commit_timestamp=-1,
                committed_metadata=o.metadata,
            )
        )
    return m.OffsetCommitRequest(
        group_id=member.group_id,
        generation_id_or_member_epoch=generation,
        member_id=member_id,
        group_instance_id=member.instance_id,
        retention_time_ms=-1,
        topics=[
            m.OffsetCommitRequest.OffsetCommitRequestTopic(name=name, partitions=parts)
            for name, parts in topics.items()
        ],
    )
