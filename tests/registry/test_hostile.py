"""What the registry_* fuzz targets (fuzz/targets.py) found in kafkawire.registry's decoders,
pinned as ordinary tests (docs/hostile-input.md). The fuzz inputs themselves are in
fuzz/corpus/registry_*/regress-* and replay through tests/test_fuzz_corpus.py."""

from __future__ import annotations

import json
import struct

import pyarrow as pa
import pytest

from kafkawire.registry import PayloadError, Schema, SchemaNotFoundError
from kafkawire.registry.decode import decode_column


class Registry:
    """schema_by_id / schema_by_guid / references over a few schemas."""

    def __init__(self, schemas: dict[int, Schema]):
        self.by_id = schemas

    def schema_by_id(self, schema_id: int) -> Schema:
        if schema_id not in self.by_id:
            raise SchemaNotFoundError(f"schema id {schema_id} not found")
        return self.by_id[schema_id]

    def schema_by_guid(self, guid: str) -> Schema:
        raise SchemaNotFoundError(f"schema guid {guid} not found")

    def references(self, schema: Schema) -> dict:
        return {}


def avro(schema, schema_id: int = 1) -> Registry:
    return Registry({schema_id: Schema(json.dumps(schema), "AVRO", schema_id=schema_id)})


def framed(schema_id: int, payload: bytes) -> bytes:
    return b"\0" + struct.pack(">I", schema_id) + payload


def test_an_empty_string_or_bytes_as_the_first_value_of_a_column():
    # kw_col_binary copied 0 bytes to the column's data buffer before it had one:
    # memcpy(NULL + 0, p, 0), undefined behaviour (UBSan: "null pointer passed as argument 1").
    # Fuzz input fuzz/corpus/registry_avro/regress-empty-first-string.
    for schema in ("string", "bytes", ["null", "long", "string"]):
        empty = b"\x04\x00" if isinstance(schema, list) else b"\x00"
        column = pa.array([framed(1, empty), framed(1, empty[:-1] + b"\x02x")], pa.binary())
        decoded = decode_column(column, avro(schema))
        decoded.values.validate(full=True)
        value = decoded.values.field("value")
        if isinstance(schema, list):
            value = value.field("member1")
        want = ["", "x"] if schema != "bytes" else [b"", b"x"]
        assert value.to_pylist() == want, schema


def test_a_json_map_key_that_is_not_utf8_is_an_error_row():
    # Fuzz input (registry_json): b"\x00\x00\x00" + b'{"attrs": {"\xff": 1}}' (schema id 21's
    # attrs is a map). Arrow's JSON reader does not check UTF-8, and the parse that discovers
    # a map's keys (as Arrow field names) ran before the rows that are not UTF-8 were set
    # aside: b"\xff" escaped decode_column as UnicodeDecodeError (the whole column, with
    # on_error="null" too).
    schema = {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}},
    }
    registry = Registry({1: Schema(json.dumps(schema), "JSON", schema_id=1)})
    column = pa.array([framed(1, b'{"m": {"\xff": 1}}'), framed(1, b'{"m": {"a": 2}}')])
    decoded = decode_column(column, registry, on_error="null")
    assert decoded.values.to_pylist() == [None, {"m": [("a", 2)]}]
    assert "not UTF-8" in decoded.errors[0].as_py()
    with pytest.raises(PayloadError, match="row 0: the JSON payload is not UTF-8"):
        decode_column(column, registry)


def test_a_record_that_fails_anywhere_leaves_no_trace_in_the_columns():
    # a failed record is undone from the root's row count alone (kw_col_truncate): cut a
    # value with lists, maps, nested records and nulls at every byte, put it between two good
    # ones, and the good rows and every buffer must be as if it had been null from the start
    import io

    import fastavro

    schema = {
        "type": "record",
        "name": "R",
        "fields": [
            {
                "name": "items",
                "type": {
                    "type": "array",
                    "items": {
                        "type": "record",
                        "name": "Item",
                        "fields": [
                            {"name": "name", "type": "string"},
                            {"name": "qty", "type": ["null", "long"]},
                            {"name": "ok", "type": "boolean"},
                        ],
                    },
                },
            },
            {"name": "attrs", "type": {"type": "map", "values": ["null", "string"]}},
            {"name": "note", "type": ["null", "string"]},
            {"name": "n", "type": "long"},
        ],
    }
    value = {
        "items": [
            {"name": "a", "qty": None, "ok": True},
            {"name": "bb", "qty": 7, "ok": False},
            {"name": "ccc", "qty": None, "ok": True},
        ],
        "attrs": {"x": None, "y": "why"},
        "note": None,
        "n": 123456,
    }
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(schema), value)
    payload = buf.getvalue()
    good = framed(1, payload)
    want = dict(value, attrs=list(value["attrs"].items()))
    for cut in range(len(payload)):
        column = pa.array([good, framed(1, payload[:cut]), good], pa.binary())
        decoded = decode_column(column, avro(schema), on_error="null")
        decoded.values.validate(full=True)
        rows = decoded.values.to_pylist()
        assert rows[1] is None and decoded.errors[1].as_py(), cut
        assert rows[0] == want and rows[2] == want, cut
        assert decoded.values.null_count == 1, cut
