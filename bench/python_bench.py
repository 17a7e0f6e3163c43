#!/usr/bin/env python3
"""Timings of the Python module (docs/performance.md, "Python"), run by hand:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py build

1. scaleopt.solve on a loaded scenario, beside the same work in C++ (bench_lifecycle
   BM_SolveJson: solve_scenario + solution_json) and beside the binary through a subprocess;
   and with set= overrides, which make the scenario again from the loaded document;
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


def cpu_per_call_us(call, number, repeat=5):
    """CPU time a call (time.process_time): what the code costs when the machine is loaded."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            call()
        times.append((time.process_time() - start) / number * 1e6)
    return statistics.median(times)


def cpp_solve_json_us():
    """BM_SolveJson's medians (us, wall and CPU), by benchmark name."""
    out = subprocess.run(
        [os.path.join(BUILD, "bench", "bench_lifecycle"), "--benchmark_filter=BM_SolveJson",
         "--benchmark_repetitions=7", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            factor = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
            medians[b["run_name"].split("/")[-1]] = (b["real_time"] * factor,
                                                     b["cpu_time"] * factor)
    return medians


def main():
    cpp = cpp_solve_json_us()
    print("scaleopt.solve on a loaded scenario (median per call):")
    for name, capture in (("sardana_cost.toml", "min_lifetime_cost"),
                          ("frontier_100x.toml", "equal_cost")):
        loaded = scaleopt.load(example(name))
        python_us = per_call_us(lambda: scaleopt.solve(loaded), number=2000)
        python_cpu = cpu_per_call_us(lambda: scaleopt.solve(loaded), number=1000)
        wall, cpu = cpp[capture]
        print(f"  {name:20} wall: Python {python_us:7.1f} us, C++ {wall:7.1f} us, difference "
              f"{python_us - wall:6.1f} us; CPU: Python {python_cpu:7.1f} us, C++ {cpu:7.1f} us, "
              f"difference {python_cpu - cpu:6.1f} us")
    loaded = scaleopt.load(example("sardana_cost.toml"))
    plain_us = per_call_us(lambda: scaleopt.solve(loaded), number=2000)
    overrides = {"inference.requests": 2e10}
    set_us = per_call_us(lambda: scaleopt.solve(loaded, set=overrides), number=1000)
    print(f"  sardana_cost.toml with set={overrides}: {set_us:.1f} us, {set_us / plain_us:.2f}x "
          f"solve(loaded) ({plain_us:.1f} us)")
    binary = os.path.join(BUILD, "scaleopt")
    subprocess_us = per_call_us(
        lambda: json.loads(subprocess.run([binary, "solve", example("sardana_cost.toml"), "--json"],
                                          capture_output=True, check=True).stdout),
        number=20, repeat=5)
    print(f"  the binary through a subprocess and JSON: {subprocess_us:.0f} us")

    grid = {"inference.tokens": "1e9..1e15:log:1000", "problem.target_loss": "1.9..2.5:1000"}
    loaded = scaleopt.load(example("sardana_compute.toml"))
    seconds, cpu_seconds = [], []
    for _ in range(3):
        start, cpu_start = time.perf_counter(), time.process_time()
        frame = scaleopt.sweep(loaded, grid, threads=2)
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(time.process_time() - cpu_start)
        assert len(frame) == 1_000_000
        del frame
    print(f"10^6-point sweep into a DataFrame, 2 threads: median {statistics.median(seconds):.2f} s "
          f"(runs: {', '.join(f'{s:.2f}' for s in seconds)}); CPU {statistics.median(cpu_seconds):.2f} s")


if __name__ == "__main__":
    main()
