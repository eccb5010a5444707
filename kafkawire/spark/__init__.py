"""kafkawire for PySpark: Spark 4's Python Data Source API over kafkawire.

``register(spark)`` makes two formats available:

* ``"kafkawire"``: Kafka topics, read (batch and streaming) and written (batch and
  streaming) with Spark's Kafka source and sink options and columns;
* ``"kafkawire_segments"``: Kafka log-segment files (``NNNNNNNNNNNNNNNNNNNN.log``) read
  straight from disk, one Spark task per file.

Readers yield Arrow record batches built by kafkawire: no Python object per record.
Needs pyspark >= 4.2 and pyarrow. See docs/spark.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

from kafkawire.spark._options import DataLossError, OptionError
from kafkawire.spark._planning import offsets_behind_latest

SOURCE_NAME = "kafkawire"
SEGMENT_SOURCE_NAME = "kafkawire_segments"

# pyspark is imported on first use: the errors and offsets_behind_latest work without it
_LAZY = {
    "KafkaDataSource": "kafkawire.spark._sources",
    "SegmentDataSource": "kafkawire.spark._sources",
    "kafka_schema": "kafkawire.spark._sources",
}


def register(spark: SparkSession) -> None:
    """Register the "kafkawire" and "kafkawire_segments" data sources with ``spark``, and let
    ``df.write.format("kafkawire").save()`` append in the default save mode (ErrorIfExists),
    as Spark's Kafka sink does (Spark refuses that mode to Python data sources otherwise)."""
    from kafkawire.spark import _save_mode
    from kafkawire.spark._sources import KafkaDataSource, SegmentDataSource

    spark.dataSource.register(KafkaDataSource)
    spark.dataSource.register(SegmentDataSource)
    _save_mode.install()


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kafkawire.spark' has no attribute {name!r}")


__all__ = [
    "SEGMENT_SOURCE_NAME",
    "SOURCE_NAME",
    "DataLossError",
    "KafkaDataSource",
    "OptionError",
    "SegmentDataSource",
    "kafka_schema",
    "offsets_behind_latest",
    "register",
]
