"""A fault-injecting TCP proxy on 127.0.0.1 for the client's fault tests.

It forwards to a broker (which advertises the proxy's address, so that every connection a
client makes goes through it) and, on demand, resets every open connection (RST), cuts the
next answer after some bytes, black-holes traffic (connections stay open, nothing passes) or
trickles it (a few bytes at a time)."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Iterator

from tests.support.broker import free_port, launch_tansu

PASS, BLACKHOLE, TRICKLE = "pass", "blackhole", "trickle"


class FaultProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.mode = PASS
        self.resets = 0
        self._cut_after: int | None = None
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def close(self) -> None:
        self._server.close()
        self.reset()

    def reset(self) -> None:
        """Every open connection ends with a reset, both sides."""
        with self._lock:
            sockets, self._open = self._open, []
            self.resets += 1
        for s in sockets:
            _abort(s)

    def cut_next_answer(self, after: int) -> None:
        """The next bytes from the broker pass up to ``after`` of them, then the connection
        is reset (an answer cut mid-frame)."""
        self._cut_after = after

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                _abort(client)
                continue
            with self._lock:
                self._open += [client, upstream]
            for src, dst, answers in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(target=self._pump, args=(src, dst, answers), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, answers: bool) -> None:
        try:
            while chunk := src.recv(65536):
                if self.mode == BLACKHOLE:
                    continue
                if answers and self._cut_after is not None:
                    keep, self._cut_after = self._cut_after, None
                    dst.sendall(chunk[:keep])
                    self.reset()
                    return
                if self.mode == TRICKLE:
                    for i in range(0, len(chunk), 16):
                        dst.sendall(chunk[i : i + 16])
                        time.sleep(0.02)
                else:
                    dst.sendall(chunk)
        except OSError:
            pass
        finally:
            _abort(src)
            _abort(dst)


def _abort(s: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0), as a crashed peer or a middlebox does. shutdown
    first: it wakes the pump thread blocked in recv on it, which close alone does not."""
    with contextlib.suppress(OSError):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        s.close()


@contextlib.contextmanager
def proxied_tansu() -> Iterator[FaultProxy]:
    """A Tansu of its own that advertises the fault proxy in front of it, so that every
    connection a client makes goes through the proxy."""
    port = free_port()
    proxy = FaultProxy(port)
    process = launch_tansu(port, proxy.address)
    try:
        yield proxy
    finally:
        proxy.close()
        process.terminate()
        process.wait(10)
