"""Kafka 0.7 messages and message sets: magic 0 and 1, CRC-32, compressed sets."""

from __future__ import annotations

import enum
import struct
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from kafkawire.compression import DEFAULT_MAX_DECOMPRESSED_SIZE, Codec, compress, decompress
from kafkawire.errors import (
    CorruptError,
    CrcError,
    DecodeError,
    EncodeError,
    TruncatedError,
    UnsupportedError,
)

# Kafka never nests a compressed message inside another; a few levels are accepted, more are
# a recursion bomb.
MAX_NESTING = 4

LATEST_TIME = -1  # OFFSETS time: the offset after the last message
EARLIEST_TIME = -2  # OFFSETS time: the first offset still in the log

# 0.7's ErrorMapping; 0.8 kept the first five numbers.
ERROR_NAMES = {
    -1: "UNKNOWN",
    0: "NONE",
    1: "OFFSET_OUT_OF_RANGE",
    2: "INVALID_MESSAGE",
    3: "WRONG_PARTITION",
    4: "INVALID_FETCH_SIZE",
}


class RequestType(enum.IntEnum):
    """The request type, the int16 after a request's size."""

    PRODUCE = 0
    FETCH = 1
    MULTIFETCH = 2
    MULTIPRODUCE = 3
    OFFSETS = 4


_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_U32 = struct.Struct(">I")
_FETCH_TAIL = struct.Struct(">iqi")  # partition, offset, max_size
_OFFSETS_TAIL = struct.Struct(">iqi")  # partition, time, max_offsets
_MAGIC0_HEAD = struct.Struct(">ibI")  # size, magic, crc
_MAGIC1_HEAD = struct.Struct(">ibBI")  # size, magic, attributes, crc
_RESPONSE_HEAD = struct.Struct(">ih")  # size, error_code

_HEADER_SIZE = {0: 5, 1: 6}  # magic (+ attributes) + crc, after the size
_MIN_FETCH = 2 + 4 + 8 + 4  # an empty topic, partition, offset, max_size
_MIN_PRODUCE = 2 + 4 + 4


@dataclass(frozen=True)
class Message:
    """One message. ``attributes`` (magic 1 only) keeps all 8 bits as read; the codec is the
    low two. The CRC is not stored: encoding always writes the payload's."""

    payload: bytes = b""
    magic: int = 1
    attributes: int = 0

    @property
    def compression(self) -> Codec:
        return Codec(self.attributes & 3) if self.magic == 1 else Codec.NONE

    @property
    def crc(self) -> int:
        return zlib.crc32(self.payload)

    @property
    def size(self) -> int:
        """Bytes this message takes in a message set, its size field included."""
        return 4 + _HEADER_SIZE.get(self.magic, 6) + len(self.payload)

    @classmethod
    def compressed(
        cls, messages: Iterable[Message], codec: int | str, *, level: int | None = None
    ) -> Message:
        """A magic 1 message whose payload is ``messages`` as a message set, compressed as
        0.7 did it (gzip, or snappy in snappy-java's xerial framing)."""
        codec = _codec_id(codec)
        if codec == 0:
            raise EncodeError("a compressed message needs gzip or snappy")
        inner = encode_message_set(messages)
        return cls(compress(codec, inner, level=level), magic=1, attributes=codec)

    def messages(
        self, *, verify_crc: bool = True, max_decompressed_size: int = DEFAULT_MAX_DECOMPRESSED_SIZE
    ) -> list[Message]:
        """The message set inside a compressed message (one level down)."""
        if self.compression == Codec.NONE:
            raise ValueError("not a compressed message")
        inner = _decompress(self, None, max_decompressed_size)
        return [
            entry.message
            for entry in MessageSetReader(
                inner, verify_crc=verify_crc, deep=False, allow_partial=False, _origin=None
            )
        ]


def _codec_id(codec: int | str) -> int:
    names = {"none": 0, "gzip": 1, "snappy": 2}
    if isinstance(codec, str):
        if codec.lower() not in names:
            raise EncodeError(f"0.7 messages compress with gzip or snappy, not {codec!r}")
        return names[codec.lower()]
    if codec not in (0, 1, 2):
        raise EncodeError(f"0.7 messages compress with gzip (1) or snappy (2), not codec {codec}")
    return int(codec)


def _encode_message(msg: Message, out: bytearray) -> None:
    payload = msg.payload
    crc = zlib.crc32(payload)
    if msg.magic == 0:
        if msg.attributes:
            raise EncodeError("a magic 0 message has no attributes byte")
        out += _MAGIC0_HEAD.pack(5 + len(payload), 0, crc)
    elif msg.magic == 1:
        if not 0 <= msg.attributes <= 255:
            raise EncodeError(f"attributes {msg.attributes} do not fit in a byte")
        out += _MAGIC1_HEAD.pack(6 + len(payload), 1, msg.attributes, crc)
    else:
        raise EncodeError(f"0.7 messages have magic 0 or 1, not {msg.magic}")
    out += payload


def encode_message_set(messages: Iterable[Message]) -> bytes:
    """Messages back to back, as in a PRODUCE request, a FETCH response or a 0.7 log file."""
    out = bytearray()
    for msg in messages:
        _encode_message(msg, out)
    return bytes(out)


@dataclass(frozen=True)
class MessageAndOffset:
    """A message and where it sits in the log.

    ``offset`` is the byte offset of the top-level message (``base_offset`` plus its position)
    and ``next_offset`` the one after it, the offset a 0.7 consumer fetches next. Messages taken
    out of a compressed message have their wrapper's offsets (the log addresses only the
    wrapper) and a ``depth`` above 0. ``crc`` is the stored checksum.
    """

    message: Message
    offset: int
    next_offset: int
    crc: int
    depth: int = 0


class MessageSetReader(Iterator[MessageAndOffset]):
    """Iterates the messages of a message set.

    ``deep`` (the default) yields the messages inside compressed messages instead of the
    compressed messages, as 0.7's consumer iterator did. With ``allow_partial`` a cut-off
    message at the end (normal at the end of a FETCH response or of a log a broker was
    writing) ends the iteration quietly; ``leftover_bytes`` then says how many bytes it had.
    ``max_decompressed_size`` caps all decompression done by one reader together.
    """

    def __init__(
        self,
        buf,
        *,
        base_offset: int = 0,
        verify_crc: bool = True,
        deep: bool = True,
        allow_partial: bool = True,
        max_decompressed_size: int = DEFAULT_MAX_DECOMPRESSED_SIZE,
        _origin: int | None = 0,
    ) -> None:
        self._view = memoryview(buf).cast("B") if not isinstance(buf, bytes) else buf
        self._pos = 0
        self._end = len(self._view)
        self._base_offset = base_offset
        self._verify_crc = verify_crc
        self._deep = deep
        self._allow_partial = allow_partial
        self._budget = [max_decompressed_size]
        # byte offset of buf[0] in the caller's input, for errors; None inside a decompressed
        # payload, whose positions are not input positions
        self._origin = _origin
        self._stack: list[Iterator[MessageAndOffset]] = []
        self.leftover_bytes = 0

    @property
    def position(self) -> int:
        """Bytes of the input read so far (complete top-level messages)."""
        return self._pos

    def __iter__(self) -> MessageSetReader:
        return self

    def __next__(self) -> MessageAndOffset:
        while self._stack:
            try:
                return next(self._stack[-1])
            except StopIteration:
                self._stack.pop()
        entry = self._read_one()
        if entry is None:
            raise StopIteration
        if self._deep and entry.message.compression != Codec.NONE:
            self._stack.append(self._inner(entry, 1))
            return self.__next__()
        return entry

    def _where(self, pos: int) -> int | None:
        return None if self._origin is None else self._origin + pos

    def _read_one(self) -> MessageAndOffset | None:
        view, pos, end = self._view, self._pos, self._end
        if pos == end:
            return None
        if end - pos < 4:
            return self._partial(pos, "message.size", 4)
        (size,) = _I32.unpack_from(view, pos)
        if size < 0:
            raise CorruptError(
                f"negative message size {size}", offset=self._where(pos), field="message.size"
            )
        if size > end - pos - 4:
            return self._partial(pos, "message.payload", size)
        if size < 1:
            raise CorruptError(
                "a message needs at least a magic byte and a CRC",
                offset=self._where(pos),
                field="message.size",
            )
        magic = view[pos + 4]
        header = _HEADER_SIZE.get(magic)
        if header is None:
            raise UnsupportedError(
                f"unknown message magic {magic}", offset=self._where(pos + 4), field="message.magic"
            )
        if size < header:
            raise CorruptError(
                f"message size {size} is smaller than its magic {magic} header ({header} bytes)",
                offset=self._where(pos),
                field="message.size",
            )
        attributes = view[pos + 5] if magic == 1 else 0
        (crc,) = _U32.unpack_from(view, pos + header)
        payload = bytes(view[pos + 4 + header : pos + 4 + size])
        if self._verify_crc and zlib.crc32(payload) != crc:
            raise CrcError(
                f"message CRC {crc:#010x} does not match its payload's {zlib.crc32(payload):#010x}",
                offset=self._where(pos + header),
                field="message.crc",
            )
        self._pos = pos + 4 + size
        return MessageAndOffset(
            Message(payload, magic, attributes),
            self._base_offset + pos,
            self._base_offset + self._pos,
            crc,
        )

    def _partial(self, pos: int, field_name: str, need: int) -> None:
        left = self._end - pos
        if not self._allow_partial:
            raise TruncatedError(
                f"message set ends inside a message ({left} bytes left, "
                f"{need} more needed after the size)"
                if field_name == "message.payload"
                else f"message set ends inside a message size ({left} bytes left)",
                offset=self._where(pos),
                field=field_name,
            )
        self.leftover_bytes = left
        self._end = pos  # stay finished
        return None

    def _inner(self, wrapper: MessageAndOffset, depth: int) -> Iterator[MessageAndOffset]:
        where = self._where(wrapper.offset - self._base_offset)
        if depth > MAX_NESTING:
            raise CorruptError(
                f"compressed messages nested more than {MAX_NESTING} deep",
                offset=where,
                field="message.payload",
            )
        inner = _decompress(wrapper.message, where, self._budget[0])
        self._budget[0] -= len(inner)
        reader = MessageSetReader(
            inner, verify_crc=self._verify_crc, deep=False, allow_partial=False, _origin=None
        )
        while True:
            try:
                entry = next(reader)
            except StopIteration:
                return
            except DecodeError as exc:
                # positions inside a decompressed payload are not input positions: point at
                # the compressed message and say where inside its content
                raise type(exc)(
                    f"in the message set of a compressed message (byte {reader.position} of "
                    f"its content, nesting depth {depth}): {exc.reason}",
                    offset=where,
                    field=exc.field,
                ) from None
            entry = MessageAndOffset(
                entry.message, wrapper.offset, wrapper.next_offset, entry.crc, depth
            )
            if entry.message.compression != Codec.NONE:
                yield from self._inner(entry, depth + 1)
            else:
                yield entry


def _decompress(msg: Message, offset: int | None, budget: int) -> bytes:
    codec = msg.compression
    if codec not in (Codec.GZIP, Codec.SNAPPY):
        raise UnsupportedError(
            f"0.7 messages compress with gzip or snappy, not codec {int(codec)}",
            offset=offset,
            field="message.attributes",
        )
    if budget < 0:
        budget = 0
    try:
        return decompress(codec, msg.payload, max_size=budget)
    except DecodeError as exc:
        raise type(exc)(exc.reason, offset=offset, field="message.payload") from None


def read_message_set(
    buf,
    *,
    base_offset: int = 0,
    verify_crc: bool = True,
    deep: bool = True,
    allow_partial: bool = True,
    max_decompressed_size: int = DEFAULT_MAX_DECOMPRESSED_SIZE,
) -> MessageSetReader:
    """The messages of a message set (a FETCH response's, or a 0.7 log file whose name gives
    ``base_offset``), with their byte offsets; see :class:`MessageSetReader`."""
    return MessageSetReader(
        buf,
        base_offset=base_offset,
        verify_crc=verify_crc,
        deep=deep,
        allow_partial=allow_partial,
        max_decompressed_size=max_decompressed_size,
    )


def decode_message_set(buf, *, verify_crc: bool = True) -> list[Message]:
    """The top-level messages of a complete message set (compressed ones stay compressed)."""
    return [
        entry.message
        for entry in MessageSetReader(buf, verify_crc=verify_crc, deep=False, allow_partial=False)
    ]
