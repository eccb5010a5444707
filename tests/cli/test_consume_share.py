"""``kafkawire consume --share-group`` against librdkafka's mock cluster (share groups,
KIP-932): runs of the command in one share group, or a ShareConsumer and then the command,
get each record once; a record printed is accepted (never delivered again), one acquired but
not printed goes back to the group; the options that make no sense with a share group are
refused before anything connects."""

from __future__ import annotations

import io
import json
import sys
import time
import uuid

import pytest

import kafkawire
from kafkawire import cli
from kafkawire.cli.main import build_parser
from kafkawire.client import Client, TopicPartition

PARTITIONS = 2
PER_PARTITION = 30


@pytest.fixture(scope="module")
def share_mock():
    """A mock cluster of its own: share groups start at the log's beginning (a cluster-wide
    setting of the mock, kept off the shared one)."""
    pytest.importorskip("confluent_kafka")
    from tests.support.mock_cluster import share_cluster

    cluster = share_cluster()
    yield cluster
    cluster.close()


@pytest.fixture
def topic(share_mock) -> str:
    """A topic of 2 partitions, 30 records each (values ``p-i``)."""
    name = f"cli-share-{uuid.uuid4().hex[:8]}"
    share_mock.create_topic(name, partitions=PARTITIONS)
    with Client(share_mock.bootstrap, request_timeout=10) as client:
        for p in range(PARTITIONS):
            values = [b"%d-%d" % (p, i) for i in range(PER_PARTITION)]
            client.produce_columns(TopicPartition(name, p), values)
    return name


def every_record() -> set[tuple[int, int, str]]:
    return {(p, i, f"{p}-{i}") for p in range(PARTITIONS) for i in range(PER_PARTITION)}


def consume(capsys, bootstrap: str, topic: str, group: str, *options: str) -> tuple[int, str]:
    """A run of the command; --timeout only bounds a run that would wait for records that do
    not come (the tests' verdicts are the records printed, at their --max-messages)."""
    argv = ["consume", "--bootstrap-server", bootstrap, "--topic", topic, "--share-group", group]
    status = cli.main([*argv, "--timeout", "20", *options])
    out, err = capsys.readouterr()
    assert status == 0, err
    return status, out


def json_rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def nothing_left(bootstrap: str, topic: str, group: str) -> list[tuple[int, int, bytes]]:
    """One more record produced to each partition, then a member of the group polls until it
    has both: the records it got besides them (a record not accepted before them would come
    first: the group hands a partition's available records out in offset order)."""
    sentinels = set()
    with Client(bootstrap, request_timeout=10) as client:
        for p in range(PARTITIONS):
            client.produce_columns(TopicPartition(topic, p), [b"sentinel"])
            sentinels.add(p)
    others = []
    deadline = time.monotonic() + 60  # a failure's bound, not a verdict
    with kafkawire.ShareConsumer(bootstrap, config={"group.id": group}) as consumer:
        consumer.subscribe([topic])
        while sentinels:
            assert time.monotonic() < deadline, f"no sentinel from partitions {sentinels}"
            for r in consumer.poll(1.0):
                if r.value == b"sentinel":
                    sentinels.discard(r.partition)
                else:
                    others.append((r.partition, r.offset, r.value))
    return others


def test_two_runs_in_one_share_group_print_each_record_once(share_mock, topic, capsys):
    group = f"share-cli-{uuid.uuid4().hex[:8]}"
    _, out = consume(capsys, share_mock.bootstrap, topic, group, "--json", "--max-messages", "25")
    first = json_rows(out)
    assert len(first) == 25
    assert all(r["topic"] == topic and r["key"] is None for r in first)
    assert all(r["delivery_count"] == 1 for r in first)  # nobody had them before
    # the second run prints the other 35, then stops at its --max-messages
    _, out = consume(capsys, share_mock.bootstrap, topic, group, "--json", "--max-messages", "35")
    second = json_rows(out)
    printed = [(r["partition"], r["offset"], r["value"]) for r in first + second]
    assert len(printed) == len(set(printed)) == PARTITIONS * PER_PARTITION
    assert set(printed) == every_record()
    # what the first run printed it accepted: not delivered again, to anyone
    assert nothing_left(share_mock.bootstrap, topic, group) == []


def test_a_run_after_a_share_consumer_prints_the_rest(share_mock, topic, capsys):
    group = f"share-cli-{uuid.uuid4().hex[:8]}"
    taken = []
    with kafkawire.ShareConsumer(share_mock.bootstrap, config={"group.id": group}) as consumer:
        consumer.subscribe([topic])
        deadline = time.monotonic() + 60
        while len(taken) < 20:
            assert time.monotonic() < deadline, f"the share consumer got {len(taken)} records"
            records = consumer.poll(1.0, max_records=20 - len(taken))
            taken += [(r.partition, r.offset, r.value.decode()) for r in records]
        assert all(err is None for err in consumer.commit_sync().values())
    # the text rendering: partition, offset, value; --max-messages the rest exactly
    _, out = consume(capsys, share_mock.bootstrap, topic, group, "--max-messages", "40")
    lines = [line.split("\t") for line in out.splitlines()]
    printed = [(int(p), int(o), v) for p, o, v in lines]
    assert len(printed) == 40
    assert not set(printed) & set(taken)
    assert set(printed) | set(taken) == every_record()
    assert nothing_left(share_mock.bootstrap, topic, group) == []


class BrokenPipe(io.StringIO):
    """A stdout whose reader went away: writes are taken, a flush fails."""

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_records_not_printed_go_back_to_the_group(share_mock, topic, capsys, monkeypatch):
    """A run whose output fails (a broken pipe) accepts nothing of the poll it could not
    print: a later run gets those records again, delivery count 2."""
    group = f"share-cli-{uuid.uuid4().hex[:8]}"
    argv = ["consume", "--bootstrap-server", share_mock.bootstrap, "--topic", topic]
    argv += ["--share-group", group, "--json", "--max-messages", "10", "--timeout", "20"]
    args = build_parser().parse_args(argv)  # main() would swallow the broken pipe
    broken = BrokenPipe()
    monkeypatch.setattr(sys, "stdout", broken)
    with pytest.raises(BrokenPipeError):
        args.run(args)
    monkeypatch.undo()
    lost = {(r["partition"], r["offset"]) for r in json_rows(broken.getvalue())}
    assert 1 <= len(lost) <= 10  # the one poll it wrote out before the flush failed
    _, out = consume(capsys, share_mock.bootstrap, topic, group, "--json", "--max-messages", "60")
    rows = json_rows(out)
    assert {(r["partition"], r["offset"], r["value"]) for r in rows} == every_record()
    counts = {(r["partition"], r["offset"]): r["delivery_count"] for r in rows}
    assert all(counts[tp] == 2 for tp in lost)  # handed out again: not accepted
    assert nothing_left(share_mock.bootstrap, topic, group) == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--group", "g"], "--share-group with --group"),
        (["--partition", "0"], "--share-group with --partition"),
        (["--from-beginning"], "share.auto.offset.reset"),
        (["--until-end"], "--share-group with --until-end"),
        (["--parquet", "out.parquet"], "--share-group with --parquet"),
        (["-X", "share.acknowledgement.mode=implicit"], "share.acknowledgement.mode"),
        (["-X", "group.id=other"], "say it once"),
        (["-X", "auto.offset.reset=earliest"], "share.auto.offset.reset"),
        (["-X", "isolation.level=read_committed"], "share.isolation.level"),
    ],
)
def test_what_makes_no_sense_with_a_share_group_is_refused(options, message, capsys):
    # refused before connecting: nothing listens at this address
    argv = ["consume", "--bootstrap-server", "127.0.0.1:9", "--topic", "t", "--share-group", "s"]
    assert cli.main([*argv, *options]) == 1
    out, err = capsys.readouterr()
    assert message in err and out == ""
    assert err.count("\n") == 1  # one line
