"""An independent, deliberately plain encoder of Kafka record formats for tests.

Written from the format description with struct, sharing no code with
kafkawire, so that tests can make any byte sequence (including wrong ones)
and check kafkawire's decoder against it.
"""

from __future__ import annotations

import struct
import zlib

import crc32c as crc32c_pkg


def uvarint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def varint(n: int) -> bytes:
    return uvarint((n << 1) ^ (n >> 63))


def varbytes(b: bytes | None) -> bytes:
    return varint(-1) if b is None else varint(len(b)) + b


def record(
    offset_delta: int,
    timestamp_delta: int,
    key: bytes | None,
    value: bytes | None,
    headers=(),
) -> bytes:
    body = (
        b"\x00"
        + varint(timestamp_delta)
        + varint(offset_delta)
        + varbytes(key)
        + varbytes(value)
        + varint(len(headers))
        + b"".join(
            varbytes(k.encode() if isinstance(k, str) else k) + varbytes(v) for k, v in headers
        )
    )
    return varint(len(body)) + body


def v2_batch(
    records: list[bytes],
    *,
    base_offset: int = 0,
    partition_leader_epoch: int = -1,
    attributes: int = 0,
    last_offset_delta: int | None = None,
    base_timestamp: int = 1_700_000_000_000,
    max_timestamp: int | None = None,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    record_count: int | None = None,
    compress=None,
    crc: int | None = None,
) -> bytes:
    payload = b"".join(records)
    if compress is not None:
        payload = compress(payload)
    if last_offset_delta is None:
        last_offset_delta = max(len(records) - 1, 0)
    if max_timestamp is None:
        max_timestamp = base_timestamp
    if record_count is None:
        record_count = len(records)
    after_crc = (
        struct.pack(
            ">hiqqqhii",
            attributes,
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            producer_id,
            producer_epoch,
            base_sequence,
            record_count,
        )
        + payload
    )
    if crc is None:
        crc = crc32c_pkg.crc32c(after_crc)
    tail = struct.pack(">ibI", partition_leader_epoch, 2, crc) + after_crc
    return struct.pack(">qi", base_offset, len(tail)) + tail


def legacy_message(
    magic: int,
    offset: int,
    key: bytes | None,
    value: bytes | None,
    *,
    timestamp: int = 1_700_000_000_000,
    attributes: int = 0,
    crc: int | None = None,
) -> bytes:
    body = struct.pack(">bb", magic, attributes)
    if magic == 1:
        body += struct.pack(">q", timestamp)
    for field in (key, value):
        body += struct.pack(">i", -1) if field is None else struct.pack(">i", len(field)) + field
    if crc is None:
        crc = zlib.crc32(body)
    msg = struct.pack(">I", crc) + body
    return struct.pack(">qi", offset, len(msg)) + msg


def control_record(commit: bool, coordinator_epoch: int = 7) -> bytes:
    return record(
        0, 0, struct.pack(">hh", 0, 1 if commit else 0), struct.pack(">hi", 0, coordinator_epoch)
    )
