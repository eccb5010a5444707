"""A registry deserializer for record tables: the value (or key) column of the Kafka columns
(``to_arrow()`` of views, consumer batches, chunks) replaced by its decoded struct column."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyarrow as pa

from kafkawire.registry.decode import Decoded, OnError, decode_column

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

    def apply(self, table: pa.Table, *, key: bool = False) -> pa.Table:
        """``table`` with its value (or key) column decoded."""
        name = "key" if key else "value"
        headers = table.column("headers") if "headers" in table.column_names else None
        decoded: Decoded = self.decode(table.column(name), headers, key=key)
        i = table.column_names.index(name)
        table = table.set_column(i, name, decoded.values)
        if self.on_error == "null":
            table = table.append_column(f"{name}Error", decoded.errors)
        return table
