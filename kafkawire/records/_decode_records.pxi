# read_batches: Record, RecordBatch and BatchReader, made one at a time as a loop asks.
# Included by _decode.pyx: one extension module, split by topic.

# ---- read_batches: one object per batch and per record ---------------------

# A consumer loop drops each record's key and value (and offset and timestamp
# ints) one or two iterations after it got them; allocating their twins for the
# next record and freeing the old ones is a third of the time read_batches
# spends per record.  A dropped
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
    object kw_int_from(int64_t v)
    int kw_int_recycling_check()
    void kw_recycle_record_fields(object type, Py_ssize_t offset_at, Py_ssize_t timestamp_at,
                                  Py_ssize_t key_at, Py_ssize_t value_at, Py_ssize_t headers_at)


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
    # every field is an object, read through a member slot (see _use_member_slots): the
    # ints are made with the record, not on each read
    cdef readonly object offset
    cdef readonly object timestamp
    cdef readonly object key
    cdef readonly object value
    cdef list _headers     # read as `headers`

    def __repr__(self):
        return (f"Record(offset={self.offset}, timestamp={self.timestamp}, key={self.key!r}, "
                f"value={self.value!r}, headers={self._headers!r})")

    def __eq__(self, other):
        if not isinstance(other, Record):
            return NotImplemented
        o = <Record>other
        return (self.offset == o.offset and self.timestamp == o.timestamp and self.key == o.key
                and self.value == o.value and self._headers == o._headers)

    def __hash__(self):
        return hash((self.offset, self.timestamp, self.key, self.value))


cdef extern from "record_object.h":
    const Py_ssize_t KW_RECORD_OFFSET_AT
    const Py_ssize_t KW_RECORD_TIMESTAMP_AT
    const Py_ssize_t KW_RECORD_KEY_AT
    const Py_ssize_t KW_RECORD_VALUE_AT
    const Py_ssize_t KW_RECORD_HEADERS_AT
    bint kw_record_layout_ok(object r, object offset, object timestamp, object key,
                             object value, object headers)
    ctypedef struct PyMemberDef:
        const char *name
        int type
        Py_ssize_t offset
        int flags
        const char *doc
    enum:
        T_OBJECT_EX
        READONLY
    PyObject *KW_TYPE_DICT(object type)
    object KW_NEW_MEMBER(object type, PyMemberDef *member)
    void KW_TYPE_MODIFIED(object type)


# Record's fields as member descriptors rather than the properties Cython
# makes: CPython specializes loads of object member slots (LOAD_ATTR_SLOT),
# which makes a consumer loop reading key and value about a third faster.
# key and value are never NULL (None at worst), as T_OBJECT_EX requires; headers is a
# list from the start (an empty one recycled from a dropped record where it can be), so
# that reading it is a slot load too, not a property call that makes the list.
cdef PyMemberDef _record_members[5]


cdef _use_member_slots():
    fields = [(b"offset", T_OBJECT_EX, KW_RECORD_OFFSET_AT, b"offset of the record"),
              (b"timestamp", T_OBJECT_EX, KW_RECORD_TIMESTAMP_AT,
               b"timestamp in ms (-1 when absent)"),
              (b"key", T_OBJECT_EX, KW_RECORD_KEY_AT, b"key: bytes or None"),
              (b"value", T_OBJECT_EX, KW_RECORD_VALUE_AT, b"value: bytes or None"),
              (b"headers", T_OBJECT_EX, KW_RECORD_HEADERS_AT,
               b"headers: list of (str, bytes | None) in wire order")]
    cdef int i
    for i in range(5):
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
    # typed objects: the check compares pointers, so each must be boxed once
    cdef object offset = 0x0102030405060708, timestamp = -7, key = b"k", value = b"v"
    cdef list headers = []
    r.offset, r.timestamp, r.key, r.value, r._headers = offset, timestamp, key, value, headers
    if not kw_record_layout_ok(r, offset, timestamp, key, value, headers):
        raise ImportError("Record's layout is not the one src_c/record_object.h mirrors")


_check_record_layout()
_use_member_slots()
kw_recycle_record_fields(Record, KW_RECORD_OFFSET_AT, KW_RECORD_TIMESTAMP_AT, KW_RECORD_KEY_AT,
                         KW_RECORD_VALUE_AT, KW_RECORD_HEADERS_AT)
# whether offsets and timestamps reuse dropped records' ints (see recycle.h)
INT_RECYCLING = bool(kw_int_recycling_check())


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
    r.offset = kw_int_from(cols.offsets[i])
    r.timestamp = kw_int_from(cols.timestamps[i])
    r.key = slice_bytes(base, cols.key_pos[i], cols.key_len[i])
    r.value = slice_bytes(base, cols.value_pos[i], cols.value_len[i])
    if cols.header_pos[i] != 0:
        r._headers = headers_at(base, info, cols.header_pos[i], cache)
    else:
        r._headers = kw_list_of(0)
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
            if self.walker.pos == 0 and self.walker.length > 0:
                raise TruncatedError(f"no complete record batch in {self.walker.length} bytes",
                                     offset=0, field="batch_length")
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

    def __repr__(self):
        state = "done" if self.done else "reading"
        return (f"<BatchReader {state}: {self.walker.pos} of {self.walker.length} bytes read, "
                f"leftover_bytes={self.walker.leftover()}>")


def read_batches(buf, *, bint verify_crc=True,
                 int64_t max_decompressed_size=DEFAULT_MAX_DECOMPRESSED_SIZE,
                 int64_t max_total_decompressed_size=DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE,
                 aborted_transactions=None, bint keep_control=False, copy=None):
    """Iterate the record batches of `buf` (bytes, bytearray, memoryview, mmap).

    Batches of every magic (0, 1, 2) are read; a partial trailing batch ends
    the iteration quietly (see BatchReader.leftover_bytes), but a non-empty
    buffer without one complete batch, or bytes that are not a record set,
    raise a DecodeError (as decode_records does).  Control batches (the
    transaction markers) are left out, as a consumer sees the log, unless
    `keep_control=True`.  With `aborted_transactions` (a fetch partition's
    list of (producer_id, first_offset)), transactional batches of aborted
    transactions are left out too, as a read_committed consumer does.

    Limits: one payload decompresses to at most `max_decompressed_size` bytes
    (256 MiB), all the payloads of the iterator together to at most
    `max_total_decompressed_size` (1 GiB); past either, LimitExceededError.

    `copy` (the buffer policy, see decode_records): None copies a writable
    input first, True always, False never.
    """
    cdef BatchReader reader = BatchReader(buf, verify_crc, max_decompressed_size,
                                          max_total_decompressed_size, aborted_transactions, copy)
    reader.walker.keep_control = keep_control
    return reader
