"""What the producer's callers give, as its batches take it: a record's value, key, timestamp
and headers (``send``, ``produce``), and ``send_batch``'s and ``send_arrow``'s columns, split by
partition and encoded into record batches (``encode_rows``, on the caller's thread, no lock
held).

The record builder takes bytes-like values and keys and ms since the epoch; the conversions
here take str (UTF-8) and Python's times too, and refuse other kinds with ``RecordTypeError``,
naming the field (and the row, in a column).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import math
import operator
import time
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from kafkawire.errors import EncodeError
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.records import iter_batches
from kafkawire.records._build import group_rows

from ..errors import RecordTooLargeError
from ..randomness import RANDOM
from ..types import TopicPartition
from .config import ProducerConfig
from .partitioner import key_partitions, murmur2

_BYTES_KINDS = "bytes-like (bytes, bytearray, memoryview), str (sent as UTF-8) or None"
_TIMESTAMP_KINDS = (
    "an int (ms since the epoch), a float (seconds since the epoch, as time.time() gives), "
    "a datetime.datetime (naive: local time) or None (now)"
)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_MS = datetime.timedelta(milliseconds=1)


class RecordTypeError(EncodeError, TypeError):
    """A value, key or timestamp of a kind the producer does not take (an EncodeError, as the
    record builder's own refusals, and a TypeError, as Python's)."""


def bytes_field(name: str, data: Any) -> Any:
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
    """A send_batch column given as a Python sequence, each row as ``bytes_field`` makes it
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
            out.append(bytes_field(name, v))
        except RecordTypeError:
            raise RecordTypeError(
                f"{name}s[{i}]: {name} must be {_BYTES_KINDS}, not {type(v).__name__}"
            ) from None
    return out


def timestamp_ms(timestamp: Any) -> int | None:
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
    """send_batch's timestamps given as a Python sequence: each as ``timestamp_ms`` makes
    it, None as now (Arrow and numpy columns go to build_batches as they are)."""
    if not isinstance(timestamps, list | tuple):
        return timestamps
    if all(type(t) is int and t >= 0 for t in timestamps):
        return timestamps
    now = time.time_ns() // 1_000_000
    out = []
    for i, t in enumerate(timestamps):
        try:
            ms = timestamp_ms(t)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"timestamps[{i}]: {exc}") from None
        out.append(now if ms is None else ms)
    return out


def batch_columns(values: Any, keys: Any, timestamps: Any) -> tuple[Any, Any, Any]:
    """send_batch's values, keys and timestamps as build_batches takes them."""
    values = _bytes_column("value", values)
    if keys is not None:
        keys = _bytes_column("key", keys)
    if timestamps is not None:
        timestamps = _timestamp_column(timestamps)
    return values, keys, timestamps


def header_pairs(headers):
    """A record's headers, (str, bytes) pairs or a mapping, as (key, bytes) pairs (str
    values: UTF-8); () for none."""
    if not headers:
        return ()
    items = headers.items() if isinstance(headers, Mapping) else headers
    return [(k, v.encode() if type(v) is str else v) for k, v in items]


def arrow_columns(table) -> dict:
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


def encode_rows(
    config: ProducerConfig, topic, count, values, keys, headers, timestamps, partitions
):
    """Encode a send_batch's rows for a topic of ``count`` partitions: (the partition of every
    row, the batches as (tp, batch bytes, its rows)). No lock held.

    The batches come partition by partition, each as soon as it is encoded, so that the
    sender sends the first ones while the caller encodes the rest (the encoder lets other
    threads run). When a row could be too large for message.max.bytes, every batch is
    encoded first: the error leaves nothing of the call queued.

    :raises RecordTooLargeError: a row alone is larger than message.max.bytes (nothing of
        the call is queued)."""
    split, parts = _split(config, topic, count, values, keys, partitions)
    if isinstance(timestamps, list | tuple):  # converted once, not once per partition
        timestamps = np.asarray(timestamps, dtype=np.int64)
    batches = _encode_partitions(config, topic, split, values, keys, headers, timestamps)
    if not _rows_fit(config, values, keys, headers):
        batches = list(batches)
    return parts, batches


# below this many rows a hop to a worker thread costs more than encoding on the event loop
_OFF_LOOP_ROWS = 10_000


async def encode_rows_async(
    config: ProducerConfig, topic, count, values, keys, headers, timestamps, partitions
):
    """``encode_rows`` for the asyncio producer: (the partition of every row, an async
    iterator of the batches). A large call is encoded in a worker thread, a partition at a
    time, so that the event loop, and the sender on it, runs meanwhile."""
    args = (config, topic, count, values, keys, headers, timestamps, partitions)
    if len(values) < _OFF_LOOP_ROWS:
        parts, batches = encode_rows(*args)
    else:
        parts, batches = await asyncio.to_thread(encode_rows, *args)
    if isinstance(batches, list):  # encoded already
        return parts, _each(batches)
    return parts, _each_from_thread(batches)


async def _each(batches):
    for batch in batches:
        yield batch


async def _each_from_thread(batches):
    while (batch := await asyncio.to_thread(next, batches, None)) is not None:
        yield batch


def _encode_partitions(config: ProducerConfig, topic, split, values, keys, headers, timestamps):
    c = config
    # every partition's encoder made first: the columns are checked before any batch
    encoders = [
        iter_batches(
            values,
            keys=keys,
            headers=headers,
            timestamps=timestamps,
            compression=c.compression,
            max_bytes=c.batch_size,
            rows=rows,
        )
        for _, rows in split
    ]
    written = [0] * len(split)  # each partition's rows in the batches so far
    rows_in_call = sum(len(rows) for _, rows in split if rows is not None)
    threads = _ENCODERS if c.compression is not None and rows_in_call >= _OFF_LOOP_ROWS else 1
    for k, data in _round_robin(encoders, threads):
        partition, rows = split[k]
        records = int.from_bytes(data[57:61], "big")
        at = written[k]
        written[k] += records
        if len(data) > c.message_max_bytes:  # one record alone: build_batches' rule
            row = at if rows is None else int(rows[at])
            raise RecordTooLargeError(
                f"row {row} is a batch of {len(data)} bytes for {topic}-{partition}, "
                f"larger than message.max.bytes ({c.message_max_bytes}); nothing of this "
                f"call was sent"
            )
        batch_rows = np.arange(at, at + records) if rows is None else rows[at : at + records]
        yield TopicPartition(topic, partition), data, batch_rows


# threads that encode a large compressed call's batches side by side (build_batches
# writes the records and compresses them without the GIL)
_ENCODERS = 2


def _round_robin(encoders, threads: int):
    """(k, batch) from each of the batch iterators in turn, a batch of each partition a
    time: the sender fills every request with a batch of every partition from the first
    batches on, as Kafka's producers do, and each batch leaves as soon as it is encoded.
    With several threads (compressed: the compression runs without the GIL), the next
    batches are encoded while the caller queues the ones done; uncompressed, the encoding
    is bound by memory, not by a core, and a second thread did not pay when this was
    chosen."""
    live = list(range(len(encoders)))
    if threads < 2 or len(encoders) < 2:
        while live:
            still = []
            for k in live:
                if (batch := next(encoders[k], None)) is not None:
                    still.append(k)
                    yield k, batch
            live = still
        return
    pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="kafkawire-encode")
    try:
        # one batch of each partition under way; a partition's next starts once its last
        # is taken (its batches continue its offsets: one at a time)
        pending = {k: pool.submit(next, encoders[k], None) for k in live}
        while pending:
            for k in list(pending):
                batch = pending.pop(k).result()
                if batch is None:
                    continue
                pending[k] = pool.submit(next, encoders[k], None)
                yield k, batch
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# a record's bytes beyond its key, value and headers (length, attributes, timestamp and
# offset deltas, key and value lengths, header count: varints at their widest), and its
# batch's header
_RECORD_OVERHEAD = 5 + 1 + 10 + 5 + 5 + 5 + 5
_BATCH_HEADER = 61


def _rows_fit(config: ProducerConfig, values, keys, headers) -> bool:
    """True when no row can make a batch larger than message.max.bytes, from the columns'
    longest entries, and no row has a null header key (False when that is not cheap to
    know: Python lists)."""
    if config.batch_size > config.message_max_bytes:
        return False
    longest = [_longest(values), 0 if keys is None else _longest(keys)]
    if headers is not None:
        longest.append(_longest_headers(headers))
    if None in longest:
        return False
    return _BATCH_HEADER + _RECORD_OVERHEAD + sum(longest) <= config.message_max_bytes


def _longest(column) -> int | None:
    """The longest entry of an Arrow or numpy 'S<n>' column (None: another kind)."""
    if isinstance(column, np.ndarray):
        return column.dtype.itemsize if column.dtype.kind == "S" else None
    if not type(column).__module__.startswith("pyarrow"):
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    if pa.types.is_null(kind):
        return 0
    if pa.types.is_fixed_size_binary(kind):
        return kind.byte_width
    try:
        longest = pc.max(pc.binary_length(column)).as_py()
    except pa.ArrowException:
        return None  # not binary or string: build_batches says why
    return 0 if longest is None else longest


def _longest_headers(headers) -> int | None:
    """A bound on one row's header bytes for an Arrow list<struct<key, value>> column: the
    most headers of a row, each with the longest key and value and their lengths."""
    if not type(headers).__module__.startswith("pyarrow"):
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        flat = pc.list_flatten(headers)
        most = pc.max(pc.list_value_length(headers)).as_py() or 0
        keys, values = pc.struct_field(flat, "key"), pc.struct_field(flat, "value")
    except (pa.ArrowException, KeyError, TypeError):
        return None  # not that shape: build_batches says why
    key, value = _longest(keys), _longest(values)
    if key is None or value is None or keys.null_count:  # a null key: build_batches refuses
        return None
    return most * (key + value + 10)


def _split(config: ProducerConfig, topic, count, values, keys, partitions) -> tuple:
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
    elif keys is not None and config.partitioner.startswith("murmur2"):
        parts = key_partitions(keys, count)
        keyless = parts < 0
        if keyless.any():  # null keys: one partition for the call (sticky)
            parts[keyless] = RANDOM.randrange(count)
    elif keys is not None or config.partitioner == "random":
        parts = np.array(
            [_partition_of(config.partitioner, k, count) for k in _pylist(keys, n)], np.int32
        )
    else:
        parts = np.full(n, RANDOM.randrange(count), np.int32)
    if n and parts.min() == parts.max():
        return [(int(parts[0]), None)], parts
    rows, starts = group_rows(parts, count)
    bounds = starts.tolist()
    split = [
        (p, rows[bounds[p] : bounds[p + 1]]) for p in range(count) if bounds[p + 1] > bounds[p]
    ]
    return split, parts


def _partition_of(partitioner: str, key, count) -> int:
    """The partition of one row's key (None: no key) under ``partitioner``."""
    if partitioner == "random" or (key is None and partitioner.endswith("_random")):
        return RANDOM.randrange(count)
    if partitioner.startswith("consistent"):  # librdkafka's: the whole CRC32
        return zlib.crc32(b"" if key is None else key) % count
    return (murmur2(b"" if key is None else key) & 0x7FFFFFFF) % count


def _pylist(column, n):
    if column is None:
        return [None] * n
    if hasattr(column, "to_pylist"):
        return column.to_pylist()
    return list(column)
