"""Produce: record batches to one partition, plain or idempotent (InitProducerId)."""

from __future__ import annotations

from collections.abc import Sequence

from kafkawire.errors import CorruptError
from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ErrorCode, raise_for_code
from kafkawire.records import build_batches

from ..core import ClientCore
from ..flow import ANY_BROKER, Flow
from ..types import IdempotentProducer, ProduceResult, TopicPartition


def produce(
    core: ClientCore,
    tp: TopicPartition,
    batches: bytes | Sequence[bytes],
    *,
    acks: int = -1,
    timeout_ms: int = 30000,
    transactional_id: str | None = None,
) -> Flow[ProduceResult]:
    """Append record batches (from BatchBuilder / build_batches) to one partition; one Produce
    request per batch (brokers take one batch per partition per request), in order."""
    tp = TopicPartition(*tp)
    if isinstance(batches, (bytes, bytearray, memoryview)):
        batches = [batches]
    if acks not in (0, 1, -1):
        raise ValueError(f"acks must be 0, 1 or -1 (all), not {acks!r}")
    first = None
    for batch in batches:
        result = yield from _produce_one(core, tp, batch, acks, timeout_ms, transactional_id)
        first = first or result
    if first is None:
        raise ValueError("no batches to produce")
    return first


def _produce_one(core, tp, batch, acks, timeout_ms, transactional_id) -> Flow[ProduceResult]:
    idempotent = _producer_id(batch) >= 0
    request = m.ProduceRequest(
        transactional_id=transactional_id,
        acks=acks,
        timeout_ms=timeout_ms,
        topic_data=[
            m.ProduceRequest.TopicProduceData(
                name=tp.topic,
                partition_data=[
                    m.ProduceRequest.PartitionProduceData(index=tp.partition, records=batch)
                ],
            )
        ],
    )

    def attempt():
        leader = yield from core.leader(tp)
        response = yield core.call(leader, request, extra_timeout=timeout_ms / 1000)
        if response is None:  # acks=0
            return ProduceResult(-1, -1, -1)
        for t in response.responses:
            for p in t.partition_responses:
                if p.error_code == ErrorCode.DUPLICATE_SEQUENCE_NUMBER and idempotent:
                    # an earlier try of this batch was written, its answer lost: done
                    return ProduceResult(-1, -1, p.log_start_offset)
                raise_for_code(p.error_code, p.error_message or f"{tp.topic}-{tp.partition}")
                return ProduceResult(p.base_offset, p.log_append_time_ms, p.log_start_offset)
        raise CorruptError(f"Produce answer lacks {tp.topic}-{tp.partition}")

    # Retrying a produce after a lost answer can write the batch twice unless it is idempotent
    # (producer id and sequence set): the broker then drops the duplicate.
    return (yield from core.retrying(attempt, "Produce"))


def _producer_id(batch) -> int:
    """The producer id of a record batch (magic 2), -1 for none or a legacy message set."""
    if len(batch) < 51 or batch[16] != 2:
        return -1
    return int.from_bytes(batch[43:51], "big", signed=True)


def produce_columns(
    core: ClientCore,
    tp: TopicPartition,
    values,
    *,
    keys=None,
    timestamps=None,
    headers=None,
    compression=None,
    acks: int = -1,
    max_batch_bytes: int = 1048576,
    producer: IdempotentProducer | None = None,
    timeout_ms: int = 30000,
) -> Flow[ProduceResult]:
    """Encode columns (as build_batches takes them: Arrow, numpy or lists) into batches and
    produce them to one partition. With ``producer`` the batches carry its producer id, epoch
    and sequence numbers (exactly-once appends per partition)."""
    tp = TopicPartition(*tp)
    producer_fields = {} if producer is None else producer.next_fields(tp)
    batches = build_batches(
        values,
        keys=keys,
        timestamps=timestamps,
        headers=headers,
        compression=compression,
        max_bytes=max_batch_bytes,
        **producer_fields,
    )
    if not batches:
        raise ValueError("no records to produce")
    result = yield from produce(core, tp, batches, acks=acks, timeout_ms=timeout_ms)
    if producer is not None:
        producer.advance(tp, len(values))
    return result


def init_producer_id(
    core: ClientCore,
    transactional_id: str | None = None,
    *,
    transaction_timeout_ms: int = 60000,
) -> Flow[tuple[int, int]]:
    """A producer id and epoch from the broker (InitProducerId)."""
    if transactional_id is not None:
        raise NotImplementedError("transactional producers need a coordinator lookup")
    request = m.InitProducerIdRequest(
        transactional_id=None,
        transaction_timeout_ms=transaction_timeout_ms,
        producer_id=-1,
        producer_epoch=-1,
    )

    def attempt():
        response = yield core.call(ANY_BROKER, request)
        raise_for_code(response.error_code, "InitProducerId")
        return response.producer_id, response.producer_epoch

    return (yield from core.retrying(attempt, "InitProducerId"))


def idempotent_producer(core: ClientCore) -> Flow[IdempotentProducer]:
    """A producer identity for produce_columns(..., producer=...)."""
    producer_id, epoch = yield from init_producer_id(core)
    return IdempotentProducer(producer_id, epoch)
