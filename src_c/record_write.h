/* The pieces a magic 2 record is written from, inline: varints with the short cases
 * first, and the short keys and values of typical records copied without a call to memcpy.
 * Shared by build_batches' loop (record_encode.c) and BatchBuilder.append (_build.pyx), whose
 * records must be byte-identical. */
#ifndef KW_RECORD_WRITE_H
#define KW_RECORD_WRITE_H

#include <stdint.h>
#include <string.h>

#include "compiler.h"
#include "varint.h"

/* memcpy for the short keys and values of typical records: inline, no call.  Fixed-size
 * memcpy compiles to one or two SSE loads and stores, never a call. */
KW_INLINE void kw_copy_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 32 && n <= 128) {
        /* whole 32-byte pieces, the last one overlapping: no loop */
        memcpy(d, s, 32);
        if (n > 64) {
            memcpy(d + 32, s + 32, 32);
            if (n > 96)
                memcpy(d + 64, s + 64, 32);
        }
        memcpy(d + n - 32, s + n - 32, 32);
    } else if (n >= 32) {
        if (n > 512) {
            memcpy(d, s, n);
            return;
        }
        const uint8_t *last = s + n - 32;
        uint8_t *dlast = d + n - 32;
        while (s < last) {
            memcpy(d, s, 32);
            d += 32;
            s += 32;
        }
        memcpy(dlast, last, 32); /* overlaps the previous chunk: no bytes past s + n */
    } else if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* kw_write_varint64 with the one- and two-byte cases first */
KW_INLINE uint8_t *kw_put_varint(uint8_t *p, int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    if (KW_LIKELY(u < 0x80)) {
        p[0] = (uint8_t)u;
        return p + 1;
    }
    if (KW_LIKELY(u < 0x4000)) {
        p[0] = (uint8_t)(u | 0x80);
        p[1] = (uint8_t)(u >> 7);
        return p + 2;
    }
    return kw_write_varint64(p, v);
}

KW_INLINE int64_t kw_bytes_size(int64_t n) { return n < 0 ? 1 : kw_varint64_size(n) + n; }

KW_INLINE uint8_t *kw_put_bytes(uint8_t *p, const uint8_t *src, int64_t n)
{
    p = kw_put_varint(p, n);
    if (n > 0) {
        kw_copy_bytes(p, src, (size_t)n);
        p += n;
    }
    return p;
}

#endif
