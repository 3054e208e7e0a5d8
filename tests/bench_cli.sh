#!/usr/bin/env bash
# planlint_bench's sub-benchmarks that take their own options (process, eventlog) answer `--help`
# with those options, not with an empty list; `--quick` of `process` is not run here (it spawns
# thousands of processes: a benchmark, not a test). The process floor counts the same with one
# worker and with two.
set -u
build=${PLANLINT_BUILD_DIR:-$(dirname "$1")}
bench=$build/planlint_bench
[ -x "$bench" ] || { echo "SKIP: $bench not built"; exit 77; }
fail=0
expect() {  # expect "<args>" "<text the help must hold>"
  local out
  out=$("$bench" $1 --help 2>&1); rc=$?
  if [ "$rc" -ne 0 ]; then echo "FAIL: planlint_bench $1 --help exited $rc"; fail=1; fi
  if ! grep -qF -- "$2" <<<"$out"; then echo "FAIL: planlint_bench $1 --help lacks '$2':"; echo "$out"; fail=1; fi
}
expect process "--only"
expect process "--eventlog-mb"
expect eventlog "--codec"
expect scaling "--max-mb"
expect floor "Usage"
# an unknown option of a sub-benchmark is refused, not ignored
if "$bench" process --no-such-option >/dev/null 2>&1; then echo "FAIL: process accepted --no-such-option"; fail=1; fi
# The process floor with two workers reads and tokenizes what it does with one: every file once
# (`process` compares planlint at its default workers with it).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 1 2 3 4 5 6 7; do "$bench" gen formatted -n $((n * 40)) --seed $n -o "$work/p$n.txt" 2>/dev/null || fail=1; done
one=$("$bench" floor --child "$work" 2>&1)
two=$("$bench" floor --child-jobs 2 --child "$work"/p*.txt 2>&1)
if ! grep -q '^7 files, ' <<<"$one"; then echo "FAIL: floor --child read not 7 files: $one"; fail=1; fi
if [ "$one" != "$two" ]; then echo "FAIL: floor with two workers: '$two', with one: '$one'"; fail=1; fi
[ "$fail" -eq 0 ] && echo "ok: planlint_bench sub-benchmark help"
exit "$fail"
