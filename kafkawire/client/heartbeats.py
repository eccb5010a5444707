"""The heartbeats that keep a group member in while its consumer is between polls: a thread
with a connection of its own beside a blocking consumer (the transports are not shared), a
task on the same event loop and transport beside an asyncio one. What they run is the
member's ``heartbeat_loop(core, stopped)`` flow (``group.py``, ``group_consumer.py``,
``share.py``); the faces of the consumer and the share consumer start them here."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

from .config import ClientConfig
from .core import ClientCore
from .flow import Flow
from .sync_transport import SyncTransport

HeartbeatLoop = Callable[[ClientCore, Callable[[], bool]], Flow[None]]


def start_thread(
    config: ClientConfig, loop: HeartbeatLoop, name: str
) -> tuple[threading.Thread, threading.Event]:
    """Run ``loop`` on a daemon thread until the returned event is set; a flow's error
    starts it again (the loop keeps what the consumer must raise)."""
    core = ClientCore(config)
    stopping = threading.Event()  # this thread's: a later one has its own

    def beat() -> None:
        transport = SyncTransport(core)
        try:
            while not stopping.is_set():
                with contextlib.suppress(Exception):
                    transport.run(loop(core, stopping.is_set))
        finally:
            transport.close()

    thread = threading.Thread(target=beat, name=name, daemon=True)
    thread.start()
    return thread, stopping


def start_task(
    transport, core: ClientCore, loop: HeartbeatLoop
) -> tuple[asyncio.Task, asyncio.Event]:
    """Run ``loop`` as a task on ``transport`` (an AsyncTransport) until the returned event
    is set. Its failure is retrieved: no "never retrieved" warning at exit."""
    stopping = asyncio.Event()
    task = asyncio.ensure_future(transport.run(loop(core, stopping.is_set)))
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return task, stopping
