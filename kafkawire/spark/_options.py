"""The options of the kafkawire data sources, named and interpreted as Spark's Kafka source
and sink name and interpret them (case-insensitively): the errors (``OptionError``,
``DataLossError``), every option's name (a read's, a write's, the schema-registry formats'),
``Options`` (the case-insensitive view with typed getters, which refuses the kafka.* options
kafkawire cannot follow), and what the parsers below share: the connection (``ClientConfig``:
the bootstrap servers, the TLS and SASL settings) and what a read subscribes to
(``Subscription``, which the registry formats' subject default depends on).

The options are parsed by ``_read_options`` (a read), ``_write_options`` (a write) and
``_registry_formats`` (valueFormat / keyFormat, which both call); each imports this module,
never the other way round."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field

from kafkawire.client import Client, Consumer, Producer, TopicPartition
from kafkawire.client.config.client import client_config
from kafkawire.client.errors import ConfigError
from kafkawire.client.sasl import sasl_authenticator
from kafkawire.errors import KafkawireError


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
# kafka.* options handed to the client as they are (TLS and SASL: kafkawire.client.config.client)
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
