"""The buffer policy of decode_records / read_batches (the `copy` argument).

Keys, values, raw batches and Arrow binary_view columns point into the input.
So that a mutable input cannot change under a view without the user asking:
- copy=None (default): an input that cannot change (bytes, a read-only buffer
  of an immutable object: memoryview of bytes, read-only mmap, read-only numpy
  array) is viewed in place; a writable one (bytearray, writable mmap, writable
  numpy array, and a read-only memoryview of any of those) is copied first;
- copy=True: always copied;
- copy=False: never copied: the view reads writable memory in place (the user
  asked), and the input cannot be resized or closed while the view lives.
"""

from __future__ import annotations

import gc
import mmap
import weakref

import numpy as np
import pytest

import kafkawire
from kafkawire import decode_records, read_batches


def make_batch(n=3) -> bytes:
    builder = kafkawire.BatchBuilder()
    for i in range(n):
        builder.append(b"value-%d" % i, key=b"key-%d" % i, headers=[("h", b"x")])
    return builder.build()


DATA = make_batch()


def value_at(data) -> int:
    """Where record 0's value starts in the batch."""
    return bytes(data).index(b"value-0")


def source_of(view) -> object:
    """The object record 0's value memoryview is over."""
    return view.value(0).obj


def scribble(buf) -> None:
    """Write over record 0's value in a writable buffer."""
    at = value_at(DATA)
    memoryview(buf).cast("B")[at : at + 7] = b"CHANGED"


# ---- zero-copy for what cannot change -----------------------------------------------------


def test_bytes_is_viewed_in_place_and_kept_alive():
    data = make_batch()
    view = decode_records(data)
    assert source_of(view) is data
    ref_id = id(data)
    del data
    gc.collect()
    assert id(source_of(view)) == ref_id
    assert bytes(view.value(0)) == b"value-0"


def mapped_file(tmp_path, access):
    """DATA in a file, mapped with the given access."""
    path = tmp_path / "segment"
    path.write_bytes(DATA)
    with open(path, "rb" if access == mmap.ACCESS_READ else "r+b") as f:
        return mmap.mmap(f.fileno(), 0, access=access)


def test_memoryview_of_bytes_is_viewed_in_place():
    data = b"??" + DATA
    view = decode_records(memoryview(data)[2:])
    assert source_of(view) is data  # no copy: a slice of the same bytes
    assert bytes(view.value(2)) == b"value-2"


def test_read_only_mmap_is_viewed_in_place(tmp_path):
    mapped = mapped_file(tmp_path, mmap.ACCESS_READ)
    view = decode_records(mapped)
    assert source_of(view) is mapped
    with pytest.raises(BufferError):
        mapped.close()  # the view holds it
    del mapped
    gc.collect()
    assert bytes(view.value(1)) == b"value-1"  # and keeps it alive
    mapped = source_of(view)
    del view
    gc.collect()
    mapped.close()  # released with the view


def test_read_only_numpy_array_is_viewed_in_place():
    array = np.frombuffer(DATA, dtype=np.uint8)
    assert not array.flags.writeable
    view = decode_records(array)
    assert source_of(view) is array


# ---- copies of what can change ------------------------------------------------------------


def writable_inputs(tmp_path):
    mapped = mapped_file(tmp_path, mmap.ACCESS_WRITE)
    ba = bytearray(DATA)
    return {
        "bytearray": (ba, ba),
        "memoryview-of-bytearray": (memoryview(ba2 := bytearray(DATA)), ba2),
        "readonly-memoryview-of-bytearray": (memoryview(ba3 := bytearray(DATA)).toreadonly(), ba3),
        "writable-mmap": (mapped, mapped),
        "numpy": (arr := np.frombuffer(bytearray(DATA), dtype=np.uint8), arr),
        "private-mmap": (
            mmap.mmap(-1, len(DATA)),
            None,
        ),
    }


@pytest.mark.parametrize(
    "kind",
    [
        "bytearray",
        "memoryview-of-bytearray",
        "readonly-memoryview-of-bytearray",
        "writable-mmap",
        "numpy",
        "private-mmap",
    ],
)
def test_writable_input_is_copied_by_default(tmp_path, kind):
    source, writable = writable_inputs(tmp_path)[kind]
    if writable is None:  # an anonymous map: fill it first
        source.write(DATA)
        writable = source
    view = decode_records(source)
    batch = next(read_batches(source))
    table = view.to_arrow(binary="view")
    assert source_of(view) is not source and isinstance(source_of(view), bytes)
    scribble(writable)
    # nothing the view or the batch hands out changed
    assert bytes(view.value(0)) == b"value-0"
    assert view.values.to_pylist()[0] == b"value-0"
    assert table.column("value")[0].as_py() == b"value-0"
    assert bytes(batch.raw()) == DATA
    assert batch.records()[0].value == b"value-0"
    # and the input is free: no export is held on it
    if isinstance(source, memoryview):
        source.release()  # raises BufferError if anything still exports it
    if isinstance(writable, bytearray):
        writable.extend(b"more")
    elif isinstance(writable, mmap.mmap):
        writable.close()


def test_copy_false_views_writable_memory_in_place():
    data = bytearray(DATA)
    view = decode_records(data, copy=False)
    assert source_of(view) is data
    scribble(data)
    assert bytes(view.value(0)) == b"CHANGED"  # asked for: writes show through
    with pytest.raises(BufferError):
        data.extend(b"x")  # but the view holds the buffer: no resize under it
    del view
    gc.collect()
    data.extend(b"x")


def test_copy_false_read_batches():
    data = bytearray(DATA)
    reader = read_batches(data, copy=False)
    batch = next(reader)
    assert batch.raw().obj is data
    with pytest.raises(BufferError):
        data.extend(b"x")
    del batch, reader
    gc.collect()
    data.extend(b"x")


def test_copy_true_copies_even_bytes():
    data = make_batch()
    view = decode_records(data, copy=True)
    assert source_of(view) is not data and bytes(source_of(view)) == data
    assert bytes(view.value(0)) == b"value-0"


def test_copy_must_be_none_or_a_bool():
    with pytest.raises(TypeError):
        decode_records(DATA, copy="yes")
    with pytest.raises(TypeError):
        read_batches(DATA, copy=1)


class Buf(bytearray):
    """A bytearray that can be weakly referenced."""


def test_copy_false_view_keeps_the_input_alive_until_collected():
    data = Buf(DATA)
    alive = weakref.ref(data)
    view = decode_records(data, copy=False)
    del data
    gc.collect()
    assert alive() is not None and bytes(view.value(0)) == b"value-0"
    del view
    gc.collect()
    assert alive() is None


def test_copied_input_is_not_held_but_the_copy_lives_with_its_views():
    data = Buf(DATA)
    alive = weakref.ref(data)
    view = decode_records(data)
    value = view.value(0)
    del data
    gc.collect()
    assert alive() is None  # the view holds its copy, not the input
    del view
    gc.collect()
    assert bytes(value) == b"value-0"  # a memoryview handed out keeps the copy alive
