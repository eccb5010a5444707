"""The client through a fault-injecting proxy in front of a real broker (Tansu): connection
resets, answers cut mid-frame, black holes and trickles, in both faces. Reads must return
every record exactly once and in order; calls must end within their timeouts; the client must
go on working once the faults stop."""

from __future__ import annotations

import time
import uuid

import numpy as np
import pytest

from kafkawire.client import IdempotentProducer, RequestTimeoutError, TopicPartition
from tests.support.faces import make_client
from tests.support.faults import BLACKHOLE, PASS, TRICKLE, proxied_tansu

pytestmark = pytest.mark.interop
RECORDS = 20_000


@pytest.fixture(scope="module")
def proxied_broker():
    with proxied_tansu() as proxy:
        yield proxy


@pytest.fixture
def proxy(proxied_broker):
    proxied_broker.mode = PASS
    yield proxied_broker
    proxied_broker.mode = PASS


def filled_topic(client, n: int = RECORDS) -> TopicPartition:
    tp = TopicPartition(f"faults-{uuid.uuid4().hex[:8]}", 0)
    client.create_topics([tp.topic])
    values = [b"%08d" % i for i in range(n)]
    for start in range(0, n, 1000):  # many batches: many fetches with a small fetch size
        client.produce_columns(tp, values[start : start + 1000])
    return tp


def read_values(client, tp, end: int, *, start: int = 0) -> list[bytes]:
    out = []
    for chunk in client.read_range(tp, start, end, partition_max_bytes=16384):
        view = chunk.view
        out += [bytes(view.value(i)) for i in range(chunk.start, chunk.stop)]
    return out


def test_reads_survive_resets_without_loss_or_duplicates(face, proxy):
    """The topic is read in windows; before each, the proxy resets the connection or arranges
    for the next answer to be cut mid-frame."""
    with make_client(face, proxy.address, retries=5, retry_backoff=0.01) as client:
        tp = filled_topic(client)
        values = []
        for n, start in enumerate(range(0, RECORDS, 1000)):
            if n % 2:
                proxy.reset()
            else:
                proxy.cut_next_answer(after=50 + n)
            values += read_values(client, tp, start + 1000, start=start)
    assert values == [b"%08d" % i for i in range(RECORDS)]


def test_answer_cut_mid_frame_is_retried(face, proxy):
    with make_client(face, proxy.address, retries=3, retry_backoff=0.01) as client:
        tp = filled_topic(client, 2000)
        proxy.cut_next_answer(after=100)  # the next answer stops 100 bytes in
        assert read_values(client, tp, 2000) == [b"%08d" % i for i in range(2000)]


@pytest.mark.parametrize("mode", [BLACKHOLE, TRICKLE])
def test_black_hole_and_trickle_end_in_time_then_recover(face, proxy, mode):
    with make_client(face, proxy.address, request_timeout=0.5, retries=1) as client:
        tp = filled_topic(client, 3000)
        proxy.mode = mode
        start = time.monotonic()
        with pytest.raises(RequestTimeoutError):
            read_values(client, tp, 3000)
        # two attempts of 0.5 s (+ the fetch's max wait), a backoff and a metadata refresh
        assert time.monotonic() - start < 6
        proxy.mode = PASS
        assert len(read_values(client, tp, 3000)) == 3000


def test_idempotent_produce_through_resets_writes_each_record_once(face, proxy):
    """Produces whose answers are lost are sent again with the same sequence numbers; the
    broker keeps one copy. Every acknowledged record is there exactly once."""
    with make_client(face, proxy.address, retries=20, retry_backoff=0.01) as client:
        tp = TopicPartition(f"faults-{uuid.uuid4().hex[:8]}", 0)
        client.create_topics([tp.topic])
        producer: IdempotentProducer = client.idempotent_producer()
        acknowledged = []
        for batch in range(30):
            values = [b"%04d-%04d" % (batch, i) for i in range(200)]
            if batch % 3 == 1:
                proxy.cut_next_answer(after=0)  # the produce lands, its answer is lost
            client.produce_columns(tp, values, producer=producer)
            acknowledged += values
        got = read_values(client, tp, len(acknowledged) + 1000)
    assert len(got) == len(set(got)), "a record was written twice"
    assert sorted(got) == sorted(acknowledged)
    assert got == acknowledged  # and in order
    assert np.all(np.diff([int(v[:4]) for v in got]) >= 0)
