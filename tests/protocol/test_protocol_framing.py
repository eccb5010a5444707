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
