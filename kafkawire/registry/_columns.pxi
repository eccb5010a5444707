# The column table of the registry decoders (src_c/arrow_columns.h) and its hand-over to
# pyarrow: the decoders append rows in C; finish() wraps the malloc'd buffers as Arrow
# buffers without copying (each freed with the last Arrow buffer over it).
#
# Included by each decoder module (_avro.pyx, _protobuf.pyx).

from cpython.buffer cimport PyBuffer_FillInfo
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t
from libc.stdlib cimport calloc, free

import numpy as np
import pyarrow as pa


cdef extern from "arrow_columns.h":
    ctypedef struct kw_buf:
        uint8_t *p
        size_t len
        size_t cap

    ctypedef struct kw_col:
        int kind
        int32_t width
        int64_t length
        int64_t null_count
        kw_buf validity
        kw_buf values
        kw_buf data
        int32_t child0
        int32_t nchildren

    enum:
        KWC_NULL, KWC_BOOL, KWC_FIXED, KWC_BINARY, KWC_STRUCT, KWC_LIST

    int kw_col_init(kw_col *col, int kind, int32_t width, int32_t child0, int32_t nchildren)
    int kw_col_null(kw_col *table, int32_t i) nogil
    int kw_cols_reserve(kw_col *table, int32_t i, int64_t rows) nogil
    void kw_col_truncate(kw_col *table, int32_t i, int64_t rows) nogil
    void kw_cols_free(kw_col *table, int32_t n)


cdef class _Owned:
    """A malloc'd block exported through the buffer protocol; freed with the object."""
    cdef uint8_t *p
    cdef Py_ssize_t n

    def __getbuffer__(self, Py_buffer *view, int flags):
        PyBuffer_FillInfo(view, self, self.p, self.n, 1, flags)

    def __releasebuffer__(self, Py_buffer *view):
        pass

    def __dealloc__(self):
        free(self.p)


cdef object _take(kw_buf *b):
    """The buffer as a pyarrow Buffer that owns the memory (b is left empty)."""
    if b.len == 0:
        free(b.p)
        b.p = NULL
        b.cap = 0
        return pa.py_buffer(b"")
    cdef _Owned o = _Owned.__new__(_Owned)
    o.p = b.p
    o.n = <Py_ssize_t>b.len
    b.p = NULL
    b.len = b.cap = 0
    return pa.py_buffer(o)


cdef class ColumnTable:
    """Columns laid out as `layout` says: one (kind, width, child0, nchildren) a column, with
    its Arrow type in `types`; children of a column are consecutive entries."""
    cdef kw_col *cols
    cdef int32_t n
    cdef list types

    def __cinit__(self, list layout, list types):
        self.n = len(layout)
        self.types = types
        self.cols = <kw_col *>calloc(max(self.n, 1), sizeof(kw_col))
        if self.cols == NULL:
            raise MemoryError()
        cdef int32_t i
        for i, (kind, width, child0, nchildren) in enumerate(layout):
            if kw_col_init(&self.cols[i], kind, width, child0, nchildren) < 0:
                raise MemoryError()

    def __dealloc__(self):
        if self.cols != NULL:
            kw_cols_free(self.cols, self.n)
            free(self.cols)

    cdef object export(self, int32_t i):
        cdef kw_col *c = &self.cols[i]
        t = self.types[i]
        n = c.length
        validity = _take(&c.validity) if c.null_count else None
        if c.null_count == 0:
            free(c.validity.p)
            c.validity.p = NULL
            c.validity.len = c.validity.cap = 0
        if c.kind == KWC_NULL:
            return pa.nulls(n)
        if c.kind == KWC_BOOL or c.kind == KWC_FIXED:
            return pa.Array.from_buffers(t, n, [validity, _take(&c.values)],
                                         null_count=c.null_count)
        if c.kind == KWC_BINARY:
            return pa.Array.from_buffers(t, n, [validity, _take(&c.values), _take(&c.data)],
                                         null_count=c.null_count)
        children = [self.export(c.child0 + k) for k in range(c.nchildren)]
        if c.kind == KWC_STRUCT:
            return pa.Array.from_buffers(t, n, [validity], null_count=c.null_count,
                                         children=children)
        return pa.Array.from_buffers(t, n, [validity, _take(&c.values)],
                                     null_count=c.null_count, children=children)

    cdef int reserve(self, int32_t root, int64_t rows) except -1:
        """Room for `rows` rows of column `root` (see kw_cols_reserve)."""
        if kw_cols_reserve(self.cols, root, rows) < 0:
            raise MemoryError()
        return 0

    def finish(self, int32_t root):
        """The root column as a pyarrow array (the table is spent afterwards)."""
        return self.export(root)

    def __len__(self):
        return self.n


def single_schema_id(const uint8_t[::1] data, const int64_t[::1] value_starts,
                     const int64_t[::1] value_ends, const uint8_t[::1] valid):
    """(the schema id of every value data[value_starts[i]:value_ends[i]] when all are magic 0
    with one id (the usual column), else -1; whether every value's byte after the id is a
    0, Protobuf's message indexes [0]): a pass that only reads, so that the usual column
    needs no scan_framing or message_indexes arrays."""
    cdef Py_ssize_t n = valid.shape[0], i
    cdef int64_t a, single = -1, id_
    cdef const uint8_t *p
    cdef bint zero_after = True
    if n == 0:
        return -1, False
    with nogil:
        for i in range(n):
            a = value_starts[i]
            if not valid[i] or value_ends[i] - a < 5 or data[a] != 0:
                single = -1
                break
            p = &data[a]
            id_ = (<int64_t>p[1] << 24) | (<int64_t>p[2] << 16) | (<int64_t>p[3] << 8) | p[4]
            zero_after = zero_after and value_ends[i] - a > 5 and p[5] == 0
            if i == 0:
                single = id_
            elif id_ != single:
                single = -1
                break
    return single, zero_after and single >= 0


def scan_framing(const uint8_t[::1] data, const int64_t[::1] value_starts,
                 const int64_t[::1] value_ends, const uint8_t[::1] valid):
    """The registry framing of each value data[value_starts[i]:value_ends[i]]: (starts after
    the prefix, magic byte or -1 for a null or empty value, the 4-byte schema id of magic-0
    values or -1). Magic 0 needs 5 bytes, magic 1 (a GUID) 17: shorter values keep magic -2."""
    cdef Py_ssize_t n = valid.shape[0], i
    starts = np.empty(n, np.int64)
    magic = np.empty(n, np.int16)
    ids = np.empty(n, np.int64)
    cdef int64_t[::1] s = starts, d = ids
    cdef int16_t[::1] m = magic
    cdef int64_t a, length
    cdef const uint8_t *p
    with nogil:
        for i in range(n):
            a = value_starts[i]
            length = value_ends[i] - a
            s[i] = a
            d[i] = -1
            if not valid[i] or length < 1:
                m[i] = -1
                continue
            p = &data[a]
            m[i] = p[0]
            if p[0] == 0:
                if length < 5:
                    m[i] = -2
                    continue
                d[i] = (<int64_t>p[1] << 24) | (<int64_t>p[2] << 16) | (<int64_t>p[3] << 8) | p[4]
                s[i] = a + 5
            elif p[0] == 1:
                if length < 17:
                    m[i] = -2
                    continue
                s[i] = a + 17
    return starts, magic, ids
