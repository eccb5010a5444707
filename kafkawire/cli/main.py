"""The command line: the parser of every subcommand, and ``main``."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from kafkawire._version import __version__
from kafkawire.cli.bench import cmd_bench
from kafkawire.cli.common import PROG, CliError, add_connection_arguments
from kafkawire.cli.consume import add_arguments as consume_arguments
from kafkawire.cli.consume import cmd_consume
from kafkawire.cli.convert import cmd_convert
from kafkawire.cli.groups import add_arguments as groups_arguments
from kafkawire.cli.groups import cmd_groups
from kafkawire.cli.inspect import Kind, cmd_inspect
from kafkawire.cli.produce import add_arguments as produce_arguments
from kafkawire.cli.produce import cmd_produce
from kafkawire.cli.record import cmd_record, host_port
from kafkawire.cli.topics import cmd_topics
from kafkawire.errors import KafkawireError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="The Apache Kafka wire protocol: inspect, record, convert, topics, "
        "consume, produce.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "inspect",
        help="pretty-print captures and segment files",
        description="Pretty-print segment files (record batches back to back) and captures "
        "(one TCP direction of size-prefixed frames, as `kafkawire record` writes them); "
        "what a file holds is told from its content. A directory stands for the "
        "NNNNNNNNNNNNNNNNNNNN.log files under it (a partition directory, or a log dir of "
        "<topic>-<partition> directories), by topic, partition and base offset. Requests are "
        "shown with the response that has their correlation id: --responses FILE, or the "
        ".responses file beside a .requests file. Kafka 0.7 captures and .kafka logs are "
        "recognised too.",
    )
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--responses", metavar="FILE", help="the other direction of a capture")
    p.add_argument("-v", "--verbose", action="store_true", help="show every record")
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    p.add_argument("--no-verify-crc", action="store_true", help="do not check batch CRCs")
    p.add_argument(
        "--max-bytes",
        type=int,
        default=64,
        metavar="N",
        help="show at most N bytes of each key, value or bytes field (0: all; default 64)",
    )
    p.add_argument(
        "--format",
        choices=["auto", *(k.value for k in Kind)],
        default="auto",
        help="what the files hold (default: tell from the content)",
    )
    p.set_defaults(run=cmd_inspect)

    p = sub.add_parser(
        "record",
        help="a proxy that writes each connection to capture files",
        description="Listen, forward each connection to the upstream broker, and write its "
        "two directions to DIR/conn-N.requests and DIR/conn-N.responses. Broker addresses in "
        "Metadata, FindCoordinator and DescribeCluster responses are replaced by listeners "
        "of the recorder, one per broker, so that a client bootstrapped through it reaches "
        "every broker of the cluster through it and all its traffic is recorded.",
    )
    p.add_argument("--listen", type=host_port, required=True, metavar="HOST:PORT")
    p.add_argument("--upstream", type=host_port, required=True, metavar="HOST:PORT")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument(
        "--advertised-host",
        metavar="HOST",
        help="the host clients are told for the brokers' listeners (default: the --listen "
        "host, or this machine's name when that is 0.0.0.0 or ::)",
    )
    p.add_argument(
        "--connections", type=int, metavar="N", help="stop after N connections have closed"
    )
    p.add_argument("--duration", type=float, metavar="SECONDS", help="stop after this long")
    p.set_defaults(run=cmd_record)

    p = sub.add_parser(
        "convert",
        help="segment files to Parquet",
        description="Write the records of segment files (or of the NNNNNNNNNNNNNNNNNNNN.log "
        "files under directories) to one Parquet file with Spark's Kafka columns.",
    )
    p.add_argument("segments", nargs="+", metavar="SEGMENT")
    p.add_argument("--out", required=True, metavar="FILE.parquet")
    p.add_argument("--no-headers", action="store_true", help="leave out the headers column")
    p.add_argument("--skip-corrupt", action="store_true", help="skip corrupt batches, warning")
    p.add_argument("--no-verify-crc", action="store_true", help="do not check batch CRCs")
    p.add_argument("--compression", default="zstd", help="Parquet codec (default zstd)")
    p.add_argument("--chunk-mb", type=int, default=64, metavar="MB", help=argparse.SUPPRESS)
    p.add_argument("--progress", action="store_true", help="draw the progress bar even off a tty")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=cmd_convert)

    p = sub.add_parser(
        "topics",
        help="a cluster's topics, partitions, leaders and offsets",
        description="List topics (all but internal ones, or those named) with each "
        "partition's leader and earliest..latest offsets. TLS and SASL settings come from "
        "--command-config, a client.properties file as Kafka's tools take (librdkafka or "
        "Java property names, sasl.jaas.config included).",
    )
    add_connection_arguments(p)
    p.add_argument("--topic", action="append", metavar="NAME", help="this topic (repeatable)")
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    p.set_defaults(run=cmd_topics)

    p = sub.add_parser(
        "groups",
        help="consumer groups: list them, describe members, offsets and lag",
        description="List a cluster's groups, or describe groups: members and their "
        "assignments, and per partition the committed offset, end offset and lag. TLS and "
        "SASL settings come from --command-config, as for `topics`.",
    )
    groups_arguments(p)
    p.set_defaults(run=cmd_groups)

    p = sub.add_parser(
        "consume",
        help="read a topic: print its records or write them to Parquet",
        description="Read a topic through kafkawire.Consumer: print each record (partition, "
        "offset, value; --json for every field) or write Spark's Kafka columns to Parquet "
        "with a progress bar, up to the end offsets of when it started. --group joins a "
        "consumer group and commits; TLS and SASL settings come from --command-config.",
    )
    consume_arguments(p)
    p.set_defaults(run=cmd_consume)

    p = sub.add_parser(
        "produce",
        help="write records from JSON lines, CSV or Parquet to a topic",
        description="Write records to a topic through kafkawire.Producer, from a JSON lines "
        "file (one object a line: value, and any of key, headers, partition, timestamp), a "
        "CSV or Parquet file with those columns, or JSON lines on stdin; 10,000 rows at a "
        "time, with a progress bar. A bad line or row stops it, naming the file and line "
        "(what was sent before is delivered); any record not delivered is an error. TLS and "
        "SASL settings come from --command-config, producer properties from -X too.",
    )
    produce_arguments(p)
    p.set_defaults(run=cmd_produce)

    p = sub.add_parser(
        "bench",
        help="run the benchmark suites (needs the source checkout)",
        description="Run benchmarks/ with pytest-benchmark (CPU time); the arguments go to "
        "pytest, e.g. `kafkawire bench -- -k decode`.",
    )
    p.add_argument("pytest_args", nargs=argparse.REMAINDER, metavar="PYTEST_ARGS")
    p.set_defaults(run=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status (usage errors exit through argparse)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CliError as exc:
        sys.stderr.write(f"{PROG}: {exc}\n")
        return 1
    except KafkawireError as exc:  # a decode problem not caught nearer: still one line
        sys.stderr.write(f"{PROG}: {exc}\n")
        return 1
    except BrokenPipeError:  # `kafkawire inspect ... | head`
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stays open until exit
        return 0
    except KeyboardInterrupt:
        return 130
