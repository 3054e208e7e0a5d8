#!/usr/bin/env bash
# `planlint check --history-server` against a real Spark History Server and a real driver UI (issue
# 38 item 7), on the PySpark 4.3.0 of tools/setup-venv.sh (PLANLINT_HS_VENV=$PLANLINT_VENV_OLD runs
# it on 3.5.9). One Python process runs tests/history_server/live_apps.py: two applications whose
# event logs become the attempts 1 and 2 of one application (as YARN names them: <app>_1, <app>_2,
# with "App Attempt ID" in the application-start event, since local mode has no attempts), then one
# that keeps its driver UI up on 127.0.0.1 while planlint reads it. One History Server
# (spark-class org.apache.spark.deploy.history.HistoryServer, 127.0.0.1) over the three logs.
#   driver UI:  no --app (its one application), the list, one execution, an unknown app; the same
#               findings as the application's event log
#   History Server: no --app (several: named, exit 2), the list (= the event log's findings), one
#               execution, the application with attempts (the latest, said; APP/1; an unknown
#               attempt), an unknown app, three applications with an unknown one among them, the
#               server frozen (SIGSTOP: one timeout, the rest not asked for), the server killed
#               (SIGKILL) during a fetch of 300 applications: what was read is reported, the rest
#               named, exit 2, no hang.
# CTest label `live`.
# Usage: tests/history_server_live.sh PLANLINT_BINARY
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/shell_lib.bash
bin=$(realpath "${1:?usage: history_server_live.sh PLANLINT_BINARY}")
command -v java >/dev/null 2>&1 || skip "no java on PATH"
command -v curl >/dev/null 2>&1 || skip "no curl on PATH"
. tools/python/env.sh
venv=${PLANLINT_HS_VENV:-$PLANLINT_VENV}
[ -x "$venv/bin/spark-submit" ] || skip "no PySpark venv at $venv (tools/setup-venv.sh)"
py=$venv/bin/python
spark_home=$("$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
version=$("$py" -c 'import pyspark; print(pyspark.__version__)')
tmp=$(mktemp -d)
hs_pid= app_pid= lint_pid=
cleanup() {
  touch "$tmp/apps/stop" 2>/dev/null
  for p in $lint_pid $app_pid $hs_pid; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fails=0 mark=0
ok() { echo "ok: $*"; mark=$fails; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
passed() { if [ $fails = $mark ]; then ok "$@"; fi; mark=$fails; }  # ok when the case's checks all held
free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
hs_port=$(free_port)
ui_port=$(free_port)
t0=$SECONDS
echo "Spark $version ($venv)"

# The History Server first: its JVM starts while PySpark runs.
mkdir -p "$tmp/hslogs" "$tmp/apps"
cat > "$tmp/hs.conf" <<EOF
spark.history.fs.logDirectory file://$tmp/hslogs
spark.history.ui.port $hs_port
spark.history.fs.update.interval 1s
EOF
SPARK_HOME=$spark_home SPARK_LOCAL_IP=127.0.0.1 SPARK_NO_DAEMONIZE=1 \
  SPARK_HISTORY_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
  nice -n 10 "$spark_home/bin/spark-class" org.apache.spark.deploy.history.HistoryServer \
  --properties-file "$tmp/hs.conf" > "$tmp/hs.log" 2>&1 &
hs_pid=$!
SPARK_LOCAL_IP=127.0.0.1 nice -n 10 timeout 400 "$py" tests/history_server/live_apps.py "$tmp/apps" "$ui_port" \
  > "$tmp/apps.log" 2>&1 &
app_pid=$!

# json FILE: "execution rule@operator" lines of planlint's JSON report, sorted.
keys() {
  python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["files"]:
    for d in f["diagnostics"]:
        print(str((d.get("execution") or {}).get("id", "?")) + " " + d["rule"] + "@" + d["operator"] + " (" + d.get("operator_id", "") + ")")' "$1" | sort
}
# lint NAME ARGS...: planlint check --no-config ARGS, stdout in $tmp/NAME.out, stderr in
# $tmp/NAME.err, exit status in $rc.
lint() {
  local name=$1
  shift
  timeout 120 "$bin" check --no-config "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
  rc=$?
}
has() { grep -q -- "$2" "$tmp/$1" || { fail "$1: no line matching '$2'"; sed 's/^/    /' "$tmp/$1" | head -20; }; }
hasnt() { ! grep -q -- "$2" "$tmp/$1" || fail "$1: a line matches '$2'"; }
exit_is() { [ "$rc" = "$1" ] || { fail "$2: exit $rc, want $1"; sed 's/^/    /' "$tmp/$2.err" | head -20; }; }

# --- The live driver UI, while the application runs.
for _ in $(seq 300); do
  grep -q '^LIVE ' "$tmp/apps.log" && break
  kill -0 "$app_pid" 2>/dev/null || break
  sleep 1
done
if ! grep -q '^LIVE ' "$tmp/apps.log"; then
  echo "FAIL: the PySpark applications did not start their driver UI"; grep -v ' WARN ' "$tmp/apps.log" | tail -30; exit 1
fi
read -r _ live_app ui_url < <(grep '^LIVE ' "$tmp/apps.log")
echo "driver UI of $live_app at $ui_url after $((SECONDS - t0)) s"
ids=$(curl -sf "$ui_url/api/v1/applications/$live_app/sql?details=false&planDescription=false" \
  | python3 -c 'import json,sys; print(" ".join(str(e["id"]) for e in sorted(json.load(sys.stdin), key=lambda e: e["id"])))')
read -r join_id cross_id <<<"$ids"
[ -n "${cross_id:-}" ] || fail "the driver UI lists executions '$ids', want two"

lint ui --format json --history-server "$ui_url"
exit_is 1 ui
has ui.err "lists one application, $live_app (planlint-live): checking it"
keys "$tmp/ui.out" > "$tmp/ui.keys"
grep -q "^$join_id shuffle-join-could-broadcast@" "$tmp/ui.keys" && grep -q "^$cross_id cartesian-product@" "$tmp/ui.keys" \
  || { fail "driver UI findings"; cat "$tmp/ui.keys"; }
passed "driver UI, no --app: its one application, $(wc -l < "$tmp/ui.keys") findings"
lint ui1 --format concise --history-server "$ui_url" --app "$live_app" --execution "$cross_id"
exit_is 1 ui1
has ui1.out "/applications/$live_app/sql/$cross_id?.*cartesian-product. execution $cross_id "
hasnt ui1.out "execution $join_id "
passed "driver UI, one execution"
lint ui404 --history-server "$ui_url" --app app-20990101000000-0001
exit_is 2 ui404
has ui404.err "HTTP 404: no application \`app-20990101000000-0001\` on this server; it lists 1: $live_app"
passed "driver UI, unknown app: $(head -c 150 "$tmp/ui404.err")"
touch "$tmp/apps/stop"
wait "$app_pid"; app_rc=$?; app_pid=
[ $app_rc = 0 ] || { fail "live_apps.py exit $app_rc"; grep -v ' WARN ' "$tmp/apps.log" | tail -30; exit 1; }
echo "PySpark: $(grep '^DONE' "$tmp/apps.log")"

# --- The event logs to the History Server: the first two as attempts 1 and 2 of one application.
attempt_app=application_1733400000000_0042
ev() { ls "$tmp/apps/$1"/* | head -1; }
"$py" - "$(ev ev1)" "$(ev ev2)" "$tmp/hslogs" "$attempt_app" <<'EOF' || fail "writing the attempt logs"
import json, os, sys
one, two, dest, app = sys.argv[1:5]
for attempt, src in (("1", one), ("2", two)):
    tmp = os.path.join(dest, "." + app + "_" + attempt)
    with open(src) as f, open(tmp, "w") as o:
        for line in f:
            if '"SparkListenerApplicationStart"' in line:
                e = json.loads(line)
                e.update({"App ID": app, "App Attempt ID": attempt, "App Name": "planlint-attempts"})
                line = json.dumps(e, separators=(",", ":")) + "\n"
            o.write(line)
    os.rename(tmp, os.path.join(dest, app + "_" + attempt))  # whole, never half-written, for the server
EOF
cp "$(ev ev3)" "$tmp/hslogs/.live" && mv "$tmp/hslogs/.live" "$tmp/hslogs/$live_app"
hs=http://127.0.0.1:$hs_port
listed=
for _ in $(seq 180); do
  listed=$(curl -sf "$hs/api/v1/applications" 2>/dev/null | python3 -c 'import json,sys
print(" ".join(sorted(a["id"] + ":" + str(len(a["attempts"])) for a in json.load(sys.stdin))))' 2>/dev/null)
  [ "$listed" = "$(printf '%s\n' "$attempt_app:2" "$live_app:1" | sort | tr '\n' ' ' | sed 's/ $//')" ] && break
  kill -0 "$hs_pid" 2>/dev/null || break
  sleep 1
done
echo "History Server lists: $listed ($((SECONDS - t0)) s)"
[[ "$listed" == *"$attempt_app:2"* && "$listed" == *"$live_app:1"* ]] \
  || { echo "FAIL: the History Server does not list the applications"; tail -20 "$tmp/hs.log"; exit 1; }

lint hs_none --history-server "$hs"
exit_is 2 hs_none
has hs_none.err "/api/v1/applications lists 2 applications; name one or more with --app"
has hs_none.err "^  $attempt_app (attempts 2, 1)  planlint-attempts"
passed "History Server, no --app: the two applications named, exit 2"

"$bin" check --no-config --format json --exit-zero "$(ev ev3)" > "$tmp/ev3.json"
keys "$tmp/ev3.json" > "$tmp/ev3.keys"
lint hs_list --format json --history-server "$hs/" --app "$live_app"
exit_is 1 hs_list
keys "$tmp/hs_list.out" > "$tmp/hs_list.keys"
if [ -s "$tmp/ev3.keys" ] && cmp -s "$tmp/ev3.keys" "$tmp/hs_list.keys" && cmp -s "$tmp/ev3.keys" "$tmp/ui.keys"; then
  passed "History Server list = driver UI = event log: $(tr '\n' ';' < "$tmp/ev3.keys")"
else
  fail "findings differ (event log / History Server / driver UI)"
  diff "$tmp/ev3.keys" "$tmp/hs_list.keys"; diff "$tmp/ev3.keys" "$tmp/ui.keys"
fi
lint hs_one --format concise --history-server "$hs" --app "$live_app" --execution "$join_id"
exit_is 1 hs_one
has hs_one.out "/applications/$live_app/sql/$join_id?.*shuffle-join-could-broadcast. execution $join_id "
hasnt hs_one.out "cartesian-product"
passed "History Server, one execution"

# The application with two attempts: the latest (2, the cross join), said on stderr.
lint att --format concise --history-server "$hs" --app "$attempt_app"
exit_is 1 att
has att.err "note: $attempt_app has 2 attempts (2, 1): checked the latest, 2 (started 20..-..-..T..:..:..Z); --app $attempt_app/1 for the other"
has att.out "/applications/$attempt_app/2/sql?.*cartesian-product"
hasnt att.out "shuffle-join-could-broadcast"
lint att1 --format concise --history-server "$hs" --app "$attempt_app/1"
exit_is 1 att1
has att1.out "/applications/$attempt_app/1/sql?.*shuffle-join-could-broadcast"
hasnt att1.out "cartesian-product"
hasnt att1.err "note:"
lint att3 --history-server "$hs" --app "$attempt_app/3"
exit_is 2 att3
has att3.err "HTTP 404 (no such app: $attempt_app/3); .*the attempts of $attempt_app are 2, 1"
lint att_exec --format concise --history-server "$hs" --app "$attempt_app" --execution 999999
exit_is 2 att_exec
has att_exec.err "/applications/$attempt_app/2/sql/999999?.*HTTP 404 (unknown query execution id: 999999)"
passed "attempts: the latest (said), APP/1, an unknown attempt, an unknown execution: $(cat "$tmp/att.err")"

lint unknown --history-server "$hs" --app app-20990101000000-0001
exit_is 2 unknown
has unknown.err "HTTP 404: no application \`app-20990101000000-0001\` on this server; it lists 2: "
passed "unknown app: $(head -c 200 "$tmp/unknown.err")"
lint three --format concise --history-server "$hs" --app "$attempt_app/1,app-20990101000000-0001,$live_app"
exit_is 2 three
has three.out "/applications/$attempt_app/1/sql?"
has three.out "/applications/$live_app/sql?"
has three.err "read 2 of 3 applications; not read:"
has three.err "^  app-20990101000000-0001: .*no application"
passed "three applications, one unknown: two reported, the third named, exit 2"

# Frozen (SIGSTOP): the connection is accepted by the kernel and never answered.
kill -STOP "$hs_pid"
t1=$SECONDS
lint frozen --format concise --timeout 3 --history-server "$hs" --app "$live_app,$attempt_app/1,$attempt_app/2"
kill -CONT "$hs_pid"
exit_is 2 frozen
has frozen.err "read 0 of 3 applications; not read:"
has frozen.err "^  $live_app: .*no complete answer within the timeout"
[ "$(grep -c 'not asked for (the server stopped answering)' "$tmp/frozen.err")" = 2 ] || fail "frozen: want 2 not asked for"
[ $((SECONDS - t1)) -le 15 ] || fail "frozen: $((SECONDS - t1)) s"
passed "frozen server: one timeout, two not asked for, $((SECONDS - t1)) s"

# Killed (SIGKILL) during a fetch of 300 applications (the three, a hundred times over): once
# planlint has finished a few requests (connections to the port in /proc/net/tcp), the server dies.
conns() { awk -v p=":$(printf '%04X' "$hs_port")" 'NR > 1 && substr($3, length($3) - 4) == p' /proc/net/tcp | wc -l; }
many=$(for _ in $(seq 100); do printf '%s,' "$live_app" "$attempt_app/1" "$attempt_app/2"; done)
many=${many%,}
before=$(conns)
t1=$SECONDS
timeout 120 "$bin" check --no-config --format concise --history-server "$hs" --app "$many" > "$tmp/kill.out" 2> "$tmp/kill.err" &
lint_pid=$!
for _ in $(seq 600); do
  [ "$(conns)" -ge $((before + 6)) ] && break
  kill -0 "$lint_pid" 2>/dev/null || break
  sleep 0.05
done
kill -0 "$lint_pid" 2>/dev/null || fail "killed: planlint finished before the server could be killed (raise the count)"
kill -9 "$hs_pid"; wait "$hs_pid" 2>/dev/null; hs_pid=
wait "$lint_pid"; rc=$?; lint_pid=
exit_is 2 kill
read_n=$(sed -n 's/.*read \([0-9]*\) of 300 applications; not read:.*/\1/p' "$tmp/kill.err")
if [ -n "$read_n" ] && [ "$read_n" -ge 1 ] && [ "$read_n" -lt 300 ]; then
  reported=$(grep -o 'http://[^:]*:[0-9]*/api/v1/applications/[^?]*' "$tmp/kill.out" | sort -u | wc -l)
  unread=$(grep -c '^  ' "$tmp/kill.err")
  asked=$(grep -c 'not asked for (the server stopped answering)' "$tmp/kill.err")
  first=$(grep '^  ' "$tmp/kill.err" | head -1 | sed 's/ http[^ ]*: / /')
  [ $((read_n + unread)) = 300 ] || fail "killed: $read_n read + $unread not read != 300"
  [ "$asked" = $((unread - 1)) ] || fail "killed: $asked not asked for, want $((unread - 1))"
  [[ "$first" == *"closed the connection before the answer was complete"* || "$first" == *"cannot connect"* ]] \
    || fail "killed: the first failure is '$first'"
  [ "$reported" = 3 ] || fail "killed: reports of $reported distinct applications, want 3"
  [ $((SECONDS - t1)) -le 60 ] || fail "killed: $((SECONDS - t1)) s"
  passed "killed half-way: $read_n read and reported, then '${first:0:200}', $asked not asked for, exit 2, $((SECONDS - t1)) s"
else
  fail "killed: no 'read N of 300' summary"; head -20 "$tmp/kill.err"
fi

echo "total: $((SECONDS - t0)) s"
[ $fails = 0 ] || { echo "$fails failures"; exit 1; }
echo "all History Server cases passed on Spark $version"
