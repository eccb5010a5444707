/* LZ4 frame encoding (see lz4_encode.h); the blocks are liblz4's. */
#define LZ4_STATIC_LINKING_ONLY
#include "lz4_encode.h"

#include <string.h>

#include "vendor/lz4/lz4.h"
#include "vendor/lz4/xxhash.h"

#define FRAME_MAGIC 0x184D2204u
#define BLOCK_MAX ((size_t)64 * 1024)
#define HEADER_LEN 7 /* magic, FLG, BD, header checksum */
#define BLOCK_STORED 0x80000000u /* block size flag: the block's bytes as they are */

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

size_t kw_lz4_frame_bound(size_t n)
{
    size_t blocks = n / BLOCK_MAX + (n % BLOCK_MAX != 0);
    return HEADER_LEN + n + 4 * blocks + 4; /* stored blocks at worst, and the end mark */
}

size_t kw_lz4_frame_compress(const uint8_t *src, size_t n, uint8_t *dst, int magic,
                             int acceleration)
{
    LZ4_stream_t state;
    uint8_t *p = dst;
    put_le32(p, FRAME_MAGIC);
    p[4] = 0x60; /* FLG: version 01, independent blocks, no checksums, no content size */
    p[5] = 0x40; /* BD: 64 KiB blocks */
    p[6] = magic == 0 ? (uint8_t)(XXH32(p, 6, 0) >> 8) : (uint8_t)(XXH32(p + 4, 2, 0) >> 8);
    p += HEADER_LEN;
    LZ4_initStream(&state, sizeof state);
    for (size_t at = 0; at < n; at += BLOCK_MAX) {
        int len = (int)(n - at < BLOCK_MAX ? n - at : BLOCK_MAX);
        /* a block that does not shrink is stored: room for one byte less than it */
        int packed = LZ4_compress_fast_extState_fastReset(
            &state, (const char *)src + at, (char *)p + 4, len, len - 1, acceleration);
        if (packed > 0) {
            put_le32(p, (uint32_t)packed);
            p += 4 + packed;
        } else {
            put_le32(p, (uint32_t)len | BLOCK_STORED);
            memcpy(p + 4, src + at, (size_t)len);
            p += 4 + len;
        }
    }
    put_le32(p, 0); /* end mark */
    return (size_t)(p + 4 - dst);
}
