"""Bad input: every failure is a kafkawire DecodeError naming the message, field path and offset."""

import contextlib
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafkawire import messages
from kafkawire.errors import CorruptError, DecodeError, TruncatedError, UnsupportedError
from kafkawire.protocol import decode, decode_request, decode_response, encode_request

# MetadataRequest v1 header: key 3, version 1, correlation id 1, null client id
HEADER_V1 = struct.pack(">hhih", 3, 1, 1, -1)


def metadata_request(*names: str, version: int = 1) -> bytes:
    topics = [messages.MetadataRequest.MetadataRequestTopic(name=n) for n in names]
    return encode_request(messages.MetadataRequest(topics=topics), version=version)[4:]


def sample_frames():
    R = messages.MetadataResponse
    response = R(
        brokers=[R.MetadataResponseBroker(node_id=1, host="h", port=1)],
        topics=[R.MetadataResponseTopic(name="t", partitions=[R.MetadataResponsePartition()])],
    )
    for version in (0, 9, 12):
        yield "response", 3, version, encode_rsp(response, version)
    yield "request", 3, 12, metadata_request("a", "bb", version=12)
    yield "request", 3, 1, metadata_request("a", "bb")


def encode_rsp(msg, version):
    from kafkawire.protocol import encode_response

    return encode_response(msg, version=version, correlation_id=3, size_prefix=False)


def decode_any(kind, key, version, data):
    if kind == "request":
        return decode_request(data)
    return decode_response(data, api_key=key, api_version=version)


@pytest.mark.parametrize("sample", list(sample_frames()), ids=lambda s: f"{s[0]}-v{s[2]}")
def test_every_truncation_raises_truncated_error(sample):
    kind, key, version, data = sample
    decode_any(kind, key, version, data)
    for end in range(len(data)):
        with pytest.raises(TruncatedError) as info:
            decode_any(kind, key, version, data[:end])
        assert info.value.offset is not None and info.value.offset <= end
        assert info.value.field


def test_string_length_past_the_end():
    data = HEADER_V1 + struct.pack(">ih", 1, 100) + b"abc"
    with pytest.raises(TruncatedError) as info:
        decode_request(data)
    assert info.value.field == "MetadataRequest.topics[0].name"
    assert info.value.offset == len(HEADER_V1) + 6
    assert "byte 16" in str(info.value)


@pytest.mark.parametrize("count", [-2, -5, -(2**31)])
def test_negative_array_count(count):
    with pytest.raises(CorruptError, match="negative length") as info:
        decode_request(HEADER_V1 + struct.pack(">i", count))
    assert info.value.field == "MetadataRequest.topics"


def test_negative_string_length():
    with pytest.raises(CorruptError) as info:
        decode_request(HEADER_V1 + struct.pack(">ih", 1, -3))
    assert info.value.field == "MetadataRequest.topics[0].name"


def test_null_in_a_non_nullable_field():
    header_v0 = struct.pack(">hhih", 3, 0, 1, -1)
    with pytest.raises(CorruptError, match="non-nullable") as info:
        decode_request(header_v0 + struct.pack(">i", -1))  # topics: nullable from v1 only
    assert info.value.field == "MetadataRequest.topics"


def test_array_count_checked_before_allocating():
    # each topic takes at least 2 bytes: the count alone is refused, before any allocation
    with pytest.raises(TruncatedError, match="needs") as info:
        decode_request(HEADER_V1 + struct.pack(">i", 2**31 - 1) + b"\x00\x01a")
    assert info.value.field == "MetadataRequest.topics"
    # compact arrays too: uvarint 2**28 - 1 elements of at least 3 bytes each
    header_v2 = struct.pack(">hhih", 3, 12, 1, -1) + b"\x00"
    with pytest.raises(TruncatedError):
        decode_request(header_v2 + b"\xff\xff\xff\x7f" + b"\x00" * 10)


def test_unknown_api_key_and_version():
    with pytest.raises(UnsupportedError, match="unknown API key 999") as info:
        decode_request(struct.pack(">hhih", 999, 0, 1, -1))
    assert info.value.field == "RequestHeader.request_api_key"
    with pytest.raises(UnsupportedError, match="no version 99") as info:
        decode_request(struct.pack(">hhih", 3, 99, 1, -1))
    assert info.value.field == "RequestHeader.request_api_version"
    assert info.value.offset == 2
    with pytest.raises(UnsupportedError):
        decode_response(b"\x00" * 8, api_key=1000, api_version=0)
    with pytest.raises(UnsupportedError):
        decode_response(b"\x00" * 8, api_key=3, api_version=-1)


def test_invalid_utf8():
    data = HEADER_V1 + struct.pack(">ih", 1, 2) + b"\xc3\x28"
    with pytest.raises(CorruptError, match="UTF-8") as info:
        decode_request(data)
    assert info.value.field == "MetadataRequest.topics[0].name"


def test_trailing_bytes():
    data = metadata_request("a") + b"xyz"
    with pytest.raises(CorruptError, match="3 bytes left over") as info:
        decode_request(data)
    assert info.value.field == "MetadataRequest"
    assert info.value.offset == len(data) - 3


def test_header_truncated():
    with pytest.raises(TruncatedError):
        decode_request(b"\x00\x03")
    with pytest.raises(TruncatedError) as info:
        decode_request(struct.pack(">hhi", 3, 1, 1) + b"\x00")
    assert info.value.field == "RequestHeader.client_id"


def test_tagged_field_errors():
    # ApiVersionsRequest v3: header v2, two compact strings, then the tagged fields
    base = struct.pack(">hhih", 18, 3, 1, -1) + b"\x00" + b"\x01\x01"
    with pytest.raises(TruncatedError):
        decode_request(base + b"\x01\x05\x09ab")  # size 9, 2 bytes there
    # ApiVersionsResponse v3 tagged field 1 (int64) declared 9 bytes long
    body = struct.pack(">h", 0) + b"\x01" + struct.pack(">i", 0)
    data = struct.pack(">i", 1) + body + b"\x01\x01\x09" + b"\x00" * 9
    with pytest.raises(CorruptError, match="left over") as info:
        decode_response(data, api_key=18, api_version=3)
    assert info.value.field == "ApiVersionsResponse.finalized_features_epoch"


def test_varint_too_long():
    base = struct.pack(">hhih", 18, 3, 1, -1) + b"\x00"
    with pytest.raises(CorruptError, match="varint"):
        decode_request(base + b"\xff\xff\xff\xff\x7f")


def test_errors_inside_nested_arrays_name_the_path():
    R = messages.MetadataResponse
    # partitions longer than their minimum, so that the count check passes and the last fails
    partitions = [R.MetadataResponsePartition(replica_nodes=[1, 2])] * 3
    data = encode_rsp(R(topics=[R.MetadataResponseTopic(name="x", partitions=partitions)]), 1)
    with pytest.raises(TruncatedError) as info:
        decode_response(data[:-3], api_key=3, api_version=1)
    assert info.value.field == "MetadataResponse.topics[0].partitions[2].isr_nodes"


def test_data_schema_errors():
    with pytest.raises(TruncatedError) as info:
        decode(messages.ConsumerProtocolSubscription, b"\x00\x00\x00\x01\x00\x05ab", version=0)
    assert info.value.field == "ConsumerProtocolSubscription.topics[0]"


def test_buffers_of_any_kind():
    data = metadata_request("a")
    for buf in (bytearray(data), memoryview(data)):
        assert decode_request(buf)[1].topics[0].name == "a"


@settings(max_examples=300, deadline=None, database=None)
@given(st.binary(max_size=64), st.sampled_from([0, 1, 3, 18, 60]))
def test_garbage_raises_only_decode_errors(tail, key):
    data = struct.pack(">hh", key, 1) + tail
    with contextlib.suppress(DecodeError):
        decode_request(data)
    with contextlib.suppress(DecodeError):
        decode_response(tail, api_key=key, api_version=1)


MUTATION_SAMPLES = list(sample_frames())


@settings(max_examples=400, deadline=None, database=None)
@given(
    st.sampled_from(MUTATION_SAMPLES),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=4),
)
def test_mutated_frames_raise_only_decode_errors(sample, edits):
    kind, key, version, data = sample
    mutated = bytearray(data)
    for pos, value in edits:
        mutated[pos % len(mutated)] = value
    with contextlib.suppress(DecodeError):
        decode_any(kind, key, version, bytes(mutated))
