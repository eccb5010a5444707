"""RecordView: Arrow export, zero-copy, memory, compressed input, threads."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pytest

import kafkawire
from kafkawire import LimitExceededError, decode_records, read_batches
from kafkawire.compression import compress
from tests.support import kafka_bytes as kb

TS = 1_700_000_000_000


def make_data(n_batches=4, per_batch=50, codec=0, headers=True, magic_mix=False):
    out = []
    for b in range(n_batches):
        recs = []
        for i in range(per_batch):
            o = b * per_batch + i
            key = None if o % 5 == 0 else b"key-%05d" % o
            value = None if o % 7 == 3 else (b"value-%d-" % o) * (o % 4)
            hdrs = [("trace", b"%d" % o), ("empty", None)] if headers and o % 3 == 0 else []
            recs.append(kb.record(i, i * 3, key, value, hdrs))
        out.append(
            kb.v2_batch(
                recs,
                base_offset=b * per_batch,
                base_timestamp=TS,
                attributes=codec,
                compress=(lambda p, c=codec: compress(c, p)) if codec else None,
            )
        )
    if magic_mix:
        out.append(kb.legacy_message(0, n_batches * per_batch, b"old", b"v0"))
    return b"".join(out)


def expected_rows(view):
    return [
        (r.key, r.value, r.offset, r.timestamp, [{"key": k, "value": v} for k, v in r.headers])
        for r in view
    ]


@pytest.mark.parametrize("binary", ["view", "plain", "large"])
@pytest.mark.parametrize("codec", [0, 1, 4])
def test_to_arrow_matches_records(binary, codec):
    data = make_data(codec=codec)
    view = decode_records(data)
    table = view.to_arrow(binary=binary)
    assert table.column_names == [
        "key",
        "value",
        "topic",
        "partition",
        "offset",
        "timestamp",
        "timestampType",
        "headers",
    ]
    kind = {"view": pa.binary_view(), "plain": pa.binary(), "large": pa.large_binary()}[binary]
    assert table.schema.field("key").type == kind and table.schema.field("value").type == kind
    assert table.schema.field("timestamp").type == pa.timestamp("us", tz="UTC")
    assert table.column("topic").null_count == len(view) == table.column("partition").null_count
    table.validate(full=True)
    rows = list(
        zip(
            table.column("key").to_pylist(),
            table.column("value").to_pylist(),
            table.column("offset").to_pylist(),
            [int(t.value) // 10**6 for t in table.column("timestamp").cast(pa.timestamp("ns"))],
            table.column("headers").to_pylist(),
            strict=False,
        )
    )
    assert rows == expected_rows(view)
    assert set(table.column("timestampType").to_pylist()) == {0}


def test_arrow_binary_view_points_into_the_input():
    data = make_data(codec=0, headers=False)
    view = decode_records(data)
    table = view.to_arrow(binary="view")
    values = table.column("value").chunk(0)
    data_buffers = values.buffers()[2:]
    input_address = np.frombuffer(data, dtype=np.uint8).ctypes.data
    assert data_buffers[0].address == input_address
    # offsets are the view's own array, not a copy (timestamps go from ms to us)
    assert table.column("offset").chunk(0).buffers()[1].address == view.offsets.ctypes.data


def test_arrow_magic0_timestamps_are_null():
    data = make_data(n_batches=1, per_batch=3, headers=False, magic_mix=True)
    table = decode_records(data).to_arrow()
    ts = table.column("timestamp").to_pylist()
    assert ts[-1] is None and all(t is not None for t in ts[:-1])
    assert table.column("timestampType").to_pylist()[-1] == -1


def test_arrow_no_headers_gives_empty_lists():
    table = decode_records(make_data(headers=False)).to_arrow()
    assert table.column("headers").to_pylist() == [[]] * 200


def test_to_arrow_rejects_unknown_binary_kind():
    with pytest.raises(ValueError):
        decode_records(make_data()).to_arrow(binary="utf8")


def test_compressed_values_point_into_decompressed_payload():
    data = make_data(codec=4, headers=False)
    view = decode_records(data)
    v = view.value(1)
    assert isinstance(v, memoryview) and bytes(v) == b"value-1-"
    assert v.obj is not data  # it lives in the decompressed payload


def test_decompression_cap_applies_per_batch():
    big = kb.v2_batch(
        [kb.record(0, 0, None, b"x" * 100_000)], attributes=1, compress=lambda p: compress(1, p)
    )
    assert len(decode_records(big)) == 1
    with pytest.raises(LimitExceededError) as info:
        decode_records(big, max_decompressed_size=50_000)
    assert info.value.batch_offset == 0 and info.value.offset == 61
    with pytest.raises(LimitExceededError):
        list(read_batches(big, max_decompressed_size=50_000))


def test_corrupt_compressed_payload_is_a_decode_error():
    good = kb.v2_batch(
        [kb.record(0, 0, None, b"abc" * 100)], attributes=4, compress=lambda p: compress(4, p)
    )
    body = bytearray(good[61:])
    body[0] ^= 0xFF  # the zstd frame magic: the payload cannot be decompressed
    bad = kb.v2_batch([bytes(body)], attributes=4, record_count=1)
    with pytest.raises(kafkawire.DecodeError) as info:
        decode_records(bad)
    assert info.value.field == "records" and info.value.offset == 61


def test_peak_memory_per_record_uncompressed():
    """Issue budget: input size + 40 bytes per record (measured, not timed)."""
    n_batches, per_batch = 40, 500
    data = make_data(n_batches=n_batches, per_batch=per_batch, headers=False)
    n = n_batches * per_batch
    tracemalloc.start()
    try:
        view = decode_records(data)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(view) == n
    # the input already exists; everything traced is the decoder's own
    assert peak / n <= 40, f"{peak / n:.1f} bytes per record"


def test_decoding_in_threads_gives_the_same_results():
    data = make_data(n_batches=20, per_batch=200, codec=3)
    reference = decode_records(data)
    ref_values = reference.values.to_pylist()

    def work(_):
        view = decode_records(data)
        return (
            view.offsets.tolist(),
            view.values.to_pylist(),
            [view.headers(i) for i in range(0, len(view), 37)],
        )

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(16)))
    for offsets, values, headers in results:
        assert offsets == reference.offsets.tolist()
        assert values == ref_values
        assert headers == [reference.headers(i) for i in range(0, len(reference), 37)]


def test_peak_memory_per_record_with_headers():
    """Headers are checked at decode but indexed only on demand: 4 bytes a record."""
    per_batch, n_batches = 500, 20
    batches = []
    for b in range(n_batches):
        recs = [
            kb.record(i, i, b"k", b"v" * 20, [("trace", b"abc"), ("span", b"d")])
            for i in range(per_batch)
        ]
        batches.append(kb.v2_batch(recs, base_offset=b * per_batch))
    data = b"".join(batches)
    n = per_batch * n_batches
    tracemalloc.start()
    try:
        view = decode_records(data)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert view.num_headers == 2 * n
    assert peak / n <= 40, f"{peak / n:.1f} bytes per record"
    assert view.headers(n - 1) == [("trace", b"abc"), ("span", b"d")]
    assert view.header_offsets[-1] == 2 * n


# ---- decompressed payloads: slabs pooled between calls (see _records.pyx) ----


_CODEC_IDS = {"gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def _compressed_input(codec: str, tag: bytes, batches: int = 40, legacy: bool = False) -> bytes:
    """batches compressed batches of 64 records whose values carry tag."""
    cid = _CODEC_IDS[codec]
    out = []
    for k in range(batches):
        values = [tag + b"-%06d-" % (64 * k + i) + b"x" * 200 for i in range(64)]
        if legacy:  # a magic 1 wrapper around an inner message set
            inner = b"".join(kb.legacy_message(1, i, None, v) for i, v in enumerate(values))
            wrapped = compress(cid, inner, magic=1)
            out.append(kb.legacy_message(1, 64 * k + 63, None, wrapped, attributes=cid))
        else:
            recs = [kb.record(i, i, None, v, []) for i, v in enumerate(values)]
            out.append(
                kb.v2_batch(
                    recs, base_offset=64 * k, attributes=cid, compress=lambda p: compress(cid, p)
                )
            )
    return b"".join(out)


@pytest.mark.parametrize(
    ("codec", "legacy"),
    [
        ("lz4", False),
        ("snappy", False),
        ("gzip", False),
        ("zstd", False),
        ("lz4", True),
        ("snappy", True),
    ],
)
def test_pooled_payload_slabs_never_change_under_a_holder(codec, legacy):
    # A dropped view's slabs are refilled by the next call, unless something
    # still refers to them: a value's memoryview, an exported buffer, an Arrow
    # column.
    first = _compressed_input(codec, b"first", legacy=legacy)
    other = _compressed_input(codec, b"other", legacy=legacy)
    view = decode_records(first)
    value = view.values[1000]
    exported = view._segment_buffers()[-1]
    table = view.to_arrow()
    expect = bytes(value)
    assert expect.startswith(b"first-001000-")
    expect_exported = bytes(exported)
    expect_column = table.column("value").to_pylist()
    del view
    for _ in range(3):
        again = decode_records(other)
        assert bytes(again.values[1000]).startswith(b"other-001000-")
        del again
    assert bytes(value) == expect
    assert bytes(exported) == expect_exported
    assert table.column("value").to_pylist() == expect_column


_FAULTS_PROBE = """
import resource, sys
import kafkawire
data = open(sys.argv[1], "rb").read()
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
view = kafkawire.decode_records(data)
size = sum(len(b) for b in view._segment_buffers()[1:])
del view
before = faults()
view = kafkawire.decode_records(data)
print(faults() - before, size // 4096)
"""


@pytest.mark.skipif(
    "asan" in os.environ.get("LD_PRELOAD", ""),
    reason="counts glibc's page faults; ASan's allocator holds freed memory back on purpose",
)
@pytest.mark.parametrize("codec", ["lz4", "gzip"])
def test_decoding_again_reuses_the_payload_memory(codec, tmp_path):
    # Payloads freed with a view went back to the system (glibc trims the
    # heap top) and the next call faulted every page in again: in a fresh
    # process, the second decode of 12 MB of lz4 payloads took 6,000 page
    # faults. Pooled slabs are refilled without.
    path = tmp_path / "input.bin"
    path.write_bytes(_compressed_input(codec, b"v", batches=800))
    out = subprocess.run(
        [sys.executable, "-c", _FAULTS_PROBE, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    faults, pages = map(int, out.stdout.split())
    assert pages > 2000  # the payloads span ~12 MB
    assert faults < pages // 4
