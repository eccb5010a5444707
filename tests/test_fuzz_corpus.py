"""Replay the fuzzing corpus (fuzz/corpus/records): every input gives a value
or a kafkawire.DecodeError, as the fuzz target fuzz/fuzz_records.py demands."""

from __future__ import annotations

from pathlib import Path

import pytest

import kafkawire
from kafkawire import DecodeError

CORPUS = sorted((Path(__file__).parent.parent / "fuzz" / "corpus" / "records").iterdir())


def test_corpus_is_there():
    assert len(CORPUS) >= 10


@pytest.mark.parametrize("path", CORPUS, ids=[p.name[:16] for p in CORPUS])
def test_corpus_input(path):
    data = path.read_bytes()
    try:
        view = kafkawire.decode_records(data, max_decompressed_size=1 << 20)
        for i in range(len(view)):
            view.headers(i)
        view.to_arrow(binary="plain")
        view.to_arrow(binary="view")
    except DecodeError:
        pass
    try:
        for batch in kafkawire.read_batches(data, max_decompressed_size=1 << 20):
            batch.records()
    except DecodeError:
        pass
