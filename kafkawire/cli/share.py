"""``kafkawire consume --share-group NAME``: a topic's records printed by a member of a share
group (KIP-932) through ``kafkawire.ShareConsumer``. The group hands each record to one
member; what this command printed (written and flushed) it accepts, and what it acquired but
did not print (a run stopped by --max-messages, a broken pipe, Ctrl-C) goes back to the group
when it leaves."""

from __future__ import annotations

import argparse
import sys

from kafkawire.cli.common import CliError, command_properties
from kafkawire.cli.printing import IdleClock, print_record
from kafkawire.client import AcknowledgeType, ShareConsumer
from kafkawire.client.errors import ConfigError

# options of `consume` that mean nothing to a share group: the attribute, its value when the
# option is not given, the option, why not
_REFUSED = [
    ("group", None, "--group", "that is a consumer group; a share group is the other kind"),
    ("partition", None, "--partition", "the share group's broker assigns the partitions"),
    (
        "from_beginning",
        False,
        "--from-beginning",
        "where a share group starts is its share.auto.offset.reset, a broker-side group "
        "config (kafka-configs --entity-type groups --alter --add-config "
        "share.auto.offset.reset=earliest)",
    ),
    (
        "until_end",
        False,
        "--until-end",
        "a share group's member has no positions to stop at; use --max-messages or --timeout",
    ),
    (
        "parquet",
        None,
        "--parquet",
        "the file is renamed into place at the end, but a share group's records are accepted "
        "as they come (a run that failed would lose them); print --json instead",
    ),
]


def check_share_arguments(args: argparse.Namespace) -> None:
    """The options given with --share-group that make no sense with it: a CliError naming
    the first."""
    for name, unset, option, why in _REFUSED:
        if getattr(args, name) != unset:
            raise CliError(f"--share-group with {option}: {why}")


def share_config(args: argparse.Namespace) -> dict:
    """The share consumer's properties: --command-config's and -X's, group.id the share
    group, check.crcs off with --no-verify-crc."""
    config = command_properties(args)
    if "share.acknowledgement.mode" in config:
        raise CliError(
            "share.acknowledgement.mode is not an option of consume --share-group: it "
            "acknowledges itself, accepting each record once it is printed"
        )
    if "group.id" in config and config["group.id"] != args.share_group:
        raise CliError(
            f"group.id is {config['group.id']!r} and --share-group {args.share_group!r}: "
            "say it once"
        )
    config["group.id"] = args.share_group
    config["share.acknowledgement.mode"] = "explicit"  # accept after the output is flushed
    if args.no_verify_crc:
        config["check.crcs"] = False
    if args.max_messages is not None:  # acquire no more than it will print
        config.setdefault("max.poll.records", max(1, min(500, args.max_messages)))
    return config


def cmd_consume_share(args: argparse.Namespace) -> int:
    """``consume --share-group``: print a poll's records (as ``consume`` does, with their
    delivery count in --json), flush, accept them; stop after --max-messages records or
    --timeout seconds without one. Acknowledgements the brokers refused (or that came after
    the records' locks ran out) make it an error: those records are delivered again."""
    check_share_arguments(args)
    config = share_config(args)
    if args.max_messages is not None and args.max_messages <= 0:
        return 0
    try:
        consumer = ShareConsumer(args.bootstrap_server, config=config)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    failures: list[BaseException] = []

    def on_commit(offsets, error) -> None:
        if error is not None:
            failures.append(error)

    consumer.set_acknowledgement_commit_callback(on_commit)
    count = 0
    with consumer:
        consumer.subscribe([args.topic])
        idle = IdleClock(args.timeout, consumer, args.topic, args.share_group)
        while args.max_messages is None or count < args.max_messages:
            left = None if args.max_messages is None else args.max_messages - count
            batch = consumer.poll_batch(0.5, max_records=left)
            if not len(batch):
                if idle.expired():
                    break
                continue
            idle.record()
            for record in batch.records():
                print_record(record, args.json, delivery_count=True)
            sys.stdout.flush()  # printed: accepted (a broken pipe leaves them to the group)
            batch.acknowledge(AcknowledgeType.ACCEPT)
            count += len(batch)
        consumer.commit_sync()  # its errors reach on_commit too
    if failures:
        raise CliError(
            f"{len(failures)} acknowledgement(s) not taken, so some records printed will be "
            f"delivered again: {failures[0]}"
        )
    return 0
