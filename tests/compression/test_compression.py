"""Tests of kafkawire.compression: round trips, interop, Kafka quirks, caps and corruption."""

from __future__ import annotations

import array
import gzip
import json
import os
import random
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zlib

import aiokafka.codec as aiokafka_codec
import cramjam
import kafka.codec as kafka_codec
import lz4.frame
import pytest
import zstandard

from kafkawire.compression import (
    DEFAULT_MAX_DECOMPRESSED_SIZE,
    Codec,
    _xxh32,
    codec_from,
    compress,
    decompress,
)
from kafkawire.errors import (
    DecodeError,
    DecompressionError,
    EncodeError,
    LimitExceededError,
    UnsupportedError,
)

MiB = 1 << 20
COMPRESSED = [Codec.GZIP, Codec.SNAPPY, Codec.LZ4, Codec.ZSTD]


def records(size: int, seed: int = 7) -> bytes:
    """JSON-like, compressible bytes of exactly ``size`` bytes."""
    rng = random.Random(seed)
    lines = []
    total = 0
    i = 0
    while total < size:
        line = json.dumps(
            {"id": i, "user": f"user-{rng.randrange(10**6)}", "ts": 1_700_000_000_000 + 37 * i}
        )
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines).encode()[:size]


DATA = records(100_000)
SMALL = b"kafkawire"
RANDOM = random.Random(3).randbytes(50_000)


# --- round trips and input types -------------------------------------------------------------


@pytest.mark.parametrize("codec", list(Codec))
@pytest.mark.parametrize("magic", [0, 1, 2])
@pytest.mark.parametrize(
    "payload", [b"", SMALL, DATA, RANDOM], ids=["empty", "small", "json", "random"]
)
def test_round_trip(codec, magic, payload):
    packed = compress(codec, payload, magic=magic)
    assert type(packed) is bytes
    if codec != Codec.NONE and len(payload) > 1000 and payload is not RANDOM:
        assert len(packed) < len(payload) // 2
    out = decompress(codec, packed, magic=magic)
    assert type(out) is bytes
    assert out == payload


@pytest.mark.parametrize("codec", list(Codec))
def test_input_buffer_types(codec):
    packed = compress(codec, DATA)
    big = b"\xff" * 13 + packed + b"\xee" * 7
    for source in (bytearray(packed), memoryview(packed), memoryview(big)[13:-7]):
        assert decompress(codec, source) == DATA
    assert compress(codec, memoryview(b"--" + DATA + b"--")[2:-2]) == compress(codec, DATA)
    # A buffer whose items are not bytes: lengths must count bytes, not items.
    words = array.array("I", DATA[:40_000])
    assert decompress(codec, compress(codec, words)) == DATA[:40_000]


@pytest.mark.parametrize("codec", COMPRESSED)
def test_levels(codec):
    if codec == Codec.SNAPPY:
        assert compress(codec, DATA, level=9) == compress(codec, DATA)
        return
    fast, best = (1, 9) if codec != Codec.ZSTD else (1, 19)
    a = compress(codec, DATA, level=fast)
    b = compress(codec, DATA, level=best)
    assert a != b
    assert decompress(codec, a) == decompress(codec, b) == DATA


def test_bad_level_is_encode_error():
    with pytest.raises(EncodeError, match="gzip"):
        compress(Codec.GZIP, DATA, level=42)
    with pytest.raises(EncodeError, match="zstd"):
        compress(Codec.ZSTD, DATA, level=100)


# --- interop with kafka-python and aiokafka ----------------------------------------------------

THIRD_PARTY = {
    "kafka-python": kafka_codec,
    "aiokafka": aiokafka_codec,
}


@pytest.mark.parametrize("lib", list(THIRD_PARTY))
@pytest.mark.parametrize("payload", [SMALL, DATA, records(300_000)], ids=["small", "100k", "300k"])
def test_third_party_payloads_decode(lib, payload):
    codec = THIRD_PARTY[lib]
    assert decompress(Codec.GZIP, codec.gzip_encode(payload)) == payload
    assert decompress(Codec.SNAPPY, codec.snappy_encode(payload)) == payload
    assert decompress(Codec.LZ4, codec.lz4_encode(payload)) == payload
    assert decompress(Codec.ZSTD, codec.zstd_encode(payload)) == payload


def test_kafka_python_raw_snappy_decodes():
    raw = kafka_codec.snappy_encode(DATA, xerial_compatible=False)
    assert raw[:8] != b"\x82SNAPPY\x00"
    assert decompress(Codec.SNAPPY, raw) == DATA


@pytest.mark.parametrize("lib", list(THIRD_PARTY))
@pytest.mark.parametrize("payload", [b"", SMALL, records(300_000)], ids=["empty", "small", "300k"])
def test_our_payloads_decode_in_third_party(lib, payload):
    codec = THIRD_PARTY[lib]
    assert codec.gzip_decode(compress(Codec.GZIP, payload)) == payload
    assert codec.snappy_decode(compress(Codec.SNAPPY, payload)) == payload
    assert codec.lz4_decode(compress(Codec.LZ4, payload)) == payload
    assert codec.zstd_decode(compress(Codec.ZSTD, payload)) == payload


# --- gzip -------------------------------------------------------------------------------------


def test_gzip_multi_member():
    parts = [DATA[:1000], b"", DATA[1000:50_000], DATA[50_000:]]
    packed = b"".join(gzip.compress(part) for part in parts)
    assert decompress(Codec.GZIP, packed) == DATA
    assert decompress(Codec.GZIP, packed, max_size=len(DATA)) == DATA
    with pytest.raises(LimitExceededError):
        decompress(Codec.GZIP, packed, max_size=len(DATA) - 1)


def test_gzip_is_standard_gzip():
    packed = compress(Codec.GZIP, DATA)
    assert packed[:3] == b"\x1f\x8b\x08"
    assert gzip.decompress(packed) == DATA


def test_gzip_trailing_garbage_rejected():
    with pytest.raises(DecompressionError, match="gzip"):
        decompress(Codec.GZIP, gzip.compress(DATA) + b"junk")


# --- snappy -----------------------------------------------------------------------------------

XERIAL_HEADER = b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1)


def xerial(*blocks: bytes, header: bytes = XERIAL_HEADER) -> bytes:
    out = [header]
    for block in blocks:
        raw = bytes(cramjam.snappy.compress_raw(block))
        out.append(struct.pack(">i", len(raw)) + raw)
    return b"".join(out)


def test_snappy_raw():
    raw = bytes(cramjam.snappy.compress_raw(DATA))
    assert decompress(Codec.SNAPPY, raw) == DATA


def test_snappy_xerial_several_blocks():
    blocks = [DATA[i : i + 20_000] for i in range(0, len(DATA), 20_000)]
    assert decompress(Codec.SNAPPY, xerial(*blocks)) == DATA
    assert decompress(Codec.SNAPPY, xerial(b"", SMALL, b"")) == SMALL
    # Version fields are ignored: some producers write them little-endian.
    little = b"\x82SNAPPY\x00" + struct.pack("<ii", 1, 1)
    assert decompress(Codec.SNAPPY, xerial(*blocks, header=little)) == DATA
    assert decompress(Codec.SNAPPY, XERIAL_HEADER) == b""


def test_snappy_compress_writes_xerial_blocks_of_32k():
    packed = compress(Codec.SNAPPY, DATA)
    assert packed[:16] == XERIAL_HEADER
    pos, sizes = 16, []
    while pos < len(packed):
        (length,) = struct.unpack_from(">i", packed, pos)
        sizes.append(cramjam.snappy.decompress_raw_len(packed[pos + 4 : pos + 4 + length]))
        pos += 4 + length
    assert pos == len(packed)
    assert sizes == [32768, 32768, 32768, len(DATA) - 3 * 32768]


# --- lz4 --------------------------------------------------------------------------------------

LZ4_MAGIC = b"\x04\x22\x4d\x18"


def lz4_header_checksum(descriptor: bytes) -> int:
    return (_xxh32(descriptor) >> 8) & 0xFF


def test_xxh32_vectors():
    assert _xxh32(b"") == 0x02CC5D05
    assert _xxh32(b"a") == 0x550D7456
    assert _xxh32(b"Nobody inspects the spammish repetition") == 0xE2293B2F  # > 16 bytes


@pytest.mark.parametrize("store_size", [False, True])
def test_lz4_header_checksum_matches_liblz4(store_size):
    frame = lz4.frame.compress(DATA, store_size=store_size)
    hc_pos = 14 if store_size else 6
    assert frame[hc_pos] == lz4_header_checksum(frame[4:hc_pos])


# A frame written by hand: FLG 0x60 (version 1, independent blocks), BD 0x40 (64 KiB blocks),
# one stored block "kafka", end mark. Its correct header checksum is 0x82; Kafka before 0.10
# hashed the magic number too and wrote 0x1a.
LZ4_KAFKA = b"kafka"
LZ4_GOOD = LZ4_MAGIC + b"\x60\x40\x82" + struct.pack("<I", 0x80000005) + LZ4_KAFKA + bytes(4)
LZ4_OLD = LZ4_MAGIC + b"\x60\x40\x1a" + struct.pack("<I", 0x80000005) + LZ4_KAFKA + bytes(4)


def test_lz4_hand_written_vectors():
    assert lz4.frame.decompress(LZ4_GOOD) == LZ4_KAFKA
    assert lz4_header_checksum(LZ4_MAGIC + b"\x60\x40") == 0x1A
    assert decompress(Codec.LZ4, LZ4_GOOD, magic=1) == LZ4_KAFKA
    assert decompress(Codec.LZ4, LZ4_OLD, magic=0) == LZ4_KAFKA
    # Magic 0 ignores the checksum, so a correct one is accepted there too.
    assert decompress(Codec.LZ4, LZ4_GOOD, magic=0) == LZ4_KAFKA
    for magic in (1, 2):
        with pytest.raises(DecompressionError, match="lz4"):
            decompress(Codec.LZ4, LZ4_OLD, magic=magic)


def test_lz4_magic0_compress_writes_the_old_checksum():
    old = compress(Codec.LZ4, DATA, magic=0)
    new = compress(Codec.LZ4, DATA, magic=1)
    # What Java's KafkaLZ4BlockOutputStream writes: no content size, independent 64 KiB blocks.
    assert old[:6] == new[:6] == LZ4_MAGIC + b"\x60\x40"
    assert new[6] == 0x82
    assert old[6] == 0x1A
    assert old[7:] == new[7:]
    with pytest.raises(RuntimeError, match="headerChecksum"):
        lz4.frame.decompress(old)
    assert lz4.frame.decompress(new) == DATA
    assert decompress(Codec.LZ4, old, magic=0) == DATA


def test_lz4_magic0_with_content_size():
    frame = bytearray(lz4.frame.compress(DATA, store_size=True))
    frame[14] = lz4_header_checksum(bytes(frame[:14]))
    assert decompress(Codec.LZ4, frame, magic=0) == DATA
    with pytest.raises(DecompressionError):
        decompress(Codec.LZ4, frame, magic=2)


def test_lz4_bad_header_checksum_rejected():
    frame = bytearray(lz4.frame.compress(DATA, store_size=False))
    frame[6] ^= 0x55
    for magic in (1, 2):
        with pytest.raises(DecompressionError, match="lz4"):
            decompress(Codec.LZ4, frame, magic=magic)
    assert decompress(Codec.LZ4, frame, magic=0) == DATA


@pytest.mark.parametrize("block_size", [lz4.frame.BLOCKSIZE_MAX64KB, lz4.frame.BLOCKSIZE_MAX4MB])
@pytest.mark.parametrize("checksums", [False, True])
def test_lz4_frame_variants(block_size, checksums):
    frame = lz4.frame.compress(
        DATA,
        block_size=block_size,
        block_checksum=checksums,
        content_checksum=checksums,
        block_linked=True,
    )
    assert decompress(Codec.LZ4, frame) == DATA
    # Incompressible input is written as stored blocks.
    frame = lz4.frame.compress(RANDOM, block_size=block_size, store_size=False)
    assert decompress(Codec.LZ4, frame, max_size=len(RANDOM)) == RANDOM


def test_lz4_trailing_bytes_rejected():
    with pytest.raises(DecompressionError, match="after the lz4 frame"):
        decompress(Codec.LZ4, compress(Codec.LZ4, DATA) + b"\x00")


# --- zstd -------------------------------------------------------------------------------------


def zstd_streamed(data: bytes, level: int = 3, chunk: int = 10_000) -> bytes:
    """A frame as streaming compressors (Java's zstd-jni) write it: no content size."""
    compressor = zstandard.ZstdCompressor(level=level).compressobj()
    parts = [compressor.compress(data[i : i + chunk]) for i in range(0, len(data), chunk)]
    return b"".join(parts) + compressor.flush()


def test_zstd_without_content_size(zstd_decoder):
    frame = zstd_streamed(DATA)
    assert zstandard.frame_content_size(frame) == -1
    assert decompress(Codec.ZSTD, frame) == DATA
    frame = zstandard.ZstdCompressor(write_content_size=False, write_checksum=True).compress(DATA)
    assert zstandard.frame_content_size(frame) == -1
    assert decompress(Codec.ZSTD, frame) == DATA


def test_zstd_multi_frame(zstd_decoder):
    one_shot = zstandard.ZstdCompressor().compress(DATA[:30_000])
    assert zstandard.frame_content_size(one_shot) == 30_000
    payload = one_shot + zstd_streamed(DATA[30_000:60_000]) + compress(Codec.ZSTD, DATA[60_000:])
    assert decompress(Codec.ZSTD, payload) == DATA
    assert decompress(Codec.ZSTD, payload, max_size=len(DATA)) == DATA
    with pytest.raises(LimitExceededError):
        decompress(Codec.ZSTD, payload, max_size=len(DATA) - 1)
    skippable = struct.pack("<II", 0x184D2A5E, 3) + b"abc"
    assert decompress(Codec.ZSTD, skippable + payload + skippable) == DATA


def test_zstd_empty_frames(zstd_decoder):
    empty = zstandard.ZstdCompressor().compress(b"")
    assert decompress(Codec.ZSTD, empty) == b""
    assert decompress(Codec.ZSTD, empty + compress(Codec.ZSTD, SMALL) + empty) == SMALL


# --- caps and bombs ---------------------------------------------------------------------------

# Each bomb expands to 64 MiB from a small payload; built chunk by chunk so that building it
# does not itself need 64 MiB.
BOMB_SIZE = 64 * MiB
ZEROS = bytes(MiB)


def gzip_bomb() -> bytes:
    deflater = zlib.compressobj(9, zlib.DEFLATED, 31)
    return b"".join(deflater.compress(ZEROS) for _ in range(64)) + deflater.flush()


def gzip_multi_member_bomb() -> bytes:
    return gzip.compress(ZEROS, 9) * 64


def snappy_bomb() -> bytes:
    block = bytes(cramjam.snappy.compress_raw(bytes(32768)))
    return XERIAL_HEADER + (struct.pack(">i", len(block)) + block) * (BOMB_SIZE // 32768)


def snappy_lying_header() -> bytes:
    # Raw snappy whose length header claims 4 GiB - 1: nothing may be allocated for it.
    return b"\xff\xff\xff\xff\x0f" + bytes(cramjam.snappy.compress_raw(SMALL))[1:]


def lz4_bomb() -> bytes:
    ctx = lz4.frame.create_compression_context()
    parts = [
        lz4.frame.compress_begin(
            ctx, block_size=lz4.frame.BLOCKSIZE_MAX4MB, block_linked=False, auto_flush=True
        )
    ]
    parts += [lz4.frame.compress_chunk(ctx, ZEROS) for _ in range(64)]
    return b"".join(parts) + lz4.frame.compress_flush(ctx)


def zstd_bomb() -> bytes:
    return zstd_streamed(ZEROS * 4, chunk=MiB) * 16


def zstd_rle_bomb() -> bytes:
    # Hand-made frame: no content size, window 1 MiB, 512 RLE blocks of 128 KiB; 1.5 KiB.
    header = struct.pack("<I", 0xFD2FB528) + b"\x00" + bytes([(20 - 10) << 3])
    block = struct.pack("<I", (128 * 1024) << 3 | 1 << 1)[:3] + b"\x00"
    last = struct.pack("<I", (128 * 1024) << 3 | 1 << 1 | 1)[:3] + b"\x00"
    return header + block * 511 + last


BOMBS = {
    "gzip": (Codec.GZIP, gzip_bomb),
    "gzip-members": (Codec.GZIP, gzip_multi_member_bomb),
    "snappy": (Codec.SNAPPY, snappy_bomb),
    "snappy-lying-header": (Codec.SNAPPY, snappy_lying_header),
    "lz4": (Codec.LZ4, lz4_bomb),
    "zstd": (Codec.ZSTD, zstd_bomb),
    "zstd-rle": (Codec.ZSTD, zstd_rle_bomb),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_bomb_is_capped_with_small_peak_memory(name):
    codec, build = BOMBS[name]
    bomb = build()
    assert len(bomb) < 4 * MiB
    if name != "snappy-lying-header":
        # The bombs are real: they do expand to 64 MiB.
        assert len(decompress(codec, bomb)) == BOMB_SIZE
    tracemalloc.start()
    try:
        with pytest.raises(LimitExceededError):
            decompress(codec, bomb, max_size=MiB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * MiB, peak


def test_bombs_keep_rss_small():
    """The real peak (library internals included), measured in a fresh process."""
    script = textwrap.dedent(
        """
        import resource, sys
        import tests.compression.test_compression as t
        from kafkawire.compression import decompress
        from kafkawire.errors import LimitExceededError
        bombs = [(codec, build()) for codec, build in t.BOMBS.values()]
        decompress(1, t.gzip.compress(t.DATA), max_size=t.MiB)  # warm up every codec
        decompress(4, t.zstd_streamed(t.DATA), max_size=t.MiB)
        decompress(3, t.compress(3, t.DATA), max_size=t.MiB)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for codec, bomb in bombs:
            try:
                decompress(codec, bomb, max_size=t.MiB)
            except LimitExceededError:
                continue
            sys.exit("not capped")
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
        """
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *sys.path]))
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=root
    )
    assert result.returncode == 0, result.stderr
    grown_kib = int(result.stdout)
    assert grown_kib < 16 * 1024, grown_kib  # uncapped, one bomb alone would take 64 MiB


@pytest.mark.parametrize("codec", COMPRESSED)
@pytest.mark.parametrize(
    "make",
    [
        lambda codec, data: compress(codec, data),
        lambda codec, data: zstd_streamed(data) if codec == Codec.ZSTD else compress(codec, data),
    ],
    ids=["default", "streamed"],
)
def test_cap_is_exact(codec, make):
    packed = make(codec, DATA)
    assert decompress(codec, packed, max_size=len(DATA)) == DATA
    with pytest.raises(LimitExceededError):
        decompress(codec, packed, max_size=len(DATA) - 1)


@pytest.mark.parametrize("codec", [Codec.LZ4, Codec.ZSTD])
def test_cap_below_structural_bound_counts_real_output(codec):
    # 64 KiB of input in a frame whose blocks could hold 4 MiB: the bound exceeds the cap,
    # so the counting pass decides.
    data = DATA[:65536]
    if codec == Codec.LZ4:
        packed = lz4.frame.compress(data, block_size=lz4.frame.BLOCKSIZE_MAX4MB, store_size=False)
    else:
        packed = zstd_streamed(data, chunk=1000)
    assert decompress(codec, packed, max_size=70_000) == data
    assert decompress(codec, packed, max_size=65536) == data
    with pytest.raises(LimitExceededError):
        decompress(codec, packed, max_size=65535)


def test_zstd_multi_frame_below_structural_bound(zstd_decoder):
    parts = [DATA[i : i + 20_000] for i in range(0, 100_000, 20_000)]
    payload = b"".join(zstd_streamed(part) for part in parts)
    assert decompress(Codec.ZSTD, payload, max_size=100_000) == DATA
    with pytest.raises(LimitExceededError):
        decompress(Codec.ZSTD, payload, max_size=99_999)


def test_declared_sizes_over_the_cap(zstd_decoder):
    frame = lz4.frame.compress(DATA, store_size=True)
    with pytest.raises(LimitExceededError, match="declares"):
        decompress(Codec.LZ4, frame, max_size=1000)
    frame = zstandard.ZstdCompressor().compress(DATA)
    with pytest.raises(LimitExceededError, match="declares"):
        decompress(Codec.ZSTD, frame, max_size=1000)
    # A zstd header claiming 2**60 bytes over a tiny body.
    lie = bytearray(zstandard.ZstdCompressor().compress(SMALL))
    assert lie[4] == 0x20  # single segment, 1-byte content size
    lie = lie[:4] + b"\xe0" + struct.pack("<Q", 1 << 60) + lie[6:]
    with pytest.raises(LimitExceededError):
        decompress(Codec.ZSTD, lie)
    with pytest.raises(DecompressionError, match="content size"):
        decompress(Codec.ZSTD, lie, max_size=1 << 61)


def test_lz4_small_declared_size_does_not_lift_the_cap():
    bomb = bytearray(lz4_bomb())
    assert bomb[4] & 0x08 == 0
    # Declare 100 bytes of content: the frame still holds 64 MiB.
    bomb[4] |= 0x08
    bomb[6:7] = struct.pack("<Q", 100) + bytes(
        [lz4_header_checksum(bytes(bomb[4:6]) + struct.pack("<Q", 100))]
    )
    with pytest.raises(DecompressionError, match="lz4"):
        decompress(Codec.LZ4, bomb)
    tracemalloc.start()
    try:
        with pytest.raises(LimitExceededError):
            decompress(Codec.LZ4, bomb, max_size=MiB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * MiB, peak


def test_default_cap():
    assert 256 * MiB == DEFAULT_MAX_DECOMPRESSED_SIZE


# --- corrupt and truncated input --------------------------------------------------------------


def samples(codec: Codec) -> list[bytes]:
    """Payloads of one block, member or frame each, so that no prefix is a valid payload.

    (An xerial stream cut right after its header is a valid empty stream.)
    """
    out = [compress(codec, DATA[:20_000]), compress(codec, SMALL)]
    if codec == Codec.SNAPPY:
        out.append(bytes(cramjam.snappy.compress_raw(DATA[:20_000])))
    if codec == Codec.LZ4:
        out.append(lz4.frame.compress(DATA[:20_000], block_checksum=True))
        out.append(compress(codec, DATA[:20_000], magic=0))
    if codec == Codec.ZSTD:
        out.append(zstd_streamed(DATA[:20_000]))
    return out


@pytest.mark.parametrize("codec", COMPRESSED)
def test_every_truncation_is_a_decompression_error(codec):
    for packed in samples(codec):
        magic = 0 if codec == Codec.LZ4 and packed[6] == 0x1A else 2
        assert decompress(codec, packed, magic=magic) is not None
        for end in range(17 if packed[:8] == XERIAL_HEADER[:8] else 0, len(packed)):
            with pytest.raises(DecompressionError, match=codec.name.lower()):
                decompress(codec, packed[:end], max_size=MiB, magic=magic)


@pytest.mark.parametrize("codec", COMPRESSED)
def test_garbage_is_a_decompression_error(codec):
    # (b"\x00" alone is valid raw snappy for an empty payload.)
    for junk in (b"\x00" * 64, b"\x01", b"not compressed at all", RANDOM[:1000]):
        with pytest.raises(DecompressionError, match=codec.name.lower()):
            decompress(codec, junk, max_size=MiB)


@pytest.mark.parametrize("codec", COMPRESSED)
def test_random_corruption_raises_only_kafkawire_errors(codec):
    rng = random.Random(int(codec))
    errors = 0
    for packed in samples(codec):
        for _ in range(150):
            bad = bytearray(packed)
            for _ in range(rng.randint(1, 4)):
                bad[rng.randrange(len(bad))] = rng.randrange(256)
            if rng.random() < 0.3:
                del bad[rng.randrange(len(bad)) :]
            try:
                out = decompress(codec, bad, max_size=MiB, magic=rng.choice([0, 2]))
            except DecodeError as exc:
                assert isinstance(exc, (DecompressionError, LimitExceededError)), exc
                assert exc.offset is None
                errors += 1
            else:
                assert type(out) is bytes
    assert errors > 100


# --- codec ids and names ----------------------------------------------------------------------


@pytest.mark.parametrize("codec", [5, 6, 7, -1, 255])
def test_unknown_codec_id(codec):
    with pytest.raises(UnsupportedError, match=str(codec)):
        decompress(codec, b"whatever")
    with pytest.raises(EncodeError):
        compress(codec, b"whatever")


def test_none_codec_copies():
    source = bytearray(b"abc")
    out = decompress(Codec.NONE, memoryview(source))
    assert out == b"abc"
    assert type(out) is bytes
    source[0] = ord("x")
    assert out == b"abc"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, Codec.NONE),
        (Codec.LZ4, Codec.LZ4),
        (0, Codec.NONE),
        (4, Codec.ZSTD),
        ("none", Codec.NONE),
        ("gzip", Codec.GZIP),
        ("Snappy", Codec.SNAPPY),
        ("LZ4", Codec.LZ4),
        ("zStd", Codec.ZSTD),
    ],
)
def test_codec_from(value, expected):
    codec = codec_from(value)
    assert codec is expected
    assert isinstance(codec, Codec)


@pytest.mark.parametrize("value", ["brotli", "", "gzip ", 5, -1, 1.0, True, b"gzip", object()])
def test_codec_from_rejects(value):
    with pytest.raises(EncodeError):
        codec_from(value)


def test_codec_ids():
    assert [int(c) for c in Codec] == [0, 1, 2, 3, 4]
    assert [c.name for c in Codec] == ["NONE", "GZIP", "SNAPPY", "LZ4", "ZSTD"]
