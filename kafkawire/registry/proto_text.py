""".proto text to a ``google.protobuf.descriptor_pb2.FileDescriptorProto``, as protoc would
describe the file (what a Confluent Schema Registry stores for a Protobuf schema).

Covered: ``syntax`` (proto2, proto3) and ``edition`` lines, ``package``, ``import`` (``public``
and ``weak``), messages and enums (nested), fields with ``optional`` / ``repeated`` /
``required`` (proto3 ``optional`` as protoc does it: ``proto3_optional`` and a synthetic oneof
after the real ones), scalar types, message and enum type names resolved by protobuf's scoping
rules (relative to the enclosing scopes, fully qualified ``.a.b.C``, through the package and the
imports, public imports included), ``map<K, V>`` (a nested ``XxxEntry`` type with the
``map_entry`` option, as protoc synthesizes it), ``oneof``, ``reserved`` (numbers, ranges,
names), ``extensions`` ranges, ``extend`` blocks (parsed into ``extension`` fields), services
and their methods, ``//`` and ``/* */`` comments, adjacent string literals concatenated.
Options: those naming a field of the descriptor's options message (``packed``, ``deprecated``,
``java_package``, ``allow_alias``, ``map_entry``, editions' ``features.*``...) are set, and the
field pseudo-options ``default`` and ``json_name`` fill ``default_value`` / ``json_name``;
custom options (``(my.option) = ...``) and aggregate values (``{ ... }``) are skipped. Fields
carry protoc's ``json_name``.

Not covered: groups (``optional group Foo = 1 { ... }``, a :class:`SchemaError`), and the
checks protoc makes past the grammar and name resolution (duplicate numbers, reserved numbers
in use...: building a ``DescriptorPool`` from the result makes those).

Imports resolve to the ``imports`` given (a registry schema's references), else to the files
that registries and confluent-kafka treat as built in: the well-known
``google/protobuf/*.proto`` (from the protobuf package), ``google/type/*.proto`` (from
googleapis-common-protos) and ``confluent/meta.proto``, ``confluent/type/decimal.proto`` (from
confluent-kafka), when those packages are installed.

Errors are :class:`SchemaError` with ``name:line:column``.

Schema strings that are the base64 of a serialized FileDescriptorProto (what confluent-kafka's
``ProtobufSerializer`` registers) are recognized and decoded instead: a text without the
``syntax``/``message``/``enum`` keywords that base64-decodes to a FileDescriptorProto.
"""

from __future__ import annotations

import base64
import binascii
import importlib
import re

from google.protobuf import descriptor_pb2

from kafkawire.registry.errors import SchemaError
from kafkawire.registry.proto_parser import FDP, Parser

__all__ = ["parse", "well_known"]


# Imports that protoc and the registries resolve without a reference: the protobuf package's
# own descriptors.
WELL_KNOWN = {
    "google/protobuf/any.proto": "any_pb2",
    "google/protobuf/api.proto": "api_pb2",
    "google/protobuf/descriptor.proto": "descriptor_pb2",
    "google/protobuf/duration.proto": "duration_pb2",
    "google/protobuf/empty.proto": "empty_pb2",
    "google/protobuf/field_mask.proto": "field_mask_pb2",
    "google/protobuf/source_context.proto": "source_context_pb2",
    "google/protobuf/struct.proto": "struct_pb2",
    "google/protobuf/timestamp.proto": "timestamp_pb2",
    "google/protobuf/type.proto": "type_pb2",
    "google/protobuf/wrappers.proto": "wrappers_pb2",
}


def _builtin_module(name: str) -> str | None:
    """The module holding a built-in import: what confluent-kafka's serializers treat as
    built in (never a registry reference): ``google/protobuf/``, ``google/type/`` and
    ``confluent/`` files."""
    if name in WELL_KNOWN:
        return f"google.protobuf.{WELL_KNOWN[name]}"
    stem = name.removesuffix(".proto")
    if not name.endswith(".proto") or not re.fullmatch(r"[a-z0-9_/]+", stem):
        return None
    if name.startswith("google/type/"):
        return stem.replace("/", ".") + "_pb2"  # googleapis-common-protos
    if name.startswith("confluent/"):
        return "confluent_kafka.schema_registry." + stem.replace("/", ".") + "_pb2"
    return None


def well_known(name: str) -> descriptor_pb2.FileDescriptorProto | None:
    """The FileDescriptorProto of a built-in import: the well-known types
    (``google/protobuf/timestamp.proto``...) from the protobuf package, ``google/type/*.proto``
    from googleapis-common-protos and ``confluent/meta.proto``, ``confluent/type/decimal.proto``
    from confluent-kafka, when those are installed; else None."""
    module = _builtin_module(name)
    if module is None:
        return None
    try:
        fd = importlib.import_module(module).DESCRIPTOR
    except ImportError:
        return None
    if fd.name != name:
        return None
    out = descriptor_pb2.FileDescriptorProto()
    out.ParseFromString(fd.serialized_pb)
    return out


# ---- name resolution ----------------------------------------------------------------------


def _symbols(fdp, out: dict[str, str]) -> None:
    """Full names (no leading dot) -> "message" | "enum" | "package" | "other" of a file."""
    pkg = fdp.package
    if pkg:
        parts = pkg.split(".")
        for k in range(1, len(parts) + 1):
            out.setdefault(".".join(parts[:k]), "package")

    def walk(msgs, enums, prefix: str) -> None:
        for e in enums:
            out[_join(prefix, e.name)] = "enum"
            for v in e.value:  # enum values are siblings of their enum in protobuf scoping
                out.setdefault(_join(prefix, v.name), "other")
        for m in msgs:
            full = _join(prefix, m.name)
            out[full] = "message"
            for fl in m.field:
                out.setdefault(_join(full, fl.name), "other")
            walk(m.nested_type, m.enum_type, full)

    walk(fdp.message_type, fdp.enum_type, pkg)
    for s in fdp.service:
        out.setdefault(_join(pkg, s.name), "other")


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _visible(fdp, imports: dict, name: str) -> dict[str, str]:
    """The symbols a file sees: its own, its imports', and their public imports'."""
    table: dict[str, str] = {}
    seen: set[str] = set()

    def add(dep: str, direct: bool) -> None:
        if dep in seen:
            return
        seen.add(dep)
        target = imports.get(dep) or well_known(dep)
        if target is None:
            raise SchemaError(f"{name}: import {dep!r} is not among the schema's references")
        _symbols(target, table)
        for k in target.public_dependency:
            add(target.dependency[k], False)

    for dep in fdp.dependency:
        add(dep, True)
    _symbols(fdp, table)
    return table


def _resolve(name: str, scope: str, table: dict[str, str], err) -> tuple[str, str]:
    """(full name, kind) of a type name seen in ``scope`` (protobuf's rules: the innermost
    scope whose first component matches decides)."""
    if name.startswith("."):
        full = name[1:]
        kind = table.get(full)
        if kind not in ("message", "enum"):
            raise err(f"type {name} is not defined")
        return full, kind
    first = name.split(".", 1)[0]
    parts = scope.split(".") if scope else []
    for k in range(len(parts), -1, -1):
        prefix = ".".join(parts[:k])
        head = _join(prefix, first)
        kind = table.get(head)
        if kind is None:
            continue
        full = _join(prefix, name)
        fk = table.get(full)
        if fk in ("message", "enum"):
            return full, fk
        if kind in ("message", "package") and "." in name:
            raise err(
                f"type {name} is not defined ({head} is found first in scope {scope or '(top)'}"
                " and has no such member)"
            )
    raise err(f"type {name} is not defined")


def parse(
    text: str, name: str = "schema.proto", imports: dict | None = None
) -> descriptor_pb2.FileDescriptorProto:
    """Parses .proto text (or the base64 of a serialized FileDescriptorProto) named ``name``;
    ``imports`` maps import paths to the FileDescriptorProtos of the files it imports (their
    own imports included); well-known ``google/protobuf/*.proto`` imports need not be given.
    """
    imports = imports or {}
    text = text.removeprefix("\ufeff")  # a byte order mark from an editor
    decoded = _from_base64(text, name)
    if decoded is not None:
        return decoded
    p = Parser(text, name)
    fdp = p.parse()
    table = _visible(fdp, imports, name)
    for target, attr, written, scope, tok in p.pending:

        def err(msg: str, _t=tok) -> SchemaError:
            return p.error(msg, _t)

        full, kind = _resolve(written, scope, table, err)
        setattr(target, attr, "." + full)
        if attr == "type_name":
            if kind == "message":
                target.type = FDP.TYPE_MESSAGE
            else:
                target.type = FDP.TYPE_ENUM
        elif attr == "extendee" and kind != "message":
            raise err(f"extend {written}: not a message")
        elif attr in ("input_type", "output_type") and kind != "message":
            raise err(f"rpc type {written} is not a message")
    return fdp


_KEYWORDS = re.compile(r"\b(syntax|message|enum|edition|package)\b")


def _from_base64(text: str, name: str) -> descriptor_pb2.FileDescriptorProto | None:
    stripped = "".join(text.split())
    if not stripped or _KEYWORDS.search(text) or not re.fullmatch(r"[A-Za-z0-9+/=_-]+", stripped):
        return None
    try:
        raw = base64.b64decode(stripped, altchars=b"-_" if "-" in stripped else None, validate=True)
    except (binascii.Error, ValueError):
        return None
    out = descriptor_pb2.FileDescriptorProto()
    try:
        out.ParseFromString(raw)
    except Exception:
        return None
    if not (out.message_type or out.enum_type or out.service):
        return None
    out.name = name
    return out
