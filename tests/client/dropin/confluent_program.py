"""A program written for confluent-kafka, as its users write it: produce keyed messages with a
delivery callback, then read them back in a consumer group and commit. It prints what was
delivered and what was consumed as JSON.

tests/client/test_confluent_dropin.py runs this text as it is (with confluent-kafka), then
with the import line alone changed to kafkawire's (kafkawire.confluent), and compares.

usage: python confluent_program.py BOOTSTRAP TOPIC GROUP COUNT
"""

import json
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition


def produce(bootstrap, topic, count):
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 10})
    delivered = []

    def on_delivery(err, msg):
        if err is not None:
            raise KafkaException(err)
        delivered.append(
            [msg.topic(), msg.partition(), msg.offset(), msg.key().decode(), msg.value().decode()]
        )

    for i in range(count):
        while True:
            try:
                producer.produce(
                    topic,
                    value=f"value-{i}".encode(),
                    key=f"key-{i % 7}",
                    on_delivery=on_delivery,
                    headers=[("index", str(i).encode())],
                )
                break
            except BufferError:
                producer.poll(0.5)
        producer.poll(0)
    remaining = producer.flush(30)
    if remaining:
        raise RuntimeError(f"{remaining} messages were not delivered")
    return delivered


def consume(bootstrap, topic, group, count):
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 500,
        }
    )
    assigned = []

    def on_assign(consumer, partitions):
        assigned.extend(p.partition for p in partitions)

    consumer.subscribe([topic], on_assign=on_assign)
    consumed = []
    deadline = time.monotonic() + 90
    try:
        while len(consumed) < count and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise KafkaException(msg.error())
            consumed.append(
                [
                    msg.topic(),
                    msg.partition(),
                    msg.offset(),
                    msg.key().decode(),
                    msg.value().decode(),
                    dict((k, v.decode()) for k, v in msg.headers() or []),
                ]
            )
            if len(consumed) % 25 == 0:
                consumer.commit(asynchronous=False)
        if len(consumed) % 25:  # (committing nothing new fails with _NO_OFFSET)
            consumer.commit(asynchronous=False)
        committed = consumer.committed(
            [TopicPartition(topic, p) for p in sorted(set(assigned))], timeout=10
        )
    finally:
        consumer.close()
    return consumed, sorted(set(assigned)), [[tp.partition, tp.offset] for tp in committed]


if __name__ == "__main__":
    bootstrap, topic, group, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    delivered = produce(bootstrap, topic, count)
    consumed, assigned, committed = consume(bootstrap, topic, group, count)
    print(
        json.dumps(
            {
                "delivered": delivered,
                "consumed": consumed,
                "assigned": assigned,
                "committed": committed,
            }
        )
    )
