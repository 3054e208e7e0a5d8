#!/usr/bin/env bash
# Create the project's Python environments (tools/python/env.sh says where) when they are missing
# or out of date: PySpark at two pinned versions (each carries Spark itself, run in local mode by
# the live tests) and the Python test dependencies. Called by tools/setup-deps.sh; never by a test.
# Idempotent: a stamp file records what each environment was last brought up to; a changed list is
# installed into the existing environment (pip only adds or changes what the list pins), so
# checkouts whose lists differ never remove each other's packages. PLANLINT_FRESH_VENV=1 starts
# from an empty environment instead.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/python/env.sh
py=${PLANLINT_PYTHON:-/usr/bin/python3}
make_env() {  # make_env DIR STAMP PACKAGES...
  local dir=$1 stamp=$2; shift 2
  if [ -f "$dir/.planlint-stamp" ] && [ "$(cat "$dir/.planlint-stamp")" = "$stamp" ]; then return 0; fi
  [ "${PLANLINT_FRESH_VENV:-0}" = 1 ] && rm -rf "$dir"
  if [ -x "$dir/bin/python" ]; then
    echo "planlint: updating the Python environment $dir ($*)" >&2
  else
    echo "planlint: creating the Python environment $dir ($*)" >&2
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    "$py" -m venv "$dir"
  fi
  timeout 1500 "$dir/bin/python" -m pip install -q --disable-pip-version-check "$@" >"$dir.log" 2>&1 ||
    { tail -20 "$dir.log" >&2; echo "planlint: pip could not set up $dir" >&2; exit 1; }
  printf '%s' "$stamp" >"$dir/.planlint-stamp"
}
if [ "${1:-}" = "--lake" ]; then
  # Capture only (tools/live-spark, Delta and Iceberg on Spark 4.x): never made by setup-deps.sh.
  lake_req=tools/python/requirements-lake.txt
  make_env "$PLANLINT_VENV_LAKE" "pyspark==$PLANLINT_PYSPARK_LAKE $(sha256sum "$lake_req" | cut -c1-16)" \
    "pyspark==$PLANLINT_PYSPARK_LAKE" -r "$lake_req"
  exit 0
fi
req=tools/python/requirements-test.txt
make_env "$PLANLINT_VENV" "pyspark==$PLANLINT_PYSPARK_NEW $(sha256sum "$req" | cut -c1-16)" \
  "pyspark==$PLANLINT_PYSPARK_NEW" -r "$req"
old_req=tools/python/requirements-old.txt
make_env "$PLANLINT_VENV_OLD" "pyspark==$PLANLINT_PYSPARK_OLD $(sha256sum "$old_req" | cut -c1-16)" \
  "pyspark==$PLANLINT_PYSPARK_OLD" -r "$old_req"
