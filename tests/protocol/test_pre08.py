"""Kafka 0.7's wire format (kafkawire.protocol.pre08).

The byte vectors are written here with ``struct`` from the layout of 0.7's protocol page
(request header: size, int16 type, int16 topic length, topic, int32 partition; messages:
size, magic, [compression], CRC-32 of the payload, payload), not with the module.
"""

from __future__ import annotations

import gzip
import struct
import tracemalloc
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafkawire.errors import (
    CorruptError,
    CrcError,
    DecodeError,
    DecompressionError,
    EncodeError,
    LimitExceededError,
    TruncatedError,
    UnsupportedError,
)
from kafkawire.protocol import pre08
from kafkawire.protocol.pre08 import (
    Connection,
    FetchRequest,
    FetchResponse,
    Message,
    MultiFetchRequest,
    MultiFetchResponse,
    MultiProduceRequest,
    OffsetsRequest,
    OffsetsResponse,
    ProduceRequest,
    RequestType,
)

kafka_codec = pytest.importorskip("kafka.codec")  # kafka-python's xerial snappy, a second opinion

# --- the seed's layout, by hand --------------------------------------------------------------


def msg0(payload: bytes) -> bytes:
    """MAGIC 0: no compression attribute."""
    return struct.pack(">ibI", 1 + 4 + len(payload), 0, zlib.crc32(payload)) + payload


def msg1(payload: bytes, compression: int = 0) -> bytes:
    """MAGIC 1: a COMPRESSION byte (0 none, 1 gzip, 2 snappy) before the CHECKSUM."""
    return struct.pack(">ibbI", 1 + 1 + 4 + len(payload), 1, compression, zlib.crc32(payload)) + (
        payload
    )


def topic(name: str) -> bytes:
    return struct.pack(">h", len(name.encode())) + name.encode()


def frame(body: bytes) -> bytes:
    """REQUEST_LENGTH / RESPONSE_LENGTH: the bytes that follow it."""
    return struct.pack(">i", len(body)) + body


def produce_body(name: str, partition: int, messages: bytes) -> bytes:
    return topic(name) + struct.pack(">ii", partition, len(messages)) + messages


def fetch_body(name: str, partition: int, offset: int, max_size: int) -> bytes:
    return topic(name) + struct.pack(">iqi", partition, offset, max_size)


def xerial(data: bytes) -> bytes:
    """snappy-java's stream (what 0.7's SnappyOutputStream wrote), one block."""
    import cramjam

    block = bytes(cramjam.snappy.compress_raw(data))
    return b"\x82SNAPPY\x00" + struct.pack(">iii", 1, 1, len(block)) + block


MESSAGES = msg1(b"hello") + msg0(b"old style") + msg1(b"")
GZIPPED = msg1(gzip.compress(msg1(b"a") + msg1(b"bb")), 1)
SNAPPED = msg1(xerial(msg1(b"c") + msg0(b"dd")), 2)

# (frame without size prefix, decoded request)
REQUESTS = {
    "produce": (
        struct.pack(">h", 0) + produce_body("events", 3, MESSAGES),
        ProduceRequest(
            "events", 3, [Message(b"hello"), Message(b"old style", magic=0), Message(b"")]
        ),
    ),
    "produce-compressed": (
        struct.pack(">h", 0) + produce_body("t", 0, GZIPPED + SNAPPED),
        ProduceRequest(
            "t",
            0,
            [
                Message(gzip.compress(msg1(b"a") + msg1(b"bb")), 1, 1),
                Message(xerial(msg1(b"c") + msg0(b"dd")), 1, 2),
            ],
        ),
    ),
    "fetch": (
        struct.pack(">h", 1) + fetch_body("events", 3, 1234567890123, 1 << 20),
        FetchRequest("events", 3, 1234567890123, 1 << 20),
    ),
    "multifetch": (
        struct.pack(">hh", 2, 2) + fetch_body("a", 0, 0, 100) + fetch_body("bé", 7, 42, 300),
        MultiFetchRequest([FetchRequest("a", 0, 0, 100), FetchRequest("bé", 7, 42, 300)]),
    ),
    "multiproduce": (
        struct.pack(">hh", 3, 2) + produce_body("a", 0, msg1(b"x")) + produce_body("b", 1, b""),
        MultiProduceRequest([ProduceRequest("a", 0, [Message(b"x")]), ProduceRequest("b", 1, [])]),
    ),
    "offsets-latest": (
        struct.pack(">h", 4) + topic("events") + struct.pack(">iqi", 3, -1, 1),
        OffsetsRequest("events", 3, -1, 1),
    ),
    "offsets-earliest": (
        struct.pack(">h", 4) + topic("events") + struct.pack(">iqi", 0, -2, 10),
        OffsetsRequest("events", 0, pre08.EARLIEST_TIME, 10),
    ),
}

# (frame without size prefix, request it answers, decoded response)
RESPONSES = {
    "fetch": (
        struct.pack(">h", 0) + MESSAGES,
        FetchRequest("events"),
        FetchResponse(0, [Message(b"hello"), Message(b"old style", magic=0), Message(b"")]),
    ),
    "fetch-cut-off": (
        # the broker sends max_size bytes of the log: the last message is cut off
        struct.pack(">h", 0) + msg1(b"hello") + msg1(b"cut off here")[:9],
        FetchRequest("events"),
        FetchResponse(0, [Message(b"hello")], msg1(b"cut off here")[:9]),
    ),
    "fetch-error": (
        struct.pack(">h", 1),
        FetchRequest("events"),
        FetchResponse(1, []),
    ),
    "multifetch": (
        struct.pack(">h", 0)
        + frame(struct.pack(">h", 0) + msg1(b"x") + GZIPPED)
        + frame(struct.pack(">h", 1)),
        MultiFetchRequest([FetchRequest("a"), FetchRequest("b")]),
        MultiFetchResponse(
            0,
            [
                FetchResponse(
                    0, [Message(b"x"), Message(gzip.compress(msg1(b"a") + msg1(b"bb")), 1, 1)]
                ),
                FetchResponse(1, []),
            ],
        ),
    ),
    "offsets": (
        struct.pack(">hi3q", 0, 3, 2**40, 512, 0),
        OffsetsRequest("events"),
        OffsetsResponse(0, [2**40, 512, 0]),
    ),
}


@pytest.mark.parametrize("name", REQUESTS)
def test_request_vectors(name):
    data, expected = REQUESTS[name]
    assert pre08.decode_request(data) == expected
    assert pre08.encode_request(expected) == frame(data)
    assert pre08.encode_request(expected, size_prefix=False) == data
    assert pre08.decode_request(memoryview(bytearray(data))) == expected


@pytest.mark.parametrize("name", RESPONSES)
def test_response_vectors(name):
    data, request, expected = RESPONSES[name]
    assert pre08.decode_response(data, request) == expected
    assert pre08.decode_response(data, request.request_type) == expected
    assert pre08.encode_response(expected) == frame(data)


def test_request_types_are_the_seeds():
    assert {t.name: t.value for t in RequestType} == {
        "PRODUCE": 0,
        "FETCH": 1,
        "MULTIFETCH": 2,
        "MULTIPRODUCE": 3,
        "OFFSETS": 4,
    }


def test_message_encoding_matches_the_layout():
    assert pre08.encode_message_set([Message(b"hello")]) == msg1(b"hello")
    assert pre08.encode_message_set([Message(b"hello", magic=0)]) == msg0(b"hello")
    # every bit of the attributes byte is kept; the codec is the low two
    odd = Message(b"p", magic=1, attributes=0xF0)
    assert odd.compression == pre08.Codec.NONE
    assert pre08.decode_message_set(pre08.encode_message_set([odd])) == [odd]
    assert Message(b"hello").crc == zlib.crc32(b"hello")
    assert Message(b"hello").size == len(msg1(b"hello"))


def test_deep_iteration_with_offsets():
    log = MESSAGES + GZIPPED + SNAPPED + msg1(b"last")
    entries = list(pre08.read_message_set(log, base_offset=1000))
    payloads = [(e.message.payload, e.depth) for e in entries]
    assert payloads == [
        (b"hello", 0),
        (b"old style", 0),
        (b"", 0),
        (b"a", 1),
        (b"bb", 1),
        (b"c", 1),
        (b"dd", 1),
        (b"last", 0),
    ]
    # offsets are byte positions in the log; inner messages carry their wrapper's
    starts = [1000, 1000 + len(msg1(b"hello")), 1000 + len(msg1(b"hello") + msg0(b"old style"))]
    assert [e.offset for e in entries[:3]] == starts
    wrapper = 1000 + len(MESSAGES)
    assert {(e.offset, e.next_offset) for e in entries[3:5]} == {(wrapper, wrapper + len(GZIPPED))}
    assert entries[-1].next_offset == 1000 + len(log)
    assert entries[-1].crc == zlib.crc32(b"last")
    shallow = list(pre08.read_message_set(log, deep=False))
    assert [e.message.compression for e in shallow[3:5]] == [pre08.Codec.GZIP, pre08.Codec.SNAPPY]
    assert shallow[3].message.messages() == [Message(b"a"), Message(b"bb")]


def test_partial_message_at_the_end():
    cut = msg1(b"abcdef")
    for keep in range(1, len(cut)):
        reader = pre08.read_message_set(MESSAGES + cut[:keep])
        assert len(list(reader)) == 3
        assert reader.leftover_bytes == keep
        assert reader.position == len(MESSAGES)
        with pytest.raises(TruncatedError) as info:
            list(pre08.read_message_set(MESSAGES + cut[:keep], allow_partial=False))
        assert info.value.offset == len(MESSAGES)
        assert info.value.field in ("message.size", "message.payload")


def test_compressed_messages_are_what_07_wrote():
    inner = [Message(b"k" * 100), Message(b"v", magic=0)]
    for codec, name in ((1, "gzip"), (2, "snappy")):
        wrapped = Message.compressed(inner, name)
        assert (wrapped.magic, wrapped.attributes) == (1, codec)
        raw = (
            gzip.decompress(wrapped.payload)
            if codec == 1
            else kafka_codec.snappy_decode(wrapped.payload)
        )
        assert raw == msg1(b"k" * 100) + msg0(b"v")
        assert wrapped.messages() == inner
    # kafka-python's xerial stream (several blocks) decodes too
    blocks = kafka_codec.snappy_encode(msg1(b"z" * 50_000) * 3, xerial_blocksize=32768)
    entries = list(pre08.read_message_set(msg1(blocks, 2)))
    assert [e.message.payload for e in entries] == [b"z" * 50_000] * 3
    with pytest.raises(EncodeError):
        Message.compressed(inner, "lz4")
    with pytest.raises(EncodeError):
        Message.compressed(inner, 0)


def test_nested_compression():
    twice = msg1(gzip.compress(msg1(xerial(msg1(b"deep")), 2) + msg1(b"mid")), 1)
    entries = list(pre08.read_message_set(twice))
    assert [(e.message.payload, e.depth) for e in entries] == [(b"deep", 2), (b"mid", 1)]
    bomb = msg1(b"innermost")
    for _ in range(pre08.MAX_NESTING + 1):
        bomb = msg1(gzip.compress(bomb), 1)
    with pytest.raises(CorruptError, match="nested") as info:
        list(pre08.read_message_set(msg1(b"first") + bomb))
    assert info.value.offset == len(msg1(b"first"))


# --- round trips -----------------------------------------------------------------------------

int16s = st.integers(-(2**15), 2**15 - 1)
int32s = st.integers(-(2**31), 2**31 - 1)
int64s = st.integers(-(2**63), 2**63 - 1)
topics = st.text(max_size=8)
plain = st.builds(
    Message,
    payload=st.binary(max_size=20),
    magic=st.sampled_from([0, 1]),
).map(lambda m: m if m.magic == 1 else Message(m.payload, 0, 0))
# attributes with any bits: shallow decoding keeps them as they are
odd = st.builds(
    Message, payload=st.binary(max_size=20), magic=st.just(1), attributes=st.integers(0, 255)
)
wrapped = st.builds(
    Message.compressed, st.lists(plain, max_size=4), st.sampled_from(["gzip", "snappy"])
)
messages = st.lists(plain | odd | wrapped, max_size=5)
produces = st.builds(ProduceRequest, topics, int32s, messages)
fetches = st.builds(FetchRequest, topics, int32s, int64s, int32s)
requests = st.one_of(
    produces,
    fetches,
    st.builds(MultiFetchRequest, st.lists(fetches, max_size=4)),
    st.builds(MultiProduceRequest, st.lists(produces, max_size=3)),
    st.builds(OffsetsRequest, topics, int32s, int64s, int32s),
)
# a fetch response may end in a message cut off anywhere after its first byte
cut_off = st.tuples(plain | wrapped, st.integers(1, 1000)).map(
    lambda mk: pre08.encode_message_set([mk[0]])[: min(mk[1], mk[0].size - 1)]
)
fetch_responses = st.builds(FetchResponse, int16s, messages, st.just(b"") | cut_off)
responses = st.one_of(
    fetch_responses,
    st.builds(MultiFetchResponse, int16s, st.lists(fetch_responses, max_size=3)),
    st.builds(OffsetsResponse, int16s, st.lists(int64s, max_size=5)),
)
ANSWERS = {FetchResponse: FetchRequest(), MultiFetchResponse: RequestType.MULTIFETCH}


@settings(max_examples=150, deadline=None)
@given(requests)
def test_requests_round_trip(req):
    data = pre08.encode_request(req)
    assert struct.unpack_from(">ih", data) == (len(data) - 4, req.request_type)
    back = pre08.decode_request(data[4:])
    assert back == req
    assert pre08.encode_request(back) == data


@settings(max_examples=150, deadline=None)
@given(responses)
def test_responses_round_trip(resp):
    request = ANSWERS.get(type(resp), RequestType.OFFSETS)
    data = pre08.encode_response(resp)
    back = pre08.decode_response(data[4:], request)
    assert back == resp
    assert pre08.encode_response(back) == data


@settings(max_examples=50, deadline=None)
@given(st.lists(plain, max_size=6), st.sampled_from(["gzip", "snappy"]))
def test_deep_reading_gives_back_the_compressed_messages(inner, codec):
    log = pre08.encode_message_set([Message(b"before"), Message.compressed(inner, codec)])
    got = [e.message for e in pre08.read_message_set(log)]
    assert got == [Message(b"before"), *inner]


@settings(max_examples=60, deadline=None)
@given(st.lists(requests, min_size=1, max_size=6), st.data())
def test_connection_in_any_chunking(reqs, data):
    """A whole conversation through Connection: responses pair with requests in order."""
    answers = []
    for req in reqs:
        if req.request_type == RequestType.FETCH:
            answers.append(data.draw(fetch_responses))
        elif req.request_type == RequestType.MULTIFETCH:
            parts = [data.draw(fetch_responses) for _ in req.fetches]
            answers.append(MultiFetchResponse(data.draw(int16s), parts))
        elif req.request_type == RequestType.OFFSETS:
            answers.append(OffsetsResponse(0, data.draw(st.lists(int64s, max_size=3))))
    up = b"".join(pre08.encode_request(r) for r in reqs)
    down = b"".join(pre08.encode_response(a) for a in answers)
    chunk = data.draw(st.integers(1, 64))
    conn = Connection()
    got_requests, pairs = [], []
    # responses first: they wait for their requests
    for i in range(0, len(down), chunk):
        pairs += conn.feed_responses(down[i : i + chunk])
    for i in range(0, len(up), chunk):
        got_requests += conn.feed_requests(up[i : i + chunk])
        pairs += conn.feed_responses()
    assert got_requests == reqs
    answered = [r for r in reqs if r.request_type not in (0, 3)]
    assert pairs == list(zip(answered, answers, strict=True))
    assert conn.waiting == conn.unmatched_responses == 0
    assert conn.buffered == (0, 0)


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REQUESTS)
def test_every_truncated_request_raises(name):
    data, _ = REQUESTS[name]
    for end in range(len(data)):
        with pytest.raises(TruncatedError) as info:
            pre08.decode_request(data[:end])
        assert info.value.field
        assert info.value.offset is not None and info.value.offset <= end


@pytest.mark.parametrize("name", ["multifetch", "offsets"])
def test_truncated_responses_raise(name):
    data, request, _ = RESPONSES[name]
    for end in range(len(data)):
        with pytest.raises(TruncatedError) as info:
            pre08.decode_response(data[:end], request)
        assert info.value.offset is not None and info.value.offset <= end


def test_unknown_request_type():
    for request_type in (5, -1, 18):
        with pytest.raises(UnsupportedError) as info:
            pre08.decode_request(struct.pack(">h", request_type) + fetch_body("t", 0, 0, 1))
        assert (info.value.field, info.value.offset) == ("request_type", 0)
    with pytest.raises(UnsupportedError, match="no response"):
        pre08.decode_response(b"\x00\x00", RequestType.PRODUCE)


def test_bad_crc_names_the_field_and_offset():
    data = bytearray(REQUESTS["produce"][0])
    start = 2 + 2 + len("events") + 4 + 4  # the first message
    data[start + 4 + 6] ^= 0xFF  # first payload byte
    with pytest.raises(CrcError) as info:
        pre08.decode_request(bytes(data))
    assert info.value.field == "messages.message.crc"
    assert info.value.offset == start + 4 + 2  # magic 1: size, magic, attributes, then the CRC
    assert pre08.decode_request(bytes(data), verify_crc=False).messages[0].payload == b"\x97ello"


def test_bad_crc_inside_a_compressed_message():
    inner = bytearray(msg1(b"a") + msg1(b"bad"))
    inner[-1] ^= 1
    log = msg1(b"ok") + msg1(gzip.compress(bytes(inner)), 1)
    with pytest.raises(CrcError) as info:
        list(pre08.read_message_set(log))
    assert info.value.offset == len(msg1(b"ok"))  # the compressed message
    assert f"byte {len(msg1(b'a'))} of its content" in str(info.value)
    assert [e.message.payload for e in pre08.read_message_set(log, verify_crc=False)] == [
        b"ok",
        b"a",
        b"bae",
    ]


@pytest.mark.parametrize(
    ("data", "error", "field", "offset"),
    [
        # negative lengths
        (struct.pack(">hh", 1, -1) + struct.pack(">iqi", 0, 0, 1), CorruptError, "topic", 2),
        (
            struct.pack(">h", 0) + topic("t") + struct.pack(">ii", 0, -5),
            CorruptError,
            "messages_size",
            9,
        ),
        (struct.pack(">hh", 2, -1), CorruptError, "fetches.count", 2),
        (struct.pack(">hh", 3, -3), CorruptError, "produces.count", 2),
        (
            struct.pack(">h", 0) + produce_body("t", 0, struct.pack(">i", -1) + b"\0" * 8),
            CorruptError,
            "messages.message.size",
            13,
        ),
        # lengths and counts past the end
        (
            struct.pack(">h", 0) + topic("t") + struct.pack(">ii", 0, 2**31 - 1),
            TruncatedError,
            "messages_size",
            9,
        ),
        (
            struct.pack(">hh", 2, 32767) + fetch_body("t", 0, 0, 1),
            TruncatedError,
            "fetches.count",
            2,
        ),
        (struct.pack(">hh", 1, 30000) + b"t", TruncatedError, "topic", 4),
        # impossible messages
        (
            struct.pack(">h", 0) + produce_body("t", 0, struct.pack(">ib", 1, 1)),
            CorruptError,
            "messages.message.size",
            13,
        ),
        (
            struct.pack(">h", 0) + produce_body("t", 0, struct.pack(">ibI", 5, 2, 0)),
            UnsupportedError,
            "messages.message.magic",
            17,
        ),
        (
            struct.pack(">h", 0) + produce_body("t", 0, struct.pack(">ibbhb", 5, 1, 0, 0, 0)),
            CorruptError,
            "messages.message.size",
            13,
        ),
        # leftovers and bad text
        (struct.pack(">h", 1) + fetch_body("t", 0, 0, 1) + b"!", CorruptError, "FETCH request", 21),
        (
            struct.pack(">hh", 4, 2) + b"\xff\xfe" + struct.pack(">iqi", 0, -1, 1),
            CorruptError,
            "topic",
            4,
        ),
        (
            struct.pack(">hh", 3, 1) + produce_body("t", 0, msg1(b"x")[:-1]),
            TruncatedError,
            "produces[0].messages.message.payload",
            15,
        ),
    ],
)
def test_bad_requests(data, error, field, offset):
    with pytest.raises(error) as info:
        pre08.decode_request(data)
    assert type(info.value) is error
    assert (info.value.field, info.value.offset) == (field, offset)


@pytest.mark.parametrize(
    ("data", "answers", "error", "field", "offset"),
    [
        (struct.pack(">hi", 0, -1), RequestType.OFFSETS, CorruptError, "offsets.count", 2),
        (
            struct.pack(">hiq", 0, 2**31 - 1, 5),
            RequestType.OFFSETS,
            TruncatedError,
            "offsets.count",
            2,
        ),
        (
            struct.pack(">hi", 0, 0) + b"\0",
            RequestType.OFFSETS,
            CorruptError,
            "OFFSETS response",
            6,
        ),
        (
            struct.pack(">hih", 0, 1, 0),
            RequestType.MULTIFETCH,
            CorruptError,
            "responses[0].size",
            2,
        ),
        (struct.pack(">hi", 0, -2), RequestType.MULTIFETCH, CorruptError, "responses[0].size", 2),
        (
            struct.pack(">hih", 0, 2**31 - 1, 0),
            RequestType.MULTIFETCH,
            TruncatedError,
            "responses[0].size",
            2,
        ),
        (
            struct.pack(">hih", 0, 2, 0),
            MultiFetchRequest([FetchRequest(), FetchRequest()]),
            TruncatedError,
            "responses[1].size",
            8,
        ),
        (
            struct.pack(">hihih", 0, 2, 0, 2, 0),
            MultiFetchRequest([FetchRequest()]),
            CorruptError,
            "MULTIFETCH response",
            8,
        ),
        (
            struct.pack(">h", 0) + struct.pack(">i", -7) + b"\0" * 10,
            RequestType.FETCH,
            CorruptError,
            "messages.message.size",
            2,
        ),
        (
            struct.pack(">h", 0) + frame(struct.pack(">h", 0) + msg1(b"x")[:-1]),
            RequestType.MULTIFETCH,
            None,
            None,
            None,
        ),
    ],
)
def test_bad_responses(data, answers, error, field, offset):
    if error is None:  # a cut-off message inside a MULTIFETCH part is a partial message too
        resp = pre08.decode_response(data, answers)
        assert resp.responses[0].trailing == msg1(b"x")[:-1]
        return
    with pytest.raises(error) as info:
        pre08.decode_response(data, answers)
    assert type(info.value) is error
    assert (info.value.field, info.value.offset) == (field, offset)


def test_huge_lengths_allocate_nothing():
    """Lengths and counts are checked against the bytes there before anything is made."""
    cases = [
        lambda: pre08.decode_request(
            struct.pack(">h", 0) + topic("t") + struct.pack(">ii", 0, 2**31 - 1)
        ),
        lambda: pre08.decode_response(struct.pack(">hi", 0, 2**31 - 1), RequestType.OFFSETS),
        lambda: list(pre08.read_message_set(struct.pack(">ib", 2**31 - 1, 1), allow_partial=False)),
        lambda: pre08.decode_request(struct.pack(">hh", 3, 32767)),
        lambda: Connection().feed_requests(struct.pack(">i", 2**31 - 1)),
    ]
    for case in cases:
        tracemalloc.start()
        try:
            with pytest.raises(DecodeError):
                case()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 64 * 1024


def test_decompression_is_capped():
    bomb = msg1(gzip.compress(msg1(bytes(4 << 20))), 1)
    with pytest.raises(LimitExceededError) as info:
        list(pre08.read_message_set(msg1(b"x") + bomb, max_decompressed_size=1 << 20))
    assert (info.value.field, info.value.offset) == ("message.payload", len(msg1(b"x")))
    # the cap is for the whole reader: two halves of it pass, a third does not
    part = msg1(gzip.compress(msg1(bytes(400_000))), 1)
    assert len(list(pre08.read_message_set(part * 2, max_decompressed_size=1 << 20))) == 2
    with pytest.raises(LimitExceededError):
        list(pre08.read_message_set(part * 3, max_decompressed_size=1 << 20))


def test_corrupt_and_unknown_compression():
    with pytest.raises(DecompressionError) as info:
        list(pre08.read_message_set(msg1(b"ok") + msg1(b"\x1f\x8b not gzip", 1)))
    assert (info.value.field, info.value.offset) == ("message.payload", len(msg1(b"ok")))
    with pytest.raises(UnsupportedError) as info:
        list(pre08.read_message_set(msg1(b"lz4?", 3)))
    assert info.value.field == "message.attributes"
    # shallow reading leaves the payload alone
    assert [e.message.attributes for e in pre08.read_message_set(msg1(b"?", 3), deep=False)] == [3]


def test_connection_errors_carry_stream_offsets():
    good = frame(REQUESTS["fetch"][0])
    conn = Connection()
    bad = bytearray(frame(REQUESTS["produce"][0]))
    bad[-1] ^= 1  # last payload byte: the last message's CRC fails
    with pytest.raises(CrcError) as info:
        conn.feed_requests(good + bytes(bad))
    last = len(good) + 4 + 2 + 2 + len("events") + 8 + len(msg1(b"hello") + msg0(b"old style"))
    assert info.value.offset == last + 4 + 2

    conn = Connection(max_frame_size=100)
    with pytest.raises(LimitExceededError) as info:
        conn.feed_requests(good + struct.pack(">i", 101))
    assert (info.value.offset, info.value.field) == (len(good), "frame size")
    with pytest.raises(CorruptError):
        Connection().feed_responses(struct.pack(">i", -1))


def test_encode_rejects_what_the_format_cannot_hold():
    with pytest.raises(EncodeError):
        pre08.encode_request(FetchRequest("x" * 40_000))
    with pytest.raises(EncodeError):
        pre08.encode_request(FetchRequest("t", partition=2**31))
    with pytest.raises(EncodeError):
        pre08.encode_request(MultiFetchRequest([FetchRequest()] * 40_000))
    with pytest.raises(EncodeError):
        pre08.encode_message_set([Message(b"", magic=2)])
    with pytest.raises(EncodeError):
        pre08.encode_message_set([Message(b"", magic=0, attributes=1)])
    with pytest.raises(EncodeError):
        pre08.encode_response(OffsetsResponse(0, [2**63]))
    with pytest.raises(EncodeError):
        pre08.encode_request(object())  # type: ignore[arg-type]
