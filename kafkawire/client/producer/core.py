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

Beside this module: ``jobs.py`` steps the jobs, ``metadata.py`` keeps the topics' partitions
and leaders, ``held.py`` the records sent before their topic's partitions were known, and
``transaction_state.py`` the transactional state machine and its jobs.

Ordering under retries: a batch that comes back is put back by its sequence number, and the
partition sends nothing more until its requests in flight have all answered; then the batches
go again in order. With idempotence the broker drops the copies of batches it already has
(DUPLICATE_SEQUENCE_NUMBER, or the original answer).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    BrokerError,
    ErrorCode,
    OutOfOrderSequenceNumberError,
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
from ..flow import Call, Flow, Start, Wait
from ..randomness import RANDOM
from ..stats import leader_of, topics_object
from ..types import TopicPartition
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
from .held import HeldRecords, stand_in_done
from .jobs import Jobs
from .metadata import TopicMetadata
from .transaction_state import (
    FATAL,
    IN_TRANSACTION,
    NO_TRANSACTIONS,
    TransactionState,
    not_in_transaction,
)
from .transactions import ProducerIdentity, fenced

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


class ProducerCore:
    """One producer's state: its topics' partition queues and their batches, the buffer's
    bytes, the producer id, and the sender flow that sends the batches and handles the answers.
    Its collaborators: ``jobs`` (the flows the sender steps), ``metadata`` (the topics'
    partitions and leaders), ``held`` (records waiting for their topic's metadata),
    ``transaction`` (the transactional state and its jobs)."""

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
        self.notify = notify  # under the lock: a batch finished (blocked callers re-check)
        self.wake = wake  # the sender should look again now (from any thread)
        self.topics: dict[str, Topic] = {}
        self.fast = True  # send may take append_fast (see update_fast)
        self.accepting = True  # False once the producer is closing
        self.queues: dict[TopicPartition, PartitionQueue] = {}
        self.sent: set[ProducerBatch] = set()
        # batches numbered into a request under the lock, built by the sender after it: (the
        # batch, its producer fields, the request's part their bytes go in)
        self._unbuilt: list[tuple[ProducerBatch, tuple, Any]] = []
        self.buffered = 0  # bytes of closed batches not finished
        self.reserved = 0  # bytes the open batches may still grow to
        self.flushing = 0
        self.closing = False
        self.sleeping_until = 0.0  # the sender is in a Wait until then (0: awake)
        self._wake_at = 0.0  # the next linger or retry backoff to end
        self._node_in_flight: dict[int, int] = {}
        self.callbacks: list = []  # (fn, future) of finished records, run outside the lock
        self.errors: list[BaseException] = []  # connections lost or refused, for error_cb
        self.jobs = Jobs()
        self.metadata = TopicMetadata(self)
        self.held = HeldRecords(self)
        self._identity_job = False
        self.reset_identity = False  # the producer id must change before more batches go
        self._refused: tuple[BaseException, float] | None = None  # a refusal, standing until
        self.identity: ProducerIdentity | None = None
        self._fatal: BaseException | None = None
        self.transaction = TransactionState(self)
        self.update_fast()

    # ---- appending (callers, under the lock) ------------------------------------------------

    def send(self, topic: str, value, key, headers, partition, timestamp, signal):
        """Put one record in its partition's open batch; its future (``record_future``:
        ``signal`` is the blocking face's Condition, None for an awaitable).

        A record for a topic whose partitions are not known yet is held (``held.py``): send
        never waits on the network.

        :raises BufferFullError: no room: the caller waits for some, then sends again."""
        if partition is None and self.fast:
            future = append_fast(self.topics, topic, value, key, headers, timestamp, signal)
            if future is not None:
                return future
        return record_future(*self.append(topic, value, key, headers, partition, timestamp), signal)

    @property
    def fatal(self) -> BaseException | None:
        """The error that ended the producer (fenced), raised by every call after it."""
        return self._fatal

    @fatal.setter
    def fatal(self, error: BaseException | None) -> None:
        self._fatal = error
        self.update_fast()

    def update_fast(self) -> None:
        """Whether ``append_fast`` (murmur2 keys, sticky keyless) may place records."""
        self.fast = (
            self.accepting
            and self.fatal is None
            and self._refused is None
            and self.transaction.state in (NO_TRANSACTIONS, IN_TRANSACTION)
            and self._hash is murmur2
            and self._keyless == "sticky"
        )

    def append(self, topic: str, value, key, headers, partition, timestamp):
        """``send``'s whole path: the record in its partition's batch, or held; (the batch,
        the record's index in it, its timestamp)."""
        if self.fatal is not None:
            raise self.fatal
        if self._refused is not None and (refused := self.refusal()) is not None:
            raise refused
        placing = self.held.placing  # a held record was in its transaction when it was sent
        state = self.transaction.state
        if state != NO_TRANSACTIONS and state != IN_TRANSACTION and not placing:
            raise TransactionStateError(not_in_transaction(state))
        t = self.topics.get(topic)
        if t is None:
            return self.held.hold(topic, value, key, headers, partition, timestamp)
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
            q = t.queues[RANDOM.randrange(count)]
        else:
            if t.sticky < 0:
                t.sticky = RANDOM.randrange(count)
            q = t.queues[t.sticky]
            b = q.open
            if b is not None and b.builder.append(
                value, key=key, timestamp=timestamp, headers=headers
            ):
                index = b.count
                b.count = index + 1
                return b, index, timestamp
            if count > 1:  # its batch is full or gone: on to another partition
                t.sticky = (t.sticky + RANDOM.randrange(1, count)) % count
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
        if self.held.placing:  # a held record: its room was taken when it was sent
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
        state = self.transaction.state
        if state != NO_TRANSACTIONS and state != IN_TRANSACTION:
            raise TransactionStateError(not_in_transaction(state))
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
        held = self.held.stand_ins()
        return [b for q in self.queues.values() for b in q.batches] + list(self.sent) + held

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
                starts = self.jobs.take_calls()
                self._wake_at = now + _IDLE_WAIT  # _drain brings it forward
                starts += self._drain(now)
                starts = self._unrefused(starts, now)
                unbuilt = [u for u in self._unbuilt if u[0].state == IN_FLIGHT]
                self._unbuilt = []
                # closed with nothing left to deliver: what the jobs still ask is moot
                finished = self.closing and self._drained()
                if finished:
                    self.jobs.end(ClientError("the producer is closed"))
                busy = starts or self.jobs.has_calls()
                timeout = 0.0 if busy else max(0.0, self._next_deadline(now) - now)
                self.sleeping_until = now + timeout if timeout > 0 else 0.0
            # The new batches' bytes (compressed, the slow part) made outside the lock that
            # every send takes: the callers' sends go on meanwhile. Only this thread touches a
            # batch in flight.
            for b, fields, part in unbuilt:
                part.records = b.build(*fields)
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
                self.finish(b, error=error)

    def _unrefused(self, starts: list[tuple[Call, Callable]], now: float) -> list:
        """The calls that may go: none while a refusal stands (they fail with it here)."""
        refused = self.refusal(now)
        if refused is None:
            return starts
        for _, handler in starts:
            handler(refused)
        return []

    def _next_deadline(self, now: float) -> float:
        """When the sender must look again with no answer coming: a linger, a retry's backoff,
        a delivery timeout, a sleeping job, the metadata's age."""
        at = self._wake_at
        for q in self.queues.values():
            if q.batches:
                at = min(at, q.batches[0].deadline)
        at = self.jobs.next_wake(at)
        at = self.held.next_deadline(at)
        return self.metadata.next_deadline(at)

    def _tick(self, now: float) -> None:
        self.jobs.tick(now, self._drained)
        self._expire(now)
        self.metadata.tick(now)

    def _drained(self) -> bool:
        if self.held.waiting():
            return False
        return not self.sent and not any(q.batches for q in self.queues.values())

    def start_job(self, flow: Flow, on_done: Callable[[Any, BaseException | None], None]) -> None:
        """Run ``flow`` on the sender (under the lock); ``on_done(result, error)`` at its end."""
        self.jobs.start(flow, on_done)
        self.sleeping_until = 0.0
        self.wake()

    def run_callbacks(self) -> None:
        if not self.callbacks:
            return
        callbacks, self.callbacks = self.callbacks, []
        for fn, future in callbacks:
            try:
                fn(future)
            except Exception:  # a user's callback must not stop the sender
                import logging

                logging.getLogger("kafkawire.producer").exception("a delivery callback failed")

    # ---- draining: produce requests ----------------------------------------------------------

    @property
    def idempotent(self) -> bool:
        return self.config.enable_idempotence

    def _drain(self, now: float) -> list[tuple[Call, Callable]]:
        if not self._ready_to_send(now):
            return []
        c = self.config
        txn = self.transaction.state != NO_TRANSACTIONS
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
            leader = self.metadata.leader(q.tp)
            if leader is None:
                self.metadata.due = True
                continue
            if q.in_flight and q.sent_to != leader:
                # the leader moved: the requests to the old one answer first, else a batch
                # they bring back would be written after the ones sent since (out of order)
                continue
            if txn and q.tp not in self.transaction.partitions:
                to_add.append(q.tp)
                continue
            if self._node_in_flight.get(leader, 0) >= c.max_in_flight:
                continue
            by_node.setdefault(leader, []).append((q, b))
        if to_add and not self.transaction.adding:
            self.transaction.add_partitions(to_add)
        return [self._request(node, picks) for node, picks in by_node.items()]

    def _ready_to_send(self, now: float) -> bool:
        if self.fatal is not None:
            return False
        if self.refusal(now) is not None:
            return False
        txn = self.transaction
        if txn.error is not None and txn.state != NO_TRANSACTIONS:
            # part of the transaction failed: it can only be aborted, the rest need not go
            failed = TransactionStateError(
                f"an earlier part of the transaction failed ({txn.error}): abort it"
            )
            for q in self.queues.values():
                for b in [b for b in q.batches if b.state == QUEUED]:
                    self.finish(b, error=failed)
            return False
        if self.idempotent:
            if self.reset_identity and not self.sent and txn.state == NO_TRANSACTIONS:
                self.reset_identity = False
                self.identity = None
            if self.identity is None:
                # asked for once there is something to send (not by an idle producer)
                if (
                    txn.state == NO_TRANSACTIONS
                    and not self._identity_job
                    and any(q.batches for q in self.queues.values())
                ):
                    self._new_identity()
                return False
            if self.reset_identity:
                return False
        return True

    def _request(self, node: int, picks) -> tuple[Call, Callable]:
        c = self.config
        ident = self.identity
        txn = self.transaction.state != NO_TRANSACTIONS
        topics: dict[str, list] = {}
        batches = []
        for q, b in picks:
            q.batches.popleft()
            if q.open is b:
                self._close(q)
            if ident is None:
                fields = (-1, -1, -1, False)
            else:
                if b.stamp is not ident:  # new, or numbered under an identity since replaced
                    b.stamp = ident
                    b.sequence = q.next_sequence
                    q.next_sequence = (q.next_sequence + b.count) & 0x7FFFFFFF
                fields = (ident.producer_id, ident.epoch, b.sequence, txn)
            q.in_flight += 1
            q.sent_to = node
            b.state = IN_FLIGHT
            b.attempts += 1
            self.sent.add(b)
            batches.append(b)
            part = m.ProduceRequest.PartitionProduceData(index=q.tp.partition, records=None)
            self._unbuilt.append((b, fields, part))
            topics.setdefault(q.tp.topic, []).append(part)
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
                    self.finish(b, error=outcome)
                return
            self.metadata.due = True
            for b in batches:
                self._retry(b, outcome)
            return
        if outcome is None:  # acks=0: no answer comes
            for b in batches:
                self.finish(b)
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
            self.finish(b, p.base_offset, p.log_append_time_ms)
        elif code == ErrorCode.DUPLICATE_SEQUENCE_NUMBER and b.sequence >= 0:
            # an earlier try of this batch was written, its answer lost: the offset is unknown
            q.acked = (b.sequence + b.count) & 0x7FFFFFFF
            self._caught_up(q)
            self.finish(b)
        elif code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER and b.sequence != q.acked:
            self._retry(b, OutOfOrderSequenceNumberError(where))  # an earlier batch came back
        elif code in (ErrorCode.INVALID_PRODUCER_EPOCH, ErrorCode.PRODUCER_FENCED):
            self.fail_all(fenced(f"Produce to {where}", self.config.transactional_id))
            self.finish(b, error=self.fatal)
        elif code == ErrorCode.UNKNOWN_PRODUCER_ID and self.transaction.state == NO_TRANSACTIONS:
            # the broker forgot this producer (its records were deleted): a new id, same records
            self.reset_identity = True
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
                    self.metadata.due = True
                self._retry(b, error)
            else:
                self.finish(b, error=error)

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
            self.finish(b, error=self.fatal)
        elif now >= b.deadline:
            self.finish(b, error=self._timed_out(b))
        elif b.attempts > c.retries:
            self.finish(b, error=error)
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
        self.held.expire(now)
        for q in self.queues.values():
            while q.batches and q.batches[0].deadline <= now and q.batches[0].state == QUEUED:
                b = q.batches.popleft()
                if q.open is b:
                    self._close(q)
                self.finish(b, error=self._timed_out(b))

    def finish(self, b: ProducerBatch, base_offset=-1, log_append_time=-1, error=None) -> None:
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
            self.reset_identity = True
        txn = self.transaction
        if error is not None and txn.state != NO_TRANSACTIONS and txn.error is None:
            txn.error = error
        for fn, future in b.finish(base_offset, log_append_time, error):
            if fn is stand_in_done:  # a held record placed in ``b``: its outcome is its own
                stand_in, index = future
                offset = -1 if base_offset < 0 else base_offset + index
                self.callbacks.extend(stand_in.finish(offset, log_append_time, error))
            else:
                self.callbacks.append((fn, future))
        self.notify()

    def fail_all(self, error: BaseException, *, stopped: bool = False) -> None:
        """A fatal error (fenced): every record not acknowledged fails with it. ``stopped``:
        the sender is gone, so the batches in flight and the jobs fail too (nothing else would
        end them)."""
        self.fatal = error
        if self.transaction.state != NO_TRANSACTIONS:
            self.transaction.state = FATAL
        for q in self.queues.values():
            for b in list(q.batches):
                self.finish(b, error=error)
        self.held.fail(error)
        if stopped:
            for b in list(self.sent):
                self.finish(b, error=error)
            self.jobs.fail(error)
        self.notify()

    # ---- producer ids -------------------------------------------------------------------------

    def _new_identity(self) -> None:
        self._identity_job = True

        def done(ident, error):
            self._identity_job = False
            if error is None:
                self.set_identity(ProducerIdentity(*ident))
            else:  # the queued records cannot go without an id
                for q in self.queues.values():
                    for b in list(q.batches):
                        self.finish(b, error=error)

        self.start_job(produce_flows.init_producer_id(self.core), done)

    def set_identity(self, ident: ProducerIdentity) -> None:
        self.identity = ident
        self.reset_identity = False
        for q in self.queues.values():
            q.next_sequence = q.acked = 0
