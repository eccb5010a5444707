# C-level entry points of kafkawire.compression._codecs, for kafkawire.records._decode: decoding straight
# from the input's memory, into a new bytes object (read_batches) or into memory the caller
# owns (decode_records' payload slabs); and for kafkawire.records._build, lz4 compression
# straight into the batch being built (lz4_compress_into writes at most lz4_compress_bound
# bytes).

from libc.stdint cimport uint8_t, uint64_t


cdef bytes lz4_decompress_bytes(const uint8_t *src, size_t length, int magic, uint64_t limit)
cdef bytes snappy_decompress_bytes(const uint8_t *src, size_t length, uint64_t limit)
cdef Py_ssize_t lz4_decompress_into(const uint8_t *src, size_t length, int magic,
                                    uint64_t max_size, uint8_t *dst, size_t room) except -2
cdef object zstd_decompress_bytes(const uint8_t *src, size_t length, uint64_t limit)
cdef Py_ssize_t zstd_decompress_into(const uint8_t *src, size_t length, uint64_t max_size,
                                     uint8_t *dst, size_t room) except -2
cdef Py_ssize_t snappy_decompress_into(const uint8_t *src, size_t length, uint64_t max_size,
                                       uint8_t *dst, size_t room) except -2
cdef size_t lz4_compress_bound(size_t length) noexcept nogil
cdef size_t lz4_compress_into(const uint8_t *src, size_t length, int magic,
                              uint8_t *dst) noexcept nogil
