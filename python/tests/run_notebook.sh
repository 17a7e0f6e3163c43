#!/bin/sh
# Executes a notebook as CI does (Debian's jupyter nbconvert, python3-ipykernel) into a
# temporary folder; fails when any cell raises. The kernel starts in the notebook's folder.
#   run_notebook.sh NOTEBOOK.ipynb   (PYTHONPATH must hold the built module)
set -eu
notebook=$1
out=$(mktemp -d "${TMPDIR:-/tmp}/scaleopt-notebook.XXXXXX")
trap 'rm -rf "$out"' EXIT
# The kernel's debugger warns about frozen modules on every start; the warning is harmless.
PYDEVD_DISABLE_FILE_VALIDATION=1 MPLBACKEND=Agg \
  jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
  --output-dir "$out" --output executed "$notebook"
test -s "$out/executed.ipynb"
