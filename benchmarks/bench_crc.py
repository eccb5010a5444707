"""CRC-32C throughput: each of kafkawire's implementations beside the crc32c package and memcpy.

Run: .venv/bin/python -m pytest benchmarks/bench_crc.py -q --benchmark-only
     --benchmark-timer=time.process_time --benchmark-group-by=param:size

Every implementation this CPU has runs over the same random bytes: 16 KiB (one Kafka batch of
the records workload) and 16 MiB (a large fetch). Implementations the CPU lacks are skipped.
"""

from __future__ import annotations

import random

import crc32c
import pytest
from workloads import copy_buffers

from kafkawire.records._decode import crc32c_using

SIZES = {"16KiB": 16 << 10, "16MiB": 16 << 20}
DATA = {name: random.Random(7).randbytes(n) for name, n in SIZES.items()}
IMPLEMENTATIONS = ["avx512-vpclmulqdq", "sse4.2", "armv8-crc", "portable"]


def _setup(benchmark, size, impl, role):
    benchmark.extra_info.update(suite="crc", impl=impl, role=role, bytes=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_kafkawire_crc32c(benchmark, impl, size):
    data = DATA[size]
    try:
        expected = crc32c_using(impl, data)
    except ValueError:
        pytest.skip(f"this CPU has no {impl}")
    assert expected == crc32c.crc32c(data)
    _setup(benchmark, size, f"kafkawire {impl}", "kafkawire")
    benchmark(crc32c_using, impl, data)


@pytest.mark.parametrize("size", SIZES)
def test_crc32c_package(benchmark, size):
    _setup(benchmark, size, "crc32c package", "peer")
    benchmark(crc32c.crc32c, DATA[size])


@pytest.mark.parametrize("size", SIZES)
def test_limit_memcpy(benchmark, size):
    dst, src = copy_buffers(DATA[size])
    _setup(benchmark, size, "memcpy", "limit")
    benchmark(dst.__setitem__, slice(None), src)
