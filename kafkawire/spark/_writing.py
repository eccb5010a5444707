"""Writing: Arrow batches of (value, key, headers, topic, partition) rows produced to Kafka by
kafkawire's Producer, which partitions keyed rows as Java's producer (and so Spark's Kafka
sink) does."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kafkawire.client import BatchMetadata, Client, DeliveryTimeoutError, TopicPartition
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.spark._options import OptionError
from kafkawire.spark._registry import encode_batch
from kafkawire.spark._write_options import WriteOptions


def _column(batch: pa.RecordBatch, name: str) -> pa.Array | None:
    index = batch.schema.get_field_index(name)
    return None if index < 0 else batch.column(index)


def check_input_schema(names_and_types: Iterable[tuple[str, str]], opts: WriteOptions) -> None:
    """Spark's Kafka sink rules for the input columns (Spark type names, lowercase):
    value (string/binary) required; key string/binary; topic string unless the topic option
    is set; partition int; headers array<struct<key:string,value:binary>>. Others are ignored.
    A key or value with keyFormat / valueFormat avro must be a struct instead.
    """
    types = {name.lower(): t for name, t in names_and_types}
    encoded = {c.column for c in opts.formats.columns} if opts.formats is not None else set()
    allowed = {
        "value": ("string", "binary"),
        "key": ("string", "binary"),
        "topic": ("string",),
        "partition": ("int",),
        "headers": ("array<struct<key:string,value:binary>>",),
    }
    if "value" not in types:
        raise OptionError(
            "the data to write to Kafka needs a value column ("
            + ("a struct" if "value" in encoded else "string or binary")
            + ")"
        )
    for name in sorted(encoded):  # valueFormat / keyFormat avro: encoded from a struct
        if name not in types:
            raise OptionError(f"{name}Format is set but the data has no {name} column")
        if not types[name].startswith("struct<"):
            raise OptionError(
                f"{name}Format={opts.formats.column(name).format}: column {name} must be a "
                f"struct (encoded with the schema registry's framing), not {types[name]}"
            )
        del allowed[name]
    if opts.topic is None and "topic" not in types:
        raise OptionError("the data to write to Kafka needs a topic column or the topic option")
    for name, ok in allowed.items():
        if name in types and types[name] not in ok:
            raise OptionError(f"column {name} must be of type {' or '.join(ok)}, not {types[name]}")


def create_topic(opts: WriteOptions) -> None:
    """kafkawire.createTopic (on the driver, before any task): create the topic option's
    topic unless it exists."""
    if not opts.create_topic:
        return
    assert opts.topic is not None  # write_options refuses createTopic without it
    with opts.client.client() as client:
        client.create_topics(
            {opts.topic: opts.create_partitions},
            replication_factor=opts.create_replication_factor,
            exist_ok=True,
        )


@dataclass
class ProduceCounts:
    """Records written per partition (the commit message of a write task)."""

    records: dict[TopicPartition, int] = field(default_factory=dict)

    def add(self, sent: BatchMetadata) -> None:
        partitions, counts = np.unique(sent.partitions, return_counts=True)
        for p, n in zip(partitions.tolist(), counts.tolist(), strict=True):
            tp = TopicPartition(sent.topic, p)
            self.records[tp] = self.records.get(tp, 0) + n


def _take(column: pa.Array | None, rows: np.ndarray | None) -> pa.Array | None:
    return column if column is None or rows is None else column.take(pa.array(rows))


def _runs(explicit: np.ndarray) -> Iterator[tuple[bool, np.ndarray | None]]:
    """The rows in runs that all name their partition or all leave it to the partitioner
    (in order, so that a partition's records keep the order of the input): (whether they
    name it, row indices or None for all)."""
    if explicit.all() or not explicit.any():
        yield bool(explicit[0]), None
        return
    cuts = np.flatnonzero(np.diff(explicit.astype(np.int8))) + 1
    for rows in np.split(np.arange(len(explicit)), cuts):
        yield bool(explicit[rows[0]]), rows


class BatchProducer:
    """Produces the Arrow batches of one write task through one Producer."""

    def __init__(self, opts: WriteOptions) -> None:
        self.opts = opts
        self.producer = opts.producer()
        self.pending: deque = deque()  # send_batch's futures, oldest first
        self.counts = ProduceCounts()
        self._client: Client | None = None  # for the partition counts a partition column needs
        self._partition_counts: dict[str, int] = {}

    def close(self, timeout: float | None) -> None:
        try:
            self.producer.close(timeout)
        finally:
            if self._client is not None:
                self._client.close()

    def _partitions(self, topic: str) -> int:
        if topic not in self._partition_counts:
            if self._client is None:
                self._client = self.opts.client.client()
            self._partition_counts[topic] = len(self._client.partitions_for(topic))
        return self._partition_counts[topic]

    def write(self, batch: pa.RecordBatch) -> None:
        n = batch.num_rows
        if n == 0:
            return
        columns = {
            "values": _column(batch, "value"),
            "keys": _column(batch, "key"),
            "headers": _column(batch, "headers"),
        }
        partition = _column(batch, "partition")
        if partition is None or partition.null_count == n:
            explicit, given = np.zeros(n, bool), None
        else:
            explicit = np.asarray(partition.is_valid())
            given = np.asarray(partition.fill_null(0)).astype(np.int32)
        if self.opts.topic is not None:
            by_topic = [(self.opts.topic, None)]
        else:
            topics = _column(batch, "topic")
            if topics is None or topics.null_count:
                raise OptionError(
                    "null topic in the data: give every row a topic or set the topic option"
                )
            encoded = pc.dictionary_encode(topics)
            names = encoded.dictionary.to_pylist()
            index = np.asarray(encoded.indices)
            by_topic = [
                (name, None if len(names) == 1 else np.flatnonzero(index == t))
                for t, name in enumerate(names)
            ]
        try:
            if given is not None:  # every partition the batch names is checked before a row goes
                for topic, rows in by_topic:
                    named = explicit if rows is None else explicit[rows]
                    self._check(topic, (given if rows is None else given[rows])[named])
            for topic, rows in by_topic:
                in_topic = explicit if rows is None else explicit[rows]
                for named, run in _runs(in_topic):
                    picked = run if rows is None else (rows if run is None else rows[run])
                    partitions = None
                    if named:  # given is set: some rows name their partition
                        partitions = given if picked is None else given[picked]
                    sent = {name: _take(column, picked) for name, column in columns.items()}
                    self._send(topic, sent, partitions)
        except UnknownTopicOrPartitionError as exc:
            if self.opts.create_topic:
                raise
            raise UnknownTopicOrPartitionError(
                f"{exc.message}; the option kafkawire.createTopic=true (with the topic "
                "option) creates it before the write"
            ) from exc

    def _check(self, topic: str, partitions: np.ndarray) -> None:
        count = self._partitions(topic)
        bad = (partitions < 0) | (partitions >= count)
        if bad.any():
            missing = sorted(set(partitions[bad].tolist()))
            raise OptionError(
                f"topic {topic!r} has {count} partition{'' if count == 1 else 's'}: no "
                f"partition {missing} (named by the "
                "rows' partition column; a DataFrame read from another topic keeps that "
                "topic's partitions there: drop the column, df.drop('partition'), to let the "
                "producer partition the rows)"
            )

    def _send(self, topic: str, columns: dict, partitions: np.ndarray | None) -> None:
        future = self.producer.send_batch(topic, partitions=partitions, **columns)
        self.pending.append(future)
        while self.pending and self.pending[0].done():  # a failure fails the task at once
            self.counts.add(self.pending.popleft().result(0))

    def finish(self) -> ProduceCounts:
        """Wait for every record's acknowledgement; the first failure raised."""
        timeout = self.opts.flush_timeout()
        left = self.producer.flush(timeout)
        while self.pending:
            future = self.pending.popleft()
            if future.done():
                self.counts.add(future.result(0))
        if left:
            raise DeliveryTimeoutError(
                f"{left} records still not acknowledged {timeout:g} s after the last was sent"
            )
        return self.counts


def write_batches(opts: WriteOptions, batches: Iterator[pa.RecordBatch]) -> ProduceCounts:
    """One write task: its batches produced, each record acknowledged (or the task fails with
    the producer's error, which names the partition)."""
    producer = BatchProducer(opts)
    done = False
    try:
        for batch in batches:
            if opts.planned is not None:
                batch = encode_batch(batch, opts.planned)
            producer.write(batch)
        counts = producer.finish()
        done = True
        return counts
    finally:
        # after a failure what is still queued is given up at once (the task fails anyway)
        producer.close(5.0 if done else 0)
