#!/usr/bin/env bash
# planlint-spark (listener/) on real Spark, in local mode, through `spark-submit --jars`: PySpark
# 4.3.0's Spark (Scala 2.13) and PySpark 3.5.9's (Scala 2.12), the venvs of tools/setup-venv.sh,
# with the one jar `tools/test.sh` builds (`mvn -q package` in listener/) before the tests.
#  1. Spark 4.x: the scenario's sort-merge join of a 50-row table with broadcast disabled is
#     reported as shuffle-join-could-broadcast (PL002) in the driver log and the NDJSON file, from
#     the SQL metrics (the right side's size in KiB), with the app id and execution id.
#  2. Spark 3.5: the same, plus cartesian-product (PL009) thanks to a threshold set by a conf
#     (spark.planlint.set.explode-min-rows=1000; the default 1,000,000 keeps it silent), and
#     spark.planlint.ignore keeps a rule out.
#  3. A planlint that sleeps forever, a queue of one and 20 more quick queries (Spark 4.x): every
#     query completes with the right result, in bounded time; the hanging planlint is killed at
#     the time budget, and the dropped executions are counted in the application-end line.
#     3b. A planlint still within its budget at application end is killed, with its child, before
#     the driver exits, and counted as left unchecked.
#  4. A planlint that exits 3 (Spark 3.5): the queries complete, the failure is logged, no NDJSON.
#  5. The jar resolved as a Maven artifact (`--packages io.planlint:planlint-spark:0.1.0` from a
#     Maven-layout repository, the way a platform team publishes it), Spark 4.x: the same finding.
# The JVMs run with C1 only (-XX:TieredStopAtLevel=1): half the CPU of a default start.
# Usage: tests/listener_spark.sh PLANLINT_BINARY   (CTest label `live`)
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/shell_lib.bash
bin=$(realpath "${1:?usage: listener_spark.sh PLANLINT_BINARY}")
jar=$PWD/listener/target/planlint-spark-0.1.0.jar
[ -f "$jar" ] || skip "the listener jar $jar is not built (tools/test.sh runs 'mvn -q package' in listener/)"
command -v java >/dev/null 2>&1 || skip "no java on PATH"
. tools/python/env.sh
for v in "$PLANLINT_VENV" "$PLANLINT_VENV_OLD"; do
  [ -x "$v/bin/spark-submit" ] || skip "no PySpark venv at $v (tools/setup-venv.sh)"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
ln -s "$bin" "$tmp/bin/planlint"   # "planlint" found on the driver's PATH, as on a cluster
nap=$((700000 + $$))   # a child that only this test starts: the budget must kill it with planlint
printf '#!/bin/sh\nsleep %s\n' "$nap" > "$tmp/hang.sh"
printf '#!/bin/sh\nsleep %s\n' "$((nap + 1))" > "$tmp/hangend.sh"
printf '#!/bin/sh\necho "planlint: broken on purpose" >&2\nexit 3\n' > "$tmp/exit3.sh"
chmod +x "$tmp/hang.sh" "$tmp/hangend.sh" "$tmp/exit3.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run NAME VENV EXTRA_QUERIES [--conf k=v ...]: spark-submit of the scenario, its log in $tmp/NAME.log
run() {
  local name=$1 venv=$2 extra=$3
  shift 3
  local t0=$SECONDS
  local jars=(--jars "$jar")
  [ -z "${PACKAGES:-}" ] || jars=(--packages "$PACKAGES" --repositories "file://$tmp/repo" --conf "spark.jars.ivy=$tmp/ivy")
  PATH="$tmp/bin:$venv/bin:$PATH" PYSPARK_PYTHON="$venv/bin/python" timeout 120 \
    "$venv/bin/spark-submit" --master 'local[2]' "${jars[@]}" \
      --driver-java-options "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
      --conf spark.extraListeners=io.planlint.spark.PlanlintListener \
      --conf spark.sql.autoBroadcastJoinThreshold=-1 --conf spark.ui.enabled=false \
      --conf spark.sql.shuffle.partitions=4 "$@" \
      tests/listener/scenario.py "$extra" > "$tmp/$name.log" 2>&1
  local rc=$?
  echo "$name: spark-submit exit $rc in $((SECONDS - t0)) s"
  [ $rc = 0 ] || { fail "$name: spark-submit exit $rc"; tail -30 "$tmp/$name.log"; }
  grep -q '^SCENARIO OK 1200' "$tmp/$name.log" || fail "$name: the scenario's queries did not all complete with the right results"
}
has() { grep -q -- "$2" "$tmp/$1.log" || { fail "$1: no log line matching '$2'"; grep PlanlintListener "$tmp/$1.log" | cut -c1-300; }; }
hasnt() { ! grep -q -- "$2" "$tmp/$1.log" || fail "$1: unexpected log line matching '$2'"; }

# 1. Spark 4.x, output to a folder (one file per application)
run new "$PLANLINT_VENV" 0 --conf "spark.planlint.output=$tmp/out/"
has new 'WARN PlanlintListener: planlint PL002 shuffle-join-could-broadcast at SortMergeJoin ([0-9]*): execution 0 (collect at .*scenario.py:[0-9]*): SortMergeJoin .* the right side is [0-9.]* KiB .* | fix: Broadcast'
has new 'planlint: local-[0-9]*: checked [2-9] SQL executions (0 from the plan text only), 1 findings; dropped 0'
hasnt new 'PL009'   # 1,200 rows out: below the default explode-min-rows
ls "$tmp"/out/planlint-local-*.ndjson >/dev/null 2>&1 || fail "new: no NDJSON file in spark.planlint.output's folder"
python3 - "$tmp"/out/planlint-local-*.ndjson <<'EOF' || fail "new: NDJSON records"
import json, sys
recs = [json.loads(l) for f in sys.argv[1:] for l in open(f)]
f = [r for r in recs if r["type"] == "finding"]
assert [r["code"] for r in f] == ["PL002"], recs
r = f[0]
assert r["appId"].startswith("local-") and r["executionId"] == 0 and r["id"] == 0, r
assert r["operator"] == "SortMergeJoin" and r["fix"] and r["evidence"], r
assert any(e["name"] == "right side size" and e["unit"] == "bytes" and e["number"] < 100000 for e in r["evidence"]), r["evidence"]
done = [r for r in recs if r["type"] == "done"]
assert done and all(d["format"] == "history-server" for d in done), done  # metrics were used
print("new: NDJSON ok,", len(recs), "records")
EOF

# 2. Spark 3.5, output to a file; a threshold and an ignore by conf
run old "$PLANLINT_VENV_OLD" 0 --conf "spark.planlint.output=$tmp/old/findings.ndjson" \
  --conf spark.planlint.set.explode-min-rows=1000 --conf spark.planlint.ignore=PL108
has old 'WARN PlanlintListener: planlint PL002 shuffle-join-could-broadcast at SortMergeJoin ([0-9]*): execution 0 '
has old 'WARN PlanlintListener: planlint PL009 cartesian-product at CartesianProduct ([0-9]*): execution 1 '
has old 'checked [2-9] SQL executions (0 from the plan text only), 2 findings; dropped 0'
python3 - "$tmp/old/findings.ndjson" <<'EOF' || fail "old: NDJSON records"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
codes = sorted(r["code"] for r in recs if r["type"] == "finding")
assert codes == ["PL002", "PL009"], recs
assert {r["executionId"] for r in recs if r["type"] == "finding"} == {0, 1}, recs
print("old: NDJSON ok,", len(recs), "records")
EOF

# 3. a planlint that never answers, a queue of one, 20 more quick queries (Spark 4.x)
t0=$SECONDS
run hang "$PLANLINT_VENV" 20 --conf "spark.planlint.binary=$tmp/hang.sh" --conf spark.planlint.timeout=2s \
  --conf spark.planlint.queueSize=1 --conf spark.planlint.drainTimeout=1s --conf "spark.planlint.output=$tmp/hang.ndjson"
[ $((SECONDS - t0)) -le 60 ] || fail "hang: the run took $((SECONDS - t0)) s"
has hang 'planlint took longer than spark.planlint.timeout (2000 ms) and was killed'
has hang 'WARN PlanlintListener: planlint: local-[0-9]*: checked 0 SQL executions .* 0 findings; dropped [1-9][0-9]* (queue full), .* [1-9][0-9]* over the time budget'
[ ! -s "$tmp/hang.ndjson" ] || fail "hang: NDJSON written although planlint never answered"
pgrep -f "sleep $nap" >/dev/null && fail "hang: the hanging planlint's child was left running"

# 3b. application end while a planlint is within its budget (60 s) and still running: it is killed
#     with its child before the driver exits (not left to the daemon thread, which the JVM's exit
#     would cut short), and the execution counts as left unchecked
t0=$SECONDS
run hangend "$PLANLINT_VENV" 0 --conf "spark.planlint.binary=$tmp/hangend.sh" --conf spark.planlint.timeout=60s \
  --conf spark.planlint.drainTimeout=1s --conf "spark.planlint.output=$tmp/hangend.ndjson"
[ $((SECONDS - t0)) -le 50 ] || fail "hangend: the run took $((SECONDS - t0)) s"
# All the executions of run 1's scenario (the same, on the same Spark) are left unchecked: the
# queued ones and the one whose planlint was killed.
n_exec=$(grep -o 'checked [0-9]* SQL executions' "$tmp/new.log" | head -1 | tr -dc 0-9)
has hangend "WARN PlanlintListener: planlint: local-[0-9]*: checked 0 SQL executions .* 0 findings; dropped 0 (queue full), ${n_exec:-X} left unchecked at application end, 0 over the time budget, 0 planlint failures"
pgrep -f "sleep $((nap + 1))" >/dev/null && fail "hangend: the planlint running at application end was left running"

# 4. a planlint that exits 3 (Spark 3.5)
run exit3 "$PLANLINT_VENV_OLD" 0 --conf "spark.planlint.binary=$tmp/exit3.sh" --conf "spark.planlint.output=$tmp/exit3.ndjson"
has exit3 'exited with status 3: planlint: broken on purpose'
has exit3 'checked 0 SQL executions .* [1-9] planlint failures'
[ ! -s "$tmp/exit3.ndjson" ] || fail "exit3: NDJSON written although planlint failed"

# 5. --packages from a Maven-layout repository (Spark's Ivy resolves it; nothing else is fetched:
#    Spark's own jars are `provided` in the POM)
mkdir -p "$tmp/repo/io/planlint/planlint-spark/0.1.0"
cp "$jar" "$tmp/repo/io/planlint/planlint-spark/0.1.0/"
cp listener/pom.xml "$tmp/repo/io/planlint/planlint-spark/0.1.0/planlint-spark-0.1.0.pom"
PACKAGES=io.planlint:planlint-spark:0.1.0 run packages "$PLANLINT_VENV" 0 --conf "spark.planlint.output=$tmp/packages.ndjson"
has packages 'io.planlint#planlint-spark;0.1.0 from'
has packages 'WARN PlanlintListener: planlint PL002 shuffle-join-could-broadcast at SortMergeJoin ([0-9]*): execution 0 '
grep -q '"code":"PL002"' "$tmp/packages.ndjson" 2>/dev/null || fail "packages: no PL002 record in the NDJSON file"

[ $fails = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "listener_spark: ok"
