"""Sans-IO framing: frames out of a byte stream in any chunking; responses matched by id."""

import struct

import pytest

from kafkawire import messages
from kafkawire.errors import CorruptError, LimitExceededError, TruncatedError
from kafkawire.protocol import encode_response
from kafkawire.protocol.framing import Correlator, FrameReader


def frames_of(*bodies: bytes) -> bytes:
    return b"".join(struct.pack(">i", len(b)) + b for b in bodies)


@pytest.mark.parametrize("chunk", [1, 3, 7, 1000])
def test_frames_in_any_chunking(chunk):
    bodies = [b"", b"a", b"hello world", bytes(300)]
    stream = frames_of(*bodies)
    reader = FrameReader()
    got = []
    for i in range(0, len(stream), chunk):
        reader.feed(stream[i : i + chunk])
        got.extend(reader)
    assert got == bodies
    assert reader.buffered == 0


def test_frame_limits():
    reader = FrameReader(max_frame_size=10)
    reader.feed(struct.pack(">i", 11))
    with pytest.raises(LimitExceededError):
        reader.next_frame()
    reader = FrameReader()
    reader.feed(frames_of(b"ok") + struct.pack(">i", -1))
    assert reader.next_frame() == b"ok"
    with pytest.raises(CorruptError) as info:
        reader.next_frame()
    assert info.value.offset == 6


def test_correlator_matches_responses():
    c = Correlator(client_id="kw")
    c.encode_request(messages.ApiVersionsRequest(), version=3)
    c.encode_request(messages.MetadataRequest(), version=12)
    assert c.in_flight == 2
    # answered out of order: the correlation id says which request each answers
    meta = encode_response(messages.MetadataResponse(controller_id=4), version=12, correlation_id=1)
    api = encode_response(messages.ApiVersionsResponse(), version=3, correlation_id=0)
    reader = FrameReader()
    reader.feed(meta + api)
    first, second = (c.decode_response(f) for f in reader)
    assert first[1].controller_id == 4 and first[0].correlation_id == 1
    assert isinstance(second[1], messages.ApiVersionsResponse)
    assert c.in_flight == 0
    with pytest.raises(CorruptError, match="unknown correlation id 1"):
        c.decode_response(meta[4:])
    with pytest.raises(TruncatedError):
        c.encode_request(messages.MetadataRequest(), version=1)
        c.decode_response(struct.pack(">i", 2) + b"\x00")


def _receive(reader: FrameReader, stream: bytes, steps) -> list[tuple[int, bytes]]:
    """Write ``stream`` through get_buffer/buffer_updated, ``steps`` bytes at a time (cycled,
    cut to the room offered), taking the frames (with positions) after each write."""
    got, pos, i = [], 0, 0
    while pos < len(stream):
        with reader.get_buffer() as view:
            assert len(view) > 0
            n = min(steps[i % len(steps)], len(view), len(stream) - pos)
            view[:n] = stream[pos : pos + n]
        reader.buffer_updated(n)
        pos, i = pos + n, i + 1
        got += reader.frames_with_positions()
    return got


@pytest.mark.parametrize("steps", [[1 << 20], [4096, 70001, 3], [9, 1 << 22]])
def test_large_frames_are_received_in_place(steps):
    """A frame with a megabyte or more to come goes straight into the bytes handed out:
    the same frames, in order, at the same stream positions, between small ones."""
    bodies = [b"s1", bytes(range(256)) * (12 << 10), b"", b"x" * 5, b"y" * (1 << 20) + b"z", b"t"]
    stream = frames_of(*bodies)
    reader = FrameReader()
    got = _receive(reader, stream, steps)
    assert [frame for _, frame in got] == bodies
    assert all(type(frame) is bytes for _, frame in got)
    starts, at = [], 0
    for body in bodies:
        starts.append(at + 4)
        at += 4 + len(body)
    assert [position for position, _ in got] == starts
    assert reader.buffered == 0 and reader.position == len(stream)


def test_a_large_frame_in_place_grows_with_what_arrived():
    """A 90 MiB prefix buys no 90 MiB buffer in place either: the room at most doubles what
    arrived; the positions and the count of bytes buffered stay true meanwhile."""
    reader = FrameReader(max_frame_size=100 << 20)
    reader.feed(frames_of(b"first") + (90 << 20).to_bytes(4, "big") + b"a" * 1000)
    assert reader.next_frame() == b"first"
    arrived = 1000
    for _ in range(6):
        with reader.get_buffer() as view:
            room = len(view)
            view[:room] = b"b" * room
        assert room <= max(65536, 2 * arrived)
        reader.buffer_updated(room)
        arrived += room
        assert reader.buffered == 4 + arrived and reader.position == 9
        assert reader.next_frame() is None
    # the rest fed as objects: the body takes its part, the buffer what follows
    rest = (90 << 20) - arrived
    reader.feed(b"c" * rest + frames_of(b"after"))
    big = reader.next_frame()
    assert len(big) == 90 << 20 and big[:1000] == b"a" * 1000 and big[-rest:] == b"c" * rest
    assert reader.position == 9 + 4 + (90 << 20)
    assert reader.next_frame() == b"after" and reader.buffered == 0


def test_frame_body_refuses_misuse():
    from kafkawire.protocol._frame_body import FrameBody

    with pytest.raises(ValueError):
        FrameBody(0, 10)
    body = FrameBody(10, 4)
    with body.room() as view:
        assert len(view) == 4
    with pytest.raises(ValueError, match="exceeds the room"):
        body.updated(5)
    with pytest.raises(ValueError, match="has 0 of its 10 bytes"):
        body.take()
    assert body.put(b"0123456789abc") == 10 and body.complete
    assert body.take() == b"0123456789"
    with pytest.raises(ValueError, match="taken"):
        body.room()
