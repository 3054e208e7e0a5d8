#!/usr/bin/env bash
# Build planlint and run every test (doctest unit tests and corpus goldens, through CTest).
# Usage: tools/test.sh [--sanitize]   (--sanitize: ASan+UBSan build in build-asan/)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
flags=()
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  flags=(-DPLANLINT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
fi
tools/setup-deps.sh   # build and test dependencies, once, before any test runs
cmake -S . -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
