"""Executor-side writing: Arrow batches of (value, key, headers, topic, partition) rows
produced to Kafka, partitioned as Java's producer (which Spark's Kafka sink uses) does."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kafkawire.client import Client, TopicPartition, key_partitions
from kafkawire.spark._options import OptionError, WriteOptions


@dataclass
class _Sticky:
    """Records without key and partition go, a batch at a time, to one partition, then the
    next (Java's sticky partitioner, switching per Arrow batch rather than per byte count)."""

    next: dict[str, int] = field(default_factory=dict)

    def take(self, topic: str, num_partitions: int) -> int:
        p = self.next.get(topic)
        if p is None:
            p = random.randrange(num_partitions)
        self.next[topic] = (p + 1) % num_partitions
        return p % num_partitions


def _column(batch: pa.RecordBatch, name: str) -> pa.Array | None:
    index = batch.schema.get_field_index(name)
    return None if index < 0 else batch.column(index)


def check_input_schema(names_and_types: Iterable[tuple[str, str]], opts: WriteOptions) -> None:
    """Spark's Kafka sink rules for the input columns (Spark type names, lowercase):
    value (string/binary) required; key string/binary; topic string unless the topic option
    is set; partition int; headers array<struct<key:string,value:binary>>. Others are ignored.
    """
    types = {name.lower(): t for name, t in names_and_types}
    allowed = {
        "value": ("string", "binary"),
        "key": ("string", "binary"),
        "topic": ("string",),
        "partition": ("int",),
        "headers": ("array<struct<key:string,value:binary>>",),
    }
    if "value" not in types:
        raise OptionError("the data to write to Kafka needs a value column (string or binary)")
    if opts.topic is None and "topic" not in types:
        raise OptionError("the data to write to Kafka needs a topic column or the topic option")
    for name, ok in allowed.items():
        if name in types and types[name] not in ok:
            raise OptionError(f"column {name} must be of type {' or '.join(ok)}, not {types[name]}")


@dataclass
class ProduceCounts:
    """Records written per partition (the commit message of a write task)."""

    records: dict[TopicPartition, int] = field(default_factory=dict)


class BatchProducer:
    """Produces Arrow batches of Spark rows; one per write task, with its own client."""

    def __init__(self, opts: WriteOptions) -> None:
        self.opts = opts
        self.client: Client = opts.client.client()
        self.producer = self.client.idempotent_producer() if opts.idempotent else None
        self.sticky = _Sticky()
        self.num_partitions: dict[str, int] = {}
        self.counts = ProduceCounts()

    def close(self) -> None:
        self.client.close()

    def _partitions(self, topic: str) -> int:
        if topic not in self.num_partitions:
            self.num_partitions[topic] = len(self.client.partitions_for(topic))
        return self.num_partitions[topic]

    def write(self, batch: pa.RecordBatch) -> None:
        n = batch.num_rows
        if n == 0:
            return
        values = _column(batch, "value")
        keys = _column(batch, "key")
        headers = _column(batch, "headers")
        partition_col = _column(batch, "partition")
        if self.opts.topic is not None:
            topic_names, topic_index = [self.opts.topic], np.zeros(n, np.int32)
        else:
            topics = _column(batch, "topic")
            if topics is None or topics.null_count:
                raise OptionError(
                    "null topic in the data: give every row a topic or set the topic option"
                )
            encoded = pc.dictionary_encode(topics)
            topic_names = encoded.dictionary.to_pylist()
            topic_index = np.asarray(encoded.indices).astype(np.int32)
        partition = np.full(n, -1, np.int64)
        if partition_col is not None and partition_col.null_count < n:
            given = np.asarray(partition_col.fill_null(-1)).astype(np.int64)
            partition = given
        for t, topic in enumerate(topic_names):
            count = self._partitions(topic)
            in_topic = topic_index == t
            explicit = in_topic & (partition >= 0)
            if np.any(partition[explicit] >= count) or np.any(partition[in_topic] < -1):
                bad = sorted(set(partition[in_topic & ((partition >= count) | (partition < -1))]))
                raise OptionError(f"topic {topic!r} has {count} partitions: no partition {bad}")
            todo = in_topic & (partition < 0)
            if keys is not None and keys.null_count < n:
                keyed = todo & np.asarray(keys.is_valid())
                if keyed.any():
                    rows = np.flatnonzero(keyed)
                    partition[rows] = key_partitions(keys.take(pa.array(rows)), count)
                    todo &= ~keyed
            if todo.any():
                partition[todo] = self.sticky.take(topic, count)
        group = topic_index.astype(np.int64) * (1 << 31) + partition
        order = np.argsort(group, kind="stable")
        sorted_groups = group[order]
        cuts = np.flatnonzero(np.diff(sorted_groups)) + 1
        for rows in np.split(order, cuts):
            first = rows[0]
            tp = TopicPartition(topic_names[topic_index[first]], int(partition[first]))
            take = None if len(rows) == n else pa.array(rows)
            self._produce(tp, values, keys, headers, take)

    def _produce(self, tp, values, keys, headers, take) -> None:
        def pick(column):
            if column is None:
                return None
            return column if take is None else column.take(take)

        picked = pick(values)
        self.client.produce_columns(
            tp,
            picked,
            keys=pick(keys),
            headers=pick(headers),
            compression=self.opts.compression,
            acks=self.opts.acks,
            max_batch_bytes=self.opts.max_batch_bytes,
            producer=self.producer,
            timeout_ms=self.opts.timeout_ms,
        )
        self.counts.records[tp] = self.counts.records.get(tp, 0) + len(picked)


def write_batches(opts: WriteOptions, batches: Iterator[pa.RecordBatch]) -> ProduceCounts:
    producer = BatchProducer(opts)
    try:
        for batch in batches:
            producer.write(batch)
    finally:
        producer.close()
    return producer.counts
