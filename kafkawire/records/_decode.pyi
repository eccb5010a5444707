from collections.abc import Iterable, Iterator
from typing import Any, Literal, Protocol, overload

import numpy as np
import numpy.typing as npt

from kafkawire.compression import Codec
from kafkawire.registry.client import Schema, SchemaRegistryClient

Buffer = bytes | bytearray | memoryview | Any  # anything with the buffer protocol (mmap, ...)
Header = tuple[str, bytes | None]

class _AbortedTxn(Protocol):
    producer_id: int
    first_offset: int

AbortedTransactions = Iterable[tuple[int, int] | _AbortedTxn]

NO_TIMESTAMP: int
CREATE_TIME: int
LOG_APPEND_TIME: int
DEFAULT_MAX_DECOMPRESSED_SIZE: int
DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE: int

def crc32c(data: Buffer, value: int = 0) -> int: ...
def crc32c_using(implementation: str, data: Buffer, value: int = 0) -> int: ...
def crc32c_implementation() -> str: ...

class Record:
    """One record: offset, timestamp (ms, -1 when absent), key, value, headers."""

    @property
    def offset(self) -> int: ...
    @property
    def timestamp(self) -> int: ...
    @property
    def key(self) -> bytes | None: ...
    @property
    def value(self) -> bytes | None: ...
    @property
    def headers(self) -> list[Header]: ...

class ConsumerRecord:
    """A record as a consumer's poll gives it: topic, partition, offset, timestamp (ms, -1
    when absent), timestamp_type (0 CreateTime, 1 LogAppendTime, -1 none), key, value,
    headers, leader_epoch."""

    @property
    def topic(self) -> str: ...
    @property
    def partition(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def timestamp(self) -> int: ...
    @property
    def timestamp_type(self) -> int: ...
    @property
    def key(self) -> bytes | None: ...
    @property
    def value(self) -> bytes | None: ...
    @property
    def headers(self) -> list[Header]: ...
    @property
    def leader_epoch(self) -> int: ...
    @property
    def delivery_count(self) -> int | None:
        """A share group's delivery count (1 at the first delivery); None outside one."""

class ControlRecord(tuple[int, int, int]):
    """A control record: type 0 = ABORT, 1 = COMMIT."""

    def __new__(cls, version: int, type: int, coordinator_epoch: int) -> ControlRecord: ...
    @property
    def version(self) -> int: ...
    @property
    def type(self) -> int: ...
    @property
    def coordinator_epoch(self) -> int: ...
    @property
    def is_commit(self) -> bool: ...
    @property
    def is_abort(self) -> bool: ...

def parse_control_record(key: Buffer | None, value: Buffer | None) -> ControlRecord: ...

class RecordBatch:
    """One record batch (magic 2) or one top-level legacy message (magic 0/1)."""

    @property
    def base_offset(self) -> int: ...
    @property
    def last_offset(self) -> int: ...
    @property
    def next_offset(self) -> int: ...
    @property
    def partition_leader_epoch(self) -> int: ...
    @property
    def magic(self) -> int: ...
    @property
    def crc(self) -> int: ...
    @property
    def attributes(self) -> int: ...
    @property
    def compression(self) -> Codec: ...
    @property
    def timestamp_type(self) -> int: ...
    @property
    def is_transactional(self) -> bool: ...
    @property
    def is_control(self) -> bool: ...
    @property
    def has_delete_horizon(self) -> bool: ...
    @property
    def delete_horizon_ms(self) -> int: ...
    @property
    def producer_id(self) -> int: ...
    @property
    def producer_epoch(self) -> int: ...
    @property
    def base_sequence(self) -> int: ...
    @property
    def base_timestamp(self) -> int: ...
    @property
    def max_timestamp(self) -> int: ...
    @property
    def record_count(self) -> int: ...
    @property
    def byte_offset(self) -> int: ...
    @property
    def size_in_bytes(self) -> int: ...
    @property
    def control_record(self) -> ControlRecord | None: ...
    def raw(self) -> memoryview: ...
    def records(self) -> list[Record]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Record]: ...

class BatchReader(Iterator[RecordBatch]):
    @property
    def position(self) -> int: ...
    @property
    def leftover_bytes(self) -> int: ...
    def __next__(self) -> RecordBatch: ...

def read_batches(
    buf: Buffer,
    *,
    verify_crc: bool = True,
    max_decompressed_size: int = ...,
    max_total_decompressed_size: int = ...,
    aborted_transactions: AbortedTransactions | None = None,
    keep_control: bool = False,
    copy: bool | None = None,
) -> BatchReader:
    """Iterate the record batches of ``buf`` (every magic); a partial trailing batch
    ends the iteration quietly, a buffer without one complete batch (or that is not a
    record set) raises a DecodeError.

    :param keep_control: keep control batches (transaction markers), which a consumer
        never sees and which are left out by default.
    :param aborted_transactions: a fetch partition's aborted transactions: their
        batches are left out too (read_committed).
    :param max_decompressed_size: cap of one decompressed payload (256 MiB).
    :param max_total_decompressed_size: cap of all the payloads the iterator
        decompresses together (1 GiB).
    :param copy: the buffer policy (see :func:`decode_records`).
    """

class BinaryColumn:
    """Keys or values of a RecordView (memoryviews into the input)."""

    @property
    def lengths(self) -> npt.NDArray[np.int32]: ...
    @property
    def is_null(self) -> npt.NDArray[np.bool_]: ...
    @property
    def null_count(self) -> int: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> memoryview | None: ...
    def __iter__(self) -> Iterator[memoryview | None]: ...
    def to_pylist(self) -> list[bytes | None]: ...

class RecordView:
    """Columnar, zero-copy view of the records of a buffer."""

    offsets: npt.NDArray[np.int64]
    timestamps: npt.NDArray[np.int64]
    leftover_bytes: int  # of a slice: 0 unless it reaches the view's end
    next_offset: int  # where reading goes on; of a slice, the offset of the row after it
    @property
    def num_batches(self) -> int: ...
    @property
    def keys(self) -> BinaryColumn: ...
    @property
    def values(self) -> BinaryColumn: ...
    @property
    def header_offsets(self) -> npt.NDArray[np.int32]: ...
    @property
    def batch_index(self) -> npt.NDArray[np.int32]: ...
    @property
    def batches(self) -> dict[str, npt.NDArray[Any]]: ...
    @property
    def timestamp_types(self) -> npt.NDArray[np.int8]: ...
    def key(self, i: int) -> memoryview | None: ...
    def value(self, i: int) -> memoryview | None: ...
    def headers(self, i: int) -> list[Header]: ...
    def control_record(self, i: int) -> ControlRecord | None: ...
    def consumer_records(
        self, topic: str, partition: int, delivery_count: int = -1
    ) -> list[ConsumerRecord]:
        """One ConsumerRecord per row (bytes copies of keys and values)."""
    def to_arrow(
        self,
        *,
        binary: Literal["plain", "view", "large"] = "plain",
        topic: str | None = None,
        partition: int | None = None,
        include_headers: bool = True,
    ) -> Any:
        """A pyarrow Table in the Kafka columns' schema (Spark's Kafka source's): key, value,
        topic, partition, offset, timestamp[us, UTC], timestampType, headers
        (list<struct<key: string, value: binary>>; [] for a record without headers, null
        only for magic 0/1 records).

        :param binary: "plain" (binary, copied), "view" (binary_view pointing into the
            input: no copy) or "large" (large_binary).
        :param topic: fills the topic column (null when None).
        :param partition: fills the partition column (null when None).
        """
    def to_pandas(
        self,
        *,
        topic: str | None = None,
        partition: int | None = None,
        include_headers: bool = True,
    ) -> Any:
        """to_arrow()'s columns as a pandas DataFrame (needs pandas)."""
    def to_polars(
        self,
        *,
        topic: str | None = None,
        partition: int | None = None,
        include_headers: bool = True,
    ) -> Any:
        """to_arrow()'s columns as a polars DataFrame (needs polars)."""
    def decode_values(
        self,
        registry: SchemaRegistryClient,
        *,
        reader_schema: Schema | int | None = None,
        format: Literal["avro", "protobuf", "json"] | None = None,
        on_error: Literal["raise", "null"] = "raise",
    ) -> Any:
        """The registry-framed values decoded into a pyarrow StructArray (one row a record)."""
    def decode_keys(
        self,
        registry: SchemaRegistryClient,
        *,
        reader_schema: Schema | int | None = None,
        format: Literal["avro", "protobuf", "json"] | None = None,
        on_error: Literal["raise", "null"] = "raise",
    ) -> Any:
        """The registry-framed keys decoded into a pyarrow StructArray."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: int) -> Record: ...
    @overload
    def __getitem__(self, i: slice) -> RecordView:
        """Rows of a slice (step 1) as a RecordView sharing this one's memory."""
    def __iter__(self) -> Iterator[Record]: ...

def decode_records(
    buf: Buffer,
    *,
    verify_crc: bool = True,
    max_decompressed_size: int = ...,
    max_total_decompressed_size: int = ...,
    aborted_transactions: AbortedTransactions | None = None,
    keep_control: bool = False,
    copy: bool | None = None,
) -> RecordView:
    """Decode every record in ``buf`` into a columnar :class:`RecordView`.

    A partial trailing batch is left over (``view.leftover_bytes``); a buffer without
    one complete batch (or that is not a record set) raises a DecodeError.

    :param keep_control: keep the records of control batches (transaction markers;
        ``view.control_record(i)`` reads them), which are left out by default as a
        consumer sees the log.
    :param aborted_transactions: a fetch partition's aborted transactions: their
        records are left out too (read_committed).
    :param max_decompressed_size: cap of one decompressed payload (256 MiB).
    :param max_total_decompressed_size: cap of all the payloads of the call
        together (1 GiB); past either cap, LimitExceededError.
    :param copy: the buffer policy.  None (default): an input that cannot change
        (bytes, a read-only buffer: read-only mmap, memoryview of bytes) is viewed
        in place, a writable one (bytearray, writable mmap or numpy array) is
        copied first, so that what the view reads cannot change under it.  True:
        always copy.  False: never copy; writes to a writable input show through
        the view.
    """
