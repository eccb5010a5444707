# The batch walker: lengths, CRC, decompression and read_committed, one entry at a time.
# Included by _decode.pyx: one extension module, split by topic.

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
    cdef bint keep_control        # return control batches (a consumer never sees them)
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
        cdef const void *inner = NULL
        cdef Py_ssize_t inner_len = 0
        cdef bint inside = False
        if type(source) is memoryview and type(source.obj) is bytes and copy is not True:
            # Hold the bytes under the memoryview, not an export of the memoryview: a
            # garbage collection of a cycle holding a view and its input (a fetch answer
            # kept by a traceback) clears a memoryview under its exports, and CPython then
            # crashes releasing them. The bytes cannot change; the memoryview stays the
            # source (bytes_view slices it).
            inner, inner_len, inside = self.view.buf, self.view.len, True
            PyBuffer_Release(&self.view)
            self.have_view = False
            PyObject_GetBuffer(source.obj, &self.view, PyBUF_SIMPLE)
            self.have_view = True
        elif copy is True or (copy is None and not _immutable(source, &self.view)):
            # The buffer policy: views read a private copy, which nothing can change.
            private = PyBytes_FromStringAndSize(NULL, self.view.len)
            copy_bytes(<char *>PyBytes_AS_STRING(private), self.view.buf, <size_t>self.view.len)
            PyBuffer_Release(&self.view)
            self.have_view = False
            PyObject_GetBuffer(private, &self.view, PyBUF_SIMPLE)
            self.have_view = True
            source = private
        self.source = source
        self.buf = <const uint8_t *>(inner if inside else self.view.buf)
        self.length = inner_len if inside else self.view.len
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
        (a partial trailing entry ends the input; see leftover()).  Control
        batches (transaction markers) are kept only with keep_control."""
        cdef bint control
        while True:
            if not self.read_entry(b):
                return 0
            self.end_offset = wrap_add(last_offset_of(b), 1)
            control = b.magic == 2 and (b.attributes & ATTR_CONTROL) != 0
            if self.aborted is not None:
                # keep() also follows the markers, so it sees control batches either way
                if self.aborted.keep(b, self.control_type(b)) or (control and self.keep_control):
                    return 1
            elif not control or self.keep_control:
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
            if avail > 16 and p[16] > 2:
                # not the start of a partial batch: bytes that are no record set at all
                raise UnsupportedError(f"unknown magic byte {<int8_t>p[16]}", offset=pos + 16,
                                       batch_offset=be64(p), field="magic")
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
        cdef bint careful = False   # zstd that the compiled-in libzstd has refused
        try:
            if self.keep_segments and 2 <= codec <= 4 and length <= KW_SLAB_SIZE // 16:
                # the C decoders (lz4, snappy, libzstd) write straight into the
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
