"""kafkawire's asyncio face: the same names as the blocking one, with coroutine methods.

``kafkawire.aio.Client`` and ``kafkawire.aio.Consumer`` have the constructors and methods of
``kafkawire.Client`` and ``kafkawire.Consumer``; both faces drive the same sans-IO core
(``kafkawire.client``)."""

from kafkawire.client import AsyncClient as Client
from kafkawire.client import AsyncConsumer as Consumer

__all__ = ["Client", "Consumer"]
