#!/usr/bin/env bash
# Build planlint and run every test (doctest unit tests and corpus goldens, through CTest).
# Usage: tools/test.sh [--sanitize | --tsan]
#   --sanitize  ASan+UBSan build in build-asan/ (clang, assertions on, -O1: tools/asan-build.sh, the
#               build tools/fuzz.sh fuzzes too), every test
#   --tsan      ThreadSanitizer build in build-tsan/ (-O1); runs the tests that exercise threads (the
#               folder walk's thread pool in `planlint check`, the one place that starts threads, and
#               what calls it: the CLI, event logs, the LSP): TSAN_TESTS (a ctest -R regex) chooses
#               them, TSAN_SKIP (-E) leaves out the slow ones that run on one thread only (LSP text
#               edits, diff, the event-log reader's caps, the editor and browser tests: 242 s of the
#               suite's CPU); TSAN_TESTS=. TSAN_SKIP='^$' runs every test.
# Tests labelled `live` (they start a real Spark, a JVM, from the venvs of tools/setup-venv.sh)
# run in the plain build only: the sanitizers would only watch planlint wait for the JVM. Tests
# labelled `python` load the extension module, which python3 cannot load instrumented: plain only.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
flags=()
packages=()   # Debian packages beyond tools/setup-deps.sh's lists
ctest_args=()
targets=()
case "${1:-}" in
  --sanitize)
    . tools/asan-build.sh
    build=$asan_build
    flags=("${asan_flags[@]}")
    packages=("${asan_packages[@]}")
    ctest_args=(-LE "live|python") ;;
  --tsan)
    build=build-tsan
    flags=(-DPLANLINT_TSAN=ON -DPLANLINT_UNITY=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
    ctest_args=(-LE "live|python" -R "${TSAN_TESTS:-check|cli|CLI|eventlog|event log|lsp|walk|baseline|hostile|report|show}"
                -E "${TSAN_SKIP:-incremental edits|single-character edits|re-capture reports nothing|never end are capped|sh\.lsp_vscode|sh\.report_chromium}")
    # What those tests run: the CLI, the doctest binary and planlint_bench (sh.bench_cli).
    targets=(--target planlint planlint_tests planlint_bench)
    # Any data race fails the test (TSan's exit code 66), with both stacks in the log.
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} ;;
  "") ;;
  *) echo "usage: tools/test.sh [--sanitize | --tsan]" >&2; exit 2 ;;
esac
tools/setup-deps.sh --apt-only "${packages[@]}"   # the Debian packages for the build and the tests
# The npm tools and the PySpark venvs (mostly downloads) are set up while the build compiles, and
# waited for before any test runs.
tools/setup-deps.sh --tools-only & tools_pid=$!
trap 'kill "$tools_pid" 2>/dev/null || true' EXIT
cmake -S . -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
wait "$tools_pid" || { echo "planlint: the test tools could not be set up" >&2; exit 1; }
trap - EXIT
# planlint-spark, the JVM listener (listener/, Maven; Spark's jars come from Maven Central into
# ~/.m2 on the first build): tests/listener_spark.sh (label live, plain build only) runs its jar.
if [ ${#ctest_args[@]} -eq 0 ]; then (cd listener && mvn -q -B package); fi
cd "$build"
ctest --output-on-failure -j "$(nproc)" "${ctest_args[@]}"
