"""kafkawire.confluent.ShareConsumer as a drop-in for confluent-kafka's: one share-group
program written for confluent-kafka (tests/client/dropin/confluent_share_program.py:
explicit acknowledgement, releases, rejects, commit_sync with its per-partition answer, the
acknowledgement-commit callback) runs against librdkafka's mock cluster as it is and with
only its import line changed; both runs settle the same records the same way, each in a
share group of its own over the same topic."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from kafkawire.client import Client, TopicPartition

pytest.importorskip("confluent_kafka")

PROGRAM = Path(__file__).parent / "dropin" / "confluent_share_program.py"
NAMES = "AcknowledgeType, KafkaException, ShareConsumer"
PARTITIONS, PER_PARTITION = 2, 60


@pytest.fixture(scope="module")
def mock():
    from tests.support.mock_cluster import share_cluster

    cluster = share_cluster(session_ms=10000, heartbeat_ms=500)
    yield cluster
    cluster.close()


def run(source: str, path: Path, bootstrap: str, topic: str) -> dict:
    path.write_text(source)
    group = f"share-dropin-{uuid.uuid4().hex[:8]}"
    count = PARTITIONS * PER_PARTITION
    done = subprocess.run(
        [sys.executable, str(path), bootstrap, topic, group, str(count)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_confluent_kafka_share_program_runs_unchanged_on_kafkawire(mock, tmp_path):
    topic = f"share-dropin-{uuid.uuid4().hex[:8]}"
    mock.create_topic(topic, partitions=PARTITIONS)
    with Client(mock.bootstrap, request_timeout=10) as client:
        for p in range(PARTITIONS):
            values = [b"%d-%d" % (p, i) for i in range(PER_PARTITION)]
            client.produce_columns(TopicPartition(topic, p), values)
    source = PROGRAM.read_text()
    original = f"from confluent_kafka import {NAMES}"
    assert original in source
    theirs = run(source, tmp_path / "with_confluent.py", mock.bootstrap, topic)
    ours = run(
        source.replace(original, f"from kafkawire.confluent import {NAMES}"),
        tmp_path / "with_kafkawire.py",
        mock.bootstrap,
        topic,
    )
    expected = []
    for p in range(PARTITIONS):
        for o in range(PER_PARTITION):
            value = f"{p}-{o}"
            if o % 10 == 0:
                expected += [[p, o, 1, value, "release"], [p, o, 2, value, "accept"]]
            else:
                expected.append([p, o, 1, value, "reject" if o % 10 == 5 else "accept"])
    assert theirs["settled"] == sorted(expected)
    assert ours["settled"] == theirs["settled"]
    for run_ in (theirs, ours):  # every commit answered for its partitions, without errors
        assert run_["commits"] and all(ok for commit in run_["commits"] for _, ok in commit)
    told_ours = sorted(o for offsets, ok in ours["told"] if ok for _, _, os in offsets for o in os)
    told_theirs = sorted(
        o for offsets, ok in theirs["told"] if ok for _, _, os in offsets for o in os
    )
    assert told_ours == told_theirs  # the callback heard of the same acknowledgements
    assert not [t for t in ours["told"] if not t[1]]
