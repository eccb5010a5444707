"""The sans-IO layer alone: a BrokerSession and FrameReader fed bytes by hand, no sockets."""

from __future__ import annotations

import struct

import pytest

from kafkawire import encode_response
from kafkawire import messages as m
from kafkawire.client.errors import BrokerConnectionError, NotKafkaError
from kafkawire.client.session import BrokerSession, SessionState
from kafkawire.errors import CorruptError, LimitExceededError
from kafkawire.protocol import ApiKey, FrameReader, decode_request
from kafkawire.protocol.versions import supported_versions


def frames_of(data: bytes) -> list[bytes]:
    reader = FrameReader()
    reader.feed(data)
    return list(reader)


def handshake(session: BrokerSession, keys=(ApiKey.API_VERSIONS, ApiKey.METADATA)) -> list:
    (frame,) = frames_of(b"".join(session.buffers_to_send()))
    header, _ = decode_request(frame)
    answer = m.ApiVersionsResponse(
        api_keys=[
            m.ApiVersionsResponse.ApiVersion(api_key=k, min_version=lo, max_version=hi)
            for k, (lo, hi) in supported_versions().items()
            if k in keys
        ]
    )
    return session.receive_data(
        encode_response(answer, version=header.request_api_version, correlation_id=0)
    )


def answer(frame: bytes) -> bytes:
    header, _ = decode_request(frame)
    return encode_response(
        m.MetadataResponse(controller_id=header.correlation_id),
        version=header.request_api_version,
        correlation_id=header.correlation_id,
    )


def new_session(**kwargs) -> BrokerSession:
    return BrokerSession("host:9092", client_id="t", max_frame_size=1 << 20, **kwargs)


def test_requests_wait_for_the_handshake_then_pipeline():
    session = new_session()
    assert session.send(m.MetadataRequest(topics=[]), "a") == []
    assert session.send(m.MetadataRequest(topics=[]), "b") == []
    assert session.state is SessionState.HANDSHAKE and session.in_flight == 2
    assert handshake(session) == []
    assert session.state is SessionState.READY
    requests = frames_of(b"".join(session.buffers_to_send()))
    assert len(requests) == 2  # both on the wire before either is answered
    done = session.receive_data(answer(requests[1]) + answer(requests[0]))
    assert [(token, r.controller_id) for token, r, _ in done] == [("b", 2), ("a", 1)]
    assert session.in_flight == 0


def test_answers_arrive_a_byte_at_a_time():
    session = new_session()
    handshake(session)
    session.send(m.MetadataRequest(topics=[]), "x")
    data = answer(frames_of(b"".join(session.buffers_to_send()))[0])
    done = []
    for i in range(len(data)):
        view = session.get_buffer()
        view[0] = data[i]
        del view
        done += session.buffer_updated(1)
    assert [token for token, _, _ in done] == ["x"]


def test_version_missing_at_the_broker_fails_that_request_only():
    session = new_session()
    handshake(session)  # the broker speaks ApiVersions and Metadata only
    ((token, response, error),) = session.send(m.FetchRequest(), "f")
    assert token == "f" and response is None and "does not support FETCH" in str(error)
    assert session.state is SessionState.READY


def test_unknown_correlation_id_breaks_the_connection():
    session = new_session()
    handshake(session)
    session.send(m.MetadataRequest(topics=[]), "x")
    b"".join(session.buffers_to_send())
    bogus = encode_response(m.MetadataResponse(), version=1, correlation_id=999)
    ((token, _, error),) = session.receive_data(bogus)
    assert token == "x" and isinstance(error, CorruptError) and session.closed


def test_connection_lost_fails_everything_pending_and_says_how_much_came():
    session = new_session()
    session.send(m.MetadataRequest(topics=[]), "waiting")
    session.receive_data(b"\x00\x00\x00\x10abc")
    ((token, _, error),) = session.connection_lost()
    assert token == "waiting" and isinstance(error, BrokerConnectionError)
    assert "7 bytes of an unfinished frame" in str(error)


@pytest.mark.parametrize(
    ("first_bytes", "what"),
    [
        (b"HTTP/1.1 400 Bad Request\r\n", "an HTTP server"),
        (bytes.fromhex("15030300020246"), "a TLS server"),
        (b"SSH-2.0-OpenSSH_9.2\r\n", "an SSH server"),
        (b"\x7f\x00\x00\x00 whatever", "no Kafka broker"),
    ],
)
def test_peers_that_are_not_kafka_are_named(first_bytes, what):
    session = new_session()
    session.send(m.MetadataRequest(topics=[]), "x")
    ((_, _, error),) = session.receive_data(first_bytes)
    assert isinstance(error, NotKafkaError) and f"host:9092 answered like {what}" in str(error)


def test_frame_reader_grows_with_what_arrived_not_with_the_prefix():
    reader = FrameReader(max_frame_size=64 << 20)
    reader.feed((60 << 20).to_bytes(4, "big") + b"x" * 10)
    room = len(reader.get_buffer())
    assert room <= 128 * 1024  # a 60 MiB promise buys no 60 MiB buffer
    with pytest.raises(LimitExceededError, match="frame size"):
        big = FrameReader(max_frame_size=1000)
        big.feed(b"\x00\x01\x00\x00")
        big.next_frame()


def test_frame_reader_hands_out_frames_fed_in_pieces():
    payloads = [b"a" * n for n in (0, 1, 5, 70000, 3)]
    data = b"".join(len(p).to_bytes(4, "big") + p for p in payloads)
    reader = FrameReader()
    got = []
    pos = 0
    for step in (1, 3, 7, 65536, 100000):
        view = reader.get_buffer()
        n = min(step, len(view), len(data) - pos)
        view[:n] = data[pos : pos + n]
        del view
        reader.buffer_updated(n)
        pos += n
        got += list(reader)
    reader.feed(data[pos:])
    got += list(reader)
    assert got == payloads and reader.buffered == 0


@pytest.mark.parametrize("version", [3, 4])  # int32 lengths, then compact ones
def test_a_null_where_the_schema_has_none_is_read_as_empty(version):
    """librdkafka's mock answers a failed SyncGroup with a null assignment (a non-nullable
    field); librdkafka reads it as empty, and so does the session."""

    session = new_session()
    handshake(session, keys=(ApiKey.API_VERSIONS, ApiKey.SYNC_GROUP))
    session.send(m.SyncGroupRequest(group_id="g", member_id="m"), "s", newest=version)
    (frame,) = frames_of(b"".join(session.buffers_to_send()))
    header, _ = decode_request(frame)
    assert header.request_api_version == version
    if version == 3:  # correlation id, throttle, error 16 (NOT_COORDINATOR), null bytes
        body = struct.pack(">iihi", header.correlation_id, 0, 16, -1)
    else:  # flexible: header tags, compact null (0), the body's tags
        body = struct.pack(">ibih", header.correlation_id, 0, 0, 16) + b"\x00\x00"
    ((token, response, error),) = session.receive_data(struct.pack(">i", len(body)) + body)
    assert (token, error, response.error_code, response.assignment) == ("s", None, 16, b"")
