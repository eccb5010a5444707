"""What every part of the command shares: its name, the one-line error, mapped files."""

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
