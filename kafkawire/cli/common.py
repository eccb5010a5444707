"""What every part of the command shares: its name, the one-line error, mapped files, and
the connection options of the commands that talk to a cluster."""

from __future__ import annotations

import argparse
import mmap
import os
import struct

PROG = "kafkawire"
SIZE = struct.Struct(">i")


class CliError(Exception):
    """A problem to report in one line, with exit status 1."""


class Raw(str):
    """Text already rendered for reading (a bytes repr, a header list): printed unquoted."""


def mapped_file(path: str) -> memoryview:
    """The file's bytes, mapped; the map goes when the last view of it does."""
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                return memoryview(b"")
            return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None


def add_connection_arguments(parser) -> None:
    """--bootstrap-server and --command-config, as Kafka's own tools take them."""
    parser.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT[,...]")
    parser.add_argument("--command-config", metavar="FILE", help="client properties (TLS, SASL)")


def add_property_argument(parser, what: str) -> None:
    """-X NAME=VALUE (repeatable): properties over --command-config's, as kcat takes them."""
    parser.add_argument(
        "-X",
        "--property",
        action="append",
        type=_property,
        default=[],
        metavar="NAME=VALUE",
        help=f"a {what} or client property, over --command-config's (repeatable)",
    )


def _property(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    return name.strip(), value.strip()


def plural(count: int, noun: str) -> str:
    """``1 record``, ``2 records`` (with thousands separators)."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def command_properties(args) -> dict:
    """The client properties of --command-config (none without it), with -X's over them."""
    from kafkawire.client.config.files import read_properties
    from kafkawire.client.errors import ConfigError

    try:
        properties = read_properties(args.command_config) if args.command_config else {}
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    return {**properties, **dict(getattr(args, "property", ()))}


def open_client(args):
    """A kafkawire Client for --bootstrap-server with --command-config's properties."""
    from kafkawire.client import Client
    from kafkawire.client.errors import ConfigError

    try:
        return Client(args.bootstrap_server, config=command_properties(args))
    except ConfigError as exc:
        raise CliError(str(exc)) from None
