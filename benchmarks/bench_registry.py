"""Schema-registry payloads from a fetch response to an Arrow table (issue 23's speed row).

1,000,000 records in a FetchResponse (10 partitions of 100,000, batches of 1,000 built with
aiokafka's builder), each value a Confluent-framed Avro record of a 10-field schema (strings,
longs, doubles, a nullable union, a timestamp). Every side starts from the response bytes and
ends with a pyarrow Table of the decoded fields:

- kafkawire: decode_response, decode_records per partition, ``view.decode_values`` (the C
  decoder), ``pa.Table.from_struct_array``.
- fastavro: the same response decode, the values iterated with kafkawire's read_batches (the
  fastest per-record iterator at hand: in the peers' favour), ``fastavro.schemaless_reader``
  per value, ``pa.Table.from_pylist``.
- confluent-kafka: the same, with its ``AvroDeserializer`` (against its mock registry client,
  so no HTTP is timed).

The Protobuf rows: the same million as a proto3 message of the same ten fields (the nullable
note an ``optional string``, the timestamp a google.protobuf.Timestamp), framed as
confluent-kafka frames it (message index [0]), against the protobuf package's parser
(``Trade.FromString`` per value, every field read into a dict, the Timestamp as microseconds).

Paired rounds (A, B, A, B, order alternating), GC on. The peers' loops are also timed without
the table build (``*-loop`` groups), so the ratio the table build gives them is visible. The
physical limit rows: the same value bytes copied once (memcpy) and checksummed (crc32c).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import struct

import numpy as np
import pyarrow as pa
import pytest
from workloads import paired_rounds

from kafkawire import messages as m
from kafkawire.protocol import decode as decode_message
from kafkawire.protocol import encode
from kafkawire.records import decode_records, read_batches
from kafkawire.registry import SchemaRegistryClient

fastavro = pytest.importorskip("fastavro")
aiokafka_builder = pytest.importorskip("aiokafka.record.default_records")
confluent_sr = pytest.importorskip("confluent_kafka.schema_registry")

N_PARTITIONS = 10
PER_PARTITION = 100_000
PER_BATCH = 1_000
VERSION = 12

SCHEMA = {
    "type": "record",
    "name": "Trade",
    "namespace": "bench",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "symbol", "type": "string"},
        {"name": "price", "type": "double"},
        {"name": "quantity", "type": "long"},
        {"name": "side", "type": "string"},
        {"name": "venue", "type": "string"},
        {"name": "fee", "type": "double"},
        {"name": "note", "type": ["null", "string"], "default": None},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "account", "type": "long"},
    ],
}
SYMBOLS = ["AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "META", "TSLA", "ASML"]
VENUES = ["XNAS", "XNYS", "BATS", "ARCX"]


def _values(schema_id: int) -> list[bytes]:
    rng = random.Random(23)
    parsed = fastavro.parse_schema(SCHEMA)
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    out = []
    prefix = b"\0" + struct.pack(">I", schema_id)
    for i in range(N_PARTITIONS * PER_PARTITION):
        record = {
            "id": i,
            "symbol": rng.choice(SYMBOLS),
            "price": rng.uniform(1, 1000),
            "quantity": rng.randrange(1, 100_000),
            "side": "buy" if rng.random() < 0.5 else "sell",
            "venue": rng.choice(VENUES),
            "fee": rng.uniform(0, 5),
            "note": None if rng.random() < 0.8 else f"manual-{rng.randrange(1000)}",
            "ts": start + dt.timedelta(microseconds=i * 1000 + rng.randrange(1000)),
            "account": rng.randrange(10**9),
        }
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, parsed, record)
        out.append(prefix + buf.getvalue())
    return out


def _batches(values: list[bytes]) -> bytes:
    out = bytearray()
    for start in range(0, len(values), PER_BATCH):
        b = aiokafka_builder.DefaultRecordBatchBuilder(
            magic=2,
            compression_type=0,
            is_transactional=False,
            producer_id=-1,
            producer_epoch=-1,
            base_sequence=-1,
            batch_size=1 << 30,
        )
        for k, v in enumerate(values[start : start + PER_BATCH]):
            b.append(k, timestamp=1_700_000_000_000 + k, key=None, value=v, headers=[])
        batch = b.build()
        struct.pack_into(">q", batch, 0, start % PER_PARTITION)  # base offset
        out += batch
    return bytes(out)


def _fetch_response(values: list[bytes]) -> bytes:
    """A FetchResponse of one topic whose partitions share the values in order."""
    FR = m.FetchResponse
    response = FR(
        responses=[
            FR.FetchableTopicResponse(
                topic="trades",
                partitions=[
                    FR.PartitionData(
                        partition_index=p,
                        high_watermark=PER_PARTITION,
                        last_stable_offset=PER_PARTITION,
                        log_start_offset=0,
                        records=_batches(values[p * PER_PARTITION : (p + 1) * PER_PARTITION]),
                    )
                    for p in range(N_PARTITIONS)
                ],
            )
        ],
    )
    return encode(response, version=VERSION)


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    from confluent_kafka.schema_registry.avro import AvroDeserializer

    mock = confluent_sr.SchemaRegistryClient.new_client({"url": "mock://bench-registry"})
    schema_id = mock.register_schema("trades-value", confluent_sr.Schema(json.dumps(SCHEMA)))
    directory = tmp_path_factory.mktemp("registry")
    (directory / f"{schema_id}.avsc").write_text(json.dumps(SCHEMA))
    registry = SchemaRegistryClient(directory)
    values = _values(schema_id)
    data = _fetch_response(values)
    arrow_type = pa.struct(
        [
            ("id", pa.int64()),
            ("symbol", pa.string()),
            ("price", pa.float64()),
            ("quantity", pa.int64()),
            ("side", pa.string()),
            ("venue", pa.string()),
            ("fee", pa.float64()),
            ("note", pa.string()),
            ("ts", pa.timestamp("us", tz="UTC")),
            ("account", pa.int64()),
        ]
    )
    return {
        "data": data,
        "registry": registry,
        "deserializer": AvroDeserializer(mock),
        "arrow_schema": pa.schema(list(arrow_type)),
        "value_bytes": b"".join(values),
    }


def _partitions(data: bytes):
    response = decode_message(m.FetchResponse, data, version=VERSION)
    return [p.records for t in response.responses for p in t.partitions]


def kafkawire_table(w) -> pa.Table:
    tables = [
        pa.Table.from_struct_array(decode_records(records).decode_values(w["registry"]))
        for records in _partitions(w["data"])
    ]
    return pa.concat_tables(tables)


def _peer_rows(w, decode_one) -> list[dict]:
    rows = []
    append = rows.append
    for records in _partitions(w["data"]):
        for batch in read_batches(records):
            for record in batch:
                append(decode_one(record.value))
    return rows


def _fastavro_one(parsed):
    reader = fastavro.schemaless_reader

    def one(value):
        return reader(io.BytesIO(memoryview(value)[5:]), parsed, None)

    return one


def _confluent_one(w):
    from confluent_kafka.serialization import MessageField, SerializationContext

    ctx = SerializationContext("trades", MessageField.VALUE)
    deserializer = w["deserializer"]

    def one(value):
        return deserializer(bytes(value), ctx)

    return one


def _peer(w, name: str, *, table: bool):
    one = _fastavro_one(fastavro.parse_schema(SCHEMA)) if name == "fastavro" else _confluent_one(w)

    def run():
        rows = _peer_rows(w, one)
        return pa.Table.from_pylist(rows, schema=w["arrow_schema"]) if table else rows

    return run


def test_same_table(workload):
    """Every side gives the same table (the race is only fair if so)."""
    ours = kafkawire_table(workload)
    sample = pa.Table.from_pylist(
        _peer_rows(workload, _fastavro_one(fastavro.parse_schema(SCHEMA)))[:1000],
        schema=workload["arrow_schema"],
    )
    assert ours.num_rows == N_PARTITIONS * PER_PARTITION
    assert ours.slice(0, 1000).equals(sample)


@pytest.mark.parametrize(
    ("peer", "table", "rounds"),
    [("fastavro", True, 5), ("fastavro", False, 5), ("confluent-kafka", True, 3)],
)
def test_paired_avro_to_arrow(benchmark, workload, peer, table, rounds):
    """kafkawire against a peer, alternating, on the whole million."""
    ours = lambda: kafkawire_table(workload)  # noqa: E731
    theirs = _peer(workload, peer, table=table)
    ours()
    benchmark.group = f"registry avro 1M: {peer}{'' if table else '-loop'}"
    times = paired_rounds(benchmark, ours, theirs, rounds)
    benchmark.extra_info.update(
        suite="paired",
        workload="avro-10-fields-1M",
        pair=f"decode_values vs {peer}{'' if table else ' (loop without the table)'}",
        how="speedup",
        ours_seconds=times["ours"],
        theirs_seconds=times["theirs"],
    )


PROTO = """
syntax = "proto3";
package bench;
import "google/protobuf/timestamp.proto";
message Trade {
  int64 id = 1;
  string symbol = 2;
  double price = 3;
  int64 quantity = 4;
  string side = 5;
  string venue = 6;
  double fee = 7;
  optional string note = 8;
  google.protobuf.Timestamp ts = 9;
  int64 account = 10;
}
"""


def _proto_class():
    from google.protobuf import descriptor_pool, message_factory, timestamp_pb2

    from kafkawire.registry import proto_text

    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto_text.well_known("google/protobuf/timestamp.proto"))
    pool.Add(proto_text.parse(PROTO, "trade.proto"))
    assert timestamp_pb2.Timestamp  # the well-known type's Python class is loaded
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.Trade"))


@pytest.fixture(scope="module")
def proto_workload(tmp_path_factory, workload):
    """The Avro workload's records as Protobuf values (schema id 7 in a file registry)."""
    pytest.importorskip("google.protobuf")
    trade = _proto_class()
    directory = tmp_path_factory.mktemp("registry-proto")
    (directory / "7.proto").write_text(PROTO)
    avro = kafkawire_table(workload).to_pylist()
    prefix = b"\0" + struct.pack(">I", 7) + b"\0"  # message indexes [0]: one zero byte
    values = []
    for row in avro:
        ts = row.pop("ts")
        micros = int(ts.timestamp()) * 1_000_000 + ts.microsecond
        msg = trade(**{k: v for k, v in row.items() if v is not None})
        msg.ts.seconds, msg.ts.nanos = divmod(micros, 1_000_000)
        msg.ts.nanos *= 1000
        values.append(prefix + msg.SerializeToString())
    return {
        "data": _fetch_response(values),
        "registry": SchemaRegistryClient(directory),
        "class": trade,
        "arrow_schema": workload["arrow_schema"],
        "value_bytes": b"".join(values),
    }


def _protobuf_one(trade):
    parse = trade.FromString

    def one(value):
        msg = parse(memoryview(value)[6:])
        ts = msg.ts
        return {
            "id": msg.id,
            "symbol": msg.symbol,
            "price": msg.price,
            "quantity": msg.quantity,
            "side": msg.side,
            "venue": msg.venue,
            "fee": msg.fee,
            "note": msg.note if msg.HasField("note") else None,
            "ts": ts.seconds * 1_000_000 + ts.nanos // 1000,
            "account": msg.account,
        }

    return one


def _protobuf_peer(w, *, table: bool):
    one = _protobuf_one(w["class"])

    def run():
        rows = _peer_rows(w, one)
        return pa.Table.from_pylist(rows, schema=w["arrow_schema"]) if table else rows

    return run


def test_same_protobuf_table(proto_workload, workload):
    ours = kafkawire_table(proto_workload)
    assert ours.num_rows == N_PARTITIONS * PER_PARTITION
    assert ours.cast(workload["arrow_schema"]).equals(kafkawire_table(workload))
    peer = _protobuf_peer(proto_workload, table=True)()
    assert peer.equals(ours.cast(workload["arrow_schema"]))


@pytest.mark.parametrize(("table", "rounds"), [(True, 5), (False, 5)])
def test_paired_protobuf_to_arrow(benchmark, proto_workload, table, rounds):
    """kafkawire against the protobuf package's parser, alternating, on the whole million."""
    ours = lambda: kafkawire_table(proto_workload)  # noqa: E731
    theirs = _protobuf_peer(proto_workload, table=table)
    ours()
    benchmark.group = f"registry protobuf 1M: protobuf{'' if table else '-loop'}"
    times = paired_rounds(benchmark, ours, theirs, rounds)
    benchmark.extra_info.update(
        suite="paired",
        workload="protobuf-10-fields-1M",
        pair=f"decode_values vs protobuf{'' if table else ' (loop without the table)'}",
        how="speedup",
        ours_seconds=times["ours"],
        theirs_seconds=times["theirs"],
    )


ENCODE_ROWS = 200_000


def test_paired_encode_avro(benchmark, workload):
    """The sink's side: 200,000 decoded rows (a struct column) back to framed Avro values,
    kafkawire's encode_avro against a fastavro ``schemaless_writer`` loop over the rows as
    Python dicts (``to_pylist``, as a Python sink must); the bytes are the same."""
    from kafkawire.registry import Schema
    from kafkawire.registry.encode import encode_avro

    column = kafkawire_table(workload).slice(0, ENCODE_ROWS).to_struct_array().combine_chunks()
    schema = Schema(json.dumps(SCHEMA), schema_id=1)
    parsed = fastavro.parse_schema(SCHEMA)
    prefix = b"\0" + struct.pack(">I", 1)

    def ours():
        return encode_avro(column, schema)

    def theirs():
        out = []
        write = fastavro.schemaless_writer
        for row in column.to_pylist():
            buf = io.BytesIO()
            buf.write(prefix)
            write(buf, parsed, row)
            out.append(buf.getvalue())
        return out

    assert ours().to_pylist()[:100] == theirs()[:100]
    benchmark.group = "registry avro encode 200k: fastavro"
    times = paired_rounds(benchmark, ours, theirs, 3)
    benchmark.extra_info.update(
        suite="paired",
        workload="avro-encode-200k",
        pair="encode_avro vs fastavro schemaless_writer",
        how="speedup",
        ours_seconds=times["ours"],
        theirs_seconds=times["theirs"],
    )


def test_limit_memcpy(benchmark, workload):
    """The value bytes copied once: the floor of any decoder that writes them out."""
    src = np.frombuffer(workload["value_bytes"], dtype=np.uint8)
    dst = np.empty_like(src)
    benchmark.group = "registry avro 1M: limits"
    benchmark(np.copyto, dst, src)


def test_limit_crc32c(benchmark, workload):
    """The value bytes through crc32c alone (what a fetch's CRC check costs for them)."""
    crc32c = pytest.importorskip("crc32c")
    benchmark.group = "registry avro 1M: limits"
    benchmark(crc32c.crc32c, workload["value_bytes"])


def test_kafkawire_alone(benchmark, workload):
    """kafkawire's pipeline alone (for the limit ratios)."""
    benchmark.group = "registry avro 1M: limits"
    benchmark.pedantic(kafkawire_table, args=(workload,), rounds=5, iterations=1)
