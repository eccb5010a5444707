# GENERATED from Apache Kafka's message schemas in kafkawire/protocol/schemas/.
# DO NOT EDIT, regenerate with: python tools/generate_messages.py

from enum import IntEnum

from kafkawire.protocol._base import (  # noqa: F401
    ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
    UNSET, ZERO_UUID, Field, Message, Struct,
)


class AddOffsetsToTxnRequest(Message):
    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'group_id', '_unknown_tagged_fields')
    schema_name = 'AddOffsetsToTxnRequest'
    message_type = 'request'
    api_key = 25
    valid_versions = range(0, 5)
    flexible_versions = range(3, 32768)
    latest_version = 4

    def __init__(self, *, transactional_id='', producer_id=0, producer_epoch=0, group_id=''):
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.group_id = group_id
        self._unknown_tagged_fields = None


class AddOffsetsToTxnResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', '_unknown_tagged_fields')
    schema_name = 'AddOffsetsToTxnResponse'
    message_type = 'response'
    api_key = 25
    valid_versions = range(0, 5)
    flexible_versions = range(3, 32768)
    latest_version = 4

    def __init__(self, *, throttle_time_ms=0, error_code=0):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self._unknown_tagged_fields = None


class AddPartitionsToTxnRequest(Message):
    __slots__ = ('transactions', 'v3_and_below_transactional_id', 'v3_and_below_producer_id', 'v3_and_below_producer_epoch', 'v3_and_below_topics', '_unknown_tagged_fields')
    schema_name = 'AddPartitionsToTxnRequest'
    message_type = 'request'
    api_key = 24
    valid_versions = range(0, 6)
    flexible_versions = range(3, 32768)
    latest_version = 5

    class AddPartitionsToTxnTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class AddPartitionsToTxnTransaction(Struct):
        __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'verify_only', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, transactional_id='', producer_id=0, producer_epoch=0, verify_only=False, topics=UNSET):
            self.transactional_id = transactional_id
            self.producer_id = producer_id
            self.producer_epoch = producer_epoch
            self.verify_only = verify_only
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, transactions=UNSET, v3_and_below_transactional_id='', v3_and_below_producer_id=0, v3_and_below_producer_epoch=0, v3_and_below_topics=UNSET):
        self.transactions = [] if transactions is UNSET else transactions
        self.v3_and_below_transactional_id = v3_and_below_transactional_id
        self.v3_and_below_producer_id = v3_and_below_producer_id
        self.v3_and_below_producer_epoch = v3_and_below_producer_epoch
        self.v3_and_below_topics = [] if v3_and_below_topics is UNSET else v3_and_below_topics
        self._unknown_tagged_fields = None


class AddPartitionsToTxnResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'results_by_transaction', 'results_by_topic_v3_and_below', '_unknown_tagged_fields')
    schema_name = 'AddPartitionsToTxnResponse'
    message_type = 'response'
    api_key = 24
    valid_versions = range(0, 6)
    flexible_versions = range(3, 32768)
    latest_version = 5

    class AddPartitionsToTxnPartitionResult(Struct):
        __slots__ = ('partition_index', 'partition_error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, partition_error_code=0):
            self.partition_index = partition_index
            self.partition_error_code = partition_error_code
            self._unknown_tagged_fields = None


    class AddPartitionsToTxnTopicResult(Struct):
        __slots__ = ('name', 'results_by_partition', '_unknown_tagged_fields')

        def __init__(self, *, name='', results_by_partition=UNSET):
            self.name = name
            self.results_by_partition = [] if results_by_partition is UNSET else results_by_partition
            self._unknown_tagged_fields = None


    class AddPartitionsToTxnResult(Struct):
        __slots__ = ('transactional_id', 'topic_results', '_unknown_tagged_fields')

        def __init__(self, *, transactional_id='', topic_results=UNSET):
            self.transactional_id = transactional_id
            self.topic_results = [] if topic_results is UNSET else topic_results
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, results_by_transaction=UNSET, results_by_topic_v3_and_below=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results_by_transaction = [] if results_by_transaction is UNSET else results_by_transaction
        self.results_by_topic_v3_and_below = [] if results_by_topic_v3_and_below is UNSET else results_by_topic_v3_and_below
        self._unknown_tagged_fields = None


class AddRaftVoterRequest(Message):
    __slots__ = ('cluster_id', 'timeout_ms', 'voter_id', 'voter_directory_id', 'listeners', '_unknown_tagged_fields')
    schema_name = 'AddRaftVoterRequest'
    message_type = 'request'
    api_key = 80
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class Listener(Struct):
        __slots__ = ('name', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0):
            self.name = name
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id='', timeout_ms=0, voter_id=0, voter_directory_id=ZERO_UUID, listeners=UNSET):
        self.cluster_id = cluster_id
        self.timeout_ms = timeout_ms
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is UNSET else listeners
        self._unknown_tagged_fields = None


class AddRaftVoterResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', '_unknown_tagged_fields')
    schema_name = 'AddRaftVoterResponse'
    message_type = 'response'
    api_key = 80
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=''):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged_fields = None


class AllocateProducerIdsRequest(Message):
    __slots__ = ('broker_id', 'broker_epoch', '_unknown_tagged_fields')
    schema_name = 'AllocateProducerIdsRequest'
    message_type = 'request'
    api_key = 67
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, broker_id=0, broker_epoch=-1):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self._unknown_tagged_fields = None


class AllocateProducerIdsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'producer_id_start', 'producer_id_len', '_unknown_tagged_fields')
    schema_name = 'AllocateProducerIdsResponse'
    message_type = 'response'
    api_key = 67
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, producer_id_start=0, producer_id_len=0):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id_start = producer_id_start
        self.producer_id_len = producer_id_len
        self._unknown_tagged_fields = None


class AlterClientQuotasRequest(Message):
    __slots__ = ('entries', 'validate_only', '_unknown_tagged_fields')
    schema_name = 'AlterClientQuotasRequest'
    message_type = 'request'
    api_key = 49
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class EntityData(Struct):
        __slots__ = ('entity_type', 'entity_name', '_unknown_tagged_fields')

        def __init__(self, *, entity_type='', entity_name=''):
            self.entity_type = entity_type
            self.entity_name = entity_name
            self._unknown_tagged_fields = None


    class OpData(Struct):
        __slots__ = ('key', 'value', 'remove', '_unknown_tagged_fields')

        def __init__(self, *, key='', value=0.0, remove=False):
            self.key = key
            self.value = value
            self.remove = remove
            self._unknown_tagged_fields = None


    class EntryData(Struct):
        __slots__ = ('entity', 'ops', '_unknown_tagged_fields')

        def __init__(self, *, entity=UNSET, ops=UNSET):
            self.entity = [] if entity is UNSET else entity
            self.ops = [] if ops is UNSET else ops
            self._unknown_tagged_fields = None


    def __init__(self, *, entries=UNSET, validate_only=False):
        self.entries = [] if entries is UNSET else entries
        self.validate_only = validate_only
        self._unknown_tagged_fields = None


class AlterClientQuotasResponse(Message):
    __slots__ = ('throttle_time_ms', 'entries', '_unknown_tagged_fields')
    schema_name = 'AlterClientQuotasResponse'
    message_type = 'response'
    api_key = 49
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class EntityData(Struct):
        __slots__ = ('entity_type', 'entity_name', '_unknown_tagged_fields')

        def __init__(self, *, entity_type='', entity_name=''):
            self.entity_type = entity_type
            self.entity_name = entity_name
            self._unknown_tagged_fields = None


    class EntryData(Struct):
        __slots__ = ('error_code', 'error_message', 'entity', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message='', entity=UNSET):
            self.error_code = error_code
            self.error_message = error_message
            self.entity = [] if entity is UNSET else entity
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, entries=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.entries = [] if entries is UNSET else entries
        self._unknown_tagged_fields = None


class AlterConfigsRequest(Message):
    __slots__ = ('resources', 'validate_only', '_unknown_tagged_fields')
    schema_name = 'AlterConfigsRequest'
    message_type = 'request'
    api_key = 33
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class AlterableConfig(Struct):
        __slots__ = ('name', 'value', '_unknown_tagged_fields')

        def __init__(self, *, name='', value=''):
            self.name = name
            self.value = value
            self._unknown_tagged_fields = None


    class AlterConfigsResource(Struct):
        __slots__ = ('resource_type', 'resource_name', 'configs', '_unknown_tagged_fields')

        def __init__(self, *, resource_type=0, resource_name='', configs=UNSET):
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.configs = [] if configs is UNSET else configs
            self._unknown_tagged_fields = None


    def __init__(self, *, resources=UNSET, validate_only=False):
        self.resources = [] if resources is UNSET else resources
        self.validate_only = validate_only
        self._unknown_tagged_fields = None


class AlterConfigsResponse(Message):
    __slots__ = ('throttle_time_ms', 'responses', '_unknown_tagged_fields')
    schema_name = 'AlterConfigsResponse'
    message_type = 'response'
    api_key = 33
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class AlterConfigsResourceResponse(Struct):
        __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name=''):
            self.error_code = error_code
            self.error_message = error_message
            self.resource_type = resource_type
            self.resource_name = resource_name
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, responses=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is UNSET else responses
        self._unknown_tagged_fields = None


class AlterPartitionReassignmentsRequest(Message):
    __slots__ = ('timeout_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'AlterPartitionReassignmentsRequest'
    message_type = 'request'
    api_key = 45
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class ReassignablePartition(Struct):
        __slots__ = ('partition_index', 'replicas', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, replicas=None):
            self.partition_index = partition_index
            self.replicas = replicas
            self._unknown_tagged_fields = None


    class ReassignableTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, timeout_ms=60000, topics=UNSET):
        self.timeout_ms = timeout_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class AlterPartitionReassignmentsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'responses', '_unknown_tagged_fields')
    schema_name = 'AlterPartitionReassignmentsResponse'
    message_type = 'response'
    api_key = 45
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class ReassignablePartitionResponse(Struct):
        __slots__ = ('partition_index', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, error_message=''):
            self.partition_index = partition_index
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    class ReassignableTopicResponse(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', responses=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is UNSET else responses
        self._unknown_tagged_fields = None


class AlterPartitionRequest(Message):
    __slots__ = ('broker_id', 'broker_epoch', 'topics', '_unknown_tagged_fields')
    schema_name = 'AlterPartitionRequest'
    message_type = 'request'
    api_key = 56
    valid_versions = range(0, 4)
    flexible_versions = range(0, 32768)
    latest_version = 3

    class BrokerState(Struct):
        __slots__ = ('broker_id', 'broker_epoch', '_unknown_tagged_fields')

        def __init__(self, *, broker_id=0, broker_epoch=-1):
            self.broker_id = broker_id
            self.broker_epoch = broker_epoch
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition_index', 'leader_epoch', 'new_isr', 'new_isr_with_epochs', 'leader_recovery_state', 'partition_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, leader_epoch=0, new_isr=UNSET, new_isr_with_epochs=UNSET, leader_recovery_state=0, partition_epoch=0):
            self.partition_index = partition_index
            self.leader_epoch = leader_epoch
            self.new_isr = [] if new_isr is UNSET else new_isr
            self.new_isr_with_epochs = [] if new_isr_with_epochs is UNSET else new_isr_with_epochs
            self.leader_recovery_state = leader_recovery_state
            self.partition_epoch = partition_epoch
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_name = topic_name
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, broker_id=0, broker_epoch=-1, topics=UNSET):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class AlterPartitionResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'topics', '_unknown_tagged_fields')
    schema_name = 'AlterPartitionResponse'
    message_type = 'response'
    api_key = 56
    valid_versions = range(0, 4)
    flexible_versions = range(0, 32768)
    latest_version = 3

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', 'isr', 'leader_recovery_state', 'partition_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, leader_id=0, leader_epoch=0, isr=UNSET, leader_recovery_state=0, partition_epoch=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.isr = [] if isr is UNSET else isr
            self.leader_recovery_state = leader_recovery_state
            self.partition_epoch = partition_epoch
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_name = topic_name
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class AlterReplicaLogDirsRequest(Message):
    __slots__ = ('dirs', '_unknown_tagged_fields')
    schema_name = 'AlterReplicaLogDirsRequest'
    message_type = 'request'
    api_key = 34
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class AlterReplicaLogDirTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class AlterReplicaLogDir(Struct):
        __slots__ = ('path', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, path='', topics=UNSET):
            self.path = path
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, dirs=UNSET):
        self.dirs = [] if dirs is UNSET else dirs
        self._unknown_tagged_fields = None


class AlterReplicaLogDirsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged_fields')
    schema_name = 'AlterReplicaLogDirsResponse'
    message_type = 'response'
    api_key = 34
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class AlterReplicaLogDirPartitionResult(Struct):
        __slots__ = ('partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class AlterReplicaLogDirTopicResult(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class AlterUserScramCredentialsRequest(Message):
    __slots__ = ('deletions', 'upsertions', '_unknown_tagged_fields')
    schema_name = 'AlterUserScramCredentialsRequest'
    message_type = 'request'
    api_key = 51
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class ScramCredentialDeletion(Struct):
        __slots__ = ('name', 'mechanism', '_unknown_tagged_fields')

        def __init__(self, *, name='', mechanism=0):
            self.name = name
            self.mechanism = mechanism
            self._unknown_tagged_fields = None


    class ScramCredentialUpsertion(Struct):
        __slots__ = ('name', 'mechanism', 'iterations', 'salt', 'salted_password', '_unknown_tagged_fields')

        def __init__(self, *, name='', mechanism=0, iterations=0, salt=b'', salted_password=b''):
            self.name = name
            self.mechanism = mechanism
            self.iterations = iterations
            self.salt = salt
            self.salted_password = salted_password
            self._unknown_tagged_fields = None


    def __init__(self, *, deletions=UNSET, upsertions=UNSET):
        self.deletions = [] if deletions is UNSET else deletions
        self.upsertions = [] if upsertions is UNSET else upsertions
        self._unknown_tagged_fields = None


class AlterUserScramCredentialsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged_fields')
    schema_name = 'AlterUserScramCredentialsResponse'
    message_type = 'response'
    api_key = 51
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class AlterUserScramCredentialsResult(Struct):
        __slots__ = ('user', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, user='', error_code=0, error_message=''):
            self.user = user
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class ApiVersionsRequest(Message):
    __slots__ = ('client_software_name', 'client_software_version', '_unknown_tagged_fields')
    schema_name = 'ApiVersionsRequest'
    message_type = 'request'
    api_key = 18
    valid_versions = range(0, 5)
    flexible_versions = range(3, 32768)
    latest_version = 4

    def __init__(self, *, client_software_name='', client_software_version=''):
        self.client_software_name = client_software_name
        self.client_software_version = client_software_version
        self._unknown_tagged_fields = None


class ApiVersionsResponse(Message):
    __slots__ = ('error_code', 'api_keys', 'throttle_time_ms', 'supported_features', 'finalized_features_epoch', 'finalized_features', 'zk_migration_ready', '_unknown_tagged_fields')
    schema_name = 'ApiVersionsResponse'
    message_type = 'response'
    api_key = 18
    valid_versions = range(0, 5)
    flexible_versions = range(3, 32768)
    latest_version = 4

    class ApiVersion(Struct):
        __slots__ = ('api_key', 'min_version', 'max_version', '_unknown_tagged_fields')

        def __init__(self, *, api_key=0, min_version=0, max_version=0):
            self.api_key = api_key
            self.min_version = min_version
            self.max_version = max_version
            self._unknown_tagged_fields = None


    class SupportedFeatureKey(Struct):
        __slots__ = ('name', 'min_version', 'max_version', '_unknown_tagged_fields')

        def __init__(self, *, name='', min_version=0, max_version=0):
            self.name = name
            self.min_version = min_version
            self.max_version = max_version
            self._unknown_tagged_fields = None


    class FinalizedFeatureKey(Struct):
        __slots__ = ('name', 'max_version_level', 'min_version_level', '_unknown_tagged_fields')

        def __init__(self, *, name='', max_version_level=0, min_version_level=0):
            self.name = name
            self.max_version_level = max_version_level
            self.min_version_level = min_version_level
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, api_keys=UNSET, throttle_time_ms=0, supported_features=UNSET, finalized_features_epoch=-1, finalized_features=UNSET, zk_migration_ready=False):
        self.error_code = error_code
        self.api_keys = [] if api_keys is UNSET else api_keys
        self.throttle_time_ms = throttle_time_ms
        self.supported_features = [] if supported_features is UNSET else supported_features
        self.finalized_features_epoch = finalized_features_epoch
        self.finalized_features = [] if finalized_features is UNSET else finalized_features
        self.zk_migration_ready = zk_migration_ready
        self._unknown_tagged_fields = None


class AssignReplicasToDirsRequest(Message):
    __slots__ = ('broker_id', 'broker_epoch', 'directories', '_unknown_tagged_fields')
    schema_name = 'AssignReplicasToDirsRequest'
    message_type = 'request'
    api_key = 73
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class PartitionData(Struct):
        __slots__ = ('partition_index', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0):
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class DirectoryData(Struct):
        __slots__ = ('id', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, id=ZERO_UUID, topics=UNSET):
            self.id = id
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, broker_id=0, broker_epoch=-1, directories=UNSET):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.directories = [] if directories is UNSET else directories
        self._unknown_tagged_fields = None


class AssignReplicasToDirsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'directories', '_unknown_tagged_fields')
    schema_name = 'AssignReplicasToDirsResponse'
    message_type = 'response'
    api_key = 73
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class DirectoryData(Struct):
        __slots__ = ('id', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, id=ZERO_UUID, topics=UNSET):
            self.id = id
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, directories=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.directories = [] if directories is UNSET else directories
        self._unknown_tagged_fields = None


class BeginQuorumEpochRequest(Message):
    __slots__ = ('cluster_id', 'voter_id', 'topics', 'leader_endpoints', '_unknown_tagged_fields')
    schema_name = 'BeginQuorumEpochRequest'
    message_type = 'request'
    api_key = 53
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'voter_directory_id', 'leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, voter_directory_id=ZERO_UUID, leader_id=0, leader_epoch=0):
            self.partition_index = partition_index
            self.voter_directory_id = voter_directory_id
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class LeaderEndpoint(Struct):
        __slots__ = ('name', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0):
            self.name = name
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id=None, voter_id=-1, topics=UNSET, leader_endpoints=UNSET):
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.topics = [] if topics is UNSET else topics
        self.leader_endpoints = [] if leader_endpoints is UNSET else leader_endpoints
        self._unknown_tagged_fields = None


class BeginQuorumEpochResponse(Message):
    __slots__ = ('error_code', 'topics', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'BeginQuorumEpochResponse'
    message_type = 'response'
    api_key = 53
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, leader_id=0, leader_epoch=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0):
            self.node_id = node_id
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, topics=UNSET, node_endpoints=UNSET):
        self.error_code = error_code
        self.topics = [] if topics is UNSET else topics
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class BrokerHeartbeatRequest(Message):
    __slots__ = ('broker_id', 'broker_epoch', 'current_metadata_offset', 'want_fence', 'want_shut_down', 'offline_log_dirs', '_unknown_tagged_fields')
    schema_name = 'BrokerHeartbeatRequest'
    message_type = 'request'
    api_key = 63
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    def __init__(self, *, broker_id=0, broker_epoch=-1, current_metadata_offset=0, want_fence=False, want_shut_down=False, offline_log_dirs=UNSET):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.current_metadata_offset = current_metadata_offset
        self.want_fence = want_fence
        self.want_shut_down = want_shut_down
        self.offline_log_dirs = [] if offline_log_dirs is UNSET else offline_log_dirs
        self._unknown_tagged_fields = None


class BrokerHeartbeatResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'is_caught_up', 'is_fenced', 'should_shut_down', '_unknown_tagged_fields')
    schema_name = 'BrokerHeartbeatResponse'
    message_type = 'response'
    api_key = 63
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    def __init__(self, *, throttle_time_ms=0, error_code=0, is_caught_up=False, is_fenced=True, should_shut_down=False):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.is_caught_up = is_caught_up
        self.is_fenced = is_fenced
        self.should_shut_down = should_shut_down
        self._unknown_tagged_fields = None


class BrokerRegistrationRequest(Message):
    __slots__ = ('broker_id', 'cluster_id', 'incarnation_id', 'listeners', 'features', 'rack', 'is_migrating_zk_broker', 'log_dirs', 'previous_broker_epoch', '_unknown_tagged_fields')
    schema_name = 'BrokerRegistrationRequest'
    message_type = 'request'
    api_key = 62
    valid_versions = range(0, 5)
    flexible_versions = range(0, 32768)
    latest_version = 4

    class Listener(Struct):
        __slots__ = ('name', 'host', 'port', 'security_protocol', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0, security_protocol=0):
            self.name = name
            self.host = host
            self.port = port
            self.security_protocol = security_protocol
            self._unknown_tagged_fields = None


    class Feature(Struct):
        __slots__ = ('name', 'min_supported_version', 'max_supported_version', '_unknown_tagged_fields')

        def __init__(self, *, name='', min_supported_version=0, max_supported_version=0):
            self.name = name
            self.min_supported_version = min_supported_version
            self.max_supported_version = max_supported_version
            self._unknown_tagged_fields = None


    def __init__(self, *, broker_id=0, cluster_id='', incarnation_id=ZERO_UUID, listeners=UNSET, features=UNSET, rack='', is_migrating_zk_broker=False, log_dirs=UNSET, previous_broker_epoch=-1):
        self.broker_id = broker_id
        self.cluster_id = cluster_id
        self.incarnation_id = incarnation_id
        self.listeners = [] if listeners is UNSET else listeners
        self.features = [] if features is UNSET else features
        self.rack = rack
        self.is_migrating_zk_broker = is_migrating_zk_broker
        self.log_dirs = [] if log_dirs is UNSET else log_dirs
        self.previous_broker_epoch = previous_broker_epoch
        self._unknown_tagged_fields = None


class BrokerRegistrationResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'broker_epoch', '_unknown_tagged_fields')
    schema_name = 'BrokerRegistrationResponse'
    message_type = 'response'
    api_key = 62
    valid_versions = range(0, 5)
    flexible_versions = range(0, 32768)
    latest_version = 4

    def __init__(self, *, throttle_time_ms=0, error_code=0, broker_epoch=-1):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.broker_epoch = broker_epoch
        self._unknown_tagged_fields = None


class ConsumerGroupDescribeRequest(Message):
    __slots__ = ('group_ids', 'include_authorized_operations', '_unknown_tagged_fields')
    schema_name = 'ConsumerGroupDescribeRequest'
    message_type = 'request'
    api_key = 69
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, group_ids=UNSET, include_authorized_operations=False):
        self.group_ids = [] if group_ids is UNSET else group_ids
        self.include_authorized_operations = include_authorized_operations
        self._unknown_tagged_fields = None


class ConsumerGroupDescribeResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged_fields')
    schema_name = 'ConsumerGroupDescribeResponse'
    message_type = 'response'
    api_key = 69
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class TopicPartitions(Struct):
        __slots__ = ('topic_id', 'topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, topic_name='', partitions=UNSET):
            self.topic_id = topic_id
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class Assignment(Struct):
        __slots__ = ('topic_partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_partitions=UNSET):
            self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
            self._unknown_tagged_fields = None


    class Member(Struct):
        __slots__ = ('member_id', 'instance_id', 'rack_id', 'member_epoch', 'client_id', 'client_host', 'subscribed_topic_names', 'subscribed_topic_regex', 'assignment', 'target_assignment', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', instance_id=None, rack_id=None, member_epoch=0, client_id='', client_host='', subscribed_topic_names=UNSET, subscribed_topic_regex=None, assignment=UNSET, target_assignment=UNSET):
            self.member_id = member_id
            self.instance_id = instance_id
            self.rack_id = rack_id
            self.member_epoch = member_epoch
            self.client_id = client_id
            self.client_host = client_host
            self.subscribed_topic_names = [] if subscribed_topic_names is UNSET else subscribed_topic_names
            self.subscribed_topic_regex = subscribed_topic_regex
            self.assignment = ConsumerGroupDescribeResponse.Assignment() if assignment is UNSET else assignment
            self.target_assignment = ConsumerGroupDescribeResponse.Assignment() if target_assignment is UNSET else target_assignment
            self._unknown_tagged_fields = None


    class DescribedGroup(Struct):
        __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'assignor_name', 'members', 'authorized_operations', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', group_epoch=0, assignment_epoch=0, assignor_name='', members=UNSET, authorized_operations=-2147483648):
            self.error_code = error_code
            self.error_message = error_message
            self.group_id = group_id
            self.group_state = group_state
            self.group_epoch = group_epoch
            self.assignment_epoch = assignment_epoch
            self.assignor_name = assignor_name
            self.members = [] if members is UNSET else members
            self.authorized_operations = authorized_operations
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, groups=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is UNSET else groups
        self._unknown_tagged_fields = None


class ConsumerGroupHeartbeatRequest(Message):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'instance_id', 'rack_id', 'rebalance_timeout_ms', 'subscribed_topic_names', 'subscribed_topic_regex', 'server_assignor', 'topic_partitions', '_unknown_tagged_fields')
    schema_name = 'ConsumerGroupHeartbeatRequest'
    message_type = 'request'
    api_key = 68
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class TopicPartitions(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', member_id='', member_epoch=0, instance_id=None, rack_id=None, rebalance_timeout_ms=-1, subscribed_topic_names=None, subscribed_topic_regex=None, server_assignor=None, topic_partitions=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.subscribed_topic_names = subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.server_assignor = server_assignor
        self.topic_partitions = topic_partitions
        self._unknown_tagged_fields = None


class ConsumerGroupHeartbeatResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'assignment', '_unknown_tagged_fields')
    schema_name = 'ConsumerGroupHeartbeatResponse'
    message_type = 'response'
    api_key = 68
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class TopicPartitions(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class Assignment(Struct):
        __slots__ = ('topic_partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_partitions=UNSET):
            self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, member_id=None, member_epoch=0, heartbeat_interval_ms=0, assignment=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment
        self._unknown_tagged_fields = None


class ConsumerProtocolAssignment(Message):
    __slots__ = ('assigned_partitions', 'user_data', '_unknown_tagged_fields')
    schema_name = 'ConsumerProtocolAssignment'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 4)
    flexible_versions = range(1, 1)
    latest_version = 3

    class TopicPartition(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, assigned_partitions=UNSET, user_data=None):
        self.assigned_partitions = [] if assigned_partitions is UNSET else assigned_partitions
        self.user_data = user_data
        self._unknown_tagged_fields = None


class ConsumerProtocolSubscription(Message):
    __slots__ = ('topics', 'user_data', 'owned_partitions', 'generation_id', 'rack_id', '_unknown_tagged_fields')
    schema_name = 'ConsumerProtocolSubscription'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 4)
    flexible_versions = range(1, 1)
    latest_version = 3

    class TopicPartition(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, user_data=None, owned_partitions=UNSET, generation_id=-1, rack_id=None):
        self.topics = [] if topics is UNSET else topics
        self.user_data = user_data
        self.owned_partitions = [] if owned_partitions is UNSET else owned_partitions
        self.generation_id = generation_id
        self.rack_id = rack_id
        self._unknown_tagged_fields = None


class ControlledShutdownRequest(Message):
    __slots__ = ('broker_id', 'broker_epoch', '_unknown_tagged_fields')
    schema_name = 'ControlledShutdownRequest'
    message_type = 'request'
    api_key = 7
    valid_versions = range(0, 4)
    flexible_versions = range(3, 32768)
    latest_version = 3

    def __init__(self, *, broker_id=0, broker_epoch=-1):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self._unknown_tagged_fields = None


class ControlledShutdownResponse(Message):
    __slots__ = ('error_code', 'remaining_partitions', '_unknown_tagged_fields')
    schema_name = 'ControlledShutdownResponse'
    message_type = 'response'
    api_key = 7
    valid_versions = range(0, 4)
    flexible_versions = range(3, 32768)
    latest_version = 3

    class RemainingPartition(Struct):
        __slots__ = ('topic_name', 'partition_index', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, remaining_partitions=UNSET):
        self.error_code = error_code
        self.remaining_partitions = [] if remaining_partitions is UNSET else remaining_partitions
        self._unknown_tagged_fields = None


class ControllerRegistrationRequest(Message):
    __slots__ = ('controller_id', 'incarnation_id', 'zk_migration_ready', 'listeners', 'features', '_unknown_tagged_fields')
    schema_name = 'ControllerRegistrationRequest'
    message_type = 'request'
    api_key = 70
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class Listener(Struct):
        __slots__ = ('name', 'host', 'port', 'security_protocol', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0, security_protocol=0):
            self.name = name
            self.host = host
            self.port = port
            self.security_protocol = security_protocol
            self._unknown_tagged_fields = None


    class Feature(Struct):
        __slots__ = ('name', 'min_supported_version', 'max_supported_version', '_unknown_tagged_fields')

        def __init__(self, *, name='', min_supported_version=0, max_supported_version=0):
            self.name = name
            self.min_supported_version = min_supported_version
            self.max_supported_version = max_supported_version
            self._unknown_tagged_fields = None


    def __init__(self, *, controller_id=0, incarnation_id=ZERO_UUID, zk_migration_ready=False, listeners=UNSET, features=UNSET):
        self.controller_id = controller_id
        self.incarnation_id = incarnation_id
        self.zk_migration_ready = zk_migration_ready
        self.listeners = [] if listeners is UNSET else listeners
        self.features = [] if features is UNSET else features
        self._unknown_tagged_fields = None


class ControllerRegistrationResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', '_unknown_tagged_fields')
    schema_name = 'ControllerRegistrationResponse'
    message_type = 'response'
    api_key = 70
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=''):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged_fields = None


class CreateAclsRequest(Message):
    __slots__ = ('creations', '_unknown_tagged_fields')
    schema_name = 'CreateAclsRequest'
    message_type = 'request'
    api_key = 30
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class AclCreation(Struct):
        __slots__ = ('resource_type', 'resource_name', 'resource_pattern_type', 'principal', 'host', 'operation', 'permission_type', '_unknown_tagged_fields')

        def __init__(self, *, resource_type=0, resource_name='', resource_pattern_type=3, principal='', host='', operation=0, permission_type=0):
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.resource_pattern_type = resource_pattern_type
            self.principal = principal
            self.host = host
            self.operation = operation
            self.permission_type = permission_type
            self._unknown_tagged_fields = None


    def __init__(self, *, creations=UNSET):
        self.creations = [] if creations is UNSET else creations
        self._unknown_tagged_fields = None


class CreateAclsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged_fields')
    schema_name = 'CreateAclsResponse'
    message_type = 'response'
    api_key = 30
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class AclCreationResult(Struct):
        __slots__ = ('error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message=''):
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class CreateDelegationTokenRequest(Message):
    __slots__ = ('owner_principal_type', 'owner_principal_name', 'renewers', 'max_lifetime_ms', '_unknown_tagged_fields')
    schema_name = 'CreateDelegationTokenRequest'
    message_type = 'request'
    api_key = 38
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class CreatableRenewers(Struct):
        __slots__ = ('principal_type', 'principal_name', '_unknown_tagged_fields')

        def __init__(self, *, principal_type='', principal_name=''):
            self.principal_type = principal_type
            self.principal_name = principal_name
            self._unknown_tagged_fields = None


    def __init__(self, *, owner_principal_type='', owner_principal_name='', renewers=UNSET, max_lifetime_ms=0):
        self.owner_principal_type = owner_principal_type
        self.owner_principal_name = owner_principal_name
        self.renewers = [] if renewers is UNSET else renewers
        self.max_lifetime_ms = max_lifetime_ms
        self._unknown_tagged_fields = None


class CreateDelegationTokenResponse(Message):
    __slots__ = ('error_code', 'principal_type', 'principal_name', 'token_requester_principal_type', 'token_requester_principal_name', 'issue_timestamp_ms', 'expiry_timestamp_ms', 'max_timestamp_ms', 'token_id', 'hmac', 'throttle_time_ms', '_unknown_tagged_fields')
    schema_name = 'CreateDelegationTokenResponse'
    message_type = 'response'
    api_key = 38
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    def __init__(self, *, error_code=0, principal_type='', principal_name='', token_requester_principal_type='', token_requester_principal_name='', issue_timestamp_ms=0, expiry_timestamp_ms=0, max_timestamp_ms=0, token_id='', hmac=b'', throttle_time_ms=0):
        self.error_code = error_code
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.token_requester_principal_type = token_requester_principal_type
        self.token_requester_principal_name = token_requester_principal_name
        self.issue_timestamp_ms = issue_timestamp_ms
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.max_timestamp_ms = max_timestamp_ms
        self.token_id = token_id
        self.hmac = hmac
        self.throttle_time_ms = throttle_time_ms
        self._unknown_tagged_fields = None


class CreatePartitionsRequest(Message):
    __slots__ = ('topics', 'timeout_ms', 'validate_only', '_unknown_tagged_fields')
    schema_name = 'CreatePartitionsRequest'
    message_type = 'request'
    api_key = 37
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class CreatePartitionsAssignment(Struct):
        __slots__ = ('broker_ids', '_unknown_tagged_fields')

        def __init__(self, *, broker_ids=UNSET):
            self.broker_ids = [] if broker_ids is UNSET else broker_ids
            self._unknown_tagged_fields = None


    class CreatePartitionsTopic(Struct):
        __slots__ = ('name', 'count', 'assignments', '_unknown_tagged_fields')

        def __init__(self, *, name='', count=0, assignments=UNSET):
            self.name = name
            self.count = count
            self.assignments = [] if assignments is UNSET else assignments
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, timeout_ms=0, validate_only=False):
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self._unknown_tagged_fields = None


class CreatePartitionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged_fields')
    schema_name = 'CreatePartitionsResponse'
    message_type = 'response'
    api_key = 37
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class CreatePartitionsTopicResult(Struct):
        __slots__ = ('name', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, name='', error_code=0, error_message=None):
            self.name = name
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class CreateTopicsRequest(Message):
    __slots__ = ('topics', 'timeout_ms', 'validate_only', '_unknown_tagged_fields')
    schema_name = 'CreateTopicsRequest'
    message_type = 'request'
    api_key = 19
    valid_versions = range(0, 8)
    flexible_versions = range(5, 32768)
    latest_version = 7

    class CreatableReplicaAssignment(Struct):
        __slots__ = ('partition_index', 'broker_ids', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, broker_ids=UNSET):
            self.partition_index = partition_index
            self.broker_ids = [] if broker_ids is UNSET else broker_ids
            self._unknown_tagged_fields = None


    class CreatableTopicConfig(Struct):
        __slots__ = ('name', 'value', '_unknown_tagged_fields')

        def __init__(self, *, name='', value=''):
            self.name = name
            self.value = value
            self._unknown_tagged_fields = None


    class CreatableTopic(Struct):
        __slots__ = ('name', 'num_partitions', 'replication_factor', 'assignments', 'configs', '_unknown_tagged_fields')

        def __init__(self, *, name='', num_partitions=0, replication_factor=0, assignments=UNSET, configs=UNSET):
            self.name = name
            self.num_partitions = num_partitions
            self.replication_factor = replication_factor
            self.assignments = [] if assignments is UNSET else assignments
            self.configs = [] if configs is UNSET else configs
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, timeout_ms=60000, validate_only=False):
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self._unknown_tagged_fields = None


class CreateTopicsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'CreateTopicsResponse'
    message_type = 'response'
    api_key = 19
    valid_versions = range(0, 8)
    flexible_versions = range(5, 32768)
    latest_version = 7

    class CreatableTopicConfigs(Struct):
        __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_sensitive', '_unknown_tagged_fields')

        def __init__(self, *, name='', value='', read_only=False, config_source=-1, is_sensitive=False):
            self.name = name
            self.value = value
            self.read_only = read_only
            self.config_source = config_source
            self.is_sensitive = is_sensitive
            self._unknown_tagged_fields = None


    class CreatableTopicResult(Struct):
        __slots__ = ('name', 'topic_id', 'error_code', 'error_message', 'topic_config_error_code', 'num_partitions', 'replication_factor', 'configs', '_unknown_tagged_fields')

        def __init__(self, *, name='', topic_id=ZERO_UUID, error_code=0, error_message='', topic_config_error_code=0, num_partitions=-1, replication_factor=-1, configs=UNSET):
            self.name = name
            self.topic_id = topic_id
            self.error_code = error_code
            self.error_message = error_message
            self.topic_config_error_code = topic_config_error_code
            self.num_partitions = num_partitions
            self.replication_factor = replication_factor
            self.configs = [] if configs is UNSET else configs
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DefaultPrincipalData(Message):
    __slots__ = ('type', 'name', 'token_authenticated', '_unknown_tagged_fields')
    schema_name = 'DefaultPrincipalData'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, type='', name='', token_authenticated=False):
        self.type = type
        self.name = name
        self.token_authenticated = token_authenticated
        self._unknown_tagged_fields = None


class DeleteAclsRequest(Message):
    __slots__ = ('filters', '_unknown_tagged_fields')
    schema_name = 'DeleteAclsRequest'
    message_type = 'request'
    api_key = 31
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class DeleteAclsFilter(Struct):
        __slots__ = ('resource_type_filter', 'resource_name_filter', 'pattern_type_filter', 'principal_filter', 'host_filter', 'operation', 'permission_type', '_unknown_tagged_fields')

        def __init__(self, *, resource_type_filter=0, resource_name_filter='', pattern_type_filter=3, principal_filter='', host_filter='', operation=0, permission_type=0):
            self.resource_type_filter = resource_type_filter
            self.resource_name_filter = resource_name_filter
            self.pattern_type_filter = pattern_type_filter
            self.principal_filter = principal_filter
            self.host_filter = host_filter
            self.operation = operation
            self.permission_type = permission_type
            self._unknown_tagged_fields = None


    def __init__(self, *, filters=UNSET):
        self.filters = [] if filters is UNSET else filters
        self._unknown_tagged_fields = None


class DeleteAclsResponse(Message):
    __slots__ = ('throttle_time_ms', 'filter_results', '_unknown_tagged_fields')
    schema_name = 'DeleteAclsResponse'
    message_type = 'response'
    api_key = 31
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class DeleteAclsMatchingAcl(Struct):
        __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'pattern_type', 'principal', 'host', 'operation', 'permission_type', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name='', pattern_type=3, principal='', host='', operation=0, permission_type=0):
            self.error_code = error_code
            self.error_message = error_message
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.pattern_type = pattern_type
            self.principal = principal
            self.host = host
            self.operation = operation
            self.permission_type = permission_type
            self._unknown_tagged_fields = None


    class DeleteAclsFilterResult(Struct):
        __slots__ = ('error_code', 'error_message', 'matching_acls', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message='', matching_acls=UNSET):
            self.error_code = error_code
            self.error_message = error_message
            self.matching_acls = [] if matching_acls is UNSET else matching_acls
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, filter_results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.filter_results = [] if filter_results is UNSET else filter_results
        self._unknown_tagged_fields = None


class DeleteGroupsRequest(Message):
    __slots__ = ('groups_names', '_unknown_tagged_fields')
    schema_name = 'DeleteGroupsRequest'
    message_type = 'request'
    api_key = 42
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, groups_names=UNSET):
        self.groups_names = [] if groups_names is UNSET else groups_names
        self._unknown_tagged_fields = None


class DeleteGroupsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged_fields')
    schema_name = 'DeleteGroupsResponse'
    message_type = 'response'
    api_key = 42
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class DeletableGroupResult(Struct):
        __slots__ = ('group_id', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, group_id='', error_code=0):
            self.group_id = group_id
            self.error_code = error_code
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class DeleteRecordsRequest(Message):
    __slots__ = ('topics', 'timeout_ms', '_unknown_tagged_fields')
    schema_name = 'DeleteRecordsRequest'
    message_type = 'request'
    api_key = 21
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class DeleteRecordsPartition(Struct):
        __slots__ = ('partition_index', 'offset', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, offset=0):
            self.partition_index = partition_index
            self.offset = offset
            self._unknown_tagged_fields = None


    class DeleteRecordsTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, timeout_ms=0):
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self._unknown_tagged_fields = None


class DeleteRecordsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'DeleteRecordsResponse'
    message_type = 'response'
    api_key = 21
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class DeleteRecordsPartitionResult(Struct):
        __slots__ = ('partition_index', 'low_watermark', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, low_watermark=0, error_code=0):
            self.partition_index = partition_index
            self.low_watermark = low_watermark
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class DeleteRecordsTopicResult(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DeleteShareGroupStateRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'DeleteShareGroupStateRequest'
    message_type = 'request'
    api_key = 86
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = None

    class PartitionData(Struct):
        __slots__ = ('partition', '_unknown_tagged_fields')

        def __init__(self, *, partition=0):
            self.partition = partition
            self._unknown_tagged_fields = None


    class DeleteStateData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DeleteShareGroupStateResponse(Message):
    __slots__ = ('results', '_unknown_tagged_fields')
    schema_name = 'DeleteShareGroupStateResponse'
    message_type = 'response'
    api_key = 86
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class PartitionResult(Struct):
        __slots__ = ('partition', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, error_code=0, error_message=None):
            self.partition = partition
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    class DeleteStateResult(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, results=UNSET):
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class DeleteTopicsRequest(Message):
    __slots__ = ('topics', 'topic_names', 'timeout_ms', '_unknown_tagged_fields')
    schema_name = 'DeleteTopicsRequest'
    message_type = 'request'
    api_key = 20
    valid_versions = range(0, 7)
    flexible_versions = range(4, 32768)
    latest_version = 6

    class DeleteTopicState(Struct):
        __slots__ = ('name', 'topic_id', '_unknown_tagged_fields')

        def __init__(self, *, name=None, topic_id=ZERO_UUID):
            self.name = name
            self.topic_id = topic_id
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, topic_names=UNSET, timeout_ms=0):
        self.topics = [] if topics is UNSET else topics
        self.topic_names = [] if topic_names is UNSET else topic_names
        self.timeout_ms = timeout_ms
        self._unknown_tagged_fields = None


class DeleteTopicsResponse(Message):
    __slots__ = ('throttle_time_ms', 'responses', '_unknown_tagged_fields')
    schema_name = 'DeleteTopicsResponse'
    message_type = 'response'
    api_key = 20
    valid_versions = range(0, 7)
    flexible_versions = range(4, 32768)
    latest_version = 6

    class DeletableTopicResult(Struct):
        __slots__ = ('name', 'topic_id', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, name='', topic_id=ZERO_UUID, error_code=0, error_message=None):
            self.name = name
            self.topic_id = topic_id
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, responses=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is UNSET else responses
        self._unknown_tagged_fields = None


class DescribeAclsRequest(Message):
    __slots__ = ('resource_type_filter', 'resource_name_filter', 'pattern_type_filter', 'principal_filter', 'host_filter', 'operation', 'permission_type', '_unknown_tagged_fields')
    schema_name = 'DescribeAclsRequest'
    message_type = 'request'
    api_key = 29
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    def __init__(self, *, resource_type_filter=0, resource_name_filter='', pattern_type_filter=3, principal_filter='', host_filter='', operation=0, permission_type=0):
        self.resource_type_filter = resource_type_filter
        self.resource_name_filter = resource_name_filter
        self.pattern_type_filter = pattern_type_filter
        self.principal_filter = principal_filter
        self.host_filter = host_filter
        self.operation = operation
        self.permission_type = permission_type
        self._unknown_tagged_fields = None


class DescribeAclsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'resources', '_unknown_tagged_fields')
    schema_name = 'DescribeAclsResponse'
    message_type = 'response'
    api_key = 29
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class AclDescription(Struct):
        __slots__ = ('principal', 'host', 'operation', 'permission_type', '_unknown_tagged_fields')

        def __init__(self, *, principal='', host='', operation=0, permission_type=0):
            self.principal = principal
            self.host = host
            self.operation = operation
            self.permission_type = permission_type
            self._unknown_tagged_fields = None


    class DescribeAclsResource(Struct):
        __slots__ = ('resource_type', 'resource_name', 'pattern_type', 'acls', '_unknown_tagged_fields')

        def __init__(self, *, resource_type=0, resource_name='', pattern_type=3, acls=UNSET):
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.pattern_type = pattern_type
            self.acls = [] if acls is UNSET else acls
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', resources=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.resources = [] if resources is UNSET else resources
        self._unknown_tagged_fields = None


class DescribeClientQuotasRequest(Message):
    __slots__ = ('components', 'strict', '_unknown_tagged_fields')
    schema_name = 'DescribeClientQuotasRequest'
    message_type = 'request'
    api_key = 48
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class ComponentData(Struct):
        __slots__ = ('entity_type', 'match_type', 'match', '_unknown_tagged_fields')

        def __init__(self, *, entity_type='', match_type=0, match=''):
            self.entity_type = entity_type
            self.match_type = match_type
            self.match = match
            self._unknown_tagged_fields = None


    def __init__(self, *, components=UNSET, strict=False):
        self.components = [] if components is UNSET else components
        self.strict = strict
        self._unknown_tagged_fields = None


class DescribeClientQuotasResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'entries', '_unknown_tagged_fields')
    schema_name = 'DescribeClientQuotasResponse'
    message_type = 'response'
    api_key = 48
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class EntityData(Struct):
        __slots__ = ('entity_type', 'entity_name', '_unknown_tagged_fields')

        def __init__(self, *, entity_type='', entity_name=''):
            self.entity_type = entity_type
            self.entity_name = entity_name
            self._unknown_tagged_fields = None


    class ValueData(Struct):
        __slots__ = ('key', 'value', '_unknown_tagged_fields')

        def __init__(self, *, key='', value=0.0):
            self.key = key
            self.value = value
            self._unknown_tagged_fields = None


    class EntryData(Struct):
        __slots__ = ('entity', 'values', '_unknown_tagged_fields')

        def __init__(self, *, entity=UNSET, values=UNSET):
            self.entity = [] if entity is UNSET else entity
            self.values = [] if values is UNSET else values
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', entries=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.entries = [] if entries is UNSET else entries
        self._unknown_tagged_fields = None


class DescribeClusterRequest(Message):
    __slots__ = ('include_cluster_authorized_operations', 'endpoint_type', '_unknown_tagged_fields')
    schema_name = 'DescribeClusterRequest'
    message_type = 'request'
    api_key = 60
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    def __init__(self, *, include_cluster_authorized_operations=False, endpoint_type=1):
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.endpoint_type = endpoint_type
        self._unknown_tagged_fields = None


class DescribeClusterResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'endpoint_type', 'cluster_id', 'controller_id', 'brokers', 'cluster_authorized_operations', '_unknown_tagged_fields')
    schema_name = 'DescribeClusterResponse'
    message_type = 'response'
    api_key = 60
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class DescribeClusterBroker(Struct):
        __slots__ = ('broker_id', 'host', 'port', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, broker_id=0, host='', port=0, rack=None):
            self.broker_id = broker_id
            self.host = host
            self.port = port
            self.rack = rack
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, endpoint_type=1, cluster_id='', controller_id=-1, brokers=UNSET, cluster_authorized_operations=-2147483648):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.endpoint_type = endpoint_type
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.brokers = [] if brokers is UNSET else brokers
        self.cluster_authorized_operations = cluster_authorized_operations
        self._unknown_tagged_fields = None


class DescribeConfigsRequest(Message):
    __slots__ = ('resources', 'include_synonyms', 'include_documentation', '_unknown_tagged_fields')
    schema_name = 'DescribeConfigsRequest'
    message_type = 'request'
    api_key = 32
    valid_versions = range(0, 5)
    flexible_versions = range(4, 32768)
    latest_version = 4

    class DescribeConfigsResource(Struct):
        __slots__ = ('resource_type', 'resource_name', 'configuration_keys', '_unknown_tagged_fields')

        def __init__(self, *, resource_type=0, resource_name='', configuration_keys=UNSET):
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.configuration_keys = [] if configuration_keys is UNSET else configuration_keys
            self._unknown_tagged_fields = None


    def __init__(self, *, resources=UNSET, include_synonyms=False, include_documentation=False):
        self.resources = [] if resources is UNSET else resources
        self.include_synonyms = include_synonyms
        self.include_documentation = include_documentation
        self._unknown_tagged_fields = None


class DescribeConfigsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged_fields')
    schema_name = 'DescribeConfigsResponse'
    message_type = 'response'
    api_key = 32
    valid_versions = range(0, 5)
    flexible_versions = range(4, 32768)
    latest_version = 4

    class DescribeConfigsSynonym(Struct):
        __slots__ = ('name', 'value', 'source', '_unknown_tagged_fields')

        def __init__(self, *, name='', value='', source=0):
            self.name = name
            self.value = value
            self.source = source
            self._unknown_tagged_fields = None


    class DescribeConfigsResourceResult(Struct):
        __slots__ = ('name', 'value', 'read_only', 'is_default', 'config_source', 'is_sensitive', 'synonyms', 'config_type', 'documentation', '_unknown_tagged_fields')

        def __init__(self, *, name='', value='', read_only=False, is_default=False, config_source=-1, is_sensitive=False, synonyms=UNSET, config_type=0, documentation=''):
            self.name = name
            self.value = value
            self.read_only = read_only
            self.is_default = is_default
            self.config_source = config_source
            self.is_sensitive = is_sensitive
            self.synonyms = [] if synonyms is UNSET else synonyms
            self.config_type = config_type
            self.documentation = documentation
            self._unknown_tagged_fields = None


    class DescribeConfigsResult(Struct):
        __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'configs', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name='', configs=UNSET):
            self.error_code = error_code
            self.error_message = error_message
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.configs = [] if configs is UNSET else configs
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class DescribeDelegationTokenRequest(Message):
    __slots__ = ('owners', '_unknown_tagged_fields')
    schema_name = 'DescribeDelegationTokenRequest'
    message_type = 'request'
    api_key = 41
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class DescribeDelegationTokenOwner(Struct):
        __slots__ = ('principal_type', 'principal_name', '_unknown_tagged_fields')

        def __init__(self, *, principal_type='', principal_name=''):
            self.principal_type = principal_type
            self.principal_name = principal_name
            self._unknown_tagged_fields = None


    def __init__(self, *, owners=UNSET):
        self.owners = [] if owners is UNSET else owners
        self._unknown_tagged_fields = None


class DescribeDelegationTokenResponse(Message):
    __slots__ = ('error_code', 'tokens', 'throttle_time_ms', '_unknown_tagged_fields')
    schema_name = 'DescribeDelegationTokenResponse'
    message_type = 'response'
    api_key = 41
    valid_versions = range(0, 4)
    flexible_versions = range(2, 32768)
    latest_version = 3

    class DescribedDelegationTokenRenewer(Struct):
        __slots__ = ('principal_type', 'principal_name', '_unknown_tagged_fields')

        def __init__(self, *, principal_type='', principal_name=''):
            self.principal_type = principal_type
            self.principal_name = principal_name
            self._unknown_tagged_fields = None


    class DescribedDelegationToken(Struct):
        __slots__ = ('principal_type', 'principal_name', 'token_requester_principal_type', 'token_requester_principal_name', 'issue_timestamp', 'expiry_timestamp', 'max_timestamp', 'token_id', 'hmac', 'renewers', '_unknown_tagged_fields')

        def __init__(self, *, principal_type='', principal_name='', token_requester_principal_type='', token_requester_principal_name='', issue_timestamp=0, expiry_timestamp=0, max_timestamp=0, token_id='', hmac=b'', renewers=UNSET):
            self.principal_type = principal_type
            self.principal_name = principal_name
            self.token_requester_principal_type = token_requester_principal_type
            self.token_requester_principal_name = token_requester_principal_name
            self.issue_timestamp = issue_timestamp
            self.expiry_timestamp = expiry_timestamp
            self.max_timestamp = max_timestamp
            self.token_id = token_id
            self.hmac = hmac
            self.renewers = [] if renewers is UNSET else renewers
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, tokens=UNSET, throttle_time_ms=0):
        self.error_code = error_code
        self.tokens = [] if tokens is UNSET else tokens
        self.throttle_time_ms = throttle_time_ms
        self._unknown_tagged_fields = None


class DescribeGroupsRequest(Message):
    __slots__ = ('groups', 'include_authorized_operations', '_unknown_tagged_fields')
    schema_name = 'DescribeGroupsRequest'
    message_type = 'request'
    api_key = 15
    valid_versions = range(0, 6)
    flexible_versions = range(5, 32768)
    latest_version = 5

    def __init__(self, *, groups=UNSET, include_authorized_operations=False):
        self.groups = [] if groups is UNSET else groups
        self.include_authorized_operations = include_authorized_operations
        self._unknown_tagged_fields = None


class DescribeGroupsResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged_fields')
    schema_name = 'DescribeGroupsResponse'
    message_type = 'response'
    api_key = 15
    valid_versions = range(0, 6)
    flexible_versions = range(5, 32768)
    latest_version = 5

    class DescribedGroupMember(Struct):
        __slots__ = ('member_id', 'group_instance_id', 'client_id', 'client_host', 'member_metadata', 'member_assignment', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', group_instance_id=None, client_id='', client_host='', member_metadata=b'', member_assignment=b''):
            self.member_id = member_id
            self.group_instance_id = group_instance_id
            self.client_id = client_id
            self.client_host = client_host
            self.member_metadata = member_metadata
            self.member_assignment = member_assignment
            self._unknown_tagged_fields = None


    class DescribedGroup(Struct):
        __slots__ = ('error_code', 'group_id', 'group_state', 'protocol_type', 'protocol_data', 'members', 'authorized_operations', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, group_id='', group_state='', protocol_type='', protocol_data='', members=UNSET, authorized_operations=-2147483648):
            self.error_code = error_code
            self.group_id = group_id
            self.group_state = group_state
            self.protocol_type = protocol_type
            self.protocol_data = protocol_data
            self.members = [] if members is UNSET else members
            self.authorized_operations = authorized_operations
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, groups=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is UNSET else groups
        self._unknown_tagged_fields = None


class DescribeLogDirsRequest(Message):
    __slots__ = ('topics', '_unknown_tagged_fields')
    schema_name = 'DescribeLogDirsRequest'
    message_type = 'request'
    api_key = 35
    valid_versions = range(0, 5)
    flexible_versions = range(2, 32768)
    latest_version = 4

    class DescribableLogDirTopic(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET):
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DescribeLogDirsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'results', '_unknown_tagged_fields')
    schema_name = 'DescribeLogDirsResponse'
    message_type = 'response'
    api_key = 35
    valid_versions = range(0, 5)
    flexible_versions = range(2, 32768)
    latest_version = 4

    class DescribeLogDirsPartition(Struct):
        __slots__ = ('partition_index', 'partition_size', 'offset_lag', 'is_future_key', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, partition_size=0, offset_lag=0, is_future_key=False):
            self.partition_index = partition_index
            self.partition_size = partition_size
            self.offset_lag = offset_lag
            self.is_future_key = is_future_key
            self._unknown_tagged_fields = None


    class DescribeLogDirsTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class DescribeLogDirsResult(Struct):
        __slots__ = ('error_code', 'log_dir', 'topics', 'total_bytes', 'usable_bytes', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, log_dir='', topics=UNSET, total_bytes=-1, usable_bytes=-1):
            self.error_code = error_code
            self.log_dir = log_dir
            self.topics = [] if topics is UNSET else topics
            self.total_bytes = total_bytes
            self.usable_bytes = usable_bytes
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class DescribeProducersRequest(Message):
    __slots__ = ('topics', '_unknown_tagged_fields')
    schema_name = 'DescribeProducersRequest'
    message_type = 'request'
    api_key = 61
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class TopicRequest(Struct):
        __slots__ = ('name', 'partition_indexes', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_indexes=UNSET):
            self.name = name
            self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET):
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DescribeProducersResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'DescribeProducersResponse'
    message_type = 'response'
    api_key = 61
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class ProducerState(Struct):
        __slots__ = ('producer_id', 'producer_epoch', 'last_sequence', 'last_timestamp', 'coordinator_epoch', 'current_txn_start_offset', '_unknown_tagged_fields')

        def __init__(self, *, producer_id=0, producer_epoch=0, last_sequence=-1, last_timestamp=-1, coordinator_epoch=0, current_txn_start_offset=-1):
            self.producer_id = producer_id
            self.producer_epoch = producer_epoch
            self.last_sequence = last_sequence
            self.last_timestamp = last_timestamp
            self.coordinator_epoch = coordinator_epoch
            self.current_txn_start_offset = current_txn_start_offset
            self._unknown_tagged_fields = None


    class PartitionResponse(Struct):
        __slots__ = ('partition_index', 'error_code', 'error_message', 'active_producers', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, error_message=None, active_producers=UNSET):
            self.partition_index = partition_index
            self.error_code = error_code
            self.error_message = error_message
            self.active_producers = [] if active_producers is UNSET else active_producers
            self._unknown_tagged_fields = None


    class TopicResponse(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DescribeQuorumRequest(Message):
    __slots__ = ('topics', '_unknown_tagged_fields')
    schema_name = 'DescribeQuorumRequest'
    message_type = 'request'
    api_key = 55
    valid_versions = range(0, 3)
    flexible_versions = range(0, 32768)
    latest_version = 2

    class PartitionData(Struct):
        __slots__ = ('partition_index', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0):
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET):
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class DescribeQuorumResponse(Message):
    __slots__ = ('error_code', 'error_message', 'topics', 'nodes', '_unknown_tagged_fields')
    schema_name = 'DescribeQuorumResponse'
    message_type = 'response'
    api_key = 55
    valid_versions = range(0, 3)
    flexible_versions = range(0, 32768)
    latest_version = 2

    class ReplicaState(Struct):
        __slots__ = ('replica_id', 'replica_directory_id', 'log_end_offset', 'last_fetch_timestamp', 'last_caught_up_timestamp', '_unknown_tagged_fields')

        def __init__(self, *, replica_id=0, replica_directory_id=ZERO_UUID, log_end_offset=0, last_fetch_timestamp=-1, last_caught_up_timestamp=-1):
            self.replica_id = replica_id
            self.replica_directory_id = replica_directory_id
            self.log_end_offset = log_end_offset
            self.last_fetch_timestamp = last_fetch_timestamp
            self.last_caught_up_timestamp = last_caught_up_timestamp
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'error_message', 'leader_id', 'leader_epoch', 'high_watermark', 'current_voters', 'observers', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, error_message='', leader_id=0, leader_epoch=0, high_watermark=0, current_voters=UNSET, observers=UNSET):
            self.partition_index = partition_index
            self.error_code = error_code
            self.error_message = error_message
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.high_watermark = high_watermark
            self.current_voters = [] if current_voters is UNSET else current_voters
            self.observers = [] if observers is UNSET else observers
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class Listener(Struct):
        __slots__ = ('name', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0):
            self.name = name
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    class Node(Struct):
        __slots__ = ('node_id', 'listeners', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, listeners=UNSET):
            self.node_id = node_id
            self.listeners = [] if listeners is UNSET else listeners
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, error_message='', topics=UNSET, nodes=UNSET):
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is UNSET else topics
        self.nodes = [] if nodes is UNSET else nodes
        self._unknown_tagged_fields = None


class DescribeTopicPartitionsRequest(Message):
    __slots__ = ('topics', 'response_partition_limit', 'cursor', '_unknown_tagged_fields')
    schema_name = 'DescribeTopicPartitionsRequest'
    message_type = 'request'
    api_key = 75
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class TopicRequest(Struct):
        __slots__ = ('name', '_unknown_tagged_fields')

        def __init__(self, *, name=''):
            self.name = name
            self._unknown_tagged_fields = None


    class Cursor(Struct):
        __slots__ = ('topic_name', 'partition_index', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, response_partition_limit=2000, cursor=None):
        self.topics = [] if topics is UNSET else topics
        self.response_partition_limit = response_partition_limit
        self.cursor = cursor
        self._unknown_tagged_fields = None


class DescribeTopicPartitionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', 'next_cursor', '_unknown_tagged_fields')
    schema_name = 'DescribeTopicPartitionsResponse'
    message_type = 'response'
    api_key = 75
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class DescribeTopicPartitionsResponsePartition(Struct):
        __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'eligible_leader_replicas', 'last_known_elr', 'offline_replicas', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, partition_index=0, leader_id=0, leader_epoch=-1, replica_nodes=UNSET, isr_nodes=UNSET, eligible_leader_replicas=None, last_known_elr=None, offline_replicas=UNSET):
            self.error_code = error_code
            self.partition_index = partition_index
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.replica_nodes = [] if replica_nodes is UNSET else replica_nodes
            self.isr_nodes = [] if isr_nodes is UNSET else isr_nodes
            self.eligible_leader_replicas = eligible_leader_replicas
            self.last_known_elr = last_known_elr
            self.offline_replicas = [] if offline_replicas is UNSET else offline_replicas
            self._unknown_tagged_fields = None


    class DescribeTopicPartitionsResponseTopic(Struct):
        __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, name='', topic_id=ZERO_UUID, is_internal=False, partitions=UNSET, topic_authorized_operations=-2147483648):
            self.error_code = error_code
            self.name = name
            self.topic_id = topic_id
            self.is_internal = is_internal
            self.partitions = [] if partitions is UNSET else partitions
            self.topic_authorized_operations = topic_authorized_operations
            self._unknown_tagged_fields = None


    class Cursor(Struct):
        __slots__ = ('topic_name', 'partition_index', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET, next_cursor=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.next_cursor = next_cursor
        self._unknown_tagged_fields = None


class DescribeTransactionsRequest(Message):
    __slots__ = ('transactional_ids', '_unknown_tagged_fields')
    schema_name = 'DescribeTransactionsRequest'
    message_type = 'request'
    api_key = 65
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, transactional_ids=UNSET):
        self.transactional_ids = [] if transactional_ids is UNSET else transactional_ids
        self._unknown_tagged_fields = None


class DescribeTransactionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'transaction_states', '_unknown_tagged_fields')
    schema_name = 'DescribeTransactionsResponse'
    message_type = 'response'
    api_key = 65
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class TopicData(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class TransactionState(Struct):
        __slots__ = ('error_code', 'transactional_id', 'transaction_state', 'transaction_timeout_ms', 'transaction_start_time_ms', 'producer_id', 'producer_epoch', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, transactional_id='', transaction_state='', transaction_timeout_ms=0, transaction_start_time_ms=0, producer_id=0, producer_epoch=0, topics=UNSET):
            self.error_code = error_code
            self.transactional_id = transactional_id
            self.transaction_state = transaction_state
            self.transaction_timeout_ms = transaction_timeout_ms
            self.transaction_start_time_ms = transaction_start_time_ms
            self.producer_id = producer_id
            self.producer_epoch = producer_epoch
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, transaction_states=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.transaction_states = [] if transaction_states is UNSET else transaction_states
        self._unknown_tagged_fields = None


class DescribeUserScramCredentialsRequest(Message):
    __slots__ = ('users', '_unknown_tagged_fields')
    schema_name = 'DescribeUserScramCredentialsRequest'
    message_type = 'request'
    api_key = 50
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class UserName(Struct):
        __slots__ = ('name', '_unknown_tagged_fields')

        def __init__(self, *, name=''):
            self.name = name
            self._unknown_tagged_fields = None


    def __init__(self, *, users=UNSET):
        self.users = [] if users is UNSET else users
        self._unknown_tagged_fields = None


class DescribeUserScramCredentialsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'results', '_unknown_tagged_fields')
    schema_name = 'DescribeUserScramCredentialsResponse'
    message_type = 'response'
    api_key = 50
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class CredentialInfo(Struct):
        __slots__ = ('mechanism', 'iterations', '_unknown_tagged_fields')

        def __init__(self, *, mechanism=0, iterations=0):
            self.mechanism = mechanism
            self.iterations = iterations
            self._unknown_tagged_fields = None


    class DescribeUserScramCredentialsResult(Struct):
        __slots__ = ('user', 'error_code', 'error_message', 'credential_infos', '_unknown_tagged_fields')

        def __init__(self, *, user='', error_code=0, error_message='', credential_infos=UNSET):
            self.user = user
            self.error_code = error_code
            self.error_message = error_message
            self.credential_infos = [] if credential_infos is UNSET else credential_infos
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class ElectLeadersRequest(Message):
    __slots__ = ('election_type', 'topic_partitions', 'timeout_ms', '_unknown_tagged_fields')
    schema_name = 'ElectLeadersRequest'
    message_type = 'request'
    api_key = 43
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class TopicPartitions(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, election_type=0, topic_partitions=UNSET, timeout_ms=60000):
        self.election_type = election_type
        self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
        self.timeout_ms = timeout_ms
        self._unknown_tagged_fields = None


class ElectLeadersResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'replica_election_results', '_unknown_tagged_fields')
    schema_name = 'ElectLeadersResponse'
    message_type = 'response'
    api_key = 43
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    class PartitionResult(Struct):
        __slots__ = ('partition_id', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, partition_id=0, error_code=0, error_message=''):
            self.partition_id = partition_id
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    class ReplicaElectionResult(Struct):
        __slots__ = ('topic', 'partition_result', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partition_result=UNSET):
            self.topic = topic
            self.partition_result = [] if partition_result is UNSET else partition_result
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, replica_election_results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.replica_election_results = [] if replica_election_results is UNSET else replica_election_results
        self._unknown_tagged_fields = None


class EndQuorumEpochRequest(Message):
    __slots__ = ('cluster_id', 'topics', 'leader_endpoints', '_unknown_tagged_fields')
    schema_name = 'EndQuorumEpochRequest'
    message_type = 'request'
    api_key = 54
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class ReplicaInfo(Struct):
        __slots__ = ('candidate_id', 'candidate_directory_id', '_unknown_tagged_fields')

        def __init__(self, *, candidate_id=0, candidate_directory_id=ZERO_UUID):
            self.candidate_id = candidate_id
            self.candidate_directory_id = candidate_directory_id
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition_index', 'leader_id', 'leader_epoch', 'preferred_successors', 'preferred_candidates', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, leader_id=0, leader_epoch=0, preferred_successors=UNSET, preferred_candidates=UNSET):
            self.partition_index = partition_index
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.preferred_successors = [] if preferred_successors is UNSET else preferred_successors
            self.preferred_candidates = [] if preferred_candidates is UNSET else preferred_candidates
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class LeaderEndpoint(Struct):
        __slots__ = ('name', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0):
            self.name = name
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id=None, topics=UNSET, leader_endpoints=UNSET):
        self.cluster_id = cluster_id
        self.topics = [] if topics is UNSET else topics
        self.leader_endpoints = [] if leader_endpoints is UNSET else leader_endpoints
        self._unknown_tagged_fields = None


class EndQuorumEpochResponse(Message):
    __slots__ = ('error_code', 'topics', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'EndQuorumEpochResponse'
    message_type = 'response'
    api_key = 54
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, leader_id=0, leader_epoch=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0):
            self.node_id = node_id
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, topics=UNSET, node_endpoints=UNSET):
        self.error_code = error_code
        self.topics = [] if topics is UNSET else topics
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class EndTxnRequest(Message):
    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'committed', '_unknown_tagged_fields')
    schema_name = 'EndTxnRequest'
    message_type = 'request'
    api_key = 26
    valid_versions = range(0, 6)
    flexible_versions = range(3, 32768)
    latest_version = 4

    def __init__(self, *, transactional_id='', producer_id=0, producer_epoch=0, committed=False):
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.committed = committed
        self._unknown_tagged_fields = None


class EndTxnResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'producer_id', 'producer_epoch', '_unknown_tagged_fields')
    schema_name = 'EndTxnResponse'
    message_type = 'response'
    api_key = 26
    valid_versions = range(0, 6)
    flexible_versions = range(3, 32768)
    latest_version = 5

    def __init__(self, *, throttle_time_ms=0, error_code=0, producer_id=-1, producer_epoch=-1):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self._unknown_tagged_fields = None


class EnvelopeRequest(Message):
    __slots__ = ('request_data', 'request_principal', 'client_host_address', '_unknown_tagged_fields')
    schema_name = 'EnvelopeRequest'
    message_type = 'request'
    api_key = 58
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, request_data=b'', request_principal=b'', client_host_address=b''):
        self.request_data = request_data
        self.request_principal = request_principal
        self.client_host_address = client_host_address
        self._unknown_tagged_fields = None


class EnvelopeResponse(Message):
    __slots__ = ('response_data', 'error_code', '_unknown_tagged_fields')
    schema_name = 'EnvelopeResponse'
    message_type = 'response'
    api_key = 58
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, response_data=None, error_code=0):
        self.response_data = response_data
        self.error_code = error_code
        self._unknown_tagged_fields = None


class ExpireDelegationTokenRequest(Message):
    __slots__ = ('hmac', 'expiry_time_period_ms', '_unknown_tagged_fields')
    schema_name = 'ExpireDelegationTokenRequest'
    message_type = 'request'
    api_key = 40
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, hmac=b'', expiry_time_period_ms=0):
        self.hmac = hmac
        self.expiry_time_period_ms = expiry_time_period_ms
        self._unknown_tagged_fields = None


class ExpireDelegationTokenResponse(Message):
    __slots__ = ('error_code', 'expiry_timestamp_ms', 'throttle_time_ms', '_unknown_tagged_fields')
    schema_name = 'ExpireDelegationTokenResponse'
    message_type = 'response'
    api_key = 40
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, error_code=0, expiry_timestamp_ms=0, throttle_time_ms=0):
        self.error_code = error_code
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.throttle_time_ms = throttle_time_ms
        self._unknown_tagged_fields = None


class FetchRequest(Message):
    __slots__ = ('cluster_id', 'replica_id', 'replica_state', 'max_wait_ms', 'min_bytes', 'max_bytes', 'isolation_level', 'session_id', 'session_epoch', 'topics', 'forgotten_topics_data', 'rack_id', '_unknown_tagged_fields')
    schema_name = 'FetchRequest'
    message_type = 'request'
    api_key = 1
    valid_versions = range(0, 18)
    flexible_versions = range(12, 32768)
    latest_version = 17

    class ReplicaState(Struct):
        __slots__ = ('replica_id', 'replica_epoch', '_unknown_tagged_fields')

        def __init__(self, *, replica_id=-1, replica_epoch=-1):
            self.replica_id = replica_id
            self.replica_epoch = replica_epoch
            self._unknown_tagged_fields = None


    class FetchPartition(Struct):
        __slots__ = ('partition', 'current_leader_epoch', 'fetch_offset', 'last_fetched_epoch', 'log_start_offset', 'partition_max_bytes', 'replica_directory_id', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, current_leader_epoch=-1, fetch_offset=0, last_fetched_epoch=-1, log_start_offset=-1, partition_max_bytes=0, replica_directory_id=ZERO_UUID):
            self.partition = partition
            self.current_leader_epoch = current_leader_epoch
            self.fetch_offset = fetch_offset
            self.last_fetched_epoch = last_fetched_epoch
            self.log_start_offset = log_start_offset
            self.partition_max_bytes = partition_max_bytes
            self.replica_directory_id = replica_directory_id
            self._unknown_tagged_fields = None


    class FetchTopic(Struct):
        __slots__ = ('topic', 'topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', topic_id=ZERO_UUID, partitions=UNSET):
            self.topic = topic
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class ForgottenTopic(Struct):
        __slots__ = ('topic', 'topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', topic_id=ZERO_UUID, partitions=UNSET):
            self.topic = topic
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id=None, replica_id=-1, replica_state=UNSET, max_wait_ms=0, min_bytes=0, max_bytes=2147483647, isolation_level=0, session_id=0, session_epoch=-1, topics=UNSET, forgotten_topics_data=UNSET, rack_id=''):
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.replica_state = FetchRequest.ReplicaState() if replica_state is UNSET else replica_state
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.isolation_level = isolation_level
        self.session_id = session_id
        self.session_epoch = session_epoch
        self.topics = [] if topics is UNSET else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is UNSET else forgotten_topics_data
        self.rack_id = rack_id
        self._unknown_tagged_fields = None


class FetchResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'session_id', 'responses', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'FetchResponse'
    message_type = 'response'
    api_key = 1
    valid_versions = range(0, 18)
    flexible_versions = range(12, 32768)
    latest_version = 17

    class EpochEndOffset(Struct):
        __slots__ = ('epoch', 'end_offset', '_unknown_tagged_fields')

        def __init__(self, *, epoch=-1, end_offset=-1):
            self.epoch = epoch
            self.end_offset = end_offset
            self._unknown_tagged_fields = None


    class LeaderIdAndEpoch(Struct):
        __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, leader_id=-1, leader_epoch=-1):
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class SnapshotId(Struct):
        __slots__ = ('end_offset', 'epoch', '_unknown_tagged_fields')

        def __init__(self, *, end_offset=-1, epoch=-1):
            self.end_offset = end_offset
            self.epoch = epoch
            self._unknown_tagged_fields = None


    class AbortedTransaction(Struct):
        __slots__ = ('producer_id', 'first_offset', '_unknown_tagged_fields')

        def __init__(self, *, producer_id=0, first_offset=0):
            self.producer_id = producer_id
            self.first_offset = first_offset
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'high_watermark', 'last_stable_offset', 'log_start_offset', 'diverging_epoch', 'current_leader', 'snapshot_id', 'aborted_transactions', 'preferred_read_replica', 'records', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, high_watermark=0, last_stable_offset=-1, log_start_offset=-1, diverging_epoch=UNSET, current_leader=UNSET, snapshot_id=UNSET, aborted_transactions=UNSET, preferred_read_replica=-1, records=None):
            self.partition_index = partition_index
            self.error_code = error_code
            self.high_watermark = high_watermark
            self.last_stable_offset = last_stable_offset
            self.log_start_offset = log_start_offset
            self.diverging_epoch = FetchResponse.EpochEndOffset() if diverging_epoch is UNSET else diverging_epoch
            self.current_leader = FetchResponse.LeaderIdAndEpoch() if current_leader is UNSET else current_leader
            self.snapshot_id = FetchResponse.SnapshotId() if snapshot_id is UNSET else snapshot_id
            self.aborted_transactions = [] if aborted_transactions is UNSET else aborted_transactions
            self.preferred_read_replica = preferred_read_replica
            self.records = records
            self._unknown_tagged_fields = None


    class FetchableTopicResponse(Struct):
        __slots__ = ('topic', 'topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', topic_id=ZERO_UUID, partitions=UNSET):
            self.topic = topic
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0, rack=None):
            self.node_id = node_id
            self.host = host
            self.port = port
            self.rack = rack
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, session_id=0, responses=UNSET, node_endpoints=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.session_id = session_id
        self.responses = [] if responses is UNSET else responses
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class FetchSnapshotRequest(Message):
    __slots__ = ('cluster_id', 'replica_id', 'max_bytes', 'topics', '_unknown_tagged_fields')
    schema_name = 'FetchSnapshotRequest'
    message_type = 'request'
    api_key = 59
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class SnapshotId(Struct):
        __slots__ = ('end_offset', 'epoch', '_unknown_tagged_fields')

        def __init__(self, *, end_offset=0, epoch=0):
            self.end_offset = end_offset
            self.epoch = epoch
            self._unknown_tagged_fields = None


    class PartitionSnapshot(Struct):
        __slots__ = ('partition', 'current_leader_epoch', 'snapshot_id', 'position', 'replica_directory_id', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, current_leader_epoch=0, snapshot_id=UNSET, position=0, replica_directory_id=ZERO_UUID):
            self.partition = partition
            self.current_leader_epoch = current_leader_epoch
            self.snapshot_id = FetchSnapshotRequest.SnapshotId() if snapshot_id is UNSET else snapshot_id
            self.position = position
            self.replica_directory_id = replica_directory_id
            self._unknown_tagged_fields = None


    class TopicSnapshot(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id=None, replica_id=-1, max_bytes=2147483647, topics=UNSET):
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.max_bytes = max_bytes
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class FetchSnapshotResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'topics', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'FetchSnapshotResponse'
    message_type = 'response'
    api_key = 59
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class SnapshotId(Struct):
        __slots__ = ('end_offset', 'epoch', '_unknown_tagged_fields')

        def __init__(self, *, end_offset=0, epoch=0):
            self.end_offset = end_offset
            self.epoch = epoch
            self._unknown_tagged_fields = None


    class LeaderIdAndEpoch(Struct):
        __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, leader_id=0, leader_epoch=0):
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class PartitionSnapshot(Struct):
        __slots__ = ('index', 'error_code', 'snapshot_id', 'current_leader', 'size', 'position', 'unaligned_records', '_unknown_tagged_fields')

        def __init__(self, *, index=0, error_code=0, snapshot_id=UNSET, current_leader=UNSET, size=0, position=0, unaligned_records=None):
            self.index = index
            self.error_code = error_code
            self.snapshot_id = FetchSnapshotResponse.SnapshotId() if snapshot_id is UNSET else snapshot_id
            self.current_leader = FetchSnapshotResponse.LeaderIdAndEpoch() if current_leader is UNSET else current_leader
            self.size = size
            self.position = position
            self.unaligned_records = unaligned_records
            self._unknown_tagged_fields = None


    class TopicSnapshot(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0):
            self.node_id = node_id
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, topics=UNSET, node_endpoints=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is UNSET else topics
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class FindCoordinatorRequest(Message):
    __slots__ = ('key', 'key_type', 'coordinator_keys', '_unknown_tagged_fields')
    schema_name = 'FindCoordinatorRequest'
    message_type = 'request'
    api_key = 10
    valid_versions = range(0, 7)
    flexible_versions = range(3, 32768)
    latest_version = 6

    def __init__(self, *, key='', key_type=0, coordinator_keys=UNSET):
        self.key = key
        self.key_type = key_type
        self.coordinator_keys = [] if coordinator_keys is UNSET else coordinator_keys
        self._unknown_tagged_fields = None


class FindCoordinatorResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'node_id', 'host', 'port', 'coordinators', '_unknown_tagged_fields')
    schema_name = 'FindCoordinatorResponse'
    message_type = 'response'
    api_key = 10
    valid_versions = range(0, 7)
    flexible_versions = range(3, 32768)
    latest_version = 6

    class Coordinator(Struct):
        __slots__ = ('key', 'node_id', 'host', 'port', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, key='', node_id=0, host='', port=0, error_code=0, error_message=''):
            self.key = key
            self.node_id = node_id
            self.host = host
            self.port = port
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', node_id=0, host='', port=0, coordinators=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.node_id = node_id
        self.host = host
        self.port = port
        self.coordinators = [] if coordinators is UNSET else coordinators
        self._unknown_tagged_fields = None


class GetTelemetrySubscriptionsRequest(Message):
    __slots__ = ('client_instance_id', '_unknown_tagged_fields')
    schema_name = 'GetTelemetrySubscriptionsRequest'
    message_type = 'request'
    api_key = 71
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, client_instance_id=ZERO_UUID):
        self.client_instance_id = client_instance_id
        self._unknown_tagged_fields = None


class GetTelemetrySubscriptionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'client_instance_id', 'subscription_id', 'accepted_compression_types', 'push_interval_ms', 'telemetry_max_bytes', 'delta_temporality', 'requested_metrics', '_unknown_tagged_fields')
    schema_name = 'GetTelemetrySubscriptionsResponse'
    message_type = 'response'
    api_key = 71
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, client_instance_id=ZERO_UUID, subscription_id=0, accepted_compression_types=UNSET, push_interval_ms=0, telemetry_max_bytes=0, delta_temporality=False, requested_metrics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.client_instance_id = client_instance_id
        self.subscription_id = subscription_id
        self.accepted_compression_types = [] if accepted_compression_types is UNSET else accepted_compression_types
        self.push_interval_ms = push_interval_ms
        self.telemetry_max_bytes = telemetry_max_bytes
        self.delta_temporality = delta_temporality
        self.requested_metrics = [] if requested_metrics is UNSET else requested_metrics
        self._unknown_tagged_fields = None


class HeartbeatRequest(Message):
    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id', '_unknown_tagged_fields')
    schema_name = 'HeartbeatRequest'
    message_type = 'request'
    api_key = 12
    valid_versions = range(0, 5)
    flexible_versions = range(4, 32768)
    latest_version = 4

    def __init__(self, *, group_id='', generation_id=0, member_id='', group_instance_id=None):
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self._unknown_tagged_fields = None


class HeartbeatResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', '_unknown_tagged_fields')
    schema_name = 'HeartbeatResponse'
    message_type = 'response'
    api_key = 12
    valid_versions = range(0, 5)
    flexible_versions = range(4, 32768)
    latest_version = 4

    def __init__(self, *, throttle_time_ms=0, error_code=0):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self._unknown_tagged_fields = None


class IncrementalAlterConfigsRequest(Message):
    __slots__ = ('resources', 'validate_only', '_unknown_tagged_fields')
    schema_name = 'IncrementalAlterConfigsRequest'
    message_type = 'request'
    api_key = 44
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class AlterableConfig(Struct):
        __slots__ = ('name', 'config_operation', 'value', '_unknown_tagged_fields')

        def __init__(self, *, name='', config_operation=0, value=''):
            self.name = name
            self.config_operation = config_operation
            self.value = value
            self._unknown_tagged_fields = None


    class AlterConfigsResource(Struct):
        __slots__ = ('resource_type', 'resource_name', 'configs', '_unknown_tagged_fields')

        def __init__(self, *, resource_type=0, resource_name='', configs=UNSET):
            self.resource_type = resource_type
            self.resource_name = resource_name
            self.configs = [] if configs is UNSET else configs
            self._unknown_tagged_fields = None


    def __init__(self, *, resources=UNSET, validate_only=False):
        self.resources = [] if resources is UNSET else resources
        self.validate_only = validate_only
        self._unknown_tagged_fields = None


class IncrementalAlterConfigsResponse(Message):
    __slots__ = ('throttle_time_ms', 'responses', '_unknown_tagged_fields')
    schema_name = 'IncrementalAlterConfigsResponse'
    message_type = 'response'
    api_key = 44
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class AlterConfigsResourceResponse(Struct):
        __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name=''):
            self.error_code = error_code
            self.error_message = error_message
            self.resource_type = resource_type
            self.resource_name = resource_name
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, responses=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is UNSET else responses
        self._unknown_tagged_fields = None


class InitProducerIdRequest(Message):
    __slots__ = ('transactional_id', 'transaction_timeout_ms', 'producer_id', 'producer_epoch', '_unknown_tagged_fields')
    schema_name = 'InitProducerIdRequest'
    message_type = 'request'
    api_key = 22
    valid_versions = range(0, 6)
    flexible_versions = range(2, 32768)
    latest_version = 5

    def __init__(self, *, transactional_id='', transaction_timeout_ms=0, producer_id=-1, producer_epoch=-1):
        self.transactional_id = transactional_id
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self._unknown_tagged_fields = None


class InitProducerIdResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'producer_id', 'producer_epoch', '_unknown_tagged_fields')
    schema_name = 'InitProducerIdResponse'
    message_type = 'response'
    api_key = 22
    valid_versions = range(0, 6)
    flexible_versions = range(2, 32768)
    latest_version = 5

    def __init__(self, *, throttle_time_ms=0, error_code=0, producer_id=-1, producer_epoch=0):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self._unknown_tagged_fields = None


class InitializeShareGroupStateRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'InitializeShareGroupStateRequest'
    message_type = 'request'
    api_key = 83
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = None

    class PartitionData(Struct):
        __slots__ = ('partition', 'state_epoch', 'start_offset', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, state_epoch=0, start_offset=0):
            self.partition = partition
            self.state_epoch = state_epoch
            self.start_offset = start_offset
            self._unknown_tagged_fields = None


    class InitializeStateData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class InitializeShareGroupStateResponse(Message):
    __slots__ = ('results', '_unknown_tagged_fields')
    schema_name = 'InitializeShareGroupStateResponse'
    message_type = 'response'
    api_key = 83
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class PartitionResult(Struct):
        __slots__ = ('partition', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, error_code=0, error_message=None):
            self.partition = partition
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    class InitializeStateResult(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, results=UNSET):
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class JoinGroupRequest(Message):
    __slots__ = ('group_id', 'session_timeout_ms', 'rebalance_timeout_ms', 'member_id', 'group_instance_id', 'protocol_type', 'protocols', 'reason', '_unknown_tagged_fields')
    schema_name = 'JoinGroupRequest'
    message_type = 'request'
    api_key = 11
    valid_versions = range(0, 10)
    flexible_versions = range(6, 32768)
    latest_version = 9

    class JoinGroupRequestProtocol(Struct):
        __slots__ = ('name', 'metadata', '_unknown_tagged_fields')

        def __init__(self, *, name='', metadata=b''):
            self.name = name
            self.metadata = metadata
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', session_timeout_ms=0, rebalance_timeout_ms=-1, member_id='', group_instance_id=None, protocol_type='', protocols=UNSET, reason=None):
        self.group_id = group_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocols = [] if protocols is UNSET else protocols
        self.reason = reason
        self._unknown_tagged_fields = None


class JoinGroupResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'generation_id', 'protocol_type', 'protocol_name', 'leader', 'skip_assignment', 'member_id', 'members', '_unknown_tagged_fields')
    schema_name = 'JoinGroupResponse'
    message_type = 'response'
    api_key = 11
    valid_versions = range(0, 10)
    flexible_versions = range(6, 32768)
    latest_version = 9

    class JoinGroupResponseMember(Struct):
        __slots__ = ('member_id', 'group_instance_id', 'metadata', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', group_instance_id=None, metadata=b''):
            self.member_id = member_id
            self.group_instance_id = group_instance_id
            self.metadata = metadata
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, generation_id=-1, protocol_type=None, protocol_name='', leader='', skip_assignment=False, member_id='', members=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.generation_id = generation_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader = leader
        self.skip_assignment = skip_assignment
        self.member_id = member_id
        self.members = [] if members is UNSET else members
        self._unknown_tagged_fields = None


class KRaftVersionRecord(Message):
    __slots__ = ('version', 'k_raft_version', '_unknown_tagged_fields')
    schema_name = 'KRaftVersionRecord'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, version=0, k_raft_version=0):
        self.version = version
        self.k_raft_version = k_raft_version
        self._unknown_tagged_fields = None


class LeaderAndIsrRequest(Message):
    __slots__ = ('controller_id', 'is_k_raft_controller', 'controller_epoch', 'broker_epoch', 'type', 'ungrouped_partition_states', 'topic_states', 'live_leaders', '_unknown_tagged_fields')
    schema_name = 'LeaderAndIsrRequest'
    message_type = 'request'
    api_key = 4
    valid_versions = range(0, 8)
    flexible_versions = range(4, 32768)
    latest_version = 7

    class LeaderAndIsrPartitionState(Struct):
        __slots__ = ('topic_name', 'partition_index', 'controller_epoch', 'leader', 'leader_epoch', 'isr', 'partition_epoch', 'replicas', 'adding_replicas', 'removing_replicas', 'is_new', 'leader_recovery_state', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0, controller_epoch=0, leader=0, leader_epoch=0, isr=UNSET, partition_epoch=0, replicas=UNSET, adding_replicas=UNSET, removing_replicas=UNSET, is_new=False, leader_recovery_state=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self.controller_epoch = controller_epoch
            self.leader = leader
            self.leader_epoch = leader_epoch
            self.isr = [] if isr is UNSET else isr
            self.partition_epoch = partition_epoch
            self.replicas = [] if replicas is UNSET else replicas
            self.adding_replicas = [] if adding_replicas is UNSET else adding_replicas
            self.removing_replicas = [] if removing_replicas is UNSET else removing_replicas
            self.is_new = is_new
            self.leader_recovery_state = leader_recovery_state
            self._unknown_tagged_fields = None


    class LeaderAndIsrTopicState(Struct):
        __slots__ = ('topic_name', 'topic_id', 'partition_states', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', topic_id=ZERO_UUID, partition_states=UNSET):
            self.topic_name = topic_name
            self.topic_id = topic_id
            self.partition_states = [] if partition_states is UNSET else partition_states
            self._unknown_tagged_fields = None


    class LeaderAndIsrLiveLeader(Struct):
        __slots__ = ('broker_id', 'host_name', 'port', '_unknown_tagged_fields')

        def __init__(self, *, broker_id=0, host_name='', port=0):
            self.broker_id = broker_id
            self.host_name = host_name
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, controller_id=0, is_k_raft_controller=False, controller_epoch=0, broker_epoch=-1, type=0, ungrouped_partition_states=UNSET, topic_states=UNSET, live_leaders=UNSET):
        self.controller_id = controller_id
        self.is_k_raft_controller = is_k_raft_controller
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.type = type
        self.ungrouped_partition_states = [] if ungrouped_partition_states is UNSET else ungrouped_partition_states
        self.topic_states = [] if topic_states is UNSET else topic_states
        self.live_leaders = [] if live_leaders is UNSET else live_leaders
        self._unknown_tagged_fields = None


class LeaderAndIsrResponse(Message):
    __slots__ = ('error_code', 'partition_errors', 'topics', '_unknown_tagged_fields')
    schema_name = 'LeaderAndIsrResponse'
    message_type = 'response'
    api_key = 4
    valid_versions = range(0, 8)
    flexible_versions = range(4, 32768)
    latest_version = 7

    class LeaderAndIsrPartitionError(Struct):
        __slots__ = ('topic_name', 'partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0, error_code=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class LeaderAndIsrTopicError(Struct):
        __slots__ = ('topic_id', 'partition_errors', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partition_errors=UNSET):
            self.topic_id = topic_id
            self.partition_errors = [] if partition_errors is UNSET else partition_errors
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, partition_errors=UNSET, topics=UNSET):
        self.error_code = error_code
        self.partition_errors = [] if partition_errors is UNSET else partition_errors
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class LeaderChangeMessage(Message):
    __slots__ = ('version', 'leader_id', 'voters', 'granting_voters', '_unknown_tagged_fields')
    schema_name = 'LeaderChangeMessage'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class Voter(Struct):
        __slots__ = ('voter_id', 'voter_directory_id', '_unknown_tagged_fields')

        def __init__(self, *, voter_id=0, voter_directory_id=ZERO_UUID):
            self.voter_id = voter_id
            self.voter_directory_id = voter_directory_id
            self._unknown_tagged_fields = None


    def __init__(self, *, version=0, leader_id=0, voters=UNSET, granting_voters=UNSET):
        self.version = version
        self.leader_id = leader_id
        self.voters = [] if voters is UNSET else voters
        self.granting_voters = [] if granting_voters is UNSET else granting_voters
        self._unknown_tagged_fields = None


class LeaveGroupRequest(Message):
    __slots__ = ('group_id', 'member_id', 'members', '_unknown_tagged_fields')
    schema_name = 'LeaveGroupRequest'
    message_type = 'request'
    api_key = 13
    valid_versions = range(0, 6)
    flexible_versions = range(4, 32768)
    latest_version = 5

    class MemberIdentity(Struct):
        __slots__ = ('member_id', 'group_instance_id', 'reason', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', group_instance_id=None, reason=None):
            self.member_id = member_id
            self.group_instance_id = group_instance_id
            self.reason = reason
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', member_id='', members=UNSET):
        self.group_id = group_id
        self.member_id = member_id
        self.members = [] if members is UNSET else members
        self._unknown_tagged_fields = None


class LeaveGroupResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'members', '_unknown_tagged_fields')
    schema_name = 'LeaveGroupResponse'
    message_type = 'response'
    api_key = 13
    valid_versions = range(0, 6)
    flexible_versions = range(4, 32768)
    latest_version = 5

    class MemberResponse(Struct):
        __slots__ = ('member_id', 'group_instance_id', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', group_instance_id='', error_code=0):
            self.member_id = member_id
            self.group_instance_id = group_instance_id
            self.error_code = error_code
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, members=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.members = [] if members is UNSET else members
        self._unknown_tagged_fields = None


class ListClientMetricsResourcesRequest(Message):
    __slots__ = ('_unknown_tagged_fields',)
    schema_name = 'ListClientMetricsResourcesRequest'
    message_type = 'request'
    api_key = 74
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self):
        self._unknown_tagged_fields = None


class ListClientMetricsResourcesResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'client_metrics_resources', '_unknown_tagged_fields')
    schema_name = 'ListClientMetricsResourcesResponse'
    message_type = 'response'
    api_key = 74
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class ClientMetricsResource(Struct):
        __slots__ = ('name', '_unknown_tagged_fields')

        def __init__(self, *, name=''):
            self.name = name
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, client_metrics_resources=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.client_metrics_resources = [] if client_metrics_resources is UNSET else client_metrics_resources
        self._unknown_tagged_fields = None


class ListGroupsRequest(Message):
    __slots__ = ('states_filter', 'types_filter', '_unknown_tagged_fields')
    schema_name = 'ListGroupsRequest'
    message_type = 'request'
    api_key = 16
    valid_versions = range(0, 6)
    flexible_versions = range(3, 32768)
    latest_version = 5

    def __init__(self, *, states_filter=UNSET, types_filter=UNSET):
        self.states_filter = [] if states_filter is UNSET else states_filter
        self.types_filter = [] if types_filter is UNSET else types_filter
        self._unknown_tagged_fields = None


class ListGroupsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'groups', '_unknown_tagged_fields')
    schema_name = 'ListGroupsResponse'
    message_type = 'response'
    api_key = 16
    valid_versions = range(0, 6)
    flexible_versions = range(3, 32768)
    latest_version = 5

    class ListedGroup(Struct):
        __slots__ = ('group_id', 'protocol_type', 'group_state', 'group_type', '_unknown_tagged_fields')

        def __init__(self, *, group_id='', protocol_type='', group_state='', group_type=''):
            self.group_id = group_id
            self.protocol_type = protocol_type
            self.group_state = group_state
            self.group_type = group_type
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, groups=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.groups = [] if groups is UNSET else groups
        self._unknown_tagged_fields = None


class ListOffsetsRequest(Message):
    __slots__ = ('replica_id', 'isolation_level', 'topics', 'timeout_ms', '_unknown_tagged_fields')
    schema_name = 'ListOffsetsRequest'
    message_type = 'request'
    api_key = 2
    valid_versions = range(0, 11)
    flexible_versions = range(6, 32768)
    latest_version = 10

    class ListOffsetsPartition(Struct):
        __slots__ = ('partition_index', 'current_leader_epoch', 'timestamp', 'max_num_offsets', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, current_leader_epoch=-1, timestamp=0, max_num_offsets=1):
            self.partition_index = partition_index
            self.current_leader_epoch = current_leader_epoch
            self.timestamp = timestamp
            self.max_num_offsets = max_num_offsets
            self._unknown_tagged_fields = None


    class ListOffsetsTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, replica_id=0, isolation_level=0, topics=UNSET, timeout_ms=0):
        self.replica_id = replica_id
        self.isolation_level = isolation_level
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self._unknown_tagged_fields = None


class ListOffsetsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'ListOffsetsResponse'
    message_type = 'response'
    api_key = 2
    valid_versions = range(0, 11)
    flexible_versions = range(6, 32768)
    latest_version = 10

    class ListOffsetsPartitionResponse(Struct):
        __slots__ = ('partition_index', 'error_code', 'old_style_offsets', 'timestamp', 'offset', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, old_style_offsets=UNSET, timestamp=-1, offset=-1, leader_epoch=-1):
            self.partition_index = partition_index
            self.error_code = error_code
            self.old_style_offsets = [] if old_style_offsets is UNSET else old_style_offsets
            self.timestamp = timestamp
            self.offset = offset
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class ListOffsetsTopicResponse(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class ListPartitionReassignmentsRequest(Message):
    __slots__ = ('timeout_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'ListPartitionReassignmentsRequest'
    message_type = 'request'
    api_key = 46
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class ListPartitionReassignmentsTopics(Struct):
        __slots__ = ('name', 'partition_indexes', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_indexes=UNSET):
            self.name = name
            self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
            self._unknown_tagged_fields = None


    def __init__(self, *, timeout_ms=60000, topics=None):
        self.timeout_ms = timeout_ms
        self.topics = topics
        self._unknown_tagged_fields = None


class ListPartitionReassignmentsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'topics', '_unknown_tagged_fields')
    schema_name = 'ListPartitionReassignmentsResponse'
    message_type = 'response'
    api_key = 46
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class OngoingPartitionReassignment(Struct):
        __slots__ = ('partition_index', 'replicas', 'adding_replicas', 'removing_replicas', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, replicas=UNSET, adding_replicas=UNSET, removing_replicas=UNSET):
            self.partition_index = partition_index
            self.replicas = [] if replicas is UNSET else replicas
            self.adding_replicas = [] if adding_replicas is UNSET else adding_replicas
            self.removing_replicas = [] if removing_replicas is UNSET else removing_replicas
            self._unknown_tagged_fields = None


    class OngoingTopicReassignment(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class ListTransactionsRequest(Message):
    __slots__ = ('state_filters', 'producer_id_filters', 'duration_filter', '_unknown_tagged_fields')
    schema_name = 'ListTransactionsRequest'
    message_type = 'request'
    api_key = 66
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    def __init__(self, *, state_filters=UNSET, producer_id_filters=UNSET, duration_filter=-1):
        self.state_filters = [] if state_filters is UNSET else state_filters
        self.producer_id_filters = [] if producer_id_filters is UNSET else producer_id_filters
        self.duration_filter = duration_filter
        self._unknown_tagged_fields = None


class ListTransactionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'unknown_state_filters', 'transaction_states', '_unknown_tagged_fields')
    schema_name = 'ListTransactionsResponse'
    message_type = 'response'
    api_key = 66
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class TransactionState(Struct):
        __slots__ = ('transactional_id', 'producer_id', 'transaction_state', '_unknown_tagged_fields')

        def __init__(self, *, transactional_id='', producer_id=0, transaction_state=''):
            self.transactional_id = transactional_id
            self.producer_id = producer_id
            self.transaction_state = transaction_state
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, unknown_state_filters=UNSET, transaction_states=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_state_filters = [] if unknown_state_filters is UNSET else unknown_state_filters
        self.transaction_states = [] if transaction_states is UNSET else transaction_states
        self._unknown_tagged_fields = None


class MetadataRequest(Message):
    __slots__ = ('topics', 'allow_auto_topic_creation', 'include_cluster_authorized_operations', 'include_topic_authorized_operations', '_unknown_tagged_fields')
    schema_name = 'MetadataRequest'
    message_type = 'request'
    api_key = 3
    valid_versions = range(0, 13)
    flexible_versions = range(9, 32768)
    latest_version = 12

    class MetadataRequestTopic(Struct):
        __slots__ = ('topic_id', 'name', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, name=''):
            self.topic_id = topic_id
            self.name = name
            self._unknown_tagged_fields = None


    def __init__(self, *, topics=UNSET, allow_auto_topic_creation=True, include_cluster_authorized_operations=False, include_topic_authorized_operations=False):
        self.topics = [] if topics is UNSET else topics
        self.allow_auto_topic_creation = allow_auto_topic_creation
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.include_topic_authorized_operations = include_topic_authorized_operations
        self._unknown_tagged_fields = None


class MetadataResponse(Message):
    __slots__ = ('throttle_time_ms', 'brokers', 'cluster_id', 'controller_id', 'topics', 'cluster_authorized_operations', '_unknown_tagged_fields')
    schema_name = 'MetadataResponse'
    message_type = 'response'
    api_key = 3
    valid_versions = range(0, 13)
    flexible_versions = range(9, 32768)
    latest_version = 12

    class MetadataResponseBroker(Struct):
        __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0, rack=None):
            self.node_id = node_id
            self.host = host
            self.port = port
            self.rack = rack
            self._unknown_tagged_fields = None


    class MetadataResponsePartition(Struct):
        __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'offline_replicas', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, partition_index=0, leader_id=0, leader_epoch=-1, replica_nodes=UNSET, isr_nodes=UNSET, offline_replicas=UNSET):
            self.error_code = error_code
            self.partition_index = partition_index
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.replica_nodes = [] if replica_nodes is UNSET else replica_nodes
            self.isr_nodes = [] if isr_nodes is UNSET else isr_nodes
            self.offline_replicas = [] if offline_replicas is UNSET else offline_replicas
            self._unknown_tagged_fields = None


    class MetadataResponseTopic(Struct):
        __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, name='', topic_id=ZERO_UUID, is_internal=False, partitions=UNSET, topic_authorized_operations=-2147483648):
            self.error_code = error_code
            self.name = name
            self.topic_id = topic_id
            self.is_internal = is_internal
            self.partitions = [] if partitions is UNSET else partitions
            self.topic_authorized_operations = topic_authorized_operations
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, brokers=UNSET, cluster_id=None, controller_id=-1, topics=UNSET, cluster_authorized_operations=-2147483648):
        self.throttle_time_ms = throttle_time_ms
        self.brokers = [] if brokers is UNSET else brokers
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.topics = [] if topics is UNSET else topics
        self.cluster_authorized_operations = cluster_authorized_operations
        self._unknown_tagged_fields = None


class OffsetCommitRequest(Message):
    __slots__ = ('group_id', 'generation_id_or_member_epoch', 'member_id', 'group_instance_id', 'retention_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'OffsetCommitRequest'
    message_type = 'request'
    api_key = 8
    valid_versions = range(0, 10)
    flexible_versions = range(8, 32768)
    latest_version = 9

    class OffsetCommitRequestPartition(Struct):
        __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'commit_timestamp', 'committed_metadata', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, commit_timestamp=-1, committed_metadata=''):
            self.partition_index = partition_index
            self.committed_offset = committed_offset
            self.committed_leader_epoch = committed_leader_epoch
            self.commit_timestamp = commit_timestamp
            self.committed_metadata = committed_metadata
            self._unknown_tagged_fields = None


    class OffsetCommitRequestTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', generation_id_or_member_epoch=-1, member_id='', group_instance_id=None, retention_time_ms=-1, topics=UNSET):
        self.group_id = group_id
        self.generation_id_or_member_epoch = generation_id_or_member_epoch
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.retention_time_ms = retention_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class OffsetCommitResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'OffsetCommitResponse'
    message_type = 'response'
    api_key = 8
    valid_versions = range(0, 10)
    flexible_versions = range(8, 32768)
    latest_version = 9

    class OffsetCommitResponsePartition(Struct):
        __slots__ = ('partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class OffsetCommitResponseTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class OffsetDeleteRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'OffsetDeleteRequest'
    message_type = 'request'
    api_key = 47
    valid_versions = range(0, 1)
    flexible_versions = range(1, 1)
    latest_version = 0

    class OffsetDeleteRequestPartition(Struct):
        __slots__ = ('partition_index', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0):
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    class OffsetDeleteRequestTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class OffsetDeleteResponse(Message):
    __slots__ = ('error_code', 'throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'OffsetDeleteResponse'
    message_type = 'response'
    api_key = 47
    valid_versions = range(0, 1)
    flexible_versions = range(1, 1)
    latest_version = 0

    class OffsetDeleteResponsePartition(Struct):
        __slots__ = ('partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class OffsetDeleteResponseTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, throttle_time_ms=0, topics=UNSET):
        self.error_code = error_code
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class OffsetFetchRequest(Message):
    __slots__ = ('group_id', 'topics', 'groups', 'require_stable', '_unknown_tagged_fields')
    schema_name = 'OffsetFetchRequest'
    message_type = 'request'
    api_key = 9
    valid_versions = range(0, 10)
    flexible_versions = range(6, 32768)
    latest_version = 9

    class OffsetFetchRequestTopic(Struct):
        __slots__ = ('name', 'partition_indexes', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_indexes=UNSET):
            self.name = name
            self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
            self._unknown_tagged_fields = None


    class OffsetFetchRequestTopics(Struct):
        __slots__ = ('name', 'partition_indexes', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_indexes=UNSET):
            self.name = name
            self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
            self._unknown_tagged_fields = None


    class OffsetFetchRequestGroup(Struct):
        __slots__ = ('group_id', 'member_id', 'member_epoch', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, group_id='', member_id=None, member_epoch=-1, topics=UNSET):
            self.group_id = group_id
            self.member_id = member_id
            self.member_epoch = member_epoch
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET, groups=UNSET, require_stable=False):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.groups = [] if groups is UNSET else groups
        self.require_stable = require_stable
        self._unknown_tagged_fields = None


class OffsetFetchResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', 'error_code', 'groups', '_unknown_tagged_fields')
    schema_name = 'OffsetFetchResponse'
    message_type = 'response'
    api_key = 9
    valid_versions = range(0, 10)
    flexible_versions = range(6, 32768)
    latest_version = 9

    class OffsetFetchResponsePartition(Struct):
        __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, metadata='', error_code=0):
            self.partition_index = partition_index
            self.committed_offset = committed_offset
            self.committed_leader_epoch = committed_leader_epoch
            self.metadata = metadata
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class OffsetFetchResponseTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class OffsetFetchResponsePartitions(Struct):
        __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, metadata='', error_code=0):
            self.partition_index = partition_index
            self.committed_offset = committed_offset
            self.committed_leader_epoch = committed_leader_epoch
            self.metadata = metadata
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class OffsetFetchResponseTopics(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class OffsetFetchResponseGroup(Struct):
        __slots__ = ('group_id', 'topics', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, group_id='', topics=UNSET, error_code=0):
            self.group_id = group_id
            self.topics = [] if topics is UNSET else topics
            self.error_code = error_code
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET, error_code=0, groups=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.error_code = error_code
        self.groups = [] if groups is UNSET else groups
        self._unknown_tagged_fields = None


class OffsetForLeaderEpochRequest(Message):
    __slots__ = ('replica_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'OffsetForLeaderEpochRequest'
    message_type = 'request'
    api_key = 23
    valid_versions = range(0, 5)
    flexible_versions = range(4, 32768)
    latest_version = 4

    class OffsetForLeaderPartition(Struct):
        __slots__ = ('partition', 'current_leader_epoch', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, current_leader_epoch=-1, leader_epoch=0):
            self.partition = partition
            self.current_leader_epoch = current_leader_epoch
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class OffsetForLeaderTopic(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, replica_id=-2, topics=UNSET):
        self.replica_id = replica_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class OffsetForLeaderEpochResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'OffsetForLeaderEpochResponse'
    message_type = 'response'
    api_key = 23
    valid_versions = range(0, 5)
    flexible_versions = range(4, 32768)
    latest_version = 4

    class EpochEndOffset(Struct):
        __slots__ = ('error_code', 'partition', 'leader_epoch', 'end_offset', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, partition=0, leader_epoch=-1, end_offset=-1):
            self.error_code = error_code
            self.partition = partition
            self.leader_epoch = leader_epoch
            self.end_offset = end_offset
            self._unknown_tagged_fields = None


    class OffsetForLeaderTopicResult(Struct):
        __slots__ = ('topic', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic='', partitions=UNSET):
            self.topic = topic
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class ProduceRequest(Message):
    __slots__ = ('transactional_id', 'acks', 'timeout_ms', 'topic_data', '_unknown_tagged_fields')
    schema_name = 'ProduceRequest'
    message_type = 'request'
    api_key = 0
    valid_versions = range(0, 12)
    flexible_versions = range(9, 32768)
    latest_version = 11

    class PartitionProduceData(Struct):
        __slots__ = ('index', 'records', '_unknown_tagged_fields')

        def __init__(self, *, index=0, records=None):
            self.index = index
            self.records = records
            self._unknown_tagged_fields = None


    class TopicProduceData(Struct):
        __slots__ = ('name', 'partition_data', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_data=UNSET):
            self.name = name
            self.partition_data = [] if partition_data is UNSET else partition_data
            self._unknown_tagged_fields = None


    def __init__(self, *, transactional_id=None, acks=0, timeout_ms=0, topic_data=UNSET):
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topic_data = [] if topic_data is UNSET else topic_data
        self._unknown_tagged_fields = None


class ProduceResponse(Message):
    __slots__ = ('responses', 'throttle_time_ms', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'ProduceResponse'
    message_type = 'response'
    api_key = 0
    valid_versions = range(0, 12)
    flexible_versions = range(9, 32768)
    latest_version = 11

    class BatchIndexAndErrorMessage(Struct):
        __slots__ = ('batch_index', 'batch_index_error_message', '_unknown_tagged_fields')

        def __init__(self, *, batch_index=0, batch_index_error_message=None):
            self.batch_index = batch_index
            self.batch_index_error_message = batch_index_error_message
            self._unknown_tagged_fields = None


    class LeaderIdAndEpoch(Struct):
        __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, leader_id=-1, leader_epoch=-1):
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class PartitionProduceResponse(Struct):
        __slots__ = ('index', 'error_code', 'base_offset', 'log_append_time_ms', 'log_start_offset', 'record_errors', 'error_message', 'current_leader', '_unknown_tagged_fields')

        def __init__(self, *, index=0, error_code=0, base_offset=0, log_append_time_ms=-1, log_start_offset=-1, record_errors=UNSET, error_message=None, current_leader=UNSET):
            self.index = index
            self.error_code = error_code
            self.base_offset = base_offset
            self.log_append_time_ms = log_append_time_ms
            self.log_start_offset = log_start_offset
            self.record_errors = [] if record_errors is UNSET else record_errors
            self.error_message = error_message
            self.current_leader = ProduceResponse.LeaderIdAndEpoch() if current_leader is UNSET else current_leader
            self._unknown_tagged_fields = None


    class TopicProduceResponse(Struct):
        __slots__ = ('name', 'partition_responses', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_responses=UNSET):
            self.name = name
            self.partition_responses = [] if partition_responses is UNSET else partition_responses
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0, rack=None):
            self.node_id = node_id
            self.host = host
            self.port = port
            self.rack = rack
            self._unknown_tagged_fields = None


    def __init__(self, *, responses=UNSET, throttle_time_ms=0, node_endpoints=UNSET):
        self.responses = [] if responses is UNSET else responses
        self.throttle_time_ms = throttle_time_ms
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class PushTelemetryRequest(Message):
    __slots__ = ('client_instance_id', 'subscription_id', 'terminating', 'compression_type', 'metrics', '_unknown_tagged_fields')
    schema_name = 'PushTelemetryRequest'
    message_type = 'request'
    api_key = 72
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, client_instance_id=ZERO_UUID, subscription_id=0, terminating=False, compression_type=0, metrics=b''):
        self.client_instance_id = client_instance_id
        self.subscription_id = subscription_id
        self.terminating = terminating
        self.compression_type = compression_type
        self.metrics = metrics
        self._unknown_tagged_fields = None


class PushTelemetryResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', '_unknown_tagged_fields')
    schema_name = 'PushTelemetryResponse'
    message_type = 'response'
    api_key = 72
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self._unknown_tagged_fields = None


class ReadShareGroupStateRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'ReadShareGroupStateRequest'
    message_type = 'request'
    api_key = 84
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = None

    class PartitionData(Struct):
        __slots__ = ('partition', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, leader_epoch=0):
            self.partition = partition
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class ReadStateData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class ReadShareGroupStateResponse(Message):
    __slots__ = ('results', '_unknown_tagged_fields')
    schema_name = 'ReadShareGroupStateResponse'
    message_type = 'response'
    api_key = 84
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class StateBatch(Struct):
        __slots__ = ('first_offset', 'last_offset', 'delivery_state', 'delivery_count', '_unknown_tagged_fields')

        def __init__(self, *, first_offset=0, last_offset=0, delivery_state=0, delivery_count=0):
            self.first_offset = first_offset
            self.last_offset = last_offset
            self.delivery_state = delivery_state
            self.delivery_count = delivery_count
            self._unknown_tagged_fields = None


    class PartitionResult(Struct):
        __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'start_offset', 'state_batches', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, error_code=0, error_message=None, state_epoch=0, start_offset=0, state_batches=UNSET):
            self.partition = partition
            self.error_code = error_code
            self.error_message = error_message
            self.state_epoch = state_epoch
            self.start_offset = start_offset
            self.state_batches = [] if state_batches is UNSET else state_batches
            self._unknown_tagged_fields = None


    class ReadStateResult(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, results=UNSET):
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class ReadShareGroupStateSummaryRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'ReadShareGroupStateSummaryRequest'
    message_type = 'request'
    api_key = 87
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = None

    class PartitionData(Struct):
        __slots__ = ('partition', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, leader_epoch=0):
            self.partition = partition
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class ReadStateSummaryData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class ReadShareGroupStateSummaryResponse(Message):
    __slots__ = ('results', '_unknown_tagged_fields')
    schema_name = 'ReadShareGroupStateSummaryResponse'
    message_type = 'response'
    api_key = 87
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class PartitionResult(Struct):
        __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'start_offset', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, error_code=0, error_message=None, state_epoch=0, start_offset=0):
            self.partition = partition
            self.error_code = error_code
            self.error_message = error_message
            self.state_epoch = state_epoch
            self.start_offset = start_offset
            self._unknown_tagged_fields = None


    class ReadStateSummaryResult(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, results=UNSET):
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class RemoveRaftVoterRequest(Message):
    __slots__ = ('cluster_id', 'voter_id', 'voter_directory_id', '_unknown_tagged_fields')
    schema_name = 'RemoveRaftVoterRequest'
    message_type = 'request'
    api_key = 81
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, cluster_id='', voter_id=0, voter_directory_id=ZERO_UUID):
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self._unknown_tagged_fields = None


class RemoveRaftVoterResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', '_unknown_tagged_fields')
    schema_name = 'RemoveRaftVoterResponse'
    message_type = 'response'
    api_key = 81
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=''):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged_fields = None


class RenewDelegationTokenRequest(Message):
    __slots__ = ('hmac', 'renew_period_ms', '_unknown_tagged_fields')
    schema_name = 'RenewDelegationTokenRequest'
    message_type = 'request'
    api_key = 39
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, hmac=b'', renew_period_ms=0):
        self.hmac = hmac
        self.renew_period_ms = renew_period_ms
        self._unknown_tagged_fields = None


class RenewDelegationTokenResponse(Message):
    __slots__ = ('error_code', 'expiry_timestamp_ms', 'throttle_time_ms', '_unknown_tagged_fields')
    schema_name = 'RenewDelegationTokenResponse'
    message_type = 'response'
    api_key = 39
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, error_code=0, expiry_timestamp_ms=0, throttle_time_ms=0):
        self.error_code = error_code
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.throttle_time_ms = throttle_time_ms
        self._unknown_tagged_fields = None


class RequestHeader(Message):
    __slots__ = ('request_api_key', 'request_api_version', 'correlation_id', 'client_id', '_unknown_tagged_fields')
    schema_name = 'RequestHeader'
    message_type = 'header'
    api_key = None
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, request_api_key=0, request_api_version=0, correlation_id=0, client_id=''):
        self.request_api_key = request_api_key
        self.request_api_version = request_api_version
        self.correlation_id = correlation_id
        self.client_id = client_id
        self._unknown_tagged_fields = None


class ResponseHeader(Message):
    __slots__ = ('correlation_id', '_unknown_tagged_fields')
    schema_name = 'ResponseHeader'
    message_type = 'header'
    api_key = None
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    def __init__(self, *, correlation_id=0):
        self.correlation_id = correlation_id
        self._unknown_tagged_fields = None


class SaslAuthenticateRequest(Message):
    __slots__ = ('auth_bytes', '_unknown_tagged_fields')
    schema_name = 'SaslAuthenticateRequest'
    message_type = 'request'
    api_key = 36
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, auth_bytes=b''):
        self.auth_bytes = auth_bytes
        self._unknown_tagged_fields = None


class SaslAuthenticateResponse(Message):
    __slots__ = ('error_code', 'error_message', 'auth_bytes', 'session_lifetime_ms', '_unknown_tagged_fields')
    schema_name = 'SaslAuthenticateResponse'
    message_type = 'response'
    api_key = 36
    valid_versions = range(0, 3)
    flexible_versions = range(2, 32768)
    latest_version = 2

    def __init__(self, *, error_code=0, error_message='', auth_bytes=b'', session_lifetime_ms=0):
        self.error_code = error_code
        self.error_message = error_message
        self.auth_bytes = auth_bytes
        self.session_lifetime_ms = session_lifetime_ms
        self._unknown_tagged_fields = None


class SaslHandshakeRequest(Message):
    __slots__ = ('mechanism', '_unknown_tagged_fields')
    schema_name = 'SaslHandshakeRequest'
    message_type = 'request'
    api_key = 17
    valid_versions = range(0, 2)
    flexible_versions = range(1, 1)
    latest_version = 1

    def __init__(self, *, mechanism=''):
        self.mechanism = mechanism
        self._unknown_tagged_fields = None


class SaslHandshakeResponse(Message):
    __slots__ = ('error_code', 'mechanisms', '_unknown_tagged_fields')
    schema_name = 'SaslHandshakeResponse'
    message_type = 'response'
    api_key = 17
    valid_versions = range(0, 2)
    flexible_versions = range(1, 1)
    latest_version = 1

    def __init__(self, *, error_code=0, mechanisms=UNSET):
        self.error_code = error_code
        self.mechanisms = [] if mechanisms is UNSET else mechanisms
        self._unknown_tagged_fields = None


class ShareAcknowledgeRequest(Message):
    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'topics', '_unknown_tagged_fields')
    schema_name = 'ShareAcknowledgeRequest'
    message_type = 'request'
    api_key = 79
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class AcknowledgementBatch(Struct):
        __slots__ = ('first_offset', 'last_offset', 'acknowledge_types', '_unknown_tagged_fields')

        def __init__(self, *, first_offset=0, last_offset=0, acknowledge_types=UNSET):
            self.first_offset = first_offset
            self.last_offset = last_offset
            self.acknowledge_types = [] if acknowledge_types is UNSET else acknowledge_types
            self._unknown_tagged_fields = None


    class AcknowledgePartition(Struct):
        __slots__ = ('partition_index', 'acknowledgement_batches', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, acknowledgement_batches=UNSET):
            self.partition_index = partition_index
            self.acknowledgement_batches = [] if acknowledgement_batches is UNSET else acknowledgement_batches
            self._unknown_tagged_fields = None


    class AcknowledgeTopic(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id=None, member_id='', share_session_epoch=0, topics=UNSET):
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class ShareAcknowledgeResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'responses', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'ShareAcknowledgeResponse'
    message_type = 'response'
    api_key = 79
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class LeaderIdAndEpoch(Struct):
        __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, leader_id=0, leader_epoch=0):
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'error_message', 'current_leader', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, error_message=None, current_leader=UNSET):
            self.partition_index = partition_index
            self.error_code = error_code
            self.error_message = error_message
            self.current_leader = ShareAcknowledgeResponse.LeaderIdAndEpoch() if current_leader is UNSET else current_leader
            self._unknown_tagged_fields = None


    class ShareAcknowledgeTopicResponse(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0, rack=None):
            self.node_id = node_id
            self.host = host
            self.port = port
            self.rack = rack
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, responses=UNSET, node_endpoints=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is UNSET else responses
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class ShareFetchRequest(Message):
    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'max_wait_ms', 'min_bytes', 'max_bytes', 'max_records', 'batch_size', 'topics', 'forgotten_topics_data', '_unknown_tagged_fields')
    schema_name = 'ShareFetchRequest'
    message_type = 'request'
    api_key = 78
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class AcknowledgementBatch(Struct):
        __slots__ = ('first_offset', 'last_offset', 'acknowledge_types', '_unknown_tagged_fields')

        def __init__(self, *, first_offset=0, last_offset=0, acknowledge_types=UNSET):
            self.first_offset = first_offset
            self.last_offset = last_offset
            self.acknowledge_types = [] if acknowledge_types is UNSET else acknowledge_types
            self._unknown_tagged_fields = None


    class FetchPartition(Struct):
        __slots__ = ('partition_index', 'partition_max_bytes', 'acknowledgement_batches', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, partition_max_bytes=0, acknowledgement_batches=UNSET):
            self.partition_index = partition_index
            self.partition_max_bytes = partition_max_bytes
            self.acknowledgement_batches = [] if acknowledgement_batches is UNSET else acknowledgement_batches
            self._unknown_tagged_fields = None


    class FetchTopic(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class ForgottenTopic(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id=None, member_id='', share_session_epoch=0, max_wait_ms=0, min_bytes=0, max_bytes=2147483647, max_records=0, batch_size=0, topics=UNSET, forgotten_topics_data=UNSET):
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.max_records = max_records
        self.batch_size = batch_size
        self.topics = [] if topics is UNSET else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is UNSET else forgotten_topics_data
        self._unknown_tagged_fields = None


class ShareFetchResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'acquisition_lock_timeout_ms', 'responses', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'ShareFetchResponse'
    message_type = 'response'
    api_key = 78
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class LeaderIdAndEpoch(Struct):
        __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged_fields')

        def __init__(self, *, leader_id=0, leader_epoch=0):
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self._unknown_tagged_fields = None


    class AcquiredRecords(Struct):
        __slots__ = ('first_offset', 'last_offset', 'delivery_count', '_unknown_tagged_fields')

        def __init__(self, *, first_offset=0, last_offset=0, delivery_count=0):
            self.first_offset = first_offset
            self.last_offset = last_offset
            self.delivery_count = delivery_count
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'error_message', 'acknowledge_error_code', 'acknowledge_error_message', 'current_leader', 'records', 'acquired_records', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, error_message=None, acknowledge_error_code=0, acknowledge_error_message=None, current_leader=UNSET, records=None, acquired_records=UNSET):
            self.partition_index = partition_index
            self.error_code = error_code
            self.error_message = error_message
            self.acknowledge_error_code = acknowledge_error_code
            self.acknowledge_error_message = acknowledge_error_message
            self.current_leader = ShareFetchResponse.LeaderIdAndEpoch() if current_leader is UNSET else current_leader
            self.records = records
            self.acquired_records = [] if acquired_records is UNSET else acquired_records
            self._unknown_tagged_fields = None


    class ShareFetchableTopicResponse(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0, rack=None):
            self.node_id = node_id
            self.host = host
            self.port = port
            self.rack = rack
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, acquisition_lock_timeout_ms=0, responses=UNSET, node_endpoints=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.acquisition_lock_timeout_ms = acquisition_lock_timeout_ms
        self.responses = [] if responses is UNSET else responses
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class ShareGroupDescribeRequest(Message):
    __slots__ = ('group_ids', 'include_authorized_operations', '_unknown_tagged_fields')
    schema_name = 'ShareGroupDescribeRequest'
    message_type = 'request'
    api_key = 77
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    def __init__(self, *, group_ids=UNSET, include_authorized_operations=False):
        self.group_ids = [] if group_ids is UNSET else group_ids
        self.include_authorized_operations = include_authorized_operations
        self._unknown_tagged_fields = None


class ShareGroupDescribeResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged_fields')
    schema_name = 'ShareGroupDescribeResponse'
    message_type = 'response'
    api_key = 77
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class TopicPartitions(Struct):
        __slots__ = ('topic_id', 'topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, topic_name='', partitions=UNSET):
            self.topic_id = topic_id
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class Assignment(Struct):
        __slots__ = ('topic_partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_partitions=UNSET):
            self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
            self._unknown_tagged_fields = None


    class Member(Struct):
        __slots__ = ('member_id', 'rack_id', 'member_epoch', 'client_id', 'client_host', 'subscribed_topic_names', 'assignment', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', rack_id=None, member_epoch=0, client_id='', client_host='', subscribed_topic_names=UNSET, assignment=UNSET):
            self.member_id = member_id
            self.rack_id = rack_id
            self.member_epoch = member_epoch
            self.client_id = client_id
            self.client_host = client_host
            self.subscribed_topic_names = [] if subscribed_topic_names is UNSET else subscribed_topic_names
            self.assignment = ShareGroupDescribeResponse.Assignment() if assignment is UNSET else assignment
            self._unknown_tagged_fields = None


    class DescribedGroup(Struct):
        __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'assignor_name', 'members', 'authorized_operations', '_unknown_tagged_fields')

        def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', group_epoch=0, assignment_epoch=0, assignor_name='', members=UNSET, authorized_operations=-2147483648):
            self.error_code = error_code
            self.error_message = error_message
            self.group_id = group_id
            self.group_state = group_state
            self.group_epoch = group_epoch
            self.assignment_epoch = assignment_epoch
            self.assignor_name = assignor_name
            self.members = [] if members is UNSET else members
            self.authorized_operations = authorized_operations
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, groups=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is UNSET else groups
        self._unknown_tagged_fields = None


class ShareGroupHeartbeatRequest(Message):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'rack_id', 'subscribed_topic_names', '_unknown_tagged_fields')
    schema_name = 'ShareGroupHeartbeatRequest'
    message_type = 'request'
    api_key = 76
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    def __init__(self, *, group_id='', member_id='', member_epoch=0, rack_id=None, subscribed_topic_names=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.rack_id = rack_id
        self.subscribed_topic_names = subscribed_topic_names
        self._unknown_tagged_fields = None


class ShareGroupHeartbeatResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'assignment', '_unknown_tagged_fields')
    schema_name = 'ShareGroupHeartbeatResponse'
    message_type = 'response'
    api_key = 76
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class TopicPartitions(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class Assignment(Struct):
        __slots__ = ('topic_partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_partitions=UNSET):
            self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, member_id=None, member_epoch=0, heartbeat_interval_ms=0, assignment=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment
        self._unknown_tagged_fields = None


class SnapshotFooterRecord(Message):
    __slots__ = ('version', '_unknown_tagged_fields')
    schema_name = 'SnapshotFooterRecord'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, version=0):
        self.version = version
        self._unknown_tagged_fields = None


class SnapshotHeaderRecord(Message):
    __slots__ = ('version', 'last_contained_log_timestamp', '_unknown_tagged_fields')
    schema_name = 'SnapshotHeaderRecord'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, version=0, last_contained_log_timestamp=0):
        self.version = version
        self.last_contained_log_timestamp = last_contained_log_timestamp
        self._unknown_tagged_fields = None


class StopReplicaRequest(Message):
    __slots__ = ('controller_id', 'is_k_raft_controller', 'controller_epoch', 'broker_epoch', 'delete_partitions', 'ungrouped_partitions', 'topics', 'topic_states', '_unknown_tagged_fields')
    schema_name = 'StopReplicaRequest'
    message_type = 'request'
    api_key = 5
    valid_versions = range(0, 5)
    flexible_versions = range(2, 32768)
    latest_version = 4

    class StopReplicaPartitionV0(Struct):
        __slots__ = ('topic_name', 'partition_index', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self._unknown_tagged_fields = None


    class StopReplicaTopicV1(Struct):
        __slots__ = ('name', 'partition_indexes', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_indexes=UNSET):
            self.name = name
            self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
            self._unknown_tagged_fields = None


    class StopReplicaPartitionState(Struct):
        __slots__ = ('partition_index', 'leader_epoch', 'delete_partition', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, leader_epoch=-1, delete_partition=False):
            self.partition_index = partition_index
            self.leader_epoch = leader_epoch
            self.delete_partition = delete_partition
            self._unknown_tagged_fields = None


    class StopReplicaTopicState(Struct):
        __slots__ = ('topic_name', 'partition_states', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_states=UNSET):
            self.topic_name = topic_name
            self.partition_states = [] if partition_states is UNSET else partition_states
            self._unknown_tagged_fields = None


    def __init__(self, *, controller_id=0, is_k_raft_controller=False, controller_epoch=0, broker_epoch=-1, delete_partitions=False, ungrouped_partitions=UNSET, topics=UNSET, topic_states=UNSET):
        self.controller_id = controller_id
        self.is_k_raft_controller = is_k_raft_controller
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.delete_partitions = delete_partitions
        self.ungrouped_partitions = [] if ungrouped_partitions is UNSET else ungrouped_partitions
        self.topics = [] if topics is UNSET else topics
        self.topic_states = [] if topic_states is UNSET else topic_states
        self._unknown_tagged_fields = None


class StopReplicaResponse(Message):
    __slots__ = ('error_code', 'partition_errors', '_unknown_tagged_fields')
    schema_name = 'StopReplicaResponse'
    message_type = 'response'
    api_key = 5
    valid_versions = range(0, 5)
    flexible_versions = range(2, 32768)
    latest_version = 4

    class StopReplicaPartitionError(Struct):
        __slots__ = ('topic_name', 'partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0, error_code=0):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, partition_errors=UNSET):
        self.error_code = error_code
        self.partition_errors = [] if partition_errors is UNSET else partition_errors
        self._unknown_tagged_fields = None


class SyncGroupRequest(Message):
    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id', 'protocol_type', 'protocol_name', 'assignments', '_unknown_tagged_fields')
    schema_name = 'SyncGroupRequest'
    message_type = 'request'
    api_key = 14
    valid_versions = range(0, 6)
    flexible_versions = range(4, 32768)
    latest_version = 5

    class SyncGroupRequestAssignment(Struct):
        __slots__ = ('member_id', 'assignment', '_unknown_tagged_fields')

        def __init__(self, *, member_id='', assignment=b''):
            self.member_id = member_id
            self.assignment = assignment
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', generation_id=0, member_id='', group_instance_id=None, protocol_type=None, protocol_name=None, assignments=UNSET):
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignments = [] if assignments is UNSET else assignments
        self._unknown_tagged_fields = None


class SyncGroupResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'protocol_type', 'protocol_name', 'assignment', '_unknown_tagged_fields')
    schema_name = 'SyncGroupResponse'
    message_type = 'response'
    api_key = 14
    valid_versions = range(0, 6)
    flexible_versions = range(4, 32768)
    latest_version = 5

    def __init__(self, *, throttle_time_ms=0, error_code=0, protocol_type=None, protocol_name=None, assignment=b''):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignment = assignment
        self._unknown_tagged_fields = None


class TxnOffsetCommitRequest(Message):
    __slots__ = ('transactional_id', 'group_id', 'producer_id', 'producer_epoch', 'generation_id', 'member_id', 'group_instance_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'TxnOffsetCommitRequest'
    message_type = 'request'
    api_key = 28
    valid_versions = range(0, 5)
    flexible_versions = range(3, 32768)
    latest_version = 4

    class TxnOffsetCommitRequestPartition(Struct):
        __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'committed_metadata', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, committed_metadata=''):
            self.partition_index = partition_index
            self.committed_offset = committed_offset
            self.committed_leader_epoch = committed_leader_epoch
            self.committed_metadata = committed_metadata
            self._unknown_tagged_fields = None


    class TxnOffsetCommitRequestTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, transactional_id='', group_id='', producer_id=0, producer_epoch=0, generation_id=-1, member_id='', group_instance_id=None, topics=UNSET):
        self.transactional_id = transactional_id
        self.group_id = group_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class TxnOffsetCommitResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged_fields')
    schema_name = 'TxnOffsetCommitResponse'
    message_type = 'response'
    api_key = 28
    valid_versions = range(0, 5)
    flexible_versions = range(3, 32768)
    latest_version = 4

    class TxnOffsetCommitResponsePartition(Struct):
        __slots__ = ('partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class TxnOffsetCommitResponseTopic(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, topics=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class UnregisterBrokerRequest(Message):
    __slots__ = ('broker_id', '_unknown_tagged_fields')
    schema_name = 'UnregisterBrokerRequest'
    message_type = 'request'
    api_key = 64
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, broker_id=0):
        self.broker_id = broker_id
        self._unknown_tagged_fields = None


class UnregisterBrokerResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', '_unknown_tagged_fields')
    schema_name = 'UnregisterBrokerResponse'
    message_type = 'response'
    api_key = 64
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=''):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged_fields = None


class UpdateFeaturesRequest(Message):
    __slots__ = ('timeout_ms', 'feature_updates', 'validate_only', '_unknown_tagged_fields')
    schema_name = 'UpdateFeaturesRequest'
    message_type = 'request'
    api_key = 57
    valid_versions = range(0, 3)
    flexible_versions = range(0, 32768)
    latest_version = 2

    class FeatureUpdateKey(Struct):
        __slots__ = ('feature', 'max_version_level', 'allow_downgrade', 'upgrade_type', '_unknown_tagged_fields')

        def __init__(self, *, feature='', max_version_level=0, allow_downgrade=False, upgrade_type=1):
            self.feature = feature
            self.max_version_level = max_version_level
            self.allow_downgrade = allow_downgrade
            self.upgrade_type = upgrade_type
            self._unknown_tagged_fields = None


    def __init__(self, *, timeout_ms=60000, feature_updates=UNSET, validate_only=False):
        self.timeout_ms = timeout_ms
        self.feature_updates = [] if feature_updates is UNSET else feature_updates
        self.validate_only = validate_only
        self._unknown_tagged_fields = None


class UpdateFeaturesResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'results', '_unknown_tagged_fields')
    schema_name = 'UpdateFeaturesResponse'
    message_type = 'response'
    api_key = 57
    valid_versions = range(0, 3)
    flexible_versions = range(0, 32768)
    latest_version = 2

    class UpdatableFeatureResult(Struct):
        __slots__ = ('feature', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, feature='', error_code=0, error_message=''):
            self.feature = feature
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', results=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class UpdateMetadataRequest(Message):
    __slots__ = ('controller_id', 'is_k_raft_controller', 'type', 'controller_epoch', 'broker_epoch', 'ungrouped_partition_states', 'topic_states', 'live_brokers', '_unknown_tagged_fields')
    schema_name = 'UpdateMetadataRequest'
    message_type = 'request'
    api_key = 6
    valid_versions = range(0, 9)
    flexible_versions = range(6, 32768)
    latest_version = 8

    class UpdateMetadataPartitionState(Struct):
        __slots__ = ('topic_name', 'partition_index', 'controller_epoch', 'leader', 'leader_epoch', 'isr', 'zk_version', 'replicas', 'offline_replicas', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partition_index=0, controller_epoch=0, leader=0, leader_epoch=0, isr=UNSET, zk_version=0, replicas=UNSET, offline_replicas=UNSET):
            self.topic_name = topic_name
            self.partition_index = partition_index
            self.controller_epoch = controller_epoch
            self.leader = leader
            self.leader_epoch = leader_epoch
            self.isr = [] if isr is UNSET else isr
            self.zk_version = zk_version
            self.replicas = [] if replicas is UNSET else replicas
            self.offline_replicas = [] if offline_replicas is UNSET else offline_replicas
            self._unknown_tagged_fields = None


    class UpdateMetadataTopicState(Struct):
        __slots__ = ('topic_name', 'topic_id', 'partition_states', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', topic_id=ZERO_UUID, partition_states=UNSET):
            self.topic_name = topic_name
            self.topic_id = topic_id
            self.partition_states = [] if partition_states is UNSET else partition_states
            self._unknown_tagged_fields = None


    class UpdateMetadataEndpoint(Struct):
        __slots__ = ('port', 'host', 'listener', 'security_protocol', '_unknown_tagged_fields')

        def __init__(self, *, port=0, host='', listener='', security_protocol=0):
            self.port = port
            self.host = host
            self.listener = listener
            self.security_protocol = security_protocol
            self._unknown_tagged_fields = None


    class UpdateMetadataBroker(Struct):
        __slots__ = ('id', 'v0_host', 'v0_port', 'endpoints', 'rack', '_unknown_tagged_fields')

        def __init__(self, *, id=0, v0_host='', v0_port=0, endpoints=UNSET, rack=''):
            self.id = id
            self.v0_host = v0_host
            self.v0_port = v0_port
            self.endpoints = [] if endpoints is UNSET else endpoints
            self.rack = rack
            self._unknown_tagged_fields = None


    def __init__(self, *, controller_id=0, is_k_raft_controller=False, type=0, controller_epoch=0, broker_epoch=-1, ungrouped_partition_states=UNSET, topic_states=UNSET, live_brokers=UNSET):
        self.controller_id = controller_id
        self.is_k_raft_controller = is_k_raft_controller
        self.type = type
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.ungrouped_partition_states = [] if ungrouped_partition_states is UNSET else ungrouped_partition_states
        self.topic_states = [] if topic_states is UNSET else topic_states
        self.live_brokers = [] if live_brokers is UNSET else live_brokers
        self._unknown_tagged_fields = None


class UpdateMetadataResponse(Message):
    __slots__ = ('error_code', '_unknown_tagged_fields')
    schema_name = 'UpdateMetadataResponse'
    message_type = 'response'
    api_key = 6
    valid_versions = range(0, 9)
    flexible_versions = range(6, 32768)
    latest_version = 8

    def __init__(self, *, error_code=0):
        self.error_code = error_code
        self._unknown_tagged_fields = None


class UpdateRaftVoterRequest(Message):
    __slots__ = ('cluster_id', 'current_leader_epoch', 'voter_id', 'voter_directory_id', 'listeners', 'k_raft_version_feature', '_unknown_tagged_fields')
    schema_name = 'UpdateRaftVoterRequest'
    message_type = 'request'
    api_key = 82
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class Listener(Struct):
        __slots__ = ('name', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0):
            self.name = name
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    class KRaftVersionFeature(Struct):
        __slots__ = ('min_supported_version', 'max_supported_version', '_unknown_tagged_fields')

        def __init__(self, *, min_supported_version=0, max_supported_version=0):
            self.min_supported_version = min_supported_version
            self.max_supported_version = max_supported_version
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id='', current_leader_epoch=0, voter_id=0, voter_directory_id=ZERO_UUID, listeners=UNSET, k_raft_version_feature=UNSET):
        self.cluster_id = cluster_id
        self.current_leader_epoch = current_leader_epoch
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is UNSET else listeners
        self.k_raft_version_feature = UpdateRaftVoterRequest.KRaftVersionFeature() if k_raft_version_feature is UNSET else k_raft_version_feature
        self._unknown_tagged_fields = None


class UpdateRaftVoterResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'current_leader', '_unknown_tagged_fields')
    schema_name = 'UpdateRaftVoterResponse'
    message_type = 'response'
    api_key = 82
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class CurrentLeader(Struct):
        __slots__ = ('leader_id', 'leader_epoch', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, leader_id=-1, leader_epoch=-1, host='', port=0):
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, throttle_time_ms=0, error_code=0, current_leader=UNSET):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.current_leader = UpdateRaftVoterResponse.CurrentLeader() if current_leader is UNSET else current_leader
        self._unknown_tagged_fields = None


class VoteRequest(Message):
    __slots__ = ('cluster_id', 'voter_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'VoteRequest'
    message_type = 'request'
    api_key = 52
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'candidate_epoch', 'candidate_id', 'candidate_directory_id', 'voter_directory_id', 'last_offset_epoch', 'last_offset', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, candidate_epoch=0, candidate_id=0, candidate_directory_id=ZERO_UUID, voter_directory_id=ZERO_UUID, last_offset_epoch=0, last_offset=0):
            self.partition_index = partition_index
            self.candidate_epoch = candidate_epoch
            self.candidate_id = candidate_id
            self.candidate_directory_id = candidate_directory_id
            self.voter_directory_id = voter_directory_id
            self.last_offset_epoch = last_offset_epoch
            self.last_offset = last_offset
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, cluster_id=None, voter_id=-1, topics=UNSET):
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class VoteResponse(Message):
    __slots__ = ('error_code', 'topics', 'node_endpoints', '_unknown_tagged_fields')
    schema_name = 'VoteResponse'
    message_type = 'response'
    api_key = 52
    valid_versions = range(0, 2)
    flexible_versions = range(0, 32768)
    latest_version = 1

    class PartitionData(Struct):
        __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', 'vote_granted', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0, leader_id=0, leader_epoch=0, vote_granted=False):
            self.partition_index = partition_index
            self.error_code = error_code
            self.leader_id = leader_id
            self.leader_epoch = leader_epoch
            self.vote_granted = vote_granted
            self._unknown_tagged_fields = None


    class TopicData(Struct):
        __slots__ = ('topic_name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_name='', partitions=UNSET):
            self.topic_name = topic_name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class NodeEndpoint(Struct):
        __slots__ = ('node_id', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, node_id=0, host='', port=0):
            self.node_id = node_id
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    def __init__(self, *, error_code=0, topics=UNSET, node_endpoints=UNSET):
        self.error_code = error_code
        self.topics = [] if topics is UNSET else topics
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self._unknown_tagged_fields = None


class VotersRecord(Message):
    __slots__ = ('version', 'voters', '_unknown_tagged_fields')
    schema_name = 'VotersRecord'
    message_type = 'data'
    api_key = None
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class Endpoint(Struct):
        __slots__ = ('name', 'host', 'port', '_unknown_tagged_fields')

        def __init__(self, *, name='', host='', port=0):
            self.name = name
            self.host = host
            self.port = port
            self._unknown_tagged_fields = None


    class KRaftVersionFeature(Struct):
        __slots__ = ('min_supported_version', 'max_supported_version', '_unknown_tagged_fields')

        def __init__(self, *, min_supported_version=0, max_supported_version=0):
            self.min_supported_version = min_supported_version
            self.max_supported_version = max_supported_version
            self._unknown_tagged_fields = None


    class Voter(Struct):
        __slots__ = ('voter_id', 'voter_directory_id', 'endpoints', 'k_raft_version_feature', '_unknown_tagged_fields')

        def __init__(self, *, voter_id=0, voter_directory_id=ZERO_UUID, endpoints=UNSET, k_raft_version_feature=UNSET):
            self.voter_id = voter_id
            self.voter_directory_id = voter_directory_id
            self.endpoints = [] if endpoints is UNSET else endpoints
            self.k_raft_version_feature = VotersRecord.KRaftVersionFeature() if k_raft_version_feature is UNSET else k_raft_version_feature
            self._unknown_tagged_fields = None


    def __init__(self, *, version=0, voters=UNSET):
        self.version = version
        self.voters = [] if voters is UNSET else voters
        self._unknown_tagged_fields = None


class WriteShareGroupStateRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged_fields')
    schema_name = 'WriteShareGroupStateRequest'
    message_type = 'request'
    api_key = 85
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = None

    class StateBatch(Struct):
        __slots__ = ('first_offset', 'last_offset', 'delivery_state', 'delivery_count', '_unknown_tagged_fields')

        def __init__(self, *, first_offset=0, last_offset=0, delivery_state=0, delivery_count=0):
            self.first_offset = first_offset
            self.last_offset = last_offset
            self.delivery_state = delivery_state
            self.delivery_count = delivery_count
            self._unknown_tagged_fields = None


    class PartitionData(Struct):
        __slots__ = ('partition', 'state_epoch', 'leader_epoch', 'start_offset', 'state_batches', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, state_epoch=0, leader_epoch=0, start_offset=0, state_batches=UNSET):
            self.partition = partition
            self.state_epoch = state_epoch
            self.leader_epoch = leader_epoch
            self.start_offset = start_offset
            self.state_batches = [] if state_batches is UNSET else state_batches
            self._unknown_tagged_fields = None


    class WriteStateData(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, group_id='', topics=UNSET):
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self._unknown_tagged_fields = None


class WriteShareGroupStateResponse(Message):
    __slots__ = ('results', '_unknown_tagged_fields')
    schema_name = 'WriteShareGroupStateResponse'
    message_type = 'response'
    api_key = 85
    valid_versions = range(0, 1)
    flexible_versions = range(0, 32768)
    latest_version = 0

    class PartitionResult(Struct):
        __slots__ = ('partition', 'error_code', 'error_message', '_unknown_tagged_fields')

        def __init__(self, *, partition=0, error_code=0, error_message=None):
            self.partition = partition
            self.error_code = error_code
            self.error_message = error_message
            self._unknown_tagged_fields = None


    class WriteStateResult(Struct):
        __slots__ = ('topic_id', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, topic_id=ZERO_UUID, partitions=UNSET):
            self.topic_id = topic_id
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    def __init__(self, *, results=UNSET):
        self.results = [] if results is UNSET else results
        self._unknown_tagged_fields = None


class WriteTxnMarkersRequest(Message):
    __slots__ = ('markers', '_unknown_tagged_fields')
    schema_name = 'WriteTxnMarkersRequest'
    message_type = 'request'
    api_key = 27
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class WritableTxnMarkerTopic(Struct):
        __slots__ = ('name', 'partition_indexes', '_unknown_tagged_fields')

        def __init__(self, *, name='', partition_indexes=UNSET):
            self.name = name
            self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
            self._unknown_tagged_fields = None


    class WritableTxnMarker(Struct):
        __slots__ = ('producer_id', 'producer_epoch', 'transaction_result', 'topics', 'coordinator_epoch', '_unknown_tagged_fields')

        def __init__(self, *, producer_id=0, producer_epoch=0, transaction_result=False, topics=UNSET, coordinator_epoch=0):
            self.producer_id = producer_id
            self.producer_epoch = producer_epoch
            self.transaction_result = transaction_result
            self.topics = [] if topics is UNSET else topics
            self.coordinator_epoch = coordinator_epoch
            self._unknown_tagged_fields = None


    def __init__(self, *, markers=UNSET):
        self.markers = [] if markers is UNSET else markers
        self._unknown_tagged_fields = None


class WriteTxnMarkersResponse(Message):
    __slots__ = ('markers', '_unknown_tagged_fields')
    schema_name = 'WriteTxnMarkersResponse'
    message_type = 'response'
    api_key = 27
    valid_versions = range(0, 2)
    flexible_versions = range(1, 32768)
    latest_version = 1

    class WritableTxnMarkerPartitionResult(Struct):
        __slots__ = ('partition_index', 'error_code', '_unknown_tagged_fields')

        def __init__(self, *, partition_index=0, error_code=0):
            self.partition_index = partition_index
            self.error_code = error_code
            self._unknown_tagged_fields = None


    class WritableTxnMarkerTopicResult(Struct):
        __slots__ = ('name', 'partitions', '_unknown_tagged_fields')

        def __init__(self, *, name='', partitions=UNSET):
            self.name = name
            self.partitions = [] if partitions is UNSET else partitions
            self._unknown_tagged_fields = None


    class WritableTxnMarkerResult(Struct):
        __slots__ = ('producer_id', 'topics', '_unknown_tagged_fields')

        def __init__(self, *, producer_id=0, topics=UNSET):
            self.producer_id = producer_id
            self.topics = [] if topics is UNSET else topics
            self._unknown_tagged_fields = None


    def __init__(self, *, markers=UNSET):
        self.markers = [] if markers is UNSET else markers
        self._unknown_tagged_fields = None


AddOffsetsToTxnRequest._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('GroupId', 'group_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
)
AddOffsetsToTxnResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
AddPartitionsToTxnRequest.AddPartitionsToTxnTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (4, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProducerId', 'producer_id', INT64, 0, None, (4, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (4, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('VerifyOnly', 'verify_only', BOOL, 0, None, (4, 5), (1, 0), -1, (1, 0), None, False, False),
    Field('Topics', 'topics', ARRAY, STRUCT, AddPartitionsToTxnRequest.AddPartitionsToTxnTopic, (4, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddPartitionsToTxnRequest._kw_fields = (
    Field('Transactions', 'transactions', ARRAY, STRUCT, AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction, (4, 5), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('V3AndBelowTransactionalId', 'v3_and_below_transactional_id', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('V3AndBelowProducerId', 'v3_and_below_producer_id', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('V3AndBelowProducerEpoch', 'v3_and_below_producer_epoch', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('V3AndBelowTopics', 'v3_and_below_topics', ARRAY, STRUCT, AddPartitionsToTxnRequest.AddPartitionsToTxnTopic, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionErrorCode', 'partition_error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
)
AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ResultsByPartition', 'results_by_partition', ARRAY, STRUCT, AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddPartitionsToTxnResponse.AddPartitionsToTxnResult._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (4, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('TopicResults', 'topic_results', ARRAY, STRUCT, AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult, (4, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddPartitionsToTxnResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (4, 5), (1, 0), -1, (1, 0), None, True, 0),
    Field('ResultsByTransaction', 'results_by_transaction', ARRAY, STRUCT, AddPartitionsToTxnResponse.AddPartitionsToTxnResult, (4, 5), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ResultsByTopicV3AndBelow', 'results_by_topic_v3_and_below', ARRAY, STRUCT, AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddRaftVoterRequest.Listener._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
AddRaftVoterRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterId', 'voter_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Listeners', 'listeners', ARRAY, STRUCT, AddRaftVoterRequest.Listener, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AddRaftVoterResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, True, ''),
)
AllocateProducerIdsRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
)
AllocateProducerIdsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerIdStart', 'producer_id_start', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerIdLen', 'producer_id_len', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
AlterClientQuotasRequest.EntityData._kw_fields = (
    Field('EntityType', 'entity_type', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('EntityName', 'entity_name', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
)
AlterClientQuotasRequest.OpData._kw_fields = (
    Field('Key', 'key', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', FLOAT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0.0),
    Field('Remove', 'remove', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
AlterClientQuotasRequest.EntryData._kw_fields = (
    Field('Entity', 'entity', ARRAY, STRUCT, AlterClientQuotasRequest.EntityData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Ops', 'ops', ARRAY, STRUCT, AlterClientQuotasRequest.OpData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterClientQuotasRequest._kw_fields = (
    Field('Entries', 'entries', ARRAY, STRUCT, AlterClientQuotasRequest.EntryData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ValidateOnly', 'validate_only', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
AlterClientQuotasResponse.EntityData._kw_fields = (
    Field('EntityType', 'entity_type', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('EntityName', 'entity_name', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
)
AlterClientQuotasResponse.EntryData._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
    Field('Entity', 'entity', ARRAY, STRUCT, AlterClientQuotasResponse.EntityData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterClientQuotasResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Entries', 'entries', ARRAY, STRUCT, AlterClientQuotasResponse.EntryData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterConfigsRequest.AlterableConfig._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', STRING, 0, None, (0, 2), (0, 2), -1, (1, 0), None, False, ''),
)
AlterConfigsRequest.AlterConfigsResource._kw_fields = (
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Configs', 'configs', ARRAY, STRUCT, AlterConfigsRequest.AlterableConfig, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterConfigsRequest._kw_fields = (
    Field('Resources', 'resources', ARRAY, STRUCT, AlterConfigsRequest.AlterConfigsResource, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ValidateOnly', 'validate_only', BOOL, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, False),
)
AlterConfigsResponse.AlterConfigsResourceResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 2), (0, 2), -1, (1, 0), None, False, ''),
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
)
AlterConfigsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('Responses', 'responses', ARRAY, STRUCT, AlterConfigsResponse.AlterConfigsResourceResponse, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionReassignmentsRequest.ReassignablePartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Replicas', 'replicas', ARRAY, INT32, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
AlterPartitionReassignmentsRequest.ReassignableTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AlterPartitionReassignmentsRequest.ReassignablePartition, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionReassignmentsRequest._kw_fields = (
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 60000),
    Field('Topics', 'topics', ARRAY, STRUCT, AlterPartitionReassignmentsRequest.ReassignableTopic, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionReassignmentsResponse.ReassignablePartitionResponse._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
)
AlterPartitionReassignmentsResponse.ReassignableTopicResponse._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AlterPartitionReassignmentsResponse.ReassignablePartitionResponse, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionReassignmentsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('Responses', 'responses', ARRAY, STRUCT, AlterPartitionReassignmentsResponse.ReassignableTopicResponse, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionRequest.BrokerState._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (3, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (3, 3), (1, 0), -1, (1, 0), None, False, -1),
)
AlterPartitionRequest.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('NewIsr', 'new_isr', ARRAY, INT32, None, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NewIsrWithEpochs', 'new_isr_with_epochs', ARRAY, STRUCT, AlterPartitionRequest.BrokerState, (3, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('LeaderRecoveryState', 'leader_recovery_state', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionEpoch', 'partition_epoch', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
AlterPartitionRequest.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (2, 3), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AlterPartitionRequest.PartitionData, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, AlterPartitionRequest.TopicData, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Isr', 'isr', ARRAY, INT32, None, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('LeaderRecoveryState', 'leader_recovery_state', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, True, 0),
    Field('PartitionEpoch', 'partition_epoch', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
AlterPartitionResponse.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (2, 3), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AlterPartitionResponse.PartitionData, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterPartitionResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, AlterPartitionResponse.TopicData, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterReplicaLogDirsRequest.AlterReplicaLogDir._kw_fields = (
    Field('Path', 'path', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterReplicaLogDirsRequest._kw_fields = (
    Field('Dirs', 'dirs', ARRAY, STRUCT, AlterReplicaLogDirsRequest.AlterReplicaLogDir, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterReplicaLogDirsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('Results', 'results', ARRAY, STRUCT, AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterUserScramCredentialsRequest.ScramCredentialDeletion._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Mechanism', 'mechanism', INT8, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
AlterUserScramCredentialsRequest.ScramCredentialUpsertion._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Mechanism', 'mechanism', INT8, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Iterations', 'iterations', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Salt', 'salt', BYTES, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, b''),
    Field('SaltedPassword', 'salted_password', BYTES, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, b''),
)
AlterUserScramCredentialsRequest._kw_fields = (
    Field('Deletions', 'deletions', ARRAY, STRUCT, AlterUserScramCredentialsRequest.ScramCredentialDeletion, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Upsertions', 'upsertions', ARRAY, STRUCT, AlterUserScramCredentialsRequest.ScramCredentialUpsertion, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult._kw_fields = (
    Field('User', 'user', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
)
AlterUserScramCredentialsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Results', 'results', ARRAY, STRUCT, AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ApiVersionsRequest._kw_fields = (
    Field('ClientSoftwareName', 'client_software_name', STRING, 0, None, (3, 4), (1, 0), -1, (1, 0), None, True, ''),
    Field('ClientSoftwareVersion', 'client_software_version', STRING, 0, None, (3, 4), (1, 0), -1, (1, 0), None, True, ''),
)
ApiVersionsResponse.ApiVersion._kw_fields = (
    Field('ApiKey', 'api_key', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('MinVersion', 'min_version', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxVersion', 'max_version', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
ApiVersionsResponse.SupportedFeatureKey._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('MinVersion', 'min_version', INT16, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxVersion', 'max_version', INT16, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, 0),
)
ApiVersionsResponse.FinalizedFeatureKey._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('MaxVersionLevel', 'max_version_level', INT16, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('MinVersionLevel', 'min_version_level', INT16, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, 0),
)
ApiVersionsResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ApiKeys', 'api_keys', ARRAY, STRUCT, ApiVersionsResponse.ApiVersion, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 4), (1, 0), -1, (1, 0), None, True, 0),
    Field('SupportedFeatures', 'supported_features', ARRAY, STRUCT, ApiVersionsResponse.SupportedFeatureKey, (3, 4), (1, 0), 0, (3, 4), None, True, UNSET),
    Field('FinalizedFeaturesEpoch', 'finalized_features_epoch', INT64, 0, None, (3, 4), (1, 0), 1, (3, 4), None, True, -1),
    Field('FinalizedFeatures', 'finalized_features', ARRAY, STRUCT, ApiVersionsResponse.FinalizedFeatureKey, (3, 4), (1, 0), 2, (3, 4), None, True, UNSET),
    Field('ZkMigrationReady', 'zk_migration_ready', BOOL, 0, None, (3, 4), (1, 0), 3, (3, 4), None, True, False),
)
AssignReplicasToDirsRequest.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
AssignReplicasToDirsRequest.TopicData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AssignReplicasToDirsRequest.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AssignReplicasToDirsRequest.DirectoryData._kw_fields = (
    Field('Id', 'id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Topics', 'topics', ARRAY, STRUCT, AssignReplicasToDirsRequest.TopicData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AssignReplicasToDirsRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
    Field('Directories', 'directories', ARRAY, STRUCT, AssignReplicasToDirsRequest.DirectoryData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AssignReplicasToDirsResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
AssignReplicasToDirsResponse.TopicData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, AssignReplicasToDirsResponse.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AssignReplicasToDirsResponse.DirectoryData._kw_fields = (
    Field('Id', 'id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Topics', 'topics', ARRAY, STRUCT, AssignReplicasToDirsResponse.TopicData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
AssignReplicasToDirsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Directories', 'directories', ARRAY, STRUCT, AssignReplicasToDirsResponse.DirectoryData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
BeginQuorumEpochRequest.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (1, 1), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
BeginQuorumEpochRequest.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, BeginQuorumEpochRequest.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
BeginQuorumEpochRequest.LeaderEndpoint._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
)
BeginQuorumEpochRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('VoterId', 'voter_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, True, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, BeginQuorumEpochRequest.TopicData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('LeaderEndpoints', 'leader_endpoints', ARRAY, STRUCT, BeginQuorumEpochRequest.LeaderEndpoint, (1, 1), (1, 0), -1, (1, 0), None, True, UNSET),
)
BeginQuorumEpochResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
BeginQuorumEpochResponse.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, BeginQuorumEpochResponse.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
BeginQuorumEpochResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
)
BeginQuorumEpochResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, BeginQuorumEpochResponse.TopicData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, BeginQuorumEpochResponse.NodeEndpoint, (1, 1), (1, 0), 0, (1, 1), None, False, UNSET),
)
BrokerHeartbeatRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, -1),
    Field('CurrentMetadataOffset', 'current_metadata_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('WantFence', 'want_fence', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
    Field('WantShutDown', 'want_shut_down', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
    Field('OfflineLogDirs', 'offline_log_dirs', ARRAY, UUID, None, (1, 1), (1, 0), 0, (1, 1), None, False, UNSET),
)
BrokerHeartbeatResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('IsCaughtUp', 'is_caught_up', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
    Field('IsFenced', 'is_fenced', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, True),
    Field('ShouldShutDown', 'should_shut_down', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
BrokerRegistrationRequest.Listener._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('SecurityProtocol', 'security_protocol', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
BrokerRegistrationRequest.Feature._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('MinSupportedVersion', 'min_supported_version', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxSupportedVersion', 'max_supported_version', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
BrokerRegistrationRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('IncarnationId', 'incarnation_id', UUID, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Listeners', 'listeners', ARRAY, STRUCT, BrokerRegistrationRequest.Listener, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Features', 'features', ARRAY, STRUCT, BrokerRegistrationRequest.Feature, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Rack', 'rack', STRING, 0, None, (0, 4), (0, 4), -1, (1, 0), None, False, ''),
    Field('IsMigratingZkBroker', 'is_migrating_zk_broker', BOOL, 0, None, (1, 4), (1, 0), -1, (1, 0), None, False, False),
    Field('LogDirs', 'log_dirs', ARRAY, UUID, None, (2, 4), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('PreviousBrokerEpoch', 'previous_broker_epoch', INT64, 0, None, (3, 4), (1, 0), -1, (1, 0), None, True, -1),
)
BrokerRegistrationResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, -1),
)
ConsumerGroupDescribeRequest._kw_fields = (
    Field('GroupIds', 'group_ids', ARRAY, STRING, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('IncludeAuthorizedOperations', 'include_authorized_operations', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
)
ConsumerGroupDescribeResponse.TopicPartitions._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupDescribeResponse.Assignment._kw_fields = (
    Field('TopicPartitions', 'topic_partitions', ARRAY, STRUCT, ConsumerGroupDescribeResponse.TopicPartitions, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupDescribeResponse.Member._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('InstanceId', 'instance_id', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('RackId', 'rack_id', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ClientId', 'client_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('ClientHost', 'client_host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('SubscribedTopicNames', 'subscribed_topic_names', ARRAY, STRING, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('SubscribedTopicRegex', 'subscribed_topic_regex', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('Assignment', 'assignment', STRUCT, 0, ConsumerGroupDescribeResponse.Assignment, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TargetAssignment', 'target_assignment', STRUCT, 0, ConsumerGroupDescribeResponse.Assignment, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupDescribeResponse.DescribedGroup._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupState', 'group_state', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupEpoch', 'group_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('AssignmentEpoch', 'assignment_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('AssignorName', 'assignor_name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Members', 'members', ARRAY, STRUCT, ConsumerGroupDescribeResponse.Member, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('AuthorizedOperations', 'authorized_operations', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -2147483648),
)
ConsumerGroupDescribeResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Groups', 'groups', ARRAY, STRUCT, ConsumerGroupDescribeResponse.DescribedGroup, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupHeartbeatRequest.TopicPartitions._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupHeartbeatRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('InstanceId', 'instance_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('RackId', 'rack_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('RebalanceTimeoutMs', 'rebalance_timeout_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, -1),
    Field('SubscribedTopicNames', 'subscribed_topic_names', ARRAY, STRING, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('SubscribedTopicRegex', 'subscribed_topic_regex', STRING, 0, None, (1, 1), (1, 1), -1, (1, 0), None, False, None),
    Field('ServerAssignor', 'server_assignor', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('TopicPartitions', 'topic_partitions', ARRAY, STRUCT, ConsumerGroupHeartbeatRequest.TopicPartitions, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
ConsumerGroupHeartbeatResponse.TopicPartitions._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupHeartbeatResponse.Assignment._kw_fields = (
    Field('TopicPartitions', 'topic_partitions', ARRAY, STRUCT, ConsumerGroupHeartbeatResponse.TopicPartitions, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerGroupHeartbeatResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('HeartbeatIntervalMs', 'heartbeat_interval_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Assignment', 'assignment', STRUCT, 0, ConsumerGroupHeartbeatResponse.Assignment, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
ConsumerProtocolAssignment.TopicPartition._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerProtocolAssignment._kw_fields = (
    Field('AssignedPartitions', 'assigned_partitions', ARRAY, STRUCT, ConsumerProtocolAssignment.TopicPartition, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('UserData', 'user_data', BYTES, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, None),
)
ConsumerProtocolSubscription.TopicPartition._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (1, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
ConsumerProtocolSubscription._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRING, None, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('UserData', 'user_data', BYTES, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, None),
    Field('OwnedPartitions', 'owned_partitions', ARRAY, STRUCT, ConsumerProtocolSubscription.TopicPartition, (1, 3), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('GenerationId', 'generation_id', INT32, 0, None, (2, 3), (1, 0), -1, (1, 0), None, True, -1),
    Field('RackId', 'rack_id', STRING, 0, None, (3, 3), (3, 3), -1, (1, 0), None, True, None),
)
ControlledShutdownRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (2, 3), (1, 0), -1, (1, 0), None, True, -1),
)
ControlledShutdownResponse.RemainingPartition._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
ControlledShutdownResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('RemainingPartitions', 'remaining_partitions', ARRAY, STRUCT, ControlledShutdownResponse.RemainingPartition, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
ControllerRegistrationRequest.Listener._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('SecurityProtocol', 'security_protocol', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ControllerRegistrationRequest.Feature._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('MinSupportedVersion', 'min_supported_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxSupportedVersion', 'max_supported_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ControllerRegistrationRequest._kw_fields = (
    Field('ControllerId', 'controller_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('IncarnationId', 'incarnation_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('ZkMigrationReady', 'zk_migration_ready', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
    Field('Listeners', 'listeners', ARRAY, STRUCT, ControllerRegistrationRequest.Listener, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Features', 'features', ARRAY, STRUCT, ControllerRegistrationRequest.Feature, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ControllerRegistrationResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
)
CreateAclsRequest.AclCreation._kw_fields = (
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('ResourcePatternType', 'resource_pattern_type', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, 3),
    Field('Principal', 'principal', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Operation', 'operation', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PermissionType', 'permission_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
CreateAclsRequest._kw_fields = (
    Field('Creations', 'creations', ARRAY, STRUCT, CreateAclsRequest.AclCreation, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
CreateAclsResponse.AclCreationResult._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
)
CreateAclsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Results', 'results', ARRAY, STRUCT, CreateAclsResponse.AclCreationResult, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
CreateDelegationTokenRequest.CreatableRenewers._kw_fields = (
    Field('PrincipalType', 'principal_type', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PrincipalName', 'principal_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
)
CreateDelegationTokenRequest._kw_fields = (
    Field('OwnerPrincipalType', 'owner_principal_type', STRING, 0, None, (3, 3), (3, 3), -1, (1, 0), None, False, ''),
    Field('OwnerPrincipalName', 'owner_principal_name', STRING, 0, None, (3, 3), (3, 3), -1, (1, 0), None, False, ''),
    Field('Renewers', 'renewers', ARRAY, STRUCT, CreateDelegationTokenRequest.CreatableRenewers, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('MaxLifetimeMs', 'max_lifetime_ms', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
CreateDelegationTokenResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PrincipalType', 'principal_type', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PrincipalName', 'principal_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('TokenRequesterPrincipalType', 'token_requester_principal_type', STRING, 0, None, (3, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('TokenRequesterPrincipalName', 'token_requester_principal_name', STRING, 0, None, (3, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('IssueTimestampMs', 'issue_timestamp_ms', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ExpiryTimestampMs', 'expiry_timestamp_ms', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxTimestampMs', 'max_timestamp_ms', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('TokenId', 'token_id', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Hmac', 'hmac', BYTES, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, b''),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
CreatePartitionsRequest.CreatePartitionsAssignment._kw_fields = (
    Field('BrokerIds', 'broker_ids', ARRAY, INT32, None, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
CreatePartitionsRequest.CreatePartitionsTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Count', 'count', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Assignments', 'assignments', ARRAY, STRUCT, CreatePartitionsRequest.CreatePartitionsAssignment, (0, 3), (0, 3), -1, (1, 0), None, False, UNSET),
)
CreatePartitionsRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, CreatePartitionsRequest.CreatePartitionsTopic, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ValidateOnly', 'validate_only', BOOL, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, False),
)
CreatePartitionsResponse.CreatePartitionsTopicResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, None),
)
CreatePartitionsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Results', 'results', ARRAY, STRUCT, CreatePartitionsResponse.CreatePartitionsTopicResult, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
CreateTopicsRequest.CreatableReplicaAssignment._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerIds', 'broker_ids', ARRAY, INT32, None, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
CreateTopicsRequest.CreatableTopicConfig._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', STRING, 0, None, (0, 7), (0, 7), -1, (1, 0), None, False, ''),
)
CreateTopicsRequest.CreatableTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('NumPartitions', 'num_partitions', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('ReplicationFactor', 'replication_factor', INT16, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('Assignments', 'assignments', ARRAY, STRUCT, CreateTopicsRequest.CreatableReplicaAssignment, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Configs', 'configs', ARRAY, STRUCT, CreateTopicsRequest.CreatableTopicConfig, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
CreateTopicsRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, CreateTopicsRequest.CreatableTopic, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('timeoutMs', 'timeout_ms', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 60000),
    Field('validateOnly', 'validate_only', BOOL, 0, None, (1, 7), (1, 0), -1, (1, 0), None, False, False),
)
CreateTopicsResponse.CreatableTopicConfigs._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (5, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', STRING, 0, None, (5, 7), (5, 7), -1, (1, 0), None, False, ''),
    Field('ReadOnly', 'read_only', BOOL, 0, None, (5, 7), (1, 0), -1, (1, 0), None, False, False),
    Field('ConfigSource', 'config_source', INT8, 0, None, (5, 7), (1, 0), -1, (1, 0), None, True, -1),
    Field('IsSensitive', 'is_sensitive', BOOL, 0, None, (5, 7), (1, 0), -1, (1, 0), None, False, False),
)
CreateTopicsResponse.CreatableTopicResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (7, 7), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (1, 7), (1, 7), -1, (1, 0), None, True, ''),
    Field('TopicConfigErrorCode', 'topic_config_error_code', INT16, 0, None, (5, 7), (1, 0), 0, (5, 7), None, True, 0),
    Field('NumPartitions', 'num_partitions', INT32, 0, None, (5, 7), (1, 0), -1, (1, 0), None, True, -1),
    Field('ReplicationFactor', 'replication_factor', INT16, 0, None, (5, 7), (1, 0), -1, (1, 0), None, True, -1),
    Field('Configs', 'configs', ARRAY, STRUCT, CreateTopicsResponse.CreatableTopicConfigs, (5, 7), (5, 7), -1, (1, 0), None, True, UNSET),
)
CreateTopicsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (2, 7), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, CreateTopicsResponse.CreatableTopicResult, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
DefaultPrincipalData._kw_fields = (
    Field('Type', 'type', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('TokenAuthenticated', 'token_authenticated', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
)
DeleteAclsRequest.DeleteAclsFilter._kw_fields = (
    Field('ResourceTypeFilter', 'resource_type_filter', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceNameFilter', 'resource_name_filter', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('PatternTypeFilter', 'pattern_type_filter', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, 3),
    Field('PrincipalFilter', 'principal_filter', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('HostFilter', 'host_filter', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('Operation', 'operation', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PermissionType', 'permission_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteAclsRequest._kw_fields = (
    Field('Filters', 'filters', ARRAY, STRUCT, DeleteAclsRequest.DeleteAclsFilter, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteAclsResponse.DeleteAclsMatchingAcl._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PatternType', 'pattern_type', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, 3),
    Field('Principal', 'principal', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Operation', 'operation', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PermissionType', 'permission_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteAclsResponse.DeleteAclsFilterResult._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('MatchingAcls', 'matching_acls', ARRAY, STRUCT, DeleteAclsResponse.DeleteAclsMatchingAcl, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteAclsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('FilterResults', 'filter_results', ARRAY, STRUCT, DeleteAclsResponse.DeleteAclsFilterResult, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteGroupsRequest._kw_fields = (
    Field('GroupsNames', 'groups_names', ARRAY, STRING, None, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteGroupsResponse.DeletableGroupResult._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteGroupsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('Results', 'results', ARRAY, STRUCT, DeleteGroupsResponse.DeletableGroupResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteRecordsRequest.DeleteRecordsPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('Offset', 'offset', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteRecordsRequest.DeleteRecordsTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DeleteRecordsRequest.DeleteRecordsPartition, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteRecordsRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, DeleteRecordsRequest.DeleteRecordsTopic, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteRecordsResponse.DeleteRecordsPartitionResult._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('LowWatermark', 'low_watermark', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteRecordsResponse.DeleteRecordsTopicResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DeleteRecordsResponse.DeleteRecordsPartitionResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteRecordsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, DeleteRecordsResponse.DeleteRecordsTopicResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteShareGroupStateRequest.PartitionData._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteShareGroupStateRequest.DeleteStateData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DeleteShareGroupStateRequest.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteShareGroupStateRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, DeleteShareGroupStateRequest.DeleteStateData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteShareGroupStateResponse.PartitionResult._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
DeleteShareGroupStateResponse.DeleteStateResult._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DeleteShareGroupStateResponse.PartitionResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteShareGroupStateResponse._kw_fields = (
    Field('Results', 'results', ARRAY, STRUCT, DeleteShareGroupStateResponse.DeleteStateResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DeleteTopicsRequest.DeleteTopicState._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (6, 6), (6, 6), -1, (1, 0), None, False, None),
    Field('TopicId', 'topic_id', UUID, 0, None, (6, 6), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
)
DeleteTopicsRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, DeleteTopicsRequest.DeleteTopicState, (6, 6), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TopicNames', 'topic_names', ARRAY, STRING, None, (0, 5), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 6), (1, 0), -1, (1, 0), None, False, 0),
)
DeleteTopicsResponse.DeletableTopicResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 6), (6, 6), -1, (1, 0), None, False, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (6, 6), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 6), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (5, 6), (5, 6), -1, (1, 0), None, True, None),
)
DeleteTopicsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 6), (1, 0), -1, (1, 0), None, True, 0),
    Field('Responses', 'responses', ARRAY, STRUCT, DeleteTopicsResponse.DeletableTopicResult, (0, 6), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeAclsRequest._kw_fields = (
    Field('ResourceTypeFilter', 'resource_type_filter', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceNameFilter', 'resource_name_filter', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('PatternTypeFilter', 'pattern_type_filter', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, 3),
    Field('PrincipalFilter', 'principal_filter', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('HostFilter', 'host_filter', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('Operation', 'operation', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PermissionType', 'permission_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeAclsResponse.AclDescription._kw_fields = (
    Field('Principal', 'principal', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Operation', 'operation', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('PermissionType', 'permission_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeAclsResponse.DescribeAclsResource._kw_fields = (
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PatternType', 'pattern_type', INT8, 0, None, (1, 3), (1, 0), -1, (1, 0), None, False, 3),
    Field('Acls', 'acls', ARRAY, STRUCT, DescribeAclsResponse.AclDescription, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeAclsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 3), (0, 3), -1, (1, 0), None, False, ''),
    Field('Resources', 'resources', ARRAY, STRUCT, DescribeAclsResponse.DescribeAclsResource, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeClientQuotasRequest.ComponentData._kw_fields = (
    Field('EntityType', 'entity_type', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('MatchType', 'match_type', INT8, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Match', 'match', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
)
DescribeClientQuotasRequest._kw_fields = (
    Field('Components', 'components', ARRAY, STRUCT, DescribeClientQuotasRequest.ComponentData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Strict', 'strict', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
DescribeClientQuotasResponse.EntityData._kw_fields = (
    Field('EntityType', 'entity_type', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('EntityName', 'entity_name', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
)
DescribeClientQuotasResponse.ValueData._kw_fields = (
    Field('Key', 'key', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', FLOAT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0.0),
)
DescribeClientQuotasResponse.EntryData._kw_fields = (
    Field('Entity', 'entity', ARRAY, STRUCT, DescribeClientQuotasResponse.EntityData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Values', 'values', ARRAY, STRUCT, DescribeClientQuotasResponse.ValueData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeClientQuotasResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
    Field('Entries', 'entries', ARRAY, STRUCT, DescribeClientQuotasResponse.EntryData, (0, 1), (0, 1), -1, (1, 0), None, False, UNSET),
)
DescribeClusterRequest._kw_fields = (
    Field('IncludeClusterAuthorizedOperations', 'include_cluster_authorized_operations', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
    Field('EndpointType', 'endpoint_type', INT8, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 1),
)
DescribeClusterResponse.DescribeClusterBroker._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Rack', 'rack', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
DescribeClusterResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('EndpointType', 'endpoint_type', INT8, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 1),
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('ControllerId', 'controller_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, -1),
    Field('Brokers', 'brokers', ARRAY, STRUCT, DescribeClusterResponse.DescribeClusterBroker, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ClusterAuthorizedOperations', 'cluster_authorized_operations', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, -2147483648),
)
DescribeConfigsRequest.DescribeConfigsResource._kw_fields = (
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('ConfigurationKeys', 'configuration_keys', ARRAY, STRING, None, (0, 4), (0, 4), -1, (1, 0), None, False, UNSET),
)
DescribeConfigsRequest._kw_fields = (
    Field('Resources', 'resources', ARRAY, STRUCT, DescribeConfigsRequest.DescribeConfigsResource, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('IncludeSynonyms', 'include_synonyms', BOOL, 0, None, (1, 4), (1, 0), -1, (1, 0), None, False, False),
    Field('IncludeDocumentation', 'include_documentation', BOOL, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, False),
)
DescribeConfigsResponse.DescribeConfigsSynonym._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (1, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', STRING, 0, None, (1, 4), (1, 4), -1, (1, 0), None, False, ''),
    Field('Source', 'source', INT8, 0, None, (1, 4), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeConfigsResponse.DescribeConfigsResourceResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Value', 'value', STRING, 0, None, (0, 4), (0, 4), -1, (1, 0), None, False, ''),
    Field('ReadOnly', 'read_only', BOOL, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, False),
    Field('IsDefault', 'is_default', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
    Field('ConfigSource', 'config_source', INT8, 0, None, (1, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('IsSensitive', 'is_sensitive', BOOL, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, False),
    Field('Synonyms', 'synonyms', ARRAY, STRUCT, DescribeConfigsResponse.DescribeConfigsSynonym, (1, 4), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('ConfigType', 'config_type', INT8, 0, None, (3, 4), (1, 0), -1, (1, 0), None, True, 0),
    Field('Documentation', 'documentation', STRING, 0, None, (3, 4), (3, 4), -1, (1, 0), None, True, ''),
)
DescribeConfigsResponse.DescribeConfigsResult._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 4), (0, 4), -1, (1, 0), None, False, ''),
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Configs', 'configs', ARRAY, STRUCT, DescribeConfigsResponse.DescribeConfigsResourceResult, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeConfigsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('Results', 'results', ARRAY, STRUCT, DescribeConfigsResponse.DescribeConfigsResult, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeDelegationTokenRequest.DescribeDelegationTokenOwner._kw_fields = (
    Field('PrincipalType', 'principal_type', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PrincipalName', 'principal_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
)
DescribeDelegationTokenRequest._kw_fields = (
    Field('Owners', 'owners', ARRAY, STRUCT, DescribeDelegationTokenRequest.DescribeDelegationTokenOwner, (0, 3), (0, 3), -1, (1, 0), None, False, UNSET),
)
DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer._kw_fields = (
    Field('PrincipalType', 'principal_type', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PrincipalName', 'principal_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
)
DescribeDelegationTokenResponse.DescribedDelegationToken._kw_fields = (
    Field('PrincipalType', 'principal_type', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('PrincipalName', 'principal_name', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('TokenRequesterPrincipalType', 'token_requester_principal_type', STRING, 0, None, (3, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('TokenRequesterPrincipalName', 'token_requester_principal_name', STRING, 0, None, (3, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('IssueTimestamp', 'issue_timestamp', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ExpiryTimestamp', 'expiry_timestamp', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxTimestamp', 'max_timestamp', INT64, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('TokenId', 'token_id', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Hmac', 'hmac', BYTES, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, b''),
    Field('Renewers', 'renewers', ARRAY, STRUCT, DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeDelegationTokenResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Tokens', 'tokens', ARRAY, STRUCT, DescribeDelegationTokenResponse.DescribedDelegationToken, (0, 3), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeGroupsRequest._kw_fields = (
    Field('Groups', 'groups', ARRAY, STRING, None, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('IncludeAuthorizedOperations', 'include_authorized_operations', BOOL, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, False),
)
DescribeGroupsResponse.DescribedGroupMember._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (4, 5), (4, 5), -1, (1, 0), None, True, None),
    Field('ClientId', 'client_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ClientHost', 'client_host', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberMetadata', 'member_metadata', BYTES, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, b''),
    Field('MemberAssignment', 'member_assignment', BYTES, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, b''),
)
DescribeGroupsResponse.DescribedGroup._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('GroupId', 'group_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupState', 'group_state', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProtocolType', 'protocol_type', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProtocolData', 'protocol_data', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('Members', 'members', ARRAY, STRUCT, DescribeGroupsResponse.DescribedGroupMember, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('AuthorizedOperations', 'authorized_operations', INT32, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, -2147483648),
)
DescribeGroupsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 5), (1, 0), -1, (1, 0), None, True, 0),
    Field('Groups', 'groups', ARRAY, STRUCT, DescribeGroupsResponse.DescribedGroup, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeLogDirsRequest.DescribableLogDirTopic._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeLogDirsRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeLogDirsRequest.DescribableLogDirTopic, (0, 4), (0, 4), -1, (1, 0), None, False, UNSET),
)
DescribeLogDirsResponse.DescribeLogDirsPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionSize', 'partition_size', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('OffsetLag', 'offset_lag', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('IsFutureKey', 'is_future_key', BOOL, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, False),
)
DescribeLogDirsResponse.DescribeLogDirsTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DescribeLogDirsResponse.DescribeLogDirsPartition, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeLogDirsResponse.DescribeLogDirsResult._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('LogDir', 'log_dir', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeLogDirsResponse.DescribeLogDirsTopic, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TotalBytes', 'total_bytes', INT64, 0, None, (4, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('UsableBytes', 'usable_bytes', INT64, 0, None, (4, 4), (1, 0), -1, (1, 0), None, True, -1),
)
DescribeLogDirsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (3, 4), (1, 0), -1, (1, 0), None, True, 0),
    Field('Results', 'results', ARRAY, STRUCT, DescribeLogDirsResponse.DescribeLogDirsResult, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeProducersRequest.TopicRequest._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndexes', 'partition_indexes', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeProducersRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeProducersRequest.TopicRequest, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeProducersResponse.ProducerState._kw_fields = (
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastSequence', 'last_sequence', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
    Field('LastTimestamp', 'last_timestamp', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
    Field('CoordinatorEpoch', 'coordinator_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentTxnStartOffset', 'current_txn_start_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
)
DescribeProducersResponse.PartitionResponse._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('ActiveProducers', 'active_producers', ARRAY, STRUCT, DescribeProducersResponse.ProducerState, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeProducersResponse.TopicResponse._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DescribeProducersResponse.PartitionResponse, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeProducersResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeProducersResponse.TopicResponse, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeQuorumRequest.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeQuorumRequest.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DescribeQuorumRequest.PartitionData, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeQuorumRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeQuorumRequest.TopicData, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeQuorumResponse.ReplicaState._kw_fields = (
    Field('ReplicaId', 'replica_id', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ReplicaDirectoryId', 'replica_directory_id', UUID, 0, None, (2, 2), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('LogEndOffset', 'log_end_offset', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastFetchTimestamp', 'last_fetch_timestamp', INT64, 0, None, (1, 2), (1, 0), -1, (1, 0), None, True, -1),
    Field('LastCaughtUpTimestamp', 'last_caught_up_timestamp', INT64, 0, None, (1, 2), (1, 0), -1, (1, 0), None, True, -1),
)
DescribeQuorumResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (2, 2), (2, 2), -1, (1, 0), None, True, ''),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('HighWatermark', 'high_watermark', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentVoters', 'current_voters', ARRAY, STRUCT, DescribeQuorumResponse.ReplicaState, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Observers', 'observers', ARRAY, STRUCT, DescribeQuorumResponse.ReplicaState, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeQuorumResponse.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DescribeQuorumResponse.PartitionData, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeQuorumResponse.Listener._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (2, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (2, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (2, 2), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeQuorumResponse.Node._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (2, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('Listeners', 'listeners', ARRAY, STRUCT, DescribeQuorumResponse.Listener, (2, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeQuorumResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (2, 2), (2, 2), -1, (1, 0), None, True, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeQuorumResponse.TopicData, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Nodes', 'nodes', ARRAY, STRUCT, DescribeQuorumResponse.Node, (2, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeTopicPartitionsRequest.TopicRequest._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
)
DescribeTopicPartitionsRequest.Cursor._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeTopicPartitionsRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeTopicPartitionsRequest.TopicRequest, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ResponsePartitionLimit', 'response_partition_limit', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 2000),
    Field('Cursor', 'cursor', STRUCT, 0, DescribeTopicPartitionsRequest.Cursor, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, -1),
    Field('ReplicaNodes', 'replica_nodes', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('IsrNodes', 'isr_nodes', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('EligibleLeaderReplicas', 'eligible_leader_replicas', ARRAY, INT32, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('LastKnownElr', 'last_known_elr', ARRAY, INT32, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('OfflineReplicas', 'offline_replicas', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, True, UNSET),
)
DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Name', 'name', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('IsInternal', 'is_internal', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, False),
    Field('Partitions', 'partitions', ARRAY, STRUCT, DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TopicAuthorizedOperations', 'topic_authorized_operations', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -2147483648),
)
DescribeTopicPartitionsResponse.Cursor._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeTopicPartitionsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NextCursor', 'next_cursor', STRUCT, 0, DescribeTopicPartitionsResponse.Cursor, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
DescribeTransactionsRequest._kw_fields = (
    Field('TransactionalIds', 'transactional_ids', ARRAY, STRING, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeTransactionsResponse.TopicData._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeTransactionsResponse.TransactionState._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('TransactionState', 'transaction_state', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('TransactionTimeoutMs', 'transaction_timeout_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('TransactionStartTimeMs', 'transaction_start_time_ms', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, DescribeTransactionsResponse.TopicData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeTransactionsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('TransactionStates', 'transaction_states', ARRAY, STRUCT, DescribeTransactionsResponse.TransactionState, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeUserScramCredentialsRequest.UserName._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
)
DescribeUserScramCredentialsRequest._kw_fields = (
    Field('Users', 'users', ARRAY, STRUCT, DescribeUserScramCredentialsRequest.UserName, (0, 0), (0, 0), -1, (1, 0), None, False, UNSET),
)
DescribeUserScramCredentialsResponse.CredentialInfo._kw_fields = (
    Field('Mechanism', 'mechanism', INT8, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Iterations', 'iterations', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult._kw_fields = (
    Field('User', 'user', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('CredentialInfos', 'credential_infos', ARRAY, STRUCT, DescribeUserScramCredentialsResponse.CredentialInfo, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
DescribeUserScramCredentialsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('Results', 'results', ARRAY, STRUCT, DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ElectLeadersRequest.TopicPartitions._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
ElectLeadersRequest._kw_fields = (
    Field('ElectionType', 'election_type', INT8, 0, None, (1, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('TopicPartitions', 'topic_partitions', ARRAY, STRUCT, ElectLeadersRequest.TopicPartitions, (0, 2), (0, 2), -1, (1, 0), None, False, UNSET),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 60000),
)
ElectLeadersResponse.PartitionResult._kw_fields = (
    Field('PartitionId', 'partition_id', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 2), (0, 2), -1, (1, 0), None, False, ''),
)
ElectLeadersResponse.ReplicaElectionResult._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionResult', 'partition_result', ARRAY, STRUCT, ElectLeadersResponse.PartitionResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
ElectLeadersResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (1, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ReplicaElectionResults', 'replica_election_results', ARRAY, STRUCT, ElectLeadersResponse.ReplicaElectionResult, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
EndQuorumEpochRequest.ReplicaInfo._kw_fields = (
    Field('CandidateId', 'candidate_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('CandidateDirectoryId', 'candidate_directory_id', UUID, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
)
EndQuorumEpochRequest.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('PreferredSuccessors', 'preferred_successors', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('PreferredCandidates', 'preferred_candidates', ARRAY, STRUCT, EndQuorumEpochRequest.ReplicaInfo, (1, 1), (1, 0), -1, (1, 0), None, True, UNSET),
)
EndQuorumEpochRequest.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, EndQuorumEpochRequest.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
EndQuorumEpochRequest.LeaderEndpoint._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
)
EndQuorumEpochRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('Topics', 'topics', ARRAY, STRUCT, EndQuorumEpochRequest.TopicData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('LeaderEndpoints', 'leader_endpoints', ARRAY, STRUCT, EndQuorumEpochRequest.LeaderEndpoint, (1, 1), (1, 0), -1, (1, 0), None, True, UNSET),
)
EndQuorumEpochResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
EndQuorumEpochResponse.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, EndQuorumEpochResponse.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
EndQuorumEpochResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
)
EndQuorumEpochResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, EndQuorumEpochResponse.TopicData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, EndQuorumEpochResponse.NodeEndpoint, (1, 1), (1, 0), 0, (1, 1), None, False, UNSET),
)
EndTxnRequest._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('Committed', 'committed', BOOL, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, False),
)
EndTxnResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerId', 'producer_id', INT64, 0, None, (5, 5), (1, 0), -1, (1, 0), None, True, -1),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (5, 5), (1, 0), -1, (1, 0), None, True, -1),
)
EnvelopeRequest._kw_fields = (
    Field('RequestData', 'request_data', BYTES, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, b''),
    Field('RequestPrincipal', 'request_principal', BYTES, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, b''),
    Field('ClientHostAddress', 'client_host_address', BYTES, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, b''),
)
EnvelopeResponse._kw_fields = (
    Field('ResponseData', 'response_data', BYTES, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ExpireDelegationTokenRequest._kw_fields = (
    Field('Hmac', 'hmac', BYTES, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, b''),
    Field('ExpiryTimePeriodMs', 'expiry_time_period_ms', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
ExpireDelegationTokenResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ExpiryTimestampMs', 'expiry_timestamp_ms', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
FetchRequest.ReplicaState._kw_fields = (
    Field('ReplicaId', 'replica_id', INT32, 0, None, (15, 17), (1, 0), -1, (1, 0), None, False, -1),
    Field('ReplicaEpoch', 'replica_epoch', INT64, 0, None, (15, 17), (1, 0), -1, (1, 0), None, False, -1),
)
FetchRequest.FetchPartition._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentLeaderEpoch', 'current_leader_epoch', INT32, 0, None, (9, 17), (1, 0), -1, (1, 0), None, True, -1),
    Field('FetchOffset', 'fetch_offset', INT64, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastFetchedEpoch', 'last_fetched_epoch', INT32, 0, None, (12, 17), (1, 0), -1, (1, 0), None, False, -1),
    Field('LogStartOffset', 'log_start_offset', INT64, 0, None, (5, 17), (1, 0), -1, (1, 0), None, True, -1),
    Field('PartitionMaxBytes', 'partition_max_bytes', INT32, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('ReplicaDirectoryId', 'replica_directory_id', UUID, 0, None, (17, 17), (1, 0), 0, (17, 17), None, True, ZERO_UUID),
)
FetchRequest.FetchTopic._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 12), (1, 0), -1, (1, 0), None, True, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (13, 17), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, FetchRequest.FetchPartition, (0, 17), (1, 0), -1, (1, 0), None, False, UNSET),
)
FetchRequest.ForgottenTopic._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (7, 12), (1, 0), -1, (1, 0), None, True, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (13, 17), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (7, 17), (1, 0), -1, (1, 0), None, False, UNSET),
)
FetchRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (12, 17), (12, 17), 0, (12, 17), None, True, None),
    Field('ReplicaId', 'replica_id', INT32, 0, None, (0, 14), (1, 0), -1, (1, 0), None, False, -1),
    Field('ReplicaState', 'replica_state', STRUCT, 0, FetchRequest.ReplicaState, (15, 17), (1, 0), 1, (15, 17), None, False, UNSET),
    Field('MaxWaitMs', 'max_wait_ms', INT32, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('MinBytes', 'min_bytes', INT32, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxBytes', 'max_bytes', INT32, 0, None, (3, 17), (1, 0), -1, (1, 0), None, True, 2147483647),
    Field('IsolationLevel', 'isolation_level', INT8, 0, None, (4, 17), (1, 0), -1, (1, 0), None, True, 0),
    Field('SessionId', 'session_id', INT32, 0, None, (7, 17), (1, 0), -1, (1, 0), None, True, 0),
    Field('SessionEpoch', 'session_epoch', INT32, 0, None, (7, 17), (1, 0), -1, (1, 0), None, True, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, FetchRequest.FetchTopic, (0, 17), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ForgottenTopicsData', 'forgotten_topics_data', ARRAY, STRUCT, FetchRequest.ForgottenTopic, (7, 17), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('RackId', 'rack_id', STRING, 0, None, (11, 17), (1, 0), -1, (1, 0), None, True, ''),
)
FetchResponse.EpochEndOffset._kw_fields = (
    Field('Epoch', 'epoch', INT32, 0, None, (12, 17), (1, 0), -1, (1, 0), None, False, -1),
    Field('EndOffset', 'end_offset', INT64, 0, None, (12, 17), (1, 0), -1, (1, 0), None, False, -1),
)
FetchResponse.LeaderIdAndEpoch._kw_fields = (
    Field('LeaderId', 'leader_id', INT32, 0, None, (12, 17), (1, 0), -1, (1, 0), None, False, -1),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (12, 17), (1, 0), -1, (1, 0), None, False, -1),
)
FetchResponse.SnapshotId._kw_fields = (
    Field('EndOffset', 'end_offset', INT64, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, -1),
    Field('Epoch', 'epoch', INT32, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, -1),
)
FetchResponse.AbortedTransaction._kw_fields = (
    Field('ProducerId', 'producer_id', INT64, 0, None, (4, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('FirstOffset', 'first_offset', INT64, 0, None, (4, 17), (1, 0), -1, (1, 0), None, False, 0),
)
FetchResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('HighWatermark', 'high_watermark', INT64, 0, None, (0, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastStableOffset', 'last_stable_offset', INT64, 0, None, (4, 17), (1, 0), -1, (1, 0), None, True, -1),
    Field('LogStartOffset', 'log_start_offset', INT64, 0, None, (5, 17), (1, 0), -1, (1, 0), None, True, -1),
    Field('DivergingEpoch', 'diverging_epoch', STRUCT, 0, FetchResponse.EpochEndOffset, (12, 17), (1, 0), 0, (12, 17), None, False, UNSET),
    Field('CurrentLeader', 'current_leader', STRUCT, 0, FetchResponse.LeaderIdAndEpoch, (12, 17), (1, 0), 1, (12, 17), None, False, UNSET),
    Field('SnapshotId', 'snapshot_id', STRUCT, 0, FetchResponse.SnapshotId, (12, 17), (1, 0), 2, (12, 17), None, False, UNSET),
    Field('AbortedTransactions', 'aborted_transactions', ARRAY, STRUCT, FetchResponse.AbortedTransaction, (4, 17), (4, 17), -1, (1, 0), None, True, UNSET),
    Field('PreferredReadReplica', 'preferred_read_replica', INT32, 0, None, (11, 17), (1, 0), -1, (1, 0), None, False, -1),
    Field('Records', 'records', RECORDS, 0, None, (0, 17), (0, 17), -1, (1, 0), None, False, None),
)
FetchResponse.FetchableTopicResponse._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 12), (1, 0), -1, (1, 0), None, True, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (13, 17), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, FetchResponse.PartitionData, (0, 17), (1, 0), -1, (1, 0), None, False, UNSET),
)
FetchResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (16, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (16, 17), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (16, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('Rack', 'rack', STRING, 0, None, (16, 17), (16, 17), -1, (1, 0), None, False, None),
)
FetchResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 17), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (7, 17), (1, 0), -1, (1, 0), None, True, 0),
    Field('SessionId', 'session_id', INT32, 0, None, (7, 17), (1, 0), -1, (1, 0), None, False, 0),
    Field('Responses', 'responses', ARRAY, STRUCT, FetchResponse.FetchableTopicResponse, (0, 17), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, FetchResponse.NodeEndpoint, (16, 17), (1, 0), 0, (16, 17), None, False, UNSET),
)
FetchSnapshotRequest.SnapshotId._kw_fields = (
    Field('EndOffset', 'end_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Epoch', 'epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
FetchSnapshotRequest.PartitionSnapshot._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentLeaderEpoch', 'current_leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('SnapshotId', 'snapshot_id', STRUCT, 0, FetchSnapshotRequest.SnapshotId, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Position', 'position', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ReplicaDirectoryId', 'replica_directory_id', UUID, 0, None, (1, 1), (1, 0), 0, (1, 1), None, True, ZERO_UUID),
)
FetchSnapshotRequest.TopicSnapshot._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, FetchSnapshotRequest.PartitionSnapshot, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
FetchSnapshotRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 1), (0, 1), 0, (0, 1), None, False, None),
    Field('ReplicaId', 'replica_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, -1),
    Field('MaxBytes', 'max_bytes', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 2147483647),
    Field('Topics', 'topics', ARRAY, STRUCT, FetchSnapshotRequest.TopicSnapshot, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
FetchSnapshotResponse.SnapshotId._kw_fields = (
    Field('EndOffset', 'end_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Epoch', 'epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
FetchSnapshotResponse.LeaderIdAndEpoch._kw_fields = (
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
FetchSnapshotResponse.PartitionSnapshot._kw_fields = (
    Field('Index', 'index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('SnapshotId', 'snapshot_id', STRUCT, 0, FetchSnapshotResponse.SnapshotId, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('CurrentLeader', 'current_leader', STRUCT, 0, FetchSnapshotResponse.LeaderIdAndEpoch, (0, 1), (1, 0), 0, (0, 1), None, False, UNSET),
    Field('Size', 'size', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Position', 'position', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('UnalignedRecords', 'unaligned_records', RECORDS, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, None),
)
FetchSnapshotResponse.TopicSnapshot._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, FetchSnapshotResponse.PartitionSnapshot, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
FetchSnapshotResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
)
FetchSnapshotResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, FetchSnapshotResponse.TopicSnapshot, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, FetchSnapshotResponse.NodeEndpoint, (1, 1), (1, 0), 0, (1, 1), None, False, UNSET),
)
FindCoordinatorRequest._kw_fields = (
    Field('Key', 'key', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('KeyType', 'key_type', INT8, 0, None, (1, 6), (1, 0), -1, (1, 0), None, False, 0),
    Field('CoordinatorKeys', 'coordinator_keys', ARRAY, STRING, None, (4, 6), (1, 0), -1, (1, 0), None, False, UNSET),
)
FindCoordinatorResponse.Coordinator._kw_fields = (
    Field('Key', 'key', STRING, 0, None, (4, 6), (1, 0), -1, (1, 0), None, False, ''),
    Field('NodeId', 'node_id', INT32, 0, None, (4, 6), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (4, 6), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (4, 6), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (4, 6), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (4, 6), (4, 6), -1, (1, 0), None, True, ''),
)
FindCoordinatorResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 6), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (1, 3), (1, 3), -1, (1, 0), None, True, ''),
    Field('NodeId', 'node_id', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 3), (1, 0), -1, (1, 0), None, False, 0),
    Field('Coordinators', 'coordinators', ARRAY, STRUCT, FindCoordinatorResponse.Coordinator, (4, 6), (1, 0), -1, (1, 0), None, False, UNSET),
)
GetTelemetrySubscriptionsRequest._kw_fields = (
    Field('ClientInstanceId', 'client_instance_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
)
GetTelemetrySubscriptionsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ClientInstanceId', 'client_instance_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('SubscriptionId', 'subscription_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('AcceptedCompressionTypes', 'accepted_compression_types', ARRAY, INT8, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('PushIntervalMs', 'push_interval_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('TelemetryMaxBytes', 'telemetry_max_bytes', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('DeltaTemporality', 'delta_temporality', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
    Field('RequestedMetrics', 'requested_metrics', ARRAY, STRING, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
HeartbeatRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('GenerationId', 'generation_id', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (3, 4), (3, 4), -1, (1, 0), None, False, None),
)
HeartbeatResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 4), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
IncrementalAlterConfigsRequest.AlterableConfig._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('ConfigOperation', 'config_operation', INT8, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Value', 'value', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
)
IncrementalAlterConfigsRequest.AlterConfigsResource._kw_fields = (
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Configs', 'configs', ARRAY, STRUCT, IncrementalAlterConfigsRequest.AlterableConfig, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
IncrementalAlterConfigsRequest._kw_fields = (
    Field('Resources', 'resources', ARRAY, STRUCT, IncrementalAlterConfigsRequest.AlterConfigsResource, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ValidateOnly', 'validate_only', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
IncrementalAlterConfigsResponse.AlterConfigsResourceResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
    Field('ResourceType', 'resource_type', INT8, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ResourceName', 'resource_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
)
IncrementalAlterConfigsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Responses', 'responses', ARRAY, STRUCT, IncrementalAlterConfigsResponse.AlterConfigsResourceResponse, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
InitProducerIdRequest._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (0, 5), (0, 5), -1, (1, 0), None, False, ''),
    Field('TransactionTimeoutMs', 'transaction_timeout_ms', INT32, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerId', 'producer_id', INT64, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, -1),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, -1),
)
InitProducerIdResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 5), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, -1),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
)
InitializeShareGroupStateRequest.PartitionData._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StateEpoch', 'state_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StartOffset', 'start_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
InitializeShareGroupStateRequest.InitializeStateData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, InitializeShareGroupStateRequest.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
InitializeShareGroupStateRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, InitializeShareGroupStateRequest.InitializeStateData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
InitializeShareGroupStateResponse.PartitionResult._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
InitializeShareGroupStateResponse.InitializeStateResult._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, InitializeShareGroupStateResponse.PartitionResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
InitializeShareGroupStateResponse._kw_fields = (
    Field('Results', 'results', ARRAY, STRUCT, InitializeShareGroupStateResponse.InitializeStateResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
JoinGroupRequest.JoinGroupRequestProtocol._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Metadata', 'metadata', BYTES, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, b''),
)
JoinGroupRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('SessionTimeoutMs', 'session_timeout_ms', INT32, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('RebalanceTimeoutMs', 'rebalance_timeout_ms', INT32, 0, None, (1, 9), (1, 0), -1, (1, 0), None, True, -1),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (5, 9), (5, 9), -1, (1, 0), None, False, None),
    Field('ProtocolType', 'protocol_type', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Protocols', 'protocols', ARRAY, STRUCT, JoinGroupRequest.JoinGroupRequestProtocol, (0, 9), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Reason', 'reason', STRING, 0, None, (8, 9), (8, 9), -1, (1, 0), None, True, None),
)
JoinGroupResponse.JoinGroupResponseMember._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (5, 9), (5, 9), -1, (1, 0), None, True, None),
    Field('Metadata', 'metadata', BYTES, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, b''),
)
JoinGroupResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (2, 9), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('GenerationId', 'generation_id', INT32, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, -1),
    Field('ProtocolType', 'protocol_type', STRING, 0, None, (7, 9), (7, 9), -1, (1, 0), None, True, None),
    Field('ProtocolName', 'protocol_name', STRING, 0, None, (0, 9), (7, 9), -1, (1, 0), None, False, ''),
    Field('Leader', 'leader', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('SkipAssignment', 'skip_assignment', BOOL, 0, None, (9, 9), (1, 0), -1, (1, 0), None, False, False),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Members', 'members', ARRAY, STRUCT, JoinGroupResponse.JoinGroupResponseMember, (0, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
KRaftVersionRecord._kw_fields = (
    Field('Version', 'version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('KRaftVersion', 'k_raft_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
LeaderAndIsrRequest.LeaderAndIsrPartitionState._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('ControllerEpoch', 'controller_epoch', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('Leader', 'leader', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('Isr', 'isr', ARRAY, INT32, None, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('PartitionEpoch', 'partition_epoch', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('Replicas', 'replicas', ARRAY, INT32, None, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('AddingReplicas', 'adding_replicas', ARRAY, INT32, None, (3, 7), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('RemovingReplicas', 'removing_replicas', ARRAY, INT32, None, (3, 7), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('IsNew', 'is_new', BOOL, 0, None, (1, 7), (1, 0), -1, (1, 0), None, True, False),
    Field('LeaderRecoveryState', 'leader_recovery_state', INT8, 0, None, (6, 7), (1, 0), -1, (1, 0), None, False, 0),
)
LeaderAndIsrRequest.LeaderAndIsrTopicState._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (2, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (5, 7), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('PartitionStates', 'partition_states', ARRAY, STRUCT, LeaderAndIsrRequest.LeaderAndIsrPartitionState, (2, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
LeaderAndIsrRequest.LeaderAndIsrLiveLeader._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('HostName', 'host_name', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
)
LeaderAndIsrRequest._kw_fields = (
    Field('ControllerId', 'controller_id', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('isKRaftController', 'is_k_raft_controller', BOOL, 0, None, (7, 7), (1, 0), -1, (1, 0), None, False, False),
    Field('ControllerEpoch', 'controller_epoch', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (2, 7), (1, 0), -1, (1, 0), None, True, -1),
    Field('Type', 'type', INT8, 0, None, (5, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('UngroupedPartitionStates', 'ungrouped_partition_states', ARRAY, STRUCT, LeaderAndIsrRequest.LeaderAndIsrPartitionState, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TopicStates', 'topic_states', ARRAY, STRUCT, LeaderAndIsrRequest.LeaderAndIsrTopicState, (2, 7), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('LiveLeaders', 'live_leaders', ARRAY, STRUCT, LeaderAndIsrRequest.LeaderAndIsrLiveLeader, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
LeaderAndIsrResponse.LeaderAndIsrPartitionError._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, True, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
)
LeaderAndIsrResponse.LeaderAndIsrTopicError._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (5, 7), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('PartitionErrors', 'partition_errors', ARRAY, STRUCT, LeaderAndIsrResponse.LeaderAndIsrPartitionError, (5, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
LeaderAndIsrResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionErrors', 'partition_errors', ARRAY, STRUCT, LeaderAndIsrResponse.LeaderAndIsrPartitionError, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Topics', 'topics', ARRAY, STRUCT, LeaderAndIsrResponse.LeaderAndIsrTopicError, (5, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
LeaderChangeMessage.Voter._kw_fields = (
    Field('VoterId', 'voter_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
)
LeaderChangeMessage._kw_fields = (
    Field('Version', 'version', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Voters', 'voters', ARRAY, STRUCT, LeaderChangeMessage.Voter, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('GrantingVoters', 'granting_voters', ARRAY, STRUCT, LeaderChangeMessage.Voter, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
LeaveGroupRequest.MemberIdentity._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (3, 5), (3, 5), -1, (1, 0), None, False, None),
    Field('Reason', 'reason', STRING, 0, None, (5, 5), (5, 5), -1, (1, 0), None, True, None),
)
LeaveGroupRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('Members', 'members', ARRAY, STRUCT, LeaveGroupRequest.MemberIdentity, (3, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
LeaveGroupResponse.MemberResponse._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (3, 5), (3, 5), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (3, 5), (1, 0), -1, (1, 0), None, False, 0),
)
LeaveGroupResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 5), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('Members', 'members', ARRAY, STRUCT, LeaveGroupResponse.MemberResponse, (3, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListClientMetricsResourcesRequest._kw_fields = (
)
ListClientMetricsResourcesResponse.ClientMetricsResource._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
)
ListClientMetricsResourcesResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ClientMetricsResources', 'client_metrics_resources', ARRAY, STRUCT, ListClientMetricsResourcesResponse.ClientMetricsResource, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListGroupsRequest._kw_fields = (
    Field('StatesFilter', 'states_filter', ARRAY, STRING, None, (4, 5), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TypesFilter', 'types_filter', ARRAY, STRING, None, (5, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListGroupsResponse.ListedGroup._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProtocolType', 'protocol_type', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupState', 'group_state', STRING, 0, None, (4, 5), (1, 0), -1, (1, 0), None, True, ''),
    Field('GroupType', 'group_type', STRING, 0, None, (5, 5), (1, 0), -1, (1, 0), None, True, ''),
)
ListGroupsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 5), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('Groups', 'groups', ARRAY, STRUCT, ListGroupsResponse.ListedGroup, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListOffsetsRequest.ListOffsetsPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentLeaderEpoch', 'current_leader_epoch', INT32, 0, None, (4, 10), (1, 0), -1, (1, 0), None, True, -1),
    Field('Timestamp', 'timestamp', INT64, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxNumOffsets', 'max_num_offsets', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 1),
)
ListOffsetsRequest.ListOffsetsTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ListOffsetsRequest.ListOffsetsPartition, (0, 10), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListOffsetsRequest._kw_fields = (
    Field('ReplicaId', 'replica_id', INT32, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, 0),
    Field('IsolationLevel', 'isolation_level', INT8, 0, None, (2, 10), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, ListOffsetsRequest.ListOffsetsTopic, (0, 10), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (10, 10), (1, 0), -1, (1, 0), None, True, 0),
)
ListOffsetsResponse.ListOffsetsPartitionResponse._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, 0),
    Field('OldStyleOffsets', 'old_style_offsets', ARRAY, INT64, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Timestamp', 'timestamp', INT64, 0, None, (1, 10), (1, 0), -1, (1, 0), None, False, -1),
    Field('Offset', 'offset', INT64, 0, None, (1, 10), (1, 0), -1, (1, 0), None, False, -1),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (4, 10), (1, 0), -1, (1, 0), None, False, -1),
)
ListOffsetsResponse.ListOffsetsTopicResponse._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 10), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ListOffsetsResponse.ListOffsetsPartitionResponse, (0, 10), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListOffsetsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (2, 10), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, ListOffsetsResponse.ListOffsetsTopicResponse, (0, 10), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndexes', 'partition_indexes', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListPartitionReassignmentsRequest._kw_fields = (
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 60000),
    Field('Topics', 'topics', ARRAY, STRUCT, ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
ListPartitionReassignmentsResponse.OngoingPartitionReassignment._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Replicas', 'replicas', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('AddingReplicas', 'adding_replicas', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('RemovingReplicas', 'removing_replicas', ARRAY, INT32, None, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListPartitionReassignmentsResponse.OngoingTopicReassignment._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ListPartitionReassignmentsResponse.OngoingPartitionReassignment, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListPartitionReassignmentsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, ListPartitionReassignmentsResponse.OngoingTopicReassignment, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ListTransactionsRequest._kw_fields = (
    Field('StateFilters', 'state_filters', ARRAY, STRING, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ProducerIdFilters', 'producer_id_filters', ARRAY, INT64, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('DurationFilter', 'duration_filter', INT64, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, -1),
)
ListTransactionsResponse.TransactionState._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('TransactionState', 'transaction_state', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
)
ListTransactionsResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('UnknownStateFilters', 'unknown_state_filters', ARRAY, STRING, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TransactionStates', 'transaction_states', ARRAY, STRUCT, ListTransactionsResponse.TransactionState, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
MetadataRequest.MetadataRequestTopic._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (10, 12), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Name', 'name', STRING, 0, None, (0, 12), (10, 12), -1, (1, 0), None, False, ''),
)
MetadataRequest._kw_fields = (
    Field('Topics', 'topics', ARRAY, STRUCT, MetadataRequest.MetadataRequestTopic, (0, 12), (1, 12), -1, (1, 0), None, False, UNSET),
    Field('AllowAutoTopicCreation', 'allow_auto_topic_creation', BOOL, 0, None, (4, 12), (1, 0), -1, (1, 0), None, False, True),
    Field('IncludeClusterAuthorizedOperations', 'include_cluster_authorized_operations', BOOL, 0, None, (8, 10), (1, 0), -1, (1, 0), None, False, False),
    Field('IncludeTopicAuthorizedOperations', 'include_topic_authorized_operations', BOOL, 0, None, (8, 12), (1, 0), -1, (1, 0), None, False, False),
)
MetadataResponse.MetadataResponseBroker._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, 0),
    Field('Rack', 'rack', STRING, 0, None, (1, 12), (1, 12), -1, (1, 0), None, True, None),
)
MetadataResponse.MetadataResponsePartition._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (7, 12), (1, 0), -1, (1, 0), None, True, -1),
    Field('ReplicaNodes', 'replica_nodes', ARRAY, INT32, None, (0, 12), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('IsrNodes', 'isr_nodes', ARRAY, INT32, None, (0, 12), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('OfflineReplicas', 'offline_replicas', ARRAY, INT32, None, (5, 12), (1, 0), -1, (1, 0), None, True, UNSET),
)
MetadataResponse.MetadataResponseTopic._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 12), (1, 0), -1, (1, 0), None, False, 0),
    Field('Name', 'name', STRING, 0, None, (0, 12), (12, 12), -1, (1, 0), None, False, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (10, 12), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('IsInternal', 'is_internal', BOOL, 0, None, (1, 12), (1, 0), -1, (1, 0), None, True, False),
    Field('Partitions', 'partitions', ARRAY, STRUCT, MetadataResponse.MetadataResponsePartition, (0, 12), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TopicAuthorizedOperations', 'topic_authorized_operations', INT32, 0, None, (8, 12), (1, 0), -1, (1, 0), None, False, -2147483648),
)
MetadataResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (3, 12), (1, 0), -1, (1, 0), None, True, 0),
    Field('Brokers', 'brokers', ARRAY, STRUCT, MetadataResponse.MetadataResponseBroker, (0, 12), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ClusterId', 'cluster_id', STRING, 0, None, (2, 12), (2, 12), -1, (1, 0), None, True, None),
    Field('ControllerId', 'controller_id', INT32, 0, None, (1, 12), (1, 0), -1, (1, 0), None, True, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, MetadataResponse.MetadataResponseTopic, (0, 12), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ClusterAuthorizedOperations', 'cluster_authorized_operations', INT32, 0, None, (8, 10), (1, 0), -1, (1, 0), None, False, -2147483648),
)
OffsetCommitRequest.OffsetCommitRequestPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedOffset', 'committed_offset', INT64, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedLeaderEpoch', 'committed_leader_epoch', INT32, 0, None, (6, 9), (1, 0), -1, (1, 0), None, True, -1),
    Field('CommitTimestamp', 'commit_timestamp', INT64, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, -1),
    Field('CommittedMetadata', 'committed_metadata', STRING, 0, None, (0, 9), (0, 9), -1, (1, 0), None, False, ''),
)
OffsetCommitRequest.OffsetCommitRequestTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetCommitRequest.OffsetCommitRequestPartition, (0, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetCommitRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('GenerationIdOrMemberEpoch', 'generation_id_or_member_epoch', INT32, 0, None, (1, 9), (1, 0), -1, (1, 0), None, True, -1),
    Field('MemberId', 'member_id', STRING, 0, None, (1, 9), (1, 0), -1, (1, 0), None, True, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (7, 9), (7, 9), -1, (1, 0), None, False, None),
    Field('RetentionTimeMs', 'retention_time_ms', INT64, 0, None, (2, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetCommitRequest.OffsetCommitRequestTopic, (0, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetCommitResponse.OffsetCommitResponsePartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetCommitResponse.OffsetCommitResponseTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetCommitResponse.OffsetCommitResponsePartition, (0, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetCommitResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (3, 9), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetCommitResponse.OffsetCommitResponseTopic, (0, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetDeleteRequest.OffsetDeleteRequestPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetDeleteRequest.OffsetDeleteRequestTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetDeleteRequest.OffsetDeleteRequestPartition, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetDeleteRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetDeleteRequest.OffsetDeleteRequestTopic, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetDeleteResponse.OffsetDeleteResponsePartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetDeleteResponse.OffsetDeleteResponseTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetDeleteResponse.OffsetDeleteResponsePartition, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetDeleteResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetDeleteResponse.OffsetDeleteResponseTopic, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetFetchRequest.OffsetFetchRequestTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndexes', 'partition_indexes', ARRAY, INT32, None, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetFetchRequest.OffsetFetchRequestTopics._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndexes', 'partition_indexes', ARRAY, INT32, None, (8, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetFetchRequest.OffsetFetchRequestGroup._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberId', 'member_id', STRING, 0, None, (9, 9), (9, 9), -1, (1, 0), None, True, None),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (9, 9), (1, 0), -1, (1, 0), None, True, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetFetchRequest.OffsetFetchRequestTopics, (8, 9), (8, 9), -1, (1, 0), None, False, UNSET),
)
OffsetFetchRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetFetchRequest.OffsetFetchRequestTopic, (0, 7), (2, 7), -1, (1, 0), None, False, UNSET),
    Field('Groups', 'groups', ARRAY, STRUCT, OffsetFetchRequest.OffsetFetchRequestGroup, (8, 9), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('RequireStable', 'require_stable', BOOL, 0, None, (7, 9), (1, 0), -1, (1, 0), None, False, False),
)
OffsetFetchResponse.OffsetFetchResponsePartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedOffset', 'committed_offset', INT64, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedLeaderEpoch', 'committed_leader_epoch', INT32, 0, None, (5, 7), (1, 0), -1, (1, 0), None, True, -1),
    Field('Metadata', 'metadata', STRING, 0, None, (0, 7), (0, 7), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetFetchResponse.OffsetFetchResponseTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 7), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetFetchResponse.OffsetFetchResponsePartition, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetFetchResponse.OffsetFetchResponsePartitions._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedOffset', 'committed_offset', INT64, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedLeaderEpoch', 'committed_leader_epoch', INT32, 0, None, (8, 9), (1, 0), -1, (1, 0), None, True, -1),
    Field('Metadata', 'metadata', STRING, 0, None, (8, 9), (8, 9), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetFetchResponse.OffsetFetchResponseTopics._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetFetchResponse.OffsetFetchResponsePartitions, (8, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetFetchResponse.OffsetFetchResponseGroup._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetFetchResponse.OffsetFetchResponseTopics, (8, 9), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ErrorCode', 'error_code', INT16, 0, None, (8, 9), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetFetchResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (3, 9), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetFetchResponse.OffsetFetchResponseTopic, (0, 7), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ErrorCode', 'error_code', INT16, 0, None, (2, 7), (1, 0), -1, (1, 0), None, True, 0),
    Field('Groups', 'groups', ARRAY, STRUCT, OffsetFetchResponse.OffsetFetchResponseGroup, (8, 9), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetForLeaderEpochRequest.OffsetForLeaderPartition._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentLeaderEpoch', 'current_leader_epoch', INT32, 0, None, (2, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
OffsetForLeaderEpochRequest.OffsetForLeaderTopic._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetForLeaderEpochRequest.OffsetForLeaderPartition, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetForLeaderEpochRequest._kw_fields = (
    Field('ReplicaId', 'replica_id', INT32, 0, None, (3, 4), (1, 0), -1, (1, 0), None, True, -2),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetForLeaderEpochRequest.OffsetForLeaderTopic, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetForLeaderEpochResponse.EpochEndOffset._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('Partition', 'partition', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (1, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('EndOffset', 'end_offset', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, -1),
)
OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult._kw_fields = (
    Field('Topic', 'topic', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, OffsetForLeaderEpochResponse.EpochEndOffset, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
OffsetForLeaderEpochResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (2, 4), (1, 0), -1, (1, 0), None, True, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
ProduceRequest.PartitionProduceData._kw_fields = (
    Field('Index', 'index', INT32, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('Records', 'records', RECORDS, 0, None, (0, 11), (0, 11), -1, (1, 0), None, False, None),
)
ProduceRequest.TopicProduceData._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionData', 'partition_data', ARRAY, STRUCT, ProduceRequest.PartitionProduceData, (0, 11), (1, 0), -1, (1, 0), None, False, UNSET),
)
ProduceRequest._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (3, 11), (3, 11), -1, (1, 0), None, False, None),
    Field('Acks', 'acks', INT16, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('TimeoutMs', 'timeout_ms', INT32, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('TopicData', 'topic_data', ARRAY, STRUCT, ProduceRequest.TopicProduceData, (0, 11), (1, 0), -1, (1, 0), None, False, UNSET),
)
ProduceResponse.BatchIndexAndErrorMessage._kw_fields = (
    Field('BatchIndex', 'batch_index', INT32, 0, None, (8, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('BatchIndexErrorMessage', 'batch_index_error_message', STRING, 0, None, (8, 11), (8, 11), -1, (1, 0), None, False, None),
)
ProduceResponse.LeaderIdAndEpoch._kw_fields = (
    Field('LeaderId', 'leader_id', INT32, 0, None, (10, 11), (1, 0), -1, (1, 0), None, False, -1),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (10, 11), (1, 0), -1, (1, 0), None, False, -1),
)
ProduceResponse.PartitionProduceResponse._kw_fields = (
    Field('Index', 'index', INT32, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('BaseOffset', 'base_offset', INT64, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('LogAppendTimeMs', 'log_append_time_ms', INT64, 0, None, (2, 11), (1, 0), -1, (1, 0), None, True, -1),
    Field('LogStartOffset', 'log_start_offset', INT64, 0, None, (5, 11), (1, 0), -1, (1, 0), None, True, -1),
    Field('RecordErrors', 'record_errors', ARRAY, STRUCT, ProduceResponse.BatchIndexAndErrorMessage, (8, 11), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (8, 11), (8, 11), -1, (1, 0), None, True, None),
    Field('CurrentLeader', 'current_leader', STRUCT, 0, ProduceResponse.LeaderIdAndEpoch, (10, 11), (1, 0), 0, (10, 11), None, False, UNSET),
)
ProduceResponse.TopicProduceResponse._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 11), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionResponses', 'partition_responses', ARRAY, STRUCT, ProduceResponse.PartitionProduceResponse, (0, 11), (1, 0), -1, (1, 0), None, False, UNSET),
)
ProduceResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (10, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (10, 11), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (10, 11), (1, 0), -1, (1, 0), None, False, 0),
    Field('Rack', 'rack', STRING, 0, None, (10, 11), (10, 11), -1, (1, 0), None, False, None),
)
ProduceResponse._kw_fields = (
    Field('Responses', 'responses', ARRAY, STRUCT, ProduceResponse.TopicProduceResponse, (0, 11), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 11), (1, 0), -1, (1, 0), None, True, 0),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, ProduceResponse.NodeEndpoint, (10, 11), (1, 0), 0, (10, 11), None, False, UNSET),
)
PushTelemetryRequest._kw_fields = (
    Field('ClientInstanceId', 'client_instance_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('SubscriptionId', 'subscription_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Terminating', 'terminating', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
    Field('CompressionType', 'compression_type', INT8, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Metrics', 'metrics', BYTES, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, b''),
)
PushTelemetryResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ReadShareGroupStateRequest.PartitionData._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ReadShareGroupStateRequest.ReadStateData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ReadShareGroupStateRequest.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, ReadShareGroupStateRequest.ReadStateData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateResponse.StateBatch._kw_fields = (
    Field('FirstOffset', 'first_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastOffset', 'last_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('DeliveryState', 'delivery_state', INT8, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('DeliveryCount', 'delivery_count', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ReadShareGroupStateResponse.PartitionResult._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('StateEpoch', 'state_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StartOffset', 'start_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StateBatches', 'state_batches', ARRAY, STRUCT, ReadShareGroupStateResponse.StateBatch, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateResponse.ReadStateResult._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ReadShareGroupStateResponse.PartitionResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateResponse._kw_fields = (
    Field('Results', 'results', ARRAY, STRUCT, ReadShareGroupStateResponse.ReadStateResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateSummaryRequest.PartitionData._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ReadShareGroupStateSummaryRequest.ReadStateSummaryData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ReadShareGroupStateSummaryRequest.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateSummaryRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, ReadShareGroupStateSummaryRequest.ReadStateSummaryData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateSummaryResponse.PartitionResult._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
    Field('StateEpoch', 'state_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StartOffset', 'start_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
ReadShareGroupStateSummaryResponse.ReadStateSummaryResult._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ReadShareGroupStateSummaryResponse.PartitionResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
ReadShareGroupStateSummaryResponse._kw_fields = (
    Field('Results', 'results', ARRAY, STRUCT, ReadShareGroupStateSummaryResponse.ReadStateSummaryResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
RemoveRaftVoterRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('VoterId', 'voter_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
)
RemoveRaftVoterResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, True, ''),
)
RenewDelegationTokenRequest._kw_fields = (
    Field('Hmac', 'hmac', BYTES, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, b''),
    Field('RenewPeriodMs', 'renew_period_ms', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
RenewDelegationTokenResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ExpiryTimestampMs', 'expiry_timestamp_ms', INT64, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
)
RequestHeader._kw_fields = (
    Field('RequestApiKey', 'request_api_key', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('RequestApiVersion', 'request_api_version', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('CorrelationId', 'correlation_id', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ClientId', 'client_id', STRING, 0, None, (1, 2), (1, 2), -1, (1, 0), (1, 0), True, ''),
)
ResponseHeader._kw_fields = (
    Field('CorrelationId', 'correlation_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
SaslAuthenticateRequest._kw_fields = (
    Field('AuthBytes', 'auth_bytes', BYTES, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, b''),
)
SaslAuthenticateResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 2), (0, 2), -1, (1, 0), None, False, ''),
    Field('AuthBytes', 'auth_bytes', BYTES, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, b''),
    Field('SessionLifetimeMs', 'session_lifetime_ms', INT64, 0, None, (1, 2), (1, 0), -1, (1, 0), None, True, 0),
)
SaslHandshakeRequest._kw_fields = (
    Field('Mechanism', 'mechanism', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
)
SaslHandshakeResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Mechanisms', 'mechanisms', ARRAY, STRING, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeRequest.AcknowledgementBatch._kw_fields = (
    Field('FirstOffset', 'first_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastOffset', 'last_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('AcknowledgeTypes', 'acknowledge_types', ARRAY, INT8, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeRequest.AcknowledgePartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('AcknowledgementBatches', 'acknowledgement_batches', ARRAY, STRUCT, ShareAcknowledgeRequest.AcknowledgementBatch, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeRequest.AcknowledgeTopic._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ShareAcknowledgeRequest.AcknowledgePartition, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
    Field('ShareSessionEpoch', 'share_session_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, ShareAcknowledgeRequest.AcknowledgeTopic, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeResponse.LeaderIdAndEpoch._kw_fields = (
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
ShareAcknowledgeResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('CurrentLeader', 'current_leader', STRUCT, 0, ShareAcknowledgeResponse.LeaderIdAndEpoch, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ShareAcknowledgeResponse.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareAcknowledgeResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Rack', 'rack', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
ShareAcknowledgeResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('Responses', 'responses', ARRAY, STRUCT, ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, ShareAcknowledgeResponse.NodeEndpoint, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchRequest.AcknowledgementBatch._kw_fields = (
    Field('FirstOffset', 'first_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastOffset', 'last_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('AcknowledgeTypes', 'acknowledge_types', ARRAY, INT8, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchRequest.FetchPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionMaxBytes', 'partition_max_bytes', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('AcknowledgementBatches', 'acknowledgement_batches', ARRAY, STRUCT, ShareFetchRequest.AcknowledgementBatch, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchRequest.FetchTopic._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ShareFetchRequest.FetchPartition, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchRequest.ForgottenTopic._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, ''),
    Field('ShareSessionEpoch', 'share_session_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxWaitMs', 'max_wait_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('MinBytes', 'min_bytes', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxBytes', 'max_bytes', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 2147483647),
    Field('MaxRecords', 'max_records', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('BatchSize', 'batch_size', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, ShareFetchRequest.FetchTopic, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ForgottenTopicsData', 'forgotten_topics_data', ARRAY, STRUCT, ShareFetchRequest.ForgottenTopic, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchResponse.LeaderIdAndEpoch._kw_fields = (
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
ShareFetchResponse.AcquiredRecords._kw_fields = (
    Field('FirstOffset', 'first_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastOffset', 'last_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('DeliveryCount', 'delivery_count', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
ShareFetchResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('AcknowledgeErrorCode', 'acknowledge_error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('AcknowledgeErrorMessage', 'acknowledge_error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('CurrentLeader', 'current_leader', STRUCT, 0, ShareFetchResponse.LeaderIdAndEpoch, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Records', 'records', RECORDS, 0, None, (0, 1), (0, 0), -1, (1, 0), None, False, None),
    Field('AcquiredRecords', 'acquired_records', ARRAY, STRUCT, ShareFetchResponse.AcquiredRecords, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchResponse.ShareFetchableTopicResponse._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, ShareFetchResponse.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareFetchResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Rack', 'rack', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
ShareFetchResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('AcquisitionLockTimeoutMs', 'acquisition_lock_timeout_ms', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Responses', 'responses', ARRAY, STRUCT, ShareFetchResponse.ShareFetchableTopicResponse, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, ShareFetchResponse.NodeEndpoint, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupDescribeRequest._kw_fields = (
    Field('GroupIds', 'group_ids', ARRAY, STRING, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('IncludeAuthorizedOperations', 'include_authorized_operations', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
ShareGroupDescribeResponse.TopicPartitions._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupDescribeResponse.Assignment._kw_fields = (
    Field('TopicPartitions', 'topic_partitions', ARRAY, STRUCT, ShareGroupDescribeResponse.TopicPartitions, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupDescribeResponse.Member._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('RackId', 'rack_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ClientId', 'client_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('ClientHost', 'client_host', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('SubscribedTopicNames', 'subscribed_topic_names', ARRAY, STRING, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Assignment', 'assignment', STRUCT, 0, ShareGroupDescribeResponse.Assignment, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupDescribeResponse.DescribedGroup._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('GroupId', 'group_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupState', 'group_state', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupEpoch', 'group_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('AssignmentEpoch', 'assignment_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('AssignorName', 'assignor_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Members', 'members', ARRAY, STRUCT, ShareGroupDescribeResponse.Member, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('AuthorizedOperations', 'authorized_operations', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, -2147483648),
)
ShareGroupDescribeResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Groups', 'groups', ARRAY, STRUCT, ShareGroupDescribeResponse.DescribedGroup, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupHeartbeatRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('RackId', 'rack_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('SubscribedTopicNames', 'subscribed_topic_names', ARRAY, STRING, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
ShareGroupHeartbeatResponse.TopicPartitions._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, INT32, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupHeartbeatResponse.Assignment._kw_fields = (
    Field('TopicPartitions', 'topic_partitions', ARRAY, STRUCT, ShareGroupHeartbeatResponse.TopicPartitions, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
ShareGroupHeartbeatResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('MemberEpoch', 'member_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('HeartbeatIntervalMs', 'heartbeat_interval_ms', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Assignment', 'assignment', STRUCT, 0, ShareGroupHeartbeatResponse.Assignment, (0, 1), (0, 1), -1, (1, 0), None, False, None),
)
SnapshotFooterRecord._kw_fields = (
    Field('Version', 'version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
SnapshotHeaderRecord._kw_fields = (
    Field('Version', 'version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastContainedLogTimestamp', 'last_contained_log_timestamp', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
StopReplicaRequest.StopReplicaPartitionV0._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
StopReplicaRequest.StopReplicaTopicV1._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (1, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndexes', 'partition_indexes', ARRAY, INT32, None, (1, 2), (1, 0), -1, (1, 0), None, False, UNSET),
)
StopReplicaRequest.StopReplicaPartitionState._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, -1),
    Field('DeletePartition', 'delete_partition', BOOL, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, False),
)
StopReplicaRequest.StopReplicaTopicState._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionStates', 'partition_states', ARRAY, STRUCT, StopReplicaRequest.StopReplicaPartitionState, (3, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
StopReplicaRequest._kw_fields = (
    Field('ControllerId', 'controller_id', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('isKRaftController', 'is_k_raft_controller', BOOL, 0, None, (4, 4), (1, 0), -1, (1, 0), None, False, False),
    Field('ControllerEpoch', 'controller_epoch', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (1, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('DeletePartitions', 'delete_partitions', BOOL, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, False),
    Field('UngroupedPartitions', 'ungrouped_partitions', ARRAY, STRUCT, StopReplicaRequest.StopReplicaPartitionV0, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('Topics', 'topics', ARRAY, STRUCT, StopReplicaRequest.StopReplicaTopicV1, (1, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TopicStates', 'topic_states', ARRAY, STRUCT, StopReplicaRequest.StopReplicaTopicState, (3, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
StopReplicaResponse.StopReplicaPartitionError._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
StopReplicaResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('PartitionErrors', 'partition_errors', ARRAY, STRUCT, StopReplicaResponse.StopReplicaPartitionError, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
SyncGroupRequest.SyncGroupRequestAssignment._kw_fields = (
    Field('MemberId', 'member_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('Assignment', 'assignment', BYTES, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, b''),
)
SyncGroupRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GenerationId', 'generation_id', INT32, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('MemberId', 'member_id', STRING, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (3, 5), (3, 5), -1, (1, 0), None, False, None),
    Field('ProtocolType', 'protocol_type', STRING, 0, None, (5, 5), (5, 5), -1, (1, 0), None, True, None),
    Field('ProtocolName', 'protocol_name', STRING, 0, None, (5, 5), (5, 5), -1, (1, 0), None, True, None),
    Field('Assignments', 'assignments', ARRAY, STRUCT, SyncGroupRequest.SyncGroupRequestAssignment, (0, 5), (1, 0), -1, (1, 0), None, False, UNSET),
)
SyncGroupResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (1, 5), (1, 0), -1, (1, 0), None, True, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProtocolType', 'protocol_type', STRING, 0, None, (5, 5), (5, 5), -1, (1, 0), None, True, None),
    Field('ProtocolName', 'protocol_name', STRING, 0, None, (5, 5), (5, 5), -1, (1, 0), None, True, None),
    Field('Assignment', 'assignment', BYTES, 0, None, (0, 5), (1, 0), -1, (1, 0), None, False, b''),
)
TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedOffset', 'committed_offset', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('CommittedLeaderEpoch', 'committed_leader_epoch', INT32, 0, None, (2, 4), (1, 0), -1, (1, 0), None, True, -1),
    Field('CommittedMetadata', 'committed_metadata', STRING, 0, None, (0, 4), (0, 4), -1, (1, 0), None, False, ''),
)
TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
TxnOffsetCommitRequest._kw_fields = (
    Field('TransactionalId', 'transactional_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupId', 'group_id', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('GenerationId', 'generation_id', INT32, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, -1),
    Field('MemberId', 'member_id', STRING, 0, None, (3, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('GroupInstanceId', 'group_instance_id', STRING, 0, None, (3, 4), (3, 4), -1, (1, 0), None, False, None),
    Field('Topics', 'topics', ARRAY, STRUCT, TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
)
TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
TxnOffsetCommitResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 4), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
)
UnregisterBrokerRequest._kw_fields = (
    Field('BrokerId', 'broker_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
UnregisterBrokerResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
)
UpdateFeaturesRequest.FeatureUpdateKey._kw_fields = (
    Field('Feature', 'feature', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('MaxVersionLevel', 'max_version_level', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('AllowDowngrade', 'allow_downgrade', BOOL, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, False),
    Field('UpgradeType', 'upgrade_type', INT8, 0, None, (1, 2), (1, 0), -1, (1, 0), None, False, 1),
)
UpdateFeaturesRequest._kw_fields = (
    Field('timeoutMs', 'timeout_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 60000),
    Field('FeatureUpdates', 'feature_updates', ARRAY, STRUCT, UpdateFeaturesRequest.FeatureUpdateKey, (0, 2), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ValidateOnly', 'validate_only', BOOL, 0, None, (1, 2), (1, 0), -1, (1, 0), None, False, False),
)
UpdateFeaturesResponse.UpdatableFeatureResult._kw_fields = (
    Field('Feature', 'feature', STRING, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, ''),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 2), (0, 2), -1, (1, 0), None, False, ''),
)
UpdateFeaturesResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 2), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 2), (0, 2), -1, (1, 0), None, False, ''),
    Field('Results', 'results', ARRAY, STRUCT, UpdateFeaturesResponse.UpdatableFeatureResult, (0, 1), (1, 0), -1, (1, 0), None, True, UNSET),
)
UpdateMetadataRequest.UpdateMetadataPartitionState._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 4), (1, 0), -1, (1, 0), None, True, ''),
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('ControllerEpoch', 'controller_epoch', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('Leader', 'leader', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('Isr', 'isr', ARRAY, INT32, None, (0, 8), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('ZkVersion', 'zk_version', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('Replicas', 'replicas', ARRAY, INT32, None, (0, 8), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('OfflineReplicas', 'offline_replicas', ARRAY, INT32, None, (4, 8), (1, 0), -1, (1, 0), None, True, UNSET),
)
UpdateMetadataRequest.UpdateMetadataTopicState._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (5, 8), (1, 0), -1, (1, 0), None, False, ''),
    Field('TopicId', 'topic_id', UUID, 0, None, (7, 8), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('PartitionStates', 'partition_states', ARRAY, STRUCT, UpdateMetadataRequest.UpdateMetadataPartitionState, (5, 8), (1, 0), -1, (1, 0), None, False, UNSET),
)
UpdateMetadataRequest.UpdateMetadataEndpoint._kw_fields = (
    Field('Port', 'port', INT32, 0, None, (1, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (1, 8), (1, 0), -1, (1, 0), None, False, ''),
    Field('Listener', 'listener', STRING, 0, None, (3, 8), (1, 0), -1, (1, 0), None, True, ''),
    Field('SecurityProtocol', 'security_protocol', INT16, 0, None, (1, 8), (1, 0), -1, (1, 0), None, False, 0),
)
UpdateMetadataRequest.UpdateMetadataBroker._kw_fields = (
    Field('Id', 'id', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('V0Host', 'v0_host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, ''),
    Field('V0Port', 'v0_port', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, True, 0),
    Field('Endpoints', 'endpoints', ARRAY, STRUCT, UpdateMetadataRequest.UpdateMetadataEndpoint, (1, 8), (1, 0), -1, (1, 0), None, True, UNSET),
    Field('Rack', 'rack', STRING, 0, None, (2, 8), (2, 8), -1, (1, 0), None, True, ''),
)
UpdateMetadataRequest._kw_fields = (
    Field('ControllerId', 'controller_id', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('isKRaftController', 'is_k_raft_controller', BOOL, 0, None, (8, 8), (1, 0), -1, (1, 0), None, False, False),
    Field('Type', 'type', INT8, 0, None, (8, 8), (1, 0), 0, (8, 8), None, False, 0),
    Field('ControllerEpoch', 'controller_epoch', INT32, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
    Field('BrokerEpoch', 'broker_epoch', INT64, 0, None, (5, 8), (1, 0), -1, (1, 0), None, True, -1),
    Field('UngroupedPartitionStates', 'ungrouped_partition_states', ARRAY, STRUCT, UpdateMetadataRequest.UpdateMetadataPartitionState, (0, 4), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('TopicStates', 'topic_states', ARRAY, STRUCT, UpdateMetadataRequest.UpdateMetadataTopicState, (5, 8), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('LiveBrokers', 'live_brokers', ARRAY, STRUCT, UpdateMetadataRequest.UpdateMetadataBroker, (0, 8), (1, 0), -1, (1, 0), None, False, UNSET),
)
UpdateMetadataResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 8), (1, 0), -1, (1, 0), None, False, 0),
)
UpdateRaftVoterRequest.Listener._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
UpdateRaftVoterRequest.KRaftVersionFeature._kw_fields = (
    Field('MinSupportedVersion', 'min_supported_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxSupportedVersion', 'max_supported_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
UpdateRaftVoterRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, ''),
    Field('CurrentLeaderEpoch', 'current_leader_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterId', 'voter_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Listeners', 'listeners', ARRAY, STRUCT, UpdateRaftVoterRequest.Listener, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('KRaftVersionFeature', 'k_raft_version_feature', STRUCT, 0, UpdateRaftVoterRequest.KRaftVersionFeature, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
UpdateRaftVoterResponse.CurrentLeader._kw_fields = (
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, -1),
    Field('Host', 'host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
UpdateRaftVoterResponse._kw_fields = (
    Field('ThrottleTimeMs', 'throttle_time_ms', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('CurrentLeader', 'current_leader', STRUCT, 0, UpdateRaftVoterResponse.CurrentLeader, (0, 0), (1, 0), 0, (0, 0), None, False, UNSET),
)
VoteRequest.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('CandidateEpoch', 'candidate_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('CandidateId', 'candidate_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('CandidateDirectoryId', 'candidate_directory_id', UUID, 0, None, (1, 1), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (1, 1), (1, 0), -1, (1, 0), None, True, ZERO_UUID),
    Field('LastOffsetEpoch', 'last_offset_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastOffset', 'last_offset', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
VoteRequest.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, VoteRequest.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
VoteRequest._kw_fields = (
    Field('ClusterId', 'cluster_id', STRING, 0, None, (0, 1), (0, 1), -1, (1, 0), None, False, None),
    Field('VoterId', 'voter_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, True, -1),
    Field('Topics', 'topics', ARRAY, STRUCT, VoteRequest.TopicData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
VoteResponse.PartitionData._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderId', 'leader_id', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoteGranted', 'vote_granted', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
)
VoteResponse.TopicData._kw_fields = (
    Field('TopicName', 'topic_name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, VoteResponse.PartitionData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
VoteResponse.NodeEndpoint._kw_fields = (
    Field('NodeId', 'node_id', INT32, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Host', 'host', STRING, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (1, 1), (1, 0), -1, (1, 0), None, False, 0),
)
VoteResponse._kw_fields = (
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, VoteResponse.TopicData, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('NodeEndpoints', 'node_endpoints', ARRAY, STRUCT, VoteResponse.NodeEndpoint, (1, 1), (1, 0), 0, (1, 1), None, False, UNSET),
)
VotersRecord.Endpoint._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Host', 'host', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Port', 'port', UINT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
VotersRecord.KRaftVersionFeature._kw_fields = (
    Field('MinSupportedVersion', 'min_supported_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('MaxSupportedVersion', 'max_supported_version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
VotersRecord.Voter._kw_fields = (
    Field('VoterId', 'voter_id', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('VoterDirectoryId', 'voter_directory_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Endpoints', 'endpoints', ARRAY, STRUCT, VotersRecord.Endpoint, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('KRaftVersionFeature', 'k_raft_version_feature', STRUCT, 0, VotersRecord.KRaftVersionFeature, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
VotersRecord._kw_fields = (
    Field('Version', 'version', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('Voters', 'voters', ARRAY, STRUCT, VotersRecord.Voter, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteShareGroupStateRequest.StateBatch._kw_fields = (
    Field('FirstOffset', 'first_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LastOffset', 'last_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('DeliveryState', 'delivery_state', INT8, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('DeliveryCount', 'delivery_count', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
)
WriteShareGroupStateRequest.PartitionData._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StateEpoch', 'state_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('LeaderEpoch', 'leader_epoch', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StartOffset', 'start_offset', INT64, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('StateBatches', 'state_batches', ARRAY, STRUCT, WriteShareGroupStateRequest.StateBatch, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteShareGroupStateRequest.WriteStateData._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, WriteShareGroupStateRequest.PartitionData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteShareGroupStateRequest._kw_fields = (
    Field('GroupId', 'group_id', STRING, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ''),
    Field('Topics', 'topics', ARRAY, STRUCT, WriteShareGroupStateRequest.WriteStateData, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteShareGroupStateResponse.PartitionResult._kw_fields = (
    Field('Partition', 'partition', INT32, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorMessage', 'error_message', STRING, 0, None, (0, 0), (0, 0), -1, (1, 0), None, False, None),
)
WriteShareGroupStateResponse.WriteStateResult._kw_fields = (
    Field('TopicId', 'topic_id', UUID, 0, None, (0, 0), (1, 0), -1, (1, 0), None, False, ZERO_UUID),
    Field('Partitions', 'partitions', ARRAY, STRUCT, WriteShareGroupStateResponse.PartitionResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteShareGroupStateResponse._kw_fields = (
    Field('Results', 'results', ARRAY, STRUCT, WriteShareGroupStateResponse.WriteStateResult, (0, 0), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteTxnMarkersRequest.WritableTxnMarkerTopic._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('PartitionIndexes', 'partition_indexes', ARRAY, INT32, None, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteTxnMarkersRequest.WritableTxnMarker._kw_fields = (
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ProducerEpoch', 'producer_epoch', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('TransactionResult', 'transaction_result', BOOL, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, False),
    Field('Topics', 'topics', ARRAY, STRUCT, WriteTxnMarkersRequest.WritableTxnMarkerTopic, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
    Field('CoordinatorEpoch', 'coordinator_epoch', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
WriteTxnMarkersRequest._kw_fields = (
    Field('Markers', 'markers', ARRAY, STRUCT, WriteTxnMarkersRequest.WritableTxnMarker, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult._kw_fields = (
    Field('PartitionIndex', 'partition_index', INT32, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('ErrorCode', 'error_code', INT16, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
)
WriteTxnMarkersResponse.WritableTxnMarkerTopicResult._kw_fields = (
    Field('Name', 'name', STRING, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, ''),
    Field('Partitions', 'partitions', ARRAY, STRUCT, WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteTxnMarkersResponse.WritableTxnMarkerResult._kw_fields = (
    Field('ProducerId', 'producer_id', INT64, 0, None, (0, 1), (1, 0), -1, (1, 0), None, False, 0),
    Field('Topics', 'topics', ARRAY, STRUCT, WriteTxnMarkersResponse.WritableTxnMarkerTopicResult, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)
WriteTxnMarkersResponse._kw_fields = (
    Field('Markers', 'markers', ARRAY, STRUCT, WriteTxnMarkersResponse.WritableTxnMarkerResult, (0, 1), (1, 0), -1, (1, 0), None, False, UNSET),
)


class ApiKey(IntEnum):
    """The API keys of every request the schemas define."""

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


REQUESTS = {
    0: ProduceRequest,
    1: FetchRequest,
    2: ListOffsetsRequest,
    3: MetadataRequest,
    4: LeaderAndIsrRequest,
    5: StopReplicaRequest,
    6: UpdateMetadataRequest,
    7: ControlledShutdownRequest,
    8: OffsetCommitRequest,
    9: OffsetFetchRequest,
    10: FindCoordinatorRequest,
    11: JoinGroupRequest,
    12: HeartbeatRequest,
    13: LeaveGroupRequest,
    14: SyncGroupRequest,
    15: DescribeGroupsRequest,
    16: ListGroupsRequest,
    17: SaslHandshakeRequest,
    18: ApiVersionsRequest,
    19: CreateTopicsRequest,
    20: DeleteTopicsRequest,
    21: DeleteRecordsRequest,
    22: InitProducerIdRequest,
    23: OffsetForLeaderEpochRequest,
    24: AddPartitionsToTxnRequest,
    25: AddOffsetsToTxnRequest,
    26: EndTxnRequest,
    27: WriteTxnMarkersRequest,
    28: TxnOffsetCommitRequest,
    29: DescribeAclsRequest,
    30: CreateAclsRequest,
    31: DeleteAclsRequest,
    32: DescribeConfigsRequest,
    33: AlterConfigsRequest,
    34: AlterReplicaLogDirsRequest,
    35: DescribeLogDirsRequest,
    36: SaslAuthenticateRequest,
    37: CreatePartitionsRequest,
    38: CreateDelegationTokenRequest,
    39: RenewDelegationTokenRequest,
    40: ExpireDelegationTokenRequest,
    41: DescribeDelegationTokenRequest,
    42: DeleteGroupsRequest,
    43: ElectLeadersRequest,
    44: IncrementalAlterConfigsRequest,
    45: AlterPartitionReassignmentsRequest,
    46: ListPartitionReassignmentsRequest,
    47: OffsetDeleteRequest,
    48: DescribeClientQuotasRequest,
    49: AlterClientQuotasRequest,
    50: DescribeUserScramCredentialsRequest,
    51: AlterUserScramCredentialsRequest,
    52: VoteRequest,
    53: BeginQuorumEpochRequest,
    54: EndQuorumEpochRequest,
    55: DescribeQuorumRequest,
    56: AlterPartitionRequest,
    57: UpdateFeaturesRequest,
    58: EnvelopeRequest,
    59: FetchSnapshotRequest,
    60: DescribeClusterRequest,
    61: DescribeProducersRequest,
    62: BrokerRegistrationRequest,
    63: BrokerHeartbeatRequest,
    64: UnregisterBrokerRequest,
    65: DescribeTransactionsRequest,
    66: ListTransactionsRequest,
    67: AllocateProducerIdsRequest,
    68: ConsumerGroupHeartbeatRequest,
    69: ConsumerGroupDescribeRequest,
    70: ControllerRegistrationRequest,
    71: GetTelemetrySubscriptionsRequest,
    72: PushTelemetryRequest,
    73: AssignReplicasToDirsRequest,
    74: ListClientMetricsResourcesRequest,
    75: DescribeTopicPartitionsRequest,
    76: ShareGroupHeartbeatRequest,
    77: ShareGroupDescribeRequest,
    78: ShareFetchRequest,
    79: ShareAcknowledgeRequest,
    80: AddRaftVoterRequest,
    81: RemoveRaftVoterRequest,
    82: UpdateRaftVoterRequest,
    83: InitializeShareGroupStateRequest,
    84: ReadShareGroupStateRequest,
    85: WriteShareGroupStateRequest,
    86: DeleteShareGroupStateRequest,
    87: ReadShareGroupStateSummaryRequest,
}
RESPONSES = {
    0: ProduceResponse,
    1: FetchResponse,
    2: ListOffsetsResponse,
    3: MetadataResponse,
    4: LeaderAndIsrResponse,
    5: StopReplicaResponse,
    6: UpdateMetadataResponse,
    7: ControlledShutdownResponse,
    8: OffsetCommitResponse,
    9: OffsetFetchResponse,
    10: FindCoordinatorResponse,
    11: JoinGroupResponse,
    12: HeartbeatResponse,
    13: LeaveGroupResponse,
    14: SyncGroupResponse,
    15: DescribeGroupsResponse,
    16: ListGroupsResponse,
    17: SaslHandshakeResponse,
    18: ApiVersionsResponse,
    19: CreateTopicsResponse,
    20: DeleteTopicsResponse,
    21: DeleteRecordsResponse,
    22: InitProducerIdResponse,
    23: OffsetForLeaderEpochResponse,
    24: AddPartitionsToTxnResponse,
    25: AddOffsetsToTxnResponse,
    26: EndTxnResponse,
    27: WriteTxnMarkersResponse,
    28: TxnOffsetCommitResponse,
    29: DescribeAclsResponse,
    30: CreateAclsResponse,
    31: DeleteAclsResponse,
    32: DescribeConfigsResponse,
    33: AlterConfigsResponse,
    34: AlterReplicaLogDirsResponse,
    35: DescribeLogDirsResponse,
    36: SaslAuthenticateResponse,
    37: CreatePartitionsResponse,
    38: CreateDelegationTokenResponse,
    39: RenewDelegationTokenResponse,
    40: ExpireDelegationTokenResponse,
    41: DescribeDelegationTokenResponse,
    42: DeleteGroupsResponse,
    43: ElectLeadersResponse,
    44: IncrementalAlterConfigsResponse,
    45: AlterPartitionReassignmentsResponse,
    46: ListPartitionReassignmentsResponse,
    47: OffsetDeleteResponse,
    48: DescribeClientQuotasResponse,
    49: AlterClientQuotasResponse,
    50: DescribeUserScramCredentialsResponse,
    51: AlterUserScramCredentialsResponse,
    52: VoteResponse,
    53: BeginQuorumEpochResponse,
    54: EndQuorumEpochResponse,
    55: DescribeQuorumResponse,
    56: AlterPartitionResponse,
    57: UpdateFeaturesResponse,
    58: EnvelopeResponse,
    59: FetchSnapshotResponse,
    60: DescribeClusterResponse,
    61: DescribeProducersResponse,
    62: BrokerRegistrationResponse,
    63: BrokerHeartbeatResponse,
    64: UnregisterBrokerResponse,
    65: DescribeTransactionsResponse,
    66: ListTransactionsResponse,
    67: AllocateProducerIdsResponse,
    68: ConsumerGroupHeartbeatResponse,
    69: ConsumerGroupDescribeResponse,
    70: ControllerRegistrationResponse,
    71: GetTelemetrySubscriptionsResponse,
    72: PushTelemetryResponse,
    73: AssignReplicasToDirsResponse,
    74: ListClientMetricsResourcesResponse,
    75: DescribeTopicPartitionsResponse,
    76: ShareGroupHeartbeatResponse,
    77: ShareGroupDescribeResponse,
    78: ShareFetchResponse,
    79: ShareAcknowledgeResponse,
    80: AddRaftVoterResponse,
    81: RemoveRaftVoterResponse,
    82: UpdateRaftVoterResponse,
    83: InitializeShareGroupStateResponse,
    84: ReadShareGroupStateResponse,
    85: WriteShareGroupStateResponse,
    86: DeleteShareGroupStateResponse,
    87: ReadShareGroupStateSummaryResponse,
}
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
