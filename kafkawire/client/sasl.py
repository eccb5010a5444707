"""SASL: the mechanisms as sans-IO exchanges of messages, and where OAUTHBEARER tokens come from.

A mechanism is created per authentication (``SaslAuthenticator.mechanism``): ``start`` is the
client's first message, ``step`` takes each server message and returns the next client message,
or None once the server's last one is accepted. The session (``session.py``) carries these
messages in SaslHandshake/SaslAuthenticate requests (or raw frames for brokers before 1.0).

PLAIN and OAUTHBEARER are one message each; SCRAM-SHA-256/512 (RFC 5802, RFC 7677) is built on
the standard library's PBKDF2 and HMAC, and checks the server's signature, so a peer that does
not know the password cannot pass for the broker. OAUTHBEARER (RFC 7628) sends a token from the
user's callable (``oauth_cb``) or from an OIDC token endpoint with the client-credentials grant
(KIP-768); tokens are fetched again once 80% of their lifetime has passed. Fetching a token is
the only IO here: the transports call ``SaslAuthenticator.refresh`` before they need one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import inspect
import json
import re
import secrets
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .config.client import ClientConfig
from .config.values import Secret
from .errors import AuthenticationError, ConfigError

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
# a token is fetched again when this share of its lifetime has passed (Java's default)
_TOKEN_REFRESH_FACTOR = 0.8
# bounds on a SCRAM server's iteration count: below RFC 7677's floor is a downgrade, far above
# Kafka's 16384 ceiling a way to burn the client's CPU
_SCRAM_ITERATIONS = range(4096, 1_000_000 + 1)


class Mechanism:
    """One authentication's exchange (see the module comment)."""

    name: str

    def start(self) -> bytes:
        raise NotImplementedError

    def step(self, challenge: bytes) -> bytes | None:
        raise NotImplementedError

    def failure_detail(self) -> str | None:
        """What the server said about a failure within the exchange, if anything."""
        return None


class Plain(Mechanism):
    name = "PLAIN"

    def __init__(self, username: str, password: str) -> None:
        self._message = b"\0" + username.encode() + b"\0" + password.encode()

    def start(self) -> bytes:
        return self._message

    def step(self, challenge: bytes) -> bytes | None:
        return None  # the broker answers once: an error, or success


class Scram(Mechanism):
    def __init__(self, name: str, username: str, password: str) -> None:
        self.name = name
        self._hash = "sha256" if name == "SCRAM-SHA-256" else "sha512"
        self._password = password.encode()  # Kafka's SCRAM takes the UTF-8 bytes as they are
        self._nonce = base64.b64encode(secrets.token_bytes(24)).decode()
        user = username.replace("=", "=3D").replace(",", "=2C")
        self._first_bare = f"n={user},r={self._nonce}"
        self._server_signature: bytes | None = None

    def start(self) -> bytes:
        return ("n,," + self._first_bare).encode()

    def step(self, challenge: bytes) -> bytes | None:
        message = challenge.decode("utf-8", "replace")
        attributes = _scram_attributes(message)
        if "e" in attributes:
            raise AuthenticationError(f"{self.name}: the broker refused: {attributes['e']}")
        if self._server_signature is None:
            return self._client_final(message, attributes)
        if not hmac.compare_digest(_b64(attributes.get("v", "")), self._server_signature):
            raise AuthenticationError(
                f"{self.name}: the broker's signature is wrong: it does not know the password"
                " (is something between the client and the broker?)"
            )
        return None

    def _client_final(self, server_first: str, attributes: dict[str, str]) -> bytes:
        nonce, salt = attributes.get("r", ""), _b64(attributes.get("s", ""))
        if not nonce.startswith(self._nonce) or len(nonce) == len(self._nonce) or not salt:
            raise AuthenticationError(f"{self.name}: the broker's first message is malformed")
        count = attributes.get("i", "")
        iterations = int(count) if re.fullmatch(r"[0-9]{1,9}", count) else 0
        if iterations not in _SCRAM_ITERATIONS:
            raise AuthenticationError(
                f"{self.name}: the broker asks for {iterations} iterations, outside "
                f"{_SCRAM_ITERATIONS.start}..{_SCRAM_ITERATIONS.stop - 1}"
            )
        salted = hashlib.pbkdf2_hmac(self._hash, self._password, salt, iterations)
        client_key = self._hmac(salted, b"Client Key")
        without_proof = f"c=biws,r={nonce}"  # biws: base64 of "n,,", no channel binding
        auth_message = f"{self._first_bare},{server_first},{without_proof}".encode()
        signature = self._hmac(hashlib.new(self._hash, client_key).digest(), auth_message)
        proof = bytes(a ^ b for a, b in zip(client_key, signature, strict=True))
        self._server_signature = self._hmac(self._hmac(salted, b"Server Key"), auth_message)
        return f"{without_proof},p={base64.b64encode(proof).decode()}".encode()

    def _hmac(self, key: bytes, message: bytes) -> bytes:
        return hmac.new(key, message, self._hash).digest()


def _scram_attributes(message: str) -> dict[str, str]:
    attributes = {}
    for part in message.split(","):
        name, sep, value = part.partition("=")
        if sep and len(name) == 1:
            attributes.setdefault(name, value)
    return attributes


def _b64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return b""


class OAuthBearer(Mechanism):
    name = "OAUTHBEARER"

    def __init__(self, token: str, extensions: tuple[tuple[str, str], ...]) -> None:
        pairs = [f"auth=Bearer {token}", *(f"{k}={v}" for k, v in extensions)]
        self._message = ("n,,\x01" + "".join(p + "\x01" for p in pairs) + "\x01").encode()
        self._refusal: str | None = None

    def start(self) -> bytes:
        return self._message

    def step(self, challenge: bytes) -> bytes | None:
        if not challenge:
            return None
        # RFC 7628: the server's error comes as a challenge; the client answers with a lone
        # separator and the server then fails the exchange
        self._refusal = challenge.decode("utf-8", "replace")
        return b"\x01"

    def failure_detail(self) -> str | None:
        return self._refusal


@dataclass(frozen=True)
class Token:
    value: Secret
    expires_at: float  # seconds since the epoch
    fetched_at: float

    @property
    def refresh_at(self) -> float:
        return self.fetched_at + (self.expires_at - self.fetched_at) * _TOKEN_REFRESH_FACTOR


class SaslAuthenticator:
    """A client's SASL settings: a new mechanism per authentication, and the current
    OAUTHBEARER token (fetched by ``refresh``, which the transports call when ``stale``)."""

    def __init__(self, config: ClientConfig, *, clock: Callable[[], float] = time.time) -> None:
        name = config.sasl_mechanism
        if name is None:
            raise ConfigError(
                f"security.protocol {config.security_protocol} needs sasl.mechanism (one of "
                f"{', '.join(MECHANISMS)})"
            )
        if name not in MECHANISMS:
            raise ConfigError(f"sasl.mechanism {name!r} is none of {', '.join(MECHANISMS)}")
        self.mechanism_name = name
        self._config = config
        self._clock = clock
        self._token: Token | None = None
        self._fetch: Callable[[], Token] | None = None
        if name == "OAUTHBEARER":
            self._fetch = _token_fetcher(config, clock)
        elif config.sasl_username is None or config.sasl_password is None:
            raise ConfigError(f"sasl.mechanism {name} needs sasl.username and sasl.password")

    @property
    def stale(self) -> bool:
        """Whether a token must be fetched before the next authentication."""
        if self._fetch is None:
            return False
        return self._token is None or self._clock() >= self._token.refresh_at

    def refresh(self) -> None:
        """Fetch a new token (IO: the user's callable, or the token endpoint)."""
        if self._fetch is not None:
            self._token = self._fetch()

    def mechanism(self) -> Mechanism:
        config = self._config
        username, password = config.sasl_username or "", config.sasl_password or ""
        if self.mechanism_name == "PLAIN":
            return Plain(username, password)
        if self.mechanism_name.startswith("SCRAM-"):
            return Scram(self.mechanism_name, username, password)
        if self._token is None:
            raise AuthenticationError("OAUTHBEARER: no token was fetched")
        return OAuthBearer(self._token.value, config.sasl_oauthbearer_extensions)


def sasl_authenticator(config: ClientConfig) -> SaslAuthenticator | None:
    """The authenticator for ``config``, None when its security protocol has no SASL."""
    if not config.uses_sasl:
        if config.sasl_mechanism is not None:
            tls = "SASL_SSL" if config.uses_tls else "SASL_PLAINTEXT"
            raise ConfigError(
                f"sasl.mechanism is set but security.protocol is {config.security_protocol}:"
                f" did you mean {tls}?"
            )
        return None
    return SaslAuthenticator(config)


# ---- OAUTHBEARER tokens ---------------------------------------------------------------------


def _token_fetcher(config: ClientConfig, clock: Callable[[], float]) -> Callable[[], Token]:
    if config.oauth_cb is not None:
        return _callback_fetcher(config.oauth_cb, config.sasl_oauthbearer_config, clock)
    # Java has no method setting: a token endpoint means the client-credentials grant
    if config.sasl_oauthbearer_method == "oidc" or config.sasl_oauthbearer_token_endpoint_url:
        missing = [
            name
            for name, value in (
                ("sasl.oauthbearer.token.endpoint.url", config.sasl_oauthbearer_token_endpoint_url),
                ("sasl.oauthbearer.client.id", config.sasl_oauthbearer_client_id),
                ("sasl.oauthbearer.client.secret", config.sasl_oauthbearer_client_secret),
            )
            if value is None
        ]
        if missing:
            raise ConfigError(f"sasl.oauthbearer.method oidc needs {', '.join(missing)}")
        return lambda: _client_credentials_token(config, clock)
    raise ConfigError(
        "sasl.mechanism OAUTHBEARER needs a token: sasl.oauthbearer.method=oidc with "
        "sasl.oauthbearer.token.endpoint.url, client.id and client.secret, or oauth_cb= (a "
        "callable returning (token, expiry in seconds since the epoch))"
    )


def _callback_fetcher(
    callback: Callable[..., Any], oauth_config: str | None, clock: Callable[[], float]
) -> Callable[[], Token]:
    # confluent-kafka's oauth_cb takes sasl.oauthbearer.config; a callable without parameters
    # is taken too
    try:
        takes_config = bool(inspect.signature(callback).parameters)
    except (TypeError, ValueError):  # a builtin without a signature
        takes_config = True

    def fetch() -> Token:
        now = clock()
        try:
            result = callback(oauth_config) if takes_config else callback()
        except Exception as exc:
            raise AuthenticationError(
                f"OAUTHBEARER: oauth_cb failed: {type(exc).__name__}: {exc}"
            ) from exc
        if isinstance(result, str):
            token, expires_at = result, _jwt_expiry(result)
        elif isinstance(result, tuple) and len(result) >= 2:
            token, expires_at = result[0], result[1]
        else:
            raise AuthenticationError(
                "OAUTHBEARER: oauth_cb must return (token, expiry in seconds since the epoch) "
                f"or a token string, not a {type(result).__name__}"
            )
        if not isinstance(token, str) or not token:
            raise AuthenticationError("OAUTHBEARER: oauth_cb returned no token")
        if expires_at is None:
            expires_at = now + 3600.0  # an opaque token: ask again within the hour
        try:
            expires_at = float(expires_at)
        except (TypeError, ValueError):
            raise AuthenticationError(
                "OAUTHBEARER: oauth_cb returned an expiry that is not a number of seconds"
            ) from None
        if expires_at <= now:
            raise AuthenticationError("OAUTHBEARER: oauth_cb returned a token that has expired")
        return Token(Secret(token), expires_at, now)

    return fetch


def _jwt_expiry(token: str) -> float | None:
    """The ``exp`` claim of a JWT (unverified: only to know when to fetch again)."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
        return float(payload["exp"])
    except (ValueError, KeyError, TypeError):
        return None


def _client_credentials_token(config: ClientConfig, clock: Callable[[], float]) -> Token:
    """A token from the OIDC endpoint (client-credentials grant, client authenticated with
    HTTP Basic as RFC 6749 and Kafka's Java client do)."""
    url = config.sasl_oauthbearer_token_endpoint_url
    assert url is not None
    form = {"grant_type": "client_credentials"}
    if config.sasl_oauthbearer_scope:
        form["scope"] = config.sasl_oauthbearer_scope
    credentials = f"{config.sasl_oauthbearer_client_id}:{config.sasl_oauthbearer_client_secret}"
    request = urllib.request.Request(
        url,
        data=urllib.parse.urlencode(form).encode(),
        headers={
            "Authorization": "Basic " + base64.b64encode(credentials.encode()).decode(),
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        },
        method="POST",
    )
    now = clock()
    try:
        context = None
        if config.https_ca_location or config.https_ca_pem:  # the token endpoint's CA
            context = ssl.create_default_context(
                cafile=config.https_ca_location, cadata=config.https_ca_pem
            )
        with urllib.request.urlopen(
            request, timeout=config.connect_timeout, context=context
        ) as answer:
            body = answer.read(1 << 20)
    except urllib.error.HTTPError as exc:
        detail = _oauth_error(exc.read(1 << 16))
        raise AuthenticationError(
            f"OAUTHBEARER: the token endpoint {url} answered HTTP {exc.code}{detail}"
        ) from None
    except (OSError, ValueError) as exc:  # URLError, a timeout, a malformed URL
        reason = getattr(exc, "reason", None) or exc
        raise AuthenticationError(
            f"OAUTHBEARER: the token endpoint {url} cannot be reached: {reason}"
        ) from None
    try:
        answer_json = json.loads(body)
        token = answer_json["access_token"]
        lifetime = float(answer_json.get("expires_in") or 0)
    except (ValueError, KeyError, TypeError):
        raise AuthenticationError(
            f"OAUTHBEARER: the token endpoint {url} answered without an access_token"
        ) from None
    expires_at = now + lifetime if lifetime > 0 else _jwt_expiry(token) or now + 3600.0
    return Token(Secret(token), expires_at, now)


def _oauth_error(body: bytes) -> str:
    """RFC 6749's error field of an endpoint's refusal (never the body: it may echo secrets)."""
    try:
        error = json.loads(body).get("error")
    except (ValueError, AttributeError):
        return ""
    return f" ({error})" if isinstance(error, str) and re.fullmatch(r"[\w.-]{1,64}", error) else ""
