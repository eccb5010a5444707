"""kafkawire.Producer (and kafkawire.aio.Producer) through a fault-injecting proxy in front of a
real broker (Tansu): connections reset while records stream, answers lost after the broker
wrote the records, a black-holed broker, a broker restart, a full buffer. Whatever happens,
every record whose future succeeded is in the topic exactly once (idempotence: retries write
no copies), in send order per partition; the records that could not go fail with a clear
error in time, and nothing hangs."""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
import time
import uuid

import pytest

from kafkawire.client import (
    BufferFullError,
    Client,
    ClientError,
    DeliveryTimeoutError,
    RecordMetadata,
    TopicPartition,
)
from tests.support.broker import free_port, launch_tansu
from tests.support.faces import make_producer
from tests.support.faults import BLACKHOLE, PASS, FaultProxy, proxied_tansu

pytestmark = pytest.mark.interop


@pytest.fixture(scope="module")
def proxied_broker():
    with proxied_tansu() as proxy:
        yield proxy


@pytest.fixture
def proxy(proxied_broker):
    proxied_broker.mode = PASS
    yield proxied_broker
    proxied_broker.mode = PASS


def new_topic(address: str, partitions: int = 1) -> str:
    topic = f"pfaults-{uuid.uuid4().hex[:8]}"
    with Client(address, request_timeout=20) as client:
        client.create_topics({topic: partitions})
    return topic


def read_partition(address: str, topic: str, partition: int) -> list[tuple[int, bytes]]:
    """(offset, value) of every record of the partition, read through the proxy (passing)."""
    out = []
    with Client(address, request_timeout=20, retries=5) as client:
        for chunk in client.read_range(TopicPartition(topic, partition), 0):
            view = chunk.view
            out += [
                (int(view.offsets[i]), bytes(view.value(i))) for i in range(chunk.start, chunk.stop)
            ]
    return out


def close_within(producer, face: str, timeout: float) -> None:
    """``close(timeout)`` on either face (the asyncio adapter's close takes no timeout); a
    second call does nothing."""
    if face == "sync":
        producer.close(timeout)
    elif not producer._loop.is_closed():
        try:
            producer._wait(producer._client.close(timeout))
        finally:
            producer.close()  # (closed already: stops the adapter's loop)


def outcome(future, timeout: float):
    """The future's RecordMetadata, or the exception it raised."""
    try:
        return future.result(timeout)
    except Exception as exc:
        return exc


@contextlib.contextmanager
def resetting(proxy: FaultProxy, every: float) -> None:
    """Every open connection through the proxy is reset every ``every`` seconds."""
    stop = threading.Event()

    def run():
        while not stop.wait(every):
            proxy.reset()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)


def check_exactly_once(address, topic, partitions, sent: dict[int, list[bytes]], metadata):
    """Each partition holds its acknowledged values exactly once, in send order, each at the
    offset its future gave (when it gave one)."""
    for p in range(partitions):
        stored = read_partition(address, topic, p)
        values = [v for _, v in stored]
        assert len(values) == len(set(values)), f"partition {p}: a record was written twice"
        assert values == sent.get(p, []), f"partition {p}: records lost, added or reordered"
        at = dict(stored)
        for md, value in metadata:
            if md.partition == p and md.offset >= 0:
                assert at[md.offset] == value, "the future's offset is not the record's"


# ---- (1) resets while records stream --------------------------------------------------------


def test_resets_while_streaming_write_each_record_once_in_order(face, proxy):
    """Connections are reset every 100 ms while 12,000 keyed records stream to 3 partitions in
    many small batches: every future succeeds, and each partition holds its records once, in
    the order they were sent."""
    topic = new_topic(proxy.address, 3)
    config = {
        "batch.size": 4096,
        "linger.ms": 2,
        "retry.backoff.ms": 10,
        "request.timeout.ms": 5000,
    }
    resets = proxy.resets
    futures = []
    with make_producer(face, proxy.address, config=config) as producer:
        producer.send(topic, b"warm-up", partition=0).result(20)
        with resetting(proxy, 0.1):
            for i in range(12_000):
                value = b"%06d" % i
                futures.append((producer.send(topic, value, key=b"k%d" % (i % 50)), value))
                if i % 300 == 299:
                    time.sleep(0.05)  # a stream, not one burst
            assert producer.flush(60) == 0
        results = [(future.result(5), value) for future, value in futures]
    assert proxy.resets - resets >= 5
    sent: dict[int, list[bytes]] = {0: [b"warm-up"]}
    for md, value in results:
        assert isinstance(md, RecordMetadata)
        sent.setdefault(md.partition, []).append(value)
    check_exactly_once(proxy.address, topic, 3, sent, results)


# ---- (2) answers lost after the broker wrote the records ------------------------------------


def test_lost_produce_answers_are_retried_without_copies(face, proxy):
    """The connection is reset right after the broker received a Produce request and before
    its answer reaches the producer: the batch was written, the producer cannot know. It
    sends the batch again with the same sequence numbers and the broker keeps one copy."""
    topic = new_topic(proxy.address, 1)
    config = {"linger.ms": 20, "retry.backoff.ms": 10, "request.timeout.ms": 5000}
    sent = [b"warm-up"]
    results = []
    with make_producer(face, proxy.address, config=config) as producer:
        results.append((producer.send(topic, b"warm-up").result(20), b"warm-up"))
        for round_ in range(12):
            values = [b"%02d-%04d" % (round_, i) for i in range(300)]
            if round_ % 2 == 0:  # (the odd rounds: nothing goes wrong)
                proxy.cut_next_answer(after=0)  # the next answer (the Produce's) is lost
            futures = [producer.send(topic, v) for v in values]
            assert producer.flush(30) == 0
            results += [(f.result(5), v) for f, v in zip(futures, values, strict=True)]
            sent += values
    assert proxy._cut_after is None  # every cut happened
    check_exactly_once(proxy.address, topic, 1, {0: sent}, results)


# ---- (3) a black hole -------------------------------------------------------------------------

HOLE_CONFIG = {
    "delivery.timeout.ms": 3000,
    "request.timeout.ms": 1000,
    "retry.backoff.ms": 50,
    "linger.ms": 5,
}


def test_black_hole_fails_its_records_in_time_then_recovers(face, proxy):
    """The broker stops answering (connections stay open, nothing passes either way). The
    records sent during the hole fail with DeliveryTimeoutError once delivery.timeout.ms has
    passed (plus at most the request in flight's timeout); those acknowledged before keep
    their metadata; once the hole lifts, new records go. The topic holds every acknowledged
    record once, and no record twice (a failed one may or may not be there: the broker may
    have written it before the hole swallowed its answer)."""
    topic = new_topic(proxy.address, 2)
    with make_producer(face, proxy.address, config=HOLE_CONFIG) as producer:
        before = [
            (producer.send(topic, b"before-%03d" % i, partition=i % 2), i) for i in range(200)
        ]
        assert producer.flush(20) == 0
        acknowledged = [(f.result(5), b"before-%03d" % i) for f, i in before]
        proxy.mode = BLACKHOLE
        try:
            started = time.monotonic()
            during = [producer.send(topic, b"during-%03d" % i, partition=i % 2) for i in range(100)]
            failures = [outcome(f, 15) for f in during]
            took = time.monotonic() - started
        finally:
            proxy.mode = PASS
        for failure in failures:
            assert isinstance(failure, DeliveryTimeoutError), failure
            assert "delivery.timeout.ms" in str(failure)
        # 3 s, then at most the request in flight (1 s + the producer's 1 s of grace) and a
        # retry's backoff; not the 120 s default, nor forever
        assert 2.9 < took < 3 + 2 + 1.5, took
        after = [(producer.send(topic, b"after-%03d" % i, partition=i % 2), i) for i in range(200)]
        assert producer.flush(30) == 0
        acknowledged += [(f.result(5), b"after-%03d" % i) for f, i in after]
    for p in range(2):
        values = [v for _, v in read_partition(proxy.address, topic, p)]
        assert len(values) == len(set(values)), f"partition {p}: a record was written twice"
        mine = [v for md, v in acknowledged if md.partition == p]
        assert [v for v in values if not v.startswith(b"during")] == mine
        assert set(values) - set(mine) <= {b"during-%03d" % i for i in range(p, 100, 2)}


# ---- (5) a full buffer ------------------------------------------------------------------------


def fill_until_full(producer, topic: str, partitions: int) -> tuple[list, float]:
    """Send 1 KiB records (round robin over the partitions) until send raises
    BufferFullError: the futures of those it took, and how long the refused send blocked.
    Each send runs on a helper thread and must return within 5 s (max.block.ms is 1 s): a
    send stuck past that is stopped (the producer is made to fail) and the test fails."""
    futures = []
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        for i in range(20_000):
            value = b"%05d" % i + b"x" * 1019
            started = time.monotonic()
            call = pool.submit(producer.send, topic, value, partition=i % partitions)
            try:
                futures.append(call.result(5))
            except BufferFullError as exc:
                assert "queue.buffering.max.kbytes" in str(exc) or "max.block.ms" in str(exc)
                return futures, time.monotonic() - started
            except concurrent.futures.TimeoutError:
                stop_stuck_send(producer)
                pytest.fail(
                    f"send of record {i} did not return in 5 s with max.block.ms=1000 "
                    f"({len(futures)} records taken)"
                )
    pytest.fail("20 MiB went into a producer of 64 KiB of buffer without BufferFullError")


def stop_stuck_send(producer) -> None:
    """Break a send that loops without end: the producer's core turns fatal, which its next
    append raises (so that the rest of the module is not starved by a spinning thread)."""
    core = producer._producer if hasattr(producer, "_producer") else producer._client._producer
    core.fatal = ClientError("stopped by the test: send did not return")


def test_full_buffer_blocks_for_max_block_then_raises(face, proxy):
    """queue.buffering.max.kbytes=64 and the broker black-holed: send takes records until the
    buffer is full, then blocks for max.block.ms and raises BufferFullError (memory stays
    bounded). The records it took are not lost: they go once the broker is back."""
    topic = new_topic(proxy.address, 1)
    config = {
        "queue.buffering.max.kbytes": 64,
        "max.block.ms": 1000,
        "batch.size": 16384,
        "request.timeout.ms": 1000,
        "retry.backoff.ms": 50,
    }
    producer = make_producer(face, proxy.address, config=config)
    try:
        producer.send(topic, b"warm-up").result(20)  # the topic and a producer id are known
        proxy.mode = BLACKHOLE
        try:
            futures, blocked = fill_until_full(producer, topic, 1)
        finally:
            proxy.mode = PASS
        assert 0.9 < blocked < 3, blocked
        # 64 KiB, give or take the open batch (batch.size) the limit is checked against
        assert 32 <= len(futures) <= 64 + 16 + 2, len(futures)
        assert producer.flush(30) == 0
        offsets = [f.result(5).offset for f in futures]
    finally:
        close_within(producer, face, 5)
    values = [v for _, v in read_partition(proxy.address, topic, 0)]
    assert values[1:] == [b"%05d" % i + b"x" * 1019 for i in range(len(futures))]
    assert all(o == -1 or o == i + 1 for i, o in enumerate(offsets))


def test_buffer_limit_holds_with_the_default_batch_size(face, proxy):
    """The same with batch.size left at its default (1,000,000) and 4 partitions: what send
    takes before BufferFullError stays near queue.buffering.max.kbytes (64 KiB), not a
    partially filled batch of up to batch.size per partition on top of it."""
    topic = new_topic(proxy.address, 4)
    config = {
        "queue.buffering.max.kbytes": 64,
        "max.block.ms": 1000,
        "request.timeout.ms": 1000,
        "delivery.timeout.ms": 3000,
    }
    producer = make_producer(face, proxy.address, config=config)
    try:
        for p in range(4):
            producer.send(topic, b"warm-up", partition=p).result(20)
        proxy.mode = BLACKHOLE
        try:
            futures, blocked = fill_until_full(producer, topic, 4)
        finally:
            proxy.mode = PASS
    finally:
        close_within(producer, face, 5)
    assert 0.9 < blocked < 3, blocked
    taken = len(futures) * 1024
    assert taken <= 2 * 64 * 1024, f"{taken} bytes of records taken with a 64 KiB buffer"


# ---- (6) flush and close during a black hole --------------------------------------------------


def test_flush_and_close_in_a_black_hole_end_in_time(face, proxy):
    """flush(timeout) in a black hole returns the number of records not delivered; close(timeout)
    then fails them (their futures raise) instead of waiting for delivery.timeout.ms
    (120 s by default) or hanging."""
    topic = new_topic(proxy.address, 2)
    config = {"request.timeout.ms": 1000, "retry.backoff.ms": 50, "linger.ms": 5}
    producer = make_producer(face, proxy.address, config=config)
    try:
        first = producer.send(topic, b"before", partition=0)
        assert first.result(20).offset == 0
        proxy.mode = BLACKHOLE
        futures = [producer.send(topic, b"%03d" % i, partition=i % 2) for i in range(300)]
        started = time.monotonic()
        assert producer.flush(1.0) == 300
        assert 0.9 < time.monotonic() - started < 2
        started = time.monotonic()
        close_within(producer, face, 1.0)
        # the flush's second, then at most the request in flight (1 s + 1 s of grace)
        closed_in = time.monotonic() - started
    finally:
        proxy.mode = PASS
        close_within(producer, face, 5)
    assert closed_in < 1 + 2 + 0.5, closed_in
    for f in futures:
        assert f.done()
    outcomes = [outcome(f, 0) if face == "sync" else f._future.exception() for f in futures]
    for failure in outcomes:
        assert isinstance(failure, ClientError), failure


def test_an_asyncio_close_that_runs_out_of_time_fails_the_records_in_flight(proxy):
    """The asyncio producer's close(timeout) stops its sender when the time is up; records in
    requests still unanswered then fail at once ("closed before delivery") instead of being
    left with futures that never end (the request would time out only after 30 s)."""
    topic = new_topic(proxy.address, 1)
    config = {"request.timeout.ms": 30000, "linger.ms": 0}
    producer = make_producer("asyncio", proxy.address, config=config)
    try:
        assert producer.send(topic, b"before").result(20).offset == 0
        proxy.mode = BLACKHOLE
        futures = [producer.send(topic, b"%03d" % i) for i in range(50)]
        close_within(producer, "asyncio", 0.5)
    finally:
        proxy.mode = PASS
        close_within(producer, "asyncio", 5)
    assert all(f.done() for f in futures)
    failures = [f._future.exception() for f in futures]
    assert all(
        isinstance(e, ClientError) and "closed before delivery" in str(e) for e in failures
    ), failures


# ---- (4) the broker restarts --------------------------------------------------------------------


def test_broker_restart_mid_stream_is_recovered_from(face):
    """The broker stops while records stream and comes back on the same port. Tansu keeps
    everything in memory: the restarted broker has lost the topic (it is created again, as an
    operator would) and every producer id and sequence number it knew. So only recovery is
    checked: the records sent after it came back are delivered within seconds, and what the
    topic holds is each acknowledged record once, in order. The records acknowledged before
    the restart are gone with the broker's memory; those sent while it was down may fail
    (their sequence numbers continue a producer id the new broker never gave, as a Java
    producer's first batch after such a loss fails too), but not hold up the later ones."""
    port = free_port()
    proxy = FaultProxy(port)
    process = launch_tansu(port, proxy.address)
    topic = f"restart-{uuid.uuid4().hex[:8]}"
    config = {
        "request.timeout.ms": 2000,
        "retry.backoff.ms": 50,
        "delivery.timeout.ms": 60000,
        "linger.ms": 5,
    }
    producer = None
    try:
        with Client(proxy.address, request_timeout=20) as client:
            client.create_topics([topic])
        producer = make_producer(face, proxy.address, config=config)
        before = [producer.send(topic, b"before-%03d" % i) for i in range(100)]
        assert producer.flush(20) == 0
        assert [f.result(5).offset for f in before] == list(range(100))
        process.terminate()
        process.wait(10)
        proxy.reset()
        down = [(producer.send(topic, b"down-%03d" % i), b"down-%03d" % i) for i in range(100)]
        time.sleep(1)  # the producer finds nobody there, and retries
        process = launch_tansu(port, proxy.address)
        with Client(proxy.address, request_timeout=20) as client:
            client.create_topics([topic])
        after = [(producer.send(topic, b"after-%03d" % i), b"after-%03d" % i) for i in range(100)]
        deadline = time.monotonic() + 10
        delivered = [(outcome(f, max(0.1, deadline - time.monotonic())), v) for f, v in after]
        for md, _ in delivered:
            assert isinstance(md, RecordMetadata), f"a record sent after the restart: {md!r}"
        acknowledged = []
        for f, v in down:
            md = outcome(f, 5)
            assert isinstance(md, (RecordMetadata, ClientError)), md
            if isinstance(md, RecordMetadata):
                acknowledged.append((md, v))
        acknowledged += delivered
        close_within(producer, face, 10)
        check_exactly_once(proxy.address, topic, 1, {0: [v for _, v in acknowledged]}, acknowledged)
    finally:
        if producer is not None:
            close_within(producer, face, 1)
        proxy.close()
        process.terminate()
        process.wait(10)
