"""The synchronous transport: drives flows over blocking-free sockets and one selector.

With the asyncio transport, the only client module that touches sockets. Calls of one
``Gather`` go out together (to several brokers at once, pipelined on one connection) and are
waited for together, each within its own deadline: a peer that is silent, trickles or closes
mid-frame makes that call fail in time, and its connection is closed (a late answer must not
be taken for the next request's).
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import ssl
import time
from dataclasses import dataclass, field

from .core import ClientCore, ConnectionKey
from .errors import BrokerConnectionError, ClientError, RequestTimeoutError
from .flow import Call, Flow, Sleep, calls_of, resume, unreachable
from .sasl import sasl_authenticator
from .session import BrokerSession, Completion
from .tls import handshake_failure, handshake_timeout, ssl_context

_WOULD_BLOCK = (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError)


@dataclass(eq=False)
class _Connection:
    key: ConnectionKey
    sock: socket.socket
    session: BrokerSession
    outbox: bytearray = field(default_factory=bytearray)  # encoded, not yet sent
    writing: bool = False


class SyncTransport:
    def __init__(self, core: ClientCore) -> None:
        self._core = core
        self._connections: dict[ConnectionKey, _Connection] = {}
        self._selector = selectors.DefaultSelector()
        self._next_token = 0
        self._tls = ssl_context(core.config)
        self._sasl = sasl_authenticator(core.config)

    def run(self, flow: Flow):
        """Drive ``flow`` to its end; its return value."""
        try:
            effect = next(flow)
            while True:
                if isinstance(effect, Sleep):
                    time.sleep(effect.seconds)
                outcomes = self._perform(calls_of(effect))
                effect = resume(flow, effect, outcomes)
        except StopIteration as stop:
            return stop.value

    def close(self) -> None:
        for conn in list(self._connections.values()):
            self._drop(conn, None)
        self._selector.close()

    # ---- calls ----------------------------------------------------------------------------

    def _perform(self, calls: list[Call]) -> list:
        if self._sasl is not None and self._sasl.stale:
            try:
                self._sasl.refresh()  # a token for the authentications these calls may start
            except ClientError as exc:
                return [exc] * len(calls)
        owners: dict[int, _Connection] = {}
        try:
            return self._exchange(calls, owners)
        except BaseException:  # interrupted: what is in flight can no longer be matched
            for conn in set(owners.values()):
                self._drop(conn, None)
            raise

    def _exchange(self, calls: list[Call], owners: dict[int, _Connection]) -> list:
        start = time.monotonic()
        results: dict[int, object] = {}
        deadlines: dict[int, float] = {}
        tokens = []
        for call in calls:
            token = self._next_token = self._next_token + 1
            tokens.append(token)
            deadlines[token] = start + call.timeout
            try:
                conn = self._connection(call.node)
            except ClientError as exc:
                results[token] = exc
                continue
            owners[token] = conn
            self._complete(conn.session.send(call.request, token, newest=call.newest), results)
            self._want_write(conn)
        while waiting := [t for t in tokens if self._waiting(t, results, owners)]:
            now = time.monotonic()
            for token in waiting:
                if now >= deadlines[token]:
                    conn = owners[token]
                    timeout = deadlines[token] - start
                    what = "no answer from" if token not in results else "could not send to"
                    results[token] = RequestTimeoutError(
                        f"{what} {conn.session.address} in {timeout:g} s"
                    )
                    # the answer may still come: the connection cannot be reused
                    self._complete(conn.session.close("closed: a call on it timed out"), results)
                    self._drop(conn, results)
            waiting = [deadlines[t] for t in tokens if self._waiting(t, results, owners)]
            if not waiting:
                break
            for key, mask in self._selector.select(max(0.0, min(waiting) - now)):
                conn = key.data
                if mask & selectors.EVENT_WRITE:
                    self._write(conn, results)
                if mask & selectors.EVENT_READ and not conn.session.closed:
                    self._read(conn, results)
        return [results[t] for t in tokens]

    def _waiting(self, token: int, results: dict, owners: dict[int, _Connection]) -> bool:
        """Whether call ``token`` is unfinished: no outcome yet, or (a Produce with acks=0,
        finished when handed over) its bytes are not all sent."""
        if token not in results:
            return True
        conn = owners.get(token)
        if conn is None or self._connections.get(conn.key) is not conn:
            return False
        return bool(conn.outbox) or conn.session.has_data_to_send

    def _complete(self, done: list[Completion], results: dict) -> None:
        for token, response, error in done:  # the first outcome of a call stands
            results.setdefault(token, error if error is not None else response)

    # ---- connections ------------------------------------------------------------------------

    def _connection(self, node: int | None) -> _Connection:
        route = self._core.route(node)
        for key, _ in route:  # an open connection first
            conn = self._connections.get(key)
            if conn is not None and not conn.session.closed:
                return conn
        errors = []
        for key, (host, port) in route:
            try:
                return self._connect(key, host, port)
            except BrokerConnectionError as exc:
                errors.append(str(exc))
        raise unreachable(node, errors)

    def _connect(self, key: ConnectionKey, host: str, port: int) -> _Connection:
        config = self._core.config
        address = f"{host}:{port}"
        old = self._connections.pop(key, None)
        if old is not None:
            self._drop(old, None)
        try:
            sock = socket.create_connection((host, port), timeout=config.connect_timeout)
        except OSError as exc:
            raise BrokerConnectionError(f"cannot connect to {address}: {exc}") from None
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self._tls is not None:
            sock = self._tls_handshake(sock, host, address)
        sock.setblocking(False)
        session = BrokerSession(
            address,
            client_id=config.client_id,
            max_frame_size=config.max_frame_size,
            sasl=self._sasl,
        )
        conn = self._connections[key] = _Connection(key, sock, session)
        self._selector.register(sock, selectors.EVENT_READ, conn)
        self._want_write(conn)
        return conn

    def _tls_handshake(self, sock: socket.socket, host: str, address: str) -> ssl.SSLSocket:
        """The handshake, blocking, within the connect timeout (the socket's timeout)."""
        try:
            return self._tls.wrap_socket(sock, server_hostname=host)
        except TimeoutError:
            sock.close()
            raise handshake_timeout(address, sock.gettimeout()) from None
        except OSError as exc:  # ssl.SSLError is one
            sock.close()
            raise handshake_failure(address, exc) from None

    def _want_write(self, conn: _Connection) -> None:
        if conn.writing or conn.session.closed:
            return
        conn.writing = True
        self._selector.modify(conn.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, conn)

    def _write(self, conn: _Connection, results: dict) -> None:
        conn.outbox += conn.session.data_to_send()
        try:
            sent = conn.sock.send(conn.outbox) if conn.outbox else 0
        except _WOULD_BLOCK:  # TLS retries with the same bytes, as OpenSSL wants
            sent = 0
        except OSError as exc:
            self._drop(conn, results, f"failed to take what was sent: {exc}")
            return
        del conn.outbox[:sent]
        if conn.outbox:  # the rest goes out when the socket has room
            return
        conn.writing = False
        self._selector.modify(conn.sock, selectors.EVENT_READ, conn)

    def _read(self, conn: _Connection, results: dict) -> None:
        session = conn.session
        tls = isinstance(conn.sock, ssl.SSLSocket)
        while True:
            # TLS hands out one record (16 KiB at most) a call and may hold decrypted bytes that
            # select does not see: fill the session's buffer with all of them, then hand it
            # over once (a plain socket gives what it has in one call)
            view = session.get_buffer()
            room, filled, lost = len(view), 0, None
            try:
                while filled < room:
                    n = conn.sock.recv_into(view[filled:])
                    if n == 0:
                        lost = ""
                        break
                    filled += n
                    if not tls:
                        break
            except _WOULD_BLOCK:
                pass
            except OSError as exc:
                lost = f"broke the connection: {exc}"
            finally:
                view.release()
            if filled:
                self._complete(session.buffer_updated(filled), results)
            if lost is not None:
                if lost:
                    self._drop(conn, results, lost)
                else:
                    self._complete(session.connection_lost(), results)
                    self._drop(conn, results)
                return
            if session.closed or not tls or filled < room:
                break
        if session.closed:  # the stream broke (not Kafka, a corrupt frame): so does the socket
            self._drop(conn, results)
        elif session.has_data_to_send:  # the handshake's end releases the waiting requests
            self._want_write(conn)

    def _drop(self, conn: _Connection, results: dict | None, lost: str | None = None) -> None:
        """Close ``conn``; its pending calls fail (the peer ``lost`` it, or the client closed
        it)."""
        done = conn.session.connection_lost(lost) if lost else conn.session.close()
        if results is not None:
            for token, _, exc in done:
                results.setdefault(token, exc)
        if self._connections.get(conn.key) is conn:
            del self._connections[conn.key]
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn.sock)
        with contextlib.suppress(OSError):
            conn.sock.close()
