"""Client settings: keyword arguments, or Kafka client properties as confluent-kafka users
write them (librdkafka's names; Java's spellings of the same settings are accepted too)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE

from .errors import ConfigError


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
    return name in _PROPERTIES or name == "sasl.jaas.config"


def suggest(name: str, known) -> str:
    """`` (did you mean 'x'?)`` for the known name closest to ``name``, or ""."""
    return _suggest(name, [*known, *_PROPERTIES])


def client_config(
    bootstrap_servers: str | Sequence[str] | None,
    config: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> ClientConfig:
    """The settings from ``config`` (Kafka property names), then ``kwargs`` (field names),
    which override it.

    :raises ConfigError: an unknown name (the closest known one is suggested) or a value of
        the wrong kind.
    """
    values: dict[str, Any] = {}
    for name, value in (config or {}).items():
        if name == "sasl.jaas.config":
            jaas = _convert(name, jaas_settings, value)
            mechanism = jaas.pop("sasl_mechanism", None)
            values.update(jaas)
            if mechanism is not None:
                values.setdefault("sasl_mechanism", mechanism)
            continue
        if name not in _PROPERTIES:
            known = [*_PROPERTIES, "sasl.jaas.config"]
            raise ConfigError(f"unknown client property {name!r}{_suggest(name, known)}")
        field, convert = _PROPERTIES[name]
        values[field] = _convert(name, convert, value)
    for name, value in kwargs.items():
        if name not in _FIELDS or name == "bootstrap_servers":
            raise ConfigError(f"unknown client setting {name!r}{_suggest(name, _FIELDS)}")
        if name in _KEYWORD_CHECKS and value is not None:
            value = _convert(name, _KEYWORD_CHECKS[name], value)
        values[name] = Secret(value) if name in _SECRET_FIELDS and value is not None else value
    if bootstrap_servers is not None:
        values["bootstrap_servers"] = parse_servers(bootstrap_servers)
    if "bootstrap_servers" not in values:
        raise ConfigError("no bootstrap servers: pass them, or set bootstrap.servers")
    settings = ClientConfig(values.pop("bootstrap_servers"))
    return replace(settings, **values)


def _convert(name: str, convert: Callable[[Any], Any], value: Any) -> Any:
    try:
        return convert(value)
    except (TypeError, ValueError) as exc:
        # the value is left out: it may be a secret
        raise ConfigError(f"client property {name!r}: {exc}") from None


def _suggest(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
