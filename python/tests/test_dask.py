"""scaleopt.dask.sweep on a dask.distributed LocalCluster (docs/scaling-out.md, "Dask"): the
DataFrame equals the one-process scaleopt.sweep exactly (rows, order, values, dtypes), whatever
the number of shards; a shard that fails, or returns fewer rows than its share, is an error.

The one-process sweep is itself checked cell for cell against the command line's CSV
(test_scaleopt.py); here the shards are solved by other threads or processes, pickled back and
reassembled, and any row lost, repeated, reordered or changed in transit is a difference."""

import os

import pandas
import pytest

distributed = pytest.importorskip("distributed")  # Debian's python3-distributed (install-deps)

import scaleopt  # noqa: E402
import scaleopt.dask  # noqa: E402

SOURCE = os.environ.get("SCALEOPT_SOURCE_DIR", ".")
SARDANA = os.path.join(SOURCE, "examples", "sardana_cost.toml")
# 600 points: ten 64-point blocks, so 3 shards get 4, 3 and 3 blocks, and 16 leave 6 empty.
# Debian's tornado warns on every cluster start from inside distributed: not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")
VARY = {"inference.requests": "1e9..1e11:log:200", "training.mfu": [0.3, 0.4, 0.5]}


@pytest.fixture(scope="module")
def client():
    # Threads in this process (processes=False): starts in milliseconds. The shards still go
    # through the scheduler as tasks; test_process_workers covers pickling between processes.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


@pytest.fixture(scope="module")
def whole():
    return scaleopt.sweep(SARDANA, VARY)


def assert_same(frame, expected):
    pandas.testing.assert_frame_equal(frame, expected, check_exact=True)


@pytest.mark.parametrize("shards", [None, 1, 3, 16])
def test_equals_the_one_process_sweep(client, whole, shards):
    assert len(whole) == 600
    assert_same(scaleopt.dask.sweep(SARDANA, VARY, client=client, shards=shards), whole)


def test_scenario_with_overrides_and_solver_options(client):
    loaded = scaleopt.load(SARDANA, set={"inference.output_tokens": 500})
    vary = {"inference.requests": "1e9..1e11:log:70"}
    expected = scaleopt.sweep(loaded, vary, set={"training.mfu": 0.45}, method="nlopt",
                              max_evaluations=500)
    assert (expected["algorithm"] == "LD_SLSQP").all()  # NLopt solved every point
    frame = scaleopt.dask.sweep(loaded, vary, set={"training.mfu": 0.45}, client=client,
                                shards=2, method="nlopt", max_evaluations=500)
    assert_same(frame, expected)


def test_current_client_is_the_default(client, whole):
    assert_same(scaleopt.dask.sweep(SARDANA, VARY, shards=2), whole)


# The second cluster's HTTP server finds the first's port taken and takes another: harmless.
@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")
def test_process_workers(whole):
    # Two worker processes: the scenario's text, the grid and the frames are pickled.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            assert_same(scaleopt.dask.sweep(SARDANA, VARY, client=c, shards=3), whole)


def test_a_failing_shard_raises(client, monkeypatch):
    solve = scaleopt.dask._solve_shard

    def failing(name, text, overrides, axes, index, count, threads, options):
        if index == 2:
            raise RuntimeError("worker lost its disk")
        return solve(name, text, overrides, axes, index, count, threads, options)

    monkeypatch.setattr(scaleopt.dask, "_solve_shard", failing)
    with pytest.raises(RuntimeError, match="worker lost its disk") as raised:
        scaleopt.dask.sweep(SARDANA, VARY, client=client, shards=3)
    assert "in shard 2/3 of scaleopt.dask.sweep" in getattr(raised.value, "__notes__", [""])


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda frame: frame.iloc[:0], "64 of 600 points missing"),  # a shard's rows lost
        (lambda frame: frame.iloc[1:], "1 of 600 points missing"),
        (lambda frame: pandas.concat([frame, frame.iloc[:1]]), "1 repeated"),
    ],
)
def test_missing_or_repeated_rows_are_an_error(client, monkeypatch, damage, message):
    solve = scaleopt.dask._solve_shard

    def lossy(name, text, overrides, axes, index, count, threads, options):
        frame = solve(name, text, overrides, axes, index, count, threads, options)
        return damage(frame) if index == 1 else frame

    monkeypatch.setattr(scaleopt.dask, "_solve_shard", lossy)
    with pytest.raises(RuntimeError, match=message):
        scaleopt.dask.sweep(SARDANA, VARY, client=client, shards=10)


def test_bad_input(client):
    # The scenario and its overrides are checked before any task, with the command's message.
    with pytest.raises(scaleopt.InputError, match="training.mfu"):
        scaleopt.dask.sweep(SARDANA, VARY, set={"training.mfu": 7}, client=client)
    # The grid is checked by the shards: the same exception comes back from the workers.
    with pytest.raises(scaleopt.InputError, match="no.such.key"):
        scaleopt.dask.sweep(SARDANA, {"no.such.key": "1..2"}, client=client)
    with pytest.raises(TypeError, match="'shard'"):
        scaleopt.dask.sweep(SARDANA, VARY, client=client, shard=(1, 2))
    with pytest.raises(scaleopt.InputError, match="shards"):
        scaleopt.dask.sweep(SARDANA, VARY, client=client, shards=0)


def test_no_client(monkeypatch):
    # What get_client raises where no client was made (the module's client exists here).
    def no_client():
        raise ValueError("No clients found")

    monkeypatch.setattr(distributed, "get_client", no_client)
    with pytest.raises(ValueError, match="no dask client"):
        scaleopt.dask.sweep(SARDANA, VARY)
