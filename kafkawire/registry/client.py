"""A Confluent Schema Registry client: schemas by id, GUID, subject and version, for the
decoders of schema-registry framed payloads.

:class:`SchemaRegistryClient` speaks the registry's REST API over the standard library
(``http.client`` with an :class:`ssl.SSLContext`), or reads a *file registry*: a local
directory of hand-written schema files. This module holds the client's checks and caches; the
two kinds of registry are http_registry.py and file_registry.py, the :class:`Schema` values
schema.py, the confluent-kafka style settings client_config.py.

HTTP registries
---------------
``url`` is ``http://host:port[/prefix]`` or ``https://...``; several comma-separated URLs are
tried in order when one cannot be reached (as confluent-kafka does). Credentials are HTTP
Basic (``basic_auth="user:pass"`` or ``("user", "pass")``, or the url's userinfo
``https://user:pass@host``) or a bearer token (a string, or a callable called for every
request so it can refresh). Connection failures, timeouts and HTTP 408/429/5xx answers are
retried ``retries`` times with an exponential backoff (``retry_backoff * 2**n`` seconds,
at most ``retry_backoff_max``), then raise :class:`RegistryUnavailableError` naming the
url(s) and the last cause; a 404 raises :class:`SchemaNotFoundError` naming what was asked;
any other error answer raises :class:`RegistryError` with its HTTP ``status`` and the
registry's ``error_code`` as ``code``. Messages and ``repr`` never contain credentials.

Schemas by id and by GUID never change, so they are cached for the client's life (a registry
that goes down keeps serving the ids already fetched); a subject's latest version is cached
for ``latest_ttl`` seconds.

File registries
---------------
``url`` is a directory (a path, or a ``file://`` URL) holding one file per schema id::

    1.avsc          an Avro schema (JSON text)
    2.proto         a Protobuf schema (.proto text)
    3.json          a JSON Schema
    3.meta.json     optional: {"subject": "orders-value", "version": 1,
                               "guid": "8d0c6c5e-...", "schemaType": "JSON",
                               "references": [{"name": "common.json",
                                               "subject": "common", "version": 1}]}

The extension gives the schema type (exactly one of the three per id). Subjects and versions
come from the ``<id>.meta.json`` files alone (a subject's latest version is its highest
``version``); a schema without a meta file is reachable by id only. :meth:`register`
writes the next id's schema and meta files (ids from 1 up, versions from 1 up per subject,
a fresh uuid4 GUID), so a local pipeline can write and read schemas without a server.
"""

from __future__ import annotations

import dataclasses
import os
import re
import ssl
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from kafkawire.registry.client_config import DEFAULTS, parse_config
from kafkawire.registry.errors import RegistryError
from kafkawire.registry.file_registry import FileRegistry
from kafkawire.registry.http_registry import HttpRegistry
from kafkawire.registry.schema import (
    Reference,
    Schema,
    bare,
    canonical_guid,
    check_id,
    check_subject,
    check_version,
    schema_body,
)

__all__ = ["Reference", "Schema", "SchemaRegistryClient"]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


class SchemaRegistryClient:
    """A Confluent Schema Registry (``http(s)://`` URLs) or a file registry (a directory)."""

    def __init__(
        self,
        url: str | os.PathLike[str],
        *,
        basic_auth: str | tuple[str, str] | None = None,
        bearer_token: str | Callable[[], str] | None = None,
        ssl_cafile: str | os.PathLike[str] | None = None,
        ssl_certfile: str | os.PathLike[str] | None = None,
        ssl_keyfile: str | os.PathLike[str] | None = None,
        ssl_key_password: str | None = None,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        retry_backoff: float = 0.2,
        retry_backoff_max: float = 5.0,
        latest_ttl: float = 30.0,
        headers: Mapping[str, str] | None = None,
        config: Mapping[str, str] | None = None,
    ) -> None:
        given: dict[str, Any] = {
            "basic_auth": basic_auth,
            "bearer_token": bearer_token,
            "ssl_cafile": ssl_cafile,
            "ssl_certfile": ssl_certfile,
            "ssl_keyfile": ssl_keyfile,
            "ssl_key_password": ssl_key_password,
            "timeout": timeout,
            "retries": retries,
            "retry_backoff": retry_backoff,
            "retry_backoff_max": retry_backoff_max,
            "latest_ttl": latest_ttl,
            "headers": headers,
        }
        if config:  # confluent-kafka style settings fill in what the keywords leave default
            parsed = parse_config(config)
            if "url" in parsed:
                raise ValueError("the url is the first argument, not a config setting")
            for name, value in parsed.items():
                if given[name] != DEFAULTS[name] and given[name] != value:
                    raise ValueError(f"{name} given both as a keyword and in config")
                given[name] = value
        timeout, retries = given["timeout"], given["retries"]
        if not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"timeout is a positive number of seconds, not {timeout!r}")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries is a non-negative int, not {retries!r}")
        for name in ("retry_backoff", "retry_backoff_max", "latest_ttl"):
            if not isinstance(given[name], (int, float)) or given[name] < 0:
                raise ValueError(f"{name} is a non-negative number of seconds, not {given[name]!r}")
        self._latest_ttl = float(given["latest_ttl"])

        self._lock = threading.Lock()
        self._by_id: dict[tuple[int, str | None], Schema] = {}
        self._by_guid: dict[str, Schema] = {}
        self._by_version: dict[tuple[str, int], Schema] = {}
        self._latest: dict[str, tuple[float, Schema]] = {}
        self._lookups: dict[tuple[str, Schema], Schema] = {}
        self._closed = False
        self._backend: FileRegistry | HttpRegistry

        if isinstance(url, str):
            url = url.strip()
        if isinstance(url, os.PathLike) or (isinstance(url, str) and not _SCHEME.match(url)):
            self._backend = FileRegistry(os.fspath(url), url)
            return
        if not isinstance(url, str):
            raise TypeError(f"url is a str or a path, not {type(url).__name__}")
        schemes = {m.group(1).lower() for u in url.split(",") if (m := _SCHEME.match(u.strip()))}
        if schemes == {"file"}:
            if "," in url:
                raise ValueError("a file registry is one directory, not a list of urls")
            parts = urllib.parse.urlsplit(url)
            if parts.netloc not in ("", "localhost"):
                raise ValueError("a file:// registry url names a local directory (no host)")
            self._backend = FileRegistry(urllib.request.url2pathname(parts.path), url)
            return
        self._backend = HttpRegistry(url, given, ssl_context)

    @classmethod
    def from_config(cls, config: Mapping[str, str]) -> SchemaRegistryClient:
        """A client from confluent-kafka style settings: ``schema.registry.url`` (or ``url``),
        ``basic.auth.user.info`` ("user:password"), ``basic.auth.credentials.source``
        (USER_INFO, or URL: the url's userinfo), ``bearer.auth.token``, ``ssl.ca.location``,
        ``ssl.certificate.location``, ``ssl.key.location``, ``ssl.key.password``,
        ``timeout.ms`` / ``request.timeout.ms``, ``max.retries``, ``retries.wait.ms``,
        ``retries.max.wait.ms``, ``cache.latest.ttl.sec``, ``bearer.auth.logical.cluster``,
        ``bearer.auth.identity.pool.id``; each also as ``schema.registry.<key>``. An unknown
        key raises ValueError naming the closest known one."""
        settings = parse_config(config)
        if "url" not in settings:
            raise ValueError("schema registry config without 'schema.registry.url' (or 'url')")
        url = settings.pop("url")
        return cls(url, **settings)

    # -- the public API -------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The registry's url(s) without credentials, or the file registry's directory."""
        return self._backend.url

    def schema_by_id(self, schema_id: int, *, subject: str | None = None) -> Schema:
        """The schema with this id (cached for the client's life). ``subject`` is passed on
        for registries with contexts."""
        check_id(schema_id)
        if subject is not None:
            check_subject(subject)
        with self._lock:
            cached = self._by_id.get((schema_id, subject))
        if cached is not None:
            return cached
        self._check_open()
        schema = self._backend.schema_by_id(schema_id, subject)
        self._remember(schema, subject)
        return schema

    def schema_by_guid(self, guid: str | uuid.UUID | bytes) -> Schema:
        """The schema with this GUID (cached for the client's life)."""
        guid = canonical_guid(guid)
        with self._lock:
            cached = self._by_guid.get(guid)
        if cached is not None:
            return cached
        self._check_open()
        schema = dataclasses.replace(self._backend.schema_by_guid(guid), guid=guid)
        self._remember(schema, None)
        return schema

    def latest_version(self, subject: str) -> Schema:
        """The subject's latest version (cached for ``latest_ttl`` seconds)."""
        check_subject(subject)
        now = time.monotonic()
        with self._lock:
            hit = self._latest.get(subject)
        if hit is not None and now - hit[0] < self._latest_ttl:
            return hit[1]
        self._check_open()
        schema = self._backend.latest_version(subject)
        with self._lock:
            self._latest[subject] = (now, schema)
        self._remember(schema, None)
        return schema

    def version(self, subject: str, version: int) -> Schema:
        """The subject's given version (cached for the client's life)."""
        check_subject(subject)
        check_version(version)
        with self._lock:
            cached = self._by_version.get((subject, version))
        if cached is not None:
            return cached
        self._check_open()
        schema = self._backend.version(subject, version)
        self._remember(schema, None)
        return schema

    def subjects(self) -> list[str]:
        """Every subject, sorted."""
        self._check_open()
        return self._backend.subjects()

    def versions(self, subject: str) -> list[int]:
        """The subject's versions, ascending."""
        check_subject(subject)
        self._check_open()
        return self._backend.versions(subject)

    def lookup(self, subject: str, schema: Schema) -> Schema:
        """This schema text's registration under the subject: its id, version and GUID."""
        check_subject(subject)
        schema_body(schema)  # a Schema, or TypeError before the cache is asked
        key = (subject, bare(schema))
        with self._lock:
            cached = self._lookups.get(key)
        if cached is not None:
            return cached
        self._check_open()
        found = self._backend.lookup(subject, schema)
        with self._lock:
            self._lookups[key] = found
        self._remember(found, None)
        return found

    def register(self, subject: str, schema: Schema) -> Schema:
        """Registers the schema under the subject (the registry dedupes an identical one) and
        returns it with its id (and GUID, and version, when the registry gives them)."""
        check_subject(subject)
        schema_body(schema)  # a Schema, or TypeError
        self._check_open()
        registered = self._backend.register(subject, schema)
        with self._lock:
            self._latest.pop(subject, None)
        self._remember(registered, None)
        return registered

    def references(self, schema: Schema) -> dict[str, Schema]:
        """Every schema this one references, transitively, by reference name (the first
        reference of a name wins; cycles are safe)."""
        found: dict[str, Schema] = {}
        seen: set[tuple[str, int]] = set()
        pending = list(schema.references)
        while pending:
            ref = pending.pop(0)
            if ref.name in found and (ref.subject, ref.version) in seen:
                continue
            # version -1 is the registry's "latest"
            if ref.version == -1:
                target = self.latest_version(ref.subject)
            else:
                target = self.version(ref.subject, ref.version)
            found.setdefault(ref.name, target)
            if (ref.subject, ref.version) not in seen:
                seen.add((ref.subject, ref.version))
                pending.extend(target.references)
        return found

    def close(self) -> None:
        """Closes the client (it keeps no connection open between requests; later network
        requests raise RegistryError)."""
        self._closed = True

    def __enter__(self) -> SchemaRegistryClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if isinstance(self._backend, FileRegistry):
            return f"SchemaRegistryClient({self.url!r})"
        auth = f", auth={self._backend.auth_kind}" if self._backend.auth_kind else ""
        return f"SchemaRegistryClient({self.url!r}{auth})"

    # -- internals ------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise RegistryError(f"{self!r} is closed")

    def _remember(self, schema: Schema, subject: str | None) -> None:
        with self._lock:
            if schema.schema_id is not None:
                self._by_id.setdefault((schema.schema_id, subject), schema)
            if schema.guid is not None:
                self._by_guid.setdefault(schema.guid, schema)
            if schema.subject is not None and schema.version is not None:
                self._by_version.setdefault((schema.subject, schema.version), schema)
