/* Scanning Kafka records into columns.
 *
 * The Cython layer walks batch headers, checks CRCs and decompresses; these
 * functions do the per-record work, which is where the time goes.  They never
 * read outside [data, data + len) and never allocate: the caller's arrays
 * hold its exact record count.
 */
#ifndef KW_RECORD_SCAN_H
#define KW_RECORD_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Positions of keys, values and headers are relative to the start of the
 * batch's record data (batches are below 4 GiB), so they fit in 32 bits. */
typedef struct {
    int64_t *offsets;
    int64_t *timestamps;
    uint32_t *key_pos;
    int32_t *key_len; /* -1: null */
    uint32_t *value_pos;
    int32_t *value_len;
    size_t n;   /* records written so far */
    size_t cap; /* room in the arrays above */

    /* Headers are checked during the scan but not indexed (an index costs 16
     * bytes a header; this costs 4 bytes a record): header_pos[i] is where
     * record i's header count sits, relative to its batch's record data, or 0
     * for a record without headers (0 is never a header count's place: batch
     * data starts with a record length).  Written for every record, like the
     * arrays above; kw_read_headers() parses them on demand. */
    uint32_t *header_pos;
    size_t nh; /* headers seen */
} kw_columns;

enum {
    KW_SCAN_OK = 0,
    KW_SCAN_TRUNCATED = 1,    /* a record runs past the end of the batch data */
    KW_SCAN_BAD_VARINT = 2,   /* a varint longer than its type allows */
    KW_SCAN_BAD_LENGTH = 3,   /* a negative or impossible length */
    KW_SCAN_SIZE_MISMATCH = 4,/* record length disagrees with its fields */
    KW_SCAN_COUNT_MISMATCH = 5,/* batch holds more or fewer records than declared */
    KW_SCAN_OVERFLOW = 7,     /* more records than the caller's arrays hold */
    KW_SCAN_BAD_CRC = 8,
    KW_SCAN_BAD_MAGIC = 9,
    KW_SCAN_NESTED_COMPRESSION = 10,
    KW_SCAN_TOO_MANY_HEADERS = 11
};

/* Record-level facts of one v2 batch. */
typedef struct {
    int64_t base_offset;
    int64_t base_timestamp;
    int64_t log_append_time; /* >= 0 (LogAppendTime batches): every record's timestamp */
    int32_t record_count;
} kw_v2_batch;

/* Scan the records of one v2 batch (data = first record, len = bytes of
 * records).  On failure returns a KW_SCAN_* code and sets *err_pos to the
 * byte (relative to data) where the faulty record starts or the fault is. */
int kw_scan_v2(kw_columns *cols, const uint8_t *data, size_t len, const kw_v2_batch *batch,
               size_t *err_pos, const char **err_field);

/* Scan an uncompressed legacy (magic 0/1) message set: each message becomes
 * a record.  For the inner set of a compressed wrapper, pass the wrapper's
 * facts: absolute offsets for magic 1 are rebuilt from the wrapper offset,
 * and a wrapper with LogAppendTime imposes its timestamp.  Positions are
 * relative to data.  Messages with a nonzero codec inside are refused. */
typedef struct {
    int magic;              /* the wrapper's (or the set's) magic */
    int is_inner;           /* 1 when data is a wrapper's decompressed payload */
    int64_t wrapper_offset; /* inner sets, magic 1: the wrapper's absolute offset */
    int64_t wrapper_timestamp; /* >= 0 with LogAppendTime: imposed on every record */
    int verify_crc;
} kw_legacy_set;

int kw_scan_legacy(kw_columns *cols, const uint8_t *data, size_t len, const kw_legacy_set *set,
                   size_t *err_pos, const char **err_field);

/* Count the messages of an uncompressed legacy set (walking sizes only);
 * -1 if the set is malformed (the scan then reports where). */
int64_t kw_count_legacy(const uint8_t *data, size_t len);

/* CRC-32 (IEEE, as zlib), for legacy messages. */
uint32_t kw_crc32_ieee(uint32_t crc, const void *data, size_t len);

/* Fill Arrow binary-view structs (16 bytes each) for the n values of one
 * batch, whose record data starts at byte data_start of Arrow data buffer
 * buf_index (base points at that start).  Nulls (len < 0) get a zero view;
 * the caller supplies the validity bitmap. */
void kw_fill_binary_views(uint8_t *views, size_t n, const uint32_t *pos, const int32_t *len,
                          const uint8_t *base, int32_t buf_index, int64_t data_start);

/* Parse the headers of a record whose header count sits at data + pos (data:
 * its batch's record data, len bytes).  Writes at most max headers into the
 * arrays (positions relative to data; value length -1 for null) and returns
 * how many the record has; any array may be NULL to only count.  Returns -1
 * for bytes that are not a valid header section. */
int32_t kw_read_headers(const uint8_t *data, size_t len, uint32_t pos, uint32_t *key_pos,
                        int32_t *key_len, uint32_t *value_pos, int32_t *value_len, int32_t max);

#endif
