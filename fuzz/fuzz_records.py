"""Coverage-guided fuzzing of the record decoders (atheris).

Invariant: decode_records / read_batches on any bytes return a value or raise
a kafkawire.DecodeError subclass; nothing else escapes, nothing crashes.

    python fuzz/fuzz_records.py fuzz/corpus/records -max_total_time=300
    python fuzz/fuzz_records.py --make-seeds fuzz/corpus/records
"""

from __future__ import annotations

import contextlib
import sys

import atheris

with atheris.instrument_imports():
    import kafkawire
    from kafkawire import DecodeError

MAX_DECOMPRESSED = 1 << 20


def one_input(data: bytes) -> None:
    try:
        view = kafkawire.decode_records(data, max_decompressed_size=MAX_DECOMPRESSED)
        for i in range(min(len(view), 50)):
            view.headers(i)
            view.key(i)
        view.to_arrow(binary="plain")
    except DecodeError:
        pass
    try:
        for batch in kafkawire.read_batches(data, max_decompressed_size=MAX_DECOMPRESSED):
            batch.records()
            _ = batch.control_record
    except DecodeError:
        pass
    with contextlib.suppress(DecodeError):
        kafkawire.decode_records(data, aborted_transactions=[(1, 0)])


def make_seeds(directory: str) -> None:
    import os

    os.makedirs(directory, exist_ok=True)
    seeds = {}
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        for magic in (0, 1, 2):
            if magic < 2 and codec == "zstd":
                continue
            b = kafkawire.BatchBuilder(magic=magic, compression=codec, base_offset=7)
            for i in range(3):
                b.append(
                    b"v%d" % i,
                    key=None if i == 1 else b"k",
                    timestamp=1000 + i,
                    headers=[("h", b"x"), ("n", None)] if magic == 2 else (),
                )
            seeds[f"m{magic}-{codec}"] = b.build()
    seeds["control"] = kafkawire.build_control_batch(commit=True, producer_id=1, producer_epoch=0)
    for name, blob in seeds.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--make-seeds":
        make_seeds(sys.argv[2])
    else:
        atheris.Setup(sys.argv, one_input)
        atheris.Fuzz()
