"""What the client raises when a call cannot be completed (broker-reported errors are the
``kafkawire.protocol.error_codes`` classes; bad bytes are ``kafkawire.DecodeError``)."""

from __future__ import annotations

from kafkawire.errors import KafkawireError


class ClientError(KafkawireError):
    """The client could not complete a call."""


class BrokerConnectionError(ClientError):
    """A broker could not be reached, or the connection broke during a call (retriable)."""


class RequestTimeoutError(ClientError):
    """A broker did not answer within the timeout (retriable)."""


class NotKafkaError(ClientError):
    """The peer at a broker's address does not speak Kafka (an HTTP or TLS server, say).

    Not retried: asking again cannot help."""


class TlsError(ClientError):
    """The TLS handshake failed: an untrusted or mismatched certificate, or a peer that does not
    speak TLS. Not retried."""


class AuthenticationError(ClientError):
    """SASL authentication failed: wrong credentials, a mechanism the broker does not enable,
    a refused or unobtainable token. Not retried: the same credentials fail again."""


class ConfigError(ClientError, ValueError):
    """An unknown client property, or a value it cannot take."""
