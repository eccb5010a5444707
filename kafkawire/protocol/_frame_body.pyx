"""A large frame's body received in place: the socket writes straight into the bytes object
handed out at the end.

``FrameReader`` (framing.py) would otherwise grow a bytearray as the frame arrives (zero
filled, copied at each growth) and copy the finished frame out into bytes: three or four
passes over every byte of a large Fetch answer. Here the bytes object grows by realloc,
without zero filling, and is itself the frame handed out.

Writing into a bytes object is sound only while this object holds its one reference: it is
kept as a raw pointer (no temporary references to it) until ``take`` hands it over.
"""

cimport cython
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF, PyObject
from libc.string cimport memcpy


cdef extern from "Python.h":
    int _PyBytes_Resize(PyObject **bytes, Py_ssize_t newsize) except -1
    object PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
    int PyBUF_WRITE


@cython.final
cdef class FrameBody:
    """The ``size`` bytes of one frame's body, arriving. Room grows with what arrived (at
    most doubling, from ``first``), never to the size the prefix announced unless the bytes
    come: a lying prefix costs no memory."""

    cdef PyObject *_body  # bytes with this object's one reference; NULL once taken
    cdef readonly Py_ssize_t size
    cdef readonly Py_ssize_t filled
    cdef Py_ssize_t _cap

    def __cinit__(self, Py_ssize_t size, Py_ssize_t first):
        if size <= 0 or first <= 0:
            raise ValueError("a frame body and its first room are at least 1 byte")
        self.size = size
        self._cap = first if first < size else size
        body = PyBytes_FromStringAndSize(NULL, self._cap)
        Py_INCREF(body)
        self._body = <PyObject *>body

    def __dealloc__(self):
        Py_XDECREF(self._body)

    cdef char *_at(self) except NULL:
        if self._body == NULL:
            raise ValueError("the frame body was taken")
        return PyBytes_AS_STRING(<object>self._body) + self.filled

    def room(self):
        """A writable view of the room for the next bytes (never empty before the body is
        complete). Release it before the next call: the bytes may move when they grow."""
        cdef Py_ssize_t want
        if self.filled == self._cap and self._cap < self.size:
            want = self._cap * 2
            self._cap = want if want < self.size else self.size
            _PyBytes_Resize(&self._body, self._cap)
        return PyMemoryView_FromMemory(self._at(), self._cap - self.filled, PyBUF_WRITE)

    def updated(self, Py_ssize_t n):
        """``n`` bytes were written at the start of the last room."""
        if n < 0 or n > self._cap - self.filled:
            raise ValueError(f"updated({n}) exceeds the room given")
        self.filled += n

    def put(self, data):
        """Bytes of the body that arrived elsewhere (up to what is missing); how many it took."""
        cdef const unsigned char[::1] src = data
        cdef Py_ssize_t n = src.shape[0]
        cdef Py_ssize_t want
        if n > self.size - self.filled:
            n = self.size - self.filled
        if self.filled + n > self._cap:
            want = self._cap * 2
            if want < self.filled + n:
                want = self.filled + n
            self._cap = want if want < self.size else self.size
            _PyBytes_Resize(&self._body, self._cap)
        if n:
            memcpy(self._at(), &src[0], n)
        self.filled += n
        return n

    @property
    def complete(self):
        return self.filled == self.size

    def take(self):
        """The frame's bytes, once complete; this object is spent."""
        if self.filled != self.size:
            raise ValueError(f"the frame body has {self.filled} of its {self.size} bytes")
        if self._body == NULL:
            raise ValueError("the frame body was taken")
        out = <object>self._body  # a new reference; this object's own is dropped
        Py_DECREF(out)
        self._body = NULL
        return out
