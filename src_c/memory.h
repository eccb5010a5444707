/* Small memory helpers of the record decoder, plain C (reached by fuzz/native/fuzz_memory.c).
 */
#ifndef KW_MEMORY_H
#define KW_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Equality of n bytes, inline for the short keys and values of headers
 * (a call to memcmp cost more than the comparison). */
static inline int kw_same_bytes(const void *a, const void *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    if (n >= 8 && n <= 16) { /* two overlapping 8-byte words */
        uint64_t x0, y0, x1, y1;
        memcpy(&x0, x, 8); memcpy(&y0, y, 8);
        memcpy(&x1, x + n - 8, 8); memcpy(&y1, y + n - 8, 8);
        return x0 == y0 && x1 == y1;
    }
    if (n >= 4 && n < 8) {
        uint32_t x0, y0, x1, y1;
        memcpy(&x0, x, 4); memcpy(&y0, y, 4);
        memcpy(&x1, x + n - 4, 4); memcpy(&y1, y + n - 4, 4);
        return x0 == y0 && x1 == y1;
    }
    return memcmp(a, b, n) == 0;
}
/* Ask for the cache lines of p[0:n] to be brought into L2. */
static inline void kw_prefetch_span(const uint8_t *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    for (size_t i = 0; i < n; i += 64)
        __builtin_prefetch(p + i, 0, 2);
#else
    (void)p;
    (void)n;
#endif
}
/* Large blocks on 2 MiB boundaries, marked for transparent huge pages
 * (as numpy does): fewer page faults and TLB misses over the columns. */
static void *kw_alloc_columns(size_t *cap)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20, page = 4096;
    if (*cap >= 2 * huge) {
        void *p = NULL;
        size_t rounded = (*cap + page - 1) & ~(page - 1);
        if (posix_memalign(&p, huge, rounded) != 0)
            return NULL;
        madvise(p, rounded, MADV_HUGEPAGE);
        *cap = rounded;
        return p;
    }
#endif
    return malloc(*cap);
}
#endif
