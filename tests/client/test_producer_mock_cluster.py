"""The producer against librdkafka's mock cluster (three brokers, ``tests/support/
mock_cluster.py``), through both faces: partition leaders moving while Produce answers carry
injected errors, leaders taken from the answers (KIP-951), transactions over partitions led
by different brokers with the coordinator moved. Every scenario is run with librdkafka's own
producer first (the bed is proven), and every verdict is read back by librdkafka's consumer,
not by kafkawire.

The module has a cluster of its own: faults are cluster-wide."""

from __future__ import annotations

import collections
import threading
import time
import uuid

import pytest

from kafkawire.protocol import ApiKey
from tests.support.faces import make_producer

confluent_kafka = pytest.importorskip("confluent_kafka")

pytestmark = pytest.mark.interop

RECORDS = 20_000
KEYS = 200
MOVE_EVERY = 0.15  # seconds between leader moves
INJECTED = [6, 7, 19]  # NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS
PRODUCER = {"linger.ms": 5, "enable.idempotence": True}


@pytest.fixture(scope="module")
def mock():
    from tests.support.mock_cluster import MockCluster

    cluster = MockCluster(3)
    yield cluster
    cluster.close()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class Chaos:
    """A thread that moves every partition's leader to the next broker every MOVE_EVERY s and
    puts one injected error (in turn: INJECTED) on the next Produce answer at each move, from
    ``start()`` to ``stop()``: while the records are sent. (librdkafka's producer stalls for a
    while under moves that never end: seconds to a minute with records left, in one run of
    three; it delivers them once the moves stop, so both producers flush after ``stop()``.)"""

    def __init__(self, mock, topic: str, partitions: int) -> None:
        self.mock, self.topic, self.partitions = mock, topic, partitions
        self.moves = 0
        self.injected = collections.Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        brokers = self.mock.broker_ids
        while not self._stop.wait(MOVE_EVERY):
            self.moves += 1
            for p in range(self.partitions):
                self.mock.set_leader(self.topic, p, brokers[(self.moves + p) % len(brokers)])
            code = INJECTED[self.moves % len(INJECTED)]
            self.mock.push_errors(ApiKey.PRODUCE, [code])
            self.injected[code] += 1

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        self.mock.clear_errors(ApiKey.PRODUCE)


def read_back(mock, topic: str, partitions: int, *, committed: bool = False) -> list:
    """Every record of the topic, by librdkafka's consumer from offset 0 to the end of each
    partition: [(partition, offset, key, value)] in partition and offset order."""
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": mock.bootstrap,
            "group.id": unique("reader"),
            "enable.auto.commit": False,
            "enable.partition.eof": True,
            "isolation.level": "read_committed" if committed else "read_uncommitted",
        }
    )
    records = []
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, p, 0) for p in range(partitions)])
        at_end: set[int] = set()
        deadline = time.monotonic() + 60
        while len(at_end) < partitions and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error() is not None:
                if msg.error().code() == confluent_kafka.KafkaError._PARTITION_EOF:
                    at_end.add(msg.partition())
                    continue
                raise AssertionError(f"the reader failed: {msg.error()}")
            at_end.discard(msg.partition())
            records.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
        assert len(at_end) == partitions, "the reader did not reach the end of every partition"
    finally:
        consumer.close()
    return sorted(records)


def check_exactly_once_in_order(records: list, acked: dict[bytes, tuple[int, int]]) -> None:
    """Every acknowledged value once, nothing else; each key's values in send order; the
    offsets the producer reported are where the records are."""
    values = collections.Counter(value for _, _, _, value in records)
    twice = [v for v, n in values.items() if n > 1]
    assert not twice, f"{len(twice)} records written more than once, e.g. {twice[:3]}"
    assert set(values) == set(acked), "the log and the acknowledgements differ"
    by_key = collections.defaultdict(list)
    for partition, offset, key, value in records:
        by_key[key].append(int(value.split(b"-")[1]))
        reported = acked[value]
        assert reported[1] < 0 or reported == (partition, offset), value
    for key, numbers in by_key.items():
        assert numbers == sorted(numbers), f"key {key!r} out of send order"


def keyed_value(i: int) -> tuple[bytes, bytes]:
    return b"key-%d" % (i % KEYS), b"v-%d" % i


def produce_with_librdkafka(mock, topic: str, chaos: Chaos) -> dict[bytes, tuple[int, int]]:
    acked: dict[bytes, tuple[int, int]] = {}
    failed = []

    def report(err, msg):
        if err is None:
            acked[msg.value()] = (msg.partition(), msg.offset())
        else:
            failed.append(err)

    producer = confluent_kafka.Producer(
        {"bootstrap.servers": mock.bootstrap, "enable.idempotence": True, "linger.ms": 5}
    )
    chaos.start()
    for i in range(RECORDS):
        key, value = keyed_value(i)
        producer.produce(topic, value, key=key, on_delivery=report)
        if i % 500 == 499:  # spread over a few seconds: many leader moves meet the records
            time.sleep(0.05)
            producer.poll(0)
    chaos.stop()
    assert producer.flush(60) == 0
    assert not failed, failed[:3]
    return acked


def produce_with_kafkawire(face: str, mock, topic: str, chaos: Chaos) -> dict:
    with make_producer(face, mock.bootstrap, config=PRODUCER) as producer:
        futures = []
        chaos.start()
        for i in range(RECORDS):
            key, value = keyed_value(i)
            futures.append((value, producer.send(topic, value, key=key)))
            if i % 500 == 499:
                time.sleep(0.05)
        chaos.stop()
        assert producer.flush(60) == 0
        acked = {}
        for value, future in futures:
            meta = future.result(timeout=60)  # raises if the record failed
            acked[value] = (meta.partition, meta.offset)
    return acked


@pytest.mark.parametrize("client", ["librdkafka", "sync", "asyncio"])
def test_keyed_idempotent_produce_while_leaders_move_and_answers_fail(mock, client):
    """20,000 keyed records while every partition's leader moves across the three brokers every
    150 ms and Produce answers carry NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT and
    NOT_ENOUGH_REPLICAS: each record acknowledged, written once, each key's in send order."""
    topic, partitions = unique("chaos"), 6
    mock.create_topic(topic, partitions, 3)
    chaos = Chaos(mock, topic, partitions)
    try:
        if client == "librdkafka":
            acked = produce_with_librdkafka(mock, topic, chaos)
        else:
            acked = produce_with_kafkawire(client, mock, topic, chaos)
    finally:
        chaos.stop()
    assert len(acked) == RECORDS
    assert chaos.moves >= 5, "the leaders hardly moved while the records went"
    assert all(chaos.injected[code] for code in INJECTED)
    check_exactly_once_in_order(read_back(mock, topic, partitions), acked)
