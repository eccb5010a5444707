"""The ``kafkawire`` command: look inside captures and segment files, make captures, convert
segments to Parquet, run the benchmarks.

    kafkawire inspect FILE... [--responses FILE] [-v] [--json]
    kafkawire record --listen HOST:PORT --upstream HOST:PORT --out DIR
    kafkawire convert SEGMENTS... --out FILE.parquet
    kafkawire bench [pytest arguments]

Problems with the input are reported on one line (the file, what is wrong and the byte
offset) with exit status 1, never with a traceback; usage errors exit with status 2.

One module a subcommand (``inspect``, ``record``, ``convert``, ``bench``), the renderer
(``render``), and the parser with ``main`` (``main``).
"""

from kafkawire.cli.common import CliError
from kafkawire.cli.convert import ProgressBar
from kafkawire.cli.main import build_parser, main
from kafkawire.cli.record import Recorder

__all__ = ["CliError", "ProgressBar", "Recorder", "build_parser", "main"]
