from __future__ import annotations

import pytest

from tests.support.broker import Broker, start_broker, stop_broker


@pytest.fixture(scope="session")
def broker() -> Broker:
    """One Tansu broker (behind a recording proxy) for the whole test session."""
    b = start_broker()
    yield b
    stop_broker(b)


@pytest.fixture(params=["libzstd", "zstandard"])
def zstd_decoder(request) -> str:
    """Runs a test with zstd decoded by the compiled-in libzstd (src_c/vendor/zstd), then by
    the zstandard package alone (kafkawire.compression's careful path)."""
    from kafkawire.compression import _codecs

    was = _codecs.libzstd_version() is not None
    assert _codecs.use_libzstd(request.param == "libzstd") == (request.param == "libzstd")
    yield request.param
    _codecs.use_libzstd(was)


@pytest.fixture(scope="session")
def mock_cluster():
    """librdkafka's mock cluster, 3 brokers, for the whole test session (tests/support/
    mock_cluster.py): tests make topics of their own names and undo the faults they inject."""
    from tests.support.mock_cluster import MockCluster

    cluster = MockCluster(3)
    cluster.set_initial_rebalance_delay(0)
    yield cluster
    cluster.close()


class Cluster:
    """One of the two test beds, as the suites that run on both see it: ``name`` ("tansu" or
    "mock"), ``bootstrap``, and ``create_topic`` (Tansu through CreateTopics, the mock through
    its own API: it has no CreateTopics)."""

    def __init__(self, name: str, bootstrap: str, create_topic) -> None:
        self.name = name
        self.bootstrap = bootstrap
        self._create_topic = create_topic

    def create_topic(self, name: str, partitions: int = 1) -> str:
        self._create_topic(name, partitions)
        return name


@pytest.fixture(scope="session", params=["tansu", "mock"])
def cluster(request) -> Cluster:
    """The single Tansu node, then librdkafka's 3-broker mock cluster: a test taking this runs
    on both. Tests that need something only one of them has take ``broker`` or
    ``mock_cluster`` instead, or narrow this with
    ``@pytest.mark.parametrize("cluster", ["tansu"], indirect=True)`` and say why."""
    if request.param == "tansu":
        from kafkawire.client import Client

        b = request.getfixturevalue("broker")

        def create(name: str, partitions: int) -> None:
            with Client(b.bootstrap, request_timeout=20) as client:
                client.create_topics({name: partitions})

        return Cluster("tansu", b.bootstrap, create)
    mock = request.getfixturevalue("mock_cluster")
    return Cluster(
        "mock", mock.bootstrap, lambda name, partitions: mock.create_topic(name, partitions)
    )
