/* Protobuf payloads (Confluent framing's message indexes, then a protobuf message) to Arrow
 * columns: an interpreter of the programs kafkawire/registry/protobuf.py compiles from the
 * reader's message descriptor.
 *
 * A program is a table of messages, each with its fields sorted by number (a dense
 * number -> field table when the numbers are small, a binary search otherwise). A message
 * decodes into one row of its column: a struct column (PBM_STRUCT), or a leaf column for the
 * well-known types that Arrow has a scalar for (PBM_VALUE: the wrappers, whose field 1 writes
 * the column; PBM_TIMESTAMP, PBM_DURATION: seconds + nanos into an int64 of microseconds).
 *
 * Semantics (protobuf's, with the choices kafkawire makes documented in protobuf.py):
 * - fields arrive in any order; an unknown field number is skipped by its wire type;
 * - a singular scalar seen twice: the last one wins (the value already appended for this row
 *   is taken back and replaced); a singular message seen twice is an error (protobuf would
 *   merge the two); setting a oneof member clears the member set before it (an error when
 *   that one was a message);
 * - repeated scalars packed or not (both accepted, as protobuf parsers do);
 * - at the message's end: absent fields get their default (PBF_DEFAULT: proto3 implicit
 *   presence, map entries' key and value) or a null; lists are closed;
 * - a wire type that does not fit the field's type is an error, as are groups.
 */
#ifndef KW_PROTOBUF_DECODE_H
#define KW_PROTOBUF_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "arrow_columns.h"

/* Field types: FieldDescriptorProto.Type's numbers. */
enum kw_pb_type {
    PBT_DOUBLE = 1,
    PBT_FLOAT = 2,
    PBT_INT64 = 3,
    PBT_UINT64 = 4,
    PBT_INT32 = 5,
    PBT_FIXED64 = 6,
    PBT_FIXED32 = 7,
    PBT_BOOL = 8,
    PBT_STRING = 9,
    PBT_GROUP = 10,
    PBT_MESSAGE = 11,
    PBT_BYTES = 12,
    PBT_UINT32 = 13,
    PBT_ENUM = 14,
    PBT_SFIXED32 = 15,
    PBT_SFIXED64 = 16,
    PBT_SINT32 = 17,
    PBT_SINT64 = 18,
};

/* Field flags. */
enum {
    PBF_REPEATED = 1, /* col is a list column, elem its child */
    PBF_DEFAULT = 2,  /* absent: the type's default (else a null) */
};

/* Message kinds. */
enum kw_pb_msg_kind { PBM_STRUCT = 0, PBM_VALUE, PBM_TIMESTAMP, PBM_DURATION };

typedef struct {
    uint32_t number;
    uint8_t type;   /* kw_pb_type */
    uint8_t flags;
    int16_t oneof;  /* the oneof's index in the message, -1 for none */
    int32_t col;    /* the field's column (repeated: the list) */
    int32_t elem;   /* the column a value is appended to (repeated: the list's child) */
    int32_t msg;    /* PBT_MESSAGE: the message's index in the program */
    int32_t a, b;   /* PBT_ENUM: its values are enum_numbers[a .. a + b) */
    int32_t c;      /* PBT_ENUM: the default's name (an index into name_offsets) */
} kw_pb_field;

typedef struct {
    int32_t col;       /* the message's column */
    int32_t kind;      /* kw_pb_msg_kind */
    int32_t first;     /* fields[first .. first + count), sorted by number */
    int32_t count;
    int32_t dense;     /* dense[dense + number] = field index - first, or -1 (dense < 0: none) */
    int32_t dense_len; /* numbers below it are looked up densely */
} kw_pb_message;

/* What a value of a field does, derived from its type by kw_pb_prepare; PBO_SLOW marks the
 * fields the interpreter's fast path leaves to the general one (repeated, oneof members). */
enum kw_pb_op {
    PBO_INT64 = 1, /* varint -> int64 (int64, uint64) */
    PBO_INT32,     /* varint -> int32 (int32 truncated, uint32) */
    PBO_SINT32,
    PBO_SINT64,
    PBO_BOOL,
    PBO_ENUM,
    PBO_FIXED64, /* 8 bytes as they are: double, fixed64, sfixed64 */
    PBO_FIXED32, /* 4 bytes: float, fixed32, sfixed32 */
    PBO_STRING,
    PBO_BYTES,
    PBO_MESSAGE,
    PBO_TIME, /* a google.protobuf.Timestamp or Duration message: one int64 */
    PBO_GROUP,
    PBO_SLOW = 0x80,
};

typedef struct {
    const kw_pb_message *msgs;
    const kw_pb_field *fields;
    uint32_t *tags; /* per field: number << 3 | the wire type of one unpacked value */
    uint8_t *ops;   /* per field: kw_pb_op */
    const int32_t *dense;
    const int32_t *enum_numbers; /* per enum: sorted value numbers */
    const int32_t *enum_names;   /* per enum: the name (index into name_offsets) of each */
    const uint8_t *names;        /* UTF-8 names */
    const int32_t *name_offsets;
    int32_t root;                /* the root message */
} kw_pb_program;

/* Why a record failed. */
enum kw_pb_err {
    PBE_OK = 0,
    PBE_TRUNCATED,     /* the message ends inside a field */
    PBE_VARINT,        /* a varint longer than 10 bytes */
    PBE_LENGTH,        /* a length past the end of its message */
    PBE_WIRE_TYPE,     /* a wire type that does not fit the field's type */
    PBE_GROUP,         /* a group (wire types 3 and 4): unsupported */
    PBE_BAD_WIRE_TYPE, /* wire type 6 or 7 */
    PBE_FIELD_ZERO,    /* field number 0 */
    PBE_UTF8,          /* a string field that is not UTF-8 */
    PBE_DUPLICATE,     /* a singular message field twice */
    PBE_ONEOF,         /* a oneof member after a message member of the same oneof */
    PBE_DEPTH,         /* nesting deeper than the limit */
    PBE_RANGE,         /* a Timestamp / Duration outside its range */
    PBE_INDEX_COUNT,   /* a message-index count that is negative or over 100 */
    PBE_INDEX,         /* a negative message index */
    PBE_NOMEM,         /* allocation failed or a column passed 2 GiB */
};

typedef struct {
    int code;
    int32_t msg;      /* the message being decoded */
    int32_t field;    /* the field (an index into fields), -1 for the message itself */
    ptrdiff_t offset; /* byte offset in the payload */
} kw_pb_error;

/* Fills a program's tags and ops (NULL before) from its nfields fields; -1 when out of
 * memory. kw_pb_release frees them. */
int kw_pb_prepare(kw_pb_program *prog, int32_t nfields);
void kw_pb_release(kw_pb_program *prog);

/* Scratch space a decode needs (per-field "seen" bits of the messages being decoded, 64 to a
 * word); zero it before the first use, free it with kw_pb_scratch_free. */
typedef struct {
    uint64_t *seen;
    size_t cap; /* words */
} kw_pb_scratch;

void kw_pb_scratch_free(kw_pb_scratch *s);

#define KW_PB_MAX_INDEXES 100

/* Reads the message-index array at the start of a payload: a zigzag varint count (0 means
 * the single index 0), then that many zigzag varints. Fills indexes[0 .. *count) (room for
 * KW_PB_MAX_INDEXES) and returns the bytes read, or -1 with `err` filled. */
ptrdiff_t kw_pb_message_indexes(const uint8_t *p, size_t len, int32_t *indexes, int32_t *count,
                                kw_pb_error *err);

/* Decodes one protobuf message (the payload after the indexes, len bytes, with `readable`
 * >= len bytes of memory readable from payload on: short strings are moved 16 bytes at a
 * time) into the table, appending one row to the root message's column. On failure returns
 * -1 with `err` filled; the caller rolls the table back. */
int kw_pb_decode(const kw_pb_program *prog, kw_col *table, const uint8_t *payload, size_t len,
                 size_t readable, kw_pb_scratch *scratch, kw_pb_error *err);

#endif
