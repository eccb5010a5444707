"""Client settings: keyword arguments, or Kafka client properties as confluent-kafka users
write them (librdkafka's names; Java's spellings of the same settings are accepted too)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE

from .errors import ConfigError


class Secret(str):
    """A password, key or token: the value, which never shows in a repr."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Secret('***')"


SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


@dataclass(frozen=True)
class ClientConfig:
    bootstrap_servers: tuple[tuple[str, int], ...]
    client_id: str = "kafkawire"
    request_timeout: float = 30.0  # seconds to wait for each answer (a fetch adds its max wait)
    connect_timeout: float = 10.0  # TCP connect and TLS handshake
    retries: int = 5  # attempts after a retriable error or a lost connection
    retry_backoff: float = 0.1  # seconds before the first retry, doubling ...
    retry_backoff_max: float = 5.0  # ... up to this
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    security_protocol: str = "PLAINTEXT"
    # TLS (kafkawire.client.tls): CA and client certificate as files or inline PEM
    ssl_ca_location: str | None = None
    ssl_ca_pem: str | None = None
    ssl_certificate_location: str | None = None
    ssl_certificate_pem: str | None = None
    ssl_key_location: str | None = None
    ssl_key_pem: Secret | None = None
    ssl_key_password: Secret | None = None
    ssl_keystore_location: str | None = None  # PKCS#12
    ssl_keystore_password: Secret | None = None
    ssl_check_hostname: bool = True

    @property
    def uses_tls(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")


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


# property -> (field, conversion); Java's name where it differs from librdkafka's follows
_PROPERTIES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "bootstrap.servers": ("bootstrap_servers", _servers),
    "metadata.broker.list": ("bootstrap_servers", _servers),
    "client.id": ("client_id", str),
    "request.timeout.ms": ("request_timeout", _seconds_from_ms),
    "socket.timeout.ms": ("request_timeout", _seconds_from_ms),
    "socket.connection.setup.timeout.ms": ("connect_timeout", _seconds_from_ms),
    "retries": ("retries", _integer),
    "retry.backoff.ms": ("retry_backoff", _seconds_from_ms),
    "retry.backoff.max.ms": ("retry_backoff_max", _seconds_from_ms),
    "receive.message.max.bytes": ("max_frame_size", _integer),
    "security.protocol": ("security_protocol", _protocol),
    "ssl.ca.location": ("ssl_ca_location", str),
    "ssl.truststore.location": ("ssl_ca_location", str),
    "ssl.ca.pem": ("ssl_ca_pem", str),
    "ssl.truststore.certificates": ("ssl_ca_pem", str),
    "ssl.certificate.location": ("ssl_certificate_location", str),
    "ssl.certificate.pem": ("ssl_certificate_pem", str),
    "ssl.keystore.certificate.chain": ("ssl_certificate_pem", str),
    "ssl.key.location": ("ssl_key_location", str),
    "ssl.key.pem": ("ssl_key_pem", Secret),
    "ssl.keystore.key": ("ssl_key_pem", Secret),
    "ssl.key.password": ("ssl_key_password", Secret),
    "ssl.keystore.location": ("ssl_keystore_location", str),
    "ssl.keystore.password": ("ssl_keystore_password", Secret),
    "ssl.endpoint.identification.algorithm": ("ssl_check_hostname", _hostname_check),
}
# Java's store types: PEM and PKCS12 are read, JKS is refused with the way out
_CHECKED: dict[str, Callable[[Any], Any]] = {
    "ssl.keystore.type": _no_jks,
    "ssl.truststore.type": _no_jks,
}
_SECRET_FIELDS = {"ssl_key_pem", "ssl_key_password", "ssl_keystore_password"}
_FIELDS = {f.name for f in fields(ClientConfig)}


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


def client_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> ClientConfig:
    """The settings from ``config`` (Kafka property names), then ``kwargs`` (field names),
    which override it.

    :raises ConfigError: an unknown name (the closest known one is suggested) or a value of
        the wrong kind.
    """
    values: dict[str, Any] = {}
    for name, value in (config or {}).items():
        if name in _CHECKED:
            _convert(name, _CHECKED[name], value)
            continue
        if name not in _PROPERTIES:
            known = [*_PROPERTIES, *_CHECKED]
            raise ConfigError(f"unknown client property {name!r}{_suggest(name, known)}")
        field, convert = _PROPERTIES[name]
        values[field] = _convert(name, convert, value)
    for name, value in kwargs.items():
        if name not in _FIELDS or name == "bootstrap_servers":
            raise ConfigError(f"unknown client setting {name!r}{_suggest(name, _FIELDS)}")
        if name == "security_protocol":
            value = _convert(name, _protocol, value)
        values[name] = Secret(value) if name in _SECRET_FIELDS and value is not None else value
    if bootstrap_servers is not None:
        values["bootstrap_servers"] = parse_servers(bootstrap_servers)
    if "bootstrap_servers" not in values:
        raise ConfigError("no bootstrap servers: pass them, or set bootstrap.servers")
    settings = ClientConfig(values.pop("bootstrap_servers"))
    return replace(settings, **values)


def _convert(name: str, convert: Callable[[Any], Any], value: Any) -> Any:
    try:
        return convert(value)
    except (TypeError, ValueError) as exc:
        # the value is left out: it may be a secret
        raise ConfigError(f"client property {name!r}: {exc}") from None


def _suggest(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
