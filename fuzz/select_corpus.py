"""Refresh a committed corpus (fuzz/corpus/<target>/) from a merged one.

    python fuzz/select_corpus.py MERGED_DIR fuzz/corpus/TARGET [N]

MERGED_DIR is what libFuzzer's -merge=1 kept of the work corpus (the inputs
that each add coverage).  N of them (50) are kept, spread evenly over their
sizes so that both the small focused inputs and the larger structured ones
stay; the regression inputs (regress-*) always stay.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

MAX_SIZE = 64 * 1024


def main(merged: Path, dest: Path, n: int = 50) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.iterdir():
        if not old.name.startswith("regress-"):
            old.unlink()
    files = sorted(
        (f for f in merged.iterdir() if f.stat().st_size <= MAX_SIZE),
        key=lambda f: (f.stat().st_size, f.name),
    )
    if len(files) > n:
        files = [files[round(i * (len(files) - 1) / (n - 1))] for i in range(n)]
    for f in files:
        data = f.read_bytes()
        shutil.copyfile(f, dest / hashlib.sha1(data).hexdigest())
    print(f"{dest}: {len(files)} inputs from {merged}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 50)
