"""Kafka's error codes: number, name, whether a retry may succeed, and the broker's message.

The table (error_codes.json) follows Apache Kafka's protocol guide and its Errors enum, codes -1
to 133. ``ErrorCode`` names the numbers; ``BrokerError`` subclasses (``OffsetOutOfRangeError``,
...) let callers raise and catch what a response reports: ``raise_for_code(response.error_code)``.
"""

from __future__ import annotations

import json
from enum import IntEnum
from pathlib import Path
from typing import NamedTuple

from kafkawire.errors import KafkawireError


class ErrorInfo(NamedTuple):
    code: int
    name: str
    retriable: bool
    message: str


# [code, name, retriable, message] rows, kept as data beside this module.
_TABLE = json.loads((Path(__file__).parent / "error_codes.json").read_text())

ERRORS: dict[int, ErrorInfo] = {row[0]: ErrorInfo(*row) for row in _TABLE}

ErrorCode = IntEnum(  # type: ignore[misc]  # members come from the table
    "ErrorCode", [(row[1], row[0]) for row in _TABLE], module=__name__
)
ErrorCode.__doc__ = "Kafka's error codes by name."


class BrokerError(KafkawireError):
    """An error code a broker reported in a response."""

    code: int = -1
    retriable: bool = False
    description: str = ""

    def __init__(self, message: str | None = None) -> None:
        self.message = message
        text = f"[Error {self.code}] {type(self).__name__}: {self.description}"
        super().__init__(f"{text} ({message})" if message else text)


def _class_name(name: str) -> str:
    words = "".join(w.capitalize() for w in name.split("_"))
    return words if words.endswith(("Error", "Exception")) else words + "Error"


# One BrokerError subclass per code (but NONE), e.g. ERRORS[1] -> OffsetOutOfRangeError.
_CLASSES: dict[int, type[BrokerError]] = {
    info.code: type(
        _class_name(info.name),
        (BrokerError,),
        {
            "code": info.code,
            "retriable": info.retriable,
            "description": info.message,
            "__module__": __name__,
            "__doc__": info.message,
        },
    )
    for info in ERRORS.values()
    if info.code != 0
}
globals().update({cls.__name__: cls for cls in _CLASSES.values()})


class UnknownBrokerError(BrokerError):
    """An error code this table does not know (a broker newer than kafkawire)."""

    def __init__(self, code: int, message: str | None = None) -> None:
        self.code = code
        self.description = f"unknown error code {code}"
        super().__init__(message)


def error_class(code: int) -> type[BrokerError] | None:
    """The BrokerError subclass for ``code`` (None for 0, no error; KeyError when unknown)."""
    return None if code == 0 else _CLASSES[code]


def raise_for_code(code: int, message: str | None = None) -> None:
    """Raise the exception for a response's error code; do nothing for 0."""
    if code == 0:
        return
    cls = _CLASSES.get(code)
    if cls is None:
        raise UnknownBrokerError(code, message)
    raise cls(message)
