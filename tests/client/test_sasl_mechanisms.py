"""The SASL mechanisms and settings without a broker: SCRAM against scramp's server (an
implementation this project did not write), the PLAIN and OAUTHBEARER messages, token sources,
sasl.jaas.config, and the configuration errors (which never quote a secret)."""

from __future__ import annotations

import base64
import json
import time

import pytest
import scramp

from kafkawire.client.config.client import client_config
from kafkawire.client.config.jaas import jaas_settings
from kafkawire.client.errors import AuthenticationError, ConfigError
from kafkawire.client.sasl import OAuthBearer, Plain, SaslAuthenticator, Scram, sasl_authenticator

SCRAMS = ["SCRAM-SHA-256", "SCRAM-SHA-512"]


def scram_exchange(name: str, username: str, password: str, server_password: str):
    """Run a client Scram against scramp's server; what the server saw as the user name."""
    mechanism = scramp.ScramMechanism(name)
    auth = mechanism.make_auth_info(server_password, iteration_count=4096)
    users = []
    server = mechanism.make_server(lambda user: (users.append(user), auth)[1])
    client = Scram(name, username, password)
    server.set_client_first(client.start().decode())
    client_final = client.step(server.get_server_first().encode())
    server.set_client_final(client_final.decode())
    assert client.step(server.get_server_final().encode()) is None
    return users[0]


@pytest.mark.parametrize("name", SCRAMS)
def test_scram_is_accepted_by_scramps_server(name):
    # the user name goes escaped (RFC 5802's saslname) and the server reads it back
    assert scram_exchange(name, "al=ice,x", "pä,ss=wörd", "pä,ss=wörd") == "al=ice,x"


@pytest.mark.parametrize("name", SCRAMS)
def test_scram_with_a_wrong_password_is_refused_by_the_server(name):
    with pytest.raises(scramp.ScramException, match="client keys"):
        scram_exchange(name, "alice", "wrong", "right")


@pytest.mark.parametrize("name", SCRAMS)
def test_scram_refuses_a_server_that_does_not_know_the_password(name):
    """A peer that answers with its own salt but without the stored key cannot forge the
    server signature: the client stops."""
    impostor = scramp.ScramMechanism(name)
    auth = impostor.make_auth_info("not the password", iteration_count=4096)
    server = impostor.make_server(lambda user: auth)
    client = Scram(name, "alice", "the password")
    server.set_client_first(client.start().decode())
    client.step(server.get_server_first().encode())
    with pytest.raises(AuthenticationError, match="signature is wrong"):
        client.step(b"v=" + base64.b64encode(b"x" * 32))


@pytest.mark.parametrize(
    ("server_first", "error"),
    [
        (b"r=someone-elses-nonce,s=c2FsdA==,i=4096", "malformed"),
        (b"e=unknown-user", "refused: unknown-user"),
        (None, "iterations"),
        ("huge", "iterations"),
    ],
)
def test_scram_checks_the_servers_first_message(server_first, error):
    client = Scram("SCRAM-SHA-256", "alice", "secret")
    nonce = client.start().decode().split("r=")[1]
    if server_first is None:  # a CPU-burning iteration count
        server_first = f"r={nonce}abc,s=c2FsdA==,i=100000000".encode()
    elif server_first == "huge":  # more digits than int() takes
        server_first = f"r={nonce}abc,s=c2FsdA==,i={'9' * 5000}".encode()
    with pytest.raises(AuthenticationError, match=error):
        client.step(server_first)


def test_plain_and_oauthbearer_messages():
    assert Plain("alice", "secret").start() == b"\0alice\0secret"
    bearer = OAuthBearer("tok.en.x", (("logicalCluster", "lkc-1"), ("identityPoolId", "p")))
    assert bearer.start() == (
        b"n,,\x01auth=Bearer tok.en.x\x01logicalCluster=lkc-1\x01identityPoolId=p\x01\x01"
    )
    assert bearer.step(b"") is None  # accepted
    refused = OAuthBearer("t", ())
    assert refused.step(b'{"status":"invalid_token"}') == b"\x01"  # RFC 7628's answer
    assert refused.failure_detail() == '{"status":"invalid_token"}'


def jwt_like(exp: float) -> str:
    def part(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part({'sub': 'alice', 'exp': exp})}.sig"


def test_oauth_callback_tokens_are_fetched_again_at_80_percent_of_their_lifetime():
    now = [1000.0]
    calls = []

    def oauth_cb(oauth_config):  # confluent-kafka's signature: sasl.oauthbearer.config
        calls.append(oauth_config)
        return f"token-{len(calls)}", now[0] + 100

    config = client_config(
        "h:1",
        {
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": "OAUTHBEARER",
            "sasl.oauthbearer.config": "scope=x",
            "oauth_cb": oauth_cb,
        },
    )
    auth = SaslAuthenticator(config, clock=lambda: now[0])
    assert auth.stale
    auth.refresh()
    assert calls == ["scope=x"] and not auth.stale
    assert b"auth=Bearer token-1\x01" in auth.mechanism().start()
    now[0] += 79
    assert not auth.stale
    now[0] += 2
    assert auth.stale
    auth.refresh()
    assert b"token-2" in auth.mechanism().start()


def test_oauth_callback_results_are_checked():
    def authenticator(callback):
        config = client_config(
            "h:1",
            security_protocol="SASL_PLAINTEXT",
            sasl_mechanism="OAUTHBEARER",
            oauth_cb=callback,
        )
        return SaslAuthenticator(config)

    jwt = authenticator(lambda: jwt_like(time.time() + 1000))  # a bare JWT: its exp claim
    jwt.refresh()
    assert not jwt.stale
    for callback, error in [
        (lambda: ("t", time.time() - 1), "expired"),
        (lambda: 42, "must return"),
        (lambda: ("", time.time() + 10), "no token"),
        (lambda: ("t", "soon"), "not a number"),
        (lambda: 1 / 0, "oauth_cb failed: ZeroDivisionError"),
    ]:
        with pytest.raises(AuthenticationError, match=error):
            authenticator(callback).refresh()


def test_a_token_endpoint_that_is_down_fails_in_time():
    from tests.support.broker import free_port

    config = client_config(
        "h:1",
        {
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": "OAUTHBEARER",
            "sasl.oauthbearer.method": "oidc",
            "sasl.oauthbearer.token.endpoint.url": f"http://127.0.0.1:{free_port()}/token",
            "sasl.oauthbearer.client.id": "id",
            "sasl.oauthbearer.client.secret": "very-secret",
        },
    )
    auth = SaslAuthenticator(config)
    with pytest.raises(AuthenticationError, match="cannot be reached") as caught:
        auth.refresh()
    assert "very-secret" not in str(caught.value)


def test_jaas_config_entries():
    plain = jaas_settings(
        "org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="$ConnectionString" password="Endpoint=sb://x/;Key=a\\"b";'
    )
    assert plain == {
        "sasl_username": "$ConnectionString",
        "sasl_password": 'Endpoint=sb://x/;Key=a"b',
        "sasl_mechanism": "PLAIN",
    }
    assert repr(plain["sasl_password"]) == "Secret('***')"
    scram = jaas_settings(
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=u password=p;"
    )
    assert scram == {"sasl_username": "u", "sasl_password": "p"}  # the hash: sasl.mechanism
    oauth = jaas_settings(
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required\n"
        '  clientId="cid" clientSecret="cs" scope="kafka"\n'
        '  extension_logicalCluster="lkc-abc" extension_identityPoolId="pool-1";'
    )
    assert oauth["sasl_oauthbearer_client_id"] == "cid"
    assert oauth["sasl_oauthbearer_extensions"] == (
        ("logicalCluster", "lkc-abc"),
        ("identityPoolId", "pool-1"),
    )


@pytest.mark.parametrize(
    ("config", "error"),
    [
        (
            {"sasl.jaas.config": "software.amazon.msk.auth.iam.IAMLoginModule required;"},
            "outside the JVM: for MSK IAM pass oauth_cb=",
        ),
        (
            {
                "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule "
                'required usernme="u" password="hunter2";'
            },
            "no option 'usernme' \\(did you mean 'username'\\?\\)",
        ),
        ({"sasl.jaas.config": 'username="u" password="hunter2"'}, "is not `<LoginModule"),
        (
            {"sasl.login.callback.handler.class": "com.example.MyHandler"},
            "JVM callback handler classes cannot load",
        ),
        ({"sasl.mechanism": "GSSAPI"}, "Kerberos"),
        ({"sasl.oauthbearer.extensions": "auth=hunter2"}, "is 'auth'"),
        ({"sasl.pasword": "hunter2"}, "did you mean 'sasl.password'"),
    ],
)
def test_configuration_errors_name_the_setting_and_never_the_secret(config, error):
    with pytest.raises(ConfigError, match=error) as caught:
        client_config("h:1", config)
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize(
    ("config", "error"),
    [
        ({"security.protocol": "PLAINTEXT", "sasl.mechanism": "PLAIN"}, "did you mean SASL_"),
        ({"security.protocol": "SASL_SSL"}, "needs sasl.mechanism"),
        ({"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN"}, "needs sasl.username"),
        ({"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER"}, "needs a token"),
        (
            {
                "security.protocol": "SASL_SSL",
                "sasl.mechanism": "OAUTHBEARER",
                "sasl.oauthbearer.method": "oidc",
            },
            "needs sasl.oauthbearer.token.endpoint.url",
        ),
        ({"security.protocol": "SASL_SSL", "sasl.mechanism": "DIGEST-MD5"}, "is none of"),
    ],
)
def test_incomplete_sasl_settings_are_refused_when_the_client_is_made(config, error):
    with pytest.raises(ConfigError, match=error):
        sasl_authenticator(client_config("h:1", config))


def test_passwords_and_secrets_stay_out_of_reprs():
    config = client_config(
        "h:1",
        {
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.username": "alice",
            "sasl.password": "hunter2",
            "sasl.oauthbearer.client.secret": "also-secret",
        },
    )
    assert config.sasl_password == "hunter2"
    assert "hunter2" not in repr(config) and "also-secret" not in repr(config)
    kwargs = client_config("h:1", sasl_password="hunter2")
    assert "hunter2" not in repr(kwargs)
