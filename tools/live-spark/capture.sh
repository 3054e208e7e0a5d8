#!/usr/bin/env bash
# Regenerate corpus/live/<spark-version>/ from real Spark: every scenario of tools/live-spark/scenarios
# (or the ones named) run in local[2] by the PySpark of VENV, one Python process (one JVM) per
# scenario, one after the other; then a real History Server over the captured event logs, whose
# REST answers are saved beside them. See tools/live-spark/README.md.
# Usage: tools/live-spark/capture.sh VENV [SCENARIO ...]
#   e.g. . tools/python/env.sh; tools/live-spark/capture.sh "$PLANLINT_VENV"; ... "$PLANLINT_VENV_OLD"
# Env: PLANLINT_LIVE_OUT (default corpus/live), PLANLINT_LIVE_PORT (default 18480).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${1:?usage: capture.sh VENV [SCENARIO ...]}
shift
py=$venv/bin/python
[ -x "$py" ] || { echo "capture.sh: no python in $venv" >&2; exit 2; }
version=$("$py" -c 'import pyspark; print(pyspark.__version__)')
spark_home=$("$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
out=${PLANLINT_LIVE_OUT:-corpus/live}/$version
port=${PLANLINT_LIVE_PORT:-18480}
scen_dir=tools/live-spark/scenarios
if [ $# -gt 0 ]; then names=("$@"); else names=($(cd "$scen_dir" && ls *.py | sed 's/\.py$//')); fi

# Event-log variants beyond the default zstd one (spark.eventLog.compress + codec; rolling folders).
variants() {
  case $1 in
    broadcast_disabled_tiny_dim) echo zstd plain lz4 rolling ;;
    skew_aqe_off|python_udf) echo zstd plain ;;
    exploding_join) echo zstd lz4 ;;
    *) echo zstd ;;
  esac
}

mkdir -p "$out"
log=$out/capture.log
[ $# -gt 0 ] && echo "--- again: $* ($(date -u +%F))" >> "$log" || : > "$log"
t0=$SECONDS
for n in "${names[@]}"; do
  rm -rf "${out:?}/$n"
  t1=$SECONDS
  # shellcheck disable=SC2046
  rc=0
  nice -n 19 timeout 600 "$py" tools/live-spark/harness.py "$scen_dir/$n.py" "$out/$n" $(variants "$n") \
    > "$out/$n.stdout" 2>&1 || rc=$?
  if [ $rc = 3 ]; then  # the scenario is not for this Spark version (SPARK_VERSIONS)
    rm -rf "${out:?}/$n" "$out/$n.stdout"
    echo "$n not for Spark $version" | tee -a "$log"
    continue
  fi
  if [ $rc != 0 ]; then
    echo "capture.sh: $n failed; the last lines of its output:" >&2
    grep -v ' WARN ' "$out/$n.stdout" | tail -25 >&2
    rm -f "$out/$n.stdout"
    echo "$n FAILED $((SECONDS - t1)) s" >> "$log"
    continue
  fi
  rm -f "$out/$n.stdout"
  echo "$n $((SECONDS - t1)) s" | tee -a "$log"
done
echo "scenarios: $((SECONDS - t0)) s" | tee -a "$log"

# A real History Server over every captured event log (all variants) of every scenario in $out (not
# only the ones just run: history-applications.json lists them all), on 127.0.0.1.
t2=$SECONDS
names=($(cd "$out" && for d in */; do if [ -f "$d/run.json" ]; then echo "${d%/}"; fi; done))
logs=$(mktemp -d)
hs_pid=
cleanup() { [ -z "$hs_pid" ] || kill "$hs_pid" 2>/dev/null; rm -rf "$logs"; }
trap cleanup EXIT
for n in "${names[@]}"; do
  [ -d "$out/$n/eventlog" ] && cp -r "$out/$n/eventlog/." "$logs/"
done
napps=$(ls "$logs" | grep -vc '^\.' || true)
cat > "$logs/../hs-$$.conf" <<EOF
spark.history.fs.logDirectory file://$logs
spark.history.ui.port $port
spark.history.fs.update.interval 1s
spark.ui.retainedJobs 100000
EOF
SPARK_HOME=$spark_home SPARK_LOCAL_IP=127.0.0.1 SPARK_NO_DAEMONIZE=1 \
  SPARK_HISTORY_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
  nice -n 19 "$spark_home/bin/spark-class" org.apache.spark.deploy.history.HistoryServer \
  --properties-file "$logs/../hs-$$.conf" > "$out/history-server.log" 2>&1 &
hs_pid=$!
base=http://127.0.0.1:$port/api/v1
for _ in $(seq 240); do
  got=$(curl -sf "$base/applications" 2>/dev/null | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)))' 2>/dev/null || echo 0)
  [ "$got" -ge "$napps" ] && break
  sleep 1
done
rm -f "$logs/../hs-$$.conf"
[ "$got" -ge "$napps" ] || { echo "capture.sh: the History Server lists $got of $napps applications" >&2; tail -20 "$out/history-server.log" >&2; exit 1; }
curl -sf "$base/applications" > "$out/history-applications.json"
for n in "${names[@]}"; do
  [ -f "$out/$n/run.json" ] || continue
  app=$("$py" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(next(iter(r["variants"].values()))["app_id"])' "$out/$n/run.json")
  mkdir -p "$out/$n/history"
  # The application may still be parsed in the background: wait until its SQL list is there.
  for _ in $(seq 60); do
    curl -sf "$base/applications/$app/sql?details=true&planDescription=true" > "$out/$n/history/sql.json" && break
    sleep 1
  done
  last=$("$py" -c 'import json,sys; print(max([e["id"] for e in json.load(open(sys.argv[1]))] or [-1]))' "$out/$n/history/sql.json")
  [ "$last" -ge 0 ] && curl -sf "$base/applications/$app/sql/$last?details=true&planDescription=true" > "$out/$n/history/sql-$last.json"
done
kill "$hs_pid"; wait "$hs_pid" 2>/dev/null || true; hs_pid=
# The History Server log names temporary folders only; keep it out of the corpus.
rm -f "$out/history-server.log"
echo "history server: $((SECONDS - t2)) s for $napps applications" | tee -a "$log"
echo "total: $((SECONDS - t0)) s" | tee -a "$log"
du -sh "$out" | tee -a "$log"
