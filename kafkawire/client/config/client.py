"""Client settings: keyword arguments, or Kafka client properties as confluent-kafka users
write them (librdkafka's names; Java's spellings of the same settings are accepted too).

``ClientConfig`` and the table of the client's properties: the field each sets and the
converter of its value (``values.py``), the properties taken and ignored or refused with why,
and ``client_config``, which reads them (``reading.py``: the rules the consumer's and the
producer's settings share). ``sasl.jaas.config`` is read by ``jaas.py``, a properties file by
``files.py``, and a mistyped name gets the closest known one (``suggestions.py``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE

from ..errors import ConfigError
from ..logs import debug_contexts, log_ignored, logger_setting
from .jaas import jaas_settings
from .reading import (
    Collected,
    _convert,
    check_unused,
    keyword_table,
    owns_keyword,
    owns_property,
    read_property,
)
from .suggestions import _suggest
from .values import (
    _SECRET_FIELDS,
    Secret,
    _buffer_bytes,
    _callable,
    _extensions,
    _family,
    _hostname_check,
    _integer,
    _login_handler,
    _mechanism,
    _no_jks,
    _oauth_method,
    _optional_callable,
    _optional_text,
    _positive_seconds,
    _protocol,
    _refresh_interval,
    _seconds_from_ms,
    _seconds_or_off,
    _servers,
    boolean,
    parse_servers,
)


@dataclass(frozen=True)
class ClientConfig:
    bootstrap_servers: tuple[tuple[str, int], ...]
    client_id: str = "kafkawire"
    request_timeout: float = 30.0  # seconds to wait for each answer (a fetch adds its max wait)
    connect_timeout: float = 10.0  # TCP connect and TLS handshake
    # a blocking call's whole time, its retries included, when it is given no timeout=
    default_api_timeout: float = 60.0
    retries: int = 5  # attempts after a retriable error or a lost connection
    retry_backoff: float = 0.1  # seconds before the first retry, doubling ...
    retry_backoff_max: float = 5.0  # ... up to this
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    security_protocol: str = "PLAINTEXT"
    # TLS (kafkawire.client.tls): CA and client certificate as files or inline PEM
    ssl_ca_location: str | None = None
    ssl_ca_pem: str | None = None
    ssl_certificate_location: str | None = None
    ssl_certificate_pem: str | None = None
    ssl_key_location: str | None = None
    ssl_key_pem: Secret | None = None
    ssl_key_password: Secret | None = None
    ssl_keystore_location: str | None = None  # PKCS#12, or PEM (key and chain in one file)
    ssl_keystore_password: Secret | None = None
    ssl_keystore_type: str | None = None  # None: told apart by the file's first bytes
    ssl_truststore_type: str | None = None  # of ssl_ca_location: PEM or PKCS12, as above
    ssl_truststore_password: Secret | None = None
    ssl_check_hostname: bool = True
    # SASL (kafkawire.client.sasl)
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: Secret | None = None
    sasl_oauthbearer_method: str = "default"  # "oidc": the token endpoint below
    sasl_oauthbearer_token_endpoint_url: str | None = None
    sasl_oauthbearer_client_id: str | None = None
    sasl_oauthbearer_client_secret: Secret | None = None
    sasl_oauthbearer_scope: str | None = None
    sasl_oauthbearer_extensions: tuple[tuple[str, str], ...] = ()
    sasl_oauthbearer_config: str | None = None  # handed to oauth_cb, as confluent-kafka does
    oauth_cb: Callable[..., Any] | None = field(default=None, repr=False)
    # sockets (the transports): SO_KEEPALIVE, TCP_NODELAY, SO_SNDBUF/SO_RCVBUF (0: the system's)
    socket_keepalive: bool = False
    socket_nagle_disable: bool = True
    socket_send_buffer: int = 0
    socket_receive_buffer: int = 0
    broker_address_family: str = "any"  # or "v4", "v6": the addresses a broker is dialled at
    # a broker whose connect failed is not dialled again before this, doubling (with
    # librdkafka's -25%..+50% jitter) up to the max; a connect that works resets it
    reconnect_backoff: float = 0.1
    reconnect_backoff_max: float = 10.0
    # stored for the modules that act on them (see docs/configuration.md):
    client_rack: str | None = None  # KIP-392 fetch from a replica in this rack; KIP-848 rack
    metadata_max_age: float = 300.0  # seconds: metadata refreshed at least this often (inf: never)
    connections_max_idle: float = 0.0  # seconds: close a connection idle this long (0: never)
    allow_auto_create_topics: bool = False  # MetadataRequest.allow_auto_topic_creation
    statistics_interval: float = 0.0  # seconds between stats_cb calls (0: no statistics)
    stats_cb: Callable[[str], Any] | None = field(default=None, repr=False)  # a JSON string
    error_cb: Callable[[BaseException], Any] | None = field(default=None, repr=False)
    throttle_cb: Callable[..., Any] | None = field(default=None, repr=False)
    ssl_cipher_suites: str | None = None  # OpenSSL cipher list (SSLContext.set_ciphers)
    ssl_crl_location: str | None = None  # a CRL file checked for the broker's certificate
    ssl_verify_certificate: bool = True  # enable.ssl.certificate.verification
    https_ca_location: str | None = None  # CA for the OIDC token endpoint
    https_ca_pem: str | None = None
    # logging (kafkawire.client.logs): librdkafka's debug contexts, switched on for the
    # process when a transport starts; a Logger taking the client's messages
    debug: tuple[str, ...] = ()
    logger: logging.Logger | logging.LoggerAdapter | None = field(default=None, repr=False)

    @property
    def uses_tls(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")

    @property
    def uses_sasl(self) -> bool:
        return self.security_protocol.startswith("SASL_")


# property -> (field, conversion); Java's name where it differs from librdkafka's follows
_PROPERTIES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "bootstrap.servers": ("bootstrap_servers", _servers),
    "metadata.broker.list": ("bootstrap_servers", _servers),
    "client.id": ("client_id", str),
    "request.timeout.ms": ("request_timeout", _seconds_from_ms),
    "socket.timeout.ms": ("request_timeout", _seconds_from_ms),
    "socket.connection.setup.timeout.ms": ("connect_timeout", _seconds_from_ms),
    "default.api.timeout.ms": ("default_api_timeout", _seconds_from_ms),
    "retries": ("retries", _integer),
    "retry.backoff.ms": ("retry_backoff", _seconds_from_ms),
    "retry.backoff.max.ms": ("retry_backoff_max", _seconds_from_ms),
    "receive.message.max.bytes": ("max_frame_size", _integer),
    "security.protocol": ("security_protocol", _protocol),
    "ssl.ca.location": ("ssl_ca_location", str),
    "ssl.truststore.location": ("ssl_ca_location", str),
    "ssl.ca.pem": ("ssl_ca_pem", str),
    "ssl.truststore.certificates": ("ssl_ca_pem", str),
    "ssl.certificate.location": ("ssl_certificate_location", str),
    "ssl.certificate.pem": ("ssl_certificate_pem", str),
    "ssl.keystore.certificate.chain": ("ssl_certificate_pem", str),
    "ssl.key.location": ("ssl_key_location", str),
    "ssl.key.pem": ("ssl_key_pem", Secret),
    "ssl.keystore.key": ("ssl_key_pem", Secret),
    "ssl.key.password": ("ssl_key_password", Secret),
    "ssl.keystore.location": ("ssl_keystore_location", str),
    "ssl.keystore.password": ("ssl_keystore_password", Secret),
    "ssl.endpoint.identification.algorithm": ("ssl_check_hostname", _hostname_check),
    "sasl.mechanism": ("sasl_mechanism", _mechanism),
    "sasl.mechanisms": ("sasl_mechanism", _mechanism),
    "sasl.username": ("sasl_username", str),
    "sasl.password": ("sasl_password", Secret),
    "sasl.oauthbearer.method": ("sasl_oauthbearer_method", _oauth_method),
    "sasl.oauthbearer.token.endpoint.url": ("sasl_oauthbearer_token_endpoint_url", str),
    "sasl.oauthbearer.client.id": ("sasl_oauthbearer_client_id", str),
    "sasl.oauthbearer.client.secret": ("sasl_oauthbearer_client_secret", Secret),
    "sasl.oauthbearer.scope": ("sasl_oauthbearer_scope", str),
    "sasl.oauthbearer.extensions": ("sasl_oauthbearer_extensions", _extensions),
    "sasl.oauthbearer.config": ("sasl_oauthbearer_config", str),
    "sasl.login.callback.handler.class": ("sasl_oauthbearer_method", _login_handler),
    "oauth_cb": ("oauth_cb", _callable),
}
_PROPERTIES.update(
    {  # Java's store types: PEM and PKCS12 are read, JKS is refused with the way out
        "ssl.keystore.type": ("ssl_keystore_type", _no_jks),
        "ssl.truststore.type": ("ssl_truststore_type", _no_jks),
        "ssl.truststore.password": ("ssl_truststore_password", Secret),
    }
)
_PROPERTIES.update(
    {
        "sasl.oauthbearer.client.credentials.client.id": ("sasl_oauthbearer_client_id", str),
        "sasl.oauthbearer.client.credentials.client.secret": (
            "sasl_oauthbearer_client_secret",
            Secret,
        ),
        # sockets and connections, acted on by the transports
        "socket.keepalive.enable": ("socket_keepalive", boolean),
        "socket.nagle.disable": ("socket_nagle_disable", boolean),
        "tcp.nodelay": ("socket_nagle_disable", boolean),  # an old librdkafka spelling
        "socket.send.buffer.bytes": ("socket_send_buffer", _buffer_bytes),
        "send.buffer.bytes": ("socket_send_buffer", _buffer_bytes),
        "socket.receive.buffer.bytes": ("socket_receive_buffer", _buffer_bytes),
        "receive.buffer.bytes": ("socket_receive_buffer", _buffer_bytes),
        "broker.address.family": ("broker_address_family", _family),
        "reconnect.backoff.ms": ("reconnect_backoff", _seconds_or_off),
        "reconnect.backoff.max.ms": ("reconnect_backoff_max", _seconds_or_off),
        # stored for the modules that act on them
        "client.rack": ("client_rack", _optional_text),
        "metadata.max.age.ms": ("metadata_max_age", _positive_seconds),
        "topic.metadata.refresh.interval.ms": ("metadata_max_age", _refresh_interval),
        "connections.max.idle.ms": ("connections_max_idle", _seconds_or_off),
        "allow.auto.create.topics": ("allow_auto_create_topics", boolean),
        "statistics.interval.ms": ("statistics_interval", _seconds_or_off),
        "stats_cb": ("stats_cb", _optional_callable),
        "error_cb": ("error_cb", _optional_callable),
        "throttle_cb": ("throttle_cb", _optional_callable),
        "ssl.cipher.suites": ("ssl_cipher_suites", _optional_text),
        "ssl.crl.location": ("ssl_crl_location", _optional_text),
        "enable.ssl.certificate.verification": ("ssl_verify_certificate", boolean),
        "https.ca.location": ("https_ca_location", _optional_text),
        "https.ca.pem": ("https_ca_pem", _optional_text),
        "debug": ("debug", debug_contexts),
        "logger": ("logger", logger_setting),
    }
)

# properties taken and ignored (one INFO line each, once a process), as they mean nothing for
# this client: name -> (the values taken, or None for any; why). Another value is refused,
# with the same why.
_JVM = "a JVM client's setting with no meaning outside the JVM"
_C_LIBRARY = "a setting of librdkafka's C internals with no meaning here"
_DEPRECATED = "deprecated and unused in librdkafka too"
_TOKEN_TIMING = "this client decides when to refresh a SASL token and how to fetch it"
IGNORED: dict[str, tuple[tuple[str, ...] | None, str]] = {
    "api.version.request": (("true",), "this client always asks a broker for its versions"),
    "api.version.request.timeout.ms": (None, "ApiVersions is a request like any other"),
    "api.version.fallback.ms": (None, "brokers' API versions are always asked"),
    "broker.version.fallback": (None, "brokers' API versions are always asked"),
    "builtin.features": (None, "a list of librdkafka's build options"),
    "broker.address.ttl": (None, "addresses are resolved at every connect"),
    "socket.max.fails": (
        ("1",),
        "a request that times out always closes its connection (its late answer must not "
        "be taken for another's)",
    ),
    "socket.blocking.max.ms": (None, _DEPRECATED),
    "reconnect.backoff.jitter.ms": (None, _DEPRECATED + " (reconnect.backoff.ms has jitter)"),
    "topic.metadata.refresh.fast.cnt": (None, _DEPRECATED),
    "topic.metadata.refresh.fast.interval.ms": (
        None,
        "a partition without a leader has metadata asked at retry.backoff.ms",
    ),
    "topic.metadata.refresh.sparse": (None, "metadata requests always name their topics"),
    "metadata.recovery.strategy": (
        None,
        "the bootstrap servers are always tried when no known broker answers",
    ),
    "metadata.recovery.rebootstrap.trigger.ms": (
        None,
        "the bootstrap servers are always tried when no known broker answers",
    ),
    "message.copy.max.bytes": (None, _C_LIBRARY),
    "enabled_events": (None, _C_LIBRARY),
    "log_level": (None, "the kafkawire.* loggers' levels decide (Python logging)"),
    "log.queue": (None, "log messages go to Python logging from the caller's thread"),
    "log.thread.name": (None, _C_LIBRARY),
    "log.connection.close": (None, "disconnects are logged at DEBUG (kafkawire.broker)"),
    "enable.random.seed": (None, _C_LIBRARY),
    "internal.termination.signal": (None, _C_LIBRARY),
    "ssl.ca.certificate.stores": (None, "Windows certificate stores are not read"),
    "client.dns.lookup": (
        ("use_all_dns_ips", "default"),
        "every address of a broker's name is tried in turn",
    ),
    "enable.metrics.push": (None, "this client pushes no metrics to the cluster (KIP-714)"),
    "socket.connection.setup.timeout.max.ms": (
        None,
        "a connect has socket.connection.setup.timeout.ms, not growing",
    ),
    "sasl.oauthbearer.grant.type": (
        ("client_credentials",),
        "the token endpoint is asked with the client_credentials grant",
    ),
    "sasl.oauthbearer.metadata.authentication.type": (
        ("none",),
        "cloud metadata token sources are not built in: pass oauth_cb=, a callable returning "
        "(token, expiry)",
    ),
    "sasl.oauthbearer.sub.claim.name": (None, "the token is sent as it is, not read"),
    "sasl.oauthbearer.scope.claim.name": (None, "the token is sent as it is, not read"),
    "sasl.oauthbearer.header.urlencode": (None, _TOKEN_TIMING),
    "enable.sasl.oauthbearer.unsecure.jwt": (
        ("false",),
        "unsigned test tokens are not made here: pass oauth_cb=",
    ),
    "sasl.login.refresh.window.factor": (None, _TOKEN_TIMING),
    "sasl.login.refresh.window.jitter": (None, _TOKEN_TIMING),
    "sasl.login.refresh.min.period.seconds": (None, _TOKEN_TIMING),
    "sasl.login.refresh.buffer.seconds": (None, _TOKEN_TIMING),
    "sasl.login.connect.timeout.ms": (None, _TOKEN_TIMING),
    "sasl.login.read.timeout.ms": (None, _TOKEN_TIMING),
    "sasl.login.retry.backoff.ms": (None, _TOKEN_TIMING),
    "sasl.login.retry.backoff.max.ms": (None, _TOKEN_TIMING),
    "ssl.protocol": (
        ("tls", "tlsv1.2", "tlsv1.3"),
        "the newest TLS both ends speak is used, TLS 1.2 at least",
    ),
    "ssl.enabled.protocols": (
        ("tlsv1.2", "tlsv1.3", "tlsv1.2,tlsv1.3", "tlsv1.3,tlsv1.2"),
        "TLS 1.2 and 1.3 are the versions used",
    ),
    "ssl.keymanager.algorithm": (None, _JVM),
    "ssl.trustmanager.algorithm": (None, _JVM),
    "ssl.secure.random.implementation": (None, _JVM),
    "ssl.provider": (None, _JVM),
    "metrics.num.samples": (None, _JVM + " (JMX metrics)"),
    "metrics.sample.window.ms": (None, _JVM + " (JMX metrics)"),
    "metrics.recording.level": (None, _JVM + " (JMX metrics)"),
    "metric.reporters": (None, _JVM + " (JMX metrics)"),
    "auto.include.jmx.reporter": (None, _JVM + " (JMX metrics)"),
}

_BROKER_SIDE = "a setting for validating tokens, which brokers do (the client sends its token)"
for _name in (
    "sasl.oauthbearer.jwks.endpoint.url",
    "sasl.oauthbearer.jwks.endpoint.refresh.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
    "sasl.oauthbearer.clock.skew.seconds",
    "sasl.oauthbearer.expected.audience",
    "sasl.oauthbearer.expected.issuer",
):
    IGNORED[_name] = (None, _BROKER_SIDE)

# properties refused whatever their value: name -> why (what to do instead)
REFUSED: dict[str, str] = {
    "default_topic_conf": "a librdkafka C API setting: give topic properties at the top level "
    "(confluent-kafka's default.topic.config mapping is read too)",
    "sasl.oauthbearer.jwt.retriever.class": _JVM + ": pass oauth_cb= for a token source",
    "sasl.oauthbearer.jwt.validator.class": _JVM,
    "topic.blacklist": "topics are not hidden from metadata here; subscribe to the ones wanted",
    "log_cb": "pass logger=, a logging.Logger (confluent-kafka's setting)",
    "background_event_cb": "a librdkafka C API callback",
    "socket_cb": "a librdkafka C API callback",
    "connect_cb": "a librdkafka C API callback",
    "closesocket_cb": "a librdkafka C API callback",
    "open_cb": "a librdkafka C API callback",
    "resolve_cb": "a librdkafka C API callback",
    "opaque": "a librdkafka C API setting: keep the object in your own code",
    "ssl_key": "a librdkafka C API setting: use ssl.key.pem or ssl.key.location",
    "ssl_certificate": "a librdkafka C API setting: use ssl.certificate.pem or .location",
    "ssl_ca": "a librdkafka C API setting: use ssl.ca.pem or ssl.ca.location",
    "ssl.certificate.verify_cb": "a librdkafka C API callback",
    "ssl_engine_callback_data": "a librdkafka C API setting",
    "ssl.curves.list": "Python's ssl module cannot set the TLS curve list",
    "ssl.sigalgs.list": "Python's ssl module cannot set the TLS signature algorithms",
    "ssl.providers": "OpenSSL providers cannot be loaded from Python's ssl module",
    "ssl.engine.location": "OpenSSL engines cannot be loaded from Python's ssl module",
    "ssl.engine.id": "OpenSSL engines cannot be loaded from Python's ssl module",
    "ssl.engine.factory.class": _JVM,
    "security.providers": _JVM,
    "sasl.login.class": _JVM + ": pass oauth_cb= for a token source of your own",
    "sasl.client.callback.handler.class": _JVM,
    "oauthbearer_token_refresh_cb": "pass oauth_cb=, a callable returning (token, expiry)",
    "plugin.library.paths": "librdkafka plugins are C libraries",
    "interceptors": "librdkafka interceptors are C plugins",
    "interceptor.classes": _JVM,
    "sasl.oauthbearer.assertion.algorithm": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.private.key.file": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.private.key.passphrase": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.private.key.pem": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.file": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.claim.aud": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.claim.exp.seconds": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.claim.iss": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.claim.jti.include": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.claim.nbf.seconds": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.claim.sub": "the jwt-bearer grant is not supported",
    "sasl.oauthbearer.assertion.jwt.template.file": "the jwt-bearer grant is not supported",
}
for _name in (
    "sasl.kerberos.service.name",
    "sasl.kerberos.principal",
    "sasl.kerberos.kinit.cmd",
    "sasl.kerberos.keytab",
    "sasl.kerberos.min.time.before.relogin",
    "sasl.kerberos.ticket.renew.window.factor",
    "sasl.kerberos.ticket.renew.jitter",
):
    REFUSED[_name] = "GSSAPI (Kerberos) is not supported; PLAIN, SCRAM-* and OAUTHBEARER are"

_FIELDS = {f.name for f in fields(ClientConfig)}


# keyword arguments checked as their properties are
_KEYWORD_CHECKS: dict[str, Callable[[Any], Any]] = {
    "security_protocol": _protocol,
    "sasl_mechanism": _mechanism,
    "sasl_oauthbearer_method": _oauth_method,
    "sasl_oauthbearer_extensions": _extensions,
    "oauth_cb": _callable,
}

_KEYWORDS = keyword_table(_PROPERTIES, IGNORED, REFUSED, {"sasl.jaas.config": None})
_DEFAULTS = {f.name: f.default for f in fields(ClientConfig)}


def _take(collected: Collected, name: str, value: Any, keyword: str | None) -> None:
    """One client property (from ``config=``, or as ``keyword``)."""
    if name == "sasl.jaas.config":
        what = f"client setting {keyword!r}" if keyword else f"client property {name!r}"
        jaas = _convert(what, jaas_settings, value)
        mechanism = jaas.pop("sasl_mechanism", None)
        for field_name, setting in jaas.items():
            collected.put(field_name, setting, keyword or name, keyword is not None)
        if mechanism is not None and "sasl_mechanism" not in collected.values:
            # implied by the login module, not given: sasl.mechanism or a keyword may differ
            collected.values["sasl_mechanism"] = mechanism
    elif not check_unused("client", name, value, IGNORED, REFUSED):
        read_property(collected, _PROPERTIES, _DEFAULTS, name, value, keyword)


def is_client_property(name: str) -> bool:
    """Whether ``name`` is a property ``client_config`` takes (for the consumer's split)."""
    return name in _PROPERTIES or name in IGNORED or name in REFUSED or name == "sasl.jaas.config"


def is_client_keyword(name: str) -> bool:
    """Whether ``name`` is a keyword ``client_config`` takes."""
    return (name in _FIELDS or name in _KEYWORDS) and name != "bootstrap_servers"


def client_names() -> list[str]:
    """Every property name the client settings take (for suggestions)."""
    return [*_PROPERTIES, *IGNORED, *REFUSED, "sasl.jaas.config"]


def client_keywords() -> list[str]:
    """Every keyword name the client settings take (for suggestions)."""
    return [n for n in {*_FIELDS, *_KEYWORDS} if n != "bootstrap_servers"]


def suggest(name: str, known) -> str:
    """`` (did you mean 'x'?)`` for the name closest to ``name`` among ``known`` and the client
    properties (or, for a keyword without dots, the client keywords), or ""."""
    extra = client_keywords() if "." not in name and "_" in name else client_names()
    return _suggest(name, [*known, *extra])


def client_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> ClientConfig:
    """The settings from ``config`` (Kafka property names), then ``kwargs``: field names, or
    a property's name in snake case (``socket_keepalive_enable`` for
    ``socket.keepalive.enable``, converted as the property is).

    :raises ConfigError: an unknown name (the closest known one is suggested), a value of the
        wrong kind, or a keyword that sets what a property or another keyword already set, to
        another value.
    """
    collected = Collected("client")
    for name, value in (config or {}).items():
        if not is_client_property(name):
            if _elsewhere(name) is not None:  # a shared dict: librdkafka takes it too
                log_ignored(name, f"a {_elsewhere(name)} property, which this client does not use")
                continue
            raise ConfigError(f"unknown client property {name!r}{_suggest(name, client_names())}")
        _take(collected, name, value, None)
    for name, value in kwargs.items():
        if name in _KEYWORDS and name != "bootstrap_servers":
            _take(collected, _KEYWORDS[name], value, name)
            continue
        if name not in _FIELDS or name == "bootstrap_servers":
            if _elsewhere(name) is not None:
                log_ignored(name, f"a {_elsewhere(name)} setting, which this client does not use")
                continue
            raise ConfigError(f"unknown client setting {name!r}{_suggest(name, client_keywords())}")
        if name in _KEYWORD_CHECKS and value is not None:
            value = _convert(f"client setting {name!r}", _KEYWORD_CHECKS[name], value)
        value = Secret(value) if name in _SECRET_FIELDS and value is not None else value
        collected.put(name, value, name, True)
    values = collected.values
    if bootstrap_servers is not None:
        values["bootstrap_servers"] = parse_servers(bootstrap_servers)
    if "bootstrap_servers" not in values:
        raise ConfigError("no bootstrap servers: pass them, or set bootstrap.servers")
    settings = ClientConfig(values.pop("bootstrap_servers"))
    settings = replace(settings, **values)
    if settings.reconnect_backoff > settings.reconnect_backoff_max:
        # librdkafka's rule: the max is at least the first backoff
        settings = replace(settings, reconnect_backoff_max=settings.reconnect_backoff)
    return settings


def _elsewhere(name: str) -> str | None:
    """ "consumer" or "producer" when ``name`` is a property or keyword of only that."""
    for kind in ("consumer", "producer"):
        if owns_property(kind, name) or owns_keyword(kind, name):
            return kind
    return None
