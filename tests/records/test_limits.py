"""Limits on hostile input: a length or count that lies fails at once, before
anything is allocated for it; decompression is capped per payload and per call;
nested legacy wrappers are refused, not recursed into.

Memory is measured in a fresh subprocess: the growth of its peak RSS (VmHWM;
ru_maxrss can carry the parent's peak over fork + exec) while it decodes, with
its address space capped a little above what it uses, so that an allocation
sized by a lying length fails even if its pages are never touched.  Under ASan
(whose shadow memory needs a huge address space) only the outcome is checked.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap
import zlib

import pytest
from isal import isal_zlib

import kafkawire
from kafkawire import compression
from kafkawire.protocol import FrameReader, framing
from kafkawire.records import crc32c

MiB = 1 << 20
BIG = 2**31 - 1

_CHILD = textwrap.dedent(
    """
    import json, os, resource, sys
    import kafkawire
    from kafkawire import protocol
    from kafkawire.protocol import FrameReader

    def vm(field):
        with open("/proc/self/status") as f:
            return next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith(field + ":"))

    cases = json.loads(sys.argv[1])
    inputs = {name: open(path, "rb").read() for name, path in cases["files"].items()}
    measured = "asan" not in os.environ.get("LD_PRELOAD", "")
    if measured:
        limit = vm("VmSize") + cases["address_space"]
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    before = vm("VmHWM")
    outcomes = {}
    for name, call in cases["calls"].items():
        data = inputs[name]
        try:
            exec(call)
            outcomes[name] = "ok"
        except kafkawire.DecodeError as exc:
            outcomes[name] = type(exc).__name__
        except MemoryError:
            outcomes[name] = "MemoryError"
    growth = vm("VmHWM") - before if measured else None
    print(json.dumps({"outcomes": outcomes, "growth": growth}))
    """
)


def run_child(tmp_path, cases: dict[str, tuple[bytes, str]], address_space: int):
    """Run each case's call (a statement over `data`) in one fresh process:
    ({case: outcome}, peak RSS growth in bytes or None under ASan)."""
    files = {}
    for name, (data, _) in cases.items():
        path = tmp_path / f"{name}.bin"
        path.write_bytes(data)
        files[name] = str(path)
    spec = {
        "files": files,
        "calls": {name: call for name, (_, call) in cases.items()},
        "address_space": address_space,
    }
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return result["outcomes"], result["growth"]


# ---- inputs ----------------------------------------------------------------------------


def v2_batch(records: bytes, *, count: int, attributes: int = 0, length: int | None = None):
    """A v2 batch with a correct CRC around `records` (any bytes) and any count."""
    after_crc = struct.pack(">hiqqqhii", attributes, max(count - 1, 0), 0, 0, -1, -1, -1, count)
    after_crc += records
    body = struct.pack(">ibI", -1, 2, crc32c(after_crc)) + after_crc
    return struct.pack(">qi", 0, len(body) if length is None else length) + body


def uvarint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def varint(n: int) -> bytes:
    return uvarint((n << 1) ^ (n >> 63))


def record(fields: bytes) -> bytes:
    body = b"\0" + varint(0) + varint(0) + fields
    return varint(len(body)) + body


def legacy_message(magic: int, value: bytes, *, attributes: int = 0, size=None, value_len=None):
    body = struct.pack(">bb", magic, attributes)
    if magic == 1:
        body += struct.pack(">q", 0)
    body += struct.pack(">i", -1)
    body += struct.pack(">i", len(value) if value_len is None else value_len) + value
    msg = struct.pack(">I", zlib.crc32(body)) + body
    return struct.pack(">qi", 0, len(msg) if size is None else size) + msg


def request_header(api_key: int, version: int, flexible: bool = False) -> bytes:
    # api key, version, correlation id, null client id (+ empty tagged fields: v2 header)
    return struct.pack(">hhih", api_key, version, 1, -1) + (b"\0" if flexible else b"")


LYING_LENGTHS = {
    # records: every length and count a batch or a record carries
    "batch_length": (
        struct.pack(">qiib", 0, BIG, -1, 2) + bytes(7),
        "kafkawire.decode_records(data)",
        "TruncatedError",
    ),
    "batch_length_read_batches": (
        struct.pack(">qiib", 0, BIG, -1, 2) + bytes(7),
        "list(kafkawire.read_batches(data))",
        "TruncatedError",
    ),
    "record_count": (v2_batch(b"", count=BIG), "kafkawire.decode_records(data)", "CorruptError"),
    "record_length": (
        v2_batch(varint(BIG) + bytes(8), count=1),
        "kafkawire.decode_records(data)",
        "TruncatedError",
    ),
    "key_length": (
        v2_batch(record(varint(BIG) + bytes(4)), count=1),
        "kafkawire.decode_records(data)",
        "TruncatedError",
    ),
    "header_count": (
        v2_batch(record(varint(-1) + varint(-1) + varint(BIG)), count=1),
        "kafkawire.decode_records(data)",
        "TruncatedError",
    ),
    "header_count_read_batches": (
        v2_batch(record(varint(-1) + varint(-1) + varint(BIG)), count=1),
        "[b.records() for b in kafkawire.read_batches(data)]",
        "TruncatedError",
    ),
    "legacy_message_size": (
        struct.pack(">qi", 0, BIG) + bytes(8),
        "kafkawire.decode_records(data)",
        "TruncatedError",
    ),
    "legacy_wrapper_value_length": (
        legacy_message(1, b"\0" * 4, attributes=1, value_len=BIG),
        "kafkawire.decode_records(data)",
        "CorruptError",
    ),
    # messages: array counts and byte lengths against the bytes that remain
    "array_count": (
        request_header(3, 0) + struct.pack(">i", BIG) + bytes(6),
        "protocol.decode_request(data)",
        "TruncatedError",
    ),
    "compact_array_count": (
        request_header(3, 9, flexible=True) + uvarint(2**32 - 1) + bytes(4),
        "protocol.decode_request(data)",
        "TruncatedError",
    ),
    "bytes_length": (
        request_header(36, 0) + struct.pack(">i", BIG) + bytes(6),
        "protocol.decode_request(data)",
        "TruncatedError",
    ),
    "string_length": (
        struct.pack(">hhih", 3, 0, 1, 0x7FFF) + bytes(10),
        "protocol.decode_request(data)",
        "TruncatedError",
    ),
    "tagged_field_count": (
        struct.pack(">hhih", 3, 9, 1, -1) + uvarint(2**32 - 1) + bytes(6),
        "protocol.decode_request(data)",
        "TruncatedError",
    ),
    "tagged_field_size": (
        struct.pack(">hhih", 3, 9, 1, -1) + b"\x01\x07" + uvarint(2**32 - 1) + bytes(6),
        "protocol.decode_request(data)",
        "TruncatedError",
    ),
    "response_array_count": (
        struct.pack(">ii", 1, BIG) + bytes(12),
        "protocol.decode_response(data, api_key=3, api_version=0)",
        "TruncatedError",
    ),
    "data_schema_array_count": (
        struct.pack(">i", BIG) + bytes(16),
        "protocol.decode(protocol.messages.ConsumerProtocolSubscription, data, version=0)",
        "TruncatedError",
    ),
    # frames: a size over the limit fails; under it, the reader waits without reserving
    "frame_size_over_limit": (
        struct.pack(">i", BIG) + bytes(16),
        "r = FrameReader(); r.feed(data); r.next_frame()",
        "LimitExceededError",
    ),
    "frame_size_under_limit": (
        struct.pack(">i", BIG) + bytes(16),
        "r = FrameReader(max_frame_size=2**31); r.feed(data); assert r.next_frame() is None",
        "ok",
    ),
}


def test_lying_lengths_fail_at_once_without_allocating(tmp_path):
    cases = {name: (data, call) for name, (data, call, _) in LYING_LENGTHS.items()}
    for name, (data, _) in cases.items():
        assert len(data) <= 80, name  # a 2 GiB claim in a few bytes (a v2 header is 61)
    outcomes, growth = run_child(tmp_path, cases, address_space=256 * MiB)
    assert outcomes == {name: expected for name, (_, _, expected) in LYING_LENGTHS.items()}
    if growth is not None:
        assert growth < 16 * MiB


# ---- decompression bombs ---------------------------------------------------------------

BOMB = 64 * MiB  # of zeros, in one record
CAP = 8 * MiB


@pytest.fixture(scope="module")
def bombs():
    out = {}
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        builder = kafkawire.BatchBuilder(compression=codec)
        builder.append(bytes(BOMB))
        out[codec] = builder.build()
    return out


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_decompression_bomb_is_capped(tmp_path, bombs, codec):
    data = bombs[codec]
    assert len(data) < BOMB // 16
    calls = {
        "decode_records": f"kafkawire.decode_records(data, max_decompressed_size={CAP})",
        "read_batches": f"list(kafkawire.read_batches(data, max_decompressed_size={CAP}))",
    }
    cases = {name: (data, call) for name, call in calls.items()}
    outcomes, growth = run_child(tmp_path, cases, address_space=256 * MiB)
    assert outcomes == dict.fromkeys(calls, "LimitExceededError")
    if growth is not None:
        # at most about the cap (the output stops there), never the bomb's 64 MiB
        assert growth < CAP + 16 * MiB


def test_total_cap_over_many_batches(tmp_path):
    # 20 batches that each decompress to 8 MiB, under the per-batch cap: 160 MiB in all
    builder = kafkawire.BatchBuilder(compression="zstd")
    builder.append(bytes(8 * MiB))
    data = builder.build() * 20
    total = 32 * MiB
    calls = {
        "decode_records": "kafkawire.decode_records(data, max_decompressed_size=9 * 2**20, "
        f"max_total_decompressed_size={total})",
        "read_batches": "list(kafkawire.read_batches(data, max_decompressed_size=9 * 2**20, "
        f"max_total_decompressed_size={total}))",
    }
    outcomes, growth = run_child(
        tmp_path, {name: (data, call) for name, call in calls.items()}, address_space=512 * MiB
    )
    assert outcomes == dict.fromkeys(calls, "LimitExceededError")
    if growth is not None:
        assert growth < total + 24 * MiB


def test_total_cap_counts_every_payload():
    builder = kafkawire.BatchBuilder(compression="gzip")
    builder.append(bytes(1000))
    batch = builder.build()
    size = len(compression.decompress(1, batch[61:]))  # one payload, decompressed
    total = 3 * size
    assert len(kafkawire.decode_records(batch * 3, max_total_decompressed_size=total)) == 3
    with pytest.raises(kafkawire.LimitExceededError, match="max_total_decompressed_size"):
        kafkawire.decode_records(batch * 4, max_total_decompressed_size=total)
    reader = kafkawire.read_batches(batch * 4, max_total_decompressed_size=total)
    assert [len(next(reader)) for _ in range(3)] == [1, 1, 1]
    with pytest.raises(kafkawire.LimitExceededError) as info:
        next(reader)
    assert info.value.offset is not None and info.value.field == "records"
    # the per-batch cap still applies on its own
    with pytest.raises(kafkawire.LimitExceededError, match=f"more than {size - 1} bytes"):
        kafkawire.decode_records(batch, max_decompressed_size=size - 1)


def test_limit_defaults_and_bad_values():
    per_batch = kafkawire.records._decode.DEFAULT_MAX_DECOMPRESSED_SIZE
    per_call = kafkawire.records._decode.DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE
    assert (per_batch, per_call) == (256 * MiB, 1024 * MiB)
    assert FrameReader().max_frame_size == framing.DEFAULT_MAX_FRAME_SIZE == 100 * MiB
    with pytest.raises(ValueError):
        kafkawire.decode_records(b"", max_total_decompressed_size=0)
    with pytest.raises(ValueError):
        kafkawire.read_batches(b"", max_decompressed_size=0)


# ---- nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize("magic", [0, 1])
def test_nested_compressed_wrappers_are_refused_not_recursed(magic):
    # 200 wrappers deep: a recursive reader would overflow the C stack or
    # decompress 200 times; the walker reads one level and refuses the rest
    inner = legacy_message(magic, b"value")
    for _ in range(200):
        payload = compression.compress(1, inner, magic=magic)
        inner = legacy_message(magic, payload, attributes=1)
    with pytest.raises(kafkawire.CorruptError, match="compressed message inside"):
        kafkawire.decode_records(inner)
    with pytest.raises(kafkawire.CorruptError, match="compressed message inside"):
        for batch in kafkawire.read_batches(inner):
            batch.records()


# ---- work -------------------------------------------------------------------------------


def test_many_gzip_members_cost_work_in_proportion(monkeypatch):
    # zlib copies what follows each member (unused_data): fed the whole rest each
    # time, 50,000 empty members copied ~50 GB-steps (quadratic: a hang for a
    # 16 MiB payload); fed in doubling pieces, the copies stay within a small
    # multiple of the input
    member = zlib.compress(b"", wbits=31)
    payload = member * 50_000 + zlib.compress(b"end", wbits=31)
    copied = 0
    calls = 0
    real = isal_zlib.decompressobj  # the inflater kafkawire decodes gzip with

    class Counting:
        def __init__(self, wbits):
            self._inflater = real(wbits)

        def decompress(self, data, max_length=0):
            nonlocal copied, calls
            calls += 1
            out = self._inflater.decompress(data, max_length)
            copied += len(self._inflater.unused_data) + len(self._inflater.unconsumed_tail)
            return out

        def __getattr__(self, name):
            return getattr(self._inflater, name)

    monkeypatch.setattr(isal_zlib, "decompressobj", Counting)
    assert compression.decompress(1, payload) == b"end"
    assert calls > 50_000  # the counting inflater did the work
    assert copied < 8 * len(payload)
