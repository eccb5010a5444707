"""Seed corpora for the fuzz targets (fuzz/targets.py), from valid encodings.

    python fuzz/make_seeds.py fuzz/work          # one directory per target

The seeds are generated, not committed: fuzz/corpus/<target>/ holds the small
set of interesting inputs that the fuzzer found (replayed by the tests).
"""

from __future__ import annotations

import hashlib
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
    sets.update(native_seeds({**sets["records"], **sets["legacy"]}, sets["codecs"]))
    for target, seeds in sets.items():
        directory = out / target
        directory.mkdir(parents=True, exist_ok=True)
        for blob in seeds.values():
            (directory / hashlib.sha1(blob).hexdigest()).write_bytes(blob)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "fuzz/work"))
