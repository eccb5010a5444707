#!/bin/sh
# libFuzzer re-runs its argv[0] for -merge=1 and -fork: fuzz.py names this script as
# argv[0] so that those child processes get the same interpreter and target back.
exec "$KAFKAWIRE_FUZZ_PYTHON" "$(dirname "$0")/fuzz.py" "$KAFKAWIRE_FUZZ_TARGET" "$@"
