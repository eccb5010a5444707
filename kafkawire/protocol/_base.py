"""What every generated message class shares: field kinds, the base classes, the unset marker.

The generator (tools/generate_messages.py) describes each field with a tuple (see ``Field``);
the codec (``_codec.pyx``) turns those into a plan per (class, version) on first use.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar, NamedTuple

# Field kinds; the codec switches on these numbers, so they must match _codec.pyx.
BOOL = 1
INT8 = 2
INT16 = 3
INT32 = 4
INT64 = 5
UINT16 = 6
UINT32 = 7
FLOAT64 = 8
UUID = 9
STRING = 10
BYTES = 11
RECORDS = 12
STRUCT = 13
ARRAY = 14

NO_VERSIONS = (1, 0)  # an empty version range
ZERO_UUID = uuid.UUID(int=0)


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"

    def __reduce__(self) -> str:
        return "UNSET"


# Keyword default of list and struct fields: each instance gets its own fresh value.
UNSET: Any = _Unset()


class Field(NamedTuple):
    """One field of a struct, as the schema describes it across all versions."""

    name: str  # the schema's name, e.g. "TopicId"
    attr: str  # the Python attribute, e.g. "topic_id"
    kind: int
    elem_kind: int  # for ARRAY: the element's kind; else 0
    struct: type | None  # for STRUCT, or ARRAY of STRUCT
    versions: tuple[int, int]
    nullable: tuple[int, int]
    tag: int  # -1 when never tagged
    tagged: tuple[int, int]
    flexible: tuple[int, int] | None  # a field-level override of the message's flexibleVersions
    ignorable: bool
    default: Any  # UNSET: a fresh empty list (ARRAY) or a fresh default instance (STRUCT)


class Struct:
    """Base of every generated struct: slots, equality and repr over the schema's fields."""

    __slots__: ClassVar[tuple[str, ...]] = ()
    _kw_fields: ClassVar[tuple[Field, ...]] = ()
    # Tagged fields the schema does not know: (tag, bytes), ascending, or None.
    _unknown_tagged_fields: list[tuple[int, bytes]] | None
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    def __repr__(self) -> str:
        parts = [f"{f.attr}={getattr(self, f.attr)!r}" for f in self._kw_fields]
        unknown = self._unknown_tagged_fields
        if unknown:
            parts.append(f"_unknown_tagged_fields={unknown!r}")
        return f"{type(self).__qualname__}({', '.join(parts)})"

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            setattr(self, name, value)


class Message(Struct):
    """Base of the top-level messages (requests, responses, headers and data records)."""

    __slots__ = ()
    schema_name: ClassVar[str]
    api_key: ClassVar[int | None]
    message_type: ClassVar[str]  # "request", "response", "header" or "data"
    valid_versions: ClassVar[range]
    flexible_versions: ClassVar[range]
    latest_version: ClassVar[int | None]  # the newest stable version (None: none is stable)
