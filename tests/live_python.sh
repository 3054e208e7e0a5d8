#!/usr/bin/env bash
# The Python package on a real, running Spark (issue 38 item 5): python/tests/test_live_spark.py
# with the project's PySpark venv (tools/setup-venv.sh: PySpark $PLANLINT_PYSPARK_NEW, pytest,
# pandas, pyarrow, nbclient, ipykernel) importing the module CMake built into build/python (as
# tests/python.sh does with Debian's python3): check_dataframe before and after execution, the
# %planlint magic and _repr_html_ in a Jupyter kernel run by nbclient, mapInPandas and rdd.pipe over
# 10,000 corpus plans, each against the CLI. It prints the throughput figures. CTest label `live`.
# Usage: tests/live_python.sh PLANLINT_BINARY   (run from the source folder)
#   PLANLINT_LIVE_PYSPARK=old runs the same tests on PySpark $PLANLINT_PYSPARK_OLD: the older venv's
#   packages (pyspark, pandas 2, pyarrow, numpy 1) come first on PYTHONPATH, pytest, nbclient and
#   ipykernel from $PLANLINT_VENV (a documented run, not a CTest: CI runs one Spark version).
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/shell_lib.bash
bin=$(realpath "${1:?usage: live_python.sh PLANLINT_BINARY}")
build=${PLANLINT_BUILD_DIR:-$(dirname "$bin")}
if grep -q "^PLANLINT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  echo "SKIP: sanitizer build (an ASan module cannot be loaded by python3)"; exit 77
fi
. tools/python/env.sh
py=$PLANLINT_VENV/bin/python
command -v java >/dev/null 2>&1 || skip "no java on PATH"
[ -x "$py" ] || skip "no PySpark venv at $PLANLINT_VENV (tools/setup-venv.sh)"
"$py" -c "import pyspark, pytest, pandas, pyarrow, nbclient, nbformat, ipykernel" 2>/dev/null \
  || skip "the venv $PLANLINT_VENV lacks pyspark/pytest/pandas/pyarrow/nbclient/ipykernel (tools/setup-venv.sh)"
ls "$build"/python/planlint/_core*.so >/dev/null 2>&1 || skip "no _core module in $build/python (pybind11-dev at configure time)"
# The module is built for /usr/bin/python3; the venv was made from it (same ABI).
ver='import sys; print("%d.%d" % sys.version_info[:2])'
[ "$("$py" -c "$ver")" = "$(/usr/bin/python3 -c "$ver")" ] \
  || { echo "FAIL: $py is not the Python version the module was built for (/usr/bin/python3)"; exit 1; }
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Spark's Python workers (mapInPandas) and the notebook's kernel inherit this environment; the
# working folder is a temporary one, so no config file is found for text records (as --no-config).
pythonpath="$build/python"
if [ "${PLANLINT_LIVE_PYSPARK:-new}" = old ]; then
  [ -x "$PLANLINT_VENV_OLD/bin/python" ] || skip "no PySpark venv at $PLANLINT_VENV_OLD (tools/setup-venv.sh)"
  pythonpath="$pythonpath:$("$PLANLINT_VENV_OLD/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
fi
export PYTHONPATH="$pythonpath" PLANLINT_BINARY="$bin" PYTHONDONTWRITEBYTECODE=1 \
  PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py" SPARK_LOCAL_IP=127.0.0.1 HOME="$tmp/home"
mkdir -p "$HOME"
cd "$tmp"
t0=$SECONDS
"$py" -m pytest -q -s -rs -p no:cacheprovider --rootdir="$src/python/tests" -W ignore::FutureWarning \
  "$src/python/tests/test_live_spark.py" 2>&1 | tee "$tmp/pytest.log"
rc=${PIPESTATUS[0]}
echo "live python tests: $((SECONDS - t0)) s"
# Every dependency was checked above: a test that skips itself here is a failure under CI=true.
if [ "$rc" = 0 ] && [ "${CI:-}" = true ] && grep -qE '^[0-9]+ passed.*skipped|^SKIPPED' "$tmp/pytest.log"; then
  echo "FAIL (CI=true): a live Python test skipped"; exit 1
fi
exit $rc
