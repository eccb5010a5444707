"""Found by PySpark's data source lookup (top-level modules named ``pyspark_*`` that define
``DefaultSource``): ``spark.read.format("kafkawire_segments")`` works without registering."""

from kafkawire.spark._sources import SegmentDataSource as DefaultSource

__all__ = ["DefaultSource"]
