/* Reuse of Python objects by the record decoder (kafkawire/records/_decode.pyx).
 *
 * Freed and allocated anew, the 1 MiB payload slabs were faulted in again on every call, and
 * a consumer loop's bytes and header lists cost an allocation each. These keep what the
 * decoder's callers have dropped for the next use.
 *
 * Invariants: called with the GIL held (without a GIL, Py_GIL_DISABLED, nothing is pooled); an
 * object is reused only when the pool holds its one reference (Py_REFCNT == 1), so nothing a
 * caller can still see changes. The pools are static: include this header from one
 * extension module only.
 */
#ifndef KW_RECYCLE_H
#define KW_RECYCLE_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

#define KW_SLAB_SIZE ((Py_ssize_t)1 << 20)
#define KW_SLAB_POOL 32 /* at most 32 MiB kept between calls */
static PyObject *kw_slab_pool[KW_SLAB_POOL];
static int kw_slab_count;

/* A slab for the caller to fill: a pooled one or a new one. */
static PyObject *kw_slab_take(void)
{
#ifndef Py_GIL_DISABLED
    if (kw_slab_count > 0)
        return kw_slab_pool[--kw_slab_count];
#endif
    return PyBytes_FromStringAndSize(NULL, KW_SLAB_SIZE);
}

/* Pool the slabs of a dropped walker's payload list that only it holds. */
static void kw_slab_recycle(PyObject *segments)
{
#ifndef Py_GIL_DISABLED
    if (!segments || !PyList_CheckExact(segments) || Py_REFCNT(segments) != 1)
        return;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(segments); i++) {
        PyObject *o = PyList_GET_ITEM(segments, i);
        if (kw_slab_count == KW_SLAB_POOL)
            return;
        if (PyBytes_CheckExact(o) && Py_SIZE(o) == KW_SLAB_SIZE && Py_REFCNT(o) == 1) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
            ((PyBytesObject *)o)->ob_shash = -1; /* new contents to come */
#pragma GCC diagnostic pop
            Py_INCREF(o);
            kw_slab_pool[kw_slab_count++] = o;
        }
    }
#endif
}

/* A ring of `size` (a power of two) objects a loop has dropped, each kept
 * (one reference) until `size` pushes later. */
static inline void kw_ring_push(PyObject **slots, unsigned *next, unsigned size,
                            PyObject *o)
{
    PyObject *old = slots[*next];
    Py_INCREF(o);
    slots[*next] = o;
    *next = (*next + 1) & (size - 1);
    Py_XDECREF(old);
}

/* The first object of Py_SIZE n that only the ring refers to, looking from
 * `back` pushes ago on, taken out of the ring (the caller owns it); or NULL. */
static inline PyObject *kw_ring_take(PyObject **slots, unsigned next, unsigned size,
                                 unsigned back, Py_ssize_t n)
{
    unsigned j = next - back;
    for (unsigned c = 0; c < size; c++, j++) {
        j &= size - 1;
        PyObject *o = slots[j];
        if (o && Py_SIZE(o) == n && Py_REFCNT(o) == 1) {
            slots[j] = NULL;
            return o;
        }
    }
    return NULL;
}

#define KW_RING 8u
static PyObject *kw_bytes_ring[KW_RING];
static unsigned kw_bytes_next;

static inline void kw_recycle_bytes(PyObject *o)
{
#ifndef Py_GIL_DISABLED
    if (!o || !PyBytes_CheckExact(o) || Py_SIZE(o) < 2)
        return; /* None, or the shared empty and one-byte singletons */
    kw_ring_push(kw_bytes_ring, &kw_bytes_next, KW_RING, o);
#endif
}

/* New bytes holding data[0:n]: a recycled object when one fits. */
static inline PyObject *kw_bytes_from(const char *data, Py_ssize_t n)
{
#ifndef Py_GIL_DISABLED
    /* from the last record's pair on: that is what a loop has just let go of */
    PyObject *o = kw_ring_take(kw_bytes_ring, kw_bytes_next, KW_RING, 2, n);
    if (o) {
        memcpy(PyBytes_AS_STRING(o), data, (size_t)n);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        ((PyBytesObject *)o)->ob_shash = -1; /* new contents: hash not known */
#pragma GCC diagnostic pop
        return o;
    }
#endif
    return PyBytes_FromStringAndSize(data, n);
}

#define KW_LIST_RING 4u
#define KW_LIST_MAX 8   /* longer lists are not worth keeping */
static PyObject *kw_list_ring[KW_LIST_RING];
static unsigned kw_list_next;

static inline void kw_recycle_list(PyObject *o)
{
#ifndef Py_GIL_DISABLED
    if (!o || !PyList_CheckExact(o) || PyList_GET_SIZE(o) > KW_LIST_MAX)
        return;
    kw_ring_push(kw_list_ring, &kw_list_next, KW_LIST_RING, o);
#endif
}

/* A list of n items for the caller to replace (Py_XDECREF the old one,
 * which is NULL in a new list): a recycled list when one fits. */
static inline PyObject *kw_list_of(Py_ssize_t n)
{
#ifndef Py_GIL_DISABLED
    PyObject *o = kw_ring_take(kw_list_ring, kw_list_next, KW_LIST_RING, 1, n);
    if (o)
        return o;
#endif
    return PyList_New(n);
}

/* A record's offset and timestamp ints: a dropped record's, rewritten in place for the next
 * record when only the ring refers to them and the number of 30-bit digits matches (offsets
 * and timestamps of neighbouring records nearly always do). The digits of an int are CPython's
 * private layout (3.10-3.11: a signed digit count in ob_size; 3.12 on: the count in lv_tag
 * above three flag bits), so kw_int_recycling_check() compares rewritten ints with new ones
 * when the module is imported and leaves recycling off if they differ. */
#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h>
#endif
#define KW_INT_RING 8u
static PyObject *kw_int_ring[KW_INT_RING];
static unsigned kw_int_next;
static int kw_int_recycling;

#if PY_VERSION_HEX >= 0x030C0000
#define KW_INT_DIGITS(o) ((Py_ssize_t)(((PyLongObject *)(o))->long_value.lv_tag >> 3))
#define KW_INT_POSITIVE(o) ((((PyLongObject *)(o))->long_value.lv_tag & 3) == 0)
#define KW_INT_DIGIT(o) (((PyLongObject *)(o))->long_value.ob_digit)
#else
#define KW_INT_DIGITS(o) Py_SIZE(o)
#define KW_INT_POSITIVE(o) (Py_SIZE(o) > 0)
#define KW_INT_DIGIT(o) (((PyLongObject *)(o))->ob_digit)
#endif

static inline void kw_recycle_int(PyObject *o)
{
#ifndef Py_GIL_DISABLED
    if (kw_int_recycling && o && PyLong_CheckExact(o) && KW_INT_POSITIVE(o)
            && KW_INT_DIGITS(o) <= 3)
        kw_ring_push(kw_int_ring, &kw_int_next, KW_INT_RING, o);
#endif
}

/* The int v (a new reference): a recycled object when one fits. */
static inline PyObject *kw_int_from(int64_t v)
{
#ifndef Py_GIL_DISABLED
    if (kw_int_recycling && v > 256) { /* smaller ones are CPython's shared small ints */
        uint64_t u = (uint64_t)v;
        Py_ssize_t n = u >> PyLong_SHIFT == 0 ? 1 : u >> (2 * PyLong_SHIFT) == 0 ? 2 : 3;
        unsigned j = kw_int_next;
        for (unsigned c = 0; c < KW_INT_RING; c++, j++) {
            j &= KW_INT_RING - 1;
            PyObject *o = kw_int_ring[j];
            if (o && Py_REFCNT(o) == 1 && KW_INT_DIGITS(o) == n) {
                kw_int_ring[j] = NULL;
                digit *d = KW_INT_DIGIT(o);
                for (Py_ssize_t k = 0; k < n; k++, u >>= PyLong_SHIFT)
                    d[k] = (digit)(u & PyLong_MASK);
                return o;
            }
        }
    }
#endif
    return PyLong_FromLongLong(v);
}

/* Turn int recycling on if rewritten ints read back as new ones do; 1 if on. */
static int kw_int_recycling_check(void)
{
#ifndef Py_GIL_DISABLED
    static const int64_t probes[] = {300, 1073741823, 1073741824, 1700000000123LL,
                                     1152921504606846975LL, 1152921504606846976LL,
                                     INT64_MAX};
    kw_int_recycling = 1;
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
        PyObject *fresh = PyLong_FromLongLong(probes[i]);
        PyObject *seed = PyLong_FromLongLong(probes[i] ^ 1); /* same digit count */
        if (!fresh || !seed) {
            Py_XDECREF(fresh);
            Py_XDECREF(seed);
            PyErr_Clear();
            kw_int_recycling = 0;
            break;
        }
        kw_recycle_int(seed);
        Py_DECREF(seed); /* only the ring holds it now */
        PyObject *again = kw_int_from(probes[i]);
        int same = again && again == seed && PyObject_RichCompareBool(again, fresh, Py_EQ) == 1
                   && PyObject_Hash(again) == PyObject_Hash(fresh)
                   && PyLong_AsLongLong(again) == probes[i];
        PyErr_Clear();
        Py_XDECREF(again);
        Py_DECREF(fresh);
        if (!same) {
            kw_int_recycling = 0;
            break;
        }
    }
    for (unsigned j = 0; j < KW_INT_RING; j++)
        Py_CLEAR(kw_int_ring[j]);
#endif
    return kw_int_recycling;
}

/* Record's deallocator, wrapped: its fields go to the rings first (a Cython __dealloc__
 * would also save and restore the error state). */
static destructor kw_record_base_dealloc;
static Py_ssize_t kw_record_offset_at, kw_record_timestamp_at, kw_record_key_at,
    kw_record_value_at, kw_record_headers_at;

static void kw_record_dealloc(PyObject *r)
{
    kw_recycle_int(*(PyObject **)((char *)r + kw_record_offset_at));
    kw_recycle_int(*(PyObject **)((char *)r + kw_record_timestamp_at));
    kw_recycle_bytes(*(PyObject **)((char *)r + kw_record_key_at));
    kw_recycle_bytes(*(PyObject **)((char *)r + kw_record_value_at));
    kw_recycle_list(*(PyObject **)((char *)r + kw_record_headers_at));
    kw_record_base_dealloc(r);
}

static void kw_recycle_record_fields(PyObject *type, Py_ssize_t offset_at,
                                     Py_ssize_t timestamp_at, Py_ssize_t key_at,
                                     Py_ssize_t value_at, Py_ssize_t headers_at)
{
    PyTypeObject *t = (PyTypeObject *)type;
    kw_record_offset_at = offset_at;
    kw_record_timestamp_at = timestamp_at;
    kw_record_key_at = key_at;
    kw_record_value_at = value_at;
    kw_record_headers_at = headers_at;
    kw_record_base_dealloc = t->tp_dealloc;
    t->tp_dealloc = kw_record_dealloc;
}
#endif
