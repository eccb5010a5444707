"""Turn pytest-benchmark JSON files into Markdown tables and the issue's target checks.

    pytest benchmarks --benchmark-only --benchmark-json=out/bench.json
    python tools/bench_report.py out/bench.json [out/bench-2.json ...]

Several files are several runs of the same benchmarks: each time becomes the median of the
runs' (this shared machine's speed drifts between runs; one run can be off by 1.5x). Each
ratio is the median of the runs' own ratios: a run measures both sides of a ratio back to
back (benchmarks/conftest.py), so the drift between runs stays out of it.

Needs the extra_info written by benchmarks/bench_*.py (op, workload, impl, kind, role, bytes,
records). Ratios: "vs peer" = peer time / this time (same records, > 1 is faster); "vs limit"
= this MB/s / the limit's MB/s.

The consumer's and the producer's suites (bench_consumer.py, bench_producer.py) are paired
rounds of their own: their ratios come from extra_info (consumer_shares, producer_report).

Paired rounds (bench_records.py::test_paired) time both sides of a target in alternation; a
run's ratio is the median of its rounds' ratios. Where a target has them, they decide it:
this machine's speed phases last seconds, so two separate benchmarks of a few seconds each
can be measured at speeds 1.3-1.5x apart, while the two halves of a round cannot.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass

PEER = "aiokafka (Cython)"
ORDER = {"kafkawire": 0, "peer": 1, "limit": 2}


@dataclass
class Row:
    group: str
    op: str
    workload: str
    impl: str
    kind: str
    role: str
    codec: str
    seconds: float
    run_seconds: list[float]  # the statistic of each run
    best: float
    rounds: int
    nbytes: int
    records: int
    batches: int | None
    extra: dict

    @property
    def mbps(self) -> float:
        return self.nbytes / self.seconds / 1e6

    @property
    def recps(self) -> float:
        return self.records / self.seconds


def merge_runs(docs: list[dict]) -> dict:
    """Runs of the same benchmarks as one: each time statistic is the median of the runs';
    "run_stats" keeps each run's own."""
    if len(docs) == 1:
        return {
            **docs[0],
            "benchmarks": [
                {**b, "run_stats": [b["stats"]], "run_extra": [b.get("extra_info") or {}]}
                for b in docs[0]["benchmarks"]
            ],
        }
    runs: dict[str, list[dict]] = {}
    for d in docs:
        for b in d["benchmarks"]:
            runs.setdefault(b["fullname"], []).append(b)
    merged = []
    for b in docs[0]["benchmarks"]:
        these = runs[b["fullname"]]
        stats = dict(b["stats"])
        for k in ("min", "median", "mean", "max"):
            stats[k] = statistics.median(r["stats"][k] for r in these)
        stats["rounds"] = sum(r["stats"]["rounds"] for r in these)
        merged.append(
            {
                **b,
                "stats": stats,
                "runs": len(these),
                "run_stats": [r["stats"] for r in these],
                "run_extra": [r.get("extra_info") or {} for r in these],
            }
        )
    return {**docs[0], "benchmarks": merged, "runs": [d.get("datetime", "?") for d in docs]}


def load(paths: list[str], stat: str) -> tuple[dict, list[Row]]:
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append(json.load(f))
    doc = merge_runs(docs)
    rows = []
    for b in doc["benchmarks"]:
        x = b.get("extra_info") or {}
        if x.get("suite") != "records":
            continue  # another suite's benchmark (e.g. bench_codecs.py)
        rows.append(
            Row(
                group=b["group"] or x["workload"],
                op=x["op"],
                workload=x["workload"],
                impl=x["impl"],
                kind=x["kind"],
                role=x["role"],
                codec=x.get("codec", "none"),
                seconds=b["stats"][stat],
                run_seconds=[r[stat] for r in b["run_stats"]],
                best=b["stats"]["min"],
                rounds=b["stats"]["rounds"],
                nbytes=x["bytes"],
                records=x["records"],
                batches=x.get("batches"),
                extra=x,
            )
        )
    return doc, rows


@dataclass
class Paired:
    workload: str
    pair: str
    value: float  # the median of the runs' ratios
    each: list[float]  # each run's: the median of its rounds' ratios
    rounds: int
    ours_ms: float  # medians over all rounds
    theirs_ms: float
    speedup: bool  # the ratio is their time over ours (else ours over theirs)
    lowest: float  # the lowest ratio of any one round


def paired(doc: dict) -> dict[tuple[str, str], Paired]:
    """(workload, pair) -> the paired-rounds measurement of that target."""
    out = {}
    for b in doc["benchmarks"]:
        runs = [x for x in b.get("run_extra", []) if x.get("suite") == "paired"]
        if not runs:
            continue
        each, ours, theirs, every = [], [], [], []
        for x in runs:
            o, t = x["ours_seconds"], x["theirs_seconds"]
            # speed-up: their time over ours; time: ours over theirs (the limit's)
            ratios = [
                t_ / o_ if x["how"] == "speedup" else o_ / t_ for o_, t_ in zip(o, t, strict=True)
            ]
            each.append(statistics.median(ratios))
            every += ratios
            ours += o
            theirs += t
        x = runs[0]
        out[(x["workload"], x["pair"])] = Paired(
            x["workload"],
            x["pair"],
            statistics.median(each),
            each,
            len(ours),
            statistics.median(ours) * 1e3,
            statistics.median(theirs) * 1e3,
            x["how"] == "speedup",
            min(every),
        )
    return out


def paired_table(pairs: dict[tuple[str, str], Paired]) -> list[str]:
    if not pairs:
        return []
    out = [
        "### Paired rounds",
        "",
        "Both sides of a target timed in alternation, round after round (see the top of "
        "this report); the ratio is the median of the runs' medians of per-round ratios.",
        "",
        "| workload | pair | ratio | per run | rounds | ours median ms | theirs median ms |",
        "|---|---|--:|---|--:|--:|--:|",
    ]
    for p in pairs.values():
        per_run = " / ".join(f"{v:.2f}" for v in p.each)
        out.append(
            f"| {p.workload} | {p.pair} | {p.value:.2f}x {'faster' if p.speedup else 'the time'} "
            f"| {per_run} | {p.rounds} "
            f"| {p.ours_ms:.2f} | {p.theirs_ms:.2f} |"
        )
    return [*out, ""]


def limit_name(op: str, codec: str) -> str:
    # Compressed reads cannot beat checksum + decompression; everything else is bounded by crc32c.
    return "crc32c+decompress" if op == "read" and codec != "none" else "crc32c"


def time_ratio(num: Row, den: Row) -> tuple[float, list[float]]:
    """num's time over den's: the median of the runs' ratios, and those ratios."""
    each = [a / b for a, b in zip(num.run_seconds, den.run_seconds, strict=True)]
    return statistics.median(each), each


def _speedup(peer_runs: list[float], our_runs: list[float]) -> str:
    """The median of the runs' speed-ups (peer time over ours), formatted; a dash when a time
    is 0 (a minimum below process_time's resolution)."""
    if 0 in peer_runs or 0 in our_runs:
        return "—"
    return f"{statistics.median(p / o for p, o in zip(peer_runs, our_runs, strict=True)):.2f}x"


def _per_run(each: list[float]) -> str:
    return "" if len(each) < 2 else " (runs: " + " / ".join(f"{v:.2f}" for v in each) + ")"


def _fmt_ratio(r: float | None) -> str:
    return "—" if r is None else f"{r:.2f}x"


def _fmt_num(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:.2f}"


def group_table(rows: list[Row], stat: str) -> list[str]:
    first = rows[0]
    by_impl = {r.impl: r for r in rows}
    peer = by_impl.get(PEER)
    lim_name = limit_name(first.op, first.codec)
    lim = by_impl.get(lim_name)
    input_note = (
        f"{first.records:,} records, input {first.nbytes / 1e6:.1f} MB"
        f" in {first.batches} batches, codec {first.codec}"
        if first.op == "read"
        else f"{first.records:,} records from Python objects / arrow columns, codec {first.codec}"
    )
    out = [
        f"### {first.group}",
        "",
        input_note,
        "",
        f"| implementation | what | {stat} ms | min ms | rounds | MB/s | records/s "
        f"| vs {PEER} | vs {lim_name} |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in sorted(rows, key=lambda r: (ORDER.get(r.role, 9), r.seconds)):
        what = r.kind
        if r.extra.get("crc"):
            what += f", CRC {r.extra['crc']}"
        vs_peer = time_ratio(peer, r)[0] if peer and r.role != "limit" else None
        # throughput over the limit's; both are over the same bytes except in build groups
        vs_lim = time_ratio(lim, r)[0] * (r.nbytes / lim.nbytes) if lim else None
        out.append(
            f"| {r.impl} | {what} | {r.seconds * 1e3:.2f} | {r.best * 1e3:.2f} | {r.rounds} "
            f"| {_fmt_num(r.mbps) if r.nbytes else '—'} "  # a loop alone writes no bytes
            f"| {r.recps:,.0f} | {_fmt_ratio(vs_peer)} | {_fmt_ratio(vs_lim)} |"
        )
    out.append("")
    return out


@dataclass
class Check:
    text: str
    met: bool | None  # None: not measured
    detail: str


def _ceiling(peer: Row, decompress: Row | None, loop: Row | None) -> str:
    """How far any reader could beat the peer: both decompress every payload (the bare
    decompression's time), and every reader of record objects pays the consumer's loop over
    them (the loop over records made beforehand)."""
    parts = []
    if decompress is not None:
        parts.append(f"if records cost nothing {time_ratio(peer, decompress)[0]:.2f}x")
    if loop is not None:
        base = decompress.run_seconds if decompress else [0.0] * len(loop.run_seconds)
        floor = [d + x for d, x in zip(base, loop.run_seconds, strict=True)]
        each = [p / f for p, f in zip(peer.run_seconds, floor, strict=True)]
        what = "decompression and the loop" if decompress else "the loop"
        parts.append(f"if only {what} cost anything {statistics.median(each):.2f}x")
    return "ceiling " + ", ".join(parts)


def checks(groups: dict[str, list[Row]], pairs: dict[tuple[str, str], Paired]) -> list[Check]:
    res: list[Check] = []

    def decide_by_pairs(check: Check, workload: str, pair: str, target: float, speedup: bool):
        """The paired rounds, where measured, decide the target (see the top)."""
        p = pairs.get((workload, pair))
        if p is None or check.met is None:
            return
        check.met = p.value >= target if speedup else p.value <= target
        check.detail = (
            f"paired rounds {p.value:.2f}x{_per_run(p.each)}; separate benchmarks " + check.detail
        )

    def get(rows, impl):
        return next((r for r in rows if r.impl == impl), None)

    def ratio_check(text, num, den, target, how):
        if num is None or den is None:
            missing = " and ".join(
                n for n, r in (("kafkawire", num), ("reference", den)) if r is None
            )
            check = Check(text, None, f"{missing} missing")
        else:
            # speedup: same work, so a time ratio; throughput: each on its own bytes.
            value, each = time_ratio(den, num)
            if how == "throughput":
                scale = num.nbytes / den.nbytes
                value, each = value * scale, [v * scale for v in each]
            check = Check(
                text, value >= target, f"{value:.2f}x (target ≥ {target}x){_per_run(each)}"
            )
        res.append(check)
        return check

    def pair_check(text, workload, pair, target, speedup, every_round=False):
        """A target that only paired rounds measure (issue 22's all-fields rows)."""
        p = pairs.get((workload, pair))
        if p is None:
            return
        measured = p.lowest if every_round else p.value
        met = measured >= target if speedup else measured <= target
        detail = f"paired rounds {p.value:.2f}x{_per_run(p.each)}"
        if every_round:
            detail += f", lowest round {p.lowest:.2f}x"
        res.append(Check(text, met, detail))

    for workload, pair in pairs:
        if workload == "avro-10-fields-1M" and "loop without" not in pair:
            pair_check(
                f"{workload}: {pair} to an Arrow table, ≥ 20x the peer (issue 23)",
                workload,
                pair,
                20,
                True,
            )
            continue
        if workload == "protobuf-10-fields-1M" and "loop without" not in pair:
            pair_check(
                f"{workload}: {pair} to an Arrow table, ≥ 20x the peer (issue 23)",
                workload,
                pair,
                20,
                True,
            )
            continue
        if pair == "read_batches all fields vs aiokafka":
            pair_check(
                f"{workload}: read_batches, every field touched, ≥ 2x aiokafka's (same loop)",
                workload,
                pair,
                2,
                True,
            )
        elif pair == "decode_records all columns vs aiokafka all fields" and "KiB" in workload:
            pair_check(
                f"{workload}: decode_records, every column touched, ≥ 12x aiokafka's "
                "all-fields loop",
                workload,
                pair,
                12,
                True,
            )
        elif pair == "decode_records vs crc32c":
            # a time ratio: 0.75 of crc32c's throughput is at most 1/0.75 its time
            pair_check(
                f"{workload}: decode_records ≥ 0.75x crc32c-alone throughput (paired)",
                workload,
                pair,
                round(1 / 0.75, 3),
                False,
            )
        elif pair == "decode vs kio":
            pair_check(
                f"{workload}: decode ≥ 2.5x kio in every round (paired rounds)",
                workload,
                pair,
                2.5,
                True,
                every_round=True,
            )

    for rows in groups.values():
        op, codec, wl = rows[0].op, rows[0].codec, rows[0].workload
        dec = get(rows, "kafkawire.decode_records")
        if op == "read" and codec == "none":
            loop, peer = get(rows, "python loop"), get(rows, PEER)
            ratio_check(
                f"{wl}: decode_records (CRC) ≥ 10x aiokafka Cython reader (no CRC)",
                dec,
                get(rows, PEER),
                10,
                "speedup",
            )
            ratio_check(
                f"{wl}: decode_records ≥ 0.5x crc32c-alone throughput",
                dec,
                get(rows, "crc32c"),
                0.5,
                "throughput",
            )
            check = ratio_check(
                f"{wl}: read_batches objects (CRC) ≥ 2x aiokafka Cython reader (no CRC)",
                get(rows, "kafkawire.read_batches"),
                peer,
                2,
                "speedup",
            )
            if loop is not None and peer is not None and check.met is not None:
                check.detail += "; " + _ceiling(peer, None, loop)
            decide_by_pairs(check, wl, "read_batches vs aiokafka", 2, True)
            if dec is None or "bytes_per_record_above_input" not in dec.extra:
                res.append(
                    Check(
                        f"{wl}: decode_records peak ≤ input + 40 B/record",
                        None,
                        "decode_records missing",
                    )
                )
            else:
                bpr = dec.extra["bytes_per_record_above_input"]  # of the first run
                rss = dec.extra.get("rss_bytes_per_record_above_input")
                detail = (
                    f"tracemalloc: input + {bpr:.1f} B/record "
                    f"({dec.extra['tracemalloc_peak_with_columns'] / 1e6:.1f} MB above the "
                    f"{dec.nbytes / 1e6:.1f} MB input)"
                )
                if rss is not None:
                    # RSS also sees malloc() in C code, which tracemalloc does not.
                    detail += f"; peak RSS of a fresh process: input + {rss:.1f} B/record"
                    if rss > 40:
                        detail += " (**over 40 by RSS**)"
                res.append(
                    Check(f"{wl}: decode_records peak ≤ input + 40 B/record", bpr <= 40, detail)
                )
        elif op == "read":
            lim = get(rows, "crc32c+decompress")
            if dec is None or lim is None:
                res.append(
                    Check(
                        f"{wl}: decode_records within 1.25x of crc32c + decompression",
                        None,
                        "decode_records or the limit missing",
                    )
                )
            else:
                value, each = time_ratio(dec, lim)
                check = Check(
                    f"{wl}: decode_records within 1.25x of crc32c + decompression",
                    value <= 1.25,
                    f"{value:.2f}x the time (target ≤ 1.25x){_per_run(each)}",
                )
                decide_by_pairs(check, wl, "decode_records vs crc32c+decompress", 1.25, False)
                res.append(check)
            peer = get(rows, PEER)
            check = ratio_check(
                f"{wl}: read_batches objects (CRC) ≥ 2x aiokafka Cython reader (no CRC)",
                get(rows, "kafkawire.read_batches"),
                peer,
                2,
                "speedup",
            )
            if lim is not None and check.met is not None:
                check.detail += "; " + _ceiling(peer, lim, get(rows, "python loop"))
            decide_by_pairs(check, wl, "read_batches vs aiokafka", 2, True)
        elif op == "build":
            peer = get(rows, PEER)
            check = ratio_check(
                f"{wl}: BatchBuilder ≥ 3x aiokafka Cython builder",
                get(rows, "kafkawire.BatchBuilder"),
                peer,
                3,
                "speedup",
            )
            floor = get(rows, "compiled call")  # the loop and a compiled append doing nothing
            if floor is not None and check.met is not None:
                check.detail += (
                    f"; ceiling if only the loop cost anything {time_ratio(peer, floor)[0]:.2f}x"
                )
            decide_by_pairs(check, wl, "BatchBuilder vs aiokafka", 3, True)
            bound = pairs.get((wl, "floor (loop, copy, CRC) vs aiokafka"))
            if bound is not None and check.met is not None:
                check.detail += (
                    f"; paired ceiling (the floor) {bound.value:.2f}x{_per_run(bound.each)}, "
                    f"lowest round {bound.lowest:.2f}x"
                )
            ratio_check(
                f"{wl}: build_batches ≥ 0.3x crc32c-alone throughput on its output",
                get(rows, "kafkawire.build_batches"),
                get(rows, "crc32c"),
                0.3,
                "throughput",
            )
    return res


# Message codec targets (issue 3): op -> (peer, minimum speed-up of kafkawire over it)
MESSAGE_TARGETS = {
    "decode": (("kio", 2.0), ("kafka-python", 5.0)),
    "encode": (("kio", 10.0),),
}


def message_report(doc: dict, stat: str) -> list[str]:
    """Tables and target checks for the message-codec suite (bench_messages.py)."""
    groups: dict[str, dict[str, float]] = {}
    runs: dict[str, dict[str, list[float]]] = {}
    sizes: dict[str, int] = {}
    for b in doc["benchmarks"]:
        x = b.get("extra_info") or {}
        if x.get("suite") != "messages":
            continue
        groups.setdefault(b["group"], {})[x["impl"]] = b["stats"][stat]
        runs.setdefault(b["group"], {})[x["impl"]] = [r[stat] for r in b["run_stats"]]
        sizes[b["group"]] = x["bytes"]
    if not groups:
        return []
    out = []
    checks_out = []
    for group, times in groups.items():
        ours = times.get("kafkawire")
        out += [
            f"### {group}",
            "",
            f"{sizes[group]:,} bytes on the wire",
            "",
            f"| implementation | {stat} ms | kafkawire's speed-up over it |",
            "|---|--:|--:|",
        ]
        ours_runs = runs[group].get("kafkawire")
        for impl, secs in sorted(times.items(), key=lambda kv: kv[1]):
            ratio = (
                "—" if impl == "kafkawire" or not ours else _speedup(runs[group][impl], ours_runs)
            )
            out.append(f"| {impl} | {secs * 1e3:.3f} | {ratio} |")
        out.append("")
        op = group.split()[0]
        for peer, target in MESSAGE_TARGETS.get(op, ()):
            if ours and peer in times:
                each = [p / o for p, o in zip(runs[group][peer], ours_runs, strict=True)]
                got = statistics.median(each)
                mark = "met" if got >= target else "**not met**"
                checks_out.append(
                    f"- {group}: ≥ {target:g}x {peer}: {mark} — {got:.2f}x{_per_run(each)}"
                )
    return [*out, "### Message targets", "", *checks_out, ""]


def rate_report(doc: dict, suite: str, stat: str, title: str) -> list[str]:
    """Per group: each implementation's time, records per second and how many times faster
    kafkawire is (wall-time suites: the client against a broker, the Spark sources)."""
    groups: dict[str, dict[str, tuple[float, int]]] = {}
    runs: dict[str, dict[str, list[float]]] = {}
    for b in doc["benchmarks"]:
        x = b.get("extra_info") or {}
        if x.get("suite") == suite:
            groups.setdefault(b["group"], {})[x["impl"]] = (b["stats"][stat], x.get("records", 0))
            runs.setdefault(b["group"], {})[x["impl"]] = [r[stat] for r in b["run_stats"]]
    if not groups:
        return []
    out = [f"## {title}", ""]
    for group, times in groups.items():
        # kafkawire's row: "kafkawire", or the name of one of its data sources
        ours_name = next((k for k in times if k.startswith("kafkawire")), None)
        ours = times[ours_name][0] if ours_name else None
        out += [
            f"### {group}",
            "",
            f"| implementation | {stat} ms | records/s | kafkawire's speed-up over it |",
            "|---|--:|--:|--:|",
        ]
        for impl, (secs, records) in sorted(times.items(), key=lambda kv: kv[1][0]):
            ratio = (
                "—"
                if impl == ours_name or not ours
                else _speedup(runs[group][impl], runs[group][ours_name])
            )
            rate = f"{records / secs:,.0f}" if records and secs else "—"  # (0: see _speedup)
            out.append(f"| {impl} | {secs * 1e3:.1f} | {rate} | {ratio} |")
        out.append("")
    return out


def tls_share(doc: dict) -> list[str]:
    """kafkawire's TLS throughput as a share of its PLAINTEXT throughput, paired rounds
    (bench_tls.py; goal: at least 0.8)."""
    for b in doc["benchmarks"]:
        share = (b.get("extra_info") or {}).get("tls_share_of_plaintext")
        if share is not None:
            return [f"kafkawire over TLS: {share:.2f} of its PLAINTEXT throughput (paired).", ""]
    return []


def consumer_shares(doc: dict) -> list[str]:
    """The consumer's paired ratios (bench_consumer.py; goals: columnar >= 5x confluent-kafka
    and >= 0.9 of the ceiling, per-record >= 1x), and the ceiling's over confluent-kafka."""
    out = []
    for b in doc["benchmarks"]:
        x = b.get("extra_info") or {}
        if x.get("suite") == "consumer-paired":
            out.append(
                f"Consumer, paired rounds ({x['codec']}): columnar poll "
                f"{x['columnar_over_confluent']:.2f}x confluent-kafka and "
                f"{x['columnar_share_of_ceiling']:.2f} of the fetch ceiling; per-record poll "
                f"{x['records_over_confluent']:.2f}x confluent-kafka; the ceiling itself "
                f"{x.get('ceiling_over_confluent', float('nan')):.2f}x confluent-kafka."
            )
    return [*out, ""] if out else []


# The producer's paired ratios (bench_producer.py): extra_info key -> (label, goal or None)
PRODUCER_RATIOS = {
    "send_over_confluent": ("send / confluent-kafka", 1.5),
    "send_batch_share_of_ceiling": ("send_batch / ceiling", 0.8),
    "chunks_share_of_ceiling": ("send_batch 100k / ceiling", None),
    "send_over_aiokafka": ("send / aiokafka", None),
    "send_batch_over_aiokafka": ("send_batch / aiokafka", None),
    "send_batch_over_confluent": ("send_batch / confluent-kafka", None),
}


def producer_report(doc: dict) -> list[str]:
    """The producer's paired rounds (bench_producer.py), cell by cell (acks, compression):
    each contender's median time over every run's rounds, and the ratios of throughput, each
    the median of the runs' medians of per-round ratios (goals: send >= 1.5x confluent-kafka,
    send_batch >= 0.8 of the ceiling)."""
    cells = []
    for b in doc["benchmarks"]:
        runs = [x for x in b.get("run_extra", []) if x.get("suite") == "producer-paired"]
        if runs and "seconds" in runs[0]:
            cells.append(runs)
    if not cells:
        return []
    first = cells[0][0]
    out = [
        f"## Producer: {first['records']:,} keyed records to {first['partitions']} partitions",
        "",
        "Throughput ratios from paired rounds (median of the per-round ratios; > 1: the first "
        "is faster). Goals: send ≥ 1.5x confluent-kafka, send_batch ≥ 0.8 of the ceiling.",
        "",
        "| acks | compression | "
        + " | ".join(label for label, _ in PRODUCER_RATIOS.values())
        + " |",
        "|---|---|" + "--:|" * len(PRODUCER_RATIOS),
    ]
    goals = []
    for runs in cells:
        x = runs[0]
        row = []
        for key, (label, goal) in PRODUCER_RATIOS.items():
            each = [r[key] for r in runs if r.get(key) is not None]
            if not each:
                row.append("—")
                continue
            value = statistics.median(each)
            row.append(f"{value:.2f}{_per_run(each)}")
            if goal is not None:
                mark = "met" if value >= goal else "**not met**"
                goals.append(
                    f"- acks={x['acks']}, {x['codec']}: {label} ≥ {goal}: {mark} — "
                    f"{value:.2f}{_per_run(each)}"
                )
        out.append(f"| {x['acks']} | {x['codec']} | " + " | ".join(row) + " |")
    out += ["", *goals, ""]
    for runs in cells:
        x = runs[0]
        times: dict[str, list[float]] = {}
        for r in runs:
            for one_round in r["seconds"]:
                for name, secs in one_round.items():
                    times.setdefault(name, []).append(secs)
        out += [
            f"### acks={x['acks']}, {x['codec']}",
            "",
            "| contender | median s | records/s | rounds |",
            "|---|--:|--:|--:|",
        ]
        for name, secs in sorted(times.items(), key=lambda kv: statistics.median(kv[1])):
            median = statistics.median(secs)
            out.append(f"| {name} | {median:.2f} | {x['records'] / median:,.0f} | {len(secs)} |")
        rss = [v for r in runs for v in r.get("broker_rss_mb", [])]
        if rss:
            out.append("")
            out.append(f"Broker RSS after each round (topics deleted): {max(rss)} MB at most.")
        out.append("")
    return out


def header(doc: dict) -> list[str]:
    mi = doc.get("machine_info", {})
    cpu = mi.get("cpu", {})
    ours = mi.get("kafkawire_bench", {})
    parts = [
        f"Python {mi.get('python_version', '?')}",
        f"{cpu.get('brand_raw', '?')} ({cpu.get('count', '?')} cores)",
        *(f"{k} {v}" for k, v in ours.items() if k not in ("python", "aiokafka_records")),
    ]
    timers = {b.get("options", {}).get("timer", "?") for b in doc.get("benchmarks", [])}
    parts.append("timer " + ", ".join(sorted(timers)))
    runs = doc.get("runs") or [doc.get("datetime", "?")]
    when = f"Run {runs[0]}" if len(runs) == 1 else f"{len(runs)} runs ({', '.join(runs)})"
    lines = [f"{when}: " + "; ".join(parts) + "."]
    if len(runs) > 1:
        lines.append("Every time is the median of the runs' statistics; rounds are summed.")
    if "aiokafka_records" in ours:
        lines.append(f"aiokafka records: {ours['aiokafka_records']}.")
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+", help="pytest-benchmark JSON files (--benchmark-json=...)")
    ap.add_argument("--stat", default="median", choices=["median", "min", "mean"])
    args = ap.parse_args(argv)

    doc, rows = load(args.json, args.stat)
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(r.group, []).append(r)
    # Reads before builds; workloads in the order the benchmarks define them.
    names = sorted(groups, key=lambda g: (groups[g][0].op != "read", list(groups).index(g)))
    groups = {g: groups[g] for g in names}

    out = header(doc)
    for g in names:
        out += group_table(groups[g], args.stat)
    pairs = paired(doc)
    out += paired_table(pairs)
    out += ["### Targets", ""]
    for c in checks(groups, pairs):
        mark = {True: "met", False: "**not met**", None: "not measured"}[c.met]
        out.append(f"- {c.text}: {mark} — {c.detail}")
    out += ["", *message_report(doc, args.stat)]
    out += rate_report(doc, "client", args.stat, "Client: fetch and decode from a real broker")
    out += rate_report(doc, "spark", args.stat, "Spark: the kafkawire data sources")
    out += rate_report(doc, "buffer", args.stat, "Buffer policy: decode_records by input kind")
    out += rate_report(doc, "tls", args.stat, "TLS: fetch over TLS and PLAINTEXT (forwarded)")
    out += tls_share(doc)
    out += rate_report(doc, "consumer", args.stat, "Consumer: 1M records from a real broker")
    out += consumer_shares(doc)
    out += producer_report(doc)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
