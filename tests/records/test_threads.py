"""Decoding from several threads, and the GIL.

Decodes running at once in several threads give the results of one thread.
The pure-C work of a large decode (CRC-32C and CRC-32 over large batches and
messages, the record scans, lz4 and snappy decompression; zlib and zstandard do
the same for gzip and zstd) runs without the GIL, so that other Python threads
go on meanwhile, and so does build_batches' record writing into large batches;
small batches keep the GIL (handing it over costs more).
"""

from __future__ import annotations

import gc
import struct
import sys
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
import pytest

import kafkawire
from kafkawire import compression
from kafkawire.records import crc32c

MiB = 1 << 20


def big_batch(codec=None, *, n=100_000, size=300) -> bytes:
    """One batch of n records (~n * size bytes before compression)."""
    rng = np.random.default_rng(7)
    raw = rng.integers(0, 4, n * size, dtype=np.uint8).tobytes()  # compressible, not trivial
    values = [raw[i * size : (i + 1) * size] for i in range(n)]
    keys = [b"key-%d" % i for i in range(n)]
    return b"".join(
        kafkawire.build_batches(values, keys=keys, compression=codec, max_bytes=1 << 30)
    )


def legacy_set(n=2000, size=8000) -> bytes:
    out = []
    for i in range(n):
        body = struct.pack(">bbqi", 1, 0, 1_700_000_000_000, -1) + struct.pack(">i", size)
        body += bytes([i % 251]) * size
        msg = struct.pack(">I", zlib.crc32(body)) + body
        out.append(struct.pack(">qi", i, len(msg)) + msg)
    return b"".join(out)


def legacy_wrapper(inner: bytes) -> bytes:
    payload = compression.compress(1, inner, magic=1)
    body = struct.pack(">bbqi", 1, 1, 0, -1) + struct.pack(">i", len(payload)) + payload
    msg = struct.pack(">I", zlib.crc32(body)) + body
    return struct.pack(">qi", 1999, len(msg)) + msg


@pytest.fixture(scope="module")
def workloads():
    small = [
        kafkawire.build_batches([b"v%d" % i for i in range(50)], base_offset=50 * k)[0]
        for k in range(20)
    ]
    inner = legacy_set(200, 300)
    return {
        "none-small-batches": b"".join(small),
        "none": big_batch(n=20_000),
        "gzip": big_batch("gzip", n=20_000),
        "snappy": big_batch("snappy", n=20_000),
        "lz4": big_batch("lz4", n=20_000),
        "zstd": big_batch("zstd", n=20_000),
        "legacy": legacy_set(300, 1000),
        "legacy-gzip": legacy_wrapper(inner),
    }


def summary(view):
    return (
        view.offsets.tobytes(),
        view.timestamps.tobytes(),
        view.keys.to_pylist(),
        view.values.to_pylist(),
        [view.headers(i) for i in range(0, len(view), 97)],
    )


def test_threads_decode_the_same_as_one_thread(workloads):
    expected = {name: summary(kafkawire.decode_records(data)) for name, data in workloads.items()}
    expected_batches = {
        name: [
            [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in b]
            for b in kafkawire.read_batches(data)
        ]
        for name, data in workloads.items()
    }

    def work(job):
        name, k = job
        data = workloads[name]
        if k % 2:  # every input kind at once: shared bytes, private bytearrays
            data = bytearray(data)
        view = kafkawire.decode_records(data)
        batches = [
            [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in b]
            for b in kafkawire.read_batches(data)
        ]
        return name, summary(view), batches

    jobs = [(name, k) for k in range(6) for name in workloads]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for name, got, batches in pool.map(work, jobs):
            assert got == expected[name], name
            assert batches == expected_batches[name], name


def test_one_view_read_from_several_threads(workloads):
    view = kafkawire.decode_records(workloads["lz4"])
    expected = summary(view)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: summary(view), range(8)))
    assert all(r == expected for r in results)


# ---- the GIL -------------------------------------------------------------------------------
#
# Each probe runs in a process of its own (``python -m tests.records.test_threads``): in the
# test session's process, threads earlier tests left (heartbeats, brokers' helpers) may take
# the GIL in the middle of a probe and let its loop run, which made the control below fail on
# a busy machine ("assert 565750 == 0"). There only the probe's two threads exist.

PROBES = (
    "crc32c",
    "decode_records",
    "read_batches",
    "decode_records-legacy",
    "lz4",
    "snappy",
    "build_batches",
)


def _progress_once(call) -> int:
    """How often a Python loop in another thread ran while ``call`` ran, once.

    The loop gives the GIL back after every step (``time.sleep(0)``), and the switch interval
    is made so long (1000 s) that the loop does not ask the caller to drop the GIL: it runs
    only while ``call`` releases the GIL itself. The garbage collector is off meanwhile (a
    collection may finalize objects whose release drops the GIL)."""
    state = SimpleNamespace(in_call=False, count=0, stop=False, started=threading.Event())

    def spin():
        state.started.set()
        while not state.stop:
            if state.in_call:
                state.count += 1
            time.sleep(0)  # hands the GIL back: the caller never waits for it

    old = sys.getswitchinterval()
    gc.collect()
    gc.disable()
    sys.setswitchinterval(1000.0)
    thread = threading.Thread(target=spin)
    try:
        thread.start()
        state.started.wait()
        time.sleep(0.001)  # the loop is now waiting for the GIL at every step
        state.in_call = True
        call()
        state.in_call = False
    finally:
        state.stop = True
        thread.join()
        sys.setswitchinterval(old)
        gc.enable()
    return state.count


def _probe_calls() -> dict:
    """The calls the probes time: large decodes (which drop the GIL), a large copy (the
    control: it holds the GIL) and a decode of small batches (which keeps it)."""
    one = big_batch(n=200_000, size=250)  # ~50 MiB, one batch
    legacy = legacy_set(n=400, size=128_000)  # ~51 MiB of messages above the threshold
    plain = b"".join(bytes([i % 7]) * 1000 + b"%d" % i for i in range(40_000))
    lz4, snappy = compression.compress(3, plain), compression.compress(2, plain)
    zeros = bytes(256 * MiB)  # the hardware CRC needs this much for ~15 ms
    copied = bytearray(one) * 2
    small = b"".join(
        kafkawire.build_batches([b"v%d" % i for i in range(50)], base_offset=50 * k)[0]
        for k in range(20)
    )
    import pyarrow as pa

    rows = pa.array([b"value-%08d" % i + bytes(90) for i in range(400_000)])  # ~40 MiB
    return {
        "crc32c": lambda: crc32c(zeros),
        "decode_records": lambda: kafkawire.decode_records(one),
        "read_batches": lambda: next(kafkawire.read_batches(one)).records(),
        "decode_records-legacy": lambda: kafkawire.decode_records(legacy),
        "lz4": lambda: compression.decompress(3, lz4),
        "snappy": lambda: compression.decompress(2, snappy),
        "build_batches": lambda: kafkawire.build_batches(rows, keys=rows, max_bytes=MiB),
        "copy": lambda: bytes(copied),
        "small-batches": lambda: kafkawire.decode_records(small),
        "small-batches-built": lambda: kafkawire.build_batches(rows, max_bytes=16384),
    }


def _main() -> None:
    """The probes, in this (fresh) process: each call's loop counts over a few tries, as
    JSON on stdout."""
    import json

    counts = {
        name: [_progress_once(call) for _ in range(5)] for name, call in _probe_calls().items()
    }
    print(json.dumps(counts))


@pytest.fixture(scope="module")
def progress() -> dict[str, list[int]]:
    import json
    import subprocess
    from pathlib import Path

    done = subprocess.run(
        [sys.executable, "-m", "tests.records.test_threads"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("what", PROBES)
def test_large_decodes_let_other_threads_run(progress, what):
    # the loop ran while the call did, in the tries (a busy machine may not schedule the loop
    # during one short call: one try seeing it is enough)
    assert any(progress[what]), progress[what]


def test_the_probe_sees_a_call_that_holds_the_gil(progress):
    # the control: copying a large buffer holds the GIL, and the probe says so: with no other
    # thread in the process, the loop never runs during it
    assert progress["copy"] == [0] * 5


@pytest.mark.parametrize("what", ["small-batches", "small-batches-built"])
def test_small_batches_keep_the_gil(progress, what):
    # below the thresholds, handing the GIL over would cost more than the work
    assert progress[what] == [0] * 5


if __name__ == "__main__":
    _main()
