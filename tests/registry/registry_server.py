"""A small in-memory Confluent-compatible Schema Registry for the tests, on
http.server.ThreadingHTTPServer (127.0.0.1, an ephemeral port kept across stop()/start()).

It implements what kafkawire's SchemaRegistryClient and confluent-kafka's own
SchemaRegistryClient (with its Avro / Protobuf / JSON Schema serializers and deserializers)
call: registering (POST /subjects/{s}/versions) and looking up (POST /subjects/{s}) schemas,
schemas by id and by GUID, subjects and their versions, /config, /mode, /schemas/types.
Ids are assigned from 1 up and shared by identical (schema, type, references) registrations,
as the real registry does; each id has a uuid4 GUID. Toggles: ``basic_auth`` /
``bearer_token`` (required credentials), ``fail_next(n, status)`` (n error answers), and a
``requests`` log of (method, path, headers).
"""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import ssl
import threading
import urllib.parse
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

JSON_TYPE = "application/vnd.schemaregistry.v1+json"


@dataclass
class Registered:
    schema_id: int
    guid: str
    schema: str
    schema_type: str
    references: list[dict[str, Any]]

    def body(self) -> dict[str, Any]:
        """The schema's fields as the registry answers them (schemaType and references
        omitted for AVRO and when empty, as Confluent's registry does)."""
        out: dict[str, Any] = {"schema": self.schema}
        if self.schema_type != "AVRO":
            out["schemaType"] = self.schema_type
        if self.references:
            out["references"] = self.references
        return out


@dataclass
class RequestLog:
    method: str
    path: str
    headers: dict[str, str]


class _Error(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class RegistryServer:
    """The registry's state (kept across stop()/start()) and its HTTP server."""

    tls: ssl.SSLContext | None = None
    port: int = 0
    ca_file: str | None = None  # the TLS variant's CA certificate (PEM), for clients
    basic_auth: tuple[str, str] | None = None
    bearer_token: str | None = None
    requests: list[RequestLog] = field(default_factory=list)
    schemas: list[Registered] = field(default_factory=list)  # by id - 1
    subjects: dict[str, list[int]] = field(default_factory=dict)  # version v -> ids[v - 1]
    _fail: list[int | tuple[int, bytes]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._httpd is not None

    def start(self) -> RegistryServer:
        if self._httpd is not None:
            return self
        httpd = _Server(("127.0.0.1", self.port), _Handler)
        httpd.registry = self
        self.port = httpd.server_address[1]
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
            httpd.close_connections()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def reset(self) -> None:
        """Back to an open registry that answers (the schemas stay), with an empty log."""
        self.basic_auth = None
        self.bearer_token = None
        with self._lock:
            self._fail.clear()
            self.requests.clear()
        self.start()

    def fail_next(self, count: int, status: int = 503) -> None:
        """The next ``count`` requests get an HTTP ``status`` error answer."""
        with self._lock:
            self._fail.extend([status] * count)

    def answer_next(self, status: int, payload: bytes) -> None:
        """The next request gets this raw answer (a Content-Type of text/plain)."""
        with self._lock:
            self._fail.append((status, payload))

    def paths(self, method: str | None = None) -> list[str]:
        return [r.path for r in self.requests if method is None or r.method == method]

    # -- the registry's logic -------------------------------------------------------------

    def register(self, subject: str, body: dict[str, Any]) -> tuple[Registered, int]:
        schema, kind, refs = self._parse(body)
        with self._lock:
            for ref in refs:
                self._version(ref["subject"], ref["version"], code=42201, status=422)
            found = self._find(schema, kind, refs)
            if found is None:
                found = Registered(len(self.schemas) + 1, str(uuid.uuid4()), schema, kind, refs)
                self.schemas.append(found)
            versions = self.subjects.setdefault(subject, [])
            if found.schema_id not in versions:
                versions.append(found.schema_id)
            return found, versions.index(found.schema_id) + 1

    def lookup(self, subject: str, body: dict[str, Any]) -> tuple[Registered, int]:
        schema, kind, refs = self._parse(body)
        with self._lock:
            if subject not in self.subjects:
                raise _Error(404, 40401, f"Subject '{subject}' not found.")
            found = self._find(schema, kind, refs)
            if found is None or found.schema_id not in self.subjects[subject]:
                raise _Error(404, 40403, "Schema not found")
            return found, self.subjects[subject].index(found.schema_id) + 1

    def by_id(self, schema_id: int) -> Registered:
        if not 1 <= schema_id <= len(self.schemas):
            raise _Error(404, 40403, f"Schema {schema_id} not found")
        return self.schemas[schema_id - 1]

    def by_guid(self, guid: str) -> Registered:
        for registered in self.schemas:
            if registered.guid == guid:
                return registered
        raise _Error(404, 40403, f"Schema {guid} not found")

    def version(self, subject: str, version: str) -> tuple[Registered, int]:
        with self._lock:
            return self._version(subject, version)

    def _version(
        self, subject: str, version: str | int, *, code: int = 40402, status: int = 404
    ) -> tuple[Registered, int]:
        if subject not in self.subjects:
            raise _Error(
                status, 40401 if status == 404 else code, f"Subject '{subject}' not found."
            )
        versions = self.subjects[subject]
        if version in ("latest", "-1", -1):
            number = len(versions)
        else:
            try:
                number = int(version)
            except ValueError:
                raise _Error(422, 42202, f"bad version {version!r}") from None
        if not 1 <= number <= len(versions):
            raise _Error(status, code, f"Version {version} not found.")
        return self.schemas[versions[number - 1] - 1], number

    def _find(self, schema: str, kind: str, refs: list[dict[str, Any]]) -> Registered | None:
        for registered in self.schemas:
            if (registered.schema, registered.schema_type, registered.references) == (
                schema,
                kind,
                refs,
            ):
                return registered
        return None

    @staticmethod
    def _parse(body: object) -> tuple[str, str, list[dict[str, Any]]]:
        if not isinstance(body, dict) or not isinstance(body.get("schema"), str):
            raise _Error(422, 42201, "Invalid schema: no 'schema' string")
        kind = body.get("schemaType") or "AVRO"
        if kind not in ("AVRO", "PROTOBUF", "JSON"):
            raise _Error(422, 42201, f"Invalid schema type {kind}")
        if kind in ("AVRO", "JSON"):
            try:
                json.loads(body["schema"])
            except ValueError:
                raise _Error(422, 42201, "Invalid schema: not JSON") from None
        refs = []
        for ref in body.get("references") or []:
            if not isinstance(ref, dict) or set(ref) - {"name", "subject", "version"}:
                raise _Error(422, 42201, f"Invalid reference {ref!r}")
            refs.append({"name": ref["name"], "subject": ref["subject"], "version": ref["version"]})
        return body["schema"], kind, refs


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    registry: RegistryServer

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.open_sockets: set[Any] = set()
        self.sockets_lock = threading.Lock()

    def process_request(self, request, client_address) -> None:
        with self.sockets_lock:
            self.open_sockets.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        with self.sockets_lock:
            self.open_sockets.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """Hangs up on kept-alive clients too, as a registry going down does."""
        with self.sockets_lock:
            sockets = list(self.open_sockets)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def get_request(self):
        sock, addr = super().get_request()
        if self.registry.tls is not None:  # the handshake happens in the request's thread
            sock = self.registry.tls.wrap_socket(
                sock, server_side=True, do_handshake_on_connect=False
            )
        return sock, addr

    def handle_error(self, request, client_address) -> None:
        pass  # failed TLS handshakes and clients that hang up: the client reports them


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 10  # an idle kept-alive connection
    server: _Server

    def setup(self) -> None:
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(5)
            self.request.do_handshake()
        super().setup()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def _handle(self, method: str) -> None:
        registry = self.server.registry
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        with registry._lock:
            registry.requests.append(RequestLog(method, self.path, dict(self.headers.items())))
            fail = registry._fail.pop(0) if registry._fail else None
        if isinstance(fail, tuple):
            self._reply(fail[0], None, raw=fail[1])
            return
        try:
            if fail is not None:
                raise _Error(fail, fail * 100 + 1, "injected failure")
            self._authorize(registry)
            body = None
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    raise _Error(400, 400, "the body is not JSON") from None
            parts = urllib.parse.urlsplit(self.path)
            segments = [urllib.parse.unquote(s) for s in parts.path.strip("/").split("/")]
            query = dict(urllib.parse.parse_qsl(parts.query))
            status, answer = self._route(registry, method, segments, query, body)
        except _Error as e:
            status, answer = e.status, {"error_code": e.code, "message": e.message}
        self._reply(status, answer)

    def _authorize(self, registry: RegistryServer) -> None:
        got = self.headers.get("Authorization", "")
        if registry.basic_auth is not None:
            user, password = registry.basic_auth
            want = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
            if got != want:
                raise _Error(401, 40101, "Unauthorized")
        if registry.bearer_token is not None and got != f"Bearer {registry.bearer_token}":
            raise _Error(401, 40101, "Unauthorized")

    def _route(
        self,
        registry: RegistryServer,
        method: str,
        seg: list[str],
        query: dict[str, str],
        body: Any,
    ) -> tuple[int, Any]:
        n = len(seg)
        if seg[0] == "schemas":
            if method == "GET" and seg[1:] == ["types"]:
                return 200, ["JSON", "PROTOBUF", "AVRO"]
            if method == "GET" and n >= 3 and seg[1] == "ids":
                try:
                    schema_id = int(seg[2])
                except ValueError:
                    raise _Error(404, 40403, f"Schema {seg[2]} not found") from None
                registered = registry.by_id(schema_id)
                if n == 3:
                    return 200, {**registered.body(), "guid": registered.guid}
                if seg[3:] == ["schema"]:
                    return 200, json.loads(registered.schema) if registered.schema_type != (
                        "PROTOBUF"
                    ) else registered.schema
                if seg[3:] in (["versions"], ["subjects"]):
                    pairs = [
                        (s, v + 1)
                        for s, ids in registry.subjects.items()
                        for v, i in enumerate(ids)
                        if i == schema_id
                    ]
                    if seg[3] == "subjects":
                        return 200, sorted({s for s, _ in pairs})
                    return 200, [{"subject": s, "version": v} for s, v in pairs]
            if method == "GET" and n == 3 and seg[1] == "guids":
                registered = registry.by_guid(seg[2])
                return 200, {**registered.body(), "id": registered.schema_id, "guid": seg[2]}
        elif seg[0] == "subjects":
            if n == 1 and method == "GET":
                return 200, sorted(registry.subjects)
            subject = seg[1] if n > 1 else ""
            if n == 2 and method == "POST":
                registered, version = registry.lookup(subject, body)
                return 200, {
                    "subject": subject,
                    "version": version,
                    "id": registered.schema_id,
                    "guid": registered.guid,
                    **registered.body(),
                }
            if n == 2 and method == "DELETE":
                with registry._lock:
                    if subject not in registry.subjects:
                        raise _Error(404, 40401, f"Subject '{subject}' not found.")
                    ids = registry.subjects.pop(subject)
                return 200, list(range(1, len(ids) + 1))
            if n == 3 and seg[2] == "versions":
                if method == "POST":
                    registered, _ = registry.register(subject, body)
                    return 200, {"id": registered.schema_id, "guid": registered.guid}
                if method == "GET":
                    if subject not in registry.subjects:
                        raise _Error(404, 40401, f"Subject '{subject}' not found.")
                    return 200, list(range(1, len(registry.subjects[subject]) + 1))
            if n >= 4 and seg[2] == "versions" and method == "GET":
                registered, version = registry.version(subject, seg[3])
                if n == 4:
                    return 200, {
                        "subject": subject,
                        "version": version,
                        "id": registered.schema_id,
                        "guid": registered.guid,
                        **registered.body(),
                    }
                if seg[4:] == ["referencedby"]:
                    ref = {"subject": subject, "version": version}
                    return 200, [
                        r.schema_id
                        for r in registry.schemas
                        if any(
                            {k: x[k] for k in ("subject", "version")} == ref for x in r.references
                        )
                    ]
        elif seg[0] == "config":
            if method == "GET":
                return 200, {"compatibilityLevel": "BACKWARD"}
            if method == "PUT" and isinstance(body, dict):
                return 200, body
        elif seg[0] == "associations" and seg[1:2] == ["resources"] and method == "GET":
            return 200, []  # confluent-kafka >= 2.13 asks for a topic's associated subject
        elif seg[0] == "mode" and method == "GET":
            return 200, {"mode": "READWRITE"}
        elif seg == [""] and method == "GET":
            return 200, {}
        raise _Error(404, 404, f"HTTP 404 Not Found: {method} {self.path}")

    def _reply(self, status: int, answer: Any, raw: bytes | None = None) -> None:
        payload = json.dumps(answer).encode() if raw is None else raw
        self.send_response(status)
        self.send_header("Content-Type", JSON_TYPE if raw is None else "text/plain")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(payload)


def start_registry(tls: ssl.SSLContext | None = None) -> RegistryServer:
    return RegistryServer(tls=tls).start()
