"""Java's default partitioner for keyed records: toPositive(murmur2(key)) % partitions.

The hash is compiled (``kafkawire.records._build``): one key at a time (``murmur2``), or a
whole column at once (``key_partitions``), as the producer and the Spark sink use it."""

from __future__ import annotations

from kafkawire.records._build import key_partitions, murmur2

__all__ = ["default_partition", "key_partitions", "murmur2"]


def default_partition(key: bytes, num_partitions: int) -> int:
    """The partition Java's producer (and librdkafka's murmur2 partitioner) picks for ``key``."""
    return (murmur2(key) & 0x7FFFFFFF) % num_partitions
