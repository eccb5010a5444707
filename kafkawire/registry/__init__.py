"""Schema-registry payloads to Arrow: Confluent Schema Registry framed values (Avro,
Protobuf, JSON Schema) decoded column-wise into typed Arrow columns.

- :class:`SchemaRegistryClient`: an HTTP(S) registry, or a directory of schemas by id.
- :func:`decode_column`: a binary column of framed values to a struct column (with each
  row's error and schema id); ``RecordView.decode_values`` / ``decode_keys`` and the consumer
  batches' methods of the same names call it.
- :class:`RegistryDeserializer`: those settings as one object, for
  ``Consumer(value_deserializer=...)`` (applied by ``poll_batch().to_arrow()``).

See docs/schema-registry.md. Needs the ``registry`` extra (pyarrow, fastavro, protobuf).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafkawire.registry.client import Reference, Schema, SchemaRegistryClient
from kafkawire.registry.errors import (
    PayloadError,
    RegistryError,
    RegistryUnavailableError,
    SchemaError,
    SchemaNotFoundError,
)

if TYPE_CHECKING:
    from kafkawire.registry.decode import Decoded, decode_column
    from kafkawire.registry.deserializer import RegistryDeserializer

__all__ = [
    "Decoded",
    "PayloadError",
    "Reference",
    "RegistryDeserializer",
    "RegistryError",
    "RegistryUnavailableError",
    "Schema",
    "SchemaError",
    "SchemaNotFoundError",
    "SchemaRegistryClient",
    "decode_column",
]


def __getattr__(name: str):
    # the decoders import pyarrow: only when asked for
    if name in ("Decoded", "decode_column"):
        from kafkawire.registry import decode

        return getattr(decode, name)
    if name == "RegistryDeserializer":
        from kafkawire.registry.deserializer import RegistryDeserializer

        return RegistryDeserializer
    raise AttributeError(f"module 'kafkawire.registry' has no attribute {name!r}")
