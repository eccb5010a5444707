"""Kafka 0.7's wire format: the protocol before 0.8, for reading old captures and archives.

It shares nothing with 0.8 and later but the 4-byte size prefix of each frame: no API
versions, no correlation ids (responses come back in request order), offsets are byte
positions in a partition's log, and messages are ``magic 0`` (no attributes) or ``magic 1``
(an attributes byte whose two low bits name the compression codec). Integers are big-endian;
``str16`` is an int16 length and that many UTF-8 bytes::

    request   = size:int32 request_type:int16 body
      PRODUCE (0)       topic:str16 partition:int32 messages_size:int32 message_set
      FETCH (1)         topic:str16 partition:int32 offset:int64 max_size:int32
      MULTIFETCH (2)    count:int16 (topic partition offset max_size){count}
      MULTIPRODUCE (3)  count:int16 (topic partition messages_size message_set){count}
      OFFSETS (4)       topic:str16 partition:int32 time:int64 max_offsets:int32
    response  = size:int32 error_code:int16 body       (PRODUCE, MULTIPRODUCE: no response)
      FETCH             message_set, to the frame's end (may end in a cut-off message)
      MULTIFETCH        (size:int32 error_code:int16 message_set){one per fetch}
      OFFSETS           count:int32 offset:int64{count}
    message   = size:int32 magic:int8 [attributes:int8, magic 1 only] crc:uint32 payload

The CRC is IEEE CRC-32 of the payload alone. A compressed message (gzip or snappy with
snappy-java's xerial framing) carries a whole message set as its payload.

Decoding takes frames without their size prefix (like ``kafkawire.decode_request``) and never
trusts a length or a count: each is checked against the bytes that exist before anything is
sliced or allocated, and every problem raises a :class:`kafkawire.DecodeError` subclass that
names the field and the byte offset. Decoded messages keep their payload bytes as they were
(compressed payloads are not recompressed), so decode followed by encode gives the same bytes.
:class:`Connection` is the sans-IO reader of both directions of one connection.

Modules: ``messages`` (messages and message sets), ``requests`` (request and response types,
encoding, decoding), ``connection`` (the sans-IO reader, on ``protocol.framing.FrameReader``).
"""

from kafkawire.compression import Codec  # messages name their codec with it
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE
from kafkawire.protocol.pre08.connection import (
    Connection,
)
from kafkawire.protocol.pre08.messages import (
    EARLIEST_TIME,
    ERROR_NAMES,
    LATEST_TIME,
    MAX_NESTING,
    Message,
    MessageAndOffset,
    MessageSetReader,
    RequestType,
    decode_message_set,
    encode_message_set,
    read_message_set,
)
from kafkawire.protocol.pre08.requests import (
    FetchRequest,
    FetchResponse,
    MultiFetchRequest,
    MultiFetchResponse,
    MultiProduceRequest,
    OffsetsRequest,
    OffsetsResponse,
    ProduceRequest,
    Request,
    Response,
    decode_request,
    decode_response,
    encode_request,
    encode_response,
)

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "EARLIEST_TIME",
    "ERROR_NAMES",
    "LATEST_TIME",
    "MAX_NESTING",
    "Codec",
    "Connection",
    "FetchRequest",
    "FetchResponse",
    "Message",
    "MessageAndOffset",
    "MessageSetReader",
    "MultiFetchRequest",
    "MultiFetchResponse",
    "MultiProduceRequest",
    "OffsetsRequest",
    "OffsetsResponse",
    "ProduceRequest",
    "Request",
    "RequestType",
    "Response",
    "decode_message_set",
    "decode_request",
    "decode_response",
    "encode_message_set",
    "encode_request",
    "encode_response",
    "read_message_set",
]
