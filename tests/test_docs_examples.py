"""The Python examples of docs/*.md run as written: each ```python block is executed, with the
broker address pointed at the test broker, topic and group names made unique per run, and
what a block reads but does not make (a fetch answer, the records to send, a ``handle``
function) given to it; ``test_every_docs_block_is_covered`` fails when a page gains a block
without a marker here (and so without a test). The TLS and SASL blocks of security.md run in
tests/client/test_docs_security.py (they need the SASL bed's fixtures), the Spark blocks of
spark.md in tests/spark/test_docs_spark.py (they need the SparkSession); the README's in
tests/test_readme.py."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

import kafkawire
from kafkawire.client import READ_COMMITTED, TopicPartition

DOCS = Path(__file__).resolve().parents[1] / "docs"

# One marker per ```python block of each page: a string only that block contains.
MARKERS = {
    "configuration.md": ['"enable.partition.eof": True'],
    "consumer.md": ['kafkawire.Consumer("127.0.0.1:9092"', "kafkawire.aio.Consumer("],
    "pre08.md": ["pre08.encode_request("],
    "producer.md": [
        '"linger.ms": 5',
        "kafkawire.aio.Producer(",
        "producer.send_batch(",
        '"transactional.id"',
    ],
    "schema-registry.md": ["SchemaRegistryClient("],
    "share-groups.md": [
        "handle(record.value, record.delivery_count)",
        "kafkawire.aio.ShareConsumer(",
        "set_acknowledgement_commit_callback(on_commit)",
        "batch.acknowledge(AcknowledgeType.RELEASE, rows=~done)",
    ],
    "security.md": [
        'sasl_mechanism="PLAIN"',
        '"kafka.sasl.jaas.config"',
        '"<API key>"',
        '"sasl.oauthbearer.method": "oidc"',
        '"client.pem"',
        "MSKAuthTokenProvider",
        '"$ConnectionString"',
        '"service.cert"',
        '"<user>"',
    ],
    "spark.md": [
        "kafkawire.spark.register(spark)",
        '"broker1:9092,broker2:9092"',
        'spark.readStream.format("kafkawire")',
        "offsets_behind_latest(progress",
        '.option("topic", "users")',
        '.option("valueFormat", "avro")  # value',
        'spark.read.format("kafkawire_segments")',
        "segments.find_segments(",
    ],
}


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), flags=re.S)


def block(page: str, marker: str) -> str:
    """The one block of docs/``page`` whose code contains ``marker``."""
    found = [b for b in python_blocks(page) if marker in b]
    assert len(found) == 1, f"{len(found)} blocks of docs/{page} contain {marker!r}"
    return found[0]


def run(code: str, page: str, broker=None, scope: dict | None = None, **namespace) -> dict:
    """Executes ``code`` (top-level ``await`` / ``async with`` allowed: it then runs in an
    event loop of its own) in ``scope`` (a new one by default) with ``namespace`` added."""
    if broker is not None:
        code = code.replace("127.0.0.1:9092", broker.bootstrap)
    scope = {"__name__": "docs"} if scope is None else scope
    scope.update(namespace)
    compiled = compile(code, str(DOCS / page), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(compiled, scope)  # a coroutine when the code awaits at top level
    if asyncio.iscoroutine(result):
        asyncio.run(result)
    return scope


def renamed(code: str, *names: str) -> tuple[str, dict[str, str]]:
    """``code`` with the quoted names made unique (the session broker is shared)."""
    suffix = uuid.uuid4().hex[:8]
    mapping = {}
    for name in names:
        mapping[name] = f"{name}-{suffix}"
        assert f'"{name}"' in code, name
        code = code.replace(f'"{name}"', f'"{mapping[name]}"')
    return code, mapping


def read_topic(bootstrap: str, topic: str, partitions: int, **options) -> list[tuple]:
    """Every record of the topic: (partition, offset, key, value, headers)."""
    rows = []
    with kafkawire.Client(bootstrap) as client:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        ends = client.latest_offsets(tps, **options)
        for tp in tps:
            if not ends[tp]:
                continue
            for chunk in client.read_range(tp, 0, ends[tp], **options):
                for r in chunk.to_arrow().to_pylist():
                    headers = [(h["key"], h["value"]) for h in r["headers"] or []]
                    rows.append((r["partition"], r["offset"], r["key"], r["value"], headers))
    return rows


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    with kafkawire.Client(bootstrap) as client:
        client.create_topics({topic: partitions})


class Stop(Exception):
    """Raised by a test's ``handle`` to end a block's endless service loop."""


def test_every_docs_block_is_covered():
    pages = sorted(p.name for p in DOCS.glob("*.md") if python_blocks(p.name))
    assert pages == sorted(MARKERS)
    for page, markers in MARKERS.items():
        assert len(python_blocks(page)) == len(markers), page
        for marker in markers:
            block(page, marker)


# -- consumer.md ------------------------------------------------------------------------------


def produce_payments(bootstrap: str, topic: str, count: int) -> dict[tuple[int, int], tuple]:
    """``count`` keyed records with a header, over the topic's 2 partitions:
    {(partition, offset): (key, value, headers)}."""
    create_topic(bootstrap, topic, 2)
    with kafkawire.Producer(bootstrap) as producer:
        futures = [
            (
                producer.send(
                    topic, b"paid-%d" % i, key=b"%d" % (i % 7), headers=[("n", b"%d" % i)]
                ),
                i,
            )
            for i in range(count)
        ]
        assert producer.flush(30) == 0
    sent = {}
    for future, i in futures:
        meta = future.result()
        sent[(meta.partition, meta.offset)] = (b"%d" % (i % 7), b"paid-%d" % i, [("n", b"%d" % i)])
    return sent


def test_consumer_block(broker, capsys):
    """The service loop handles every record once and commits after each poll: ``handle``
    sends one more record (b"stop") once it has seen them all and ends the loop when that one
    comes, so the group's committed offsets are the ends of the records before it."""
    code, names = renamed(block("consumer.md", MARKERS["consumer.md"][0]), "payments", "billing")
    topic = names["payments"]
    sent = produce_payments(broker.bootstrap, topic, 300)
    handled = {}

    def handle(topic_, partition, offset, key, value, headers, timestamp):
        if value == b"stop":
            raise Stop
        assert topic_ == topic and isinstance(timestamp, int) and timestamp > 0
        assert (partition, offset) not in handled
        handled[(partition, offset)] = (key, value, [tuple(h) for h in headers])
        if len(handled) == len(sent):
            with kafkawire.Producer(broker.bootstrap) as producer:
                producer.send(topic, b"stop").result(30)

    with pytest.raises(Stop):
        run(code, "consumer.md", broker, handle=handle)
    assert handled == sent
    # on_assign=print printed the group's assignment: both partitions of the topic
    printed = capsys.readouterr().out
    assert f"TopicPartition(topic='{topic}', partition=0" in printed, printed
    assert f"TopicPartition(topic='{topic}', partition=1" in printed, printed
    tps = [TopicPartition(topic, p) for p in (0, 1)]
    ends = {p: 1 + max(o for q, o in sent if q == p) for p in (0, 1)}
    config = {"group.id": names["billing"], "enable.auto.commit": False}
    with kafkawire.Consumer(broker.bootstrap, config=config) as consumer:
        committed = consumer.committed(tps, timeout=30)
    assert {tp.partition: committed[tp].offset for tp in tps} == ends


def test_async_consumer_block(broker):
    """The asyncio consumer's loop (its body, ``...``, given as ``handle(record)``) receives
    every record; config is the first block's."""
    first, names = renamed(block("consumer.md", MARKERS["consumer.md"][0]), "billing")
    code, more = renamed(block("consumer.md", MARKERS["consumer.md"][1]), "payments")
    assert code.count("        ...\n") == 1
    code = code.replace("        ...\n", "        handle(record)\n")
    topic = more["payments"]
    sent = produce_payments(broker.bootstrap, topic, 200)
    handled = {}

    def handle(record):
        assert record.topic == topic
        handled[(record.partition, record.offset)] = (
            record.key,
            record.value,
            [tuple(h) for h in record.headers],
        )
        if len(handled) == len(sent):
            raise Stop

    scope = run(first.split("with kafkawire.Consumer(")[0], "consumer.md")
    assert scope["config"]["group.id"] == names["billing"]
    with pytest.raises(Stop):
        run(code, "consumer.md", broker, scope=scope, handle=handle)
    assert handled == sent


# -- configuration.md -------------------------------------------------------------------------


def test_configuration_block(broker):
    """The one config dict (librdkafka's names) and the keywords; ``...`` (the application)
    given as ``use(consumer, producer)``: what the producer sends, the consumer reads."""
    code, _ = renamed(block("configuration.md", MARKERS["configuration.md"][0]), "orders")
    assert code.count("\n...\n") == 1
    code = code.replace("broker:9092", broker.bootstrap).replace(
        "\n...\n", "\nuse(consumer, producer)\n"
    )
    topic = f"configured-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, topic, 1)
    got = []

    def use(consumer, producer):
        values = [b"configured-%d" % i for i in range(20)]
        for value in values:
            producer.send(topic, value)
        assert producer.flush(30) == 0
        consumer.assign([TopicPartition(topic, 0)])
        for _ in range(30):
            got.extend(r.value for r in consumer.poll(1.0))
            if len(got) >= len(values):
                break
        assert got == values

    run(code, "configuration.md", use=use)
    assert len(got) == 20  # use() ran: the block's consumer and producer worked


# -- pre08.md ---------------------------------------------------------------------------------


def test_pre08_block():
    from kafkawire.protocol import pre08

    answer = pre08.FetchResponse(messages=[pre08.Message(b"one"), pre08.Message(b"two")])
    body = pre08.encode_response(answer, size_prefix=False)
    scope = run(block("pre08.md", MARKERS["pre08.md"][0]), "pre08.md", body=body)
    assert scope["request"] == pre08.FetchRequest("events", 0, offset=0, max_size=1 << 20)
    assert [m.payload for m in scope["response"].messages] == [b"one", b"two"]
    # the loop read the plain message and the two inside the gzip one, offsets from 12345
    entries = list(pre08.read_message_set(scope["data"], base_offset=12345))
    assert [bytes(e.message.payload) for e in entries] == [b"plain", b"a", b"b"]
    assert entries[0].offset == 12345 and entries[0].next_offset == entries[1].offset
    assert scope["entry"].message.payload == b"b" and scope["entry"].depth == 1


# -- producer.md ------------------------------------------------------------------------------


@dataclass
class Order:
    id: int
    customer_id: bytes

    def json(self) -> bytes:
        return json.dumps({"id": self.id}).encode()


def test_producer_block(broker, capsys):
    code, names = renamed(block("producer.md", MARKERS["producer.md"][0]), "orders")
    topic = names["orders"]
    create_topic(broker.bootstrap, topic, 3)
    orders = [Order(i, b"c-%d" % (i % 5)) for i in range(500)]
    scope = run(code, "producer.md", broker, orders=orders)
    metadata = scope["metadata"]
    assert metadata.topic == topic and metadata.offset >= 0
    assert capsys.readouterr().out.split() == [str(metadata.offset)]  # the done callback
    rows = read_topic(broker.bootstrap, topic, 3)
    sent = [(o.customer_id, o.json(), []) for o in orders] + [
        (b"c-42", b"...", [("source", b"web")])
    ]
    assert sorted((k, v, h) for _, _, k, v, h in rows) == sorted(sent)
    by_key = {}
    for partition, _, key, _, _ in rows:
        by_key.setdefault(key, set()).add(partition)  # a key's records share a partition
    assert all(len(p) == 1 for p in by_key.values())
    assert (metadata.partition, metadata.offset) in {(r[0], r[1]) for r in rows if r[3] == b"..."}


def test_async_producer_block(broker):
    code, names = renamed(block("producer.md", MARKERS["producer.md"][1]), "orders")
    topic = names["orders"]
    create_topic(broker.bootstrap, topic, 2)
    scope = run(code, "producer.md", broker)
    assert scope["metadata"].topic == topic
    rows = read_topic(broker.bootstrap, topic, 2)
    assert sorted((k or b"", v) for _, _, k, v, _ in rows) == [(b"", b"..."), (b"c-42", b"...")]
    assert (scope["metadata"].partition, scope["metadata"].offset) in {r[:2] for r in rows}
    assert scope["future"].done()


def test_columnar_producer_block(broker):
    import pyarrow as pa

    code, names = renamed(block("producer.md", MARKERS["producer.md"][2]), "orders")
    topic = names["orders"]
    create_topic(broker.bootstrap, topic, 3)
    n = 1000
    values = [b"row-%d" % i for i in range(n)]
    keys = [b"k-%d" % (i % 13) for i in range(n)]
    headers = [[("i", b"%d" % i)] for i in range(n)]
    ts = [1_700_000_000_000 + i for i in range(n)]
    table = pa.table({"value": [b"arrow-%d" % i for i in range(50)], "partition": [2] * 50})
    scope = run(
        code, "producer.md", broker, values=values, keys=keys, headers=headers, ts=ts, table=table
    )
    meta = scope["meta"]
    assert meta.topic == topic and len(meta.offsets) == len(meta.partitions) == n
    rows = {(r[0], r[1]): r for r in read_topic(broker.bootstrap, topic, 3)}
    for i in range(n):  # every row where the BatchMetadata says it went
        row = rows.pop((int(meta.partitions[i]), int(meta.offsets[i])))
        assert row[2:] == (keys[i], values[i], [("i", b"%d" % i)])
    assert sorted(r[3] for r in rows.values()) == sorted(b"arrow-%d" % i for i in range(50))
    assert {r[0] for r in rows.values()} == {2}  # send_arrow took the partition column


def test_transactions_block(broker):
    """The exactly-once copy: ``invoice`` sends one more payment (b"stop") once every payment
    was invoiced, and ends the loop when that one comes: the invoices committed are one per
    payment, and the group's offsets the ends of the payments before b"stop"."""
    code, names = renamed(
        block("producer.md", MARKERS["producer.md"][3]),
        "billing-1",
        "billing",
        "payments",
        "invoices",
    )
    payments, invoices = names["payments"], names["invoices"]
    sent = produce_payments(broker.bootstrap, payments, 120)
    create_topic(broker.bootstrap, invoices, 2)
    tps = [TopicPartition(payments, p) for p in (0, 1)]
    # the group's earlier run committed offset 0 (the block's consumer starts from a commit;
    # without one it would start at the end: auto.offset.reset is latest by default)
    config = {"group.id": names["billing"], "enable.auto.commit": False}
    with kafkawire.Consumer(broker.bootstrap, config=config) as consumer:
        consumer.commit({tp: 0 for tp in tps})
    seen = set()

    def invoice(value):
        if value == b"stop":
            raise Stop
        seen.add(value)
        if len(seen) == len(sent):
            with kafkawire.Producer(broker.bootstrap) as producer:
                producer.send(payments, b"stop").result(30)
        return b"invoice-" + value

    scope = {}
    with pytest.raises(Stop):
        run(code, "producer.md", scope=scope, servers=broker.bootstrap, invoice=invoice)
    scope["producer"].abort_transaction()  # the one b"stop" began
    scope["producer"].close()
    scope["consumer"].close()
    rows = read_topic(broker.bootstrap, invoices, 2, isolation_level=READ_COMMITTED)
    assert sorted((k, v) for _, _, k, v, _ in rows) == sorted(
        (k, b"invoice-" + v) for k, v, _ in sent.values()
    )
    ends = {p: 1 + max(o for q, o in sent if q == p) for p in (0, 1)}
    with kafkawire.Consumer(broker.bootstrap, config=config) as consumer:
        committed = consumer.committed(tps, timeout=30)
    assert {tp.partition: committed[tp].offset for tp in tps} == ends


# -- schema-registry.md -----------------------------------------------------------------------


def test_schema_registry_block(tmp_path, monkeypatch):
    """Avro keys and values framed by a registry (served over TLS with basic auth, its CA the
    one trusted by default: SSL_CERT_FILE), decoded into struct columns."""
    import ssl

    import fastavro
    import pyarrow as pa
    import trustme

    from tests.registry.registry_server import start_registry

    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    server = start_registry(tls=context)
    server.basic_auth = ("user", "secret")
    value_schema = {
        "type": "record",
        "name": "Trade",
        "fields": [{"name": "symbol", "type": "string"}, {"name": "price", "type": "double"}],
    }
    key_schema = {"type": "record", "name": "Key", "fields": [{"name": "id", "type": "long"}]}
    try:
        value_id = server.register("trades-value", {"schema": json.dumps(value_schema)})[
            0
        ].schema_id
        key_id = server.register("trades-key", {"schema": json.dumps(key_schema)})[0].schema_id

        def framed(schema_id: int, schema: dict, datum: dict) -> bytes:
            import io

            out = io.BytesIO()
            fastavro.schemaless_writer(out, fastavro.parse_schema(schema), datum)
            return b"\0" + schema_id.to_bytes(4, "big") + out.getvalue()

        trades = [{"symbol": f"S{i % 3}", "price": i / 8} for i in range(100)]
        values = [framed(value_id, value_schema, t) for t in trades]
        keys = [framed(key_id, key_schema, {"id": i}) for i in range(100)]
        data = b"".join(kafkawire.build_batches(values, keys=keys, max_bytes=2000))
        code = block("schema-registry.md", MARKERS["schema-registry.md"][0])
        code = code.replace("https://registry:8081", server.url)
        scope = run(code, "schema-registry.md", fetch_partition=SimpleNamespace(records=data))
    finally:
        server.stop()
    assert scope["table"].to_pylist() == trades
    assert scope["keys"].to_pylist() == [{"id": i} for i in range(100)]
    assert isinstance(scope["values"], pa.StructArray)
    assert server.requests and all(
        r.headers.get("Authorization", "").startswith("Basic ") for r in server.requests
    )


# -- spark.md, the part without Spark ---------------------------------------------------------


def test_segments_block(tmp_path, capsys):
    """kafkawire.records.segments over a log dir and a backup, every absolute path of the block
    put under tmp_path."""
    log_dir = tmp_path / "var/lib/kafka/data"
    for partition in (0, 1):
        (log_dir / f"orders-{partition}").mkdir(parents=True)
        values = [b"p%d-%d" % (partition, i) for i in range(40)]
        (log_dir / f"orders-{partition}" / "00000000000000000000.log").write_bytes(
            b"".join(kafkawire.build_batches(values, max_bytes=300))
        )
    backup = tmp_path / "backup/orders-3"
    backup.mkdir(parents=True)
    archived = [b"archived-%d" % i for i in range(25)]
    (backup / "00000000000000000100.log").write_bytes(
        b"".join(kafkawire.build_batches(archived, base_offset=100))
    )
    code = block("spark.md", MARKERS["spark.md"][7]).replace('"/', f'"{tmp_path}/')
    scope = run(code, "spark.md")
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert {line[0] for line in lines} == {"orders"}
    for partition in ("0", "1"):  # each partition's chunks: 40 records, offsets 0..39
        chunks = [line for line in lines if line[1] == partition]
        assert sum(int(line[2]) for line in chunks) == 40 and chunks[-1][3] == "39"
    table = scope["table"]
    assert table.column("value").to_pylist() == archived
    assert table.column("offset").to_pylist() == list(range(100, 125))
    assert set(table.column("topic").to_pylist()) == {"orders"}
    assert set(table.column("partition").to_pylist()) == {3}
    assert scope["batch"].num_rows > 0 and "headers" in scope["batch"].schema.names
