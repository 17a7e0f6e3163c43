#!/bin/bash
# The Slurm recipe of docs/scaling-out.md, run for real: a private one-node Slurm cluster on
# localhost (scripts/slurm/local-cluster, Debian's slurm-wlm and munge, state in a temp dir),
# scripts/slurm/submit-sweep submits a 4-task job array and the merge (afterok), and the merged
# file must equal the one-process sweep byte for byte, provenance lines included (both say
# shard=all). Nothing is skipped: without root, the packages or a working slurmd, the test
# fails with the exact error. The daemons are always stopped (trap).
#   tests/slurm_cluster.sh SCALEOPT_BINARY SOURCE_DIR
set -euo pipefail

bin=$1
src=$2
fail() { echo "slurm_cluster: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "must run as root (slurmd and SlurmUser=root); got uid $(id -u)"
for c in slurmctld slurmd sbatch squeue scontrol sinfo munged mungekey; do
  command -v "$c" >/dev/null || fail "$c not found: install the test dependencies (scripts/install-deps --slurm)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scaleopt-slurm-test.XXXXXX")
chmod 755 "$tmp"  # the jobs and munged's socket directory must be reachable by all
export LOCAL_SLURM_DIR=$tmp/cluster
# A port of its own, so that two test runs on one machine do not meet.
export LOCAL_SLURM_PORT=$((20000 + ($$ % 10000) * 2))
cluster=$src/scripts/slurm/local-cluster
cleanup() {
  status=$?
  if [ $status -ne 0 ] && [ -d "$LOCAL_SLURM_DIR/log" ]; then
    echo "slurm_cluster: logs:" >&2
    for log in "$LOCAL_SLURM_DIR"/log/*.log "$tmp/work"/out/slurm-*.out; do
      [ -f "$log" ] && { echo "== $log"; tail -n 30 "$log"; } >&2
    done
  fi
  "$cluster" stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t0=$(date +%s.%N)
# The start's own status (eval of its output would hide it): a daemon that cannot start fails
# here, its error and log above, not later at an unrelated sbatch.
started=$("$cluster" start) || fail "the cluster did not start (above: the daemon's error and log)"
eval "$started"
t1=$(date +%s.%N)

mkdir -p "$tmp/work"
cd "$tmp/work"
# 3 x 100 = 300 points: 5 blocks of 64, so each of the 4 shards has rows (shard 1 two blocks).
sweep=("$src/examples/sardana_cost.toml" --set inference.requests=2e10
  --vary inference.decode_mfu=0.1..0.3:3 --vary inference.requests=1e8..1e12:log:100)
"$bin" sweep "${sweep[@]}" --threads 1 --out reference.csv >/dev/null

export SCALEOPT=$bin
read -r array merge < <("$src/scripts/slurm/submit-sweep" --shards 4 --cpus-per-task 1 \
  --outdir out --out merged.csv -- "${sweep[@]}")
[ -n "$merge" ] || fail "submit-sweep printed no job ids"
WAIT_TIMEOUT=120 "$cluster" wait "$array" "$merge" || fail "jobs $array (array) and $merge (merge) did not all complete"
t2=$(date +%s.%N)

[ -f merged.csv ] || fail "the merge job wrote no merged.csv"
for i in 1 2 3 4; do
  grep -q "^# scaleopt-provenance: shard=$i/4\$" "out/shard$i.csv" || fail "out/shard$i.csv: no shard=$i/4 line"
done
cmp reference.csv merged.csv || fail "the merged file differs from the one-process sweep"
grep -q '^# scaleopt-provenance: shard=all$' merged.csv || fail "merged.csv: no shard=all line"
echo "slurm_cluster: ok: $(($(grep -vc '^#' merged.csv) - 1)) points, 4-task array $array + merge $merge;" \
  "cluster start $(awk "BEGIN{print $t1 - $t0}") s, submit to merged $(awk "BEGIN{print $t2 - $t1}") s"
