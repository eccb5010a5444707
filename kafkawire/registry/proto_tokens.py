""".proto text's tokens and literals, for :mod:`kafkawire.registry.proto_parser`: the
tokenizer (with ``name:line:column`` positions for errors), string literal escapes, and the
forms protoc writes into a descriptor (``json_name``, map entry names, default values)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kafkawire.registry.errors import SchemaError


@dataclass
class Tok:
    kind: str  # "ident" | "int" | "float" | "str" | "sym" | "eof"
    value: object
    line: int
    col: int
    pos: int = 0


_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\n\f\v]+)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<float>(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)
  | (?P<int>0[xX][0-9a-fA-F]+|\d+)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<sym>[{}()\[\]<>;,=.:+\-])
    """,
    re.VERBOSE | re.DOTALL,
)
_SIMPLE_ESCAPES = {
    "n": b"\n",
    "t": b"\t",
    "r": b"\r",
    "a": b"\a",
    "b": b"\b",
    "f": b"\f",
    "v": b"\v",
    "\\": b"\\",
    "'": b"'",
    '"': b'"',
    "?": b"?",
}


def _unescape(body: str, err) -> bytes:
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        i += 1
        if i >= n:
            raise err("a string ends in a backslash")
        c = body[i]
        if c in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[c]
            i += 1
        elif c in "xX":
            m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 1 :])
            if not m:
                raise err("\\x without hex digits")
            out.append(int(m.group(), 16))
            i += 1 + len(m.group())
        elif c in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i:])
            out.append(int(m.group(), 8) & 0xFF)
            i += len(m.group())
        elif c in "uU":
            width = 4 if c == "u" else 8
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                raise err(f"\\{c} needs {width} hex digits")
            code = int(digits, 16)
            if code > 0x10FFFF:
                raise err(f"\\{c}{digits} is not a code point")
            out += chr(code).encode("utf-8", "surrogatepass")
            i += 1 + width
        else:
            raise err(f"unknown escape \\{c}")
    return bytes(out)


def tokenize(text: str, name: str) -> list[Tok]:
    toks: list[Tok] = []
    pos = 0
    line = 1
    line_start = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        col = pos - line_start + 1
        if m is None:
            if text.startswith("/*", pos):
                raise SchemaError(f"{name}:{line}:{col}: a /* comment is never closed")
            raise SchemaError(f"{name}:{line}:{col}: unexpected character {text[pos]!r}")
        kind = m.lastgroup
        s = m.group()
        if kind == "str":

            def err(msg: str, _l=line, _c=col) -> SchemaError:
                return SchemaError(f"{name}:{_l}:{_c}: {msg}")

            toks.append(Tok("str", _unescape(s[1:-1], err), line, col, pos))
        elif kind == "int":
            toks.append(Tok("int", int(s, 16) if s[:2] in ("0x", "0X") else _int(s), line, col))
        elif kind == "float":
            toks.append(Tok("float", float(s), line, col, pos))
        elif kind in ("ident", "sym"):
            toks.append(Tok(kind, s, line, col, pos))
        newlines = s.count("\n")
        if newlines:
            line += newlines
            line_start = pos + s.rindex("\n") + 1
        pos = m.end()
    toks.append(Tok("eof", None, line, n - line_start + 1, n))
    return toks


def _int(s: str) -> int:
    if len(s) > 1 and s[0] == "0":
        return int(s, 8)
    return int(s)


def json_name(name: str) -> str:
    out = []
    upper = False
    for ch in name:
        if ch == "_":
            upper = True
        elif upper:
            out.append(ch.upper())
            upper = False
        else:
            out.append(ch)
    return "".join(out)


def entry_name(name: str) -> str:
    out = []
    upper = True
    for ch in name:
        if ch == "_":
            upper = True
        elif upper:
            out.append(ch.upper() if "a" <= ch <= "z" else ch)
            upper = False
        else:
            out.append(ch)
    return "".join(out) + "Entry"


def dtoa(v: float) -> str:
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    s = format(v, ".15g")
    if float(s) != v:
        s = format(v, ".17g")
    return s


def show(t: Tok) -> str:
    if t.kind == "eof":
        return "the end of the text"
    if t.kind == "str":
        return "a string"
    return repr(t.value)


def c_escape(b: bytes) -> str:
    out = []
    for c in b:
        ch = chr(c)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch in "\"'\\":
            out.append("\\" + ch)
        elif 0x20 <= c < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{c:03o}")
    return "".join(out)
