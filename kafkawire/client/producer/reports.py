"""What a producer's ``poll`` (and ``flush``) reports on the caller's thread, confluent-kafka's
way: ``produce()``'s delivery reports, ``on_delivery(err, msg)`` with confluent-kafka's
KafkaError and Message, and with them the statistics (stats_cb, each statistics.interval.ms)
and the brokers lost, silent or refusing (error_cb, each failure once).

A report is built when its record's future is done (on the sender's thread, or its task) and
queued; the callbacks run only from ``run``, so a user's callback never runs on the sender.
"""

from __future__ import annotations

import collections
import functools
import time
from collections.abc import Callable

from ..confluent_shapes import OFFSET_INVALID, KafkaError, Message
from ..core import ClientCore
from ..stats import Statistics
from .columns import header_pairs
from .config import ProducerConfig
from .core import ProducerCore


class Reports:
    """The reports of one producer. ``lock`` guards the queue and the count (the blocking
    face's Condition; a null context on the asyncio face, whose futures finish on its loop);
    ``notify()`` is called under it when a report is queued."""

    def __init__(
        self,
        core: ClientCore,
        config: ProducerConfig,
        producer: ProducerCore,
        lock,
        notify: Callable[[], None],
    ) -> None:
        self._core = core
        self._config = config
        self._producer = producer
        self._stats = Statistics(core, "producer")
        self._last_error: str | None = None  # the last one error_cb heard
        self.lock = lock
        self._notify = notify
        self.queue: collections.deque = collections.deque()  # (callback, error, message)
        self.unreported = 0  # records produced with a callback, not reported yet

    def expect(self, future, report, topic, partition, value, key, headers, started) -> None:
        """A record produced with the callback ``report``: its report is queued once
        ``future`` is done."""
        with self.lock:
            self.unreported += 1
        future.add_done_callback(
            functools.partial(self._done, report, topic, partition, value, key, headers, started)
        )

    def _done(self, report, topic, partition, value, key, headers, started, future) -> None:
        """A produced record's outcome (``future`` done) queued for poll/flush: report(err,
        msg) with confluent-kafka's KafkaError and Message."""
        latency = time.monotonic() - started
        try:
            error = future.exception()
            headers = header_pairs(headers) or None
        except Exception as exc:  # (a report is never lost: flush waits for each)
            error, headers = exc, None
        if error is None:
            md = future.result()
            msg = Message(
                md.topic,
                md.partition,
                md.offset,
                key,
                value,
                headers,
                timestamp=md.timestamp,
                latency=latency,
            )
            err = None
        else:
            err = KafkaError._of(error)
            msg = Message(
                topic,
                -1 if partition is None else partition,
                OFFSET_INVALID,
                key,
                value,
                headers,
                error=err,
                latency=latency,
            )
        only_errors = self._config.delivery_report_only_error
        item = None if only_errors and err is None else (report, err, msg)
        with self.lock:
            if item is not None:  # (None: delivery.report.only.error, and it was delivered)
                self.queue.append(item)
            self.unreported -= 1
            self._notify()

    def ready(self) -> bool:
        """Whether poll has a report to run, or none to wait for."""
        return bool(self.queue) or not self.unreported

    def all_queued(self) -> bool:
        """Whether every produced record's report is queued (flush waits for that)."""
        return not self.unreported

    def run(self) -> int:
        """stats_cb (when statistics.interval.ms has passed) and error_cb (each sender failure
        once), then the delivery callbacks queued, on this thread: how many of those ran. A
        callback's exception goes to the caller (the rest stay queued for the next poll)."""

        def read() -> tuple[dict, dict]:
            with self._producer.lock:  # the sender's state (not the reports' lock)
                topics, count, size = self._producer.statistics()
            return topics, {"msg_cnt": count, "msg_size": size}

        self._stats.tick(read)
        with self._producer.lock:
            errors, self._producer.errors = self._producer.errors, []
        for error in errors:  # error_cb: the brokers lost, silent or refusing
            if self._core.config.error_cb is not None and str(error) != self._last_error:
                self._core.config.error_cb(error)  # (each failure once, not each retry of it)
            self._last_error = str(error)
        ran = 0
        while True:
            with self.lock:
                if not self.queue:
                    return ran
                report, err, msg = self.queue.popleft()
            report(err, msg)
            ran += 1
