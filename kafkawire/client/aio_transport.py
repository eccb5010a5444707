"""The asyncio transport: drives flows over asyncio connections (BufferedProtocol).

With the synchronous transport, the only client module that touches sockets. Each broker
connection is a protocol object whose received bytes go straight into its session's frame
buffer; every call waits on a future with its own deadline. A call that times out closes its
connection (a late answer must not be taken for another request's), failing the calls that
shared it, which the flows' retries then send again.
"""

from __future__ import annotations

import asyncio
import ssl
import time

from kafkawire.errors import KafkawireError

from .config.client import ClientConfig
from .core import ClientCore, ConnectionKey
from .errors import BrokerConnectionError, ClientError, RequestTimeoutError
from .flow import Call, Flow, Sleep, Start, Wait, calls_of, resume, unreachable
from .logs import apply_debug, client_logger
from .sasl import sasl_authenticator
from .session import BrokerSession, Completion
from .sync_transport import _FAMILIES, ReconnectBackoff, set_options
from .tls import handshake_failure, handshake_timeout, ssl_context


class _Protocol(asyncio.BufferedProtocol):
    def __init__(self, session: BrokerSession, config: ClientConfig, log) -> None:
        self.session = session
        self.config = config
        self.log = log
        self.transport: asyncio.Transport | None = None
        self.gone = asyncio.get_running_loop().create_future()  # set by connection_lost
        self.last_used = time.monotonic()  # last sent or received

    def connection_made(self, transport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:  # asyncio's TransportSocket forwards setsockopt
            set_options(sock, self.config)
        self.flush()

    def flush(self) -> None:
        if self.transport is not None and self.session.has_data_to_send:
            self.last_used = time.monotonic()
            # sent as pieces by Python 3.12's selector transports (sendmsg); joined before
            self.transport.writelines(self.session.buffers_to_send())

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.session.get_buffer(sizehint)

    def buffer_updated(self, nbytes: int) -> None:
        self.last_used = time.monotonic()
        _resolve(self.session.buffer_updated(nbytes))
        if self.session.closed:  # not Kafka, or a broken stream
            self.close()
        else:
            self.flush()  # the handshake's end releases the waiting requests

    def eof_received(self) -> bool:
        return False  # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        reason = None if exc is None else f"broke the connection: {exc}"
        self.log.debug("disconnected from %s%s", self.session.address, f": {exc}" if exc else "")
        _resolve(self.session.connection_lost(reason))
        if not self.gone.done():
            self.gone.set_result(None)

    def close(self, *, flush: bool = False) -> None:
        """Fail what is pending and close; ``flush`` still sends what is buffered (an acks=0
        produce) rather than dropping it."""
        _resolve(self.session.close())
        if self.transport is not None:
            if flush:
                self.transport.close()
            else:
                self.transport.abort()


def _resolve(done: list[Completion]) -> None:
    for future, response, error in done:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(response)


class AsyncTransport:
    def __init__(self, core: ClientCore) -> None:
        self._core = core
        self._connections: dict[ConnectionKey, _Protocol] = {}
        self._connecting: dict[ConnectionKey, asyncio.Future] = {}
        self._tls = ssl_context(core.config)
        self._sasl = sasl_authenticator(core.config)
        apply_debug(core.config.debug)
        self._log = client_logger(core.config, "broker")
        self._backoff = ReconnectBackoff(
            core.config.reconnect_backoff, core.config.reconnect_backoff_max
        )
        self._token_lock = asyncio.Lock()  # one token fetch at a time
        self._woken = False
        self._waking: asyncio.Future | None = None  # ends the current Wait (wake)

    def wake(self) -> None:
        """End the current (or next) Wait now (from the transport's event loop)."""
        self._woken = True
        if self._waking is not None and not self._waking.done():
            self._waking.set_result(None)

    async def _finished(self, tasks: list[asyncio.Future], timeout: float) -> dict:
        """A Wait: the outcomes of the Started calls that finish first (none if ``timeout``
        passes or ``wake`` is called first)."""
        if self._woken:
            self._woken = False
            return {t: t.result()[0] for t in tasks if t.done()}
        self._waking = asyncio.get_running_loop().create_future()
        try:
            done, _ = await asyncio.wait(
                [*tasks, self._waking], timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            self._waking = None
            self._woken = False
        return {task: task.result()[0] for task in done if task in tasks}

    async def run(self, flow: Flow):
        """Drive ``flow`` to its end; its return value."""
        try:
            effect = next(flow)
            while True:
                if isinstance(effect, Start):  # the call runs as a task: its ticket
                    effect = flow.send(asyncio.ensure_future(self._perform([effect.call])))
                    continue
                if isinstance(effect, Wait):
                    effect = flow.send(await self._finished(effect.tickets, effect.timeout))
                    continue
                if isinstance(effect, Sleep):
                    await asyncio.sleep(effect.seconds)
                outcomes = await self._perform(calls_of(effect))
                effect = resume(flow, effect, outcomes)
        except StopIteration as stop:
            return stop.value

    async def close(self) -> None:
        """Close every connection and wait (a second at most) until they are gone."""
        connections = list(self._connections.values())
        self._connections.clear()
        for conn in connections:
            conn.close(flush=True)
        if connections:
            await asyncio.wait([conn.gone for conn in connections], timeout=1.0)

    async def _perform(self, calls: list[Call]) -> list:
        if self._sasl is not None and self._sasl.stale:
            async with self._token_lock:
                try:
                    if self._sasl.stale:  # a token endpoint or a user's callable: off the loop
                        await asyncio.to_thread(self._sasl.refresh)
                except ClientError as exc:
                    return [exc] * len(calls)
        return list(await asyncio.gather(*(self._one(call) for call in calls)))

    async def _one(self, call: Call):
        """The response to ``call``, or the exception that ended it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + call.timeout
        try:
            conn = await self._connection(call.node, deadline)
        except ClientError as exc:
            return exc
        future = loop.create_future()
        _resolve(conn.session.send(call.request, future, newest=call.newest))
        conn.flush()
        try:
            return await asyncio.wait_for(future, max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            error = RequestTimeoutError(
                f"no answer from {conn.session.address} in {round(call.timeout, 2):g} s"
            )
            conn.close()  # the answer may still come: the connection cannot be reused
            return error
        except KafkawireError as exc:  # lost connection, broker error, bad answer: the flow's
            return exc

    async def _connection(self, node: int | None, deadline: float) -> _Protocol:
        """A connection to ``node``; when every address of its route is backing off from a
        failed connect, the call waits for the soonest if that comes before ``deadline``, and
        fails at once when not."""
        loop = asyncio.get_running_loop()
        while True:
            route = self._core.route(node)
            for key, _ in route:  # an open connection first
                conn = self._connections.get(key)
                if conn is not None and not conn.session.closed:
                    if not self._idle(conn):
                        return conn
                    del self._connections[key]
                    conn.close()
            errors, waiting = [], []
            for key, (host, port) in route:
                if key not in self._connecting and self._backoff.left((host, port)) > 0:
                    waiting.append((host, port))
                    continue
                try:
                    return await self._connect(key, host, port)
                except BrokerConnectionError as exc:
                    errors.append(str(exc))
            if not waiting:
                raise unreachable(node, errors)
            wait = min(self._backoff.left(a) for a in waiting)
            if errors or loop.time() + wait >= deadline:
                left = deadline - loop.time()
                refusals = [self._backoff.refusal(a, left) for a in waiting]
                raise unreachable(node, errors + refusals)
            await asyncio.sleep(wait)

    def _idle(self, conn: _Protocol) -> bool:
        session = conn.session
        return self._core.idle_too_long(
            session.address, conn.last_used, bool(session.in_flight), self._log
        )

    async def _connect(self, key: ConnectionKey, host: str, port: int) -> _Protocol:
        pending = self._connecting.get(key)
        if pending is not None:  # another task is connecting there: share its connection
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        attempt = self._connecting[key] = loop.create_future()
        try:
            conn = await self._open(host, port)
        except BaseException as exc:
            if isinstance(exc, BrokerConnectionError):
                wait = self._backoff.failed((host, port), str(exc))
                self._log.debug("%s (next try in %.3g s)", exc, wait)
            attempt.set_exception(exc)
            attempt.exception()  # retrieved here: no "never retrieved" warning
            raise
        finally:
            del self._connecting[key]
        self._backoff.connected((host, port))
        self._log.debug("connected to %s:%s", host, port)
        old = self._connections.get(key)
        if old is not None:
            old.close()
        self._connections[key] = conn
        attempt.set_result(conn)
        return conn

    async def _open(self, host: str, port: int) -> _Protocol:
        config = self._core.config
        address = f"{host}:{port}"
        session = BrokerSession(
            address,
            client_id=config.client_id,
            max_frame_size=config.max_frame_size,
            sasl=self._sasl,
        )
        loop = asyncio.get_running_loop()
        tls = {} if self._tls is None else {"ssl": self._tls, "server_hostname": host}
        family = _FAMILIES[config.broker_address_family]
        try:
            _, protocol = await asyncio.wait_for(
                loop.create_connection(
                    lambda: _Protocol(session, config, self._log), host, port, family=family, **tls
                ),
                config.connect_timeout,
            )
        except asyncio.TimeoutError:
            if self._tls is not None:
                raise handshake_timeout(address, config.connect_timeout) from None
            raise BrokerConnectionError(
                f"cannot connect to {address}: no answer in {config.connect_timeout:g} s"
            ) from None
        except ssl.SSLError as exc:
            raise handshake_failure(address, exc) from None
        except OSError as exc:
            if self._tls is not None and not isinstance(exc, ConnectionRefusedError):
                raise handshake_failure(address, exc) from None
            raise BrokerConnectionError(f"cannot connect to {address}: {exc}") from None
        return protocol
