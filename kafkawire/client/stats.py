"""statistics.interval.ms and stats_cb: every interval, the consumer's or producer's ``poll``
hands ``stats_cb`` a JSON string in librdkafka's shape (its STATISTICS.md names: name,
client_id, type, ts, time, age, msg_cnt, msg_size, brokers, topics with per-partition offsets
and queues). Only what this client keeps is given; a librdkafka field with no counterpart
here is left out rather than made up. No IO: the faces call ``tick`` from their polls."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from .core import ClientCore

_INSTANCES = itertools.count(1)


class Statistics:
    def __init__(self, core: ClientCore, kind: str) -> None:
        config = core.config
        self._core = core
        self._callback: Callable[[str], Any] | None = config.stats_cb
        self._interval = config.statistics_interval
        self._kind = kind
        self._name = f"{config.client_id}#{kind}-{next(_INSTANCES)}"
        self._created = time.monotonic()
        self._next = self._created + self._interval

    def tick(self, read: Callable[[], tuple[dict[str, Any], dict[str, Any]]]) -> None:
        """Call stats_cb when an interval has passed: ``read()`` (only called then) gives
        the topics object and the type's own top-level fields (a producer's msg_cnt, ...)."""
        if self._callback is None or self._interval <= 0:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = max(self._next + self._interval, now)
        topics, top = read()
        cluster = self._core.cluster
        document = {
            "name": self._name,
            "client_id": self._core.config.client_id,
            "type": self._kind,
            "ts": int(now * 1e6),
            "time": int(time.time()),
            "age": int((now - self._created) * 1e6),
            **top,
            "metadata_cache_cnt": 0 if cluster is None else len(cluster.topics),
            "brokers": {
                f"{host}:{port}/{node}": {"name": f"{host}:{port}/{node}", "nodeid": node}
                for node, (host, port) in sorted(self._core.brokers.items())
            },
            "topics": topics,
        }
        self._callback(json.dumps(document))


def leader_of(core: ClientCore, topic: str, partition: int) -> int:
    cluster = core.cluster
    info = None if cluster is None else cluster.topics.get(topic)
    part = None if info is None else info.partitions.get(partition)
    return -1 if part is None else part.leader


def topics_object(partitions: dict[tuple[str, int], dict[str, Any]]) -> dict[str, Any]:
    """librdkafka's topics object from {(topic, partition): partition fields}."""
    topics: dict[str, Any] = {}
    for (topic, partition), fields in sorted(partitions.items()):
        entry = topics.setdefault(topic, {"topic": topic, "partitions": {}})
        entry["partitions"][str(partition)] = {"partition": partition, **fields}
    return topics
