"""A share-group program written for confluent-kafka (tests/client/test_confluent_share_dropin.py
runs it as it is and with its import line changed to kafkawire.confluent): explicit
acknowledgement, every tenth record released once, every tenth from the fifth rejected, the
rest accepted; a synchronous commit after each poll, the commit callback heard; what it did
printed as JSON. Arguments: bootstrap, topic, group, the number of records in the topic."""

import json
import sys
import time

from confluent_kafka import AcknowledgeType, KafkaException, ShareConsumer

bootstrap, topic, group, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
consumer = ShareConsumer(
    {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "share.acknowledgement.mode": "explicit",
    }
)
told = []
consumer.set_acknowledgement_commit_callback(
    lambda offsets, error: told.append(
        [[[tp.topic, tp.partition, sorted(os)] for tp, os in offsets.items()], error is None]
    )
)
consumer.subscribe([topic])
settled = []
commits = []
wanted = count - count // 10  # all but the rejected
deadline = time.monotonic() + 60
try:
    while sum(1 for s in settled if s[4] == "accept") < wanted and time.monotonic() < deadline:
        messages = consumer.poll(0.5)
        for message in messages:
            if message.error() is not None:
                raise KafkaException(message.error())
            offset, count_ = message.offset(), message.delivery_count()
            if offset % 10 == 0 and count_ == 1:
                kind, name = AcknowledgeType.RELEASE, "release"
            elif offset % 10 == 5:
                kind, name = AcknowledgeType.REJECT, "reject"
            else:
                kind, name = AcknowledgeType.ACCEPT, "accept"
            consumer.acknowledge(message, kind)
            settled.append([message.partition(), offset, count_, message.value().decode(), name])
        if messages:
            result = consumer.commit_sync(10)
            commits.append(sorted([tp.partition, error is None] for tp, error in result.items()))
finally:
    consumer.close()
print(json.dumps({"settled": sorted(settled), "commits": commits, "told": told}))
