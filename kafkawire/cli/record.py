"""``kafkawire record``: a recording TCP proxy that writes each connection's two directions
as captures."""

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import socket
import struct
import sys
import threading
import time
from pathlib import Path
from typing import IO

from kafkawire.cli.common import PROG, SIZE, CliError
from kafkawire.errors import DecodeError


def host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


# Responses that tell a client where brokers are: rewritten so it connects through the
# recorder (the API keys of Metadata, FindCoordinator and DescribeCluster).
_ADDRESS_APIS = frozenset({3, 10, 60})
_REQUEST_HEAD = struct.Struct(">ihhi")  # size, API key, version, correlation id
_RESPONSE_HEAD = struct.Struct(">ii")  # size, correlation id


class _FrameStream:
    """One direction of a connection split into size-prefixed frames as its bytes pass.
    ``hold(head)`` sees the first bytes of each frame (its size prefix and header, at most
    ``head_size``) and says whether to hold the whole frame for ``rewrite(frame)``, which
    returns what to send instead; other frames pass on as their bytes come. Bytes that are
    not frames (a negative size: TLS, ...) pass on untouched from there on."""

    def __init__(self, head_size: int, hold, rewrite=None) -> None:
        self._head_size = head_size
        self._hold = hold
        self._rewrite = rewrite
        self._buf = bytearray()
        self._passing = 0  # bytes of the current frame still to pass on as they come
        self._held = False  # the current frame waits whole for rewrite

    def feed(self, chunk: bytes) -> bytes:
        """The bytes to forward now."""
        out = bytearray()
        view = memoryview(chunk)
        while view:
            if self._passing:
                n = min(self._passing, len(view))
                out += view[:n]
                view = view[n:]
                self._passing -= n
                continue
            self._buf += view
            view = view[:0]
            out += self._drain()
        return bytes(out)

    def _drain(self) -> bytes:
        out = bytearray()
        while len(self._buf) >= 4:
            (size,) = SIZE.unpack_from(self._buf)
            if size < 0:  # not Kafka frames: everything passes on from here
                self._passing = sys.maxsize
                out += self._buf
                self._buf.clear()
                break
            total = 4 + size
            if not self._held:
                head = min(self._head_size, total)
                if len(self._buf) < head:
                    break
                if not self._hold(bytes(self._buf[:head])):
                    n = min(total, len(self._buf))
                    out += self._buf[:n]
                    del self._buf[:n]
                    self._passing = total - n
                    continue
                self._held = True
            if len(self._buf) < total:
                break
            frame = bytes(self._buf[:total])
            del self._buf[:total]
            self._held = False
            out += self._rewrite(frame)
        return bytes(out)


class Recorder:
    """A TCP proxy that writes each connection's two directions to ``conn-N.requests`` and
    ``conn-N.responses`` in ``out_dir`` (raw bytes, as the client and the broker sent them).

    Broker addresses in Metadata, FindCoordinator and DescribeCluster responses are rewritten
    to listeners of the recorder, one per broker address, opened as brokers are named: a
    client that bootstraps through the recorder reaches every broker through it, and all its
    traffic is recorded. ``advertised_host`` is the host name given to clients for those
    listeners (by default the listening host, or this machine's name when that is a
    wildcard)."""

    def __init__(
        self,
        listen: tuple[str, int],
        upstream: tuple[str, int],
        out_dir: str | os.PathLike,
        *,
        log: IO[str] | None = None,
        advertised_host: str | None = None,
    ) -> None:
        self.upstream = upstream
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.log = log
        self._listen_host = listen[0]
        self._server = socket.create_server(listen)
        self.address: tuple[str, int] = self._server.getsockname()[:2]
        if advertised_host is None:
            wildcard = self.address[0] in ("", "0.0.0.0", "::")
            advertised_host = socket.getfqdn() if wildcard else self.address[0]
        self.advertised_host = advertised_host
        # broker address -> the recorder's listener for it, as clients are told it
        self.routes: dict[tuple[str, int], tuple[str, int]] = {
            upstream: (advertised_host, self.address[1])
        }
        self._lock = threading.Lock()
        self._next = 1
        self.closed_connections = 0
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._serving = False
        self.changed = threading.Condition(self._lock)

    def _say(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    def serve(self) -> None:
        """Accept connections (on the bootstrap listener here, on the brokers' listeners in
        threads of their own) until :meth:`stop`."""
        with self._lock:
            self._serving = True
        self._accept(self._server, self.upstream)

    def _accept(self, server: socket.socket, upstream: tuple[str, int]) -> None:
        sel = selectors.DefaultSelector()
        sel.register(server, selectors.EVENT_READ)
        try:
            while not self._stop.is_set():
                if not sel.select(0.2):
                    continue
                try:
                    client, peer = server.accept()
                except OSError:
                    continue
                with self._lock:
                    number = self._next
                    self._next += 1
                    thread = threading.Thread(
                        target=self._connection, args=(number, client, peer, upstream), daemon=True
                    )
                    self._threads.append(thread)
                thread.start()
        finally:
            sel.close()
            server.close()

    def route(self, host: str, port: int) -> tuple[str, int]:
        """The address clients are given for the broker at host:port: a listener of the
        recorder forwarding to it, opened the first time the broker is named."""
        with self._lock:
            known = self.routes.get((host, port))
            if known is not None or self._stop.is_set():
                return known or (host, port)
            server = socket.create_server((self._listen_host, 0))
            address = (self.advertised_host, server.getsockname()[1])
            self.routes[(host, port)] = address
            thread = threading.Thread(target=self._accept, args=(server, (host, port)), daemon=True)
            self._threads.append(thread)
        thread.start()
        self._say(f"listening on {address[0]}:{address[1]} for the broker at {host}:{port}")
        return address

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
            if not self._serving:  # nobody will: the bootstrap listener closes here
                self._server.close()

    def join(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _connection(
        self, number: int, client: socket.socket, peer, upstream_address: tuple[str, int]
    ) -> None:
        name = f"conn-{number}"
        where = f"{upstream_address[0]}:{upstream_address[1]}"
        try:
            upstream = socket.create_connection(upstream_address, timeout=10)
        except OSError as exc:
            self._say(f"{name}: cannot reach {where}: {exc}")
            client.close()
            self._closed()
            return
        upstream.settimeout(None)
        self._say(f"{name}: {peer[0]}:{peer[1]} -> {where}")
        # correlation id -> (API key, version) of requests whose responses name brokers
        asked: dict[int, tuple[int, int]] = {}

        def note_request(head: bytes) -> bool:
            if len(head) == _REQUEST_HEAD.size:
                _, key, version, correlation_id = _REQUEST_HEAD.unpack(head)
                if key in _ADDRESS_APIS:
                    asked[correlation_id] = (key, version)
            return False  # requests pass on unchanged

        def holds_brokers(head: bytes) -> bool:
            return len(head) == _RESPONSE_HEAD.size and _RESPONSE_HEAD.unpack(head)[1] in asked

        def rewrite(frame: bytes) -> bytes:
            key, version = asked.pop(_RESPONSE_HEAD.unpack_from(frame)[1])
            return self._rewrite_addresses(name, frame, key, version)

        requests_stream = _FrameStream(_REQUEST_HEAD.size, note_request)
        responses_stream = _FrameStream(_RESPONSE_HEAD.size, holds_brokers, rewrite)
        with (
            open(self.out_dir / f"{name}.requests", "wb") as requests,
            open(self.out_dir / f"{name}.responses", "wb") as responses,
        ):
            pumps = [
                threading.Thread(
                    target=self._pump, args=(client, upstream, requests, requests_stream)
                ),
                threading.Thread(
                    target=self._pump, args=(upstream, client, responses, responses_stream)
                ),
            ]
            for pump in pumps:
                pump.start()
            for pump in pumps:
                pump.join()
            sizes = requests.tell(), responses.tell()
        self._say(f"{name}: closed ({sizes[0]} bytes of requests, {sizes[1]} of responses)")
        self._closed()

    def _rewrite_addresses(self, name: str, frame: bytes, key: int, version: int) -> bytes:
        """A Metadata, FindCoordinator or DescribeCluster response frame (size prefix
        included) with each broker's host and port replaced by the recorder's listener for
        it; the frame as it is when it does not decode."""
        from kafkawire.protocol import decode_response, encode_response

        try:
            header, msg = decode_response(frame, api_key=key, api_version=version, size_prefix=True)
        except DecodeError as exc:
            self._say(f"{name}: a response naming brokers passed on unchanged: {exc}")
            return frame
        if key == 10 and version < 4:  # FindCoordinator before batching: one coordinator
            places = [msg] if msg.host and msg.port >= 0 else []
        else:
            places = msg.coordinators if key == 10 else msg.brokers
        for place in places:
            if place.host and place.port >= 0:
                place.host, place.port = self.route(place.host, place.port)
        return bytes(encode_response(msg, version=version, header=header))

    def _closed(self) -> None:
        with self.changed:
            self.closed_connections += 1
            self.changed.notify_all()

    def _pump(
        self, src: socket.socket, dst: socket.socket, sink: IO[bytes], stream: _FrameStream
    ) -> None:
        try:
            while chunk := src.recv(65536):
                sink.write(chunk)  # written before it is forwarded: a reply follows it
                sink.flush()
                dst.sendall(stream.feed(chunk))
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                src.close()


def cmd_record(args: argparse.Namespace) -> int:
    try:
        recorder = Recorder(
            args.listen,
            args.upstream,
            args.out,
            log=sys.stderr,
            advertised_host=args.advertised_host,
        )
    except OSError as exc:
        raise CliError(f"cannot listen on {args.listen[0]}:{args.listen[1]}: {exc}") from None
    host, port = recorder.address
    sys.stderr.write(
        f"{PROG}: recording {host}:{port} -> {args.upstream[0]}:{args.upstream[1]} "
        f"into {args.out} (Ctrl-C stops)\n"
    )
    thread = threading.Thread(target=recorder.serve, daemon=True)
    thread.start()
    deadline = None if args.duration is None else time.monotonic() + args.duration
    try:
        with recorder.changed:
            while True:
                if args.connections is not None and (
                    recorder.closed_connections >= args.connections
                ):
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
                recorder.changed.wait(0.2)
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: stopped\n")
    finally:
        recorder.stop()
        thread.join(5)
        recorder.join(5)
    return 0
