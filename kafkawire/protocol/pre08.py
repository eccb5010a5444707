"""Kafka 0.7's wire format: the protocol before 0.8, for reading old captures and archives.

It shares nothing with 0.8 and later but the 4-byte size prefix of each frame: no API
versions, no correlation ids (responses come back in request order), offsets are byte
positions in a partition's log, and messages are ``magic 0`` (no attributes) or ``magic 1``
(an attributes byte whose two low bits name the compression codec). Integers are big-endian;
``str16`` is an int16 length and that many UTF-8 bytes::

    request   = size:int32 request_type:int16 body
      PRODUCE (0)       topic:str16 partition:int32 messages_size:int32 message_set
      FETCH (1)         topic:str16 partition:int32 offset:int64 max_size:int32
      MULTIFETCH (2)    count:int16 (topic partition offset max_size){count}
      MULTIPRODUCE (3)  count:int16 (topic partition messages_size message_set){count}
      OFFSETS (4)       topic:str16 partition:int32 time:int64 max_offsets:int32
    response  = size:int32 error_code:int16 body       (PRODUCE, MULTIPRODUCE: no response)
      FETCH             message_set, to the frame's end (may end in a cut-off message)
      MULTIFETCH        (size:int32 error_code:int16 message_set){one per fetch}
      OFFSETS           count:int32 offset:int64{count}
    message   = size:int32 magic:int8 [attributes:int8, magic 1 only] crc:uint32 payload

The CRC is IEEE CRC-32 of the payload alone. A compressed message (gzip or snappy with
snappy-java's xerial framing) carries a whole message set as its payload.

Decoding takes frames without their size prefix (like ``kafkawire.decode_request``) and never
trusts a length or a count: each is checked against the bytes that exist before anything is
sliced or allocated, and every problem raises a :class:`kafkawire.DecodeError` subclass that
names the field and the byte offset. Decoded messages keep their payload bytes as they were
(compressed payloads are not recompressed), so decode followed by encode gives the same bytes.
:class:`Connection` is the sans-IO reader of both directions of one connection.
"""

from __future__ import annotations

import enum
import struct
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kafkawire.compression import DEFAULT_MAX_DECOMPRESSED_SIZE, Codec, compress, decompress
from kafkawire.errors import (
    CorruptError,
    CrcError,
    DecodeError,
    EncodeError,
    TruncatedError,
    UnsupportedError,
)
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE, FrameReader

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "EARLIEST_TIME",
    "ERROR_NAMES",
    "LATEST_TIME",
    "Connection",
    "FetchRequest",
    "FetchResponse",
    "Message",
    "MessageAndOffset",
    "MessageSetReader",
    "MultiFetchRequest",
    "MultiFetchResponse",
    "MultiProduceRequest",
    "OffsetsRequest",
    "OffsetsResponse",
    "ProduceRequest",
    "Request",
    "RequestType",
    "Response",
    "decode_message_set",
    "decode_request",
    "decode_response",
    "encode_message_set",
    "encode_request",
    "encode_response",
    "read_message_set",
]

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


# --- messages ---------------------------------------------------------------------------------


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


# --- requests ---------------------------------------------------------------------------------


@dataclass
class ProduceRequest:
    """Messages for one partition. 0.7 brokers send no response to it."""

    topic: str = ""
    partition: int = 0
    messages: list[Message] = field(default_factory=list)

    request_type = RequestType.PRODUCE


@dataclass
class FetchRequest:
    """Messages of one partition from byte ``offset`` on, at most ``max_size`` bytes."""

    topic: str = ""
    partition: int = 0
    offset: int = 0
    max_size: int = 1024 * 1024

    request_type = RequestType.FETCH


@dataclass
class MultiFetchRequest:
    """Several fetches; the response has one message set per fetch, in order."""

    fetches: list[FetchRequest] = field(default_factory=list)

    request_type = RequestType.MULTIFETCH


@dataclass
class MultiProduceRequest:
    """Several produces in one frame; no response."""

    produces: list[ProduceRequest] = field(default_factory=list)

    request_type = RequestType.MULTIPRODUCE


@dataclass
class OffsetsRequest:
    """Up to ``max_offsets`` segment start offsets before ``time`` (ms; -1 latest, -2
    earliest)."""

    topic: str = ""
    partition: int = 0
    time: int = LATEST_TIME
    max_offsets: int = 1

    request_type = RequestType.OFFSETS


Request = ProduceRequest | FetchRequest | MultiFetchRequest | MultiProduceRequest | OffsetsRequest


@dataclass
class FetchResponse:
    """``trailing`` holds the bytes of a message cut off at the end (the broker sends
    ``max_size`` bytes of the log, whatever message boundary that falls on)."""

    error_code: int = 0
    messages: list[Message] = field(default_factory=list)
    trailing: bytes = b""


@dataclass
class MultiFetchResponse:
    error_code: int = 0
    responses: list[FetchResponse] = field(default_factory=list)


@dataclass
class OffsetsResponse:
    error_code: int = 0
    offsets: list[int] = field(default_factory=list)


Response = FetchResponse | MultiFetchResponse | OffsetsResponse
_REQUEST_CLASSES = (
    ProduceRequest,
    FetchRequest,
    MultiFetchRequest,
    MultiProduceRequest,
    OffsetsRequest,
)
_RESPONSE_CLASSES = (FetchResponse, MultiFetchResponse, OffsetsResponse)

# --- encoding ---------------------------------------------------------------------------------


def _pack(fmt: struct.Struct, what: str, *values) -> bytes:
    try:
        return fmt.pack(*values)
    except struct.error as exc:
        raise EncodeError(f"{what}: {exc}") from None


def _str16(value: str, what: str) -> bytes:
    data = value.encode()
    if len(data) > 0x7FFF:
        raise EncodeError(f"{what} is {len(data)} bytes; a str16 holds at most 32767")
    return _I16.pack(len(data)) + data


def _count16(n: int, what: str) -> bytes:
    if n > 0x7FFF:
        raise EncodeError(f"{what}: {n} entries; the int16 count holds at most 32767")
    return _I16.pack(n)


def _produce_body(req: ProduceRequest, out: bytearray) -> None:
    messages = encode_message_set(req.messages)
    out += _str16(req.topic, "topic")
    out += _pack(_I32, "partition", req.partition)
    out += _I32.pack(len(messages))
    out += messages


def _fetch_body(req: FetchRequest, out: bytearray) -> None:
    out += _str16(req.topic, "topic")
    out += _pack(_FETCH_TAIL, "fetch", req.partition, req.offset, req.max_size)


def _with_size(body: bytearray | bytes, size_prefix: bool) -> bytes:
    if not size_prefix:
        return bytes(body)
    if len(body) > 0x7FFFFFFF:
        raise EncodeError(f"a frame of {len(body)} bytes does not fit the int32 size")
    return _I32.pack(len(body)) + body


def encode_request(req: Request, *, size_prefix: bool = True) -> bytes:
    """One request frame, with its 4-byte size prefix unless ``size_prefix`` is False."""
    if not isinstance(req, _REQUEST_CLASSES):
        raise EncodeError(f"not a 0.7 request: {type(req).__name__}")
    out = bytearray(_I16.pack(req.request_type))
    if isinstance(req, ProduceRequest):
        _produce_body(req, out)
    elif isinstance(req, FetchRequest):
        _fetch_body(req, out)
    elif isinstance(req, MultiFetchRequest):
        out += _count16(len(req.fetches), "fetches")
        for fetch in req.fetches:
            _fetch_body(fetch, out)
    elif isinstance(req, MultiProduceRequest):
        out += _count16(len(req.produces), "produces")
        for produce in req.produces:
            _produce_body(produce, out)
    else:
        out += _str16(req.topic, "topic")
        out += _pack(_OFFSETS_TAIL, "offsets", req.partition, req.time, req.max_offsets)
    return _with_size(out, size_prefix)


def encode_response(resp: Response, *, size_prefix: bool = True) -> bytes:
    """One response frame, with its 4-byte size prefix unless ``size_prefix`` is False."""
    if not isinstance(resp, _RESPONSE_CLASSES):
        raise EncodeError(f"not a 0.7 response: {type(resp).__name__}")
    out = bytearray(_pack(_I16, "error_code", resp.error_code))
    if isinstance(resp, FetchResponse):
        out += encode_message_set(resp.messages)
        out += resp.trailing
    elif isinstance(resp, MultiFetchResponse):
        for inner in resp.responses:
            if not isinstance(inner, FetchResponse):
                raise EncodeError(f"a MULTIFETCH response holds FetchResponses, not {inner!r}")
            out += encode_response(inner, size_prefix=True)
    else:
        out += _I32.pack(len(resp.offsets))
        try:
            out += struct.pack(f">{len(resp.offsets)}q", *resp.offsets)
        except struct.error as exc:
            raise EncodeError(f"offsets: {exc}") from None
    return _with_size(out, size_prefix)


# --- decoding ---------------------------------------------------------------------------------


class _Cursor:
    """Bounds-checked reads from ``view[pos:end]``; errors name the field and the offset."""

    __slots__ = ("end", "pos", "verify_crc", "view")

    def __init__(self, view, pos: int, end: int, verify_crc: bool) -> None:
        self.view, self.pos, self.end, self.verify_crc = view, pos, end, verify_crc

    def need(self, n: int, name: str) -> None:
        if self.end - self.pos < n:
            raise TruncatedError(
                f"{name} needs {n} bytes, {self.end - self.pos} left",
                offset=self.pos,
                field=name,
            )

    def unpack(self, fmt: struct.Struct, name: str) -> tuple:
        self.need(fmt.size, name)
        values = fmt.unpack_from(self.view, self.pos)
        self.pos += fmt.size
        return values

    def int16(self, name: str) -> int:
        return self.unpack(_I16, name)[0]

    def int32(self, name: str) -> int:
        return self.unpack(_I32, name)[0]

    def length(self, name: str) -> int:
        """An int32 length that must be >= 0 and fit in what is left."""
        start = self.pos
        n = self.int32(name)
        if n < 0:
            raise CorruptError(f"negative length {n}", offset=start, field=name)
        if n > self.end - self.pos:
            raise TruncatedError(
                f"length {n} exceeds the {self.end - self.pos} bytes left",
                offset=start,
                field=name,
            )
        return n

    def count16(self, name: str, min_item: int) -> int:
        start = self.pos
        n = self.int16(name)
        if n < 0:
            raise CorruptError(f"negative count {n}", offset=start, field=name)
        if n * min_item > self.end - self.pos:
            raise TruncatedError(
                f"{n} entries of at least {min_item} bytes do not fit the "
                f"{self.end - self.pos} bytes left",
                offset=start,
                field=name,
            )
        return n

    def str16(self, name: str) -> str:
        start = self.pos
        n = self.int16(name)
        if n < 0:
            raise CorruptError(f"negative string length {n}", offset=start, field=name)
        self.need(n, name)
        try:
            value = bytes(self.view[self.pos : self.pos + n]).decode()
        except UnicodeDecodeError as exc:
            raise CorruptError(
                f"not UTF-8: {exc.reason}", offset=self.pos + exc.start, field=name
            ) from None
        self.pos += n
        return value

    def messages(self, n: int, name: str, allow_partial: bool) -> tuple[list[Message], bytes]:
        reader = MessageSetReader(
            self.view[self.pos : self.pos + n],
            verify_crc=self.verify_crc,
            deep=False,
            allow_partial=allow_partial,
            _origin=self.pos,
        )
        try:
            messages = [entry.message for entry in reader]
        except DecodeError as exc:
            if exc.field and exc.field.startswith("message"):
                raise type(exc)(
                    exc.reason, offset=exc.offset, field=f"{name}.{exc.field}"
                ) from None
            raise
        trailing = bytes(self.view[self.pos + reader.position : self.pos + n])
        self.pos += n
        return messages, trailing

    def done(self, what: str) -> None:
        if self.pos != self.end:
            raise CorruptError(
                f"{self.end - self.pos} bytes after the end of the {what}",
                offset=self.pos,
                field=what,
            )


def _as_view(frame):
    return frame if isinstance(frame, bytes) else memoryview(frame).cast("B")


def _decode_produce(cur: _Cursor, prefix: str) -> ProduceRequest:
    topic = cur.str16(f"{prefix}topic")
    partition = cur.int32(f"{prefix}partition")
    n = cur.length(f"{prefix}messages_size")
    messages, _ = cur.messages(n, f"{prefix}messages", allow_partial=False)
    return ProduceRequest(topic, partition, messages)


def _decode_fetch(cur: _Cursor, prefix: str) -> FetchRequest:
    topic = cur.str16(f"{prefix}topic")
    partition, offset, max_size = cur.unpack(_FETCH_TAIL, f"{prefix}partition/offset/max_size")
    return FetchRequest(topic, partition, offset, max_size)


def decode_request(frame, *, verify_crc: bool = True) -> Request:
    """One request from a frame without its size prefix."""
    view = _as_view(frame)
    cur = _Cursor(view, 0, len(view), verify_crc)
    raw_type = cur.int16("request_type")
    try:
        request_type = RequestType(raw_type)
    except ValueError:
        raise UnsupportedError(
            f"unknown 0.7 request type {raw_type}", offset=0, field="request_type"
        ) from None
    req: Request
    if request_type == RequestType.PRODUCE:
        req = _decode_produce(cur, "")
    elif request_type == RequestType.FETCH:
        req = _decode_fetch(cur, "")
    elif request_type == RequestType.MULTIFETCH:
        n = cur.count16("fetches.count", _MIN_FETCH)
        req = MultiFetchRequest([_decode_fetch(cur, f"fetches[{i}].") for i in range(n)])
    elif request_type == RequestType.MULTIPRODUCE:
        n = cur.count16("produces.count", _MIN_PRODUCE)
        req = MultiProduceRequest([_decode_produce(cur, f"produces[{i}].") for i in range(n)])
    else:
        topic = cur.str16("topic")
        partition, time, max_offsets = cur.unpack(_OFFSETS_TAIL, "partition/time/max_offsets")
        req = OffsetsRequest(topic, partition, time, max_offsets)
    cur.done(request_type.name + " request")
    return req


def _request_type_of(request) -> RequestType:
    if isinstance(request, RequestType):
        return request
    if isinstance(request, int):
        try:
            return RequestType(request)
        except ValueError:
            raise UnsupportedError(f"unknown 0.7 request type {request}") from None
    return request.request_type


def decode_response(frame, request, *, verify_crc: bool = True) -> Response:
    """The response in ``frame`` (no size prefix) to ``request``: a request object, or a
    :class:`RequestType` (a MULTIFETCH request object also checks the number of answers)."""
    request_type = _request_type_of(request)
    if request_type in (RequestType.PRODUCE, RequestType.MULTIPRODUCE):
        raise UnsupportedError(f"0.7 brokers send no response to {request_type.name} requests")
    view = _as_view(frame)
    cur = _Cursor(view, 0, len(view), verify_crc)
    error_code = cur.int16("error_code")
    resp: Response
    if request_type == RequestType.FETCH:
        messages, trailing = cur.messages(cur.end - cur.pos, "messages", allow_partial=True)
        resp = FetchResponse(error_code, messages, trailing)
    elif request_type == RequestType.MULTIFETCH:
        # one message set per fetch; without the request, as many as the frame holds
        expected = len(request.fetches) if isinstance(request, MultiFetchRequest) else None
        parts = []
        while cur.pos < cur.end if expected is None else len(parts) < expected:
            i = len(parts)
            start = cur.pos
            size = cur.length(f"responses[{i}].size")
            if size < 2:
                raise CorruptError(
                    f"size {size} leaves no room for the error code",
                    offset=start,
                    field=f"responses[{i}].size",
                )
            inner_error = cur.int16(f"responses[{i}].error_code")
            messages, trailing = cur.messages(size - 2, f"responses[{i}].messages", True)
            parts.append(FetchResponse(inner_error, messages, trailing))
        resp = MultiFetchResponse(error_code, parts)
    else:
        n = cur.int32("offsets.count")
        if n < 0:
            raise CorruptError(f"negative count {n}", offset=cur.pos - 4, field="offsets.count")
        if n * 8 > cur.end - cur.pos:
            raise TruncatedError(
                f"{n} offsets need {n * 8} bytes, {cur.end - cur.pos} left",
                offset=cur.pos - 4,
                field="offsets.count",
            )
        offsets = list(struct.unpack_from(f">{n}q", view, cur.pos))
        cur.pos += 8 * n
        resp = OffsetsResponse(error_code, offsets)
    cur.done(request_type.name + " response")
    return resp


# --- sans-IO connection -----------------------------------------------------------------------


def _shifted(exc: DecodeError, base: int) -> DecodeError:
    offset = None if exc.offset is None else exc.offset + base
    return type(exc)(exc.reason, offset=offset, batch_offset=exc.batch_offset, field=exc.field)


class Connection:
    """Sans-IO reader of one 0.7 connection: bytes in, requests and responses out.

    0.7 responses carry no correlation id: a broker answers FETCH, MULTIFETCH and OFFSETS
    requests in order and PRODUCE / MULTIPRODUCE not at all, so each response frame belongs
    to the oldest request still waiting for one. Response frames that arrive before their
    request was fed are held until it is. Error offsets are positions in the direction's
    byte stream.
    """

    def __init__(
        self, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE, verify_crc: bool = True
    ) -> None:
        self._requests = FrameReader(max_frame_size=max_frame_size)
        self._responses = FrameReader(max_frame_size=max_frame_size)
        self._verify_crc = verify_crc
        self._waiting: deque[Request] = deque()
        self._unmatched: deque[tuple[int, bytes]] = deque()

    def feed_requests(self, data) -> list[Request]:
        """The requests completed by ``data`` (client-to-broker bytes)."""
        out = []
        self._requests.feed(data)
        for start, frame in self._requests.frames_with_positions():
            try:
                req = decode_request(frame, verify_crc=self._verify_crc)
            except DecodeError as exc:
                raise _shifted(exc, start) from None
            out.append(req)
            if req.request_type not in (RequestType.PRODUCE, RequestType.MULTIPRODUCE):
                self._waiting.append(req)
        return out

    def feed_responses(self, data=b"") -> list[tuple[Request, Response]]:
        """(request, response) pairs completed by ``data`` (broker-to-client bytes)."""
        self._responses.feed(data)
        self._unmatched.extend(self._responses.frames_with_positions())
        out = []
        while self._unmatched and self._waiting:
            start, frame = self._unmatched.popleft()
            req = self._waiting.popleft()
            try:
                out.append((req, decode_response(frame, req, verify_crc=self._verify_crc)))
            except DecodeError as exc:
                raise _shifted(exc, start) from None
        return out

    @property
    def waiting(self) -> int:
        """Requests fed that still wait for their response."""
        return len(self._waiting)

    @property
    def unmatched_responses(self) -> int:
        """Response frames fed with no request to answer yet."""
        return len(self._unmatched)

    @property
    def buffered(self) -> tuple[int, int]:
        """Bytes of an incomplete frame held, (requests, responses)."""
        return self._requests.buffered, self._responses.buffered
