/* libFuzzer harness: the decoder's plain-C memory helpers (src_c/memory.h) and the float64
 * byte order (src_c/varint.h). kw_same_bytes must agree with memcmp for every length and
 * split of the input; kw_load_f64 / kw_store_f64 must round-trip every 8 bytes. */
#include <assert.h>
#include <string.h>

#include "memory.h"
#include "varint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* two halves of equal length, compared at every length up to theirs */
    size_t half = size / 2;
    for (size_t n = 0; n <= half && n <= 64; n++) {
        int same = kw_same_bytes(data, data + half, n);
        assert(same == (memcmp(data, data + half, n) == 0));
        assert(kw_same_bytes(data, data, n));
    }
    for (size_t i = 0; i + 8 <= size && i < 64; i++) {
        uint8_t out[8];
        double d = kw_load_f64(data + i);
        kw_store_f64(out, d);
        assert(memcmp(out, data + i, 8) == 0); /* NaN payloads included: bits are copied */
    }
    kw_prefetch_span(data, size);
    return 0;
}
