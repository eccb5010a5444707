"""The heartbeats that keep a group member in while its consumer is between polls: a thread with a
connection of its own beside a blocking consumer (the transports are not shared), a task on the
same event loop and transport beside an asyncio one. What they run is the member's
``heartbeat_loop(core, stopped)`` flow (``groups/classic.py``, ``groups/consumer_protocol.py``,
``share/session.py``); the faces of the consumer and the share consumer start them here."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

from ..config.client import ClientConfig
from ..core import ClientCore
from ..flow import Flow
from ..sync_transport import SyncTransport

HeartbeatLoop = Callable[[ClientCore, Callable[[], bool]], Flow[None]]


class HeartbeatThread:
    """A blocking face's heartbeats: ``start`` runs a member's loop on a daemon thread with a
    connection of its own (a flow's error starts it again: the loop keeps what the consumer
    must raise); ``stop`` tells it to end and waits for it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self, config: ClientConfig, loop: HeartbeatLoop) -> None:
        if self._thread is not None:
            return
        core = ClientCore(config)
        stopping = self._stopping = threading.Event()  # this thread's: a later one has its own

        def beat() -> None:
            transport = SyncTransport(core)
            try:
                while not stopping.is_set():
                    with contextlib.suppress(Exception):
                        transport.run(loop(core, stopping.is_set))
            finally:
                transport.close()

        self._thread = threading.Thread(target=beat, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, seconds: float = 5.0) -> None:
        """End the heartbeats (before a leave: one sent after it would join again), waiting
        ``seconds`` at most (5 at most): a heartbeat waiting on a silent coordinator ends on
        its own, by its request timeout."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(max(0.0, min(seconds, 5.0)))
            self._thread = None


class HeartbeatTask:
    """An asyncio face's heartbeats: ``start`` runs a member's loop as a task on the face's
    transport; ``stop`` tells it to end and awaits it."""

    def __init__(self) -> None:
        self._task: asyncio.Task | None = None
        self._stopping = asyncio.Event()

    def start(self, transport, core: ClientCore, loop: HeartbeatLoop) -> None:
        if self._task is not None:
            return
        stopping = self._stopping = asyncio.Event()  # this task's: a later one has its own
        task = asyncio.ensure_future(transport.run(loop(core, stopping.is_set)))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # always retrieved
        self._task = task

    async def stop(self, seconds: float | None = None) -> None:
        """End the heartbeats; a heartbeat still waiting after ``seconds`` (None: however long
        it takes) is cancelled."""
        self._stopping.set()
        task, self._task = self._task, None
        if task is None:
            return
        if seconds is not None:
            done, _ = await asyncio.wait({task}, timeout=max(0.0, seconds))
            if not done:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                return
        with contextlib.suppress(Exception):
            await task
