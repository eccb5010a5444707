/* The Protobuf interpreter of protobuf_decode.h. */
#include "protobuf_decode.h"
#include "utf8.h"

#include <string.h>

#define PB_MAX_DEPTH 100
#define PB_MAX_NUMBER 536870911u

/* Timestamp's and Duration's ranges (google/protobuf/timestamp.proto, duration.proto). */
#define PB_TS_MIN_SECONDS (-62135596800LL) /* 0001-01-01T00:00:00Z */
#define PB_TS_MAX_SECONDS 253402300799LL   /* 9999-12-31T23:59:59Z */
#define PB_DUR_MAX_SECONDS 315576000000LL  /* 10,000 years */

typedef struct {
    const kw_pb_program *prog;
    kw_col *table;
    const uint8_t *start; /* the payload, for error offsets */
    kw_pb_scratch *scratch;
    size_t seen_top;
    kw_pb_error *err;
    int depth;
} pb_ctx;

static const uint8_t pb_empty[1] = {0};

void kw_pb_scratch_free(kw_pb_scratch *s) {
    free(s->seen);
    s->seen = NULL;
    s->cap = 0;
}

static int pb_fail(pb_ctx *cx, int code, int32_t msg, int32_t field, const uint8_t *at) {
    if (cx->err->code == PBE_OK) {
        cx->err->code = code;
        cx->err->msg = msg;
        cx->err->field = field;
        cx->err->offset = at - cx->start;
    }
    return -1;
}

static inline int pb_varint(pb_ctx *cx, const uint8_t **pp, const uint8_t *end, uint64_t *out,
                            int32_t msg, int32_t field) {
    const uint8_t *p = *pp;
    if (p < end && !(*p & 0x80)) {
        *out = *p;
        *pp = p + 1;
        return 0;
    }
    int n = kw_uvarint64(p, end, out);
    if (n == 0)
        return pb_fail(cx, (end - p) >= 10 ? PBE_VARINT : PBE_TRUNCATED, msg, field, p);
    *pp = p + n;
    return 0;
}

/* A length-delimited value's length, checked against what is left of its message. */
static inline int pb_length(pb_ctx *cx, const uint8_t **pp, const uint8_t *end, size_t *out,
                            int32_t msg, int32_t field) {
    const uint8_t *at = *pp;
    uint64_t n;
    if (pb_varint(cx, pp, end, &n, msg, field) < 0)
        return -1;
    if (n > (uint64_t)(end - *pp))
        return pb_fail(cx, PBE_LENGTH, msg, field, at);
    *out = (size_t)n;
    return 0;
}

static inline uint32_t pb_wire_of(uint8_t type) {
    switch (type) {
    case PBT_DOUBLE:
    case PBT_FIXED64:
    case PBT_SFIXED64:
        return 1;
    case PBT_FLOAT:
    case PBT_FIXED32:
    case PBT_SFIXED32:
        return 5;
    case PBT_STRING:
    case PBT_BYTES:
    case PBT_MESSAGE:
        return 2;
    case PBT_GROUP:
        return 3;
    default:
        return 0;
    }
}

/* Takes back the last row of a leaf column (a valid value appended for the current row). */
static void pb_col_pop(kw_col *col) {
    int64_t row = col->length - 1;
    uint8_t keep = (uint8_t)~(1u << (row & 7));
    switch (col->kind) {
    case KWC_FIXED:
        col->values.len -= (size_t)col->width;
        break;
    case KWC_BINARY:
        col->values.len -= 4;
        col->data.len = (size_t)kw_col_last_offset(col);
        break;
    case KWC_BOOL:
        col->values.p[row >> 3] &= keep;
        if ((row & 7) == 0)
            col->values.len--;
        break;
    default:
        break;
    }
    col->validity.p[row >> 3] &= keep;
    if ((row & 7) == 0)
        col->validity.len--;
    col->length = row;
}

/* kw_col_binary, except that an empty value copies nothing (memcpy into a column's data
 * buffer that is still NULL is undefined even for 0 bytes). */
static inline int pb_binary(kw_col *col, const uint8_t *p, size_t n) {
    if (n == 0)
        return kw_col_push_offset(col, (int64_t)col->data.len) < 0 ? -1 : kw_col_bit(col, 1);
    return kw_col_binary(col, p, n);
}

static inline int pb_is_leaf(const kw_col *col) {
    return col->kind == KWC_FIXED || col->kind == KWC_BINARY || col->kind == KWC_BOOL;
}

static int pb_message(pb_ctx *cx, int32_t mi, const uint8_t *p, const uint8_t *end);

/* An enum value as its name (a number the enum does not have: its decimal digits). */
static int pb_enum(pb_ctx *cx, const kw_pb_field *f, kw_col *col, int32_t v) {
    const int32_t *nums = cx->prog->enum_numbers + f->a;
    int32_t lo = 0, hi = f->b;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (nums[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < f->b && nums[lo] == v) {
        int32_t s = cx->prog->enum_names[f->a + lo];
        const int32_t *so = cx->prog->name_offsets;
        return pb_binary(col, cx->prog->names + so[s], (size_t)(so[s + 1] - so[s]));
    }
    char buf[16];
    int n = 0, neg = v < 0;
    uint32_t u = neg ? (uint32_t)0 - (uint32_t)v : (uint32_t)v;
    char tmp[16];
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    int k = 0;
    if (neg)
        buf[k++] = '-';
    while (n)
        buf[k++] = tmp[--n];
    return pb_binary(col, (const uint8_t *)buf, (size_t)k);
}

/* One value of field `fi` of wire type `wt` (the caller checked it), appended to its column. */
static int pb_value(pb_ctx *cx, int32_t mi, int32_t fi, uint32_t wt, const uint8_t **pp,
                    const uint8_t *end) {
    const kw_pb_field *f = &cx->prog->fields[fi];
    kw_col *col = &cx->table[f->elem];
    const uint8_t *at = *pp;
    int rc = 0;
    switch (wt) {
    case 0: {
        uint64_t v;
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        switch (f->type) {
        case PBT_INT32:
        case PBT_UINT32:
            rc = kw_col_i32(col, (int32_t)(uint32_t)v);
            break;
        case PBT_SINT32: {
            uint32_t u = (uint32_t)v;
            rc = kw_col_i32(col, (int32_t)(u >> 1) ^ -(int32_t)(u & 1));
            break;
        }
        case PBT_SINT64:
            rc = kw_col_i64(col, kw_unzigzag64(v));
            break;
        case PBT_BOOL:
            rc = kw_col_bool(col, v != 0);
            break;
        case PBT_ENUM:
            rc = pb_enum(cx, f, col, (int32_t)(uint32_t)v);
            break;
        default: /* int64, uint64 */
            rc = kw_col_i64(col, (int64_t)v);
            break;
        }
        break;
    }
    case 1: {
        if (end - *pp < 8)
            return pb_fail(cx, PBE_TRUNCATED, mi, fi, at);
        uint8_t *slot = kw_col_fixed_slot(col); /* double, fixed64, sfixed64: 8 bytes LE */
        if (!slot)
            return pb_fail(cx, PBE_NOMEM, mi, fi, at);
        memcpy(slot, *pp, 8);
        *pp += 8;
        return 0;
    }
    case 5: {
        if (end - *pp < 4)
            return pb_fail(cx, PBE_TRUNCATED, mi, fi, at);
        uint8_t *slot = kw_col_fixed_slot(col); /* float, fixed32, sfixed32: 4 bytes LE */
        if (!slot)
            return pb_fail(cx, PBE_NOMEM, mi, fi, at);
        memcpy(slot, *pp, 4);
        *pp += 4;
        return 0;
    }
    default: { /* 2 */
        size_t n;
        if (pb_length(cx, pp, end, &n, mi, fi) < 0)
            return -1;
        const uint8_t *v = *pp;
        *pp += n;
        if (f->type == PBT_MESSAGE)
            return pb_message(cx, f->msg, v, v + n);
        if (f->type == PBT_STRING && !kw_utf8_ok(v, n))
            return pb_fail(cx, PBE_UTF8, mi, fi, v);
        rc = pb_binary(col, v, n);
        break;
    }
    }
    return rc < 0 ? pb_fail(cx, PBE_NOMEM, mi, fi, at) : 0;
}

/* The default of an absent field with PBF_DEFAULT. */
static int pb_default(pb_ctx *cx, int32_t mi, int32_t fi, const uint8_t *at) {
    const kw_pb_field *f = &cx->prog->fields[fi];
    kw_col *col = &cx->table[f->elem];
    int rc;
    switch (f->type) {
    case PBT_MESSAGE:
        return pb_message(cx, f->msg, pb_empty, pb_empty);
    case PBT_BOOL:
        rc = kw_col_bool(col, 0);
        break;
    case PBT_STRING:
    case PBT_BYTES:
        rc = pb_binary(col, pb_empty, 0);
        break;
    case PBT_ENUM: {
        const int32_t *so = cx->prog->name_offsets;
        rc = pb_binary(col, cx->prog->names + so[f->c], (size_t)(so[f->c + 1] - so[f->c]));
        break;
    }
    default: {
        uint8_t *slot = kw_col_fixed_slot(col);
        rc = slot ? 0 : -1;
        if (slot)
            memset(slot, 0, (size_t)col->width);
        break;
    }
    }
    return rc < 0 ? pb_fail(cx, PBE_NOMEM, mi, fi, at) : 0;
}

/* Skips an unknown field's value. */
static int pb_skip(pb_ctx *cx, int32_t mi, uint32_t wt, const uint8_t **pp, const uint8_t *end,
                   const uint8_t *at) {
    uint64_t v;
    size_t n;
    switch (wt) {
    case 0:
        return pb_varint(cx, pp, end, &v, mi, -1);
    case 1:
        if (end - *pp < 8)
            return pb_fail(cx, PBE_TRUNCATED, mi, -1, *pp);
        *pp += 8;
        return 0;
    case 2:
        if (pb_length(cx, pp, end, &n, mi, -1) < 0)
            return -1;
        *pp += n;
        return 0;
    case 5:
        if (end - *pp < 4)
            return pb_fail(cx, PBE_TRUNCATED, mi, -1, *pp);
        *pp += 4;
        return 0;
    case 3:
    case 4:
        return pb_fail(cx, PBE_GROUP, mi, -1, at);
    default:
        return pb_fail(cx, PBE_BAD_WIRE_TYPE, mi, -1, at);
    }
}

static inline int32_t pb_lookup(const kw_pb_program *prog, const kw_pb_message *m,
                                uint32_t number) {
    if (m->dense >= 0)
        return number < (uint32_t)m->dense_len ? prog->dense[m->dense + (int32_t)number] : -1;
    const kw_pb_field *fs = prog->fields + m->first;
    int32_t lo = 0, hi = m->count;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (fs[mid].number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->count && fs[lo].number == number ? lo : -1;
}

/* A field's value (k: the field's place in its message, base: the message's seen marks). */
static int pb_field(pb_ctx *cx, int32_t mi, int32_t k, size_t base, uint32_t wt,
                    const uint8_t **pp, const uint8_t *end, const uint8_t *at) {
    const kw_pb_message *m = &cx->prog->msgs[mi];
    int32_t fi = m->first + k;
    const kw_pb_field *f = &cx->prog->fields[fi];
    uint32_t want = pb_wire_of(f->type);
    if (wt == 3 || wt == 4)
        return pb_fail(cx, PBE_GROUP, mi, fi, at);
    if (wt > 5)
        return pb_fail(cx, PBE_BAD_WIRE_TYPE, mi, fi, at);
    if (f->flags & PBF_REPEATED) {
        if (wt == 2 && want != 2) { /* packed scalars */
            size_t n;
            if (pb_length(cx, pp, end, &n, mi, fi) < 0)
                return -1;
            const uint8_t *q = *pp, *qend = q + n;
            while (q < qend)
                if (pb_value(cx, mi, fi, want, &q, qend) < 0)
                    return -1;
            *pp = qend;
            return 0;
        }
        if (wt != want)
            return pb_fail(cx, PBE_WIRE_TYPE, mi, fi, at);
        return pb_value(cx, mi, fi, wt, pp, end);
    }
    if (wt != want)
        return pb_fail(cx, PBE_WIRE_TYPE, mi, fi, at);
    if (cx->scratch->seen[base + (size_t)k]) {
        /* last one wins: take back the value appended for this row */
        kw_col *col = &cx->table[f->elem];
        if (!pb_is_leaf(col))
            return pb_fail(cx, PBE_DUPLICATE, mi, fi, at);
        pb_col_pop(col);
    } else if (f->oneof >= 0) {
        /* a oneof holds one member: the one set before is cleared */
        for (int32_t j = 0; j < m->count; j++) {
            const kw_pb_field *g = &cx->prog->fields[m->first + j];
            if (j == k || g->oneof != f->oneof || !cx->scratch->seen[base + (size_t)j])
                continue;
            kw_col *gcol = &cx->table[g->elem];
            if (!pb_is_leaf(gcol))
                return pb_fail(cx, PBE_ONEOF, mi, fi, at);
            pb_col_pop(gcol);
            cx->scratch->seen[base + (size_t)j] = 0;
        }
    }
    if (pb_value(cx, mi, fi, wt, pp, end) < 0)
        return -1;
    cx->scratch->seen[base + (size_t)k] = 1;
    return 0;
}

/* google.protobuf.Timestamp / Duration: seconds (1) and nanos (2) into microseconds. */
static int pb_time(pb_ctx *cx, int32_t mi, const uint8_t *p, const uint8_t *end) {
    const kw_pb_message *m = &cx->prog->msgs[mi];
    const uint8_t *start = p;
    int64_t seconds = 0, nanos = 0;
    while (p < end) {
        const uint8_t *at = p;
        uint64_t tag, v;
        if (pb_varint(cx, &p, end, &tag, mi, -1) < 0)
            return -1;
        uint64_t number = tag >> 3;
        uint32_t wt = (uint32_t)(tag & 7);
        if (number == 0 || number > PB_MAX_NUMBER)
            return pb_fail(cx, PBE_FIELD_ZERO, mi, -1, at);
        if (number == 1 || number == 2) {
            if (wt != 0)
                return pb_fail(cx, wt == 3 || wt == 4 ? PBE_GROUP : PBE_WIRE_TYPE, mi, -1, at);
            if (pb_varint(cx, &p, end, &v, mi, -1) < 0)
                return -1;
            if (number == 1)
                seconds = (int64_t)v;
            else
                nanos = (int32_t)(uint32_t)v;
            continue;
        }
        if (pb_skip(cx, mi, wt, &p, end, at) < 0)
            return -1;
    }
    if (m->kind == PBM_TIMESTAMP) {
        if (seconds < PB_TS_MIN_SECONDS || seconds > PB_TS_MAX_SECONDS || nanos < 0 ||
            nanos > 999999999)
            return pb_fail(cx, PBE_RANGE, mi, -1, start);
    } else {
        if (seconds < -PB_DUR_MAX_SECONDS || seconds > PB_DUR_MAX_SECONDS ||
            nanos < -999999999 || nanos > 999999999 || (seconds > 0 && nanos < 0) ||
            (seconds < 0 && nanos > 0))
            return pb_fail(cx, PBE_RANGE, mi, -1, start);
    }
    /* nanos / 1000 truncates toward zero: a floor for Timestamp's non-negative nanos, and
     * a Duration's nanos share the seconds' sign */
    if (kw_col_i64(&cx->table[m->col], seconds * 1000000 + nanos / 1000) < 0)
        return pb_fail(cx, PBE_NOMEM, mi, -1, start);
    return 0;
}

static int pb_message(pb_ctx *cx, int32_t mi, const uint8_t *p, const uint8_t *end) {
    const kw_pb_message *m = &cx->prog->msgs[mi];
    if (++cx->depth > PB_MAX_DEPTH)
        return pb_fail(cx, PBE_DEPTH, mi, -1, p);
    if (m->kind == PBM_TIMESTAMP || m->kind == PBM_DURATION) {
        if (pb_time(cx, mi, p, end) < 0)
            return -1;
        cx->depth--;
        return 0;
    }
    size_t base = cx->seen_top, count = (size_t)m->count;
    if (base + count > cx->scratch->cap) {
        size_t cap = cx->scratch->cap ? cx->scratch->cap : 256;
        while (cap < base + count)
            cap *= 2;
        uint8_t *seen = (uint8_t *)realloc(cx->scratch->seen, cap);
        if (!seen)
            return pb_fail(cx, PBE_NOMEM, mi, -1, p);
        cx->scratch->seen = seen;
        cx->scratch->cap = cap;
    }
    if (count)
        memset(cx->scratch->seen + base, 0, count);
    cx->seen_top = base + count;
    while (p < end) {
        const uint8_t *at = p;
        uint64_t tag;
        if (pb_varint(cx, &p, end, &tag, mi, -1) < 0)
            return -1;
        uint64_t number = tag >> 3;
        uint32_t wt = (uint32_t)(tag & 7);
        if (number == 0 || number > PB_MAX_NUMBER)
            return pb_fail(cx, PBE_FIELD_ZERO, mi, -1, at);
        int32_t k = pb_lookup(cx->prog, m, (uint32_t)number);
        if (k < 0) {
            if (pb_skip(cx, mi, wt, &p, end, at) < 0)
                return -1;
            continue;
        }
        if (pb_field(cx, mi, k, base, wt, &p, end, at) < 0)
            return -1;
    }
    /* the message's end: lists closed, absent fields defaulted or null */
    for (int32_t k = 0; k < m->count; k++) {
        int32_t fi = m->first + k;
        const kw_pb_field *f = &cx->prog->fields[fi];
        int rc = 0;
        if (f->flags & PBF_REPEATED) {
            rc = kw_col_list_end(&cx->table[f->col], &cx->table[f->elem]);
        } else if (cx->scratch->seen[base + (size_t)k]) {
            continue;
        } else if (f->flags & PBF_DEFAULT) {
            if (pb_default(cx, mi, fi, end) < 0)
                return -1;
            continue;
        } else {
            rc = kw_col_null(cx->table, f->col);
        }
        if (rc < 0)
            return pb_fail(cx, PBE_NOMEM, mi, fi, end);
    }
    cx->seen_top = base;
    if (m->kind == PBM_STRUCT && kw_col_bit(&cx->table[m->col], 1) < 0)
        return pb_fail(cx, PBE_NOMEM, mi, -1, end);
    cx->depth--;
    return 0;
}

ptrdiff_t kw_pb_message_indexes(const uint8_t *p, size_t len, int32_t *indexes, int32_t *count,
                                kw_pb_error *err) {
    const uint8_t *q = p, *end = p + len;
    uint64_t v;
    err->code = PBE_OK;
    err->msg = -1;
    err->field = -1;
    int n = kw_uvarint64(q, end, &v);
    if (n == 0) {
        err->code = (end - q) >= 10 ? PBE_VARINT : PBE_TRUNCATED;
        err->offset = 0;
        return -1;
    }
    int64_t c = kw_unzigzag64(v);
    q += n;
    if (c == 0) {
        indexes[0] = 0;
        *count = 1;
        return q - p;
    }
    if (c < 0 || c > KW_PB_MAX_INDEXES) {
        err->code = PBE_INDEX_COUNT;
        err->offset = 0;
        return -1;
    }
    for (int64_t i = 0; i < c; i++) {
        n = kw_uvarint64(q, end, &v);
        if (n == 0) {
            err->code = (end - q) >= 10 ? PBE_VARINT : PBE_TRUNCATED;
            err->offset = q - p;
            return -1;
        }
        int64_t x = kw_unzigzag64(v);
        if (x < 0 || x > INT32_MAX) {
            err->code = PBE_INDEX;
            err->offset = q - p;
            return -1;
        }
        indexes[i] = (int32_t)x;
        q += n;
    }
    *count = (int32_t)c;
    return q - p;
}

int kw_pb_decode(const kw_pb_program *prog, kw_col *table, const uint8_t *payload, size_t len,
                 kw_pb_scratch *scratch, kw_pb_error *err) {
    pb_ctx cx = {prog, table, payload, scratch, 0, err, 0};
    err->code = PBE_OK;
    if (!payload)
        payload = pb_empty;
    cx.start = payload;
    return pb_message(&cx, prog->root, payload, payload + len);
}
