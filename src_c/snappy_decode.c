/* Snappy decoder (raw format, and xerial framing), written from the format description.
 *
 * A raw block is a little-endian base-128 varint (the uncompressed length, < 2^32) followed
 * by elements: literals (tag & 3 == 0) and copies with 1-, 2- or 4-byte offsets. Every
 * length and offset is checked against the input left and the output written before use.
 * Elements may write up to 31 bytes past their end while the block's output window has room:
 * those bytes are overwritten by later elements, as the block must fill its window exactly.
 * Most elements are decoded by a fast loop that checks less, far from the block's ends.
 */
#include "snappy_decode.h"

#include <string.h>

#include "compiler.h"

const uint8_t kw_snappy_xerial_magic[8] = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};

#define XERIAL_HEADER 16
/* The densest element is a 3-byte copy of 64 bytes: no block decodes to more than 22 times
 * its size, so a larger declared length is a lie, refused before allocating for it. */
#define MAX_RATIO 22u

static inline uint32_t rd32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t rd32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Read the length varint of the raw block src[0:len]: *size and *hdr (its byte count). */
static int block_length(const uint8_t *src, size_t len, uint64_t *size, size_t *hdr)
{
    uint64_t v = 0;
    for (size_t i = 0; i < 5; i++) {
        if (i >= len)
            return KW_SNAPPY_TRUNCATED;
        uint8_t b = src[i];
        v |= (uint64_t)(b & 0x7Fu) << (7 * i);
        if (!(b & 0x80u)) {
            if (v > 0xFFFFFFFFu)
                return KW_SNAPPY_BAD_LENGTH;
            *size = v;
            *hdr = i + 1;
            return KW_SNAPPY_OK;
        }
    }
    return KW_SNAPPY_BAD_LENGTH;
}

/* Declared length of a raw block, checked against what its bytes can encode. */
static int scan_block(const uint8_t *src, size_t len, uint64_t *size, size_t *err_off)
{
    size_t hdr = 0;
    int rc = block_length(src, len, size, &hdr);
    if (rc != KW_SNAPPY_OK) {
        *err_off = rc == KW_SNAPPY_TRUNCATED ? len : 0;
        return rc;
    }
    if (*size > (uint64_t)(len - hdr) * MAX_RATIO) {
        *err_off = 0;
        return KW_SNAPPY_IMPOSSIBLE;
    }
    return KW_SNAPPY_OK;
}

static int is_xerial(const uint8_t *src, size_t len)
{
    return len >= 8 && memcmp(src, kw_snappy_xerial_magic, 8) == 0;
}

/* The next block of a xerial stream, whose [int32 length] prefix sits at
 * *pos: returns 1 with *pos moved to the block's bytes and *n set; returns 0
 * at the end (*rc = KW_SNAPPY_OK) or for a prefix that does not fit
 * (*rc = KW_SNAPPY_XERIAL_BLOCK, with *err_pos). */
static int xerial_next(const uint8_t *src, size_t len, size_t *pos, uint32_t *n, size_t *err_pos,
                       int *rc)
{
    *rc = KW_SNAPPY_OK;
    if (*pos >= len)
        return 0;
    if (len - *pos < 4) {
        *err_pos = len;
        *rc = KW_SNAPPY_XERIAL_BLOCK;
        return 0;
    }
    *n = rd32be(src + *pos);
    if (*n > 0x7FFFFFFFu || *n > len - *pos - 4) {
        *err_pos = *pos;
        *rc = KW_SNAPPY_XERIAL_BLOCK;
        return 0;
    }
    *pos += 4;
    return 1;
}

int kw_snappy_scan(const uint8_t *src, size_t len, uint64_t max_size, uint64_t *total,
                   size_t *err_pos)
{
    uint64_t size = 0;
    size_t off = 0;
    int rc;

    *total = 0;
    *err_pos = 0;
    if (!is_xerial(src, len)) {
        rc = scan_block(src, len, &size, &off);
        /* the cap first: a lying header over the cap is reported as such */
        if (rc == KW_SNAPPY_IMPOSSIBLE && size > max_size)
            rc = KW_SNAPPY_LIMIT;
        else if (rc == KW_SNAPPY_OK && size > max_size)
            rc = KW_SNAPPY_LIMIT;
        *err_pos = off;
        *total = size;
        return rc;
    }
    if (len < XERIAL_HEADER) {
        *err_pos = len;
        return KW_SNAPPY_XERIAL_HEADER;
    }
    /* The two version fields are ignored: some producers write them little-endian. */
    size_t pos = XERIAL_HEADER;
    uint64_t sum = 0;
    uint32_t n;
    while (xerial_next(src, len, &pos, &n, err_pos, &rc)) {
        rc = scan_block(src + pos, n, &size, &off);
        if (rc == KW_SNAPPY_IMPOSSIBLE && size > max_size - sum) {
            rc = KW_SNAPPY_LIMIT;
            off = 0;
        }
        if (rc != KW_SNAPPY_OK) {
            *err_pos = pos + off;
            return rc;
        }
        if (size > max_size - sum) {
            *err_pos = pos;
            *total = sum + size;
            return KW_SNAPPY_LIMIT;
        }
        sum += size;
        pos += n;
    }
    if (rc != KW_SNAPPY_OK)
        return rc;
    *total = sum;
    return KW_SNAPPY_OK;
}

static inline void copy16(uint8_t *d, const uint8_t *s)
{
    memcpy(d, s, 16);
}

/* Copy n bytes to op from offset bytes back, room >= n bytes being writable at op. Chunks
 * 16 bytes apart or more never overlap. (Copying a second chunk unconditionally is slower:
 * it reads what the first one just wrote, which stalls store forwarding.) */
static inline void copy_match(uint8_t *op, size_t offset, size_t n, size_t room)
{
    const uint8_t *m = op - offset;
    if (offset >= 16 && room >= n + 16) {
        copy16(op, m);
        for (size_t i = 16; i < n; i += 16)
            copy16(op + i, m + i);
    } else if (offset >= 8 && room >= n + 8) {
        for (size_t i = 0; i < n; i += 8)
            memcpy(op + i, m + i, 8);
    } else {
        /* overlapping copy: copy the period, then twice as much from the same start, which
         * stays a whole number of periods behind */
        uint8_t *const end = op + n;
        while (op < end) {
            size_t d = (size_t)(op - m);
            size_t k = (size_t)(end - op);
            memcpy(op, m, k < d ? k : d);
            op += k < d ? k : d;
        }
    }
}

/* Copy n literal bytes, n <= both rooms (input left at ip, output left at op); the caller
 * copies the short ones itself. */
static inline void copy_literal(uint8_t *op, const uint8_t *ip, size_t n, size_t in_room,
                                size_t out_room)
{
    if (in_room >= n + 16 && out_room >= n + 16) {
        for (size_t i = 0; i < n; i += 16)
            copy16(op + i, ip + i);
    } else {
        memcpy(op, ip, n);
    }
}

/* Far enough from both ends of the block, the fast loop checks only what the input decides:
 * a tag and a literal of up to 32 bytes (or a 4-byte offset) after it can be read, and a copy
 * of up to 64 bytes can be written in 16-byte chunks. */
#define FAST_INPUT 37
#define FAST_OUTPUT 64

/* For each copy tag (tag & 3 != 0): its length, and above it the high bits of its offset (for
 * a 1-byte offset, the tag's top three bits). Looking these up, rather than branching on which
 * of the three copy forms a tag is, spares the mispredictions of an order no predictor learns:
 * the fast loop takes 10% less time on JSON-like values. Input whose copies all take one form
 * (repeated log lines) loses instead, as the lookup delays the next element: 20% slower, at 9
 * GB/s rather than 11. (Literal tags have no entry.) */
#define COPY_LEN(t) (((t) & 3) == 1 ? 4 + (((t) >> 2) & 7) : ((t) >> 2) + 1)
#define COPY_INFO(t) (((t) & 3) == 0 ? 0 : COPY_LEN(t) | (((t) & 3) == 1 ? (t) >> 5 << 16 : 0))
#define INFO4(t) COPY_INFO(t), COPY_INFO((t) + 1), COPY_INFO((t) + 2), COPY_INFO((t) + 3)
#define INFO16(t) INFO4(t), INFO4((t) + 4), INFO4((t) + 8), INFO4((t) + 12)
#define INFO64(t) INFO16(t), INFO16((t) + 16), INFO16((t) + 32), INFO16((t) + 48)
static const uint32_t copy_info[256] = {INFO64(0), INFO64(64), INFO64(128), INFO64(192)};
/* the offset's bytes after the tag, by tag & 3 */
static const uint32_t offset_mask[4] = {0, 0xFFu, 0xFFFFu, 0xFFFFFFFFu};

/* Decode elements while far enough from both ends, as long as each is a literal of up to 32
 * bytes or a copy from at least 16 bytes back (most are); stop at the first other element,
 * at *ipp, for the checked loop. A literal is always moved as 32 bytes, which spares a branch
 * on its length. Marking literals (a third of the elements) as the unlikely side lays the
 * copies out as the straight path, which takes 6% less time again. */
static inline void decode_fast(const uint8_t **ipp, uint8_t **opp, const uint8_t *iend,
                               uint8_t *dst, uint8_t *oend)
{
    const uint8_t *ip = *ipp;
    uint8_t *op = *opp;
    if ((size_t)(iend - ip) < FAST_INPUT || (size_t)(oend - op) < FAST_OUTPUT)
        return; /* (and the limits below would point before the buffers) */
    const uint8_t *const ilimit = iend - FAST_INPUT;
    uint8_t *const olimit = oend - FAST_OUTPUT;
    do {
        unsigned tag = *ip;
        if (KW_UNLIKELY((tag & 3u) == 0)) {
            size_t n = (tag >> 2) + 1;
            if (n > 32) /* longer, or its length in the bytes after the tag */
                break;
            copy16(op, ip + 1);
            copy16(op + 16, ip + 17);
            ip += n + 1;
            op += n;
            continue; /* (to the loop's condition) */
        }
        uint32_t info = copy_info[tag];
        size_t n = info & 0xFFu;
        size_t offset = (rd32le(ip + 1) & offset_mask[tag & 3u]) | (info >> 8);
        size_t step = (tag & 3u) + 1; /* the tag and its offset: 2, 3 or 5 bytes */
        step += step >> 2;
        /* an offset of 0 or past the output's start is for the checked loop to report */
        if (KW_UNLIKELY(offset - 1 >= (size_t)(op - dst) || offset < 16))
            break;
        const uint8_t *m = op - offset;
        copy16(op, m);
        if (KW_UNLIKELY(n > 16)) {
            copy16(op + 16, m + 16);
            if (n > 32) {
                copy16(op + 32, m + 32);
                copy16(op + 48, m + 48);
            }
        }
        ip += step;
        op += n;
    } while (ip <= ilimit && op <= olimit);
    *ipp = ip;
    *opp = op;
}

/* Decode the elements src[0:len] of one raw block into exactly dst[0:size]. */
static int decode_block(const uint8_t *src, size_t len, uint8_t *dst, size_t size,
                        const uint8_t **err_at)
{
    const uint8_t *ip = src;
    const uint8_t *const iend = src + len;
    uint8_t *op = dst;
    uint8_t *const oend = dst + size;

    while (ip < iend) {
        decode_fast(&ip, &op, iend, dst, oend);
        if (ip >= iend)
            break;
        const uint8_t *tag_at = ip;
        unsigned tag = *ip++;
        unsigned kind = tag & 3u;
        size_t n; /* literal or copy length */
        if (kind == 0) {
            n = tag >> 2;
            if (n >= 60) {
                size_t k = n - 59; /* 1 to 4 little-endian length bytes */
                if ((size_t)(iend - ip) < k) {
                    *err_at = iend;
                    return KW_SNAPPY_TRUNCATED;
                }
                n = 0;
                for (size_t i = 0; i < k; i++)
                    n |= (size_t)ip[i] << (8 * i);
                ip += k;
            }
            n += 1;
            size_t in_room = (size_t)(iend - ip), out_room = (size_t)(oend - op);
            if (n <= 16 && in_room >= 16 && out_room >= 16) {
                copy16(op, ip); /* most literals: one move, no more checks */
            } else {
                if (n > in_room) {
                    *err_at = iend;
                    return KW_SNAPPY_TRUNCATED;
                }
                if (n > out_room) {
                    *err_at = ip;
                    return KW_SNAPPY_OVERFLOW;
                }
                copy_literal(op, ip, n, in_room, out_room);
            }
            ip += n;
            op += n;
            continue;
        }
        size_t offset;
        switch (kind) {
        case 1:
            if (ip >= iend) {
                *err_at = iend;
                return KW_SNAPPY_TRUNCATED;
            }
            n = 4 + ((tag >> 2) & 7u);
            offset = (size_t)(tag >> 5) << 8 | *ip++;
            break;
        case 2:
            if (iend - ip < 2) {
                *err_at = iend;
                return KW_SNAPPY_TRUNCATED;
            }
            n = (tag >> 2) + 1;
            offset = (size_t)ip[0] | (size_t)ip[1] << 8;
            ip += 2;
            break;
        default:
            if (iend - ip < 4) {
                *err_at = iend;
                return KW_SNAPPY_TRUNCATED;
            }
            n = (tag >> 2) + 1;
            offset = rd32le(ip);
            ip += 4;
            break;
        }
        if (offset == 0 || offset > (size_t)(op - dst)) {
            *err_at = tag_at;
            return KW_SNAPPY_BAD_OFFSET;
        }
        size_t room = (size_t)(oend - op);
        if (n > room) {
            *err_at = tag_at;
            return KW_SNAPPY_OVERFLOW;
        }
        copy_match(op, offset, n, room);
        op += n;
    }
    if (op != oend) {
        *err_at = iend;
        return KW_SNAPPY_SHORT;
    }
    return KW_SNAPPY_OK;
}

/* Decode the raw block src[0:len] into dst[0:room]; *used: its declared length. */
static int decode_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t room,
                      size_t *used, const uint8_t **err_at)
{
    uint64_t size = 0;
    size_t hdr = 0;
    int rc = block_length(src, len, &size, &hdr);
    if (rc != KW_SNAPPY_OK) {
        *err_at = src;
        return rc;
    }
    if (size > room) { /* the scan summed these lengths: not reached unless input changed */
        *err_at = src;
        return KW_SNAPPY_OVERFLOW;
    }
    *used = (size_t)size;
    return decode_block(src + hdr, len - hdr, dst, (size_t)size, err_at);
}

int kw_snappy_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t total,
                     size_t *err_pos)
{
    const uint8_t *at = src;
    size_t used = 0;
    int rc;

    *err_pos = 0;
    if (!is_xerial(src, len)) {
        rc = decode_raw(src, len, dst, total, &used, &at);
        if (rc == KW_SNAPPY_OK && used != total)
            rc = KW_SNAPPY_SHORT;
        *err_pos = (size_t)(at - src);
        return rc;
    }
    if (len < XERIAL_HEADER) {
        *err_pos = len;
        return KW_SNAPPY_XERIAL_HEADER;
    }
    size_t pos = XERIAL_HEADER;
    size_t out = 0;
    uint32_t n;
    while (xerial_next(src, len, &pos, &n, err_pos, &rc)) {
        rc = decode_raw(src + pos, n, dst + out, total - out, &used, &at);
        if (rc != KW_SNAPPY_OK) {
            *err_pos = (size_t)(at - src);
            return rc;
        }
        out += used;
        pos += n;
    }
    if (rc != KW_SNAPPY_OK)
        return rc;
    if (out != total) {
        *err_pos = len;
        return KW_SNAPPY_SHORT;
    }
    return KW_SNAPPY_OK;
}
