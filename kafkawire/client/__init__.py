"""kafkawire's request-level client: a sans-IO core with a blocking and an asyncio face.

The layers (``docs/architecture.md``): ``session`` is one broker connection as a state machine
(handshake, versions, correlation); ``core`` holds the settings and the cluster metadata;
``offsets``, ``fetcher``, ``producer`` and ``admin`` are flows, generators of the calls they
need (``flow``); ``sync_transport`` and ``aio_transport``, the only modules that touch sockets,
drive them; ``faces`` puts the public methods on top, once for both. ``tls`` makes the
SSLContext, ``sasl`` the SASL mechanisms the session carries (``docs/security.md``).
"""

from .errors import (
    AuthenticationError,
    BrokerConnectionError,
    ClientError,
    ConfigError,
    NotKafkaError,
    RequestTimeoutError,
    TlsError,
)
from .faces import AsyncClient, Client
from .partitioner import default_partition, key_partitions, murmur2
from .types import (
    EARLIEST,
    LATEST,
    READ_COMMITTED,
    READ_UNCOMMITTED,
    ClusterMetadata,
    FetchedPartition,
    IdempotentProducer,
    OffsetAndTimestamp,
    PartitionInfo,
    ProduceResult,
    RecordChunk,
    TopicInfo,
    TopicPartition,
)

__all__ = [
    "EARLIEST",
    "LATEST",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "AsyncClient",
    "AuthenticationError",
    "BrokerConnectionError",
    "Client",
    "ClientError",
    "ClusterMetadata",
    "ConfigError",
    "FetchedPartition",
    "IdempotentProducer",
    "NotKafkaError",
    "OffsetAndTimestamp",
    "PartitionInfo",
    "ProduceResult",
    "RecordChunk",
    "RequestTimeoutError",
    "TlsError",
    "TopicInfo",
    "TopicPartition",
    "default_partition",
    "key_partitions",
    "murmur2",
]
