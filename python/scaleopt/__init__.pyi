# Type stub of the scaleopt package (docs/python.md): what editors complete and type checkers
# check. Answers are the dicts of each command's --json; sweep's is a pandas DataFrame.

import os
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

import numpy
import pandas

Quantity = Union[int, float, str]
ScenarioLike = Union[str, os.PathLike[str], "Scenario"]
AxisValues = Union[str, Sequence[float], numpy.ndarray]

class InputError(ValueError):
    """Bad input, with the command line's message."""

class NotConverged(RuntimeError):
    """A command found no verified answer and printed only its status."""

class Scenario:
    path: str
    overrides: list[str]
    warnings: list[str]
    def __init__(
        self, path: Union[str, os.PathLike[str]], set: Optional[Mapping[str, Quantity]] = ...
    ) -> None: ...

def load(
    path: Union[str, os.PathLike[str]], set: Optional[Mapping[str, Quantity]] = ...
) -> Scenario: ...
def laws() -> list[dict[str, Any]]: ...
def joint_laws() -> list[dict[str, Any]]: ...
def optimal(
    law: Optional[str] = ...,
    *,
    compute: Optional[Quantity] = ...,
    params: Optional[Quantity] = ...,
    loss: Optional[Quantity] = ...,
    tokens_per_param: Optional[Quantity] = ...,
    unique_tokens: Optional[Quantity] = ...,
    law_file: Optional[str] = ...,
    E: Optional[Quantity] = ...,
    A: Optional[Quantity] = ...,
    B: Optional[Quantity] = ...,
    alpha: Optional[Quantity] = ...,
    beta: Optional[Quantity] = ...,
    algorithm: str = ...,
    max_evaluations: int = ...,
    starts: int = ...,
    kkt_tolerance: float = ...,
    polish: bool = ...,
) -> dict[str, Any]: ...
def loss(
    params: Quantity,
    tokens: Quantity,
    law: Optional[str] = ...,
    *,
    unique_tokens: Optional[Quantity] = ...,
    law_file: Optional[str] = ...,
    E: Optional[Quantity] = ...,
    A: Optional[Quantity] = ...,
    B: Optional[Quantity] = ...,
    alpha: Optional[Quantity] = ...,
    beta: Optional[Quantity] = ...,
) -> dict[str, Any]: ...
def solve(
    scenario: ScenarioLike,
    set: Optional[Mapping[str, Quantity]] = ...,
    *,
    method: str = ...,
    algorithm: str = ...,
    max_evaluations: int = ...,
    starts: int = ...,
    kkt_tolerance: float = ...,
    polish: bool = ...,
) -> dict[str, Any]: ...
def sweep(
    scenario: ScenarioLike,
    vary: Mapping[str, AxisValues],
    set: Optional[Mapping[str, Quantity]] = ...,
    *,
    threads: Optional[int] = ...,
    method: str = ...,
    shard: Union[None, str, Tuple[int, int]] = ...,
    algorithm: str = ...,
    max_evaluations: int = ...,
    starts: int = ...,
    kkt_tolerance: float = ...,
    polish: bool = ...,
) -> pandas.DataFrame: ...
def sensitivity(
    scenario: ScenarioLike,
    set: Optional[Mapping[str, Quantity]] = ...,
    *,
    tornado: Quantity = ...,
    rank_by: str = ...,
    threads: Optional[int] = ...,
    method: str = ...,
    algorithm: str = ...,
    max_evaluations: int = ...,
    starts: int = ...,
    kkt_tolerance: float = ...,
    polish: bool = ...,
) -> dict[str, Any]: ...
def uncertainty(
    scenario: ScenarioLike,
    set: Optional[Mapping[str, Quantity]] = ...,
    *,
    samples: int = ...,
    seed: int = ...,
    threads: Optional[int] = ...,
    method: str = ...,
    algorithm: str = ...,
    max_evaluations: int = ...,
    starts: int = ...,
    kkt_tolerance: float = ...,
    polish: bool = ...,
) -> dict[str, Any]: ...
def fit(
    runs: Union[str, os.PathLike[str], pandas.DataFrame],
    *,
    params_col: str,
    loss_col: str,
    tokens_col: Optional[str] = ...,
    flops_col: Optional[str] = ...,
    experts_col: Optional[str] = ...,
    drop_highest_loss: int = ...,
    huber_delta: Quantity = ...,
    bootstrap: int = ...,
    seed: int = ...,
    threads: Optional[int] = ...,
    emit_law: Optional[str] = ...,
) -> dict[str, Any]: ...
def roofline(
    scenario: Optional[ScenarioLike] = ...,
    set: Optional[Mapping[str, Quantity]] = ...,
    *,
    hardware: Optional[str] = ...,
    model: Optional[str] = ...,
    context: Optional[Quantity] = ...,
    chips: Optional[Quantity] = ...,
    precision: Optional[str] = ...,
    kv_precision: Optional[str] = ...,
    batch: Optional[Quantity] = ...,
    latency_per_token: Optional[Quantity] = ...,
    price: Optional[Quantity] = ...,
    compute_efficiency: Optional[Quantity] = ...,
    bandwidth_efficiency: Optional[Quantity] = ...,
    attention_flops: bool = ...,
) -> dict[str, Any]: ...
def selftest(
    *,
    instances: int = ...,
    seed: int = ...,
    threads: Optional[int] = ...,
) -> dict[str, Any]: ...
