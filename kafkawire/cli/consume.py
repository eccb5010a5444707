"""``kafkawire consume``: a topic's records printed (text or JSON lines) or written to Parquet
with a progress bar, through ``kafkawire.Consumer``; with --share-group, printed by a member of
a share group (``cli/share.py``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from kafkawire.cli.common import (
    PROG,
    CliError,
    add_connection_arguments,
    add_property_argument,
    command_properties,
    plural,
)
from kafkawire.cli.convert import ProgressBar
from kafkawire.cli.printing import IdleClock, print_record
from kafkawire.client import Client, Consumer, TopicPartition
from kafkawire.client.config.client import is_client_property
from kafkawire.client.errors import ConfigError
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_connection_arguments(p)
    p.add_argument("--topic", required=True, metavar="NAME")
    p.add_argument(
        "--partition", type=int, action="append", metavar="N", help="only this one (repeatable)"
    )
    p.add_argument("--group", metavar="ID", help="join this group (commits as it goes)")
    p.add_argument(
        "--share-group",
        metavar="NAME",
        help="consume as a member of this share group (KIP-932), accepting what it prints",
    )
    p.add_argument("--from-beginning", action="store_true", help="start at the earliest offset")
    p.add_argument("--max-messages", type=int, metavar="N", help="stop after N records")
    p.add_argument(
        "--until-end",
        action="store_true",
        help="stop at the end offsets of when it started (always with --parquet)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help="stop after S seconds without a record, counted from the first assignment",
    )
    p.add_argument("--parquet", metavar="FILE", help="write Parquet (Spark's Kafka columns)")
    p.add_argument("--json", action="store_true", help="one JSON object a record")
    p.add_argument("--no-verify-crc", action="store_true", help="do not check batch CRCs")
    p.add_argument("--progress", action="store_true", help="draw the progress bar off a tty")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    add_property_argument(p, "consumer")


def cmd_consume(args: argparse.Namespace) -> int:
    if args.share_group is not None:
        from kafkawire.cli.share import cmd_consume_share

        return cmd_consume_share(args)
    config = command_properties(args)
    client_config = {k: v for k, v in config.items() if is_client_property(k)}
    # the options' defaults give way to properties the user set (-X, --command-config)
    config.setdefault("auto.offset.reset", "latest")
    config.setdefault("enable.auto.commit", args.group is not None)
    if args.from_beginning:
        config["auto.offset.reset"] = "earliest"
    if args.no_verify_crc:
        config["check.crcs"] = False
    if args.group is not None:
        config["group.id"] = args.group
    until_end = args.until_end or args.parquet is not None
    try:
        consumer = Consumer(args.bootstrap_server, config=config)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    with consumer:  # closed whatever fails from here on
        with Client(args.bootstrap_server, config=client_config) as client:
            try:
                partitions = args.partition or client.partitions_for(args.topic)
            except UnknownTopicOrPartitionError:
                raise CliError(f"topic {args.topic!r} does not exist") from None
            tps = [TopicPartition(args.topic, p) for p in partitions]
            ends = client.latest_offsets(tps) if until_end else {}
        if args.group is not None and args.partition is None:
            consumer.subscribe([args.topic])
        else:
            consumer.assign(tps)
        if args.parquet is not None:
            return _to_parquet(args, consumer, tps, ends)
        return _print(args, consumer, tps, ends)


def _finished(consumer, tps, ends) -> bool:
    """Whether every partition's position reached the end offset taken at the start."""
    if not ends:
        return False
    owned = [tp for tp in tps if tp in consumer.assignment()]
    return bool(owned) and all(consumer.position(tp) >= ends[tp] for tp in owned)


def _print(args, consumer, tps, ends) -> int:
    count = 0
    idle = IdleClock(args.timeout, consumer, args.topic, args.group)
    while args.max_messages is None or count < args.max_messages:
        if _finished(consumer, tps, ends):
            break
        left = None if args.max_messages is None else args.max_messages - count
        records = consumer.poll(0.5, max_records=left)
        if records:
            idle.record()
        elif idle.expired():
            break
        for r in records:
            print_record(r, args.json)
        count += len(records)
    if args.group is not None:
        consumer.commit()
    return 0


def _to_parquet(args, consumer, tps, ends) -> int:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CliError("--parquet needs pyarrow: pip install 'kafkawire[arrow]'") from None
    from kafkawire.records.arrow import arrow_schema

    starts = {tp: consumer.position(tp) for tp in consumer.assignment()}
    total = sum(max(0, ends[tp] - starts.get(tp, ends[tp])) for tp in tps)
    if args.max_messages is not None:
        total = min(total, args.max_messages)
    out = Path(args.parquet)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    enabled = False if args.quiet else True if args.progress else None
    bar = ProgressBar(total, enabled=enabled, unit="records")
    count = 0
    idle = IdleClock(args.timeout, consumer, args.topic, args.group)
    try:
        with pq.ParquetWriter(tmp, arrow_schema(True)) as writer:
            while not _finished(consumer, tps, ends):
                if args.max_messages is not None and count >= args.max_messages:
                    break
                left = None if args.max_messages is None else args.max_messages - count
                batch = consumer.poll_batch(0.5, max_records=left)
                if len(batch):
                    idle.record()
                    writer.write_table(batch.to_arrow())
                    count += len(batch)
                    bar.update(count, count)
                elif idle.expired():
                    break
        os.replace(tmp, out)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        bar.finish()
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    if args.group is not None:
        consumer.commit()
    if not args.quiet:
        sys.stderr.write(f"{PROG}: {plural(count, 'record')} of {args.topic} -> {out}\n")
    return 0
