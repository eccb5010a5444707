# Decoding of Kafka records: record batches (magic 2) and legacy message sets
# (magic 0 and 1).
#
# Two passes.  The walker reads one entry (batch or legacy message) at a time:
# it checks lengths and the CRC, decompresses, applies read_committed
# filtering, and knows the entry's exact record count.  The C scanner then
# fills columns sized to that count.  RecordView keeps every column in numpy
# arrays and points into the input (or decompressed payloads) for keys,
# values and headers, so no Python object is made per record.

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_FillInfo, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport (
    PyBytes_AS_STRING,
    PyBytes_Check,
    PyBytes_FromStringAndSize,
    PyBytes_GET_SIZE,
)
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

cimport cython
cimport numpy as cnp
from cpython.dict cimport PyDict_SetItem
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF

import numpy as np

from kafkawire.compression._codecs cimport (
    lz4_decompress_bytes,
    lz4_decompress_into,
    snappy_decompress_bytes,
    snappy_decompress_into,
    zstd_decompress_bytes,
    zstd_decompress_into,
)

from kafkawire import compression as _compression
from kafkawire.errors import (
    CorruptError,
    CrcError,
    DecodeError,
    LimitExceededError,
    TruncatedError,
    UnsupportedError,
)

cnp.import_array()


cdef extern from "crc32c.h":
    uint32_t kw_crc32c(uint32_t crc, const void *data, size_t length) nogil
    int kw_crc32c_using(int impl, uint32_t crc, const void *data, size_t length,
                        uint32_t *out) nogil
    int kw_crc32c_impl()
    const char *kw_crc32c_name(int impl)


cdef extern from "record_scan.h":
    ctypedef struct kw_columns:
        int64_t *offsets
        int64_t *timestamps
        uint32_t *key_pos
        int32_t *key_len
        uint32_t *value_pos
        int32_t *value_len
        size_t n
        size_t cap
        uint32_t *header_pos
        size_t nh

    ctypedef struct kw_v2_batch:
        int64_t base_offset
        int64_t base_timestamp
        int64_t log_append_time
        int32_t record_count

    ctypedef struct kw_legacy_set:
        int magic
        int is_inner
        int64_t wrapper_offset
        int64_t wrapper_timestamp
        int verify_crc

    int KW_SCAN_OK, KW_SCAN_TRUNCATED, KW_SCAN_BAD_VARINT, KW_SCAN_BAD_LENGTH
    int KW_SCAN_SIZE_MISMATCH, KW_SCAN_COUNT_MISMATCH, KW_SCAN_OVERFLOW
    int KW_SCAN_BAD_CRC, KW_SCAN_BAD_MAGIC, KW_SCAN_NESTED_COMPRESSION, KW_SCAN_TOO_MANY_HEADERS

    int kw_scan_v2(kw_columns *cols, const uint8_t *data, size_t length,
                   const kw_v2_batch *batch, size_t *err_pos, const char **err_field) nogil
    int kw_scan_legacy(kw_columns *cols, const uint8_t *data, size_t length,
                       const kw_legacy_set *set, size_t *err_pos, const char **err_field) nogil
    int64_t kw_count_legacy(const uint8_t *data, size_t length) nogil
    uint32_t kw_crc32_ieee(uint32_t crc, const void *data, size_t length) nogil
    void kw_fill_binary_views(uint8_t *views, size_t n, const uint32_t *pos, const int32_t *length,
                              const uint8_t *base, int32_t buf_index, int64_t data_start) nogil
    int32_t kw_read_headers(const uint8_t *data, size_t length, uint32_t pos, uint32_t *key_pos,
                            int32_t *key_len, uint32_t *value_pos, int32_t *value_len,
                            int32_t max) nogil


cdef enum:
    # v2 batch header layout (byte offsets from the start of the batch)
    V2_HEADER = 61          # bytes before the first record
    V2_CRC_START = 21       # the CRC covers attributes .. end of batch
    MIN_V2_LENGTH = 49      # batchLength of an empty batch (61 - 12)
    MIN_RECORD_BYTES = 7    # smallest possible v2 record
    LEGACY_OVERHEAD = 12    # offset + message size
    MIN_V0_SIZE = 14        # crc, magic, attributes, key and value lengths
    MIN_V1_SIZE = 22        # ... plus the timestamp
    # a GIL-free scan is worth its hand-off only on larger batches
    NOGIL_BYTES = 65536

ATTR_CODEC_MASK = 0x07
ATTR_TIMESTAMP_TYPE = 0x08
ATTR_TRANSACTIONAL = 0x10
ATTR_CONTROL = 0x20
ATTR_DELETE_HORIZON = 0x40

NO_TIMESTAMP = -1
CREATE_TIME = 0
LOG_APPEND_TIME = 1

DEFAULT_MAX_DECOMPRESSED_SIZE = _compression.DEFAULT_MAX_DECOMPRESSED_SIZE
# All the payloads of one decode_records call (one read_batches iterator): a
# fetch of many small batches that each decompress to just under the per-batch
# cap must not add up without bound.
DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE = 1024 * 1024 * 1024


# Build the CRC tables now, while the import holds the GIL, rather than in the
# first (possibly GIL-free, concurrent) call.
kw_crc32c(0, NULL, 0)
kw_crc32_ieee(0, NULL, 0)


def crc32c(data, uint32_t value=0):
    """CRC-32C of a bytes-like object (hardware-accelerated where available)."""
    cdef Py_buffer view
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        with nogil:
            value = kw_crc32c(value, view.buf, <size_t>view.len)
    finally:
        PyBuffer_Release(&view)
    return value


def crc32c_implementation():
    """Which CRC-32C code this CPU runs: "avx512-vpclmulqdq" (carry-less
    multiply folding), "sse4.2" / "armv8-crc" (the CRC instruction) or "portable"."""
    return kw_crc32c_name(kw_crc32c_impl()).decode()


def crc32c_using(str implementation, data, uint32_t value=0):
    """CRC-32C by the named implementation (see crc32c_implementation), for
    checking that they agree; ValueError if this CPU does not have it."""
    cdef int impl = 1
    while kw_crc32c_name(impl) != NULL and kw_crc32c_name(impl).decode() != implementation:
        impl += 1
    cdef Py_buffer view
    cdef int rc
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        with nogil:
            rc = kw_crc32c_using(impl, value, view.buf, <size_t>view.len, &value)
    finally:
        PyBuffer_Release(&view)
    if rc != 0:
        raise ValueError(f"CRC-32C implementation {implementation!r} is not available here")
    return value


cdef inline uint32_t be32(const uint8_t *p) noexcept nogil:
    return (<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | p[3]


cdef inline int64_t be64(const uint8_t *p) noexcept nogil:
    return <int64_t>((<unsigned long long>be32(p) << 32) | be32(p + 4))


cdef inline int16_t be16(const uint8_t *p) noexcept nogil:
    return <int16_t>((p[0] << 8) | p[1])


# What the walker knows about one entry of the input: a v2 batch, or one
# top-level legacy message (plain, or a compressed wrapper of an inner set).
cdef struct BatchInfo:
    int64_t byte_offset        # where the entry starts in the input
    int64_t size               # bytes of the entry, header included
    int64_t base_offset
    int32_t partition_leader_epoch
    int8_t magic
    uint32_t crc
    int16_t attributes
    int32_t last_offset_delta
    int64_t base_timestamp
    int64_t max_timestamp
    int64_t producer_id
    int16_t producer_epoch
    int32_t base_sequence
    int32_t record_count       # records the scan will produce
    int32_t segment            # 0: the input; k > 0: walker.segments[k - 1] (a payload slab)
    int64_t data_start         # record data start within the segment
    int64_t data_len
    int64_t first_record       # index of its first record in a RecordView
    bint crc_pending           # CRC left for the scan pass (see _Walker.defer_crc)
    bint crc_mismatch          # the scan pass found it wrong (reported when reached)


cdef inline int codec_of(const BatchInfo *b) noexcept nogil:
    return b.attributes & 0x07


cdef inline int64_t wrap_add(int64_t a, int64_t b) noexcept nogil:
    # offsets are sums of untrusted fields: they wrap as Java's longs do
    # (signed overflow would be undefined behaviour)
    return <int64_t>(<uint64_t>a + <uint64_t>b)


cdef inline int64_t last_offset_of(const BatchInfo *b) noexcept nogil:
    return wrap_add(b.base_offset, b.last_offset_delta)


cdef object _scan_error(int code, const char *field, int64_t where, const BatchInfo *b,
                        bint in_payload):
    """The DecodeError for a scanner failure at byte `where`."""
    cdef str name = field.decode()
    cdef str place = "in the decompressed payload" if in_payload else ""
    messages = {
        KW_SCAN_TRUNCATED: (TruncatedError, "record runs past the end of its batch"),
        KW_SCAN_BAD_VARINT: (CorruptError, "varint longer than its type allows"),
        KW_SCAN_BAD_LENGTH: (CorruptError, "invalid length"),
        KW_SCAN_SIZE_MISMATCH: (CorruptError, "record length disagrees with its fields"),
        KW_SCAN_COUNT_MISMATCH: (CorruptError,
                                 f"batch declares {b.record_count} records but holds a different number"),
        KW_SCAN_OVERFLOW: (CorruptError, "more records than declared"),
        KW_SCAN_BAD_CRC: (CrcError, "CRC-32 mismatch in an inner message"),
        KW_SCAN_BAD_MAGIC: (CorruptError, "inner message magic differs from its wrapper's"),
        KW_SCAN_NESTED_COMPRESSION: (CorruptError, "compressed message inside a compressed wrapper"),
        KW_SCAN_TOO_MANY_HEADERS: (CorruptError, "too many headers"),
    }
    cls, text = messages.get(code, (CorruptError, f"scan error {code}"))
    if cls is MemoryError:
        return MemoryError("kafkawire: out of memory while scanning records")
    if in_payload:
        text = f"{text} (byte {where} of the decompressed payload)"
        return cls(text, offset=b.byte_offset, batch_offset=b.base_offset, field=name)
    return cls(text, offset=where, batch_offset=b.base_offset, field=name)


cdef bint _immutable(object source, const Py_buffer *view) except -1:
    """Whether nothing can change the bytes of source's buffer: bytes, or a
    read-only export (read-only mmap, numpy array with writeable=False, ...)
    -- except a read-only memoryview of writable memory."""
    cdef Py_buffer base_view
    if PyBytes_Check(source):
        return True
    if not view.readonly:
        return False
    if isinstance(source, memoryview):
        base = source.obj
        if base is None:
            return False
        if PyBytes_Check(base):
            return True
        try:
            PyObject_GetBuffer(base, &base_view, PyBUF_SIMPLE)
        except (BufferError, TypeError):
            return False
        readonly = base_view.readonly
        PyBuffer_Release(&base_view)
        return readonly
    return True


cdef inline void copy_bytes(char *dst, const void *src, size_t n) noexcept:
    if n > NOGIL_BYTES:
        with nogil:
            memcpy(dst, src, n)
    else:
        memcpy(dst, src, n)


include "_decode_walker.pxi"


include "_decode_records.pxi"


include "_decode_view.pxi"

