"""Writing record batches: kafkawire vs aiokafka (Cython) vs kafka-python vs physical limits.

One group per workload ("build <workload>"). Builders get Python objects (bytes keys/values,
int timestamps, header lists) and produce batches of the workload's batch size; the columnar
encoder gets pyarrow binary arrays, a numpy int64 timestamp array and (headers workload) a
  list<struct<key: string, value: binary>> array (prepared outside the timing).
extra_info "bytes" is each implementation's own output size.
"""

from __future__ import annotations

import functools

import crc32c
import numpy as np
import pytest
import workloads
from workloads import BUILD_WORKLOADS, copy_buffers, kafkawire_attr, paired_target


def _setup(benchmark, wl, impl, kind, role, out_bytes, batches, **extra):
    benchmark.group = f"build {wl.name}"
    benchmark.extra_info.update(
        suite="records",  # what tools/bench_report.py picks out of a JSON with other suites
        op="build",
        workload=wl.name,
        impl=impl,
        kind=kind,
        role=role,
        bytes=out_bytes,
        records=wl.n_records,
        batches=batches,
        codec=wl.spec.codec or "none",
        **extra,
    )


def _peer_build(builder_cls, wl):
    # The producer loop of aiokafka/kafka-python: append until full, then build and start over.
    keys, values, timestamps, headers = wl.keys, wl.values, wl.timestamps, wl.headers
    size = wl.spec.batch_size
    out = []
    builder, in_batch = builder_cls(2, 0, 0, -1, -1, -1, size), 0
    for i in range(len(values)):
        if builder.append(in_batch, timestamps[i], keys[i], values[i], headers[i]) is None:
            out.append(builder.build())
            builder, in_batch = builder_cls(2, 0, 0, -1, -1, -1, size), 0
            builder.append(in_batch, timestamps[i], keys[i], values[i], headers[i])
        in_batch += 1
    out.append(builder.build())
    return out


def _kafkawire_build(builder_cls, wl):
    keys, values, timestamps, headers = wl.keys, wl.values, wl.timestamps, wl.headers
    size = wl.spec.batch_size
    out = []
    builder = builder_cls(max_bytes=size)
    append = builder.append
    for i in range(len(values)):
        if not append(values[i], key=keys[i], timestamp=timestamps[i], headers=headers[i]):
            out.append(builder.build())
            builder = builder_cls(max_bytes=size)
            append = builder.append
            append(values[i], key=keys[i], timestamp=timestamps[i], headers=headers[i])
    out.append(builder.build())
    return out


def _columnar_args(wl):
    values, keys, timestamps, headers = wl.arrow_columns()
    kwargs = {"keys": keys, "timestamps": timestamps, "max_bytes": wl.spec.batch_size}
    if headers is not None:
        kwargs["headers"] = headers
    return values, kwargs


def _total(batches):
    return sum(len(b) for b in batches)


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_kafkawire_batch_builder(benchmark, get_workload, workload):
    builder_cls = kafkawire_attr("BatchBuilder")
    wl = get_workload(workload)
    out = _kafkawire_build(builder_cls, wl)
    _setup(benchmark, wl, "kafkawire.BatchBuilder", "objects", "kafkawire", _total(out), len(out))
    benchmark(_kafkawire_build, builder_cls, wl)


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_kafkawire_build_batches(benchmark, get_workload, workload):
    build_batches = kafkawire_attr("build_batches")
    wl = get_workload(workload)
    values, kwargs = _columnar_args(wl)
    out = build_batches(values, **kwargs)
    _setup(benchmark, wl, "kafkawire.build_batches", "columnar", "kafkawire", _total(out), len(out))
    benchmark(build_batches, values, **kwargs)


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_aiokafka(benchmark, get_workload, workload):
    _, _, builder_cls = workloads.aiokafka_cython()
    wl = get_workload(workload)
    out = _peer_build(builder_cls, wl)
    _setup(benchmark, wl, "aiokafka (Cython)", "objects", "peer", _total(out), len(out))
    benchmark(_peer_build, builder_cls, wl)


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_kafka_python(benchmark, get_workload, workload):
    from kafka.record.default_records import DefaultRecordBatchBuilder

    wl = get_workload(workload)
    out = _peer_build(DefaultRecordBatchBuilder, wl)
    _setup(benchmark, wl, "kafka-python", "objects", "peer", _total(out), len(out))
    # Pure Python and slow: a few rounds are plenty.
    benchmark.pedantic(_peer_build, (DefaultRecordBatchBuilder, wl), rounds=3)


def _limit_input(wl):
    """The bytes the limits run over: the columnar encoder's output when it exists."""
    try:
        import kafkawire

        values, kwargs = _columnar_args(wl)
        return b"".join(kafkawire.build_batches(values, **kwargs)), "kafkawire.build_batches"
    except (ImportError, AttributeError, TypeError, NotImplementedError):
        return wl.data, "aiokafka builder (build_batches unavailable)"


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_limit_crc32c(benchmark, get_workload, workload):
    wl = get_workload(workload)
    data, source = _limit_input(wl)
    _setup(benchmark, wl, "crc32c", "checksum", "limit", len(data), None, over=source)
    benchmark(crc32c.crc32c, data)


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_limit_memcpy(benchmark, get_workload, workload):
    wl = get_workload(workload)
    data, source = _limit_input(wl)
    _setup(benchmark, wl, "memcpy", "copy (preallocated)", "limit", len(data), None, over=source)
    dst, src = copy_buffers(data)
    benchmark(np.copyto, dst, src)


class _AppendNothing:
    """A builder whose append does nothing, with BatchBuilder's signature: what the producer
    loop itself costs (the Python loop and one call a record), the bound any builder called
    from Python per record pays."""

    def __init__(self, *, max_bytes):
        pass

    def append(self, value, *, key=None, timestamp=None, headers=()):
        return True

    def build(self):
        return b""


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_limit_python_call(benchmark, get_workload, workload):
    wl = get_workload(workload)
    _setup(benchmark, wl, "python loop", "the loop and a call per record", "limit", 0, None)
    benchmark(_kafkawire_build, _AppendNothing, wl)


def _compiled_append_nothing():
    """append_nothing.pyx's AppendNothing, compiled here on first use (pyximport)."""
    pyximport = pytest.importorskip("pyximport")
    importers = pyximport.install(language_level=3)
    try:
        from append_nothing import AppendNothing
    finally:
        pyximport.uninstall(*importers)
    return AppendNothing


@pytest.mark.parametrize("workload", BUILD_WORKLOADS)
def test_limit_compiled_call(benchmark, get_workload, workload):
    """The loop calling a compiled append that does nothing: the bound of any builder called
    per record from Python, the share of BatchBuilder's time that is not its own."""
    builder_cls = _compiled_append_nothing()
    wl = get_workload(workload)
    kind = "the loop and a compiled call per record"
    _setup(benchmark, wl, "compiled call", kind, "limit", 0, None)
    benchmark(_kafkawire_build, builder_cls, wl)


def _floor(wl):
    """What any builder called once a record from Python cannot go below: the loop calling
    the compiled no-op, then BatchBuilder's output copied once (preallocated) and its
    CRC-32C taken (a builder writes each record's bytes and checksums them)."""
    builder_cls = _compiled_append_nothing()
    data = b"".join(_kafkawire_build(kafkawire_attr("BatchBuilder"), wl))
    dst, src = copy_buffers(data)

    def run():
        _kafkawire_build(builder_cls, wl)
        np.copyto(dst, src)
        crc32c.crc32c(data)

    return run


# Targets measured in paired rounds, each side against aiokafka's builder in alternation: the
# goal (BatchBuilder >= 3x) and the bound the per-record loop, the copy and the CRC put on it.
# tools/bench_report.py reads them.
PAIRS = {
    "BatchBuilder vs aiokafka": lambda wl: functools.partial(
        _kafkawire_build, kafkawire_attr("BatchBuilder"), wl
    ),
    "floor (loop, copy, CRC) vs aiokafka": _floor,
}


@pytest.mark.parametrize(("workload", "pair"), [(w, p) for p in PAIRS for w in BUILD_WORKLOADS])
def test_paired(benchmark, get_workload, workload, pair):
    wl = get_workload(workload)
    _, _, peer_cls = workloads.aiokafka_cython()
    ours = PAIRS[pair](wl)
    paired_target(
        benchmark, wl.name, pair, "speedup", ours, functools.partial(_peer_build, peer_cls, wl)
    )
