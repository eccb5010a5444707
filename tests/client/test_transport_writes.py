"""How the blocking transport writes a connection's pieces of frames (a produce's large record
batches among them, uncopied): over a plain socket with ``sendmsg``, over TLS one write at a
time with small pieces joined, through a socket too small to take them at once. The far end
must get exactly the pieces' bytes, in order."""

from __future__ import annotations

import select
import socket
import ssl
import threading
import time
from collections import deque

import pytest

from kafkawire.client.sync_transport import _forget_sent, _send_pieces

trustme = pytest.importorskip("trustme")


def _pieces() -> list[bytes]:
    """Frames' pieces as a session hands them out: small heads and tails, large records, an
    empty one (which must not hold the writes up)."""
    large = bytes(range(256)) * 4096  # 1 MiB
    out = []
    for i in range(6):
        out += [b"head-%d" % i, large[i:] if i % 2 else large, b"tail" * (i * 1000), b""]
    return out


def _drain(sock: socket.socket, into: bytearray, expected: int) -> None:
    while len(into) < expected:
        chunk = sock.recv(65536)
        if not chunk:
            return
        into += chunk


def _write_all(sock: socket.socket, outbox: deque[memoryview]) -> list[tuple[int, int]]:
    """The transport's write step until everything went, waiting for room while the socket
    is full, as its selector would: (bytes sent, the front piece's size then) a write."""
    writes = []
    deadline = time.monotonic() + 60  # a far end that stops reading fails the test, not hangs it
    while outbox:
        assert time.monotonic() < deadline, "the far end stopped taking bytes"
        try:
            sent = _send_pieces(sock, outbox)
        except (BlockingIOError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
            select.select([], [sock], [], 5)
            continue
        writes.append((sent, len(outbox[0])))
        _forget_sent(outbox, sent)
    return writes


def test_plain_socket_sends_every_piece_in_order():
    pieces = _pieces()
    expected = b"".join(pieces)
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)  # partial writes, often
        ours.setblocking(False)
        got = bytearray()
        reader = threading.Thread(target=_drain, args=(theirs, got, len(expected)))
        reader.start()
        writes = _write_all(ours, deque(map(memoryview, pieces)))
        reader.join(30)
    assert bytes(got) == expected
    assert any(sent < front for sent, front in writes)  # it took a part of a piece
    assert any(sent > front for sent, front in writes)  # and more than one piece


def test_forget_sent_drops_whole_pieces_empty_ones_and_the_front_of_one():
    a, b, c = b"abc", b"", b"defgh"
    outbox = deque(map(memoryview, [a, b, c]))
    _forget_sent(outbox, 0)
    assert [bytes(p) for p in outbox] == [a, b, c]
    _forget_sent(outbox, 3)  # a, and the empty piece after it
    assert [bytes(p) for p in outbox] == [c]
    _forget_sent(outbox, 2)
    assert [bytes(p) for p in outbox] == [b"fgh"] and outbox[0].obj is c
    _forget_sent(outbox, 3)
    assert not outbox


def test_tls_writes_join_small_pieces_and_send_large_ones_whole():
    """TLS has no sendmsg: a write takes the small pieces at the front joined (one TLS
    record), or a large piece alone; each write the socket takes is all of it, since OpenSSL
    finishes a blocked write when it is retried with the same bytes."""
    ca = trustme.CA()
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(server_ctx)
    client_ctx = ssl.create_default_context()
    ca.configure_trust(client_ctx)
    pieces = _pieces()
    expected = b"".join(pieces)
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
    got = bytearray()

    def serve() -> None:
        with server_ctx.wrap_socket(theirs, server_side=True) as tls:
            _drain(tls, got, len(expected))

    server = threading.Thread(target=serve)
    server.start()
    with client_ctx.wrap_socket(ours, server_hostname="127.0.0.1") as tls:
        tls.setblocking(False)
        writes = _write_all(tls, deque(map(memoryview, pieces)))
        server.join(30)
    assert bytes(got) == expected
    assert all(sent == front for sent, front in writes)
    large = len(pieces[1])
    # the first frame: its head alone (a large piece follows), the batch, then its empty
    # tail pieces joined with the next frame's head
    assert [front for _, front in writes[:3]] == [6, large, len(b"head-1")]
