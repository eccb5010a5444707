/* LZ4 frame decoding into a caller-owned, bounded buffer (the blocks by liblz4).
 *
 * kw_lz4_scan walks the frame and block headers of a payload (one or more frames, skippable
 * frames allowed; cheap: it jumps from block to block) and returns an upper bound of the
 * output. kw_lz4_decode fills a buffer of min(bound, max_size) bytes, or of a guessed size
 * (it then reports when the output does not fit, and checks all the scan does). Nothing is
 * ever written past the buffer.
 */
#ifndef KW_LZ4_DECODE_H
#define KW_LZ4_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum kw_lz4_status {
    KW_LZ4_OK = 0,
    KW_LZ4_TRUNCATED,           /* the input ends inside a frame */
    KW_LZ4_BAD_MAGIC,           /* no frame magic where a frame must start */
    KW_LZ4_BAD_DESCRIPTOR,      /* version, reserved bits or block max size */
    KW_LZ4_BAD_HEADER_CHECKSUM,
    KW_LZ4_BLOCK_TOO_BIG,       /* a block's size field exceeds the frame's block max */
    KW_LZ4_BAD_BLOCK,           /* compressed block data that cannot be decoded */
    KW_LZ4_BAD_OFFSET,          /* a match that starts before the available history */
    KW_LZ4_BLOCK_OVERFLOW,      /* a block decoding to more than the block max */
    KW_LZ4_LIMIT,               /* the output would exceed max_size */
    KW_LZ4_BAD_BLOCK_CHECKSUM,
    KW_LZ4_BAD_CONTENT_CHECKSUM,
    KW_LZ4_BAD_CONTENT_SIZE,    /* output length differs from the declared content size */
    KW_LZ4_TRAILING,            /* bytes after a frame that do not start another frame */
    KW_LZ4_NO_FRAME,            /* only skippable frames */
    KW_LZ4_DECLARED_LIMIT,      /* a frame declares more content than max_size */
    KW_LZ4_NEED_ROOM,           /* the output does not fit in a buffer of guessed size */
    KW_LZ4_BAD_END,             /* sound sequences whose end breaks the format's rules */
    KW_LZ4_NO_MEMORY,
};

/* What the end of the output buffer handed to kw_lz4_decode is. */
enum kw_lz4_end {
    KW_LZ4_END_BOUND = 0, /* the scan's bound: the output cannot pass it */
    KW_LZ4_END_LIMIT,     /* max_size: passing it is KW_LZ4_LIMIT */
    KW_LZ4_END_GUESS,     /* a guess below both: passing it is KW_LZ4_NEED_ROOM */
};

typedef struct {
    uint64_t bound;    /* upper bound of the whole output (saturates at UINT64_MAX) */
    uint64_t declared; /* the offending declared content size (KW_LZ4_DECLARED_LIMIT) */
    size_t err_pos;    /* byte offset in the input where an error was found */
} kw_lz4_scan_t;

/* Check the structure of the payload; magic is the Kafka message format (0 ignores the
 * header checksum: Kafka < 0.10 computed it over the magic number too). */
int kw_lz4_scan(const uint8_t *src, size_t len, int magic, uint64_t max_size,
                kw_lz4_scan_t *info);

/* Decode a payload into dst[0:cap]; end says what cap is. It checks all kw_lz4_scan does,
 * so that a buffer of guessed size can be tried without a scan; after KW_LZ4_NEED_ROOM the
 * caller scans and decodes again into a buffer of the bound (or max_size). */
int kw_lz4_decode(const uint8_t *src, size_t len, int magic, uint64_t max_size, uint8_t *dst,
                  size_t cap, int end, size_t *out_len, size_t *err_pos);

#endif
