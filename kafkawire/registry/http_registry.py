"""A Confluent Schema Registry reached over HTTP(S) with the standard library
(``http.client`` with an :class:`ssl.SSLContext`): its urls (tried in order), credentials
(HTTP Basic or a bearer token), TLS, retries with an exponential backoff, and its REST API's
requests and answers. :class:`~kafkawire.registry.client.SchemaRegistryClient` caches what
it gives (see that module's docstring for the behaviour)."""

from __future__ import annotations

import base64
import dataclasses
import http.client
import json
import os
import ssl
import time
import urllib.parse
from collections.abc import Mapping
from typing import Any

from kafkawire.registry.errors import RegistryError, RegistryUnavailableError, SchemaNotFoundError
from kafkawire.registry.schema import (
    Schema,
    bare,
    canonical_guid,
    check_id,
    schema_body,
    schema_from,
    snippet,
)

_ACCEPT = "application/vnd.schemaregistry.v1+json, application/json"
_CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"
_RETRIABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})

_sleep = time.sleep  # the retry backoff's sleep (tests count the retries through it)


def user_pass(basic_auth: str | tuple[str, str]) -> tuple[str, str]:
    if isinstance(basic_auth, tuple):
        if len(basic_auth) != 2 or not all(isinstance(p, str) for p in basic_auth):
            raise ValueError("basic_auth is 'user:password' or a (user, password) pair of str")
        return basic_auth
    if not isinstance(basic_auth, str) or ":" not in basic_auth:
        raise ValueError("basic_auth is 'user:password' or a (user, password) pair of str")
    user, _, password = basic_auth.partition(":")
    return user, password


class HttpRegistry:
    """One or more registry urls with their credentials and TLS settings."""

    def __init__(self, url: str, given: dict[str, Any], context: ssl.SSLContext | None) -> None:
        """``given``: the client's keyword arguments, checked (timeout, retries...)."""
        self.timeout = float(given["timeout"])
        self.retries = given["retries"]
        self.retry_backoff = float(given["retry_backoff"])
        self.retry_backoff_max = float(given["retry_backoff_max"])
        self.urls: list[str] = []
        self.auth_kind: str | None = None
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
            self.urls.append(clean)
            # http.client takes "host:port" (IPv6 hosts in brackets) and splits it itself
            self._targets[clean] = (scheme, hostport, parts.path.rstrip("/"))
        if not self.urls:
            raise ValueError("no schema registry url given")

        basic_auth, bearer = given["basic_auth"], given["bearer_token"]
        if basic_auth is not None and userinfo is not None and user_pass(basic_auth) != userinfo:
            raise ValueError("credentials both in the url and in basic_auth")
        if basic_auth is None and userinfo is not None:
            basic_auth = userinfo
        if basic_auth is not None and bearer is not None:
            raise ValueError("basic_auth and bearer_token exclude each other")
        self._basic: str | None = None
        if basic_auth is not None:
            user, password = user_pass(basic_auth)
            self._basic = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            self.auth_kind = "basic"
        if bearer is not None:
            if not (callable(bearer) or (isinstance(bearer, str) and bearer)):
                raise ValueError("bearer_token is a non-empty str or a callable returning one")
            self.auth_kind = "bearer"
        self._bearer = bearer
        extra = dict(given["headers"] or {})
        for name, value in extra.items():
            if not isinstance(name, str) or not isinstance(value, str) or "\n" in name + value:
                raise ValueError(f"bad extra header {name!r}")
        self._extra_headers = extra

        files = (given["ssl_cafile"], given["ssl_certfile"], given["ssl_keyfile"])
        if context is not None and any(f is not None for f in files):
            raise ValueError("ssl_context excludes ssl_cafile, ssl_certfile and ssl_keyfile")
        if context is None and any(u.startswith("https:") for u in self.urls):
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

    @property
    def url(self) -> str:
        return ",".join(self.urls)

    # -- the registry's REST API ------------------------------------------------------------

    def schema_by_id(self, schema_id: int, subject: str | None) -> Schema:
        what = f"schema id {schema_id}"
        query = {"subject": subject} if subject is not None else None
        answer = self.request("GET", f"/schemas/ids/{schema_id}", what, query=query)
        schema = schema_from(answer, what, schema_id=schema_id)
        return dataclasses.replace(schema, schema_id=schema_id)

    def schema_by_guid(self, guid: str) -> Schema:
        what = f"schema guid {guid}"
        return schema_from(self.request("GET", f"/schemas/guids/{guid}", what), what)

    def latest_version(self, subject: str) -> Schema:
        what = f"latest version of subject {subject!r}"
        answer = self.request("GET", f"/subjects/{_quote(subject)}/versions/latest", what)
        schema = schema_from(answer, what, subject=subject)
        if schema.schema_id is None:
            raise RegistryError(f"{what}: the answer has no schema 'id'")
        return schema

    def version(self, subject: str, version: int) -> Schema:
        what = f"subject {subject!r} version {version}"
        path = f"/subjects/{_quote(subject)}/versions/{version}"
        schema = schema_from(self.request("GET", path, what), what, subject=subject)
        if schema.schema_id is None:
            raise RegistryError(f"{what}: the answer has no schema 'id'")
        return dataclasses.replace(schema, version=version)

    def subjects(self) -> list[str]:
        answer = self.request("GET", "/subjects", "subjects")
        if not isinstance(answer, list) or not all(isinstance(s, str) for s in answer):
            raise RegistryError(f"subjects: the answer is not a list of strings: {snippet(answer)}")
        return sorted(answer)

    def versions(self, subject: str) -> list[int]:
        what = f"versions of subject {subject!r}"
        answer = self.request("GET", f"/subjects/{_quote(subject)}/versions", what)
        if not isinstance(answer, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in answer
        ):
            raise RegistryError(f"{what}: the answer is not a list of ints: {snippet(answer)}")
        return sorted(answer)

    def lookup(self, subject: str, schema: Schema) -> Schema:
        what = f"lookup of a {schema.schema_type} schema in subject {subject!r}"
        body = schema_body(schema)
        answer = self.request("POST", f"/subjects/{_quote(subject)}", what, body=body)
        if isinstance(answer, dict) and "schema" not in answer:
            answer = {**answer, "schema": schema.schema_str}
        found = schema_from(answer, what, subject=subject)
        if found.schema_id is None:
            raise RegistryError(f"{what}: the answer has no schema 'id'")
        return found

    def register(self, subject: str, schema: Schema) -> Schema:
        what = f"register of a {schema.schema_type} schema in subject {subject!r}"
        body = schema_body(schema)
        answer = self.request("POST", f"/subjects/{_quote(subject)}/versions", what, body=body)
        if not isinstance(answer, dict):
            raise RegistryError(f"{what}: the answer is not a JSON object: {snippet(answer)}")
        try:
            schema_id = check_id(answer.get("id"))
        except ValueError:
            raise RegistryError(f"{what}: the answer has no schema 'id': {answer}") from None
        guid = answer.get("guid")
        try:
            guid = canonical_guid(guid) if guid is not None else None
        except ValueError:
            raise RegistryError(f"{what}: 'guid' is not a uuid: {guid!r}") from None
        version = answer.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            version = None
        return dataclasses.replace(
            bare(schema), schema_id=schema_id, guid=guid, subject=subject, version=version
        )

    # -- requests ---------------------------------------------------------------------------

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

    def request(
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
        for attempt in range(self.retries + 1):
            if attempt:
                _sleep(min(self.retry_backoff * 2 ** (attempt - 1), self.retry_backoff_max))
            for base in self.urls:
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
            if len(dead) == len(self.urls):
                break
        tried = ", ".join(self.urls)
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
                hostport, timeout=self.timeout, context=self._context
            )
        else:
            conn = http.client.HTTPConnection(hostport, timeout=self.timeout)
        try:
            conn.request(method, prefix + path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()


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
        return None, snippet(text, 200) if text else None
    if not isinstance(answer, dict):
        return None, snippet(answer)
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
                f"{what}: schema registry {base} answered with non-JSON: {snippet(payload)}",
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
