"""Every Kafka request and response, generated from Apache Kafka's JSON message schemas.

``encode_request`` / ``decode_request`` / ``encode_response`` / ``decode_response`` work on whole
frames (header + message); ``encode`` / ``decode`` on one message of any schema alone (e.g. the
data schemas ConsumerProtocolSubscription or LeaderChangeMessage). ``FrameReader`` and
``Correlator`` split a byte stream into frames and match responses to requests; ``ErrorCode`` and
``raise_for_code`` turn response error codes into exceptions.
"""

from kafkawire.protocol import _generated_messages as messages
from kafkawire.protocol._codec import (
    decode,
    decode_request,
    decode_response,
    encode,
    encode_request,
    encode_response,
)
from kafkawire.protocol._generated_messages import ApiKey
from kafkawire.protocol.error_codes import BrokerError, ErrorCode, raise_for_code
from kafkawire.protocol.framing import Correlator, FrameReader

__all__ = [
    "ApiKey",
    "BrokerError",
    "Correlator",
    "ErrorCode",
    "FrameReader",
    "decode",
    "decode_request",
    "decode_response",
    "encode",
    "encode_request",
    "encode_response",
    "messages",
    "raise_for_code",
]
