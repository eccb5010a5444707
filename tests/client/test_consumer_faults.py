"""The consumer through a fault-injecting proxy in front of a real broker: connections reset
and answers cut mid-frame while it reads and commits, a black-holed broker. Whatever
happens, a consumer that commits after processing sees every record exactly once, and no
poll outlasts the configured timeouts. (Tansu only: the faults are the proxy's, cutting bytes
mid-frame; the mock cluster's own fault API is exercised in test_consumer_mock_chaos.py.)"""

from __future__ import annotations

import time
import uuid

import pytest

from kafkawire.client import Client, TopicPartition
from tests.support.broker import free_port, launch_tansu
from tests.support.faces import FACES, make_consumer
from tests.support.faults import BLACKHOLE, PASS, proxied_tansu

pytestmark = pytest.mark.interop

RECORDS = 6000


@pytest.fixture(scope="module")
def proxy():
    with proxied_tansu() as proxy:
        yield proxy


@pytest.fixture(scope="module")
def topic(proxy):
    name = f"faults-{uuid.uuid4().hex[:8]}"
    with Client(proxy.address, request_timeout=20) as client:
        client.create_topics({name: 2})
        for p in range(2):
            values = [b"%d-%08d" % (p, i) for i in range(RECORDS // 2)]
            for start in range(0, len(values), 250):  # many batches: many fetches
                client.produce_columns((name, p), values[start : start + 250])
    return name


CONFIG = {
    "auto.offset.reset": "earliest",
    "enable.auto.commit": False,
    "max.partition.fetch.bytes": 4096,  # a few batches a fetch: many fetches
    "request.timeout.ms": 3000,
    "retry.backoff.ms": 20,
}


@pytest.mark.parametrize("face", FACES)
def test_resets_and_cut_answers_lose_and_repeat_nothing(proxy, topic, face):
    proxy.mode = PASS
    tps = [TopicPartition(topic, p) for p in range(2)]
    config = {**CONFIG, "group.id": f"g-{uuid.uuid4().hex[:8]}"}
    seen = []
    polls = 0
    deadline = time.monotonic() + 120
    while len(seen) < RECORDS and time.monotonic() < deadline:
        # a consumer that commits after processing; now and then it is replaced by a new
        # one that starts from the commit, as after a crash
        with make_consumer(face, proxy.address, config=config) as consumer:
            consumer.assign(tps)
            for _ in range(15):
                polls += 1
                if polls % 7 == 0:
                    proxy.reset()
                elif polls % 7 == 3:
                    proxy.cut_next_answer(after=40 + polls)
                records = consumer.poll(1.0, max_records=300)
                seen += [r.value for r in records]
                try:
                    consumer.commit()
                except Exception as exc:  # a commit that failed: a real consumer stops here
                    pytest.fail(f"commit failed after retries: {exc!r}")
    expected = sorted(b"%d-%08d" % (p, i) for p in range(2) for i in range(RECORDS // 2))
    assert sorted(seen) == expected  # each once: nothing lost, nothing repeated
    assert proxy.resets >= 5


@pytest.mark.parametrize("face", FACES)
def test_a_black_holed_broker_does_not_hang_poll(proxy, face):
    proxy.mode = PASS
    tp = TopicPartition(f"faults-{uuid.uuid4().hex[:8]}", 0)
    with Client(proxy.address, request_timeout=20) as client:
        client.create_topics([tp.topic])
        client.produce_columns(tp, [b"%08d" % i for i in range(1000)])
    got = []
    with make_consumer(face, proxy.address, config=CONFIG) as consumer:
        consumer.assign([tp])
        while records := consumer.poll(5.0):
            got += records
        proxy.mode = BLACKHOLE  # the fetch in flight gets no answer, nor do the next ones
        try:
            for _ in range(3):
                start = time.monotonic()
                assert consumer.poll(1.0) == []
                # the poll's timeout, plus at most one request timeout (a metadata call)
                assert time.monotonic() - start < 1 + 3 + 2
        finally:
            proxy.mode = PASS
        with Client(proxy.address, request_timeout=20) as client:
            client.produce_columns(tp, [b"%08d" % i for i in range(1000, 1500)])
        deadline = time.monotonic() + 30
        while len(got) < 1500 and time.monotonic() < deadline:
            got += consumer.poll(1.0)
    assert [r.value for r in got] == [b"%08d" % i for i in range(1500)]


@pytest.mark.parametrize("face", FACES)
def test_a_restarted_broker_is_reconnected_to(face):
    """The broker restarts under a consumer. Tansu keeps topics in memory, so the restarted
    broker has lost them: the consumer reconnects, finds its position out of range once the
    topic is back, and follows auto.offset.reset to the new records, without hanging."""
    port = free_port()
    process = launch_tansu(port)
    topic = f"restart-{uuid.uuid4().hex[:8]}"
    tp = TopicPartition(topic, 0)
    try:
        with Client(f"127.0.0.1:{port}") as client:
            client.create_topics([topic])
            client.produce_columns(tp, [b"before-%d" % i for i in range(20)])
        config = {**CONFIG, "request.timeout.ms": 2000, "retries": 2}
        with make_consumer(face, f"127.0.0.1:{port}", config=config) as consumer:
            consumer.assign([tp])
            got = []
            while len(got) < 20:
                got += consumer.poll(5.0)
            process.terminate()
            process.wait(10)
            process = launch_tansu(port)
            start = time.monotonic()
            assert consumer.poll(1.0) == []  # the topic is gone: nothing, and no hang
            assert time.monotonic() - start < 10
            with Client(f"127.0.0.1:{port}") as client:
                client.create_topics([topic])
                client.produce_columns(tp, [b"after-%d" % i for i in range(5)])
            deadline = time.monotonic() + 30
            while len(got) < 25 and time.monotonic() < deadline:
                got += consumer.poll(1.0)
        assert [r.value for r in got] == [b"before-%d" % i for i in range(20)] + [
            b"after-%d" % i for i in range(5)
        ]
    finally:
        process.terminate()
        process.wait(10)
