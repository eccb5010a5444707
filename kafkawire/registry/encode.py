"""Arrow struct columns to schema-registry framed values (magic byte 0, the 4-byte big-endian
schema id, then the value's encoding), for the Spark sink and other producers; and writer
schemas derived from Arrow types. One module per format:

- Avro (:mod:`kafkawire.registry.avro_writer`): :func:`encode_avro`, :func:`writer_schema`,
  :func:`avro_schema_for` (its docstring has the Arrow to Avro type table);
- JSON Schema (:mod:`kafkawire.registry.json_writer`): :func:`encode_json`,
  :func:`json_validator`, :func:`json_schema_for`;
- Protobuf (:mod:`kafkawire.registry.proto_writer`): :func:`encode_protobuf`,
  :func:`proto_message`, :func:`proto_schema_for`.

Each checks every row against its schema before it is written and raises
:class:`EncodeError` naming the row and the field that does not fit.
"""

from __future__ import annotations

from kafkawire.registry.avro_writer import avro_schema_for, encode_avro, writer_schema
from kafkawire.registry.encode_columns import framing, list_parts
from kafkawire.registry.errors import EncodeError
from kafkawire.registry.json_writer import encode_json, json_schema_for, json_validator
from kafkawire.registry.proto_writer import encode_protobuf, proto_message, proto_schema_for

__all__ = [
    "EncodeError",
    "avro_schema_for",
    "encode_avro",
    "encode_json",
    "encode_protobuf",
    "framing",
    "json_schema_for",
    "json_validator",
    "list_parts",
    "proto_message",
    "proto_schema_for",
    "writer_schema",
]
