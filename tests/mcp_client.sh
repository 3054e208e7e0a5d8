#!/usr/bin/env bash
# `planlint mcp` driven by a real MCP client: the official MCP Python SDK (`mcp`, pinned in
# tools/python/requirements-test.txt, installed into $PLANLINT_VENV by tools/setup-venv.sh) spawns
# the server over stdio as an agent host does and runs tests/mcp_client/session.py: initialize,
# tools/list, every tool (lint_history_server against the stand-in History Server of
# tests/history_server/serve.py on 127.0.0.1), bad arguments, a 5 MB input over --max-input-size.
# Usage: tests/mcp_client.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
. tests/shell_lib.bash
. tools/python/env.sh
py="$PLANLINT_VENV/bin/python"
[ -x "$py" ] || skip "the project's Python environment $PLANLINT_VENV"
"$py" -c "import mcp" 2>/dev/null || skip "the MCP Python SDK (mcp) in $PLANLINT_VENV"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 (the stand-in History Server)"
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
/usr/bin/python3 tests/history_server/answers_from_eventlog.py corpus/eventlog/skewed-join.eventlog \
  "$tmp/root/skewed-join" >/dev/null || { echo "FAIL: could not generate the History Server answers"; exit 1; }
/usr/bin/python3 tests/history_server/serve.py "$tmp/root" "$tmp/port" & pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || { echo "FAIL: the stand-in History Server did not start"; exit 1; }
# The server's log lines (stderr) go to a file, shown on failure.
timeout 180 "$py" tests/mcp_client/session.py "$planlint" "http://127.0.0.1:$(cat "$tmp/port")" 2>"$tmp/stderr"
rc=$?
if [ $rc -ne 0 ]; then
  echo "--- standard error:"; tail -40 "$tmp/stderr"
  echo "FAIL: the MCP client session (exit $rc)"
  exit 1
fi
