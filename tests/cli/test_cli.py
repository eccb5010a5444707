"""The ``kafkawire`` command: inspect, record, convert, bench (main() in-process, and once
through ``python -m kafkawire``)."""

from __future__ import annotations

import io
import json
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kafkawire import BatchBuilder, build_control_batch, cli, messages
from kafkawire.cli import bench as cli_bench
from kafkawire.protocol import encode_request, encode_response, pre08
from kafkawire.protocol.versions import downgrade_response

T0 = 1_700_000_000_000


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def segment_bytes() -> bytes:
    """Three batches: plain, gzip with headers and a null key, and a commit marker."""
    plain = BatchBuilder(base_offset=0)
    for i in range(3):
        plain.append(b"value-%d" % i, key=b"key-%d" % i, timestamp=T0 + i)
    packed = BatchBuilder(base_offset=3, compression="gzip")
    packed.append(b"\xff\x00binary", key=None, timestamp=T0 + 3, headers=[("h", b"1"), ("n", None)])
    packed.append(b"x" * 500, key=b"long", timestamp=T0 + 4)
    marker = build_control_batch(
        commit=True, producer_id=7, producer_epoch=0, base_offset=5, timestamp=T0 + 5
    )
    return plain.build() + packed.build() + marker


@pytest.fixture
def segment(tmp_path) -> Path:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(segment_bytes())
    return path


def metadata_exchange(correlation_id: int) -> tuple[bytes, bytes]:
    M = messages.MetadataRequest
    R = messages.MetadataResponse
    request = M(topics=[M.MetadataRequestTopic(name="events")])
    response = R(
        brokers=[R.MetadataResponseBroker(node_id=1, host="broker", port=9092)],
        topics=[R.MetadataResponseTopic(name="events", partitions=[R.MetadataResponsePartition()])],
    )
    return (
        encode_request(request, version=12, correlation_id=correlation_id, client_id="cli-test"),
        encode_response(response, version=12, correlation_id=correlation_id),
    )


@pytest.fixture
def capture(tmp_path) -> Path:
    """conn-1.requests / conn-1.responses: ApiVersions too new (answered with the downgrade
    answer), Metadata, and a Produce with a batch; responses in another order."""
    api_req = encode_request(messages.ApiVersionsRequest(), version=4, correlation_id=1)
    api_resp = downgrade_response(1, max_version=3)
    meta_req, meta_resp = metadata_exchange(2)
    P = messages.ProduceRequest
    batch = BatchBuilder()
    batch.append(b"produced", key=b"k", timestamp=T0)
    produce = P(
        acks=1,
        timeout_ms=1000,
        topic_data=[
            P.TopicProduceData(
                name="events",
                partition_data=[P.PartitionProduceData(index=0, records=batch.build())],
            )
        ],
    )
    produce_req = encode_request(produce, version=9, correlation_id=3)
    (tmp_path / "conn-1.requests").write_bytes(api_req + meta_req + produce_req)
    (tmp_path / "conn-1.responses").write_bytes(meta_resp + api_resp)  # produce: no answer
    return tmp_path / "conn-1.requests"


# --- inspect ----------------------------------------------------------------------------------


def test_inspect_segment_text(capsys, segment):
    status, out, err = run(capsys, "inspect", str(segment))
    assert (status, err) == (0, "")
    batches = [line for line in out.splitlines() if line.startswith("batch ")]
    assert len(batches) == 3
    assert "base_offset=3" in batches[1] and "codec='gzip'" in batches[1]
    assert "control_record='COMMIT'" in batches[2] and "producer_id=7" in batches[2]
    assert out.splitlines()[-1] == (
        f"segment file='{segment}' batches=3 records=6 bytes={segment.stat().st_size}"
    )
    assert "value-0" not in out  # records only with -v
    status, out, _ = run(capsys, "inspect", "-v", str(segment))
    assert "key: b'key-2'" in out and "value: b'value-2'" in out
    assert "headers: ['h': b'1', 'n': None]" in out
    assert "key: None" in out
    assert "value: b'xxxx" in out and "... (500 bytes)" in out  # cut at --max-bytes 64


def test_inspect_segment_json(capsys, segment):
    status, out, _ = run(capsys, "inspect", "--json", "-v", "--max-bytes", "0", str(segment))
    assert status == 0
    items = json_lines(out)
    assert [i["type"] for i in items] == ["batch", "batch", "batch", "segment"]
    assert [r["offset"] for r in items[0]["record_list"]] == [0, 1, 2]
    first, second = items[1]["record_list"]
    assert first["key"] is None
    assert first["value"] == {"hex": "ff0062696e617279"}  # not UTF-8: hex
    assert first["headers"] == [["h", "1"], ["n", None]]
    assert second["value"] == "x" * 500
    assert items[2]["control"] is True and items[2]["control_record"] == "COMMIT"


def test_inspect_capture_pairs_responses_by_correlation_id(capsys, capture):
    status, out, err = run(capsys, "inspect", "--json", str(capture))
    assert (status, err) == (0, "")
    items = json_lines(out)
    shown = [(i["type"], i.get("api"), i.get("version"), i.get("correlation_id")) for i in items]
    assert shown == [
        ("request", "API_VERSIONS", 4, 1),
        # the broker did not speak v4: error 35 and a version 0 body
        ("response", "API_VERSIONS", 0, 1),
        ("request", "METADATA", 12, 2),
        ("response", "METADATA", 12, 2),
        ("request", "PRODUCE", 9, 3),
        ("capture", None, None, None),
    ]
    assert items[1]["message"]["error_code"] == 35
    assert items[3]["message"]["brokers"] == [
        {"node_id": 1, "host": "broker", "port": 9092, "rack": None}
    ]
    records = items[4]["message"]["topic_data"][0]["partition_data"][0]["records"]
    assert (records["batches"], records["records"]) == (1, 1)
    assert items[-1]["responses"] == 2
    # the same pair found from the .responses file, or named with --responses
    assert run(capsys, "inspect", "--json", str(capture.with_suffix(".responses")))[1] == out
    other = capture.with_name("copy.bin")
    other.write_bytes(capture.read_bytes())
    status, text, _ = run(
        capsys, "inspect", str(other), "--responses", str(capture.with_suffix(".responses"))
    )
    assert status == 0 and text.count("\nresponse ") == 2


def test_inspect_capture_text_and_verbose_records(capsys, capture):
    status, out, _ = run(capsys, "inspect", "-v", str(capture))
    assert status == 0
    header = "request api='METADATA' api_key=3 version=12 correlation_id=2 client_id='cli-test'"
    assert header in out
    assert "      name: 'events'" in out
    assert "value: b'produced'" in out  # the produce request's records, decoded with -v


def test_inspect_pre08_capture_and_log(capsys, tmp_path):
    messages07 = [pre08.Message(b"hello"), pre08.Message.compressed([pre08.Message(b"in")], 1)]
    requests = pre08.encode_request(pre08.ProduceRequest("t", 0, messages07))
    requests += pre08.encode_request(pre08.OffsetsRequest("t", 0, -1, 3))
    (tmp_path / "old.requests").write_bytes(requests)
    (tmp_path / "old.responses").write_bytes(
        pre08.encode_response(pre08.OffsetsResponse(0, [120, 0]))
    )
    status, out, _ = run(capsys, "inspect", "--json", str(tmp_path / "old.requests"))
    assert status == 0
    items = json_lines(out)
    assert [(i["type"], i.get("request_type")) for i in items][:3] == [
        ("request", "PRODUCE"),
        ("request", "OFFSETS"),
        ("response", "OFFSETS"),
    ]
    produce = items[0]["message"]["messages"]
    assert produce[0]["payload"] == "hello"
    assert produce[1]["codec"] == "gzip" and produce[1]["messages"][0]["payload"] == "in"
    assert items[2]["message"]["offsets"] == [120, 0]

    log = tmp_path / "00000000000000000100.kafka"
    log.write_bytes(pre08.encode_message_set(messages07))
    status, out, _ = run(capsys, "inspect", "--json", str(log))
    assert status == 0
    entries = json_lines(out)
    assert [e.get("offset") for e in entries[:2]] == [100, 100 + messages07[0].size]
    assert entries[-1] == {"type": "log", "file": str(log), "format": "kafka 0.7", "messages": 2}


def test_inspect_empty_file(capsys, tmp_path):
    (tmp_path / "empty.log").write_bytes(b"")
    assert run(capsys, "inspect", str(tmp_path / "empty.log"))[:2] == (
        0,
        f"empty file='{tmp_path / 'empty.log'}'\n",
    )


# --- bad input: one clear line, status 1, no traceback -------------------------------------------


def corrupt_segment(data: bytes) -> bytes:
    out = bytearray(data)
    out[70] ^= 0x40  # inside the first batch's records: the CRC no longer matches
    return bytes(out)


@pytest.mark.parametrize(
    ("name", "make", "expected"),
    [
        ("crc.log", lambda: corrupt_segment(segment_bytes()), "CRC-32C mismatch"),
        ("cut.log", lambda: segment_bytes()[:-20], "the file ends inside a batch"),
        ("noise.bin", lambda: b"GET / HTTP/1.1\r\nHost: example\r\n\r\n", "not a segment file"),
        (
            "cut.requests",
            lambda: metadata_exchange(1)[0][:-3],
            "the capture ends inside a frame",
        ),
        (
            "negative.requests",
            lambda: metadata_exchange(1)[0] + struct.pack(">i", -5),
            "negative frame size -5",
        ),
        (
            "bad-frame.requests",
            # a frame whose topic count runs past its end, between two good ones
            lambda: (
                metadata_exchange(1)[0]
                + struct.pack(">ihhihbi", 15, 3, 9, 2, -1, 0, 0)[: 4 + 15]
                + metadata_exchange(3)[0]
            ),
            "request at byte",
        ),
        (
            "crc.kafka",
            lambda: pre08.encode_message_set([pre08.Message(b"payload")])[:-1] + b"X",
            "CRC",
        ),
    ],
)
def test_bad_files(capsys, tmp_path, name, make, expected):
    path = tmp_path / name
    path.write_bytes(make())
    status, _, err = run(capsys, "inspect", str(path))
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("kafkawire: ") and expected in err
    assert str(path) in err and "Traceback" not in err


def test_frame_that_does_not_decode_is_reported_and_the_rest_shown(capsys, tmp_path):
    good1, good3 = metadata_exchange(1)[0], metadata_exchange(3)[0]
    # Metadata v1 (header v1): 1000 topics announced, none there
    bad = struct.pack(">hhih", 3, 1, 2, -1) + struct.pack(">i", 1000)
    path = tmp_path / "mixed.requests"
    path.write_bytes(good1 + struct.pack(">i", len(bad)) + bad + good3)
    status, out, err = run(capsys, "inspect", str(path))
    assert status == 1
    assert out.count("request api='METADATA'") == 2
    assert f"request at byte {len(good1)}" in err and "field MetadataRequest.topics" in err


def test_response_without_request(capsys, tmp_path):
    req, resp = metadata_exchange(1)
    (tmp_path / "c.requests").write_bytes(req)
    (tmp_path / "c.responses").write_bytes(resp + metadata_exchange(9)[1])
    status, out, err = run(capsys, "inspect", str(tmp_path / "c.requests"))
    assert status == 1
    assert "answers no request (id 9)" in err
    assert "response api='METADATA'" in out


def test_missing_file_and_usage_errors(capsys, tmp_path):
    status, _, err = run(capsys, "inspect", str(tmp_path / "nope.log"))
    assert status == 1 and "cannot read" in err and "No such file" in err
    with pytest.raises(SystemExit) as info:
        cli.main(["inspect"])
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        cli.main(["record", "--listen", "nohostport", "--upstream", "x:1", "--out", "d"])


def test_python_dash_m(tmp_path, segment):
    """The module entry point, once for a good file and once for a bad one."""
    done = subprocess.run(
        [sys.executable, "-m", "kafkawire", "inspect", "--json", str(segment)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json_lines(done.stdout)[-1]["records"] == 6
    bad = tmp_path / "bad.log"
    bad.write_bytes(corrupt_segment(segment.read_bytes()))
    done = subprocess.run(
        [sys.executable, "-m", "kafkawire", "inspect", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("kafkawire: ") and "Traceback" not in done.stderr
    assert done.stdout == ""


# --- record -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect_when_listening(port: int, timeout: float = 20.0) -> socket.socket:
    """The first connection that succeeds (each one would be recorded: no probing)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def read_frames(sock: socket.socket, count: int) -> list[bytes]:
    data, frames = b"", []
    while len(frames) < count:
        while len(data) < 4 or len(data) < 4 + struct.unpack_from(">i", data)[0]:
            chunk = sock.recv(65536)
            assert chunk, "connection closed"
            data += chunk
        size = struct.unpack_from(">i", data)[0]
        frames.append(data[4 : 4 + size])
        data = data[4 + size :]
    return frames


@pytest.mark.interop
def test_record_then_inspect(capsys, tmp_path, broker):
    """`kafkawire record` in front of a real broker (Tansu): a client's connection is written
    to conn-1.requests / conn-1.responses, which inspect then reads back."""
    port = free_port()
    out_dir = tmp_path / "captures"
    argv = [
        "record",
        "--listen",
        f"127.0.0.1:{port}",
        "--upstream",
        broker.bootstrap,
        "--out",
        str(out_dir),
        "--connections",
        "1",
        "--duration",
        "60",
    ]
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(cli.main(argv)))
    thread.start()
    with connect_when_listening(port) as sock:
        sock.sendall(
            encode_request(messages.ApiVersionsRequest(), version=3, correlation_id=1)
            + encode_request(messages.MetadataRequest(topics=None), version=12, correlation_id=2)
        )
        assert len(read_frames(sock, 2)) == 2  # ApiVersions, Metadata
    thread.join(30)
    assert result == [0]
    assert sorted(p.name for p in out_dir.iterdir()) == ["conn-1.requests", "conn-1.responses"]
    _, err = capsys.readouterr()
    assert "conn-1: closed" in err
    status, out, _ = run(capsys, "inspect", "--json", str(out_dir / "conn-1.requests"))
    assert status == 0
    items = json_lines(out)
    assert [(i["type"], i.get("api")) for i in items] == [
        ("request", "API_VERSIONS"),
        ("response", "API_VERSIONS"),
        ("request", "METADATA"),
        ("response", "METADATA"),
        ("capture", None),
    ]
    assert items[1]["message"]["error_code"] == 0
    assert items[3]["message"]["brokers"], "the broker lists itself"


def test_record_reports_an_unreachable_upstream(tmp_path):
    log = io.StringIO()
    recorder = cli.Recorder(("127.0.0.1", 0), ("127.0.0.1", free_port()), tmp_path, log=log)
    thread = threading.Thread(target=recorder.serve)
    thread.start()
    try:
        with socket.create_connection(recorder.address, timeout=10) as sock:
            sock.settimeout(10)
            assert sock.recv(10) == b""  # closed: nothing to forward to
        with recorder.changed:
            assert recorder.changed.wait_for(lambda: recorder.closed_connections == 1, 10)
    finally:
        recorder.stop()
        thread.join(10)
    assert "conn-1: cannot reach" in log.getvalue()


# --- convert ----------------------------------------------------------------------------------


def test_convert_segments_to_parquet(capsys, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    log_dir = tmp_path / "logs"
    expected = []
    for partition in range(2):
        part = log_dir / f"events-{partition}"
        part.mkdir(parents=True)
        for first in (0, 50):
            builder = BatchBuilder(base_offset=first, compression="lz4")
            for i in range(first, first + 50):
                builder.append(b"v%d-%d" % (partition, i), key=b"k%d" % i, timestamp=T0 + i)
                expected.append(("events", partition, i, b"k%d" % i, b"v%d-%d" % (partition, i)))
            (part / f"{first:020d}.log").write_bytes(builder.build())
    out = tmp_path / "out.parquet"
    status, _, err = run(capsys, "convert", str(log_dir), "--out", str(out), "--progress")
    assert status == 0, err
    assert "100%" in err and "200 records" in err and f"-> {out}" in err
    table = pq.read_table(out)
    assert table.column_names == [
        "key",
        "value",
        "topic",
        "partition",
        "offset",
        "timestamp",
        "timestampType",
        "headers",
    ]
    rows = sorted(
        zip(
            *(
                table.column(c).to_pylist()
                for c in ("topic", "partition", "offset", "key", "value")
            ),
            strict=True,
        )
    )
    assert rows == sorted(expected)
    # quiet, without headers
    status, _, err = run(
        capsys, "convert", str(log_dir / "events-1"), "--out", str(out), "--no-headers", "-q"
    )
    assert (status, err) == (0, "")
    assert pq.read_table(out).num_rows == 100 and "headers" not in pq.read_table(out).column_names


def test_convert_counts_one_record_and_one_file_in_the_singular(capsys, tmp_path):
    pytest.importorskip("pyarrow.parquet")
    builder = BatchBuilder(base_offset=0)
    builder.append(b"only", timestamp=T0)
    segment = tmp_path / f"{0:020d}.log"
    segment.write_bytes(builder.build())
    out = tmp_path / "out.parquet"
    status, _, err = run(capsys, "convert", str(segment), "--out", str(out))
    assert (status, err) == (0, f"kafkawire: 1 record from 1 segment file -> {out}\n")


def test_convert_bad_input(capsys, tmp_path):
    pytest.importorskip("pyarrow.parquet")
    part = tmp_path / "t-0"
    part.mkdir()
    (part / "00000000000000000000.log").write_bytes(corrupt_segment(segment_bytes()))
    out = tmp_path / "out.parquet"
    status, _, err = run(capsys, "convert", str(part), "--out", str(out))
    assert status == 1 and "CRC-32C mismatch" in err and "Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob(".out.parquet*"))  # nothing half-written
    status, _, err = run(capsys, "convert", str(tmp_path / "none"), "--out", str(out))
    assert status == 1 and "no such segment file or directory" in err
    (tmp_path / "empty").mkdir()
    status, _, err = run(capsys, "convert", str(tmp_path / "empty"), "--out", str(out))
    assert status == 1 and "no segment files" in err


def test_progress_bar_rendering():
    stream = io.StringIO()
    bar = cli.ProgressBar(4 * 2**20, stream=stream, enabled=True)
    bar.update(2**20, 1234, force=True)
    assert "[#######-----------------------]  25% 1.0/4.0 MiB 1,234 records" in stream.getvalue()
    bar.update(4 * 2**20, 5000)  # within 0.1 s of the last draw: not drawn
    bar.finish()  # ...but the end is
    assert (
        stream.getvalue().endswith("\n") and " 100% 4.0/4.0 MiB 5,000 records" in stream.getvalue()
    )
    quiet = io.StringIO()  # not a terminal: nothing drawn
    cli.ProgressBar(10, stream=quiet).update(5, 1, force=True)
    assert quiet.getvalue() == ""


# --- bench ------------------------------------------------------------------------------------


def test_bench_collects_the_suites(capfd):
    pytest.importorskip("pytest_benchmark")
    status = cli.main(["bench", "--", "--collect-only", "-q"])
    out, _ = capfd.readouterr()
    assert status == 0
    assert "bench_records.py" in out and "bench_messages.py" in out


def test_bench_without_a_checkout(capsys, monkeypatch):
    monkeypatch.setattr(cli_bench, "benchmarks_dir", lambda: None)
    status, _, err = run(capsys, "bench")
    assert status == 1 and "source checkout" in err
