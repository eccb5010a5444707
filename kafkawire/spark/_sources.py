"""The Spark data sources (pyspark.sql.datasource, Spark 4.2+): Kafka topics through
kafkawire's client, and Kafka log-segment files."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import pyarrow as pa
from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamArrowWriter,
    DataSourceStreamReader,
    InputPartition,
    WriterCommitMessage,
)
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    SupportsTriggerAvailableNow,
)
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from kafkawire.client import Client, TopicPartition
from kafkawire.records.arrow import kafka_batches
from kafkawire.records.segments import DEFAULT_CHUNK_BYTES, SegmentFile, find_segments, read_views
from kafkawire.spark import SEGMENT_SOURCE_NAME, SOURCE_NAME
from kafkawire.spark._options import DataLossError, OptionError, Options
from kafkawire.spark._planning import (
    Bounds,
    OffsetRange,
    Offsets,
    check_ranges,
    clamp_ending_offsets,
    from_json,
    rate_limit,
    resolve_offsets,
    split_ranges,
    subscribed_partitions,
    to_json,
    with_retries,
)
from kafkawire.spark._read_options import ReadOptions, check_read_options, read_options
from kafkawire.spark._reading import log, read_offset_range
from kafkawire.spark._registry import plan_read, plan_write, read_schema
from kafkawire.spark._registry_formats import PlannedRead
from kafkawire.spark._write_options import WriteOptions, write_options
from kafkawire.spark._writing import check_input_schema, create_topic, write_batches

_HEADERS = ArrayType(
    StructType([StructField("key", StringType()), StructField("value", BinaryType())])
)


def kafka_schema(include_headers: bool = False) -> StructType:
    """Spark's Kafka source schema (headers only with includeHeaders=true)."""
    fields = [
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("timestamp", TimestampType()),
        StructField("timestampType", IntegerType()),
    ]
    if include_headers:
        fields.append(StructField("headers", _HEADERS))
    return StructType(fields)


def _check_schema(
    schema: StructType, include_headers: bool, source: str, planned: PlannedRead | None = None
) -> None:
    if schema != read_schema(kafka_schema(include_headers), planned):
        raise OptionError(
            f"the {source} source has a fixed schema (Spark's Kafka columns"
            f"{', with headers' if include_headers else ''}"
            f"{', the decoded key / value structs' if planned else ''}); do not give one"
        )


# ---- reading topics -----------------------------------------------------------------------


class KafkaPartition(InputPartition):
    """One Spark task: one offset range of one Kafka partition (None: nothing to read)."""

    def __init__(self, range: OffsetRange | None) -> None:
        self.range = range


def _tasks(ranges: list[OffsetRange], opts: ReadOptions) -> list[KafkaPartition]:
    ranges = split_ranges(
        ranges,
        min_partitions=opts.min_partitions,
        max_records_per_partition=opts.max_records_per_partition,
    )
    # Spark runs a read with no partitions as one task anyway: give it an empty one
    return [KafkaPartition(r) for r in ranges] or [KafkaPartition(None)]


def _read(opts: ReadOptions, partition: InputPartition) -> Iterator[pa.RecordBatch]:
    assert isinstance(partition, KafkaPartition)
    if partition.range is None:
        return iter(())
    return read_offset_range(opts, partition.range)


class KafkaBatchReader(DataSourceReader):
    """spark.read: the offset ranges are fixed when Spark plans the query."""

    def __init__(self, opts: ReadOptions) -> None:
        self.opts = opts

    def partitions(self) -> Sequence[InputPartition]:
        opts = self.opts
        with opts.client.client() as client:
            starts, ends, bounds = with_retries(
                lambda: self._offsets(client),
                opts.offset_fetch_attempts,
                opts.offset_fetch_interval_ms,
            )
        ends = clamp_ending_offsets(ends, bounds, fail_on_data_loss=opts.fail_on_data_loss)
        ranges = check_ranges(starts, ends, bounds, fail_on_data_loss=opts.fail_on_data_loss)
        return _tasks(ranges, opts)

    def _offsets(self, client: Client) -> tuple[Offsets, Offsets, Bounds]:
        """The starting and ending offsets of every partition read, and their bounds."""
        opts = self.opts
        tps = subscribed_partitions(client, opts.subscription)
        bounds = Bounds.fetch(client, tps, opts.isolation_level)
        starts = resolve_offsets(
            client,
            opts.starting,
            tps,
            bounds,
            starting=True,
            timestamp_strategy=opts.timestamp_strategy,
        )
        ends = resolve_offsets(client, opts.ending, tps, bounds, starting=False)
        return starts, ends, bounds

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        return _read(self.opts, partition)


class KafkaStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """readStream: offsets are Spark's Kafka offset JSON, {"topic": {"partition": offset}}.

    Spark keeps one instance in a long-lived planner process (initialOffset, latestOffset,
    partitions, commit), and pickles fresh ones to the executors for read().
    """

    def __init__(self, opts: ReadOptions) -> None:
        self.opts = opts
        self._client: Client | None = None
        self._target: Offsets | None = None  # Trigger.AvailableNow: the end, fixed up front
        self._latest: Offsets | None = None
        # monotonic time of the last micro-batch minOffsetsPerTrigger let through (none yet:
        # the first is never delayed, as in Spark's source)
        self._last_trigger = -math.inf

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_client": None, "_target": None, "_latest": None}

    @property
    def client(self) -> Client:
        if self._client is None:
            self._client = self.opts.client.client()
        return self._client

    def _current(self) -> tuple[list[TopicPartition], Bounds]:
        def fetch() -> tuple[list[TopicPartition], Bounds]:
            # a subscribed topic that does not exist yet is waited for, as Spark's stream does
            tps = subscribed_partitions(self.client, opts.subscription, missing_topics_ok=True)
            return tps, Bounds.fetch(self.client, tps, opts.isolation_level)

        opts = self.opts
        return with_retries(fetch, opts.offset_fetch_attempts, opts.offset_fetch_interval_ms)

    def initialOffset(self) -> dict:
        tps, bounds = self._current()
        starts = resolve_offsets(
            self.client,
            self.opts.starting,
            tps,
            bounds,
            starting=True,
            timestamp_strategy=self.opts.timestamp_strategy,
        )
        return to_json(starts)

    def getDefaultReadLimit(self) -> ReadLimit:
        limit = self.opts.max_offsets_per_trigger
        return ReadAllAvailable() if limit is None else ReadMaxRows(limit)

    def prepareForTriggerAvailableNow(self) -> None:
        _, bounds = self._current()
        self._target = dict(bounds.latest)

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        begin = from_json(start)
        # under Trigger.AvailableNow the end was fixed by prepareForTriggerAvailableNow
        latest = self._target if self._target is not None else self._current()[1].latest
        self._latest = latest = dict(latest)
        # partitions new to the query start at their beginning (as Spark's Kafka source)
        new = [tp for tp in latest if tp not in begin]
        starts = {tp: begin[tp] for tp in latest if tp in begin}
        starts.update(self.client.earliest_offsets(new) if new else {})
        if self._target is None and self._delayed(starts, latest):
            return start  # no micro-batch this time
        ends = latest
        if isinstance(limit, ReadMaxRows):
            ends = rate_limit(starts, ends, limit.max_rows)
        # partitions that are gone are left out; partitions() reports their loss
        return to_json(ends)

    def _delayed(self, starts: Offsets, latest: Offsets) -> bool:
        """minOffsetsPerTrigger: whether to skip this micro-batch, as Spark's source decides
        (fewer new records than asked for and less than maxTriggerDelay since the last
        micro-batch). Trigger.AvailableNow reads on to its end regardless."""
        wanted = self.opts.min_offsets_per_trigger
        if wanted is None:
            return False
        now = time.monotonic()
        if now - self._last_trigger < self.opts.max_trigger_delay_ms / 1000:
            available = sum(max(latest[tp] - starts[tp], 0) for tp in latest)
            if available < wanted:
                return True
        self._last_trigger = now
        return False

    def reportLatestOffset(self) -> dict | None:
        return None if self._latest is None else to_json(self._latest)

    def partitions(self, start: dict, end: dict) -> Sequence[InputPartition]:
        begin, finish = from_json(start), from_json(end)
        gone = sorted(set(begin) - set(finish))
        if gone:
            message = f"partitions {gone} are no longer subscribed or no longer exist"
            if self.opts.fail_on_data_loss:
                raise DataLossError(message)
            log.warning("%s; failOnDataLoss=false: going on without them", message)
        new = [tp for tp in finish if tp not in begin]
        if new:  # partitions that appeared in this batch start at their beginning
            begin.update(self.client.earliest_offsets(new))
        tps = sorted(finish)
        bounds = Bounds.fetch(self.client, tps, self.opts.isolation_level)
        ranges = check_ranges(
            {tp: begin[tp] for tp in tps},
            finish,
            bounds,
            fail_on_data_loss=self.opts.fail_on_data_loss,
        )
        return [t for t in _tasks(ranges, self.opts) if t.range is not None]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        return _read(self.opts, partition)

    def commit(self, end: dict) -> None:
        """Nothing to do: Spark's checkpoint holds the offsets (none are committed to Kafka)."""

    def stop(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


# ---- writing topics -----------------------------------------------------------------------


@dataclass
class KafkaCommitMessage(WriterCommitMessage):
    """What one write task produced: records per partition."""

    records: dict[TopicPartition, int] = field(default_factory=dict)


def _plan_write(opts: WriteOptions, schema: StructType) -> WriteOptions:
    """The input columns checked; with valueFormat / keyFormat avro the writer schemas
    registered (or looked up) on the driver, once, before any task."""
    check_input_schema(((f.name, f.dataType.simpleString()) for f in schema.fields), opts)
    if opts.formats is None:
        return opts
    types = {f.name.lower(): f.dataType for f in schema.fields}
    return replace(opts, planned=plan_write(opts.formats, opts.topic, types))


class KafkaBatchWriter(DataSourceArrowWriter):
    """df.write: each task produces its rows as they come (at-least-once, as Spark's sink)."""

    def __init__(self, options: dict[str, str], schema: StructType) -> None:
        self.opts = _plan_write(write_options(options), schema)
        create_topic(self.opts)  # on the driver, once, before any task

    def write(self, iterator: Iterator[pa.RecordBatch]) -> KafkaCommitMessage:
        return KafkaCommitMessage(write_batches(self.opts, iterator).records)

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        """Records are visible as soon as each produce is acknowledged: nothing to do."""

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        """Kafka cannot take records back: what failed tasks produced stays."""


class KafkaStreamWriter(DataSourceStreamArrowWriter):
    """writeStream: each micro-batch is produced as df.write does (at-least-once)."""

    def __init__(self, options: dict[str, str], schema: StructType) -> None:
        self.opts = _plan_write(write_options(options), schema)
        create_topic(self.opts)  # on the driver, once, before any task

    def write(self, iterator: Iterator[pa.RecordBatch]) -> KafkaCommitMessage:
        return KafkaCommitMessage(write_batches(self.opts, iterator).records)

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        """Nothing to do: the records were acknowledged when the tasks produced them."""

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        """Kafka cannot take records back: what failed tasks produced stays."""


class KafkaDataSource(DataSource):
    """Kafka topics: spark.read / readStream / write / writeStream .format("kafkawire")."""

    @classmethod
    def name(cls) -> str:
        return SOURCE_NAME

    def _include_headers(self) -> bool:
        return Options(self.options).flag("includeHeaders", False)

    def schema(self) -> StructType:
        # Spark asks for the schema in load(): the options are checked there, before any action
        check_read_options(self.options)
        return read_schema(kafka_schema(self._include_headers()), self._planned())

    def _planned(self) -> PlannedRead | None:
        """valueFormat / keyFormat: the reader schemas, asked of the registry once, in
        schema() (load()); Spark pickles this instance, so reader() and streamReader() get
        the same ones, whatever the subject's latest version is by then."""
        if "_planned_read" not in self.__dict__:
            opts = check_read_options(self.options)
            self._planned_read = (
                None if opts.formats is None else plan_read(opts.formats, opts.subscription)
            )
        return self._planned_read

    def _reader_options(self, streaming: bool) -> ReadOptions:
        opts = read_options(self.options, streaming=streaming)
        return replace(opts, planned=self._planned()) if opts.formats is not None else opts

    def reader(self, schema: StructType) -> DataSourceReader:
        opts = self._reader_options(streaming=False)
        _check_schema(schema, opts.include_headers, SOURCE_NAME, opts.planned)
        return KafkaBatchReader(opts)

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        opts = self._reader_options(streaming=True)
        _check_schema(schema, opts.include_headers, SOURCE_NAME, opts.planned)
        return KafkaStreamReader(opts)

    def writer(self, schema: StructType, overwrite: bool) -> KafkaBatchWriter:
        if overwrite:
            raise OptionError("Kafka topics cannot be overwritten: write with mode('append')")
        return KafkaBatchWriter(dict(self.options), schema)

    def streamWriter(self, schema: StructType, overwrite: bool) -> KafkaStreamWriter:
        return KafkaStreamWriter(dict(self.options), schema)


# ---- reading segment files ----------------------------------------------------------------


@dataclass(frozen=True)
class SegmentOptions:
    paths: tuple[str, ...]
    include_headers: bool
    fail_on_data_loss: bool
    verify_crc: bool
    chunk_bytes: int

    NAMES = ("path", "paths", "includeHeaders", "failOnDataLoss", "verifyCrc", "chunkBytes")

    @classmethod
    def parse(cls, options) -> SegmentOptions:
        opts = Options(options)
        opts.check_names(cls.NAMES, "log-segment read", other=())
        if "paths" in opts:  # load([a, b]): Spark passes a JSON list
            try:
                paths = tuple(json.loads(opts.get("paths") or "[]"))
            except json.JSONDecodeError:
                raise OptionError(f"option paths is not a JSON list: {opts.get('paths')}") from None
        else:
            paths = ()
        if opts.get("path"):
            paths = (opts.get("path"), *paths)
        if not paths:
            raise OptionError(f"{SEGMENT_SOURCE_NAME} needs a path: .load(path)")
        return cls(
            paths=tuple(os.fspath(p) for p in paths),
            include_headers=opts.flag("includeHeaders", False),
            fail_on_data_loss=opts.flag("failOnDataLoss", True),
            verify_crc=opts.flag("verifyCrc", True),
            chunk_bytes=opts.integer("chunkBytes", DEFAULT_CHUNK_BYTES, minimum=1024),
        )


class SegmentPartition(InputPartition):
    """One Spark task: one segment file (None: nothing to read)."""

    def __init__(self, segment: SegmentFile | None) -> None:
        self.segment = segment


class SegmentReader(DataSourceReader):
    def __init__(self, opts: SegmentOptions) -> None:
        self.opts = opts

    def partitions(self) -> Sequence[InputPartition]:
        segments = find_segments(self.opts.paths)
        return [SegmentPartition(s) for s in segments if s.size] or [SegmentPartition(None)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, SegmentPartition)
        segment = partition.segment
        if segment is None:
            return
        for chunk in read_views(
            segment,
            chunk_bytes=self.opts.chunk_bytes,
            verify_crc=self.opts.verify_crc,
            skip_corrupt=not self.opts.fail_on_data_loss,
        ):
            yield from kafka_batches(
                chunk.view,
                segment.topic,
                segment.partition,
                include_headers=self.opts.include_headers,
            )


class SegmentDataSource(DataSource):
    """Kafka log-segment files: spark.read.format("kafkawire_segments").load(path)."""

    @classmethod
    def name(cls) -> str:
        return SEGMENT_SOURCE_NAME

    def schema(self) -> StructType:
        # Spark asks for the schema in load(): the options are checked there, before any action
        return kafka_schema(SegmentOptions.parse(self.options).include_headers)

    def reader(self, schema: StructType) -> DataSourceReader:
        opts = SegmentOptions.parse(self.options)
        _check_schema(schema, opts.include_headers, SEGMENT_SOURCE_NAME)
        return SegmentReader(opts)
