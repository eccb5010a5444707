"""``kafkawire topics``: a cluster's topics, partitions, leaders and offsets, through the client
(TLS and SASL from ``--command-config``, as Kafka's own tools take them)."""

from __future__ import annotations

import json
import sys

from kafkawire.cli.common import PROG, open_client, plural
from kafkawire.client import TopicPartition
from kafkawire.protocol.error_codes import ErrorCode


def cmd_topics(args) -> int:
    client = open_client(args)
    with client:
        cluster = client.metadata(args.topic or None)
        # a topic named but not there comes back with an error code and no partitions
        missing = {n: t.error_code for n, t in cluster.topics.items() if t.error_code}
        names = sorted(
            n
            for n, t in cluster.topics.items()
            if n not in missing and (args.topic or not t.is_internal)
        )
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
                    f"{name} [{index}] leader {partition.leader} offsets "
                    f"{earliest[tp]}..{latest[tp]} ({plural(latest[tp] - earliest[tp], 'record')})"
                )
    for name, code in sorted(missing.items()):
        sys.stderr.write(f"{PROG}: topic {name!r}: {_error_name(code)}\n")
    return 1 if missing else 0


def _error_name(code: int) -> str:
    try:
        return f"{ErrorCode(code).name} (error {code})"
    except ValueError:
        return f"error {code}"
