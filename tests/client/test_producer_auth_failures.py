"""A broker that refuses the producer (a wrong password, a mechanism it does not enable, a
certificate the client does not trust) ends the producer's call in one attempt, through both
faces: the records waiting for that broker fail with the error, later sends fail with it while
it stands, and close() leaves nothing running. Attempts are counted at the SASL gateway
(``tests/support/sasl_bed.py``), TCP connections before TLS included."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafkawire.client.errors import AuthenticationError, ClientError, TlsError
from tests.support.faces import make_client, make_producer
from tests.support.sasl_bed import sasl_bed

pytestmark = pytest.mark.interop

PASSWORD = "alice-secret"
# each refusal comes at the first handshake: well inside one request timeout
REQUEST_TIMEOUT_MS = 10000


@pytest.fixture(scope="module")
def plain_bed():
    with sasl_bed() as gateway:
        yield gateway


@pytest.fixture
def topic(plain_bed):
    name = f"refused-{uuid.uuid4().hex[:8]}"
    config = {"sasl.mechanism": "PLAIN", "sasl.username": "alice", "sasl.password": PASSWORD}
    config["security.protocol"] = "SASL_PLAINTEXT"
    with make_client("sync", plain_bed.address, config=config) as client:
        client.create_topics({name: 2})
    return name


def sasl(mechanism: str, password: str = PASSWORD, **extra) -> dict:
    return {
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": mechanism,
        "sasl.username": "alice",
        "sasl.password": password,
        "request.timeout.ms": REQUEST_TIMEOUT_MS,
        **extra,
    }


def producer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "kafkawire-producer"]


def assert_quiet_after_close(gateway, producer, threads_before, timeout=None) -> None:
    """close() returns at once (by its ``timeout``) and nothing of the producer runs after it:
    no thread (the blocking face's sender), no task (the asyncio face's), no connection
    attempt at the gateway in the second that follows."""
    start = time.monotonic()
    producer.close() if timeout is None else producer.close(timeout=timeout)
    assert time.monotonic() - start < 2.0 + (timeout or 0)
    attempts = gateway.attempts
    time.sleep(1.0)
    assert gateway.attempts == attempts
    assert len(producer_threads()) <= threads_before
    task = getattr(getattr(producer, "_client", None), "_sender", None)
    assert task is None or task.done()


def expect_refusal(producer, topic: str, error, match: str):
    start = time.monotonic()
    with pytest.raises(error, match=match) as caught:
        producer.send(topic, b"v", key=b"k").result(timeout=30)
    assert time.monotonic() - start < REQUEST_TIMEOUT_MS / 1000
    return caught.value


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512"])
def test_a_wrong_password_fails_the_send_in_one_attempt(face, plain_bed, topic, mechanism):
    threads = len(producer_threads())
    attempts, failures = plain_bed.attempts, plain_bed.failures[mechanism]
    producer = make_producer(face, plain_bed.address, config=sasl(mechanism, "hunter2"))
    try:
        error = expect_refusal(producer, topic, AuthenticationError, f"{mechanism} auth")
        assert plain_bed.address in str(error)
        assert "hunter2" not in str(error)
        assert plain_bed.attempts - attempts == 1
        assert plain_bed.failures[mechanism] - failures == 1
        # the refusal stands: later sends fail with it, without connecting again
        for _ in range(20):
            with pytest.raises(AuthenticationError):
                producer.send(topic, b"again").result(timeout=30)
        assert plain_bed.attempts - attempts == 1
    finally:
        assert_quiet_after_close(plain_bed, producer, threads)


def test_the_refusal_stands_for_retry_backoff_max(face, plain_bed, topic):
    """After retry.backoff.max.ms the next send tries once more (and fails again)."""
    threads = len(producer_threads())
    attempts = plain_bed.attempts
    config = sasl("PLAIN", "hunter2", **{"retry.backoff.max.ms": 400})
    producer = make_producer(face, plain_bed.address, config=config)
    try:
        expect_refusal(producer, topic, AuthenticationError, "PLAIN auth")
        with pytest.raises(AuthenticationError):
            producer.send(topic, b"standing")
        assert plain_bed.attempts - attempts == 1
        time.sleep(0.6)
        expect_refusal(producer, topic, AuthenticationError, "PLAIN auth")
        with pytest.raises(AuthenticationError):
            producer.send(topic, b"standing again")
        assert plain_bed.attempts - attempts == 2
    finally:
        assert_quiet_after_close(plain_bed, producer, threads)


def test_a_transactional_producer_with_a_wrong_password(face, plain_bed):
    threads = len(producer_threads())
    attempts = plain_bed.attempts
    config = sasl("SCRAM-SHA-256", "hunter2", **{"transactional.id": f"t-{uuid.uuid4().hex}"})
    producer = make_producer(face, plain_bed.address, config=config)
    try:
        start = time.monotonic()
        with pytest.raises(AuthenticationError, match=plain_bed.address):
            producer.init_transactions()
        assert time.monotonic() - start < REQUEST_TIMEOUT_MS / 1000
        with pytest.raises(AuthenticationError):  # the refusal stands
            producer.init_transactions()
        assert plain_bed.attempts - attempts == 1
    finally:
        assert_quiet_after_close(plain_bed, producer, threads)


def test_a_mechanism_the_broker_does_not_enable(face, plain_bed, topic):
    threads = len(producer_threads())
    plain_bed.mechanisms = ["SCRAM-SHA-512"]
    attempts = plain_bed.attempts
    try:
        producer = make_producer(face, plain_bed.address, config=sasl("PLAIN"))
        try:
            error = expect_refusal(producer, topic, AuthenticationError, "offers SCRAM-SHA-512")
            assert plain_bed.address in str(error)
            assert plain_bed.attempts - attempts == 1
        finally:
            assert_quiet_after_close(plain_bed, producer, threads)
    finally:
        plain_bed.mechanisms = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]


def test_an_untrusted_certificate(face, tls_bed, ca):
    """No CA given: the system's CAs do not know the bed's, so the handshake fails."""
    threads = len(producer_threads())
    attempts, tls_failures = tls_bed.attempts, tls_bed.tls_failures
    config = sasl("PLAIN", **{"security.protocol": "SASL_SSL"})
    producer = make_producer(face, tls_bed.address, config=config)
    try:
        error = expect_refusal(producer, "any-topic", TlsError, "certificate")
        assert tls_bed.address in str(error)
        assert tls_bed.attempts - attempts == 1
        with pytest.raises(TlsError):
            producer.send("any-topic", b"again")
        assert tls_bed.attempts - attempts == 1
        # the gateway sees the handshake fail once the client has hung up: a moment later
        deadline = time.monotonic() + 5
        while tls_bed.tls_failures == tls_failures and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tls_bed.tls_failures - tls_failures == 1
    finally:
        assert_quiet_after_close(tls_bed, producer, threads)


def test_credentials_revoked_while_producing(face, plain_bed, topic):
    """The producer has delivered records; then the broker stops taking its password and drops
    its connections. The records waiting for the broker fail with the AuthenticationError
    within one request timeout, each broker address tried once at most (the bootstrap
    server, the leader, and the metadata refresh: three attempts), and nothing runs after
    close."""
    threads = len(producer_threads())
    producer = make_producer(face, plain_bed.address, config=sasl("SCRAM-SHA-256"))
    try:
        delivered = [producer.send(topic, b"before-%d" % i, key=b"k%d" % i) for i in range(20)]
        assert all(f.result(timeout=30).offset >= 0 for f in delivered)
        attempts = plain_bed.attempts
        plain_bed.users = {"alice": "changed"}  # a new dict: the module's USERS stays
        plain_bed.drop_connections()
        time.sleep(0.2)
        start = time.monotonic()
        waiting = [producer.send(topic, b"after-%d" % i, key=b"k%d" % i) for i in range(20)]
        for future in waiting:
            with pytest.raises(AuthenticationError, match=plain_bed.address):
                future.result(timeout=30)
        assert time.monotonic() - start < REQUEST_TIMEOUT_MS / 1000
        assert 1 <= plain_bed.attempts - attempts <= 3
        tried = plain_bed.attempts
        for _ in range(20):  # while the refusal stands: no more attempts
            with pytest.raises(AuthenticationError):
                producer.send(topic, b"later", key=b"k").result(timeout=30)
        assert plain_bed.attempts == tried
    finally:
        plain_bed.users = {"alice": PASSWORD}
        assert_quiet_after_close(plain_bed, producer, threads)


def test_close_ends_a_record_waiting_for_a_topic(face, plain_bed):
    """A record for a topic that does not exist waits for its partitions
    (topic.metadata.propagation.max.ms, 30 s), but send returns at once; close(timeout) ends
    the wait by its timeout, the record's future fails, and no metadata request follows."""
    threads = len(producer_threads())
    producer = make_producer(face, plain_bed.address, config=sasl("PLAIN"))
    start = time.monotonic()
    future = producer.send(f"missing-{uuid.uuid4().hex[:8]}", b"v")
    assert time.monotonic() - start < 1.0
    time.sleep(1.0)  # the topic has been asked for, and is waited for
    assert not future.done()
    assert_quiet_after_close(plain_bed, producer, threads, timeout=1.0)
    assert future.done()
    own = getattr(future, "_future", future)  # the asyncio face's own (its loop is closed now)
    error = own.exception() if face == "asyncio" else own.exception(0)
    assert isinstance(error, ClientError) and "closed before delivery" in str(error)
