"""The client suite runs through both faces: ``kafkawire.Client`` as it is, and
``kafkawire.aio.Client`` behind a blocking adapter whose coroutines run on an event loop in a
thread of its own (so every call really goes through the asyncio transport)."""

from __future__ import annotations

import asyncio
import functools
import inspect
import threading

from kafkawire.aio import Client as AsyncClient
from kafkawire.aio import Consumer as AsyncConsumer
from kafkawire.client import Client, Consumer

FACES = ["sync", "asyncio"]


class BlockingAsyncClient:
    """An ``AsyncClient`` whose methods block until their coroutine ends on the loop thread."""

    made = AsyncClient

    def __init__(self, *args, **kwargs) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        # built on the loop: the client belongs to its loop
        self._client = self._wait(self._make(args, kwargs))

    async def _make(self, args, kwargs):
        return self.made(*args, **kwargs)

    def _wait(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def __getattr__(self, name: str):
        method = getattr(self._client, name)
        if not callable(method):
            return method

        @functools.wraps(method)
        def call(*args, **kwargs):
            result = method(*args, **kwargs)
            return self._wait(result) if inspect.isawaitable(result) else result

        return call

    def read_range(self, *args, **kwargs):
        chunks = self._client.read_range(*args, **kwargs)
        while True:
            try:
                yield self._wait(chunks.__anext__())
            except StopAsyncIteration:
                return

    def close(self) -> None:
        try:
            self._wait(self._client.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
            self._loop.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def make_client(face: str, *args, **kwargs):
    """A client of ``face`` ("sync" or "asyncio") with a blocking interface."""
    if face == "sync":
        return Client(*args, **kwargs)
    return BlockingAsyncClient(*args, **kwargs)


class BlockingAsyncConsumer(BlockingAsyncClient):
    """An ``AsyncConsumer`` behind the same blocking adapter (its heartbeats run as a task on
    the loop thread)."""

    made = AsyncConsumer

    def __iter__(self):
        records = self._client.__aiter__()
        while True:
            yield self._wait(records.__anext__())


def make_consumer(face: str, *args, **kwargs):
    """A consumer of ``face`` ("sync" or "asyncio") with a blocking interface."""
    if face == "sync":
        return Consumer(*args, **kwargs)
    return BlockingAsyncConsumer(*args, **kwargs)
