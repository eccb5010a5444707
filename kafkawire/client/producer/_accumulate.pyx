# cython: freethreading_compatible = False
"""The producer's record batches while they wait, travel and come back, the futures its
callers hold, and the per-record path of ``send``. Compiled: a send is a dictionary lookup,
a hash, an append to the partition's open ``BatchBuilder`` and one small future object.

A batch is built (encoded, compressed) when the sender takes it; only then does it get its
producer id, epoch and sequence number, so batches that never left need no renumbering.
No IO here, and no locking but FastSend's: the producer core (``producer/core.py``) holds
its lock around the other calls.
"""

import asyncio
from collections import deque
from collections.abc import Coroutine

cimport cython
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from cpython.tuple cimport PyTuple_SET_ITEM
from libc.stdint cimport INT64_MAX, int32_t, uint32_t, uint8_t

from kafkawire.records._build cimport BatchBuilder, _murmur2

from kafkawire.records._build import murmur2, stamp_producer

from ..types import RecordMetadata

cdef extern from "Python.h":
    PyObject *PyType_GenericAlloc(PyTypeObject *type, Py_ssize_t nitems) except NULL

cdef extern from "<time.h>" nogil:
    cdef struct timespec:
        long tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec *tp)
    enum: CLOCK_REALTIME

QUEUED, IN_FLIGHT, DONE = 0, 1, 2
cdef int _DONE = 2


cdef long long _now_ms() noexcept:
    cdef timespec ts
    clock_gettime(CLOCK_REALTIME, &ts)
    return <long long>ts.tv_sec * 1000 + ts.tv_nsec // 1000000


cdef object _record_metadata(topic, partition, offset, timestamp):
    """RecordMetadata(topic, partition, offset, timestamp), made as tuple.__new__ makes a
    tuple subclass's instance, without its temporary tuple: the NamedTuple's own __new__ is
    a Python function, three times the time of this, paid once a record."""
    cdef PyObject *raw = PyType_GenericAlloc(<PyTypeObject *>RecordMetadata, 4)
    cdef object md = <object>raw  # a new reference: the allocation's own is dropped below
    Py_DECREF(md)
    # SET_ITEM steals a reference
    Py_INCREF(topic)
    PyTuple_SET_ITEM(md, 0, topic)
    Py_INCREF(partition)
    PyTuple_SET_ITEM(md, 1, partition)
    Py_INCREF(offset)
    PyTuple_SET_ITEM(md, 2, offset)
    Py_INCREF(timestamp)
    PyTuple_SET_ITEM(md, 3, timestamp)
    return md


cdef class ProducerBatch:
    """The records of one partition that travel together, and their outcome."""

    cdef public object tp
    cdef public object builder  # open: records still come in
    cdef public object data  # built
    cdef public Py_ssize_t count
    cdef public double created
    cdef public double deadline  # delivery.timeout.ms from the first record
    cdef public long long sequence  # base sequence once numbered
    cdef public object stamp  # the producer identity it was numbered under (the core's key)
    cdef public object built_as  # (producer id, epoch, sequence) in its bytes
    cdef public int attempts
    cdef public double retry_at
    cdef public int state
    cdef public long long base_offset
    cdef public long long log_append_time
    cdef public object error
    cdef public list waiters  # asyncio futures awaiting the outcome
    cdef public list callbacks
    cdef public object last_error  # of a try that will be retried
    cdef public Py_ssize_t accounted  # its bytes in the producer's buffer count (once closed)

    def __init__(self, tp, builder, data, Py_ssize_t count, double now, double deadline):
        self.tp = tp
        self.builder = builder
        self.data = data
        self.count = count
        self.created = now
        self.deadline = deadline
        self.sequence = -1
        self.state = 0
        self.base_offset = -1
        self.log_append_time = -1

    @property
    def size(self):
        if self.data is not None:
            return len(self.data)
        return self.builder.size_in_bytes

    def build(self, producer_id, epoch, sequence, transactional):
        """The batch's bytes, numbered (once; a retry sends the same bytes)."""
        fields = (producer_id, epoch, sequence)
        if self.data is None:
            builder = self.builder
            if producer_id >= 0:
                builder.set_producer(producer_id, epoch, sequence, transactional)
            # the sender builds outside the producer's lock: size reads the builder till then
            self.data = builder.build()
            self.builder = None
        elif self.built_as != fields and (producer_id >= 0 or self.built_as is not None):
            self.data = stamp_producer(self.data, producer_id, epoch, sequence, transactional)
        self.built_as = fields
        self.sequence = sequence
        return self.data

    def finish(self, base_offset, log_append_time, error):
        """Record the outcome; the callbacks to run (outside any lock) with it."""
        self.state = _DONE
        self.base_offset, self.log_append_time, self.error = base_offset, log_append_time, error
        self.builder = None
        self.data = None
        if self.waiters:
            for waiter in self.waiters:
                if not waiter.done():
                    waiter.set_result(None)
        self.waiters = None
        callbacks, self.callbacks = self.callbacks, None
        return callbacks or ()


# Futures are not tracked by the garbage collector: a loop that keeps 1M of them would pay for
# collections walking them all. Their one cycle (a future among its pending batch's callbacks)
# ends when the batch does, and every batch ends (delivered, failed, expired or closed).
@cython.no_gc
cdef class _RecordOutcome:
    """The outcome of one record: its batch and its place in it."""

    cdef readonly ProducerBatch _batch
    cdef Py_ssize_t _index
    cdef long long _timestamp

    def done(self):
        return self._batch.state == _DONE

    def cancelled(self):
        return False

    def cancel(self):
        """Records cannot be taken back once handed over (as in concurrent.futures, a
        running future is not cancelled)."""
        return False

    cdef _outcome(self):
        cdef ProducerBatch b = self._batch
        if b.error is not None:
            raise b.error
        offset = -1 if b.base_offset < 0 else b.base_offset + self._index
        timestamp = b.log_append_time if b.log_append_time >= 0 else self._timestamp
        return _record_metadata(b.tp.topic, b.tp.partition, offset, timestamp)

    cdef _add_callback(self, fn):
        if self._batch.callbacks is None:
            self._batch.callbacks = []
        self._batch.callbacks.append((fn, self))

    def __repr__(self):
        b = self._batch
        name = type(self).__name__
        if b.state != _DONE:
            return f"<{name} {b.tp.topic}-{b.tp.partition} pending>"
        if b.error is not None:
            return f"<{name} {b.tp.topic}-{b.tp.partition} failed: {b.error!r}>"
        return f"<{name} {self._outcome()}>"


@cython.no_gc
cdef class RecordFuture(_RecordOutcome):
    """What ``Producer.send`` returns: ``result(timeout)`` is the record's RecordMetadata
    (topic, partition, offset, timestamp) once the broker has it, or raises why not.
    Callbacks run on the producer's sender thread, as Java's do."""

    cdef object _signal  # the producer's Condition

    cdef int _wait(self, timeout) except -1:
        if self._batch.state == _DONE:
            return 0
        with self._signal:
            if not self._signal.wait_for(self.done, timeout):
                raise TimeoutError(f"no delivery report in {timeout} s")
        return 0

    def result(self, timeout=None):
        self._wait(timeout)
        return self._outcome()

    def exception(self, timeout=None):
        self._wait(timeout)
        return self._batch.error

    def add_done_callback(self, fn):
        """``fn(future)`` once the outcome is known (at once if it is)."""
        with self._signal:
            if self._batch.state != _DONE:
                self._add_callback(fn)
                return
        fn(self)


@cython.no_gc
cdef class AsyncRecordFuture(_RecordOutcome):
    """What ``kafkawire.aio.Producer.send`` returns: ``await`` it for the RecordMetadata."""

    def __await__(self):
        if self._batch.state == _DONE:  # delivered: no coroutine, no trip through the loop
            return Ready(self._outcome())
        return _await_outcome(self).__await__()

    def result(self):
        """The outcome, when done (as asyncio.Future.result: InvalidStateError before)."""
        if self._batch.state != _DONE:
            raise asyncio.InvalidStateError("the record is not delivered yet")
        return self._outcome()

    def exception(self):
        if self._batch.state != _DONE:
            raise asyncio.InvalidStateError("the record is not delivered yet")
        return self._batch.error

    def add_done_callback(self, fn):
        if self._batch.state != _DONE:
            self._add_callback(fn)
            return
        fn(self)


async def _await_outcome(AsyncRecordFuture future):
    cdef ProducerBatch b = future._batch
    if b.state != _DONE:
        if not b.waiters:  # one loop future per batch, shared by its records' awaits
            b.waiters = [asyncio.get_running_loop().create_future()]
        await b.waiters[0]
    return future.result()


cdef RecordFuture _record_future(ProducerBatch b, Py_ssize_t index, long long ts, signal):
    cdef RecordFuture f = RecordFuture.__new__(RecordFuture)
    f._batch, f._index, f._timestamp, f._signal = b, index, ts, signal
    return f


cdef AsyncRecordFuture _async_future(ProducerBatch b, Py_ssize_t index, long long ts):
    cdef AsyncRecordFuture f = AsyncRecordFuture.__new__(AsyncRecordFuture)
    f._batch, f._index, f._timestamp = b, index, ts
    return f


def record_future(ProducerBatch b, Py_ssize_t index, long long timestamp, signal):
    """The future of record ``index`` of ``b``: blocking (``signal`` the producer's
    Condition) or, with ``signal`` None, awaitable."""
    if signal is None:
        return _async_future(b, index, timestamp)
    return _record_future(b, index, timestamp, signal)


cdef class PartitionQueue:
    """One partition's batches, oldest first; the last may be open."""

    cdef public object tp
    cdef public object batches
    cdef public ProducerBatch open
    cdef public int in_flight
    cdef public bint retrying  # a batch came back: one request at a time till it is acknowledged
    cdef public long long next_sequence
    cdef public long long acked  # the sequence after the last acknowledged batch
    cdef public int sent_to  # the broker of the latest request (-1: none yet)

    def __init__(self, tp):
        self.tp = tp
        self.batches = deque()
        self.sent_to = -1

    def requeue(self, ProducerBatch batch):
        """Put a batch that came back where its sequence number says."""
        batch.state = 0
        self.retrying = True
        items = list(self.batches)
        at = 0
        while at < len(items) and 0 <= items[at].sequence < batch.sequence:
            at += 1
        items.insert(at, batch)
        self.batches = deque(items)


cdef class Topic:
    """A topic's partitions as the producer knows them, and its sticky partition."""

    cdef public str name
    cdef public list queues
    cdef public int sticky

    def __init__(self, name):
        self.name = name
        self.queues = []
        self.sticky = -1


cdef ProducerBatch _open_batch(dict topics, str topic, key):
    """The open batch of the partition a record of ``key`` goes to by the fast path's rules
    (murmur2 of the key; no key: the sticky partition), or None when ``ProducerCore.append``
    must decide (an unknown topic, no open batch, no sticky partition yet)."""
    cdef Topic t = topics.get(topic)
    cdef PartitionQueue q
    cdef uint32_t h
    if t is None:
        return None
    if key is None:
        if t.sticky < 0:
            return None
        q = t.queues[t.sticky]
    else:
        if type(key) is bytes:
            h = <uint32_t>_murmur2(<const uint8_t *>PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key))
        else:  # another bytes-like
            h = <uint32_t><int32_t>murmur2(key)
        q = t.queues[(h & 0x7FFFFFFF) % len(t.queues)]
    return q.open


cdef object _appended(ProducerBatch b, long long ts, signal):
    """The future of the record just appended to ``b``."""
    cdef Py_ssize_t index = b.count
    b.count = index + 1
    if signal is None:
        return _async_future(b, index, ts)
    return _record_future(b, index, ts, signal)


def append_fast(dict topics, str topic, value, key, headers, timestamp, signal):
    """``send``'s common case: a known topic, a key hashed with murmur2 (or no key, to the
    sticky partition), room in the partition's open batch. The record's future, or None
    when ``ProducerCore.append`` must decide (a new batch, an unknown topic, ...).
    ``signal`` as for record_future."""
    cdef ProducerBatch b = _open_batch(topics, topic, key)
    cdef long long ts
    if b is None:
        return None
    ts = _now_ms() if timestamp is None else timestamp
    if not b.builder.append(value, key=key, timestamp=ts, headers=headers):
        return None
    return _appended(b, ts, signal)


cdef object _append_bytes(dict topics, str topic, value, key, long long timestamp, signal):
    """append_fast for FastSend: value and key exactly bytes or None, no headers, the
    timestamp in ms (-1: now); the builder appended to without a Python call."""
    cdef ProducerBatch b = _open_batch(topics, topic, key)
    cdef long long ts
    if b is None:
        return None
    ts = _now_ms() if timestamp < 0 else timestamp
    if not (<BatchBuilder?>b.builder).append_bytes(value, key, ts):
        return None
    return _appended(b, ts, signal)


cdef inline object _utf8(object o):
    """A str value or key as its UTF-8 bytes (send takes str too); anything else as it is."""
    return (<str>o).encode() if type(o) is str else o


cdef inline bint _plain(topic, value, key, headers, partition, timestamp):
    """Whether the compiled path can take the record as it is: bytes or None, a time in ms
    or None, no headers, no partition. The rest (other buffers, wrong kinds, float or
    datetime timestamps) is checked and converted by the whole path."""
    return (
        partition is None and not headers and type(topic) is str
        and (value is None or type(value) is bytes)
        and (key is None or type(key) is bytes)
        and (timestamp is None or (type(timestamp) is int and 0 <= timestamp <= INT64_MAX))
    )


cdef class FastSend:
    """``Producer.send`` for the common case, compiled: its bound ``send`` is a producer's
    instance attribute that shadows the method (``Producer.send``, the whole path), which it
    calls for the rest (unknown topic, a new batch, an explicit partition, a closed producer,
    a value or key that is not bytes, str or None, a timestamp that is not a non-negative int
    or None, ...)."""

    cdef object _acquire  # the producer's lock's bound methods: no attribute lookups a record
    cdef object _release
    cdef object _core
    cdef dict _topics  # the core's, which it never replaces
    cdef object _signal
    cdef object _full_path

    def __init__(self, lock, core, signal, full_path):
        self._acquire = lock.acquire
        self._release = lock.release
        self._core = core
        self._topics = core.topics
        self._signal = signal
        self._full_path = full_path

    # A builtin method, which the interpreter calls straight with the keywords; an object's
    # __call__ would get them as a new dict each record (about 75 ns more a call).
    @cython.binding(False)
    def send(
        self, topic, value=None, *, key=None, headers=None, partition=None, timestamp=None
    ):
        value, key = _utf8(value), _utf8(key)
        if _plain(topic, value, key, headers, partition, timestamp):
            self._acquire()
            try:
                if self._core.fast:
                    future = _append_bytes(
                        self._topics, topic, value, key,
                        -1 if timestamp is None else timestamp, self._signal
                    )
                    if future is not None:
                        return future
            finally:
                self._release()
        return self._full_path(
            topic, value, key=key, headers=headers, partition=partition, timestamp=timestamp
        )


@cython.no_gc
@cython.final
cdef class Ready:
    """An awaitable whose result is there already: ``await`` gives it without a trip through
    the event loop (the common case of ``AsyncProducer.send``, a delivered record's future).
    A coroutine as far as asyncio is concerned, so ``create_task`` takes it too."""

    cdef object _value

    def __cinit__(self, value):
        self._value = value

    def __await__(self):
        return self

    def __iter__(self):
        return self

    def __next__(self):
        raise StopIteration(self._value)

    def send(self, value):
        raise StopIteration(self._value)

    def throw(self, typ, val=None, tb=None):
        if val is None:
            raise typ
        raise val

    def close(self):
        pass


Coroutine.register(Ready)


cdef class AsyncFastSend:
    """``AsyncProducer.send`` for the common case, compiled, as FastSend is for Producer:
    the record appended and its future handed back by a ``Ready`` awaitable. The rest goes
    to the whole path (a coroutine), told with ``placing=True`` when only the placement
    failed (a new batch, a topic not known yet), so that it lets the sender run first."""

    cdef object _core
    cdef object _full_path

    def __init__(self, core, full_path):
        self._core = core
        self._full_path = full_path

    @cython.binding(False)  # as FastSend.send
    def send(
        self, topic, value=None, *, key=None, headers=None, partition=None, timestamp=None
    ):
        value, key = _utf8(value), _utf8(key)
        # only the placement can fail when the record is plain and the fast path open
        cdef bint placing = (
            _plain(topic, value, key, headers, partition, timestamp) and self._core.fast
        )
        if placing:
            future = _append_bytes(
                self._core.topics, topic, value, key,
                -1 if timestamp is None else timestamp, None
            )
            if future is not None:
                return Ready(future)
        return self._full_path(
            topic, value, key=key, headers=headers, partition=partition, timestamp=timestamp,
            placing=placing,
        )

