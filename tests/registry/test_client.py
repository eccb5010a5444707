"""kafkawire.registry.client against the in-memory registry of registry_server.py (which
confluent-kafka's own registry client and serializers also talk to) and file registries."""

from __future__ import annotations

import json
import ssl
import struct
import threading
import time
import uuid
from pathlib import Path

import pytest

from kafkawire.registry import http_registry
from kafkawire.registry.client import Reference, Schema, SchemaRegistryClient
from kafkawire.registry.errors import (
    RegistryError,
    RegistryUnavailableError,
    SchemaNotFoundError,
)
from tests.registry.registry_server import start_registry
from tests.support.broker import free_port

USER = {
    "type": "record",
    "name": "User",
    "namespace": "com.kw",
    "fields": [{"name": "name", "type": "string"}, {"name": "age", "type": "int"}],
}
ADDRESS = {
    "type": "record",
    "name": "Address",
    "namespace": "com.kw",
    "fields": [{"name": "street", "type": "string"}, {"name": "country", "type": "com.kw.Country"}],
}
COUNTRY = {"type": "enum", "name": "Country", "namespace": "com.kw", "symbols": ["NL", "DE"]}
PERSON = {
    "type": "record",
    "name": "Person",
    "namespace": "com.kw",
    "fields": [{"name": "name", "type": "string"}, {"name": "home", "type": "com.kw.Address"}],
}


def avro(obj: dict) -> Schema:
    return Schema(json.dumps(obj))


def fast(registry, **kw) -> SchemaRegistryClient:
    """A client that retries quickly."""
    kw.setdefault("retry_backoff", 0.001)
    kw.setdefault("timeout", 5.0)
    return SchemaRegistryClient(registry.url, **kw)


# -- round trips ----------------------------------------------------------------------------


def test_register_then_read_back_every_way(registry, subject):
    client = fast(registry)
    registered = client.register(subject, avro(USER))
    assert registered.schema_id is not None and registered.schema_id >= 1
    assert registered.subject == subject
    assert str(uuid.UUID(registered.guid)) == registered.guid
    assert registered.schema_type == "AVRO"

    fresh = fast(registry)  # nothing cached
    by_id = fresh.schema_by_id(registered.schema_id)
    assert json.loads(by_id.schema_str) == USER
    assert (by_id.schema_type, by_id.references, by_id.guid) == ("AVRO", (), registered.guid)
    assert registry.paths("GET")[-1] == f"/schemas/ids/{registered.schema_id}"

    for guid in (registered.guid, uuid.UUID(registered.guid), uuid.UUID(registered.guid).bytes):
        by_guid = fast(registry).schema_by_guid(guid)
        assert (by_guid.schema_str, by_guid.guid) == (by_id.schema_str, registered.guid)
    assert by_guid.schema_id == registered.schema_id

    latest = fresh.latest_version(subject)
    assert (latest.schema_id, latest.version, latest.subject) == (registered.schema_id, 1, subject)
    v1 = fresh.version(subject, 1)
    assert (v1.schema_id, v1.version, v1.guid) == (registered.schema_id, 1, registered.guid)

    looked = fresh.lookup(subject, avro(USER))
    assert (looked.schema_id, looked.version, looked.guid) == (
        registered.schema_id,
        1,
        registered.guid,
    )
    assert subject in fresh.subjects()
    assert fresh.versions(subject) == [1]


def test_register_dedupes_and_versions_grow(registry, subject):
    client = fast(registry)
    first = client.register(subject, avro(USER))
    assert client.register(subject, avro(USER)).schema_id == first.schema_id
    assert client.versions(subject) == [1]
    user2 = {**USER, "fields": [*USER["fields"], {"name": "x", "type": "int", "default": 0}]}
    second = client.register(subject, avro(user2))
    assert second.schema_id == first.schema_id + 1 or second.schema_id > first.schema_id
    assert client.versions(subject) == [1, 2]
    latest = client.latest_version(subject)  # register() dropped the cached latest
    assert (latest.schema_id, latest.version) == (second.schema_id, 2)
    assert client.version(subject, 1).schema_id == first.schema_id
    # the same schema under another subject: the same id, version 1 there
    other = client.register(subject + "-other", avro(user2))
    assert other.schema_id == second.schema_id
    assert client.lookup(subject + "-other", avro(user2)).version == 1


def test_json_and_protobuf_schema_types(registry, subject):
    client = fast(registry)
    js = Schema(json.dumps({"type": "object", "properties": {"x": {"type": "integer"}}}), "JSON")
    proto = Schema('syntax = "proto3";\nmessage M { int64 x = 1; }\n', "PROTOBUF")
    got_js = client.register(subject, js)
    got_proto = client.register(subject + "-p", proto)
    fresh = fast(registry)
    assert fresh.schema_by_id(got_js.schema_id).schema_type == "JSON"
    assert fresh.schema_by_id(got_proto.schema_id) == Schema(
        proto.schema_str, "PROTOBUF", (), got_proto.schema_id, got_proto.guid
    )
    # the registry leaves out schemaType for AVRO; a JSON schema keeps its type on lookup
    assert fresh.lookup(subject, js).schema_type == "JSON"


def test_subjects_are_url_quoted(registry, subject):
    client = fast(registry)
    odd = f"a/b c?d#e%{subject}"
    registered = client.register(odd, avro(USER))
    assert fast(registry).latest_version(odd).schema_id == registered.schema_id
    assert fast(registry).version(odd, 1).subject == odd
    assert odd in client.subjects()
    assert f"/subjects/a%2Fb%20c%3Fd%23e%25{subject}/versions" in registry.paths("POST")


def test_not_found_errors_name_what_was_asked(registry, subject):
    client = fast(registry)
    with pytest.raises(SchemaNotFoundError, match="schema id 999999") as e:
        client.schema_by_id(999999)
    assert (e.value.status, e.value.code) == (404, 40403)
    guid = uuid.uuid4()
    with pytest.raises(SchemaNotFoundError, match=f"schema guid {guid}"):
        client.schema_by_guid(guid)
    with pytest.raises(SchemaNotFoundError, match=f"latest version of subject '{subject}'") as e:
        client.latest_version(subject)
    assert e.value.code == 40401
    client.register(subject, avro(USER))
    with pytest.raises(SchemaNotFoundError, match=f"subject '{subject}' version 7") as e:
        client.version(subject, 7)
    assert e.value.code == 40402
    with pytest.raises(SchemaNotFoundError, match="lookup") as e:
        client.lookup(subject, avro(COUNTRY))
    assert e.value.code == 40403
    with pytest.raises(SchemaNotFoundError, match="versions of subject"):
        client.versions(subject + "-nothing")


def test_other_client_errors_are_registry_errors(registry, subject):
    client = fast(registry)
    with pytest.raises(RegistryError, match="HTTP 422") as e:
        client.register(subject, Schema("{not json"))
    assert type(e.value) is RegistryError
    assert (e.value.status, e.value.code) == (422, 42201)
    assert len(registry.paths()) == 1  # a 4xx is not retried


def test_bad_answers_are_rejected(registry, subject):
    client = fast(registry, retries=0)
    registry.answer_next(200, b"<html>surprise</html>")
    with pytest.raises(RegistryError, match=r"non-JSON.*surprise") as e:
        client.schema_by_id(1)
    assert e.value.status == 200
    registry.answer_next(200, b'{"schemaType": "AVRO"}')
    with pytest.raises(RegistryError, match="no 'schema'"):
        client.schema_by_id(1)
    registry.answer_next(200, b'{"schema": "{}", "guid": "not-a-uuid"}')
    with pytest.raises(RegistryError, match="'guid' is not a uuid"):
        client.schema_by_id(1)
    registry.answer_next(200, b'{"no": "id"}')
    with pytest.raises(RegistryError, match="no schema 'id'"):
        client.register(subject, avro(USER))
    registry.answer_next(200, b'["s", 1]')
    with pytest.raises(RegistryError, match="not a list of strings"):
        client.subjects()
    registry.answer_next(418, b"teapot")
    with pytest.raises(RegistryError, match="HTTP 418 \\(teapot\\)") as e:
        client.schema_by_id(1)
    assert (e.value.status, e.value.code) == (418, None)


def test_bad_arguments_are_rejected():
    client = SchemaRegistryClient("http://127.0.0.1:1")
    for bad in (-1, "1", 1.0, True, None):
        with pytest.raises(ValueError, match="non-negative int"):
            client.schema_by_id(bad)  # type: ignore[arg-type]
    for bad in ("nope", b"short", 12, "0123456789abcdef0123456789abcdeg"):
        with pytest.raises(ValueError, match="uuid"):
            client.schema_by_guid(bad)  # type: ignore[arg-type]
    for bad in (0, -1, "latest"):
        with pytest.raises(ValueError, match="positive int"):
            client.version("s", bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-empty str"):
        client.latest_version("")
    with pytest.raises(TypeError):
        client.register("s", {"schema": "{}"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-negative int"):
        Schema("{}", schema_id=-3)
    assert Schema("{}", guid=uuid.UUID(int=5).bytes).guid == str(uuid.UUID(int=5))
    assert Schema("{}", references=[Reference("a", "b", 1)]).references == (Reference("a", "b", 1),)
    for url in ("ftp://host/x", "kafka://h:9092", "http://", "http://h:99999999"):
        with pytest.raises(ValueError):
            SchemaRegistryClient(url)
    with pytest.raises(ValueError, match="not a directory"):
        SchemaRegistryClient("localhost:8081")
    with pytest.raises(ValueError, match="exclude each other"):
        SchemaRegistryClient("http://h:1", basic_auth="u:p", bearer_token="t")


def test_concurrent_reads_share_the_cache(registry, subject):
    registered = fast(registry).register(subject, avro(USER))
    client = fast(registry)
    registry.requests.clear()
    results, errors = [], []

    def read():
        try:
            results.append(client.schema_by_id(registered.schema_id))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=read) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len({r.schema_str for r in results}) == 1
    for _ in range(50):
        client.schema_by_id(registered.schema_id)
    assert 1 <= len(registry.paths()) <= 16


def test_latest_is_cached_for_its_ttl(registry, subject):
    writer = fast(registry)
    writer.register(subject, avro(USER))
    cached, uncached = fast(registry), fast(registry, latest_ttl=0)
    assert cached.latest_version(subject).version == uncached.latest_version(subject).version == 1
    user2 = {**USER, "fields": [*USER["fields"], {"name": "x", "type": "int", "default": 0}]}
    writer.register(subject, avro(user2))
    assert cached.latest_version(subject).version == 1  # within latest_ttl
    assert uncached.latest_version(subject).version == 2


# -- confluent-kafka against the same registry ----------------------------------------------


@pytest.fixture
def confluent(registry):
    """confluent-kafka's SchemaRegistryClient on the registry (closed after the test)."""
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient

    made = []

    def make():
        made.append(ConfluentClient({"url": registry.url}))
        return made[-1]

    yield make
    for client in made:
        client.close()


def test_confluent_avro_serializer_id_read_by_kafkawire(registry, subject, confluent):
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    topic = subject.removesuffix("-value")
    ctx = SerializationContext(topic, MessageField.VALUE)
    payload = AvroSerializer(confluent(), json.dumps(USER))({"name": "ann", "age": 7}, ctx)
    assert payload[0] == 0
    (schema_id,) = struct.unpack(">I", payload[1:5])

    schema = fast(registry).schema_by_id(schema_id)
    assert json.loads(schema.schema_str) == USER
    assert fast(registry).latest_version(f"{topic}-value").schema_id == schema_id
    # and confluent-kafka reads it back from the same registry
    assert AvroDeserializer(confluent())(payload, ctx) == {"name": "ann", "age": 7}


def test_confluent_guid_header_read_by_kafkawire(registry, subject, confluent):
    from confluent_kafka.schema_registry import header_schema_id_serializer
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    headers: list = []
    ctx = SerializationContext(subject.removesuffix("-value"), MessageField.VALUE, headers)
    serializer = AvroSerializer(
        confluent(),
        json.dumps(USER),
        conf={"schema.id.serializer": header_schema_id_serializer},
    )
    serializer({"name": "ann", "age": 7}, ctx)
    (name, value), *_ = headers
    assert name == "__value_schema_id" and value[0] == 1 and len(value) == 17
    schema = fast(registry).schema_by_guid(value[1:17])
    assert json.loads(schema.schema_str) == USER
    assert schema.guid == str(uuid.UUID(bytes=bytes(value[1:17])))


def test_confluent_reads_what_kafkawire_registered(registry, subject, confluent):
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    text = json.dumps({"type": "object", "properties": {"x": {"type": "integer"}}})
    registered = fast(registry).register(subject, Schema(text, "JSON"))
    ctx = SerializationContext(subject.removesuffix("-value"), MessageField.VALUE)
    serializer = JSONSerializer(text, confluent(), conf={"auto.register.schemas": False})
    payload = serializer({"x": 3}, ctx)
    assert struct.unpack(">bI", payload[:5]) == (0, registered.schema_id)
    assert JSONDeserializer(None, schema_registry_client=confluent())(payload, ctx) == {"x": 3}


def _protobuf_chain():
    """kw/a.proto (kw.Order) imports kw/b.proto (kw.Line) imports kw/c.proto (kw.Money)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    field = descriptor_pb2.FieldDescriptorProto
    files = [
        ("kw/c.proto", [], "Money", [("units", field.TYPE_INT64, None)]),
        ("kw/b.proto", ["kw/c.proto"], "Line", [("price", field.TYPE_MESSAGE, ".kw.Money")]),
        (
            "kw/a.proto",
            ["kw/b.proto"],
            "Order",
            [("id", field.TYPE_STRING, None), ("line", field.TYPE_MESSAGE, ".kw.Line")],
        ),
    ]
    for name, deps, message, fields in files:
        proto = descriptor_pb2.FileDescriptorProto(
            name=name, package="kw", syntax="proto3", dependency=deps
        )
        m = proto.message_type.add(name=message)
        for number, (fname, ftype, tname) in enumerate(fields, 1):
            f = m.field.add(name=fname, number=number, label=field.LABEL_OPTIONAL, type=ftype)
            if tname:
                f.type_name = tname
        pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("kw.Order"))


def test_protobuf_imports_registered_by_confluent_resolved_transitively(
    registry, subject, confluent
):
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    order_type = _protobuf_chain()
    ctx = SerializationContext(subject.removesuffix("-value"), MessageField.VALUE)
    conf = {"use.deprecated.format": False}
    serializer = ProtobufSerializer(order_type, confluent(), conf)
    order = order_type(id="o-1")
    order.line.price.units = 5
    payload = serializer(order, ctx)
    (schema_id,) = struct.unpack(">I", payload[1:5])

    client = fast(registry)
    schema = client.schema_by_id(schema_id)
    assert schema.schema_type == "PROTOBUF"
    assert [r.name for r in schema.references] == ["kw/b.proto"]
    refs = client.references(schema)
    assert sorted(refs) == ["kw/b.proto", "kw/c.proto"]
    assert refs["kw/b.proto"].references == (Reference("kw/c.proto", "kw/c.proto", 1),)
    assert refs["kw/c.proto"].subject == "kw/c.proto" and refs["kw/c.proto"].version == 1
    deserializer = ProtobufDeserializer(order_type, conf, confluent())
    assert deserializer(payload, ctx) == order


def test_avro_references_resolved_transitively(registry, subject):
    client = fast(registry)
    country = client.register(subject + "-country", avro(COUNTRY))
    address = client.register(
        subject + "-address",
        Schema(
            json.dumps(ADDRESS),
            references=(Reference("com.kw.Country", subject + "-country", 1),),
        ),
    )
    person = client.register(
        subject,
        Schema(
            json.dumps(PERSON),
            references=(Reference("com.kw.Address", subject + "-address", 1),),
        ),
    )
    fetched = fast(registry).schema_by_id(person.schema_id)
    assert fetched.references == (Reference("com.kw.Address", subject + "-address", 1),)
    refs = fast(registry).references(fetched)
    assert list(refs) == ["com.kw.Address", "com.kw.Country"]
    assert refs["com.kw.Address"].schema_id == address.schema_id
    assert refs["com.kw.Country"].schema_id == country.schema_id
    assert json.loads(refs["com.kw.Country"].schema_str) == COUNTRY
    assert fast(registry).references(avro(USER)) == {}
    # a reference to nothing registered: the registry refuses the registration
    with pytest.raises(RegistryError, match="422"):
        client.register(
            subject + "-bad",
            Schema(json.dumps(PERSON), references=(Reference("x", subject + "-none", 1),)),
        )


# -- credentials and TLS --------------------------------------------------------------------


def test_basic_auth(registry, subject):
    registered = fast(registry).register(subject, avro(USER))
    registry.basic_auth = ("alice", "s3cret-pw")
    assert fast(registry, basic_auth="alice:s3cret-pw").schema_by_id(registered.schema_id)
    assert fast(registry, basic_auth=("alice", "s3cret-pw")).latest_version(subject)
    host = registry.url.removeprefix("http://")
    in_url = SchemaRegistryClient(f"http://alice:s3cret-pw@{host}", retry_backoff=0.001)
    assert in_url.version(subject, 1).schema_id == registered.schema_id
    assert "s3cret" not in repr(in_url) and "alice" not in repr(in_url)
    assert in_url.url == registry.url

    for client in (fast(registry, basic_auth="alice:wrong-pw"), fast(registry)):
        with pytest.raises(RegistryError) as e:
            client.schema_by_id(registered.schema_id + 1000)
        assert type(e.value) is RegistryError
        assert (e.value.status, e.value.code) == (401, 40101)
        assert "pw" not in str(e.value) and "pw" not in repr(client)
    assert "Authorization" not in registry.requests[-1].headers


def test_bearer_token_callable_called_per_request(registry, subject):
    registered = fast(registry).register(subject, avro(USER))
    registry.bearer_token = "token-1"
    calls = []

    def token() -> str:
        calls.append(1)
        return f"token-{len(calls)}" if len(calls) > 1 else "token-1"

    client = fast(registry, bearer_token=token)
    client.version(subject, 1)
    assert len(calls) == 1
    registry.bearer_token = "token-2"  # the token rotates: the next call gives the new one
    client.latest_version(subject)
    client.schema_by_id(registered.schema_id)  # cached by version(): no request
    assert len(calls) == 2
    assert registry.requests[-1].headers["Authorization"] == "Bearer token-2"

    static = fast(registry, bearer_token="token-wrong")
    with pytest.raises(RegistryError) as e:
        static.subjects()
    assert e.value.status == 401 and "token-wrong" not in str(e.value) + repr(static)
    assert fast(registry, bearer_token="token-2").subjects()

    def broken() -> str:
        raise OSError("token endpoint down")

    with pytest.raises(RegistryError, match="bearer_token callable raised OSError"):
        fast(registry, bearer_token=broken).subjects()


def test_https_with_the_ca(registry_server_tls, subject):
    server = registry_server_tls
    client = SchemaRegistryClient(server.url, ssl_cafile=server.ca_file, retry_backoff=0.001)
    registered = client.register(subject, avro(USER))
    assert SchemaRegistryClient.from_config(
        {"schema.registry.url": server.url, "schema.registry.ssl.ca.location": server.ca_file}
    ).schema_by_id(registered.schema_id)

    before = len(server.requests)
    untrusting = SchemaRegistryClient(server.url, retry_backoff=0.001)
    started = time.monotonic()
    with pytest.raises(RegistryUnavailableError, match="certificate verification failed") as e:
        untrusting.schema_by_id(registered.schema_id)
    assert "after 1 attempt;" in str(e.value)  # a certificate that does not verify: no retry
    assert time.monotonic() - started < 2
    assert len(server.requests) == before
    with pytest.raises(RegistryUnavailableError, match=r"RemoteDisconnected|Reset|EOF"):
        SchemaRegistryClient(server.url.replace("https", "http"), retries=0).subjects()


def test_https_with_a_client_certificate(tmp_path, subject):
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    ca.configure_trust(context)
    context.verify_mode = ssl.CERT_REQUIRED
    ca_file, cert_file, key_file = (tmp_path / n for n in ("ca.pem", "cert.pem", "key.pem"))
    ca.cert_pem.write_to_path(str(ca_file))
    client_cert = ca.issue_cert("kafkawire-client")
    client_cert.cert_chain_pems[0].write_to_path(str(cert_file))
    client_cert.private_key_pem.write_to_path(str(key_file))
    server = start_registry(tls=context)
    try:
        client = SchemaRegistryClient.from_config(
            {
                "url": server.url,
                "ssl.ca.location": str(ca_file),
                "ssl.certificate.location": str(cert_file),
                "ssl.key.location": str(key_file),
            }
        )
        assert client.register(subject, avro(USER)).schema_id == 1
        without = SchemaRegistryClient(server.url, ssl_cafile=ca_file, retries=0)
        with pytest.raises(RegistryUnavailableError, match=r"SSLError|Reset|EOF|Disconnected"):
            without.subjects()
    finally:
        server.stop()
    with pytest.raises(ValueError, match="TLS files"):
        SchemaRegistryClient("https://h:1", ssl_cafile=tmp_path / "absent.pem")


# -- a registry that goes down --------------------------------------------------------------


def test_registry_down_then_back(registry, subject, monkeypatch):
    client = fast(registry, retries=3)
    first = client.register(subject, avro(USER))
    second = fast(registry).register(subject + "-2", avro(COUNTRY))
    assert client.schema_by_id(first.schema_id)  # cached (register() filled it, too)
    sleeps: list[float] = []
    monkeypatch.setattr(http_registry, "_sleep", lambda s: sleeps.append(s))

    registry.stop()
    assert json.loads(client.schema_by_id(first.schema_id).schema_str) == USER  # the cache
    assert client.schema_by_guid(first.guid).schema_id == first.schema_id
    with pytest.raises(RegistryUnavailableError) as e:
        client.schema_by_id(second.schema_id)
    message = str(e.value)
    assert registry.url in message and "after 4 attempts" in message
    assert "ConnectionRefusedError" in message and e.value.status is None
    assert sleeps == [0.001, 0.002, 0.004]  # retries=3: backoff * 2**n between 4 attempts

    registry.start()  # the same port
    assert json.loads(client.schema_by_id(second.schema_id).schema_str) == COUNTRY


def test_5xx_answers_are_retried_then_unavailable(registry, subject, monkeypatch):
    monkeypatch.setattr(http_registry, "_sleep", lambda s: None)
    registered = fast(registry).register(subject, avro(USER))
    registry.requests.clear()
    registry.fail_next(2, 503)
    assert fast(registry, retries=3).schema_by_id(registered.schema_id).schema_str
    assert len(registry.paths()) == 3

    registry.requests.clear()
    registry.fail_next(10, 500)
    with pytest.raises(RegistryUnavailableError, match=r"after 3 attempts.*HTTP 500") as e:
        fast(registry, retries=2).version(subject, 1)
    assert (e.value.status, e.value.code) == (500, 50001)
    assert len(registry.paths()) == 3


def test_backoff_is_capped(registry, monkeypatch):
    sleeps: list[float] = []
    monkeypatch.setattr(http_registry, "_sleep", lambda s: sleeps.append(s))
    registry.stop()
    client = fast(registry, retries=6, retry_backoff=1.0, retry_backoff_max=3.0)
    with pytest.raises(RegistryUnavailableError):
        client.subjects()
    assert sleeps == [1.0, 2.0, 3.0, 3.0, 3.0, 3.0]


def test_several_urls_first_dead(registry, subject):
    dead = f"http://127.0.0.1:{free_port()}"
    registered = fast(registry).register(subject, avro(USER))
    client = SchemaRegistryClient(f"{dead}, {registry.url}", retries=0)
    assert client.url == f"{dead},{registry.url}"
    registry.requests.clear()
    assert client.schema_by_id(registered.schema_id).schema_id == registered.schema_id
    assert len(registry.paths()) == 1
    registry.stop()
    with pytest.raises(RegistryUnavailableError) as e:
        client.latest_version(subject)
    assert dead in str(e.value) and registry.url in str(e.value)
    assert "after 2 attempts" in str(e.value)


def test_timeout_is_retried_and_reported(subject):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts, never answers
        port = silent.getsockname()[1]
        client = SchemaRegistryClient(
            f"http://127.0.0.1:{port}", timeout=0.1, retries=1, retry_backoff=0.001
        )
        started = time.monotonic()
        with pytest.raises(RegistryUnavailableError, match="timed out") as e:
            client.subjects()
        assert time.monotonic() - started < 3
    assert "after 2 attempts" in str(e.value)


def test_close_and_context_manager(registry, subject):
    with fast(registry) as client:
        assert isinstance(client.subjects(), list)
    with pytest.raises(RegistryError, match="closed"):
        client.subjects()


# -- configuration --------------------------------------------------------------------------


def test_from_config_confluent_names(registry, subject):
    registry.basic_auth = ("bob", "hunter2")
    client = SchemaRegistryClient.from_config(
        {
            "schema.registry.url": registry.url,
            "basic.auth.user.info": "bob:hunter2",
            "schema.registry.basic.auth.credentials.source": "USER_INFO",
            "request.timeout.ms": "2500",
            "max.retries": "1",
            "retries.wait.ms": "5",
            "schema.registry.retries.max.wait.ms": 50,
            "cache.latest.ttl.sec": "0",
        }
    )
    assert client.register(subject, avro(USER)).schema_id
    http = client._backend
    assert (http.timeout, http.retries, http.retry_backoff) == (2.5, 1, 0.005)
    assert (http.retry_backoff_max, client._latest_ttl) == (0.05, 0.0)
    assert "hunter2" not in repr(client) and repr(client).endswith("auth=basic)")

    host = registry.url.removeprefix("http://")
    via_url = SchemaRegistryClient.from_config(
        {"url": f"http://bob:hunter2@{host}", "basic.auth.credentials.source": "URL"}
    )
    assert via_url.latest_version(subject).version == 1
    assert "hunter2" not in repr(via_url)

    registry.basic_auth = None
    registry.bearer_token = "bt"
    bearer = SchemaRegistryClient.from_config(
        {
            "url": registry.url,
            "bearer.auth.token": "bt",
            "bearer.auth.logical.cluster": "lsrc-1",
            "bearer.auth.identity.pool.id": "pool-9",
        }
    )
    assert bearer.subjects() and "bt" not in repr(bearer).replace("auth=bearer", "")
    headers = registry.requests[-1].headers
    assert (headers["target-sr-cluster"], headers["Confluent-Identity-Pool-Id"]) == (
        "lsrc-1",
        "pool-9",
    )
    # the same settings through the constructor's config
    by_config = SchemaRegistryClient(registry.url, config={"bearer.auth.token": "bt"})
    assert by_config.subjects()


def test_from_config_mistakes():
    with pytest.raises(ValueError, match=r"did you mean 'basic.auth.user.info'"):
        SchemaRegistryClient.from_config({"url": "http://h:1", "basic.auth.userinfo": "u:p"})
    with pytest.raises(ValueError, match=r"did you mean 'schema.registry.url'"):
        SchemaRegistryClient.from_config({"schema.registry.urls": "http://h:1"})
    with pytest.raises(ValueError, match=r"unknown schema registry setting 'bootstrap.servers'"):
        SchemaRegistryClient.from_config({"url": "http://h:1", "bootstrap.servers": "h:9092"})
    with pytest.raises(ValueError, match=r"without 'schema.registry.url'"):
        SchemaRegistryClient.from_config({"max.retries": "1"})
    with pytest.raises(ValueError, match="number"):
        SchemaRegistryClient.from_config({"url": "http://h:1", "timeout.ms": "soon"})
    with pytest.raises(ValueError, match="no user:password@"):
        SchemaRegistryClient.from_config(
            {"url": "http://h:1", "basic.auth.credentials.source": "URL"}
        )
    with pytest.raises(ValueError, match="SASL_INHERIT"):
        SchemaRegistryClient.from_config(
            {"url": "http://h:1", "basic.auth.credentials.source": "SASL_INHERIT"}
        )
    with pytest.raises(ValueError, match="given twice"):
        SchemaRegistryClient.from_config({"url": "http://a:1", "schema.registry.url": "http://b:1"})
    with pytest.raises(ValueError, match="both as a keyword and in config"):
        SchemaRegistryClient("http://h:1", retries=5, config={"max.retries": "1"})


def test_repr_never_shows_secrets():
    for client in (
        SchemaRegistryClient("https://user:pa55word@reg.example:8081/prefix/"),
        SchemaRegistryClient("http://reg.example", basic_auth=("user", "pa55word")),
        SchemaRegistryClient("http://reg.example", bearer_token="pa55word"),
        SchemaRegistryClient("http://reg.example", bearer_token=lambda: "pa55word"),
    ):
        assert "pa55word" not in repr(client) and "pa55word" not in client.url
    assert repr(SchemaRegistryClient("https://user:pa55word@reg.example:8081/prefix/")) == (
        "SchemaRegistryClient('https://reg.example:8081/prefix', auth=basic)"
    )
    assert SchemaRegistryClient("http://[::1]:8081,http://[::1]").url == (
        "http://[::1]:8081,http://[::1]"
    )


# -- file registries ------------------------------------------------------------------------


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def test_file_registry_reads_hand_written_files(tmp_path):
    _write(tmp_path / "1.avsc", json.dumps(USER))
    user2 = {**USER, "fields": [*USER["fields"], {"name": "x", "type": "int", "default": 0}]}
    _write(tmp_path / "2.avsc", json.dumps(user2))
    guid = str(uuid.uuid4())
    _write(tmp_path / "1.meta.json", json.dumps({"subject": "users-value", "version": 1}))
    _write(
        tmp_path / "2.meta.json",
        json.dumps({"subject": "users-value", "version": 2, "guid": guid.upper()}),
    )
    _write(tmp_path / "3.proto", 'syntax = "proto3";\nmessage M { int64 x = 1; }\n')
    _write(tmp_path / "4.json", '{"type": "object"}')
    _write(tmp_path / "notes.txt", "ignored")

    for url in (tmp_path, str(tmp_path), tmp_path.as_uri()):
        client = SchemaRegistryClient(url)
        assert json.loads(client.schema_by_id(1).schema_str) == USER
        latest = client.latest_version("users-value")
        assert (latest.schema_id, latest.version, latest.guid) == (2, 2, guid)
        assert client.version("users-value", 1).schema_id == 1
        assert client.schema_by_guid(uuid.UUID(guid)).schema_id == 2
        assert client.schema_by_id(3).schema_type == "PROTOBUF"
        assert client.schema_by_id(4).schema_type == "JSON"
        assert client.subjects() == ["users-value"]
        assert client.versions("users-value") == [1, 2]
        assert client.lookup("users-value", Schema(json.dumps(user2, indent=4))).schema_id == 2
        assert repr(client) == f"SchemaRegistryClient({str(tmp_path)!r})"


def test_file_registry_missing_and_ambiguous(tmp_path):
    client = SchemaRegistryClient(tmp_path)
    with pytest.raises(SchemaNotFoundError, match=r"no 7\.avsc, 7\.proto, 7\.json in"):
        client.schema_by_id(7)
    with pytest.raises(SchemaNotFoundError, match="subject 'nope'"):
        client.latest_version("nope")
    with pytest.raises(SchemaNotFoundError):
        client.schema_by_guid(uuid.uuid4())
    _write(tmp_path / "5.avsc", "{}")
    _write(tmp_path / "5.json", "{}")
    with pytest.raises(RegistryError, match="ambiguous"):
        client.schema_by_id(5)
    _write(tmp_path / "6.avsc", "{}")
    _write(tmp_path / "6.meta.json", '{"subject": "s", "verison": 1}')
    with pytest.raises(RegistryError, match="unknown keys"):
        client.schema_by_id(6)
    with pytest.raises(ValueError, match="not a directory"):
        SchemaRegistryClient(tmp_path / "absent")


def test_file_registry_register_writes_files(tmp_path, subject):
    writer = SchemaRegistryClient(tmp_path)
    country = writer.register("country", avro(COUNTRY))
    assert (country.schema_id, country.version, country.subject) == (1, 1, "country")
    address = writer.register(
        "address",
        Schema(json.dumps(ADDRESS), references=(Reference("com.kw.Country", "country", 1),)),
    )
    js = writer.register("events-value", Schema('{"type": "object"}', "JSON"))
    proto = writer.register("events-value", Schema('syntax = "proto3";', "PROTOBUF"))
    assert [address.schema_id, js.schema_id, proto.schema_id] == [2, 3, 4]
    assert (js.version, proto.version) == (1, 2)
    assert writer.register("country", avro(COUNTRY)) == country  # dedupe
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "1.avsc",
        "1.meta.json",
        "2.avsc",
        "2.meta.json",
        "3.json",
        "3.meta.json",
        "4.meta.json",
        "4.proto",
    ]
    assert json.loads((tmp_path / "2.meta.json").read_text()) == {
        "subject": "address",
        "version": 1,
        "guid": address.guid,
        "references": [{"name": "com.kw.Country", "subject": "country", "version": 1}],
    }
    reader = SchemaRegistryClient(str(tmp_path))
    assert reader.schema_by_id(2) == address
    assert reader.latest_version("events-value") == proto
    assert reader.references(reader.schema_by_id(2)) == {"com.kw.Country": country}


def test_references_survive_cycles(tmp_path):
    _write(tmp_path / "1.json", '{"$ref": "b.json"}')
    _write(tmp_path / "2.json", '{"$ref": "a.json"}')
    _write(
        tmp_path / "1.meta.json",
        json.dumps(
            {
                "subject": "a",
                "version": 1,
                "references": [{"name": "b.json", "subject": "b", "version": 1}],
            }
        ),
    )
    _write(
        tmp_path / "2.meta.json",
        json.dumps(
            {
                "subject": "b",
                "version": 1,
                "references": [{"name": "a.json", "subject": "a", "version": 1}],
            }
        ),
    )
    client = SchemaRegistryClient(tmp_path)
    refs = client.references(client.schema_by_id(1))
    assert {name: s.schema_id for name, s in refs.items()} == {"b.json": 2, "a.json": 1}
