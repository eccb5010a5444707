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
import collections
import concurrent.futures
import contextlib
import datetime
import functools
import math
import operator
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from kafkawire.errors import EncodeError
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.records import build_batches
from kafkawire.records._build import key_partitions

from ..aio_transport import AsyncTransport
from ..confluent_shapes import OFFSET_INVALID, KafkaError, Message
from ..core import ClientCore
from ..errors import BufferFullError, ClientError, RecordTooLargeError, RequestTimeoutError
from ..flow import Flow, within
from ..stats import Statistics
from ..sync_transport import SyncTransport
from ..types import TopicPartition
from ._accumulate import DONE, AsyncRecordFuture, FastSend, ProducerBatch, RecordFuture
from .config import producer_config
from .core import ProducerCore
from .transactions import ConsumerGroupMetadata


class BatchMetadata(NamedTuple):
    """Where ``send_batch`` put each row: its partition and offset (-1 when unknown)."""

    topic: str
    partitions: np.ndarray  # int32
    offsets: np.ndarray  # int64


_BYTES_KINDS = "bytes-like (bytes, bytearray, memoryview), str (sent as UTF-8) or None"
_TIMESTAMP_KINDS = (
    "an int (ms since the epoch), a float (seconds since the epoch, as time.time() gives), "
    "a datetime.datetime (naive: local time) or None (now)"
)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_MS = datetime.timedelta(milliseconds=1)


class QueueFullError(BufferFullError, BufferError):
    """``produce`` found the buffer full for max.block.ms: a BufferError, as confluent-kafka's
    (its users ``poll`` and produce again), and kafkawire's BufferFullError."""


class RecordTypeError(EncodeError, TypeError):
    """A value, key or timestamp of a kind the producer does not take (an EncodeError, as the
    record builder's own refusals, and a TypeError, as Python's)."""


def _bytes_field(name: str, data: Any) -> Any:
    """A value or key as the record builder takes it: bytes-like or None (str: UTF-8).

    :raises RecordTypeError: any other kind; the message names the field and the kind."""
    if data is None or type(data) is bytes:
        return data
    if isinstance(data, str):
        return data.encode()
    if isinstance(data, bytearray | memoryview):
        return data
    # numbers are not values, though numpy's scalars export buffers
    if not isinstance(data, bool | int | float | np.number | np.bool_):
        try:
            memoryview(data).release()  # any other buffer (array.array, numpy arrays, ...)
            return data
        except TypeError:
            pass
    raise RecordTypeError(f"{name} must be {_BYTES_KINDS}, not {type(data).__name__}")


def _bytes_column(name: str, column: Any) -> Any:
    """A send_batch column given as a Python sequence, each row as ``_bytes_field`` makes it
    (other columns, Arrow or numpy, go to build_batches as they are)."""
    if isinstance(column, np.ndarray) and column.dtype.kind in "OU":  # objects, str
        column = column.tolist()
    if not isinstance(column, list | tuple):
        return column
    if all(v is None or type(v) is bytes for v in column):
        return column
    out = []
    for i, v in enumerate(column):
        try:
            out.append(_bytes_field(name, v))
        except RecordTypeError:
            raise RecordTypeError(
                f"{name}s[{i}]: {name} must be {_BYTES_KINDS}, not {type(v).__name__}"
            ) from None
    return out


def _timestamp_ms(timestamp: Any) -> int | None:
    """A record's timestamp as ms since the epoch (None: now, left to the producer).

    :raises RecordTypeError: a kind that is not a time (a bool, a str, ...).
    :raises ValueError: a time before the epoch, or a float that is not finite."""
    kind = type(timestamp)
    if timestamp is None or (kind is int and timestamp >= 0):
        return timestamp
    if isinstance(timestamp, bool):
        raise RecordTypeError(f"timestamp is a bool ({timestamp}): give {_TIMESTAMP_KINDS}")
    if isinstance(timestamp, float):
        if not math.isfinite(timestamp):
            raise ValueError(f"timestamp {timestamp} is not a time: give {_TIMESTAMP_KINDS}")
        ms = round(timestamp * 1000)
    elif isinstance(timestamp, datetime.datetime):
        aware = timestamp if timestamp.tzinfo is not None else timestamp.astimezone()
        ms = (aware - _EPOCH) // _MS
    elif hasattr(kind, "__index__"):  # numpy integers
        ms = operator.index(timestamp)
    else:
        raise RecordTypeError(f"timestamp must be {_TIMESTAMP_KINDS}, not {kind.__name__}")
    if ms < 0:
        raise ValueError(
            f"timestamp {timestamp!r} is before the epoch (1970-01-01 UTC): Kafka's record "
            "timestamps are ms since the epoch, not negative"
        )
    return ms


def _timestamp_column(timestamps: Any) -> Any:
    """send_batch's timestamps given as a Python sequence: each as ``_timestamp_ms`` makes
    it, None as now (Arrow and numpy columns go to build_batches as they are)."""
    if not isinstance(timestamps, list | tuple):
        return timestamps
    if all(type(t) is int and t >= 0 for t in timestamps):
        return timestamps
    now = time.time_ns() // 1_000_000
    out = []
    for i, t in enumerate(timestamps):
        try:
            ms = _timestamp_ms(t)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"timestamps[{i}]: {exc}") from None
        out.append(now if ms is None else ms)
    return out


def _columns(values: Any, keys: Any, timestamps: Any) -> tuple[Any, Any, Any]:
    """send_batch's values, keys and timestamps as build_batches takes them."""
    values = _bytes_column("value", values)
    if keys is not None:
        keys = _bytes_column("key", keys)
    if timestamps is not None:
        timestamps = _timestamp_column(timestamps)
    return values, keys, timestamps


def _headers(headers):
    if not headers:
        return ()
    items = headers.items() if isinstance(headers, Mapping) else headers
    return [(k, v.encode() if type(v) is str else v) for k, v in items]


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
        self._stats = Statistics(self._core, "producer")
        self._last_error: str | None = None  # the last one error_cb heard
        self._closed = False
        # produce()'s delivery reports: (callback, error, message), run by poll and flush on
        # the caller's thread; _unreported: records produced with a callback, not reported yet
        self._on_delivery: Callable | None = self._config.on_delivery
        self._reports: collections.deque = collections.deque()
        self._unreported = 0

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
        value, key = _bytes_field("value", value), _bytes_field("key", key)
        return value, key, partition, _timestamp_ms(timestamp), report

    def _report(self, report, topic, partition, value, key, headers, started, future) -> None:
        """A produced record's outcome (``future`` done) queued for poll/flush: report(err,
        msg) with confluent-kafka's KafkaError and Message."""
        latency = time.monotonic() - started
        try:
            error = future.exception()
            headers = _headers(headers) or None
        except Exception as exc:  # (a report is never lost: flush waits for each)
            error, headers = exc, None
        if error is None:
            md = future.result()
            msg = Message(
                md.topic,
                md.partition,
                md.offset,
                key,
                value,
                headers,
                timestamp=md.timestamp,
                latency=latency,
            )
            err = None
        else:
            err = KafkaError._of(error)
            msg = Message(
                topic,
                -1 if partition is None else partition,
                OFFSET_INVALID,
                key,
                value,
                headers,
                error=err,
                latency=latency,
            )
        only_errors = self._config.delivery_report_only_error
        self._queue_report(None if only_errors and err is None else (report, err, msg))

    def _queue_report(self, item) -> None:
        raise NotImplementedError

    def _run_reports(self, lock) -> int:
        """Run the delivery callbacks queued (on this thread): how many ran. A callback's
        exception goes to the caller (the rest stay queued for the next poll). Then stats_cb,
        when statistics.interval.ms has passed."""

        def read() -> tuple[dict, dict]:
            with self._producer.lock:  # the sender's state (not the reports' lock)
                topics, count, size = self._producer.statistics()
            return topics, {"msg_cnt": count, "msg_size": size}

        self._stats.tick(read)
        with self._producer.lock:
            errors, self._producer.errors = self._producer.errors, []
        for error in errors:  # error_cb: the brokers lost, silent or refusing
            if self._core.config.error_cb is not None and str(error) != self._last_error:
                self._core.config.error_cb(error)  # (each failure once, not each retry of it)
            self._last_error = str(error)
        ran = 0
        while True:
            with lock:
                if not self._reports:
                    return ran
                report, err, msg = self._reports.popleft()
            report(err, msg)
            ran += 1

    def _queued_records(self) -> int:
        """Records queued or in flight, and delivery reports not run yet (len())."""
        records = sum(b.count for b in self._producer.unfinished() if b.state != DONE)
        return max(records, self._unreported) + len(self._reports)

    def __repr__(self) -> str:
        servers = ",".join(f"{h}:{p}" for h, p in self._core.config.bootstrap_servers)
        txn = self._config.transactional_id
        return f"<{type(self).__qualname__} {servers}{'' if txn is None else f' txn={txn!r}'}>"

    def _split(self, topic, count, values, keys, headers, timestamps, partitions) -> list:
        """The rows of a send_batch by partition: [(partition, row indices or None for all)],
        and the partition of every row."""
        n = len(values)
        if partitions is not None:
            parts = np.asarray(partitions, dtype=np.int64)
            if len(parts) != n:
                raise ValueError(f"partitions: {n} values expected, not {len(parts)}")
            bad = np.unique(parts[(parts < 0) | (parts >= count)])
            if len(bad):
                raise UnknownTopicOrPartitionError(
                    f"topic {topic!r} has {count} partitions: no partition "
                    f"{', '.join(map(str, bad[:10].tolist()))}"
                )
            parts = parts.astype(np.int32)
        elif keys is not None and self._config.partitioner.startswith("murmur2"):
            parts = key_partitions(keys, count)
            keyless = parts < 0
            if keyless.any():  # null keys: one partition for the call (sticky)
                parts[keyless] = np.random.randint(count)
        elif keys is not None or self._config.partitioner == "random":
            parts = np.array(
                [self._producer_partition(topic, k, count) for k in _pylist(keys, n)], np.int32
            )
        else:
            parts = np.full(n, np.random.randint(count), np.int32)
        if n and parts.min() == parts.max():
            return [(int(parts[0]), None)], parts
        order = np.argsort(parts, kind="stable")
        cuts = np.flatnonzero(np.diff(parts[order])) + 1
        return [(int(parts[rows[0]]), rows) for rows in np.split(order, cuts)], parts

    def _producer_partition(self, topic, key, count) -> int:
        import random
        import zlib

        from .partitioner import murmur2

        if self._config.partitioner == "random" or (
            key is None and self._config.partitioner.endswith("_random")
        ):
            return random.randrange(count)
        if self._config.partitioner.startswith("consistent"):  # librdkafka's: the whole CRC32
            return zlib.crc32(b"" if key is None else key) % count
        return (murmur2(b"" if key is None else key) & 0x7FFFFFFF) % count

    def _encode(self, topic, count, values, keys, headers, timestamps, partitions):
        """Encode a send_batch's rows: (_Columns, [(tp, bytes, rows)]). No lock held."""
        split, parts = self._split(topic, count, values, keys, headers, timestamps, partitions)
        c = self._config
        columns = _Columns(topic, parts)
        encoded = []
        for partition, rows in split:

            def pick(column, rows=rows):
                if column is None or rows is None:
                    return column
                if isinstance(column, np.ndarray):  # before "take": numpy has one too
                    return column[rows]
                if hasattr(column, "take"):  # an Arrow array
                    import pyarrow as pa

                    return column.take(pa.array(rows))
                return [column[i] for i in rows]

            batches = build_batches(
                pick(values),
                keys=pick(keys),
                headers=pick(headers),
                timestamps=pick(timestamps),
                compression=c.compression,
                max_bytes=c.batch_size,
            )
            at = 0
            all_rows = np.arange(len(values)) if rows is None else rows
            for data in batches:
                records = int.from_bytes(data[57:61], "big")
                if len(data) > c.message_max_bytes:  # one record alone: build_batches' rule
                    raise RecordTooLargeError(
                        f"row {int(all_rows[at])} is a batch of {len(data)} bytes for "
                        f"{topic}-{partition}, larger than message.max.bytes "
                        f"({c.message_max_bytes}); nothing of this call was sent"
                    )
                encoded.append(
                    (TopicPartition(topic, partition), data, all_rows[at : at + records])
                )
                at += records
        return columns, encoded


def _pylist(column, n):
    if column is None:
        return [None] * n
    if hasattr(column, "to_pylist"):
        return column.to_pylist()
    return list(column)


def _arrow_columns(table) -> dict:
    """send_arrow's columns: value (required), key, headers, timestamp, partition."""
    names = {name.lower(): name for name in table.column_names}
    if "value" not in names:
        raise ValueError("send_arrow needs a value column (binary or string)")
    out = {"values": table.column(names["value"])}
    for column, argument in (("key", "keys"), ("headers", "headers"), ("partition", "partitions")):
        if column in names:
            out[argument] = table.column(names[column])
    if "timestamp" in names:  # integers (ms) or Arrow timestamps; a null means now
        out["timestamps"] = table.column(names["timestamp"])
    if "partitions" in out:
        partitions = out.pop("partitions")
        if partitions.null_count == len(partitions):
            pass  # no partition given: the partitioner chooses
        elif partitions.null_count:
            raise ValueError(
                f"the partition column has {partitions.null_count} nulls: give every row a "
                "partition, or none (the partitioner then chooses)"
            )
        else:
            out["partitions"] = np.asarray(partitions.to_numpy(zero_copy_only=False))
    return out


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
        self._reported = threading.Condition(threading.Lock())  # guards produce()'s reports
        # the common case of send, compiled; it calls the method below for the rest
        whole_path = type(self).send.__get__(self)
        self.send = FastSend(self._lock, self._producer, self._signal, whole_path)
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

    def _check_open(self) -> None:
        if self._closed:
            raise ClientError("the producer is closed")

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
        value = _bytes_field("value", value)
        key = _bytes_field("key", key)
        timestamp = _timestamp_ms(timestamp)
        headers = _headers(headers) if headers else ()
        deadline = None
        with self._signal:
            while True:
                if self._closed:
                    raise ClientError("the producer is closed")
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
            with self._reported:
                self._unreported += 1
            future.add_done_callback(
                functools.partial(
                    self._report, report, topic, partition, value, key, headers, started
                )
            )

    def _queue_report(self, item) -> None:
        with self._reported:
            if item is not None:  # (None: delivery.report.only.error, and it was delivered)
                self._reports.append(item)
            self._unreported -= 1
            self._reported.notify_all()

    def poll(self, timeout: float | None = 0) -> int:
        """Run the delivery callbacks of ``produce`` queued since the last poll, on this
        thread; when none is queued, wait up to ``timeout`` seconds (None or negative: as long
        as it takes) for one, while a produced record awaits its report. How many ran."""
        if timeout is not None and timeout < 0:
            timeout = None
        if timeout != 0:
            with self._reported:
                self._reported.wait_for(lambda: self._reports or not self._unreported, timeout)
        return self._run_reports(self._reported)

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
        values, keys, timestamps = _columns(values, keys, timestamps)
        count = self._producer_partitions(topic)
        columns, encoded = self._encode(topic, count, values, keys, headers, timestamps, partitions)
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
        return self.send_batch(topic, **_arrow_columns(table))

    def partitions_for(self, topic: str) -> list[int]:
        """The partition numbers of ``topic`` (waiting for its metadata as ``send`` does)."""
        return list(range(self._producer_partitions(topic)))

    def _producer_partitions(self, topic: str) -> int:
        with self._signal:
            count = self._producer.partition_count(topic)
        if count is None:
            count = self._job(self._producer.topic_flow(topic), None, f"partitions of {topic}")
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
        with self._reported:  # the reports of what was delivered are being queued
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            self._reported.wait_for(lambda: not self._unreported, wait)
        self._run_reports(self._reported)
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
        self._run_reports(self._reported)  # produce()'s records that failed at close

    def __enter__(self) -> Producer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ---- transactions ---------------------------------------------------------------------

    def init_transactions(self, timeout: float | None = None) -> None:
        """Register transactional.id with its coordinator: an older producer with the same
        id is fenced, and what it left open is aborted."""
        self._check_open()
        self._job(self._producer.init_transactions(), timeout, "init_transactions")

    def begin_transaction(self) -> None:
        self._check_open()
        with self._signal:
            self._producer.begin_transaction()

    def send_offsets_to_transaction(
        self,
        offsets: Mapping[TopicPartition, Any],
        group_metadata: ConsumerGroupMetadata | str,
        timeout: float | None = None,
    ) -> None:
        """Commit a consumer group's offsets ({tp: next offset to read}) as part of the
        transaction: ``group_metadata`` from ``Consumer.group_metadata()``."""
        self._check_open()
        flow = self._producer.send_offsets(offsets, group_metadata)
        self._job(flow, timeout, "send_offsets_to_transaction")

    def commit_transaction(self, timeout: float | None = None) -> None:
        """Flush, then commit: the records and offsets of the transaction become visible to
        read_committed consumers together.

        :raises TransactionStateError: part of the transaction failed: abort it."""
        self._check_open()
        self._job(self._producer.commit_transaction(), timeout, "commit_transaction")

    def abort_transaction(self, timeout: float | None = None) -> None:
        """Drop what is queued, wait for what is in flight, abort: read_committed consumers
        never see the transaction's records."""
        self._check_open()
        self._job(self._producer.abort_transaction(), timeout, "abort_transaction")


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

    def _notify(self) -> None:
        if self._space is not None:
            self._space.set()

    def _start(self) -> None:
        if self._sender is None:
            self._sender = asyncio.ensure_future(self._send_loop())

    async def _send_loop(self) -> None:
        try:
            await self._transport.run(self._producer.sender())
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            self._producer.fail_all(
                ClientError(f"the producer's sender stopped: {exc!r}"), stopped=True
            )
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
        """``Producer.send``: returns the record's future once it is queued."""
        value = _bytes_field("value", value)
        key = _bytes_field("key", key)
        timestamp = _timestamp_ms(timestamp)
        headers = _headers(headers) if headers else ()
        if self._closed:
            raise ClientError("the producer is closed")
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
            self._unreported += 1
            future.add_done_callback(
                functools.partial(
                    self._report, report, topic, partition, value, key, headers, started
                )
            )

    def _queue_report(self, item) -> None:
        if item is not None:
            self._reports.append(item)
        self._unreported -= 1
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
            await self._await_reports(lambda: self._reports or not self._unreported, timeout)
        return self._run_reports(contextlib.nullcontext())

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
        if self._closed:
            raise ClientError("the producer is closed")
        values, keys, timestamps = _columns(values, keys, timestamps)
        self._start()
        count = self._producer.partition_count(topic)
        if count is None:
            count = await self._job(
                self._producer.topic_flow(topic), None, f"partitions of {topic}"
            )
        columns, encoded = self._encode(topic, count, values, keys, headers, timestamps, partitions)
        deadline = time.monotonic() + self._config.max_block
        for tp, data, rows in encoded:
            await self._wait_for_space(deadline)
            columns.parts.append((self._producer.append_built(tp, data, len(rows)), rows))
        return AsyncBatchFuture(columns)

    async def partitions_for(self, topic: str) -> list[int]:
        count = self._producer.partition_count(topic)
        if count is None:
            count = await self._job(
                self._producer.topic_flow(topic), None, f"partitions of {topic}"
            )
        return list(range(count))

    async def send_arrow(self, topic: str, table) -> AsyncBatchFuture:
        return await self.send_batch(topic, **_arrow_columns(table))

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
        await self._await_reports(lambda: not self._unreported, wait)
        self._run_reports(contextlib.nullcontext())
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
        self._run_reports(contextlib.nullcontext())
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, None if timeout is None else max(timeout, 1))
        await self._transport.close()

    async def __aenter__(self) -> AsyncProducer:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def init_transactions(self, timeout: float | None = None) -> None:
        await self._job(self._producer.init_transactions(), timeout, "init_transactions")

    def begin_transaction(self) -> None:
        """(Not a coroutine: nothing is sent until the transaction's first record.)"""
        self._producer.begin_transaction()

    async def send_offsets_to_transaction(
        self, offsets, group_metadata, timeout: float | None = None
    ) -> None:
        flow = self._producer.send_offsets(offsets, group_metadata)
        await self._job(flow, timeout, "send_offsets_to_transaction")

    async def commit_transaction(self, timeout: float | None = None) -> None:
        await self._job(self._producer.commit_transaction(), timeout, "commit_transaction")

    async def abort_transaction(self, timeout: float | None = None) -> None:
        await self._job(self._producer.abort_transaction(), timeout, "abort_transaction")


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
