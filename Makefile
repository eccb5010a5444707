# Every target sets up what it needs: a fresh clone runs `make test` or `make demo` as is.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
DEPS := $(VENV)/.deps-installed
# outside CI a module that does not compile is skipped, not fatal (see setup.py)
export KAFKAWIRE_KEEP_GOING ?= $(if $(CI),0,1)

.PHONY: build test test-asan demo bench lint generate clean

$(DEPS): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "Cython>=3.0.10" "numpy>=2.0" "setuptools>=77" wheel
	$(PY) -m pip install -q --no-build-isolation -e ".[test,bench,arrow,dev]"
	touch $@

# flock: several shells (or helpers) may build at once; one build at a time.
build: $(DEPS)
	flock .build.lock $(PY) setup.py -q build_ext --inplace -j 2

test: build
	$(PY) -m pytest tests -q

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: $(DEPS)
	rm -rf build/asan && KAFKAWIRE_SANITIZE=1 flock .build.lock $(PY) setup.py -q build_ext --inplace -j 2 -b build/asan -t build/asan/tmp
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc $(PY) -m pytest tests -q -p no:cacheprovider
	flock .build.lock $(PY) setup.py -q build_ext --inplace -j 2 --force

# CPU time, not wall time: this 2-core machine is often shared while measuring.
BENCH := $(PY) -m pytest -q --benchmark-only --benchmark-timer=time.process_time

bench: build
	mkdir -p out
	$(BENCH) benchmarks --benchmark-json=out/bench.json
	$(PY) tools/bench_report.py out/bench.json | tee out/bench.md

# The main job, until the Spark pipeline lands: the records benchmark (decode
# and build, kafkawire beside aiokafka, kafka-python and the physical limits).
demo: build
	mkdir -p out
	$(BENCH) benchmarks/bench_records.py benchmarks/bench_builder.py --benchmark-json=out/demo.json
	$(PY) tools/bench_report.py out/demo.json | tee out/demo.md

# Regenerate kafkawire/protocol/_generated_messages.py(i) from the vendored schemas.
generate: $(DEPS)
	$(PY) tools/generate_messages.py

lint: $(DEPS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf build kafkawire/*.so kafkawire/**/*.so kafkawire/*.c kafkawire/**/*.c
