#!/usr/bin/env bash
# Event logs compressed by the real `zstd` and `lz4` commands (standard zstd frames with a
# checksum; the lz4 frame format) and rolled into an eventlog_v2_ directory give the same findings
# as the plain log. Needs both (tools/setup-deps.sh);
# without them: skip (exit 77), or fail under CI=true.
# Usage: tests/eventlog_cli.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
log=corpus/eventlog/multi-exec.eventlog
have_zstd=$(command -v zstd >/dev/null 2>&1 && echo 1)
have_lz4=$(command -v lz4 >/dev/null 2>&1 && echo 1)
. tests/shell_lib.bash
[ -n "$have_zstd" ] || skip "zstd is not installed"
[ -n "$have_lz4" ] || skip "lz4 is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# rule, line and message of each finding; the path is left out.
findings() { "$planlint" check --no-config --format concise "$@" | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: /\1 /p' | sort; }
expected=$(findings "$log")
[ "$(printf '%s\n' "$expected" | grep -c 'execution 1 (save at sessions.py:58)')" = 3 ] || { echo "FAIL: plain log: $expected"; exit 1; }
fail=0
check_same() {  # name, path
  got=$(findings "$2")
  if [ "$got" != "$expected" ]; then echo "FAIL: $1"; diff <(echo "$expected") <(echo "$got"); fail=1; else echo "ok: $1"; fi
}
if [ -n "$have_zstd" ]; then
  zstd -q -c "$log" > "$tmp/app-1.zstd"
  check_same "zstd command" "$tmp/app-1.zstd"
  # Two frames in a row (a stream flushed and reopened).
  head -n 100 "$log" | zstd -q -c > "$tmp/two.zstd"; tail -n +101 "$log" | zstd -q -c >> "$tmp/two.zstd"
  check_same "two zstd frames" "$tmp/two.zstd"
  # A rolling directory: events_1 plain, events_2 zstd.
  d="$tmp/eventlog_v2_app-7"; mkdir -p "$d"; : > "$d/appstatus_app-7"
  head -n 120 "$log" > "$d/events_1_app-7"; tail -n +121 "$log" | zstd -q -c > "$d/events_2_app-7.zstd"
  check_same "rolling directory, plain + zstd" "$d"
  # Cut short: a parse error naming the codec, exit 1 (findings), never a crash.
  size=$(wc -c < "$tmp/app-1.zstd"); head -c $((size / 2)) "$tmp/app-1.zstd" > "$tmp/cut.zstd"
  out=$("$planlint" check --no-config --format concise "$tmp/cut.zstd"); rc=$?
  if [ $rc -ne 1 ] || ! grep -q "zstd data ends inside a frame" <<<"$out"; then echo "FAIL: cut zstd (exit $rc): $out"; fail=1; else echo "ok: cut zstd"; fi
fi
if [ -n "$have_lz4" ]; then
  lz4 -q -c "$log" > "$tmp/app-2.lz4"
  check_same "lz4 command (frame format)" "$tmp/app-2.lz4"
fi
exit $fail
