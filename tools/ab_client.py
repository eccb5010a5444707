"""Before/after rounds of the client's paths (A, B, B, A, ...) against one Tansu broker.

    python tools/ab_client.py --before ../baseline --after . [--rows 500000] [--rounds 9]
                              [--work send,send_batch,poll,poll_batch] [--codec lz4]
                              [--fetch-mb 10]

Each round runs, in a fresh process per checkout (PYTHONPATH=the checkout, its own build),
the same workloads on topics of their own: ``send`` (Producer.send per keyed record, every
future's offset read; ``send loop``, the loop of sends alone), ``send_batch`` (the rows as
two Arrow arrays in one call; the fastest of three calls, on topics of their own: one call is
a fraction of a second), ``poll``
(Consumer.poll, every field of every record touched) and ``poll_batch`` (poll_batch and
to_arrow), the producers with ``--codec``'s compression, the consumers with
``--fetch-mb`` (max.partition.fetch.bytes, five times that fetch.max.bytes; as
benchmarks/bench_consumer.py reads: 10) when given. The broker is reached directly, not
through the tests' recording proxy. A row's ratio is the median of the rounds' before/after
ratios (> 1: the after checkout is faster); wall and CPU time (process_time: every thread of
the client's process) both. One warm-up round is dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The workloads, run as ``python -c ONE_ROUND`` in each checkout: one JSON line of seconds.
ONE_ROUND = r"""
import gc, json, os, time, uuid
import numpy as np, pyarrow as pa
import kafkawire
from kafkawire.client import Client, TopicPartition

boot, n, work = os.environ["AB_BOOTSTRAP"], int(os.environ["AB_ROWS"]), os.environ["AB_WORK"]
codec = os.environ["AB_CODEC"]
reading = {"auto.offset.reset": "earliest"}
if os.environ["AB_FETCH_MB"]:
    per_partition = int(os.environ["AB_FETCH_MB"]) << 20
    reading["max.partition.fetch.bytes"] = per_partition
    reading["fetch.max.bytes"] = 5 * per_partition
keys = [b"key-%06d" % (i % 10_000) for i in range(n)]
values = [(b'{"id": %d, "payload": "' % i).ljust(99, b"x") + b"}" for i in range(n)]
config = {"linger.ms": 5, "acks": "all", "enable.idempotence": True, "compression.type": codec}
out = {}

def timed(name, fn, times=1):
    for _ in range(times):  # the fastest call counts
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        assert fn() == n, name
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if wall < out.get(name, wall + 1):
            out[name], out[name + " cpu"] = wall, cpu

def send(topic):
    with kafkawire.Producer(boot, config=config) as p:
        loop = time.perf_counter()
        futures = [p.send(topic, v, key=k) for k, v in zip(keys, values)]
        out["send loop"] = time.perf_counter() - loop  # the caller's part alone
        p.flush(60)
        return sum(1 for f in futures if f.result(60).offset >= 0)

def send_batch(topic):
    with kafkawire.Producer(boot, config=config) as p:
        arrays = pa.array(values, pa.binary()), pa.array(keys, pa.binary())
        meta = p.send_batch(topic, arrays[0], keys=arrays[1]).result(60)
        return int(np.count_nonzero(meta.offsets >= 0))

def poll(topic):
    got = total = 0
    with kafkawire.Consumer(boot, config=reading) as c:
        c.assign([TopicPartition(topic, p) for p in range(8)])
        while got < n:
            for r in c.poll(1.0):
                total += r.offset + r.timestamp + len(r.value) + len(r.key) + r.partition
                got += 1
    return got

def poll_batch(topic):
    got = 0
    with kafkawire.Consumer(boot, config=reading) as c:
        c.assign([TopicPartition(topic, p) for p in range(8)])
        while got < n:
            got += c.poll_batch(1.0).to_arrow().num_rows
    return got

with Client(boot) as admin:
    records, *batched = (f"ab-{uuid.uuid4().hex[:8]}" for _ in range(4))
    admin.create_topics({t: 8 for t in (records, *batched)})
    if "send" in work.split(","):
        timed("send", lambda: send(records))
    else:  # the polls read what it sends
        send(records)
    if "send_batch" in work.split(","):
        tries = iter(batched)
        timed("send_batch", lambda: send_batch(next(tries)), times=len(batched))
    for name, fn in (("poll", poll), ("poll_batch", poll_batch)):
        if name in work.split(","):
            timed(name, lambda fn=fn: fn(records))
    admin.delete_topics([records, *batched])
out["tree"] = os.path.dirname(os.path.dirname(kafkawire.__file__))
print(json.dumps(out))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--work", default="send,send_batch,poll,poll_batch")
    parser.add_argument("--codec", default="none", help="the producers' compression.type")
    parser.add_argument("--fetch-mb", default="", help="the consumers' MB a partition a fetch")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE.parent))
    from tests.support.broker import free_port, launch_tansu

    port = free_port()
    broker = launch_tansu(port)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    try:
        for r in range(args.rounds + 1):
            for name in list(trees) if r % 2 == 0 else list(trees)[::-1]:
                env = {
                    **os.environ,
                    "PYTHONPATH": str(trees[name]),
                    "AB_BOOTSTRAP": f"127.0.0.1:{port}",
                    "AB_ROWS": str(args.rows),
                    "AB_WORK": args.work,
                    "AB_CODEC": args.codec,
                    "AB_FETCH_MB": args.fetch_mb,
                }
                # cwd: ``python -c`` puts it first on sys.path, before PYTHONPATH
                done = subprocess.run(
                    [sys.executable, "-c", ONE_ROUND],
                    cwd=trees[name],
                    env=env,
                    capture_output=True,
                    text=True,
                )
                if done.returncode:
                    sys.exit(f"{name} round {r} failed:\n{done.stderr[-3000:]}")
                measured = json.loads(done.stdout.strip().splitlines()[-1])
                if measured.pop("tree") != str(trees[name]):
                    sys.exit(f"{name}: kafkawire was not imported from {trees[name]}")
                if r:  # round 0 warms up
                    results[name].append(measured)
    finally:
        broker.terminate()
        broker.wait(10)
    print("| path | before (s) | after (s) | before/after (rounds) |")
    print("| --- | --: | --: | --: |")
    for key in results["before"][0]:
        before = [x[key] for x in results["before"]]
        after = [x[key] for x in results["after"]]
        ratios = [b / a for b, a in zip(before, after, strict=True)]
        per_round = " ".join(f"{x:.2f}" for x in ratios)
        print(
            f"| {key} | {statistics.median(before):.3f} | {statistics.median(after):.3f} | "
            f"{statistics.median(ratios):.2f} ({per_round}) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
