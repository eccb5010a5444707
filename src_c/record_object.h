/* The memory layout of kafkawire.records._decode.Record, for C that reaches its fields by
 * offset: the member descriptors that make attribute loads fast (LOAD_ATTR_SLOT), and the
 * deallocator that recycles a dropped record's key, value and headers (recycle.h).
 *
 * Cython lays out a final cdef class without cdef methods as the object header followed by its
 * fields in declaration order; this struct mirrors that, so that no C names Cython's mangled
 * struct. _decode.pyx checks the mirror against a live Record when it is imported
 * (kw_record_layout_ok) and refuses to load if a change of the class broke it.
 */
#ifndef KW_RECORD_OBJECT_H
#define KW_RECORD_OBJECT_H

#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *offset; /* ints made with the record: object slots load fast (LOAD_ATTR_SLOT) */
    PyObject *timestamp;
    PyObject *key;
    PyObject *value;
    PyObject *headers; /* NULL-free: None until first asked for */
} kw_record_layout;

#define KW_RECORD_OFFSET_AT ((Py_ssize_t)offsetof(kw_record_layout, offset))
#define KW_RECORD_TIMESTAMP_AT ((Py_ssize_t)offsetof(kw_record_layout, timestamp))
#define KW_RECORD_KEY_AT ((Py_ssize_t)offsetof(kw_record_layout, key))
#define KW_RECORD_VALUE_AT ((Py_ssize_t)offsetof(kw_record_layout, value))
#define KW_RECORD_HEADERS_AT ((Py_ssize_t)offsetof(kw_record_layout, headers))

/* Whether `r` (a Record whose fields were set to these values) lies as the mirror says. */
static int kw_record_layout_ok(PyObject *r, PyObject *offset, PyObject *timestamp, PyObject *key,
                               PyObject *value, PyObject *headers)
{
    const kw_record_layout *l = (const kw_record_layout *)r;
    return Py_TYPE(r)->tp_basicsize == (Py_ssize_t)sizeof(kw_record_layout)
        && l->offset == offset && l->timestamp == timestamp && l->key == key
        && l->value == value && l->headers == headers;
}

#define KW_TYPE_DICT(t) (((PyTypeObject *)(t))->tp_dict)
#define KW_NEW_MEMBER(t, m) PyDescr_NewMember((PyTypeObject *)(t), (m))
#define KW_TYPE_MODIFIED(t) PyType_Modified((PyTypeObject *)(t))

#endif
