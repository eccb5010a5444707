"""What the producer's callers give, as its batches take it: a record's value, key, timestamp
and headers (``send``, ``produce``), and ``send_batch``'s and ``send_arrow``'s columns, split by
partition and encoded into record batches (``encode_rows``, on the caller's thread, no lock
held).

The record builder takes bytes-like values and keys and ms since the epoch; the conversions
here take str (UTF-8) and Python's times too, and refuse other kinds with ``RecordTypeError``,
naming the field (and the row, in a column).
"""

from __future__ import annotations

import datetime
import math
import operator
import random
import time
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from kafkawire.errors import EncodeError
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.records import build_batches

from ..errors import RecordTooLargeError
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
    row, [(tp, batch bytes, its rows)]). No lock held.

    :raises RecordTooLargeError: a row alone is larger than message.max.bytes (nothing of
        the call is queued)."""
    c = config
    split, parts = _split(c, topic, count, values, keys, partitions)
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
            encoded.append((TopicPartition(topic, partition), data, all_rows[at : at + records]))
            at += records
    return parts, encoded


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
            parts[keyless] = np.random.randint(count)
    elif keys is not None or config.partitioner == "random":
        parts = np.array(
            [_partition_of(config.partitioner, k, count) for k in _pylist(keys, n)], np.int32
        )
    else:
        parts = np.full(n, np.random.randint(count), np.int32)
    if n and parts.min() == parts.max():
        return [(int(parts[0]), None)], parts
    order = np.argsort(parts, kind="stable")
    cuts = np.flatnonzero(np.diff(parts[order])) + 1
    return [(int(parts[rows[0]]), rows) for rows in np.split(order, cuts)], parts


def _partition_of(partitioner: str, key, count) -> int:
    """The partition of one row's key (None: no key) under ``partitioner``."""
    if partitioner == "random" or (key is None and partitioner.endswith("_random")):
        return random.randrange(count)
    if partitioner.startswith("consistent"):  # librdkafka's: the whole CRC32
        return zlib.crc32(b"" if key is None else key) % count
    return (murmur2(b"" if key is None else key) & 0x7FFFFFFF) % count


def _pylist(column, n):
    if column is None:
        return [None] * n
    if hasattr(column, "to_pylist"):
        return column.to_pylist()
    return list(column)
