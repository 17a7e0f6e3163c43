"""A sweep on a Dask cluster (docs/scaling-out.md, "Dask"), and its throughput.

Starts a LocalCluster of WORKERS worker processes (one thread each), solves the sweep with
scaleopt.dask.sweep, checks it equals the one-process scaleopt.sweep, and prints points per
second for both. Against a real cluster, pass the scheduler's address instead:

    PYTHONPATH=build/python /usr/bin/python3 examples/dask_sweep.py --workers 2
    PYTHONPATH=build/python /usr/bin/python3 examples/dask_sweep.py --scheduler tcp://host:8786

The `if __name__ == "__main__":` guard is needed: worker processes are started by
multiprocessing's spawn, which imports this file again in each.
"""

import argparse
import os
import time

import distributed
import pandas

import scaleopt
import scaleopt.dask

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (1 thread each)")
    parser.add_argument("--scheduler", help="address of a running scheduler, instead of a "
                        "LocalCluster")
    parser.add_argument("--scenario", default=os.path.join(HERE, "sardana_cost.toml"))
    parser.add_argument("--vary", action="append", metavar="PATH=RANGE",
                        help="as sweep's --vary (default: inference.requests=1e9..1e12:log:1000 "
                        "and training.mfu=0.3..0.5:100, 10^5 points)")
    parser.add_argument("--method", default="auto", help="auto (fast path where it applies) or "
                        "nlopt")
    parser.add_argument("--shards", type=int, help="default: one per worker thread")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is printed")
    args = parser.parse_args()
    specs = args.vary or ["inference.requests=1e9..1e12:log:1000", "training.mfu=0.3..0.5:100"]
    vary = dict(spec.split("=", 1) for spec in specs)

    def timed(run):
        best, frame = float("inf"), None
        for _ in range(args.repeat):
            start = time.perf_counter()
            frame = run()
            best = min(best, time.perf_counter() - start)
        return best, frame

    one_seconds, one = timed(lambda: scaleopt.sweep(args.scenario, vary, threads=1,
                                                    method=args.method))
    # The same cores as threads of this process: what Dask's shipping of frames costs.
    threads_seconds, _ = timed(lambda: scaleopt.sweep(args.scenario, vary, threads=args.workers,
                                                      method=args.method))
    # direct_to_workers: the client fetches each shard's rows from its worker, not through
    # the scheduler (one transfer instead of two); it needs the workers reachable from here.
    if args.scheduler:
        client = distributed.Client(args.scheduler, direct_to_workers=True)
    else:
        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None)
        client = distributed.Client(cluster, direct_to_workers=True)
    with client:
        client.wait_for_workers(1)
        workers = len(client.nthreads())
        dask_seconds, frame = timed(lambda: scaleopt.dask.sweep(
            args.scenario, vary, client=client, shards=args.shards, method=args.method))
    pandas.testing.assert_frame_equal(frame, one, check_exact=True)
    points = len(one)
    print(f"{points} points, method {args.method}, load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"one process, 1 thread: {one_seconds:.3f} s, {points / one_seconds:,.0f} points/s")
    plural = "s" if args.workers > 1 else ""
    print(f"one process, {args.workers} thread{plural}: {threads_seconds:.3f} s, "
          f"{points / threads_seconds:,.0f} points/s")
    print(f"dask, {workers} worker(s) x 1 thread: {dask_seconds:.3f} s, "
          f"{points / dask_seconds:,.0f} points/s (equal to the one-process sweep)")


if __name__ == "__main__":
    main()
