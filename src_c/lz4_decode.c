/* LZ4 frame format decoding around liblz4's block decoder (src_c/vendor/lz4).
 *
 * The frame walk is kafkawire's: frame and block headers (with the header checksum Kafka
 * before 0.10 computed wrongly), block and content checksums, the declared content size,
 * skippable frames, the caps, and a byte offset for every error. Each compressed block goes
 * to LZ4_decompress_safe_usingDict, which never writes past the window it is given.
 */
#include "lz4_decode.h"

#include <stdlib.h>
#include <string.h>

#include "vendor/lz4/lz4.h"
#include "vendor/lz4/xxhash.h"

#define LZ4_FRAME_MAGIC 0x184D2204u
#define SKIPPABLE_MASK 0xFFFFFFF0u
#define SKIPPABLE_MAGIC 0x184D2A50u
#define MIN_MATCH 4
/* One input byte of a compressed block yields at most 255 output bytes (a length extension
 * byte); literals, tokens and offsets yield less. */
#define MAX_RATIO 255u

static inline uint32_t rd32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64le(const uint8_t *p)
{
    return (uint64_t)rd32le(p) | (uint64_t)rd32le(p + 4) << 32;
}

/* --- frame headers ---------------------------------------------------------------------- */

typedef struct {
    size_t header_len; /* magic to header checksum, inclusive */
    size_t block_max;
    uint64_t content_size;
    int has_content_size;
    int block_checksum;
    int content_checksum;
    int independent;
} frame_header;

/* p: a frame start whose magic was checked; avail: input bytes from p on. */
static int parse_header(const uint8_t *p, size_t avail, int magic, frame_header *h,
                        size_t *err_off)
{
    if (avail < 7) {
        *err_off = avail;
        return KW_LZ4_TRUNCATED;
    }
    unsigned flg = p[4], bd = p[5];
    /* version 01, reserved bits zero, block max id 4..7 (64 KiB .. 4 MiB) */
    if ((flg & 0xC2u) != 0x40u || (bd & 0x8Fu) != 0 || (bd >> 4) < 4) {
        *err_off = 4;
        return KW_LZ4_BAD_DESCRIPTOR;
    }
    size_t n = 6;
    if (flg & 0x08u)
        n += 8; /* content size */
    if (flg & 0x01u)
        n += 4; /* dictionary id: no dictionary is known, so matches into it fail */
    if (avail < n + 1) {
        *err_off = avail;
        return KW_LZ4_TRUNCATED;
    }
    if (magic != 0 && p[n] != ((XXH32(p + 4, n - 4, 0) >> 8) & 0xFFu)) {
        *err_off = n;
        return KW_LZ4_BAD_HEADER_CHECKSUM;
    }
    h->header_len = n + 1;
    h->block_max = (size_t)1 << (8 + 2 * (bd >> 4));
    h->has_content_size = (flg & 0x08u) != 0;
    h->content_size = h->has_content_size ? rd64le(p + 6) : 0;
    h->block_checksum = (flg & 0x10u) != 0;
    h->content_checksum = (flg & 0x04u) != 0;
    h->independent = (flg & 0x20u) != 0;
    return KW_LZ4_OK;
}

/* What starts at src[pos]: 1 = lz4 frame, 2 = skippable frame, else an error code for a
 * payload with (frames > 0) or without a frame before pos. */
static int frame_kind(const uint8_t *src, size_t len, size_t pos, size_t frames)
{
    size_t left = len - pos;
    if (left < 4) {
        static const uint8_t prefix[4] = {0x04, 0x22, 0x4D, 0x18};
        if (frames)
            return -KW_LZ4_TRAILING;
        return memcmp(src + pos, prefix, left) == 0 ? -KW_LZ4_TRUNCATED : -KW_LZ4_BAD_MAGIC;
    }
    uint32_t m = rd32le(src + pos);
    if (m == LZ4_FRAME_MAGIC)
        return 1;
    if ((m & SKIPPABLE_MASK) == SKIPPABLE_MAGIC)
        return 2;
    return frames ? -KW_LZ4_TRAILING : -KW_LZ4_BAD_MAGIC;
}

/* Skip a skippable frame at src[*pos]. */
static int skip_frame(const uint8_t *src, size_t len, size_t *pos)
{
    size_t left = len - *pos;
    if (left < 8)
        return KW_LZ4_TRUNCATED;
    uint32_t size = rd32le(src + *pos + 4);
    if (size > left - 8)
        return KW_LZ4_TRUNCATED;
    *pos += 8 + (size_t)size;
    return KW_LZ4_OK;
}

int kw_lz4_scan(const uint8_t *src, size_t len, int magic, uint64_t max_size,
                kw_lz4_scan_t *info)
{
    size_t pos = 0;
    size_t frames = 0;
    uint64_t bound = 0;

    info->bound = 0;
    info->declared = 0;
    info->err_pos = 0;
    if (len == 0)
        return KW_LZ4_TRUNCATED;
    while (pos < len) {
        int kind = frame_kind(src, len, pos, frames);
        if (kind < 0) {
            info->err_pos = pos;
            return -kind;
        }
        if (kind == 2) {
            int rc = skip_frame(src, len, &pos);
            if (rc != KW_LZ4_OK) {
                info->err_pos = len;
                return rc;
            }
            continue;
        }
        frame_header h;
        size_t off;
        int rc = parse_header(src + pos, len - pos, magic, &h, &off);
        if (rc != KW_LZ4_OK) {
            info->err_pos = pos + off;
            return rc;
        }
        if (h.has_content_size && h.content_size > max_size) {
            info->err_pos = pos + 6;
            info->declared = h.content_size;
            return KW_LZ4_DECLARED_LIMIT;
        }
        pos += h.header_len;
        size_t check = h.block_checksum ? 4 : 0;
        for (;;) {
            if (len - pos < 4) {
                info->err_pos = len;
                return KW_LZ4_TRUNCATED;
            }
            uint32_t word = rd32le(src + pos);
            if (word == 0) {
                pos += 4;
                break;
            }
            size_t size = word & 0x7FFFFFFFu;
            if (size > h.block_max) {
                info->err_pos = pos;
                return KW_LZ4_BLOCK_TOO_BIG;
            }
            pos += 4;
            if (size + check > len - pos) {
                info->err_pos = len;
                return KW_LZ4_TRUNCATED;
            }
            pos += size + check;
            if (word & 0x80000000u) {
                bound += size; /* stored block */
            } else {
                uint64_t most = (uint64_t)size * MAX_RATIO;
                bound += most < h.block_max ? most : h.block_max;
            }
        }
        if (h.content_checksum) {
            if (len - pos < 4) {
                info->err_pos = len;
                return KW_LZ4_TRUNCATED;
            }
            pos += 4;
        }
        frames++;
    }
    if (!frames) {
        info->err_pos = 0;
        return KW_LZ4_NO_FRAME;
    }
    info->bound = bound;
    return KW_LZ4_OK;
}

/* --- blocks ----------------------------------------------------------------------------- */

/* A literal or match length of 15 goes on in bytes added to it until one is
 * not 255.  Returns 0 if the input ends first (*ip left at the end). */
static inline int add_length_bytes(const uint8_t **ip, const uint8_t *iend, size_t *len)
{
    unsigned b;
    do {
        if (*ip >= iend)
            return 0;
        b = *(*ip)++;
        *len += b;
    } while (b == 255);
    return 1;
}

/* Why liblz4 refused a block: its first fault, found by walking the sequences' lengths and
 * offsets without decoding. Matches may reach history bytes before op; room is what the
 * output window holds, over the status for output past it. KW_LZ4_OK: the sequences are
 * sound and *out_size is what they decode to. */
static int block_fault(const uint8_t *src, size_t n, size_t history, size_t room, int over,
                       size_t *out_size, const uint8_t **err_at)
{
    const uint8_t *ip = src;
    const uint8_t *const iend = src + n;
    size_t out = 0;

    for (;;) {
        if (ip >= iend) {
            *err_at = ip; /* a block ends with literals, never after a match */
            return KW_LZ4_TRUNCATED;
        }
        unsigned token = *ip++;
        size_t lit = token >> 4;
        if (lit == 15 && !add_length_bytes(&ip, iend, &lit)) {
            *err_at = ip;
            return KW_LZ4_TRUNCATED;
        }
        if (lit > (size_t)(iend - ip)) {
            *err_at = iend;
            return KW_LZ4_TRUNCATED;
        }
        if (lit > room - out) {
            *err_at = ip;
            return over;
        }
        ip += lit;
        out += lit;
        if (ip == iend)
            break;
        if (iend - ip < 2) {
            *err_at = iend;
            return KW_LZ4_TRUNCATED;
        }
        /* offset 0 is invalid in the format's spec, but liblz4 1.9.4 takes it (it copies
         * bytes it has just zeroed): so does this walk, or a block's fate would depend on
         * the buffer */
        size_t offset = (size_t)ip[0] | (size_t)ip[1] << 8;
        if (offset > history + out) {
            *err_at = ip;
            return KW_LZ4_BAD_OFFSET;
        }
        ip += 2;
        size_t ml = token & 15u;
        if (ml == 15 && !add_length_bytes(&ip, iend, &ml)) {
            *err_at = ip;
            return KW_LZ4_TRUNCATED;
        }
        ml += MIN_MATCH;
        if (ml > room - out) {
            *err_at = ip;
            return over;
        }
        out += ml;
    }
    *out_size = out;
    return KW_LZ4_OK;
}

/* Decode one compressed block src[0:n] with liblz4 to op, writing nothing at or past oend;
 * matches may reach back to lowest. over is the status for output that does not fit before
 * oend; on an error *err_at is where in src. */
static int decode_block(const uint8_t *src, size_t n, uint8_t *op, uint8_t *const oend,
                        const uint8_t *const lowest, size_t block_max, int over,
                        uint8_t **op_out, const uint8_t **err_at)
{
    size_t room = (size_t)(oend - op);
    size_t history = (size_t)(op - lowest);
    /* liblz4 reads at most 64 KiB back: a longer history is the same to it */
    int dict = history > 65536 ? 65536 : (int)history;
    int got = LZ4_decompress_safe_usingDict((const char *)src, (char *)op, (int)n, (int)room,
                                            (const char *)op - dict, dict);
    if (got >= 0) {
        *op_out = op + got;
        return KW_LZ4_OK;
    }
    size_t size = 0;
    int rc = block_fault(src, n, history, room, over, &size, err_at);
    if (rc != KW_LZ4_OK)
        return rc;
    *err_at = src + (size_t)(-got - 1);
    if (room >= block_max)
        return KW_LZ4_BAD_END;
    /* Sound sequences that fit, refused because liblz4's end-of-block rules are checked
     * against the end of the window: decode as into a window of the block maximum (as
     * LZ4F_decompress would), so that a block's fate never depends on the buffer size. */
    uint8_t *wide = malloc(block_max);
    if (!wide)
        return KW_LZ4_NO_MEMORY;
    got = LZ4_decompress_safe_usingDict((const char *)src, (char *)wide, (int)n, (int)block_max,
                                        (const char *)op - dict, dict);
    if (got >= 0 && (size_t)got == size)
        memcpy(op, wide, size);
    free(wide);
    if (got < 0 || (size_t)got != size)
        return KW_LZ4_BAD_END;
    *op_out = op + size;
    return KW_LZ4_OK;
}

int kw_lz4_decode(const uint8_t *src, size_t len, int magic, uint64_t max_size, uint8_t *dst,
                  size_t cap, int end, size_t *out_len, size_t *err_pos)
{
    /* status when the output reaches the end of the buffer */
    const int full = end == KW_LZ4_END_LIMIT   ? KW_LZ4_LIMIT
                     : end == KW_LZ4_END_GUESS ? KW_LZ4_NEED_ROOM
                                               : KW_LZ4_BAD_BLOCK;
    size_t pos = 0;
    size_t frames = 0;
    uint8_t *op = dst;
    uint8_t *const dend = dst + cap;

    *out_len = 0;
    *err_pos = 0;
    while (pos < len) {
        int kind = frame_kind(src, len, pos, frames);
        if (kind < 0) {
            *err_pos = pos;
            return -kind;
        }
        if (kind == 2) {
            int rc = skip_frame(src, len, &pos);
            if (rc != KW_LZ4_OK) {
                *err_pos = len;
                return rc;
            }
            continue;
        }
        frame_header h;
        size_t off;
        int rc = parse_header(src + pos, len - pos, magic, &h, &off);
        if (rc != KW_LZ4_OK) {
            *err_pos = pos + off;
            return rc;
        }
        if (h.has_content_size && h.content_size > max_size) {
            *err_pos = pos + 6; /* where the content size is */
            return KW_LZ4_DECLARED_LIMIT;
        }
        pos += h.header_len;
        uint8_t *const frame_start = op;
        size_t check = h.block_checksum ? 4 : 0;
        for (;;) {
            if (len - pos < 4) {
                *err_pos = len;
                return KW_LZ4_TRUNCATED;
            }
            uint32_t word = rd32le(src + pos);
            if (word == 0) {
                pos += 4;
                break;
            }
            size_t size = word & 0x7FFFFFFFu;
            if (size > h.block_max) {
                *err_pos = pos;
                return KW_LZ4_BLOCK_TOO_BIG;
            }
            pos += 4;
            if (size + check > len - pos) {
                *err_pos = len;
                return KW_LZ4_TRUNCATED;
            }
            const uint8_t *data = src + pos;
            if (check && XXH32(data, size, 0) != rd32le(data + size)) {
                *err_pos = pos + size;
                return KW_LZ4_BAD_BLOCK_CHECKSUM;
            }
            size_t room = (size_t)(dend - op);
            if (word & 0x80000000u) {
                if (size > room) {
                    *err_pos = pos;
                    return full;
                }
                memcpy(op, data, size);
                op += size;
            } else {
                /* The window ends at the block max, or earlier at the end of the buffer;
                 * a block cannot exceed the scan's bound unless it exceeds the block max
                 * too. */
                uint8_t *wend = room > h.block_max ? op + h.block_max : dend;
                int over = room > h.block_max || end == KW_LZ4_END_BOUND
                               ? KW_LZ4_BLOCK_OVERFLOW
                               : full;
                const uint8_t *lowest = h.independent ? op : frame_start;
                const uint8_t *at = data;
                rc = decode_block(data, size, op, wend, lowest, h.block_max, over, &op, &at);
                if (rc != KW_LZ4_OK) {
                    *err_pos = (size_t)(at - src);
                    return rc;
                }
            }
            pos += size + check;
        }
        size_t produced = (size_t)(op - frame_start);
        if (h.content_checksum) {
            if (len - pos < 4) {
                *err_pos = len;
                return KW_LZ4_TRUNCATED;
            }
            if (XXH32(frame_start, produced, 0) != rd32le(src + pos)) {
                *err_pos = pos;
                return KW_LZ4_BAD_CONTENT_CHECKSUM;
            }
            pos += 4;
        }
        if (h.has_content_size && h.content_size != produced) {
            *err_pos = pos;
            return KW_LZ4_BAD_CONTENT_SIZE;
        }
        frames++;
    }
    if (!frames) {
        *err_pos = 0;
        return len ? KW_LZ4_NO_FRAME : KW_LZ4_TRUNCATED;
    }
    *out_len = (size_t)(op - dst);
    return KW_LZ4_OK;
}
