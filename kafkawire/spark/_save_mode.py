"""df.write's default save mode for the "kafkawire" sink.

Spark's Kafka sink takes ErrorIfExists, the default mode of ``df.write``, as append. For a
Python data source Spark refuses that mode on the driver, before the source sees the write
(DataFrameWriter.saveInternal: "cannot be written in the ErrorIfExists mode"). ``register()``
therefore wraps pyspark's DataFrameWriter so that a write to the kafkawire format in that mode
appends, and one in Ignore mode (which Spark's Kafka sink refuses too) fails naming the modes
that work. Writes to other formats go through untouched.
"""

from __future__ import annotations

import functools

from pyspark.sql.readwriter import DataFrameWriter

from kafkawire.spark import SOURCE_NAME
from kafkawire.spark._options import OptionError

# Spark's spellings of ErrorIfExists (SaveMode names, case-insensitive)
_ERROR_IF_EXISTS = ("error", "errorifexists", "default")


def install() -> None:
    """Wrap DataFrameWriter.format, .mode and .save (once per process)."""
    if getattr(DataFrameWriter.save, "_kafkawire", False):
        return
    original_format, original_mode, original_save = (
        DataFrameWriter.format,
        DataFrameWriter.mode,
        DataFrameWriter.save,
    )

    @functools.wraps(original_format)
    def format(self, source):
        self._kafkawire_format = str(source).lower()
        return original_format(self, source)

    @functools.wraps(original_mode)
    def mode(self, saveMode):
        if saveMode is not None:  # mode(None) leaves the mode as it is
            self._kafkawire_mode = str(saveMode).lower()
        return original_mode(self, saveMode)

    @functools.wraps(original_save)
    def save(self, path=None, format=None, mode=None, partitionBy=None, **options):
        if format is not None:
            self.format(format)
        self.mode(mode)
        if getattr(self, "_kafkawire_format", None) == SOURCE_NAME:
            chosen = getattr(self, "_kafkawire_mode", "errorifexists")
            if chosen in _ERROR_IF_EXISTS:
                self.mode("append")  # as Spark's Kafka sink takes it
            elif chosen == "ignore":
                raise OptionError(
                    "save mode Ignore is not allowed for Kafka topics: use append or "
                    "errorifexists (the default), which both append"
                )
        return original_save(self, path, partitionBy=partitionBy, **options)

    save._kafkawire = True  # type: ignore[attr-defined]
    DataFrameWriter.format = format  # type: ignore[method-assign]
    DataFrameWriter.mode = mode  # type: ignore[method-assign]
    DataFrameWriter.save = save  # type: ignore[method-assign]
