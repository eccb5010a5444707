/* Bounds-checked reads of Kafka's primitive types, shared by the C scanners.
 *
 * Every reader takes the cursor (*pp) and the end of the readable bytes; it
 * returns 0 on success (advancing *pp) and a negative KW_E_* code without
 * moving the cursor on failure, so that the caller can report the offset.
 */
#ifndef KW_VARINT_H
#define KW_VARINT_H

#include <stdint.h>
#include <string.h>

#include "compiler.h"

enum {
    KW_OK = 0,
    KW_E_TRUNCATED = -1,  /* the bytes end inside the value */
    KW_E_VARINT_LONG = -2 /* a varint with more bytes than its type allows */
};

KW_INLINE int kw_read_uvarint64(const uint8_t **pp, const uint8_t *end, uint64_t *out, int maxbytes)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (int shift = 0, i = 0;; i++, shift += 7) {
        if (KW_UNLIKELY(p >= end))
            return KW_E_TRUNCATED;
        if (KW_UNLIKELY(i >= maxbytes))
            return KW_E_VARINT_LONG;
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *out = v;
    *pp = p;
    return KW_OK;
}

/* zigzag varint that must fit in int32 (at most 5 bytes) */
KW_INLINE int kw_read_varint32(const uint8_t **pp, const uint8_t *end, int32_t *out)
{
    const uint8_t *p = *pp;
    if (KW_LIKELY(end - p >= 5)) {
        /* unrolled: no bounds check per byte when 5 bytes are there */
        uint32_t b, v;
        b = p[0];
        v = b & 0x7f;
        if (b < 0x80) {
            p += 1;
            goto done;
        }
        b = p[1];
        v |= (b & 0x7f) << 7;
        if (b < 0x80) {
            p += 2;
            goto done;
        }
        b = p[2];
        v |= (b & 0x7f) << 14;
        if (b < 0x80) {
            p += 3;
            goto done;
        }
        b = p[3];
        v |= (b & 0x7f) << 21;
        if (b < 0x80) {
            p += 4;
            goto done;
        }
        b = p[4];
        if (KW_UNLIKELY(b > 0x0f))
            return KW_E_VARINT_LONG; /* more than 32 bits */
        v |= b << 28;
        p += 5;
    done:
        *out = (int32_t)((v >> 1) ^ (0u - (v & 1)));
        *pp = p;
        return KW_OK;
    }
    uint64_t u;
    int rc = kw_read_uvarint64(pp, end, &u, 5);
    if (rc)
        return rc;
    if (KW_UNLIKELY(u > 0xffffffffu)) {
        *pp = p;
        return KW_E_VARINT_LONG;
    }
    uint32_t v = (uint32_t)u;
    *out = (int32_t)((v >> 1) ^ (0u - (v & 1)));
    return KW_OK;
}

/* zigzag varlong (at most 10 bytes) */
KW_INLINE int kw_read_varint64(const uint8_t **pp, const uint8_t *end, int64_t *out)
{
    const uint8_t *p = *pp;
    if (KW_LIKELY(end - p >= 2)) {
        /* one and two bytes cover timestamp deltas of up to 8 s */
        uint64_t b0 = p[0];
        if (b0 < 0x80) {
            *out = (int64_t)((b0 >> 1) ^ (0 - (b0 & 1)));
            *pp = p + 1;
            return KW_OK;
        }
        uint64_t b1 = p[1];
        if (b1 < 0x80) {
            uint64_t u = (b0 & 0x7f) | (b1 << 7);
            *out = (int64_t)((u >> 1) ^ (0 - (u & 1)));
            *pp = p + 2;
            return KW_OK;
        }
    }
    uint64_t u;
    int rc = kw_read_uvarint64(pp, end, &u, 10);
    if (rc)
        return rc;
    *out = (int64_t)((u >> 1) ^ (0 - (u & 1)));
    return KW_OK;
}

KW_INLINE uint32_t kw_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

KW_INLINE uint64_t kw_be64(const uint8_t *p)
{
    return ((uint64_t)kw_be32(p) << 32) | kw_be32(p + 4);
}

KW_INLINE uint16_t kw_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }

/* writers: the caller guarantees room (10 bytes for a varint) */
KW_INLINE uint8_t *kw_write_uvarint64(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

KW_INLINE uint8_t *kw_write_varint64(uint8_t *p, int64_t v)
{
    return kw_write_uvarint64(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

KW_INLINE int kw_varint64_size(int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    int n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

KW_INLINE void kw_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

KW_INLINE void kw_put_be64(uint8_t *p, uint64_t v)
{
    kw_put_be32(p, (uint32_t)(v >> 32));
    kw_put_be32(p + 4, (uint32_t)v);
}

KW_INLINE void kw_put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* An IEEE-754 double, big-endian (Kafka's float64). */
KW_INLINE double kw_load_f64(const uint8_t *p)
{
    uint64_t u = kw_be64(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

KW_INLINE void kw_store_f64(uint8_t *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    kw_put_be64(p, u);
}

#endif
