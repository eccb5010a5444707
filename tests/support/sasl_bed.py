"""SASL in front of the PLAINTEXT test broker: a gateway that does the broker side of
SaslHandshake/SaslAuthenticate and then forwards to Tansu, and an OAuth token endpoint.

The mechanisms' server side is code this project did not write: ``scramp`` for SCRAM, PyJWT for
the OAUTHBEARER tokens (RS256, signed by a key made per session); PLAIN's check is a split. The
frames around them are parsed here without kafkawire (it is what is under test), and the bed is
proved with librdkafka and with bare requests (``tests/client/test_sasl_bed.py``). Like Kafka,
the gateway answers ApiVersions before authentication (adding the SASL APIs to Tansu's list),
drops a connection that sends anything else first or asks for a mechanism it lacks, gives
sessions a lifetime when told to (KIP-368) and drops a connection whose session has expired
unless it authenticates again. Local answers are written at
once, so during a re-authentication they may overtake forwarded ones: clients match answers by
correlation id.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import json
import ssl
import struct
import threading
import time
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import scramp
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.support.broker import free_port, launch_tansu

USERS = {"alice": "alice-secret"}
MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]
API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE = 18, 17, 36
SASL_AUTHENTICATION_FAILED, UNSUPPORTED_SASL_MECHANISM, ILLEGAL_SASL_STATE = 58, 33, 34


class OAuthIssuer:
    """Signs tokens with a key of its own and serves them at a client-credentials endpoint."""

    def __init__(self, clients: dict[str, str] | None = None, token_lifetime: float = 3600.0):
        self.clients = clients or {"kw-client": "kw-secret"}
        self.token_lifetime = token_lifetime
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.tokens_issued = 0
        self._server: ThreadingHTTPServer | None = None

    @property
    def token_endpoint_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/token"

    def issue(self, subject: str, lifetime: float | None = None, **claims) -> str:
        now = time.time()
        payload = {"sub": subject, "iat": int(now), **claims}
        payload["exp"] = now + (self.token_lifetime if lifetime is None else lifetime)
        self.tokens_issued += 1
        return jwt.encode(payload, self.key, algorithm="RS256")

    def verify(self, token: str) -> dict:
        """The token's claims; raises jwt.InvalidTokenError."""
        return jwt.decode(token, self.key.public_key(), algorithms=["RS256"])

    def start(self) -> OAuthIssuer:
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                size = int(self.headers.get("Content-Length") or 0)
                form = dict(urllib.parse.parse_qsl(self.rfile.read(size).decode()))
                client_id, secret = form.get("client_id"), form.get("client_secret")
                auth = self.headers.get("Authorization", "")
                if auth.startswith("Basic "):
                    client_id, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
                if form.get("grant_type") != "client_credentials":
                    return self._answer(400, {"error": "unsupported_grant_type"})
                if client_id not in issuer.clients or issuer.clients[client_id] != secret:
                    return self._answer(401, {"error": "invalid_client"})
                extra = {"scope": form["scope"]} if "scope" in form else {}
                token = issuer.issue(client_id, **extra)
                return self._answer(
                    200,
                    {
                        "access_token": token,
                        "token_type": "bearer",
                        "expires_in": int(issuer.token_lifetime),
                    },
                )

            def _answer(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


# ---- the Kafka frames the gateway reads and writes -------------------------------------------


def _uvarint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _put_uvarint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _skip_tags(data: bytes, pos: int) -> int:
    count, pos = _uvarint(data, pos)
    for _ in range(count):
        _, pos = _uvarint(data, pos)
        size, pos = _uvarint(data, pos)
        pos += size
    return pos


def _body_offset(frame: bytes, flexible: bool) -> int:
    """Where the request body starts: after api key, version, correlation id, client id (and
    the tagged fields of header v2)."""
    (client_id_len,) = struct.unpack_from(">h", frame, 8)
    pos = 10 + max(client_id_len, 0)
    return _skip_tags(frame, pos) if flexible else pos


def _string(value: str | None) -> bytes:
    if value is None:
        return struct.pack(">h", -1)
    raw = value.encode()
    return struct.pack(">h", len(raw)) + raw


def _frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def _patch_api_versions(answer: bytes, version: int, legacy: bool) -> bytes:
    """Tansu's ApiVersions answer with SaslHandshake 0-1 and SaslAuthenticate 0-2 listed (a
    ``legacy`` broker, before Kafka 1.0: SaslHandshake 0 alone, tokens in bare frames)."""
    flexible = version >= 3
    pos = 4 + 2  # correlation id (header v0 always), error code
    if flexible:
        count, pos = _uvarint(answer, pos)
        count -= 1
    else:
        (count,) = struct.unpack_from(">i", answer, pos)
        pos += 4
    entries: dict[int, bytes] = {}
    for _ in range(count):
        key, low, high = struct.unpack_from(">hhh", answer, pos)
        end = _skip_tags(answer, pos + 6) if flexible else pos + 6
        entries[key] = answer[pos + 6 : end]
        entries[key] = struct.pack(">hhh", key, low, high) + entries[key]
        pos = end
    tags = b"\0" if flexible else b""
    entries[SASL_HANDSHAKE] = struct.pack(">hhh", SASL_HANDSHAKE, 0, 0 if legacy else 1) + tags
    entries[SASL_AUTHENTICATE] = struct.pack(">hhh", SASL_AUTHENTICATE, 0, 2) + tags
    if legacy:
        del entries[SASL_AUTHENTICATE]
    listed = b"".join(entries[k] for k in sorted(entries))
    size = _put_uvarint(len(entries) + 1) if flexible else struct.pack(">i", len(entries))
    return answer[:6] + size + listed + answer[pos:]


class _Refused(Exception):
    """Authentication failed: answer with this message, then close."""


class _Connection:
    """One client connection's SASL state (see the module comment)."""

    def __init__(self, gateway: SaslGateway) -> None:
        self.gateway = gateway
        self.mechanism: str | None = None
        self.handshake_version = 1
        self.scram = None
        self.scram_first = True
        self.scram_user = ""
        self.principal: str | None = None
        self.authenticated = False
        self.expires_at: float | None = None
        self.oauth_refused = False

    def handshake(self, mechanism: str) -> int:
        if mechanism not in self.gateway.mechanisms:
            return UNSUPPORTED_SASL_MECHANISM
        self.mechanism = mechanism
        if mechanism.startswith("SCRAM-"):
            scram = scramp.ScramMechanism(mechanism)
            users = {u: scram.make_auth_info(p) for u, p in self.gateway.users.items()}

            def lookup(user: str):
                self.scram_user = user
                return users[user]  # KeyError: an unknown user

            self.scram = scram.make_server(lookup)
            self.scram_first = True
        return 0

    def step(self, token: bytes) -> tuple[bytes, bool]:
        """The server's answer to ``token``, and whether authentication is complete."""
        if self.mechanism == "PLAIN":
            _, user, password = [*token.decode().split("\0"), "", ""][:3]
            if self.gateway.users.get(user) != password or not password:
                raise _Refused("Authentication failed: Invalid username or password")
            return self._done(user), True
        if self.mechanism == "OAUTHBEARER":
            return self._oauth(token)
        scram = self.scram
        try:
            if self.scram_first:
                self.scram_first = False
                scram.set_client_first(token.decode())
                return scram.get_server_first().encode(), False
            scram.set_client_final(token.decode())
        except (scramp.ScramException, KeyError) as exc:
            raise _Refused(f"Authentication failed during authentication: {exc!r}") from None
        return self._done(self.scram_user, scram.get_server_final().encode()), True

    def _oauth(self, token: bytes) -> tuple[bytes, bool]:
        if token == b"\x01" and self.oauth_refused:
            raise _Refused("Authentication failed: invalid token")
        text = token.decode("utf-8", "replace")
        parts = text.split("\x01")
        pairs = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
        bearer = pairs.pop("auth", "")
        try:
            if not text.startswith("n,,") or not bearer.startswith("Bearer "):
                raise jwt.InvalidTokenError("no bearer token")
            subject = self.gateway.issuer.verify(bearer[7:])["sub"]
            for key, value in self.gateway.required_extensions.items():
                if pairs.get(key) != value:
                    raise jwt.InvalidTokenError(f"extension {key} missing or wrong")
        except jwt.InvalidTokenError as exc:
            self.oauth_refused = True
            return json.dumps({"status": "invalid_token", "detail": str(exc)}).encode(), False
        self.gateway.last_extensions = pairs
        return self._done(subject), True

    def _done(self, principal: str, answer: bytes = b"") -> bytes:
        if self.authenticated:
            if principal != self.principal:
                raise _Refused("re-authentication as another principal")
            self.gateway.reauthentications += 1
        self.authenticated = True
        self.principal = principal
        self.gateway.principals.append(principal)
        self.gateway.authentications[self.mechanism] += 1
        lifetime = self.gateway.session_lifetime_ms
        self.expires_at = None if lifetime is None else time.monotonic() + lifetime / 1000
        return answer

    def expired(self) -> bool:
        return self.expires_at is not None and time.monotonic() > self.expires_at


class SaslGateway:
    """127.0.0.1:port (SASL, with TLS when given a context) -> Tansu at 127.0.0.1:target_port."""

    def __init__(
        self,
        target_port: int,
        *,
        ssl_context: ssl.SSLContext | None = None,
        users: dict[str, str] | None = None,
        issuer: OAuthIssuer | None = None,
        session_lifetime_ms: int | None = None,
        required_extensions: dict[str, str] | None = None,
        port: int | None = None,
    ) -> None:
        self.target_port = target_port
        self.ssl_context = ssl_context
        self.users = users or USERS
        self.issuer = issuer
        self.session_lifetime_ms = session_lifetime_ms
        self.required_extensions = required_extensions or {}
        self.port = port or free_port()
        self.mechanisms = list(MECHANISMS)  # enabled; tests may narrow it
        self.legacy = False  # True: act as a broker before 1.0 (see _patch_api_versions)
        self.attempts = 0  # connections accepted, before TLS: what a client's tries cost
        self.tls_failures = 0
        self.connections = 0  # connections past TLS
        self.authentications: collections.Counter = collections.Counter()
        self.failures: collections.Counter = collections.Counter()
        self.reauthentications = 0
        self.expired_closes = 0
        self.principals: list[str] = []
        self.last_extensions: dict[str, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> SaslGateway:
        ready = threading.Event()

        def serve() -> None:
            self._loop = asyncio.new_event_loop()
            self._server = self._loop.run_until_complete(
                asyncio.start_server(self._accept, "127.0.0.1", self.port)
            )
            ready.set()
            self._loop.run_forever()
            for task in asyncio.all_tasks(self._loop):  # the connections still open
                task.cancel()
            self._loop.run_until_complete(asyncio.sleep(0.05))
            self._loop.close()

        self._thread = threading.Thread(target=serve, daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is not None and self._server is not None:
            self._loop.call_soon_threadsafe(self._server.close)
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(10)

    def drop_connections(self) -> None:
        """Close every client connection now (clients must connect and authenticate again)."""
        assert self._loop is not None

        def drop() -> None:
            for writer in list(self._writers):
                writer.transport.abort()

        self._loop.call_soon_threadsafe(drop)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Every TCP connection is counted; TLS, when configured, is started here (not by the
        server) so that a handshake the client gives up on counts too."""
        self.attempts += 1
        if self.ssl_context is not None:
            try:
                await writer.start_tls(self.ssl_context)
            except (OSError, ssl.SSLError, ConnectionError):
                self.tls_failures += 1
                writer.transport.abort()
                return
        self._writers.add(writer)
        try:
            await self._serve(reader, writer)
        finally:
            self._writers.discard(writer)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        conn = _Connection(self)
        api_versions: dict[int, int] = {}  # correlation id -> version, answers to patch
        relay = asyncio.ensure_future(self._relay(up_reader, writer, api_versions))
        try:
            await self._requests(conn, reader, writer, up_writer, api_versions)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError, struct.error):
            pass
        finally:
            relay.cancel()
            for w in (writer, up_writer):
                with contextlib.suppress(Exception):
                    w.close()

    async def _relay(self, up_reader, writer, api_versions: dict[int, int]) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while True:
                (size,) = struct.unpack(">i", await up_reader.readexactly(4))
                answer = await up_reader.readexactly(size)
                (correlation_id,) = struct.unpack_from(">i", answer)
                version = api_versions.pop(correlation_id, None)
                if version is not None:
                    answer = _patch_api_versions(answer, version, self.legacy)
                writer.write(_frame(answer))

    async def _requests(self, conn: _Connection, reader, writer, up_writer, api_versions) -> None:
        raw = False  # after SaslHandshake v0: bare tokens
        while True:
            (size,) = struct.unpack(">i", await reader.readexactly(4))
            frame = await reader.readexactly(size)
            if raw:
                try:
                    answer, done = conn.step(frame)
                except _Refused:
                    self.failures[conn.mechanism] += 1
                    return  # brokers before 1.0 close without a word
                writer.write(_frame(answer))
                raw = not done
                continue
            api_key, version, correlation_id = struct.unpack_from(">hhi", frame)
            if api_key == API_VERSIONS:
                api_versions[correlation_id] = version
                up_writer.write(_frame(frame))
                continue
            if api_key == SASL_HANDSHAKE:
                body = _body_offset(frame, flexible=False)
                (length,) = struct.unpack_from(">h", frame, body)
                mechanism = frame[body + 2 : body + 2 + length].decode()
                error = conn.handshake(mechanism)
                conn.handshake_version = version
                enabled = self.mechanisms
                offered = b"".join(_string(m) for m in enabled)
                writer.write(
                    _frame(struct.pack(">ihi", correlation_id, error, len(enabled)) + offered)
                )
                if error:
                    await writer.drain()
                    return  # Kafka closes after refusing a mechanism
                raw = version == 0
                continue
            if api_key == SASL_AUTHENTICATE:
                token = self._auth_bytes(frame, version)
                try:
                    answer, done = conn.step(token)
                except _Refused as refusal:
                    self.failures[conn.mechanism] += 1
                    writer.write(self._sasl_answer(correlation_id, version, str(refusal), b""))
                    await writer.drain()
                    return
                writer.write(self._sasl_answer(correlation_id, version, None, answer, done))
                continue
            if not conn.authenticated:
                return  # Kafka drops a client that sends requests before authenticating
            if conn.expired():
                self.expired_closes += 1
                return
            up_writer.write(_frame(frame))

    @staticmethod
    def _auth_bytes(frame: bytes, version: int) -> bytes:
        body = _body_offset(frame, flexible=version >= 2)
        if version >= 2:
            length, pos = _uvarint(frame, body)
            return frame[pos : pos + length - 1]
        (length,) = struct.unpack_from(">i", frame, body)
        return frame[body + 4 : body + 4 + length]

    def _sasl_answer(
        self, correlation_id: int, version: int, error: str | None, token: bytes, done=False
    ) -> bytes:
        code = SASL_AUTHENTICATION_FAILED if error is not None else 0
        lifetime = self.session_lifetime_ms if done and self.session_lifetime_ms else 0
        if version >= 2:
            message = b"\0" if error is None else _put_uvarint(len(error) + 1) + error.encode()
            body = (
                struct.pack(">ib", correlation_id, 0)
                + struct.pack(">h", code)
                + message
                + _put_uvarint(len(token) + 1)
                + token
                + struct.pack(">q", lifetime)
                + b"\0"
            )
        else:
            body = (
                struct.pack(">ih", correlation_id, code)
                + _string(error)
                + struct.pack(">i", len(token))
                + token
                + (struct.pack(">q", lifetime) if version >= 1 else b"")
            )
        return _frame(body)


@contextlib.contextmanager
def sasl_bed(
    *,
    tls_context: ssl.SSLContext | None = None,
    session_lifetime_ms: int | None = None,
    issuer: OAuthIssuer | None = None,
    required_extensions: dict[str, str] | None = None,
) -> Iterator[SaslGateway]:
    """A Tansu advertising a SASL gateway in front of it; the gateway."""
    tansu_port, gateway_port = free_port(), free_port()
    process = launch_tansu(tansu_port, f"127.0.0.1:{gateway_port}")
    gateway = SaslGateway(
        tansu_port,
        ssl_context=tls_context,
        issuer=issuer,
        session_lifetime_ms=session_lifetime_ms,
        required_extensions=required_extensions,
        port=gateway_port,
    ).start()
    try:
        yield gateway
    finally:
        gateway.stop()
        process.terminate()
        process.wait(10)
