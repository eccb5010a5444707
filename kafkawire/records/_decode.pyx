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


cdef class _AbortedTransactions:
    """read_committed bookkeeping, as Java's consumer does it: a transaction
    listed as aborted (producer id, first offset) drops that producer's
    transactional batches from its first offset until the producer's abort
    marker; control batches are never returned."""
    cdef list pending          # (first_offset, producer_id), ascending
    cdef Py_ssize_t next_index
    cdef set aborted_producers

    def __init__(self, aborted):
        pairs = []
        for entry in aborted:
            if isinstance(entry, tuple):
                producer_id, first_offset = entry
            else:
                producer_id, first_offset = entry.producer_id, entry.first_offset
            pairs.append((int(first_offset), int(producer_id)))
        pairs.sort()
        self.pending = pairs
        self.next_index = 0
        self.aborted_producers = set()

    cdef bint keep(self, const BatchInfo *b, object control_type) except -1:
        cdef bint transactional = (b.attributes & ATTR_TRANSACTIONAL) != 0
        cdef bint control = (b.attributes & ATTR_CONTROL) != 0
        cdef int64_t last = last_offset_of(b)
        if transactional:
            while (self.next_index < len(self.pending)
                   and self.pending[self.next_index][0] <= last):
                self.aborted_producers.add(self.pending[self.next_index][1])
                self.next_index += 1
            if control:
                if control_type == 0:   # abort marker ends the aborted transaction
                    self.aborted_producers.discard(b.producer_id)
            elif b.producer_id in self.aborted_producers:
                return False
        return not control


# decode_records keeps every decompressed payload for as long as its view
# lives.  Kept as one bytes object each, they are freed with the view, glibc
# returns that memory to the system, and the next call faults every page in
# again (lz4: 26.7 ms a call in a fresh process, 10.3 ms without the faults).
# Payloads go into 1 MiB slabs instead (lz4 and snappy decode straight into
# them, gzip's and zstd's are copied), and a dropped view's slabs that
# nothing else refers to (refcount 1, the bytes ring's rule) wait in a small
# pool for the next call.  Not on free-threaded builds.
cdef extern from "recycle.h":
    const Py_ssize_t KW_SLAB_SIZE
    object kw_slab_take()
    void kw_slab_recycle(PyObject *segments)


cdef class _Walker:
    """Reads entries one by one from a buffer (see the module comment)."""
    cdef Py_buffer view
    cdef bint have_view
    cdef const uint8_t *buf
    cdef int64_t length
    cdef int64_t pos
    cdef bint verify_crc
    cdef int64_t max_decompressed
    cdef int64_t max_total        # of all decompressed payloads together
    cdef int64_t total_decompressed
    cdef _AbortedTransactions aborted
    cdef int64_t end_offset       # last offset + 1 of the last entry walked, kept or not
    cdef list segments            # decompressed payloads (bytes), segment k -> segments[k-1]:
                                  # slabs of several payloads, or a big payload of its own
    cdef object slab              # the slab being filled (decode_records)
    cdef Py_ssize_t slab_used
    cdef int32_t slab_segment
    # read_batches does not keep them: each batch holds its own payload, so
    # a payload is freed once its batch is, and the next one reuses its memory
    cdef bint keep_segments
    cdef object payload           # the latest payload when segments are not kept
    # decode_records checks an uncompressed batch's CRC just before scanning
    # it, while its bytes are in cache, instead of in a separate pass
    cdef bint defer_crc
    cdef object source            # the object whose buffer we hold
    cdef object source_bytes      # a memoryview of it as bytes, made on first use

    def __cinit__(self, source, bint verify_crc, int64_t max_decompressed, int64_t max_total,
                  aborted, copy):
        cdef bytes private
        if max_decompressed <= 0 or max_decompressed > 0xFFFFFFFF:
            raise ValueError("max_decompressed_size must be between 1 and 4 GiB")
        if max_total <= 0:
            raise ValueError("max_total_decompressed_size must be positive")
        if copy is not None and copy is not True and copy is not False:
            raise TypeError(f"copy must be None, True or False, not {copy!r}")
        PyObject_GetBuffer(source, &self.view, PyBUF_SIMPLE)
        self.have_view = True
        if copy is True or (copy is None and not _immutable(source, &self.view)):
            # The buffer policy: views read a private copy, which nothing can change.
            private = PyBytes_FromStringAndSize(NULL, self.view.len)
            copy_bytes(<char *>PyBytes_AS_STRING(private), self.view.buf, <size_t>self.view.len)
            PyBuffer_Release(&self.view)
            self.have_view = False
            PyObject_GetBuffer(private, &self.view, PyBUF_SIMPLE)
            self.have_view = True
            source = private
        self.source = source
        self.buf = <const uint8_t *>self.view.buf
        self.length = self.view.len
        self.pos = 0
        self.verify_crc = verify_crc
        self.max_decompressed = max_decompressed
        self.max_total = max_total
        self.total_decompressed = 0
        self.aborted = None if aborted is None else _AbortedTransactions(aborted)
        self.segments = []
        self.keep_segments = True
        self.end_offset = -1

    def __dealloc__(self):
        if self.have_view:
            PyBuffer_Release(&self.view)
        self.slab = None
        kw_slab_recycle(<PyObject *>self.segments)  # no temporary reference

    cdef object bytes_view(self):
        """The input as a memoryview of bytes (one for the walker: slicing it
        per batch is cheaper than making a view each time)."""
        if self.source_bytes is None:
            self.source_bytes = memoryview(self.source).cast("B")
        return self.source_bytes

    cdef const uint8_t *segment_ptr(self, int32_t segment):
        if segment == 0:
            return self.buf
        if not self.keep_segments:
            return <const uint8_t *>PyBytes_AS_STRING(self.payload)
        return <const uint8_t *>PyBytes_AS_STRING(self.segments[segment - 1])

    cdef int next(self, BatchInfo *b) except -1:
        """Read the next kept entry into b: 1 if one was read, 0 at the end
        (a partial trailing entry ends the input; see leftover())."""
        while True:
            if not self.read_entry(b):
                return 0
            self.end_offset = wrap_add(last_offset_of(b), 1)
            if self.aborted is None or self.aborted.keep(b, self.control_type(b)):
                return 1

    cdef int64_t leftover(self):
        return self.length - self.pos

    cdef int read_entry(self, BatchInfo *b) except -1:
        cdef int64_t pos = self.pos
        cdef int64_t avail = self.length - pos
        cdef const uint8_t *p = self.buf + pos
        cdef int32_t size
        if avail < LEGACY_OVERHEAD:
            return 0
        size = <int32_t>be32(p + 8)
        if size < MIN_V0_SIZE:
            raise CorruptError(f"entry length {size} is below the smallest possible",
                               offset=pos + 8, batch_offset=be64(p), field="batch_length")
        if <int64_t>size > avail - LEGACY_OVERHEAD:
            return 0    # partial trailing entry
        memset(b, 0, sizeof(BatchInfo))
        b.byte_offset = pos
        b.size = LEGACY_OVERHEAD + <int64_t>size
        b.base_offset = be64(p)
        b.magic = <int8_t>p[16]
        if b.magic == 2:
            self.read_v2(b, p)
        elif b.magic == 0 or b.magic == 1:
            self.read_legacy(b, p)
        else:
            raise UnsupportedError(f"unknown magic byte {b.magic}", offset=pos + 16,
                                   batch_offset=b.base_offset, field="magic")
        self.pos = pos + b.size
        return 1

    cdef int read_v2(self, BatchInfo *b, const uint8_t *p) except -1:
        cdef int64_t pos = b.byte_offset
        cdef int64_t body = b.size - V2_HEADER
        cdef uint32_t actual
        cdef int codec
        if b.size - LEGACY_OVERHEAD < MIN_V2_LENGTH:
            raise CorruptError(f"batch length {b.size - LEGACY_OVERHEAD} is below the v2 minimum "
                               f"of {MIN_V2_LENGTH}", offset=pos + 8,
                               batch_offset=b.base_offset, field="batch_length")
        b.partition_leader_epoch = <int32_t>be32(p + 12)
        b.crc = be32(p + 17)
        b.attributes = be16(p + 21)
        b.last_offset_delta = <int32_t>be32(p + 23)
        b.base_timestamp = be64(p + 27)
        b.max_timestamp = be64(p + 35)
        b.producer_id = be64(p + 43)
        b.producer_epoch = be16(p + 51)
        b.base_sequence = <int32_t>be32(p + 53)
        b.record_count = <int32_t>be32(p + 57)
        codec = codec_of(b)
        if self.verify_crc:
            if (self.defer_crc and codec == 0 and self.aborted is None
                    and not (b.attributes & ATTR_CONTROL)):
                b.crc_pending = True
            else:
                check_v2_crc(b, p)
        if codec > 4:
            self.fail(b, p, UnsupportedError(f"unknown compression codec {codec}", offset=pos + 21,
                                             batch_offset=b.base_offset, field="attributes"))
        if b.record_count < 0:
            self.fail(b, p, CorruptError(f"negative record count {b.record_count}", offset=pos + 57,
                                         batch_offset=b.base_offset, field="record_count"))
        if codec == 0:
            b.segment = 0
            b.data_start = pos + V2_HEADER
            b.data_len = body
        else:
            b.segment = self.decompress(b, codec, pos + V2_HEADER, body)
        if b.record_count > b.data_len // MIN_RECORD_BYTES:
            self.fail(b, p, CorruptError(
                f"record count {b.record_count} cannot fit in {b.data_len} bytes",
                offset=pos + 57, batch_offset=b.base_offset, field="record_count"))
        return 0

    cdef int fail(self, BatchInfo *b, const uint8_t *p, exc) except -1:
        """Raise exc, unless the batch's CRC (not checked yet) is wrong: a
        mismatch is the root cause, so it is what gets reported."""
        if b.crc_pending:
            check_v2_crc(b, p)
        raise exc

    cdef int32_t decompress(self, BatchInfo *b, int codec, int64_t start, int64_t length) except -1:
        # the payload may use what the total cap leaves, up to the per-batch cap
        cdef int64_t room = self.max_total - self.total_decompressed
        cdef int64_t cap = room if room < self.max_decompressed else self.max_decompressed
        cdef Py_ssize_t n
        cdef bint careful = False   # zstd that the system's libzstd has refused
        try:
            if self.keep_segments and 2 <= codec <= 4 and length <= KW_SLAB_SIZE // 16:
                # our own decoders (and the system's libzstd) write straight into the
                # slab (a fresh one if the current one's room is too small); larger
                # payloads, which may not fit at all, get their own object as below
                n = self.decode_into_slab(b, codec, start, length, cap, False)
                if n == -1 and self.slab_used > 0:
                    n = self.decode_into_slab(b, codec, start, length, cap, True)
                if n >= 0:
                    return self.took_slab_room(b, n)
                careful = n == -3
            # lz4, snappy and zstd straight to C, from the input's memory: for 16 KiB
            # payloads a Python-level call per batch shows
            out = None
            if codec == 3:
                out = lz4_decompress_bytes(self.buf + start, <size_t>length, b.magic,
                                           <uint64_t>cap)
            elif codec == 2:
                out = snappy_decompress_bytes(self.buf + start, <size_t>length, <uint64_t>cap)
            elif codec == 4 and not careful:
                out = zstd_decompress_bytes(self.buf + start, <size_t>length, <uint64_t>cap)
                careful = out is None
            if careful:  # zstandard's path, which reports what libzstd refused
                out = _compression._zstd_decompress(self.bytes_view()[start:start + length],
                                                    cap)
            elif out is None:  # gzip
                out = _compression.decompress(codec, self.bytes_view()[start:start + length],
                                              max_size=cap, magic=b.magic)
        except LimitExceededError as exc:
            if cap < self.max_decompressed:
                exc = LimitExceededError(
                    f"the decompressed payloads exceed max_total_decompressed_size "
                    f"({self.max_total} bytes)")
            raise LimitExceededError(exc.reason, offset=start, batch_offset=b.base_offset,
                                     field="records") from None
        except DecodeError as exc:
            raise type(exc)(exc.reason, offset=start, batch_offset=b.base_offset,
                            field="records") from None
        if type(out) is not bytes:
            out = bytes(out)
        n = len(out)
        if not self.keep_segments or n > KW_SLAB_SIZE // 4:
            # a payload of its own: read_batches' batch holds it, or it is big
            # enough that one object is as good as a slab
            self.total_decompressed += n
            b.data_len = n
            b.data_start = 0
            if not self.keep_segments:
                self.payload = out
                return 1
            self.segments.append(out)
            return <int32_t>len(self.segments)
        if self.slab is None or KW_SLAB_SIZE - self.slab_used < n:
            self.new_slab()
        memcpy(PyBytes_AS_STRING(self.slab) + self.slab_used, PyBytes_AS_STRING(out), <size_t>n)
        return self.took_slab_room(b, n)

    cdef int32_t took_slab_room(self, BatchInfo *b, Py_ssize_t n) except -1:
        """Account for the n payload bytes just written at the slab's free room."""
        self.total_decompressed += n
        b.data_len = n
        b.data_start = self.slab_used
        self.slab_used += n
        return self.slab_segment

    cdef int new_slab(self) except -1:
        self.slab = kw_slab_take()
        self.slab_used = 0
        self.segments.append(self.slab)
        self.slab_segment = <int32_t>len(self.segments)
        return 0

    cdef Py_ssize_t decode_into_slab(self, BatchInfo *b, int codec, int64_t start,
                                     int64_t length, int64_t cap, bint fresh) except -2:
        """Decode an lz4, snappy or zstd payload into the slab's free room (a
        fresh slab's if asked): its size, -1 if it does not fit there, or -3 if
        zstd must take the careful path."""
        if fresh or self.slab is None:
            self.new_slab()
        cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(self.slab) + self.slab_used
        cdef size_t free_room = <size_t>(KW_SLAB_SIZE - self.slab_used)
        if codec == 3:
            return lz4_decompress_into(self.buf + start, <size_t>length, b.magic,
                                       <uint64_t>cap, dst, free_room)
        if codec == 4:
            return zstd_decompress_into(self.buf + start, <size_t>length, <uint64_t>cap,
                                        dst, free_room)
        return snappy_decompress_into(self.buf + start, <size_t>length, <uint64_t>cap,
                                      dst, free_room)

    cdef int read_legacy(self, BatchInfo *b, const uint8_t *p) except -1:
        cdef int64_t pos = b.byte_offset
        cdef int32_t size = <int32_t>(b.size - LEGACY_OVERHEAD)
        cdef uint32_t actual
        cdef int codec
        cdef int32_t key_len, value_len
        cdef int64_t q
        cdef int64_t count
        cdef const uint8_t *inner
        if b.magic == 1 and size < MIN_V1_SIZE:
            raise CorruptError(f"message size {size} is below the v1 minimum of {MIN_V1_SIZE}",
                               offset=pos + 8, batch_offset=b.base_offset, field="message_size")
        b.crc = be32(p + 12)
        b.attributes = p[17]
        b.partition_leader_epoch = -1
        b.producer_id = -1
        b.producer_epoch = -1
        b.base_sequence = -1
        b.base_timestamp = be64(p + 18) if b.magic == 1 else NO_TIMESTAMP
        b.max_timestamp = b.base_timestamp
        if self.verify_crc:
            actual = crc32_ieee(p + 16, <size_t>(size - 4))
            if actual != b.crc:
                raise CrcError(f"CRC-32 mismatch: stored {b.crc:#010x}, computed {actual:#010x}",
                               offset=pos + 12, batch_offset=b.base_offset, field="crc")
        codec = codec_of(b)
        if codec > 3:
            raise UnsupportedError(f"compression codec {codec} is not valid for magic {b.magic}",
                                   offset=pos + 17, batch_offset=b.base_offset, field="attributes")
        if codec == 0:
            b.segment = 0
            b.data_start = pos
            b.data_len = b.size
            b.record_count = 1
            b.last_offset_delta = 0
            return 0
        # a wrapper: its value is the compressed inner message set
        q = pos + 18 + (8 if b.magic == 1 else 0)
        key_len = <int32_t>be32(self.buf + q)
        q += 4 + (key_len if key_len > 0 else 0)
        if key_len < -1 or q + 4 > pos + b.size:
            raise CorruptError("invalid wrapper key length", offset=pos, batch_offset=b.base_offset,
                               field="message.key")
        value_len = <int32_t>be32(self.buf + q)
        q += 4
        if value_len < 0 or q + value_len != pos + b.size:
            raise CorruptError("invalid wrapper value length", offset=q - 4,
                               batch_offset=b.base_offset, field="message.value")
        b.segment = self.decompress(b, codec, q, value_len)
        inner = self.segment_ptr(b.segment) + b.data_start
        count = kw_count_legacy(inner, <size_t>b.data_len)
        if count < 0:
            raise CorruptError("malformed inner message set in a compressed wrapper",
                               offset=pos, batch_offset=b.base_offset, field="records")
        if count == 0:
            raise CorruptError("compressed wrapper holds no messages", offset=pos,
                               batch_offset=b.base_offset, field="records")
        b.record_count = <int32_t>count
        # the wrapper offset is the last inner offset; find the first one
        if b.magic == 1:
            b.last_offset_delta = <int32_t>wrap_add(last_inner_offset(inner, b.data_len),
                                                    -<uint64_t>be64(inner))
        else:
            b.last_offset_delta = <int32_t>wrap_add(b.base_offset, -<uint64_t>be64(inner))
        b.base_offset = wrap_add(b.base_offset, -<int64_t>b.last_offset_delta)
        return 0

    cdef object control_type(self, const BatchInfo *b):
        """The control record type (0 abort, 1 commit) of a control batch, else None."""
        if not (b.attributes & ATTR_CONTROL) or b.record_count < 1 or b.magic != 2:
            return None
        first = decode_batch_records(self, self.segment_ptr(b.segment) + b.data_start, b)[0]
        return parse_control_record(first.key, first.value).type


cdef inline uint32_t crc32_ieee(const uint8_t *p, size_t n) noexcept:
    """CRC-32 (legacy messages), without the GIL over large messages."""
    cdef uint32_t crc
    if n > NOGIL_BYTES:
        with nogil:
            crc = kw_crc32_ieee(0, p, n)
        return crc
    return kw_crc32_ieee(0, p, n)


cdef int check_v2_crc(BatchInfo *b, const uint8_t *p) except -1:
    """Verify the CRC-32C of the v2 batch b, whose bytes start at p."""
    cdef uint32_t actual
    if b.size > NOGIL_BYTES:
        with nogil:
            actual = kw_crc32c(0, p + V2_CRC_START, <size_t>(b.size - V2_CRC_START))
    else:
        actual = kw_crc32c(0, p + V2_CRC_START, <size_t>(b.size - V2_CRC_START))
    if actual != b.crc:
        raise CrcError(f"CRC-32C mismatch: stored {b.crc:#010x}, computed {actual:#010x}",
                       offset=b.byte_offset + 17, batch_offset=b.base_offset, field="crc")
    b.crc_pending = False
    return 0


cdef enum:
    # CRCs are computed this many bytes of batches ahead of the scan: one
    # stream over contiguous memory keeps the hardware prefetcher going (16 KiB
    # at a time, each batch's CRC waited on memory), and the scan then finds
    # the bytes in L2.
    CRC_GROUP_BYTES = 256 * 1024


cdef Py_ssize_t check_crc_group(const uint8_t *buf, BatchInfo *batches, Py_ssize_t first,
                                Py_ssize_t nb) noexcept nogil:
    """Check the pending CRCs of batches first.. (up to CRC_GROUP_BYTES of
    them, at least one), marking mismatches; returns the first batch after."""
    cdef Py_ssize_t k = first
    cdef int64_t done = 0
    cdef BatchInfo *b
    while k < nb and (k == first or done < CRC_GROUP_BYTES):
        b = &batches[k]
        if b.crc_pending:
            b.crc_mismatch = kw_crc32c(0, buf + b.byte_offset + V2_CRC_START,
                                       <size_t>(b.size - V2_CRC_START)) != b.crc
            done += b.size
        k += 1
    return k


cdef int64_t last_inner_offset(const uint8_t *data, size_t length) noexcept:
    cdef size_t pos = 0
    cdef int64_t last = 0
    while pos + 12 <= length:
        last = be64(data + pos)
        pos += 12 + be32(data + pos + 8)
    return last


cdef int scan_batch(_Walker w, const uint8_t *data, const BatchInfo *b,
                    kw_columns *cols) except -1:
    """Append batch b's records, whose bytes start at data, to cols (whose
    headers it may allocate)."""
    cdef size_t err_pos = 0
    cdef const char *err_field = b""
    cdef int rc
    cdef kw_v2_batch v2
    cdef kw_legacy_set legacy
    if b.magic == 2:
        v2.base_offset = b.base_offset
        v2.base_timestamp = b.base_timestamp
        v2.log_append_time = b.max_timestamp if (b.attributes & ATTR_TIMESTAMP_TYPE) else -1
        v2.record_count = b.record_count
        if b.data_len > NOGIL_BYTES:
            with nogil:
                rc = kw_scan_v2(cols, data, <size_t>b.data_len, &v2, &err_pos, &err_field)
        else:
            rc = kw_scan_v2(cols, data, <size_t>b.data_len, &v2, &err_pos, &err_field)
    else:
        legacy.magic = b.magic
        legacy.is_inner = b.segment != 0
        legacy.wrapper_offset = last_offset_of(b)
        legacy.wrapper_timestamp = (b.max_timestamp if b.magic == 1
                                    and (b.attributes & ATTR_TIMESTAMP_TYPE) and legacy.is_inner
                                    else -1)
        legacy.verify_crc = w.verify_crc and legacy.is_inner
        if b.data_len > NOGIL_BYTES:
            with nogil:
                rc = kw_scan_legacy(cols, data, <size_t>b.data_len, &legacy, &err_pos, &err_field)
        else:
            rc = kw_scan_legacy(cols, data, <size_t>b.data_len, &legacy, &err_pos, &err_field)
    if rc != KW_SCAN_OK:
        raise _scan_error(rc, err_field,
                          <int64_t>err_pos + (b.data_start if b.segment == 0 else 0), b,
                          b.segment != 0)
    return 0


# ---- read_batches: one object per batch and per record ---------------------

# A consumer loop drops each record's key and value one or two iterations after
# it got them; allocating their twins for the next record and freeing the old
# ones is a third of the time read_batches spends per record.  A dropped
# record's bytes objects go into a small ring instead; one that only the ring
# still refers to (refcount 1: no one else can see it) is rewritten in place
# for a record of the same length, as CPython's own _PyBytes_Resize does with
# a bytes object it alone owns.  A dropped record's headers list goes to a
# ring of its own, to be refilled for a record with as many headers.  Not on
# free-threaded builds, where the refcount does not say who else holds the
# object.
cdef extern from "recycle.h":
    object kw_bytes_from(const char *data, Py_ssize_t n)
    list kw_list_of(Py_ssize_t n)
    void kw_recycle_record_fields(object type, Py_ssize_t key_at, Py_ssize_t value_at,
                                  Py_ssize_t headers_at)


# Not tracked by the cycle collector: a record refers only to bytes, str and
# its headers list, and 200,000 tracked objects per fetch would trigger
# collections over and over.  (A cycle made by putting a record into its own
# headers list would leak, not crash.)
@cython.freelist(256)
@cython.final
@cython.no_gc
cdef class Record:
    """One record: offset, timestamp (ms; -1 when absent), key and value (bytes
    or None), headers (list of (str, bytes | None) in wire order)."""
    cdef readonly int64_t offset
    cdef readonly int64_t timestamp
    cdef readonly object key
    cdef readonly object value
    cdef list _headers     # None for a record without headers: made on access

    @property
    def headers(self):
        if self._headers is None:
            self._headers = []
        return self._headers

    def __repr__(self):
        return (f"Record(offset={self.offset}, timestamp={self.timestamp}, key={self.key!r}, "
                f"value={self.value!r}, headers={self.headers!r})")

    def __eq__(self, other):
        if not isinstance(other, Record):
            return NotImplemented
        o = <Record>other
        return (self.offset == o.offset and self.timestamp == o.timestamp and self.key == o.key
                and self.value == o.value and self.headers == o.headers)

    def __hash__(self):
        return hash((self.offset, self.timestamp, self.key, self.value))


cdef extern from "record_object.h":
    const Py_ssize_t KW_RECORD_OFFSET_AT
    const Py_ssize_t KW_RECORD_TIMESTAMP_AT
    const Py_ssize_t KW_RECORD_KEY_AT
    const Py_ssize_t KW_RECORD_VALUE_AT
    const Py_ssize_t KW_RECORD_HEADERS_AT
    bint kw_record_layout_ok(object r, int64_t offset, int64_t timestamp, object key,
                             object value, object headers)
    ctypedef struct PyMemberDef:
        const char *name
        int type
        Py_ssize_t offset
        int flags
        const char *doc
    enum:
        T_OBJECT_EX
        T_LONGLONG
        READONLY
    PyObject *KW_TYPE_DICT(object type)
    object KW_NEW_MEMBER(object type, PyMemberDef *member)
    void KW_TYPE_MODIFIED(object type)


# Record's fields as member descriptors rather than the properties Cython
# makes: CPython specializes loads of object member slots (LOAD_ATTR_SLOT),
# which makes a consumer loop reading key and value about a third faster.
# key and value are never NULL (None at worst), as T_OBJECT_EX requires.
cdef PyMemberDef _record_members[4]


cdef _use_member_slots():
    fields = [(b"offset", T_LONGLONG, KW_RECORD_OFFSET_AT, b"offset of the record"),
              (b"timestamp", T_LONGLONG, KW_RECORD_TIMESTAMP_AT,
               b"timestamp in ms (-1 when absent)"),
              (b"key", T_OBJECT_EX, KW_RECORD_KEY_AT, b"key: bytes or None"),
              (b"value", T_OBJECT_EX, KW_RECORD_VALUE_AT, b"value: bytes or None")]
    cdef int i
    for i in range(4):
        name, kind, where, doc = fields[i]
        # the names and docs are literals, which live as long as the module
        _record_members[i].name = <const char *>(<bytes>name)
        _record_members[i].type = kind
        _record_members[i].offset = where
        _record_members[i].flags = READONLY
        _record_members[i].doc = <const char *>(<bytes>doc)
        PyDict_SetItem(<object>KW_TYPE_DICT(Record), name.decode(),
                       KW_NEW_MEMBER(Record, &_record_members[i]))
    KW_TYPE_MODIFIED(Record)


cdef _check_record_layout():
    """record_object.h mirrors Record's layout: check it on a live record before C uses it."""
    cdef Record r = Record.__new__(Record)
    key, value, headers = b"k", b"v", []
    r.offset, r.timestamp, r.key, r.value, r._headers = 0x0102030405060708, -7, key, value, headers
    if not kw_record_layout_ok(r, 0x0102030405060708, -7, key, value, headers):
        raise ImportError("Record's layout is not the one src_c/record_object.h mirrors")


_check_record_layout()
_use_member_slots()
kw_recycle_record_fields(Record, KW_RECORD_KEY_AT, KW_RECORD_VALUE_AT,
                         KW_RECORD_HEADERS_AT)


cdef inline object slice_bytes(const uint8_t *base, uint32_t pos, int32_t length):
    if length < 0:
        return None
    return kw_bytes_from(<const char *>base + pos, length)


cdef str header_key(const uint8_t *base, uint32_t pos, int32_t length, const BatchInfo *b):
    try:
        return PyUnicode_DecodeUTF8(<const char *>base + pos, length, NULL)
    except UnicodeDecodeError as exc:
        raise CorruptError(f"header key is not valid UTF-8: {exc.reason}", offset=b.byte_offset,
                           batch_offset=b.base_offset, field="record.header.key") from None


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)
    bint PyUnicode_IS_COMPACT_ASCII(object op)


cdef enum:
    SMALL_HEADERS = 8   # header sections up to this size are parsed on the stack


# The (key, value) pairs last made at each header position, reused for the
# next record when its bytes are the same (a content type, a schema id): the
# pairs are immutable, so sharing them is safe, and it saves three objects.
cdef struct HeaderCache:
    PyObject *pairs[SMALL_HEADERS]   # owned tuples, or NULL


cdef void header_cache_clear(HeaderCache *cache) noexcept:
    cdef int h
    for h in range(SMALL_HEADERS):
        Py_XDECREF(cache.pairs[h])
        cache.pairs[h] = NULL


cdef extern from "memory.h":
    bint kw_same_bytes(const void *a, const void *b, size_t n) noexcept


cdef inline bint same_key(PyObject *key, const uint8_t *p, int32_t length) noexcept:
    return (PyUnicode_IS_COMPACT_ASCII(<object>key)
            and PyUnicode_GET_LENGTH(<object>key) == length
            and kw_same_bytes(PyUnicode_DATA(<object>key), p, <size_t>length))


cdef inline bint same_value(PyObject *value, const uint8_t *p, int32_t length) noexcept:
    if length < 0:
        return value == <PyObject *>None
    return (value != <PyObject *>None and PyBytes_GET_SIZE(<object>value) == length
            and kw_same_bytes(PyBytes_AS_STRING(<object>value), p, <size_t>length))


cdef object header_pair(const uint8_t *base, uint32_t kp, int32_t kl, uint32_t vp, int32_t vl,
                        const BatchInfo *b, HeaderCache *cache, int32_t h):
    cdef PyObject *old = cache.pairs[h] if cache != NULL and h < SMALL_HEADERS else NULL
    cdef PyObject *old_key
    if old != NULL:
        old_key = PyTuple_GET_ITEM(<object>old, 0)
        if same_key(old_key, base + kp, kl):
            if same_value(PyTuple_GET_ITEM(<object>old, 1), base + vp, vl):
                return <object>old
            key = <object>old_key
        else:
            key = header_key(base, kp, kl, b)
    else:
        key = header_key(base, kp, kl, b)
    pair = (key, slice_bytes(base, vp, vl))
    # str and bytes only: no cycle can run through it (CPython's collector
    # would find that out itself, later)
    PyObject_GC_UnTrack(<void *>pair)
    if cache != NULL and h < SMALL_HEADERS:
        Py_XDECREF(old)
        Py_INCREF(pair)
        cache.pairs[h] = <PyObject *>pair
    return pair


cdef list headers_at(const uint8_t *base, const BatchInfo *b, uint32_t pos,
                     HeaderCache *cache=NULL):
    """The headers of the record whose header count sits at base + pos."""
    cdef uint32_t small_kp[SMALL_HEADERS]
    cdef int32_t small_kl[SMALL_HEADERS]
    cdef uint32_t small_vp[SMALL_HEADERS]
    cdef int32_t small_vl[SMALL_HEADERS]
    cdef uint32_t *kp = small_kp
    cdef int32_t *kl = small_kl
    cdef uint32_t *vp = small_vp
    cdef int32_t *vl = small_vl
    cdef char *mem = NULL
    cdef int32_t h
    cdef list out
    cdef PyObject *old
    cdef int32_t n = kw_read_headers(base, <size_t>b.data_len, pos, kp, kl, vp, vl,
                                     SMALL_HEADERS)
    if n <= 0:
        if n < 0:
            raise CorruptError("invalid header section", offset=b.byte_offset,
                               batch_offset=b.base_offset, field="record.headers")
        return []
    try:
        if n > SMALL_HEADERS:
            mem = <char *>malloc(<size_t>n * 16)
            if mem == NULL:
                raise MemoryError()
            kp = <uint32_t *>mem
            kl = <int32_t *>(kp + n)
            vp = <uint32_t *>(kl + n)
            vl = <int32_t *>(vp + n)
            # a second parse that finds fewer headers (the input was changed in
            # between: copy=False) must not leave entries unwritten
            if kw_read_headers(base, <size_t>b.data_len, pos, kp, kl, vp, vl, n) != n:
                raise CorruptError("invalid header section", offset=b.byte_offset,
                                   batch_offset=b.base_offset, field="record.headers")
        out = kw_list_of(n)
        for h in range(n):
            pair = header_pair(base, kp[h], kl[h], vp[h], vl[h], b, cache, h)
            old = PyList_GET_ITEM(out, h)
            Py_INCREF(pair)
            PyList_SET_ITEM(out, h, pair)
            Py_XDECREF(old)
    finally:
        free(mem)
    return out


class ControlRecord(tuple):
    """The content of a control record: type 0 = ABORT, 1 = COMMIT."""
    __slots__ = ()

    def __new__(cls, int version, int type, int coordinator_epoch):
        return tuple.__new__(cls, (version, type, coordinator_epoch))

    version = property(lambda self: self[0])
    type = property(lambda self: self[1])
    coordinator_epoch = property(lambda self: self[2])

    @property
    def is_commit(self):
        return self[1] == 1

    @property
    def is_abort(self):
        return self[1] == 0

    def __repr__(self):
        kind = {0: "ABORT", 1: "COMMIT"}.get(self[1], str(self[1]))
        return f"ControlRecord({kind}, version={self[0]}, coordinator_epoch={self[2]})"


def parse_control_record(key, value):
    """Parse a control record's key and value (see ControlRecord)."""
    if key is None or len(key) < 4:
        raise CorruptError("control record key shorter than 4 bytes", field="control.key")
    k = bytes(key[:4])
    version = int.from_bytes(k[:2], "big", signed=True)
    ctype = int.from_bytes(k[2:4], "big", signed=True)
    epoch = -1
    if value is not None and len(value) >= 6:
        epoch = int.from_bytes(bytes(value[2:6]), "big", signed=True)
    elif ctype in (0, 1):
        raise CorruptError("end transaction marker shorter than 6 bytes", field="control.value")
    return ControlRecord(version, ctype, epoch)


cdef char *scan_for_records(_Walker walker, const uint8_t *base, const BatchInfo *info,
                            kw_columns *cols) except NULL:
    """Scan one batch into cols, whose arrays share the returned block (free()
    it when done)."""
    cdef size_t n = <size_t>info.record_count
    cdef size_t per_record = 2 * sizeof(int64_t) + 5 * sizeof(int32_t)
    cdef char *mem = <char *>malloc(n * per_record + 1)
    if mem == NULL:
        raise MemoryError()
    memset(cols, 0, sizeof(kw_columns))
    cols.offsets = <int64_t *>mem
    cols.timestamps = cols.offsets + n
    cols.key_pos = <uint32_t *>(cols.timestamps + n)
    cols.key_len = <int32_t *>(cols.key_pos + n)
    cols.value_pos = <uint32_t *>(cols.key_len + n)
    cols.value_len = <int32_t *>(cols.value_pos + n)
    cols.header_pos = <uint32_t *>(cols.value_len + n)
    cols.cap = n
    try:
        scan_batch(walker, base, info, cols)
    except BaseException:
        free(mem)
        raise
    return mem


cdef inline Record make_record(const uint8_t *base, const kw_columns *cols, size_t i,
                               const BatchInfo *info, HeaderCache *cache):
    cdef Record r = Record.__new__(Record)
    r.offset = cols.offsets[i]
    r.timestamp = cols.timestamps[i]
    r.key = slice_bytes(base, cols.key_pos[i], cols.key_len[i])
    r.value = slice_bytes(base, cols.value_pos[i], cols.value_len[i])
    if cols.header_pos[i] != 0:
        r._headers = headers_at(base, info, cols.header_pos[i], cache)
    return r


cdef list decode_batch_records(_Walker walker, const uint8_t *base, const BatchInfo *info):
    """Decode one batch's records, whose bytes start at base, into Record objects."""
    cdef kw_columns cols
    cdef size_t i
    cdef Record r
    cdef list out
    cdef HeaderCache cache
    cdef char *mem = scan_for_records(walker, base, info, &cols)
    memset(&cache, 0, sizeof(cache))
    try:
        out = PyList_New(<Py_ssize_t>cols.n)
        for i in range(cols.n):
            r = make_record(base, &cols, i, info, &cache)
            Py_INCREF(r)
            PyList_SET_ITEM(out, <Py_ssize_t>i, r)
    finally:
        header_cache_clear(&cache)
        free(mem)
    return out


cdef extern from "memory.h":
    void kw_prefetch_span(const uint8_t *p, size_t n) nogil


# How far past a batch its record iterator prefetches: the next entry, up to
# this much (larger batches stream in on the hardware prefetcher).
cdef int64_t AHEAD_BYTES = 24 * 1024


@cython.final
cdef class _RecordIterator:
    """Records of one batch made one at a time, as the loop asks for them: a
    record the loop has dropped goes back to the freelist (and its bytes to
    the allocator) just before the next one is made, so the same memory is
    used over and over and stays in cache."""
    cdef _Walker walker      # keeps the input and decompressed payloads alive
    cdef object payload      # the batch's decompressed payload (read_batches)
    cdef BatchInfo info
    cdef kw_columns cols
    cdef char *mem
    cdef const uint8_t *base
    cdef size_t i
    cdef HeaderCache cache
    # The next entry of the input, which its CRC check will read first: each
    # record asks the caches for `step` more of its bytes, so that they come
    # from memory while the caller's loop runs, not all at once during that
    # check.
    cdef const uint8_t *ahead
    cdef const uint8_t *ahead_end
    cdef size_t step

    def __dealloc__(self):
        header_cache_clear(&self.cache)
        free(self.mem)

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= self.cols.n:
            raise StopIteration
        self.i += 1
        if self.ahead < self.ahead_end:
            kw_prefetch_span(self.ahead, self.step)
            self.ahead += self.step
        return make_record(self.base, &self.cols, self.i - 1, &self.info, &self.cache)


cdef class RecordBatch:
    """One record batch (magic 2) or one top-level legacy message (magic 0/1,
    a compressed wrapper standing for its inner messages)."""
    cdef BatchInfo info
    cdef _Walker walker
    cdef object payload      # its decompressed payload, if any (the walker keeps none)
    cdef list _records

    cdef const uint8_t *data(self):
        if self.payload is not None:
            return <const uint8_t *>PyBytes_AS_STRING(self.payload) + self.info.data_start
        return self.walker.segment_ptr(self.info.segment) + self.info.data_start

    @property
    def base_offset(self): return self.info.base_offset
    @property
    def last_offset(self): return last_offset_of(&self.info)
    @property
    def next_offset(self): return wrap_add(last_offset_of(&self.info), 1)
    @property
    def partition_leader_epoch(self): return self.info.partition_leader_epoch
    @property
    def magic(self): return self.info.magic
    @property
    def crc(self): return self.info.crc
    @property
    def attributes(self): return self.info.attributes
    @property
    def compression(self): return _compression.Codec(codec_of(&self.info))
    @property
    def timestamp_type(self):
        """0 CreateTime, 1 LogAppendTime, -1 none (magic 0)."""
        if self.info.magic == 0:
            return NO_TIMESTAMP
        return LOG_APPEND_TIME if self.info.attributes & ATTR_TIMESTAMP_TYPE else CREATE_TIME
    @property
    def is_transactional(self): return bool(self.info.attributes & ATTR_TRANSACTIONAL)
    @property
    def is_control(self): return bool(self.info.attributes & ATTR_CONTROL)
    @property
    def has_delete_horizon(self): return bool(self.info.attributes & ATTR_DELETE_HORIZON)
    @property
    def delete_horizon_ms(self):
        return self.info.base_timestamp if self.info.attributes & ATTR_DELETE_HORIZON else -1
    @property
    def producer_id(self): return self.info.producer_id
    @property
    def producer_epoch(self): return self.info.producer_epoch
    @property
    def base_sequence(self): return self.info.base_sequence
    @property
    def base_timestamp(self): return self.info.base_timestamp
    @property
    def max_timestamp(self): return self.info.max_timestamp
    @property
    def record_count(self): return self.info.record_count
    @property
    def byte_offset(self):
        """Where the batch starts in the buffer given to read_batches."""
        return self.info.byte_offset
    @property
    def size_in_bytes(self): return self.info.size

    def raw(self):
        """The batch's bytes as they are in the input (a memoryview)."""
        return self.walker.bytes_view()[
            self.info.byte_offset:self.info.byte_offset + self.info.size]

    def __len__(self):
        return self.info.record_count

    def __iter__(self):
        if self._records is not None:
            return iter(self._records)
        cdef _RecordIterator it = _RecordIterator.__new__(_RecordIterator)
        it.walker = self.walker
        it.payload = self.payload
        it.info = self.info
        it.base = self.data()
        it.mem = scan_for_records(self.walker, it.base, &self.info, &it.cols)
        cdef int64_t after = self.info.byte_offset + self.info.size
        cdef int64_t ahead = min(self.walker.length - after, AHEAD_BYTES)
        cdef int64_t lines
        if ahead >= LEGACY_OVERHEAD and it.cols.n > 0:
            # no further than the next entry's own length says
            ahead = min(ahead,
                        LEGACY_OVERHEAD + <int64_t><uint32_t>be32(self.walker.buf + after + 8))
            lines = (ahead + 63) // 64
            it.step = <size_t>(64 * ((lines + <int64_t>it.cols.n - 1) // <int64_t>it.cols.n))
            it.ahead = self.walker.buf + after
            it.ahead_end = it.ahead + ahead
        return it

    @property
    def control_record(self):
        """The ControlRecord of a control batch, else None."""
        if not self.is_control or self.info.record_count == 0:
            return None
        first = self.records()[0]
        return parse_control_record(first.key, first.value)

    def records(self):
        """The batch's records as a list of Record objects."""
        if self._records is None:
            self._records = decode_batch_records(self.walker, self.data(), &self.info)
        return self._records

    def __repr__(self):
        return (f"RecordBatch(base_offset={self.base_offset}, last_offset={self.last_offset}, "
                f"magic={self.magic}, records={self.record_count}, "
                f"compression={self.compression.name}, transactional={self.is_transactional}, "
                f"control={self.is_control})")


cdef class BatchReader:
    """Iterator over the batches of a buffer (see read_batches).  After it is
    exhausted, leftover_bytes says how many trailing bytes form no complete
    batch (a partial batch is normal at the end of a fetch response)."""
    cdef _Walker walker
    cdef bint done

    def __cinit__(self, buf, bint verify_crc, int64_t max_decompressed, int64_t max_total,
                  aborted, copy):
        self.walker = _Walker(buf, verify_crc, max_decompressed, max_total, aborted, copy)
        self.walker.keep_segments = False

    def __iter__(self):
        return self

    def __next__(self):
        cdef RecordBatch batch = RecordBatch.__new__(RecordBatch)
        if self.done or not self.walker.next(&batch.info):
            self.done = True
            raise StopIteration
        batch.walker = self.walker
        if batch.info.segment != 0:
            batch.payload = self.walker.payload
        self.walker.payload = None
        return batch

    @property
    def position(self):
        """Bytes consumed so far."""
        return self.walker.pos

    @property
    def leftover_bytes(self):
        """Bytes after the last complete batch read so far."""
        return self.walker.leftover()


def read_batches(buf, *, bint verify_crc=True,
                 int64_t max_decompressed_size=DEFAULT_MAX_DECOMPRESSED_SIZE,
                 int64_t max_total_decompressed_size=DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE,
                 aborted_transactions=None, copy=None):
    """Iterate the record batches of `buf` (bytes, bytearray, memoryview, mmap).

    Batches of every magic (0, 1, 2) are read; a partial trailing batch ends
    the iteration quietly (see BatchReader.leftover_bytes).  With
    `aborted_transactions` (a fetch partition's list of (producer_id,
    first_offset)), transactional batches of aborted transactions and control
    batches are left out, as a read_committed consumer does.

    Limits: one payload decompresses to at most `max_decompressed_size` bytes
    (256 MiB), all the payloads of the iterator together to at most
    `max_total_decompressed_size` (1 GiB); past either, LimitExceededError.

    `copy` (the buffer policy, see decode_records): None copies a writable
    input first, True always, False never.
    """
    return BatchReader(buf, verify_crc, max_decompressed_size, max_total_decompressed_size,
                       aborted_transactions, copy)


# ---- RecordView: columnar ------------------------------------------------

cdef class RecordView:
    """Columnar view of the records in a buffer (see decode_records).

    offsets and timestamps are numpy int64 arrays; keys, values and headers
    point into the input (or into decompressed payloads) without copying.  The
    view holds the input's buffer for as long as it lives.
    """
    cdef _Walker walker
    cdef BatchInfo *binfo
    cdef Py_ssize_t n_batches
    cdef Py_ssize_t n
    cdef readonly object offsets
    cdef readonly object timestamps
    cdef object key_pos, key_len, value_pos, value_len
    cdef object header_pos       # uint32 per record (see kw_columns), None without headers
    cdef readonly Py_ssize_t num_headers
    cdef readonly int64_t leftover_bytes
    cdef readonly int64_t next_offset
    cdef list _segment_views
    cdef object _batch_table

    def __dealloc__(self):
        free(self.binfo)
        self._segment_views = None  # before the walker goes: its slabs can then be pooled

    def __len__(self):
        return self.n

    @property
    def num_batches(self):
        return self.n_batches

    @property
    def keys(self):
        """The keys as a BinaryColumn (col[i] -> memoryview or None)."""
        return BinaryColumn(self, self.key_pos, self.key_len)

    @property
    def values(self):
        """The values as a BinaryColumn (col[i] -> memoryview or None)."""
        return BinaryColumn(self, self.value_pos, self.value_len)

    @property
    def header_offsets(self):
        """int32 array of n + 1 entries: record i has header_offsets[i + 1] -
        header_offsets[i] headers (the list offsets of the Arrow column)."""
        return self._header_index()[0]

    cdef Py_ssize_t batch_of(self, Py_ssize_t i) except -1:
        cdef Py_ssize_t lo = 0, hi = self.n_batches - 1, mid
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if self.binfo[mid].first_record <= i:
                lo = mid
            else:
                hi = mid - 1
        return lo

    cdef Py_ssize_t check_index(self, Py_ssize_t i) except -1:
        if i < 0:
            i += self.n
        if i < 0 or i >= self.n:
            raise IndexError("record index out of range")
        return i

    cdef object segment_view(self, int32_t segment):
        if self._segment_views is None:
            self._segment_views = [self.walker.bytes_view()] + [
                memoryview(s) for s in self.walker.segments]
        return self._segment_views[segment]

    cdef object slice(self, Py_ssize_t i, uint32_t pos, int32_t length):
        if length < 0:
            return None
        cdef BatchInfo *b = &self.binfo[self.batch_of(i)]
        cdef int64_t start = b.data_start + pos
        return self.segment_view(b.segment)[start:start + length]

    cdef object field(self, Py_ssize_t i, object pos_arr, object len_arr):
        i = self.check_index(i)
        cdef cnp.ndarray[uint32_t, ndim=1] pos = pos_arr
        cdef cnp.ndarray[int32_t, ndim=1] lens = len_arr
        return self.slice(i, pos[i], lens[i])

    def key(self, Py_ssize_t i):
        """Record i's key: a memoryview into the input, or None."""
        return self.field(i, self.key_pos, self.key_len)

    def value(self, Py_ssize_t i):
        """Record i's value: a memoryview into the input, or None."""
        return self.field(i, self.value_pos, self.value_len)

    def headers(self, Py_ssize_t i):
        """Record i's headers: list of (str, bytes | None) in wire order."""
        i = self.check_index(i)
        if self.header_pos is None:
            return []
        cdef cnp.ndarray[uint32_t, ndim=1] hp = self.header_pos
        if hp[i] == 0:
            return []
        cdef BatchInfo *b = &self.binfo[self.batch_of(i)]
        return headers_at(self.walker.segment_ptr(b.segment) + b.data_start, b, hp[i])

    def __getitem__(self, Py_ssize_t i):
        """Record i as a Record object (bytes copies of key and value)."""
        i = self.check_index(i)
        cdef Record r = Record.__new__(Record)
        cdef cnp.ndarray[int64_t, ndim=1] offs = self.offsets, ts = self.timestamps
        r.offset = offs[i]
        r.timestamp = ts[i]
        k = self.key(i)
        v = self.value(i)
        r.key = None if k is None else bytes(k)
        r.value = None if v is None else bytes(v)
        headers = self.headers(i)
        if headers:
            r._headers = headers
        return r

    def __iter__(self):
        for i in range(self.n):
            yield self[i]

    def control_record(self, Py_ssize_t i):
        """The ControlRecord if record i belongs to a control batch, else None."""
        i = self.check_index(i)
        if not (self.binfo[self.batch_of(i)].attributes & ATTR_CONTROL):
            return None
        return parse_control_record(self.key(i), self.value(i))

    @property
    def batch_index(self):
        """int32 array: for each record, the index of its batch in `batches`."""
        starts = self.batches_table()["first_record"]
        counts = np.diff(np.append(starts, self.n))
        return np.repeat(np.arange(self.n_batches, dtype=np.int32), counts)

    @property
    def batches(self):
        """Batch-level columns (dict of numpy arrays, one entry per batch)."""
        return self.batches_table()

    cdef dict batches_table(self):
        if self._batch_table is not None:
            return self._batch_table
        cdef Py_ssize_t k
        names = ("byte_offset", "base_offset", "last_offset", "partition_leader_epoch", "magic",
                 "crc", "attributes", "base_timestamp", "max_timestamp", "producer_id",
                 "producer_epoch", "base_sequence", "record_count", "first_record")
        dtypes = (np.int64, np.int64, np.int64, np.int32, np.int8, np.uint32, np.int16, np.int64,
                  np.int64, np.int64, np.int16, np.int32, np.int32, np.int64)
        table = {name: np.empty(self.n_batches, dtype=dt) for name, dt in zip(names, dtypes)}
        for k in range(self.n_batches):
            b = &self.binfo[k]
            row = (b.byte_offset, b.base_offset, last_offset_of(b), b.partition_leader_epoch,
                   b.magic, b.crc, b.attributes, b.base_timestamp, b.max_timestamp, b.producer_id,
                   b.producer_epoch, b.base_sequence, b.record_count, b.first_record)
            for name, value in zip(names, row):
                table[name][k] = value
        attrs = table["attributes"]
        table["compression"] = (attrs & ATTR_CODEC_MASK).astype(np.int8)
        table["timestamp_type"] = np.where(table["magic"] == 0, NO_TIMESTAMP,
                                           (attrs & ATTR_TIMESTAMP_TYPE) >> 3).astype(np.int8)
        table["is_transactional"] = (attrs & ATTR_TRANSACTIONAL) != 0
        table["is_control"] = (attrs & ATTR_CONTROL) != 0
        self._batch_table = table
        return table

    @property
    def timestamp_types(self):
        """int8 array per record: 0 CreateTime, 1 LogAppendTime, -1 none."""
        return np.repeat(self.batches_table()["timestamp_type"],
                         self.batches_table()["record_count"])

    def to_arrow(self, *, binary="view"):
        """A pyarrow Table with Spark's Kafka columns: key, value, offset,
        timestamp, timestampType, headers.

        binary="view" (binary_view columns pointing into the input: no copy),
        "plain" (binary, copied) or "large" (large_binary, copied).
        """
        from kafkawire.records.arrow import record_view_to_arrow

        return record_view_to_arrow(self, binary)

    # -- access for kafkawire.records.arrow --
    def _segment_buffers(self):
        # a slice: the caller may release what it gets without releasing ours
        return [self.walker.bytes_view()[:]] + list(self.walker.segments)

    def _columns(self):
        return (self.key_pos, self.key_len, self.value_pos, self.value_len)

    def _header_index(self):
        """Index every header: (list_offsets int32[n + 1], key_pos, key_len,
        value_pos, value_len, batch_starts int64[n_batches + 1]), positions
        relative to their batch's record data."""
        cdef Py_ssize_t n = self.n, nh = self.num_headers, k, i, at = 0
        cdef int32_t got
        list_offsets = np.zeros(n + 1, dtype=np.int32)
        kp = np.empty(nh, dtype=np.uint32)
        kl = np.empty(nh, dtype=np.int32)
        vp = np.empty(nh, dtype=np.uint32)
        vl = np.empty(nh, dtype=np.int32)
        batch_starts = np.zeros(self.n_batches + 1, dtype=np.int64)
        if self.header_pos is None:
            return list_offsets, kp, kl, vp, vl, batch_starts
        cdef cnp.ndarray[uint32_t, ndim=1] hp = self.header_pos
        cdef cnp.ndarray[int32_t, ndim=1] lo = list_offsets
        cdef cnp.ndarray[int64_t, ndim=1] bs = batch_starts
        cdef uint32_t[::1] kpv = kp, vpv = vp
        cdef int32_t[::1] klv = kl, vlv = vl
        cdef const uint8_t *base
        cdef BatchInfo *b
        for k in range(self.n_batches):
            b = &self.binfo[k]
            bs[k] = at
            base = self.walker.segment_ptr(b.segment) + b.data_start
            end = self.binfo[k + 1].first_record if k + 1 < self.n_batches else n
            for i in range(b.first_record, end):
                if hp[i] != 0:
                    got = kw_read_headers(base, <size_t>b.data_len, hp[i], &kpv[at], &klv[at],
                                          &vpv[at], &vlv[at], <int32_t>(nh - at))
                    if got < 0 or at + got > nh:
                        raise CorruptError("invalid header section", offset=b.byte_offset,
                                           batch_offset=b.base_offset, field="record.headers")
                    at += got
                lo[i + 1] = <int32_t>at
        bs[self.n_batches] = at
        return list_offsets, kp, kl, vp, vl, batch_starts

    def _fill_views(self, object pos_arr, object len_arr, object out_arr):
        """Fill binary-view structs for one column (out: uint8 array of 16 * n)."""
        cdef cnp.ndarray[uint32_t, ndim=1] pos = pos_arr
        cdef cnp.ndarray[int32_t, ndim=1] lens = len_arr
        cdef cnp.ndarray[uint8_t, ndim=1] out = out_arr
        cdef Py_ssize_t k
        cdef BatchInfo *b
        cdef int64_t count
        for k in range(self.n_batches):
            b = &self.binfo[k]
            count = (self.binfo[k + 1].first_record if k + 1 < self.n_batches
                     else self.n) - b.first_record
            if count <= 0:
                continue
            kw_fill_binary_views(&out[16 * b.first_record], <size_t>count,
                                 &pos[b.first_record], &lens[b.first_record],
                                 self.walker.segment_ptr(b.segment) + b.data_start,
                                 b.segment, b.data_start)

    def _gather(self, object pos_arr, object len_arr, object starts_arr, bint large):
        """Copy one column into Arrow binary layout, returning (offsets, data).
        starts_arr[k] .. starts_arr[k + 1] are the entries of batch k."""
        cdef cnp.ndarray[uint32_t, ndim=1] pos = pos_arr
        cdef cnp.ndarray[int32_t, ndim=1] lens = len_arr
        cdef cnp.ndarray[int64_t, ndim=1] starts = starts_arr
        cdef Py_ssize_t m = lens.shape[0], i, k
        cdef cnp.ndarray[int64_t, ndim=1] offsets = np.empty(m + 1, dtype=np.int64)
        cdef int64_t total = 0
        cdef const uint8_t *base
        cdef uint8_t *out
        offsets[0] = 0
        for i in range(m):
            if lens[i] > 0:
                total += lens[i]
            offsets[i + 1] = total
        if not large and total > 0x7FFFFFFF:
            raise OverflowError("column too large for 32-bit Arrow offsets; use binary='large'")
        data = np.empty(total, dtype=np.uint8)
        out = <uint8_t *>cnp.PyArray_DATA(data)
        for k in range(self.n_batches):
            base = self.walker.segment_ptr(self.binfo[k].segment) + self.binfo[k].data_start
            for i in range(starts[k], starts[k + 1]):
                if lens[i] > 0:
                    memcpy(out + offsets[i], base + pos[i], <size_t>lens[i])
        return (offsets if large else offsets.astype(np.int32)), data

    def _record_starts(self):
        """int64 array of n_batches + 1: batch k holds records [starts[k], starts[k+1])."""
        starts = np.empty(self.n_batches + 1, dtype=np.int64)
        for k in range(self.n_batches):
            starts[k] = self.binfo[k].first_record
        starts[self.n_batches] = self.n
        return starts


cdef class BinaryColumn:
    """Keys or values of a RecordView: col[i] is a memoryview into the input
    (or None for null); `lengths` is an int32 array with -1 for null."""
    cdef RecordView view
    cdef object pos
    cdef readonly object lengths

    def __cinit__(self, RecordView view, pos, lengths):
        self.view = view
        self.pos = pos
        self.lengths = lengths

    def __len__(self):
        return self.view.n

    def __getitem__(self, Py_ssize_t i):
        return self.view.field(i, self.pos, self.lengths)

    def __iter__(self):
        for i in range(self.view.n):
            yield self.view.field(i, self.pos, self.lengths)

    @property
    def is_null(self):
        return self.lengths < 0

    @property
    def null_count(self):
        return int(np.count_nonzero(self.lengths < 0))

    def to_pylist(self):
        """The column as a list of bytes / None (copies)."""
        return [None if v is None else bytes(v) for v in self]


# ---- column memory ------------------------------------------------------

cdef extern from "Python.h":
    int PyTraceMalloc_Track(unsigned int domain, uintptr_t ptr, size_t size)
    int PyTraceMalloc_Untrack(unsigned int domain, uintptr_t ptr)

cdef extern from "memory.h":
    void *kw_alloc_columns(size_t *cap)

cdef enum:
    POOL_SLOTS = 4
    POOL_BYTES = 64 * 1024 * 1024     # at most this much kept, in all
    POOL_MIN_BLOCK = 256 * 1024       # smaller blocks are cheap to allocate anyway
    TRACE_DOMAIN = 0x6B77             # tracemalloc domain of column blocks ("kw")

# Freed column blocks kept for the next decode_records.  Fresh memory of a few
# MiB costs a page fault per page (and THP compaction) on first touch, which
# took as long as the scan itself; a consumer decoding fetch after fetch
# reuses the same few blocks instead.  Guarded by the GIL.
cdef void *_pool_ptr[POOL_SLOTS]
cdef size_t _pool_cap[POOL_SLOTS]
cdef size_t _pool_total = 0


@cython.final
cdef class _ColumnBlock:
    """Memory for a RecordView's columns, exposed as a writable buffer; it
    goes back to the pool when the last array over it dies."""
    cdef char *ptr
    cdef size_t size
    cdef size_t cap

    @staticmethod
    cdef _ColumnBlock get(size_t size):
        cdef _ColumnBlock block = _ColumnBlock.__new__(_ColumnBlock)
        cdef int i, best = -1
        global _pool_total
        if size >= POOL_MIN_BLOCK:
            # the smallest pooled block that fits, wasting at most 1/16 (a
            # view holds all of it: the memory per record stays predictable)
            for i in range(POOL_SLOTS):
                if (_pool_ptr[i] != NULL and size <= _pool_cap[i] <= size + size // 16
                        and (best < 0 or _pool_cap[i] < _pool_cap[best])):
                    best = i
        if best >= 0:
            block.ptr = <char *>_pool_ptr[best]
            block.cap = _pool_cap[best]
            _pool_total -= block.cap
            _pool_ptr[best] = NULL
        else:
            block.cap = size if size else 1
            block.ptr = <char *>kw_alloc_columns(&block.cap)
            if block.ptr == NULL:
                raise MemoryError()
        block.size = size
        PyTraceMalloc_Track(TRACE_DOMAIN, <uintptr_t>block.ptr, block.cap)
        return block

    def __getbuffer__(self, Py_buffer *view, int flags):
        PyBuffer_FillInfo(view, self, self.ptr, <Py_ssize_t>self.size, 0, flags)

    def __dealloc__(self):
        cdef int slot
        global _pool_total
        if self.ptr == NULL:
            return
        PyTraceMalloc_Untrack(TRACE_DOMAIN, <uintptr_t>self.ptr)
        if not POOL_MIN_BLOCK <= self.cap <= POOL_BYTES:
            free(self.ptr)
            return
        # drop the smallest pooled blocks until this one fits, in slots and bytes
        while True:
            slot = _pool_slot(True)
            if slot >= 0 and _pool_total + self.cap <= POOL_BYTES:
                break
            slot = _pool_slot(False)
            free(_pool_ptr[slot])
            _pool_total -= _pool_cap[slot]
            _pool_ptr[slot] = NULL
        _pool_ptr[slot] = self.ptr
        _pool_cap[slot] = self.cap
        _pool_total += self.cap


cdef int _pool_slot(bint empty) noexcept:
    """The first empty slot (or -1), or else the slot of the smallest block."""
    cdef int i, found = -1
    for i in range(POOL_SLOTS):
        if empty and _pool_ptr[i] == NULL:
            return i
        if not empty and _pool_ptr[i] != NULL and (found < 0 or _pool_cap[i] < _pool_cap[found]):
            found = i
    return found

def decode_records(buf, *, bint verify_crc=True,
                   int64_t max_decompressed_size=DEFAULT_MAX_DECOMPRESSED_SIZE,
                   int64_t max_total_decompressed_size=DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE,
                   aborted_transactions=None, copy=None):
    """Decode every record in `buf` into a columnar RecordView.

    `buf`: bytes, bytearray, memoryview or mmap holding record batches of any
    magic (a fetch response's `records`).  A partial trailing batch is
    reported in `view.leftover_bytes`; a non-empty buffer without one complete
    batch raises TruncatedError.  `aborted_transactions` selects
    read_committed (see read_batches).

    Limits: one payload decompresses to at most `max_decompressed_size` bytes
    (256 MiB), all the payloads of the call together to at most
    `max_total_decompressed_size` (1 GiB); past either, LimitExceededError.

    Buffer policy (`copy`): keys, values and Arrow columns of the view point
    into the input, so what they read must not change while the view lives.
    With None (the default), an input that cannot change (bytes, a read-only
    buffer such as a read-only mmap or a memoryview of bytes) is viewed in
    place and a writable one (bytearray, writable mmap or numpy array) is
    copied first.  True always copies; False never does: the view then reads
    the writable memory in place, and writes to it show through the view.
    """
    cdef _Walker w = _Walker(buf, verify_crc, max_decompressed_size, max_total_decompressed_size,
                             aborted_transactions, copy)
    w.defer_crc = True
    cdef BatchInfo *batches = NULL
    cdef BatchInfo *grown
    cdef Py_ssize_t nb = 0, cap = 0
    cdef int64_t total = 0
    cdef RecordView view = RecordView.__new__(RecordView)
    view.walker = w
    # pass 1: walk, verify, decompress; count records exactly
    try:
        while True:
            if nb == cap:
                cap = cap * 2 if cap else 16
                grown = <BatchInfo *>realloc(batches, cap * sizeof(BatchInfo))
                if grown == NULL:
                    raise MemoryError()
                batches = grown
            if not w.next(&batches[nb]):
                break
            batches[nb].first_record = total
            total += batches[nb].record_count
            nb += 1
    except BaseException:
        free(batches)
        raise
    view.binfo = batches
    view.n_batches = nb
    view.n = total
    view.leftover_bytes = w.leftover()
    if nb == 0 and w.length > 0 and w.pos == 0:
        raise TruncatedError(f"no complete record batch in {w.length} bytes",
                             offset=0, field="batch_length")
    # past the batches left out too (control, aborted), so a consumer moves on
    view.next_offset = w.end_offset
    # pass 2: scan into columns sized exactly
    # One allocation for all columns (36 bytes a record), from the pool of
    # recently freed blocks (see _ColumnBlock).
    block = np.frombuffer(_ColumnBlock.get(<size_t>(total * 36)), dtype=np.uint8,
                          count=total * 36)
    view.offsets = block[:8 * total].view(np.int64)
    view.timestamps = block[8 * total:16 * total].view(np.int64)
    view.key_pos = block[16 * total:20 * total].view(np.uint32)
    view.key_len = block[20 * total:24 * total].view(np.int32)
    view.value_pos = block[24 * total:28 * total].view(np.uint32)
    view.value_len = block[28 * total:32 * total].view(np.int32)
    header_pos = block[32 * total:].view(np.uint32)
    cdef kw_columns cols
    memset(&cols, 0, sizeof(cols))
    cols.offsets = <int64_t *>cnp.PyArray_DATA(view.offsets)
    cols.timestamps = <int64_t *>cnp.PyArray_DATA(view.timestamps)
    cols.key_pos = <uint32_t *>cnp.PyArray_DATA(view.key_pos)
    cols.key_len = <int32_t *>cnp.PyArray_DATA(view.key_len)
    cols.value_pos = <uint32_t *>cnp.PyArray_DATA(view.value_pos)
    cols.value_len = <int32_t *>cnp.PyArray_DATA(view.value_len)
    cols.header_pos = <uint32_t *>cnp.PyArray_DATA(header_pos)
    cols.cap = <size_t>total
    cdef Py_ssize_t k
    cdef Py_ssize_t crc_done = 0
    for k in range(nb):
        if batches[k].crc_pending:
            if k >= crc_done:
                with nogil:
                    crc_done = check_crc_group(w.buf, batches, k, nb)
            if batches[k].crc_mismatch:
                check_v2_crc(&batches[k], w.buf + batches[k].byte_offset)  # raises
        scan_batch(w, w.segment_ptr(batches[k].segment) + batches[k].data_start, &batches[k],
                   &cols)
    if cols.nh:
        view.header_pos = header_pos
        view.num_headers = <Py_ssize_t>cols.nh
    return view
