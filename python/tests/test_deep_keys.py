"""A scenario or law file whose table header or dotted key has tens of thousands of parts
overflowed toml++'s stack and killed the interpreter itself (SIGSEGV): it is InputError now, in
one line naming the file and line. Each case runs in a child interpreter, so that a crash is a
failed test and not the end of the test run."""

import os
import subprocess
import sys

import pytest

# 35,000 parts: a 70 KB file.
DEEP = ".".join(["a"] * 35_000)

CHILD = """
import sys
import scaleopt
try:
    {call}
except scaleopt.InputError as error:
    print("InputError:", error)
    sys.exit(0)
print("no error")
sys.exit(1)
"""


def run_child(call):
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(call=call)], capture_output=True, text=True,
        env=os.environ, timeout=120,
    )
    # A negative status is the signal that killed the child (-11: SIGSEGV).
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout.strip()


@pytest.mark.parametrize("text, line", [(f"[{DEEP}]\nx = 1\n", 1), (f"# c\n{DEEP} = 1\n", 2)])
@pytest.mark.parametrize("call", ["scaleopt.load(sys.argv[0])", "scaleopt.solve(sys.argv[0])"])
def test_deep_scenario_is_input_error(tmp_path, text, line, call):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    out = run_child(call.replace("sys.argv[0]", repr(str(path))))
    assert out.startswith(f"InputError: {path}:{line}: nested more than 64 levels"), out
    assert "\n" not in out and len(out) < 300


def test_deep_law_file_is_input_error(tmp_path):
    path = tmp_path / "law.toml"
    path.write_text(f"[law]\n{DEEP} = 1\n")
    out = run_child(f"scaleopt.optimal(compute=1e24, law_file={str(path)!r})")
    assert "nested more than 64 levels" in out and f"{path}:2" in out, out
