"""Decompressors called from C: lz4 frames (blocks by the vendored liblz4) and snappy (raw and
xerial); zstd through the vendored libzstd. And lz4 frame compression (blocks by liblz4)."""

from typing import Any

Buffer = bytes | bytearray | memoryview | Any  # anything with the buffer protocol

def lz4_frame_compress(data: Buffer, magic: int = 2, acceleration: int = 1) -> bytes:
    """One lz4 frame as Kafka's Java client writes it (64 KiB independent blocks, no
    checksums, no content size), byte for byte what lz4.frame.compress writes with those
    settings. ``magic`` 0 writes the header checksum Kafka < 0.10 expects; ``acceleration``
    (>= 1) is liblz4's: higher is faster and larger.
    """

def lz4_frame_decompress(data: Buffer, max_size: int, magic: int = 2) -> bytes:
    """Decode an lz4 payload (frames, skippable frames) of at most ``max_size`` bytes.

    Raise DecompressionError for a corrupt or truncated payload and LimitExceededError when
    the output would exceed ``max_size``. ``magic`` 0 ignores the frame header checksum,
    which Kafka < 0.10 computed wrongly.
    """

def snappy_decompress(data: Buffer, max_size: int) -> bytes:
    """Decode a raw snappy block, or an xerial stream (detected by its magic)."""

def xxh32(data: Buffer, seed: int = 0) -> int:
    """XXH32 of a bytes-like object (liblz4's xxhash)."""

def libzstd_version() -> int | None:
    """ZSTD_versionNumber() of the compiled-in libzstd when zstd payloads go through it, else
    None (switched off by use_libzstd)."""

def use_libzstd(enabled: bool) -> bool:
    """Decode zstd through the compiled-in libzstd, or through the zstandard package only
    (tests run both paths); returns whether the compiled-in library is now in use."""

def zstd_decompress(data: Buffer, max_size: int) -> bytes | None:
    """Decode a zstd payload through the compiled-in libzstd; None when it is not in use or
    the payload needs kafkawire.compression's careful path (which reports errors)."""
