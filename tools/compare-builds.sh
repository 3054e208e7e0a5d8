#!/usr/bin/env bash
# Compare what two planlint builds say about the same inputs: `check --format json` and
# `parse --format json` (stdout and exit code) for every plan file under the given folders.
# A refactor that must not change findings shows an empty list; every listed file needs a reason.
# Usage: tools/compare-builds.sh OLD_PLANLINT NEW_PLANLINT OUT_DIR FOLDER...
#   (.expected, .md, .sql, .toml files are skipped; an eventlog_v2_* folder is one input)
set -u
if [ $# -lt 4 ]; then echo "usage: $0 OLD_PLANLINT NEW_PLANLINT OUT_DIR FOLDER..." >&2; exit 2; fi
old=$1 new=$2 out=$3; shift 3
mkdir -p "$out"
: >"$out/differ.txt"
inputs=()
for dir in "$@"; do
  while IFS= read -r -d '' f; do inputs+=("$f"); done < <(
    find "$dir" \( -type d -name 'eventlog_v2_*' -print0 -prune \) -o \
      \( -type f ! -name '*.expected' ! -name '*.md' ! -name '*.sql' ! -name '*.toml' -print0 \) | sort -z)
done
n=0 differ=0
for f in "${inputs[@]}"; do
  n=$((n + 1))
  for cmd in check parse; do
    a=$("$old" "$cmd" --format json "$f" 2>/dev/null); ra=$?
    b=$("$new" "$cmd" --format json "$f" 2>/dev/null); rb=$?
    if [ "$a" != "$b" ] || [ $ra != $rb ]; then
      key=$(printf '%s' "$f" | tr '/' '_')
      printf '%s\n' "$a" >"$out/$key.$cmd.old"
      printf '%s\n' "$b" >"$out/$key.$cmd.new"
      echo "$cmd $f (exit $ra -> $rb)" >>"$out/differ.txt"
      differ=$((differ + 1))
    fi
  done
done
echo "$n inputs compared, $differ outputs differ (list: $out/differ.txt)"
