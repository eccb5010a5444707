"""Client properties as confluent-kafka (librdkafka) and Java users write them: every one is
implemented, stored, ignored with a logged line, or refused with why; snake-case keywords for
every property on every class; suggestions for near misses; the socket options and the
reconnect backoff on real connections; debug contexts and logger= through Python logging."""

from __future__ import annotations

import logging
import math
import socket
import threading
import time

import pytest

from kafkawire.client import (
    BrokerConnectionError,
    Consumer,
    Producer,
    aio_transport,
    logs,
    sync_transport,
)
from kafkawire.client.config.client import client_config, client_names, is_client_property
from kafkawire.client.config.reading import snake
from kafkawire.client.consumer.config import consumer_config, consumer_property
from kafkawire.client.errors import ConfigError
from kafkawire.client.producer.config import producer_config, producer_property
from kafkawire.client.sync_transport import ReconnectBackoff
from kafkawire.protocol import ApiKey
from tests.client.test_client_faults import Peer, serve_handshake, serve_metadata
from tests.support.faces import make_client

# librdkafka's properties (CONFIGURATION.md), every one a consumer or producer may be given
LIBRDKAFKA = [
    "acks",
    "allow.auto.create.topics",
    "api.version.fallback.ms",
    "api.version.request",
    "api.version.request.timeout.ms",
    "auto.commit.enable",
    "auto.commit.interval.ms",
    "auto.offset.reset",
    "background_event_cb",
    "batch.num.messages",
    "batch.size",
    "bootstrap.servers",
    "broker.address.family",
    "broker.address.ttl",
    "broker.version.fallback",
    "builtin.features",
    "check.crcs",
    "client.dns.lookup",
    "client.id",
    "client.rack",
    "closesocket_cb",
    "compression.codec",
    "compression.level",
    "compression.type",
    "connect_cb",
    "connections.max.idle.ms",
    "consume.callback.max.messages",
    "consume_cb",
    "coordinator.query.interval.ms",
    "debug",
    "default_topic_conf",
    "delivery.report.only.error",
    "delivery.timeout.ms",
    "dr_cb",
    "dr_msg_cb",
    "enable.auto.commit",
    "enable.auto.offset.store",
    "enable.gapless.guarantee",
    "enable.idempotence",
    "enable.metrics.push",
    "enable.partition.eof",
    "enable.random.seed",
    "enable.sasl.oauthbearer.unsecure.jwt",
    "enable.ssl.certificate.verification",
    "enabled_events",
    "error_cb",
    "fetch.error.backoff.ms",
    "fetch.max.bytes",
    "fetch.message.max.bytes",
    "fetch.min.bytes",
    "fetch.queue.backoff.ms",
    "fetch.wait.max.ms",
    "group.id",
    "group.instance.id",
    "group.protocol",
    "group.protocol.type",
    "group.remote.assignor",
    "heartbeat.interval.ms",
    "https.ca.location",
    "https.ca.pem",
    "interceptors",
    "internal.termination.signal",
    "isolation.level",
    "linger.ms",
    "log.connection.close",
    "log.queue",
    "log.thread.name",
    "log_cb",
    "log_level",
    "max.in.flight",
    "max.in.flight.requests.per.connection",
    "max.partition.fetch.bytes",
    "max.poll.interval.ms",
    "max.poll.records",
    "message.copy.max.bytes",
    "message.max.bytes",
    "message.send.max.retries",
    "message.timeout.ms",
    "metadata.broker.list",
    "metadata.max.age.ms",
    "metadata.recovery.rebootstrap.trigger.ms",
    "metadata.recovery.strategy",
    "msg_order_cmp",
    "oauthbearer_token_refresh_cb",
    "offset.store.method",
    "offset.store.path",
    "offset.store.sync.interval.ms",
    "offset_commit_cb",
    "opaque",
    "open_cb",
    "partition.assignment.strategy",
    "partitioner",
    "partitioner_cb",
    "plugin.library.paths",
    "produce.offset.report",
    "queue.buffering.backpressure.threshold",
    "queue.buffering.max.kbytes",
    "queue.buffering.max.messages",
    "queue.buffering.max.ms",
    "queued.max.messages.kbytes",
    "queued.min.messages",
    "queuing.strategy",
    "rebalance_cb",
    "receive.message.max.bytes",
    "reconnect.backoff.jitter.ms",
    "reconnect.backoff.max.ms",
    "reconnect.backoff.ms",
    "request.required.acks",
    "request.timeout.ms",
    "resolve_cb",
    "retries",
    "retry.backoff.max.ms",
    "retry.backoff.ms",
    "sasl.kerberos.keytab",
    "sasl.kerberos.kinit.cmd",
    "sasl.kerberos.min.time.before.relogin",
    "sasl.kerberos.principal",
    "sasl.kerberos.service.name",
    "sasl.mechanism",
    "sasl.mechanisms",
    "sasl.oauthbearer.assertion.algorithm",
    "sasl.oauthbearer.assertion.claim.aud",
    "sasl.oauthbearer.assertion.claim.exp.seconds",
    "sasl.oauthbearer.assertion.claim.iss",
    "sasl.oauthbearer.assertion.claim.jti.include",
    "sasl.oauthbearer.assertion.claim.nbf.seconds",
    "sasl.oauthbearer.assertion.claim.sub",
    "sasl.oauthbearer.assertion.file",
    "sasl.oauthbearer.assertion.jwt.template.file",
    "sasl.oauthbearer.assertion.private.key.file",
    "sasl.oauthbearer.assertion.private.key.passphrase",
    "sasl.oauthbearer.assertion.private.key.pem",
    "sasl.oauthbearer.client.credentials.client.id",
    "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.client.id",
    "sasl.oauthbearer.client.secret",
    "sasl.oauthbearer.config",
    "sasl.oauthbearer.extensions",
    "sasl.oauthbearer.grant.type",
    "sasl.oauthbearer.metadata.authentication.type",
    "sasl.oauthbearer.method",
    "sasl.oauthbearer.scope",
    "sasl.oauthbearer.sub.claim.name",
    "sasl.oauthbearer.token.endpoint.url",
    "sasl.password",
    "sasl.username",
    "security.protocol",
    "session.timeout.ms",
    "share.acknowledgement.mode",
    "socket.blocking.max.ms",
    "socket.connection.setup.timeout.ms",
    "socket.keepalive.enable",
    "socket.max.fails",
    "socket.nagle.disable",
    "socket.receive.buffer.bytes",
    "socket.send.buffer.bytes",
    "socket.timeout.ms",
    "socket_cb",
    "ssl.ca.certificate.stores",
    "ssl.ca.location",
    "ssl.ca.pem",
    "ssl.certificate.location",
    "ssl.certificate.pem",
    "ssl.certificate.verify_cb",
    "ssl.cipher.suites",
    "ssl.crl.location",
    "ssl.curves.list",
    "ssl.endpoint.identification.algorithm",
    "ssl.engine.id",
    "ssl.engine.location",
    "ssl.key.location",
    "ssl.key.password",
    "ssl.key.pem",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.providers",
    "ssl.sigalgs.list",
    "ssl_ca",
    "ssl_certificate",
    "ssl_engine_callback_data",
    "ssl_key",
    "statistics.interval.ms",
    "stats_cb",
    "sticky.partitioning.linger.ms",
    "throttle_cb",
    "topic.blacklist",
    "topic.metadata.propagation.max.ms",
    "topic.metadata.refresh.fast.cnt",
    "topic.metadata.refresh.fast.interval.ms",
    "topic.metadata.refresh.interval.ms",
    "topic.metadata.refresh.sparse",
    "transaction.timeout.ms",
    "transactional.id",
]

# the Java clients' consumer, producer and common configs
JAVA = [
    "key.deserializer",
    "value.deserializer",
    "key.serializer",
    "value.serializer",
    "bootstrap.servers",
    "fetch.min.bytes",
    "group.id",
    "group.protocol",
    "heartbeat.interval.ms",
    "max.partition.fetch.bytes",
    "session.timeout.ms",
    "ssl.key.password",
    "ssl.keystore.certificate.chain",
    "ssl.keystore.key",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.truststore.certificates",
    "ssl.truststore.location",
    "ssl.truststore.password",
    "allow.auto.create.topics",
    "auto.offset.reset",
    "client.dns.lookup",
    "connections.max.idle.ms",
    "default.api.timeout.ms",
    "enable.auto.commit",
    "exclude.internal.topics",
    "fetch.max.bytes",
    "group.instance.id",
    "group.remote.assignor",
    "isolation.level",
    "max.poll.interval.ms",
    "max.poll.records",
    "partition.assignment.strategy",
    "receive.buffer.bytes",
    "request.timeout.ms",
    "sasl.client.callback.handler.class",
    "sasl.jaas.config",
    "sasl.kerberos.service.name",
    "sasl.login.callback.handler.class",
    "sasl.login.class",
    "sasl.mechanism",
    "sasl.oauthbearer.jwks.endpoint.url",
    "sasl.oauthbearer.token.endpoint.url",
    "security.protocol",
    "send.buffer.bytes",
    "socket.connection.setup.timeout.max.ms",
    "socket.connection.setup.timeout.ms",
    "ssl.enabled.protocols",
    "ssl.keystore.type",
    "ssl.protocol",
    "ssl.provider",
    "ssl.truststore.type",
    "auto.commit.interval.ms",
    "check.crcs",
    "client.id",
    "client.rack",
    "enable.metrics.push",
    "fetch.max.wait.ms",
    "interceptor.classes",
    "metadata.max.age.ms",
    "metadata.recovery.strategy",
    "metadata.recovery.rebootstrap.trigger.ms",
    "metric.reporters",
    "metrics.num.samples",
    "metrics.recording.level",
    "metrics.sample.window.ms",
    "reconnect.backoff.max.ms",
    "reconnect.backoff.ms",
    "retry.backoff.max.ms",
    "retry.backoff.ms",
    "sasl.kerberos.kinit.cmd",
    "sasl.kerberos.min.time.before.relogin",
    "sasl.kerberos.ticket.renew.jitter",
    "sasl.kerberos.ticket.renew.window.factor",
    "sasl.login.connect.timeout.ms",
    "sasl.login.read.timeout.ms",
    "sasl.login.refresh.buffer.seconds",
    "sasl.login.refresh.min.period.seconds",
    "sasl.login.refresh.window.factor",
    "sasl.login.refresh.window.jitter",
    "sasl.login.retry.backoff.max.ms",
    "sasl.login.retry.backoff.ms",
    "sasl.oauthbearer.clock.skew.seconds",
    "sasl.oauthbearer.expected.audience",
    "sasl.oauthbearer.expected.issuer",
    "sasl.oauthbearer.jwks.endpoint.refresh.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
    "sasl.oauthbearer.scope.claim.name",
    "sasl.oauthbearer.sub.claim.name",
    "security.providers",
    "ssl.cipher.suites",
    "ssl.endpoint.identification.algorithm",
    "ssl.engine.factory.class",
    "ssl.keymanager.algorithm",
    "ssl.secure.random.implementation",
    "ssl.trustmanager.algorithm",
    "acks",
    "batch.size",
    "buffer.memory",
    "compression.type",
    "delivery.timeout.ms",
    "linger.ms",
    "max.block.ms",
    "max.request.size",
    "partitioner.class",
    "partitioner.ignore.keys",
    "compression.gzip.level",
    "compression.lz4.level",
    "compression.zstd.level",
    "enable.idempotence",
    "max.in.flight.requests.per.connection",
    "metadata.max.idle.ms",
    "partitioner.adaptive.partitioning.enable",
    "partitioner.availability.timeout.ms",
    "transaction.timeout.ms",
    "transactional.id",
    "retries",
]


@pytest.fixture(autouse=True)
def fresh_log_lines(monkeypatch):
    """Each test sees the once-a-process INFO lines afresh."""
    monkeypatch.setattr(logs, "_ignored", set())


@pytest.mark.parametrize("name", sorted({*LIBRDKAFKA, *JAVA}))
def test_every_property_is_known_to_the_consumer_or_the_producer(name):
    assert is_client_property(name) or consumer_property(name) or producer_property(name)


# ---- the properties the issue found refused --------------------------------------------------


def test_the_properties_once_refused_are_taken_and_stored():
    seen = []
    client, consumer = consumer_config(
        "h:1",
        {
            "debug": "broker,protocol",
            "enable.partition.eof": "true",
            "statistics.interval.ms": 5000,
            "stats_cb": seen.append,
            "socket.keepalive.enable": True,
            "error_cb": seen.append,
            "logger": logging.getLogger("app"),
            "enable.auto.offset.store": False,
            "client.rack": "rack-1",
            "fetch.error.backoff.ms": 250,
            "reconnect.backoff.ms": 50,
            "reconnect.backoff.max.ms": 2000,
            "metadata.max.age.ms": 60000,
        },
    )
    assert client.debug == ("broker", "protocol")
    assert consumer.enable_partition_eof is True
    assert client.statistics_interval == 5.0 and client.stats_cb == seen.append
    assert client.socket_keepalive is True and client.error_cb == seen.append
    assert client.logger is logging.getLogger("app")
    assert consumer.enable_auto_offset_store is False
    assert client.client_rack == "rack-1"
    assert consumer.fetch_error_backoff == 0.25
    assert (client.reconnect_backoff, client.reconnect_backoff_max) == (0.05, 2.0)
    assert client.metadata_max_age == 60.0
    _, producer = producer_config(
        "h:1",
        {"on_delivery": seen.append, "queue.buffering.max.messages": 10, "linger.ms": 1},
    )
    assert producer.on_delivery == seen.append and producer.queue_buffering_max_messages == 10
    # librdkafka's refresh interval: -1 turns the timed refresh off
    assert client_config("h:1", {"topic.metadata.refresh.interval.ms": -1}).metadata_max_age == (
        math.inf
    )


def test_defaults_are_librdkafkas():
    c = client_config("h:1")
    assert (c.reconnect_backoff, c.reconnect_backoff_max) == (0.1, 10.0)
    assert (c.metadata_max_age, c.statistics_interval, c.socket_keepalive) == (300.0, 0.0, False)
    assert c.debug == () and c.logger is None and c.client_rack is None


@pytest.mark.parametrize(
    ("properties", "message"),
    [
        ({"socket.keepalive.enable": "yes"}, "socket.keepalive.enable.*true or false"),
        ({"statistics.interval.ms": -5}, "statistics.interval.ms.*>= 0"),
        ({"stats_cb": "print"}, "stats_cb.*callable"),
        ({"error_cb": 3}, "error_cb.*callable"),
        ({"logger": "app"}, "logger.*logging.Logger"),
        ({"debug": "broker,everything"}, "unknown debug context 'everything'"),
        ({"client.rack": 5}, "client.rack.*string"),
        ({"metadata.max.age.ms": 0}, "metadata.max.age.ms.*> 0"),
        ({"broker.address.family": "v5"}, "none of any, v4, v6"),
        ({"reconnect.backoff.ms": "soon"}, "reconnect.backoff.ms.*whole number"),
    ],
)
def test_stored_properties_check_their_values(properties, message):
    with pytest.raises(ConfigError, match=message):
        client_config("h:1", properties)


def test_consumer_and_producer_only_values_are_checked():
    with pytest.raises(ConfigError, match=r"enable.partition.eof"):
        consumer_config("h:1", {"enable.partition.eof": "sometimes"})
    with pytest.raises(ConfigError, match=r"queue.buffering.max.messages"):
        producer_config("h:1", {"queue.buffering.max.messages": -1})
    with pytest.raises(ConfigError, match="on_delivery"):
        producer_config("h:1", {"on_delivery": "print"})


def test_reconnect_backoff_max_is_at_least_the_first_backoff():
    c = client_config("h:1", {"reconnect.backoff.ms": 5000, "reconnect.backoff.max.ms": 1000})
    assert (c.reconnect_backoff, c.reconnect_backoff_max) == (5.0, 5.0)


# ---- ignored (one line) and refused (why) ------------------------------------------------------


def test_an_ignored_property_logs_one_line_a_process(caplog):
    caplog.set_level(logging.INFO, logger="kafkawire.config")
    for _ in range(3):
        client_config("h:1", {"api.version.request": True, "broker.address.ttl": 1000})
    lines = [r.getMessage() for r in caplog.records if r.name == "kafkawire.config"]
    assert len(lines) == 2
    assert "'api.version.request' is ignored: this client always asks" in lines[0]
    assert "'broker.address.ttl' is ignored" in lines[1]


def test_an_ignored_property_with_a_value_it_cannot_honour_is_refused(caplog):
    with pytest.raises(ConfigError, match=r"'api.version.request' cannot be set.*only 'true'"):
        client_config("h:1", {"api.version.request": "false"})
    with pytest.raises(ConfigError, match=r"socket.max.fails.*closes its connection"):
        client_config("h:1", {"socket.max.fails": 3})
    client_config("h:1", {"socket.max.fails": 1, "client.dns.lookup": "use_all_dns_ips"})
    with pytest.raises(ConfigError, match=r"client.dns.lookup"):
        client_config("h:1", {"client.dns.lookup": "resolve_canonical_bootstrap_servers_only"})
    with pytest.raises(ConfigError, match=r"offset.store.method"):
        consumer_config("h:1", {"offset.store.method": "file"})
    with pytest.raises(ConfigError, match=r"queuing.strategy"):
        producer_config("h:1", {"queuing.strategy": "lifo"})


@pytest.mark.parametrize(
    ("make", "name", "why"),
    [
        (client_config, "sasl.kerberos.keytab", "GSSAPI"),
        (client_config, "log_cb", "logger="),
        (client_config, "ssl.engine.id", "OpenSSL engines"),
        (client_config, "plugin.library.paths", "plugins"),
        (consumer_config, "rebalance_cb", "on_assign="),
        (consumer_config, "offset_commit_cb", "on_commit="),
        (consumer_config, "key.deserializer", "key_deserializer="),
        (producer_config, "dr_msg_cb", "on_delivery="),
        (producer_config, "partitioner.class", "murmur2_random"),
    ],
)
def test_a_refused_property_says_why(make, name, why):
    with pytest.raises(ConfigError, match=rf"'{name}' is not supported: .*{why}"):
        make("h:1", {name: "x"})


def test_a_consumer_ignores_producer_properties_and_back(caplog):
    caplog.set_level(logging.INFO, logger="kafkawire.config")
    _, consumer = consumer_config("h:1", {"linger.ms": 5, "acks": "all", "group.id": "g"})
    producer_config("h:1", {"group.id": "g", "auto.offset.reset": "earliest"})
    lines = " ".join(r.getMessage() for r in caplog.records)
    assert "'linger.ms' is ignored: a producer property" in lines
    assert "'group.id' is ignored: a consumer property" in lines
    assert consumer.group_id == "g"


def test_a_shared_dict_or_keyword_set_configures_every_class(caplog):
    caplog.set_level(logging.INFO, logger="kafkawire.config")
    shared = {"bootstrap.servers": "h:1", "group.id": "g", "linger.ms": 5, "acks": "all"}
    client = client_config(None, shared, max_poll_records=3, linger_ms=5)
    assert client.bootstrap_servers == (("h", 1),)
    _, consumer = consumer_config(None, shared, linger_ms=5)
    _, producer = producer_config(None, shared, max_poll_records=3)
    assert consumer.group_id == "g" and producer.linger == 0.005
    lines = " ".join(r.getMessage() for r in caplog.records)
    assert "'max_poll_records' is ignored: a consumer setting" in lines
    assert "'linger_ms' is ignored: a producer setting" in lines
    with pytest.raises(ConfigError, match="unknown client setting 'lingr_ms'"):
        client_config("h:1", lingr_ms=5)


def test_a_jaas_module_implies_a_mechanism_a_keyword_may_override():
    jaas = (
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
        'clientId="c" clientSecret="s";'
    )
    assert client_config("h:1", {"sasl.jaas.config": jaas}).sasl_mechanism == "OAUTHBEARER"
    given = client_config("h:1", {"sasl.jaas.config": jaas}, sasl_mechanism="PLAIN")
    assert given.sasl_mechanism == "PLAIN"


def test_default_topic_config_is_spread_out():
    _, consumer = consumer_config(
        "h:1",
        {"group.id": "g", "default.topic.config": {"auto.offset.reset": "smallest"}},
    )
    assert consumer.auto_offset_reset == "earliest"
    _, consumer = consumer_config(
        "h:1",
        {"auto.offset.reset": "latest", "default.topic.config": {"auto.offset.reset": "smallest"}},
    )
    assert consumer.auto_offset_reset == "latest"  # the top level wins


@pytest.mark.parametrize("strategy", ["sticky", "org.apache.kafka.clients.consumer.StickyAssignor"])
def test_the_eager_sticky_assignor_is_refused_naming_the_ones_there_are(strategy):
    with pytest.raises(ConfigError, match="cooperative-sticky is the sticky one"):
        consumer_config("h:1", {"group.id": "g", "partition.assignment.strategy": strategy})


def test_an_unknown_assignor_is_refused_when_configured_not_at_the_first_join():
    with pytest.raises(ConfigError, match=r"unknown assignor 'fair' \(valid: range, roundrobin"):
        consumer_config("h:1", {"partition.assignment.strategy": "range,fair"})
    for good in [
        "cooperative-sticky",
        "range,roundrobin",
        "org.apache.kafka.clients.consumer.RangeAssignor",
    ]:
        _, c = consumer_config("h:1", {"partition.assignment.strategy": good})
        assert c.assignment_strategy == good


# ---- keywords ---------------------------------------------------------------------------------


def test_every_property_is_a_keyword_of_its_class():
    assert producer_config("h:1", linger_ms=5)[1].linger == 0.005
    assert producer_config("h:1", queue_buffering_max_ms=7)[1].linger == 0.007
    assert consumer_config("h:1", max_poll_interval_ms=1000)[1].max_poll_interval == 1.0
    assert consumer_config("h:1", auto_offset_reset="smallest")[1].auto_offset_reset == "earliest"
    client, _ = producer_config("h:1", socket_keepalive_enable="true", request_timeout_ms=1500)
    assert client.socket_keepalive is True and client.request_timeout == 1.5
    assert client_config(None, metadata_broker_list="a:1,b:2").bootstrap_servers == (
        ("a", 1),
        ("b", 2),
    )


def test_field_names_stay_keywords_in_their_own_units():
    client, producer = producer_config("h:1", linger=0.02, request_timeout=3)
    assert producer.linger == 0.02 and client.request_timeout == 3
    _, consumer = consumer_config("h:1", max_poll_records=7, group_id=None)
    assert consumer.max_poll_records == 7 and consumer.group_id is None


def test_a_keyword_is_converted_like_its_property():
    with pytest.raises(ConfigError, match=r"producer setting 'linger_ms'.*count >= 0"):
        producer_config("h:1", linger_ms=-1)
    with pytest.raises(ConfigError, match=r"'api\.version\.request' cannot be set"):
        client_config("h:1", api_version_request=False)
    with pytest.raises(ConfigError, match=r"not supported: .*on_assign="):
        consumer_config("h:1", rebalance_cb=print)


@pytest.mark.parametrize(
    ("make", "config", "keywords", "names"),
    [
        (consumer_config, {"group.id": "b"}, {"group_id": "a"}, ("'group.id'", "group_id=")),
        (producer_config, {"linger.ms": 10}, {"linger_ms": 5}, ("'linger.ms'", "linger_ms=")),
        (producer_config, {"queue.buffering.max.ms": 10}, {"linger": 0.005}, ("linger=",)),
        (producer_config, {}, {"linger": 0.02, "linger_ms": 5}, ("linger=", "linger_ms=")),
        (
            client_config,
            {"request.timeout.ms": 6000},
            {"request_timeout": 5},
            ("request_timeout=",),
        ),
        (consumer_config, {"client.id": "x"}, {"client_id": "y"}, ("'client.id'", "client_id=")),
        (
            client_config,
            {
                "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule "
                'required username="u" password="p";'
            },
            {"sasl_password": "other"},
            ("'sasl.jaas.config'", "sasl_password="),
        ),
    ],
)
def test_a_keyword_and_a_property_that_differ_are_refused(make, config, keywords, names):
    with pytest.raises(ConfigError, match="to different values") as refused:
        make("h:1", config, **keywords)
    for name in names:
        assert name in str(refused.value)
    assert "other" not in str(refused.value)  # no values: they may be secrets


def test_a_keyword_and_a_property_that_agree_are_fine():
    client, producer = producer_config(
        "h:1", {"linger.ms": 5, "request.timeout.ms": 5000}, linger_ms=5, request_timeout=5
    )
    assert producer.linger == 0.005 and client.request_timeout == 5
    # two properties naming one setting: the later counts (librdkafka's aliases)
    client = client_config("h:1", {"socket.timeout.ms": 60000, "request.timeout.ms": 30000})
    assert client.request_timeout == 30.0


def test_the_faces_take_any_keyword_and_refuse_a_conflict():
    with pytest.raises(ConfigError, match=r"property 'group.id' and keyword group_id="):
        Consumer("127.0.0.1:1", config={"group.id": "b"}, group_id="a")
    with pytest.raises(
        ConfigError, match=r"unknown producer setting 'lingr_ms' \(did you mean 'linger_ms'\?\)"
    ):
        Producer("127.0.0.1:1", lingr_ms=5)
    producer = Producer("127.0.0.1:1", linger_ms=5, socket_keepalive_enable=True)
    try:
        assert producer._config.linger == 0.005
        assert producer._core.config.socket_keepalive is True
    finally:
        producer.close()


# ---- suggestions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typo", "suggested"),
    [
        ("reconect.backoff.ms", "reconnect.backoff.ms"),
        ("reconnect.backof.max.ms", "reconnect.backoff.max.ms"),
        ("enable.auto.comit", "enable.auto.commit"),
        ("metadata.max.agee.ms", "metadata.max.age.ms"),
        ("client.rak", "client.rack"),
        ("sasl.pasword", "sasl.password"),
        ("isolation.levle", "isolation.level"),
        ("lingerms", "linger.ms"),
        ("linger.mz", "linger.ms"),
        ("fetch.max.wait.mx", "fetch.max.wait.ms"),
        ("socket.keepalive", "socket.keepalive.enable"),
        ("max.poll.record", "max.poll.records"),
        ("boostrap.servers", "bootstrap.servers"),
        ("auto.offset.rest", "auto.offset.reset"),
        ("statistics.interval", "statistics.interval.ms"),
        ("enable.partition.oef", "enable.partition.eof"),
        ("session.timout.ms", "session.timeout.ms"),
    ],
)
def test_a_near_miss_gets_the_right_hint(typo, suggested):
    make = producer_config if typo.startswith("linger") else consumer_config
    with pytest.raises(ConfigError, match=rf"\(did you mean '{suggested}'\?\)"):
        make("h:1", {typo: "1"})


@pytest.mark.parametrize(
    "unrelated",
    [
        "client.colour",
        "topic.compaction.strategy",
        "foo",
        "metadata.cache.size",
        "schema.registry.url",
    ],
)
def test_an_unrelated_name_gets_no_hint(unrelated):
    with pytest.raises(ConfigError, match="unknown consumer property") as refused:
        consumer_config("h:1", {unrelated: "1"})
    assert "did you mean" not in str(refused.value)


@pytest.mark.parametrize(
    ("typo", "suggested"),
    [
        ("lingr_ms", "linger_ms"),
        ("max_pol_records", "max_poll_records"),
        ("request_timout", "request_timeout"),
        ("socket_keepalive_enabled", "socket_keepalive_enable"),
    ],
)
def test_a_keyword_near_miss_gets_a_keyword_hint(typo, suggested):
    make = producer_config if typo.startswith("lingr") else consumer_config
    with pytest.raises(ConfigError, match=rf"\(did you mean '{suggested}'\?\)"):
        make("h:1", **{typo: 1})


def test_suggestions_compare_words_not_whole_names():
    from kafkawire.client.config.suggestions import _suggest

    # difflib on the whole name once took these for each other
    assert _suggest("client.rack", ["client.id"]) == ""
    assert _suggest("metadata.max.age.ms", ["metadata.broker.list"]) == ""
    assert "metadata.max.age.ms" in _suggest("metadata.age.max.ms", client_names())


# ---- debug and logger= ------------------------------------------------------------------------


@pytest.fixture
def restored_levels():
    names = {n for names in logs.CONTEXTS.values() for n in names}
    levels = {n: logging.getLogger(n).level for n in names}
    handlers = list(logging.getLogger("kafkawire").handlers)
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
    logging.getLogger("kafkawire").handlers[:] = handlers


def test_debug_contexts_switch_their_loggers_to_debug(restored_levels):
    assert logs.debug_contexts("broker, protocol,broker") == ("broker", "protocol")
    assert logs.apply_debug(("broker", "cgrp")) == ["kafkawire.broker", "kafkawire.group"]
    assert logging.getLogger("kafkawire.broker").level == logging.DEBUG
    assert logging.getLogger("kafkawire.consumer").level != logging.DEBUG
    assert logs.apply_debug(("all",)) == ["kafkawire"]
    assert logging.getLogger("kafkawire").level == logging.DEBUG


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record) -> None:
        self.lines.append(record.getMessage())


def metadata_peer() -> Peer:
    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        while serve_metadata(peer, conn):
            pass

    return Peer(handler)


def test_the_transports_log_connects_and_disconnects_to_the_given_logger(face):
    logger = logging.getLogger(f"app.kafka.{face}")
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    lines = Lines()
    logger.addHandler(lines)
    peer = metadata_peer()
    try:
        with make_client(face, peer.address, logger=logger) as client:
            client.metadata([])
        assert f"connected to {peer.address}" in lines.lines
        assert any(line.startswith(f"disconnected from {peer.address}") for line in lines.lines)
    finally:
        peer.close()
        logger.removeHandler(lines)


# ---- socket options ---------------------------------------------------------------------------


def client_sockets(face, client) -> list[socket.socket]:
    """The sockets of a client's open connections (either face)."""
    if face == "sync":
        return [conn.sock for conn in client._transport._connections.values()]
    inner = client._client
    return [c.transport.get_extra_info("socket") for c in inner._transport._connections.values()]


@pytest.mark.parametrize("keepalive", [True, False])
def test_socket_keepalive_enable_sets_so_keepalive(face, keepalive):
    peer = metadata_peer()
    try:
        with make_client(
            face, peer.address, config={"socket.keepalive.enable": keepalive}
        ) as client:
            client.metadata([])
            socks = client_sockets(face, client)
            assert socks
            for sock in socks:
                assert bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE)) is keepalive
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        peer.close()


def test_socket_buffer_sizes_are_set(face):
    peer = metadata_peer()
    try:
        with make_client(
            face,
            peer.address,
            config={"socket.receive.buffer.bytes": 65536, "send.buffer.bytes": 32768},
        ) as client:
            client.metadata([])
            for sock in client_sockets(face, client):
                # Linux doubles what is asked (its bookkeeping): at least the size asked
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) >= 65536
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) >= 32768
    finally:
        peer.close()


@pytest.mark.parametrize(("idle_ms", "connections"), [(1, 2), (0, 1), (600000, 1)])
def test_connections_max_idle_ms_closes_an_idle_connection_before_its_next_use(
    face, idle_ms, connections
):
    peer = metadata_peer()
    try:
        with make_client(face, peer.address, config={"connections.max.idle.ms": idle_ms}) as client:
            client.metadata([])
            time.sleep(0.05)  # idle for at least 50 ms: past 1 ms, not past 10 minutes
            assert client.metadata([]).controller_id == 1
        handshakes = [h for h, _ in peer.requests if h.request_api_key == ApiKey.API_VERSIONS]
        assert len(handshakes) == 2 * connections  # each handshake is downgraded once
    finally:
        peer.close()


# ---- reconnect backoff ------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_reconnect_backoff_doubles_up_to_its_max_with_jitter():
    clock = Clock()
    draws = iter([0.0, 1.0, 0.5, 1.0, 1.0, 1.0, 0.0])
    backoff = ReconnectBackoff(0.1, 1.0, clock=clock, jitter=lambda: next(draws))
    a = ("h", 1)
    assert backoff.left(a) == 0.0
    assert backoff.failed(a, "refused") == pytest.approx(0.075)  # 0.1 - 25%
    assert backoff.left(a) == pytest.approx(0.075)
    clock.now += 0.05
    assert backoff.left(a) == pytest.approx(0.025)
    assert backoff.left(("h", 2)) == 0.0  # per address
    assert backoff.failed(a, "refused") == pytest.approx(0.3)  # 0.2 + 50%
    assert backoff.failed(a, "refused") == pytest.approx(0.45)  # 0.4 + 12.5%
    assert backoff.failed(a, "refused") == pytest.approx(1.0)  # 0.8 + 50%, capped at the max
    assert backoff.failed(a, "refused") == pytest.approx(1.0)  # the step stays at the max
    assert "h:1 is not dialled again for 1 s" in backoff.refusal(a)
    assert "after: refused" in backoff.refusal(a)
    backoff.connected(a)
    assert backoff.left(a) == 0.0
    assert backoff.failed(a, "refused") == pytest.approx(0.15)  # starts over: 0.1 + 50%
    off = ReconnectBackoff(0.0, 10.0, clock=clock)
    assert off.failed(a, "refused") == 0.0 and off.left(a) == 0.0


@pytest.fixture
def dials(monkeypatch):
    """How many times either transport dialled a broker."""
    count = []
    dial, open_ = sync_transport.dial, aio_transport.AsyncTransport._open

    def counted_dial(*args):
        count.append(args[:2])
        return dial(*args)

    async def counted_open(self, host, port):
        count.append((host, port))
        return await open_(self, host, port)

    monkeypatch.setattr(sync_transport, "dial", counted_dial)
    monkeypatch.setattr(aio_transport.AsyncTransport, "_open", counted_open)
    return count


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed once the with ends: connects are refused


def test_a_broker_whose_connect_failed_is_not_dialled_before_its_backoff(face, dials):
    port = closed_port()
    with make_client(
        face,
        f"127.0.0.1:{port}",
        retries=0,
        request_timeout=1,
        config={"reconnect.backoff.ms": 600000},
    ) as client:
        errors = []
        for _ in range(5):
            with pytest.raises(BrokerConnectionError) as failed:
                client.metadata([])
            errors.append(str(failed.value))
    assert len(dials) == 1
    assert "cannot connect to" in errors[0]
    for error in errors[1:]:
        # fails at once: the backoff (minutes) is longer than the call's whole time
        assert f"127.0.0.1:{port} is not dialled again for" in error
        assert "(reconnect.backoff.ms) after: " in error and "s left" in error


def test_without_a_backoff_every_call_dials(face, dials):
    port = closed_port()
    with make_client(
        face, f"127.0.0.1:{port}", retries=0, request_timeout=1, reconnect_backoff_ms=0
    ) as client:
        for _ in range(5):
            with pytest.raises(BrokerConnectionError, match="cannot connect to"):
                client.metadata([])
    assert len(dials) == 5


def test_a_backoff_shorter_than_the_call_is_waited_for_then_dialled(face, dials):
    port = closed_port()
    with make_client(
        face,
        f"127.0.0.1:{port}",
        retries=0,
        request_timeout=5,
        config={"reconnect.backoff.ms": 1, "reconnect.backoff.max.ms": 1},
    ) as client:
        for _ in range(4):
            # each call dials, whether the backoff has passed or it waits for it first
            with pytest.raises(BrokerConnectionError, match="cannot connect to"):
                client.metadata([])
    assert len(dials) == 4


def test_a_broker_that_comes_back_is_connected_after_its_backoff(face, dials):
    port = closed_port()
    with make_client(
        face,
        f"127.0.0.1:{port}",
        retries=0,
        request_timeout=5,
        config={"reconnect.backoff.ms": 1},
    ) as client:
        with pytest.raises(BrokerConnectionError):
            client.metadata([])
        # the broker starts on that port: the next call waits out the backoff and connects
        peer = metadata_peer_on(port)
        try:
            assert client.metadata([]).controller_id == 1
        finally:
            peer.close()
    assert len(dials) == 2
    assert snake("socket.keepalive.enable") == "socket_keepalive_enable"


def metadata_peer_on(port: int) -> Peer:
    peer = Peer.__new__(Peer)
    peer.server = socket.create_server(("127.0.0.1", port))
    peer.port = port
    peer.requests = []

    def handler(peer, conn, index):
        serve_handshake(peer, conn)
        while serve_metadata(peer, conn):
            pass

    peer.handler = handler
    threading.Thread(target=peer._serve, daemon=True).start()
    return peer


@pytest.mark.parametrize(
    "name, value",
    [("fetch.error.backoff.ms", 100), ("queue.buffering.max.messages", 10), ("throttle_cb", print)],
)
def test_properties_kept_but_not_acted_on_say_so(caplog, name, value):
    """A property whose value is checked and kept, but which changes nothing yet, logs one
    INFO line saying so (not silence)."""
    import logging

    from kafkawire.client import logs
    from kafkawire.client.consumer.config import consumer_config
    from kafkawire.client.producer.config import producer_config

    logs._ignored.discard(name)
    make = producer_config if name == "queue.buffering.max.messages" else consumer_config
    with caplog.at_level(logging.INFO, logger="kafkawire.config"):
        make("127.0.0.1:1", {name: value})
    assert [r.getMessage() for r in caplog.records if name in r.getMessage()], caplog.text
