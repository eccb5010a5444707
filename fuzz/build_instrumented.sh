#!/bin/sh
# An instrumented build of kafkawire for the atheris targets (fuzz/fuzz.py):
# the compiled modules built by clang with -fsanitize=fuzzer-no-link (coverage
# for libFuzzer) plus ASan and UBSan, in a copy of the package under OUT/tree;
# and OUT/asan_with_fuzzer.so, the ASan runtime with libFuzzer linked in, to
# LD_PRELOAD (what atheris makes when it is built from source: the PyPI wheel
# has none).  The working tree's own build is not touched.
#
#   fuzz/build_instrumented.sh OUT PYTHON
set -eu
out=$(realpath -m "$1")
py=$(realpath "$2")
here=$(dirname "$(realpath "$0")")/..
rt=$(clang -print-runtime-dir)
mkdir -p "$out/tree"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$rt/libclang_rt.asan-x86_64.a" "$tmp/asan.a"
ar d "$tmp/asan.a" asan_preinit.cpp.o  # preinit only works in an executable
clang++ -Wl,--whole-archive "$rt/libclang_rt.fuzzer_no_main-x86_64.a" "$tmp/asan.a" \
    -Wl,--no-whole-archive -lpthread -ldl -shared -o "$out/asan_with_fuzzer.so"

# the sources only: generated C and built modules are made anew
(cd "$here" && tar cf - --exclude='*.so' --exclude='kafkawire/*.c' --exclude='*.html' --exclude=__pycache__ \
    setup.py kafkawire src_c) | (cd "$out/tree" && tar xf -)
cd "$out/tree"
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -g -O1"
CC=clang LDSHARED="clang -shared" CFLAGS="$flags" KAFKAWIRE_KEEP_GOING=0 \
    "$py" setup.py -q build_ext --inplace --force  # flags changes are invisible to the up-to-date check
