"""``kafkawire convert``: segment files to Parquet, with a progress bar."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import IO

from kafkawire.cli.common import PROG, CliError, plural
from kafkawire.errors import DecodeError


class ProgressBar:
    """One stderr line redrawn in place: bar, percent, bytes, records, rate. Drawn only on a
    terminal (or when forced); at most ten times a second. A total of None (a pipe's length)
    draws the counts and rate without the bar."""

    def __init__(
        self,
        total: int | None,
        *,
        stream: IO[str] | None = None,
        enabled: bool | None = None,
        unit: str = "bytes",
    ) -> None:
        self.unit = unit  # what total counts: "bytes" (drawn in MiB) or "records"
        self.total = None if total is None else max(total, 0)
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.records = 0
        self.started = time.monotonic()
        self._drawn = 0.0
        self._width = 0

    def update(self, done: int, records: int, *, force: bool = False) -> None:
        self.done, self.records = done, records
        now = time.monotonic()
        if not self.enabled or (not force and now - self._drawn < 0.1):
            return
        self._drawn = now
        self.stream.write("\r" + self.render(now).ljust(self._width))
        self._width = len(self.render(now))
        self.stream.flush()

    def render(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        elapsed = max(now - self.started, 1e-9)
        if self.total is None:
            if self.unit == "records":
                return f"{self.done:,} records {self.done / elapsed:,.0f}/s"
            return (
                f"{self.done / 2**20:.1f} MiB {self.records:,} records "
                f"{self.done / elapsed / 2**20:.1f} MiB/s"
            )
        fraction = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = int(fraction * 30)
        bar = "#" * filled + "-" * (30 - filled)
        if self.unit == "records":
            rate = self.done / elapsed
            return f"[{bar}] {fraction:4.0%} {self.done:,}/{self.total:,} records {rate:,.0f}/s"
        rate = self.done / elapsed / 2**20
        return (
            f"[{bar}] {fraction:4.0%} {self.done / 2**20:.1f}/{self.total / 2**20:.1f} MiB "
            f"{self.records:,} records {rate:.1f} MiB/s"
        )

    def finish(self) -> None:
        if self.enabled:
            self.update(self.done, self.records, force=True)
            self.stream.write("\n")
            self.stream.flush()


def cmd_convert(args: argparse.Namespace) -> int:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CliError("convert needs pyarrow: pip install 'kafkawire[arrow]'") from None
    from kafkawire.records import segments
    from kafkawire.records.arrow import arrow_schema, kafka_batches

    try:
        found = segments.find_segments(args.segments)
    except FileNotFoundError as exc:
        raise CliError(str(exc)) from None
    if not found:
        raise CliError(
            "no segment files (NNNNNNNNNNNNNNNNNNNN.log) under " + " ".join(args.segments)
        )
    include_headers = not args.no_headers
    schema = arrow_schema(include_headers)
    out = Path(args.out)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    # drawn on a terminal; --progress draws it anywhere, --quiet nowhere
    enabled = False if args.quiet else True if args.progress else None
    bar = ProgressBar(sum(s.size for s in found), enabled=enabled)
    done = records = 0
    try:
        with pq.ParquetWriter(tmp, schema, compression=args.compression) as writer:
            for segment in found:
                for chunk in segments.read_views(
                    segment,
                    chunk_bytes=args.chunk_mb * 2**20,
                    verify_crc=not args.no_verify_crc,
                    skip_corrupt=args.skip_corrupt,
                ):
                    for batch in kafka_batches(
                        chunk.view,
                        segment.topic,
                        segment.partition,
                        include_headers=include_headers,
                    ):
                        writer.write_batch(batch)
                    records += len(chunk.view)
                    bar.update(done + chunk.end, records)
                done += segment.size
                bar.update(done, records)
        os.replace(tmp, out)
    except DecodeError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        bar.finish()
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    if not args.quiet:
        sys.stderr.write(
            f"{PROG}: {plural(records, 'record')} from {plural(len(found), 'segment file')} "
            f"-> {out}\n"
        )
    return 0
