"""Deterministic record workloads for the benchmarks.

The bytes are built with aiokafka's Cython ``DefaultRecordBatchBuilder`` so that the input
does not depend on kafkawire: a bug in kafkawire's writer cannot make its reader look good.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from functools import cache, cached_property

N_RECORDS = 200_000
KEY_SIZE = 16
VALUE_SIZE = 100
SEED = 0x6B61666B  # "kafk"
BASE_TIMESTAMP = 1_700_000_000_000

# Kafka attribute codes (low 3 bits of the batch attributes).
CODECS = {"gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}

# RecordBatch v2 header: the compressed payload (or the records) starts after it.
BATCH_HEADER_SIZE = 61


@dataclass(frozen=True)
class Spec:
    name: str
    batch_size: int = 16 * 1024  # aiokafka's limit applies to the uncompressed batch
    headers: bool = False
    codec: str | None = None
    json_values: bool = False


SPECS: dict[str, Spec] = {
    s.name: s
    for s in [
        Spec("plain-16KiB"),
        Spec("headers-16KiB", headers=True),
        Spec("plain-1MiB", batch_size=1 << 20),
        *(Spec(f"{c}-16KiB", codec=c, json_values=True) for c in CODECS),
    ]
}
READ_WORKLOADS = list(SPECS)
BUILD_WORKLOADS = ["plain-16KiB", "headers-16KiB", "plain-1MiB"]

_EVENTS = ["click", "view", "purchase", "signup", "logout", "search"]
_COUNTRIES = ["US", "DE", "FR", "JP", "BR", "IN", "GB", "NL"]


def _json_value(rng: random.Random, i: int) -> bytes:
    # Realistic event payload: repeated field names, small vocabularies, some entropy.
    head = (
        f'{{"user":{rng.randrange(1_000_000):06d},"event":"{rng.choice(_EVENTS)}",'
        f'"ts":{BASE_TIMESTAMP + i},"page":"/p/{rng.randrange(500):03d}",'
        f'"cc":"{rng.choice(_COUNTRIES)}","pad":"'
    )
    pad = VALUE_SIZE - len(head) - 2
    tail = "".join(rng.choices("abcdefgh", k=pad))
    out = (head + tail + '"}').encode()
    assert len(out) == VALUE_SIZE
    return out


@dataclass
class Workload:
    spec: Spec
    keys: list[bytes]
    values: list[bytes]
    timestamps: list[int]
    headers: list[list[tuple[str, bytes]]]
    batches: list[bytes] = field(repr=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def n_records(self) -> int:
        return len(self.values)

    @cached_property
    def data(self) -> bytes:
        # What a fetch response carries: batches back to back.
        return b"".join(self.batches)

    @property
    def n_bytes(self) -> int:
        return len(self.data)

    @cached_property
    def payloads(self) -> list[memoryview]:
        """The compressed (or raw) record section of each batch, for the bare-codec limit."""
        mv = memoryview(self.data)
        out, pos = [], 0
        for b in self.batches:
            out.append(mv[pos + BATCH_HEADER_SIZE : pos + len(b)])
            pos += len(b)
        return out

    def arrow_columns(self):
        import numpy as np
        import pyarrow as pa

        header_type = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
        return (
            pa.array(self.values, type=pa.binary()),
            pa.array(self.keys, type=pa.binary()),
            np.asarray(self.timestamps, dtype=np.int64),
            pa.array(self.headers, type=header_type) if self.spec.headers else None,
        )


@cache
def _records(json_values: bool, with_headers: bool):
    # Same records for every codec, so the codec groups differ only by codec.
    rng = random.Random(SEED)
    n = N_RECORDS
    raw_keys = rng.randbytes(KEY_SIZE * n)
    keys = [raw_keys[i * KEY_SIZE : (i + 1) * KEY_SIZE] for i in range(n)]
    if json_values:
        values = [_json_value(rng, i) for i in range(n)]
    else:
        raw = rng.randbytes(VALUE_SIZE * n)
        values = [raw[i * VALUE_SIZE : (i + 1) * VALUE_SIZE] for i in range(n)]
    timestamps = [BASE_TIMESTAMP + i for i in range(n)]
    if with_headers:
        trace = rng.randbytes(16 * n)
        headers = [
            [("trace-id", trace[i * 16 : (i + 1) * 16]), ("content-type", b"application/json")]
            for i in range(n)
        ]
    else:
        headers = [[] for _ in range(n)]
    return keys, values, timestamps, headers


def _set_base_offset(batch: bytearray, base_offset: int) -> bytes:
    # The base offset is outside the CRC, so patching it keeps the batch valid; without it
    # every batch would claim offset 0.
    struct.pack_into(">q", batch, 0, base_offset)
    return bytes(batch)


def build(name: str) -> Workload:
    from aiokafka.record._crecords import DefaultRecordBatchBuilder

    spec = SPECS[name]
    keys, values, timestamps, headers = _records(spec.json_values, spec.headers)
    codec = CODECS[spec.codec] if spec.codec else 0
    batches: list[bytes] = []

    def new():
        return DefaultRecordBatchBuilder(2, codec, 0, -1, -1, -1, spec.batch_size)

    builder, in_batch, base = new(), 0, 0
    for i in range(len(values)):
        if builder.append(in_batch, timestamps[i], keys[i], values[i], headers[i]) is None:
            batches.append(_set_base_offset(builder.build(), base))
            builder, base, in_batch = new(), i, 0
            builder.append(in_batch, timestamps[i], keys[i], values[i], headers[i])
        in_batch += 1
    batches.append(_set_base_offset(builder.build(), base))
    return Workload(spec, keys, values, timestamps, headers, batches)


# --- bare codecs: the decompression limit, no Kafka parsing ------------------------------------


def _snappy_xerial(payload) -> bytes:
    import cramjam

    # Xerial framing (what the Java client and aiokafka write): 16-byte magic header, then
    # (BE int32 length, raw snappy block) pairs. Falls back to a raw snappy payload.
    if bytes(payload[:8]) != b"\x82SNAPPY\x00":
        return cramjam.snappy.decompress_raw(payload)
    out = []
    pos, end = 16, len(payload)
    while pos < end:
        (n,) = struct.unpack_from(">i", payload, pos)
        pos += 4
        out.append(cramjam.snappy.decompress_raw(payload[pos : pos + n]))
        pos += n
    return b"".join(out) if len(out) != 1 else out[0]


def decompressor(codec: str):
    """A function payload -> decompressed bytes, calling the codec library directly."""
    if codec == "gzip":
        from isal import isal_zlib  # the inflater kafkawire uses: the limit is its bare speed

        return lambda p: isal_zlib.decompress(p, 47)  # 32 + 15: gzip header, max window
    if codec == "snappy":
        return _snappy_xerial
    if codec == "lz4":
        import lz4.frame

        return lz4.frame.decompress
    if codec == "zstd":
        import zstandard

        dctx = zstandard.ZstdDecompressor()
        # Kafka writers need not put the content size in the frame: cap the output instead.
        return lambda p: dctx.decompress(p, max_output_size=64 << 20)
    raise ValueError(codec)


def copy_buffers(data):
    """(dst, src) for the memcpy limit: a preallocated destination, so that the number is copy
    bandwidth and not the page faults of a fresh >32 MiB allocation (glibc mmaps those)."""
    import numpy as np

    src = np.frombuffer(data, dtype=np.uint8)
    dst = np.empty_like(src)
    dst[:] = src  # fault the pages in once
    return dst, src


# --- peers and kafkawire lookup ----------------------------------------------------------------


def aiokafka_records_impl() -> str:
    """Which implementation aiokafka's public record classes resolve to."""
    try:
        from aiokafka.record import _crecords
        from aiokafka.record.default_records import DefaultRecordBatch
    except ImportError as e:
        return f"pure-python (no _crecords: {e})"
    public = "cython" if DefaultRecordBatch is _crecords.DefaultRecordBatch else "pure-python"
    return f"public path: {public}; benchmarks use aiokafka.record._crecords directly"


def aiokafka_cython():
    """aiokafka's compiled record classes; skips (never silently benchmarks the Python fallback)."""
    import sys

    import pytest

    try:
        from aiokafka.record import _crecords
    except ImportError as e:
        pytest.skip(f"aiokafka Cython records (_crecords) not importable: {e}")
    classes = (
        _crecords.MemoryRecords,
        _crecords.DefaultRecordBatch,
        _crecords.DefaultRecordBatchBuilder,
    )
    for cls in classes:
        path = getattr(sys.modules[cls.__module__], "__file__", "") or ""
        if not path.endswith((".so", ".pyd")):
            pytest.skip(f"aiokafka {cls.__qualname__} is not compiled (from {path!r})")
    return classes


def kafkawire_attr(name: str):
    """kafkawire.<name>, or skip the benchmark while that part is not written/built yet."""
    import pytest

    try:
        import kafkawire
    except ImportError as e:
        pytest.skip(f"kafkawire not importable: {e}")
    fn = getattr(kafkawire, name, None)
    if fn is None:
        pytest.skip(f"kafkawire.{name} not available yet")
    return fn


def paired_rounds(benchmark, ours, theirs, rounds: int) -> dict[str, list[float]]:
    """Time ``ours`` and ``theirs`` one right after the other, ``rounds`` times, the order
    alternating so that neither always follows the other; CPU time (the timer make bench
    gives pytest-benchmark). Returns each side's times, round by round."""
    import itertools
    import time

    clock = time.process_time
    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    order = itertools.count()

    def one_round():
        sides = [("ours", ours), ("theirs", theirs)]
        if next(order) % 2:
            sides.reverse()
        for name, run in sides:
            start = clock()
            run()
            times[name].append(clock() - start)

    benchmark.pedantic(one_round, rounds=rounds, iterations=1, warmup_rounds=0)
    return times


def paired_target(benchmark, workload: str, pair: str, how: str, ours, theirs) -> None:
    """A target measured in paired rounds (tools/bench_report.py's "paired" suite): about 4 s
    of rounds, at least 11 for a steady median, after one untimed call of each side; how:
    "speedup" (their time over ours) or "time" (ours over theirs, a limit's)."""
    import time

    clock = time.process_time  # the timer make bench gives pytest-benchmark
    t0 = clock()
    ours()
    theirs()
    rounds = max(11, min(61, int(4.0 / max(clock() - t0, 1e-6))))
    benchmark.group = f"paired {workload}"
    times = paired_rounds(benchmark, ours, theirs, rounds)
    benchmark.extra_info.update(
        suite="paired",
        workload=workload,
        pair=pair,
        how=how,
        ours_seconds=times["ours"],
        theirs_seconds=times["theirs"],
    )
