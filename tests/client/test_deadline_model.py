"""One deadline model, through both faces: every blocking call returns or raises by its
``timeout`` whatever the peer is (silent after connecting, a closed port, an HTTP server), and
says the address, the elapsed time and the requests that failed; ``poll`` returns by its
timeout while a group join goes on across polls; ``Producer.send`` never waits on the network
(the record's future fails instead).

The margins are generous (a loaded 2-core machine): what they catch is a call that runs its
retries to the end (tens of seconds) instead of stopping at its timeout."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
import uuid

import pytest

from kafkawire.client import (
    BrokerConnectionError,
    Client,
    ClientError,
    DeliveryTimeoutError,
    NotKafkaError,
    RequestTimeoutError,
    TopicPartition,
)
from tests.client.test_client_faults import Peer
from tests.support.faces import make_client, make_consumer, make_producer

MARGIN = 1.5  # seconds past a call's timeout that still count as "by its timeout"
TIMEOUT = 1.0


def silent_peer() -> Peer:
    """Accepts connections and never answers (a hung broker, a black-holed port)."""

    def handler(peer, conn, index):
        time.sleep(30)

    return Peer(handler)


def http_peer() -> Peer:
    def handler(peer, conn, index):
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        time.sleep(1)

    return Peer(handler)


def closed_port() -> str:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return f"127.0.0.1:{server.getsockname()[1]}"


@pytest.fixture(scope="module")
def peers():
    silent, http = silent_peer(), http_peer()
    yield {"silent": silent.address, "http": http.address, "closed": closed_port()}
    silent.close()
    http.close()


# what each kind of peer makes a call raise, and what its message must say
EXPECTED = {
    "silent": (RequestTimeoutError, r"no answer from {address}"),
    # refused, and then not dialled again before reconnect.backoff.ms
    "closed": ((RequestTimeoutError, BrokerConnectionError), r"{address}.*\[Errno 111\]"),
    "http": (NotKafkaError, r"{address} answered like an HTTP server"),
}


def ends_in_time(call, kind: str, address: str, timeout: float = TIMEOUT) -> str:
    """Run ``call``; it must raise what ``kind`` of peer makes it raise, by its timeout, with
    the address (and, for a deadline, the elapsed time and the failed requests) in the
    message. The message."""
    errors, pattern = EXPECTED[kind]
    start = time.monotonic()
    with pytest.raises(errors, match=pattern.format(address=address)) as caught:
        call()
    elapsed = time.monotonic() - start
    assert elapsed < timeout + MARGIN, f"{elapsed:.1f} s: {caught.value}"
    message = str(caught.value)
    if "not done in" in message:
        assert f"not done in {timeout:g} s" in message
        assert "gave up after" in message and "failed, the last:" in message
    return message


CLIENT_CALLS = {
    "metadata": lambda c, t: c.metadata(timeout=t),
    "partitions_for": lambda c, t: c.partitions_for("t", timeout=t),
    "list_offsets": lambda c, t: c.list_offsets({TopicPartition("t", 0): -1}, timeout=t),
    "earliest_offsets": lambda c, t: c.earliest_offsets([TopicPartition("t", 0)], timeout=t),
    "latest_offsets": lambda c, t: c.latest_offsets([TopicPartition("t", 0)], timeout=t),
    "fetch": lambda c, t: c.fetch({TopicPartition("t", 0): 0}, timeout=t),
    "produce": lambda c, t: c.produce(TopicPartition("t", 0), [b""], timeout=t),
    "produce_columns": lambda c, t: c.produce_columns(TopicPartition("t", 0), [b"v"], timeout=t),
    "init_producer_id": lambda c, t: c.init_producer_id(timeout=t),
    "idempotent_producer": lambda c, t: c.idempotent_producer(timeout=t),
    "create_topics": lambda c, t: c.create_topics(["t"], timeout=t),
    "delete_topics": lambda c, t: c.delete_topics(["t"], timeout=t),
    "create_partitions": lambda c, t: c.create_partitions({"t": 2}, timeout=t),
    "list_groups": lambda c, t: c.list_groups(timeout=t),
    "describe_groups": lambda c, t: c.describe_groups(["g"], timeout=t),
    "list_group_offsets": lambda c, t: c.list_group_offsets("g", timeout=t),
    "group_lag": lambda c, t: c.group_lag("g", timeout=t),
    "delete_group_offsets": lambda c, t: c.delete_group_offsets(
        "g", [TopicPartition("t", 0)], timeout=t
    ),
    "delete_groups": lambda c, t: c.delete_groups(["g"], timeout=t),
    "describe_configs": lambda c, t: c.describe_configs({"topic": ["t"]}, timeout=t),
    "alter_configs": lambda c, t: c.alter_configs({("topic", "t"): {"a": "b"}}, timeout=t),
}


def test_every_client_method_takes_a_timeout():
    from kafkawire.client.faces import _Methods

    public = {
        name
        for name in vars(_Methods)
        if not name.startswith("_") and callable(getattr(_Methods, name))
    }
    assert public == set(CLIENT_CALLS)


@pytest.mark.parametrize("kind", ["silent", "closed", "http"])
def test_client_calls_end_by_their_timeout(face, peers, kind):
    address = peers[kind]
    # request.timeout.ms and the retries are far longer than the call's timeout: the
    # timeout bounds them all
    with make_client(face, address, request_timeout=30, retries=50) as client:
        for name, call in CLIENT_CALLS.items():
            message = ends_in_time(lambda call=call: call(client, TIMEOUT), kind, address)
            if kind != "http":
                assert message.startswith(f"{name}: not done in"), message


def test_default_api_timeout_bounds_a_call_without_one(face, peers):
    """No timeout given: default.api.timeout.ms, not request.timeout.ms x the retries."""
    address = peers["silent"]
    config = {"default.api.timeout.ms": 1200, "request.timeout.ms": 30000, "retries": 50}
    with make_client(face, address, config=config) as client:
        message = ends_in_time(lambda: client.metadata(), "silent", address, timeout=1.2)
    assert "1 request failed" in message


def test_retries_end_with_the_attempts_and_elapsed_time(face, peers):
    """Retries used up before the deadline: the message says how many and how long."""
    address = peers["silent"]
    with make_client(face, address, request_timeout=0.2, retries=2) as client:
        start = time.monotonic()
        with pytest.raises(RequestTimeoutError) as caught:
            client.metadata(timeout=20)
    assert time.monotonic() - start < 5
    message = str(caught.value)
    assert f"no answer from {address} in 0.2 s (after 3 attempts in" in message
    assert message.count("attempts") == 1  # an inner flow's retries are not retried again


def consumer_calls(tp: TopicPartition):
    return {
        "position": lambda c, t: c.position(tp, timeout=t),
        "committed": lambda c, t: c.committed([tp], timeout=t),
        "list_topics": lambda c, t: c.list_topics(timeout=t),
        "get_watermark_offsets": lambda c, t: c.get_watermark_offsets(tp, timeout=t),
        "offsets_for_times": lambda c, t: c.offsets_for_times({tp: 0}, timeout=t),
        "seek_to_beginning": lambda c, t: c.seek_to_beginning([tp], timeout=t),
        "commit": lambda c, t: c.commit({tp: 1}, timeout=t),
    }


@pytest.mark.parametrize("kind", ["silent", "closed", "http"])
def test_consumer_calls_end_by_their_timeout(face, peers, kind):
    address = peers[kind]
    tp = TopicPartition("t", 0)
    consumer = make_consumer(face, address, group_id="g", request_timeout=30, retries=50)
    try:
        consumer.assign([tp])
        for call in consumer_calls(tp).values():
            ends_in_time(lambda call=call: call(consumer, TIMEOUT), kind, address)
    finally:
        start = time.monotonic()
        consumer.close(timeout=TIMEOUT)  # nothing to commit, no group joined: no request
        assert time.monotonic() - start < TIMEOUT + MARGIN


@pytest.mark.parametrize("kind", ["silent", "closed", "http"])
@pytest.mark.parametrize("how", ["subscribe", "assign"])
def test_poll_returns_by_its_timeout(face, peers, kind, how):
    """A poll whose group join or position lookup cannot finish returns by its timeout
    (empty); the work goes on across polls, and an error that is final (not Kafka) is raised."""
    address = peers[kind]
    consumer = make_consumer(face, address, group_id="g", request_timeout=30, retries=50)
    try:
        if how == "subscribe":
            consumer.subscribe(["t"])
        else:
            consumer.assign([TopicPartition("t", 0)])
        for _ in range(3):
            start = time.monotonic()
            try:
                assert consumer.poll(TIMEOUT) == []
            except NotKafkaError:
                assert kind == "http"
            assert time.monotonic() - start < TIMEOUT + MARGIN
    finally:
        consumer.close(timeout=0.5) if kind == "http" else _close_quietly(consumer)


def _close_quietly(consumer) -> None:
    with contextlib.suppress(ClientError):
        consumer.close(timeout=0.5)


@pytest.mark.parametrize("kind", ["silent", "closed", "http"])
def test_send_never_waits_on_the_network(face, peers, kind):
    """send returns at once whatever the peer; the future fails with the peer's error, or at
    delivery.timeout.ms naming the last one, and flush and close keep their timeouts. (Once a
    peer has refused the client as not Kafka, send raises that at once for a while.)"""
    address = peers[kind]
    config = {"delivery.timeout.ms": 3000, "request.timeout.ms": 30000, "linger.ms": 0}
    producer = make_producer(face, address, config=config)
    errors, pattern = EXPECTED[kind]
    try:
        start = time.monotonic()
        failed = []
        for i in range(5):
            sent = time.monotonic()
            try:
                failed.append(producer.send("t", b"v%d" % i).exception(timeout=15))
            except NotKafkaError as exc:
                failed.append(exc)
            assert time.monotonic() - sent < 15
        for error in failed:
            assert isinstance(error, (DeliveryTimeoutError, *_tuple(errors))), error
            if kind != "silent":  # the silent peer gave no error of its own: only the timeout
                assert re.search(pattern.format(address=address), str(error)), error
        assert time.monotonic() - start < 5 * (3 + MARGIN)
        start = time.monotonic()
        assert producer.flush(TIMEOUT) == 0  # every record has failed: nothing is pending
        assert time.monotonic() - start < TIMEOUT + MARGIN
    finally:
        producer.close(timeout=TIMEOUT)


def test_send_returns_at_once_however_many_records(face, peers):
    producer = make_producer(face, peers["silent"], config={"request.timeout.ms": 30000})
    try:
        start = time.monotonic()
        for i in range(50):
            producer.send("t", b"v%d" % i)
        assert time.monotonic() - start < 2  # (the asyncio adapter hops threads per call)
    finally:
        producer.close(timeout=TIMEOUT)


def _tuple(errors) -> tuple:
    return errors if isinstance(errors, tuple) else (errors,)


def test_flush_and_close_keep_their_timeout_on_a_silent_peer(face, peers):
    producer = make_producer(face, peers["silent"], config={"request.timeout.ms": 30000})
    producer.send("t", b"v")
    start = time.monotonic()
    assert producer.flush(TIMEOUT) == 1
    assert time.monotonic() - start < TIMEOUT + MARGIN
    start = time.monotonic()
    producer.close(timeout=TIMEOUT)
    assert time.monotonic() - start < TIMEOUT + MARGIN


def test_poll_returns_during_a_join_that_takes_longer(broker, face):
    """A second member's JoinGroup is held by the coordinator until the first member rejoins,
    which it does only when it polls: meanwhile the second member's polls return by their
    timeout, and once the first polls, both end up with partitions."""
    topic = f"dl-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap) as admin:
        admin.create_topics({topic: 2})
        for partition in range(2):
            admin.produce_columns(TopicPartition(topic, partition), [b"a", b"b"])
    group = f"g-{uuid.uuid4().hex[:8]}"
    settings = {"group_id": group, "auto_offset_reset": "earliest"}
    first = make_consumer(face, broker.bootstrap, **settings)
    second = make_consumer(face, broker.bootstrap, **settings)
    try:
        first.subscribe([topic])
        seen = []
        deadline = time.monotonic() + 60
        while len(seen) < 4 and time.monotonic() < deadline:
            seen += first.poll(0.5)
        assert len(seen) == 4
        second.subscribe([topic])
        polls = []
        for _ in range(4):  # the first member is not polling: the join cannot end
            start = time.monotonic()
            assert second.poll(0.5) == []
            polls.append(time.monotonic() - start)
        assert max(polls) < 0.5 + MARGIN, polls

        stop = threading.Event()

        def keep_polling():
            while not stop.is_set():
                first.poll(0.2)

        thread = threading.Thread(target=keep_polling)
        thread.start()
        try:
            deadline = time.monotonic() + 60
            while not second.assignment() and time.monotonic() < deadline:
                start = time.monotonic()
                second.poll(0.5)
                assert time.monotonic() - start < 0.5 + MARGIN
        finally:
            stop.set()
            thread.join()
        assert len(second.assignment()) == 1 and len(first.assignment()) == 1
    finally:
        first.close()
        second.close()


def test_polls_with_no_time_still_join_and_read(broker, face):
    """poll(0) in a loop (a service that polls between other work): each poll takes what has
    come for the join under way and sends what it needs next, so the member joins and reads."""
    topic = f"dl-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap) as admin:
        admin.create_topics({topic: 1})
        admin.produce_columns(TopicPartition(topic, 0), [b"a", b"b"])
    consumer = make_consumer(
        face, broker.bootstrap, group_id=f"g-{uuid.uuid4().hex[:8]}", auto_offset_reset="earliest"
    )
    try:
        consumer.subscribe([topic])
        got = []
        deadline = time.monotonic() + 60
        while len(got) < 2 and time.monotonic() < deadline:
            got += consumer.poll(0)
            time.sleep(0.01)
        assert [r.value for r in got] == [b"a", b"b"]
    finally:
        consumer.close()


@pytest.fixture(scope="module")
def slow_mock():
    """librdkafka's mock cluster (3 brokers) whose brokers answer after 20 s: silent peers
    that speak Kafka, with a topic led by broker 1."""
    from tests.support.mock_cluster import MockCluster

    with MockCluster(3) as mock:
        mock.create_topic("t", 3)
        yield mock


@pytest.mark.parametrize("how", ["slow", "down"])
def test_calls_end_by_their_timeout_on_the_mock_cluster(face, slow_mock, how):
    """The same calls against a real multi-broker cluster whose brokers are slow (every answer
    20 s late) or down: each ends by its timeout, naming a broker's address."""
    brokers = slow_mock.broker_ids
    for broker in brokers:
        if how == "slow":
            slow_mock.set_rtt(broker, 20_000)
        else:
            slow_mock.broker_down(broker)
    addresses = "|".join(a.replace(".", r"\.") for a in slow_mock.addresses)
    try:
        with make_client(face, slow_mock.bootstrap) as client:
            for name in ("metadata", "list_offsets", "fetch", "describe_groups"):
                start = time.monotonic()
                with pytest.raises((RequestTimeoutError, BrokerConnectionError)) as caught:
                    CLIENT_CALLS[name](client, TIMEOUT)
                assert time.monotonic() - start < TIMEOUT + MARGIN, caught.value
                assert re.search(addresses, str(caught.value)), caught.value
                assert str(caught.value).startswith(f"{name}: not done in 1 s")
        producer = make_producer(face, slow_mock.bootstrap, config={"delivery.timeout.ms": 2000})
        try:
            start = time.monotonic()
            future = producer.send("t", b"v")
            assert time.monotonic() - start < 0.5
            assert future.exception(timeout=15) is not None
        finally:
            producer.close(timeout=TIMEOUT)
    finally:
        for broker in brokers:
            if how == "slow":
                slow_mock.set_rtt(broker, 0)
            else:
                slow_mock.broker_up(broker)


def test_close_keeps_its_timeout_while_a_heartbeat_waits_on_a_silent_coordinator(face):
    """A member's heartbeat is waiting on a coordinator that stopped answering: close gives the
    heartbeats what is left of its timeout, not 5 s more, then its commit and leave the rest."""
    from tests.support.mock_cluster import MockCluster

    with MockCluster(3) as mock:
        topic, group = f"dl-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
        mock.create_topic(topic, 1)
        mock.set_coordinator("group", group, 1)
        consumer = make_consumer(
            face, mock.bootstrap, group_id=group, heartbeat_interval_ms=200, request_timeout=20
        )
        try:
            consumer.subscribe([topic])
            deadline = time.monotonic() + 60
            while not consumer.assignment() and time.monotonic() < deadline:
                consumer.poll(0.2)
            assert consumer.assignment()
            mock.set_rtt(1, 20_000)
            time.sleep(1.0)  # a heartbeat (every 0.2 s) goes out and waits for its answer
        finally:
            start = time.monotonic()
            with contextlib.suppress(ClientError):
                consumer.close(timeout=TIMEOUT)
            elapsed = time.monotonic() - start
        assert elapsed < TIMEOUT + MARGIN, elapsed
