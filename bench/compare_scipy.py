#!/usr/bin/python3
"""The inference-aware optimum (Sardana et al. 2024, Eq. 3) solved with scipy.optimize, as a
Python user would, beside scaleopt's own benchmark of the same problem.

    minimise 6 N D + 2 N T   subject to   L(N, D) = E + A / N^alpha + B / D^beta = 1.947
    law sardana2024 (E 1.69, A 406.4, B 410.7, alpha 0.336, beta 0.283), T = 2e12 tokens

Two scipy solves, both with analytic derivatives, in-process, timed with timeit (median of
repeats):
  - SLSQP on (ln N, ln D), objective ln cost, constraint (L - L*) / (L* - E), started at the
    Chinchilla point for the target (as scaleopt's NLopt path);
  - Newton (scipy.optimize.newton) on the 1-D reduction: the constraint gives D(N), and the
    optimum is the root of s - 1 - c / (k D) = 0 in u = ln N, s = alpha p / (beta r)
    (docs/model.md), started at the Chinchilla point.
Both answers are checked against Sardana's published N = 2.418e10, D = 2.657e12.

scaleopt's times come from its Google Benchmark program (bench/bench_lifetime.cpp), run here
(`compare_scipy.py BUILD/bench/bench_lifetime`) or read from its JSON output
(`compare_scipy.py --json results.json`). Prints the per-solve times and the ratios.

Debian 12: /usr/bin/python3 with python3-scipy (1.10) and python3-numpy.
"""

import argparse
import json
import math
import statistics
import subprocess
import sys
import timeit

import numpy as np
import scipy
from scipy import optimize

E, A, B, ALPHA, BETA = 1.69, 406.4, 410.7, 0.336, 0.283
TARGET = 1.947
INFERENCE_TOKENS = 2e12
K = 6.0                      # FLOPs per N*D of pretraining
C = 2.0 * INFERENCE_TOKENS   # FLOPs per parameter of inference
PUBLISHED = (2.418e10, 2.657e12)  # Sardana et al. 2024 (beyond-chinchilla README), 4 digits

REDUCIBLE = TARGET - E


def chinchilla_start():
    """(ln N, ln D) of the Chinchilla frontier point reaching the target (Hoffmann Eq. 4)."""
    g = (ALPHA * A / (BETA * B)) ** (1 / (ALPHA + BETA))
    k = A * g ** -ALPHA + B * g ** BETA
    half_compute = (k / REDUCIBLE) ** ((ALPHA + BETA) / (ALPHA * BETA))
    a, b = BETA / (ALPHA + BETA), ALPHA / (ALPHA + BETA)
    return math.log(g * half_compute ** a), math.log(half_compute ** b / g)


START = np.array(chinchilla_start())


def objective(x):
    n, d = math.exp(x[0]), math.exp(x[1])
    pretrain = K * n * d
    total = pretrain + C * n
    return math.log(total), np.array([1.0, pretrain / total])


def constraint(x):
    p = A * math.exp(-ALPHA * x[0])
    q = B * math.exp(-BETA * x[1])
    return (E + p + q - TARGET) / REDUCIBLE


def constraint_jacobian(x):
    p = A * math.exp(-ALPHA * x[0])
    q = B * math.exp(-BETA * x[1])
    return np.array([-ALPHA * p / REDUCIBLE, -BETA * q / REDUCIBLE])


CONSTRAINTS = ({"type": "eq", "fun": constraint, "jac": constraint_jacobian},)


def solve_slsqp():
    result = optimize.minimize(objective, START, jac=True, method="SLSQP",
                               constraints=CONSTRAINTS, options={"ftol": 1e-15, "maxiter": 200})
    return math.exp(result.x[0]), math.exp(result.x[1]), result.success


def tokens_at(u):
    r = REDUCIBLE - A * math.exp(-ALPHA * u)
    return (B / r) ** (1 / BETA)


def slope(u):
    """s - 1 - c / (k D(N)): zero at the optimum, positive for small N."""
    p = A * math.exp(-ALPHA * u)
    r = REDUCIBLE - p
    return ALPHA * p / (BETA * r) - 1 - C / (K * (B / r) ** (1 / BETA))


def slope_derivative(u):
    p = A * math.exp(-ALPHA * u)
    r = REDUCIBLE - p
    s = ALPHA * p / (BETA * r)
    q = C / (K * (B / r) ** (1 / BETA))
    return -(ALPHA ** 2 / BETA) * p * REDUCIBLE / r ** 2 - q * s


def solve_newton():
    u = optimize.newton(slope, START[0], fprime=slope_derivative, tol=1e-14, maxiter=100)
    return math.exp(u), tokens_at(u), True


def seconds_per_solve(solve, number):
    times = timeit.repeat(solve, number=number, repeat=7)
    return statistics.median(times) / number


def scaleopt_times(args):
    if args.json:
        with open(args.json, encoding="utf-8") as f:
            report = json.load(f)
    else:
        output = subprocess.run(
            [args.bench, "--benchmark_filter=BM_LifetimeFlops", "--benchmark_repetitions=5",
             "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
            check=True, capture_output=True, text=True).stdout
        report = json.loads(output)
    times = {}
    for entry in report["benchmarks"]:
        if entry.get("aggregate_name") != "median":
            continue
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[entry["time_unit"]]
        times[entry["run_name"]] = (entry["real_time"] * scale, entry["cpu_time"] * scale)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", nargs="?", help="scaleopt's bench_lifetime program")
    parser.add_argument("--json", help="its --benchmark_format=json output, instead of running it")
    args = parser.parse_args()
    if not args.bench and not args.json:
        parser.error("give the bench_lifetime program or --json")

    print(f"scipy {scipy.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    ok = True
    for name, solve in (("SLSQP", solve_slsqp), ("Newton", solve_newton)):
        n, d, success = solve()
        error = max(abs(n / PUBLISHED[0] - 1), abs(d / PUBLISHED[1] - 1))
        # Published to 4 significant digits: half a unit in the last place.
        agrees = success and error < 5e-4
        ok = ok and agrees
        print(f"  scipy {name:6}: N = {n:.6e}, D = {d:.6e} "
              f"({'agrees with' if agrees else 'DIFFERS from'} Sardana's 2.418e10, 2.657e12)")
    scipy_slsqp = seconds_per_solve(solve_slsqp, 200)
    scipy_newton = seconds_per_solve(solve_newton, 2000)

    ours = scaleopt_times(args)
    rows = [
        ("scipy SLSQP on (ln N, ln D)", scipy_slsqp, None),
        ("scipy Newton on the 1-D reduction", scipy_newton, None),
        ("scaleopt NLopt SLSQP + polish + checks", *ours.get("BM_LifetimeFlopsNlopt", (None, None))),
        ("scaleopt TOMS 748 on the 1-D reduction", *ours.get("BM_LifetimeFlopsReduced", (None, None))),
        ("scaleopt Newton fast path (verified)", *ours.get("BM_LifetimeFlopsNewton", (None, None))),
    ]
    print("\nPer solve (median; scaleopt: wall and CPU time of Google Benchmark's median):")
    for label, seconds, cpu in rows:
        if seconds is None:
            print(f"  {label:42} (not measured)")
            continue
        extra = f"   CPU {cpu * 1e6:9.3f} us" if cpu is not None else ""
        print(f"  {label:42} {seconds * 1e6:10.3f} us{extra}")
    newton = ours.get("BM_LifetimeFlopsNewton")
    nlopt = ours.get("BM_LifetimeFlopsNlopt")
    print("\nRatios (scipy / scaleopt, wall time):")
    if nlopt:
        print(f"  SLSQP: scipy / scaleopt NLopt path       = {scipy_slsqp / nlopt[0]:8.1f}x")
    if newton:
        print(f"  Newton: scipy / scaleopt fast path       = {scipy_newton / newton[0]:8.1f}x")
        print(f"  scipy SLSQP / scaleopt fast path         = {scipy_slsqp / newton[0]:8.1f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
