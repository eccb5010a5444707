"""Tests of the C decoders of kafkawire.compression._codecs (lz4 frames, snappy raw and xerial).

They must decode whatever the reference libraries (lz4, cramjam, python-snappy) write to the
same bytes, and refuse corrupt, truncated or oversized input with DecompressionError or
LimitExceededError only, never reading or writing out of bounds (run under ASan too).
"""

from __future__ import annotations

import array
import random
import struct
import threading
import tracemalloc

import cramjam
import lz4.block
import lz4.frame
import pytest
import snappy

from kafkawire.compression import Codec, compress, decompress
from kafkawire.compression._codecs import (
    lz4_frame_compress,
    lz4_frame_decompress,
    snappy_decompress,
    xxh32,
)
from kafkawire.errors import DecompressionError, LimitExceededError

KiB = 1 << 10
MiB = 1 << 20
ERRORS = (DecompressionError, LimitExceededError)


def text(size: int, seed: int = 1) -> bytes:
    """Compressible, record-like bytes of exactly ``size`` bytes."""
    rng = random.Random(seed)
    words = [b"user", b"event", b"click", b"view", b"ts", b"page", b"kafka", b"wire"]
    out = bytearray()
    while len(out) < size:
        out += b'{"%s":%d,"%s":"%s"}\n' % (
            rng.choice(words),
            rng.randrange(10**6),
            rng.choice(words),
            rng.choice(words) * rng.randrange(1, 4),
        )
    return bytes(out[:size])


def mixed(size: int) -> bytes:
    """Runs of text, random bytes and zeros: literals, short and long matches, stored blocks."""
    rng = random.Random(size)
    out = bytearray()
    while len(out) < size:
        kind, n = rng.randrange(3), rng.randrange(1, 70_000)
        if kind == 0:
            out += text(n, rng.randrange(100))
        elif kind == 1:
            out += rng.randbytes(n)
        else:
            out += bytes(n)
    return bytes(out[:size])


PAYLOADS = {
    "empty": b"",
    "one": b"x",
    "small": b"kafkawire",
    "text-16k": text(16 * KiB),
    "text-300k": text(300 * KiB, 2),
    "random-50k": random.Random(3).randbytes(50_000),
    "zeros-1m": bytes(MiB),
    "period-3": b"abc" * 30_000,
    "mixed-4m": mixed(4 * MiB),
}
SMALL_PAYLOADS = {k: v for k, v in PAYLOADS.items() if len(v) <= 300 * KiB}


# --- xxh32 -------------------------------------------------------------------------------------


def test_xxh32_vectors():
    assert xxh32(b"") == 0x02CC5D05
    assert xxh32(b"a") == 0x550D7456
    assert xxh32(b"Nobody inspects the spammish repetition") == 0xE2293B2F
    assert xxh32(b"", 1) != xxh32(b"")
    assert xxh32(memoryview(b"--abc--")[2:5]) == xxh32(b"abc")


def test_xxh32_matches_the_checksums_liblz4_writes():
    for data in SMALL_PAYLOADS.values():
        frame = lz4.frame.compress(data, content_checksum=True, store_size=False)
        assert struct.unpack("<I", frame[-4:])[0] == xxh32(data)
        assert frame[6] == (xxh32(frame[4:6]) >> 8) & 0xFF


# --- lz4: agreement with liblz4 ------------------------------------------------------------------

LZ4_VARIANTS = [
    dict(block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=False, store_size=False),
    dict(block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=True, store_size=True),
    dict(block_size=lz4.frame.BLOCKSIZE_MAX256KB, block_checksum=True, content_checksum=True),
    dict(block_size=lz4.frame.BLOCKSIZE_MAX1MB, block_checksum=True, store_size=False),
    dict(block_size=lz4.frame.BLOCKSIZE_MAX4MB, content_checksum=True, block_linked=False),
    dict(compression_level=9, block_linked=True, block_checksum=True),
]


@pytest.mark.parametrize("variant", range(len(LZ4_VARIANTS)))
@pytest.mark.parametrize("name", list(PAYLOADS))
def test_lz4_matches_liblz4(name, variant):
    data = PAYLOADS[name]
    frame = lz4.frame.compress(data, **LZ4_VARIANTS[variant])
    assert lz4.frame.decompress(frame) == data
    out = lz4_frame_decompress(frame, 64 * MiB)
    assert type(out) is bytes
    assert out == data
    assert lz4_frame_decompress(frame, len(data)) == data
    if data:
        with pytest.raises(LimitExceededError, match="lz4"):
            lz4_frame_decompress(frame, len(data) - 1)


def test_lz4_kafka_payloads():
    for data in SMALL_PAYLOADS.values():
        for magic in (0, 1, 2):
            packed = compress(Codec.LZ4, data, magic=magic)
            assert decompress(Codec.LZ4, packed, magic=magic) == data


def test_lz4_several_frames_and_skippable_frames():
    parts = [PAYLOADS["text-16k"], b"", PAYLOADS["random-50k"], PAYLOADS["zeros-1m"]]
    frames = [lz4.frame.compress(p, **LZ4_VARIANTS[i % 6]) for i, p in enumerate(parts)]
    skip = struct.pack("<II", 0x184D2A53, 5) + b"12345"
    payload = skip + frames[0] + frames[1] + skip + frames[2] + frames[3] + skip
    assert lz4_frame_decompress(payload, 64 * MiB) == b"".join(parts)
    assert lz4_frame_decompress(b"".join(frames), sum(map(len, parts))) == b"".join(parts)
    with pytest.raises(LimitExceededError):
        lz4_frame_decompress(b"".join(frames), sum(map(len, parts)) - 1)
    with pytest.raises(DecompressionError, match="no lz4 frame"):
        lz4_frame_decompress(skip, MiB)


def test_lz4_uncompressed_blocks():
    data = random.Random(9).randbytes(200_000)
    frame = lz4.frame.compress(
        data, block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_checksum=True, store_size=False
    )
    assert struct.unpack_from("<I", frame, 7)[0] & 0x80000000  # a stored block
    assert lz4_frame_decompress(frame, len(data)) == data


def test_lz4_size_guess_retries():
    # The first buffer tried is sized after the previous payload's ratio: alternate extremes.
    frames = [
        (lz4.frame.compress(d, store_size=False), d)
        for d in (bytes(MiB), random.Random(1).randbytes(100_000), b"ab" * 200_000, b"x")
    ]
    for _ in range(3):
        for frame, data in frames + frames[::-1]:
            assert lz4_frame_decompress(frame, 64 * MiB) == data


def test_lz4_declared_size_over_the_cap_in_a_guessed_buffer():
    incompressible = lz4.frame.compress(random.Random(2).randbytes(10_000))
    zeros = lz4.frame.compress(bytes(100_000), store_size=True)
    for cap, error in ((99_999, LimitExceededError), (100_000, None)):
        lz4_frame_decompress(incompressible, MiB)  # the next guess: about the input size
        if error is None:
            assert lz4_frame_decompress(zeros, cap) == bytes(100_000)
        else:
            with pytest.raises(error, match="declares 100000 bytes"):
                lz4_frame_decompress(zeros, cap)


def test_lz4_input_buffer_types():
    data = PAYLOADS["text-300k"]
    frame = lz4.frame.compress(data)
    for source in (bytearray(frame), memoryview(frame), memoryview(b"??" + frame + b"??")[2:-2]):
        assert lz4_frame_decompress(source, MiB) == data
    words = array.array("I", data[:40_000])
    assert lz4_frame_decompress(lz4.frame.compress(words), MiB) == data[:40_000]


def test_lz4_magic0_header_checksum():
    frame = bytearray(compress(Codec.LZ4, PAYLOADS["text-16k"], magic=0))
    assert frame[6] == (xxh32(bytes(frame[:6])) >> 8) & 0xFF  # magic number hashed too
    assert lz4_frame_decompress(frame, MiB, 0) == PAYLOADS["text-16k"]
    for magic in (1, 2):
        with pytest.raises(DecompressionError, match="header checksum"):
            lz4_frame_decompress(frame, MiB, magic)


def test_lz4_threads_without_the_gil():
    # Large payloads are decoded with the GIL released: concurrent calls must not interfere.
    frames = [(lz4.frame.compress(d), d) for d in (PAYLOADS["mixed-4m"], PAYLOADS["zeros-1m"])]
    failures = []

    def work(i):
        frame, data = frames[i % 2]
        for _ in range(3):
            if lz4_frame_decompress(frame, 8 * MiB) != data:
                failures.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


# --- lz4: the compressor ----------------------------------------------------------------------


def kafka_lz4_frame(data: bytes, level: int = 0) -> bytes:
    """What the lz4 package writes with the frame settings of Kafka's Java client."""
    return lz4.frame.compress(
        data,
        compression_level=level,
        block_size=lz4.frame.BLOCKSIZE_MAX64KB,
        block_linked=False,
        content_checksum=False,
        store_size=False,
    )


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_lz4_compress_writes_what_liblz4s_frame_api_writes(name):
    """Byte for byte the lz4 package's frames (stored blocks for what does not shrink,
    64 KiB blocks and their edges, the empty frame), and compress()'s fast levels the same
    as the package's: the negative ones accelerated."""
    data = PAYLOADS[name]
    assert lz4_frame_compress(data) == kafka_lz4_frame(data)
    assert lz4_frame_decompress(lz4_frame_compress(data), len(data)) == data
    if len(data) <= 300 * KiB:
        for level in (-4, -1, 0, 2):
            assert compress(Codec.LZ4, data, level=level) == kafka_lz4_frame(data, level)
    for n in (65_535, 65_536, 65_537, 2 * 65_536):
        assert lz4_frame_compress(data[:n]) == kafka_lz4_frame(data[:n])


def test_lz4_compress_levels_and_kafkas_old_checksum():
    data = PAYLOADS["text-300k"]
    assert lz4_frame_compress(data, acceleration=5) == kafka_lz4_frame(data, -4)
    assert len(lz4_frame_compress(data, acceleration=5)) > len(lz4_frame_compress(data))
    old = lz4_frame_compress(data, magic=0)
    assert old[6] == (xxh32(old[:6]) >> 8) & 0xFF  # the magic number hashed too
    assert old[7:] == lz4_frame_compress(data)[7:]
    hc = compress(Codec.LZ4, data, level=9)  # the HC levels: the lz4 package
    assert hc == kafka_lz4_frame(data, 9) and len(hc) < len(lz4_frame_compress(data))
    with pytest.raises(ValueError, match="acceleration must be >= 1"):
        lz4_frame_compress(data, acceleration=0)


def test_lz4_compress_in_threads_without_the_gil():
    data = [PAYLOADS["mixed-4m"], PAYLOADS["text-300k"]]
    want = [kafka_lz4_frame(d) for d in data]
    failures = []

    def work(i):
        for _ in range(3):
            if lz4_frame_compress(data[i % 2]) != want[i % 2]:
                failures.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


# --- lz4: hand-made frames -----------------------------------------------------------------------


def lz4_frame(*blocks: bytes, flg: int = 0x60, bd: int = 0x40, stored=(), size=None) -> bytes:
    """A frame around raw lz4 blocks; ``stored`` lists the indexes of uncompressed blocks."""
    descriptor = bytes([flg | (0x08 if size is not None else 0), bd])
    if size is not None:
        descriptor += struct.pack("<Q", size)
    out = [b"\x04\x22\x4d\x18", descriptor, bytes([(xxh32(descriptor) >> 8) & 0xFF])]
    for i, block in enumerate(blocks):
        out.append(struct.pack("<I", len(block) | (0x80000000 if i in stored else 0)) + block)
    out.append(bytes(4))
    return b"".join(out)


def sequence(literals: bytes, offset: int | None = None, match: int = 0) -> bytes:
    """One lz4 sequence; the last of a block has no offset."""

    def length(n: int, base: int) -> tuple[int, bytes]:
        if n < 15 + base:
            return n - base, b""
        n -= 15 + base
        return 15, b"\xff" * (n // 255) + bytes([n % 255])

    lit_code, lit_ext = length(len(literals), 0)
    if offset is None:
        return bytes([lit_code << 4]) + lit_ext + literals
    ml_code, ml_ext = length(match, 4)
    token = bytes([lit_code << 4 | ml_code])
    return token + lit_ext + literals + struct.pack("<H", offset) + ml_ext


def test_lz4_hand_made_blocks_match_liblz4():
    # (liblz4 wants the last 5 bytes of a block, at least, to be literals.)
    block = sequence(b"abcd", 4, 40) + sequence(b"xyz", 7, 5) + sequence(b"the end of it")
    expected = lz4.block.decompress(block, uncompressed_size=1000)
    assert len(expected) == 4 + 40 + 3 + 5 + 13
    assert lz4_frame_decompress(lz4_frame(block), MiB) == expected
    long = sequence(b"q" * 300, 1, 5000) + sequence(b"z" * 20)
    assert lz4_frame_decompress(lz4_frame(long), MiB) == b"q" * 5300 + b"z" * 20


def test_lz4_offset_before_output_start_rejected():
    # (Every hand-made block here keeps the format's end rules: its last 5 bytes or more are
    # literals and its last match starts 12 bytes or more before its end.)
    end = sequence(b"the end of it")
    with pytest.raises(DecompressionError, match="offset"):
        lz4_frame_decompress(lz4_frame(sequence(b"abc", 4, 4) + end), MiB)
    # Offset 0 (invalid in the format's spec) is what liblz4 1.9.4 takes: it copies the
    # four bytes it has just zeroed. Nothing is read outside the output.
    zero = lz4_frame(sequence(b"abc", 0, 4) + end)
    assert lz4_frame_decompress(zero, MiB) == b"abc" + bytes(4) + b"the end of it"
    # Alike when a guessed buffer is too small (found by fuzz/native/fuzz_lz4.c).
    zero = lz4_frame(sequence(b"x", 1, 5000) + sequence(b"abc", 0, 4) + end)
    expected = b"x" * 5001 + b"abc" + bytes(4) + b"the end of it"
    for next_guess in (random.Random(1).randbytes(1000), bytes(MiB)):
        lz4_frame_decompress(lz4.frame.compress(next_guess), MiB)
        assert lz4_frame_decompress(zero, MiB) == expected
    # Across blocks: allowed in linked frames only.
    first = sequence(b"0123456789")
    second = sequence(b"", 10, 10) + sequence(b"!!!!!")
    expected = b"0123456789" * 2 + b"!!!!!"
    assert lz4_frame_decompress(lz4_frame(first, second, flg=0x40), MiB) == expected
    with pytest.raises(DecompressionError, match="offset"):
        lz4_frame_decompress(lz4_frame(first, second, flg=0x60), MiB)
    # Nor into a previous frame.
    with pytest.raises(DecompressionError, match="offset"):
        lz4_frame_decompress(lz4_frame(first) + lz4_frame(second, flg=0x40), MiB)


def test_lz4_linked_blocks_reach_back_64_kib():
    # Matches of a linked frame's block may reach 65535 bytes back, into earlier blocks.
    head = random.Random(4).randbytes(65_535)
    last = sequence(b"", 65_535, 100) + sequence(b"12345")
    blocks = [sequence(head[:40_000]), sequence(head[40_000:]), last]
    expected = head + head[:100] + b"12345"
    for cap in (MiB, len(expected)):
        assert lz4_frame_decompress(lz4_frame(*blocks, flg=0x40), cap) == expected
    with pytest.raises(DecompressionError, match="offset"):
        lz4_frame_decompress(lz4_frame(*blocks[1:], flg=0x40), MiB)


def test_lz4_match_past_max_size_rejected():
    frame = lz4_frame(sequence(b"a", 1, 60_000) + sequence(b"bbbbb"))
    assert lz4_frame_decompress(frame, 60_006) == b"a" * 60_001 + b"bbbbb"
    for cap in (60_005, 60_001, 1000, 1, 0):
        with pytest.raises(LimitExceededError, match="lz4"):
            lz4_frame_decompress(frame, cap)
    # Past the block maximum (64 KiB) is corrupt whatever the cap.
    frame = lz4_frame(sequence(b"a", 1, 70_000) + sequence(b"bbbbb"))
    with pytest.raises(DecompressionError, match="block maximum"):
        lz4_frame_decompress(frame, 10 * MiB)
    frame = lz4_frame(sequence(b"a", 1, 65_526) + sequence(b"b" * 9), sequence(b"b"))
    assert len(lz4_frame_decompress(frame, MiB)) == 65_537


def test_lz4_block_end_rules_decide_alike_whatever_the_buffer():
    # liblz4 checks the format's end rules against the end of its output window. A block
    # that breaks them decodes, or is refused, as into a window of the block maximum
    # (LZ4F_decompress's), whether the buffer is a guess, the cap or the scan's bound.
    # the last match ends 4 bytes before the end
    loose = lz4_frame(sequence(b"a", 1, 100) + sequence(b"bcde"))
    expected = b"a" * 101 + b"bcde"
    # the same, ending at the block maximum
    tight = lz4_frame(sequence(b"a", 1, 65_531) + sequence(b"bcde"))
    small_next_guess = lz4.frame.compress(random.Random(1).randbytes(1000))
    large_next_guess = lz4.frame.compress(bytes(MiB))
    for cap in (len(expected), len(expected) + 3, 1000, MiB):
        for guess in (small_next_guess, large_next_guess):
            lz4_frame_decompress(guess, MiB)
            assert lz4_frame_decompress(loose, cap) == expected
    for cap in (65_536, 70_000, MiB):
        with pytest.raises(DecompressionError, match="end breaks the format's rules"):
            lz4_frame_decompress(tight, cap)


def test_lz4_structure_errors():
    good = lz4_frame(sequence(b"hello"))
    assert lz4_frame_decompress(good, MiB) == b"hello"
    cases = {
        "bad magic": b"\x05" + good[1:],
        "descriptor": good[:4] + b"\x80" + good[5:],  # version 2
        "after the lz4 frame": good + b"\x00",
    }
    for message, payload in cases.items():
        with pytest.raises(DecompressionError, match=message):
            lz4_frame_decompress(payload, MiB)
    with pytest.raises(DecompressionError, match="larger than the frame's block maximum"):
        lz4_frame_decompress(lz4_frame(bytes(70_000), stored=[0]), MiB)
    with pytest.raises(DecompressionError, match="content size"):
        lz4_frame_decompress(lz4_frame(sequence(b"hello"), size=6), MiB)
    assert lz4_frame_decompress(lz4_frame(sequence(b"hello"), size=5), MiB) == b"hello"
    with pytest.raises(LimitExceededError, match="declares"):
        lz4_frame_decompress(lz4_frame(sequence(b"hello"), size=5), 4)
    # A block must end with literals.
    with pytest.raises(DecompressionError, match="at byte"):
        lz4_frame_decompress(lz4_frame(sequence(b"abcd", 4, 4)), MiB)


def test_lz4_checksum_errors():
    data = PAYLOADS["text-16k"]
    frame = bytearray(lz4.frame.compress(data, block_checksum=True, content_checksum=True))
    bad = bytearray(frame)
    bad[-9] ^= 1  # the block checksum
    with pytest.raises(DecompressionError, match="block checksum"):
        lz4_frame_decompress(bad, MiB)
    bad = bytearray(frame)
    bad[-1] ^= 1  # the content checksum
    with pytest.raises(DecompressionError, match="content checksum"):
        lz4_frame_decompress(bad, MiB)


# --- snappy: agreement with cramjam and python-snappy ------------------------------------------


def xerial(data: bytes, block: int) -> bytes:
    out = [b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1)]
    for start in range(0, len(data), block):
        raw = snappy.compress(data[start : start + block])
        out.append(struct.pack(">i", len(raw)) + raw)
    return b"".join(out)


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_snappy_matches_libraries(name):
    data = PAYLOADS[name]
    for raw in (bytes(cramjam.snappy.compress_raw(data)), snappy.compress(data)):
        out = snappy_decompress(raw, 64 * MiB)
        assert type(out) is bytes
        assert out == data == snappy.decompress(raw)
        assert snappy_decompress(raw, len(data)) == data
        if data:
            with pytest.raises(LimitExceededError, match="snappy"):
                snappy_decompress(raw, len(data) - 1)
    for block in (1000, 32 * KiB, MiB):
        stream = xerial(data, block)
        assert snappy_decompress(stream, 64 * MiB) == data
        assert decompress(Codec.SNAPPY, stream) == data
    assert decompress(Codec.SNAPPY, compress(Codec.SNAPPY, data)) == data


def test_snappy_input_buffer_types():
    data = PAYLOADS["text-300k"]
    stream = xerial(data, 32 * KiB)
    for source in (bytearray(stream), memoryview(b"??" + stream + b"??")[2:-2]):
        assert snappy_decompress(source, MiB) == data


def snappy_raw(length: int, *elements: bytes) -> bytes:
    varint = bytearray()
    while True:
        varint.append(length & 0x7F | (0x80 if length > 0x7F else 0))
        length >>= 7
        if not length:
            return bytes(varint) + b"".join(elements)


def literal(data: bytes) -> bytes:
    n = len(data) - 1
    if n < 60:
        return bytes([n << 2]) + data
    size = (n.bit_length() + 7) // 8
    return bytes([(59 + size) << 2]) + n.to_bytes(size, "little") + data


def test_snappy_hand_made_elements():
    copy1 = bytes([1 | (7 - 4) << 2 | (0 << 5), 3])  # 7 bytes from 3 back
    copy2 = bytes([2 | (63 << 2)]) + struct.pack("<H", 10)  # 64 bytes from 10 back
    copy4 = bytes([3 | (4 << 2)]) + struct.pack("<I", 2)  # 5 bytes from 2 back
    raw = snappy_raw(
        3 + 7 + 7 + 64 + 5 + 100,
        literal(b"abc"),
        copy1,
        literal(b"defghij"),
        copy2,
        copy4,
        literal(b"z" * 100),
    )
    assert snappy_decompress(raw, MiB) == snappy.decompress(raw)
    with pytest.raises(DecompressionError, match="offset"):
        snappy_decompress(snappy_raw(10, literal(b"abc"), bytes([1 | 2 << 2, 4])), MiB)
    with pytest.raises(DecompressionError, match="offset"):
        snappy_decompress(snappy_raw(10, literal(b"abc"), bytes([1 | 2 << 2, 0])), MiB)
    with pytest.raises(DecompressionError, match="more than its length"):
        snappy_decompress(snappy_raw(5, literal(b"abc"), copy4), MiB)
    with pytest.raises(DecompressionError, match="less than its length"):
        snappy_decompress(snappy_raw(50, literal(b"abc"), copy4), MiB)
    with pytest.raises(DecompressionError, match="length header"):
        snappy_decompress(b"\xff\xff\xff\xff\xff\x01", MiB)
    assert snappy_decompress(b"\x00", MiB) == b""


def random_elements(rng: random.Random, size: int) -> tuple[list[bytes], int]:
    """Elements of every form (literals of 1 to 100 bytes, 1-, 2- and 4-byte-offset copies of
    1 to 64 bytes from 1 to 3000 bytes back) decoding to about ``size`` bytes: (elements,
    decoded length)."""
    elements, out = [literal(rng.randbytes(40))], 40
    while out < size:
        form = rng.randrange(4)
        if form == 0:
            n = rng.choice([rng.randint(1, 32), rng.randint(33, 100)])
            elements.append(literal(rng.randbytes(n)))
            out += n
            continue
        offset = rng.choice([rng.randint(1, 15), rng.randint(16, 40), rng.randint(41, 3000)])
        offset = min(offset, out)
        if form == 1 and offset < 2048:
            n = rng.randint(4, 11)
            elements.append(bytes([1 | (n - 4) << 2 | (offset >> 8) << 5, offset & 0xFF]))
        else:
            n = rng.randint(1, 64)
            tag = bytes([(2 if form < 3 else 3) | (n - 1) << 2])
            elements.append(tag + offset.to_bytes(2 if form < 3 else 4, "little"))
        out += n
    return elements, out


def test_snappy_long_blocks_of_every_element_form():
    # Long blocks are decoded by the fast loop far from their ends and by the checked loop
    # near them; both must agree with python-snappy whatever follows what.
    rng = random.Random(5)
    for _ in range(40):
        elements, size = random_elements(rng, rng.randint(100, 20_000))
        raw = snappy_raw(size, *elements)
        assert snappy_decompress(raw, MiB) == snappy.decompress(raw)


def test_snappy_every_copy_tag_in_the_fast_loop():
    # The fast loop looks copy lengths and offset high bits up in a table by tag byte: every
    # one of the 192 copy tags, far from the block's ends, must decode as python-snappy does.
    rng = random.Random(7)
    elements, out = [literal(rng.randbytes(60)) for _ in range(40)], 2400
    for tag in range(256):
        form = tag & 3
        if form == 0:
            continue
        if form == 1:
            n, offset = 4 + (tag >> 2 & 7), (tag >> 5) << 8 | rng.randint(16, 255)
            elements.append(bytes([tag, offset & 0xFF]))
        else:
            n, offset = (tag >> 2) + 1, rng.randint(16, 2400)
            elements.append(bytes([tag]) + offset.to_bytes(2 if form == 2 else 4, "little"))
        elements.append(literal(rng.randbytes(rng.randint(1, 20))))
        out += n + len(elements[-1]) - 1
    elements.append(literal(rng.randbytes(60)))
    out += 60
    raw = snappy_raw(out, *elements)
    assert snappy_decompress(raw, MiB) == snappy.decompress(raw)


def test_snappy_bad_copy_deep_in_a_block_is_reported_where_it_is():
    rng = random.Random(6)
    elements, size = random_elements(rng, 8000)
    for bad in (bytes([2 | 5 << 2]) + (size + 1).to_bytes(2, "little"), bytes([2 | 5 << 2, 0, 0])):
        at = len(elements) // 2
        raw = snappy_raw(size, *elements[:at], bad, *elements[at:])
        pos = len(snappy_raw(size)) + sum(map(len, elements[:at]))
        with pytest.raises(DecompressionError, match=f"offset.*at byte {pos} of"):
            snappy_decompress(raw, MiB)


def test_snappy_lying_length_allocates_nothing():
    # 1 GiB declared over a 12-byte body: impossible (a byte encodes at most 22), and refused
    # before anything is allocated for it, whatever the cap.
    lie = snappy_raw(1 << 30, literal(b"abc"), bytes([2 | 63 << 2, 3, 0]) * 3)
    tracemalloc.start()
    try:
        with pytest.raises(DecompressionError, match="larger than the block can hold"):
            snappy_decompress(lie, 2 << 30)
        with pytest.raises(LimitExceededError):
            snappy_decompress(lie, MiB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * KiB, peak


# --- bombs ---------------------------------------------------------------------------------------


def lz4_bomb(block_size=lz4.frame.BLOCKSIZE_MAX4MB) -> bytes:
    ctx = lz4.frame.create_compression_context()
    parts = [lz4.frame.compress_begin(ctx, block_size=block_size, auto_flush=True)]
    parts += [lz4.frame.compress_chunk(ctx, bytes(MiB)) for _ in range(64)]
    return b"".join(parts) + lz4.frame.compress_flush(ctx)


BOMBS = {
    "lz4-4m-blocks": (lz4_bomb, lz4_frame_decompress),
    "lz4-64k-blocks": (lambda: lz4_bomb(lz4.frame.BLOCKSIZE_MAX64KB), lz4_frame_decompress),
    "lz4-many-frames": (lambda: lz4.frame.compress(bytes(MiB)) * 64, lz4_frame_decompress),
    "snappy-xerial": (lambda: xerial(bytes(64 * MiB), 32 * KiB), snappy_decompress),
    "snappy-raw": (lambda: bytes(cramjam.snappy.compress_raw(bytes(64 * MiB))), snappy_decompress),
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_bombs_capped_with_small_peak_memory(name):
    build, decode = BOMBS[name]
    bomb = build()
    assert len(bomb) < 4 * MiB
    assert len(decode(bomb, 64 * MiB)) == 64 * MiB  # the bombs are real
    tracemalloc.start()
    try:
        with pytest.raises(LimitExceededError):
            decode(bomb, MiB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MiB + 64 * KiB, peak  # max_size, and a little


# --- truncation and corruption -----------------------------------------------------------------


def lz4_samples() -> list[tuple[bytes, int]]:
    """(payload, magic) pairs."""
    data = PAYLOADS["text-16k"][:3000]
    return [
        (lz4.frame.compress(data, block_checksum=True, content_checksum=True), 2),
        (lz4.frame.compress(data, store_size=False, block_linked=True), 2),
        (lz4.frame.compress(PAYLOADS["random-50k"][:2000], store_size=False), 2),
        (lz4.frame.compress(b"ab" * 2000 + data[:500], block_size=lz4.frame.BLOCKSIZE_MAX4MB), 2),
        (compress(Codec.LZ4, data, magic=0), 0),
        (lz4.frame.compress(b"x"), 2),
    ]


def snappy_samples() -> list[bytes]:
    data = PAYLOADS["text-16k"][:3000]
    return [
        snappy.compress(data),
        bytes(cramjam.snappy.compress_raw(b"ab" * 2000 + data[:500])),
        snappy.compress(PAYLOADS["random-50k"][:1000]),
        xerial(data, 1000),
        snappy.compress(b"x"),
    ]


def check_refused_or_bytes(call, payload, max_size):
    try:
        out = call(payload, max_size)
    except ERRORS as exc:
        assert exc.offset is None
        return False
    assert type(out) is bytes and len(out) <= max_size
    return True


def test_every_lz4_truncation_is_refused():
    for frame, magic in lz4_samples():
        assert lz4_frame_decompress(frame, MiB, magic)
        for end in range(len(frame)):
            with pytest.raises(DecompressionError, match="lz4"):
                lz4_frame_decompress(frame[:end], MiB, magic)


def test_every_snappy_truncation_is_refused():
    for payload in snappy_samples():
        expected = snappy_decompress(payload, MiB)
        boundaries = set()
        if payload[:8] == b"\x82SNAPPY\x00":
            pos = 16
            while pos < len(payload):
                boundaries.add(pos)
                pos += 4 + struct.unpack_from(">i", payload, pos)[0]
        for end in range(len(payload)):
            if end in boundaries:  # a shorter, valid xerial stream
                assert expected.startswith(snappy_decompress(payload[:end], MiB))
                continue
            with pytest.raises(DecompressionError, match="snappy"):
                snappy_decompress(payload[:end], MiB)


@pytest.mark.parametrize("codec", ["lz4", "snappy"])
def test_random_corruption_is_refused_or_decoded(codec):
    rng = random.Random(42)
    samples = [p for p, _ in lz4_samples()] if codec == "lz4" else snappy_samples()
    call = (
        (lambda p, cap: lz4_frame_decompress(p, cap, rng.choice([0, 2])))
        if codec == "lz4"
        else snappy_decompress
    )
    refused = 0
    for _ in range(3000):
        bad = bytearray(rng.choice(samples))
        for _ in range(rng.randint(1, 4)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        r = rng.random()
        if r < 0.2:
            del bad[rng.randrange(len(bad)) :]
        elif r < 0.3:
            pos = rng.randrange(len(bad))
            bad[pos:pos] = rng.randbytes(rng.randint(1, 8))
        refused += not check_refused_or_bytes(call, bytes(bad), rng.choice([64 * KiB, 100]))
    assert refused > 1000


def test_lz4_damaged_frames_decode_alike_whatever_the_buffer():
    # Bytes or error, a payload's outcome must not depend on the buffer it is decoded into:
    # a guess sized after the previous payload (small or large), or the scan's bound. (Which
    # error may: a guess meets the faults in decoding order, the scan looks at every block
    # header first.)
    rng = random.Random(8)
    small_next_guess = lz4.frame.compress(rng.randbytes(5000))
    large_next_guess = lz4.frame.compress(bytes(MiB))
    samples = [p for p, magic in lz4_samples() if magic == 2]
    samples.append(lz4_frame(sequence(b"a", 1, 100) + sequence(b"bcde"), sequence(b"xyz" * 9)))

    def outcome(payload):
        try:
            return lz4_frame_decompress(payload, MiB)
        except ERRORS:
            return "refused"

    for _ in range(1500):
        bad = bytearray(rng.choice(samples))
        for _ in range(rng.randint(1, 3)):
            bad[rng.randrange(7, len(bad))] = rng.randrange(256)  # past the frame header
        outcomes = set()
        for guess in (small_next_guess, large_next_guess):
            lz4_frame_decompress(guess, MiB)
            outcomes.add(outcome(bytes(bad)))
        assert len(outcomes) == 1, outcomes


@pytest.mark.parametrize("codec", ["lz4", "snappy"])
def test_random_garbage_is_refused_or_decoded(codec):
    rng = random.Random(7)
    call = (lambda p, cap: lz4_frame_decompress(p, cap, 0)) if codec == "lz4" else snappy_decompress
    header = b"\x04\x22\x4d\x18\x60\x40" if codec == "lz4" else b"\x82SNAPPY\x00" + bytes(8)
    for _ in range(1000):
        junk = rng.randbytes(rng.randrange(40))
        check_refused_or_bytes(call, junk, MiB)
        check_refused_or_bytes(call, header + junk, MiB)
