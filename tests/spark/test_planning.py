"""The parts of the Kafka source that need no Spark: options, offset resolution against a real
broker, splitting, rate limiting, the vectorised partitioner. Fast, so they carry the
combinatorics; the Spark tests check the whole path."""

from __future__ import annotations

import json
import time
import uuid

import numpy as np
import pyarrow as pa
import pytest

from kafkawire.client import (
    BrokerConnectionError,
    Client,
    RequestTimeoutError,
    TopicPartition,
    key_partitions,
    murmur2,
)
from kafkawire.protocol.error_codes import UnknownTopicOrPartitionError
from kafkawire.spark._options import DataLossError, OptionError
from kafkawire.spark._planning import (
    Bounds,
    OffsetRange,
    check_ranges,
    clamp_ending_offsets,
    from_json,
    offsets_behind_latest,
    rate_limit,
    resolve_offsets,
    split_ranges,
    subscribed_partitions,
    to_json,
    with_retries,
)
from kafkawire.spark._read_options import OffsetSpec, check_read_options, read_options
from kafkawire.spark._reading import read_offset_range
from kafkawire.spark._write_options import write_options
from tests.support.faults import TRICKLE, proxied_tansu

pytestmark = pytest.mark.interop

BASE = {"kafka.bootstrap.servers": "127.0.0.1:1", "subscribe": "t"}
T0 = 1_800_000_000_000


def test_options_follow_spark_names_case_insensitively():
    opts = read_options(
        {
            "KAFKA.BOOTSTRAP.SERVERS": "h:1,h:2",
            "Assign": '{"a": [0, 2], "b": [1]}',
            "STARTINGOFFSETS": '{"a": {"0": 5, "2": -2}, "b": {"1": -2}}',
            "endingoffsets": '{"a": {"0": -1, "2": 9}, "b": {"1": 4}}',
            "includeheaders": "True",
            "minpartitions": "8",
            "failondataloss": "false",
            "kafka.isolation.level": "read_committed",
        },
        streaming=False,
    )
    assert opts.client.bootstrap_servers == "h:1,h:2"
    assert opts.subscription.assigned == (
        TopicPartition("a", 0),
        TopicPartition("a", 2),
        TopicPartition("b", 1),
    )
    assert opts.starting == OffsetSpec(
        "offsets",
        {TopicPartition("a", 0): 5, TopicPartition("a", 2): -2, TopicPartition("b", 1): -2},
    )
    assert opts.ending.per_partition[TopicPartition("a", 2)] == 9
    assert (opts.include_headers, opts.min_partitions, opts.fail_on_data_loss) == (True, 8, False)
    assert opts.isolation_level == 1
    # startingTimestamp beats startingOffsetsByTimestamp beats startingOffsets
    ranked = read_options(
        {**BASE, "startingTimestamp": "1000", "startingOffsetsByTimestamp": '{"t": {"0": 5}}'},
        streaming=True,
    )
    assert ranked.starting == OffsetSpec("timestamp", timestamp=1000)
    assert read_options(BASE, streaming=True).starting.kind == "latest"
    assert read_options(BASE, streaming=False).starting.kind == "earliest"
    w = write_options({"kafka.bootstrap.servers": "h:1", "kafka.acks": "1", "topic": "x"})
    assert (w.acks, w.idempotent, w.topic) == (1, False, "x")


@pytest.mark.parametrize(
    ("options", "streaming", "message"),
    [
        ({"subscribe": "t"}, False, "kafka.bootstrap.servers is required"),
        ({**BASE, "assign": '{"t": [0]}'}, False, "exactly one of"),
        ({"kafka.bootstrap.servers": "h:1"}, False, "exactly one of"),
        ({**BASE, "startingOffsets": "latest"}, False, "cannot be latest for batch"),
        ({**BASE, "endingOffsets": "earliest"}, False, "cannot be earliest for batch"),
        ({**BASE, "startingOffsets": '{"t": {"0": -1}}'}, False, "cannot use -1"),
        ({**BASE, "startingOffsets": '{"t": {"0": -7}}'}, True, "must be >= 0, -1 or -2"),
        ({**BASE, "startingOffsets": "{nope"}, False, "not valid JSON"),
        ({**BASE, "endingOffsets": "latest"}, True, "for batch queries, not streaming"),
        ({**BASE, "subscribePattern": "(", "subscribe": None}, False, "not a valid regex"),
        ({**BASE, "minPartitions": "0"}, False, "at least 1"),
        ({**BASE, "failOnDataLoss": "maybe"}, False, "true or false"),
        ({**BASE, "kafka.security.protocol": "SSH"}, False, "none of PLAINTEXT, SSL"),
        ({**BASE, "kafka.sasl.pasword": "x"}, False, "did you mean 'sasl.password'"),
        (
            {**BASE, "kafka.security.protocol": "SASL_SSL", "kafka.sasl.mechanism": "PLAIN"},
            False,
            "needs sasl.username",
        ),
        (
            {**BASE, "kafka.sasl.login.callback.handler.class": "com.example.Handler"},
            False,
            "JVM callback handler classes cannot load",
        ),
        ({**BASE, "kafka.value.deserializer": "x"}, False, "always read as binary"),
        # a misspelled option is refused with the closest name, never quietly ignored
        (
            {**BASE, "startingOffset": "earliest"},
            False,
            r"unknown option 'startingoffset' for a Kafka read \(did you mean 'startingOffsets'",
        ),
        ({**BASE, "failOnDataLos": "false"}, True, "did you mean 'failOnDataLoss'"),
        ({**BASE, "topic": "t"}, False, "option 'topic' is not an option of a Kafka read"),
        # kafka.* options are checked by the consumer's config
        (
            {**BASE, "kafka.isolation.levle": "read_committed"},
            False,
            r"unknown consumer property 'isolation.levle' \(did you mean 'isolation.level'",
        ),
        ({**BASE, "kafka.fetch.min.bytes": "lots"}, False, "consumer property 'fetch.min.bytes'"),
        ({**BASE, "minOffsetsPerTrigger": "0"}, True, "minOffsetsPerTrigger must be at least 1"),
        ({**BASE, "maxTriggerDelay": "soon"}, True, "maxTriggerDelay must be a duration"),
        ({**BASE, "maxTriggerDelay": "5 weeks"}, True, "maxTriggerDelay must be a duration"),
        ({**BASE, "kafkaConsumer.pollTimeoutMs": "2m"}, False, "pollTimeoutMs must be an integer"),
        ({**BASE, "fetchOffset.numRetries": "0"}, False, "numRetries must be at least 1"),
        ({**BASE, "kafka.group.id": " "}, False, "kafka.group.id is empty"),
        ({**BASE, "groupIdPrefix": ""}, False, "groupIdPrefix is empty"),
    ],
)
def test_bad_options_are_refused(options, streaming, message):
    with pytest.raises(OptionError, match=message):
        read_options(options, streaming=streaming)


def test_new_options_with_sparks_defaults():
    default = read_options(BASE, streaming=True)
    assert (default.min_offsets_per_trigger, default.max_trigger_delay_ms) == (None, 15 * 60000)
    assert default.poll_timeout_ms == 120000
    assert (default.offset_fetch_attempts, default.offset_fetch_interval_ms) == (3, 10)
    assert default.timestamp_strategy == "error"
    tuned = read_options(
        {
            **BASE,
            "minOffsetsPerTrigger": "500",
            "maxTriggerDelay": "30s",
            "kafkaConsumer.pollTimeoutMs": "5000",
            "fetchOffset.numRetries": "7",
            "fetchOffset.retryIntervalMs": "250",
            "startingOffsetsByTimestampStrategy": "LATEST",
        },
        streaming=True,
    )
    assert (tuned.min_offsets_per_trigger, tuned.max_trigger_delay_ms) == (500, 30000)
    assert (tuned.poll_timeout_ms, tuned.offset_fetch_attempts) == (5000, 7)
    assert (tuned.offset_fetch_interval_ms, tuned.timestamp_strategy) == (250, "latest")
    delays = {"250": 250, "100ms": 100, "2min": 120000, "2h": 7200000, "1d": 86400000}
    for text, ms in delays.items():
        assert (
            read_options({**BASE, "maxTriggerDelay": text}, streaming=True).max_trigger_delay_ms
            == ms
        )


def test_kafka_options_reach_the_consumer():
    """kafka.* options the reader does not set itself go to the executors' consumers; Java
    settings with no counterpart here (JVM networking, metrics) are accepted and left out."""
    opts = read_options(
        {
            **BASE,
            "kafka.fetch.min.bytes": "4096",
            "kafka.retry.backoff.ms": "50",
            "kafka.metadata.max.age.ms": "1000",
            "kafka.isolation.level": "read_committed",
            "kafka.client.id": "etl",
            "kafka.group.id": "etl",  # checked with the properties it goes with
            "kafka.group.instance.id": "etl-1",
        },
        streaming=False,
    )
    assert dict(opts.consumer_properties) == {
        "fetch.min.bytes": "4096",
        "retry.backoff.ms": "50",
        "group.instance.id": "etl-1",
    }
    consumer = opts.client.consumer(dict(opts.consumer_properties), group_id=opts.group_id)
    try:  # the settings the consumer runs with
        assert consumer._consumer.config.fetch_min_bytes == 4096
        assert consumer._core.config.retry_backoff == 0.05
    finally:
        consumer.close()


def test_timeout_options_set_the_clients_timeouts():
    """kafka.socket.timeout.ms (librdkafka's request.timeout.ms) and
    kafka.socket.connection.setup.timeout.ms set the timeouts the reader and the writer give
    their clients, rather than meeting those settings as a conflict."""
    options = {
        **BASE,
        "kafka.socket.timeout.ms": "5000",
        "kafka.socket.connection.setup.timeout.ms": "2000",
    }
    opts = read_options(options, streaming=False)
    assert "socket.timeout.ms" not in dict(opts.consumer_properties)
    consumer = opts.client.consumer(dict(opts.consumer_properties), group_id=opts.group_id)
    try:
        assert consumer._core.config.request_timeout == 5.0
        assert consumer._core.config.connect_timeout == 2.0
    finally:
        consumer.close()
    sink = write_options(
        {
            "kafka.bootstrap.servers": BASE["kafka.bootstrap.servers"],
            "kafka.socket.timeout.ms": "5000",
            "topic": "t",
        }
    )
    producer = sink.client.producer(dict(sink.producer_properties))
    try:
        assert producer._core.config.request_timeout == 5.0
    finally:
        producer.close()


def test_load_checks_what_is_wrong_in_both_modes():
    """load() cannot tell a batch read from a stream: it refuses what neither takes and lets
    through what one of them does (the other is refused when the query starts)."""
    check_read_options({**BASE, "startingOffsets": "latest"})  # streams only
    check_read_options({**BASE, "endingOffsets": "latest"})  # batch only
    with pytest.raises(OptionError, match="did you mean 'endingOffsets'"):
        check_read_options({**BASE, "endingOffset": "latest"})
    with pytest.raises(OptionError, match="exactly one of"):
        check_read_options({"kafka.bootstrap.servers": "h:1"})


def test_ending_offsets_past_the_end_are_not_data_loss():
    tp = TopicPartition("t", 0)
    bounds = Bounds({tp: 0}, {tp: 10})
    with pytest.raises(OptionError) as refused:
        clamp_ending_offsets({tp: 40}, bounds, fail_on_data_loss=True)
    message = str(refused.value)
    assert "endingOffsets asks for t-0 up to offset 40, but the partition ends at 10" in message
    assert "offsets 10 to 39 have not been written" in message
    assert "lost" not in message and "np." not in message
    assert clamp_ending_offsets({tp: 40}, bounds, fail_on_data_loss=False) == {tp: 10}
    assert clamp_ending_offsets({tp: 7}, bounds, fail_on_data_loss=True) == {tp: 7}


def test_offset_fetches_are_retried_as_fetchOffset_says(broker):
    """fetchOffset.numRetries tries in all, fetchOffset.retryIntervalMs apart, on failures a
    retry may mend; others at once."""
    calls = []

    def flaky(failures: int):
        def fetch():
            calls.append(time.monotonic())
            if len(calls) <= failures:
                raise BrokerConnectionError("connection reset")
            return "offsets"

        return fetch

    assert with_retries(flaky(2), 3, 50) == "offsets"
    assert len(calls) == 3 and calls[2] - calls[1] >= 0.05
    calls.clear()
    with pytest.raises(BrokerConnectionError):
        with_retries(flaky(2), 2, 0)
    assert len(calls) == 2
    # a topic that is not there is retriable in Kafka's table: tried, then raised
    opts = read_options(
        {"kafka.bootstrap.servers": broker.bootstrap, "subscribe": f"nope-{uuid.uuid4().hex}"},
        streaming=False,
    )
    with Client(broker.bootstrap) as client, pytest.raises(UnknownTopicOrPartitionError):
        with_retries(lambda: subscribed_partitions(client, opts.subscription), 2, 0)
    with pytest.raises(OptionError):  # not a failure of the fetch: never retried
        calls.clear()
        with_retries(lambda: calls.append(1) or read_options({}, streaming=False), 3, 0)
    assert calls == [1]


def test_group_id_options_as_spark_takes_them():
    assert read_options({**BASE, "kafka.group.id": "etl"}, streaming=False).group_id == "etl"
    prefixed = read_options({**BASE, "groupIdPrefix": "nightly"}, streaming=True).group_id
    assert prefixed.startswith("nightly-") and len(prefixed) > len("nightly-") + 30
    default = read_options(BASE, streaming=True).group_id
    assert default.startswith("spark-kafka-source-")
    assert read_options(BASE, streaming=True).group_id != default  # unique per query


def test_security_options_reach_the_client_and_stay_out_of_reprs():
    jaas = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        'username="alice" password="hunter2";'
    )
    options = read_options(
        {
            **BASE,
            "kafka.security.protocol": "SASL_SSL",
            "kafka.sasl.mechanism": "SCRAM-SHA-512",
            "kafka.sasl.jaas.config": jaas,
            "kafka.ssl.endpoint.identification.algorithm": "",
        },
        streaming=False,
    )
    assert "hunter2" not in repr(options)
    client = options.client.client()
    try:
        assert client.config.security_protocol == "SASL_SSL"
        assert client.config.sasl_mechanism == "SCRAM-SHA-512"
        assert (client.config.sasl_username, client.config.sasl_password) == ("alice", "hunter2")
        assert client.config.ssl_check_hostname is False
    finally:
        client.close()


def test_split_ranges_like_spark():
    a, b = TopicPartition("a", 0), TopicPartition("b", 0)
    ranges = [OffsetRange(a, 0, 100), OffsetRange(b, 50, 60), OffsetRange(b, 5, 5)]
    assert split_ranges(ranges) == ranges[:2]  # empty ranges dropped
    split = split_ranges(ranges, min_partitions=11)
    assert split == [OffsetRange(a, 10 * i, 10 * i + 10) for i in range(10)] + [ranges[1]]
    capped = split_ranges(ranges, max_records_per_partition=40)
    assert [(r.start, r.end) for r in capped] == [(0, 33), (33, 66), (66, 100), (50, 60)]


def test_rate_limit_shares_by_size():
    a, b, c = (TopicPartition("t", p) for p in range(3))
    starts = {a: 0, b: 100, c: 7}
    ends = {a: 900, b: 200, c: 7}
    assert rate_limit(starts, ends, 10) == {a: 9, b: 101, c: 7}
    assert rate_limit(starts, ends, 5000) == ends
    assert rate_limit({a: 0, b: 0}, {a: 1000, b: 1}, 10) == {a: 9, b: 1}  # no starving
    assert from_json(json.loads(json.dumps(to_json(ends)))) == ends
    assert list(to_json({b: 1, a: 2})["t"]) == ["0", "1"]


def test_writer_partitions_keys_as_java_does():
    """The Spark sink partitions an Arrow key column with the compiled murmur2 (the one
    partitioner): binary, sliced and string columns, as Java's producer would."""
    rng = np.random.default_rng(3)
    keys = [rng.bytes(int(n)) for n in rng.integers(0, 40, 3000)] + [b"", b"a", b"ab", b"abc"]
    keys += [b"x" * 1000]
    arr = pa.array(keys, pa.binary())
    want = [(murmur2(k) & 0x7FFFFFFF) % 7 for k in keys]
    assert key_partitions(arr, 7).tolist() == want
    assert key_partitions(arr.slice(7, 100), 7).tolist() == want[7:107]
    texts = pa.array([f"user-{i}" for i in range(500)] + [None])
    want = [(murmur2(b"user-%d" % i) & 0x7FFFFFFF) % 7 for i in range(500)]
    assert key_partitions(texts, 7).tolist() == [*want, -1]


@pytest.fixture(scope="module")
def client(broker):
    with Client(broker.bootstrap) as c:
        yield c


@pytest.fixture(scope="module")
def topic(client):
    """Three partitions: 0 holds 20 records (timestamps T0 + 1000 i), 1 holds 5, 2 none."""
    name = f"plan-{uuid.uuid4().hex[:8]}"
    client.create_topics({name: 3})
    client.produce_columns(
        TopicPartition(name, 0),
        [b"v%d" % i for i in range(20)],
        timestamps=[T0 + 1000 * i for i in range(20)],
    )
    client.produce_columns(TopicPartition(name, 1), [b"w%d" % i for i in range(5)])
    return name


def test_partitions_offsets_and_ranges(client, topic):
    read = read_options({**BASE, "subscribe": topic}, streaming=False)
    tps = subscribed_partitions(client, read.subscription)
    assert tps == [TopicPartition(topic, p) for p in range(3)]
    p0, p1, p2 = tps
    bounds = Bounds.fetch(client, tps, 0)
    assert bounds.earliest == dict.fromkeys(tps, 0)
    assert bounds.latest == {p0: 20, p1: 5, p2: 0}
    pattern = read_options(
        {**BASE, "subscribe": None, "subscribePattern": topic[:-2] + ".."}, streaming=False
    )
    assert subscribed_partitions(client, pattern.subscription) == tps
    none = read_options(
        {**BASE, "subscribe": None, "subscribePattern": "x" + topic}, streaming=False
    )
    assert subscribed_partitions(client, none.subscription) == []

    def starts(options):
        spec = read_options({**BASE, "subscribe": topic, **options}, streaming=True)
        return resolve_offsets(
            client,
            spec.starting,
            tps,
            bounds,
            starting=True,
            timestamp_strategy=spec.timestamp_strategy,
        )

    assert starts({"startingOffsets": "earliest"}) == {p0: 0, p1: 0, p2: 0}
    assert starts({"startingOffsets": "latest"}) == {p0: 20, p1: 5, p2: 0}
    json_spec = {topic: {"0": 3, "1": -1, "2": -2}}
    assert starts({"startingOffsets": json.dumps(json_spec)}) == {p0: 3, p1: 5, p2: 0}
    by_time = starts(
        {"startingTimestamp": str(T0 + 4500), "startingOffsetsByTimestampStrategy": "latest"}
    )
    assert by_time[p0] <= 5 and by_time[p1] == 5 and by_time[p2] == 0  # 1 and 2: no match
    with pytest.raises(OptionError, match="startingOffsetsByTimestampStrategy"):
        starts({"startingTimestamp": str(T0 + 4500)})
    with pytest.raises(OptionError, match="every subscribed partition"):
        starts({"startingOffsets": json.dumps({topic: {"0": 1}})})

    ends = {p0: 20, p1: 5, p2: 0}
    assert check_ranges({p0: 3, p1: 0, p2: 0}, ends, bounds, fail_on_data_loss=True) == [
        OffsetRange(p0, 3, 20),
        OffsetRange(p1, 0, 5),
        OffsetRange(p2, 0, 0),
    ]
    with pytest.raises(DataLossError, match="past the end"):
        check_ranges({p0: 50, p1: 0, p2: 0}, ends, bounds, fail_on_data_loss=True)
    with pytest.raises(DataLossError, match="failOnDataLoss"):
        check_ranges({p0: 0, p1: 0, p2: 0}, {**ends, p1: 9}, bounds, fail_on_data_loss=True)
    lenient = check_ranges({p0: 50, p1: 0, p2: 0}, {**ends, p1: 9}, bounds, fail_on_data_loss=False)
    assert lenient[:2] == [OffsetRange(p0, 20, 20), OffsetRange(p1, 0, 5)]
    with pytest.raises(OptionError, match="after the ending offset"):
        check_ranges({p0: 10, p1: 0, p2: 0}, {**ends, p0: 4}, bounds, fail_on_data_loss=True)

    with pytest.raises(UnknownTopicOrPartitionError, match="nope"):
        subscribed_partitions(
            client,
            read_options({**BASE, "subscribe": f"nope-{topic}"}, streaming=False).subscription,
        )
    with pytest.raises(UnknownTopicOrPartitionError, match="do not exist"):
        assign = read_options(
            {**BASE, "subscribe": None, "assign": json.dumps({topic: [0, 7]})}, streaming=False
        )
        subscribed_partitions(client, assign.subscription)


def test_read_offset_range_and_data_loss(broker, topic):
    opts = read_options(
        {"kafka.bootstrap.servers": broker.bootstrap, "subscribe": topic, "includeHeaders": "true"},
        streaming=False,
    )
    tp = TopicPartition(topic, 0)
    batches = list(read_offset_range(opts, OffsetRange(tp, 4, 9)))
    table = pa.Table.from_batches(batches)
    assert table.column("offset").to_pylist() == [4, 5, 6, 7, 8]
    assert table.column("value").to_pylist() == [b"v%d" % i for i in range(4, 9)]
    assert set(table.column("topic").to_pylist()) == {topic}
    # records without headers: [] (null only for magic 0/1), as the Arrow schema gives them
    assert table.column("headers").to_pylist() == [[]] * 5
    # offsets past the end: gone (DataLossError) or, leniently, nothing
    with pytest.raises(DataLossError, match="out of range"):
        list(read_offset_range(opts, OffsetRange(tp, 30, 40)))
    lenient = read_options(
        {
            "kafka.bootstrap.servers": broker.bootstrap,
            "subscribe": topic,
            "failOnDataLoss": "false",
        },
        streaming=False,
    )
    assert list(read_offset_range(lenient, OffsetRange(tp, 30, 40))) == []
    with pytest.raises(DataLossError, match="ends at 20"):
        list(read_offset_range(opts, OffsetRange(tp, 18, 25)))


def test_isolation_level_reads_what_librdkafka_reads(broker, client):
    """Transaction markers are never rows, and read_committed drops the aborted record.
    Kafka names aborted transactions in its Fetch answer; Tansu does not, and kafkawire
    finds them from the ABORT markers, where librdkafka's read_committed consumer returns
    the aborted record from this broker."""
    confluent_kafka = pytest.importorskip("confluent_kafka")
    topic = f"plan-tx-{uuid.uuid4().hex[:8]}"
    client.create_topics({topic: 1})
    producer = confluent_kafka.Producer(
        {"bootstrap.servers": broker.bootstrap, "transactional.id": f"tx-{topic}"}
    )
    producer.init_transactions(20)
    for value, commit in ((b"kept-1", True), (b"dropped", False), (b"kept-2", True)):
        producer.begin_transaction()
        producer.produce(topic, value, partition=0)
        producer.flush(20)
        (producer.commit_transaction if commit else producer.abort_transaction)(20)
    tp = TopicPartition(topic, 0)
    values = {}
    for level in ("read_uncommitted", "read_committed"):
        opts = read_options(
            {
                "kafka.bootstrap.servers": broker.bootstrap,
                "subscribe": topic,
                "kafka.isolation.level": level,
            },
            streaming=False,
        )
        bounds = Bounds.fetch(client, [tp], opts.isolation_level)
        (r,) = check_ranges({tp: 0}, bounds.latest, bounds, fail_on_data_loss=True)
        table = pa.Table.from_batches(list(read_offset_range(opts, r)))
        values[level] = table.column("value").to_pylist()
    assert values["read_uncommitted"] == [b"kept-1", b"dropped", b"kept-2"]
    consumer = confluent_kafka.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": f"g-{topic}",
            "isolation.level": "read_committed",
            "enable.partition.eof": True,
        }
    )
    consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
    by_librdkafka = []
    try:
        for _ in range(40):
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                assert msg.error().code() == confluent_kafka.KafkaError._PARTITION_EOF
                break
            by_librdkafka.append(msg.value())
    finally:
        consumer.close()
    assert values["read_committed"] == [b"kept-1", b"kept-2"]
    assert {b"kept-1", b"kept-2"} <= set(by_librdkafka)  # and "dropped", from Tansu


def test_offsets_behind_latest_as_sparks_source_metrics():
    progress = {  # one source of a query's progress: Spark's offset JSON, as strings
        "endOffset": json.dumps({"t": {"0": 5, "1": 4}, "u": {"0": 7}}),
        "latestOffset": json.dumps({"t": {"0": 13, "1": 12}, "u": {"0": 7}}),
    }
    assert offsets_behind_latest(progress) == {
        "minOffsetsBehindLatest": 0,
        "maxOffsetsBehindLatest": 8,
        "avgOffsetsBehindLatest": 16 / 3,
    }
    assert offsets_behind_latest({"endOffset": "{}", "latestOffset": None}) == {}


def test_errors_importable_from_the_public_package():
    import kafkawire.spark
    from kafkawire.errors import KafkawireError

    assert kafkawire.spark.OptionError is OptionError
    assert kafkawire.spark.DataLossError is DataLossError
    assert issubclass(OptionError, KafkawireError) and issubclass(OptionError, ValueError)
    assert {"OptionError", "DataLossError", "offsets_behind_latest"} <= set(dir(kafkawire.spark))


def test_poll_timeout_fails_a_read_whose_records_never_come():
    """kafkaConsumer.pollTimeoutMs: the partition holds the records asked for, but its fetch
    answers cannot arrive (trickled through a proxy slower than the request timeout, while
    the small answers that say where the partition ends still do): the task fails in time,
    saying so, instead of polling forever."""
    with proxied_tansu() as proxy:
        name = f"plan-slow-{uuid.uuid4().hex[:8]}"
        with Client(proxy.address, request_timeout=20) as client:
            client.create_topics({name: 1})
            client.produce_columns(TopicPartition(name, 0), [b"x" * 200_000])
        opts = read_options(
            {
                "kafka.bootstrap.servers": proxy.address,
                "subscribe": name,
                "kafka.request.timeout.ms": "2500",
                "kafkaConsumer.pollTimeoutMs": "4000",
            },
            streaming=False,
        )
        proxy.mode = TRICKLE
        started = time.monotonic()
        with pytest.raises(RequestTimeoutError, match=r"offset 0 came in 4000 ms .*pollTimeoutMs"):
            list(read_offset_range(opts, OffsetRange(TopicPartition(name, 0), 0, 1)))
        assert time.monotonic() - started < 30
