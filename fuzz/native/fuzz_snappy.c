/* libFuzzer harness: the snappy decoder, raw and xerial (src_c/snappy_decode.c).
 *
 * Byte 0 picks the cap; the scan's total is what the decode must fill exactly,
 * into a buffer of exactly that size (ASan catches any write past it). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "snappy_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
    if (size < 1)
        return 0;
    static const uint64_t caps[4] = {0, 100, 1 << 16, 1 << 22};
    uint64_t max_size = caps[in[0] & 3];
    const uint8_t *src = in + 1;
    size_t len = size - 1;
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, src, len);

    uint64_t total = 0;
    size_t err_pos = 0;
    int rc = kw_snappy_scan(copy, len, max_size, &total, &err_pos);
    if (rc == KW_SNAPPY_OK) {
        assert(total <= max_size);
        uint8_t *dst = malloc(total ? (size_t)total : 1);
        rc = kw_snappy_decode(copy, len, dst, (size_t)total, &err_pos);
        assert(rc != KW_SNAPPY_LIMIT);
        assert(err_pos <= len);
        free(dst);
    } else {
        assert(err_pos <= len);
    }
    free(copy);
    return 0;
}
