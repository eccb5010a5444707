"""The fuzz targets of kafkawire: one function per decoder entry point.

Each takes the fuzzer's bytes and must return normally or raise a subclass of
``kafkawire.DecodeError``; anything else escaping (or a crash, an out-of-bounds
read under ASan, a hang, an unbounded allocation) is a bug.  Some targets check
more (see each one).  This module does not import atheris: the same functions
replay the committed corpus as ordinary tests (tests/test_fuzz_corpus.py).

    python fuzz/fuzz.py TARGET [corpus dirs] [libFuzzer flags]
"""

from __future__ import annotations

import contextlib
import importlib.util
import zlib

import kafkawire
from kafkawire import DecodeError, KafkawireError, compression
from kafkawire.protocol import (
    Correlator,
    FrameReader,
    _generated_messages,
    decode,
    decode_request,
    decode_response,
    encode,
    encode_request,
)

# Small caps: a fuzzer run explores; big allocations only slow it down.
MAX_DECOMPRESSED = 1 << 20
MAX_TOTAL = 4 << 20

REQUESTS = [_generated_messages.REQUESTS[k] for k in sorted(_generated_messages.REQUESTS)]
RESPONSES = [_generated_messages.RESPONSES[k] for k in sorted(_generated_messages.RESPONSES)]
DATA = sorted(
    (
        cls
        for cls in vars(_generated_messages).values()
        if isinstance(cls, type) and getattr(cls, "message_type", None) in ("data", "header")
    ),
    key=lambda cls: cls.__name__,
)


def _touch_view(view) -> None:
    n = len(view)
    _ = view.offsets.sum(), view.timestamps.sum(), view.next_offset, view.leftover_bytes
    for i in range(min(n, 64)):
        view.key(i)
        view.value(i)
        view.headers(i)
        view[i]
        with contextlib.suppress(DecodeError):  # a control record too short to parse
            view.control_record(i)
    view.keys.to_pylist()
    view.header_offsets  # noqa: B018 (indexes every header)
    view.timestamp_types  # noqa: B018
    view.to_arrow(binary="view")
    view.to_arrow(binary="plain")


def _touch_batches(reader) -> None:
    for batch in reader:
        for record in batch:
            _ = record.key, record.value, record.headers
        _ = batch.control_record, batch.raw(), batch.compression, repr(batch)


def _decoded(fn, *args, **kwargs):
    """fn's result, or None if it raised a DecodeError."""
    try:
        return fn(*args, **kwargs)
    except DecodeError:
        return None


def records(data: bytes) -> None:
    """decode_records and read_batches, with and without CRC checks (without, the
    fuzzer gets past the checksum into the record scanner), read_committed too;
    both entry points must agree on what they decode."""
    caps = {"max_decompressed_size": MAX_DECOMPRESSED, "max_total_decompressed_size": MAX_TOTAL}
    # control records kept: their parsers are fuzzed too
    view = _decoded(kafkawire.decode_records, data, verify_crc=False, keep_control=True, **caps)
    if view is not None:
        with contextlib.suppress(DecodeError):  # header keys that are not UTF-8
            _touch_view(view)
    try:
        reader = kafkawire.read_batches(data, verify_crc=False, keep_control=True, **caps)
        offsets = []
        for batch in reader:
            offsets.extend(r.offset for r in batch)
        if view is not None:
            # what read_batches decodes, decode_records does too
            assert offsets == view.offsets.tolist(), (offsets, view.offsets)
    except DecodeError:
        pass
    with contextlib.suppress(DecodeError):
        _touch_batches(kafkawire.read_batches(data, verify_crc=False, **caps))
    with contextlib.suppress(DecodeError):
        kafkawire.decode_records(data, **caps)
    with contextlib.suppress(DecodeError):
        _touch_view(
            kafkawire.decode_records(
                data, verify_crc=False, aborted_transactions=[(1, 0), (7, 3)], **caps
            )
        )
    with contextlib.suppress(DecodeError):
        _touch_batches(kafkawire.read_batches(bytearray(data), aborted_transactions=[(1, 0)]))


# The legacy target is the records target over a corpus of magic 0/1 message sets
# (compressed wrappers, wrappers in wrappers): a corpus of its own keeps the
# fuzzer's attention on the legacy walker.
legacy = records


def _stable(encode_fn, decode_fn, msg) -> None:
    """What decodes encodes again, and that encoding decodes to a message that
    encodes to the same bytes.  (Not "decodes equal": unknown tagged fields are
    kept in wire order, which need not be ascending, and written sorted.)"""
    try:
        first = encode_fn(msg)
    except KafkawireError:
        return  # e.g. a value the version cannot write: not a decoder problem
    assert encode_fn(decode_fn(first)) == first


def _roundtrip_request(header, msg) -> None:
    version = header.request_api_version

    def enc(m):
        return encode_request(
            m,
            version=version,
            correlation_id=header.correlation_id,
            client_id=header.client_id,
            size_prefix=False,
        )

    _stable(enc, lambda frame: decode_request(frame)[1], msg)


def request(data: bytes) -> None:
    """decode_request on any frame; what decodes re-encodes stably (see _stable)."""
    try:
        header, msg = decode_request(data)
    except DecodeError:
        return
    _roundtrip_request(header, msg)


def _pick(classes, data: bytes):
    """A message class and version from the first two bytes; the version may be
    invalid (one in 16) so that the refusal is fuzzed too."""
    cls = classes[data[0] % len(classes)]
    versions = cls.valid_versions
    v = data[1]
    version = versions.start + v % len(versions) if v < 240 else v - 256
    return cls, version


def response(data: bytes) -> None:
    """decode_response for a fuzzer-chosen API and version (bytes 0 and 1)."""
    if len(data) < 2:
        return
    cls, version = _pick(RESPONSES, data)
    try:
        decode_response(data[2:], api_key=cls.api_key, api_version=version)
    except DecodeError:
        return


def message(data: bytes) -> None:
    """kafkawire.protocol.decode of the data and header schemas (ConsumerProtocol*,
    LeaderChangeMessage, VotersRecord, ...): class and version from bytes 0 and 1;
    what decodes re-encodes stably (see _stable)."""
    if len(data) < 2:
        return
    cls, version = _pick(DATA, data)
    try:
        msg = decode(cls, data[2:], version=version)
    except DecodeError:
        return
    _stable(lambda m: encode(m, version=version), lambda b: decode(cls, b, version=version), msg)


def _chunks(data: bytes):
    """(max_frame_size, chunks of the stream): byte 0 picks the limit, the next
    bytes the chunk sizes (so that every split of a stream is tried)."""
    if not data:
        return 1, []
    limit = (1, 64, 1 << 10, 100 << 20)[data[0] & 3]
    n_sizes = (data[0] >> 2) % 8 + 1
    sizes = list(data[1 : 1 + n_sizes]) or [1]
    stream = data[1 + n_sizes :]
    out, pos, k = [], 0, 0
    while pos < len(stream):
        size = sizes[k % len(sizes)] or len(stream)
        out.append(stream[pos : pos + size])
        pos += size
        k += 1
    return limit, out


def frames(data: bytes) -> None:
    """FrameReader fed in fuzzer-chosen chunks: the frames it hands out, with their
    size prefixes, are exactly the stream's prefix, and the rest is buffered."""
    limit, chunks = _chunks(data)
    reader = FrameReader(max_frame_size=limit)
    stream = b"".join(chunks)
    out = []
    try:
        for chunk in chunks:
            reader.feed(chunk)
            out.extend(reader)
    except DecodeError:
        return
    rebuilt = b"".join(len(f).to_bytes(4, "big") + f for f in out)
    assert stream.startswith(rebuilt)
    assert reader.buffered == len(stream) - len(rebuilt)
    assert all(len(f) <= limit for f in out)


def correlator(data: bytes) -> None:
    """A client's receive loop: requests of fuzzer-chosen APIs and versions go out
    (correlation ids 0, 1, ...), the stream comes back through a FrameReader and
    each frame is decoded by the Correlator."""
    if len(data) < 3:
        return
    corr = Correlator(client_id="fuzz")
    n = data[0] % 4 + 1
    for k in range(n):
        cls, version = _pick(REQUESTS, data[1 + 2 * k : 3 + 2 * k].ljust(2, b"\0"))
        if version not in cls.valid_versions:
            continue
        with contextlib.suppress(KafkawireError):
            corr.encode_request(cls(), version=version)
    reader = FrameReader(max_frame_size=1 << 20)
    reader.feed(data[1 + 2 * n :])
    with contextlib.suppress(DecodeError):
        for frame in reader:
            with contextlib.suppress(DecodeError):
                corr.decode_response(frame)


def codecs(data: bytes) -> None:
    """compression.decompress for each codec (byte 0), with a small cap; where the
    reference library decodes the same payload too, the outputs agree."""
    if not data:
        return
    codec = data[0] % 5
    magic = 0 if data[0] & 0x80 else 2
    cap = (64, 4096, MAX_DECOMPRESSED)[(data[0] >> 3) % 3]
    payload = data[1:]
    try:
        out = compression.decompress(codec, payload, max_size=cap, magic=magic)
    except DecodeError:
        return
    assert codec == 0 or len(out) <= cap  # "none" is no compression: nothing to cap
    if codec == 1:
        with contextlib.suppress(zlib.error):
            ref = zlib.decompressobj(31)
            expected = ref.decompress(payload, cap + 1)
            if ref.eof and not ref.unused_data:  # one member: what zlib alone reads
                assert out == expected


def pre08(data: bytes) -> None:
    """Kafka 0.7's format (kafkawire.protocol.pre08): byte 0 picks the entry point
    (a request, a response to each kind of request, a message set read deep, or a
    Connection fed both directions); what decodes encodes again and decodes equal."""
    from kafkawire.protocol import pre08 as p

    if not data:
        return
    mode, body = data[0] % 6, data[1:]
    if mode == 0:
        req = _decoded(p.decode_request, body, verify_crc=False)
        if req is not None:
            with contextlib.suppress(KafkawireError):
                again = p.encode_request(req, size_prefix=False)
                assert p.decode_request(again, verify_crc=False) == req
    elif mode in (1, 2, 3):
        kind = (p.RequestType.FETCH, p.RequestType.MULTIFETCH, p.RequestType.OFFSETS)[mode - 1]
        resp = _decoded(p.decode_response, body, kind, verify_crc=False)
        if resp is not None:
            with contextlib.suppress(KafkawireError):
                again = p.encode_response(resp, size_prefix=False)
                assert p.decode_response(again, kind, verify_crc=False) == resp
    elif mode == 4:
        with contextlib.suppress(DecodeError):
            reader = p.read_message_set(
                body, verify_crc=False, max_decompressed_size=MAX_DECOMPRESSED
            )
            for entry in reader:
                _ = entry.message.payload, entry.offset
    else:
        conn = p.Connection(max_frame_size=1 << 16, verify_crc=False)
        half = len(body) // 2
        with contextlib.suppress(DecodeError):
            for k in range(0, half, 7):
                conn.feed_requests(body[k : k + 7])
            conn.feed_responses(body[half:])


# ---- schema registry payloads (kafkawire.registry) -----------------------------------------

if importlib.util.find_spec("pyarrow") is not None:
    import json
    import uuid

    import pyarrow as pa

    from kafkawire.registry import PayloadError, Schema, SchemaError, SchemaNotFoundError
    from kafkawire.registry import decode as registry_decode  # imported here: instrumented
    from kafkawire.registry import json_schema as _json_schema  # noqa: F401
    from kafkawire.registry import protobuf as _protobuf  # noqa: F401

    def _record(name, fields, **kw):
        return {"type": "record", "name": name, "fields": fields, **kw}

    def _f(name, t, **kw):
        return {"name": name, "type": t, **kw}

    AVRO_RICH = _record(
        "Rich",
        [
            _f("b", "boolean"),
            _f("i", "int"),
            _f("l", "long"),
            _f("f", "float"),
            _f("d", "double"),
            _f("by", "bytes"),
            _f("s", "string"),
            _f("n", "null"),
            _f("dec", {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 4}),
            _f(
                "decf",
                {
                    "type": "fixed",
                    "name": "D9",
                    "size": 9,
                    "logicalType": "decimal",
                    "precision": 20,
                    "scale": 2,
                },
            ),
            _f("date", {"type": "int", "logicalType": "date"}),
            _f("tms", {"type": "int", "logicalType": "time-millis"}),
            _f("tus", {"type": "long", "logicalType": "time-micros"}),
            _f("tsms", {"type": "long", "logicalType": "timestamp-millis"}),
            _f("tsus", {"type": "long", "logicalType": "timestamp-micros"}),
            _f("ltsms", {"type": "long", "logicalType": "local-timestamp-millis"}),
            _f("ltsus", {"type": "long", "logicalType": "local-timestamp-micros"}),
            _f("uuid", {"type": "string", "logicalType": "uuid"}),
            _f("fx", {"type": "fixed", "name": "F3", "size": 3}),
            _f("e", {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}),
            _f("arr", {"type": "array", "items": "long"}),
            _f("m", {"type": "map", "values": ["null", "string"]}),
            _f("opt", ["null", "double"], default=None),
            _f("u", ["null", "int", "string", "Color", "F3"]),
            _f(
                "rec",
                _record(
                    "Inner",
                    [_f("x", "int"), _f("tags", {"type": "array", "items": "string"})],
                ),
            ),
            _f("recs", {"type": "array", "items": "Inner"}),
            _f("nested", {"type": "map", "values": {"type": "array", "items": ["null", "Inner"]}}),
        ],
        namespace="fuzz",
    )
    AVRO_V1 = _record(
        "User",
        [
            _f("id", "int"),
            _f("name", "string"),
            _f("old", "string"),
            _f("kind", {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}),
            _f("score", "float"),
            _f("n", "long"),
            _f("raw", "string"),
        ],
    )
    AVRO_V2 = _record(
        "User",
        [
            _f("id", "long"),  # int -> long
            _f("full_name", "string", aliases=["name"]),
            _f(
                "kind", {"type": "enum", "name": "Kind", "symbols": ["A", "B", "Z"], "default": "Z"}
            ),
            _f("score", "double"),  # float -> double
            _f("n", ["null", "double"]),  # long -> a union's double
            _f("raw", "bytes"),  # string -> bytes
            _f("email", ["null", "string"], default=None),
            _f("tags", {"type": "array", "items": "string"}, default=["t"]),
            _f("meta", _record("Meta", [_f("v", "int", default=2)]), default={"v": 9}),
        ],
    )
    AVRO_MAP = {"type": "map", "values": ["null", {"type": "array", "items": "double"}]}
    AVRO_UNION = ["null", "long", "string", {"type": "fixed", "name": "G", "size": 2}]

    PROTO_RICH = """
syntax = "proto3";
package fuzz.pb;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message Inner { int32 x = 1; string s = 2; repeated sint64 zs = 3; }
message Rich {
  double d = 1; float f = 2; int32 i32 = 3; int64 i64 = 4; uint32 u32 = 5; uint64 u64 = 6;
  sint32 s32 = 7; sint64 s64 = 8; fixed32 fx32 = 9; fixed64 fx64 = 10; sfixed32 sf32 = 11;
  sfixed64 sf64 = 12; bool b = 13; string str = 14; bytes by = 15; Color color = 16;
  Inner inner = 17; repeated int32 packed = 18; repeated int64 unpacked = 19 [packed = false];
  repeated double doubles = 20; repeated string names = 21; repeated Inner inners = 22;
  repeated Color colors = 23; map<string, int32> counts = 24; map<int64, Inner> by_id = 25;
  oneof choice { string name = 26; Inner pick = 27; int64 number = 28; }
  optional int32 maybe = 29; google.protobuf.Timestamp ts = 30;
  google.protobuf.Duration dur = 31; google.protobuf.Int32Value w_i32 = 32;
  google.protobuf.StringValue w_str = 33; repeated google.protobuf.Timestamp stamps = 34;
  message Deep { message Deeper { string leaf = 1; Color c = 2; } Deeper deeper = 1; }
  Deep deep = 35;
  uint32 far = 1000;
}
"""
    PROTO_V1 = 'syntax = "proto3"; package fuzz.ev; message M { int32 a = 1; string b = 2; }'
    PROTO_V2 = (
        'syntax = "proto3"; package fuzz.ev; message M { int64 a = 1; reserved 2;'
        " repeated string c = 3; optional bool d = 4; map<string, double> e = 5; }"
    )
    PROTO2 = (
        'syntax = "proto2"; package fuzz.p2; message P { required int32 a = 1;'
        ' optional string b = 2 [default = "x"]; repeated float c = 3 [packed = true];'
        " optional Q child = 4; } message Q { optional sint64 z = 1; repeated bytes w = 2; }"
    )

    JSON_ORDER = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Order",
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "price": {"type": "number"},
            "paid": {"type": "boolean"},
            "note": {"type": ["string", "null"]},
            "status": {"enum": ["NEW", "PAID"]},
            "at": {"type": "string", "format": "date-time"},
            "day": {"type": "string", "format": "date"},
            "blob": {"type": "string", "contentEncoding": "base64"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "attrs": {"type": "object", "additionalProperties": {"type": "integer"}},
            "customer": {"$ref": "#/definitions/Customer"},
            "lines": {"type": "array", "items": {"$ref": "#/definitions/Line"}},
            "coupon": {"oneOf": [{"type": "null"}, {"type": "string"}]},
        },
        "required": ["id"],
        "definitions": {
            "Customer": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "address": {"type": "object", "properties": {"city": {"type": "string"}}},
                },
            },
            "Line": {
                "type": "object",
                "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
            },
        },
    }
    JSON_V1 = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    JSON_V2 = {"type": "object", "properties": {"a": {"type": "integer"}, "c": {"type": "number"}}}
    JSON_ARRAY = {"type": "array", "items": {"type": "number"}}

    def _guid(schema_id: int) -> str:
        return str(uuid.UUID(int=0xF0220000_0000_4000_8000_000000000000 + schema_id))

    def _schemas() -> dict[int, Schema]:
        avro = {1: AVRO_RICH, 2: AVRO_V1, 3: AVRO_V2, 4: AVRO_MAP, 5: AVRO_UNION}
        proto = {11: PROTO_RICH, 12: PROTO_V1, 13: PROTO_V2, 14: PROTO2}
        js = {21: JSON_ORDER, 22: JSON_V1, 23: JSON_V2, 24: JSON_ARRAY}
        out = {}
        for sid, s in avro.items():
            out[sid] = Schema(json.dumps(s), "AVRO", schema_id=sid, guid=_guid(sid))
        for sid, s in proto.items():
            out[sid] = Schema(s, "PROTOBUF", schema_id=sid, guid=_guid(sid))
        for sid, s in js.items():
            out[sid] = Schema(json.dumps(s), "JSON", schema_id=sid, guid=_guid(sid))
        return out

    class StubRegistry:
        """The registry of the registry_* targets: fixed schemas in memory (ids 1-5 Avro, 11-14
        Protobuf, 21-24 JSON; every one also by a GUID), no references."""

        def __init__(self):
            self.by_id = _schemas()
            self.by_guid = {s.guid: s for s in self.by_id.values()}

        def schema_by_id(self, schema_id: int) -> Schema:
            if schema_id not in self.by_id:
                raise SchemaNotFoundError(f"schema id {schema_id} not found")
            return self.by_id[schema_id]

        def schema_by_guid(self, guid: str) -> Schema:
            if guid not in self.by_guid:
                raise SchemaNotFoundError(f"schema guid {guid} not found")
            return self.by_guid[guid]

        def references(self, schema: Schema) -> dict:
            return {}

    REGISTRY = StubRegistry()

    # (reader schema id or None for the newest writer, the writer ids the values are framed
    # with): byte 0 of the input picks one
    REGISTRY_COMBOS = {
        "avro": [
            (None, [1]),
            (None, [2, 3]),  # every promotion, alias, enum default, field default of User
            (3, [2]),
            (2, [3, 2]),  # newer writer, older reader: its rows fail alone
            (None, [4]),
            (None, [5]),
            (1, [1, 2]),  # another record's rows under Rich
            (5, [1, 4, 5]),  # records and maps read as a union
        ],
        "protobuf": [
            (None, [11]),
            (None, [12, 13]),
            (12, [13, 12]),
            (None, [14]),
            (11, [11, 12]),
            (None, [11, 14]),
            (13, [12]),
            (14, [14, 11]),
        ],
        "json": [
            (None, [21]),
            (None, [22, 23]),
            (22, [23, 22]),
            (None, [24]),
            (21, [21, 22]),
            (24, [24, 21]),
            (23, [21, 22, 23]),
            (None, [21, 24]),
        ],
    }
    REGISTRY_FORMAT_TYPE = {"avro": "AVRO", "protobuf": "PROTOBUF", "json": "JSON"}
    _HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))

    def registry_inputs(fmt: str, data: bytes):
        """The column, headers and options a registry_* target decodes, from the fuzzer's bytes.

        Byte 0: bits 0-2 the (reader, writers) combination of REGISTRY_COMBOS[fmt], bit 3
        also decode with on_error="raise", bits 4-6 the number of values - 1, bit 7 keys (the
        key schema id header) and format= given. Then per value a control byte (bits 0-2:
        0-2 magic 0 + id, 3 magic 1 + GUID, 4 the id in a header, 5 the GUID in a header, 6
        the bytes as they are, 7 null; bits 3-5 pick the writer; bits 6-7 how many of the
        value's first bytes, 0, 1, 2 or 4, follow the id in a header) and a length byte
        (0xF0 and up: its low 4 bits and the next byte), then that many bytes (the last
        value: all that is left). Returns (values, refs, headers, reader,
        raise_too, key, format): refs[i] is the writer id of a framed value, else None."""
        head = data[0] if data else 0
        reader, writers = REGISTRY_COMBOS[fmt][head & 7]
        n = (head >> 4 & 7) + 1
        key = bool(head & 0x80)
        pos, values, refs, header_values = 1, [], [], []
        for k in range(n):
            control = data[pos] if pos < len(data) else 0
            length = data[pos + 1] if pos + 1 < len(data) else 0
            pos += 2
            if length >= 0xF0:  # a long value: 12 bits
                length = (length & 0xF) << 8 | (data[pos] if pos < len(data) else 0)
                pos += 1
            body = data[pos:] if k == n - 1 else data[pos : pos + length]
            pos += len(body)
            mode, sid = control & 7, writers[(control >> 3 & 7) % len(writers)]
            guid = b"\1" + uuid.UUID(REGISTRY.by_id[sid].guid).bytes
            by_id = b"\0" + sid.to_bytes(4, "big")
            if mode in (4, 5):  # the header carries the first bytes (Protobuf's indexes)
                tail = (0, 1, 2, 4)[control >> 6]
                by_id += body[:tail]
                guid += body[:tail]
                body = body[tail:]
            header = None
            if mode <= 2:
                value = by_id + body
            elif mode == 3:
                value = guid + body
            elif mode == 4:
                value, header = body, by_id
            elif mode == 5:
                value, header = body, guid
            else:
                value, sid = (body, None) if mode == 6 else (None, None)
            values.append(value)
            refs.append(sid)
            header_values.append(header)
        headers = None
        if any(h is not None for h in header_values):
            name = "__key_schema_id" if key else "__value_schema_id"
            headers = pa.array(
                [
                    []
                    if h is None
                    else [{"key": "other", "value": b"\0"}, {"key": name, "value": h}]
                    for h in header_values
                ],
                _HEADERS,
            )
        return values, refs, headers, reader, bool(head & 8), key, fmt if key else None

    def _framing(values, headers, key: bool) -> list:
        """Each value's schema as its framing (or schema id header) names it: an int id, a
        GUID str, or None (a null value, or no framing)."""
        name = "__key_schema_id" if key else "__value_schema_id"
        out = []
        for i, value in enumerate(values):
            framing = value
            if value is not None and headers is not None:
                for h in headers[i].as_py():
                    if h["key"] == name:
                        framing = h["value"]
            if framing is None:
                out.append(None)
            elif framing[:1] == b"\0" and len(framing) >= 5:
                out.append(int.from_bytes(framing[1:5], "big"))
            elif framing[:1] == b"\1" and len(framing) >= 17:
                out.append(str(uuid.UUID(bytes=framing[1:17])))
            else:
                out.append(None)
        return out

    def _registry_target(fmt: str, data: bytes) -> None:
        values, refs, headers, reader, raise_too, key, format_ = registry_inputs(fmt, data)
        column = pa.array(values, pa.binary())
        kw = {"headers": headers, "key": key, "reader_schema": reader, "format": format_}
        framing = _framing(values, headers, key)
        by_ref = {**REGISTRY.by_id, **REGISTRY.by_guid}
        # the rows naming a schema the registry does not have: error rows with "null"
        unknown = {i for i, r in enumerate(framing) if r is not None and r not in by_ref}
        try:
            decoded = registry_decode.decode_column(column, REGISTRY, on_error="null", **kw)
        except SchemaError as exc:
            # format= given and the reader (the newest schema found) of another format
            found = [by_ref[r] for r in framing if r in by_ref]
            if format_ is not None and reader is None and found:
                newest = max(found, key=lambda s: s.schema_id)
                assert newest.schema_type != REGISTRY_FORMAT_TYPE[fmt], exc
                assert "the reader schema is" in str(exc), exc
                return
            raise
        n = len(values)
        assert len(decoded.values) == len(decoded.errors) == len(decoded.schema_ids) == n
        decoded.values.validate(full=True)
        decoded.errors.validate(full=True)
        # (no to_pylist of the values: valid timestamps outside Python's datetime range raise)
        errors = decoded.errors.to_pylist()
        ids = decoded.schema_ids.to_pylist()
        validity = decoded.values.is_valid().to_pylist()
        for i in unknown:
            assert errors[i] is not None and "not found" in errors[i], (i, errors[i])
        for i in range(n):
            valid = validity[i]
            if values[i] is None:
                assert not valid and errors[i] is None and ids[i] is None, i
            else:
                assert valid == (errors[i] is None), (i, errors[i])
                if valid and refs[i] is not None:
                    assert ids[i] == refs[i], (i, ids[i], refs[i])
                if not valid:
                    assert ids[i] is None, i
        if raise_too:
            try:
                again = registry_decode.decode_column(column, REGISTRY, on_error="raise", **kw)
            except PayloadError:
                assert any(e is not None for e in errors)
            except SchemaNotFoundError:
                assert unknown
            else:
                assert all(e is None for e in errors)
                assert len(again.values) == n
                again.values.validate(full=True)
                assert again.values.is_valid().equals(decoded.values.is_valid())

    def registry_avro(data: bytes) -> None:
        """kafkawire.registry.decode_column over Avro values (see registry_inputs): with
        on_error="null" the struct column validates, has a row a value, and a row is null iff
        its input was null or it has an error (and then has no schema id); with "raise", a
        PayloadError iff the "null" decoding had an error."""
        _registry_target("avro", data)

    def registry_protobuf(data: bytes) -> None:
        """registry_avro's checks over Protobuf values (message indexes after the id)."""
        _registry_target("protobuf", data)

    def registry_json(data: bytes) -> None:
        """registry_avro's checks over JSON Schema values."""
        _registry_target("json", data)


TARGETS = {
    "records": records,
    "legacy": legacy,
    "request": request,
    "response": response,
    "message": message,
    "frames": frames,
    "correlator": correlator,
    "codecs": codecs,
}
if importlib.util.find_spec("kafkawire.protocol.pre08") is not None:
    TARGETS["pre08"] = pre08
if importlib.util.find_spec("pyarrow") is not None:
    TARGETS["registry_avro"] = registry_avro
    TARGETS["registry_protobuf"] = registry_protobuf
    TARGETS["registry_json"] = registry_json
