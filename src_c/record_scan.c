/* Per-record scanning of Kafka record batches (v2) and legacy message sets
 * (v0/v1) into the columns of kw_columns.  See record_scan.h. */
#include "record_scan.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "varint.h"

/* Offsets and timestamps are sums of untrusted values: they wrap as Java's
 * long arithmetic does, instead of overflowing (undefined behaviour in C). */
#define WRAP_ADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(int64_t)(b)))
#define WRAP_SUB(a, b) ((int64_t)((uint64_t)(a) - (uint64_t)(int64_t)(b)))

#define FAIL(code, at, field)                                                                      \
    do {                                                                                           \
        *err_pos = (size_t)((at) - data);                                                          \
        *err_field = (field);                                                                      \
        return (code);                                                                             \
    } while (0)

static int varint_fail(int rc) { return rc == KW_E_TRUNCATED ? KW_SCAN_TRUNCATED : KW_SCAN_BAD_VARINT; }

void kw_columns_free_headers(kw_columns *c)
{
    free(c->header_pos);
    c->header_pos = NULL;
    c->nh = 0;
}

/* A length-prefixed (varint) byte field: returns its length (-1 for null) and
 * start position via *pos, advancing *pp past the bytes. */
static inline int read_varbytes(const uint8_t **pp, const uint8_t *end, const uint8_t *data,
                                int32_t *len, uint32_t *pos)
{
    int rc = kw_read_varint32(pp, end, len);
    if (KW_UNLIKELY(rc))
        return varint_fail(rc);
    if (*len < 0) {
        if (KW_UNLIKELY(*len != -1))
            return KW_SCAN_BAD_LENGTH;
        *pos = 0;
        return 0;
    }
    if (KW_UNLIKELY((size_t)(end - *pp) < (size_t)*len))
        return KW_SCAN_TRUNCATED;
    *pos = (uint32_t)(*pp - data);
    *pp += *len;
    return 0;
}

/* Varints read without bounds checks: only called where at least 10 bytes
 * (5 for 32 bits) are known to be readable.  *bad is set for a varint that
 * is too long for its type; the caller then takes the checked path. */
KW_INLINE int32_t fast_varint32(const uint8_t **pp, int *bad)
{
    const uint8_t *p = *pp;
    uint32_t b = *p++, v = b & 0x7f;
    if (b >= 0x80) {
        b = *p++;
        v |= (b & 0x7f) << 7;
        if (b >= 0x80) {
            b = *p++;
            v |= (b & 0x7f) << 14;
            if (b >= 0x80) {
                b = *p++;
                v |= (b & 0x7f) << 21;
                if (b >= 0x80) {
                    b = *p++;
                    *bad |= b > 0x0f;
                    v |= b << 28;
                }
            }
        }
    }
    *pp = p;
    return (int32_t)((v >> 1) ^ (0u - (v & 1)));
}

KW_INLINE int64_t fast_varint64(const uint8_t **pp, int *bad)
{
    const uint8_t *p = *pp;
    uint64_t b = *p++, v = b & 0x7f;
    if (b >= 0x80) {
        b = *p++;
        v |= (b & 0x7f) << 7;
        for (int shift = 14; b >= 0x80; shift += 7) {
            if (shift > 63) {
                *bad = 1;
                break;
            }
            b = *p++;
            v |= (b & 0x7f) << shift;
        }
    }
    *pp = p;
    return (int64_t)((v >> 1) ^ (0 - (v & 1)));
}

/* Check a record's header section (count at q, record end rend, with the
 * fast path's slack after rend) and note where it is.  Returns -1 for
 * anything unusual; the checked path then re-reads the record. */
static int fast_headers(kw_columns *c, size_t k, const uint8_t *data, const uint8_t *q,
                        const uint8_t *rend)
{
    int bad = 0;
    const uint8_t *count_at = q;
    int32_t n = fast_varint32(&q, &bad);
    if (bad || n <= 0 || n > (rend - q) / 2 || c->nh + (size_t)n > (size_t)INT32_MAX)
        return -1;
    for (int32_t h = 0; h < n; h++) {
        /* q < rend before each read, and a read takes at most 5 bytes of slack */
        if (q >= rend)
            return -1;
        int32_t klen = fast_varint32(&q, &bad);
        if (bad || klen < 0 || klen > rend - q)
            return -1;
        q += klen;
        if (q >= rend)
            return -1;
        int32_t vlen = fast_varint32(&q, &bad);
        if (bad || vlen < -1 || vlen > rend - q)
            return -1;
        if (vlen > 0)
            q += vlen;
    }
    if (q != rend)
        return -1;
    if (!c->header_pos) {
        c->header_pos = calloc(c->n_total ? c->n_total : 1, sizeof(uint32_t));
        if (!c->header_pos)
            return -1; /* the checked path reports it */
    }
    c->header_pos[k] = (uint32_t)(count_at - data);
    c->nh += (size_t)n;
    return 0;
}

/* Bytes a record's fast path may read past its end: the timestamp delta (10),
 * the offset delta (5) and the key length (5) are read before any check. */
#define FAST_SLACK 20

int kw_scan_v2(kw_columns *c, const uint8_t *data, size_t len, const kw_v2_batch *b,
               size_t *err_pos, const char **err_field)
{
    const uint8_t *p = data, *end = data + len;
    int rc;
    /* locals: stores through the column pointers could otherwise alias c */
    int64_t *restrict offsets = c->offsets, *restrict timestamps = c->timestamps;
    uint32_t *restrict key_pos = c->key_pos, *restrict value_pos = c->value_pos;
    int32_t *restrict key_len = c->key_len, *restrict value_len = c->value_len;
    const int64_t base_offset = b->base_offset, base_timestamp = b->base_timestamp;
    const int64_t log_append_time = b->log_append_time;
    if (KW_UNLIKELY(c->n + (size_t)b->record_count > c->cap)) {
        *err_pos = 0;
        *err_field = "record_count";
        return KW_SCAN_OVERFLOW;
    }
    size_t k = c->n;
    for (int32_t i = 0; i < b->record_count; i++, k++) {
        const uint8_t *rec = p;
        if (KW_UNLIKELY(p >= end))
            FAIL(KW_SCAN_COUNT_MISMATCH, p, "record_count");

        /* Fast path, for records followed by FAST_SLACK readable bytes.  The
         * next record starts at rend: only the length varint links one record
         * to the next, so the CPU can work on several records at once. */
        if (KW_LIKELY(end - p >= 5 + 6 + FAST_SLACK)) {
            int bad = 0;
            const uint8_t *q = p;
            int32_t rlen = fast_varint32(&q, &bad);
            if (KW_LIKELY(!bad && rlen >= 6 && rlen <= (end - q) - FAST_SLACK)) {
                const uint8_t *rend = q + rlen;
                q++; /* attributes: unused by Kafka */
                int64_t ts_delta = fast_varint64(&q, &bad);
                int32_t off_delta = fast_varint32(&q, &bad);
                int32_t klen = fast_varint32(&q, &bad);
                key_len[k] = klen;
                key_pos[k] = (uint32_t)(q - data);
                if (klen > 0) {
                    bad |= klen > rend - q;
                    q += klen;
                } else {
                    bad |= klen < -1;
                }
                if (KW_LIKELY(!bad && rend - q >= 2)) {
                    int32_t vlen = fast_varint32(&q, &bad);
                    value_len[k] = vlen;
                    value_pos[k] = (uint32_t)(q - data);
                    if (vlen > 0) {
                        bad |= vlen > rend - q - 1; /* the header count follows */
                        q += vlen;
                    } else {
                        bad |= vlen < -1;
                    }
                    if (KW_LIKELY(!bad && q < rend && *q == 0 && q + 1 == rend)) {
                        /* no headers: the common case */
                        offsets[k] = WRAP_ADD(base_offset, off_delta);
                        timestamps[k] = log_append_time >= 0 ? log_append_time
                                                             : WRAP_ADD(base_timestamp, ts_delta);
                        c->n = k + 1;
                        p = rend;
                        continue;
                    }
                    if (!bad && q < rend &&
                        fast_headers(c, k, data, q, rend) == 0) {
                        offsets[k] = WRAP_ADD(base_offset, off_delta);
                        timestamps[k] = log_append_time >= 0 ? log_append_time
                                                             : WRAP_ADD(base_timestamp, ts_delta);
                        c->n = k + 1;
                        p = rend;
                        continue;
                    }
                }
            }
        }

        /* Checked path: headers, the last bytes of a batch, and anything odd
         * (which it reports precisely). */
        int32_t rlen;
        rc = kw_read_varint32(&p, end, &rlen);
        if (KW_UNLIKELY(rc))
            FAIL(varint_fail(rc), rec, "record.length");
        if (KW_UNLIKELY(rlen < 6))
            FAIL(KW_SCAN_BAD_LENGTH, rec, "record.length");
        if (KW_UNLIKELY((size_t)(end - p) < (size_t)rlen))
            FAIL(KW_SCAN_TRUNCATED, rec, "record.length");
        const uint8_t *rend = p + rlen;
        const uint8_t *q = p + 1; /* past attributes */
        p = rend;
        int64_t ts_delta;
        rc = kw_read_varint64(&q, rend, &ts_delta);
        if (KW_UNLIKELY(rc))
            FAIL(varint_fail(rc), rec, "record.timestamp_delta");
        int32_t off_delta;
        rc = kw_read_varint32(&q, rend, &off_delta);
        if (KW_UNLIKELY(rc))
            FAIL(varint_fail(rc), rec, "record.offset_delta");
        rc = read_varbytes(&q, rend, data, &key_len[k], &key_pos[k]);
        if (KW_UNLIKELY(rc))
            FAIL(rc, rec, "record.key");
        rc = read_varbytes(&q, rend, data, &value_len[k], &value_pos[k]);
        if (KW_UNLIKELY(rc))
            FAIL(rc, rec, "record.value");
        int32_t nheaders;
        const uint8_t *count_at = q;
        rc = kw_read_varint32(&q, rend, &nheaders);
        if (KW_UNLIKELY(rc))
            FAIL(varint_fail(rc), rec, "record.headers_count");
        if (KW_UNLIKELY(nheaders < 0))
            FAIL(KW_SCAN_BAD_LENGTH, rec, "record.headers_count");
        if (nheaders) {
            /* each header takes at least 2 bytes: bound the count by the bytes */
            if (KW_UNLIKELY((size_t)nheaders > (size_t)(rend - q) / 2))
                FAIL(KW_SCAN_TRUNCATED, rec, "record.headers_count");
            if (!c->header_pos) {
                c->header_pos = calloc(c->n_total ? c->n_total : 1, sizeof(uint32_t));
                if (!c->header_pos)
                    FAIL(KW_SCAN_NO_MEMORY, rec, "headers");
            }
            if (KW_UNLIKELY(c->nh + (size_t)nheaders > (size_t)INT32_MAX))
                FAIL(KW_SCAN_TOO_MANY_HEADERS, rec, "record.headers_count");
            c->header_pos[k] = (uint32_t)(count_at - data);
            for (int32_t h = 0; h < nheaders; h++) {
                int32_t hlen;
                uint32_t hpos;
                rc = read_varbytes(&q, rend, data, &hlen, &hpos);
                if (KW_UNLIKELY(rc || hlen < 0))
                    FAIL(rc ? rc : KW_SCAN_BAD_LENGTH, rec, "record.header.key");
                rc = read_varbytes(&q, rend, data, &hlen, &hpos);
                if (KW_UNLIKELY(rc))
                    FAIL(rc, rec, "record.header.value");
            }
            c->nh += (size_t)nheaders;
        }
        if (KW_UNLIKELY(q != rend))
            FAIL(KW_SCAN_SIZE_MISMATCH, rec, "record.length");
        offsets[k] = WRAP_ADD(base_offset, off_delta);
        timestamps[k] =
            log_append_time >= 0 ? log_append_time : WRAP_ADD(base_timestamp, ts_delta);
        c->n = k + 1; /* kept current so that a failure leaves a consistent count */
    }
    if (KW_UNLIKELY(p != end))
        FAIL(KW_SCAN_COUNT_MISMATCH, p, "record_count");
    return KW_SCAN_OK;
}

/* ---- legacy message sets ------------------------------------------------ */

static uint32_t crc32_table[8][256];
/* Racing first calls (the GIL is released around large CRCs) build the same
 * table; release / acquire make it visible before the flag is. */
static _Atomic int crc32_ready;

static void crc32_build(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        crc32_table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = crc32_table[0][n];
        for (int k = 1; k < 8; k++) {
            c = crc32_table[0][c & 0xff] ^ (c >> 8);
            crc32_table[k][n] = c;
        }
    }
    atomic_store_explicit(&crc32_ready, 1, memory_order_release);
}

uint32_t kw_crc32_ieee(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    if (!atomic_load_explicit(&crc32_ready, memory_order_acquire))
        crc32_build();
    crc = ~crc;
    while (len >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                             (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
                      (uint32_t)p[7] << 24;
        crc = crc32_table[7][lo & 0xff] ^ crc32_table[6][(lo >> 8) & 0xff] ^
              crc32_table[5][(lo >> 16) & 0xff] ^ crc32_table[4][lo >> 24] ^
              crc32_table[3][hi & 0xff] ^ crc32_table[2][(hi >> 8) & 0xff] ^
              crc32_table[1][(hi >> 16) & 0xff] ^ crc32_table[0][hi >> 24];
        p += 8;
        len -= 8;
    }
    while (len--)
        crc = crc32_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

int64_t kw_count_legacy(const uint8_t *data, size_t len)
{
    int64_t n = 0;
    size_t pos = 0;
    while (pos < len) {
        if (len - pos < 12)
            return -1;
        int32_t size = (int32_t)kw_be32(data + pos + 8);
        if (size < 14 || (size_t)size > len - pos - 12)
            return -1;
        pos += 12 + (size_t)size;
        n++;
    }
    return n;
}

int kw_scan_legacy(kw_columns *c, const uint8_t *data, size_t len, const kw_legacy_set *set,
                   size_t *err_pos, const char **err_field)
{
    const uint8_t *p = data, *end = data + len;
    size_t first = c->n;
    int64_t last_inner = 0;
    while (p < end) {
        const uint8_t *msg = p;
        if ((size_t)(end - p) < 12)
            FAIL(KW_SCAN_TRUNCATED, msg, "message.size");
        int64_t offset = (int64_t)kw_be64(p);
        int32_t size = (int32_t)kw_be32(p + 8);
        p += 12;
        if (size < 14)
            FAIL(KW_SCAN_BAD_LENGTH, msg, "message.size");
        if ((size_t)(end - p) < (size_t)size)
            FAIL(KW_SCAN_TRUNCATED, msg, "message.size");
        const uint8_t *mend = p + size;
        uint32_t crc = kw_be32(p);
        int magic = p[4];
        int attrs = p[5];
        if (magic != set->magic)
            FAIL(KW_SCAN_BAD_MAGIC, msg, "message.magic");
        if (set->verify_crc && kw_crc32_ieee(0, p + 4, (size_t)size - 4) != crc)
            FAIL(KW_SCAN_BAD_CRC, msg, "message.crc");
        if (attrs & 0x07)
            FAIL(KW_SCAN_NESTED_COMPRESSION, msg, "message.attributes");
        p += 6;
        int64_t ts = -1;
        if (magic == 1) {
            if (mend - p < 8)
                FAIL(KW_SCAN_BAD_LENGTH, msg, "message.size");
            ts = (int64_t)kw_be64(p);
            p += 8;
        }
        if (c->n >= c->cap)
            FAIL(KW_SCAN_OVERFLOW, msg, "message");
        size_t k = c->n;
        for (int field = 0; field < 2; field++) {
            if (mend - p < 4)
                FAIL(KW_SCAN_BAD_LENGTH, msg, field ? "message.value" : "message.key");
            int32_t flen = (int32_t)kw_be32(p);
            p += 4;
            uint32_t fpos = (uint32_t)(p - data);
            if (flen < 0) {
                if (flen != -1)
                    FAIL(KW_SCAN_BAD_LENGTH, msg, field ? "message.value" : "message.key");
                fpos = 0;
            } else {
                if (mend - p < flen)
                    FAIL(KW_SCAN_BAD_LENGTH, msg, field ? "message.value" : "message.key");
                p += flen;
            }
            if (field) {
                c->value_len[k] = flen;
                c->value_pos[k] = fpos;
            } else {
                c->key_len[k] = flen;
                c->key_pos[k] = fpos;
            }
        }
        if (p != mend)
            FAIL(KW_SCAN_SIZE_MISMATCH, msg, "message.size");
        c->offsets[k] = offset;
        c->timestamps[k] = set->wrapper_timestamp >= 0 ? set->wrapper_timestamp : ts;
        last_inner = offset;
        c->n = k + 1;
    }
    /* magic 1 inner offsets are relative; the wrapper carries the absolute
     * offset of the last inner message. */
    if (set->is_inner && set->magic == 1)
        for (size_t k = first; k < c->n; k++)
            c->offsets[k] = WRAP_ADD(set->wrapper_offset, WRAP_SUB(c->offsets[k], last_inner));
    return KW_SCAN_OK;
}

int32_t kw_read_headers(const uint8_t *data, size_t len, uint32_t pos, uint32_t *key_pos,
                        int32_t *key_len, uint32_t *value_pos, int32_t *value_len, int32_t max)
{
    if (pos == 0 || pos >= len)
        return pos == 0 ? 0 : -1;
    const uint8_t *q = data + pos, *end = data + len;
    int32_t n, klen, vlen;
    uint32_t kpos, vpos;
    if (kw_read_varint32(&q, end, &n) || n < 0)
        return -1;
    for (int32_t h = 0; h < n; h++) {
        if (read_varbytes(&q, end, data, &klen, &kpos) || klen < 0)
            return -1;
        if (read_varbytes(&q, end, data, &vlen, &vpos))
            return -1;
        if (h < max) {
            if (key_pos) key_pos[h] = kpos;
            if (key_len) key_len[h] = klen;
            if (value_pos) value_pos[h] = vpos;
            if (value_len) value_len[h] = vlen;
        }
    }
    return n;
}

/* ---- Arrow export -------------------------------------------------------- */

void kw_fill_binary_views(uint8_t *views, size_t n, const uint32_t *pos, const int32_t *len,
                          const uint8_t *base, int32_t buf_index, int64_t data_start)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t *v = views + 16 * i;
        int32_t l = len[i];
        memset(v, 0, 16);
        if (l <= 0)
            continue;
        memcpy(v, &l, 4);
        const uint8_t *src = base + pos[i];
        if (l <= 12) {
            memcpy(v + 4, src, (size_t)l);
        } else {
            int32_t off = (int32_t)(data_start + pos[i]);
            memcpy(v + 4, src, 4);
            memcpy(v + 8, &buf_index, 4);
            memcpy(v + 12, &off, 4);
        }
    }
}
