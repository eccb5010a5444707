"""The client when things go wrong: brokers that are gone, silent, cut a frame short,
answer with the ApiVersions downgrade, or disappear in the middle of a read.

The misbehaving peers are small socket servers speaking the protocol with kafkawire's own
codec (no broker misbehaves on demand); "gone in the middle of a read" uses a real Tansu."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid

import pytest

from kafkawire import encode_response
from kafkawire import messages as m
from kafkawire.client import (
    BrokerConnectionError,
    RequestTimeoutError,
    TopicPartition,
)
from kafkawire.errors import DecodeError, LimitExceededError
from kafkawire.protocol import ApiKey, decode_request, decode_response
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.protocol.versions import (
    choose_version,
    decode_api_versions_response,
    downgrade_response,
    negotiate,
    retry_version,
    supported_versions,
)
from tests.support.broker import free_port, launch_tansu, start_broker, stop_broker
from tests.support.faces import make_client


def read_frame(conn: socket.socket) -> bytes | None:
    head = conn.recv(4, socket.MSG_WAITALL)
    if len(head) < 4:
        return None
    return conn.recv(int.from_bytes(head, "big"), socket.MSG_WAITALL)


def api_versions_answer(correlation_id: int, version: int) -> bytes:
    keys = [
        m.ApiVersionsResponse.ApiVersion(api_key=k, min_version=lo, max_version=hi)
        for k, (lo, hi) in supported_versions().items()
        if k in (ApiKey.API_VERSIONS, ApiKey.METADATA)
    ]
    return encode_response(
        m.ApiVersionsResponse(api_keys=keys), version=version, correlation_id=correlation_id
    )


class Peer:
    """A TCP server on 127.0.0.1 that runs ``handler(conn, index)`` for each connection."""

    def __init__(self, handler) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.handler = handler
        self.requests: list = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        index = 0
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._run, args=(conn, index), daemon=True).start()
            index += 1

    def _run(self, conn, index) -> None:
        with conn, contextlib.suppress(OSError):  # the client hung up
            self.handler(self, conn, index)

    def next_request(self, conn):
        frame = read_frame(conn)
        if frame is None:
            return None, None
        header, request = decode_request(frame)
        self.requests.append((header, request))
        return header, request

    def close(self) -> None:
        self.server.close()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


def serve_handshake(peer: Peer, conn) -> None:
    """Answer ApiVersions as a broker that speaks up to version 2 only."""
    header, _ = peer.next_request(conn)
    if header.request_api_version > 2:
        conn.sendall(downgrade_response(header.correlation_id, max_version=2))
        header, _ = peer.next_request(conn)
    conn.sendall(api_versions_answer(header.correlation_id, header.request_api_version))


def serve_metadata(peer: Peer, conn) -> bool:
    header, _ = peer.next_request(conn)
    if header is None:
        return False  # the client closed the connection
    answer = m.MetadataResponse(
        brokers=[m.MetadataResponse.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=1)],
        controller_id=1,
    )
    conn.sendall(
        encode_response(
            answer, version=header.request_api_version, correlation_id=header.correlation_id
        )
    )
    return True


def test_negotiation_helpers():
    ours = supported_versions()
    assert ours[ApiKey.FETCH] == (0, 17) and ours[ApiKey.API_VERSIONS] == (0, 4)
    chosen = negotiate({ApiKey.FETCH: (4, 11), ApiKey.PRODUCE: (20, 30), 999: (0, 1)})
    assert chosen == {ApiKey.FETCH: 11}  # no common Produce version; unknown keys dropped
    assert choose_version(chosen, ApiKey.FETCH, newest=8) == 8
    with pytest.raises(Exception, match="at least 12"):
        choose_version(chosen, ApiKey.FETCH, oldest=12)
    with pytest.raises(Exception, match="does not support PRODUCE"):
        choose_version(chosen, ApiKey.PRODUCE)


def test_downgrade_answer_round_trip():
    frame = downgrade_response(9, max_version=2)
    # error 35 and a v0 body listing only ApiVersions, whatever version was asked
    assert frame[4:] == bytes.fromhex("00000009002300000001001200000002")
    header, response, version = decode_api_versions_response(frame[4:], 4)
    assert (header.correlation_id, response.error_code, version) == (9, 35, 0)
    assert retry_version(response) == 2
    with pytest.raises(DecodeError):
        decode_api_versions_response(b"\x00\x00", 3)


def test_downgrade_answer_in_the_layout_of_the_version_asked():
    # librdkafka's mock broker writes its refusal of ApiVersions v4 as a v4 body (compact
    # array); it names the range it speaks, and the retry asks the newest of it
    body = m.ApiVersionsResponse(
        error_code=35,
        api_keys=[m.ApiVersionsResponse.ApiVersion(api_key=18, min_version=0, max_version=3)],
    )
    frame = encode_response(body, version=4, correlation_id=3)[4:]
    header, response, version = decode_api_versions_response(frame, 4)
    assert (header.correlation_id, response.error_code, version) == (3, 35, 4)
    assert retry_version(response, 4) == 3
    # a range at or above the refused version still steps down
    assert retry_version(decode_api_versions_response(downgrade_response(1)[4:], 4)[1], 4) == 3


def test_downgrade_answer_that_reads_in_no_layout_retries_at_version_0():
    frame = (7).to_bytes(4, "big") + (35).to_bytes(2, "big") + b"\xff\xfe\x01"
    header, response, _ = decode_api_versions_response(frame, 4)
    assert (header.correlation_id, response.error_code, response.api_keys) == (7, 35, [])
    assert retry_version(response, 4) == 0


def test_trailing_zero_bytes_after_a_response():
    answer = m.MetadataResponse(controller_id=1)
    frame = encode_response(answer, version=12, correlation_id=5)[4:]
    with pytest.raises(DecodeError, match="1 bytes left over"):
        decode_response(frame + b"\x00", api_key=ApiKey.METADATA, api_version=12)
    _, again = decode_response(
        frame + b"\x00\x00", api_key=ApiKey.METADATA, api_version=12, lenient=True
    )
    assert again == answer
    with pytest.raises(DecodeError, match="1 bytes left over"):
        decode_response(frame + b"\x00\x01", api_key=ApiKey.METADATA, api_version=12, lenient=True)


def test_lenient_answers_read_a_null_where_the_schema_has_none_as_empty():
    # librdkafka's mock answers a failed SyncGroup with a null assignment; librdkafka (and
    # Java's client) read it as empty: so does decode_response(lenient=True), nothing else
    answer = m.SyncGroupResponse(error_code=27, assignment=b"")
    v3 = encode_response(answer, version=3, correlation_id=1)[4:]
    assert v3.endswith(b"\x00\x00\x00\x00")
    null_v3 = v3[:-4] + b"\xff\xff\xff\xff"
    with pytest.raises(DecodeError, match="null in a non-nullable field"):
        decode_response(null_v3, api_key=ApiKey.SYNC_GROUP, api_version=3)
    _, read = decode_response(null_v3, api_key=ApiKey.SYNC_GROUP, api_version=3, lenient=True)
    assert (read.error_code, read.assignment) == (27, b"")
    # flexible: a compact null (0) where a string belongs, and a trailing zero
    joined = m.JoinGroupResponse(member_id="member-1")
    v6 = bytearray(encode_response(joined, version=6, correlation_id=1)[4:])
    at = v6.index(b"\x09member-1")
    v6[at : at + 9] = b"\x00"
    _, read = decode_response(
        bytes(v6) + b"\x00", api_key=ApiKey.JOIN_GROUP, api_version=6, lenient=True
    )
    assert read.member_id == ""
    # a nullable field stays None
    _, read = decode_response(
        encode_response(m.SyncGroupResponse(), version=5, correlation_id=1)[4:],
        api_key=ApiKey.SYNC_GROUP,
        api_version=5,
        lenient=True,
    )
    assert read.protocol_type is None


def test_client_follows_the_downgrade_answer(face):
    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        serve_metadata(peer, conn)

    peer = Peer(handler)
    try:
        with make_client(face, peer.address, request_timeout=5) as client:
            meta = client.metadata([])
        assert meta.brokers == {1: ("127.0.0.1", 1)}
        sent = [(h.request_api_key, h.request_api_version) for h, _ in peer.requests]
        assert sent == [(ApiKey.API_VERSIONS, 4), (ApiKey.API_VERSIONS, 2), (ApiKey.METADATA, 12)]
    finally:
        peer.close()


def test_connection_refused_is_reported_quickly(face):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: connections are refused
        start = time.monotonic()
        with (
            make_client(face, f"127.0.0.1:{port}", retries=2, retry_backoff=0.01) as client,
            pytest.raises(BrokerConnectionError, match="after 3 attempts"),
        ):
            client.metadata()
        assert time.monotonic() - start < 5


def test_silent_broker_times_out(face):
    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        peer.next_request(conn)  # read the Metadata request, never answer
        time.sleep(3)

    peer = Peer(handler)
    try:
        with make_client(
            face, peer.address, request_timeout=0.3, retries=1, retry_backoff=0.01
        ) as client:
            start = time.monotonic()
            with pytest.raises(RequestTimeoutError):
                client.metadata()
            assert time.monotonic() - start < 2.5
    finally:
        peer.close()


def test_connection_cut_in_the_middle_of_a_frame(face):
    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        header, _ = peer.next_request(conn)
        full = encode_response(
            m.MetadataResponse(), version=12, correlation_id=header.correlation_id
        )
        conn.sendall(full[: len(full) // 2])  # then the connection closes

    peer = Peer(handler)
    try:
        with (
            make_client(face, peer.address, retries=0) as client,
            pytest.raises(BrokerConnectionError, match="closed the connection"),
        ):
            client.metadata()
    finally:
        peer.close()


def test_reconnects_after_a_dropped_connection(face):
    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        if index == 0:
            peer.next_request(conn)
            return  # drop the first connection with a request in flight
        while serve_metadata(peer, conn):
            pass

    peer = Peer(handler)
    try:
        with make_client(face, peer.address, retries=3, retry_backoff=0.01) as client:
            assert client.metadata([]).controller_id == 1
        keys = [header.request_api_key for header, _ in peer.requests]
        # the lost Metadata, then on the new connection the refresh and the retry
        assert keys.count(ApiKey.METADATA) == 3
        assert keys.count(ApiKey.API_VERSIONS) == 4  # two handshakes, each downgraded once
    finally:
        peer.close()


def test_oversized_frame_is_refused(face):
    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        header, _ = peer.next_request(conn)
        conn.sendall((2**31 - 1).to_bytes(4, "big") + header.correlation_id.to_bytes(4, "big"))
        time.sleep(1)

    peer = Peer(handler)
    try:
        with (
            make_client(face, peer.address, retries=0, max_frame_size=1 << 20) as client,
            pytest.raises(LimitExceededError, match="frame size 2147483647 exceeds"),
        ):
            client.metadata()
    finally:
        peer.close()


def test_broker_gone_in_the_middle_of_a_read(face):
    broker = start_broker()
    try:
        client = make_client(
            face, broker.bootstrap, retries=2, retry_backoff=0.05, request_timeout=2
        )
        topic = f"gone-{uuid.uuid4().hex[:8]}"
        client.create_topics([topic])
        tp = TopicPartition(topic, 0)
        for i in range(3):
            client.produce_columns(tp, [b"r%d" % i] * 10)
        reader = client.read_range(tp, 0, 30)
        first = next(reader)
        assert first.offsets[0] == 0
    finally:
        stop_broker(broker)
    start = time.monotonic()
    with pytest.raises(BrokerConnectionError):
        list(client.read_range(tp, 0, 30))
    assert time.monotonic() - start < 15
    client.close()


def test_broker_restarted_during_a_read(face):
    """The connection breaks, the client reconnects to the restarted broker (memory storage:
    the topic is gone) and reports that clearly instead of hanging or returning nothing."""
    port = free_port()
    process = launch_tansu(port)
    try:
        # unknown topics are retriable (metadata may lag): 3 retries keep the test short
        client = make_client(
            face, f"127.0.0.1:{port}", retries=3, retry_backoff=0.1, request_timeout=5
        )
        topic = f"restart-{uuid.uuid4().hex[:8]}"
        client.create_topics([topic])
        tp = TopicPartition(topic, 0)
        client.produce_columns(tp, [b"x"] * 10)
        assert sum(len(c) for c in client.read_range(tp, 0, 10)) == 10
        process.terminate()
        process.wait(10)
        process = launch_tansu(port)
        start = time.monotonic()
        with pytest.raises(UnknownTopicOrPartitionError):
            list(client.read_range(tp, 0, 10))
        assert time.monotonic() - start < 20
        # the same client goes on working against the new broker
        client.create_topics([topic])
        client.produce_columns(tp, [b"y"] * 3)
        assert [
            bytes(v) for c in client.read_range(tp, 0) for v in c.to_arrow()["value"].to_pylist()
        ] == [b"y"] * 3
        client.close()
    finally:
        process.terminate()
        process.wait(10)


def test_a_bad_answer_fails_its_call_and_the_next_answers_are_read(face):
    """One answer that does not decode fails that call only; the connection reads on. (The
    asyncio face lost it: the error's traceback kept asyncio's view of the receive buffer,
    which then could not grow: BufferError.)"""

    def handler(peer: Peer, conn, index: int) -> None:
        serve_handshake(peer, conn)
        for i in range(3):
            header, _ = peer.next_request(conn)
            if header is None:
                return
            frame = encode_response(
                m.MetadataResponse(controller_id=1),
                version=header.request_api_version,
                correlation_id=header.correlation_id,
            )
            if i == 0:  # a byte left over that is not zero
                frame = (len(frame) - 3).to_bytes(4, "big") + frame[4:] + b"\x01"
            conn.sendall(frame)

    peer = Peer(handler)
    try:
        with make_client(face, peer.address, request_timeout=5, retries=0) as client:
            with pytest.raises(DecodeError, match="1 bytes left over"):
                client.metadata([])
            assert [client.metadata([]).controller_id for _ in range(2)] == [1, 1]
    finally:
        peer.close()
