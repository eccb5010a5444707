"""Replay the committed fuzzing corpora (fuzz/corpus/<target>/) through the fuzz
targets themselves (fuzz/targets.py): every input gives a value or a
kafkawire.DecodeError and keeps each target's other checks; nothing else may
escape.  The corpora hold what the fuzzers found interesting, including the
inputs of every crash fixed (docs/hostile-input.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

FUZZ = Path(__file__).parent.parent / "fuzz"


def _load_targets():
    spec = importlib.util.spec_from_file_location("kafkawire_fuzz_targets", FUZZ / "targets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


targets = _load_targets()

CASES = [
    (name, path)
    for name in sorted(targets.TARGETS)
    if (FUZZ / "corpus" / name).is_dir()
    for path in sorted((FUZZ / "corpus" / name).iterdir())
]


@pytest.mark.parametrize("target", sorted(targets.TARGETS))
def test_every_target_has_a_corpus(target):
    directory = FUZZ / "corpus" / target
    files = list(directory.iterdir()) if directory.is_dir() else []
    assert len(files) >= 10, f"fuzz/corpus/{target} has {len(files)} inputs"
    # small files, a few dozen a target: a corpus, not a dump
    assert len(files) <= 120
    assert all(f.stat().st_size <= 64 * 1024 for f in files)


@pytest.mark.parametrize(
    ("target", "path"), CASES, ids=[f"{name}-{path.name[:12]}" for name, path in CASES]
)
def test_corpus_input(target, path):
    targets.TARGETS[target](path.read_bytes())
