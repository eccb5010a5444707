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
