#!/bin/sh
# `make test` on a fresh Debian 12 machine installs every program the shell tests run, so that
# none of them is skipped there: each program below (beyond the build's own) must come from a
# package `scripts/install-deps --browser --slurm` (what `make test` asks for) installs, or from
# an Essential package every Debian has.
#   test_tools_installed.sh SOURCE_DIR
src=$1
packages=$("$src/scripts/install-deps" --list --browser --slurm) || exit 1
status=0
# strace: hostile_files.sh; gnuplot: the plot tests; chromium: the report test and, with
# chromedriver, the serve page's browser test; the rest: the Slurm test; setpriv, mknod,
# timeout: hostile_files.sh (Essential).
for tool in strace gnuplot chromium chromedriver slurmctld slurmd sbatch squeue scontrol sinfo munged \
  mungekey setpriv mknod timeout; do
  found=$(command -v "$tool") || { echo "FAIL: $tool is not installed here"; status=1; continue; }
  path=$(readlink -f "$found")
  # Debian 12 merged /usr: dpkg may know the file under /bin or /sbin.
  package=$( (dpkg -S "$path" || dpkg -S "${path#/usr}") 2>/dev/null | head -n 1 | cut -d: -f1)
  [ -n "$package" ] || { echo "FAIL: $tool ($path) belongs to no Debian package"; status=1; continue; }
  if [ "$(dpkg-query -W -f='${Essential}' "$package")" = yes ]; then continue; fi
  printf '%s\n' "$packages" | grep -qx "$package" ||
    { echo "FAIL: $tool comes from $package, which scripts/install-deps does not install"; status=1; }
done
[ $status -eq 0 ] && echo "every program the shell tests run is installed by make test"
exit $status
