/* zstd decoding through the system's libzstd, loaded at run time with dlopen.
 *
 * The zstandard package (kafkawire's dependency for zstd) carries its own copy of libzstd
 * behind a Python-level call per payload, and that copy's Huffman decoder runs its portable
 * C loop. The system's shared library, where there is one, is called straight from C
 * instead: no Python call per batch, and this machine's build decoded Kafka's 16 KiB
 * payloads about 8% faster. Nothing is linked at build time: without the library (or with
 * KAFKAWIRE_SYSTEM_ZSTD=0 in the environment) every payload goes through zstandard.
 *
 * Only the one-shot decoder is used, into a buffer sized from the frames' headers: it never
 * allocates a window of its own, whatever a frame declares.
 */
#ifndef KW_ZSTD_SYSTEM_H
#define KW_ZSTD_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

/* Load the library once: 1 if its decoder can be used, else 0. */
int kw_zstd_load(void);

/* ZSTD_versionNumber() of the loaded library, 0 if none. */
unsigned kw_zstd_version(void);

/* A decoding context (NULL when out of memory or not loaded); one thread at a time. */
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
