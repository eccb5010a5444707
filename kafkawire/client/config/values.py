"""The client settings' values: each property's converter from what users write (text, as
properties files and librdkafka take it, or a Python value) to its field's type, refusing what
the client cannot use with why; ``Secret``, the type of the fields that hold secrets."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ConfigError


class Secret(str):
    """A password, key or token: the value, which never shows in a repr."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Secret('***')"


# the fields that hold secrets: a Secret however they are set (a property, a keyword,
# sasl.jaas.config)
_SECRET_FIELDS = {
    "ssl_key_pem",
    "ssl_key_password",
    "ssl_keystore_password",
    "ssl_truststore_password",
    "sasl_password",
    "sasl_oauthbearer_client_secret",
}

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


def _integer(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        # int()'s own message quotes the value, and a mistaken value may be a secret
        raise ValueError(f"expects a whole number, not that {type(value).__name__}") from None


def _seconds_from_ms(value: Any) -> float:
    return _integer(value) / 1000


def _servers(value: Any) -> tuple[tuple[str, int], ...]:
    return parse_servers(value)


def _protocol(value: Any) -> str:
    protocol = str(value).upper()
    if protocol not in SECURITY_PROTOCOLS:
        raise ValueError(f"{value!r} is none of {', '.join(SECURITY_PROTOCOLS)}")
    return protocol


def _hostname_check(value: Any) -> bool:
    algorithm = str(value).lower()
    if algorithm not in ("https", "none", ""):
        raise ValueError(f"{value!r} is neither 'https' nor 'none'")
    return algorithm == "https"


def _no_jks(value: Any) -> str:
    if str(value).upper() == "JKS":
        raise ValueError(
            "JKS keystores cannot be read outside the JVM: convert it with `keytool "
            "-importkeystore -srckeystore store.jks -destkeystore store.p12 "
            "-deststoretype PKCS12` and use the .p12 file"
        )
    if str(value).upper() not in ("PKCS12", "PEM"):
        raise ValueError(f"{value!r} is neither PKCS12 nor PEM")
    return str(value).upper()


def _mechanism(value: Any) -> str:
    mechanism = str(value).strip().upper()
    if mechanism == "GSSAPI":
        raise ValueError("GSSAPI (Kerberos) is not supported; PLAIN, SCRAM-* and OAUTHBEARER are")
    return mechanism


def _oauth_method(value: Any) -> str:
    method = str(value).lower()
    if method not in ("default", "oidc"):
        raise ValueError(f"{value!r} is neither 'default' nor 'oidc'")
    return method


_EXTENSION_KEY = re.compile(r"[A-Za-z]+")
_EXTENSION_VALUE = re.compile(r"[\x21-\x7e \t\r\n]+")  # RFC 7628's value characters


def _extensions(value: Any) -> tuple[tuple[str, str], ...]:
    """ "key=value,key=value" (librdkafka), or a mapping."""
    items = value.items() if isinstance(value, Mapping) else _pairs(str(value))
    extensions = []
    for key, text in items:
        if not _EXTENSION_KEY.fullmatch(key) or key == "auth":
            raise ValueError(f"extension name {key!r} is not letters only, or is 'auth'")
        if not _EXTENSION_VALUE.fullmatch(str(text)):
            raise ValueError(f"the value of extension {key!r} has characters RFC 7628 refuses")
        extensions.append((key, str(text)))
    return tuple(extensions)


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"{key!r} is not key=value")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _callable(value: Any) -> Callable[..., Any]:
    if not callable(value):
        raise TypeError(f"expects a callable, not a {type(value).__name__}")
    return value


# Java's login callback handlers that only mean "fetch tokens from the token endpoint"
_OIDC_HANDLERS = {
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
    "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler",
}


def _login_handler(value: Any) -> str:
    if str(value).strip() not in _OIDC_HANDLERS:
        raise ValueError(
            "JVM callback handler classes cannot load in Python: for a token endpoint set "
            "sasl.oauthbearer.token.endpoint.url (with the client id and secret in "
            "sasl.jaas.config or sasl.oauthbearer.client.*); for another token source (MSK "
            "IAM, say) pass oauth_cb=, a callable returning (token, expiry)"
        )
    return "oidc"


def boolean(value: Any) -> bool:
    """A bool, or "true"/"false" (any case) as properties files and librdkafka write them."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ValueError(f"expects true or false, not that {type(value).__name__}")


def _count(value: Any) -> int:
    """A whole number >= 0."""
    if isinstance(value, bool):
        raise ValueError("expects a whole number, not a bool")
    number = _integer(value)
    if number < 0:
        raise ValueError(f"is {number}, not a count >= 0")
    return number


def _seconds_or_off(value: Any) -> float:
    """Milliseconds >= 0 (0: off), as seconds."""
    return _count(value) / 1000


def _refresh_interval(value: Any) -> float:
    """topic.metadata.refresh.interval.ms: milliseconds, -1 for no timed refresh."""
    ms = _integer(value)
    if ms == -1:
        return math.inf
    if ms <= 0:
        raise ValueError(f"is {ms}, not a time in ms > 0 (or -1: no timed refresh)")
    return ms / 1000


def _positive_seconds(value: Any) -> float:
    ms = _integer(value)
    if ms <= 0 or isinstance(value, bool):
        raise ValueError(f"is {ms}, not a time in ms > 0")
    return ms / 1000


def _buffer_bytes(value: Any) -> int:
    """A socket buffer size: librdkafka's 0 or Java's -1 mean the system's."""
    size = _integer(value)
    if size < -1:
        raise ValueError(f"is {size}, not a size >= 0 (0 or -1: the system's)")
    return max(size, 0)


def _family(value: Any) -> str:
    family = str(value).strip().lower()
    if family not in ("any", "v4", "v6"):
        raise ValueError(f"{value!r} is none of any, v4, v6")
    return family


def _optional_callable(value: Any) -> Callable[..., Any] | None:
    return None if value is None else _callable(value)


def _optional_text(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"expects a string, not a {type(value).__name__}")
    return value


def parse_servers(servers: str | Sequence[str]) -> tuple[tuple[str, int], ...]:
    """ "host:port,host:port" or a list of "host:port" ("[::1]:9092" for IPv6)."""
    if isinstance(servers, str):
        servers = [s for s in servers.split(",") if s.strip()]
    parsed = []
    for server in servers:
        host, sep, port = server.strip().rpartition(":")
        if not sep or not port.isdigit():
            raise ConfigError(f"bootstrap server {server!r} is not host:port")
        parsed.append((host.strip("[]"), int(port)))
    if not parsed:
        raise ConfigError("no bootstrap servers given")
    return tuple(parsed)
