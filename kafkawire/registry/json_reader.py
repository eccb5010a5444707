"""JSON Schema payloads to Arrow columns, through Arrow's C++ JSON reader.

:func:`decode_frames` reads a column's JSON payloads as the Arrow type that
:func:`~kafkawire.registry.json_schema.json_schema_to_arrow` maps the reader schema to, with
no Python object per record: the payloads (framing stripped, raw newlines turned into spaces)
become one newline-separated buffer that ``pyarrow.json.read_json`` parses with an explicit
schema, and the few types Arrow's reader cannot parse directly are converted column-wise after
(pyarrow.compute and numpy).

Bad payloads fail their own row only: when the bulk parse fails (or yields another number of
rows), groups of rows are parsed alone and a failing group is halved down to its bad rows.
Payloads that cannot be one JSON object (empty, ``[..]``, not ending in ``}``) and payloads
that are not UTF-8 (Arrow's reader does not check) are set aside before. A row's error says
why: invalid JSON with the byte offset (from a Python parse of that payload only), the
property whose value has another type than the schema's (Arrow's message), a date-time, date
or base64 string that does not convert.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson

from kafkawire.registry.json_schema import json_schema_to_arrow

__all__ = ["decode_frames"]

_WS = np.zeros(256, dtype=bool)
_WS[[0x20, 0x09, 0x0A, 0x0D]] = True
_B64 = np.full(256, 255, dtype=np.uint8)
for _i, _c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"):
    _B64[_c] = _i
_B64[ord("-")] = 62
_B64[ord("_")] = 63
_WRAP = (b'{"value":', b"}")
_GROUP_ROWS = 1024
_ROW_IN_ERROR = re.compile(r" in row (\d+)$")


def _resolver(registry: Any, schema: Any) -> Callable[[str], Any] | None:
    if not getattr(schema, "references", None):
        return None
    refs = registry.references(schema)
    by_id: dict[str, str] = {}

    def resolve(name: str) -> Any:
        found = refs.get(name)
        if found is not None:
            return found.schema_str
        if not by_id:  # the references' own $id, for a $ref by absolute URL
            for ref in refs.values():
                try:
                    text = json.loads(ref.schema_str)
                except json.JSONDecodeError:
                    continue
                if isinstance(text, dict) and isinstance(text.get("$id"), str):
                    by_id[text["$id"]] = ref.schema_str
        return by_id.get(name)

    return resolve


def decode_frames(registry: Any, reader: Any, writers: list, frames: Any, keys: np.ndarray):
    """The JSON payloads of ``frames`` read as ``reader``'s Arrow type: (a StructArray with
    one row per input row, {row: error} for the rows that did not decode). ``keys`` is each
    row's writer index (-1 null value, -2 already failed): those rows are null. Every row is
    read with the reader schema's type (JSON says which properties it has), whatever its
    writer schema."""
    target = json_schema_to_arrow(reader.schema_str, _resolver(registry, reader))
    wrapped = not pa.types.is_struct(target)
    if wrapped:
        target = pa.struct([pa.field("value", target)])
    n = len(keys)
    failed: dict[int, str] = {}
    rows = np.flatnonzero(keys >= 0)
    data = frames.data
    starts = frames.starts[rows]
    ends = frames.ends[rows]
    reader_ = _Reader(data, frames.starts, frames.ends, wrapped)
    rows = rows[_check_shapes(data, starts, ends, rows, wrapped, failed, reader_)]
    parts: list[tuple[np.ndarray, pa.Table]] = []
    if len(rows):
        keysets: dict[str, set] = {}
        if _has_map(target):
            # the key discovery reads keys as Arrow field names: rows that are not UTF-8 out
            # first (the typed parse below checks them too, for the rows without maps)
            rows = reader_.drop_not_utf8(rows, failed)
            discover = _parse_type(target, None, "")
            refused: list[int] = []
            for table in reader_.infer(rows, discover, refused):
                _collect_keys(target, table.schema, keysets)
            # Rows in a group Arrow's inference refuses (an undeclared property of mixed
            # types, or a row the parse below fails anyway): their keys from a Python parse.
            for row in refused:
                value = reader_.loads(row)
                if value is not None:
                    _python_keys(value, target, keysets, "")
        ptype = _parse_type(target, keysets, "")
        if len(rows):
            parts = reader_.read(rows, ptype, "ignore", failed)
    got_rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    if parts:
        table = pa.concat_tables([p[1] for p in parts])
        parsed = table.to_struct_array().combine_chunks()
        if isinstance(parsed, pa.ChunkedArray):  # pragma: no cover - older pyarrow
            parsed = parsed.combine_chunks()
        bad: dict[int, str] = {}
        values = _convert(parsed, target, "", bad)
        for i, text in bad.items():
            failed[int(got_rows[i])] = text
    else:
        values = pa.array([], target)
    if not failed and len(got_rows) == n and bool(np.all(np.diff(got_rows) == 1)):
        return values, failed  # every row, in order: nothing to scatter
    index = np.full(n, -1, dtype=np.int64)
    index[got_rows] = np.arange(len(got_rows), dtype=np.int64)
    for row in failed:
        index[row] = -1
    take = pa.array(index, pa.int64(), mask=index < 0)
    return values.take(take), failed


def _check_shapes(data, starts, ends, rows, wrapped, failed, reader) -> np.ndarray:
    """Which rows may go into the bulk parse: a payload must start with ``{`` and end with
    ``}`` (whitespace aside), or for a wrapped schema hold something. These rows are what makes
    the concatenation safe: a payload that does not close its object runs into the next one's
    ``{``, which JSON does not allow there; a payload holding two values makes the count of
    rows differ (both send the parse to the row-by-row fallback)."""
    lengths = ends - starts
    ok = lengths > 0
    first = np.zeros(len(rows), np.uint8)
    last = np.zeros(len(rows), np.uint8)
    first[ok] = data[starts[ok]]
    last[ok] = data[ends[ok] - 1]
    padded = np.flatnonzero(ok & (_WS[first] | _WS[last]))
    for i in padded:
        body = bytes(data[starts[i] : ends[i]]).strip(b" \t\r\n")
        if not body:
            ok[i] = False
        else:
            first[i], last[i] = body[0], body[-1]
    for i in np.flatnonzero(~ok):
        failed[int(rows[i])] = "an empty payload (no JSON value)"
    if not wrapped:
        shaped = ok & (first == ord("{")) & (last == ord("}"))
        for i in np.flatnonzero(ok & ~shaped):
            failed[int(rows[i])] = reader.diagnose(int(rows[i]), None)
        ok = shaped
    return ok


class _Reader:
    """Parses sets of rows with Arrow's JSON reader, finding the rows it refuses."""

    def __init__(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray, wrapped: bool):
        self.data = data
        self.starts = starts
        self.ends = ends
        self.wrapped = wrapped

    def buffer(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """The payloads of ``rows``, one a line (newlines inside made spaces): (the buffer,
        where each row's line starts, the longest line)."""
        starts = self.starts[rows]
        ends = self.ends[rows]
        lengths = ends - starts
        longest = int(lengths.max()) if len(lengths) else 0
        if not self.wrapped and len(rows) and bool(np.all(starts[1:] > ends[:-1])):
            # The payloads in order with gaps (the framing) between them: copy the span and
            # blank the gaps, a newline at the start of each.
            base = int(starts[0])
            span = int(ends[-1]) - base
            raw = bytearray(memoryview(self.data)[base : base + span])
            raw.append(0x20)
            gap_starts = ends[:-1] - base
            gap_lengths = starts[1:] - ends[:-1]
            _fill_runs(np.frombuffer(raw, np.uint8), gap_starts, gap_lengths, 0x20)
            buf = np.frombuffer(_without_newlines(raw), np.uint8)
            buf[-1] = 0x0A
            buf[gap_starts] = 0x0A
            return buf, starts - base, longest
        prefix, suffix = _WRAP if self.wrapped else (b"", b"")
        extra = len(prefix) + len(suffix) + 1
        out_len = lengths + extra
        offsets = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(out_len, out=offsets[1:])
        raw = bytearray(int(offsets[-1]))
        buf = np.frombuffer(raw, np.uint8)
        buf[:] = 0x20
        chunk = max(1, (8 << 20) // max(1, int(lengths.mean()) if len(lengths) else 1))
        for lo in range(0, len(rows), chunk):
            hi = min(len(rows), lo + chunk)
            ln = lengths[lo:hi]
            total = int(ln.sum())
            if total:
                within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(ln) - ln, ln)
                src = np.repeat(starts[lo:hi], ln) + within
                dst = np.repeat(offsets[lo:hi] + len(prefix), ln) + within
                buf[dst] = self.data[src]
        buf = np.frombuffer(_without_newlines(raw), np.uint8)
        if prefix:
            for j, byte in enumerate(prefix):
                buf[offsets[:-1] + j] = byte
            for j, byte in enumerate(suffix):
                buf[offsets[:-1] + len(prefix) + lengths + j] = byte
        buf[offsets[1:] - 1] = 0x0A
        return buf, offsets[:-1], longest + extra

    def parse(self, rows: np.ndarray, ptype: pa.StructType, behavior: str) -> pa.Table:
        buf, _, longest = self.buffer(rows)
        return self.parse_buffer(buf, longest, ptype, behavior)

    def parse_buffer(self, buf, longest, ptype, behavior) -> pa.Table:
        many = len(buf) > 4 * (1 << 20)
        # One block when small, so that Arrow's "in row N" counts from the first row.
        block = max(1 << 20, 2 * longest + 64) if many else len(buf) + 64
        return pajson.read_json(
            pa.BufferReader(pa.py_buffer(buf)),
            read_options=pajson.ReadOptions(use_threads=many, block_size=block),
            parse_options=pajson.ParseOptions(
                explicit_schema=pa.schema(list(ptype)), unexpected_field_behavior=behavior
            ),
        )

    def infer(self, rows: np.ndarray, ptype: pa.StructType, refused: list[int]) -> list:
        """Tables of ``rows`` parsed with type inference past ``ptype`` (by groups when the
        whole does not parse); the rows of a group that does not parse go to ``refused``."""
        errors = (pa.ArrowInvalid, pa.ArrowNotImplementedError)
        try:
            return [self.parse(rows, ptype, "infer")]
        except errors:
            pass
        if len(rows) <= _GROUP_ROWS:
            refused.extend(rows.tolist())
            return []
        tables = []
        for lo in range(0, len(rows), _GROUP_ROWS):
            piece = rows[lo : lo + _GROUP_ROWS]
            try:
                tables.append(self.parse(piece, ptype, "infer"))
            except errors:
                refused.extend(piece.tolist())
        return tables

    def drop_not_utf8(self, rows: np.ndarray, failed: dict[int, str]) -> np.ndarray:
        """``rows`` without those whose payload is not UTF-8 (each failed with its reason)."""
        buf, line_starts, _longest = self.buffer(rows)
        broken = _not_utf8(buf, line_starts)
        for i in broken:
            failed[int(rows[i])] = self.diagnose(int(rows[i]), None)
        return np.delete(rows, broken) if broken else rows

    def read(self, rows, ptype, behavior, failed) -> list[tuple[np.ndarray, pa.Table]]:
        """[(rows, their table)] for the rows that parse; the others go to ``failed``."""
        buf, line_starts, longest = self.buffer(rows)
        broken = _not_utf8(buf, line_starts)
        if broken:
            # Arrow's reader does not check UTF-8: those rows fail here, their lines blanked
            # (Arrow skips empty lines).
            ends = np.append(line_starts[1:], len(buf)) - 1
            for i in broken:
                failed[int(rows[i])] = self.diagnose(int(rows[i]), None)
                buf[line_starts[i] : ends[i]] = 0x20
            rows = np.delete(rows, broken)
            if not len(rows):
                return []
        try:
            table = self.parse_buffer(buf, longest, ptype, behavior)
            if table.num_rows == len(rows):
                return [(rows, table)]
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            pass
        out: list = []
        for lo in range(0, len(rows), _GROUP_ROWS):
            self._bisect(rows[lo : lo + _GROUP_ROWS], ptype, behavior, failed, out)
        return out

    def _attempt(self, rows, ptype, behavior) -> tuple[pa.Table | None, str]:
        try:
            table = self.parse(rows, ptype, behavior)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            return None, str(exc)
        if table.num_rows == len(rows):
            return table, ""
        return None, f"{table.num_rows} JSON values in one payload"

    def _bisect(self, rows, ptype, behavior, failed, out) -> None:
        """Parses ``rows`` (a group small enough for one block of Arrow's reader), finding
        the bad ones: the row Arrow's error names when that row fails alone, else by halves."""
        while len(rows):
            table, error = self._attempt(rows, ptype, behavior)
            if table is not None:
                out.append((rows, table))
                return
            if len(rows) == 1:
                failed[int(rows[0])] = self.diagnose(int(rows[0]), error)
                return
            named = _ROW_IN_ERROR.search(error)
            at = int(named.group(1)) if named else -1
            if 0 <= at < len(rows):
                alone, alone_error = self._attempt(rows[at : at + 1], ptype, behavior)
                if alone is None:
                    failed[int(rows[at])] = self.diagnose(int(rows[at]), alone_error)
                    if at:
                        self._bisect(rows[:at], ptype, behavior, failed, out)
                    rows = rows[at + 1 :]
                    continue
            half = len(rows) // 2
            self._bisect(rows[:half], ptype, behavior, failed, out)
            rows = rows[half:]

    def loads(self, row: int) -> Any:
        """One payload as Python (for a row Arrow refuses), or None."""
        try:
            value = json.loads(bytes(self.data[self.starts[row] : self.ends[row]]))
        except (ValueError, RecursionError):
            return None
        return {"value": value} if self.wrapped else value

    def diagnose(self, row: int, arrow_error: str | None) -> str:
        """Why one payload does not read (only bad rows come here: a Python parse of each)."""
        raw = bytes(self.data[self.starts[row] : self.ends[row]])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return f"the JSON payload is not UTF-8 (byte {exc.start})"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            offset = len(text[: exc.pos].encode("utf-8"))
            return f"invalid JSON: {exc.msg} (byte {offset} of the JSON payload)"
        except RecursionError:
            return "invalid JSON: nested too deeply"
        if not self.wrapped and not isinstance(value, dict):
            return f"the JSON payload is {_json_kind(value)}, not an object"
        if arrow_error is None:
            arrow_error = "the payload does not read as the schema"
        message = arrow_error.removeprefix("JSON parse error: ")
        if message.endswith(" in row 0"):
            message = message[: -len(" in row 0")]
        message = message.replace("Column(/value", "Column(") if self.wrapped else message
        if "Column(" in message or "convert" in message:
            return f"the JSON payload does not fit the schema: {message}"
        return f"Arrow's JSON reader refuses the payload: {message}"


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"  # pragma: no cover


def _not_utf8(buf: np.ndarray, line_starts: np.ndarray) -> list[int]:
    """The lines of ``buf`` that are not UTF-8 (decoded in chunks of whole lines)."""
    broken: list[int] = []
    view = memoryview(buf)
    chunk = 16 << 20
    lo = 0
    n = len(line_starts)
    while lo < n:
        begin = int(line_starts[lo])
        hi = int(np.searchsorted(line_starts, begin + chunk, side="right"))
        hi = max(hi, lo + 1)
        end = int(line_starts[hi]) if hi < n else len(buf)
        try:
            codecs.utf_8_decode(view[begin:end], "strict", True)
            lo = hi
        except UnicodeDecodeError as exc:
            row = int(np.searchsorted(line_starts, begin + exc.start, side="right")) - 1
            broken.append(row)
            lo = row + 1
    return broken


def _fill_runs(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, byte: int) -> None:
    total = int(lengths.sum())
    if total == 0:
        return
    if total == len(lengths) * int(lengths[0]) and bool(np.all(lengths == lengths[0])):
        k = int(lengths[0])
        for j in range(k):
            buf[starts + j] = byte
        return
    within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    buf[np.repeat(starts, lengths) + within] = byte


_NEWLINES = bytes.maketrans(b"\n\r", b"  ")


def _without_newlines(raw: bytearray) -> bytearray:
    """``raw`` with its newlines and carriage returns made spaces (JSON whitespace outside
    strings; a string cannot hold them raw)."""
    if raw.find(b"\n") >= 0 or raw.find(b"\r") >= 0:
        return raw.translate(_NEWLINES)
    return raw


# ---- types while parsing, and the conversion after -----------------------------------------


def _has_map(t: pa.DataType) -> bool:
    if pa.types.is_map(t):
        return True
    if pa.types.is_struct(t):
        return any(_has_map(f.type) for f in t)
    if pa.types.is_list(t):
        return _has_map(t.value_type)
    return False


def _parse_type(t: pa.DataType, keysets: dict | None, path: str) -> pa.DataType:
    """What Arrow's reader parses for ``t``: strings for timestamps, dates and base64; a
    struct of the column's keys for a map (an empty struct while finding them)."""
    if pa.types.is_timestamp(t) or pa.types.is_date32(t) or pa.types.is_binary(t):
        return pa.string()
    if pa.types.is_struct(t):
        return pa.struct(
            [pa.field(f.name, _parse_type(f.type, keysets, f"{path}/{f.name}")) for f in t]
        )
    if pa.types.is_list(t):
        return pa.list_(pa.field("element", _parse_type(t.value_type, keysets, path + "[]")))
    if pa.types.is_map(t):
        if keysets is None:
            return pa.struct([])
        value = _parse_type(t.item_type, keysets, path + "{}")
        return pa.struct([pa.field(k, value) for k in sorted(keysets.get(path, ()))])
    return t


def _collect_keys(t: pa.DataType, got: Any, keysets: dict, path: str = "") -> None:
    if isinstance(got, pa.Schema):
        got = pa.struct(list(got))
    if pa.types.is_struct(t) and pa.types.is_struct(got):
        for f in t:
            i = got.get_field_index(f.name)
            if i >= 0:
                _collect_keys(f.type, got.field(i).type, keysets, f"{path}/{f.name}")
    elif pa.types.is_list(t) and pa.types.is_list(got):
        _collect_keys(t.value_type, got.value_type, keysets, path + "[]")
    elif pa.types.is_map(t) and pa.types.is_struct(got):
        names = keysets.setdefault(path, set())
        for f in got:
            names.add(f.name)
            _collect_keys(t.item_type, f.type, keysets, path + "{}")


def _python_keys(value: Any, t: pa.DataType, keysets: dict, path: str) -> None:
    if value is None:
        return
    if pa.types.is_struct(t) and isinstance(value, dict):
        for f in t:
            _python_keys(value.get(f.name), f.type, keysets, f"{path}/{f.name}")
    elif pa.types.is_list(t) and isinstance(value, list):
        for v in value:
            _python_keys(v, t.value_type, keysets, path + "[]")
    elif pa.types.is_map(t) and isinstance(value, dict):
        keysets.setdefault(path, set()).update(value)
        for v in value.values():
            _python_keys(v, t.item_type, keysets, path + "{}")


def _convert(arr: pa.Array, t: pa.DataType, path: str, bad: dict[int, str]) -> pa.Array:
    """``arr`` (as Arrow's reader parsed it) as type ``t``; elements that do not convert are
    null, with their error in ``bad`` (by index in ``arr``)."""
    if arr.type.equals(t):
        return arr
    if pa.types.is_struct(t):
        children = []
        for f in t:
            child = arr.field(f.name)
            children.append(_convert(child, f.type, f"{path}/{f.name}", bad))
        mask = arr.is_null() if arr.null_count else None
        return pa.StructArray.from_arrays(children, fields=list(t), mask=mask)
    if pa.types.is_list(t):
        lengths = pc.list_value_length(arr).fill_null(0).to_numpy(zero_copy_only=False)
        values = arr.flatten()
        inner: dict[int, str] = {}
        converted = _convert(values, t.value_type, path + "[]", inner)
        if inner:
            parents = np.repeat(np.arange(len(arr)), lengths)
            for i, text in inner.items():
                bad.setdefault(int(parents[i]), text)
        offsets = np.zeros(len(arr) + 1, np.int32)
        np.cumsum(lengths, out=offsets[1:])
        mask = arr.is_null() if arr.null_count else None
        return pa.ListArray.from_arrays(pa.array(offsets), converted, type=t, mask=mask)
    if pa.types.is_map(t):
        return _to_map(arr, t, path, bad)
    if pa.types.is_timestamp(t):
        return _cast_each(arr, t, path, bad, "an RFC 3339 date-time", _normalize_date_time)
    if pa.types.is_date32(t):
        return _cast_each(arr, t, path, bad, "a date (YYYY-MM-DD)", None)
    if pa.types.is_binary(t):
        return _base64(arr, path, bad)
    return arr.cast(t)  # pragma: no cover - the parse types are the target's elsewhere


def _to_map(arr: pa.StructArray, t: pa.MapType, path: str, bad: dict[int, str]) -> pa.Array:
    n = len(arr)
    names = [f.name for f in arr.type]
    if names:
        children = [
            _convert(arr.field(i), t.item_type, f"{path}/{names[i]}", bad)
            for i in range(len(names))
        ]
        valid = np.stack([c.is_valid().to_numpy(zero_copy_only=False) for c in children], axis=1)
        if arr.null_count:
            valid &= arr.is_valid().to_numpy(zero_copy_only=False)[:, None]
        rows, which = np.nonzero(valid)
        items = pa.concat_arrays(children).take(pa.array(which * n + rows))
        keys = pa.array(names, pa.string()).take(pa.array(which))
        counts = np.bincount(rows, minlength=n)
    else:
        items = pa.array([], t.item_type)
        keys = pa.array([], pa.string())
        counts = np.zeros(n, np.int64)
    offsets = np.zeros(n + 1, np.int32)
    np.cumsum(counts, out=offsets[1:])
    mask = arr.is_null() if arr.null_count else None
    return pa.MapArray.from_arrays(pa.array(offsets), keys, items, type=t, mask=mask)


def _normalize_date_time(arr: pa.Array) -> pa.Array:
    arr = pc.ascii_upper(arr)
    return pc.replace_substring_regex(arr, r"(\.\d{6})\d+", r"\1")


def _cast_each(arr, t, path, bad, what, normalize) -> pa.Array:
    try:
        return arr.cast(t)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        pass
    if normalize is not None:
        arr = normalize(arr)
        try:
            return arr.cast(t)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            pass
    failing: list[int] = []
    _find_failing(arr, t, 0, failing)
    mask = np.zeros(len(arr), bool)
    mask[failing] = True
    for i in failing:
        bad.setdefault(i, f"field {path or '/'}: {arr[i].as_py()!r} is not {what}")
    return pc.if_else(pa.array(mask), pa.nulls(len(arr), arr.type), arr).cast(t)


def _find_failing(arr: pa.Array, t: pa.DataType, base: int, out: list[int]) -> None:
    try:
        arr.cast(t)
        return
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        pass
    if len(arr) == 1:
        out.append(base)
        return
    half = len(arr) // 2
    _find_failing(arr.slice(0, half), t, base, out)
    _find_failing(arr.slice(half), t, base + half, out)


def _base64(arr: pa.Array, path: str, bad: dict[int, str]) -> pa.Array:
    """Base64 text to bytes, vectorized (standard or URL-safe alphabet, padding optional)."""
    arr = arr.cast(pa.large_string())
    n = len(arr)
    _validity, offsets_buf, data_buf = arr.buffers()
    offsets = np.frombuffer(offsets_buf, np.int64)[arr.offset : arr.offset + n + 1]
    data = np.frombuffer(data_buf, np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    valid = arr.is_valid().to_numpy(zero_copy_only=False)
    starts = offsets[:-1]
    lengths = np.where(valid, offsets[1:] - starts, 0)
    pad = np.zeros(n, np.int64)
    for k in (1, 2):
        has = (lengths - pad >= 1) & (pad == k - 1)
        has[has] = data[starts[has] + lengths[has] - k] == ord("=")
        pad += has
    body = lengths - pad
    broken = (body % 4 == 1) | ((pad > 0) & (lengths % 4 != 0))
    sextets = _B64[data] if len(data) else np.zeros(0, np.uint8)
    wrong = np.flatnonzero(sextets == 255)
    if len(wrong):
        owner = np.searchsorted(offsets, wrong, side="right") - 1
        inside = (owner >= 0) & (owner < n)
        owner, wrong = owner[inside], wrong[inside]
        hit = wrong < starts[owner] + body[owner]
        broken[owner[hit]] = True
    broken &= valid
    for i in np.flatnonzero(broken):
        bad.setdefault(int(i), f"field {path or '/'}: {arr[int(i)].as_py()!r} is not base64")
    body = np.where(broken, 0, body)
    quads = (body + 3) // 4
    total = int(quads.sum()) * 4
    within = np.arange(total, dtype=np.int64) - np.repeat(
        np.cumsum(quads * 4) - quads * 4, quads * 4
    )
    src = np.repeat(starts, quads * 4) + within
    take = within < np.repeat(body, quads * 4)
    groups = np.zeros(total, np.uint8)
    groups[take] = sextets[src[take]]
    g = groups.reshape(-1, 4).astype(np.uint8)
    out = np.empty((len(g), 3), np.uint8)
    out[:, 0] = (g[:, 0] << 2) | (g[:, 1] >> 4)
    out[:, 1] = ((g[:, 1] & 15) << 4) | (g[:, 2] >> 2)
    out[:, 2] = ((g[:, 2] & 3) << 6) | g[:, 3]
    out = out.reshape(-1)
    sizes = body * 3 // 4
    keep_within = np.arange(len(out), dtype=np.int64) - np.repeat(
        np.cumsum(quads * 3) - quads * 3, quads * 3
    )
    keep = keep_within < np.repeat(sizes, quads * 3)
    payload = out[keep]
    new_offsets = np.zeros(n + 1, np.int64)
    np.cumsum(sizes, out=new_offsets[1:])
    mask = ~valid | broken
    validity = pa.array(~mask).buffers()[1] if mask.any() else None
    result = pa.Array.from_buffers(
        pa.large_binary(),
        n,
        [validity, pa.py_buffer(new_offsets), pa.py_buffer(payload)],
        null_count=int(mask.sum()),
    )
    return result.cast(pa.binary())
