"""kafkawire as a drop-in for confluent-kafka: one program written for confluent-kafka
(tests/client/dropin/confluent_program.py: produce with a delivery callback and poll/flush,
a consumer group with on_assign, a poll loop with msg.error(), synchronous commits, committed,
close) runs twice against Tansu, as it is and with only its import line changed to
``from kafkawire.confluent import ...``; both runs must deliver and read the same messages
(topics, partitions, offsets, keys, values, headers) and commit the same offsets."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from kafkawire.client import Client

pytestmark = pytest.mark.interop

pytest.importorskip("confluent_kafka")

PROGRAM = Path(__file__).parent / "dropin" / "confluent_program.py"
NAMES = "Consumer, KafkaError, KafkaException, Producer, TopicPartition"
CONFLUENT = f"from confluent_kafka import {NAMES}"
KAFKAWIRE = f"from kafkawire.confluent import {NAMES}"
PARTITIONS = 3
COUNT = 200


def run(source: str, path: Path, bootstrap: str, topic: str) -> dict:
    path.write_text(source)
    group = f"dropin-{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [sys.executable, str(path), bootstrap, topic, group, str(COUNT)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_confluent_kafka_program_runs_unchanged_on_kafkawire(broker, tmp_path):
    source = PROGRAM.read_text()
    assert source.count(CONFLUENT) == 1
    ported = source.replace(CONFLUENT, KAFKAWIRE)
    assert "confluent_kafka" not in ported  # the import line is the one change
    topics = [f"dropin-{uuid.uuid4().hex[:10]}" for _ in range(2)]
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: PARTITIONS for topic in topics})

    theirs = run(source, tmp_path / "with_confluent.py", broker.bootstrap, topics[0])
    ours = run(ported, tmp_path / "with_kafkawire.py", broker.bootstrap, topics[1])

    def without_topic(rows: list) -> list:
        return sorted([row[1:] for row in rows], key=lambda row: (row[0], row[1]))

    for result, topic in ((theirs, topics[0]), (ours, topics[1])):
        assert {row[0] for row in result["delivered"] + result["consumed"]} == {topic}
        assert len(result["delivered"]) == len(result["consumed"]) == COUNT
        assert result["assigned"] == list(range(PARTITIONS))
        # each partition's messages come in offset order, and in the order produced
        for p in range(PARTITIONS):
            offsets = [row[2] for row in result["consumed"] if row[1] == p]
            assert offsets == list(range(len(offsets)))
            values = [int(row[4].split("-")[1]) for row in result["consumed"] if row[1] == p]
            assert values == sorted(values)
    # what each run consumed is what it delivered, and the same messages in both
    for result in (theirs, ours):
        assert [row[:4] for row in without_topic(result["delivered"])] == [
            row[:4] for row in without_topic(result["consumed"])
        ]
        assert {row[5]["index"] for row in result["consumed"]} == {str(i) for i in range(COUNT)}
        # every partition committed at its end
        ends = {p: sum(1 for row in result["consumed"] if row[1] == p) for p in range(PARTITIONS)}
        assert result["committed"] == [[p, ends[p]] for p in range(PARTITIONS)]

    def messages(result: dict) -> list:
        return sorted(row[3:] for row in result["consumed"])

    assert messages(ours) == messages(theirs)
    # in the same places: keys hashed as librdkafka hashes them (its default partitioner,
    # consistent_random: CRC32 of the key modulo the partition count), so the same offsets
    assert without_topic(ours["delivered"]) == without_topic(theirs["delivered"])
    assert without_topic(ours["consumed"]) == without_topic(theirs["consumed"])


def test_the_wrappers_give_what_confluent_kafka_gives(broker):
    """Beyond the program: assign with offsets, consume, position, seek, commit of a
    message, committed, watermarks, each compared with confluent-kafka's answer on the same
    topic."""
    import confluent_kafka

    from kafkawire import confluent

    topic = f"dropin-{uuid.uuid4().hex[:10]}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: 2})
    producer = confluent.Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(10):
        headers = {"h": b"x"} if i % 2 else None
        producer.produce(
            topic, f"v{i}", partition=i % 2, timestamp=1_700_000_000_000 + i, headers=headers
        )
    assert producer.flush(20) == 0 and len(producer) == 0

    def session(module) -> dict:
        group = f"dropin-{uuid.uuid4().hex[:8]}"
        consumer = module.Consumer(
            {"bootstrap.servers": broker.bootstrap, "group.id": group, "enable.auto.commit": False}
        )
        tp0, tp1 = module.TopicPartition(topic, 0), module.TopicPartition(topic, 1)
        try:
            out: dict = {"nothing": consumer.poll(0.1)}
            consumer.assign(
                [
                    module.TopicPartition(topic, 0, module.OFFSET_BEGINNING),
                    module.TopicPartition(topic, 1, 3),
                ]
            )
            out["assignment"] = sorted((p.topic, p.partition) for p in consumer.assignment())
            got: list = []
            for _ in range(60):
                if len(got) >= 7:
                    break
                got += consumer.consume(10, 0.5)
            assert all(m.error() is None for m in got)
            out["messages"] = sorted(
                (
                    m.topic(),
                    m.partition(),
                    m.offset(),
                    m.key(),
                    m.value(),
                    m.headers(),
                    m.timestamp(),
                )
                for m in got
            )
            out["position"] = [(p.partition, p.offset) for p in consumer.position([tp0, tp1])]
            last = max((m for m in got if m.partition() == 0), key=lambda m: m.offset())
            done = consumer.commit(message=last, asynchronous=False)
            out["commit"] = [(p.topic, p.partition, p.offset) for p in done]
            committed = consumer.committed([tp0, tp1], timeout=10)
            out["committed"] = [(p.partition, p.offset) for p in committed]
            out["watermarks"] = consumer.get_watermark_offsets(tp0, timeout=10)
            consumer.seek(module.TopicPartition(topic, 0, 2))
            again: list = []
            for _ in range(60):
                if len(again) >= 3:
                    break
                again += [m for m in consumer.consume(10, 0.5) if m.partition() == 0]
            out["after_seek"] = [m.offset() for m in again]
        finally:
            consumer.close()
        return out

    theirs, ours = session(confluent_kafka), session(confluent)
    assert theirs["nothing"] is None and ours["nothing"] is None
    assert len(ours["messages"]) == 7
    assert ours["messages"][0] == (
        topic,
        0,
        0,
        None,
        b"v0",
        None,
        (confluent.TIMESTAMP_CREATE_TIME, 1_700_000_000_000),
    )
    assert ours["messages"][-1][5] == [("h", b"x")]
    # (Tansu answers librdkafka's ListOffsets with a high watermark of 1 where partition 0
    # holds 5 records: kafkawire's is checked against the records)
    assert ours.pop("watermarks") == (0, 5)
    theirs.pop("watermarks")
    assert ours == theirs


def test_the_producer_raises_what_confluent_kafka_raises(broker):
    from kafkawire import confluent

    topic = f"dropin-{uuid.uuid4().hex[:10]}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: 1})
    producer = confluent.Producer({"bootstrap.servers": broker.bootstrap})
    producer.produce(topic, b"a")
    assert producer.flush(20) == 0  # the topic is known now
    with pytest.raises(confluent.KafkaException) as info:
        producer.produce(topic, b"v", partition=9)
    error = info.value.args[0]
    assert error.code() == confluent.KafkaError.UNKNOWN_TOPIC_OR_PART and "9" in error.str()
    with pytest.raises(TypeError, match="value must be"):
        producer.produce(topic, 123)
    with pytest.raises(confluent.KafkaException) as info:
        producer.produce(topic, b"x" * 2_000_000)
    assert info.value.args[0].code() == confluent.KafkaError.MSG_SIZE_TOO_LARGE
    producer.close()
    # a full queue is a BufferError: 1 KiB of buffer, and a cluster that cannot be reached
    # holds what is produced (nothing is ever sent)
    stuck = confluent.Producer(
        {
            "bootstrap.servers": "127.0.0.1:1",
            "queue.buffering.max.kbytes": 1,
            "max.block.ms": 0,
        }
    )
    try:
        stuck.produce(topic, b"x" * 2000)  # the first record always has room
        with pytest.raises(BufferError):
            stuck.produce(topic, b"y" * 2000)
        assert len(stuck) == 1
    finally:
        stuck.close(0)


def test_a_consumer_error_comes_as_a_message_as_in_confluent_kafka(broker):
    """auto.offset.reset=error and nothing committed: poll gives a Message whose error() is
    _AUTO_OFFSET_RESET, from both."""
    import confluent_kafka

    from kafkawire import confluent

    topic = f"dropin-{uuid.uuid4().hex[:10]}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: 1})
        admin.produce_columns((topic, 0), [b"a", b"b"])

    def first_error(module):
        consumer = module.Consumer(
            {
                "bootstrap.servers": broker.bootstrap,
                "group.id": f"dropin-{uuid.uuid4().hex[:8]}",
                "auto.offset.reset": "error",
                "enable.auto.commit": False,
            }
        )
        try:
            consumer.assign([module.TopicPartition(topic, 0)])
            for _ in range(40):
                msg = consumer.poll(0.5)
                if msg is not None:
                    return msg
            return None
        finally:
            consumer.close()

    theirs, ours = first_error(confluent_kafka), first_error(confluent)
    assert theirs is not None and ours is not None
    assert theirs.error().code() == confluent_kafka.KafkaError._AUTO_OFFSET_RESET
    assert ours.error().code() == confluent.KafkaError._AUTO_OFFSET_RESET == -140
    assert ours.error().name() == theirs.error().name() == "_AUTO_OFFSET_RESET"
    assert ours.value() is None and ours.offset() is None


def test_assign_in_on_assign_sets_where_the_group_starts(broker):
    """confluent-kafka's idiom: on_assign sets each partition's offset and calls assign."""
    import confluent_kafka

    from kafkawire import confluent

    topic = f"dropin-{uuid.uuid4().hex[:10]}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: 2})
        for p in range(2):
            admin.produce_columns((topic, p), [b"p%d-%d" % (p, i) for i in range(6)])

    def read(module) -> list:
        consumer = module.Consumer(
            {
                "bootstrap.servers": broker.bootstrap,
                "group.id": f"dropin-{uuid.uuid4().hex[:8]}",
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
                "session.timeout.ms": 6000,
                "heartbeat.interval.ms": 500,
            }
        )

        def on_assign(consumer, partitions):
            for p in partitions:
                # (not OFFSET_END: Tansu answers librdkafka's ListOffsets wrongly, see above)
                p.offset = 3 if p.partition == 0 else 5
            consumer.assign(partitions)

        consumer.subscribe([topic], on_assign=on_assign)
        got = []
        try:
            for _ in range(60):
                msg = consumer.poll(0.5)
                if msg is None:
                    if len(got) >= 4:
                        break
                    continue
                assert msg.error() is None, msg.error()
                got.append((msg.partition(), msg.offset(), msg.value()))
        finally:
            consumer.close()
        return got

    theirs, ours = read(confluent_kafka), read(confluent)
    expected = [(0, i, b"p0-%d" % i) for i in range(3, 6)] + [(1, 5, b"p1-5")]
    assert sorted(theirs) == expected
    assert sorted(ours) == expected


def test_partition_eof_comes_after_the_last_message_as_in_confluent_kafka(broker):
    """enable.partition.eof: once a partition's messages are read, poll gives a Message whose
    error() is _PARTITION_EOF with the end offset, once, from both libraries."""
    import confluent_kafka

    from kafkawire import confluent

    topic = f"dropin-{uuid.uuid4().hex[:10]}"
    with Client(broker.bootstrap, request_timeout=20) as admin:
        admin.create_topics({topic: 2})
        for partition, count in ((0, 3), (1, 2)):
            for i in range(count):  # one batch each (Tansu's watermarks for librdkafka)
                admin.produce_columns((topic, partition), [b"%d-%d" % (partition, i)])

    def read(module) -> tuple[list, list]:
        consumer = module.Consumer(
            {
                "bootstrap.servers": broker.bootstrap,
                "group.id": f"dropin-{uuid.uuid4().hex[:8]}",
                "auto.offset.reset": "earliest",
                "enable.partition.eof": True,
            }
        )
        values, ends = [], []
        try:
            consumer.assign([module.TopicPartition(topic, p, 0) for p in range(2)])
            for _ in range(60):
                msg = consumer.poll(0.5)
                if msg is None:
                    if len(ends) == 2:
                        break
                    continue
                if msg.error() is None:
                    values.append((msg.partition(), msg.offset(), msg.value()))
                else:
                    assert msg.error().code() == module.KafkaError._PARTITION_EOF
                    # every message of the partition came before its end
                    assert len([v for v in values if v[0] == msg.partition()]) == msg.offset()
                    ends.append((msg.partition(), msg.offset()))
        finally:
            consumer.close()
        return sorted(values), sorted(ends)

    theirs, ours = read(confluent_kafka), read(confluent)
    assert theirs == ours
    assert ours[1] == [(0, 3), (1, 2)]
