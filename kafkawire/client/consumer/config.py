"""The consumer's settings, by their Kafka property names (librdkafka's, with Java's where they
differ); the connection settings go on to ``client_config``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

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
from ..errors import ConfigError
from ..groups.assignors import assignors_for
from ..logs import log_ignored
from ..types import READ_COMMITTED, READ_UNCOMMITTED

_RESETS = {
    "earliest": "earliest",
    "smallest": "earliest",
    "beginning": "earliest",
    "latest": "latest",
    "largest": "latest",
    "end": "latest",
    "none": "none",
    "error": "none",
}
_ISOLATION = {"read_committed": READ_COMMITTED, "read_uncommitted": READ_UNCOMMITTED}
# under group.protocol=consumer the broker decides these (librdkafka and Java refuse them too)
_CLASSIC_ONLY = {
    "session.timeout.ms": "session_timeout_ms",
    "heartbeat.interval.ms": "heartbeat_interval",
    "partition.assignment.strategy": "assignment_strategy",
}


@dataclass(frozen=True)
class ConsumerConfig:
    group_id: str | None = None
    group_instance_id: str | None = None
    group_protocol: str = "classic"  # or "consumer": KIP-848 (client/groups/consumer_protocol.py)
    group_remote_assignor: str | None = None  # the broker's assignor under "consumer"
    enable_auto_commit: bool = True
    auto_commit_interval: float = 5.0
    # false: commits without offsets (and auto-commits) take only what store_offsets stored
    enable_auto_offset_store: bool = True
    # on_commit(error, partitions): how every commit that commit() does not return ended
    on_commit: Callable[[BaseException | None, list], Any] | None = None
    auto_offset_reset: str = "latest"
    isolation_level: int = READ_UNCOMMITTED
    fetch_min_bytes: int = 1
    fetch_max_bytes: int = 52428800
    max_partition_fetch_bytes: int = 1048576
    fetch_max_wait_ms: int = 500
    max_poll_records: int = 500
    max_poll_interval: float = 300.0
    session_timeout_ms: int = 45000
    heartbeat_interval: float = 3.0
    assignment_strategy: str = "range,roundrobin"  # librdkafka's default: mixed groups agree
    check_crcs: bool = True
    # stored for the consumer to act on (see docs/configuration.md):
    enable_partition_eof: bool = False  # poll reports reaching a partition's end, once each
    fetch_error_backoff: float = 0.5  # seconds before a partition whose fetch failed is asked
    exclude_internal_topics: bool = True  # a pattern subscription skips __consumer_offsets &c.


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"is {value!r}, not true or false")


def _positive(value: Any) -> int:
    number = int(value)
    if number < 0 or isinstance(value, bool):
        raise ValueError(f"is {value!r}, not a count >= 0")
    return number


def _seconds(value: Any) -> float:
    return _positive(value) / 1000


def _reset(value: Any) -> str:
    if value not in _RESETS:
        raise ValueError(f"is {value!r}, not one of earliest, latest, none")
    return _RESETS[value]


def isolation_level(value: Any) -> int:
    """READ_COMMITTED / READ_UNCOMMITTED from either spelling (the name, or the number)."""
    if isinstance(value, str) and value.lower() in _ISOLATION:
        return _ISOLATION[value.lower()]
    if value in (READ_COMMITTED, READ_UNCOMMITTED) and not isinstance(value, bool):
        return int(value)
    raise ValueError(f"is {value!r}, not read_committed or read_uncommitted")


def _group_protocol(value: Any) -> str:
    if not isinstance(value, str) or value.lower() not in ("classic", "consumer"):
        raise ValueError(f"is {value!r}, not classic or consumer")
    return value.lower()  # Java's enum names (CONSUMER) too


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _callback(value: Any) -> Callable | None:
    if value is not None and not callable(value):
        raise ValueError(f"is {value!r}, not a callable")
    return value


def _strategy(value: Any) -> str:
    """partition.assignment.strategy, checked now (not at the first join)."""
    text = value if isinstance(value, str) else ",".join(map(str, value))
    names = [n.strip() for n in text.split(",")]
    for name in names:
        if name.lower() == "sticky" or name.endswith(".StickyAssignor"):
            raise ValueError(
                f"{name!r} (the eager sticky assignor) is not one of range, roundrobin, "
                "cooperative-sticky (librdkafka has no 'sticky' either): cooperative-sticky "
                "is the sticky one"
            )
    assignors_for(text)  # a ConfigError (a ValueError) naming the assignors that exist
    return text


_PROPERTIES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "group.id": ("group_id", _optional_str),
    "group.instance.id": ("group_instance_id", _optional_str),
    "group.protocol": ("group_protocol", _group_protocol),
    "group.remote.assignor": ("group_remote_assignor", _optional_str),
    "enable.auto.commit": ("enable_auto_commit", _bool),
    "auto.commit.interval.ms": ("auto_commit_interval", _seconds),
    "enable.auto.offset.store": ("enable_auto_offset_store", _bool),
    "on_commit": ("on_commit", _callback),  # confluent-kafka's place for it
    "auto.offset.reset": ("auto_offset_reset", _reset),
    "isolation.level": ("isolation_level", isolation_level),
    "fetch.min.bytes": ("fetch_min_bytes", _positive),
    "fetch.max.bytes": ("fetch_max_bytes", _positive),
    "max.partition.fetch.bytes": ("max_partition_fetch_bytes", _positive),
    "fetch.wait.max.ms": ("fetch_max_wait_ms", _positive),
    "fetch.max.wait.ms": ("fetch_max_wait_ms", _positive),
    "max.poll.records": ("max_poll_records", _positive),
    "max.poll.interval.ms": ("max_poll_interval", _seconds),
    "session.timeout.ms": ("session_timeout_ms", _positive),
    "heartbeat.interval.ms": ("heartbeat_interval", _seconds),
    "partition.assignment.strategy": ("assignment_strategy", _strategy),
    "check.crcs": ("check_crcs", _bool),
    "fetch.message.max.bytes": ("max_partition_fetch_bytes", _positive),
    "auto.commit.enable": ("enable_auto_commit", _bool),  # librdkafka's legacy name
    "enable.partition.eof": ("enable_partition_eof", _bool),
    "fetch.error.backoff.ms": ("fetch_error_backoff", _seconds),
    "exclude.internal.topics": ("exclude_internal_topics", _bool),
}
_DEFAULTS = {name: f.default for name, f in ConsumerConfig.__dataclass_fields__.items()}

_BUFFER = "the consumer buffers at most two fetched answers a partition ahead of poll"
# the consumer's properties taken and ignored (see config.IGNORED)
IGNORED: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "group.protocol.type": (("consumer",), "the classic protocol's only type"),
    "coordinator.query.interval.ms": (None, "the coordinator is looked up when it moves"),
    "queued.min.messages": (None, _BUFFER),
    "queued.max.messages.kbytes": (None, _BUFFER),
    "fetch.queue.backoff.ms": (None, _BUFFER),
    "offset.store.method": (("broker",), "offsets are committed to the group coordinator"),
    "consume.callback.max.messages": (None, "there is no consume callback"),
    "max.in.flight.requests.per.connection": (
        None,
        "the consumer has one fetch in flight a broker",
    ),
    "max.in.flight": (None, "the consumer has one fetch in flight a broker"),
    "message.max.bytes": (None, "it limits the size of the requests the producer sends"),
}
# the consumer's properties refused (see config.REFUSED)
REFUSED: dict[str, str] = {
    "offset.store.path": "offsets are not stored in files",
    "offset.store.sync.interval.ms": "offsets are not stored in files",
    "consume_cb": "a librdkafka C API callback: call poll() or consume()",
    "rebalance_cb": "pass on_assign=, on_revoke=, on_lost= to subscribe()",
    "offset_commit_cb": "pass on_commit= (confluent-kafka's name for it)",
    "share.acknowledgement.mode": "share groups (KIP-932) are not supported",
    "key.deserializer": "a JVM class: pass key_deserializer=, a callable (bytes -> object)",
    "value.deserializer": "a JVM class: pass value_deserializer=, a callable (bytes -> object)",
}
_KEYWORDS = keyword_table(_PROPERTIES, IGNORED, REFUSED)


def _check_group_protocol(parsed: ConsumerConfig, given: Mapping[str, Any]) -> None:
    if parsed.group_protocol == "consumer":
        for name, field in _CLASSIC_ONLY.items():
            if field in given:
                raise ConfigError(
                    f"consumer property {name!r} is not used with group.protocol=consumer: the "
                    "broker decides it for the group (group.remote.assignor names the broker's "
                    "assignor)"
                )
    elif parsed.group_remote_assignor is not None:
        raise ConfigError(
            "consumer property 'group.remote.assignor' needs group.protocol=consumer (the "
            "classic protocol's assignors are partition.assignment.strategy)"
        )


def consumer_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None = None,
    **settings: Any,
) -> tuple[ClientConfig, ConsumerConfig]:
    """The connection settings and the consumer's, from Kafka properties (``config``) and
    keyword settings: field names of either, or any property's name in snake case
    (``max_poll_interval_ms=`` for ``max.poll.interval.ms``, converted as the property is).
    A producer's property is taken and ignored (logged once), as librdkafka does.

    :raises ConfigError: an unknown name (the closest known one suggested), a bad value, or
        a keyword that sets what a property or another keyword already set, to another value.
    """
    collected = Collected("consumer")
    client: dict[str, Any] = {}
    for name, value in _flattened(config or {}).items():
        if name in _PROPERTIES:
            read_property(collected, _PROPERTIES, _DEFAULTS, name, value)
        elif check_unused("consumer", name, value, IGNORED, REFUSED):
            pass
        elif is_client_property(name):
            client[name] = value
        elif owns_property("producer", name):
            log_ignored(name, "a producer property, which a consumer does not use")
        else:
            known = [*_PROPERTIES, *IGNORED, *REFUSED]
            raise ConfigError(f"unknown consumer property {name!r}{suggest(name, known)}")
    fields = ConsumerConfig.__dataclass_fields__
    keywords = {}
    for name, value in settings.items():
        if name in _KEYWORDS:
            prop = _KEYWORDS[name]
            if not check_unused("consumer", prop, value, IGNORED, REFUSED):
                read_property(collected, _PROPERTIES, _DEFAULTS, prop, value, name)
        elif name in fields:
            if name == "isolation_level":
                value = isolation_level(value)
            collected.put(name, value, name, True)
        elif is_client_keyword(name):
            keywords[name] = value
        elif owns_keyword("producer", name):
            log_ignored(name, "a producer setting, which a consumer does not use")
        else:
            known = [*fields, *_KEYWORDS]
            raise ConfigError(f"unknown consumer setting {name!r}{suggest(name, known)}")
    consumer = collected.values
    parsed = replace(ConsumerConfig(), **consumer)
    if parsed.group_id is None and parsed.group_instance_id is not None:
        raise ConfigError("group.instance.id needs a group.id")
    _check_group_protocol(parsed, consumer)
    return client_config(bootstrap_servers, client, **keywords), parsed


def consumer_keyword(name: str) -> bool:
    """Whether ``name`` is a consumer's own keyword (for a Client given a shared set)."""
    return name in _KEYWORDS or name in ConsumerConfig.__dataclass_fields__


def consumer_property(name: str) -> bool:
    """Whether ``name`` is a consumer's own property (for the producer's split)."""
    return name in _PROPERTIES or name in IGNORED or name in REFUSED


def _flattened(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` with confluent-kafka's ``default.topic.config`` (a mapping of properties)
    spread out: the top-level properties win."""
    topic = config.get("default.topic.config")
    if topic is None:
        return dict(config)
    if not isinstance(topic, Mapping):
        raise ConfigError("property 'default.topic.config' takes a mapping of properties")
    rest = {k: v for k, v in config.items() if k != "default.topic.config"}
    return {**topic, **rest}


register_settings("consumer", consumer_property, consumer_keyword)
