"""scaleopt in Python: how big a language model should be, and how many tokens it should see,
once pretraining, RL and inference are paid for together.

Every function mirrors a command of the ``scaleopt`` command line, with the same names: keyword
arguments are the command's flags (``tokens_per_param`` for ``--tokens-per-param``), the answer
is a dict with the keys of the command's ``--json`` (``sweep``: a pandas DataFrame with the
columns of its CSV), and bad input raises :class:`InputError` (a ``ValueError``) with the
command line's message. Quantities are numbers or strings with the command line's suffixes
("70B", "50M/s", "$2/h"). See docs/python.md.
"""

from __future__ import annotations

import functools
import inspect
import os
import tempfile
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from . import _scaleopt
from ._scaleopt import InputError

__all__ = [
    "InputError",
    "NotConverged",
    "Scenario",
    "load",
    "laws",
    "optimal",
    "loss",
    "solve",
    "sweep",
    "sensitivity",
    "uncertainty",
    "fit",
    "roofline",
]


class NotConverged(RuntimeError):
    """A command found no verified answer and printed only its status (``sensitivity`` when the
    base case does not converge). The message is the command's text."""


Quantity = Union[int, float, str]


class Scenario:
    """A scenario file loaded once (``load``), with its ``--set`` overrides: solve, sweep and the
    analyses take it in place of a path and skip reading the file again."""

    def __init__(self, path: Union[str, os.PathLike], set: Optional[Mapping[str, Quantity]] = None):
        self.path = os.fspath(path)
        self.overrides = _overrides(set)
        self._native = _scaleopt.load(self.path, self.overrides)

    def __repr__(self) -> str:
        return f"scaleopt.Scenario({self.path!r}, set={self.overrides!r})"


def load(path: Union[str, os.PathLike], set: Optional[Mapping[str, Quantity]] = None) -> Scenario:
    """Loads a scenario file (docs/scenario.md) with overrides, as ``--set KEY=VALUE``:
    ``load("examples/sardana_cost.toml", set={"inference.tokens": "4T"})``."""
    return Scenario(path, set)


def _text(value: Quantity) -> str:
    """A number or quantity as the command line reads it: floats in their shortest round-trip
    form, so the command sees the same double."""
    if isinstance(value, bool):
        raise InputError(f"expected a number or a quantity, got {value!r}")
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _overrides(set: Optional[Mapping[str, Quantity]]) -> list:
    return [f"{key}={_text(value)}" for key, value in (set or {}).items()]


def _flag(name: str) -> str:
    # The law's coefficients keep their case (--E, --A, --B); other names take dashes.
    return "--" + (name if name in ("E", "A", "B") else name.replace("_", "-"))


def _command(command: Sequence[str], positional: Sequence[str] = (), **flags: Any) -> Any:
    """Runs a command in-process with --json and returns its JSON as Python objects."""
    args = list(command) + list(positional)
    for name, value in flags.items():
        if value is None or value is False:
            continue
        if value is True:
            args.append(_flag(name))
        elif isinstance(value, (list, tuple)):
            for item in value:
                args += [_flag(name), _text(item)]
        else:
            args += [_flag(name), _text(value)]
    args.append("--json")
    status, json, text, error = _scaleopt.run_command(args)
    if status == 2:
        raise InputError(_message(error))
    if json is None:
        raise NotConverged(text.strip() or _message(error))
    return json


def _message(error: str) -> str:
    line = error.strip()
    prefix = "scaleopt: error: "
    return line[len(prefix):] if line.startswith(prefix) else line


def _scenario_arguments(scenario: Union[str, os.PathLike, Scenario], set) -> Tuple[str, list]:
    if isinstance(scenario, Scenario):
        return scenario.path, scenario.overrides + _overrides(set)
    return os.fspath(scenario), _overrides(set)


def _load_with(path: str, overrides: list) -> Scenario:
    """A Scenario from overrides already written as ``KEY=VALUE`` texts."""
    loaded = Scenario.__new__(Scenario)
    loaded.path = path
    loaded.overrides = overrides
    loaded._native = _scaleopt.load(path, overrides)
    return loaded


def _loaded(scenario: Union[str, os.PathLike, Scenario], set) -> Scenario:
    if isinstance(scenario, Scenario) and not set:
        return scenario
    path, overrides = _scenario_arguments(scenario, set)
    return _load_with(path, overrides)


# Keyword arguments that several functions take alike, each group written once: name ->
# (default, annotation). A function names the group as one keyword-only parameter (``solver``,
# ``law_options``) and @_keywords puts the group's arguments in its place, in its signature
# (help(), inspect) and in its calls. __init__.pyi spells them out for editors.
_SOLVER_KEYWORDS = dict(
    algorithm=("LD_SLSQP", "str"),
    max_evaluations=(1000, "int"),
    starts=(1, "int"),
    kkt_tolerance=(1e-7, "float"),
    polish=(True, "bool"),
)
_LAW_KEYWORDS = {
    name: (None, "Optional[str]" if name == "law_file" else "Optional[Quantity]")
    for name in ("law_file", "E", "A", "B", "alpha", "beta")
}


def _keywords(**groups: dict):
    """Expands each keyword-only parameter named in ``groups`` into the group's keyword-only
    arguments: the function receives them as one dict, every name present (its default where
    the caller gave none). A name the function does not take is Python's TypeError."""

    def decorate(function):
        signature = inspect.signature(function)
        parameters = []
        for parameter in signature.parameters.values():
            group = groups.get(parameter.name)
            if group is None:
                parameters.append(parameter)
                continue
            parameters += [
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                  annotation=annotation)
                for name, (default, annotation) in group.items()
            ]
        defaults = {key: {name: d for name, (d, _) in group.items()}
                    for key, group in groups.items()}

        @functools.wraps(function)
        def expanded(*args, **kwargs):
            # Popped by hand, not Signature.bind: solve() is timed against C++ to microseconds.
            for key, group in defaults.items():
                kwargs[key] = {name: kwargs.pop(name, d) for name, d in group.items()}
            return function(*args, **kwargs)

        expanded.__signature__ = signature.replace(parameters=parameters)
        return expanded

    return decorate


_solver_cache: dict = {}


def _solver(solver: dict):
    """The library's solver options for the ``solver`` group, made once per distinct group."""
    key = tuple(solver[name] for name in _SOLVER_KEYWORDS)
    options = _solver_cache.get(key)
    if options is None:
        options = _scaleopt.solver_options(*key)
        if len(_solver_cache) < 64:
            _solver_cache[key] = options
    return options


def _solver_flags(solver: dict) -> dict:
    """The ``solver`` group as the command line's flags (``--no-polish`` for polish=False)."""
    flags = {name: value for name, value in solver.items() if name != "polish"}
    flags["no_polish"] = not solver["polish"]
    return flags


def laws() -> list:
    """The loss-law presets with their coefficients and sources: the list under ``laws`` of
    ``scaleopt laws --json`` (whose object also holds ``schema_version``)."""
    return _command(["laws"])["laws"]


@_keywords(law_options=_LAW_KEYWORDS, solver=_SOLVER_KEYWORDS)
def optimal(
    law: Optional[str] = None,
    *,
    compute: Optional[Quantity] = None,
    params: Optional[Quantity] = None,
    loss: Optional[Quantity] = None,
    tokens_per_param: Optional[Quantity] = None,
    law_options: dict,
    solver: dict,
) -> dict:
    """The compute-optimal (N, D) for a budget (``compute`` in FLOPs), a model size (``params``)
    or a target loss (``loss``): exactly one of the three (``scaleopt optimal --json``).
    ``optimal(law="hoffmann2022", compute=5.76e23)``."""
    return _command(
        ["optimal"],
        compute=compute,
        params=params,
        loss=loss,
        tokens_per_param=tokens_per_param,
        law=law,
        **law_options,
        **_solver_flags(solver),
    )


@_keywords(law_options=_LAW_KEYWORDS)
def loss(
    params: Quantity,
    tokens: Quantity,
    law: Optional[str] = None,
    *,
    law_options: dict,
) -> dict:
    """The loss and training compute of N = ``params`` trained on D = ``tokens``, and how far D
    is from the law's compute-optimal tokens (``scaleopt loss --json``)."""
    return _command(
        ["loss"], params=params, tokens=tokens, law=law, **law_options
    )


@_keywords(solver=_SOLVER_KEYWORDS)
def solve(
    scenario: Union[str, os.PathLike, Scenario],
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    solver: dict,
) -> dict:
    """A scenario's question solved (``scaleopt solve --json``): a path or a loaded
    :class:`Scenario`, with overrides as ``--set``. An answer that did not converge is returned
    with its ``status``, as the command prints it."""
    loaded = _loaded(scenario, set)
    return _scaleopt.solve(
        loaded._native, _solver(solver)
    )


def _shard(shard) -> Tuple[int, int]:
    if shard is None:
        return 1, 1
    if isinstance(shard, str):
        index, _, count = shard.partition("/")
        try:
            return int(index), int(count)
        except ValueError:
            raise InputError(
                f"--shard: expected i/n with 1 <= i <= n, e.g. 2/8, got '{shard}'"
            ) from None
    index, count = shard
    return int(index), int(count)


def _axis(values) -> Union[str, list]:
    if isinstance(values, str):
        return values  # a range as --vary writes it: "1M/s..1G/s:log:50"
    import numpy

    array = numpy.asarray(values, dtype=float).ravel()
    return array.tolist()


@_keywords(solver=_SOLVER_KEYWORDS)
def sweep(
    scenario: Union[str, os.PathLike, Scenario],
    vary: Mapping[str, Any],
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    threads: Optional[int] = None,
    method: str = "auto",
    shard: Union[None, str, Tuple[int, int]] = None,
    solver: dict,
):
    """The scenario's question at every point of a grid, as a pandas DataFrame with the columns
    of ``scaleopt sweep``'s CSV (one row per point, in the CSV's order).

    ``vary`` maps a scenario key to its values: an array (numbers in the key's unit) or a range
    as ``--vary`` writes it ("1M/s..1G/s:log:50"); the grid is every combination, the first key
    varying slowest. Points are solved in C++ on ``threads`` threads (None: one per core) with
    the GIL released. ``shard=(i, n)`` keeps the points of shard i of n, as ``--shard i/n``.
    Numbers are float64 (NaN where the CSV has an empty cell), ``point`` and ``points`` int64,
    ``status`` and ``algorithm`` categorical."""
    import pandas

    loaded = _loaded(scenario, set)
    index, count = _shard(shard)
    names, arrays, statuses, algorithms, _ = _scaleopt.sweep(
        loaded._native,
        [(path, _axis(values)) for path, values in vary.items()],
        0 if threads is None else threads,
        _solver(solver),
        method,
        index,
        count,
    )
    columns = {}
    for name, array in zip(names, arrays):
        if name.endswith("status"):
            columns[name] = pandas.Categorical.from_codes(array, categories=statuses)
        elif name.endswith("algorithm"):
            columns[name] = pandas.Categorical.from_codes(array, categories=algorithms)
        else:
            columns[name] = array
    return pandas.DataFrame(columns, copy=False)


def _analysis(command, scenario, set, threads, method, solver: dict, **flags) -> Any:
    """An analysis command (the scenario, --set, --threads, --method, the ``solver`` group)."""
    path, overrides = _scenario_arguments(scenario, set)
    return _command([command], [path], set=overrides, threads=threads, method=method,
                    **_solver_flags(solver), **flags)


@_keywords(solver=_SOLVER_KEYWORDS)
def sensitivity(
    scenario: Union[str, os.PathLike, Scenario],
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    tornado: Quantity = "20%",
    rank_by: str = "params",
    threads: Optional[int] = None,
    method: str = "auto",
    solver: dict,
) -> dict:
    """Elasticities of the optimum to every input and the tornado table
    (``scaleopt sensitivity --json``). Raises :class:`NotConverged` when the base case does not
    converge (there are no derivatives at a point that is not an optimum)."""
    return _analysis("sensitivity", scenario, set, threads, method, solver,
                     tornado=tornado, rank_by=rank_by)


@_keywords(solver=_SOLVER_KEYWORDS)
def uncertainty(
    scenario: Union[str, os.PathLike, Scenario],
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    samples: int = 10000,
    seed: int = 1,
    threads: Optional[int] = None,
    method: str = "auto",
    solver: dict,
) -> dict:
    """Monte Carlo over the scenario's [uncertainty] table: quantiles of the answer and the
    shares that were infeasible (``scaleopt uncertainty --json``)."""
    return _analysis("uncertainty", scenario, set, threads, method, solver,
                     samples=samples, seed=seed)


def fit(
    runs,
    *,
    params_col: str,
    loss_col: str,
    tokens_col: Optional[str] = None,
    flops_col: Optional[str] = None,
    drop_highest_loss: int = 0,
    huber_delta: Quantity = "1e-3",
    bootstrap: int = 0,
    seed: int = 1,
    threads: Optional[int] = None,
    emit_law: Optional[str] = None,
) -> dict:
    """Fits L(N, D) = E + A/N^alpha + B/D^beta to training runs (``scaleopt fit --json``):
    ``runs`` is a CSV file or a pandas DataFrame, one run per row; give ``tokens_col`` or
    ``flops_col``. A DataFrame is written to a temporary CSV file that the fit reads."""
    flags = dict(
        params_col=params_col,
        tokens_col=tokens_col,
        flops_col=flops_col,
        loss_col=loss_col,
        drop_highest_loss=drop_highest_loss,
        huber_delta=huber_delta,
        bootstrap=bootstrap,
        seed=seed,
        threads=threads,
        emit_law=emit_law,
    )
    if isinstance(runs, (str, os.PathLike)):
        return _command(["fit"], [os.fspath(runs)], **flags)
    with tempfile.TemporaryDirectory(prefix="scaleopt-fit-") as folder:
        path = os.path.join(folder, "runs.csv")
        # Shortest round-trip floats: the fit reads the DataFrame's numbers exactly.
        runs.to_csv(path, index=False, float_format=None)
        return _command(["fit"], [path], **flags)


def roofline(
    scenario: Union[None, str, os.PathLike, Scenario] = None,
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    hardware: Optional[str] = None,
    model: Optional[str] = None,
    context: Optional[Quantity] = None,
    chips: Optional[Quantity] = None,
    precision: Optional[str] = None,
    kv_precision: Optional[str] = None,
    batch: Optional[Quantity] = None,
    latency_per_token: Optional[Quantity] = None,
    price: Optional[Quantity] = None,
    compute_efficiency: Optional[Quantity] = None,
    bandwidth_efficiency: Optional[Quantity] = None,
    attention_flops: bool = False,
) -> dict:
    """The serving roofline of a model on a chip: the decode step, the batch where compute
    meets bandwidth, throughput and cost per token (``scaleopt roofline --json``), from flags
    (``hardware="h100-sxm", model="llama3-70b", context=4096``) or a scenario's served model."""
    positional, overrides = [], _overrides(set)
    if scenario is not None:
        path, overrides = _scenario_arguments(scenario, set)
        positional = [path]
    return _command(
        ["roofline"],
        positional,
        set=overrides,
        hardware=hardware,
        model=model,
        context=context,
        chips=chips,
        precision=precision,
        kv_precision=kv_precision,
        batch=batch,
        latency_per_token=latency_per_token,
        price=price,
        compute_efficiency=compute_efficiency,
        bandwidth_efficiency=bandwidth_efficiency,
        attention_flops=attention_flops,
    )


