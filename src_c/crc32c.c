/* CRC-32C: carry-less multiply folding (AVX-512 VPCLMULQDQ), the CRC32
 * instruction (three interleaved streams), or a portable fallback.
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

#if defined(__x86_64__)
/* Folding with carry-less multiplication (x86-64 with AVX-512 VPCLMULQDQ).
 *
 * In the reflected bit order of CRC-32C, a 16-byte chunk A that lies D bits
 * before a chunk C contributes A * x^D to the message polynomial.  Its low
 * qword holds the high-degree half, so A * x^D = lo * x^(D+64) + hi * x^D, and
 * modulo P each product is a 64-bit half times a 32-bit remainder: under 96
 * bits, which XORs into C without changing the CRC.  Folding 64-byte vectors
 * this way down to one 16-byte chunk R leaves a message with the same CRC as
 * R alone, which two CRC32 instructions finish (no Barrett reduction).
 * PCLMULQDQ on two reflected operands yields their product times x (bit k of
 * the result is the coefficient of x^(126-k), one short of the chunk's 127-k),
 * so each constant is x^(e-1) mod P where x^e is wanted. */
#define FOLD_TARGET __attribute__((target("sse4.2,pclmul,avx512f,avx512vl,vpclmulqdq")))
#include <immintrin.h>

#define FOLD_MIN 256 /* shorter inputs go to the CRC32 instruction */

/* {x^(D+63), x^(D-1)} mod P as operands, for folding by D = 8 * bytes. */
static uint64_t fold_k256[2], fold_k64[2], fold_k48[2], fold_k32[2], fold_k16[2];

static uint64_t xpow_operand(unsigned e)
{
    uint32_t reg = 0x80000000u; /* 1 (x^0), reflected */
    while (e--)
        reg = (reg >> 1) ^ ((reg & 1) ? POLY : 0);
    return (uint64_t)reg << 32; /* bit i of a 64-bit operand is x^(63-i) */
}

static void build_fold(uint64_t k[2], unsigned bytes)
{
    k[0] = xpow_operand(8 * bytes + 63);
    k[1] = xpow_operand(8 * bytes - 1);
}

static void build_fold_tables(void)
{
    build_fold(fold_k256, 256);
    build_fold(fold_k64, 64);
    build_fold(fold_k48, 48);
    build_fold(fold_k32, 32);
    build_fold(fold_k16, 16);
}

static int cpu_has_fold(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul") &&
           __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("vpclmulqdq");
}

FOLD_TARGET static inline __m512i fold512(__m512i acc, __m512i k, __m512i next)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(acc, k, 0x00),
                                     _mm512_clmulepi64_epi128(acc, k, 0x11), next, 0x96);
}

FOLD_TARGET static inline __m128i fold128(__m128i acc, __m128i k, __m128i next)
{
    return _mm_ternarylogic_epi64(_mm_clmulepi64_si128(acc, k, 0x00),
                                  _mm_clmulepi64_si128(acc, k, 0x11), next, 0x96);
}

FOLD_TARGET static __m512i broadcast_k(const uint64_t k[2])
{
    return _mm512_broadcast_i32x4(_mm_set_epi64x((long long)k[1], (long long)k[0]));
}

/* len >= FOLD_MIN */
FOLD_TARGET static uint32_t fold_update(uint32_t reg, const unsigned char *p, size_t len)
{
    /* the register joins the first four message bytes */
    __m512i a0 = _mm512_xor_si512(_mm512_loadu_si512(p),
                                  _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)reg)));
    __m512i a1 = _mm512_loadu_si512(p + 64);
    __m512i a2 = _mm512_loadu_si512(p + 128);
    __m512i a3 = _mm512_loadu_si512(p + 192);
    p += 256;
    len -= 256;
    /* four independent accumulators hide the multiplier's latency */
    const __m512i k256 = broadcast_k(fold_k256);
    while (len >= 256) {
        a0 = fold512(a0, k256, _mm512_loadu_si512(p));
        a1 = fold512(a1, k256, _mm512_loadu_si512(p + 64));
        a2 = fold512(a2, k256, _mm512_loadu_si512(p + 128));
        a3 = fold512(a3, k256, _mm512_loadu_si512(p + 192));
        p += 256;
        len -= 256;
    }
    const __m512i k64 = broadcast_k(fold_k64);
    a1 = fold512(a0, k64, a1);
    a2 = fold512(a1, k64, a2);
    a3 = fold512(a2, k64, a3);
    while (len >= 64) {
        a3 = fold512(a3, k64, _mm512_loadu_si512(p));
        p += 64;
        len -= 64;
    }
    /* lanes 0, 1, 2 fold onto lane 3 (48, 32, 16 bytes on) */
    const __m512i k_lanes = _mm512_set_epi64(0, 0, (long long)fold_k16[1], (long long)fold_k16[0],
                                             (long long)fold_k32[1], (long long)fold_k32[0],
                                             (long long)fold_k48[1], (long long)fold_k48[0]);
    __m512i t = _mm512_xor_si512(_mm512_clmulepi64_epi128(a3, k_lanes, 0x00),
                                 _mm512_clmulepi64_epi128(a3, k_lanes, 0x11));
    __m128i r = _mm_ternarylogic_epi64(_mm512_castsi512_si128(t), _mm512_extracti32x4_epi32(t, 1),
                                       _mm512_extracti32x4_epi32(t, 2), 0x96);
    r = _mm_ternarylogic_epi64(r, _mm512_extracti32x4_epi32(t, 3),
                               _mm512_extracti32x4_epi32(a3, 3), 0x96);
    const __m128i k16 = _mm_set_epi64x((long long)fold_k16[1], (long long)fold_k16[0]);
    while (len >= 16) {
        r = fold128(r, k16, _mm_loadu_si128((const __m128i *)p));
        p += 16;
        len -= 16;
    }
    /* R alone has the message's CRC */
    reg = (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(r));
    reg = (uint32_t)_mm_crc32_u64(reg, (uint64_t)_mm_extract_epi64(r, 1));
    while (len >= 8) {
        reg = (uint32_t)_mm_crc32_u64(reg, load_le64(p));
        p += 8;
        len -= 8;
    }
    while (len--)
        reg = _mm_crc32_u8(reg, *p++);
    return reg;
}
#define KW_HAVE_FOLD 1
#endif
#endif

/* What kw_crc32c uses: the best of KW_CRC_* this CPU has, 0 until chosen.
 * Racing first calls (the GIL is released around large CRCs) all compute the
 * same tables and the same answer, so no lock is needed; the release store /
 * acquire load make the tables visible before the choice is. */
static _Atomic int chosen;
static int available; /* bit (1 << KW_CRC_*) for each implementation this CPU has */

static void choose(void)
{
    int best = KW_CRC_PORTABLE;
    if (!atomic_load_explicit(&tables_ready, memory_order_acquire))
        build_tables();
    available = 1 << KW_CRC_PORTABLE;
#ifdef KW_HAVE_HW
    if (cpu_has_hw()) {
        build_shift(shift_long, LONG_BLOCK);
        build_shift(shift_short, SHORT_BLOCK);
        available |= 1 << KW_CRC_INSTRUCTION;
        best = KW_CRC_INSTRUCTION;
    }
#endif
#ifdef KW_HAVE_FOLD
    if (cpu_has_fold()) {
        build_fold_tables();
        available |= 1 << KW_CRC_FOLD;
        best = KW_CRC_FOLD;
    }
#endif
    atomic_store_explicit(&chosen, best, memory_order_release);
}

static int chosen_impl(void)
{
    int impl = atomic_load_explicit(&chosen, memory_order_acquire);
    if (!impl) {
        choose();
        impl = atomic_load_explicit(&chosen, memory_order_acquire);
    }
    return impl;
}

static uint32_t update(int impl, uint32_t reg, const unsigned char *p, size_t len)
{
#ifdef KW_HAVE_FOLD
    if (impl == KW_CRC_FOLD)
        return len >= FOLD_MIN ? fold_update(reg, p, len) : hw_update(reg, p, len);
#endif
#ifdef KW_HAVE_HW
    if (impl == KW_CRC_INSTRUCTION)
        return hw_update(reg, p, len);
#endif
    (void)impl;
    return portable_update(reg, p, len);
}

uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len)
{
    return ~update(chosen_impl(), ~crc, (const unsigned char *)data, len);
}

int kw_crc32c_using(int impl, uint32_t crc, const void *data, size_t len, uint32_t *out)
{
    chosen_impl();
    if (impl < KW_CRC_PORTABLE || impl > KW_CRC_FOLD || !(available & (1 << impl)))
        return -1;
    *out = ~update(impl, ~crc, (const unsigned char *)data, len);
    return 0;
}

int kw_crc32c_impl(void) { return chosen_impl(); }

const char *kw_crc32c_name(int impl)
{
    switch (impl) {
    case KW_CRC_PORTABLE:
        return "portable";
#if defined(__aarch64__)
    case KW_CRC_INSTRUCTION:
        return "armv8-crc";
#else
    case KW_CRC_INSTRUCTION:
        return "sse4.2";
#endif
    case KW_CRC_FOLD:
        return "avx512-vpclmulqdq";
    default:
        return NULL;
    }
}
