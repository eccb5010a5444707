/* CRC-32C: hardware (three interleaved streams) with a portable fallback.
 *
 * The hardware instruction has a latency of three cycles but a throughput of
 * one per cycle, so long inputs are cut into three equal streams computed side
 * by side and joined afterwards.  Joining uses linearity: the register after
 * "A then B" equals shift(reg after A, len(B)) XOR (reg over B from zero), where
 * shift() feeds zero bytes, a linear map held as four 256-entry tables.
 */
#include "crc32c.h"

#include <stdatomic.h>
#include <string.h>

#define POLY 0x82f63b78u /* reflected Castagnoli polynomial */

static uint32_t table8[8][256];
static _Atomic int tables_ready; /* see chosen below */

static void build_tables(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
        table8[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = table8[0][n];
        for (int k = 1; k < 8; k++) {
            c = table8[0][c & 0xff] ^ (c >> 8);
            table8[k][n] = c;
        }
    }
    atomic_store_explicit(&tables_ready, 1, memory_order_release);
}

static inline uint64_t load_le64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static uint32_t portable_update(uint32_t reg, const unsigned char *p, size_t len)
{
    while (len && ((uintptr_t)p & 7)) {
        reg = table8[0][(reg ^ *p++) & 0xff] ^ (reg >> 8);
        len--;
    }
    while (len >= 8) {
        uint64_t w = load_le64(p) ^ reg;
        reg = table8[7][w & 0xff] ^ table8[6][(w >> 8) & 0xff] ^
              table8[5][(w >> 16) & 0xff] ^ table8[4][(w >> 24) & 0xff] ^
              table8[3][(w >> 32) & 0xff] ^ table8[2][(w >> 40) & 0xff] ^
              table8[1][(w >> 48) & 0xff] ^ table8[0][w >> 56];
        p += 8;
        len -= 8;
    }
    while (len--)
        reg = table8[0][(reg ^ *p++) & 0xff] ^ (reg >> 8);
    return reg;
}

uint32_t kw_crc32c_portable(uint32_t crc, const void *data, size_t len)
{
    if (!atomic_load_explicit(&tables_ready, memory_order_acquire))
        build_tables();
    return ~portable_update(~crc, (const unsigned char *)data, len);
}

#if defined(__GNUC__) && (defined(__x86_64__) || (defined(__aarch64__) && defined(__linux__)))
#define KW_HAVE_HW 1

#if defined(__x86_64__)
#define HW_TARGET __attribute__((target("sse4.2")))
#include <nmmintrin.h>
#define HW_U8(c, v) _mm_crc32_u8((c), (v))
#define HW_U64(c, v) ((uint32_t)_mm_crc32_u64((c), (v)))
static int cpu_has_hw(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
#else
#define HW_TARGET __attribute__((target("+crc")))
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#define HW_U8(c, v) __builtin_aarch64_crc32cb((c), (v))
#define HW_U64(c, v) __builtin_aarch64_crc32cx((c), (v))
static int cpu_has_hw(void) { return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0; }
#endif

#define LONG_BLOCK 8192
#define SHORT_BLOCK 256

/* shift tables: feed LONG_BLOCK (resp. SHORT_BLOCK) zero bytes into a register */
static uint32_t shift_long[4][256];
static uint32_t shift_short[4][256];

static uint32_t feed_zeros(uint32_t reg, size_t len)
{
    /* portable path so that table building needs no special CPU */
    while (len--)
        reg = table8[0][reg & 0xff] ^ (reg >> 8);
    return reg;
}

static void build_shift(uint32_t out[4][256], size_t len)
{
    uint32_t basis[32];
    for (int i = 0; i < 32; i++)
        basis[i] = feed_zeros(1u << i, len);
    for (int k = 0; k < 4; k++)
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t v = 0;
            for (int i = 0; i < 8; i++)
                if (b & (1u << i))
                    v ^= basis[8 * k + i];
            out[k][b] = v;
        }
}

static inline uint32_t shift(uint32_t t[4][256], uint32_t reg)
{
    return t[0][reg & 0xff] ^ t[1][(reg >> 8) & 0xff] ^ t[2][(reg >> 16) & 0xff] ^
           t[3][reg >> 24];
}

HW_TARGET static uint32_t hw_streams(uint32_t reg, const unsigned char **pp, size_t *plen,
                                     size_t block, uint32_t t[4][256])
{
    const unsigned char *p = *pp;
    size_t len = *plen;
    while (len >= 3 * block) {
        uint64_t r0 = reg, r1 = 0, r2 = 0;
        const unsigned char *end = p + block;
        do {
            r0 = HW_U64((uint32_t)r0, load_le64(p));
            r1 = HW_U64((uint32_t)r1, load_le64(p + block));
            r2 = HW_U64((uint32_t)r2, load_le64(p + 2 * block));
            p += 8;
        } while (p < end);
        reg = shift(t, shift(t, (uint32_t)r0) ^ (uint32_t)r1) ^ (uint32_t)r2;
        p += 2 * block;
        len -= 3 * block;
    }
    *pp = p;
    *plen = len;
    return reg;
}

HW_TARGET static uint32_t hw_update(uint32_t reg, const unsigned char *p, size_t len)
{
    while (len && ((uintptr_t)p & 7)) {
        reg = HW_U8(reg, *p++);
        len--;
    }
    reg = hw_streams(reg, &p, &len, LONG_BLOCK, shift_long);
    reg = hw_streams(reg, &p, &len, SHORT_BLOCK, shift_short);
    while (len >= 8) {
        reg = HW_U64(reg, load_le64(p));
        p += 8;
        len -= 8;
    }
    while (len--)
        reg = HW_U8(reg, *p++);
    return reg;
}
#endif

/* 0 = not chosen yet, 1 = portable, 2 = hardware.  Racing first calls (the
 * GIL is released around large CRCs) all compute the same tables and the same
 * answer, so no lock is needed; the release store / acquire load make the
 * tables visible before the choice is. */
static _Atomic int chosen;

static void choose(void)
{
    if (!atomic_load_explicit(&tables_ready, memory_order_acquire))
        build_tables();
#ifdef KW_HAVE_HW
    if (cpu_has_hw()) {
        build_shift(shift_long, LONG_BLOCK);
        build_shift(shift_short, SHORT_BLOCK);
        atomic_store_explicit(&chosen, 2, memory_order_release);
        return;
    }
#endif
    atomic_store_explicit(&chosen, 1, memory_order_release);
}

uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len)
{
    int impl = atomic_load_explicit(&chosen, memory_order_acquire);
    if (!impl) {
        choose();
        impl = atomic_load_explicit(&chosen, memory_order_acquire);
    }
#ifdef KW_HAVE_HW
    if (impl == 2)
        return ~hw_update(~crc, (const unsigned char *)data, len);
#endif
    return ~portable_update(~crc, (const unsigned char *)data, len);
}

const char *kw_crc32c_impl(void)
{
    if (!atomic_load_explicit(&chosen, memory_order_acquire))
        choose();
#ifdef KW_HAVE_HW
    if (atomic_load_explicit(&chosen, memory_order_acquire) == 2)
#if defined(__x86_64__)
        return "sse4.2";
#else
        return "armv8-crc";
#endif
#endif
    return "portable";
}
