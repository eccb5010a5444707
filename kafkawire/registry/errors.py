"""Errors of kafkawire.registry: the registry service, schemas, and payloads.

A payload that does not decode is a :class:`PayloadError` (a :class:`DecodeError`: it names
the field and the byte offset inside the payload); a schema construct a decoder does not
handle is a :class:`SchemaError` naming it; the registry service's failures are
:class:`RegistryError` subclasses.
"""

from __future__ import annotations

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
    """A value whose framing or payload does not decode with its schema."""
