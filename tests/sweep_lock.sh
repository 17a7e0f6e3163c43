#!/bin/sh
# Two sweeps on one --out: the second is refused at once, naming the output and the first's pid
# (OUT.partial is locked for its writer's life); kill -9 of the first drops its lock, and
# --resume finishes the file an uninterrupted sweep writes, byte for byte. Then pairs of sweeps
# started at the same instant: whichever wins, the file is whole (a merge of it checks every
# row and checksum) and equals the uninterrupted one.
#   sweep_lock.sh SCALEOPT SCENARIO
bin=$1
scenario=$2
dir=$(mktemp -d)
trap 'kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
# NLopt on every point, one thread: seconds in all, so the first sweep is alive meanwhile.
set -- sweep "$scenario" --vary inference.requests=1e8..1e12:log:400 \
  --vary inference.decode_mfu=0.1..0.3:50 --method nlopt --threads 1
"$bin" "$@" --out "$dir/whole.csv" >/dev/null || fail "the uninterrupted sweep failed"

"$bin" "$@" --out "$dir/s.csv" >/dev/null 2>&1 &
pid=$!
until [ -f "$dir/s.csv.partial.pid" ]; do
  kill -0 "$pid" 2>/dev/null || fail "the first sweep ended before it locked its partial file"
  sleep 0.01
done
for second in "--resume" "" ; do
  # shellcheck disable=SC2086 # an empty $second is no argument
  "$bin" sweep "$scenario" --vary inference.requests=1e8..1e12:log:7 --out "$dir/s.csv" $second \
    >"$dir/out2" 2>"$dir/err2"
  status=$?
  [ "$status" -eq 2 ] || fail "the second sweep ($second) exited $status: $(cat "$dir/err2")"
  grep -q "s.csv.partial is being written by another sweep (pid $pid" "$dir/err2" ||
    fail "the refusal does not name the output and pid $pid: $(cat "$dir/err2")"
  [ "$(wc -l <"$dir/err2")" -eq 1 ] || fail "not one line: $(cat "$dir/err2")"
done
kill -0 "$pid" 2>/dev/null || fail "the first sweep ended before the second was refused"
kill -9 "$pid"
wait "$pid" 2>/dev/null
[ -f "$dir/s.csv.partial" ] || fail "kill -9 left no partial file"
"$bin" "$@" --out "$dir/s.csv" --resume >/dev/null 2>"$dir/err3" ||
  fail "--resume after kill -9 failed: $(cat "$dir/err3")"
cmp "$dir/whole.csv" "$dir/s.csv" || fail "the resumed file differs from the uninterrupted one"
[ ! -e "$dir/s.csv.partial.pid" ] || fail "the pid file is left behind"

set -- sweep "$scenario" --vary inference.requests=1e8..1e12:log:300 --method nlopt --threads 1
"$bin" "$@" --out "$dir/small.csv" >/dev/null || fail "the small sweep failed"
for round in 1 2 3 4 5 6; do
  rm -f "$dir/t.csv" "$dir/t.csv.partial" "$dir/t.csv.partial.pid"
  "$bin" "$@" --out "$dir/t.csv" >/dev/null 2>"$dir/e1" &
  p1=$!
  "$bin" "$@" --out "$dir/t.csv" >/dev/null 2>"$dir/e2" &
  p2=$!
  wait "$p1"
  s1=$?
  wait "$p2"
  s2=$?
  for s in "$s1:$dir/e1" "$s2:$dir/e2"; do
    case "$s" in
      0:*) ;;
      2:*) grep -q "being written by another sweep\|appeared while\|rows are there" "${s#2:}" ||
        fail "round $round: refused for another reason: $(cat "${s#2:}")" ;;
      *) fail "round $round: exit ${s%%:*}: $(cat "${s#*:}")" ;;
    esac
  done
  [ "$s1" -eq 0 ] || [ "$s2" -eq 0 ] || fail "round $round: both sweeps were refused"
  cmp "$dir/small.csv" "$dir/t.csv" || fail "round $round: the file differs from one sweep's"
  "$bin" merge "$dir/t.csv" -o "$dir/m.csv" >/dev/null 2>"$dir/em" ||
    fail "round $round: the file does not merge: $(cat "$dir/em")"
done
echo "sweep_lock.sh: a second writer refused with pid $pid; kill -9 and --resume byte-identical;" \
  "6 rounds of two at once gave one whole file"
