#!/usr/bin/env python3
"""scaleopt serve answers what the command line answers (docs/serve.md).

Starts `scaleopt serve --port 0` in the source tree, then
  - POST /api/solve for examples with "set" equals `scaleopt solve EXAMPLE --json --set ...`
    run in the same directory (every string equal, every number within 1e-12 relative);
  - POST /api/sweep rows equal the rows of `scaleopt sweep ... --out FILE` (CSV), column by
    column (an empty cell is null);
  - the scenario given on the command line is what a body without "example" gets.
Usage: test_serve_answers.py SCALEOPT SOURCE_DIR
"""
import csv
import http.client
import json
import math
import os
import subprocess
import sys
import tempfile

# Both sides compute the same doubles by the same code, so equality is expected; 1e-12 relative
# is the bound, and leaves room only for printing (both print shortest round-trip text).
REL = 1e-12


def start_server(exe, source, *args):
    proc = subprocess.Popen([exe, "serve", "--port", "0", *args], cwd=source,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    if "listening on http://127.0.0.1:" not in line:
        proc.kill()
        sys.exit(f"serve did not print its URL: {line!r} {proc.stderr.read()!r}")
    port = int(line.split("127.0.0.1:")[1].split("/")[0])
    return proc, port


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    text = response.read()
    connection.close()
    return response.status, json.loads(text)


def same(a, b, where):
    """Structural equality, numbers within REL."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or a is None:
        assert a == b, f"{where}: {a!r} != {b!r}"
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        assert math.isclose(a, b, rel_tol=REL, abs_tol=0.0) or a == b, f"{where}: {a!r} != {b!r}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def check_solve(exe, source, port, example, sets):
    status, answer = post(port, "/api/solve", {"example": example, "set": sets})
    assert status == 200, (status, answer)
    argv = [exe, "solve", f"examples/{example}.toml", "--json"]
    for key, value in sets.items():
        argv += ["--set", f"{key}={value}"]
    cli = subprocess.run(argv, cwd=source, capture_output=True, text=True)
    assert cli.returncode in (0, 1), cli.stderr
    expected = json.loads(cli.stdout)
    same(answer, expected, example)
    assert answer["scenario"] == f"examples/{example}.toml"
    print(f"solve {example} {sets}: {len(json.dumps(answer))} bytes of JSON equal")


def cell(text):
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return text


def check_sweep(exe, source, port, example, vary, tmp):
    status, answer = post(port, "/api/sweep", {"example": example, "vary": vary})
    assert status == 200, (status, answer)
    out = os.path.join(tmp, f"{example}.csv")
    cli = subprocess.run([exe, "sweep", f"examples/{example}.toml", "--vary", vary, "--out", out,
                          "--threads", "1"], cwd=source, capture_output=True, text=True)
    assert cli.returncode in (0, 1), cli.stderr
    with open(out) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    header, rows = rows[0], rows[1:]
    assert answer["columns"] == header, (answer["columns"], header)
    assert len(answer["rows"]) == len(rows) > 1
    for i, (got, row) in enumerate(zip(answer["rows"], rows)):
        assert list(got) == header, f"row {i}: keys differ from the CSV's columns"
        for column, text in zip(header, row):
            want = cell(text)
            value = got[column]
            if isinstance(want, float):
                assert isinstance(value, (int, float)) and not isinstance(value, bool), \
                    f"row {i} {column}: {value!r} for {text}"
                assert math.isclose(value, want, rel_tol=REL, abs_tol=0.0) or value == want, \
                    f"row {i} {column}: {value!r} != {text}"
            else:
                assert value == want, f"row {i} {column}: {value!r} != {text!r}"
    print(f"sweep {example} {vary}: {len(rows)} rows x {len(header)} columns equal the CSV")


def main():
    exe, source = sys.argv[1], sys.argv[2]
    proc, port = start_server(exe, source)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            check_solve(exe, source, port, "sardana_cost", {"inference.requests": "2e10"})
            check_solve(exe, source, port, "frontier_100x", {"inference.rate": "100M/s"})
            check_solve(exe, source, port, "sardana_compute", {})
            # A number in "set" is written back as its shortest text: 0.45 is "0.45".
            check_solve(exe, source, port, "sardana_cost", {"training.mfu": 0.45})
            check_sweep(exe, source, port, "sardana_cost", "inference.requests=1e9..1e11:log:7", tmp)
            check_sweep(exe, source, port, "frontier_100x", "inference.rate=1M/s..1G/s:log:5", tmp)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    # The scenario of the command line, for a body that names none.
    proc, port = start_server(exe, source, "examples/sardana_cost.toml")
    try:
        status, answer = post(port, "/api/solve", {})
        assert status == 200, (status, answer)
        cli = subprocess.run([exe, "solve", "examples/sardana_cost.toml", "--json"], cwd=source,
                             capture_output=True, text=True)
        same(answer, json.loads(cli.stdout), "served")
        print("the served scenario's answer equals solve's")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print("ok")


if __name__ == "__main__":
    main()
