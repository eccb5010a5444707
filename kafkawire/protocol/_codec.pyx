# The message interpreter: walks a per-(class, version) plan of the schema's fields over a
# bounds-checked read cursor or a growable write buffer.  Plans are compiled once, on first
# use, from the Field tuples the generator put on each class (``_kw_fields``).
#
# Decoded objects are allocated with the class's tp_alloc and their slots written directly at
# the offsets of the slot descriptors: no __init__ call, no attribute lookup per field.

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_CheckExact, PyBytes_FromStringAndSize
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.float cimport PyFloat_AsDouble, PyFloat_FromDouble
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport (
    PyLong_Check,
    PyLong_FromLong,
    PyLong_FromLongLong,
    PyLong_FromUnsignedLongLong,
)
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from cpython.sequence cimport PySequence_Fast
from libc.stdint cimport (
    INT64_MAX, INT64_MIN, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
)
from libc.string cimport memcpy, memmove

import uuid as _uuid

from kafkawire.errors import CorruptError, EncodeError, TruncatedError, UnsupportedError
from kafkawire.protocol import _base

# C-level copies: the hot paths compare with these per field, and a module global would be a
# dict lookup each time.
cdef object UNSET = _base.UNSET
cdef object ZERO_UUID = _base.ZERO_UUID

cdef extern from "varint.h" nogil:
    double kw_load_f64(const uint8_t *p)
    void kw_store_f64(uint8_t *p, double d)

cdef extern from "pyobject.h":
    object kw_alloc(object tp)
    Py_ssize_t kw_slot_offset(object descr)
    void kw_set_slot(object obj, Py_ssize_t off, object v)
    PyObject *kw_get_slot(object obj, Py_ssize_t off)
    object kw_subview(object mv, Py_ssize_t start, Py_ssize_t n)
    PyObject *PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size)  # NULL: error set
    bint PyUnicode_Check(object o)
    long long PyLong_AsLongLongAndOverflow(object o, int *overflow) except? -1
    PyObject *PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)  # borrowed
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    void PyErr_Clear()
    int PyGC_Disable()
    int PyGC_Enable()

# Field kinds: the numbers of kafkawire/protocol/_base.py.
DEF K_BOOL = 1
DEF K_INT8 = 2
DEF K_INT16 = 3
DEF K_INT32 = 4
DEF K_INT64 = 5
DEF K_UINT16 = 6
DEF K_UINT32 = 7
DEF K_FLOAT64 = 8
DEF K_UUID = 9
DEF K_STRING = 10
DEF K_BYTES = 11
DEF K_RECORDS = 12
DEF K_STRUCT = 13
DEF K_ARRAY = 14

cdef object _UUID = _uuid.UUID
cdef object _SAFE_UNKNOWN = _uuid.SafeUUID.unknown
cdef Py_ssize_t _UUID_INT = kw_slot_offset(_UUID.__dict__["int"])
cdef Py_ssize_t _UUID_IS_SAFE = kw_slot_offset(_UUID.__dict__["is_safe"])


class _Fail(Exception):
    """Internal: a failure on its way out; the entry point names the field (see Walk).

    ``path`` holds names to append to the walk's position (a field the version lacks).
    """

    def __init__(self, cls, reason, offset=None):
        self.cls = cls
        self.reason = reason
        self.offset = offset
        self.path = []


DEF MAX_DEPTH = 64  # the schemas nest a few levels; arrays add one each
DEF AT_FIELD = 0
DEF AT_TAGGED = 1
DEF AT_ITEM = 2


cdef class Walk:
    """Where a read or write is, kept as a stack that a failure leaves in place.

    The hot loops store an index per field or item (no try/except); when something fails, the
    entry point turns the stack into the field path of the error.
    """

    cdef int depth
    cdef PyObject *plans[MAX_DEPTH]
    cdef Py_ssize_t idx[MAX_DEPTH]
    cdef int kinds[MAX_DEPTH]

    cdef inline int push(self, PyObject *plan, int kind) except -1:
        if self.depth >= MAX_DEPTH - 1:
            raise _Fail(CorruptError, "structs nested too deeply")
        self.depth += 1
        self.plans[self.depth] = plan
        self.kinds[self.depth] = kind
        self.idx[self.depth] = 0
        return self.depth

    cdef str where(self, list extra):
        cdef list parts = []
        cdef int d
        cdef Plan plan
        for d in range(1, self.depth + 1):
            if self.kinds[d] == AT_ITEM:
                parts.append(f"[{self.idx[d]}]")
                continue
            plan = <Plan>self.plans[d]
            names = plan.names if self.kinds[d] == AT_FIELD else plan.tnames
            if self.idx[d] < len(names):
                parts.append("." + names[self.idx[d]])
        parts.extend("." + p for p in extra)
        return "".join(parts)

    cdef object error(self, object fail, str root):
        where = root + self.where(fail.path)
        self.depth = 0
        if fail.cls is EncodeError:
            return EncodeError(f"{fail.reason} (field {where})")
        return fail.cls(fail.reason, offset=fail.offset, field=where)


# ---------------------------------------------------------------------------------------------
# Plans

cdef struct Op:
    int kind
    int elem  # ARRAY: the element's kind
    bint nullable
    bint compact
    Py_ssize_t offset  # of the slot in the object
    PyObject *plan  # STRUCT / ARRAY of STRUCT: the element's Plan (kept alive by Plan.subplans)
    int32_t tag


cdef dict _plans = {}


cdef class Plan:
    cdef object cls
    cdef str name
    cdef bint flexible
    cdef Op *ops
    cdef Py_ssize_t nops
    cdef list names
    cdef Op *tops  # tagged fields, ascending tag
    cdef Py_ssize_t ntops
    cdef list tnames
    cdef list tdefaults  # per tagged field: the default (UNSET: make a fresh one)
    cdef bint tfill  # whether some tagged field, when absent, needs its default set (not lazy)
    cdef list tcompare  # per tagged field: the value it is compared with to decide writing it
    # (offset, Field, default, value compared with, ignorable, attr) per field the version lacks
    cdef list absent
    cdef Py_ssize_t unknown_offset
    cdef Py_ssize_t min_size  # the fewest bytes an encoding of this struct takes
    cdef list subplans

    def __cinit__(self):
        self.ops = NULL
        self.tops = NULL

    def __dealloc__(self):
        PyMem_Free(self.ops)
        PyMem_Free(self.tops)

    def __repr__(self):
        return f"<Plan {self.name} {self.names} tagged={self.tnames}>"


cdef Py_ssize_t _fixed_size(int kind, bint compact):
    if kind == K_BOOL or kind == K_INT8:
        return 1
    if kind == K_INT16 or kind == K_UINT16:
        return 2
    if kind == K_INT32 or kind == K_UINT32:
        return 4
    if kind == K_INT64 or kind == K_FLOAT64:
        return 8
    if kind == K_UUID:
        return 16
    if kind == K_STRING:
        return 1 if compact else 2
    return 1 if compact else 4  # bytes, records, arrays


cdef dict _default_layouts = {}  # struct class -> (slot offsets and defaults, unknown's offset)


cdef class LazyStruct:
    """The slot of a field whose default is a fresh struct (e.g. FetchResponse's three tagged
    structs per partition). Decoding leaves the slot empty when the field is absent and the
    default struct is made on first access, which saves three objects per partition."""

    cdef readonly Py_ssize_t offset
    cdef readonly object struct_cls
    cdef readonly str name

    def __init__(self, Py_ssize_t offset, object struct_cls, str name):
        self.offset = offset
        self.struct_cls = struct_cls
        self.name = name

    def __get__(self, obj, objtype):
        if obj is None:
            return self
        cdef PyObject *v = kw_get_slot(obj, self.offset)
        if v != NULL:
            return <object>v
        value = new_default(self.struct_cls)
        kw_set_slot(obj, self.offset, value)
        return value

    def __set__(self, obj, value):
        kw_set_slot(obj, self.offset, value)

    def __delete__(self, obj):
        raise AttributeError(f"field {self.name} cannot be deleted")


cdef inline bint is_lazy(object field):
    return field.kind == K_STRUCT and field.default is UNSET


cdef Py_ssize_t slot_offset(object cls, str attr) except -2:
    descr = cls.__dict__[attr]
    if type(descr) is LazyStruct:
        return (<LazyStruct>descr).offset
    return kw_slot_offset(descr)


def _install_lazy_structs(classes):
    """Give every struct-valued field with a fresh-struct default a LazyStruct slot."""
    seen = set()
    todo = list(classes)
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for f in cls._kw_fields:
            if f.struct is not None:
                todo.append(f.struct)
            if is_lazy(f) and type(cls.__dict__[f.attr]) is not LazyStruct:
                setattr(cls, f.attr, LazyStruct(slot_offset(cls, f.attr), f.struct, f.attr))


cdef tuple default_layout(object cls):
    layout = _default_layouts.get(cls)
    if layout is None:
        # (slot offset, default, struct class or None for a list) per field
        layout = (
            [(slot_offset(cls, f.attr), f.default,
              None if f.kind == K_ARRAY else f.struct) for f in cls._kw_fields],
            kw_slot_offset(cls.__dict__["_unknown_tagged_fields"]),
        )
        _default_layouts[cls] = layout
    return <tuple>layout


cdef bint is_default_struct(object cls, object obj) except -1:
    """obj == a default instance of cls, without making one or running Struct.__eq__ (the
    encoder asks this of every tagged struct field, e.g. three per Fetch partition)."""
    if type(obj) is not cls:
        return False
    layout = default_layout(cls)
    cdef tuple entry
    cdef PyObject *slot
    for entry in <list>layout[0]:
        slot = kw_get_slot(obj, <Py_ssize_t>entry[0])
        default = entry[1]
        if slot == NULL:
            if default is UNSET and entry[2] is not None:
                continue  # a LazyStruct slot never touched: the default
            return False
        v = <object>slot
        if default is UNSET:
            if entry[2] is None:
                if type(v) is not list or len(<list>v) != 0:
                    return False
            elif not is_default_struct(entry[2], v):
                return False
        elif v is not default and not (v == default):
            return False
    slot = kw_get_slot(obj, <Py_ssize_t>layout[1])
    return slot == NULL or not <object>slot


cdef object new_default(object cls):
    """A default instance of a generated struct, made as its __init__ would make it but
    without running Python code: absent tagged structs get one per decoded struct."""
    layout = default_layout(cls)
    obj = kw_alloc(cls)
    cdef tuple entry
    for entry in <list>layout[0]:
        default = entry[1]
        if default is UNSET:
            if entry[2] is not None:
                continue  # a LazyStruct slot: made on first access
            default = []
        kw_set_slot(obj, <Py_ssize_t>entry[0], default)
    kw_set_slot(obj, <Py_ssize_t>layout[1], None)
    return obj


cdef object _fresh(object field):
    """A new default value for a list or struct field whose default is UNSET."""
    return [] if field.kind == K_ARRAY else new_default(field.struct)


cdef void _fill_op(Plan plan, Op *op, object f, int version, bint flexible) except *:
    op.kind = f.kind
    op.elem = f.elem_kind
    op.nullable = f.nullable[0] <= version <= f.nullable[1]
    flex = f.flexible
    op.compact = (flex[0] <= version <= flex[1]) if flex is not None else flexible
    op.offset = slot_offset(plan.cls, f.attr)
    op.tag = f.tag
    op.plan = NULL
    if f.struct is not None:
        sub = get_plan(f.struct, version, flexible)
        plan.subplans.append(sub)
        op.plan = <PyObject *>sub


cdef Plan get_plan(object cls, int version, bint flexible):
    key = (cls, version)
    found = _plans.get(key)
    if found is not None:
        return <Plan>found
    cdef Plan plan = Plan()
    plan.cls = cls
    plan.name = cls.__qualname__
    plan.flexible = flexible
    plan.subplans = []
    plan.names = []
    plan.tnames = []
    plan.tdefaults = []
    plan.tcompare = []
    plan.absent = []
    plan.unknown_offset = kw_slot_offset(cls.__dict__["_unknown_tagged_fields"])
    regular = []
    tagged = []
    for f in cls._kw_fields:
        if not (f.versions[0] <= version <= f.versions[1]):
            default = f.default
            compare = _fresh(f) if default is UNSET else default
            plan.absent.append(
                (slot_offset(cls, f.attr), f, default, compare, f.ignorable, f.attr)
            )
        elif flexible and f.tag >= 0 and f.tagged[0] <= version <= f.tagged[1]:
            tagged.append(f)
        else:
            regular.append(f)
    tagged.sort(key=lambda f: f.tag)
    plan.nops = len(regular)
    plan.ntops = len(tagged)
    plan.ops = <Op *>PyMem_Malloc(max(plan.nops, 1) * sizeof(Op))
    plan.tops = <Op *>PyMem_Malloc(max(plan.ntops, 1) * sizeof(Op))
    if plan.ops == NULL or plan.tops == NULL:
        raise MemoryError()
    plan.min_size = 1 if flexible else 0
    cdef Py_ssize_t i
    cdef Op *op
    for i, f in enumerate(regular):
        op = &plan.ops[i]
        _fill_op(plan, op, f, version, flexible)
        plan.names.append(f.attr)
        if op.kind == K_STRUCT:
            plan.min_size += 1 if op.nullable else (<Plan>op.plan).min_size
        else:
            plan.min_size += _fixed_size(op.kind, op.compact)
    for i, f in enumerate(tagged):
        _fill_op(plan, &plan.tops[i], f, version, flexible)
        plan.tnames.append(f.attr)
        plan.tdefaults.append(f.default)
        plan.tfill = plan.tfill or not is_lazy(f)
        plan.tcompare.append(_fresh(f) if f.default is UNSET else f.default)
    _plans[key] = plan
    return plan


cdef Plan message_plan(object cls, int version):
    try:
        versions = cls.valid_versions
    except AttributeError:
        raise TypeError(f"not a kafkawire message class: {cls!r}") from None
    if version not in versions:
        raise UnsupportedError(
            f"{cls.__qualname__} has no version {version} (valid: "
            f"{versions.start}-{versions.stop - 1})"
        )
    return get_plan(cls, version, version in cls.flexible_versions)


# ---------------------------------------------------------------------------------------------
# Reading

cdef class Reader(Walk):
    cdef Py_buffer view
    cdef bint has_view
    cdef const uint8_t *base
    cdef const uint8_t *p
    cdef const uint8_t *end
    cdef object source
    cdef object mv  # a memoryview of source, made on the first records field

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
            return self.null(nullable)
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
            return self.null(nullable)
        self.need(n)
        cdef Py_ssize_t start = self.offset()
        self.p += n
        if view:
            if self.mv is None:
                self.mv = memoryview(self.source).cast("B")
            return kw_subview(self.mv, start, n)
        return PyBytes_FromStringAndSize(<const char *>self.base + start, n)

    cdef object null(self, bint nullable):
        if not nullable:
            raise _Fail(CorruptError, "null in a non-nullable field", self.offset())
        return None

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
            return r.null(op.nullable) if n < 0 else []
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


# ---------------------------------------------------------------------------------------------
# Writing

cdef class Writer(Walk):
    cdef uint8_t *buf
    cdef Py_ssize_t len
    cdef Py_ssize_t cap
    cdef bint drop  # drop fields the version lacks instead of refusing non-default values

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
            return self.u8(1 if v else 0)
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
        write_op(w, &plan.tops[i], values[i])
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


# ---------------------------------------------------------------------------------------------
# Entry points

from kafkawire.protocol import _generated_messages  # noqa: E402
from kafkawire.protocol._generated_messages import (  # noqa: E402
    REQUESTS,
    RESPONSES,
    RequestHeader,
    ResponseHeader,
)

_install_lazy_structs(getattr(_generated_messages, name) for name in _generated_messages.__all__
                      if hasattr(getattr(_generated_messages, name), "_kw_fields"))

DEF CONTROLLED_SHUTDOWN = 7
DEF API_VERSIONS = 18


cdef int request_header_version(object cls, int version):
    if cls.api_key == CONTROLLED_SHUTDOWN and version == 0:
        return 0  # ControlledShutdown v0 was sent without a client id
    return 2 if version in cls.flexible_versions else 1


cdef int response_header_version(object cls, int version):
    if cls.api_key == API_VERSIONS:
        return 0  # clients parse it before they know which versions the broker speaks
    return 1 if version in cls.flexible_versions else 0


cdef object _message_class(object msg, str message_type):
    cls = type(msg)
    if getattr(cls, "message_type", None) != message_type:
        raise TypeError(f"expected a kafkawire {message_type}, got {cls.__qualname__}")
    return cls


cdef bytes _finish(Writer w, bint size_prefix):
    cdef Py_ssize_t size
    if size_prefix:
        size = w.len - 4
        if size > 0x7FFFFFFF:
            raise EncodeError(f"a frame of {size} bytes is too large")
        w.buf[0] = <uint8_t>(size >> 24)
        w.buf[1] = <uint8_t>(size >> 16)
        w.buf[2] = <uint8_t>(size >> 8)
        w.buf[3] = <uint8_t>size
    return w.result()


cdef int _write(Writer w, Plan plan, object obj, str root) except -1:
    try:
        write_struct(w, plan, obj)
    except _Fail as e:
        raise w.error(e, root) from None
    return 0


cdef object _read(Reader r, Plan plan, str root):
    # Decoding only adds objects, none of them garbage: collections triggered by the
    # allocations would just walk them again and again (most of the time on a big message).
    cdef int was_enabled = PyGC_Disable()
    try:
        return read_struct(r, plan)
    except _Fail as e:
        raise r.error(e, root) from None
    finally:
        if was_enabled:
            PyGC_Enable()


cdef int _check_end(Reader r, str root) except -1:
    if r.p != r.end:
        raise CorruptError(
            f"{r.end - r.p} bytes left over after the message", offset=r.offset(), field=root
        )
    return 0


def encode_request(msg, *, int version, correlation_id=0, client_id=None,
                   bint size_prefix=True, bint drop_unsupported=False, header=None):
    """A request frame: [size] request header, then the message at ``version``.

    ``drop_unsupported``: silently drop non-default values of fields ``version`` lacks instead
    of raising EncodeError. ``header``: a RequestHeader to write as it is (e.g. the one
    decode_request gave, with its tagged fields) instead of one made from ``correlation_id``
    and ``client_id``; its API key and version must match ``msg`` and ``version``.
    """
    cls = _message_class(msg, "request")
    cdef Plan plan = message_plan(cls, version)
    cdef int hv = request_header_version(cls, version)
    if header is None:
        header = RequestHeader(request_api_key=cls.api_key, request_api_version=version,
                               correlation_id=correlation_id, client_id=client_id)
    elif type(header) is not RequestHeader:
        raise EncodeError(f"header must be a RequestHeader, not {type(header).__name__}")
    elif header.request_api_key != cls.api_key or header.request_api_version != version:
        raise EncodeError(
            f"header is for API {header.request_api_key} version "
            f"{header.request_api_version}, the message is {cls.api_key} version {version}")
    cdef Writer w = Writer()
    w.drop = drop_unsupported
    if size_prefix:
        w.take(4)
    _write(w, get_plan(RequestHeader, hv, hv >= 2), header, "RequestHeader")
    _write(w, plan, msg, cls.__qualname__)
    return _finish(w, size_prefix)


def encode_response(msg, *, int version, correlation_id=None, bint size_prefix=True,
                    bint drop_unsupported=False, header=None):
    """A response frame: [size] response header, then the message at ``version``.

    ``header``: a ResponseHeader to write as it is (e.g. from decode_response, with its
    tagged fields) instead of one made from ``correlation_id``.
    """
    if (header is None) == (correlation_id is None):
        raise TypeError("give either correlation_id or header")
    if header is not None and type(header) is not ResponseHeader:
        raise EncodeError(f"header must be a ResponseHeader, not {type(header).__name__}")
    cls = _message_class(msg, "response")
    cdef Plan plan = message_plan(cls, version)
    cdef int hv = response_header_version(cls, version)
    cdef Writer w = Writer()
    w.drop = drop_unsupported
    if size_prefix:
        w.take(4)
    if header is None:
        header = ResponseHeader(correlation_id=correlation_id)
    _write(w, get_plan(ResponseHeader, hv, hv >= 1), header, "ResponseHeader")
    _write(w, plan, msg, cls.__qualname__)
    return _finish(w, size_prefix)


def decode_request(frame):
    """(RequestHeader, message) from one request frame without its size prefix."""
    cdef Reader r = Reader(frame)
    if r.end - r.p < 4:
        raise TruncatedError(f"a request header needs at least 4 bytes, got {r.end - r.p}",
                             offset=0, field="RequestHeader")
    cdef int api_key = <int16_t>((r.p[0] << 8) | r.p[1])
    cdef int version = <int16_t>((r.p[2] << 8) | r.p[3])
    cls = REQUESTS.get(api_key)
    if cls is None:
        raise UnsupportedError(f"unknown API key {api_key}", offset=0,
                               field="RequestHeader.request_api_key")
    if version not in cls.valid_versions:
        raise UnsupportedError(f"{cls.__qualname__} has no version {version}", offset=2,
                               field="RequestHeader.request_api_version")
    cdef int hv = request_header_version(cls, version)
    header = _read(r, get_plan(RequestHeader, hv, hv >= 2), "RequestHeader")
    name = cls.__qualname__
    msg = _read(r, message_plan(cls, version), name)
    _check_end(r, name)
    return header, msg


def decode_response(frame, *, int api_key, int api_version):
    """(ResponseHeader, message) from one response frame without its size prefix."""
    cls = RESPONSES.get(api_key)
    if cls is None:
        raise UnsupportedError(f"unknown API key {api_key}")
    cdef Plan plan = message_plan(cls, api_version)
    cdef int hv = response_header_version(cls, api_version)
    cdef Reader r = Reader(frame)
    header = _read(r, get_plan(ResponseHeader, hv, hv >= 1), "ResponseHeader")
    name = cls.__qualname__
    msg = _read(r, plan, name)
    _check_end(r, name)
    return header, msg


def encode(msg, *, int version, bint drop_unsupported=False):
    """The bytes of one message (any schema: request, response, header or data) alone."""
    cls = type(msg)
    cdef Writer w = Writer()
    w.drop = drop_unsupported
    _write(w, message_plan(cls, version), msg, cls.__qualname__)
    return w.result()


def decode(cls, data, *, int version):
    """A ``cls`` message from ``data``, which must hold exactly one message at ``version``."""
    cdef Plan plan = message_plan(cls, version)
    cdef Reader r = Reader(data)
    name = cls.__qualname__
    msg = _read(r, plan, name)
    _check_end(r, name)
    return msg
