"""How the client's features talk to the transports: flows are generators of effects.

A feature (metadata, offsets, fetch, produce, admin) is written once, as a generator that
yields what it needs done and receives the outcome:

- ``Call(node, request)``: send ``request`` to broker ``node`` (``ANY_BROKER``: whichever is
  reachable) and receive its decoded response; a failure is thrown into the generator.
- ``Gather([Call, ...])``: several calls at once (to different brokers, or pipelined on one
  connection); receives a list with each call's response or exception, in order.
- ``Sleep(seconds)``: back off.
- ``Start(call)``: send a call and go on at once; receives a ticket. ``Wait(tickets,
  timeout)`` receives ``{ticket: response or exception}`` for those that finished, as soon as
  one has (an empty dict when ``timeout`` passes first). The consumer keeps a fetch in flight
  to every broker this way while it hands records out.

The generator's return value is the call's result. The synchronous transport and the asyncio
one drive the same generators, so no protocol logic exists twice (``docs/architecture.md``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from kafkawire.protocol.error_codes import BrokerError

from .errors import BrokerConnectionError, ClientError, RequestTimeoutError

T = TypeVar("T")
ANY_BROKER = None  # Call.node: an open connection, else a known broker, else a bootstrap server


@dataclass(frozen=True, slots=True)
class Call:
    node: int | None
    request: Any
    timeout: float
    newest: int | None = None  # a version cap (e.g. Fetch 12 when topic ids are unknown)


@dataclass(frozen=True, slots=True)
class Gather:
    calls: list[Call]


@dataclass(frozen=True, slots=True)
class Sleep:
    seconds: float


@dataclass(frozen=True, slots=True)
class Start:
    call: Call


@dataclass(frozen=True, slots=True)
class Wait:
    tickets: list
    timeout: float


Effect = Call | Gather | Sleep | Start | Wait
Flow = Generator[Effect, Any, T]


def calls_of(effect: Effect) -> list[Call]:
    """The calls a transport performs for ``effect`` (none for a Sleep)."""
    if isinstance(effect, Call):
        return [effect]
    if isinstance(effect, Gather):
        return effect.calls
    if isinstance(effect, (Sleep, Start, Wait)):
        return []
    raise TypeError(f"a flow yielded {effect!r}")


def resume(flow: Flow, effect: Effect, outcomes: list) -> Effect:
    """Hand ``flow`` the outcomes of ``effect``'s calls (a Call's failure is thrown into it);
    its next effect. StopIteration carries the flow's result."""
    if isinstance(effect, Call):
        (outcome,) = outcomes
        if isinstance(outcome, BaseException):
            return flow.throw(outcome)
        return flow.send(outcome)
    return flow.send(outcomes if isinstance(effect, Gather) else None)


def unreachable(node: int | None, errors: list[str]) -> BrokerConnectionError:
    """The error for a call that found no connection: to ``node``, or to any broker."""
    if not errors:
        return BrokerConnectionError(f"broker {node} is not in the cluster metadata")
    if len(errors) == 1:
        return BrokerConnectionError(errors[0])
    return BrokerConnectionError("no broker reachable: " + "; ".join(errors))


def retrying(
    attempt: Callable[[], Flow[T]],
    what: str,
    *,
    retries: int,
    backoff: float,
    backoff_max: float,
    refresh: Callable[[], Flow[Any]] | None = None,
) -> Flow[T]:
    """Run the flow ``attempt()``; after a lost connection, a timeout or a retriable broker
    error, back off (doubling up to ``backoff_max``), run ``refresh()`` (a metadata refresh:
    the leader may have moved) and try again, ``retries`` times at most."""
    for tries in range(retries + 1):
        try:
            return (yield from attempt())
        except (BrokerConnectionError, RequestTimeoutError) as exc:
            if tries == retries:
                raise type(exc)(f"{what}: {exc} (after {tries + 1} attempts)") from None
        except BrokerError as exc:
            if not exc.retriable or tries == retries:
                raise
        yield Sleep(backoff)
        backoff = min(backoff * 2, backoff_max)
        if refresh is not None:
            with contextlib.suppress(ClientError, BrokerError):
                yield from refresh()
    raise AssertionError("unreachable")


class Deadline:
    """The time left of a call, for flows that wait in a loop (no IO: only the clock)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self._end
