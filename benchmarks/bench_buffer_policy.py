"""What the buffer policy costs (docs/hostile-input.md): decode_records of the same records
from ``bytes`` (viewed in place), from a ``bytearray`` with the default policy (copied first,
so that nothing can change under the view) and with ``copy=False`` (viewed in place), beside
memcpy of the same bytes (what the copy cannot beat). One large input (the 200,000-record
plain-16KiB workload) and one small one (a single 1 KiB batch).
"""

from __future__ import annotations

import numpy as np
import pytest
from workloads import copy_buffers

import kafkawire

CASES = {
    "kafkawire": lambda data: kafkawire.decode_records(data),  # bytes: in place
    "bytearray, copied (default)": lambda data: kafkawire.decode_records(data),
    "bytearray, copy=False": lambda data: kafkawire.decode_records(data, copy=False),
}


def _small_input() -> bytes:
    builder = kafkawire.BatchBuilder(max_bytes=1024)
    i = 0
    while builder.append(b"v" * 40, key=b"key-%04d" % i):
        i += 1
    return builder.build()


@pytest.fixture(scope="module", params=["plain-16KiB", "one-1KiB-batch"])
def payload(request, get_workload):
    if request.param == "one-1KiB-batch":
        data = _small_input()
        return request.param, data, len(kafkawire.decode_records(data))
    wl = get_workload(request.param)
    return request.param, wl.data, wl.n_records


def _setup(benchmark, name, impl, data, records):
    benchmark.group = f"buffer policy {name}"
    benchmark.extra_info.update(suite="buffer", impl=impl, records=records, bytes=len(data))


@pytest.mark.parametrize("impl", list(CASES))
def test_decode_by_input_kind(benchmark, payload, impl):
    name, data, records = payload
    data = bytes(data) if impl == "kafkawire" else bytearray(data)
    view = CASES[impl](data)
    assert len(view) == records
    # only the default copies a bytearray: the others read the caller's memory in place
    assert (view.value(0).obj is data) == (impl != "bytearray, copied (default)")
    _setup(benchmark, name, impl, data, records)
    benchmark(CASES[impl], data)


def test_limit_memcpy(benchmark, payload):
    name, data, records = payload
    dst, src = copy_buffers(data)
    _setup(benchmark, name, "memcpy", data, records)
    benchmark(np.copyto, dst, src)
