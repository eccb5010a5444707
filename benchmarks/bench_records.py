"""Reading record batches: kafkawire vs aiokafka (Cython) vs kafka-python vs physical limits.

One pytest-benchmark group per workload ("read <workload>"). Every benchmark stores bytes and
records in extra_info so that tools/bench_report.py can derive MB/s and records/s.

- kafkawire.decode_records: columnar, CRC verified, just decodes (no per-record objects).
- kafkawire.read_batches / aiokafka / kafka-python: Record objects; key and value (and headers
  when the workload has them) of every record are touched. kafkawire verifies CRCs, the peers
  do not (their iterators never check it).
- limits: crc32c over the same bytes, memcpy of the same bytes, the codec libraries called on
  the batch payloads (compressed workloads), and the consumer loop itself: the same touching
  loop over Record objects made beforehand and in cache (what read_batches would cost if
  making records were free).
- all fields: read_batches and aiokafka with a loop that touches offset, timestamp, key, value
  and headers of every record (_touch_all), decode_records with every column touched
  (_touch_columns); paired against aiokafka, and decode_records against crc32c alone.
- paired rounds (test_paired): the two sides of a target timed in alternation, round after
  round, for the ratio of each round. This machine runs in speed phases of seconds, 1.3-1.5x
  apart; separate benchmarks of a few seconds each can land in different phases, paired
  rounds (tens of milliseconds apart) land in the same one.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import tracemalloc

import crc32c
import numpy as np
import pytest
import workloads
from workloads import READ_WORKLOADS, copy_buffers, kafkawire_attr, paired_target

COMPRESSED = [n for n in READ_WORKLOADS if workloads.SPECS[n].codec]


def _setup(benchmark, wl, impl, kind, role, **extra):
    benchmark.group = f"read {wl.name}"
    benchmark.extra_info.update(
        suite="records",  # what tools/bench_report.py picks out of a JSON with other suites
        op="read",
        workload=wl.name,
        impl=impl,
        kind=kind,
        role=role,
        bytes=wl.n_bytes,
        records=wl.n_records,
        batches=len(wl.batches),
        codec=wl.spec.codec or "none",
        **extra,
    )


def _touch(batches, with_headers):
    # Same loop for every implementation that yields record objects.
    n = 0
    if with_headers:
        for batch in batches:
            for r in batch:
                _ = r.key, r.value, r.headers
                n += 1
    else:
        for batch in batches:
            for r in batch:
                _ = r.key, r.value
                n += 1
    return n


def _touch_all(batches):
    # What a consumer's loop touches: every field of every record (issue 22's speed rows).
    n = 0
    for batch in batches:
        for r in batch:
            _ = r.offset, r.timestamp, r.key, r.value, r.headers
            n += 1
    return n


def _touch_columns(view):
    # The columnar counterpart: every column of every record, without an object per record.
    _ = view.offsets.sum(), view.timestamps.sum()
    _ = view.keys.lengths.sum(), view.values.lengths.sum(), view.header_offsets
    return len(view)


def _aiokafka_batches(memory_records_cls, data):
    records = memory_records_cls(data)
    while (batch := records.next_batch()) is not None:
        yield batch


# What the read benchmarks time, each as a function of no arguments (also used by test_paired).


def _kafkawire_read(wl):
    read_batches = kafkawire_attr("read_batches")
    data, hdr = wl.data, wl.spec.headers
    return lambda: _touch(read_batches(data, verify_crc=True), hdr)


def _aiokafka_read(wl):
    memory_records, _, _ = workloads.aiokafka_cython()
    data, hdr = wl.data, wl.spec.headers
    return lambda: _touch(_aiokafka_batches(memory_records, data), hdr)


def _crc32c_and_decompress(wl):
    data, decompress, payloads = wl.data, workloads.decompressor(wl.spec.codec), wl.payloads

    def run():
        crc32c.crc32c(data)
        _decompress_all(decompress, payloads)

    return run


def _decompress_all(decompress, payloads):
    for p in payloads:
        decompress(p)


# tracemalloc misses plain malloc() in C code; the peak RSS of a fresh process does not.
_RSS_PROBE = """
import os, sys
import kafkawire

def hwm():  # VmHWM, not ru_maxrss: the latter carries the forking parent's peak over exec
    with open("/proc/self/status") as f:
        return next(int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmHWM:"))

# bytes of the exact size (a bytearray would be copied: mutable inputs are snapshotted)
with open(sys.argv[1], "rb", buffering=0) as f:
    data = os.read(f.fileno(), os.path.getsize(sys.argv[1]))
before = hwm()
view = kafkawire.decode_records(data, verify_crc=True)
_ = view.offsets, view.timestamps, view.keys.lengths, view.values.lengths
print(hwm() - before)
"""


def _rss_peak_above_input(data, tmp_path):
    """Growth of the peak RSS (bytes, page granular) while decoding, in a fresh process."""
    path = tmp_path / "records.bin"
    path.write_bytes(data)
    try:
        out = subprocess.run(
            [sys.executable, "-c", _RSS_PROBE, str(path)],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return int(out.stdout.strip())
    except (subprocess.SubprocessError, ValueError):
        return None
    finally:
        path.unlink()


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_kafkawire_decode_records(benchmark, get_workload, workload, tmp_path):
    decode = kafkawire_attr("decode_records")
    wl = get_workload(workload)
    data = wl.data

    # Correctness once, outside the timing.
    view = decode(data, verify_crc=True)
    n = wl.n_records
    assert len(view) == n
    assert int(view.offsets[-1]) == n - 1 and int(view.timestamps[-1]) == wl.timestamps[-1]
    assert bytes(view.keys[n - 1]) == wl.keys[-1] and bytes(view.values[n - 1]) == wl.values[-1]
    del view

    # Peak memory above the input (which exists before tracing starts); numpy buffers are
    # traced. Columns are touched too, in case decoding is lazy.
    gc.collect()
    tracemalloc.start()
    view = decode(data, verify_crc=True)
    peak_decode = tracemalloc.get_traced_memory()[1]
    _ = view.offsets, view.timestamps, view.keys.lengths, view.values.lengths
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del view

    rss = _rss_peak_above_input(data, tmp_path)
    _setup(
        benchmark,
        wl,
        "kafkawire.decode_records",
        "columnar",
        "kafkawire",
        crc="verified",
        tracemalloc_peak_decode=peak_decode,
        tracemalloc_peak_with_columns=peak,
        bytes_per_record_above_input=peak / wl.n_records,
        rss_peak_above_input=rss,
        rss_bytes_per_record_above_input=None if rss is None else rss / wl.n_records,
    )
    benchmark(decode, data, verify_crc=True)


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_kafkawire_read_batches(benchmark, get_workload, workload):
    wl = get_workload(workload)
    run = _kafkawire_read(wl)
    assert run() == wl.n_records
    _setup(benchmark, wl, "kafkawire.read_batches", "objects", "kafkawire", crc="verified")
    benchmark(run)


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_aiokafka(benchmark, get_workload, workload):
    wl = get_workload(workload)
    run = _aiokafka_read(wl)
    assert run() == wl.n_records
    _setup(benchmark, wl, "aiokafka (Cython)", "objects", "peer", crc="not verified")
    benchmark(run)


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_kafka_python(benchmark, get_workload, workload):
    from kafka.record.memory_records import MemoryRecords

    wl = get_workload(workload)
    data, hdr = wl.data, wl.spec.headers
    assert _touch(MemoryRecords(data), hdr) == wl.n_records
    _setup(benchmark, wl, "kafka-python", "objects", "peer", crc="not verified")
    # Pure Python and ~1 s per round: a few rounds are plenty.
    benchmark.pedantic(lambda: _touch(MemoryRecords(data), hdr), rounds=3, warmup_rounds=0)


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_limit_crc32c(benchmark, get_workload, workload):
    wl = get_workload(workload)
    _setup(benchmark, wl, "crc32c", "checksum", "limit")
    benchmark(crc32c.crc32c, wl.data)


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_limit_memcpy(benchmark, get_workload, workload):
    wl = get_workload(workload)
    _setup(benchmark, wl, "memcpy", "copy (preallocated)", "limit")
    dst, src = copy_buffers(wl.data)
    benchmark(np.copyto, dst, src)


@pytest.mark.parametrize("workload", READ_WORKLOADS)
def test_limit_python_loop(benchmark, get_workload, workload):
    read_batches = kafkawire_attr("read_batches")
    wl = get_workload(workload)
    hdr = wl.spec.headers
    # The first batch's records over and over, as many as each batch has: objects already in
    # cache, as read_batches' own records are (it makes each one just before the loop body).
    batches = list(read_batches(wl.data))
    first = batches[0].records()
    made = [(first * (b.record_count // len(first) + 1))[: b.record_count] for b in batches]
    assert sum(map(len, made)) == wl.n_records
    _setup(benchmark, wl, "python loop", "the loop over records made beforehand", "limit")
    benchmark(_touch, made, hdr)


@pytest.mark.parametrize("workload", COMPRESSED)
def test_limit_decompress(benchmark, get_workload, workload):
    wl = get_workload(workload)
    decompress, payloads = workloads.decompressor(wl.spec.codec), wl.payloads
    _setup(benchmark, wl, "decompress", "decompress", "limit", codec_lib=_lib(wl.spec.codec))
    benchmark(_decompress_all, decompress, payloads)


@pytest.mark.parametrize("workload", COMPRESSED)
def test_limit_crc32c_decompress(benchmark, get_workload, workload):
    wl = get_workload(workload)
    run = _crc32c_and_decompress(wl)
    _setup(
        benchmark,
        wl,
        "crc32c+decompress",
        "checksum+decompress",
        "limit",
        codec_lib=_lib(wl.spec.codec),
    )
    benchmark(run)


def _lib(codec):
    return {
        "gzip": "isal_zlib.decompress",
        "snappy": "cramjam.snappy.decompress_raw (xerial blocks)",
        "lz4": "lz4.frame.decompress",
        "zstd": "zstandard.ZstdDecompressor.decompress",
    }[codec]


UNCOMPRESSED = [n for n in READ_WORKLOADS if not workloads.SPECS[n].codec]

# Targets measured in paired rounds: name -> (how the ratio reads, workloads)
PAIRS = {
    "read_batches vs aiokafka": ("speedup", READ_WORKLOADS),
    "read_batches all fields vs aiokafka": ("speedup", READ_WORKLOADS),
    "decode_records all columns vs aiokafka all fields": ("speedup", READ_WORKLOADS),
    "decode_records vs crc32c": ("time", UNCOMPRESSED),
    "decode_records vs crc32c+decompress": ("time", COMPRESSED),
}


def _pair_sides(pair, wl):
    """(ours, theirs): the two functions a paired round times."""
    if pair == "read_batches vs aiokafka":
        return _kafkawire_read(wl), _aiokafka_read(wl)
    memory_records, _, _ = workloads.aiokafka_cython()
    data = wl.data
    read_batches, decode = kafkawire_attr("read_batches"), kafkawire_attr("decode_records")
    aiokafka_all = lambda: _touch_all(_aiokafka_batches(memory_records, data))  # noqa: E731
    if pair == "read_batches all fields vs aiokafka":
        return lambda: _touch_all(read_batches(data, verify_crc=True)), aiokafka_all
    if pair == "decode_records all columns vs aiokafka all fields":
        return lambda: _touch_columns(decode(data, verify_crc=True)), aiokafka_all
    if pair == "decode_records vs crc32c":
        return lambda: decode(data, verify_crc=True), lambda: crc32c.crc32c(data)
    return lambda: decode(data, verify_crc=True), _crc32c_and_decompress(wl)


@pytest.mark.parametrize(("workload", "pair"), [(w, p) for p, (_, ws) in PAIRS.items() for w in ws])
def test_paired(benchmark, get_workload, workload, pair):
    wl = get_workload(workload)
    ours, theirs = _pair_sides(pair, wl)
    paired_target(benchmark, wl.name, pair, PAIRS[pair][0], ours, theirs)
