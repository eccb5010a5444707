# The C-level face of _build.pyx for the other compiled modules: the producer's per-record
# path (client/producer/_accumulate.pyx) appends to a BatchBuilder and hashes keys without a
# Python call.

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t


cdef struct kw_hdr:
    const uint8_t *key
    Py_ssize_t klen
    const uint8_t *val
    Py_ssize_t vlen  # -1: null


cdef class BatchBuilder:
    cdef uint8_t *_buf
    cdef size_t _cap
    cdef size_t _len
    cdef int _magic
    cdef int _codec
    cdef int _ts_type
    cdef bint _transactional
    cdef bint _control
    cdef bint _built
    cdef bint _refused            # an append was refused: the batch counts as full
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

    cdef int append_bytes(self, object value, object key, int64_t ts) except -1
    cdef Py_ssize_t _size(self) noexcept
    cdef Py_ssize_t _borrow(self, object o, const uint8_t **p, str name) except -2
    cdef void _release_views(self) noexcept
    cdef void *_grow(self, void *arr, Py_ssize_t *cap, size_t item, Py_ssize_t need) except NULL
    cdef Py_ssize_t _fill_headers(self, object seq) except -1
    cdef int _reserve(self, size_t extra) except -1
    cdef int _restart(self, int64_t base_offset, int32_t base_sequence, size_t cap) except -1
    cdef int _add(self, const uint8_t *kp, Py_ssize_t kl, const uint8_t *vp, Py_ssize_t vl,
                  int64_t ts, Py_ssize_t nh) except -1
    cdef int _add_legacy(self, const uint8_t *kp, Py_ssize_t kl, const uint8_t *vp,
                         Py_ssize_t vl, int64_t ts, Py_ssize_t nh) except -1
    cdef bytes _build_v2(self)
    cdef bytes _lz4_v2(self)
    cdef bytes _build_legacy(self)


cdef int32_t _murmur2(const uint8_t *p, Py_ssize_t n) noexcept nogil
