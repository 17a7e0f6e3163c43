#!/bin/sh
# `pip install .` of a copy of the checkout with Debian 12's tools only and no network
# (docs/python.md, "With pip"): a virtual environment that sees Debian's packages
# (python3-venv, python3-pip, python3-setuptools, python3-pybind11, numpy, pandas), pip with
# --no-index (no package index) and --no-build-isolation (the build backend from Debian, not
# downloaded), inside a network namespace of its own with no interface but a loopback that is
# down. Then, from outside the source tree and with no PYTHONPATH, the installed module answers
# the Chinchilla budget, checked against the closed form of Hoffmann et al. (2022).
#   install_offline.sh SOURCE_DIR BUILD_DIR
# BUILD_DIR is the configured build tree whose _scaleopt pip copies (SCALEOPT_CMAKE_BUILD_DIR in
# setup.py), so the test takes seconds; without it pip would build the library again.
set -eu
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
python=${SCALEOPT_PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/scaleopt-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A copy of the tracked files: pip builds in place, and must write neither its build folders
# nor scaleopt.egg-info into the checkout under test.
mkdir "$work/src"
if git -C "$source_dir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$source_dir" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$work/src"
else
  tar -C "$source_dir" --exclude='./build*' -cf - . | tar -xf - -C "$work/src"
fi

# --without-pip: the environment runs Debian's pip (python3-pip, seen through the system site
# packages) rather than a copy that ensurepip would install (4 to 5 s); pip installs into the
# environment it runs in all the same.
"$python" -m venv --system-site-packages --without-pip "$work/venv"

# No network: a new network namespace (as root; unshare -n). Where one cannot be made the
# install still runs with --no-index, which never asks an index; say so rather than pass quietly.
offline=""
if unshare -n true 2>/dev/null; then
  offline="unshare -n"
else
  echo "install_offline: note: cannot make a network namespace (unshare -n needs root):" \
       "the install runs with --no-index but with the network reachable" >&2
fi
SCALEOPT_CMAKE_BUILD_DIR=$build_dir PIP_DISABLE_PIP_VERSION_CHECK=1 \
  $offline "$work/venv/bin/python" -m pip install --quiet --no-index --no-build-isolation \
  "$work/src"

mkdir "$work/elsewhere"
cd "$work/elsewhere"
env -u PYTHONPATH SCALEOPT_VENV="$work/venv" "$work/venv/bin/python" - <<'PY'
import math
import os

import scaleopt

# Installed into the environment's site-packages, not imported from a source or build tree.
venv = os.path.realpath(os.environ["SCALEOPT_VENV"])
where = os.path.realpath(scaleopt.__file__)
assert where.startswith(os.path.join(venv, "lib")), where
assert os.path.isfile(os.path.join(os.path.dirname(where), "__init__.pyi"))
import scaleopt.dask  # noqa: E402 (installed with the package; Debian's distributed)

assert os.path.realpath(scaleopt.dask.__file__).startswith(os.path.dirname(where))

# Hoffmann et al. (2022), App. D.2, Approach 3: L = E + A/N^alpha + B/D^beta with C = 6 N D.
# Minimising at fixed C: N_opt = G (C/6)^a, D_opt = (C/6)^b / G, with G = (alpha A / (beta B))
# ^(1/(alpha+beta)), a = beta/(alpha+beta), b = alpha/(alpha+beta) (their eq. 4).
E, A, B, alpha, beta = 1.69, 406.4, 410.7, 0.34, 0.28
compute = 5.76e23  # Chinchilla's budget (Gopher's)
G = (alpha * A / (beta * B)) ** (1 / (alpha + beta))
params = G * (compute / 6) ** (beta / (alpha + beta))
tokens = (compute / 6) ** (alpha / (alpha + beta)) / G
loss = E + A / params**alpha + B / tokens**beta

answer = scaleopt.optimal(law="hoffmann2022", compute=compute)
assert answer["status"] == "converged", answer
# The solver stops at xtol_rel 1e-10 and polishes to the KKT point: 1e-9 leaves room for the
# rounding of the powers, and is far below any difference that would matter (or a wrong law).
for key, expected in (("params", params), ("tokens", tokens), ("loss", loss)):
    assert math.isclose(answer[key], expected, rel_tol=1e-9), (key, answer[key], expected)
print(f"installed at {where}: N = {answer['params']:.6g} (closed form {params:.6g}), "
      f"D = {answer['tokens']:.6g} ({tokens:.6g})")

try:
    scaleopt.optimal(compute=1e24, params="70B")
except scaleopt.InputError as error:
    assert "exactly one of" in str(error), error
else:
    raise AssertionError("optimal with both compute and params did not raise InputError")
PY
