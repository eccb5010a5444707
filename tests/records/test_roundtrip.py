"""Decode then re-encode gives back the same bytes; build then decode gives
back the records (property-based)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire import BatchBuilder, CrcError, build_control_batch, decode_records, read_batches

TS = 1_700_000_000_000


def rebuild(batch) -> bytes:
    """Re-encode a decoded batch with kafkawire's builder."""
    kwargs = {}
    if batch.magic == 2:
        kwargs = dict(
            partition_leader_epoch=batch.partition_leader_epoch,
            producer_id=batch.producer_id,
            producer_epoch=batch.producer_epoch,
            base_sequence=batch.base_sequence,
            is_transactional=batch.is_transactional,
        )
    builder = BatchBuilder(
        magic=batch.magic,
        compression=batch.compression,
        base_offset=batch.base_offset,
        max_bytes=2**30,
        timestamp_type=max(batch.timestamp_type, 0),
        **kwargs,
    )
    for r in batch:
        assert builder.append(r.value, key=r.key, timestamp=r.timestamp, headers=r.headers)
    return builder.build()


RECORDS = [
    (
        TS + 3 * i,
        None if i % 5 == 0 else b"key%d" % i,
        b"val" * (i % 9),
        [("h", b"%d" % i)] * (i % 3),
    )
    for i in range(60)
]


def peer_batch(peer: str) -> bytes:
    if peer == "aiokafka":
        from aiokafka.record._crecords import DefaultRecordBatchBuilder

        builder = DefaultRecordBatchBuilder(2, 0, 0, 77, 3, 1000, 10**7)
    else:
        from kafka.record.default_records import DefaultRecordBatchBuilder

        builder = DefaultRecordBatchBuilder(2, 0, False, 77, 3, 1000, 10**7)
    for i, (ts, k, v, h) in enumerate(RECORDS):
        builder.append(i, ts, k, v, list(h))
    return bytes(builder.build())


@pytest.mark.parametrize("peer", ["aiokafka", "kafka-python"])
def test_peer_batches_reencode_identically(peer):
    original = peer_batch(peer)
    (batch,) = read_batches(original, keep_control=True)
    assert rebuild(batch) == original


# zstd exists only in magic 2 batches
MAGIC_CODECS = [
    (magic, codec)
    for magic in (0, 1, 2)
    for codec in ("none", "gzip", "snappy", "lz4", "zstd")
    if magic == 2 or codec != "zstd"
]


@pytest.mark.parametrize(("magic", "codec"), MAGIC_CODECS)
def test_kafkawire_batches_reencode_identically(magic, codec):
    builder = BatchBuilder(magic=magic, compression=codec, base_offset=500, max_bytes=2**30)
    for ts, k, v, h in RECORDS:
        builder.append(v, key=k, timestamp=ts, headers=h if magic == 2 else ())
    original = builder.build()
    batches = list(read_batches(original))
    assert b"".join(rebuild(b) for b in batches) == original


def test_control_batch_roundtrip():
    original = build_control_batch(
        commit=False,
        producer_id=9,
        producer_epoch=2,
        coordinator_epoch=5,
        base_offset=40,
        timestamp=TS,
    )
    (batch,) = read_batches(original, keep_control=True)
    assert batch.is_control and batch.control_record.is_abort
    assert batch.control_record.coordinator_epoch == 5
    assert (batch.producer_id, batch.producer_epoch, batch.base_offset) == (9, 2, 40)


record_strategy = st.tuples(
    st.integers(min_value=0, max_value=2**41),
    st.one_of(st.none(), st.binary(max_size=40)),
    st.one_of(st.none(), st.binary(max_size=300)),
    st.lists(
        st.tuples(st.text(max_size=8), st.one_of(st.none(), st.binary(max_size=10))), max_size=3
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    records=st.lists(record_strategy, min_size=1, max_size=30),
    codec=st.sampled_from(["none", "gzip", "snappy", "lz4", "zstd"]),
    base_offset=st.integers(min_value=0, max_value=2**40),
)
def test_property_build_decode_rebuild(records, codec, base_offset):
    builder = BatchBuilder(compression=codec, base_offset=base_offset, max_bytes=2**30)
    for ts, k, v, h in records:
        assert builder.append(v, key=k, timestamp=ts, headers=h)
    data = builder.build()
    view = decode_records(data)
    expected = [
        (base_offset + i, ts, k, v, [(hk, hv) for hk, hv in h])
        for i, (ts, k, v, h) in enumerate(records)
    ]
    got = [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in view]
    assert got == expected
    (batch,) = read_batches(data)
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in batch] == expected
    assert rebuild(batch) == data


@settings(max_examples=200, deadline=None)
@given(position=st.integers(min_value=21), flip=st.integers(min_value=1, max_value=255))
def test_property_any_byte_change_in_crc_range_is_caught(position, flip):
    builder = BatchBuilder(base_offset=3)
    for ts, k, v, h in RECORDS[:10]:
        builder.append(v, key=k, timestamp=ts, headers=h)
    data = bytearray(builder.build())
    position = 21 + position % (len(data) - 21)
    data[position] ^= flip
    with pytest.raises(CrcError):
        decode_records(bytes(data))
    with pytest.raises(CrcError):
        list(read_batches(bytes(data)))
