"""The README's Python examples run as written: each ```python block is executed, with the
broker address pointed at the test broker and, where a block reads data it does not make
(a fetch answer, a response frame), that data made first. The Spark block runs in
tests/spark/test_readme_spark.py (it needs the SparkSession)."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest

import kafkawire
from kafkawire import messages

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def block(first_line: str) -> str:
    """The one block whose code contains ``first_line``."""
    found = [b for b in python_blocks() if first_line in b]
    assert len(found) == 1, f"{len(found)} README blocks contain {first_line!r}"
    return found[0]


def run(code: str, broker=None, **namespace) -> dict:
    if broker is not None:
        code = code.replace("127.0.0.1:9092", broker.bootstrap)
    scope = {"__name__": "readme", **namespace}
    exec(compile(code, str(README), "exec"), scope)
    return scope


def test_every_block_is_covered():
    markers = [
        "kafkawire.decode_records(fetch_partition.records)",
        "messages.MetadataRequest(topics=",
        "kafkawire.Consumer(",
        "kafkawire.Producer(",
        "kafkawire.Client(",
        'spark.read.format("kafkawire_segments")',
        '.option("valueFormat", "avro")',
    ]
    blocks = python_blocks()
    assert len(blocks) == len(markers)
    for marker in markers:
        block(marker)


def test_records_block():
    values = [b"value-%06d-" % i * 3 for i in range(60_000)]  # 2.4 MB: three 1 MB batches
    keys = [b"key-%d" % (i % 50) for i in range(60_000)]
    data = b"".join(kafkawire.build_batches(values, keys=keys, max_bytes=64_000))
    code = block("kafkawire.decode_records(fetch_partition.records)")
    inputs = {"fetch_partition": SimpleNamespace(records=data), "buf": data, "values": values}
    # the append loop that starts a new batch when one is full keeps every record
    scope = run(code.split("# or columns at once")[0], **inputs)
    assert len(scope["batches"]) > 1
    got = [bytes(v) for b in scope["batches"] for v in kafkawire.decode_records(b).values]
    assert got == values
    assert scope["table"].num_rows == len(values)
    # the whole block: build_batches splits the columns into batches
    scope = run(code, **inputs, keys=keys)
    view = kafkawire.decode_records(b"".join(scope["batches"]))
    assert [bytes(v) for v in view.values] == values
    assert [bytes(k) for k in view.keys] == keys


def test_messages_block():
    response = messages.MetadataResponse(brokers=[], topics=[])
    frame = kafkawire.encode_response(response, version=12, correlation_id=7, size_prefix=False)
    scope = run(block("messages.MetadataRequest(topics="), response_frame=frame)
    assert scope["header"].correlation_id == 7 and scope["resp"] == response
    assert scope["msg"].topics[0].name == "t"


@pytest.fixture
def fresh_names(broker):
    """README topic names made unique per run (the session broker is shared)."""
    suffix = uuid.uuid4().hex[:8]
    return lambda code, *names: _renamed(code, suffix, names)


def _renamed(code: str, suffix: str, names) -> tuple[str, dict[str, str]]:
    mapping = {}
    for name in names:
        mapping[name] = f"{name}-{suffix}"
        code = code.replace(f'"{name}"', f'"{mapping[name]}"')
    return code, mapping


def test_consumer_block(broker, fresh_names, capsys):
    code, names = fresh_names(block("kafkawire.Consumer("), "payments", "billing")
    with kafkawire.Client(broker.bootstrap) as client:
        client.create_topics({names["payments"]: 2})
    with kafkawire.Producer(broker.bootstrap) as producer:
        for i in range(500):
            producer.send(names["payments"], b"paid-%d" % i, key=b"%d" % (i % 7))
        assert producer.flush(30) == 0
    scope = run(code, broker)
    # the poll loop printed every record, once (the group's join took polls of its own)
    printed = [line.split(" ", 3)[3] for line in capsys.readouterr().out.splitlines()]
    assert sorted(printed) == sorted(repr(b"paid-%d" % i) for i in range(500))
    assert sorted(scope["table"].column("value").to_pylist()) == sorted(
        b"paid-%d" % i for i in range(500)
    )


def test_producer_block(broker, fresh_names, capsys):
    code, names = fresh_names(block("kafkawire.Producer("), "events")
    with kafkawire.Client(broker.bootstrap) as client:
        client.create_topics({names["events"]: 3})
    scope = run(code, broker)
    first = scope["futures"][0].result()
    assert first.topic == names["events"] and first.offset >= 0
    assert len(scope["batch"].offsets) == 100_000
    assert "RecordMetadata(" in capsys.readouterr().out


def test_client_block(broker, fresh_names, capsys):
    code, _ = fresh_names(block("kafkawire.Client("), "loads")
    scope = run(code, broker)
    assert scope["table"].num_rows == 1000  # partition 0's rows, read back
    assert "[0 1 2]" in capsys.readouterr().out  # the asyncio client read them too
