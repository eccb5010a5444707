"""``kafkawire inspect``: tell segment files, captures and Kafka 0.7 files apart, and show
what is inside."""

from __future__ import annotations

import argparse
import dataclasses
import enum
import os
import re
import struct
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kafkawire.cli.common import PROG, SIZE, CliError, mapped_file
from kafkawire.cli.render import (
    Out,
    api_name,
    batch_fields,
    decode_consumer_payloads,
    plain,
    record_fields,
)
from kafkawire.errors import DecodeError, TruncatedError
from kafkawire.protocol.framing import FrameReader, split_frames


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
    (length,) = SIZE.unpack_from(buf, 8)
    return length >= 14


def _looks_like_segment(buf) -> bool:
    from kafkawire import read_batches

    if not _segment_header_ok(buf):
        return False
    (length,) = SIZE.unpack_from(buf, 8)
    if 12 + length > len(buf):
        return False
    try:
        next(read_batches(buf[: 12 + length], keep_control=True))
    except (DecodeError, StopIteration):
        return False
    return True


def _first_frame(buf) -> bytes | None:
    """The first frame of a would-be capture, None if the buffer does not start with one."""
    reader = FrameReader()
    reader.feed(memoryview(buf)[: 4 + 1024 * 1024])  # a first request is small
    try:
        return reader.next_frame()
    except DecodeError:
        return None


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
    return len(buf) >= 10 and buf[4] in (0, 1) and SIZE.unpack_from(buf, 0)[0] >= 5


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


def _split_frames(buf, path: str) -> Iterator[tuple[int, bytes]]:
    """(position, frame without size prefix) of a capture file."""
    try:
        yield from split_frames(buf)
    except TruncatedError as exc:
        raise CliError(f"{path}: the capture ends inside a frame ({exc})") from None
    except DecodeError as exc:
        raise CliError(f"{path}: {exc}") from None


# --- inspect: each kind ----------------------------------------------------------------------


def _inspect_segment(buf, path: str, out: Out, verbose: bool) -> None:
    from kafkawire import read_batches

    reader = read_batches(buf, keep_control=True, verify_crc=out.verify_crc)
    batches = records = 0
    try:
        for batch in reader:
            batches += 1
            records += batch.record_count
            body = [record_fields(r, out) for r in batch] if verbose else None
            out.emit("batch", {"file": path, **batch_fields(batch)}, body, "record_list")
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
    group_types: dict[str, str | None] = {}  # group id -> protocol type, from JoinGroup
    answers: dict[int, tuple[int, bytes]] = {}
    if responses_path is not None:
        for pos, frame in _split_frames(mapped_file(responses_path), responses_path):
            if len(frame) < 4:
                raise CliError(f"{responses_path}: a response frame of {len(frame)} bytes")
            (cid,) = SIZE.unpack_from(frame, 0)
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
        consumer_group = _is_consumer_group(key, msg, group_types)
        shown = plain(msg, version, out, verbose)
        if consumer_group:
            decode_consumer_payloads(key, True, msg, shown, out)
        out.emit(
            "request",
            {
                "api": api_name(key),
                "api_key": key,
                "version": version,
                "correlation_id": cid,
                "client_id": header.client_id,
                "bytes": len(frame),
                "position": pos,
            },
            shown,
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
        shown = plain(resp, version, out, verbose)
        if consumer_group:
            decode_consumer_payloads(key, False, resp, shown, out)
        out.emit(
            "response",
            {
                "api": api_name(key),
                "api_key": key,
                "version": version,
                "correlation_id": cid,
                "bytes": len(rframe),
                "position": rpos,
            },
            shown,
        )
    for cid, (rpos, _) in answers.items():
        if cid not in answered:
            ok = False
            _problem(
                out, f"{responses_path}: response at byte {rpos} answers no request (id {cid})"
            )
    out.emit(
        "capture",
        {
            "file": path,
            "format": "kafka",
            "requests": count,
            "responses_file": responses_path,
            "responses": len(answered),
        },
    )
    return ok


def _is_consumer_group(api_key: int, request, group_types: dict[str, str | None]) -> bool:
    """Whether a JoinGroup or SyncGroup request (and so its response) is of a group with
    protocol type "consumer": its own protocol_type, else the one its group's JoinGroup had
    (SyncGroup before version 5 does not say)."""
    from kafkawire.protocol import ApiKey

    if api_key not in (ApiKey.JOIN_GROUP, ApiKey.SYNC_GROUP):
        return False
    protocol_type = request.protocol_type
    if api_key == ApiKey.JOIN_GROUP:
        group_types[request.group_id] = protocol_type
    elif protocol_type is None:
        protocol_type = group_types.get(request.group_id)
    return protocol_type == "consumer"


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
            for request, response in conn.feed_responses(mapped_file(responses_path)):
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
    out.emit(
        "capture",
        {
            "file": path,
            "format": "kafka 0.7",
            "requests": len(requests),
            "responses_file": responses_path,
            "responses": len(pairs),
        },
    )
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


def _files_in(directory: str) -> list[str]:
    """The NNNNNNNNNNNNNNNNNNNN.log files under a directory (a partition directory, or a log
    dir of <topic>-<partition> directories), by topic, partition and base offset; in a
    directory without them, its captures (*.requests, as `kafkawire record` writes them) in
    the order of the numbers in their names."""
    from kafkawire.records.segments import find_segments

    found = [segment.path for segment in find_segments(directory)]
    if found:
        return found
    captures = sorted(Path(directory).glob("*.requests"), key=lambda p: _natural(p.name))
    if not captures:
        raise CliError(
            f"{directory}: a directory without segment files (NNNNNNNNNNNNNNNNNNNN.log) or "
            "captures (*.requests)"
        )
    return [str(path) for path in captures]


def _natural(name: str) -> list:
    """conn-2 before conn-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def cmd_inspect(args: argparse.Namespace) -> int:
    out = Out(
        sys.stdout,
        as_json=args.json,
        max_bytes=args.max_bytes,
        verify_crc=not args.no_verify_crc,
    )
    if args.responses and (len(args.files) != 1 or os.path.isdir(args.files[0])):
        raise CliError("--responses goes with one requests file")
    status = 0
    paths: list[str] = []
    for given in args.files:
        if not os.path.isdir(given):
            paths.append(given)
            continue
        try:
            paths += _files_in(given)
        except CliError as exc:
            _problem(out, str(exc))
            status = 1
    seen: set[str] = set()
    for path in paths:
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
            buf = mapped_file(path)
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
