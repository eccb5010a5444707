"""Seed corpora for the fuzz targets (fuzz/targets.py), from valid encodings.

    python fuzz/make_seeds.py fuzz/work          # one directory per target

The seeds are generated, not committed: fuzz/corpus/<target>/ holds the small
set of interesting inputs that the fuzzer found (replayed by the tests).
"""

from __future__ import annotations

import hashlib
import io
import struct
import sys
import uuid
import zlib
from pathlib import Path

import kafkawire
from kafkawire import compression
from kafkawire.protocol import _base as b
from kafkawire.protocol import encode, encode_request, encode_response

sys.path.insert(0, str(Path(__file__).parent))
import targets

TS = 1_700_000_000_000


# ---- records ------------------------------------------------------------------------


def batch(magic=2, codec=None, n=3, base_offset=7, headers=True, **kw) -> bytes:
    builder = kafkawire.BatchBuilder(magic=magic, compression=codec, base_offset=base_offset, **kw)
    for i in range(n):
        builder.append(
            b"v%d" % i * (i + 1),
            key=None if i == 1 else b"k%d" % i,
            timestamp=TS + i,
            headers=[("h", b"x"), ("n", None)] if magic == 2 and headers and i != 1 else (),
        )
    return builder.build()


def legacy_message(magic, offset, key, value, attributes=0, timestamp=TS) -> bytes:
    body = struct.pack(">bb", magic, attributes)
    if magic == 1:
        body += struct.pack(">q", timestamp)
    for field in (key, value):
        body += struct.pack(">i", -1) if field is None else struct.pack(">i", len(field)) + field
    msg = struct.pack(">I", zlib.crc32(body)) + body
    return struct.pack(">qi", offset, len(msg)) + msg


def wrapper(magic, codec, inner: bytes, offset=9, attributes=0) -> bytes:
    payload = compression.compress(codec, inner, magic=magic)
    return legacy_message(magic, offset, None, payload, attributes=codec | attributes)


def record_seeds() -> dict[str, bytes]:
    seeds = {}
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        for magic in (0, 1, 2):
            if magic < 2 and codec == "zstd":
                continue
            seeds[f"m{magic}-{codec}"] = batch(magic, codec)
    seeds["m2-one"] = batch(n=1, headers=False)
    long_values = kafkawire.BatchBuilder(base_offset=3)
    for i in range(3):  # values past 12 bytes: Arrow binary views point into the buffer
        long_values.append(b"long value %d " % i * 4, key=b"a key longer than twelve")
    seeds["m2-long-values"] = long_values.build()
    seeds["m2-logappend"] = batch(timestamp_type=1)
    seeds["m2-txn"] = batch(producer_id=1, producer_epoch=0, base_sequence=0, is_transactional=True)
    seeds["control-commit"] = kafkawire.build_control_batch(
        commit=True, producer_id=1, producer_epoch=0, base_offset=10
    )
    seeds["control-abort"] = kafkawire.build_control_batch(
        commit=False, producer_id=1, producer_epoch=0, base_offset=10
    )
    seeds["txn-then-abort"] = seeds["m2-txn"] + seeds["control-abort"]
    seeds["two-batches-partial"] = batch() + batch(base_offset=10)[:-5]
    seeds["mixed-magics"] = batch(0) + batch(1, "gzip") + batch(2, "lz4")
    return seeds


def legacy_seeds() -> dict[str, bytes]:
    seeds = {}
    for magic in (0, 1):
        plain = b"".join(legacy_message(magic, i, b"k" if i else None, b"v" * i) for i in range(3))
        seeds[f"m{magic}-plain"] = plain
        inner = b"".join(
            legacy_message(magic, i if magic == 1 else 7 + i, b"k", b"v" * i) for i in range(3)
        )
        for codec in (1, 2, 3):
            seeds[f"m{magic}-wrapper-{codec}"] = wrapper(magic, codec, inner)
            # a compressed wrapper inside a compressed wrapper (refused: no recursion)
            seeds[f"m{magic}-nested-{codec}"] = wrapper(magic, codec, wrapper(magic, codec, inner))
        seeds[f"m{magic}-two-wrappers"] = wrapper(magic, 1, inner) + wrapper(magic, 2, inner)
    seeds["m1-logappend-wrapper"] = wrapper(1, 1, seeds["m1-plain"], attributes=0x08)
    return seeds


# ---- messages -----------------------------------------------------------------------

SCALARS = {
    b.BOOL: True,
    b.INT8: 1,
    b.INT16: 2,
    b.INT32: 3,
    b.INT64: 4,
    b.UINT16: 5,
    b.UINT32: 6,
    b.FLOAT64: 0.5,
    b.UUID: uuid.UUID(int=0x0123456789ABCDEF),
    b.STRING: "s",
    b.BYTES: b"by",
}


def populated(cls, version: int, records: bytes, depth: int = 0):
    """cls with every field the version has set to a non-default value, arrays of one."""
    kwargs = {}
    for f in cls._kw_fields:
        if not f.versions[0] <= version <= f.versions[1]:
            continue
        if f.kind == b.STRUCT:
            value = populated(f.struct, version, records, depth + 1)
        elif f.kind == b.ARRAY:
            if f.elem_kind == b.STRUCT:
                value = [populated(f.struct, version, records, depth + 1)] if depth < 4 else []
            else:
                value = [SCALARS[f.elem_kind]]
        elif f.kind == b.RECORDS:
            value = records
        else:
            value = SCALARS[f.kind]
        kwargs[f.attr] = value
    return cls(**kwargs)


def messages(classes, records: bytes):
    """(class index, version, message) for every class and version, default and populated."""
    for index, cls in enumerate(classes):
        for version in cls.valid_versions:
            yield index, version, cls()
            try:
                msg = populated(cls, version, records)
            except (TypeError, ValueError):
                continue
            yield index, version, msg


def request_seeds(records: bytes) -> dict[str, bytes]:
    seeds = {}
    for _, version, msg in messages(targets.REQUESTS, records):
        try:
            frame = encode_request(
                msg, version=version, correlation_id=5, client_id="c", size_prefix=False
            )
        except kafkawire.EncodeError:
            continue
        seeds[f"{type(msg).__name__}-v{version}-{len(frame)}"] = frame
    return seeds


def _version_byte(cls, version: int) -> int:
    return version - cls.valid_versions.start  # what targets._pick maps back


def response_frames(records: bytes):
    for index, version, msg in messages(targets.RESPONSES, records):
        try:
            frame = encode_response(msg, version=version, correlation_id=5, size_prefix=False)
        except kafkawire.EncodeError:
            continue
        yield index, version, msg, frame


def response_seeds(records: bytes) -> dict[str, bytes]:
    seeds = {}
    for index, version, msg, frame in response_frames(records):
        head = bytes((index, _version_byte(type(msg), version)))
        seeds[f"{type(msg).__name__}-v{version}-{len(frame)}"] = head + frame
    return seeds


def message_seeds(records: bytes) -> dict[str, bytes]:
    seeds = {}
    for index, version, msg in messages(targets.DATA, records):
        try:
            data = encode(msg, version=version)
        except kafkawire.EncodeError:
            continue
        head = bytes((index, _version_byte(type(msg), version)))
        seeds[f"{type(msg).__name__}-v{version}-{len(data)}"] = head + data
    return seeds


def frame_seeds(records: bytes) -> dict[str, bytes]:
    stream = b"".join(f for i, (_, _, _, f) in enumerate(response_frames(records)) if i % 97 == 0)
    stream = b"".join(len(f).to_bytes(4, "big") + f for f in [b"", b"abc", stream[:300]])
    seeds = {}
    for flags, sizes in (
        (0x1F, b"\x01\x02\x03\x05\x07\x0b\x0d\x11"),
        (0x03, b"\x00"),
        (0x02, b"\x04"),
        (0x01, b"\x40"),
    ):
        seeds[f"stream-{flags:02x}"] = bytes((flags,)) + sizes[: (flags >> 2) % 8 + 1] + stream
    return seeds


def correlator_seeds(records: bytes) -> dict[str, bytes]:
    seeds = {}
    wanted = {1: "fetch", 3: "metadata", 18: "api-versions", 0: "produce"}
    for api_key, name in wanted.items():
        index = next(i for i, c in enumerate(targets.REQUESTS) if c.api_key == api_key)
        req, resp = targets.REQUESTS[index], targets.RESPONSES[index]
        for version in (req.valid_versions.start, req.valid_versions.stop - 1):
            msg = populated(resp, version, records)
            frame = encode_response(msg, version=version, correlation_id=0)
            head = bytes((0, index, _version_byte(req, version)))
            seeds[f"{name}-v{version}"] = head + frame
    return seeds


def codec_seeds() -> dict[str, bytes]:
    plain = b"".join(b"record %d " % i * (i % 7 + 1) for i in range(200))
    seeds = {}
    for codec in (0, 1, 2, 3, 4):
        for magic in (0, 2):
            if codec == 4 and magic == 0:
                continue
            flags = codec | (0x80 if magic == 0 else 0) | (2 << 3)  # cap 1 MiB
            seeds[f"codec{codec}-m{magic}"] = bytes((flags,)) + compression.compress(
                codec, plain, magic=magic
            )
    import cramjam

    seeds["snappy-raw"] = bytes((2 | 2 << 3,)) + bytes(cramjam.snappy.compress_raw(plain))
    seeds["gzip-two-members"] = bytes((1 | 2 << 3,)) + zlib.compress(plain, wbits=31) * 2
    return seeds


def pre08_seeds() -> dict[str, bytes]:
    from kafkawire.protocol import pre08 as p

    msgs = [p.Message(b"hello"), p.Message(b"old", magic=0), p.Message(b"", attributes=0)]
    gz = p.Message.compressed(msgs, "gzip")
    sn = p.Message.compressed(msgs, "snappy")
    nested = p.Message.compressed([gz, msgs[0]], "gzip")
    requests = [
        p.ProduceRequest("t", 0, [*msgs, gz]),
        p.FetchRequest("t", 1, 5, 1000),
        p.MultiFetchRequest([p.FetchRequest("a", 0, 0, 10), p.FetchRequest("b", 2, 7, 99)]),
        p.MultiProduceRequest([p.ProduceRequest("a", 0, msgs), p.ProduceRequest("b", 1, [sn])]),
        p.OffsetsRequest("t", 0, -2, 3),
    ]
    message_set = p.encode_message_set([*msgs, gz, sn, nested])
    responses = {
        1: p.FetchResponse(0, [*msgs, gz], b"\0\0\0\x20\x01"),
        2: p.MultiFetchResponse(0, [p.FetchResponse(0, msgs), p.FetchResponse(3, [])]),
        3: p.OffsetsResponse(0, [0, 100, 2000]),
    }
    seeds = {}
    for i, req in enumerate(requests):
        seeds[f"request-{i}"] = b"\0" + p.encode_request(req, size_prefix=False)
    for mode, resp in responses.items():
        seeds[f"response-{mode}"] = bytes((mode,)) + p.encode_response(resp, size_prefix=False)
    seeds["message-set"] = b"\x04" + message_set
    # a connection: two requests, then their two responses (each half of the body)
    reqs = p.encode_request(requests[1]) + p.encode_request(requests[4])
    resps = p.encode_response(responses[1]) + p.encode_response(responses[3])
    pad = b"\0" * max(0, len(resps) - len(reqs))
    seeds["connection"] = b"\x05" + reqs + pad + resps[: len(reqs) + len(pad)]
    return seeds


def native_seeds(record_sets: dict[str, bytes], codec_sets: dict[str, bytes]) -> dict:
    """Seeds of the libFuzzer harnesses in fuzz/native/ (see each one for the layout)."""
    scan, lz4, snappy, varint = {}, {}, {}, {}
    for name, blob in record_sets.items():
        if blob[16] == 2:  # a v2 batch: its record data, after [mode 0][record count]
            count = struct.unpack_from(">i", blob, 57)[0]
            scan[name] = b"\0" + struct.pack("<i", count) + blob[61:]
        else:  # a legacy set: [mode: legacy, its magic][4 unused bytes]
            scan[name] = bytes((1 | blob[16] << 1,)) + b"\0" * 4 + blob
            if blob[17] & 7 == 0:  # also as a wrapper's inner set (offsets rebuilt)
                scan[name + "-inner"] = bytes((1 | blob[16] << 1 | 4,)) + b"\0" * 4 + blob
    for name, blob in codec_sets.items():
        codec, payload = blob[0] & 7, blob[1:]
        if codec == 3:
            lz4[name] = bytes((0x04 | (blob[0] >> 7),)) + payload
        elif codec == 2:
            snappy[name] = b"\x02" + payload
    for n in (0, 1, -1, 63, -64, 300, 2**31 - 1, -(2**31), 2**62, -(2**63)):
        u = (n << 1) ^ (n >> 63)
        out = bytearray()
        while u >= 0x80:
            out.append(u & 0x7F | 0x80)
            u >>= 7
        out.append(u)
        varint[f"v{n}"] = bytes(out) * 3
    return {
        "native-record_scan": scan,
        "native-lz4": lz4,
        "native-snappy": snappy,
        "native-varint": varint,
    }


# ---- schema registry payloads -------------------------------------------------------


def _avro(schema, value) -> bytes:
    import fastavro

    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(schema), value)
    return buf.getvalue()


def avro_payloads() -> dict[int, list[bytes]]:
    """Valid Avro payloads of each schema of targets.REGISTRY, by schema id."""
    import datetime as dt
    import decimal

    utc = dt.timezone.utc

    def rich(i: int) -> dict:
        return {
            "b": i % 2 == 0,
            "i": [-(2**31), 0, 2**31 - 1][i % 3],
            "l": [-(2**63), 2**63 - 1, 1 << 40][i % 3],
            "f": [1.5, -0.0, float("nan")][i % 3],
            "d": [-1e300, 5e-324, float("inf")][i % 3],
            "by": bytes(range(i % 5)),
            "s": ["", "ünïcödé ✓", "𝄞" * 5][i % 3],
            "n": None,
            "dec": decimal.Decimal(["0", "-12345678.9012", "9999999999999999.9999"][i % 3]),
            "decf": decimal.Decimal(["123.45", "-999999999999999999.99", "0.01"][i % 3]),
            "date": dt.date(1970, 1, 1) + dt.timedelta(days=[0, -1, 20000][i % 3]),
            "tms": dt.time(23, 59, 59, 999000),
            "tus": dt.time(i % 24, 1, 2, 3),
            "tsms": dt.datetime(2024, 2, 29, 12, tzinfo=utc),
            "tsus": dt.datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=utc),
            "ltsms": dt.datetime(2001, 1, 1, 1, 1, 1, 1000),
            "ltsus": dt.datetime(9999, 12, 31, 23, 59, 59, 999999),
            "uuid": str(uuid.UUID(int=i * 7919)),
            "fx": b"abc",
            "e": ["RED", "GREEN", "BLUE"][i % 3],
            "arr": list(range(i % 4)),
            "m": {f"k{j}": (None if j % 2 else f"v{j}") for j in range(i % 3 + 1)},
            "opt": None if i % 2 else 2.5,
            "u": [None, 42, "str", "GREEN", b"xyz"][i % 5],
            "rec": {"x": i, "tags": [str(j) for j in range(i % 3)]},
            "recs": [{"x": j, "tags": ["a"]} for j in range(i % 3)],
            "nested": {"a": [None, {"x": 1, "tags": ["t"]}], "b": []} if i % 2 else {},
        }

    v1 = [
        {"id": i, "name": "ann", "old": "x", "kind": "ABC"[i], "score": 0.5, "n": 7, "raw": "r"}
        for i in range(3)
    ]
    v2 = {
        "id": 2**40,
        "full_name": "bob",
        "kind": "Z",
        "score": 0.25,
        "n": 1.5,
        "raw": b"\xff",
        "email": "b@x",
        "tags": ["u", "v"],
        "meta": {"v": 1},
    }
    return {
        1: [_avro(targets.AVRO_RICH, rich(i)) for i in range(5)],
        2: [_avro(targets.AVRO_V1, v) for v in v1],
        3: [_avro(targets.AVRO_V2, v2), _avro(targets.AVRO_V2, {**v2, "n": None, "email": None})],
        4: [_avro(targets.AVRO_MAP, {"a": [1.0, -2.5], "b": None}), _avro(targets.AVRO_MAP, {})],
        5: [_avro(targets.AVRO_UNION, v) for v in (None, -3, "s", b"gg")],
    }


def _zigzag_varint(n: int) -> bytes:
    u = (n << 1) ^ (n >> 63)
    out = bytearray()
    while u >= 0x80:
        out.append(u & 0x7F | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def _indexes(path) -> bytes:
    """Confluent's message indexes: [0] as one 0 byte, else the count and each index."""
    if list(path) == [0]:
        return b"\0"
    return _zigzag_varint(len(path)) + b"".join(_zigzag_varint(i) for i in path)


def _proto_classes(text: str) -> dict:
    from google.protobuf import descriptor_pool, message_factory

    from kafkawire.registry import proto_text

    pool = descriptor_pool.DescriptorPool()
    fdp = proto_text.parse(text, "fuzz.proto")
    for dep in fdp.dependency:
        pool.AddSerializedFile(proto_text.well_known(dep).SerializeToString())
    pool.AddSerializedFile(fdp.SerializeToString())
    out = {}

    def walk(msgs, prefix):
        for m in msgs:
            full = f"{prefix}.{m.name}"
            out[full] = message_factory.GetMessageClass(pool.FindMessageTypeByName(full))
            walk(m.nested_type, full)

    walk(fdp.message_type, fdp.package)
    return out


def _indexes_length(payload: bytes) -> int:
    """How many bytes of a Protobuf payload its message indexes take (all single-byte)."""
    return 1 if payload[0] == 0 else 1 + payload[0] // 2


def protobuf_payloads() -> dict[int, list[bytes]]:
    """Valid Protobuf payloads (message indexes first) of each schema of targets.REGISTRY."""
    rich = _proto_classes(targets.PROTO_RICH)
    Rich, Inner = rich["fuzz.pb.Rich"], rich["fuzz.pb.Inner"]
    Deeper = rich["fuzz.pb.Rich.Deep.Deeper"]
    full = Rich(
        d=1.5, f=-2.5, i32=-1, i64=-(2**63), u32=2**32 - 1, u64=2**64 - 1, s32=-(2**31),
        s64=2**63 - 1, fx32=7, fx64=8, sf32=-9, sf64=-10, b=True, str="ünï", by=b"\0\xff",
        color=2, inner=Inner(x=1, s="s", zs=[-1, 2]), packed=[1, -2, 300], unpacked=[5, -6],
        doubles=[0.5, float("nan")], names=["a", ""], inners=[Inner(), Inner(x=3)],
        colors=[0, 1, 7], counts={"a": 1, "b": -2}, by_id={-5: Inner(s="v")}, name="oneof",
        maybe=0, far=12345,
    )  # fmt: skip
    full.ts.seconds, full.ts.nanos = 1_700_000_000, 123_456_789
    full.dur.seconds, full.dur.nanos = -5, -500
    full.w_i32.value = 3
    full.w_str.value = "w"
    full.stamps.add(seconds=-62135596800)
    full.deep.deeper.leaf = "leaf"
    other = Rich(pick=Inner(x=9), number=0)
    other.number = 77  # the last oneof member wins
    v1 = _proto_classes(targets.PROTO_V1)["fuzz.ev.M"]
    v2 = _proto_classes(targets.PROTO_V2)["fuzz.ev.M"]
    p2 = _proto_classes(targets.PROTO2)
    P, Q = p2["fuzz.p2.P"], p2["fuzz.p2.Q"]
    return {
        11: [
            _indexes([1]) + full.SerializeToString(),
            _indexes([1]) + other.SerializeToString(),
            _indexes([1]) + b"",
            _indexes([0]) + Inner(x=5, zs=[1]).SerializeToString(),
            _indexes([1, 2, 0]) + Deeper(leaf="x", c=1).SerializeToString(),
        ],
        12: [_indexes([0]) + v1(a=-1, b="dropped").SerializeToString()],
        13: [
            _indexes([0]) + v2(a=2**40, c=["x", "y"], d=False, e={"k": 0.5}).SerializeToString(),
            b"\x02\x00" + v2(d=True).SerializeToString(),  # [0] in its long form
        ],
        14: [
            _indexes([0]) + P(a=1, b="y", c=[1.5], child=Q(z=-3, w=[b"q"])).SerializeToString(),
            _indexes([0]) + P(a=0).SerializeToString(),
            _indexes([1]) + Q(z=1).SerializeToString(),
        ],
    }


def json_payloads() -> dict[int, list[bytes]]:
    """Valid JSON payloads of each schema of targets.REGISTRY."""
    import json

    order = {
        "id": 2**63 - 1,
        "price": 1.25,
        "paid": True,
        "note": None,
        "status": "PAID",
        "at": "2024-02-29T23:59:59.123456+02:00",
        "day": "0001-01-01",
        "blob": "aGVsbG8=",
        "tags": ["a", "ü"],
        "attrs": {"k": -1},
        "customer": {"name": "c", "address": {"city": "Zürich"}},
        "lines": [{"sku": "s", "qty": 2}, {}],
        "coupon": "SAVE",
    }
    return {
        21: [
            json.dumps(order).encode(),
            json.dumps({"id": -5, "note": "n\u2028", "coupon": None}, ensure_ascii=False).encode(),
            json.dumps(order, indent=1).replace("\n", "\r\n").encode(),
        ],
        22: [b'{"a": 1, "b": "x"}', b'{"b": "y"}'],
        23: [b'{"a": 2, "c": 2.5e300}', b'{"a": -9223372036854775808, "c": -0.0}'],
        24: [b"[1.5, 2, -1e-300]", b"[]"],
    }


def registry_seeds(fmt: str, payloads: dict[int, list[bytes]]) -> dict[str, bytes]:
    """Inputs of targets.registry_<fmt> (see targets.registry_inputs): every combination of
    reader and writers with its writers' valid payloads, framed each way."""
    seeds = {}
    for c, (_, writers) in enumerate(targets.REGISTRY_COMBOS[fmt]):
        rows = [(w, k, p) for w, sid in enumerate(writers) for k, p in enumerate(payloads[sid])]
        for variant in range(3):
            chosen = rows[variant : variant + 7] or rows[:7]
            if variant == 2:
                chosen = chosen[:1]  # one value alone: the common column
            body = b""
            for k, (w, _, payload) in enumerate(chosen):
                # variant 0: ids in the framing; 1: a GUID, a header, a null, raw bytes too
                mode = 0 if variant != 1 else (0, 3, 4, 5, 7, 0, 6)[k]
                tail = 0
                if mode in (4, 5) and fmt == "protobuf":  # the indexes go to the header
                    tail = {1: 1, 2: 2, 4: 3}[_indexes_length(payload)]
                if mode == 6:  # raw: framed here
                    sid = targets.REGISTRY_COMBOS[fmt][c][1][w]
                    payload = b"\0" + sid.to_bytes(4, "big") + payload
                size = len(payload)
                length = bytes((size,)) if size < 0xF0 else bytes((0xF0 | size >> 8, size & 0xFF))
                body += bytes((mode | w << 3 | tail << 6,)) + length + payload
            head = c | (variant == 0) << 3 | (len(chosen) - 1) << 4 | (variant == 1) << 7
            seeds[f"{fmt}-{c}-{variant}"] = bytes((head,)) + body
    return seeds


def main(out: Path) -> None:
    records = batch()
    sets = {
        "records": record_seeds(),
        "legacy": legacy_seeds(),
        "request": request_seeds(records),
        "response": response_seeds(records),
        "message": message_seeds(records),
        "frames": frame_seeds(records),
        "correlator": correlator_seeds(records),
        "codecs": codec_seeds(),
        "pre08": pre08_seeds(),
    }
    if "registry_avro" in targets.TARGETS:
        sets["registry_avro"] = registry_seeds("avro", avro_payloads())
        sets["registry_protobuf"] = registry_seeds("protobuf", protobuf_payloads())
        sets["registry_json"] = registry_seeds("json", json_payloads())
    sets.update(native_seeds({**sets["records"], **sets["legacy"]}, sets["codecs"]))
    for target, seeds in sets.items():
        directory = out / target
        directory.mkdir(parents=True, exist_ok=True)
        for blob in seeds.values():
            (directory / hashlib.sha1(blob).hexdigest()).write_bytes(blob)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "fuzz/work"))
