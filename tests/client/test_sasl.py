"""SASL through both faces, against the SASL gateway in front of Tansu (``tests/support/
sasl_bed.py``, proved with librdkafka in ``test_sasl_bed.py``): PLAIN, SCRAM-SHA-256/512 and
OAUTHBEARER over TLS and plaintext, re-authentication on the open connection (KIP-368), and
the failures a user meets, each a clear error in time."""

from __future__ import annotations

import asyncio
import time
import uuid

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from kafkawire.aio import Client as AsyncClient
from kafkawire.client import TopicPartition
from kafkawire.client.errors import AuthenticationError, BrokerConnectionError
from tests.support.faces import make_client
from tests.support.sasl_bed import OAuthIssuer, sasl_bed

pytestmark = pytest.mark.interop

PASSWORD = "alice-secret"


@pytest.fixture(scope="module")
def plain_bed(issuer):
    """SASL_PLAINTEXT, with sessions of 2.5 s: clients must authenticate again as they go (the
    client starts at 85-95% of it, a margin of 125-375 ms for a loaded machine)."""
    with sasl_bed(issuer=issuer, session_lifetime_ms=2500) as gateway:
        yield gateway


def sasl_config(mechanism: str, issuer: OAuthIssuer, *, tls_ca=None, **extra) -> dict:
    config = {"security.protocol": "SASL_SSL" if tls_ca else "SASL_PLAINTEXT"}
    if tls_ca is not None:
        config["ssl.ca.pem"] = tls_ca.cert_pem.bytes().decode()
    config["sasl.mechanism"] = mechanism
    if mechanism == "OAUTHBEARER":
        config |= {
            "sasl.oauthbearer.method": "oidc",
            "sasl.oauthbearer.token.endpoint.url": issuer.token_endpoint_url,
            "sasl.oauthbearer.client.id": "kw-client",
            "sasl.oauthbearer.client.secret": "kw-secret",
        }
    else:
        config |= {"sasl.username": "alice", "sasl.password": PASSWORD}
    return config | extra


def produce_and_read(client, n: int = 200) -> list[bytes]:
    tp = TopicPartition(f"sasl-{uuid.uuid4().hex[:8]}", 0)
    client.create_topics([tp.topic])
    values = [b"v-%d" % i for i in range(n)]
    client.produce_columns(tp, values, compression="lz4")
    got = [v.as_py() for c in client.read_range(tp, 0) for v in c.to_arrow()["value"]]
    assert got == values
    return got


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"])
def test_sasl_ssl_produce_and_read(face, mechanism, tls_bed, issuer, ca):
    before = tls_bed.authentications[mechanism]
    config = sasl_config(mechanism, issuer, tls_ca=ca)
    with make_client(face, tls_bed.address, config=config) as client:
        produce_and_read(client)
    # the bootstrap connection and the leader's: each authenticated
    assert tls_bed.authentications[mechanism] >= before + 1
    assert tls_bed.principals[-1] == ("kw-client" if mechanism == "OAUTHBEARER" else "alice")


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-512", "OAUTHBEARER"])
def test_reauthentication_keeps_the_connection_and_loses_nothing(
    face, mechanism, plain_bed, issuer
):
    """Sessions of 2.5 s over 6 s of produces: the client authenticates again on its open
    connections before the gateway would drop them, and every record arrives once."""
    config = sasl_config(mechanism, issuer)
    reauths, expired, connections = (
        plain_bed.reauthentications,
        plain_bed.expired_closes,
        plain_bed.connections,
    )
    tp = TopicPartition(f"reauth-{uuid.uuid4().hex[:8]}", 0)
    sent = []
    with make_client(face, plain_bed.address, config=config) as client:
        client.create_topics([tp.topic])
        end = time.monotonic() + 6
        while time.monotonic() < end:
            sent.append(b"r-%d" % len(sent))
            client.produce_columns(tp, [sent[-1]])
            time.sleep(0.1)
        got = [v.as_py() for c in client.read_range(tp, 0) for v in c.to_arrow()["value"]]
    assert got == sent
    assert plain_bed.reauthentications - reauths >= 2
    assert plain_bed.expired_closes == expired
    assert plain_bed.connections - connections == 2  # bootstrap and leader, never reopened


def test_reauthentication_while_a_fetch_is_in_flight(plain_bed, issuer):
    """A long-poll fetch is waiting when the session's time is up: the produce that follows
    starts the re-authentication, and the fetch's answer still comes on the same connection."""
    config = sasl_config("SCRAM-SHA-256", issuer)

    async def main():
        async with AsyncClient(plain_bed.address, config=config) as client:
            tp = TopicPartition(f"inflight-{uuid.uuid4().hex[:8]}", 0)
            await client.create_topics([tp.topic])
            await client.produce_columns(tp, [b"first"])
            reauths, connections = plain_bed.reauthentications, plain_bed.connections
            waiting = asyncio.ensure_future(client.fetch({tp: 1}, max_wait_ms=3500))
            await asyncio.sleep(2.45)  # past 95% of the 2.5 s session
            await client.produce_columns(tp, [b"second"])
            fetched = (await waiting)[tp]
            assert plain_bed.reauthentications > reauths
            assert plain_bed.connections == connections
            return fetched

    fetched = asyncio.run(main())
    assert fetched.error_code == 0


def test_wrong_password_fails_at_once_naming_the_mechanism(face, tls_bed, issuer, ca):
    config = sasl_config("SCRAM-SHA-512", issuer, tls_ca=ca, **{"sasl.password": "hunter2"})
    failures = tls_bed.failures["SCRAM-SHA-512"]
    with make_client(face, tls_bed.address, config=config, retries=5) as client:
        start = time.monotonic()
        with pytest.raises(AuthenticationError, match="SCRAM-SHA-512 authentication") as caught:
            client.metadata([])
        assert time.monotonic() - start < 5  # no retries with backoff
    assert "hunter2" not in str(caught.value)
    assert tls_bed.failures["SCRAM-SHA-512"] == failures + 1  # no retry storm


def test_a_mechanism_the_broker_does_not_enable(face, plain_bed, issuer):
    plain_bed.mechanisms = ["SCRAM-SHA-512", "OAUTHBEARER"]
    try:
        with (
            make_client(face, plain_bed.address, config=sasl_config("PLAIN", issuer)) as client,
            pytest.raises(AuthenticationError, match="offers SCRAM-SHA-512, OAUTHBEARER"),
        ):
            client.metadata([])
    finally:
        plain_bed.mechanisms = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]


def test_plaintext_client_at_a_sasl_listener(face, plain_bed):
    with (
        make_client(face, plain_bed.address, retries=0, request_timeout=5) as client,
        pytest.raises(BrokerConnectionError, match="does the listener expect SASL"),
    ):
        client.metadata([])


def test_sasl_ssl_client_at_a_plaintext_sasl_listener(face, plain_bed, issuer, ca):
    config = sasl_config("PLAIN", issuer, tls_ca=ca)
    with (
        make_client(face, plain_bed.address, config=config, retries=0, connect_timeout=3) as c,
        pytest.raises(BrokerConnectionError, match="TLS"),
    ):
        c.metadata([])


def test_oauth_tokens_the_broker_refuses(face, tls_bed, issuer, ca):
    """A token signed by a stranger, and one without the extensions the cluster needs."""
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = jwt.encode({"sub": "mallory", "exp": time.time() + 600}, stranger, "RS256")
    config = sasl_config("OAUTHBEARER", issuer, tls_ca=ca)
    del config["sasl.oauthbearer.method"], config["sasl.oauthbearer.token.endpoint.url"]
    forged_config = config | {"oauth_cb": lambda: (forged, time.time() + 600)}
    with (
        make_client(face, tls_bed.address, config=forged_config) as client,
        pytest.raises(AuthenticationError, match="invalid_token"),
    ):
        client.metadata([])
    tls_bed.required_extensions = {"logicalCluster": "lkc-1"}
    try:
        own = config | {"oauth_cb": lambda: (issuer.issue("kw-client"), time.time() + 600)}
        with (
            make_client(face, tls_bed.address, config=own) as client,
            pytest.raises(AuthenticationError, match="extension logicalCluster"),
        ):
            client.metadata([])
        extended = own | {"sasl.oauthbearer.extensions": "logicalCluster=lkc-1"}
        with make_client(face, tls_bed.address, config=extended) as client:
            assert client.metadata([]).brokers
        assert tls_bed.last_extensions == {"logicalCluster": "lkc-1"}
    finally:
        tls_bed.required_extensions = {}


def test_token_endpoint_refusing_the_client(face, tls_bed, issuer, ca):
    config = sasl_config(
        "OAUTHBEARER", issuer, tls_ca=ca, **{"sasl.oauthbearer.client.secret": "hunter2"}
    )
    with (
        make_client(face, tls_bed.address, config=config) as client,
        pytest.raises(AuthenticationError, match=r"HTTP 401 \(invalid_client\)") as caught,
    ):
        client.metadata([])
    assert "hunter2" not in str(caught.value)


def test_sasl_client_at_a_listener_without_sasl(face, plain_bed, issuer):
    """Tansu itself (behind the gateway) takes no SASL: a clear refusal, not a hang."""
    with (
        make_client(
            face, f"127.0.0.1:{plain_bed.target_port}", config=sasl_config("PLAIN", issuer)
        ) as client,
        pytest.raises(AuthenticationError, match="SASL"),
    ):
        client.metadata([])


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256"])
def test_brokers_before_1_0_take_tokens_in_bare_frames(face, mechanism, plain_bed, issuer):
    """Without SaslAuthenticate among the broker's APIs, SaslHandshake v0 and then the tokens
    as bare size-prefixed frames; a wrong password there is a closed connection."""
    plain_bed.legacy = True
    try:
        with make_client(face, plain_bed.address, config=sasl_config(mechanism, issuer)) as c:
            assert c.metadata([]).brokers
        wrong = sasl_config(mechanism, issuer, **{"sasl.password": "hunter2"})
        with (
            make_client(face, plain_bed.address, config=wrong, retries=0) as client,
            pytest.raises(BrokerConnectionError, match=f"during {mechanism} authentication"),
        ):
            client.metadata([])
    finally:
        plain_bed.legacy = False
