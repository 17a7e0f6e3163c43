"""fit(experts_col=): the joint dense/MoE law of Ludziejewski et al. 2025 (Eq. 6 with Eq. 4),
from a CSV file or a DataFrame, against the command line's `fit --experts-col` on the same runs,
and against runs made here from known constants by the formula written out in numpy."""

import json
import math
import os
import subprocess

import numpy
import pandas
import pytest

import scaleopt

BINARY = os.environ["SCALEOPT_BINARY"]
SOURCE = os.environ.get("SCALEOPT_SOURCE_DIR", ".")
MOE_RUNS = os.path.join(SOURCE, "examples", "joint_moe_synthetic.csv")
COLUMNS = dict(params_col="active_params", tokens_col="tokens", loss_col="loss",
               experts_col="experts")
NAMES = ("E", "a", "b", "alpha", "beta", "delta", "gamma", "omega", "zeta")

# Eq. 4's saturation, which the fit holds at the paper's Table 3 values (docs/fitting.md).
EXPERTS_START, EXPERTS_MAX = 2.0732, 290.4521


def same_numbers(got, expected, rel):
    """Whether two JSON values agree: the same keys, texts and counts, numbers to `rel`."""
    if isinstance(expected, dict):
        return (isinstance(got, dict) and got.keys() == expected.keys()
                and all(same_numbers(got[k], expected[k], rel) for k in expected))
    if isinstance(expected, list):
        return (isinstance(got, list) and len(got) == len(expected)
                and all(same_numbers(g, e, rel) for g, e in zip(got, expected)))
    if isinstance(expected, float) and not isinstance(got, bool):
        return isinstance(got, (int, float)) and math.isclose(got, expected, rel_tol=rel,
                                                              abs_tol=0.0)
    return got == expected


def test_the_joint_fit_is_the_command_lines():
    # A small bootstrap too: the standard errors come out of the same resampling.
    flags = ["--params-col", "active_params", "--tokens-col", "tokens", "--loss-col", "loss",
             "--experts-col", "experts", "--bootstrap", "4", "--seed", "2", "--threads", "2"]
    done = subprocess.run([BINARY, "fit", MOE_RUNS, *flags, "--json"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    expected = json.loads(done.stdout)
    assert expected["form"] == "joint" and expected["status"] == "converged"
    assert expected["bootstrap"]["replicates"] == 4
    # The same numbers to 1e-12 from the path and from a DataFrame of the file's columns, the
    # DataFrame's cells read back to the file's doubles (round trip).
    path = scaleopt.fit(MOE_RUNS, **COLUMNS, bootstrap=4, seed=2, threads=2)
    assert same_numbers(path, expected, 1e-12)
    frame = pandas.read_csv(MOE_RUNS, float_precision="round_trip")
    from_frame = scaleopt.fit(frame, **COLUMNS, bootstrap=4, seed=2, threads=2)
    assert same_numbers(from_frame, expected, 1e-12)


def transformed_experts(experts):
    """Eq. 4 of the paper: 1/E^ = 1/(E - 1 + (1/E_start - 1/E_max)^-1) + 1/E_max."""
    return 1.0 / (1.0 / (experts - 1.0 + 1.0 / (1.0 / EXPERTS_START - 1.0 / EXPERTS_MAX))
                  + 1.0 / EXPERTS_MAX)


def test_the_joint_fit_recovers_the_constants_its_runs_were_made_from():
    # Constants of our own, not the paper's (so not examples/joint_moe_synthetic.csv's), signed
    # as the paper's fit is (alpha, beta < 0), at 4 x 4 x 4 (N, D, E) points.
    truth = dict(E=1.5, a=40.0, b=60.0, alpha=-0.2, beta=-0.22, delta=-0.1, gamma=0.005,
                 omega=0.4, zeta=-0.02)
    params, tokens, experts = (a.ravel() for a in numpy.meshgrid(
        [1e8, 3e8, 1e9, 3e9], [2e9, 8e9, 3.2e10, 1.28e11], [1.0, 2.0, 8.0, 32.0], indexing="ij"))
    l = numpy.log(transformed_experts(experts))
    n, d = numpy.log(params), numpy.log(tokens)
    term_a = truth["a"] * numpy.exp(truth["delta"] * l + (truth["alpha"] + truth["gamma"] * l) * n)
    term_b = truth["b"] * numpy.exp(truth["omega"] * l + (truth["beta"] + truth["zeta"] * l) * d)
    loss = truth["E"] + term_a + term_b
    frame = pandas.DataFrame(dict(active_params=params, tokens=tokens, experts=experts,
                                  loss=loss))
    fit = scaleopt.fit(frame, **COLUMNS, threads=2)
    assert fit["status"] == "converged", fit["message"]

    # The tolerance. The runs are exact, so the summed Huber loss of ln L is 0 at the truth and
    # nowhere else (J below has full rank); the fit stops where its gradient g, in
    # x = (ln E, ln a, ln b, alpha, beta, delta, gamma, omega, zeta), is at most 1e-7 of its
    # gradient scale S = delta_H sum_i max(1, |n|, |d|, |l|, |l n|, |l d|) (delta_H = 1e-3,
    # problems/fit/joint_law_fit.hpp). Residuals there are far below delta_H, where the Huber
    # loss is r^2 / 2: the objective is quadratic with Hessian J^T J (J: d ln L / dx at the
    # truth), so x - x* = (J^T J)^-1 g, |x_i - x*_i| <= sum_j |(J^T J)^-1_ij| 1e-7 S. Twice that
    # bound, for the linearisation, is each coefficient's tolerance (for E, a, b on their
    # logarithms: relative).
    p_e, p_a, p_b = truth["E"] / loss, term_a / loss, term_b / loss
    jacobian = numpy.column_stack([p_e, p_a, p_b, p_a * n, p_b * d, p_a * l, p_a * l * n, p_b * l,
                                   p_b * l * d])
    scale = 1e-3 * numpy.maximum.reduce([numpy.ones_like(n), abs(n), abs(d), abs(l), abs(l * n),
                                         abs(l * d)]).sum()
    bound = abs(numpy.linalg.inv(jacobian.T @ jacobian)).sum(axis=1) * 1e-7 * scale
    for i, name in enumerate(NAMES):
        found, expected = fit[name], truth[name]
        error = math.log(found / expected) if i < 3 else found - expected
        assert abs(error) <= 2 * bound[i], (name, found, expected, bound[i])
    # The runs' range, experts included, as the emitted law carries it.
    assert fit["fitted_range"]["max_experts"] == 32.0
    assert fit["fitted_range"]["min_params"] == 1e8


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda f: f.assign(experts=f["experts"].where(f.index != 2, 0.5)),
         "the DataFrame, row 2: column 'experts' (experts_col): must be at least 1 (1 = dense), "
         "got 0.5"),
        (lambda f: f.drop(columns=["experts"]),
         "experts_col: no column 'experts' in the DataFrame (its columns: "),
        (lambda f: f.astype({"experts": str}).assign(experts="many"),
         "the DataFrame, row 0: column 'experts' (experts_col): cannot read 'many'"),
    ],
)
def test_a_dataframe_joint_fit_names_the_experts_column_and_row(change, message):
    runs = change(pandas.read_csv(MOE_RUNS))
    with pytest.raises(scaleopt.InputError) as raised:
        scaleopt.fit(runs, **COLUMNS)
    assert str(raised.value).startswith(message), str(raised.value)
