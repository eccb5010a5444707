"""``kafkawire bench``: the benchmarks of a source checkout, through pytest-benchmark."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from kafkawire.cli.common import CliError


def benchmarks_dir() -> Path | None:
    """The benchmarks/ of a source checkout that this kafkawire was installed from."""
    root = Path(__file__).resolve().parents[2]
    candidate = root / "benchmarks"
    return candidate if (candidate / "conftest.py").is_file() else None


def cmd_bench(args: argparse.Namespace) -> int:
    where = benchmarks_dir()
    if where is None:
        raise CliError(
            "bench runs the benchmark suites in benchmarks/ of a kafkawire source checkout, "
            "and this kafkawire is not installed from one: clone the repository and run "
            "'pip install -e .[bench]' (or 'make bench') there"
        )
    try:
        import pytest_benchmark  # noqa: F401
    except ImportError:
        raise CliError("bench needs pytest-benchmark: pip install -e '.[bench]'") from None
    extra = [a for a in args.pytest_args if a != "--"]
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(where),
        "-q",
        "--benchmark-only",
        # CPU time: this is often run on shared machines (what `make bench` does too)
        "--benchmark-timer=time.process_time",
        *extra,
    ]
    return subprocess.call(command, cwd=where.parent)
