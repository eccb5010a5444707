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


def _records_summary(data, out: Out, verbose: bool) -> Any:
    from kafkawire import read_batches

    size = len(memoryview(data))
    try:
        reader = read_batches(data, keep_control=True)
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
            {**batch_fields(batch), "records": [record_fields(r, out) for r in batch]}
            for batch in batches
        ]
    return summary


def batch_fields(batch) -> dict[str, Any]:
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
