"""Record objects of read_batches: every field is a member slot made with the record; the
ints and empty header lists of dropped records are reused, and nothing a caller still holds
ever changes."""

from __future__ import annotations

import sys
import sysconfig

import pytest

from kafkawire import build_batches, read_batches
from kafkawire.records import _decode

EDGES = [0, 255, 256, 257, (1 << 30) - 2, (1 << 30) - 1, 1 << 30, (1 << 60) - 1, 1 << 60]


@pytest.mark.skipif(
    bool(sysconfig.get_config_var("Py_GIL_DISABLED")) or sys.implementation.name != "cpython",
    reason="ints are recycled only on CPython with the GIL",
)
def test_int_recycling_is_on():
    assert _decode.INT_RECYCLING is True


def _log(base_offset: int, timestamps: list[int]) -> bytes:
    return b"".join(
        build_batches(
            [b"v%d" % i for i in range(len(timestamps))],
            timestamps=timestamps,
            base_offset=base_offset,
            max_bytes=300,
        )
    )


@pytest.mark.parametrize("edge", EDGES)
def test_offsets_and_timestamps_across_digit_boundaries(edge):
    base = max(0, edge - 50)
    timestamps = [max(-1, edge - 50 + i) if i % 7 else -1 for i in range(100)]
    data = _log(base, timestamps)
    held = []
    n = 0
    for batch in read_batches(data):
        for record in batch:  # dropped at once: its ints go back for the next record
            assert record.offset == base + n
            assert record.timestamp == timestamps[n]
            assert hash(record.offset) == hash(base + n)
            if n % 9 == 0:
                held.append((n, record.offset, record.timestamp, record))
            n += 1
    assert n == 100
    for i, offset, timestamp, record in held:  # what was kept did not change
        assert offset == base + i and timestamp == timestamps[i]
        assert record.offset == base + i and record.timestamp == timestamps[i]


def test_headers_lists_are_never_shared_with_live_records():
    data = b"".join(
        build_batches(
            [b"a", b"b", b"c", b"d"],
            headers=[[], [("h", b"1")], [], []],
            timestamps=[1] * 4,
        )
    )
    records = [r for batch in read_batches(data) for r in batch]
    assert [r.headers for r in records] == [[], [("h", b"1")], [], []]
    records[0].headers.append(("mine", None))  # a caller's list is the caller's
    assert [r.headers for r in records] == [[("mine", None)], [("h", b"1")], [], []]
    assert len({id(r.headers) for r in records}) == 4
    again = [r.headers for batch in read_batches(data) for r in batch]
    assert again == [[], [("h", b"1")], [], []]
    assert records[0].headers == [("mine", None)]


def test_fields_are_slots_with_the_documented_types():
    (record,) = [r for b in read_batches(_log(5, [7])) for r in b]
    assert type(record.offset) is int and type(record.timestamp) is int
    assert type(record.headers) is list and record.key is None and record.value == b"v0"
    assert record.offset == 5 and record.timestamp == 7
    with pytest.raises(AttributeError):
        record.offset = 1
