# decode_records: RecordView, BinaryColumn and the pooled column memory.
# Included by _decode.pyx: one extension module, split by topic.

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

    def __getitem__(self, i):
        """Record i as a Record object (bytes copies of key and value); a slice
        (step 1) is a RecordView of those rows, sharing this one's memory."""
        if isinstance(i, slice):
            return self.rows(i)
        return self.record(i)

    cdef RecordView rows(self, slice s):
        start, stop, step = s.indices(self.n)
        if step != 1:
            raise ValueError("a RecordView slice takes no step")
        stop = max(start, stop)
        cdef RecordView v = RecordView.__new__(RecordView)
        cdef Py_ssize_t first = 0, count = 0, k
        if stop > start:
            first = self.batch_of(start)
            count = self.batch_of(stop - 1) - first + 1
        # the batches the rows come from, their first rows counted from the slice's start
        v.binfo = <BatchInfo *>malloc(max(count, 1) * sizeof(BatchInfo))
        if v.binfo == NULL:
            raise MemoryError()
        for k in range(count):
            v.binfo[k] = self.binfo[first + k]
            v.binfo[k].first_record = max(0, v.binfo[k].first_record - start)
        v.walker = self.walker
        v.n_batches = count
        v.n = stop - start
        v.offsets = self.offsets[start:stop]
        v.timestamps = self.timestamps[start:stop]
        v.key_pos = self.key_pos[start:stop]
        v.key_len = self.key_len[start:stop]
        v.value_pos = self.value_pos[start:stop]
        v.value_len = self.value_len[start:stop]
        if self.header_pos is not None:
            v.header_pos = self.header_pos[start:stop]
            v.num_headers = self.num_headers  # a bound: _header_index counts the slice's
        if stop < self.n:  # rows of the view follow: the slice ends where the next begins
            v.leftover_bytes = 0
            v.next_offset = self.offsets[stop]
        else:
            v.leftover_bytes = self.leftover_bytes
            v.next_offset = self.next_offset
        v._segment_views = self._segment_views
        return v

    cdef Record record(self, Py_ssize_t i):
        i = self.check_index(i)
        cdef Record r = Record.__new__(Record)
        cdef cnp.ndarray[int64_t, ndim=1] offs = self.offsets, ts = self.timestamps
        r.offset = offs[i]
        r.timestamp = ts[i]
        k = self.key(i)
        v = self.value(i)
        r.key = None if k is None else bytes(k)
        r.value = None if v is None else bytes(v)
        r._headers = self.headers(i)
        return r

    def __iter__(self):
        for i in range(self.n):
            yield self.record(i)

    def consumer_records(self, str topic, int32_t partition, int32_t delivery_count=-1):
        """One ConsumerRecord per row (bytes copies of keys and values), made in
        one pass over the batches: the per-record poll of kafkawire.Consumer.
        ``delivery_count``: a share group's (KIP-932) for every row; -1: none."""
        cdef list out = []
        if self.n == 0:
            return out
        cdef int64_t[::1] offs = self.offsets
        cdef int64_t[::1] ts = self.timestamps
        cdef uint32_t[::1] kp = self.key_pos
        cdef int32_t[::1] kl = self.key_len
        cdef uint32_t[::1] vp = self.value_pos
        cdef int32_t[::1] vl = self.value_len
        cdef uint32_t[::1] hp
        cdef bint headers = self.header_pos is not None
        if headers:
            hp = self.header_pos
        cdef Py_ssize_t k, i, end
        cdef const uint8_t *base
        cdef BatchInfo *b
        cdef ConsumerRecord r
        cdef int8_t timestamp_type
        for k in range(self.n_batches):
            b = &self.binfo[k]
            base = self.walker.segment_ptr(b.segment) + b.data_start
            if b.magic == 0:
                timestamp_type = NO_TIMESTAMP
            else:
                timestamp_type = LOG_APPEND_TIME if b.attributes & ATTR_TIMESTAMP_TYPE else CREATE_TIME
            end = self.binfo[k + 1].first_record if k + 1 < self.n_batches else self.n
            for i in range(b.first_record, end):
                r = ConsumerRecord.__new__(ConsumerRecord)
                r.topic = topic
                r.partition = partition
                r.offset = offs[i]
                r.timestamp = ts[i]
                r.timestamp_type = timestamp_type
                r.leader_epoch = b.partition_leader_epoch
                r._delivery_count = delivery_count
                r.key = (None if kl[i] < 0 else
                         PyBytes_FromStringAndSize(<const char *>base + kp[i], kl[i]))
                r.value = (None if vl[i] < 0 else
                           PyBytes_FromStringAndSize(<const char *>base + vp[i], vl[i]))
                if headers and hp[i] != 0:
                    r._headers = headers_at(base, b, hp[i])
                out.append(r)
        return out

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
                         np.diff(self._record_starts()))

    def to_arrow(self, *, binary="plain", topic=None, partition=None, include_headers=True):
        """A pyarrow Table of the records in the Kafka columns' schema (Spark's Kafka
        source's: key, value, topic, partition, offset, timestamp[us, UTC],
        timestampType, headers; see kafkawire.records.arrow).

        binary="plain" (binary, copied), "view" (binary_view columns pointing into
        the input: no copy) or "large" (large_binary, copied).  topic and partition
        fill those columns (null when not given).
        """
        from kafkawire.records.arrow import record_view_to_arrow

        return record_view_to_arrow(self, binary=binary, topic=topic, partition=partition,
                                    include_headers=include_headers)

    def to_pandas(self, *, topic=None, partition=None, include_headers=True):
        """A pandas DataFrame of to_arrow()'s columns (through Arrow; needs pandas); partition
        is pandas' nullable Int32."""
        from kafkawire.records.arrow import to_pandas

        return to_pandas(self.to_arrow(topic=topic, partition=partition,
                                       include_headers=include_headers))

    def to_polars(self, *, topic=None, partition=None, include_headers=True):
        """A polars DataFrame of to_arrow()'s columns (through Arrow; needs polars)."""
        import polars

        return polars.from_arrow(self.to_arrow(topic=topic, partition=partition,
                                               include_headers=include_headers))

    def decode_values(self, registry, *, reader_schema=None, format=None, on_error="raise"):
        """The values, framed by a schema registry (Avro, Protobuf or JSON Schema), decoded
        into one pyarrow StructArray: one row per record, null for null values (and, with
        on_error="null", for values that do not decode). See kafkawire.registry."""
        from kafkawire.registry.decode import decode_view

        return decode_view(self, registry, key=False, reader_schema=reader_schema,
                           format=format, on_error=on_error).values

    def decode_keys(self, registry, *, reader_schema=None, format=None, on_error="raise"):
        """The keys decoded as decode_values decodes the values."""
        from kafkawire.registry.decode import decode_view

        return decode_view(self, registry, key=True, reader_schema=reader_schema,
                           format=format, on_error=on_error).values

    def __repr__(self):
        if self.n == 0:
            return (f"<RecordView 0 records, next_offset={self.next_offset}, "
                    f"leftover_bytes={self.leftover_bytes}>")
        return (f"<RecordView {self.n} records, offsets {self.offsets[0]}..{self.offsets[-1]}, "
                f"{self.n_batches} batches, next_offset={self.next_offset}, "
                f"leftover_bytes={self.leftover_bytes}>")

    # -- access for kafkawire.records.arrow --
    def _segment_buffers(self):
        # a slice: the caller may release what it gets without releasing ours
        return [self.walker.bytes_view()[:]] + list(self.walker.segments)

    def _columns(self):
        return (self.key_pos, self.key_len, self.value_pos, self.value_len)

    @cython.boundscheck(False)  # the indexes below come from the scan's own counts
    @cython.wraparound(False)
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
        if at < nh:  # a slice: num_headers counted the whole view's
            kp, kl, vp, vl = kp[:at], kl[:at], vp[:at], vl[:at]
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

    @cython.boundscheck(False)  # the indexes come from the scan's own counts
    @cython.wraparound(False)
    def _extents(self, bint keys):
        """Where each key (keys=True) or value lies, when every batch's records are in one
        buffer (the input, or one decompressed slab): (that buffer as uint8, starts int64,
        ends int64, valid bool), read in place; None when they span several buffers."""
        cdef Py_ssize_t k, i, n = self.n, last
        cdef int32_t segment = self.binfo[0].segment if self.n_batches else 0
        for k in range(self.n_batches):
            if self.binfo[k].segment != segment:
                return None
        cdef cnp.ndarray[uint32_t, ndim=1] pos = self.key_pos if keys else self.value_pos
        cdef cnp.ndarray[int32_t, ndim=1] lens = self.key_len if keys else self.value_len
        starts = np.empty(n, np.int64)
        ends = np.empty(n, np.int64)
        valid = np.empty(n, np.bool_)
        cdef int64_t[::1] s = starts, e = ends
        cdef uint8_t[::1] v = valid.view(np.uint8)
        cdef int64_t at
        for k in range(self.n_batches):
            last = self.binfo[k + 1].first_record if k + 1 < self.n_batches else n
            for i in range(self.binfo[k].first_record, last):
                at = self.binfo[k].data_start + pos[i]
                s[i] = at
                e[i] = at + lens[i] if lens[i] > 0 else at
                v[i] = lens[i] >= 0
        data = np.frombuffer(self.segment_view(segment), dtype=np.uint8)
        return data, starts, ends, valid

    def _record_starts(self):
        """int64 array of n_batches + 1: batch k holds records [starts[k], starts[k+1])."""
        starts = np.empty(self.n_batches + 1, dtype=np.int64)
        for k in range(self.n_batches):
            starts[k] = self.binfo[k].first_record
        starts[self.n_batches] = self.n
        return starts


# Not tracked by the garbage collector: a poll makes hundreds of thousands of them and
# their fields (str, int, bytes, the headers' list of (str, bytes) pairs) hold no cycles,
# so tracking them would only make every collection walk them.
@cython.no_gc
cdef class ConsumerRecord:
    """A record as a consumer's poll gives it: where it is (topic, partition,
    offset, leader_epoch), when (timestamp in ms, -1 when absent; timestamp_type
    0 CreateTime, 1 LogAppendTime, -1 none) and what (key, value, headers); a share
    consumer's records also say how often the group handed them out (delivery_count)."""
    cdef readonly str topic
    cdef readonly int32_t partition
    cdef readonly int64_t offset
    cdef readonly int64_t timestamp
    cdef readonly int8_t timestamp_type
    cdef readonly int32_t leader_epoch
    cdef readonly object key
    cdef readonly object value
    cdef list _headers     # None for a record without headers: made on access
    cdef int32_t _delivery_count  # -1: not from a share group

    @property
    def delivery_count(self):
        """1 on a share group's first delivery, +1 after each release or lock expiry;
        None for a record not read through a share group."""
        return None if self._delivery_count < 0 else self._delivery_count

    @property
    def headers(self):
        if self._headers is None:
            self._headers = []
        return self._headers

    def __repr__(self):
        return (f"ConsumerRecord(topic={self.topic!r}, partition={self.partition}, "
                f"offset={self.offset}, timestamp={self.timestamp}, key={self.key!r}, "
                f"value={self.value!r}, headers={self.headers!r}"
                + (f", delivery_count={self._delivery_count})" if self._delivery_count >= 0
                   else ")"))

    def _fields(self):
        return (self.topic, self.partition, self.offset, self.timestamp, self.timestamp_type,
                self.key, self.value, self.headers, self.leader_epoch, self._delivery_count)

    def __eq__(self, other):
        if not isinstance(other, ConsumerRecord):
            return NotImplemented
        return self._fields() == (<ConsumerRecord>other)._fields()

    __hash__ = None

    def __reduce__(self):
        return (_consumer_record, self._fields())


def _consumer_record(topic, partition, offset, timestamp, timestamp_type, key, value, headers,
                     leader_epoch, delivery_count=-1):
    """Unpickles a ConsumerRecord."""
    cdef ConsumerRecord r = ConsumerRecord.__new__(ConsumerRecord)
    r._delivery_count = -1 if delivery_count is None else delivery_count
    r.topic, r.partition, r.offset, r.timestamp = topic, partition, offset, timestamp
    r.timestamp_type, r.leader_epoch, r.key, r.value = timestamp_type, leader_epoch, key, value
    r._headers = list(headers) if headers else None
    return r


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

    def __repr__(self):
        cdef Py_ssize_t n = self.view.n
        shown = ", ".join("None" if v is None else repr(bytes(v[:20])) + ("..." if len(v) > 20
                          else "") for v in (self[i] for i in range(min(n, 3))))
        more = ", ..." if n > 3 else ""
        return (f"<BinaryColumn {n} rows, {self.null_count} null, "
                f"{int(self.lengths[self.lengths > 0].sum())} bytes: [{shown}{more}]>")


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
                   aborted_transactions=None, bint keep_control=False, copy=None):
    """Decode every record in `buf` into a columnar RecordView.

    `buf`: bytes, bytearray, memoryview or mmap holding record batches of any
    magic (a fetch response's `records`).  A partial trailing batch is
    reported in `view.leftover_bytes`; a non-empty buffer without one complete
    batch, or bytes that are not a record set, raise a DecodeError.

    Control records (the COMMIT/ABORT markers of transactions) are left out,
    as a consumer sees the log; `keep_control=True` keeps them (then
    `view.control_record(i)` reads them).  `aborted_transactions` selects
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
    w.keep_control = keep_control
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
                # the GIL goes only when there is enough left to check for that to pay
                if (batches[nb - 1].byte_offset + batches[nb - 1].size
                        - batches[k].byte_offset > NOGIL_BYTES):
                    with nogil:
                        crc_done = check_crc_group(w.buf, batches, k, nb)
                else:
                    crc_done = check_crc_group(w.buf, batches, k, nb)
            if batches[k].crc_mismatch:
                check_v2_crc(&batches[k], w.buf + batches[k].byte_offset)  # raises
        scan_batch(w, w.segment_ptr(batches[k].segment) + batches[k].data_start, &batches[k],
                   &cols)
    if cols.nh:
        view.header_pos = header_pos
        view.num_headers = <Py_ssize_t>cols.nh
    return view
