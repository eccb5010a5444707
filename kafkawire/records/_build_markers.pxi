# Batches made from others: a built batch stamped with its producer's numbers
# (stamp_producer), and transaction markers (build_control_batch).
# Included by _build.pyx: one extension module, split by topic.


def stamp_producer(batch, producer_id, producer_epoch, base_sequence, is_transactional=False):
    """A copy of the record batch ``batch`` (magic 2) with other producer fields (and the
    transactional bit), its CRC computed again: a batch built before its producer numbered
    it."""
    cdef const uint8_t[::1] src = batch
    cdef Py_ssize_t n = src.shape[0]
    cdef bytes out
    cdef uint8_t *o
    cdef int64_t pid = _int_arg(producer_id, -1, INT64_MAX, "producer_id")
    cdef int16_t epoch = <int16_t>_int_arg(producer_epoch, -1, INT16_MAX, "producer_epoch")
    cdef int32_t seq = <int32_t>_int_arg(base_sequence, -1, INT32_MAX, "base_sequence")
    if n < V2_HEADER or src[16] != 2:
        raise EncodeError("stamp_producer takes one record batch of magic 2")
    out = PyBytes_FromStringAndSize(<const char *>&src[0], n)
    o = <uint8_t *>PyBytes_AS_STRING(out)
    if is_transactional:
        o[22] |= ATTR_TRANSACTIONAL
    else:
        o[22] &= ~ATTR_TRANSACTIONAL
    kw_put_be64(o + 43, <uint64_t>pid)
    kw_put_be16(o + 51, <uint16_t>epoch)
    kw_put_be32(o + 53, <uint32_t>seq)
    kw_put_be32(o + 17, kw_crc32c(0, o + 21, <size_t>(n - 21)))
    return out


def build_control_batch(
    *,
    commit,
    producer_id,
    producer_epoch,
    coordinator_epoch=0,
    base_offset=0,
    timestamp=None,
    partition_leader_epoch=-1,
):
    """A transactional control batch holding one commit or abort marker."""
    cdef BatchBuilder b
    cdef uint8_t key[4]
    cdef uint8_t value[6]
    cdef int32_t epoch = <int32_t>_int_arg(coordinator_epoch, -1, INT32_MAX, "coordinator_epoch")
    _int_arg(producer_id, 0, INT64_MAX, "producer_id")
    _int_arg(producer_epoch, 0, INT16_MAX, "producer_epoch")
    b = BatchBuilder(
        base_offset=base_offset,
        partition_leader_epoch=partition_leader_epoch,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        is_transactional=True,
    )
    b._control = True
    # EndTransactionMarker: key = version, type (0 abort, 1 commit); value = version, epoch
    kw_put_be16(key, 0)
    kw_put_be16(key + 2, 1 if commit else 0)
    kw_put_be16(value, 0)
    kw_put_be32(value + 2, <uint32_t>epoch)
    b.append((<char *>value)[:6], key=(<char *>key)[:4], timestamp=timestamp)
    return b.build()
