# C-level entry points of kafkawire._codecs, for decoders that fill memory they own
# (decode_records' payload slabs in kafkawire._records).

from libc.stdint cimport uint8_t, uint64_t


cdef Py_ssize_t lz4_decompress_into(const uint8_t *src, size_t length, int magic,
                                    uint64_t max_size, uint8_t *dst, size_t room) except -2
cdef Py_ssize_t snappy_decompress_into(const uint8_t *src, size_t length, uint64_t max_size,
                                       uint8_t *dst, size_t room) except -2
