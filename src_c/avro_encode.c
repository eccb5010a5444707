/* Arrow columns to Avro binary values: see avro_encode.h. */
#include "avro_encode.h"

#include <stdlib.h>
#include <string.h>

#define KWE_INLINE static inline __attribute__((always_inline))

KWE_INLINE int put_long(kw_avroe_buf *b, int64_t v) {
    if (kw_buf_reserve(b, 10) < 0)
        return -1;
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    uint8_t *p = b->p + b->len;
    while (z >= 0x80) {
        *p++ = (uint8_t)(z | 0x80);
        z >>= 7;
    }
    *p++ = (uint8_t)z;
    b->len = (size_t)(p - b->p);
    return 0;
}

KWE_INLINE int put_bytes(kw_avroe_buf *b, const uint8_t *src, size_t n) {
    if (kw_buf_reserve(b, n) < 0)
        return -1;
    if (n)
        memcpy(b->p + b->len, src, n);
    b->len += n;
    return 0;
}

KWE_INLINE int bit(const uint8_t *bits, int64_t i) {
    return (bits[i >> 3] >> (i & 7)) & 1;
}

KWE_INLINE int64_t int_at(const kw_avroe_node *n, int64_t i) {
    const uint8_t *v = (const uint8_t *)(uintptr_t)n->values;
    if (n->flags & KWE_UNSIGNED) {
        switch (n->width) {
        case 1: return ((const uint8_t *)v)[i];
        case 2: return ((const uint16_t *)v)[i];
        default: return ((const uint32_t *)v)[i];
        }
    }
    switch (n->width) {
    case 1: return ((const int8_t *)v)[i];
    case 2: return ((const int16_t *)v)[i];
    case 4: return ((const int32_t *)v)[i];
    default: return ((const int64_t *)v)[i];
    }
}

typedef struct {
    const kw_avroe_program *prog;
    kw_avroe_buf *out;
    kw_avroe_error *err;
} ctx;

static int fail(ctx *c, int code, int32_t node) {
    c->err->code = code;
    c->err->node = node;
    return -1;
}

static int encode(ctx *c, int32_t id, int64_t index) {
    const kw_avroe_node *n = &c->prog->nodes[id];
    kw_avroe_buf *out = c->out;
    int64_t i = index + n->offset;
    if (n->validity && !bit((const uint8_t *)(uintptr_t)n->validity, i)) {
        if (!(n->flags & KWE_NULLABLE))
            return fail(c, KWE_ERR_NULL, id);
        if (kw_buf_reserve(out, 1) < 0)
            return fail(c, KWE_ERR_NOMEM, id);
        out->p[out->len++] = (uint8_t)n->null_branch;
        return 0;
    }
    if (n->flags & KWE_NULLABLE) {
        if (kw_buf_reserve(out, 1) < 0)
            return fail(c, KWE_ERR_NOMEM, id);
        out->p[out->len++] = (uint8_t)n->value_branch;
    }
    const uint8_t *values = (const uint8_t *)(uintptr_t)n->values;
    const uint8_t *data = (const uint8_t *)(uintptr_t)n->data;
    int r = 0;
    switch (n->op) {
    case KWE_NULL:
        break;
    case KWE_BOOL:
        if (kw_buf_reserve(out, 1) < 0)
            return fail(c, KWE_ERR_NOMEM, id);
        out->p[out->len++] = (uint8_t)bit(values, i);
        break;
    case KWE_INT: {
        int64_t v = int_at(n, i);
        if (v < INT32_MIN || v > INT32_MAX)
            return fail(c, KWE_ERR_INT_RANGE, id);
        r = put_long(out, v);
        break;
    }
    case KWE_LONG:
        r = put_long(out, int_at(n, i));
        break;
    case KWE_TS_MILLIS: {
        int64_t us = ((const int64_t *)values)[i];
        int64_t ms = us / 1000 - (us % 1000 < 0);
        r = put_long(out, ms);
        break;
    }
    case KWE_FLOAT: {
        float f;
        if (n->width == 4) {
            f = ((const float *)values)[i];
        } else {
            double d = ((const double *)values)[i];
            /* as fastavro's writer: the C cast (past FLT_MAX: infinity) */
            f = (float)d;
        }
        r = put_bytes(out, (const uint8_t *)&f, 4);
        break;
    }
    case KWE_DOUBLE: {
        double d = n->width == 4 ? (double)((const float *)values)[i]
                                 : ((const double *)values)[i];
        r = put_bytes(out, (const uint8_t *)&d, 8);
        break;
    }
    case KWE_BYTES: {
        const int32_t *o = (const int32_t *)values;
        int32_t a = o[i], len = o[i + 1] - a;
        r = put_long(out, len);
        if (!r)
            r = put_bytes(out, data + a, (size_t)len);
        break;
    }
    case KWE_FIXED:
        r = put_bytes(out, values + (size_t)i * (size_t)n->width, (size_t)n->width);
        break;
    case KWE_CONST:
        r = put_bytes(out, data, (size_t)n->width);
        break;
    case KWE_ENUM: {
        const int32_t *o = (const int32_t *)values;
        int32_t a = o[i], len = o[i + 1] - a;
        const int32_t *so = c->prog->sym_offsets + n->sym0;
        int32_t k;
        for (k = 0; k < n->nchildren; k++) {
            int32_t s = so[k], slen = so[k + 1] - s;
            if (slen == len && memcmp(c->prog->symbols + s, data + a, (size_t)len) == 0)
                break;
        }
        if (k == n->nchildren)
            return fail(c, KWE_ERR_SYMBOL, id);
        r = put_long(out, k);
        break;
    }
    case KWE_RECORD:
        for (int32_t k = 0; k < n->nchildren; k++)
            if (encode(c, c->prog->kids[n->child0 + k], index) < 0)
                return -1;
        break;
    case KWE_ARRAY:
    case KWE_MAP: {
        const int32_t *o = (const int32_t *)values;
        int32_t a = o[i], count = o[i + 1] - a;
        if (count > 0) {
            if (put_long(out, count) < 0)
                return fail(c, KWE_ERR_NOMEM, id);
            int32_t first = c->prog->kids[n->child0];
            int32_t second = n->op == KWE_MAP ? c->prog->kids[n->child0 + 1] : -1;
            for (int32_t k = a; k < a + count; k++) {
                if (encode(c, first, k) < 0)
                    return -1;
                if (second >= 0 && encode(c, second, k) < 0)
                    return -1;
            }
        }
        r = put_long(out, 0);
        break;
    }
    case KWE_DECIMAL: {
        const uint8_t *p = values + (size_t)i * 16;
        unsigned __int128 u = 0;
        for (int k = 15; k >= 0; k--)
            u = (u << 8) | p[k];
        __int128 v = (__int128)u;
        unsigned __int128 mag = v < 0 ? (unsigned __int128)0 - u : u;
        int bits = 0;
        while (mag) {
            bits++;
            mag >>= 1;
        }
        int nbytes = (bits + 8) / 8; /* fastavro: (bit_length + 8) // 8 of the magnitude */
        uint8_t be[17];
        for (int k = 0; k < nbytes; k++)
            be[nbytes - 1 - k] = k < 16 ? p[k] : (v < 0 ? 0xff : 0);
        r = put_long(out, nbytes);
        if (!r)
            r = put_bytes(out, be, (size_t)nbytes);
        break;
    }
    default:
        break;
    }
    if (r < 0)
        return fail(c, KWE_ERR_NOMEM, id);
    return 0;
}

int64_t kw_avroe_encode(const kw_avroe_program *prog, const uint8_t *row_validity,
                        int64_t row_offset, int64_t nrows, const uint8_t *prefix,
                        size_t prefix_len, kw_avroe_buf *out, int32_t *offsets,
                        uint8_t *validity, kw_avroe_error *err) {
    ctx c = {prog, out, err};
    int64_t nulls = 0;
    err->code = 0;
    err->node = -1;
    err->row = -1;
    memset(validity, 0, (size_t)((nrows + 7) / 8));
    offsets[0] = (int32_t)out->len;
    for (int64_t row = 0; row < nrows; row++) {
        if (row_validity && !bit(row_validity, row + row_offset)) {
            nulls++;
            offsets[row + 1] = (int32_t)out->len;
            continue;
        }
        if (put_bytes(out, prefix, prefix_len) < 0)
            fail(&c, KWE_ERR_NOMEM, prog->root);
        else if (encode(&c, prog->root, row) == 0)
            goto written;
        err->row = row;
        return -1;
    written:
        if (out->len > (size_t)INT32_MAX) {
            err->code = KWE_ERR_NOMEM;
            err->node = prog->root;
            err->row = row;
            return -1;
        }
        validity[row >> 3] |= (uint8_t)(1u << (row & 7));
        offsets[row + 1] = (int32_t)out->len;
    }
    return nulls;
}
