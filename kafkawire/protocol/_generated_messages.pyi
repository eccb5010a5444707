# GENERATED from Apache Kafka's message schemas in kafkawire/protocol/schemas/.
# DO NOT EDIT, regenerate with: python tools/generate_messages.py

import uuid
from enum import IntEnum

from kafkawire.protocol._base import Message, Struct

class AddOffsetsToTxnRequest(Message):
    transactional_id: str
    producer_id: int
    producer_epoch: int
    group_id: str
    def __init__(self, *, transactional_id: str = ..., producer_id: int = ..., producer_epoch: int = ..., group_id: str = ...) -> None: ...

class AddOffsetsToTxnResponse(Message):
    throttle_time_ms: int
    error_code: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ...) -> None: ...

class AddPartitionsToTxnRequest(Message):
    class AddPartitionsToTxnTopic(Struct):
        name: str
        partitions: list[int]
        def __init__(self, *, name: str = ..., partitions: list[int] = ...) -> None: ...
    class AddPartitionsToTxnTransaction(Struct):
        transactional_id: str
        producer_id: int
        producer_epoch: int
        verify_only: bool
        topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic]
        def __init__(self, *, transactional_id: str = ..., producer_id: int = ..., producer_epoch: int = ..., verify_only: bool = ..., topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic] = ...) -> None: ...
    transactions: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction]
    v3_and_below_transactional_id: str
    v3_and_below_producer_id: int
    v3_and_below_producer_epoch: int
    v3_and_below_topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic]
    def __init__(self, *, transactions: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction] = ..., v3_and_below_transactional_id: str = ..., v3_and_below_producer_id: int = ..., v3_and_below_producer_epoch: int = ..., v3_and_below_topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic] = ...) -> None: ...

class AddPartitionsToTxnResponse(Message):
    class AddPartitionsToTxnPartitionResult(Struct):
        partition_index: int
        partition_error_code: int
        def __init__(self, *, partition_index: int = ..., partition_error_code: int = ...) -> None: ...
    class AddPartitionsToTxnTopicResult(Struct):
        name: str
        results_by_partition: list[AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult]
        def __init__(self, *, name: str = ..., results_by_partition: list[AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult] = ...) -> None: ...
    class AddPartitionsToTxnResult(Struct):
        transactional_id: str
        topic_results: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult]
        def __init__(self, *, transactional_id: str = ..., topic_results: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    results_by_transaction: list[AddPartitionsToTxnResponse.AddPartitionsToTxnResult]
    results_by_topic_v3_and_below: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., results_by_transaction: list[AddPartitionsToTxnResponse.AddPartitionsToTxnResult] = ..., results_by_topic_v3_and_below: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult] = ...) -> None: ...

class AddRaftVoterRequest(Message):
    class Listener(Struct):
        name: str
        host: str
        port: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ...) -> None: ...
    cluster_id: str | None
    timeout_ms: int
    voter_id: int
    voter_directory_id: uuid.UUID
    listeners: list[AddRaftVoterRequest.Listener]
    def __init__(self, *, cluster_id: str | None = ..., timeout_ms: int = ..., voter_id: int = ..., voter_directory_id: uuid.UUID = ..., listeners: list[AddRaftVoterRequest.Listener] = ...) -> None: ...

class AddRaftVoterResponse(Message):
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...

class AllocateProducerIdsRequest(Message):
    broker_id: int
    broker_epoch: int
    def __init__(self, *, broker_id: int = ..., broker_epoch: int = ...) -> None: ...

class AllocateProducerIdsResponse(Message):
    throttle_time_ms: int
    error_code: int
    producer_id_start: int
    producer_id_len: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., producer_id_start: int = ..., producer_id_len: int = ...) -> None: ...

class AlterClientQuotasRequest(Message):
    class EntityData(Struct):
        entity_type: str
        entity_name: str | None
        def __init__(self, *, entity_type: str = ..., entity_name: str | None = ...) -> None: ...
    class OpData(Struct):
        key: str
        value: float
        remove: bool
        def __init__(self, *, key: str = ..., value: float = ..., remove: bool = ...) -> None: ...
    class EntryData(Struct):
        entity: list[AlterClientQuotasRequest.EntityData]
        ops: list[AlterClientQuotasRequest.OpData]
        def __init__(self, *, entity: list[AlterClientQuotasRequest.EntityData] = ..., ops: list[AlterClientQuotasRequest.OpData] = ...) -> None: ...
    entries: list[AlterClientQuotasRequest.EntryData]
    validate_only: bool
    def __init__(self, *, entries: list[AlterClientQuotasRequest.EntryData] = ..., validate_only: bool = ...) -> None: ...

class AlterClientQuotasResponse(Message):
    class EntityData(Struct):
        entity_type: str
        entity_name: str | None
        def __init__(self, *, entity_type: str = ..., entity_name: str | None = ...) -> None: ...
    class EntryData(Struct):
        error_code: int
        error_message: str | None
        entity: list[AlterClientQuotasResponse.EntityData]
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., entity: list[AlterClientQuotasResponse.EntityData] = ...) -> None: ...
    throttle_time_ms: int
    entries: list[AlterClientQuotasResponse.EntryData]
    def __init__(self, *, throttle_time_ms: int = ..., entries: list[AlterClientQuotasResponse.EntryData] = ...) -> None: ...

class AlterConfigsRequest(Message):
    class AlterableConfig(Struct):
        name: str
        value: str | None
        def __init__(self, *, name: str = ..., value: str | None = ...) -> None: ...
    class AlterConfigsResource(Struct):
        resource_type: int
        resource_name: str
        configs: list[AlterConfigsRequest.AlterableConfig]
        def __init__(self, *, resource_type: int = ..., resource_name: str = ..., configs: list[AlterConfigsRequest.AlterableConfig] = ...) -> None: ...
    resources: list[AlterConfigsRequest.AlterConfigsResource]
    validate_only: bool
    def __init__(self, *, resources: list[AlterConfigsRequest.AlterConfigsResource] = ..., validate_only: bool = ...) -> None: ...

class AlterConfigsResponse(Message):
    class AlterConfigsResourceResponse(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., resource_type: int = ..., resource_name: str = ...) -> None: ...
    throttle_time_ms: int
    responses: list[AlterConfigsResponse.AlterConfigsResourceResponse]
    def __init__(self, *, throttle_time_ms: int = ..., responses: list[AlterConfigsResponse.AlterConfigsResourceResponse] = ...) -> None: ...

class AlterPartitionReassignmentsRequest(Message):
    class ReassignablePartition(Struct):
        partition_index: int
        replicas: list[int] | None
        def __init__(self, *, partition_index: int = ..., replicas: list[int] | None = ...) -> None: ...
    class ReassignableTopic(Struct):
        name: str
        partitions: list[AlterPartitionReassignmentsRequest.ReassignablePartition]
        def __init__(self, *, name: str = ..., partitions: list[AlterPartitionReassignmentsRequest.ReassignablePartition] = ...) -> None: ...
    timeout_ms: int
    topics: list[AlterPartitionReassignmentsRequest.ReassignableTopic]
    def __init__(self, *, timeout_ms: int = ..., topics: list[AlterPartitionReassignmentsRequest.ReassignableTopic] = ...) -> None: ...

class AlterPartitionReassignmentsResponse(Message):
    class ReassignablePartitionResponse(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    class ReassignableTopicResponse(Struct):
        name: str
        partitions: list[AlterPartitionReassignmentsResponse.ReassignablePartitionResponse]
        def __init__(self, *, name: str = ..., partitions: list[AlterPartitionReassignmentsResponse.ReassignablePartitionResponse] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[AlterPartitionReassignmentsResponse.ReassignableTopicResponse]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., responses: list[AlterPartitionReassignmentsResponse.ReassignableTopicResponse] = ...) -> None: ...

class AlterPartitionRequest(Message):
    class BrokerState(Struct):
        broker_id: int
        broker_epoch: int
        def __init__(self, *, broker_id: int = ..., broker_epoch: int = ...) -> None: ...
    class PartitionData(Struct):
        partition_index: int
        leader_epoch: int
        new_isr: list[int]
        new_isr_with_epochs: list[AlterPartitionRequest.BrokerState]
        leader_recovery_state: int
        partition_epoch: int
        def __init__(self, *, partition_index: int = ..., leader_epoch: int = ..., new_isr: list[int] = ..., new_isr_with_epochs: list[AlterPartitionRequest.BrokerState] = ..., leader_recovery_state: int = ..., partition_epoch: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[AlterPartitionRequest.PartitionData]
        def __init__(self, *, topic_name: str = ..., topic_id: uuid.UUID = ..., partitions: list[AlterPartitionRequest.PartitionData] = ...) -> None: ...
    broker_id: int
    broker_epoch: int
    topics: list[AlterPartitionRequest.TopicData]
    def __init__(self, *, broker_id: int = ..., broker_epoch: int = ..., topics: list[AlterPartitionRequest.TopicData] = ...) -> None: ...

class AlterPartitionResponse(Message):
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        isr: list[int]
        leader_recovery_state: int
        partition_epoch: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., leader_id: int = ..., leader_epoch: int = ..., isr: list[int] = ..., leader_recovery_state: int = ..., partition_epoch: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[AlterPartitionResponse.PartitionData]
        def __init__(self, *, topic_name: str = ..., topic_id: uuid.UUID = ..., partitions: list[AlterPartitionResponse.PartitionData] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    topics: list[AlterPartitionResponse.TopicData]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., topics: list[AlterPartitionResponse.TopicData] = ...) -> None: ...

class AlterReplicaLogDirsRequest(Message):
    class AlterReplicaLogDirTopic(Struct):
        name: str
        partitions: list[int]
        def __init__(self, *, name: str = ..., partitions: list[int] = ...) -> None: ...
    class AlterReplicaLogDir(Struct):
        path: str
        topics: list[AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic]
        def __init__(self, *, path: str = ..., topics: list[AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic] = ...) -> None: ...
    dirs: list[AlterReplicaLogDirsRequest.AlterReplicaLogDir]
    def __init__(self, *, dirs: list[AlterReplicaLogDirsRequest.AlterReplicaLogDir] = ...) -> None: ...

class AlterReplicaLogDirsResponse(Message):
    class AlterReplicaLogDirPartitionResult(Struct):
        partition_index: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ...) -> None: ...
    class AlterReplicaLogDirTopicResult(Struct):
        topic_name: str
        partitions: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult]
        def __init__(self, *, topic_name: str = ..., partitions: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult] = ...) -> None: ...
    throttle_time_ms: int
    results: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., results: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult] = ...) -> None: ...

class AlterUserScramCredentialsRequest(Message):
    class ScramCredentialDeletion(Struct):
        name: str
        mechanism: int
        def __init__(self, *, name: str = ..., mechanism: int = ...) -> None: ...
    class ScramCredentialUpsertion(Struct):
        name: str
        mechanism: int
        iterations: int
        salt: bytes
        salted_password: bytes
        def __init__(self, *, name: str = ..., mechanism: int = ..., iterations: int = ..., salt: bytes = ..., salted_password: bytes = ...) -> None: ...
    deletions: list[AlterUserScramCredentialsRequest.ScramCredentialDeletion]
    upsertions: list[AlterUserScramCredentialsRequest.ScramCredentialUpsertion]
    def __init__(self, *, deletions: list[AlterUserScramCredentialsRequest.ScramCredentialDeletion] = ..., upsertions: list[AlterUserScramCredentialsRequest.ScramCredentialUpsertion] = ...) -> None: ...

class AlterUserScramCredentialsResponse(Message):
    class AlterUserScramCredentialsResult(Struct):
        user: str
        error_code: int
        error_message: str | None
        def __init__(self, *, user: str = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    throttle_time_ms: int
    results: list[AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult]
    def __init__(self, *, throttle_time_ms: int = ..., results: list[AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult] = ...) -> None: ...

class ApiVersionsRequest(Message):
    client_software_name: str
    client_software_version: str
    def __init__(self, *, client_software_name: str = ..., client_software_version: str = ...) -> None: ...

class ApiVersionsResponse(Message):
    class ApiVersion(Struct):
        api_key: int
        min_version: int
        max_version: int
        def __init__(self, *, api_key: int = ..., min_version: int = ..., max_version: int = ...) -> None: ...
    class SupportedFeatureKey(Struct):
        name: str
        min_version: int
        max_version: int
        def __init__(self, *, name: str = ..., min_version: int = ..., max_version: int = ...) -> None: ...
    class FinalizedFeatureKey(Struct):
        name: str
        max_version_level: int
        min_version_level: int
        def __init__(self, *, name: str = ..., max_version_level: int = ..., min_version_level: int = ...) -> None: ...
    error_code: int
    api_keys: list[ApiVersionsResponse.ApiVersion]
    throttle_time_ms: int
    supported_features: list[ApiVersionsResponse.SupportedFeatureKey]
    finalized_features_epoch: int
    finalized_features: list[ApiVersionsResponse.FinalizedFeatureKey]
    zk_migration_ready: bool
    def __init__(self, *, error_code: int = ..., api_keys: list[ApiVersionsResponse.ApiVersion] = ..., throttle_time_ms: int = ..., supported_features: list[ApiVersionsResponse.SupportedFeatureKey] = ..., finalized_features_epoch: int = ..., finalized_features: list[ApiVersionsResponse.FinalizedFeatureKey] = ..., zk_migration_ready: bool = ...) -> None: ...

class AssignReplicasToDirsRequest(Message):
    class PartitionData(Struct):
        partition_index: int
        def __init__(self, *, partition_index: int = ...) -> None: ...
    class TopicData(Struct):
        topic_id: uuid.UUID
        partitions: list[AssignReplicasToDirsRequest.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[AssignReplicasToDirsRequest.PartitionData] = ...) -> None: ...
    class DirectoryData(Struct):
        id: uuid.UUID
        topics: list[AssignReplicasToDirsRequest.TopicData]
        def __init__(self, *, id: uuid.UUID = ..., topics: list[AssignReplicasToDirsRequest.TopicData] = ...) -> None: ...
    broker_id: int
    broker_epoch: int
    directories: list[AssignReplicasToDirsRequest.DirectoryData]
    def __init__(self, *, broker_id: int = ..., broker_epoch: int = ..., directories: list[AssignReplicasToDirsRequest.DirectoryData] = ...) -> None: ...

class AssignReplicasToDirsResponse(Message):
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ...) -> None: ...
    class TopicData(Struct):
        topic_id: uuid.UUID
        partitions: list[AssignReplicasToDirsResponse.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[AssignReplicasToDirsResponse.PartitionData] = ...) -> None: ...
    class DirectoryData(Struct):
        id: uuid.UUID
        topics: list[AssignReplicasToDirsResponse.TopicData]
        def __init__(self, *, id: uuid.UUID = ..., topics: list[AssignReplicasToDirsResponse.TopicData] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    directories: list[AssignReplicasToDirsResponse.DirectoryData]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., directories: list[AssignReplicasToDirsResponse.DirectoryData] = ...) -> None: ...

class BeginQuorumEpochRequest(Message):
    class PartitionData(Struct):
        partition_index: int
        voter_directory_id: uuid.UUID
        leader_id: int
        leader_epoch: int
        def __init__(self, *, partition_index: int = ..., voter_directory_id: uuid.UUID = ..., leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[BeginQuorumEpochRequest.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[BeginQuorumEpochRequest.PartitionData] = ...) -> None: ...
    class LeaderEndpoint(Struct):
        name: str
        host: str
        port: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ...) -> None: ...
    cluster_id: str | None
    voter_id: int
    topics: list[BeginQuorumEpochRequest.TopicData]
    leader_endpoints: list[BeginQuorumEpochRequest.LeaderEndpoint]
    def __init__(self, *, cluster_id: str | None = ..., voter_id: int = ..., topics: list[BeginQuorumEpochRequest.TopicData] = ..., leader_endpoints: list[BeginQuorumEpochRequest.LeaderEndpoint] = ...) -> None: ...

class BeginQuorumEpochResponse(Message):
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[BeginQuorumEpochResponse.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[BeginQuorumEpochResponse.PartitionData] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ...) -> None: ...
    error_code: int
    topics: list[BeginQuorumEpochResponse.TopicData]
    node_endpoints: list[BeginQuorumEpochResponse.NodeEndpoint]
    def __init__(self, *, error_code: int = ..., topics: list[BeginQuorumEpochResponse.TopicData] = ..., node_endpoints: list[BeginQuorumEpochResponse.NodeEndpoint] = ...) -> None: ...

class BrokerHeartbeatRequest(Message):
    broker_id: int
    broker_epoch: int
    current_metadata_offset: int
    want_fence: bool
    want_shut_down: bool
    offline_log_dirs: list[uuid.UUID]
    def __init__(self, *, broker_id: int = ..., broker_epoch: int = ..., current_metadata_offset: int = ..., want_fence: bool = ..., want_shut_down: bool = ..., offline_log_dirs: list[uuid.UUID] = ...) -> None: ...

class BrokerHeartbeatResponse(Message):
    throttle_time_ms: int
    error_code: int
    is_caught_up: bool
    is_fenced: bool
    should_shut_down: bool
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., is_caught_up: bool = ..., is_fenced: bool = ..., should_shut_down: bool = ...) -> None: ...

class BrokerRegistrationRequest(Message):
    class Listener(Struct):
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ..., security_protocol: int = ...) -> None: ...
    class Feature(Struct):
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(self, *, name: str = ..., min_supported_version: int = ..., max_supported_version: int = ...) -> None: ...
    broker_id: int
    cluster_id: str
    incarnation_id: uuid.UUID
    listeners: list[BrokerRegistrationRequest.Listener]
    features: list[BrokerRegistrationRequest.Feature]
    rack: str | None
    is_migrating_zk_broker: bool
    log_dirs: list[uuid.UUID]
    previous_broker_epoch: int
    def __init__(self, *, broker_id: int = ..., cluster_id: str = ..., incarnation_id: uuid.UUID = ..., listeners: list[BrokerRegistrationRequest.Listener] = ..., features: list[BrokerRegistrationRequest.Feature] = ..., rack: str | None = ..., is_migrating_zk_broker: bool = ..., log_dirs: list[uuid.UUID] = ..., previous_broker_epoch: int = ...) -> None: ...

class BrokerRegistrationResponse(Message):
    throttle_time_ms: int
    error_code: int
    broker_epoch: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., broker_epoch: int = ...) -> None: ...

class ConsumerGroupDescribeRequest(Message):
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(self, *, group_ids: list[str] = ..., include_authorized_operations: bool = ...) -> None: ...

class ConsumerGroupDescribeResponse(Message):
    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(self, *, topic_id: uuid.UUID = ..., topic_name: str = ..., partitions: list[int] = ...) -> None: ...
    class Assignment(Struct):
        topic_partitions: list[ConsumerGroupDescribeResponse.TopicPartitions]
        def __init__(self, *, topic_partitions: list[ConsumerGroupDescribeResponse.TopicPartitions] = ...) -> None: ...
    class Member(Struct):
        member_id: str
        instance_id: str | None
        rack_id: str | None
        member_epoch: int
        client_id: str
        client_host: str
        subscribed_topic_names: list[str]
        subscribed_topic_regex: str | None
        assignment: ConsumerGroupDescribeResponse.Assignment
        target_assignment: ConsumerGroupDescribeResponse.Assignment
        def __init__(self, *, member_id: str = ..., instance_id: str | None = ..., rack_id: str | None = ..., member_epoch: int = ..., client_id: str = ..., client_host: str = ..., subscribed_topic_names: list[str] = ..., subscribed_topic_regex: str | None = ..., assignment: ConsumerGroupDescribeResponse.Assignment = ..., target_assignment: ConsumerGroupDescribeResponse.Assignment = ...) -> None: ...
    class DescribedGroup(Struct):
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        assignor_name: str
        members: list[ConsumerGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., group_id: str = ..., group_state: str = ..., group_epoch: int = ..., assignment_epoch: int = ..., assignor_name: str = ..., members: list[ConsumerGroupDescribeResponse.Member] = ..., authorized_operations: int = ...) -> None: ...
    throttle_time_ms: int
    groups: list[ConsumerGroupDescribeResponse.DescribedGroup]
    def __init__(self, *, throttle_time_ms: int = ..., groups: list[ConsumerGroupDescribeResponse.DescribedGroup] = ...) -> None: ...

class ConsumerGroupHeartbeatRequest(Message):
    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[int] = ...) -> None: ...
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    subscribed_topic_names: list[str] | None
    subscribed_topic_regex: str | None
    server_assignor: str | None
    topic_partitions: list[ConsumerGroupHeartbeatRequest.TopicPartitions] | None
    def __init__(self, *, group_id: str = ..., member_id: str = ..., member_epoch: int = ..., instance_id: str | None = ..., rack_id: str | None = ..., rebalance_timeout_ms: int = ..., subscribed_topic_names: list[str] | None = ..., subscribed_topic_regex: str | None = ..., server_assignor: str | None = ..., topic_partitions: list[ConsumerGroupHeartbeatRequest.TopicPartitions] | None = ...) -> None: ...

class ConsumerGroupHeartbeatResponse(Message):
    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[int] = ...) -> None: ...
    class Assignment(Struct):
        topic_partitions: list[ConsumerGroupHeartbeatResponse.TopicPartitions]
        def __init__(self, *, topic_partitions: list[ConsumerGroupHeartbeatResponse.TopicPartitions] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: ConsumerGroupHeartbeatResponse.Assignment | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., member_id: str | None = ..., member_epoch: int = ..., heartbeat_interval_ms: int = ..., assignment: ConsumerGroupHeartbeatResponse.Assignment | None = ...) -> None: ...

class ConsumerProtocolAssignment(Message):
    class TopicPartition(Struct):
        topic: str
        partitions: list[int]
        def __init__(self, *, topic: str = ..., partitions: list[int] = ...) -> None: ...
    assigned_partitions: list[ConsumerProtocolAssignment.TopicPartition]
    user_data: bytes | None
    def __init__(self, *, assigned_partitions: list[ConsumerProtocolAssignment.TopicPartition] = ..., user_data: bytes | None = ...) -> None: ...

class ConsumerProtocolSubscription(Message):
    class TopicPartition(Struct):
        topic: str
        partitions: list[int]
        def __init__(self, *, topic: str = ..., partitions: list[int] = ...) -> None: ...
    topics: list[str]
    user_data: bytes | None
    owned_partitions: list[ConsumerProtocolSubscription.TopicPartition]
    generation_id: int
    rack_id: str | None
    def __init__(self, *, topics: list[str] = ..., user_data: bytes | None = ..., owned_partitions: list[ConsumerProtocolSubscription.TopicPartition] = ..., generation_id: int = ..., rack_id: str | None = ...) -> None: ...

class ControlledShutdownRequest(Message):
    broker_id: int
    broker_epoch: int
    def __init__(self, *, broker_id: int = ..., broker_epoch: int = ...) -> None: ...

class ControlledShutdownResponse(Message):
    class RemainingPartition(Struct):
        topic_name: str
        partition_index: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ...) -> None: ...
    error_code: int
    remaining_partitions: list[ControlledShutdownResponse.RemainingPartition]
    def __init__(self, *, error_code: int = ..., remaining_partitions: list[ControlledShutdownResponse.RemainingPartition] = ...) -> None: ...

class ControllerRegistrationRequest(Message):
    class Listener(Struct):
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ..., security_protocol: int = ...) -> None: ...
    class Feature(Struct):
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(self, *, name: str = ..., min_supported_version: int = ..., max_supported_version: int = ...) -> None: ...
    controller_id: int
    incarnation_id: uuid.UUID
    zk_migration_ready: bool
    listeners: list[ControllerRegistrationRequest.Listener]
    features: list[ControllerRegistrationRequest.Feature]
    def __init__(self, *, controller_id: int = ..., incarnation_id: uuid.UUID = ..., zk_migration_ready: bool = ..., listeners: list[ControllerRegistrationRequest.Listener] = ..., features: list[ControllerRegistrationRequest.Feature] = ...) -> None: ...

class ControllerRegistrationResponse(Message):
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...

class CreateAclsRequest(Message):
    class AclCreation(Struct):
        resource_type: int
        resource_name: str
        resource_pattern_type: int
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(self, *, resource_type: int = ..., resource_name: str = ..., resource_pattern_type: int = ..., principal: str = ..., host: str = ..., operation: int = ..., permission_type: int = ...) -> None: ...
    creations: list[CreateAclsRequest.AclCreation]
    def __init__(self, *, creations: list[CreateAclsRequest.AclCreation] = ...) -> None: ...

class CreateAclsResponse(Message):
    class AclCreationResult(Struct):
        error_code: int
        error_message: str | None
        def __init__(self, *, error_code: int = ..., error_message: str | None = ...) -> None: ...
    throttle_time_ms: int
    results: list[CreateAclsResponse.AclCreationResult]
    def __init__(self, *, throttle_time_ms: int = ..., results: list[CreateAclsResponse.AclCreationResult] = ...) -> None: ...

class CreateDelegationTokenRequest(Message):
    class CreatableRenewers(Struct):
        principal_type: str
        principal_name: str
        def __init__(self, *, principal_type: str = ..., principal_name: str = ...) -> None: ...
    owner_principal_type: str | None
    owner_principal_name: str | None
    renewers: list[CreateDelegationTokenRequest.CreatableRenewers]
    max_lifetime_ms: int
    def __init__(self, *, owner_principal_type: str | None = ..., owner_principal_name: str | None = ..., renewers: list[CreateDelegationTokenRequest.CreatableRenewers] = ..., max_lifetime_ms: int = ...) -> None: ...

class CreateDelegationTokenResponse(Message):
    error_code: int
    principal_type: str
    principal_name: str
    token_requester_principal_type: str
    token_requester_principal_name: str
    issue_timestamp_ms: int
    expiry_timestamp_ms: int
    max_timestamp_ms: int
    token_id: str
    hmac: bytes
    throttle_time_ms: int
    def __init__(self, *, error_code: int = ..., principal_type: str = ..., principal_name: str = ..., token_requester_principal_type: str = ..., token_requester_principal_name: str = ..., issue_timestamp_ms: int = ..., expiry_timestamp_ms: int = ..., max_timestamp_ms: int = ..., token_id: str = ..., hmac: bytes = ..., throttle_time_ms: int = ...) -> None: ...

class CreatePartitionsRequest(Message):
    class CreatePartitionsAssignment(Struct):
        broker_ids: list[int]
        def __init__(self, *, broker_ids: list[int] = ...) -> None: ...
    class CreatePartitionsTopic(Struct):
        name: str
        count: int
        assignments: list[CreatePartitionsRequest.CreatePartitionsAssignment] | None
        def __init__(self, *, name: str = ..., count: int = ..., assignments: list[CreatePartitionsRequest.CreatePartitionsAssignment] | None = ...) -> None: ...
    topics: list[CreatePartitionsRequest.CreatePartitionsTopic]
    timeout_ms: int
    validate_only: bool
    def __init__(self, *, topics: list[CreatePartitionsRequest.CreatePartitionsTopic] = ..., timeout_ms: int = ..., validate_only: bool = ...) -> None: ...

class CreatePartitionsResponse(Message):
    class CreatePartitionsTopicResult(Struct):
        name: str
        error_code: int
        error_message: str | None
        def __init__(self, *, name: str = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    throttle_time_ms: int
    results: list[CreatePartitionsResponse.CreatePartitionsTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., results: list[CreatePartitionsResponse.CreatePartitionsTopicResult] = ...) -> None: ...

class CreateTopicsRequest(Message):
    class CreatableReplicaAssignment(Struct):
        partition_index: int
        broker_ids: list[int]
        def __init__(self, *, partition_index: int = ..., broker_ids: list[int] = ...) -> None: ...
    class CreatableTopicConfig(Struct):
        name: str
        value: str | None
        def __init__(self, *, name: str = ..., value: str | None = ...) -> None: ...
    class CreatableTopic(Struct):
        name: str
        num_partitions: int
        replication_factor: int
        assignments: list[CreateTopicsRequest.CreatableReplicaAssignment]
        configs: list[CreateTopicsRequest.CreatableTopicConfig]
        def __init__(self, *, name: str = ..., num_partitions: int = ..., replication_factor: int = ..., assignments: list[CreateTopicsRequest.CreatableReplicaAssignment] = ..., configs: list[CreateTopicsRequest.CreatableTopicConfig] = ...) -> None: ...
    topics: list[CreateTopicsRequest.CreatableTopic]
    timeout_ms: int
    validate_only: bool
    def __init__(self, *, topics: list[CreateTopicsRequest.CreatableTopic] = ..., timeout_ms: int = ..., validate_only: bool = ...) -> None: ...

class CreateTopicsResponse(Message):
    class CreatableTopicConfigs(Struct):
        name: str
        value: str | None
        read_only: bool
        config_source: int
        is_sensitive: bool
        def __init__(self, *, name: str = ..., value: str | None = ..., read_only: bool = ..., config_source: int = ..., is_sensitive: bool = ...) -> None: ...
    class CreatableTopicResult(Struct):
        name: str
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        topic_config_error_code: int
        num_partitions: int
        replication_factor: int
        configs: list[CreateTopicsResponse.CreatableTopicConfigs] | None
        def __init__(self, *, name: str = ..., topic_id: uuid.UUID = ..., error_code: int = ..., error_message: str | None = ..., topic_config_error_code: int = ..., num_partitions: int = ..., replication_factor: int = ..., configs: list[CreateTopicsResponse.CreatableTopicConfigs] | None = ...) -> None: ...
    throttle_time_ms: int
    topics: list[CreateTopicsResponse.CreatableTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[CreateTopicsResponse.CreatableTopicResult] = ...) -> None: ...

class DefaultPrincipalData(Message):
    type: str
    name: str
    token_authenticated: bool
    def __init__(self, *, type: str = ..., name: str = ..., token_authenticated: bool = ...) -> None: ...

class DeleteAclsRequest(Message):
    class DeleteAclsFilter(Struct):
        resource_type_filter: int
        resource_name_filter: str | None
        pattern_type_filter: int
        principal_filter: str | None
        host_filter: str | None
        operation: int
        permission_type: int
        def __init__(self, *, resource_type_filter: int = ..., resource_name_filter: str | None = ..., pattern_type_filter: int = ..., principal_filter: str | None = ..., host_filter: str | None = ..., operation: int = ..., permission_type: int = ...) -> None: ...
    filters: list[DeleteAclsRequest.DeleteAclsFilter]
    def __init__(self, *, filters: list[DeleteAclsRequest.DeleteAclsFilter] = ...) -> None: ...

class DeleteAclsResponse(Message):
    class DeleteAclsMatchingAcl(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        pattern_type: int
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., resource_type: int = ..., resource_name: str = ..., pattern_type: int = ..., principal: str = ..., host: str = ..., operation: int = ..., permission_type: int = ...) -> None: ...
    class DeleteAclsFilterResult(Struct):
        error_code: int
        error_message: str | None
        matching_acls: list[DeleteAclsResponse.DeleteAclsMatchingAcl]
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., matching_acls: list[DeleteAclsResponse.DeleteAclsMatchingAcl] = ...) -> None: ...
    throttle_time_ms: int
    filter_results: list[DeleteAclsResponse.DeleteAclsFilterResult]
    def __init__(self, *, throttle_time_ms: int = ..., filter_results: list[DeleteAclsResponse.DeleteAclsFilterResult] = ...) -> None: ...

class DeleteGroupsRequest(Message):
    groups_names: list[str]
    def __init__(self, *, groups_names: list[str] = ...) -> None: ...

class DeleteGroupsResponse(Message):
    class DeletableGroupResult(Struct):
        group_id: str
        error_code: int
        def __init__(self, *, group_id: str = ..., error_code: int = ...) -> None: ...
    throttle_time_ms: int
    results: list[DeleteGroupsResponse.DeletableGroupResult]
    def __init__(self, *, throttle_time_ms: int = ..., results: list[DeleteGroupsResponse.DeletableGroupResult] = ...) -> None: ...

class DeleteRecordsRequest(Message):
    class DeleteRecordsPartition(Struct):
        partition_index: int
        offset: int
        def __init__(self, *, partition_index: int = ..., offset: int = ...) -> None: ...
    class DeleteRecordsTopic(Struct):
        name: str
        partitions: list[DeleteRecordsRequest.DeleteRecordsPartition]
        def __init__(self, *, name: str = ..., partitions: list[DeleteRecordsRequest.DeleteRecordsPartition] = ...) -> None: ...
    topics: list[DeleteRecordsRequest.DeleteRecordsTopic]
    timeout_ms: int
    def __init__(self, *, topics: list[DeleteRecordsRequest.DeleteRecordsTopic] = ..., timeout_ms: int = ...) -> None: ...

class DeleteRecordsResponse(Message):
    class DeleteRecordsPartitionResult(Struct):
        partition_index: int
        low_watermark: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., low_watermark: int = ..., error_code: int = ...) -> None: ...
    class DeleteRecordsTopicResult(Struct):
        name: str
        partitions: list[DeleteRecordsResponse.DeleteRecordsPartitionResult]
        def __init__(self, *, name: str = ..., partitions: list[DeleteRecordsResponse.DeleteRecordsPartitionResult] = ...) -> None: ...
    throttle_time_ms: int
    topics: list[DeleteRecordsResponse.DeleteRecordsTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[DeleteRecordsResponse.DeleteRecordsTopicResult] = ...) -> None: ...

class DeleteShareGroupStateRequest(Message):
    class PartitionData(Struct):
        partition: int
        def __init__(self, *, partition: int = ...) -> None: ...
    class DeleteStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[DeleteShareGroupStateRequest.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[DeleteShareGroupStateRequest.PartitionData] = ...) -> None: ...
    group_id: str
    topics: list[DeleteShareGroupStateRequest.DeleteStateData]
    def __init__(self, *, group_id: str = ..., topics: list[DeleteShareGroupStateRequest.DeleteStateData] = ...) -> None: ...

class DeleteShareGroupStateResponse(Message):
    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        def __init__(self, *, partition: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    class DeleteStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[DeleteShareGroupStateResponse.PartitionResult]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[DeleteShareGroupStateResponse.PartitionResult] = ...) -> None: ...
    results: list[DeleteShareGroupStateResponse.DeleteStateResult]
    def __init__(self, *, results: list[DeleteShareGroupStateResponse.DeleteStateResult] = ...) -> None: ...

class DeleteTopicsRequest(Message):
    class DeleteTopicState(Struct):
        name: str | None
        topic_id: uuid.UUID
        def __init__(self, *, name: str | None = ..., topic_id: uuid.UUID = ...) -> None: ...
    topics: list[DeleteTopicsRequest.DeleteTopicState]
    topic_names: list[str]
    timeout_ms: int
    def __init__(self, *, topics: list[DeleteTopicsRequest.DeleteTopicState] = ..., topic_names: list[str] = ..., timeout_ms: int = ...) -> None: ...

class DeleteTopicsResponse(Message):
    class DeletableTopicResult(Struct):
        name: str | None
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        def __init__(self, *, name: str | None = ..., topic_id: uuid.UUID = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    throttle_time_ms: int
    responses: list[DeleteTopicsResponse.DeletableTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., responses: list[DeleteTopicsResponse.DeletableTopicResult] = ...) -> None: ...

class DescribeAclsRequest(Message):
    resource_type_filter: int
    resource_name_filter: str | None
    pattern_type_filter: int
    principal_filter: str | None
    host_filter: str | None
    operation: int
    permission_type: int
    def __init__(self, *, resource_type_filter: int = ..., resource_name_filter: str | None = ..., pattern_type_filter: int = ..., principal_filter: str | None = ..., host_filter: str | None = ..., operation: int = ..., permission_type: int = ...) -> None: ...

class DescribeAclsResponse(Message):
    class AclDescription(Struct):
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(self, *, principal: str = ..., host: str = ..., operation: int = ..., permission_type: int = ...) -> None: ...
    class DescribeAclsResource(Struct):
        resource_type: int
        resource_name: str
        pattern_type: int
        acls: list[DescribeAclsResponse.AclDescription]
        def __init__(self, *, resource_type: int = ..., resource_name: str = ..., pattern_type: int = ..., acls: list[DescribeAclsResponse.AclDescription] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    resources: list[DescribeAclsResponse.DescribeAclsResource]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., resources: list[DescribeAclsResponse.DescribeAclsResource] = ...) -> None: ...

class DescribeClientQuotasRequest(Message):
    class ComponentData(Struct):
        entity_type: str
        match_type: int
        match: str | None
        def __init__(self, *, entity_type: str = ..., match_type: int = ..., match: str | None = ...) -> None: ...
    components: list[DescribeClientQuotasRequest.ComponentData]
    strict: bool
    def __init__(self, *, components: list[DescribeClientQuotasRequest.ComponentData] = ..., strict: bool = ...) -> None: ...

class DescribeClientQuotasResponse(Message):
    class EntityData(Struct):
        entity_type: str
        entity_name: str | None
        def __init__(self, *, entity_type: str = ..., entity_name: str | None = ...) -> None: ...
    class ValueData(Struct):
        key: str
        value: float
        def __init__(self, *, key: str = ..., value: float = ...) -> None: ...
    class EntryData(Struct):
        entity: list[DescribeClientQuotasResponse.EntityData]
        values: list[DescribeClientQuotasResponse.ValueData]
        def __init__(self, *, entity: list[DescribeClientQuotasResponse.EntityData] = ..., values: list[DescribeClientQuotasResponse.ValueData] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    entries: list[DescribeClientQuotasResponse.EntryData] | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., entries: list[DescribeClientQuotasResponse.EntryData] | None = ...) -> None: ...

class DescribeClusterRequest(Message):
    include_cluster_authorized_operations: bool
    endpoint_type: int
    def __init__(self, *, include_cluster_authorized_operations: bool = ..., endpoint_type: int = ...) -> None: ...

class DescribeClusterResponse(Message):
    class DescribeClusterBroker(Struct):
        broker_id: int
        host: str
        port: int
        rack: str | None
        def __init__(self, *, broker_id: int = ..., host: str = ..., port: int = ..., rack: str | None = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    endpoint_type: int
    cluster_id: str
    controller_id: int
    brokers: list[DescribeClusterResponse.DescribeClusterBroker]
    cluster_authorized_operations: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., endpoint_type: int = ..., cluster_id: str = ..., controller_id: int = ..., brokers: list[DescribeClusterResponse.DescribeClusterBroker] = ..., cluster_authorized_operations: int = ...) -> None: ...

class DescribeConfigsRequest(Message):
    class DescribeConfigsResource(Struct):
        resource_type: int
        resource_name: str
        configuration_keys: list[str] | None
        def __init__(self, *, resource_type: int = ..., resource_name: str = ..., configuration_keys: list[str] | None = ...) -> None: ...
    resources: list[DescribeConfigsRequest.DescribeConfigsResource]
    include_synonyms: bool
    include_documentation: bool
    def __init__(self, *, resources: list[DescribeConfigsRequest.DescribeConfigsResource] = ..., include_synonyms: bool = ..., include_documentation: bool = ...) -> None: ...

class DescribeConfigsResponse(Message):
    class DescribeConfigsSynonym(Struct):
        name: str
        value: str | None
        source: int
        def __init__(self, *, name: str = ..., value: str | None = ..., source: int = ...) -> None: ...
    class DescribeConfigsResourceResult(Struct):
        name: str
        value: str | None
        read_only: bool
        is_default: bool
        config_source: int
        is_sensitive: bool
        synonyms: list[DescribeConfigsResponse.DescribeConfigsSynonym]
        config_type: int
        documentation: str | None
        def __init__(self, *, name: str = ..., value: str | None = ..., read_only: bool = ..., is_default: bool = ..., config_source: int = ..., is_sensitive: bool = ..., synonyms: list[DescribeConfigsResponse.DescribeConfigsSynonym] = ..., config_type: int = ..., documentation: str | None = ...) -> None: ...
    class DescribeConfigsResult(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        configs: list[DescribeConfigsResponse.DescribeConfigsResourceResult]
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., resource_type: int = ..., resource_name: str = ..., configs: list[DescribeConfigsResponse.DescribeConfigsResourceResult] = ...) -> None: ...
    throttle_time_ms: int
    results: list[DescribeConfigsResponse.DescribeConfigsResult]
    def __init__(self, *, throttle_time_ms: int = ..., results: list[DescribeConfigsResponse.DescribeConfigsResult] = ...) -> None: ...

class DescribeDelegationTokenRequest(Message):
    class DescribeDelegationTokenOwner(Struct):
        principal_type: str
        principal_name: str
        def __init__(self, *, principal_type: str = ..., principal_name: str = ...) -> None: ...
    owners: list[DescribeDelegationTokenRequest.DescribeDelegationTokenOwner] | None
    def __init__(self, *, owners: list[DescribeDelegationTokenRequest.DescribeDelegationTokenOwner] | None = ...) -> None: ...

class DescribeDelegationTokenResponse(Message):
    class DescribedDelegationTokenRenewer(Struct):
        principal_type: str
        principal_name: str
        def __init__(self, *, principal_type: str = ..., principal_name: str = ...) -> None: ...
    class DescribedDelegationToken(Struct):
        principal_type: str
        principal_name: str
        token_requester_principal_type: str
        token_requester_principal_name: str
        issue_timestamp: int
        expiry_timestamp: int
        max_timestamp: int
        token_id: str
        hmac: bytes
        renewers: list[DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer]
        def __init__(self, *, principal_type: str = ..., principal_name: str = ..., token_requester_principal_type: str = ..., token_requester_principal_name: str = ..., issue_timestamp: int = ..., expiry_timestamp: int = ..., max_timestamp: int = ..., token_id: str = ..., hmac: bytes = ..., renewers: list[DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer] = ...) -> None: ...
    error_code: int
    tokens: list[DescribeDelegationTokenResponse.DescribedDelegationToken]
    throttle_time_ms: int
    def __init__(self, *, error_code: int = ..., tokens: list[DescribeDelegationTokenResponse.DescribedDelegationToken] = ..., throttle_time_ms: int = ...) -> None: ...

class DescribeGroupsRequest(Message):
    groups: list[str]
    include_authorized_operations: bool
    def __init__(self, *, groups: list[str] = ..., include_authorized_operations: bool = ...) -> None: ...

class DescribeGroupsResponse(Message):
    class DescribedGroupMember(Struct):
        member_id: str
        group_instance_id: str | None
        client_id: str
        client_host: str
        member_metadata: bytes
        member_assignment: bytes
        def __init__(self, *, member_id: str = ..., group_instance_id: str | None = ..., client_id: str = ..., client_host: str = ..., member_metadata: bytes = ..., member_assignment: bytes = ...) -> None: ...
    class DescribedGroup(Struct):
        error_code: int
        group_id: str
        group_state: str
        protocol_type: str
        protocol_data: str
        members: list[DescribeGroupsResponse.DescribedGroupMember]
        authorized_operations: int
        def __init__(self, *, error_code: int = ..., group_id: str = ..., group_state: str = ..., protocol_type: str = ..., protocol_data: str = ..., members: list[DescribeGroupsResponse.DescribedGroupMember] = ..., authorized_operations: int = ...) -> None: ...
    throttle_time_ms: int
    groups: list[DescribeGroupsResponse.DescribedGroup]
    def __init__(self, *, throttle_time_ms: int = ..., groups: list[DescribeGroupsResponse.DescribedGroup] = ...) -> None: ...

class DescribeLogDirsRequest(Message):
    class DescribableLogDirTopic(Struct):
        topic: str
        partitions: list[int]
        def __init__(self, *, topic: str = ..., partitions: list[int] = ...) -> None: ...
    topics: list[DescribeLogDirsRequest.DescribableLogDirTopic] | None
    def __init__(self, *, topics: list[DescribeLogDirsRequest.DescribableLogDirTopic] | None = ...) -> None: ...

class DescribeLogDirsResponse(Message):
    class DescribeLogDirsPartition(Struct):
        partition_index: int
        partition_size: int
        offset_lag: int
        is_future_key: bool
        def __init__(self, *, partition_index: int = ..., partition_size: int = ..., offset_lag: int = ..., is_future_key: bool = ...) -> None: ...
    class DescribeLogDirsTopic(Struct):
        name: str
        partitions: list[DescribeLogDirsResponse.DescribeLogDirsPartition]
        def __init__(self, *, name: str = ..., partitions: list[DescribeLogDirsResponse.DescribeLogDirsPartition] = ...) -> None: ...
    class DescribeLogDirsResult(Struct):
        error_code: int
        log_dir: str
        topics: list[DescribeLogDirsResponse.DescribeLogDirsTopic]
        total_bytes: int
        usable_bytes: int
        def __init__(self, *, error_code: int = ..., log_dir: str = ..., topics: list[DescribeLogDirsResponse.DescribeLogDirsTopic] = ..., total_bytes: int = ..., usable_bytes: int = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    results: list[DescribeLogDirsResponse.DescribeLogDirsResult]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., results: list[DescribeLogDirsResponse.DescribeLogDirsResult] = ...) -> None: ...

class DescribeProducersRequest(Message):
    class TopicRequest(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(self, *, name: str = ..., partition_indexes: list[int] = ...) -> None: ...
    topics: list[DescribeProducersRequest.TopicRequest]
    def __init__(self, *, topics: list[DescribeProducersRequest.TopicRequest] = ...) -> None: ...

class DescribeProducersResponse(Message):
    class ProducerState(Struct):
        producer_id: int
        producer_epoch: int
        last_sequence: int
        last_timestamp: int
        coordinator_epoch: int
        current_txn_start_offset: int
        def __init__(self, *, producer_id: int = ..., producer_epoch: int = ..., last_sequence: int = ..., last_timestamp: int = ..., coordinator_epoch: int = ..., current_txn_start_offset: int = ...) -> None: ...
    class PartitionResponse(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        active_producers: list[DescribeProducersResponse.ProducerState]
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., error_message: str | None = ..., active_producers: list[DescribeProducersResponse.ProducerState] = ...) -> None: ...
    class TopicResponse(Struct):
        name: str
        partitions: list[DescribeProducersResponse.PartitionResponse]
        def __init__(self, *, name: str = ..., partitions: list[DescribeProducersResponse.PartitionResponse] = ...) -> None: ...
    throttle_time_ms: int
    topics: list[DescribeProducersResponse.TopicResponse]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[DescribeProducersResponse.TopicResponse] = ...) -> None: ...

class DescribeQuorumRequest(Message):
    class PartitionData(Struct):
        partition_index: int
        def __init__(self, *, partition_index: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[DescribeQuorumRequest.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[DescribeQuorumRequest.PartitionData] = ...) -> None: ...
    topics: list[DescribeQuorumRequest.TopicData]
    def __init__(self, *, topics: list[DescribeQuorumRequest.TopicData] = ...) -> None: ...

class DescribeQuorumResponse(Message):
    class ReplicaState(Struct):
        replica_id: int
        replica_directory_id: uuid.UUID
        log_end_offset: int
        last_fetch_timestamp: int
        last_caught_up_timestamp: int
        def __init__(self, *, replica_id: int = ..., replica_directory_id: uuid.UUID = ..., log_end_offset: int = ..., last_fetch_timestamp: int = ..., last_caught_up_timestamp: int = ...) -> None: ...
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        leader_id: int
        leader_epoch: int
        high_watermark: int
        current_voters: list[DescribeQuorumResponse.ReplicaState]
        observers: list[DescribeQuorumResponse.ReplicaState]
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., error_message: str | None = ..., leader_id: int = ..., leader_epoch: int = ..., high_watermark: int = ..., current_voters: list[DescribeQuorumResponse.ReplicaState] = ..., observers: list[DescribeQuorumResponse.ReplicaState] = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[DescribeQuorumResponse.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[DescribeQuorumResponse.PartitionData] = ...) -> None: ...
    class Listener(Struct):
        name: str
        host: str
        port: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ...) -> None: ...
    class Node(Struct):
        node_id: int
        listeners: list[DescribeQuorumResponse.Listener]
        def __init__(self, *, node_id: int = ..., listeners: list[DescribeQuorumResponse.Listener] = ...) -> None: ...
    error_code: int
    error_message: str | None
    topics: list[DescribeQuorumResponse.TopicData]
    nodes: list[DescribeQuorumResponse.Node]
    def __init__(self, *, error_code: int = ..., error_message: str | None = ..., topics: list[DescribeQuorumResponse.TopicData] = ..., nodes: list[DescribeQuorumResponse.Node] = ...) -> None: ...

class DescribeTopicPartitionsRequest(Message):
    class TopicRequest(Struct):
        name: str
        def __init__(self, *, name: str = ...) -> None: ...
    class Cursor(Struct):
        topic_name: str
        partition_index: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ...) -> None: ...
    topics: list[DescribeTopicPartitionsRequest.TopicRequest]
    response_partition_limit: int
    cursor: DescribeTopicPartitionsRequest.Cursor | None
    def __init__(self, *, topics: list[DescribeTopicPartitionsRequest.TopicRequest] = ..., response_partition_limit: int = ..., cursor: DescribeTopicPartitionsRequest.Cursor | None = ...) -> None: ...

class DescribeTopicPartitionsResponse(Message):
    class DescribeTopicPartitionsResponsePartition(Struct):
        error_code: int
        partition_index: int
        leader_id: int
        leader_epoch: int
        replica_nodes: list[int]
        isr_nodes: list[int]
        eligible_leader_replicas: list[int] | None
        last_known_elr: list[int] | None
        offline_replicas: list[int]
        def __init__(self, *, error_code: int = ..., partition_index: int = ..., leader_id: int = ..., leader_epoch: int = ..., replica_nodes: list[int] = ..., isr_nodes: list[int] = ..., eligible_leader_replicas: list[int] | None = ..., last_known_elr: list[int] | None = ..., offline_replicas: list[int] = ...) -> None: ...
    class DescribeTopicPartitionsResponseTopic(Struct):
        error_code: int
        name: str | None
        topic_id: uuid.UUID
        is_internal: bool
        partitions: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition]
        topic_authorized_operations: int
        def __init__(self, *, error_code: int = ..., name: str | None = ..., topic_id: uuid.UUID = ..., is_internal: bool = ..., partitions: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition] = ..., topic_authorized_operations: int = ...) -> None: ...
    class Cursor(Struct):
        topic_name: str
        partition_index: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ...) -> None: ...
    throttle_time_ms: int
    topics: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic]
    next_cursor: DescribeTopicPartitionsResponse.Cursor | None
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic] = ..., next_cursor: DescribeTopicPartitionsResponse.Cursor | None = ...) -> None: ...

class DescribeTransactionsRequest(Message):
    transactional_ids: list[str]
    def __init__(self, *, transactional_ids: list[str] = ...) -> None: ...

class DescribeTransactionsResponse(Message):
    class TopicData(Struct):
        topic: str
        partitions: list[int]
        def __init__(self, *, topic: str = ..., partitions: list[int] = ...) -> None: ...
    class TransactionState(Struct):
        error_code: int
        transactional_id: str
        transaction_state: str
        transaction_timeout_ms: int
        transaction_start_time_ms: int
        producer_id: int
        producer_epoch: int
        topics: list[DescribeTransactionsResponse.TopicData]
        def __init__(self, *, error_code: int = ..., transactional_id: str = ..., transaction_state: str = ..., transaction_timeout_ms: int = ..., transaction_start_time_ms: int = ..., producer_id: int = ..., producer_epoch: int = ..., topics: list[DescribeTransactionsResponse.TopicData] = ...) -> None: ...
    throttle_time_ms: int
    transaction_states: list[DescribeTransactionsResponse.TransactionState]
    def __init__(self, *, throttle_time_ms: int = ..., transaction_states: list[DescribeTransactionsResponse.TransactionState] = ...) -> None: ...

class DescribeUserScramCredentialsRequest(Message):
    class UserName(Struct):
        name: str
        def __init__(self, *, name: str = ...) -> None: ...
    users: list[DescribeUserScramCredentialsRequest.UserName] | None
    def __init__(self, *, users: list[DescribeUserScramCredentialsRequest.UserName] | None = ...) -> None: ...

class DescribeUserScramCredentialsResponse(Message):
    class CredentialInfo(Struct):
        mechanism: int
        iterations: int
        def __init__(self, *, mechanism: int = ..., iterations: int = ...) -> None: ...
    class DescribeUserScramCredentialsResult(Struct):
        user: str
        error_code: int
        error_message: str | None
        credential_infos: list[DescribeUserScramCredentialsResponse.CredentialInfo]
        def __init__(self, *, user: str = ..., error_code: int = ..., error_message: str | None = ..., credential_infos: list[DescribeUserScramCredentialsResponse.CredentialInfo] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., results: list[DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult] = ...) -> None: ...

class ElectLeadersRequest(Message):
    class TopicPartitions(Struct):
        topic: str
        partitions: list[int]
        def __init__(self, *, topic: str = ..., partitions: list[int] = ...) -> None: ...
    election_type: int
    topic_partitions: list[ElectLeadersRequest.TopicPartitions] | None
    timeout_ms: int
    def __init__(self, *, election_type: int = ..., topic_partitions: list[ElectLeadersRequest.TopicPartitions] | None = ..., timeout_ms: int = ...) -> None: ...

class ElectLeadersResponse(Message):
    class PartitionResult(Struct):
        partition_id: int
        error_code: int
        error_message: str | None
        def __init__(self, *, partition_id: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    class ReplicaElectionResult(Struct):
        topic: str
        partition_result: list[ElectLeadersResponse.PartitionResult]
        def __init__(self, *, topic: str = ..., partition_result: list[ElectLeadersResponse.PartitionResult] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    replica_election_results: list[ElectLeadersResponse.ReplicaElectionResult]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., replica_election_results: list[ElectLeadersResponse.ReplicaElectionResult] = ...) -> None: ...

class EndQuorumEpochRequest(Message):
    class ReplicaInfo(Struct):
        candidate_id: int
        candidate_directory_id: uuid.UUID
        def __init__(self, *, candidate_id: int = ..., candidate_directory_id: uuid.UUID = ...) -> None: ...
    class PartitionData(Struct):
        partition_index: int
        leader_id: int
        leader_epoch: int
        preferred_successors: list[int]
        preferred_candidates: list[EndQuorumEpochRequest.ReplicaInfo]
        def __init__(self, *, partition_index: int = ..., leader_id: int = ..., leader_epoch: int = ..., preferred_successors: list[int] = ..., preferred_candidates: list[EndQuorumEpochRequest.ReplicaInfo] = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[EndQuorumEpochRequest.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[EndQuorumEpochRequest.PartitionData] = ...) -> None: ...
    class LeaderEndpoint(Struct):
        name: str
        host: str
        port: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ...) -> None: ...
    cluster_id: str | None
    topics: list[EndQuorumEpochRequest.TopicData]
    leader_endpoints: list[EndQuorumEpochRequest.LeaderEndpoint]
    def __init__(self, *, cluster_id: str | None = ..., topics: list[EndQuorumEpochRequest.TopicData] = ..., leader_endpoints: list[EndQuorumEpochRequest.LeaderEndpoint] = ...) -> None: ...

class EndQuorumEpochResponse(Message):
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[EndQuorumEpochResponse.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[EndQuorumEpochResponse.PartitionData] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ...) -> None: ...
    error_code: int
    topics: list[EndQuorumEpochResponse.TopicData]
    node_endpoints: list[EndQuorumEpochResponse.NodeEndpoint]
    def __init__(self, *, error_code: int = ..., topics: list[EndQuorumEpochResponse.TopicData] = ..., node_endpoints: list[EndQuorumEpochResponse.NodeEndpoint] = ...) -> None: ...

class EndTxnRequest(Message):
    transactional_id: str
    producer_id: int
    producer_epoch: int
    committed: bool
    def __init__(self, *, transactional_id: str = ..., producer_id: int = ..., producer_epoch: int = ..., committed: bool = ...) -> None: ...

class EndTxnResponse(Message):
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., producer_id: int = ..., producer_epoch: int = ...) -> None: ...

class EnvelopeRequest(Message):
    request_data: bytes
    request_principal: bytes | None
    client_host_address: bytes
    def __init__(self, *, request_data: bytes = ..., request_principal: bytes | None = ..., client_host_address: bytes = ...) -> None: ...

class EnvelopeResponse(Message):
    response_data: bytes | None
    error_code: int
    def __init__(self, *, response_data: bytes | None = ..., error_code: int = ...) -> None: ...

class ExpireDelegationTokenRequest(Message):
    hmac: bytes
    expiry_time_period_ms: int
    def __init__(self, *, hmac: bytes = ..., expiry_time_period_ms: int = ...) -> None: ...

class ExpireDelegationTokenResponse(Message):
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int
    def __init__(self, *, error_code: int = ..., expiry_timestamp_ms: int = ..., throttle_time_ms: int = ...) -> None: ...

class FetchRequest(Message):
    class ReplicaState(Struct):
        replica_id: int
        replica_epoch: int
        def __init__(self, *, replica_id: int = ..., replica_epoch: int = ...) -> None: ...
    class FetchPartition(Struct):
        partition: int
        current_leader_epoch: int
        fetch_offset: int
        last_fetched_epoch: int
        log_start_offset: int
        partition_max_bytes: int
        replica_directory_id: uuid.UUID
        def __init__(self, *, partition: int = ..., current_leader_epoch: int = ..., fetch_offset: int = ..., last_fetched_epoch: int = ..., log_start_offset: int = ..., partition_max_bytes: int = ..., replica_directory_id: uuid.UUID = ...) -> None: ...
    class FetchTopic(Struct):
        topic: str
        topic_id: uuid.UUID
        partitions: list[FetchRequest.FetchPartition]
        def __init__(self, *, topic: str = ..., topic_id: uuid.UUID = ..., partitions: list[FetchRequest.FetchPartition] = ...) -> None: ...
    class ForgottenTopic(Struct):
        topic: str
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(self, *, topic: str = ..., topic_id: uuid.UUID = ..., partitions: list[int] = ...) -> None: ...
    cluster_id: str | None
    replica_id: int
    replica_state: FetchRequest.ReplicaState
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    isolation_level: int
    session_id: int
    session_epoch: int
    topics: list[FetchRequest.FetchTopic]
    forgotten_topics_data: list[FetchRequest.ForgottenTopic]
    rack_id: str
    def __init__(self, *, cluster_id: str | None = ..., replica_id: int = ..., replica_state: FetchRequest.ReplicaState = ..., max_wait_ms: int = ..., min_bytes: int = ..., max_bytes: int = ..., isolation_level: int = ..., session_id: int = ..., session_epoch: int = ..., topics: list[FetchRequest.FetchTopic] = ..., forgotten_topics_data: list[FetchRequest.ForgottenTopic] = ..., rack_id: str = ...) -> None: ...

class FetchResponse(Message):
    class EpochEndOffset(Struct):
        epoch: int
        end_offset: int
        def __init__(self, *, epoch: int = ..., end_offset: int = ...) -> None: ...
    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(self, *, leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class SnapshotId(Struct):
        end_offset: int
        epoch: int
        def __init__(self, *, end_offset: int = ..., epoch: int = ...) -> None: ...
    class AbortedTransaction(Struct):
        producer_id: int
        first_offset: int
        def __init__(self, *, producer_id: int = ..., first_offset: int = ...) -> None: ...
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        high_watermark: int
        last_stable_offset: int
        log_start_offset: int
        diverging_epoch: FetchResponse.EpochEndOffset
        current_leader: FetchResponse.LeaderIdAndEpoch
        snapshot_id: FetchResponse.SnapshotId
        aborted_transactions: list[FetchResponse.AbortedTransaction] | None
        preferred_read_replica: int
        records: bytes | memoryview
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., high_watermark: int = ..., last_stable_offset: int = ..., log_start_offset: int = ..., diverging_epoch: FetchResponse.EpochEndOffset = ..., current_leader: FetchResponse.LeaderIdAndEpoch = ..., snapshot_id: FetchResponse.SnapshotId = ..., aborted_transactions: list[FetchResponse.AbortedTransaction] | None = ..., preferred_read_replica: int = ..., records: bytes | memoryview = ...) -> None: ...
    class FetchableTopicResponse(Struct):
        topic: str
        topic_id: uuid.UUID
        partitions: list[FetchResponse.PartitionData]
        def __init__(self, *, topic: str = ..., topic_id: uuid.UUID = ..., partitions: list[FetchResponse.PartitionData] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ..., rack: str | None = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    session_id: int
    responses: list[FetchResponse.FetchableTopicResponse]
    node_endpoints: list[FetchResponse.NodeEndpoint]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., session_id: int = ..., responses: list[FetchResponse.FetchableTopicResponse] = ..., node_endpoints: list[FetchResponse.NodeEndpoint] = ...) -> None: ...

class FetchSnapshotRequest(Message):
    class SnapshotId(Struct):
        end_offset: int
        epoch: int
        def __init__(self, *, end_offset: int = ..., epoch: int = ...) -> None: ...
    class PartitionSnapshot(Struct):
        partition: int
        current_leader_epoch: int
        snapshot_id: FetchSnapshotRequest.SnapshotId
        position: int
        replica_directory_id: uuid.UUID
        def __init__(self, *, partition: int = ..., current_leader_epoch: int = ..., snapshot_id: FetchSnapshotRequest.SnapshotId = ..., position: int = ..., replica_directory_id: uuid.UUID = ...) -> None: ...
    class TopicSnapshot(Struct):
        name: str
        partitions: list[FetchSnapshotRequest.PartitionSnapshot]
        def __init__(self, *, name: str = ..., partitions: list[FetchSnapshotRequest.PartitionSnapshot] = ...) -> None: ...
    cluster_id: str | None
    replica_id: int
    max_bytes: int
    topics: list[FetchSnapshotRequest.TopicSnapshot]
    def __init__(self, *, cluster_id: str | None = ..., replica_id: int = ..., max_bytes: int = ..., topics: list[FetchSnapshotRequest.TopicSnapshot] = ...) -> None: ...

class FetchSnapshotResponse(Message):
    class SnapshotId(Struct):
        end_offset: int
        epoch: int
        def __init__(self, *, end_offset: int = ..., epoch: int = ...) -> None: ...
    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(self, *, leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class PartitionSnapshot(Struct):
        index: int
        error_code: int
        snapshot_id: FetchSnapshotResponse.SnapshotId
        current_leader: FetchSnapshotResponse.LeaderIdAndEpoch
        size: int
        position: int
        unaligned_records: bytes | memoryview
        def __init__(self, *, index: int = ..., error_code: int = ..., snapshot_id: FetchSnapshotResponse.SnapshotId = ..., current_leader: FetchSnapshotResponse.LeaderIdAndEpoch = ..., size: int = ..., position: int = ..., unaligned_records: bytes | memoryview = ...) -> None: ...
    class TopicSnapshot(Struct):
        name: str
        partitions: list[FetchSnapshotResponse.PartitionSnapshot]
        def __init__(self, *, name: str = ..., partitions: list[FetchSnapshotResponse.PartitionSnapshot] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    topics: list[FetchSnapshotResponse.TopicSnapshot]
    node_endpoints: list[FetchSnapshotResponse.NodeEndpoint]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., topics: list[FetchSnapshotResponse.TopicSnapshot] = ..., node_endpoints: list[FetchSnapshotResponse.NodeEndpoint] = ...) -> None: ...

class FindCoordinatorRequest(Message):
    key: str
    key_type: int
    coordinator_keys: list[str]
    def __init__(self, *, key: str = ..., key_type: int = ..., coordinator_keys: list[str] = ...) -> None: ...

class FindCoordinatorResponse(Message):
    class Coordinator(Struct):
        key: str
        node_id: int
        host: str
        port: int
        error_code: int
        error_message: str | None
        def __init__(self, *, key: str = ..., node_id: int = ..., host: str = ..., port: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    node_id: int
    host: str
    port: int
    coordinators: list[FindCoordinatorResponse.Coordinator]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., node_id: int = ..., host: str = ..., port: int = ..., coordinators: list[FindCoordinatorResponse.Coordinator] = ...) -> None: ...

class GetTelemetrySubscriptionsRequest(Message):
    client_instance_id: uuid.UUID
    def __init__(self, *, client_instance_id: uuid.UUID = ...) -> None: ...

class GetTelemetrySubscriptionsResponse(Message):
    throttle_time_ms: int
    error_code: int
    client_instance_id: uuid.UUID
    subscription_id: int
    accepted_compression_types: list[int]
    push_interval_ms: int
    telemetry_max_bytes: int
    delta_temporality: bool
    requested_metrics: list[str]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., client_instance_id: uuid.UUID = ..., subscription_id: int = ..., accepted_compression_types: list[int] = ..., push_interval_ms: int = ..., telemetry_max_bytes: int = ..., delta_temporality: bool = ..., requested_metrics: list[str] = ...) -> None: ...

class HeartbeatRequest(Message):
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    def __init__(self, *, group_id: str = ..., generation_id: int = ..., member_id: str = ..., group_instance_id: str | None = ...) -> None: ...

class HeartbeatResponse(Message):
    throttle_time_ms: int
    error_code: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ...) -> None: ...

class IncrementalAlterConfigsRequest(Message):
    class AlterableConfig(Struct):
        name: str
        config_operation: int
        value: str | None
        def __init__(self, *, name: str = ..., config_operation: int = ..., value: str | None = ...) -> None: ...
    class AlterConfigsResource(Struct):
        resource_type: int
        resource_name: str
        configs: list[IncrementalAlterConfigsRequest.AlterableConfig]
        def __init__(self, *, resource_type: int = ..., resource_name: str = ..., configs: list[IncrementalAlterConfigsRequest.AlterableConfig] = ...) -> None: ...
    resources: list[IncrementalAlterConfigsRequest.AlterConfigsResource]
    validate_only: bool
    def __init__(self, *, resources: list[IncrementalAlterConfigsRequest.AlterConfigsResource] = ..., validate_only: bool = ...) -> None: ...

class IncrementalAlterConfigsResponse(Message):
    class AlterConfigsResourceResponse(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., resource_type: int = ..., resource_name: str = ...) -> None: ...
    throttle_time_ms: int
    responses: list[IncrementalAlterConfigsResponse.AlterConfigsResourceResponse]
    def __init__(self, *, throttle_time_ms: int = ..., responses: list[IncrementalAlterConfigsResponse.AlterConfigsResourceResponse] = ...) -> None: ...

class InitProducerIdRequest(Message):
    transactional_id: str | None
    transaction_timeout_ms: int
    producer_id: int
    producer_epoch: int
    def __init__(self, *, transactional_id: str | None = ..., transaction_timeout_ms: int = ..., producer_id: int = ..., producer_epoch: int = ...) -> None: ...

class InitProducerIdResponse(Message):
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., producer_id: int = ..., producer_epoch: int = ...) -> None: ...

class InitializeShareGroupStateRequest(Message):
    class PartitionData(Struct):
        partition: int
        state_epoch: int
        start_offset: int
        def __init__(self, *, partition: int = ..., state_epoch: int = ..., start_offset: int = ...) -> None: ...
    class InitializeStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[InitializeShareGroupStateRequest.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[InitializeShareGroupStateRequest.PartitionData] = ...) -> None: ...
    group_id: str
    topics: list[InitializeShareGroupStateRequest.InitializeStateData]
    def __init__(self, *, group_id: str = ..., topics: list[InitializeShareGroupStateRequest.InitializeStateData] = ...) -> None: ...

class InitializeShareGroupStateResponse(Message):
    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        def __init__(self, *, partition: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    class InitializeStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[InitializeShareGroupStateResponse.PartitionResult]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[InitializeShareGroupStateResponse.PartitionResult] = ...) -> None: ...
    results: list[InitializeShareGroupStateResponse.InitializeStateResult]
    def __init__(self, *, results: list[InitializeShareGroupStateResponse.InitializeStateResult] = ...) -> None: ...

class JoinGroupRequest(Message):
    class JoinGroupRequestProtocol(Struct):
        name: str
        metadata: bytes
        def __init__(self, *, name: str = ..., metadata: bytes = ...) -> None: ...
    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str
    protocols: list[JoinGroupRequest.JoinGroupRequestProtocol]
    reason: str | None
    def __init__(self, *, group_id: str = ..., session_timeout_ms: int = ..., rebalance_timeout_ms: int = ..., member_id: str = ..., group_instance_id: str | None = ..., protocol_type: str = ..., protocols: list[JoinGroupRequest.JoinGroupRequestProtocol] = ..., reason: str | None = ...) -> None: ...

class JoinGroupResponse(Message):
    class JoinGroupResponseMember(Struct):
        member_id: str
        group_instance_id: str | None
        metadata: bytes
        def __init__(self, *, member_id: str = ..., group_instance_id: str | None = ..., metadata: bytes = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    leader: str
    skip_assignment: bool
    member_id: str
    members: list[JoinGroupResponse.JoinGroupResponseMember]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., generation_id: int = ..., protocol_type: str | None = ..., protocol_name: str | None = ..., leader: str = ..., skip_assignment: bool = ..., member_id: str = ..., members: list[JoinGroupResponse.JoinGroupResponseMember] = ...) -> None: ...

class KRaftVersionRecord(Message):
    version: int
    k_raft_version: int
    def __init__(self, *, version: int = ..., k_raft_version: int = ...) -> None: ...

class LeaderAndIsrRequest(Message):
    class LeaderAndIsrPartitionState(Struct):
        topic_name: str
        partition_index: int
        controller_epoch: int
        leader: int
        leader_epoch: int
        isr: list[int]
        partition_epoch: int
        replicas: list[int]
        adding_replicas: list[int]
        removing_replicas: list[int]
        is_new: bool
        leader_recovery_state: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ..., controller_epoch: int = ..., leader: int = ..., leader_epoch: int = ..., isr: list[int] = ..., partition_epoch: int = ..., replicas: list[int] = ..., adding_replicas: list[int] = ..., removing_replicas: list[int] = ..., is_new: bool = ..., leader_recovery_state: int = ...) -> None: ...
    class LeaderAndIsrTopicState(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState]
        def __init__(self, *, topic_name: str = ..., topic_id: uuid.UUID = ..., partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState] = ...) -> None: ...
    class LeaderAndIsrLiveLeader(Struct):
        broker_id: int
        host_name: str
        port: int
        def __init__(self, *, broker_id: int = ..., host_name: str = ..., port: int = ...) -> None: ...
    controller_id: int
    is_k_raft_controller: bool
    controller_epoch: int
    broker_epoch: int
    type: int
    ungrouped_partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState]
    topic_states: list[LeaderAndIsrRequest.LeaderAndIsrTopicState]
    live_leaders: list[LeaderAndIsrRequest.LeaderAndIsrLiveLeader]
    def __init__(self, *, controller_id: int = ..., is_k_raft_controller: bool = ..., controller_epoch: int = ..., broker_epoch: int = ..., type: int = ..., ungrouped_partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState] = ..., topic_states: list[LeaderAndIsrRequest.LeaderAndIsrTopicState] = ..., live_leaders: list[LeaderAndIsrRequest.LeaderAndIsrLiveLeader] = ...) -> None: ...

class LeaderAndIsrResponse(Message):
    class LeaderAndIsrPartitionError(Struct):
        topic_name: str
        partition_index: int
        error_code: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ..., error_code: int = ...) -> None: ...
    class LeaderAndIsrTopicError(Struct):
        topic_id: uuid.UUID
        partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError]
        def __init__(self, *, topic_id: uuid.UUID = ..., partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError] = ...) -> None: ...
    error_code: int
    partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError]
    topics: list[LeaderAndIsrResponse.LeaderAndIsrTopicError]
    def __init__(self, *, error_code: int = ..., partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError] = ..., topics: list[LeaderAndIsrResponse.LeaderAndIsrTopicError] = ...) -> None: ...

class LeaderChangeMessage(Message):
    class Voter(Struct):
        voter_id: int
        voter_directory_id: uuid.UUID
        def __init__(self, *, voter_id: int = ..., voter_directory_id: uuid.UUID = ...) -> None: ...
    version: int
    leader_id: int
    voters: list[LeaderChangeMessage.Voter]
    granting_voters: list[LeaderChangeMessage.Voter]
    def __init__(self, *, version: int = ..., leader_id: int = ..., voters: list[LeaderChangeMessage.Voter] = ..., granting_voters: list[LeaderChangeMessage.Voter] = ...) -> None: ...

class LeaveGroupRequest(Message):
    class MemberIdentity(Struct):
        member_id: str
        group_instance_id: str | None
        reason: str | None
        def __init__(self, *, member_id: str = ..., group_instance_id: str | None = ..., reason: str | None = ...) -> None: ...
    group_id: str
    member_id: str
    members: list[LeaveGroupRequest.MemberIdentity]
    def __init__(self, *, group_id: str = ..., member_id: str = ..., members: list[LeaveGroupRequest.MemberIdentity] = ...) -> None: ...

class LeaveGroupResponse(Message):
    class MemberResponse(Struct):
        member_id: str
        group_instance_id: str | None
        error_code: int
        def __init__(self, *, member_id: str = ..., group_instance_id: str | None = ..., error_code: int = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    members: list[LeaveGroupResponse.MemberResponse]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., members: list[LeaveGroupResponse.MemberResponse] = ...) -> None: ...

class ListClientMetricsResourcesRequest(Message):
    def __init__(self) -> None: ...

class ListClientMetricsResourcesResponse(Message):
    class ClientMetricsResource(Struct):
        name: str
        def __init__(self, *, name: str = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    client_metrics_resources: list[ListClientMetricsResourcesResponse.ClientMetricsResource]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., client_metrics_resources: list[ListClientMetricsResourcesResponse.ClientMetricsResource] = ...) -> None: ...

class ListGroupsRequest(Message):
    states_filter: list[str]
    types_filter: list[str]
    def __init__(self, *, states_filter: list[str] = ..., types_filter: list[str] = ...) -> None: ...

class ListGroupsResponse(Message):
    class ListedGroup(Struct):
        group_id: str
        protocol_type: str
        group_state: str
        group_type: str
        def __init__(self, *, group_id: str = ..., protocol_type: str = ..., group_state: str = ..., group_type: str = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    groups: list[ListGroupsResponse.ListedGroup]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., groups: list[ListGroupsResponse.ListedGroup] = ...) -> None: ...

class ListOffsetsRequest(Message):
    class ListOffsetsPartition(Struct):
        partition_index: int
        current_leader_epoch: int
        timestamp: int
        max_num_offsets: int
        def __init__(self, *, partition_index: int = ..., current_leader_epoch: int = ..., timestamp: int = ..., max_num_offsets: int = ...) -> None: ...
    class ListOffsetsTopic(Struct):
        name: str
        partitions: list[ListOffsetsRequest.ListOffsetsPartition]
        def __init__(self, *, name: str = ..., partitions: list[ListOffsetsRequest.ListOffsetsPartition] = ...) -> None: ...
    replica_id: int
    isolation_level: int
    topics: list[ListOffsetsRequest.ListOffsetsTopic]
    timeout_ms: int
    def __init__(self, *, replica_id: int = ..., isolation_level: int = ..., topics: list[ListOffsetsRequest.ListOffsetsTopic] = ..., timeout_ms: int = ...) -> None: ...

class ListOffsetsResponse(Message):
    class ListOffsetsPartitionResponse(Struct):
        partition_index: int
        error_code: int
        old_style_offsets: list[int]
        timestamp: int
        offset: int
        leader_epoch: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., old_style_offsets: list[int] = ..., timestamp: int = ..., offset: int = ..., leader_epoch: int = ...) -> None: ...
    class ListOffsetsTopicResponse(Struct):
        name: str
        partitions: list[ListOffsetsResponse.ListOffsetsPartitionResponse]
        def __init__(self, *, name: str = ..., partitions: list[ListOffsetsResponse.ListOffsetsPartitionResponse] = ...) -> None: ...
    throttle_time_ms: int
    topics: list[ListOffsetsResponse.ListOffsetsTopicResponse]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[ListOffsetsResponse.ListOffsetsTopicResponse] = ...) -> None: ...

class ListPartitionReassignmentsRequest(Message):
    class ListPartitionReassignmentsTopics(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(self, *, name: str = ..., partition_indexes: list[int] = ...) -> None: ...
    timeout_ms: int
    topics: list[ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics] | None
    def __init__(self, *, timeout_ms: int = ..., topics: list[ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics] | None = ...) -> None: ...

class ListPartitionReassignmentsResponse(Message):
    class OngoingPartitionReassignment(Struct):
        partition_index: int
        replicas: list[int]
        adding_replicas: list[int]
        removing_replicas: list[int]
        def __init__(self, *, partition_index: int = ..., replicas: list[int] = ..., adding_replicas: list[int] = ..., removing_replicas: list[int] = ...) -> None: ...
    class OngoingTopicReassignment(Struct):
        name: str
        partitions: list[ListPartitionReassignmentsResponse.OngoingPartitionReassignment]
        def __init__(self, *, name: str = ..., partitions: list[ListPartitionReassignmentsResponse.OngoingPartitionReassignment] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    topics: list[ListPartitionReassignmentsResponse.OngoingTopicReassignment]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., topics: list[ListPartitionReassignmentsResponse.OngoingTopicReassignment] = ...) -> None: ...

class ListTransactionsRequest(Message):
    state_filters: list[str]
    producer_id_filters: list[int]
    duration_filter: int
    def __init__(self, *, state_filters: list[str] = ..., producer_id_filters: list[int] = ..., duration_filter: int = ...) -> None: ...

class ListTransactionsResponse(Message):
    class TransactionState(Struct):
        transactional_id: str
        producer_id: int
        transaction_state: str
        def __init__(self, *, transactional_id: str = ..., producer_id: int = ..., transaction_state: str = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    unknown_state_filters: list[str]
    transaction_states: list[ListTransactionsResponse.TransactionState]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., unknown_state_filters: list[str] = ..., transaction_states: list[ListTransactionsResponse.TransactionState] = ...) -> None: ...

class MetadataRequest(Message):
    class MetadataRequestTopic(Struct):
        topic_id: uuid.UUID
        name: str | None
        def __init__(self, *, topic_id: uuid.UUID = ..., name: str | None = ...) -> None: ...
    topics: list[MetadataRequest.MetadataRequestTopic] | None
    allow_auto_topic_creation: bool
    include_cluster_authorized_operations: bool
    include_topic_authorized_operations: bool
    def __init__(self, *, topics: list[MetadataRequest.MetadataRequestTopic] | None = ..., allow_auto_topic_creation: bool = ..., include_cluster_authorized_operations: bool = ..., include_topic_authorized_operations: bool = ...) -> None: ...

class MetadataResponse(Message):
    class MetadataResponseBroker(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ..., rack: str | None = ...) -> None: ...
    class MetadataResponsePartition(Struct):
        error_code: int
        partition_index: int
        leader_id: int
        leader_epoch: int
        replica_nodes: list[int]
        isr_nodes: list[int]
        offline_replicas: list[int]
        def __init__(self, *, error_code: int = ..., partition_index: int = ..., leader_id: int = ..., leader_epoch: int = ..., replica_nodes: list[int] = ..., isr_nodes: list[int] = ..., offline_replicas: list[int] = ...) -> None: ...
    class MetadataResponseTopic(Struct):
        error_code: int
        name: str | None
        topic_id: uuid.UUID
        is_internal: bool
        partitions: list[MetadataResponse.MetadataResponsePartition]
        topic_authorized_operations: int
        def __init__(self, *, error_code: int = ..., name: str | None = ..., topic_id: uuid.UUID = ..., is_internal: bool = ..., partitions: list[MetadataResponse.MetadataResponsePartition] = ..., topic_authorized_operations: int = ...) -> None: ...
    throttle_time_ms: int
    brokers: list[MetadataResponse.MetadataResponseBroker]
    cluster_id: str | None
    controller_id: int
    topics: list[MetadataResponse.MetadataResponseTopic]
    cluster_authorized_operations: int
    def __init__(self, *, throttle_time_ms: int = ..., brokers: list[MetadataResponse.MetadataResponseBroker] = ..., cluster_id: str | None = ..., controller_id: int = ..., topics: list[MetadataResponse.MetadataResponseTopic] = ..., cluster_authorized_operations: int = ...) -> None: ...

class OffsetCommitRequest(Message):
    class OffsetCommitRequestPartition(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        commit_timestamp: int
        committed_metadata: str | None
        def __init__(self, *, partition_index: int = ..., committed_offset: int = ..., committed_leader_epoch: int = ..., commit_timestamp: int = ..., committed_metadata: str | None = ...) -> None: ...
    class OffsetCommitRequestTopic(Struct):
        name: str
        partitions: list[OffsetCommitRequest.OffsetCommitRequestPartition]
        def __init__(self, *, name: str = ..., partitions: list[OffsetCommitRequest.OffsetCommitRequestPartition] = ...) -> None: ...
    group_id: str
    generation_id_or_member_epoch: int
    member_id: str
    group_instance_id: str | None
    retention_time_ms: int
    topics: list[OffsetCommitRequest.OffsetCommitRequestTopic]
    def __init__(self, *, group_id: str = ..., generation_id_or_member_epoch: int = ..., member_id: str = ..., group_instance_id: str | None = ..., retention_time_ms: int = ..., topics: list[OffsetCommitRequest.OffsetCommitRequestTopic] = ...) -> None: ...

class OffsetCommitResponse(Message):
    class OffsetCommitResponsePartition(Struct):
        partition_index: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ...) -> None: ...
    class OffsetCommitResponseTopic(Struct):
        name: str
        partitions: list[OffsetCommitResponse.OffsetCommitResponsePartition]
        def __init__(self, *, name: str = ..., partitions: list[OffsetCommitResponse.OffsetCommitResponsePartition] = ...) -> None: ...
    throttle_time_ms: int
    topics: list[OffsetCommitResponse.OffsetCommitResponseTopic]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[OffsetCommitResponse.OffsetCommitResponseTopic] = ...) -> None: ...

class OffsetDeleteRequest(Message):
    class OffsetDeleteRequestPartition(Struct):
        partition_index: int
        def __init__(self, *, partition_index: int = ...) -> None: ...
    class OffsetDeleteRequestTopic(Struct):
        name: str
        partitions: list[OffsetDeleteRequest.OffsetDeleteRequestPartition]
        def __init__(self, *, name: str = ..., partitions: list[OffsetDeleteRequest.OffsetDeleteRequestPartition] = ...) -> None: ...
    group_id: str
    topics: list[OffsetDeleteRequest.OffsetDeleteRequestTopic]
    def __init__(self, *, group_id: str = ..., topics: list[OffsetDeleteRequest.OffsetDeleteRequestTopic] = ...) -> None: ...

class OffsetDeleteResponse(Message):
    class OffsetDeleteResponsePartition(Struct):
        partition_index: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ...) -> None: ...
    class OffsetDeleteResponseTopic(Struct):
        name: str
        partitions: list[OffsetDeleteResponse.OffsetDeleteResponsePartition]
        def __init__(self, *, name: str = ..., partitions: list[OffsetDeleteResponse.OffsetDeleteResponsePartition] = ...) -> None: ...
    error_code: int
    throttle_time_ms: int
    topics: list[OffsetDeleteResponse.OffsetDeleteResponseTopic]
    def __init__(self, *, error_code: int = ..., throttle_time_ms: int = ..., topics: list[OffsetDeleteResponse.OffsetDeleteResponseTopic] = ...) -> None: ...

class OffsetFetchRequest(Message):
    class OffsetFetchRequestTopic(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(self, *, name: str = ..., partition_indexes: list[int] = ...) -> None: ...
    class OffsetFetchRequestTopics(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(self, *, name: str = ..., partition_indexes: list[int] = ...) -> None: ...
    class OffsetFetchRequestGroup(Struct):
        group_id: str
        member_id: str | None
        member_epoch: int
        topics: list[OffsetFetchRequest.OffsetFetchRequestTopics] | None
        def __init__(self, *, group_id: str = ..., member_id: str | None = ..., member_epoch: int = ..., topics: list[OffsetFetchRequest.OffsetFetchRequestTopics] | None = ...) -> None: ...
    group_id: str
    topics: list[OffsetFetchRequest.OffsetFetchRequestTopic] | None
    groups: list[OffsetFetchRequest.OffsetFetchRequestGroup]
    require_stable: bool
    def __init__(self, *, group_id: str = ..., topics: list[OffsetFetchRequest.OffsetFetchRequestTopic] | None = ..., groups: list[OffsetFetchRequest.OffsetFetchRequestGroup] = ..., require_stable: bool = ...) -> None: ...

class OffsetFetchResponse(Message):
    class OffsetFetchResponsePartition(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        metadata: str | None
        error_code: int
        def __init__(self, *, partition_index: int = ..., committed_offset: int = ..., committed_leader_epoch: int = ..., metadata: str | None = ..., error_code: int = ...) -> None: ...
    class OffsetFetchResponseTopic(Struct):
        name: str
        partitions: list[OffsetFetchResponse.OffsetFetchResponsePartition]
        def __init__(self, *, name: str = ..., partitions: list[OffsetFetchResponse.OffsetFetchResponsePartition] = ...) -> None: ...
    class OffsetFetchResponsePartitions(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        metadata: str | None
        error_code: int
        def __init__(self, *, partition_index: int = ..., committed_offset: int = ..., committed_leader_epoch: int = ..., metadata: str | None = ..., error_code: int = ...) -> None: ...
    class OffsetFetchResponseTopics(Struct):
        name: str
        partitions: list[OffsetFetchResponse.OffsetFetchResponsePartitions]
        def __init__(self, *, name: str = ..., partitions: list[OffsetFetchResponse.OffsetFetchResponsePartitions] = ...) -> None: ...
    class OffsetFetchResponseGroup(Struct):
        group_id: str
        topics: list[OffsetFetchResponse.OffsetFetchResponseTopics]
        error_code: int
        def __init__(self, *, group_id: str = ..., topics: list[OffsetFetchResponse.OffsetFetchResponseTopics] = ..., error_code: int = ...) -> None: ...
    throttle_time_ms: int
    topics: list[OffsetFetchResponse.OffsetFetchResponseTopic]
    error_code: int
    groups: list[OffsetFetchResponse.OffsetFetchResponseGroup]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[OffsetFetchResponse.OffsetFetchResponseTopic] = ..., error_code: int = ..., groups: list[OffsetFetchResponse.OffsetFetchResponseGroup] = ...) -> None: ...

class OffsetForLeaderEpochRequest(Message):
    class OffsetForLeaderPartition(Struct):
        partition: int
        current_leader_epoch: int
        leader_epoch: int
        def __init__(self, *, partition: int = ..., current_leader_epoch: int = ..., leader_epoch: int = ...) -> None: ...
    class OffsetForLeaderTopic(Struct):
        topic: str
        partitions: list[OffsetForLeaderEpochRequest.OffsetForLeaderPartition]
        def __init__(self, *, topic: str = ..., partitions: list[OffsetForLeaderEpochRequest.OffsetForLeaderPartition] = ...) -> None: ...
    replica_id: int
    topics: list[OffsetForLeaderEpochRequest.OffsetForLeaderTopic]
    def __init__(self, *, replica_id: int = ..., topics: list[OffsetForLeaderEpochRequest.OffsetForLeaderTopic] = ...) -> None: ...

class OffsetForLeaderEpochResponse(Message):
    class EpochEndOffset(Struct):
        error_code: int
        partition: int
        leader_epoch: int
        end_offset: int
        def __init__(self, *, error_code: int = ..., partition: int = ..., leader_epoch: int = ..., end_offset: int = ...) -> None: ...
    class OffsetForLeaderTopicResult(Struct):
        topic: str
        partitions: list[OffsetForLeaderEpochResponse.EpochEndOffset]
        def __init__(self, *, topic: str = ..., partitions: list[OffsetForLeaderEpochResponse.EpochEndOffset] = ...) -> None: ...
    throttle_time_ms: int
    topics: list[OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult] = ...) -> None: ...

class ProduceRequest(Message):
    class PartitionProduceData(Struct):
        index: int
        records: bytes | memoryview
        def __init__(self, *, index: int = ..., records: bytes | memoryview = ...) -> None: ...
    class TopicProduceData(Struct):
        name: str
        partition_data: list[ProduceRequest.PartitionProduceData]
        def __init__(self, *, name: str = ..., partition_data: list[ProduceRequest.PartitionProduceData] = ...) -> None: ...
    transactional_id: str | None
    acks: int
    timeout_ms: int
    topic_data: list[ProduceRequest.TopicProduceData]
    def __init__(self, *, transactional_id: str | None = ..., acks: int = ..., timeout_ms: int = ..., topic_data: list[ProduceRequest.TopicProduceData] = ...) -> None: ...

class ProduceResponse(Message):
    class BatchIndexAndErrorMessage(Struct):
        batch_index: int
        batch_index_error_message: str | None
        def __init__(self, *, batch_index: int = ..., batch_index_error_message: str | None = ...) -> None: ...
    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(self, *, leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class PartitionProduceResponse(Struct):
        index: int
        error_code: int
        base_offset: int
        log_append_time_ms: int
        log_start_offset: int
        record_errors: list[ProduceResponse.BatchIndexAndErrorMessage]
        error_message: str | None
        current_leader: ProduceResponse.LeaderIdAndEpoch
        def __init__(self, *, index: int = ..., error_code: int = ..., base_offset: int = ..., log_append_time_ms: int = ..., log_start_offset: int = ..., record_errors: list[ProduceResponse.BatchIndexAndErrorMessage] = ..., error_message: str | None = ..., current_leader: ProduceResponse.LeaderIdAndEpoch = ...) -> None: ...
    class TopicProduceResponse(Struct):
        name: str
        partition_responses: list[ProduceResponse.PartitionProduceResponse]
        def __init__(self, *, name: str = ..., partition_responses: list[ProduceResponse.PartitionProduceResponse] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ..., rack: str | None = ...) -> None: ...
    responses: list[ProduceResponse.TopicProduceResponse]
    throttle_time_ms: int
    node_endpoints: list[ProduceResponse.NodeEndpoint]
    def __init__(self, *, responses: list[ProduceResponse.TopicProduceResponse] = ..., throttle_time_ms: int = ..., node_endpoints: list[ProduceResponse.NodeEndpoint] = ...) -> None: ...

class PushTelemetryRequest(Message):
    client_instance_id: uuid.UUID
    subscription_id: int
    terminating: bool
    compression_type: int
    metrics: bytes
    def __init__(self, *, client_instance_id: uuid.UUID = ..., subscription_id: int = ..., terminating: bool = ..., compression_type: int = ..., metrics: bytes = ...) -> None: ...

class PushTelemetryResponse(Message):
    throttle_time_ms: int
    error_code: int
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ...) -> None: ...

class ReadShareGroupStateRequest(Message):
    class PartitionData(Struct):
        partition: int
        leader_epoch: int
        def __init__(self, *, partition: int = ..., leader_epoch: int = ...) -> None: ...
    class ReadStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateRequest.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ReadShareGroupStateRequest.PartitionData] = ...) -> None: ...
    group_id: str
    topics: list[ReadShareGroupStateRequest.ReadStateData]
    def __init__(self, *, group_id: str = ..., topics: list[ReadShareGroupStateRequest.ReadStateData] = ...) -> None: ...

class ReadShareGroupStateResponse(Message):
    class StateBatch(Struct):
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(self, *, first_offset: int = ..., last_offset: int = ..., delivery_state: int = ..., delivery_count: int = ...) -> None: ...
    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        state_epoch: int
        start_offset: int
        state_batches: list[ReadShareGroupStateResponse.StateBatch]
        def __init__(self, *, partition: int = ..., error_code: int = ..., error_message: str | None = ..., state_epoch: int = ..., start_offset: int = ..., state_batches: list[ReadShareGroupStateResponse.StateBatch] = ...) -> None: ...
    class ReadStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateResponse.PartitionResult]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ReadShareGroupStateResponse.PartitionResult] = ...) -> None: ...
    results: list[ReadShareGroupStateResponse.ReadStateResult]
    def __init__(self, *, results: list[ReadShareGroupStateResponse.ReadStateResult] = ...) -> None: ...

class ReadShareGroupStateSummaryRequest(Message):
    class PartitionData(Struct):
        partition: int
        leader_epoch: int
        def __init__(self, *, partition: int = ..., leader_epoch: int = ...) -> None: ...
    class ReadStateSummaryData(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateSummaryRequest.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ReadShareGroupStateSummaryRequest.PartitionData] = ...) -> None: ...
    group_id: str
    topics: list[ReadShareGroupStateSummaryRequest.ReadStateSummaryData]
    def __init__(self, *, group_id: str = ..., topics: list[ReadShareGroupStateSummaryRequest.ReadStateSummaryData] = ...) -> None: ...

class ReadShareGroupStateSummaryResponse(Message):
    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        state_epoch: int
        start_offset: int
        def __init__(self, *, partition: int = ..., error_code: int = ..., error_message: str | None = ..., state_epoch: int = ..., start_offset: int = ...) -> None: ...
    class ReadStateSummaryResult(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateSummaryResponse.PartitionResult]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ReadShareGroupStateSummaryResponse.PartitionResult] = ...) -> None: ...
    results: list[ReadShareGroupStateSummaryResponse.ReadStateSummaryResult]
    def __init__(self, *, results: list[ReadShareGroupStateSummaryResponse.ReadStateSummaryResult] = ...) -> None: ...

class RemoveRaftVoterRequest(Message):
    cluster_id: str | None
    voter_id: int
    voter_directory_id: uuid.UUID
    def __init__(self, *, cluster_id: str | None = ..., voter_id: int = ..., voter_directory_id: uuid.UUID = ...) -> None: ...

class RemoveRaftVoterResponse(Message):
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...

class RenewDelegationTokenRequest(Message):
    hmac: bytes
    renew_period_ms: int
    def __init__(self, *, hmac: bytes = ..., renew_period_ms: int = ...) -> None: ...

class RenewDelegationTokenResponse(Message):
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int
    def __init__(self, *, error_code: int = ..., expiry_timestamp_ms: int = ..., throttle_time_ms: int = ...) -> None: ...

class RequestHeader(Message):
    request_api_key: int
    request_api_version: int
    correlation_id: int
    client_id: str | None
    def __init__(self, *, request_api_key: int = ..., request_api_version: int = ..., correlation_id: int = ..., client_id: str | None = ...) -> None: ...

class ResponseHeader(Message):
    correlation_id: int
    def __init__(self, *, correlation_id: int = ...) -> None: ...

class SaslAuthenticateRequest(Message):
    auth_bytes: bytes
    def __init__(self, *, auth_bytes: bytes = ...) -> None: ...

class SaslAuthenticateResponse(Message):
    error_code: int
    error_message: str | None
    auth_bytes: bytes
    session_lifetime_ms: int
    def __init__(self, *, error_code: int = ..., error_message: str | None = ..., auth_bytes: bytes = ..., session_lifetime_ms: int = ...) -> None: ...

class SaslHandshakeRequest(Message):
    mechanism: str
    def __init__(self, *, mechanism: str = ...) -> None: ...

class SaslHandshakeResponse(Message):
    error_code: int
    mechanisms: list[str]
    def __init__(self, *, error_code: int = ..., mechanisms: list[str] = ...) -> None: ...

class ShareAcknowledgeRequest(Message):
    class AcknowledgementBatch(Struct):
        first_offset: int
        last_offset: int
        acknowledge_types: list[int]
        def __init__(self, *, first_offset: int = ..., last_offset: int = ..., acknowledge_types: list[int] = ...) -> None: ...
    class AcknowledgePartition(Struct):
        partition_index: int
        acknowledgement_batches: list[ShareAcknowledgeRequest.AcknowledgementBatch]
        def __init__(self, *, partition_index: int = ..., acknowledgement_batches: list[ShareAcknowledgeRequest.AcknowledgementBatch] = ...) -> None: ...
    class AcknowledgeTopic(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareAcknowledgeRequest.AcknowledgePartition]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ShareAcknowledgeRequest.AcknowledgePartition] = ...) -> None: ...
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    topics: list[ShareAcknowledgeRequest.AcknowledgeTopic]
    def __init__(self, *, group_id: str | None = ..., member_id: str | None = ..., share_session_epoch: int = ..., topics: list[ShareAcknowledgeRequest.AcknowledgeTopic] = ...) -> None: ...

class ShareAcknowledgeResponse(Message):
    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(self, *, leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        current_leader: ShareAcknowledgeResponse.LeaderIdAndEpoch
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., error_message: str | None = ..., current_leader: ShareAcknowledgeResponse.LeaderIdAndEpoch = ...) -> None: ...
    class ShareAcknowledgeTopicResponse(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareAcknowledgeResponse.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ShareAcknowledgeResponse.PartitionData] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ..., rack: str | None = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse]
    node_endpoints: list[ShareAcknowledgeResponse.NodeEndpoint]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., responses: list[ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse] = ..., node_endpoints: list[ShareAcknowledgeResponse.NodeEndpoint] = ...) -> None: ...

class ShareFetchRequest(Message):
    class AcknowledgementBatch(Struct):
        first_offset: int
        last_offset: int
        acknowledge_types: list[int]
        def __init__(self, *, first_offset: int = ..., last_offset: int = ..., acknowledge_types: list[int] = ...) -> None: ...
    class FetchPartition(Struct):
        partition_index: int
        partition_max_bytes: int
        acknowledgement_batches: list[ShareFetchRequest.AcknowledgementBatch]
        def __init__(self, *, partition_index: int = ..., partition_max_bytes: int = ..., acknowledgement_batches: list[ShareFetchRequest.AcknowledgementBatch] = ...) -> None: ...
    class FetchTopic(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareFetchRequest.FetchPartition]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ShareFetchRequest.FetchPartition] = ...) -> None: ...
    class ForgottenTopic(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[int] = ...) -> None: ...
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    max_records: int
    batch_size: int
    topics: list[ShareFetchRequest.FetchTopic]
    forgotten_topics_data: list[ShareFetchRequest.ForgottenTopic]
    def __init__(self, *, group_id: str | None = ..., member_id: str | None = ..., share_session_epoch: int = ..., max_wait_ms: int = ..., min_bytes: int = ..., max_bytes: int = ..., max_records: int = ..., batch_size: int = ..., topics: list[ShareFetchRequest.FetchTopic] = ..., forgotten_topics_data: list[ShareFetchRequest.ForgottenTopic] = ...) -> None: ...

class ShareFetchResponse(Message):
    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(self, *, leader_id: int = ..., leader_epoch: int = ...) -> None: ...
    class AcquiredRecords(Struct):
        first_offset: int
        last_offset: int
        delivery_count: int
        def __init__(self, *, first_offset: int = ..., last_offset: int = ..., delivery_count: int = ...) -> None: ...
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        acknowledge_error_code: int
        acknowledge_error_message: str | None
        current_leader: ShareFetchResponse.LeaderIdAndEpoch
        records: bytes | memoryview
        acquired_records: list[ShareFetchResponse.AcquiredRecords]
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., error_message: str | None = ..., acknowledge_error_code: int = ..., acknowledge_error_message: str | None = ..., current_leader: ShareFetchResponse.LeaderIdAndEpoch = ..., records: bytes | memoryview = ..., acquired_records: list[ShareFetchResponse.AcquiredRecords] = ...) -> None: ...
    class ShareFetchableTopicResponse(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareFetchResponse.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[ShareFetchResponse.PartitionData] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ..., rack: str | None = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareFetchResponse.ShareFetchableTopicResponse]
    node_endpoints: list[ShareFetchResponse.NodeEndpoint]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., acquisition_lock_timeout_ms: int = ..., responses: list[ShareFetchResponse.ShareFetchableTopicResponse] = ..., node_endpoints: list[ShareFetchResponse.NodeEndpoint] = ...) -> None: ...

class ShareGroupDescribeRequest(Message):
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(self, *, group_ids: list[str] = ..., include_authorized_operations: bool = ...) -> None: ...

class ShareGroupDescribeResponse(Message):
    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(self, *, topic_id: uuid.UUID = ..., topic_name: str = ..., partitions: list[int] = ...) -> None: ...
    class Assignment(Struct):
        topic_partitions: list[ShareGroupDescribeResponse.TopicPartitions]
        def __init__(self, *, topic_partitions: list[ShareGroupDescribeResponse.TopicPartitions] = ...) -> None: ...
    class Member(Struct):
        member_id: str
        rack_id: str | None
        member_epoch: int
        client_id: str
        client_host: str
        subscribed_topic_names: list[str]
        assignment: ShareGroupDescribeResponse.Assignment
        def __init__(self, *, member_id: str = ..., rack_id: str | None = ..., member_epoch: int = ..., client_id: str = ..., client_host: str = ..., subscribed_topic_names: list[str] = ..., assignment: ShareGroupDescribeResponse.Assignment = ...) -> None: ...
    class DescribedGroup(Struct):
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        assignor_name: str
        members: list[ShareGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(self, *, error_code: int = ..., error_message: str | None = ..., group_id: str = ..., group_state: str = ..., group_epoch: int = ..., assignment_epoch: int = ..., assignor_name: str = ..., members: list[ShareGroupDescribeResponse.Member] = ..., authorized_operations: int = ...) -> None: ...
    throttle_time_ms: int
    groups: list[ShareGroupDescribeResponse.DescribedGroup]
    def __init__(self, *, throttle_time_ms: int = ..., groups: list[ShareGroupDescribeResponse.DescribedGroup] = ...) -> None: ...

class ShareGroupHeartbeatRequest(Message):
    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: list[str] | None
    def __init__(self, *, group_id: str = ..., member_id: str = ..., member_epoch: int = ..., rack_id: str | None = ..., subscribed_topic_names: list[str] | None = ...) -> None: ...

class ShareGroupHeartbeatResponse(Message):
    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[int] = ...) -> None: ...
    class Assignment(Struct):
        topic_partitions: list[ShareGroupHeartbeatResponse.TopicPartitions]
        def __init__(self, *, topic_partitions: list[ShareGroupHeartbeatResponse.TopicPartitions] = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: ShareGroupHeartbeatResponse.Assignment | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., member_id: str | None = ..., member_epoch: int = ..., heartbeat_interval_ms: int = ..., assignment: ShareGroupHeartbeatResponse.Assignment | None = ...) -> None: ...

class SnapshotFooterRecord(Message):
    version: int
    def __init__(self, *, version: int = ...) -> None: ...

class SnapshotHeaderRecord(Message):
    version: int
    last_contained_log_timestamp: int
    def __init__(self, *, version: int = ..., last_contained_log_timestamp: int = ...) -> None: ...

class StopReplicaRequest(Message):
    class StopReplicaPartitionV0(Struct):
        topic_name: str
        partition_index: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ...) -> None: ...
    class StopReplicaTopicV1(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(self, *, name: str = ..., partition_indexes: list[int] = ...) -> None: ...
    class StopReplicaPartitionState(Struct):
        partition_index: int
        leader_epoch: int
        delete_partition: bool
        def __init__(self, *, partition_index: int = ..., leader_epoch: int = ..., delete_partition: bool = ...) -> None: ...
    class StopReplicaTopicState(Struct):
        topic_name: str
        partition_states: list[StopReplicaRequest.StopReplicaPartitionState]
        def __init__(self, *, topic_name: str = ..., partition_states: list[StopReplicaRequest.StopReplicaPartitionState] = ...) -> None: ...
    controller_id: int
    is_k_raft_controller: bool
    controller_epoch: int
    broker_epoch: int
    delete_partitions: bool
    ungrouped_partitions: list[StopReplicaRequest.StopReplicaPartitionV0]
    topics: list[StopReplicaRequest.StopReplicaTopicV1]
    topic_states: list[StopReplicaRequest.StopReplicaTopicState]
    def __init__(self, *, controller_id: int = ..., is_k_raft_controller: bool = ..., controller_epoch: int = ..., broker_epoch: int = ..., delete_partitions: bool = ..., ungrouped_partitions: list[StopReplicaRequest.StopReplicaPartitionV0] = ..., topics: list[StopReplicaRequest.StopReplicaTopicV1] = ..., topic_states: list[StopReplicaRequest.StopReplicaTopicState] = ...) -> None: ...

class StopReplicaResponse(Message):
    class StopReplicaPartitionError(Struct):
        topic_name: str
        partition_index: int
        error_code: int
        def __init__(self, *, topic_name: str = ..., partition_index: int = ..., error_code: int = ...) -> None: ...
    error_code: int
    partition_errors: list[StopReplicaResponse.StopReplicaPartitionError]
    def __init__(self, *, error_code: int = ..., partition_errors: list[StopReplicaResponse.StopReplicaPartitionError] = ...) -> None: ...

class SyncGroupRequest(Message):
    class SyncGroupRequestAssignment(Struct):
        member_id: str
        assignment: bytes
        def __init__(self, *, member_id: str = ..., assignment: bytes = ...) -> None: ...
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str | None
    protocol_name: str | None
    assignments: list[SyncGroupRequest.SyncGroupRequestAssignment]
    def __init__(self, *, group_id: str = ..., generation_id: int = ..., member_id: str = ..., group_instance_id: str | None = ..., protocol_type: str | None = ..., protocol_name: str | None = ..., assignments: list[SyncGroupRequest.SyncGroupRequestAssignment] = ...) -> None: ...

class SyncGroupResponse(Message):
    throttle_time_ms: int
    error_code: int
    protocol_type: str | None
    protocol_name: str | None
    assignment: bytes
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., protocol_type: str | None = ..., protocol_name: str | None = ..., assignment: bytes = ...) -> None: ...

class TxnOffsetCommitRequest(Message):
    class TxnOffsetCommitRequestPartition(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        committed_metadata: str | None
        def __init__(self, *, partition_index: int = ..., committed_offset: int = ..., committed_leader_epoch: int = ..., committed_metadata: str | None = ...) -> None: ...
    class TxnOffsetCommitRequestTopic(Struct):
        name: str
        partitions: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition]
        def __init__(self, *, name: str = ..., partitions: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition] = ...) -> None: ...
    transactional_id: str
    group_id: str
    producer_id: int
    producer_epoch: int
    generation_id: int
    member_id: str
    group_instance_id: str | None
    topics: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic]
    def __init__(self, *, transactional_id: str = ..., group_id: str = ..., producer_id: int = ..., producer_epoch: int = ..., generation_id: int = ..., member_id: str = ..., group_instance_id: str | None = ..., topics: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic] = ...) -> None: ...

class TxnOffsetCommitResponse(Message):
    class TxnOffsetCommitResponsePartition(Struct):
        partition_index: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ...) -> None: ...
    class TxnOffsetCommitResponseTopic(Struct):
        name: str
        partitions: list[TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition]
        def __init__(self, *, name: str = ..., partitions: list[TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition] = ...) -> None: ...
    throttle_time_ms: int
    topics: list[TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic]
    def __init__(self, *, throttle_time_ms: int = ..., topics: list[TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic] = ...) -> None: ...

class UnregisterBrokerRequest(Message):
    broker_id: int
    def __init__(self, *, broker_id: int = ...) -> None: ...

class UnregisterBrokerResponse(Message):
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...

class UpdateFeaturesRequest(Message):
    class FeatureUpdateKey(Struct):
        feature: str
        max_version_level: int
        allow_downgrade: bool
        upgrade_type: int
        def __init__(self, *, feature: str = ..., max_version_level: int = ..., allow_downgrade: bool = ..., upgrade_type: int = ...) -> None: ...
    timeout_ms: int
    feature_updates: list[UpdateFeaturesRequest.FeatureUpdateKey]
    validate_only: bool
    def __init__(self, *, timeout_ms: int = ..., feature_updates: list[UpdateFeaturesRequest.FeatureUpdateKey] = ..., validate_only: bool = ...) -> None: ...

class UpdateFeaturesResponse(Message):
    class UpdatableFeatureResult(Struct):
        feature: str
        error_code: int
        error_message: str | None
        def __init__(self, *, feature: str = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[UpdateFeaturesResponse.UpdatableFeatureResult]
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., error_message: str | None = ..., results: list[UpdateFeaturesResponse.UpdatableFeatureResult] = ...) -> None: ...

class UpdateMetadataRequest(Message):
    class UpdateMetadataPartitionState(Struct):
        topic_name: str
        partition_index: int
        controller_epoch: int
        leader: int
        leader_epoch: int
        isr: list[int]
        zk_version: int
        replicas: list[int]
        offline_replicas: list[int]
        def __init__(self, *, topic_name: str = ..., partition_index: int = ..., controller_epoch: int = ..., leader: int = ..., leader_epoch: int = ..., isr: list[int] = ..., zk_version: int = ..., replicas: list[int] = ..., offline_replicas: list[int] = ...) -> None: ...
    class UpdateMetadataTopicState(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState]
        def __init__(self, *, topic_name: str = ..., topic_id: uuid.UUID = ..., partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState] = ...) -> None: ...
    class UpdateMetadataEndpoint(Struct):
        port: int
        host: str
        listener: str
        security_protocol: int
        def __init__(self, *, port: int = ..., host: str = ..., listener: str = ..., security_protocol: int = ...) -> None: ...
    class UpdateMetadataBroker(Struct):
        id: int
        v0_host: str
        v0_port: int
        endpoints: list[UpdateMetadataRequest.UpdateMetadataEndpoint]
        rack: str | None
        def __init__(self, *, id: int = ..., v0_host: str = ..., v0_port: int = ..., endpoints: list[UpdateMetadataRequest.UpdateMetadataEndpoint] = ..., rack: str | None = ...) -> None: ...
    controller_id: int
    is_k_raft_controller: bool
    type: int
    controller_epoch: int
    broker_epoch: int
    ungrouped_partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState]
    topic_states: list[UpdateMetadataRequest.UpdateMetadataTopicState]
    live_brokers: list[UpdateMetadataRequest.UpdateMetadataBroker]
    def __init__(self, *, controller_id: int = ..., is_k_raft_controller: bool = ..., type: int = ..., controller_epoch: int = ..., broker_epoch: int = ..., ungrouped_partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState] = ..., topic_states: list[UpdateMetadataRequest.UpdateMetadataTopicState] = ..., live_brokers: list[UpdateMetadataRequest.UpdateMetadataBroker] = ...) -> None: ...

class UpdateMetadataResponse(Message):
    error_code: int
    def __init__(self, *, error_code: int = ...) -> None: ...

class UpdateRaftVoterRequest(Message):
    class Listener(Struct):
        name: str
        host: str
        port: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ...) -> None: ...
    class KRaftVersionFeature(Struct):
        min_supported_version: int
        max_supported_version: int
        def __init__(self, *, min_supported_version: int = ..., max_supported_version: int = ...) -> None: ...
    cluster_id: str | None
    current_leader_epoch: int
    voter_id: int
    voter_directory_id: uuid.UUID
    listeners: list[UpdateRaftVoterRequest.Listener]
    k_raft_version_feature: UpdateRaftVoterRequest.KRaftVersionFeature
    def __init__(self, *, cluster_id: str | None = ..., current_leader_epoch: int = ..., voter_id: int = ..., voter_directory_id: uuid.UUID = ..., listeners: list[UpdateRaftVoterRequest.Listener] = ..., k_raft_version_feature: UpdateRaftVoterRequest.KRaftVersionFeature = ...) -> None: ...

class UpdateRaftVoterResponse(Message):
    class CurrentLeader(Struct):
        leader_id: int
        leader_epoch: int
        host: str
        port: int
        def __init__(self, *, leader_id: int = ..., leader_epoch: int = ..., host: str = ..., port: int = ...) -> None: ...
    throttle_time_ms: int
    error_code: int
    current_leader: UpdateRaftVoterResponse.CurrentLeader
    def __init__(self, *, throttle_time_ms: int = ..., error_code: int = ..., current_leader: UpdateRaftVoterResponse.CurrentLeader = ...) -> None: ...

class VoteRequest(Message):
    class PartitionData(Struct):
        partition_index: int
        candidate_epoch: int
        candidate_id: int
        candidate_directory_id: uuid.UUID
        voter_directory_id: uuid.UUID
        last_offset_epoch: int
        last_offset: int
        def __init__(self, *, partition_index: int = ..., candidate_epoch: int = ..., candidate_id: int = ..., candidate_directory_id: uuid.UUID = ..., voter_directory_id: uuid.UUID = ..., last_offset_epoch: int = ..., last_offset: int = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[VoteRequest.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[VoteRequest.PartitionData] = ...) -> None: ...
    cluster_id: str | None
    voter_id: int
    topics: list[VoteRequest.TopicData]
    def __init__(self, *, cluster_id: str | None = ..., voter_id: int = ..., topics: list[VoteRequest.TopicData] = ...) -> None: ...

class VoteResponse(Message):
    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        vote_granted: bool
        def __init__(self, *, partition_index: int = ..., error_code: int = ..., leader_id: int = ..., leader_epoch: int = ..., vote_granted: bool = ...) -> None: ...
    class TopicData(Struct):
        topic_name: str
        partitions: list[VoteResponse.PartitionData]
        def __init__(self, *, topic_name: str = ..., partitions: list[VoteResponse.PartitionData] = ...) -> None: ...
    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(self, *, node_id: int = ..., host: str = ..., port: int = ...) -> None: ...
    error_code: int
    topics: list[VoteResponse.TopicData]
    node_endpoints: list[VoteResponse.NodeEndpoint]
    def __init__(self, *, error_code: int = ..., topics: list[VoteResponse.TopicData] = ..., node_endpoints: list[VoteResponse.NodeEndpoint] = ...) -> None: ...

class VotersRecord(Message):
    class Endpoint(Struct):
        name: str
        host: str
        port: int
        def __init__(self, *, name: str = ..., host: str = ..., port: int = ...) -> None: ...
    class KRaftVersionFeature(Struct):
        min_supported_version: int
        max_supported_version: int
        def __init__(self, *, min_supported_version: int = ..., max_supported_version: int = ...) -> None: ...
    class Voter(Struct):
        voter_id: int
        voter_directory_id: uuid.UUID
        endpoints: list[VotersRecord.Endpoint]
        k_raft_version_feature: VotersRecord.KRaftVersionFeature
        def __init__(self, *, voter_id: int = ..., voter_directory_id: uuid.UUID = ..., endpoints: list[VotersRecord.Endpoint] = ..., k_raft_version_feature: VotersRecord.KRaftVersionFeature = ...) -> None: ...
    version: int
    voters: list[VotersRecord.Voter]
    def __init__(self, *, version: int = ..., voters: list[VotersRecord.Voter] = ...) -> None: ...

class WriteShareGroupStateRequest(Message):
    class StateBatch(Struct):
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(self, *, first_offset: int = ..., last_offset: int = ..., delivery_state: int = ..., delivery_count: int = ...) -> None: ...
    class PartitionData(Struct):
        partition: int
        state_epoch: int
        leader_epoch: int
        start_offset: int
        state_batches: list[WriteShareGroupStateRequest.StateBatch]
        def __init__(self, *, partition: int = ..., state_epoch: int = ..., leader_epoch: int = ..., start_offset: int = ..., state_batches: list[WriteShareGroupStateRequest.StateBatch] = ...) -> None: ...
    class WriteStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[WriteShareGroupStateRequest.PartitionData]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[WriteShareGroupStateRequest.PartitionData] = ...) -> None: ...
    group_id: str
    topics: list[WriteShareGroupStateRequest.WriteStateData]
    def __init__(self, *, group_id: str = ..., topics: list[WriteShareGroupStateRequest.WriteStateData] = ...) -> None: ...

class WriteShareGroupStateResponse(Message):
    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        def __init__(self, *, partition: int = ..., error_code: int = ..., error_message: str | None = ...) -> None: ...
    class WriteStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[WriteShareGroupStateResponse.PartitionResult]
        def __init__(self, *, topic_id: uuid.UUID = ..., partitions: list[WriteShareGroupStateResponse.PartitionResult] = ...) -> None: ...
    results: list[WriteShareGroupStateResponse.WriteStateResult]
    def __init__(self, *, results: list[WriteShareGroupStateResponse.WriteStateResult] = ...) -> None: ...

class WriteTxnMarkersRequest(Message):
    class WritableTxnMarkerTopic(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(self, *, name: str = ..., partition_indexes: list[int] = ...) -> None: ...
    class WritableTxnMarker(Struct):
        producer_id: int
        producer_epoch: int
        transaction_result: bool
        topics: list[WriteTxnMarkersRequest.WritableTxnMarkerTopic]
        coordinator_epoch: int
        def __init__(self, *, producer_id: int = ..., producer_epoch: int = ..., transaction_result: bool = ..., topics: list[WriteTxnMarkersRequest.WritableTxnMarkerTopic] = ..., coordinator_epoch: int = ...) -> None: ...
    markers: list[WriteTxnMarkersRequest.WritableTxnMarker]
    def __init__(self, *, markers: list[WriteTxnMarkersRequest.WritableTxnMarker] = ...) -> None: ...

class WriteTxnMarkersResponse(Message):
    class WritableTxnMarkerPartitionResult(Struct):
        partition_index: int
        error_code: int
        def __init__(self, *, partition_index: int = ..., error_code: int = ...) -> None: ...
    class WritableTxnMarkerTopicResult(Struct):
        name: str
        partitions: list[WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult]
        def __init__(self, *, name: str = ..., partitions: list[WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult] = ...) -> None: ...
    class WritableTxnMarkerResult(Struct):
        producer_id: int
        topics: list[WriteTxnMarkersResponse.WritableTxnMarkerTopicResult]
        def __init__(self, *, producer_id: int = ..., topics: list[WriteTxnMarkersResponse.WritableTxnMarkerTopicResult] = ...) -> None: ...
    markers: list[WriteTxnMarkersResponse.WritableTxnMarkerResult]
    def __init__(self, *, markers: list[WriteTxnMarkersResponse.WritableTxnMarkerResult] = ...) -> None: ...

class ApiKey(IntEnum):
    PRODUCE = 0
    FETCH = 1
    LIST_OFFSETS = 2
    METADATA = 3
    LEADER_AND_ISR = 4
    STOP_REPLICA = 5
    UPDATE_METADATA = 6
    CONTROLLED_SHUTDOWN = 7
    OFFSET_COMMIT = 8
    OFFSET_FETCH = 9
    FIND_COORDINATOR = 10
    JOIN_GROUP = 11
    HEARTBEAT = 12
    LEAVE_GROUP = 13
    SYNC_GROUP = 14
    DESCRIBE_GROUPS = 15
    LIST_GROUPS = 16
    SASL_HANDSHAKE = 17
    API_VERSIONS = 18
    CREATE_TOPICS = 19
    DELETE_TOPICS = 20
    DELETE_RECORDS = 21
    INIT_PRODUCER_ID = 22
    OFFSET_FOR_LEADER_EPOCH = 23
    ADD_PARTITIONS_TO_TXN = 24
    ADD_OFFSETS_TO_TXN = 25
    END_TXN = 26
    WRITE_TXN_MARKERS = 27
    TXN_OFFSET_COMMIT = 28
    DESCRIBE_ACLS = 29
    CREATE_ACLS = 30
    DELETE_ACLS = 31
    DESCRIBE_CONFIGS = 32
    ALTER_CONFIGS = 33
    ALTER_REPLICA_LOG_DIRS = 34
    DESCRIBE_LOG_DIRS = 35
    SASL_AUTHENTICATE = 36
    CREATE_PARTITIONS = 37
    CREATE_DELEGATION_TOKEN = 38
    RENEW_DELEGATION_TOKEN = 39
    EXPIRE_DELEGATION_TOKEN = 40
    DESCRIBE_DELEGATION_TOKEN = 41
    DELETE_GROUPS = 42
    ELECT_LEADERS = 43
    INCREMENTAL_ALTER_CONFIGS = 44
    ALTER_PARTITION_REASSIGNMENTS = 45
    LIST_PARTITION_REASSIGNMENTS = 46
    OFFSET_DELETE = 47
    DESCRIBE_CLIENT_QUOTAS = 48
    ALTER_CLIENT_QUOTAS = 49
    DESCRIBE_USER_SCRAM_CREDENTIALS = 50
    ALTER_USER_SCRAM_CREDENTIALS = 51
    VOTE = 52
    BEGIN_QUORUM_EPOCH = 53
    END_QUORUM_EPOCH = 54
    DESCRIBE_QUORUM = 55
    ALTER_PARTITION = 56
    UPDATE_FEATURES = 57
    ENVELOPE = 58
    FETCH_SNAPSHOT = 59
    DESCRIBE_CLUSTER = 60
    DESCRIBE_PRODUCERS = 61
    BROKER_REGISTRATION = 62
    BROKER_HEARTBEAT = 63
    UNREGISTER_BROKER = 64
    DESCRIBE_TRANSACTIONS = 65
    LIST_TRANSACTIONS = 66
    ALLOCATE_PRODUCER_IDS = 67
    CONSUMER_GROUP_HEARTBEAT = 68
    CONSUMER_GROUP_DESCRIBE = 69
    CONTROLLER_REGISTRATION = 70
    GET_TELEMETRY_SUBSCRIPTIONS = 71
    PUSH_TELEMETRY = 72
    ASSIGN_REPLICAS_TO_DIRS = 73
    LIST_CLIENT_METRICS_RESOURCES = 74
    DESCRIBE_TOPIC_PARTITIONS = 75
    SHARE_GROUP_HEARTBEAT = 76
    SHARE_GROUP_DESCRIBE = 77
    SHARE_FETCH = 78
    SHARE_ACKNOWLEDGE = 79
    ADD_RAFT_VOTER = 80
    REMOVE_RAFT_VOTER = 81
    UPDATE_RAFT_VOTER = 82
    INITIALIZE_SHARE_GROUP_STATE = 83
    READ_SHARE_GROUP_STATE = 84
    WRITE_SHARE_GROUP_STATE = 85
    DELETE_SHARE_GROUP_STATE = 86
    READ_SHARE_GROUP_STATE_SUMMARY = 87

REQUESTS: dict[int, type[Message]]
RESPONSES: dict[int, type[Message]]
__all__ = [
    'ApiKey',
    'AddOffsetsToTxnRequest',
    'AddOffsetsToTxnResponse',
    'AddPartitionsToTxnRequest',
    'AddPartitionsToTxnResponse',
    'AddRaftVoterRequest',
    'AddRaftVoterResponse',
    'AllocateProducerIdsRequest',
    'AllocateProducerIdsResponse',
    'AlterClientQuotasRequest',
    'AlterClientQuotasResponse',
    'AlterConfigsRequest',
    'AlterConfigsResponse',
    'AlterPartitionReassignmentsRequest',
    'AlterPartitionReassignmentsResponse',
    'AlterPartitionRequest',
    'AlterPartitionResponse',
    'AlterReplicaLogDirsRequest',
    'AlterReplicaLogDirsResponse',
    'AlterUserScramCredentialsRequest',
    'AlterUserScramCredentialsResponse',
    'ApiVersionsRequest',
    'ApiVersionsResponse',
    'AssignReplicasToDirsRequest',
    'AssignReplicasToDirsResponse',
    'BeginQuorumEpochRequest',
    'BeginQuorumEpochResponse',
    'BrokerHeartbeatRequest',
    'BrokerHeartbeatResponse',
    'BrokerRegistrationRequest',
    'BrokerRegistrationResponse',
    'ConsumerGroupDescribeRequest',
    'ConsumerGroupDescribeResponse',
    'ConsumerGroupHeartbeatRequest',
    'ConsumerGroupHeartbeatResponse',
    'ConsumerProtocolAssignment',
    'ConsumerProtocolSubscription',
    'ControlledShutdownRequest',
    'ControlledShutdownResponse',
    'ControllerRegistrationRequest',
    'ControllerRegistrationResponse',
    'CreateAclsRequest',
    'CreateAclsResponse',
    'CreateDelegationTokenRequest',
    'CreateDelegationTokenResponse',
    'CreatePartitionsRequest',
    'CreatePartitionsResponse',
    'CreateTopicsRequest',
    'CreateTopicsResponse',
    'DefaultPrincipalData',
    'DeleteAclsRequest',
    'DeleteAclsResponse',
    'DeleteGroupsRequest',
    'DeleteGroupsResponse',
    'DeleteRecordsRequest',
    'DeleteRecordsResponse',
    'DeleteShareGroupStateRequest',
    'DeleteShareGroupStateResponse',
    'DeleteTopicsRequest',
    'DeleteTopicsResponse',
    'DescribeAclsRequest',
    'DescribeAclsResponse',
    'DescribeClientQuotasRequest',
    'DescribeClientQuotasResponse',
    'DescribeClusterRequest',
    'DescribeClusterResponse',
    'DescribeConfigsRequest',
    'DescribeConfigsResponse',
    'DescribeDelegationTokenRequest',
    'DescribeDelegationTokenResponse',
    'DescribeGroupsRequest',
    'DescribeGroupsResponse',
    'DescribeLogDirsRequest',
    'DescribeLogDirsResponse',
    'DescribeProducersRequest',
    'DescribeProducersResponse',
    'DescribeQuorumRequest',
    'DescribeQuorumResponse',
    'DescribeTopicPartitionsRequest',
    'DescribeTopicPartitionsResponse',
    'DescribeTransactionsRequest',
    'DescribeTransactionsResponse',
    'DescribeUserScramCredentialsRequest',
    'DescribeUserScramCredentialsResponse',
    'ElectLeadersRequest',
    'ElectLeadersResponse',
    'EndQuorumEpochRequest',
    'EndQuorumEpochResponse',
    'EndTxnRequest',
    'EndTxnResponse',
    'EnvelopeRequest',
    'EnvelopeResponse',
    'ExpireDelegationTokenRequest',
    'ExpireDelegationTokenResponse',
    'FetchRequest',
    'FetchResponse',
    'FetchSnapshotRequest',
    'FetchSnapshotResponse',
    'FindCoordinatorRequest',
    'FindCoordinatorResponse',
    'GetTelemetrySubscriptionsRequest',
    'GetTelemetrySubscriptionsResponse',
    'HeartbeatRequest',
    'HeartbeatResponse',
    'IncrementalAlterConfigsRequest',
    'IncrementalAlterConfigsResponse',
    'InitProducerIdRequest',
    'InitProducerIdResponse',
    'InitializeShareGroupStateRequest',
    'InitializeShareGroupStateResponse',
    'JoinGroupRequest',
    'JoinGroupResponse',
    'KRaftVersionRecord',
    'LeaderAndIsrRequest',
    'LeaderAndIsrResponse',
    'LeaderChangeMessage',
    'LeaveGroupRequest',
    'LeaveGroupResponse',
    'ListClientMetricsResourcesRequest',
    'ListClientMetricsResourcesResponse',
    'ListGroupsRequest',
    'ListGroupsResponse',
    'ListOffsetsRequest',
    'ListOffsetsResponse',
    'ListPartitionReassignmentsRequest',
    'ListPartitionReassignmentsResponse',
    'ListTransactionsRequest',
    'ListTransactionsResponse',
    'MetadataRequest',
    'MetadataResponse',
    'OffsetCommitRequest',
    'OffsetCommitResponse',
    'OffsetDeleteRequest',
    'OffsetDeleteResponse',
    'OffsetFetchRequest',
    'OffsetFetchResponse',
    'OffsetForLeaderEpochRequest',
    'OffsetForLeaderEpochResponse',
    'ProduceRequest',
    'ProduceResponse',
    'PushTelemetryRequest',
    'PushTelemetryResponse',
    'ReadShareGroupStateRequest',
    'ReadShareGroupStateResponse',
    'ReadShareGroupStateSummaryRequest',
    'ReadShareGroupStateSummaryResponse',
    'RemoveRaftVoterRequest',
    'RemoveRaftVoterResponse',
    'RenewDelegationTokenRequest',
    'RenewDelegationTokenResponse',
    'RequestHeader',
    'ResponseHeader',
    'SaslAuthenticateRequest',
    'SaslAuthenticateResponse',
    'SaslHandshakeRequest',
    'SaslHandshakeResponse',
    'ShareAcknowledgeRequest',
    'ShareAcknowledgeResponse',
    'ShareFetchRequest',
    'ShareFetchResponse',
    'ShareGroupDescribeRequest',
    'ShareGroupDescribeResponse',
    'ShareGroupHeartbeatRequest',
    'ShareGroupHeartbeatResponse',
    'SnapshotFooterRecord',
    'SnapshotHeaderRecord',
    'StopReplicaRequest',
    'StopReplicaResponse',
    'SyncGroupRequest',
    'SyncGroupResponse',
    'TxnOffsetCommitRequest',
    'TxnOffsetCommitResponse',
    'UnregisterBrokerRequest',
    'UnregisterBrokerResponse',
    'UpdateFeaturesRequest',
    'UpdateFeaturesResponse',
    'UpdateMetadataRequest',
    'UpdateMetadataResponse',
    'UpdateRaftVoterRequest',
    'UpdateRaftVoterResponse',
    'VoteRequest',
    'VoteResponse',
    'VotersRecord',
    'WriteShareGroupStateRequest',
    'WriteShareGroupStateResponse',
    'WriteTxnMarkersRequest',
    'WriteTxnMarkersResponse',
]
