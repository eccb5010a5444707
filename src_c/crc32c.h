/* CRC-32C (Castagnoli), as Kafka's record batches (magic 2) use it.
 *
 * kw_crc32c() picks the fastest implementation the CPU offers at first use
 * (SSE4.2 on x86-64, the CRC extension on AArch64) and otherwise falls back to
 * a portable slicing-by-8 table.  Both give the same answers; the portable one
 * is exported so that tests can check that.
 */
#ifndef KW_CRC32C_H
#define KW_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* crc is the value returned for the preceding bytes (0 to start). */
uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len);
uint32_t kw_crc32c_portable(uint32_t crc, const void *data, size_t len);
/* "sse4.2", "armv8-crc" or "portable": what kw_crc32c uses on this CPU. */
const char *kw_crc32c_impl(void);

#endif
