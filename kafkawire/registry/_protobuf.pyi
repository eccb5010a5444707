"""Protobuf payloads of a binary column to Arrow columns: the message-index pass and the
per-record loop (in C, src_c/protobuf_decode.c) over the program that
kafkawire/registry/protobuf.py compiles."""

from typing import Any

import numpy as np
import pyarrow as pa

FIELD_SIZE: int  # sizeof(kw_pb_field)
MESSAGE_SIZE: int  # sizeof(kw_pb_message)
MAX_INDEXES: int  # message indexes a payload may have (KW_PB_MAX_INDEXES)

class ColumnTable:
    """Columns laid out as ``layout`` says: one (kind, width, child0, nchildren) a column,
    with its Arrow type in ``types``; children of a column are consecutive entries."""

    def __init__(self, layout: list[tuple[int, int, int, int]], types: list[pa.DataType]): ...
    def finish(self, root: int) -> pa.Array:
        """The root column as a pyarrow array (the table is spent afterwards)."""
    def __len__(self) -> int: ...

class Program:
    """One compiled program (the C tables of src_c/protobuf_decode.h, packed by
    kafkawire.registry.protobuf); holds the arrays its C struct points into."""

    arrays: Any
    def __init__(
        self,
        msgs: bytes,
        fields: bytes,
        dense: Any,
        enum_numbers: Any,
        enum_names: Any,
        names: bytes,
        name_offsets: Any,
        root: int,
    ): ...

def single_schema_id(
    data: np.ndarray, value_starts: np.ndarray, value_ends: np.ndarray, valid: np.ndarray
) -> tuple[int, bool]:
    """(the schema id of every value data[value_starts[i]:value_ends[i]] when all are magic
    0 with one id (the usual column), else -1; whether every value's byte after the id is a
    0, Protobuf's message indexes [0]) (shared with the Avro module, _columns.pxi)."""

def scan_framing(
    data: np.ndarray, value_starts: np.ndarray, value_ends: np.ndarray, valid: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The registry framing of each value data[value_starts[i]:value_ends[i]] (shared with
    the Avro module, _columns.pxi): (starts after the prefix, magic byte or -1 for a null or
    empty value, the 4-byte schema id of magic-0 values or -1). Magic 0 needs 5 bytes, magic
    1 (a GUID) 17: shorter values keep magic -2."""

def first_message_everywhere(
    data: np.ndarray, starts: np.ndarray, ends: np.ndarray, keys: np.ndarray
) -> bool:
    """Whether every row with keys[i] >= 0 starts with the message indexes [0] (one zero
    byte): the usual column, which then needs no message_indexes arrays."""

def message_indexes(
    data: np.ndarray, starts: np.ndarray, ends: np.ndarray, keys: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Reads each framed row's message indexes (rows with keys[i] < 0 are passed over).

    Returns (payload starts int64, counts int32, indexes int32 [n, width], codes int32,
    offsets int64): a row's message is data[payload_start:end]; a row whose indexes do not
    read has count 0 and a nonzero code (its byte offset from the row's start)."""

def decode(
    table: ColumnTable,
    root_col: int,
    programs: list[Program],
    data: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    which: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Appends one row of column ``root_col`` a record: ``which[i]`` is the program of record
    i (its message is data[starts[i]:ends[i]]), -1 for a null row. Returns the failed
    records as (rows, codes, messages, fields, offsets) int arrays; their rows are null."""
