"""A Confluent Schema Registry client: schemas by id, GUID, subject and version, for the
decoders of schema-registry framed payloads.

:class:`SchemaRegistryClient` speaks the registry's REST API over the standard library
(``http.client`` with an :class:`ssl.SSLContext`), or reads a *file registry*: a local
directory of hand-written schema files.

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

import base64
import dataclasses
import difflib
import http.client
import json
import os
import re
import ssl
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafkawire.registry.errors import (
    RegistryError,
    RegistryUnavailableError,
    SchemaNotFoundError,
)

__all__ = ["Reference", "Schema", "SchemaRegistryClient"]

SCHEMA_TYPES = ("AVRO", "PROTOBUF", "JSON")
_ACCEPT = "application/vnd.schemaregistry.v1+json, application/json"
_CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"
_RETRIABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_FILE_EXTENSIONS = {"AVRO": "avsc", "PROTOBUF": "proto", "JSON": "json"}
_FILE_TYPES = {ext: kind for kind, ext in _FILE_EXTENSIONS.items()}
_SCHEMA_FILE = re.compile(r"^(\d+)\.(avsc|proto|json)$")
_META_FILE = re.compile(r"^(\d+)\.meta\.json$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")

_sleep = time.sleep  # the retry backoff's sleep (tests count the retries through it)


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
            _check_id(self.schema_id)
        if self.guid is not None:
            object.__setattr__(self, "guid", _canonical_guid(self.guid))


# -- input checks ---------------------------------------------------------------------------


def _check_id(schema_id: object) -> int:
    if isinstance(schema_id, bool) or not isinstance(schema_id, int) or schema_id < 0:
        raise ValueError(f"a schema id is a non-negative int, not {schema_id!r}")
    return schema_id


def _check_version(version: object) -> int:
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"a subject version is a positive int, not {version!r}")
    return version


def _check_subject(subject: object) -> str:
    if not isinstance(subject, str) or not subject:
        raise ValueError(f"a subject is a non-empty str, not {subject!r}")
    return subject


def _canonical_guid(guid: object) -> str:
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


def _schema_from(
    answer: object,
    what: str,
    *,
    schema_id: int | None = None,
    subject: str | None = None,
    version: int | None = None,
) -> Schema:
    """A Schema from a registry answer (or a file registry's meta), checking its fields."""
    if not isinstance(answer, dict):
        raise RegistryError(f"{what}: the answer is not a JSON object: {_snippet(answer)}")
    text = answer.get("schema")
    if not isinstance(text, str):
        raise RegistryError(f"{what}: the answer has no 'schema' string: {_snippet(answer)}")
    kind = answer.get("schemaType") or "AVRO"
    if not isinstance(kind, str):
        raise RegistryError(f"{what}: 'schemaType' is not a string: {kind!r}")
    got_id = answer.get("id", schema_id)
    if got_id is not None:
        try:
            got_id = _check_id(got_id)
        except ValueError:
            raise RegistryError(f"{what}: 'id' is not a schema id: {got_id!r}") from None
    guid = answer.get("guid")
    if guid is not None:
        try:
            guid = _canonical_guid(guid)
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


def _schema_body(schema: Schema) -> dict[str, Any]:
    if not isinstance(schema, Schema):
        raise TypeError(f"expected a kafkawire.registry.client.Schema, not {type(schema).__name__}")
    body: dict[str, Any] = {"schema": schema.schema_str, "schemaType": schema.schema_type}
    body["references"] = [
        {"name": r.name, "subject": r.subject, "version": r.version} for r in schema.references
    ]
    return body


def _snippet(value: object, limit: int = 200) -> str:
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    else:
        text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# -- configuration --------------------------------------------------------------------------

# confluent-kafka's SchemaRegistryClient keys (each also with a "schema.registry." prefix, as
# Spark and Kafka Connect users write them)
_CONFIG_KEYS = (
    "url",
    "basic.auth.user.info",
    "basic.auth.credentials.source",
    "bearer.auth.token",
    "bearer.auth.credentials.source",
    "bearer.auth.logical.cluster",
    "bearer.auth.identity.pool.id",
    "ssl.ca.location",
    "ssl.certificate.location",
    "ssl.key.location",
    "ssl.key.password",
    "timeout.ms",
    "request.timeout.ms",
    "max.retries",
    "retries.wait.ms",
    "retries.max.wait.ms",
    "cache.latest.ttl.sec",
)
_KNOWN_KEYS = (*_CONFIG_KEYS, *(f"schema.registry.{k}" for k in _CONFIG_KEYS))

# the constructor's keyword defaults a config may fill in
_DEFAULTS: dict[str, Any] = {
    "basic_auth": None,
    "bearer_token": None,
    "ssl_cafile": None,
    "ssl_certfile": None,
    "ssl_keyfile": None,
    "ssl_key_password": None,
    "timeout": 10.0,
    "retries": 3,
    "retry_backoff": 0.2,
    "retry_backoff_max": 5.0,
    "latest_ttl": 30.0,
    "headers": None,
}


def _number(key: str, value: object, kind: type) -> Any:
    try:
        number = kind(str(value).strip())
    except ValueError:
        raise ValueError(
            f"schema registry setting {key!r} must be a number, not {value!r}"
        ) from None
    if number < 0:
        raise ValueError(f"schema registry setting {key!r} must not be negative, not {value!r}")
    return number


def _parse_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """confluent-kafka style settings -> the constructor's keyword arguments (and "url")."""
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a mapping, not {type(config).__name__}")
    settings: dict[str, Any] = {}
    for key, value in config.items():
        if key not in _KNOWN_KEYS:
            close = difflib.get_close_matches(str(key), _KNOWN_KEYS, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown schema registry setting {key!r}{hint}")
        name = key.removeprefix("schema.registry.")
        if name == "request.timeout.ms":
            name = "timeout.ms"
        if name in settings and settings[name] != value:
            raise ValueError(f"schema registry setting {name!r} given twice, with different values")
        settings[name] = value

    out: dict[str, Any] = {}
    if "url" in settings:
        out["url"] = str(settings["url"])
    source = str(settings.get("basic.auth.credentials.source", "USER_INFO")).upper()
    if source == "USER_INFO":
        if "basic.auth.user.info" in settings:
            out["basic_auth"] = str(settings["basic.auth.user.info"])
    elif source == "URL":
        if "basic.auth.user.info" in settings:
            raise ValueError(
                "basic.auth.credentials.source is URL: the credentials come from the url's "
                "userinfo, so basic.auth.user.info must not be set"
            )
        if "@" not in urllib.parse.urlsplit(str(settings.get("url", "")).split(",")[0]).netloc:
            raise ValueError(
                "basic.auth.credentials.source is URL but the url has no user:password@"
            )
    else:
        raise ValueError(
            f"basic.auth.credentials.source {source!r} is not supported (USER_INFO or URL)"
        )
    bearer_source = str(settings.get("bearer.auth.credentials.source", "STATIC_TOKEN")).upper()
    if bearer_source != "STATIC_TOKEN":
        raise ValueError(
            f"bearer.auth.credentials.source {bearer_source!r} is not supported (STATIC_TOKEN; "
            "pass a callable as bearer_token for tokens that refresh)"
        )
    if "bearer.auth.token" in settings:
        out["bearer_token"] = str(settings["bearer.auth.token"])
    headers = {}
    if "bearer.auth.logical.cluster" in settings:
        headers["target-sr-cluster"] = str(settings["bearer.auth.logical.cluster"])
    if "bearer.auth.identity.pool.id" in settings:
        headers["Confluent-Identity-Pool-Id"] = str(settings["bearer.auth.identity.pool.id"])
    if headers:
        out["headers"] = headers
    for key, arg in (
        ("ssl.ca.location", "ssl_cafile"),
        ("ssl.certificate.location", "ssl_certfile"),
        ("ssl.key.location", "ssl_keyfile"),
        ("ssl.key.password", "ssl_key_password"),
    ):
        if key in settings:
            out[arg] = str(settings[key])
    if "timeout.ms" in settings:
        out["timeout"] = _number("timeout.ms", settings["timeout.ms"], float) / 1000
    if "max.retries" in settings:
        out["retries"] = _number("max.retries", settings["max.retries"], int)
    if "retries.wait.ms" in settings:
        out["retry_backoff"] = _number("retries.wait.ms", settings["retries.wait.ms"], float) / 1000
    if "retries.max.wait.ms" in settings:
        wait = _number("retries.max.wait.ms", settings["retries.max.wait.ms"], float)
        out["retry_backoff_max"] = wait / 1000
    if "cache.latest.ttl.sec" in settings:
        out["latest_ttl"] = _number("cache.latest.ttl.sec", settings["cache.latest.ttl.sec"], float)
    return out


def _user_pass(basic_auth: str | tuple[str, str]) -> tuple[str, str]:
    if isinstance(basic_auth, tuple):
        if len(basic_auth) != 2 or not all(isinstance(p, str) for p in basic_auth):
            raise ValueError("basic_auth is 'user:password' or a (user, password) pair of str")
        return basic_auth
    if not isinstance(basic_auth, str) or ":" not in basic_auth:
        raise ValueError("basic_auth is 'user:password' or a (user, password) pair of str")
    user, _, password = basic_auth.partition(":")
    return user, password


# -- the client -----------------------------------------------------------------------------


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
            parsed = _parse_config(config)
            if "url" in parsed:
                raise ValueError("the url is the first argument, not a config setting")
            for name, value in parsed.items():
                if given[name] != _DEFAULTS[name] and given[name] != value:
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
        self._timeout = float(timeout)
        self._retries = retries
        self._retry_backoff = float(given["retry_backoff"])
        self._retry_backoff_max = float(given["retry_backoff_max"])
        self._latest_ttl = float(given["latest_ttl"])

        self._lock = threading.Lock()
        self._write_lock = threading.Lock()  # the file registry's register()
        self._by_id: dict[tuple[int, str | None], Schema] = {}
        self._by_guid: dict[str, Schema] = {}
        self._by_version: dict[tuple[str, int], Schema] = {}
        self._latest: dict[str, tuple[float, Schema]] = {}
        self._lookups: dict[tuple[str, Schema], Schema] = {}
        self._closed = False
        self._dir: Path | None = None
        self._urls: list[str] = []
        self._auth_kind: str | None = None

        if isinstance(url, str):
            url = url.strip()
        if isinstance(url, os.PathLike) or (isinstance(url, str) and not _SCHEME.match(url)):
            self._dir = self._directory(os.fspath(url), url)
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
            self._dir = self._directory(urllib.request.url2pathname(parts.path), url)
            return
        self._init_http(url, given, ssl_context)

    @staticmethod
    def _directory(path: str, url: object) -> Path:
        directory = Path(path)
        if not directory.is_dir():
            raise ValueError(
                f"schema registry {url!r} is not a directory (a registry url starts with "
                "http:// or https://; a file registry is an existing directory)"
            )
        return directory

    def _init_http(self, url: str, given: dict[str, Any], context: ssl.SSLContext | None) -> None:
        userinfo: tuple[str, str] | None = None
        self._targets: dict[str, tuple[str, str, str]] = {}
        for raw in url.split(","):
            raw = raw.strip()
            if not raw:
                continue
            parts = urllib.parse.urlsplit(raw)
            scheme = parts.scheme.lower()
            if scheme not in ("http", "https"):
                raise ValueError(
                    f"schema registry urls are http:// or https:// (or one file registry "
                    f"directory), not {scheme}://"
                )
            try:
                host, port = parts.hostname, parts.port
            except ValueError:
                raise ValueError(f"schema registry url with a bad port: {scheme}://...") from None
            if not host:
                raise ValueError(f"schema registry url without a host: {scheme}://")
            if parts.username is not None:
                info = (
                    urllib.parse.unquote(parts.username),
                    urllib.parse.unquote(parts.password or ""),
                )
                if userinfo is not None and info != userinfo:
                    raise ValueError("the schema registry urls carry different credentials")
                userinfo = info
            hostport = f"[{host}]" if ":" in host else host
            if port is not None:
                hostport += f":{port}"
            clean = f"{scheme}://{hostport}{parts.path.rstrip('/')}"
            self._urls.append(clean)
            # http.client takes "host:port" (IPv6 hosts in brackets) and splits it itself
            self._targets[clean] = (scheme, hostport, parts.path.rstrip("/"))
        if not self._urls:
            raise ValueError("no schema registry url given")

        basic_auth, bearer = given["basic_auth"], given["bearer_token"]
        if basic_auth is not None and userinfo is not None and _user_pass(basic_auth) != userinfo:
            raise ValueError("credentials both in the url and in basic_auth")
        if basic_auth is None and userinfo is not None:
            basic_auth = userinfo
        if basic_auth is not None and bearer is not None:
            raise ValueError("basic_auth and bearer_token exclude each other")
        self._basic: str | None = None
        if basic_auth is not None:
            user, password = _user_pass(basic_auth)
            self._basic = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            self._auth_kind = "basic"
        if bearer is not None:
            if not (callable(bearer) or (isinstance(bearer, str) and bearer)):
                raise ValueError("bearer_token is a non-empty str or a callable returning one")
            self._auth_kind = "bearer"
        self._bearer = bearer
        extra = dict(given["headers"] or {})
        for name, value in extra.items():
            if not isinstance(name, str) or not isinstance(value, str) or "\n" in name + value:
                raise ValueError(f"bad extra header {name!r}")
        self._extra_headers = extra

        files = (given["ssl_cafile"], given["ssl_certfile"], given["ssl_keyfile"])
        if context is not None and any(f is not None for f in files):
            raise ValueError("ssl_context excludes ssl_cafile, ssl_certfile and ssl_keyfile")
        if context is None and any(u.startswith("https:") for u in self._urls):
            cafile, certfile, keyfile = (os.fspath(f) if f is not None else None for f in files)
            if keyfile is not None and certfile is None:
                raise ValueError("ssl_keyfile needs ssl_certfile")
            try:
                context = ssl.create_default_context(cafile=cafile)
                if certfile is not None:
                    context.load_cert_chain(certfile, keyfile, given["ssl_key_password"])
            except (OSError, ssl.SSLError) as e:
                raise ValueError(f"schema registry TLS files: {e}") from e
        self._context = context

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
        settings = _parse_config(config)
        if "url" not in settings:
            raise ValueError("schema registry config without 'schema.registry.url' (or 'url')")
        url = settings.pop("url")
        return cls(url, **settings)

    # -- the public API -------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The registry's url(s) without credentials, or the file registry's directory."""
        return str(self._dir) if self._dir is not None else ",".join(self._urls)

    def schema_by_id(self, schema_id: int, *, subject: str | None = None) -> Schema:
        """The schema with this id (cached for the client's life). ``subject`` is passed on
        for registries with contexts."""
        _check_id(schema_id)
        if subject is not None:
            _check_subject(subject)
        with self._lock:
            cached = self._by_id.get((schema_id, subject))
        if cached is not None:
            return cached
        self._check_open()
        if self._dir is not None:
            schema = self._file_schema(schema_id)
        else:
            what = f"schema id {schema_id}"
            query = {"subject": subject} if subject is not None else None
            answer = self._request("GET", f"/schemas/ids/{schema_id}", what, query=query)
            schema = _schema_from(answer, what, schema_id=schema_id)
            schema = dataclasses.replace(schema, schema_id=schema_id)
        self._remember(schema, subject)
        return schema

    def schema_by_guid(self, guid: str | uuid.UUID | bytes) -> Schema:
        """The schema with this GUID (cached for the client's life)."""
        guid = _canonical_guid(guid)
        with self._lock:
            cached = self._by_guid.get(guid)
        if cached is not None:
            return cached
        self._check_open()
        what = f"schema guid {guid}"
        if self._dir is not None:
            for entry in self._file_entries():
                if entry.guid == guid:
                    schema = self._file_schema(entry.schema_id)  # type: ignore[arg-type]
                    break
            else:
                raise SchemaNotFoundError(f"{what} not found: no meta file in {self._dir} has it")
        else:
            answer = self._request("GET", f"/schemas/guids/{guid}", what)
            schema = _schema_from(answer, what)
        schema = dataclasses.replace(schema, guid=guid)
        self._remember(schema, None)
        return schema

    def latest_version(self, subject: str) -> Schema:
        """The subject's latest version (cached for ``latest_ttl`` seconds)."""
        _check_subject(subject)
        now = time.monotonic()
        with self._lock:
            hit = self._latest.get(subject)
        if hit is not None and now - hit[0] < self._latest_ttl:
            return hit[1]
        self._check_open()
        what = f"latest version of subject {subject!r}"
        if self._dir is not None:
            entries = [e for e in self._file_entries() if e.subject == subject]
            if not entries:
                raise SchemaNotFoundError(f"{what}: no meta file in {self._dir} names the subject")
            best = max(entries, key=lambda e: e.version or 0)
            schema = self._file_schema(best.schema_id)  # type: ignore[arg-type]
        else:
            answer = self._request("GET", f"/subjects/{_quote(subject)}/versions/latest", what)
            schema = _schema_from(answer, what, subject=subject)
            if schema.schema_id is None:
                raise RegistryError(f"{what}: the answer has no schema 'id'")
        with self._lock:
            self._latest[subject] = (now, schema)
        self._remember(schema, None)
        return schema

    def version(self, subject: str, version: int) -> Schema:
        """The subject's given version (cached for the client's life)."""
        _check_subject(subject)
        _check_version(version)
        with self._lock:
            cached = self._by_version.get((subject, version))
        if cached is not None:
            return cached
        self._check_open()
        what = f"subject {subject!r} version {version}"
        if self._dir is not None:
            for entry in self._file_entries():
                if entry.subject == subject and entry.version == version:
                    schema = self._file_schema(entry.schema_id)  # type: ignore[arg-type]
                    break
            else:
                raise SchemaNotFoundError(f"{what} not found: no meta file in {self._dir} has it")
        else:
            path = f"/subjects/{_quote(subject)}/versions/{version}"
            schema = _schema_from(self._request("GET", path, what), what, subject=subject)
            if schema.schema_id is None:
                raise RegistryError(f"{what}: the answer has no schema 'id'")
            schema = dataclasses.replace(schema, version=version)
        self._remember(schema, None)
        return schema

    def subjects(self) -> list[str]:
        """Every subject, sorted."""
        self._check_open()
        if self._dir is not None:
            return sorted({e.subject for e in self._file_entries() if e.subject is not None})
        answer = self._request("GET", "/subjects", "subjects")
        if not isinstance(answer, list) or not all(isinstance(s, str) for s in answer):
            raise RegistryError(
                f"subjects: the answer is not a list of strings: {_snippet(answer)}"
            )
        return sorted(answer)

    def versions(self, subject: str) -> list[int]:
        """The subject's versions, ascending."""
        _check_subject(subject)
        self._check_open()
        what = f"versions of subject {subject!r}"
        if self._dir is not None:
            found = sorted(
                e.version for e in self._file_entries() if e.subject == subject and e.version
            )
            if not found:
                raise SchemaNotFoundError(f"{what}: no meta file in {self._dir} names the subject")
            return found
        answer = self._request("GET", f"/subjects/{_quote(subject)}/versions", what)
        if not isinstance(answer, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in answer
        ):
            raise RegistryError(f"{what}: the answer is not a list of ints: {_snippet(answer)}")
        return sorted(answer)

    def lookup(self, subject: str, schema: Schema) -> Schema:
        """This schema text's registration under the subject: its id, version and GUID."""
        _check_subject(subject)
        body = _schema_body(schema)
        key = (subject, _bare(schema))
        with self._lock:
            cached = self._lookups.get(key)
        if cached is not None:
            return cached
        self._check_open()
        what = f"lookup of a {schema.schema_type} schema in subject {subject!r}"
        if self._dir is not None:
            found = self._file_lookup(subject, schema)
            if found is None:
                raise SchemaNotFoundError(
                    f"{what}: no such schema under the subject in {self._dir}"
                )
        else:
            answer = self._request("POST", f"/subjects/{_quote(subject)}", what, body=body)
            if isinstance(answer, dict) and "schema" not in answer:
                answer = {**answer, "schema": schema.schema_str}
            found = _schema_from(answer, what, subject=subject)
            if found.schema_id is None:
                raise RegistryError(f"{what}: the answer has no schema 'id'")
        with self._lock:
            self._lookups[key] = found
        self._remember(found, None)
        return found

    def register(self, subject: str, schema: Schema) -> Schema:
        """Registers the schema under the subject (the registry dedupes an identical one) and
        returns it with its id (and GUID, and version, when the registry gives them)."""
        _check_subject(subject)
        body = _schema_body(schema)
        self._check_open()
        what = f"register of a {schema.schema_type} schema in subject {subject!r}"
        if self._dir is not None:
            registered = self._file_register(subject, schema)
        else:
            answer = self._request("POST", f"/subjects/{_quote(subject)}/versions", what, body=body)
            if not isinstance(answer, dict):
                raise RegistryError(f"{what}: the answer is not a JSON object: {_snippet(answer)}")
            try:
                schema_id = _check_id(answer.get("id"))
            except ValueError:
                raise RegistryError(f"{what}: the answer has no schema 'id': {answer}") from None
            guid = answer.get("guid")
            try:
                guid = _canonical_guid(guid) if guid is not None else None
            except ValueError:
                raise RegistryError(f"{what}: 'guid' is not a uuid: {guid!r}") from None
            version = answer.get("version")
            if isinstance(version, bool) or not isinstance(version, int):
                version = None
            registered = dataclasses.replace(
                _bare(schema), schema_id=schema_id, guid=guid, subject=subject, version=version
            )
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
        if self._dir is not None:
            return f"SchemaRegistryClient({str(self._dir)!r})"
        auth = f", auth={self._auth_kind}" if self._auth_kind else ""
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

    def _headers(self, with_body: bool) -> dict[str, str]:
        headers = {"Accept": _ACCEPT, "User-Agent": "kafkawire", **self._extra_headers}
        if with_body:
            headers["Content-Type"] = _CONTENT_TYPE
        if self._basic is not None:
            headers["Authorization"] = f"Basic {self._basic}"
        elif self._bearer is not None:
            if callable(self._bearer):
                try:
                    token = self._bearer()
                except Exception as e:
                    raise RegistryError(
                        f"the bearer_token callable raised {type(e).__name__}: {e}"
                    ) from e
            else:
                token = self._bearer
            if not isinstance(token, str) or not token or "\n" in token or "\r" in token:
                raise RegistryError("the bearer token is not a non-empty one-line str")
            headers["Authorization"] = f"Bearer {token}"
        return headers

    def _request(
        self,
        method: str,
        path: str,
        what: str,
        *,
        query: Mapping[str, str] | None = None,
        body: Any = None,
    ) -> Any:
        """The JSON answer to one request, failing over between urls and retrying."""
        if query:
            path += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if body is not None else None
        last_cause = "no attempt"
        last_status: int | None = None
        last_code: int | None = None
        dead: set[str] = set()  # urls whose TLS certificate did not verify: no retries
        attempts = 0
        for attempt in range(self._retries + 1):
            if attempt:
                _sleep(min(self._retry_backoff * 2 ** (attempt - 1), self._retry_backoff_max))
            for base in self._urls:
                if base in dead:
                    continue
                attempts += 1
                headers = self._headers(data is not None)
                try:
                    status, payload = self._send(base, method, path, headers, data)
                except ssl.SSLCertVerificationError as e:
                    dead.add(base)
                    reason = e.verify_message or str(e)
                    last_cause = f"{base}: TLS certificate verification failed ({reason})"
                    last_status = last_code = None
                    continue
                except (OSError, http.client.HTTPException) as e:
                    last_cause = f"{base}: {_describe(e)}"
                    last_status = last_code = None
                    continue
                if status in _RETRIABLE_STATUS:
                    last_status = status
                    last_code, message = _error_fields(payload)
                    last_cause = f"{base}: HTTP {status}" + (f" ({message})" if message else "")
                    continue
                return _answer(status, payload, what, base)
            if len(dead) == len(self._urls):
                break
        tried = ", ".join(self._urls)
        raise RegistryUnavailableError(
            f"{what}: schema registry unavailable ({tried}) after {attempts} attempt"
            f"{'s' if attempts != 1 else ''}; last: {last_cause}",
            status=last_status,
            code=last_code,
        )

    def _send(
        self, base: str, method: str, path: str, headers: dict[str, str], data: bytes | None
    ) -> tuple[int, bytes]:
        scheme, hostport, prefix = self._targets[base]
        conn: http.client.HTTPConnection
        if scheme == "https":
            conn = http.client.HTTPSConnection(
                hostport, timeout=self._timeout, context=self._context
            )
        else:
            conn = http.client.HTTPConnection(hostport, timeout=self._timeout)
        try:
            conn.request(method, prefix + path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    # -- the file registry ----------------------------------------------------------------

    def _file_schema(self, schema_id: int) -> Schema:
        assert self._dir is not None
        found = [
            (kind, self._dir / f"{schema_id}.{ext}")
            for kind, ext in _FILE_EXTENSIONS.items()
            if (self._dir / f"{schema_id}.{ext}").is_file()
        ]
        if not found:
            names = ", ".join(f"{schema_id}.{ext}" for ext in _FILE_EXTENSIONS.values())
            raise SchemaNotFoundError(f"schema id {schema_id} not found: no {names} in {self._dir}")
        if len(found) > 1:
            raise RegistryError(
                f"schema id {schema_id} is ambiguous in {self._dir}: "
                + ", ".join(p.name for _, p in found)
            )
        kind, path = found[0]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RegistryError(f"schema id {schema_id}: cannot read {path}: {e}") from e
        meta = self._file_meta(schema_id)
        answer = {**meta, "schema": text, "schemaType": kind, "id": schema_id}
        return _schema_from(answer, f"schema id {schema_id} ({path})")

    def _file_meta(self, schema_id: int) -> dict[str, Any]:
        assert self._dir is not None
        path = self._dir / f"{schema_id}.meta.json"
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

    def _file_entries(self) -> list[Schema]:
        """The id, subject, version and GUID of every schema with a meta file (no text)."""
        assert self._dir is not None
        entries = []
        for path in sorted(self._dir.iterdir()):
            match = _META_FILE.match(path.name)
            if match is None:
                continue
            schema_id = int(match.group(1))
            meta = self._file_meta(schema_id)
            entries.append(_schema_from({**meta, "schema": ""}, str(path), schema_id=schema_id))
        return entries

    def _file_lookup(self, subject: str, schema: Schema) -> Schema | None:
        want = _bare(schema)
        for entry in sorted(self._file_entries(), key=lambda e: e.version or 0):
            if entry.subject != subject:
                continue
            have = self._file_schema(entry.schema_id)  # type: ignore[arg-type]
            if _same_schema(_bare(have), want):
                return have
        return None

    def _file_register(self, subject: str, schema: Schema) -> Schema:
        assert self._dir is not None
        kind = schema.schema_type.upper()
        if kind not in _FILE_EXTENSIONS:
            raise ValueError(f"schema_type is one of {SCHEMA_TYPES}, not {schema.schema_type!r}")
        with self._write_lock:  # one writer per client; O_EXCL guards other processes
            existing = self._file_lookup(subject, schema)
            if existing is not None:
                return existing
            versions = [e.version or 0 for e in self._file_entries() if e.subject == subject]
            version = max(versions, default=0) + 1
            ids = [
                int(m.group(1))
                for p in self._dir.iterdir()
                if (m := _SCHEMA_FILE.match(p.name) or _META_FILE.match(p.name))
            ]
            schema_id = max(ids, default=0) + 1
            while True:
                path = self._dir / f"{schema_id}.{_FILE_EXTENSIONS[kind]}"
                try:
                    with open(path, "x", encoding="utf-8") as f:
                        f.write(schema.schema_str)
                    break
                except FileExistsError:
                    schema_id += 1
            guid = str(uuid.uuid4())
            meta: dict[str, Any] = {"subject": subject, "version": version, "guid": guid}
            if schema.references:
                meta["references"] = _schema_body(schema)["references"]
            meta_path = self._dir / f"{schema_id}.meta.json"
            tmp = meta_path.with_name(meta_path.name + ".tmp")
            tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
            os.replace(tmp, meta_path)
        return dataclasses.replace(
            _bare(schema),
            schema_type=kind,
            schema_id=schema_id,
            guid=guid,
            subject=subject,
            version=version,
        )


def _bare(schema: Schema) -> Schema:
    """The schema's text, type and references alone (what a registration is keyed by)."""
    return Schema(schema.schema_str, schema.schema_type.upper(), schema.references)


def _same_schema(a: Schema, b: Schema) -> bool:
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


def _quote(subject: str) -> str:
    return urllib.parse.quote(subject, safe="")


def _describe(error: BaseException) -> str:
    if isinstance(error, TimeoutError) and str(error) in ("", "timed out"):
        return "timed out"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _error_fields(payload: bytes) -> tuple[int | None, str | None]:
    """The registry's error_code and message, from a JSON error answer."""
    try:
        answer = json.loads(payload)
    except ValueError:
        text = payload.decode("utf-8", "replace").strip()
        return None, _snippet(text, 200) if text else None
    if not isinstance(answer, dict):
        return None, _snippet(answer)
    code = answer.get("error_code")
    message = answer.get("message")
    code = code if isinstance(code, int) and not isinstance(code, bool) else None
    return code, str(message) if message is not None else None


def _answer(status: int, payload: bytes, what: str, base: str) -> Any:
    if 200 <= status < 300:
        if not payload.strip():
            raise RegistryError(
                f"{what}: schema registry {base} answered with no body", status=status
            )
        try:
            return json.loads(payload)
        except ValueError:
            raise RegistryError(
                f"{what}: schema registry {base} answered with non-JSON: {_snippet(payload)}",
                status=status,
            ) from None
    code, message = _error_fields(payload)
    detail = f" ({code}: {message})" if code is not None else (f" ({message})" if message else "")
    if status == 404:
        raise SchemaNotFoundError(
            f"{what} not found in schema registry {base}{detail}", status=status, code=code
        )
    raise RegistryError(
        f"{what}: schema registry {base} answered HTTP {status}{detail}", status=status, code=code
    )
