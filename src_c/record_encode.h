/* Writing Kafka records (magic 2): the per-record loop of build_batches.
 *
 * The Cython layer (kafkawire/_builder.pyx) owns the batches, the columns and
 * every unusual case; kw_encode_rows() writes the ordinary rows, those whose
 * columns are Arrow binary/string (int32 offsets) inside the loaded chunks, and
 * stops at the first row it does not handle, which the caller then writes
 * (or rejects) the slow way.  Rows it writes are byte-identical to
 * BatchBuilder.append.
 */
#ifndef KW_RECORD_ENCODE_H
#define KW_RECORD_ENCODE_H

#include <stddef.h>
#include <stdint.h>

/* Rows [start, end) of a column whose bytes are Arrow binary: row i (start <=
 * i < end) is data[offs[i - start], offs[i - start + 1]) unless its validity bit
 * (bit_off + i - start of valid) is 0. */
typedef struct {
    const uint8_t *valid; /* NULL: no nulls */
    int64_t bit_off;
    const int32_t *offs;
    const uint8_t *data;
    int64_t start;
    int64_t end;
} kw_bin_col;

/* Header lists: list<struct<key: string, value: binary>>, int32 list offsets
 * into the flattened key and value columns. */
typedef struct {
    const uint8_t *valid; /* NULL: no null lists */
    int64_t bit_off;
    const int32_t *offs;
    int64_t start;
    int64_t end;
    kw_bin_col keys; /* header keys may not be null: such a row stops the loop */
    kw_bin_col vals;
} kw_hdr_col;

/* The batch being written: records go to buf + len; cap is the room in buf.  Bytes
 * between the end of the records and cap may be overwritten (short strings are copied
 * 16 or 32 bytes at a time when that room is there). */
typedef struct {
    uint8_t *buf;
    size_t len;
    size_t cap;
    int64_t max_bytes;
    int32_t count;
    int64_t first_ts;
    int64_t max_ts;
    int full; /* set on return: the row returned does not fit max_bytes after the others */
} kw_batch;

/* Write rows i, i + 1, ... (before n) into b while each one is ordinary: the
 * record fits max_bytes (the first of a batch: INT32_MAX) and cap, and every
 * column has the row loaded.  keys/hdrs NULL: null keys, no headers; ts NULL: every
 * timestamp is now.  rows non-NULL: i and n count positions in rows, an ascending
 * gather (position i writes row rows[i]; ts is indexed by row).  Returns the first
 * position not written; b->full tells whether it stopped because that row opens the
 * next batch.  Touches no Python object: callable without the GIL. */
int64_t kw_encode_rows(kw_batch *b, const kw_bin_col *vals, const kw_bin_col *keys,
                       const int64_t *ts, int64_t now, const kw_hdr_col *hdrs,
                       const int64_t *rows, int64_t i, int64_t n);

#endif
