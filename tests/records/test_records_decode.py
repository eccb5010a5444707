"""Decoding records: batches made by the independent test encoder
(tests/kafka_bytes.py) and by other clients' builders."""

from __future__ import annotations

import gc
import struct
import tracemalloc

import crc32c as crc32c_pkg
import numpy as np
import pytest

import kafkawire
from kafkawire import (
    CorruptError,
    CrcError,
    DecodeError,
    TruncatedError,
    UnsupportedError,
    decode_records,
    read_batches,
)
from kafkawire.records import crc32c, crc32c_implementation
from kafkawire.records._decode import crc32c_using
from tests.support import kafka_bytes as kb

TS = 1_700_000_000_000


def sample_records(n=5, with_headers=True):
    out = []
    for i in range(n):
        key = None if i % 3 == 2 else f"k{i}".encode()
        value = None if i == 3 else (b"v" * i)
        headers = [("h", b"1"), ("h", None), ("z\u00e9", b"")] if with_headers and i % 2 else []
        out.append((i, TS + 10 * i, key, value, headers))
    return out


def encode_sample(recs, **kw):
    return kb.v2_batch(
        [kb.record(o, ts - TS, k, v, h) for o, ts, k, v, h in recs], base_timestamp=TS, **kw
    )


def as_tuples(records):
    return [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in records]


# ---- CRC ---------------------------------------------------------------------


def _crc32c_implementations():
    names = ["portable", "sse4.2", "armv8-crc", "avx512-vpclmulqdq"]
    have = []
    for name in names:
        try:
            crc32c_using(name, b"")
        except ValueError:
            continue
        have.append(name)
    return have


def test_crc32c_known_vector_and_implementations_agree():
    assert crc32c(b"123456789") == 0xE3069283
    have = _crc32c_implementations()
    assert "portable" in have and crc32c_implementation() in have
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 100_000, dtype=np.uint8).tobytes()
    # lengths around every stage of the folding path (256-byte loop, 64- and
    # 16-byte tails, the CRC-instruction fallback below 256) and the streams
    lengths = [0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 255, 256, 257, 319, 320, 511, 512, 513]
    lengths += [769, 1000, 4096 + 48, 8192 * 3 + 5, 60_000]
    for impl in have:
        assert crc32c_using(impl, b"123456789") == 0xE3069283
        for start in range(9):
            for length in lengths:
                chunk = data[start : start + length]
                expected = crc32c_pkg.crc32c(chunk)
                assert crc32c_using(impl, chunk) == expected, (impl, start, length)
                # a running value joins the first bytes
                assert crc32c_using(impl, chunk, 0xDEADBEEF) == crc32c_pkg.crc32c(chunk, 0xDEADBEEF)
    for start in range(9):
        for length in lengths:
            chunk = data[start : start + length]
            assert crc32c(chunk) == crc32c_pkg.crc32c(chunk)
    assert crc32c(data[500:], crc32c(data[:500])) == crc32c(data)
    with pytest.raises(ValueError, match="not available"):
        crc32c_using("no-such-code", b"")


def test_crc32c_every_length_up_to_2k_every_implementation():
    data = np.random.default_rng(2).integers(0, 256, 2048, dtype=np.uint8).tobytes()
    for impl in _crc32c_implementations():
        for length in range(2049):
            chunk = data[:length]
            assert crc32c_using(impl, chunk, 7) == crc32c_pkg.crc32c(chunk, 7), (impl, length)


# ---- v2 batches -----------------------------------------------------------------


def test_v2_batch_all_fields_and_records():
    recs = sample_records()
    buf = encode_sample(
        recs,
        base_offset=1000,
        partition_leader_epoch=9,
        producer_id=4242,
        producer_epoch=3,
        base_sequence=17,
        attributes=0x10,
        max_timestamp=TS + 40,
    )
    (batch,) = list(read_batches(buf))
    assert batch.base_offset == 1000
    assert batch.last_offset == 1004
    assert batch.next_offset == 1005
    assert batch.partition_leader_epoch == 9
    assert batch.magic == 2
    assert batch.crc == struct.unpack(">I", buf[17:21])[0]
    assert batch.attributes == 0x10
    assert batch.compression == kafkawire.Codec.NONE
    assert batch.timestamp_type == 0
    assert batch.is_transactional and not batch.is_control and not batch.has_delete_horizon
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence) == (4242, 3, 17)
    assert (batch.base_timestamp, batch.max_timestamp) == (TS, TS + 40)
    assert batch.record_count == len(batch) == 5
    assert batch.byte_offset == 0 and batch.size_in_bytes == len(buf)
    assert bytes(batch.raw()) == buf
    expected = [(1000 + o, ts, k, v, h) for o, ts, k, v, h in recs]
    assert as_tuples(batch) == expected

    view = decode_records(buf)
    assert len(view) == 5
    assert view.offsets.dtype == np.int64 and view.offsets.tolist() == [e[0] for e in expected]
    assert view.timestamps.tolist() == [e[1] for e in expected]
    assert [None if k is None else bytes(k) for k in view.keys] == [e[2] for e in expected]
    assert view.values.to_pylist() == [e[3] for e in expected]
    assert view.values.lengths.tolist() == [-1 if e[3] is None else len(e[3]) for e in expected]
    assert [view.headers(i) for i in range(5)] == [e[4] for e in expected]
    assert as_tuples(view) == expected
    assert view[-1] == batch.records()[-1]
    assert view.next_offset == 1005 and view.leftover_bytes == 0
    b = view.batches
    assert b["producer_id"].tolist() == [4242] and b["is_transactional"].tolist() == [True]
    assert view.batch_index.tolist() == [0] * 5


def test_headers_repeated_keys_kept_in_wire_order():
    buf = encode_sample([(0, TS, b"k", b"v", [("a", b"1"), ("b", None), ("a", b"2")])])
    assert decode_records(buf).headers(0) == [("a", b"1"), ("b", None), ("a", b"2")]


def test_repeated_header_pairs_are_shared_and_never_confused():
    # Pairs equal to the previous record's at the same position are reused;
    # anything that differs (value, null, key, a non-ASCII key, a longer list)
    # must be made afresh.
    headers = [
        [("ct", b"json"), ("id", b"1")],
        [("ct", b"json"), ("id", b"2")],
        [("ct", b"jsoN"), ("id", None)],
        [("ct", None), ("id", None)],
        [("cT", None), ("id", b"")],
        [("c\u00e9", b""), ("id", b""), ("x", b"y")],
        [("c\u00e9", b""), ("id", b""), ("x", b"y")] + [(f"h{i}", b"v") for i in range(12)],
        [],
        [("ct", b"json"), ("id", b"1")],
    ]
    recs = [(i, TS + i, b"k", b"v", h) for i, h in enumerate(headers)]
    buf = encode_sample(recs)
    (batch,) = read_batches(buf)
    for records in (list(batch), batch.records()):  # lazy iterator, then the list
        assert [r.headers for r in records] == headers
        assert records[1].headers[0] is records[0].headers[0]  # ("ct", b"json") shared
        assert records[1].headers[1] is not records[0].headers[1]
        # tuples of str and bytes are left out of the cycle collector
        assert not any(gc.is_tracked(t) for r in records for t in r.headers)
    assert [decode_records(buf).headers(i) for i in range(len(headers))] == headers


def test_header_sharing_compares_every_byte_of_keys_and_values():
    # The comparison behind sharing reads words, not bytes, for 4 to 16 bytes:
    # a difference at any position of any length must be seen.
    headers = []
    for length in range(21):
        base = bytes(range(65, 65 + length))
        for i in range(length):
            other = base[:i] + b"~" + base[i + 1 :]
            headers += [[(base.decode(), base)], [(base.decode(), other)]]
            headers += [[(base.decode(), base)], [(other.decode(), base)]]
        headers += [[(base.decode(), base)], [(base.decode(), base)]]
    recs = [(i, TS + i, None, b"v", h) for i, h in enumerate(headers)]
    (batch,) = read_batches(encode_sample(recs))
    records = batch.records()
    assert [r.headers for r in records] == headers
    for a, b in zip(records[::2], records[1::2], strict=True):
        assert (a.headers[0] is b.headers[0]) == (a.headers == b.headers)


def test_record_fields_are_read_only_member_slots():
    (batch,) = read_batches(encode_sample(sample_records(2)))
    r = batch.records()[1]
    for name in ("offset", "timestamp", "key", "value"):
        # member slots: CPython specializes loads of them (see _records.pyx)
        assert type(kafkawire.Record.__dict__[name]).__name__ == "member_descriptor"
        with pytest.raises(AttributeError):
            setattr(r, name, None)
    assert (r.offset, r.timestamp, r.key, r.value) == (1, TS + 10, b"k1", b"v")


def test_batch_iteration_is_lazy_and_outlives_the_reader():
    recs = sample_records(6)
    buf = bytearray(encode_sample(recs))
    (batch,) = read_batches(buf)  # a writable input is copied (buffer policy)
    it = iter(batch)
    first = next(it)
    del batch
    buf[:] = b"\0" * len(buf)
    gc.collect()
    assert as_tuples([first, *it]) == recs
    assert list(it) == []
    (batch,) = read_batches(encode_sample(recs))
    assert as_tuples(batch) == as_tuples(batch) == recs  # twice, made anew
    records = batch.records()
    # after records(): iteration walks the cached list
    assert all(a is b for a, b in zip(batch, records, strict=True))


def _snappy(data):
    from kafkawire.compression import Codec, compress

    return compress(Codec.SNAPPY, data)


def test_compressed_batches_hold_their_own_payloads():
    # read_batches keeps no decompressed payload itself: each batch holds its
    # own, so batches kept past the reader still decode, and payloads of
    # batches already dropped are freed while the loop goes on.
    value = b"x" * 1000
    batch_recs = [kb.record(i, i, b"k%d" % i, value, []) for i in range(1024)]  # ~1 MiB
    payload_size = len(b"".join(batch_recs))
    buf = b"".join(
        kb.v2_batch(batch_recs, base_offset=1024 * k, attributes=2, compress=_snappy)
        for k in range(20)
    )
    kept = list(read_batches(buf))
    assert [r.offset for r in kept[7]][:2] == [7 * 1024, 7 * 1024 + 1]
    assert all(r.value == value for b in kept for r in b)
    del kept
    tracemalloc.start()
    try:
        n = 0
        for batch in read_batches(buf):
            n += sum(1 for _ in batch)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == 20 * 1024
    assert peak < 3 * payload_size  # not the 20 payloads together


def test_recycled_bytes_never_change_under_a_holder_and_hash_afresh():
    # Dropped records' keys and values are rewritten in place for later
    # records (see _records.pyx): a value someone still holds must keep its
    # contents, and a rewritten one must not keep its old hash.
    recs = [(i, TS + i, b"key-%04d" % i, b"value-%06d" % (i % 50), []) for i in range(400)]
    buf = encode_sample(recs)
    held, seen = [], {}
    for batch in read_batches(buf):
        for r in batch:
            seen.setdefault(r.value, r.offset)  # hashed, then dropped with the record
            if r.offset % 7 == 0:
                held.append((r.key, r.value))
    assert held == [(k, v) for i, _, k, v, _ in recs if i % 7 == 0]
    # a stale hash would put equal values under different keys of the dict
    assert seen == {b"value-%06d" % j: j for j in range(50)}
    assert all(hash(v) == hash(bytes(bytearray(v))) for _, v in held)


def test_recycled_bytes_take_every_length_exactly():
    # A recycled key or value is refilled in place for a record of the same
    # length: every length from 0 to 300 bytes, three records a length so
    # that each record reuses the bytes of the one two before it, must come
    # out exactly, with nothing of the old contents.
    recs = []
    for n in range(301):
        for j in range(3):
            fill = bytes((n * 7 + j * 31 + i) % 251 for i in range(n))
            recs.append((len(recs), TS, fill[::-1], fill, []))
    buf = encode_sample(recs)
    got = [(r.key, r.value) for batch in read_batches(buf) for r in batch]
    assert got == [(k, v) for _, _, k, v, _ in recs]
    checked = 0
    for batch in read_batches(buf):
        for r in batch:  # the loop drops each record: its bytes are recycled
            _, _, k, v, _ = recs[r.offset]
            assert r.key == k and r.value == v and len(r.value) == len(v)
            checked += 1
    assert checked == len(recs)


def test_records_from_the_free_list_start_afresh():
    # Dropped records go to Record's free list and come back as later records:
    # none may keep a field of its past life, and one still held must not
    # change.
    # Every third record has headers, so a loop's record (the object of the
    # record two before it) often differs from its past life in that.
    recs = [
        (
            i,
            TS + i,
            b"k%d" % i,
            None if i % 4 == 3 else b"v%d" % i,
            [("h", b"%d" % i)] * (i % 3 == 0),
        )
        for i in range(1000)
    ]
    buf = encode_sample(recs)
    held = []
    for batch in read_batches(buf):
        for r in batch:
            i = r.offset
            assert (r.timestamp, r.key, r.value, r.headers) == recs[i][1:]
            if i % 9 == 0:
                held.append(r)
    assert [(r.offset, r.key, r.value, r.headers) for r in held] == [
        (i, k, v, h) for i, _, k, v, h in recs if i % 9 == 0
    ]


def test_recycled_headers_lists_never_change_under_a_holder():
    # A dropped record's headers list is refilled for a later record with as
    # many headers (see _records.pyx): a list someone still holds, or changed
    # before dropping it, must not show up again or change.
    def headers_of(i):
        return [("trace", b"t%05d" % i)] + [("n", b"%d" % j) for j in range(i % 3)]

    recs = [(i, TS + i, None, b"v", headers_of(i)) for i in range(600)]
    buf = encode_sample(recs)
    held = {}
    for batch in read_batches(buf):
        for r in batch:
            h = r.headers
            assert h == headers_of(r.offset)
            if r.offset % 5 == 0:
                held[r.offset] = h
            elif r.offset % 5 == 1:
                h.append(("mine", None))  # dropped after a change by the user
            elif r.offset % 5 == 2:
                h[0] = "replaced"
            del h
    assert held == {i: headers_of(i) for i in range(0, 600, 5)}
    objs = gc.get_objects()  # may hand out lists the recycling ring holds
    assert all(r.headers == headers_of(r.offset) for b in read_batches(buf) for r in b)
    del objs


def test_log_append_time_gives_every_record_max_timestamp():
    recs = sample_records(4, with_headers=False)
    buf = encode_sample(recs, attributes=0x08, max_timestamp=TS + 99_999)
    (batch,) = read_batches(buf)
    assert batch.timestamp_type == 1
    assert [r.timestamp for r in batch] == [TS + 99_999] * 4
    assert decode_records(buf).timestamps.tolist() == [TS + 99_999] * 4


def test_delete_horizon_attribute():
    buf = encode_sample(sample_records(2), attributes=0x40)
    (batch,) = read_batches(buf)
    assert batch.has_delete_horizon and batch.delete_horizon_ms == TS


def test_empty_batch_advances_next_offset():
    empty = kb.v2_batch([], base_offset=50, last_offset_delta=4)
    after = encode_sample(sample_records(1), base_offset=55)
    view = decode_records(empty + after)
    assert len(view) == 1 and view.offsets.tolist() == [55]
    assert view.num_batches == 2 and view.next_offset == 56
    only_empty = decode_records(empty)
    assert len(only_empty) == 0 and only_empty.next_offset == 55
    batches = list(read_batches(empty))
    assert batches[0].record_count == 0 and list(batches[0]) == [] and batches[0].next_offset == 55


def test_many_batches_and_zero_copy_values():
    bufs = [encode_sample(sample_records(3), base_offset=3 * i) for i in range(50)]
    data = b"".join(bufs)
    view = decode_records(data)
    assert len(view) == 150 and view.offsets.tolist() == list(range(150))
    value = view.value(4)
    assert isinstance(value, memoryview) and value.obj is not None
    assert bytes(value) == b"v"
    # the view keeps the input alive
    data_id = id(data)
    del data
    gc.collect()
    assert bytes(view.value(4)) == b"v"
    assert id(view.value(4).obj) == data_id


def test_bytearray_viewed_in_place_cannot_be_resized_under_a_view():
    # copy=False: the view reads the bytearray itself (the default copies it; see
    # tests/test_buffer_policy.py)
    data = bytearray(encode_sample(sample_records(2)))
    view = decode_records(data, copy=False)
    with pytest.raises(BufferError):
        data.extend(b"x")
    del view
    gc.collect()
    data.extend(b"x")


def test_control_batches_parsed_and_flagged():
    commit = kb.v2_batch(
        [kb.control_record(True, 11)], base_offset=7, attributes=0x30, producer_id=5
    )
    (batch,) = read_batches(commit, keep_control=True)
    assert batch.is_control and batch.is_transactional
    ctrl = batch.control_record
    assert ctrl.is_commit and ctrl.type == 1 and ctrl.version == 0
    assert ctrl.coordinator_epoch == 11
    view = decode_records(commit, keep_control=True)
    assert view.batches["is_control"].tolist() == [True]
    assert view.control_record(0).is_abort is False
    plain = encode_sample(sample_records(1))
    assert decode_records(plain).control_record(0) is None


def test_read_committed_drops_aborted_and_control():
    p1, p2 = 1001, 1002

    def txn(base, pid, n):
        recs = [kb.record(i, 0, None, f"{pid}-{base + i}".encode()) for i in range(n)]
        return kb.v2_batch(recs, base_offset=base, attributes=0x10, producer_id=pid)

    def marker(base, pid, commit):
        return kb.v2_batch(
            [kb.control_record(commit)], base_offset=base, attributes=0x30, producer_id=pid
        )

    data = (
        txn(0, p1, 2)
        + txn(2, p2, 2)
        + marker(4, p1, False)
        + marker(5, p2, True)
        + encode_sample([(0, TS, None, b"plain", [])], base_offset=6)
        + txn(7, p1, 1)  # a new transaction of p1 after its abort: kept
    )
    uncommitted = decode_records(data)  # the markers at 4 and 5 are left out
    assert uncommitted.offsets.tolist() == [0, 1, 2, 3, 6, 7]
    assert decode_records(data, keep_control=True).offsets.tolist() == list(range(8))
    committed = decode_records(data, aborted_transactions=[(p1, 0)])
    assert committed.offsets.tolist() == [2, 3, 6, 7]
    assert committed.values.to_pylist() == [b"1002-2", b"1002-3", b"plain", b"1001-7"]
    objs = [r.offset for b in read_batches(data, aborted_transactions=[(p1, 0)]) for r in b]
    assert objs == [2, 3, 6, 7]

    class Aborted:  # fetch-response objects with attributes work too
        producer_id = p1
        first_offset = 0

    assert decode_records(data, aborted_transactions=[Aborted()]).offsets.tolist() == [2, 3, 6, 7]


def test_partial_trailing_batch_is_reported():
    first = encode_sample(sample_records(2))
    second = encode_sample(sample_records(2), base_offset=2)
    data = first + second[:30]
    reader = read_batches(data)
    assert [b.base_offset for b in reader] == [0]
    assert reader.leftover_bytes == 30
    view = decode_records(data)
    assert len(view) == 2 and view.leftover_bytes == 30
    with pytest.raises(TruncatedError, match="no complete record batch"):
        decode_records(second[:-1])
    with pytest.raises(TruncatedError, match="no complete record batch"):
        list(read_batches(second[:-1]))
    assert len(decode_records(b"")) == 0


def test_mixed_magic_buffer():
    data = (
        kb.legacy_message(0, 0, b"k0", b"v0")
        + kb.legacy_message(1, 1, None, b"v1", timestamp=TS + 1)
        + encode_sample([(0, TS + 2, b"k2", b"v2", [])], base_offset=2)
    )
    view = decode_records(data)
    assert view.offsets.tolist() == [0, 1, 2]
    assert view.timestamps.tolist() == [-1, TS + 1, TS + 2]
    assert view.timestamp_types.tolist() == [-1, 0, 0]
    assert view.keys.to_pylist() == [b"k0", None, b"k2"]
    assert [b.magic for b in read_batches(data)] == [0, 1, 2]


# ---- legacy message sets -----------------------------------------------------


@pytest.mark.parametrize("magic", [0, 1])
def test_legacy_plain_messages(magic):
    data = b"".join(
        kb.legacy_message(magic, 10 + i, None if i == 1 else b"k", b"val%d" % i, timestamp=TS + i)
        for i in range(4)
    )
    batches = list(read_batches(data))
    assert len(batches) == 4
    assert batches[1].producer_id == -1 and batches[1].timestamp_type == (-1 if magic == 0 else 0)
    recs = [r for b in batches for r in b]
    assert [r.offset for r in recs] == [10, 11, 12, 13]
    assert [r.key for r in recs] == [b"k", None, b"k", b"k"]
    assert [r.timestamp for r in recs] == ([-1] * 4 if magic == 0 else [TS + i for i in range(4)])
    assert decode_records(data).values.to_pylist() == [b"val%d" % i for i in range(4)]


def test_legacy_bad_crc():
    msg = bytearray(kb.legacy_message(1, 0, b"k", b"v"))
    msg[-1] ^= 1
    with pytest.raises(CrcError) as info:
        decode_records(bytes(msg))
    assert info.value.offset == 12 and info.value.batch_offset == 0
    assert len(decode_records(bytes(msg), verify_crc=False)) == 1


# ---- other clients' builders -------------------------------------------------


def kafka_python_batch(recs, codec=0, magic=2):
    from kafka.record.default_records import DefaultRecordBatchBuilder
    from kafka.record.legacy_records import LegacyRecordBatchBuilder

    if magic == 2:
        builder = DefaultRecordBatchBuilder(2, codec, False, -1, -1, -1, 10**7)
        for i, (ts, k, v, h) in enumerate(recs):
            builder.append(i, ts, k, v, [(hk, hv) for hk, hv in h])
    else:
        builder = LegacyRecordBatchBuilder(magic, codec, 10**7)
        for i, (ts, k, v, _h) in enumerate(recs):
            builder.append(i, ts, k, v)
    return bytes(builder.build())


def aiokafka_batch(recs, codec=0):
    from aiokafka.record._crecords import DefaultRecordBatchBuilder

    builder = DefaultRecordBatchBuilder(2, codec, 0, -1, -1, -1, 10**7)
    for i, (ts, k, v, h) in enumerate(recs):
        builder.append(i, ts, k, v, list(h))
    return bytes(builder.build())


PEER_RECORDS = [
    (
        TS + i,
        None if i % 4 == 0 else b"key-%d" % i,
        b"value-%d" % i * (i % 7),
        [("x", b"%d" % i)] * (i % 3),
    )
    for i in range(200)
]
CODECS = [0, 1, 2, 3, 4]


@pytest.mark.parametrize("codec", CODECS, ids=["none", "gzip", "snappy", "lz4", "zstd"])
@pytest.mark.parametrize("peer", ["kafka-python", "aiokafka"])
def test_peer_built_v2_batches_decode(peer, codec):
    buf = (kafka_python_batch if peer == "kafka-python" else aiokafka_batch)(PEER_RECORDS, codec)
    expected = [
        (i, ts, k, v, [(hk, hv) for hk, hv in h]) for i, (ts, k, v, h) in enumerate(PEER_RECORDS)
    ]
    (batch,) = read_batches(buf)
    assert batch.compression == codec
    assert as_tuples(batch) == expected
    assert as_tuples(decode_records(buf)) == expected


@pytest.mark.parametrize(
    ("magic", "codec"),
    # kafka-python needs the xxhash package for magic 0 lz4; kafkawire's own
    # builder covers that combination (test_builder.py)
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (1, 3)],
)
def test_peer_built_legacy_sets_decode(magic, codec):
    recs = PEER_RECORDS[:50]
    buf = kafka_python_batch(recs, codec, magic)
    if magic == 1 and codec:
        # producers leave the wrapper offset 0; a broker sets it to the last
        # inner offset, from which the relative inner offsets are resolved
        buf = struct.pack(">q", 49) + buf[8:]
    got = as_tuples(decode_records(buf))
    assert [g[0] for g in got] == list(range(50))
    assert [g[2:4] for g in got] == [(k, v) for _ts, k, v, _h in recs]
    if magic == 1:
        assert [g[1] for g in got] == [ts for ts, *_ in recs]
    assert [r.offset for b in read_batches(buf) for r in b] == list(range(50))


# ---- bad input ---------------------------------------------------------------


def corrupt_case(name):
    good = encode_sample(sample_records(3))

    def patch(buf, at, fmt, value, fix_crc=True):
        b = bytearray(buf)
        struct.pack_into(fmt, b, at, value)
        if fix_crc:
            struct.pack_into(">I", b, 17, crc32c_pkg.crc32c(bytes(b[21:])))
        return bytes(b)

    return good, patch


def test_bad_crc_names_offset_and_batch():
    good, _ = corrupt_case("crc")
    data = encode_sample(sample_records(1), base_offset=77) + bytearray(good)
    data = bytearray(data)
    data[-2] ^= 0xFF  # inside the last value: only the CRC can tell
    first_len = len(encode_sample(sample_records(1)))
    with pytest.raises(CrcError) as info:
        decode_records(bytes(data))
    err = info.value
    assert err.offset == first_len + 17 and err.batch_offset == 0 and err.field == "crc"
    assert "byte" in str(err) and "batch base offset 0" in str(err)
    assert len(decode_records(bytes(data), verify_crc=False)) == 4


def test_bad_magic_and_codec():
    good, patch = corrupt_case("magic")
    with pytest.raises(UnsupportedError, match="magic"):
        decode_records(patch(good, 16, ">b", 3, fix_crc=False))
    with pytest.raises(UnsupportedError, match="codec 5"):
        decode_records(patch(good, 21, ">h", 5))
    with pytest.raises(UnsupportedError, match="codec"):
        decode_records(kb.legacy_message(1, 0, None, b"x", attributes=4))


@pytest.mark.parametrize(
    ("at", "fmt", "value", "error", "match"),
    [
        (8, ">i", 10, CorruptError, "below the smallest"),
        (8, ">i", 40, CorruptError, "below the v2 minimum"),
        (57, ">i", -1, CorruptError, "negative record count"),
        (57, ">i", 10**6, CorruptError, "cannot fit"),
        (57, ">i", 2, CorruptError, "declares 2 records"),
        (57, ">i", 4, CorruptError, "declares 4 records"),
    ],
)
def test_inconsistent_lengths_and_counts(at, fmt, value, error, match):
    good, patch = corrupt_case("len")
    bad = patch(good, at, fmt, value, fix_crc=at >= 21)
    if at == 8:
        bad = bad[: 12 + value] if value > 0 else bad
    with pytest.raises(error, match=match):
        decode_records(bad)
    with pytest.raises(error, match=match):
        for batch in read_batches(bad):
            batch.records()


@pytest.mark.parametrize(
    ("raw", "field", "match"),
    [
        (kb.varint(3) + b"\x00" * 6, "record.length", "invalid length"),
        (kb.varint(40) + b"\x00" * 10, "record.length", "past the end"),
        (b"\xff" * 11, "record.length", "varint"),
        (kb.varint(7) + b"\x00" + b"\xff" * 6, "record.timestamp_delta", "past the end"),
        (kb.varint(7) + b"\x00\x00\x00" + kb.varint(-5) + b"\x00\x00\x00", "record.key", "invalid"),
        (kb.varint(6) + b"\x00\x00\x00" + kb.varint(50) + b"\x00\x00", "record.key", "past"),
        (kb.varint(6) + b"\x00\x00\x00\x00\x00" + kb.varint(-2), "record.headers_count", "invalid"),
        (kb.varint(6) + b"\x00\x00\x00\x00\x00" + kb.varint(2**20), "record.headers_count", "past"),
        (kb.varint(8) + b"\x00\x00\x00\x00\x00\x00\x00\x00", "record.length", "disagrees"),
        (
            kb.varint(8) + b"\x00\x00\x00\x00\x00\x02" + kb.varint(-1) + b"\x00",
            "record.header.key",
            "invalid",
        ),
    ],
)
def test_malformed_records(raw, field, match):
    buf = kb.v2_batch([raw])
    with pytest.raises(DecodeError, match=match) as info:
        decode_records(buf)
    assert info.value.field == field
    assert info.value.offset == 61 and info.value.batch_offset == 0


def test_invalid_utf8_header_key():
    buf = kb.v2_batch([kb.record(0, 0, None, b"v", [(b"\xff\xfe", b"x")])])
    view = decode_records(buf)
    with pytest.raises(CorruptError, match="UTF-8"):
        view.headers(0)
    with pytest.raises(CorruptError, match="UTF-8"):
        next(iter(read_batches(buf))).records()


def test_record_index_bounds():
    view = decode_records(encode_sample(sample_records(2)))
    with pytest.raises(IndexError):
        view.key(2)
    with pytest.raises(IndexError):
        view[-3]


def legacy_wrapper(magic, codec, wrapper_offset, inner, *, attributes=0, timestamp=TS):
    from kafkawire.compression import compress

    payload = compress(codec, b"".join(inner), magic=magic)
    return kb.legacy_message(
        magic, wrapper_offset, None, payload, attributes=codec | attributes, timestamp=timestamp
    )


def test_legacy_v1_log_append_time_wrapper_imposes_its_timestamp():
    inner = [kb.legacy_message(1, i, None, b"m%d" % i, timestamp=TS + i) for i in range(3)]
    data = legacy_wrapper(1, 1, 102, inner, attributes=0x08, timestamp=TS + 5000)
    (batch,) = read_batches(data)
    assert batch.timestamp_type == 1 and batch.base_offset == 100 and batch.last_offset == 102
    assert [(r.offset, r.timestamp) for r in batch] == [(100 + i, TS + 5000) for i in range(3)]
    create_time = legacy_wrapper(1, 1, 102, inner, timestamp=TS + 5000)
    assert [r.timestamp for r in decode_records(create_time)] == [TS, TS + 1, TS + 2]


@pytest.mark.parametrize("codec", [1, 2, 3])
def test_legacy_v0_wrapper_keeps_absolute_inner_offsets(codec):
    # magic 0 lz4 frames carry old Kafka's wrong header checksum
    inner = [kb.legacy_message(0, 40 + i, b"k", b"m%d" % i) for i in range(4)]
    data = legacy_wrapper(0, codec, 43, inner)
    assert decode_records(data).offsets.tolist() == [40, 41, 42, 43]
    (batch,) = read_batches(data)
    assert (batch.base_offset, batch.last_offset, batch.record_count) == (40, 43, 4)


def test_legacy_wrapper_faults():
    inner = [kb.legacy_message(1, 0, None, b"x", attributes=1)]  # nested compression
    with pytest.raises(CorruptError, match="inside a compressed wrapper"):
        decode_records(legacy_wrapper(1, 1, 0, inner))
    with pytest.raises(CorruptError, match="differs"):
        decode_records(legacy_wrapper(1, 1, 0, [kb.legacy_message(0, 0, None, b"x")]))
    with pytest.raises(CorruptError, match="no messages"):
        decode_records(legacy_wrapper(1, 1, 0, []))
    bad_inner = bytearray(kb.legacy_message(1, 0, None, b"xyz"))
    bad_inner[-1] ^= 1
    with pytest.raises(CrcError, match="inner"):
        decode_records(legacy_wrapper(1, 1, 0, [bytes(bad_inner)]))


def test_varlong_longer_than_ten_bytes():
    raw = b"\x00" + b"\x80" * 10 + b"\x00" + b"\x00\x00\x00\x00"
    buf = kb.v2_batch([kb.varint(len(raw)) + raw])
    with pytest.raises(CorruptError, match="varint") as info:
        decode_records(buf)
    assert info.value.field == "record.timestamp_delta"


def test_next_offset_counts_batches_left_out():
    """A consumer resumes at view.next_offset: it must pass control batches and aborted
    transactions that the view leaves out, or a read stalls on a trailing marker."""
    from kafkawire import BatchBuilder, build_control_batch

    b = BatchBuilder(producer_id=5, producer_epoch=0, base_sequence=0, is_transactional=True)
    b.append(b"v")
    data = b.build() + build_control_batch(
        commit=False, producer_id=5, producer_epoch=0, base_offset=1
    )
    assert decode_records(data).next_offset == 2
    assert decode_records(data, aborted_transactions=[]).next_offset == 2
    only_marker = decode_records(data, aborted_transactions=[(5, 0)])
    assert len(only_marker) == 0 and only_marker.next_offset == 2
    assert decode_records(b"").next_offset == -1
