"""Errors of kafkawire.registry: the registry service, schemas, and payloads.

A payload that does not decode is a :class:`PayloadError` (a :class:`DecodeError`: it names
the field and the byte offset inside the payload); a schema construct a decoder does not
handle is a :class:`SchemaError` naming it; the registry service's failures are
:class:`RegistryError` subclasses; a row that does not fit the schema it is written with is an
:class:`EncodeError`.
"""

from __future__ import annotations

from kafkawire import errors
from kafkawire.errors import DecodeError, KafkawireError


class RegistryError(KafkawireError):
    """The schema registry answered with an error, or could not be reached."""

    def __init__(self, message: str, *, status: int | None = None, code: int | None = None):
        self.status = status  # HTTP status, when there was an answer
        self.code = code  # the registry's error_code, when it gave one
        super().__init__(message)


class SchemaNotFoundError(RegistryError):
    """No schema with that id, GUID, subject or version."""


class RegistryUnavailableError(RegistryError):
    """The registry could not be reached (after the configured retries)."""


class SchemaError(KafkawireError, ValueError):
    """A schema kafkawire cannot parse, or a construct its decoders do not support."""


class PayloadError(DecodeError):
    """A value whose framing or payload does not decode with its schema.

    ``row``: the value's index in the column decoded; ``record``: the record it came from
    (``orders-3 offset 1234``), where the caller knew it. The message starts with the record,
    or else the row."""

    def __init__(
        self, message: str, *, row: int | None = None, record: str | None = None, **where
    ) -> None:
        self.row, self.record, self.detail = row, record, message
        where_from = record if record is not None else None if row is None else f"row {row}"
        super().__init__(f"{where_from}: {message}" if where_from else message, **where)

    def located(self, record: str) -> PayloadError:
        """The same error, naming the record its row came from."""
        return type(self)(
            self.detail,
            row=self.row,
            record=record,
            offset=self.offset,
            batch_offset=self.batch_offset,
            field=self.field,
        )


class EncodeError(errors.EncodeError):
    """A row that does not fit the schema it is written with (kafkawire's EncodeError, with
    the row and the field)."""

    def __init__(self, message: str, *, row: int | None = None, field: str | None = None):
        self.row = row
        self.field = field
        super().__init__(message)
