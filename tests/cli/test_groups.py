"""``kafkawire groups list`` and ``kafkawire groups describe``, text and --json, against the
real broker (Tansu) with a group librdkafka (confluent-kafka) joined and committed in."""

from __future__ import annotations

import json
import time
import uuid
from types import SimpleNamespace

import pytest

from kafkawire import cli
from kafkawire.client import Client, TopicPartition

pytestmark = pytest.mark.interop

confluent_kafka = pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="module")
def group(broker):
    """A topic of two partitions with 3 and 2 records, and a group whose member read them,
    committed 3 and 1, then saw 4 more records arrive in partition 0: lag 4 and 1."""
    topic = f"cli-g-{uuid.uuid4().hex[:8]}"
    group_id = f"cli-group-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap, request_timeout=20) as client:
        client.create_topics({topic: 2})
        client.produce_columns(TopicPartition(topic, 0), [b"a"] * 3)
        client.produce_columns(TopicPartition(topic, 1), [b"b"] * 2)
        consumer = confluent_kafka.Consumer(
            {
                "bootstrap.servers": broker.bootstrap,
                "group.id": group_id,
                "client.id": "cli-test",
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
                "session.timeout.ms": 6000,  # Tansu's first join waits this out
                "heartbeat.interval.ms": 500,
                "log_level": 3,
            }
        )
        consumer.subscribe([topic])
        got, deadline = 0, time.monotonic() + 60
        while got < 5 and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                got += 1
        assert got == 5
        consumer.commit(
            offsets=[
                confluent_kafka.TopicPartition(topic, 0, 3),
                confluent_kafka.TopicPartition(topic, 1, 1),
            ],
            asynchronous=False,
        )
        client.produce_columns(TopicPartition(topic, 0), [b"c"] * 4)
    yield SimpleNamespace(topic=topic, group_id=group_id, bootstrap=broker.bootstrap)
    consumer.close()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(["groups", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_list(group, capsys):
    status, out, _ = run(capsys, "--bootstrap-server", group.bootstrap, "list")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["GROUP", "TYPE", "STATE"]
    (row,) = [line.split() for line in lines[1:] if line.split()[0] == group.group_id]
    # Tansu's ListGroups says "Unknown": the state is the one DescribeGroups gives
    assert row == [group.group_id, "consumer", "Stable"]


def test_list_state_when_the_broker_gives_none(group, capsys, monkeypatch):
    # a ListGroups before v4 has no GroupState: the client's listing says None, and the
    # state shown is DescribeGroups' (not "-")
    listed = Client.list_groups

    def without_states(self, **kwargs):
        return [g._replace(state=None) for g in listed(self, **kwargs)]

    monkeypatch.setattr(Client, "list_groups", without_states)
    status, out, _ = run(capsys, "--bootstrap-server", group.bootstrap, "list")
    assert status == 0
    (row,) = [line.split() for line in out.splitlines()[1:] if line.split()[0] == group.group_id]
    assert row == [group.group_id, "consumer", "Stable"]


@pytest.mark.parametrize("where", ["before", "after"])
def test_list_json(group, capsys, where):
    flags = ["--bootstrap-server", group.bootstrap]
    argv = [*flags, "--json", "list"] if where == "before" else [*flags, "list", "--json"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(set(r) == {"group_id", "protocol_type", "state"} for r in rows)
    (row,) = [r for r in rows if r["group_id"] == group.group_id]
    assert (row["protocol_type"], row["state"]) == ("consumer", "Stable")


def test_describe(group, capsys):
    status, out, _ = run(capsys, "--bootstrap-server", group.bootstrap, "describe", group.group_id)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"group {group.group_id!r} state Stable protocol type consumer")
    assert lines[1] == "members: 1"
    assert lines[2].lstrip().startswith("cli-test-")  # the member id
    assert lines[3].lstrip().startswith("assignment:")  # Tansu gives no assignment: "-"
    table = [line.split() for line in lines[4:-1]]
    assert table[0] == ["TOPIC", "PARTITION", "COMMITTED", "END", "LAG", "MEMBER"]
    rows = {(r[0], r[1]): r[2:5] for r in table[1:]}
    assert rows == {(group.topic, "0"): ["3", "7", "4"], (group.topic, "1"): ["1", "2", "1"]}
    assert lines[-1] == "total lag 5"


def test_describe_json(group, capsys):
    missing = f"no-such-{uuid.uuid4().hex[:8]}"
    status, out, _ = run(
        capsys, "--bootstrap-server", group.bootstrap, "describe", group.group_id, missing, "--json"
    )
    assert status == 1  # one of the groups does not exist
    first, second = (json.loads(line) for line in out.splitlines())
    assert set(first) == {
        "group_id",
        "exists",
        "state",
        "protocol_type",
        "protocol",
        "coordinator",
        "members",
        "partitions",
        "total_lag",
    }
    assert (first["group_id"], first["exists"], first["state"], first["protocol_type"]) == (
        group.group_id,
        True,
        "Stable",
        "consumer",
    )
    (member,) = first["members"]
    assert set(member) == {
        "member_id",
        "group_instance_id",
        "client_id",
        "client_host",
        "assignment",
    }
    assert member["member_id"].startswith("cli-test-")
    parts = [(p["partition"], p["committed"], p["end"], p["lag"]) for p in first["partitions"]]
    assert parts == [(0, 3, 7, 4), (1, 1, 2, 1)]
    assert all(p["topic"] == group.topic for p in first["partitions"])
    assert first["total_lag"] == 5

    assert (second["group_id"], second["exists"]) == (missing, False)
    assert second["state"] in ("Dead", "Empty")  # Kafka: "Dead"; Tansu 0.x: "Empty"
    assert (second["members"], second["partitions"], second["total_lag"]) == ([], [], 0)


def test_describe_text_of_a_group_that_does_not_exist(group, capsys):
    missing = f"no-such-{uuid.uuid4().hex[:8]}"
    argv = ["--bootstrap-server", group.bootstrap, "describe", missing, group.group_id]
    status, out, err = run(capsys, *argv)
    assert status == 1
    assert (
        err == f"kafkawire: group {missing!r} does not exist (no members, no committed offsets)\n"
    )
    assert out.startswith(f"group {group.group_id!r} state Stable")  # the other one is shown


def test_a_group_of_commits_alone_exists(group, capsys):
    # a group that only committed offsets (no members, no protocol type) exists
    group_id = f"commits-{uuid.uuid4().hex[:8]}"
    committer = confluent_kafka.Consumer(
        {"bootstrap.servers": group.bootstrap, "group.id": group_id, "log_level": 3}
    )
    try:
        tp = confluent_kafka.TopicPartition(group.topic, 0, 2)
        committer.commit(offsets=[tp], asynchronous=False)
    finally:
        committer.close()
    status, out, _ = run(capsys, "--bootstrap-server", group.bootstrap, "describe", group_id)
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == "members: 0"
    assert lines[-1] == "total lag 5"


def test_bad_command_config_is_one_line(group, capsys, tmp_path):
    bad = tmp_path / "bad.properties"
    bad.write_text("sasl.pasword=x\n")
    argv = ["--bootstrap-server", group.bootstrap, "--command-config", str(bad), "list"]
    status, out, err = run(capsys, *argv)
    assert status == 1 and out == ""
    assert "did you mean 'sasl.password'" in err
