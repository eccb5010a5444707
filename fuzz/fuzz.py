"""Run one fuzz target of fuzz/targets.py under atheris (coverage-guided).

    python fuzz/fuzz.py TARGET [corpus dirs] [libFuzzer flags]
    python fuzz/fuzz.py records fuzz/work/records fuzz/corpus/records -max_total_time=300

Coverage of the compiled modules needs them built with clang's
-fsanitize=fuzzer-no-link and the libFuzzer runtime preloaded: `make fuzz-py`
does both (see docs/hostile-input.md); without that, atheris sees only the
Python code.  Targets: see TARGETS in fuzz/targets.py.
"""

from __future__ import annotations

import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

with atheris.instrument_imports(include=["kafkawire", "targets"]):
    import targets


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in targets.TARGETS:
        sys.exit(f"usage: fuzz.py {{{','.join(targets.TARGETS)}}} [libFuzzer args]")
    target = targets.TARGETS[sys.argv[1]]
    os.environ["KAFKAWIRE_FUZZ_PYTHON"] = sys.executable
    os.environ["KAFKAWIRE_FUZZ_TARGET"] = sys.argv[1]
    relaunch = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relaunch.sh")
    atheris.Setup([relaunch, *sys.argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
