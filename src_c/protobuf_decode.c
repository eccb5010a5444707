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
    const uint8_t *limit; /* the end of what may be read (the payload's buffer) */
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

/* A varint of at most 8 bytes, read from 8 readable bytes without a branch per byte: its
 * length, or 0 when it is longer (bytes as they are in memory: little-endian targets). */
static inline int pb_varint8(const uint8_t *p, uint64_t *out) {
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t stops = ~x & 0x8080808080808080ULL; /* the high bit clear ends a varint */
    if (!stops)
        return 0;
    unsigned bits = (unsigned)__builtin_ctzll(stops) + 1; /* 8 * the length */
    x &= ~0ULL >> (64 - bits);
    /* the 7-bit groups side by side: pairs, then fours, then eights */
    x = ((x & 0x7F007F007F007F00ULL) >> 1) | (x & 0x007F007F007F007FULL);
    x = ((x & 0x3FFF00003FFF0000ULL) >> 2) | (x & 0x00003FFF00003FFFULL);
    x = ((x & 0x0FFFFFFF00000000ULL) >> 4) | (x & 0x000000000FFFFFFFULL);
    *out = x;
    return (int)(bits >> 3);
}

static inline int pb_varint(pb_ctx *cx, const uint8_t **pp, const uint8_t *end, uint64_t *out,
                            int32_t msg, int32_t field) {
    const uint8_t *p = *pp;
    if (__builtin_expect(end - p >= 8, 1)) {
        int n = pb_varint8(p, out);
        if (__builtin_expect(n > 0, 1)) {
            *pp = p + n;
            return 0;
        }
    }
    int n = kw_uvarint64(p, end, out);
    if (n == 0)
        return pb_fail(cx, (end - p) >= 10 ? PBE_VARINT : PBE_TRUNCATED, msg, field, p);
    *pp = p + n;
    return 0;
}

/* A field's tag: one byte for field numbers below 16, the usual case, tested first. */
static inline int pb_tag(pb_ctx *cx, const uint8_t **pp, const uint8_t *end, uint64_t *out,
                         int32_t msg) {
    const uint8_t *p = *pp;
    if (__builtin_expect(!(*p & 0x80), 1)) { /* the caller checked p < end */
        *out = *p;
        *pp = p + 1;
        return 0;
    }
    return pb_varint(cx, pp, end, out, msg, -1);
}

/* A length-delimited value's length, checked against what is left of its message. */
static inline int pb_length(pb_ctx *cx, const uint8_t **pp, const uint8_t *end, size_t *out,
                            int32_t msg, int32_t field) {
    const uint8_t *at = *pp;
    uint64_t n;
    if (at < end && !(*at & 0x80)) { /* under 128 bytes: the usual length */
        n = *at;
        *pp = at + 1;
    } else if (pb_varint(cx, pp, end, &n, msg, field) < 0) {
        return -1;
    }
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

static inline int pb_is_leaf(const kw_col *col) {
    return col->kind == KWC_FIXED || col->kind == KWC_BINARY || col->kind == KWC_BOOL;
}

static int pb_message(pb_ctx *cx, int32_t mi, const uint8_t *p, const uint8_t *end);
static int pb_time(pb_ctx *cx, int32_t mi, const uint8_t *p, const uint8_t *end);

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
        return kw_col_binary(col, cx->prog->names + so[s], (size_t)(so[s + 1] - so[s]));
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
    return kw_col_binary(col, (const uint8_t *)buf, (size_t)k);
}

/* One value of field `fi` (f, its op; its wire type checked by the caller), appended to its
 * column. The caller passes what it holds in registers: the column stores write bytes, which
 * may alias anything, so whatever this loaded through cx would be loaded again after each. */
static inline __attribute__((always_inline)) int pb_value(pb_ctx *cx, int32_t mi, int32_t fi,
                                                          const kw_pb_field *f, uint8_t op,
                                                          kw_col *col, const uint8_t **pp,
                                                          const uint8_t *end) {
    const uint8_t *at = *pp;
    uint64_t v;
    size_t n;
    int rc;
    switch (op & ~PBO_SLOW) {
    case PBO_INT64:
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        rc = kw_col_i64(col, (int64_t)v);
        break;
    case PBO_INT32:
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        rc = kw_col_i32(col, (int32_t)(uint32_t)v);
        break;
    case PBO_SINT32: {
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        uint32_t u = (uint32_t)v;
        rc = kw_col_i32(col, (int32_t)(u >> 1) ^ -(int32_t)(u & 1));
        break;
    }
    case PBO_SINT64:
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        rc = kw_col_i64(col, kw_unzigzag64(v));
        break;
    case PBO_BOOL:
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        rc = kw_col_bool(col, v != 0);
        break;
    case PBO_ENUM:
        if (pb_varint(cx, pp, end, &v, mi, fi) < 0)
            return -1;
        rc = pb_enum(cx, f, col, (int32_t)(uint32_t)v);
        break;
    case PBO_FIXED64: {
        if (end - at < 8)
            return pb_fail(cx, PBE_TRUNCATED, mi, fi, at);
        uint8_t *slot = kw_col_fixed_slot(col);
        if (!slot)
            return pb_fail(cx, PBE_NOMEM, mi, fi, at);
        memcpy(slot, at, 8);
        *pp = at + 8;
        return 0;
    }
    case PBO_FIXED32: {
        if (end - at < 4)
            return pb_fail(cx, PBE_TRUNCATED, mi, fi, at);
        uint8_t *slot = kw_col_fixed_slot(col);
        if (!slot)
            return pb_fail(cx, PBE_NOMEM, mi, fi, at);
        memcpy(slot, at, 4);
        *pp = at + 4;
        return 0;
    }
    case PBO_STRING:
    case PBO_BYTES: {
        if (pb_length(cx, pp, end, &n, mi, fi) < 0)
            return -1;
        const uint8_t *s = *pp;
        int is_string = (op & ~PBO_SLOW) == PBO_STRING;
        *pp = s + n;
        if (n <= 16 && cx->limit - s >= 16) { /* short values: no loop, no call */
            if (is_string && !kw_ascii16(s, n) && !kw_utf8_ok(s, n))
                return pb_fail(cx, PBE_UTF8, mi, fi, s);
            rc = kw_col_binary16(col, s, n);
            break;
        }
        if (is_string && !kw_utf8_ok(s, n))
            return pb_fail(cx, PBE_UTF8, mi, fi, s);
        rc = kw_col_binary(col, s, n);
        break;
    }
    case PBO_TIME: { /* a leaf, without pb_message's bookkeeping (its depth still counts) */
        if (pb_length(cx, pp, end, &n, mi, fi) < 0)
            return -1;
        const uint8_t *s = *pp;
        *pp = s + n;
        if (cx->depth >= PB_MAX_DEPTH)
            return pb_fail(cx, PBE_DEPTH, f->msg, -1, s);
        return pb_time(cx, f->msg, s, s + n);
    }
    case PBO_MESSAGE: {
        if (pb_length(cx, pp, end, &n, mi, fi) < 0)
            return -1;
        const uint8_t *s = *pp;
        *pp = s + n;
        return pb_message(cx, f->msg, s, s + n);
    }
    default: /* groups: compiled programs have none, the wire may */
        return pb_fail(cx, PBE_GROUP, mi, fi, at);
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
        rc = kw_col_binary(col, pb_empty, 0);
        break;
    case PBT_ENUM: {
        const int32_t *so = cx->prog->name_offsets;
        rc = kw_col_binary(col, cx->prog->names + so[f->c], (size_t)(so[f->c + 1] - so[f->c]));
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

/* A message's seen bits: field k's is bit k % 64 of word k / 64. A message of at most 64
 * fields keeps its word in a local; a wider one in the scratch space, at `base` (a pointer
 * to reload after a nested message: it may move the scratch). */
#define PB_SEEN(cx, base) ((cx)->scratch->seen + (base))
#define PB_BIT(k) (1ULL << ((k) & 63))
#define PB_WORDS(cx, local, base) ((local) ? (local) : PB_SEEN(cx, base))

/* A field's value, the general way: packed repeated scalars, wire types that do not fit,
 * repeated fields, oneof members, a singular field seen before (k: the field's place in its
 * message; local: its seen word, or NULL for the scratch's words at base). */
static __attribute__((noinline)) int pb_field(pb_ctx *cx, int32_t mi, int32_t k,
                                              uint64_t *local, size_t base, uint32_t wt,
                                              const uint8_t **pp, const uint8_t *end,
                                              const uint8_t *at) {
    const kw_pb_message *m = &cx->prog->msgs[mi];
    int32_t fi = m->first + k;
    const kw_pb_field *f = &cx->prog->fields[fi];
    uint8_t op = cx->prog->ops[fi];
    kw_col *col = &cx->table[f->elem];
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
                if (pb_value(cx, mi, fi, f, op, col, &q, qend) < 0)
                    return -1;
            *pp = qend;
            return 0;
        }
        if (wt != want)
            return pb_fail(cx, PBE_WIRE_TYPE, mi, fi, at);
        return pb_value(cx, mi, fi, f, op, col, pp, end);
    }
    if (wt != want)
        return pb_fail(cx, PBE_WIRE_TYPE, mi, fi, at);
    uint64_t *seen = PB_WORDS(cx, local, base);
    if (seen[k >> 6] & PB_BIT(k)) {
        /* last one wins: take back the value appended for this row */
        if (!pb_is_leaf(col))
            return pb_fail(cx, PBE_DUPLICATE, mi, fi, at);
        kw_col_truncate(cx->table, f->elem, col->length - 1);
    } else if (f->oneof >= 0) {
        /* a oneof holds one member: the one set before is cleared */
        for (int32_t j = 0; j < m->count; j++) {
            const kw_pb_field *g = &cx->prog->fields[m->first + j];
            if (j == k || g->oneof != f->oneof || !(seen[j >> 6] & PB_BIT(j)))
                continue;
            kw_col *gcol = &cx->table[g->elem];
            if (!pb_is_leaf(gcol))
                return pb_fail(cx, PBE_ONEOF, mi, fi, at);
            kw_col_truncate(cx->table, g->elem, gcol->length - 1);
            seen[j >> 6] &= ~PB_BIT(j);
        }
    }
    if (pb_value(cx, mi, fi, f, op, col, pp, end) < 0)
        return -1;
    PB_WORDS(cx, local, base)[k >> 6] |= PB_BIT(k);
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
        if (pb_tag(cx, &p, end, &tag, mi) < 0)
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

/* The end of a message: for each field not seen (a repeated one never is), its list closed,
 * its default or a null (local, base: as pb_field's). */
static int pb_message_end(pb_ctx *cx, int32_t mi, const uint64_t *local, size_t base,
                          const uint8_t *end) {
    const kw_pb_message *m = &cx->prog->msgs[mi];
    size_t words = ((size_t)m->count + 63) >> 6;
    for (size_t w = 0; w < words; w++) {
        uint64_t todo = ~(local ? local[w] : PB_SEEN(cx, base)[w]);
        if (w == words - 1 && (m->count & 63))
            todo &= PB_BIT(m->count) - 1;
        while (todo) {
            int32_t k = (int32_t)(w * 64) + __builtin_ctzll(todo);
            todo &= todo - 1;
            int32_t fi = m->first + k;
            const kw_pb_field *f = &cx->prog->fields[fi];
            int rc;
            if (f->flags & PBF_REPEATED) {
                rc = kw_col_list_end(&cx->table[f->col], &cx->table[f->elem]);
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
    }
    return 0;
}

/* A message's fields, in two copies: `wide` 0 for at most 64 fields (the seen bits in a
 * register), 1 for more (in the scratch space). */
static inline __attribute__((always_inline)) int pb_fields(pb_ctx *cx, int32_t mi,
                                                           const uint8_t *p,
                                                           const uint8_t *end,
                                                           const int wide) {
    const kw_pb_program *prog = cx->prog;
    const kw_pb_message *m = &prog->msgs[mi];
    const int32_t count = m->count, first = m->first;
    const uint32_t *tags = prog->tags + first;
    const uint8_t *ops = prog->ops + first;
    const kw_pb_field *fields = prog->fields + first;
    kw_col *table = cx->table;
    uint64_t seen = 0; /* !wide */
    size_t base = cx->seen_top;
    if (wide) {
        size_t words = ((size_t)count + 63) >> 6;
        if (base + words > cx->scratch->cap) {
            size_t cap = cx->scratch->cap ? cx->scratch->cap : 64;
            while (cap < base + words)
                cap *= 2;
            uint64_t *grown = (uint64_t *)realloc(cx->scratch->seen, cap * sizeof(uint64_t));
            if (!grown)
                return pb_fail(cx, PBE_NOMEM, mi, -1, p);
            cx->scratch->seen = grown;
            cx->scratch->cap = cap;
        }
        memset(cx->scratch->seen + base, 0, words * sizeof(uint64_t));
        cx->seen_top = base + words;
    }
    int32_t next = 0; /* serializers write fields in number order: try the next one first */
    while (p < end) {
        const uint8_t *at = p;
        uint64_t tag;
        if (pb_tag(cx, &p, end, &tag, mi) < 0)
            return -1;
        int32_t k = next;
        int expected = k < count && tags[k] == tag; /* the field, its wire type expected */
        if (!expected) {
            uint64_t number = tag >> 3;
            if (number == 0 || number > PB_MAX_NUMBER)
                return pb_fail(cx, PBE_FIELD_ZERO, mi, -1, at);
            k = pb_lookup(prog, m, (uint32_t)number);
            if (k < 0) {
                if (pb_skip(cx, mi, (uint32_t)(tag & 7), &p, end, at) < 0)
                    return -1;
                continue;
            }
            expected = tags[k] == tag;
        }
        next = k + 1;
        uint64_t bit = PB_BIT(k);
        int fresh = !((wide ? PB_SEEN(cx, base)[k >> 6] : seen) & bit);
        if (expected && !(ops[k] & PBO_SLOW) && fresh) {
            /* the fast path: a singular field, first seen, its wire type the expected one */
            const kw_pb_field *f = &fields[k];
            if (pb_value(cx, mi, first + k, f, ops[k], &table[f->elem], &p, end) < 0)
                return -1;
            if (wide)
                PB_SEEN(cx, base)[k >> 6] |= bit;
            else
                seen |= bit;
            continue;
        }
        uint64_t word = seen;
        if (pb_field(cx, mi, k, wide ? NULL : &word, base, (uint32_t)(tag & 7), &p, end, at) < 0)
            return -1;
        seen = word;
    }
    if (pb_message_end(cx, mi, wide ? NULL : &seen, base, end) < 0)
        return -1;
    cx->seen_top = base;
    return 0;
}

static int pb_message(pb_ctx *cx, int32_t mi, const uint8_t *p, const uint8_t *end) {
    const kw_pb_message *m = &cx->prog->msgs[mi];
    if (++cx->depth > PB_MAX_DEPTH)
        return pb_fail(cx, PBE_DEPTH, mi, -1, p);
    int rc;
    if (m->kind == PBM_TIMESTAMP || m->kind == PBM_DURATION)
        rc = pb_time(cx, mi, p, end);
    else if (m->count <= 64)
        rc = pb_fields(cx, mi, p, end, 0);
    else
        rc = pb_fields(cx, mi, p, end, 1);
    if (rc < 0)
        return -1;
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

int kw_pb_prepare(kw_pb_program *prog, int32_t nfields) {
    size_t n = nfields > 0 ? (size_t)nfields : 1;
    prog->tags = (uint32_t *)calloc(n, sizeof(uint32_t));
    prog->ops = (uint8_t *)calloc(n, 1);
    if (!prog->tags || !prog->ops) {
        kw_pb_release(prog);
        return -1;
    }
    for (int32_t fi = 0; fi < nfields; fi++) {
        const kw_pb_field *f = &prog->fields[fi];
        static const uint8_t op_of[] = {
            [PBT_DOUBLE] = PBO_FIXED64,  [PBT_FLOAT] = PBO_FIXED32,   [PBT_INT64] = PBO_INT64,
            [PBT_UINT64] = PBO_INT64,    [PBT_INT32] = PBO_INT32,     [PBT_FIXED64] = PBO_FIXED64,
            [PBT_FIXED32] = PBO_FIXED32, [PBT_BOOL] = PBO_BOOL,       [PBT_STRING] = PBO_STRING,
            [PBT_GROUP] = PBO_GROUP,     [PBT_MESSAGE] = PBO_MESSAGE, [PBT_BYTES] = PBO_BYTES,
            [PBT_UINT32] = PBO_INT32,    [PBT_ENUM] = PBO_ENUM,       [PBT_SFIXED32] = PBO_FIXED32,
            [PBT_SFIXED64] = PBO_FIXED64, [PBT_SINT32] = PBO_SINT32,  [PBT_SINT64] = PBO_SINT64,
        };
        uint8_t op = f->type < sizeof(op_of) ? op_of[f->type] : 0;
        if (op == PBO_MESSAGE) {
            int32_t kind = prog->msgs[f->msg].kind;
            if (kind == PBM_TIMESTAMP || kind == PBM_DURATION)
                op = PBO_TIME;
        }
        prog->ops[fi] = (uint8_t)((op ? op : PBO_GROUP) |
                                  ((f->flags & PBF_REPEATED) || f->oneof >= 0 ? PBO_SLOW : 0));
        prog->tags[fi] = (f->number << 3) | pb_wire_of(f->type);
    }
    return 0;
}

void kw_pb_release(kw_pb_program *prog) {
    free(prog->tags);
    free(prog->ops);
    prog->tags = NULL;
    prog->ops = NULL;
}

int kw_pb_decode(const kw_pb_program *prog, kw_col *table, const uint8_t *payload, size_t len,
                 size_t readable, kw_pb_scratch *scratch, kw_pb_error *err) {
    pb_ctx cx = {prog, table, payload, NULL, scratch, 0, err, 0};
    err->code = PBE_OK;
    if (!payload) {
        payload = pb_empty;
        readable = 0;
    }
    cx.start = payload;
    cx.limit = payload + (readable > len ? readable : len);
    return pb_message(&cx, prog->root, payload, payload + len);
}
