"""The producer's settings, by their Kafka property names (librdkafka's, with Java's where they
differ); the connection settings go on to ``client_config``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kafkawire.compression import Codec

from ..config.client import (
    ClientConfig,
    client_config,
    is_client_keyword,
    is_client_property,
    suggest,
)
from ..config.reading import (
    Collected,
    check_unused,
    keyword_table,
    owns_keyword,
    owns_property,
    read_property,
    register_settings,
)
from ..consumer.config import _bool, _callback, _flattened, _optional_str, _positive, _seconds
from ..errors import ConfigError
from ..logs import log_ignored

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
    # stored for the producer to act on (see docs/configuration.md):
    # on_delivery(error, record): confluent-kafka's delivery callback for every produce()
    on_delivery: Callable[[BaseException | None, Any], Any] | None = None
    delivery_report_only_error: bool = False  # on_delivery only for records that failed
    queue_buffering_max_messages: int = 100000  # records waiting to be sent (0: no limit)
    compression_level: int | None = None  # the codec's level (None: the codec's default)


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


def _level(value: Any) -> int | None:
    """compression.level: -1 (librdkafka's) for the codec's default."""
    if isinstance(value, bool):
        raise ValueError(f"is {value!r}, not a whole number")
    level = int(value)
    return None if level == -1 else level


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
    "on_delivery": ("on_delivery", _callback),  # confluent-kafka's place for it
    "delivery.report.only.error": ("delivery_report_only_error", _bool),
    "queue.buffering.max.messages": ("queue_buffering_max_messages", _positive),
    "compression.level": ("compression_level", _level),
    "compression.gzip.level": ("compression_level", _level),  # Java's, one a codec
    "compression.lz4.level": ("compression_level", _level),
    "compression.zstd.level": ("compression_level", _level),
}
_DEFAULTS = {name: f.default for name, f in ProducerConfig.__dataclass_fields__.items()}

# the producer's properties taken and ignored (see config.IGNORED)
IGNORED: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "queue.buffering.backpressure.threshold": (None, "batches go out as linger.ms allows"),
    "batch.num.messages": (None, "a batch is bounded by batch.size (bytes) only"),
    "sticky.partitioning.linger.ms": (
        None,
        "keyless records stay on one partition until its batch is full or sent",
    ),
    "produce.offset.report": (None, "deprecated and unused in librdkafka too"),
    "queuing.strategy": (("fifo",), "records are sent in the order they are produced"),
    "enable.gapless.guarantee": (("false",), "an experimental librdkafka mode not offered"),
    "partitioner.adaptive.partitioning.enable": (
        None,
        "keyless records are spread by the sticky partitioner, not by broker load",
    ),
    "partitioner.availability.timeout.ms": (
        None,
        "keyless records are spread by the sticky partitioner, not by broker load",
    ),
    "partitioner.ignore.keys": (("false",), "set partitioner=random to ignore keys"),
    "metadata.max.idle.ms": (None, "a topic's metadata is kept while the producer lives"),
}
# the producer's properties refused (see config.REFUSED)
REFUSED: dict[str, str] = {
    "dr_cb": "pass on_delivery=, a callable (error, record) (confluent-kafka's name)",
    "dr_msg_cb": "pass on_delivery=, a callable (error, record) (confluent-kafka's name)",
    "partitioner_cb": "a librdkafka C API callback: pass partition= to produce()",
    "msg_order_cmp": "a librdkafka C API callback",
    "partitioner.class": f"a JVM class: set partitioner to one of {', '.join(PARTITIONERS)}",
    "key.serializer": "a JVM class: serialize the key to bytes before producing it",
    "value.serializer": "a JVM class: serialize the value to bytes before producing it",
}
_KEYWORDS = keyword_table(_PROPERTIES, IGNORED, REFUSED)


def producer_keyword(name: str) -> bool:
    """Whether ``name`` is a producer's own keyword (for a Client given a shared set)."""
    return name in _KEYWORDS or name in ProducerConfig.__dataclass_fields__


def producer_property(name: str) -> bool:
    """Whether ``name`` is a producer's own property (for the consumer's split)."""
    return name in _PROPERTIES or name in IGNORED or name in REFUSED


# the client's retry.backoff.ms is the producer's too (read from the ClientConfig)


def producer_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None = None,
    **settings: Any,
) -> tuple[ClientConfig, ProducerConfig]:
    """The connection settings and the producer's, from Kafka properties (``config``) and
    keyword settings: field names of either, or any property's name in snake case
    (``linger_ms=5`` for ``linger.ms``, converted as the property is). A consumer's property
    is taken and ignored (logged once), as librdkafka does.

    :raises ConfigError: an unknown name (the closest known one suggested), a bad value, or
        a keyword that sets what a property or another keyword already set, to another value.
    """
    collected = Collected("producer")
    client: dict[str, Any] = {}
    for name, value in _flattened(config or {}).items():
        if name in _PROPERTIES:
            read_property(collected, _PROPERTIES, _DEFAULTS, name, value)
        elif check_unused("producer", name, value, IGNORED, REFUSED):
            pass
        elif is_client_property(name):
            client[name] = value
        elif owns_property("consumer", name):
            log_ignored(name, "a consumer property, which a producer does not use")
        else:
            known = [*_PROPERTIES, *IGNORED, *REFUSED]
            raise ConfigError(f"unknown producer property {name!r}{suggest(name, known)}")
    fields = ProducerConfig.__dataclass_fields__
    keywords = {}
    for name, value in settings.items():
        if name in _KEYWORDS:
            prop = _KEYWORDS[name]
            if not check_unused("producer", prop, value, IGNORED, REFUSED):
                read_property(collected, _PROPERTIES, _DEFAULTS, prop, value, name)
        elif name in fields:
            collected.put(name, value, name, True)
        elif is_client_keyword(name):
            keywords[name] = value
        elif owns_keyword("consumer", name):
            log_ignored(name, "a consumer setting, which a producer does not use")
        else:
            known = [*fields, *_KEYWORDS]
            raise ConfigError(f"unknown producer setting {name!r}{suggest(name, known)}")
    parsed = replace(ProducerConfig(), **collected.values)
    client_settings = client_config(bootstrap_servers, client, **keywords)
    given = {*(config or {}), *(_KEYWORDS.get(k, k) for k in settings)}
    return client_settings, _checked(parsed, "enable.idempotence" in given, settings)


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


register_settings("producer", producer_property, producer_keyword)
