"""Sans-IO framing: bytes in, size-prefixed frames out, and responses matched to their requests.

``FrameReader`` splits a byte stream into frames (each without its 4-byte size prefix);
``Correlator`` remembers the API key and version of each request sent, by correlation id, so
that response frames, which carry neither, can be decoded.
"""

from __future__ import annotations

import struct

from kafkawire.errors import CorruptError, LimitExceededError, TruncatedError
from kafkawire.protocol._codec import decode_response, encode_request

DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024  # Kafka's socket.request.max.bytes default
_SIZE = struct.Struct(">i")


class FrameReader:
    """Collects received bytes and hands out complete frames, oldest first."""

    def __init__(self, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.max_frame_size = max_frame_size
        self._buf = bytearray()
        self._pos = 0  # start of the first frame not handed out yet
        self._consumed = 0  # bytes handed out before _buf's start, for error offsets

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        if self._pos:
            # drop what was handed out, so that the buffer does not grow without end
            del self._buf[: self._pos]
            self._consumed += self._pos
            self._pos = 0
        self._buf += data

    def next_frame(self) -> bytes | None:
        """The next complete frame, or None until more bytes arrive."""
        available = len(self._buf) - self._pos
        if available < 4:
            return None
        (size,) = _SIZE.unpack_from(self._buf, self._pos)
        offset = self._consumed + self._pos
        if size < 0:
            raise CorruptError(f"negative frame size {size}", offset=offset)
        if size > self.max_frame_size:
            raise LimitExceededError(
                f"frame of {size} bytes exceeds the limit of {self.max_frame_size}", offset=offset
            )
        if available < 4 + size:
            return None
        start = self._pos + 4
        self._pos = start + size
        return bytes(self._buf[start : self._pos])

    def __iter__(self):
        while (frame := self.next_frame()) is not None:
            yield frame

    @property
    def buffered(self) -> int:
        """Bytes received but not handed out as frames yet."""
        return len(self._buf) - self._pos


class Correlator:
    """Numbers outgoing requests and decodes the responses that answer them."""

    def __init__(self, *, client_id: str | None = None, first_correlation_id: int = 0) -> None:
        self.client_id = client_id
        self._next = first_correlation_id
        self._in_flight: dict[int, tuple[int, int]] = {}

    def encode_request(self, msg, *, version: int, expect_response: bool = True) -> bytes:
        """A request frame with the next correlation id; remembered until its response."""
        correlation_id = self._next
        self._next = (self._next + 1) & 0x7FFFFFFF
        frame = encode_request(
            msg, version=version, correlation_id=correlation_id, client_id=self.client_id
        )
        if expect_response:  # e.g. Produce with acks=0 gets none
            self._in_flight[correlation_id] = (msg.api_key, version)
        return frame

    def decode_response(self, frame):
        """(ResponseHeader, response) for a frame answering one of the requests in flight."""
        if len(frame) < 4:
            raise TruncatedError("a response frame needs at least 4 bytes", offset=0)
        (correlation_id,) = _SIZE.unpack_from(frame, 0)
        try:
            api_key, version = self._in_flight.pop(correlation_id)
        except KeyError:
            raise CorruptError(
                f"response to unknown correlation id {correlation_id}",
                offset=0,
                field="ResponseHeader.correlation_id",
            ) from None
        return decode_response(frame, api_key=api_key, api_version=version)

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)
