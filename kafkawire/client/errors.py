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


class DeliveryTimeoutError(ClientError):
    """Records were not acknowledged within delivery.timeout.ms (the last error of their tries
    is in the message). They may or may not have been written."""


class RecordTooLargeError(ClientError, ValueError):
    """A record larger than message.max.bytes: refused by ``send``, nothing else lost."""


class BufferFullError(ClientError):
    """The producer's buffer (queue.buffering.max.kbytes) stayed full for max.block.ms."""


class TransactionStateError(ClientError):
    """A transactional call out of order (send before begin_transaction, commit without a
    transaction, ...), or a transaction that must be aborted because part of it failed."""
