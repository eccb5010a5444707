from typing import Literal, TypeVar, overload

from kafkawire.protocol._base import Message
from kafkawire.protocol._generated_messages import RequestHeader, ResponseHeader

M = TypeVar("M", bound=Message)
Buffer = bytes | bytearray | memoryview

@overload
def encode_request(
    msg: Message,
    *,
    version: int,
    correlation_id: int = 0,
    client_id: str | None = None,
    size_prefix: bool = True,
    drop_unsupported: bool = False,
    header: RequestHeader | None = None,
    parts: Literal[False] = False,
) -> bytes: ...
@overload
def encode_request(
    msg: Message,
    *,
    version: int,
    correlation_id: int = 0,
    client_id: str | None = None,
    size_prefix: bool = True,
    drop_unsupported: bool = False,
    header: RequestHeader | None = None,
    parts: Literal[True],
) -> list[bytes]:
    """A request frame: [size] request header, then the message at ``version``.

    :param parts: the frame as a list of bytes whose concatenation it is, with the records
        of 16 KiB or more that are ``bytes`` objects in it as they are, not copied (a
        socket's ``sendmsg`` sends them).
    """

def encode_response(
    msg: Message,
    *,
    version: int,
    correlation_id: int | None = None,
    size_prefix: bool = True,
    drop_unsupported: bool = False,
    header: ResponseHeader | None = None,
) -> bytes: ...
def decode_request(frame: Buffer, *, size_prefix: bool = False) -> tuple[RequestHeader, Message]:
    """(RequestHeader, message) from one request frame.

    :param size_prefix: True when the frame starts with its int32 size, as
        :func:`encode_request` writes it by default; the size must count the rest exactly.
    """

def decode_response(
    frame: Buffer,
    *,
    api_key: int,
    api_version: int,
    size_prefix: bool = False,
    lenient: bool = False,
) -> tuple[ResponseHeader, Message]:
    """(ResponseHeader, message) from one response frame.

    :param size_prefix: True when the frame starts with its int32 size, as
        :func:`encode_response` writes it by default; the size must count the rest exactly.
    :param lenient: read as Java's client and librdkafka read an answer: zero bytes after
        the message accepted (empty tag sections librdkafka's mock writes twice; any other
        byte left over is an error), and a null where the schema has none read as empty
        ("", b"", []).
    """

def encode(msg: Message, *, version: int, drop_unsupported: bool = False) -> bytes: ...
def decode(cls: type[M], data: Buffer, *, version: int) -> M: ...

class LazyStruct:
    """Slot of a struct field whose default is a fresh struct, made on first access."""

    offset: int
    struct_cls: type
    name: str
    def __init__(self, offset: int, struct_cls: type, name: str) -> None: ...
    def __get__(self, obj: object, objtype: type | None) -> object: ...
    def __set__(self, obj: object, value: object) -> None: ...
    def __delete__(self, obj: object) -> None: ...
