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
import importlib
import inspect
import numbers
import os
import sys
import warnings
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from . import _scaleopt
from ._scaleopt import InputError

__all__ = [
    "InputError",
    "NotConverged",
    "Scenario",
    "load",
    "laws",
    "joint_laws",
    "optimal",
    "loss",
    "solve",
    "sweep",
    "sensitivity",
    "uncertainty",
    "fit",
    "roofline",
    "selftest",
]


class NotConverged(RuntimeError):
    """A command found no verified answer and printed only its status (``sensitivity`` when the
    base case does not converge). The message is the command's text."""


Quantity = Union[int, float, str]


class Scenario:
    """A scenario file loaded once (``load``), with its ``--set`` overrides: solve, sweep and the
    analyses take it in place of a path and skip reading the file again. The file's text is kept:
    ``set=`` given with a loaded scenario edits that text's document in memory, never the file
    read again. ``warnings`` lists what the file gives that has no effect ("problem.target_loss
    is ignored by max-quality"), each also raised as a UserWarning when the file is loaded and
    in ``solve``'s ``warnings``."""

    def __init__(self, path: Union[str, os.PathLike], set: Optional[Mapping[str, Quantity]] = None):
        self.path = _path("path", path)
        self.overrides = _overrides(set)
        self._document = _scaleopt.read_document(self.path)
        self._loaded_from_document()

    def _loaded_from_document(self) -> None:
        self._native = self._document.load(self.overrides)
        self.warnings = list(self._native.warnings)
        for warning in self.warnings:
            warnings.warn(warning, UserWarning, stacklevel=4)

    def __repr__(self) -> str:
        return f"scaleopt.Scenario({self.path!r}, set={self.overrides!r})"


def load(path: Union[str, os.PathLike], set: Optional[Mapping[str, Quantity]] = None) -> Scenario:
    """Loads a scenario file (docs/scenario.md) with overrides, as ``--set KEY=VALUE``:
    ``load("examples/sardana_cost.toml", set={"inference.tokens": "4T"})``."""
    return Scenario(path, set)


def _shown(value: Any) -> str:
    """A value as a message quotes it: its type and the start of its repr."""
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def _no_nul(name: str, text: str) -> str:
    # A C string ends at its first NUL: "h100\0x" would be read as "h100".
    if "\0" in text:
        raise InputError(f"{name}: holds a NUL byte, which no name, path or value may hold")
    return text


def _string(name: str, value: Any) -> str:
    """A text argument (a name, an algorithm, a column): TypeError naming it otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a str, got {_shown(value)}")
    return _no_nul(name, value)


def _path(name: str, value: Any) -> str:
    """A file's path: a str or an os.PathLike of one."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name}: expected a path (str or os.PathLike), got {_shown(value)}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{name}: expected a path as str, got {_shown(path)}")
    return _no_nul(name, path)


def _count(name: str, value: Any) -> int:
    """A whole number (an int or a numpy integer, not a bool), within the library's limit for
    ``name`` where it has one (the same as the command line's: ``starts`` at most 100)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected a whole number (int), got {_shown(value)}")
    value = int(value)
    if name in _LIMITED:
        _scaleopt.check_count(name, value)
    return value


def _text(value: Quantity, name: str) -> str:
    """A number or quantity as the command line reads it: floats in their shortest round-trip
    form, so the command sees the same double."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise TypeError(f"{name}: expected a number or a quantity (str), got {_shown(value)}")
    if isinstance(value, str):
        return _no_nul(name, value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(float(value))


def _overrides(set: Optional[Mapping[str, Quantity]]) -> list:
    if set is None:
        return []
    if not isinstance(set, Mapping):
        raise TypeError("set: expected a dict of scenario keys to values, e.g. "
                        f"{{'inference.rate': '100M/s'}}, got {_shown(set)}")
    overrides = []
    for key, value in set.items():
        key = _string("set key", key)
        # A boolean key (inference.attention_flops) takes true or false, as --set writes them.
        text = ("true" if value else "false") if isinstance(value, bool) else _text(
            value, f"set[{key!r}]")
        overrides.append(f"{key}={text}")
    return overrides


def _flag(name: str) -> str:
    # The law's coefficients keep their case (--E, --A, --B); other names take dashes.
    return "--" + (name if name in ("E", "A", "B") else name.replace("_", "-"))


def _command(command: Sequence[str], positional: Sequence[str] = (), runs=None,
             **flags: Any) -> Any:
    """Runs a command in-process with --json and returns its JSON as Python objects; ``runs``:
    fit's columns (see fit). Each flag's value is checked first, named by its keyword."""
    args = list(command) + list(positional)
    for name, value in flags.items():
        if value is None or value is False:
            continue
        if value is True:
            args.append(_flag(name))
        elif name == "set":  # the one repeated flag: --set KEY=VALUE ...
            for item in value:
                args += [_flag(name), _text(item, name)]
        else:
            if name in _LIMITED:
                _count(name, value)
            args += [_flag(name), _text(value, name)]
    args.append("--json")
    status, json, text, error = _scaleopt.run_command(args, runs)
    if status == 2:
        raise InputError(_keyword_message(_message(error), flags))
    if json is None:
        raise NotConverged(text.strip() or _message(error))
    return json


def _keyword_message(message: str, keywords) -> str:
    """The command line's message with the flags this call set shown as its keywords:
    "--rank-by: unknown output" -> "rank_by: unknown output"."""
    for name in keywords:
        flag = _flag(name)
        if message.startswith(flag) and message[len(flag):len(flag) + 1] in (":", " "):
            return name + message[len(flag):]
    return message


def _message(error: str) -> str:
    line = error.strip()
    prefix = "scaleopt: error: "
    return line[len(prefix):] if line.startswith(prefix) else line


def _scenario_arguments(scenario: Union[str, os.PathLike, Scenario], set) -> Tuple[str, list]:
    if isinstance(scenario, Scenario):
        return scenario.path, scenario.overrides + _overrides(set)
    return _path("scenario", scenario), _overrides(set)


def _load_with(path: str, overrides: list, document=None) -> Scenario:
    """A Scenario from overrides already written as ``KEY=VALUE`` texts, from ``document`` (a
    loaded scenario's, not read again) or from the file at ``path``."""
    loaded = Scenario.__new__(Scenario)
    loaded.path = path
    loaded.overrides = overrides
    loaded._document = document if document is not None else _scaleopt.read_document(path)
    loaded._loaded_from_document()
    return loaded


def _loaded(scenario: Union[str, os.PathLike, Scenario], set) -> Scenario:
    if isinstance(scenario, Scenario):
        if not set:
            return scenario
        return _load_with(scenario.path, scenario.overrides + _overrides(set), scenario._document)
    return _load_with(_path("scenario", scenario), _overrides(set))


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


# The counts the library limits (solver/limits.hpp), by keyword: _count checks them.
_LIMITED = frozenset(_scaleopt.COUNT_LIMITS)

_solver_cache: dict = {}


def _solver(solver: dict):
    """The library's solver options for the ``solver`` group, made once per distinct group (the
    types are part of the key: starts=True must not find the options of starts=1)."""
    key = tuple((value, type(value)) for value in solver.values())
    options = _solver_cache.get(key)
    if options is None:
        algorithm = _string("algorithm", solver["algorithm"])
        max_evaluations = _count("max_evaluations", solver["max_evaluations"])
        starts = _count("starts", solver["starts"])
        kkt_tolerance = solver["kkt_tolerance"]
        if isinstance(kkt_tolerance, bool) or not isinstance(kkt_tolerance, numbers.Real):
            raise TypeError(f"kkt_tolerance: expected a number, got {_shown(kkt_tolerance)}")
        polish = solver["polish"]
        if not isinstance(polish, bool):
            raise TypeError(f"polish: expected True or False, got {_shown(polish)}")
        options = _scaleopt.solver_options(algorithm, max_evaluations, starts,
                                           float(kkt_tolerance), polish)
        if len(_solver_cache) < 64:
            _solver_cache[key] = options
    return options


def _solver_flags(solver: dict) -> dict:
    """The ``solver`` group as the command line's flags (``--no-polish`` for polish=False),
    checked by the library first, so that its messages are those of every function
    (``starts: at most 100 (the limit), got 1000``)."""
    _solver(solver)
    flags = {name: value for name, value in solver.items() if name != "polish"}
    flags["no_polish"] = not solver["polish"]
    return flags


def laws() -> list:
    """The loss-law presets with their coefficients and sources: the list under ``laws`` of
    ``scaleopt laws --json`` (whose object also holds ``schema_version``)."""
    return _command(["laws"])["laws"]


def joint_laws() -> list:
    """The joint dense/MoE law presets (Ludziejewski et al. 2025's form in active parameters,
    tokens and experts) with their coefficients, E^'s saturation, fitted range and source: the
    list under ``joint_laws`` of ``scaleopt laws --json``."""
    return _command(["laws"])["joint_laws"]


@_keywords(law_options=_LAW_KEYWORDS, solver=_SOLVER_KEYWORDS)
def optimal(
    law: Optional[str] = None,
    *,
    compute: Optional[Quantity] = None,
    params: Optional[Quantity] = None,
    loss: Optional[Quantity] = None,
    tokens_per_param: Optional[Quantity] = None,
    unique_tokens: Optional[Quantity] = None,
    law_options: dict,
    solver: dict,
) -> dict:
    """The compute-optimal (N, D) for a budget (``compute`` in FLOPs), a model size (``params``)
    or a target loss (``loss``): exactly one of the three (``scaleopt optimal --json``).
    ``unique_tokens``: the unique tokens available (with ``compute`` or ``loss``), repeated
    beyond them with the decay of Muennighoff et al. 2023.
    ``optimal(law="hoffmann2022", compute=5.76e23)``."""
    return _command(
        ["optimal"],
        compute=compute,
        params=params,
        loss=loss,
        tokens_per_param=tokens_per_param,
        unique_tokens=unique_tokens,
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
    unique_tokens: Optional[Quantity] = None,
    law_options: dict,
) -> dict:
    """The loss and training compute of N = ``params`` trained on D = ``tokens``, and how far D
    is from the law's compute-optimal tokens (``scaleopt loss --json``); with ``unique_tokens``,
    the loss when the tokens beyond them repeat."""
    return _command(
        ["loss"],
        params=params,
        tokens=tokens,
        law=law,
        unique_tokens=unique_tokens,
        **law_options,
    )


@_keywords(solver=_SOLVER_KEYWORDS)
def solve(
    scenario: Union[str, os.PathLike, Scenario],
    set: Optional[Mapping[str, Quantity]] = None,
    *,
    method: str = "auto",
    solver: dict,
) -> dict:
    """A scenario's question solved (``scaleopt solve --json``): a path or a loaded
    :class:`Scenario`, with overrides as ``--set``. ``method``: "auto" takes the 1-D Newton fast
    path where it applies (as ``sweep`` does), "nlopt" NLopt always; both return the full
    answer. An answer that did not converge is returned with its ``status``, as the command
    prints it."""
    loaded = _loaded(scenario, set)
    return _scaleopt.solve(
        loaded._native, _solver(solver), _string("method", method)
    )


def _module(name: str, needed_by: str):
    """``import name``, or one line saying which interpreter lacks which package: numpy and
    pandas are Debian packages, which another python3 first on PATH (pyenv, say) does not see."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ModuleNotFoundError(
            f"{needed_by} needs {name}, which this Python ({sys.executable}) cannot import "
            f"({error}): install the Debian package python3-{name} and run /usr/bin/python3, or "
            f"install {name} into this interpreter's environment", name=name) from None


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
    if not isinstance(shard, (tuple, list)) or len(shard) != 2:
        raise TypeError(f"shard: expected (i, n) or 'i/n', e.g. (2, 8), got {_shown(shard)}")
    return _count("shard", shard[0]), _count("shard", shard[1])


def _axis(values, path: str = "") -> Union[str, list]:
    if isinstance(values, str):
        return _no_nul(f"vary[{path!r}]", values)  # a range as --vary writes it: "1M/s..1G/s:log:50"
    numpy = _module("numpy", "scaleopt.sweep")
    try:
        array = numpy.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError) as error:
        raise TypeError(f"vary[{path!r}]: expected numbers or a range such as '1M/s..1G/s:log:50', "
                        f"got {_shown(values)} ({error})") from None
    return array.tolist()


def _vary(vary) -> list:
    if not isinstance(vary, Mapping):
        raise TypeError("vary: expected a dict of scenario keys to values, e.g. "
                        f"{{'inference.rate': '1M/s..1G/s:log:50'}}, got {_shown(vary)}")
    return [(_string("vary key", path), _axis(values, path)) for path, values in vary.items()]


def _threads(threads) -> int:
    return 0 if threads is None else _count("threads", threads)


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
    ``status`` and ``algorithm`` categorical. The DataFrame may take at most half of the
    machine's memory (InputError beforehand, with the estimate); Ctrl-C stops the sweep within
    about a second (KeyboardInterrupt, no rows kept)."""
    pandas = _module("pandas", "scaleopt.sweep")

    loaded = _loaded(scenario, set)
    index, count = _shard(shard)
    names, arrays, statuses, algorithms, _ = _scaleopt.sweep(
        loaded._native,
        _vary(vary),
        _threads(threads),
        _solver(solver),
        _string("method", method),
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
    experts_col: Optional[str] = None,
    drop_highest_loss: int = 0,
    huber_delta: Quantity = "1e-3",
    bootstrap: int = 0,
    seed: int = 1,
    threads: Optional[int] = None,
    emit_law: Optional[str] = None,
) -> dict:
    """Fits L(N, D) = E + A/N^alpha + B/D^beta to training runs (``scaleopt fit --json``):
    ``runs`` is a CSV file or a pandas DataFrame, one run per row; give ``tokens_col`` or
    ``flops_col``. A DataFrame's columns go to the fit as they are (float64 numbers, or texts
    such as "70B" read as a file's cells), with no file between: a column's name is only a
    name. With ``experts_col`` (each run's expert count, 1 = dense) the joint dense/MoE law of
    Ludziejewski et al. 2025 is fitted instead (``scaleopt fit --experts-col``). Ctrl-C stops the
    fit within about a second (KeyboardInterrupt)."""
    flags = dict(
        drop_highest_loss=drop_highest_loss,
        huber_delta=huber_delta,
        bootstrap=bootstrap,
        seed=seed,
        threads=threads,
        emit_law=None if emit_law is None else _path("emit_law", emit_law),
    )
    chosen = [("params_col", params_col), ("tokens_col", tokens_col), ("flops_col", flops_col),
              ("loss_col", loss_col), ("experts_col", experts_col)]
    # "--flag=NAME": a name may start with '-', which would read as a flag of its own.
    columns = [f"{_flag(keyword)}={_string(keyword, name)}" for keyword, name in chosen
               if name is not None]
    if isinstance(runs, (str, os.PathLike)):
        return _command(["fit"], [_path("runs", runs)] + columns, **flags)
    pandas = sys.modules.get("pandas")
    if pandas is None or not isinstance(runs, pandas.DataFrame):
        raise TypeError(f"runs: expected a CSV file's path or a pandas DataFrame, got {_shown(runs)}")
    if (tokens_col is None) == (flops_col is None):
        raise InputError("give exactly one of tokens_col (training tokens D) and flops_col "
                         "(training compute C = 6 N D)")
    data = ("tokens_col", tokens_col) if flops_col is None else ("flops_col", flops_col)
    given = [_runs_column(runs, keyword, name, pandas)
             for keyword, name in (chosen[0], data, chosen[3])]
    experts = None if experts_col is None else _runs_column(runs, *chosen[4], pandas)
    return _command(["fit", "the DataFrame"] + columns,
                    runs=(*given, flops_col is not None, experts), **flags)


def _runs_column(frame, keyword: str, name: str, pandas) -> tuple:
    """A DataFrame's column for the fit: (name, keyword, cells), the cells as float64 where the
    column holds numbers, else as texts (quantities such as "70B", read as a file's cells)."""
    if name not in frame.columns:
        names = ", ".join(repr(c)[:40] for c in list(frame.columns)[:10])
        more = f" and {len(frame.columns) - 10} more" if len(frame.columns) > 10 else ""
        raise InputError(f"{keyword}: no column {name!r} in the DataFrame (its columns: "
                         f"{names or 'none'}{more})")
    column = frame[name]
    if isinstance(column, pandas.DataFrame):
        raise InputError(f"{keyword}: {column.shape[1]} columns of the DataFrame are named {name!r}")
    types = pandas.api.types
    if types.is_numeric_dtype(column.dtype) and not types.is_bool_dtype(column.dtype):
        return name, keyword, column.to_numpy(dtype="float64", na_value=float("nan"))
    return name, keyword, [str(cell) for cell in column]


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




def selftest(*, instances: int = 10000, seed: int = 1, threads: Optional[int] = None) -> dict:
    """The stress run (``scaleopt selftest --json``): random but valid problems, each solved by
    NLopt and by an independent method, with the counts of those that agreed, were infeasible
    for both, disagreed or failed (docs/reliability.md). Ctrl-C stops it within about a second
    (KeyboardInterrupt)."""
    return _command(["selftest"], instances=instances, seed=seed, threads=threads)
