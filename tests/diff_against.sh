#!/usr/bin/env bash
# `planlint check --against REF` in a throw-away git repository: a changed plan gets the findings of
# `planlint diff` against its committed version, an unchanged or new plan only its own findings, a
# bad revision is exit 2; the generated query-history export is reproducible from its seed.
# Skips (exit 77) without git, unless CI=true.
# Usage: tests/diff_against.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
src=$(pwd)
if ! command -v git >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && { echo "FAIL: git is not installed"; exit 1; }
  echo "SKIP: git is not installed"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # name, expected exit code, actual exit code
  if [ "$2" != "$3" ]; then echo "FAIL: $1: exit $3, expected $2"; fail=1; else echo "ok: $1"; fi
}
cd "$tmp" && git init -q && mkdir plans
cp "$src/corpus/examples/orders-by-region.explain.txt" plans/q1.explain.txt
cp "$src/corpus/check/orders-join.explain.txt" plans/q2.explain.txt
git add . && git -c user.email=t@example.com -c user.name=t commit -qm base
# q1: the sort-merge join becomes a cartesian product; q2 is re-captured (new ids); q3 is new.
sed -i 's/SortMergeJoin Inner (15)/CartesianProduct Inner (15)/' plans/q1.explain.txt
cp "$src/corpus/check/orders-join.recaptured.explain.txt" plans/q2.explain.txt
cp "$src/corpus/examples/orders-by-region.explain.txt" plans/q3.explain.txt
out=$("$planlint" check --no-config --format concise --against HEAD plans/); rc=$?
expect "a regression fails the check" 1 $rc
echo "$out" | grep -q '^plans/q1.explain.txt:10:22: warning\[PLD001 join-strategy-regressed\]' || { echo "FAIL: no regression on q1: $out"; fail=1; }
[ "$(echo "$out" | grep -c 'join-strategy-regressed\|new-exchange-or-sort\|filter-pushdown-lost')" = 1 ] || { echo "FAIL: extra regressions: $out"; fail=1; }
# The same without --against: no regression finding at all.
"$planlint" check --no-config --format concise plans/ | grep -q 'join-strategy-regressed' && { echo "FAIL: regression without --against"; fail=1; }
# From inside the folder, and suppressed by a directive in the new file.
(cd plans && "$planlint" check --no-config --format concise --select join-strategy-regressed --against HEAD q1.explain.txt >/dev/null); expect "from the plans folder" 1 $?
{ echo '# planlint: disable=join-strategy-regressed'; cat plans/q1.explain.txt; } > plans/q1.tmp && mv plans/q1.tmp plans/q1.explain.txt
out=$("$planlint" check --no-config --format concise --select join-strategy-regressed --against HEAD plans/); rc=$?
expect "suppressed by a directive" 0 $rc
"$planlint" check --no-config --against no-such-ref plans/ >/dev/null 2>&1; expect "unknown revision" 2 $?
# The generator is deterministic: it rewrites corpus/history byte for byte.
if command -v python3 >/dev/null 2>&1; then
  python3 "$src/tools/gen/gen_query_history.py" --seed 19 --out-dir "$tmp/history"
  for f in history-regressed.csv history-regressed.jsonl history-clean.csv history-clean.jsonl; do
    cmp -s "$tmp/history/$f" "$src/corpus/history/$f" || { echo "FAIL: $f differs from the generator's output"; fail=1; }
  done
  echo "ok: generator reproduces corpus/history"
elif [ "${CI:-}" = true ]; then
  echo "FAIL: python3 is not installed"; fail=1
fi
exit $fail
