"""The README's client code in the documented spelling (``kafkawire.Consumer``, ...), for a
type checker: tests/test_typing.py runs mypy over this file, which type-checks only if every
name is there and typed (``assert_type`` rejects ``Any``). It is never run."""

from __future__ import annotations

import asyncio
from typing import assert_type

import numpy as np

import kafkawire
from kafkawire import (
    BatchMetadata,
    ConsumerBatch,
    ConsumerRecord,
    OffsetAndMetadata,
    RecordMetadata,
    TopicPartition,
)


def consumer_example() -> None:
    config = {"group.id": "billing", "auto.offset.reset": "earliest", "enable.auto.commit": False}
    with kafkawire.Consumer("127.0.0.1:9092", config=config) as consumer:
        assert_type(consumer, kafkawire.Consumer)
        consumer.subscribe(["payments"])
        records = consumer.poll(timeout=5.0)
        assert_type(records, list[ConsumerRecord])
        for record in records:
            assert_type(record.partition, int)
            assert_type(record.offset, int)
            assert_type(record.value, bytes | None)
        consumer.commit()
        consumer.seek_to_beginning()
        batch = consumer.poll_batch(timeout=5.0)
        assert_type(batch, ConsumerBatch)
        committed = consumer.committed([TopicPartition("payments", 0)])
        assert_type(committed, dict[TopicPartition, OffsetAndMetadata | None])


def confluent_style_example() -> None:
    def on_assign(consumer: object, partitions: list[TopicPartition]) -> None: ...

    def on_commit(error: BaseException | None, partitions: list[TopicPartition]) -> None: ...

    config = {"group.id": "billing", "enable.auto.offset.store": False, "on_commit": on_commit}
    with kafkawire.Consumer(
        "127.0.0.1:9092", config=config, value_deserializer=bytes.decode
    ) as consumer:
        consumer.subscribe(["payments"], on_assign=on_assign, on_revoke=print)
        records = consumer.poll(1.0)
        consumer.store_offsets(records)
        consumer.commit(asynchronous=True)
        low, high = consumer.get_watermark_offsets(TopicPartition("payments", 0), timeout=5.0)
        assert_type(high - low, int)
        assert_type(consumer.list_topics("payments", timeout=5.0), kafkawire.ClusterMetadata)
        consumer.unsubscribe()
        consumer.incremental_assign([TopicPartition("payments", 1)])
        consumer.incremental_unassign([TopicPartition("payments", 1)])


async def asyncio_confluent_style_example() -> None:
    async with kafkawire.aio.Consumer("127.0.0.1:9092") as consumer:
        await consumer.commit(asynchronous=True)
        assert_type(await consumer.get_watermark_offsets(TopicPartition("t", 0)), tuple[int, int])
        await consumer.unsubscribe()


def producer_example() -> None:
    with kafkawire.Producer("127.0.0.1:9092", config={"linger.ms": 5}) as producer:
        future = producer.send("events", b"value", key=b"user-1")
        assert_type(future.result(), RecordMetadata)
        producer.flush()
        values = [b"bulk-%d" % i for i in range(10)]
        batch = producer.send_batch("events", values).result()
        assert_type(batch, BatchMetadata)
        assert_type(batch.offsets, np.ndarray)


def client_example() -> None:
    with kafkawire.Client("127.0.0.1:9092", config={"client.id": "loader"}) as client:
        tp = TopicPartition("loads", 0)
        client.produce_columns(tp, [b"v"], compression="zstd")
        for chunk in client.read_range(tp, 0, isolation_level=kafkawire.READ_COMMITTED):
            chunk.to_arrow()


async def asyncio_example() -> None:
    tp = TopicPartition("loads", 0)
    async with kafkawire.aio.Client("127.0.0.1:9092") as client:
        meta, ends = await asyncio.gather(client.metadata(), client.latest_offsets([tp]))
        assert_type(meta, kafkawire.ClusterMetadata)
        assert_type(ends[tp], int)
        async for chunk in client.read_range(tp, 0, ends[tp]):
            assert_type(chunk, kafkawire.RecordChunk)
    async with kafkawire.aio.Consumer("127.0.0.1:9092") as consumer:
        assert_type(await consumer.poll(1.0), list[ConsumerRecord])
    async with kafkawire.aio.Producer("127.0.0.1:9092") as producer:
        sent = await producer.send("events", b"v")  # the future, once the record is queued
        assert_type(sent, kafkawire.aio.RecordFuture)
        assert_type(await sent, RecordMetadata)
