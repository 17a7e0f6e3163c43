#!/usr/bin/env python3
"""Timings of the Python module (docs/performance.md, "Python"), run by hand:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py build

1. scaleopt.solve on a loaded scenario, beside the same work in C++ (bench_lifecycle
   BM_SolveJson: solve_scenario + solution_json) and beside the binary through a subprocess;
2. a 10^6-point fast-path sweep into a DataFrame (the grid of bench_sweep: sardana_compute.toml,
   1000 x 1000), on 2 threads.
Medians of repeated runs."""

import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import scaleopt

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def example(name):
    return os.path.join(SOURCE, "examples", name)


def per_call_us(call, number, repeat=7):
    return statistics.median(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6


def cpp_solve_json_us():
    """BM_SolveJson's medians (us), by benchmark name."""
    out = subprocess.run(
        [os.path.join(BUILD, "bench", "bench_lifecycle"), "--benchmark_filter=BM_SolveJson",
         "--benchmark_repetitions=7", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            factor = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
            medians[b["run_name"].split("/")[-1]] = b["real_time"] * factor
    return medians


def main():
    cpp = cpp_solve_json_us()
    print("scaleopt.solve on a loaded scenario (median per call):")
    for name, capture in (("sardana_cost.toml", "min_lifetime_cost"),
                          ("frontier_100x.toml", "equal_cost")):
        loaded = scaleopt.load(example(name))
        python_us = per_call_us(lambda: scaleopt.solve(loaded), number=2000)
        print(f"  {name:20} Python {python_us:7.1f} us   C++ {cpp[capture]:7.1f} us   "
              f"difference {python_us - cpp[capture]:6.1f} us")
    binary = os.path.join(BUILD, "scaleopt")
    subprocess_us = per_call_us(
        lambda: json.loads(subprocess.run([binary, "solve", example("sardana_cost.toml"), "--json"],
                                          capture_output=True, check=True).stdout),
        number=20, repeat=5)
    print(f"  the binary through a subprocess and JSON: {subprocess_us:.0f} us")

    grid = {"inference.tokens": "1e9..1e15:log:1000", "problem.target_loss": "1.9..2.5:1000"}
    loaded = scaleopt.load(example("sardana_compute.toml"))
    seconds = []
    for _ in range(3):
        start = time.perf_counter()
        frame = scaleopt.sweep(loaded, grid, threads=2)
        seconds.append(time.perf_counter() - start)
        assert len(frame) == 1_000_000
        del frame
    print(f"10^6-point sweep into a DataFrame, 2 threads: median {statistics.median(seconds):.2f} s "
          f"(runs: {', '.join(f'{s:.2f}' for s in seconds)})")


if __name__ == "__main__":
    main()
