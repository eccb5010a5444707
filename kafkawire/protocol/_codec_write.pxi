# The Writer and the write side of the plans (encoding).
# Included by _codec.pyx: one extension module, split by topic.

cdef class Writer(Walk):
    cdef uint8_t *buf
    cdef Py_ssize_t len
    cdef Py_ssize_t cap
    cdef bint drop  # drop fields the version lacks instead of refusing non-default values
    # encode_request(parts=True): large records (bytes, immutable) are referenced where they
    # go instead of copied, as (offset in buf, records) pairs; a socket sends the pieces
    cdef list refs
    cdef Py_ssize_t referenced  # their bytes
    cdef int in_tagged  # a tagged field's value slides once written: no reference inside

    def __cinit__(self, Py_ssize_t capacity=256):
        self.buf = <uint8_t *>PyMem_Malloc(capacity)
        if self.buf == NULL:
            raise MemoryError()
        self.cap = capacity
        self.len = 0

    def __dealloc__(self):
        PyMem_Free(self.buf)

    cdef int grow(self, Py_ssize_t n) except -1:
        cdef Py_ssize_t cap = self.cap * 2
        while cap < self.len + n:
            cap *= 2
        cdef uint8_t *buf = <uint8_t *>PyMem_Realloc(self.buf, cap)
        if buf == NULL:
            raise MemoryError()
        self.buf = buf
        self.cap = cap
        return 0

    cdef inline uint8_t *take(self, Py_ssize_t n) except NULL:
        if self.len + n > self.cap:
            self.grow(n)
        cdef uint8_t *p = self.buf + self.len
        self.len += n
        return p

    cdef inline int u8(self, uint8_t v) except -1:
        self.take(1)[0] = v
        return 0

    cdef inline int u16(self, uint16_t v) except -1:
        cdef uint8_t *p = self.take(2)
        p[0] = v >> 8
        p[1] = <uint8_t>v
        return 0

    cdef inline int u32(self, uint32_t v) except -1:
        cdef uint8_t *p = self.take(4)
        p[0] = v >> 24
        p[1] = <uint8_t>(v >> 16)
        p[2] = <uint8_t>(v >> 8)
        p[3] = <uint8_t>v
        return 0

    cdef inline int u64(self, uint64_t v) except -1:
        cdef uint8_t *p = self.take(8)
        cdef int i
        for i in range(7, -1, -1):
            p[i] = <uint8_t>v
            v >>= 8
        return 0

    cdef int uvarint(self, uint32_t v) except -1:
        while v >= 0x80:
            self.u8(<uint8_t>(v | 0x80))
            v >>= 7
        self.u8(<uint8_t>v)
        return 0

    cdef inline int raw(self, const void *data, Py_ssize_t n) except -1:
        memcpy(self.take(n), data, n)
        return 0

    cdef int length(self, Py_ssize_t n, bint compact, int width) except -1:
        if compact:
            return self.uvarint(<uint32_t>(n + 1))
        if width == 2:
            if n > 0x7FFF:
                raise _Fail(EncodeError, f"{n} bytes is too long for a string")
            return self.u16(<uint16_t>n)
        if n > 0x7FFFFFFF:
            raise _Fail(EncodeError, f"length {n} is too large")
        return self.u32(<uint32_t>n)

    cdef int write_null(self, bint compact, int width, bint nullable) except -1:
        if not nullable:
            raise _Fail(EncodeError, "None in a field that is not nullable at this version")
        if compact:
            return self.u8(0)
        return self.u16(0xFFFF) if width == 2 else self.u32(0xFFFFFFFF)

    cdef int write_scalar(self, int kind, bint compact, bint nullable, object v) except -1:
        cdef Py_ssize_t n
        cdef const char *s
        cdef Py_buffer view
        if kind == K_STRING:
            if v is None:
                return self.write_null(compact, 2, nullable)
            if not PyUnicode_Check(v):
                raise _Fail(EncodeError, f"expected str, got {type(v).__name__}")
            s = PyUnicode_AsUTF8AndSize(v, &n)
            if s == NULL:  # lone surrogates have no UTF-8
                PyErr_Clear()
                raise _Fail(EncodeError, "string is not encodable as UTF-8")
            self.length(n, compact, 2)
            return self.raw(s, n)
        if kind == K_BYTES or kind == K_RECORDS:
            if v is None:
                return self.write_null(compact, 4, nullable)
            if PyBytes_CheckExact(v):
                n = len(<bytes>v)
                self.length(n, compact, 4)
                if (kind == K_RECORDS and self.refs is not None and n >= REFERENCED_RECORDS
                        and not self.in_tagged):
                    self.refs.append((self.len, v))
                    self.referenced += n
                    return 0
                return self.raw(PyBytes_AS_STRING(v), n)
            try:
                PyObject_GetBuffer(v, &view, PyBUF_SIMPLE)
            except TypeError:
                raise _Fail(EncodeError, f"expected bytes-like, got {type(v).__name__}") from None
            try:
                self.length(view.len, compact, 4)
                self.raw(view.buf, view.len)
            finally:
                PyBuffer_Release(&view)
            return 0
        if kind == K_BOOL:
            # True/False (or the ints 0 and 1): a str or a None must not turn into a flag
            if v is True or v is False or (PyLong_Check(v) and (v == 0 or v == 1)):
                return self.u8(1 if v else 0)
            raise _Fail(EncodeError, f"expected bool, got {type(v).__name__}")
        if kind == K_FLOAT64:
            if not isinstance(v, (float, int)):
                raise _Fail(EncodeError, f"expected float, got {type(v).__name__}")
            kw_store_f64(self.take(8), PyFloat_AsDouble(v))
            return 0
        if kind == K_UUID:
            if not isinstance(v, _UUID):
                raise _Fail(EncodeError, f"expected uuid.UUID, got {type(v).__name__}")
            return self.raw(PyBytes_AS_STRING(v.bytes), 16)
        cdef long long x = as_int(v, kind)
        if kind == K_INT32 or kind == K_UINT32:
            return self.u32(<uint32_t>x)
        if kind == K_INT16 or kind == K_UINT16:
            return self.u16(<uint16_t>x)
        if kind == K_INT64:
            return self.u64(<uint64_t>x)
        return self.u8(<uint8_t>x)

    cdef bytes result(self, Py_ssize_t start=0):
        return PyBytes_FromStringAndSize(<const char *>self.buf + start, self.len - start)

    cdef list pieces(self):
        """The frame as parts: what was written, cut where the referenced records go."""
        cdef list out = []
        cdef Py_ssize_t at = 0, cut
        for cut, records in self.refs:
            if cut > at:
                out.append(PyBytes_FromStringAndSize(<const char *>self.buf + at, cut - at))
            out.append(records)
            at = cut
        if self.len > at:  # nothing after the last records: no empty piece
            out.append(self.result(at))
        return out


cdef long long as_int(object v, int kind) except? -1:
    cdef int overflow = 0
    cdef long long x, lo, hi
    if not PyLong_Check(v):
        raise _Fail(EncodeError, f"expected int, got {type(v).__name__}")
    x = PyLong_AsLongLongAndOverflow(v, &overflow)
    if kind == K_INT8:
        lo, hi = -0x80, 0x7F
    elif kind == K_INT16:
        lo, hi = -0x8000, 0x7FFF
    elif kind == K_INT32:
        lo, hi = -0x80000000, 0x7FFFFFFF
    elif kind == K_UINT16:
        lo, hi = 0, 0xFFFF
    elif kind == K_UINT32:
        lo, hi = 0, 0xFFFFFFFF
    else:
        lo, hi = INT64_MIN, INT64_MAX
    if overflow or x < lo or x > hi:
        raise _Fail(EncodeError, f"{v} is out of range [{lo}, {hi}]")
    return x


cdef int write_op(Writer w, Op *op, object v) except -1:
    cdef Py_ssize_t i, n
    cdef int d
    cdef Plan sub
    if op.kind == K_ARRAY:
        if v is None:
            return w.write_null(op.compact, 4, op.nullable)
        if isinstance(v, (str, bytes)):
            raise _Fail(EncodeError, f"expected a list, got {type(v).__name__}")
        try:
            seq = PySequence_Fast(v, "expected a list")
        except TypeError:
            raise _Fail(EncodeError, f"expected a list, got {type(v).__name__}") from None
        n = PySequence_Fast_GET_SIZE(seq)
        w.length(n, op.compact, 4)
        d = w.push(NULL, AT_ITEM)
        if op.elem == K_STRUCT:
            sub = <Plan>op.plan
            for i in range(n):
                w.idx[d] = i
                write_struct(w, sub, <object>PySequence_Fast_GET_ITEM(seq, i))
        else:
            for i in range(n):
                w.idx[d] = i
                w.write_scalar(op.elem, op.compact, False, <object>PySequence_Fast_GET_ITEM(seq, i))
        w.depth -= 1
        return 0
    if op.kind == K_STRUCT:
        if op.nullable:
            if v is None:
                return w.u8(0xFF)
            w.u8(1)
        elif v is None:
            raise _Fail(EncodeError, "None in a field that is not nullable at this version")
        return write_struct(w, <Plan>op.plan, v)
    return w.write_scalar(op.kind, op.compact, op.nullable, v)


cdef inline object get_field(object obj, Py_ssize_t offset, str name):
    cdef PyObject *v = kw_get_slot(obj, offset)
    if v == NULL:
        descr = type(obj).__dict__.get(name)
        if type(descr) is LazyStruct:
            return descr.__get__(obj, type(obj))
        raise _Fail(EncodeError, f"field {name} is not set")
    return <object>v


cdef int write_struct(Writer w, Plan plan, object obj) except -1:
    if type(obj) is not plan.cls:
        raise _Fail(EncodeError, f"expected {plan.name}, got {type(obj).__qualname__}")
    cdef Py_ssize_t i
    cdef int d = w.push(<PyObject *>plan, AT_FIELD)
    for i in range(plan.nops):
        w.idx[d] = i
        write_op(w, &plan.ops[i], get_field(obj, plan.ops[i].offset, plan.names[i]))
    w.idx[d] = plan.nops  # past the regular fields: the path names no field of this struct
    if plan.absent and not w.drop:
        for entry in plan.absent:
            if entry[4]:
                continue  # ignorable: dropped quietly
            if kw_get_slot(obj, entry[0]) == NULL and is_lazy(entry[1]):
                continue  # an untouched LazyStruct slot: the default
            v = get_field(obj, entry[0], entry[5])
            if v is not entry[2] and v != entry[3]:
                fail = _Fail(EncodeError, "this version lacks the field, so it must keep its "
                             f"default {entry[3]!r}, not {v!r}")
                fail.path.append(entry[5])
                raise fail
    if plan.flexible:
        w.kinds[d] = AT_TAGGED
        w.idx[d] = plan.ntops
        write_tagged(w, plan, obj, d)
    w.depth -= 1
    return 0


cdef int write_tagged(Writer w, Plan plan, object obj, int d) except -1:
    cdef Py_ssize_t i, k = 0, count, start, size, nk = 0
    cdef list values = None
    cdef uint8_t tmp[5]
    cdef Py_ssize_t width
    cdef uint32_t u
    unknown = get_field(obj, plan.unknown_offset, "_unknown_tagged_fields")
    if unknown:
        unknown = sorted(unknown)
        nk = len(unknown)
    count = nk
    if plan.ntops:
        values = []
        for i in range(plan.ntops):
            if plan.tops[i].kind == K_STRUCT and plan.tdefaults[i] is UNSET:
                if kw_get_slot(obj, plan.tops[i].offset) == NULL:
                    values.append(UNSET)  # an untouched LazyStruct slot: the default
                    continue
                v = get_field(obj, plan.tops[i].offset, plan.tnames[i])
                is_default = is_default_struct((<Plan>plan.tops[i].plan).cls, v)
            else:
                v = get_field(obj, plan.tops[i].offset, plan.tnames[i])
                is_default = v is plan.tdefaults[i] or v == plan.tcompare[i]
            if is_default:
                values.append(UNSET)
            else:
                values.append(v)
                count += 1
    w.uvarint(<uint32_t>count)
    if count == 0:
        return 0
    i = 0
    # Merge the known and unknown tagged fields in ascending tag order.
    while True:
        while values is not None and i < plan.ntops and values[i] is UNSET:
            i += 1
        known_left = values is not None and i < plan.ntops
        if k < nk and (not known_left or unknown[k][0] < plan.tops[i].tag):
            tag, data = unknown[k]
            data = bytes(data)
            w.uvarint(<uint32_t>tag)
            w.uvarint(<uint32_t>len(data))
            w.raw(PyBytes_AS_STRING(data), len(data))
            k += 1
            continue
        if not known_left:
            return 0
        w.uvarint(<uint32_t>plan.tops[i].tag)
        start = w.len
        w.idx[d] = i
        w.in_tagged += 1
        write_op(w, &plan.tops[i], values[i])
        w.in_tagged -= 1
        # Now that its size is known, slide the value up to make room for the size varint.
        size = w.len - start
        u = <uint32_t>size
        width = 0
        while u >= 0x80:
            tmp[width] = <uint8_t>(u | 0x80)
            u >>= 7
            width += 1
        tmp[width] = <uint8_t>u
        width += 1
        w.take(width)
        memmove(w.buf + start + width, w.buf + start, size)
        memcpy(w.buf + start, tmp, width)
        i += 1
