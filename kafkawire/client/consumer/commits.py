"""The consumer's commits: the offsets a commit takes (the caller's, or the positions handed
out, or with enable.auto.offset.store=false what store_offsets stored), a commit that waits
after the asynchronous ones sent before it, the asynchronous ones (commit_async, auto-commit's)
that the polls step, and on_commit, told how each of those ended."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kafkawire.protocol.error_codes import BrokerError
from kafkawire.records import ConsumerRecord

from ..core import ClientCore
from ..errors import ClientError
from ..flow import Call, Flow, Sleep, Start, Wait
from ..groups.classic import CommitFailedError, GroupMember
from ..groups.consumer_protocol import ConsumerGroupMember
from ..types import OffsetAndMetadata, TopicPartition
from .config import ConsumerConfig
from .pipeline import _Partition


@dataclass
class _CommitJob:
    """An asynchronous commit that the polls step: its flow, and the call it waits for (a
    ticket) or, between tries, the end of its backoff."""

    flow: Flow[None]
    partitions: list[TopicPartition]
    ticket: Any = None
    wake_at: float = 0.0


class Commits:
    """The commits of a consumer's group member (``member``: None without a group.id)."""

    def __init__(
        self,
        core: ClientCore,
        config: ConsumerConfig,
        member: GroupMember | ConsumerGroupMember | None,
    ) -> None:
        self.core = core
        self.config = config
        self.member = member
        self._jobs: list[_CommitJob] = []  # asynchronous commits under way
        self._next_auto = time.monotonic() + config.auto_commit_interval

    def to_commit(self, parts: Mapping[TopicPartition, _Partition]) -> dict:
        """What a commit without offsets takes: the positions, or with
        enable.auto.offset.store=false what store_offsets stored."""
        if not self.config.enable_auto_offset_store:
            return {tp: p.stored for tp, p in parts.items() if p.stored is not None}
        return {
            tp: OffsetAndMetadata(p.position, "", None if p.leader_epoch < 0 else p.leader_epoch)
            for tp, p in parts.items()
            if p.position is not None
        }

    def chosen(
        self, offsets: Any, parts: Mapping[TopicPartition, _Partition], subscribed: bool
    ) -> dict[TopicPartition, OffsetAndMetadata]:
        """The offsets a commit of ``offsets`` sends (None: ``parts``' positions, or what
        store_offsets stored); refused without a group.id, or for a member out of the group."""
        if self.member is None:
            raise ClientError("commit needs a group.id")
        if subscribed and self.member.generation < 0:
            raise CommitFailedError(
                f"commit to group {self.member.group_id!r} refused: this member is not in the "
                "group (it left, or the group rebalanced without it); poll to rejoin"
            )
        return self.to_commit(parts) if offsets is None else _offsets(offsets, "commit")

    def commit(self, chosen: dict[TopicPartition, OffsetAndMetadata]) -> Flow[None]:
        """Commit ``chosen``, after the asynchronous commits sent before it."""
        yield from self.finish()
        yield from self.member.commit(self.core, chosen)

    def commit_async(self, chosen: dict[TopicPartition, OffsetAndMetadata]) -> Flow[None]:
        """Send the commit of ``chosen`` and return: the polls that follow step it."""
        job = _CommitJob(self.member.commit(self.core, chosen), sorted(chosen))
        self._jobs.append(job)
        yield from self._step(job, None)

    def auto_commit(
        self, parts: Mapping[TopicPartition, _Partition], subscribed: bool
    ) -> Flow[None]:
        """enable.auto.commit: commit ``parts`` once auto.commit.interval.ms has passed."""
        if self.member is None or not self.config.enable_auto_commit:
            return
        now = time.monotonic()
        if now < self._next_auto:
            return
        self._next_auto = now + self.config.auto_commit_interval
        chosen = self.to_commit(parts)
        if not chosen:
            return
        # sent and left to the polls that follow (a poll never waits for it); as Java's, one
        # that fails is reported to on_commit and the next interval commits again
        try:
            yield from self.commit_async(self.chosen(chosen, parts, subscribed))
        except (ClientError, BrokerError) as exc:
            self._report(exc, sorted(chosen))

    def _step(self, job: _CommitJob, outcome: Any) -> Flow[None]:
        """Hand an asynchronous commit what it waited for; send the call it asks for next
        (Start: nobody waits for it), or report its end."""
        job.ticket = None
        try:
            if isinstance(outcome, BaseException):
                effect = job.flow.throw(outcome)
            else:
                effect = job.flow.send(outcome)
            if isinstance(effect, Sleep):
                job.wake_at = time.monotonic() + effect.seconds
                return
            if not isinstance(effect, Call):
                raise TypeError(f"a commit flow yielded {effect!r}")
            job.ticket = yield Start(effect)
        except StopIteration:
            self._ended(job, None)
        except (ClientError, BrokerError) as exc:
            self._ended(job, exc)

    def under_way(self) -> int:
        """How many asynchronous commits have not ended."""
        return len(self._jobs)

    def tickets(self) -> list:
        return [job.ticket for job in self._jobs if job.ticket is not None]

    def step(self, done: Mapping) -> Flow[None]:
        """Step the asynchronous commits whose call is in ``done`` or whose backoff ended."""
        now = time.monotonic()
        for job in list(self._jobs):
            if job.ticket is None and now >= job.wake_at:
                yield from self._step(job, None)
            elif job.ticket is not None and job.ticket in done:
                yield from self._step(job, done[job.ticket])

    def finish(self) -> Flow[None]:
        """Wait for the asynchronous commits under way (each call has its own deadline)."""
        while self._jobs:
            done = {}
            if tickets := self.tickets():
                done = yield Wait(tickets, 0.05)
            else:
                yield Sleep(0.01)  # every one is backing off
            yield from self.step(done)

    def _ended(self, job: _CommitJob, error: BaseException | None) -> None:
        self._jobs.remove(job)
        self._report(error, job.partitions)

    def _report(self, error: BaseException | None, tps: list[TopicPartition]) -> None:
        if self.config.on_commit is not None:
            self.config.on_commit(error, tps)


def _offsets(offsets: Any, what: str) -> dict[TopicPartition, OffsetAndMetadata]:
    """{tp: OffsetAndMetadata} from {tp: offset or OffsetAndMetadata}, or from ConsumerRecords
    (the offset after each, as confluent-kafka's ``message``) and objects with topic,
    partition and offset (confluent-kafka's TopicPartition: that offset)."""
    if isinstance(offsets, Mapping):
        return {
            TopicPartition(*tp): o if isinstance(o, OffsetAndMetadata) else OffsetAndMetadata(o)
            for tp, o in offsets.items()
        }
    chosen = {}
    for item in [offsets] if isinstance(offsets, ConsumerRecord) else offsets:
        if isinstance(item, ConsumerRecord):
            epoch = None if item.leader_epoch < 0 else item.leader_epoch
            chosen[TopicPartition(item.topic, item.partition)] = OffsetAndMetadata(
                item.offset + 1, "", epoch
            )
            continue
        if getattr(item, "offset", None) is None:
            raise ClientError(
                f"{what}: {item!r} has no offset; give {{TopicPartition: offset}} or objects "
                "with topic, partition and offset"
            )
        metadata = getattr(item, "metadata", None) or ""
        epoch = getattr(item, "leader_epoch", None)
        chosen[TopicPartition(item.topic, item.partition)] = OffsetAndMetadata(
            item.offset, metadata, epoch
        )
    return chosen
