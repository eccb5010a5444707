# cython: boundscheck=False, wraparound=False
"""Protobuf payloads of a binary column to Arrow columns: the message-index pass and the
per-record loop (in C, src_c/protobuf_decode.c) over the program that
kafkawire/registry/protobuf.py compiles."""

include "_columns.pxi"

from libc.stdint cimport uint32_t, uint64_t

import numpy as np


cdef extern from "protobuf_decode.h":
    ctypedef struct kw_pb_field:
        pass

    ctypedef struct kw_pb_message:
        pass

    ctypedef struct kw_pb_program:
        const kw_pb_message *msgs
        const kw_pb_field *fields
        uint32_t *tags
        uint8_t *ops
        const int32_t *dense
        const int32_t *enum_numbers
        const int32_t *enum_names
        const uint8_t *names
        const int32_t *name_offsets
        int32_t root

    ctypedef struct kw_pb_error:
        int code
        int32_t msg
        int32_t field
        Py_ssize_t offset

    ctypedef struct kw_pb_scratch:
        uint64_t *seen
        size_t cap

    enum:
        KW_PB_MAX_INDEXES

    int kw_pb_prepare(kw_pb_program *prog, int32_t nfields) nogil
    void kw_pb_release(kw_pb_program *prog) nogil
    void kw_pb_scratch_free(kw_pb_scratch *s) nogil
    Py_ssize_t kw_pb_message_indexes(const uint8_t *p, size_t len, int32_t *indexes,
                                     int32_t *count, kw_pb_error *err) nogil
    int kw_pb_decode(const kw_pb_program *prog, kw_col *table, const uint8_t *payload,
                     size_t len, size_t readable, kw_pb_scratch *scratch,
                     kw_pb_error *err) nogil

FIELD_SIZE = sizeof(kw_pb_field)
MESSAGE_SIZE = sizeof(kw_pb_message)
MAX_INDEXES = KW_PB_MAX_INDEXES


cdef const int32_t *_ptr(object arr, list keep):
    a = np.ascontiguousarray(arr, dtype=np.int32)
    if len(a) == 0:
        a = np.zeros(1, np.int32)
    cdef const int32_t[::1] v = a
    keep.append(v)
    return &v[0]


cdef class Program:
    """One compiled program; holds the arrays its C struct points into."""
    cdef kw_pb_program prog
    cdef readonly object arrays

    def __cinit__(self, bytes msgs, bytes fields, dense, enum_numbers, enum_names,
                  bytes names, name_offsets, int32_t root):
        if len(msgs) % sizeof(kw_pb_message) or len(fields) % sizeof(kw_pb_field):
            raise ValueError("table sizes are not multiples of the C structs")
        keep = [msgs, fields, names]
        self.prog.msgs = <const kw_pb_message *><const char *>msgs
        self.prog.fields = <const kw_pb_field *><const char *>fields
        self.prog.dense = _ptr(dense, keep)
        self.prog.enum_numbers = _ptr(enum_numbers, keep)
        self.prog.enum_names = _ptr(enum_names, keep)
        self.prog.names = <const uint8_t *><const char *>names
        self.prog.name_offsets = _ptr(name_offsets, keep)
        self.prog.root = root
        self.arrays = keep
        if kw_pb_prepare(&self.prog, len(fields) // sizeof(kw_pb_field)) < 0:
            raise MemoryError()

    def __dealloc__(self):
        kw_pb_release(&self.prog)


def first_message_everywhere(const uint8_t[::1] data, const int64_t[::1] starts,
                             const int64_t[::1] ends, const int64_t[::1] keys):
    """Whether every row with keys[i] >= 0 starts with the message indexes [0] (one zero
    byte): the usual column, which then needs no message_indexes arrays."""
    cdef Py_ssize_t n = keys.shape[0], i
    cdef const uint8_t *base = &data[0] if data.shape[0] else NULL
    cdef bint every = True
    with nogil:
        for i in range(n):
            if keys[i] >= 0 and (starts[i] >= ends[i] or base[starts[i]] != 0):
                every = False
                break
    return every


def message_indexes(const uint8_t[::1] data, const int64_t[::1] starts,
                    const int64_t[::1] ends, const int64_t[::1] keys):
    """Reads each framed row's message indexes (rows with keys[i] < 0 are passed over).

    Returns (payload starts int64, counts int32, indexes int32 [n, width], codes int32,
    offsets int64): a row's message is data[payload_start:end]; a row whose indexes do not
    read has count 0 and a nonzero code (its byte offset from the row's start)."""
    cdef Py_ssize_t n = keys.shape[0], i
    cdef const uint8_t *base = &data[0] if data.shape[0] else NULL
    out_starts = np.empty(n, np.int64)
    counts = np.zeros(n, np.int32)
    first = np.full(n, -1, np.int32)
    codes = np.zeros(n, np.int32)
    offsets = np.zeros(n, np.int64)
    cdef int64_t[::1] os = out_starts, oo = offsets
    cdef int32_t[::1] oc = counts, ocode = codes, of = first
    cdef int32_t buf[KW_PB_MAX_INDEXES]
    cdef int32_t count = 0, width = 1
    cdef Py_ssize_t used
    cdef kw_pb_error err
    with nogil:
        for i in range(n):
            os[i] = starts[i]
            if keys[i] < 0:
                continue
            if starts[i] < ends[i] and base[starts[i]] == 0:  # [0], the first message: 1 byte
                os[i] = starts[i] + 1
                oc[i] = 1
                of[i] = 0
                continue
            used = kw_pb_message_indexes(base + starts[i], <size_t>(ends[i] - starts[i]),
                                         buf, &count, &err)
            if used < 0:
                ocode[i] = err.code
                oo[i] = err.offset
                continue
            os[i] = starts[i] + used
            oc[i] = count
            of[i] = buf[0]
            if count > width:
                width = count
    if width == 1:
        return out_starts, counts, first.reshape(n, 1), codes, offsets
    indexes = np.full((n, width), -1, np.int32)
    indexes[:, 0] = first
    cdef int32_t[:, ::1] ix = indexes
    cdef int32_t k
    with nogil:
        for i in range(n):
            if oc[i] < 2:
                continue
            kw_pb_message_indexes(base + starts[i], <size_t>(ends[i] - starts[i]), buf,
                                  &count, &err)
            for k in range(count):
                ix[i, k] = buf[k]
    return out_starts, counts, indexes, codes, offsets


def decode(ColumnTable table, int32_t root_col, list programs, const uint8_t[::1] data,
           const int64_t[::1] starts, const int64_t[::1] ends, const int32_t[::1] which):
    """Appends one row of column `root_col` a record: `which[i]` is the program of record
    i (its message is data[starts[i]:ends[i]]), -1 for a null row. Returns the failed
    records as (rows, codes, messages, fields, offsets) int arrays; their rows are null."""
    cdef Py_ssize_t n = which.shape[0], i, nfail = 0
    cdef int np_ = len(programs), p
    cdef kw_pb_program **progs = <kw_pb_program **>calloc(max(np_, 1),
                                                          sizeof(kw_pb_program *))
    if progs == NULL:
        raise MemoryError()
    for p in range(np_):
        progs[p] = &(<Program>programs[p]).prog
    fail_rows = np.empty(n, np.int64)
    fail_codes = np.empty(n, np.int32)
    fail_msgs = np.empty(n, np.int32)
    fail_fields = np.empty(n, np.int32)
    fail_offsets = np.empty(n, np.int64)
    cdef int64_t[::1] fr = fail_rows
    cdef int32_t[::1] fc = fail_codes, fm = fail_msgs, ff = fail_fields
    cdef int64_t[::1] fo = fail_offsets
    cdef kw_pb_error err
    cdef kw_pb_scratch scratch
    scratch.seen = NULL
    scratch.cap = 0
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
                if kw_pb_decode(progs[p], table.cols, base + starts[i],
                                <size_t>(ends[i] - starts[i]),
                                <size_t>(data.shape[0] - starts[i]), &scratch, &err) < 0:
                    kw_col_truncate(table.cols, root_col, rows)
                    if kw_col_null(table.cols, root_col) < 0:
                        nomem = 1
                        break
                    fr[nfail] = i
                    fc[nfail] = err.code
                    fm[nfail] = err.msg
                    ff[nfail] = err.field
                    fo[nfail] = err.offset
                    nfail += 1
    finally:
        free(progs)
        kw_pb_scratch_free(&scratch)
    if nomem:
        raise MemoryError("out of memory (or a column over 2 GiB) decoding Protobuf values")
    return (fail_rows[:nfail], fail_codes[:nfail], fail_msgs[:nfail], fail_fields[:nfail],
            fail_offsets[:nfail])
