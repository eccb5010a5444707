"""Spark reading Kafka data through the kafkawire data sources, against two references:

(a) segments: ``kafkawire_segments`` over a topic's log-segment files, against a data source
    that only hands Spark Arrow batches of the same rows, prebuilt (from Arrow IPC files, then
    held in Spark's reused Python workers): the ceiling of any Python data source;
(b) broker: ``kafkawire`` reading a topic from a real broker (Tansu on 127.0.0.1), against a
    minimal data source built on confluent-kafka's Consumer (librdkafka fetching, Arrow
    batches built from each consume() call's messages).

Each round is one Spark job that reads every row and drops it (the "noop" sink), so the
time is the source plus Spark taking the rows in.

Wall time, not CPU time: the work happens in the JVM and in Spark's Python workers, not in
this process, so its CPU time (what ``make bench`` measures elsewhere) would mean nothing.
The ``benchmark`` marks below force ``time.perf_counter`` whatever --benchmark-timer says.
Wall time needs a quiet machine: run it alone.

    .venv/bin/python -m pytest benchmarks/bench_spark.py -q --benchmark-only
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from kafkawire import build_batches
from kafkawire.client import Client, TopicPartition

pyspark = pytest.importorskip("pyspark")
confluent_kafka = pytest.importorskip("confluent_kafka")
broker_mod = pytest.importorskip("tests.support.broker")

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition  # noqa: E402

PARTITIONS = 4
SEGMENT_RECORDS = 500_000  # per partition, in two segment files each
BROKER_RECORDS = 100_000  # per partition
VALUE_BYTES = 100
ROUNDS = {"segments": 5, "broker": 3}

# ratios are worked out from the best round of each pair and shown at the end of each pair
_BEST: dict[str, float] = {}


def _columns(n: int, seed: int):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 256, (n, VALUE_BYTES), dtype=np.uint8).view(f"S{VALUE_BYTES}")
    keys = np.array([b"key-%08d" % i for i in range(n)], dtype="S12")
    return values.reshape(-1), keys


# ---- the reference data sources (pickled by value: Spark's workers cannot import this file)


class ArrowFilesReader(DataSourceReader):
    def __init__(self, paths: list[str]) -> None:
        self.paths = paths

    def partitions(self):
        return [InputPartition(p) for p in self.paths]

    def read(self, partition):
        # Kept in the (reused) Python worker after the warm-up round, so that the timed
        # rounds measure nothing but handing Arrow batches to Spark.
        import builtins

        cache = builtins.__dict__.setdefault("_kafkawire_bench_batches", {})
        if partition.value not in cache:
            with pa.memory_map(partition.value) as source:
                reader = pa.ipc.open_file(source)
                batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
            cache[partition.value] = (
                pa.Table.from_batches(batches)
                .combine_chunks()
                .to_batches(max_chunksize=batches[0].num_rows)
            )
        yield from cache[partition.value]


class ArrowFilesSource(DataSource):
    """Prebuilt Arrow batches from IPC files, one task per file: the ceiling."""

    @classmethod
    def name(cls):
        return "bench_arrow_files"

    def schema(self):
        from kafkawire.spark import kafka_schema

        return kafka_schema(False)

    def reader(self, schema):
        return ArrowFilesReader(sorted(str(p) for p in Path(self.options["path"]).glob("*.arrow")))


class ConfluentReader(DataSourceReader):
    """Each task reads its partition from the beginning to the end librdkafka reports (a
    partition EOF event: Tansu's ListOffsets answers cannot be trusted for the end)."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.bootstrap = bootstrap
        self.topic = topic

    def _consumer(self):
        return confluent_kafka.Consumer(
            {
                "bootstrap.servers": self.bootstrap,
                "group.id": "bench-spark",
                "enable.auto.commit": False,
                "enable.partition.eof": True,
                "fetch.max.bytes": 52428800,
                "max.partition.fetch.bytes": 10485760,
            }
        )

    def partitions(self):
        consumer = self._consumer()
        try:
            parts = consumer.list_topics(self.topic, timeout=10).topics[self.topic].partitions
            return [InputPartition(p) for p in sorted(parts)]
        finally:
            consumer.close()

    def read(self, partition):
        from kafkawire.records.arrow import SCHEMA

        p = partition.value
        consumer = self._consumer()
        consumer.assign(
            [confluent_kafka.TopicPartition(self.topic, p, confluent_kafka.OFFSET_BEGINNING)]
        )
        deadline = time.monotonic() + 120
        done = False
        try:
            while not done and time.monotonic() < deadline:
                msgs = []
                for m in consumer.consume(10_000, 1.0):
                    if m.error() is None:
                        msgs.append(m)
                    elif m.error().code() == confluent_kafka.KafkaError._PARTITION_EOF:
                        done = True
                    else:
                        raise confluent_kafka.KafkaException(m.error())
                if not msgs:
                    continue
                n = len(msgs)
                stamps = [m.timestamp() for m in msgs]
                yield pa.RecordBatch.from_arrays(
                    [
                        pa.array([m.key() for m in msgs], pa.binary()),
                        pa.array([m.value() for m in msgs], pa.binary()),
                        pa.array([self.topic] * n, pa.string()),
                        pa.array([p] * n, pa.int32()),
                        pa.array([m.offset() for m in msgs], pa.int64()),
                        pa.array([ts * 1000 for _, ts in stamps], pa.int64()).cast(
                            pa.timestamp("us", tz="UTC")
                        ),
                        pa.array([kind - 1 for kind, _ in stamps], pa.int32()),
                    ],
                    schema=SCHEMA,
                )
        finally:
            consumer.close()


class ConfluentSource(DataSource):
    """A minimal Kafka source on confluent-kafka's Consumer, one task per partition."""

    @classmethod
    def name(cls):
        return "bench_confluent"

    def schema(self):
        from kafkawire.spark import kafka_schema

        return kafka_schema(False)

    def reader(self, schema):
        return ConfluentReader(self.options["kafka.bootstrap.servers"], self.options["subscribe"])


# ---- fixtures ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark():
    from pyspark import cloudpickle
    from pyspark.sql import SparkSession

    import kafkawire.spark

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    session = (
        SparkSession.builder.master("local[2]")
        .appName("kafkawire-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    kafkawire.spark.register(session)
    session.dataSource.register(ArrowFilesSource)
    session.dataSource.register(ConfluentSource)
    yield session
    session.stop()


@pytest.fixture(scope="module")
def segment_dirs(tmp_path_factory):
    """A topic's data dir (PARTITIONS partitions, two segment files each, 1 MiB batches) and
    a directory of Arrow IPC files holding the same rows as Spark batches."""
    from kafkawire.records.segments import find_segments, read_arrow

    root = tmp_path_factory.mktemp("segments")
    data, arrow = root / "data", root / "arrow"
    arrow.mkdir()
    half = SEGMENT_RECORDS // 2
    for p in range(PARTITIONS):
        part = data / f"bench-{p}"
        part.mkdir(parents=True)
        values, keys = _columns(SEGMENT_RECORDS, p)
        for base in (0, half):
            batches = build_batches(
                values[base : base + half], keys=keys[base : base + half], base_offset=base
            )
            (part / f"{base:020d}.log").write_bytes(b"".join(batches))
    for i, segment in enumerate(find_segments(data)):
        batches = list(read_arrow(segment, include_headers=False))
        path = str(arrow / f"{i:04d}.arrow")
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, batches[0].schema) as writer:
            for batch in batches:
                writer.write_batch(batch)
    return {"kafkawire_segments": str(data), "bench_arrow_files": str(arrow)}


@pytest.fixture(scope="module")
def topic():
    broker = broker_mod.start_broker()
    name = f"bench-spark-{uuid.uuid4().hex[:6]}"
    try:
        with Client(broker.bootstrap) as client:
            client.create_topics({name: PARTITIONS})
            for p in range(PARTITIONS):
                values, keys = _columns(BROKER_RECORDS, 100 + p)
                for start in range(0, BROKER_RECORDS, 25_000):
                    client.produce_columns(
                        TopicPartition(name, p),
                        values[start : start + 25_000],
                        keys=keys[start : start + 25_000],
                    )
            tps = [TopicPartition(name, p) for p in range(PARTITIONS)]
            assert set(client.latest_offsets(tps).values()) == {BROKER_RECORDS}
        yield {"bootstrap": broker.bootstrap, "name": name}
    finally:
        broker_mod.stop_broker(broker)


# ---- benchmarks -------------------------------------------------------------------------


def _scan(df) -> None:
    df.write.format("noop").mode("overwrite").save()


def _segments_df(spark, segment_dirs, impl):
    return spark.read.format(impl).load(segment_dirs[impl])


def _broker_df(spark, topic, impl):
    return (
        spark.read.format(impl)
        .option("kafka.bootstrap.servers", topic["bootstrap"])
        .option("subscribe", topic["name"])
        .load()
    )


@pytest.fixture(scope="module")
def warm_segments(spark, segment_dirs):
    """The JVM compiles its Arrow-to-row path during the first jobs: without this, whichever
    source is timed first looks up to 1.5x slower. Both sources, alternately, three times."""
    for _ in range(3):
        for impl in segment_dirs:
            _scan(_segments_df(spark, segment_dirs, impl))


@pytest.fixture(scope="module")
def warm_broker(spark, topic, warm_segments):
    for impl in ("bench_confluent", "kafkawire"):
        _scan(_broker_df(spark, topic, impl))


def _report(capsys, group: str, impl: str, reference: str, seconds: float, rows: int, label):
    _BEST[f"{group}/{impl}"] = seconds
    ref = _BEST.get(f"{group}/{reference}")
    line = f"\n{group}: {impl} {rows / seconds / 1e6:.2f} M rows/s (best of {ROUNDS[group]})"
    if ref is not None and impl != reference:
        line += f"; {label} = {ref / seconds:.2f}x"
    with capsys.disabled():
        print(line)
    return None if ref is None or impl == reference else ref / seconds


@pytest.mark.parametrize("impl", ["bench_arrow_files", "kafkawire_segments"])
@pytest.mark.benchmark(timer=time.perf_counter)
def test_segments(benchmark, spark, segment_dirs, warm_segments, impl, capsys):
    rows = SEGMENT_RECORDS * PARTITIONS
    benchmark.group = f"Spark reads {rows:,} records from segment files"
    df = _segments_df(spark, segment_dirs, impl)
    assert df.count() == rows
    benchmark.pedantic(_scan, args=(df,), rounds=ROUNDS["segments"], warmup_rounds=0)
    ratio = _report(
        capsys,
        "segments",
        impl,
        "bench_arrow_files",
        benchmark.stats.stats.min,
        rows,
        "throughput vs the prebuilt-Arrow ceiling",
    )
    benchmark.extra_info.update(suite="spark", impl=impl, records=rows, vs_reference=ratio)


@pytest.mark.parametrize("impl", ["bench_confluent", "kafkawire"])
@pytest.mark.benchmark(timer=time.perf_counter)
def test_broker(benchmark, spark, topic, warm_broker, impl, capsys):
    rows = BROKER_RECORDS * PARTITIONS
    benchmark.group = f"Spark reads {rows:,} records from the broker"
    df = _broker_df(spark, topic, impl)
    assert df.count() == rows
    benchmark.pedantic(_scan, args=(df,), rounds=ROUNDS["broker"], warmup_rounds=0)
    ratio = _report(
        capsys,
        "broker",
        impl,
        "bench_confluent",
        benchmark.stats.stats.min,
        rows,
        "speed-up over confluent-kafka",
    )
    benchmark.extra_info.update(suite="spark", impl=impl, records=rows, vs_reference=ratio)
