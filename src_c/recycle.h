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
    if (!o || !PyList_CheckExact(o) || PyList_GET_SIZE(o) == 0
            || PyList_GET_SIZE(o) > KW_LIST_MAX)
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

/* Record's deallocator, wrapped: its key, value and headers go to the
 * rings first (a Cython __dealloc__ would also save and restore the
 * error state). */
static destructor kw_record_base_dealloc;
static Py_ssize_t kw_record_key_at, kw_record_value_at, kw_record_headers_at;

static void kw_record_dealloc(PyObject *r)
{
    kw_recycle_bytes(*(PyObject **)((char *)r + kw_record_key_at));
    kw_recycle_bytes(*(PyObject **)((char *)r + kw_record_value_at));
    kw_recycle_list(*(PyObject **)((char *)r + kw_record_headers_at));
    kw_record_base_dealloc(r);
}

static void kw_recycle_record_fields(PyObject *type, Py_ssize_t key_at, Py_ssize_t value_at,
                                     Py_ssize_t headers_at)
{
    PyTypeObject *t = (PyTypeObject *)type;
    kw_record_key_at = key_at;
    kw_record_value_at = value_at;
    kw_record_headers_at = headers_at;
    kw_record_base_dealloc = t->tp_dealloc;
    t->tp_dealloc = kw_record_dealloc;
}
#endif
