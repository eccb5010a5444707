"""pytest setup for the benchmarks: collect bench_*.py, build each workload once per session."""

from __future__ import annotations

import gc
import importlib
import platform
import warnings
from pathlib import Path

import pytest
import workloads

# kafka-python 3.0 calls the deprecated importlib.resources.read_text at import time; the warning
# is attributed to importlib, so pyproject's "ignore ... kafka.*" filter misses it and the
# project's filterwarnings=error would turn it into a failure. Import it once here, quietly.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    for _mod in ("kafka", "kafka.record.default_records", "kafka.record.memory_records"):
        importlib.import_module(_mod)


def pytest_configure(config):
    # --benchmark-json=out/bench.json: create out/ now rather than fail after the whole run.
    target = config.getoption("benchmark_json", None)
    if target:
        Path(target).parent.mkdir(parents=True, exist_ok=True)


def pytest_collect_file(file_path, parent):
    # The project's python_files (pyproject.toml) only covers tests/; benchmarks live in bench_*.py.
    # Files named on the command line are collected by pytest itself: do not add them twice.
    if parent.session.isinitpath(file_path):
        return None
    if file_path.suffix == ".py" and file_path.name.startswith("bench_"):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


# Within a workload, each target's two sides next to each other; the slow kafka-python last.
_RUN_ORDER = [
    "test_limit_crc32c",
    "test_kafkawire_decode_records",
    "test_limit_crc32c_decompress",
    "test_limit_decompress",
    "test_kafkawire_read_batches",
    "test_aiokafka",
    "test_limit_python_loop",
    "test_kafkawire_batch_builder",
    "test_kafkawire_build_batches",
    "test_limit_memcpy",
    "test_paired",
]


def pytest_collection_modifyitems(items):
    # Workload by workload within each file: kafkawire, its peers and the limits of one workload
    # run back to back, so that the speed of this shared machine, which drifts by up to 2x over
    # minutes, moves them together and the ratios stay meaningful.
    def workload_key(item):
        spec = getattr(item, "callspec", None)
        workload = spec.params.get("workload") if spec else None
        return (str(item.path), "" if workload is None else workload)

    def rank(item):
        name = getattr(item, "originalname", item.name)
        return _RUN_ORDER.index(name) if name in _RUN_ORDER else len(_RUN_ORDER)

    firsts: dict[tuple[str, str], int] = {}
    for i, item in enumerate(items):
        firsts.setdefault(workload_key(item), i)
    # stable: files and tests without a workload keep their places
    items.sort(key=lambda item: (firsts[workload_key(item)], rank(item)))


@pytest.fixture(scope="session")
def get_workload():
    """name -> Workload, built on first use (deterministic seed) and shared by every benchmark."""
    cache: dict[str, workloads.Workload] = {}

    def get(name: str) -> workloads.Workload:
        if name not in cache:
            cache[name] = workloads.build(name)
            # The cached inputs are millions of long-lived objects: freeze them so that full GC
            # passes triggered inside a benchmark do not scan them. Otherwise the result depends
            # on how many workloads this session happens to hold.
            gc.collect()
            gc.freeze()
        return cache[name]

    return get


def pytest_benchmark_update_machine_info(config, machine_info):
    # Versions and which aiokafka implementation ran go into the JSON, next to the numbers.
    import aiokafka
    import crc32c
    import kafka

    info = {
        "python": platform.python_version(),
        "aiokafka": aiokafka.__version__,
        "aiokafka_records": workloads.aiokafka_records_impl(),
        "kafka-python": kafka.__version__,
        "crc32c": f"{crc32c.__version__} hardware_based={crc32c.hardware_based}",
    }
    try:
        import kafkawire

        info["kafkawire"] = getattr(kafkawire, "__version__", "?")
    except ImportError as e:
        info["kafkawire"] = f"not importable: {e}"
    machine_info["kafkawire_bench"] = info
