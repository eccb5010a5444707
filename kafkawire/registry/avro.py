"""Avro schemas to Arrow types, and writer schemas resolved against a reader schema into the
programs that the C decoder (src_c/avro_decode.c) runs per record.

Arrow types of Avro's (Spark's ``from_avro`` mapping where Arrow has a choice):

- null, boolean, int, long, float, double, bytes, string: null, bool, int32, int64, float32,
  float64, binary, string; enum: string; fixed: fixed_size_binary(size).
- logical types: decimal (bytes or fixed): decimal128(precision, scale) (decimal256 past 38
  digits); date: date32; time-millis: time32[ms]; time-micros: time64[us];
  timestamp-millis/-micros/-nanos: timestamp[ms/us/ns, UTC]; local-timestamp-*: timestamp
  without zone; uuid: string (or fixed_size_binary(16) on fixed); duration: month_day_nano.
- record: struct; array: list<element>; map: map<string, value>; a union of null and one type:
  that type, nullable; any other union: struct<member0, member1, ...> (one member set a row,
  null for the null branch), as Spark's from_avro does.

Schema resolution follows the Avro specification: fields matched by name (and the reader's
aliases), writer-only fields skipped, reader-only fields filled from their defaults, the
numeric promotions (int to long, float, double; long to float, double; float to double), string
and bytes interchangeable, enum symbols mapped by name (the reader's enum default for unknown
ones), unions matched branch by branch. A writer branch the reader cannot take fails only the
records that use it.
"""

from __future__ import annotations

import io
import json
import struct
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from kafkawire.registry.errors import SchemaError

try:
    from fastavro import schemaless_writer
    from fastavro.schema import parse_schema
except ImportError:  # pragma: no cover - the registry extra installs it
    parse_schema = None

# Node ops, conversions and union modes: the enums of src_c/avro_decode.h.
(
    AV_NULL,
    AV_BOOLEAN,
    AV_INT,
    AV_LONG,
    AV_FLOAT,
    AV_DOUBLE,
    AV_BYTES,
    AV_STRING,
    AV_FIXED,
    AV_ENUM,
    AV_RECORD,
    AV_ARRAY,
    AV_MAP,
    AV_UNION,
    AV_DECIMAL_BYTES,
    AV_DECIMAL_FIXED,
    AV_DURATION,
    AV_DEFAULT,
    AV_ERROR,
) = range(19)
AVT_SAME, AVT_I32, AVT_I64, AVT_F32, AVT_F64 = range(5)
AVB_NONE, AVB_NULL, AVB_VALUE, AVB_MEMBER = range(4)
AVF_UTF8, AVF_TIME_MS, AVF_TIME_US = 1, 2, 3
# Column kinds of src_c/arrow_columns.h.
KWC_NULL, KWC_BOOL, KWC_FIXED, KWC_BINARY, KWC_STRUCT, KWC_LIST = range(6)
_NODE = struct.Struct("<BBBBiiiiii")

# Why a record failed: the kw_avro_err codes of src_c/avro_decode.h.
ERROR_TEXT = {
    1: "the value ends inside a field",
    2: "a varint longer than 10 bytes",
    3: "an int outside 32 bits",
    4: "a negative or impossible length or count",
    5: "a string that is not valid UTF-8",
    6: "a union branch index outside the union",
    7: "an enum index outside the writer's symbols",
    8: "an enum symbol the reader schema does not have",
    9: "a value the reader schema cannot take",
    10: "a decimal wider than its precision",
    11: "bytes left over after the value",
    12: "nesting deeper than 64 levels",
    13: "out of memory",
    14: "a time of day outside 0 to 24 hours",
}

_PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
_PROMOTIONS = {
    "int": {"long", "float", "double"},
    "long": {"float", "double"},
    "float": {"double"},
    "string": {"bytes"},
    "bytes": {"string"},
}


def parse(schema_str: str | dict | list, named: dict[str, Any] | None = None) -> Any:
    """An Avro schema (JSON text or parsed) in fastavro's canonical form: names fully
    qualified, each named type given in full once and referred to by name after. ``named``
    collects the named types (pass the referenced schemas' first)."""
    if parse_schema is None:
        raise SchemaError("Avro schemas need fastavro: pip install 'kafkawire[registry]'")
    if isinstance(schema_str, str) and schema_str.strip() in _PRIMITIVES:
        schema_str = schema_str.strip()  # a bare primitive name, as some registries store it
    elif isinstance(schema_str, str):
        try:
            schema_str = json.loads(schema_str)
        except json.JSONDecodeError as exc:
            raise SchemaError(f"Avro schema is not JSON: {exc}") from exc
    try:
        return parse_schema(
            schema_str, named_schemas=named if named is not None else {}, _write_hint=False
        )
    except Exception as exc:  # fastavro raises a variety of types for bad schemas
        raise SchemaError(f"bad Avro schema: {exc}") from exc


def _kind(schema: Any, named: dict) -> tuple[Any, str]:
    """(the schema with names looked up, its Avro type name)."""
    if isinstance(schema, str):
        if schema in _PRIMITIVES:
            return schema, schema
        if schema not in named:
            raise SchemaError(f"unknown Avro type name {schema!r}")
        schema = named[schema]
    if isinstance(schema, list):
        return schema, "union"
    t = schema["type"]
    if isinstance(t, (dict, list)) or (t not in _PRIMITIVES and t in named):
        return _kind(t, named)
    return schema, t


def _logical(schema: Any) -> str | None:
    return schema.get("logicalType") if isinstance(schema, dict) else None


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _union_parts(branches: list, named: dict) -> tuple[bool, list]:
    """(has a null branch, the non-null branches)."""
    nonnull = [b for b in branches if _kind(b, named)[1] != "null"]
    return len(nonnull) < len(branches), nonnull


def _decimal_type(schema: dict) -> pa.DataType:
    precision = int(schema.get("precision", 0))
    scale = int(schema.get("scale", 0))
    if not 0 < precision <= 76 or not 0 <= scale <= precision:
        raise SchemaError(f"decimal with precision {precision} and scale {scale} unsupported")
    return pa.decimal128(precision, scale) if precision <= 38 else pa.decimal256(precision, scale)


_INT_LOGICAL = {"date": pa.date32(), "time-millis": pa.time32("ms")}
_LONG_LOGICAL = {
    "time-micros": pa.time64("us"),
    "timestamp-millis": pa.timestamp("ms", tz="UTC"),
    "timestamp-micros": pa.timestamp("us", tz="UTC"),
    "timestamp-nanos": pa.timestamp("ns", tz="UTC"),
    "local-timestamp-millis": pa.timestamp("ms"),
    "local-timestamp-micros": pa.timestamp("us"),
    "local-timestamp-nanos": pa.timestamp("ns"),
}


def arrow_type(schema: Any, named: dict, _stack: tuple = ()) -> pa.DataType:
    """The Arrow type of values of ``schema`` (see the module docstring)."""
    s, kind = _kind(schema, named)
    logical = _logical(s)
    if kind == "null":
        return pa.null()
    if kind == "boolean":
        return pa.bool_()
    if kind == "int":
        return _INT_LOGICAL.get(logical, pa.int32())
    if kind == "long":
        return _LONG_LOGICAL.get(logical, pa.int64())
    if kind == "float":
        return pa.float32()
    if kind == "double":
        return pa.float64()
    if kind == "bytes":
        return _decimal_type(s) if logical == "decimal" else pa.binary()
    if kind == "string":
        return pa.string()
    if kind == "enum":
        return pa.string()
    if kind == "fixed":
        if logical == "decimal":
            return _decimal_type(s)
        if logical == "duration" and s["size"] == 12:
            return pa.month_day_nano_interval()
        return pa.binary(int(s["size"]))
    if kind == "array":
        return pa.list_(pa.field("element", arrow_type(s["items"], named, _stack)))
    if kind == "map":
        return pa.map_(pa.string(), arrow_type(s["values"], named, _stack))
    if kind == "record":
        name = s["name"]
        if name in _stack:
            raise SchemaError(f"recursive Avro type {name} has no Arrow type (unsupported)")
        return pa.struct(
            [
                pa.field(f["name"], arrow_type(f["type"], named, (*_stack, name)))
                for f in s["fields"]
            ]
        )
    if kind == "union":
        _has_null, nonnull = _union_parts(s, named)
        if len(nonnull) == 1:
            return arrow_type(nonnull[0], named, _stack)
        if not nonnull:
            return pa.null()
        return pa.struct(
            [pa.field(f"member{i}", arrow_type(b, named, _stack)) for i, b in enumerate(nonnull)]
        )
    raise SchemaError(f"Avro type {kind!r} unsupported")


# ---- the column table ---------------------------------------------------------------------


@dataclass
class Layout:
    """Columns for one Arrow type, children consecutive (as ColumnTable wants them)."""

    kinds: list[tuple[int, int, int, int]] = field(default_factory=list)
    types: list[pa.DataType] = field(default_factory=list)

    def add(self, t: pa.DataType) -> int:
        """Allocates columns for a value of type t; returns its column."""
        i = len(self.kinds)
        self.kinds.append((0, 0, 0, 0))
        self.types.append(t)
        self._fill(i, t)
        return i

    def _fill(self, i: int, t: pa.DataType) -> None:
        if pa.types.is_struct(t):
            children = [t.field(k).type for k in range(t.num_fields)]
            kind = KWC_STRUCT
        elif pa.types.is_map(t):
            children = [pa.struct([pa.field("key", t.key_type, False), t.item_field])]
            kind = KWC_LIST
        elif pa.types.is_list(t):
            children = [t.value_type]
            kind = KWC_LIST
        else:
            children = []
            if pa.types.is_null(t):
                kind, width = KWC_NULL, 0
            elif pa.types.is_boolean(t):
                kind, width = KWC_BOOL, 0
            elif pa.types.is_string(t) or pa.types.is_binary(t):
                kind, width = KWC_BINARY, 0
            elif pa.types.is_interval(t):
                kind, width = KWC_FIXED, 16
            else:
                kind, width = KWC_FIXED, t.byte_width
            self.kinds[i] = (kind, width, 0, 0)
            return
        first = len(self.kinds)
        for c in children:  # reserve the children's slots first: they must be consecutive
            self.kinds.append((0, 0, 0, 0))
            self.types.append(c)
        for k, c in enumerate(children):
            self._fill(first + k, c)
        self.kinds[i] = (kind, 0, first, len(children))

    def child(self, col: int, k: int) -> int:
        return self.kinds[col][2] + k


# ---- programs -----------------------------------------------------------------------------


class _Compiler:
    """Compiles one writer schema against the reader schema into node tables."""

    def __init__(self, layout: Layout, wnamed: dict, rnamed: dict):
        self.layout = layout
        self.wnamed = wnamed
        self.rnamed = rnamed
        self.nodes: list[list[int]] = []
        self.kids: list[int] = []
        self.enum_map: list[int] = []
        self.symbols = bytearray()
        self.symbol_offsets: list[int] = [0]
        self.defaults = bytearray()
        self.paths: list[str] = []
        self.messages: dict[int, str] = {}

    def node(self, op: int, col: int, path: str, **kw: int) -> int:
        n = [
            op,
            kw.get("to", AVT_SAME),
            kw.get("branch", AVB_NONE),
            kw.get("flags", 0),
            col,
            kw.get("a", 0),
            kw.get("b", 0),
            kw.get("c", 0),
            kw.get("member", 0),
            kw.get("ucol", -1),
        ]
        self.nodes.append(n)
        self.paths.append(path or "(value)")
        return len(self.nodes) - 1

    def error(self, col: int, path: str, message: str) -> int:
        i = self.node(AV_ERROR, col, path)
        self.messages[i] = message
        return i

    def kid_block(self, kids: list[int]) -> int:
        start = len(self.kids)
        self.kids.extend(kids)
        return start

    # -- the resolution ------------------------------------------------------------------

    def compile(self, w: Any, r: Any | None, col: int, path: str, stack: tuple = ()) -> int:
        """A node that reads a writer value of schema w into column col (a value of reader
        schema r; None with col -1 to skip it)."""
        ws, wk = _kind(w, self.wnamed)
        if wk == "union":
            kids = [self.branch(b, r, col, path, stack) for b in ws]
            return self.node(AV_UNION, -1, path, a=self.kid_block(kids), b=len(kids))
        if r is None:
            return self.plain(ws, wk, None, None, -1, path, stack)
        rs, rk = _kind(r, self.rnamed)
        if rk == "union":
            return self.branch(w, r, col, path, stack)
        return self.plain(ws, wk, rs, rk, col, path, stack)

    def branch(self, w: Any, r: Any | None, col: int, path: str, stack: tuple) -> int:
        """A writer value (maybe a union branch) into a reader that may be a union."""
        ws, wk = _kind(w, self.wnamed)
        if r is None:
            return self.plain(ws, wk, None, None, -1, path, stack)
        rs, rk = _kind(r, self.rnamed)
        if rk != "union":
            if wk == "null":
                if rk == "null":
                    return self.node(AV_NULL, col, path)
                return self.error(col, path, "null where the reader schema has no null")
            return self.plain(ws, wk, rs, rk, col, path, stack)
        has_null, nonnull = _union_parts(rs, self.rnamed)
        if wk == "null":
            if not has_null:
                return self.error(col, path, "null where the reader's union has no null")
            return self.node(AV_NULL, -1, path, branch=AVB_NULL, ucol=col)
        pick = self.pick(ws, wk, nonnull)
        if pick is None:
            return self.error(col, path, f"writer type {_describe(ws, wk)} not in reader union")
        rb = nonnull[pick]
        rbs, rbk = _kind(rb, self.rnamed)
        if len(nonnull) == 1:
            return self.plain(ws, wk, rbs, rbk, col, path, stack)
        member_col = self.layout.child(col, pick)
        n = self.plain(ws, wk, rbs, rbk, member_col, f"{path}.member{pick}", stack)
        self.nodes[n][2] = AVB_MEMBER
        self.nodes[n][8] = pick
        self.nodes[n][9] = col
        return n

    def pick(self, ws: Any, wk: str, branches: list) -> int | None:
        """The reader branch a writer type resolves to: the same type first, then a
        promotion (the Avro specification's order)."""
        kinds = [_kind(b, self.rnamed) for b in branches]
        named_kinds = ("record", "enum", "fixed")
        for i, (bs, bk) in enumerate(kinds):
            if bk == wk and (wk not in named_kinds or _same_name(ws, bs)):
                return i
        for i, (_bs, bk) in enumerate(kinds):
            if bk in _PROMOTIONS.get(wk, ()):
                return i
        return None

    def plain(self, ws, wk, rs, rk, col: int, path: str, stack: tuple) -> int:
        """A non-union writer value into a non-union reader type (rk None: skipped)."""
        skip = rk is None
        if not skip and wk != rk and rk not in _PROMOTIONS.get(wk, ()):
            return self.error(col, path, f"writer {_describe(ws, wk)} cannot be read as {rk}")
        rlogical = None if skip else _logical(rs)
        if wk == "null":
            return self.node(AV_NULL, col, path)
        if wk == "boolean":
            return self.node(AV_BOOLEAN, col, path)
        if wk in ("int", "long", "float", "double"):
            op = {"int": AV_INT, "long": AV_LONG, "float": AV_FLOAT, "double": AV_DOUBLE}[wk]
            target = wk if skip else rk
            to = {"int": AVT_I32, "long": AVT_I64, "float": AVT_F32, "double": AVT_F64}[target]
            flags = 0
            if rlogical == "time-millis" and wk == "int":
                flags = AVF_TIME_MS
            elif rlogical == "time-micros" and wk == "long":
                flags = AVF_TIME_US
            return self.node(op, col, path, to=to, flags=flags)
        if wk in ("bytes", "string"):
            if not skip and rlogical == "decimal" and rk == "bytes":
                if (
                    wk == "bytes"
                    and _logical(ws) == "decimal"
                    and ws.get("scale", 0) != rs.get("scale", 0)
                ):
                    return self.error(col, path, "decimal scales of writer and reader differ")
                return self.node(AV_DECIMAL_BYTES, col, path, c=_precision(rs))
            to_string = not skip and rk == "string"
            return self.node(
                AV_STRING if to_string else AV_BYTES, col, path, flags=AVF_UTF8 if to_string else 0
            )
        if wk == "fixed":
            size = int(ws["size"])
            if not skip:
                if not _same_name(ws, rs) or int(rs["size"]) != size:
                    return self.error(col, path, f"fixed {ws['name']} does not match the reader")
                if rlogical == "decimal":
                    return self.node(AV_DECIMAL_FIXED, col, path, a=size, c=_precision(rs))
                if rlogical == "duration" and size == 12:
                    return self.node(AV_DURATION, col, path)
            return self.node(AV_FIXED, col, path, a=size)
        if wk == "enum":
            wsyms = ws["symbols"]
            start = len(self.enum_map)
            if skip:
                self.enum_map.extend([-1] * len(wsyms))
            else:
                if not _same_name(ws, rs):
                    return self.error(col, path, f"enum {ws['name']} does not match the reader")
                rsyms = rs["symbols"]
                default = rs.get("default")
                base = len(self.symbol_offsets) - 1
                for sym in rsyms:
                    self.symbols += sym.encode()
                    self.symbol_offsets.append(len(self.symbols))
                for sym in wsyms:
                    if sym in rsyms:
                        self.enum_map.append(base + rsyms.index(sym))
                    elif default in rsyms:
                        self.enum_map.append(base + rsyms.index(default))
                    else:
                        self.enum_map.append(-1)
            return self.node(AV_ENUM, col, path, a=start, b=len(wsyms))
        if wk == "array":
            item_col = -1 if skip else self.layout.child(col, 0)
            item = self.compile(
                ws["items"], None if skip else rs["items"], item_col, f"{path}[]", stack
            )
            return self.node(AV_ARRAY, col, path, a=item)
        if wk == "map":
            if skip:
                key_col = value_col = -1
            else:
                entries = self.layout.child(col, 0)
                key_col = self.layout.child(entries, 0)
                value_col = self.layout.child(entries, 1)
            value = self.compile(
                ws["values"], None if skip else rs["values"], value_col, f"{path}{{}}", stack
            )
            return self.node(AV_MAP, col, path, a=value, b=key_col)
        if wk == "record":
            return self.record(ws, None if skip else rs, col, path, stack)
        raise SchemaError(f"Avro type {wk!r} unsupported (at {path or 'the value'})")

    def record(self, ws: dict, rs: dict | None, col: int, path: str, stack: tuple) -> int:
        name = ws["name"]
        if name in stack:
            raise SchemaError(f"recursive Avro type {name} unsupported (at {path or 'the value'})")
        stack = (*stack, name)
        if rs is not None and not _same_name(ws, rs):
            return self.error(col, path, f"record {name} does not match reader {rs['name']}")
        rfields = {}
        if rs is not None:
            for k, f in enumerate(rs["fields"]):
                for alias in (f["name"], *f.get("aliases", ())):
                    rfields[alias] = (k, f)
        kids = []
        seen = set()
        for f in ws["fields"]:
            sub = f"{path}.{f['name']}" if path else f["name"]
            hit = rfields.get(f["name"])
            if hit is None:
                kids.append(self.compile(f["type"], None, -1, sub, stack))
                continue
            k, rf = hit
            seen.add(k)
            kids.append(self.compile(f["type"], rf["type"], self.layout.child(col, k), sub, stack))
        if rs is not None:
            for k, rf in enumerate(rs["fields"]):
                if k in seen:
                    continue
                sub = f"{path}.{rf['name']}" if path else rf["name"]
                child = self.layout.child(col, k)
                if "default" not in rf:
                    kids.append(
                        self.error(
                            child,
                            sub,
                            f"writer schema {name} lacks field {rf['name']}"
                            " and the reader gives it no default",
                        )
                    )
                    continue
                kids.append(self.default(rf, child, sub, stack))
        return self.node(AV_RECORD, col, path, a=self.kid_block(kids), b=len(kids))

    def default(self, rf: dict, col: int, path: str, stack: tuple) -> int:
        """A reader field the writer lacks: its default, Avro-encoded with the reader's
        type, run through a reader-to-reader node on every record."""
        rtype = rf["type"]
        buf = io.BytesIO()
        saved = (self.wnamed, self.rnamed)
        try:
            schemaless_writer(buf, _standalone(rtype, self.rnamed), rf["default"])
        except Exception as exc:
            raise SchemaError(f"default of field {path} does not fit its type: {exc}") from exc
        self.wnamed = self.rnamed  # the default's bytes are written with the reader schema
        try:
            inner = self.compile(rtype, rtype, col, path, stack)
        finally:
            self.wnamed, self.rnamed = saved
        start = len(self.defaults)
        self.defaults += buf.getvalue()
        return self.node(AV_DEFAULT, -1, path, a=inner, b=start, c=len(buf.getvalue()))

    def program(self, root: int):
        from kafkawire.registry._avro import NODE_SIZE, Program

        assert _NODE.size == NODE_SIZE, "kw_avro_node layout changed"
        nodes = b"".join(_NODE.pack(*n) for n in self.nodes)
        return Program(
            nodes,
            self.kids,
            self.enum_map,
            bytes(self.symbols),
            self.symbol_offsets,
            bytes(self.defaults),
            root,
        )


def _precision(schema: dict) -> int:
    return int(schema.get("precision", 0))


def _same_name(a: Any, b: Any) -> bool:
    names_b = {b["name"], _short(b["name"]), *b.get("aliases", ())}
    names_b |= {_short(x) for x in b.get("aliases", ())}
    return a["name"] in names_b or _short(a["name"]) in names_b


def _describe(s: Any, kind: str) -> str:
    return f"{kind} {s['name']}" if isinstance(s, dict) and "name" in s else kind


def _standalone(schema: Any, named: dict) -> Any:
    """A schema with the named types it refers to defined inline (for fastavro's writer)."""
    from fastavro.schema import expand_schema

    return expand_schema(parse(json.dumps(_inline(schema, named, set())), {}))


def _inline(schema: Any, named: dict, done: set) -> Any:
    if isinstance(schema, str):
        if schema in named and schema not in done:
            done.add(schema)
            return _inline(named[schema], named, done)
        return schema
    if isinstance(schema, list):
        return [_inline(b, named, done) for b in schema]
    out = dict(schema)
    if isinstance(out.get("type"), (dict, list)) or out.get("type") in named:
        out["type"] = _inline(out["type"], named, done)
    if "name" in out and out.get("type") in ("record", "enum", "fixed"):
        done.add(out["name"])
    if "fields" in out:
        out["fields"] = [{**f, "type": _inline(f["type"], named, done)} for f in out["fields"]]
    if "items" in out:
        out["items"] = _inline(out["items"], named, done)
    if "values" in out:
        out["values"] = _inline(out["values"], named, done)
    return out


@dataclass
class Compiled:
    """A reader schema's Arrow type and column layout, and one program per writer schema."""

    arrow_type: pa.StructType
    layout: Layout
    root: int
    programs: list
    paths: list[list[str]]
    messages: list[dict[int, str]]


def compile_programs(reader: Any, rnamed: dict, writers: list[tuple[Any, dict]]) -> Compiled:
    """Programs for each writer schema (parsed, with its named types) read as ``reader``.
    A reader that is not a record is wrapped in a struct with one field, ``value``."""
    _rs, rk = _kind(reader, rnamed)
    wrapped = rk != "record"
    t = arrow_type(reader, rnamed)
    root_type = pa.struct([pa.field("value", t)]) if wrapped else t
    layout = Layout()
    root = layout.add(root_type)
    programs, paths, messages = [], [], []
    for w, wnamed in writers:
        c = _Compiler(layout, wnamed, rnamed)
        if wrapped:
            inner = c.compile(w, reader, layout.child(root, 0), "value")
            top = c.node(AV_RECORD, root, "", a=c.kid_block([inner]), b=1)
        else:
            top = c.compile(w, reader, root, "")
        programs.append(c.program(top))
        paths.append(c.paths)
        messages.append(c.messages)
    return Compiled(root_type, layout, root, programs, paths, messages)
