"""A large frame's body received in place (see _frame_body.pyx)."""

class FrameBody:
    """The ``size`` bytes of one frame's body, arriving; room grows from ``first`` with what
    arrived (at most doubling)."""

    size: int
    filled: int

    def __init__(self, size: int, first: int) -> None: ...
    def room(self) -> memoryview:
        """A writable view of the room for the next bytes; release it before the next call."""
    def updated(self, n: int) -> None:
        """``n`` bytes were written at the start of the last room."""
    def put(self, data: bytes | bytearray | memoryview) -> int:
        """Bytes of the body that arrived elsewhere (up to what is missing); how many it took."""
    @property
    def complete(self) -> bool: ...
    def take(self) -> bytes:
        """The frame's bytes, once complete; this object is spent."""
