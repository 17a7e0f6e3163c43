#!/usr/bin/env python3
"""Every --json answer against its schema (docs/json.md, docs/schema/<command>.json).

Runs each command that has --json on the example scenarios, validates what it printed with
jsonschema (Draft 2020-12), and checks that every command with --json has a schema and every
schema a command. Usage: json_schemas.py SCALEOPT SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

scaleopt, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
examples = os.path.join(source, "examples")
schema_dir = os.path.join(source, "docs", "schema")
tmp = tempfile.mkdtemp(prefix="scaleopt-json-")


def ex(name):
    return os.path.join(examples, name)


# Each command's runs: the examples, the flags that change which keys are null (a price list or
# none, a scenario or flags), small enough to take a few seconds in all.
RUNS = {
    "laws": [["laws"]],
    "hardware": [["hardware"]],
    "models": [["models"]],
    "training-runs": [["training-runs"], ["training-runs", "--mfu", "0.35"]],
    "optimal": [["optimal", "--compute", "5.76e23"], ["optimal", "--loss", "2.0"],
                ["optimal", "--compute", "1e24", "--tokens-per-param", "20"],
                # limited unique tokens, at a budget and at a loss
                ["optimal", "--compute", "1e22", "--unique-tokens", "25B", "--law",
                 "muennighoff2023"],
                ["optimal", "--loss", "2.25", "--unique-tokens", "25B", "--law",
                 "muennighoff2023"]],
    "loss": [["loss", "--params", "70B", "--tokens", "1.4T"],
             ["loss", "--params", "8.67B", "--tokens", "178B", "--unique-tokens", "25B",
              "--law", "muennighoff2023"]],
    "roofline": [["roofline", "--hardware", "h100-sxm", "--model", "deepseek-v3",
                  "--context", "200K"],
                 ["roofline", "--hardware", "h100-sxm", "--model", "llama3-70b",
                  "--precision", "bf16", "--context", "8K"],
                 # per-layer attention (a window, compressed entries, top-k)
                 ["roofline", "--hardware", "h200", "--model", "deepseek-v4-pro",
                  "--context", "1M"],
                 # one request: request_usd
                 ["roofline", "--hardware", "h100-sxm", "--model", "deepseek-v3",
                  "--input-tokens", "2K", "--output-tokens", "500"]],
    "cost": [["cost", ex("frontier.toml")], ["cost", ex("gemini_200k.toml")]],
    "solve": [["solve", ex(f)] for f in ("frontier_100x.toml", "sardana_compute.toml",
                                         "sardana_cost.toml", "budget_plan.toml",
                                         "frontier_uncertain.toml",
                                         # rl_returns; decode_mfu_implied and warnings
                                         "frontier_rl.toml", "frontier_derived.toml",
                                         # limited data: epochs, the price of the limit
                                         "frontier_data_wall.toml",
                                         "frontier_data_uncertain.toml")]
             + [["solve", ex("sardana_cost.toml"), "--set", "problem.max_pretrain_tokens=500B"]],
    "compare": [["compare", ex("frontier_100x.toml"), ex("frontier_derived.toml")],
                ["compare", ex("sardana_compute.toml"), ex("sardana_cost.toml")]],
    "fit": [["fit", ex("chinchilla_fig4_epoch.csv"), "--params-col", "Model Size",
             "--flops-col", "Training FLOP", "--loss-col", "loss", "--drop-highest-loss", "5",
             "--bootstrap", "20"],
            ["fit", ex("chinchilla_fig4_epoch.csv"), "--params-col", "Model Size",
             "--flops-col", "Training FLOP", "--loss-col", "loss"],
            ["fit", ex("joint_moe_synthetic.csv"), "--params-col", "active_params",
             "--tokens-col", "tokens", "--loss-col", "loss", "--experts-col", "experts",
             "--bootstrap", "4"]],
    "pricing curve": [["pricing", "curve", ex("gemini_200k.toml")],
                      ["pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b",
                       "--context", "1K..100K", "--points", "4"],
                      # rows for the contexts that do not fit four chips: null costs
                      ["pricing", "curve", "--hardware", "h100-sxm", "--model", "llama3-70b",
                       "--chips", "4"],
                      ["pricing", "curve", ex("gemini_200k.toml"), "--input-tokens", "150K",
                       "--output-tokens", "2K"]],
    "pricing infer-kv": [["pricing", "infer-kv", ex("gemini_200k.toml")],
                         ["pricing", "infer-kv", "--breakpoint", "200K", "--active-params",
                          "100B", "--flop-per-byte", "600"]],
    "pricing ratio": [["pricing", "ratio", ex("gemini_200k.toml")],
                      ["pricing", "ratio", "--hardware", "h100-sxm", "--model", "llama3-70b"]],
    "pricing cache": [["pricing", "cache", "--hardware", "h100-sxm", "--model", "llama3-70b"]],
    "pricing long-context": [["pricing", "long-context", ex("long_context_1m.toml")]],
    "sensitivity": [["sensitivity", ex("sardana_cost.toml")]],
    "uncertainty": [["uncertainty", ex("frontier_uncertain.toml"), "--samples", "200",
                     "--seed", "1"]],
    "sweep": [["sweep", ex("sardana_cost.toml"), "--vary", "inference.requests=1e8..1e12:log:3",
               "--out", os.path.join(tmp, "sweep.csv")]],
    "selftest": [["selftest", "--instances", "20", "--seed", "1", "--threads", "1"]],
}


def run(args):
    done = subprocess.run([scaleopt] + args, capture_output=True, text=True, cwd=tmp)
    return done.returncode, done.stdout, done.stderr


def commands_with_json():
    """Every command and pricing subcommand whose --help lists --json."""
    found = []
    _, top, _ = run(["--help"])
    names = re.findall(r"^  (\S+)\s", top.split("SUBCOMMANDS:")[-1], re.M)
    for name in names:
        _, text, _ = run([name, "--help"])
        if "SUBCOMMANDS:" in text:
            for sub in re.findall(r"^  (\S+)\s", text.split("SUBCOMMANDS:")[-1], re.M):
                _, subtext, _ = run([name, sub, "--help"])
                if "--json" in subtext:
                    found.append(name + " " + sub)
        elif "--json" in text:
            found.append(name)
    return found


failures = []
schema_of = {}
for command in RUNS:
    path = os.path.join(schema_dir, command.replace(" ", "-") + ".json")
    if not os.path.exists(path):
        failures.append(f"{command}: no schema {path}")
        continue
    with open(path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    schema_of[command] = schema

listed = commands_with_json()
if len(listed) < 10:
    failures.append(f"found only {listed} in --help: the help layout changed?")
for command in listed:
    if command not in RUNS:
        failures.append(f"{command} has --json but no run here and perhaps no schema")
for name in os.listdir(schema_dir):
    if name.endswith(".json") and name[:-5].replace("-", " ", 1) not in RUNS and \
            name[:-5] not in RUNS:
        failures.append(f"docs/schema/{name} names no command")

runs = 0
for command, invocations in RUNS.items():
    schema = schema_of.get(command)
    if schema is None:
        continue
    validator = jsonschema.Draft202012Validator(schema)
    for args in invocations:
        status, out, err = run(args + ["--json"])
        where = "scaleopt " + " ".join(args) + " --json"
        if status not in (0, 1):
            failures.append(f"{where}: exit {status}: {err.strip()}")
            continue
        try:
            answer = json.loads(out)
        except json.JSONDecodeError as e:
            failures.append(f"{where}: not JSON: {e}")
            continue
        for error in validator.iter_errors(answer):
            failures.append(f"{where}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
        # Every answer carries the same version, the one its schema states.
        if answer.get("schema_version") != schema["properties"]["schema_version"]["const"]:
            failures.append(f"{where}: schema_version {answer.get('schema_version')}")
        runs += 1

versions = {s["properties"]["schema_version"]["const"] for s in schema_of.values()}
if len(versions) != 1:
    failures.append(f"schemas state different versions: {versions}")
status, out, _ = run(["--version"])
if status != 0 or not re.fullmatch(r"scaleopt \d+\.\d+\.\d+\n", out):
    failures.append(f"--version: exit {status}, printed {out!r}")

for failure in failures:
    print(failure, file=sys.stderr)
print(f"{runs} answers of {len(schema_of)} commands checked against their schemas")
sys.exit(1 if failures else 0)
