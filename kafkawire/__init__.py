"""kafkawire: the Apache Kafka wire protocol for Python.

Records (record batches v2, legacy message sets v0/v1) are decoded by
read_batches / decode_records and built by BatchBuilder / build_batches.
Requests and responses of every API live in kafkawire.messages, with
encode_request / decode_request / encode_response / decode_response.
"""

from kafkawire._version import __version__
from kafkawire.compression import Codec
from kafkawire.errors import (
    CorruptError,
    CrcError,
    DecodeError,
    DecompressionError,
    EncodeError,
    KafkawireError,
    LimitExceededError,
    TruncatedError,
    UnsupportedError,
)
from kafkawire.records import (
    BatchBuilder,
    ControlRecord,
    Record,
    RecordBatch,
    RecordView,
    build_batches,
    build_control_batch,
    decode_records,
    read_batches,
)

_PROTOCOL_NAMES = ("encode_request", "decode_request", "encode_response", "decode_response")


def __getattr__(name: str):
    # the message codec is imported on first use: record-only users skip its import cost
    if name in _PROTOCOL_NAMES:
        from kafkawire import protocol

        return getattr(protocol, name)
    if name in ("Client", "Consumer", "Producer", "aio"):  # the client is imported on first use too
        import kafkawire.aio
        import kafkawire.client

        return kafkawire.aio if name == "aio" else getattr(kafkawire.client, name)
    if name == "messages":
        import kafkawire.messages as messages

        return messages
    raise AttributeError(f"module 'kafkawire' has no attribute {name!r}")


__all__ = [
    "BatchBuilder",
    "Client",
    "Codec",
    "Consumer",
    "ControlRecord",
    "CorruptError",
    "CrcError",
    "DecodeError",
    "DecompressionError",
    "EncodeError",
    "KafkawireError",
    "LimitExceededError",
    "Producer",
    "Record",
    "RecordBatch",
    "RecordView",
    "TruncatedError",
    "UnsupportedError",
    "__version__",
    "aio",
    "build_batches",
    "build_control_batch",
    "decode_records",
    "read_batches",
    *_PROTOCOL_NAMES,
]
