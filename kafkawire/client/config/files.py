"""Java properties files (Kafka's tools take one with ``--command-config``) read into the
{name: value} that ``config=`` takes."""

from __future__ import annotations

import re

from ..errors import ConfigError


def read_properties(path: str) -> dict[str, str]:
    """The settings of a Java properties file (``client.properties``, as Kafka's tools take
    with ``--command-config``): ``key=value``, ``key: value`` or ``key value`` lines, ``#`` and
    ``!`` comments, a trailing backslash continuing the line, ``\\uXXXX`` and ``\\t``-style
    escapes."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise ConfigError(f"{path} cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    properties: dict[str, str] = {}
    logical = ""
    for line in lines:
        stripped = line.lstrip()
        if not logical and (not stripped or stripped[0] in "#!"):
            continue
        logical += stripped
        if len(logical) - len(logical.rstrip("\\")) & 1:  # an odd count of backslashes
            logical = logical[:-1]
            continue
        key, value = _property_line(logical)
        properties[key] = value
        logical = ""
    if logical:
        key, value = _property_line(logical)
        properties[key] = value
    return properties


_PROPERTY_KEY = re.compile(r"((?:[^\\\s=:]|\\.)*)\s*[=:]?\s*", re.S)
_PROPERTY_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _property_line(line: str) -> tuple[str, str]:
    match = _PROPERTY_KEY.match(line)
    assert match is not None  # the pattern matches any line, if only its empty start
    return _unescape(match.group(1)), _unescape(line[match.end() :])


def _unescape(text: str) -> str:
    def one(match: re.Match) -> str:
        escaped = match.group(1)
        if escaped.startswith("u"):
            return chr(int(escaped[1:], 16))
        return _PROPERTY_ESCAPES.get(escaped, escaped)

    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", one, text)
