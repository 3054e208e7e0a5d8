#!/usr/bin/env bash
# Build planlint (installing what is missing) and lint the bundled example plan.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup-deps.sh --build-only
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j "$(nproc)" --target planlint
# planlint exits 1 when it reports findings, which is what this example is for.
status=0
build/planlint check corpus/examples/orders-by-region.explain.txt "$@" || status=$?
[ "$status" -le 1 ] || exit "$status"
