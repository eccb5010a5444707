"""docs/security.md's Python blocks run as written against the test beds: the SASL_SSL gateway
in front of a Tansu (``tls_bed``: PLAIN, SCRAM and OAUTHBEARER for user alice and OAuth client
kw-client) and a TLS forwarder that demands client certificates (``mtls``). The blocks'
placeholders (host names, user names, passwords, file names) are replaced by the beds' values;
the CA that signed the beds' certificates is the one trusted by default (SSL_CERT_FILE) for
the blocks that name none, as a public CA would be. The Spark block runs in
tests/spark/test_docs_spark.py; the other pages' blocks in tests/test_docs_examples.py."""

from __future__ import annotations

import sys
import time
import uuid
from types import SimpleNamespace

import pytest

from kafkawire.client import TopicPartition
from tests.support.broker import free_port, launch_tansu
from tests.support.sasl_bed import USERS
from tests.support.tls import TlsForwarder, server_context
from tests.test_docs_examples import MARKERS, block, run

pytestmark = pytest.mark.interop
trustme = pytest.importorskip("trustme")

PAGE = "security.md"


def security_block(marker: str) -> str:
    assert marker in MARKERS[PAGE]
    return block(PAGE, marker)


def round_trip(client) -> None:
    """The client makes a topic, writes records and reads them back."""
    tp = TopicPartition(f"docs-security-{uuid.uuid4().hex[:8]}", 0)
    client.create_topics([tp.topic])
    values = [b"secret-%d" % i for i in range(100)]
    client.produce_columns(tp, values)
    got = [v.as_py() for chunk in client.read_range(tp, 0) for v in chunk.to_arrow()["value"]]
    assert got == values


def connect(config: dict, bootstrap: str | None = None) -> None:
    from kafkawire import Client

    with Client(bootstrap, config=config) as client:
        round_trip(client)


@pytest.fixture
def default_ca(ca, tmp_path, monkeypatch):
    """The beds' CA, trusted as the system's CAs are (the blocks name no ssl.ca.location)."""
    path = tmp_path / "system-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    monkeypatch.setenv("SSL_CERT_FILE", str(path))
    return path


@pytest.fixture(scope="module")
def mtls(ca):
    """A Tansu advertising a TLS forwarder that demands a certificate from ``client_ca``."""
    client_ca = trustme.CA()
    port = free_port()
    forwarder = TlsForwarder(
        port, server_context(ca, "127.0.0.1", "localhost", client_ca=client_ca)
    ).start()
    process = launch_tansu(port, forwarder.address)
    try:
        yield SimpleNamespace(address=forwarder.address, client_ca=client_ca)
    finally:
        forwarder.stop()
        process.terminate()
        process.wait(10)


def write_client_files(client_ca, cert_file, key_file, password: bytes | None = None) -> None:
    from cryptography.hazmat.primitives import serialization

    cert = client_ca.issue_cert("kafkawire-client")
    cert_file.write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    key = serialization.load_pem_private_key(cert.private_key_pem.bytes(), None)
    encryption = (
        serialization.BestAvailableEncryption(password)
        if password
        else serialization.NoEncryption()
    )
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    )


def test_client_settings_block(tls_bed, default_ca):
    """Both spellings: the config dict (SCRAM-SHA-512), then the keyword arguments (PLAIN)."""
    code = (
        security_block('sasl_mechanism="PLAIN"')
        .replace('"broker:9093"', f'"{tls_bed.address}"')
        .replace('"..."', '"alice-secret"')
    )
    second = code.index("client = Client(", code.index("client = Client(") + 1)
    before = tls_bed.authentications.copy()
    scope = run(code[:second], PAGE)
    with scope["client"] as client:
        round_trip(client)
    assert tls_bed.authentications["SCRAM-SHA-512"] > before["SCRAM-SHA-512"]
    assert tls_bed.authentications["PLAIN"] == before["PLAIN"]
    run(code[second:], PAGE, scope=scope)
    with scope["client"] as client:
        round_trip(client)
    assert tls_bed.authentications["PLAIN"] > before["PLAIN"]


def test_confluent_cloud_api_key_block(tls_bed, default_ca):
    code = (
        security_block('"<API key>"')
        .replace("pkc-xxxxx.us-east-1.aws.confluent.cloud:9092", tls_bed.address)
        .replace("<API key>", "alice")
        .replace("<API secret>", "alice-secret")
    )
    before = tls_bed.authentications["PLAIN"]
    connect(run(code, PAGE)["config"])
    assert tls_bed.authentications["PLAIN"] > before and tls_bed.principals[-1] == "alice"


def test_confluent_cloud_oauth_block(tls_bed, issuer, default_ca):
    """The client-credentials grant at the token endpoint, and the cluster and pool sent as
    SASL extensions (the gateway refuses a token without them here)."""
    code = (
        security_block('"sasl.oauthbearer.method": "oidc"')
        .replace("pkc-xxxxx.us-east-1.aws.confluent.cloud:9092", tls_bed.address)
        .replace("https://<idp>/oauth2/token", issuer.token_endpoint_url)
        .replace("<client id>", "kw-client")
        .replace("<client secret>", "kw-secret")
    )
    tokens = issuer.tokens_issued
    tls_bed.required_extensions = {"logicalCluster": "lkc-xxxxx", "identityPoolId": "pool-xxxx"}
    try:
        connect(run(code, PAGE)["config"])
    finally:
        tls_bed.required_extensions = {}
    assert issuer.tokens_issued > tokens
    assert tls_bed.principals[-1] == "kw-client"
    assert tls_bed.last_extensions == {"logicalCluster": "lkc-xxxxx", "identityPoolId": "pool-xxxx"}


def test_msk_mtls_block(mtls, default_ca, tmp_path, monkeypatch):
    """The client certificate and encrypted key as the block names them (files in the working
    directory), against a listener that refuses clients without one."""
    monkeypatch.chdir(tmp_path)
    write_client_files(
        mtls.client_ca, tmp_path / "client.pem", tmp_path / "client.key", b"key-pass"
    )
    code = security_block('"client.pem"').replace('"..."', '"key-pass"')
    connect(run(code, PAGE)["config"], mtls.address)


def test_msk_iam_block(tls_bed, issuer, default_ca, monkeypatch):
    """OAUTHBEARER with the token of AWS's signer library (here a stand-in module whose
    token the gateway's issuer signed)."""
    calls = []

    def generate_auth_token(region):
        calls.append(region)
        return issuer.issue("msk-user"), (time.time() + 900) * 1000

    signer = SimpleNamespace(
        MSKAuthTokenProvider=SimpleNamespace(generate_auth_token=generate_auth_token)
    )
    monkeypatch.setitem(sys.modules, "aws_msk_iam_sasl_signer", signer)
    code = security_block("MSKAuthTokenProvider").replace(
        '"b-1.cluster.kafka.us-east-1.amazonaws.com:9098"', f'"{tls_bed.address}"'
    )
    scope = run(code, PAGE)
    with scope["client"] as client:
        round_trip(client)
    assert calls and set(calls) == {"us-east-1"}
    assert tls_bed.principals[-1] == "msk-user"


def test_event_hubs_block(tls_bed, default_ca):
    """PLAIN with the user $ConnectionString and the connection string as the password."""
    code = security_block('"$ConnectionString"').replace(
        "<namespace>.servicebus.windows.net:9093", tls_bed.address
    )
    config = run(code, PAGE)["config"]
    assert config["sasl.password"].startswith("Endpoint=sb://")
    tls_bed.users = {**USERS, "$ConnectionString": config["sasl.password"]}
    try:
        connect(config)
    finally:
        tls_bed.users = USERS
    assert tls_bed.principals[-1] == "$ConnectionString"


def test_aiven_block(mtls, ca, tmp_path, monkeypatch):
    """The three PEM files of the service page, in the working directory; no default CA set:
    the block's ssl.ca.location is what trusts the broker."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    write_client_files(mtls.client_ca, tmp_path / "service.cert", tmp_path / "service.key")
    code = security_block('"service.cert"').replace(
        "<service>-<project>.aivencloud.com:<port>", mtls.address
    )
    connect(run(code, PAGE)["config"])


def test_redpanda_block(tls_bed, default_ca):
    code = (
        security_block('"<user>"').replace("<user>", "alice").replace("<password>", "alice-secret")
    )
    before = tls_bed.authentications["SCRAM-SHA-256"]
    connect(run(code, PAGE)["config"], tls_bed.address)
    assert tls_bed.authentications["SCRAM-SHA-256"] > before
