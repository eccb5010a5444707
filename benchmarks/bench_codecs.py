"""Decompression speed of the candidate codec libraries and of kafkawire.compression.

Run: .venv/bin/python -m pytest benchmarks/bench_codecs.py --benchmark-group-by=param:case -q

Each case decodes JSON-like records of ~16 KiB and ~1 MiB. The library rows decode without a
cap (except where noted); the kafkawire rows include the cap, the frame walk and the result
being ``bytes``.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
import time
import zlib

import cramjam
import lz4.frame
import pytest
import snappy
import workloads
import zstandard
from isal import isal_zlib

import kafkawire
from kafkawire.compression import Codec, _zstd_decompress, compress, decompress


def records(size: int) -> bytes:
    rng = random.Random(1)
    lines = []
    total = 0
    i = 0
    while total < size:
        line = json.dumps(
            {
                "id": i,
                "user": f"user-{rng.randrange(10**6)}",
                "event": rng.choice(["click", "view", "buy"]),
                "ts": 1_700_000_000_000 + 37 * i,
                "price": round(rng.random() * 100, 2),
            }
        )
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines).encode()[:size]


def zstd_streamed(data: bytes) -> bytes:
    """No content size in the header, as Java's zstd-jni writes it."""
    compressor = zstandard.ZstdCompressor(level=3).compressobj()
    return compressor.compress(data) + compressor.flush()


def snappy_into(raw: bytes) -> bytes:
    out = bytearray(cramjam.snappy.decompress_raw_len(raw))
    cramjam.snappy.decompress_raw_into(raw, out)
    return bytes(out)


def candidates(data: bytes) -> dict:
    gz = zlib.compress(data, 6, 31)
    raw = bytes(cramjam.snappy.compress_raw(data))
    lz = lz4.frame.compress(data, block_linked=False, store_size=False)
    zs = zstd_streamed(data)
    dctx = zstandard.ZstdDecompressor()
    return {
        "gzip zlib.decompress": lambda: zlib.decompress(gz, 31),
        "gzip zlib.decompressobj capped": lambda: zlib.decompressobj(31).decompress(gz, 1 << 28),
        "gzip isal_zlib.decompress": lambda: isal_zlib.decompress(gz, 31),
        "gzip isal_zlib.decompressobj capped": lambda: isal_zlib.decompressobj(31).decompress(
            gz, 1 << 28
        ),
        "gzip cramjam": lambda: bytes(cramjam.gzip.decompress(gz)),
        "gzip kafkawire": lambda: decompress(Codec.GZIP, gz),
        "snappy cramjam decompress_raw": lambda: bytes(cramjam.snappy.decompress_raw(raw)),
        "snappy cramjam decompress_raw_into": lambda: snappy_into(raw),
        "snappy python-snappy": lambda: snappy.decompress(raw),
        "snappy kafkawire": lambda: decompress(Codec.SNAPPY, raw),
        "lz4 lz4.frame.decompress": lambda: lz4.frame.decompress(lz),
        "lz4 LZ4FrameDecompressor capped 256MiB": lambda: (
            lz4.frame.LZ4FrameDecompressor().decompress(lz, 1 << 28)
        ),
        "lz4 cramjam": lambda: bytes(cramjam.lz4.decompress(lz)),
        "lz4 kafkawire": lambda: decompress(Codec.LZ4, lz),
        "zstd zstandard decompressobj": lambda: dctx.decompressobj().decompress(zs),
        "zstd zstandard stream_reader capped 256MiB": lambda: dctx.stream_reader(
            zs, read_across_frames=True
        ).read(1 << 28),
        "zstd cramjam": lambda: bytes(cramjam.zstd.decompress(zs)),
        "zstd kafkawire": lambda: decompress(Codec.ZSTD, zs),
        # the careful path: payloads the compiled-in libzstd refuses, and tests' second path
        "zstd kafkawire, zstandard path": lambda: _zstd_decompress(zs, 1 << 28),
    }


PAYLOADS = {"16KiB": records(16 << 10), "1MiB": records(1 << 20)}
CASES = {size: candidates(data) for size, data in PAYLOADS.items()}


@pytest.mark.parametrize("size", list(PAYLOADS))
@pytest.mark.parametrize("case", list(CASES["1MiB"]))
def test_decompress(benchmark, size, case):
    fn = CASES[size][case]
    assert fn() == PAYLOADS[size]
    benchmark(fn)


# --- lz4, paired ----------------------------------------------------------------------------
#
# Run: .venv/bin/python -m pytest benchmarks/bench_codecs.py -k paired_lz4 -s -q \
#      --benchmark-timer=time.process_time
#
# Kafka lz4 payloads decoded by kafkawire (its frame walk, the blocks by the vendored liblz4),
# by the lz4 package's LZ4F_decompress where the workload is one payload, and the physical
# limit: a memcpy of the output's size. Each round times every side once, in an order that
# rotates from round to round, with GC on; a side's figure is the median of its rounds, a
# ratio the median of the rounds' own ratios. (At 9a333cc the same rounds also timed the
# hand-written block decoder kafkawire had before: docs/benchmarks.md, "Reference codecs".)


def _lz4_payload_1mib() -> tuple[bytes, int]:
    """A 1 MiB batch's records section of 100-byte JSON-like values, lz4 as Java writes it."""
    rng = random.Random(workloads.SEED)
    values = b"".join(workloads._json_value(rng, i) for i in range(10_486))[: 1 << 20]
    return compress(Codec.LZ4, values), len(values)


def _lz4_fetch(get_workload, name: str) -> tuple[bytes, int]:
    """A fetch response's records of lz4 batches, and what their payloads decompress to."""
    wl = get_workload("lz4-16KiB")
    data = wl.data
    if name == "lz4-1MiB-batches":  # the same records in batches of up to 1 MiB
        data = b"".join(
            kafkawire.build_batches(wl.values, keys=wl.keys, compression="lz4", max_bytes=1 << 20)
        )
    size, pos = 0, 0
    while pos < len(data):
        end = pos + 12 + int.from_bytes(data[pos + 8 : pos + 12], "big")
        size += len(lz4.frame.decompress(data[pos + workloads.BATCH_HEADER_SIZE : end]))
        pos = end
    return data, size


def _lz4_sides(get_workload, name) -> tuple[dict, int]:
    """(the sides of a paired lz4 workload, kafkawire's first; the output size)."""
    if name == "payload-1MiB":
        payload, size = _lz4_payload_1mib()
        return {
            "kafkawire": lambda: decompress(Codec.LZ4, payload),
            "lz4.frame (LZ4F_decompress)": lambda: lz4.frame.decompress(payload),
        }, size
    if name == "read_batches-lz4-16KiB":
        data, size = _lz4_fetch(get_workload, "lz4-16KiB")
        return {"kafkawire": lambda: _read_all(data)}, size
    data, size = _lz4_fetch(get_workload, name)
    return {"kafkawire": lambda: kafkawire.decode_records(data)}, size


def _read_all(data) -> None:
    """read_batches as a consumer loop uses it: every record's key and value touched."""
    for batch in kafkawire.read_batches(data):
        for record in batch:
            record.key  # noqa: B018
            record.value  # noqa: B018


LZ4_WORKLOADS = ["payload-1MiB", "lz4-16KiB", "lz4-1MiB-batches", "read_batches-lz4-16KiB"]


@pytest.mark.parametrize("workload", LZ4_WORKLOADS)
def test_paired_lz4(benchmark, get_workload, workload):
    sides, out_size = _lz4_sides(get_workload, workload)
    src, dst = bytes(out_size), bytearray(out_size)

    def memcpy():
        dst[:] = src

    sides["memcpy"] = memcpy
    clock = time.process_time
    t0 = clock()
    for side in sides.values():
        side()
    rounds = max(21, min(401, int(6.0 / max(clock() - t0, 1e-6))))
    times: dict[str, list[float]] = {name: [] for name in sides}
    order = itertools.count()

    def one_round():
        names = list(sides)
        k = next(order) % len(names)
        for name in names[k:] + names[:k]:
            start = clock()
            sides[name]()
            times[name].append(clock() - start)

    benchmark.group = f"paired lz4 {workload}"
    benchmark.pedantic(one_round, rounds=rounds, iterations=1, warmup_rounds=0)
    medians = {name: statistics.median(t) for name, t in times.items()}
    # each side's time over kafkawire's, round by round
    ratios = {
        name: statistics.median(b / a for a, b in zip(times["kafkawire"], t, strict=True))
        for name, t in times.items()
        if name != "kafkawire"
    }
    benchmark.extra_info.update(
        suite="paired lz4", workload=workload, medians=medians, over_kafkawire=ratios
    )
    print(
        f"\n{workload}: {rounds} rounds; median ms "
        + ", ".join(f"{n} {m * 1e3:.3f}" for n, m in medians.items())
        + "; time over kafkawire's: "
        + ", ".join(f"{n} {r:.3f}" for n, r in ratios.items())
    )
