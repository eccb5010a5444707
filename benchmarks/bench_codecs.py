"""Decompression speed of the candidate codec libraries and of kafkawire.compression.

Run: .venv/bin/python -m pytest benchmarks/bench_codecs.py --benchmark-group-by=param:case -q

Each case decodes JSON-like records of ~16 KiB and ~1 MiB. The library rows decode without a
cap (except where noted); the kafkawire rows include the cap, the frame walk and the result
being ``bytes``.
"""

from __future__ import annotations

import json
import random
import zlib

import cramjam
import lz4.frame
import pytest
import snappy
import zstandard
from isal import isal_zlib

from kafkawire.compression import Codec, _zstd_decompress, decompress


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
