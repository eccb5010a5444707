"""Compression codecs of Kafka record batches (magic 2) and legacy message sets (magic 0/1).

Strategy: every decompressor bounds its output *before* it allocates, then lets one fast
one-shot library call write the result.

* gzip: ISA-L's inflater (``isal``; measured 1.6-1.8x stdlib zlib's on Kafka payloads)
  streams with ``max_length``, which caps the output as it is produced; concatenated
  members are decoded one after the other. Compression stays with stdlib ``zlib``, whose
  level 6 is what Java's GZIPOutputStream writes.
* snappy and lz4 decode in C (``kafkawire.compression._codecs``; the ``cramjam`` library only
  compresses snappy): a 16 KiB payload costs a few microseconds to decode, so the per-call
  overhead of Python code and of the libraries' wrappers was most of the time. lz4 compresses
  in C too (``src_c/lz4_encode.c``, the frame around the vendored liblz4's blocks; the batch
  builder calls it from C, straight into the batch), except at the HC levels (3 and up),
  which go to the ``lz4`` package.
  - snappy: raw snappy declares its length up front, so the declared lengths of all blocks
    are checked against the cap (and against what the block's size can encode) before one
    exactly sized bytes object is allocated and decoded into. The xerial framing written by
    the Java client is detected by its magic.
  - lz4: the frame and block headers are walked first for a bound on the output (a block
    never decodes to more than the frame's block maximum, nor to more than 255 times its
    size). The blocks decode into a buffer sized after the previous payload's ratio or, if
    that proves too small, into one of min(bound, max_size) bytes; the result is shrunk to
    its size. The frame walk is kafkawire's (``src_c/lz4_decode.c``: Kafka's quirks, caps,
    error offsets); each block goes to the vendored liblz4's ``LZ4_decompress_safe``, which
    never writes past the buffer (measured 0.75-0.96x the time of kafkawire's former
    hand-written block decoder: docs/benchmarks.md, "Reference codecs").
* zstd: payloads go straight from C to libzstd's one-shot decoder, compiled into
  ``kafkawire.compression._codecs`` from the vendored sources (``src_c/vendor/zstd``,
  ``src_c/zstd_decode.c``): the frame headers bound the output, which one call decodes into
  a buffer of that size (or of the size the previous payload's ratio predicts, for frames
  that declare none). No Python call per payload, and the same library whatever the system
  has. Anything that path does not take (a bound over the cap, an error) comes here:
* zstd (``zstandard``): the frame and block headers are walked in Python to get a hard bound
  on the output. Within the cap, one one-shot call decodes. Above it (a bomb or a huge
  frame), a first streaming pass counts the output in fixed-size chunks and fails as soon
  as it passes the cap; only then is the exact size decoded.
* Old Kafka (magic 0) wrote lz4 frames with a wrong header checksum (KAFKA-3160): at magic 0
  the header checksum is not checked, and ``magic=0`` encoding reproduces the old one.
"""

from __future__ import annotations

import enum
import operator
import struct
import threading
import zlib

import cramjam
import lz4.frame
import zstandard
from isal import isal_zlib

from kafkawire.compression import _codecs
from kafkawire.compression._codecs import lz4_frame_decompress as _lz4_decompress
from kafkawire.compression._codecs import snappy_decompress as _snappy_decompress
from kafkawire.compression._codecs import xxh32 as _xxh32
from kafkawire.errors import (
    DecompressionError,
    EncodeError,
    LimitExceededError,
    UnsupportedError,
)

__all__ = [
    "DEFAULT_MAX_DECOMPRESSED_SIZE",
    "Codec",
    "codec_from",
    "compress",
    "decompress",
    "zstd_decoder",
]


class Codec(enum.IntEnum):
    """Codec ids of the attributes field (the low 3 bits)."""

    NONE = 0
    GZIP = 1
    SNAPPY = 2
    LZ4 = 3
    ZSTD = 4


DEFAULT_MAX_DECOMPRESSED_SIZE = 256 * 1024 * 1024

_U32LE = struct.Struct("<I")
_I32BE = struct.Struct(">i")

# Output of the counting pass over frames whose bound exceeds the cap: small, so a bomb
# costs at most this much memory beyond max_size.
_CHUNK = 256 * 1024

# Per-thread zstd contexts: creating one costs about as much as decoding 16 KiB, and a
# context must not be shared between threads.
_local = threading.local()


def _as_bytes(data) -> bytes | bytearray | memoryview:
    """``data`` as a flat byte buffer whose ``len`` counts bytes; never copies."""
    if type(data) is bytes or type(data) is bytearray:
        return data
    view = memoryview(data)
    if view.itemsize != 1 or view.ndim != 1 or view.format != "B":
        view = view.cast("B")
    return view


# --- gzip -----------------------------------------------------------------------------------


def _gzip_decompress(data, max_size: int) -> bytes:
    # One member holding all the input is what Kafka writers produce: one call, nothing to
    # join. max_length stops the output one byte past the cap.
    inflater = isal_zlib.decompressobj(31)
    try:
        out = inflater.decompress(data, max_size + 1)
    except isal_zlib.error as exc:
        raise DecompressionError(f"corrupt gzip payload: {exc}") from None
    if inflater.eof and not inflater.unused_data and len(out) <= max_size:
        return out
    return _gzip_members(data, max_size)


def _gzip_members(data, max_size: int) -> bytes:
    """Several members, or a payload the one call did not finish: member by member."""
    view = _as_bytes(data)
    end = len(view)
    parts = []
    total = 0
    pos = 0
    # The first member gets all the input in one call (one member: the usual case). The
    # inflater copies what follows a member's end (unused_data), so later members are fed in
    # pieces that double from 64 bytes: each copy stays proportional to its member, not to
    # the rest of the payload (thousands of tiny members would otherwise copy quadratically).
    feed = end
    chunk = view
    while True:
        inflater = isal_zlib.decompressobj(31)
        while True:
            try:
                # max_length stops the output once one byte past the cap.
                out = inflater.decompress(chunk, max_size + 1 - total)
            except isal_zlib.error as exc:
                raise DecompressionError(f"corrupt gzip payload: {exc}") from None
            total += len(out)
            if total > max_size:
                raise LimitExceededError(f"gzip payload decompresses to more than {max_size} bytes")
            if out:
                parts.append(out)
            if inflater.eof:
                pos += len(chunk) - len(inflater.unused_data)
                break
            taken = len(chunk) - len(inflater.unconsumed_tail)
            if not taken and not out:  # never expected below the cap; never loop on it
                raise DecompressionError("corrupt gzip payload: the inflater is stuck")
            pos += taken
            if pos >= end:
                raise DecompressionError("truncated gzip payload")
            feed *= 2
            chunk = memoryview(view)[pos : pos + feed]
        if pos >= end:
            return parts[0] if len(parts) == 1 else b"".join(parts)
        feed = 64
        chunk = memoryview(view)[pos : pos + feed]


def _gzip_compress(data, level: int | None) -> bytes:
    # Java's GZIPOutputStream uses zlib's default level (6).
    deflater = zlib.compressobj(6 if level is None else level, zlib.DEFLATED, 31)
    return deflater.compress(data) + deflater.flush()


# --- snappy ---------------------------------------------------------------------------------

_XERIAL_MAGIC = b"\x82SNAPPY\x00"
# magic, version 1, minimum compatible version 1 (the last two are read by nobody).
_XERIAL_HEADER = _XERIAL_MAGIC + b"\x00\x00\x00\x01\x00\x00\x00\x01"
_XERIAL_BLOCK = 32 * 1024  # snappy-java's default block size (of uncompressed input)


def _snappy_compress(data) -> bytes:
    view = _as_bytes(data)
    if not isinstance(view, memoryview):
        view = memoryview(view)
    parts = [_XERIAL_HEADER]
    # range(0, 0) would write no block, and readers that look for a block after the header
    # (kafka-python) would then misread an empty stream as raw snappy.
    for start in range(0, len(view) or 1, _XERIAL_BLOCK):
        block = cramjam.snappy.compress_raw(view[start : start + _XERIAL_BLOCK])
        parts.append(_I32BE.pack(len(block)))
        parts.append(block)
    return b"".join(parts)


# --- lz4 ------------------------------------------------------------------------------------


def _lz4_header_checksum(descriptor: bytes) -> int:
    return (_xxh32(descriptor) >> 8) & 0xFF


# lz4.frame's first high-compression (LZ4HC) level: the levels below are liblz4's fast
# compressor, the negative ones with acceleration 1 - level
_LZ4_HC_LEVEL = 3


def _lz4_compress(data, magic: int, level: int | None) -> bytes:
    # What Java's KafkaLZ4BlockOutputStream writes: 64 KiB independent blocks, no content
    # size (which pre-0.10 readers may not skip) and no checksums beyond the header's.
    if level is None or level < _LZ4_HC_LEVEL:
        acceleration = 1 if level is None or level >= 0 else 1 - level
        return _codecs.lz4_frame_compress(data, magic, acceleration)
    frame = lz4.frame.compress(
        data,
        compression_level=level,
        block_size=lz4.frame.BLOCKSIZE_MAX64KB,
        block_linked=False,
        content_checksum=False,
        store_size=False,
    )
    if magic != 0:
        return frame
    return b"".join((frame[:6], bytes((_lz4_header_checksum(frame[:6]),)), frame[7:]))


# --- zstd -----------------------------------------------------------------------------------

_ZSTD_MAGIC = 0xFD2FB528
_ZSTD_BLOCK_MAX = 128 * 1024
_ZSTD_FCS_BYTES = (0, 2, 4, 8)
_ZSTD_DICT_ID_BYTES = (0, 1, 2, 4)


def _zstd_walk(view) -> tuple[list[tuple[int, int, int]], int]:
    """Check the frames' structure.

    Return the (start, end, output bound) of each data frame, and the sum of the bounds.
    """
    unpack_u32 = _U32LE.unpack_from
    end = len(view)
    frames = []
    total = 0
    pos = 0
    while pos < end:
        if pos + 6 > end:
            raise DecompressionError("truncated zstd frame header")
        (magic,) = unpack_u32(view, pos)
        if magic & 0xFFFFFFF0 == 0x184D2A50:  # skippable frame: [magic][u32 size][data]
            if pos + 8 > end:
                raise DecompressionError("truncated zstd skippable frame")
            pos += 8 + unpack_u32(view, pos + 4)[0]
            continue
        if magic != _ZSTD_MAGIC:
            raise DecompressionError("corrupt zstd frame: bad magic number")
        fhd = view[pos + 4]
        if fhd & 0x08:
            raise DecompressionError("corrupt zstd frame: reserved header bit set")
        p = pos + 5
        window = 0
        if not fhd & 0x20:
            wd = view[p]
            window = 1 << (10 + (wd >> 3))
            window += (window >> 3) * (wd & 7)
            p += 1
        p += _ZSTD_DICT_ID_BYTES[fhd & 3]
        fcs_bytes = _ZSTD_FCS_BYTES[fhd >> 6] or (1 if fhd & 0x20 else 0)
        content_size = None
        if fcs_bytes:
            if p + fcs_bytes > end:
                raise DecompressionError("truncated zstd frame header")
            content_size = int.from_bytes(view[p : p + fcs_bytes], "little")
            if fcs_bytes == 2:
                content_size += 256
            p += fcs_bytes
            if fhd & 0x20:
                window = content_size
        block_max = min(window, _ZSTD_BLOCK_MAX)
        bound = 0
        while True:
            if p + 3 > end:
                raise DecompressionError("truncated zstd frame")
            # The 3-byte little-endian block header, read as the top of the u32 ending with it.
            header = unpack_u32(view, p - 1)[0] >> 8
            p += 3
            kind = (header >> 1) & 3
            size = header >> 3
            if kind == 0:  # raw
                bound += size
                p += size
            elif kind == 1:  # RLE: one byte repeated size times
                bound += size
                p += 1
            elif kind == 2:
                bound += block_max
                p += size
            else:
                raise DecompressionError("corrupt zstd frame: reserved block type")
            if header & 1:
                break
        if fhd & 0x04:
            p += 4
        if p > end:
            raise DecompressionError("truncated zstd frame")
        if content_size is not None:
            if content_size > bound:
                raise DecompressionError("corrupt zstd frame: content size exceeds its blocks")
            bound = content_size
        frames.append((pos, p, bound))
        total += bound
        pos = p
    if pos > end:
        raise DecompressionError("truncated zstd skippable frame")
    if not frames:
        raise DecompressionError("corrupt zstd payload: no frame")
    return frames, total


def _zstd_dctx() -> zstandard.ZstdDecompressor:
    try:
        return _local.dctx
    except AttributeError:
        _local.dctx = dctx = zstandard.ZstdDecompressor()
        return dctx


def _zstd_decompress(data, max_size: int) -> bytes:
    view = _as_bytes(data)
    dctx = _zstd_dctx()
    try:
        declared = zstandard.frame_content_size(view)
    except zstandard.ZstdError:
        declared = -1  # not a valid frame header: the walk below says what is wrong
    if declared > max_size:
        raise LimitExceededError(f"zstd frame declares {declared} bytes (cap {max_size})")
    # One-shot into a buffer of the declared size, which the decoder verifies; it fails on a
    # second frame too, which the walk below handles. A block of at least 4 bytes (RLE)
    # decodes to at most 128 KiB: a size above that ratio is a lie the walk reports.
    if 0 < declared <= len(view) << 15:
        try:
            return dctx.decompress(view, allow_extra_data=False)
        except zstandard.ZstdError:
            pass
    frames, total = _zstd_walk(view)
    try:
        if total <= max_size:
            # Each output buffer is exactly the frame's bound (or declared content size), so
            # nothing can grow past it whatever the blocks hold.
            if len(frames) == 1 and frames[0][1] - frames[0][0] == len(view):
                return dctx.decompress(view, max_output_size=total) if total else b""
            if not isinstance(view, memoryview):
                view = memoryview(view)
            return b"".join(
                dctx.decompress(view[start:stop], max_output_size=bound) if bound else b""
                for start, stop, bound in frames
            )
        # Over the cap on paper: count the real output in chunks first, then decode it all.
        chunk = bytearray(_CHUNK)
        produced = 0
        with dctx.stream_reader(view, read_across_frames=True) as reader:
            while got := reader.readinto(chunk):
                produced += got
                if produced > max_size:
                    raise LimitExceededError(
                        f"zstd payload decompresses to more than {max_size} bytes"
                    )
        with dctx.stream_reader(view, read_across_frames=True) as reader:
            out = reader.read(produced)
        if len(out) != produced:
            raise DecompressionError("corrupt zstd payload: output changed between passes")
        return out
    except zstandard.ZstdError as exc:
        raise DecompressionError(f"corrupt zstd frame: {exc}") from None


def _zstd_compress(data, level: int | None) -> bytes:
    level = 3 if level is None else level  # Kafka's default zstd level
    try:
        compressors = _local.cctx
    except AttributeError:
        compressors = _local.cctx = {}
    cctx = compressors.get(level)
    if cctx is None:
        cctx = compressors[level] = zstandard.ZstdCompressor(level=level)
    return cctx.compress(data)


# --- public API -----------------------------------------------------------------------------

_NAMES = {codec.name.lower(): codec for codec in Codec}


def codec_from(value) -> Codec:
    """A :class:`Codec` from ``None``, a codec, its id or its name (any case)."""
    if value is None:
        return Codec.NONE
    if isinstance(value, str):
        codec = _NAMES.get(value.lower())
        if codec is None:
            raise EncodeError(f"unknown compression codec {value!r}")
        return codec
    if isinstance(value, bool):
        raise EncodeError(f"not a compression codec: {value!r}")
    try:
        return Codec(operator.index(value))
    except (TypeError, ValueError):
        raise EncodeError(f"unknown compression codec {value!r}") from None


def decompress(
    codec: int, data, *, max_size: int = DEFAULT_MAX_DECOMPRESSED_SIZE, magic: int = 2
) -> bytes:
    """Decompress one payload; raise if it would decode to more than ``max_size`` bytes."""
    # lz4 and snappy first: the C decoders are fast enough for this dispatch to show.
    if codec == 3:
        return _lz4_decompress(data, max_size, magic)
    if codec == 2:
        return _snappy_decompress(data, max_size)
    if codec == 1:
        return _gzip_decompress(data, max_size)
    if codec == 4:
        out = _codecs.zstd_decompress(data, max_size)  # the compiled-in libzstd, if it can
        return out if out is not None else _zstd_decompress(data, max_size)
    if codec == 0:
        return bytes(data)
    raise UnsupportedError(f"unknown compression codec id {codec}")


def zstd_decoder() -> str:
    """Which library decodes zstd payloads here: ``"libzstd 1.5.7"`` (compiled in, called
    from C) or ``"zstandard 0.25.0"`` (the package, when tests switch the former off)."""
    version = _codecs.libzstd_version()
    if version is None:
        return f"zstandard {zstandard.__version__}"
    return f"libzstd {version // 10000}.{version // 100 % 100}.{version % 100}"


def compress(codec: int, data, *, magic: int = 2, level: int | None = None) -> bytes:
    """Compress one payload as Kafka's Java client would; ``level`` None = its default.

    ``level`` is ignored by snappy and by no compression.
    """
    try:
        if codec == 1:
            return _gzip_compress(data, level)
        if codec == 2:
            return _snappy_compress(data)
        if codec == 3:
            return _lz4_compress(data, magic, level)
        if codec == 4:
            return _zstd_compress(data, level)
    except (zlib.error, RuntimeError, ValueError, zstandard.ZstdError) as exc:
        raise EncodeError(f"cannot compress with {Codec(codec).name.lower()}: {exc}") from None
    if codec == 0:
        return bytes(data)
    raise EncodeError(f"unknown compression codec id {codec}")
