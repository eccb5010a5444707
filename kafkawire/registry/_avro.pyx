# cython: boundscheck=False, wraparound=False
"""Avro payloads of a binary column to Arrow columns: the per-record loop (in C,
src_c/avro_decode.c) over programs that kafkawire/registry/avro.py compiles."""

include "_columns.pxi"

import numpy as np


cdef extern from "avro_decode.h":
    ctypedef struct kw_avro_node:
        pass

    ctypedef struct kw_avro_program:
        const kw_avro_node *nodes
        const int32_t *kids
        const int32_t *enum_map
        const uint8_t *symbols
        const int32_t *symbol_offsets
        const uint8_t *defaults
        int32_t root

    ctypedef struct kw_avro_error:
        int code
        int32_t node
        Py_ssize_t offset

    int kw_avro_decode(const kw_avro_program *prog, kw_col *table, const uint8_t *payload,
                       size_t len, kw_avro_error *err) nogil

NODE_SIZE = sizeof(kw_avro_node)


cdef class Program:
    """One compiled writer->reader program; holds the arrays its C struct points into."""
    cdef kw_avro_program prog
    cdef readonly object arrays

    def __cinit__(self, bytes nodes, kids, enum_map, bytes symbols, symbol_offsets,
                  bytes defaults, int32_t root):
        if len(nodes) % sizeof(kw_avro_node):
            raise ValueError("node table size is not a multiple of the node struct")
        kids_a = np.ascontiguousarray(kids, dtype=np.int32)
        enum_a = np.ascontiguousarray(enum_map, dtype=np.int32)
        sym_off = np.ascontiguousarray(symbol_offsets, dtype=np.int32)
        self.arrays = (nodes, kids_a, enum_a, symbols, sym_off, defaults)
        cdef const int32_t[::1] k = kids_a if len(kids_a) else np.zeros(1, np.int32)
        cdef const int32_t[::1] e = enum_a if len(enum_a) else np.zeros(1, np.int32)
        cdef const int32_t[::1] s = sym_off if len(sym_off) else np.zeros(1, np.int32)
        self.arrays += (k, e, s)
        self.prog.nodes = <const kw_avro_node *><const char *>nodes
        self.prog.kids = &k[0]
        self.prog.enum_map = &e[0]
        self.prog.symbols = <const uint8_t *><const char *>symbols
        self.prog.symbol_offsets = &s[0]
        self.prog.defaults = <const uint8_t *><const char *>defaults
        self.prog.root = root


def decode(ColumnTable table, int32_t root_col, list programs, const uint8_t[::1] data,
           const int64_t[::1] starts, const int64_t[::1] ends, const int32_t[::1] which):
    """Appends one row of column `root_col` a record: `which[i]` is the program of record
    i (its payload is data[starts[i]:ends[i]]), -1 for a null row. Returns the failed
    records as (rows, codes, nodes, offsets) int arrays; their rows are null."""
    cdef Py_ssize_t n = which.shape[0], i, nfail = 0
    cdef int np_ = len(programs), p
    cdef kw_avro_program **progs = <kw_avro_program **>calloc(max(np_, 1),
                                                               sizeof(kw_avro_program *))
    if progs == NULL:
        raise MemoryError()
    for p in range(np_):
        progs[p] = &(<Program>programs[p]).prog
    fail_rows = np.empty(n, np.int64)
    fail_codes = np.empty(n, np.int32)
    fail_nodes = np.empty(n, np.int32)
    fail_offsets = np.empty(n, np.int64)
    cdef int64_t[::1] fr = fail_rows
    cdef int32_t[::1] fc = fail_codes, fn = fail_nodes
    cdef int64_t[::1] fo = fail_offsets
    cdef kw_avro_error err
    cdef const uint8_t *base = &data[0] if data.shape[0] else NULL
    cdef int nomem = 0
    cdef int64_t rows
    table.reserve(root_col, n)
    try:
        with nogil:
            for i in range(n):
                p = which[i]
                if p < 0 or p >= np_:
                    if kw_col_null(table.cols, root_col) < 0:
                        nomem = 1
                        break
                    continue
                rows = table.cols[root_col].length
                if kw_avro_decode(progs[p], table.cols, base + starts[i],
                                  <size_t>(ends[i] - starts[i]), &err) < 0:
                    kw_col_truncate(table.cols, root_col, rows)
                    if kw_col_null(table.cols, root_col) < 0:
                        nomem = 1
                        break
                    fr[nfail] = i
                    fc[nfail] = err.code
                    fn[nfail] = err.node
                    fo[nfail] = err.offset
                    nfail += 1
    finally:
        free(progs)
    if nomem:
        raise MemoryError("out of memory (or a column over 2 GiB) decoding Avro values")
    return fail_rows[:nfail], fail_codes[:nfail], fail_nodes[:nfail], fail_offsets[:nfail]
