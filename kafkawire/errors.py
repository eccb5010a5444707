"""The one error family of kafkawire.

Everything wrong with *input* raises a subclass of :class:`DecodeError`; it says
what was wrong and where (``offset``: byte offset in the buffer handed to the
decoder; ``batch_offset``: the base offset of the record batch, when known).
Problems with what a caller asks to *write* raise :class:`EncodeError`.
"""

from __future__ import annotations


class KafkawireError(Exception):
    """Base class of every exception kafkawire raises on purpose."""


class DecodeError(KafkawireError, ValueError):
    """Input bytes that kafkawire cannot decode."""

    def __init__(
        self,
        message: str,
        *,
        offset: int | None = None,
        batch_offset: int | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = message
        self.offset = offset
        self.batch_offset = batch_offset
        self.field = field
        where = []
        if field is not None:
            where.append(f"field {field}")
        if offset is not None:
            where.append(f"byte {offset}")
        if batch_offset is not None:
            where.append(f"batch base offset {batch_offset}")
        super().__init__(f"{message} ({', '.join(where)})" if where else message)

    def __reduce__(self):  # keep the keyword arguments through pickling
        return (
            _rebuild,
            (type(self), self.reason, self.offset, self.batch_offset, self.field),
        )


def _rebuild(cls, reason, offset, batch_offset, field):
    return cls(reason, offset=offset, batch_offset=batch_offset, field=field)


class TruncatedError(DecodeError):
    """The input ends before a length or a field says it should."""


class CorruptError(DecodeError):
    """A length, count or value that is impossible or inconsistent."""


class CrcError(CorruptError):
    """The stored checksum does not match the bytes it covers."""


class UnsupportedError(DecodeError):
    """A magic byte, codec, API key or version kafkawire does not know."""


class LimitExceededError(DecodeError):
    """Input would exceed a configured limit (decompressed size, frame size, ...)."""


class DecompressionError(CorruptError):
    """A compressed payload that its codec cannot decompress."""


class EncodeError(KafkawireError, ValueError):
    """A value that cannot be written in the requested format."""
