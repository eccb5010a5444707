"""The stream reader's planning, driven as Spark's planner process drives it (initialOffset,
latestOffset, partitions) against a real broker (Tansu), without a Spark query: a
subscribed topic that does not exist yet, minOffsetsPerTrigger and maxTriggerDelay."""

from __future__ import annotations

import json
import time
import uuid

import pyarrow as pa
import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows

from kafkawire.client import Client, TopicPartition
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.spark._read_options import read_options
from kafkawire.spark._sources import KafkaStreamReader

pytestmark = pytest.mark.interop


@pytest.fixture(scope="module")
def client(broker):
    with Client(broker.bootstrap) as c:
        yield c


def stream_reader(broker, topic: str, **options: str) -> KafkaStreamReader:
    given = {"kafka.bootstrap.servers": broker.bootstrap, "subscribe": topic, **options}
    return KafkaStreamReader(read_options(given, streaming=True))


def produce(client: Client, topic: str, count: int, partition: int = 0) -> None:
    client.produce_columns(TopicPartition(topic, partition), [b"x"] * count)


def test_subscribe_waits_for_a_topic_that_does_not_exist_yet(broker, client):
    topic = f"later-{uuid.uuid4().hex[:8]}"
    reader = stream_reader(broker, topic, startingOffsets="latest")
    try:
        start = reader.initialOffset()
        assert start == {}
        assert reader.latestOffset(start, ReadAllAvailable()) == {}  # no micro-batch yet
        client.create_topics({topic: 2})
        produce(client, topic, 3, partition=0)
        produce(client, topic, 2, partition=1)
        end = reader.latestOffset(start, ReadAllAvailable())
        assert end == {topic: {"0": 3, "1": 2}}
        # the topic's partitions appeared while the query ran: read from their beginning
        tasks = reader.partitions(start, end)
        assert sorted((t.range.tp.partition, t.range.start, t.range.end) for t in tasks) == [
            (0, 0, 3),
            (1, 0, 2),
        ]
        rows = sum(pa.Table.from_batches(list(reader.read(t))).num_rows for t in tasks)
        assert rows == 5
    finally:
        reader.stop()
    # assign names partitions, not a subscription to wait on: a missing topic is an error
    assigned = KafkaStreamReader(
        read_options(
            {
                "kafka.bootstrap.servers": broker.bootstrap,
                "assign": json.dumps({f"nope-{topic}": [0]}),
            },
            streaming=True,
        )
    )
    try:
        with pytest.raises(UnknownTopicOrPartitionError, match=f"nope-{topic}"):
            assigned.initialOffset()
    finally:
        assigned.stop()


def test_min_offsets_per_trigger_waits_for_records_or_max_trigger_delay(broker, client):
    topic = f"min-{uuid.uuid4().hex[:8]}"
    client.create_topics({topic: 1})
    produce(client, topic, 5)
    reader = stream_reader(
        broker, topic, startingOffsets="earliest", minOffsetsPerTrigger="8", maxTriggerDelay="1h"
    )
    try:
        start = reader.initialOffset()
        # the first micro-batch is never delayed (as in Spark's source)
        first = reader.latestOffset(start, ReadAllAvailable())
        assert first == {topic: {"0": 5}}
        produce(client, topic, 3)
        assert reader.latestOffset(first, ReadAllAvailable()) == first  # 3 < 8: no batch
        produce(client, topic, 5)
        # 8 new records: a micro-batch, within maxOffsetsPerTrigger when both are set
        assert reader.latestOffset(first, ReadMaxRows(6)) == {topic: {"0": 11}}
        assert reader.latestOffset(first, ReadAllAvailable()) == {topic: {"0": 13}}
    finally:
        reader.stop()

    delayed = stream_reader(
        broker, topic, startingOffsets="latest", minOffsetsPerTrigger="100", maxTriggerDelay="1s"
    )
    try:
        start = delayed.initialOffset()
        assert delayed.latestOffset(start, ReadAllAvailable()) == start  # nothing new at all
        produce(client, topic, 2)
        assert delayed.latestOffset(start, ReadAllAvailable()) == start  # 2 < 100
        time.sleep(1.1)
        # maxTriggerDelay since the last micro-batch: what there is goes through
        assert delayed.latestOffset(start, ReadAllAvailable()) == {topic: {"0": 15}}
    finally:
        delayed.stop()
