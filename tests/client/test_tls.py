"""The client over TLS and mTLS, in both faces, through a TLS forwarder (Python's ssl,
trustme certificates) in front of a real broker (Tansu, which speaks PLAINTEXT only here).
librdkafka (confluent-kafka) goes through the same endpoints, so that a bug of the test bed
cannot hide one of the client."""

from __future__ import annotations

import time
import uuid

import pytest

from kafkawire.client import ConfigError, TopicPartition
from kafkawire.client.config.client import client_config
from kafkawire.client.errors import BrokerConnectionError, TlsError
from tests.support.broker import free_port, launch_tansu
from tests.support.faces import make_client, make_producer
from tests.support.tls import TlsForwarder, server_context

pytestmark = pytest.mark.interop
trustme = pytest.importorskip("trustme")
confluent_kafka = pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="module")
def pki():
    """A CA for the brokers' certificates, one for clients', and a client certificate."""
    server_ca, client_ca = trustme.CA(), trustme.CA()
    client_cert = client_ca.issue_cert("kafkawire-client")
    return server_ca, client_ca, client_cert


@pytest.fixture(scope="module")
def tls_broker(pki):
    """A Tansu advertising its TLS forwarder; a second forwarder demands client certificates
    (mTLS). The broker advertises the first: the mTLS tests read through bootstrap only."""
    server_ca, client_ca, _ = pki
    port = free_port()
    tls = TlsForwarder(port, server_context(server_ca, "127.0.0.1", "localhost")).start()
    mtls = TlsForwarder(
        port, server_context(server_ca, "127.0.0.1", "localhost", client_ca=client_ca)
    ).start()
    wrong_name = TlsForwarder(port, server_context(server_ca, "broker.example")).start()
    process = launch_tansu(port, tls.address)
    try:
        yield {"tls": tls, "mtls": mtls, "wrong_name": wrong_name, "plain": f"127.0.0.1:{port}"}
    finally:
        for f in (tls, mtls, wrong_name):
            f.stop()
        process.terminate()
        process.wait(10)


def tls_config(pki, **extra) -> dict:
    server_ca = pki[0]
    return {
        "security.protocol": "SSL",
        "ssl.ca.pem": server_ca.cert_pem.bytes().decode(),
        **extra,
    }


def produce_and_read(client, n: int = 300) -> list[bytes]:
    tp = TopicPartition(f"tls-{uuid.uuid4().hex[:8]}", 0)
    client.create_topics([tp.topic])
    values = [b"secret-%d" % i for i in range(n)]
    client.produce_columns(tp, values, compression="lz4")
    return tp, [v.as_py() for c in client.read_range(tp, 0) for v in c.to_arrow()["value"]]


def test_tls_round_trip_and_librdkafka_reads_it(face, pki, tls_broker):
    bootstrap = tls_broker["tls"].address
    with make_client(face, bootstrap, config=tls_config(pki)) as client:
        tp, got = produce_and_read(client)
    assert got == [b"secret-%d" % i for i in range(300)]
    assert librdkafka_reads(bootstrap, pki, tp.topic, 1, 300) == got


def librdkafka_reads(bootstrap: str, pki, topic: str, partitions: int, count: int) -> list:
    """The values librdkafka reads over TLS from the topic's partitions (each in order,
    partition after partition as they come), up to ``count`` of them or 60 s."""
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "security.protocol": "SSL",
            "ssl.ca.pem": pki[0].cert_pem.bytes().decode(),
            "group.id": "tls-check",
            "enable.auto.commit": False,
        }
    )
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, p, 0) for p in range(partitions)])
        seen = []
        deadline = time.monotonic() + 60
        while len(seen) < count and time.monotonic() < deadline:
            for msg in consumer.consume(1000, 1.0):
                if msg.error() is None:
                    seen.append(msg.value())
    finally:
        consumer.close()
    return seen


def test_large_uncompressed_batches_over_tls_arrive_whole(face, pki, tls_broker):
    """Batches far larger than a TLS record and the socket's buffer (written whole, not in
    pieces, as OpenSSL needs a blocked write retried with the same bytes), between small
    requests; librdkafka reads back every record."""
    bootstrap = tls_broker["tls"].address
    topic = f"tls-large-{uuid.uuid4().hex[:8]}"
    values = [b"%06d" % i + bytes(range(256)) * 4 for i in range(6000)]  # ~6 MB
    with make_client(face, bootstrap, config=tls_config(pki)) as client:
        client.create_topics({topic: 3})
    with make_producer(face, bootstrap, config=tls_config(pki, **{"linger.ms": 50})) as p:
        futures = [p.send(topic, v, key=b"k%d" % (i % 3)) for i, v in enumerate(values)]
        offsets = [f.result(60).offset for f in futures]
    assert len(offsets) == len(values)
    assert sorted(librdkafka_reads(bootstrap, pki, topic, 3, len(values))) == values


def test_mutual_tls_with_pem_files_inline_pem_and_pkcs12(face, pki, tls_broker, tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509 import load_pem_x509_certificate

    _, _, cert = pki
    bootstrap = tls_broker["mtls"].address
    chain_pem = b"".join(blob.bytes() for blob in cert.cert_chain_pems)
    key_pem = cert.private_key_pem.bytes()
    (tmp_path / "client.pem").write_bytes(chain_pem)
    key = serialization.load_pem_private_key(key_pem, None)
    (tmp_path / "client.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"key-pass"),
        )
    )
    (tmp_path / "client.p12").write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"client",
            key,
            load_pem_x509_certificate(cert.cert_chain_pems[0].bytes()),
            None,
            serialization.BestAvailableEncryption(b"store-pass"),
        )
    )
    variants = {
        "files, encrypted key": {
            "ssl.certificate.location": str(tmp_path / "client.pem"),
            "ssl.key.location": str(tmp_path / "client.key"),
            "ssl.key.password": "key-pass",
        },
        "inline PEM": {"ssl.certificate.pem": chain_pem.decode(), "ssl.key.pem": key_pem.decode()},
        "PKCS#12 (Java names)": {
            "ssl.keystore.location": str(tmp_path / "client.p12"),
            "ssl.keystore.type": "PKCS12",
            "ssl.keystore.password": "store-pass",
        },
    }
    for what, extra in variants.items():
        # metadata only: the broker advertises the plain-TLS forwarder, not this one
        with make_client(face, bootstrap, config=tls_config(pki, **extra)) as client:
            assert client.metadata([]).brokers, what
    with (
        make_client(face, bootstrap, config=tls_config(pki), retries=1) as client,
        # TLS 1.3 finishes the client's handshake before the server checks for a certificate:
        # the refusal arrives as an alert, a close, or an EOF under a write, by timing
        pytest.raises(
            BrokerConnectionError, match=r"CERTIFICATE_REQUIRED|closed the connection|EOF occurred"
        ),
    ):
        client.metadata([])


def test_untrusted_certificate_is_refused_at_once(face, tls_broker):
    other_ca = trustme.CA()
    config = {"security.protocol": "SSL", "ssl.ca.pem": other_ca.cert_pem.bytes().decode()}
    with make_client(face, tls_broker["tls"].address, config=config, retries=5) as client:
        start = time.monotonic()
        with pytest.raises(TlsError, match=r"certificate of 127\.0\.0\.1:.* is refused"):
            client.metadata([])
        assert time.monotonic() - start < 2  # not retried


def test_hostname_mismatch_names_the_host_and_can_be_turned_off(face, pki, tls_broker):
    bootstrap = tls_broker["wrong_name"].address
    with (
        make_client(face, bootstrap, config=tls_config(pki)) as client,
        pytest.raises(TlsError, match=r"mismatch.*127\.0\.0\.1"),
    ):
        client.metadata([])
    relaxed = tls_config(pki, **{"ssl.endpoint.identification.algorithm": "none"})
    with make_client(face, bootstrap, config=relaxed) as client:
        assert client.metadata([]).brokers


def test_tls_to_a_plaintext_port_and_plaintext_to_a_tls_port(face, pki, tls_broker):
    """Tansu waits silently for the rest of a "request" as long as a ClientHello says; a Kafka
    broker would hang up. Either way the error says what is likely wrong, in time."""
    plain = tls_broker["plain"]
    with make_client(face, plain, config=tls_config(pki), connect_timeout=0.5, retries=1) as client:
        start = time.monotonic()
        with pytest.raises(BrokerConnectionError, match="is it a TLS listener"):
            client.metadata([])
        assert time.monotonic() - start < 3
    with (
        make_client(face, tls_broker["tls"].address, retries=1, retry_backoff=0.01) as client,
        pytest.raises(BrokerConnectionError, match="expects TLS or SASL"),
    ):
        client.metadata([])


def test_config_errors_are_clear_and_keep_secrets():
    with pytest.raises(ConfigError, match=r"did you mean .ssl\.ca\.location."):
        client_config("h:1", {"ssl.ca.locaton": "x"})
    with pytest.raises(ConfigError, match="keytool -importkeystore"):
        client_config("h:1", {"ssl.keystore.type": "JKS"})
    with pytest.raises(ConfigError, match="none of PLAINTEXT"):
        client_config("h:1", {"security.protocol": "TLS"})
    config = client_config(
        "h:1", {"ssl.key.password": "hunter2", "ssl.keystore.password": "hunter3"}
    )
    assert config.ssl_key_password == "hunter2"
    assert "hunter" not in repr(config)
    with pytest.raises(ConfigError) as info:
        client_config("h:1", {"request.timeout.ms": "hunter2"})
    assert "hunter2" not in str(info.value)


def test_certificate_verification_can_be_turned_off(face, tls_broker):
    """enable.ssl.certificate.verification=false: a certificate from a CA nobody trusts is
    taken (librdkafka's setting, for test clusters)."""
    other_ca = trustme.CA()
    config = {
        "security.protocol": "SSL",
        "ssl.ca.pem": other_ca.cert_pem.bytes().decode(),
        "enable.ssl.certificate.verification": "false",
    }
    with make_client(face, tls_broker["tls"].address, config=config) as client:
        assert client.metadata([]).brokers


def test_cipher_suites_are_offered_and_checked(face, pki, tls_broker):
    with make_client(
        face,
        tls_broker["tls"].address,
        config=tls_config(pki, **{"ssl.cipher.suites": "ECDHE+AESGCM"}),
    ) as client:
        assert client.metadata([]).brokers
    with pytest.raises(ConfigError, match=r"ssl\.cipher\.suites 'NO-SUCH-CIPHER'"):
        make_client(
            face, "127.0.0.1:1", config=tls_config(pki, **{"ssl.cipher.suites": "NO-SUCH-CIPHER"})
        )


def crl(ca, revoked_serials: list[int]) -> bytes:
    """A CRL of ``ca`` (PEM) revoking these serial numbers."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization

    ca_cert = x509.load_pem_x509_certificate(ca.cert_pem.bytes())
    key = serialization.load_pem_private_key(ca.private_key_pem.bytes(), password=None)
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(ca_cert.subject)
        .last_update(now - datetime.timedelta(minutes=1))
        .next_update(now + datetime.timedelta(days=1))
    )
    for serial in revoked_serials:
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder()
            .serial_number(serial)
            .revocation_date(now - datetime.timedelta(minutes=1))
            .build()
        )
    return builder.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


def test_a_crl_refuses_a_revoked_broker_certificate(face, pki, tls_broker, tmp_path):
    import ssl

    from cryptography import x509

    host, port = tls_broker["tls"].address.rsplit(":", 1)
    served = x509.load_pem_x509_certificate(ssl.get_server_certificate((host, int(port))).encode())
    empty, revoking = tmp_path / "empty.crl", tmp_path / "revoking.crl"
    empty.write_bytes(crl(pki[0], []))
    revoking.write_bytes(crl(pki[0], [served.serial_number]))
    config = tls_config(pki, **{"ssl.crl.location": str(empty)})
    with make_client(face, tls_broker["tls"].address, config=config) as client:
        assert client.metadata([]).brokers
    config = tls_config(pki, **{"ssl.crl.location": str(revoking)})
    with (
        make_client(face, tls_broker["tls"].address, config=config) as client,
        pytest.raises(TlsError, match="revoked"),
    ):
        client.metadata([])
