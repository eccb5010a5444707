/* CRC-32C (Castagnoli), as Kafka's record batches (magic 2) use it.
 *
 * kw_crc32c() picks the fastest implementation the CPU offers at first use:
 * carry-less multiply folding (x86-64 with AVX-512 VPCLMULQDQ), else the CRC32
 * instruction (SSE4.2 on x86-64, the CRC extension on AArch64), else a
 * portable slicing-by-8 table.  All give the same answers; kw_crc32c_using()
 * runs a given one so that tests can check that.
 */
#ifndef KW_CRC32C_H
#define KW_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* crc is the value returned for the preceding bytes (0 to start). */
uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len);

enum { KW_CRC_PORTABLE = 1, KW_CRC_INSTRUCTION = 2, KW_CRC_FOLD = 3 };

/* The KW_CRC_* that kw_crc32c uses on this CPU. */
int kw_crc32c_impl(void);
/* "portable", "sse4.2" / "armv8-crc", "avx512-vpclmulqdq"; NULL past the last. */
const char *kw_crc32c_name(int impl);
/* CRC by implementation impl into *out; -1 if this CPU does not have it. */
int kw_crc32c_using(int impl, uint32_t crc, const void *data, size_t len, uint32_t *out);

#endif
