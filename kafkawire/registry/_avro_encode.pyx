# cython: boundscheck=False, wraparound=False
"""Arrow struct columns to Avro binary values in C (src_c/avro_encode.c): the compiled path
of kafkawire.registry.avro_writer.encode_avro. :func:`compile_column` turns an (Avro schema,
Arrow array) pair into a flat node table pointing at the array's buffers, or raises
:class:`Unsupported` (the caller then takes fastavro's path); :func:`encode` runs it."""

include "_columns.pxi"

from libc.stdint cimport uintptr_t

import struct

cdef extern from "avro_encode.h":
    ctypedef struct kw_avroe_node:
        pass

    ctypedef struct kw_avroe_program:
        const kw_avroe_node *nodes
        const int32_t *kids
        const uint8_t *symbols
        const int32_t *sym_offsets
        int32_t root

    ctypedef struct kw_avroe_error:
        int code
        int32_t node
        int64_t row

    ctypedef struct kw_avroe_buf:
        uint8_t *p
        size_t len
        size_t cap

    int64_t kw_avroe_encode(const kw_avroe_program *prog, const uint8_t *row_validity,
                            int64_t row_offset, int64_t nrows, const uint8_t *prefix,
                            size_t prefix_len, kw_avroe_buf *out, int32_t *offsets,
                            uint8_t *validity, kw_avroe_error *err) nogil

(
    KWE_NULL, KWE_BOOL, KWE_INT, KWE_LONG, KWE_FLOAT, KWE_DOUBLE, KWE_BYTES, KWE_FIXED,
    KWE_ENUM, KWE_RECORD, KWE_ARRAY, KWE_MAP, KWE_TS_MILLIS, KWE_DECIMAL, KWE_CONST,
) = range(15)
KWE_NULLABLE, KWE_UNSIGNED = 1, 2
_NODE = struct.Struct("<iiiiiiiiqQQQ")
assert _NODE.size == sizeof(kw_avroe_node)

ERROR_TEXT = {
    1: "out of memory, or the column's values past 2 GiB",
    2: "a null where the Avro type has no null branch",
    3: "an int outside 32 bits for an Avro int",
    4: "a string that is not one of the enum's symbols",
}


class Unsupported(Exception):
    """The (schema, Arrow type) pair is not one the compiled path writes."""


_SIGNED = {1: (pa.int8(),), 2: (pa.int16(),), 4: (pa.int32(),), 8: (pa.int64(),)}


def _int_width(t, allow64: bool, unsigned_ok: tuple):
    """(width, flags) of an integer column the Avro int/long takes."""
    if pa.types.is_signed_integer(t):
        if t.bit_width == 64 and not allow64:
            raise Unsupported(str(t))
        return t.bit_width // 8, 0
    if pa.types.is_unsigned_integer(t) and t.bit_width in unsigned_ok:
        return t.bit_width // 8, KWE_UNSIGNED
    raise Unsupported(str(t))


cdef object _bytes_address(bytes b):
    return <uintptr_t><const char *>b


def _address(buf) -> int:
    return 0 if buf is None else buf.address


class _Compiler:
    def __init__(self, named: dict):
        from kafkawire.registry.encode_columns import resolve_named

        self.resolve = resolve_named
        self.named = named
        self.nodes: list = []
        self.paths: list = []
        self.kids: list = []
        self.symbols = bytearray()
        self.sym_offsets = [0]
        self.keep: list = []

    def node(self, arr, schema, path: str) -> int:
        schema = self.resolve(schema, self.named)
        flags = nb = vb = 0
        if isinstance(schema, list):
            branches = [self.resolve(b, self.named) for b in schema]
            if len(branches) != 2 or "null" not in branches or branches[0] == branches[1]:
                raise Unsupported("a union other than [null, T]")
            null_index = branches.index("null")
            flags = KWE_NULLABLE
            nb, vb = null_index * 2, (1 - null_index) * 2
            schema = branches[1 - null_index]
            if isinstance(schema, list):
                raise Unsupported("nested union")
        t = arr.type
        bufs = arr.buffers()
        validity = _address(bufs[0]) if arr.null_count else 0
        kind = schema.get("type") if isinstance(schema, dict) else schema
        logical = schema.get("logicalType") if isinstance(schema, dict) else None
        if isinstance(kind, (dict, list)):
            raise Unsupported("a nested type definition")
        op, width, values, data, child0, nchildren, sym0 = None, 0, 0, 0, 0, 0, 0
        kids: list = []
        if kind == "null":
            if not pa.types.is_null(t):
                raise Unsupported(str(t))
            op, validity = KWE_NULL, 0
        elif logical is not None and logical not in (
            "date", "time-millis", "time-micros", "timestamp-millis", "timestamp-micros",
            "local-timestamp-millis", "local-timestamp-micros", "decimal",
        ):
            raise Unsupported(logical)
        elif kind == "boolean" and logical is None and pa.types.is_boolean(t):
            op = KWE_BOOL
        elif kind == "int":
            if logical == "date":
                ok = pa.types.is_date32(t)
            elif logical == "time-millis":
                ok = t == pa.time32("ms")
            else:
                ok = logical is None and pa.types.is_integer(t)
            if not ok:
                raise Unsupported(f"{t} for {kind}/{logical}")
            op = KWE_INT
            if pa.types.is_integer(t):
                width, flags2 = _int_width(t, True, (8, 16))
                flags |= flags2
            else:
                width = 4
        elif kind == "long":
            if logical == "time-micros":
                ok = t == pa.time64("us")
            elif logical in ("timestamp-millis", "timestamp-micros"):
                ok = pa.types.is_timestamp(t) and t.unit == "us" and t.tz is not None
            elif logical in ("local-timestamp-millis", "local-timestamp-micros"):
                ok = pa.types.is_timestamp(t) and t.unit == "us" and t.tz is None
            else:
                ok = logical is None and pa.types.is_integer(t)
            if not ok:
                raise Unsupported(f"{t} for {kind}/{logical}")
            op = KWE_TS_MILLIS if logical is not None and logical.endswith("-millis") else KWE_LONG
            if pa.types.is_integer(t):
                width, flags2 = _int_width(t, True, (8, 16, 32))
                flags |= flags2
            else:
                width = 8
        elif kind in ("float", "double") and logical is None:
            if not (pa.types.is_float32(t) or pa.types.is_float64(t)):
                raise Unsupported(str(t))
            op, width = (KWE_FLOAT if kind == "float" else KWE_DOUBLE), t.bit_width // 8
        elif kind == "string" and logical is None:
            if not pa.types.is_string(t):
                raise Unsupported(str(t))
            op = KWE_BYTES
        elif kind == "bytes" and logical is None:
            if not pa.types.is_binary(t):
                raise Unsupported(str(t))
            op = KWE_BYTES
        elif kind == "bytes" and logical == "decimal":
            if not (
                isinstance(t, pa.Decimal128Type)
                and t.scale == schema.get("scale", 0)
                and t.precision <= schema.get("precision", 0)
            ):
                raise Unsupported(f"{t} for {schema}")
            op = KWE_DECIMAL
        elif kind == "fixed" and logical is None:
            if not (pa.types.is_fixed_size_binary(t) and t.byte_width == schema.get("size")):
                raise Unsupported(str(t))
            op, width = KWE_FIXED, t.byte_width
        elif kind == "enum":
            if not pa.types.is_string(t):
                raise Unsupported(str(t))
            op, sym0, nchildren = KWE_ENUM, len(self.sym_offsets) - 1, len(schema["symbols"])
            for s in schema["symbols"]:
                self.symbols += s.encode()
                self.sym_offsets.append(len(self.symbols))
        elif kind == "record" and logical is None:
            if not pa.types.is_struct(t):
                raise Unsupported(str(t))
            names = [t.field(k).name for k in range(t.num_fields)]
            fields = {f["name"]: f for f in schema["fields"]}
            if set(names) - set(fields):
                raise Unsupported("fields the record does not have")
            op, nchildren = KWE_RECORD, len(schema["fields"])
            for f in schema["fields"]:
                if f["name"] in names:
                    child = arr.field(names.index(f["name"]))
                    kids.append(self.node(child, f["type"], f"{path}{f['name']}."))
                else:
                    kids.append(self.default(f, f"{path}{f['name']}."))
        elif kind == "array" and logical is None:
            if not pa.types.is_list(t):
                raise Unsupported(str(t))
            op, nchildren = KWE_ARRAY, 1
            kids.append(self.node(arr.values, schema["items"], f"{path}[]."))
        elif kind == "map" and logical is None:
            if not (pa.types.is_map(t) and pa.types.is_string(t.key_type)):
                raise Unsupported(str(t))
            op, nchildren = KWE_MAP, 2
            entries = arr.values
            kids.append(self.node(entries.field(0), "string", f"{path}{{}}."))
            kids.append(self.node(entries.field(1), schema["values"], f"{path}{{}}."))
        else:
            raise Unsupported(f"{t} for {schema}")
        if op not in (KWE_NULL, KWE_RECORD):
            values = _address(bufs[1])
            if op in (KWE_BYTES, KWE_ENUM):
                data = _address(bufs[2])
        if kids:
            child0 = len(self.kids)
            self.kids.extend(kids)
        self.keep.append(arr)
        self.nodes.append((op, flags, nb, vb, width, child0, nchildren, sym0, arr.offset,
                           validity, values, data))
        self.paths.append(path.rstrip("."))
        return len(self.nodes) - 1

    def default(self, field: dict, path: str) -> int:
        """A field the struct lacks: only a null default of a union with null first (the
        usual nullable field) is written here."""
        if "default" not in field or field["default"] is not None:
            raise Unsupported("a non-null default")
        schema = self.resolve(field["type"], self.named)
        if not (isinstance(schema, list) and self.resolve(schema[0], self.named) == "null"):
            raise Unsupported("a default of a type other than [null, ...]")
        blob = b"\x00"
        self.keep.append(blob)
        self.nodes.append((KWE_CONST, 0, 0, 0, len(blob), 0, 0, 0, 0, 0, 0, _bytes_address(blob)))
        self.paths.append(path.rstrip("."))
        return len(self.nodes) - 1


cdef class Program:
    """A compiled (schema, column) pair; holds the arrays its C tables point into."""
    cdef kw_avroe_program prog
    cdef readonly object keep
    cdef readonly list paths
    cdef readonly object row_validity
    cdef readonly int64_t row_offset

    def __cinit__(self, column, schema, dict named, rows=None):
        c = _Compiler(named)
        root = c.node(column, schema, "")
        nodes = b"".join(_NODE.pack(*n) for n in c.nodes)
        kids = np.ascontiguousarray(c.kids or [0], dtype=np.int32)
        symbols = bytes(c.symbols) or b"\x00"
        sym_off = np.ascontiguousarray(c.sym_offsets, dtype=np.int32)
        cdef const int32_t[::1] k = kids
        cdef const int32_t[::1] s = sym_off
        self.keep = (c.keep, nodes, kids, symbols, sym_off, k, s, rows)
        self.paths = c.paths
        self.prog.nodes = <const kw_avroe_node *><const char *>nodes
        self.prog.kids = &k[0]
        self.prog.symbols = <const uint8_t *><const char *>symbols
        self.prog.sym_offsets = &s[0]
        self.prog.root = root
        # the rows: null rows stay null (tombstones)
        rows = column if rows is None else rows
        self.row_validity = rows.buffers()[0] if rows.null_count else None
        self.row_offset = rows.offset

    def encode(self, bytes prefix, int64_t n):
        """(the pa.BinaryArray, None), or (None, (row, node path, error text, code))."""
        offsets = np.empty(n + 1, np.int32)
        validity = np.empty(max((n + 7) // 8, 1), np.uint8)
        cdef int32_t[::1] o = offsets
        cdef uint8_t[::1] v = validity
        cdef kw_avroe_buf out
        out.p = NULL
        out.len = out.cap = 0
        cdef kw_avroe_error err
        cdef const uint8_t *rv = NULL
        if self.row_validity is not None:
            rv = <const uint8_t *><uintptr_t>self.row_validity.address
        cdef const uint8_t *pre = prefix
        cdef size_t plen = len(prefix)
        cdef int64_t nulls
        with nogil:
            nulls = kw_avroe_encode(&self.prog, rv, self.row_offset, n, pre, plen, &out,
                                    &o[0], &v[0], &err)
        cdef kw_buf data
        data.p = out.p
        data.len = out.len
        data.cap = out.cap
        if nulls < 0:
            free(out.p)
            if err.code == 1:
                raise MemoryError(ERROR_TEXT[1])
            return None, (err.row, self.paths[err.node], ERROR_TEXT.get(err.code, "?"),
                          err.code)
        arr = pa.Array.from_buffers(
            pa.binary(), n,
            [pa.py_buffer(validity) if nulls else None, pa.py_buffer(offsets), _take(&data)],
            null_count=nulls,
        )
        return arr, None
