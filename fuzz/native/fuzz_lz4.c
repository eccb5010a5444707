/* libFuzzer harness: the lz4 frame decoder (src_c/lz4_decode.c).
 *
 * Byte 0: magic (0 or 2) and the cap; the rest is the payload.  The scan's
 * bound must hold every output; a decode into a guessed (small) buffer either
 * asks for room or gives the same result as the decode into the bound; nothing
 * is written past any buffer (ASan: each buffer is its own allocation). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lz4_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
    if (size < 1)
        return 0;
    int magic = (in[0] & 1) ? 0 : 2;
    static const uint64_t caps[4] = {0, 100, 1 << 16, 1 << 22};
    uint64_t max_size = caps[(in[0] >> 1) & 3];
    const uint8_t *src = in + 1;
    size_t len = size - 1;

    /* kafkawire._codecs first decodes into a guessed buffer without a scan: the
     * decoder alone must then refuse what the scan would */
    size_t guess0 = (size_t)in[0] * 13, out0 = 0, err0 = 0;
    uint8_t *first = malloc(guess0 ? guess0 : 1);
    int rc0 = kw_lz4_decode(src, len, magic, max_size, first, guess0, KW_LZ4_END_GUESS, &out0, &err0);
    free(first);
    assert(err0 <= len);

    kw_lz4_scan_t info;
    int rc = kw_lz4_scan(src, len, magic, max_size, &info);
    if (rc != KW_LZ4_OK) {
        assert(info.err_pos <= len);
        /* a structural fault the scan finds, the decoder finds too (or stops first) */
        assert(rc0 != KW_LZ4_OK || rc == KW_LZ4_DECLARED_LIMIT);
        return 0;
    }
    int end = info.bound > max_size ? KW_LZ4_END_LIMIT : KW_LZ4_END_BOUND;
    size_t cap = (size_t)(info.bound > max_size ? max_size : info.bound);
    uint8_t *full = malloc(cap ? cap : 1);
    size_t full_len = 0, err_pos = 0;
    int full_rc = kw_lz4_decode(src, len, magic, max_size, full, cap, end, &full_len, &err_pos);
    assert(full_rc != KW_LZ4_NEED_ROOM);
    if (full_rc == KW_LZ4_OK)
        assert(full_len <= cap && full_len <= max_size);

    size_t guess = ((size_t)in[0] * 7) % (cap + 1); /* below or at the real size */
    uint8_t *small = malloc(guess ? guess : 1);
    size_t small_len = 0;
    int small_rc =
        kw_lz4_decode(src, len, magic, max_size, small, guess, KW_LZ4_END_GUESS, &small_len, &err_pos);
    if (small_rc == KW_LZ4_OK) {
        assert(full_rc == KW_LZ4_OK && small_len == full_len);
        assert(memcmp(small, full, full_len) == 0);
    } else if (small_rc != KW_LZ4_NEED_ROOM && full_rc == KW_LZ4_OK) {
        /* a corrupt payload is corrupt whatever the buffer; only a limit may differ */
        assert(small_rc == KW_LZ4_LIMIT || small_rc == KW_LZ4_DECLARED_LIMIT);
    }
    free(small);
    free(full);
    return 0;
}
