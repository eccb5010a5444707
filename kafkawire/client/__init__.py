"""kafkawire's client: a sans-IO core with a blocking and an asyncio face.

The layers (``docs/architecture.md``). The shared core is this package's modules: ``session``
is one broker connection as a state machine (handshake, versions, correlation); ``core`` holds
the settings (``config``) and the cluster metadata; flows are generators of the calls they
need (``flow``); ``sync_transport`` and ``aio_transport``, the only modules that touch
sockets, drive them; ``faces`` puts the request-level ``Client``'s methods on top, once for
both faces, over ``admin``'s flows and those of the feature packages. ``tls`` makes the
SSLContext, ``sasl`` the SASL mechanisms the session carries (``docs/security.md``).

The features, each a package with a sans-IO ``core`` and its two ``faces``: ``consumer``,
``producer``, ``share`` (share groups, KIP-932); ``groups`` holds the group membership the
consumer drives (classic and KIP-848), the assignors and the groups' administration.
"""

from kafkawire.records import ConsumerRecord

from .admin import ConfigEntry, ConfigResource
from .consumer.batches import ConsumerBatch, DeserializationError, PartitionRecords
from .consumer.core import NoOffsetError
from .consumer.faces import AsyncConsumer, Consumer
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
from .groups.admin import (
    GroupDescription,
    GroupListing,
    MemberDescription,
    PartitionLag,
)
from .groups.classic import CommitFailedError
from .producer._accumulate import AsyncRecordFuture, RecordFuture
from .producer.faces import AsyncProducer, BatchMetadata, Producer
from .producer.partitioner import default_partition, key_partitions, murmur2
from .producer.transactions import ConsumerGroupMetadata
from .share.core import (
    AcquisitionLockExpiredError,
    ShareAcknowledgeError,
    ShareBatch,
    SharePartitionRecords,
)
from .share.faces import AsyncShareConsumer, ShareConsumer
from .share.session import AcknowledgeType
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
