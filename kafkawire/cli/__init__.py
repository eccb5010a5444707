"""The ``kafkawire`` command: look inside captures and segment files, make captures, convert
segments to Parquet, run the benchmarks.

    kafkawire inspect FILE... [--responses FILE] [-v] [--json]
    kafkawire record --listen HOST:PORT --upstream HOST:PORT --out DIR
    kafkawire convert SEGMENTS... --out FILE.parquet
    kafkawire bench [pytest arguments]

Problems with the input are reported on one line (the file, what is wrong and the byte
offset) with exit status 1, never with a traceback; usage errors exit with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import json
import mmap
import os
import selectors
import socket
import struct
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from kafkawire._version import __version__
from kafkawire.errors import DecodeError, KafkawireError

PROG = "kafkawire"
_SIZE = struct.Struct(">i")


class CliError(Exception):
    """A problem to report in one line, with exit status 1."""


class _Raw(str):
    """Text already rendered for reading (a bytes repr, a header list): printed unquoted."""


# --- rendering --------------------------------------------------------------------------------


class Out:
    """Where inspect writes: readable text, or one JSON object a line (``--json``)."""

    def __init__(self, stream: IO[str], *, as_json: bool, max_bytes: int) -> None:
        self.stream = stream
        self.as_json = as_json
        self.max_bytes = max_bytes

    def bytes_value(self, data) -> Any:
        data = bytes(data)
        cut = data[: self.max_bytes] if self.max_bytes and len(data) > self.max_bytes else data
        if self.as_json:
            try:
                shown: Any = cut.decode()
            except UnicodeDecodeError:
                shown = {"hex": cut.hex()}
            if len(cut) < len(data):
                return {"size": len(data), "prefix": shown}
            return shown
        text = repr(cut)
        return _Raw(text + f"... ({len(data)} bytes)" if len(cut) < len(data) else text)

    def emit(
        self, title: str, fields: dict[str, Any], body: Any = None, body_key: str = "message"
    ) -> None:
        """One item: a title line with ``key=value`` fields, and an optional nested body."""
        if self.as_json:
            obj = {"type": title, **fields}
            if body is not None:
                obj[body_key] = body
            self.stream.write(json.dumps(obj, default=str) + "\n")
            return
        parts = " ".join(f"{k}={_scalar(v)}" for k, v in fields.items())
        self.stream.write(f"{title}{' ' + parts if parts else ''}\n")
        if body is not None:
            _write_tree(self.stream, body, 1)


def _scalar(value: Any) -> str:
    if isinstance(value, str) and not isinstance(value, _Raw):
        return repr(value)
    return str(value)


def _write_tree(stream: IO[str], value: Any, indent: int) -> None:
    """A nested dict / list as indented ``key: value`` lines (YAML-like, for reading)."""
    pad = "  " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                stream.write(f"{pad}{key}:\n")
                _write_tree(stream, item, indent + 1)
            else:
                stream.write(f"{pad}{key}: {_leaf(item)}\n")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and item:
                first, *rest = item.items()
                lines: list[str] = []
                sub = _Lines(lines)
                _write_tree(sub, dict([first]), 0)
                stream.write(f"{pad}- {lines[0]}")
                for line in lines[1:]:
                    stream.write(f"{pad}  {line}")
                if rest:
                    _write_tree(stream, dict(rest), indent + 1)
            elif isinstance(item, list) and item:
                stream.write(f"{pad}-\n")
                _write_tree(stream, item, indent + 1)
            else:
                stream.write(f"{pad}- {_leaf(item)}\n")
    else:
        stream.write(f"{pad}{_leaf(value)}\n")


class _Lines:
    """A write()-able list of lines, for indenting a rendered block."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def write(self, text: str) -> None:
        self.lines.append(text)


def _leaf(value: Any) -> str:
    if value == [] or value == {}:
        return "[]" if value == [] else "{}"
    if isinstance(value, str) and not isinstance(value, _Raw):
        return repr(value)
    return str(value)


def _plain(value: Any, version: int, out: Out, verbose: bool) -> Any:
    """A decoded message as dicts, lists and scalars: the fields its version has, in schema
    order; records fields summarised (and decoded with -v)."""
    from kafkawire.protocol import _base as b

    if isinstance(value, b.Struct):
        result: dict[str, Any] = {}
        for f in value._kw_fields:
            if not f.versions[0] <= version <= f.versions[1]:
                continue
            item = getattr(value, f.attr)
            if f.kind == b.RECORDS and item is not None:
                result[f.attr] = _records_summary(item, out, verbose)
            else:
                result[f.attr] = _plain(item, version, out, verbose)
        if value._unknown_tagged_fields:
            result["unknown_tagged_fields"] = {
                str(tag): out.bytes_value(data) for tag, data in value._unknown_tagged_fields
            }
        return result
    if isinstance(value, list):
        return [_plain(v, version, out, verbose) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return out.bytes_value(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    return value


def _records_summary(data, out: Out, verbose: bool) -> Any:
    from kafkawire import read_batches

    size = len(memoryview(data))
    try:
        reader = read_batches(data)
        batches = list(reader)
    except DecodeError as exc:
        return {"bytes": size, "error": str(exc)}
    summary: dict[str, Any] = {
        "bytes": size,
        "batches": len(batches),
        "records": sum(batch.record_count for batch in batches),
    }
    if reader.leftover_bytes:
        summary["partial_batch_bytes"] = reader.leftover_bytes
    if verbose:
        summary["batch_list"] = [
            {**_batch_fields(batch), "records": [_record_fields(r, out) for r in batch]}
            for batch in batches
        ]
    return summary


def _batch_fields(batch) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "position": batch.byte_offset,
        "base_offset": batch.base_offset,
        "last_offset": batch.last_offset,
        "magic": batch.magic,
        "records": batch.record_count,
        "size": batch.size_in_bytes,
        "codec": batch.compression.name.lower(),
        "crc": f"{batch.crc:#010x}",
        "timestamp_type": "LogAppendTime" if batch.timestamp_type else "CreateTime",
        "base_timestamp": batch.base_timestamp,
        "max_timestamp": batch.max_timestamp,
    }
    if batch.magic == 2:
        fields.update(
            partition_leader_epoch=batch.partition_leader_epoch,
            producer_id=batch.producer_id,
            producer_epoch=batch.producer_epoch,
            base_sequence=batch.base_sequence,
            transactional=batch.is_transactional,
            control=batch.is_control,
        )
        control = batch.control_record
        if control is not None:
            fields["control_record"] = "COMMIT" if control.is_commit else "ABORT"
    return fields


def _record_fields(record, out: Out) -> dict[str, Any]:
    return {
        "offset": record.offset,
        "timestamp": record.timestamp,
        "key": None if record.key is None else out.bytes_value(record.key),
        "value": None if record.value is None else out.bytes_value(record.value),
        "headers": _headers(record.headers, out),
    }


def _headers(headers, out: Out) -> Any:
    pairs = [(name, None if value is None else out.bytes_value(value)) for name, value in headers]
    if out.as_json:
        return [list(pair) for pair in pairs]
    # one line: header names repeat, so no mapping
    return _Raw("[" + ", ".join(f"{name!r}: {value}" for name, value in pairs) + "]")


# --- inspect: telling files apart ------------------------------------------------------------


class Kind(enum.Enum):
    SEGMENT = "segment"
    CAPTURE = "capture"
    PRE08_CAPTURE = "pre08-capture"
    PRE08_LOG = "pre08-log"


def _segment_header_ok(buf) -> bool:
    """The first 17 bytes read as a batch / 0.8+ message header: offset, a possible length,
    magic 0-2."""
    if len(buf) < 17 or buf[16] not in (0, 1, 2):
        return False
    (length,) = _SIZE.unpack_from(buf, 8)
    return length >= 14


def _looks_like_segment(buf) -> bool:
    from kafkawire import read_batches

    if not _segment_header_ok(buf):
        return False
    (length,) = _SIZE.unpack_from(buf, 8)
    if 12 + length > len(buf):
        return False
    try:
        next(read_batches(buf[: 12 + length]))
    except (DecodeError, StopIteration):
        return False
    return True


def _first_frame(buf) -> bytes | None:
    if len(buf) < 4:
        return None
    (size,) = _SIZE.unpack_from(buf, 0)
    if size < 0 or 4 + size > len(buf):
        return None
    return bytes(buf[4 : 4 + size])


def _looks_like_capture(buf) -> bool:
    from kafkawire.protocol import decode_request

    frame = _first_frame(buf)
    if frame is None:
        return False
    try:
        decode_request(frame)
    except DecodeError:
        return False
    return True


def _capture_header_ok(buf) -> bool:
    """A size, then an API key and a version kafkawire knows: a request capture whose first
    frame does not decode."""
    from kafkawire.protocol._generated_messages import REQUESTS

    if len(buf) < 8:
        return False
    size, key, version = struct.unpack_from(">ihh", buf)
    return size >= 4 and key in REQUESTS and version in REQUESTS[key].valid_versions


def _looks_like_pre08_capture(buf) -> bool:
    from kafkawire.protocol import pre08

    frame = _first_frame(buf)
    if frame is None:
        return False
    try:
        pre08.decode_request(frame)
    except DecodeError:
        return False
    return True


def _looks_like_pre08_log(buf) -> bool:
    from kafkawire.protocol import pre08

    if len(buf) < 5 or buf[4] not in (0, 1):
        return False
    reader = pre08.read_message_set(buf[: min(len(buf), 1 << 20)], deep=False)
    try:
        next(reader)
    except (DecodeError, StopIteration):
        return False
    return True


def _pre08_log_header_ok(buf) -> bool:
    return len(buf) >= 10 and buf[4] in (0, 1) and _SIZE.unpack_from(buf, 0)[0] >= 5


# Whole first items that decode, then (for files whose first item is corrupt, so that the
# error is reported where it is) headers that merely look right, the file name's suffix first.
_STRICT: list[tuple[Kind, Callable[[Any], bool]]] = [
    (Kind.CAPTURE, _looks_like_capture),
    (Kind.PRE08_CAPTURE, _looks_like_pre08_capture),
    (Kind.SEGMENT, _looks_like_segment),
    (Kind.PRE08_LOG, _looks_like_pre08_log),
]
_LENIENT: dict[Kind, Callable[[Any], bool]] = {
    Kind.CAPTURE: _capture_header_ok,
    Kind.SEGMENT: _segment_header_ok,
    Kind.PRE08_LOG: _pre08_log_header_ok,
}
_SUFFIXES = {".requests": Kind.CAPTURE, ".log": Kind.SEGMENT, ".kafka": Kind.PRE08_LOG}


def detect(buf, path: str) -> Kind:
    """What a file holds, from its first bytes."""
    for kind, check in _STRICT:
        if check(buf):
            return kind
    hinted = _SUFFIXES.get(Path(path).suffix)
    order = ([hinted] if hinted else []) + [k for k in _LENIENT if k != hinted]
    for kind in order:
        if _LENIENT[kind](buf):
            return kind
    raise CliError(
        f"{path}: not a segment file, a capture of requests, or a Kafka 0.7 capture or log "
        f"(the first {min(len(buf), 17)} bytes are {bytes(buf[:17]).hex()}); "
        "a .responses file is read together with its .requests file"
    )


def _mapped(path: str) -> memoryview:
    """The file's bytes, mapped; the map goes when the last view of it does."""
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                return memoryview(b"")
            return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None


def _split_frames(buf, path: str) -> Iterator[tuple[int, bytes]]:
    """(position, frame without size prefix) of a capture file."""
    pos = 0
    end = len(buf)
    while pos < end:
        if end - pos < 4:
            raise CliError(f"{path}: the capture ends inside a frame size (byte {pos})")
        (size,) = _SIZE.unpack_from(buf, pos)
        if size < 0:
            raise CliError(f"{path}: negative frame size {size} (byte {pos})")
        if size > end - pos - 4:
            raise CliError(
                f"{path}: the capture ends inside a frame of {size} bytes "
                f"({end - pos - 4} there, byte {pos})"
            )
        yield pos, bytes(buf[pos + 4 : pos + 4 + size])
        pos += 4 + size


# --- inspect: each kind ----------------------------------------------------------------------


def _inspect_segment(buf, path: str, out: Out, verbose: bool) -> None:
    from kafkawire import read_batches

    reader = read_batches(buf)
    batches = records = 0
    try:
        for batch in reader:
            batches += 1
            records += batch.record_count
            body = [_record_fields(r, out) for r in batch] if verbose else None
            out.emit("batch", _batch_fields(batch), body, "records")
    except DecodeError as exc:
        raise CliError(f"{path}: {exc}") from None
    leftover = reader.leftover_bytes
    if leftover and any(buf[len(buf) - leftover :]):
        raise CliError(
            f"{path}: the file ends inside a batch ({leftover} bytes at byte {len(buf) - leftover})"
        )
    out.emit("segment", {"file": path, "batches": batches, "records": records, "bytes": len(buf)})


def _sibling_responses(path: str) -> str | None:
    if path.endswith(".requests"):
        candidate = path[: -len(".requests")] + ".responses"
        if os.path.exists(candidate):
            return candidate
    return None


def _inspect_capture(buf, path: str, responses_path: str | None, out: Out, verbose: bool) -> bool:
    """Requests in order, each followed by the response with its correlation id. Returns
    False when some frame did not decode (each is reported and the rest still shown)."""
    from kafkawire.protocol import ApiKey, decode_request, decode_response
    from kafkawire.protocol.versions import decode_api_versions_response

    ok = True
    answers: dict[int, tuple[int, bytes]] = {}
    if responses_path is not None:
        for pos, frame in _split_frames(_mapped(responses_path), responses_path):
            if len(frame) < 4:
                raise CliError(f"{responses_path}: a response frame of {len(frame)} bytes")
            (cid,) = _SIZE.unpack_from(frame, 0)
            answers.setdefault(cid, (pos, frame))
    answered: set[int] = set()
    count = 0
    for pos, frame in _split_frames(buf, path):
        count += 1
        try:
            header, msg = decode_request(frame)
        except DecodeError as exc:
            ok = False
            _problem(out, f"{path}: request at byte {pos}: {exc}")
            continue
        key, version = header.request_api_key, header.request_api_version
        cid = header.correlation_id
        out.emit(
            "request",
            {
                "api": ApiKey(key).name,
                "version": version,
                "correlation_id": cid,
                "client_id": header.client_id,
                "bytes": len(frame),
                "position": pos,
            },
            _plain(msg, version, out, verbose),
        )
        if cid not in answers:
            continue
        rpos, rframe = answers[cid]
        answered.add(cid)
        try:
            if key == ApiKey.API_VERSIONS:
                _, resp, version = decode_api_versions_response(rframe, version)
            else:
                _, resp = decode_response(rframe, api_key=key, api_version=version)
        except DecodeError as exc:
            ok = False
            _problem(out, f"{responses_path}: response at byte {rpos}: {exc}")
            continue
        out.emit(
            "response",
            {
                "api": ApiKey(key).name,
                "version": version,
                "correlation_id": cid,
                "bytes": len(rframe),
                "position": rpos,
            },
            _plain(resp, version, out, verbose),
        )
    for cid, (rpos, _) in answers.items():
        if cid not in answered:
            ok = False
            _problem(
                out, f"{responses_path}: response at byte {rpos} answers no request (id {cid})"
            )
    fields: dict[str, Any] = {"file": path, "requests": count}
    if responses_path is not None:
        fields.update(responses_file=responses_path, responses=len(answered))
    out.emit("capture", fields)
    return ok


def _pre08_plain(value: Any, out: Out, verbose: bool) -> Any:
    from kafkawire.protocol import pre08

    if isinstance(value, pre08.Message):
        shown: dict[str, Any] = {
            "magic": value.magic,
            "codec": value.compression.name.lower(),
            "size": value.size,
        }
        if value.magic == 1:
            shown["attributes"] = value.attributes
        if value.compression != 0:
            try:
                inner = value.messages()
            except DecodeError as exc:
                shown["error"] = str(exc)
            else:
                shown["messages"] = [_pre08_plain(m, out, verbose) for m in inner]
        else:
            shown["payload"] = out.bytes_value(value.payload)
        return shown
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _pre08_plain(getattr(value, f.name), out, verbose)
            for f in dataclasses.fields(value)
        }
    if isinstance(value, list):
        return [_pre08_plain(v, out, verbose) for v in value]
    if isinstance(value, bytes):
        return out.bytes_value(value)
    return value


def _inspect_pre08_capture(
    buf, path: str, responses_path: str | None, out: Out, verbose: bool
) -> bool:
    from kafkawire.protocol import pre08

    conn = pre08.Connection()
    try:
        requests = conn.feed_requests(buf)
    except DecodeError as exc:
        raise CliError(f"{path}: {exc}") from None
    if conn.buffered[0]:
        raise CliError(f"{path}: the capture ends inside a frame ({conn.buffered[0]} bytes)")
    pairs: dict[int, Any] = {}
    if responses_path is not None:
        try:
            for request, response in conn.feed_responses(_mapped(responses_path)):
                pairs[id(request)] = response
        except DecodeError as exc:
            raise CliError(f"{responses_path}: {exc}") from None
    for request in requests:
        out.emit(
            "request",
            {"request_type": request.request_type.name},
            _pre08_plain(request, out, verbose),
        )
        if id(request) in pairs:
            response = pairs[id(request)]
            body = _pre08_plain(response, out, verbose)
            out.emit(
                "response",
                {
                    "request_type": request.request_type.name,
                    "error": pre08.ERROR_NAMES.get(response.error_code, response.error_code),
                },
                body,
            )
    out.emit("capture", {"file": path, "format": "kafka 0.7", "requests": len(requests)})
    return not conn.unmatched_responses


def _inspect_pre08_log(buf, path: str, out: Out, verbose: bool) -> None:
    from kafkawire.protocol import pre08

    base = Path(path).stem
    base_offset = int(base) if base.isdigit() else 0
    reader = pre08.read_message_set(buf, base_offset=base_offset, deep=False)
    count = 0
    try:
        for entry in reader:
            count += 1
            fields = {"offset": entry.offset, "next_offset": entry.next_offset}
            out.emit("message", fields, _pre08_plain(entry.message, out, verbose))
    except DecodeError as exc:
        raise CliError(f"{path}: {exc}") from None
    if reader.leftover_bytes and any(buf[len(buf) - reader.leftover_bytes :]):
        raise CliError(f"{path}: the file ends inside a message ({reader.leftover_bytes} bytes)")
    out.emit("log", {"file": path, "format": "kafka 0.7", "messages": count})


def _problem(out: Out, text: str) -> None:
    sys.stderr.write(f"{PROG}: {text}\n")


def cmd_inspect(args: argparse.Namespace) -> int:
    out = Out(sys.stdout, as_json=args.json, max_bytes=args.max_bytes)
    if args.responses and len(args.files) != 1:
        raise CliError("--responses goes with one requests file")
    status = 0
    seen: set[str] = set()
    for path in args.files:
        responses = args.responses
        if path.endswith(".responses") and responses is None:
            requests = path[: -len(".responses")] + ".requests"
            if os.path.exists(requests):
                path, responses = requests, path
        elif responses is None:
            responses = _sibling_responses(path)
        if path in seen:  # conn-1.requests and conn-1.responses both given: shown once
            continue
        seen.add(path)
        try:
            buf = _mapped(path)
            if len(buf) == 0:
                out.emit("empty", {"file": path})
                continue
            kind = Kind(args.format) if args.format != "auto" else detect(buf, path)
            if kind == Kind.SEGMENT:
                _inspect_segment(buf, path, out, args.verbose)
            elif kind == Kind.CAPTURE:
                if not _inspect_capture(buf, path, responses, out, args.verbose):
                    status = 1
            elif kind == Kind.PRE08_CAPTURE:
                if not _inspect_pre08_capture(buf, path, responses, out, args.verbose):
                    status = 1
            else:
                _inspect_pre08_log(buf, path, out, args.verbose)
        except CliError as exc:
            _problem(out, str(exc))
            status = 1
    return status


# --- record -----------------------------------------------------------------------------------


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


class Recorder:
    """A TCP proxy that writes each connection's two directions to ``conn-N.requests`` and
    ``conn-N.responses`` in ``out_dir`` (raw bytes, as they pass)."""

    def __init__(
        self,
        listen: tuple[str, int],
        upstream: tuple[str, int],
        out_dir: str | os.PathLike,
        *,
        log: IO[str] | None = None,
    ) -> None:
        self.upstream = upstream
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.log = log
        self._server = socket.create_server(listen)
        self.address: tuple[str, int] = self._server.getsockname()[:2]
        self._lock = threading.Lock()
        self._next = 1
        self.closed_connections = 0
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self.changed = threading.Condition(self._lock)

    def _say(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text + "\n")
            self.log.flush()

    def serve(self) -> None:
        """Accept connections until :meth:`stop`."""
        sel = selectors.DefaultSelector()
        sel.register(self._server, selectors.EVENT_READ)
        try:
            while not self._stop.is_set():
                if not sel.select(0.2):
                    continue
                try:
                    client, peer = self._server.accept()
                except OSError:
                    continue
                with self._lock:
                    number = self._next
                    self._next += 1
                thread = threading.Thread(
                    target=self._connection, args=(number, client, peer), daemon=True
                )
                self._threads.append(thread)
                thread.start()
        finally:
            sel.close()
            self._server.close()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _connection(self, number: int, client: socket.socket, peer) -> None:
        name = f"conn-{number}"
        try:
            upstream = socket.create_connection(self.upstream, timeout=10)
        except OSError as exc:
            self._say(f"{name}: cannot reach {self.upstream[0]}:{self.upstream[1]}: {exc}")
            client.close()
            self._closed()
            return
        upstream.settimeout(None)
        self._say(f"{name}: {peer[0]}:{peer[1]} -> {self.upstream[0]}:{self.upstream[1]}")
        with (
            open(self.out_dir / f"{name}.requests", "wb") as requests,
            open(self.out_dir / f"{name}.responses", "wb") as responses,
        ):
            pumps = [
                threading.Thread(target=self._pump, args=(client, upstream, requests)),
                threading.Thread(target=self._pump, args=(upstream, client, responses)),
            ]
            for pump in pumps:
                pump.start()
            for pump in pumps:
                pump.join()
            sizes = requests.tell(), responses.tell()
        self._say(f"{name}: closed ({sizes[0]} bytes of requests, {sizes[1]} of responses)")
        self._closed()

    def _closed(self) -> None:
        with self.changed:
            self.closed_connections += 1
            self.changed.notify_all()

    def _pump(self, src: socket.socket, dst: socket.socket, sink: IO[bytes]) -> None:
        try:
            while chunk := src.recv(65536):
                sink.write(chunk)  # written before it is forwarded: a reply follows it
                sink.flush()
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                src.close()


def cmd_record(args: argparse.Namespace) -> int:
    try:
        recorder = Recorder(args.listen, args.upstream, args.out, log=sys.stderr)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.listen[0]}:{args.listen[1]}: {exc}") from None
    host, port = recorder.address
    sys.stderr.write(
        f"{PROG}: recording {host}:{port} -> {args.upstream[0]}:{args.upstream[1]} "
        f"into {args.out} (Ctrl-C stops)\n"
    )
    thread = threading.Thread(target=recorder.serve, daemon=True)
    thread.start()
    deadline = None if args.duration is None else time.monotonic() + args.duration
    try:
        with recorder.changed:
            while True:
                if args.connections is not None and (
                    recorder.closed_connections >= args.connections
                ):
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
                recorder.changed.wait(0.2)
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: stopped\n")
    finally:
        recorder.stop()
        thread.join(5)
        recorder.join(5)
    return 0


# --- convert ----------------------------------------------------------------------------------


class ProgressBar:
    """One stderr line redrawn in place: bar, percent, bytes, records, rate. Drawn only on a
    terminal (or when forced); at most ten times a second."""

    def __init__(
        self, total: int, *, stream: IO[str] | None = None, enabled: bool | None = None
    ) -> None:
        self.total = max(total, 0)
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
        fraction = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = int(fraction * 30)
        bar = "#" * filled + "-" * (30 - filled)
        elapsed = max(now - self.started, 1e-9)
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
    from kafkawire.spark._arrow import arrow_schema, kafka_batches

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
            f"{PROG}: {records:,} records from {len(found)} segment file(s) -> {out}\n"
        )
    return 0


# --- bench ------------------------------------------------------------------------------------


def benchmarks_dir() -> Path | None:
    """The benchmarks/ of a source checkout that this kafkawire was installed from."""
    root = Path(__file__).resolve().parents[2]
    candidate = root / "benchmarks"
    return candidate if (candidate / "conftest.py").is_file() else None


def cmd_bench(args: argparse.Namespace) -> int:
    where = benchmarks_dir()
    if where is None:
        raise CliError(
            "bench runs the benchmark suites in benchmarks/ of a kafkawire source checkout, "
            "and this kafkawire is not installed from one: clone the repository and run "
            "'pip install -e .[bench]' (or 'make bench') there"
        )
    try:
        import pytest_benchmark  # noqa: F401
    except ImportError:
        raise CliError("bench needs pytest-benchmark: pip install -e '.[bench]'") from None
    extra = [a for a in args.pytest_args if a != "--"]
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(where),
        "-q",
        "--benchmark-only",
        # CPU time: this is often run on shared machines (what `make bench` does too)
        "--benchmark-timer=time.process_time",
        *extra,
    ]
    return subprocess.call(command, cwd=where.parent)


# --- main -------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="The Apache Kafka wire protocol: inspect, record, convert."
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "inspect",
        help="pretty-print captures and segment files",
        description="Pretty-print segment files (record batches back to back) and captures "
        "(one TCP direction of size-prefixed frames, as `kafkawire record` writes them); "
        "what a file holds is told from its content. Requests are shown with the response "
        "that has their correlation id: --responses FILE, or the .responses file beside a "
        ".requests file. Kafka 0.7 captures and .kafka logs are recognised too.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--responses", metavar="FILE", help="the other direction of a capture")
    p.add_argument("-v", "--verbose", action="store_true", help="show every record")
    p.add_argument("--json", action="store_true", help="one JSON object a line")
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
        "two directions to DIR/conn-N.requests and DIR/conn-N.responses. Point a client's "
        "bootstrap at it: the broker's metadata still names the broker itself, so only "
        "connections made to this address are recorded.",
    )
    p.add_argument("--listen", type=_host_port, required=True, metavar="HOST:PORT")
    p.add_argument("--upstream", type=_host_port, required=True, metavar="HOST:PORT")
    p.add_argument("--out", required=True, metavar="DIR")
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
