"""The programs of examples/cpp, built against the installed package, beside the installed
`scaleopt` (tests/install_consumer.sh runs this).

    install_consumer.py SCALEOPT EXAMPLES_BUILD_DIR SOURCE_DIR

- solve_json prints `scaleopt solve --json examples/sardana_cost.toml`: every key and every
  number must be identical. Both call the same library code with the same inputs and default
  solver options, deterministically (docs/architecture.md), so no tolerance is needed.
- The examples of docs/library.md print numbers with 6 significant digits (iostream's default),
  so they are compared at a relative 1e-5 (a rounding of at most 5e-6), against independent
  values where one exists: Hoffmann et al.'s closed form, the budget the plan must spend,
  Sardana et al.'s published optimum; and against the command's JSON otherwise.
- Each ```cpp block of docs/library.md and README.md appears, line by line, in the program it
  names.
"""

import json
import math
import re
import subprocess
import sys
from pathlib import Path

scaleopt, build, source = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
failures = []


def run(*args):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def close(what, ours, expected, rel=1e-5):
    if not math.isclose(ours, expected, rel_tol=rel):
        failures.append(f"{what}: {ours!r}, expected {expected!r} (relative {rel})")


def compare_json(path, a, b, counts):
    """Every key, every string and every number of a and b equal; counts the numbers."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            failures.append(f"{path}: keys {list(a)} != {list(b)}")
            return
        for key in a:
            compare_json(f"{path}.{key}", a[key], b[key], counts)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            failures.append(f"{path}: {len(a)} items != {len(b)}")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            compare_json(f"{path}[{i}]", x, y, counts)
    else:
        if type(a) is not type(b) or a != b:
            failures.append(f"{path}: {a!r} != {b!r}")
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            counts[0] += 1


def key_values(text):
    """The "key value" lines of an example's output."""
    return {k: v for k, v in (line.split() for line in text.splitlines())}


# solve_json against `scaleopt solve --json`: identical.
sardana = source / "examples/sardana_cost.toml"
cli = json.loads(run(scaleopt, "solve", "--json", sardana))
ours = json.loads(run(build / "solve_json", sardana))
numbers = [0]
compare_json("solve", ours, cli, numbers)
if numbers[0] < 30:
    failures.append(f"solve --json holds {numbers[0]} numbers; expected the whole answer")
print(f"solve_json: {numbers[0]} numbers, every key and string identical to scaleopt solve --json")

# compute_optimal: Hoffmann et al. 2022's closed form (Eq. 4 with the printed Approach 3 fit,
# E 1.69, A 406.4, B 410.7, alpha 0.34, beta 0.28): N = G (C/6)^(beta/(alpha+beta)),
# G = (alpha A / (beta B))^(1/(alpha+beta)), D = C / (6 N).
C = 5.76e23
A, B, alpha, beta = 406.4, 410.7, 0.34, 0.28
G = (alpha * A / (beta * B)) ** (1 / (alpha + beta))
N = G * (C / 6) ** (beta / (alpha + beta))
D = C / (6 * N)
got = key_values(run(build / "compute_optimal"))
close("compute_optimal params", float(got["params"]), N)
close("compute_optimal tokens", float(got["tokens"]), D)
close("compute_optimal loss", float(got["loss"]), 1.69 + A / N**alpha + B / D**beta)
if got["status"] != "converged":
    failures.append(f"compute_optimal: status {got['status']}")

# scenario_overrides: a max-quality plan spends the whole budget it was given by the override;
# its numbers are those of `scaleopt solve ... --set problem.budget_usd=1B --json`.
budget_plan = source / "examples/budget_plan.toml"
got = key_values(run(build / "scenario_overrides", budget_plan))
close("scenario_overrides cost_usd", float(got["cost_usd"]), 1e9)
cli = json.loads(run(scaleopt, "solve", budget_plan, "--set", "problem.budget_usd=1B", "--json"))
for key in ("params", "pretrain_tokens", "inference_tokens", "loss"):
    close(f"scenario_overrides {key}", float(got[key]), cli[key])

# sweep: at 1e10 requests, Sardana et al.'s published cost optimum (N 2.053e10, D 3.302e12,
# printed to 4 digits: relative 5e-4); every row equals `scaleopt solve --set
# inference.requests=R` (NLopt, where the sweep took the Newton fast path).
lines = run(build / "sweep", sardana).splitlines()
rows = [line.split() for line in lines[1:]]
if [float(r[0]) for r in rows] != [1e9, 1e10, 1e11] or any(r[4] != "converged" for r in rows):
    failures.append(f"sweep rows: {rows}")
else:
    close("sweep N at 1e10 requests (Sardana et al.)", float(rows[1][1]), 2.053e10, 5e-4)
    close("sweep D at 1e10 requests (Sardana et al.)", float(rows[1][2]), 3.302e12, 5e-4)
    for requests, params, tokens, usd, _ in rows:
        cli = json.loads(run(scaleopt, "solve", sardana, "--set", f"inference.requests={requests}",
                             "--json"))
        close(f"sweep params at {requests}", float(params), cli["params"])
        close(f"sweep pretrain_tokens at {requests}", float(tokens), cli["pretrain_tokens"])
        close(f"sweep cost at {requests}", float(usd), cli["cost"]["total"]["usd"])

# monte_carlo: the quantiles of `scaleopt uncertainty --samples 200 --seed 1 --json`.
uncertain = source / "examples/frontier_uncertain.toml"
lines = run(build / "monte_carlo", uncertain).splitlines()
cli = json.loads(run(scaleopt, "uncertainty", uncertain, "--samples", "200", "--seed", "1",
                     "--json"))
counts = lines[0].split()
if [int(counts[1]), int(counts[3]), int(counts[5])] != [cli["samples"], cli["converged"],
                                                         cli["invalid"]]:
    failures.append(f"monte_carlo counts: {lines[0]}")
for line in lines[1:]:
    output, _, p05, _, p50, _, p95 = line.split()
    for name, value in (("p05", p05), ("p50", p50), ("p95", p95)):
        close(f"monte_carlo {output} {name}", float(value), cli["quantiles"][output][name])

# docs/library.md and the README: each ```cpp block is in the program named on the line
# before it.
blocks = []
for doc in ("docs/library.md", "README.md"):
    blocks += re.findall(r"(examples/cpp/\w+\.cpp)[^\n]*\n+```cpp\n(.*?)```",
                         (source / doc).read_text(), re.S)
if len(blocks) < 6:
    failures.append(f"docs/library.md and README.md: {len(blocks)} examples found, expected 6")
for name, block in blocks:
    # Line by line, indentation aside: the docs show excerpts from inside main().
    shown = [line.strip() for line in block.splitlines()]
    program = [line.strip() for line in (source / name).read_text().splitlines()]
    if not any(program[i:i + len(shown)] == shown for i in range(len(program))):
        failures.append(f"the example of {name} in the docs is not in {name}")

if failures:
    sys.exit("\n".join(failures))
print(f"examples: compute_optimal, scenario_overrides, sweep, monte_carlo as expected; "
      f"{len(blocks)} examples of docs/library.md and README.md in their programs")
