"""Kafka records: decoding (read_batches, decode_records) and building
(BatchBuilder, build_batches, build_control_batch).

The work is done in the compiled modules kafkawire._records (decode) and
kafkawire._builder (encode); this module is their public face.
"""

from kafkawire._builder import BatchBuilder, build_batches, build_control_batch
from kafkawire._records import (
    BatchReader,
    BinaryColumn,
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
    "ControlRecord",
    "Record",
    "RecordBatch",
    "RecordView",
    "build_batches",
    "build_control_batch",
    "crc32c",
    "crc32c_implementation",
    "decode_records",
    "parse_control_record",
    "read_batches",
]
