"""Kafka records: decoding (read_batches, decode_records) and building
(BatchBuilder, build_batches, iter_batches, build_control_batch).

The work is done in the compiled modules kafkawire.records._decode (decode) and
kafkawire.records._build (encode); this module is their public face.
"""

from kafkawire.records._build import (
    BatchBuilder,
    build_batches,
    build_control_batch,
    iter_batches,
)
from kafkawire.records._decode import (
    BatchReader,
    BinaryColumn,
    ConsumerRecord,
    ControlRecord,
    Record,
    RecordBatch,
    RecordView,
    crc32c,
    crc32c_implementation,
    decode_records,
    parse_control_record,
    read_batches,
)

__all__ = [
    "BatchBuilder",
    "BatchReader",
    "BinaryColumn",
    "ConsumerRecord",
    "ControlRecord",
    "Record",
    "RecordBatch",
    "RecordView",
    "build_batches",
    "build_control_batch",
    "crc32c",
    "crc32c_implementation",
    "decode_records",
    "iter_batches",
    "parse_control_record",
    "read_batches",
]
