/* Avro binary payloads to Arrow columns: an interpreter of programs that
 * kafkawire/registry/avro.py compiles from a writer schema resolved against a reader schema.
 *
 * A program is a flat array of nodes; composite nodes name their children by index into
 * `kids`. Each node decodes one writer value and appends it to column `col` of the table
 * (col < 0: the reader has no place for it, the value is read and dropped).
 */
#ifndef KW_AVRO_DECODE_H
#define KW_AVRO_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "arrow_columns.h"

enum kw_avro_op {
    AV_NULL = 0,
    AV_BOOLEAN,
    AV_INT,      /* zigzag varint; `to` says the reader's width */
    AV_LONG,
    AV_FLOAT,
    AV_DOUBLE,
    AV_BYTES,    /* also string read as bytes */
    AV_STRING,   /* UTF-8 checked */
    AV_FIXED,    /* a = size */
    AV_ENUM,     /* a = first entry of enum_map, b = writer symbol count */
    AV_RECORD,   /* a = first kid, b = kid count */
    AV_ARRAY,    /* a = item node */
    AV_MAP,      /* a = value node, b = key column (entries struct is col's child) */
    AV_UNION,    /* a = first kid (one per writer branch), b = branch count */
    AV_DECIMAL_BYTES, /* to the reader's decimal width (16 or 32 bytes, little-endian); c =
                       * precision, checked for decimal128 */
    AV_DECIMAL_FIXED, /* a = fixed size, c = precision */
    AV_DURATION,      /* fixed(12) months, days, millis -> month_day_nano interval */
    AV_DEFAULT,  /* a reader field the writer lacks: a = node run over defaults[b .. b + c] */
    AV_ERROR,    /* a writer branch the reader cannot take: the record is bad (b = message) */
};

/* How a number lands in the reader's column. */
enum kw_avro_to { AVT_SAME = 0, AVT_I32, AVT_I64, AVT_F32, AVT_F64 };

/* How a union's branch fills the union's column. */
enum kw_avro_branch {
    AVB_NONE = 0,   /* not a union branch */
    AVB_NULL,       /* null branch: a null row of the union's column */
    AVB_VALUE,      /* [null, T]-style: the branch writes the union's column itself */
    AVB_MEMBER,     /* general union: a struct row with member `member` set, others null */
};

typedef struct {
    uint8_t op;
    uint8_t to;
    uint8_t branch;
    uint8_t flags;
    int32_t col;
    int32_t a, b, c;
    int32_t member; /* AVB_MEMBER: the member's index in the union's struct */
    int32_t ucol;   /* a branch's union column (the struct, for AVB_MEMBER) */
} kw_avro_node;

typedef struct {
    const kw_avro_node *nodes;
    const int32_t *kids;
    const int32_t *enum_map;      /* writer symbol -> reader symbol (-1: not in the reader) */
    const uint8_t *symbols;       /* reader symbols' UTF-8 bytes */
    const int32_t *symbol_offsets;
    const uint8_t *defaults;      /* reader defaults, Avro-encoded with the reader schema */
    int32_t root;
} kw_avro_program;

/* Why a record failed (kw_avro_decode's result < 0). */
enum kw_avro_err {
    AVE_OK = 0,
    AVE_TRUNCATED,    /* the value ends inside a field */
    AVE_VARINT,       /* a varint longer than 10 bytes */
    AVE_INT_RANGE,    /* an int outside 32 bits */
    AVE_LENGTH,       /* a negative or too long length */
    AVE_UTF8,         /* a string that is not UTF-8 */
    AVE_UNION_INDEX,  /* a union index outside the union */
    AVE_ENUM_INDEX,   /* an enum index outside the writer's symbols */
    AVE_ENUM_SYMBOL,  /* a writer symbol the reader lacks (and no reader default) */
    AVE_RESOLVE,      /* a writer branch the reader schema cannot take */
    AVE_DECIMAL,      /* a decimal wider than the reader's precision */
    AVE_TRAILING,     /* bytes left after the value */
    AVE_DEPTH,        /* nesting deeper than the limit */
    AVE_NOMEM,        /* allocation failed or a column passed 2 GiB */
    AVE_TIME,         /* a time of day outside 0 .. 24 h */
};

/* Node flags: AV_STRING checks UTF-8 (1); AV_INT / AV_LONG read as time-millis (2) or
 * time-micros (3) check the time of day. */
enum { AVF_UTF8 = 1, AVF_TIME_MS = 2, AVF_TIME_US = 3 };

typedef struct {
    int code;
    int32_t node;      /* the node that failed */
    ptrdiff_t offset;  /* byte offset in the payload */
} kw_avro_error;

/* Decodes one payload into the table (appending one row to the program's root column). On
 * failure returns -1 with `err` filled; the caller rolls the table back. */
int kw_avro_decode(const kw_avro_program *prog, kw_col *table, const uint8_t *payload,
                   size_t len, kw_avro_error *err);

#endif
