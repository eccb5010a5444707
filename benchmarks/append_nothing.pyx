# cython: language_level=3, binding=False
"""A compiled builder whose append does nothing, with BatchBuilder's signature and its way of
being called (a builtin method of an extension type, keywords parsed by Cython): the floor
of the producer loop for any compiled builder called once a record from Python.
benchmarks/bench_builder.py compiles it with pyximport."""


cdef class AppendNothing:
    def __init__(self, *, max_bytes):
        pass

    def append(self, value, *, key=None, timestamp=None, headers=()):
        return True

    def build(self):
        return b""
