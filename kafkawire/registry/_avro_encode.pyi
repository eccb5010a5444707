"""Arrow struct columns to Avro binary values in C (src_c/avro_encode.c): the compiled path
of kafkawire.registry.avro_writer.encode_avro."""

from typing import Any

import pyarrow as pa

ERROR_TEXT: dict[int, str]

class Unsupported(Exception):
    """The (schema, Arrow type) pair is not one the compiled path writes."""

class Program:
    """A compiled (schema, column) pair: raises Unsupported for pairs it does not write.
    ``rows``: the array whose nulls are null rows (default: ``column``)."""

    keep: Any
    paths: list[str]
    row_validity: pa.Buffer | None
    row_offset: int
    def __init__(
        self, column: pa.Array, schema: Any, named: dict, rows: pa.Array | None = None
    ) -> None: ...
    def encode(
        self, prefix: bytes, n: int
    ) -> tuple[pa.BinaryArray | None, tuple[int, str, str, int] | None]:
        """(the array, None), or (None, (row, field path, error text, code))."""
