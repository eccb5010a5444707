"""The README's Spark example runs as written against the test broker and a segment
directory (the other README blocks: tests/test_readme.py)."""

from __future__ import annotations

import uuid

import kafkawire
from tests.test_readme import block, run


def test_spark_block(spark, broker, tmp_path):
    suffix = uuid.uuid4().hex[:8]
    orders, copy = f"orders-{suffix}", f"orders-copy-{suffix}"
    with kafkawire.Client(broker.bootstrap) as client:
        client.create_topics({orders: 2, copy: 2})
    with kafkawire.Producer(broker.bootstrap) as producer:
        for i in range(300):
            producer.send(orders, b"order-%d" % i, key=b"%d" % (i % 11), headers=[("n", b"1")])
        assert producer.flush(30) == 0
    segment_dir = tmp_path / "orders-0"
    segment_dir.mkdir()
    values = [b"archived-%d" % i for i in range(50)]
    (segment_dir / "00000000000000000000.log").write_bytes(
        b"".join(kafkawire.build_batches(values))
    )
    code = (
        block('spark.read.format("kafkawire_segments")')
        .replace('"broker:9092"', f'"{broker.bootstrap}"')
        .replace('"orders"', f'"{orders}"')
        .replace('"orders-copy"', f'"{copy}"')
        .replace('"/var/lib/kafka/data/orders-0"', f'"{segment_dir}"')
    )
    scope = run(code, spark=spark)
    df = scope["df"]
    assert df.count() == 300
    assert {r.value for r in df.select("value").collect()} == {b"order-%d" % i for i in range(300)}
    assert all(r.headers[0].key == "n" for r in df.select("headers").collect())
    copied = (
        spark.read.format("kafkawire")
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("subscribe", copy)
        .load()
    )
    assert sorted(r.value for r in copied.select("value").collect()) == sorted(
        b"order-%d" % i for i in range(300)
    )
    segments = scope["segments"]
    assert [r.value for r in segments.orderBy("offset").select("value").collect()] == values
    assert {r.topic for r in segments.select("topic").collect()} == {"orders"}


def test_registry_block(spark, broker, tmp_path):
    """The schema-registry block: Avro values written by confluent-kafka's AvroSerializer
    through a registry server, read by Spark into typed columns and written as Parquet."""
    import json

    import pyarrow.parquet as pq
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    from tests.registry.registry_server import start_registry

    topic = f"trades-{uuid.uuid4().hex[:8]}"
    schema = {
        "type": "record",
        "name": "Trade",
        "fields": [
            {"name": "symbol", "type": "string"},
            {"name": "price", "type": "double"},
            {"name": "note", "type": ["null", "string"], "default": None},
        ],
    }
    server = start_registry()
    try:
        confluent = SchemaRegistryClient({"url": server.url})
        serialize = AvroSerializer(confluent, json.dumps(schema))
        ctx = SerializationContext(topic, MessageField.VALUE)
        with kafkawire.Client(broker.bootstrap) as client:
            client.create_topics({topic: 2})
        with kafkawire.Producer(broker.bootstrap) as producer:
            for i in range(100):
                trade = {"symbol": f"S{i % 7}", "price": i / 4, "note": None if i % 3 else "x"}
                producer.send(topic, serialize(trade, ctx), key=b"%d" % i)
            assert producer.flush(30) == 0
        confluent.close()
        out = tmp_path / "trades"
        code = (
            block('.option("valueFormat", "avro")')
            .replace('"broker:9092"', f'"{broker.bootstrap}"')
            .replace('"trades"', f'"{topic}"')
            .replace('"http://registry:8081"', f'"{server.url}"')
            .replace('"/data/trades"', f'"{out}"')
        )
        scope = run(code, spark=spark)
    finally:
        server.stop()
    table = pq.read_table(out)
    assert table.column_names == ["partition", "offset", "symbol", "price", "note"]
    rows = sorted(table.select(["symbol", "price", "note"]).to_pylist(), key=lambda r: r["price"])
    assert rows == [
        {"symbol": f"S{i % 7}", "price": i / 4, "note": None if i % 3 else "x"} for i in range(100)
    ]
    assert scope["trades"].schema["value"].dataType.simpleString() == (
        "struct<symbol:string,price:double,note:string>"
    )
