"""What a poll gives: ``PartitionRecords`` (one partition's records, a RecordView: no object
per record), and ``ConsumerBatch`` (a columnar poll's partitions, to Arrow through the
consumer's registry deserializers); ``DeserializationError`` when the consumer's deserializer
fails on a record."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kafkawire.records import ConsumerRecord, RecordView

from ..errors import ClientError
from ..types import ArrowFrames, TopicPartition

if TYPE_CHECKING:
    import pyarrow as pa


class DeserializationError(ClientError):
    """The consumer's key_deserializer or value_deserializer failed on a record: the records
    before it were handed out, the partition's position is this record's offset, and
    ``seek(topic_partition, offset + 1)`` steps over it."""

    def __init__(self, message: str, topic_partition: TopicPartition, offset: int) -> None:
        super().__init__(message)
        self.topic_partition = topic_partition
        self.offset = offset


@dataclass
class PartitionRecords(ArrowFrames):
    """The records one poll gives of one partition: a RecordView (no object per record)."""

    tp: TopicPartition
    view: RecordView

    def __len__(self) -> int:
        return len(self.view)

    @property
    def offsets(self) -> np.ndarray:
        return self.view.offsets

    @property
    def timestamps(self) -> np.ndarray:
        return self.view.timestamps

    @property
    def keys(self):
        return self.view.keys

    @property
    def values(self):
        return self.view.values

    @property
    def leader_epochs(self) -> np.ndarray:
        return self.view.batches["partition_leader_epoch"][self.view.batch_index]

    def records(self) -> list[ConsumerRecord]:
        """One ConsumerRecord per record (bytes copies of keys and values)."""
        return self.view.consumer_records(self.tp.topic, self.tp.partition)

    def to_arrow(self, *, include_headers: bool = True, binary: str = "plain") -> pa.Table:
        """The Kafka columns (key, value, topic, partition, offset, timestamp,
        timestampType[, headers]; see RecordView.to_arrow for ``binary``)."""
        return self.view.to_arrow(
            binary=binary,
            topic=self.tp.topic,
            partition=self.tp.partition,
            include_headers=include_headers,
        )


@dataclass
class ConsumerBatch(ArrowFrames):
    """What one columnar poll gives: each partition's records, in offset order."""

    partitions: list[PartitionRecords]
    # registry deserializers (kafkawire.registry.RegistryDeserializer) to_arrow() applies
    value_deserializer: Any = None
    key_deserializer: Any = None

    def __len__(self) -> int:
        return sum(len(p) for p in self.partitions)

    def __iter__(self) -> Iterator[ConsumerRecord]:
        for part in self.partitions:
            yield from part.records()

    def records(self) -> list[ConsumerRecord]:
        return [r for part in self.partitions for r in part.records()]

    def to_arrow(self, *, include_headers: bool = True, binary: str = "plain") -> pa.Table:
        """One table of every partition's rows (the Kafka columns, see RecordView.to_arrow),
        with the value and key columns decoded by the consumer's value_deserializer and
        key_deserializer, when it has them."""
        table = self._concat(True, binary)
        if self.value_deserializer is not None:
            table = self.value_deserializer.apply(table)
        if self.key_deserializer is not None:
            table = self.key_deserializer.apply(table, key=True)
        return table if include_headers else table.drop_columns(["headers"])

    def _kafka_table(self) -> pa.Table:
        return self._concat(True, "plain")

    def _concat(self, include_headers: bool, binary: str) -> pa.Table:
        import pyarrow as pa

        from kafkawire.records.arrow import arrow_schema

        tables = [
            p.to_arrow(include_headers=include_headers, binary=binary) for p in self.partitions
        ]
        if not tables:
            return arrow_schema(include_headers, binary).empty_table()
        return pa.concat_tables(tables)
