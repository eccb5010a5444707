/* Direct access to CPython objects for the message codec (kafkawire/protocol/_codec.pyx) and the
 * record builder (kafkawire/records/_build.pyx), where the public API would cost a call or an
 * intermediate object per field. Called with the GIL held.
 */
#ifndef KW_PYOBJECT_H
#define KW_PYOBJECT_H

#include <Python.h>
#include <string.h>
#include <structmember.h>

/* A new instance of type `tp` with every slot NULL (the caller fills them). */
static PyObject *kw_alloc(PyObject *tp)
{
    return ((PyTypeObject *)tp)->tp_alloc((PyTypeObject *)tp, 0);
}

/* The byte offset of the slot a __slots__ member descriptor reads, -1 for anything else. */
static Py_ssize_t kw_slot_offset(PyObject *descr)
{
    if (Py_TYPE(descr) != &PyMemberDescr_Type)
        return -1;
    return ((PyMemberDescrObject *)descr)->d_member->offset;
}

#define KW_SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* Store a new reference to v in the slot at `off` (from kw_slot_offset of obj's type),
 * dropping what was there. */
static void kw_set_slot(PyObject *obj, Py_ssize_t off, PyObject *v)
{
    PyObject *old = KW_SLOT(obj, off);
    Py_INCREF(v);
    KW_SLOT(obj, off) = v;
    Py_XDECREF(old);
}

/* The slot's object, borrowed; NULL when unset. */
static PyObject *kw_get_slot(PyObject *obj, Py_ssize_t off)
{
    return KW_SLOT(obj, off);
}

/* mv[start:start + n] for a 1-D memoryview of unsigned bytes (a records field: one per Fetch
 * partition), without the slice object and index conversions of a subscript. The new view
 * shares mv's managed buffer, so it keeps the source alive just as a slice does. The caller
 * has checked that 0 <= start and start + n <= len(mv). */
static PyObject *kw_subview(PyObject *mv, Py_ssize_t start, Py_ssize_t n)
{
    PyObject *sub = PyMemoryView_FromObject(mv);
    if (sub == NULL)
        return NULL;
    Py_buffer *view = PyMemoryView_GET_BUFFER(sub);
    view->buf = (char *)view->buf + start;
    view->len = n;
    view->shape[0] = n;
    return sub;
}

/* A bytes object's size lowered in place to n (<= its size; its memory block stays as it is),
 * for a buffer that was allocated at the most it could need. Only for a bytes object nothing
 * else has seen yet (its hash not computed). */
static void kw_bytes_shrink(PyObject *o, Py_ssize_t n)
{
    Py_SET_SIZE((PyVarObject *)o, n);
    PyBytes_AS_STRING(o)[n] = 0;
}

#endif
