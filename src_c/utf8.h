/* UTF-8 validation for the registry decoders' string columns (Arrow's string type must hold
 * valid UTF-8; Python's decoder is no use inside a nogil C loop). */
#ifndef KW_UTF8_H
#define KW_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether the n <= 16 bytes at p are ASCII, with 16 bytes readable at p: two loads and a
 * mask, no loop (the bytes past n are read and ignored). */
static inline int kw_ascii16(const uint8_t *p, size_t n) {
    uint64_t w0, w1;
    memcpy(&w0, p, 8);
    memcpy(&w1, p + 8, 8);
    unsigned bits = (unsigned)n * 8;
    uint64_t m0 = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
    uint64_t m1 = bits <= 64 ? 0 : ~0ULL >> (128 - bits);
    return !(((w0 & m0) | (w1 & m1)) & 0x8080808080808080ULL);
}

/* UTF-8 as Arrow's string type requires it: no overlongs, no surrogates, <= U+10FFFF. */
static inline int kw_utf8_ok(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        /* ASCII runs eight bytes at a time */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL)
                break;
            i += 8;
        }
        if (i >= n)
            break;
        uint8_t c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + k >= n)
            return 0;
        for (size_t j = 1; j <= k; j++) {
            if ((p[i + j] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[i + j] & 0x3F);
        }
        if ((k == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += k + 1;
    }
    return 1;
}

#endif
