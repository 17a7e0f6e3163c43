"""The Python module against the command line (docs/python.md): every function's answer equals
the command's --json, number for number; a sweep's DataFrame equals its CSV cell for cell; bad
input raises InputError with the command's message; a sweep releases the GIL.

The command line is an independent path for the numbers here: it parses text flags with CLI11,
prints JSON or CSV text that Python parses back, while the module converts the library's
results to Python objects directly (solve, sweep) or runs the command in-process. Equality is
exact: both print or convert the same doubles (JSON and the CSV print shortest round-trip
text), so any difference is a bug, not rounding."""

import json
import os
import re
import subprocess
import threading
import time

import numpy
import pandas
import pytest

import scaleopt

BINARY = os.environ["SCALEOPT_BINARY"]
SOURCE = os.environ.get("SCALEOPT_SOURCE_DIR", ".")
SARDANA = os.path.join(SOURCE, "examples", "sardana_cost.toml")
FRONTIER = os.path.join(SOURCE, "examples", "frontier_100x.toml")
UNCERTAIN = os.path.join(SOURCE, "examples", "frontier_uncertain.toml")
RUNS = os.path.join(SOURCE, "examples", "chinchilla_fig4_epoch.csv")


def cli(*args, expect=0):
    """The command's stdout and stderr (its exit status checked)."""
    done = subprocess.run([BINARY, *args], capture_output=True, text=True)
    assert done.returncode == expect, done.stderr
    return done.stdout, done.stderr


def cli_json(*args):
    return json.loads(cli(*args, "--json")[0])


def cli_error(*args):
    """The command line's message for bad input (exit 2), without its "scaleopt: error: "."""
    _, err = cli(*args, expect=2)
    return err.strip().removeprefix("scaleopt: error: ")


def keyword_message(message):
    """A command line message as Python shows it: the flag that opens it as its keyword
    ("--rank-by: ..." -> "rank_by: ..."), and the runs' column flags as keywords anywhere."""
    message = re.sub(r"^--([A-Za-z-]+)(?=[: ])", lambda m: m.group(1).replace("-", "_"), message)
    return re.sub(r"--([a-z]+)-col\b", r"\1_col", message)


def test_laws():
    assert scaleopt.laws() == cli_json("laws")["laws"]


def test_joint_laws():
    joint = scaleopt.joint_laws()
    assert joint == cli_json("laws")["joint_laws"]
    # Ludziejewski et al. 2025 (arXiv 2502.05172), Table 3: the preset is listed by its key.
    assert [law["name"] for law in joint] == ["ludziejewski2025"]


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        (dict(law="hoffmann2022", compute=5.76e23), ["--law", "hoffmann2022", "--compute", "5.76e23"]),
        (dict(params="70B"), ["--params", "70B"]),
        (dict(law="sardana2024", loss=1.947), ["--law", "sardana2024", "--loss", "1.947"]),
        (dict(compute="1e24", tokens_per_param=20), ["--compute", "1e24", "--tokens-per-param", "20"]),
        (dict(compute=1e24, E=1.7, alpha=0.3), ["--compute", "1e24", "--E", "1.7", "--alpha", "0.3"]),
    ],
)
def test_optimal(kwargs, flags):
    assert scaleopt.optimal(**kwargs) == cli_json("optimal", *flags)


def test_loss():
    answer = scaleopt.loss(params="70B", tokens=1.4e12, law="sardana2024")
    assert answer == cli_json("loss", "--params", "70B", "--tokens", "1.4T", "--law", "sardana2024")
    assert answer["over_chinchilla"] > 0


def test_data_limit_fields():
    # Limited unique tokens: solve carries the data-limit fields, equal to the command's JSON,
    # and a sweep's DataFrame has them as float64 columns.
    limited = {"data.unique_tokens": "300B"}
    answer = scaleopt.solve(SARDANA, set=limited)
    assert answer == cli_json("solve", SARDANA, "--set", "data.unique_tokens=300B")
    assert answer["epochs"] == answer["pretrain_tokens"] / 300e9
    assert answer["effective_tokens"] < answer["pretrain_tokens"]
    assert answer["data_limit_cost"] > 0
    frame = scaleopt.sweep(SARDANA, {"inference.requests": "1e9..1e10:2"}, set=limited)
    for column in ("unique_tokens", "epochs", "effective_tokens", "data_limit_cost"):
        assert frame[column].dtype == numpy.float64
    assert "epochs" not in scaleopt.sweep(SARDANA, {"inference.requests": "1e9..1e10:2"}).columns
    loss = scaleopt.loss(params=8.67e9, tokens=178e9, unique_tokens=25e9, law="muennighoff2023")
    assert abs(loss["loss"] - 2.2269634075087867) < 1e-12


def test_solve_path_and_loaded_scenario():
    expected = cli_json("solve", SARDANA, "--set", "inference.requests=2e10")
    assert scaleopt.solve(SARDANA, set={"inference.requests": 2e10}) == expected
    loaded = scaleopt.load(SARDANA, set={"inference.requests": "2e10"})
    assert scaleopt.solve(loaded) == expected
    assert scaleopt.solve(loaded) == expected  # a loaded scenario is not changed by solving


def test_an_ignored_problem_key_is_warned_about_as_on_the_command_line():
    # max-quality spends a budget: a target loss has no part in it.
    budget = os.path.join(SOURCE, "examples", "budget_plan.toml")
    _, err = cli("solve", budget, "--set", "problem.target_loss=2")
    warning = "problem.target_loss is ignored by max-quality"
    assert err == f"scaleopt: warning: {warning}\n"
    with pytest.warns(UserWarning, match=f"^{warning}$"):
        loaded = scaleopt.load(budget, set={"problem.target_loss": 2})
    assert loaded.warnings == [warning]
    assert scaleopt.solve(loaded)["warnings"] == [warning]
    assert scaleopt.load(SARDANA).warnings == []


def test_solve_method_matches_the_command_line():
    # The fast path and NLopt, each as the command line gives it: the same JSON to the last
    # digit (both fronts run the same library call), and the two methods agree with each other
    # to 1e-9 (NLopt's answer is held to the 1-D reference within SolverOptions'
    # reference_tolerance of 1e-8; the fast path is Newton on that reference, ~1e-13).
    fast = scaleopt.solve(SARDANA, method="auto")
    nlopt = scaleopt.solve(SARDANA, method="nlopt")
    assert fast == cli_json("solve", SARDANA, "--method", "auto")
    assert nlopt == cli_json("solve", SARDANA, "--method", "nlopt")
    assert fast["status"] == nlopt["status"] == "converged"
    for key in ("params", "pretrain_tokens", "loss"):
        assert fast[key] == pytest.approx(nlopt[key], rel=1e-9)
    with pytest.raises(scaleopt.InputError, match=r"^method: expected auto or nlopt"):
        scaleopt.solve(SARDANA, method="newton")


def test_solve_equal_cost_and_solver_options():
    assert scaleopt.solve(FRONTIER, starts=2) == cli_json("solve", FRONTIER, "--starts", "2")


def test_sensitivity():
    assert scaleopt.sensitivity(SARDANA, tornado="10%", threads=2) == cli_json(
        "sensitivity", SARDANA, "--tornado", "10%", "--threads", "2"
    )


JOINT_LAW_SCENARIO = """[law]
preset = "ludziejewski2025"
experts = 8
[problem]
kind = "min-lifetime-flops"
target_params = "1B"
[inference]
tokens = "1T"
output_fraction = 0.3
"""


def test_sensitivity_and_uncertainty_of_a_joint_law(tmp_path):
    """A joint dense/MoE law's coefficients (law.joint.*) and its experts are inputs, its
    reduction (law.A, ...) is not; a Monte Carlo draws over law.joint.* as the command does."""
    path = tmp_path / "joint.toml"
    path.write_text(JOINT_LAW_SCENARIO)
    answer = scaleopt.sensitivity(str(path), threads=2)
    assert answer == cli_json("sensitivity", str(path), "--threads", "2")
    inputs = {row["input"] for row in answer["elasticities"]}
    assert {"law.joint.a", "law.joint.zeta", "law.experts", "law.E"} <= inputs
    assert not inputs & {"law.A", "law.B", "law.alpha", "law.beta"}
    drawn = tmp_path / "joint_drawn.toml"
    drawn.write_text(JOINT_LAW_SCENARIO + '[uncertainty]\nlaw.joint.alpha = '
                     '{ dist = "normal", mean = -0.1889, sd = 0.005 }\n')
    assert scaleopt.uncertainty(str(drawn), samples=500, seed=2, threads=2) == cli_json(
        "uncertainty", str(drawn), "--samples", "500", "--seed", "2", "--threads", "2")


def test_experts_chosen():
    """A joint law with no law.experts: the experts are a decision, reported with the total,
    the active parameters and the dense model of the same loss; the module answers as the
    command does."""
    moe = os.path.join(SOURCE, "examples", "frontier_moe.toml")
    answer = scaleopt.solve(moe)
    assert answer == cli_json("solve", moe)
    assert answer["status"] == "converged"
    assert 1 <= answer["experts"] <= 32
    assert answer["params"] > answer["active_params"]
    assert answer["dense"]["experts"] == 1
    assert answer["dense"]["params"] == answer["dense"]["active_params"]
    assert abs(answer["dense"]["loss"] - answer["loss"]) < 1e-9
    # Bounds as overrides, as --set gives them.
    fixed = scaleopt.solve(moe, set={"problem.min_experts": 8, "problem.max_experts": 8})
    assert abs(fixed["experts"] - 8) < 1e-12


def test_uncertainty():
    assert scaleopt.uncertainty(UNCERTAIN, samples=200, seed=7) == cli_json(
        "uncertainty", UNCERTAIN, "--samples", "200", "--seed", "7"
    )


def test_fit_path_and_dataframe(tmp_path):
    # Every sixth of the Chinchilla runs (40), to keep the test short.
    runs = pandas.read_csv(RUNS, float_precision="round_trip").iloc[::6]
    path = tmp_path / "runs.csv"
    runs.to_csv(path, index=False)
    flags = dict(params_col="Model Size", flops_col="Training FLOP", loss_col="loss")
    expected = cli_json("fit", str(path), "--params-col", "Model Size", "--flops-col",
                        "Training FLOP", "--loss-col", "loss")
    assert expected["status"] == "converged"
    # A DataFrame goes through a temporary CSV file; a path is read as given (two fits only:
    # each runs 4,500 starts).
    assert scaleopt.fit(runs, **flags) == expected


def test_roofline():
    assert scaleopt.roofline(hardware="h100-sxm", model="llama3-70b", context=4096) == cli_json(
        "roofline", "--hardware", "h100-sxm", "--model", "llama3-70b", "--context", "4096"
    )


@pytest.mark.parametrize(
    "call, flags",
    [
        (lambda: scaleopt.optimal(compute=1e24, params="70B"),
         ["optimal", "--compute", "1e24", "--params", "70B"]),
        (lambda: scaleopt.optimal(law="nosuch", compute=1e24),
         ["optimal", "--law", "nosuch", "--compute", "1e24"]),
        (lambda: scaleopt.loss(params="seventy", tokens="1T"),
         ["loss", "--params", "seventy", "--tokens", "1T"]),
        (lambda: scaleopt.solve(SARDANA, set={"inference.nosuch": 1}),
         ["solve", SARDANA, "--set", "inference.nosuch=1"]),
        (lambda: scaleopt.solve(os.path.join(SOURCE, "tests", "data", "negative_price.toml")),
         ["solve", os.path.join(SOURCE, "tests", "data", "negative_price.toml")]),
        (lambda: scaleopt.sweep(SARDANA, {"inference.nosuch": [1, 2]}),
         ["sweep", SARDANA, "--vary", "inference.nosuch=1..2", "--out", os.devnull]),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": "0.5..0.4"}),
         ["sweep", SARDANA, "--vary", "training.mfu=0.5..0.4", "--out", os.devnull]),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": "0.3..0.5"}, shard=(3, 2)),
         ["sweep", SARDANA, "--vary", "training.mfu=0.3..0.5", "--shard", "3/2", "--out",
          os.devnull]),
        (lambda: scaleopt.sensitivity(SARDANA, rank_by="nothing"),
         ["sensitivity", SARDANA, "--rank-by", "nothing"]),
    ],
)
def test_errors_carry_the_command_line_message(call, flags):
    with pytest.raises(scaleopt.InputError) as raised:
        call()
    assert str(raised.value) == keyword_message(cli_error(*flags))
    assert isinstance(raised.value, ValueError)


def test_listed_values_out_of_range():
    with pytest.raises(scaleopt.InputError, match=r"^vary training\.mfu: must be"):
        scaleopt.sweep(SARDANA, {"training.mfu": numpy.array([0.5, 1.5])})


def sweep_csv(*flags, tmp_path):
    out = tmp_path / "sweep.csv"
    cli("sweep", *flags, "--out", str(out))
    # comment="#": past the provenance lines (docs/scaling-out.md). keep_default_na=False,
    # na_values=[""]: an empty cell is NaN, any text stays text.
    # round_trip: the shortest text of a double reads back as that double (pandas' default
    # parser can be an ulp off).
    return pandas.read_csv(
        out, comment="#", keep_default_na=False, na_values=[""], float_precision="round_trip"
    )


def assert_frame_matches_csv(frame, csv):
    assert list(frame.columns) == list(csv.columns)
    assert len(frame) == len(csv)
    for column in frame.columns:
        if isinstance(frame[column].dtype, pandas.CategoricalDtype):
            got = frame[column].astype(object).where(frame[column].notna(), "")
            want = csv[column].astype(object).where(csv[column].notna(), "")
            assert got.tolist() == want.tolist(), column
        else:
            numpy.testing.assert_array_equal(frame[column].to_numpy(), csv[column].to_numpy(),
                                             err_msg=column)


@pytest.mark.parametrize(
    "scenario, vary",
    [
        (SARDANA, {"inference.requests": "1e9..1e11:log:6", "training.mfu": "0.3..0.6:4"}),
        (FRONTIER, {"inference.rate": "1M/s..100M/s:log:5"}),  # equal-cost: optimum.* columns
    ],
)
def test_sweep_equals_the_csv(scenario, vary, tmp_path):
    frame = scaleopt.sweep(scenario, vary, threads=2)
    flags = [scenario]
    for path, spec in vary.items():
        flags += ["--vary", f"{path}={spec}"]
    assert_frame_matches_csv(frame, sweep_csv(*flags, tmp_path=tmp_path))


def test_sweep_dtypes_and_arrays(tmp_path):
    csv = sweep_csv(SARDANA, "--vary", "inference.requests=1e9..1e11:log:7", tmp_path=tmp_path)
    # The CSV's grid values, given back as an array, give the same rows.
    frame = scaleopt.sweep(SARDANA, {"inference.requests": csv["inference.requests"].to_numpy()})
    assert_frame_matches_csv(frame, csv)
    assert frame["point"].dtype == numpy.int64
    assert frame["points"].dtype == numpy.int64
    assert frame["params"].dtype == numpy.float64
    assert frame["cost.total.usd"].dtype == numpy.float64
    assert isinstance(frame["status"].dtype, pandas.CategoricalDtype)
    assert isinstance(frame["algorithm"].dtype, pandas.CategoricalDtype)
    assert (frame["status"] == "converged").all()


def test_sweep_shards_partition_the_grid():
    vary = {"inference.requests": "1e9..1e11:log:200"}
    whole = scaleopt.sweep(SARDANA, vary)
    parts = [scaleopt.sweep(SARDANA, vary, shard=(i, 3)) for i in (1, 2, 3)]
    assert [len(p) for p in parts] == [64 + 8, 64, 64]  # blocks of 64 points, dealt in turn
    joined = pandas.concat(parts).sort_values("point").reset_index(drop=True)
    pandas.testing.assert_frame_equal(joined, whole)
    assert scaleopt.sweep(SARDANA, vary, shard="2/3").equals(parts[1])


def test_sweep_releases_the_gil():
    """Another Python thread runs while a sweep solves. The main thread notes the time of each
    of its steps; the worker notes when the sweep started and returned. With the GIL held the
    main thread could take no step in between: its longest pause would be the whole sweep.
    Released, it pauses only for thread switches (milliseconds against a sweep of tenths of a
    second), so the bound of half the sweep is loose."""
    span = {}

    def run():
        span["start"] = time.perf_counter()
        # NLopt on every point, on one thread: slow enough for the main thread to run.
        scaleopt.sweep(SARDANA, {"inference.requests": "1e9..1e11:log:300"}, threads=1,
                       method="nlopt")
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=run)
    steps = []
    worker.start()
    while worker.is_alive():
        steps.append(time.perf_counter())
    worker.join()
    inside = [span["start"]] + [t for t in steps if span["start"] < t < span["end"]] + [span["end"]]
    longest_pause = max(b - a for a, b in zip(inside, inside[1:]))
    assert longest_pause < (span["end"] - span["start"]) / 2


def test_stub_matches_the_signatures():
    """__init__.pyi (what editors read) names the same parameters, in the same order and of the
    same kind, as the functions (whose shared keyword groups @_keywords expands)."""
    import ast
    import inspect

    stub = os.path.join(os.path.dirname(scaleopt.__file__), "__init__.pyi")
    with open(stub, encoding="utf-8") as file:
        tree = ast.parse(file.read())
    stubbed = {node.name: node.args for node in tree.body if isinstance(node, ast.FunctionDef)}
    functions = [name for name in scaleopt.__all__ if inspect.isfunction(getattr(scaleopt, name))]
    assert sorted(stubbed) == sorted(functions)
    for name in functions:
        args = stubbed[name]
        expected = [(a.arg, "POSITIONAL_OR_KEYWORD") for a in args.args]
        expected += [(a.arg, "KEYWORD_ONLY") for a in args.kwonlyargs]
        actual = [(p.name, p.kind.name) for p in inspect.signature(getattr(scaleopt, name))
                  .parameters.values()]
        assert actual == expected, name


def _resident_bytes():
    """This process's resident memory now (Linux: the second field of /proc/self/statm)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_repeated_calls_do_not_leak():
    """The conversions to Python objects own every reference they make: 3,000 solves (each a
    dict of ~75 numbers and strings, ~10 kB) and 30 sweeps of 1,000 points leave the number of
    live objects and the resident memory where a few warm-up calls put them. A reference leaked
    per value would keep ~30 MB of solves alive and ~1e5 objects; the bounds (2,000 objects, 8 MB
    for allocator slack and caches) are far below that and far above the noise."""
    import gc

    loaded = scaleopt.load(FRONTIER)
    grid = {"inference.rate": numpy.geomspace(1e6, 1e9, 1000)}
    for _ in range(50):
        scaleopt.solve(loaded)
    scaleopt.sweep(loaded, grid, threads=1)
    gc.collect()
    objects, resident = len(gc.get_objects()), _resident_bytes()
    for _ in range(3000):
        scaleopt.solve(loaded)
    for _ in range(30):
        scaleopt.sweep(loaded, grid, threads=1)
    gc.collect()
    assert len(gc.get_objects()) - objects < 2000
    assert _resident_bytes() - resident < 8 * 2**20
