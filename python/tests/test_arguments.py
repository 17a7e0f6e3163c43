"""Arguments a careless or hostile caller gives (docs/python.md, "Errors"; docs/reliability.md):
every count within the library's limit, named by its keyword; a wrong type is one line naming
the argument; a NUL byte is refused, never cut off; a sweep too large for memory is refused
before anything is allocated; a DataFrame's columns reach the fit without a file between; a
loaded scenario with set= is not read again; a missing pandas names the interpreter."""

import os
import re
import shutil
import sys

import numpy
import pandas
import pytest

import scaleopt

SOURCE = os.environ.get("SCALEOPT_SOURCE_DIR", ".")
SARDANA = os.path.join(SOURCE, "examples", "sardana_cost.toml")
UNCERTAIN = os.path.join(SOURCE, "examples", "frontier_uncertain.toml")
RUNS = os.path.join(SOURCE, "examples", "chinchilla_fig4_epoch.csv")


# ---------------------------------------------------------------------------------------------
# The library's limits, by keyword (the command line's: docs/cli.md, "Limits")

@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: scaleopt.solve(SARDANA, starts=10**9),
         "starts: at most 100 (the limit), got 1000000000"),
        (lambda: scaleopt.solve(scaleopt.load(SARDANA), starts=101),
         "starts: at most 100 (the limit), got 101"),
        (lambda: scaleopt.solve(SARDANA, starts=0), "starts: must be from 1 to 100, got 0"),
        # Beyond a C int: the limit, not an overflow.
        (lambda: scaleopt.solve(SARDANA, max_evaluations=10**12),
         "max_evaluations: at most 1e6 (the limit), got 1000000000000"),
        (lambda: scaleopt.optimal(compute=1e24, starts=10**30),
         "starts: at most 100 (the limit), got 1e+30"),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": [0.3, 0.4]}, threads=5000),
         "threads: at most 1024 (the limit), got 5000"),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": [0.3, 0.4]}, threads=-1),
         "threads: must be from 0 to 1024, got -1"),
        (lambda: scaleopt.uncertainty(UNCERTAIN, samples=10**7),
         "samples: at most 1e6 (the limit), got 10000000"),
        (lambda: scaleopt.sensitivity(SARDANA, threads=2000),
         "threads: at most 1024 (the limit), got 2000"),
        (lambda: scaleopt.fit(RUNS, params_col="Model Size", flops_col="Training FLOP",
                              loss_col="loss", bootstrap=10**6),
         "bootstrap: at most 100000 (the limit), got 1000000"),
        (lambda: scaleopt.selftest(instances=10**10),
         "instances: at most 1e9 (the limit), got 10000000000"),
    ],
)
def test_counts_above_the_limit_are_refused_naming_the_keyword(call, message):
    with pytest.raises(scaleopt.InputError) as raised:
        call()
    assert str(raised.value) == message


# ---------------------------------------------------------------------------------------------
# Types and NUL bytes: one line naming the argument

@pytest.mark.parametrize(
    "call, error, start",
    [
        (lambda: scaleopt.solve(SARDANA, set=["inference.rate=1M/s"]), TypeError, "set:"),
        (lambda: scaleopt.load(SARDANA, set="inference.rate=1M/s"), TypeError, "set:"),
        (lambda: scaleopt.solve(SARDANA, set={"inference.requests": [1, 2]}), TypeError,
         "set['inference.requests']:"),
        (lambda: scaleopt.solve(SARDANA, set={1: 2}), TypeError, "set key:"),
        (lambda: scaleopt.solve(123), TypeError, "scenario:"),
        (lambda: scaleopt.load(None), TypeError, "path:"),
        (lambda: scaleopt.fit(123, params_col="N", tokens_col="D", loss_col="L"), TypeError,
         "runs:"),
        (lambda: scaleopt.fit(RUNS, params_col=5, tokens_col="D", loss_col="L"), TypeError,
         "params_col:"),
        (lambda: scaleopt.solve(SARDANA, starts="many"), TypeError, "starts:"),
        (lambda: scaleopt.solve(SARDANA, starts=2.0), TypeError, "starts:"),
        (lambda: scaleopt.solve(SARDANA, starts=True), TypeError, "starts:"),
        (lambda: scaleopt.solve(SARDANA, algorithm=7), TypeError, "algorithm:"),
        (lambda: scaleopt.solve(SARDANA, kkt_tolerance="tight"), TypeError, "kkt_tolerance:"),
        (lambda: scaleopt.solve(SARDANA, polish="no"), TypeError, "polish:"),
        (lambda: scaleopt.sweep(SARDANA, [("training.mfu", [0.3])]), TypeError, "vary:"),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": ["low", "high"]}), TypeError,
         "vary['training.mfu']:"),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": [0.3]}, shard=5), TypeError, "shard:"),
        (lambda: scaleopt.sweep(SARDANA, {"training.mfu": [0.3]}, threads="2"), TypeError,
         "threads:"),
        (lambda: scaleopt.uncertainty(UNCERTAIN, samples=1.5), TypeError, "samples:"),
        (lambda: scaleopt.optimal(compute=[1e24]), TypeError, "compute:"),
        (lambda: scaleopt.optimal(law=object(), compute=1e24), TypeError, "law:"),
        (lambda: scaleopt.roofline(hardware={"h100"}, model="llama3-70b"), TypeError,
         "hardware:"),
        # A NUL byte would end the text where C reads it: refused, never cut off.
        (lambda: scaleopt.load(SARDANA + "\0.ignored"), scaleopt.InputError, "path:"),
        (lambda: scaleopt.solve(SARDANA + "\0.ignored"), scaleopt.InputError, "scenario:"),
        (lambda: scaleopt.optimal(law="hoffmann2022\0x", compute=1e24), scaleopt.InputError,
         "law:"),
        (lambda: scaleopt.optimal(law_file=SARDANA + "\0x", compute=1e24), scaleopt.InputError,
         "law_file:"),
        (lambda: scaleopt.roofline(hardware="h100-sxm\0x", model="llama3-70b"),
         scaleopt.InputError, "hardware:"),
        (lambda: scaleopt.solve(SARDANA, set={"inference.hardware": "h100-sxm\0x"}),
         scaleopt.InputError, "set['inference.hardware']:"),
        (lambda: scaleopt.solve(SARDANA, set={"inference.rate\0x": 1}), scaleopt.InputError,
         "set key:"),
        (lambda: scaleopt.fit(RUNS + "\0x", params_col="N", tokens_col="D", loss_col="L"),
         scaleopt.InputError, "runs:"),
        (lambda: scaleopt.fit(RUNS, params_col="Model Size\0x", flops_col="Training FLOP",
                              loss_col="loss"), scaleopt.InputError, "params_col:"),
    ],
)
def test_bad_arguments_are_one_line_naming_the_argument(call, error, start):
    with pytest.raises(error) as raised:
        call()
    message = str(raised.value)
    assert message.startswith(start), message
    assert "\n" not in message, message
    assert type(raised.value) is error or isinstance(raised.value, scaleopt.InputError)


def test_a_nul_byte_in_a_command_argument_is_refused_by_the_command_line():
    """Behind the module's own checks, the command line refuses an argument holding a NUL
    (its C string would end there) for any caller."""
    status, json, text, error = scaleopt._scaleopt.run_command(
        ["optimal", "--law", "hoffmann2022\0junk", "--compute", "1e24", "--json"])
    assert status == 2 and json is None
    assert "argument 3 ('hoffmann2022...') holds a NUL byte" in error  # after "optimal --law"


# ---------------------------------------------------------------------------------------------
# A sweep too large for memory

def test_a_sweep_too_large_for_memory_is_refused_before_anything_is_allocated():
    # 10^5 x 10^4 = 10^9 rows (inside the grid limit of 10^12): ~300 GB as a DataFrame, which
    # ended in MemoryError: std::bad_alloc after minutes.
    vary = {"inference.requests": "1e9..1e11:log:100000", "training.mfu": "0.3..0.6:10000"}
    with pytest.raises(scaleopt.InputError) as raised:
        scaleopt.sweep(SARDANA, vary)
    message = str(raised.value)
    # The estimate against the real layout of a small sweep of the same keys: each column's
    # item size (8 for int64 and float64, 1 for a categorical's codes), and the 8 bytes of the
    # row's index in the points solved.
    frame = scaleopt.sweep(SARDANA, {"inference.requests": [1e10, 2e10],
                                     "training.mfu": [0.3, 0.4]})
    per_row = 8 + sum(frame[c].cat.codes.to_numpy().itemsize if hasattr(frame[c], "cat")
                      else frame[c].to_numpy().itemsize for c in frame.columns)
    match = re.fullmatch(r"vary: 1B rows of (\d+) columns would take ([\d.]+)GB in memory, "
                         r"more than ([\d.]+)GB \(the limit: half of this machine's memory\); "
                         r"sweep fewer points, split the grid with shard=\(i, n\), or write it "
                         r"to a file \(scaleopt sweep --out\)", message)
    assert match, message
    assert int(match[1]) == len(frame.columns)
    assert float(match[2]) * 1e9 == pytest.approx(1e9 * per_row, rel=5e-3)  # 3 digits shown
    # Half of the kernel's MemTotal (kB), the same count of pages as sysconf's.
    with open("/proc/meminfo") as meminfo:
        total_kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal:"))
    assert float(match[3]) * 1e9 == pytest.approx(total_kb * 1024 / 2, rel=5e-3)


# ---------------------------------------------------------------------------------------------
# A DataFrame's columns go to the fit as they are

def test_a_dataframe_fit_takes_columns_with_any_name():
    runs = pandas.read_csv(RUNS, float_precision="round_trip").iloc[::6]
    flags = dict(params_col="Model Size", flops_col="Training FLOP", loss_col="loss")
    expected = scaleopt.fit(runs, **flags)
    assert expected["status"] == "converged"
    # Names a CSV cannot hold unquoted, or at all: a newline, quotes, a comma, a leading dash.
    renamed = runs.rename(columns={"Model Size": "N\nparams", "Training FLOP": '"C", FLOPs',
                                   "loss": "-loss"})
    got = scaleopt.fit(renamed, params_col="N\nparams", flops_col='"C", FLOPs',
                       loss_col="-loss")
    assert got == expected
    # Texts are read as a file's cells are ("70B"), numbers as float64, exactly.
    texts = runs.astype({"Model Size": str})
    assert scaleopt.fit(texts, **flags) == expected


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda f: f.drop(columns=["loss"]),
         "loss_col: no column 'loss' in the DataFrame (its columns: "),
        (lambda f: f.assign(loss=-f["loss"]),
         "the DataFrame, row 0: column 'loss' (loss_col): must be positive, got -"),
        (lambda f: f.assign(loss=f["loss"].where(f.index != f.index[3])),
         "the DataFrame, row 3: column 'loss' (loss_col): must be positive, got nan"),
        (lambda f: f.astype({"Model Size": str}).assign(**{"Model Size": "seventy"}),
         "the DataFrame, row 0: column 'Model Size' (params_col): cannot read 'seventy'"),
        (lambda f: f.iloc[:0], "the DataFrame: no runs (no rows)"),
    ],
)
def test_a_dataframe_fit_names_the_column_and_row(change, message):
    runs = change(pandas.read_csv(RUNS).iloc[::6].reset_index(drop=True))
    with pytest.raises(scaleopt.InputError) as raised:
        scaleopt.fit(runs, params_col="Model Size", flops_col="Training FLOP", loss_col="loss")
    assert str(raised.value).startswith(message), str(raised.value)


# ---------------------------------------------------------------------------------------------
# A loaded scenario is not read again

def test_a_loaded_scenario_with_set_is_not_read_again(tmp_path):
    path = tmp_path / "scenario.toml"
    shutil.copy(SARDANA, path)
    loaded = scaleopt.load(path)
    expected = scaleopt.solve(path, set={"inference.requests": 2e10})
    # The file is gone: set= edits the document loaded, not the file.
    path.unlink()
    assert scaleopt.solve(loaded, set={"inference.requests": 2e10}) == expected
    both = scaleopt.solve(loaded, set={"inference.requests": 2e10, "training.mfu": 0.45})
    swept = scaleopt.sweep(loaded, {"inference.requests": [2e10]}, set={"training.mfu": 0.45})
    # The sweep's fast path against solve's NLopt: the stress run's agreement, 1e-8.
    assert swept["params"].iloc[0] == pytest.approx(both["params"], rel=1e-8)
    # Errors locate the key in the document as loading the file does.
    with pytest.raises(scaleopt.InputError) as from_memory:
        scaleopt.solve(loaded, set={"inference.requests": -1})
    shutil.copy(SARDANA, path)
    with pytest.raises(scaleopt.InputError) as from_file:
        scaleopt.solve(path, set={"inference.requests": -1})
    assert str(from_memory.value) == str(from_file.value)


# ---------------------------------------------------------------------------------------------
# An interpreter without pandas

def test_a_missing_pandas_names_the_interpreter_and_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ModuleNotFoundError) as raised:
        scaleopt.sweep(SARDANA, {"training.mfu": [0.4]})
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"scaleopt.sweep needs pandas, which this Python ({sys.executable}) "
                              f"cannot import")
    assert "python3-pandas" in message
    assert raised.value.name == "pandas"
