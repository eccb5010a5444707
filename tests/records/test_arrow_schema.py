"""One Arrow schema for every face: RecordView.to_arrow, consumer batches, fetched chunks,
segment files (and through them the Spark sources and the CLI); pandas and polars through
it; slices; reprs."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow as pa
import pytest

from kafkawire import BatchBuilder, build_batches, decode_records, read_batches
from kafkawire.client.consumer.batches import ConsumerBatch, PartitionRecords
from kafkawire.client.types import RecordChunk, TopicPartition
from kafkawire.records import segments
from kafkawire.records.arrow import arrow_schema

TS = 1_700_000_000_123
SPARK_SCHEMA = pa.schema(
    [
        ("key", pa.binary()),
        ("value", pa.binary()),
        ("topic", pa.string()),
        ("partition", pa.int32()),
        ("offset", pa.int64()),
        ("timestamp", pa.timestamp("us", tz="UTC")),
        ("timestampType", pa.int32()),
        (
            "headers",
            pa.list_(
                pa.field("element", pa.struct([("key", pa.string()), ("value", pa.binary())]))
            ),
        ),
    ]
)


def mixed_log() -> bytes:
    """Magic 0, magic 1, then record batches with and without headers."""
    legacy0 = BatchBuilder(magic=0)
    legacy0.append(b"m0", key=b"k0")
    legacy1 = BatchBuilder(magic=1, base_offset=1)
    legacy1.append(b"m1", timestamp=TS)
    v2 = build_batches(
        [b"a", None, b"c"],
        keys=[None, b"kb", b"kc"],
        timestamps=[TS + 1, TS + 2, TS + 3],
        headers=[[], [("h", b"1"), ("n", None)], []],
        base_offset=2,
    )
    return legacy0.build() + legacy1.build() + b"".join(v2)


def test_view_table_is_spark_s_kafka_schema():
    view = decode_records(mixed_log())
    table = view.to_arrow(topic="t", partition=3)
    assert table.schema == SPARK_SCHEMA
    assert table.column("topic").to_pylist() == ["t"] * 5
    assert table.column("partition").to_pylist() == [3] * 5
    assert table.column("offset").to_pylist() == [0, 1, 2, 3, 4]
    utc = dt.timezone.utc
    assert table.column("timestamp").to_pylist() == [
        None,  # magic 0 has no timestamp
        *(dt.datetime.fromtimestamp(t / 1000, utc) for t in (TS, TS + 1, TS + 2, TS + 3)),
    ]
    assert table.column("timestampType").to_pylist() == [-1, 0, 0, 0, 0]
    # null only where Kafka has no headers (magic 0 and 1); [] for a record batch without
    assert table.column("headers").to_pylist() == [
        None,
        None,
        [],
        [{"key": "h", "value": b"1"}, {"key": "n", "value": None}],
        [],
    ]
    assert table.column("key").to_pylist() == [b"k0", None, None, b"kb", b"kc"]
    assert table.column("value").to_pylist() == [b"m0", b"m1", b"a", None, b"c"]
    table.validate(full=True)


@pytest.mark.parametrize(
    ("binary", "kind"),
    [("view", pa.binary_view()), ("large", pa.large_binary()), ("plain", pa.binary())],
)
def test_binary_kind_is_the_only_option_of_the_schema(binary, kind):
    view = decode_records(mixed_log())
    table = view.to_arrow(binary=binary)
    assert table.schema == arrow_schema(True, binary)
    expected = SPARK_SCHEMA.set(0, pa.field("key", kind)).set(1, pa.field("value", kind))
    assert table.schema == expected
    plain = view.to_arrow()
    assert table.column("value").cast(pa.binary()).equals(plain.column("value"))


def test_without_headers_drops_only_that_column():
    table = decode_records(mixed_log()).to_arrow(include_headers=False)
    assert table.schema == pa.schema(list(SPARK_SCHEMA)[:-1])


def test_segments_consumer_batches_and_chunks_share_the_schema(tmp_path):
    data = mixed_log()
    part = tmp_path / "orders-2"
    part.mkdir()
    (part / "00000000000000000000.log").write_bytes(data)
    from_segment = segments.read_table(str(tmp_path))
    view = decode_records(data)
    tp = TopicPartition("orders", 2)
    from_view = view.to_arrow(topic="orders", partition=2)
    from_poll = ConsumerBatch([PartitionRecords(tp, view)]).to_arrow()
    from_chunk = RecordChunk(tp, view, 0, len(view), 5).to_arrow()
    for table in (from_segment, from_poll, from_chunk):
        assert table.schema == SPARK_SCHEMA
        assert table.equals(from_view)
    # a chunk's rows are its own
    part_chunk = RecordChunk(tp, view, 1, 4, 5).to_arrow()
    assert part_chunk.equals(from_view.slice(1, 3))
    assert ConsumerBatch([]).to_arrow().schema == SPARK_SCHEMA


def test_view_slices_export_their_rows():
    values = [b"v%d" % i for i in range(1000)]
    data = b"".join(build_batches(values, timestamps=[TS] * 1000, max_bytes=2000))
    view = decode_records(data)
    assert view.num_batches > 5
    whole = view.to_arrow()
    for a, b in [(0, 10), (37, 611), (990, 1000), (500, 500)]:
        part = view[a:b]
        assert len(part) == b - a
        assert part.to_arrow().equals(whole.slice(a, b - a))
        assert part.offsets.tolist() == list(range(a, b))


def test_to_pandas_and_to_polars():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    view = decode_records(mixed_log())
    frame = view.to_pandas(topic="t", partition=1)
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == SPARK_SCHEMA.names
    assert frame["offset"].tolist() == [0, 1, 2, 3, 4]
    assert frame["value"].tolist()[:2] == [b"m0", b"m1"]
    assert str(frame["timestamp"].dtype).startswith("datetime64[us, UTC]")
    polars_frame = view.to_polars()
    assert isinstance(polars_frame, pl.DataFrame)
    assert polars_frame.columns == SPARK_SCHEMA.names
    assert polars_frame["offset"].to_list() == [0, 1, 2, 3, 4]
    assert polars_frame["key"].to_list() == [b"k0", None, None, b"kb", b"kc"]
    assert polars_frame["headers"].to_list()[3] == [
        {"key": "h", "value": b"1"},
        {"key": "n", "value": None},
    ]
    tp = TopicPartition("t", 1)
    batch = ConsumerBatch([PartitionRecords(tp, view)])
    assert batch.to_pandas()["topic"].tolist() == ["t"] * 5
    assert batch.to_polars()["partition"].to_list() == [1] * 5
    assert PartitionRecords(tp, view).to_polars().height == 5
    assert RecordChunk(tp, view, 2, 5, 5).to_pandas()["offset"].tolist() == [2, 3, 4]
    # partition: one dtype whether it is known (a consumer batch) or not (a bare view)
    unknown, known = view.to_pandas()["partition"], batch.to_pandas()["partition"]
    assert str(unknown.dtype) == str(known.dtype) == "Int32"
    assert unknown.isna().all() and known.tolist() == [1] * 5


def test_reprs_say_what_is_there():
    data = mixed_log()
    view = decode_records(data)
    assert repr(view) == (
        "<RecordView 5 records, offsets 0..4, 3 batches, next_offset=5, leftover_bytes=0>"
    )
    assert repr(decode_records(b"")).startswith("<RecordView 0 records")
    assert repr(view.values) == "<BinaryColumn 5 rows, 1 null, 6 bytes: [b'm0', b'm1', b'a', ...]>"
    assert "2 null" in repr(view.keys)
    reader = read_batches(data)
    assert repr(reader) == f"<BatchReader reading: 0 of {len(data)} bytes read, leftover_bytes=" + (
        f"{len(data)}>"
    )
    batches = list(reader)
    assert repr(reader).startswith(f"<BatchReader done: {len(data)} of {len(data)}")
    assert repr(batches[2]).startswith("RecordBatch(base_offset=2, last_offset=4, magic=2")
    assert np.all(view.offsets == np.arange(5))


def test_client_repr_names_the_endpoint_and_security_but_no_secret():
    import kafkawire

    config = {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "SCRAM-SHA-256",
        "sasl.username": "alice",
        "sasl.password": "hunter2-secret",
    }
    with kafkawire.Client("127.0.0.1:1", config=config) as client:  # connects on first use
        text = repr(client)
        assert "hunter2" not in repr(client.config)
    assert text == "<Client 127.0.0.1:1 client_id='kafkawire' SASL_SSL SCRAM-SHA-256 as 'alice'>"
    assert "hunter2" not in text
    with kafkawire.Client("h:9092") as client:
        assert repr(client) == "<Client h:9092 client_id='kafkawire' PLAINTEXT>"
