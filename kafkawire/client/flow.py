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
from dataclasses import dataclass, replace
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
    the leader may have moved) and try again, ``retries`` times at most. An error that already
    ended its own retries (an inner flow's) is not retried again: retries never multiply."""
    start = time.monotonic()
    for tries in range(retries + 1):
        try:
            return (yield from attempt())
        except (BrokerConnectionError, RequestTimeoutError) as exc:
            if getattr(exc, "exhausted", False):
                raise
            if tries == retries:
                elapsed = time.monotonic() - start
                message = f"{what}: {exc} (after {tries + 1} attempts in {elapsed:.1f} s)"
                raise _exhausted(type(exc)(message)) from None
        except BrokerError as exc:
            if not exc.retriable or tries == retries:
                raise
        yield Sleep(backoff)
        backoff = min(backoff * 2, backoff_max)
        if refresh is not None:
            with contextlib.suppress(ClientError, BrokerError):
                yield from refresh()
    raise AssertionError("unreachable")


def within(flow: Flow[T], seconds: float | None, what: str) -> Flow[T]:
    """``flow`` given at most ``seconds`` (None: its own retries bound it). Each call's
    timeout, each backoff and each Wait is cut to the time left; a flow that still asks once
    the time is gone is closed and the call fails with RequestTimeoutError, which says the
    elapsed time, how many requests failed and the last failure (with its address)."""
    if seconds is None:
        return (yield from flow)
    start = time.monotonic()
    end = start + max(0.0, seconds)
    outcome: Any = None
    # the failures' messages, not the exceptions: their tracebacks hold this frame, and a
    # cycle through it would keep response buffers alive until the garbage collector runs
    failures: list[str] = []
    while True:
        try:
            if isinstance(outcome, BaseException):
                effect = flow.throw(outcome)
            else:
                effect = flow.send(outcome)
        except StopIteration as stop:
            return stop.value
        except (BrokerConnectionError, RequestTimeoutError) as exc:
            if time.monotonic() < end or getattr(exc, "exhausted", False):
                raise
            failures.append(str(exc))  # a call cut at the deadline: the deadline is the news
            raise _overdue(what, seconds, start, failures) from None
        left = end - time.monotonic()
        if left <= 0:
            flow.close()
            outcome = None  # (an exception here would tie its traceback to this frame)
            raise _overdue(what, seconds, start, failures)
        effect = cut(effect, left)
        try:
            outcome = yield effect
        except Exception as exc:  # a call's failure: the flow's to handle
            outcome = exc
        failures.extend(_failures(effect, outcome))


def cut(effect: Effect, left: float) -> Effect:
    """``effect`` with its waiting cut to ``left`` seconds."""
    if isinstance(effect, Call):
        return replace(effect, timeout=min(effect.timeout, left))
    if isinstance(effect, Gather):
        return Gather([replace(c, timeout=min(c.timeout, left)) for c in effect.calls])
    if isinstance(effect, Sleep):
        return Sleep(min(effect.seconds, left))
    if isinstance(effect, Start):
        return Start(replace(effect.call, timeout=min(effect.call.timeout, left)))
    if isinstance(effect, Wait):
        return Wait(effect.tickets, min(effect.timeout, left))
    return effect


def _failures(effect: Effect, outcome: Any) -> list[str]:
    if isinstance(effect, Call):
        outcome = [outcome]
    elif isinstance(effect, Wait):
        outcome = list(outcome.values()) if isinstance(outcome, dict) else []
    elif not isinstance(effect, Gather):
        return []
    return [str(o) for o in outcome if isinstance(o, (ClientError, BrokerError))]


def _exhausted(error: BaseException) -> BaseException:
    """``error``, marked as the end of a flow's retries (an outer flow does not retry it)."""
    error.exhausted = True  # type: ignore[attr-defined]
    return error


def _overdue(what: str, seconds: float, start: float, failures: list) -> RequestTimeoutError:
    elapsed = time.monotonic() - start
    message = f"{what}: not done in {seconds:g} s (gave up after {elapsed:.2f} s"
    if failures:
        count = len(failures)
        message += f"; {count} request{'' if count == 1 else 's'} failed, the last: {failures[-1]}"
    return _exhausted(RequestTimeoutError(message + ")"))  # type: ignore[return-value]


class Continued:
    """A flow run a slice at a time, across calls: ``advance(seconds)`` drives it until it
    ends or the slice is used up, and the calls it has made stay in flight in between (a
    group join that takes longer than one ``poll``). ``seconds`` is the whole time it may
    take, over every slice: then it fails as ``within`` fails a flow."""

    def __init__(self, flow: Flow[Any], what: str, seconds: float | None) -> None:
        self._flow = within(flow, seconds, what)
        self._effect: Effect | None = None
        self._tickets: list = []  # the current Call's or Gather's, in order
        self._outcomes: dict = {}
        self._wake_at: float | None = None  # the current Sleep's end
        self.finished = False
        self.result: Any = None

    def advance(self, seconds: float | None) -> Flow[bool]:
        """Drive the flow for up to ``seconds`` (None: to its end); whether it has ended
        (``result`` holds its value; its error is raised)."""
        end = None if seconds is None else time.monotonic() + seconds
        if self._effect is None:
            self._step(None, first=True)
        while not self.finished:
            effect = self._effect
            left = None if end is None else end - time.monotonic()
            if isinstance(effect, Sleep):
                if self._wake_at is None:
                    self._wake_at = time.monotonic() + effect.seconds
                nap = self._wake_at - time.monotonic()
                if nap > 0:
                    if left is not None and left <= 0:
                        return False
                    yield Sleep(nap if left is None else min(nap, left))
                    continue
                self._wake_at = None
                self._step(None)
            elif isinstance(effect, (Call, Gather)):
                calls = calls_of(effect)
                if not self._tickets and calls:
                    for call in calls:
                        self._tickets.append((yield Start(call)))
                waiting = [t for t in self._tickets if t not in self._outcomes]
                if waiting:  # (asked even with no time left: what has come is taken)
                    timeout = _FOREVER if left is None else max(0.0, left)
                    self._outcomes.update((yield Wait(waiting, timeout)))
                    if (
                        left is not None
                        and left <= 0
                        and any(t not in self._outcomes for t in waiting)
                    ):
                        return False
                    continue
                outcomes = [self._outcomes[t] for t in self._tickets]
                self._tickets, self._outcomes = [], {}
                self._resume(effect, outcomes)
            else:
                self._step(TypeError(f"a continued flow yielded {effect!r}"))
        return True

    def _resume(self, effect: Effect, outcomes: list) -> None:
        try:
            self._effect = resume(self._flow, effect, outcomes)
        except StopIteration as stop:
            self.finished, self.result = True, stop.value
        except BaseException:
            self.finished = True
            raise

    def _step(self, outcome: Any, *, first: bool = False) -> None:
        try:
            if first:
                self._effect = next(self._flow)
            elif isinstance(outcome, BaseException):
                self._effect = self._flow.throw(outcome)
            else:
                self._effect = self._flow.send(outcome)
        except StopIteration as stop:
            self.finished, self.result = True, stop.value
        except BaseException:
            self.finished = True
            raise

    def close(self) -> None:
        """Give the flow up (its calls in flight are left to end unread)."""
        self._flow.close()
        self.finished = True


_FOREVER = 86400.0 * 365  # a Wait with no end: a year


class Deadline:
    """The time left of a call, for flows that wait in a loop (no IO: only the clock)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self._end
