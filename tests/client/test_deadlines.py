"""Every call ends within its timeout whatever the peer does, in both faces: peers that
trickle, stay silent after connecting, are not Kafka at all (HTTP, TLS), or take several
requests before answering any (pipelining). The peers are small socket servers; the TLS one
is Python's ssl with a per-session certificate from trustme."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
import time

import pytest

from kafkawire import encode_response
from kafkawire import messages as m
from kafkawire.aio import Client as AsyncClient
from kafkawire.client import (
    EARLIEST,
    BrokerConnectionError,
    Client,
    NotKafkaError,
    RequestTimeoutError,
    TopicPartition,
)
from kafkawire.client.flow import ANY_BROKER, Call, Gather
from kafkawire.protocol import ApiKey, decode_request
from kafkawire.protocol.versions import supported_versions
from tests.client.test_client_faults import Peer, read_frame, serve_handshake
from tests.support.faces import make_client


def metadata_answer(header) -> bytes:
    answer = m.MetadataResponse(
        brokers=[m.MetadataResponse.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=1)],
        controller_id=1,
    )
    return encode_response(
        answer, version=header.request_api_version, correlation_id=header.correlation_id
    )


def test_trickling_answer_times_out(face):
    """An answer that comes a byte at a time never resets the deadline."""

    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        header, _ = peer.next_request(conn)
        for byte in metadata_answer(header):
            conn.sendall(bytes([byte]))
            time.sleep(0.05)

    peer = Peer(handler)
    try:
        with make_client(face, peer.address, request_timeout=0.5, retries=0) as client:
            start = time.monotonic()
            with pytest.raises(RequestTimeoutError, match=peer.address):
                client.metadata([])
            assert time.monotonic() - start < 1.5
    finally:
        peer.close()


def test_silent_after_connecting_times_out(face):
    """A peer that accepts and never answers the handshake."""

    def handler(peer, conn, index):
        time.sleep(3)

    peer = Peer(handler)
    try:
        with make_client(face, peer.address, request_timeout=0.3, retries=1) as client:
            start = time.monotonic()
            with pytest.raises(RequestTimeoutError, match="after 2 attempts"):
                client.metadata([])
            assert time.monotonic() - start < 2
    finally:
        peer.close()


def test_http_server_is_named(face):
    def handler(peer, conn, index):
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        time.sleep(1)

    peer = Peer(handler)
    try:
        with make_client(face, peer.address, request_timeout=5, retries=3) as client:
            start = time.monotonic()
            with pytest.raises(NotKafkaError, match=f"{peer.address} answered like an HTTP"):
                client.metadata([])
            assert time.monotonic() - start < 2  # not retried: asking again cannot help
    finally:
        peer.close()


@pytest.fixture(scope="module")
def tls_server():
    """A real TLS server (Python's ssl, a trustme certificate) on 127.0.0.1."""
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with (
                contextlib.suppress(OSError, ssl.SSLError),
                context.wrap_socket(conn, server_side=True) as tls,
            ):
                tls.recv(1)

    threading.Thread(target=serve, daemon=True).start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    server.close()


def test_tls_listener_gets_a_hint(face, tls_server):
    """Python's TLS server hangs up on a plaintext request without an alert: the error names
    the address and the likely cause, and comes within the retries' time."""
    with make_client(face, tls_server, request_timeout=5, retries=2, retry_backoff=0.05) as client:
        start = time.monotonic()
        with pytest.raises(BrokerConnectionError, match=f"{tls_server}.* expects TLS or SASL"):
            client.metadata([])
        assert time.monotonic() - start < 2


def test_closed_during_the_handshake(face):
    def handler(peer, conn, index):
        peer.next_request(conn)  # read ApiVersions, then hang up

    peer = Peer(handler)
    try:
        with (
            make_client(face, peer.address, retries=1, retry_backoff=0.01) as client,
            pytest.raises(BrokerConnectionError, match="closed the connection during the hands"),
        ):
            client.metadata([])
    finally:
        peer.close()


def serve_two_then_answer(peer, conn, index):
    """Reads two requests before answering either: only a pipelining client gets answers."""
    serve_handshake(peer, conn)
    first = read_frame(conn)
    second = read_frame(conn)
    answers = [metadata_answer(decode_request(f)[0]) for f in (second, first)]
    conn.sendall(b"".join(answers))  # in the opposite order: matched by correlation id
    time.sleep(0.5)


def test_sync_transport_pipelines_one_connection():
    peer = Peer(serve_two_then_answer)
    try:
        with Client(peer.address, request_timeout=2, retries=0) as client:
            request = m.MetadataRequest(topics=[])
            calls = [Call(ANY_BROKER, request, 2.0), Call(ANY_BROKER, request, 2.0)]

            def flow():
                return (yield Gather(calls))

            answers = client._transport.run(flow())
        assert [a.controller_id for a in answers] == [1, 1]
    finally:
        peer.close()


def test_asyncio_client_pipelines_concurrent_calls():
    peer = Peer(serve_two_then_answer)

    async def main():
        async with AsyncClient(peer.address, request_timeout=2, retries=0) as client:
            return await asyncio.gather(client.metadata([]), client.metadata([]))

    try:
        answers = asyncio.run(main())
        assert [a.controller_id for a in answers] == [1, 1]
    finally:
        peer.close()


def test_calls_to_different_brokers_run_at_once(face):
    """Two partitions led by two brokers that each take 1 s to answer ListOffsets: one
    list_offsets call takes about 1 s, not 2 s."""
    peers: list[Peer] = []

    def handler(peer, conn, index):
        while True:
            header, request = peer.next_request(conn)
            if header is None:
                return
            version = header.request_api_version
            if header.request_api_key == ApiKey.API_VERSIONS:
                body = m.ApiVersionsResponse(
                    api_keys=[
                        m.ApiVersionsResponse.ApiVersion(api_key=k, min_version=lo, max_version=hi)
                        for k, (lo, hi) in supported_versions().items()
                        if k in (ApiKey.API_VERSIONS, ApiKey.METADATA, ApiKey.LIST_OFFSETS)
                    ]
                )
            elif header.request_api_key == ApiKey.METADATA:
                body = two_broker_metadata(peers)
            else:
                time.sleep(1.0)
                body = m.ListOffsetsResponse(
                    topics=[
                        m.ListOffsetsResponse.ListOffsetsTopicResponse(
                            name="t",
                            partitions=[
                                m.ListOffsetsResponse.ListOffsetsPartitionResponse(
                                    partition_index=p.partition_index,
                                    offset=100 + p.partition_index,
                                )
                                for p in request.topics[0].partitions
                            ],
                        )
                    ]
                )
            conn.sendall(
                encode_response(body, version=version, correlation_id=header.correlation_id)
            )

    peers += [Peer(handler), Peer(handler)]
    try:
        with make_client(face, peers[0].address, request_timeout=5, retries=0) as client:
            client.metadata(["t"])
            start = time.monotonic()
            found = client.list_offsets(
                {TopicPartition("t", 0): EARLIEST, TopicPartition("t", 1): EARLIEST}
            )
            elapsed = time.monotonic() - start
        assert {tp.partition: r.offset for tp, r in found.items()} == {0: 100, 1: 101}
        for peer in peers:  # one ListOffsets each: both brokers were asked
            keys = [header.request_api_key for header, _ in peer.requests]
            assert keys.count(ApiKey.LIST_OFFSETS) == 1
        assert elapsed < 1.8, elapsed
    finally:
        for peer in peers:
            peer.close()


def two_broker_metadata(peers: list[Peer]):
    """Brokers 1 and 2 (the two peers); topic t with partition i led by broker i + 1."""
    return m.MetadataResponse(
        brokers=[
            m.MetadataResponse.MetadataResponseBroker(
                node_id=i + 1, host="127.0.0.1", port=peer.port
            )
            for i, peer in enumerate(peers)
        ],
        controller_id=1,
        topics=[
            m.MetadataResponse.MetadataResponseTopic(
                name="t",
                partitions=[
                    m.MetadataResponse.MetadataResponsePartition(
                        partition_index=i, leader_id=i + 1, replica_nodes=[i + 1], isr_nodes=[i + 1]
                    )
                    for i in range(2)
                ],
            )
        ],
    )
