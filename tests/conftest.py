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
    """Runs a test with zstd decoded by the system's libzstd (src_c/zstd_system.c), then by
    the zstandard package alone (kafkawire.compression's careful path)."""
    from kafkawire.compression import _codecs

    was = _codecs.system_zstd_version() is not None
    if not _codecs.use_system_zstd(request.param == "libzstd") and request.param == "libzstd":
        pytest.skip("no libzstd 1.5 on this system")
    yield request.param
    _codecs.use_system_zstd(was)
