"""What a consume prints and when it stops, for ``kafkawire consume`` and its share-group form
(``consume.py``, ``share.py``): one line or JSON object a record, and the --timeout clock."""

from __future__ import annotations

import base64
import json
import time

from kafkawire.cli.common import CliError

# How long --timeout waits for a group to assign partitions at all, beyond the timeout itself:
# a join waits out the group's rebalance (Kafka's default rebalance timeout is 5 minutes, but
# a first join is over in seconds unless members come and go).
JOIN_GRACE = 60.0


class IdleClock:
    """--timeout: the seconds since the last record, once the consumer has partitions. Joining
    a group takes time of its own (tens of seconds on some brokers), which is not idleness;
    a join that gives no partitions within --timeout + JOIN_GRACE is an error."""

    def __init__(self, timeout: float | None, consumer, topic: str, group: str | None) -> None:
        self.timeout = timeout
        self._consumer, self._topic, self._group = consumer, topic, group
        self._started = self._since = time.monotonic()
        self._assigned = False

    def record(self) -> None:
        self._since = time.monotonic()

    def expired(self) -> bool:
        if self.timeout is None:
            return False
        now = time.monotonic()
        if not self._assigned:
            if not self._consumer.assignment():
                waited = now - self._started
                if waited >= self.timeout + JOIN_GRACE:
                    raise CliError(
                        f"no partition of {self._topic!r} assigned to this member of group "
                        f"{self._group!r} after {waited:.0f} s"
                    )
                return False
            self._assigned, self._since = True, now
        return now - self._since >= self.timeout


def print_record(r, as_json: bool, *, delivery_count: bool = False) -> None:
    """One record on stdout: ``partition<TAB>offset<TAB>value``, or with ``as_json`` one
    object (topic, partition, offset, timestamp, key, value, headers, and the record's
    delivery_count with ``delivery_count``: a share group's)."""
    if as_json:
        row = {
            "topic": r.topic,
            "partition": r.partition,
            "offset": r.offset,
            "timestamp": r.timestamp,
            "key": _text(r.key),
            "value": _text(r.value),
            "headers": [[k, _text(v)] for k, v in r.headers],
        }
        if delivery_count:
            row["delivery_count"] = r.delivery_count
        print(json.dumps(row))
    else:
        value = "null" if r.value is None else r.value.decode("utf-8", "backslashreplace")
        print(f"{r.partition}\t{r.offset}\t{value}")


def _text(data: bytes | None) -> str | None:
    """UTF-8 text, or ``base64:`` and the bytes for a value that is not text."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(data).decode("ascii")
