/* See zstd_decode.h. */
#include "zstd_decode.h"

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_decompressBound */
#include "vendor/zstd/zstd.h"

unsigned kw_zstd_version(void) { return ZSTD_versionNumber(); }

void *kw_zstd_dctx_new(void) { return ZSTD_createDCtx(); }

void kw_zstd_dctx_free(void *dctx) { ZSTD_freeDCtx((ZSTD_DCtx *)dctx); }

uint64_t kw_zstd_bound(const uint8_t *src, size_t len) {
    if (len == 0)
        return 0;
    unsigned long long bound = ZSTD_decompressBound(src, len);
    return bound == ZSTD_CONTENTSIZE_ERROR ? 0 : (uint64_t)bound;
}

int kw_zstd_declares_size(const uint8_t *src, size_t len) {
    unsigned long long size = ZSTD_getFrameContentSize(src, len);
    return size != ZSTD_CONTENTSIZE_UNKNOWN && size != ZSTD_CONTENTSIZE_ERROR;
}

int kw_zstd_decode(void *dctx, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
                   size_t *out_len) {
    size_t n = ZSTD_decompressDCtx((ZSTD_DCtx *)dctx, dst, cap, src, len);
    if (ZSTD_isError(n))
        return -1;
    *out_len = n;
    return 0;
}
