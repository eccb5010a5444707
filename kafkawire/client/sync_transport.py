"""The synchronous transport: drives flows over blocking-free sockets and one selector.

With the asyncio transport, the only client module that touches sockets. Calls of one
``Gather`` go out together (to several brokers at once, pipelined on one connection) and are
waited for together, each within its own deadline: a peer that is silent, trickles or closes
mid-frame makes that call fail in time, and its connection is closed (a late answer must not
be taken for the next request's).
"""

from __future__ import annotations

import contextlib
import itertools
import selectors
import socket
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .config.client import ClientConfig
from .core import ClientCore, ConnectionKey
from .errors import BrokerConnectionError, ClientError, RequestTimeoutError
from .flow import Call, Flow, Sleep, Start, Wait, calls_of, resume, unreachable
from .logs import apply_debug, client_logger
from .randomness import RANDOM
from .sasl import sasl_authenticator
from .session import BrokerSession, Completion
from .tls import handshake_failure, handshake_timeout, ssl_context

_WOULD_BLOCK = (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError)
_FAMILIES = {"any": socket.AF_UNSPEC, "v4": socket.AF_INET, "v6": socket.AF_INET6}
_IOV_MAX = 1024  # pieces a sendmsg takes (Linux's and macOS's limit)
_JOINED_BELOW = 16384  # TLS: smaller pieces at the front are joined into one write


class ReconnectBackoff:
    """reconnect.backoff.ms / reconnect.backoff.max.ms, for both transports, without IO: an
    address whose connect failed is not dialled again before its backoff has passed. The
    backoff starts at ``first``, doubles with each failure in a row up to ``most``, and each
    wait is jittered -25%..+50% (librdkafka's rule), never above ``most``; a connect that
    works clears it. ``first`` 0: no backoff."""

    def __init__(
        self,
        first: float,
        most: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        jitter: Callable[[], float] = RANDOM.random,
    ) -> None:
        self.first, self.most = first, max(first, most)
        self._clock, self._jitter = clock, jitter
        self._until: dict[tuple[str, int], float] = {}  # no dialling before this
        self._step: dict[tuple[str, int], float] = {}  # the next failure's backoff
        self._why: dict[tuple[str, int], str] = {}

    def left(self, address: tuple[str, int]) -> float:
        """Seconds before ``address`` may be dialled (0: now)."""
        until = self._until.get(address)
        return 0.0 if until is None else max(0.0, until - self._clock())

    def failed(self, address: tuple[str, int], why: str) -> float:
        """A connect to ``address`` failed (``why``): its wait before the next, in seconds."""
        if self.first <= 0:
            return 0.0
        step = self._step.get(address, self.first)
        wait = min(step * (0.75 + 0.75 * self._jitter()), self.most)
        self._until[address] = self._clock() + wait
        self._step[address] = min(step * 2, self.most)
        self._why[address] = why
        return wait

    def connected(self, address: tuple[str, int]) -> None:
        self._until.pop(address, None)
        self._step.pop(address, None)
        self._why.pop(address, None)

    def refusal(self, address: tuple[str, int], time_left: float | None = None) -> str:
        """Why a call is not dialling ``address`` now (for its error)."""
        host, port = address
        text = (
            f"{host}:{port} is not dialled again for {self.left(address):.3g} s "
            f"(reconnect.backoff.ms) after: {self._why.get(address, 'a failed connect')}"
        )
        if time_left is not None:
            text += f"; the call had {max(time_left, 0.0):.3g} s left"
        return text


def dial(host: str, port: int, config: ClientConfig) -> socket.socket:
    """A connected TCP socket to ``host:port`` with the configured options, trying each of its
    addresses (of broker.address.family) in turn, each within the connect timeout."""
    family = _FAMILIES[config.broker_address_family]
    error: OSError | None = None
    for af, kind, proto, _, address in socket.getaddrinfo(host, port, family, socket.SOCK_STREAM):
        sock = socket.socket(af, kind, proto)
        try:
            set_options(sock, config)
            sock.settimeout(config.connect_timeout)
            sock.connect(address)
            return sock
        except OSError as exc:
            error = exc
            sock.close()
    raise error if error is not None else OSError(f"no address of {host} to connect to")


def _send_pieces(sock: socket.socket, outbox: deque[memoryview]) -> int:
    """Send what the socket takes of the pieces, in order: how many bytes it took."""
    if not isinstance(sock, ssl.SSLSocket):
        return sock.sendmsg(itertools.islice(outbox, _IOV_MAX))  # nothing copied
    # TLS has no sendmsg. Small pieces at the front go in one write (one TLS record rather
    # than one each), joined; a large one alone, as it is. A retry after a blocked write
    # starts with the same bytes, as OpenSSL wants (it may be longer).
    if len(outbox) > 1 and len(outbox[0]) < _JOINED_BELOW and len(outbox[1]) < _JOINED_BELOW:
        run, size = [], 0
        while outbox and len(outbox[0]) < _JOINED_BELOW and size < _JOINED_BELOW:
            size += len(outbox[0])
            run.append(outbox.popleft())
        outbox.appendleft(memoryview(b"".join(run)))
    return sock.send(outbox[0])


def _forget_sent(outbox: deque[memoryview], sent: int) -> None:
    """Drop the ``sent`` bytes from the front: whole pieces (empty ones too), then the front
    of one (a view of the rest, not a copy)."""
    while outbox and sent >= len(outbox[0]):
        sent -= len(outbox.popleft())
    if sent:
        outbox[0] = outbox[0][sent:]


def set_options(sock: socket.socket, config: ClientConfig) -> None:
    """socket.keepalive.enable, socket.nagle.disable and the buffer sizes, on ``sock``."""
    if config.socket_nagle_disable:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if config.socket_keepalive:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    if config.socket_send_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, config.socket_send_buffer)
    if config.socket_receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, config.socket_receive_buffer)


class _Later(Exception):
    """Every address of a call's route is backing off: the soonest may be dialled at ``at``."""

    def __init__(self, at: float, refusals: list[str]) -> None:
        super().__init__(at)
        self.at = at
        self.refusals = refusals


@dataclass(eq=False)
class _Connection:
    key: ConnectionKey
    sock: socket.socket
    session: BrokerSession
    # encoded, not yet sent: pieces of frames, a produce's large records among them uncopied
    outbox: deque[memoryview] = field(default_factory=deque)
    last_used: float = field(default_factory=time.monotonic)  # last sent or received
    writing: bool = False


class SyncTransport:
    def __init__(self, core: ClientCore) -> None:
        self._core = core
        self._connections: dict[ConnectionKey, _Connection] = {}
        self._selector = selectors.DefaultSelector()
        self._next_token = 0
        # calls under way, by token: outcome once known, deadline, connection, timeout
        self._results: dict[int, object] = {}
        self._deadlines: dict[int, float] = {}
        self._owners: dict[int, _Connection] = {}
        self._timeouts: dict[int, float] = {}
        self._tls = ssl_context(core.config)
        self._sasl = sasl_authenticator(core.config)
        apply_debug(core.config.debug)
        self._log = client_logger(core.config, "broker")
        self._backoff = ReconnectBackoff(
            core.config.reconnect_backoff, core.config.reconnect_backoff_max
        )
        # calls waiting for a reconnect backoff to pass: token -> (dial at, call)
        self._deferred: dict[int, tuple[float, Call]] = {}
        # wake(): another thread ends a Wait early through this pair (a producer's caller)
        self._wake_in, self._wake_out = socket.socketpair()
        self._wake_in.setblocking(False)
        self._wake_out.setblocking(False)
        self._selector.register(self._wake_in, selectors.EVENT_READ, None)
        self._woken = False

    def wake(self) -> None:
        """End the current (or next) Wait now; safe from any thread."""
        with contextlib.suppress(OSError):  # full (a wake is pending anyway) or closed
            self._wake_out.send(b"\0")

    def run(self, flow: Flow):
        """Drive ``flow`` to its end; its return value."""
        try:
            effect = next(flow)
            while True:
                if isinstance(effect, Start):
                    effect = flow.send(self._start(effect.call))
                    continue
                if isinstance(effect, Wait):
                    effect = flow.send(self._wait_any(effect.tickets, effect.timeout))
                    continue
                if isinstance(effect, Sleep):
                    time.sleep(effect.seconds)
                outcomes = self._perform(calls_of(effect))
                effect = resume(flow, effect, outcomes)
        except StopIteration as stop:
            return stop.value

    def close(self) -> None:
        for conn in list(self._connections.values()):
            self._drop(conn)
        self._selector.close()
        self._wake_in.close()
        self._wake_out.close()

    # ---- calls ----------------------------------------------------------------------------

    def _perform(self, calls: list[Call]) -> list:
        if not calls:
            return []
        tokens = []
        try:
            tokens = [self._start(call) for call in calls]
            self._wait(tokens, None, every=True)
            return [self._results.pop(t) for t in tokens]
        except BaseException:  # interrupted: what is in flight can no longer be matched
            for conn in {self._owners[t] for t in tokens if t in self._owners}:
                self._drop(conn)
            raise
        finally:
            self._forget(tokens)

    def _wait_any(self, tickets: list[int], timeout: float) -> dict[int, object]:
        """A Wait: the outcomes of the tickets that finish first (none if ``timeout`` passes
        or ``wake`` is called first)."""
        self._wait(tickets, time.monotonic() + timeout, every=False)
        self._woken = False
        done = {t: self._results.pop(t) for t in tickets if not self._waiting(t)}
        self._forget(done)
        return done

    def _forget(self, tokens) -> None:
        for t in tokens:
            self._results.pop(t, None)
            self._deadlines.pop(t, None)
            self._owners.pop(t, None)
            self._timeouts.pop(t, None)
            self._deferred.pop(t, None)

    def _start(self, call: Call) -> int:
        token = self._next_token = self._next_token + 1
        self._deadlines[token] = time.monotonic() + call.timeout
        self._timeouts[token] = call.timeout
        if self._sasl is not None and self._sasl.stale:
            try:
                self._sasl.refresh()  # a token for the authentication this call may start
            except ClientError as exc:
                self._results[token] = exc
                return token
        self._send(token, call)
        return token

    def _send(self, token: int, call: Call) -> None:
        """Send ``call`` as ``token`` on its broker's connection, made if need be; if the
        broker is backing off from a failed connect, the call waits for it when that ends
        within the call's deadline, and fails at once when not."""
        try:
            conn = self._connection(call.node)
        except _Later as later:
            if later.at < self._deadlines[token]:
                self._deferred[token] = (later.at, call)
            else:
                left = self._deadlines[token] - time.monotonic()
                errors = [f"{r}; the call had {max(left, 0.0):.3g} s left" for r in later.refusals]
                self._results[token] = unreachable(call.node, errors)
            return
        except ClientError as exc:
            self._results[token] = exc
            return
        self._owners[token] = conn
        conn.last_used = time.monotonic()
        self._complete(conn.session.send(call.request, token, newest=call.newest))
        self._want_write(conn)

    def _wait(self, tokens: list[int], until: float | None, *, every: bool) -> None:
        """Run the sockets until every call of ``tokens`` (``every``) or one of them has
        finished, or ``until`` passes; each call fails at its own deadline."""
        while True:
            waiting = [t for t in tokens if self._waiting(t)]
            if self._done_waiting(tokens, waiting, every):
                return
            now = time.monotonic()
            for token in waiting:
                deferred = self._deferred.get(token)
                if deferred is not None and now >= deferred[0]:
                    del self._deferred[token]
                    self._send(token, deferred[1])
            waiting = [t for t in tokens if self._waiting(t)]
            if self._done_waiting(tokens, waiting, every):
                return
            for token in waiting:
                if token in self._deferred:
                    continue  # dialled before its deadline (or failed at once)
                if now >= self._deadlines[token]:
                    conn = self._owners[token]
                    what = "no answer from" if token not in self._results else "could not send to"
                    self._results[token] = RequestTimeoutError(
                        f"{what} {conn.session.address} in {round(self._timeouts[token], 2):g} s"
                    )
                    # the answer may still come: the connection cannot be reused
                    self._complete(conn.session.close("closed: a call on it timed out"))
                    self._drop(conn)
            waiting = [t for t in tokens if self._waiting(t)]
            if self._done_waiting(tokens, waiting, every):
                return
            ends = [
                self._deferred[t][0] if t in self._deferred else self._deadlines[t] for t in waiting
            ]
            if until is not None:
                ends.append(until)
            # a Wait whose time is up still reads and writes what is ready, once (a poll(0)
            # loop must move a join along)
            expired = until is not None and now >= until
            for key, mask in self._selector.select(
                0.0 if expired else max(0.0, min(ends) - now) if ends else None
            ):
                conn = key.data
                if conn is None:  # the wake pair
                    with contextlib.suppress(OSError):
                        self._wake_in.recv(4096)
                    self._woken = True
                    continue
                if mask & selectors.EVENT_WRITE:
                    self._write(conn)
                if mask & selectors.EVENT_READ and not conn.session.closed:
                    self._read(conn)
            if expired:
                return

    def _done_waiting(self, tokens: list[int], waiting: list[int], every: bool) -> bool:
        if every:
            return not waiting
        # a Wait: one has finished, or a wake came (a Wait for nothing sleeps till either)
        return self._woken or len(waiting) < len(tokens)

    def _waiting(self, token: int) -> bool:
        """Whether call ``token`` is unfinished: no outcome yet, or (a Produce with acks=0,
        finished when handed over) its bytes are not all sent."""
        if token not in self._results:
            return True
        conn = self._owners.get(token)
        if conn is None or self._connections.get(conn.key) is not conn:
            return False
        return bool(conn.outbox) or conn.session.has_data_to_send

    def _complete(self, done: list[Completion]) -> None:
        for token, response, error in done:  # the first outcome of a call stands
            if token in self._deadlines:  # not a call the client has given up on
                self._results.setdefault(token, error if error is not None else response)

    # ---- connections ------------------------------------------------------------------------

    def _connection(self, node: int | None) -> _Connection:
        route = self._core.route(node)
        for key, _ in route:  # an open connection first
            conn = self._connections.get(key)
            if conn is not None and not conn.session.closed:
                if not self._idle(conn):
                    return conn
                self._drop(conn)
        errors, refusals, soonest = [], [], None
        for key, (host, port) in route:
            left = self._backoff.left((host, port))
            if left > 0:
                refusals.append(self._backoff.refusal((host, port)))
                at = time.monotonic() + left
                soonest = at if soonest is None else min(soonest, at)
                continue
            try:
                return self._connect(key, host, port)
            except BrokerConnectionError as exc:
                errors.append(str(exc))
        if soonest is not None and not errors:
            raise _Later(soonest, refusals)
        raise unreachable(node, errors + refusals)

    def _connect(self, key: ConnectionKey, host: str, port: int) -> _Connection:
        config = self._core.config
        address = f"{host}:{port}"
        old = self._connections.pop(key, None)
        if old is not None:
            self._drop(old)
        try:
            sock = dial(host, port, config)
        except OSError as exc:
            wait = self._backoff.failed((host, port), str(exc))
            self._log.debug("cannot connect to %s: %s (next try in %.3g s)", address, exc, wait)
            raise BrokerConnectionError(f"cannot connect to {address}: {exc}") from None
        self._backoff.connected((host, port))
        self._log.debug("connected to %s", address)
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

    def _idle(self, conn: _Connection) -> bool:
        session = conn.session
        busy = bool(session.in_flight) or bool(conn.outbox)
        return self._core.idle_too_long(session.address, conn.last_used, busy, self._log)

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

    def _write(self, conn: _Connection) -> None:
        outbox = conn.outbox
        if conn.session.has_data_to_send:
            outbox.extend(map(memoryview, conn.session.buffers_to_send()))
        try:
            sent = _send_pieces(conn.sock, outbox) if outbox else 0
        except _WOULD_BLOCK:  # TLS retries with the same bytes first, as OpenSSL wants
            sent = 0
        except OSError as exc:
            self._drop(conn, f"failed to take what was sent: {exc}")
            return
        _forget_sent(outbox, sent)
        if outbox:  # the rest goes out when the socket has room
            return
        conn.writing = False
        self._selector.modify(conn.sock, selectors.EVENT_READ, conn)

    def _read(self, conn: _Connection) -> None:
        conn.last_used = time.monotonic()
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
                self._complete(session.buffer_updated(filled))
            if lost is not None:
                if lost:
                    self._drop(conn, lost)
                else:
                    self._complete(session.connection_lost())
                    self._drop(conn)
                return
            if session.closed or not tls or filled < room:
                break
        if session.closed:  # the stream broke (not Kafka, a corrupt frame): so does the socket
            self._drop(conn)
        elif session.has_data_to_send:  # the handshake's end releases the waiting requests
            self._want_write(conn)

    def _drop(self, conn: _Connection, lost: str | None = None) -> None:
        """Close ``conn``; its pending calls fail (the peer ``lost`` it, or the client closed
        it)."""
        self._complete(conn.session.connection_lost(lost) if lost else conn.session.close())
        if self._connections.get(conn.key) is conn:
            del self._connections[conn.key]
            self._log.debug(
                "disconnected from %s%s", conn.session.address, f": {lost}" if lost else ""
            )
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn.sock)
        with contextlib.suppress(OSError):
            conn.sock.close()
