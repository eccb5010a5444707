"""Sans-IO framing: bytes in, size-prefixed frames out, and responses matched to their requests.

``FrameReader`` splits a byte stream into frames (each without its 4-byte size prefix). Bytes
reach it either as objects (``feed``) or straight from the socket into its own buffer
(``get_buffer`` + ``buffer_updated``, the shape of ``socket.recv_into`` and asyncio's
BufferedProtocol), so that a large frame is copied once, into the bytes object handed out.
``Correlator`` remembers the API key and version of each request sent, by correlation id, so
that response frames, which carry neither, can be decoded.

Every Kafka frame reader in kafkawire is this one: the client's sessions, the CLI's capture
reader and recording proxy, and Kafka 0.7's framing (``pre08``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from kafkawire.errors import CorruptError, LimitExceededError, TruncatedError
from kafkawire.protocol._codec import decode_response, encode_request
from kafkawire.protocol._frame_body import FrameBody

DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024  # Kafka's socket.request.max.bytes default
_SIZE = struct.Struct(">i")
_CHUNK = 65536  # the least room get_buffer offers
# a frame with this much still to come is received in place (FrameBody), not in the buffer
_LARGE = 1 << 20


class FrameReader:
    """Collects received bytes and hands out complete frames, oldest first.

    Memory stays bounded whatever the size prefixes say: a size over ``max_frame_size`` is an
    error as soon as its 4 bytes arrive, and the buffer grows with the bytes that did arrive
    (at most doubling), never to a size a prefix announces.

    A frame with a megabyte or more still to come, once it is the first one pending, is
    received in place (``FrameBody``): straight into the bytes object handed out, with no
    copy from the buffer.
    """

    def __init__(self, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.max_frame_size = max_frame_size
        self._buf = bytearray()
        self._pos = 0  # start of the first frame not handed out yet
        self._end = 0  # end of the bytes received; _buf[_end:] is room for more
        self._consumed = 0  # bytes dropped from _buf's front, for error offsets
        self._large: FrameBody | None = None  # the frame received in place, before _buf's
        self._large_at = 0  # where its size prefix starts in the byte stream

    def get_buffer(self, sizehint: int = -1) -> memoryview:
        """Room for the next bytes received; report how many arrived with ``buffer_updated``.
        Release the view before the next call (asyncio and ``recv_into`` do)."""
        if self._large is not None and not self._large.complete:
            return self._large.room()
        buffered = self._end - self._pos
        room = max(_CHUNK, sizehint)
        if len(self._buf) - self._end >= room:  # room enough: no growth, no copy
            return memoryview(self._buf)[self._end :]
        missing = self._missing()
        if missing >= _LARGE and self._large is None:
            return self._receive_in_place()
        if missing > room:  # the rest of a large frame: grow with what has arrived
            room = min(missing, max(room, buffered))
        self._make_room(room)
        return memoryview(self._buf)[self._end :]

    def _receive_in_place(self) -> memoryview:
        """The frame at _pos moves to a FrameBody (what arrived of it, and all that comes)."""
        size = self._frame_size()
        arrived = self._end - self._pos - 4
        body = FrameBody(size, max(_CHUNK, 2 * arrived))
        with memoryview(self._buf) as view:
            body.put(view[self._pos + 4 : self._end])
        self._large, self._large_at = body, self._consumed + self._pos
        # _buf's next byte is the one after this frame: the stream skips what goes to body
        self._consumed += size - arrived
        self._pos = self._end
        return body.room()

    def buffer_updated(self, nbytes: int) -> None:
        """``nbytes`` were written at the start of the last ``get_buffer`` view."""
        if self._large is not None and not self._large.complete:
            self._large.updated(nbytes)
            return
        if not 0 <= nbytes <= len(self._buf) - self._end:
            raise ValueError(f"buffer_updated({nbytes}) exceeds the room given")
        self._end += nbytes

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        """Bytes received, handed over as an object."""
        if self._large is not None and not self._large.complete:
            taken = self._large.put(data)
            data = memoryview(data)[taken:]
        n = len(data)
        self._make_room(n)
        self._buf[self._end : self._end + n] = data
        self._end += n

    def next_frame(self) -> bytes | None:
        """The next complete frame, or None until more bytes arrive."""
        if self._large is not None:
            if not self._large.complete:
                return None
            body, self._large = self._large, None
            return body.take()
        available = self._end - self._pos
        if available < 4:
            return None
        size = self._frame_size()
        if available < 4 + size:
            return None
        start = self._pos + 4
        self._pos = start + size
        with memoryview(self._buf) as view:
            return bytes(view[start : self._pos])

    def __iter__(self):
        while (frame := self.next_frame()) is not None:
            yield frame

    def peek(self, n: int) -> bytes:
        """Up to ``n`` of the bytes buffered, not handed out (e.g. to tell what a peer is)."""
        return bytes(self._buf[self._pos : min(self._pos + n, self._end)])

    @property
    def buffered(self) -> int:
        """Bytes received but not handed out as frames yet."""
        large = 0 if self._large is None else 4 + self._large.filled
        return large + self._end - self._pos

    @property
    def position(self) -> int:
        """Where the next frame (its size prefix) starts in the byte stream."""
        if self._large is not None:
            return self._large_at
        return self._consumed + self._pos

    def frames_with_positions(self) -> list[tuple[int, bytes]]:
        """The complete frames, each with the stream position of its first byte after the
        size prefix (where a decoder's error offsets start)."""
        out = []
        while True:
            start = self.position + 4
            frame = self.next_frame()
            if frame is None:
                return out
            out.append((start, frame))

    def _frame_size(self) -> int:
        (size,) = _SIZE.unpack_from(self._buf, self._pos)
        offset = self._consumed + self._pos
        if size < 0:
            raise CorruptError(f"negative frame size {size}", offset=offset, field="frame size")
        if size > self.max_frame_size:
            raise LimitExceededError(
                f"frame size {size} exceeds the limit of {self.max_frame_size}",
                offset=offset,
                field="frame size",
            )
        return size

    def _missing(self) -> int:
        """Bytes still to come of the frame being received (0 when its size is unknown)."""
        available = self._end - self._pos
        if available < 4:
            return 0
        return max(0, 4 + self._frame_size() - available)

    def _make_room(self, n: int) -> None:
        if len(self._buf) - self._end >= n:
            return
        if self._pos:  # drop what was handed out, so that the buffer does not grow without end
            del self._buf[: self._pos]
            self._consumed += self._pos
            self._end -= self._pos
            self._pos = 0
        short = n - (len(self._buf) - self._end)
        if short > 0:
            self._buf += bytes(short)


def split_frames(
    buf, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE, chunk: int = 1 << 20
) -> Iterator[tuple[int, bytes]]:
    """(position of the size prefix, frame) of every frame of a whole recorded stream (a
    capture file, say), read ``chunk`` bytes at a time so that memory stays small.

    :raises TruncatedError: the stream ends inside a frame (or its size prefix).
    :raises CorruptError / LimitExceededError: a negative or oversized frame size.
    """
    reader = FrameReader(max_frame_size=max_frame_size)
    with memoryview(buf) as view:
        for start in range(0, len(view), chunk):
            reader.feed(view[start : start + chunk])
            for position, frame in reader.frames_with_positions():
                yield position - 4, frame
    if reader.buffered:
        raise TruncatedError(
            f"the stream ends inside a frame ({reader.buffered} bytes of it there)",
            offset=reader.position,
            field="frame size" if reader.buffered < 4 else "frame",
        )


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
