# The two commands of the README's Quick start, and a few more for developers.
#   make demo   install what is missing, build Release, run the headline reproduction and
#               write its HTML report, demo-report.html
#   make test   install what is missing, build, run every test (ctest)
#   make bench  run the Google Benchmark programs (medians of 5 repetitions), then the same
#               inference-aware solve in scipy beside ours (bench/compare_scipy.py)
#   make format apply clang-format to every source file

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
SCALEOPT := $(BUILD_DIR)/scaleopt
# Debian's Python, which has python3-scipy (bench/compare_scipy.py)
PYTHON ?= /usr/bin/python3

.PHONY: all deps configure build demo test bench format format-check clean

all: build

deps:
	@scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) > /dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@echo
	@echo "== The talk's argument: a frontier model serving 50M tokens/s for two months =="
	@$(SCALEOPT) solve examples/frontier_100x.toml
	@echo
	@echo "== Sardana et al. (2024): the cheapest model that reaches loss 1.947 and serves 2T tokens =="
	@$(SCALEOPT) solve examples/sardana_compute.toml
	@echo
	@echo "== The talk's argument as one HTML page: the answer, costs by phase, figures, sources =="
	@$(SCALEOPT) report examples/frontier_100x.toml --out demo-report.html

test: build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

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
