"""``kafkawire consume`` against the real broker: printed records, JSON lines, Parquet with a
progress bar, and a group whose commits a second run starts from."""

from __future__ import annotations

import json
import uuid

import pyarrow.parquet as pq
import pytest

from kafkawire import cli
from kafkawire.cli import consume
from kafkawire.client import Client, TopicPartition

pytestmark = pytest.mark.interop


@pytest.fixture(scope="module")
def topic(broker):
    name = f"cli-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap) as client:
        client.create_topics({name: 2})
        for p in range(2):
            client.produce_columns(
                TopicPartition(name, p),
                [b"p%d-%d" % (p, i) for i in range(50)] + [b"\xff\xfe"],
                keys=[b"k"] * 51,
            )
    return name


def test_consume_prints_to_the_end(broker, topic, capsys):
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic]
    assert cli.main([*argv, "--from-beginning", "--until-end", "--partition", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1\t0\tp1-0" and lines[49] == "1\t49\tp1-49"
    assert lines[50] == "1\t50\t\\xff\\xfe" and len(lines) == 51


def test_consume_json_lines(broker, topic, capsys):
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic, "--json"]
    assert cli.main([*argv, "--from-beginning", "--max-messages", "102"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 102
    assert {r["partition"] for r in rows} == {0, 1}
    assert {r["value"] for r in rows if r["offset"] == 50} == {"base64://4="}
    assert all(r["key"] == "k" and r["topic"] == topic for r in rows)


def test_consume_to_parquet(broker, topic, tmp_path, capsys):
    out = tmp_path / "t.parquet"
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic]
    assert cli.main([*argv, "--from-beginning", "--parquet", str(out), "--progress"]) == 0
    err = capsys.readouterr().err
    assert "102/102 records" in err and f"102 records of {topic}" in err
    table = pq.read_table(out)
    assert table.num_rows == 102
    assert sorted(table.column("offset").to_pylist()) == sorted(list(range(51)) * 2)
    assert set(table.column("topic").to_pylist()) == {topic}


def test_consume_with_a_group_resumes_from_its_commit(broker, topic, capsys):
    group = f"g-{uuid.uuid4().hex[:8]}"
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic]
    argv += ["--partition", "0", "--group", group, "--from-beginning"]
    assert cli.main([*argv, "--max-messages", "10"]) == 0
    assert cli.main([*argv, "--max-messages", "5"]) == 0
    offsets = [int(line.split("\t")[1]) for line in capsys.readouterr().out.splitlines()]
    assert offsets == list(range(15))


def test_consume_bad_properties_are_cli_errors(broker, topic, tmp_path, capsys):
    bad = tmp_path / "bad.properties"
    bad.write_text("auto.offset.rest=earliest\n")
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic]
    assert cli.main([*argv, "--command-config", str(bad)]) != 0
    assert "auto.offset.reset" in capsys.readouterr().err


def test_consume_no_verify_crc_reads_a_batch_whose_crc_does_not_match(broker, capsys):
    """The broker stores a batch whose CRC is wrong: consume stops on it with the CRC error,
    and --no-verify-crc reads its records."""
    from kafkawire import build_batches

    name = f"cli-crc-{uuid.uuid4().hex[:8]}"
    bad = bytearray(b"".join(build_batches([b"first", b"second"])))
    bad[bad.rindex(b"second") + 5] ^= 0x01  # "second" becomes "secone": the CRC is wrong
    with Client(broker.bootstrap) as client:
        client.create_topics({name: 1})
        client.produce(TopicPartition(name, 0), bytes(bad))
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", name]
    argv += ["--from-beginning", "--until-end", "--timeout", "10"]
    assert cli.main(argv) == 1
    captured = capsys.readouterr()
    assert "CRC-32C mismatch" in captured.err and captured.out == ""
    assert cli.main([*argv, "--no-verify-crc"]) == 0
    assert capsys.readouterr().out.splitlines() == ["0\t0\tfirst", "0\t1\tsecone"]


def test_consume_takes_properties_with_x(broker, topic, capsys):
    # -X auto.offset.reset=earliest stands for --from-beginning; a misspelt -X is refused
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic]
    argv += ["--until-end", "--partition", "1"]
    assert cli.main([*argv, "-X", "auto.offset.reset=earliest"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 51
    assert cli.main([*argv, "-X", "auto.offset.rest=earliest"]) == 1
    assert "auto.offset.reset" in capsys.readouterr().err


def test_consume_timeout_counts_from_the_assignment(broker, topic, capsys):
    # the group's join takes longer than the 1 s idle timeout on this broker: the records
    # come all the same, and the run ends 1 s after the last one
    group = f"g-{uuid.uuid4().hex[:8]}"
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", topic, "--group", group]
    assert cli.main([*argv, "--from-beginning", "--max-messages", "3", "--timeout", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_consume_of_a_topic_that_is_not_there(broker, capsys, monkeypatch):
    # one line naming the topic, exit status 1, and the consumer made for it closed
    made = []

    class Recording(consume.Consumer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.closed_by_the_command = False
            made.append(self)

        def close(self, **kwargs):
            self.closed_by_the_command = True
            super().close(**kwargs)

    monkeypatch.setattr(consume, "Consumer", Recording)
    missing = f"nope-{uuid.uuid4().hex[:8]}"
    for group in ([], ["--group", f"g-{uuid.uuid4().hex[:8]}"]):
        argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", missing, *group]
        assert cli.main([*argv, "--timeout", "1"]) == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == f"kafkawire: topic {missing!r} does not exist\n"
    assert [c.closed_by_the_command for c in made] == [True, True]
