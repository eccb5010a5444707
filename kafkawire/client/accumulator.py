"""The producer's record batches while they wait, travel and come back, and the futures its
callers hold. No IO: the producer core (``producer_core.py``) fills and drains them.

A record goes into its partition's open ``ProducerBatch`` (a compiled ``BatchBuilder``), and
its future is that batch and its index in it: no object per record but the future. A batch is
built (encoded, compressed) when the sender takes it; only then does it get its producer id,
epoch and sequence number, so batches that never left need no renumbering.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from kafkawire.records import BatchBuilder

from .types import RecordMetadata, TopicPartition

QUEUED, IN_FLIGHT, DONE = 0, 1, 2


class ProducerBatch:
    """The records of one partition that travel together, and their outcome."""

    __slots__ = (
        "accounted",
        "attempts",
        "base_offset",
        "builder",
        "callbacks",
        "count",
        "created",
        "data",
        "deadline",
        "error",
        "last_error",
        "log_append_time",
        "retry_at",
        "sequence",
        "stamp",
        "state",
        "tp",
        "waiters",
    )

    def __init__(
        self,
        tp: TopicPartition,
        builder: BatchBuilder | None,
        data: bytes | None,
        count: int,
        now: float,
        deadline: float,
    ) -> None:
        self.tp = tp
        self.builder = builder  # open: records still come in
        self.data = data  # built
        self.count = count
        self.created = now
        self.deadline = deadline  # delivery.timeout.ms from the first record
        self.sequence = -1  # base sequence once numbered
        self.stamp: tuple[int, int] | None = None  # (producer id, epoch) it was numbered with
        self.attempts = 0
        self.retry_at = 0.0
        self.state = QUEUED
        self.base_offset = -1
        self.log_append_time = -1
        self.error: BaseException | None = None
        self.waiters: list[Any] | None = None  # asyncio futures awaiting the outcome
        self.callbacks: list[tuple[Callable, Any]] | None = None
        self.last_error: BaseException | None = None  # of a try that will be retried
        self.accounted = 0  # its bytes in the producer's buffer count (once closed)

    @property
    def size(self) -> int:
        if self.data is not None:
            return len(self.data)
        return self.builder.size_in_bytes

    def build(self, producer_id: int, epoch: int, sequence: int, transactional: bool) -> bytes:
        """The batch's bytes, numbered (once; a retry sends the same bytes)."""
        if self.data is None:
            builder, self.builder = self.builder, None
            if producer_id >= 0:
                builder.set_producer(producer_id, epoch, sequence, transactional)
            self.data = builder.build()
        elif self.stamp != (producer_id, epoch) or self.sequence != sequence:
            from kafkawire.records._build import stamp_producer

            self.data = stamp_producer(self.data, producer_id, epoch, sequence, transactional)
        self.stamp, self.sequence = (producer_id, epoch), sequence
        return self.data

    def finish(self, base_offset: int, log_append_time: int, error: BaseException | None):
        """Record the outcome; the callbacks to run (outside any lock) with it."""
        self.state = DONE
        self.base_offset, self.log_append_time, self.error = base_offset, log_append_time, error
        self.builder = None
        self.data = None
        if self.waiters:
            for waiter in self.waiters:
                if not waiter.done():
                    waiter.set_result(None)
        self.waiters = None
        callbacks, self.callbacks = self.callbacks, None
        return callbacks or ()


class _FutureBase:
    """The outcome of one record: its batch and its place in it."""

    __slots__ = ("_batch", "_index", "_timestamp")

    def __init__(self, batch: ProducerBatch, index: int, timestamp: int) -> None:
        self._batch = batch
        self._index = index
        self._timestamp = timestamp

    def done(self) -> bool:
        return self._batch.state == DONE

    def cancelled(self) -> bool:
        return False

    def cancel(self) -> bool:
        """Records cannot be taken back once handed over (as in concurrent.futures, a
        running future is not cancelled)."""
        return False

    def _outcome(self) -> RecordMetadata:
        b = self._batch
        if b.error is not None:
            raise b.error
        offset = -1 if b.base_offset < 0 else b.base_offset + self._index
        timestamp = b.log_append_time if b.log_append_time >= 0 else self._timestamp
        return RecordMetadata(b.tp.topic, b.tp.partition, offset, timestamp)

    def __repr__(self) -> str:
        b = self._batch
        if b.state != DONE:
            return f"<{type(self).__name__} {b.tp.topic}-{b.tp.partition} pending>"
        if b.error is not None:
            return f"<{type(self).__name__} {b.tp.topic}-{b.tp.partition} failed: {b.error!r}>"
        return f"<{type(self).__name__} {self._outcome()}>"


class RecordFuture(_FutureBase):
    """What ``Producer.send`` returns: ``result(timeout)`` is the record's RecordMetadata
    (topic, partition, offset, timestamp) once the broker has it, or raises why not.
    Callbacks run on the producer's sender thread, as Java's do."""

    __slots__ = ("_signal",)

    def __init__(self, batch, index, timestamp, signal: threading.Condition) -> None:
        super().__init__(batch, index, timestamp)
        self._signal = signal

    def _wait(self, timeout: float | None) -> None:
        if self._batch.state == DONE:
            return
        with self._signal:
            if not self._signal.wait_for(lambda: self._batch.state == DONE, timeout):
                raise TimeoutError(f"no delivery report in {timeout} s")

    def result(self, timeout: float | None = None) -> RecordMetadata:
        self._wait(timeout)
        return self._outcome()

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self._wait(timeout)
        return self._batch.error

    def add_done_callback(self, fn: Callable[[RecordFuture], Any]) -> None:
        """``fn(future)`` once the outcome is known (at once if it is)."""
        with self._signal:
            if self._batch.state != DONE:
                if self._batch.callbacks is None:
                    self._batch.callbacks = []
                self._batch.callbacks.append((fn, self))
                return
        fn(self)


class AsyncRecordFuture(_FutureBase):
    """What ``kafkawire.aio.Producer.send`` returns: ``await`` it for the RecordMetadata."""

    __slots__ = ()

    def __await__(self):
        b = self._batch
        if b.state != DONE:
            waiter = asyncio.get_running_loop().create_future()
            if b.waiters is None:
                b.waiters = []
            b.waiters.append(waiter)
            yield from waiter.__await__()
        return self._outcome()

    def result(self) -> RecordMetadata:
        """The outcome, when done (as asyncio.Future.result: InvalidStateError before)."""
        if self._batch.state != DONE:
            raise asyncio.InvalidStateError("the record is not delivered yet")
        return self._outcome()

    def exception(self) -> BaseException | None:
        if self._batch.state != DONE:
            raise asyncio.InvalidStateError("the record is not delivered yet")
        return self._batch.error

    def add_done_callback(self, fn: Callable[[AsyncRecordFuture], Any]) -> None:
        if self._batch.state != DONE:
            if self._batch.callbacks is None:
                self._batch.callbacks = []
            self._batch.callbacks.append((fn, self))
            return
        fn(self)


class PartitionQueue:
    """One partition's batches, oldest first; the last may be open."""

    __slots__ = ("acked", "batches", "in_flight", "next_sequence", "open", "retrying", "tp")

    def __init__(self, tp: TopicPartition) -> None:
        self.tp = tp
        self.batches: deque[ProducerBatch] = deque()
        self.open: ProducerBatch | None = None
        self.in_flight = 0
        self.retrying = False  # a batch came back: resend in order once nothing is in flight
        self.next_sequence = 0
        self.acked = 0  # the sequence after the last acknowledged batch

    def requeue(self, batch: ProducerBatch) -> None:
        """Put a batch that came back where its sequence number says."""
        batch.state = QUEUED
        self.retrying = True
        items = list(self.batches)
        at = 0
        while at < len(items) and 0 <= items[at].sequence < batch.sequence:
            at += 1
        items.insert(at, batch)
        self.batches = deque(items)
