"""``kafkawire record`` in front of a cluster: broker addresses in Metadata, FindCoordinator and
DescribeCluster answers are rewritten to listeners of the recorder, so that a real client's
traffic to every broker is captured, not only its bootstrap connection."""

from __future__ import annotations

import io
import socket
import threading
import time
import uuid
from collections import Counter

import pytest

from kafkawire import cli, messages
from kafkawire.cli.record import _FrameStream
from kafkawire.protocol import decode_response, encode_response
from tests.cli.test_cli import json_lines, run

M = messages.MetadataResponse
F = messages.FindCoordinatorResponse
D = messages.DescribeClusterResponse


def rewrite(recorder: cli.Recorder, response, key: int, version: int, correlation_id: int):
    """The response as the recorder passes it on, fed one byte at a time."""
    asked: dict[int, tuple[int, int]] = {correlation_id: (key, version)}
    stream = _FrameStream(
        8,
        lambda head: len(head) == 8 and int.from_bytes(head[4:8], "big") in asked,
        lambda frame: recorder._rewrite_addresses("test", frame, *asked.pop(correlation_id)),
    )
    frame = encode_response(response, version=version, correlation_id=correlation_id)
    passed = b"".join(stream.feed(frame[i : i + 1]) for i in range(len(frame)))
    assert not asked, "the response was held and rewritten"
    return decode_response(passed, api_key=key, api_version=version, size_prefix=True)[1]


def test_each_broker_named_gets_a_listener_of_its_own(tmp_path):
    """Three brokers in Metadata, one of them the upstream: two new listeners, the upstream
    mapped to the bootstrap listener; the same brokers named again (Metadata, FindCoordinator
    v3 and v4, DescribeCluster) map to the same listeners, a fourth gets one more; an absent
    coordinator (port -1) is left alone."""
    recorder = cli.Recorder(("127.0.0.1", 0), ("10.0.0.1", 9092), tmp_path, log=io.StringIO())
    try:
        metadata = M(
            brokers=[
                M.MetadataResponseBroker(node_id=1, host="10.0.0.1", port=9092),
                M.MetadataResponseBroker(node_id=2, host="10.0.0.2", port=9092),
                M.MetadataResponseBroker(node_id=3, host="kafka-3.example", port=9093, rack="r"),
            ],
            cluster_id="c",
            controller_id=1,
        )
        seen = rewrite(recorder, metadata, 3, 12, 7)
        listeners = [(b.host, b.port) for b in seen.brokers]
        assert listeners[0] == recorder.address
        assert len(set(listeners)) == 3 and all(host == "127.0.0.1" for host, _ in listeners)
        assert [(b.node_id, b.rack) for b in seen.brokers] == [(1, None), (2, None), (3, "r")]
        assert seen.cluster_id == "c" and seen.controller_id == 1
        again = rewrite(recorder, metadata, 3, 1, 8)
        assert [(b.host, b.port) for b in again.brokers] == listeners
        old = rewrite(recorder, F(node_id=3, host="kafka-3.example", port=9093), 10, 3, 9)
        assert (old.host, old.port) == listeners[2]
        batched = F(
            coordinators=[
                F.Coordinator(key="g1", node_id=2, host="10.0.0.2", port=9092),
                F.Coordinator(key="g2", node_id=-1, host="", port=-1, error_code=15),
            ]
        )
        new = rewrite(recorder, batched, 10, 4, 10)
        assert [(c.host, c.port) for c in new.coordinators] == [listeners[1], ("", -1)]
        cluster = D(
            cluster_id="c",
            controller_id=2,
            brokers=[
                D.DescribeClusterBroker(broker_id=3, host="kafka-3.example", port=9093),
                D.DescribeClusterBroker(broker_id=4, host="10.0.0.4", port=9092),
            ],
        )
        described = rewrite(recorder, cluster, 60, 1, 11)
        fourth = (described.brokers[1].host, described.brokers[1].port)
        assert (described.brokers[0].host, described.brokers[0].port) == listeners[2]
        assert fourth not in listeners and fourth[0] == "127.0.0.1"
        for host, port in [*listeners[1:], fourth]:  # the new listeners accept connections
            with socket.create_connection((host, port), timeout=5):
                pass
    finally:
        recorder.stop()
        recorder.join(5)


def test_other_frames_pass_as_they_come():
    """A frame nobody holds waits only for its head (size and correlation id), then goes on
    as its bytes come; bytes that are not frames (a negative size) pass on untouched."""
    stream = _FrameStream(8, lambda head: False)
    frame = encode_response(M(), version=12, correlation_id=1)
    assert len(frame) > 12
    assert stream.feed(frame[:5]) == b""  # not yet its correlation id
    assert stream.feed(frame[5:10]) == frame[:10]
    assert stream.feed(frame[10:12]) == frame[10:12]
    assert stream.feed(frame[12:] + frame[:2]) == frame[12:]  # the next frame's head waits
    assert stream.feed(frame[2:]) == frame
    assert stream.feed(b"\xff\xff\xff\xff tls?") == b"\xff\xff\xff\xff tls?"
    assert stream.feed(b"\x00\x00\x00\x01") == b"\x00\x00\x00\x01"


@pytest.mark.interop
@pytest.mark.parametrize("client_kind", ["kafkawire", "confluent-kafka"])
def test_every_connection_of_a_client_goes_through_the_recorder(
    capsys, tmp_path, broker, client_kind
):
    """The recorder's upstream is Tansu itself; Tansu advertises another address (the test
    proxy in front of it), which the recorder maps to a listener of its own. A producer and
    a group consumer bootstrapped through the recorder: every connection the broker's proxy
    sees is one the recorder made and captured, request for request; the captures hold
    Produce, Fetch, the group's requests, and the broker's own addresses (as it sent them)."""
    out_dir = tmp_path / "captures"
    tansu = ("127.0.0.1", broker.proxy.target_port)
    log = io.StringIO()
    recorder = cli.Recorder(("127.0.0.1", 0), tansu, out_dir, log=log)
    serving = threading.Thread(target=recorder.serve)
    serving.start()
    bootstrap = f"{recorder.address[0]}:{recorder.address[1]}"
    topic = f"rec-{uuid.uuid4().hex[:8]}"
    group_id = f"rec-group-{uuid.uuid4().hex[:8]}"
    try:
        with broker.proxy.capture() as seen:
            if client_kind == "kafkawire":
                values = produce_and_consume_kafkawire(bootstrap, topic, group_id)
            else:
                values = produce_and_consume_confluent(bootstrap, topic, group_id)
            assert seen.wait_closed(20)
    finally:
        recorder.stop()
        serving.join(10)
        recorder.join(10)
    assert sorted(values) == sorted(b"v%d" % i for i in range(20))
    captured = {
        path.stem: (path.read_bytes(), path.with_suffix(".responses").read_bytes())
        for path in out_dir.glob("conn-*.requests")
    }
    # every connection the broker's proxy saw came through the recorder, request for request
    assert seen.connections, "the client connected to the advertised broker"
    recorded = Counter(requests for requests, _ in captured.values())
    for conn in seen.connections:
        assert recorded[bytes(conn.requests)] > 0, "a connection that bypassed the recorder"
        recorded[bytes(conn.requests)] -= 1
    advertised = ("127.0.0.1", broker.proxy.port)
    assert recorder.routes[advertised] != recorder.address  # a listener of its own
    assert recorder.routes[tansu] == recorder.address
    # ...and every request after bootstrap too: the captures hold what the broker answered
    apis: Counter[str] = Counter()
    broker_addresses = set()
    status, out, err = run(capsys, "inspect", "--json", str(out_dir))
    assert status == 0, err
    items = json_lines(out)
    assert sum(item["type"] == "capture" for item in items) == len(captured)
    for item in items:
        if item["type"] == "request":
            apis[item["api"]] += 1
            if item["api"] == "JOIN_GROUP":
                subscription = item["message"]["protocols"][0]["metadata"]
                assert subscription["topics"] == [topic]  # decoded: a consumer group
        if item["type"] == "response" and item["api"] == "METADATA":
            broker_addresses |= {(b["host"], b["port"]) for b in item["message"]["brokers"]}
    for api in ("METADATA", "PRODUCE", "FETCH", "FIND_COORDINATOR", "JOIN_GROUP", "SYNC_GROUP"):
        assert apis[api] > 0, f"no {api} request captured: {sorted(apis)}"
    assert apis["OFFSET_COMMIT"] > 0 or apis["TXN_OFFSET_COMMIT"] > 0
    assert broker_addresses == {advertised}  # the broker's bytes, not the rewritten ones
    assert f"for the broker at 127.0.0.1:{broker.proxy.port}" in log.getvalue()


def produce_and_consume_kafkawire(bootstrap: str, topic: str, group_id: str) -> list[bytes]:
    from kafkawire import Consumer, Producer
    from kafkawire.client import Client

    with Client(bootstrap) as client:
        client.create_topics({topic: 2})
    producer = Producer(bootstrap)
    for i in range(20):
        producer.send(topic, b"v%d" % i, key=b"k%d" % i)
    producer.close(30)
    consumer = Consumer(
        bootstrap,
        config={
            "group.id": group_id,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "session.timeout.ms": 6000,
        },
    )
    values: list[bytes] = []
    with consumer:
        consumer.subscribe([topic])
        deadline = time.monotonic() + 60
        while len(values) < 20 and time.monotonic() < deadline:
            values += [record.value for record in consumer.poll(0.5)]
        consumer.commit()
    return values


def produce_and_consume_confluent(bootstrap: str, topic: str, group_id: str) -> list[bytes]:
    confluent_kafka = pytest.importorskip("confluent_kafka")
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    for future in admin.create_topics([NewTopic(topic, 2, 1)]).values():
        future.result(30)
    del admin
    producer = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "log_level": 3})
    for i in range(20):
        producer.produce(topic, b"v%d" % i, key=b"k%d" % i)
    assert producer.flush(30) == 0
    del producer
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group_id,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "session.timeout.ms": 6000,  # Tansu's first join waits this out
            "heartbeat.interval.ms": 500,
            "log_level": 3,
        }
    )
    values: list[bytes] = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + 60
        while len(values) < 20 and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                values.append(msg.value())
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    return values


def test_the_advertised_host_is_what_clients_are_told(tmp_path):
    args = cli.build_parser().parse_args(
        [
            *("record", "--listen", "127.0.0.1:0", "--upstream", "b:9092"),
            *("--out", str(tmp_path), "--advertised-host", "recorder.example"),
        ]
    )
    recorder = cli.Recorder(
        args.listen, args.upstream, args.out, advertised_host=args.advertised_host
    )
    try:
        metadata = M(brokers=[M.MetadataResponseBroker(node_id=1, host="b", port=9092)])
        seen = rewrite(recorder, metadata, 3, 12, 1)
        assert (seen.brokers[0].host, seen.brokers[0].port) == (
            "recorder.example",
            recorder.address[1],
        )
    finally:
        recorder.stop()
        recorder.join(5)
