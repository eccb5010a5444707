"""The Spark sources and sink against a secured cluster: SASL_SSL with SCRAM-SHA-512 given as
Spark's Kafka options (``kafka.sasl.jaas.config``, a PEM truststore file), through the SASL
gateway in front of Tansu. A batch write, a batch read and a streaming read; the password never
shows in the query plan."""

from __future__ import annotations

import uuid

import pytest
import trustme

from kafkawire.client import Client, TopicPartition
from tests.support.sasl_bed import sasl_bed
from tests.support.tls import server_context

pytestmark = pytest.mark.interop

PASSWORD = "alice-secret"
JAAS = (
    "org.apache.kafka.common.security.scram.ScramLoginModule required "
    f'username="alice" password="{PASSWORD}";'
)


@pytest.fixture(scope="module")
def secured(tmp_path_factory):
    """(gateway, the kafka.* options Spark users write for it)"""
    ca = trustme.CA()
    truststore = tmp_path_factory.mktemp("tls") / "ca.pem"
    ca.cert_pem.write_to_path(str(truststore))
    with sasl_bed(tls_context=server_context(ca, "127.0.0.1"), session_lifetime_ms=6000) as gw:
        options = {
            "kafka.bootstrap.servers": gw.address,
            "kafka.security.protocol": "SASL_SSL",
            "kafka.sasl.mechanism": "SCRAM-SHA-512",
            "kafka.sasl.jaas.config": JAAS,
            "kafka.ssl.truststore.location": str(truststore),
            "kafka.ssl.truststore.type": "PEM",
        }
        yield gw, options


def client_config(options: dict) -> dict:
    return {k.removeprefix("kafka."): v for k, v in options.items()}


def test_write_read_and_stream_over_sasl_ssl(spark, secured, tmp_path):
    gateway, options = secured
    topic = f"secured-{uuid.uuid4().hex[:8]}"
    with Client(config=client_config(options)) as client:
        client.create_topics({topic: 2})
    rows = [(f"k{i}", f"v{i}") for i in range(300)]
    df = spark.createDataFrame(rows, "key string, value string")
    df.write.format("kafkawire").options(**options).option("topic", topic).mode("append").save()

    read = spark.read.format("kafkawire").options(**options).option("subscribe", topic).load()
    got = sorted((r.key.decode(), r.value.decode()) for r in read.select("key", "value").collect())
    assert got == sorted(rows)
    plan = read._jdf.queryExecution().toString()
    assert "kafkawire" in plan.lower() and PASSWORD not in plan

    query = (
        spark.readStream.format("kafkawire")
        .options(**options)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
        .selectExpr("CAST(value AS STRING) AS value")
        .writeStream.format("memory")
        .queryName(f"secured_{uuid.uuid4().hex[:8]}")
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(120)
    assert query.exception() is None
    streamed = spark.table(query.name).collect()
    assert sorted(r.value for r in streamed) == sorted(v for _, v in rows)
    assert gateway.authentications["SCRAM-SHA-512"] >= 3  # driver and executors logged in
    assert PASSWORD not in str(query.lastProgress)

    with Client(config=client_config(options)) as client:
        latest = client.latest_offsets([TopicPartition(topic, p) for p in range(2)])
    assert sum(latest.values()) == len(rows)
