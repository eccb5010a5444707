"""A read's options (a batch or a streaming query's), as Spark's Kafka source reads them: the
subscription (subscribe, subscribePattern, assign), where reading starts and ends (offsets,
timestamps), the streaming limits (maxOffsetsPerTrigger, ...) and the executors' consumers' settings
(the other kafka.* options, checked on the driver). ``read_options`` parses them into
``ReadOptions``; the registry formats' part is ``_registry_formats``'."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from kafkawire.client import EARLIEST, LATEST, READ_COMMITTED, READ_UNCOMMITTED, TopicPartition
from kafkawire.client.consumer.config import consumer_config
from kafkawire.client.errors import ConfigError
from kafkawire.spark._options import (
    _SUBSCRIPTIONS,
    READ_OPTIONS,
    REGISTRY_READ_OPTIONS,
    REGISTRY_WRITE_OPTIONS,
    WRITE_OPTIONS,
    ClientConfig,
    OptionError,
    Options,
    Subscription,
)
from kafkawire.spark._registry_formats import PlannedRead, RegistryRead, read_formats


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
