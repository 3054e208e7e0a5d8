#!/usr/bin/env bash
# Files planlint reads (reliability probe 2026-12, R1, H1, W6, C3), through the real executable:
#   R1  --config, --baseline and auto-discovered .planlint.toml / pyproject.toml: regular files
#       only (a FIFO or device named explicitly is exit 2 with a message; an auto-discovered one is
#       skipped with a note), at most 16 MiB (a 3 GB sparse file is refused at once).
#   H1  members of a rolling event-log folder that are FIFOs or links to /dev/zero, /dev/urandom
#       are reported and skipped; the other members are still read.
#   W6  --max-input-size counts the 4,096 bytes read to detect the format on pipes and FIFOs.
#   C3  out of memory (`ulimit -v`) is "planlint: error: FILE: out of memory", exit 2, and the
#       other files of a folder walk are still reported.
# Every run is bounded by timeout and (except in sanitizer builds) by ulimit -v, so that an older
# binary fails this test instead of hanging or eating the machine's memory.
# Usage: tests/input_files.sh path/to/planlint   (run from the source folder)
set -u
plan=$PWD/corpus/examples/orders-by-region.explain.txt
rolling=$PWD/corpus/eventlog/eventlog_v2_app-20231114221320-0009
bin=$(realpath "$1")
sanitized=""
grep -q "^PLANLINT_SANITIZE:BOOL=ON" "$(dirname "$bin")/CMakeCache.txt" 2>/dev/null && sanitized=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
planlint="$tmp/planlint"
limit="ulimit -v 2000000; "
[ -n "$sanitized" ] && limit=""
printf '#!/bin/sh\n%sexec timeout 30 %q "$@"\n' "$limit" "$bin" > "$planlint"
chmod 755 "$planlint"
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
# refused NAME PATTERN COMMAND...: exit 2 within the timeout, with PATTERN in the message.
refused() {
  local name=$1 pattern=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ $rc = 2 ] && grep -q -- "$pattern" <<<"$out"; then ok "$name: exit 2, '$pattern'"
  else bad "$name (exit $rc): $(head -c 300 <<<"$out")"; fi
}

# --- R1: config and baseline files ------------------------------------------------------------------
r="$tmp/r1"; mkdir "$r"
mkfifo "$r/cfg.fifo"
refused "--config /dev/zero" "is a character device, not a regular file" "$planlint" check "$plan" --config /dev/zero
refused "--baseline /dev/zero" "is a character device, not a regular file" "$planlint" check --no-config "$plan" --baseline /dev/zero
refused "--config FIFO" "is a FIFO, not a regular file" "$planlint" check "$plan" --config "$r/cfg.fifo"
refused "--baseline FIFO" "is a FIFO, not a regular file" "$planlint" check --no-config "$plan" --baseline "$r/cfg.fifo"
refused "--config directory" "is a directory, not a regular file" "$planlint" check "$plan" --config "$r"
truncate -s 17M "$r/big.toml"
refused "--config of 17 MiB" "larger than 16.0 MiB" "$planlint" check "$plan" --config "$r/big.toml"
{ printf '{"version":1,"findings":[]}'; head -c $((17 << 20)) /dev/zero | tr '\0' ' '; } > "$r/big-baseline.json"
refused "--baseline of 17 MiB" "larger than 16.0 MiB" "$planlint" check --no-config "$plan" --baseline "$r/big-baseline.json"
# A 3 GB sparse .planlint.toml found by discovery: refused at once, not read (30 s and 6 GB before).
mkdir "$r/sparse"; truncate -s 3G "$r/sparse/.planlint.toml"; cp "$plan" "$r/sparse/p.txt"
start=$(date +%s)
refused "discovered 3 GB .planlint.toml" "larger than 16.0 MiB" "$planlint" check "$r/sparse/p.txt"
[ $(( $(date +%s) - start )) -le 5 ] && ok "3 GB .planlint.toml refused within 5 s" || bad "3 GB .planlint.toml took $(( $(date +%s) - start )) s"
# A 3 GB pyproject.toml of one line: not read to look for [tool.planlint]; skipped with a note.
mkdir "$r/py"; truncate -s 3G "$r/py/pyproject.toml"; cp "$plan" "$r/py/p.txt"
out=$("$planlint" check "$r/py/p.txt" 2>&1 >/dev/null); rc=$?
if [ $rc = 1 ] && grep -q "pyproject.toml: larger than 16.0 MiB.*skipped" <<<"$out"; then ok "3 GB pyproject.toml: skipped with a note, the plan checked"
else bad "3 GB pyproject.toml (exit $rc): $(head -c 300 <<<"$out")"; fi
# Discovered special files: skipped with a note, the defaults apply (the plan is checked).
for kind in fifo zero dir; do
  mkdir "$r/auto-$kind"; cp "$plan" "$r/auto-$kind/p.txt"
  case $kind in
    fifo) mkfifo "$r/auto-$kind/.planlint.toml"; want="is a FIFO" ;;
    zero) ln -s /dev/zero "$r/auto-$kind/.planlint.toml"; want="is a character device" ;;
    dir) mkdir "$r/auto-$kind/.planlint.toml"; want="is a directory" ;;
  esac
  out=$("$planlint" check "$r/auto-$kind/p.txt" 2>&1 >/dev/null); rc=$?
  if [ $rc = 1 ] && grep -q "planlint: note: .*auto-$kind/.planlint.toml: $want, not a regular file; skipped" <<<"$out"; then
    ok "discovered .planlint.toml ($kind): skipped with a note"
  else bad "discovered .planlint.toml ($kind) (exit $rc): $out"; fi
done

# --- H1: rolling event-log members that are not regular files ---------------------------------------
findings() { "$planlint" check --no-config --format concise "$1" 2>/dev/null | sed -n 's/^[^:]*:\([0-9]*:[0-9]*: \)/\1/p' | grep -v parse-error; }
want=$(findings "$rolling")
[ -n "$want" ] || bad "no findings in $rolling"
app=app-20231114221320-0009
for kind in fifo zero urandom dir; do
  e="$tmp/h1/eventlog_v2_$kind"; mkdir -p "$e"
  cp "$rolling/events_1_$app" "$e/"
  cp "$rolling/events_2_$app" "$e/events_3_$app"   # read after the bad member
  case $kind in
    fifo) mkfifo "$e/events_2_$app"; why="is a FIFO, not a regular file" ;;
    zero) ln -s /dev/zero "$e/events_2_$app"; why="is a character device, not a regular file" ;;
    urandom) ln -s /dev/urandom "$e/events_2_$app.zstd"; why="is a character device, not a regular file" ;;
    dir) mkdir "$e/events_2_$app"; why="is a directory, not a regular file" ;;
  esac
  out=$("$planlint" check --no-config --format concise "$e" 2>&1); rc=$?
  got=$(findings "$e")
  if [ $rc = 1 ] && grep -q "events_2_$app[.a-z]*: $why; not read" <<<"$out" && [ "$got" = "$want" ]; then
    ok "rolling folder with a $kind member: reported, the other members read"
  else bad "rolling folder with a $kind member (exit $rc): $(head -c 400 <<<"$out")"; fi
done

# --- W6: the detection head counts toward --max-input-size ------------------------------------------
w="$tmp/w6"; mkdir "$w"
{ cat "$plan"; head -c 8192 /dev/zero | tr '\0' '\n'; } | head -c 4096 > "$w/f4096.txt"
refused "4,096-byte file, --max-input-size 1" "larger than the maximum input size" "$planlint" check --no-config --max-input-size 1 "$w/f4096.txt"
refused "4,096-byte pipe, --max-input-size 1" "larger than the maximum input size" sh -c "cat '$w/f4096.txt' | '$planlint' check --no-config --max-input-size 1 -"
refused "100-byte pipe, --max-input-size 10" "larger than the maximum input size" sh -c "head -c 100 '$plan' | '$planlint' check --no-config --max-input-size 10 -"
refused "4,096-byte /dev/stdin, --max-input-size 4095" "larger than the maximum input size" sh -c "'$planlint' check --no-config --max-input-size 4095 /dev/stdin < '$w/f4096.txt'"
mkfifo "$w/in.fifo"; (cat "$w/f4096.txt" > "$w/in.fifo" &)
refused "4,096-byte FIFO, --max-input-size 1" "larger than the maximum input size" "$planlint" check --no-config --max-input-size 1 "$w/in.fifo"
cat "$w/f4096.txt" | "$planlint" check --no-config --max-input-size 4096 - >/dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "4,096-byte pipe, --max-input-size 4096: checked" || bad "4,096-byte pipe at the limit: exit $rc"

# --- C3: out of memory --------------------------------------------------------------------------------
if [ -n "$sanitized" ]; then
  echo "skip: C3 (ulimit -v) in a sanitizer build"
else
  c="$tmp/c3"; mkdir -p "$c/walk"
  python3 - "$c/walk/big.txt" <<'EOF'
import sys
one = open('corpus/examples/orders-by-region.explain.txt').read()
with open(sys.argv[1], 'w') as f:
    for _ in range(60_000_000 // len(one) + 1):
        f.write(one)
EOF
  cp "$plan" "$c/walk/small.txt"
  # check lints the 60 MB of plans one plan at a time (issue 37 item 3): it fits in 300,000 KiB
  # (it ran out of memory there when every plan of the file was kept until the end), not in 100,000.
  out=$( (ulimit -v 300000; exec timeout 120 "$bin" check --no-config -j 1 "$c/walk/big.txt") 2>&1); rc=$?
  if [ $rc = 1 ] && grep -q "^Found [0-9]* findings" <<<"$out"; then ok "60 MB of plans under ulimit -v 300000: checked plan by plan"
  else bad "60 MB of plans under ulimit -v 300000 (exit $rc): $(tail -c 300 <<<"$out")"; fi
  out=$( (ulimit -v 100000; exec timeout 120 "$bin" check --no-config -j 1 "$c/walk/big.txt") 2>&1); rc=$?
  if [ $rc = 2 ] && grep -q "planlint: error: .*big.txt: out of memory" <<<"$out"; then ok "60 MB of plans under ulimit -v 100000: 'out of memory', exit 2"
  else bad "60 MB of plans under ulimit -v 100000 (exit $rc): $(tail -c 300 <<<"$out")"; fi
  out=$( (ulimit -v 100000; exec timeout 120 "$bin" check --no-config -j 1 --format concise "$c/walk") 2>&1); rc=$?
  if [ $rc = 2 ] && grep -q "big.txt: out of memory" <<<"$out" && grep -q "small.txt:.*shuffle-join-could-broadcast" <<<"$out"; then
    ok "folder walk: the big file is out of memory, the small one is reported"
  else bad "folder walk under ulimit -v (exit $rc): $(tail -c 300 <<<"$out")"; fi
  # show, parse and report of the 60 MB plan under ulimit -v 150000 (report can run out inside a noexcept
  # function of the JSON library: the terminate handler still gives the message and exit 2).
  for cmd in show parse report; do
    extra=(); [ $cmd = report ] && extra=(-o "$c/r.html")
    [ $cmd = parse ] || extra+=(--no-config)
    out=$( (ulimit -v 150000; exec timeout 120 "$bin" $cmd "${extra[@]}" "$c/walk/big.txt" >/dev/null) 2>&1); rc=$?
    if [ $rc = 2 ] && grep -q "planlint: error: .*out of memory" <<<"$out" && ! grep -q "terminate called" <<<"$out"; then ok "$cmd of a large plan under ulimit -v 150000: 'out of memory', exit 2"
    else bad "$cmd under ulimit -v 150000 (exit $rc): $(tail -c 300 <<<"$out")"; fi
  done
fi

exit $fail
