"""Consumer-group membership, KIP-848's consumer protocol (``group.protocol=consumer``), as
sans-IO flows: ConsumerGroupHeartbeat joins (member epoch 0), keeps the member in, carries the
assignment the broker computed and the member's acknowledgement of it, and leaves (epoch -1, or
-2 for a static member that will be back).

The member id is made here, once per consumer (KIP-1082), and kept across rejoins. A heartbeat
names only what changed since the broker last heard from this member (the subscription, the
partitions owned); after an error or a rejoin it names everything again.

``ConsumerGroupMember`` keeps ``GroupMember``'s coordinator lookup, offsets and commits (the
member epoch travels where the generation does: OffsetCommit v9's GenerationIdOrMemberEpoch).
The poll joins and reconciles (``consumer/core.py`` revokes, commits and calls the callbacks); the
heartbeat loop, on the consumer's heartbeat thread or task, sends every other heartbeat.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Iterable, Mapping

from kafkawire.errors import UnsupportedError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    BrokerError,
    ErrorCode,
    StaleMemberEpochError,
    UnsupportedVersionError,
    raise_for_code,
)

from ..consumer.config import ConsumerConfig
from ..core import ClientCore
from ..errors import BrokerConnectionError, ClientError, RequestTimeoutError
from ..flow import Flow, Sleep
from ..types import ClusterMetadata, OffsetAndMetadata, TopicPartition
from .admin import list_group_offsets
from .classic import _COORDINATOR_MOVED, CommitFailedError, GroupMember

_FENCED = {ErrorCode.FENCED_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID}
_LEAVE = -1  # member epochs of a leaving member
_LEAVE_STATIC = -2  # a static member that will come back: its partitions wait for it
_UNRESOLVED_RETRY = 1.0  # seconds before topic ids the metadata lacked are looked up again

TopicIdPartitions = dict[uuid.UUID, frozenset[int]]


class ConsumerGroupMember(GroupMember):
    """One member of a KIP-848 group; ``generation`` is its member epoch (-1: not in)."""

    def __init__(self, config: ConsumerConfig) -> None:
        super().__init__(config)
        self.member_id = str(uuid.uuid4())
        self.subscription: tuple[str, ...] = ()
        self.interval = config.heartbeat_interval  # until the broker gives its own
        self.fatal: BaseException | None = None  # for the next poll to raise
        self._owned: TopicIdPartitions = {}  # reconciled: what heartbeats report as owned
        self._target: TopicIdPartitions | None = None  # the broker's newest assignment
        self._target_new = False
        self._resolve_at = 0.0
        self._names: dict[uuid.UUID, str] = {}
        # what the broker last acknowledged (None: it may know nothing; send everything)
        self._sent_subscription: tuple[str, ...] | None = None
        self._sent_owned: TopicIdPartitions | None = None
        self._beating = False  # a heartbeat in flight (the poll's or the loop's)
        self._next_heartbeat = 0.0
        self._retry_at = 0.0  # after a failed heartbeat
        self._backoff = 0.0

    # ---- state the poll reads -----------------------------------------------------------------

    @property
    def joined(self) -> bool:
        return self.generation >= 0

    def needs_poll(self) -> bool:
        """Work for the poll: an error to raise, partitions lost, a join, an assignment."""
        return (
            self.fatal is not None
            or self.lost
            or (not self.joined and bool(self.subscription))
            or (self._target_new and time.monotonic() >= self._resolve_at)
        )

    def _fenced(self) -> None:
        """The group went on without this member: it rejoins with epoch 0 (the same member id)
        and the partitions it had are someone else's already."""
        with self.lock:
            self.lost = self.lost or bool(self._owned)
            self._left()

    def _left(self) -> None:
        self.generation = -1
        self._owned = {}
        self._target = None
        self._target_new = False
        self._sent_subscription = self._sent_owned = None

    # ---- heartbeats ---------------------------------------------------------------------------

    def _request(self) -> tuple[m.ConsumerGroupHeartbeatRequest, tuple, TopicIdPartitions]:
        """The next heartbeat (under ``lock``), with the subscription and owned partitions it
        tells the broker about."""
        epoch = max(self.generation, 0)
        full = epoch == 0 or self._sent_subscription is None or self._sent_owned is None
        subscription = self.subscription
        owned = {} if epoch == 0 else dict(self._owned)  # a joining member owns nothing
        names = subscription if full or subscription != self._sent_subscription else None
        partitions = owned if full or owned != self._sent_owned else None
        request = m.ConsumerGroupHeartbeatRequest(
            group_id=self.group_id,
            member_id=self.member_id,
            member_epoch=epoch,
            instance_id=self.instance_id if full else None,
            rebalance_timeout_ms=int(self.config.max_poll_interval * 1000) if full else -1,
            subscribed_topic_names=None if names is None else list(names),
            # with the names, an empty regex (no pattern): librdkafka's mock asserts both or
            # neither are present, and Kafka reads "" as no pattern
            subscribed_topic_regex=None if names is None else "",
            server_assignor=self.config.group_remote_assignor if full else None,
            topic_partitions=None if partitions is None else _topic_partitions(partitions),
        )
        return request, subscription, owned

    def heartbeat(self, core: ClientCore) -> Flow[bool]:
        """One ConsumerGroupHeartbeat (epoch 0 when not in the group); False when another one
        is in flight. Fencing and coordinator moves change the state before the error is
        raised; an assignment in the answer waits for the poll (``target_assignment``)."""
        with self.lock:
            if self._beating:
                return False
            self._beating = True
            request, subscription, owned = self._request()
        try:
            node = yield from self.ensure_coordinator(core)
            try:
                response = yield core.call(node, request)
            except UnsupportedVersionError:
                raise UnsupportedError(
                    f"group {self.group_id!r}: group.protocol=consumer (KIP-848) needs "
                    f"ConsumerGroupHeartbeat, which the coordinator ({core.broker_name(node)}) "
                    "does not support; use group.protocol=classic"
                ) from None
            except (BrokerConnectionError, RequestTimeoutError):
                with self.lock:
                    self.coordinator = None
                    self._sent_subscription = self._sent_owned = None
                raise
            self._answered(core, node, request, response, subscription, owned)
        finally:
            with self.lock:
                self._beating = False
        return True

    def _answered(self, core, node, request, response, subscription, owned) -> None:
        code = response.error_code
        now = time.monotonic()
        with self.lock:
            self.last_heartbeat = now
            if code == 0:
                if response.member_id:  # brokers before KIP-1082 name the member themselves
                    self.member_id = response.member_id
                self.generation = response.member_epoch
                if response.heartbeat_interval_ms > 0:
                    self.interval = response.heartbeat_interval_ms / 1000
                self._next_heartbeat = now + self.interval
                self._backoff = 0.0
                if request.subscribed_topic_names is not None:
                    self._sent_subscription = subscription
                if request.topic_partitions is not None:
                    self._sent_owned = owned
                if response.assignment is not None:
                    self._target = {
                        t.topic_id: frozenset(t.partitions)
                        for t in response.assignment.topic_partitions
                    }
                    self._target_new = True
                    self._resolve_at = 0.0
                return
            self._sent_subscription = self._sent_owned = None
            if code in _COORDINATOR_MOVED and code != ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
                self.coordinator = None
        if code in _FENCED:
            self._fenced()
        raise_for_code(
            code,
            f"ConsumerGroupHeartbeat of group {self.group_id!r} (member {self.member_id}, epoch "
            f"{request.member_epoch}) to {core.broker_name(node)}: {response.error_message or ''}",
        )

    def join(self, core: ClientCore) -> Flow[None]:
        """Heartbeat with member epoch 0 until the coordinator takes this member in, through
        coordinator moves and fencing (backing off); an error the broker will repeat (an
        unknown assignor, no authorization, no KIP-848) is raised."""
        backoff = core.config.retry_backoff
        failures = 0
        while not self.joined:
            try:
                if not (yield from self.heartbeat(core)):
                    yield Sleep(0.01)  # the heartbeat loop's is in flight
                continue
            except (BrokerConnectionError, RequestTimeoutError):
                failures += 1
                if failures > core.config.retries:
                    raise
            except BrokerError as exc:
                if exc.code not in _COORDINATOR_MOVED and exc.code not in _FENCED:
                    raise
            yield Sleep(backoff)
            backoff = min(backoff * 2, core.config.retry_backoff_max)

    def _due(self, now: float) -> bool:
        with self.lock:
            if not self.joined or self._beating or now < self._retry_at:
                return False
            changed = (
                self.subscription != self._sent_subscription or self._owned != self._sent_owned
            )
            return changed or now >= self._next_heartbeat

    def heartbeat_loop(self, core: ClientCore, stopped: Callable[[], bool]) -> Flow[None]:
        """Heartbeats at the broker's interval, and at once when the subscription or the
        partitions owned changed (the acknowledgement of an assignment), until ``stopped()``.
        A member not polled for max.poll.interval.ms leaves the group (the next poll calls
        on_lost and joins again). Errors the broker will repeat are kept for the poll."""
        while not stopped():
            yield Sleep(0.05)
            now = time.monotonic()
            if self.joined and now - self.last_poll > self.config.max_poll_interval:
                # when the leave fails, the session timeout takes the member out instead
                with contextlib.suppress(ClientError, BrokerError):
                    yield from self.leave(core, static=False)
                with self.lock:
                    self.lost = True
                continue
            if not self._due(now):
                continue
            try:
                yield from self.heartbeat(core)
            except (ClientError, BrokerError) as exc:
                retriable = isinstance(exc, (BrokerConnectionError, RequestTimeoutError)) or (
                    isinstance(exc, BrokerError)
                    and (exc.code in _COORDINATOR_MOVED or exc.code in _FENCED)
                )
                if not retriable:
                    self.fatal = exc
                with self.lock:  # try again after a backoff, doubling
                    self._backoff = min(
                        max(self._backoff * 2, core.config.retry_backoff),
                        core.config.retry_backoff_max,
                    )
                    self._retry_at = time.monotonic() + self._backoff

    def leave(
        self, core: ClientCore, reason: str = "the consumer is closing", *, static: bool = True
    ) -> Flow[None]:
        """A heartbeat with member epoch -1, so the group reassigns the partitions now rather
        than after the session timeout; -2 for a static member (group.instance.id) when
        ``static``: the broker keeps its partitions for it until the session timeout."""
        with self.lock:
            joined = self.joined
            epoch = _LEAVE_STATIC if static and self.instance_id is not None else _LEAVE
        if not joined:
            return
        try:
            node = yield from self.ensure_coordinator(core)
            request = m.ConsumerGroupHeartbeatRequest(
                group_id=self.group_id,
                member_id=self.member_id,
                member_epoch=epoch,
                instance_id=self.instance_id,
            )
            response = yield core.call(node, request)
            if response.error_code not in (0, *_FENCED):
                raise_for_code(
                    response.error_code,
                    f"leaving group {self.group_id!r} ({reason}) at {core.broker_name(node)}",
                )
        finally:
            with self.lock:
                self._left()

    # ---- the assignment -----------------------------------------------------------------------

    def target_assignment(self, core: ClientCore) -> Flow[set[TopicPartition] | None]:
        """The newest assignment the broker gave, by topic name (None when nothing new). Topic
        ids the metadata does not know yet are looked up; those still unknown are left out
        and looked up again after a second."""
        with self.lock:
            if not self._target_new or time.monotonic() < self._resolve_at:
                return None
            target = self._target or {}
        if any(tid not in self._names for tid in target):
            self._learn_names(core.cluster)
        if any(tid not in self._names for tid in target):
            self._learn_names((yield from core.metadata(list(self.subscription))))
        unresolved = [tid for tid in target if tid not in self._names]
        with self.lock:
            if self._target is target or self._target == target:
                self._target_new = bool(unresolved)
                self._resolve_at = time.monotonic() + _UNRESOLVED_RETRY
        return {
            TopicPartition(self._names[tid], p)
            for tid, partitions in target.items()
            if tid in self._names
            for p in partitions
        }

    def _learn_names(self, cluster: ClusterMetadata | None) -> None:
        if cluster is not None:
            for name, info in cluster.topics.items():
                if info.topic_id is not None and info.topic_id.int:
                    self._names[info.topic_id] = name

    def reconciled(self, owned: set[TopicPartition]) -> None:
        """The consumer now owns ``owned``: the next heartbeat (at once) acknowledges it."""
        ids = {name: tid for tid, name in self._names.items()}
        by_id: dict[uuid.UUID, set[int]] = {}
        for tp in owned:
            by_id.setdefault(ids[tp.topic], set()).add(tp.partition)
        with self.lock:
            if self.joined:  # fenced meanwhile: the next poll drops them as lost
                self._owned = {tid: frozenset(ps) for tid, ps in by_id.items()}

    # ---- offsets ------------------------------------------------------------------------------

    def committed(
        self, core: ClientCore, tps: Iterable[TopicPartition]
    ) -> Flow[dict[TopicPartition, OffsetAndMetadata | None]]:
        """GroupMember's, with the member id and epoch (OffsetFetch v9 on: the broker refuses a
        fenced member); STALE_MEMBER_EPOCH is tried again once with a newer epoch."""
        tps = [TopicPartition(*tp) for tp in tps]

        def fetch(epoch: int):
            member = (self.member_id, epoch) if epoch >= 0 else None
            return list_group_offsets(core, self.group_id, tps, member=member)

        epoch = self.generation
        try:
            found = yield from fetch(epoch)
        except StaleMemberEpochError:
            if self.generation in (epoch, -1):
                raise
            found = yield from fetch(self.generation)  # a heartbeat moved the epoch on
        return {tp: found.get(tp) for tp in tps}

    def commit(
        self, core: ClientCore, offsets: Mapping[TopicPartition, OffsetAndMetadata]
    ) -> Flow[None]:
        """GroupMember's commit with the member epoch; STALE_MEMBER_EPOCH (a heartbeat moved
        the epoch on while the commit was sent) is tried again once with the new epoch."""
        epoch = self.generation
        try:
            try:
                yield from super().commit(core, offsets)
            except StaleMemberEpochError:
                if self.generation in (epoch, -1):
                    raise
                yield from super().commit(core, offsets)  # sent with the newer epoch
        except StaleMemberEpochError:
            raise CommitFailedError(
                f"commit of {len(offsets)} offsets of group {self.group_id!r} refused "
                f"(STALE_MEMBER_EPOCH, member epoch {epoch}): the group moved on; poll to "
                "catch up"
            ) from None


def _topic_partitions(owned: TopicIdPartitions) -> list:
    return [
        m.ConsumerGroupHeartbeatRequest.TopicPartitions(topic_id=tid, partitions=sorted(ps))
        for tid, ps in sorted(owned.items())
    ]
