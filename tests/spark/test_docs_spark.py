"""docs/spark.md's Spark blocks (and security.md's Spark block) run as written against the test
broker, a registry server and segment directories, with the shared SparkSession; topic names
made unique per run and the blocks' host names, paths and passwords replaced by the tests'
(the markers and helpers: tests/test_docs_examples.py, which also runs spark.md's block
without Spark)."""

from __future__ import annotations

import ast
import json
import re
import uuid

import pytest

import kafkawire
from tests.test_docs_examples import MARKERS, block, create_topic, read_topic, run

PAGE = "spark.md"


def spark_block(index: int) -> str:
    return block(PAGE, MARKERS[PAGE][index])


@pytest.fixture(scope="module")
def registered(spark):
    """The registering block, run once: the sources are there afterwards (and were found
    before it, through the pyspark_* modules: tests/spark/conftest.py)."""
    run(spark_block(0), PAGE, spark=spark)
    manager = spark._jsparkSession.sessionState().dataSourceManager()
    assert manager.dataSourceExists("kafkawire") and manager.dataSourceExists("kafkawire_segments")
    return spark


def produce(bootstrap: str, topic: str, partitions: int, values: list[bytes], **send) -> None:
    create_topic(bootstrap, topic, partitions)
    with kafkawire.Producer(bootstrap) as producer:
        for i, value in enumerate(values):
            producer.send(topic, value, key=b"k%d" % (i % 5), **send)
        assert producer.flush(30) == 0


def test_read_block(registered, broker, capsys):
    spark = registered
    orders = f"orders-{uuid.uuid4().hex[:8]}"
    values = [b"order-%d" % i for i in range(50)]
    produce(broker.bootstrap, orders, 2, values, headers=[("src", b"web")])
    code = (
        spark_block(1)
        .replace('"broker1:9092,broker2:9092"', f'"{broker.bootstrap}"')
        .replace('"orders"', f'"{orders}"')
    )
    scope = run(code, PAGE, spark=spark)
    rows = scope["df"].select("key", "value", "headers").collect()
    assert sorted(r.value for r in rows) == sorted(values)
    assert all(
        r.key.startswith(b"k") and [tuple(h) for h in r.headers] == [("src", b"web")] for r in rows
    )
    # show() printed 20 rows: key and value as strings, with their partition and offset
    shown = [
        line.split("|")[1:-1]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("|")
    ]
    assert [c.strip() for c in shown[0]] == ["key", "value", "partition", "offset"]
    assert len(shown) == 21
    assert {c[1].strip() for c in shown[1:]} <= {v.decode() for v in values}


def block_options(code: str) -> dict[str, str]:
    """The ``.option(NAME, "value")`` calls of a block whose value is a string literal."""
    return {
        node.args[0].value: node.args[1].value
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "option"
        and len(node.args) == 2
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
    }


def test_stream_block_does_not_read_its_own_output():
    # the stream's pattern must not match the topic it writes: it would read back its output
    options = block_options(spark_block(2))
    pattern, output = options["subscribePattern"], options["topic"]
    assert re.fullmatch(pattern, output) is None, (pattern, output)


def test_stream_and_metrics_blocks(registered, broker, tmp_path, capsys):
    """The stream of every topic the pattern matches, upper-cased into another topic under
    Trigger.AvailableNow; then its offsets behind latest (none: it read to the end). Every
    topic name of the block gets the same unique prefix, so the pattern matches what it
    matches in the block: the output topic exists before the query starts, and the topics
    the stream read are the two input topics only."""
    spark = registered
    options = block_options(spark_block(2))
    run_prefix = f"t{uuid.uuid4().hex[:8]}-"
    pattern, upper = run_prefix + options["subscribePattern"], run_prefix + options["topic"]
    sent = {}
    for name in ("clicks", "views"):
        values = [f"{name}-{i}".encode() for i in range(40)]
        topic = f"{run_prefix}events-{name}"
        assert re.fullmatch(pattern, topic)
        produce(broker.bootstrap, topic, 2, values)
        sent[topic] = values
    create_topic(broker.bootstrap, upper, 2)
    code = (
        spark_block(2)
        .replace(f'"{options["subscribePattern"]}"', f'"{pattern}"')
        .replace(f'"{options["topic"]}"', f'"{upper}"')
        .replace('"/data/checkpoints/upper"', f'"{tmp_path / "upper"}"')
    )
    scope = run(code, PAGE, spark=spark, bootstrap=broker.bootstrap)
    query = scope["query"]
    assert query.awaitTermination(180)
    assert query.exception() is None
    got = sorted(v for _, _, _, v, _ in read_topic(broker.bootstrap, upper, 2))
    assert got == sorted(v.upper() for values in sent.values() for v in values)
    read = set(json.loads(query.lastProgress["sources"][0]["endOffset"]))
    assert read == set(sent)  # not the output topic

    run(spark_block(3), PAGE, scope=scope)
    printed = capsys.readouterr().out.strip().splitlines()[-1]
    behind = ast.literal_eval(printed)
    assert behind == {
        "minOffsetsBehindLatest": 0,
        "maxOffsetsBehindLatest": 0,
        "avgOffsetsBehindLatest": 0.0,
    }


def test_write_block(registered, broker):
    spark = registered
    users = f"users-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, users, 2)
    people = [(i, f"user {i}", i % 3 == 0) for i in range(30)]
    df = spark.createDataFrame(people, "user_id long, name string, admin boolean")
    code = spark_block(4).replace('"users"', f'"{users}"')
    run(code, PAGE, spark=spark, df=df, bootstrap=broker.bootstrap)
    rows = read_topic(broker.bootstrap, users, 2)
    got = sorted((k.decode(), json.loads(v)) for _, _, k, v, _ in rows)
    assert got == sorted(
        (str(i), {"user_id": i, "name": name, "admin": admin}) for i, name, admin in people
    )


def test_registry_block(registered, broker):
    """Avro values of subject <topic>-value (one of them not Avro: a null value with its
    reason), read into a struct column and written to another topic as Avro under a schema
    derived from the struct (registered as prices-value)."""
    import io

    import fastavro

    from tests.registry.registry_server import start_registry

    spark = registered
    suffix = uuid.uuid4().hex[:8]
    orders, prices = f"orders-{suffix}", f"prices-{suffix}"
    schema = {
        "type": "record",
        "name": "Order",
        "fields": [
            {"name": "id", "type": "long"},
            {"name": "price", "type": "double"},
            {"name": "note", "type": "string"},
        ],
    }
    server = start_registry()
    server.basic_auth = ("user", "secret")
    try:
        schema_id = server.register(f"{orders}-value", {"schema": json.dumps(schema)})[0].schema_id

        def framed(datum: dict) -> bytes:
            out = io.BytesIO()
            fastavro.schemaless_writer(out, fastavro.parse_schema(schema), datum)
            return b"\0" + schema_id.to_bytes(4, "big") + out.getvalue()

        values = [framed({"id": i, "price": i / 4, "note": "n"}) for i in range(60)]
        produce(broker.bootstrap, orders, 2, [*values, b"not avro"])
        create_topic(broker.bootstrap, prices, 2)
        code = (
            spark_block(5)
            .replace('"broker:9092"', f'"{broker.bootstrap}"')
            .replace('"https://registry:8081"', f'"{server.url}"')
            .replace('"orders"', f'"{orders}"')
            .replace('"prices"', f'"{prices}"')
        )
        scope = run(code, PAGE, spark=spark)
        read = scope["orders"].select("value.id", "value.price", "valueError").collect()
        assert sorted((r.id, r.price) for r in read if r.valueError is None) == [
            (i, i / 4) for i in range(60)
        ]
        bad = [r for r in read if r.valueError is not None]
        assert len(bad) == 1 and bad[0].id is None
        assert f"{prices}-value" in server.subjects
        written = (
            spark.read.format("kafkawire")
            .option("kafka.bootstrap.servers", broker.bootstrap)
            .option("subscribe", prices)
            .option("schema.registry.url", server.url)
            .option("schema.registry.basic.auth.user.info", "user:secret")
            .option("valueFormat", "avro")
            .load()
            .select("value.*")
            .collect()
        )
    finally:
        server.stop()
    assert sorted((r.id, r.price) for r in written if r.id is not None) == [
        (i, i / 4) for i in range(60)
    ]
    assert len(written) == 61  # the bad value's row too: a struct of nulls


def test_segments_block(registered, tmp_path):
    """Each of the three loads, every absolute path of the block put under tmp_path."""
    spark = registered

    def segment(path, values, base_offset=0):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"".join(kafkawire.build_batches(values, base_offset=base_offset)))

    name = "00000000000000000000.log"
    segment(tmp_path / "var/lib/kafka/data/orders-0" / name, [b"o0-%d" % i for i in range(10)])
    segment(tmp_path / "var/lib/kafka/data/orders-1" / name, [b"o1-%d" % i for i in range(15)])
    segment(
        tmp_path / "backup/orders-3/00000000000000000500.log",
        [b"b-%d" % i for i in range(7)],
        base_offset=500,
    )
    segment(tmp_path / "a" / name, [b"a-%d" % i for i in range(3)])
    segment(tmp_path / "b/clicks-2" / name, [b"c-%d" % i for i in range(4)])
    lines = spark_block(6).replace('"/', f'"{tmp_path}/').strip().splitlines()
    assert len(lines) == 3
    scope = run(lines[0], PAGE, spark=spark)
    got = {(r.topic, r.partition) for r in scope["df"].select("topic", "partition").collect()}
    assert got == {("orders", 0), ("orders", 1)} and scope["df"].count() == 25
    run(lines[1], PAGE, scope=scope)
    rows = scope["df"].orderBy("offset").collect()
    assert [(r.offset, r.value) for r in rows] == [(500 + i, b"b-%d" % i) for i in range(7)]
    assert {(r.topic, r.partition) for r in rows} == {("orders", 3)}
    run(lines[2], PAGE, scope=scope)
    rows = scope["df"].collect()
    assert sorted(r.value for r in rows) == sorted(
        [b"a-%d" % i for i in range(3)] + [b"c-%d" % i for i in range(4)]
    )
    assert {(r.topic, r.partition) for r in rows} == {(None, None), ("clicks", 2)}


@pytest.fixture(scope="module")
def scram_bed(tmp_path_factory):
    """A Tansu behind the SASL_SSL gateway; the PEM file of the CA that signed its
    certificate."""
    import trustme

    from tests.support.sasl_bed import sasl_bed
    from tests.support.tls import server_context

    ca = trustme.CA()
    truststore = tmp_path_factory.mktemp("tls") / "ca.pem"
    ca.cert_pem.write_to_path(str(truststore))
    with sasl_bed(tls_context=server_context(ca, "127.0.0.1")) as gateway:
        yield gateway, truststore


def test_security_block(spark, scram_bed):
    """security.md's Spark block: SCRAM-SHA-512 in kafka.sasl.jaas.config over SASL_SSL (the
    test's CA given as the truststore: the block names none, a public CA's certificate)."""
    gateway, truststore = scram_bed
    code = block("security.md", '"kafka.sasl.jaas.config"')
    protocol = '    .option("kafka.security.protocol", "SASL_SSL")\n'
    assert code.count(protocol) == 1 and code.count('password="..."') == 1
    events = f"events-{uuid.uuid4().hex[:8]}"
    code = (
        code.replace('"broker:9093"', f'"{gateway.address}"')
        .replace('password="..."', 'password="alice-secret"')
        .replace('"events"', f'"{events}"')
        .replace(
            protocol,
            protocol
            + f'    .option("kafka.ssl.truststore.location", "{truststore}")\n'
            + '    .option("kafka.ssl.truststore.type", "PEM")\n',
        )
    )
    config = {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "alice",
        "sasl.password": "alice-secret",
        "ssl.ca.location": str(truststore),
    }
    values = [b"secured-%d" % i for i in range(40)]
    with kafkawire.Client(gateway.address, config=config) as client:
        client.create_topics({events: 2})
    with kafkawire.Producer(gateway.address, config=config) as producer:
        for value in values:
            producer.send(events, value)
        assert producer.flush(30) == 0
    before = gateway.authentications["SCRAM-SHA-512"]
    df = run("df = " + code, "security.md", spark=spark)["df"]
    assert sorted(r.value for r in df.select("value").collect()) == sorted(values)
    assert gateway.authentications["SCRAM-SHA-512"] > before
