"""The encoder: exact layouts, CRCs, interop with aiokafka and kafka-python, size limits,
control batches and the columnar build_batches."""

from __future__ import annotations

import struct
import zlib

import crc32c
import numpy as np
import pyarrow as pa
import pytest
from aiokafka.record._crecords import DefaultRecordBatchBuilder as AioBuilder
from aiokafka.record._crecords import LegacyRecordBatchBuilder as AioLegacyBuilder
from aiokafka.record.memory_records import MemoryRecords as AioMemoryRecords
from kafka.record import MemoryRecords as KpMemoryRecords
from kafka.record.default_records import DefaultRecordBatchBuilder as KpBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder as KpLegacyBuilder

from kafkawire.errors import EncodeError
from kafkawire.records._build import (
    BatchBuilder,
    build_batches,
    build_control_batch,
    group_rows,
    iter_batches,
)
from kafkawire.records._decode import read_batches

CODECS = [None, "gzip", "snappy", "lz4", "zstd"]
CODEC_IDS = {None: 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
T0 = 1_700_000_000_000


def zigzag(n: int) -> bytes:
    """Kafka's varint, written independently of the code under test."""
    u = (n << 1) ^ (n >> 63)
    out = bytearray()
    while u >= 0x80:
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def sample(n: int = 5) -> list[tuple]:
    """(key, value, timestamp, headers) rows with nulls, empties and repeated header keys."""
    rows = []
    for i in range(n):
        key = None if i % 3 == 1 else b"key-%d" % i
        value = None if i % 4 == 3 else b"v" * (i * 7)
        headers = [("h", b"x"), ("h", None), ("\u00e9t\u00e9", b"%d" % i)] if i % 2 else []
        rows.append((key, value, T0 + (i * 37) % 11 - 3, headers))
    return rows


def build(rows, **kw) -> bytes:
    b = BatchBuilder(**kw)
    for key, value, ts, headers in rows:
        assert b.append(value, key=key, timestamp=ts, headers=headers)
    return b.build()


def all_records(memory_records_cls, data: bytes) -> list[tuple]:
    mr = memory_records_cls(data)
    out = []
    while (batch := mr.next_batch()) is not None:
        out += [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    return out


def ours(data: bytes) -> list[tuple]:
    return [
        (r.offset, r.timestamp, r.key, r.value, r.headers)
        for batch in read_batches(data)
        for r in batch
    ]


def expected(rows, base_offset=0, magic=2) -> list[tuple]:
    return [
        (base_offset + i, ts if magic else None, k, v, list(h))
        for i, (k, v, ts, h) in enumerate(rows)
    ]


# ---- exact layout ------------------------------------------------------------------------


def test_v2_layout_field_by_field():
    rows = [
        (b"k", b"hello", T0, [("a", b"1"), ("b", None)]),
        (None, None, T0 - 5, []),
        (b"", b"x" * 200, T0 + 70, []),
    ]
    out = build(
        rows,
        base_offset=1000,
        partition_leader_epoch=7,
        producer_id=123456789,
        producer_epoch=3,
        base_sequence=42,
        is_transactional=True,
    )

    def field(b):
        return zigzag(-1) if b is None else zigzag(len(b)) + b

    records = b""
    for i, (k, v, ts, headers) in enumerate(rows):
        body = b"\x00" + zigzag(ts - T0) + zigzag(i) + field(k) + field(v) + zigzag(len(headers))
        for hk, hv in headers:
            body += field(hk.encode()) + field(hv)
        records += zigzag(len(body)) + body
    after_crc = struct.pack(">hiqqqhii", 0x10, 2, T0, T0 + 70, 123456789, 3, 42, 3) + records
    head = struct.pack(">qiib", 1000, 4 + 1 + 4 + len(after_crc), 7, 2)
    want = head + struct.pack(">I", crc32c.crc32c(after_crc)) + after_crc
    assert out == want


def test_crc_is_crc32c_of_attributes_onwards():
    for codec in CODECS:
        out = build(sample(), compression=codec)
        (stored,) = struct.unpack_from(">I", out, 17)
        assert stored == crc32c.crc32c(out[21:])
        assert struct.unpack_from(">h", out, 21)[0] & 7 == CODEC_IDS[codec]
        assert struct.unpack_from(">i", out, 8)[0] == len(out) - 12


def test_legacy_layout_field_by_field():
    out0 = build([(b"k", b"val", T0, [])], magic=0, base_offset=5)
    msg0 = struct.pack(">bbi", 0, 0, 1) + b"k" + struct.pack(">i", 3) + b"val"
    want0 = struct.pack(">qiI", 5, 4 + len(msg0), zlib.crc32(msg0)) + msg0
    assert out0 == want0

    out1 = build([(None, b"val", T0, [])], magic=1, base_offset=5, timestamp_type=1)
    msg1 = struct.pack(">bbqi", 1, 0x08, T0, -1) + struct.pack(">i", 3) + b"val"
    want1 = struct.pack(">qiI", 5, 4 + len(msg1), zlib.crc32(msg1)) + msg1
    assert out1 == want1


def test_legacy_v1_wrapper_offsets_and_timestamp():
    rows = [(None, b"a", T0 + 9, []), (None, b"b", T0 + 2, []), (None, b"c", T0 + 4, [])]
    out = build(rows, magic=1, compression="gzip", base_offset=100)
    offset, _size, crc, magic, attrs, ts = struct.unpack_from(">qiIbbq", out)
    assert (offset, magic, attrs, ts) == (102, 1, 1, T0 + 9)
    assert crc == zlib.crc32(out[16:])
    # null key at 26, value length at 30
    (vlen,) = struct.unpack_from(">i", out, 30)
    assert struct.unpack_from(">i", out, 26)[0] == -1 and 34 + vlen == len(out)
    inner = zlib.decompress(out[34:], 31)
    # inner offsets are relative for v1
    assert [struct.unpack_from(">q", inner, p)[0] for p in (0, 35, 70)] == [0, 1, 2]


def test_legacy_v0_inner_offsets_absolute():
    rows = [(None, b"a", T0, []), (None, b"b", T0, [])]
    out = build(rows, magic=0, compression="gzip", base_offset=100)
    offset, _size, _crc, magic, attrs = struct.unpack_from(">qiIbb", out)
    assert (offset, magic, attrs) == (101, 0, 1)
    inner = zlib.decompress(out[26:], 31)
    assert [struct.unpack_from(">q", inner, p)[0] for p in (0, 27)] == [100, 101]


# ---- interop -----------------------------------------------------------------------------


@pytest.mark.parametrize("codec", CODECS)
def test_v2_decodes_in_aiokafka_kafka_python_and_ours(codec):
    rows = sample(9)
    out = build(rows, compression=codec, base_offset=77)
    want = expected(rows, 77)
    assert all_records(AioMemoryRecords, out) == want
    assert all_records(KpMemoryRecords, out) == want
    assert ours(out) == want
    (batch,) = read_batches(out, keep_control=True)
    assert (batch.base_offset, batch.record_count, batch.magic) == (77, 9, 2)
    assert batch.base_timestamp == rows[0][2]
    assert batch.max_timestamp == max(r[2] for r in rows)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", [None, "gzip", "snappy", "lz4"])
def test_legacy_decodes_everywhere(magic, codec):
    rows = [(k, v, ts, []) for k, v, ts, _ in sample(6)]
    out = build(rows, magic=magic, compression=codec, base_offset=31)
    want = expected(rows, 31, magic)
    assert ours(out) == [(o, ts if magic else -1, k, v, h) for o, ts, k, v, h in want]
    # aiokafka has no lz4 for magic 0; kafka-python needs xxhash for it (not a dependency)
    if not (magic == 0 and codec == "lz4"):
        assert all_records(AioMemoryRecords, out) == want
        assert all_records(KpMemoryRecords, out) == want


def test_v2_byte_identical_to_aiokafka_and_kafka_python():
    rows = sample(12)
    fields = dict(producer_id=9876, producer_epoch=4, base_sequence=17)
    aio = AioBuilder(2, 0, 1, 9876, 4, 17, 1 << 20)
    kp = KpBuilder(2, 0, True, 9876, 4, 17, 1 << 20)
    for i, (k, v, ts, h) in enumerate(rows):
        aio.append(i, ts, k, v, h)
        kp.append(i, ts, k, v, h)
    # aiokafka writes leader epoch -1, as Java's producer (and our default) does
    assert build(rows, is_transactional=True, **fields) == bytes(aio.build())
    # kafka-python writes 0 there
    assert build(rows, is_transactional=True, partition_leader_epoch=0, **fields) == bytes(
        kp.build()
    )


def test_v2_byte_identical_to_aiokafka_for_keys_values_and_headers_of_every_length():
    """Every length class the inline copy (src_c/record_write.h) treats apart: 0, 1-3, 4-7,
    8-15, 16-31, 32-128, 129-512 and longer, in keys, values, header keys and header values,
    each byte telling where it came from."""
    pattern = bytes(range(256)) * 3
    rows = []
    for n in [*range(140), 255, 256, 511, 512, 513, 700]:
        data = pattern[n % 7 : n % 7 + n]
        headers = [("k" * (n % 40), data), ("\u00e9" * (n % 5), data[: n // 2])]
        rows.append((data, data[::-1], T0 + n, headers))
    aio = AioBuilder(2, 0, 0, -1, -1, -1, 1 << 22)
    for i, (k, v, ts, h) in enumerate(rows):
        aio.append(i, ts, k, v, h)
    assert build(rows, max_bytes=1 << 22) == bytes(aio.build())


@pytest.mark.parametrize("magic", [0, 1])
def test_legacy_byte_identical_to_aiokafka_and_kafka_python(magic):
    rows = [(k, v, ts, []) for k, v, ts, _ in sample(7)]
    out = build(rows, magic=magic)
    aio = AioLegacyBuilder(magic, 0, 1 << 20)
    kp = KpLegacyBuilder(magic, 0, 1 << 20)
    for i, (k, v, ts, _) in enumerate(rows):
        aio.append(i, ts, k, v)
        kp.append(i, ts, k, v)
    assert out == bytes(aio.build()) == bytes(kp.build())


def test_buffer_protocol_inputs():
    ref = build([(b"key", b"value", T0, [("h", b"hv")])])
    b = BatchBuilder()
    b.append(
        memoryview(b"value"),
        key=bytearray(b"key"),
        timestamp=np.int64(T0),
        headers=iter([("h", np.frombuffer(b"hv", dtype=np.uint8))]),
    )
    assert b.build() == ref


def test_headers_none_is_no_headers():
    assert build([(None, b"v", T0, None)]) == build([(None, b"v", T0, [])])


def test_timestamp_none_is_now():
    import time

    before = int(time.time() * 1000)
    out = build([(None, b"x", None, [])])
    after = int(time.time() * 1000)
    assert before <= ours(out)[0][1] <= after


# ---- size limit --------------------------------------------------------------------------


@pytest.mark.parametrize("magic", [0, 1, 2])
@pytest.mark.parametrize("codec", [None, "lz4"])
def test_size_limit(magic, codec):
    b = BatchBuilder(magic=magic, compression=codec, max_bytes=300)
    assert b.append(b"x" * 1000, timestamp=T0)  # the first record always fits
    assert not b.append(b"y", timestamp=T0)
    assert b.record_count == 1
    assert b.is_full

    b = BatchBuilder(magic=magic, compression=codec, max_bytes=300)
    n = 0
    while b.append(b"z" * 10, key=b"k", timestamp=T0 + n):
        n += 1
        assert b.size_in_bytes <= 300
    assert b.record_count == n > 3
    size = b.size_in_bytes
    assert not b.append(b"z" * 10, key=b"k", timestamp=T0)
    assert b.size_in_bytes == size
    out = b.build()
    assert len(out) <= 300
    if codec is None:
        assert len(out) == size
    assert [r[3] for r in ours(out)] == [b"z" * 10] * n


@pytest.mark.parametrize("codec", ["gzip", "lz4"])
def test_incompressible_batch_stays_within_max_bytes(codec):
    import os

    b = BatchBuilder(compression=codec, max_bytes=2000)
    while b.append(os.urandom(100), timestamp=T0):
        pass
    out = b.build()
    assert len(out) <= 2000
    assert len(ours(out)) == b.record_count
    # a record alone over max_bytes that compression makes larger: sent as it is
    b = BatchBuilder(compression=codec, max_bytes=300)
    value = os.urandom(1000)
    assert b.append(value, timestamp=T0)
    out = b.build()
    assert struct.unpack_from(">h", out, 21)[0] & 7 == 0 and len(out) == b.size_in_bytes
    assert [r[3] for r in ours(out)] == [value]


@pytest.mark.parametrize("size", [1_000, 70_000, 1 << 20])
def test_lz4_batch_holds_the_frame_liblz4_writes(size):
    """The builder compresses in C straight into the batch: its records are the lz4
    package's frame (Kafka's settings) of the records the uncompressed batch holds, and the
    header and CRC cover them."""
    import lz4.frame

    rows = [(b"key-%d" % i, b"value %d " % i * 7, T0 + i, []) for i in range(size // 60)]
    plain, packed = BatchBuilder(max_bytes=size), BatchBuilder(compression="lz4", max_bytes=size)
    for k, v, t, _ in rows:
        assert plain.append(v, key=k, timestamp=t) == packed.append(v, key=k, timestamp=t)
    plain, packed = plain.build(), packed.build()
    frame = lz4.frame.compress(
        plain[61:],
        block_size=lz4.frame.BLOCKSIZE_MAX64KB,
        block_linked=False,
        content_checksum=False,
        store_size=False,
    )
    assert packed[61:] == frame
    assert struct.unpack_from(">h", packed, 21)[0] & 7 == 3
    assert packed[23:61] == plain[23:61]  # the same records, counts, offsets, times
    assert ours(packed) == ours(plain)


def test_is_full_and_size_in_bytes():
    b = BatchBuilder(max_bytes=61 + 7 * 3)
    assert b.size_in_bytes == 61 and not b.is_full
    for _ in range(3):
        assert b.append(None, timestamp=T0)
    assert b.is_full
    assert not b.append(None, timestamp=T0)


# ---- control batch -----------------------------------------------------------------------


@pytest.mark.parametrize("commit", [True, False])
def test_control_batch(commit):
    out = build_control_batch(
        commit=commit,
        producer_id=55,
        producer_epoch=2,
        coordinator_epoch=9,
        base_offset=400,
        timestamp=T0,
        partition_leader_epoch=3,
    )
    key = struct.pack(">hh", 0, int(commit))
    value = struct.pack(">hi", 0, 9)
    record = b"\x00" + zigzag(0) + zigzag(0) + zigzag(4) + key + zigzag(6) + value + zigzag(0)
    after_crc = struct.pack(">hiqqqhii", 0x30, 0, T0, T0, 55, 2, -1, 1)
    after_crc += zigzag(len(record)) + record
    head = struct.pack(">qiib", 400, 9 + len(after_crc), 3, 2)
    assert out == head + struct.pack(">I", crc32c.crc32c(after_crc)) + after_crc

    (batch,) = read_batches(out, keep_control=True)
    assert batch.is_control and batch.is_transactional
    assert batch.control_record.is_commit is commit
    assert batch.control_record.coordinator_epoch == 9
    (aio_batch,) = [AioMemoryRecords(out).next_batch()]
    assert aio_batch.is_control_batch and aio_batch.is_transactional


# ---- build_batches -----------------------------------------------------------------------


def per_record(rows, max_bytes=1 << 20, base_offset=0, base_sequence=-1, **kw):
    """What build_batches must equal: BatchBuilder, a new batch whenever one is full."""
    out = []
    offset, seq = base_offset, base_sequence

    def new():
        return BatchBuilder(max_bytes=max_bytes, base_offset=offset, base_sequence=seq, **kw)

    b = new()
    for k, v, ts, h in rows:
        if not b.append(v, key=k, timestamp=ts, headers=h):
            out.append(b.build())
            offset += b.record_count
            if seq >= 0:  # sequences wrap to 0 after INT32_MAX
                seq = (seq + b.record_count) % 2**31
            b = new()
            assert b.append(v, key=k, timestamp=ts, headers=h)
    out.append(b.build())
    return out


HEADER_TYPE = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))


def arrow_headers(rows):
    return pa.array([h for *_, h in rows], type=HEADER_TYPE)


def columns(rows):
    keys = [k for k, *_ in rows]
    values = [v for _, v, *_ in rows]
    ts = np.array([t for _, _, t, _ in rows], dtype=np.int64)
    return keys, values, ts


@pytest.mark.parametrize(
    "arrow_type", [pa.binary(), pa.large_binary(), pa.binary_view(), pa.string()]
)
@pytest.mark.parametrize("max_bytes", [1 << 20, 400])
def test_build_batches_arrow_equals_per_record(arrow_type, max_bytes):
    rows = [(k, v if v is None else v.replace(b"v", b"w"), t, h) for k, v, t, h in sample(40)]
    rows += [(b"long" * 5, b"L" * 40, T0, [])]  # past the 12 bytes kept inline in views
    keys, values, ts = columns(rows)
    if pa.types.is_string(arrow_type):
        conv = [None if v is None else v.decode() for v in values]
    else:
        conv = values
    got = build_batches(
        pa.array(conv, type=arrow_type),
        keys=pa.array(keys, type=arrow_type if arrow_type != pa.string() else pa.binary()),
        timestamps=pa.array(ts),
        headers=arrow_headers(rows),
        max_bytes=max_bytes,
        base_offset=10,
        producer_id=3,
        producer_epoch=1,
        base_sequence=2**31 - 5,
    )
    want = per_record(
        rows,
        max_bytes=max_bytes,
        base_offset=10,
        producer_id=3,
        producer_epoch=1,
        base_sequence=2**31 - 5,
    )
    assert got == want
    assert (len(got) > 1) == (max_bytes == 400)
    if len(got) > 1:
        seqs = [b.base_sequence for data in got for b in read_batches(data)]
        assert 0 <= seqs[-1] < seqs[0]  # wrapped past INT32_MAX, as Java does


def test_build_batches_chunked_sliced_and_timestamp_types():
    rows = [(k, v, t, []) for k, v, t, _ in sample(30)]
    keys, values, ts = columns(rows)
    arr = pa.array([b"pad", *values, b"pad"], type=pa.large_binary()).slice(1, len(rows))
    chunked_vals = pa.chunked_array([arr.slice(0, 7), arr.slice(7, 0), arr.slice(7)])
    chunked_keys = pa.chunked_array([pa.array(keys[:20]), pa.array(keys[20:])])
    want = per_record(rows, max_bytes=300)
    for stamps in (
        ts,
        pa.array(ts, type=pa.timestamp("ms")),
        pa.chunked_array([pa.array(ts[:3]), pa.array(ts[3:])]),
        ts.astype("datetime64[ms]"),
        pa.array(ts * 1000, type=pa.timestamp("us")),
    ):
        got = build_batches(chunked_vals, keys=chunked_keys, timestamps=stamps, max_bytes=300)
        assert got == want


def test_build_batches_numpy_and_list_inputs():
    values = [b"a", b"bb\x00x", b"", b"ccc"]
    rows = [(None, v, T0 + i, []) for i, v in enumerate(values)]
    ts = np.arange(4, dtype=np.int64) + T0
    want = per_record(rows)
    assert build_batches(values, timestamps=ts) == want
    assert build_batches([bytearray(v) for v in values], timestamps=list(ts)) == want
    assert build_batches(np.array(values, dtype="S4"), timestamps=ts) == want
    four = [v.ljust(4, b".") for v in values]
    assert build_batches(pa.array(four, pa.binary(4)), timestamps=ts) == per_record(
        [(None, v, t, []) for v, (_, _, t, _) in zip(four, rows, strict=True)]
    )
    tombstones = [(k, None, t, h) for k, _, t, h in rows]
    assert build_batches(pa.nulls(4), keys=pa.nulls(4), timestamps=ts) == per_record(tombstones)
    # numpy drops trailing NULs, as bytes(arr[i]) does
    padded = np.array([b"a\x00", b"b"], dtype="S3")
    assert build_batches(padded, timestamps=ts[:2]) == per_record(
        [(None, b"a", T0, []), (None, b"b", T0 + 1, [])]
    )


def test_build_batches_nulls_and_python_headers():
    rows = sample(12)
    keys, values, ts = columns(rows)
    headers = [h for *_, h in rows]
    got = build_batches(pa.array(values), keys=keys, timestamps=ts, headers=headers)
    assert got == per_record(rows)
    assert ours(got[0]) == expected(rows)


def test_build_batches_arrow_headers_sliced_with_null_lists():
    rows = sample(10)
    rows[4] = (*rows[4][:3], None)
    hdr = arrow_headers([(None, None, 0, [("pad", b"")]), *rows]).slice(1)
    assert hdr.null_count == 1
    rows[4] = (*rows[4][:3], [])
    keys, values, ts = columns(rows)
    got = build_batches(values, keys=keys, timestamps=ts, headers=hdr)
    assert got == per_record(rows)


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_build_batches_compressed(codec):
    rows = [(k, v, t, []) for k, v, t, _ in sample(50)]
    keys, values, ts = columns(rows)
    got = build_batches(
        pa.array(values), keys=keys, timestamps=ts, compression=codec, max_bytes=500
    )
    assert got == per_record(rows, max_bytes=500, compression=codec)
    assert [r for data in got for r in ours(data)] == expected(rows)


def test_build_batches_records_larger_than_max_bytes():
    rows = [(None, b"x" * 5000, T0, []), (b"k", b"y", T0, []), (None, b"z" * 3000, T0, [])]
    keys, values, ts = columns(rows)
    got = build_batches(values, keys=keys, timestamps=ts, max_bytes=100)
    assert got == per_record(rows, max_bytes=100)
    assert len(got) == 3


@pytest.mark.parametrize("max_bytes", [300, 16384, 1 << 20])
def test_build_batches_arrow_random_rows_equal_per_record(max_bytes):
    """The C row writer: lengths across varint sizes and the short-copy cutoffs, nulls,
    header sets above and below 64 bytes, far apart timestamps, chunk edges."""
    rng = np.random.default_rng(7)
    sizes = [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129, 513, 8191, 8192, 9000]

    def blob():
        return bytes(rng.integers(0, 256, int(rng.choice(sizes)), dtype=np.uint8))

    def hdrs():
        if rng.random() < 0.1:
            return []
        out = []
        for _ in range(int(rng.integers(0, 4))):
            v = None if rng.random() < 0.1 else blob()[: int(rng.choice([0, 5, 16, 40, 300]))]
            out.append(("k" * int(rng.choice([0, 1, 8, 12, 40, 70])), v))
        return out

    stamps = [T0, T0 + 1, T0 - 5, T0 + 10**9, -1, 0, 2**62]
    rows = [
        (
            None if rng.random() < 0.1 else blob(),
            None if rng.random() < 0.1 else blob(),
            int(rng.choice(stamps)),
            hdrs(),
        )
        for _ in range(400)
    ]
    keys, values, ts = columns(rows)
    want = per_record(rows, max_bytes=max_bytes)
    hdr = arrow_headers(rows)
    assert (
        build_batches(
            pa.array(values), keys=pa.array(keys), timestamps=ts, headers=hdr, max_bytes=max_bytes
        )
        == want
    )
    chunked = pa.chunked_array([pa.array(values[:150]), pa.array(values[150:])])
    assert (
        build_batches(chunked, keys=pa.array(keys), timestamps=ts, headers=hdr, max_bytes=max_bytes)
        == want
    )
    # no nulls at all, and no headers: the loop without validity checks
    plain = [(k or b"", v or b"", t, []) for k, v, t, _ in rows]
    keys, values, ts = columns(plain)
    assert build_batches(
        pa.array(values), keys=pa.array(keys), timestamps=ts, max_bytes=max_bytes
    ) == per_record(plain, max_bytes=max_bytes)
    assert build_batches(pa.array(values), timestamps=ts, max_bytes=max_bytes) == per_record(
        [(None, v, t, []) for _, v, t, _ in plain], max_bytes=max_bytes
    )


@pytest.mark.parametrize("max_bytes", [300, 16384])
def test_build_batches_rows_equal_the_rows_gathered_first(max_bytes):
    """rows= (the producer's per-partition gather) writes what the gathered columns would:
    Arrow (chunked, sliced, nulls, headers), numpy 'S<n>' and Python lists, and timestamps
    indexed by row."""
    rng = np.random.default_rng(11)
    rows = [
        (
            None if rng.random() < 0.1 else bytes(rng.integers(0, 256, int(n), dtype=np.uint8)),
            None if rng.random() < 0.1 else b"v" * int(rng.integers(0, 200)),
            T0 + int(rng.integers(0, 10**6)),
            [("h", b"x" * int(rng.integers(0, 70)))] if rng.random() < 0.5 else [],
        )
        for n in rng.integers(0, 40, 300)
    ]
    keys, values, ts = columns(rows)
    hdr = arrow_headers(rows)
    chunked = pa.chunked_array([pa.array(values[:100]), pa.array(values[100:])])
    for pick in (np.flatnonzero(rng.random(300) < 0.3), np.arange(300), [0, 1, 2, 299], []):
        pick = np.asarray(pick, dtype=np.int64)
        chosen = [rows[i] for i in pick]
        want = per_record(chosen, max_bytes=max_bytes) if chosen else []
        for vals in (pa.array(values), chunked, values):
            got = build_batches(
                vals,
                keys=pa.array(keys),
                timestamps=ts,
                headers=hdr,
                rows=pick,
                max_bytes=max_bytes,
            )
            assert got == want
        plain = [(k or b"", v or b"", t, []) for k, v, t, _ in chosen]
        no_nulls = [(k or b"", v or b"", t, []) for k, v, t, _ in rows]
        k2, v2, _ = columns(no_nulls)
        got = build_batches(
            pa.array(v2), keys=pa.array(k2), timestamps=ts, rows=pick, max_bytes=max_bytes
        )
        assert got == (per_record(plain, max_bytes=max_bytes) if plain else [])
        fixed_v = np.array([(v or b"").ljust(200, b".") for v in values], dtype="S200")
        got = build_batches(fixed_v, timestamps=ts, rows=pick.tolist(), max_bytes=max_bytes)
        fixed_rows = [
            (None, fixed_v[i].tobytes(), t, []) for i, (*_, t, _) in zip(pick, plain, strict=True)
        ]
        assert got == (per_record(fixed_rows, max_bytes=max_bytes) if fixed_rows else [])


def test_build_batches_rows_checked():
    with pytest.raises(EncodeError, match=r"rows: indices must be in \[0, 2\)"):
        build_batches([b"a", b"b"], rows=[0, 2])
    with pytest.raises(EncodeError, match="rows: indices must be in"):
        build_batches([b"a", b"b"], rows=[-1])
    with pytest.raises(EncodeError, match="rows: indices must ascend"):
        build_batches(pa.array([b"a", b"b"]), rows=[1, 0])
    with pytest.raises(EncodeError, match="rows: expected integer row indices, not float64"):
        build_batches([b"a", b"b"], rows=[0.5, 1.7])
    with pytest.raises(EncodeError, match="rows: expected integer row indices"):
        build_batches([b"a", b"b"], rows=["a"])
    with pytest.raises(EncodeError, match="rows: expected a 1-D array"):
        build_batches([b"a", b"b"], rows=[[0]])


def test_iter_batches_gives_build_batches_one_at_a_time():
    """iter_batches encodes a batch when it is asked for, the same bytes as build_batches;
    the columns are checked before the first."""
    rng = np.random.default_rng(3)
    values = [bytes(rng.integers(0, 256, int(n), dtype=np.uint8)) for n in rng.integers(0, 90, 400)]
    keys = [b"k%d" % i if i % 5 else None for i in range(400)]
    pick = np.flatnonzero(rng.random(400) < 0.5)
    args = {"keys": pa.array(keys), "timestamps": np.arange(400) + T0, "max_bytes": 700}
    for rows in (None, pick):
        want = build_batches(pa.array(values), rows=rows, **args)
        assert len(want) > 5
        it = iter_batches(pa.array(values), rows=rows, **args)
        assert next(it) == want[0]
        assert [want[0], *it] == want
        assert next(it, None) is None
    assert list(iter_batches([])) == []
    with pytest.raises(EncodeError, match="keys: expected 400 rows, got 2"):
        iter_batches(values, keys=[b"a", b"b"])


def test_group_rows_is_a_stable_sort_by_partition():
    rng = np.random.default_rng(5)
    for count, n in ((8, 10_000), (1, 5), (300, 2_000), (4, 0)):
        parts = rng.integers(0, count, n).astype(np.int32)
        rows, starts = group_rows(parts, count)
        assert rows.dtype == np.int64 and starts.tolist()[0] == 0 and starts[-1] == n
        assert rows.tolist() == np.argsort(parts, kind="stable").tolist()
        for p in range(count):
            assert (parts[rows[starts[p] : starts[p + 1]]] == p).all()
    with pytest.raises(ValueError, match=r"row 2: partition 4 is not in \[0, 4\)"):
        group_rows(np.array([0, 1, 4], np.int32), 4)
    with pytest.raises(ValueError, match="partition -1"):
        group_rows(np.array([-1], np.int32), 4)
    with pytest.raises(ValueError, match="num_partitions must be positive"):
        group_rows(np.array([0], np.int32), 0)


def test_build_batches_empty_and_default_timestamps():
    assert build_batches([]) == []
    (out,) = build_batches([b"a", None])
    recs = ours(out)
    assert recs[0][1] == recs[1][1] > T0


# ---- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(magic=3),
        dict(producer_epoch=40000),
        dict(producer_id=2**63),
        dict(producer_id=-2),
        dict(base_sequence=2**31),
        dict(partition_leader_epoch=-2),
        dict(base_offset=-1),
        dict(max_bytes=0),
        dict(timestamp_type=2),
        dict(compression="brotli"),
        dict(magic=1, compression="zstd"),
        dict(magic=1, producer_id=5),
        dict(magic=0, timestamp_type=1),
        dict(producer_epoch="1"),
    ],
)
def test_bad_builder_arguments(kwargs):
    with pytest.raises(EncodeError):
        BatchBuilder(**kwargs)


class _Name(str):
    pass


def test_header_keys_of_every_str_kind_and_values_of_every_bytes_like():
    """ASCII keys are read in place, others through their UTF-8 (1-, 2- and 4-byte kinds, a
    str subclass); values of bytes or other buffers; headers as a list, a tuple or an
    iterator, pairs as tuples, lists or iterators of objects only they hold: each record
    reads back with its headers."""
    pairs = [
        ("trace-id", b"\x00" * 16),
        ("\u00e9t\u00e9", bytearray(b"latin-1")),
        ("\u043a\u043b\u044e\u0447", memoryview(b"two-byte kind")),
        ("\U0001f600", None),
        (_Name("subclass"), b""),
    ]
    want = [(str(k), None if v is None else bytes(v)) for k, v in pairs]

    def fresh_pairs():  # pairs that are not tuples, of objects nothing else holds
        return [iter([str(k).join("()")[1:-1], v if v is None else bytes(v)]) for k, v in pairs]

    b = BatchBuilder()
    for headers in (pairs, tuple(pairs), iter(pairs), fresh_pairs(), [list(p) for p in pairs]):
        assert b.append(b"v", key=b"k", timestamp=T0, headers=headers)
    assert [r.headers for batch in read_batches(b.build()) for r in batch] == [want] * 5


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (("text",), {}),
        ((b"v",), dict(key=5)),
        ((b"v",), dict(timestamp=1.5)),
        ((b"v",), dict(timestamp=-2)),
        ((b"v",), dict(timestamp=True)),
        ((b"v",), dict(headers=[(b"bytes-key", b"v")])),
        ((b"v",), dict(headers=[("k", "str value")])),
        ((b"v",), dict(headers=[("k",)])),
        ((b"v",), dict(headers=5)),
        ((b"v",), dict(headers=[("\ud800", b"lone surrogate")])),
    ],
)
def test_bad_append_arguments(args, kwargs):
    b = BatchBuilder()
    with pytest.raises(EncodeError):
        b.append(*args, **kwargs)
    assert b.record_count == 0


def test_views_released_after_a_failed_append():
    buf = bytearray(b"value")
    b = BatchBuilder()
    with pytest.raises(EncodeError):
        b.append(buf, key="not bytes")
    buf.extend(b"more")  # would raise BufferError if the builder still held a view


def test_headers_rejected_in_legacy_formats():
    for magic in (0, 1):
        with pytest.raises(EncodeError):
            BatchBuilder(magic=magic).append(b"v", headers=[("k", b"v")])


def test_build_once_and_no_append_after():
    b = BatchBuilder()
    b.append(b"v")
    b.build()
    with pytest.raises(EncodeError):
        b.build()
    with pytest.raises(EncodeError):
        b.append(b"v")
    with pytest.raises(EncodeError):
        BatchBuilder().build()  # no records


def test_control_batch_errors():
    with pytest.raises(EncodeError):
        build_control_batch(commit=True, producer_id=-1, producer_epoch=0)
    with pytest.raises(EncodeError):
        build_control_batch(commit=True, producer_id=1, producer_epoch=2**15)


def test_build_batches_errors():
    with pytest.raises(EncodeError):
        build_batches([b"a"], keys=[b"a", b"b"])
    with pytest.raises(EncodeError):
        build_batches(pa.array([1, 2]))
    with pytest.raises(EncodeError):
        build_batches(np.array([1, 2]))
    with pytest.raises(EncodeError):
        build_batches(b"not a column")
    with pytest.raises(EncodeError):
        build_batches(["text"])
    with pytest.raises(EncodeError):
        build_batches([b"a"], timestamps=np.array([1.5]))
    with pytest.raises(EncodeError):
        build_batches([b"a"], timestamps=[-5])
    null_key = pa.array([[{"key": None, "value": b"v"}]], type=HEADER_TYPE)
    with pytest.raises(EncodeError):
        build_batches([b"a"], headers=null_key)
    bad_struct = pa.array([[{"k": "x"}]])
    with pytest.raises(EncodeError):
        build_batches([b"a"], headers=bad_struct)
    with pytest.raises(EncodeError):
        build_batches([b"a"], producer_epoch=-5)
