"""The producer's two faces: ``Producer`` (blocking, ``kafkawire.Producer``) and
``AsyncProducer`` (asyncio, ``kafkawire.aio.Producer``).

Both drive the sans-IO ``ProducerCore``: callers append records to it, and its sender flow
runs beside them, on a thread with the producer's transport (blocking face; callbacks run
there, as Java's do) or as a task on the caller's event loop (asyncio face). What the
producer asks of the cluster besides Produce (metadata, producer ids, the transaction
coordinator) goes through the sender as jobs, so each face only waits for their outcome.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..aio_transport import AsyncTransport
from ..core import ClientCore
from ..errors import BufferFullError, ClientError, RequestTimeoutError
from ..flow import Flow, within
from ..sync_transport import SyncTransport
from ..types import TopicPartition
from ._accumulate import (
    DONE,
    AsyncFastSend,
    AsyncRecordFuture,
    FastSend,
    ProducerBatch,
    RecordFuture,
)
from .columns import (
    arrow_columns,
    batch_columns,
    bytes_field,
    encode_rows,
    encode_rows_async,
    header_pairs,
    timestamp_ms,
)
from .config import producer_config
from .core import ProducerCore
from .reports import Reports
from .transactions import ConsumerGroupMetadata


class BatchMetadata(NamedTuple):
    """Where ``send_batch`` put each row: its partition and offset (-1 when unknown)."""

    topic: str
    partitions: np.ndarray  # int32
    offsets: np.ndarray  # int64


class QueueFullError(BufferFullError, BufferError):
    """``produce`` found the buffer full for max.block.ms: a BufferError, as confluent-kafka's
    (its users ``poll`` and produce again), and kafkawire's BufferFullError."""


class _Columns:
    """One send_batch call, split by partition and encoded (by the caller's thread)."""

    def __init__(self, topic: str, partitions: np.ndarray) -> None:
        self.topic = topic
        self.partitions = partitions
        self.parts: list[tuple[ProducerBatch, np.ndarray]] = []

    def metadata(self) -> BatchMetadata:
        offsets = np.full(len(self.partitions), -1, np.int64)
        for batch, rows in self.parts:
            if batch.error is not None:
                raise batch.error
            if batch.base_offset >= 0:
                offsets[rows] = batch.base_offset + np.arange(len(rows))
        return BatchMetadata(self.topic, self.partitions, offsets)


class _ProducerMethods:
    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> None:
        client, self._config = producer_config(bootstrap_servers, config, **settings)
        self._core = ClientCore(client)
        self._closed = False
        # produce()'s delivery callback when it names none (kafkawire.confluent sets it too);
        # each face has its Reports, which run the callbacks on the caller's thread
        self._on_delivery: Callable | None = self._config.on_delivery
        self._reports: Reports

    def _produced(self, topic, value, key, partition, timestamp, on_delivery, callback):
        """produce()'s arguments in send's terms: (value, key, partition, timestamp, the
        delivery callback or None)."""
        report = on_delivery or callback or self._on_delivery
        if report is not None and not callable(report):
            raise TypeError(f"on_delivery is {report!r}, not a callable (err, msg)")
        if partition is not None and (type(partition) is bool or not isinstance(partition, int)):
            raise TypeError("partition must be an int (negative: the partitioner's choice)")
        if partition is not None and partition < 0:
            partition = None
        if type(timestamp) is int and timestamp == 0:  # confluent-kafka's 0: now
            timestamp = None
        value, key = bytes_field("value", value), bytes_field("key", key)
        return value, key, partition, timestamp_ms(timestamp), report

    def _check_open(self) -> None:
        if self._closed:
            raise ClientError("the producer is closed")

    def _queued_records(self) -> int:
        """Records queued or in flight, and delivery reports not run yet (len())."""
        records = sum(b.count for b in self._producer.unfinished() if b.state != DONE)
        return max(records, self._reports.unreported) + len(self._reports.queue)

    def __repr__(self) -> str:
        servers = ",".join(f"{h}:{p}" for h, p in self._core.config.bootstrap_servers)
        txn = self._config.transactional_id
        return f"<{type(self).__qualname__} {servers}{'' if txn is None else f' txn={txn!r}'}>"


class Producer(_ProducerMethods):
    """A blocking Kafka producer: ``send`` returns at once with a RecordFuture; a sender
    thread batches, sends and retries.

    :param bootstrap_servers: "host:port,..." or a list.
    :param config: Kafka properties, librdkafka's or Java's names: acks, linger.ms,
        batch.size, compression.type, enable.idempotence (on by default), partitioner,
        delivery.timeout.ms, transactional.id, the security settings, ...
        (``docs/producer.md``).

    Thread-safe: any thread may send. Delivery callbacks run on the sender thread.
    """

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._lock = threading.Lock()
        self._signal = threading.Condition(self._lock)
        self._transport = SyncTransport(self._core)
        self._producer = ProducerCore(
            self._core,
            self._config,
            lock=self._signal,
            notify=self._signal.notify_all,
            wake=self._transport.wake,
        )
        self._sender_error: BaseException | None = None
        reported = threading.Condition(threading.Lock())  # guards produce()'s reports
        self._reports = Reports(
            self._core, self._config, self._producer, reported, reported.notify_all
        )
        # the common case of send, compiled; it calls the method below for the rest
        whole_path = type(self).send.__get__(self)
        self.send = FastSend(self._lock, self._producer, self._signal, whole_path).send
        self._thread = threading.Thread(target=self._send_loop, name="kafkawire-producer")
        self._thread.daemon = True
        self._thread.start()

    def _send_loop(self) -> None:
        try:
            self._transport.run(self._producer.sender())
        except BaseException as exc:  # a bug: nothing can be delivered any more
            self._sender_error = exc
            with self._signal:
                self._producer.fail_all(
                    ClientError(f"the producer's sender stopped: {exc!r}"), stopped=True
                )
            self._producer.run_callbacks()
        finally:
            self._transport.close()

    def send(
        self,
        topic: str,
        value=None,
        *,
        key=None,
        headers=None,
        partition: int | None = None,
        timestamp: int | float | datetime.datetime | None = None,
    ) -> RecordFuture:
        """Queue one record; its future gives the RecordMetadata once the broker has it.

        ``value``/``key``: bytes-like, str (UTF-8) or None. ``headers``: (str, bytes) pairs
        or a mapping. ``partition``: None for the partitioner's choice (murmur2 of the key,
        as Java's producer). ``timestamp``: ms since the epoch (int), seconds since the
        epoch (float, as ``time.time()``), a ``datetime.datetime`` (naive: local time, as
        its ``.timestamp()``), or None for now; never negative.

        :raises RecordTooLargeError: larger than message.max.bytes (nothing else lost).
        :raises RecordTypeError: (a TypeError) a value, key or timestamp of another kind.
        :raises BufferFullError: the buffer stayed full for max.block.ms.
        :raises UnknownTopicOrPartitionError: no such partition of a topic whose partitions
            are known. Nothing else waits on the network: a record for a topic not known yet
            is held until its partitions are, and its future fails if they cannot be had (no
            such topic after topic.metadata.propagation.max.ms, no broker reachable).
        """
        if topic not in self._producer.topics:
            # held: the sender is asking for the topic's partitions; the GIL goes to it now
            # rather than after the switch interval (5 ms), for each step of its handshake,
            # while a loop of sends would hold every record until the answer is in
            time.sleep(0)
        value = bytes_field("value", value)
        key = bytes_field("key", key)
        timestamp = timestamp_ms(timestamp)
        headers = header_pairs(headers) if headers else ()
        deadline = None
        with self._signal:
            while True:
                self._check_open()
                try:
                    return self._producer.send(
                        topic, value, key, headers, partition, timestamp, self._signal
                    )
                except BufferFullError:
                    deadline = deadline or time.monotonic() + self._config.max_block
                    left = deadline - time.monotonic()
                    if left <= 0 or not self._signal.wait_for(self._producer.has_space, left):
                        raise

    def produce(
        self,
        topic: str,
        value=None,
        key=None,
        partition: int = -1,
        on_delivery: Callable | None = None,
        callback: Callable | None = None,
        timestamp: Any = 0,
        headers=None,
    ) -> None:
        """confluent-kafka's ``produce``: queue one record; ``on_delivery(err, msg)`` (or its
        alias ``callback``, or the config's on_delivery) is called from a later ``poll`` or
        ``flush`` on the caller's thread, ``err`` None or a ``kafkawire.confluent.KafkaError``,
        ``msg`` a ``kafkawire.confluent.Message``. ``partition`` negative: the partitioner's
        choice; ``timestamp`` 0: now (else as ``send`` takes it).

        :raises QueueFullError: (a BufferError, as confluent-kafka's) the buffer stayed full
            for max.block.ms: ``poll``, then produce again."""
        value, key, partition, timestamp, report = self._produced(
            topic, value, key, partition, timestamp, on_delivery, callback
        )
        started = time.monotonic()
        try:
            future = self.send(
                topic, value, key=key, headers=headers, partition=partition, timestamp=timestamp
            )
        except BufferFullError as exc:
            raise QueueFullError(str(exc)) from None
        if report is not None:
            self._reports.expect(future, report, topic, partition, value, key, headers, started)

    def poll(self, timeout: float | None = 0) -> int:
        """Run the delivery callbacks of ``produce`` queued since the last poll, on this
        thread; when none is queued, wait up to ``timeout`` seconds (None or negative: as long
        as it takes) for one, while a produced record awaits its report. How many ran."""
        if timeout is not None and timeout < 0:
            timeout = None
        if timeout != 0:
            with self._reports.lock:
                self._reports.lock.wait_for(self._reports.ready, timeout)
        return self._reports.run()

    def __len__(self) -> int:
        """Records queued or in flight, and delivery reports not run yet (confluent-kafka's
        ``len(producer)``: ``while len(producer): producer.poll(1)`` runs every callback)."""
        with self._signal:
            return self._queued_records()

    def __bool__(self) -> bool:  # a producer is true even when nothing is queued
        return True

    def send_batch(
        self,
        topic: str,
        values,
        *,
        keys=None,
        headers=None,
        timestamps=None,
        partitions=None,
    ) -> BatchFuture:
        """Queue many records at once, columnar (Arrow arrays, numpy 'S<n>' arrays or lists,
        as ``build_batches`` takes them): no Python object per record. Keyed rows go where
        ``send`` would put them. The future gives a BatchMetadata (partition and offset of
        every row)."""
        self._check_open()
        values, keys, timestamps = batch_columns(values, keys, timestamps)
        count = self._producer_partitions(topic)
        parts, encoded = encode_rows(
            self._config, topic, count, values, keys, headers, timestamps, partitions
        )
        columns = _Columns(topic, parts)
        deadline = time.monotonic() + self._config.max_block
        for tp, data, rows in encoded:
            with self._signal:
                if not self._signal.wait_for(self._producer.has_space, deadline - time.monotonic()):
                    raise BufferFullError("the producer's buffer stayed full for max.block.ms")
                columns.parts.append((self._producer.append_built(tp, data, len(rows)), rows))
        return BatchFuture(columns, self._signal)

    def send_arrow(self, topic: str, table) -> BatchFuture:
        """``send_batch`` from a pyarrow Table or RecordBatch with a value column and any of
        key, headers, timestamp, partition."""
        return self.send_batch(topic, **arrow_columns(table))

    def partitions_for(self, topic: str) -> list[int]:
        """The partition numbers of ``topic`` (waiting for its metadata as ``send`` does)."""
        return list(range(self._producer_partitions(topic)))

    def _producer_partitions(self, topic: str) -> int:
        with self._signal:
            count = self._producer.partition_count(topic)
        if count is None:
            count = self._job(
                self._producer.metadata.topic_flow(topic), None, f"partitions of {topic}"
            )
        return count

    def _job(self, flow: Flow, timeout: float | None, what: str):
        """Run ``flow`` on the sender thread and wait for its result, ``timeout`` seconds at
        most (None: default.api.timeout.ms)."""
        seconds = self._core.config.default_api_timeout if timeout is None else timeout
        flow = within(flow, seconds, what)
        future: concurrent.futures.Future = concurrent.futures.Future()

        def done(result, error):
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        with self._signal:
            if self._sender_error is not None or not self._thread.is_alive():
                raise ClientError("the producer's sender has stopped") from self._sender_error
            self._producer.start_job(flow, done)
        try:  # within() ends the flow by then; a wait for a drain ends here
            return future.result(seconds + 0.5)
        except concurrent.futures.TimeoutError:
            raise RequestTimeoutError(f"{what}: not done in {seconds:g} s") from None

    def flush(self, timeout: float | None = None) -> int:
        """Send everything queued now (linger ends) and wait until it is acknowledged or has
        failed; the number of records still undelivered when ``timeout`` passed (0: all).
        Then runs the delivery callbacks of ``produce`` on this thread (as ``poll``)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        left = self._flush(timeout)
        with self._reports.lock:  # the reports of what was delivered are being queued
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            self._reports.lock.wait_for(self._reports.all_queued, wait)
        self._reports.run()
        return left

    def _flush(self, timeout: float | None) -> int:
        with self._signal:
            pending = self._producer.unfinished()
            self._producer.begin_flush()
            try:
                done = 0

                def finished() -> bool:
                    nonlocal done
                    while done < len(pending) and pending[done].state == DONE:
                        done += 1
                    return done == len(pending)

                self._signal.wait_for(finished, timeout)
                return sum(b.count for b in pending if b.state != DONE)
            finally:
                self._producer.flushing -= 1

    def close(self, timeout: float | None = None) -> None:
        """Deliver what is queued (waiting up to ``timeout``; None: as long as it takes; the
        rest fails), then disconnect."""
        if self._closed:
            return
        with self._signal:
            self._closed = True
            self._producer.accepting = False
            self._producer.update_fast()
        left = self.flush(timeout)
        with self._signal:
            if left:
                self._producer.fail_all(ClientError("the producer closed before delivery"))
            self._producer.closing = True
            self._producer.wake()
        self._producer.run_callbacks()
        self._thread.join(None if timeout is None else max(timeout, 1.0))
        self._reports.run()  # produce()'s records that failed at close

    def __enter__(self) -> Producer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ---- transactions ---------------------------------------------------------------------

    def init_transactions(self, timeout: float | None = None) -> None:
        """Register transactional.id with its coordinator: an older producer with the same
        id is fenced, and what it left open is aborted."""
        self._check_open()
        self._job(self._producer.transaction.init_transactions(), timeout, "init_transactions")

    def begin_transaction(self) -> None:
        self._check_open()
        with self._signal:
            self._producer.transaction.begin_transaction()

    def send_offsets_to_transaction(
        self,
        offsets: Mapping[TopicPartition, Any],
        group_metadata: ConsumerGroupMetadata | str,
        timeout: float | None = None,
    ) -> None:
        """Commit a consumer group's offsets ({tp: next offset to read}) as part of the
        transaction: ``group_metadata`` from ``Consumer.group_metadata()``."""
        self._check_open()
        flow = self._producer.transaction.send_offsets(offsets, group_metadata)
        self._job(flow, timeout, "send_offsets_to_transaction")

    def commit_transaction(self, timeout: float | None = None) -> None:
        """Flush, then commit: the records and offsets of the transaction become visible to
        read_committed consumers together.

        :raises TransactionStateError: part of the transaction failed: abort it."""
        self._check_open()
        self._job(self._producer.transaction.commit_transaction(), timeout, "commit_transaction")

    def abort_transaction(self, timeout: float | None = None) -> None:
        """Drop what is queued, wait for what is in flight, abort: read_committed consumers
        never see the transaction's records."""
        self._check_open()
        self._job(self._producer.transaction.abort_transaction(), timeout, "abort_transaction")


class BatchFuture:
    """What ``send_batch`` returns: ``result(timeout)`` is the BatchMetadata."""

    def __init__(self, columns: _Columns, signal) -> None:
        self._columns = columns
        self._signal = signal

    def done(self) -> bool:
        return all(b.state == DONE for b, _ in self._columns.parts)

    def result(self, timeout: float | None = None) -> BatchMetadata:
        with self._signal:
            if not self._signal.wait_for(self.done, timeout):
                raise TimeoutError(f"no delivery report in {timeout} s")
        return self._columns.metadata()


class AsyncProducer(_ProducerMethods):
    """The asyncio producer: ``Producer``'s constructor and methods, as coroutines.
    ``await producer.send(...)`` queues the record (waiting only for buffer space or the
    topic's metadata) and returns its future; ``await`` that for the RecordMetadata.
    Use it from one event loop."""

    def __init__(self, bootstrap_servers=None, *, config=None, **settings) -> None:
        super().__init__(bootstrap_servers, config=config, **settings)
        self._transport = AsyncTransport(self._core)
        self._space: asyncio.Event | None = None
        self._producer = ProducerCore(
            self._core,
            self._config,
            lock=contextlib.nullcontext(),
            notify=self._notify,
            wake=self._transport.wake,
        )
        self._sender: asyncio.Task | None = None
        self._report_event: asyncio.Event | None = None
        self._reports = Reports(
            self._core, self._config, self._producer, contextlib.nullcontext(), self._reported
        )
        # the common case of send, compiled; the rest goes to _send_whole
        self.send = AsyncFastSend(self._producer, self._send_whole).send

    def _notify(self) -> None:
        if self._space is not None:
            self._space.set()

    def _start(self) -> None:
        if self._sender is None:
            self._sender = asyncio.ensure_future(self._send_loop())

    async def _send_loop(self) -> None:
        try:
            await self._transport.run(self._producer.sender())
        except BaseException as exc:
            # a bug, or cancelled (close's time ran out): what is in flight ends here or never
            why = f"the producer's sender stopped: {exc!r}"
            if isinstance(exc, asyncio.CancelledError):
                why = "the producer closed before delivery"
            self._producer.fail_all(ClientError(why), stopped=True)
            self._producer.run_callbacks()
            raise

    async def send(
        self,
        topic: str,
        value=None,
        *,
        key=None,
        headers=None,
        partition: int | None = None,
        timestamp: int | float | datetime.datetime | None = None,
    ) -> AsyncRecordFuture:
        """``Producer.send``: returns the record's future once it is queued. Always await
        it: the common case queues the record at the call, the rest when awaited."""
        return await self._send_whole(
            topic, value, key=key, headers=headers, partition=partition, timestamp=timestamp
        )

    async def _send_whole(
        self,
        topic,
        value=None,
        *,
        key=None,
        headers=None,
        partition=None,
        timestamp=None,
        placing: bool = False,
    ) -> AsyncRecordFuture:
        """The whole path of send. ``placing``: the compiled path found no room in the open
        batch, or the topic not known yet; the sender runs first (it ships the batch that
        filled, asks for the topic's partitions), else a loop that never awaits anything
        else would queue everything before the first request goes out. Nothing is queued
        before that: a cancelled send queued nothing."""
        if placing:
            await asyncio.sleep(0)
        value = bytes_field("value", value)
        key = bytes_field("key", key)
        timestamp = timestamp_ms(timestamp)
        headers = header_pairs(headers) if headers else ()
        self._check_open()
        if self._sender is None:
            self._start()
        try:
            return self._producer.send(topic, value, key, headers, partition, timestamp, None)
        except BufferFullError:
            pass
        deadline = time.monotonic() + self._config.max_block
        while True:
            try:
                return self._producer.send(topic, value, key, headers, partition, timestamp, None)
            except BufferFullError:
                if time.monotonic() >= deadline:
                    raise
                await self._wait_for_space(deadline)

    async def produce(
        self,
        topic: str,
        value=None,
        key=None,
        partition: int = -1,
        on_delivery: Callable | None = None,
        callback: Callable | None = None,
        timestamp: Any = 0,
        headers=None,
    ) -> None:
        """``Producer.produce``: returns once the record is queued; its delivery callback
        runs from a later ``await poll()`` or ``await flush()``."""
        value, key, partition, timestamp, report = self._produced(
            topic, value, key, partition, timestamp, on_delivery, callback
        )
        started = time.monotonic()
        try:
            future = await self.send(
                topic, value, key=key, headers=headers, partition=partition, timestamp=timestamp
            )
        except BufferFullError as exc:
            raise QueueFullError(str(exc)) from None
        if report is not None:
            self._reports.expect(future, report, topic, partition, value, key, headers, started)

    def _reported(self) -> None:  # a report was queued
        if self._report_event is not None:
            self._report_event.set()

    async def _await_reports(self, until, timeout: float | None) -> None:
        """Wait up to ``timeout`` (None: as long as it takes) until ``until()``."""
        if until():
            return
        self._start()
        if self._report_event is None:
            self._report_event = asyncio.Event()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not until():
            self._report_event.clear()
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._report_event.wait(), left)

    async def poll(self, timeout: float | None = 0) -> int:
        """``Producer.poll``: run the delivery callbacks queued (on the loop)."""
        if timeout is not None and timeout < 0:
            timeout = None
        if timeout != 0:
            await self._await_reports(self._reports.ready, timeout)
        return self._reports.run()

    def __len__(self) -> int:
        """As ``Producer``'s."""
        return self._queued_records()

    def __bool__(self) -> bool:
        return True

    async def send_and_wait(self, topic: str, value=None, **options):
        """``send``, then wait for the record's RecordMetadata."""
        return await (await self.send(topic, value, **options))

    async def _wait_for_space(self, deadline: float) -> None:
        if self._space is None:
            self._space = asyncio.Event()
        await asyncio.sleep(0)  # the sender runs on this loop: let it
        while not self._producer.has_space():
            self._space.clear()
            try:
                await asyncio.wait_for(self._space.wait(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                raise BufferFullError(
                    "the producer's buffer stayed full for max.block.ms"
                ) from None

    async def send_batch(
        self,
        topic: str,
        values,
        *,
        keys=None,
        headers=None,
        timestamps=None,
        partitions=None,
    ) -> AsyncBatchFuture:
        """``Producer.send_batch``; ``await`` the result for the BatchMetadata."""
        self._check_open()
        values, keys, timestamps = batch_columns(values, keys, timestamps)
        self._start()
        count = self._producer.partition_count(topic)
        if count is None:
            count = await self._job(
                self._producer.metadata.topic_flow(topic), None, f"partitions of {topic}"
            )
        parts, encoded = await encode_rows_async(
            self._config, topic, count, values, keys, headers, timestamps, partitions
        )
        columns = _Columns(topic, parts)
        deadline = time.monotonic() + self._config.max_block
        async for tp, data, rows in encoded:
            await self._wait_for_space(deadline)
            columns.parts.append((self._producer.append_built(tp, data, len(rows)), rows))
        return AsyncBatchFuture(columns)

    async def partitions_for(self, topic: str) -> list[int]:
        count = self._producer.partition_count(topic)
        if count is None:
            count = await self._job(
                self._producer.metadata.topic_flow(topic), None, f"partitions of {topic}"
            )
        return list(range(count))

    async def send_arrow(self, topic: str, table) -> AsyncBatchFuture:
        return await self.send_batch(topic, **arrow_columns(table))

    async def _job(self, flow: Flow, timeout: float | None, what: str):
        """As Producer._job."""
        self._start()
        seconds = self._core.config.default_api_timeout if timeout is None else timeout
        flow = within(flow, seconds, what)
        future = asyncio.get_running_loop().create_future()

        def done(result, error):
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        self._producer.start_job(flow, done)
        try:  # within() ends the flow by then; a wait for a drain ends here
            return await asyncio.wait_for(asyncio.shield(future), seconds + 0.5)
        except asyncio.TimeoutError:
            raise RequestTimeoutError(f"{what}: not done in {seconds:g} s") from None

    async def flush(self, timeout: float | None = None) -> int:
        """``Producer.flush``, produce()'s delivery callbacks included."""
        deadline = None if timeout is None else time.monotonic() + timeout
        left = await self._flush(timeout)
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        await self._await_reports(self._reports.all_queued, wait)
        self._reports.run()
        return left

    async def _flush(self, timeout: float | None) -> int:
        pending = self._producer.unfinished()
        if not pending:
            return 0
        self._start()
        self._producer.begin_flush()
        try:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(_all_done(pending), timeout)
            return sum(b.count for b in pending if b.state != DONE)
        finally:
            self._producer.flushing -= 1

    async def close(self, timeout: float | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        self._producer.accepting = False
        self._producer.update_fast()
        left = await self.flush(timeout)
        if left:
            self._producer.fail_all(ClientError("the producer closed before delivery"))
        self._producer.closing = True
        self._producer.wake()
        self._producer.run_callbacks()
        self._reports.run()
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, None if timeout is None else max(timeout, 1))
        self._reports.run()  # produce()'s records failed as the sender stopped
        await self._transport.close()

    async def __aenter__(self) -> AsyncProducer:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def init_transactions(self, timeout: float | None = None) -> None:
        self._check_open()
        await self._job(
            self._producer.transaction.init_transactions(), timeout, "init_transactions"
        )

    def begin_transaction(self) -> None:
        """(Not a coroutine: nothing is sent until the transaction's first record.)"""
        self._check_open()
        self._producer.transaction.begin_transaction()

    async def send_offsets_to_transaction(
        self, offsets, group_metadata, timeout: float | None = None
    ) -> None:
        self._check_open()
        flow = self._producer.transaction.send_offsets(offsets, group_metadata)
        await self._job(flow, timeout, "send_offsets_to_transaction")

    async def commit_transaction(self, timeout: float | None = None) -> None:
        self._check_open()
        await self._job(
            self._producer.transaction.commit_transaction(), timeout, "commit_transaction"
        )

    async def abort_transaction(self, timeout: float | None = None) -> None:
        self._check_open()
        await self._job(
            self._producer.transaction.abort_transaction(), timeout, "abort_transaction"
        )


async def _all_done(batches: list[ProducerBatch]) -> None:
    loop = asyncio.get_running_loop()
    for b in batches:
        if b.state != DONE:
            waiter = loop.create_future()
            if b.waiters is None:
                b.waiters = []
            b.waiters.append(waiter)
            await waiter


class AsyncBatchFuture:
    def __init__(self, columns: _Columns) -> None:
        self._columns = columns

    def done(self) -> bool:
        return all(b.state == DONE for b, _ in self._columns.parts)

    def __await__(self):
        yield from _all_done([b for b, _ in self._columns.parts]).__await__()
        return self._columns.metadata()
