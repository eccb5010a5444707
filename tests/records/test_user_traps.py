"""Records and protocol API traps a user copying the examples would fall into: a full
BatchBuilder, control records in a consumer's view, random bytes read as an empty record
set, size-prefixed frames and loosely typed bool fields."""

from __future__ import annotations

import os

import pytest

import kafkawire
from kafkawire import (
    BatchBuilder,
    DecodeError,
    EncodeError,
    TruncatedError,
    build_batches,
    build_control_batch,
    decode_records,
    read_batches,
)
from kafkawire import messages as m

TS = 1_700_000_000_000


def test_refused_append_makes_the_builder_full():
    builder = BatchBuilder(max_bytes=200)
    assert builder.append(b"x" * 100, timestamp=TS)
    assert not builder.is_full  # a small record would still fit
    assert builder.append(b"y" * 150, timestamp=TS) is False
    assert builder.is_full  # a loop testing is_full stops here instead of dropping records
    assert builder.record_count == 1
    assert builder.append(b"", timestamp=TS)  # a record that fits is still taken


def test_readme_builder_loop_keeps_every_record():
    values = [bytes([i % 251]) * (i % 97) for i in range(2000)]
    batches = []
    builder = BatchBuilder(max_bytes=4096)
    for value in values:
        if not builder.append(value, key=b"key", timestamp=TS):
            batches.append(builder.build())
            builder = BatchBuilder(max_bytes=4096, base_offset=0)
            assert builder.append(value, key=b"key", timestamp=TS)
    batches.append(builder.build())
    assert len(batches) > 10
    got = [bytes(v) for b in batches for v in decode_records(b).values]
    assert got == values


def _transaction(commit: bool) -> bytes:
    data = b"".join(
        build_batches(
            [b"a", b"b"],
            producer_id=7,
            producer_epoch=0,
            is_transactional=True,
            timestamps=[TS, TS],
        )
    )
    marker = build_control_batch(
        commit=commit, producer_id=7, producer_epoch=0, base_offset=2, timestamp=TS
    )
    plain = b"".join(build_batches([b"c"], base_offset=3, timestamps=[TS]))
    return data + marker + plain


def test_control_records_are_left_out_by_default():
    data = _transaction(commit=True)
    view = decode_records(data)
    assert [bytes(v) for v in view.values] == [b"a", b"b", b"c"]
    assert view.offsets.tolist() == [0, 1, 3]
    assert view.next_offset == 4
    assert [b.is_control for b in read_batches(data)] == [False, False]


def test_keep_control_returns_the_markers():
    data = _transaction(commit=False)
    view = decode_records(data, keep_control=True)
    assert view.offsets.tolist() == [0, 1, 2, 3]
    assert view.control_record(2).is_abort
    assert [b.is_control for b in read_batches(data, keep_control=True)] == [False, True, False]
    # with the aborted list, the aborted records go; the marker stays only when asked
    aborted = [(7, 0)]
    assert decode_records(data, aborted_transactions=aborted).offsets.tolist() == [3]
    kept = decode_records(data, aborted_transactions=aborted, keep_control=True)
    assert kept.offsets.tolist() == [2, 3]


@pytest.mark.parametrize("seed", range(20))
def test_random_bytes_are_an_error_for_both_readers(seed):
    junk = os.urandom(300 + seed)
    with pytest.raises(DecodeError) as from_view:
        decode_records(junk)
    with pytest.raises(DecodeError) as from_reader:
        list(read_batches(junk))
    assert from_view.value.offset is not None and from_reader.value.offset is not None


def test_magic_byte_is_checked_before_a_batch_is_taken_as_partial():
    head = (0).to_bytes(8, "big") + (1_000_000).to_bytes(4, "big") + b"\0\0\0\0" + b"\x07"
    for read in (decode_records, lambda b: list(read_batches(b))):
        with pytest.raises(kafkawire.UnsupportedError, match="magic") as exc:
            read(head + b"\0" * 50)
        assert exc.value.offset == 16 and exc.value.field == "magic"


def test_partial_trailing_batch_is_not_an_error():
    first = b"".join(build_batches([b"a"], timestamps=[TS]))
    data = first + b"".join(build_batches([b"b"], timestamps=[TS], base_offset=1))
    cut = data[:-10]
    view = decode_records(cut)
    assert len(view) >= 1 and view.leftover_bytes > 0
    reader = read_batches(cut)
    assert len(list(reader)) >= 1 and reader.leftover_bytes == view.leftover_bytes
    with pytest.raises(TruncatedError):  # nothing whole in it: both say so
        decode_records(first[:40])
    with pytest.raises(TruncatedError):
        list(read_batches(first[:40]))
    assert list(read_batches(b"")) == [] and len(decode_records(b"")) == 0


def _metadata_response():
    return m.MetadataResponse(
        brokers=[m.MetadataResponse.MetadataResponseBroker(node_id=1, host="h", port=9092)],
        topics=[],
    )


def test_decode_response_takes_the_size_prefix_when_told():
    msg = _metadata_response()
    framed = kafkawire.encode_response(msg, version=12, correlation_id=5)
    header, back = kafkawire.decode_response(framed, api_key=3, api_version=12, size_prefix=True)
    assert header.correlation_id == 5 and back == msg
    bare = kafkawire.encode_response(msg, version=12, correlation_id=5, size_prefix=False)
    assert framed[4:] == bare
    assert kafkawire.decode_response(bare, api_key=3, api_version=12)[1] == msg
    with pytest.raises(DecodeError, match="size prefix says") as exc:
        kafkawire.decode_response(framed + b"\0", api_key=3, api_version=12, size_prefix=True)
    assert exc.value.field == "size" and exc.value.offset == 0


def test_a_forgotten_size_prefix_is_named_in_the_error():
    framed = kafkawire.encode_response(_metadata_response(), version=12, correlation_id=5)
    with pytest.raises(DecodeError, match="pass size_prefix=True"):
        kafkawire.decode_response(framed, api_key=3, api_version=12)


def test_decode_request_takes_the_size_prefix_when_told():
    req = m.MetadataRequest(topics=None, allow_auto_topic_creation=False)
    framed = kafkawire.encode_request(req, version=12, correlation_id=9, client_id="c")
    header, back = kafkawire.decode_request(framed, size_prefix=True)
    assert header.correlation_id == 9 and back == req
    assert kafkawire.decode_request(framed[4:])[1] == req
    with pytest.raises(DecodeError, match="pass size_prefix=True"):
        kafkawire.decode_request(framed)
    with pytest.raises(TruncatedError):
        kafkawire.decode_request(b"\0\0", size_prefix=True)


@pytest.mark.parametrize("bad", ["yes", None, 2, 1.0, b"\x01", [True]])
def test_bool_fields_are_type_checked(bad):
    req = m.MetadataRequest(topics=None, allow_auto_topic_creation=bad)
    with pytest.raises(EncodeError, match="expected bool") as exc:
        kafkawire.encode_request(req, version=12)
    assert "allow_auto_topic_creation" in str(exc.value)


@pytest.mark.parametrize("good", [True, False, 0, 1])
def test_bool_fields_take_bools_and_0_1(good):
    req = m.MetadataRequest(topics=None, allow_auto_topic_creation=good)
    _, back = kafkawire.decode_request(kafkawire.encode_request(req, version=12), size_prefix=True)
    assert back.allow_auto_topic_creation is bool(good)
