#!/bin/sh
# Outputs on a disk that fills while they are written: every command exits 2 with one line
# saying why and leaves nothing under its final name (docs/reliability.md, "Output verified
# whole"). gnuplot exits 0 having written the first pages of a figure on a full disk: `plot`
# used to say "Wrote FILE" over 4,096 of 109,784 bytes, and `report`, with little room in TMPDIR,
# wrote a page with three <svg> and two </svg>.
#   full_disk.sh SCALEOPT SOURCE_DIR
# The small disk is a 64 KiB tmpfs, nearly filled, mounted in a private mount namespace
# (unshare -m) so that it goes away with the test however the test ends. Exit 77 (skipped),
# saying why, only where no mount namespace and no tmpfs can be had (neither root nor user
# namespaces).
bin=$1
src=$2
if [ "${FULL_DISK_INSIDE:-}" != 1 ]; then
  for flags in "-m" "-r -m"; do
    # shellcheck disable=SC2086 # the flags are words
    if unshare $flags --propagation private true 2>/dev/null; then
      FULL_DISK_INSIDE=1 exec unshare $flags --propagation private sh "$0" "$@"
    fi
  done
  echo "full_disk.sh: skipped: cannot make a private mount namespace (unshare -m needs root," \
    "unshare -r -m user namespaces)"
  exit 77
fi

dir=$(mktemp -d)
small="$dir/small"
# TMPDIR of the report: room for its data files and scripts and for the first figures, not for
# the iso-loss map's SVG (main wrote a page with three <svg> and two </svg> there).
tmp="$dir/tmp"
trap 'umount "$small" "$tmp" 2>/dev/null; rm -rf "$dir"' EXIT
mkdir "$small" "$tmp"
if ! mount -t tmpfs -o size=64k tmpfs "$small" 2>"$dir/mount.err" ||
  ! mount -t tmpfs -o size=384k tmpfs "$tmp" 2>"$dir/mount.err"; then
  echo "full_disk.sh: skipped: cannot mount a tmpfs: $(cat "$dir/mount.err")"
  exit 77
fi
# All but FREE_KIB of the 64 KiB taken: room for gnuplot's data files and scripts, not for a
# whole figure (an SVG of ~100 KB, a PNG of ~20 KB and more).
# Each case starts from the filler alone: what a failed case left must not fill the next one's.
fill() {
  find "$small" -mindepth 1 -delete
  head -c $(((64 - $1) * 1024)) /dev/zero >"$small/filler"
}
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# NAME COMMAND...: exit 2, nothing on stdout, one line on stderr holding each word of $WANT.
refused() {
  name=$1
  shift
  "$@" >"$dir/out" 2>"$dir/err"
  status=$?
  [ "$status" -eq 2 ] || fail "$name: exit $status, expected 2: $(cat "$dir/err")"
  [ ! -s "$dir/out" ] || fail "$name: wrote on stdout: $(cat "$dir/out")"
  [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "$name: not one line on stderr: $(cat "$dir/err")"
  for word in $WANT; do
    grep -q -- "$word" "$dir/err" || fail "$name: no '$word' in: $(cat "$dir/err")"
  done
}
# Only the filler is left on the small disk.
only_filler() {
  left=$(ls -A "$small")
  [ "$left" = filler ] || fail "$1: left on the full disk: $left"
}

scenario="$src/examples/frontier_100x.toml"
for format in svg png; do
  fill 8
  WANT="--out: not whole disk"
  refused "plot isoloss .$format" "$bin" plot isoloss "$scenario" --out "$small/iso.$format"
  [ ! -e "$small/iso.$format" ] || fail "plot .$format: a figure cut short was given its name"
  only_filler "plot .$format"
done

# The report's figures are drawn in TMPDIR; the report itself goes to a roomy disk.
WANT="isoloss not whole TMPDIR"
refused "report" env TMPDIR="$tmp" "$bin" report "$scenario" --out "$dir/report.html"
[ ! -e "$dir/report.html" ] || fail "report: a page with a figure cut short was written"
left=$(ls -A "$tmp")
[ -z "$left" ] || fail "report: left in TMPDIR: $left"

# A sweep larger than the free space is refused before its first row, with both figures.
fill 8
sweep="$bin sweep $src/examples/sardana_cost.toml --vary inference.requests=1e8..1e12:log:2000"
WANT="needs about free --ignore-disk-space"
# shellcheck disable=SC2086 # $sweep is words
refused "sweep" $sweep --out "$small/s.csv"
only_filler "sweep"
# With the override it starts, and the full disk stops it with the reason; OUT is not written.
WANT="No space left"
# shellcheck disable=SC2086
refused "sweep --ignore-disk-space" $sweep --out "$small/s.csv" --ignore-disk-space
[ ! -e "$small/s.csv" ] || fail "sweep --ignore-disk-space: OUT written on a full disk"
fill 8

# A merge that does not fit: refused when the disk fills, no merged file.
# shellcheck disable=SC2086
$sweep --shard 1/2 --out "$dir/a.csv" >/dev/null && $sweep --shard 2/2 --out "$dir/b.csv" >/dev/null ||
  fail "the shards to merge could not be written"
WANT="No space left"
refused "merge" "$bin" merge "$dir/a.csv" "$dir/b.csv" -o "$small/m.csv"
only_filler "merge"

[ "$failures" -eq 0 ] || exit 1
echo "full_disk.sh: plot (SVG, PNG), report, sweep and merge refused a full disk, nothing left"
