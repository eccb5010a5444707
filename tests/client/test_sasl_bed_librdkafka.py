"""The SASL test bed proved with librdkafka (confluent-kafka), not kafkawire: through the same
gateway endpoints as ``test_sasl.py``, librdkafka authenticates with every mechanism, is refused
a wrong password, and authenticates again when the gateway's sessions run out. A bug in the bed
cannot hide a client bug if a client kafkawire did not write passes through it."""

from __future__ import annotations

import time
import uuid

import pytest
import trustme

from tests.support.sasl_bed import OAuthIssuer, sasl_bed
from tests.support.tls import server_context

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402


@pytest.fixture(scope="module")
def ca():
    return trustme.CA()


@pytest.fixture(scope="module")
def issuer():
    issuer = OAuthIssuer().start()
    yield issuer
    issuer.stop()


@pytest.fixture(scope="module")
def tls_bed(ca, issuer):
    with sasl_bed(tls_context=server_context(ca, "127.0.0.1"), issuer=issuer) as gateway:
        yield gateway


def librdkafka_config(gateway, mechanism: str, issuer, ca=None, **extra) -> dict:
    config = {
        "bootstrap.servers": gateway.address,
        "security.protocol": "SASL_SSL" if ca else "SASL_PLAINTEXT",
        "sasl.mechanism": mechanism,
    }
    if ca is not None:
        config["ssl.ca.pem"] = ca.cert_pem.bytes().decode()
    if mechanism == "OAUTHBEARER":
        config |= {
            "sasl.oauthbearer.method": "oidc",
            "sasl.oauthbearer.token.endpoint.url": issuer.token_endpoint_url,
            "sasl.oauthbearer.client.id": "kw-client",
            "sasl.oauthbearer.client.secret": "kw-secret",
        }
    else:
        config |= {"sasl.username": "alice", "sasl.password": "alice-secret"}
    return config | extra


def round_trip(config: dict, values: list[bytes], seconds: float = 0.0) -> list[bytes]:
    """Create a topic, produce ``values`` (spread over ``seconds``), consume them back."""
    topic = f"rdk-{uuid.uuid4().hex[:8]}"
    admin = AdminClient(config)  # kept while its futures run: destroying it cancels them
    for future in admin.create_topics([NewTopic(topic, 1)]).values():
        future.result(30)
    producer = confluent_kafka.Producer(config | {"linger.ms": 5})
    for value in values:
        producer.produce(topic, value)
        producer.poll(0)
        time.sleep(seconds / len(values))
    assert producer.flush(30) == 0
    consumer = confluent_kafka.Consumer(
        config | {"group.id": topic, "auto.offset.reset": "earliest"}
    )
    # assigned, not subscribed: a group join costs Tansu seconds and proves nothing here
    consumer.assign([confluent_kafka.TopicPartition(topic, 0, confluent_kafka.OFFSET_BEGINNING)])
    got: list[bytes] = []
    deadline = time.monotonic() + 30
    while len(got) < len(values) and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is not None and message.error() is None:
            got.append(message.value())
    consumer.close()
    return got


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"])
def test_librdkafka_authenticates_through_the_gateway(mechanism, tls_bed, issuer, ca):
    before = tls_bed.authentications[mechanism]
    values = [b"m-%d" % i for i in range(50)]
    assert round_trip(librdkafka_config(tls_bed, mechanism, issuer, ca), values) == values
    assert tls_bed.authentications[mechanism] > before
    assert tls_bed.principals[-1] == ("kw-client" if mechanism == "OAUTHBEARER" else "alice")


def test_librdkafka_is_refused_a_wrong_password(tls_bed, issuer, ca):
    errors = []
    config = librdkafka_config(tls_bed, "SCRAM-SHA-512", issuer, ca, **{"sasl.password": "no"})
    producer = confluent_kafka.Producer(config | {"error_cb": errors.append})
    deadline = time.monotonic() + 10
    while not errors and time.monotonic() < deadline:
        producer.poll(0.2)  # error callbacks are served by poll
    assert [e.code() for e in errors][:1] == [confluent_kafka.KafkaError._AUTHENTICATION]
    assert tls_bed.failures["SCRAM-SHA-512"] >= 1


def test_librdkafka_reauthenticates_when_sessions_run_out(issuer):
    with sasl_bed(issuer=issuer, session_lifetime_ms=3000) as gateway:
        values = [b"r-%d" % i for i in range(40)]
        config = librdkafka_config(gateway, "SCRAM-SHA-256", issuer)
        assert round_trip(config, values, seconds=6.0) == values
        assert gateway.reauthentications >= 1
