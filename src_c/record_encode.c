/* The per-record loop of build_batches: see record_encode.h. */
#include "record_encode.h"

#include <string.h>

#include "record_write.h"
#include "varint.h"

#if defined(__GNUC__)
#define KW_PREFETCH(p) __builtin_prefetch(p)
#else
#define KW_PREFETCH(p) ((void)0)
#endif

/* length of row i (-1: null), its bytes at *p; nulls 0: c has no validity bitmap */
KW_INLINE int64_t bin_get(const kw_bin_col c, int64_t i, const uint8_t **p, const int nulls)
{
    int64_t r = i - c.start;
    if (nulls && c.valid) {
        int64_t bit = r + c.bit_off;
        if (!((c.valid[bit >> 3] >> (bit & 7)) & 1))
            return -1;
    }
    int32_t a = c.offs[r];
    *p = c.data + a;
    return (int32_t)(c.offs[r + 1] - a);
}

/* kw_copy_bytes for the common short strings: one 16- or 32-byte copy, when the 32 bytes at
 * src are readable (s_end: the end of the column's data) and dst has the room (over) */
KW_INLINE void copy_short(uint8_t *d, const uint8_t *s, size_t n, const uint8_t *s_end, int over)
{
    if (over && n <= 32 && s_end - s >= 32) {
        memcpy(d, s, 16);
        if (n > 16)
            memcpy(d + 16, s + 16, 16);
        return;
    }
    kw_copy_bytes(d, s, n);
}

/* the end of the bytes of a column's loaded rows */
KW_INLINE const uint8_t *bin_end(const kw_bin_col c)
{
    return c.data ? c.data + c.offs[c.end - c.start] : NULL;
}

/* The loop, specialised by the constant flags: keys present, validity bitmaps to check,
 * headers present.  The columns are copied into locals, which stay in registers (the byte
 * stores into buf may alias anything the compiler cannot see is local). */
KW_INLINE int64_t encode_loop(kw_batch *b, const kw_bin_col V, const kw_bin_col K,
                              const int64_t *ts, int64_t now, const kw_hdr_col *hdrs,
                              const int64_t *rows, int64_t i, const int64_t lim,
                              const int has_keys, const int nulls, const int has_hdrs,
                              const int hfast)
{
    kw_bin_col HK = {0}, HV = {0};
    const uint8_t *hvalid = NULL;
    const int32_t *hoffs = NULL;
    int64_t hbit_off = 0, hstart = 0;
    if (has_hdrs) {
        HK = hdrs->keys;
        HV = hdrs->vals;
        hvalid = hdrs->valid;
        hoffs = hdrs->offs;
        hbit_off = hdrs->bit_off;
        hstart = hdrs->start;
    }
    /* max_bytes <= INT32_MAX, so records within it never make a batch too large; the
     * first record of a batch has no limit but the room there is and INT32_MAX */
    const uint8_t *k_end = has_keys ? bin_end(K) : NULL;
    const uint8_t *hk_end = has_hdrs ? bin_end(HK) : NULL;
    const uint8_t *hv_end = has_hdrs ? bin_end(HV) : NULL;
    const size_t phys = b->cap;
    b->full = 0;
    const int64_t hmax = hfast ? hoffs[lim - hstart] : 0;
    size_t cap = b->cap < (size_t)INT32_MAX ? b->cap : (size_t)INT32_MAX;
    size_t room = cap < (uint64_t)b->max_bytes ? cap : (size_t)b->max_bytes;
    uint8_t *buf = b->buf;
    size_t at = b->len;
    int32_t count = b->count;
    int64_t first_ts = b->first_ts, max_ts = b->max_ts;

    for (; i < lim && count < INT32_MAX; i++) {
        const uint8_t *vp = NULL, *kp = NULL, *hp;
        const int64_t row = rows ? rows[i] : i; /* rows: a gather, inside the loaded rows */
        /* the values are the bulk of the bytes read: ask for them a few rows ahead */
        if (rows) {
            /* a gather: the keys are as scattered as the values (16 rows ahead measured
             * best on a producer's partition of 8) */
            if (i + 16 < lim) {
                const int64_t ahead = rows[i + 16];
                KW_PREFETCH(V.data + V.offs[ahead - V.start]);
                KW_PREFETCH(V.data + V.offs[ahead - V.start] + 64);
                if (has_keys)
                    KW_PREFETCH(K.data + K.offs[ahead - K.start]);
            }
        } else if (i + 8 < V.end) {
            KW_PREFETCH(V.data + V.offs[i + 8 - V.start] + 64);
        }
        int64_t vl = bin_get(V, row, &vp, nulls);
        int64_t kl = has_keys ? bin_get(K, row, &kp, nulls) : -1;
        int64_t t = ts ? ts[row] : now;
        /* wraps like the Cython writer for (absurd) timestamps far apart */
        int64_t delta = count ? (int64_t)((uint64_t)t - (uint64_t)first_ts) : 0;
        int64_t body = 1 + kw_varint64_size(delta) + kw_varint64_size(count) + kw_bytes_size(kl) +
                       kw_bytes_size(vl);
        int64_t h0 = 0, nh = 0;
        int hshort = 0;
        if (has_hdrs) {
            int64_t r = row - hstart;
            int null_list = 0;
            if (hvalid) {
                int64_t bit = r + hbit_off;
                null_list = !((hvalid[bit >> 3] >> (bit & 7)) & 1);
            }
            if (!null_list) {
                h0 = hoffs[r];
                nh = (int64_t)hoffs[r + 1] - h0;
                if (hfast) {
                    /* the caller checked the first offset; a row starts where the one
                     * before it ends */
                    if (nh < 0 || h0 + nh > hmax)
                        break;
                } else if (nh < 0 || h0 < HK.start || h0 + nh > HK.end || h0 < HV.start ||
                           h0 + nh > HV.end) {
                    break;
                }
                if (hfast) {
                    /* keys and values adding up to less than 64 bytes each have one-byte
                     * lengths: the sizes come from the first and last offsets */
                    int64_t ks = HK.offs[h0 + nh] - HK.offs[h0];
                    int64_t vs = HV.offs[h0 + nh] - HV.offs[h0];
                    if (ks >= 0 && ks < 64 && vs >= 0 && vs < 64) {
                        hshort = 1;
                        body += ks + vs + 2 * nh;
                    }
                }
                for (int64_t j = h0; !hshort && j < h0 + nh; j++) {
                    int64_t hk = bin_get(HK, j, &hp, !hfast);
                    if (hk < 0)
                        goto stop; /* null header key: the caller raises */
                    body += kw_varint64_size(hk) + hk + kw_bytes_size(bin_get(HV, j, &hp, !hfast));
                }
            }
        }
        body += kw_varint64_size(nh);
        int64_t size = kw_varint64_size(body) + body;
        if ((int64_t)at + size > (int64_t)(count ? room : cap)) {
            b->full = count && (int64_t)at + size > b->max_bytes;
            break;
        }
        uint8_t *p = kw_put_varint(buf + at, body);
        *p++ = 0; /* record attributes: unused */
        p = kw_put_varint(p, delta);
        p = kw_put_varint(p, count);
        /* room for 32 bytes past the record: short strings may be over-copied */
        int over = at + (size_t)size + 32 <= phys;
        p = kw_put_varint(p, kl);
        if (kl > 0) {
            copy_short(p, kp, (size_t)kl, k_end, over);
            p += kl;
        }
        p = kw_put_bytes(p, vp, vl);
        p = kw_put_varint(p, nh);
        if (has_hdrs && hshort) {
            const int32_t *ko = HK.offs + h0, *vo = HV.offs + h0; /* hfast: start 0 */
            for (int64_t j = 0; j < nh; j++) {
                int32_t a = ko[j], l = ko[j + 1] - a;
                *p++ = (uint8_t)(l << 1);
                copy_short(p, HK.data + a, (size_t)l, hk_end, over);
                p += l;
                a = vo[j];
                l = vo[j + 1] - a;
                *p++ = (uint8_t)(l << 1);
                copy_short(p, HV.data + a, (size_t)l, hv_end, over);
                p += l;
            }
        } else if (has_hdrs) {
            for (int64_t j = h0; j < h0 + nh; j++) {
                const uint8_t *hv;
                int64_t hk = bin_get(HK, j, &hp, !hfast);
                int64_t hl = bin_get(HV, j, &hv, !hfast);
                p = kw_put_bytes(p, hp, hk);
                p = kw_put_bytes(p, hv, hl);
            }
        }
        at += (size_t)size;
        if (count == 0)
            first_ts = max_ts = t;
        else if (t > max_ts)
            max_ts = t;
        count++;
    }
stop:
    b->len = at;
    b->count = count;
    b->first_ts = first_ts;
    b->max_ts = max_ts;
    return i;
}

int64_t kw_encode_rows(kw_batch *b, const kw_bin_col *vals, const kw_bin_col *keys,
                       const int64_t *ts, int64_t now, const kw_hdr_col *hdrs,
                       const int64_t *rows, int64_t i, int64_t n)
{
    int64_t lim = n;
    if (rows) {
        /* the caller checked that the rows ascend: stop before the first one outside a
         * column's loaded rows */
        int64_t end = vals->end;
        if (keys && keys->end < end)
            end = keys->end;
        if (hdrs && hdrs->end < end)
            end = hdrs->end;
        int64_t start = vals->start;
        if (keys && keys->start > start)
            start = keys->start;
        if (hdrs && hdrs->start > start)
            start = hdrs->start;
        if (i < lim && rows[i] < start)
            return i;
        int64_t lo = i, hi = lim; /* the first position whose row is >= end */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (rows[mid] < end)
                lo = mid + 1;
            else
                hi = mid;
        }
        lim = lo;
    } else {
        if (vals->end < lim)
            lim = vals->end;
        if (keys && keys->end < lim)
            lim = keys->end;
        if (hdrs && hdrs->end < lim)
            lim = hdrs->end;
    }
    static const kw_bin_col none = {0};
    const kw_bin_col K = keys ? *keys : none;
    int nulls = vals->valid != NULL || K.valid != NULL;
    if (hdrs) {
        /* no nulls among the header keys and values, which start at row 0, and the
         * rows' headers between the first and the last offset, inside both columns */
        int hfast = 0;
        if (!rows && i < lim && !hdrs->keys.valid && !hdrs->vals.valid && hdrs->keys.start == 0 &&
            hdrs->vals.start == 0) {
            int64_t lo = hdrs->offs[i - hdrs->start], hi = hdrs->offs[lim - hdrs->start];
            hfast = lo >= 0 && lo <= hi && hi <= hdrs->keys.end && hi <= hdrs->vals.end;
        }
        if (hfast)
            return encode_loop(b, *vals, K, ts, now, hdrs, rows, i, lim, keys != NULL, nulls, 1, 1);
        return encode_loop(b, *vals, K, ts, now, hdrs, rows, i, lim, keys != NULL, 1, 1, 0);
    }
    if (!keys)
        return nulls ? encode_loop(b, *vals, K, ts, now, NULL, rows, i, lim, 0, 1, 0, 0)
                     : encode_loop(b, *vals, K, ts, now, NULL, rows, i, lim, 0, 0, 0, 0);
    return nulls ? encode_loop(b, *vals, K, ts, now, NULL, rows, i, lim, 1, 1, 0, 0)
                 : encode_loop(b, *vals, K, ts, now, NULL, rows, i, lim, 1, 0, 0, 0);
}
