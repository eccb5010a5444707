/* libFuzzer harness: the record scanner (src_c/record_scan.c).
 *
 * Byte 0 picks the mode: v2 record data (with a record count and timestamp
 * type from bytes 1-4) or a legacy message set (magic, inner or not, CRC
 * checks).  The columns are sized as kafkawire._records sizes them (the
 * declared count, bounded by the bytes); every position written must lie in
 * the input, and the header parser must agree with the scan. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "record_scan.h"

static void check_columns(const kw_columns *c, size_t len)
{
    for (size_t k = 0; k < c->n; k++) {
        if (c->key_len[k] >= 0)
            assert((size_t)c->key_pos[k] + (size_t)c->key_len[k] <= len);
        else
            assert(c->key_len[k] == -1);
        if (c->value_len[k] >= 0)
            assert((size_t)c->value_pos[k] + (size_t)c->value_len[k] <= len);
        else
            assert(c->value_len[k] == -1);
    }
}

static void check_headers(const kw_columns *c, const uint8_t *data, size_t len)
{
    size_t seen = 0;
    for (size_t k = 0; k < c->n; k++) {
        int32_t n = kw_read_headers(data, len, c->header_pos[k], NULL, NULL, NULL, NULL, 0);
        assert(n >= 0); /* the scan accepted this header section */
        if (n == 0)
            continue;
        uint32_t *kp = malloc(sizeof(uint32_t) * (size_t)n * 4);
        int32_t *kl = (int32_t *)(kp + n);
        uint32_t *vp = kp + 2 * (size_t)n;
        int32_t *vl = (int32_t *)(kp + 3 * (size_t)n);
        assert(kw_read_headers(data, len, c->header_pos[k], kp, kl, vp, vl, n) == n);
        for (int32_t h = 0; h < n; h++) {
            assert(kl[h] >= 0 && (size_t)kp[h] + (size_t)kl[h] <= len);
            assert(vl[h] >= -1);
            if (vl[h] >= 0)
                assert((size_t)vp[h] + (size_t)vl[h] <= len);
        }
        free(kp);
        seen += (size_t)n;
    }
    assert(seen == c->nh);
}

static void fill_views(const kw_columns *c, const uint8_t *data)
{
    uint8_t *views = malloc(16 * (c->n ? c->n : 1));
    kw_fill_binary_views(views, c->n, c->key_pos, c->key_len, data, 0, 0);
    kw_fill_binary_views(views, c->n, c->value_pos, c->value_len, data, 1, 0);
    free(views);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
    if (size < 5)
        return 0;
    uint8_t mode = in[0];
    int32_t count;
    memcpy(&count, in + 1, 4);
    const uint8_t *data = in + 5;
    size_t len = size - 5;
    /* the exact-size copy puts ASan's redzone right after the last byte */
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, data, len);
    data = copy;

    size_t cap;
    if (mode & 1) {
        int64_t legacy_count = kw_count_legacy(data, len);
        cap = legacy_count > 0 ? (size_t)legacy_count : 0;
        if (mode & 0x10)
            cap += 1; /* room the walker would not give: the scan must still stop */
    } else {
        if (count < 0 || (size_t)count > len / 7)
            count = (int32_t)(len / 7); /* what the walker enforces */
        cap = (size_t)count;
    }
    kw_columns c;
    memset(&c, 0, sizeof(c));
    size_t n = cap ? cap : 1;
    c.offsets = malloc(n * 8);
    c.timestamps = malloc(n * 8);
    c.key_pos = malloc(n * 4);
    c.key_len = malloc(n * 4);
    c.value_pos = malloc(n * 4);
    c.value_len = malloc(n * 4);
    c.header_pos = malloc(n * 4);
    c.cap = cap;

    size_t err_pos = 0;
    const char *err_field = "";
    int rc;
    if (mode & 1) {
        kw_legacy_set set = {
            .magic = (mode >> 1) & 1,
            .is_inner = (mode >> 2) & 1,
            .wrapper_offset = (int64_t)0x7FFFFFFFFFFFFFF0 - (mode >> 3),
            .wrapper_timestamp = (mode & 0x20) ? 1700000000000 : -1,
            .verify_crc = (mode >> 6) & 1,
        };
        rc = kw_scan_legacy(&c, data, len, &set, &err_pos, &err_field);
    } else {
        kw_v2_batch b = {
            .base_offset = (mode & 2) ? INT64_MAX - 3 : 100,
            .base_timestamp = (mode & 4) ? INT64_MIN + 1 : 1700000000000,
            .log_append_time = (mode & 8) ? 1700000000001 : -1,
            .record_count = count,
        };
        rc = kw_scan_v2(&c, data, len, &b, &err_pos, &err_field);
    }
    assert(c.n <= c.cap);
    if (rc == KW_SCAN_OK) {
        check_columns(&c, len);
        if (!(mode & 1))
            check_headers(&c, data, len);
        fill_views(&c, data);
    } else {
        assert(err_pos <= len);
        assert(err_field != NULL);
    }
    (void)kw_crc32_ieee(0, data, len);
    free(c.header_pos);
    free(c.offsets);
    free(c.timestamps);
    free(c.key_pos);
    free(c.key_len);
    free(c.value_pos);
    free(c.value_len);
    free(copy);
    return 0;
}
