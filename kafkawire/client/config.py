"""Client settings: keyword arguments, or Kafka client properties as confluent-kafka users
write them (librdkafka's names; Java's spellings of the same settings are accepted too)."""

from __future__ import annotations

import difflib
import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE

from .errors import ConfigError
from .logs import debug_contexts, log_ignored, logger_setting


class Secret(str):
    """A password, key or token: the value, which never shows in a repr."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Secret('***')"


SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


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


def _integer(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        # int()'s own message quotes the value, and a mistaken value may be a secret
        raise ValueError(f"expects a whole number, not that {type(value).__name__}") from None


def _seconds_from_ms(value: Any) -> float:
    return _integer(value) / 1000


def _servers(value: Any) -> tuple[tuple[str, int], ...]:
    return parse_servers(value)


def _protocol(value: Any) -> str:
    protocol = str(value).upper()
    if protocol not in SECURITY_PROTOCOLS:
        raise ValueError(f"{value!r} is none of {', '.join(SECURITY_PROTOCOLS)}")
    return protocol


def _hostname_check(value: Any) -> bool:
    algorithm = str(value).lower()
    if algorithm not in ("https", "none", ""):
        raise ValueError(f"{value!r} is neither 'https' nor 'none'")
    return algorithm == "https"


def _no_jks(value: Any) -> str:
    if str(value).upper() == "JKS":
        raise ValueError(
            "JKS keystores cannot be read outside the JVM: convert it with `keytool "
            "-importkeystore -srckeystore store.jks -destkeystore store.p12 "
            "-deststoretype PKCS12` and use the .p12 file"
        )
    if str(value).upper() not in ("PKCS12", "PEM"):
        raise ValueError(f"{value!r} is neither PKCS12 nor PEM")
    return str(value).upper()


def _mechanism(value: Any) -> str:
    mechanism = str(value).strip().upper()
    if mechanism == "GSSAPI":
        raise ValueError("GSSAPI (Kerberos) is not supported; PLAIN, SCRAM-* and OAUTHBEARER are")
    return mechanism


def _oauth_method(value: Any) -> str:
    method = str(value).lower()
    if method not in ("default", "oidc"):
        raise ValueError(f"{value!r} is neither 'default' nor 'oidc'")
    return method


_EXTENSION_KEY = re.compile(r"[A-Za-z]+")
_EXTENSION_VALUE = re.compile(r"[\x21-\x7e \t\r\n]+")  # RFC 7628's value characters


def _extensions(value: Any) -> tuple[tuple[str, str], ...]:
    """ "key=value,key=value" (librdkafka), or a mapping."""
    items = value.items() if isinstance(value, Mapping) else _pairs(str(value))
    extensions = []
    for key, text in items:
        if not _EXTENSION_KEY.fullmatch(key) or key == "auth":
            raise ValueError(f"extension name {key!r} is not letters only, or is 'auth'")
        if not _EXTENSION_VALUE.fullmatch(str(text)):
            raise ValueError(f"the value of extension {key!r} has characters RFC 7628 refuses")
        extensions.append((key, str(text)))
    return tuple(extensions)


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"{key!r} is not key=value")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _callable(value: Any) -> Callable[..., Any]:
    if not callable(value):
        raise TypeError(f"expects a callable, not a {type(value).__name__}")
    return value


# Java's login callback handlers that only mean "fetch tokens from the token endpoint"
_OIDC_HANDLERS = {
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
    "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler",
}


def _login_handler(value: Any) -> str:
    if str(value).strip() not in _OIDC_HANDLERS:
        raise ValueError(
            "JVM callback handler classes cannot load in Python: for a token endpoint set "
            "sasl.oauthbearer.token.endpoint.url (with the client id and secret in "
            "sasl.jaas.config or sasl.oauthbearer.client.*); for another token source (MSK "
            "IAM, say) pass oauth_cb=, a callable returning (token, expiry)"
        )
    return "oidc"


def boolean(value: Any) -> bool:
    """A bool, or "true"/"false" (any case) as properties files and librdkafka write them."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ValueError(f"expects true or false, not that {type(value).__name__}")


def _count(value: Any) -> int:
    """A whole number >= 0."""
    if isinstance(value, bool):
        raise ValueError("expects a whole number, not a bool")
    number = _integer(value)
    if number < 0:
        raise ValueError(f"is {number}, not a count >= 0")
    return number


def _seconds_or_off(value: Any) -> float:
    """Milliseconds >= 0 (0: off), as seconds."""
    return _count(value) / 1000


def _refresh_interval(value: Any) -> float:
    """topic.metadata.refresh.interval.ms: milliseconds, -1 for no timed refresh."""
    ms = _integer(value)
    if ms == -1:
        return math.inf
    if ms <= 0:
        raise ValueError(f"is {ms}, not a time in ms > 0 (or -1: no timed refresh)")
    return ms / 1000


def _positive_seconds(value: Any) -> float:
    ms = _integer(value)
    if ms <= 0 or isinstance(value, bool):
        raise ValueError(f"is {ms}, not a time in ms > 0")
    return ms / 1000


def _buffer_bytes(value: Any) -> int:
    """A socket buffer size: librdkafka's 0 or Java's -1 mean the system's."""
    size = _integer(value)
    if size < -1:
        raise ValueError(f"is {size}, not a size >= 0 (0 or -1: the system's)")
    return max(size, 0)


def _family(value: Any) -> str:
    family = str(value).strip().lower()
    if family not in ("any", "v4", "v6"):
        raise ValueError(f"{value!r} is none of any, v4, v6")
    return family


def _optional_callable(value: Any) -> Callable[..., Any] | None:
    return None if value is None else _callable(value)


def _optional_text(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"expects a string, not a {type(value).__name__}")
    return value


def snake(name: str) -> str:
    """A property's keyword name: ``linger.ms`` -> ``linger_ms``."""
    return re.sub(r"[.\-]", "_", name)


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


def _plain(value: Any) -> str:
    """A value as the IGNORED table lists them: "true"/"false", or lower-case text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().lower().replace(" ", "")


def check_unused(kind: str, name: str, value: Any, ignored: Mapping, refused: Mapping) -> bool:
    """Whether ``name`` is in the ``ignored`` or ``refused`` table of a ``kind`` of client
    (then ignored, with its line logged); a value it cannot honour is a ConfigError."""
    if name in refused:
        raise ConfigError(f"{kind} property {name!r} is not supported: {refused[name]}")
    if name not in ignored:
        return False
    values, why = ignored[name]
    if values is not None and _plain(value) not in values:
        # the value is left out: not a secret here, but one rule for every message
        raise ConfigError(
            f"{kind} property {name!r} cannot be set to that value here (only "
            f"{' or '.join(repr(v) for v in values)}): {why}"
        )
    log_ignored(name, why)
    return True


# JAAS login modules (Java's sasl.jaas.config) and the settings their options become
_JAAS_MODULES = {
    "org.apache.kafka.common.security.plain.PlainLoginModule": "PLAIN",
    "org.apache.kafka.common.security.scram.ScramLoginModule": "SCRAM",
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule": "OAUTHBEARER",
}
_JAAS_OPTIONS = {
    "PLAIN": {"username": "sasl_username", "password": "sasl_password"},
    "SCRAM": {"username": "sasl_username", "password": "sasl_password"},
    "OAUTHBEARER": {
        "clientId": "sasl_oauthbearer_client_id",
        "clientSecret": "sasl_oauthbearer_client_secret",
        "scope": "sasl_oauthbearer_scope",
    },
}
_JAAS_ENTRY = re.compile(
    r"\s*([\w.$]+)\s+(required|requisite|sufficient|optional)\b(.*?);\s*$", re.S
)
_JAAS_OPTION = re.compile(r'\s*([\w.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))')


def jaas_settings(text: str) -> dict[str, Any]:
    """The client settings of a ``sasl.jaas.config`` entry: PlainLoginModule and
    ScramLoginModule (username, password), OAuthBearerLoginModule (clientId, clientSecret,
    scope, extension_<name>). Error messages never quote option values (they are secrets)."""
    entry = _JAAS_ENTRY.fullmatch(text)
    if entry is None:
        raise ValueError('is not `<LoginModule class> required <name>="<value>" ... ;`')
    module, _, options = entry.groups()
    kind = _JAAS_MODULES.get(module)
    if kind is None:
        hint = ""
        if "iam" in module.lower():
            hint = (
                ": for MSK IAM pass oauth_cb=, a callable returning a token from "
                "aws-msk-iam-sasl-signer-python, with sasl.mechanism OAUTHBEARER"
            )
        raise ValueError(f"login module {module} cannot be used outside the JVM{hint}")
    settings: dict[str, Any] = {}
    extensions: dict[str, str] = {}
    position = 0
    while position < len(options.rstrip()):
        option = _JAAS_OPTION.match(options, position)
        if option is None:
            raise ValueError(f"cannot read the options of {module} from character {position}")
        name, quoted, bare = option.groups()
        value = bare if quoted is None else re.sub(r"\\(.)", r"\1", quoted)
        position = option.end()
        known = _JAAS_OPTIONS[kind]
        if kind == "OAUTHBEARER" and name.startswith("extension_"):
            extensions[name.removeprefix("extension_")] = value
        elif name in known:
            field_name = known[name]
            settings[field_name] = Secret(value) if field_name in _SECRET_FIELDS else value
        else:
            raise ValueError(f"{module} takes no option {name!r}{_suggest(name, known)}")
    if extensions:
        settings["sasl_oauthbearer_extensions"] = _extensions(extensions)
    if kind != "SCRAM":  # SCRAM's module serves both hashes: sasl.mechanism says which
        settings["sasl_mechanism"] = kind
    return settings


_SECRET_FIELDS = {
    "ssl_key_pem",
    "ssl_key_password",
    "ssl_keystore_password",
    "ssl_truststore_password",
    "sasl_password",
    "sasl_oauthbearer_client_secret",
}
_FIELDS = {f.name for f in fields(ClientConfig)}


# keyword arguments checked as their properties are
_KEYWORD_CHECKS: dict[str, Callable[[Any], Any]] = {
    "security_protocol": _protocol,
    "sasl_mechanism": _mechanism,
    "sasl_oauthbearer_method": _oauth_method,
    "sasl_oauthbearer_extensions": _extensions,
    "oauth_cb": _callable,
}


def keyword_table(*tables: Mapping[str, Any]) -> dict[str, str]:
    """Keyword name -> property, for every property of ``tables``: ``linger_ms`` means
    ``linger.ms`` (converted the same way: milliseconds stay milliseconds)."""
    return {snake(name): name for table in tables for name in table}


_KEYWORDS = keyword_table(_PROPERTIES, IGNORED, REFUSED, {"sasl.jaas.config": None})
_DEFAULTS = {f.name: f.default for f in fields(ClientConfig)}


class Collected:
    """The settings of one dataclass as they are read, with who set each (a property of
    ``config=``, or a keyword): a keyword may not differ from a property or another keyword
    setting the same thing (two properties may: the later one counts, as in librdkafka)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.values: dict[str, Any] = {}
        self._by: dict[str, tuple[str, bool]] = {}

    def put(self, field_name: str, value: Any, name: str, keyword: bool) -> None:
        before = self._by.get(field_name)
        if before is not None and (keyword or before[1]) and self.values[field_name] != value:
            # the values are left out: they may be secrets
            raise ConfigError(
                f"{_source(*before)} and {_source(name, keyword)} both set the {self.kind} "
                f"setting {field_name!r}, to different values: give it once"
            )
        self.values[field_name] = value
        self._by[field_name] = (name, keyword)


def _source(name: str, keyword: bool) -> str:
    return f"keyword {name}=" if keyword else f"property {name!r}"


# kept in the settings (their values checked) but not acted on yet: one INFO line each
NOT_ACTED_ON = {
    "throttle_cb": "broker throttle times are not reported yet",
    "fetch.error.backoff.ms": "a failed fetch is tried again after retry.backoff.ms, doubling",
    "queue.buffering.max.messages": "the buffer is bounded by queue.buffering.max.kbytes",
    **dict.fromkeys(
        (
            "compression.level",
            "compression.gzip.level",
            "compression.lz4.level",
            "compression.zstd.level",
        ),
        "each codec compresses at its default level",
    ),
}


def read_property(
    collected: Collected,
    table: Mapping[str, tuple[str, Callable[[Any], Any]]],
    defaults: Mapping[str, Any],
    name: str,
    value: Any,
    keyword: str | None = None,
) -> None:
    """Put property ``name`` (given as ``keyword``, or in ``config=``) into ``collected``: its
    field, converted. A keyword's None keeps None where the setting may be unset."""
    if name in NOT_ACTED_ON:
        log_ignored(name, NOT_ACTED_ON[name])
    field_name, convert = table[name]
    what = (
        f"{collected.kind} setting {keyword!r}"
        if keyword
        else f"{collected.kind} property {name!r}"
    )
    if value is None and keyword is not None and defaults[field_name] is None:
        converted = None
    else:
        converted = _convert(what, convert, value)
    if field_name in _SECRET_FIELDS and converted is not None:
        converted = Secret(converted)
    collected.put(field_name, converted, keyword or name, keyword is not None)


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


def read_properties(path: str) -> dict[str, str]:
    """The settings of a Java properties file (``client.properties``, as Kafka's tools take
    with ``--command-config``): ``key=value``, ``key: value`` or ``key value`` lines, ``#`` and
    ``!`` comments, a trailing backslash continuing the line, ``\\uXXXX`` and ``\\t``-style
    escapes."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise ConfigError(f"{path} cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    properties: dict[str, str] = {}
    logical = ""
    for line in lines:
        stripped = line.lstrip()
        if not logical and (not stripped or stripped[0] in "#!"):
            continue
        logical += stripped
        if len(logical) - len(logical.rstrip("\\")) & 1:  # an odd count of backslashes
            logical = logical[:-1]
            continue
        key, value = _property_line(logical)
        properties[key] = value
        logical = ""
    if logical:
        key, value = _property_line(logical)
        properties[key] = value
    return properties


_PROPERTY_KEY = re.compile(r"((?:[^\\\s=:]|\\.)*)\s*[=:]?\s*", re.S)
_PROPERTY_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _property_line(line: str) -> tuple[str, str]:
    match = _PROPERTY_KEY.match(line)
    assert match is not None  # the pattern matches any line, if only its empty start
    return _unescape(match.group(1)), _unescape(line[match.end() :])


def _unescape(text: str) -> str:
    def one(match: re.Match) -> str:
        escaped = match.group(1)
        if escaped.startswith("u"):
            return chr(int(escaped[1:], 16))
        return _PROPERTY_ESCAPES.get(escaped, escaped)

    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", one, text)


def parse_servers(servers: str | Sequence[str]) -> tuple[tuple[str, int], ...]:
    """ "host:port,host:port" or a list of "host:port" ("[::1]:9092" for IPv6)."""
    if isinstance(servers, str):
        servers = [s for s in servers.split(",") if s.strip()]
    parsed = []
    for server in servers:
        host, sep, port = server.strip().rpartition(":")
        if not sep or not port.isdigit():
            raise ConfigError(f"bootstrap server {server!r} is not host:port")
        parsed.append((host.strip("[]"), int(port)))
    if not parsed:
        raise ConfigError("no bootstrap servers given")
    return tuple(parsed)


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


# The consumer's and the producer's own properties and keywords, told here by their modules
# (consumer/config.py, producer/config.py) as they are imported, which the package's
# __init__ does for every import of kafkawire.client: a client, consumer or producer given the
# others' settings (one dict shared, as librdkafka allows) logs and ignores them, and no
# settings module needs to import another's.
_OWN: dict[str, tuple[Callable[[str], bool], Callable[[str], bool]]] = {}


def register_settings(
    kind: str, is_property: Callable[[str], bool], is_keyword: Callable[[str], bool]
) -> None:
    """``kind`` ("consumer", "producer") owns the names these say it does."""
    _OWN[kind] = (is_property, is_keyword)


def owns_property(kind: str, name: str) -> bool:
    own = _OWN.get(kind)
    return own is not None and own[0](name)


def owns_keyword(kind: str, name: str) -> bool:
    own = _OWN.get(kind)
    return own is not None and own[1](name)


def _elsewhere(name: str) -> str | None:
    """ "consumer" or "producer" when ``name`` is a property or keyword of only that."""
    for kind in ("consumer", "producer"):
        if owns_property(kind, name) or owns_keyword(kind, name):
            return kind
    return None


def _convert(what: str, convert: Callable[[Any], Any], value: Any) -> Any:
    try:
        return convert(value)
    except (TypeError, ValueError) as exc:
        # the value is left out: it may be a secret
        if not what.startswith(("client ", "consumer ", "producer ")):
            what = f"client property {what!r}"
        raise ConfigError(f"{what}: {exc}") from None


_WORD = re.compile(r"[._\-]+")


def _words(name: str) -> list[str]:
    return [w for w in _WORD.split(name.lower()) if w]


def _word_score(typed: list[str], known: list[str]) -> float:
    """How alike two names are word by word: each typed word matched to the most alike
    unmatched known word (difflib's ratio, 0.75 at least to count; for words of up to three
    letters, one letter wrong after the same first letter counts: "mz" for "ms"), as 2 * the
    matched likeness / all the words of both (1: the same words, in any order)."""
    if not typed or not known:
        return 0.0
    left = list(known)
    total = 0.0
    for word in typed:
        best, score = None, 0.75
        for candidate in left:
            ratio = (
                1.0 if candidate == word else difflib.SequenceMatcher(None, word, candidate).ratio()
            )
            if _one_letter_off(word, candidate):
                ratio = max(ratio, 0.75)
            if ratio >= score:
                best, score = candidate, ratio
        if best is not None:
            left.remove(best)
            total += score
    return 2 * total / (len(typed) + len(known))


def _one_letter_off(word: str, other: str) -> bool:
    """Short words (units, "id", "max") the same but for one letter, not the first."""
    if len(word) != len(other) or len(word) > 3 or word[0] != other[0]:
        return False
    return sum(a != b for a, b in zip(word, other, strict=True)) == 1


def _likeness(name: str, known: str) -> float:
    typed, words = _words(name), _words(known)
    score = _word_score(typed, words)
    # the same letters with the dots dropped or moved ("lingerms", "enableauto.commit")
    joined = difflib.SequenceMatcher(None, "".join(typed), "".join(words)).ratio()
    return max(score, joined if joined >= 0.9 else 0.0)


def _suggest(name: str, known) -> str:
    """`` (did you mean 'x'?)`` for the known name most like ``name`` by its dotted (or
    snake-case) words, when one is alike enough; else ""."""
    best, score = None, (0.7, 0.0)
    for candidate in sorted(set(known)):
        # ties (the same words in another order) go to the most alike whole name
        likeness = (
            _likeness(name, candidate),
            difflib.SequenceMatcher(None, name, candidate).ratio(),
        )
        if likeness[0] > 0.7 and likeness > score:
            best, score = candidate, likeness
    return f" (did you mean {best!r}?)" if best else ""
