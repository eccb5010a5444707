"""Encoder of Kafka records: record batches (magic 2) and legacy message sets (magic 0/1).

Records are written straight into one growing C buffer; nothing per record is
allocated on the Python heap.  ``build_batches`` drives the same record writer
from columns (Arrow, numpy, lists) so that its output is byte-identical to a
loop of ``BatchBuilder.append`` calls.
"""

cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_CheckBuffer, PyObject_GetBuffer
from cpython.bytes cimport (
    PyBytes_AS_STRING,
    PyBytes_CheckExact,
    PyBytes_FromStringAndSize,
    PyBytes_GET_SIZE,
)
from cpython.list cimport PyList_CheckExact, PyList_GET_SIZE
from cpython.long cimport PyLong_Check, PyLong_CheckExact
from cpython.number cimport PyNumber_Index
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from cpython.tuple cimport PyTuple_CheckExact, PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.unicode cimport PyUnicode_Check
from libc.stdint cimport (
    INT16_MAX,
    INT32_MAX,
    INT64_MAX,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

import numpy as np

from kafkawire.errors import EncodeError

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL
    long long PyLong_AsLongLongAndOverflow(object o, int *overflow) except? -1
    object PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
    int PyBUF_READ
    object PySequence_Fast(object o, const char *msg)
    int _PyBytes_Resize(PyObject **b, Py_ssize_t size) except -1
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject **PySequence_Fast_ITEMS(object o)

cdef extern from "pyobject.h":
    void kw_bytes_shrink(PyObject *o, Py_ssize_t n)

cdef extern from "<time.h>" nogil:
    cdef struct timespec:
        long tv_sec
        long tv_nsec
    int timespec_get(timespec *ts, int base)
    enum: TIME_UTC

cdef extern from "varint.h" nogil:
    uint8_t *kw_write_varint64(uint8_t *p, int64_t v)
    int kw_varint64_size(int64_t v)
    void kw_put_be16(uint8_t *p, uint16_t v)
    void kw_put_be32(uint8_t *p, uint32_t v)
    void kw_put_be64(uint8_t *p, uint64_t v)

cdef extern from "crc32c.h" nogil:
    uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len)

cdef extern from "record_encode.h" nogil:
    ctypedef struct kw_bin_col:
        const uint8_t *valid
        int64_t bit_off
        const int32_t *offs
        const uint8_t *data
        int64_t start
        int64_t end
    ctypedef struct kw_hdr_col:
        const uint8_t *valid
        int64_t bit_off
        const int32_t *offs
        int64_t start
        int64_t end
        kw_bin_col keys
        kw_bin_col vals
    ctypedef struct kw_batch:
        uint8_t *buf
        size_t len
        size_t cap
        int64_t max_bytes
        int32_t count
        int64_t first_ts
        int64_t max_ts
        int full
    int64_t kw_encode_rows(kw_batch *b, const kw_bin_col *vals, const kw_bin_col *keys,
                           const int64_t *ts, int64_t now, const kw_hdr_col *hdrs, int64_t i,
                           int64_t n)


cdef enum:
    # magic 2 batch header: its size and where the CRC and what it covers start
    V2_HEADER = 61
    V2_CRC_AT = 17
    V2_ATTRS_AT = 21
    # legacy: offset + size (LOG_OVERHEAD), then crc, magic, attributes, [timestamp],
    # key length, value length
    LOG_OVERHEAD = 12
    V0_OVERHEAD = 14
    V1_OVERHEAD = 22
    ATTR_TRANSACTIONAL = 0x10
    ATTR_CONTROL = 0x20
    # the smallest magic 2 record (null key and value, no headers, one-byte deltas)
    V2_MIN_RECORD = 7

cdef struct kw_hdr:
    const uint8_t *key
    Py_ssize_t klen
    const uint8_t *val
    Py_ssize_t vlen  # -1: null

# memcpy from NULL is undefined even for 0 bytes; empty Arrow buffers may be absent
cdef uint8_t _EMPTY[1]

cdef uint32_t _crc32_table[256]


cdef void _init_crc32_table() noexcept:
    cdef uint32_t c
    cdef int n, k
    for n in range(256):
        c = n
        for k in range(8):
            c = (c >> 1) ^ 0xEDB88320u if c & 1 else c >> 1
        _crc32_table[n] = c


_init_crc32_table()


cdef uint32_t _crc32(const uint8_t *p, size_t n) noexcept nogil:
    """zlib's CRC-32, which legacy messages carry; they are a slow path, a table will do."""
    cdef uint32_t c = 0xFFFFFFFFu
    cdef size_t i
    for i in range(n):
        c = _crc32_table[(c ^ p[i]) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFFu


cdef int64_t _now_ms() noexcept:
    cdef timespec ts
    timespec_get(&ts, TIME_UTC)
    return <int64_t>ts.tv_sec * 1000 + ts.tv_nsec // 1000000


cdef int64_t _int_arg(object o, int64_t lo, int64_t hi, str name) except? -1:
    cdef int overflow = 0
    cdef long long v
    if not PyLong_Check(o):
        try:
            o = PyNumber_Index(o)
        except TypeError:
            raise EncodeError(f"{name} must be an int, not {type(o).__name__}") from None
    elif type(o) is bool:
        raise EncodeError(f"{name} must be an int, not bool")
    v = PyLong_AsLongLongAndOverflow(o, &overflow)
    if overflow or v < lo or v > hi:
        raise EncodeError(f"{name} must be in [{lo}, {hi}], got {o}")
    return v


cdef int32_t _next_sequence(int32_t seq, int64_t n) noexcept:
    """Java's DefaultRecordBatch.incrementSequence: sequences wrap to 0 after INT32_MAX."""
    if seq < 0:
        return seq
    if seq > INT32_MAX - n:
        return <int32_t>(n - (INT32_MAX - seq) - 1)
    return <int32_t>(seq + n)


_compression = None


cdef object _codec_module():
    global _compression
    if _compression is None:
        from kafkawire import compression as _c
        _compression = _c
    return _compression


cdef int _codec_of(object compression, int magic) except -1:
    cdef int codec
    if compression is None:
        return 0
    try:
        codec = int(_codec_module().codec_from(compression))
    except EncodeError:
        raise
    except (ValueError, TypeError) as e:
        raise EncodeError(f"unknown compression {compression!r}: {e}") from None
    if codec < 0 or codec > 4 or (magic < 2 and codec == 4):
        raise EncodeError(f"compression {compression!r} is not available with magic {magic}")
    return codec


cdef object _fast_seq(object o, str name):
    try:
        return PySequence_Fast(o, "")
    except TypeError:
        raise EncodeError(f"{name} must be iterable, not {type(o).__name__}") from None


@cython.final
cdef class BatchBuilder:
    """Builds one record batch (magic 2) or legacy message set (magic 0/1).

    append() records (False when the next one would pass max_bytes; the first always
    fits), then build() the bytes once.  The stub (_builder.pyi) documents every argument.
    """

    cdef uint8_t *_buf
    cdef size_t _cap
    cdef size_t _len
    cdef int _magic
    cdef int _codec
    cdef int _ts_type
    cdef bint _transactional
    cdef bint _control
    cdef bint _built
    cdef Py_ssize_t _max_bytes
    cdef int64_t _base_offset
    cdef int64_t _producer_id
    cdef int64_t _first_ts
    cdef int64_t _max_ts
    cdef int32_t _leader_epoch
    cdef int32_t _base_sequence
    cdef int16_t _producer_epoch
    cdef int32_t _count
    # per-append scratch: header pointers, and buffer views held until the record is written
    cdef kw_hdr *_hdrs
    cdef Py_ssize_t _hdr_cap
    cdef Py_buffer *_views
    cdef Py_ssize_t _view_cap
    cdef Py_ssize_t _nviews
    # set by build_batches: the bytes object that holds _buf (None: _buf is malloc'd)
    cdef object _out

    def __init__(
        self,
        *,
        magic=2,
        compression=None,
        max_bytes=1048576,
        base_offset=0,
        partition_leader_epoch=-1,
        producer_id=-1,
        producer_epoch=-1,
        base_sequence=-1,
        is_transactional=False,
        timestamp_type=0,
    ):
        if self._buf != NULL:
            raise EncodeError("BatchBuilder cannot be initialised twice")
        self._magic = <int>_int_arg(magic, 0, 2, "magic")
        self._codec = _codec_of(compression, self._magic)
        self._max_bytes = <Py_ssize_t>_int_arg(max_bytes, 1, INT32_MAX, "max_bytes")
        self._base_offset = _int_arg(base_offset, 0, INT64_MAX, "base_offset")
        self._leader_epoch = <int32_t>_int_arg(
            partition_leader_epoch, -1, INT32_MAX, "partition_leader_epoch")
        self._producer_id = _int_arg(producer_id, -1, INT64_MAX, "producer_id")
        self._producer_epoch = <int16_t>_int_arg(producer_epoch, -1, INT16_MAX, "producer_epoch")
        self._base_sequence = <int32_t>_int_arg(base_sequence, -1, INT32_MAX, "base_sequence")
        self._ts_type = <int>_int_arg(timestamp_type, 0, 1, "timestamp_type")
        self._transactional = bool(is_transactional)
        if self._magic < 2 and (
            self._producer_id != -1 or self._producer_epoch != -1
            or self._base_sequence != -1 or self._transactional
            or self._leader_epoch != -1
        ):
            raise EncodeError("producer fields and leader epoch need magic 2")
        if self._magic == 0 and self._ts_type:
            raise EncodeError("magic 0 has no timestamps")
        if self._magic == 2 and not self._codec:
            # uncompressed, the records go straight into the bytes object build() returns
            # (shrunk there): no copy.  Room for a whole batch of up to 64 KiB; larger
            # limits start there and grow.
            self._cap = <size_t>self._max_bytes
            if self._cap > 65536:
                self._cap = 65536
            elif self._cap < V2_HEADER + 64:
                self._cap = V2_HEADER + 64
            self._out = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>self._cap)
            self._buf = <uint8_t *>PyBytes_AS_STRING(self._out)
        else:
            self._cap = 4096 if self._max_bytes > 4096 else V2_HEADER + 64
            self._buf = <uint8_t *>malloc(self._cap)
            if self._buf == NULL:
                raise MemoryError()
        self._len = V2_HEADER if self._magic == 2 else 0

    def __dealloc__(self):
        self._release_views()
        if self._out is None:
            free(self._buf)
        free(self._hdrs)
        free(self._views)

    @property
    def record_count(self):
        """Records appended so far."""
        return self._count

    @property
    def size_in_bytes(self):
        """Size of the batch built now, counting records uncompressed."""
        return self._size()

    @property
    def is_full(self):
        """True when not even a record with null key and value would still fit."""
        cdef Py_ssize_t smallest
        if self._count == 0:
            return False
        if self._magic == 2:
            smallest = V2_MIN_RECORD + kw_varint64_size(self._count) - 1
        else:
            smallest = LOG_OVERHEAD + (V0_OVERHEAD if self._magic == 0 else V1_OVERHEAD)
        return self._size() + smallest > self._max_bytes

    cdef Py_ssize_t _size(self) noexcept:
        if self._codec and self._magic < 2:
            # the compressed message set travels inside one wrapper message
            return <Py_ssize_t>self._len + LOG_OVERHEAD + (
                V0_OVERHEAD if self._magic == 0 else V1_OVERHEAD)
        return <Py_ssize_t>self._len

    def append(self, value, *, key=None, timestamp=None, headers=()):
        """Append one record; False (and nothing appended) when it does not fit."""
        cdef const uint8_t *vp = NULL
        cdef const uint8_t *kp = NULL
        cdef Py_ssize_t vl, kl, nh = 0
        cdef int64_t ts
        cdef int overflow = 0
        cdef object hseq = None
        if self._built:
            raise EncodeError("append after build")
        if timestamp is None:
            ts = _now_ms()
        elif PyLong_CheckExact(timestamp):
            ts = PyLong_AsLongLongAndOverflow(timestamp, &overflow)
            if overflow or ts < -1:
                _int_arg(timestamp, -1, INT64_MAX, "timestamp")  # raises, saying why
        else:
            ts = _int_arg(timestamp, -1, INT64_MAX, "timestamp")
        try:
            # bytes and None inline; other buffers through _borrow
            if PyBytes_CheckExact(value):
                vp = <const uint8_t *>PyBytes_AS_STRING(value)
                vl = PyBytes_GET_SIZE(value)
            else:
                vl = self._borrow(value, &vp, "value")
            if PyBytes_CheckExact(key):
                kp = <const uint8_t *>PyBytes_AS_STRING(key)
                kl = PyBytes_GET_SIZE(key)
            else:
                kl = self._borrow(key, &kp, "key")
            if headers is not None and not (
                    PyList_CheckExact(headers) and PyList_GET_SIZE(headers) == 0) and not (
                    PyTuple_CheckExact(headers) and PyTuple_GET_SIZE(headers) == 0):
                # hseq keeps the header objects, whose bytes _hdrs points at, alive
                hseq = _fast_seq(headers, "headers")
                nh = self._fill_headers(hseq)
            return self._add(kp, kl, vp, vl, ts, nh) == 1
        finally:
            if self._nviews:
                self._release_views()

    cdef Py_ssize_t _borrow(self, object o, const uint8_t **p, str name) except -2:
        """Length and address of a bytes-like (-1 for None); other buffers stay held."""
        cdef Py_buffer *view
        if o is None:
            return -1
        if PyBytes_CheckExact(o):
            p[0] = <const uint8_t *>PyBytes_AS_STRING(o)
            return PyBytes_GET_SIZE(o)
        if not PyObject_CheckBuffer(o):
            raise EncodeError(f"{name} must be bytes-like or None, not {type(o).__name__}")
        if self._nviews == self._view_cap:
            self._views = <Py_buffer *>self._grow(
                self._views, &self._view_cap, sizeof(Py_buffer), self._nviews + 1)
        view = &self._views[self._nviews]
        try:
            PyObject_GetBuffer(o, view, PyBUF_SIMPLE)
        except BufferError as e:
            raise EncodeError(f"{name}: {e}") from None
        self._nviews += 1
        p[0] = <const uint8_t *>view.buf if view.len else _EMPTY
        return view.len

    cdef void _release_views(self) noexcept:
        while self._nviews:
            self._nviews -= 1
            PyBuffer_Release(&self._views[self._nviews])

    cdef void *_grow(self, void *arr, Py_ssize_t *cap, size_t item, Py_ssize_t need) except NULL:
        cdef Py_ssize_t n = cap[0] * 2 if cap[0] else 8
        cdef void *p
        if n < need:
            n = need
        p = realloc(arr, <size_t>n * item)
        if p == NULL:
            raise MemoryError()
        cap[0] = n
        return p

    cdef Py_ssize_t _fill_headers(self, object seq) except -1:
        """Point _hdrs at the (str, bytes | None) pairs of seq (a PySequence_Fast result)."""
        cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(seq)
        cdef PyObject **items = PySequence_Fast_ITEMS(seq)
        cdef object item, k, v
        cdef kw_hdr *h
        if n and self._magic < 2:
            raise EncodeError("headers need magic 2")
        if n > self._hdr_cap:
            self._hdrs = <kw_hdr *>self._grow(self._hdrs, &self._hdr_cap, sizeof(kw_hdr), n)
        for i in range(n):
            item = <object>items[i]
            if PyTuple_CheckExact(item) and PyTuple_GET_SIZE(item) == 2:
                k = <object>PyTuple_GET_ITEM(item, 0)
                v = <object>PyTuple_GET_ITEM(item, 1)
            else:
                try:
                    k, v = item
                except (TypeError, ValueError):
                    raise EncodeError("a header must be a (key, value) pair") from None
            if not PyUnicode_Check(k):
                raise EncodeError(f"header key must be str, not {type(k).__name__}")
            h = &self._hdrs[i]
            try:
                h.key = <const uint8_t *>PyUnicode_AsUTF8AndSize(k, &h.klen)
            except UnicodeEncodeError as e:
                raise EncodeError(f"header key is not valid UTF-8: {e}") from None
            h.vlen = self._borrow(v, &h.val, "header value")
        return n

    cdef int _reserve(self, size_t extra) except -1:
        cdef size_t n
        cdef size_t at = self._len
        cdef uint8_t *p
        cdef PyObject *o
        if self._len + extra <= self._cap:
            return 0
        n = self._cap * 2
        if n < self._len + extra:
            n = self._len + extra
        if self._out is None:
            p = <uint8_t *>realloc(self._buf, n)
            if p == NULL:
                raise MemoryError()
        else:
            # the buffer is the bytes object build() will return; resizing needs the only reference
            o = <PyObject *>self._out
            Py_INCREF(self._out)
            self._out = None
            self._buf = NULL  # on failure the resize frees the old bytes
            self._cap = self._len = 0
            _PyBytes_Resize(&o, <Py_ssize_t>n)
            self._out = <object>o
            Py_DECREF(self._out)
            p = <uint8_t *>PyBytes_AS_STRING(self._out)
        self._buf = p
        self._len = at
        self._cap = n
        return 0

    cdef int _restart(self, int64_t base_offset, int32_t base_sequence, size_t cap) except -1:
        """Empty the builder for the next batch of build_batches, keeping its settings.

        Uncompressed, the records go straight into the bytes object that build() returns.
        """
        self._base_offset = base_offset
        self._base_sequence = base_sequence
        self._count = 0
        self._built = False
        self._len = V2_HEADER
        if not self._codec:
            if self._out is None:
                free(self._buf)
            self._buf = NULL
            self._out = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>cap)
            self._buf = <uint8_t *>PyBytes_AS_STRING(self._out)
            self._cap = cap
        return 0

    cdef int _add(self, const uint8_t *kp, Py_ssize_t kl, const uint8_t *vp, Py_ssize_t vl,
                  int64_t ts, Py_ssize_t nh) except -1:
        """Write one record; 0 when it does not fit.  _hdrs[:nh] holds its headers."""
        cdef int64_t delta, body, size
        cdef Py_ssize_t i
        cdef kw_hdr *h
        cdef uint8_t *p
        if self._magic < 2:
            return self._add_legacy(kp, kl, vp, vl, ts, nh)
        # locals: the stores below may alias any field as far as the compiler knows
        cdef int32_t count = self._count
        cdef size_t at = self._len
        delta = ts - self._first_ts if count else 0
        body = 1 + kw_varint64_size(delta) + kw_varint64_size(count) + kw_varint64_size(nh)
        body += 1 if kl < 0 else kw_varint64_size(kl) + kl
        body += 1 if vl < 0 else kw_varint64_size(vl) + vl
        for i in range(nh):
            h = &self._hdrs[i]
            body += kw_varint64_size(h.klen) + h.klen
            body += 1 if h.vlen < 0 else kw_varint64_size(h.vlen) + h.vlen
        size = kw_varint64_size(body) + body
        if count:
            if <int64_t>at + size > self._max_bytes:
                return 0
            if count == INT32_MAX:
                raise EncodeError("a batch holds at most 2**31 - 1 records")
        if <int64_t>at + size > INT32_MAX:
            raise EncodeError("record too large for a batch")
        if at + <size_t>size > self._cap:
            self._reserve(<size_t>size)
        p = kw_write_varint64(self._buf + at, body)
        p[0] = 0  # record attributes: unused
        p = kw_write_varint64(p + 1, delta)
        p = kw_write_varint64(p, count)
        p = _put_bytes_v(p, kp, kl)
        p = _put_bytes_v(p, vp, vl)
        p = kw_write_varint64(p, nh)
        for i in range(nh):
            h = &self._hdrs[i]
            p = _put_bytes_v(p, h.key, h.klen)
            p = _put_bytes_v(p, h.val, h.vlen)
        self._len = at + <size_t>size
        if count == 0:
            self._first_ts = ts
            self._max_ts = ts
        elif ts > self._max_ts:
            self._max_ts = ts
        self._count += 1
        return 1

    cdef int _add_legacy(self, const uint8_t *kp, Py_ssize_t kl, const uint8_t *vp,
                         Py_ssize_t vl, int64_t ts, Py_ssize_t nh) except -1:
        cdef int64_t size, offset
        cdef int attrs = 0
        if nh:
            raise EncodeError("headers need magic 2")
        size = (LOG_OVERHEAD + (V0_OVERHEAD if self._magic == 0 else V1_OVERHEAD)
                + (kl if kl > 0 else 0) + (vl if vl > 0 else 0))
        if self._count:
            if self._size() + size > self._max_bytes:
                return 0
            if self._count == INT32_MAX:
                raise EncodeError("a message set holds at most 2**31 - 1 messages")
        if self._size() + size > INT32_MAX:
            raise EncodeError("message too large")
        self._reserve(<size_t>size)
        if self._codec and self._magic == 1:
            offset = self._count  # relative inside a v1 wrapper
        else:
            offset = self._base_offset + self._count
        if not self._codec:
            attrs = self._ts_type << 3
        _put_legacy(self._buf + self._len, self._magic, offset, attrs, ts, kp, kl, vp, vl)
        self._len += <size_t>size
        if self._count == 0 or ts > self._max_ts:
            self._max_ts = ts
        self._count += 1
        return 1

    def build(self):
        """The finished batch; the builder cannot be used after this."""
        if self._built:
            raise EncodeError("build called twice")
        if self._count == 0:
            raise EncodeError("a batch needs at least one record")
        self._built = True
        if self._magic == 2:
            return self._build_v2()
        return self._build_legacy()

    cdef bytes _build_v2(self):
        cdef bytes out
        cdef bytes packed = None
        cdef PyObject *o
        cdef size_t records = self._len - V2_HEADER
        cdef Py_ssize_t plen
        cdef int attrs = self._codec
        if self._len > INT32_MAX:
            raise EncodeError("batch too large")
        if self._out is not None:
            _put_v2_header(self, self._buf, self._len, attrs)
            o = <PyObject *>self._out
            Py_INCREF(self._out)
            self._out = None
            self._buf = NULL
            if self._cap - self._len <= (self._len >> 3):
                # little room left over: it stays allocated, which is cheaper than a
                # realloc that leaves a small free fragment behind for every batch
                kw_bytes_shrink(o, <Py_ssize_t>self._len)
            else:
                _PyBytes_Resize(&o, <Py_ssize_t>self._len)
            out = <bytes>o
            Py_DECREF(out)
            return out
        if self._codec:
            packed = _codec_module().compress(
                self._codec,
                PyMemoryView_FromMemory(<char *>self._buf + V2_HEADER, records, PyBUF_READ),
                magic=2,
            )
            plen = len(packed)
            # max_bytes is a hard limit: incompressible data goes out uncompressed instead
            if V2_HEADER + plen > self._max_bytes and <size_t>plen > records:
                packed = None
                attrs = 0
        if packed is None:
            out = PyBytes_FromStringAndSize(<char *>self._buf, self._len)
        else:
            out = PyBytes_FromStringAndSize(NULL, V2_HEADER + plen)
            memcpy(PyBytes_AS_STRING(out) + V2_HEADER, PyBytes_AS_STRING(packed), plen)
        _put_v2_header(self, <uint8_t *>PyBytes_AS_STRING(out), PyBytes_GET_SIZE(out), attrs)
        return out

    cdef bytes _build_legacy(self):
        cdef bytes out, packed
        cdef Py_ssize_t plen
        if not self._codec:
            return PyBytes_FromStringAndSize(<char *>self._buf, self._len)
        # magic 0 lz4 needs the old (broken) frame checksum: compress() keys it on magic
        packed = _codec_module().compress(
            self._codec,
            PyMemoryView_FromMemory(<char *>self._buf, self._len, PyBUF_READ),
            magic=self._magic,
        )
        plen = len(packed)
        out = PyBytes_FromStringAndSize(
            NULL, LOG_OVERHEAD + (V0_OVERHEAD if self._magic == 0 else V1_OVERHEAD) + plen)
        # the wrapper carries the last inner offset and, for v1, the largest timestamp
        _put_legacy(<uint8_t *>PyBytes_AS_STRING(out), self._magic,
                    self._base_offset + self._count - 1,
                    self._codec | (self._ts_type << 3), self._max_ts,
                    NULL, -1, <const uint8_t *>PyBytes_AS_STRING(packed), plen)
        return out


cdef void _put_v2_header(BatchBuilder b, uint8_t *o, size_t total, int attrs) noexcept:
    """Fill in the 61-byte header of the batch at o (total bytes) and its CRC."""
    attrs |= b._ts_type << 3
    if b._transactional:
        attrs |= ATTR_TRANSACTIONAL
    if b._control:
        attrs |= ATTR_CONTROL
    kw_put_be64(o, <uint64_t>b._base_offset)
    kw_put_be32(o + 8, <uint32_t>(total - LOG_OVERHEAD))
    kw_put_be32(o + 12, <uint32_t>b._leader_epoch)
    o[16] = 2
    kw_put_be16(o + V2_ATTRS_AT, <uint16_t>attrs)
    kw_put_be32(o + 23, <uint32_t>(b._count - 1))
    kw_put_be64(o + 27, <uint64_t>b._first_ts)
    kw_put_be64(o + 35, <uint64_t>b._max_ts)
    kw_put_be64(o + 43, <uint64_t>b._producer_id)
    kw_put_be16(o + 51, <uint16_t>b._producer_epoch)
    kw_put_be32(o + 53, <uint32_t>b._base_sequence)
    kw_put_be32(o + 57, <uint32_t>b._count)
    kw_put_be32(o + V2_CRC_AT, kw_crc32c(0, o + V2_ATTRS_AT, total - V2_ATTRS_AT))


cdef inline uint8_t *_put_bytes_v(uint8_t *p, const uint8_t *src, Py_ssize_t n) noexcept:
    p = kw_write_varint64(p, n)
    if n > 0:
        memcpy(p, src, <size_t>n)
        p += n
    return p


cdef inline uint8_t *_put_bytes32(uint8_t *p, const uint8_t *src, Py_ssize_t n) noexcept:
    kw_put_be32(p, <uint32_t><int32_t>n)
    p += 4
    if n > 0:
        memcpy(p, src, <size_t>n)
        p += n
    return p


cdef void _put_legacy(uint8_t *p, int magic, int64_t offset, int attrs, int64_t ts,
                      const uint8_t *kp, Py_ssize_t kl, const uint8_t *vp,
                      Py_ssize_t vl) noexcept:
    """One legacy message at p, its room already counted by the caller."""
    cdef uint8_t *q = p + LOG_OVERHEAD + 4
    kw_put_be64(p, <uint64_t>offset)
    q[0] = <uint8_t>magic
    q[1] = <uint8_t>attrs
    q += 2
    if magic == 1:
        kw_put_be64(q, <uint64_t>ts)
        q += 8
    q = _put_bytes32(q, kp, kl)
    q = _put_bytes32(q, vp, vl)
    kw_put_be32(p + 8, <uint32_t>(q - p - LOG_OVERHEAD))
    kw_put_be32(p + LOG_OVERHEAD, _crc32(p + LOG_OVERHEAD + 4, <size_t>(q - p - LOG_OVERHEAD - 4)))


def build_control_batch(
    *,
    commit,
    producer_id,
    producer_epoch,
    coordinator_epoch=0,
    base_offset=0,
    timestamp=None,
    partition_leader_epoch=-1,
):
    """A transactional control batch holding one commit or abort marker."""
    cdef BatchBuilder b
    cdef uint8_t key[4]
    cdef uint8_t value[6]
    cdef int32_t epoch = <int32_t>_int_arg(coordinator_epoch, -1, INT32_MAX, "coordinator_epoch")
    _int_arg(producer_id, 0, INT64_MAX, "producer_id")
    _int_arg(producer_epoch, 0, INT16_MAX, "producer_epoch")
    b = BatchBuilder(
        base_offset=base_offset,
        partition_leader_epoch=partition_leader_epoch,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        is_transactional=True,
    )
    b._control = True
    # EndTransactionMarker: key = version, type (0 abort, 1 commit); value = version, epoch
    kw_put_be16(key, 0)
    kw_put_be16(key + 2, 1 if commit else 0)
    kw_put_be16(value, 0)
    kw_put_be32(value + 2, <uint32_t>epoch)
    b.append((<char *>value)[:6], key=(<char *>key)[:4], timestamp=timestamp)
    return b.build()


# ---------------------------------------------------------------------------------------
# columnar input

cdef enum:
    K_NULL = 0   # every row null (Arrow null type, or an absent column)
    K_OFF32 = 1  # Arrow binary / string
    K_OFF64 = 2  # Arrow large_binary / large_string
    K_VIEW = 3   # Arrow binary_view / string_view
    K_FIXED = 4  # Arrow fixed_size_binary, numpy 'S<n>' (strip: numpy drops trailing NULs)
    K_PYSEQ = 5  # sequence of bytes-like / None


cdef bint _is_arrow(object o) except -1:
    return type(o).__module__.startswith("pyarrow")


@cython.final
cdef class _Col:
    """Row access to one binary column; rows must be asked for in increasing order."""

    cdef int kind
    cdef Py_ssize_t length
    cdef list chunks
    cdef Py_ssize_t chunk      # index of the loaded chunk
    cdef Py_ssize_t start      # its first row
    cdef Py_ssize_t end        # one past its last row
    cdef const uint8_t *valid  # validity bitmap or NULL
    cdef int64_t bit_off
    cdef const uint8_t *offs   # offsets (int32 or int64), views, or fixed-width data
    cdef const uint8_t *data
    cdef const uint8_t **vbufs # view data buffers
    cdef Py_ssize_t nvbufs
    cdef Py_ssize_t width
    cdef Py_ssize_t stride
    cdef bint strip
    cdef object seq            # K_PYSEQ: the PySequence_Fast list
    cdef object tmp            # K_PYSEQ: bytes of the last non-bytes row
    cdef object keep           # numpy input, whose memory offs points into

    def __dealloc__(self):
        free(self.vbufs)

    cdef int load(self, Py_ssize_t k) except -1:
        cdef object arr = self.chunks[k]
        cdef list bufs = arr.buffers()
        cdef Py_ssize_t j
        self.chunk = k
        self.start = self.end
        self.end = self.start + len(arr)
        self.bit_off = arr.offset
        self.valid = NULL
        if bufs[0] is not None:
            self.valid = _addr(bufs[0])
        if self.kind == K_NULL:
            return 0
        if self.kind == K_FIXED:
            self.offs = _addr(bufs[1]) + self.bit_off * self.width
            return 0
        if self.kind == K_VIEW:
            self.offs = _addr(bufs[1]) + self.bit_off * 16
            self.nvbufs = len(bufs) - 2
            free(self.vbufs)
            self.vbufs = <const uint8_t **>malloc(sizeof(uint8_t *) * (self.nvbufs + 1))
            if self.vbufs == NULL:
                raise MemoryError()
            for j in range(self.nvbufs):
                self.vbufs[j] = _addr(bufs[2 + j])
            return 0
        self.offs = _addr(bufs[1]) + self.bit_off * (4 if self.kind == K_OFF32 else 8)
        self.data = _addr(bufs[2])
        return 0

    cdef inline Py_ssize_t get(self, Py_ssize_t i, const uint8_t **p) except -2:
        """Length of row i (-1: null), its bytes at p[0]."""
        cdef Py_ssize_t r = i - self.start
        cdef int32_t a
        # the common case inlined: binary or string, inside the loaded chunk
        if self.kind == K_OFF32 and i < self.end:
            if self.valid != NULL and not (self.valid[(r + self.bit_off) >> 3] >> ((r + self.bit_off) & 7)) & 1:
                return -1
            a = (<const int32_t *>self.offs)[r]
            p[0] = self.data + a
            return (<const int32_t *>self.offs)[r + 1] - a
        return self._get(i, p)

    cdef Py_ssize_t _get(self, Py_ssize_t i, const uint8_t **p) except -2:
        cdef Py_ssize_t r, n
        cdef int64_t a, b
        cdef const uint8_t *v
        if self.kind == K_PYSEQ:
            return self._get_py(i, p)
        while i >= self.end:
            self.load(self.chunk + 1)
        r = i - self.start
        if self.valid != NULL and not (self.valid[(r + self.bit_off) >> 3] >> ((r + self.bit_off) & 7)) & 1:
            return -1
        if self.kind == K_OFF32:
            a = (<const int32_t *>self.offs)[r]
            b = (<const int32_t *>self.offs)[r + 1]
            p[0] = self.data + a
            return <Py_ssize_t>(b - a)
        if self.kind == K_OFF64:
            a = (<const int64_t *>self.offs)[r]
            b = (<const int64_t *>self.offs)[r + 1]
            p[0] = self.data + a
            return <Py_ssize_t>(b - a)
        if self.kind == K_FIXED:
            v = self.offs + r * self.stride
            n = self.width
            if self.strip:
                while n and v[n - 1] == 0:
                    n -= 1
            p[0] = v
            return n
        if self.kind == K_VIEW:
            # 16-byte views: length, then 12 inline bytes or prefix, buffer index, offset
            v = self.offs + r * 16
            n = (<const int32_t *>v)[0]
            if n <= 12:
                p[0] = v + 4
            else:
                a = (<const int32_t *>v)[2]
                if a < 0 or a >= self.nvbufs:
                    raise EncodeError("Arrow view points past its data buffers")
                p[0] = self.vbufs[a] + (<const int32_t *>v)[3]
            return n
        return -1

    cdef Py_ssize_t _get_py(self, Py_ssize_t i, const uint8_t **p) except -2:
        cdef object item = <object>PySequence_Fast_ITEMS(self.seq)[i]
        if item is None:
            return -1
        if not PyBytes_CheckExact(item):
            if not PyObject_CheckBuffer(item):
                raise EncodeError(
                    f"row {i}: must be bytes-like or None, not {type(item).__name__}")
            item = memoryview(item).tobytes()
            self.tmp = item
        p[0] = <const uint8_t *>PyBytes_AS_STRING(item)
        return PyBytes_GET_SIZE(item)


cdef const uint8_t *_addr(object buf) except NULL:
    if buf is None or buf.size == 0:
        return _EMPTY
    return <const uint8_t *><size_t>buf.address


cdef _Col _column(object o, str name):
    cdef _Col c = _Col.__new__(_Col)
    cdef object pa, t
    if _is_arrow(o):
        import pyarrow as pa
        if isinstance(o, pa.ChunkedArray):
            c.chunks = list(o.chunks)
        elif isinstance(o, pa.Array):
            c.chunks = [o]
        else:
            raise EncodeError(f"{name}: expected a pyarrow Array, not {type(o).__name__}")
        t = o.type
        if pa.types.is_binary(t) or pa.types.is_string(t):
            c.kind = K_OFF32
        elif pa.types.is_large_binary(t) or pa.types.is_large_string(t):
            c.kind = K_OFF64
        elif pa.types.is_binary_view(t) or pa.types.is_string_view(t):
            c.kind = K_VIEW
        elif pa.types.is_fixed_size_binary(t):
            c.kind = K_FIXED
            c.width = c.stride = t.byte_width
        elif pa.types.is_null(t):
            c.kind = K_NULL
        else:
            raise EncodeError(f"{name}: unsupported Arrow type {t}")
        c.length = len(o)
        c.chunk = -1
        return c
    if isinstance(o, np.ndarray) and o.dtype.kind == "S":
        if o.ndim != 1:
            raise EncodeError(f"{name}: expected a 1-D array")
        c.kind = K_FIXED
        c.strip = True
        c.width = o.dtype.itemsize
        c.stride = o.strides[0]
        c.length = c.end = len(o)
        c.keep = o
        c.offs = <const uint8_t *><size_t>o.__array_interface__["data"][0]
        return c
    if isinstance(o, (bytes, bytearray, memoryview, str)):
        raise EncodeError(f"{name}: expected a column of values, not one {type(o).__name__}")
    if isinstance(o, np.ndarray) and o.dtype.kind != "O":
        raise EncodeError(f"{name}: unsupported numpy dtype {o.dtype}")
    c.kind = K_PYSEQ
    c.seq = _fast_seq(o, name)
    c.length = PySequence_Fast_GET_SIZE(c.seq)
    return c


cdef object _timestamps(object ts, Py_ssize_t n, int64_t now):
    """timestamps as a contiguous int64 ndarray (null: now), or None for all now."""
    cdef object pa, t, a
    if ts is None:
        return None
    if _is_arrow(ts):
        import pyarrow as pa
        t = ts.type
        if pa.types.is_timestamp(t):
            if t.unit != "ms":
                ts = ts.cast(pa.timestamp("ms", tz=t.tz), safe=False)
            ts = ts.cast(pa.int64())
        elif pa.types.is_integer(t):
            ts = ts.cast(pa.int64())
        else:
            raise EncodeError(f"timestamps: unsupported Arrow type {t}")
        a = ts.fill_null(now).to_numpy()
    else:
        a = np.asarray(ts)
        if a.dtype.kind == "M":
            a = a.astype("datetime64[ms]").view(np.int64)
        elif a.dtype.kind not in "iu":
            raise EncodeError(f"timestamps: expected integers, got dtype {a.dtype}")
    a = np.ascontiguousarray(a, dtype=np.int64)
    if a.ndim != 1 or len(a) != n:
        raise EncodeError(f"timestamps: expected {n} values, got shape {a.shape}")
    if n and a.min() < -1:
        raise EncodeError("timestamps must be >= -1")
    return a


@cython.final
cdef class _HdrCol:
    """Row access to a headers column: Arrow list<struct<key, value>> or a Python list."""

    cdef Py_ssize_t length
    cdef list chunks
    cdef Py_ssize_t chunk
    cdef Py_ssize_t start
    cdef Py_ssize_t end
    cdef const uint8_t *valid
    cdef int64_t bit_off
    cdef const uint8_t *offs
    cdef bint large
    cdef _Col keys
    cdef _Col vals
    cdef object seq   # Python fallback: PySequence_Fast of per-row header lists
    cdef object cur   # Python fallback: the current row's pairs, kept alive while written

    cdef int load(self, Py_ssize_t k) except -1:
        cdef object arr = self.chunks[k]
        cdef list bufs = arr.buffers()
        cdef object items = arr.values
        cdef object t = items.type
        cdef list fields
        cdef int ki = -1, vi = -1, j
        self.chunk = k
        self.start = self.end
        self.end = self.start + len(arr)
        self.bit_off = arr.offset
        self.valid = NULL
        if bufs[0] is not None:
            self.valid = _addr(bufs[0])
        self.offs = _addr(bufs[1]) + self.bit_off * (8 if self.large else 4)
        for j in range(t.num_fields):
            if t.field(j).name == "key":
                ki = j
            elif t.field(j).name == "value":
                vi = j
        if ki < 0 or vi < 0:
            raise EncodeError("headers: the struct needs fields 'key' and 'value'")
        fields = items.flatten()  # applies the struct's own offset and nulls to the children
        import pyarrow as pa
        kt = fields[ki].type
        if not (pa.types.is_string(kt) or pa.types.is_large_string(kt)
                or pa.types.is_string_view(kt)):
            raise EncodeError(f"headers: key must be a string type, not {kt}")
        self.keys = _column(fields[ki], "header keys")
        self.vals = _column(fields[vi], "header values")
        return 0

    cdef Py_ssize_t fill(self, Py_ssize_t i, BatchBuilder b) except -1:
        """Point b's header scratch at row i's headers; their count."""
        cdef Py_ssize_t r, n, j
        cdef int64_t first
        cdef kw_hdr *h
        if self.seq is not None:
            self.cur = <object>PySequence_Fast_ITEMS(self.seq)[i]
            if self.cur is None:
                return 0
            self.cur = _fast_seq(self.cur, "headers")
            return b._fill_headers(self.cur)
        while i >= self.end:
            self.load(self.chunk + 1)
        r = i - self.start
        if self.valid != NULL and not (self.valid[(r + self.bit_off) >> 3] >> ((r + self.bit_off) & 7)) & 1:
            return 0
        if self.large:
            first = (<const int64_t *>self.offs)[r]
            n = <Py_ssize_t>((<const int64_t *>self.offs)[r + 1] - first)
        else:
            first = (<const int32_t *>self.offs)[r]
            n = (<const int32_t *>self.offs)[r + 1] - <Py_ssize_t>first
        if n > b._hdr_cap:
            b._hdrs = <kw_hdr *>b._grow(b._hdrs, &b._hdr_cap, sizeof(kw_hdr), n)
        for j in range(n):
            h = &b._hdrs[j]
            h.klen = self.keys.get(first + j, &h.key)
            if h.klen < 0:
                raise EncodeError(f"row {i}: a header key is null")
            h.vlen = self.vals.get(first + j, &h.val)
        return n


cdef _HdrCol _header_column(object o):
    cdef _HdrCol c = _HdrCol.__new__(_HdrCol)
    cdef object pa
    if _is_arrow(o):
        import pyarrow as pa
        if isinstance(o, pa.ChunkedArray):
            c.chunks = list(o.chunks)
        elif isinstance(o, pa.Array):
            c.chunks = [o]
        else:
            raise EncodeError(f"headers: expected a pyarrow Array, not {type(o).__name__}")
        if pa.types.is_large_list(o.type):
            c.large = True
        elif not pa.types.is_list(o.type) or not pa.types.is_struct(o.type.value_type):
            raise EncodeError(
                f"headers: expected list<struct<key: string, value: binary>>, not {o.type}")
        c.length = len(o)
        c.chunk = -1
        return c
    c.seq = _fast_seq(o, "headers")
    c.length = PySequence_Fast_GET_SIZE(c.seq)
    return c


cdef bint _bin_ready(_Col c, Py_ssize_t i, kw_bin_col *out) except -1:
    """Describe c's loaded chunk at out, loading the one that holds row i first; False when
    c is not Arrow binary with int32 offsets."""
    if c.kind != K_OFF32:
        return False
    while i >= c.end or c.chunk < 0:
        if c.chunk + 1 >= len(c.chunks):
            return False
        c.load(c.chunk + 1)
    out.valid = c.valid
    out.bit_off = c.bit_off
    out.offs = <const int32_t *>c.offs
    out.data = c.data
    out.start = c.start
    out.end = c.end
    return True


cdef bint _hdr_ready(_HdrCol c, Py_ssize_t i, kw_hdr_col *out) except -1:
    """Like _bin_ready for an Arrow headers column (int32 list offsets, binary children)."""
    while i >= c.end:
        c.load(c.chunk + 1)
    if c.large or not _bin_ready(c.keys, 0, &out.keys) or not _bin_ready(c.vals, 0, &out.vals):
        return False
    out.valid = c.valid
    out.bit_off = c.bit_off
    out.offs = <const int32_t *>c.offs
    out.start = c.start
    out.end = c.end
    return True


def build_batches(
    values,
    *,
    keys=None,
    timestamps=None,
    headers=None,
    compression=None,
    max_bytes=1048576,
    base_offset=0,
    producer_id=-1,
    producer_epoch=-1,
    base_sequence=-1,
    is_transactional=False,
    partition_leader_epoch=-1,
):
    """Encode columns (Arrow, numpy 'S<n>', or sequences) into magic 2 batches of at most
    max_bytes each, byte-identical to appending the rows one by one to BatchBuilder."""
    cdef _Col vcol = _column(values, "values")
    cdef _Col kcol = None
    cdef _HdrCol hcol = None
    cdef Py_ssize_t n = vcol.length, i = 0, vl, kl, nh
    cdef const uint8_t *vp = NULL
    cdef const uint8_t *kp = NULL
    cdef int64_t now = _now_ms(), offset
    cdef const int64_t[::1] tsv
    cdef const int64_t *tsp = NULL
    cdef int32_t seq
    cdef BatchBuilder b
    cdef list out = []
    cdef object ts_arr
    cdef int added
    cdef size_t cap
    cdef bint fast
    cdef kw_batch kb
    cdef kw_bin_col cv, ck
    cdef kw_hdr_col ch
    if keys is not None:
        kcol = _column(keys, "keys")
        if kcol.length != n:
            raise EncodeError(f"keys: expected {n} rows, got {kcol.length}")
    if headers is not None:
        hcol = _header_column(headers)
        if hcol.length != n:
            raise EncodeError(f"headers: expected {n} rows, got {hcol.length}")
    ts_arr = _timestamps(timestamps, n, now)
    if ts_arr is not None and n:
        tsv = ts_arr
        tsp = &tsv[0]
    b = BatchBuilder(
        compression=compression,
        max_bytes=max_bytes,
        base_offset=base_offset,
        partition_leader_epoch=partition_leader_epoch,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        is_transactional=is_transactional,
    )
    if n == 0:
        return out
    # room for a full batch, unless that is far more than the data needs
    cap = <size_t>b._max_bytes + 64  # slack: the C writer may over-copy short strings
    if cap > 4 << 20:
        cap = 4 << 20
    offset = b._base_offset
    seq = b._base_sequence
    b._restart(offset, seq, cap)
    fast = vcol.kind == K_OFF32 and (kcol is None or kcol.kind == K_OFF32) and (
        hcol is None or (hcol.seq is None and not hcol.large))
    while i < n:
        if fast and _bin_ready(vcol, i, &cv) and (
                kcol is None or _bin_ready(kcol, i, &ck)) and (
                hcol is None or _hdr_ready(hcol, i, &ch)):
            # the ordinary rows in C; it stops at the first row left to the code below
            kb.buf = b._buf
            kb.len = b._len
            kb.cap = b._cap
            kb.max_bytes = b._max_bytes
            kb.count = b._count
            kb.first_ts = b._first_ts
            kb.max_ts = b._max_ts
            i = <Py_ssize_t>kw_encode_rows(
                &kb, &cv, NULL if kcol is None else &ck, tsp, now,
                NULL if hcol is None else &ch, i, n)
            b._len = kb.len
            b._count = kb.count
            b._first_ts = kb.first_ts
            b._max_ts = kb.max_ts
            if i >= n:
                break
            if kb.full:
                # row i opens the next batch (what _add would say, without asking it)
                b._built = True
                out.append(b._build_v2())
                offset += b._count
                seq = _next_sequence(seq, b._count)
                b._restart(offset, seq, cap)
                continue
        vl = vcol.get(i, &vp)
        kl = -1 if kcol is None else kcol.get(i, &kp)
        nh = 0 if hcol is None else hcol.fill(i, b)
        # (on an exception, b's views go with b)
        added = b._add(kp, kl, vp, vl, now if tsp == NULL else tsp[i], nh)
        if b._nviews:  # header values from a Python headers column
            b._release_views()
        if not added:
            # full: this row opens the next batch, where it always fits
            b._built = True
            out.append(b._build_v2())
            offset += b._count
            seq = _next_sequence(seq, b._count)
            b._restart(offset, seq, cap)
            continue
        i += 1
    b._built = True
    out.append(b._build_v2())
    return out


# ---- Java's default partitioner ----------------------------------------------------------

cdef int32_t _murmur2(const uint8_t *p, Py_ssize_t n) noexcept nogil:
    """Java Kafka's Utils.murmur2 (seed 0x9747b28c), as its producer hashes record keys."""
    cdef uint32_t m = 0x5BD1E995
    cdef uint32_t h = <uint32_t>0x9747B28C ^ <uint32_t>n
    cdef uint32_t k
    cdef Py_ssize_t i = 0, whole = n - (n & 3)
    while i < whole:
        k = (<uint32_t>p[i] | (<uint32_t>p[i + 1] << 8) | (<uint32_t>p[i + 2] << 16)
             | (<uint32_t>p[i + 3] << 24))
        k *= m
        k ^= k >> 24
        k *= m
        h *= m
        h ^= k
        i += 4
    cdef Py_ssize_t tail = n & 3
    if tail == 3:
        h ^= <uint32_t>p[whole + 2] << 16
    if tail >= 2:
        h ^= <uint32_t>p[whole + 1] << 8
    if tail >= 1:
        h ^= <uint32_t>p[whole]
        h *= m
    h ^= h >> 13
    h *= m
    h ^= h >> 15
    return <int32_t>h


def murmur2(key):
    """Java Kafka's murmur2 hash of one key (a signed 32-bit int)."""
    cdef const uint8_t[::1] view = memoryview(key).cast("B")
    cdef Py_ssize_t n = view.shape[0]
    return _murmur2(&view[0] if n else _EMPTY, n)


def key_partitions(keys, int32_t num_partitions):
    """The partition of each row's key as Java's producer picks it,
    ``(murmur2(key) & 0x7fffffff) % num_partitions``, with -1 for a null key (the caller
    chooses those). ``keys``: a column as build_batches takes it. Returns int32 numpy."""
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    cdef _Col c = _column(keys, "keys")
    cdef Py_ssize_t i, n = c.length
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] parts = out
    cdef const uint8_t *p = NULL
    cdef Py_ssize_t length
    for i in range(n):
        length = c.get(i, &p)
        if length < 0:
            parts[i] = -1
        else:
            parts[i] = (_murmur2(p, length) & 0x7FFFFFFF) % num_partitions
    return out
