"""The "kafkawire_segments" Spark source: log-segment files read by Spark, one task per
file, with the columns of Spark's Kafka source."""

from __future__ import annotations

import pytest

from tests.records.test_segments import as_rows, build, make_data_dir, rows


def collect_rows(df) -> list[tuple]:
    return sorted(as_rows(df.toArrow()), key=lambda r: (r[0] or "", r[1] or 0, r[2]))


def test_segment_source_reads_a_broker_data_dir(spark, spark_fixture, tmp_path):
    # found by Spark's lookup of pyspark_* modules, before anything called register()
    assert spark_fixture.found_at_start == {"kafkawire": True, "kafkawire_segments": True}
    want = make_data_dir(tmp_path)
    df = (
        spark.read.format("kafkawire_segments").option("includeHeaders", "TRUE").load(str(tmp_path))
    )
    assert df.rdd.getNumPartitions() == 3  # one task per non-empty .log file
    assert [f.name for f in df.schema.fields][-1] == "headers"
    assert collect_rows(df) == want
    counts = {
        (r["topic"], r["partition"]): r["count"]
        for r in df.groupBy("topic", "partition").count().collect()
    }
    assert counts == {("orders", 0): 340, ("orders", 1): 5}
    # several paths, and without headers: Spark's Kafka columns only
    df = spark.read.format("kafkawire_segments").load(
        [str(tmp_path / "orders-1"), str(tmp_path / "orders-0" / "00000000000000000305.log")]
    )
    assert "headers" not in df.columns
    assert df.count() == 45
    # a misspelled option fails load() itself, naming the closest one
    with pytest.raises(Exception, match=r"unknown option 'verifycrcs' .*did you mean 'verifyCrc'"):
        spark.read.format("kafkawire_segments").option("verifyCrcs", "false").load(str(tmp_path))


def test_segment_source_corrupt_batch(spark, tmp_path):
    part = tmp_path / "events-2"
    part.mkdir()
    batches = [build(rows(10, seed=b), 10 * b) for b in range(3)]
    data = bytearray(b"".join(batches))
    data[len(batches[0]) + 70] ^= 0xFF
    path = part / "00000000000000000000.log"
    path.write_bytes(bytes(data))
    with pytest.raises(Exception) as info:
        spark.read.format("kafkawire_segments").load(str(tmp_path)).collect()
    message = str(info.value)
    assert "CrcError" in message and str(path) in message
    assert f"byte {len(batches[0]) + 17}" in message
    lenient = spark.read.format("kafkawire_segments").option("failOnDataLoss", "false")
    offsets = sorted(r.offset for r in lenient.load(str(tmp_path)).select("offset").collect())
    assert offsets == list(range(10)) + list(range(20, 30))
