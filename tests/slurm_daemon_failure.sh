#!/bin/bash
# tests/slurm_cluster.sh when slurmd cannot start: it must fail at that cause, with slurmd's
# error and its log on stderr, and not go on to an unrelated sbatch error. Slurm and munge are
# replaced by stubs on PATH (no daemon runs): munge and slurmctld succeed, slurmd writes a
# fatal line to its log and exits 1, as a slurmd that cannot bind its port does.
#   tests/slurm_daemon_failure.sh SCALEOPT_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
stubs=$(mktemp -d "${TMPDIR:-/tmp}/scaleopt-slurm-stubs.XXXXXX")
trap 'rm -rf "$stubs"' EXIT
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$stubs/$1"; chmod +x "$stubs/$1"; }
stub mungekey 'while [ $# -gt 0 ]; do [ "$1" = -k ] && : >"$2"; shift; done'
stub munged 'exit 0'
stub munge 'echo credential'
stub unmunge 'cat >/dev/null'
stub slurmctld 'exit 0'
stub sinfo 'exit 0'
stub squeue 'exit 0'
stub scontrol 'exit 0'
stub sbatch 'echo "sbatch: error: Batch job submission failed: Unable to contact slurm controller" >&2; exit 1'
# slurmd -C (local-cluster reads the memory) answers; slurmd -f CONF fails, logging why.
stub slurmd 'if [ "$1" = -C ]; then echo "NodeName=localhost CPUs=2 RealMemory=1000"; exit 0; fi
log=$(sed -n "s/^SlurmdLogFile=//p" "$2")
echo "[stub] fatal: Unable to bind listen port (20001): Address already in use" >>"$log"
echo "slurmd: error: Unable to bind listen port" >&2
exit 1'

set +e
err=$(PATH="$stubs:$PATH" bash "$src/tests/slurm_cluster.sh" "$bin" "$src" 2>&1 >/dev/null)
status=$?
set -e
fail() { echo "slurm_daemon_failure: FAIL: $*"; echo "--- slurm_cluster.sh printed:"; echo "$err"; exit 1; }
[ $status -ne 0 ] || fail "slurm_cluster.sh succeeded although slurmd did not start"
grep -q 'slurmd exited with status 1' <<<"$err" || fail "the failure does not name slurmd's exit"
grep -q 'fatal: Unable to bind listen port (20001)' <<<"$err" || fail "slurmd's log was not printed"
grep -q 'the cluster did not start' <<<"$err" || fail "it did not stop at the start"
! grep -q 'sbatch' <<<"$err" || fail "it went on to sbatch"
echo "slurm_daemon_failure: ok: failed at slurmd, with its log"
