"""The producer's jobs: the flows its sender steps between its own calls.

What the producer asks of the cluster besides Produce (metadata, InitProducerId, the
transaction coordinator's requests, a face's wait for a topic's partitions) is an ordinary flow.
The sender does not drive it with a transport of its own: it steps it here, and the calls the
job yields go out with the sender's (``take_calls``), so one connection per broker carries
everything. A job may also sleep, or wait until no batch is queued or in flight (``Drained``:
a transaction's end). Everything here runs under the producer's lock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..errors import ClientError
from ..flow import Call, Flow, Gather, Sleep


@dataclass(frozen=True, slots=True)
class Drained:
    """A job's effect: resume once no batch is queued or in flight (a transaction's end)."""


class _Job:
    __slots__ = ("flow", "on_done", "wake_at")

    def __init__(self, flow: Flow, on_done: Callable[[Any, BaseException | None], None]):
        self.flow = flow
        self.on_done = on_done
        self.wake_at = 0.0


class Jobs:
    """The jobs under way: the calls they wait on, their sleeps, their waits for a drain."""

    def __init__(self) -> None:
        self._to_start: list[tuple[Call, Callable]] = []  # (call, its handler) for the sender
        self._sleeping: list[_Job] = []
        self._drain_waiters: list[_Job] = []
        self._jobs: set[_Job] = set()
        self.last_failure: str | None = None  # of a job's call (its message: no traceback)

    def start(self, flow: Flow, on_done: Callable[[Any, BaseException | None], None]) -> None:
        """Step ``flow`` to its first effect; ``on_done(result, error)`` at its end."""
        job = _Job(flow, on_done)
        self._jobs.add(job)
        self._step(job, None)

    def take_calls(self) -> list[tuple[Call, Callable]]:
        """The calls the jobs yielded since the last take, each with the handler of its
        outcome: the sender starts them."""
        starts, self._to_start = self._to_start, []
        return starts

    def has_calls(self) -> bool:
        return bool(self._to_start)

    def tick(self, now: float, drained: Callable[[], bool]) -> None:
        """Resume the jobs whose sleep is over, and those waiting for a drain if ``drained()``
        (asked after the sleepers ran)."""
        for job in [j for j in self._sleeping if j.wake_at <= now]:
            self._sleeping.remove(job)
            self._step(job, None)
        if self._drain_waiters and drained():
            waiters, self._drain_waiters = self._drain_waiters, []
            for job in waiters:
                self._step(job, None)

    def next_wake(self, at: float) -> float:
        """``at``, or the end of a job's sleep if that comes sooner."""
        for job in self._sleeping:
            at = min(at, job.wake_at)
        return at

    def end(self, error: BaseException) -> None:
        """Close every job, each ending with ``error`` (the producer is closed)."""
        jobs, self._jobs = self._jobs, set()
        self._to_start.clear()
        self._sleeping.clear()
        self._drain_waiters.clear()
        for job in jobs:
            job.flow.close()
            job.on_done(None, error)

    def fail(self, error: BaseException) -> None:
        """The sender is gone: every job ends with ``error`` (nothing else would end them)."""
        jobs, self._jobs = self._jobs, set()
        for job in jobs:
            job.on_done(None, error)

    def _step(self, job: _Job, outcome) -> None:
        if isinstance(outcome, ClientError):
            self.last_failure = str(outcome)  # what held records that expire were waiting on
        try:
            if isinstance(outcome, BaseException):
                effect = job.flow.throw(outcome)
            else:
                effect = job.flow.send(outcome)
        except StopIteration as stop:
            self._jobs.discard(job)
            job.on_done(stop.value, None)
            return
        except Exception as exc:
            self._jobs.discard(job)
            job.on_done(None, exc)
            return
        if isinstance(effect, Call):
            self._to_start.append((effect, partial(self._step, job)))
        elif isinstance(effect, Gather):
            results: list = [None] * len(effect.calls)
            left = [len(effect.calls)]

            def one(i, outcome):
                results[i] = outcome
                left[0] -= 1
                if left[0] == 0:
                    self._step(job, results)

            if not effect.calls:
                self._step(job, [])
            for i, call in enumerate(effect.calls):
                self._to_start.append((call, partial(one, i)))
        elif isinstance(effect, Sleep):
            job.wake_at = time.monotonic() + effect.seconds
            self._sleeping.append(job)
        elif isinstance(effect, Drained):
            self._drain_waiters.append(job)
        else:
            self._step(job, TypeError(f"a producer job yielded {effect!r}"))
