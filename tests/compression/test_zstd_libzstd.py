"""zstd through the compiled-in libzstd (kafkawire.compression._codecs, src_c/zstd_decode.c over
src_c/vendor/zstd), against the zstandard package: the same output, the same caps, and every
error left to the careful path (kafkawire.compression), which reports it."""

from __future__ import annotations

import random
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import zstandard

import kafkawire
from kafkawire.compression import Codec, _codecs, decompress, zstd_decoder
from kafkawire.errors import DecodeError, DecompressionError, LimitExceededError
from tests.compression.test_compression import DATA, MiB, samples, zstd_streamed
from tests.support.kafka_bytes import record, v2_batch

SKIPPABLE = struct.pack("<II", 0x184D2A5E, 5) + b"hello"
ZSTD_ATTRIBUTES = 4  # codec bits of a batch's attributes


@pytest.fixture
def libzstd():
    assert _codecs.use_libzstd(True)
    return _codecs


def zstandard_decode(payload: bytes) -> bytes:
    return zstandard.ZstdDecompressor().stream_reader(payload, read_across_frames=True).read()


def payloads() -> dict[str, bytes]:
    one_shot = zstandard.ZstdCompressor()
    checked = zstandard.ZstdCompressor(write_checksum=True, write_content_size=False)
    return {
        "one byte": one_shot.compress(b"x"),
        "16 KiB": one_shot.compress(DATA[:16384]),
        "1 MiB": one_shot.compress(DATA * 11),
        "streamed": zstd_streamed(DATA),
        "streamed, small chunks": zstd_streamed(DATA[:50_000], chunk=700),
        "checksum, no size": checked.compress(DATA[:30_000]),
        "level 19": zstandard.ZstdCompressor(level=19).compress(DATA[:40_000]),
        "frames and skippable frames": SKIPPABLE
        + one_shot.compress(DATA[:10_000])
        + zstd_streamed(DATA[10_000:30_000])
        + SKIPPABLE
        + one_shot.compress(b"")
        + one_shot.compress(DATA[30_000:31_000]),
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_the_vendored_libzstd_is_compiled_in_and_no_libzstd_is_loaded():
    # The version src_c/vendor/README.md names decodes in a process where no shared libzstd
    # is mapped: nothing comes from the system (the zstandard package links its own copy
    # statically, so it maps no libzstd either).
    script = """
import sys
from kafkawire.compression import _codecs
payload = bytes.fromhex(sys.argv[1])
assert _codecs.zstd_decompress(payload, 1 << 20) == b"kafkawire " * 1000
with open("/proc/self/maps") as maps:
    print(_codecs.libzstd_version(), "libzstd" in maps.read())
"""
    payload = zstandard.ZstdCompressor().compress(b"kafkawire " * 1000)
    out = subprocess.run(
        [sys.executable, "-c", script, payload.hex()], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["10507", "False"]


@pytest.mark.parametrize("name", list(payloads()))
def test_same_output_as_zstandard(libzstd, name):
    payload = payloads()[name]
    expected = zstandard_decode(payload)
    assert libzstd.zstd_decompress(payload, 64 * MiB) == expected
    assert libzstd.zstd_decompress(memoryview(bytearray(payload)), 64 * MiB) == expected
    assert decompress(Codec.ZSTD, payload) == expected


def test_payloads_of_nothing_go_to_the_careful_path(libzstd):
    empty = zstandard.ZstdCompressor().compress(b"")
    for payload in (empty, empty * 3):
        assert libzstd.zstd_decompress(payload, MiB) is None
        assert decompress(Codec.ZSTD, payload) == b""
    for payload in (b"", SKIPPABLE):
        assert libzstd.zstd_decompress(payload, MiB) is None
        with pytest.raises(DecompressionError, match="no frame"):
            decompress(Codec.ZSTD, payload)


@pytest.mark.parametrize("name", ["16 KiB", "streamed", "frames and skippable frames"])
def test_cap_is_exact(libzstd, name):
    payload = payloads()[name]
    expected = zstandard_decode(payload)
    if name == "16 KiB":  # a declared size is an exact bound: the fast path takes the cap
        assert libzstd.zstd_decompress(payload, len(expected)) == expected
    # else the block maxima bound the output above the cap: the careful path counts it
    assert libzstd.zstd_decompress(payload, len(expected) - 1) is None
    assert decompress(Codec.ZSTD, payload, max_size=len(expected)) == expected
    with pytest.raises(LimitExceededError):
        decompress(Codec.ZSTD, payload, max_size=len(expected) - 1)


def test_a_lying_content_size_is_never_allocated(libzstd):
    # 2**40 bytes declared over a 9-byte body: over any cap, and beyond what the input's
    # blocks can hold (a ratio above 2**15), so the fast path refuses before allocating.
    lie = bytearray(zstandard.ZstdCompressor().compress(b"kafkawire"))
    lie = lie[:4] + b"\xe0" + struct.pack("<Q", 1 << 40) + lie[6:]
    assert libzstd.zstd_decompress(bytes(lie), 1 << 62) is None
    with pytest.raises(DecompressionError, match="content size"):
        decompress(Codec.ZSTD, bytes(lie), max_size=1 << 62)


def test_errors_are_left_to_the_careful_path(libzstd):
    rng = random.Random(5)
    for packed in samples(Codec.ZSTD):
        for end in range(len(packed)):
            assert libzstd.zstd_decompress(packed[:end], MiB) is None
        for _ in range(300):
            damaged = bytearray(packed)
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
            got = libzstd.zstd_decompress(bytes(damaged), MiB)
            try:
                careful = decompress(Codec.ZSTD, bytes(damaged), max_size=MiB)
            except DecodeError:  # corrupt, or declaring more than the cap
                careful = None
            # A flipped literal decodes without error when there is no checksum: then both
            # paths must agree on the bytes.
            assert got is None or got == careful


def test_size_guesses_for_frames_without_a_size_adapt(libzstd):
    # Frames without a content size are decoded into a buffer sized after the previous
    # such payload's ratio first: alternate ratios so that guesses fall short and fit.
    rng = random.Random(9)
    noise = rng.randbytes(40_000)
    parts = [bytes(300_000), noise, DATA[:80_000], bytes(5_000), noise[:3_000], bytes(900_000)]
    for data in parts * 2:
        frame = zstd_streamed(data, chunk=4096)
        assert zstandard.frame_content_size(frame) == -1
        assert libzstd.zstd_decompress(frame, 64 * MiB) == data


def streamed_zstd_batch(values: list[bytes], base_offset: int) -> bytes:
    """A batch whose payload is one frame without a content size, as Java producers write."""
    records = [record(i, i, b"k%d" % i, v) for i, v in enumerate(values)]
    return v2_batch(
        records, base_offset=base_offset, attributes=ZSTD_ATTRIBUTES, compress=zstd_streamed
    )


def test_records_decode_on_both_paths(zstd_decoder):
    # Small payloads go into decode_records' slabs, large ones into objects of their own;
    # frames with and without a content size.
    rng = random.Random(3)
    values = [rng.randbytes(rng.randrange(0, 300)) for _ in range(3000)]
    chunks, start = [], 0
    for n in (10, 200, 600, 5, 2185):
        chunks.append(values[start : start + n])
        start += n
    buf = b""
    expected = []
    offset = 0
    for k, chunk in enumerate(chunks):
        if k % 2:
            buf += streamed_zstd_batch(chunk, offset)
        else:
            buf += b"".join(
                kafkawire.build_batches(
                    chunk,
                    keys=[b"k%d" % i for i in range(len(chunk))],
                    compression="zstd",
                    base_offset=offset,
                    max_bytes=1 << 30,
                )
            )
        expected += [(offset + i, b"k%d" % i, v) for i, v in enumerate(chunk)]
        offset += len(chunk)
    got = [(r.offset, r.key, r.value) for b in kafkawire.read_batches(buf) for r in b]
    assert got == expected
    view = kafkawire.decode_records(buf)
    columns = (view.offsets.tolist(), view.keys.to_pylist(), view.values.to_pylist())
    assert list(zip(*columns, strict=True)) == expected


def test_corrupt_batch_payload_reports_the_batch(zstd_decoder):
    good = streamed_zstd_batch([b"value-%d" % i for i in range(500)], 40)
    # Cut the frame's last 20 bytes and fix the batch length and CRC: only the payload is bad.
    records = [record(i, i, b"k%d" % i, b"value-%d" % i) for i in range(500)]
    bad = v2_batch(
        records,
        base_offset=40,
        attributes=ZSTD_ATTRIBUTES,
        compress=lambda p: zstd_streamed(p)[:-20],
    )
    assert len(bad) == len(good) - 20
    for decode in (
        kafkawire.decode_records,
        lambda b: [list(x) for x in kafkawire.read_batches(b)],
    ):
        with pytest.raises(DecompressionError, match="zstd") as info:
            decode(good + bad)
        assert info.value.batch_offset == 40
        assert info.value.offset == len(good) + 61  # where the batch's records start


def test_threads_decode_large_payloads_without_the_gil(libzstd):
    # Payloads over 256 KiB decode without the GIL, each thread with a context of its own.
    rng = random.Random(11)
    datas = [bytes(rng.choice(b"abcd") for _ in range(400_000)) for _ in range(4)]
    frames = [zstandard.ZstdCompressor().compress(d) for d in datas]
    frames += [zstd_streamed(d) for d in datas]
    datas += datas

    def work(k):
        return libzstd.zstd_decompress(frames[k % 8], 64 * MiB) == datas[k % 8]

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert all(pool.map(work, range(64)))


def test_switching_off_falls_back_to_zstandard(libzstd):
    payload = payloads()["16 KiB"]
    version = libzstd.libzstd_version()
    assert zstd_decoder() == f"libzstd {version // 10000}.{version // 100 % 100}.{version % 100}"
    try:
        assert libzstd.use_libzstd(False) is False
        assert libzstd.libzstd_version() is None
        assert zstd_decoder() == f"zstandard {zstandard.__version__}"
        assert libzstd.zstd_decompress(payload, MiB) is None
        assert decompress(Codec.ZSTD, payload) == DATA[:16384]
    finally:
        libzstd.use_libzstd(True)
    assert libzstd.zstd_decompress(payload, MiB) == DATA[:16384]
