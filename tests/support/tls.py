"""TLS in front of the PLAINTEXT test broker: a forwarder on Python's ssl that terminates TLS
(optionally demanding a client certificate) and passes the plaintext on to Tansu, with
certificates made for the test session by trustme."""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from dataclasses import dataclass, field

from tests.support.broker import free_port


@dataclass
class TlsForwarder:
    """127.0.0.1:port (TLS) -> 127.0.0.1:target_port (plaintext). Without a context, a plain
    forwarder with the same threads and copies (the baseline TLS is measured against)."""

    target_port: int
    context: ssl.SSLContext | None
    port: int = field(default_factory=free_port)
    _server: socket.socket | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> TlsForwarder:
        self._server = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    def _accept(self) -> None:
        assert self._server is not None
        while True:
            try:
                raw, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as brokers do
        raw.settimeout(10)
        try:
            client = raw
            if self.context is not None:
                client = self.context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError):
            raw.close()  # a failed handshake: the client reports it
            return
        client.settimeout(None)
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            client.close()
            return
        for src, dst in ((client, upstream), (upstream, client)):
            threading.Thread(target=_pump, args=(src, dst), daemon=True).start()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while chunk := src.recv(1 << 20):
            dst.sendall(chunk)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()


def server_context(ca, *names: str, client_ca=None) -> ssl.SSLContext:
    """A server context with a certificate for ``names`` from trustme's ``ca``; with
    ``client_ca``, clients must present a certificate it issued (mTLS)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(*names).configure_cert(context)
    if client_ca is not None:
        client_ca.configure_trust(context)
        context.verify_mode = ssl.CERT_REQUIRED
    return context
