"""The SASL test bed (``tests/support/sasl_bed.py``) proved with librdkafka (confluent-kafka),
not kafkawire: a client this project did not write authenticates through the gateway with every
mechanism, over SASL_PLAINTEXT and SASL_SSL, is refused bad credentials, and re-authenticates
(KIP-368) when sessions run out. A bug in the bed then cannot hide a bug of kafkawire's client.
What librdkafka does not exercise (SaslHandshake v0's bare tokens, SaslAuthenticate v2, expiry
closes) is driven from a bare socket, with
requests made by kio and SCRAM's client side by scramp."""

from __future__ import annotations

import datetime
import io
import json
import socket
import struct
import time
import urllib.error
import urllib.request
import uuid

import pytest
import scramp
from kio.index import load_response_schema
from kio.schema.api_versions.v3.request import ApiVersionsRequest
from kio.schema.metadata.v12.request import MetadataRequest
from kio.schema.sasl_authenticate.v2.request import SaslAuthenticateRequest
from kio.schema.sasl_handshake.v0.request import SaslHandshakeRequest as SaslHandshakeV0
from kio.schema.sasl_handshake.v1.request import SaslHandshakeRequest
from kio.serial import entity_reader, entity_writer
from kio.static.primitive import i32

from tests.support.sasl_bed import OAuthIssuer, SaslGateway, sasl_bed

pytestmark = pytest.mark.interop
trustme = pytest.importorskip("trustme")
confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402

PASSWORDS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


@pytest.fixture(scope="module")
def plain_bed(issuer):
    with sasl_bed(issuer=issuer) as gateway:
        yield gateway


def config_for(gateway, mechanism: str, issuer=None, ca=None, **extra) -> dict:
    config = {
        "bootstrap.servers": gateway.address,
        "security.protocol": "SASL_SSL" if ca is not None else "SASL_PLAINTEXT",
        "sasl.mechanism": mechanism,
    }
    if ca is not None:
        config["ssl.ca.pem"] = ca.cert_pem.bytes().decode()
    if mechanism == "OAUTHBEARER":
        # librdkafka's own OIDC client (client-credentials grant) against the issuer's endpoint
        config |= {
            "sasl.oauthbearer.method": "oidc",
            "sasl.oauthbearer.client.id": "kw-client",
            "sasl.oauthbearer.client.secret": "kw-secret",
            "sasl.oauthbearer.token.endpoint.url": issuer.token_endpoint_url,
        }
    else:
        config |= {"sasl.username": "alice", "sasl.password": "alice-secret"}
    return config | extra


def create_topic(config: dict) -> str:
    topic = f"sasl-{uuid.uuid4().hex[:8]}"
    admin = AdminClient(config)  # kept alive while its futures run: destroying it cancels them
    for future in admin.create_topics([NewTopic(topic, 1)], operation_timeout=20).values():
        future.result(30)
    return topic


def consume(config: dict, topic: str, count: int, timeout: float = 30.0) -> list[bytes]:
    consumer = confluent_kafka.Consumer(
        config | {"group.id": topic, "auto.offset.reset": "earliest", "enable.auto.commit": False}
    )
    # assigned rather than subscribed: a group join costs seconds on Tansu and proves nothing here
    consumer.assign([confluent_kafka.TopicPartition(topic, 0, confluent_kafka.OFFSET_BEGINNING)])
    got: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while len(got) < count and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                got.append(message.value())
    finally:
        consumer.close()
    return got


def round_trip(config: dict, n: int = 100) -> None:
    topic = create_topic(config)
    values = [b"value-%d" % i for i in range(n)]
    producer = confluent_kafka.Producer(config | {"linger.ms": 5})
    for value in values:
        producer.produce(topic, value)
    assert producer.flush(30) == 0
    assert consume(config, topic, n) == values


def authentication_errors(config: dict, seconds: float = 10.0) -> list:
    """The errors a producer reports until the first authentication error (or ``seconds``)."""
    errors: list = []
    producer = confluent_kafka.Producer(config | {"error_cb": errors.append})
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not any(
        e.code() == confluent_kafka.KafkaError._AUTHENTICATION for e in errors
    ):
        producer.poll(0.1)  # error callbacks are served by poll
    return errors


@pytest.mark.parametrize("mechanism", [*PASSWORDS, "OAUTHBEARER"])
def test_round_trip_over_sasl_plaintext(plain_bed, issuer, mechanism):
    issued, failures = issuer.tokens_issued, plain_bed.failures[mechanism]
    round_trip(config_for(plain_bed, mechanism, issuer))
    assert plain_bed.authentications[mechanism] >= 1
    if mechanism == "OAUTHBEARER":
        assert issuer.tokens_issued > issued
        assert "kw-client" in plain_bed.principals  # the token's subject
    else:
        assert "alice" in plain_bed.principals
    assert plain_bed.failures[mechanism] == failures


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512", "OAUTHBEARER"])
def test_round_trip_over_sasl_ssl(tls_bed, issuer, ca, mechanism):
    round_trip(config_for(tls_bed, mechanism, issuer, ca))
    assert tls_bed.authentications[mechanism] >= 1
    assert ("kw-client" if mechanism == "OAUTHBEARER" else "alice") in tls_bed.principals


@pytest.mark.parametrize("mechanism", PASSWORDS)
def test_a_wrong_password_is_refused(plain_bed, mechanism):
    before = plain_bed.failures[mechanism]
    config = config_for(plain_bed, mechanism, **{"sasl.password": "not-alice-secret"})
    errors = authentication_errors(config)
    assert confluent_kafka.KafkaError._AUTHENTICATION in [e.code() for e in errors]
    assert plain_bed.failures[mechanism] > before


def test_a_wrong_password_is_refused_over_tls(tls_bed, ca):
    before = tls_bed.failures["SCRAM-SHA-512"]
    config = config_for(tls_bed, "SCRAM-SHA-512", ca=ca, **{"sasl.password": "nope"})
    errors = authentication_errors(config)
    assert confluent_kafka.KafkaError._AUTHENTICATION in [e.code() for e in errors]
    assert tls_bed.failures["SCRAM-SHA-512"] > before


def test_a_token_from_another_key_is_refused(plain_bed):
    """RFC 7628's failure dance: a JSON error with error code 0, the client's ``\\x01``, then
    SASL_AUTHENTICATION_FAILED."""
    forger = OAuthIssuer()  # not started: only its key, which the gateway does not trust
    before = plain_bed.failures["OAUTHBEARER"]

    def forged(_config):
        return forger.issue("mallory"), time.time() + 3600

    config = {
        "bootstrap.servers": plain_bed.address,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "OAUTHBEARER",
        "oauth_cb": forged,
    }
    errors = authentication_errors(config)
    assert confluent_kafka.KafkaError._AUTHENTICATION in [e.code() for e in errors]
    assert plain_bed.failures["OAUTHBEARER"] > before
    assert "mallory" not in plain_bed.principals


def test_the_token_endpoint(issuer):
    """What librdkafka's OIDC client relies on: tokens for good clients, 401 for others."""
    url = issuer.token_endpoint_url
    form = b"grant_type=client_credentials&client_id=kw-client&client_secret=kw-secret&scope=s1"
    with urllib.request.urlopen(url, data=form, timeout=5) as answer:
        body = json.loads(answer.read())
    assert body["token_type"] == "bearer" and body["expires_in"] == 3600
    claims = issuer.verify(body["access_token"])
    assert (claims["sub"], claims["scope"]) == ("kw-client", "s1")
    bad = b"grant_type=client_credentials&client_id=kw-client&client_secret=wrong"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, data=bad, timeout=5)
    assert refused.value.code == 401
    assert json.loads(refused.value.read()) == {"error": "invalid_client"}
    refused.value.close()


def test_required_extensions(plain_bed, issuer):
    """The OAUTHBEARER extensions reach the gateway, which refuses a client without them."""
    plain_bed.required_extensions = {"traceId": "t-1"}
    try:
        config = config_for(plain_bed, "OAUTHBEARER", issuer)
        before = plain_bed.failures["OAUTHBEARER"]
        errors = authentication_errors(config)
        assert confluent_kafka.KafkaError._AUTHENTICATION in [e.code() for e in errors]
        assert plain_bed.failures["OAUTHBEARER"] > before
        with_extension = config | {"sasl.oauthbearer.extensions": "traceId=t-1"}
        AdminClient(with_extension).list_topics(timeout=10)
        assert plain_bed.last_extensions == {"traceId": "t-1"}
    finally:
        plain_bed.required_extensions = None


def test_sessions_run_out_and_librdkafka_reauthenticates(issuer):
    """Sessions of 3 s (KIP-368): a producer busy for 8 s re-authenticates on its open
    connections (no new ones) and loses nothing; the gateway never has to drop an expired one."""
    with sasl_bed(session_lifetime_ms=3000, issuer=issuer) as gateway:
        config = config_for(gateway, "SCRAM-SHA-256")
        topic = create_topic(config)
        acked: list[bytes] = []

        def delivered(error, message):
            if error is None:
                acked.append(message.value())

        producer = confluent_kafka.Producer(config | {"linger.ms": 0})
        values = [b"r-%d" % i for i in range(80)]
        producer.produce(topic, values[0], on_delivery=delivered)
        assert producer.flush(10) == 0
        connections, reauthentications = gateway.connections, gateway.reauthentications
        for value in values[1:]:  # a message every 100 ms for 8 s
            time.sleep(0.1)
            producer.produce(topic, value, on_delivery=delivered)
            producer.flush(5)
        assert producer.flush(30) == 0
        del producer  # before its broker goes
        assert acked == values
        assert gateway.reauthentications - reauthentications >= 1
        assert (gateway.connections, gateway.expired_closes) == (connections, 0)
        assert consume(config, topic, len(values)) == values


# ---- the gateway's wire behaviour, seen from a bare socket (requests made with kio) ----------


class BareClient:
    """One Kafka connection driven by hand: kio encodes the requests and decodes the answers."""

    def __init__(self, address: str) -> None:
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        self.correlation_id = 0
        self.sent: dict[int, type] = {}  # correlation id -> request class

    def close(self) -> None:
        self.sock.close()

    def encode(self, request) -> bytes:
        cls = type(request)
        self.correlation_id += 1
        self.sent[self.correlation_id] = cls
        header_cls = cls.__header_schema__
        header = header_cls(
            request_api_key=cls.__api_key__,
            request_api_version=cls.__version__,
            correlation_id=i32(self.correlation_id),
            client_id="bare",
        )
        out = io.BytesIO()
        entity_writer(header_cls)(out, header)
        entity_writer(cls)(out, request)
        return struct.pack(">i", out.tell()) + out.getvalue()

    def send(self, *requests) -> None:
        """All in one write: pipelined, as clients do."""
        self.sock.sendall(b"".join(self.encode(r) for r in requests))

    def frame(self) -> bytes:
        (size,) = struct.unpack(">i", self.exactly(4))
        return self.exactly(size)

    def exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed by the gateway")
            data += chunk
        return data

    def answer(self):
        """The next answer: (correlation id, decoded by the schema of the request it answers)."""
        frame = self.frame()
        (correlation_id,) = struct.unpack_from(">i", frame)
        request_cls = self.sent.pop(correlation_id)
        cls = load_response_schema(request_cls.__api_key__, request_cls.__version__)
        _, size = entity_reader(cls.__header_schema__)(frame, 0)
        return correlation_id, entity_reader(cls)(frame, size)[0]

    def call(self, request):
        self.send(request)
        return self.answer()[1]

    def closed(self) -> bool:
        """Whether the gateway closes the connection (rather than answering) within 5 s."""
        try:
            return self.sock.recv(1) == b""
        except ConnectionError:
            return True

    def authenticate(self, user: str = "alice", password: str = "alice-secret"):
        assert self.call(SaslHandshakeRequest(mechanism="PLAIN")).error_code == 0
        token = f"\0{user}\0{password}".encode()
        return self.call(SaslAuthenticateRequest(auth_bytes=token))


def metadata() -> MetadataRequest:
    return MetadataRequest(
        topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False
    )


def test_api_versions_list_the_sasl_apis_before_authentication(plain_bed):
    client = BareClient(plain_bed.address)
    try:
        answer = client.call(
            ApiVersionsRequest(client_software_name="t", client_software_version="1")
        )
        ranges = {k.api_key: (k.min_version, k.max_version) for k in answer.api_keys}
        assert (ranges[17], ranges[36]) == ((0, 1), (0, 2))
        assert ranges[3][1] >= 12  # Tansu's own list otherwise (Metadata)
        client.send(metadata())  # not authenticated: Kafka drops such a client
        assert client.closed()
    finally:
        client.close()


def test_an_unsupported_mechanism_is_answered_then_closed(plain_bed):
    client = BareClient(plain_bed.address)
    try:
        answer = client.call(SaslHandshakeRequest(mechanism="GSSAPI"))
        assert answer.error_code == 33  # UNSUPPORTED_SASL_MECHANISM
        assert set(answer.mechanisms) == {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}
        assert client.closed()
    finally:
        client.close()


def test_a_refusal_carries_error_58_and_closes(plain_bed):
    client = BareClient(plain_bed.address)
    try:
        answer = client.authenticate(password="wrong")
        assert answer.error_code == 58 and answer.error_message
        assert client.closed()
    finally:
        client.close()


def send_bare(client: BareClient, token: bytes) -> None:
    client.sock.sendall(struct.pack(">i", len(token)) + token)


@pytest.mark.parametrize("password", ["alice-secret", "wrong"])
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512"])
def test_handshake_v0_takes_bare_tokens(plain_bed, mechanism, password):
    """Brokers before 1.0: after SaslHandshake v0 the tokens go in bare size-prefixed frames,
    and a refused client gets no answer but a closed connection."""
    before = plain_bed.failures[mechanism]
    client = BareClient(plain_bed.address)
    try:
        assert client.call(SaslHandshakeV0(mechanism=mechanism)).error_code == 0
        if mechanism == "PLAIN":
            send_bare(client, b"\0alice\0" + password.encode())
        else:  # scramp's client against scramp's server
            scram = scramp.ScramClient([mechanism], "alice", password)
            send_bare(client, scram.get_client_first().encode())
            scram.set_server_first(client.frame().decode())
            send_bare(client, scram.get_client_final().encode())
        if password == "wrong":
            assert client.closed()
            assert plain_bed.failures[mechanism] == before + 1
            return
        last = client.frame()
        if mechanism == "PLAIN":
            assert last == b""
        else:
            scram.set_server_final(last.decode())  # checks the server's signature
        assert client.call(metadata()).brokers
    finally:
        client.close()


def test_an_expired_session_is_closed_unless_reauthenticated(plain_bed):
    """KIP-368 on the broker side, with a second gateway of 1 s sessions in front of the same
    Tansu: the lifetime is announced, re-authenticating after expiry is allowed, any other
    request after expiry closes the connection."""
    gateway = SaslGateway(plain_bed.target_port, session_lifetime_ms=1000).start()
    client = BareClient(gateway.address)
    try:
        answer = client.authenticate()
        assert answer.session_lifetime == datetime.timedelta(milliseconds=1000)
        assert client.call(metadata()).brokers
        time.sleep(1.1)
        assert client.authenticate().error_code == 0
        assert client.call(metadata()).brokers
        assert gateway.reauthentications == 1
        time.sleep(1.1)
        client.send(metadata())
        assert client.closed()
        assert gateway.expired_closes == 1
    finally:
        client.close()
        gateway.stop()
