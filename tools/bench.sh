#!/usr/bin/env bash
# Build planlint and planlint_bench in Release (build-release/) and run the benchmark.
# Usage: tools/bench.sh [planlint_bench arguments]
#   tools/bench.sh                     everything: throughput, start-up, memory, scaling to 256 MB, LSP
#   tools/bench.sh --gb scaling        scaling up to 1 GB
#   tools/bench.sh --quick             a fast smoke run
#   tools/bench.sh gen formatted -n 100000 -o big.txt
#   tools/bench.sh --pgo throughput    the profile-guided build (tools/pgo-build.sh, build-pgo/)
# The Spark golden plans are read from ../shared (or $PLANLINT_SHARED_DIR) when present.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--pgo" ]; then
  shift
  tools/pgo-build.sh build-pgo >/dev/null
  exec build-pgo/planlint_bench "$@"
fi
tools/setup-deps.sh --build-only
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release -j "$(nproc)" --target planlint planlint_bench >/dev/null
exec build-release/planlint_bench "$@"
