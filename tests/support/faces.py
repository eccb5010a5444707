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
from kafkawire.aio import Producer as AsyncProducer
from kafkawire.client import Client, Consumer, Producer

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

    def close(self, *args, **kwargs) -> None:
        try:
            self._wait(self._client.close(*args, **kwargs))
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


class _Awaited:
    """A future of the asyncio producer, waited for from the test's thread."""

    def __init__(self, owner: BlockingAsyncClient, future) -> None:
        self._owner = owner
        self._future = future

    def done(self) -> bool:
        return self._future.done()

    def result(self, timeout: float | None = None):
        async def outcome():
            return await asyncio.wait_for(_awaited(self._future), timeout)

        try:
            return self._owner._wait(outcome())
        except asyncio.TimeoutError:
            raise TimeoutError(f"no delivery report in {timeout} s") from None

    def exception(self, timeout: float | None = None):
        try:
            self.result(timeout)
        except TimeoutError:
            raise
        except Exception as exc:
            return exc
        return None

    def add_done_callback(self, fn) -> None:
        # called on the loop thread with the producer's own (done) future, whose result()
        # answers at once there
        self._owner._loop.call_soon_threadsafe(self._future.add_done_callback, fn)


async def _awaited(future):
    return await future


class BlockingAsyncProducer(BlockingAsyncClient):
    """An ``AsyncProducer`` behind the blocking adapter: its futures are awaited on the loop
    thread when the test asks for their result."""

    made = AsyncProducer

    def send(self, *args, **kwargs):
        return _Awaited(self, self._wait(self._client.send(*args, **kwargs)))

    def send_batch(self, *args, **kwargs):
        return _Awaited(self, self._wait(self._client.send_batch(*args, **kwargs)))

    def send_arrow(self, *args, **kwargs):
        return _Awaited(self, self._wait(self._client.send_arrow(*args, **kwargs)))


def make_producer(face: str, *args, **kwargs):
    """A producer of ``face`` ("sync" or "asyncio") with a blocking interface."""
    if face == "sync":
        return Producer(*args, **kwargs)
    return BlockingAsyncProducer(*args, **kwargs)
