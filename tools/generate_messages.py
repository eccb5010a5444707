"""Generate kafkawire's message classes from Apache Kafka's JSON message schemas.

Reads kafkawire/protocol/schemas/*.json and writes kafkawire/protocol/_generated_messages.py
(classes with __slots__, keyword constructors with the schema defaults, per-field descriptors
that the Cython codec compiles into per-version plans, ApiKey, the request/response registry)
and its typing stub _generated_messages.pyi.

Usage: python tools/generate_messages.py  (or `make generate`)
"""

from __future__ import annotations

import json
import keyword
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "kafkawire" / "protocol" / "schemas"
OUT = ROOT / "kafkawire" / "protocol" / "_generated_messages.py"
STUB = OUT.with_suffix(".pyi")
MAX_VERSION = 32767

HEADER = (
    "# GENERATED from Apache Kafka's message schemas in kafkawire/protocol/schemas/.\n"
    "# DO NOT EDIT, regenerate with: python tools/generate_messages.py\n"
)

PRIMITIVES = {
    "bool": ("BOOL", "bool"),
    "int8": ("INT8", "int"),
    "int16": ("INT16", "int"),
    "int32": ("INT32", "int"),
    "int64": ("INT64", "int"),
    "uint16": ("UINT16", "int"),
    "uint32": ("UINT32", "int"),
    "float64": ("FLOAT64", "float"),
    "uuid": ("UUID", "uuid.UUID"),
    "string": ("STRING", "str"),
    "bytes": ("BYTES", "bytes"),
    "records": ("RECORDS", "bytes | memoryview"),
}
CLASS_ATTRS = {
    "schema_name",
    "message_type",
    "api_key",
    "valid_versions",
    "flexible_versions",
    "latest_version",
}
INT_KINDS = {"int8", "int16", "int32", "int64", "uint16", "uint32"}


def load_schema(path: Path) -> dict:
    # The schemas are JSON with whole-line // comments.
    lines = [ln for ln in path.read_text().splitlines() if not ln.lstrip().startswith("//")]
    return json.loads("\n".join(lines))


def parse_versions(spec: str | None) -> tuple[int, int]:
    if spec is None or spec in ("", "none"):
        return (1, 0)
    if spec.endswith("+"):
        return (int(spec[:-1]), MAX_VERSION)
    if "-" in spec:
        lo, hi = spec.split("-")
        return (int(lo), int(hi))
    return (int(spec), int(spec))


def intersect(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else (1, 0)


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return s + "_" if keyword.iskeyword(s) else s


@dataclass
class FieldSpec:
    name: str
    attr: str
    kind: str  # primitive name, "struct" or "array"
    elem: str | None  # array element: primitive name or "struct"
    struct: str | None  # struct name (for struct / array of struct)
    versions: tuple[int, int]
    nullable: tuple[int, int]
    tag: int
    tagged: tuple[int, int]
    flexible: tuple[int, int] | None
    ignorable: bool
    default: str  # a Python expression; "UNSET" for fresh lists / struct instances


@dataclass
class StructSpec:
    name: str
    fields: list[FieldSpec] = field(default_factory=list)


def default_expr(f: dict, kind: str, nullable: bool, where: str) -> str:
    raw = f.get("default")
    if isinstance(raw, str):
        raw = raw.strip()
    if raw == "null":
        if not nullable:
            raise ValueError(f"{where}: null default on a field that is never nullable")
        return "None"
    if kind in ("array", "struct"):
        if raw not in (None, ""):
            raise ValueError(f"{where}: unsupported default {raw!r}")
        return "UNSET"
    if kind == "bool":
        return "True" if raw in (True, "true") else "False"
    if kind in INT_KINDS:
        if raw in (None, ""):
            return "0"
        if isinstance(raw, int):
            return str(raw)
        neg = raw.startswith("-")
        digits = raw.lstrip("-")
        value = int(digits, 16) if digits.lower().startswith("0x") else int(digits)
        return str(-value if neg else value)
    if kind == "float64":
        return repr(float(raw)) if raw not in (None, "") else "0.0"
    if kind == "string":
        return repr(raw or "")
    if kind == "uuid":
        return "ZERO_UUID"
    if kind == "bytes":
        return "b''"
    if kind == "records":
        return "None"  # Kafka's own default for records fields
    raise ValueError(f"{where}: unknown kind {kind}")


class Schema:
    def __init__(self, data: dict) -> None:
        self.data = data
        self.name: str = data["name"]
        self.type: str = data["type"]
        self.api_key: int | None = data.get("apiKey")
        self.valid = parse_versions(data["validVersions"])
        self.flexible = parse_versions(data.get("flexibleVersions", "none"))
        latest = self.valid[1] - (1 if data.get("latestVersionUnstable") else 0)
        self.latest = latest if latest >= self.valid[0] else None  # None: no stable version yet
        self.structs: dict[str, StructSpec] = {}
        self.order: list[str] = []  # nested structs, in definition order
        common = {s["name"]: s for s in data.get("commonStructs", [])}
        self.top = self.build(self.name, data["fields"], common, self.valid, top=True)

    # A struct's fields are bounded by the message's versions, not by the field holding the
    # struct: a common struct may sit behind fields with different version ranges.
    def build(self, name, fields, common, parent_versions, top=False) -> StructSpec:
        spec = StructSpec(name)
        if not top:
            if name in self.structs:
                return self.structs[name]
            self.structs[name] = spec
        for f in fields:
            spec.fields.append(self.build_field(name, f, common, parent_versions))
        if not top:
            self.order.append(name)
        return spec

    def build_field(self, owner, f, common, parent_versions) -> FieldSpec:
        where = f"{self.name}.{owner}.{f['name']}"
        typ: str = f["type"]
        versions = intersect(parse_versions(f["versions"]), parent_versions)
        nullable = intersect(parse_versions(f.get("nullableVersions")), versions)
        elem = struct = None
        if typ.startswith("[]"):
            kind, inner = "array", typ[2:]
            if inner in PRIMITIVES:
                elem = inner
            else:
                elem, struct = "struct", inner
        elif typ in PRIMITIVES:
            kind = typ
        else:
            kind, struct = "struct", typ
        if struct is not None:
            sub = f.get("fields")
            if sub is None:
                if struct not in common and struct not in self.structs:
                    raise ValueError(f"{where}: unknown struct {struct}")
                sub = common[struct]["fields"] if struct in common else None
            if sub is not None:
                self.build(struct, sub, common, parent_versions)
        tag = int(f.get("tag", -1))
        tagged = (
            intersect(parse_versions(f.get("taggedVersions")), versions) if tag >= 0 else (1, 0)
        )
        flex = f.get("flexibleVersions")
        return FieldSpec(
            name=f["name"],
            attr=snake(f["name"]),
            kind=kind,
            elem=elem,
            struct=struct,
            versions=versions,
            nullable=nullable,
            tag=tag,
            tagged=tagged,
            flexible=parse_versions(flex) if flex is not None else None,
            ignorable=bool(f.get("ignorable", False)),
            default=default_expr(f, kind, nullable[0] <= nullable[1], where),
        )


def kind_const(kind: str) -> str:
    return PRIMITIVES[kind][0] if kind in PRIMITIVES else kind.upper()


def py_type(schema: Schema, f: FieldSpec) -> str:
    if f.kind == "array":
        inner = PRIMITIVES[f.elem][1] if f.elem != "struct" else f"{schema.name}.{f.struct}"
        t = f"list[{inner}]"
    elif f.kind == "struct":
        t = f"{schema.name}.{f.struct}"
    else:
        t = PRIMITIVES[f.kind][1]
    nullable = f.nullable[0] <= f.nullable[1]
    return f"{t} | None" if nullable and f.kind != "records" else t


def emit_init(lines: list[str], schema: Schema, spec: StructSpec, indent: str) -> None:
    params = ", ".join(f"{f.attr}={f.default}" for f in spec.fields)
    sig = f"def __init__(self, *, {params}):" if params else "def __init__(self):"
    lines.append(f"{indent}{sig}")
    for f in spec.fields:
        if f.default == "UNSET":
            fresh = "[]" if f.kind == "array" else f"{schema.name}.{f.struct}()"
            lines.append(f"{indent}    self.{f.attr} = {fresh} if {f.attr} is UNSET else {f.attr}")
        else:
            lines.append(f"{indent}    self.{f.attr} = {f.attr}")
    lines.append(f"{indent}    self._unknown_tagged_fields = None")


def emit_class(lines: list[str], schema: Schema, spec: StructSpec, indent: str, top: bool) -> None:
    base = "Message" if top else "Struct"
    lines.append(f"{indent}class {spec.name}({base}):")
    inner = indent + "    "
    slots = [f.attr for f in spec.fields] + ["_unknown_tagged_fields"]
    lines.append(f"{inner}__slots__ = {tuple(slots)!r}")
    if top:
        flex = schema.flexible
        clash = CLASS_ATTRS & set(slots)
        if clash:
            raise ValueError(f"{schema.name}: fields {clash} clash with class attributes")
        lines.append(f"{inner}schema_name = {schema.name!r}")
        lines.append(f"{inner}message_type = {schema.type!r}")
        lines.append(f"{inner}api_key = {schema.api_key}")
        lines.append(f"{inner}valid_versions = range({schema.valid[0]}, {schema.valid[1] + 1})")
        lines.append(f"{inner}flexible_versions = range({flex[0]}, {flex[1] + 1})")
        lines.append(f"{inner}latest_version = {schema.latest}")
        for name in schema.order:
            lines.append("")
            emit_class(lines, schema, schema.structs[name], inner, top=False)
    lines.append("")
    emit_init(lines, schema, spec, inner)
    lines.append("")


def field_tuple(schema: Schema, f: FieldSpec) -> str:
    struct = f"{schema.name}.{f.struct}" if f.struct else "None"
    elem = kind_const(f.elem) if f.elem else "0"
    return (
        f"    Field({f.name!r}, {f.attr!r}, {kind_const(f.kind)}, {elem}, {struct}, "
        f"{f.versions}, {f.nullable}, {f.tag}, {f.tagged}, {f.flexible}, {f.ignorable}, "
        f"{f.default}),"
    )


def emit_fields(lines: list[str], schema: Schema, path: str, spec: StructSpec) -> None:
    lines.append(f"{path}._kw_fields = (")
    lines.extend(field_tuple(schema, f) for f in spec.fields)
    lines.append(")")


def api_name(schema: Schema) -> str:
    # "MetadataRequest" -> "METADATA"; the ApiKey names follow Kafka's ApiKeys enum.
    base = schema.name.removesuffix("Request")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).upper()


def all_list(schemas: list[Schema]) -> list[str]:
    names = ["ApiKey", *sorted(s.name for s in schemas)]
    return ["__all__ = [", *(f"    {n!r}," for n in names), "]"]


def generate(schemas: list[Schema]) -> tuple[str, str]:
    lines = [HEADER, "from enum import IntEnum", ""]
    lines.append("from kafkawire.protocol._base import (  # noqa: F401")
    kinds = sorted({kind_const(k) for k in PRIMITIVES} | {"STRUCT", "ARRAY"})
    lines.append(f"    {', '.join(kinds)},")
    lines.append("    UNSET, ZERO_UUID, Field, Message, Struct,")
    lines.append(")")
    lines.append("")
    for s in schemas:
        lines.append("")
        emit_class(lines, s, s.top, "", top=True)
    lines.append("")
    for s in schemas:
        for name in s.order:
            emit_fields(lines, s, f"{s.name}.{name}", s.structs[name])
        emit_fields(lines, s, s.name, s.top)
    requests = sorted((s for s in schemas if s.type == "request"), key=lambda s: s.api_key)
    responses = {s.api_key: s for s in schemas if s.type == "response"}
    lines.append("")
    lines.append("")
    lines.append("class ApiKey(IntEnum):")
    lines.append('    """The API keys of every request the schemas define."""')
    lines.append("")
    lines.extend(f"    {api_name(s)} = {s.api_key}" for s in requests)
    lines.append("")
    lines.append("")
    lines.append("REQUESTS = {")
    lines.extend(f"    {s.api_key}: {s.name}," for s in requests)
    lines.append("}")
    lines.append("RESPONSES = {")
    lines.extend(f"    {k}: {responses[k].name}," for k in sorted(responses))
    lines.append("}")
    lines.extend(all_list(schemas))
    return "\n".join(lines) + "\n", generate_stub(schemas, requests)


def emit_stub_class(lines, schema: Schema, spec: StructSpec, indent: str, top: bool) -> None:
    lines.append(f"{indent}class {spec.name}({'Message' if top else 'Struct'}):")
    inner = indent + "    "
    if top:
        for name in schema.order:
            emit_stub_class(lines, schema, schema.structs[name], inner, top=False)
    for f in spec.fields:
        lines.append(f"{inner}{f.attr}: {py_type(schema, f)}")
    params = ", ".join(f"{f.attr}: {py_type(schema, f)} = ..." for f in spec.fields)
    lines.append(
        f"{inner}def __init__(self, *, {params}) -> None: ..."
        if params
        else f"{inner}def __init__(self) -> None: ..."
    )


def generate_stub(schemas: list[Schema], requests: list[Schema]) -> str:
    lines = [HEADER, "import uuid", "from enum import IntEnum", ""]
    lines.append("from kafkawire.protocol._base import Message, Struct")
    lines.append("")
    for s in schemas:
        emit_stub_class(lines, s, s.top, "", top=True)
        lines.append("")
    lines.append("class ApiKey(IntEnum):")
    lines.extend(f"    {api_name(s)} = {s.api_key}" for s in requests)
    lines.append("")
    lines.append("REQUESTS: dict[int, type[Message]]")
    lines.append("RESPONSES: dict[int, type[Message]]")
    lines.extend(all_list(schemas))
    return "\n".join(lines) + "\n"


def main() -> int:
    schemas = [Schema(load_schema(p)) for p in sorted(SCHEMAS.glob("*.json"))]
    code, stub = generate(schemas)
    OUT.write_text(code)
    STUB.write_text(stub)
    print(f"wrote {OUT.relative_to(ROOT)} and {STUB.name} ({len(schemas)} schemas)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
