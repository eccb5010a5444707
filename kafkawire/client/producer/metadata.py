"""The producer's topics as the cluster's metadata gives them: a topic's partitions (one
``PartitionQueue`` each in the producer) and which broker leads each.

A topic's partitions are asked for at its first record (``topic_flow``, a job on the sender),
and every topic's again when metadata.max.age.ms has passed (partitions added to a topic show
up; never fewer) or when the sender found a leader unknown or moved (``due``), at most once per
retry.backoff.ms.
"""

from __future__ import annotations

import time

from kafkawire.protocol.error_codes import ErrorCode, UnknownTopicOrPartitionError, error_class

from ..flow import Flow, Sleep
from ..types import TopicPartition
from ._accumulate import PartitionQueue, Topic


class TopicMetadata:
    """The metadata of ``producer``'s topics (a ``ProducerCore``: it holds the topics and their
    queues, which this fills)."""

    def __init__(self, producer) -> None:
        self._producer = producer
        self.due = False  # a refresh is wanted: a leader is unknown, or has moved
        self._job = False  # a refresh is under way
        self._at = time.monotonic()  # the last refresh asked

    def topic_flow(self, topic: str) -> Flow[int]:
        """A job: the topic's partitions, waited for up to topic.metadata.propagation.max.ms
        (a topic just created may not be known to every broker yet)."""
        p = self._producer
        give_up = time.monotonic() + p.config.topic_metadata_wait
        backoff = p.core.config.retry_backoff
        while True:
            # a cluster that cannot be reached fails at once (after the metadata's own
            # retries): the wait below is for a topic the brokers do not know yet
            answer = yield from p.core.metadata([topic])
            info = answer.topics.get(topic)
            code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION if info is None else info.error_code
            if code == 0 and info.partitions:
                self._known(info)
                return len(info.partitions)
            error = error_class(code)(f"topic {topic!r}") if code else None
            if error is not None and not error.retriable:
                raise error
            if time.monotonic() >= give_up:
                raise UnknownTopicOrPartitionError(
                    f"topic {topic!r} is not in the cluster after "
                    f"{p.config.topic_metadata_wait:g} s (topic.metadata.propagation.max.ms):"
                    " create it first, or let the broker create topics"
                )
            yield Sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    def _known(self, info) -> None:
        p = self._producer
        t = p.topics.get(info.name)
        if t is None:
            t = p.topics[info.name] = Topic(info.name)
        while len(t.queues) < len(info.partitions):  # new partitions (never fewer)
            tp = TopicPartition(info.name, len(t.queues))
            q = p.queues[tp] = PartitionQueue(tp)
            t.queues.append(q)

    def tick(self, now: float) -> None:
        """Refresh the topics' metadata if it is due."""
        p = self._producer
        since = now - self._at
        # asked for again at most once per retry.backoff.ms: a cluster that cannot answer
        # (unreachable, refusing) is not asked in a loop
        due = self.due and since >= p.core.config.retry_backoff
        # metadata.max.age.ms: partitions added to a topic show up
        if p.topics and (due or since >= p.core.config.metadata_max_age):
            self._refresh()

    def next_deadline(self, at: float) -> float:
        """``at``, or when the metadata is due to be refreshed if that comes sooner."""
        p = self._producer
        if p.topics:
            at = min(at, self._at + p.core.config.metadata_max_age)
            if self.due:
                at = min(at, self._at + p.core.config.retry_backoff)
        return at

    def _refresh(self) -> None:
        p = self._producer
        if self._job:
            return
        self._job = True
        self.due = False
        self._at = time.monotonic()

        def done(answer, error):
            self._job = False
            if error is None:
                for info in answer.topics.values():
                    if info.error_code == 0 and info.name in p.topics:
                        self._known(info)

        p.start_job(p.core.metadata_once(list(p.topics)), done)

    def leader(self, tp: TopicPartition) -> int | None:
        """The broker leading ``tp``, None when it is not known (or not among the brokers)."""
        core = self._producer.core
        cluster = core.cluster
        info = None if cluster is None else cluster.topics.get(tp.topic)
        part = None if info is None else info.partitions.get(tp.partition)
        if part is None or part.leader < 0 or part.error_code or part.leader not in core.brokers:
            return None
        return part.leader
