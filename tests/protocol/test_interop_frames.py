"""Frames exchanged between real clients (confluent-kafka, kafka-python, aiokafka) and a real
broker (Tansu) decode and re-encode byte-identically.

Each client runs a small session (admin calls, a producer, a consumer in a group, offset
look-ups) through the test broker's recording proxy; both directions of every connection are
kept, responses are matched to requests by correlation id, and every frame goes through
decode then encode.

Where Tansu's own encoding is not the canonical one, the test says so precisely instead of
settling for "equal after decoding": Tansu writes some tagged fields that hold their default
value (Kafka's generated code leaves those out), so those responses must equal kafkawire's
encoding plus exactly those tagged fields, put back as raw tagged fields.
"""

from __future__ import annotations

import asyncio
import gc
import socket
import struct
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from kafkawire import messages
from kafkawire.errors import TruncatedError
from kafkawire.protocol import (
    ApiKey,
    decode_request,
    decode_response,
    encode,
    encode_request,
    encode_response,
)
from kafkawire.protocol._base import UNSET
from kafkawire.protocol._generated_messages import REQUESTS, RESPONSES
from kafkawire.protocol.versions import decode_api_versions_response

pytestmark = pytest.mark.interop

MESSAGES = 20

# --- capturing a client's session --------------------------------------------------------------


@dataclass
class Exchange:
    """One request frame (no size prefix) and the response frame answering it, if any."""

    connection: int
    request: bytes
    api_key: int
    version: int
    correlation_id: int
    response: bytes | None = None


@dataclass
class Session:
    client: str
    exchanges: list[Exchange] = field(default_factory=list)
    unmatched_responses: list[bytes] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)  # client calls Tansu refused

    def pairs(self, kind: str) -> set[tuple[str, int]]:
        out = set()
        for ex in self.exchanges:
            if kind == "request" or ex.response is not None:
                out.add((ApiKey(ex.api_key).name, ex.version))
        return out


def split_frames(buf: bytes) -> tuple[list[bytes], int]:
    """Whole frames (without size prefix) and the bytes of a last, incomplete one."""
    frames, pos = [], 0
    while pos + 4 <= len(buf):
        (size,) = struct.unpack_from(">i", buf, pos)
        if pos + 4 + size > len(buf):
            break
        frames.append(bytes(buf[pos + 4 : pos + 4 + size]))
        pos += 4 + size
    return frames, len(buf) - pos


def session_of(client: str, capture, failures: dict[str, str]) -> Session:
    session = Session(client, failures=failures)
    for i, conn in enumerate(capture.connections):
        requests, left = split_frames(bytes(conn.requests))
        assert left == 0, f"connection {i}: {left} bytes of an unfinished request"
        # a response can be cut off when the client closes with a request in flight
        responses, _ = split_frames(bytes(conn.responses))
        by_id: dict[int, Exchange] = {}
        for frame in requests:
            key, version, correlation_id = struct.unpack_from(">hhi", frame)
            ex = Exchange(i, frame, key, version, correlation_id)
            assert correlation_id not in by_id, f"correlation id {correlation_id} reused"
            by_id[correlation_id] = ex
            session.exchanges.append(ex)
        for frame in responses:
            (correlation_id,) = struct.unpack_from(">i", frame)
            ex = by_id.get(correlation_id)
            if ex is None or ex.response is not None:
                session.unmatched_responses.append(frame)
            else:
                ex.response = frame
    return session


def attempt(failures: dict[str, str], name: str, fn: Callable[[], object]) -> None:
    """Run a client call whose success does not matter here (Tansu lacks some APIs): its
    frames are what the test is after."""
    try:
        fn()
    except Exception as exc:  # any client error is just recorded
        failures[name] = f"{type(exc).__name__}: {exc}"[:200]


def confluent_session(bootstrap: str, topic: str, failures: dict[str, str]) -> None:
    confluent_kafka = pytest.importorskip("confluent_kafka")
    from confluent_kafka.admin import (
        AdminClient,
        ConfigResource,
        NewPartitions,
        NewTopic,
        OffsetSpec,
    )

    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, 2, 1)]).values():
        future.result(20)
    attempt(failures, "list_topics", lambda: admin.list_topics(topic, timeout=10))
    attempt(
        failures,
        "describe_configs",
        lambda: [
            f.result(10) for f in admin.describe_configs([ConfigResource("topic", topic)]).values()
        ],
    )
    attempt(failures, "describe_cluster", lambda: admin.describe_cluster().result(10))
    attempt(
        failures,
        "create_partitions",
        lambda: [f.result(10) for f in admin.create_partitions([NewPartitions(topic, 3)]).values()],
    )
    producer = confluent_kafka.Producer(
        {"bootstrap.servers": bootstrap, "linger.ms": 5, "enable.idempotence": True}
    )
    for i in range(MESSAGES):
        producer.produce(topic, b"value-%d" % i, key=b"key-%d" % i, headers=[("h", b"%d" % i)])
    assert producer.flush(30) == 0
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"g-{topic}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([topic])
    got, deadline = 0, time.monotonic() + 40
    while got < MESSAGES and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            got += 1
    assert got == MESSAGES
    consumer.commit(asynchronous=False)
    attempt(
        failures,
        "committed",
        lambda: consumer.committed([confluent_kafka.TopicPartition(topic, 0)], timeout=10),
    )
    consumer.close()
    attempt(
        failures,
        "list_offsets",
        lambda: [
            f.result(10)
            for f in admin.list_offsets(
                {confluent_kafka.TopicPartition(topic, 0): OffsetSpec.latest()}
            ).values()
        ],
    )
    attempt(failures, "list_consumer_groups", lambda: admin.list_consumer_groups().result(10))
    attempt(
        failures,
        "describe_consumer_groups",
        lambda: [f.result(10) for f in admin.describe_consumer_groups([f"g-{topic}"]).values()],
    )
    for future in admin.delete_topics([topic]).values():
        attempt(failures, "delete_topics", lambda f=future: f.result(20))
    # librdkafka closes its connections when the handles are freed, after this returns


def kafka_python_session(bootstrap: str, topic: str, failures: dict[str, str]) -> None:
    pytest.importorskip("kafka")
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import ConfigResource, ConfigResourceType, NewTopic

    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics([NewTopic(topic, 2, 1)])
    attempt(
        failures,
        "describe_configs",
        lambda: admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)]),
    )
    attempt(failures, "describe_cluster", admin.describe_cluster)
    attempt(failures, "describe_topics", lambda: admin.describe_topics([topic]))
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, compression_type="gzip")
    for i in range(MESSAGES):
        producer.send(topic, b"value-%d" % i, key=b"key-%d" % i, headers=[("h", b"%d" % i)])
    producer.flush(30)
    producer.close()
    # acks=0: a request that Kafka brokers do not answer
    fire_and_forget = KafkaProducer(bootstrap_servers=bootstrap, acks=0)
    fire_and_forget.send(topic, b"no answer", partition=1)
    fire_and_forget.flush(30)
    fire_and_forget.close()
    consumer = KafkaConsumer(
        topic,
        bootstrap_servers=bootstrap,
        group_id=f"g-{topic}",
        auto_offset_reset="earliest",
        enable_auto_commit=False,
    )
    got, deadline = 0, time.monotonic() + 40
    while got < MESSAGES + 1 and time.monotonic() < deadline:
        got += sum(len(records) for records in consumer.poll(500).values())
    assert got == MESSAGES + 1
    consumer.commit()
    tp = TopicPartition(topic, 0)
    attempt(failures, "end_offsets", lambda: consumer.end_offsets([tp]))
    attempt(failures, "beginning_offsets", lambda: consumer.beginning_offsets([tp]))
    attempt(failures, "offsets_for_times", lambda: consumer.offsets_for_times({tp: 0}))
    consumer.close()
    attempt(failures, "list_groups", admin.list_groups)
    attempt(failures, "describe_groups", lambda: admin.describe_groups([f"g-{topic}"]))
    attempt(failures, "list_group_offsets", lambda: admin.list_group_offsets(f"g-{topic}"))
    attempt(failures, "delete_topics", lambda: admin.delete_topics([topic]))
    admin.close()


def aiokafka_session(bootstrap: str, topic: str, failures: dict[str, str]) -> None:
    pytest.importorskip("aiokafka")
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic
    from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

    async def attempt_async(name: str, coro) -> None:
        try:
            await coro
        except Exception as exc:  # any client error is just recorded
            failures[name] = f"{type(exc).__name__}: {exc}"[:200]

    async def run() -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        await admin.start()
        await admin.create_topics([NewTopic(topic, 2, 1)])
        await attempt_async("list_consumer_groups", admin.list_consumer_groups())
        await attempt_async("describe_cluster", admin.describe_cluster())
        await attempt_async(
            "describe_configs",
            admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)]),
        )
        producer = AIOKafkaProducer(bootstrap_servers=bootstrap, compression_type="lz4")
        await producer.start()
        try:
            for i in range(MESSAGES):
                await producer.send(
                    topic, b"value-%d" % i, key=b"key-%d" % i, headers=[("h", b"%d" % i)]
                )
            await producer.flush()
        finally:
            await producer.stop()
        consumer = AIOKafkaConsumer(
            topic,
            bootstrap_servers=bootstrap,
            group_id=f"g-{topic}",
            auto_offset_reset="earliest",
            enable_auto_commit=False,
        )
        await consumer.start()
        try:
            got, deadline = 0, time.monotonic() + 40
            while got < MESSAGES and time.monotonic() < deadline:
                batch = await consumer.getmany(timeout_ms=500)
                got += sum(len(records) for records in batch.values())
            assert got == MESSAGES
            await consumer.commit()
            tp = TopicPartition(topic, 0)
            await attempt_async("end_offsets", consumer.end_offsets([tp]))
            await attempt_async("beginning_offsets", consumer.beginning_offsets([tp]))
            await attempt_async("offsets_for_times", consumer.offsets_for_times({tp: 0}))
        finally:
            await consumer.stop()
        await attempt_async(
            "describe_consumer_groups", admin.describe_consumer_groups([f"g-{topic}"])
        )
        # Tansu answers this OffsetFetch (all topics of a group) with a malformed frame
        await attempt_async(
            "list_consumer_group_offsets", admin.list_consumer_group_offsets(f"g-{topic}")
        )
        await attempt_async("delete_topics", admin.delete_topics([topic]))
        await admin.close()

    asyncio.run(run())


SESSIONS = {
    "confluent-kafka": confluent_session,
    "kafka-python": kafka_python_session,
    "aiokafka": aiokafka_session,
}


@pytest.fixture(scope="module", params=list(SESSIONS))
def session(request, broker) -> Session:
    client = request.param
    topic = f"frames-{client}-{uuid.uuid4().hex[:8]}"
    failures: dict[str, str] = {}
    with broker.proxy.capture() as capture:
        SESSIONS[client](broker.bootstrap, topic, failures)
        gc.collect()  # librdkafka handles close their sockets when freed
        assert capture.wait_closed(20), "a client left a connection open"
    return session_of(client, capture, failures)


# --- byte identity ----------------------------------------------------------------------------


def request_header_version(api_key: int, version: int) -> int:
    cls = REQUESTS[api_key]
    if api_key == ApiKey.CONTROLLED_SHUTDOWN and version == 0:
        return 0
    return 2 if version in cls.flexible_versions else 1


def response_header_version(api_key: int, version: int) -> int:
    if api_key == ApiKey.API_VERSIONS:
        return 0  # always: clients read it before they know what the broker speaks
    return 1 if version in RESPONSES[api_key].flexible_versions else 0


def decode_answer(ex: Exchange):
    """(header, response, the version its body was written at) of an exchange's response."""
    assert ex.response is not None
    if ex.api_key == ApiKey.API_VERSIONS:
        # an UNSUPPORTED_VERSION answer has a version 0 body whatever was asked
        return decode_api_versions_response(ex.response, ex.version)
    header, msg = decode_response(ex.response, api_key=ex.api_key, api_version=ex.version)
    return header, msg, ex.version


# Tagged fields Tansu writes although they hold their default value (Kafka's generated
# serializers write a tagged field only when it differs from its default): struct class ->
# {tag: the bytes Tansu writes for the default}.
TANSU_DEFAULT_TAGS: dict[type, dict[int, bytes]] = {
    messages.ApiVersionsResponse: {
        0: b"\x01",  # SupportedFeatures: empty compact array
        1: b"\xff" * 8,  # FinalizedFeaturesEpoch: -1
        2: b"\x01",  # FinalizedFeatures: empty compact array
        3: b"\x00",  # ZkMigrationReady: false
    },
    messages.FetchResponse: {0: b"\x01"},  # NodeEndpoints: empty compact array
    messages.CreateTopicsResponse.CreatableTopicResult: {0: b"\x00\x00"},  # TopicConfigErrorCode
}


def with_tansu_default_tags(obj, version: int) -> int:
    """Puts Tansu's default-valued tagged fields back on ``obj`` (and the structs inside it) as
    raw tagged fields, which the encoder writes back in tag order; returns how many."""
    added = 0
    extra = []
    for f in obj._kw_fields:
        if f.tag >= 0 and f.tag in TANSU_DEFAULT_TAGS.get(type(obj), {}):
            default = [] if f.default is UNSET else f.default
            if f.tagged[0] <= version <= f.tagged[1] and getattr(obj, f.attr) == default:
                extra.append((f.tag, TANSU_DEFAULT_TAGS[type(obj)][f.tag]))
        if f.struct is not None and f.versions[0] <= version <= f.versions[1]:
            value = getattr(obj, f.attr)
            for child in value if isinstance(value, list) else [value]:
                if child is not None:
                    added += with_tansu_default_tags(child, version)
    if extra:
        obj._unknown_tagged_fields = sorted((obj._unknown_tagged_fields or []) + extra)
    return added + len(extra)


def tansu_malformed(ex: Exchange) -> str | None:
    """Why Tansu's response to this request is known to be malformed, if it is."""
    if ex.api_key == ApiKey.OFFSET_FETCH and 2 <= ex.version <= 7:
        _, request = decode_request(ex.request)
        if request.topics is None:  # "every topic of the group"
            return "Tansu answers an all-topics OffsetFetch v2-v7 without its Topics array"
    return None


def test_requests_reencode_byte_identically(session):
    assert session.exchanges
    for ex in session.exchanges:
        header, msg = decode_request(ex.request)
        assert (header.request_api_key, header.request_api_version) == (ex.api_key, ex.version)
        again = encode_request(
            msg,
            version=ex.version,
            correlation_id=header.correlation_id,
            client_id=header.client_id,
            size_prefix=False,
        )
        assert again == ex.request, (ApiKey(ex.api_key).name, ex.version)
        # the header as decoded (with any tagged fields of its own) + the body, apart
        hv = request_header_version(ex.api_key, ex.version)
        assert encode(header, version=hv) + encode(msg, version=ex.version) == ex.request


def test_responses_reencode_byte_identically(session):
    identical, with_default_tags, malformed = 0, set(), set()
    for ex in session.exchanges:
        if ex.response is None:
            continue
        name = (ApiKey(ex.api_key).name, ex.version)
        reason = tansu_malformed(ex)
        if reason is not None:
            # the decoder must refuse it, saying where (aiokafka's decoder fails on it too)
            with pytest.raises(TruncatedError) as info:
                decode_answer(ex)
            assert info.value.field and info.value.offset is not None
            malformed.add(name)
            continue
        header, msg, version = decode_answer(ex)
        assert header.correlation_id == ex.correlation_id
        again = encode_response(
            msg, version=version, correlation_id=ex.correlation_id, size_prefix=False
        )
        if again == ex.response:
            identical += 1
            continue
        # not canonical on Tansu's side: equal in meaning, and equal in bytes once Tansu's
        # default-valued tagged fields are put back
        assert decode_response(again, api_key=ex.api_key, api_version=version)[1] == msg, name
        assert with_tansu_default_tags(msg, version) > 0, f"{name}: differs, not by known tags"
        patched = encode_response(
            msg, version=version, correlation_id=ex.correlation_id, size_prefix=False
        )
        assert patched == ex.response, f"{name}: differs beyond Tansu's default tagged fields"
        hv = response_header_version(ex.api_key, version)
        assert encode(header, version=hv) + encode(msg, version=version) == ex.response
        with_default_tags.add(name)
    assert identical > 0
    assert not session.unmatched_responses, "responses that answer no request"
    # what differs is what the tables above say, no more (and they are not stale)
    assert with_default_tags <= {
        ("API_VERSIONS", 3),
        ("API_VERSIONS", 4),
        ("FETCH", 16),
        ("FETCH", 17),
        ("CREATE_TOPICS", 5),
        ("CREATE_TOPICS", 6),
        ("CREATE_TOPICS", 7),
    }
    if session.client == "aiokafka":
        assert malformed == {("OFFSET_FETCH", 3)}


# What each client's session must have exchanged (and had answered), at least.
CORE = {
    "confluent-kafka": {
        "API_VERSIONS",
        "METADATA",
        "CREATE_TOPICS",
        "DELETE_TOPICS",
        "INIT_PRODUCER_ID",
        "PRODUCE",
        "FIND_COORDINATOR",
        "JOIN_GROUP",
        "SYNC_GROUP",
        "OFFSET_FETCH",
        "OFFSET_COMMIT",
        "LEAVE_GROUP",
        "FETCH",
        "LIST_OFFSETS",
        "DESCRIBE_CONFIGS",
        "LIST_GROUPS",
        "CONSUMER_GROUP_DESCRIBE",  # librdkafka's describe_consumer_groups, where offered (KIP-848)
    },
    "kafka-python": {
        "API_VERSIONS",
        "METADATA",
        "CREATE_TOPICS",
        "DELETE_TOPICS",
        "PRODUCE",
        "FIND_COORDINATOR",
        "JOIN_GROUP",
        "SYNC_GROUP",
        "OFFSET_FETCH",
        "OFFSET_COMMIT",
        "LEAVE_GROUP",
        "FETCH",
        "LIST_OFFSETS",
        "DESCRIBE_CONFIGS",
        "DESCRIBE_CLUSTER",
        "LIST_GROUPS",
        "DESCRIBE_GROUPS",
    },
    "aiokafka": {
        "API_VERSIONS",
        "METADATA",
        "CREATE_TOPICS",
        "DELETE_TOPICS",
        "PRODUCE",
        "FIND_COORDINATOR",
        "JOIN_GROUP",
        "SYNC_GROUP",
        "OFFSET_FETCH",
        "OFFSET_COMMIT",
        "FETCH",
        "LIST_OFFSETS",
        "LIST_GROUPS",
        "DESCRIBE_GROUPS",
        "DESCRIBE_CONFIGS",
    },
}


def test_sessions_cover_the_core_apis(session, record_property):
    answered = session.pairs("response")
    record_property("pairs", sorted(answered))
    missing = CORE[session.client] - {api for api, _ in answered}
    assert not missing, f"{session.client}: no answered {sorted(missing)}; {session.failures}"
    if session.client == "kafka-python":
        # the acks=0 produce request was sent (and checked above). Kafka sends no response to
        # it; Tansu does, and whether it is recorded depends on how soon the producer closes.
        acks = [decode_request(ex.request)[1].acks for ex in session.exchanges if ex.api_key == 0]
        assert 0 in acks


# --- unknown tagged fields in real frames --------------------------------------------------------

UNKNOWN_TAG = b"\x01\x90\x4e\x03abc"  # one tagged field: tag 10000 (uvarint 90 4e), 3 bytes


def test_unknown_tagged_fields_in_real_frames_survive(session):
    """A flexible request and response from the session, with an unknown tagged field added to
    the header and to the message: both are kept and written back in place."""
    flexible = [
        ex
        for ex in session.exchanges
        if request_header_version(ex.api_key, ex.version) == 2 and ex.request.endswith(b"\x00")
    ]
    if not flexible:
        pytest.skip(f"{session.client} sent no flexible (tagged-field) versions")
    request = flexible[0]
    # request header v2: key, version, correlation id, client id (int16 length), tags
    (client_id_len,) = struct.unpack_from(">h", request.request, 8)
    tags_at = 10 + max(client_id_len, 0)
    assert request.request[tags_at] == 0
    frame = (
        request.request[:tags_at] + UNKNOWN_TAG + request.request[tags_at + 1 : -1] + UNKNOWN_TAG
    )
    header, msg = decode_request(frame)
    assert header._unknown_tagged_fields == [(10000, b"abc")]
    assert msg._unknown_tagged_fields == [(10000, b"abc")]
    assert encode(header, version=2) + encode(msg, version=request.version) == frame

    response = next(
        ex
        for ex in session.exchanges
        if ex.response is not None
        and response_header_version(ex.api_key, ex.version) == 1
        and ex.response.endswith(b"\x00")
        and tansu_malformed(ex) is None
    )
    assert response.response[4] == 0  # response header v1: correlation id, tags
    frame = response.response[:4] + UNKNOWN_TAG + response.response[5:-1] + UNKNOWN_TAG
    header, msg = decode_response(frame, api_key=response.api_key, api_version=response.version)
    assert header._unknown_tagged_fields == [(10000, b"abc")]
    assert msg._unknown_tagged_fields == [(10000, b"abc")]
    with_tansu_default_tags(msg, response.version)
    assert encode(header, version=1) + encode(msg, version=response.version) == frame


# --- the ApiVersions downgrade answer ------------------------------------------------------------


def compact(s: bytes) -> bytes:
    """A compact string: its length + 1 as an unsigned varint (one byte here), then it."""
    return bytes([len(s) + 1]) + s


def api_versions_exchange(port: int, version: int, correlation_id: int = 7) -> bytes:
    """Send one hand-written ApiVersionsRequest; return the response frame (no size prefix)."""
    client_id = b"kw-test"
    # request header v2 for version 3 and up: tagged fields after the client id, and a v3+
    # body (client software name and version as compact strings, then tagged fields)
    header = struct.pack(">hhih", 18, version, correlation_id, len(client_id)) + client_id
    body = b"\x00" + compact(b"kafkawire") + compact(b"0.1.0") + b"\x00" if version >= 3 else b""
    frame = header + body
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(struct.pack(">i", len(frame)) + frame)
        data = b""
        while len(data) < 4 or len(data) < 4 + struct.unpack_from(">i", data)[0]:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    if len(data) < 4 or len(data) != 4 + struct.unpack_from(">i", data)[0]:
        raise ConnectionError(f"the broker closed the connection after {data!r}")
    return data[4:]


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="Tansu answers an ApiVersionsRequest at a version it does not speak with error 0 "
    "and its own flexible (v3) body, not with error 35 and a v0 body",
)
def test_broker_downgrade_answer_to_a_too_new_api_versions_request(broker):
    """What Kafka brokers do (KIP-511): UNSUPPORTED_VERSION, a v0 body (response header v0,
    int16 error code, int32-counted array of (key, min, max), no throttle time) that lists
    only ApiVersions itself."""
    frame = api_versions_exchange(broker.proxy.target_port, 99)
    correlation_id, error_code, count = struct.unpack_from(">ihi", frame)
    assert (correlation_id, error_code, count) == (7, 35, 1)
    key, min_version, max_version = struct.unpack_from(">hhh", frame, 10)
    assert key == 18 and 0 <= min_version <= 3 <= max_version < 99
    assert len(frame) == 16


def test_what_tansu_answers_to_a_too_new_api_versions_request(broker):
    """Tansu's actual answer, byte for byte the same as its answer at version 3: a client has
    to recognise it by its flexible layout, not by error 35."""
    too_new = api_versions_exchange(broker.proxy.target_port, 99)
    at_v3 = api_versions_exchange(broker.proxy.target_port, 3)
    assert too_new == at_v3
    correlation_id, error_code = struct.unpack_from(">ih", too_new)
    assert (correlation_id, error_code) == (7, 0)
    _, msg = decode_response(too_new, api_key=18, api_version=3)
    keys = {k.api_key: (k.min_version, k.max_version) for k in msg.api_keys}
    assert keys[18][1] >= 3 and {0, 1, 3} <= keys.keys()
    # and version 0, which it speaks, gets the v0 layout
    at_v0 = api_versions_exchange(broker.proxy.target_port, 0)
    _, v0 = decode_response(at_v0, api_key=18, api_version=0)
    assert v0.error_code == 0 and v0.api_keys == msg.api_keys
    assert encode_response(v0, version=0, correlation_id=7, size_prefix=False) == at_v0
