"""A registry deserializer for record tables: the value (or key) column of the Kafka columns
(``to_arrow()`` of views, consumer batches, chunks) replaced by its decoded struct column."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyarrow as pa

from kafkawire.registry.decode import Decoded, OnError, decode_column, record_name
from kafkawire.registry.errors import PayloadError

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema, SchemaRegistryClient


@dataclass(frozen=True)
class RegistryDeserializer:
    """How to decode a registry-framed column: which registry, which reader schema (None:
    the newest writer schema of each batch), which format to insist on, and what to do with
    values that do not decode ("raise", or "null": a null row and the reason in an added
    ``valueError`` / ``keyError`` column)."""

    registry: SchemaRegistryClient
    reader_schema: Schema | int | None = None
    format: str | None = None
    on_error: OnError = "raise"

    def decode(self, column: pa.Array, headers: pa.Array | None = None, *, key: bool = False):
        """decode_column with these settings."""
        return decode_column(
            column,
            self.registry,
            headers=headers,
            key=key,
            reader_schema=self.reader_schema,
            format=self.format,
            on_error=self.on_error,
        )

    def decode_table(self, table: pa.Table, *, key: bool = False) -> Decoded:
        """The value (or key) column of a table of Spark's Kafka columns decoded; a value that
        does not decode is named by its record (topic, partition, offset), or by its row in a
        table without an offset column."""
        name = "key" if key else "value"
        headers = table.column("headers") if "headers" in table.column_names else None
        try:
            return self.decode(table.column(name).combine_chunks(), headers, key=key)
        except PayloadError as exc:
            offsets = table.column("offset") if "offset" in table.column_names else None
            if exc.row is None or offsets is None or not offsets[exc.row].is_valid:
                raise  # no record to name (a table without Kafka's columns): the row is named
            columns = dict(zip(table.column_names, table.columns, strict=True))
            raise exc.located(record_name(columns, exc.row)) from exc

    def apply(self, table: pa.Table, *, key: bool = False) -> pa.Table:
        """``table`` with its value (or key) column decoded."""
        name = "key" if key else "value"
        decoded: Decoded = self.decode_table(table, key=key)
        i = table.column_names.index(name)
        table = table.set_column(i, name, decoded.values)
        if self.on_error == "null":
            table = table.append_column(f"{name}Error", decoded.errors)
        return table
