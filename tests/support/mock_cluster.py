"""librdkafka's mock Kafka cluster as a test bed: several brokers in this process, no JVM.

The confluent-kafka wheel bundles librdkafka with its mock-cluster API exported (rdkafka_mock.h
in librdkafka's repository); this module drives it through ctypes. ``MockCluster(3)`` starts
three brokers on 127.0.0.1 (their threads belong to a producer handle made for the purpose, as
librdkafka's own tests do) and exposes the fault API: leaders moved, brokers down and up, round
trips delayed, errors pushed onto the next answers to a request type, coordinators moved.

The mock is an independent Kafka implementation (librdkafka's tests run on it), with its own
limits: it has no CreateTopics, DeleteTopics or admin APIs (topics are made through
``create_topic`` here, or auto-created by Metadata with 4 partitions), and it keeps everything
in memory.
"""

from __future__ import annotations

import ctypes
import glob
import os
from collections.abc import Iterable, Sequence

from kafkawire.protocol import ApiKey

# RD_KAFKA_PRODUCER: the mock's threads live in an rd_kafka_t of either type
_PRODUCER = 0

# The mock announces newer versions of the classic group APIs than its parsers read: JoinGroup
# v6 (flexible) is read with an int32 protocol count ("ProtocolCnt 50754145 > max allowed
# 1000", then the connection closed). librdkafka's own client sends these APIs at most at the
# versions below, so those are the ones the mock is proven at; the bed announces no more.
PROVEN_VERSIONS = {
    ApiKey.JOIN_GROUP: 5,
    ApiKey.SYNC_GROUP: 3,
    ApiKey.HEARTBEAT: 3,
    ApiKey.LEAVE_GROUP: 1,
    ApiKey.FIND_COORDINATOR: 2,
}


def _library() -> ctypes.CDLL:
    import confluent_kafka

    site = os.path.dirname(os.path.dirname(confluent_kafka.__file__))
    found = sorted(glob.glob(os.path.join(site, "confluent_kafka.libs", "librdkafka*.so*")))
    if not found:  # a confluent-kafka built against a system librdkafka
        found = ["librdkafka.so.1"]
    lib = ctypes.CDLL(found[0])
    c = ctypes
    signatures = {
        "rd_kafka_conf_new": (c.c_void_p, []),
        "rd_kafka_conf_set": (
            c.c_int,
            [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_size_t],
        ),
        "rd_kafka_new": (c.c_void_p, [c.c_int, c.c_void_p, c.c_char_p, c.c_size_t]),
        "rd_kafka_destroy": (None, [c.c_void_p]),
        "rd_kafka_err2name": (c.c_char_p, [c.c_int]),
        "rd_kafka_version_str": (c.c_char_p, []),
        "rd_kafka_mock_cluster_new": (c.c_void_p, [c.c_void_p, c.c_int]),
        "rd_kafka_mock_cluster_destroy": (None, [c.c_void_p]),
        "rd_kafka_mock_cluster_bootstraps": (c.c_char_p, [c.c_void_p]),
        "rd_kafka_mock_topic_create": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, c.c_int]),
        "rd_kafka_mock_topic_set_error": (None, [c.c_void_p, c.c_char_p, c.c_int]),
        "rd_kafka_mock_partition_set_leader": (
            c.c_int,
            [c.c_void_p, c.c_char_p, c.c_int32, c.c_int32],
        ),
        "rd_kafka_mock_partition_set_follower": (
            c.c_int,
            [c.c_void_p, c.c_char_p, c.c_int32, c.c_int32],
        ),
        "rd_kafka_mock_broker_set_down": (c.c_int, [c.c_void_p, c.c_int32]),
        "rd_kafka_mock_broker_set_up": (c.c_int, [c.c_void_p, c.c_int32]),
        "rd_kafka_mock_broker_set_rtt": (c.c_int, [c.c_void_p, c.c_int32, c.c_int]),
        "rd_kafka_mock_broker_set_rack": (c.c_int, [c.c_void_p, c.c_int32, c.c_char_p]),
        "rd_kafka_mock_coordinator_set": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_int32]),
        "rd_kafka_mock_set_apiversion": (c.c_int, [c.c_void_p, c.c_int16, c.c_int16, c.c_int16]),
        "rd_kafka_mock_push_request_errors_array": (
            None,
            [c.c_void_p, c.c_int16, c.c_size_t, c.POINTER(c.c_int)],
        ),
        "rd_kafka_mock_clear_request_errors": (None, [c.c_void_p, c.c_int16]),
        "rd_kafka_mock_group_initial_rebalance_delay_ms": (None, [c.c_void_p, c.c_int32]),
        "rd_kafka_mock_set_group_consumer_session_timeout_ms": (None, [c.c_void_p, c.c_int]),
        "rd_kafka_mock_set_group_consumer_heartbeat_interval_ms": (None, [c.c_void_p, c.c_int]),
        "rd_kafka_mock_start_request_tracking": (None, [c.c_void_p]),
        "rd_kafka_mock_stop_request_tracking": (None, [c.c_void_p]),
        "rd_kafka_mock_clear_requests": (None, [c.c_void_p]),
        "rd_kafka_mock_get_requests": (
            c.POINTER(c.c_void_p),
            [c.c_void_p, c.POINTER(c.c_size_t)],
        ),
        "rd_kafka_mock_request_api_key": (c.c_int16, [c.c_void_p]),
        "rd_kafka_mock_request_id": (c.c_int32, [c.c_void_p]),
        "rd_kafka_mock_request_destroy_array": (None, [c.POINTER(c.c_void_p), c.c_size_t]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    # variadic (error, rtt) pairs: argtypes left open, every argument passed as a C int
    lib.rd_kafka_mock_broker_push_request_error_rtts.restype = c.c_int
    return lib


_lib: ctypes.CDLL | None = None


def library() -> ctypes.CDLL:
    """The bundled librdkafka, loaded once (the same copy confluent_kafka runs on)."""
    global _lib
    if _lib is None:
        _lib = _library()
    return _lib


def librdkafka_version() -> str:
    return library().rd_kafka_version_str().decode()


class MockError(RuntimeError):
    """A mock-cluster call that librdkafka refused (its error name in the message)."""


def _check(err: int, what: str) -> None:
    if err:
        raise MockError(f"{what}: {library().rd_kafka_err2name(err).decode()}")


class MockCluster:
    """``brokers`` mock brokers (ids 1..brokers) on 127.0.0.1 until ``close()``."""

    def __init__(self, brokers: int = 3, *, debug: str | None = None) -> None:
        """``debug``: librdkafka debug contexts to log to stderr (e.g. "mock,protocol"), or
        the environment's KAFKAWIRE_MOCK_DEBUG; otherwise only errors are logged."""
        lib = library()
        self._lib = lib
        conf = lib.rd_kafka_conf_new()
        errstr = ctypes.create_string_buffer(512)
        debug = debug or os.environ.get("KAFKAWIRE_MOCK_DEBUG")
        settings = [(b"client.id", b"kafkawire-mock-cluster"), (b"log_level", b"3")]
        if debug:
            settings += [(b"log_level", b"7"), (b"debug", debug.encode())]
        for key, value in settings:
            if lib.rd_kafka_conf_set(conf, key, value, errstr, len(errstr)) != 0:
                raise MockError(errstr.value.decode())
        self._rk = lib.rd_kafka_new(_PRODUCER, conf, errstr, len(errstr))
        if not self._rk:
            raise MockError(f"rd_kafka_new: {errstr.value.decode()}")
        self._cluster = lib.rd_kafka_mock_cluster_new(self._rk, brokers)
        if not self._cluster:
            lib.rd_kafka_destroy(self._rk)
            raise MockError("rd_kafka_mock_cluster_new failed")
        self.broker_ids = list(range(1, brokers + 1))
        for api_key, newest in PROVEN_VERSIONS.items():
            self.set_api_version(api_key, 0, newest)
        self.bootstrap: str = lib.rd_kafka_mock_cluster_bootstraps(self._cluster).decode()

    @property
    def addresses(self) -> list[str]:
        """The brokers' host:port, in broker id order."""
        return self.bootstrap.split(",")

    def close(self) -> None:
        if self._cluster:
            self._lib.rd_kafka_mock_cluster_destroy(self._cluster)
            self._lib.rd_kafka_destroy(self._rk)
            self._cluster = self._rk = None

    def __enter__(self) -> MockCluster:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ---- topics and partitions -------------------------------------------------------------

    def create_topic(
        self, name: str, partitions: int = 1, replication_factor: int = 3, spread: bool = False
    ) -> None:
        """``spread``: partition p led by the (p mod n)th broker. Without it the mock picks each
        leader at random, so three partitions share one leader one time in nine."""
        err = self._lib.rd_kafka_mock_topic_create(
            self._cluster, name.encode(), partitions, replication_factor
        )
        _check(err, f"create topic {name!r}")
        if spread:
            for partition in range(partitions):
                self.set_leader(name, partition, self.broker_ids[partition % len(self.broker_ids)])

    def set_topic_error(self, name: str, error: int) -> None:
        """Metadata answers for ``name`` carry ``error`` (0 clears it)."""
        self._lib.rd_kafka_mock_topic_set_error(self._cluster, name.encode(), error)

    def set_leader(self, topic: str, partition: int, broker_id: int) -> None:
        """Moves the partition's leader; -1 leaves it without one."""
        err = self._lib.rd_kafka_mock_partition_set_leader(
            self._cluster, topic.encode(), partition, broker_id
        )
        _check(err, f"set leader of {topic}[{partition}]")

    def set_follower(self, topic: str, partition: int, broker_id: int) -> None:
        """The replica that a fetch from a follower (client.rack) is sent to."""
        err = self._lib.rd_kafka_mock_partition_set_follower(
            self._cluster, topic.encode(), partition, broker_id
        )
        _check(err, f"set follower of {topic}[{partition}]")

    # ---- brokers -----------------------------------------------------------------------------

    def broker_down(self, broker_id: int) -> None:
        """Closes the broker's connections and refuses new ones until ``broker_up``."""
        _check(self._lib.rd_kafka_mock_broker_set_down(self._cluster, broker_id), "broker down")

    def broker_up(self, broker_id: int) -> None:
        _check(self._lib.rd_kafka_mock_broker_set_up(self._cluster, broker_id), "broker up")

    def set_rtt(self, broker_id: int, rtt_ms: int) -> None:
        """Delays every answer of the broker by ``rtt_ms``."""
        err = self._lib.rd_kafka_mock_broker_set_rtt(self._cluster, broker_id, rtt_ms)
        _check(err, "set rtt")

    def set_rack(self, broker_id: int, rack: str) -> None:
        err = self._lib.rd_kafka_mock_broker_set_rack(self._cluster, broker_id, rack.encode())
        _check(err, "set rack")

    def set_coordinator(self, key_type: str, key: str, broker_id: int) -> None:
        """Moves the coordinator of a group (``"group"``) or transactional id
        (``"transaction"``) to ``broker_id``."""
        err = self._lib.rd_kafka_mock_coordinator_set(
            self._cluster, key_type.encode(), key.encode(), broker_id
        )
        _check(err, f"set {key_type} coordinator of {key!r}")

    def set_api_version(self, api_key: int, min_version: int, max_version: int) -> None:
        """The version range the brokers announce for ``api_key`` (-1, -1: not at all)."""
        err = self._lib.rd_kafka_mock_set_apiversion(
            self._cluster, int(api_key), min_version, max_version
        )
        _check(err, f"set versions of {ApiKey(api_key).name}")

    # ---- injected errors ---------------------------------------------------------------------

    def push_errors(self, api_key: int, errors: Sequence[int]) -> None:
        """The next ``len(errors)`` answers to ``api_key``, from any broker, carry these error
        codes in turn (0: answered normally)."""
        array = (ctypes.c_int * len(errors))(*errors)
        self._lib.rd_kafka_mock_push_request_errors_array(
            self._cluster, int(api_key), len(errors), array
        )

    def push_broker_errors(
        self, broker_id: int, api_key: int, errors: Iterable[tuple[int, int]]
    ) -> None:
        """The next answers of one broker to ``api_key``: (error code, extra rtt ms) each."""
        pairs = list(errors)
        flat = [ctypes.c_int(v) for pair in pairs for v in pair]
        err = self._lib.rd_kafka_mock_broker_push_request_error_rtts(
            ctypes.c_void_p(self._cluster),
            ctypes.c_int32(broker_id),
            ctypes.c_int16(int(api_key)),
            ctypes.c_size_t(len(pairs)),
            *flat,
        )
        _check(err, f"push errors on broker {broker_id}")

    def clear_errors(self, api_key: int) -> None:
        self._lib.rd_kafka_mock_clear_request_errors(self._cluster, int(api_key))

    # ---- groups ------------------------------------------------------------------------------

    def set_initial_rebalance_delay(self, delay_ms: int) -> None:
        """How long a new classic group waits for more members before its first rebalance
        (the mock's default: 3 s)."""
        self._lib.rd_kafka_mock_group_initial_rebalance_delay_ms(self._cluster, delay_ms)

    def set_consumer_group_timeouts(self, *, session_ms: int, heartbeat_ms: int) -> None:
        """KIP-848 groups: the member session timeout and the heartbeat interval given out."""
        self._lib.rd_kafka_mock_set_group_consumer_session_timeout_ms(self._cluster, session_ms)
        self._lib.rd_kafka_mock_set_group_consumer_heartbeat_interval_ms(
            self._cluster, heartbeat_ms
        )

    # ---- what clients sent -------------------------------------------------------------------

    def start_tracking(self) -> None:
        self._lib.rd_kafka_mock_start_request_tracking(self._cluster)

    def stop_tracking(self) -> None:
        self._lib.rd_kafka_mock_stop_request_tracking(self._cluster)

    def requests(self, *, clear: bool = True) -> list[tuple[int, int]]:
        """(broker id, api key) of every request received since tracking started."""
        count = ctypes.c_size_t(0)
        array = self._lib.rd_kafka_mock_get_requests(self._cluster, ctypes.byref(count))
        seen = [
            (
                self._lib.rd_kafka_mock_request_id(array[i]),
                self._lib.rd_kafka_mock_request_api_key(array[i]),
            )
            for i in range(count.value)
        ]
        if array:
            self._lib.rd_kafka_mock_request_destroy_array(array, count.value)
        if clear:
            self._lib.rd_kafka_mock_clear_requests(self._cluster)
        return seen

    # ---- share groups (KIP-932) --------------------------------------------------------------
    # The mock's share-group settings hold for every share group of the cluster (rdkafka_mock.h).

    def _share_setting(self, function: str, value: int) -> None:
        fn = getattr(self._lib, function)
        fn.restype = None
        fn.argtypes = [ctypes.c_void_p, ctypes.c_int]
        fn(self._cluster, int(value))

    def set_share_auto_offset_reset(self, earliest: bool) -> None:
        """Where a share-partition starts when a share group first reads it: the start of
        the log (``earliest``) or its end (the mock's default, as Kafka's)."""
        self._share_setting("rd_kafka_mock_sharegroup_set_auto_offset_reset", int(earliest))

    def set_share_group_timeouts(self, *, session_ms: int, heartbeat_ms: int) -> None:
        """Share groups: the member session timeout and the heartbeat interval given out."""
        self._share_setting("rd_kafka_mock_sharegroup_set_session_timeout", session_ms)
        self._share_setting("rd_kafka_mock_sharegroup_set_heartbeat_interval", heartbeat_ms)

    def set_share_record_lock(self, duration_ms: int) -> None:
        """How long an acquired record stays locked to its member (0: the session timeout)."""
        self._share_setting("rd_kafka_mock_sharegroup_set_record_lock_duration", duration_ms)

    def set_share_delivery_attempts(self, attempts: int) -> None:
        """Deliveries of a record before the mock archives it (0: no limit; default 5)."""
        self._share_setting("rd_kafka_mock_sharegroup_set_max_delivery_attempts", attempts)


def share_cluster(
    *, lock_ms: int | None = None, session_ms: int = 30000, heartbeat_ms: int = 1000
) -> MockCluster:
    """A mock cluster of its own for share-group tests (the mock's share settings hold for the
    whole cluster, so they are kept off the session's shared one): 3 brokers, share groups
    starting at the log's beginning (standing for the group config share.auto.offset.reset),
    the member session timeout and heartbeat interval given, and the record lock if set.

    One connection closing to a broker closes every share session the mock has on that broker
    (rdkafka_mock_sharegrp.c), whoever's it was: a test that produces while members hold
    records keeps its producing client connected."""
    cluster = MockCluster(3)
    cluster.set_share_auto_offset_reset(earliest=True)
    cluster.set_share_group_timeouts(session_ms=session_ms, heartbeat_ms=heartbeat_ms)
    if lock_ms is not None:
        cluster.set_share_record_lock(lock_ms)
    return cluster
