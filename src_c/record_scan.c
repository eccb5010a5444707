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

/* The tight path reads a varint of one to three bytes (lengths and deltas
 * under 2^20 as zigzag, which nearly every record has): its raw (still
 * zigzag-coded) value into out, or a jump to slow for a longer one. */
#define TIGHT_VARINT(q, out, slow)                                                                 \
    do {                                                                                           \
        uint32_t b0_ = (q)[0];                                                                     \
        if (KW_LIKELY(b0_ < 0x80)) {                                                               \
            (out) = b0_;                                                                           \
            (q) += 1;                                                                              \
        } else {                                                                                   \
            uint32_t w_ = (uint32_t)(q)[1] << 8 | b0_;                                             \
            (out) = (w_ & 0x7f) | ((w_ >> 1) & 0x3f80);                                            \
            if (KW_LIKELY(w_ < 0x8000)) {                                                          \
                (q) += 2;                                                                          \
            } else {                                                                               \
                uint32_t b2_ = (q)[2];                                                             \
                if (KW_UNLIKELY(b2_ >= 0x80))                                                      \
                    goto slow;                                                                     \
                (out) |= b2_ << 14;                                                                \
                (q) += 3;                                                                          \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* A raw length (zigzag) that is not negative: even.  1 is -1 (null); other
 * odd ones are invalid lengths, which the checked path reports. */
#define RAW_IS_NULL 1u

#define UNZIGZAG(v) ((int32_t)(((v) >> 1) ^ (0u - ((v) & 1))))

/* Bytes the tight path may read past a record's end (a varint of at most
 * three bytes where the record ends early): it needs this many bytes of the
 * batch after the record, so a batch's last record takes the checked path. */
#define TIGHT_SLACK 8

/* Offsets and timestamps are scanned as deltas; this makes them absolute. */
static void add_bases(int64_t *restrict offsets, int64_t *restrict timestamps, size_t n,
                      const kw_v2_batch *b)
{
    const uint64_t base_offset = (uint64_t)b->base_offset;
    const uint64_t base_timestamp = (uint64_t)b->base_timestamp;
    for (size_t k = 0; k < n; k++) /* wrapping, as WRAP_ADD */
        offsets[k] = (int64_t)(base_offset + (uint64_t)offsets[k]);
    if (b->log_append_time >= 0)
        for (size_t k = 0; k < n; k++)
            timestamps[k] = b->log_append_time;
    else
        for (size_t k = 0; k < n; k++)
            timestamps[k] = (int64_t)(base_timestamp + (uint64_t)timestamps[k]);
}

int kw_scan_v2(kw_columns *c, const uint8_t *data, size_t len, const kw_v2_batch *b,
               size_t *err_pos, const char **err_field)
{
    const uint8_t *p = data, *end = data + len;
    /* the tight path takes records that end at or before limit */
    const uint8_t *limit = len > TIGHT_SLACK ? end - TIGHT_SLACK : data;
    int rc = KW_SCAN_OK;
    const uint8_t *fail_at = data;
    const char *fail_field = "";
    /* locals: stores through the column pointers could otherwise alias c */
    int64_t *restrict offsets = c->offsets, *restrict timestamps = c->timestamps;
    uint32_t *restrict key_pos = c->key_pos, *restrict value_pos = c->value_pos;
    int32_t *restrict key_len = c->key_len, *restrict value_len = c->value_len;
    uint32_t *restrict header_pos = c->header_pos;
    size_t nh = c->nh;
    if (KW_UNLIKELY(c->n + (size_t)b->record_count > c->cap)) {
        *err_pos = 0;
        *err_field = "record_count";
        return KW_SCAN_OVERFLOW;
    }
    const size_t first = c->n, k_end = first + (size_t)b->record_count;
    size_t k = first;

#define FAIL_AT(code, at, field)                                                                   \
    do {                                                                                           \
        rc = (code);                                                                               \
        fail_at = (at);                                                                            \
        fail_field = (field);                                                                      \
        goto done;                                                                                 \
    } while (0)

    for (; k < k_end; k++) {
        const uint8_t *rec = p;
        /* Tight path: small varints, with TIGHT_SLACK readable bytes after the
         * record, so that no read needs its own bounds check; anything else
         * falls to the checked path, which reads the record again.  Only the
         * length links one record to the next, so the CPU works on several
         * records at once. */
        if (KW_LIKELY(p < limit)) {
            const uint8_t *q = p;
            uint32_t v;
            TIGHT_VARINT(q, v, checked);
            if (KW_UNLIKELY((v & 1) || v < 12 || (ptrdiff_t)(v >> 1) > limit - q))
                goto checked; /* a negative or short length, or too few bytes after */
            const uint8_t *rend = q + (v >> 1);
            q++; /* attributes: unused by Kafka */
            uint32_t ts_raw, off_raw;
            TIGHT_VARINT(q, ts_raw, checked);
            TIGHT_VARINT(q, off_raw, checked);
            TIGHT_VARINT(q, v, checked);
            key_pos[k] = (uint32_t)(q - data);
            if (KW_LIKELY(!(v & 1))) {
                if (KW_UNLIKELY((ptrdiff_t)(v >> 1) >= rend - q))
                    goto checked; /* the value length follows */
                key_len[k] = (int32_t)(v >> 1);
                q += v >> 1;
            } else if (v == RAW_IS_NULL) {
                key_len[k] = -1;
            } else {
                goto checked;
            }
            TIGHT_VARINT(q, v, checked);
            value_pos[k] = (uint32_t)(q - data);
            if (KW_LIKELY(!(v & 1))) {
                if (KW_UNLIKELY((ptrdiff_t)(v >> 1) >= rend - q))
                    goto checked; /* the header count follows */
                value_len[k] = (int32_t)(v >> 1);
                q += v >> 1;
            } else if (v == RAW_IS_NULL) {
                value_len[k] = -1;
            } else {
                goto checked;
            }
            offsets[k] = UNZIGZAG(off_raw);
            timestamps[k] = UNZIGZAG(ts_raw);
            header_pos[k] = 0;
            uint32_t count = *q; /* q <= rend + 3 here: within the slack */
            if (KW_LIKELY(count == 0 && q + 1 == rend)) {
                p = rend; /* no headers: the common case */
                continue;
            }
            if (count == 0 || count >= 0x80 || (count & 1) || q >= rend)
                goto checked; /* a negative or large count, or a bad length */
            const uint8_t *count_at = q++;
            int32_t n = (int32_t)(count >> 1);
            for (int32_t h = 0; h < n; h++) {
                if (KW_UNLIKELY(q >= rend))
                    goto checked;
                TIGHT_VARINT(q, v, checked); /* key: not null */
                if (KW_UNLIKELY((v & 1) || (ptrdiff_t)(v >> 1) >= rend - q))
                    goto checked;
                q += v >> 1;
                TIGHT_VARINT(q, v, checked);
                if (KW_LIKELY(!(v & 1))) {
                    if (KW_UNLIKELY((ptrdiff_t)(v >> 1) > rend - q))
                        goto checked;
                    q += v >> 1;
                } else if (v != RAW_IS_NULL) {
                    goto checked;
                }
            }
            if (KW_UNLIKELY(q != rend || nh + (size_t)n > (size_t)INT32_MAX))
                goto checked;
            header_pos[k] = (uint32_t)(count_at - data);
            nh += (size_t)n;
            p = rend;
            continue;
        }

    checked:
        /* Checked path: the last record of a batch, long varints and anything
         * odd (which it reports precisely). */
        p = rec;
        if (KW_UNLIKELY(p >= end))
            FAIL_AT(KW_SCAN_COUNT_MISMATCH, p, "record_count");
        int32_t rlen;
        rc = kw_read_varint32(&p, end, &rlen);
        if (KW_UNLIKELY(rc))
            FAIL_AT(varint_fail(rc), rec, "record.length");
        if (KW_UNLIKELY(rlen < 6))
            FAIL_AT(KW_SCAN_BAD_LENGTH, rec, "record.length");
        if (KW_UNLIKELY((size_t)(end - p) < (size_t)rlen))
            FAIL_AT(KW_SCAN_TRUNCATED, rec, "record.length");
        const uint8_t *rend = p + rlen;
        const uint8_t *q = p + 1; /* past attributes */
        p = rend;
        int64_t ts_delta;
        rc = kw_read_varint64(&q, rend, &ts_delta);
        if (KW_UNLIKELY(rc))
            FAIL_AT(varint_fail(rc), rec, "record.timestamp_delta");
        int32_t off_delta;
        rc = kw_read_varint32(&q, rend, &off_delta);
        if (KW_UNLIKELY(rc))
            FAIL_AT(varint_fail(rc), rec, "record.offset_delta");
        rc = read_varbytes(&q, rend, data, &key_len[k], &key_pos[k]);
        if (KW_UNLIKELY(rc))
            FAIL_AT(rc, rec, "record.key");
        rc = read_varbytes(&q, rend, data, &value_len[k], &value_pos[k]);
        if (KW_UNLIKELY(rc))
            FAIL_AT(rc, rec, "record.value");
        int32_t nheaders;
        const uint8_t *count_at = q;
        header_pos[k] = 0;
        rc = kw_read_varint32(&q, rend, &nheaders);
        if (KW_UNLIKELY(rc))
            FAIL_AT(varint_fail(rc), rec, "record.headers_count");
        if (KW_UNLIKELY(nheaders < 0))
            FAIL_AT(KW_SCAN_BAD_LENGTH, rec, "record.headers_count");
        if (nheaders) {
            /* each header takes at least 2 bytes: bound the count by the bytes */
            if (KW_UNLIKELY((size_t)nheaders > (size_t)(rend - q) / 2))
                FAIL_AT(KW_SCAN_TRUNCATED, rec, "record.headers_count");
            if (KW_UNLIKELY(nh + (size_t)nheaders > (size_t)INT32_MAX))
                FAIL_AT(KW_SCAN_TOO_MANY_HEADERS, rec, "record.headers_count");
            for (int32_t h = 0; h < nheaders; h++) {
                int32_t hlen;
                uint32_t hpos;
                rc = read_varbytes(&q, rend, data, &hlen, &hpos);
                if (KW_UNLIKELY(rc || hlen < 0))
                    FAIL_AT(rc ? rc : KW_SCAN_BAD_LENGTH, rec, "record.header.key");
                rc = read_varbytes(&q, rend, data, &hlen, &hpos);
                if (KW_UNLIKELY(rc))
                    FAIL_AT(rc, rec, "record.header.value");
            }
            header_pos[k] = (uint32_t)(count_at - data);
            nh += (size_t)nheaders;
        }
        if (KW_UNLIKELY(q != rend))
            FAIL_AT(KW_SCAN_SIZE_MISMATCH, rec, "record.length");
        offsets[k] = off_delta;
        timestamps[k] = ts_delta;
    }
    if (KW_UNLIKELY(p != end))
        FAIL_AT(KW_SCAN_COUNT_MISMATCH, p, "record_count");
#undef FAIL_AT

done:
    /* the records read so far stay consistent when the scan fails */
    c->n = k;
    c->nh = nh;
    add_bases(offsets + first, timestamps + first, k - first, b);
    if (rc != KW_SCAN_OK) {
        *err_pos = (size_t)(fail_at - data);
        *err_field = fail_field;
    }
    return rc;
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
        c->header_pos[k] = 0;
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
