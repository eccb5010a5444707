# Decompressors called from C: lz4 (kafkawire's frame walk in src_c/lz4_decode.c around the
# vendored liblz4's block decoder), snappy (src_c/snappy_decode.c) and zstd through the
# vendored libzstd (src_c/zstd_decode.c); and the lz4 frame compressor (src_c/lz4_encode.c),
# which the batch builder calls from C to compress straight into the batch it returns.
#
# Each call takes the input buffer, lets the C code bound the output, allocates the result
# bytes object once (never more than max_size) and decodes straight into it. Large payloads
# are decoded without the GIL. At C level (see _codecs.pxd), the *_bytes functions do the
# same from a pointer (read_batches, from its input's memory) and the *_into variants decode
# into memory the caller owns: decode_records' payload slabs.

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.object cimport PyObject
from cpython.ref cimport Py_XDECREF
from libc.stdint cimport uint8_t, uint32_t, uint64_t

from kafkawire.errors import DecompressionError, LimitExceededError


cdef extern from "Python.h":
    # Raw references: the result is resized in place before it is handed out.
    PyObject *PyBytes_FromStringAndSize(const char *v, Py_ssize_t n)
    int _PyBytes_Resize(PyObject **obj, Py_ssize_t n)


cdef extern from "lz4_decode.h" nogil:
    ctypedef struct kw_lz4_scan_t:
        uint64_t bound
        uint64_t declared
        size_t err_pos

    enum:
        KW_LZ4_OK
        KW_LZ4_TRUNCATED
        KW_LZ4_BAD_MAGIC
        KW_LZ4_BAD_DESCRIPTOR
        KW_LZ4_BAD_HEADER_CHECKSUM
        KW_LZ4_BLOCK_TOO_BIG
        KW_LZ4_BAD_BLOCK
        KW_LZ4_BAD_OFFSET
        KW_LZ4_BLOCK_OVERFLOW
        KW_LZ4_LIMIT
        KW_LZ4_BAD_BLOCK_CHECKSUM
        KW_LZ4_BAD_CONTENT_CHECKSUM
        KW_LZ4_BAD_CONTENT_SIZE
        KW_LZ4_TRAILING
        KW_LZ4_NO_FRAME
        KW_LZ4_DECLARED_LIMIT
        KW_LZ4_NEED_ROOM
        KW_LZ4_END_BOUND
        KW_LZ4_END_LIMIT
        KW_LZ4_END_GUESS
        KW_LZ4_BAD_END
        KW_LZ4_NO_MEMORY

    int kw_lz4_scan(const uint8_t *src, size_t len, int magic, uint64_t max_size,
                    kw_lz4_scan_t *info)
    int kw_lz4_decode(const uint8_t *src, size_t len, int magic, uint64_t max_size,
                      uint8_t *dst, size_t cap, int end, size_t *out_len, size_t *err_pos)


cdef extern from "lz4_encode.h" nogil:
    size_t kw_lz4_frame_bound(size_t n)
    size_t kw_lz4_frame_compress(const uint8_t *src, size_t n, uint8_t *dst, int magic,
                                 int acceleration)


cdef extern from "vendor/lz4/xxhash.h" nogil:
    unsigned int XXH32(const void *data, size_t length, unsigned int seed)


cdef extern from "snappy_decode.h" nogil:
    enum:
        KW_SNAPPY_OK
        KW_SNAPPY_TRUNCATED
        KW_SNAPPY_BAD_LENGTH
        KW_SNAPPY_IMPOSSIBLE
        KW_SNAPPY_BAD_OFFSET
        KW_SNAPPY_OVERFLOW
        KW_SNAPPY_SHORT
        KW_SNAPPY_LIMIT
        KW_SNAPPY_XERIAL_HEADER
        KW_SNAPPY_XERIAL_BLOCK

    int kw_snappy_scan(const uint8_t *src, size_t len, uint64_t max_size, uint64_t *total,
                       size_t *err_pos)
    int kw_snappy_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t total,
                         size_t *err_pos)


cdef extern from "zstd_decode.h" nogil:
    unsigned kw_zstd_version()
    void *kw_zstd_dctx_new()
    void kw_zstd_dctx_free(void *dctx)
    uint64_t kw_zstd_bound(const uint8_t *src, size_t len)
    int kw_zstd_declares_size(const uint8_t *src, size_t len)
    int kw_zstd_decode(void *dctx, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
                       size_t *out_len)


cdef PyObject *_new_bytes(size_t size) except NULL:
    """A new bytes object of size bytes to decode into (a raw reference)."""
    cdef PyObject *res = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>size)
    if res == NULL:
        raise MemoryError()
    return res


cdef bytes _shrunk(PyObject **res, size_t size, size_t out_len):
    """*res, of size bytes, cut to its first out_len: the reference moves to the result
    and *res is left NULL."""
    cdef PyObject *r = res[0]
    res[0] = NULL
    if out_len != size and _PyBytes_Resize(&r, <Py_ssize_t>out_len) < 0:
        raise MemoryError()  # r was freed by _PyBytes_Resize
    out = <bytes>r
    Py_XDECREF(r)
    return out


# Below this much output the GIL is kept: releasing it costs more than the decoding.
cdef size_t NOGIL_MIN = 256 * 1024

_LZ4_ERRORS = {
    KW_LZ4_TRUNCATED: "truncated lz4 frame",
    KW_LZ4_BAD_MAGIC: "corrupt lz4 frame: bad magic number",
    KW_LZ4_BAD_DESCRIPTOR: "corrupt lz4 frame: bad frame descriptor",
    KW_LZ4_BAD_HEADER_CHECKSUM: "corrupt lz4 frame: bad header checksum",
    KW_LZ4_BLOCK_TOO_BIG: "corrupt lz4 frame: block larger than the frame's block maximum",
    KW_LZ4_BAD_BLOCK: "corrupt lz4 block",
    KW_LZ4_BAD_OFFSET: "corrupt lz4 block: match offset before the start of the output",
    KW_LZ4_BLOCK_OVERFLOW: "corrupt lz4 block: decodes to more than the block maximum",
    KW_LZ4_BAD_BLOCK_CHECKSUM: "corrupt lz4 frame: bad block checksum",
    KW_LZ4_BAD_CONTENT_CHECKSUM: "corrupt lz4 frame: bad content checksum",
    KW_LZ4_BAD_CONTENT_SIZE: "corrupt lz4 frame: content size differs from the declared one",
    KW_LZ4_TRAILING: "bytes after the lz4 frame",
    KW_LZ4_NO_FRAME: "corrupt lz4 payload: no lz4 frame",
    KW_LZ4_BAD_END: (
        "corrupt lz4 block: its end breaks the format's rules (the last 5 bytes literals, "
        "the last match at least 12 bytes before the end)"
    ),
}

_SNAPPY_ERRORS = {
    KW_SNAPPY_TRUNCATED: "truncated snappy block",
    KW_SNAPPY_BAD_LENGTH: "corrupt snappy block: bad length header",
    KW_SNAPPY_IMPOSSIBLE: "corrupt snappy block: length header larger than the block can hold",
    KW_SNAPPY_BAD_OFFSET: "corrupt snappy block: copy offset before the start of the output",
    KW_SNAPPY_OVERFLOW: "corrupt snappy block: decodes to more than its length header",
    KW_SNAPPY_SHORT: "corrupt snappy block: decodes to less than its length header",
    KW_SNAPPY_XERIAL_HEADER: "truncated snappy xerial header",
    KW_SNAPPY_XERIAL_BLOCK: "truncated snappy xerial block",
}


cdef int _lz4_error(int rc, size_t pos, size_t length, uint64_t max_size,
                    uint64_t declared) except -1:
    if rc == KW_LZ4_LIMIT:
        raise LimitExceededError(f"lz4 payload decompresses to more than {max_size} bytes")
    if rc == KW_LZ4_NO_MEMORY:
        raise MemoryError()
    if rc == KW_LZ4_DECLARED_LIMIT:
        raise LimitExceededError(f"lz4 frame declares {declared} bytes (cap {max_size})")
    if rc == KW_LZ4_TRAILING:
        raise DecompressionError(f"{length - pos} bytes after the lz4 frame (at byte {pos})")
    text = _LZ4_ERRORS.get(rc, f"lz4 decoder error {rc}")
    raise DecompressionError(f"{text} (at byte {pos} of the payload)")


cdef int _lz4_check(int rc, const uint8_t *src, size_t length, uint64_t max_size,
                    size_t err_pos) except -1:
    """Raise for what kw_lz4_decode returned, unless it is KW_LZ4_OK."""
    if rc == KW_LZ4_DECLARED_LIMIT:
        _lz4_error(rc, err_pos, length, max_size, _u64le(src + err_pos))
    if rc != KW_LZ4_OK:
        _lz4_error(rc, err_pos, length, max_size, 0)
    return 0


cdef int _snappy_error(int rc, size_t pos, uint64_t max_size) except -1:
    if rc == KW_SNAPPY_LIMIT:
        raise LimitExceededError(f"snappy payload decompresses to more than {max_size} bytes")
    text = _SNAPPY_ERRORS.get(rc, f"snappy decoder error {rc}")
    raise DecompressionError(f"{text} (at byte {pos} of the payload)")


cdef inline uint64_t _u64le(const uint8_t *p) noexcept:
    cdef uint64_t v = 0
    cdef int i
    for i in range(8):
        v |= (<uint64_t>p[i]) << (8 * i)
    return v


cdef inline uint64_t _cap(object max_size) except? 0:
    # Python ints of any size: a cap beyond what memory can hold is no cap.
    if max_size <= 0:
        return 0
    if max_size >= 0x7FFFFFFFFFFFFFFF:
        return 0x7FFFFFFFFFFFFFFF
    return <uint64_t>max_size


# Output bytes per input byte of the last lz4 payload decoded: the first guess of the next
# one's size (only read and written with the GIL held). Allocating the scan's bound instead
# (a 64 KiB block maximum for 16 KiB of output) and shrinking the result costs more than the
# decoding: the heap top is trimmed and grown again, page faults included.
cdef double _lz4_ratio = 4.0


cdef int _lz4_decode(const uint8_t *src, size_t length, int magic, uint64_t limit,
                     PyObject *res, size_t cap, int end, size_t *out_len,
                     size_t *err_pos) noexcept:
    cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(<object>res)
    cdef int rc
    if cap >= NOGIL_MIN:
        with nogil:
            rc = kw_lz4_decode(src, length, magic, limit, dst, cap, end, out_len, err_pos)
    else:
        rc = kw_lz4_decode(src, length, magic, limit, dst, cap, end, out_len, err_pos)
    return rc


def lz4_frame_compress(data, int magic=2, int acceleration=1):
    """One lz4 frame as Kafka's Java client writes it (64 KiB independent blocks, no
    checksums, no content size): lz4.frame.compress's bytes with those settings.

    ``magic`` 0 writes the header checksum Kafka < 0.10 expects; ``acceleration`` >= 1 is
    liblz4's (higher: faster, larger).
    """
    cdef Py_buffer buf
    cdef PyObject *res = NULL
    cdef size_t size, out_len
    cdef uint8_t *dst
    if acceleration < 1:
        raise ValueError(f"acceleration must be >= 1, not {acceleration}")
    PyObject_GetBuffer(data, &buf, PyBUF_SIMPLE)
    try:
        size = kw_lz4_frame_bound(<size_t>buf.len)
        res = _new_bytes(size)
        dst = <uint8_t *>PyBytes_AS_STRING(<object>res)
        if <size_t>buf.len >= NOGIL_COMPRESS_MIN:
            with nogil:
                out_len = kw_lz4_frame_compress(<const uint8_t *>buf.buf, <size_t>buf.len, dst,
                                                magic, acceleration)
        else:
            out_len = kw_lz4_frame_compress(<const uint8_t *>buf.buf, <size_t>buf.len, dst,
                                            magic, acceleration)
        return _shrunk(&res, size, out_len)
    finally:
        PyBuffer_Release(&buf)
        Py_XDECREF(res)


# compression is slower than decoding: the GIL pays to release on smaller inputs
cdef size_t NOGIL_COMPRESS_MIN = 64 * 1024


cdef size_t lz4_compress_bound(size_t length) noexcept nogil:
    return kw_lz4_frame_bound(length)


cdef size_t lz4_compress_into(const uint8_t *src, size_t length, int magic,
                              uint8_t *dst) noexcept nogil:
    return kw_lz4_frame_compress(src, length, dst, magic, 1)


def lz4_frame_decompress(data, max_size, int magic=2):
    """Decode an lz4 payload (frames, skippable frames) of at most max_size bytes.

    ``magic`` 0 ignores the frame header checksum, which Kafka < 0.10 computed wrongly.
    """
    cdef Py_buffer buf
    cdef uint64_t limit = _cap(max_size)
    PyObject_GetBuffer(data, &buf, PyBUF_SIMPLE)
    try:
        return lz4_decompress_bytes(<const uint8_t *>buf.buf, <size_t>buf.len, magic, limit)
    finally:
        PyBuffer_Release(&buf)


cdef bytes lz4_decompress_bytes(const uint8_t *src, size_t length, int magic, uint64_t limit):
    """lz4_frame_decompress on src[0:length], with limit as the cap."""
    global _lz4_ratio
    cdef kw_lz4_scan_t info
    cdef size_t size, out_len = 0, err_pos = 0
    cdef double estimate
    cdef int rc, end
    cdef PyObject *res = NULL
    try:
        # First try a buffer of the size the last payload's ratio predicts, with a margin,
        # without a scan: the decoder checks all the scan does.
        estimate = <double>length * _lz4_ratio * 1.125 + 64.0
        rc = KW_LZ4_NEED_ROOM
        if estimate < <double>limit:
            size = <size_t>estimate
            res = _new_bytes(size)
            rc = _lz4_decode(src, length, magic, limit, res, size, KW_LZ4_END_GUESS,
                             &out_len, &err_pos)
            if rc == KW_LZ4_NEED_ROOM:
                Py_XDECREF(res)
                res = NULL
        if rc == KW_LZ4_NEED_ROOM:
            rc = kw_lz4_scan(src, length, magic, limit, &info)
            if rc != KW_LZ4_OK:
                _lz4_error(rc, info.err_pos, length, limit, info.declared)
            # Each block is bounded by the frame's block maximum (and by 255 times its
            # size): a buffer of the bound, or of max_size if smaller, holds all that may be
            # written.
            end = KW_LZ4_END_LIMIT if info.bound > limit else KW_LZ4_END_BOUND
            size = <size_t>(limit if info.bound > limit else info.bound)
            res = _new_bytes(size)
            rc = _lz4_decode(src, length, magic, limit, res, size, end, &out_len, &err_pos)
        _lz4_check(rc, src, length, limit, err_pos)
        _lz4_ratio = <double>out_len / <double>length
        return _shrunk(&res, size, out_len)
    finally:
        Py_XDECREF(res)


def snappy_decompress(data, max_size):
    """Decode a raw snappy block, or an xerial stream (detected by its magic)."""
    cdef Py_buffer buf
    cdef uint64_t limit = _cap(max_size)
    PyObject_GetBuffer(data, &buf, PyBUF_SIMPLE)
    try:
        return snappy_decompress_bytes(<const uint8_t *>buf.buf, <size_t>buf.len, limit)
    finally:
        PyBuffer_Release(&buf)


cdef bytes snappy_decompress_bytes(const uint8_t *src, size_t length, uint64_t limit):
    """snappy_decompress on src[0:length], with limit as the cap."""
    cdef uint64_t total = 0
    cdef size_t err_pos = 0
    cdef int rc
    cdef PyObject *res = NULL
    cdef uint8_t *dst
    try:
        rc = kw_snappy_scan(src, length, limit, &total, &err_pos)
        if rc != KW_SNAPPY_OK:
            _snappy_error(rc, err_pos, limit)
        res = _new_bytes(total)
        dst = <uint8_t *>PyBytes_AS_STRING(<object>res)
        if total >= NOGIL_MIN:
            with nogil:
                rc = kw_snappy_decode(src, length, dst, <size_t>total, &err_pos)
        else:
            rc = kw_snappy_decode(src, length, dst, <size_t>total, &err_pos)
        if rc != KW_SNAPPY_OK:
            _snappy_error(rc, err_pos, limit)
        out = <bytes>res
    finally:
        Py_XDECREF(res)
    return out


cdef Py_ssize_t lz4_decompress_into(const uint8_t *src, size_t length, int magic,
                                    uint64_t max_size, uint8_t *dst, size_t room) except -2:
    """Decode an lz4 payload into dst[0:room]: its size, or -1 if it does not fit (dst
    may then hold anything). Errors raise as lz4_frame_decompress's do."""
    cdef size_t out_len = 0, err_pos = 0
    cdef uint64_t limit = max_size
    cdef int end = KW_LZ4_END_GUESS
    cdef int rc
    if room >= limit:
        room, end = <size_t>limit, KW_LZ4_END_LIMIT
    rc = kw_lz4_decode(src, length, magic, limit, dst, room, end, &out_len, &err_pos)
    if rc == KW_LZ4_NEED_ROOM:
        return -1
    _lz4_check(rc, src, length, limit, err_pos)
    return <Py_ssize_t>out_len


cdef Py_ssize_t snappy_decompress_into(const uint8_t *src, size_t length, uint64_t max_size,
                                       uint8_t *dst, size_t room) except -2:
    """Decode a snappy payload into dst[0:room]: its size, or -1 if it does not fit."""
    cdef uint64_t total = 0
    cdef size_t err_pos = 0
    cdef int rc = kw_snappy_scan(src, length, max_size, &total, &err_pos)
    if rc != KW_SNAPPY_OK:
        _snappy_error(rc, err_pos, max_size)
    if total > room:
        return -1
    rc = kw_snappy_decode(src, length, dst, <size_t>total, &err_pos)
    if rc != KW_SNAPPY_OK:
        _snappy_error(rc, err_pos, max_size)
    return <Py_ssize_t>total


def xxh32(data, uint32_t seed=0):
    """XXH32 of a bytes-like object (liblz4's xxhash)."""
    cdef Py_buffer buf
    cdef uint32_t h
    PyObject_GetBuffer(data, &buf, PyBUF_SIMPLE)
    h = XXH32(buf.buf, <size_t>buf.len, seed)
    PyBuffer_Release(&buf)
    return h


# --- zstd through the vendored libzstd -----------------------------------------------------
#
# A payload the fast path cannot take, for whatever reason (a bound over the cap, an error),
# goes to kafkawire.compression's zstandard path, which reads the frames carefully and raises
# the precise error: the fast path never reports one itself.

# Whether payloads go to the compiled-in libzstd (tests switch it off to run zstandard's path).
cdef bint _libzstd = True
# A spare decoding context, taken and put back with the GIL held: a thread decoding without
# the GIL has its own.
cdef void *_spare_dctx = NULL
# Output bytes per input byte of the last payload whose frames declare no content size (Java
# producers write those): the first guess of the next one's size, as for lz4.
cdef double _zstd_ratio = 4.0


def libzstd_version():
    """ZSTD_versionNumber() of the compiled-in libzstd when zstd payloads go through it, else
    None (switched off by use_libzstd)."""
    return kw_zstd_version() if _libzstd else None


def use_libzstd(bint enabled):
    """Decode zstd through the compiled-in libzstd, or through the zstandard package only
    (tests run both paths); returns whether the compiled-in library is now in use."""
    global _libzstd
    _libzstd = enabled
    return enabled



cdef int _zstd_decode(const uint8_t *src, size_t length, uint8_t *dst, size_t cap,
                      size_t *out_len) noexcept:
    """kw_zstd_decode with a context of this thread's: 0, or -1 on any failure."""
    global _spare_dctx
    cdef void *dctx = _spare_dctx
    cdef int rc
    _spare_dctx = NULL
    if dctx == NULL:
        dctx = kw_zstd_dctx_new()
        if dctx == NULL:
            return -1
    if cap >= NOGIL_MIN:
        with nogil:
            rc = kw_zstd_decode(dctx, src, length, dst, cap, out_len)
    else:
        rc = kw_zstd_decode(dctx, src, length, dst, cap, out_len)
    if _spare_dctx == NULL:
        _spare_dctx = dctx
    else:
        kw_zstd_dctx_free(dctx)
    return rc


cdef uint64_t _zstd_bound(const uint8_t *src, size_t length, uint64_t limit) noexcept:
    """The output room the fast path needs, or 0 to leave the payload to the careful path."""
    if not _libzstd:
        return 0
    cdef uint64_t bound = kw_zstd_bound(src, length)
    # A block of 4 bytes decodes to at most 128 KiB: a larger ratio is a declared content
    # size the blocks cannot hold, which the careful path reports.
    if bound > limit or bound > (<uint64_t>length << 15):
        return 0
    return bound


def zstd_decompress(data, max_size):
    """Decode a zstd payload through the compiled-in libzstd; None when it is not in use or
    the payload needs kafkawire.compression's careful path (which reports errors)."""
    cdef Py_buffer buf
    PyObject_GetBuffer(data, &buf, PyBUF_SIMPLE)
    try:
        return zstd_decompress_bytes(<const uint8_t *>buf.buf, <size_t>buf.len,
                                     _cap(max_size))
    finally:
        PyBuffer_Release(&buf)


cdef object zstd_decompress_bytes(const uint8_t *src, size_t length, uint64_t limit):
    """zstd_decompress on src[0:length], with limit as the cap."""
    global _zstd_ratio
    cdef uint64_t bound = _zstd_bound(src, length, limit)
    cdef uint64_t size = bound
    cdef size_t out_len = 0
    cdef double estimate
    cdef int rc = -1
    cdef bint guessed = False
    cdef PyObject *res = NULL
    if bound == 0:
        return None
    try:
        if not kw_zstd_declares_size(src, length):
            # No declared size: the bound is a block maximum per block (128 KiB for 16 KiB
            # of records); try the size the last such payload's ratio predicts first.
            estimate = <double>length * _zstd_ratio * 1.125 + 64.0
            if estimate < <double>bound:
                guessed = True
                size = <uint64_t>estimate
                res = _new_bytes(size)
                rc = _zstd_decode(src, length, <uint8_t *>PyBytes_AS_STRING(<object>res),
                                  <size_t>size, &out_len)
                if rc != 0:
                    Py_XDECREF(res)
                    res = NULL
                    size = bound
        if res == NULL:
            res = _new_bytes(size)
            rc = _zstd_decode(src, length, <uint8_t *>PyBytes_AS_STRING(<object>res),
                              <size_t>size, &out_len)
            if rc != 0:
                return None
        if guessed:
            _zstd_ratio = <double>out_len / <double>length
        return _shrunk(&res, size, out_len)
    finally:
        Py_XDECREF(res)


cdef Py_ssize_t zstd_decompress_into(const uint8_t *src, size_t length, uint64_t max_size,
                                     uint8_t *dst, size_t room) except -2:
    """Decode a zstd payload into dst[0:room] through the compiled-in libzstd: its size, -1
    if it may not fit, or -3 when the careful path must take it."""
    cdef uint64_t bound = _zstd_bound(src, length, max_size)
    cdef size_t out_len = 0
    if bound == 0:
        return -3
    if _zstd_decode(src, length, dst, <size_t>bound if bound < room else room, &out_len) == 0:
        return <Py_ssize_t>out_len
    return -1 if bound > room else -3
