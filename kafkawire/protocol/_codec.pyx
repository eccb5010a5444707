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

from kafkawire.errors import (
    CorruptError, DecodeError, EncodeError, TruncatedError, UnsupportedError,
)
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


# Smaller records are copied into encode_request's parts: cheaper than a piece of their own.
DEF REFERENCED_RECORDS = 16384
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


include "_codec_read.pxi"


include "_codec_write.pxi"


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


cdef object _finish(Writer w, bint size_prefix):
    cdef Py_ssize_t size
    if size_prefix:
        size = w.len + w.referenced - 4
        if size > 0x7FFFFFFF:
            raise EncodeError(f"a frame of {size} bytes is too large")
        w.buf[0] = <uint8_t>(size >> 24)
        w.buf[1] = <uint8_t>(size >> 16)
        w.buf[2] = <uint8_t>(size >> 8)
        w.buf[3] = <uint8_t>size
    return w.result() if w.refs is None else w.pieces()


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


cdef int _check_end(Reader r, str root, bint zeros_allowed=False) except -1:
    if zeros_allowed:
        while r.p != r.end and r.p[0] == 0:
            r.p += 1
    if r.p != r.end:
        raise CorruptError(
            f"{r.end - r.p} bytes left over after the message", offset=r.offset(), field=root
        )
    return 0


def encode_request(msg, *, int version, correlation_id=0, client_id=None,
                   bint size_prefix=True, bint drop_unsupported=False, header=None,
                   bint parts=False):
    """A request frame: [size] request header, then the message at ``version``.

    ``drop_unsupported``: silently drop non-default values of fields ``version`` lacks instead
    of raising EncodeError. ``header``: a RequestHeader to write as it is (e.g. the one
    decode_request gave, with its tagged fields) instead of one made from ``correlation_id``
    and ``client_id``; its API key and version must match ``msg`` and ``version``.
    ``parts``: the frame as a list of bytes whose concatenation it is, with the records of
    16 KiB or more that are ``bytes`` objects in it as they are, not copied (a socket's
    ``sendmsg`` sends them).
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
    if parts:
        w.refs = []
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


cdef int _skip_size_prefix(Reader r, str what) except -1:
    """Check and step over a frame's int32 size prefix, which must count the rest exactly
    (error offsets stay relative to the whole frame)."""
    if r.end - r.p < 4:
        raise TruncatedError(f"a {what} frame with its size prefix needs at least 4 bytes, "
                             f"got {r.end - r.p}", offset=0, field="size")
    cdef int64_t size = <int32_t>((<uint32_t>r.p[0] << 24) | (<uint32_t>r.p[1] << 16)
                                  | (<uint32_t>r.p[2] << 8) | r.p[3])
    if size != r.end - r.p - 4:
        raise CorruptError(f"the size prefix says {size} bytes, {r.end - r.p - 4} follow it",
                           offset=0, field="size")
    r.p += 4
    return 0


cdef object _prefix_hint(object frame, object exc):
    """exc, saying so when the frame seems to start with the size prefix that
    size_prefix=False (the default) does not expect."""
    cdef Py_ssize_t n
    try:
        with memoryview(frame) as mv:
            n = mv.nbytes
            head = bytes(mv.cast("B")[:4]) if n >= 4 else b""
    except (TypeError, ValueError):
        return exc
    if n >= 4 and int.from_bytes(head, "big") == n - 4 and isinstance(exc, DecodeError):
        return type(exc)(f"{exc.reason} (the frame seems to start with its size prefix: "
                         f"pass size_prefix=True)", offset=exc.offset,
                         batch_offset=exc.batch_offset, field=exc.field)
    return exc


def decode_request(frame, *, bint size_prefix=False):
    """(RequestHeader, message) from one request frame; ``size_prefix=True`` when the
    frame starts with its int32 size (as encode_request writes it by default)."""
    try:
        return _decode_request(frame, size_prefix)
    except DecodeError as exc:
        if size_prefix:
            raise
        raise _prefix_hint(frame, exc) from None


cdef tuple _decode_request(frame, bint size_prefix):
    cdef Reader r = Reader(frame)
    if size_prefix:
        _skip_size_prefix(r, "request")
    if r.end - r.p < 4:
        raise TruncatedError(f"a request header needs at least 4 bytes, got {r.end - r.p}",
                             offset=0, field="RequestHeader")
    cdef int api_key = <int16_t>((r.p[0] << 8) | r.p[1])
    cdef int version = <int16_t>((r.p[2] << 8) | r.p[3])
    cls = REQUESTS.get(api_key)
    if cls is None:
        raise UnsupportedError(f"unknown API key {api_key}", offset=r.offset(),
                               field="RequestHeader.request_api_key")
    if version not in cls.valid_versions:
        raise UnsupportedError(f"{cls.__qualname__} has no version {version}",
                               offset=r.offset() + 2, field="RequestHeader.request_api_version")
    cdef int hv = request_header_version(cls, version)
    header = _read(r, get_plan(RequestHeader, hv, hv >= 2), "RequestHeader")
    name = cls.__qualname__
    msg = _read(r, message_plan(cls, version), name)
    _check_end(r, name)
    return header, msg


def decode_response(frame, *, int api_key, int api_version, bint size_prefix=False,
                    bint lenient=False):
    """(ResponseHeader, message) from one response frame; ``size_prefix=True`` when the
    frame starts with its int32 size (as encode_response writes it by default).
    ``lenient=True`` reads as Java's client and librdkafka read an answer: zero bytes after
    the message are accepted (librdkafka's mock writes some empty tag sections twice; any
    other byte left over is still an error), and a null where the schema has none reads as
    empty (the mock answers a failed SyncGroup with a null assignment)."""
    cls = RESPONSES.get(api_key)
    if cls is None:
        raise UnsupportedError(f"unknown API key {api_key}")
    cdef Plan plan = message_plan(cls, api_version)
    try:
        return _decode_response(frame, cls, plan, api_version, size_prefix, lenient)
    except DecodeError as exc:
        if size_prefix:
            raise
        raise _prefix_hint(frame, exc) from None


cdef tuple _decode_response(frame, cls, Plan plan, int api_version, bint size_prefix,
                            bint lenient):
    cdef int hv = response_header_version(cls, api_version)
    cdef Reader r = Reader(frame)
    r.lenient = lenient
    if size_prefix:
        _skip_size_prefix(r, "response")
    header = _read(r, get_plan(ResponseHeader, hv, hv >= 1), "ResponseHeader")
    name = cls.__qualname__
    msg = _read(r, plan, name)
    _check_end(r, name, lenient)
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
