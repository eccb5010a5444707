"""The documented spelling is typed: mypy checks tests/typecheck/readme_types.py (the README's
client code with ``kafkawire.Consumer``, ``kafkawire.TopicPartition``, ``kafkawire.aio``...),
where ``assert_type`` fails on anything that reaches a type checker as ``Any``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import kafkawire
import kafkawire.client

HERE = Path(__file__).parent


def test_the_readme_spelling_type_checks(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--follow-imports=silent",
            "--python-version=3.11",
            f"--cache-dir={tmp_path}",
            str(HERE / "typecheck" / "readme_types.py"),
        ],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found in 1 source file" in result.stdout


def test_every_client_name_is_at_the_top_level():
    # the blocking face's names at the top; kafkawire.aio has the asyncio ones, unprefixed
    blocking = {n for n in kafkawire.client.__all__ if not n.startswith("Async")}
    assert blocking <= set(kafkawire.__all__)
    for name in kafkawire.__all__:
        assert getattr(kafkawire, name) is not None, name
    assert kafkawire.TopicPartition is kafkawire.client.TopicPartition
    assert kafkawire.aio.Consumer is kafkawire.client.AsyncConsumer
    assert kafkawire.aio.RecordFuture is kafkawire.client.AsyncRecordFuture
