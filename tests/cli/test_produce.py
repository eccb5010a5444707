"""``kafkawire produce`` against the real broker: JSON lines, CSV and Parquet files and stdin
written to a topic and read back field by field; keyed records where Java's partitioner puts
them; bad input named by file and line, without a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kafkawire import cli
from kafkawire.client import Client, TopicPartition, default_partition
from kafkawire.records.arrow import HEADERS_TYPE

pytestmark = pytest.mark.interop


def new_topic(broker, partitions: int | None = 3) -> str:
    name = f"produce-{uuid.uuid4().hex[:8]}"
    if partitions is not None:
        with Client(broker.bootstrap) as client:
            client.create_topics({name: partitions})
    return name


def produce(broker, topic, *argv) -> int:
    return cli.main(["produce", "--bootstrap-server", broker.bootstrap, "--topic", topic, *argv])


def read_topic(broker, topic) -> list[dict]:
    """Every record of the topic: partition, offset, timestamp (ms), key, value, headers."""
    rows = []
    with Client(broker.bootstrap) as client:
        for p in client.partitions_for(topic):
            tp = TopicPartition(topic, p)
            end = client.latest_offsets([tp])[tp]
            if end == 0:
                continue
            for chunk in client.read_range(tp, 0, end):
                table = chunk.to_arrow().to_pylist()
                for row, offset, ts in zip(table, chunk.offsets, chunk.timestamps, strict=True):
                    rows.append(
                        {
                            "partition": p,
                            "offset": int(offset),
                            "timestamp": int(ts),
                            "key": row["key"],
                            "value": row["value"],
                            "headers": [(h["key"], h["value"]) for h in row["headers"] or []],
                        }
                    )
    return rows


def by_value(rows) -> dict:
    return {r["value"]: r for r in rows}


def test_json_lines_every_field(broker, tmp_path, capsys):
    topic = new_topic(broker, None)
    lines = [
        {"value": "plain"},
        {"value": "keyed", "key": "user-7", "timestamp": 1_700_000_000_123},
        {"value": "headers", "headers": {"trace": "abc", "empty": None}, "partition": 2},
        {"value": "pairs", "headers": [["h", "1"], ["h", "2"]], "partition": 0},
        {"value": "iso", "timestamp": "2024-02-03T04:05:06.789Z", "partition": 1},
        {"value": "naive", "timestamp": "2024-02-03T04:05:06", "partition": 1},
        {"value": None, "key": "gone", "timestamp": 5},
        {"value": "ünïcode ✓", "key": "k2", "partition": 1},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    assert produce(broker, topic, str(path), "--create-topic", "3") == 0
    err = capsys.readouterr().err
    assert "8 records (" in err and f"-> {topic} in" in err
    assert "\r" not in err and "[" not in err  # no progress bar off a terminal

    rows = read_topic(broker, topic)
    assert len(rows) == 8
    got = {r["value"]: r for r in rows}
    assert got[b"plain"]["key"] is None and got[b"plain"]["headers"] == []
    keyed = got[b"keyed"]
    assert keyed["key"] == b"user-7" and keyed["timestamp"] == 1_700_000_000_123
    assert keyed["partition"] == default_partition(b"user-7", 3)
    assert got[b"headers"]["partition"] == 2
    assert got[b"headers"]["headers"] == [("trace", b"abc"), ("empty", None)]
    assert got[b"pairs"]["partition"] == 0 and got[b"pairs"]["headers"] == [
        ("h", b"1"),
        ("h", b"2"),
    ]
    assert got[b"iso"]["timestamp"] == 1706933106789 and got[b"iso"]["partition"] == 1
    assert got[b"naive"]["timestamp"] == 1706933106000  # no offset: UTC
    tomb = got[None]
    assert tomb["key"] == b"gone" and tomb["timestamp"] == 5
    assert tomb["partition"] == default_partition(b"gone", 3)
    assert got["ünïcode ✓".encode()]["partition"] == 1
    # every partition keeps the file's order
    order = [None if x["value"] is None else x["value"].encode() for x in lines]
    for p in range(3):
        written = [
            r["value"] for r in sorted(rows, key=lambda r: r["offset"]) if r["partition"] == p
        ]
        assert written == [v for v in order if v in written]


def test_json_lines_in_small_chunks_keep_order(broker, tmp_path, capsys):
    topic = new_topic(broker, 2)
    lines = []
    for i in range(50):  # runs with and without a partition, across chunk boundaries
        row = {"value": f"v{i}", "key": "same"}
        if (i // 7) % 2:
            row["partition"] = default_partition(b"same", 2)
        lines.append(json.dumps(row))
    path = tmp_path / "in.ndjson"
    path.write_text("\n".join(lines))
    assert produce(broker, topic, str(path), "--chunk-rows", "5", "-q") == 0
    assert capsys.readouterr().err == ""
    rows = read_topic(broker, topic)
    assert {r["partition"] for r in rows} == {default_partition(b"same", 2)}
    assert [r["value"] for r in sorted(rows, key=lambda r: r["offset"])] == [
        f"v{i}".encode() for i in range(50)
    ]


def test_value_formats_and_forced_partition(broker, tmp_path):
    topic = new_topic(broker, 3)
    path = tmp_path / "in.jsonl"
    path.write_text('{"value": {"a": [1, 2]}, "key": "k"}\n{"value": 5}\n{"value": null}\n')
    assert produce(broker, topic, str(path), "--value-format", "json", "--partition", "2") == 0
    rows = sorted(read_topic(broker, topic), key=lambda r: r["offset"])
    assert [r["value"] for r in rows] == [b'{"a":[1,2]}', b"5", None]
    assert {r["partition"] for r in rows} == {2}

    topic = new_topic(broker, 1)
    path.write_text('{"value": "AP8BAg==", "key": "k"}\n')
    assert produce(broker, topic, str(path), "--value-format", "base64") == 0
    assert [r["value"] for r in read_topic(broker, topic)] == [b"\x00\xff\x01\x02"]


def test_csv(broker, tmp_path, capsys):
    topic = new_topic(broker, 4)
    path = tmp_path / "in.csv"
    path.write_text(
        "value,key,partition,timestamp,headers\n"
        'hello,k1,,1000,"{""a"": ""b""}"\n'
        "world,,3,2024-01-01T00:00:00Z,\n"
        '"multi\nline",k3,0,,"[[""x"", null]]"\n'
        ",,1,,\n"
    )
    assert produce(broker, topic, str(path), "--progress") == 0
    err = capsys.readouterr().err
    assert "4 records (" in err and "records" in err.split("\n")[0]
    got = by_value(read_topic(broker, topic))
    assert set(got) == {b"hello", b"world", b"multi\nline", b""}
    assert got[b"hello"]["key"] == b"k1" and got[b"hello"]["timestamp"] == 1000
    assert got[b"hello"]["partition"] == default_partition(b"k1", 4)
    assert got[b"hello"]["headers"] == [("a", b"b")]
    assert got[b"world"]["key"] is None and got[b"world"]["partition"] == 3
    assert got[b"world"]["timestamp"] == 1704067200000 and got[b"world"]["headers"] == []
    assert got[b"multi\nline"]["partition"] == 0 and got[b"multi\nline"]["headers"] == [("x", None)]
    assert got[b""]["partition"] == 1 and got[b""]["key"] is None  # an empty cell: empty value


def test_parquet_every_column(broker, tmp_path, capsys):
    topic = new_topic(broker, 3)
    n = 2500
    table = pa.table(
        {
            "value": pa.array([b"\xff\x00" + b"%d" % i if i % 100 else None for i in range(n)]),
            "key": pa.array([f"key-{i % 17}" for i in range(n)]),
            "headers": pa.array(
                [[{"key": "i", "value": b"%d" % i}] if i % 2 else None for i in range(n)],
                HEADERS_TYPE,
            ),
            "timestamp": pa.array([1_000_000 + i for i in range(n)], pa.timestamp("ms")),
        }
    )
    path = tmp_path / "in.parquet"
    pq.write_table(table, path, row_group_size=700)
    assert produce(broker, topic, str(path), "--progress", "--chunk-rows", "1000") == 0
    err = capsys.readouterr().err
    assert f"{n:,}/{n:,} records" in err and f"{n:,} records (" in err
    rows = read_topic(broker, topic)
    assert len(rows) == n
    for r in rows:
        i = r["timestamp"] - 1_000_000
        assert r["value"] == (b"\xff\x00" + b"%d" % i if i % 100 else None)
        assert r["key"] == f"key-{i % 17}".encode()
        assert r["partition"] == default_partition(r["key"], 3)
        assert r["headers"] == ([("i", b"%d" % i)] if i % 2 else [])


def test_consume_parquet_output_copies_a_topic(broker, tmp_path, capsys):
    source = new_topic(broker, 2)
    path = tmp_path / "in.jsonl"
    rows = [
        {"value": f"v{i}", "key": f"k{i}", "headers": [["n", str(i)]], "timestamp": 10 + i}
        for i in range(30)
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    assert produce(broker, source, str(path)) == 0
    out = tmp_path / "copy.parquet"
    argv = ["consume", "--bootstrap-server", broker.bootstrap, "--topic", source]
    assert cli.main([*argv, "--from-beginning", "--parquet", str(out), "-q"]) == 0
    copy = new_topic(broker, 2)
    assert produce(broker, copy, str(out)) == 0  # topic, offset, timestampType left out

    def strip(records):
        return sorted(
            (r["partition"], r["offset"], r["timestamp"], r["key"], r["value"], tuple(r["headers"]))
            for r in records
        )

    assert strip(read_topic(broker, copy)) == strip(read_topic(broker, source))
    assert len(read_topic(broker, copy)) == 30

    # and JSON lines from `consume --json`
    capsys.readouterr()
    assert cli.main([*argv, "--from-beginning", "--until-end", "--json"]) == 0
    lines = capsys.readouterr().out
    again = new_topic(broker, 2)
    (tmp_path / "c.jsonl").write_text(lines)
    assert produce(broker, again, str(tmp_path / "c.jsonl")) == 0
    assert strip(read_topic(broker, again)) == strip(read_topic(broker, source))


def test_stdin(broker, monkeypatch, capsys):
    topic = new_topic(broker, 1)
    data = b'{"value": "a", "key": "x"}\n{"value": "b", "headers": {"h": "v"}}\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert produce(broker, topic) == 0
    assert "2 records (" in capsys.readouterr().err
    rows = sorted(read_topic(broker, topic), key=lambda r: r["offset"])
    assert [(r["key"], r["value"], r["headers"]) for r in rows] == [
        (b"x", b"a", []),
        (None, b"b", [("h", b"v")]),
    ]


def test_subprocess_stdin_csv_no_progress_bar(broker):
    topic = new_topic(broker, 1)
    argv = [sys.executable, "-m", "kafkawire", "produce", "--bootstrap-server", broker.bootstrap]
    argv += ["--topic", topic, "--format", "csv", "-"]
    done = subprocess.run(argv, input=b"value,key\na,1\nb,2\n", capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().startswith("kafkawire: 2 records (4 bytes of keys and values)")
    assert [r["value"] for r in read_topic(broker, topic)] == [b"a", b"b"]


def test_one_record_is_counted_in_the_singular(broker, monkeypatch, capsys):
    topic = new_topic(broker, 1)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"value": "only"}\n')))
    assert produce(broker, topic) == 0
    assert capsys.readouterr().err.startswith("kafkawire: 1 record (4 bytes of keys and values)")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("a.jsonl", '{"value": "ok"}\n[1, 2]\n', "a.jsonl line 2: an array, not a JSON object"),
        ("a.jsonl", '{"value": "ok"}\n\n{"value": 3}\n', "a.jsonl line 3: value is the number 3"),
        (
            "a.jsonl",
            '{"value": "ok", "kye": "x"}\n',
            "line 1: unknown field 'kye' (did you mean 'key'?)",
        ),
        ("a.jsonl", '{"key": "x"}\n', 'a.jsonl line 1: no "value" field'),
        ("a.jsonl", '{"value": "x"\n', "a.jsonl line 1: not JSON: Expecting ',' delimiter"),
        ("a.jsonl", '{"value": "x", "partition": 9}\n', "line 1: partition 9: the topic has 2"),
        ("a.jsonl", '{"value": "x", "partition": "1"}\n', "line 1: partition is a string"),
        ("a.jsonl", '{"value": "x", "timestamp": "soon"}\n', "line 1: timestamp 'soon' is not"),
        ("a.jsonl", '{"value": "x", "headers": [["a"]]}\n', "line 1: headers: an array, not"),
        ("a.jsonl", '{"value": "x", "headers": {"a": 1}}\n', "header 'a' is the number 1"),
        ("a.csv", "key,partition\nk,1\n", "a.csv: no value column (columns: key, partition)"),
        ("a.csv", "value,colour\nx,red\n", "a.csv: unknown column 'colour'"),
        ("a.csv", "value,partition\nx,1\ny,one\n", "a.csv row 2: partition 'one' is not an"),
        ("a.csv", "value,headers\nx,{bad\n", "a.csv row 1: headers are not JSON"),
        ("a.txt", "", "a.txt: which format?"),
    ],
)
def test_bad_input_names_file_and_line(
    broker, tmp_path, capsys, monkeypatch, name, content, message
):
    monkeypatch.chdir(tmp_path)
    topic = new_topic(broker, 2)
    (tmp_path / name).write_text(content)
    assert produce(broker, topic, name) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_bad_parquet_columns(broker, tmp_path, capsys):
    topic = new_topic(broker, 2)
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"value": pa.array([1, 2])}), path)
    assert produce(broker, topic, str(path)) == 1
    assert "bad.parquet: the value column is int64, not binary or string" in capsys.readouterr().err
    pq.write_table(pa.table({"value": ["a", "b"], "partition": [0, 5]}), path)
    assert produce(broker, topic, str(path)) == 1
    assert "bad.parquet row 2: partition 5: the topic has 2" in capsys.readouterr().err


def test_what_was_sent_before_bad_input_is_delivered(broker, tmp_path, capsys):
    topic = new_topic(broker, 1)
    path = tmp_path / "in.jsonl"
    path.write_text("".join(f'{{"value": "v{i}"}}\n' for i in range(12)) + "oops\n")
    assert produce(broker, topic, str(path), "--chunk-rows", "5") == 1
    err = capsys.readouterr().err
    assert "in.jsonl line 13: not JSON" in err and "10 records produced" in err
    assert len(read_topic(broker, topic)) == 10


def test_missing_topic_and_bad_options(broker, tmp_path, capsys):
    path = tmp_path / "in.jsonl"
    path.write_text('{"value": "x"}\n')
    topic = new_topic(broker, None)
    assert produce(broker, topic, str(path)) == 1
    assert (
        f"topic '{topic}' does not exist (--create-topic N creates it)" in capsys.readouterr().err
    )
    assert produce(broker, topic, str(tmp_path / "nope.jsonl")) == 1
    assert "cannot read" in capsys.readouterr().err
    topic = new_topic(broker, 2)
    assert produce(broker, topic, str(path), "--partition", "2") == 1
    assert "--partition 2: " in capsys.readouterr().err
    assert produce(broker, topic, str(path), "-X", "linger.mz=5") == 1
    assert "linger.ms" in capsys.readouterr().err
    assert produce(broker, topic, str(path), "-X", "linger.ms=1", "--acks", "1") == 0
    assert produce(broker, topic, str(path), "--compression", "zstd", "--acks", "all") == 0
    assert len(read_topic(broker, topic)) == 2


def test_a_failed_delivery_is_an_error(broker, tmp_path, capsys, monkeypatch):
    """The real producer, but the third chunk's delivery fails (as a broker error would)."""
    import kafkawire.client
    from kafkawire.client.errors import DeliveryTimeoutError

    real = kafkawire.client.Producer

    class Failing(real):
        calls = 0

        def send_batch(self, topic, values, **columns):
            future = super().send_batch(topic, values, **columns)
            Failing.calls += 1
            if Failing.calls != 3:
                return future

            class Failed:
                def result(self, timeout=None):
                    future.result(timeout)
                    raise DeliveryTimeoutError("no answer for 120 s")

            return Failed()

    monkeypatch.setattr(kafkawire.client, "Producer", Failing)
    topic = new_topic(broker, 1)
    path = tmp_path / "in.jsonl"
    path.write_text("".join(f'{{"value": "v{i}"}}\n' for i in range(20)))
    assert produce(broker, topic, str(path), "--chunk-rows", "4") == 1
    err = capsys.readouterr().err
    assert err == (
        f"kafkawire: {topic}: no answer for 120 s (16 of 20 records sent were acknowledged)\n"
    )
