"""Protobuf schemas to Arrow types, and the program the C decoder
(src_c/protobuf_decode.c) runs per record.

A schema's text is ``.proto`` source (what a Confluent registry stores; parsed by
:mod:`kafkawire.registry.proto_text`) or the base64 of a serialized FileDescriptorProto (what
confluent-kafka's serializer registers); its references (``registry.references(schema)``) are
the files it imports, by import path; ``google/protobuf/*.proto`` imports come from the
protobuf package when not referenced. Each payload's message indexes name the message inside
the file: the first is the top-level message's position, the next ones nested positions.

Arrow types:

- double, float: float64, float32; int32, sint32, sfixed32: int32; int64, sint64, sfixed64:
  int64; uint32, fixed32: uint32; uint64, fixed64: uint64; bool; string: string; bytes:
  binary.
- enum: string, the value's name (the first name of an aliased number); a number the enum
  does not declare (open enums keep them) becomes its decimal digits, e.g. ``"7"`` (for
  proto2's closed enums too, where protobuf would move the field to the unknown fields).
- message: struct (null when absent); repeated: list<element>; map<K, V>: map<K, V>; oneof:
  each member its own nullable field, only the set one non-null.
- google.protobuf.Timestamp: timestamp[us, UTC]; Duration: duration[us] (nanoseconds below
  a microsecond are dropped, toward zero); the wrappers (DoubleValue ... BytesValue): their
  scalar, null when absent.
- Struct field names are the .proto field names (not the JSON names).

Absent fields: proto3 (and editions' implicit presence) scalars and enums take their default
(0, "", false, the enum's default value); fields with presence (proto2 optional and required,
proto3 ``optional``, oneof members, messages, wrappers) are null; repeated and map fields are
empty. A map entry without its key or value takes the default (an empty message for a message
value).

Duplicates: a singular scalar (or wrapper, Timestamp, Duration) field seen twice keeps the
last value, as protobuf does; a singular message field seen twice is an error (protobuf merges
the two messages; kafkawire does not); a oneof member set after another member clears it (an
error when the one set before was a message). Repeated scalars are read packed or unpacked
whatever the schema says, as protobuf parsers do. A wire type that does not fit the reader's
field type is an error (protobuf would keep the field as an unknown one); groups are
unsupported (an error if a payload has one, a SchemaError if a schema declares one); map
entries keep every entry, duplicate keys included.

Reader and writers: protobuf reads by field number, so the reader's message decides
everything: fields the reader lacks are skipped by wire type, compatible changes (int32 to
int64, string to bytes...) read as the reader's type. The reader's message is the one that the
first row framed with the reader schema names (when the reader schema is one of the column's
writer schemas, as with ``reader_schema=None``), else the message of the first row's writer
that the reader schema also has (by full name), else the reader schema's first message. A
row whose writer message (by schema id and message indexes) has another full name, or whose
message indexes name no message of its writer schema, is an error; so is a writer schema that
does not parse. The reader schema's own problems (a recursive message, a group, an import
that is not referenced) raise :class:`SchemaError`.
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from kafkawire.registry import proto_text
from kafkawire.registry.avro import Layout
from kafkawire.registry.errors import SchemaError

__all__ = ["arrow_type", "compile_message", "decode_frames", "load_schema"]

# src_c/protobuf_decode.h
PBM_STRUCT, PBM_VALUE, PBM_TIMESTAMP, PBM_DURATION = range(4)
PBF_REPEATED, PBF_DEFAULT = 1, 2
_FIELD = struct.Struct("<IBBhiiiiii")
_MESSAGE = struct.Struct("<iiiiii")

ERROR_TEXT = {
    1: "the value ends inside a field",
    2: "a varint longer than 10 bytes",
    3: "a length past the end of its message",
    4: "a wire type that does not fit the field's type",
    5: "a group (wire type 3 or 4): groups are unsupported",
    6: "wire type 6 or 7 (no such wire type)",
    7: "field number 0 (or above 2^29-1)",
    8: "a string that is not valid UTF-8",
    9: "a singular message field set twice (kafkawire does not merge messages)",
    10: "a oneof member after a message member of the same oneof",
    11: "nesting deeper than 100 levels",
    12: "a Timestamp or Duration outside its range",
    13: "a message-index count that is negative or over 100",
    14: "a negative message index",
    15: "out of memory",
}

_F = FieldDescriptor
_SCALARS = {
    _F.TYPE_DOUBLE: pa.float64(),
    _F.TYPE_FLOAT: pa.float32(),
    _F.TYPE_INT32: pa.int32(),
    _F.TYPE_SINT32: pa.int32(),
    _F.TYPE_SFIXED32: pa.int32(),
    _F.TYPE_INT64: pa.int64(),
    _F.TYPE_SINT64: pa.int64(),
    _F.TYPE_SFIXED64: pa.int64(),
    _F.TYPE_UINT32: pa.uint32(),
    _F.TYPE_FIXED32: pa.uint32(),
    _F.TYPE_UINT64: pa.uint64(),
    _F.TYPE_FIXED64: pa.uint64(),
    _F.TYPE_BOOL: pa.bool_(),
    _F.TYPE_STRING: pa.string(),
    _F.TYPE_BYTES: pa.binary(),
    _F.TYPE_ENUM: pa.string(),
}
_WRAPPERS = {
    "google.protobuf.DoubleValue": _F.TYPE_DOUBLE,
    "google.protobuf.FloatValue": _F.TYPE_FLOAT,
    "google.protobuf.Int64Value": _F.TYPE_INT64,
    "google.protobuf.UInt64Value": _F.TYPE_UINT64,
    "google.protobuf.Int32Value": _F.TYPE_INT32,
    "google.protobuf.UInt32Value": _F.TYPE_UINT32,
    "google.protobuf.BoolValue": _F.TYPE_BOOL,
    "google.protobuf.StringValue": _F.TYPE_STRING,
    "google.protobuf.BytesValue": _F.TYPE_BYTES,
}
_TIMES = {
    "google.protobuf.Timestamp": (PBM_TIMESTAMP, pa.timestamp("us", tz="UTC")),
    "google.protobuf.Duration": (PBM_DURATION, pa.duration("us")),
}


# ---- schemas ------------------------------------------------------------------------------


class _Imports:
    """The FileDescriptorProtos of a schema's references by import path, parsed on first
    use (a mapping for proto_text.parse)."""

    def __init__(self, refs: dict):
        self.refs = refs
        self.done: dict[str, descriptor_pb2.FileDescriptorProto] = {}
        self.loading: set[str] = set()

    def get(self, name: str, default=None):
        if name in self.done:
            return self.done[name]
        schema = self.refs.get(name)
        if schema is None:
            return default
        if name in self.loading:
            raise SchemaError(f"Protobuf imports form a cycle through {name!r}")
        self.loading.add(name)
        try:
            fdp = proto_text.parse(schema.schema_str, name, self)
        finally:
            self.loading.discard(name)
        self.done[name] = fdp
        return fdp


@dataclass
class Loaded:
    """A schema's file as protoc describes it, and a pool holding it with its imports."""

    file: descriptor_pb2.FileDescriptorProto
    pool: descriptor_pool.DescriptorPool
    key: tuple = ()

    def message_name(self, path) -> str | None:
        """The full name of the message that message indexes ``path`` name, or None."""
        msgs = self.file.message_type
        name = self.file.package
        for i in path:
            if not 0 <= i < len(msgs):
                return None
            name = f"{name}.{msgs[i].name}" if name else msgs[i].name
            msgs = msgs[i].nested_type
        return name if path else None

    def has_message(self, full_name: str) -> bool:
        try:
            self.pool.FindMessageTypeByName(full_name)
        except KeyError:
            return False
        return True

    def message(self, full_name: str) -> Descriptor:
        return self.pool.FindMessageTypeByName(full_name)


# Parsed schemas and compiled programs, by the schema texts they come from (a consumer
# decodes batch after batch with the same few schemas).
_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 128
_CACHE_LOCK = threading.Lock()


def _cached(key, make):
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    value = make()
    with _CACHE_LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def load_schema(registry, schema) -> Loaded:
    """Parses a Protobuf schema with its references into a DescriptorPool (cached by the
    texts of the schema and its references)."""
    refs = registry.references(schema) if schema.references and registry is not None else {}
    if schema.references and registry is None:
        raise SchemaError("a schema with references needs a registry to resolve them")
    key = (
        "load",
        schema.schema_str,
        schema.schema_id,
        tuple(sorted((n, r.schema_str) for n, r in refs.items())),
    )
    return _cached(key, lambda: _load(schema, refs, key))


def _load(schema, refs: dict, key: tuple) -> Loaded:
    imports = _Imports(refs)
    name = f"kafkawire-schema-{schema.schema_id if schema.schema_id is not None else 'x'}.proto"
    while name in refs:
        name = "_" + name
    fdp = proto_text.parse(schema.schema_str, name, imports)
    pool = descriptor_pool.DescriptorPool()
    added: set[str] = set()

    def add(f, stack: tuple) -> None:
        if f.name in added:
            return
        for dep in f.dependency:
            if dep in stack:
                raise SchemaError(f"Protobuf imports form a cycle through {dep!r}")
            target = imports.get(dep) or proto_text.well_known(dep)
            if target is None:
                raise SchemaError(f"import {dep!r} of {f.name} is not among the references")
            add(target, (*stack, dep))
        try:
            pool.AddSerializedFile(f.SerializeToString())
        except Exception as exc:  # the pool's own checks (duplicate numbers, names...)
            raise SchemaError(f"Protobuf schema {f.name} does not build: {exc}") from exc
        added.add(f.name)

    add(fdp, (fdp.name,))
    return Loaded(fdp, pool, key)


# ---- Arrow types --------------------------------------------------------------------------


def _is_map(fd) -> bool:
    return fd.type == _F.TYPE_MESSAGE and fd.is_repeated and fd.message_type.GetOptions().map_entry


def _value_type(fd, stack: tuple) -> pa.DataType:
    t = fd.type
    if t == _F.TYPE_MESSAGE:
        name = fd.message_type.full_name
        if name in _WRAPPERS:
            return _SCALARS[_WRAPPERS[name]]
        if name in _TIMES:
            return _TIMES[name][1]
        return arrow_type(fd.message_type, stack)
    if t == _F.TYPE_GROUP:
        raise SchemaError(f"field {fd.full_name} is a group: groups are unsupported")
    return _SCALARS[t]


def _field_type(fd, stack: tuple) -> pa.DataType:
    if _is_map(fd):
        entry = fd.message_type
        key = _value_type(entry.fields_by_number[1], stack)
        value = _value_type(entry.fields_by_number[2], stack)
        return pa.map_(key, value)
    if fd.is_repeated:
        return pa.list_(pa.field("element", _value_type(fd, stack)))
    return _value_type(fd, stack)


def arrow_type(desc: Descriptor, _stack: tuple = ()) -> pa.StructType:
    """The Arrow struct type of a message (see the module docstring)."""
    if desc.full_name in _stack:
        chain = " -> ".join((*_stack[_stack.index(desc.full_name) :], desc.full_name))
        raise SchemaError(
            f"recursive Protobuf message {desc.full_name} has no Arrow type ({chain})"
        )
    stack = (*_stack, desc.full_name)
    return pa.struct([pa.field(fd.name, _field_type(fd, stack)) for fd in desc.fields])


# ---- the program --------------------------------------------------------------------------


@dataclass
class Compiled:
    """A reader message's Arrow type, column layout and program."""

    arrow_type: pa.StructType
    layout: Layout
    root: int
    program: Any
    field_paths: list[str]
    message_paths: list[str]
    message: str  # the full name


class _Compiler:
    def __init__(self, layout: Layout):
        self.layout = layout
        self.msgs: list[list[int]] = []
        self.fields: list[list[int]] = []
        self.dense: list[int] = []
        self.enum_numbers: list[int] = []
        self.enum_names: list[int] = []
        self.names = bytearray()
        self.name_offsets = [0]
        self.name_ids: dict[str, int] = {}
        self.enums: dict[str, tuple[int, int]] = {}
        self.field_paths: list[str] = []
        self.msg_paths: list[str] = []

    def name(self, s: str) -> int:
        if s not in self.name_ids:
            self.names += s.encode()
            self.name_offsets.append(len(self.names))
            self.name_ids[s] = len(self.name_offsets) - 2
        return self.name_ids[s]

    def enum(self, ed) -> tuple[int, int]:
        if ed.full_name not in self.enums:
            first: dict[int, str] = {}
            for v in ed.values:  # an aliased number reads as its first name
                first.setdefault(v.number, v.name)
            a = len(self.enum_numbers)
            for number in sorted(first):
                self.enum_numbers.append(number)
                self.enum_names.append(self.name(first[number]))
            self.enums[ed.full_name] = (a, len(first))
        return self.enums[ed.full_name]

    def message(
        self, desc: Descriptor, col: int, path: str, entry: bool = False, root: bool = False
    ) -> int:
        """A message decoded into column col; returns its index. The root message is a
        struct even when it is a well-known type."""
        mi = len(self.msgs)
        self.msgs.append([col, PBM_STRUCT, 0, 0, -1, 0])
        self.msg_paths.append(path or "(message)")
        name = "" if root else desc.full_name
        if name in _TIMES:
            self.msgs[mi][1] = _TIMES[name][0]
            return mi
        rows = []
        if name in _WRAPPERS:
            self.msgs[mi][1] = PBM_VALUE
            rows.append(self.field(desc.fields_by_number[1], col, path, PBF_DEFAULT, -1))
        else:
            oneofs = list(desc.oneofs)
            for k, fd in enumerate(desc.fields):
                sub = f"{path}.{fd.name}" if path else fd.name
                fcol = self.layout.child(col, k)
                flags = 0
                if entry or (not fd.is_repeated and not fd.has_presence):
                    flags = PBF_DEFAULT
                # a oneof of one member (proto3 `optional`) has nothing to clear
                real = fd.containing_oneof and len(fd.containing_oneof.fields) > 1
                oneof = oneofs.index(fd.containing_oneof) if real else -1
                rows.append(self.field(fd, fcol, sub, flags, oneof))
        rows.sort(key=lambda r: r[0][0])
        first = len(self.fields)
        for row, fpath in rows:
            self.fields.append(row)
            self.field_paths.append(fpath)
        numbers = [r[0][0] for r in rows]
        m = self.msgs[mi]
        m[2], m[3] = first, len(rows)
        if rows and numbers[-1] < 4 * len(rows) + 64:
            m[4] = len(self.dense)
            m[5] = numbers[-1] + 1
            table = [-1] * (numbers[-1] + 1)
            for k, number in enumerate(numbers):
                table[number] = k
            self.dense.extend(table)
        return mi

    def field(self, fd, col: int, path: str, flags: int, oneof: int):
        """(the field's C row, its path)."""
        elem = col
        if fd.is_repeated:
            flags = PBF_REPEATED
            elem = self.layout.child(col, 0)
        msg = a = b = c = 0
        t = fd.type
        if t == _F.TYPE_GROUP:
            raise SchemaError(f"field {fd.full_name} is a group: groups are unsupported")
        if t == _F.TYPE_MESSAGE:
            entry = _is_map(fd)
            sub = f"{path}{{}}" if entry else (f"{path}[]" if fd.is_repeated else path)
            msg = self.message(fd.message_type, elem, sub, entry=entry)
        elif t == _F.TYPE_ENUM:
            a, b = self.enum(fd.enum_type)
            default = fd.enum_type.values[0].number if fd.is_repeated else fd.default_value
            values = fd.enum_type.values_by_number
            c = self.name(values[default].name if default in values else str(default))
        return [fd.number, t, flags, oneof, col, elem, msg, a, b, c], path

    def program(self, root: int):
        from kafkawire.registry._protobuf import FIELD_SIZE, MESSAGE_SIZE, Program

        assert _FIELD.size == FIELD_SIZE and _MESSAGE.size == MESSAGE_SIZE, "C structs changed"
        return Program(
            b"".join(_MESSAGE.pack(*m) for m in self.msgs),
            b"".join(_FIELD.pack(*f) for f in self.fields),
            self.dense,
            self.enum_numbers,
            self.enum_names,
            bytes(self.names),
            self.name_offsets,
            root,
        )


def compile_message(desc: Descriptor) -> Compiled:
    """The Arrow type, columns and program of a reader message."""
    t = arrow_type(desc)
    layout = Layout()
    root_col = layout.add(t)
    c = _Compiler(layout)
    root = c.message(desc, root_col, "", root=True)
    return Compiled(
        t, layout, root_col, c.program(root), c.field_paths, c.msg_paths, desc.full_name
    )


# ---- a column of payloads -----------------------------------------------------------------


def _same_schema(a, b) -> bool:
    if a is b:
        return True
    if a.schema_id is not None and a.schema_id == b.schema_id:
        return True
    return a.schema_str == b.schema_str and a.references == b.references


def _describe(schema) -> str:
    if schema.schema_id is not None:
        return f"schema id {schema.schema_id}"
    if schema.guid is not None:
        return f"schema GUID {schema.guid}"
    return "the schema"


def _header_indexes(tails: dict, frame_starts, starts, counts, indexes, codes, offsets):
    """Rows whose schema id came in a header: their message indexes follow the id there
    (confluent-kafka's header serializer), and the payload is the bare message. Each distinct
    header tail is read once, by the same C reader."""
    from kafkawire.registry import _protobuf

    distinct = sorted(set(tails.values()))
    place = {t: k for k, t in enumerate(distinct)}
    ends = np.cumsum([len(t) for t in distinct], dtype=np.int64)
    begins = ends - np.array([len(t) for t in distinct], dtype=np.int64)
    blob = np.frombuffer(b"".join(distinct) + b"\0", dtype=np.uint8)
    _s, t_counts, t_indexes, t_codes, t_offsets = _protobuf.message_indexes(
        blob, begins, ends, np.zeros(len(distinct), np.int64)
    )
    width = max(indexes.shape[1], t_indexes.shape[1])
    if width > indexes.shape[1]:
        wider = np.full((len(indexes), width), -1, np.int32)
        wider[:, : indexes.shape[1]] = indexes
        indexes = wider
    rows = np.fromiter(tails, dtype=np.int64, count=len(tails))
    which = np.array([place[tails[r]] for r in rows.tolist()], dtype=np.int64)
    starts[rows] = frame_starts[rows]
    counts[rows] = t_counts[which]
    codes[rows] = t_codes[which]
    offsets[rows] = t_offsets[which]
    indexes[rows] = -1
    indexes[rows, : t_indexes.shape[1]] = t_indexes[which]
    return counts, indexes, codes, offsets


def decode_frames(registry, reader_schema, writers: list, frames, keys: np.ndarray):
    """Decodes the Protobuf payloads of a framed column (see decode.decode_column): returns
    (a struct array, {row: error})."""
    from kafkawire.registry import _protobuf

    data = frames.data if len(frames.data) else np.zeros(1, np.uint8)
    keys = np.ascontiguousarray(keys, dtype=np.int64)  # copied below before any change
    tails = {r: t for r, t in getattr(frames, "header_tails", {}).items() if keys[r] >= 0}
    in_payload = keys
    if tails:
        in_payload = keys.copy()
        in_payload[list(tails)] = -1
    if not tails and (
        getattr(frames, "zero_first", False)
        or _protobuf.first_message_everywhere(data, frames.starts, frames.ends, keys)
    ):
        # every message is the schema's first (indexes [0], one zero byte): no arrays a row
        starts = frames.starts + 1  # (rows not decoded have keys < 0: their start is unused)
        counts = np.broadcast_to(np.int32(1), keys.shape)
        indexes = np.broadcast_to(np.int32(0), (len(keys), 1))
        codes = offsets = np.broadcast_to(np.int32(0), keys.shape)
    else:
        starts, counts, indexes, codes, offsets = _protobuf.message_indexes(
            data, frames.starts, frames.ends, in_payload
        )
    if tails:
        counts, indexes, codes, offsets = _header_indexes(
            tails, frames.starts, starts, counts, indexes, codes, offsets
        )
    failed: dict[int, str] = {}
    bad_indexes = np.flatnonzero(codes).tolist()
    if bad_indexes:
        keys = keys.copy()
    for row in bad_indexes:
        text = ERROR_TEXT.get(int(codes[row]), f"error {codes[row]}")
        where = "in the schema id header" if row in tails else "after the schema id"
        failed[row] = f"{text} (message indexes, byte {int(offsets[row])} {where})"
        keys[row] = -2

    reader = load_schema(registry, reader_schema)
    loaded: dict[int, Loaded | SchemaError] = {}

    def writer(k: int) -> Loaded | SchemaError:
        if k not in loaded:
            if _same_schema(writers[k], reader_schema):
                loaded[k] = reader
            else:
                try:
                    loaded[k] = load_schema(registry, writers[k])
                except SchemaError as exc:
                    loaded[k] = exc
        return loaded[k]

    good = keys >= 0
    every = bool(good.all())  # no row left out: no need to select them
    rows = np.flatnonzero(good) if not every else None
    n_rows = len(keys) if every else len(rows)

    def at_rows(a: np.ndarray) -> np.ndarray:
        return a if every else a[rows]

    combos: list[tuple[int, tuple]] = []
    inverse = np.zeros(0, np.int64)
    if n_rows:
        r0 = 0 if every else int(rows[0])
        if (
            (at_rows(keys) == keys[r0]).all()
            and (at_rows(counts) == counts[r0]).all()
            and (at_rows(indexes) == indexes[r0]).all()
        ):  # the usual column: one schema, one message
            inverse = np.zeros(n_rows, np.int64)
            combos.append((int(keys[r0]), tuple(int(x) for x in indexes[r0, : counts[r0]])))
        else:
            table = np.concatenate(
                [
                    at_rows(keys)[:, None],
                    at_rows(counts)[:, None].astype(np.int64),
                    at_rows(indexes),
                ],
                axis=1,
            )
            uniq, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
            inverse = inverse.reshape(-1)
            order = np.argsort(first, kind="stable")
            remap = np.empty(len(uniq), np.int64)
            remap[order] = np.arange(len(uniq))
            inverse = remap[inverse]
            for u in order.tolist():
                k, cnt = int(uniq[u, 0]), int(uniq[u, 1])
                combos.append((k, tuple(int(x) for x in uniq[u, 2 : 2 + cnt])))

    # the reader's message (see the module docstring)
    target = None
    for k, path in combos:
        if _same_schema(writers[k], reader_schema):
            target = reader.message_name(path)
            if target is not None:
                break
    if target is None:
        for k, path in combos:
            w = writer(k)
            if isinstance(w, Loaded):
                name = w.message_name(path)
                if name is not None and reader.has_message(name):
                    target = name
                    break
    if target is None:
        if not reader.file.message_type:
            raise SchemaError(f"Protobuf {_describe(reader_schema)} declares no message")
        target = reader.message_name((0,))
    compiled = _cached(
        ("compile", reader.key, target), lambda: compile_message(reader.message(target))
    )

    which_of = np.full(max(len(combos), 1), -1, np.int32)
    combo_error: dict[int, str] = {}
    for u, (k, path) in enumerate(combos):
        w = writer(k)
        where = _describe(writers[k])
        if isinstance(w, SchemaError):
            combo_error[u] = f"{where} does not load: {w}"
            continue
        name = w.message_name(path)
        if name is None:
            combo_error[u] = f"message indexes {list(path)} name no message of {where}"
        elif name != target:
            combo_error[u] = f"{where} message {name} is not the reader's message {target}"
        else:
            which_of[u] = 0
    which = np.full(len(keys), -1, np.int32)
    if len(combos) == 1 and every:
        which[:] = which_of[0]
    elif n_rows:
        which[slice(None) if every else rows] = which_of[inverse]
    for u, text in combo_error.items():
        hit = np.flatnonzero(inverse == u)
        for row in (hit if every else rows[hit]).tolist():
            failed[row] = text

    table = _protobuf.ColumnTable(compiled.layout.kinds, compiled.layout.types)
    fail_rows, fail_codes, fail_msgs, fail_fields, fail_offsets = _protobuf.decode(
        table, compiled.root, [compiled.program], data, starts, frames.ends, which
    )
    values = table.finish(compiled.root)
    for row, code, msg, fld, off in zip(
        fail_rows.tolist(),
        fail_codes.tolist(),
        fail_msgs.tolist(),
        fail_fields.tolist(),
        fail_offsets.tolist(),
        strict=True,
    ):
        text = ERROR_TEXT.get(code, f"error {code}")
        if fld >= 0:
            where = f"field {compiled.field_paths[fld]}"
        elif msg > 0:
            where = f"message {compiled.message_paths[msg]}"
        else:
            where = f"message {compiled.message}"
        failed[row] = f"{text} ({where}, byte {off} of the Protobuf message)"
    return values, failed
