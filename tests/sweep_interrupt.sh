#!/bin/sh
# A sweep stopped by a real SIGINT keeps its finished rows in OUT.partial and exits 130, and
# --resume then writes the file of an uninterrupted sweep, byte for byte.
#   sweep_interrupt.sh SCALEOPT SCENARIO
bin=$1
scenario=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# NLopt on every point (~30 us each, rows written every 256 points): ~0.3 s in all, so the
# signal lands while most points are still to do.
set -- sweep "$scenario" --vary inference.requests=1e8..1e12:log:200 \
  --vary inference.decode_mfu=0.1..0.3:50 --method nlopt --threads 1
"$bin" "$@" --out "$dir/whole.csv" >/dev/null || exit 1

"$bin" "$@" --out "$dir/cut.csv" >"$dir/stdout" &
pid=$!
# Wait for the first rows on disk, then interrupt.
partial="$dir/cut.csv.partial"
# (Lines that are not "# scaleopt-provenance:" comments: the header, then rows.)
until [ -f "$partial" ] && [ "$(grep -vc '^#' "$partial")" -ge 2 ]; do
  kill -0 "$pid" 2>/dev/null || { echo "the sweep ended before any row was written"; exit 1; }
  sleep 0.005
done
kill -INT "$pid"
wait "$pid"
status=$?
[ "$status" -eq 130 ] || { echo "interrupted sweep exited $status, expected 130"; exit 1; }
[ ! -e "$dir/cut.csv" ] || { echo "an interrupted sweep wrote its final file"; exit 1; }
grep -q "interrupted" "$dir/stdout" || { echo "no 'interrupted' in the summary"; exit 1; }
rows=$(($(grep -vc '^#' "$dir/cut.csv.partial") - 1))
[ "$rows" -ge 1 ] && [ "$rows" -lt 10000 ] || { echo "partial file has $rows rows"; exit 1; }

"$bin" "$@" --out "$dir/cut.csv" --resume >/dev/null || { echo "resume failed"; exit 1; }
cmp "$dir/whole.csv" "$dir/cut.csv" || { echo "resumed file differs"; exit 1; }
echo "interrupted after $rows rows; resumed file equals the uninterrupted one"
