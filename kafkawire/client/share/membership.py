"""Share groups (KIP-932, "Kafka queues"): a share consumer's membership as sans-IO flows. No
IO: flows yield ``Call``/``Sleep`` effects (``flow.py``) that either transport drives.

``ShareGroupMember`` is one member of a share group. ShareGroupHeartbeat joins (member epoch
0, with a member id made here once, KIP-1082, and kept across rejoins), keeps the member in at
the interval the coordinator gives, carries the assignment (topic ids and partitions; several
members may be given the same partition: the broker hands each record to one of them) and
leaves (epoch -1). ``TopicIdPartition`` names a partition by its topic id, as the assignment
and the share sessions (``session.py``) do.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import NamedTuple

from kafkawire.errors import UnsupportedError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    BrokerError,
    ErrorCode,
    UnsupportedVersionError,
    raise_for_code,
)

from ..core import ClientCore
from ..errors import BrokerConnectionError, ClientError, RequestTimeoutError
from ..flow import Flow, Sleep
from ..groups.coordinator import find_coordinator
from ..types import ClusterMetadata, TopicPartition

__all__ = ["ShareGroupMember", "TopicIdPartition"]

_LEAVE = -1  # the member epoch of a leaving member
_LOOP_TICK = 0.05  # seconds between the heartbeat loop's looks at the clock
_COORDINATOR_MOVED = {
    ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_COORDINATOR,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
}
_FENCED = {ErrorCode.FENCED_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID}


class TopicIdPartition(NamedTuple):
    topic_id: uuid.UUID
    partition: int


class ShareGroupMember:
    """One member of share group ``group_id``; ``epoch`` is its member epoch (-1: not in)."""

    def __init__(
        self,
        group_id: str,
        *,
        member_id: str | None = None,
        rack_id: str | None = None,
        max_poll_interval: float | None = None,
    ) -> None:
        self.group_id = group_id
        # a member not polled for this long leaves (None: never); the next poll rejoins
        self.max_poll_interval = max_poll_interval
        self.last_poll = time.monotonic()
        self.poll_expired = False
        self.member_id = member_id or str(uuid.uuid4())
        self.rack_id = rack_id
        self.lock = threading.Lock()
        self.epoch = -1
        self.coordinator: int | None = None
        self.subscription: tuple[str, ...] = ()
        self.interval = 5.0  # seconds, until the coordinator gives its own
        self.next_heartbeat = 0.0  # time.monotonic() of the next heartbeat due
        self._sent_subscription: tuple[str, ...] | None = None  # what the broker knows
        self._assigned: dict[uuid.UUID, frozenset[int]] = {}
        self.assignment_changed = False  # a new assignment not yet read by ``assignment``
        self._names: dict[uuid.UUID, str] = {}
        self.fatal: BaseException | None = None  # an error of the heartbeat loop, to raise

    @property
    def joined(self) -> bool:
        return self.epoch > 0

    def subscribe(self, topics: Iterable[str]) -> None:
        """The topics to be assigned partitions of; the next heartbeat tells the broker."""
        with self.lock:
            self.subscription = tuple(sorted(set(topics)))

    def due(self, now: float | None = None) -> bool:
        """A heartbeat is due: the interval passed, or the subscription changed."""
        now = time.monotonic() if now is None else now
        with self.lock:
            if not self.joined:
                return bool(self.subscription) and not self.poll_expired
            return self.subscription != self._sent_subscription or now >= self.next_heartbeat

    def _request(self) -> tuple[m.ShareGroupHeartbeatRequest, tuple[str, ...]]:
        """The next heartbeat (under ``lock``): epoch 0 to join; the subscription and rack
        only when joining or when they changed (null otherwise)."""
        epoch = max(self.epoch, 0)
        subscription = self.subscription
        full = epoch == 0 or self._sent_subscription is None
        names = subscription if full or subscription != self._sent_subscription else None
        request = m.ShareGroupHeartbeatRequest(
            group_id=self.group_id,
            member_id=self.member_id,
            member_epoch=epoch,
            rack_id=self.rack_id if full else None,
            subscribed_topic_names=None if names is None else list(names),
        )
        return request, subscription

    def ensure_coordinator(self, core: ClientCore) -> Flow[int]:
        node = self.coordinator
        if node is None or node not in core.brokers:
            node = self.coordinator = yield from find_coordinator(core, self.group_id)
        return node

    def heartbeat(self, core: ClientCore) -> Flow[m.ShareGroupHeartbeatResponse]:
        """One ShareGroupHeartbeat (epoch 0 when not in the group). A fenced member is out
        (epoch -1: the next heartbeat joins again, with the same member id) and a moved
        coordinator forgotten before the error is raised."""
        with self.lock:
            request, subscription = self._request()
        node = yield from self.ensure_coordinator(core)
        try:
            response = yield core.call(node, request)
        except UnsupportedVersionError:
            raise UnsupportedError(
                f"share group {self.group_id!r}: the coordinator ({core.broker_name(node)}) "
                "does not support ShareGroupHeartbeat (share groups, KIP-932: Apache Kafka "
                "4.1 or later, with share groups enabled)"
            ) from None
        except (BrokerConnectionError, RequestTimeoutError):
            with self.lock:
                self.coordinator = None
                self._sent_subscription = None
            raise
        code = response.error_code
        with self.lock:
            if code == 0:
                if response.member_id:
                    self.member_id = response.member_id
                self.epoch = response.member_epoch
                if response.heartbeat_interval_ms > 0:
                    self.interval = response.heartbeat_interval_ms / 1000
                self.next_heartbeat = time.monotonic() + self.interval
                if request.subscribed_topic_names is not None:
                    self._sent_subscription = subscription
                if response.assignment is not None:  # null: unchanged
                    assigned = {
                        t.topic_id: frozenset(t.partitions)
                        for t in response.assignment.topic_partitions
                    }
                    if assigned != self._assigned:
                        self._assigned = assigned
                        self.assignment_changed = True
                return response
            self._sent_subscription = None
            if code in _COORDINATOR_MOVED:
                self.coordinator = None
            if code in _FENCED:
                self.epoch = -1
                if self._assigned:
                    self._assigned = {}
                    self.assignment_changed = True
        raise_for_code(
            code,
            f"ShareGroupHeartbeat of group {self.group_id!r} (member {self.member_id}, epoch "
            f"{request.member_epoch}) to {core.broker_name(node)}: "
            f"{response.error_message or ''}",
        )
        raise AssertionError("unreachable")

    def join(self, core: ClientCore, topics: Iterable[str] | None = None) -> Flow[None]:
        """Subscribe to ``topics`` (if given) and heartbeat with epoch 0 until the coordinator
        takes this member in, through coordinator moves and fencing (backing off, doubling);
        errors the broker will repeat (no authorization, no share groups) are raised, and
        connection failures after the configured retries."""
        if topics is not None:
            self.subscribe(topics)
        if not self.subscription:
            raise ClientError(f"share group {self.group_id!r}: subscribe to topics first")
        backoff = core.config.retry_backoff
        failures = 0
        while not self.joined:
            try:
                yield from self.heartbeat(core)
                if not self.joined:  # answered without taking the member in yet
                    yield Sleep(backoff)
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

    def polled(self) -> None:
        """The member's consumer polled: it stays in (or joins again)."""
        self.last_poll = time.monotonic()
        self.poll_expired = False

    def heartbeat_loop(self, core: ClientCore, stopped: Callable[[], bool]) -> Flow[None]:
        """Heartbeats whenever one is due (``due``), until ``stopped()``: the member stays in
        the group, rejoins (same member id) after fencing, and learns new assignments
        (``assignment_changed``). A member not polled for ``max_poll_interval`` leaves, so
        the group gives its partitions to others, until the next poll. Failures are retried
        after a backoff (doubling); an error the broker will repeat is kept in ``fatal`` for
        the consumer to raise."""
        backoff = 0.0
        retry_at = 0.0
        while not stopped():
            yield Sleep(_LOOP_TICK)
            now = time.monotonic()
            limit = self.max_poll_interval
            if self.joined and limit is not None and now - self.last_poll > limit:
                self.poll_expired = True  # no heartbeat joins again before the next poll
                # when the leave fails, the session timeout takes the member out instead
                with contextlib.suppress(ClientError, BrokerError):
                    yield from self.leave(core)
                continue
            if now < retry_at or not self.due(now):
                continue
            try:
                yield from self.heartbeat(core)
                backoff = 0.0
            except (ClientError, BrokerError, UnsupportedError) as exc:
                retriable = isinstance(exc, (BrokerConnectionError, RequestTimeoutError)) or (
                    isinstance(exc, BrokerError)
                    and (exc.code in _COORDINATOR_MOVED or exc.code in _FENCED)
                )
                if not retriable:
                    self.fatal = exc
                backoff = min(
                    max(backoff * 2, core.config.retry_backoff), core.config.retry_backoff_max
                )
                retry_at = time.monotonic() + backoff

    def leave(self, core: ClientCore) -> Flow[None]:
        """A heartbeat with member epoch -1: the group hands this member's partitions to the
        others now rather than after the session timeout. The member is out either way."""
        with self.lock:
            joined = self.joined
        if not joined:
            return
        request = m.ShareGroupHeartbeatRequest(
            group_id=self.group_id, member_id=self.member_id, member_epoch=_LEAVE
        )
        try:
            for attempt in range(2):  # a coordinator that moved: once more at the new one
                node = yield from self.ensure_coordinator(core)
                response = yield core.call(node, request)
                code = response.error_code
                if code in _COORDINATOR_MOVED and attempt == 0:
                    self.coordinator = None
                    continue
                if code not in (0, *_FENCED):
                    raise_for_code(
                        code, f"leaving share group {self.group_id!r} at {core.broker_name(node)}"
                    )
                break
        finally:
            with self.lock:
                self.epoch = -1
                self._sent_subscription = None
                self._assigned = {}
                self.assignment_changed = False

    # ---- the assignment -----------------------------------------------------------------------

    @property
    def assigned_ids(self) -> dict[uuid.UUID, frozenset[int]]:
        """The newest assignment, by topic id."""
        with self.lock:
            return dict(self._assigned)

    def topic_names(self) -> dict[uuid.UUID, str]:
        """The topic ids resolved so far, with their names."""
        return dict(self._names)

    def assignment(self, core: ClientCore) -> Flow[dict[TopicPartition, TopicIdPartition]]:
        """The newest assignment, by topic name, each partition with its topic id. Topic ids
        the known metadata lacks are looked up (the subscribed topics' metadata); any still
        unknown (a topic made or deleted just now) are left out."""
        with self.lock:
            assigned = dict(self._assigned)
            self.assignment_changed = False
        if any(tid not in self._names for tid in assigned):
            self._learn_names(core.cluster)
        if any(tid not in self._names for tid in assigned):
            self._learn_names((yield from core.metadata(list(self.subscription))))
        return {
            TopicPartition(self._names[tid], p): TopicIdPartition(tid, p)
            for tid, partitions in assigned.items()
            if tid in self._names
            for p in sorted(partitions)
        }

    def _learn_names(self, cluster: ClusterMetadata | None) -> None:
        if cluster is not None:
            for name, info in cluster.topics.items():
                if info.topic_id is not None and info.topic_id.int:
                    self._names[info.topic_id] = name
