"""A write's options (a batch or a streaming query's), as Spark's Kafka sink reads them: the topic
(or a topic column), kafkawire.createTopic, and the producer's settings (kafka.acks, compression,
idempotence and the other kafka.* options, checked on the driver). ``write_options`` parses them
into ``WriteOptions``; the registry formats' part is ``_registry_formats``'."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from kafkawire.client import Producer
from kafkawire.client.errors import ConfigError
from kafkawire.client.producer.config import producer_config
from kafkawire.spark._options import (
    READ_OPTIONS,
    REGISTRY_READ_OPTIONS,
    REGISTRY_WRITE_OPTIONS,
    WRITE_OPTIONS,
    ClientConfig,
    OptionError,
    Options,
)
from kafkawire.spark._registry_formats import PlannedWrite, RegistryWrite, write_formats


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
