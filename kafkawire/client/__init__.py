"""kafkawire's client: a sans-IO core with a blocking and an asyncio face.

The layers (``docs/architecture.md``): ``session`` is one broker connection as a state machine
(handshake, versions, correlation); ``core`` holds the settings and the cluster metadata;
``offsets``, ``fetcher``, ``producer``, ``admin``, ``coordinator`` and ``group`` are flows,
generators of the calls they need (``flow``); ``sync_transport`` and ``aio_transport``, the
only modules that touch sockets, drive them; ``faces`` puts the public methods on top, once
for both. ``consumer`` is the consumer's state machine (positions, pipelined fetches, the
group) and ``consumer_faces`` its two faces; ``producer_core`` the producer's (batches
in ``_accumulate``, compiled; the transactions' requests in ``transactions``) and
``producer_faces`` its two; ``share`` (membership, share sessions), ``share_consumer`` and
``share_faces`` the same for share groups (KIP-932); ``heartbeats`` keeps a member in beside
the polls of either.
``tls`` makes the SSLContext, ``sasl`` the SASL mechanisms the session carries
(``docs/security.md``).
"""

from ._accumulate import AsyncRecordFuture, RecordFuture
from .consumer import (
    ConsumerBatch,
    ConsumerRecord,
    DeserializationError,
    NoOffsetError,
    PartitionRecords,
)
from .consumer_faces import AsyncConsumer, Consumer
from .errors import (
    AuthenticationError,
    BrokerConnectionError,
    BufferFullError,
    ClientError,
    ConfigError,
    DeliveryTimeoutError,
    NotKafkaError,
    RecordTooLargeError,
    RequestTimeoutError,
    TlsError,
    TransactionStateError,
)
from .faces import AsyncClient, Client
from .group import CommitFailedError
from .group_admin import (
    ConfigEntry,
    ConfigResource,
    GroupDescription,
    GroupListing,
    MemberDescription,
    PartitionLag,
)
from .partitioner import default_partition, key_partitions, murmur2
from .producer_faces import AsyncProducer, BatchMetadata, Producer
from .share import AcknowledgeType
from .share_consumer import (
    AcquisitionLockExpiredError,
    ShareAcknowledgeError,
    ShareBatch,
    SharePartitionRecords,
)
from .share_faces import AsyncShareConsumer, ShareConsumer
from .transactions import ConsumerGroupMetadata
from .types import (
    EARLIEST,
    LATEST,
    READ_COMMITTED,
    READ_UNCOMMITTED,
    ClusterMetadata,
    FetchedPartition,
    IdempotentProducer,
    OffsetAndMetadata,
    OffsetAndTimestamp,
    PartitionInfo,
    ProduceResult,
    RecordChunk,
    RecordMetadata,
    TopicInfo,
    TopicPartition,
)

__all__ = [
    "EARLIEST",
    "LATEST",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "AcknowledgeType",
    "AcquisitionLockExpiredError",
    "AsyncClient",
    "AsyncConsumer",
    "AsyncProducer",
    "AsyncRecordFuture",
    "AsyncShareConsumer",
    "AuthenticationError",
    "BatchMetadata",
    "BrokerConnectionError",
    "BufferFullError",
    "Client",
    "ClientError",
    "ClusterMetadata",
    "CommitFailedError",
    "ConfigEntry",
    "ConfigError",
    "ConfigResource",
    "Consumer",
    "ConsumerBatch",
    "ConsumerGroupMetadata",
    "ConsumerRecord",
    "DeliveryTimeoutError",
    "DeserializationError",
    "FetchedPartition",
    "GroupDescription",
    "GroupListing",
    "IdempotentProducer",
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
    "RecordChunk",
    "RecordFuture",
    "RecordMetadata",
    "RecordTooLargeError",
    "RequestTimeoutError",
    "ShareAcknowledgeError",
    "ShareBatch",
    "ShareConsumer",
    "SharePartitionRecords",
    "TlsError",
    "TopicInfo",
    "TopicPartition",
    "TransactionStateError",
    "default_partition",
    "key_partitions",
    "murmur2",
]
