/* libFuzzer harness: the varint readers of src_c/varint.h against a slow
 * reference, the zigzag writers against the readers, and CRC-32C: hardware
 * path against the portable table, whole and split in two. */
#include <assert.h>
#include <string.h>

#include "crc32c.h"
#include "varint.h"

/* Reference: up to maxbytes bytes, value bits beyond 64 dropped. */
static int ref_uvarint(const uint8_t *p, const uint8_t *end, uint64_t *out, int maxbytes, size_t *used)
{
    uint64_t v = 0;
    for (int i = 0; i < maxbytes; i++) {
        if (p + i >= end)
            return KW_E_TRUNCATED;
        if (7 * i < 64)
            v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *out = v;
            *used = (size_t)i + 1;
            return KW_OK;
        }
    }
    return p + maxbytes > end ? KW_E_TRUNCATED : KW_E_VARINT_LONG;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *end = data + size;
    for (size_t start = 0; start < size && start < 16; start++) {
        const uint8_t *p = data + start;
        uint64_t ref;
        size_t used = 0;

        /* 32-bit zigzag: the reference accepts it if <= 5 bytes and < 2^32 */
        const uint8_t *q = p;
        int32_t v32;
        int rc = kw_read_varint32(&q, end, &v32);
        int rrc = ref_uvarint(p, end, &ref, 5, &used);
        if (rrc == KW_OK && ref > 0xffffffffu)
            rrc = KW_E_VARINT_LONG;
        assert((rc == KW_OK) == (rrc == KW_OK));
        if (rc == KW_OK) {
            uint32_t u = (uint32_t)ref;
            assert(v32 == (int32_t)((u >> 1) ^ (0u - (u & 1))));
            assert((size_t)(q - p) == used);
        } else {
            assert(q == p); /* the cursor does not move on failure */
        }

        q = p;
        int64_t v64;
        rc = kw_read_varint64(&q, end, &v64);
        rrc = ref_uvarint(p, end, &ref, 10, &used);
        assert((rc == KW_OK) == (rrc == KW_OK));
        if (rc == KW_OK) {
            assert(v64 == (int64_t)((ref >> 1) ^ (0 - (ref & 1))));
            assert((size_t)(q - p) == used);
            uint8_t buf[10];
            uint8_t *w = kw_write_varint64(buf, v64);
            assert(w - buf == kw_varint64_size(v64));
            const uint8_t *r = buf;
            int64_t back;
            assert(kw_read_varint64(&r, w, &back) == KW_OK && back == v64 && r == w);
        } else {
            assert(q == p);
        }
    }
    uint32_t hw = kw_crc32c(0, data, size), other;
    for (int impl = KW_CRC_PORTABLE; impl <= KW_CRC_FOLD; impl++)
        assert(kw_crc32c_using(impl, 0, data, size, &other) != 0 || other == hw);
    size_t cut = size ? data[0] % (size + 1) : 0;
    assert(kw_crc32c(kw_crc32c(0, data, cut), data + cut, size - cut) == hw);
    return 0;
}
