# build_batches: records from columns (Arrow, numpy, lists), and the partitioner.
# Included by _build.pyx: one extension module, split by topic.

# the kinds of columnar input
cdef enum:
    K_NULL = 0   # every row null (Arrow null type, or an absent column)
    K_OFF32 = 1  # Arrow binary / string
    K_OFF64 = 2  # Arrow large_binary / large_string
    K_VIEW = 3   # Arrow binary_view / string_view
    K_FIXED = 4  # Arrow fixed_size_binary, numpy 'S<n>' (strip: numpy drops trailing NULs)
    K_PYSEQ = 5  # sequence of bytes-like / None


cdef bint _is_arrow(object o) except -1:
    return type(o).__module__.startswith("pyarrow")


@cython.final
cdef class _Col:
    """Row access to one binary column; rows must be asked for in increasing order."""

    cdef int kind
    cdef Py_ssize_t length
    cdef list chunks
    cdef Py_ssize_t chunk      # index of the loaded chunk
    cdef Py_ssize_t start      # its first row
    cdef Py_ssize_t end        # one past its last row
    cdef const uint8_t *valid  # validity bitmap or NULL
    cdef int64_t bit_off
    cdef const uint8_t *offs   # offsets (int32 or int64), views, or fixed-width data
    cdef const uint8_t *data
    cdef const uint8_t **vbufs # view data buffers
    cdef Py_ssize_t nvbufs
    cdef Py_ssize_t width
    cdef Py_ssize_t stride
    cdef bint strip
    cdef object seq            # K_PYSEQ: the PySequence_Fast list
    cdef object tmp            # K_PYSEQ: bytes of the last non-bytes row
    cdef object keep           # numpy input, whose memory offs points into

    def __dealloc__(self):
        free(self.vbufs)

    cdef int load(self, Py_ssize_t k) except -1:
        cdef object arr = self.chunks[k]
        cdef list bufs = arr.buffers()
        cdef Py_ssize_t j
        self.chunk = k
        self.start = self.end
        self.end = self.start + len(arr)
        self.bit_off = arr.offset
        self.valid = NULL
        if bufs[0] is not None:
            self.valid = _addr(bufs[0])
        if self.kind == K_NULL:
            return 0
        if self.kind == K_FIXED:
            self.offs = _addr(bufs[1]) + self.bit_off * self.width
            return 0
        if self.kind == K_VIEW:
            self.offs = _addr(bufs[1]) + self.bit_off * 16
            self.nvbufs = len(bufs) - 2
            free(self.vbufs)
            self.vbufs = <const uint8_t **>malloc(sizeof(uint8_t *) * (self.nvbufs + 1))
            if self.vbufs == NULL:
                raise MemoryError()
            for j in range(self.nvbufs):
                self.vbufs[j] = _addr(bufs[2 + j])
            return 0
        self.offs = _addr(bufs[1]) + self.bit_off * (4 if self.kind == K_OFF32 else 8)
        self.data = _addr(bufs[2])
        return 0

    cdef inline Py_ssize_t get(self, Py_ssize_t i, const uint8_t **p) except -2:
        """Length of row i (-1: null), its bytes at p[0]."""
        cdef Py_ssize_t r = i - self.start
        cdef int32_t a
        # the common case inlined: binary or string, inside the loaded chunk
        if self.kind == K_OFF32 and i < self.end:
            if self.valid != NULL and not (self.valid[(r + self.bit_off) >> 3] >> ((r + self.bit_off) & 7)) & 1:
                return -1
            a = (<const int32_t *>self.offs)[r]
            p[0] = self.data + a
            return (<const int32_t *>self.offs)[r + 1] - a
        return self._get(i, p)

    cdef Py_ssize_t _get(self, Py_ssize_t i, const uint8_t **p) except -2:
        cdef Py_ssize_t r, n
        cdef int64_t a, b
        cdef const uint8_t *v
        if self.kind == K_PYSEQ:
            return self._get_py(i, p)
        while i >= self.end:
            self.load(self.chunk + 1)
        r = i - self.start
        if self.valid != NULL and not (self.valid[(r + self.bit_off) >> 3] >> ((r + self.bit_off) & 7)) & 1:
            return -1
        if self.kind == K_OFF32:
            a = (<const int32_t *>self.offs)[r]
            b = (<const int32_t *>self.offs)[r + 1]
            p[0] = self.data + a
            return <Py_ssize_t>(b - a)
        if self.kind == K_OFF64:
            a = (<const int64_t *>self.offs)[r]
            b = (<const int64_t *>self.offs)[r + 1]
            p[0] = self.data + a
            return <Py_ssize_t>(b - a)
        if self.kind == K_FIXED:
            v = self.offs + r * self.stride
            n = self.width
            if self.strip:
                while n and v[n - 1] == 0:
                    n -= 1
            p[0] = v
            return n
        if self.kind == K_VIEW:
            # 16-byte views: length, then 12 inline bytes or prefix, buffer index, offset
            v = self.offs + r * 16
            n = (<const int32_t *>v)[0]
            if n <= 12:
                p[0] = v + 4
            else:
                a = (<const int32_t *>v)[2]
                if a < 0 or a >= self.nvbufs:
                    raise EncodeError("Arrow view points past its data buffers")
                p[0] = self.vbufs[a] + (<const int32_t *>v)[3]
            return n
        return -1

    cdef Py_ssize_t _get_py(self, Py_ssize_t i, const uint8_t **p) except -2:
        cdef object item = <object>PySequence_Fast_ITEMS(self.seq)[i]
        if item is None:
            return -1
        if not PyBytes_CheckExact(item):
            if not PyObject_CheckBuffer(item):
                raise EncodeError(
                    f"row {i}: must be bytes-like or None, not {type(item).__name__}")
            item = memoryview(item).tobytes()
            self.tmp = item
        p[0] = <const uint8_t *>PyBytes_AS_STRING(item)
        return PyBytes_GET_SIZE(item)


cdef const uint8_t *_addr(object buf) except NULL:
    if buf is None or buf.size == 0:
        return _EMPTY
    return <const uint8_t *><size_t>buf.address


cdef _Col _column(object o, str name):
    cdef _Col c = _Col.__new__(_Col)
    cdef object pa, t
    if _is_arrow(o):
        import pyarrow as pa
        if isinstance(o, pa.ChunkedArray):
            c.chunks = list(o.chunks)
        elif isinstance(o, pa.Array):
            c.chunks = [o]
        else:
            raise EncodeError(f"{name}: expected a pyarrow Array, not {type(o).__name__}")
        t = o.type
        if pa.types.is_binary(t) or pa.types.is_string(t):
            c.kind = K_OFF32
        elif pa.types.is_large_binary(t) or pa.types.is_large_string(t):
            c.kind = K_OFF64
        elif pa.types.is_binary_view(t) or pa.types.is_string_view(t):
            c.kind = K_VIEW
        elif pa.types.is_fixed_size_binary(t):
            c.kind = K_FIXED
            c.width = c.stride = t.byte_width
        elif pa.types.is_null(t):
            c.kind = K_NULL
        else:
            raise EncodeError(f"{name}: unsupported Arrow type {t}")
        c.length = len(o)
        c.chunk = -1
        return c
    if isinstance(o, np.ndarray) and o.dtype.kind == "S":
        if o.ndim != 1:
            raise EncodeError(f"{name}: expected a 1-D array")
        c.kind = K_FIXED
        c.strip = True
        c.width = o.dtype.itemsize
        c.stride = o.strides[0]
        c.length = c.end = len(o)
        c.keep = o
        c.offs = <const uint8_t *><size_t>o.__array_interface__["data"][0]
        return c
    if isinstance(o, (bytes, bytearray, memoryview, str)):
        raise EncodeError(f"{name}: expected a column of values, not one {type(o).__name__}")
    if isinstance(o, np.ndarray) and o.dtype.kind != "O":
        raise EncodeError(f"{name}: unsupported numpy dtype {o.dtype}")
    c.kind = K_PYSEQ
    c.seq = _fast_seq(o, name)
    c.length = PySequence_Fast_GET_SIZE(c.seq)
    return c


cdef object _timestamps(object ts, Py_ssize_t n, int64_t now):
    """timestamps as a contiguous int64 ndarray (null: now), or None for all now."""
    cdef object pa, t, a
    if ts is None:
        return None
    if _is_arrow(ts):
        import pyarrow as pa
        t = ts.type
        if pa.types.is_timestamp(t):
            if t.unit != "ms":
                ts = ts.cast(pa.timestamp("ms", tz=t.tz), safe=False)
            ts = ts.cast(pa.int64())
        elif pa.types.is_integer(t):
            ts = ts.cast(pa.int64())
        else:
            raise EncodeError(f"timestamps: unsupported Arrow type {t}")
        a = ts.fill_null(now).to_numpy()
    else:
        a = np.asarray(ts)
        if a.dtype.kind == "M":
            a = a.astype("datetime64[ms]").view(np.int64)
        elif a.dtype.kind not in "iu":
            raise EncodeError(f"timestamps: expected integers, got dtype {a.dtype}")
    a = np.ascontiguousarray(a, dtype=np.int64)
    if a.ndim != 1 or len(a) != n:
        raise EncodeError(f"timestamps: expected {n} values, got shape {a.shape}")
    if n and a.min() < -1:
        raise EncodeError("timestamps must be >= -1")
    return a


@cython.final
cdef class _HdrCol:
    """Row access to a headers column: Arrow list<struct<key, value>> or a Python list."""

    cdef Py_ssize_t length
    cdef list chunks
    cdef Py_ssize_t chunk
    cdef Py_ssize_t start
    cdef Py_ssize_t end
    cdef const uint8_t *valid
    cdef int64_t bit_off
    cdef const uint8_t *offs
    cdef bint large
    cdef _Col keys
    cdef _Col vals
    cdef object seq   # Python fallback: PySequence_Fast of per-row header lists
    cdef object cur   # Python fallback: the current row's pairs, kept alive while written

    cdef int load(self, Py_ssize_t k) except -1:
        cdef object arr = self.chunks[k]
        cdef list bufs = arr.buffers()
        cdef object items = arr.values
        cdef object t = items.type
        cdef list fields
        cdef int ki = -1, vi = -1, j
        self.chunk = k
        self.start = self.end
        self.end = self.start + len(arr)
        self.bit_off = arr.offset
        self.valid = NULL
        if bufs[0] is not None:
            self.valid = _addr(bufs[0])
        self.offs = _addr(bufs[1]) + self.bit_off * (8 if self.large else 4)
        for j in range(t.num_fields):
            if t.field(j).name == "key":
                ki = j
            elif t.field(j).name == "value":
                vi = j
        if ki < 0 or vi < 0:
            raise EncodeError("headers: the struct needs fields 'key' and 'value'")
        fields = items.flatten()  # applies the struct's own offset and nulls to the children
        import pyarrow as pa
        kt = fields[ki].type
        if not (pa.types.is_string(kt) or pa.types.is_large_string(kt)
                or pa.types.is_string_view(kt)):
            raise EncodeError(f"headers: key must be a string type, not {kt}")
        self.keys = _column(fields[ki], "header keys")
        self.vals = _column(fields[vi], "header values")
        return 0

    cdef Py_ssize_t fill(self, Py_ssize_t i, BatchBuilder b) except -1:
        """Point b's header scratch at row i's headers; their count."""
        cdef Py_ssize_t r, n, j
        cdef int64_t first
        cdef kw_hdr *h
        if self.seq is not None:
            self.cur = <object>PySequence_Fast_ITEMS(self.seq)[i]
            if self.cur is None:
                return 0
            self.cur = _held_headers(b, self.cur, &n)
            return n
        while i >= self.end:
            self.load(self.chunk + 1)
        r = i - self.start
        if self.valid != NULL and not (self.valid[(r + self.bit_off) >> 3] >> ((r + self.bit_off) & 7)) & 1:
            return 0
        if self.large:
            first = (<const int64_t *>self.offs)[r]
            n = <Py_ssize_t>((<const int64_t *>self.offs)[r + 1] - first)
        else:
            first = (<const int32_t *>self.offs)[r]
            n = (<const int32_t *>self.offs)[r + 1] - <Py_ssize_t>first
        if n > b._hdr_cap:
            b._hdrs = <kw_hdr *>b._grow(b._hdrs, &b._hdr_cap, sizeof(kw_hdr), n)
        for j in range(n):
            h = &b._hdrs[j]
            h.klen = self.keys.get(first + j, &h.key)
            if h.klen < 0:
                raise EncodeError(f"row {i}: a header key is null")
            h.vlen = self.vals.get(first + j, &h.val)
        return n


cdef _HdrCol _header_column(object o):
    cdef _HdrCol c = _HdrCol.__new__(_HdrCol)
    cdef object pa
    if _is_arrow(o):
        import pyarrow as pa
        if isinstance(o, pa.ChunkedArray):
            c.chunks = list(o.chunks)
        elif isinstance(o, pa.Array):
            c.chunks = [o]
        else:
            raise EncodeError(f"headers: expected a pyarrow Array, not {type(o).__name__}")
        if pa.types.is_large_list(o.type):
            c.large = True
        elif not pa.types.is_list(o.type) or not pa.types.is_struct(o.type.value_type):
            raise EncodeError(
                f"headers: expected list<struct<key: string, value: binary>>, not {o.type}")
        c.length = len(o)
        c.chunk = -1
        return c
    c.seq = _fast_seq(o, "headers")
    c.length = PySequence_Fast_GET_SIZE(c.seq)
    return c


cdef bint _bin_ready(_Col c, Py_ssize_t i, kw_bin_col *out) except -1:
    """Describe c's loaded chunk at out, loading the one that holds row i first; False when
    c is not Arrow binary with int32 offsets."""
    if c.kind != K_OFF32:
        return False
    while i >= c.end or c.chunk < 0:
        if c.chunk + 1 >= len(c.chunks):
            return False
        c.load(c.chunk + 1)
    out.valid = c.valid
    out.bit_off = c.bit_off
    out.offs = <const int32_t *>c.offs
    out.data = c.data
    out.start = c.start
    out.end = c.end
    return True


cdef bint _hdr_ready(_HdrCol c, Py_ssize_t i, kw_hdr_col *out) except -1:
    """Like _bin_ready for an Arrow headers column (int32 list offsets, binary children)."""
    while i >= c.end:
        c.load(c.chunk + 1)
    if c.large or not _bin_ready(c.keys, 0, &out.keys) or not _bin_ready(c.vals, 0, &out.vals):
        return False
    out.valid = c.valid
    out.bit_off = c.bit_off
    out.offs = <const int32_t *>c.offs
    out.start = c.start
    out.end = c.end
    return True


def build_batches(
    values,
    *,
    keys=None,
    timestamps=None,
    headers=None,
    compression=None,
    max_bytes=1048576,
    base_offset=0,
    producer_id=-1,
    producer_epoch=-1,
    base_sequence=-1,
    is_transactional=False,
    partition_leader_epoch=-1,
    rows=None,
):
    """Encode columns (Arrow, numpy 'S<n>', or sequences) into magic 2 batches of at most
    max_bytes each, byte-identical to appending the rows one by one to BatchBuilder.
    rows: ascending row indices, the only rows written (a gather without a copy)."""
    return list(iter_batches(
        values,
        keys=keys,
        timestamps=timestamps,
        headers=headers,
        compression=compression,
        max_bytes=max_bytes,
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        is_transactional=is_transactional,
        partition_leader_epoch=partition_leader_epoch,
        rows=rows,
    ))


def iter_batches(
    values,
    *,
    keys=None,
    timestamps=None,
    headers=None,
    compression=None,
    max_bytes=1048576,
    base_offset=0,
    producer_id=-1,
    producer_epoch=-1,
    base_sequence=-1,
    is_transactional=False,
    partition_leader_epoch=-1,
    rows=None,
):
    """build_batches' batches one at a time, each encoded when asked for (the columns are
    checked here, before the first)."""
    cdef _RowBatches it = _RowBatches.__new__(_RowBatches)
    cdef Py_ssize_t n
    it.vcol = _column(values, "values")
    n = it.vcol.length
    if keys is not None:
        it.kcol = _column(keys, "keys")
        if it.kcol.length != n:
            raise EncodeError(f"keys: expected {n} rows, got {it.kcol.length}")
    if headers is not None:
        it.hcol = _header_column(headers)
        if it.hcol.length != n:
            raise EncodeError(f"headers: expected {n} rows, got {it.hcol.length}")
    it.now = _now_ms()
    it._set_timestamps(_timestamps(timestamps, n, it.now))
    it.m = n
    if rows is not None:
        it._set_rows(_gather_rows(rows, n))
    it.b = BatchBuilder(
        compression=compression,
        max_bytes=max_bytes,
        base_offset=base_offset,
        partition_leader_epoch=partition_leader_epoch,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        is_transactional=is_transactional,
    )
    it.done = it.m == 0
    if it.done:
        return it
    # room for a full batch, unless that is far more than the data needs
    it.cap = <size_t>it.b._max_bytes + 64  # slack: the C writer may over-copy short strings
    if it.cap > 4 << 20:
        it.cap = 4 << 20
    it.offset = it.b._base_offset
    it.seq = it.b._base_sequence
    it.b._restart(it.offset, it.seq, it.cap)
    it.fast = it.vcol.kind == K_OFF32 and (it.kcol is None or it.kcol.kind == K_OFF32) and (
        it.hcol is None or (it.hcol.seq is None and not it.hcol.large))
    return it


@cython.final
cdef class _RowBatches:
    """The iterator of iter_batches: where the rows stand between two batches."""

    cdef _Col vcol
    cdef _Col kcol
    cdef _HdrCol hcol
    cdef object rows_arr       # holds the memory rp points into
    cdef const int64_t *rp     # the rows written (NULL: all)
    cdef object ts_arr         # holds the memory tsp points into
    cdef const int64_t *tsp    # each row's timestamp (NULL: all now)
    cdef int64_t now
    cdef Py_ssize_t m          # rows to write
    cdef Py_ssize_t i          # the next of them (a position in rows, without rows a row)
    cdef BatchBuilder b
    cdef size_t cap
    cdef int64_t offset        # the open batch's base offset and sequence
    cdef int32_t seq
    cdef bint fast
    cdef bint done

    cdef int _set_timestamps(self, object ts_arr) except -1:
        cdef const int64_t[::1] tsv
        self.ts_arr = ts_arr
        if ts_arr is not None and len(ts_arr):
            tsv = ts_arr
            self.tsp = &tsv[0]
        return 0

    cdef int _set_rows(self, object rows_arr) except -1:
        cdef const int64_t[::1] rowv
        self.rows_arr = rows_arr
        self.m = len(rows_arr)
        if self.m:
            rowv = rows_arr
            self.rp = &rowv[0]
        return 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.done:
            raise StopIteration
        return self._next_batch()

    cdef bytes _next_batch(self):
        """Write rows until the open batch is full or the rows end: that batch."""
        cdef BatchBuilder b = self.b
        cdef Py_ssize_t i = self.i, m = self.m, row, vl, kl, nh
        cdef const int64_t *rp = self.rp
        cdef const int64_t *tsp = self.tsp
        cdef const uint8_t *vp = NULL
        cdef const uint8_t *kp = NULL
        cdef int added
        cdef kw_batch kb
        cdef kw_bin_col cv, ck
        cdef kw_hdr_col ch
        while i < m:
            row = i if rp == NULL else rp[i]
            if self.fast and _bin_ready(self.vcol, row, &cv) and (
                    self.kcol is None or _bin_ready(self.kcol, row, &ck)) and (
                    self.hcol is None or _hdr_ready(self.hcol, row, &ch)):
                # the ordinary rows in C; it stops at the first row left to the code below.
                # It reads Arrow buffers (immutable, held by the columns) and writes b's
                # buffer, which nothing else sees yet: other threads run meanwhile, when the
                # batches are large enough for that to pay.
                kb.buf = b._buf
                kb.len = b._len
                kb.cap = b._cap
                kb.max_bytes = b._max_bytes
                kb.count = b._count
                kb.first_ts = b._first_ts
                kb.max_ts = b._max_ts
                if b._max_bytes >= NOGIL_BATCH_BYTES:
                    with nogil:
                        i = <Py_ssize_t>kw_encode_rows(
                            &kb, &cv, NULL if self.kcol is None else &ck, tsp, self.now,
                            NULL if self.hcol is None else &ch, rp, i, m)
                else:
                    i = <Py_ssize_t>kw_encode_rows(
                        &kb, &cv, NULL if self.kcol is None else &ck, tsp, self.now,
                        NULL if self.hcol is None else &ch, rp, i, m)
                b._len = kb.len
                b._count = kb.count
                b._first_ts = kb.first_ts
                b._max_ts = kb.max_ts
                if i >= m:
                    break
                row = i if rp == NULL else rp[i]
                if kb.full:
                    # row i opens the next batch (what _add would say, without asking it)
                    self.i = i
                    return self._close_batch()
            vl = self.vcol.get(row, &vp)
            kl = -1 if self.kcol is None else self.kcol.get(row, &kp)
            nh = 0 if self.hcol is None else self.hcol.fill(row, b)
            # (on an exception, b's views go with b)
            added = b._add(kp, kl, vp, vl, self.now if tsp == NULL else tsp[row], nh)
            if b._nviews:  # header values from a Python headers column
                b._release_views()
            if not added:
                # full: this row opens the next batch, where it always fits
                self.i = i
                return self._close_batch()
            i += 1
        self.i = i
        self.done = True
        b._built = True
        return b._build_v2()

    cdef bytes _close_batch(self):
        """The full open batch; the next one opened after it."""
        cdef BatchBuilder b = self.b
        cdef bytes batch
        b._built = True
        batch = b._build_v2()
        self.offset += b._count
        self.seq = _next_sequence(self.seq, b._count)
        b._restart(self.offset, self.seq, self.cap)
        return batch


cdef object _gather_rows(object rows, Py_ssize_t n):
    """build_batches' rows as a contiguous int64 array, checked: inside the columns and
    ascending (the columns read their chunks forwards)."""
    cdef object a = np.asarray(rows)
    if a.size and a.dtype.kind not in "iu":
        raise EncodeError(f"rows: expected integer row indices, not {a.dtype}")
    a = np.ascontiguousarray(a, dtype=np.int64)
    if a.ndim != 1:
        raise EncodeError(f"rows: expected a 1-D array of row indices, got shape {a.shape}")
    if len(a):
        if a[0] < 0 or a[len(a) - 1] >= n:
            raise EncodeError(f"rows: indices must be in [0, {n})")
        if len(a) > 1 and (np.diff(a) < 0).any():
            raise EncodeError("rows: indices must ascend")
    return a


# ---- Java's default partitioner ----------------------------------------------------------

cdef int32_t _murmur2(const uint8_t *p, Py_ssize_t n) noexcept nogil:
    """Java Kafka's Utils.murmur2 (seed 0x9747b28c), as its producer hashes record keys."""
    cdef uint32_t m = 0x5BD1E995
    cdef uint32_t h = <uint32_t>0x9747B28C ^ <uint32_t>n
    cdef uint32_t k
    cdef Py_ssize_t i = 0, whole = n - (n & 3)
    while i < whole:
        k = (<uint32_t>p[i] | (<uint32_t>p[i + 1] << 8) | (<uint32_t>p[i + 2] << 16)
             | (<uint32_t>p[i + 3] << 24))
        k *= m
        k ^= k >> 24
        k *= m
        h *= m
        h ^= k
        i += 4
    cdef Py_ssize_t tail = n & 3
    if tail == 3:
        h ^= <uint32_t>p[whole + 2] << 16
    if tail >= 2:
        h ^= <uint32_t>p[whole + 1] << 8
    if tail >= 1:
        h ^= <uint32_t>p[whole]
        h *= m
    h ^= h >> 13
    h *= m
    h ^= h >> 15
    return <int32_t>h


def murmur2(key):
    """Java Kafka's murmur2 hash of one key (a signed 32-bit int)."""
    if type(key) is bytes:  # the producer's per-record path: no buffer export
        return _murmur2(<const uint8_t *>PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key))
    cdef const uint8_t[::1] view
    try:
        view = memoryview(key).cast("B")
    except TypeError:
        raise EncodeError(f"key must be bytes-like or None, not {type(key).__name__}") from None
    cdef Py_ssize_t n = view.shape[0]
    return _murmur2(&view[0] if n else _EMPTY, n)


@cython.boundscheck(False)  # i < n, the length out was made with
@cython.wraparound(False)
def key_partitions(keys, int32_t num_partitions):
    """The partition of each row's key as Java's producer picks it,
    ``(murmur2(key) & 0x7fffffff) % num_partitions``, with -1 for a null key (the caller
    chooses those). ``keys``: a column as build_batches takes it. Returns int32 numpy."""
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    cdef _Col c = _column(keys, "keys")
    cdef Py_ssize_t i, n = c.length
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] parts = out
    cdef const uint8_t *p = NULL
    cdef Py_ssize_t length
    for i in range(n):
        length = c.get(i, &p)
        if length < 0:
            parts[i] = -1
        else:
            parts[i] = (_murmur2(p, length) & 0x7FFFFFFF) % num_partitions
    return out


def group_rows(parts, int32_t num_partitions):
    """The rows of each partition, in their order: (rows, starts), rows an int64 array of
    row indices sorted by partition (stable), partition p's at rows[starts[p]:starts[p+1]].
    ``parts``: each row's partition, an int32 array in [0, num_partitions). A counting sort:
    two passes over parts, where a sort is several."""
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    cdef const int32_t[::1] pv = np.ascontiguousarray(parts, dtype=np.int32)
    cdef Py_ssize_t i, n = pv.shape[0]
    cdef int32_t p
    starts_arr = np.zeros(num_partitions + 1, dtype=np.int64)
    rows_arr = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] starts = starts_arr
    cdef int64_t[::1] rows = rows_arr
    cdef int64_t *at = <int64_t *>malloc((num_partitions + 1) * sizeof(int64_t))
    if at == NULL:
        raise MemoryError()
    cdef bint bad = False
    with nogil:
        for i in range(n):
            p = pv[i]
            if p < 0 or p >= num_partitions:
                bad = True
                break
            starts[p + 1] += 1
        if not bad:
            for p in range(num_partitions):
                starts[p + 1] += starts[p]
            memcpy(at, &starts[0], num_partitions * sizeof(int64_t))
            for i in range(n):
                p = pv[i]
                rows[at[p]] = i
                at[p] += 1
    free(at)
    if bad:
        raise ValueError(f"row {i}: partition {p} is not in [0, {num_partitions})")
    return rows_arr, starts_arr
