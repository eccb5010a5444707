"""Quick timing: Metadata v12 response, 1,000 topics x 10 partitions, against kio and kafka-python.

Run: .venv/bin/python tests/protocol/bench_metadata.py
"""

import gc
import io
import time
import timeit
import uuid

from kafka.protocol.metadata import MetadataResponse as KpMetadataResponse
from kio.schema.metadata.v12.response import MetadataResponse as KioMetadataResponse
from kio.serial import entity_reader, entity_writer

from kafkawire import messages as m
from kafkawire.protocol import decode, encode

R = m.MetadataResponse


def build(topics: int = 1000, partitions: int = 10) -> m.MetadataResponse:
    return R(
        brokers=[
            R.MetadataResponseBroker(node_id=i, host=f"broker-{i}", port=9092) for i in range(3)
        ],
        cluster_id="cluster",
        controller_id=1,
        topics=[
            R.MetadataResponseTopic(
                name=f"topic-{t}",
                topic_id=uuid.UUID(int=t + 1),
                partitions=[
                    R.MetadataResponsePartition(
                        partition_index=p,
                        leader_id=p % 3,
                        leader_epoch=5,
                        replica_nodes=[0, 1, 2],
                        isr_nodes=[0, 1, 2],
                    )
                    for p in range(partitions)
                ],
            )
            for t in range(topics)
        ],
    )


def best(fn, gc_enabled: bool, number: int = 5) -> float:
    # CPU time: the machine is shared, and wall time mostly measures the neighbours.
    # timeit turns the collector off unless told otherwise; pytest-benchmark leaves it on.
    setup = gc.enable if gc_enabled else gc.disable
    timings = timeit.repeat(fn, setup=setup, number=number, repeat=7, timer=time.process_time)
    return min(timings) / number


def main() -> None:
    msg = build()
    data = encode(msg, version=12)
    kio_read = entity_reader(KioMetadataResponse)
    kio_write = entity_writer(KioMetadataResponse)
    kio_msg = kio_read(data, 0)[0] if not hasattr(kio_read, "read") else None
    kp_msg = KpMetadataResponse.decode(data, version=12)
    kp_msg._header = None  # decode() leaves it unset, and encode() reads it

    def kio_encode():
        buf = io.BytesIO()
        kio_write(buf, kio_msg)
        return buf.getvalue()

    assert kio_encode() == data
    assert kp_msg.encode(version=12) == data
    cases = {
        "decode kafkawire": lambda: decode(R, data, version=12),
        "decode kio": lambda: kio_read(data, 0),
        "decode kafka-python": lambda: KpMetadataResponse.decode(data, version=12),
        "encode kafkawire": lambda: encode(msg, version=12),
        "encode kio": kio_encode,
        "encode kafka-python": lambda: kp_msg.encode(version=12),
    }
    print(f"Metadata v12 response, 1,000 topics x 10 partitions, {len(data):,} bytes")
    for gc_enabled in (True, False):
        results = {name: best(fn, gc_enabled) for name, fn in cases.items()}
        print(f"garbage collector {'on' if gc_enabled else 'off'}:")
        for name, secs in results.items():
            print(f"  {name:22s} {secs * 1e3:8.2f} ms")
        for op in ("decode", "encode"):
            ours = results[f"{op} kafkawire"]
            print(
                f"  {op}: {results[f'{op} kio'] / ours:.1f}x kio, "
                f"{results[f'{op} kafka-python'] / ours:.1f}x kafka-python"
            )


if __name__ == "__main__":
    main()
