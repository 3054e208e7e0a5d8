#!/usr/bin/env bash
# The live test bed end to end on real Spark 4.3.0 (so that what real Spark prints, not only what
# we wrote, is checked): three scenarios of tools/live-spark
# captured into a temporary folder by tools/live-spark/capture.sh (PySpark local[2], event logs
# zstd/plain/lz4/rolling, the live driver's /api/v1 answers, a real History Server on 127.0.0.1), then held to the manifest by
# tools/live-spark/check_corpus.py like the committed corpus (tests/live_corpus.sh): a disagreement
# must be a known gap of corpus/live/known-gaps.txt. CTest label `live`.
# Usage: tests/live_spark_smoke.sh PLANLINT_BINARY
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/shell_lib.bash
bin=$(realpath "${1:?usage: live_spark_smoke.sh PLANLINT_BINARY}")
command -v java >/dev/null 2>&1 || skip "no java on PATH"
command -v curl >/dev/null 2>&1 || skip "no curl on PATH"
python3 -c 'import tomllib' 2>/dev/null || skip "python3 3.11 or later (tomllib) is needed"
. tools/python/env.sh
[ -x "$PLANLINT_VENV/bin/spark-submit" ] || skip "no PySpark venv at $PLANLINT_VENV (tools/setup-venv.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scenarios=(broadcast_disabled_tiny_dim python_udf nonsargable_cast)
t0=$SECONDS
PLANLINT_LIVE_OUT=$tmp PLANLINT_LIVE_PORT=$((18500 + $$ % 1000)) \
  tools/live-spark/capture.sh "$PLANLINT_VENV" "${scenarios[@]}" || { echo "FAIL: capture.sh"; exit 1; }
echo "capture: $((SECONDS - t0)) s"
v=$PLANLINT_PYSPARK_NEW
for n in "${scenarios[@]}"; do
  [ -f "$tmp/$v/$n/history/sql.json" ] || { echo "FAIL: $n: no History Server answer"; exit 1; }
  [ -f "$tmp/$v/$n/driver/sql.json" ] || { echo "FAIL: $n: no answer of the live driver"; exit 1; }
done
ls "$tmp/$v/broadcast_disabled_tiny_dim/eventlog" | grep -q '^eventlog_v2_' || { echo "FAIL: no rolling event log"; exit 1; }
python3 tools/live-spark/check_corpus.py "$bin" --corpus "$tmp" --manifest tools/live-spark/scenarios.toml \
  --gaps corpus/live/known-gaps.txt --only "$(IFS=,; echo "${scenarios[*]}")"
