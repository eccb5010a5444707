/* The Avro interpreter of avro_decode.h. */
#include "avro_decode.h"
#include "utf8.h"

#include <string.h>

#define AV_MAX_DEPTH 64

typedef struct {
    const kw_avro_program *prog;
    kw_col *table;
    const uint8_t *start; /* the payload, for error offsets */
    const uint8_t *end;
    kw_avro_error *err;
    int depth;
} av_ctx;

static int av_fail(av_ctx *cx, int code, int32_t node, const uint8_t *at) {
    if (cx->err->code == AVE_OK) {
        cx->err->code = code;
        cx->err->node = node;
        cx->err->offset = at - cx->start;
    }
    return -1;
}

static inline __attribute__((always_inline)) int av_long(av_ctx *cx, int32_t node, const uint8_t **pp, int64_t *out) {
    const uint8_t *p = *pp;
    /* one-byte values are most of them */
    if (p < cx->end && !(*p & 0x80)) {
        *out = (int64_t)(*p >> 1) ^ -(int64_t)(*p & 1);
        *pp = p + 1;
        return 0;
    }
    uint64_t v;
    int n = kw_uvarint64(p, cx->end, &v);
    if (n == 0)
        return av_fail(cx, (cx->end - p) >= 10 ? AVE_VARINT : AVE_TRUNCATED, node, p);
    *out = kw_unzigzag64(v);
    *pp = p + n;
    return 0;
}

/* A length (bytes, string, fixed) that must fit in what is left. */
static inline int av_length(av_ctx *cx, int32_t node, const uint8_t **pp, size_t *out) {
    const uint8_t *at = *pp;
    int64_t n;
    if (av_long(cx, node, pp, &n) < 0)
        return -1;
    if (n < 0)
        return av_fail(cx, AVE_LENGTH, node, at);
    if ((uint64_t)n > (uint64_t)(cx->end - *pp))
        return av_fail(cx, AVE_TRUNCATED, node, *pp);
    *out = (size_t)n;
    return 0;
}

static int av_run(av_ctx *cx, int32_t ni, const uint8_t **pp);

static inline __attribute__((always_inline)) int av_number(av_ctx *cx, const kw_avro_node *nd, int32_t ni, int64_t iv,
                            double dv, int is_float) {
    kw_col *col = &cx->table[nd->col];
    int rc;
    switch (nd->to) {
    case AVT_I32:
        rc = kw_col_i32(col, (int32_t)iv);
        break;
    case AVT_I64:
        rc = kw_col_i64(col, iv);
        break;
    case AVT_F32:
        rc = kw_col_f32(col, is_float ? (float)dv : (float)iv);
        break;
    default:
        rc = kw_col_f64(col, is_float ? dv : (double)iv);
        break;
    }
    return rc < 0 ? av_fail(cx, AVE_NOMEM, ni, cx->start) : 0;
}

/* Big-endian two's complement of n bytes into a little-endian integer of `width` bytes. */
static int av_decimal(av_ctx *cx, int32_t ni, const uint8_t *src, size_t n, const uint8_t *at) {
    const kw_avro_node *nd = &cx->prog->nodes[ni];
    if (nd->col < 0)
        return 0;
    kw_col *col = &cx->table[nd->col];
    size_t width = (size_t)col->width;
    uint8_t fill = (n > 0 && (src[0] & 0x80)) ? 0xFF : 0x00;
    /* leading sign bytes beyond the width carry nothing; anything else overflows */
    while (n > width) {
        if (src[0] != fill)
            return av_fail(cx, AVE_DECIMAL, ni, at);
        src++;
        n--;
    }
    if (n == width && width > 0 && ((src[0] & 0x80) ? 0xFF : 0x00) != fill)
        return av_fail(cx, AVE_DECIMAL, ni, at);
    uint8_t *slot = kw_col_fixed_slot(col);
    if (!slot)
        return av_fail(cx, AVE_NOMEM, ni, at);
    for (size_t i = 0; i < width; i++)
        slot[i] = i < n ? src[n - 1 - i] : fill;
    /* decimal128: the unscaled value must have at most `precision` digits (Arrow's rule) */
    if (width == 16 && nd->c > 0 && nd->c <= 38) {
        __int128 v;
        memcpy(&v, slot, 16);
        unsigned __int128 mag = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
        unsigned __int128 bound = 1;
        for (int32_t d = 0; d < nd->c; d++)
            bound *= 10;
        if (mag >= bound) /* the record is rolled back, slot and all */
            return av_fail(cx, AVE_DECIMAL, ni, at);
    }
    return 0;
}

/* A union branch's bookkeeping before its value: the general union's struct row. */
static int av_branch_open(av_ctx *cx, const kw_avro_node *nd, int32_t ni) {
    if (nd->branch != AVB_MEMBER || nd->ucol < 0)
        return 0;
    kw_col *u = &cx->table[nd->ucol];
    for (int32_t m = 0; m < u->nchildren; m++)
        if (m != nd->member && kw_col_null(cx->table, u->child0 + m) < 0)
            return av_fail(cx, AVE_NOMEM, ni, cx->start);
    if (kw_col_bit(u, 1) < 0)
        return av_fail(cx, AVE_NOMEM, ni, cx->start);
    return 0;
}

static int av_run(av_ctx *cx, int32_t ni, const uint8_t **pp) {
    const kw_avro_node *nd = &cx->prog->nodes[ni];
    const uint8_t *at = *pp;
    int32_t colno = nd->col;
    kw_col *col = colno >= 0 ? &cx->table[colno] : NULL;
    int64_t iv;
    size_t n;

    if (nd->branch == AVB_MEMBER && av_branch_open(cx, nd, ni) < 0)
        return -1;

    switch (nd->op) {
    case AV_NULL:
        if (nd->branch == AVB_NULL && nd->ucol >= 0 && kw_col_null(cx->table, nd->ucol) < 0)
            return av_fail(cx, AVE_NOMEM, ni, at);
        if (col && nd->branch != AVB_NULL && kw_col_null(cx->table, colno) < 0)
            return av_fail(cx, AVE_NOMEM, ni, at);
        return 0;
    case AV_BOOLEAN:
        if (*pp >= cx->end)
            return av_fail(cx, AVE_TRUNCATED, ni, at);
        if (**pp > 1)
            return av_fail(cx, AVE_LENGTH, ni, at);
        (*pp)++;
        if (col && kw_col_bool(col, at[0]) < 0)
            return av_fail(cx, AVE_NOMEM, ni, at);
        return 0;
    case AV_INT:
        if (av_long(cx, ni, pp, &iv) < 0)
            return -1;
        if (iv < INT32_MIN || iv > INT32_MAX)
            return av_fail(cx, AVE_INT_RANGE, ni, at);
        if (nd->flags == AVF_TIME_MS && (iv < 0 || iv >= 86400000LL))
            return av_fail(cx, AVE_TIME, ni, at);
        return col ? av_number(cx, nd, ni, iv, 0, 0) : 0;
    case AV_LONG:
        if (av_long(cx, ni, pp, &iv) < 0)
            return -1;
        if (nd->flags == AVF_TIME_US && (iv < 0 || iv >= 86400000000LL))
            return av_fail(cx, AVE_TIME, ni, at);
        return col ? av_number(cx, nd, ni, iv, 0, 0) : 0;
    case AV_FLOAT: {
        if (cx->end - *pp < 4)
            return av_fail(cx, AVE_TRUNCATED, ni, at);
        float f;
        memcpy(&f, *pp, 4); /* Avro floats are little-endian, as every target here */
        *pp += 4;
        return col ? av_number(cx, nd, ni, 0, (double)f, 1) : 0;
    }
    case AV_DOUBLE: {
        if (cx->end - *pp < 8)
            return av_fail(cx, AVE_TRUNCATED, ni, at);
        double d;
        memcpy(&d, *pp, 8);
        *pp += 8;
        return col ? av_number(cx, nd, ni, 0, d, 1) : 0;
    }
    case AV_BYTES:
    case AV_STRING:
        if (av_length(cx, ni, pp, &n) < 0)
            return -1;
        if (nd->op == AV_STRING && nd->flags && !kw_utf8_ok(*pp, n))
            return av_fail(cx, AVE_UTF8, ni, *pp);
        if (col && kw_col_binary(col, *pp, n) < 0)
            return av_fail(cx, AVE_NOMEM, ni, at);
        *pp += n;
        return 0;
    case AV_FIXED:
        n = (size_t)nd->a;
        if ((size_t)(cx->end - *pp) < n)
            return av_fail(cx, AVE_TRUNCATED, ni, at);
        if (col) {
            int rc;
            if (col->kind == KWC_BINARY) {
                rc = kw_col_binary(col, *pp, n);
            } else {
                uint8_t *slot = kw_col_fixed_slot(col);
                rc = slot ? (memcpy(slot, *pp, n), 0) : -1;
            }
            if (rc < 0)
                return av_fail(cx, AVE_NOMEM, ni, at);
        }
        *pp += n;
        return 0;
    case AV_DURATION: {
        if (cx->end - *pp < 12)
            return av_fail(cx, AVE_TRUNCATED, ni, at);
        uint32_t months, days, millis;
        memcpy(&months, *pp, 4);
        memcpy(&days, *pp + 4, 4);
        memcpy(&millis, *pp + 8, 4);
        *pp += 12;
        if (col) {
            uint8_t *slot = kw_col_fixed_slot(col);
            if (!slot)
                return av_fail(cx, AVE_NOMEM, ni, at);
            int32_t m = (int32_t)months, d = (int32_t)days;
            int64_t ns = (int64_t)millis * 1000000;
            memcpy(slot, &m, 4);
            memcpy(slot + 4, &d, 4);
            memcpy(slot + 8, &ns, 8);
        }
        return 0;
    }
    case AV_ENUM: {
        if (av_long(cx, ni, pp, &iv) < 0)
            return -1;
        if (iv < 0 || iv >= nd->b)
            return av_fail(cx, AVE_ENUM_INDEX, ni, at);
        if (!col)
            return 0;
        int32_t s = cx->prog->enum_map[nd->a + iv];
        if (s < 0)
            return av_fail(cx, AVE_ENUM_SYMBOL, ni, at);
        const int32_t *so = cx->prog->symbol_offsets;
        if (kw_col_binary(col, cx->prog->symbols + so[s], (size_t)(so[s + 1] - so[s])) < 0)
            return av_fail(cx, AVE_NOMEM, ni, at);
        return 0;
    }
    case AV_RECORD: {
        if (++cx->depth > AV_MAX_DEPTH)
            return av_fail(cx, AVE_DEPTH, ni, at);
        const int32_t *kids = cx->prog->kids + nd->a;
        for (int32_t k = 0; k < nd->b; k++)
            if (av_run(cx, kids[k], pp) < 0)
                return -1;
        cx->depth--;
        if (col && kw_col_bit(col, 1) < 0)
            return av_fail(cx, AVE_NOMEM, ni, at);
        return 0;
    }
    case AV_ARRAY:
    case AV_MAP: {
        if (++cx->depth > AV_MAX_DEPTH)
            return av_fail(cx, AVE_DEPTH, ni, at);
        kw_col *entries = col && nd->op == AV_MAP ? &cx->table[col->child0] : NULL;
        kw_col *keys = nd->op == AV_MAP && nd->b >= 0 ? &cx->table[nd->b] : NULL;
        for (;;) {
            const uint8_t *block_at = *pp;
            int64_t count;
            if (av_long(cx, ni, pp, &count) < 0)
                return -1;
            if (count == 0)
                break;
            if (count < 0) { /* a block with its byte size, which we do not need */
                int64_t size;
                if (count == INT64_MIN || av_long(cx, ni, pp, &size) < 0)
                    return av_fail(cx, AVE_LENGTH, ni, block_at);
                count = -count;
            }
            /* every item takes at least one byte, except nulls and empty records: bound the
             * loop by what is left all the same (a huge count of zero-byte items would make
             * columns grow without input) */
            if (count > (int64_t)(cx->end - *pp) && count > 1000000)
                return av_fail(cx, AVE_LENGTH, ni, block_at);
            for (int64_t i = 0; i < count; i++) {
                if (nd->op == AV_MAP) {
                    const uint8_t *kat = *pp;
                    if (av_length(cx, ni, pp, &n) < 0)
                        return -1;
                    if (!kw_utf8_ok(*pp, n))
                        return av_fail(cx, AVE_UTF8, ni, *pp);
                    if (keys && kw_col_binary(keys, *pp, n) < 0)
                        return av_fail(cx, AVE_NOMEM, ni, kat);
                    *pp += n;
                }
                if (av_run(cx, nd->a, pp) < 0)
                    return -1;
                if (entries && kw_col_bit(entries, 1) < 0)
                    return av_fail(cx, AVE_NOMEM, ni, at);
            }
        }
        cx->depth--;
        if (col) {
            kw_col *child = &cx->table[col->child0];
            if (kw_col_list_end(col, child) < 0)
                return av_fail(cx, AVE_NOMEM, ni, at);
        }
        return 0;
    }
    case AV_UNION:
        if (av_long(cx, ni, pp, &iv) < 0)
            return -1;
        if (iv < 0 || iv >= nd->b)
            return av_fail(cx, AVE_UNION_INDEX, ni, at);
        return av_run(cx, cx->prog->kids[nd->a + iv], pp);
    case AV_DECIMAL_BYTES:
        if (av_length(cx, ni, pp, &n) < 0)
            return -1;
        if (av_decimal(cx, ni, *pp, n, at) < 0)
            return -1;
        *pp += n;
        return 0;
    case AV_DECIMAL_FIXED:
        n = (size_t)nd->a;
        if ((size_t)(cx->end - *pp) < n)
            return av_fail(cx, AVE_TRUNCATED, ni, at);
        if (av_decimal(cx, ni, *pp, n, at) < 0)
            return -1;
        *pp += n;
        return 0;
    case AV_DEFAULT: {
        /* the default's bytes are the program's own, decoded as a payload of their own */
        const uint8_t *save_start = cx->start, *save_end = cx->end;
        const uint8_t *dp = cx->prog->defaults + nd->b;
        cx->start = dp;
        cx->end = dp + nd->c;
        int rc = av_run(cx, nd->a, &dp);
        cx->start = save_start;
        cx->end = save_end;
        return rc;
    }
    case AV_ERROR:
    default:
        return av_fail(cx, AVE_RESOLVE, ni, at);
    }
}

int kw_avro_decode(const kw_avro_program *prog, kw_col *table, const uint8_t *payload,
                   size_t len, kw_avro_error *err) {
    av_ctx cx = {prog, table, payload, payload + len, err, 0};
    err->code = AVE_OK;
    const uint8_t *p = payload;
    if (av_run(&cx, prog->root, &p) < 0)
        return -1;
    if (p != cx.end)
        return av_fail(&cx, AVE_TRAILING, prog->root, p);
    return 0;
}
