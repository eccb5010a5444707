"""Found by PySpark's data source lookup (top-level modules named ``pyspark_*`` that define
``DefaultSource``): ``spark.read.format("kafkawire")`` works without kafkawire.spark.register."""

from kafkawire.spark._sources import KafkaDataSource as DefaultSource

__all__ = ["DefaultSource"]
