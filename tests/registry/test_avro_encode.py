"""kafkawire.registry._avro_encode: encode_avro's compiled path writes, row for row, the bytes
fastavro's path writes (randomized schemas and values, sliced arrays, nulls at every level),
reads back through decode_column, raises the same errors, and leaves the pairs it does not
take to fastavro's path."""

from __future__ import annotations

import datetime as dt
import decimal
import io
import json
import random
import struct

import fastavro
import pyarrow as pa
import pytest

from kafkawire.registry import avro_writer
from kafkawire.registry.client import Schema, SchemaRegistryClient
from kafkawire.registry.decode import decode_column
from kafkawire.registry.encode import EncodeError, encode_avro, writer_schema
from tests.registry.test_avro import _Gen

UTC = dt.timezone.utc


@pytest.fixture
def registry(tmp_path):
    return SchemaRegistryClient(tmp_path)


@pytest.fixture
def spy(monkeypatch):
    """Counts the columns the compiled path wrote (taken) and left to fastavro (fell back)."""
    counts = {"taken": 0, "fell back": 0}
    real = avro_writer._encode_compiled

    def wrapped(*args):
        out = real(*args)
        counts["taken" if out is not None else "fell back"] += 1
        return out

    monkeypatch.setattr(avro_writer, "_encode_compiled", wrapped)
    return counts


def register(client, schema, subject="t-value") -> Schema:
    return client.register(subject, Schema(json.dumps(schema)))


def fastavro_path(column, schema, client):
    """encode_avro with the compiled path switched off."""
    saved = avro_writer._encode_compiled
    avro_writer._encode_compiled = lambda *args: None
    try:
        return encode_avro(column, schema, registry=client)
    finally:
        avro_writer._encode_compiled = saved


def both(column, schema, client):
    """(compiled, fastavro) outputs, asserted equal row for row."""
    compiled = encode_avro(column, schema, registry=client)
    compiled.validate(full=True)
    slow = fastavro_path(column, schema, client)
    assert compiled.to_pylist() == slow.to_pylist()
    return compiled, slow


def errors_of(column, schema, client):
    """(compiled error, fastavro error)."""
    with pytest.raises(EncodeError) as fast:
        encode_avro(column, schema, registry=client)
    with pytest.raises(EncodeError) as slow:
        fastavro_path(column, schema, client)
    return fast.value, slow.value


class Gen(_Gen):
    """test_avro's generator with more logical types and without general unions (the
    compiled path writes [null, T] unions only)."""

    def schema(self, depth: int):
        s = super().schema(depth)
        if isinstance(s, list) and len(s) > 2:
            s = ["null", {"type": "long", "logicalType": "timestamp-millis"}]
        if s == "long" and self.rng.random() < 0.3:
            return self.rng.choice(
                [
                    {"type": "long", "logicalType": "timestamp-millis"},
                    {"type": "long", "logicalType": "time-micros"},
                    {"type": "int", "logicalType": "time-millis"},
                ]
            )
        return s

    def value(self, s):
        r = self.rng
        lt = s.get("logicalType") if isinstance(s, dict) else None
        if lt == "timestamp-millis":
            return dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(
                milliseconds=r.randrange(-(10**12), 10**12)
            )
        if lt == "time-micros":
            return (
                dt.datetime(2000, 1, 1) + dt.timedelta(microseconds=r.randrange(86400 * 10**6))
            ).time()
        if lt == "time-millis":
            return (
                dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=r.randrange(86400 * 10**3))
            ).time()
        return super().value(s)


def test_randomized_schemas_equal_fastavro_and_read_back(registry, spy):
    rng = random.Random(20261126)
    for round_ in range(60):
        gen = Gen(rng)
        schema = {
            "type": "record",
            "name": f"Top{round_}",
            "fields": [
                {"name": f"c{k}", "type": gen.schema(3)} for k in range(rng.randrange(1, 6))
            ],
        }
        registered = register(registry, schema, f"random{round_}-value")
        parsed = fastavro.parse_schema(schema)
        values = [gen.value(schema) for _ in range(40)]
        payloads = []
        for v in values:
            buf = io.BytesIO()
            fastavro.schemaless_writer(buf, parsed, v)
            payloads.append(avro_writer.framing(registered.schema_id) + buf.getvalue())
        decoded = decode_column(pa.array(payloads), registry).values
        for column in (decoded, decoded.slice(7, 20)):
            compiled, _ = both(column, registered, registry)
            start = 7 if len(column) == 20 else 0
            assert compiled.to_pylist() == payloads[start : start + len(column)], schema
            again = decode_column(compiled, registry).values
            assert again.to_pylist() == column.to_pylist()
    assert spy["fell back"] == 0 and spy["taken"] == 2 * 60


NESTED = {
    "type": "record",
    "name": "N",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "name", "type": ["null", "string"]},
        {"name": "tags", "type": ["null", {"type": "array", "items": ["string", "null"]}]},
        {"name": "attrs", "type": ["null", {"type": "map", "values": ["null", "double"]}]},
        {
            "name": "inner",
            "type": [
                "null",
                {
                    "type": "record",
                    "name": "I",
                    "fields": [
                        {"name": "x", "type": ["null", "int"]},
                        {
                            "name": "when",
                            "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}],
                        },
                        {
                            "name": "price",
                            "type": [
                                "null",
                                {
                                    "type": "bytes",
                                    "logicalType": "decimal",
                                    "precision": 10,
                                    "scale": 2,
                                },
                            ],
                        },
                    ],
                },
            ],
        },
        {"name": "kind", "type": ["null", {"type": "enum", "name": "K", "symbols": ["A", "B"]}]},
        {"name": "fx", "type": ["null", {"type": "fixed", "name": "F", "size": 2}]},
    ],
}
NESTED_TYPE = pa.struct(
    [
        pa.field("id", pa.int64(), nullable=False),
        ("name", pa.string()),
        ("tags", pa.list_(pa.string())),
        ("attrs", pa.map_(pa.string(), pa.float64())),
        (
            "inner",
            pa.struct(
                [
                    ("x", pa.int32()),
                    ("when", pa.timestamp("us", tz="UTC")),
                    ("price", pa.decimal128(10, 2)),
                ]
            ),
        ),
        ("kind", pa.string()),
        ("fx", pa.binary(2)),
    ]
)


def nested_rows(n: int, rng: random.Random) -> list:
    def maybe(v):
        return None if rng.random() < 0.25 else v

    rows = []
    for i in range(n):
        rows.append(
            maybe(
                {
                    "id": i,
                    "name": maybe(f"name{i}\u00e9"),
                    "tags": maybe([maybe(f"t{k}") for k in range(rng.randrange(4))]),
                    "attrs": maybe([(f"k{k}", maybe(k / 3)) for k in range(rng.randrange(3))]),
                    "inner": maybe(
                        {
                            "x": maybe(rng.randrange(-1000, 1000)),
                            "when": maybe(
                                dt.datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)
                                + dt.timedelta(microseconds=rng.randrange(-(10**12), 10**12))
                            ),
                            "price": maybe(
                                decimal.Decimal(rng.randrange(-(10**9), 10**9)).scaleb(-2)
                            ),
                        }
                    ),
                    "kind": maybe(rng.choice("AB")),
                    "fx": maybe(rng.randbytes(2)),
                }
            )
        )
    return rows


def test_nulls_at_every_level_and_slices(registry, spy):
    schema = register(registry, NESTED)
    column = pa.array(nested_rows(300, random.Random(5)), NESTED_TYPE)
    for piece in (
        column,
        column.slice(1),
        column.slice(37, 101),
        column.slice(299),
        column.slice(5, 0),
    ):
        compiled, _ = both(piece, schema, registry)
        assert compiled.null_count == piece.null_count
        if len(piece):
            assert decode_column(compiled, registry).values.to_pylist() == piece.to_pylist()
    # the children of a sliced struct sliced again (StructArray.from_arrays of slices)
    children = [column.field(k).slice(3, 50) for k in range(column.type.num_fields)]
    rebuilt = pa.StructArray.from_arrays(
        children, fields=list(NESTED_TYPE), mask=column.slice(3, 50).is_null()
    )
    both(rebuilt.slice(2), schema, registry)
    assert spy["fell back"] == 0


@pytest.mark.parametrize(
    ("avro", "arrow", "values"),
    [
        ("int", pa.int8(), [0, -128, 127, None]),
        ("int", pa.int16(), [-32768, 32767]),
        ("int", pa.int64(), [2**31 - 1, -(2**31), 0]),
        ("int", pa.uint8(), [0, 255]),
        ("int", pa.uint16(), [65535]),
        ("long", pa.int64(), [2**63 - 1, -(2**63), 0, -1, 63, 64, -64, -65]),
        ("long", pa.uint32(), [2**32 - 1, 0]),
        ("long", pa.int32(), [-(2**31)]),
        ("float", pa.float32(), [1.5, -0.0, float("inf"), 3.4e38]),
        ("float", pa.float64(), [0.1, 1e-50, -2.5, float("nan"), float("-inf")]),
        ("double", pa.float32(), [0.1, -3.0]),
        ("double", pa.float64(), [1e300, -0.0]),
        ("boolean", pa.bool_(), [True, False]),
        ("string", pa.large_string(), ["", "h\u00e9llo", "x" * 300]),
        ("string", pa.string_view(), ["view"]),
        ("bytes", pa.large_binary(), [b"", b"\x00\xff"]),
        (
            {"type": "int", "logicalType": "date"},
            pa.date32(),
            [dt.date(1, 1, 1), dt.date(9999, 12, 31)],
        ),
        ({"type": "int", "logicalType": "date"}, pa.date64(), [dt.date(1969, 12, 31)]),
        (
            {"type": "int", "logicalType": "time-millis"},
            pa.time32("ms"),
            [dt.time(23, 59, 59, 999000)],
        ),
        ({"type": "long", "logicalType": "time-micros"}, pa.time64("us"), [dt.time(0, 0, 0, 1)]),
        ({"type": "long", "logicalType": "time-micros"}, pa.time64("ns"), [dt.time(12, 0, 0, 5)]),
        (
            {"type": "bytes", "logicalType": "decimal", "precision": 38, "scale": 0},
            pa.decimal128(38, 0),
            [
                decimal.Decimal(0),
                decimal.Decimal(-1),
                decimal.Decimal(127),
                decimal.Decimal(128),
                decimal.Decimal(-128),
                decimal.Decimal(-129),
                decimal.Decimal(255),
                decimal.Decimal(-256),
                decimal.Decimal(10**38 - 1),
                decimal.Decimal(-(10**38) + 1),
                decimal.Decimal(2**63),
                decimal.Decimal(-(2**64)),
            ],
        ),
        ({"type": "enum", "name": "E", "symbols": ["A", "BB", "C"]}, pa.string(), ["C", "BB", "A"]),
        ({"type": "fixed", "name": "F", "size": 3}, pa.binary(3), [b"abc"]),
        (
            {"type": "array", "items": "long"},
            pa.large_list(pa.int64()),
            [[], [1, 2], list(range(200))],
        ),
        ({"type": "array", "items": "int"}, pa.list_(pa.int32(), 2), [[1, 2]]),
        (
            {"type": "map", "values": "string"},
            pa.map_(pa.large_string(), pa.string()),
            [[], [("a", "b")]],
        ),
        ("null", pa.null(), [None, None]),
    ],
)
def test_each_type(registry, spy, avro, arrow, values):
    nullable = None in values and avro != "null"
    schema = {
        "type": "record",
        "name": "R",
        "fields": [{"name": "v", "type": ["null", avro] if nullable else avro}],
    }
    registered = register(registry, schema)
    column = pa.array([{"v": v} for v in values], pa.struct([("v", arrow)]))
    both(column, registered, registry)
    both(column.slice(1), registered, registry)
    assert spy["fell back"] == 0


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize(
    "logical",
    ["timestamp-millis", "timestamp-micros", "local-timestamp-millis", "local-timestamp-micros"],
)
def test_timestamps_every_unit(registry, spy, unit, logical):
    tz = None if logical.startswith("local") else "UTC"
    raw = [0, -1, 1, -999, -1000, -1001, 999, 1001, -(7 * 10**9) - 7, 7 * 10**9 + 7, None]
    if unit == "ns":
        raw += [-(10**18) - 7, 10**18 + 999]
    column = pa.StructArray.from_arrays(
        [pa.array(raw, pa.int64()).cast(pa.timestamp(unit, tz=tz))], names=["t"]
    )
    schema = register(
        registry,
        {
            "type": "record",
            "name": "T",
            "fields": [{"name": "t", "type": ["null", {"type": "long", "logicalType": logical}]}],
        },
    )
    both(column, schema, registry)
    assert spy["fell back"] == 0


def test_non_record_schema_and_tombstones(registry, spy):
    schema = register(registry, ["null", "string"])
    values = pa.array(["a", None, "c", "d"])
    column = pa.StructArray.from_arrays(
        [values], names=["value"], mask=pa.array([False, False, True, False])
    )
    compiled, _ = both(column, schema, registry)
    assert compiled[2].as_py() is None and compiled[1].as_py() is not None
    both(column.slice(1), schema, registry)
    long_schema = register(registry, "long", "l-value")
    both(pa.StructArray.from_arrays([pa.array([1, 2**40])], names=["value"]), long_schema, registry)
    assert spy["fell back"] == 0


def test_missing_nullable_field_takes_its_default(registry, spy):
    schema = register(
        registry,
        {
            "type": "record",
            "name": "D",
            "fields": [
                {"name": "a", "type": "long"},
                {"name": "b", "type": ["null", "string"], "default": None},
            ],
        },
    )
    column = pa.array([{"a": 1}, {"a": 2}], pa.struct([("a", pa.int64())]))
    both(column, schema, registry)
    assert spy["taken"] == 1


def record(fields):
    return {"type": "record", "name": "E", "fields": fields}


def test_int64_outside_32_bits(registry, spy):
    schema = register(registry, record([{"name": "n", "type": "int"}]))
    column = pa.array([{"n": 1}, {"n": 2**31}], pa.struct([("n", pa.int64())]))
    fast, slow = errors_of(column, schema, registry)
    assert str(fast) == str(slow)
    assert fast.row == 1 and fast.field == "E.n"
    assert "row 1" in str(fast)


def test_enum_symbol_not_in_enum(registry, spy):
    schema = register(
        registry, record([{"name": "k", "type": {"type": "enum", "name": "K", "symbols": ["A"]}}])
    )
    column = pa.array([{"k": "A"}, {"k": "A"}, {"k": "Z"}], pa.struct([("k", pa.string())]))
    fast, slow = errors_of(column, schema, registry)
    assert str(fast) == str(slow) and fast.row == 2 and "K" in str(fast) and "'Z'" in str(fast)


def test_null_without_null_branch(registry, spy):
    inner = {"type": "record", "name": "I", "fields": [{"name": "s", "type": "string"}]}
    schema = register(registry, record([{"name": "i", "type": inner}]))
    column = pa.array(
        [{"i": {"s": "x"}}, {"i": {"s": None}}], pa.struct([("i", pa.struct([("s", pa.string())]))])
    )
    fast, slow = errors_of(column, schema, registry)
    assert str(fast) == str(slow) and fast.row == 1 and "row 1" in str(fast)
    # a null record where the schema has no null branch, and a null list element
    column = pa.array([{"i": None}], pa.struct([("i", pa.struct([("s", pa.string())]))]))
    fast, slow = errors_of(column, schema, registry)
    assert str(fast) == str(slow) and fast.row == 0
    schema = register(
        registry, record([{"name": "a", "type": {"type": "array", "items": "long"}}]), "a-value"
    )
    column = pa.array([{"a": [1]}, {"a": [1, None]}], pa.struct([("a", pa.list_(pa.int64()))]))
    fast, slow = errors_of(column, schema, registry)
    assert str(fast) == str(slow) and fast.row == 1


def test_float64_past_float_range_is_cast_as_fastavro_does(registry, spy):
    schema = register(registry, record([{"name": "f", "type": "float"}]))
    values = [1.0, 1e39, -1e39, 3.4028235677973366e38, 1e-46]
    column = pa.array([{"f": v} for v in values], pa.struct([("f", pa.float64())]))
    both(column, schema, registry)
    assert spy["taken"] == 1


def test_the_compiled_error_when_fastavro_takes_the_row(registry, monkeypatch):
    from kafkawire.registry import _avro_encode

    schema = register(registry, record([{"name": "n", "type": "int"}]))
    column = pa.array([{"n": 1}, {"n": 2**31}], pa.struct([("n", pa.int64())]))
    monkeypatch.setattr(avro_writer, "_encode_fallback_row", lambda *args: None)
    with pytest.raises(EncodeError, match=r"row 1: field n: an int outside 32 bits") as info:
        encode_avro(column, schema, registry=registry)
    assert info.value.row == 1 and info.value.field == "n"
    assert _avro_encode.ERROR_TEXT[3] in str(info.value)


@pytest.mark.parametrize(
    ("avro", "arrow", "value"),
    [
        (["null", "long", "string"], pa.int64(), 1),  # a general union
        ({"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 0}, pa.uint64(), 5),
        (
            {"type": "bytes", "logicalType": "decimal", "precision": 5, "scale": 2},
            pa.decimal128(10, 2),
            decimal.Decimal("1.25"),
        ),
        (
            {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 3},
            pa.decimal128(10, 2),
            decimal.Decimal("1.25"),
        ),
        (
            {"type": "long", "logicalType": "timestamp-micros"},
            pa.timestamp("us"),
            dt.datetime(2020, 1, 1),
        ),
        (
            {"type": "string", "logicalType": "uuid"},
            pa.string(),
            "3e3c6b88-2d3c-4c07-9d1b-2a0a3b7c1e55",
        ),
        ("long", pa.uint64(), 5),
        ("float", pa.float16(), 1.5),
        ("string", pa.binary(), b"x"),
        ({"type": "fixed", "name": "F", "size": 4}, pa.binary(3), b"abc"),
        ("int", pa.dictionary(pa.int8(), pa.string()), "x"),
    ],
)
def test_unsupported_pairs_fall_back(registry, spy, avro, arrow, value):
    schema = register(registry, record([{"name": "v", "type": avro}]))
    column = pa.array([{"v": value}], pa.struct([("v", arrow)]))
    try:
        fastavro_path(column, schema, registry)
        expected = None
    except Exception as exc:  # the pair may not fit at all: the same error either way
        expected = exc
    if expected is None:
        out = encode_avro(column, schema, registry=registry)
        assert out.to_pylist() == fastavro_path(column, schema, registry).to_pylist()
    else:
        with pytest.raises(type(expected)):
            encode_avro(column, schema, registry=registry)
    assert spy["taken"] == 0 and spy["fell back"] == 1


def test_missing_field_with_other_default_falls_back(registry, spy):
    schema = register(
        registry,
        record([{"name": "a", "type": "long"}, {"name": "b", "type": "string", "default": "x"}]),
    )
    column = pa.array([{"a": 1}], pa.struct([("a", pa.int64())]))
    both(column, schema, registry)
    assert spy["taken"] == 0


def test_parsed_schema_and_chunked_column(registry, spy):
    schema = register(registry, NESTED)
    column = pa.array(nested_rows(50, random.Random(9)), NESTED_TYPE)
    chunked = pa.chunked_array([column.slice(0, 20), column.slice(20)])
    out = encode_avro(chunked, schema, parsed=writer_schema(schema, registry))
    assert out.to_pylist() == fastavro_path(column, schema, registry).to_pylist()
    assert spy["taken"] == 1


def test_prefix_is_the_schema_id(registry):
    schema = register(registry, record([{"name": "v", "type": "long"}]))
    out = encode_avro(
        pa.array([{"v": 3}], pa.struct([("v", pa.int64())])), schema, registry=registry
    )
    assert out[0].as_py() == b"\x00" + struct.pack(">I", schema.schema_id) + b"\x06"
