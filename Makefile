# Every target sets up what it needs: a fresh clone runs `make test` or `make demo` as is.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
DEPS := $(VENV)/.deps-installed
# outside CI a module that does not compile is skipped, not fatal (see setup.py)
export KAFKAWIRE_KEEP_GOING ?= $(if $(CI),0,1)

.PHONY: build test test-asan demo bench bench-records bench-producer java lint generate clean

$(DEPS): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "Cython>=3.0.10" "numpy>=2.0" "setuptools>=77" wheel
	# compat mode: the checkout itself goes on sys.path, so that PySpark's lookup of
	# top-level pyspark_* modules finds the data sources (see pyspark_kafkawire.py)
	$(PY) -m pip install -q --no-build-isolation -e ".[test,bench,arrow,spark,registry,dev]" \
		--config-settings editable_mode=compat
	touch $@

# flock: several shells (or helpers) may build at once; one build at a time.
build: $(DEPS)
	flock .build.lock $(PY) setup.py -q build_ext --inplace -j 2

# PySpark needs a Java runtime: Java 17 from Debian's packages where the machine lacks one.
java:
	@command -v java >/dev/null 2>&1 || { \
		echo "no java on PATH: installing openjdk-17-jre-headless"; \
		apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null; }

test: build java
	$(PY) -m pytest tests -q

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: $(DEPS)
	rm -rf build/asan && KAFKAWIRE_SANITIZE=1 flock .build.lock $(PY) setup.py -q build_ext --inplace -j 2 -b build/asan -t build/asan/tmp
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc $(PY) -m pytest tests -q -p no:cacheprovider
	flock .build.lock $(PY) setup.py -q build_ext --inplace -j 2 --force

# CPU time, not wall time: this 2-core machine is often shared while measuring.
BENCH := $(PY) -m pytest -q --benchmark-only --benchmark-timer=time.process_time

# BENCH_RUNS runs, reported as the median of each statistic: one run on this shared machine
# can be off by 1.5x (see tools/bench_report.py).
BENCH_RUNS ?= 3
RUN_IDS = $(shell seq 1 $(BENCH_RUNS))

bench: build
	mkdir -p out
	for i in $(RUN_IDS); do $(BENCH) benchmarks --ignore=benchmarks/bench_producer.py \
		--benchmark-json=out/bench-$$i.json || exit 1; done
	$(PY) tools/bench_report.py $(RUN_IDS:%=out/bench-%.json) | tee out/bench.md

# The main job: an embedded broker, a sample topic produced with kafkawire, read by Spark
# through the kafkawire data source, written as Parquet (see examples/pipeline.py).
demo: build java
	$(PY) examples/pipeline.py

# The records benchmark alone (decode and build, kafkawire beside aiokafka, kafka-python and
# the physical limits).
bench-records: build
	mkdir -p out
	for i in $(RUN_IDS); do $(BENCH) benchmarks/bench_records.py benchmarks/bench_builder.py \
		--benchmark-json=out/records-$$i.json || exit 1; done
	$(PY) tools/bench_report.py $(RUN_IDS:%=out/records-%.json) | tee out/records.md

# The producer against the local broker (benchmarks/bench_producer.py), apart from `bench`:
# ~9 minutes a run on 2 cores. Its ratios come from paired rounds inside each run, so one run
# by default (PRODUCER_RUNS=3 for three, reported as the median of the runs' ratios).
PRODUCER_RUNS ?= 1
bench-producer: build
	mkdir -p out
	for i in $(shell seq 1 $(PRODUCER_RUNS)); do $(BENCH) benchmarks/bench_producer.py \
		--benchmark-json=out/producer-$$i.json || exit 1; done
	$(PY) tools/bench_report.py $(shell seq -f out/producer-%g.json 1 $(PRODUCER_RUNS)) \
		| tee out/producer.md

# Regenerate kafkawire/protocol/_generated_messages.py(i) from the vendored schemas.
generate: $(DEPS)
	$(PY) tools/generate_messages.py

lint: $(DEPS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf build kafkawire/*.so kafkawire/**/*.so kafkawire/*.c kafkawire/**/*.c

# ---- fuzzing (docs/hostile-input.md) ---------------------------------------------------
# Coverage-guided fuzzing needs clang and libFuzzer: apt-get install clang.
FUZZ_TIME ?= 60
FUZZ_NICE := nice -n 10
FUZZ_PY_TARGETS := records legacy request response message frames correlator codecs pre08 registry_avro registry_protobuf registry_json
FUZZ_NATIVE_TARGETS := record_scan lz4 snappy varint memory
FUZZ_NATIVE_DIR := build/fuzz-native
# kafkawire's C and the vendored liblz4 (zstd_decode.c needs the vendored libzstd: no harness
# calls it)
FUZZ_NATIVE_SOURCES := $(filter-out src_c/zstd_decode.c,$(wildcard src_c/*.c)) \
	src_c/vendor/lz4/lz4.c src_c/vendor/lz4/xxhash.c
FUZZ_NATIVE_FLAGS := -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -Isrc_c
FUZZ_PY_DIR := build/fuzz-py

.PHONY: fuzz-seeds fuzz-native fuzz-native-build fuzz-native-coverage fuzz-py fuzz-py-build fuzz-corpus

# Seed corpora from valid encodings (not committed: fuzz/work is scratch).
fuzz-seeds: build
	$(PY) fuzz/make_seeds.py fuzz/work

$(FUZZ_NATIVE_DIR)/fuzz_%: fuzz/native/fuzz_%.c $(wildcard src_c/*.c src_c/*.h)
	@command -v clang >/dev/null || { echo "fuzzing needs clang: apt-get install clang"; exit 1; }
	mkdir -p $(FUZZ_NATIVE_DIR)
	clang $(FUZZ_NATIVE_FLAGS) $< $(FUZZ_NATIVE_SOURCES) -o $@

fuzz-native-build: $(FUZZ_NATIVE_TARGETS:%=$(FUZZ_NATIVE_DIR)/fuzz_%)

# libFuzzer + ASan + UBSan on the C code, FUZZ_TIME seconds a harness; new
# inputs go to fuzz/work/native-*, the committed ones seed each run.
fuzz-native: fuzz-native-build fuzz-seeds
	for t in $(FUZZ_NATIVE_TARGETS); do \
	  mkdir -p fuzz/work/native-$$t && \
	  $(FUZZ_NICE) $(FUZZ_NATIVE_DIR)/fuzz_$$t fuzz/work/native-$$t fuzz/corpus/native-$$t \
	    -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	    -print_final_stats=1 -artifact_prefix=fuzz/work/crash-native-$$t- || exit 1; \
	done

# atheris is a developer tool, installed here rather than in an extra (CI does
# not fuzz: it replays fuzz/corpus in tests/test_fuzz_corpus.py).
fuzz-py-build: $(DEPS)
	@command -v clang >/dev/null || { echo "fuzzing needs clang: apt-get install clang"; exit 1; }
	$(PY) -c "import atheris" 2>/dev/null || $(PY) -m pip install -q atheris
	fuzz/build_instrumented.sh $(FUZZ_PY_DIR) $(PY)

# atheris on every decoder entry point (fuzz/targets.py), the compiled modules
# instrumented (coverage + ASan + UBSan), FUZZ_TIME seconds a target.
fuzz-py: fuzz-py-build fuzz-seeds
	for t in $(FUZZ_PY_TARGETS); do \
	  mkdir -p fuzz/work/$$t && \
	  LD_PRELOAD=$(FUZZ_PY_DIR)/asan_with_fuzzer.so PYTHONMALLOC=malloc \
	  ASAN_OPTIONS=detect_leaks=0,allocator_may_return_null=1 \
	  PYTHONPATH=$(FUZZ_PY_DIR)/tree $(FUZZ_NICE) $(PY) fuzz/fuzz.py $$t fuzz/work/$$t \
	    fuzz/corpus/$$t -max_total_time=$(FUZZ_TIME) -timeout=20 -rss_limit_mb=3072 \
	    -max_len=65536 -print_final_stats=1 -artifact_prefix=fuzz/work/crash-$$t- || exit 1; \
	done

# Line coverage of src_c/ by the native corpora (fuzz/work/native-* and the
# committed ones): each harness built with clang's source-based coverage,
# replayed once, then llvm-cov's report.
FUZZ_LLVM_BIN ?= $(shell dirname $$(readlink -f $$(command -v clang)))
fuzz-native-coverage: fuzz-seeds
	mkdir -p $(FUZZ_NATIVE_DIR)/cov
	for t in $(FUZZ_NATIVE_TARGETS); do \
	  clang -g -O0 -std=c11 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping -Isrc_c \
	    fuzz/native/fuzz_$$t.c $(FUZZ_NATIVE_SOURCES) -o $(FUZZ_NATIVE_DIR)/cov/fuzz_$$t && \
	  mkdir -p fuzz/work/native-$$t fuzz/corpus/native-$$t && \
	  LLVM_PROFILE_FILE=$(FUZZ_NATIVE_DIR)/cov/$$t.profraw $(FUZZ_NATIVE_DIR)/cov/fuzz_$$t -runs=0 \
	    fuzz/work/native-$$t fuzz/corpus/native-$$t 2>/dev/null || exit 1; \
	done
	$(FUZZ_LLVM_BIN)/llvm-profdata merge -o $(FUZZ_NATIVE_DIR)/cov/all.profdata $(FUZZ_NATIVE_DIR)/cov/*.profraw
	$(FUZZ_LLVM_BIN)/llvm-cov report $(FUZZ_NATIVE_DIR)/cov/fuzz_record_scan \
	  $(foreach t,$(filter-out record_scan,$(FUZZ_NATIVE_TARGETS)),-object $(FUZZ_NATIVE_DIR)/cov/fuzz_$(t)) \
	  -instr-profile=$(FUZZ_NATIVE_DIR)/cov/all.profdata src_c/

# Refresh the committed corpora from fuzz/work: libFuzzer's merge keeps the
# inputs that add coverage, fuzz/select_corpus.py a few dozen of them (and
# every regress-* input).  Run after fuzz-py / fuzz-native.
FUZZ_PY_ENV := LD_PRELOAD=$(FUZZ_PY_DIR)/asan_with_fuzzer.so PYTHONMALLOC=malloc \
	ASAN_OPTIONS=detect_leaks=0,allocator_may_return_null=1 PYTHONPATH=$(FUZZ_PY_DIR)/tree
fuzz-corpus: fuzz-py-build fuzz-native-build
	for t in $(FUZZ_PY_TARGETS); do \
	  rm -rf build/fuzz-merged/$$t && mkdir -p build/fuzz-merged/$$t fuzz/work/$$t fuzz/corpus/$$t && \
	  $(FUZZ_PY_ENV) $(FUZZ_NICE) $(PY) fuzz/fuzz.py $$t -merge=1 -rss_limit_mb=3072 build/fuzz-merged/$$t \
	    fuzz/corpus/$$t fuzz/work/$$t 2>/dev/null && \
	  $(PY) fuzz/select_corpus.py build/fuzz-merged/$$t fuzz/corpus/$$t || exit 1; \
	done
	for t in $(FUZZ_NATIVE_TARGETS); do \
	  rm -rf build/fuzz-merged/native-$$t && mkdir -p build/fuzz-merged/native-$$t fuzz/corpus/native-$$t && \
	  $(FUZZ_NICE) $(FUZZ_NATIVE_DIR)/fuzz_$$t -merge=1 build/fuzz-merged/native-$$t \
	    fuzz/corpus/native-$$t fuzz/work/native-$$t 2>/dev/null && \
	  $(PY) fuzz/select_corpus.py build/fuzz-merged/native-$$t fuzz/corpus/native-$$t || exit 1; \
	done
