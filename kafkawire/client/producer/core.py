"""The producer as a sans-IO state machine: partitioning, per-partition batches with linger and
size triggers, pipelined produce requests with idempotent sequence numbers, retries,
delivery timeouts, and transactions.

The faces (``producer/faces.py``) append records under ``lock`` and run one flow,
``sender()``, for the producer's life: it yields ``Start`` for each produce request (one per
broker, carrying one batch of every partition that is ready) and ``Wait`` for their answers,
woken early when a batch fills up or a caller flushes. The other things the producer asks of
the cluster (metadata, InitProducerId, the transaction coordinator's requests) are ordinary
flows that the sender steps as *jobs* between its own calls, so one connection per broker
carries everything and nothing of the protocol is written twice.

Ordering under retries: a batch that comes back is put back by its sequence number, and the
partition sends nothing more until its requests in flight have all answered; then the batches
go again in order. With idempotence the broker drops the copies of batches it already has
(DUPLICATE_SEQUENCE_NUMBER, or the original answer).
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    BrokerError,
    ErrorCode,
    OutOfOrderSequenceNumberError,
    ProducerFencedError,
    UnknownTopicOrPartitionError,
    error_class,
)
from kafkawire.records import BatchBuilder
from kafkawire.records._build import murmur2

from ..core import ClientCore
from ..errors import (
    AuthenticationError,
    BrokerConnectionError,
    BufferFullError,
    ClientError,
    DeliveryTimeoutError,
    NotKafkaError,
    RecordTooLargeError,
    RequestTimeoutError,
    TlsError,
    TransactionStateError,
)
from ..flow import Call, Flow, Gather, Sleep, Start, Wait
from ..stats import leader_of, topics_object
from ..types import OffsetAndMetadata, TopicPartition
from . import requests as produce_flows
from ._accumulate import (
    DONE,
    IN_FLIGHT,
    QUEUED,
    PartitionQueue,
    ProducerBatch,
    Topic,
    append_fast,
    record_future,
)
from .config import ProducerConfig
from .transactions import (
    ConsumerGroupMetadata,
    GroupCoordinator,
    ProducerIdentity,
    TransactionCoordinator,
    fenced,
)

_IDLE_WAIT = 5.0  # the longest the sender sleeps with nothing to do (a wake ends it sooner)
_REFRESH_ON = {
    ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.LEADER_NOT_AVAILABLE,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ErrorCode.FENCED_LEADER_EPOCH,
    ErrorCode.UNKNOWN_LEADER_EPOCH,
    ErrorCode.KAFKA_STORAGE_ERROR,
}

# A broker that refuses the client (credentials, mechanism, certificates) or is not Kafka: asking
# again at once cannot help, so the refusal stands for retry.backoff.max.ms (see _refuse)
REFUSALS = (AuthenticationError, TlsError, NotKafkaError)
# what error_cb hears (librdkafka's error events): brokers lost, silent or refusing
_CLIENT_ERRORS = (BrokerConnectionError, RequestTimeoutError, *REFUSALS)

# transaction states
NO_TRANSACTIONS, UNINITIALIZED, READY, IN_TRANSACTION, COMMITTING, ABORTING, FATAL = range(7)


@dataclass(frozen=True, slots=True)
class _Drained:
    """A job's effect: resume once no batch is queued or in flight (a transaction's end)."""


class _Job:
    __slots__ = ("flow", "on_done", "wake_at")

    def __init__(self, flow: Flow, on_done: Callable[[Any, BaseException | None], None]):
        self.flow = flow
        self.on_done = on_done
        self.wake_at = 0.0


@dataclass(slots=True)
class _Held:
    """A record sent before its topic's partitions were known: ``stand_in`` (a batch of one,
    tp (topic, -1)) is what its future watches until the record is placed (then the real
    batch's outcome is copied to it, ``_stand_in_done``) or the topic cannot be had."""

    stand_in: ProducerBatch
    value: Any
    key: Any
    headers: Any
    partition: int | None
    timestamp: int


def _stand_in_done(_):  # a marker in a batch's callbacks: see ProducerCore._finish
    raise AssertionError("a stand-in's outcome is copied by ProducerCore._finish")


class ProducerCore:
    def __init__(
        self,
        core: ClientCore,
        config: ProducerConfig,
        *,
        lock,
        notify: Callable[[], None],
        wake: Callable[[], None],
    ) -> None:
        self.core = core
        self.config = config
        partitioner = config.partitioner
        self._hash = zlib.crc32 if partitioner.startswith("consistent") else murmur2
        # what a record without a key gets: a sticky partition, the empty key's, a random one
        self._keyless = {"murmur2": "hash", "consistent": "hash", "random": "random"}.get(
            partitioner, "sticky"
        )
        self.lock = lock  # held by whoever touches the state (the sender, the callers)
        self._notify = notify  # under the lock: a batch finished (blocked callers re-check)
        self.wake = wake  # the sender should look again now (from any thread)
        self.topics: dict[str, Topic] = {}
        self.fast = True  # send may take append_fast (see update_fast)
        self.accepting = True  # False once the producer is closing
        self.queues: dict[TopicPartition, PartitionQueue] = {}
        self.sent: set[ProducerBatch] = set()
        self.buffered = 0  # bytes of closed batches not finished
        self.reserved = 0  # bytes the open batches may still grow to
        self.flushing = 0
        self.closing = False
        self.sleeping_until = 0.0  # the sender is in a Wait until then (0: awake)
        self._wake_at = 0.0  # the next linger or retry backoff to end
        self._node_in_flight: dict[int, int] = {}
        self._to_start: list[tuple[Call, Callable]] = []
        self._sleeping: list[_Job] = []
        self._drain_waiters: list[_Job] = []
        self._jobs: set[_Job] = set()
        self._callbacks: list = []
        self._held: dict[str, list[_Held]] = {}  # topic -> records waiting for its metadata
        self._placing = False  # held records go to their batches: the buffer was counted
        self._last_failure: str | None = None  # of a job's call (its message: no traceback)
        self.errors: list[BaseException] = []  # connections lost or refused, for error_cb
        self._metadata_job = False
        self._metadata_due = False
        self._metadata_at = time.monotonic()
        self._identity_job = False
        self._reset_identity = False
        self._refused: tuple[BaseException, float] | None = None  # a refusal, standing until
        self.identity: ProducerIdentity | None = None
        self._fatal: BaseException | None = None
        # transactions
        txn_id = config.transactional_id
        self._txn_state = NO_TRANSACTIONS if txn_id is None else UNINITIALIZED
        self._txn = None if txn_id is None else TransactionCoordinator(core, txn_id)
        self._txn_partitions: set[TopicPartition] = set()
        self._txn_adding = False
        self._txn_offsets = False
        self.txn_error: BaseException | None = None
        self.update_fast()

    # ---- appending (callers, under the lock) ------------------------------------------------

    def send(self, topic: str, value, key, headers, partition, timestamp, signal):
        """Put one record in its partition's open batch; its future (``record_future``:
        ``signal`` is the blocking face's Condition, None for an awaitable).

        A record for a topic whose partitions are not known yet is held (``_hold``): send
        never waits on the network.

        :raises BufferFullError: no room: the caller waits for some, then sends again."""
        if partition is None and self.fast:
            future = append_fast(self.topics, topic, value, key, headers, timestamp, signal)
            if future is not None:
                return future
        return record_future(
            *self._append(topic, value, key, headers, partition, timestamp), signal
        )

    @property
    def fatal(self) -> BaseException | None:
        """The error that ended the producer (fenced), raised by every call after it."""
        return self._fatal

    @fatal.setter
    def fatal(self, error: BaseException | None) -> None:
        self._fatal = error
        self.update_fast()

    @property
    def txn_state(self) -> int:
        return self._txn_state

    @txn_state.setter
    def txn_state(self, state: int) -> None:
        self._txn_state = state
        self.update_fast()

    def update_fast(self) -> None:
        """Whether ``append_fast`` (murmur2 keys, sticky keyless) may place records."""
        self.fast = (
            self.accepting
            and self.fatal is None
            and self._refused is None
            and self.txn_state in (NO_TRANSACTIONS, IN_TRANSACTION)
            and self._hash is murmur2
            and self._keyless == "sticky"
        )

    def _append(self, topic: str, value, key, headers, partition, timestamp):
        if self.fatal is not None:
            raise self.fatal
        if self._refused is not None and (refused := self.refusal()) is not None:
            raise refused
        placing = self._placing  # a held record was in its transaction when it was sent
        if self.txn_state != NO_TRANSACTIONS and self.txn_state != IN_TRANSACTION and not placing:
            raise TransactionStateError(_not_in_transaction(self.txn_state))
        t = self.topics.get(topic)
        if t is None:
            return self._hold(topic, value, key, headers, partition, timestamp)
        count = len(t.queues)
        if partition is None:
            if key is None or self._keyless == "random":
                return self._append_keyless(t, value, key, headers, timestamp)
            partition = self._partition_of(key, count)
        elif not 0 <= partition < count:
            raise UnknownTopicOrPartitionError(
                f"topic {topic!r} has {count} partitions: no partition {partition}"
            )
        q = t.queues[partition]
        if timestamp is None:
            timestamp = time.time_ns() // 1000000
        b = q.open
        if b is None or not b.builder.append(value, key=key, timestamp=timestamp, headers=headers):
            b = self._new_batch(q, value, key, headers, timestamp)
        index = b.count
        b.count = index + 1
        return b, index, timestamp

    def _partition_of(self, key: bytes, count: int) -> int:
        """The partition of a key: murmur2's hash with its sign bit cleared (Java's), or the
        unsigned CRC32 (librdkafka's consistent partitioners), modulo the count."""
        hashed = self._hash(key)
        return ((hashed & 0x7FFFFFFF) if self._hash is murmur2 else hashed) % count

    def _append_keyless(self, t: Topic, value, key, headers, timestamp):
        """Records without a key (any record, with the random partitioner). Sticky: they fill
        one partition's batch, then go on to another partition (Java's and librdkafka's
        default: fewer, larger batches)."""
        if timestamp is None:
            timestamp = time.time_ns() // 1000000
        count = len(t.queues)
        if self._keyless == "hash":  # murmur2 / consistent: as an empty key
            q = t.queues[self._partition_of(b"", count)]
        elif self._keyless == "random":
            q = t.queues[random.randrange(count)]
        else:
            if t.sticky < 0:
                t.sticky = random.randrange(count)
            q = t.queues[t.sticky]
            b = q.open
            if b is not None and b.builder.append(
                value, key=key, timestamp=timestamp, headers=headers
            ):
                index = b.count
                b.count = index + 1
                return b, index, timestamp
            if count > 1:  # its batch is full or gone: on to another partition
                t.sticky = (t.sticky + random.randrange(1, count)) % count
                q = t.queues[t.sticky]
        b = q.open
        if b is None or not b.builder.append(value, key=key, timestamp=timestamp, headers=headers):
            b = self._new_batch(q, value, key, headers, timestamp)
        index = b.count
        b.count = index + 1
        return b, index, timestamp

    def _new_batch(self, q: PartitionQueue, value, key, headers, timestamp) -> ProducerBatch:
        old = q.open
        c = self.config
        room = c.buffer_bytes - self.buffered - self.reserved
        if old is not None:  # its reservation becomes its size below
            room += old.accounted - old.builder.size_in_bytes
        if self._placing:  # a held record: its room was taken when it was sent
            room = max(room, c.batch_size)
        if room <= 0:
            raise BufferFullError(
                f"the producer's buffer holds {c.buffer_bytes - room} bytes "
                f"(queue.buffering.max.kbytes {c.buffer_bytes // 1024})"
            )
        # an open batch reserves the room it may grow into, so that open batches keep to the
        # limit too (the first record of a batch always fits, as in every producer)
        builder = BatchBuilder(compression=c.compression, max_bytes=min(c.batch_size, room))
        builder.append(value, key=key, timestamp=timestamp, headers=headers)
        size = builder.size_in_bytes
        if size > c.message_max_bytes:
            raise RecordTooLargeError(
                f"a record of {size} bytes (as a batch) for {q.tp.topic}-{q.tp.partition} is "
                f"larger than message.max.bytes ({c.message_max_bytes}); it was not sent"
            )
        if old is not None:  # full: it goes as soon as the sender can take it
            self._close(q)  # (only now: a refused record changes nothing)
        now = time.monotonic()
        b = ProducerBatch(q.tp, builder, None, 0, now, now + c.delivery_timeout)
        b.accounted = max(min(c.batch_size, room), size)
        self.reserved += b.accounted
        q.batches.append(b)
        q.open = b
        # the sender sleeps past this batch's linger, or the old batch is ready now
        if self.sleeping_until > now + c.linger or (old is not None and self.sleeping_until):
            self.sleeping_until = 0.0
            self.wake()
        return b

    def append_built(self, tp: TopicPartition, data: bytes, count: int) -> ProducerBatch:
        """Queue a batch encoded by the caller (the columnar path): numbered when sent."""
        if self.fatal is not None:
            raise self.fatal
        if self._refused is not None and (refused := self.refusal()) is not None:
            raise refused
        if self.txn_state != NO_TRANSACTIONS and self.txn_state != IN_TRANSACTION:
            raise TransactionStateError(_not_in_transaction(self.txn_state))
        q = self.queues[tp]
        if q.open is not None:  # keep the partition's order: the open batch goes first
            self._close(q)
        now = time.monotonic()
        b = ProducerBatch(tp, None, data, count, now, now + self.config.delivery_timeout)
        b.accounted = len(data)
        self.buffered += b.accounted
        q.batches.append(b)
        if self.sleeping_until:
            self.sleeping_until = 0.0
            self.wake()
        return b

    def _close(self, q: PartitionQueue) -> None:
        """The partition's open batch takes no more records; its bytes count as buffered."""
        b, q.open = q.open, None
        self.reserved -= b.accounted
        b.accounted = b.builder.size_in_bytes
        self.buffered += b.accounted

    def has_space(self) -> bool:
        """Whether a new batch may start (what ``_new_batch`` asks)."""
        if self.fatal is not None:
            return True  # the next send raises it
        return self.buffered + self.reserved < self.config.buffer_bytes

    def partition_count(self, topic: str) -> int | None:
        t = self.topics.get(topic)
        return None if t is None else len(t.queues)

    def statistics(self) -> tuple[dict[str, Any], int, int]:
        """For stats_cb (``stats.py``): the topics object (each partition's queued and
        in-flight records, librdkafka's msgq_cnt, msgq_bytes, msgs_inflight), the records
        not yet finished (msg_cnt) and the buffer's bytes (msg_size)."""
        fields = {}
        for tp, q in self.queues.items():
            queued = [b for b in q.batches if b.state == QUEUED]
            fields[tp] = {
                "leader": leader_of(self.core, tp.topic, tp.partition),
                "msgq_cnt": sum(b.count for b in queued),
                "msgq_bytes": sum(b.size for b in queued),
                "msgs_inflight": sum(b.count for b in q.batches if b.state != QUEUED),
            }
        count = sum(b.count for b in self.unfinished() if b.state != DONE)  # held ones too
        return topics_object(fields), count, self.buffered + self.reserved

    def unfinished(self) -> list[ProducerBatch]:
        """Every batch not finished now (a flush waits for these)."""
        held = [h.stand_in for records in self._held.values() for h in records]
        return [b for q in self.queues.values() for b in q.batches] + list(self.sent) + held

    # ---- records held for their topic's metadata --------------------------------------------

    def _hold(self, topic: str, value, key, headers, partition, timestamp):
        """Keep a record for a topic whose partitions are unknown, in send order, and ask for
        them (once per topic) on the sender; the record's stand-in batch, as ``_append``."""
        if timestamp is None:
            timestamp = time.time_ns() // 1000000
        c = self.config
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
        if self.buffered + self.reserved + size > c.buffer_bytes and self.buffered:
            raise BufferFullError(
                f"the producer's buffer holds {self.buffered + self.reserved} bytes "
                f"(queue.buffering.max.kbytes {c.buffer_bytes // 1024})"
            )
        now = time.monotonic()
        stand_in = ProducerBatch(
            TopicPartition(topic, -1), None, None, 1, now, now + c.delivery_timeout
        )
        stand_in.accounted = size
        self.buffered += size
        held = self._held.get(topic)
        if held is None:
            held = self._held[topic] = []
            self.start_job(self.topic_flow(topic), partial(self._topic_known, topic))
        held.append(_Held(stand_in, value, key, headers, partition, timestamp))
        return stand_in, 0, timestamp

    def _topic_known(self, topic: str, _count, error: BaseException | None) -> None:
        """The topic's metadata came (``topic_flow`` registered its partitions) or cannot be
        had: the held records go to their partitions' batches, in send order, or fail."""
        for h in self._held.pop(topic, []):
            if h.stand_in.state == DONE:  # expired meanwhile
                continue
            self.buffered -= h.stand_in.accounted
            h.stand_in.accounted = 0
            if error is None:
                self._placing = True
                try:
                    b, index, _ = self._append(
                        topic, h.value, h.key, h.headers, h.partition, h.timestamp
                    )
                except (ClientError, BrokerError, TransactionStateError) as exc:
                    self._settle_stand_in(h.stand_in, error=exc)
                    continue
                finally:
                    self._placing = False
                h.stand_in.tp = b.tp
                if b.callbacks is None:
                    b.callbacks = []
                b.callbacks.append((_stand_in_done, (h.stand_in, index)))
            else:
                self._settle_stand_in(h.stand_in, error=error)
        self._notify()

    def _settle_stand_in(
        self, stand_in: ProducerBatch, base_offset=-1, log_append_time=-1, error=None
    ):
        self.buffered -= stand_in.accounted
        stand_in.accounted = 0
        self._callbacks.extend(stand_in.finish(base_offset, log_append_time, error))
        self._notify()

    def _fail_held(self, error: BaseException) -> None:
        for topic, records in self._held.items():
            for h in records:
                if h.stand_in.state != DONE:
                    self._settle_stand_in(h.stand_in, error=error)
            self._held[topic] = []  # the topic's job may still be under way: it finds none

    def _expire_held(self, now: float) -> None:
        for records in self._held.values():
            for h in records:
                if h.stand_in.deadline <= now and h.stand_in.state != DONE:
                    tp = h.stand_in.tp
                    self._settle_stand_in(
                        h.stand_in,
                        error=DeliveryTimeoutError(
                            f"a record for {tp.topic} was not acknowledged within "
                            f"delivery.timeout.ms ({self.config.delivery_timeout * 1000:g} ms): "
                            "the topic's partitions could not be had"
                            + ("" if self._last_failure is None else f" ({self._last_failure})")
                        ),
                    )

    def begin_flush(self) -> None:
        self.flushing += 1
        self.sleeping_until = 0.0
        self.wake()

    # ---- the sender ---------------------------------------------------------------------------

    def sender(self) -> Flow[None]:
        """The producer's one long flow: sends what is ready, handles the answers, steps the
        jobs; ends when the producer is closed and nothing is left."""
        tickets: dict = {}
        while True:
            with self.lock:
                now = time.monotonic()
                self._tick(now)
                starts, self._to_start = self._to_start, []
                self._wake_at = now + _IDLE_WAIT  # _drain brings it forward
                starts += self._drain(now)
                starts = self._unrefused(starts, now)
                # closed with nothing left to deliver: what the jobs still ask is moot
                finished = self.closing and self._drained()
                if finished:
                    self._end_jobs(ClientError("the producer is closed"))
                busy = starts or self._to_start
                timeout = 0.0 if busy else max(0.0, self._next_deadline(now) - now)
                self.sleeping_until = now + timeout if timeout > 0 else 0.0
            self.run_callbacks()
            if finished:
                return
            for call, handler in starts:
                tickets[(yield Start(call))] = handler
            done = yield Wait(list(tickets), timeout)
            with self.lock:
                self.sleeping_until = 0.0
                for ticket, outcome in done.items():
                    handler = tickets.pop(ticket)
                    if isinstance(outcome, REFUSALS):
                        self._refuse(outcome)
                    if isinstance(outcome, _CLIENT_ERRORS) and len(self.errors) < 100:
                        # for error_cb, from the caller's poll: a copy without the traceback,
                        # which would tie the sender's frames (and their buffers) to this core
                        self.errors.append(type(outcome)(str(outcome)))
                    handler(outcome)
            self.run_callbacks()

    # ---- refusals: a broker that will not take this client -----------------------------------

    def refusal(self, now: float | None = None) -> BaseException | None:
        """The refusal that still stands (see ``_refuse``), or None."""
        if self._refused is None:
            return None
        error, until = self._refused
        if (time.monotonic() if now is None else now) < until:
            return error
        self._refused = None
        self.update_fast()
        return None

    def _refuse(self, error: BaseException) -> None:
        """A broker refused the client (``REFUSALS``): the records waiting to be sent fail with
        ``error``, and so does every send and call for retry.backoff.max.ms, without connecting
        again: another broker of the cluster would check the same credentials and certificates,
        and a retry sooner would repeat the same handshake."""
        self._refused = (error, time.monotonic() + self.core.config.retry_backoff_max)
        self.update_fast()
        for q in self.queues.values():
            for b in [b for b in q.batches if b.state == QUEUED]:
                self._finish(b, error=error)

    def _unrefused(self, starts: list[tuple[Call, Callable]], now: float) -> list:
        """The calls that may go: none while a refusal stands (they fail with it here)."""
        refused = self.refusal(now)
        if refused is None:
            return starts
        for _, handler in starts:
            handler(refused)
        return []

    def _end_jobs(self, error: BaseException) -> None:
        jobs, self._jobs = self._jobs, set()
        self._to_start.clear()
        self._sleeping.clear()
        self._drain_waiters.clear()
        for job in jobs:
            job.flow.close()
            job.on_done(None, error)

    def _next_deadline(self, now: float) -> float:
        """When the sender must look again with no answer coming: a linger, a retry's backoff,
        a delivery timeout, a sleeping job, the metadata's age."""
        at = self._wake_at
        for q in self.queues.values():
            if q.batches:
                at = min(at, q.batches[0].deadline)
        for job in self._sleeping:
            at = min(at, job.wake_at)
        for records in self._held.values():
            if records:
                at = min(at, records[0].stand_in.deadline)
        if self.topics:
            at = min(at, self._metadata_at + self.core.config.metadata_max_age)
            if self._metadata_due:
                at = min(at, self._metadata_at + self.core.config.retry_backoff)
        return at

    def _tick(self, now: float) -> None:
        for job in [j for j in self._sleeping if j.wake_at <= now]:
            self._sleeping.remove(job)
            self._step(job, None)
        if self._drain_waiters and self._drained():
            waiters, self._drain_waiters = self._drain_waiters, []
            for job in waiters:
                self._step(job, None)
        self._expire(now)
        since = now - self._metadata_at
        # asked for again at most once per retry.backoff.ms: a cluster that cannot answer
        # (unreachable, refusing) is not asked in a loop
        due = self._metadata_due and since >= self.core.config.retry_backoff
        # metadata.max.age.ms: partitions added to a topic show up
        if self.topics and (due or since >= self.core.config.metadata_max_age):
            self._refresh_metadata()

    def _drained(self) -> bool:
        if any(self._held.values()):
            return False
        return not self.sent and not any(q.batches for q in self.queues.values())

    def run_callbacks(self) -> None:
        if not self._callbacks:
            return
        callbacks, self._callbacks = self._callbacks, []
        for fn, future in callbacks:
            try:
                fn(future)
            except Exception:  # a user's callback must not stop the sender
                import logging

                logging.getLogger("kafkawire.producer").exception("a delivery callback failed")

    # ---- jobs: flows stepped by the sender ----------------------------------------------------

    def start_job(self, flow: Flow, on_done: Callable[[Any, BaseException | None], None]) -> None:
        """Run ``flow`` on the sender (under the lock); ``on_done(result, error)`` at its end."""
        job = _Job(flow, on_done)
        self._jobs.add(job)
        self._step(job, None)
        self.sleeping_until = 0.0
        self.wake()

    def _step(self, job: _Job, outcome) -> None:
        if isinstance(outcome, ClientError):
            self._last_failure = str(outcome)  # what held records that expire were waiting on
        try:
            if isinstance(outcome, BaseException):
                effect = job.flow.throw(outcome)
            else:
                effect = job.flow.send(outcome)
        except StopIteration as stop:
            self._jobs.discard(job)
            job.on_done(stop.value, None)
            return
        except Exception as exc:
            self._jobs.discard(job)
            job.on_done(None, exc)
            return
        if isinstance(effect, Call):
            self._to_start.append((effect, partial(self._step, job)))
        elif isinstance(effect, Gather):
            results: list = [None] * len(effect.calls)
            left = [len(effect.calls)]

            def one(i, outcome):
                results[i] = outcome
                left[0] -= 1
                if left[0] == 0:
                    self._step(job, results)

            if not effect.calls:
                self._step(job, [])
            for i, call in enumerate(effect.calls):
                self._to_start.append((call, partial(one, i)))
        elif isinstance(effect, Sleep):
            job.wake_at = time.monotonic() + effect.seconds
            self._sleeping.append(job)
        elif isinstance(effect, _Drained):
            self._drain_waiters.append(job)
        else:
            self._step(job, TypeError(f"a producer job yielded {effect!r}"))

    # ---- metadata ---------------------------------------------------------------------------

    def topic_flow(self, topic: str) -> Flow[int]:
        """A job: the topic's partitions, waited for up to topic.metadata.propagation.max.ms
        (a topic just created may not be known to every broker yet)."""
        give_up = time.monotonic() + self.config.topic_metadata_wait
        backoff = self.core.config.retry_backoff
        while True:
            # a cluster that cannot be reached fails at once (after the metadata's own
            # retries): the wait below is for a topic the brokers do not know yet
            answer = yield from self.core.metadata([topic])
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
                    f"{self.config.topic_metadata_wait:g} s (topic.metadata.propagation.max.ms):"
                    " create it first, or let the broker create topics"
                )
            yield Sleep(backoff)
            backoff = min(backoff * 2, 1.0)

    def _known(self, info) -> None:
        t = self.topics.get(info.name)
        if t is None:
            t = self.topics[info.name] = Topic(info.name)
        while len(t.queues) < len(info.partitions):  # new partitions (never fewer)
            tp = TopicPartition(info.name, len(t.queues))
            q = self.queues[tp] = PartitionQueue(tp)
            t.queues.append(q)

    def _refresh_metadata(self) -> None:
        if self._metadata_job:
            return
        self._metadata_job = True
        self._metadata_due = False
        self._metadata_at = time.monotonic()

        def done(answer, error):
            self._metadata_job = False
            if error is None:
                for info in answer.topics.values():
                    if info.error_code == 0 and info.name in self.topics:
                        self._known(info)

        self.start_job(self.core.metadata_once(list(self.topics)), done)

    def _leader(self, tp: TopicPartition) -> int | None:
        cluster = self.core.cluster
        info = None if cluster is None else cluster.topics.get(tp.topic)
        part = None if info is None else info.partitions.get(tp.partition)
        if (
            part is None
            or part.leader < 0
            or part.error_code
            or part.leader not in self.core.brokers
        ):
            return None
        return part.leader

    # ---- draining: produce requests ----------------------------------------------------------

    @property
    def idempotent(self) -> bool:
        return self.config.enable_idempotence

    def _drain(self, now: float) -> list[tuple[Call, Callable]]:
        if not self._ready_to_send(now):
            return []
        c = self.config
        txn = self.txn_state != NO_TRANSACTIONS
        by_node: dict[int, list[tuple[PartitionQueue, ProducerBatch]]] = {}
        to_add = []
        for q in self.queues.values():
            if not q.batches:
                continue
            b = q.batches[0]
            if b.retry_at > now:
                self._wake_at = min(self._wake_at, b.retry_at)
                continue
            if q.retrying and q.in_flight:
                continue
            if b is q.open and not self.flushing and now < b.created + c.linger:
                self._wake_at = min(self._wake_at, b.created + c.linger)
                continue
            if self.idempotent and q.in_flight >= c.max_in_flight:
                continue
            leader = self._leader(q.tp)
            if leader is None:
                self._metadata_due = True
                continue
            if q.in_flight and q.sent_to != leader:
                # the leader moved: the requests to the old one answer first, else a batch
                # they bring back would be written after the ones sent since (out of order)
                continue
            if txn and q.tp not in self._txn_partitions:
                to_add.append(q.tp)
                continue
            if self._node_in_flight.get(leader, 0) >= c.max_in_flight:
                continue
            by_node.setdefault(leader, []).append((q, b))
        if to_add and not self._txn_adding:
            self._add_partitions(to_add)
        return [self._request(node, picks) for node, picks in by_node.items()]

    def _ready_to_send(self, now: float) -> bool:
        if self.fatal is not None:
            return False
        if self.refusal(now) is not None:
            return False
        if self.txn_error is not None and self.txn_state != NO_TRANSACTIONS:
            # part of the transaction failed: it can only be aborted, the rest need not go
            failed = TransactionStateError(
                f"an earlier part of the transaction failed ({self.txn_error}): abort it"
            )
            for q in self.queues.values():
                for b in [b for b in q.batches if b.state == QUEUED]:
                    self._finish(b, error=failed)
            return False
        if self.idempotent:
            if self._reset_identity and not self.sent and self.txn_state == NO_TRANSACTIONS:
                self._reset_identity = False
                self.identity = None
            if self.identity is None:
                # asked for once there is something to send (not by an idle producer)
                if (
                    self.txn_state == NO_TRANSACTIONS
                    and not self._identity_job
                    and any(q.batches for q in self.queues.values())
                ):
                    self._new_identity()
                return False
            if self._reset_identity:
                return False
        return True

    def _request(self, node: int, picks) -> tuple[Call, Callable]:
        c = self.config
        ident = self.identity
        txn = self.txn_state != NO_TRANSACTIONS
        topics: dict[str, list] = {}
        batches = []
        for q, b in picks:
            q.batches.popleft()
            if q.open is b:
                self._close(q)
            if ident is None:
                data = b.build(-1, -1, -1, False)
            else:
                if b.stamp is not ident:  # new, or numbered under an identity since replaced
                    b.stamp = ident
                    b.sequence = q.next_sequence
                    q.next_sequence = (q.next_sequence + b.count) & 0x7FFFFFFF
                data = b.build(ident.producer_id, ident.epoch, b.sequence, txn)
            q.in_flight += 1
            q.sent_to = node
            b.state = IN_FLIGHT
            b.attempts += 1
            self.sent.add(b)
            batches.append(b)
            topics.setdefault(q.tp.topic, []).append(
                m.ProduceRequest.PartitionProduceData(index=q.tp.partition, records=data)
            )
        request = m.ProduceRequest(
            transactional_id=c.transactional_id,
            acks=c.acks,
            timeout_ms=int(self.core.config.request_timeout * 1000),
            topic_data=[
                m.ProduceRequest.TopicProduceData(name=t, partition_data=ps)
                for t, ps in topics.items()
            ],
        )
        self._node_in_flight[node] = self._node_in_flight.get(node, 0) + 1
        call = self.core.call(node, request, extra_timeout=1.0)
        return call, partial(self._answered, node, batches)

    def _answered(self, node: int, batches: list[ProducerBatch], outcome) -> None:
        self._node_in_flight[node] -= 1
        for b in batches:
            self.sent.discard(b)
            self.queues[b.tp].in_flight -= 1
        if isinstance(outcome, BaseException):
            if isinstance(outcome, REFUSALS) or not isinstance(outcome, (ClientError, BrokerError)):
                # refused (see _refuse), or not the broker's doing (a bug, a bad answer): no retry
                for b in batches:
                    self._finish(b, error=outcome)
                return
            self._metadata_due = True
            for b in batches:
                self._retry(b, outcome)
            return
        if outcome is None:  # acks=0: no answer comes
            for b in batches:
                self._finish(b)
            return
        answers = {(t.name, p.index): p for t in outcome.responses for p in t.partition_responses}
        endpoints = {e.node_id: (e.host, e.port) for e in outcome.node_endpoints}
        host, port = self.core.brokers.get(node, ("broker", node))
        for b in batches:
            p = answers.get(b.tp)
            if p is None:
                self._retry(
                    b,
                    ClientError(
                        f"Produce answer from {host}:{port} lacks {b.tp.topic}-{b.tp.partition}"
                    ),
                )
            else:
                self._partition_answer(b, p, endpoints, f"{host}:{port}")

    def _partition_answer(self, b: ProducerBatch, p, endpoints: dict, address: str) -> None:
        q = self.queues[b.tp]
        code = p.error_code
        where = f"{b.tp.topic}-{b.tp.partition} at {address}"
        if code == 0:
            if b.sequence >= 0:
                q.acked = (b.sequence + b.count) & 0x7FFFFFFF
            self._caught_up(q)
            self._finish(b, p.base_offset, p.log_append_time_ms)
        elif code == ErrorCode.DUPLICATE_SEQUENCE_NUMBER and b.sequence >= 0:
            # an earlier try of this batch was written, its answer lost: the offset is unknown
            q.acked = (b.sequence + b.count) & 0x7FFFFFFF
            self._caught_up(q)
            self._finish(b)
        elif code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER and b.sequence != q.acked:
            self._retry(b, OutOfOrderSequenceNumberError(where))  # an earlier batch came back
        elif code in (ErrorCode.INVALID_PRODUCER_EPOCH, ErrorCode.PRODUCER_FENCED):
            self.fail_all(fenced(f"Produce to {where}", self.config.transactional_id))
            self._finish(b, error=self.fatal)
        elif code == ErrorCode.UNKNOWN_PRODUCER_ID and self.txn_state == NO_TRANSACTIONS:
            # the broker forgot this producer (its records were deleted): a new id, same records
            self._reset_identity = True
            self._retry(b, error_class(code)(where))
        else:
            detail = p.error_message or "; ".join(
                f"record {e.batch_index}: {e.batch_index_error_message}" for e in p.record_errors
            )
            error = error_class(code)(f"{where}: {detail}" if detail else where)
            if error.retriable:
                # KIP-951: the leader the answer names, metadata only where it names none
                tp = b.tp
                if (
                    code in _REFRESH_ON
                    and self.core.take_leader(tp.topic, tp.partition, p.current_leader, endpoints)
                    is None
                ):
                    self._metadata_due = True
                self._retry(b, error)
            else:
                self._finish(b, error=error)

    @staticmethod
    def _caught_up(q: PartitionQueue) -> None:
        """A batch of ``q`` was acknowledged. After a batch came back, the partition sends one
        request at a time until every batch that came back is acknowledged: a retry that fails
        again must not have later batches behind it (the broker refuses them, out of sequence,
        or, one that checks no sequence numbers, writes them first)."""
        if q.retrying and not any(x.sequence >= 0 for x in q.batches):
            q.retrying = False

    def _retry(self, b: ProducerBatch, error: BaseException) -> None:
        now = time.monotonic()
        c = self.config
        b.last_error = error
        if self.fatal is not None:
            self._finish(b, error=self.fatal)
        elif now >= b.deadline:
            self._finish(b, error=self._timed_out(b))
        elif b.attempts > c.retries:
            self._finish(b, error=error)
        else:
            backoff = self.core.config.retry_backoff * 2 ** min(b.attempts - 1, 10)
            b.retry_at = now + min(backoff, self.core.config.retry_backoff_max)
            self.queues[b.tp].requeue(b)

    def _timed_out(self, b: ProducerBatch) -> DeliveryTimeoutError:
        last = f"; last error: {b.last_error}" if b.last_error is not None else ""
        return DeliveryTimeoutError(
            f"{b.count} records for {b.tp.topic}-{b.tp.partition} not acknowledged within "
            f"delivery.timeout.ms ({self.config.delivery_timeout * 1000:g} ms){last}"
        )

    def _expire(self, now: float) -> None:
        if self._held:
            self._expire_held(now)
        for q in self.queues.values():
            while q.batches and q.batches[0].deadline <= now and q.batches[0].state == QUEUED:
                b = q.batches.popleft()
                if q.open is b:
                    self._close(q)
                self._finish(b, error=self._timed_out(b))

    def _finish(self, b: ProducerBatch, base_offset=-1, log_append_time=-1, error=None) -> None:
        if b.state == DONE:
            return
        q = self.queues[b.tp]
        if b.state == QUEUED:
            if q.open is b:
                self._close(q)
            if b in q.batches:
                q.batches.remove(b)
        self.sent.discard(b)
        self.buffered -= b.accounted
        if error is not None and b.sequence >= 0 and self.idempotent:
            # sent, fate unknown: the partition's sequence numbers have a gap now, which only
            # a new producer id (or epoch) closes
            self._reset_identity = True
        if error is not None and self.txn_state != NO_TRANSACTIONS and self.txn_error is None:
            self.txn_error = error
        for fn, future in b.finish(base_offset, log_append_time, error):
            if fn is _stand_in_done:  # a held record placed in ``b``: its outcome is its own
                stand_in, index = future
                offset = -1 if base_offset < 0 else base_offset + index
                self._callbacks.extend(stand_in.finish(offset, log_append_time, error))
            else:
                self._callbacks.append((fn, future))
        self._notify()

    def fail_all(self, error: BaseException, *, stopped: bool = False) -> None:
        """A fatal error (fenced): every record not acknowledged fails with it. ``stopped``:
        the sender is gone, so the batches in flight and the jobs fail too (nothing else would
        end them)."""
        self.fatal = error
        if self.txn_state != NO_TRANSACTIONS:
            self.txn_state = FATAL
        for q in self.queues.values():
            for b in list(q.batches):
                self._finish(b, error=error)
        self._fail_held(error)
        if stopped:
            for b in list(self.sent):
                self._finish(b, error=error)
            jobs, self._jobs = self._jobs, set()
            for job in jobs:
                job.on_done(None, error)
        self._notify()

    # ---- producer ids -------------------------------------------------------------------------

    def _new_identity(self) -> None:
        self._identity_job = True

        def done(ident, error):
            self._identity_job = False
            if error is None:
                self._set_identity(ProducerIdentity(*ident))
            else:  # the queued records cannot go without an id
                for q in self.queues.values():
                    for b in list(q.batches):
                        self._finish(b, error=error)

        self.start_job(produce_flows.init_producer_id(self.core), done)

    def _set_identity(self, ident: ProducerIdentity) -> None:
        self.identity = ident
        self._reset_identity = False
        for q in self.queues.values():
            q.next_sequence = q.acked = 0

    # ---- transactions (jobs the faces start) --------------------------------------------------

    def _transactional(self) -> TransactionCoordinator:
        if self._txn is None:
            raise TransactionStateError("transactions need a transactional.id")
        if self.fatal is not None:
            raise self.fatal
        return self._txn

    def init_transactions(self) -> Flow[None]:
        coordinator = self._transactional()
        if self.txn_state not in (UNINITIALIZED, READY):
            raise TransactionStateError("init_transactions: a transaction is under way")
        ident = yield from coordinator.init_producer_id(self.config.transaction_timeout_ms)
        self._set_identity(ident)
        self.txn_state = READY

    def begin_transaction(self) -> None:
        self._transactional()
        if self.txn_state == UNINITIALIZED:
            raise TransactionStateError("begin_transaction: call init_transactions first")
        if self.txn_state != READY:
            raise TransactionStateError("begin_transaction: a transaction is under way already")
        self.txn_state = IN_TRANSACTION
        self._txn_partitions = set()
        self._txn_offsets = False
        self.txn_error = None

    def _add_partitions(self, tps: list[TopicPartition]) -> None:
        self._txn_adding = True

        def done(_, error):
            self._txn_adding = False
            if error is None:
                self._txn_partitions.update(tps)
                return
            if isinstance(error, ProducerFencedError):
                self.fail_all(error)
                return
            retriable = isinstance(error, (ClientError, BrokerError)) and getattr(
                error, "retriable", isinstance(error, ClientError)
            )
            if not retriable:  # the records of these partitions cannot be in the transaction
                for tp in tps:
                    for b in list(self.queues[tp].batches):
                        self._finish(b, error=error)

        flow = self._txn.add_partitions(self.identity, tps)
        self.start_job(flow, done)

    def send_offsets(
        self,
        offsets: Mapping[TopicPartition, Any],
        group: ConsumerGroupMetadata,
    ) -> Flow[None]:
        coordinator = self._transactional()
        if self.txn_state != IN_TRANSACTION:
            raise TransactionStateError(_not_in_transaction(self.txn_state))
        chosen = {
            TopicPartition(*tp): o if isinstance(o, OffsetAndMetadata) else OffsetAndMetadata(o)
            for tp, o in offsets.items()
        }
        if isinstance(group, str):
            group = ConsumerGroupMetadata(group)
        try:
            yield from coordinator.add_offsets(self.identity, group.group_id)
            self._txn_offsets = True
            yield from GroupCoordinator(self.core, group.group_id).txn_offset_commit(
                coordinator.key, self.identity, group, chosen
            )
        except ProducerFencedError as exc:
            self.fail_all(exc)
            raise
        except Exception as exc:
            self.txn_error = self.txn_error or exc
            raise

    def commit_transaction(self) -> Flow[None]:
        coordinator = self._transactional()
        if self.txn_state != IN_TRANSACTION:
            raise TransactionStateError(_not_in_transaction(self.txn_state))
        if self.txn_error is not None:
            raise TransactionStateError(
                f"commit_transaction: part of the transaction failed ({self.txn_error}); "
                "abort_transaction, then try again"
            )
        self.txn_state = COMMITTING
        self.flushing += 1
        try:
            yield _Drained()
        finally:
            self.flushing -= 1
        if self.fatal is not None:
            raise self.fatal
        if self.txn_error is not None:
            self.txn_state = IN_TRANSACTION
            raise TransactionStateError(
                f"commit_transaction: part of the transaction failed ({self.txn_error}); "
                "abort_transaction, then try again"
            )
        try:
            if self._txn_partitions or self._txn_offsets:
                yield from coordinator.end(self.identity, True)
        except ProducerFencedError as exc:
            self.fail_all(exc)
            raise
        except Exception:
            self.txn_state = IN_TRANSACTION  # the commit may be tried again, or aborted
            raise
        self.txn_state = READY

    def abort_transaction(self) -> Flow[None]:
        coordinator = self._transactional()
        if self.txn_state not in (IN_TRANSACTION, ABORTING):
            raise TransactionStateError(_not_in_transaction(self.txn_state))
        self.txn_state = ABORTING
        aborted = TransactionStateError("the transaction was aborted before these records went")
        for q in self.queues.values():  # what is not in flight is dropped
            for b in [b for b in q.batches if b.state == QUEUED]:
                self._finish(b, error=aborted)
        self._fail_held(aborted)
        self.flushing += 1
        try:
            yield _Drained()
        finally:
            self.flushing -= 1
        if self.fatal is not None:
            raise self.fatal
        try:
            if self._txn_partitions or self._txn_offsets:
                yield from coordinator.end(self.identity, False)
            if self._reset_identity:  # a batch failed after it was sent: a new epoch
                ident = yield from coordinator.init_producer_id(
                    self.config.transaction_timeout_ms, self.identity
                )
                self._set_identity(ident)
        except ProducerFencedError as exc:
            self.fail_all(exc)
            raise
        self.txn_state = READY


def _not_in_transaction(state: int) -> str:
    if state == UNINITIALIZED:
        return "call init_transactions, then begin_transaction, before sending"
    if state == READY:
        return "no transaction: call begin_transaction first"
    if state in (COMMITTING, ABORTING):
        return "the transaction is ending: wait for commit/abort to return"
    if state == FATAL:
        return "the producer was fenced: close it"
    return "no transaction under way"
