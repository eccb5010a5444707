"""Kafka 0.7 requests and responses: the types, their encoding and their decoding."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from kafkawire.errors import (
    CorruptError,
    DecodeError,
    EncodeError,
    TruncatedError,
    UnsupportedError,
)
from kafkawire.protocol.pre08.messages import (
    _FETCH_TAIL,
    _I16,
    _I32,
    _MIN_FETCH,
    _MIN_PRODUCE,
    _OFFSETS_TAIL,
    LATEST_TIME,
    Message,
    MessageSetReader,
    RequestType,
    encode_message_set,
)


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
