"""Schemas as a registry gives them: :class:`Schema` and :class:`Reference`, the checks of
ids, versions, subjects and GUIDs, and a registry's JSON answer (or a file registry's meta
file) read into a Schema, for the HTTP and the file registries alike."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from kafkawire.registry.errors import RegistryError

SCHEMA_TYPES = ("AVRO", "PROTOBUF", "JSON")


@dataclass(frozen=True)
class Reference:
    """A schema's reference to another registered schema: ``name`` is how the referring
    schema names it (an Avro full name, a Protobuf import path, a JSON ``$ref``)."""

    name: str
    subject: str
    version: int


@dataclass(frozen=True)
class Schema:
    """A schema's text and type, with its registry coordinates when known."""

    schema_str: str
    schema_type: str = "AVRO"  # "AVRO" | "PROTOBUF" | "JSON" (the registry omits it for AVRO)
    references: tuple[Reference, ...] = ()
    schema_id: int | None = None
    guid: str | None = None  # canonical lowercase uuid string, when known
    subject: str | None = None
    version: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.schema_str, str):
            raise TypeError(f"schema_str must be a str, not {type(self.schema_str).__name__}")
        if not isinstance(self.references, tuple):  # a list from a caller: keep it hashable
            object.__setattr__(self, "references", tuple(self.references))
        for ref in self.references:
            if not isinstance(ref, Reference):
                raise TypeError(f"references must be Reference objects, not {ref!r}")
        if self.schema_id is not None:
            check_id(self.schema_id)
        if self.guid is not None:
            object.__setattr__(self, "guid", canonical_guid(self.guid))


# -- input checks ---------------------------------------------------------------------------


def check_id(schema_id: object) -> int:
    if isinstance(schema_id, bool) or not isinstance(schema_id, int) or schema_id < 0:
        raise ValueError(f"a schema id is a non-negative int, not {schema_id!r}")
    return schema_id


def check_version(version: object) -> int:
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"a subject version is a positive int, not {version!r}")
    return version


def check_subject(subject: object) -> str:
    if not isinstance(subject, str) or not subject:
        raise ValueError(f"a subject is a non-empty str, not {subject!r}")
    return subject


def canonical_guid(guid: object) -> str:
    """The canonical lowercase form of a GUID given as a str, a UUID or 16 bytes."""
    if isinstance(guid, uuid.UUID):
        return str(guid)
    try:
        if isinstance(guid, (bytes, bytearray, memoryview)):
            return str(uuid.UUID(bytes=bytes(guid)))
        if isinstance(guid, str):
            return str(uuid.UUID(guid.strip()))
    except ValueError:
        pass
    raise ValueError(f"a schema GUID is a uuid (str, uuid.UUID or 16 bytes), not {guid!r}")


# -- registry answers -----------------------------------------------------------------------


def _references_from(raw: object, what: str) -> tuple[Reference, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise RegistryError(f"{what}: 'references' is not a list: {raw!r}")
    refs = []
    for item in raw:
        if not (
            isinstance(item, dict)
            and isinstance(item.get("name"), str)
            and isinstance(item.get("subject"), str)
            and isinstance(item.get("version"), int)
            and not isinstance(item.get("version"), bool)
        ):
            raise RegistryError(f"{what}: a reference is not {{name, subject, version}}: {item!r}")
        refs.append(Reference(item["name"], item["subject"], item["version"]))
    return tuple(refs)


def schema_from(
    answer: object,
    what: str,
    *,
    schema_id: int | None = None,
    subject: str | None = None,
    version: int | None = None,
) -> Schema:
    """A Schema from a registry answer (or a file registry's meta), checking its fields."""
    if not isinstance(answer, dict):
        raise RegistryError(f"{what}: the answer is not a JSON object: {snippet(answer)}")
    text = answer.get("schema")
    if not isinstance(text, str):
        raise RegistryError(f"{what}: the answer has no 'schema' string: {snippet(answer)}")
    kind = answer.get("schemaType") or "AVRO"
    if not isinstance(kind, str):
        raise RegistryError(f"{what}: 'schemaType' is not a string: {kind!r}")
    got_id = answer.get("id", schema_id)
    if got_id is not None:
        try:
            got_id = check_id(got_id)
        except ValueError:
            raise RegistryError(f"{what}: 'id' is not a schema id: {got_id!r}") from None
    guid = answer.get("guid")
    if guid is not None:
        try:
            guid = canonical_guid(guid)
        except ValueError:
            raise RegistryError(f"{what}: 'guid' is not a uuid: {guid!r}") from None
    got_subject = answer.get("subject", subject)
    if got_subject is not None and not isinstance(got_subject, str):
        raise RegistryError(f"{what}: 'subject' is not a string: {got_subject!r}")
    got_version = answer.get("version", version)
    if got_version is not None and (
        isinstance(got_version, bool) or not isinstance(got_version, int)
    ):
        raise RegistryError(f"{what}: 'version' is not an int: {got_version!r}")
    return Schema(
        schema_str=text,
        schema_type=kind.upper(),
        references=_references_from(answer.get("references"), what),
        schema_id=got_id,
        guid=guid,
        subject=got_subject,
        version=got_version,
    )


def schema_body(schema: Schema) -> dict[str, Any]:
    if not isinstance(schema, Schema):
        raise TypeError(f"expected a kafkawire.registry.client.Schema, not {type(schema).__name__}")
    body: dict[str, Any] = {"schema": schema.schema_str, "schemaType": schema.schema_type}
    body["references"] = [
        {"name": r.name, "subject": r.subject, "version": r.version} for r in schema.references
    ]
    return body


def snippet(value: object, limit: int = 200) -> str:
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    else:
        text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def bare(schema: Schema) -> Schema:
    """The schema's text, type and references alone (what a registration is keyed by)."""
    return Schema(schema.schema_str, schema.schema_type.upper(), schema.references)


def same_schema(a: Schema, b: Schema) -> bool:
    if (a.schema_type, a.references) != (b.schema_type, b.references):
        return False
    if a.schema_str == b.schema_str:
        return True
    if a.schema_type in ("AVRO", "JSON"):  # the same JSON written differently
        try:
            return json.loads(a.schema_str) == json.loads(b.schema_str)
        except ValueError:
            return False
    return a.schema_str.strip() == b.schema_str.strip()
