"""kafkawire's asyncio face: the same names as the blocking one, with coroutine methods.

``kafkawire.aio.Client`` has ``kafkawire.Client``'s constructor and methods; both drive the
same sans-IO core (``kafkawire.client``)."""

from kafkawire.client import AsyncClient as Client

__all__ = ["Client"]
