/* See zstd_system.h. The prototypes below are libzstd's stable API (zstd.h), restated so
 * that no header is needed at build time. */
#include "zstd_system.h"

#include <stdlib.h>
#include <string.h>

#ifndef _WIN32
#include <dlfcn.h>
#endif

typedef void *(*create_dctx_fn)(void);
typedef size_t (*free_dctx_fn)(void *dctx);
typedef size_t (*decompress_dctx_fn)(void *dctx, void *dst, size_t cap, const void *src,
                                     size_t len);
typedef unsigned long long (*decompress_bound_fn)(const void *src, size_t len);
typedef unsigned long long (*content_size_fn)(const void *src, size_t len);
typedef unsigned (*is_error_fn)(size_t code);
typedef unsigned (*version_fn)(void);

/* ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR */
#define CONTENTSIZE_UNKNOWN (0ULL - 1)
#define CONTENTSIZE_ERROR (0ULL - 2)

static struct {
    int state; /* 0 not tried yet, 1 usable, -1 not available */
    unsigned version;
    create_dctx_fn create_dctx;
    free_dctx_fn free_dctx;
    decompress_dctx_fn decompress_dctx;
    decompress_bound_fn decompress_bound;
    content_size_fn content_size;
    is_error_fn is_error;
} api;

#ifndef _WIN32
static int resolve(void *lib) {
    version_fn version = (version_fn)dlsym(lib, "ZSTD_versionNumber");
    api.create_dctx = (create_dctx_fn)dlsym(lib, "ZSTD_createDCtx");
    api.free_dctx = (free_dctx_fn)dlsym(lib, "ZSTD_freeDCtx");
    api.decompress_dctx = (decompress_dctx_fn)dlsym(lib, "ZSTD_decompressDCtx");
    api.decompress_bound = (decompress_bound_fn)dlsym(lib, "ZSTD_decompressBound");
    api.content_size = (content_size_fn)dlsym(lib, "ZSTD_getFrameContentSize");
    api.is_error = (is_error_fn)dlsym(lib, "ZSTD_isError");
    if (!version || !api.create_dctx || !api.free_dctx || !api.decompress_dctx ||
        !api.decompress_bound || !api.content_size || !api.is_error)
        return 0;
    api.version = version();
    return api.version >= 10500; /* the 1.5 series is the one kafkawire is tested with */
}
#endif

int kw_zstd_load(void) {
    if (api.state != 0)
        return api.state > 0;
    api.state = -1;
#ifndef _WIN32
    const char *setting = getenv("KAFKAWIRE_SYSTEM_ZSTD");
    if (setting && strcmp(setting, "0") == 0)
        return 0;
    static const char *const names[] = {"libzstd.so.1", "libzstd.1.dylib", "libzstd.so",
                                        "libzstd.dylib"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* RTLD_LOCAL: its symbols stay out of the way of other copies of zstd (the
         * zstandard package, pyarrow) loaded in the same process */
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            continue;
        if (resolve(lib)) {
            api.state = 1;
            return 1;
        }
        dlclose(lib);
    }
    memset(&api, 0, sizeof api);
    api.state = -1;
#endif
    return 0;
}

unsigned kw_zstd_version(void) { return api.state > 0 ? api.version : 0; }

void *kw_zstd_dctx_new(void) { return api.state > 0 ? api.create_dctx() : NULL; }

void kw_zstd_dctx_free(void *dctx) {
    if (dctx && api.state > 0)
        api.free_dctx(dctx);
}

uint64_t kw_zstd_bound(const uint8_t *src, size_t len) {
    if (api.state <= 0 || len == 0)
        return 0;
    unsigned long long bound = api.decompress_bound(src, len);
    return bound == CONTENTSIZE_ERROR ? 0 : (uint64_t)bound;
}

int kw_zstd_declares_size(const uint8_t *src, size_t len) {
    if (api.state <= 0)
        return 0;
    unsigned long long size = api.content_size(src, len);
    return size != CONTENTSIZE_UNKNOWN && size != CONTENTSIZE_ERROR;
}

int kw_zstd_decode(void *dctx, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
                   size_t *out_len) {
    size_t n = api.decompress_dctx(dctx, dst, cap, src, len);
    if (api.is_error(n))
        return -1;
    *out_len = n;
    return 0;
}
