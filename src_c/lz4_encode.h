/* LZ4 frames as Kafka's Java client writes them (KafkaLZ4BlockOutputStream): 64 KiB
 * independent blocks, no content size, no block or content checksums; each block by
 * liblz4, stored as it is when it does not shrink. The output equals the lz4 package's
 * lz4.frame.compress with those settings, byte for byte.
 */
#ifndef KW_LZ4_ENCODE_H
#define KW_LZ4_ENCODE_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes kw_lz4_frame_compress writes for n bytes of input. */
size_t kw_lz4_frame_bound(size_t n);

/* Compress src[0:n] into dst (kw_lz4_frame_bound(n) bytes of room) as one frame; returns
 * the frame's length. magic 0 writes the header checksum Kafka < 0.10 expects (over the
 * frame magic too: KAFKA-3160). acceleration >= 1 (liblz4's; 1 is lz4.frame's default). */
size_t kw_lz4_frame_compress(const uint8_t *src, size_t n, uint8_t *dst, int magic,
                             int acceleration);

#endif
