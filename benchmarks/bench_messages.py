"""Message codec benchmarks: a Metadata v12 response of 1,000 topics x 10
partitions and a Fetch v12 response of 1,000 partitions, decoded and encoded
by kafkawire, kio and kafka-python in the same run (issue 3's targets)."""

from __future__ import annotations

import io
import uuid

import pytest
from workloads import paired_rounds

from kafkawire import messages as m
from kafkawire.protocol import decode, encode

kio_serial = pytest.importorskip("kio.serial")
kp_consumer = pytest.importorskip("kafka.protocol.consumer")
kp_metadata = pytest.importorskip("kafka.protocol.metadata")

MR = m.MetadataResponse
FR = m.FetchResponse
VERSION = 12


def metadata_message() -> MR:
    return MR(
        brokers=[
            MR.MetadataResponseBroker(node_id=i, host=f"broker-{i}", port=9092) for i in range(3)
        ],
        cluster_id="cluster",
        controller_id=1,
        topics=[
            MR.MetadataResponseTopic(
                name=f"topic-{t}",
                topic_id=uuid.UUID(int=t + 1),
                partitions=[
                    MR.MetadataResponsePartition(
                        partition_index=p,
                        leader_id=p % 3,
                        leader_epoch=5,
                        replica_nodes=[0, 1, 2],
                        isr_nodes=[0, 1, 2],
                    )
                    for p in range(10)
                ],
            )
            for t in range(1000)
        ],
    )


def fetch_message() -> FR:
    from kafkawire import BatchBuilder

    builder = BatchBuilder()
    for i in range(4):
        builder.append(b"value-%d" % i, key=b"k", timestamp=1_700_000_000_000 + i)
    records = builder.build()
    return FR(
        session_id=7,
        responses=[
            FR.FetchableTopicResponse(
                topic=f"topic-{t}",
                partitions=[
                    FR.PartitionData(
                        partition_index=p,
                        high_watermark=1000 + p,
                        last_stable_offset=1000 + p,
                        log_start_offset=0,
                        records=records,
                    )
                    for p in range(10)
                ],
            )
            for t in range(100)
        ],
    )


CASES = {
    "metadata-v12-1000x10": (
        metadata_message,
        "kio.schema.metadata.v12.response",
        "MetadataResponse",
        kp_metadata.MetadataResponse,
    ),
    "fetch-v12-1000-partitions": (
        fetch_message,
        "kio.schema.fetch.v12.response",
        "FetchResponse",
        kp_consumer.FetchResponse,
    ),
}


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    import importlib

    make, kio_module, kio_name, kp_cls = CASES[request.param]
    msg = make()
    data = encode(msg, version=VERSION)
    kio_cls = getattr(importlib.import_module(kio_module), kio_name)
    kio_read = kio_serial.entity_reader(kio_cls)
    kio_write = kio_serial.entity_writer(kio_cls)
    kio_msg = kio_read(data, 0)[0] if not hasattr(kio_read, "read") else None
    kp_msg = kp_cls.decode(data, version=VERSION)
    kp_msg._header = None  # kafka-python's decode() leaves it unset and encode() reads it

    def kio_encode():
        buf = io.BytesIO()
        kio_write(buf, kio_msg)
        return buf.getvalue()

    # every implementation must produce the same bytes, or the race is not fair
    assert kio_encode() == data
    assert kp_msg.encode(version=VERSION) == data
    return {
        "name": request.param,
        "cls": type(msg),
        "msg": msg,
        "data": data,
        "decode": {
            "kafkawire": lambda: decode(type(msg), data, version=VERSION),
            "kio": lambda: kio_read(data, 0),
            "kafka-python": lambda: kp_cls.decode(data, version=VERSION),
        },
        "encode": {
            "kafkawire": lambda: encode(msg, version=VERSION),
            "kio": kio_encode,
            "kafka-python": lambda: kp_msg.encode(version=VERSION),
        },
    }


@pytest.mark.parametrize("impl", ["kafkawire", "kio", "kafka-python"])
@pytest.mark.parametrize("op", ["decode", "encode"])
def test_message_codec(benchmark, case, op, impl):
    benchmark.group = f"{op} {case['name']}"
    benchmark.extra_info.update(
        suite="messages", op=op, workload=case["name"], impl=impl, bytes=len(case["data"])
    )
    benchmark(case[op][impl])


def test_paired_decode_vs_kio(benchmark, case):
    """kafkawire's and kio's decode timed in alternation, round after round (issue 22's
    target: ≥ 2.5x kio in every round), GC on as users run."""
    ours, theirs = case["decode"]["kafkawire"], case["decode"]["kio"]
    ours(), theirs()  # warm-up, not timed
    benchmark.group = f"paired {case['name']}"
    times = paired_rounds(benchmark, ours, theirs, 41)
    benchmark.extra_info.update(
        suite="paired",
        workload=case["name"],
        pair="decode vs kio",
        how="speedup",
        ours_seconds=times["ours"],
        theirs_seconds=times["theirs"],
    )
