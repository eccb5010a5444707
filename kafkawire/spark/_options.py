"""The options of the kafkawire data sources, named and interpreted as Spark's Kafka source
and sink name and interpret them (case-insensitively); with them the schema-registry formats'
options (valueFormat, keyFormat, ...) and the schemas the driver fixes for them, which
kafkawire.spark._registry plans and uses (it imports this module, not the other way round)."""

from __future__ import annotations

import difflib
import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from kafkawire.client import (
    EARLIEST,
    LATEST,
    READ_COMMITTED,
    READ_UNCOMMITTED,
    Client,
    Consumer,
    Producer,
    TopicPartition,
)
from kafkawire.client.config import client_config
from kafkawire.client.consumer.config import consumer_config
from kafkawire.client.errors import ConfigError
from kafkawire.client.producer.config import producer_config
from kafkawire.client.sasl import sasl_authenticator
from kafkawire.errors import KafkawireError

if TYPE_CHECKING:
    import pyarrow as pa

    from kafkawire.registry.schema import Schema


class OptionError(KafkawireError, ValueError):
    """A data source option that is missing, malformed or contradicts another."""


class DataLossError(KafkawireError):
    """Records the query asked for are gone (retention, a deleted topic, a truncated log)."""

    def __init__(self, message: str) -> None:
        super().__init__(
            f"{message}. Some data may have been lost: it is no longer in Kafka (aged out by "
            "retention, or the topic was deleted). Set the option failOnDataLoss to false to "
            "skip what is missing and go on."
        )


# kafka.* options that would change what the consumer/producer does in ways kafkawire's client
# cannot follow: refuse them rather than quietly ignore them.
_UNSUPPORTED = {
    "kafka.key.deserializer": "keys are always read as binary",
    "kafka.value.deserializer": "values are always read as binary",
    "kafka.key.serializer": "keys are written from a binary or string column",
    "kafka.value.serializer": "values are written from a binary or string column",
    "kafka.auto.offset.reset": "use startingOffsets",
    "kafka.enable.auto.commit": "offsets are not committed to Kafka",
    "kafka.interceptor.classes": "interceptors are Java classes",
    "kafka.transactional.id": "the sink writes at-least-once, without transactions",
}
# Java client settings with no counterpart in kafkawire's client (JVM networking, metrics,
# class names): accepted and without effect, so that Spark pipelines keep working. Any other
# kafka.* option goes to kafkawire's consumer or producer config, which refuses unknown names.
_JAVA_ONLY_PROPERTIES = frozenset(
    {
        "allow.auto.create.topics",
        "auto.include.jmx.reporter",
        "client.dns.lookup",
        "client.rack",
        "connections.max.idle.ms",
        "default.api.timeout.ms",
        "enable.metrics.push",
        "exclude.internal.topics",
        "metadata.max.age.ms",
        "metadata.max.idle.ms",
        "metric.reporters",
        "metrics.num.samples",
        "metrics.recording.level",
        "metrics.sample.window.ms",
        "partitioner.class",
        "receive.buffer.bytes",
        "reconnect.backoff.max.ms",
        "reconnect.backoff.ms",
        "security.providers",
        "send.buffer.bytes",
        "socket.connection.setup.timeout.max.ms",
    }
)
# kafka.* options handed to the client as they are (TLS and SASL: kafkawire.client.config)
_SECURITY_PREFIXES = ("kafka.security.protocol", "kafka.ssl.", "kafka.sasl.")
_SUBSCRIPTIONS = ("subscribe", "subscribePattern", "assign")
# Spark's Kafka source options (kafka.* aside), as Spark spells them
READ_OPTIONS = (
    *_SUBSCRIPTIONS,
    "startingOffsets",
    "endingOffsets",
    "startingTimestamp",
    "endingTimestamp",
    "startingOffsetsByTimestamp",
    "endingOffsetsByTimestamp",
    "startingOffsetsByTimestampStrategy",
    "failOnDataLoss",
    "includeHeaders",
    "minPartitions",
    "maxRecordsPerPartition",
    "maxOffsetsPerTrigger",
    "minOffsetsPerTrigger",
    "maxTriggerDelay",
    "kafkaConsumer.pollTimeoutMs",
    "fetchOffset.numRetries",
    "fetchOffset.retryIntervalMs",
    "groupIdPrefix",
)
# schema-registry formats (kafkawire.spark._registry), besides the schema.registry.* options
REGISTRY_READ_OPTIONS = tuple(
    f"{column}{name}"
    for column in ("key", "value")
    for name in ("Format", "SchemaId", "Subject", "Errors")
)
REGISTRY_WRITE_OPTIONS = (
    *(
        f"{column}{name}"
        for column in ("key", "value")
        for name in ("Format", "SchemaId", "Subject", "Schema")
    ),
    "subject.name.strategy",
    "auto.register.schemas",
    "use.latest.version",
    "recordName",
    "recordNamespace",
)
REGISTRY_PREFIX = "schema.registry."
# Spark's Kafka sink options, kafkawire's own, and what Spark adds to a streaming write's
WRITE_OPTIONS = (
    "topic",
    "kafkawire.createTopic",
    "kafkawire.createTopic.partitions",
    "kafkawire.createTopic.replicationFactor",
    "checkpointLocation",
    "queryName",
)


class Options:
    """Case-insensitive view of a data source's options with typed getters."""

    def __init__(self, options: Mapping[str, str]) -> None:
        self._values = {str(k).lower(): str(v) for k, v in options.items() if v is not None}
        for name in self._values:
            if name in _UNSUPPORTED:
                raise OptionError(f"option {name!r} is not supported: {_UNSUPPORTED[name]}")

    def check_names(self, known: tuple[str, ...], what: str, other: tuple[str, ...]) -> None:
        """Refuse a name that is neither ``known`` nor kafka.*, suggesting the closest known
        one: a misspelled option must not quietly change what is read or written."""
        spelled = {name.lower(): name for name in known}
        others = {name.lower() for name in other} - set(spelled)
        for name in self._values:
            if name in spelled or name.startswith(("kafka.", REGISTRY_PREFIX)):
                continue
            if name in others:
                raise OptionError(f"option {name!r} is not an option of a Kafka {what}")
            close = difflib.get_close_matches(name, sorted(spelled), n=1)
            hint = f" (did you mean {spelled[close[0]]!r}?)" if close else ""
            raise OptionError(f"unknown option {name!r} for a Kafka {what}{hint}")

    def kafka_properties(self, *, leave_out: tuple[str, ...] = ()) -> dict[str, str]:
        """The kafka.* options as client properties ("kafka." dropped), except the TLS/SASL
        ones (``security``), the Java-only ones and the names in ``leave_out``."""
        return {
            name.removeprefix("kafka."): value
            for name, value in self._values.items()
            if name.startswith("kafka.")
            and not name.startswith(_SECURITY_PREFIXES)
            and name.removeprefix("kafka.") not in _JAVA_ONLY_PROPERTIES
            and name.removeprefix("kafka.") not in leave_out
        }

    def security(self) -> tuple[tuple[str, str], ...]:
        """The TLS and SASL options, as client properties (``kafka.`` dropped)."""
        return tuple(
            (name.removeprefix("kafka."), value)
            for name, value in self._values.items()
            if name.startswith(_SECURITY_PREFIXES)
        )

    def items(self) -> list[tuple[str, str]]:
        """(lowercase name, value) of every option."""
        return list(self._values.items())

    def get(self, name: str, default: str | None = None) -> str | None:
        return self._values.get(name.lower(), default)

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._values

    def flag(self, name: str, default: bool) -> bool:
        value = self.get(name)
        if value is None:
            return default
        if value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise OptionError(f"option {name} must be true or false, not {value!r}")

    def integer(self, name: str, default: int, *, minimum: int | None = None) -> int:
        number = self.optional_integer(name, minimum=minimum)
        return default if number is None else number

    def optional_integer(self, name: str, *, minimum: int | None = None) -> int | None:
        value = self.get(name)
        if value is None:
            return None
        try:
            number = int(value.strip())
        except ValueError:
            raise OptionError(f"option {name} must be an integer, not {value!r}") from None
        if minimum is not None and number < minimum:
            raise OptionError(f"option {name} must be at least {minimum}, not {number}")
        return number


@dataclass(frozen=True)
class ClientConfig:
    """What it takes to open a kafkawire Client in any process (picklable)."""

    bootstrap_servers: str
    client_id: str = "kafkawire-spark"
    request_timeout: float = 30.0
    connect_timeout: float = 10.0
    # TLS and SASL properties; out of the repr, as they hold passwords and keys
    security: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @classmethod
    def from_options(cls, opts: Options) -> ClientConfig:
        servers = opts.get("kafka.bootstrap.servers")
        if not servers or not servers.strip():
            raise OptionError("option kafka.bootstrap.servers is required (host:port,...)")
        security = opts.security()
        try:  # on the driver: a misspelled or incomplete setting fails the query at once
            sasl_authenticator(client_config(servers, dict(security)))
        except ConfigError as exc:
            raise OptionError(f"the kafka.* TLS/SASL options: {exc}") from None
        return cls(
            security=security,
            bootstrap_servers=servers.strip(),
            client_id=opts.get("kafka.client.id") or "kafkawire-spark",
            # librdkafka's socket.timeout.ms is the same setting (the properties leave both out)
            request_timeout=opts.integer(
                "kafka.request.timeout.ms",
                opts.integer("kafka.socket.timeout.ms", 30000, minimum=1),
                minimum=1,
            )
            / 1000,
            connect_timeout=opts.integer(
                "kafka.socket.connection.setup.timeout.ms", 10000, minimum=1
            )
            / 1000,
        )

    def _connection(self) -> dict:
        return {
            "client_id": self.client_id,
            "request_timeout": self.request_timeout,
            "connect_timeout": min(self.request_timeout, self.connect_timeout),
        }

    def client(self) -> Client:
        return Client(self.bootstrap_servers, config=dict(self.security), **self._connection())

    def consumer(self, properties: Mapping[str, str], **settings) -> Consumer:
        """A Consumer with these connection settings, the consumer ``properties`` (Kafka
        names) and the consumer ``settings`` given, which win over the properties."""
        return Consumer(
            self.bootstrap_servers,
            config={**dict(self.security), **properties},
            **self._connection(),
            **settings,
        )

    def producer(self, properties: Mapping[str, str]) -> Producer:
        """A Producer with these connection settings and the producer ``properties`` (Kafka
        names)."""
        return Producer(
            self.bootstrap_servers,
            config={**dict(self.security), **properties},
            **self._connection(),
        )


@dataclass(frozen=True)
class Subscription:
    """subscribe (topic names), subscribePattern (a regex, matched whole) or assign."""

    kind: str
    topics: tuple[str, ...] = ()
    pattern: str | None = None
    assigned: tuple[TopicPartition, ...] = ()


@dataclass(frozen=True)
class OffsetSpec:
    """Where reading starts or ends.

    kind "earliest" / "latest"; "offsets": ``per_partition`` maps every partition to an
    offset, -2 (earliest) or -1 (latest); "timestamp": ``timestamp`` (ms) for every
    partition; "timestamps": ``per_partition`` maps every partition to a timestamp (ms).
    """

    kind: str
    per_partition: dict[TopicPartition, int] = field(default_factory=dict)
    timestamp: int | None = None


@dataclass(frozen=True)
class ReadOptions:
    client: ClientConfig
    subscription: Subscription
    starting: OffsetSpec
    ending: OffsetSpec
    timestamp_strategy: str = "error"  # startingOffsetsByTimestampStrategy: error | latest
    include_headers: bool = False
    fail_on_data_loss: bool = True
    min_partitions: int | None = None
    max_records_per_partition: int | None = None
    max_offsets_per_trigger: int | None = None
    min_offsets_per_trigger: int | None = None
    max_trigger_delay_ms: int = 15 * 60 * 1000  # Spark's default, 15m
    poll_timeout_ms: int = 120000  # kafkaConsumer.pollTimeoutMs: Spark's default, 2 min
    offset_fetch_attempts: int = 3  # fetchOffset.numRetries (Spark counts the first try)
    offset_fetch_interval_ms: int = 10  # fetchOffset.retryIntervalMs
    isolation_level: int = READ_UNCOMMITTED
    partition_max_bytes: int = 10 * 1024 * 1024
    max_wait_ms: int = 500
    verify_crc: bool = True
    group_id: str = "spark-kafka-source"  # the executors' consumers' group.id (no commits)
    # the other kafka.* options, for the executors' consumers (checked by consumer_config)
    consumer_properties: tuple[tuple[str, str], ...] = ()
    # valueFormat / keyFormat avro, protobuf, json: as the options give them, and with the
    # reader schemas fixed on the driver (set by the data source before the reader runs)
    formats: RegistryRead | None = None
    planned: PlannedRead | None = None


@dataclass(frozen=True)
class WriteOptions:
    client: ClientConfig
    topic: str | None = None
    acks: int = -1
    compression: str | None = None
    max_batch_bytes: int = 1024 * 1024
    idempotent: bool = True
    # the producer's other Kafka properties (kafka.* options, "kafka." dropped; Java's
    # defaults for buffer.memory and max.request.size)
    producer_properties: tuple[tuple[str, str], ...] = ()
    create_topic: bool = False  # kafkawire.createTopic: create the topic option's topic
    create_partitions: int = 1
    create_replication_factor: int = 1  # -1: the broker's default
    # valueFormat / keyFormat avro: as the options give them, and with the writer schemas
    # fixed (registered) on the driver
    formats: RegistryWrite | None = None
    planned: PlannedWrite | None = None

    def producer(self) -> Producer:
        """The write task's producer."""
        return self.client.producer(self.producer_config())

    def flush_timeout(self) -> float:
        """Seconds a write task waits for acknowledgements at its end: by then each record
        has been delivered or has failed (delivery.timeout.ms, and the request in flight)."""
        delivery = int(dict(self.producer_properties).get("delivery.timeout.ms", 120000))
        return delivery / 1000 + self.client.request_timeout + 5

    def producer_config(self) -> dict[str, str]:
        return {
            "acks": "all" if self.acks == -1 else str(self.acks),
            "compression.type": self.compression or "none",
            "batch.size": str(self.max_batch_bytes),
            "enable.idempotence": "true" if self.idempotent else "false",
            **dict(self.producer_properties),
        }


def _subscription(opts: Options) -> Subscription:
    given = [name for name in _SUBSCRIPTIONS if name in opts]
    if len(given) != 1:
        raise OptionError(
            "exactly one of the options subscribe, subscribePattern and assign must be given"
            + (f", not {len(given)}: {given}" if given else "")
        )
    kind = given[0]
    value = opts.get(kind) or ""
    if kind == "subscribe":
        topics = tuple(t.strip() for t in value.split(",") if t.strip())
        if not topics:
            raise OptionError("option subscribe names no topic")
        return Subscription(kind, topics=topics)
    if kind == "subscribePattern":
        try:
            re.compile(value)
        except re.error as exc:
            raise OptionError(f"option subscribePattern is not a valid regex: {exc}") from None
        return Subscription(kind, pattern=value)
    assigned = _partition_json(kind, value, lambda v: isinstance(v, list), "a list of partitions")
    tps = tuple(
        TopicPartition(topic, _json_int(kind, p))
        for topic, parts in assigned.items()
        for p in parts
    )
    if not tps:
        raise OptionError("option assign names no partition")
    return Subscription(kind, assigned=tps)


def _partition_json(name: str, value: str, check, what: str) -> dict:
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise OptionError(f"option {name} is not valid JSON ({exc}): {value!r}") from None
    if not isinstance(parsed, dict) or not all(check(v) for v in parsed.values()):
        raise OptionError(f'option {name} must map each topic to {what}, e.g. {{"topic": ...}}')
    return parsed


def _json_int(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(str(value))
        except ValueError:
            raise OptionError(f"option {name}: {value!r} is not an integer") from None
    return value


def _per_partition(name: str, value: str) -> dict[TopicPartition, int]:
    parsed = _partition_json(name, value, lambda v: isinstance(v, dict), "an object")
    return {
        TopicPartition(topic, _json_int(name, p)): _json_int(name, n)
        for topic, parts in parsed.items()
        for p, n in parts.items()
    }


def _offset_spec(opts: Options, side: str, default: str, *, streaming: bool) -> OffsetSpec:
    """startingTimestamp > startingOffsetsByTimestamp > startingOffsets, as Spark ranks them."""
    timestamp = opts.optional_integer(f"{side}Timestamp", minimum=0)
    if timestamp is not None:
        return OffsetSpec("timestamp", timestamp=timestamp)
    by_timestamp = opts.get(f"{side}OffsetsByTimestamp")
    if by_timestamp is not None:
        return OffsetSpec("timestamps", _per_partition(f"{side}OffsetsByTimestamp", by_timestamp))
    name = f"{side}Offsets"
    value = (opts.get(name) or default).strip()
    if value.lower() in ("earliest", "latest"):
        kind = value.lower()
        if not streaming and (side, kind) in (("starting", "latest"), ("ending", "earliest")):
            raise OptionError(f"option {name} cannot be {kind} for batch queries")
        return OffsetSpec(kind)
    offsets = _per_partition(name, value)
    refused = LATEST if side == "starting" else EARLIEST
    if not streaming and refused in offsets.values():
        raise OptionError(
            f"option {name} cannot use {refused} "
            f"({'latest' if refused == LATEST else 'earliest'}) for batch queries"
        )
    bad = {tp: n for tp, n in offsets.items() if n < EARLIEST}
    if bad:
        raise OptionError(f"option {name}: offsets must be >= 0, -1 or -2, not {bad}")
    return OffsetSpec("offsets", offsets)


# kafka.* options the reader sets on its consumers itself (from the options, or fixed)
_READER_PROPERTIES = (
    "bootstrap.servers",
    "client.id",
    "request.timeout.ms",
    "socket.timeout.ms",
    "socket.connection.setup.timeout.ms",
    "isolation.level",
    "max.partition.fetch.bytes",
    "fetch.max.wait.ms",
    "check.crcs",
    "group.id",
)
# Spark's time strings (JavaUtils.timeStringAsMs): a number of ms, or with one of these units
_TIME_UNITS_MS = {
    "us": 0.001,
    "ms": 1,
    "s": 1000,
    "m": 60000,
    "min": 60000,
    "h": 3600000,
    "d": 86400000,
}


def _duration_ms(opts: Options, name: str, default: int) -> int:
    value = opts.get(name)
    if value is None:
        return default
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", value.lower())
    if not match or match.group(2) not in ("", *_TIME_UNITS_MS):
        raise OptionError(
            f"option {name} must be a duration such as 500ms, 30s, 15m, 2h or 1d "
            f"(a bare number is milliseconds), not {value!r}"
        )
    return int(int(match.group(1)) * _TIME_UNITS_MS.get(match.group(2), 1))


def check_read_options(options: Mapping[str, str]) -> ReadOptions:
    """What load() checks before Spark knows whether the read is a batch or a stream: options
    wrong for both raise OptionError. The rest is checked when the query starts. Returns the
    options as a batch (or else a stream) reads them."""
    try:
        return read_options(options, streaming=False)
    except OptionError:
        return read_options(options, streaming=True)  # raises unless they suit a stream


def read_options(options: Mapping[str, str], *, streaming: bool) -> ReadOptions:
    """Parse the options of a read; raises OptionError."""
    opts = Options(options)
    opts.check_names(
        (*READ_OPTIONS, *REGISTRY_READ_OPTIONS),
        "read",
        other=(*WRITE_OPTIONS, *REGISTRY_WRITE_OPTIONS),
    )
    if streaming:
        for name in ("endingOffsets", "endingTimestamp", "endingOffsetsByTimestamp"):
            if name in opts:
                raise OptionError(f"option {name} is for batch queries, not streaming ones")
    isolation = (opts.get("kafka.isolation.level") or "read_uncommitted").strip().lower()
    if isolation not in ("read_uncommitted", "read_committed"):
        raise OptionError("option kafka.isolation.level must be read_uncommitted or read_committed")
    strategy = (opts.get("startingOffsetsByTimestampStrategy") or "error").strip().lower()
    if strategy not in ("error", "latest"):
        raise OptionError("option startingOffsetsByTimestampStrategy must be error or latest")
    client = ClientConfig.from_options(opts)
    group_id = _group_id(opts)
    consumer_properties = opts.kafka_properties(leave_out=_READER_PROPERTIES)
    try:  # on the driver: a misspelled or malformed kafka.* option fails the query at once
        consumer_config(client.bootstrap_servers, consumer_properties, group_id=group_id)
    except ConfigError as exc:
        raise OptionError(f"the kafka.* options: {exc}") from None
    subscription = _subscription(opts)
    return ReadOptions(
        client=client,
        subscription=subscription,
        starting=_offset_spec(
            opts, "starting", "latest" if streaming else "earliest", streaming=streaming
        ),
        ending=OffsetSpec("latest")
        if streaming
        else _offset_spec(opts, "ending", "latest", streaming=False),
        timestamp_strategy=strategy,
        include_headers=opts.flag("includeHeaders", False),
        fail_on_data_loss=opts.flag("failOnDataLoss", True),
        min_partitions=opts.optional_integer("minPartitions", minimum=1),
        max_records_per_partition=opts.optional_integer("maxRecordsPerPartition", minimum=1),
        max_offsets_per_trigger=opts.optional_integer("maxOffsetsPerTrigger", minimum=1),
        min_offsets_per_trigger=opts.optional_integer("minOffsetsPerTrigger", minimum=1),
        max_trigger_delay_ms=_duration_ms(opts, "maxTriggerDelay", 15 * 60 * 1000),
        poll_timeout_ms=opts.integer("kafkaConsumer.pollTimeoutMs", 120000, minimum=1),
        offset_fetch_attempts=opts.integer("fetchOffset.numRetries", 3, minimum=1),
        offset_fetch_interval_ms=opts.integer("fetchOffset.retryIntervalMs", 10, minimum=0),
        isolation_level=READ_COMMITTED if isolation == "read_committed" else READ_UNCOMMITTED,
        partition_max_bytes=opts.integer(
            "kafka.max.partition.fetch.bytes", 10 * 1024 * 1024, minimum=1024
        ),
        max_wait_ms=opts.integer("kafka.fetch.max.wait.ms", 500, minimum=1),
        verify_crc=opts.flag("kafka.check.crcs", True),
        group_id=group_id,
        consumer_properties=tuple(consumer_properties.items()),
        formats=read_formats(opts, subscription),
    )


def _group_id(opts: Options) -> str:
    """kafka.group.id, or groupIdPrefix (Spark's default prefix) and a unique suffix, as
    Spark's source names its consumers' group; kafkawire's readers commit nothing to it."""
    group = opts.get("kafka.group.id")
    if group is not None:
        if not group.strip():
            raise OptionError("option kafka.group.id is empty")
        return group
    prefix = opts.get("groupIdPrefix", "spark-kafka-source")
    if not prefix.strip():
        raise OptionError("option groupIdPrefix is empty")
    return f"{prefix}-{uuid.uuid4()}"


_ACKS = {"all": -1, "-1": -1, "0": 0, "1": 1}
_CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
# kafka.* options the writer sets on its producer itself (from the options)
_WRITER_PROPERTIES = (
    "bootstrap.servers",
    "client.id",
    "request.timeout.ms",
    "socket.timeout.ms",
    "socket.connection.setup.timeout.ms",
    "acks",
    "compression.type",
    "batch.size",
    "enable.idempotence",
)
# Java's defaults where kafkawire's producer has others (librdkafka's)
_PRODUCER_DEFAULTS = {"buffer.memory": "33554432", "max.request.size": "1048576"}


def write_options(options: Mapping[str, str]) -> WriteOptions:
    """Parse the options of a write; raises OptionError."""
    opts = Options(options)
    opts.check_names(
        (*WRITE_OPTIONS, *REGISTRY_WRITE_OPTIONS),
        "write",
        other=(*READ_OPTIONS, *REGISTRY_READ_OPTIONS),
    )
    acks = (opts.get("kafka.acks") or "all").strip().lower()
    if acks not in _ACKS:
        raise OptionError(f"option kafka.acks must be all, -1, 0 or 1, not {acks!r}")
    codec = (opts.get("kafka.compression.type") or "none").strip().lower()
    if codec not in _CODECS:
        raise OptionError(f"option kafka.compression.type must be one of {_CODECS}")
    idempotence_given = "kafka.enable.idempotence" in opts
    idempotent = opts.flag("kafka.enable.idempotence", True)
    if idempotent and idempotence_given and _ACKS[acks] != -1:
        raise OptionError("kafka.enable.idempotence=true needs kafka.acks=all")
    topic = opts.get("topic")
    topic = topic.strip() if topic and topic.strip() else None
    client = ClientConfig.from_options(opts)
    # the other kafka.* options go to the producer, whose config refuses unknown names
    properties = {**_PRODUCER_DEFAULTS, **opts.kafka_properties(leave_out=_WRITER_PROPERTIES)}
    written = WriteOptions(
        client=client,
        topic=topic,
        acks=_ACKS[acks],
        compression=None if codec == "none" else codec,
        max_batch_bytes=opts.integer("kafka.batch.size", 1024 * 1024, minimum=1024),
        producer_properties=tuple(properties.items()),
        formats=write_formats(opts),
        **_create_topic(opts, topic),
    )
    config = written.producer_config()
    if not idempotence_given:  # as Java's producer: on unless a setting conflicts with it
        del config["enable.idempotence"]
    try:  # on the driver: a bad producer setting fails the query at once
        _, parsed = producer_config(client.bootstrap_servers, config)
    except ConfigError as exc:
        raise OptionError(f"the kafka.* producer options: {exc}") from None
    return replace(written, idempotent=parsed.enable_idempotence)


def _create_topic(opts: Options, topic: str | None) -> dict:
    """kafkawire.createTopic and its partitions and replication factor."""
    create = opts.flag("kafkawire.createTopic", False)
    partitions = opts.integer("kafkawire.createTopic.partitions", 1, minimum=1)
    replication = opts.integer("kafkawire.createTopic.replicationFactor", 1)
    if replication < 1 and replication != -1:
        raise OptionError(
            "option kafkawire.createTopic.replicationFactor must be at least 1, or -1 for the "
            f"broker's default, not {replication}"
        )
    if create and topic is None:
        raise OptionError(
            "option kafkawire.createTopic needs the topic option: the topics of a topic column "
            "are only known as the rows are written (create them beforehand)"
        )
    if not create:
        for name in ("kafkawire.createTopic.partitions", "kafkawire.createTopic.replicationFactor"):
            if name in opts:
                raise OptionError(f"option {name} needs kafkawire.createTopic=true")
    return {
        "create_topic": create,
        "create_partitions": partitions,
        "create_replication_factor": replication,
    }


# ---- schema-registry formats (valueFormat / keyFormat) -----------------------------------
# The options as given, and the schemas the driver fixes from them: kafkawire.spark._registry
# asks the registry for those schemas (plan_read, plan_write) and decodes and encodes with
# them; it imports these from here, never the other way round.

FORMATS = ("raw", "avro", "protobuf", "json")
COLUMNS = ("key", "value")


@dataclass(frozen=True)
class RegistryConfig:
    """The schema.registry.* options, picklable and hashable (the client cache's key)."""

    url: str
    # the other settings, confluent-kafka's names; out of the repr: they hold credentials
    settings: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def config(self) -> dict[str, str]:
        return {"url": self.url, **dict(self.settings)}


def _registry_config(opts: Options, needed: bool, formats: str) -> RegistryConfig | None:
    """The schema.registry.* options (None when no column has a registry format: they are
    then unused)."""
    settings = {
        name.removeprefix(REGISTRY_PREFIX): value
        for name, value in opts.items()
        if name.startswith(REGISTRY_PREFIX)
    }
    url = settings.pop("url", None)
    if not needed:
        return None
    if not url or not url.strip():
        raise OptionError(f"{formats} needs the option schema.registry.url")
    config = RegistryConfig(url.strip(), tuple(sorted(settings.items())))
    try:  # on the driver: a misspelled or malformed setting fails the query at once
        from kafkawire.registry.client import SchemaRegistryClient

        SchemaRegistryClient.from_config(config.config()).close()  # (no request is made)
    except (ValueError, TypeError) as exc:
        raise OptionError(f"the schema.registry.* options: {exc}") from None
    return config


def _format(opts: Options, name: str) -> str:
    value = (opts.get(name) or "raw").strip().lower()
    if value not in FORMATS:
        raise OptionError(f"option {name} must be one of {', '.join(FORMATS)}, not {value!r}")
    return value


def _schema_id(opts: Options, name: str) -> int | None:
    return opts.optional_integer(name, minimum=0)


@dataclass(frozen=True)
class ColumnRead:
    """One decoded column as the options ask for it (before the registry is asked)."""

    column: str  # "key" | "value"
    format: str  # "avro" | "protobuf" | "json"
    schema_id: int | None = None
    subject: str | None = None
    on_error: str = "raise"  # "raise" | "null"

    @property
    def error_column(self) -> str | None:
        return f"{self.column}Error" if self.on_error == "null" else None


@dataclass(frozen=True)
class RegistryRead:
    registry: RegistryConfig
    columns: tuple[ColumnRead, ...]


def read_formats(opts: Options, subscription: Subscription) -> RegistryRead | None:
    """The registry-format options of a read (None: key and value stay binary)."""
    columns = []
    for column in COLUMNS:
        fmt = _format(opts, f"{column}Format")
        schema_id = _schema_id(opts, f"{column}SchemaId")
        subject = opts.get(f"{column}Subject")
        subject = subject.strip() if subject and subject.strip() else None
        errors = (opts.get(f"{column}Errors") or "raise").strip().lower()
        if errors not in ("raise", "null"):
            raise OptionError(f"option {column}Errors must be raise or null, not {errors!r}")
        if fmt == "raw":
            for name in (f"{column}SchemaId", f"{column}Subject", f"{column}Errors"):
                if name in opts:
                    raise OptionError(
                        f"option {name} needs {column}Format avro, protobuf or json "
                        f"({column}Format is raw: the {column} stays binary)"
                    )
            continue
        if schema_id is not None and subject is not None:
            raise OptionError(f"give {column}SchemaId or {column}Subject, not both")
        if schema_id is None and subject is None and single_topic(subscription) is None:
            raise OptionError(
                f"{column}Format={fmt} reads several topics (or a pattern): the reader schema "
                f"cannot default to the topic's subject; give {column}Subject or "
                f"{column}SchemaId"
            )
        columns.append(ColumnRead(column, fmt, schema_id, subject, errors))
    registry = _registry_config(
        opts, bool(columns), " and ".join(f"{c.column}Format={c.format}" for c in columns)
    )
    if not columns:
        return None
    assert registry is not None
    return RegistryRead(registry, tuple(columns))


def single_topic(sub: Subscription) -> str | None:
    """The one topic a subscription names (subscribe or assign), or None."""
    if sub.kind == "subscribe" and len(sub.topics) == 1:
        return sub.topics[0]
    if sub.kind == "assign" and len({tp.topic for tp in sub.assigned}) == 1:
        return sub.assigned[0].topic
    return None


@dataclass(frozen=True)
class PlannedColumn:
    """A decoded column fixed on the driver: the reader schema and the Spark column's Arrow
    type."""

    read: ColumnRead
    reader: Schema
    arrow_type: pa.DataType  # the Spark-compatible Arrow type of the decoded struct


@dataclass(frozen=True)
class PlannedRead:
    registry: RegistryConfig
    columns: tuple[PlannedColumn, ...]


@dataclass(frozen=True)
class ColumnWrite:
    column: str  # "key" | "value"
    format: str  # "avro" | "json" | "protobuf"
    schema_id: int | None = None
    subject: str | None = None
    schema: str | None = None  # the Avro schema text given


@dataclass(frozen=True)
class RegistryWrite:
    registry: RegistryConfig
    columns: tuple[ColumnWrite, ...]
    strategy: str = "TopicNameStrategy"
    auto_register: bool = True
    use_latest: bool = False
    record_name: str = "topLevelRecord"
    record_namespace: str = ""

    def column(self, name: str) -> ColumnWrite:
        return next(c for c in self.columns if c.column == name)


def write_formats(opts: Options) -> RegistryWrite | None:
    """The registry-format options of a write (None: key and value written as they are)."""
    from kafkawire.registry.naming import strategy_name

    columns = []
    for column in COLUMNS:
        fmt = _format(opts, f"{column}Format")
        schema_id = _schema_id(opts, f"{column}SchemaId")
        subject = opts.get(f"{column}Subject")
        subject = subject.strip() if subject and subject.strip() else None
        text = opts.get(f"{column}Schema")
        if fmt == "raw":
            for name in (f"{column}SchemaId", f"{column}Subject", f"{column}Schema"):
                if name in opts:
                    raise OptionError(
                        f"option {name} needs {column}Format avro, json or protobuf "
                        f"({column}Format is raw)"
                    )
            continue
        if schema_id is not None and (subject is not None or text is not None):
            raise OptionError(f"give {column}SchemaId alone (not with {column}Subject/Schema)")
        if text is not None:
            try:
                json.loads(text)
            except json.JSONDecodeError as exc:
                if fmt != "protobuf":  # .proto text is not JSON
                    kind = "Avro JSON" if fmt == "avro" else "a JSON Schema"
                    raise OptionError(f"option {column}Schema is not {kind}: {exc}") from None
        columns.append(ColumnWrite(column, fmt, schema_id, subject, text))
    try:
        strategy = strategy_name(opts.get("subject.name.strategy") or "TopicNameStrategy")
    except ValueError as exc:
        raise OptionError(f"option subject.name.strategy: {exc}") from None
    registry = _registry_config(
        opts, bool(columns), " and ".join(f"{c.column}Format={c.format}" for c in columns)
    )
    if not columns:
        for name in REGISTRY_WRITE_OPTIONS:
            if name in opts and not name.endswith("Format"):
                raise OptionError(
                    f"option {name} needs valueFormat or keyFormat avro, json or protobuf"
                )
        return None
    assert registry is not None
    name = (opts.get("recordName") or "topLevelRecord").strip()
    return RegistryWrite(
        registry,
        tuple(columns),
        strategy=strategy,
        auto_register=opts.flag("auto.register.schemas", True),
        use_latest=opts.flag("use.latest.version", False),
        record_name=name,
        record_namespace=(opts.get("recordNamespace") or "").strip(),
    )


@dataclass(frozen=True)
class PlannedWrite:
    registry: RegistryConfig
    schemas: tuple[tuple[str, Schema], ...]  # (column, the writer schema with its id)
