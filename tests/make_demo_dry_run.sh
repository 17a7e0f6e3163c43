#!/bin/sh
# `make demo` builds only what it runs and says what it does: its dry run (make -n) builds the
# executable's target alone (no tests, benchmarks or Python module), configures in sight (no
# output thrown away), and make passes --no-print-directory to the sub-makes of cmake --build
# (no "gmake[n]: Entering directory" lines); scripts/install-deps hides nothing behind -qq. And
# it shows the headline assumed and derived, side by side (scaleopt compare).
#   make_demo_dry_run.sh SOURCE_DIR
cd "$1" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
plan=$(make -n demo BUILD_DIR=demo-dry-run-build) || { echo "FAIL: make -n demo failed"; exit 1; }
builds=$(printf '%s\n' "$plan" | grep 'cmake --build')
[ -n "$builds" ] || fail "make demo runs no cmake --build"
printf '%s\n' "$builds" | grep -v -- '--target scaleopt_exe$' | grep -q . &&
  fail "make demo builds more than the executable: $builds"
printf '%s\n' "$plan" | grep -q '/dev/null' && fail "make demo throws output away: $(printf '%s\n' "$plan" | grep /dev/null)"
make -n -p demo 2>/dev/null | grep '^MAKEFLAGS' | grep -q -- '--no-print-directory' ||
  fail "make does not pass --no-print-directory to the sub-makes"
# The headline both ways, side by side: assumed (a typed decode MFU) and derived (the roofline).
printf '%s\n' "$plan" |
  grep -q "scaleopt compare examples/frontier_100x.toml examples/frontier_derived.toml" ||
  fail "make demo does not show examples/frontier_100x.toml beside examples/frontier_derived.toml"

grep -n -- '-qq' scripts/install-deps && fail "scripts/install-deps runs apt-get with -qq"
[ $status -eq 0 ] && echo "make demo builds the executable alone, configuring and installing in sight"
exit $status
