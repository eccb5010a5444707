"""``kafkawire topics``: a cluster's topics, partitions, leaders and offsets, through the client
(TLS and SASL from ``--command-config``, as Kafka's own tools take them)."""

from __future__ import annotations

import json

from kafkawire.cli.common import open_client
from kafkawire.client import TopicPartition


def cmd_topics(args) -> int:
    client = open_client(args)
    with client:
        cluster = client.metadata(args.topic or None)
        names = sorted(n for n, t in cluster.topics.items() if args.topic or not t.is_internal)
        tps = [TopicPartition(n, p) for n in names for p in cluster.topics[n].partitions]
        earliest = client.earliest_offsets(tps) if tps else {}
        latest = client.latest_offsets(tps) if tps else {}
    for name in names:
        topic = cluster.topics[name]
        for index, partition in sorted(topic.partitions.items()):
            tp = TopicPartition(name, index)
            row = {
                "topic": name,
                "partition": index,
                "leader": partition.leader,
                "replicas": partition.replicas,
                "earliest": earliest[tp],
                "latest": latest[tp],
            }
            if args.json:
                print(json.dumps(row))
            else:
                print(
                    f"{name} [{index}] leader {partition.leader} "
                    f"offsets {earliest[tp]}..{latest[tp]} ({latest[tp] - earliest[tp]} records)"
                )
    return 0
