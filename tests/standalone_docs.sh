#!/bin/sh
# Docs that stand alone (docs/model.md cites its sources): no file of the repository refers
# to a file outside it, the design notes or style guide the project started from, a sibling
# folder or a path of the machine it was written on. Usage: standalone_docs.sh SOURCE_DIR
# With git (CI's clean clone, a worktree) the tracked files are searched; without it (a source
# tarball) every file under SOURCE_DIR but build folders. The patterns are written so that
# they do not match this file itself.
set -u
src=$1
pattern='DESIGN[.]md|STYLE[.]md|[.][.]/shared|/work[/]'
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # -a: the fuzz corpus holds binary files that are scenario text with a NUL or two.
  hits=$(git -C "$src" grep -n -a -E "$pattern" -- . 2>/dev/null)
else
  hits=$(grep -r -l -a -E "$pattern" "$src" --exclude-dir='build*' --exclude-dir=.git 2>/dev/null)
fi
if [ -n "$hits" ]; then
  echo "files that refer to something outside the repository:" >&2
  printf '%s\n' "$hits" | sort -u >&2
  exit 1
fi
exit 0
