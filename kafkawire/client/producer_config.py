"""The producer's settings, by their Kafka property names (librdkafka's, with Java's where they
differ); the connection settings go on to ``client_config``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kafkawire.compression import Codec

from .config import ClientConfig, client_config, is_client_property, suggest
from .consumer_config import _bool, _optional_str, _positive, _seconds
from .errors import ConfigError

PARTITIONERS = (
    "murmur2_random",  # Java's default: murmur2 of the key; keyless records sticky
    "murmur2",  # murmur2 of the key; keyless records (null key) to one random partition each
    "consistent_random",  # librdkafka's default: CRC32 of the key; keyless sticky
    "consistent",  # CRC32 of the key (keyless: the hash of an empty key)
    "random",  # ignore the key
)


@dataclass(frozen=True)
class ProducerConfig:
    acks: int = -1
    linger: float = 0.005
    batch_size: int = 1000000
    compression: Codec | None = None
    max_in_flight: int = 5
    retries: int = 2147483647
    delivery_timeout: float = 120.0
    enable_idempotence: bool = True
    partitioner: str = "murmur2_random"
    transactional_id: str | None = None
    transaction_timeout_ms: int = 60000
    buffer_bytes: int = 1048576 * 1024  # queue.buffering.max.kbytes: librdkafka's 1 GiB
    max_block: float = 60.0
    message_max_bytes: int = 1000000
    topic_metadata_wait: float = 30.0  # an unknown topic fails its records after this


def _acks(value: Any) -> int:
    if isinstance(value, str) and value.lower() == "all":
        return -1
    if isinstance(value, bool) or str(value).lstrip("-") not in ("0", "1"):
        raise ValueError(f"is {value!r}, not 0, 1 or all (-1)")
    return int(value)


def _compression(value: Any) -> Codec | None:
    if value in (None, "none", "None", 0, Codec.NONE):
        return None
    try:
        return Codec[str(value).upper()] if isinstance(value, str) else Codec(value)
    except (KeyError, ValueError):
        names = ", ".join(c.name.lower() for c in Codec)
        raise ValueError(f"is {value!r}, not one of {names}") from None


def _partitioner(value: Any) -> str:
    if value not in PARTITIONERS:
        raise ValueError(f"is {value!r}, not one of {', '.join(PARTITIONERS)}")
    return value


def _kbytes(value: Any) -> int:
    return _positive(value) * 1024


_PROPERTIES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "acks": ("acks", _acks),
    "request.required.acks": ("acks", _acks),
    "linger.ms": ("linger", _seconds),
    "queue.buffering.max.ms": ("linger", _seconds),
    "batch.size": ("batch_size", _positive),
    "compression.type": ("compression", _compression),
    "compression.codec": ("compression", _compression),
    "max.in.flight.requests.per.connection": ("max_in_flight", _positive),
    "max.in.flight": ("max_in_flight", _positive),
    "retries": ("retries", _positive),
    "message.send.max.retries": ("retries", _positive),
    "delivery.timeout.ms": ("delivery_timeout", _seconds),
    "message.timeout.ms": ("delivery_timeout", _seconds),
    "enable.idempotence": ("enable_idempotence", _bool),
    "partitioner": ("partitioner", _partitioner),
    "transactional.id": ("transactional_id", _optional_str),
    "transaction.timeout.ms": ("transaction_timeout_ms", _positive),
    "queue.buffering.max.kbytes": ("buffer_bytes", _kbytes),
    "buffer.memory": ("buffer_bytes", _positive),
    "max.block.ms": ("max_block", _seconds),
    "message.max.bytes": ("message_max_bytes", _positive),
    "max.request.size": ("message_max_bytes", _positive),
    "topic.metadata.propagation.max.ms": ("topic_metadata_wait", _seconds),
}
# the client's retry.backoff.ms is the producer's too (read from the ClientConfig)


def producer_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None = None,
    **settings: Any,
) -> tuple[ClientConfig, ProducerConfig]:
    """The connection settings and the producer's, from Kafka properties (``config``) and
    keyword settings (field names of either).

    :raises ConfigError: an unknown name (the closest known one suggested) or a bad value.
    """
    producer: dict[str, Any] = {}
    client: dict[str, Any] = {}
    for name, value in (config or {}).items():
        if name in _PROPERTIES:
            field, convert = _PROPERTIES[name]
            try:
                producer[field] = convert(value)
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"producer property {name!r}: {exc}") from None
        elif is_client_property(name):
            client[name] = value
        else:
            raise ConfigError(f"unknown producer property {name!r}{suggest(name, _PROPERTIES)}")
    fields = ProducerConfig.__dataclass_fields__
    keywords = {}
    for name, value in settings.items():
        if name in fields:
            producer[name] = value
        else:
            keywords[name] = value
    parsed = replace(ProducerConfig(), **producer)
    client_settings = client_config(bootstrap_servers, client, **keywords)
    return client_settings, _checked(parsed, "enable.idempotence" in (config or {}), settings)


def _checked(c: ProducerConfig, idempotence_given: bool, settings: Mapping) -> ProducerConfig:
    idempotence_given = idempotence_given or "enable_idempotence" in settings
    if c.transactional_id is not None:
        if idempotence_given and not c.enable_idempotence:
            raise ConfigError("transactional.id needs enable.idempotence (do not turn it off)")
        c = replace(c, enable_idempotence=True)
    if c.enable_idempotence:
        # librdkafka and Java turn idempotence off quietly when these conflict, unless it was
        # asked for: then the conflict is an error (as in Java)
        conflict = None
        if c.acks != -1:
            conflict = f"acks={c.acks} (idempotence needs acks=all)"
        elif c.max_in_flight > 5:
            conflict = f"max.in.flight.requests.per.connection={c.max_in_flight} (at most 5)"
        elif c.retries == 0:
            conflict = "retries=0"
        if conflict is not None:
            if idempotence_given or c.transactional_id is not None:
                raise ConfigError(f"enable.idempotence conflicts with {conflict}")
            c = replace(c, enable_idempotence=False)
    if c.max_in_flight < 1:
        raise ConfigError("max.in.flight.requests.per.connection must be at least 1")
    if c.batch_size > c.message_max_bytes:
        c = replace(c, batch_size=c.message_max_bytes)
    if c.batch_size < 100:
        raise ConfigError(f"batch.size {c.batch_size} is too small (100 bytes at least)")
    return c
