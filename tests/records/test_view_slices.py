"""RecordView slices: rows a:b as a view of their own, equal to the whole view's rows."""

import pickle

import pyarrow as pa
import pytest

from kafkawire import Codec, build_batches, decode_records


def _buffer() -> bytes:
    parts = []
    for batch in range(4):
        n = 5
        parts.append(
            build_batches(
                [b"v%d-%d" % (batch, i) if i != 2 else None for i in range(n)],
                keys=[b"k%d" % i for i in range(n)],
                headers=[[("h", b"%d" % i)] if i % 2 else [] for i in range(n)],
                base_offset=batch * 10,  # gaps between batches, as compaction leaves
                compression=Codec.LZ4 if batch % 2 else Codec.NONE,
            )
        )
    return b"".join(b"".join(p) if isinstance(p, list) else p for p in parts)


@pytest.mark.parametrize(("start", "stop"), [(0, 20), (3, 17), (5, 10), (7, 8), (19, 20), (4, 4)])
def test_slice_rows_equal_the_views(start, stop):
    view = decode_records(_buffer())
    part = view[start:stop]
    assert len(part) == stop - start
    assert list(part.offsets) == list(view.offsets[start:stop])
    assert list(part.timestamps) == list(view.timestamps[start:stop])
    assert part.keys.to_pylist() == view.keys.to_pylist()[start:stop]
    assert part.values.to_pylist() == view.values.to_pylist()[start:stop]
    assert [part.headers(i) for i in range(len(part))] == [
        view.headers(i) for i in range(start, stop)
    ]
    assert [(r.offset, r.key, r.value, r.headers) for r in part] == [
        (r.offset, r.key, r.value, r.headers) for r in list(view)[start:stop]
    ]
    assert list(part.timestamp_types) == list(view.timestamp_types[start:stop])
    assert list(part.batch_index) == sorted(part.batch_index)
    for binary in ("view", "plain"):
        whole = view.to_arrow(binary=binary).slice(start, stop - start)
        got = part.to_arrow(binary=binary)
        assert got.num_rows == stop - start
        for name in whole.column_names:
            assert got[name].to_pylist() == whole[name].to_pylist(), name


def test_slices_of_slices_and_negative_bounds():
    view = decode_records(_buffer())
    assert list(view[-5:][1:3].offsets) == list(view.offsets[-4:-2])
    assert len(view[10:2]) == 0


def test_a_slice_with_a_step_is_refused():
    with pytest.raises(ValueError, match="step"):
        decode_records(_buffer())[::2]


def test_slice_outlives_the_view():
    part = decode_records(_buffer())[6:9]
    assert part.values.to_pylist() == [b"v1-1", None, b"v1-3"]
    assert isinstance(part.to_arrow(), pa.Table)


def test_consumer_records_carry_every_field():
    view = decode_records(_buffer())
    records = view[3:12].consumer_records("t", 4)
    assert len(records) == 9
    for r, i in zip(records, range(3, 12), strict=True):
        assert (r.topic, r.partition) == ("t", 4)
        assert (r.offset, r.timestamp) == (int(view.offsets[i]), int(view.timestamps[i]))
        assert r.key == view.keys.to_pylist()[i] and r.value == view.values.to_pylist()[i]
        assert r.headers == view.headers(i) and r.timestamp_type == 0 and r.leader_epoch == -1
    assert records[0] == pickle.loads(pickle.dumps(records[0]))
    assert records[0] != records[1]
    assert "ConsumerRecord(topic='t', partition=4, offset=3" in repr(records[0])


def test_a_slice_ends_where_the_next_row_begins():
    """A slice's next_offset is the offset of the view's row after it (across the gaps
    between batches), the whole view's where it reaches the end; leftover bytes are the
    end's too. (A consumer batch of rows 0..4 said next_offset=40, the whole view's.)"""
    data = _buffer()
    view = decode_records(data + data[:30])  # a partial batch left over at the end
    assert view.next_offset == 35 and view.leftover_bytes == 30
    assert (view[:5].next_offset, view[:5].leftover_bytes) == (10, 0)  # rows 0..4, then 10
    assert view[3:7].next_offset == 12
    assert view[4:4].next_offset == 4
    assert (view[15:].next_offset, view[15:].leftover_bytes) == (35, 30)
    assert "offsets 0..4, 1 batches, next_offset=10" in repr(view[:5])
