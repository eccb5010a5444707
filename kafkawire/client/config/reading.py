"""How settings are read, the same for the client's, the consumer's and the producer's tables
(``config.py``, ``consumer/config.py``, ``producer/config.py``): a property converted to its
field, a keyword as its property, the names each kind of settings owns, and the properties a
table takes and ignores or refuses."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ConfigError
from ..logs import log_ignored
from .values import _SECRET_FIELDS, Secret


def snake(name: str) -> str:
    """A property's keyword name: ``linger.ms`` -> ``linger_ms``."""
    return re.sub(r"[.\-]", "_", name)


def keyword_table(*tables: Mapping[str, Any]) -> dict[str, str]:
    """Keyword name -> property, for every property of ``tables``: ``linger_ms`` means
    ``linger.ms`` (converted the same way: milliseconds stay milliseconds)."""
    return {snake(name): name for table in tables for name in table}


class Collected:
    """The settings of one dataclass as they are read, with who set each (a property of
    ``config=``, or a keyword): a keyword may not differ from a property or another keyword
    setting the same thing (two properties may: the later one counts, as in librdkafka)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.values: dict[str, Any] = {}
        self._by: dict[str, tuple[str, bool]] = {}

    def put(self, field_name: str, value: Any, name: str, keyword: bool) -> None:
        before = self._by.get(field_name)
        if before is not None and (keyword or before[1]) and self.values[field_name] != value:
            # the values are left out: they may be secrets
            raise ConfigError(
                f"{_source(*before)} and {_source(name, keyword)} both set the {self.kind} "
                f"setting {field_name!r}, to different values: give it once"
            )
        self.values[field_name] = value
        self._by[field_name] = (name, keyword)


def _source(name: str, keyword: bool) -> str:
    return f"keyword {name}=" if keyword else f"property {name!r}"


# kept in the settings (their values checked) but not acted on yet: one INFO line each
NOT_ACTED_ON = {
    "throttle_cb": "broker throttle times are not reported yet",
    "fetch.error.backoff.ms": "a failed fetch is tried again after retry.backoff.ms, doubling",
    "queue.buffering.max.messages": "the buffer is bounded by queue.buffering.max.kbytes",
    **dict.fromkeys(
        (
            "compression.level",
            "compression.gzip.level",
            "compression.lz4.level",
            "compression.zstd.level",
        ),
        "each codec compresses at its default level",
    ),
}


def read_property(
    collected: Collected,
    table: Mapping[str, tuple[str, Callable[[Any], Any]]],
    defaults: Mapping[str, Any],
    name: str,
    value: Any,
    keyword: str | None = None,
) -> None:
    """Put property ``name`` (given as ``keyword``, or in ``config=``) into ``collected``: its
    field, converted. A keyword's None keeps None where the setting may be unset."""
    if name in NOT_ACTED_ON:
        log_ignored(name, NOT_ACTED_ON[name])
    field_name, convert = table[name]
    what = (
        f"{collected.kind} setting {keyword!r}"
        if keyword
        else f"{collected.kind} property {name!r}"
    )
    if value is None and keyword is not None and defaults[field_name] is None:
        converted = None
    else:
        converted = _convert(what, convert, value)
    if field_name in _SECRET_FIELDS and converted is not None:
        converted = Secret(converted)
    collected.put(field_name, converted, keyword or name, keyword is not None)


def _convert(what: str, convert: Callable[[Any], Any], value: Any) -> Any:
    try:
        return convert(value)
    except (TypeError, ValueError) as exc:
        # the value is left out: it may be a secret
        if not what.startswith(("client ", "consumer ", "producer ")):
            what = f"client property {what!r}"
        raise ConfigError(f"{what}: {exc}") from None


def _plain(value: Any) -> str:
    """A value as the IGNORED table lists them: "true"/"false", or lower-case text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().lower().replace(" ", "")


def check_unused(kind: str, name: str, value: Any, ignored: Mapping, refused: Mapping) -> bool:
    """Whether ``name`` is in the ``ignored`` or ``refused`` table of a ``kind`` of client
    (then ignored, with its line logged); a value it cannot honour is a ConfigError."""
    if name in refused:
        raise ConfigError(f"{kind} property {name!r} is not supported: {refused[name]}")
    if name not in ignored:
        return False
    values, why = ignored[name]
    if values is not None and _plain(value) not in values:
        # the value is left out: not a secret here, but one rule for every message
        raise ConfigError(
            f"{kind} property {name!r} cannot be set to that value here (only "
            f"{' or '.join(repr(v) for v in values)}): {why}"
        )
    log_ignored(name, why)
    return True


# The consumer's and the producer's own properties and keywords, told here by their modules
# (consumer/config.py, producer/config.py) as they are imported, which the package's
# __init__ does for every import of kafkawire.client: a client, consumer or producer given the
# others' settings (one dict shared, as librdkafka allows) logs and ignores them, and no
# settings module needs to import another's.
_OWN: dict[str, tuple[Callable[[str], bool], Callable[[str], bool]]] = {}


def register_settings(
    kind: str, is_property: Callable[[str], bool], is_keyword: Callable[[str], bool]
) -> None:
    """``kind`` ("consumer", "producer") owns the names these say it does."""
    _OWN[kind] = (is_property, is_keyword)


def owns_property(kind: str, name: str) -> bool:
    own = _OWN.get(kind)
    return own is not None and own[0](name)


def owns_keyword(kind: str, name: str) -> bool:
    own = _OWN.get(kind)
    return own is not None and own[1](name)
