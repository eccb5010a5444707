"""Rendering what inspect finds: readable trees, or one JSON object a line."""

from __future__ import annotations

import enum
import json
import uuid
from typing import IO, Any

from kafkawire.cli.common import Raw
from kafkawire.errors import DecodeError


class Out:
    """Where inspect writes: readable text, or one JSON object a line (``--json``)."""

    def __init__(
        self, stream: IO[str], *, as_json: bool, max_bytes: int, verify_crc: bool = True
    ) -> None:
        self.stream = stream
        self.as_json = as_json
        self.max_bytes = max_bytes
        self.verify_crc = verify_crc  # of the record batches it decodes (--no-verify-crc)

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
        return Raw(text + f"... ({len(data)} bytes)" if len(cut) < len(data) else text)

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
    if isinstance(value, str) and not isinstance(value, Raw):
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
    if isinstance(value, str) and not isinstance(value, Raw):
        return repr(value)
    return str(value)


def plain(value: Any, version: int, out: Out, verbose: bool) -> Any:
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
            elif f.attr.endswith(_NAMED_CODES) and isinstance(item, int):
                name = _code_name(f.attr, item)
                if out.as_json:  # the number stays a number; its name goes beside it
                    result[f.attr] = item
                    result[f"{f.attr}_name"] = name
                else:
                    result[f.attr] = Raw(f"{item} {name or '(unknown)'}")
            else:
                result[f.attr] = plain(item, version, out, verbose)
        if value._unknown_tagged_fields:
            result["unknown_tagged_fields"] = {
                str(tag): out.bytes_value(data) for tag, data in value._unknown_tagged_fields
            }
        return result
    if isinstance(value, list):
        return [plain(v, version, out, verbose) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return out.bytes_value(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    return value


# fields whose numbers have names: error codes (error_code, top_level_error_code, ...) and
# API keys (ApiVersions' api_keys[].api_key, ...)
_NAMED_CODES = ("error_code", "api_key")


def _code_name(attr: str, code: int) -> str | None:
    """The name of an error code or API key, None for one Kafka does not define."""
    if attr.endswith("api_key"):
        return api_name(code)
    from kafkawire.protocol.error_codes import ERRORS

    info = ERRORS.get(code)
    return None if info is None else info.name


def api_name(key: int) -> str | None:
    """METADATA for 3, ...; None for a key kafkawire does not know."""
    from kafkawire.protocol import ApiKey

    try:
        return ApiKey(key).name
    except ValueError:
        return None


def _records_summary(data, out: Out, verbose: bool) -> Any:
    """bytes, batches, records and partial_batch_bytes always (an error leaves the counts
    null and says why); -v adds batch_list, each batch with its record_list."""
    from kafkawire import read_batches

    size = len(memoryview(data))
    summary: dict[str, Any] = {
        "bytes": size,
        "batches": None,
        "records": None,
        "partial_batch_bytes": None,
    }
    try:
        reader = read_batches(data, keep_control=True, verify_crc=out.verify_crc)
        batches = list(reader)
    except DecodeError as exc:
        summary["error"] = str(exc)
        return summary
    summary.update(
        batches=len(batches),
        records=sum(batch.record_count for batch in batches),
        partial_batch_bytes=reader.leftover_bytes,
    )
    if verbose:
        summary["batch_list"] = [
            {**batch_fields(batch), "record_list": [record_fields(r, out) for r in batch]}
            for batch in batches
        ]
    return summary


def batch_fields(batch) -> dict[str, Any]:
    """A batch's header fields; those only magic 2 has are null for magic 0 and 1, and
    control_record (COMMIT or ABORT) is null unless it is a control batch."""
    v2 = batch.magic == 2
    control = batch.control_record if v2 else None
    return {
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
        "partition_leader_epoch": batch.partition_leader_epoch if v2 else None,
        "producer_id": batch.producer_id if v2 else None,
        "producer_epoch": batch.producer_epoch if v2 else None,
        "base_sequence": batch.base_sequence if v2 else None,
        "transactional": batch.is_transactional if v2 else None,
        "control": batch.is_control if v2 else None,
        "control_record": None if control is None else "COMMIT" if control.is_commit else "ABORT",
    }


def record_fields(record, out: Out) -> dict[str, Any]:
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
    return Raw("[" + ", ".join(f"{name!r}: {value}" for name, value in pairs) + "]")


# The bytes fields that hold ConsumerProtocol payloads when the group's protocol type is
# "consumer": (API key, is a request) -> (the list holding them or None, field, payload kind)
_CONSUMER_PAYLOADS = {
    (11, True): ("protocols", "metadata", "subscription"),  # JoinGroup
    (11, False): ("members", "metadata", "subscription"),
    (14, True): ("assignments", "assignment", "assignment"),  # SyncGroup
    (14, False): (None, "assignment", "assignment"),
}


def decode_consumer_payloads(api_key: int, is_request: bool, msg, shown: dict, out: Out) -> None:
    """Replace the ConsumerProtocol payloads in ``shown`` (``msg`` as :func:`plain` made it)
    with what they hold; call it only for groups of protocol type "consumer"."""
    spec = _CONSUMER_PAYLOADS.get((api_key, is_request))
    if spec is None:
        return
    list_attr, attr, kind = spec
    if list_attr is None:
        pairs = [(msg, shown)]
    else:
        pairs = list(zip(getattr(msg, list_attr) or [], shown.get(list_attr) or [], strict=True))
    for item, item_shown in pairs:
        data = getattr(item, attr)
        if data is not None:
            item_shown[attr] = consumer_payload(bytes(data), kind, out)


def consumer_payload(data: bytes, kind: str, out: Out) -> dict[str, Any]:
    """A ConsumerProtocolSubscription (``kind`` "subscription") or ConsumerProtocolAssignment
    as a dict; one that does not decode as ``{"raw": ..., "error": ...}``."""
    from kafkawire.client.groups.assignors import decode_assignment, decode_subscription

    version = int.from_bytes(data[:2], "big", signed=True) if len(data) >= 2 else None
    try:
        if kind == "subscription":
            sub = decode_subscription(data)
            return {
                "version": version,
                "topics": sub.topics,
                "user_data": None if sub.user_data is None else out.bytes_value(sub.user_data),
                "owned_partitions": _by_topic(sub.owned_partitions),
                "generation_id": sub.generation_id,
                "rack_id": sub.rack_id,
            }
        assignment = decode_assignment(data)
    except DecodeError as exc:
        return {"raw": out.bytes_value(data), "error": str(exc)}
    user_data = assignment.user_data
    return {
        "version": version,
        "partitions": _by_topic(assignment.partitions),
        "user_data": None if user_data is None else out.bytes_value(user_data),
    }


def _by_topic(tps) -> list[dict[str, Any]]:
    topics: dict[str, list[int]] = {}
    for topic, partition in tps:
        topics.setdefault(topic, []).append(partition)
    return [{"topic": t, "partitions": ps} for t, ps in topics.items()]
