/* Snappy decoding (raw blocks, and the xerial framing Kafka's Java client writes) into a
 * caller-owned buffer of the exact output size.
 *
 * kw_snappy_scan reads the declared lengths (one varint per raw block) and returns their
 * sum, checking it against max_size before anything is allocated; kw_snappy_decode then
 * fills a buffer of exactly that size, requiring every block to decode to its declared
 * length.
 */
#ifndef KW_SNAPPY_DECODE_H
#define KW_SNAPPY_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum kw_snappy_status {
    KW_SNAPPY_OK = 0,
    KW_SNAPPY_TRUNCATED,      /* the input ends inside an element or a length */
    KW_SNAPPY_BAD_LENGTH,     /* the length varint is over 5 bytes or over 32 bits */
    KW_SNAPPY_IMPOSSIBLE,     /* more output declared than the block's bytes can encode */
    KW_SNAPPY_BAD_OFFSET,     /* a copy offset of 0 or before the block's output start */
    KW_SNAPPY_OVERFLOW,       /* the elements decode to more than the declared length */
    KW_SNAPPY_SHORT,          /* the elements decode to less than the declared length */
    KW_SNAPPY_LIMIT,          /* the declared lengths exceed max_size */
    KW_SNAPPY_XERIAL_HEADER,  /* xerial magic followed by less than its 16-byte header */
    KW_SNAPPY_XERIAL_BLOCK,   /* an xerial block length that is negative or truncated */
};

/* The xerial stream magic (8 bytes). */
extern const uint8_t kw_snappy_xerial_magic[8];

/* Sum of the declared lengths into *total; on error *err_pos is an input offset. */
int kw_snappy_scan(const uint8_t *src, size_t len, uint64_t max_size, uint64_t *total,
                   size_t *err_pos);

/* Decode into dst[0:total], total from kw_snappy_scan. */
int kw_snappy_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t total,
                     size_t *err_pos);

#endif
