"""Byte vectors computed by hand with struct, headers, defaults, tagged fields, the public API."""

import gc
import struct
import uuid

import pytest

from kafkawire import messages
from kafkawire.errors import EncodeError, UnsupportedError
from kafkawire.protocol import (
    ApiKey,
    decode,
    decode_request,
    decode_response,
    encode,
    encode_request,
    encode_response,
)
from kafkawire.protocol import _generated_messages as g


def kstr(s: str) -> bytes:  # int16 length + UTF-8
    raw = s.encode()
    return struct.pack(">h", len(raw)) + raw


def cstr(s: str) -> bytes:  # compact: unsigned varint (length + 1); all lengths here are < 127
    raw = s.encode()
    return bytes([len(raw) + 1]) + raw


def frame(body: bytes) -> bytes:
    return struct.pack(">i", len(body)) + body


def test_api_versions_request_v3_bytes():
    msg = messages.ApiVersionsRequest(client_software_name="kw", client_software_version="1.0")
    got = encode_request(msg, version=3, correlation_id=9, client_id="cli")
    # header v2: key, version, correlation id, client id (NOT compact), no tagged fields
    header = struct.pack(">hhi", 18, 3, 9) + kstr("cli") + b"\x00"
    body = cstr("kw") + cstr("1.0") + b"\x00"
    assert got == frame(header + body)
    hdr, back = decode_request(got[4:])
    assert back == msg
    assert (hdr.request_api_key, hdr.request_api_version, hdr.correlation_id) == (18, 3, 9)
    assert hdr.client_id == "cli"


def test_metadata_request_v0_bytes():
    msg = messages.MetadataRequest(
        topics=[messages.MetadataRequest.MetadataRequestTopic(name=n) for n in ("a", "bc")]
    )
    got = encode_request(msg, version=0, correlation_id=7, client_id=None)
    header = struct.pack(">hhih", 3, 0, 7, -1)  # header v1, null client id
    body = struct.pack(">i", 2) + kstr("a") + kstr("bc")
    assert got == frame(header + body)
    assert decode_request(got[4:])[1] == msg


def test_metadata_response_v12_bytes():
    topic_id = uuid.UUID("0123456789abcdef0123456789abcdef")
    R = messages.MetadataResponse
    msg = R(
        throttle_time_ms=5,
        brokers=[R.MetadataResponseBroker(node_id=1, host="h", port=9092, rack=None)],
        cluster_id="c",
        controller_id=1,
        topics=[
            R.MetadataResponseTopic(
                name="t",
                topic_id=topic_id,
                partitions=[
                    R.MetadataResponsePartition(
                        partition_index=0, leader_id=1, leader_epoch=3, replica_nodes=[1, 2]
                    )
                ],
            )
        ],
    )
    got = encode_response(msg, version=12, correlation_id=11, size_prefix=False)
    header = struct.pack(">i", 11) + b"\x00"  # response header v1
    broker = struct.pack(">i", 1) + cstr("h") + struct.pack(">i", 9092) + b"\x00" + b"\x00"
    partition = (
        struct.pack(">hiii", 0, 0, 1, 3)
        + b"\x03"
        + struct.pack(">ii", 1, 2)  # replicas
        + b"\x01"
        + b"\x01"  # isr, offline replicas: empty compact arrays
        + b"\x00"
    )
    topic = (
        struct.pack(">h", 0)
        + cstr("t")
        + topic_id.bytes
        + b"\x00"  # is_internal
        + b"\x02"
        + partition
        + struct.pack(">i", -(2**31))
        + b"\x00"
    )
    body = (
        struct.pack(">i", 5)
        + b"\x02"
        + broker
        + cstr("c")
        + struct.pack(">i", 1)
        + b"\x02"
        + topic
        + b"\x00"
    )
    assert got == header + body
    hdr, back = decode_response(got, api_key=3, api_version=12)
    assert hdr.correlation_id == 11
    assert back == msg


def test_controlled_shutdown_v0_uses_request_header_v0():
    msg = messages.ControlledShutdownRequest(broker_id=3)
    got = encode_request(msg, version=0, correlation_id=1, client_id="ignored")
    assert got == frame(struct.pack(">hhii", 7, 0, 1, 3))
    hdr, back = decode_request(got[4:])
    assert hdr.client_id == ""  # the schema default: v0 has no client id
    assert back.broker_id == 3
    # v1 has a client id again
    assert encode_request(msg, version=1, correlation_id=1, client_id="x")[12:15] == kstr("x")


def test_api_versions_response_always_uses_response_header_v0():
    msg = messages.ApiVersionsResponse(throttle_time_ms=1)
    got = encode_response(msg, version=3, correlation_id=5, size_prefix=False)
    # no tagged-field byte after the correlation id, although v3 is flexible
    assert got[:4] == struct.pack(">i", 5)
    assert got[4:] == struct.pack(">h", 0) + b"\x01" + struct.pack(">i", 1) + b"\x00"
    assert decode_response(got, api_key=18, api_version=3)[1] == msg


def test_flexible_response_uses_header_v1():
    got = encode_response(messages.MetadataResponse(), version=9, correlation_id=5)
    assert got[4:9] == struct.pack(">i", 5) + b"\x00"
    got = encode_response(messages.MetadataResponse(), version=8, correlation_id=5)
    assert got[4:8] == struct.pack(">i", 5)


def test_defaults_and_names():
    msg = messages.MetadataRequest()
    assert msg.allow_auto_topic_creation is True
    assert msg.topics == []
    assert messages.MetadataResponse().cluster_authorized_operations == -(2**31)
    assert messages.MetadataResponse.MetadataResponseTopic().topic_id == uuid.UUID(int=0)
    # hex default
    assert any(f.default == 0x7FFFFFFF for f in g.FetchRequest._kw_fields)
    assert messages.RequestHeader().client_id == ""
    # each instance gets its own list
    a, b = messages.MetadataRequest(), messages.MetadataRequest()
    a.topics.append(1)
    assert b.topics == []
    assert "request_api_key" in messages.RequestHeader.__slots__


def test_class_attributes():
    cls = messages.MetadataRequest
    assert cls.api_key == 3 == ApiKey.METADATA
    assert cls.valid_versions == range(13)
    assert 9 in cls.flexible_versions and 8 not in cls.flexible_versions
    assert cls.latest_version == 12
    assert cls.message_type == "request"
    assert messages.FetchResponse.api_key == ApiKey.FETCH == 1
    assert ApiKey(18).name == "API_VERSIONS"
    assert len(g.REQUESTS) == len(g.RESPONSES) == 88
    assert sorted(g.REQUESTS) == [int(k) for k in ApiKey]
    for key, cls in g.REQUESTS.items():
        assert cls.api_key == key == g.RESPONSES[key].api_key
        assert cls.latest_version is None or cls.latest_version in cls.valid_versions
    # a schema whose only version is unstable has no latest stable one
    assert messages.ReadShareGroupStateRequest.latest_version is None
    assert messages.ShareGroupHeartbeatRequest.latest_version == 1  # v1 is stable (Kafka 4.1)


def test_equality_and_repr():
    t = messages.MetadataRequest.MetadataRequestTopic
    a = messages.MetadataRequest(topics=[t(name="x")])
    assert a == messages.MetadataRequest(topics=[t(name="x")])
    assert a != messages.MetadataRequest(topics=[t(name="y")])
    assert a != "MetadataRequest"
    assert repr(a).startswith("MetadataRequest(topics=[MetadataRequest.MetadataRequestTopic(")
    assert "name='x'" in repr(a)


def test_absent_field_with_non_default_value_raises():
    msg = messages.MetadataRequest(allow_auto_topic_creation=False)  # v4+, not ignorable
    with pytest.raises(EncodeError, match=r"MetadataRequest\.allow_auto_topic_creation"):
        encode_request(msg, version=3)
    dropped = encode_request(msg, version=3, drop_unsupported=True)
    assert decode_request(dropped[4:])[1].allow_auto_topic_creation is True
    assert decode_request(encode_request(msg, version=4)[4:])[1] == msg


def test_absent_ignorable_field_is_dropped():
    msg = messages.MetadataResponse(throttle_time_ms=100)  # 3+, ignorable
    back = decode_response(
        encode_response(msg, version=2, correlation_id=0)[4:], api_key=3, api_version=2
    )[1]
    assert back.throttle_time_ms == 0


def test_encode_errors_name_the_field():
    t = messages.MetadataRequest.MetadataRequestTopic
    with pytest.raises(EncodeError, match=r"MetadataRequest\.topics\[1\]\.name"):
        encode_request(messages.MetadataRequest(topics=[t(name="a"), t(name=None)]), version=1)
    with pytest.raises(EncodeError, match="out of range"):
        encode(messages.ControlledShutdownRequest(broker_id=2**31), version=1)
    with pytest.raises(EncodeError, match=r"UTF-8 \(field SaslHandshakeRequest\.mechanism\)"):
        encode(messages.SaslHandshakeRequest(mechanism="\ud800"), version=1)
    with pytest.raises(EncodeError, match="expected str"):
        encode(messages.SaslHandshakeRequest(mechanism=b"x"), version=1)
    with pytest.raises(EncodeError, match=r"expected MetadataRequest\.MetadataRequestTopic"):
        encode(messages.MetadataRequest(topics=["a"]), version=1)
    with pytest.raises(UnsupportedError):
        encode(messages.MetadataRequest(), version=99)
    with pytest.raises(TypeError):
        encode_request(messages.MetadataResponse(), version=1)


def _api_versions_response_v3() -> bytes:
    msg = messages.ApiVersionsResponse(finalized_features_epoch=7)  # tagged field 1
    return encode_response(msg, version=3, correlation_id=1, size_prefix=False)


def test_known_tagged_fields_written_only_when_not_default():
    plain = encode_response(messages.ApiVersionsResponse(), version=3, correlation_id=1)
    assert plain.endswith(b"\x00")  # no tagged fields
    got = _api_versions_response_v3()
    # count 1, tag 1, size 8, int64 7
    assert got.endswith(b"\x01\x01\x08" + struct.pack(">q", 7))


def test_unknown_tagged_fields_preserved_byte_identically():
    known = _api_versions_response_v3()
    assert known[-11:-10] == b"\x01"
    # unknown tags 5 and 0x40 after the known tag 1
    tail = b"\x03" + b"\x01\x08" + struct.pack(">q", 7) + b"\x05\x02ab" + b"\x40\x00"
    data = known[:-11] + tail
    _, msg = decode_response(data, api_key=18, api_version=3)
    assert msg.finalized_features_epoch == 7
    assert msg._unknown_tagged_fields == [(5, b"ab"), (0x40, b"")]
    assert encode_response(msg, version=3, correlation_id=1, size_prefix=False) == data
    # whatever order they are given in, tags are written in ascending order
    msg._unknown_tagged_fields = [(0x40, b""), (0x10, b"z")]
    again = encode_response(msg, version=3, correlation_id=1, size_prefix=False)
    assert again.endswith(b"\x03\x01\x08" + struct.pack(">q", 7) + b"\x10\x01z\x40\x00")


def test_unknown_tagged_fields_in_nested_structs_and_headers():
    msg = messages.ApiVersionsRequest(client_software_name="a", client_software_version="b")
    data = encode_request(msg, version=3, correlation_id=1, client_id="c", size_prefix=False)
    # header tagged section is the byte after the client id; the body's is the last byte
    head_end = 2 + 2 + 4 + 3
    patched = data[:head_end] + b"\x01\x09\x01z" + data[head_end + 1 : -1] + b"\x01\x02\x00"
    hdr, back = decode_request(patched)
    assert hdr._unknown_tagged_fields == [(9, b"z")]
    assert back._unknown_tagged_fields == [(2, b"")]
    assert encode(hdr, version=2) + encode(back, version=3) == patched


def test_records_decode_zero_copy_and_encode_from_bytes_like():
    P = messages.ProduceRequest
    blob = bytes(range(40))
    partition = P.PartitionProduceData(index=0, records=bytearray(blob))
    msg = P(topic_data=[P.TopicProduceData(name="t", partition_data=[partition])])
    frame_bytes = encode_request(msg, version=9)
    body = memoryview(frame_bytes)[4:]
    _, back = decode_request(body)
    records = back.topic_data[0].partition_data[0].records
    assert isinstance(records, memoryview)
    assert records.obj is frame_bytes  # a view into the frame: no copy
    assert records == blob
    assert encode_request(back, version=9) == frame_bytes


@pytest.mark.parametrize("version", range(3, 12))
@pytest.mark.parametrize("size_prefix", [True, False])
def test_a_request_in_parts_references_large_records_bytes_and_joins_to_the_frame(
    version, size_prefix
):
    """parts=True: the frame as pieces whose concatenation is the frame (the size prefix
    counting every piece); records bytes of 16 KiB or more are the pieces themselves, not
    copies; smaller ones and mutable buffers are copied in."""
    P = messages.ProduceRequest
    large, edge = bytes(range(256)) * 200, b"e" * 16384
    small, mutable = b"s" * 16383, bytearray(b"m" * 40000)
    partitions = [
        P.PartitionProduceData(index=i, records=r)
        for i, r in enumerate([large, small, mutable, edge, None, large])
    ]
    msg = P(
        acks=-1, timeout_ms=5, topic_data=[P.TopicProduceData(name="t", partition_data=partitions)]
    )
    kwargs = dict(version=version, correlation_id=7, client_id="c", size_prefix=size_prefix)
    whole = encode_request(msg, **kwargs)
    parts = encode_request(msg, **kwargs, parts=True)
    assert isinstance(parts, list) and all(type(p) is bytes and p for p in parts)
    assert b"".join(parts) == whole
    referenced = [p for p in parts if p is large or p is edge or p is small]
    assert [id(p) for p in referenced] == [id(large), id(edge), id(large)]
    if size_prefix:
        assert int.from_bytes(parts[0][:4], "big") == sum(map(len, parts)) - 4
    header, back = decode_request(b"".join(parts), size_prefix=size_prefix)
    assert header.correlation_id == 7
    assert [
        bytes(p.records) if p.records is not None else None
        for p in back.topic_data[0].partition_data
    ] == [large, small, bytes(mutable), edge, None, large]
    # a frame that is all records but for its head: no empty piece after the last
    msg = P(topic_data=[P.TopicProduceData(name="t", partition_data=[partitions[0]])])
    tail = encode_request(msg, version=version, parts=True)
    assert b"".join(tail) == encode_request(msg, version=version) and all(tail)


def test_records_views_of_a_fetch_response_behave_as_slices_and_keep_the_input_alive():
    # kafkawire builds these views without a subscript (one per partition is hot): each must
    # behave exactly as a slice of the input would, and outlive the response and the input.
    F = messages.FetchResponse
    blobs = [bytes([0x80 + i]) * i for i in range(6)]  # the first one empty
    partitions = [F.PartitionData(partition_index=i, records=b) for i, b in enumerate(blobs)]
    msg = F(responses=[F.FetchableTopicResponse(topic="t", partitions=partitions)])
    data = encode(msg, version=12)
    views = [p.records for p in decode(F, data, version=12).responses[0].partitions]
    for view, blob in zip(views, blobs, strict=True):
        assert isinstance(view, memoryview)
        assert view.obj is data
        assert (view.readonly, view.format, view.ndim, view.itemsize) == (True, "B", 1, 1)
        assert (view.shape, view.strides, view.nbytes) == ((len(blob),), (1,), len(blob))
        assert view.c_contiguous and view.contiguous
        assert view == blob and view.tobytes() == blob and view[1:] == blob[1:]
        assert hash(view) == hash(blob)
        if blob:
            start = data.index(blob)
            assert view == memoryview(data)[start : start + len(blob)]
    del data
    gc.collect()
    assert [bytes(v) for v in views] == blobs


def test_data_schemas():
    sub = messages.ConsumerProtocolSubscription(topics=["a", "b"], user_data=b"u")
    for version in sub.valid_versions:
        assert decode(type(sub), encode(sub, version=version), version=version).topics == ["a", "b"]
    voters = [messages.LeaderChangeMessage.Voter(voter_id=1)]
    lc = messages.LeaderChangeMessage(leader_id=2, voters=voters)
    assert decode(type(lc), encode(lc, version=0), version=0) == lc
