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
