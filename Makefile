# The two commands of the README's Quick start, and a few more for developers.
#   make demo   install what is missing, build the Release executable (only it), run the
#               headline reproduction and write its HTML report, demo-report.html
#   make test   install what is missing (chromium and Slurm too: the report test opens the HTML
#               report in it, a test runs a one-node Slurm cluster), build, run every test (ctest)
#   make python build the Python module into $(BUILD_DIR)/python (PYTHONPATH=$(BUILD_DIR)/python
#               /usr/bin/python3 -c "import scaleopt"; docs/python.md)
#   make bench  run the Google Benchmark programs (medians of 5 repetitions), then the same
#               inference-aware solve in scipy beside ours (bench/compare_scipy.py)
#   make format apply clang-format to every source file
#   make test-sanitize  build with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
#                       and run every test
#   make fuzz-smoke     build the libFuzzer targets with clang (build-fuzz/) and run each for a
#                       fixed number of inputs from its seed corpus (fuzz/corpus/)
#   make fuzz           the same for FUZZ_SECONDS seconds per target (default 600)

# cmake --build runs gmake below this make: without this, each of its sub-makes says
# "gmake[n]: Entering directory" (76 of the 196 lines of `make demo` on a clean clone).
MAKEFLAGS += --no-print-directory

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
SCALEOPT := $(BUILD_DIR)/scaleopt
# Debian's Python, which has python3-scipy (bench/compare_scipy.py)
PYTHON ?= /usr/bin/python3
SANITIZE_DIR ?= build-asan
FUZZ_DIR ?= build-fuzz
FUZZ_TARGETS := quantity scenario runs_csv cli api
# Inputs per target in fuzz-smoke: 15 to 30 s each (docs/reliability.md).
FUZZ_RUNS_quantity ?= 2000000
FUZZ_RUNS_scenario ?= 20000
FUZZ_RUNS_runs_csv ?= 2000
FUZZ_RUNS_cli ?= 1000
FUZZ_RUNS_api ?= 60000
FUZZ_SECONDS ?= 600

.PHONY: all deps test-deps configure build python demo-build demo test test-sanitize fuzz-build fuzz-smoke fuzz bench format \
  format-check clean

all: build

deps:
	@scripts/install-deps

# What every test needs beyond the build: the report test opens the HTML report in headless
# chromium, and the Slurm test starts a one-node cluster (slurm-wlm, munge), so a fresh
# machine's `make test` must install them too.
test-deps:
	@scripts/install-deps --browser --slurm

configure: deps
	@echo "== configure: cmake -S . -B $(BUILD_DIR) (Release; finds the Debian packages it builds with)"
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$(PYTHON) \
	  $(CMAKE_FLAGS)

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

python: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target _scaleopt scaleopt_exe

# Only what the demo runs: the executable, not the tests, benchmarks or Python module.
demo-build: configure
	@echo "== build: the scaleopt executable only (make build or make test build the rest)"
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target scaleopt_exe

demo: demo-build
	@echo
	@echo "== The talk's headline, assumed (A) and derived (B): a frontier model of 100B active"
	@echo "   parameters serving 50M tokens/s for two months. 'over Chinchilla' is its pretraining"
	@echo "   tokens over 20 per parameter; 'inference priced by' says what each assumes:"
	@echo "   A types decode at a third of the training MFU, as the talk argues;"
	@echo "   B derives it from the roofline of a sourced mixture of experts at 20 ms per token"
	@$(SCALEOPT) compare examples/frontier_100x.toml examples/frontier_derived.toml
	@echo
	@echo "== Sardana et al. (2024): the cheapest model that reaches loss 1.947 and serves 2T tokens =="
	@$(SCALEOPT) solve examples/sardana_compute.toml
	@echo
	@echo "== The talk's argument as one HTML page: the answer, costs by phase, figures, sources =="
	@$(SCALEOPT) report examples/frontier_100x.toml --out demo-report.html

test: test-deps build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# -O1 keeps the sanitized suite fast enough for CI while stack traces stay readable.
test-sanitize: test-deps
	@cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
	  -DSCALEOPT_SANITIZE=address,undefined -DSCALEOPT_BUILD_BENCH=OFF $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(SANITIZE_DIR) --output-on-failure -j $(JOBS)

fuzz-build:
	@scripts/install-deps --fuzz
	@cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DSCALEOPT_FUZZ=ON -DSCALEOPT_BUILD_TESTS=OFF -DSCALEOPT_BUILD_BENCH=OFF > /dev/null
	@cmake --build $(FUZZ_DIR) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))

fuzz-smoke: fuzz-build
	@$(foreach t,$(FUZZ_TARGETS),scripts/fuzz $(FUZZ_DIR) $(t) -runs=$(FUZZ_RUNS_$(t)) &&) true

fuzz: fuzz-build
	@$(foreach t,$(FUZZ_TARGETS),scripts/fuzz $(FUZZ_DIR) $(t) -max_total_time=$(FUZZ_SECONDS) &&) true

bench: build
	@for b in $(BUILD_DIR)/bench/bench_*; do \
	  echo "== $$b"; $$b --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
	    --benchmark_display_aggregates_only=true | grep -E 'median|Benchmark|---'; \
	done
	@echo "== bench/compare_scipy.py (Debian's python3-scipy)"
	@$(PYTHON) bench/compare_scipy.py $(BUILD_DIR)/bench/bench_lifetime

format:
	@clang-format -i $$(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp')

format-check:
	@clang-format --dry-run --Werror $$(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp')

clean:
	@rm -rf $(BUILD_DIR)
