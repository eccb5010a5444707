"""Encoder of Kafka records: record batches (magic 2) and legacy message sets (magic 0/1)."""

from collections.abc import Iterable, Iterator
from typing import Any, TypeAlias

from kafkawire.compression import Codec

_Bytes: TypeAlias = bytes | bytearray | memoryview
_Compression: TypeAlias = Codec | int | str | None
# pyarrow arrays (binary, large_binary, string, large_string, binary_view, string_view,
# fixed_size_binary, null; chunked too), numpy 'S<n>' arrays, or sequences of bytes | None
_Column: TypeAlias = Any

class BatchBuilder:
    """Builds one record batch (magic 2) or legacy message set (magic 0 or 1).

    Records are written into a C buffer as they are appended; :meth:`build` returns the
    finished bytes.  Producer fields, the leader epoch and transactions need magic 2.

    :param magic: 2 (record batch), 1 or 0 (legacy message sets for old brokers).
    :param compression: None, a :class:`~kafkawire.compression.Codec`, its number or name.
        zstd needs magic 2.  For magic 0/1 the message set goes compressed into the value
        of one wrapper message (v1: relative inner offsets, the wrapper carrying the
        absolute offset of the last message and the largest timestamp).
    :param max_bytes: size the batch must stay within (records counted uncompressed).
        The first record always fits, whatever its size.  A compressed magic 2 batch that
        would exceed it (incompressible data) is written uncompressed instead.
    :param base_offset: offset of the first record; record i gets base_offset + i.
    :param partition_leader_epoch: -1 (as Java's producer writes) or the epoch.
    :param producer_id: -1 or the idempotent / transactional producer id.
    :param producer_epoch: -1 or the producer epoch (int16).
    :param base_sequence: -1 or the sequence number of the first record (int32).
    :param is_transactional: set the transactional attribute bit.
    :param timestamp_type: 0 create time, 1 log append time (magic 1 and 2).
    :raises EncodeError: an argument out of range or of the wrong type.
    """

    def __init__(
        self,
        *,
        magic: int = 2,
        compression: _Compression = None,
        max_bytes: int = 1048576,
        base_offset: int = 0,
        partition_leader_epoch: int = -1,
        producer_id: int = -1,
        producer_epoch: int = -1,
        base_sequence: int = -1,
        is_transactional: bool = False,
        timestamp_type: int = 0,
    ) -> None: ...
    def append(
        self,
        value: _Bytes | None,
        *,
        key: _Bytes | None = None,
        timestamp: int | None = None,
        headers: Iterable[tuple[str, _Bytes | None]] | None = (),
    ) -> bool:
        """Append one record with the next offset.

        :param value: the record value; None for a tombstone.
        :param key: the record key or None.
        :param timestamp: milliseconds since the epoch (>= 0, or -1 for none); None: now.
        :param headers: (key, value) pairs, keys str (written UTF-8), kept in order and
            with repeats.  Magic 2 only.
        :returns: False, appending nothing, when the record would push the batch past
            ``max_bytes`` (never for the first record); :attr:`is_full` is True from then
            on.  Build this batch and append the record to a new one (the README shows the
            loop), or let :func:`build_batches` or :class:`kafkawire.Producer` split them.
        :raises EncodeError: a value of the wrong type, headers with magic 0/1, or a call
            after :meth:`build`.
        """

    def set_producer(
        self,
        producer_id: int,
        producer_epoch: int,
        base_sequence: int,
        is_transactional: bool = False,
    ) -> None:
        """Set the producer fields (and the transactional bit) before :meth:`build`.

        :raises EncodeError: after build, a legacy magic, or a value out of range.
        """

    def build(self) -> bytes:
        """The finished batch, compressed if a codec was set.  Once only.

        Magic 2: baseOffset, batchLength, partitionLeaderEpoch, magic, CRC-32C (attributes
        to the end), attributes, lastOffsetDelta, baseTimestamp (the first record's),
        maxTimestamp, producerId, producerEpoch, baseSequence, recordCount, records.

        :raises EncodeError: called twice, or no record was appended.
        """

    @property
    def record_count(self) -> int:
        """Records appended so far."""

    @property
    def size_in_bytes(self) -> int:
        """Size of the batch as it stands, records counted uncompressed."""

    @property
    def is_full(self) -> bool:
        """True once an append was refused, or when not even a record with null key and
        value would still fit."""

def stamp_producer(
    batch: _Bytes,
    producer_id: int,
    producer_epoch: int,
    base_sequence: int,
    is_transactional: bool = False,
) -> bytes:
    """A copy of one magic 2 record batch with these producer fields and transactional bit,
    its CRC-32C computed again.

    :raises EncodeError: not a magic 2 batch, or a value out of range.
    """

def build_control_batch(
    *,
    commit: bool,
    producer_id: int,
    producer_epoch: int,
    coordinator_epoch: int = 0,
    base_offset: int = 0,
    timestamp: int | None = None,
    partition_leader_epoch: int = -1,
) -> bytes:
    """A transaction marker: a transactional control batch holding one control record.

    Its key is version 0 and type (1 commit, 0 abort), its value version 0 and the
    coordinator epoch, as Java's EndTransactionMarker writes them.

    :raises EncodeError: producer_id or producer_epoch negative or out of range.
    """

def build_batches(
    values: _Column,
    *,
    keys: _Column | None = None,
    timestamps: Any = None,
    headers: Any = None,
    compression: _Compression = None,
    max_bytes: int = 1048576,
    base_offset: int = 0,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    is_transactional: bool = False,
    partition_leader_epoch: int = -1,
    rows: Any = None,
) -> list[bytes]:
    """Encode columns of records into as many magic 2 batches as ``max_bytes`` needs.

    The output equals, byte for byte, appending the rows one by one to
    :class:`BatchBuilder` and starting a new batch whenever one is full; offsets and
    (when set) sequence numbers continue from batch to batch.  Arrow and numpy input is
    read from its buffers without a Python call per row.

    :param values: pyarrow Array or ChunkedArray of binary, large_binary, string,
        large_string, binary_view, string_view or fixed_size_binary (nulls: null values);
        a numpy 'S<n>' array (trailing NULs dropped, as numpy does); or a sequence of
        bytes-like / None (slow).
    :param keys: as values, or None for null keys.
    :param timestamps: int64 milliseconds as a numpy array (or datetime64), an Arrow
        integer or timestamp array (nulls: now), a sequence of ints, or None for now.
    :param headers: Arrow list<struct<key: string, value: binary>> (Spark's Kafka header
        column; null lists: no headers), a sequence of per-row (key, value) iterables,
        or None.
    :param rows: ascending row indices (an int array): only these rows are written, in
        this order, as if the columns had been gathered first (without the copy).  The
        producer passes each partition's rows.
    :raises EncodeError: columns of different lengths, unsupported types, a null header
        key, rows not integers, out of range or not ascending, or a producer field out of
        range.
    """

def iter_batches(
    values: _Column,
    *,
    keys: _Column | None = None,
    timestamps: Any = None,
    headers: Any = None,
    compression: _Compression = None,
    max_bytes: int = 1048576,
    base_offset: int = 0,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    is_transactional: bool = False,
    partition_leader_epoch: int = -1,
    rows: Any = None,
) -> Iterator[bytes]:
    """:func:`build_batches`' batches one at a time, each encoded when it is asked for: the
    first can be sent while the rest are not encoded yet, and only the batches not taken
    yet are held.  The columns are checked by the call, before the first batch.

    :raises EncodeError: as build_batches (a bad row in a Python sequence only when its
        batch is encoded).
    """

def murmur2(key: _Bytes) -> int:
    """Java Kafka's murmur2 hash of one key (a signed 32-bit int)."""

def key_partitions(keys: _Column, num_partitions: int) -> Any:
    """The partition of each row's key as Java's producer picks it (int32 numpy array;
    -1 for a null key, which the caller places)."""

def group_rows(parts: Any, num_partitions: int) -> tuple[Any, Any]:
    """The rows of each partition, in their order: (rows, starts), ``rows`` an int64 array
    of row indices sorted by partition (stable), partition p's at
    ``rows[starts[p]:starts[p + 1]]``.  ``parts``: each row's partition (int32 array).

    :raises ValueError: a partition outside [0, num_partitions), naming its row.
    """
