"""Before/after benchmarks: the same suites run in two checkouts, in alternation (A, B, A, B ...).

    python tools/bench_ab.py --before ../baseline --after . -- benchmarks/bench_crc.py

Each checkout runs its own benchmarks against its own build (PYTHONPATH=the checkout), so a
restructuring that moved modules is compared with the code it replaced. Alternating whole runs
lets this shared machine's slow and fast phases fall on both sides alike; a row's ratio is the
median of the rounds' own before/after ratios (> 1: the after checkout is faster). Rows slower
than --flag are marked.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH_ARGS = [
    "--benchmark-only",
    "--benchmark-timer=time.process_time",
    "-q",
    "-p",
    "no:cacheprovider",
]


def run(tree: Path, args: list[str], out: Path) -> dict[str, float]:
    """Median seconds of each benchmark of one run in ``tree``, by name."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "pytest", *BENCH_ARGS, f"--benchmark-json={out}", *args]
    subprocess.run(command, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    doc = json.loads(out.read_text())
    return {b["name"]: b["stats"]["median"] for b in doc["benchmarks"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--flag", type=float, default=0.9, help="mark ratios below this")
    parser.add_argument("--out", type=Path, default=Path("out"))
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    before: list[dict[str, float]] = []
    after: list[dict[str, float]] = []
    for i in range(args.rounds):
        before.append(
            run(args.before.resolve(), args.pytest_args, args.out.resolve() / f"ab-before-{i}.json")
        )
        after.append(
            run(args.after.resolve(), args.pytest_args, args.out.resolve() / f"ab-after-{i}.json")
        )
    names = [n for n in after[0] if all(n in r for r in before + after)]
    print("| benchmark | before (ms) | after (ms) | before/after (rounds) |")
    print("| --- | --: | --: | --: |")
    slower = 0
    for name in names:
        ratios = [b[name] / a[name] for b, a in zip(before, after, strict=True)]
        ratio = statistics.median(ratios)
        mark = " **slower**" if ratio < args.flag else ""
        slower += bool(mark)
        per_round = " ".join(f"{r:.2f}" for r in ratios)
        b_ms = statistics.median(r[name] for r in before) * 1e3
        a_ms = statistics.median(r[name] for r in after) * 1e3
        print(f"| {name} | {b_ms:.3f} | {a_ms:.3f} | {ratio:.2f}{mark} ({per_round}) |")
    missing = sorted({n for r in before + after for n in r} - set(names))
    if missing:
        print(f"\nin one checkout only: {', '.join(missing)}")
    print(f"\n{len(names)} benchmarks, {slower} below {args.flag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
