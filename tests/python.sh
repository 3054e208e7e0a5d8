#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest) against the module CMake built into
# build/python/planlint, with Debian's /usr/bin/python3 (the one python3-pytest, python3-pandas and
# pybind11-dev serve). Includes the package-vs-CLI comparison on every file of ../shared.
# Usage: tests/python.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
build=${PLANLINT_BUILD_DIR:-$(dirname "$planlint")}
py=/usr/bin/python3
if grep -q "^PLANLINT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  echo "SKIP: sanitizer build (an ASan module cannot be loaded by python3)"; exit 77
fi
missing=""
[ -x "$py" ] || missing="/usr/bin/python3"
[ -n "$missing" ] || "$py" -c "import pytest, pandas" 2>/dev/null || missing="python3-pytest / python3-pandas"
ls "$build"/python/planlint/_core*.so >/dev/null 2>&1 || missing="${missing:+$missing, }the _core module (pybind11-dev at configure time)"
if [ -n "$missing" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: missing $missing (tools/setup-deps.sh)"; exit 1; }
  echo "SKIP: missing $missing"; exit 77
fi
export PYTHONPATH="$build/python" PLANLINT_BINARY="$planlint" PYTHONDONTWRITEBYTECODE=1
# test_live_spark.py needs a running Spark: tests/live_python.sh runs it with the PySpark venv.
exec "$py" -m pytest -q -p no:cacheprovider --ignore=python/tests/test_live_spark.py python/tests
