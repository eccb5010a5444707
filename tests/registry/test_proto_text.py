"""kafkawire.registry.proto_text: .proto text to the FileDescriptorProto protoc makes, checked
against descriptors that protoc made (the protobuf package's well-known types, the googleapis
protos installed with their generated _pb2 modules) and hand-written ones."""

from __future__ import annotations

import base64
import importlib
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, text_format

from kafkawire.registry import proto_text
from kafkawire.registry.errors import SchemaError


def _fdp(module) -> descriptor_pb2.FileDescriptorProto:
    out = descriptor_pb2.FileDescriptorProto()
    out.ParseFromString(module.DESCRIPTOR.serialized_pb)
    return out


def _normalize(fdp, json_names: bool = True):
    """Custom options (extensions) and unknown fields dropped: the parser skips those."""

    def walk(m):
        for fd, v in list(m.ListFields()):
            if fd.is_extension:
                m.ClearExtension(fd)
            elif fd.message_type is not None:
                for x in v if fd.is_repeated else [v]:
                    walk(x)
        m.DiscardUnknownFields()
        if not json_names and m.DESCRIPTOR.name == "FieldDescriptorProto":
            m.ClearField("json_name")

    walk(fdp)
    return fdp


# ---- against protoc's own descriptors -----------------------------------------------------

TIMESTAMP = """
// Mirrors google/protobuf/timestamp.proto.
syntax = "proto3";

package google.protobuf;

option cc_enable_arenas = true;
option go_package = "google.golang.org/protobuf/types/known/timestamppb";
option java_package = "com.google.protobuf";
option java_outer_classname = "TimestampProto";
option java_multiple_files = true;
option objc_class_prefix = "GPB";
option csharp_namespace = "Google.Protobuf.WellKnownTypes";

/* A point in time. */
message Timestamp {
  int64 seconds = 1;  // since the epoch
  int32 nanos = 2;
}
"""

STRUCT = """
syntax = "proto3";
package google.protobuf;
option cc_enable_arenas = true;
option go_package = "google.golang.org/protobuf/types/known/structpb";
option java_package = "com.google.protobuf";
option java_outer_classname = "StructProto";
option java_multiple_files = true;
option objc_class_prefix = "GPB";
option csharp_namespace = "Google.Protobuf.WellKnownTypes";
message Struct {
  map<string, Value> fields = 1;
}
message Value {
  oneof kind {
    NullValue null_value = 1;
    double number_value = 2;
    string string_value = 3;
    bool bool_value = 4;
    Struct struct_value = 5;
    ListValue list_value = 6;
  }
}
enum NullValue {
  NULL_VALUE = 0;
}
message ListValue {
  repeated Value values = 1;
}
"""

WRAPPERS = """
syntax = "proto3";
package google.protobuf;
option cc_enable_arenas = true;
option go_package = "google.golang.org/protobuf/types/known/wrapperspb";
option java_package = "com.google.protobuf";
option java_outer_classname = "WrappersProto";
option java_multiple_files = true;
option objc_class_prefix = "GPB";
option csharp_namespace = "Google.Protobuf.WellKnownTypes";
message DoubleValue { double value = 1; }
message FloatValue { float value = 1; }
message Int64Value { int64 value = 1; }
message UInt64Value { uint64 value = 1; }
message Int32Value { int32 value = 1; }
message UInt32Value { uint32 value = 1; }
message BoolValue { bool value = 1; }
message StringValue { string value = 1; }
message BytesValue { bytes value = 1; }
"""


@pytest.mark.parametrize(
    ("text", "module"),
    [(TIMESTAMP, "timestamp_pb2"), (STRUCT, "struct_pb2"), (WRAPPERS, "wrappers_pb2")],
)
def test_well_known_types_equal_protocs(text, module):
    want = _fdp(importlib.import_module(f"google.protobuf.{module}"))
    got = proto_text.parse(text, want.name)
    assert text_format.MessageToString(got) == text_format.MessageToString(want)
    assert proto_text.well_known(want.name) == want


def _googleapis() -> list[Path]:
    try:
        import google.rpc
    except ImportError:  # pragma: no cover - googleapis-common-protos comes with grpc deps
        return []
    root = Path(google.rpc.__path__[0]).parent
    return sorted(root.rglob("*.proto"))


def _pb2(path: Path):
    root = Path(importlib.import_module("google.rpc").__path__[0]).parent.parent
    dotted = ".".join(path.relative_to(root).with_suffix("").parts)
    try:
        return importlib.import_module(dotted + "_pb2")
    except ImportError:
        return None


@pytest.mark.parametrize("path", _googleapis(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_googleapis_protos_equal_their_generated_descriptors(path):
    """Every .proto that googleapis-common-protos installs beside its _pb2 module: services,
    extend blocks, custom options, maps, oneofs, nested types, reserved, imports."""
    module = _pb2(path)
    if module is None:
        pytest.skip("no generated module beside it")
    want = _fdp(module)
    imports: dict = {}

    def add(f):
        for dep in f.dependency:
            if dep not in imports and proto_text.well_known(dep) is None:
                dep_module = importlib.import_module(
                    dep[: -len(".proto")].replace("/", ".") + "_pb2"
                )
                imports[dep] = _fdp(dep_module)
                add(imports[dep])

    add(want)
    got = proto_text.parse(path.read_text(), want.name, imports)
    # these generated descriptors carry no json_name; custom options are skipped
    assert _normalize(got, json_names=False) == _normalize(want, json_names=False)


# ---- hand-written expectations ------------------------------------------------------------

PROTO2 = r"""
syntax = "proto2";
package a.b;

import public "dep/public.proto";
import weak "dep/weak.proto";

option java_package = "com." "example";  // concatenated

message Outer {
  option deprecated = true;
  enum Kind {
    option allow_alias = true;
    UNKNOWN = 0;
    FIRST = 1;
    PRIMERO = 1 [deprecated = true];
    NEG = -2;
    reserved 10 to 12, 99;
    reserved "OLD";
  }
  required int32 id = 1 [default = 0x10];
  optional string s = 2 [default = "a\"b\n\u00e9"];
  optional bytes raw = 3 [default = "\001\xff"];
  optional double d = 4 [default = -1.5e3];
  optional float f = 5 [default = inf];
  optional Kind kind = 6 [default = FIRST];
  repeated sint32 packed = 7 [packed = true, json_name = "P"];
  optional .a.b.Outer.Inner inner = 8;
  optional Pub pub = 9;
  optional dep.Weak weak = 10;
  message Inner {
    optional Kind k = 1;
    optional Outer back = 2;
  }
  extensions 100 to 199, 1000 to max;
  reserved 20, 30 to 40;
  reserved "gone", "went";
  oneof pick {
    string name = 11;
    Inner as_inner = 12;
  }
  map<int64, Inner> by_id = 13;
}

extend Outer {
  optional int32 ext = 100;
}

service Svc {
  rpc Call (Outer) returns (stream Outer.Inner);
  rpc Both (stream Outer) returns (Outer) { option deprecated = true; }
}
"""

PROTO2_EXPECTED = r"""
name: "a/b.proto"
package: "a.b"
dependency: "dep/public.proto"
dependency: "dep/weak.proto"
public_dependency: 0
weak_dependency: 1
message_type {
  name: "Outer"
  field { name: "id" number: 1 label: LABEL_REQUIRED type: TYPE_INT32 default_value: "16"
          json_name: "id" }
  field { name: "s" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING
          default_value: "a\"b\n\303\251" json_name: "s" }
  field { name: "raw" number: 3 label: LABEL_OPTIONAL type: TYPE_BYTES
          default_value: "\\001\\377" json_name: "raw" }
  field { name: "d" number: 4 label: LABEL_OPTIONAL type: TYPE_DOUBLE default_value: "-1500"
          json_name: "d" }
  field { name: "f" number: 5 label: LABEL_OPTIONAL type: TYPE_FLOAT default_value: "inf"
          json_name: "f" }
  field { name: "kind" number: 6 label: LABEL_OPTIONAL type: TYPE_ENUM
          type_name: ".a.b.Outer.Kind" default_value: "FIRST" json_name: "kind" }
  field { name: "packed" number: 7 label: LABEL_REPEATED type: TYPE_SINT32 json_name: "P"
          options { packed: true } }
  field { name: "inner" number: 8 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".a.b.Outer.Inner" json_name: "inner" }
  field { name: "pub" number: 9 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".a.b.Pub" json_name: "pub" }
  field { name: "weak" number: 10 label: LABEL_OPTIONAL type: TYPE_ENUM
          type_name: ".dep.Weak" json_name: "weak" }
  field { name: "name" number: 11 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0
          json_name: "name" }
  field { name: "as_inner" number: 12 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".a.b.Outer.Inner" oneof_index: 0 json_name: "asInner" }
  field { name: "by_id" number: 13 label: LABEL_REPEATED type: TYPE_MESSAGE
          type_name: ".a.b.Outer.ByIdEntry" json_name: "byId" }
  nested_type {
    name: "Inner"
    field { name: "k" number: 1 label: LABEL_OPTIONAL type: TYPE_ENUM
            type_name: ".a.b.Outer.Kind" json_name: "k" }
    field { name: "back" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE
            type_name: ".a.b.Outer" json_name: "back" }
  }
  nested_type {
    name: "ByIdEntry"
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 json_name: "key" }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE
            type_name: ".a.b.Outer.Inner" json_name: "value" }
    options { map_entry: true }
  }
  enum_type {
    name: "Kind"
    value { name: "UNKNOWN" number: 0 }
    value { name: "FIRST" number: 1 }
    value { name: "PRIMERO" number: 1 options { deprecated: true } }
    value { name: "NEG" number: -2 }
    options { allow_alias: true }
    reserved_range { start: 10 end: 12 }
    reserved_range { start: 99 end: 99 }
    reserved_name: "OLD"
  }
  extension_range { start: 100 end: 200 }
  extension_range { start: 1000 end: 536870912 }
  oneof_decl { name: "pick" }
  options { deprecated: true }
  reserved_range { start: 20 end: 21 }
  reserved_range { start: 30 end: 41 }
  reserved_name: "gone"
  reserved_name: "went"
}
service {
  name: "Svc"
  method { name: "Call" input_type: ".a.b.Outer" output_type: ".a.b.Outer.Inner"
           server_streaming: true }
  method { name: "Both" input_type: ".a.b.Outer" output_type: ".a.b.Outer"
           options { deprecated: true } client_streaming: true }
}
extension { name: "ext" extendee: ".a.b.Outer" number: 100 label: LABEL_OPTIONAL
            type: TYPE_INT32 json_name: "ext" }
options { java_package: "com.example" }
"""


def _dep_files() -> dict:
    weak = proto_text.parse(
        'syntax = "proto2"; package dep; enum Weak { W = 1; }', "dep/weak.proto"
    )
    pub_inner = proto_text.parse(
        'syntax = "proto2"; package a.b; message Pub { optional int32 x = 1; }',
        "dep/pub_inner.proto",
    )
    public = proto_text.parse(
        'syntax = "proto2"; import public "dep/pub_inner.proto";',
        "dep/public.proto",
        {"dep/pub_inner.proto": pub_inner},
    )
    return {
        "dep/weak.proto": weak,
        "dep/public.proto": public,
        "dep/pub_inner.proto": pub_inner,
    }


def test_proto2_file_equals_the_hand_written_descriptor():
    files = _dep_files()
    got = proto_text.parse(PROTO2, "a/b.proto", files)
    want = text_format.Parse(PROTO2_EXPECTED, descriptor_pb2.FileDescriptorProto())
    assert text_format.MessageToString(got) == text_format.MessageToString(want)
    # and it builds
    pool = descriptor_pool.DescriptorPool()
    for name in ("dep/weak.proto", "dep/pub_inner.proto", "dep/public.proto"):
        pool.AddSerializedFile(files[name].SerializeToString())
    pool.AddSerializedFile(got.SerializeToString())
    outer = pool.FindMessageTypeByName("a.b.Outer")
    assert outer.fields_by_name["s"].default_value == 'a"b\né'
    assert outer.fields_by_name["raw"].default_value == b"\x01\xff"
    assert outer.fields_by_name["kind"].default_value == 1


def test_proto3_optional_gets_protocs_synthetic_oneofs():
    text = """
    syntax = "proto3";
    message M {
      optional int32 a = 1;
      oneof real { string b = 2; }
      optional string _c = 3;
      int32 d = 4;
      optional bool q = 5;
      oneof _q { string other = 6; }
    }
    """
    got = proto_text.parse(text, "m.proto")
    m = got.message_type[0]
    # protoc's names: "_" + the field's name, "X" prefixed while that is a field or oneof
    assert [o.name for o in m.oneof_decl] == ["real", "_q", "_a", "X_c", "X_q"]
    assert [(f.name, f.HasField("oneof_index") and f.oneof_index) for f in m.field] == [
        ("a", 2),
        ("b", 0),
        ("_c", 3),
        ("d", False),
        ("q", 4),
        ("other", 1),
    ]
    assert [f.proto3_optional for f in m.field] == [True, False, True, False, True, False]
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(got.SerializeToString())
    assert pool.FindMessageTypeByName("M").fields_by_name["a"].has_presence


def test_names_resolve_by_protobuf_scoping():
    other = proto_text.parse(
        'syntax = "proto3"; package x.y; message T { int32 v = 1; } enum E { Z = 0; }',
        "x/y.proto",
    )
    text = """
    syntax = "proto3";
    package x.app;
    import "x/y.proto";
    message T { string shadow = 1; }
    message Outer {
      message T { bool innermost = 1; }
      T a = 1;           // Outer.T: the innermost scope first
      .x.app.T b = 2;    // fully qualified
      y.T c = 3;         // x.y.T through the enclosing package x
      x.y.E d = 4;
      app.T e = 5;       // x.app.T
      Outer.T f = 6;
      message Deeper { T g = 1; .x.y.T h = 2; }
    }
    """
    got = proto_text.parse(text, "x/app.proto", {"x/y.proto": other})
    outer = got.message_type[1]
    names = {f.name: f.type_name for f in outer.field}
    assert names == {
        "a": ".x.app.Outer.T",
        "b": ".x.app.T",
        "c": ".x.y.T",
        "d": ".x.y.E",
        "e": ".x.app.T",
        "f": ".x.app.Outer.T",
    }
    deeper = outer.nested_type[1]
    assert [f.type_name for f in deeper.field] == [".x.app.Outer.T", ".x.y.T"]
    assert outer.field[3].type == descriptor_pb2.FieldDescriptorProto.TYPE_ENUM


def test_well_known_imports_need_no_reference():
    text = """
    syntax = "proto3";
    import "google/protobuf/any.proto";
    import "google/protobuf/empty.proto";
    import "google/protobuf/field_mask.proto";
    import "google/protobuf/struct.proto";
    message W {
      google.protobuf.Any any = 1;
      google.protobuf.Empty empty = 2;
      google.protobuf.FieldMask mask = 3;
      google.protobuf.Struct st = 4;
      google.protobuf.NullValue nv = 5;
    }
    """
    got = proto_text.parse(text, "w.proto")
    assert [f.type_name for f in got.message_type[0].field] == [
        ".google.protobuf.Any",
        ".google.protobuf.Empty",
        ".google.protobuf.FieldMask",
        ".google.protobuf.Struct",
        ".google.protobuf.NullValue",
    ]


def test_editions_syntax_and_features():
    text = """
    edition = "2023";
    package e;
    option features.field_presence = IMPLICIT;
    message M {
      int32 a = 1;
      int32 b = 2 [features.field_presence = EXPLICIT];
      repeated int32 r = 3 [features.repeated_field_encoding = EXPANDED];
    }
    """
    got = proto_text.parse(text, "e.proto")
    assert got.syntax == "editions" and got.edition == descriptor_pb2.EDITION_2023
    assert got.options.features.field_presence == descriptor_pb2.FeatureSet.IMPLICIT
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(got.SerializeToString())
    fields = pool.FindMessageTypeByName("e.M").fields_by_name
    assert not fields["a"].has_presence and fields["b"].has_presence
    assert not fields["r"].is_packed


def test_base64_file_descriptor_is_decoded():
    want = _fdp(importlib.import_module("google.protobuf.timestamp_pb2"))
    b64 = base64.standard_b64encode(want.SerializeToString()).decode()
    got = proto_text.parse(b64, "renamed.proto")
    want.name = "renamed.proto"
    assert got == want
    # wrapped over lines, as some tools print it
    wrapped = "\n".join(b64[i : i + 60] for i in range(0, len(b64), 60))
    assert proto_text.parse(wrapped, "renamed.proto") == want


# ---- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('syntax = "proto3";\nmessage M {\n  int32 a = 1\n}', "4:1", "expected ';'"),
        ('syntax = "proto3";\nmessage M { Missing m = 1; }', "2:13", "type Missing is not"),
        ('syntax = "proto3";\nmessage M { required int32 a = 1; }', "2:13", "no required"),
        ('syntax = "proto3";\nenum E { A = 1; }', "2:14", "first value of proto3 enum E"),
        ('syntax = "proto2";\nmessage M { int32 a = 1; }', "2:13", "needs a label"),
        ('syntax = "proto3";\nmessage M { int32 a = 0; }', "2:23", "field number 0 outside"),
        ('syntax = "proto4";', "1:10", "unknown syntax 'proto4'"),
        ('syntax = "proto3";\n/* open', "2:1", "never closed"),
        ('syntax = "proto3";\nmessage M { int32 a = 1; ', "2:26", "never closed"),
        ('syntax = "proto3";\nmessage M { map<float, int32> m = 1; }', "2:17", "map key type"),
        ('syntax = "proto3";\nmessage M { int32 a = 1; } #', "2:28", "unexpected character"),
        ('syntax = "proto3";\nmessage M { string s = 1 [default = 5]; }', "2:27", "a string"),
        ('syntax = "proto3";\nmessage M { oneof o { optional int32 a = 1; } }', "2:23", "no label"),
        ('syntax = "proto3";\nimport "missing.proto";', "", "'missing.proto' is not among"),
        (
            'syntax = "proto3"; package p;\nmessage A { message B {} }\nmessage C { A.X x = 1; }',
            "3:13",
            "type A.X is not defined",
        ),
        ('syntax = "proto3";\nmessage M { string s = 1; }\nfoo', "3:1", "unexpected 'foo'"),
        ('message M { optional string s = 1 [default = "\\q"]; }', "1:46", "unknown escape"),
    ],
)
def test_errors_say_line_and_column(text, where, message):
    with pytest.raises(SchemaError) as info:
        proto_text.parse(text, "bad.proto")
    text = str(info.value)
    assert text.startswith(f"bad.proto:{where}" if where else "bad.proto"), text
    assert message in text, text
