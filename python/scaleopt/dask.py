"""A sweep split into shards run by dask.distributed workers (docs/scaling-out.md, "Dask").

``scaleopt.dask.sweep(scenario, vary=..., client=client)`` returns the DataFrame that
``scaleopt.sweep(scenario, vary=...)`` returns in one process: the same rows in the same order
with the same values. Each task solves one shard, as ``shard=(i, n)`` (``--shard i/n``: blocks
of 64 consecutive points dealt round-robin), and the frames are put back in point order. A
point's row depends only on the scenario and its own grid values, so it is the same double for
double whichever worker solved it.

Needs dask.distributed (Debian's python3-distributed); ``import scaleopt`` alone does not.
"""

from __future__ import annotations

import inspect
import os
import tempfile
from typing import Any, Mapping, Optional, Union

import distributed

import scaleopt
from scaleopt import InputError, Quantity, Scenario
from scaleopt._scaleopt import SHARD_BLOCK_POINTS

__all__ = ["sweep"]

# Keyword arguments of scaleopt.sweep that the shards pass on (the solver's and ``method``);
# the others are this function's own (the grid, the shard, the threads).
_OWN = ("scenario", "vary", "set", "shard", "threads")


def _solve_shard(name: str, text: str, overrides: list, axes: list, index: int, count: int,
                 threads: int, options: dict):
    """One shard, on a worker: the scenario travels as its text (a scenario is one
    self-contained TOML file), so workers need no file system shared with the client. It is
    written under its own file name so that a message naming the file names the same one."""
    with tempfile.TemporaryDirectory(prefix="scaleopt-dask-") as folder:
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        loaded = scaleopt._load_with(path, overrides)
        return scaleopt.sweep(loaded, dict(axes), threads=threads, shard=(index, count),
                              **options)


def _default_client(client):
    if client is not None:
        return client
    try:
        return distributed.get_client()
    except ValueError:
        raise ValueError("scaleopt.dask.sweep: no dask client: pass client=, or create a "
                         "distributed.Client first") from None


def _check_complete(frames: list, count: int) -> int:
    """The grid's number of points. Raises unless the shards' rows are, together, every point
    of the grid once, each in its own shard: a shard that returned too few rows (or another
    shard's) is an error, never a frame with rows missing. Shard 1 always holds point 0, so
    the grid's size is known from the rows' ``points`` column."""
    import numpy

    sizes = {int(v) for frame in frames for v in numpy.unique(frame["points"].to_numpy())}
    if len(sizes) != 1:
        raise RuntimeError(f"scaleopt.dask.sweep: the shards disagree on the grid's size "
                           f"(points column: {sorted(sizes) or 'no rows at all'})")
    (points,) = sizes
    for index, frame in enumerate(frames, start=1):
        block = frame["point"].to_numpy() // SHARD_BLOCK_POINTS
        if (block % count != index - 1).any():
            raise RuntimeError(f"scaleopt.dask.sweep: shard {index}/{count} returned points "
                               f"of another shard")
    every = numpy.concatenate([frame["point"].to_numpy() for frame in frames])
    if every.size and (every.min() < 0 or every.max() >= points):
        raise RuntimeError(f"scaleopt.dask.sweep: a shard returned a point outside the grid of "
                           f"{points} points")
    seen = numpy.bincount(every, minlength=points)
    missing = numpy.flatnonzero(seen == 0)
    repeated = numpy.flatnonzero(seen > 1)
    if missing.size or repeated.size:
        first = missing[0] if missing.size else repeated[0]
        raise RuntimeError(f"scaleopt.dask.sweep: {missing.size} of {points} points missing and "
                           f"{repeated.size} repeated in the shards' rows (first: point {first}, "
                           f"of shard {first // SHARD_BLOCK_POINTS % count + 1}/{count})")
    return points


def sweep(
    scenario: Union[str, os.PathLike, Scenario],
    vary: Mapping[str, Any],
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    client: Optional[distributed.Client] = None,
    shards: Optional[int] = None,
    threads: int = 1,
    **options: Any,
):
    """``scaleopt.sweep`` on a dask.distributed cluster: the same DataFrame (rows, order,
    values, dtypes), its shards solved by the workers of ``client`` (None: the current client,
    ``distributed.get_client()``).

    ``shards`` (None: one per worker thread, ``sum(client.nthreads().values())``) is how many
    tasks the grid is split into, as ``shard=(i, shards)``; each task solves its points on
    ``threads`` threads (1, so that a worker running one task per thread uses its cores once).
    More shards than ``points / 64`` leave some empty, which is harmless. ``options`` are
    ``scaleopt.sweep``'s other keyword arguments (``method``, ``algorithm``, ``max_evaluations``,
    ``starts``, ``kkt_tolerance``, ``polish``), passed to every shard.

    The scenario is read here, checked with its ``set`` overrides, and sent to the workers as
    text, so they need not share a file system with the caller. A shard that raises makes this
    raise the same exception (the other shards are cancelled); the rows are checked to be every
    point of the grid exactly once before they are returned."""
    invalid = [name for name in options
               if name in _OWN or name not in inspect.signature(scaleopt.sweep).parameters]
    if invalid:
        raise TypeError(f"scaleopt.dask.sweep: unexpected keyword argument '{invalid[0]}'")
    # Read and checked once here: bad input is the command line's message, before any task. The
    # text sent is the one loaded (a loaded scenario's file is not read again).
    loaded = scaleopt._loaded(scenario, set)
    text = loaded._document.text
    axes = scaleopt._vary(vary)
    client = _default_client(client)
    count = shards if shards is not None else max(1, sum(client.nthreads().values()))
    if not isinstance(count, int) or count < 1:
        raise InputError(f"shards: expected a whole number >= 1, got {shards!r}")
    name = os.path.basename(loaded.path)
    futures = [
        client.submit(_solve_shard, name, text, loaded.overrides, axes, index, count, threads,
                      options, pure=False)
        for index in range(1, count + 1)
    ]
    frames = []
    try:
        for index, future in enumerate(futures, start=1):
            try:
                frames.append(future.result())
            except Exception as error:
                if hasattr(error, "add_note"):  # Python 3.11
                    error.add_note(f"in shard {index}/{count} of scaleopt.dask.sweep")
                raise
    finally:
        client.cancel([f for f in futures if not f.done()])
    return _in_point_order(frames, _check_complete(frames, count))


def _in_point_order(frames: list, points: int):
    """The shards' rows as one frame in point order, built column by column as scaleopt.sweep
    builds its own (numpy arrays, categoricals from codes). Each row goes straight to the
    position of its point (the rows were checked to hold every point once), so every column
    is allocated once: pandas.concat then a sort took 20 to 30 times as long, and on this
    machine the page faults of each fresh array cost as much as the copying."""
    import numpy
    import pandas

    first = frames[0]
    for index, frame in enumerate(frames[1:], start=2):
        if not frame.dtypes.equals(first.dtypes):
            raise RuntimeError(f"scaleopt.dask.sweep: shard {index} returned other columns or "
                               "dtypes than shard 1 (another version of scaleopt on a worker?)")
    positions = [frame["point"].to_numpy() for frame in frames]
    columns = {}
    for name, dtype in first.dtypes.items():
        categorical = isinstance(dtype, pandas.CategoricalDtype)
        parts = [frame[name].cat.codes.to_numpy() if categorical else frame[name].to_numpy()
                 for frame in frames]
        column = numpy.empty(points, dtype=parts[0].dtype)
        for part, where in zip(parts, positions):
            column[where] = part
        columns[name] = (pandas.Categorical.from_codes(column, dtype=dtype) if categorical
                         else column)
    return pandas.DataFrame(columns, copy=False)
