/* zstd decoding through libzstd's one-shot decoder, compiled in from the vendored sources
 * (src_c/vendor/zstd: lib/common and lib/decompress, no legacy formats).
 *
 * Called straight from C: no Python call per batch, and the same library in every wheel
 * whatever the system has. Only the one-shot decoder is used, into a buffer sized from the
 * frames' headers: it never allocates a window of its own, whatever a frame declares.
 * Errors are left to kafkawire.compression's careful path (the zstandard package), which
 * reports them.
 */
#ifndef KW_ZSTD_DECODE_H
#define KW_ZSTD_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* ZSTD_versionNumber() of the compiled-in library. */
unsigned kw_zstd_version(void);

/* A decoding context (NULL when out of memory); one thread at a time. */
void *kw_zstd_dctx_new(void);
void kw_zstd_dctx_free(void *dctx);

/* An upper bound of what src decodes to, from its frame headers: the declared content
 * sizes, else the block count times the block maximum. 0 when the frames are corrupt or
 * truncated (or decode to nothing: the careful path handles those too). */
uint64_t kw_zstd_bound(const uint8_t *src, size_t len);

/* 1 if the first frame of src declares its content size, else 0. */
int kw_zstd_declares_size(const uint8_t *src, size_t len);

/* Decode every frame of src into dst[0:cap]. Returns 0 and sets *out_len, or -1 if
 * libzstd reports an error (corrupt data, or more output than cap). */
int kw_zstd_decode(void *dctx, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
                   size_t *out_len);

#endif
