"""Protobuf payloads to Arrow (kafkawire.registry.protobuf, src_c/protobuf_decode.c): the truth
is the protobuf package's own parse of the same bytes, framed as confluent-kafka frames them
(its SchemaId), and confluent-kafka's ProtobufSerializer through the local registry server."""

from __future__ import annotations

import datetime as dt
import random
import struct
import uuid

import pyarrow as pa
import pytest
from confluent_kafka.schema_registry.common.protobuf import _create_index_array
from confluent_kafka.schema_registry.common.serde import SchemaId
from google.protobuf import descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor

from kafkawire.registry import proto_text
from kafkawire.registry.client import Reference, Schema
from kafkawire.registry.decode import decode_column
from kafkawire.registry.errors import PayloadError, SchemaError, SchemaNotFoundError

UTC = dt.timezone.utc

RICH = """
syntax = "proto3";
package test.pb;

import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";

enum Color {
  RED = 0;
  GREEN = 1;
  BLUE = 2;
}

message Inner {
  int32 x = 1;
  string s = 2;
  repeated sint64 zs = 3;
}

message Rich {
  double d = 1;
  float f = 2;
  int32 i32 = 3;
  int64 i64 = 4;
  uint32 u32 = 5;
  uint64 u64 = 6;
  sint32 s32 = 7;
  sint64 s64 = 8;
  fixed32 fx32 = 9;
  fixed64 fx64 = 10;
  sfixed32 sf32 = 11;
  sfixed64 sf64 = 12;
  bool b = 13;
  string str = 14;
  bytes by = 15;
  Color color = 16;
  Inner inner = 17;
  repeated int32 packed = 18;
  repeated int64 unpacked = 19 [packed = false];
  repeated double doubles = 20;
  repeated string names = 21;
  repeated Inner inners = 22;
  repeated Color colors = 23;
  repeated bool flags = 24;
  repeated fixed32 fixes = 25 [packed = false];
  map<string, int32> counts = 26;
  map<int64, Inner> by_id = 27;
  map<bool, string> by_flag = 28;
  oneof choice {
    string name = 29;
    Inner pick = 30;
    int64 number = 31;
  }
  optional int32 maybe = 32;
  optional string maybe_s = 33;
  google.protobuf.Timestamp ts = 34;
  google.protobuf.Duration dur = 35;
  google.protobuf.Int32Value w_i32 = 36;
  google.protobuf.StringValue w_str = 37;
  google.protobuf.BoolValue w_bool = 38;
  google.protobuf.UInt64Value w_u64 = 39;
  google.protobuf.DoubleValue w_d = 40;
  google.protobuf.BytesValue w_by = 41;
  repeated google.protobuf.Timestamp stamps = 42;
  map<string, google.protobuf.Int64Value> wrapped = 43;
  uint32 big_number = 1000;

  message Deep {
    message Deeper {
      string leaf = 1;
      Color c = 2;
    }
    Deeper deeper = 1;
    int32 n = 2;
  }
  Deep deep = 44;
}
"""


class StubRegistry:
    """schema_by_id / schema_by_guid / references over schemas added here."""

    def __init__(self):
        self.by_id: dict[int, Schema] = {}
        self.by_guid: dict[str, Schema] = {}
        self.by_version: dict[tuple[str, int], Schema] = {}

    def add(self, text: str, refs=(), subject: str | None = None) -> Schema:
        sid = len(self.by_id) + 1
        guid = str(uuid.uuid4())
        s = Schema(text, "PROTOBUF", tuple(refs), sid, guid, subject or f"s{sid}", 1)
        self.by_id[sid] = s
        self.by_guid[guid] = s
        self.by_version[(s.subject, 1)] = s
        return s

    def schema_by_id(self, schema_id: int) -> Schema:
        if schema_id not in self.by_id:
            raise SchemaNotFoundError(f"no schema {schema_id}")
        return self.by_id[schema_id]

    def schema_by_guid(self, guid: str) -> Schema:
        return self.by_guid[guid]

    def references(self, schema: Schema) -> dict[str, Schema]:
        out: dict[str, Schema] = {}
        pending = list(schema.references)
        while pending:
            r = pending.pop(0)
            if r.name not in out:
                out[r.name] = self.by_version[(r.subject, r.version)]
                pending.extend(out[r.name].references)
        return out


def classes(text: str, name: str = "rich.proto", imports: dict | None = None):
    """The protobuf package's message classes of a .proto text: full name -> class."""
    pool = descriptor_pool.DescriptorPool()
    done: set = set()

    def add(fdp):
        for dep in fdp.dependency:
            target = (imports or {}).get(dep) or proto_text.well_known(dep)
            if target.name not in done:
                add(target)
        pool.AddSerializedFile(fdp.SerializeToString())
        done.add(fdp.name)

    fdp = proto_text.parse(text, name, imports or {})
    add(fdp)
    out = {}

    def walk(msgs, prefix):
        for m in msgs:
            full = f"{prefix}.{m.name}" if prefix else m.name
            out[full] = message_factory.GetMessageClass(pool.FindMessageTypeByName(full))
            walk(m.nested_type, full)

    walk(fdp.message_type, fdp.package)
    return out


def framed(schema_id: int, payload: bytes, indexes=(0,)) -> bytes:
    return SchemaId("PROTOBUF", schema_id, None, list(indexes)).id_to_bytes() + payload


# ---- what the protobuf package says, in Arrow's Python form --------------------------------


def _value(fd, v):
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        name = fd.message_type.full_name
        if name == "google.protobuf.Timestamp":
            return dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(
                microseconds=v.seconds * 1_000_000 + v.nanos // 1000
            )
        if name == "google.protobuf.Duration":
            return dt.timedelta(microseconds=v.seconds * 1_000_000 + int(v.nanos / 1000))
        if name.startswith("google.protobuf.") and name.endswith("Value"):
            return v.value
        return expected(v)
    if fd.type == FieldDescriptor.TYPE_ENUM:
        ev = fd.enum_type.values_by_number.get(v)
        return ev.name if ev is not None else str(v)
    return v


def expected(msg) -> dict:
    """A message as kafkawire's row should read (maps as dicts)."""
    out = {}
    for fd in msg.DESCRIPTOR.fields:
        v = getattr(msg, fd.name)
        if (
            fd.is_repeated
            and fd.message_type is not None
            and fd.message_type.GetOptions().map_entry
        ):
            vfd = fd.message_type.fields_by_name["value"]
            out[fd.name] = {k: _value(vfd, v[k]) for k in v}
        elif fd.is_repeated:
            out[fd.name] = [_value(fd, x) for x in v]
        elif fd.has_presence and not msg.HasField(fd.name):
            out[fd.name] = None
        else:
            out[fd.name] = _value(fd, v)
    return out


def plain(v, t: pa.DataType):
    """An Arrow row with maps as dicts."""
    if v is None:
        return None
    if pa.types.is_map(t):
        return {k: plain(x, t.item_type) for k, x in v}
    if pa.types.is_list(t):
        return [plain(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {f.name: plain(v[f.name], f.type) for f in t}
    return v


def decode(registry, payloads, **kw):
    return decode_column(pa.array(payloads, pa.binary()), registry, **kw)


def rows(decoded):
    t = decoded.values.type
    return [plain(v, t) for v in decoded.values.to_pylist()]


@pytest.fixture(scope="module")
def rich():
    return classes(RICH)


def full_rich(cls):
    m = cls["test.pb.Rich"]()
    m.d = -1.25e300
    m.f = 3.5
    m.i32 = -(2**31)
    m.i64 = -(2**63)
    m.u32 = 2**32 - 1
    m.u64 = 2**64 - 1
    m.s32 = -123456
    m.s64 = -(2**62) - 7
    m.fx32 = 2**31 + 5
    m.fx64 = 2**63 + 11
    m.sf32 = -5
    m.sf64 = -(2**40)
    m.b = True
    m.str = "héllo wörld ✓ 🎉"
    m.by = b"\x00\xff\x80 bytes"
    m.color = 2
    m.inner.x = 7
    m.inner.s = "inner"
    m.inner.zs.extend([-1, 2**62, -(2**63)])
    m.packed.extend([1, -2, 2**31 - 1, -(2**31)])
    m.unpacked.extend([-1, 2**63 - 1])
    m.doubles.extend([0.5, -0.0, float("inf")])
    m.names.extend(["a", "", "ü"])
    m.inners.add(x=1, s="one")
    m.inners.add()
    m.colors.extend([0, 1, 2, 9])
    m.flags.extend([True, False, True])
    m.fixes.extend([0, 2**32 - 1])
    m.counts["a"] = 1
    m.counts["é"] = -1
    m.by_id[-5].s = "neg"
    m.by_id[2**40].x = 3
    m.by_flag[True] = "yes"
    m.by_flag[False] = ""
    m.pick.x = 9
    m.maybe = 0
    m.ts.seconds = 1_700_000_000
    m.ts.nanos = 123_456_789
    m.dur.seconds = -5
    m.dur.nanos = -500_000
    m.w_i32.value = 0
    m.w_str.value = "wrapped"
    m.w_bool.value = True
    m.w_u64.value = 2**64 - 1
    m.w_d.value = 2.5
    m.w_by.value = b"\x01"
    m.stamps.add(seconds=-1, nanos=999_999_000)
    m.stamps.add(seconds=253402300799)
    m.wrapped["x"].value = -9
    m.wrapped["empty"].SetInParent()
    m.big_number = 77
    m.deep.deeper.leaf = "leaf"
    m.deep.deeper.c = 1
    return m


# ---- every type ---------------------------------------------------------------------------


def test_every_type_equals_the_protobuf_parse(rich):
    reg = StubRegistry()
    s = reg.add(RICH)
    Rich = rich["test.pb.Rich"]
    full = full_rich(rich)
    empty = Rich()
    oneof_name = Rich(name="chosen", maybe_s="x")
    oneof_number = Rich(number=-3)
    msgs = [full, empty, oneof_name, oneof_number]
    payloads = [framed(s.schema_id, m.SerializeToString(), [1]) for m in msgs]
    decoded = decode(reg, payloads)
    assert decoded.error_count == 0
    got = rows(decoded)
    for m, row in zip(msgs, got, strict=True):
        assert row == expected(Rich.FromString(m.SerializeToString()))
    t = decoded.values.type
    assert t.field("d").type == pa.float64() and t.field("f").type == pa.float32()
    assert t.field("u32").type == pa.uint32() and t.field("fx64").type == pa.uint64()
    assert t.field("s32").type == pa.int32() and t.field("sf64").type == pa.int64()
    assert t.field("color").type == pa.string() and t.field("by").type == pa.binary()
    assert t.field("counts").type == pa.map_(pa.string(), pa.int32())
    assert t.field("ts").type == pa.timestamp("us", tz="UTC")
    assert t.field("dur").type == pa.duration("us")
    assert t.field("w_i32").type == pa.int32() and t.field("w_by").type == pa.binary()
    assert t.field("inners").type == pa.list_(pa.field("element", t.field("inner").type))
    # the details the comparison covers, spelled out
    first = got[0]
    assert first["u64"] == 2**64 - 1 and first["i64"] == -(2**63)
    assert first["colors"] == ["RED", "GREEN", "BLUE", "9"]  # an unknown number: its digits
    assert first["pick"] == {"x": 9, "s": "", "zs": []} and first["name"] is None
    assert first["maybe"] == 0 and first["maybe_s"] is None  # proto3 optional
    assert first["w_i32"] == 0 and first["wrapped"] == {"x": -9, "empty": 0}
    assert got[1]["str"] == "" and got[1]["color"] == "RED" and got[1]["inner"] is None
    assert got[1]["ts"] is None and got[1]["w_str"] is None and got[1]["counts"] == {}
    assert got[2]["name"] == "chosen" and got[2]["pick"] is None and got[2]["number"] is None
    assert decoded.schema_ids.to_pylist() == [s.schema_id] * 4


def test_nested_message_indexes_and_the_zero_shorthand(rich):
    reg = StubRegistry()
    s = reg.add(RICH)
    Deeper = rich["test.pb.Rich.Deep.Deeper"]
    Inner = rich["test.pb.Inner"]
    deeper = [Deeper(leaf=f"l{i}", c=i % 3) for i in range(3)]
    # Rich is message 1 of the file; its map fields' entry types count among its nested
    # messages (Deep is the fifth), as confluent-kafka counts them
    indexes = _create_index_array(Deeper.DESCRIPTOR)
    assert indexes == [1, 4, 0]
    payloads = [framed(s.schema_id, m.SerializeToString(), indexes) for m in deeper]
    decoded = decode(reg, payloads)
    assert rows(decoded) == [expected(m) for m in deeper]
    assert [f.name for f in decoded.values.type] == ["leaf", "c"]
    # [0] is written as a single 0 byte: the file's first message
    inner = Inner(x=5, s="x", zs=[-1])
    payload = framed(s.schema_id, inner.SerializeToString())
    assert payload[5] == 0
    assert rows(decode(reg, [payload])) == [expected(inner)]
    # a long form [0] (count 1, index 0) names the same message
    long_form = b"\x00" + struct.pack(">I", s.schema_id) + b"\x02\x00" + inner.SerializeToString()
    assert rows(decode(reg, [long_form])) == [expected(inner)]


def test_writer_versions_resolved_by_field_number():
    reg = StubRegistry()
    v1 = reg.add('syntax = "proto3"; package e; message M { int32 a = 1; string b = 2; }')
    v2 = reg.add(
        'syntax = "proto3"; package e; message M { int64 a = 1; reserved 2;'
        " repeated string c = 3; optional bool d = 4; }"
    )
    M1 = classes(reg.by_id[1].schema_str)["e.M"]
    M2 = classes(reg.by_id[2].schema_str)["e.M"]
    payloads = [
        framed(v1.schema_id, M1(a=-1, b="dropped").SerializeToString()),
        None,
        framed(v2.schema_id, M2(a=2**40, c=["x", "y"], d=False).SerializeToString()),
    ]
    decoded = decode(reg, payloads)  # the reader: the newest writer (id 2)
    assert rows(decoded) == [
        {"a": -1, "c": [], "d": None},
        None,
        {"a": 2**40, "c": ["x", "y"], "d": False},
    ]
    assert decoded.schema_ids.to_pylist() == [1, None, 2]
    # an explicit older reader: fields it lacks skipped
    decoded = decode(reg, payloads, reader_schema=1)
    assert rows(decoded) == [{"a": -1, "b": "dropped"}, None, {"a": 0, "b": ""}]


def test_another_message_of_the_reader_file_is_an_error_row(rich):
    reg = StubRegistry()
    s = reg.add(RICH)
    Rich, Inner = rich["test.pb.Rich"], rich["test.pb.Inner"]
    payloads = [
        framed(s.schema_id, Rich(i32=1).SerializeToString(), [1]),
        framed(s.schema_id, Inner(x=1).SerializeToString(), [0]),
        framed(s.schema_id, b"", [5]),
    ]
    decoded = decode(reg, payloads, on_error="null")
    assert rows(decoded)[0]["i32"] == 1
    assert decoded.values.to_pylist()[1:] == [None, None]
    errors = decoded.errors.to_pylist()
    assert errors[0] is None
    assert "test.pb.Inner is not the reader's message test.pb.Rich" in errors[1]
    assert "message indexes [5] name no message of schema id 1" in errors[2]


def test_references_and_base64_schemas():
    reg = StubRegistry()
    common = 'syntax = "proto3"; package c.common; message Money { string cur = 1; int64 n = 2; }'
    ref_schema = reg.add(common, subject="common")
    text = (
        'syntax = "proto3"; package c.orders; import "c/common.proto";'
        " message Order { c.common.Money total = 1; repeated .c.common.Money parts = 2; }"
    )
    order_schema = reg.add(text, refs=[Reference("c/common.proto", "common", 1)])
    imports = {"c/common.proto": proto_text.parse(common, "c/common.proto")}
    Order = classes(text, "c/orders.proto", imports)["c.orders.Order"]
    m = Order()
    m.total.cur = "EUR"
    m.total.n = 5
    m.parts.add(cur="USD", n=-1)
    decoded = decode(reg, [framed(order_schema.schema_id, m.SerializeToString())])
    assert rows(decoded) == [expected(m)]
    # the same schema registered as confluent-kafka does: base64 of a FileDescriptorProto
    import base64

    fdp = proto_text.parse(text, "c/orders.proto", imports)
    b64 = base64.standard_b64encode(fdp.SerializeToString()).decode()
    b64_schema = reg.add(b64, refs=[Reference("c/common.proto", "common", 1)])
    decoded = decode(reg, [framed(b64_schema.schema_id, m.SerializeToString())])
    assert rows(decoded) == [expected(m)]
    assert ref_schema.schema_id == 1


def test_guid_framing(rich):
    reg = StubRegistry()
    s = reg.add(RICH)
    Inner = rich["test.pb.Inner"]
    payload = Inner(x=3).SerializeToString()
    by_guid = SchemaId("PROTOBUF", None, s.guid, [0]).guid_to_bytes() + payload
    decoded = decode(reg, [by_guid])
    assert rows(decoded) == [{"x": 3, "s": "", "zs": []}]


# ---- duplicates, oneofs, unknown fields ---------------------------------------------------


def _tag(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _varint(v: int) -> bytes:
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _ld(number: int, body: bytes) -> bytes:
    return _tag(number, 2) + _varint(len(body)) + body


DUP = """
syntax = "proto3";
package dup;
message Sub { int32 v = 1; }
message M {
  int32 a = 1;
  string s = 2;
  bool b = 3;
  Sub sub = 4;
  oneof o { string x = 5; int32 y = 6; Sub z = 7; }
  repeated int32 r = 8;
  double d = 9;
}
"""


@pytest.mark.parametrize(
    "body",
    [
        _tag(1, 0) + _varint(1) + _tag(1, 0) + _varint(2),
        _ld(2, b"first") + _ld(2, b"second") + _tag(3, 0) + b"\x01" + _tag(3, 0) + b"\x00",
        _ld(5, b"x") + _tag(6, 0) + _varint(-4),  # a oneof: the last member set wins
        _tag(6, 0) + b"\x01" + _ld(5, b"later"),
        _ld(7, _tag(1, 0) + b"\x05") + _ld(4, _tag(1, 0) + b"\x01"),
        _tag(8, 0) + b"\x01" + _ld(8, b"\x02\x03") + _tag(8, 0) + b"\x04",  # packed + not
        _tag(9, 1) + struct.pack("<d", 1.5) + _tag(9, 1) + struct.pack("<d", -2.5),
        # unknown fields of every wire type are skipped
        _tag(100, 0)
        + _varint(2**63)
        + _tag(101, 1)
        + b"\0" * 8
        + _ld(102, b"abc")
        + _tag(103, 5)
        + b"\0" * 4
        + _tag(1, 0)
        + b"\x07",
        _ld(2, "é".encode()) + _ld(2, b""),
    ],
)
def test_wire_forms_equal_the_protobuf_parse(body):
    reg = StubRegistry()
    s = reg.add(DUP)
    M = classes(DUP)["dup.M"]
    decoded = decode(reg, [framed(s.schema_id, body, [1])])
    assert rows(decoded) == [expected(M.FromString(body))]


def test_a_singular_message_twice_is_an_error():
    reg = StubRegistry()
    s = reg.add(DUP)
    body = _ld(4, _tag(1, 0) + b"\x01") + _ld(4, _tag(1, 0) + b"\x02")
    oneof = _ld(7, b"") + _ld(5, b"x")
    decoded = decode(reg, [framed(s.schema_id, b, [1]) for b in (body, oneof)], on_error="null")
    assert decoded.values.to_pylist() == [None, None]
    first, second = decoded.errors.to_pylist()
    assert "singular message field set twice" in first and "field sub" in first
    assert "oneof member after a message member" in second and "field x" in second


# ---- bad payloads -------------------------------------------------------------------------


BAD = [
    # (payload after the framing, what the error says)
    (b"\x00" + _tag(1, 0), "ends inside a field (field a, byte 1"),
    (b"\x00" + _tag(1, 0) + b"\xff\xff", "ends inside a field (field a, byte 1"),
    (b"\x00" + _tag(1, 0) + b"\xff" * 10, "varint longer than 10 bytes"),
    (b"\x00" + _tag(2, 2) + b"\x05ab", "a length past the end of its message (field s, byte 1"),
    (b"\x00" + _tag(1, 2) + b"\x01x", "does not fit the field's type (field a, byte 0"),
    (b"\x00" + _tag(4, 0) + b"\x01", "does not fit the field's type (field sub"),
    (b"\x00" + _tag(3, 3) + _tag(3, 4), "groups are unsupported"),
    (b"\x00" + _tag(50, 3), "groups are unsupported"),
    (b"\x00" + _tag(50, 6), "no such wire type"),
    (b"\x00" + b"\x00", "field number 0"),
    (b"\x00" + _ld(2, b"\xff\xfe"), "not valid UTF-8 (field s, byte 2"),
    (b"\x00" + _ld(4, _tag(1, 0)), "ends inside a field (field sub.v, byte 3"),
    (b"\x00" + _tag(9, 1) + b"\0" * 7, "ends inside a field (field d"),
    (b"\x00" + _ld(8, b"\x80"), "ends inside a field (field r, byte 2"),
    (b"\x02", "ends inside a field (message indexes, byte 1"),  # one index promised
    (b"\x01", "count that is negative or over 100"),
    (b"\x03", "count that is negative or over 100"),
    (_varint(202), "count that is negative or over 100"),
    (b"\x02\x01", "a negative message index"),
    (b"\x02\xff", "ends inside a field (message indexes, byte 1"),
    (b"\x02\x0a", "name no message of schema id 1"),
    (b"", "ends inside a field (message indexes"),
]


@pytest.mark.parametrize(("body", "message"), BAD)
def test_bad_payloads_are_null_rows_with_the_field_and_byte(body, message):
    reg = StubRegistry()
    s = reg.add(DUP)
    M = classes(DUP)["dup.M"]
    good = framed(s.schema_id, M(a=5).SerializeToString())
    # DUP's first message is Sub: these are framed for M with message index [1] unless
    # the test's own bytes start with the indexes
    payload = b"\x00" + struct.pack(">I", s.schema_id) + body
    if body[:1] == b"\x00" and len(body) > 1:
        payload = framed(s.schema_id, body[1:], [1])
    good = framed(s.schema_id, M(a=5).SerializeToString(), [1])
    decoded = decode(reg, [good, payload, good], on_error="null")
    assert decoded.values.to_pylist()[0] == {
        "a": 5,
        "s": "",
        "b": False,
        "sub": None,
        "x": None,
        "y": None,
        "z": None,
        "r": [],
        "d": 0.0,
    }
    assert decoded.values.to_pylist()[1] is None
    assert decoded.values.to_pylist()[2] == decoded.values.to_pylist()[0]
    errors = decoded.errors.to_pylist()
    assert errors[0] is None and errors[2] is None
    assert message in errors[1], errors[1]
    with pytest.raises(PayloadError, match="row 1"):
        decode(reg, [good, payload], on_error="raise")


def test_a_column_whose_every_row_names_a_missing_message_is_all_error_rows():
    # one schema and one message path for the whole column (decode_frames' usual case),
    # and that path names no message: each row says so
    reg = StubRegistry()
    s = reg.add(DUP)
    M = classes(DUP)["dup.M"]
    values = [framed(s.schema_id, M(a=k).SerializeToString(), [7]) for k in range(3)]
    decoded = decode(reg, values, on_error="null")
    assert decoded.values.to_pylist() == [None, None, None]
    assert all("message indexes [7] name no message" in e for e in decoded.errors.to_pylist())


def test_timestamps_and_durations_out_of_range_are_errors():
    reg = StubRegistry()
    text = (
        'syntax = "proto3"; import "google/protobuf/timestamp.proto";'
        ' import "google/protobuf/duration.proto";'
        " message T { google.protobuf.Timestamp t = 1; google.protobuf.Duration d = 2; }"
    )
    s = reg.add(text)
    bad = [
        _ld(1, _tag(1, 0) + _varint(253402300800)),
        _ld(1, _tag(2, 0) + _varint(-1)),
        _ld(2, _tag(1, 0) + _varint(1) + _tag(2, 0) + _varint(-1)),
        _ld(1, _tag(1, 2) + b"\x00"),
    ]
    decoded = decode(reg, [framed(s.schema_id, b) for b in bad], on_error="null")
    assert decoded.values.null_count == 4
    errors = decoded.errors.to_pylist()
    assert all("outside its range (message t" in e for e in errors[:2])
    assert "outside its range (message d" in errors[2]
    assert "wire type" in errors[3]
    T = classes(text)["T"]
    ok = T()
    ok.t.seconds = -62135596800
    ok.d.seconds = 315576000000
    ok.d.nanos = 999_999_999
    assert rows(decode(reg, [framed(s.schema_id, ok.SerializeToString())])) == [expected(ok)]


def test_unsupported_schemas_are_schema_errors():
    reg = StubRegistry()
    recursive = reg.add('syntax = "proto3"; message Node { Node next = 1; int32 v = 2; }')
    with pytest.raises(SchemaError, match="recursive Protobuf message Node"):
        decode(reg, [framed(recursive.schema_id, b"")])
    group = reg.add('syntax = "proto2"; message G { optional group Part = 1 { } }')
    with pytest.raises(SchemaError, match=r"1:41: group fields are unsupported"):
        decode(reg, [framed(group.schema_id, b"")])
    missing = reg.add('syntax = "proto3"; import "nowhere.proto"; message X { int32 a = 1; }')
    with pytest.raises(SchemaError, match=r"nowhere\.proto"):
        decode(reg, [framed(missing.schema_id, b"")])
    # a writer schema that does not load fails its rows only, when the reader is another
    good = reg.add('syntax = "proto3"; message Node { int32 v = 2; }')
    decoded = decode(
        reg,
        [framed(group.schema_id, b""), framed(good.schema_id, b"\x10\x05")],
        reader_schema=good.schema_id,
        on_error="null",
    )
    assert decoded.values.to_pylist() == [None, {"v": 5}]
    assert "schema id 2 does not load" in decoded.errors.to_pylist()[0]


def test_proto2_presence_and_defaults():
    reg = StubRegistry()
    text = """
    syntax = "proto2";
    package p2;
    enum E { NONE = 0; FIVE = 5; SIX = 6; }
    message M {
      optional int32 a = 1 [default = 7];
      required string b = 2;
      optional E e = 3;
      repeated sint32 r = 4 [packed = true];
      map<string, E> m = 5;
    }
    """
    s = reg.add(text)
    M = classes(text)["p2.M"]
    full = M(a=0, b="x", e=6, r=[-1, 1])
    full.m["k"] = 6
    partial = M(b="")
    entry_without_value = _ld(5, _ld(1, b"k")) + _ld(2, b"")
    payloads = [
        framed(s.schema_id, full.SerializeToString()),
        framed(s.schema_id, partial.SerializeToString()),
        framed(s.schema_id, entry_without_value),
    ]
    got = rows(decode(reg, payloads))
    assert got[0] == {"a": 0, "b": "x", "e": "SIX", "r": [-1, 1], "m": {"k": "SIX"}}
    # absent proto2 optionals are null (not their [default])
    assert got[1] == {"a": None, "b": "", "e": None, "r": [], "m": {}}
    # a map entry without its value: the value's default (the enum's first value)
    assert got[2]["m"] == {"k": "NONE"}


def test_a_well_known_type_as_the_message_is_a_struct():
    from google.protobuf import timestamp_pb2, wrappers_pb2

    reg = StubRegistry()
    text = (
        'syntax = "proto3"; package google.protobuf;'
        " message Timestamp { int64 seconds = 1; int32 nanos = 2; }"
        " message Int32Value { int32 value = 1; }"
    )
    s = reg.add(text)
    ts = timestamp_pb2.Timestamp(seconds=-5, nanos=7).SerializeToString()
    assert rows(decode(reg, [framed(s.schema_id, ts)])) == [{"seconds": -5, "nanos": 7}]
    w = wrappers_pb2.Int32Value(value=3).SerializeToString()
    assert rows(decode(reg, [framed(s.schema_id, w, [1])])) == [{"value": 3}]


def test_built_in_imports_need_no_reference():
    """What confluent-kafka treats as built in (google/type/, confluent/) resolves without a
    registry reference; custom options are skipped."""
    pytest.importorskip("google.type.date_pb2")
    reg = StubRegistry()
    text = """
    syntax = "proto3";
    package b;
    import "google/type/date.proto";
    import "confluent/meta.proto";
    message Event {
      google.type.Date day = 1 [(confluent.field_meta) = { doc: "the day" }];
      string name = 2 [(confluent.field_meta).doc = "a name"];
    }
    """
    s = reg.add(text)
    Event = classes(text)["b.Event"]
    m = Event(name="launch")
    m.day.year = 2026
    m.day.month = 11
    decoded = decode(reg, [framed(s.schema_id, m.SerializeToString())])
    assert rows(decoded) == [{"day": {"year": 2026, "month": 11, "day": 0}, "name": "launch"}]


def test_nesting_depth_limit():
    def text(levels: int) -> str:
        defs = "".join(f"message M{i} {{ M{i + 1} m = 1; int32 v = 2; }}\n" for i in range(levels))
        return f'syntax = "proto3";\n{defs}message M{levels} {{ int32 v = 2; }}\n'

    def payload(levels: int) -> bytes:
        body = _tag(2, 0) + b"\x07"
        for _ in range(levels):
            body = _ld(1, body)
        return body

    for levels, ok in ((99, True), (100, False)):  # the root and 99 nested: 100 levels
        reg = StubRegistry()
        s = reg.add(text(levels))
        decoded = decode(reg, [framed(s.schema_id, payload(levels))], on_error="null")
        error = decoded.errors[0].as_py()
        assert (error is None) == ok, error
        if not ok:
            assert error.startswith("nesting deeper than 100 levels (message m.m.m")


def test_dense_and_sparse_field_numbers():
    reg = StubRegistry()
    text = (
        'syntax = "proto3"; message S { int32 a = 1; int32 b = 100000; int32 c = 536870911;'
        " string d = 7; }"
    )
    s = reg.add(text)
    S = classes(text)["S"]
    msgs = [S(a=1, b=2, c=3, d="x"), S(c=-1), S()]
    got = rows(decode(reg, [framed(s.schema_id, m.SerializeToString()) for m in msgs]))
    assert got == [expected(m) for m in msgs]


# ---- confluent-kafka's serializer -----------------------------------------------------------


@pytest.fixture
def confluent_client(registry):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient

    client = ConfluentClient({"url": registry.url})
    yield client
    client.close()


@pytest.mark.interop
@pytest.mark.parametrize("id_in", ["prefix", "header"])
def test_confluent_serializer_payloads(registry, confluent_client, subject, id_in):
    """confluent-kafka registers base64 FileDescriptorProtos (with a reference for the
    imported file) and frames nested messages with their indexes (after the id, or after the
    GUID in a header with the header serializer); kafkawire's client reads the registry back
    and decodes what its deserializer reads."""
    from confluent_kafka.schema_registry import header_schema_id_serializer
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    from kafkawire.registry.client import SchemaRegistryClient

    dep_text = 'syntax = "proto3"; package d; message D { sint32 v = 1; repeated string t = 2; }'
    main_text = (
        'syntax = "proto3"; package m; import "d/dep.proto";'
        ' import "google/protobuf/timestamp.proto";'
        " message A { message N { string s = 1; d.D dd = 2; google.protobuf.Timestamp t = 3;"
        " map<string, d.D> ds = 4; } N n = 1; }"
    )
    imports = {"d/dep.proto": proto_text.parse(dep_text, "d/dep.proto")}
    cls = classes(main_text, "m/main.proto", imports)
    N = cls["m.A.N"]
    topic = subject.removesuffix("-value")
    conf = {"use.deprecated.format": False}
    if id_in == "header":
        conf["schema.id.serializer"] = header_schema_id_serializer
    serializer = ProtobufSerializer(N, confluent_client, conf)
    deserializer = ProtobufDeserializer(N, {"use.deprecated.format": False})
    payloads, header_lists, wanted = [], [], []
    for i in range(20):
        m = N(s="é" * i)
        m.dd.v = -i
        m.dd.t.extend(["x"] * (i % 3))
        if i % 2:
            m.t.seconds = 1_600_000_000 + i
        m.ds[f"k{i}"].v = i
        headers: list = []
        payload = serializer(m, SerializationContext(topic, MessageField.VALUE, headers))
        payloads.append(payload)
        header_lists.append([{"key": k, "value": v} for k, v in headers])
        back = deserializer(payload, SerializationContext(topic, MessageField.VALUE, headers))
        wanted.append(expected(back))
    headers_column = pa.array(
        header_lists,
        pa.list_(pa.field("element", pa.struct([("key", pa.string()), ("value", pa.binary())]))),
    )
    if id_in == "prefix":
        assert payloads[0][5:8] == b"\x04\x00\x00"  # indexes [0, 0]
    else:
        assert header_lists[0][0]["value"][17:] == b"\x04\x00\x00"
        assert payloads[0] == N.FromString(payloads[0]).SerializeToString()  # bare
    with SchemaRegistryClient(registry.url) as client:
        decoded = decode_column(pa.array(payloads), client, headers=headers_column)
        if id_in == "prefix":
            schema = client.schema_by_id(decoded.schema_ids[0].as_py())
        else:
            schema = client.schema_by_guid(uuid.UUID(bytes=header_lists[0][0]["value"][1:17]))
    assert rows(decoded) == wanted
    assert "syntax" not in schema.schema_str  # base64
    assert [r.name for r in schema.references] == ["d/dep.proto"]


def test_confluent_serializer_with_its_mock_registry():
    """confluent-kafka's serializer against its mock registry: the schema string it
    registered (base64) read back and handed to kafkawire (a stub registry)."""
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    mock = ConfluentClient.new_client({"url": "mock://protobuf-test"})
    cls = classes(RICH)
    serializer = ProtobufSerializer(cls["test.pb.Rich"], mock, {"use.deprecated.format": False})
    msgs = [full_rich(cls), cls["test.pb.Rich"](name="n")]
    payloads = [serializer(m, SerializationContext("t", MessageField.VALUE)) for m in msgs]
    schema_id = int.from_bytes(payloads[0][1:5], "big")
    registered = mock.get_schema(schema_id)
    assert registered.schema_type == "PROTOBUF" and "syntax" not in registered.schema_str
    reg = StubRegistry()
    reg.by_id[schema_id] = Schema(registered.schema_str, "PROTOBUF", schema_id=schema_id)
    decoded = decode(reg, payloads)
    assert rows(decoded) == [expected(m) for m in msgs]


def test_file_registry_with_references(tmp_path):
    """kafkawire's own client over a file registry: .proto texts, a reference by import
    path."""
    from kafkawire.registry.client import SchemaRegistryClient

    client = SchemaRegistryClient(tmp_path)
    common = 'syntax = "proto3"; package f; message Money { string cur = 1; sint64 n = 2; }'
    client.register("money", Schema(common, "PROTOBUF"))
    text = (
        'syntax = "proto3"; package f; import "f/money.proto";'
        " message Order { repeated Money items = 1; map<string, Money> by_name = 2; }"
    )
    order = client.register(
        "orders-value",
        Schema(text, "PROTOBUF", references=(Reference("f/money.proto", "money", 1),)),
    )
    imports = {"f/money.proto": proto_text.parse(common, "f/money.proto")}
    Order = classes(text, "f/order.proto", imports)["f.Order"]
    m = Order()
    m.items.add(cur="EUR", n=-(2**62))
    m.by_name["x"].cur = "USD"
    decoded = decode_column(pa.array([framed(order.schema_id, m.SerializeToString())]), client)
    assert rows(decoded) == [expected(m)]


# ---- randomized ---------------------------------------------------------------------------


def _random_inner(rnd, Inner):
    return Inner(
        x=rnd.randint(-(2**31), 2**31 - 1),
        s=rnd.choice(["", "a", "ü€", "x" * rnd.randint(0, 200)]),
        zs=[rnd.randint(-(2**63), 2**63 - 1) for _ in range(rnd.randint(0, 3))],
    )


def _random_rich(rnd, cls):
    m = cls["test.pb.Rich"]()
    Inner = cls["test.pb.Inner"]
    ints = {
        "i32": (-(2**31), 2**31 - 1),
        "i64": (-(2**63), 2**63 - 1),
        "u32": (0, 2**32 - 1),
        "u64": (0, 2**64 - 1),
        "s32": (-(2**31), 2**31 - 1),
        "s64": (-(2**63), 2**63 - 1),
        "fx32": (0, 2**32 - 1),
        "fx64": (0, 2**64 - 1),
        "sf32": (-(2**31), 2**31 - 1),
        "sf64": (-(2**63), 2**63 - 1),
        "big_number": (0, 2**32 - 1),
    }
    for name, (lo, hi) in ints.items():
        if rnd.random() < 0.7:
            setattr(m, name, rnd.choice([lo, hi, 0, -1 if lo < 0 else 1, rnd.randint(lo, hi)]))
    if rnd.random() < 0.7:
        m.d = rnd.choice([rnd.uniform(-1e308, 1e308), 0.0, -0.0, 5e-324, float("-inf")])
    if rnd.random() < 0.7:
        m.f = struct.unpack("<f", struct.pack("<f", rnd.uniform(-1e38, 1e38)))[0]
    m.b = rnd.random() < 0.5
    if rnd.random() < 0.7:
        m.str = "".join(rnd.choice("aé€𝄞 \n") for _ in range(rnd.randint(0, 30)))
    if rnd.random() < 0.7:
        m.by = rnd.randbytes(rnd.randint(0, 40))
    m.color = rnd.choice([0, 1, 2, 3, -1])
    if rnd.random() < 0.5:
        m.inner.CopyFrom(_random_inner(rnd, Inner))
    m.packed.extend(rnd.randint(-(2**31), 2**31 - 1) for _ in range(rnd.randint(0, 5)))
    m.unpacked.extend(rnd.randint(-(2**63), 2**63 - 1) for _ in range(rnd.randint(0, 5)))
    m.doubles.extend(rnd.uniform(-1, 1) for _ in range(rnd.randint(0, 3)))
    m.names.extend(rnd.choice(["", "n", "ñ"]) for _ in range(rnd.randint(0, 3)))
    for _ in range(rnd.randint(0, 3)):
        m.inners.append(_random_inner(rnd, Inner))
    m.colors.extend(rnd.choice([0, 1, 2, 7]) for _ in range(rnd.randint(0, 4)))
    m.flags.extend(rnd.random() < 0.5 for _ in range(rnd.randint(0, 9)))
    m.fixes.extend(rnd.randint(0, 2**32 - 1) for _ in range(rnd.randint(0, 3)))
    for _ in range(rnd.randint(0, 3)):
        m.counts[rnd.choice(["a", "b", "ç", ""])] = rnd.randint(-5, 5)
    for _ in range(rnd.randint(0, 2)):
        m.by_id[rnd.randint(-(2**63), 2**63 - 1)].CopyFrom(_random_inner(rnd, Inner))
    if rnd.random() < 0.5:
        m.by_flag[rnd.random() < 0.5] = "v"
    which = rnd.randint(0, 3)
    if which == 1:
        m.name = "n"
    elif which == 2:
        m.pick.CopyFrom(_random_inner(rnd, Inner))
    elif which == 3:
        m.number = rnd.randint(-(2**63), 2**63 - 1)
    if rnd.random() < 0.5:
        m.maybe = rnd.randint(-3, 3)
    if rnd.random() < 0.5:
        m.maybe_s = rnd.choice(["", "s"])
    if rnd.random() < 0.5:
        m.ts.seconds = rnd.randint(-62135596800, 253402300799)
        m.ts.nanos = rnd.randint(0, 999_999_999)
    if rnd.random() < 0.5:
        sec = rnd.randint(-315576000000, 315576000000)
        m.dur.seconds = sec
        nanos = rnd.randint(0, 999_999_999)
        m.dur.nanos = -nanos if sec < 0 else (nanos if sec > 0 else rnd.choice([nanos, -nanos]))
    for name, value in (
        ("w_i32", rnd.randint(-(2**31), 2**31 - 1)),
        ("w_str", "w"),
        ("w_bool", rnd.random() < 0.5),
        ("w_u64", rnd.randint(0, 2**64 - 1)),
        ("w_d", rnd.random()),
        ("w_by", b"b"),
    ):
        if rnd.random() < 0.5:
            getattr(m, name).value = value
    for _ in range(rnd.randint(0, 2)):
        m.stamps.add(seconds=rnd.randint(0, 2**33), nanos=rnd.randint(0, 999_999_999))
    for _ in range(rnd.randint(0, 2)):
        m.wrapped[rnd.choice(["p", "q"])].value = rnd.randint(-9, 9)
    if rnd.random() < 0.5:
        m.deep.n = rnd.randint(-9, 9)
        if rnd.random() < 0.5:
            m.deep.deeper.leaf = "l"
            m.deep.deeper.c = rnd.choice([0, 1, 5])
    return m


def test_randomized_round_trip(rich):
    rnd = random.Random(20261126)
    reg = StubRegistry()
    s = reg.add(RICH)
    Rich = rich["test.pb.Rich"]
    msgs = [_random_rich(rnd, rich) for _ in range(300)]
    payloads = [
        None if i % 37 == 5 else framed(s.schema_id, m.SerializeToString(), [1])
        for i, m in enumerate(msgs)
    ]
    decoded = decode(reg, payloads)
    got = rows(decoded)
    for i, (m, row) in enumerate(zip(msgs, got, strict=True)):
        want = None if payloads[i] is None else expected(Rich.FromString(m.SerializeToString()))
        assert row == want, i


def test_random_bytes_never_crash(rich):
    rnd = random.Random(7)
    reg = StubRegistry()
    s = reg.add(RICH)
    good = full_rich(rich).SerializeToString()
    payloads = []
    for _ in range(600):
        body = bytearray(good)
        for _ in range(rnd.randint(1, 6)):
            body[rnd.randrange(len(body))] = rnd.randrange(256)
        cut = rnd.randint(0, len(body))
        payloads.append(framed(s.schema_id, bytes(body[:cut]), [1]))
        payloads.append(framed(s.schema_id, rnd.randbytes(rnd.randint(0, 40)), [1]))
    decoded = decode(reg, payloads, on_error="null")
    assert len(decoded.values) == len(payloads)
    decoded.values.validate(full=True)
    errors = decoded.errors.to_pylist()
    Rich = rich["test.pb.Rich"]
    for payload, row, err in zip(payloads, rows(decoded), errors, strict=True):
        if err is None:
            # what kafkawire accepts, protobuf parses alike
            assert row == expected(Rich.FromString(payload[7:]))
