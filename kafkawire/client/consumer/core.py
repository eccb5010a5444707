"""The consumer as a sans-IO state machine: assigned partitions with their positions, a fetch
in flight to every leader, fetched bytes buffered until polled, and the group membership
(``groups/classic.py``; ``groups/consumer_protocol.py`` under group.protocol=consumer). The faces
(``consumer/faces.py``) drive its flows with either transport.

``ConsumerCore`` keeps the subscription or assignment (``parts``: each partition's state, a
``pipeline._Partition``), the positions, the group's work between polls and the poll itself.
Its collaborators: ``pipeline.py``'s ``FetchPipeline`` (the fetches in flight, their answers
buffered and drained), ``commits.py``'s ``Commits`` (the commits, asynchronous ones included);
what a poll gives is ``batches.py``'s.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kafkawire.protocol.error_codes import BrokerError

from ..core import ClientCore
from ..errors import ClientError
from ..flow import Continued, Flow, Sleep, Wait
from ..groups.classic import GroupMember
from ..groups.consumer_protocol import ConsumerGroupMember
from ..stats import leader_of, topics_object
from ..types import EARLIEST, LATEST, ClusterMetadata, TopicPartition
from . import offsets as offset_flows
from .batches import PartitionRecords
from .commits import Commits, _offsets
from .config import ConsumerConfig
from .pipeline import OFFSET_INVALID, FetchPipeline, _Partition

_PATTERN_CHECK = 30.0  # how often a pattern subscription looks for new topics, at most


class NoOffsetError(ClientError):
    """A partition has no committed offset (or its position is out of range) and
    auto.offset.reset is none."""


Callback = Callable[[list[TopicPartition]], Any]


class ConsumerCore:
    def __init__(self, core: ClientCore, config: ConsumerConfig) -> None:
        self.core = core
        self.config = config
        self.member: GroupMember | None = None
        if config.group_id is not None:
            kip848 = config.group_protocol == "consumer"
            self.member = (ConsumerGroupMember if kip848 else GroupMember)(config)
        self.parts: dict[TopicPartition, _Partition] = {}
        self.topics: list[str] = []  # subscribed (or matched by the pattern)
        self.pattern: re.Pattern | None = None
        self.subscribed = False
        self.callbacks: dict[str, Callback | None] = {}
        self._fetches = FetchPipeline(core, config)
        self._commits = Commits(core, config, self.member)
        self._next_pattern_check = 0.0
        self._settling: Continued | None = None  # _settle's work, across polls
        self._ends: list[tuple[TopicPartition, int]] = []  # enable.partition.eof's reports
        # a fetch failure met while taking in answers before a poll returned its records:
        # raised by the next poll, so that those records are not lost with it
        self._failure: BaseException | None = None

    # ---- subscription and assignment (no IO) --------------------------------------------------

    def subscribe(self, topics: Iterable[str] | str | re.Pattern, callbacks) -> None:
        if self.member is None:
            raise ClientError("subscribe needs a group.id; use assign without one")
        if isinstance(topics, re.Pattern) or (isinstance(topics, str) and topics.startswith("^")):
            self.pattern = re.compile(topics)
            self.topics = []
        else:
            names = [topics] if isinstance(topics, str) else list(topics)
            if not names or not all(isinstance(t, str) and t for t in names):
                raise ClientError(f"subscribe takes topic names or a pattern, not {topics!r}")
            self.pattern = None
            self.topics = sorted(set(names))
        self.callbacks = callbacks
        self.subscribed = True
        self.member.rejoin_needed = True

    def assign(self, tps: Iterable[TopicPartition]) -> None:
        if self.subscribed:
            raise ClientError("the consumer is subscribed: unsubscribe before assign")
        wanted = {TopicPartition(*tp) for tp in tps}
        self.parts = {tp: self.parts.get(tp) or _Partition() for tp in sorted(wanted)}

    def incremental_assign(self, tps: Iterable[TopicPartition]) -> None:
        """Add ``tps`` to the manual assignment; the partitions already assigned keep their
        positions and what was fetched for them."""
        if self.subscribed:
            raise ClientError("the consumer is subscribed: unsubscribe before incremental_assign")
        added = [TopicPartition(*tp) for tp in tps]
        already = [tp for tp in added if tp in self.parts]
        if already:
            raise ClientError(f"incremental_assign: {_names(already)} already assigned")
        self.parts = dict(sorted({**self.parts, **{tp: _Partition() for tp in added}}.items()))

    def incremental_unassign(self, tps: Iterable[TopicPartition]) -> None:
        """Drop ``tps`` from the manual assignment; the others are untouched."""
        if self.subscribed:
            raise ClientError("the consumer is subscribed: unsubscribe before incremental_unassign")
        removed = [TopicPartition(*tp) for tp in tps]
        missing = [tp for tp in removed if tp not in self.parts]
        if missing:
            raise ClientError(f"incremental_unassign: {_names(missing)} not assigned")
        for tp in removed:
            del self.parts[tp]

    def unsubscribe(self) -> Flow[None]:
        """Give the subscription up: the pending asynchronous commits end, the partitions are
        committed (enable.auto.commit) and revoked (on_revoke), and the member leaves the
        group. Nothing happens when the consumer is not subscribed (a manual assignment
        stays, as librdkafka's)."""
        if not self.subscribed:
            return
        yield from self._commits.finish()
        owned = self.assignment()
        yield from self._commit_before_revoke(owned)
        self.parts.clear()
        self.subscribed = False  # the polls leave the group alone (the faces stopped the beats)
        self.topics, self.pattern = [], None
        try:
            if owned:
                self._call("on_revoke", owned)
        finally:
            self.callbacks = {}
            yield from self.member.leave(self.core, "the consumer unsubscribed")

    def assignment(self) -> list[TopicPartition]:
        return sorted(self.parts)

    def partition(self, tp: TopicPartition) -> _Partition:
        part = self.parts.get(TopicPartition(*tp))
        if part is None:
            raise ClientError(f"{tp[0]}-{tp[1]} is not assigned to this consumer")
        return part

    def seek(self, tp: TopicPartition, offset: int) -> None:
        if offset < 0:
            raise ClientError(f"seek to {offset}: offsets are >= 0 (seek_to_beginning/end)")
        self.partition(tp).move_to(int(offset))

    def pause(self, tps: Iterable[TopicPartition]) -> None:
        for tp in tps:
            self.partition(tp).paused = True

    def resume(self, tps: Iterable[TopicPartition]) -> None:
        for tp in tps:
            self.partition(tp).paused = False

    def paused(self) -> list[TopicPartition]:
        return sorted(tp for tp, p in self.parts.items() if p.paused)

    # ---- positions ----------------------------------------------------------------------------

    def seek_to(self, tps: Iterable[TopicPartition] | None, spec: int) -> Flow[None]:
        chosen = list(self.parts) if tps is None else [TopicPartition(*tp) for tp in tps]
        for tp in chosen:
            self.partition(tp)
        found = yield from offset_flows.list_offsets(
            self.core, dict.fromkeys(chosen, spec), isolation_level=self.config.isolation_level
        )
        for tp in chosen:
            self.parts[tp].move_to(found[tp].offset)

    def watermarks(self, tp: TopicPartition, cached: bool) -> Flow[tuple[int, int]]:
        """(low, high): the log start offset and the end (the last stable offset under
        read_committed); ``cached``: as the last fetch answer gave them, OFFSET_INVALID for
        a partition not fetched yet (librdkafka's answer)."""
        tp = TopicPartition(*tp)
        if cached:
            part = self.parts.get(tp)
            return (OFFSET_INVALID, OFFSET_INVALID) if part is None else (part.low, part.high)

        def ask() -> Flow[tuple[int, int]]:
            low = yield from offset_flows.list_offsets(self.core, {tp: EARLIEST})
            high = yield from offset_flows.list_offsets(
                self.core, {tp: LATEST}, isolation_level=self.config.isolation_level
            )
            return low[tp].offset, high[tp].offset

        return (yield from ask())

    def list_topics(self, topic: str | None) -> Flow[ClusterMetadata]:
        """The brokers and the topics (one, or all of them)."""
        return (yield from self.core.metadata(None if topic is None else [topic]))

    def position(self, tp: TopicPartition) -> Flow[int]:
        part = self.partition(tp)
        if part.position is None:
            yield from self._resolve_positions()
        return part.position

    def _resolve_positions(self) -> Flow[None]:
        """Positions for partitions without one: the group's committed offset, else (or
        when out of range) auto.offset.reset."""
        unknown = [tp for tp, p in self.parts.items() if p.position is None]
        resets = [tp for tp, p in self.parts.items() if p.reset and not p.buffered]
        if not unknown and not resets:
            return
        if unknown and self.member is not None:
            committed = yield from self.member.committed(self.core, unknown)
            for tp, found in committed.items():
                part = self.parts.get(tp)
                if found is not None and part is not None and part.position is None:
                    part.move_to(found.offset)
                    part.leader_epoch = -1 if found.leader_epoch is None else found.leader_epoch
        resets += [tp for tp in unknown if self.parts[tp].position is None]
        if not resets:
            return
        policy = self.config.auto_offset_reset
        if policy == "none":
            raise NoOffsetError(
                f"no offset to start from for {_names(resets)} and auto.offset.reset is none"
            )
        yield from self.seek_to(resets, EARLIEST if policy == "earliest" else LATEST)

    # ---- polling ------------------------------------------------------------------------------

    def poll(self, max_records: int | None, timeout: float) -> Flow[list[PartitionRecords]]:
        """Records from the positions on, at most ``max_records`` (max.poll.records), waiting
        up to ``timeout`` seconds for some; fetches go on while the caller works. A poll
        returns by its timeout whatever the brokers do: a group join or a position lookup
        that takes longer goes on across polls (``_settle``)."""
        limit = self.config.max_poll_records if max_records is None else max_records
        if limit <= 0:
            raise ClientError(f"max_records is {limit}: ask for at least one record")
        end = time.monotonic() + max(0.0, timeout)
        if self.member is not None:
            self.member.last_poll = time.monotonic()
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        waited = False  # a poll takes what has come at least once, even poll(0)
        while True:
            settled = yield from self._settle(end)
            yield from self._commits.auto_commit(self.parts, self.subscribed)
            out = self._fetches.drain(self.parts, limit)
            if self.config.enable_partition_eof:
                self._note_ends()
            yield from self._fetches.send(self.parts)
            yield from self._commits.step({})  # those whose backoff ended
            now = time.monotonic()
            if out and self._fetches.in_flight:
                # what has arrived is taken in before the records go back, without waiting:
                # a broker blocked on a full socket writes the rest of its answer, and
                # prepares the next, while the caller works on these records
                done = yield Wait(list(self._fetches.in_flight), 0.0)
                self._failure = self._receive(done)
                if done:
                    yield from self._fetches.send(self.parts)
            if out or (now >= end and waited):
                return out
            if settled and now < end and self.subscribed and self._group_needs_poll():
                continue
            tickets = [*self._fetches.in_flight, *self._commits.tickets()]
            if not tickets:  # nothing to fetch (no partitions, all paused, backoff)
                if now >= end:
                    return out
                yield Sleep(min(end - now, 0.05))
                continue
            waited = True
            timeout = max(0.0, end - now)
            if len(tickets) < len(self._fetches.in_flight) + self._commits.under_way():
                timeout = min(timeout, 0.05)  # a commit backs off: step it when it is time
            done = yield Wait(tickets, timeout)
            failure = self._receive(done)
            yield from self._commits.step(done)
            if failure is not None:
                raise failure

    def _receive(self, done: dict) -> BaseException | None:
        """Place the fetch answers among ``done`` (commits' answers are left to the caller);
        the first failure, once every answer is taken: the transport has handed its
        tickets back."""
        failure = None
        for ticket, outcome in done.items():
            fetch = self._fetches.in_flight.pop(ticket, None)
            if fetch is None:
                continue
            try:
                self._fetches.receive(self.parts, fetch, outcome)
            except (ClientError, BrokerError) as exc:
                failure = failure or exc
        return failure

    def _note_ends(self) -> None:
        """enable.partition.eof: a partition whose records have all been handed out up to
        the end the last fetch answer gave is reported once, until more records come."""
        for tp, part in self.parts.items():
            if part.position is None or part.buffered or part.high < 0:
                continue
            if part.position >= part.high:
                if not part.at_end:
                    part.at_end = True
                    self._ends.append((tp, part.position))
            else:
                part.at_end = False

    def statistics(self) -> dict[str, Any]:
        """The topics object of stats_cb's JSON (``stats.py``): each assigned partition's
        offsets and fetch queue, under librdkafka's names."""
        fields = {}
        for tp, part in self.parts.items():
            leader = leader_of(self.core, tp.topic, tp.partition)
            position = OFFSET_INVALID if part.position is None else part.position
            if self.config.enable_auto_offset_store:
                stored = position
            else:
                stored = OFFSET_INVALID if part.stored is None else part.stored.offset
            fields[tp] = {
                "broker": leader if part.replica is None else part.replica,
                "leader": leader,
                "fetchq_size": sum(len(f.part.records) for f in part.buffered),
                "next_offset": part.fetch_offset,
                "app_offset": position,
                "stored_offset": stored,
                "lo_offset": part.low,
                "hi_offset": part.high,
                "consumer_lag_stored": part.high - stored if part.high >= 0 <= stored else -1,
            }
        return topics_object(fields)

    def take_ends(self) -> list[tuple[TopicPartition, int]]:
        """The partitions that reached their end since the last call, with the offset there
        (enable.partition.eof; librdkafka's _PARTITION_EOF events)."""
        ends, self._ends = self._ends, []
        return ends

    def _settle(self, end: float) -> Flow[bool]:
        """Bring the group membership and the positions up to date, for up to ``end``;
        whether that is done. What is unfinished then (a JoinGroup the coordinator holds
        until every member has joined, say) stays in flight for the next poll; its calls
        keep their own timeouts and retries, which end it with an error if the brokers
        never answer."""
        if self._settling is None:
            if not self._needs_settling():
                return True
            self._settling = Continued(self._settle_flow(), "poll", None)
        try:
            done = yield from self._settling.advance(max(0.0, end - time.monotonic()))
        except BaseException:
            self._settling = None
            raise
        if done:
            self._settling = None
        return done

    def _needs_settling(self) -> bool:
        member = self.member
        if member is not None and self.subscribed:
            if member.fatal is not None or member.lost or self._group_needs_poll():
                return True
            if isinstance(member, ConsumerGroupMember) and member.subscription != tuple(
                self.topics
            ):
                return True  # the heartbeats must tell the new subscription
            if self.pattern is not None and time.monotonic() >= self._next_pattern_check:
                return True
        return any(p.position is None or (p.reset and not p.buffered) for p in self.parts.values())

    def _settle_flow(self) -> Flow[None]:
        yield from self._maintain_group()
        yield from self._resolve_positions()

    def abandon_settling(self) -> None:
        """Give up the group work and position lookups under way (unsubscribe, close)."""
        if self._settling is not None:
            self._settling.close()
            self._settling = None

    # ---- the group ----------------------------------------------------------------------------

    def _group_needs_poll(self) -> bool:
        member = self.member
        if isinstance(member, ConsumerGroupMember):
            return member.needs_poll()
        return member is not None and (member.rejoin_needed or member.lost)

    def _maintain_group(self) -> Flow[None]:
        member = self.member
        if member is None or not self.subscribed:
            return
        if self.pattern is not None and time.monotonic() >= self._next_pattern_check:
            yield from self._match_pattern()
        fatal, member.fatal = member.fatal, None
        if fatal is not None:  # a heartbeat's: raised once, the heartbeats go on
            raise fatal
        if member.lost:
            self._drop_lost()
        if isinstance(member, ConsumerGroupMember):
            yield from self._follow_assignment(member)
            return
        if not member.rejoin_needed:
            return
        owned = self.assignment()
        if not member.cooperative and owned:
            yield from self._commit_before_revoke(owned)
            self.parts.clear()
            self._call("on_revoke", owned)
            owned = []
        result = yield from member.join(self.core, self.topics, owned)
        new = set(result.assignment)
        revoked = [tp for tp in owned if tp not in new]
        added = sorted(new - set(owned))
        if revoked:  # cooperative: give these up, then rejoin so others can take them
            yield from self._commit_before_revoke(revoked)
            for tp in revoked:
                self.parts.pop(tp, None)
            self._call("on_revoke", revoked)
            member.rejoin_needed = True
        for tp in added:
            self.parts[tp] = _Partition()
        if added or not member.cooperative:
            self._call("on_assign", added)

    def _drop_lost(self) -> None:
        """The group took the partitions without a revoke (this member was fenced or left):
        no commit, on_lost (or on_revoke)."""
        lost = self.assignment()
        self.parts.clear()
        self.member.lost = False
        self._call("on_lost" if self.callbacks.get("on_lost") else "on_revoke", lost)

    def _follow_assignment(self, member: ConsumerGroupMember) -> Flow[None]:
        """KIP-848 (after _maintain_group raised a kept error and dropped lost partitions): join
        when out of the group, then make the partitions owned the broker's newest assignment:
        the revoked ones first (committed with auto-commit, on_revoke), then the added ones
        (on_assign); the heartbeat loop acknowledges what is owned at once."""
        with member.lock:
            member.subscription = tuple(self.topics)
        if not member.joined and self.topics:
            yield from member.join(self.core)
        target = yield from member.target_assignment(self.core)
        if target is None:
            return
        owned = set(self.parts)
        revoked = sorted(owned - target)
        added = sorted(target - owned)
        if revoked:
            yield from self._commit_before_revoke(revoked)
            for tp in revoked:
                self.parts.pop(tp, None)
            self._call("on_revoke", revoked)
        for tp in added:
            self.parts[tp] = _Partition()
        member.reconciled(set(self.parts))
        if added:
            self._call("on_assign", added)

    def _match_pattern(self) -> Flow[None]:
        cluster = yield from self.core.metadata(None)
        skip_internal = self.config.exclude_internal_topics  # __consumer_offsets and the like
        matched = sorted(
            name
            for name, info in cluster.topics.items()
            if self.pattern.fullmatch(name) and not (skip_internal and info.is_internal)
        )
        if matched != self.topics:
            self.topics = matched
            self.member.rejoin_needed = True
        every = min(_PATTERN_CHECK, self.core.config.metadata_max_age)
        self._next_pattern_check = time.monotonic() + every

    def _call(self, name: str, tps: list[TopicPartition]) -> None:
        callback = self.callbacks.get(name)
        if callback is not None:
            callback(tps)

    def _commit_before_revoke(self, tps: list[TopicPartition]) -> Flow[None]:
        if not self.config.enable_auto_commit:
            return
        # a fenced member's commit fails: the next owner starts from the last commit
        with contextlib.suppress(ClientError, BrokerError):
            yield from self.commit(self._commits.to_commit({tp: self.parts[tp] for tp in tps}))

    # ---- offsets ------------------------------------------------------------------------------

    def store_offsets(self, records: Any = None, offsets: Any = None) -> None:
        """Store, for the next commit without offsets, the offset after each record of
        ``records`` (a ConsumerRecord or several) and ``offsets`` (as commit takes them)."""
        if self.config.enable_auto_offset_store:
            raise ClientError(
                "store_offsets needs enable.auto.offset.store=false: with it true (the "
                "default) every position poll hands out is stored"
            )
        chosen = _offsets(records or [], "store_offsets")
        chosen.update(_offsets(offsets or [], "store_offsets"))
        if not chosen:
            raise ClientError("store_offsets: give records or offsets to store")
        missing = [tp for tp in chosen if tp not in self.parts]
        if missing:
            raise ClientError(f"store_offsets: {_names(missing)} not assigned to this consumer")
        for tp, offset in chosen.items():
            self.parts[tp].stored = offset

    def commit(self, offsets: Any = None) -> Flow[None]:
        """Commit ``offsets`` ({tp: offset or OffsetAndMetadata}, ConsumerRecords: the offset
        after each, or objects with topic, partition and offset: confluent-kafka's
        TopicPartition), or every position; after the asynchronous commits sent before it."""
        chosen = self._commits.chosen(offsets, self.parts, self.subscribed)
        yield from self._commits.commit(chosen)

    def commit_async(self, offsets: Any = None) -> Flow[None]:
        """Send the commit and return: the polls that follow take the answer (and try again
        where the commit flow does) and tell on_commit how it ended."""
        chosen = self._commits.chosen(offsets, self.parts, self.subscribed)
        yield from self._commits.commit_async(chosen)

    def committed(self, tps: Iterable[TopicPartition]) -> Flow[dict]:
        if self.member is None:
            raise ClientError("committed offsets need a group.id")
        return (yield from self.member.committed(self.core, [TopicPartition(*t) for t in tps]))

    def offsets_for_times(self, specs: Mapping[TopicPartition, int]) -> Flow[dict]:
        """For each partition, the first offset whose timestamp is at least the one given
        (None when there is none)."""
        found = yield from offset_flows.list_offsets(
            self.core,
            {TopicPartition(*tp): int(ts) for tp, ts in specs.items()},
            isolation_level=self.config.isolation_level,
        )
        return {tp: (r if r.offset >= 0 else None) for tp, r in found.items()}

    def close(self, *, commit: bool) -> Flow[None]:
        """Commit the positions (auto-commit on), then leave the group."""
        try:
            yield from self._commits.finish()
            if commit and self.member is not None and self.config.enable_auto_commit:
                yield from self._commit_before_revoke(self.assignment())
            if self.member is not None and self.subscribed:
                yield from self.member.leave(self.core)
        finally:
            self.parts.clear()
            self._fetches.in_flight.clear()


def _names(tps: Iterable[TopicPartition]) -> str:
    return ", ".join(f"{t}-{p}" for t, p in sorted(tps))
