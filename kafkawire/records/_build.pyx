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
from cpython.unicode cimport PyUnicode_Check, PyUnicode_CheckExact
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

from kafkawire.compression._codecs cimport lz4_compress_bound, lz4_compress_into
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
    bint PyUnicode_IS_COMPACT_ASCII(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef extern from "pyobject.h":
    void kw_bytes_shrink(PyObject *o, Py_ssize_t n)

cdef extern from "<time.h>" nogil:
    cdef struct timespec:
        long tv_sec
        long tv_nsec
    int timespec_get(timespec *ts, int base)
    enum: TIME_UTC

cdef extern from "varint.h" nogil:
    int kw_varint64_size(int64_t v)
    void kw_put_be16(uint8_t *p, uint16_t v)
    void kw_put_be32(uint8_t *p, uint32_t v)
    void kw_put_be64(uint8_t *p, uint64_t v)

cdef extern from "record_write.h" nogil:
    uint8_t *kw_put_varint(uint8_t *p, int64_t v)
    uint8_t *kw_put_bytes(uint8_t *p, const uint8_t *src, int64_t n)
    int64_t kw_bytes_size(int64_t n)

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
                           const int64_t *ts, int64_t now, const kw_hdr_col *hdrs,
                           const int64_t *rows, int64_t i, int64_t n)


cdef enum:
    CODEC_LZ4 = 3
    # batches of at least this many bytes are written without the GIL (smaller ones:
    # releasing and taking it back costs more than other threads gain)
    NOGIL_BATCH_BYTES = 65536
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


cdef int _utf8_key(object k, kw_hdr *h) except -1:
    """Point h at header key k's UTF-8 (any str), or say why it cannot be one."""
    if not PyUnicode_Check(k):
        raise EncodeError(f"header key must be str, not {type(k).__name__}")
    try:
        h.key = <const uint8_t *>PyUnicode_AsUTF8AndSize(k, &h.klen)
    except UnicodeEncodeError as e:
        raise EncodeError(f"header key is not valid UTF-8: {e}") from None
    return 0


DEF NOT_PLAIN = -2  # _fill_headers: headers _held_headers must copy first


cdef object _held_headers(BatchBuilder b, object headers, Py_ssize_t *count):
    """Point b's _hdrs at headers' (str, bytes-like | None) pairs, their number in count;
    what holds the objects they point into, for the caller to keep until the record is
    written: headers when plain, else tuples of our own, which no code run while they are
    read (a pair's __iter__, a value's buffer) can change."""
    cdef object seq = headers
    if not (PyList_CheckExact(seq) or PyTuple_CheckExact(seq)):
        seq = _fast_seq(headers, "headers")
    count[0] = b._fill_headers(seq)
    if count[0] == NOT_PLAIN:
        pairs = []
        for item in seq:
            try:
                k, v = item
            except (TypeError, ValueError):
                raise EncodeError("a header must be a (key, value) pair") from None
            pairs.append((k, v))
        seq = tuple(pairs)
        count[0] = b._fill_headers(seq)
    return seq


cdef object _fast_seq(object o, str name):
    try:
        return PySequence_Fast(o, "")
    except TypeError:
        raise EncodeError(f"{name} must be iterable, not {type(o).__name__}") from None


@cython.final
cdef class BatchBuilder:
    """Builds one record batch (magic 2) or legacy message set (magic 0/1).

    append() records (False when the next one would pass max_bytes; the first always
    fits), then build() the bytes once.  The stub (_build.pyi) documents every argument.
    Its fields are declared in _build.pxd.
    """

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
        """True once an append was refused, or when not even a record with null key and
        value would still fit."""
        cdef Py_ssize_t smallest
        if self._refused:
            return True
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
                hseq = _held_headers(self, headers, &nh)
            if self._add(kp, kl, vp, vl, ts, nh) == 1:
                return True
            # a loop that checks is_full instead of the result must not go on appending
            self._refused = True
            return False
        finally:
            if self._nviews:
                self._release_views()

    cdef int append_bytes(self, object value, object key, int64_t ts) except -1:
        """append() for a value and key that are exactly bytes or None (the caller checks), no
        headers: 1 when appended, 0 when it does not fit (the producer's per-record path)."""
        cdef const uint8_t *vp = NULL
        cdef const uint8_t *kp = NULL
        cdef Py_ssize_t vl = -1, kl = -1
        if self._built:
            raise EncodeError("append after build")
        if value is not None:
            vp = <const uint8_t *>PyBytes_AS_STRING(value)
            vl = PyBytes_GET_SIZE(value)
        if key is not None:
            kp = <const uint8_t *>PyBytes_AS_STRING(key)
            kl = PyBytes_GET_SIZE(key)
        if self._add(kp, kl, vp, vl, ts, 0) == 1:
            return 1
        self._refused = True
        return 0

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
        """Point _hdrs at the pairs of seq (a list or tuple); their count, or NOT_PLAIN before
        any code that could free what _hdrs points into: a pair not a 2-tuple, or in a list
        a value other than bytes or None (see _held_headers)."""
        cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(seq)
        cdef PyObject **items = PySequence_Fast_ITEMS(seq)
        cdef bint mutable = PyList_CheckExact(seq)
        cdef object item, k, v
        cdef kw_hdr *h
        if n and self._magic < 2:
            raise EncodeError("headers need magic 2")
        if n > self._hdr_cap:
            self._hdrs = <kw_hdr *>self._grow(self._hdrs, &self._hdr_cap, sizeof(kw_hdr), n)
        for i in range(n):
            item = <object>items[i]
            if not (PyTuple_CheckExact(item) and PyTuple_GET_SIZE(item) == 2):
                return NOT_PLAIN
            k = <object>PyTuple_GET_ITEM(item, 0)
            v = <object>PyTuple_GET_ITEM(item, 1)
            h = &self._hdrs[i]
            if PyBytes_CheckExact(v):
                h.val = <const uint8_t *>PyBytes_AS_STRING(v)
                h.vlen = PyBytes_GET_SIZE(v)
            elif v is None:
                h.vlen = -1
            elif mutable:
                return NOT_PLAIN
            else:
                h.vlen = self._borrow(v, &h.val, "header value")
            if PyUnicode_CheckExact(k) and PyUnicode_IS_COMPACT_ASCII(k):
                # (the common key) ASCII: the str's own bytes are its UTF-8
                h.key = <const uint8_t *>PyUnicode_DATA(k)
                h.klen = PyUnicode_GET_LENGTH(k)
            else:
                _utf8_key(k, h)
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
        body += kw_bytes_size(kl) + kw_bytes_size(vl)
        for i in range(nh):
            h = &self._hdrs[i]
            body += kw_bytes_size(h.klen) + kw_bytes_size(h.vlen)
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
        p = kw_put_varint(self._buf + at, body)
        p[0] = 0  # record attributes: unused
        p = kw_put_varint(p + 1, delta)
        p = kw_put_varint(p, count)
        p = kw_put_bytes(p, kp, kl)
        p = kw_put_bytes(p, vp, vl)
        p = kw_put_varint(p, nh)
        for i in range(nh):
            h = &self._hdrs[i]
            p = kw_put_bytes(p, h.key, h.klen)
            p = kw_put_bytes(p, h.val, h.vlen)
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

    def set_producer(self, producer_id, producer_epoch, base_sequence, is_transactional=False):
        """Set the producer fields before build(): a producer numbers a batch when it sends
        it, not when its first record comes in."""
        if self._built:
            raise EncodeError("set_producer after build")
        if self._magic != 2:
            raise EncodeError("producer fields need magic 2")
        self._producer_id = _int_arg(producer_id, -1, INT64_MAX, "producer_id")
        self._producer_epoch = <int16_t>_int_arg(producer_epoch, -1, INT16_MAX, "producer_epoch")
        self._base_sequence = <int32_t>_int_arg(base_sequence, -1, INT32_MAX, "base_sequence")
        self._transactional = bool(is_transactional)

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
        if self._codec == CODEC_LZ4:
            out = self._lz4_v2()
            if out is not None:
                return out
            attrs = 0
        elif self._codec:
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

    cdef bytes _lz4_v2(self):
        """The batch with its records lz4-compressed in C, straight into the bytes object
        returned (no Python call, no copy of the compressed records); None when they do not
        shrink enough to fit max_bytes (the batch then goes out uncompressed)."""
        cdef size_t records = self._len - V2_HEADER
        cdef size_t plen, room = V2_HEADER + lz4_compress_bound(records)
        cdef PyObject *o
        cdef bytes out = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>room)
        cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(out)
        cdef const uint8_t *src = self._buf + V2_HEADER
        if records >= NOGIL_BATCH_BYTES:
            with nogil:
                plen = lz4_compress_into(src, records, 2, dst + V2_HEADER)
        else:
            plen = lz4_compress_into(src, records, 2, dst + V2_HEADER)
        # max_bytes is a hard limit: incompressible data goes out uncompressed instead
        if V2_HEADER + plen > <size_t>self._max_bytes and plen > records:
            return None
        _put_v2_header(self, dst, V2_HEADER + plen, self._codec)
        o = <PyObject *>out
        Py_INCREF(out)
        out = None
        _PyBytes_Resize(&o, <Py_ssize_t>(V2_HEADER + plen))
        out = <bytes>o
        Py_DECREF(out)
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


include "_build_markers.pxi"  # stamp_producer, build_control_batch
include "_build_columns.pxi"  # build_batches: records from columns
