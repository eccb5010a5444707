"""The client's value types: topic partitions, cluster metadata, offsets, fetched records."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from kafkawire.protocol.error_codes import raise_for_code

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

    from kafkawire.records import RecordView

EARLIEST = -2  # ListOffsets' timestamp for the log start offset
LATEST = -1  # ... and for the end (high watermark / last stable offset)
READ_UNCOMMITTED = 0
READ_COMMITTED = 1

NO_TOPIC_ID = uuid.UUID(int=0)


class TopicPartition(NamedTuple):
    topic: str
    partition: int


class PartitionInfo(NamedTuple):
    partition: int
    leader: int
    leader_epoch: int
    replicas: list[int]
    isr: list[int]
    error_code: int


class TopicInfo(NamedTuple):
    name: str
    topic_id: uuid.UUID
    partitions: dict[int, PartitionInfo]
    error_code: int
    is_internal: bool


@dataclass
class ClusterMetadata:
    brokers: dict[int, tuple[str, int]]
    topics: dict[str, TopicInfo]
    controller_id: int
    cluster_id: str | None


class OffsetAndTimestamp(NamedTuple):
    offset: int
    timestamp: int


class OffsetAndMetadata(NamedTuple):
    """A group's committed offset of a partition: the next offset to read."""

    offset: int
    metadata: str = ""
    leader_epoch: int | None = None  # of the last record read; None when unknown


class ProduceResult(NamedTuple):
    base_offset: int  # of the first batch sent (-1 with acks=0)
    log_append_time: int  # -1 unless the topic uses LogAppendTime
    log_start_offset: int


class RecordMetadata(NamedTuple):
    """Where the broker put a produced record (offset -1: unknown, as with acks=0)."""

    topic: str
    partition: int
    offset: int
    timestamp: int  # the record's create time, or the broker's with LogAppendTime


@dataclass
class FetchedPartition:
    """One partition of a Fetch response: the raw record batches and the partition's state."""

    tp: TopicPartition
    records: memoryview
    error_code: int
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    aborted_transactions: list[tuple[int, int]] | None
    # KIP-392: the replica the leader says to fetch this partition from (-1: the leader)
    preferred_read_replica: int = -1

    def raise_for_error(self) -> None:
        raise_for_code(self.error_code, f"{self.tp.topic}-{self.tp.partition}")


class ArrowFrames:
    """to_pandas(), to_polars() and the registry decoders for the record collections that
    have to_arrow()."""

    def to_arrow(self, *, include_headers: bool = True) -> pa.Table:
        raise NotImplementedError

    def _kafka_table(self) -> pa.Table:
        """The Kafka columns as stored (no deserializer applied)."""
        return self.to_arrow(include_headers=True)

    def decode_values(self, registry, *, reader_schema=None, format=None, on_error="raise"):
        """The registry-framed values decoded into a pyarrow StructArray, one row a record
        (see RecordView.decode_values and kafkawire.registry)."""
        return self._decode(registry, False, reader_schema, format, on_error)

    def decode_keys(self, registry, *, reader_schema=None, format=None, on_error="raise"):
        """The registry-framed keys decoded as decode_values decodes the values."""
        return self._decode(registry, True, reader_schema, format, on_error)

    def _decode(self, registry, key, reader_schema, format, on_error):
        from kafkawire.registry.deserializer import RegistryDeserializer

        spec = RegistryDeserializer(registry, reader_schema, format, on_error)
        return spec.decode_table(self._kafka_table(), key=key).values

    def to_pandas(self, *, include_headers: bool = True):
        """to_arrow()'s columns as a pandas DataFrame (needs pandas); partition is pandas'
        nullable Int32, as a RecordView's."""
        from kafkawire.records.arrow import to_pandas

        return to_pandas(self.to_arrow(include_headers=include_headers))

    def to_polars(self, *, include_headers: bool = True):
        """to_arrow()'s columns as a polars DataFrame (needs polars)."""
        import polars

        return polars.from_arrow(self.to_arrow(include_headers=include_headers))


@dataclass
class RecordChunk(ArrowFrames):
    """Rows ``start:stop`` of a RecordView: the records of one fetch inside the asked range."""

    tp: TopicPartition
    view: RecordView
    start: int
    stop: int
    next_offset: int  # where the next chunk of the partition begins

    def __len__(self) -> int:
        return self.stop - self.start

    @property
    def offsets(self) -> np.ndarray:
        return self.view.offsets[self.start : self.stop]

    @property
    def timestamps(self) -> np.ndarray:
        return self.view.timestamps[self.start : self.stop]

    def to_arrow(self, *, binary: str = "plain", include_headers: bool = True) -> pa.Table:
        """A pyarrow Table of the chunk's rows in the Kafka columns (key, value, topic,
        partition, offset, timestamp, timestampType, headers); see RecordView.to_arrow."""
        import pyarrow as pa

        from kafkawire.records.arrow import arrow_schema, kafka_batches

        batches = kafka_batches(
            self.view,
            self.tp.topic,
            self.tp.partition,
            include_headers=include_headers,
            binary=binary,
            start=self.start,
            stop=self.stop,
            max_rows=max(len(self), 1),
        )
        return pa.Table.from_batches(batches, schema=arrow_schema(include_headers, binary))


@dataclass
class IdempotentProducer:
    """A producer id and epoch with the next sequence number of each partition."""

    producer_id: int
    producer_epoch: int
    sequences: dict[TopicPartition, int] = field(default_factory=dict)

    def next_fields(self, tp: TopicPartition) -> dict[str, int]:
        """The producer fields of the next batch to ``tp`` (as build_batches takes them)."""
        return {
            "producer_id": self.producer_id,
            "producer_epoch": self.producer_epoch,
            "base_sequence": self.sequences.get(tp, 0),
        }

    def advance(self, tp: TopicPartition, records: int) -> None:
        # sequence numbers wrap at 2^31 as Java's producer does
        self.sequences[tp] = (self.sequences.get(tp, 0) + records) & 0x7FFFFFFF
