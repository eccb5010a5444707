/* Growable Arrow column builders for the schema-registry decoders (kafkawire.registry).
 *
 * A decoder appends one row at a time to a table of columns laid out as Arrow arrays
 * (validity bitmap, fixed-width values or int32 offsets, variable data, children by index);
 * kafkawire/registry/_columns.pxi hands the finished buffers to pyarrow without copying.
 * Everything here is static inline: the decoders' loops call these per field.
 *
 * Every append can fail only on allocation (or an int32 offset overflowing 2 GiB): those
 * return -1 and the decoder stops; a record that is bad is undone with kw_col_truncate to
 * the root's row count before it, then appended as a null row.
 */
#ifndef KW_ARROW_COLUMNS_H
#define KW_ARROW_COLUMNS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the appends are a few instructions each: inlined into the decoders' loops */
#define KW_COL_INLINE static inline __attribute__((always_inline))

typedef struct {
    uint8_t *p;
    size_t len, cap;
} kw_buf;

/* Physical layouts; the Arrow type (timestamp, date, decimal, map...) is the Python side's. */
enum kw_col_kind {
    KWC_NULL = 0,   /* no buffers (Arrow null type) */
    KWC_BOOL = 1,   /* values: bitmap */
    KWC_FIXED = 2,  /* values: `width` bytes a row (ints, floats, decimal128, fixed binary) */
    KWC_BINARY = 3, /* values: int32 offsets (n + 1), data: bytes */
    KWC_STRUCT = 4, /* children only */
    KWC_LIST = 5,   /* values: int32 offsets (n + 1), one child (maps: a struct child) */
};

typedef struct {
    int kind;
    int32_t width;       /* KWC_FIXED: bytes per row */
    int64_t length;      /* rows */
    int64_t null_count;
    int bitmap;          /* validity is kept: from the first null on (before, all valid) */
    kw_buf validity;     /* bitmap, one bit a row (1 = valid) */
    kw_buf values;
    kw_buf data;
    int32_t child0;      /* first child's index in the table (children are consecutive) */
    int32_t nchildren;
} kw_col;

static int kw_buf_grow(kw_buf *b, size_t need);

KW_COL_INLINE int kw_buf_reserve(kw_buf *b, size_t extra) {
    size_t need = b->len + extra;
    if (__builtin_expect(need <= b->cap, 1))
        return 0;
    return kw_buf_grow(b, need);
}

static __attribute__((noinline)) int kw_buf_grow(kw_buf *b, size_t need) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap * 2;
    uint8_t *p = (uint8_t *)realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static inline void kw_buf_free(kw_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* The validity bitmap of a column that has had no null: a 1 for each row so far. */
static __attribute__((noinline)) int kw_col_bitmap_start(kw_col *col) {
    size_t bytes = (size_t)((col->length + 7) >> 3);
    if (kw_buf_reserve(&col->validity, bytes + 1) < 0)
        return -1;
    memset(col->validity.p, 0xFF, bytes);
    if (col->length & 7)
        col->validity.p[bytes - 1] = (uint8_t)((1u << (col->length & 7)) - 1);
    col->validity.len = bytes;
    col->bitmap = 1;
    return 0;
}

/* Counts row `col->length`, valid or null (a column without nulls keeps no bitmap: most
 * columns, and one store a value saved). */
KW_COL_INLINE int kw_col_bit(kw_col *col, int valid) {
    int64_t row = col->length;
    if (__builtin_expect(!col->bitmap, 1)) {
        if (valid) {
            col->length = row + 1;
            return 0;
        }
        if (kw_col_bitmap_start(col) < 0)
            return -1;
    }
    if ((row & 7) == 0) {
        if (kw_buf_reserve(&col->validity, 1) < 0)
            return -1;
        col->validity.p[col->validity.len++] = 0;
    }
    if (valid)
        col->validity.p[row >> 3] |= (uint8_t)(1u << (row & 7));
    else
        col->null_count++;
    col->length = row + 1;
    return 0;
}

/* A fresh column's first offset (KWC_BINARY and KWC_LIST start with offset 0). */
static inline int kw_col_init(kw_col *col, int kind, int32_t width, int32_t child0,
                              int32_t nchildren) {
    memset(col, 0, sizeof(*col));
    col->kind = kind;
    col->width = width;
    col->child0 = child0;
    col->nchildren = nchildren;
    if (kind == KWC_BINARY || kind == KWC_LIST) {
        if (kw_buf_reserve(&col->values, 4) < 0)
            return -1;
        memset(col->values.p, 0, 4);
        col->values.len = 4;
    }
    return 0;
}

KW_COL_INLINE int32_t kw_col_last_offset(const kw_col *col) {
    int32_t v;
    memcpy(&v, col->values.p + col->values.len - 4, 4);
    return v;
}

KW_COL_INLINE int kw_col_push_offset(kw_col *col, int64_t offset) {
    if (offset > INT32_MAX)
        return -1; /* the caller reports "over 2 GiB in one column" */
    if (kw_buf_reserve(&col->values, 4) < 0)
        return -1;
    int32_t v = (int32_t)offset;
    memcpy(col->values.p + col->values.len, &v, 4);
    col->values.len += 4;
    return 0;
}

/* Room for one fixed-width value; the caller writes `width` bytes there. */
KW_COL_INLINE uint8_t *kw_col_fixed_slot(kw_col *col) {
    if (kw_buf_reserve(&col->values, (size_t)col->width) < 0 || kw_col_bit(col, 1) < 0)
        return NULL;
    uint8_t *slot = col->values.p + col->values.len;
    col->values.len += (size_t)col->width;
    return slot;
}

KW_COL_INLINE int kw_col_i32(kw_col *col, int32_t v) {
    uint8_t *s = kw_col_fixed_slot(col);
    if (!s)
        return -1;
    memcpy(s, &v, 4);
    return 0;
}

KW_COL_INLINE int kw_col_i64(kw_col *col, int64_t v) {
    uint8_t *s = kw_col_fixed_slot(col);
    if (!s)
        return -1;
    memcpy(s, &v, 8);
    return 0;
}

KW_COL_INLINE int kw_col_f32(kw_col *col, float v) {
    uint8_t *s = kw_col_fixed_slot(col);
    if (!s)
        return -1;
    memcpy(s, &v, 4);
    return 0;
}

KW_COL_INLINE int kw_col_f64(kw_col *col, double v) {
    uint8_t *s = kw_col_fixed_slot(col);
    if (!s)
        return -1;
    memcpy(s, &v, 8);
    return 0;
}

/* KWC_BOOL: values is a bitmap parallel to the validity bitmap. */
KW_COL_INLINE int kw_col_bool(kw_col *col, int v) {
    int64_t row = col->length;
    if ((row & 7) == 0) {
        if (kw_buf_reserve(&col->values, 1) < 0)
            return -1;
        col->values.p[col->values.len++] = 0;
    }
    if (v)
        col->values.p[row >> 3] |= (uint8_t)(1u << (row & 7));
    return kw_col_bit(col, 1);
}

/* Copies n bytes; values of a few bytes (names, codes, symbols: most strings in records)
 * without a call to memcpy. */
KW_COL_INLINE void kw_copy(uint8_t *dst, const uint8_t *src, size_t n) {
    if (n >= 8 && n <= 16) { /* two overlapping 8-byte moves */
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &b, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            dst[i] = src[i];
    } else {
        memcpy(dst, src, n);
    }
}

KW_COL_INLINE int kw_col_binary(kw_col *col, const uint8_t *p, size_t n) {
    if (kw_buf_reserve(&col->data, n) < 0)
        return -1;
    /* (an empty first value: data.p is still NULL, and memcpy(NULL, ., 0) is UB; kw_copy
     * moves nothing then) */
    kw_copy(col->data.p + col->data.len, p, n);
    col->data.len += n;
    if (kw_col_push_offset(col, (int64_t)col->data.len) < 0)
        return -1;
    return kw_col_bit(col, 1);
}

/* kw_col_binary for a value of n <= 16 bytes with 16 bytes readable at p: one 16-byte move
 * whatever n is (the bytes past n land past the data's end and are overwritten later). */
KW_COL_INLINE int kw_col_binary16(kw_col *col, const uint8_t *p, size_t n) {
    if (kw_buf_reserve(&col->data, 16) < 0)
        return -1;
    memcpy(col->data.p + col->data.len, p, 16);
    col->data.len += n;
    if (kw_col_push_offset(col, (int64_t)col->data.len) < 0)
        return -1;
    return kw_col_bit(col, 1);
}

/* Closes a list row whose elements were appended to the child. */
KW_COL_INLINE int kw_col_list_end(kw_col *col, kw_col *child) {
    if (kw_col_push_offset(col, child->length) < 0)
        return -1;
    return kw_col_bit(col, 1);
}

/* A null row of column `i` (and, for a struct, of each child: Arrow's children have the
 * struct's length). */
static int kw_col_null(kw_col *table, int32_t i) {
    kw_col *col = &table[i];
    switch (col->kind) {
    case KWC_NULL:
        col->length++;
        col->null_count++;
        return 0;
    case KWC_BOOL:
        if ((col->length & 7) == 0) {
            if (kw_buf_reserve(&col->values, 1) < 0)
                return -1;
            col->values.p[col->values.len++] = 0;
        }
        break;
    case KWC_FIXED:
        if (kw_buf_reserve(&col->values, (size_t)col->width) < 0)
            return -1;
        memset(col->values.p + col->values.len, 0, (size_t)col->width);
        col->values.len += (size_t)col->width;
        break;
    case KWC_BINARY:
    case KWC_LIST:
        if (kw_col_push_offset(col, kw_col_last_offset(col)) < 0)
            return -1;
        break;
    case KWC_STRUCT:
        for (int32_t c = 0; c < col->nchildren; c++)
            if (kw_col_null(table, col->child0 + c) < 0)
                return -1;
        break;
    }
    return kw_col_bit(col, 0);
}

/* Room for `rows` more rows in column i and, for a struct, its children (a list's elements
 * are not counted: their number is not known), so that a decode of known row count grows no
 * buffer but the variable data. */
static inline int kw_cols_reserve(kw_col *table, int32_t i, int64_t rows) {
    kw_col *col = &table[i];
    size_t bits = (size_t)((col->length + rows + 7) >> 3) + 1;
    switch (col->kind) {
    case KWC_BOOL:
        return kw_buf_reserve(&col->values, bits - col->values.len);
    case KWC_FIXED:
        return kw_buf_reserve(&col->values, (size_t)rows * (size_t)col->width);
    case KWC_BINARY:
    case KWC_LIST:
        return kw_buf_reserve(&col->values, (size_t)rows * 4);
    case KWC_STRUCT:
        for (int32_t c = 0; c < col->nchildren; c++)
            if (kw_cols_reserve(table, col->child0 + c, rows) < 0)
                return -1;
        return 0;
    default:
        return 0;
    }
}

/* A bitmap cut to `rows` bits (the bits past them cleared: appends only set bits). */
static inline void kw_bits_truncate(kw_buf *b, int64_t rows) {
    size_t bytes = (size_t)((rows + 7) >> 3);
    b->len = bytes;
    if (rows & 7)
        b->p[bytes - 1] &= (uint8_t)((1u << (rows & 7)) - 1);
}

/* Undoes the rows of column i past its first `rows` and, below it, the rows of its children
 * past theirs (a struct's children have its rows; a list's child has the elements its first
 * `rows` rows hold): what a record that failed appended, found from the row count alone, so
 * that nothing is recorded for the records that do not fail. Bits past the new length are
 * cleared, since appends only set bits. */
static void kw_col_truncate(kw_col *table, int32_t i, int64_t rows) {
    kw_col *col = &table[i];
    int64_t child_rows = rows;
    if (col->kind == KWC_LIST) {
        int32_t offset;
        memcpy(&offset, col->values.p + rows * 4, 4);
        child_rows = offset;
    }
    if (col->kind == KWC_NULL) {
        col->null_count -= col->length - rows;
    } else if (col->bitmap) {
        for (int64_t r = rows; r < col->length; r++)
            if (!(col->validity.p[r >> 3] & (1u << (r & 7))))
                col->null_count--;
        kw_bits_truncate(&col->validity, rows);
    }
    switch (col->kind) {
    case KWC_BOOL:
        kw_bits_truncate(&col->values, rows);
        break;
    case KWC_FIXED:
        col->values.len = (size_t)rows * (size_t)col->width;
        break;
    case KWC_BINARY: {
        int32_t offset;
        memcpy(&offset, col->values.p + rows * 4, 4);
        col->values.len = (size_t)(rows + 1) * 4;
        col->data.len = (size_t)offset;
        break;
    }
    case KWC_LIST:
        col->values.len = (size_t)(rows + 1) * 4;
        break;
    default:
        break;
    }
    col->length = rows;
    for (int32_t c = 0; c < col->nchildren; c++)
        kw_col_truncate(table, col->child0 + c, child_rows);
}

static inline void kw_cols_free(kw_col *table, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        kw_buf_free(&table[i].validity);
        kw_buf_free(&table[i].values);
        kw_buf_free(&table[i].data);
    }
}

/* ---- the wire's integers ---------------------------------------------------------------- */

/* Unsigned LEB128 varint of up to 10 bytes; returns bytes read, 0 when it runs past `end` or
 * is longer than 10 bytes. */
static inline int kw_uvarint64(const uint8_t *p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (p + i >= end)
            return 0;
        uint8_t b = p[i];
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return i + 1;
        }
    }
    return 0;
}

static inline int64_t kw_unzigzag64(uint64_t v) {
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
