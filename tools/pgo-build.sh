#!/usr/bin/env bash
# Profile-guided Release build of planlint and planlint_bench (GCC, CMake option PLANLINT_PGO):
#   1. an instrumented build (PLANLINT_PGO=GENERATE) in BUILD_DIR;
#   2. a training run over the project's own corpus/ (the real plans, profiles and event logs
#      bundled here, never the Spark plans in ../shared that the benchmark measures): parse and
#      parse + rules through planlint_bench, and `planlint check` in every output format;
#   3. the optimised build (PLANLINT_PGO=USE) in the same folder, from those profiles.
# The binaries end up in BUILD_DIR as in any build; `cpack` there packages them.
# Usage: tools/pgo-build.sh [BUILD_DIR]      (default: build-pgo)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-pgo}
tools/setup-deps.sh --build-only
targets=(--target planlint planlint_bench)

cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLANLINT_PGO=GENERATE >/dev/null
cmake --build "$dir" --target clean >/dev/null  # objects of an earlier phase must not be reused
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
find "$dir" -name '*.gcda' -delete  # profiles of an earlier training

echo "pgo-build: training on corpus/" >&2
"$dir/planlint_bench" run -n 20 corpus >/dev/null
"$dir/planlint_bench" run -n 20 --parse-only corpus >/dev/null
# `check` exits 1 on findings and 2 when an input cannot be read (corpus/real keeps a damaged
# paste on purpose): only a crash or a signal stops the training.
for format in text full json sarif github junit ndjson; do
  rc=0
  "$dir/planlint" check --format "$format" corpus/real >/dev/null 2>&1 || rc=$?
  [ "$rc" -le 2 ] || { echo "pgo-build: planlint check --format $format crashed (exit $rc)" >&2; exit 1; }
done
n=$(find "$dir" -name '*.gcda' | wc -l)
[ "$n" -gt 0 ] || { echo "pgo-build: the training wrote no profile" >&2; exit 1; }
echo "pgo-build: $n profiles; optimised build" >&2

cmake --build "$dir" --target clean >/dev/null  # keeps the .gcda files: ninja does not own them
cmake -S . -B "$dir" -DPLANLINT_PGO=USE >/dev/null
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
echo "pgo-build: $dir/planlint and $dir/planlint_bench are built with the profiles" >&2
