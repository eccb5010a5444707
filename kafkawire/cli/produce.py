"""``kafkawire produce``: records from a JSON lines, CSV or Parquet file (or stdin) written to a
topic through ``kafkawire.Producer``, a chunk of rows at a time (send_batch: columnar), with a
progress bar."""

from __future__ import annotations

import argparse
import base64
import binascii
import collections
import datetime
import difflib
import itertools
import json
import os
import stat
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from kafkawire.cli.common import (
    PROG,
    CliError,
    add_connection_arguments,
    add_property_argument,
    command_properties,
    plural,
)
from kafkawire.cli.convert import ProgressBar
from kafkawire.errors import KafkawireError

FIELDS = ("value", "key", "headers", "partition", "timestamp")
# what `consume --json` and `consume --parquet` write besides: read and left out, so that
# their output can be produced to another topic as it is
IGNORED = ("topic", "offset", "timestampType")
EXTENSIONS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}
CHUNK_ROWS = 10_000
IN_FLIGHT = 8  # chunks sent and not yet acknowledged: what bounds the memory used
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_connection_arguments(p)
    p.add_argument("--topic", required=True, metavar="NAME")
    p.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="JSON lines, CSV or Parquet (default or -: stdin, JSON lines unless --format)",
    )
    p.add_argument(
        "--format",
        choices=["jsonl", "csv", "parquet"],
        help="what FILE holds (default: from its extension)",
    )
    p.add_argument(
        "--value-format",
        choices=["string", "json", "base64"],
        default="string",
        help="the value field: text written UTF-8 (default), any JSON value written as JSON "
        "text (JSON lines only), or base64 decoded",
    )
    p.add_argument(
        "--partition", type=int, metavar="N", help="every record to partition N (not the file's)"
    )
    p.add_argument("--acks", choices=["0", "1", "all"], help="acknowledgements (default all)")
    p.add_argument(
        "--compression",
        choices=["none", "gzip", "snappy", "lz4", "zstd"],
        help="the batches' codec (default none)",
    )
    p.add_argument(
        "--create-topic",
        type=int,
        metavar="PARTITIONS",
        help="create the topic with this many partitions if it does not exist",
    )
    p.add_argument(
        "--replication-factor",
        type=int,
        default=1,
        metavar="N",
        help="of a topic --create-topic creates (default 1)",
    )
    add_property_argument(p, "producer")
    p.add_argument("--chunk-rows", type=int, default=CHUNK_ROWS, help=argparse.SUPPRESS)
    p.add_argument("--progress", action="store_true", help="draw the progress bar off a tty")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")


@dataclass
class Chunk:
    """Rows of the input as send_batch takes them (lists, numpy or Arrow arrays)."""

    values: Any
    keys: Any = None
    headers: Any = None
    timestamps: Any = None  # ms; None (or Arrow nulls): now
    partitions: np.ndarray | None = None  # -1: the partitioner's choice
    size: int = 0  # bytes of keys and values
    position: int = 0  # of the input read so far (bytes; rows for Parquet)

    def __len__(self) -> int:
        return len(self.values)


@dataclass
class Options:
    name: str  # the input, as errors name it
    value_format: str
    partitions: int | None  # the topic's count, to check a partition field against
    chunk_rows: int


def cmd_produce(args: argparse.Namespace) -> int:
    from kafkawire.client import Client, Producer
    from kafkawire.client.config.client import is_client_property
    from kafkawire.client.errors import ConfigError

    fmt = _format(args)
    if args.value_format == "json" and fmt != "jsonl":
        raise CliError("--value-format json is for JSON lines")
    if args.chunk_rows < 1:
        raise CliError("--chunk-rows must be at least 1")
    config = command_properties(args)
    if args.acks is not None:
        config["acks"] = args.acks
    if args.compression is not None:
        config["compression.type"] = args.compression
    stream, name, size = _open(args.file)
    try:
        try:
            client = Client(
                args.bootstrap_server,
                config={k: v for k, v in config.items() if is_client_property(k)},
            )
        except ConfigError as exc:
            raise CliError(str(exc)) from None
        with client:
            count = _partition_count(client, args)
        if args.partition is not None and not 0 <= args.partition < count:
            raise CliError(f"--partition {args.partition}: {args.topic} has {_range(count)}")
        try:
            producer = Producer(args.bootstrap_server, config=config)
        except ConfigError as exc:
            raise CliError(str(exc)) from None
        # with --partition the file's partitions are not used, so not checked either
        checked = count if args.partition is None else None
        options = Options(name, args.value_format, checked, args.chunk_rows)
        try:
            return _produce(args, fmt, stream, size, options, producer)
        finally:
            producer.close(5.0)  # everything is settled by then, unless interrupted
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _format(args) -> str:
    if args.format is not None:
        return args.format
    if args.file == "-":
        return "jsonl"
    fmt = EXTENSIONS.get(os.path.splitext(args.file)[1].lower())
    if fmt is None:
        raise CliError(f"{args.file}: which format? name it .jsonl, .csv or .parquet, or --format")
    return fmt


def _open(path: str) -> tuple[IO[bytes], str, int | None]:
    """The input stream, its name for errors, and its size (None for a pipe)."""
    if path == "-":
        stream, name = sys.stdin.buffer, "<stdin>"
    else:
        try:
            stream, name = open(path, "rb"), path  # noqa: SIM115 - closed by cmd_produce
        except OSError as exc:
            raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(stream.fileno())
        size = st.st_size if stat.S_ISREG(st.st_mode) else None
    except (OSError, ValueError):  # a stream without a file descriptor (tests' stdin)
        size = None
    return stream, name, size


def _partition_count(client, args) -> int:
    """The topic's partition count; --create-topic creates a topic that does not exist."""
    from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError

    try:
        return len(client.partitions_for(args.topic))
    except UnknownTopicOrPartitionError:
        if args.create_topic is None:
            raise CliError(
                f"topic {args.topic!r} does not exist (--create-topic N creates it)"
            ) from None
    if args.create_topic < 1:
        raise CliError("--create-topic needs at least 1 partition")
    client.create_topics(
        {args.topic: args.create_topic},
        replication_factor=args.replication_factor,
        exist_ok=True,  # another producer may have created it meanwhile
    )
    return len(client.partitions_for(args.topic))


def _range(count: int) -> str:
    return f"{count} partition{'s' if count != 1 else ''} (0 to {count - 1})"


# ---- sending ------------------------------------------------------------------------------


class Sender:
    """Chunks to the producer, at most IN_FLIGHT of them unacknowledged; the counts and the
    first error."""

    def __init__(self, producer, topic: str, partition: int | None) -> None:
        self.producer = producer
        self.topic = topic
        self.partition = partition
        self.pending: collections.deque = collections.deque()
        self.sent = self.acknowledged = self.bytes = 0
        self.error: Exception | None = None

    def send(self, chunk: Chunk) -> None:
        for rows, columns in _runs(chunk, self.partition):
            try:
                future = self.producer.send_batch(self.topic, **columns)
            except (KafkawireError, ValueError) as exc:
                self.error = self.error or exc
                return
            self.pending.append((future, rows))
            self.sent += rows
        self.bytes += chunk.size
        while len(self.pending) > IN_FLIGHT:
            self._settle()

    def _settle(self) -> None:
        future, rows = self.pending.popleft()
        try:
            future.result()
        except KafkawireError as exc:
            # the rows of a call that failed in one partition all count as unacknowledged:
            # the count never claims more than was delivered
            self.error = self.error or exc
        else:
            self.acknowledged += rows

    def finish(self) -> None:
        while self.pending:
            self._settle()


def _runs(chunk: Chunk, partition: int | None) -> Iterator[tuple[int, dict]]:
    """send_batch's arguments for a chunk: one call, or one for each run of rows that all name
    their partition or all leave it to the partitioner (in order: a partition's records keep
    the order of the input)."""
    n = len(chunk)
    columns = {
        "values": chunk.values,
        "keys": chunk.keys,
        "headers": chunk.headers,
        "timestamps": chunk.timestamps,
    }
    parts = chunk.partitions
    if partition is not None:
        yield n, {**columns, "partitions": np.full(n, partition, np.int32)}
        return
    if parts is None or (parts < 0).all():
        yield n, columns
        return
    given = parts >= 0
    cuts = [0, *(np.flatnonzero(given[1:] != given[:-1]) + 1).tolist(), n]
    for start, stop in itertools.pairwise(cuts):
        run = {k: None if v is None else v[start:stop] for k, v in columns.items()}
        if given[start]:
            run["partitions"] = parts[start:stop]
        yield stop - start, run


def _produce(args, fmt: str, stream, size: int | None, options: Options, producer) -> int:
    if fmt == "jsonl":
        chunks, total, unit = _json_chunks(stream, options), size, "bytes"
    elif fmt == "csv":
        chunks, total, unit = _csv_chunks(stream, options), size, "bytes"
    else:
        chunks, total = _parquet_chunks(stream, options)
        unit = "records"
    # drawn on a terminal; --progress draws it anywhere, --quiet nowhere
    enabled = False if args.quiet else True if args.progress else None
    bar = ProgressBar(total, enabled=enabled, unit=unit)
    sender = Sender(producer, args.topic, args.partition)
    started = time.monotonic()
    bad_input: CliError | None = None
    try:
        try:
            for chunk in chunks:
                sender.send(chunk)
                bar.update(chunk.position, sender.sent)
                if sender.error is not None:
                    break
        except CliError as exc:  # what was sent before it is still delivered, and counted
            bad_input = exc
        sender.finish()
    finally:
        bar.finish()
    elapsed = time.monotonic() - started
    if bad_input is not None:
        raise CliError(
            f"{bad_input} (stopped there: {plural(sender.acknowledged, 'record')} produced)"
        )
    if sender.error is not None:
        raise CliError(
            f"{args.topic}: {sender.error} ({sender.acknowledged:,} of "
            f"{plural(sender.sent, 'record')} sent {'was' if sender.sent == 1 else 'were'} "
            "acknowledged)"
        )
    if not args.quiet:
        sys.stderr.write(
            f"{PROG}: {plural(sender.acknowledged, 'record')} ({sender.bytes:,} bytes of keys and "
            f"values) -> {args.topic} in {elapsed:.2f} s\n"
        )
    return 0


# ---- JSON lines ---------------------------------------------------------------------------


class Rows:
    """The columns of a chunk of JSON lines, as they are read."""

    def __init__(self) -> None:
        self.values: list[bytes | None] = []
        self.keys: list[bytes | None] = []
        self.headers: list[list[tuple[str, bytes | None]]] = []
        self.timestamps: list[int | None] = []
        self.partitions: list[int] = []
        self.size = 0

    def __len__(self) -> int:
        return len(self.values)

    def add(self, obj: dict, where: str, options: Options) -> None:
        extra = [name for name in obj if name not in FIELDS and name not in IGNORED]
        if extra:
            raise CliError(f"{where}: unknown field {extra[0]!r}{_suggest(extra[0])}")
        if "value" not in obj:
            raise CliError(f'{where}: no "value" field (null for a tombstone)')
        value = _value(obj["value"], where, options.value_format)
        key = _text(obj.get("key"), where, "key")
        self.values.append(value)
        self.keys.append(key)
        self.headers.append(_headers(obj.get("headers"), where))
        self.timestamps.append(_timestamp(obj.get("timestamp"), where))
        self.partitions.append(_partition(obj.get("partition"), where, options.partitions))
        self.size += (0 if value is None else len(value)) + (0 if key is None else len(key))

    def chunk(self, position: int) -> Chunk:
        timestamps = None
        if any(t is not None for t in self.timestamps):
            now = int(time.time() * 1000)  # what the producer gives a record without one
            timestamps = np.array([now if t is None else t for t in self.timestamps], np.int64)
        partitions = np.array(self.partitions, np.int64)
        return Chunk(
            self.values,
            keys=self.keys if any(k is not None for k in self.keys) else None,
            headers=self.headers if any(self.headers) else None,
            timestamps=timestamps,
            partitions=partitions if (partitions >= 0).any() else None,
            size=self.size,
            position=position,
        )


def _json_chunks(stream, options: Options) -> Iterator[Chunk]:
    rows = Rows()
    position = 0
    for number, line in enumerate(stream, 1):
        position += len(line)
        if not line.strip():
            continue
        where = f"{options.name} line {number}"
        try:
            obj = json.loads(line)
        except UnicodeDecodeError:
            raise CliError(f"{where}: not UTF-8 text") from None
        except json.JSONDecodeError as exc:
            raise CliError(f"{where}: not JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise CliError(f"{where}: {_kind(obj)}, not a JSON object")
        rows.add(obj, where, options)
        if len(rows) >= options.chunk_rows:
            yield rows.chunk(position)
            rows = Rows()
    if len(rows):
        yield rows.chunk(position)


def _suggest(name: str) -> str:
    close = difflib.get_close_matches(name, FIELDS, n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (fields: {', '.join(FIELDS)})"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _utf8(text: str, where: str, what: str) -> bytes:
    try:
        return text.encode()
    except UnicodeEncodeError:  # "\ud800" in JSON: a lone surrogate
        raise CliError(f"{where}: {what} is not Unicode text (a lone surrogate)") from None


def _text(value: Any, where: str, what: str) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise CliError(f"{where}: {what} is {_kind(value)}, not a string or null")
    return _utf8(value, where, what)


def _value(value: Any, where: str, value_format: str) -> bytes | None:
    if value is None:
        return None  # a tombstone
    if value_format == "json":
        return _utf8(json.dumps(value, ensure_ascii=False, separators=(",", ":")), where, "value")
    if not isinstance(value, str):
        raise CliError(
            f"{where}: value is {_kind(value)}, not a string or null "
            "(--value-format json writes any JSON value as its text)"
        )
    if value_format == "base64":
        return _base64(value, where)
    return _utf8(value, where, "value")


def _base64(text: str, where: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise CliError(f"{where}: value is not base64") from None


def _headers(value: Any, where: str) -> list[tuple[str, bytes | None]]:
    """An object, or [name, value] pairs (names repeat, so a list keeps them all)."""
    if value is None:
        return []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = []
        for item in value:
            if not isinstance(item, list) or len(item) != 2:
                raise CliError(f"{where}: headers: {_kind(item)}, not a [name, value] pair")
            items.append(item)
    else:
        raise CliError(f"{where}: headers is {_kind(value)}, not an object or [name, value] pairs")
    out = []
    for name, text in items:
        if not isinstance(name, str):
            raise CliError(f"{where}: a header name is {_kind(name)}, not a string")
        out.append((name, _text(text, where, f"header {name!r}")))
    return out


def _timestamp(value: Any, where: str) -> int | None:
    """Milliseconds since the epoch, from an integer or ISO 8601 text (UTC without an offset)."""
    if value is None:
        return None
    if isinstance(value, str):
        ms = _timestamp_text(value)
        if ms is None:
            raise CliError(f"{where}: timestamp {value!r} is not ISO 8601 or milliseconds")
    elif isinstance(value, int) and not isinstance(value, bool):
        ms = value
    else:
        raise CliError(
            f"{where}: timestamp is {_kind(value)}, not milliseconds since the epoch "
            "(an integer) or ISO 8601 text"
        )
    if not 0 <= ms < 2**63:
        raise CliError(f"{where}: timestamp {value!r} is before 1970 or out of range")
    return ms


def _timestamp_text(text: str) -> int | None:
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return (moment - EPOCH) // datetime.timedelta(milliseconds=1)


def _partition(value: Any, where: str, count: int | None) -> int:
    if value is None:
        return -1
    if isinstance(value, bool) or not isinstance(value, int):
        raise CliError(f"{where}: partition is {_kind(value)}, not an integer")
    if value < 0 or (count is not None and value >= count):
        if count is None:
            raise CliError(f"{where}: partition {value} is negative")
        raise CliError(f"{where}: partition {value}: the topic has {_range(count)}")
    return value


# ---- CSV and Parquet ----------------------------------------------------------------------


class Counted:
    """A binary stream that counts the bytes read from it (for the progress bar), after
    ``head``, bytes already read from it."""

    def __init__(self, stream, head: bytes = b"") -> None:
        self.stream = stream
        self.head = head
        self.count = 0
        self.closed = False

    def read(self, size: int = -1) -> bytes:
        if self.head:
            data, self.head = self.head, b""
            if size is None or size < 0:
                data += self.stream.read()
            elif size > len(data):
                data += self.stream.read(size - len(data))
            else:
                data, self.head = data[:size], data[size:]
        else:
            data = self.stream.read(size)
        self.count += len(data)
        return data


def _pyarrow(fmt: str):
    try:
        import pyarrow
    except ImportError:
        raise CliError(f"{fmt} input needs pyarrow: pip install 'kafkawire[arrow]'") from None
    return pyarrow


def _columns(names: list[str], options: Options) -> dict[str, str]:
    """Each field's column name (names match whatever their case); unknown columns are
    errors, a missing value column too."""
    found = {}
    for name in names:
        field = next((f for f in (*FIELDS, *IGNORED) if f.lower() == name.lower()), None)
        if field is None:
            raise CliError(f"{options.name}: unknown column {name!r}{_suggest(name)}")
        if field in FIELDS:
            found[field] = name
    if "value" not in found:
        raise CliError(f"{options.name}: no value column (columns: {', '.join(names) or 'none'})")
    return found


def _csv_chunks(stream, options: Options) -> Iterator[Chunk]:
    pa = _pyarrow("CSV")
    import csv as pycsv

    import pyarrow.csv as csv

    header = stream.readline()
    try:
        names = next(pycsv.reader([header.decode("utf-8-sig")]), [])
    except UnicodeDecodeError:
        raise CliError(f"{options.name} line 1: not UTF-8 text") from None
    columns = _columns(names, options)
    counted = Counted(stream, header)
    convert = csv.ConvertOptions(
        # every cell as text, converted here: an error can then name its row, and a column
        # does not change type from one block to the next
        column_types=dict.fromkeys(names, pa.string()),
        strings_can_be_null=True,  # an empty cell: a null key, no headers, no partition...
    )
    try:
        reader = csv.open_csv(pa.PythonFile(counted, mode="r"), convert_options=convert)
        row = 0
        for batch in reader:
            for start in range(0, batch.num_rows, options.chunk_rows):
                part = batch.slice(start, options.chunk_rows)
                yield _arrow_chunk(part, columns, row, options, counted.count, text=True)
                row += part.num_rows
    except pa.ArrowInvalid as exc:
        raise CliError(f"{options.name}: {exc}") from None


def _parquet_chunks(stream, options: Options) -> tuple[Iterator[Chunk], int]:
    pa = _pyarrow("Parquet")
    import pyarrow.parquet as pq

    if not stream.seekable():  # Parquet's footer is at the end
        stream = pa.BufferReader(stream.read())
    try:
        parquet = pq.ParquetFile(stream)
    except pa.ArrowException as exc:
        raise CliError(f"{options.name}: not a Parquet file ({exc})") from None
    columns = _columns(parquet.schema_arrow.names, options)

    def chunks() -> Iterator[Chunk]:
        row = 0
        try:
            batches = parquet.iter_batches(options.chunk_rows, columns=list(columns.values()))
            for batch in batches:
                if batch.num_rows:
                    yield _arrow_chunk(batch, columns, row, options, row + batch.num_rows)
                row += batch.num_rows
        except (pa.ArrowException, OSError) as exc:
            raise CliError(f"{options.name}: {exc}") from None

    return chunks(), parquet.metadata.num_rows


def _arrow_chunk(
    batch, columns: dict[str, str], first: int, options: Options, position: int, *, text=False
) -> Chunk:
    """A chunk from a record batch (``text``: CSV's, every cell a string or null); rows are
    named from 1 in errors."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def column(field: str):
        return batch.column(columns[field]) if field in columns else None

    def where(i: int) -> str:
        return f"{options.name} row {first + i + 1}"

    values = column("value")
    if text:
        values = values.fill_null("")  # an empty cell: an empty value, not a tombstone
    values = _binary(values, "value", options, where)
    keys = column("key")
    if keys is not None:
        keys = _binary(keys, "key", options, where, decode=False)
        if keys.null_count == len(keys):
            keys = None
    size = 0
    for data in (values, keys):
        if data is not None and len(data) and not pa.types.is_null(data.type):
            size += pc.sum(pc.binary_length(data)).as_py() or 0
    headers = column("headers")
    if headers is not None:
        headers = _arrow_headers(headers, options, where)
    timestamps = column("timestamp")
    if timestamps is not None:
        timestamps = _arrow_timestamps(timestamps, options, where)
    partitions = column("partition")
    if partitions is not None:
        partitions = _arrow_partitions(partitions, options, where)
    return Chunk(values, keys, headers, timestamps, partitions, size, position)


def _binary(data, field: str, options: Options, where, *, decode: bool = True):
    import pyarrow as pa

    kind = data.type
    if pa.types.is_fixed_size_binary(kind):
        return data.cast(pa.binary())
    textual = pa.types.is_string(kind) or pa.types.is_large_string(kind)
    textual = textual or str(kind) == "string_view"
    if textual and decode and options.value_format == "base64":
        decoded = []
        for i, text in enumerate(data.to_pylist()):
            decoded.append(None if text is None else _base64(text, where(i)))
        return pa.array(decoded, pa.binary())
    if textual or pa.types.is_null(kind) or pa.types.is_binary(kind):
        return data
    if pa.types.is_large_binary(kind) or str(kind) == "binary_view":
        return data
    raise CliError(f"{options.name}: the {field} column is {kind}, not binary or string")


def _arrow_headers(data, options: Options, where):
    """Spark's headers column, list<struct<key: string, value: binary>>, from that (string
    values too), a map, or JSON text (CSV)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from kafkawire.records.arrow import HEADERS_TYPE

    kind = data.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        rows = []
        for i, text in enumerate(data.to_pylist()):
            if text is None:
                rows.append(None)
                continue
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError as exc:
                raise CliError(f"{where(i)}: headers are not JSON: {exc.msg}") from None
            pairs = _headers(parsed, where(i))
            rows.append([{"key": k, "value": v} for k, v in pairs])
        return pa.array(rows, HEADERS_TYPE)
    if pa.types.is_map(kind):
        entries = pa.StructArray.from_arrays([data.keys, data.items], names=["key", "value"])
        data = pa.ListArray.from_arrays(data.offsets, entries, mask=data.is_null())
        kind = data.type
    item = kind.value_type if pa.types.is_list(kind) or pa.types.is_large_list(kind) else None
    if item is None or not pa.types.is_struct(item) or {f.name for f in item} != {"key", "value"}:
        raise CliError(
            f"{options.name}: the headers column is {kind}, not "
            "list<struct<key: string, value: binary>>"
        )
    try:
        data = data.cast(HEADERS_TYPE)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise CliError(
            f"{options.name}: the headers column is {kind}, not "
            "list<struct<key: string, value: binary>>"
        ) from None
    names = pc.list_flatten(data).field("key")
    if names.null_count:
        at = pc.list_parent_indices(data)[pc.index(pc.is_null(names), True).as_py()].as_py()
        raise CliError(f"{where(at)}: a header without a name")
    return data


def _arrow_timestamps(data, options: Options, where):
    """int64 milliseconds (nulls: now), from integers, timestamps or text (CSV)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = data.type
    if pa.types.is_timestamp(kind):  # an offset-less timestamp is UTC, as in Arrow
        data = data.cast(pa.timestamp("ms", tz=kind.tz), safe=False).cast(pa.int64())
    elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
        parsed = []
        for i, text in enumerate(data.to_pylist()):
            parsed.append(None if text is None else _timestamp(text, where(i)))
        return pa.array(parsed, pa.int64())
    elif pa.types.is_integer(kind):
        data = data.cast(pa.int64())
    else:
        raise CliError(f"{options.name}: the timestamp column is {kind}, not ms or timestamps")
    negative = pc.less(data, 0)
    if pc.any(negative).as_py():
        at = pc.index(negative, True).as_py()
        raise CliError(f"{where(at)}: timestamp {data[at].as_py()} is before 1970")
    return data


def _arrow_partitions(data, options: Options, where) -> np.ndarray | None:
    """Each row's partition, -1 for none (null)."""
    import pyarrow as pa

    kind = data.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        texts = data.to_pylist()
        parts = np.full(len(texts), -1, np.int64)
        for i, text in enumerate(texts):
            try:
                parts[i] = -1 if text is None else int(text)
            except (ValueError, OverflowError):
                raise CliError(f"{where(i)}: partition {text!r} is not an integer") from None
        nulls = data.is_null().to_numpy(zero_copy_only=False)
    elif pa.types.is_integer(kind):
        nulls = data.is_null().to_numpy(zero_copy_only=False)
        parts = data.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    else:
        raise CliError(f"{options.name}: the partition column is {kind}, not integers")
    count = options.partitions
    bad = (parts < 0) & ~nulls
    if count is not None:
        bad |= parts >= count
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        if count is None:
            raise CliError(f"{where(at)}: partition {parts[at]} is negative")
        raise CliError(f"{where(at)}: partition {parts[at]}: the topic has {_range(count)}")
    return parts if (parts >= 0).any() else None
