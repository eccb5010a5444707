"""Client settings: keyword arguments, or Kafka client properties as confluent-kafka users
write them (librdkafka's names; Java's spellings of the same settings are accepted too)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE

from .errors import ConfigError


@dataclass(frozen=True)
class ClientConfig:
    bootstrap_servers: tuple[tuple[str, int], ...]
    client_id: str = "kafkawire"
    request_timeout: float = 30.0  # seconds to wait for each answer (a fetch adds its max wait)
    connect_timeout: float = 10.0
    retries: int = 5  # attempts after a retriable error or a lost connection
    retry_backoff: float = 0.1  # seconds before the first retry, doubling ...
    retry_backoff_max: float = 5.0  # ... up to this
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE


def _seconds_from_ms(value: Any) -> float:
    return int(value) / 1000


def _servers(value: Any) -> tuple[tuple[str, int], ...]:
    return parse_servers(value)


# property -> (field, conversion); Java's name where it differs from librdkafka's follows
_PROPERTIES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "bootstrap.servers": ("bootstrap_servers", _servers),
    "metadata.broker.list": ("bootstrap_servers", _servers),
    "client.id": ("client_id", str),
    "request.timeout.ms": ("request_timeout", _seconds_from_ms),
    "socket.timeout.ms": ("request_timeout", _seconds_from_ms),
    "socket.connection.setup.timeout.ms": ("connect_timeout", _seconds_from_ms),
    "retries": ("retries", int),
    "retry.backoff.ms": ("retry_backoff", _seconds_from_ms),
    "retry.backoff.max.ms": ("retry_backoff_max", _seconds_from_ms),
    "receive.message.max.bytes": ("max_frame_size", int),
}
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
        if name not in _PROPERTIES:
            raise ConfigError(f"unknown client property {name!r}{_suggest(name, _PROPERTIES)}")
        field, convert = _PROPERTIES[name]
        try:
            values[field] = convert(value)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"client property {name!r}: {exc}") from None
    for name, value in kwargs.items():
        if name not in _FIELDS or name == "bootstrap_servers":
            raise ConfigError(f"unknown client setting {name!r}{_suggest(name, _FIELDS)}")
        values[name] = value
    if bootstrap_servers is not None:
        values["bootstrap_servers"] = parse_servers(bootstrap_servers)
    if "bootstrap_servers" not in values:
        raise ConfigError("no bootstrap servers: pass them, or set bootstrap.servers")
    settings = ClientConfig(values.pop("bootstrap_servers"))
    return replace(settings, **values)


def _suggest(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
