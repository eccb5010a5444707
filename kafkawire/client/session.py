"""One broker connection as a sans-IO state machine: bytes in, completed requests out.

A session starts in the handshake: its first bytes to send are an ApiVersionsRequest at the
newest version kafkawire speaks (asked again at an older one after the broker's downgrade
answer, KIP-511). Requests handed to ``send`` before the handshake ends wait; after it they are
encoded at once at the version both sides speak, so several can be in flight on one connection
(pipelining); answers are matched to them by correlation id. The transport that owns the socket
calls ``buffers_to_send`` / ``get_buffer`` / ``buffer_updated`` / ``connection_lost``; each call
that can finish requests returns them as ``(token, response, error)`` triples, where ``token``
is whatever the transport handed to ``send`` (an index, a future).

With SASL (``sasl.py``), the handshake goes on with SaslHandshake and SaslAuthenticate (or raw
token frames for brokers before 1.0) before requests are released. A broker that gives the
session a lifetime (KIP-368) is authenticated again on the open connection when 85-95% of it
has passed: requests handed over meanwhile wait, answers to those already sent keep coming.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kafkawire import __version__
from kafkawire.errors import CorruptError, DecodeError
from kafkawire.protocol import messages as m
from kafkawire.protocol._codec import decode_response, encode_request
from kafkawire.protocol._generated_messages import ApiKey
from kafkawire.protocol.error_codes import BrokerError, ErrorCode, raise_for_code
from kafkawire.protocol.framing import FrameReader
from kafkawire.protocol.versions import (
    choose_version,
    decode_api_versions_response,
    negotiate,
    retry_version,
)

from .errors import AuthenticationError, BrokerConnectionError, NotKafkaError
from .randomness import RANDOM
from .sasl import Mechanism, SaslAuthenticator

# The oldest version of each API the client can use: record batches (magic 2) need Produce 3
# and Fetch 4; ListOffsets 1 answers one offset per partition.
OLDEST_VERSIONS = {
    ApiKey.PRODUCE: 3,
    ApiKey.FETCH: 4,
    ApiKey.LIST_OFFSETS: 1,
    ApiKey.METADATA: 1,
}
# An ApiVersions answer is a few hundred bytes: a first frame larger than this comes from a
# peer that is not a Kafka broker, whatever the frame size limit is.
_MAX_HANDSHAKE_FRAME = 1 << 20
_API_VERSIONS_NEWEST = m.ApiVersionsRequest.valid_versions.stop - 1

Completion = tuple[Any, Any, BaseException | None]  # (token, response, error)


class SessionState(enum.Enum):
    HANDSHAKE = "handshake"  # ApiVersions
    AUTHENTICATING = "authenticating"  # SASL, first or again (KIP-368)
    READY = "ready"
    CLOSED = "closed"


@dataclass(slots=True)
class _InFlight:
    token: Any
    api_key: int
    version: int


def describe_peer(head: bytes) -> str | None:
    """What a peer that answered with ``head`` (its first bytes) looks like, if not Kafka."""
    if head.startswith(b"HTTP/") or head[:4] in (b"HTTP", b"<!DO", b"<htm"):
        return "an HTTP server"
    if len(head) >= 2 and head[0] in (0x14, 0x15, 0x16, 0x17) and head[1] == 0x03:
        return "a TLS server (use security.protocol SSL)"
    if head.startswith(b"SSH-"):
        return "an SSH server"
    return None


class BrokerSession:
    """The protocol state of one connection to one broker (no IO: see the module comment)."""

    def __init__(
        self,
        address: str,
        *,
        client_id: str | None,
        max_frame_size: int,
        sasl: SaslAuthenticator | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = address
        self.client_id = client_id
        self.state = SessionState.HANDSHAKE
        self.versions: dict[int, int] = {}  # api key -> negotiated version, once READY
        self._reader = FrameReader(max_frame_size=max_frame_size)
        self._outgoing: list[bytes] = []  # encoded frames, large records not copied in
        self._next_correlation_id = 0
        self._in_flight: dict[int, _InFlight] = {}
        self._waiting: list[tuple[Any, Any, int | None]] = []  # until the handshake ends
        self._unanswered: set[int] = set()  # acks=0 produces (some brokers answer them)
        self._received_any = False
        self._handshake_version = _API_VERSIONS_NEWEST
        self.failure: BaseException | None = None  # why the session closed
        self._sasl = sasl
        self._clock = clock
        self._mechanism: Mechanism | None = None  # the authentication under way
        self._raw_sasl = False  # SaslHandshake v0: tokens go in bare frames
        self._reauthenticate_at: float | None = None
        self.authentications = 0
        self._answered_any = False  # an answer to a caller's request came
        self._send_api_versions()

    # ---- what the caller asks -------------------------------------------------------------

    def send(self, request, token: Any, *, newest: int | None = None) -> list[Completion]:
        """Queue ``request``; its answer comes back with ``token``. Returns what completes
        at once: a Produce with acks=0 (no answer: None), or a version the broker lacks."""
        if self.state is SessionState.CLOSED:
            return [(token, None, self.failure)]
        if self.state is SessionState.READY and self.reauthentication_due:
            done = self._authenticate()
            if done:
                return [*done, (token, None, self.failure)]
        if self.state is not SessionState.READY:
            self._waiting.append((request, token, newest))
            return []
        return self._encode(request, token, newest)

    @property
    def reauthentication_due(self) -> bool:
        """Whether the broker's session lifetime is nearly over: the next request first
        authenticates again (the transport fetches a fresh token before, if one is needed)."""
        return self._reauthenticate_at is not None and self._clock() >= self._reauthenticate_at

    @property
    def in_flight(self) -> int:
        """Requests sent or waiting whose answers have not come yet."""
        sent = sum(1 for p in self._in_flight.values() if p.token is not None)
        return sent + len(self._waiting)

    # ---- the transport's side -------------------------------------------------------------

    def buffers_to_send(self) -> list[bytes]:
        """What to write to the socket now, in order (and forget): the frames, each in one
        or more pieces (a produce's large records are their own pieces, never copied)."""
        buffers, self._outgoing = self._outgoing, []
        return buffers

    @property
    def has_data_to_send(self) -> bool:
        return bool(self._outgoing)

    def get_buffer(self, sizehint: int = -1) -> memoryview:
        """Where the next received bytes go (``socket.recv_into``, asyncio.BufferedProtocol)."""
        return self._reader.get_buffer(sizehint)

    def buffer_updated(self, nbytes: int) -> list[Completion]:
        """``nbytes`` arrived in the last ``get_buffer``: the requests they complete."""
        self._reader.buffer_updated(nbytes)
        return self._frames()

    def receive_data(self, data: bytes) -> list[Completion]:
        """Bytes received (for transports that hand over bytes objects)."""
        self._reader.feed(data)
        return self._frames()

    def connection_lost(self, reason: str | None = None) -> list[Completion]:
        """The connection is gone (``reason``: how, e.g. a socket error): every pending
        request fails with a BrokerConnectionError that says how much of an answer had come."""
        if reason is None:
            partial = self._reader.buffered
            reason = "closed the connection"
            if partial:
                reason += f" ({partial} bytes of an unfinished frame received)"
        message = f"{self.address} {reason}"
        if self.state is SessionState.HANDSHAKE and not self._received_any:
            # what a TLS or SASL listener does with a plaintext ApiVersions request
            message += (
                " during the handshake, before any answer: is it a Kafka listener that expects"
                " TLS or SASL? (check security.protocol)"
            )
        elif self.state is SessionState.AUTHENTICATING:
            assert self._mechanism is not None
            message += (
                f" during {self._mechanism.name} authentication (brokers before 1.0 close"
                " without a word on wrong credentials)"
            )
        elif self._sasl is None and not self._answered_any and self.state is SessionState.READY:
            # a SASL listener answers ApiVersions, then drops a client that does not log in
            message += (
                " after the ApiVersions handshake, before any other answer: does the listener"
                " expect SASL? (check security.protocol)"
            )
        return self._fail_all(BrokerConnectionError(message))

    def close(self, reason: str = "closed by the client") -> list[Completion]:
        """The caller closes the connection: pending requests fail."""
        return self._fail_all(BrokerConnectionError(f"connection to {self.address} {reason}"))

    @property
    def closed(self) -> bool:
        return self.state is SessionState.CLOSED

    # ---- internals ---------------------------------------------------------------------------

    def _fail_all(self, error: BaseException) -> list[Completion]:
        if self.state is not SessionState.CLOSED:
            self.failure = error  # what later sends on this session are told
        self.state = SessionState.CLOSED
        failed = [(p.token, None, error) for p in self._in_flight.values() if p.token is not None]
        failed += [(token, None, error) for _, token, _ in self._waiting]
        self._in_flight.clear()
        self._waiting.clear()
        self._outgoing.clear()
        return failed

    def _next_id(self) -> int:
        correlation_id = self._next_correlation_id
        self._next_correlation_id = (correlation_id + 1) & 0x7FFFFFFF
        return correlation_id

    def _send_api_versions(self) -> None:
        request = m.ApiVersionsRequest(
            client_software_name="kafkawire", client_software_version=__version__
        )
        correlation_id = self._write(request, self._handshake_version)
        self._in_flight[correlation_id] = _InFlight(
            None, ApiKey.API_VERSIONS, self._handshake_version
        )

    def _write(self, request, version: int) -> int:
        correlation_id = self._next_id()
        self._outgoing += encode_request(
            request,
            version=version,
            correlation_id=correlation_id,
            client_id=self.client_id,
            drop_unsupported=True,
            parts=True,
        )
        return correlation_id

    def _encode(self, request, token, newest: int | None) -> list[Completion]:
        api_key = request.api_key
        try:
            version = choose_version(
                self.versions, api_key, oldest=OLDEST_VERSIONS.get(api_key, 0), newest=newest
            )
            correlation_id = self._write(request, version)
        except (BrokerError, DecodeError, ValueError) as exc:  # version, or a bad field
            return [(token, None, exc)]
        if api_key == ApiKey.PRODUCE and request.acks == 0:
            self._unanswered.add(correlation_id)
            return [(token, None, None)]  # the broker sends nothing back
        self._in_flight[correlation_id] = _InFlight(token, api_key, version)
        return []

    def _frames(self) -> list[Completion]:
        done: list[Completion] = []
        if self.state is SessionState.CLOSED:
            return done
        try:
            self._check_first_bytes()
            while (frame := self._reader.next_frame()) is not None:
                self._received_any = True
                done += self._raw_sasl_answer(frame) if self._raw_sasl else self._answer(frame)
        except DecodeError as exc:  # the byte stream itself is broken: so is the connection
            done += self._fail_all(exc)
        except NotKafkaError as exc:
            done += self._fail_all(exc)
        return done

    def _check_first_bytes(self) -> None:
        if self._received_any or self._reader.buffered < 4:
            return
        head = self._reader.peek(8)
        what = describe_peer(head)
        size = int.from_bytes(head[:4], "big", signed=True)
        if what is None and 0 <= size <= _MAX_HANDSHAKE_FRAME:
            return
        what = what or f"no Kafka broker (its first bytes: {head.hex(' ')})"
        raise NotKafkaError(f"{self.address} answered like {what}")

    def _answer(self, frame: bytes) -> list[Completion]:
        if len(frame) < 4:
            raise CorruptError(
                f"{self.address} sent a {len(frame)}-byte frame", field="ResponseHeader"
            )
        correlation_id = int.from_bytes(frame[:4], "big", signed=True)
        pending = self._in_flight.pop(correlation_id, None)
        if pending is None:
            if correlation_id in self._unanswered:
                # some brokers (Tansu 0.x) do answer acks=0 produces: skip those answers
                self._unanswered.discard(correlation_id)
                return []
            raise CorruptError(
                f"{self.address} answered correlation id {correlation_id}, "
                "which no request in flight has",
                offset=0,
                field="ResponseHeader.correlation_id",
            )
        # answers come in order: acks=0 ids older than this one will get none
        if self._unanswered:
            self._unanswered = {i for i in self._unanswered if i > correlation_id}
        if pending.token is None:  # the session's own requests
            if pending.api_key == ApiKey.API_VERSIONS:
                return self._handshake_answer(frame, pending.version)
            _, response = decode_response(
                frame, api_key=pending.api_key, api_version=pending.version
            )
            try:
                if pending.api_key == ApiKey.SASL_HANDSHAKE:
                    self._sasl_handshake_answer(response, pending.version)
                    return []
                return self._sasl_answer(response, pending.version)
            except (AuthenticationError, BrokerConnectionError) as exc:
                return self._fail_all(exc)
        try:
            # lenient: as Java's client and librdkafka read an answer (librdkafka's mock repeats
            # the empty tag section of some flexible answers, and answers a failed SyncGroup
            # with a null assignment, which the schema does not allow)
            _, response = decode_response(
                frame, api_key=pending.api_key, api_version=pending.version, lenient=True
            )
        except DecodeError as exc:  # one bad answer: the frames around it are intact
            # handed on without its traceback: those frames (up to the transport's read)
            # would keep asyncio's view of the receive buffer alive, and the buffer could not
            # grow for the next answer (BufferError)
            return [(pending.token, None, exc.with_traceback(None))]
        self._answered_any = True
        return [(pending.token, response, None)]

    def _handshake_answer(self, frame: bytes, version: int) -> list[Completion]:
        _, response, _ = decode_api_versions_response(frame, version)
        if response.error_code == ErrorCode.UNSUPPORTED_VERSION:
            # the downgrade answer: ask again at a version both speak
            if version == 0:
                raise NotKafkaError(f"{self.address} refused every ApiVersions version")
            self._handshake_version = retry_version(response, version)
            self._send_api_versions()
            return []
        try:
            raise_for_code(response.error_code, f"ApiVersions from {self.address}")
        except BrokerError as exc:
            return self._fail_all(exc)
        self.versions = negotiate(response)
        if self._sasl is not None:
            return self._authenticate()
        return self._ready()

    def _ready(self) -> list[Completion]:
        """The handshake or an authentication ended: the waiting requests go out."""
        self.state = SessionState.READY
        done: list[Completion] = []
        waiting, self._waiting = self._waiting, []
        for request, token, newest in waiting:
            done += self._encode(request, token, newest)
        return done

    # ---- SASL ------------------------------------------------------------------------------

    def _authenticate(self) -> list[Completion]:
        """Start an authentication (the first, or again on this connection)."""
        assert self._sasl is not None
        self.state = SessionState.AUTHENTICATING
        self._reauthenticate_at = None
        if ApiKey.SASL_HANDSHAKE not in self.versions:
            return self._fail_all(
                AuthenticationError(
                    f"{self.address} does not speak SASL (no SaslHandshake among its APIs): is"
                    " it a PLAINTEXT or SSL listener? (check security.protocol)"
                )
            )
        try:
            self._mechanism = self._sasl.mechanism()
        except AuthenticationError as exc:
            return self._fail_all(exc)
        # without SaslAuthenticate (brokers before 1.0) tokens follow SaslHandshake v0 bare
        version = 1 if ApiKey.SASL_AUTHENTICATE in self.versions else 0
        request = m.SaslHandshakeRequest(mechanism=self._mechanism.name)
        correlation_id = self._write(request, version)
        self._in_flight[correlation_id] = _InFlight(None, ApiKey.SASL_HANDSHAKE, version)
        return []

    def _sasl_handshake_answer(self, response, version: int) -> None:
        assert self._mechanism is not None
        name = self._mechanism.name
        if response.error_code:
            offered = response.mechanisms or []
            if response.error_code == 33 and name not in offered:  # UNSUPPORTED_SASL_MECHANISM
                raise AuthenticationError(
                    f"{self.address} does not enable SASL mechanism {name}: it offers "
                    f"{', '.join(offered) or 'none'}"
                )
            raise AuthenticationError(
                f"{self.address} refused the SASL handshake for {name} (error code "
                f"{response.error_code}): is SASL set up on this listener? (check "
                "security.protocol)"
            )
        if version == 0:
            self._raw_sasl = True
            self._write_raw(self._mechanism.start())
        else:
            self._send_sasl(self._mechanism.start())

    def _send_sasl(self, message: bytes) -> None:
        version = choose_version(self.versions, ApiKey.SASL_AUTHENTICATE)
        correlation_id = self._write(m.SaslAuthenticateRequest(auth_bytes=message), version)
        self._in_flight[correlation_id] = _InFlight(None, ApiKey.SASL_AUTHENTICATE, version)

    def _write_raw(self, message: bytes) -> None:
        self._outgoing.append(len(message).to_bytes(4, "big") + bytes(message))

    def _sasl_answer(self, response, version: int) -> list[Completion]:
        assert self._mechanism is not None
        if response.error_code:
            detail = self._mechanism.failure_detail()
            reason = response.error_message or f"error code {response.error_code}"
            raise AuthenticationError(
                f"{self._mechanism.name} authentication with {self.address} failed: {reason}"
                + (f" ({detail})" if detail else "")
            )
        reply = self._mechanism.step(response.auth_bytes or b"")
        if reply is not None:
            self._send_sasl(reply)
            return []
        lifetime_ms = response.session_lifetime_ms if version >= 1 else 0
        if lifetime_ms > 0:
            # Kafka's clients start at a random point of the last 15%: connections made at
            # once do not all authenticate again at once
            share = RANDOM.uniform(0.85, 0.95)
            self._reauthenticate_at = self._clock() + lifetime_ms / 1000 * share
        return self._authenticated()

    def _raw_sasl_answer(self, frame: bytes) -> list[Completion]:
        assert self._mechanism is not None
        try:
            reply = self._mechanism.step(frame)
        except AuthenticationError as exc:
            return self._fail_all(exc)
        if reply is not None:
            self._write_raw(reply)
            return []
        self._raw_sasl = False
        return self._authenticated()

    def _authenticated(self) -> list[Completion]:
        self._mechanism = None
        self.authentications += 1
        return self._ready()
