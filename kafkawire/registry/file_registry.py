"""A file registry: a local directory of hand-written schema files, one per schema id
(``1.avsc``, ``2.proto``, ``3.json``, each with an optional ``<id>.meta.json`` giving its
subject, version, GUID and references), read and written as a registry would (see
:mod:`kafkawire.registry.client` for the layout)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import threading
import uuid
from pathlib import Path
from typing import Any

from kafkawire.registry.errors import RegistryError, SchemaNotFoundError
from kafkawire.registry.schema import (
    SCHEMA_TYPES,
    Schema,
    bare,
    same_schema,
    schema_body,
    schema_from,
)

FILE_EXTENSIONS = {"AVRO": "avsc", "PROTOBUF": "proto", "JSON": "json"}
_SCHEMA_FILE = re.compile(r"^(\d+)\.(avsc|proto|json)$")
_META_FILE = re.compile(r"^(\d+)\.meta\.json$")


class FileRegistry:
    """A directory of schema files by id."""

    def __init__(self, path: str, url: object) -> None:
        directory = Path(path)
        if not directory.is_dir():
            raise ValueError(
                f"schema registry {url!r} is not a directory (a registry url starts with "
                "http:// or https://; a file registry is an existing directory)"
            )
        self.directory = directory
        self._write_lock = threading.Lock()  # register(): one writer per client

    @property
    def url(self) -> str:
        return str(self.directory)

    def schema_by_guid(self, guid: str) -> Schema:
        for entry in self._entries():
            if entry.guid == guid:
                return self.schema_by_id(entry.schema_id)  # type: ignore[arg-type]
        raise SchemaNotFoundError(
            f"schema guid {guid} not found: no meta file in {self.directory} has it"
        )

    def latest_version(self, subject: str) -> Schema:
        entries = [e for e in self._entries() if e.subject == subject]
        if not entries:
            raise SchemaNotFoundError(
                f"latest version of subject {subject!r}: no meta file in {self.directory} "
                "names the subject"
            )
        best = max(entries, key=lambda e: e.version or 0)
        return self.schema_by_id(best.schema_id)  # type: ignore[arg-type]

    def version(self, subject: str, version: int) -> Schema:
        for entry in self._entries():
            if entry.subject == subject and entry.version == version:
                return self.schema_by_id(entry.schema_id)  # type: ignore[arg-type]
        raise SchemaNotFoundError(
            f"subject {subject!r} version {version} not found: no meta file in "
            f"{self.directory} has it"
        )

    def subjects(self) -> list[str]:
        return sorted({e.subject for e in self._entries() if e.subject is not None})

    def versions(self, subject: str) -> list[int]:
        found = sorted(e.version for e in self._entries() if e.subject == subject and e.version)
        if not found:
            raise SchemaNotFoundError(
                f"versions of subject {subject!r}: no meta file in {self.directory} names "
                "the subject"
            )
        return found

    def lookup(self, subject: str, schema: Schema) -> Schema:
        found = self._lookup(subject, schema)
        if found is None:
            raise SchemaNotFoundError(
                f"lookup of a {schema.schema_type} schema in subject {subject!r}: no such "
                f"schema under the subject in {self.directory}"
            )
        return found

    def schema_by_id(self, schema_id: int, subject: str | None = None) -> Schema:
        """The schema file of this id (``subject`` does not matter: no contexts here)."""
        found = [
            (kind, self.directory / f"{schema_id}.{ext}")
            for kind, ext in FILE_EXTENSIONS.items()
            if (self.directory / f"{schema_id}.{ext}").is_file()
        ]
        if not found:
            names = ", ".join(f"{schema_id}.{ext}" for ext in FILE_EXTENSIONS.values())
            raise SchemaNotFoundError(
                f"schema id {schema_id} not found: no {names} in {self.directory}"
            )
        if len(found) > 1:
            raise RegistryError(
                f"schema id {schema_id} is ambiguous in {self.directory}: "
                + ", ".join(p.name for _, p in found)
            )
        kind, path = found[0]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RegistryError(f"schema id {schema_id}: cannot read {path}: {e}") from e
        meta = self._meta(schema_id)
        answer = {**meta, "schema": text, "schemaType": kind, "id": schema_id}
        return schema_from(answer, f"schema id {schema_id} ({path})")

    def _meta(self, schema_id: int) -> dict[str, Any]:
        path = self.directory / f"{schema_id}.meta.json"
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as e:
            raise RegistryError(f"cannot read {path}: {e}") from e
        try:
            meta = json.loads(raw)
        except ValueError as e:
            raise RegistryError(f"{path} is not JSON: {e}") from None
        if not isinstance(meta, dict):
            raise RegistryError(f"{path} is not a JSON object")
        unknown = set(meta) - {"subject", "version", "guid", "references", "schemaType"}
        if unknown:
            raise RegistryError(f"{path}: unknown keys {sorted(unknown)}")
        meta.pop("schemaType", None)  # the schema file's extension gives the type
        return meta

    def _entries(self) -> list[Schema]:
        """The id, subject, version and GUID of every schema with a meta file (no text)."""
        entries = []
        for path in sorted(self.directory.iterdir()):
            match = _META_FILE.match(path.name)
            if match is None:
                continue
            schema_id = int(match.group(1))
            meta = self._meta(schema_id)
            entries.append(schema_from({**meta, "schema": ""}, str(path), schema_id=schema_id))
        return entries

    def _lookup(self, subject: str, schema: Schema) -> Schema | None:
        want = bare(schema)
        for entry in sorted(self._entries(), key=lambda e: e.version or 0):
            if entry.subject != subject:
                continue
            have = self.schema_by_id(entry.schema_id)  # type: ignore[arg-type]
            if same_schema(bare(have), want):
                return have
        return None

    def register(self, subject: str, schema: Schema) -> Schema:
        kind = schema.schema_type.upper()
        if kind not in FILE_EXTENSIONS:
            raise ValueError(f"schema_type is one of {SCHEMA_TYPES}, not {schema.schema_type!r}")
        with self._write_lock:  # one writer per client; O_EXCL guards other processes
            existing = self._lookup(subject, schema)
            if existing is not None:
                return existing
            versions = [e.version or 0 for e in self._entries() if e.subject == subject]
            version = max(versions, default=0) + 1
            ids = [
                int(m.group(1))
                for p in self.directory.iterdir()
                if (m := _SCHEMA_FILE.match(p.name) or _META_FILE.match(p.name))
            ]
            schema_id = max(ids, default=0) + 1
            while True:
                path = self.directory / f"{schema_id}.{FILE_EXTENSIONS[kind]}"
                try:
                    with open(path, "x", encoding="utf-8") as f:
                        f.write(schema.schema_str)
                    break
                except FileExistsError:
                    schema_id += 1
            guid = str(uuid.uuid4())
            meta: dict[str, Any] = {"subject": subject, "version": version, "guid": guid}
            if schema.references:
                meta["references"] = schema_body(schema)["references"]
            meta_path = self.directory / f"{schema_id}.meta.json"
            tmp = meta_path.with_name(meta_path.name + ".tmp")
            tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
            os.replace(tmp, meta_path)
        return dataclasses.replace(
            bare(schema),
            schema_type=kind,
            schema_id=schema_id,
            guid=guid,
            subject=subject,
            version=version,
        )
