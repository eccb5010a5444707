"""kafkawire.records.segments: Kafka log-segment files (record batches back to back, as a broker
writes them) read without a broker, in bounded chunks, with corrupt data reported by file
and byte offset."""

from __future__ import annotations

import logging
import struct

import pyarrow as pa
import pytest

from kafkawire import BatchBuilder, build_batches, build_control_batch
from kafkawire.errors import CorruptError, CrcError, DecodeError, TruncatedError
from kafkawire.records.segments import find_segments, read_arrow, read_table, read_views

T0 = 1_700_000_000_000


def rows(n: int, seed: int = 0) -> list[tuple]:
    """(key, value, headers, timestamp): null keys, tombstones, repeated header keys."""
    return [
        (
            None if i % 5 == 0 else b"key-%d" % (i + seed),
            None if i % 11 == 7 else b"value-%d " % i * (1 + i % 9),
            [("h", b"%d" % i), ("dup", None), ("dup", b"x")] if i % 3 == 0 else [],
            T0 + 10 * i + seed,
        )
        for i in range(n)
    ]


def build(records: list[tuple], base_offset: int, compression=None, max_bytes=1 << 20) -> bytes:
    return b"".join(
        build_batches(
            [r[1] for r in records],
            keys=[r[0] for r in records],
            headers=[r[2] for r in records],
            timestamps=[r[3] for r in records],
            base_offset=base_offset,
            compression=compression,
            max_bytes=max_bytes,
        )
    )


def set_base_offset(batch: bytes, base_offset: int) -> bytes:
    # baseOffset is outside the CRC (v2 covers attributes onwards, v0/v1 magic onwards)
    return struct.pack(">q", base_offset) + batch[8:]


def kafka_python_batch(records: list[tuple], base_offset: int, codec: int) -> bytes:
    from kafka.record.default_records import DefaultRecordBatchBuilder

    builder = DefaultRecordBatchBuilder(2, codec, False, -1, -1, -1, 10**7)
    for i, (key, value, headers, ts) in enumerate(records):
        builder.append(i, ts, key, value, headers)
    return set_base_offset(bytes(builder.build()), base_offset)


def aiokafka_batch(records: list[tuple], base_offset: int, codec: int) -> bytes:
    from aiokafka.record._crecords import DefaultRecordBatchBuilder

    builder = DefaultRecordBatchBuilder(2, codec, 0, -1, -1, -1, 10**7)
    for i, (key, value, headers, ts) in enumerate(records):
        builder.append(i, ts, key, value, headers)
    return set_base_offset(bytes(builder.build()), base_offset)


def as_rows(table: pa.Table) -> list[tuple]:
    out = []
    for r in table.to_pylist():
        headers = [(h["key"], h["value"]) for h in r["headers"] or []]
        ts = int(r["timestamp"].timestamp() * 1000) if r["timestamp"] else None
        out.append((r["topic"], r["partition"], r["offset"], r["key"], r["value"], headers, ts))
    return out


def expected(topic, partition, records, first_offset):
    return [
        (topic, partition, first_offset + i, k, v, list(h), ts)
        for i, (k, v, h, ts) in enumerate(records)
    ]


def make_data_dir(tmp_path) -> list[tuple]:
    """A broker's log dir: orders-0 (two segments: kafkawire batches in every codec with
    transaction markers between them, then kafka-python and aiokafka batches), orders-1 (legacy
    magic 1), and things a reader must pass over."""
    part0 = tmp_path / "orders-0"
    part0.mkdir()
    first = rows(300)
    segment = bytearray()
    offset = 0
    for n, codec in enumerate([None, "gzip", "snappy", "lz4", "zstd"]):
        chunk = first[n * 60 : (n + 1) * 60]
        segment += build(chunk, offset, codec, max_bytes=2048)
        offset += 60
        segment += build_control_batch(
            commit=True, producer_id=7, producer_epoch=0, base_offset=offset
        )
        offset += 1  # the marker takes an offset
    (part0 / "00000000000000000000.log").write_bytes(bytes(segment))
    (part0 / "00000000000000000000.index").write_bytes(b"\0" * 16)
    second = rows(40, seed=1000)
    peer = kafka_python_batch(second[:20], offset, 1) + aiokafka_batch(second[20:], offset + 20, 4)
    (part0 / f"{offset:020d}.log").write_bytes(peer)

    part1 = tmp_path / "orders-1"
    part1.mkdir()
    legacy = BatchBuilder(magic=1, base_offset=0)
    for i in range(5):
        legacy.append(b"old-%d" % i, key=b"k%d" % i, timestamp=T0 + i)
    (part1 / "00000000000000000000.log").write_bytes(legacy.build())

    (tmp_path / "orders-2.6b1c-delete").mkdir()  # being deleted by the broker
    (tmp_path / "orders-2.6b1c-delete" / "00000000000000000000.log").write_bytes(b"junk")
    (tmp_path / "server.log").write_text("not a segment")  # the broker's own log
    (tmp_path / "empty-0").mkdir()
    (tmp_path / "empty-0" / "00000000000000000000.log").write_bytes(b"")

    want = []
    for n in range(5):
        want += expected("orders", 0, first[n * 60 : (n + 1) * 60], n * 61)
    want += expected("orders", 0, second, 305)
    want += [("orders", 1, i, b"k%d" % i, b"old-%d" % i, [], T0 + i) for i in range(5)]
    return want


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path, make_data_dir(tmp_path)


def test_data_dir_reads_as_the_records_written(data_dir):
    path, want = data_dir
    segments = find_segments(path)
    assert [(s.topic, s.partition, s.base_offset) for s in segments] == [
        ("empty", 0, 0),
        ("orders", 0, 0),
        ("orders", 0, 305),
        ("orders", 1, 0),
    ]
    table = read_table(path)
    assert table.schema.field("timestamp").type == pa.timestamp("us", tz="UTC")
    assert as_rows(table) == want  # transaction markers left out, offsets kept
    # one partition directory, or one file given by name, read alone
    assert as_rows(read_table(path / "orders-1")) == want[-5:]
    single = read_table(path / "orders-0" / "00000000000000000305.log", include_headers=False)
    assert "headers" not in single.column_names
    assert single.column("offset").to_pylist() == list(range(305, 345))


def test_file_outside_a_partition_directory_has_no_topic(tmp_path):
    records = rows(10)
    path = tmp_path / "copy.log"
    path.write_bytes(build(records, 100))
    assert as_rows(read_table(path)) == expected(None, None, records, 100)
    with pytest.raises(FileNotFoundError, match="no-such"):
        find_segments(tmp_path / "no-such")


def test_chunks_stay_bounded_and_read_the_same(tmp_path):
    records = rows(2000)
    path = tmp_path / "t-0" / "00000000000000000000.log"
    path.parent.mkdir()
    data = build(records, 0, max_bytes=4096)
    huge = BatchBuilder(base_offset=2000, max_bytes=1 << 22)
    huge.append(b"z" * 300_000, key=b"big", timestamp=T0)  # one batch larger than a chunk
    path.write_bytes(data + huge.build() + build(records[:50], 2001))
    chunks = list(read_views(path, chunk_bytes=8 * 1024))
    assert len(chunks) > 10
    assert all(c.end - c.start <= 8 * 1024 for c in chunks if len(c.view) > 1)
    assert [c.start for c in chunks[1:]] == [c.end for c in chunks[:-1]]
    small = pa.Table.from_batches(list(read_arrow(path, chunk_bytes=8 * 1024)))
    assert small.equals(read_table(path))
    assert small.num_rows == 2051
    assert small.column("value")[2000].as_py() == b"z" * 300_000


def corrupt_copy(tmp_path, mutate) -> tuple:
    """orders-0 with three batches of 10 records; `mutate` spoils the middle one."""
    part = tmp_path / "orders-0"
    part.mkdir()
    batches = [build(rows(10, seed=b), 10 * b) for b in range(3)]
    data = bytearray(b"".join(batches))
    mutate(data, len(batches[0]))
    path = part / "00000000000000000000.log"
    path.write_bytes(bytes(data))
    return path, len(batches[0])


def test_corrupt_batch_names_the_file_and_byte(tmp_path, caplog):
    def flip(data, at):
        data[at + 70] ^= 0xFF  # inside the records of the second batch

    path, second = corrupt_copy(tmp_path, flip)
    with pytest.raises(CrcError) as info:
        read_table(path)
    assert str(path) in str(info.value)
    assert info.value.offset == second + 17  # the batch's CRC field, counted from file start
    assert info.value.batch_offset == 10
    # failOnDataLoss=false: the bad batch is skipped, the ones around it read
    with caplog.at_level(logging.WARNING, logger="kafkawire.records.segments"):
        table = read_table(path, skip_corrupt=True)
    assert table.column("offset").to_pylist() == list(range(10)) + list(range(20, 30))
    assert "skipping" in caplog.text and str(path) in caplog.text
    # not checking CRCs, the flipped byte goes through as data
    assert read_table(path, verify_crc=False).num_rows == 30


def test_impossible_length_and_truncated_tail(tmp_path, caplog):
    def shrink(data, at):
        data[at + 8 : at + 12] = struct.pack(">i", 3)  # shorter than any batch header

    path, second = corrupt_copy(tmp_path, shrink)
    with pytest.raises(CorruptError) as info:
        list(read_views(path))
    assert info.value.offset == second + 8 and str(path) in str(info.value)
    with caplog.at_level(logging.WARNING, logger="kafkawire.records.segments"):
        assert read_table(path, skip_corrupt=True).num_rows == 10  # nothing to resync on
    assert len(caplog.records) == 1

    cut = tmp_path / "cut-0"
    cut.mkdir()
    whole = build(rows(10), 0) + build(rows(10), 10)
    (cut / "00000000000000000000.log").write_bytes(whole[:-30])
    with pytest.raises(TruncatedError, match=r"segment .*cut-0") as info:
        read_table(cut)
    assert info.value.offset == len(build(rows(10), 0))
    assert isinstance(info.value, DecodeError)
    assert read_table(cut, skip_corrupt=True).num_rows == 10


def test_preallocated_zero_tail_ends_the_file(tmp_path):
    path = tmp_path / "p-3" / "00000000000000000000.log"
    path.parent.mkdir()
    path.write_bytes(build(rows(25), 0) + bytes(4096))
    table = read_table(path)
    assert table.num_rows == 25
    assert set(table.column("partition").to_pylist()) == {3}
