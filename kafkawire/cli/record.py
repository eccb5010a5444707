"""``kafkawire record``: a recording TCP proxy that writes each connection's two directions
as captures."""

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import socket
import sys
import threading
import time
from pathlib import Path
from typing import IO

from kafkawire.cli.common import PROG, CliError


def host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


class Recorder:
    """A TCP proxy that writes each connection's two directions to ``conn-N.requests`` and
    ``conn-N.responses`` in ``out_dir`` (raw bytes, as they pass)."""

    def __init__(
        self,
        listen: tuple[str, int],
        upstream: tuple[str, int],
        out_dir: str | os.PathLike,
        *,
        log: IO[str] | None = None,
    ) -> None:
        self.upstream = upstream
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.log = log
        self._server = socket.create_server(listen)
        self.address: tuple[str, int] = self._server.getsockname()[:2]
        self._lock = threading.Lock()
        self._next = 1
        self.closed_connections = 0
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self.changed = threading.Condition(self._lock)

    def _say(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    def serve(self) -> None:
        """Accept connections until :meth:`stop`."""
        sel = selectors.DefaultSelector()
        sel.register(self._server, selectors.EVENT_READ)
        try:
            while not self._stop.is_set():
                if not sel.select(0.2):
                    continue
                try:
                    client, peer = self._server.accept()
                except OSError:
                    continue
                with self._lock:
                    number = self._next
                    self._next += 1
                thread = threading.Thread(
                    target=self._connection, args=(number, client, peer), daemon=True
                )
                self._threads.append(thread)
                thread.start()
        finally:
            sel.close()
            self._server.close()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _connection(self, number: int, client: socket.socket, peer) -> None:
        name = f"conn-{number}"
        try:
            upstream = socket.create_connection(self.upstream, timeout=10)
        except OSError as exc:
            self._say(f"{name}: cannot reach {self.upstream[0]}:{self.upstream[1]}: {exc}")
            client.close()
            self._closed()
            return
        upstream.settimeout(None)
        self._say(f"{name}: {peer[0]}:{peer[1]} -> {self.upstream[0]}:{self.upstream[1]}")
        with (
            open(self.out_dir / f"{name}.requests", "wb") as requests,
            open(self.out_dir / f"{name}.responses", "wb") as responses,
        ):
            pumps = [
                threading.Thread(target=self._pump, args=(client, upstream, requests)),
                threading.Thread(target=self._pump, args=(upstream, client, responses)),
            ]
            for pump in pumps:
                pump.start()
            for pump in pumps:
                pump.join()
            sizes = requests.tell(), responses.tell()
        self._say(f"{name}: closed ({sizes[0]} bytes of requests, {sizes[1]} of responses)")
        self._closed()

    def _closed(self) -> None:
        with self.changed:
            self.closed_connections += 1
            self.changed.notify_all()

    def _pump(self, src: socket.socket, dst: socket.socket, sink: IO[bytes]) -> None:
        try:
            while chunk := src.recv(65536):
                sink.write(chunk)  # written before it is forwarded: a reply follows it
                sink.flush()
                dst.sendall(chunk)
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
        recorder = Recorder(args.listen, args.upstream, args.out, log=sys.stderr)
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
