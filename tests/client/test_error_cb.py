"""error_cb (librdkafka's error events): with it set, a consumer's poll that lost its brokers
tells error_cb and returns nothing rather than raising, and a producer's poll hands error_cb
the connection failures its sender met; without it, poll raises as before."""

from __future__ import annotations

import itertools
import time

import pytest

from kafkawire.client import BrokerConnectionError, RequestTimeoutError, TopicPartition
from tests.client.test_deadline_model import closed_port
from tests.support.faces import make_consumer, make_producer


def test_consumer_poll_tells_error_cb_instead_of_raising(face):
    address = closed_port()
    heard: list[BaseException] = []
    consumer = make_consumer(face, address, config={"error_cb": heard.append}, retries=1)
    try:
        consumer.assign([TopicPartition("t", 0)])
        deadline = time.monotonic() + 30
        while not heard and time.monotonic() < deadline:
            assert consumer.poll(0.3) == []  # never raises: error_cb hears it
    finally:
        consumer.close(timeout=1)
    assert heard and isinstance(heard[0], (BrokerConnectionError, RequestTimeoutError))
    assert address in str(heard[0])


def test_without_error_cb_the_poll_raises(face):
    address = closed_port()
    consumer = make_consumer(face, address, retries=1)
    try:
        consumer.assign([TopicPartition("t", 0)])
        deadline = time.monotonic() + 30
        with pytest.raises((BrokerConnectionError, RequestTimeoutError), match=address):
            while time.monotonic() < deadline:
                consumer.poll(0.3)
    finally:
        consumer.close(timeout=1)


def test_producer_poll_hands_error_cb_the_sender_failures(face):
    address = closed_port()
    heard: list[BaseException] = []
    # reconnect.backoff.max.ms short: the metadata's attempts (and the record) fail soon
    config = {"error_cb": heard.append, "reconnect.backoff.max.ms": 100}
    producer = make_producer(face, address, config=config)
    try:
        future = producer.send("t", b"v")
        deadline = time.monotonic() + 30
        while not heard and time.monotonic() < deadline:
            producer.poll(0.2)
        assert future.exception(timeout=30) is not None
    finally:
        producer.close(timeout=1)
    assert heard and all(address in str(e) for e in heard)
    # a failure that repeats (each retry of it) is heard once
    assert all(str(a) != str(b) for a, b in itertools.pairwise(heard))
