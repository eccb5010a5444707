/* Arrow columns to Avro binary values (kafkawire.registry.encode's compiled path).
 *
 * kafkawire/registry/_avro_encode.pyx compiles an (Avro schema, Arrow array) pair into a flat
 * table of nodes, one per schema node, each pointing at its Arrow array's buffers (validity
 * bitmap, values or int32 offsets, data) and offset; kw_avroe_encode walks it for each row
 * and appends the framing prefix and the Avro encoding to one output buffer.
 */
#ifndef KW_AVRO_ENCODE_H
#define KW_AVRO_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "arrow_columns.h"

enum kw_avroe_op {
    KWE_NULL = 0,     /* Avro null: writes nothing */
    KWE_BOOL = 1,     /* values: bitmap */
    KWE_INT = 2,      /* values: `width`-byte ints (signed, or unsigned with KWE_UNSIGNED) */
    KWE_LONG = 3,     /* as KWE_INT, no range check */
    KWE_FLOAT = 4,    /* values: float32 (width 4) or float64 (width 8, cast) */
    KWE_DOUBLE = 5,   /* values: float32 or float64 */
    KWE_BYTES = 6,    /* values: int32 offsets, data: bytes (string, binary) */
    KWE_FIXED = 7,    /* values: `width` bytes a row */
    KWE_ENUM = 8,     /* a string column: the symbol's index (symbols sym0 .. sym0 + nchildren) */
    KWE_RECORD = 9,   /* struct: kids[child0 .. child0 + nchildren] in the schema's order */
    KWE_ARRAY = 10,   /* list: values int32 offsets; kids[child0]: the items */
    KWE_MAP = 11,     /* map: values int32 offsets; kids[child0], kids[child0 + 1]: keys, items */
    KWE_TS_MILLIS = 12, /* int64 microseconds written as milliseconds (floor) */
    KWE_DECIMAL = 13, /* decimal128 (16 bytes, little-endian) as minimal big-endian bytes */
    KWE_CONST = 14,   /* writes `width` bytes at `data` (a field's default) */
};

enum kw_avroe_flag {
    KWE_NULLABLE = 1, /* a union of null and this: null_branch / value_branch precede */
    KWE_UNSIGNED = 2,
};

enum kw_avroe_err {
    KWE_ERR_NOMEM = 1,      /* out of memory, or the output past 2 GiB */
    KWE_ERR_NULL = 2,       /* a null where the schema has no null branch */
    KWE_ERR_INT_RANGE = 3,  /* an int64 outside 32 bits for an Avro int */
    KWE_ERR_SYMBOL = 4,     /* a string that is not one of the enum's symbols */
};

typedef struct {
    int32_t op, flags;
    int32_t null_branch, value_branch; /* zigzag-encoded union branch indexes (one byte) */
    int32_t width, child0;
    int32_t nchildren, sym0;
    int64_t offset;                    /* the Arrow array's offset */
    uint64_t validity, values, data;   /* buffer addresses (validity 0: no nulls) */
} kw_avroe_node;

typedef struct {
    const kw_avroe_node *nodes;
    const int32_t *kids;
    const uint8_t *symbols;
    const int32_t *sym_offsets;
    int32_t root;
} kw_avroe_program;

typedef struct {
    int code;
    int32_t node;
    int64_t row;
} kw_avroe_error;

/* the output: arrow_columns.h's growable buffer */
typedef kw_buf kw_avroe_buf;

/* Rows [0, nrows): a row whose bit in row_validity (at row_offset) is 0 is null (its offset
 * repeats); the others are prefix + the encoding of the root node at that row. offsets gets
 * nrows + 1 entries, validity ceil(nrows / 8) bytes. Returns the null count, or -1 (err set;
 * out keeps what was written). */
int64_t kw_avroe_encode(const kw_avroe_program *prog, const uint8_t *row_validity,
                        int64_t row_offset, int64_t nrows, const uint8_t *prefix,
                        size_t prefix_len, kw_avroe_buf *out, int32_t *offsets,
                        uint8_t *validity, kw_avroe_error *err);

#endif
