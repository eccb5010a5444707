"""Records sent before their topic's partitions are known: held, so that ``send`` never waits
on the network.

Each held record gets a stand-in batch (a batch of one, tp (topic, -1)) whose outcome its
future watches. The topic's metadata is asked for once, as a job on the sender; when it comes
the records go to their partitions' batches in send order (the real batch's outcome is then
copied to the stand-in, ``stand_in_done``), and when it cannot be had, or a record's
delivery.timeout.ms passes first, they fail. A held record's bytes count in the producer's
buffer from its send.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from kafkawire.protocol.error_codes import BrokerError
from kafkawire.records import BatchBuilder

from ..errors import (
    BufferFullError,
    ClientError,
    DeliveryTimeoutError,
    RecordTooLargeError,
    TransactionStateError,
)
from ..types import TopicPartition
from ._accumulate import DONE, ProducerBatch


@dataclass(slots=True)
class _Held:
    """A record sent before its topic's partitions were known: ``stand_in`` (a batch of one,
    tp (topic, -1)) is what its future watches until the record is placed (then the real
    batch's outcome is copied to it, ``stand_in_done``) or the topic cannot be had."""

    stand_in: ProducerBatch
    value: Any
    key: Any
    headers: Any
    partition: int | None
    timestamp: int


def stand_in_done(_):  # a marker in a batch's callbacks: see ProducerCore.finish
    raise AssertionError("a stand-in's outcome is copied by ProducerCore.finish")


class HeldRecords:
    """The records held, by topic, in send order. ``producer`` is the ``ProducerCore`` they
    belong to: its settings, buffer, jobs and batches."""

    def __init__(self, producer) -> None:
        self._producer = producer
        self._held: dict[str, list[_Held]] = {}  # topic -> records waiting for its metadata
        self.placing = False  # held records go to their batches: the buffer was counted

    def hold(self, topic: str, value, key, headers, partition, timestamp):
        """Keep a record for a topic whose partitions are unknown, in send order, and ask for
        them (once per topic) on the sender; the record's stand-in batch, as
        ``ProducerCore.append``."""
        p = self._producer
        if timestamp is None:
            timestamp = time.time_ns() // 1000000
        c = p.config
        # what can be checked without the topic is checked now, as for any record: the kinds
        # of value, key and headers, and the size (the record alone, as a batch)
        trial = BatchBuilder(compression=c.compression, max_bytes=c.batch_size)
        trial.append(value, key=key, timestamp=timestamp, headers=headers)
        size = trial.size_in_bytes
        if size > c.message_max_bytes:
            raise RecordTooLargeError(
                f"a record of {size} bytes (as a batch) for {topic} is larger than "
                f"message.max.bytes ({c.message_max_bytes}); it was not sent"
            )
        if p.buffered + p.reserved + size > c.buffer_bytes and p.buffered:
            raise BufferFullError(
                f"the producer's buffer holds {p.buffered + p.reserved} bytes "
                f"(queue.buffering.max.kbytes {c.buffer_bytes // 1024})"
            )
        now = time.monotonic()
        stand_in = ProducerBatch(
            TopicPartition(topic, -1), None, None, 1, now, now + c.delivery_timeout
        )
        stand_in.accounted = size
        p.buffered += size
        held = self._held.get(topic)
        if held is None:
            held = self._held[topic] = []
            p.start_job(p.metadata.topic_flow(topic), partial(self._topic_known, topic))
        held.append(_Held(stand_in, value, key, headers, partition, timestamp))
        return stand_in, 0, timestamp

    def _topic_known(self, topic: str, _count, error: BaseException | None) -> None:
        """The topic's metadata came (``topic_flow`` registered its partitions) or cannot be
        had: the held records go to their partitions' batches, in send order, or fail."""
        p = self._producer
        for h in self._held.pop(topic, []):
            if h.stand_in.state == DONE:  # expired meanwhile
                continue
            p.buffered -= h.stand_in.accounted
            h.stand_in.accounted = 0
            if error is None:
                self.placing = True
                try:
                    b, index, _ = p.append(
                        topic, h.value, h.key, h.headers, h.partition, h.timestamp
                    )
                except (ClientError, BrokerError, TransactionStateError) as exc:
                    self._settle(h.stand_in, error=exc)
                    continue
                finally:
                    self.placing = False
                h.stand_in.tp = b.tp
                if b.callbacks is None:
                    b.callbacks = []
                b.callbacks.append((stand_in_done, (h.stand_in, index)))
            else:
                self._settle(h.stand_in, error=error)
        p.notify()

    def _settle(self, stand_in: ProducerBatch, base_offset=-1, log_append_time=-1, error=None):
        p = self._producer
        p.buffered -= stand_in.accounted
        stand_in.accounted = 0
        p.callbacks.extend(stand_in.finish(base_offset, log_append_time, error))
        p.notify()

    def fail(self, error: BaseException) -> None:
        """Every record held fails with ``error``."""
        for topic, records in self._held.items():
            for h in records:
                if h.stand_in.state != DONE:
                    self._settle(h.stand_in, error=error)
            self._held[topic] = []  # the topic's job may still be under way: it finds none

    def expire(self, now: float) -> None:
        """The records whose delivery.timeout.ms passed while held fail."""
        if not self._held:
            return
        p = self._producer
        for records in self._held.values():
            for h in records:
                if h.stand_in.deadline <= now and h.stand_in.state != DONE:
                    tp = h.stand_in.tp
                    last_failure = p.jobs.last_failure
                    self._settle(
                        h.stand_in,
                        error=DeliveryTimeoutError(
                            f"a record for {tp.topic} was not acknowledged within "
                            f"delivery.timeout.ms ({p.config.delivery_timeout * 1000:g} ms): "
                            "the topic's partitions could not be had"
                            + ("" if last_failure is None else f" ({last_failure})")
                        ),
                    )

    def stand_ins(self) -> list[ProducerBatch]:
        """The stand-ins of the records held now."""
        return [h.stand_in for records in self._held.values() for h in records]

    def waiting(self) -> bool:
        """Whether a record is held."""
        return any(self._held.values())

    def next_deadline(self, at: float) -> float:
        """``at``, or the first held record's delivery timeout if that comes sooner."""
        for records in self._held.values():
            if records:
                at = min(at, records[0].stand_in.deadline)
        return at
