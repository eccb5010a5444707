from __future__ import annotations

import pytest

from .broker import Broker, start_broker, stop_broker


@pytest.fixture(scope="session")
def broker() -> Broker:
    """One Tansu broker (behind a recording proxy) for the whole test session."""
    b = start_broker()
    yield b
    stop_broker(b)
