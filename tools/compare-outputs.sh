#!/usr/bin/env bash
# Compare `planlint parse --format json` and `planlint check --format json --no-config` of two
# builds, byte for byte, on every file under corpus/ and ../shared/corpus (when present).
# Usage: tools/compare-outputs.sh OLD_PLANLINT NEW_PLANLINT [DIR...]
# COMPARE_TMP: where the temporary outputs go (default $TMPDIR or /tmp).
# Exit 0 when every output (stdout and exit code) is identical, 1 otherwise.
set -uo pipefail
old=$1 new=$2
shift 2
cd "$(dirname "$0")/.."
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(corpus ../shared/corpus)
tmp=$(mktemp -d "${COMPARE_TMP:-${TMPDIR:-/tmp}}/compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
files=0 same=0 diff=0
while IFS= read -r -d '' f; do
  files=$((files + 1))
  ok=1
  for cmd in "parse --format json" "check --format json --no-config"; do
    # shellcheck disable=SC2086
    "$old" $cmd "$f" >"$tmp/a" 2>"$tmp/ae"; echo "rc=$?" >>"$tmp/a"
    # shellcheck disable=SC2086
    "$new" $cmd "$f" >"$tmp/b" 2>"$tmp/be"; echo "rc=$?" >>"$tmp/b"
    if ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/ae" "$tmp/be"; then
      ok=0
      echo "DIFF: $cmd $f"
      diff "$tmp/a" "$tmp/b" | head -5
      diff "$tmp/ae" "$tmp/be" | head -5
    fi
  done
  if [ $ok = 1 ]; then same=$((same + 1)); else diff=$((diff + 1)); fi
done < <(find "${dirs[@]}" -type f -print0 2>/dev/null | sort -z)
echo "files: $files, identical: $same, different: $diff"
[ "$diff" = 0 ]
