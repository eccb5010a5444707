# The Reader and the read side of the plans (decoding).
# Included by _codec.pyx: one extension module, split by topic.

cdef class Reader(Walk):
    cdef Py_buffer view
    cdef bint has_view
    cdef const uint8_t *base
    cdef const uint8_t *p
    cdef const uint8_t *end
    cdef object source
    cdef object mv  # a memoryview of source, made on the first records field
    cdef bint lenient  # a null where the schema has none reads as empty (decode_response)

    def __cinit__(self, object source):
        PyObject_GetBuffer(source, &self.view, PyBUF_SIMPLE)
        self.has_view = True
        self.source = source
        self.base = <const uint8_t *>self.view.buf
        self.p = self.base
        self.end = self.base + self.view.len
        self.mv = None

    def __dealloc__(self):
        if self.has_view:
            PyBuffer_Release(&self.view)

    cdef inline Py_ssize_t offset(self):
        return self.p - self.base

    cdef int need(self, Py_ssize_t n) except -1:
        if n > self.end - self.p:
            raise _Fail(
                TruncatedError,
                f"needs {n} bytes, {self.end - self.p} remain",
                self.offset(),
            )
        return 0

    cdef inline int8_t i8(self) except? -1:
        if self.p >= self.end:
            self.need(1)
        cdef int8_t v = <int8_t>self.p[0]
        self.p += 1
        return v

    cdef inline int16_t i16(self) except? -1:
        if self.end - self.p < 2:
            self.need(2)
        cdef const uint8_t *p = self.p
        self.p += 2
        return <int16_t>((<uint16_t>p[0] << 8) | p[1])

    cdef inline int32_t i32(self) except? -1:
        if self.end - self.p < 4:
            self.need(4)
        cdef const uint8_t *p = self.p
        self.p += 4
        return <int32_t>(
            (<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | p[3]
        )

    cdef inline int64_t i64(self) except? -1:
        if self.end - self.p < 8:
            self.need(8)
        cdef uint64_t v = 0
        cdef int i
        for i in range(8):
            v = (v << 8) | self.p[i]
        self.p += 8
        return <int64_t>v

    cdef inline uint32_t uvarint(self) except? 0xFFFFFFFF:
        cdef uint32_t v
        if self.p < self.end and self.p[0] < 0x80:  # most are one byte
            v = self.p[0]
            self.p += 1
            return v
        return self.uvarint_long()

    cdef uint32_t uvarint_long(self) except? 0xFFFFFFFF:
        cdef uint32_t v = 0
        cdef int shift = 0
        cdef uint8_t b
        cdef const uint8_t *start = self.p
        while True:
            if self.p >= self.end:
                self.p = start
                raise _Fail(TruncatedError, "the input ends inside a varint", self.offset())
            b = self.p[0]
            self.p += 1
            if shift == 28 and b > 0x0F:
                self.p = start
                raise _Fail(CorruptError, "unsigned varint longer than 32 bits", self.offset())
            v |= <uint32_t>(b & 0x7F) << shift
            if not (b & 0x80):
                return v
            shift += 7

    # The length prefix of a string / bytes / array: -1 for null.
    cdef inline Py_ssize_t length(self, bint compact, int width) except -2:
        cdef Py_ssize_t n
        if compact:
            n = <Py_ssize_t>self.uvarint() - 1
        elif width == 2:
            n = self.i16()
        else:
            n = self.i32()
        if n < -1:
            raise _Fail(CorruptError, f"negative length {n}", self.offset())
        return n

    cdef object read_string(self, bint compact, bint nullable):
        cdef Py_ssize_t n = self.length(compact, 2)
        if n < 0:
            return self.null(nullable, "")
        self.need(n)
        cdef PyObject *s = PyUnicode_DecodeUTF8(<const char *>self.p, n, NULL)
        if s == NULL:
            PyErr_Clear()
            raise _Fail(CorruptError, "invalid UTF-8 in string", self.offset())
        self.p += n
        result = <object>s  # the cast takes a reference of its own: drop the one we own
        Py_DECREF(result)
        return result

    cdef object read_bytes(self, bint compact, bint nullable, bint view):
        cdef Py_ssize_t n = self.length(compact, 4)
        if n < 0:
            return self.null(nullable, b"")
        self.need(n)
        cdef Py_ssize_t start = self.offset()
        self.p += n
        if view:
            if self.mv is None:
                self.mv = memoryview(self.source).cast("B")
            return kw_subview(self.mv, start, n)
        return PyBytes_FromStringAndSize(<const char *>self.base + start, n)

    cdef object null(self, bint nullable, object empty):
        if nullable:
            return None
        if self.lenient:
            return empty
        raise _Fail(CorruptError, "null in a non-nullable field", self.offset())

    cdef object read_uuid(self):
        self.need(16)
        cdef const uint8_t *p = self.p
        cdef uint64_t hi = 0, lo = 0
        cdef int i
        for i in range(8):
            hi = (hi << 8) | p[i]
            lo = (lo << 8) | p[8 + i]
        self.p += 16
        if hi == 0 and lo == 0:
            return ZERO_UUID
        # What UUID(int=...) does, minus its argument checks and attribute lookups.
        u = kw_alloc(_UUID)
        kw_set_slot(u, _UUID_INT,
                    (PyLong_FromUnsignedLongLong(hi) << 64) | PyLong_FromUnsignedLongLong(lo))
        kw_set_slot(u, _UUID_IS_SAFE, _SAFE_UNKNOWN)
        return u

    cdef object read_scalar(self, int kind, bint compact, bint nullable):
        if kind == K_INT32:
            return PyLong_FromLong(self.i32())
        if kind == K_STRING:
            return self.read_string(compact, nullable)
        if kind == K_INT16:
            return PyLong_FromLong(self.i16())
        if kind == K_INT64:
            return PyLong_FromLongLong(self.i64())
        if kind == K_BOOL:
            return self.i8() != 0
        if kind == K_INT8:
            return PyLong_FromLong(self.i8())
        if kind == K_UUID:
            return self.read_uuid()
        if kind == K_UINT16:
            return PyLong_FromLong(<uint16_t>self.i16())
        if kind == K_UINT32:
            return PyLong_FromLongLong(<uint32_t>self.i32())
        if kind == K_FLOAT64:
            self.need(8)
            self.p += 8
            return PyFloat_FromDouble(kw_load_f64(self.p - 8))
        if kind == K_BYTES:
            return self.read_bytes(compact, nullable, False)
        if kind == K_RECORDS:
            return self.read_bytes(compact, nullable, True)
        raise AssertionError(f"unknown field kind {kind}")


cdef object read_op(Reader r, Op *op):
    cdef Py_ssize_t n, i
    cdef int d
    cdef Plan sub
    cdef object item
    if op.kind == K_ARRAY:
        n = r.length(op.compact, 4)
        if n <= 0:  # null, or empty (aborted transactions, offline replicas: the usual case)
            return r.null(op.nullable, []) if n < 0 else []
        if op.elem == K_STRUCT:
            sub = <Plan>op.plan
            r.need(n * max(sub.min_size, 1))  # before allocating n items
        else:
            r.need(n * _fixed_size(op.elem, op.compact))
        result = PyList_New(n)
        d = r.push(NULL, AT_ITEM)
        if op.elem == K_STRUCT:
            for i in range(n):
                r.idx[d] = i
                item = read_struct(r, sub)
                Py_INCREF(item)
                PyList_SET_ITEM(result, i, item)
        elif op.elem == K_INT32:  # broker ids, partitions, replicas: the common case
            for i in range(n):
                item = PyLong_FromLong(r.i32())  # r.need above covers all n
                Py_INCREF(item)
                PyList_SET_ITEM(result, i, item)
        else:
            for i in range(n):
                r.idx[d] = i
                item = r.read_scalar(op.elem, op.compact, False)
                Py_INCREF(item)
                PyList_SET_ITEM(result, i, item)
        r.depth -= 1
        return result
    if op.kind == K_STRUCT:
        if op.nullable and r.i8() < 0:
            return None
        return read_struct(r, <Plan>op.plan)
    return r.read_scalar(op.kind, op.compact, op.nullable)


cdef object read_struct(Reader r, Plan plan):
    obj = kw_alloc(plan.cls)
    cdef Py_ssize_t i
    cdef int d = r.push(<PyObject *>plan, AT_FIELD)
    cdef Op *op
    for i in range(plan.nops):
        r.idx[d] = i
        op = &plan.ops[i]
        if op.kind == K_INT32:
            kw_set_slot(obj, op.offset, PyLong_FromLong(r.i32()))
        elif op.kind == K_INT16:
            kw_set_slot(obj, op.offset, PyLong_FromLong(r.i16()))
        elif op.kind == K_STRING:
            kw_set_slot(obj, op.offset, r.read_string(op.compact, op.nullable))
        elif op.kind == K_INT64:
            kw_set_slot(obj, op.offset, PyLong_FromLongLong(r.i64()))
        elif op.kind == K_RECORDS:
            kw_set_slot(obj, op.offset, r.read_bytes(op.compact, op.nullable, True))
        elif op.kind == K_ARRAY and op.compact and r.p < r.end and r.p[0] == 1:
            r.p += 1  # an empty compact array (length 0 + 1): no call into read_op
            kw_set_slot(obj, op.offset, [])
        else:
            kw_set_slot(obj, op.offset, read_op(r, op))
    if plan.absent:
        for entry in plan.absent:
            default = entry[2]
            if default is UNSET:
                if is_lazy(entry[1]):
                    continue  # left empty: LazyStruct makes it on first access
                default = []
            kw_set_slot(obj, entry[0], default)
    # an empty tagged-field section (one zero byte) where no absent tagged field needs a
    # default set (none, or all lazy structs) is stepped over without read_tagged
    if plan.flexible and not (not plan.tfill and r.p < r.end and r.p[0] == 0):
        r.kinds[d] = AT_TAGGED
        r.idx[d] = plan.ntops  # not inside any tagged field yet
        read_tagged(r, plan, obj, d)
    else:
        r.p += plan.flexible
        kw_set_slot(obj, plan.unknown_offset, None)
    r.depth -= 1
    return obj


cdef int read_tagged(Reader r, Plan plan, object obj, int d) except -1:
    cdef Py_ssize_t i, k, n = r.uvarint()
    cdef uint32_t tag, size
    cdef const uint8_t *end
    cdef const uint8_t *stop
    cdef list unknown = None
    for i in range(plan.ntops if plan.tfill else 0):
        default = plan.tdefaults[i]
        if default is UNSET:
            if plan.tops[i].kind == K_STRUCT:
                continue  # left empty: LazyStruct makes it on first access
            default = []
        kw_set_slot(obj, plan.tops[i].offset, default)
    r.need(n)  # each tagged field takes at least a byte
    for k in range(n):
        tag = r.uvarint()
        size = r.uvarint()
        r.need(size)
        for i in range(plan.ntops):
            if <uint32_t>plan.tops[i].tag == tag:
                break
        else:
            if unknown is None:
                unknown = []
            unknown.append((tag, PyBytes_FromStringAndSize(<const char *>r.p, size)))
            r.p += size
            continue
        end = r.end
        stop = r.p + size
        r.end = stop  # the tagged field may not read past its own size
        r.idx[d] = i
        kw_set_slot(obj, plan.tops[i].offset, read_op(r, &plan.tops[i]))
        if r.p != stop:
            raise _Fail(
                CorruptError, f"tagged field {tag} has {stop - r.p} bytes left over", r.offset()
            )
        r.end = end
    kw_set_slot(obj, plan.unknown_offset, unknown)
    return 0
