"""Kafka log-segment files read without a broker.

A broker stores each partition in a directory ``<topic>-<partition>`` of its log dirs, as
segment files named by their first offset (``00000000000000000000.log``). A segment is
nothing but record batches written back to back, the bytes a Fetch response carries, so
kafkawire's decoder reads it as is: the file is mapped into memory (mmap) and decoded in
chunks of about ``chunk_bytes``, so memory stays bounded whatever the file size.

Control batches (transaction markers) are left out; records of aborted transactions are
kept (read_uncommitted: the .txnindex files are not read). Trailing zero bytes (a
preallocated segment) end the file quietly; anything else that does not decode raises a
:class:`~kafkawire.errors.DecodeError` naming the file and the byte offset in it, unless
``skip_corrupt`` is set, in which case the bad batch (or the rest of the file, when the
batch's length cannot be trusted) is skipped with a warning logged.
"""

from __future__ import annotations

import logging
import mmap
import os
import re
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kafkawire.errors import DecodeError, TruncatedError
from kafkawire.records import RecordView, decode_records

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "DEFAULT_CHUNK_BYTES",
    "SegmentChunk",
    "SegmentFile",
    "find_segments",
    "read_arrow",
    "read_table",
    "read_views",
]

log = logging.getLogger(__name__)

DEFAULT_CHUNK_BYTES = 64 * 1024 * 1024
_HEADER = struct.Struct(">qi")  # baseOffset, batchLength: the first 12 bytes of every batch
_MIN_ENTRY = 14  # the smallest legacy message after its length field; batches are larger
_SEGMENT_NAME = re.compile(r"^(\d{20})\.log$")
_PARTITION_DIR = re.compile(r"^(.+)-(\d+)$")
# partition directories a broker is deleting, moving between log dirs, or found stray (KRaft)
_SKIPPED_DIRS = ("-delete", "-future", "-stray")


@dataclass(frozen=True)
class SegmentFile:
    """One .log file; topic and partition come from its ``<topic>-<partition>`` directory."""

    path: str
    topic: str | None
    partition: int | None
    base_offset: int | None
    size: int


@dataclass
class SegmentChunk:
    """The records of bytes ``start:end`` of a segment file (control batches left out)."""

    segment: SegmentFile
    start: int
    end: int
    view: RecordView


def _segment_file(path: str) -> SegmentFile:
    name_match = _SEGMENT_NAME.match(os.path.basename(path))
    dir_match = _PARTITION_DIR.match(os.path.basename(os.path.dirname(os.path.abspath(path))))
    return SegmentFile(
        path=path,
        topic=dir_match.group(1) if dir_match else None,
        partition=int(dir_match.group(2)) if dir_match else None,
        base_offset=int(name_match.group(1)) if name_match else None,
        size=os.path.getsize(path),
    )


def find_segments(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[SegmentFile]:
    """The segment files under ``paths``: files as given (any name), and in directories the
    ``NNNNNNNNNNNNNNNNNNNN.log`` files at any depth (a partition directory, a broker's log
    dir of ``<topic>-<partition>`` directories, ...), sorted by topic, partition and offset.

    :raises FileNotFoundError: a path that does not exist.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    found: dict[str, SegmentFile] = {}
    for path in (os.fspath(p) for p in paths):
        if os.path.isfile(path):
            found.setdefault(path, _segment_file(path))
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.endswith(_SKIPPED_DIRS))
                for name in files:
                    if _SEGMENT_NAME.match(name):
                        full = os.path.join(root, name)
                        found.setdefault(full, _segment_file(full))
        else:
            raise FileNotFoundError(f"no such segment file or directory: {path}")
    return sorted(
        found.values(),
        key=lambda s: (s.topic or "", s.partition or 0, s.base_offset or 0, s.path),
    )


def _relocated(exc: DecodeError, path: str, base: int) -> DecodeError:
    """``exc`` with the file named and its byte offset counted from the start of the file."""
    return type(exc)(
        f"segment {path}: {exc.reason}",
        offset=None if exc.offset is None else base + exc.offset,
        batch_offset=exc.batch_offset,
        field=exc.field,
    )


def _batch_at(buf, start: int, end: int, target: int) -> tuple[int, int | None]:
    """Walk batch headers from ``start``: (byte position of the batch holding ``target``,
    its declared total size, or None when the header there is unreadable or impossible)."""
    pos = start
    while pos + _HEADER.size <= end:
        _, length = _HEADER.unpack_from(buf, pos)
        size = _HEADER.size + length
        if length < _MIN_ENTRY or pos + size > end:
            return pos, None
        if target < pos + size:
            return pos, size
        pos += size
    return pos, None


def _all_zero(buf, start: int, end: int) -> bool:
    return not np.frombuffer(buf, np.uint8, end - start, start).any()


def read_views(
    segment: SegmentFile | str | os.PathLike,
    *,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    verify_crc: bool = True,
    skip_corrupt: bool = False,
) -> Iterator[SegmentChunk]:
    """The records of one segment file, decoded chunk by chunk (about ``chunk_bytes`` each;
    a batch larger than that makes its chunk larger).

    The views point into the mapped file; the map is released when the last view goes.

    :raises DecodeError: (TruncatedError, CrcError, CorruptError, ...) a batch that does not
        decode, with the file and the byte offset in it in the message and ``offset``.
    """
    if not isinstance(segment, SegmentFile):
        segment = _segment_file(os.fspath(segment))
    path = segment.path
    if chunk_bytes < _HEADER.size:
        raise ValueError(f"chunk_bytes must be at least {_HEADER.size}")
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            return
        # the views keep the map alive (buffer exports): no explicit close
        buf = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
    pos = 0
    while pos < size:
        end = min(pos + chunk_bytes, size)
        if end < size and end - pos >= _HEADER.size:
            _, length = _HEADER.unpack_from(buf, pos)
            if length >= 0:  # a first batch larger than the chunk makes the chunk larger
                end = max(end, min(pos + _HEADER.size + length, size))
        try:
            view = decode_records(buf[pos:end], verify_crc=verify_crc)
        except DecodeError as exc:
            bad, bad_size = _batch_at(buf, pos, size, pos + (exc.offset or 0))
            if bad > pos:  # the batches before the bad one are fine
                view = decode_records(buf[pos:bad], verify_crc=verify_crc)
                if len(view):
                    yield SegmentChunk(segment, pos, bad, view)
            if _all_zero(buf, bad, size):
                return  # zeros after the last batch: a preallocated file
            if not skip_corrupt:
                raise _relocated(exc, path, pos) from None
            if bad_size is None:
                log.warning("%s: skipping bytes %d-%d: %s", path, bad, size, exc)
                return
            log.warning("%s: skipping %d bytes at byte %d: %s", path, bad_size, bad, exc)
            pos = bad + bad_size
            continue
        used = (end - pos) - view.leftover_bytes
        if used == 0:  # the file ends inside the batch at pos
            if _all_zero(buf, pos, size):
                return
            truncated = TruncatedError(
                f"segment {path}: the file ends inside a batch ({size - pos} bytes left)",
                offset=pos,
            )
            if not skip_corrupt:
                raise truncated
            log.warning("%s: skipping bytes %d-%d: %s", path, pos, size, truncated)
            return
        if len(view):
            yield SegmentChunk(segment, pos, pos + used, view)
        pos += used


def read_arrow(
    paths: str | os.PathLike | Iterable[str | os.PathLike] | SegmentFile,
    *,
    include_headers: bool = True,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    verify_crc: bool = True,
    skip_corrupt: bool = False,
) -> Iterator[pa.RecordBatch]:
    """Record batches with Spark's Kafka columns (key, value, topic, partition, offset,
    timestamp, timestampType[, headers]) for every segment under ``paths``, file by file.

    topic and partition are null for files outside a ``<topic>-<partition>`` directory.
    """
    from kafkawire.records.arrow import kafka_batches

    segments = [paths] if isinstance(paths, SegmentFile) else find_segments(paths)
    for segment in segments:
        for chunk in read_views(
            segment, chunk_bytes=chunk_bytes, verify_crc=verify_crc, skip_corrupt=skip_corrupt
        ):
            yield from kafka_batches(
                chunk.view, segment.topic, segment.partition, include_headers=include_headers
            )


def read_table(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    *,
    include_headers: bool = True,
    verify_crc: bool = True,
    skip_corrupt: bool = False,
) -> pa.Table:
    """All records under ``paths`` as one pyarrow Table (see :func:`read_arrow`)."""
    import pyarrow as pa

    from kafkawire.records.arrow import arrow_schema

    batches = read_arrow(
        paths, include_headers=include_headers, verify_crc=verify_crc, skip_corrupt=skip_corrupt
    )
    return pa.Table.from_batches(list(batches), schema=arrow_schema(include_headers))
