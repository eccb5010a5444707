"""JSON Schemas to Arrow types: :func:`json_schema_to_arrow` maps a JSON Schema (the
draft-07, 2019-09 and 2020-12 keywords Confluent users write) to the Arrow type
:mod:`kafkawire.registry.json_reader` reads its payloads as.

The mapping (Arrow types as the Avro side, :mod:`kafkawire.registry.avro`, has them):

- object with ``properties``: struct, the properties in their order, every field nullable
  (``required`` is not checked; properties missing in a payload are null, properties the
  schema does not name are ignored). ``additionalProperties`` next to ``properties`` is ignored.
- object with no ``properties`` but an ``additionalProperties`` (or a single
  ``patternProperties``) schema: map<string, T>; a row's entries come in key order, and an
  entry whose value is JSON ``null`` is dropped (Arrow's reader cannot tell it from a missing
  key). While parsing, a map is a struct of all the keys the column uses (found by a first
  pass of Arrow's reader with type inference): fine for tens or hundreds of distinct keys, slow
  for many thousands. An object with neither (``{"type": "object"}``, ``{}``, ``true``) has no
  type for its values: SchemaError (``additionalProperties: false`` alone: an empty struct).
- array with ``items``: list<element: T>; a tuple array (``prefixItems``, or draft-07's
  ``items`` list) whose items all have the same type: that list, else SchemaError (Arrow's
  reader reads a JSON array as a list only).
- string: string; ``format: date-time``: timestamp[us, UTC] (RFC 3339: an offset is required;
  digits past microseconds are truncated); ``format: date``: date32; ``format: time`` stays a
  string (RFC 3339 times carry an offset, which Arrow's time64 cannot, and Spark has no time
  type); ``contentEncoding: base64`` (or Kafka Connect's ``"connect.type": "bytes"``): binary
  (standard or URL-safe alphabet, padding optional, nothing else allowed).
- integer: int64 (a payload's ``1.0`` or a number past int64 is that row's error); number:
  float64; boolean: bool; null: null.
- ``enum`` / ``const``: the type of their values (strings: string; values are not checked).
- ``type: [T, "null"]``, or ``anyOf``/``oneOf`` of T and null: T (nullable). A union whose
  members all have the same Arrow type: that type; integer and number: float64; objects: one
  struct of all their properties (JSON objects say which properties they have; a property in
  two members must have one type). Any other union of several types: SchemaError naming the
  union and where it is (a JSON pointer): Arrow's reader reads one type per field.
- ``allOf``: the members merged (objects: their properties together; integer and number:
  int64); a ``$ref`` with sibling keywords is the ``allOf`` of both.
- ``$ref``: JSON pointers into the same document (``#/definitions/..``, ``#/$defs/..``, ``#``)
  or into another registered schema by its reference name (``other.json`` or
  ``other.json#/definitions/X``, through ``resolve``); a recursive ``$ref`` is a SchemaError.
- Constraints (``minimum``, ``pattern``, ``required``, ``not``, ``if``/``then``/``else``...)
  and annotations (``title``, ``description``, ``connect.*``) are not checked.
- A schema that is not an object at the top (``{"type": "string"}``) reads as a struct with one
  field ``value`` (as the Avro side does): each payload is wrapped in ``{"value": ...}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urljoin

import pyarrow as pa

from kafkawire.registry.errors import SchemaError

__all__ = ["json_schema_to_arrow"]


_TYPE_KEYWORDS = {
    "type",
    "properties",
    "additionalProperties",
    "patternProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
}
_SIMPLE = {"integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_()}


class _Untyped:
    """A schema with no type for its values (``{}``, ``{"type": "object"}``): an error unless
    an ``allOf`` sibling gives it one."""

    def __init__(self, what: str, where: str) -> None:
        self.what = what
        self.where = where

    def error(self) -> SchemaError:
        return SchemaError(f"{self.what} at {self.where}: its values have no type to read them as")


class _Doc:
    def __init__(self, name: str, root: Any) -> None:
        self.name = name
        self.root = root


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _where(doc: _Doc, ptr: tuple) -> str:
    return f"{doc.name}#" + "".join("/" + _escape(str(t)) for t in ptr)


class _Mapper:
    def __init__(self, root: Any, resolve: Callable[[str], Any] | None) -> None:
        self.resolve = resolve
        self.root = _Doc("", root)
        self.docs: dict[str, _Doc] = {}

    # -- references ------------------------------------------------------------------------
    def _document(self, name: str, doc: _Doc, where: str) -> _Doc:
        if name in self.docs:
            return self.docs[name]
        candidates = [name]
        base = doc.root.get("$id") if isinstance(doc.root, dict) else None
        if isinstance(base, str):
            joined = urljoin(base, name)
            if joined == base:
                return doc
            folder = base.rsplit("/", 1)[0] + "/"
            for c in (joined, joined[len(folder) :] if joined.startswith(folder) else None):
                if c and c not in candidates:
                    candidates.append(c)
        found = None
        if self.resolve is not None:
            for c in candidates:
                try:
                    found = self.resolve(c)
                except (KeyError, LookupError):
                    found = None
                if found is not None:
                    break
        if found is None:
            raise SchemaError(f"unknown $ref {name!r} at {where}: no such referenced schema")
        if isinstance(found, str):
            try:
                found = json.loads(found)
            except json.JSONDecodeError as exc:
                raise SchemaError(f"referenced schema {name!r} is not JSON: {exc}") from exc
        self.docs[name] = _Doc(name, found)
        return self.docs[name]

    def _deref(self, ref: str, doc: _Doc, where: str) -> tuple[_Doc, tuple, Any]:
        name, _, fragment = ref.partition("#")
        target = self._document(name, doc, where) if name else doc
        fragment = unquote(fragment)
        if fragment and not fragment.startswith("/"):
            raise SchemaError(f"$ref {ref!r} at {where}: only JSON pointer fragments are supported")
        node = target.root
        ptr: tuple = ()
        for raw in fragment.split("/")[1:] if fragment else ():
            token = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise SchemaError(f"unknown $ref {ref!r} at {where}: nothing at that pointer")
            ptr += (token,)
        return target, ptr, node

    # -- the walk --------------------------------------------------------------------------
    def type_of(self, node: Any, doc: _Doc, ptr: tuple, stack: tuple) -> Any:
        where = _where(doc, ptr)
        if node is True or node == {}:
            return _Untyped("a schema that allows any value", where)
        if node is False:
            return pa.null()
        if not isinstance(node, dict):
            raise SchemaError(f"a schema must be an object or a boolean, not {node!r}, at {where}")
        if "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str):
                raise SchemaError(f"$ref at {where} is not a string")
            tdoc, tptr, target = self._deref(ref, doc, where)
            key = (tdoc.name, tptr)
            if key in stack:
                raise SchemaError(
                    f"recursive $ref {ref!r} at {where}: a recursive type has no Arrow type"
                )
            referred = self.type_of(target, tdoc, tptr, (*stack, key))
            rest = {k: v for k, v in node.items() if k != "$ref"}
            if not (_TYPE_KEYWORDS & rest.keys()):
                return referred
            return _merge([referred, self.type_of(rest, doc, ptr, stack)], where + "/allOf")
        if "allOf" in node:
            members = node["allOf"]
            types = [self.type_of(m, doc, (*ptr, "allOf", i), stack) for i, m in enumerate(members)]
            rest = {k: v for k, v in node.items() if k != "allOf"}
            if _TYPE_KEYWORDS & rest.keys():
                types.append(self.type_of(rest, doc, ptr, stack))
            return _merge(types, _where(doc, (*ptr, "allOf")))
        for word in ("anyOf", "oneOf"):
            if word in node:
                members = node[word]
                types = [
                    self.type_of(m, doc, (*ptr, word, i), stack) for i, m in enumerate(members)
                ]
                rest = {k: v for k, v in node.items() if k != word}
                base = self.type_of(rest, doc, ptr, stack) if _TYPE_KEYWORDS & rest.keys() else None
                typed = [t for t in types if not isinstance(t, _Untyped)]
                if not typed:
                    return base if base is not None else types[0]
                union = _union(typed, _where(doc, (*ptr, word)), word)
                if base is None or isinstance(base, _Untyped):
                    return union
                return _merge([base, union], _where(doc, (*ptr, word)))
        kind = node.get("type")
        if isinstance(kind, list):
            if not kind:
                raise SchemaError(f"an empty type list at {where}")
            types = [self._typed(node, k, doc, ptr, stack) for k in kind]
            return _union(types, _where(doc, (*ptr, "type")), "type list")
        if kind is None:
            kind = _implied_type(node)
            if kind is None:
                return _Untyped("a schema with no type", where)
        return self._typed(node, kind, doc, ptr, stack)

    def _typed(self, node: dict, kind: Any, doc: _Doc, ptr: tuple, stack: tuple) -> Any:
        where = _where(doc, ptr)
        if kind == "enum":
            return _enum_type(node, where)
        if kind in _SIMPLE:
            return _SIMPLE[kind]
        if kind == "null":
            return pa.null()
        if kind == "string":
            fmt = node.get("format")
            encoding = str(node.get("contentEncoding", "")).lower()
            if encoding == "base64" or node.get("connect.type") == "bytes":
                return pa.binary()
            if fmt == "date-time":
                return pa.timestamp("us", "UTC")
            if fmt == "date":
                return pa.date32()
            return pa.string()
        if kind == "array":
            return self._array(node, doc, ptr, stack)
        if kind == "object":
            return self._object(node, doc, ptr, stack)
        raise SchemaError(f"unknown type {kind!r} at {where}")

    def _array(self, node: dict, doc: _Doc, ptr: tuple, stack: tuple) -> Any:
        where = _where(doc, ptr)
        items = node.get("items")
        tuple_items = node.get("prefixItems")
        tuple_word = "prefixItems"
        if isinstance(items, list):
            tuple_items, tuple_word, items = items, "items", node.get("additionalItems")
        if tuple_items is not None:
            types = [
                self.type_of(m, doc, (*ptr, tuple_word, i), stack)
                for i, m in enumerate(tuple_items)
            ]
            if isinstance(items, dict) and items:
                word = "items" if tuple_word == "prefixItems" else "additionalItems"
                types.append(self.type_of(items, doc, (*ptr, word), stack))
            for t in types:
                if isinstance(t, _Untyped):
                    raise t.error()
            distinct = _distinct([t for t in types if t != pa.null()])
            if len(distinct) > 1:
                raise SchemaError(
                    f"a tuple array with items of different types ({_names(distinct)}) at "
                    f"{_where(doc, (*ptr, tuple_word))}: Arrow's JSON reader reads an array as "
                    "a list of one type"
                )
            element = distinct[0] if distinct else pa.null()
        elif isinstance(items, dict) and items:
            element = _final(self.type_of(items, doc, (*ptr, "items"), stack))
        else:
            raise _Untyped("an array with no items schema", where).error()
        return pa.list_(pa.field("element", element))

    def _object(self, node: dict, doc: _Doc, ptr: tuple, stack: tuple) -> Any:
        where = _where(doc, ptr)
        props = node.get("properties")
        if isinstance(props, dict) and props:
            fields = []
            for name, sub in props.items():
                t = self.type_of(sub, doc, (*ptr, "properties", name), stack)
                if isinstance(t, _Untyped):  # an allOf sibling may give it a type
                    t = _marker(t)
                fields.append(pa.field(name, t))
            return pa.struct(fields)
        extra = node.get("additionalProperties")
        patterns = node.get("patternProperties")
        if isinstance(extra, dict) and extra:
            value = _final(self.type_of(extra, doc, (*ptr, "additionalProperties"), stack))
            return pa.map_(pa.string(), value)
        if isinstance(patterns, dict) and patterns:
            types = [
                _final(self.type_of(s, doc, (*ptr, "patternProperties", p), stack))
                for p, s in patterns.items()
            ]
            distinct = _distinct(types)
            if len(distinct) > 1:
                raise SchemaError(
                    f"patternProperties of different types ({_names(distinct)}) at {where}"
                )
            return pa.map_(pa.string(), distinct[0])
        if extra is False:
            return pa.struct([])
        return _Untyped("an object with no properties and no additionalProperties schema", where)


def _implied_type(node: dict) -> str | None:
    if {"properties", "additionalProperties", "patternProperties"} & node.keys():
        return "object"
    if {"items", "prefixItems"} & node.keys():
        return "array"
    if "enum" in node or "const" in node:
        return "enum"
    return None


def _enum_type(node: dict, where: str) -> Any:
    values = list(node["enum"]) if "enum" in node else []
    if "const" in node:
        values.append(node["const"])
    types = []
    for v in values:
        if v is None:
            types.append(pa.null())
        elif isinstance(v, bool):
            types.append(pa.bool_())
        elif isinstance(v, int):
            types.append(pa.int64())
        elif isinstance(v, float):
            types.append(pa.float64())
        elif isinstance(v, str):
            types.append(pa.string())
        else:
            raise SchemaError(f"an enum or const of objects or arrays at {where}")
    if not types:
        raise SchemaError(f"an empty enum at {where}")
    return _union(types, where, "enum")


_MARKER = "\x00untyped"


def _marker(t: _Untyped) -> pa.DataType:
    """An untyped property, as an Arrow type (a struct whose one field says what and where)."""
    return pa.struct([pa.field(_MARKER, pa.null(), metadata={"what": t.what, "where": t.where})])


def _is_marker(t: pa.DataType) -> bool:
    return pa.types.is_struct(t) and t.num_fields == 1 and t.field(0).name == _MARKER


def _final(t: Any) -> pa.DataType:
    """``t``, or the SchemaError of the first value in it with no type."""
    if isinstance(t, _Untyped):
        raise t.error()
    if _is_marker(t):
        meta = t.field(0).metadata
        raise _Untyped(meta[b"what"].decode(), meta[b"where"].decode()).error()
    if pa.types.is_struct(t):
        for f in t:
            _final(f.type)
    elif pa.types.is_list(t):
        _final(t.value_type)
    elif pa.types.is_map(t):
        _final(t.item_type)
    return t


def _distinct(types: list) -> list:
    out: list = []
    for t in types:
        if not any(t.equals(o) for o in out):
            out.append(t)
    return out


def _names(types: list) -> str:
    return ", ".join(str(t) for t in types)


def _union(types: list, where: str, word: str) -> Any:
    """The Arrow type of a value that may be any of ``types`` (null adds nothing: every Arrow
    field is nullable)."""
    for t in types:
        if isinstance(t, _Untyped):
            if len(types) > 1:
                raise SchemaError(
                    f"{word} at {where} has a member with no type ({t.what} at {t.where})"
                )
            return t
    distinct = _distinct([t for t in types if not pa.types.is_null(t)])
    if not distinct:
        return pa.null()
    if len(distinct) == 1:
        return distinct[0]
    if all(pa.types.is_int64(t) or pa.types.is_float64(t) for t in distinct):
        return pa.float64()
    if all(pa.types.is_struct(t) for t in distinct):
        return _merge_structs(distinct, where)
    raise SchemaError(
        f"a union ({word}) of {_names(distinct)} at {where} is not supported: Arrow's JSON "
        "reader reads one type per field"
    )


def _merge(types: list, where: str) -> Any:
    """The Arrow type of a value that is all of ``types`` (allOf)."""
    typed = [t for t in types if not isinstance(t, _Untyped)]
    if not typed:
        return types[0]
    non_null = [t for t in typed if not pa.types.is_null(t)]
    if not non_null:
        return pa.null()
    distinct = _distinct(non_null)
    if len(distinct) == 1:
        return distinct[0]
    if all(pa.types.is_int64(t) or pa.types.is_float64(t) for t in distinct):
        return pa.int64()
    if all(pa.types.is_struct(t) for t in distinct):
        return _merge_structs(distinct, where)
    raise SchemaError(f"allOf of incompatible types ({_names(distinct)}) at {where}")


def _merge_structs(types: list, where: str) -> pa.DataType:
    fields: dict[str, pa.DataType] = {}
    for t in types:
        for f in t:
            have = fields.get(f.name)
            if have is None or pa.types.is_null(have) or _is_marker(have):
                fields[f.name] = f.type
            elif pa.types.is_null(f.type) or have.equals(f.type) or _is_marker(f.type):
                continue
            elif pa.types.is_struct(have) and pa.types.is_struct(f.type):
                fields[f.name] = _merge_structs([have, f.type], f"{where} (property {f.name})")
            else:
                raise SchemaError(
                    f"property {f.name!r} is {have} in one member and {f.type} in another, at "
                    f"{where}"
                )
    return pa.struct([pa.field(k, v) for k, v in fields.items()])


def json_schema_to_arrow(
    schema: dict | str | bool, resolve: Callable[[str], Any] | None = None
) -> pa.DataType:
    """The Arrow type of the values of a JSON Schema (see the module docstring).

    :param schema: the schema, parsed or as JSON text.
    :param resolve: a reference name (what a ``$ref`` names before its ``#``) to that schema
        (parsed or text); raise KeyError or return None for an unknown name.
    :raises SchemaError: a construct with no Arrow type, naming it and where (JSON pointer).
    """
    if isinstance(schema, str):
        try:
            schema = json.loads(schema)
        except json.JSONDecodeError as exc:
            raise SchemaError(f"JSON schema is not JSON: {exc}") from exc
    mapper = _Mapper(schema, resolve)
    return _final(mapper.type_of(schema, mapper.root, (), ()))
