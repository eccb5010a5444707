"""kafkawire: the Apache Kafka wire protocol for Python.

Records (record batches v2, legacy message sets v0/v1) are decoded by
read_batches / decode_records and built by BatchBuilder / build_batches.
Requests and responses of every API live in kafkawire.messages, with
encode_request / decode_request / encode_response / decode_response.
"""

from typing import TYPE_CHECKING

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
if TYPE_CHECKING:  # what the lazy imports below give, for type checkers
    from kafkawire import aio, messages
    from kafkawire.client import (
        EARLIEST,
        LATEST,
        READ_COMMITTED,
        READ_UNCOMMITTED,
        AcknowledgeType,
        AcquisitionLockExpiredError,
        AuthenticationError,
        BatchMetadata,
        BrokerConnectionError,
        BufferFullError,
        Client,
        ClientError,
        ClusterMetadata,
        CommitFailedError,
        ConfigEntry,
        ConfigError,
        ConfigResource,
        Consumer,
        ConsumerBatch,
        ConsumerGroupMetadata,
        ConsumerRecord,
        DeliveryTimeoutError,
        DeserializationError,
        FetchedPartition,
        GroupDescription,
        GroupListing,
        IdempotentProducer,
        MemberDescription,
        NoOffsetError,
        NotKafkaError,
        OffsetAndMetadata,
        OffsetAndTimestamp,
        PartitionInfo,
        PartitionLag,
        PartitionRecords,
        Producer,
        ProduceResult,
        RecordChunk,
        RecordFuture,
        RecordMetadata,
        RecordTooLargeError,
        RequestTimeoutError,
        ShareAcknowledgeError,
        ShareBatch,
        ShareConsumer,
        SharePartitionRecords,
        TlsError,
        TopicInfo,
        TopicPartition,
        TransactionStateError,
        default_partition,
        key_partitions,
        murmur2,
    )
    from kafkawire.protocol import (
        decode_request,
        decode_response,
        encode_request,
        encode_response,
    )


def __getattr__(name: str):
    # the message codec is imported on first use: record-only users skip its import cost
    if name in _PROTOCOL_NAMES:
        from kafkawire import protocol

        return getattr(protocol, name)
    if name == "messages":
        import kafkawire.messages as messages

        return messages
    if name in __all__:  # the client's names (all but its Async* ones): imported on first use
        import kafkawire.aio
        import kafkawire.client

        return kafkawire.aio if name == "aio" else getattr(kafkawire.client, name)
    raise AttributeError(f"module 'kafkawire' has no attribute {name!r}")


__all__ = [
    "EARLIEST",
    "LATEST",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "AcknowledgeType",
    "AcquisitionLockExpiredError",
    "AuthenticationError",
    "BatchBuilder",
    "BatchMetadata",
    "BrokerConnectionError",
    "BufferFullError",
    "Client",
    "ClientError",
    "ClusterMetadata",
    "Codec",
    "CommitFailedError",
    "ConfigEntry",
    "ConfigError",
    "ConfigResource",
    "Consumer",
    "ConsumerBatch",
    "ConsumerGroupMetadata",
    "ConsumerRecord",
    "ControlRecord",
    "CorruptError",
    "CrcError",
    "DecodeError",
    "DecompressionError",
    "DeliveryTimeoutError",
    "DeserializationError",
    "EncodeError",
    "FetchedPartition",
    "GroupDescription",
    "GroupListing",
    "IdempotentProducer",
    "KafkawireError",
    "LimitExceededError",
    "MemberDescription",
    "NoOffsetError",
    "NotKafkaError",
    "OffsetAndMetadata",
    "OffsetAndTimestamp",
    "PartitionInfo",
    "PartitionLag",
    "PartitionRecords",
    "ProduceResult",
    "Producer",
    "Record",
    "RecordBatch",
    "RecordChunk",
    "RecordFuture",
    "RecordMetadata",
    "RecordTooLargeError",
    "RecordView",
    "RequestTimeoutError",
    "ShareAcknowledgeError",
    "ShareBatch",
    "ShareConsumer",
    "SharePartitionRecords",
    "TlsError",
    "TopicInfo",
    "TopicPartition",
    "TransactionStateError",
    "TruncatedError",
    "UnsupportedError",
    "__version__",
    "aio",
    "build_batches",
    "build_control_batch",
    "decode_records",
    "decode_request",
    "decode_response",
    "default_partition",
    "encode_request",
    "encode_response",
    "key_partitions",
    "messages",
    "murmur2",
    "read_batches",
]
