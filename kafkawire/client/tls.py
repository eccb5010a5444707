"""The TLS side of the client: an ``ssl.SSLContext`` from the client's settings.

Verification and the hostname check are on by default (``ssl.endpoint.identification.algorithm``
"none" turns the hostname check off, as in Kafka's clients); the system's CAs are trusted unless
a CA file or inline PEM is given; TLS 1.2 is the oldest version offered. A client certificate
comes as PEM files, inline PEM (key possibly encrypted: ``ssl.key.password``) or a PKCS#12
keystore (read with the ``cryptography`` package). Building the context reads files; the
transports do the handshake (server name sent for SNI and checked against the certificate).
"""

from __future__ import annotations

import os
import secrets
import ssl
import tempfile

from .config.client import ClientConfig
from .errors import BrokerConnectionError, ConfigError, TlsError


def ssl_context(config: ClientConfig) -> ssl.SSLContext | None:
    """The context for the client's connections, None for PLAINTEXT / SASL_PLAINTEXT."""
    if not config.uses_tls:
        return None
    cafile, cadata = config.ssl_ca_location, config.ssl_ca_pem
    if cafile is not None and _store_type(cafile, config.ssl_truststore_type) == "PKCS12":
        cafile, cadata = None, _pkcs12_certificates(cafile, config.ssl_truststore_password)
    context = ssl.create_default_context(cafile=cafile, cadata=cadata)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = config.ssl_check_hostname and config.ssl_verify_certificate
    if not config.ssl_verify_certificate:  # enable.ssl.certificate.verification=false
        context.verify_mode = ssl.CERT_NONE
    if config.ssl_cipher_suites:
        try:
            context.set_ciphers(config.ssl_cipher_suites)
        except ssl.SSLError:
            raise ConfigError(
                f"ssl.cipher.suites {config.ssl_cipher_suites!r} names no cipher OpenSSL has"
            ) from None
    if config.ssl_crl_location:  # the broker's certificate is checked against the CRL
        try:
            context.load_verify_locations(cafile=config.ssl_crl_location)
        except (OSError, ssl.SSLError) as exc:
            raise ConfigError(
                f"ssl.crl.location {config.ssl_crl_location}: cannot be read ({exc})"
            ) from None
        context.verify_flags |= ssl.VERIFY_CRL_CHECK_LEAF
    try:
        _load_client_certificate(context, config)
    except ssl.SSLError as exc:
        raise ConfigError(f"the client certificate or key cannot be used: {exc.reason}") from None
    return context


def handshake_timeout(address: str, seconds: float) -> BrokerConnectionError:
    """The error for a TLS handshake with ``address`` that got no answer in time (retriable: a
    loaded broker can be slow, but a PLAINTEXT listener waits like this too)."""
    return BrokerConnectionError(
        f"TLS handshake with {address} got no answer in {seconds:g} s: is it a TLS listener? "
        "(a PLAINTEXT one waits silently for the rest of what it takes for a request)"
    )


def handshake_failure(address: str, exc: BaseException) -> TlsError:
    """The error for a TLS handshake with ``address`` that failed with ``exc``."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return TlsError(f"the certificate of {address} is refused: {exc.verify_message}")
    if isinstance(exc, ssl.SSLError):
        reason = exc.reason or str(exc)
    else:
        reason = str(exc) or type(exc).__name__
    return TlsError(
        f"TLS handshake with {address} failed ({reason}): is it a TLS listener? "
        "(a PLAINTEXT one needs security.protocol PLAINTEXT or SASL_PLAINTEXT)"
    )


def _load_client_certificate(context: ssl.SSLContext, config: ClientConfig) -> None:
    password = config.ssl_key_password
    location = config.ssl_keystore_location
    if location is not None and _store_type(location, config.ssl_keystore_type) == "PEM":
        # Java's PEM keystore: the key and its chain in one file
        context.load_cert_chain(location, password=password)
    elif location is not None:
        # the key goes to the temporary file encrypted, with a password of this call's own
        transient = secrets.token_urlsafe(24)
        certificate, key = _pkcs12_to_pem(
            config.ssl_keystore_location, config.ssl_keystore_password, transient
        )
        _load_pem(context, certificate, key, transient)
    elif config.ssl_certificate_pem is not None or config.ssl_key_pem is not None:
        if config.ssl_certificate_pem is None or config.ssl_key_pem is None:
            raise ConfigError(
                "an inline client certificate needs both ssl.certificate.pem and ssl.key.pem"
            )
        _load_pem(
            context, config.ssl_certificate_pem.encode(), config.ssl_key_pem.encode(), password
        )
    elif config.ssl_certificate_location is not None:
        context.load_cert_chain(
            config.ssl_certificate_location, config.ssl_key_location, password=password
        )
    elif config.ssl_key_location is not None:
        raise ConfigError("ssl.key.location needs ssl.certificate.location")


def _load_pem(context: ssl.SSLContext, certificate: bytes, key: bytes, password) -> None:
    """load_cert_chain reads files only: hand it the PEM through a temporary file only this
    user can read, removed at once."""
    with tempfile.NamedTemporaryFile("wb", suffix=".pem", delete=False) as f:
        os.chmod(f.name, 0o600)
        f.write(certificate.rstrip(b"\n") + b"\n" + key)
    try:
        context.load_cert_chain(f.name, password=password)
    finally:
        os.unlink(f.name)


def _store_type(location: str, declared: str | None) -> str:
    """PEM or PKCS12: as declared (ssl.*store.type), else by the file's first bytes."""
    try:
        with open(location, "rb") as f:
            head = f.read(64)
    except OSError as exc:
        raise ConfigError(f"{location} cannot be read: {exc.strerror}") from None
    if head[:4] == b"\xfe\xed\xfe\xed":
        raise ConfigError(
            f"{location} is a JKS store, which cannot be read outside the JVM: convert it with "
            "`keytool -importkeystore -srckeystore store.jks -destkeystore store.p12 "
            "-deststoretype PKCS12` and use the .p12 file"
        )
    if declared is not None:
        return declared
    return "PEM" if b"-----BEGIN" in head or head.lstrip()[:1] == b"-" else "PKCS12"


def _pkcs12(location: str, password: str | None, setting: str):
    """The parts of a PKCS#12 store: (key, certificate, more certificates)."""
    try:
        from cryptography.hazmat.primitives.serialization import pkcs12
    except ImportError:
        raise ConfigError(
            "PKCS#12 stores need the cryptography package: pip install cryptography"
        ) from None
    with open(location, "rb") as f:
        data = f.read()
    try:
        return pkcs12.load_key_and_certificates(
            data, None if password is None else password.encode()
        )
    except ValueError:
        raise ConfigError(
            f"the store {location} cannot be read: wrong {setting}, or not PKCS#12"
        ) from None


def _pkcs12_certificates(location: str, password: str | None) -> str:
    """The certificates of a PKCS#12 truststore, as PEM."""
    from cryptography.hazmat.primitives.serialization import Encoding

    _, certificate, more = _pkcs12(location, password, "ssl.truststore.password")
    certificates = [c for c in [certificate, *(more or [])] if c is not None]
    if not certificates:
        raise ConfigError(f"the truststore {location} holds no certificate")
    return "".join(c.public_bytes(Encoding.PEM).decode() for c in certificates)


def _pkcs12_to_pem(location: str, password: str | None, key_password: str) -> tuple[bytes, bytes]:
    """The keystore's certificate chain, and its key encrypted with ``key_password``."""
    from cryptography.hazmat.primitives import serialization

    key, certificate, chain = _pkcs12(location, password, "ssl.keystore.password")
    if key is None or certificate is None:
        raise ConfigError(f"the keystore {location} has no private key and certificate")
    pem = serialization.Encoding.PEM
    certificates = b"".join(c.public_bytes(pem) for c in [certificate, *(chain or [])])
    key_pem = key.private_bytes(
        pem,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(key_password.encode()),
    )
    return certificates, key_pem
