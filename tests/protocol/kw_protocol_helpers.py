"""Shared by the protocol tests: the (class, version) pairs and schema-derived strategies."""

from __future__ import annotations

import uuid

from hypothesis import strategies as st

from kafkawire.protocol import _base as b
from kafkawire.protocol import _generated_messages as g

MESSAGE_CLASSES = [getattr(g, name) for name in g.__all__ if name != "ApiKey"]
PAIRS = [(cls, v) for cls in MESSAGE_CLASSES for v in cls.valid_versions]


def pair_id(pair) -> str:
    cls, version = pair
    return f"{cls.__name__}-v{version}"


INT_RANGES = {
    b.INT8: (-(2**7), 2**7 - 1),
    b.INT16: (-(2**15), 2**15 - 1),
    b.INT32: (-(2**31), 2**31 - 1),
    b.INT64: (-(2**63), 2**63 - 1),
    b.UINT16: (0, 2**16 - 1),
    b.UINT32: (0, 2**32 - 1),
}


def scalar(kind: int, small: bool) -> st.SearchStrategy:
    if kind in INT_RANGES:
        lo, hi = INT_RANGES[kind]
        # small: values peer libraries accept everywhere (kio checks error codes against its
        # enum and turns some ints into timedelta / datetime)
        return st.integers(max(lo, 0), min(hi, 100)) if small else st.integers(lo, hi)
    if kind == b.BOOL:
        return st.booleans()
    if kind == b.FLOAT64:
        return st.floats(allow_nan=False)
    if kind == b.UUID:
        return st.builds(uuid.UUID, int=st.integers(0, 2**128 - 1))
    if kind == b.STRING:
        return st.text(max_size=6)
    if kind in (b.BYTES, b.RECORDS):
        return st.binary(max_size=6)
    raise AssertionError(kind)


def value(field: b.Field, version: int, small: bool, depth: int) -> st.SearchStrategy:
    if field.kind == b.STRUCT:
        strategy = instances(field.struct, version, small, depth + 1)
    elif field.kind == b.ARRAY:
        if field.elem_kind == b.STRUCT:
            elem = instances(field.struct, version, small, depth + 1)
        else:
            elem = scalar(field.elem_kind, small)
        strategy = st.lists(elem, max_size=2 if depth < 2 else 1)
    else:
        strategy = scalar(field.kind, small)
    if field.nullable[0] <= version <= field.nullable[1]:
        strategy = st.none() | strategy
    return strategy


def instances(cls, version: int, small: bool = False, depth: int = 0) -> st.SearchStrategy:
    """Random valid ``cls`` messages at ``version``; fields the version lacks keep defaults."""
    fields = {
        f.attr: value(f, version, small, depth)
        for f in cls._kw_fields
        if f.versions[0] <= version <= f.versions[1]
    }
    return st.builds(cls, **fields)
