"""One local SparkSession (local[2]) for the Spark tests, with the kafkawire data sources
found the way an installed kafkawire offers them: top-level ``pyspark_*`` modules that
pyspark's data source lookup imports (see docs/spark.md)."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass

import pytest

# The modules an installed kafkawire ships for Spark's automatic data source lookup
# (pyspark/sql/worker/lookup_data_sources.py imports every top-level module named pyspark_*
# and registers its DefaultSource).
AUTOLOAD_MODULES = {
    "pyspark_kafkawire": "from kafkawire.spark._sources import KafkaDataSource as DefaultSource\n",
    "pyspark_kafkawire_segments": (
        "from kafkawire.spark._sources import SegmentDataSource as DefaultSource\n"
    ),
}


@dataclass
class SparkFixture:
    session: object
    found_at_start: dict[str, bool]


@pytest.fixture(scope="session")
def spark_fixture(tmp_path_factory) -> SparkFixture:
    shim = tmp_path_factory.mktemp("pyspark-autoload")
    for name, source in AUTOLOAD_MODULES.items():
        (shim / f"{name}.py").write_text(source)
    # workers must run this interpreter (it has kafkawire and pyarrow) and see the shim
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(shim), os.environ.get("PYTHONPATH")) if p
    )
    from pyspark.sql import SparkSession

    if "asan" in os.environ.get("LD_PRELOAD", ""):
        _unsanitized_ps(tmp_path_factory.mktemp("bin"))
    session = (
        SparkSession.builder.master("local[2]")
        .appName("kafkawire-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    manager = session._jsparkSession.sessionState().dataSourceManager()
    found = {name: manager.dataSourceExists(name) for name in ("kafkawire", "kafkawire_segments")}
    yield SparkFixture(session, found)
    session.stop()


def _unsanitized_ps(bin_dir) -> None:
    """Under `make test-asan` the sanitizer runtimes are preloaded into every process, the JVM
    and the Python workers it starts included (they import the ASan-built extensions). Spark's
    launch script runs `ps`, which hangs with ASan preloaded: give it a `ps` without."""
    real = shutil.which("ps")
    ps = bin_dir / "ps"
    ps.write_text(f'#!/bin/sh\nunset LD_PRELOAD\nexec {real} "$@"\n')
    ps.chmod(0o755)
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


@pytest.fixture(scope="session")
def spark(spark_fixture):
    return spark_fixture.session
