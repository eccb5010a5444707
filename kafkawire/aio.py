"""kafkawire's asyncio face: the same names as the blocking one, with coroutine methods.

``kafkawire.aio.Client``, ``kafkawire.aio.Consumer``, ``kafkawire.aio.ShareConsumer`` and
``kafkawire.aio.Producer`` have the constructors and methods of ``kafkawire.Client``,
``kafkawire.Consumer``, ``kafkawire.ShareConsumer`` and ``kafkawire.Producer``, and
``Producer.send`` returns a ``RecordFuture`` to await; every other type (``TopicPartition``,
``ConsumerRecord``, the errors, ...) is the blocking face's, at the top level of ``kafkawire``.
Both faces drive the same sans-IO core (``kafkawire.client``)."""

from kafkawire.client import AsyncClient as Client
from kafkawire.client import AsyncConsumer as Consumer
from kafkawire.client import AsyncProducer as Producer
from kafkawire.client import AsyncRecordFuture as RecordFuture
from kafkawire.client import AsyncShareConsumer as ShareConsumer

__all__ = ["Client", "Consumer", "Producer", "RecordFuture", "ShareConsumer"]
