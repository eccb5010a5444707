"""What every part of the command shares: its name, the one-line error, mapped files, and
the connection options of the commands that talk to a cluster."""

from __future__ import annotations

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


def command_properties(args) -> dict:
    """The client properties of --command-config (none without it)."""
    from kafkawire.client.config import read_properties
    from kafkawire.client.errors import ConfigError

    try:
        return read_properties(args.command_config) if args.command_config else {}
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def open_client(args):
    """A kafkawire Client for --bootstrap-server with --command-config's properties."""
    from kafkawire.client import Client
    from kafkawire.client.errors import ConfigError

    try:
        return Client(args.bootstrap_server, config=command_properties(args))
    except ConfigError as exc:
        raise CliError(str(exc)) from None
