"""The sans-IO reader of one Kafka 0.7 connection."""

from __future__ import annotations

from collections import deque

from kafkawire.errors import (
    DecodeError,
)
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE, FrameReader
from kafkawire.protocol.pre08.messages import (
    RequestType,
)
from kafkawire.protocol.pre08.requests import (
    Request,
    Response,
    decode_request,
    decode_response,
)


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
