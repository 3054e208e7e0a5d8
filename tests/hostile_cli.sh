#!/usr/bin/env bash
# Hostile input and the edges of the CLI (plans come from untrusted places: pastes, CI artefacts),
# through the real executable: pipes read once,
# outputs never over an input, well-formed JUnit, no terminal escapes or workflow commands echoed,
# bounded reads, unreadable folders reported. Each check names what it reproduces.
# Usage: tests/hostile_cli.sh path/to/planlint   (run from the source folder)
set -u
plan=corpus/examples/orders-by-region.explain.txt
log=corpus/eventlog/multi-exec.eventlog
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
# Every run is bounded: a hang (reading a FIFO twice, /dev/zero) is a failure, not a stuck test.
planlint="$tmp/planlint"
# HOSTILE_ULIMIT_KB caps virtual memory, to replay this test safely against an older binary
# (which reads /dev/zero until memory runs out); sanitizer builds need it unset.
printf '#!/bin/sh\n%sexec timeout 60 %q "$@"\n' "${HOSTILE_ULIMIT_KB:+ulimit -v $HOSTILE_ULIMIT_KB; }" "$(realpath "$1")" > "$planlint"
chmod 755 "$planlint"
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
need() {  # a command the test needs: under CI a missing one fails, else the check is skipped
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "${CI:-}" = true ]; then bad "$1 is not installed (tools/setup-deps.sh installs it)"; else echo "skip: $1 not installed"; fi
  return 1
}
# Findings without the path: "line:col: severity[rule] message".
findings() { "$planlint" check --no-config --format concise "$@" 2>/dev/null | sed -n 's/^.*:\([0-9]*:[0-9]*: \)/\1/p'; }

# --- 2. pipes, FIFOs, /dev/stdin and process substitution are read once --------------------------
# A plan over 8 KB: the plan first, then 20 KB of blank lines.
big="$tmp/big.explain.txt"
{ cat "$plan"; head -c 20000 /dev/zero | tr '\0' '\n'; } > "$big"
want=$(findings "$big")
[ -n "$want" ] || bad "no findings on $big"
got=$(cat "$big" | findings /dev/stdin); [ "$got" = "$want" ] && ok "pipe into /dev/stdin" || bad "pipe into /dev/stdin: $got"
got=$(findings <(cat "$big")); [ "$got" = "$want" ] && ok "process substitution" || bad "process substitution: $got"
mkfifo "$tmp/fifo"; (cat "$big" > "$tmp/fifo" &)
got=$(findings "$tmp/fifo"); [ "$got" = "$want" ] && ok "named FIFO" || bad "named FIFO: $got"
got=$(findings - < "$big"); [ "$got" = "$want" ] && ok "stdin" || bad "stdin: $got"
cat "$big" | "$planlint" check --no-config /dev/stdin >/dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok "pipe: exit 1 like the file" || bad "pipe: exit $rc"
# Event logs through a pipe: the same findings as the file.
want_log=$(findings "$log")
got=$(cat "$log" | findings /dev/stdin); [ "$got" = "$want_log" ] && ok "event log through a pipe" || bad "event log through a pipe"
# show and report read pipes once too.
a=$("$planlint" show --no-config --color never "$big" 2>&1 | tail -n +2)
b=$(cat "$big" | "$planlint" show --no-config --color never /dev/stdin 2>&1 | tail -n +2)
[ "$a" = "$b" ] && ok "show through a pipe" || bad "show through a pipe"
a=$("$planlint" show --no-config --color never "$log" 2>&1 | tail -n +2)
b=$(cat "$log" | "$planlint" show --no-config --color never /dev/stdin 2>&1 | tail -n +2)
[ "$a" = "$b" ] && ok "show of an event log through a pipe" || bad "show of an event log through a pipe"

# --- 4. outputs never overwrite an input -----------------------------------------------------------
cp "$plan" "$tmp/self.txt"; sum=$(md5sum < "$tmp/self.txt")
refuse() {  # name, command...
  local name=$1; shift
  out=$("$@" 2>&1); rc=$?
  if [ $rc = 2 ] && [ "$(md5sum < "$tmp/self.txt")" = "$sum" ] && grep -q "refusing to overwrite" <<<"$out"; then ok "$name"
  else bad "$name (exit $rc, input changed? $out)"; cp "$plan" "$tmp/self.txt"; fi
}
refuse "report x -o x" "$planlint" report --no-config "$tmp/self.txt" -o "$tmp/self.txt"
ln -s self.txt "$tmp/link.txt"
refuse "report x -o link-to-x" "$planlint" report --no-config "$tmp/self.txt" -o "$tmp/link.txt"
refuse "report link-to-x -o x" "$planlint" report --no-config "$tmp/link.txt" -o "$tmp/self.txt"
refuse "check x -o x" "$planlint" check --no-config "$tmp/self.txt" -o "$tmp/self.txt"
refuse "check x --write-baseline x" "$planlint" check --no-config "$tmp/self.txt" --write-baseline "$tmp/self.txt"
refuse "check - -o x < x" sh -c "'$planlint' check --no-config - -o '$tmp/self.txt' < '$tmp/self.txt'"
refuse "check folder -o file-in-it" "$planlint" check --no-config "$tmp" -o "$tmp/self.txt"
# Writing elsewhere works, through a temporary file that does not stay behind.
"$planlint" report --no-config "$tmp/self.txt" -o "$tmp/out.html" 2>/dev/null
"$planlint" check --no-config "$tmp/self.txt" -o "$tmp/out.txt" --format json; rc=$?
"$planlint" check --no-config "$tmp/self.txt" --write-baseline "$tmp/base.json" >/dev/null 2>&1
if [ $rc = 1 ] && grep -q "<html" "$tmp/out.html" && grep -q '"diagnostics"\|"findings"\|"files"' "$tmp/out.txt" && grep -q fingerprint "$tmp/base.json" &&
   [ -z "$(ls -A "$tmp" | grep planlint-)" ]; then ok "outputs written, no temporary file left"; else bad "outputs elsewhere (exit $rc): $(ls -A "$tmp")"; fi

# --- 5, 6, 7. hostile plan text: escapes, invalid UTF-8, NUL, workflow commands --------------------
hostile="$tmp/hostile.txt"
{
  printf '== Physical Plan ==\n'
  printf '* Project (3)\n'
  printf '+- * Filter (2)\n'
  printf '   +- Scan parquet db.t\x1b[2J\x1b]0;pwned\x07\xff\xfe (1)\n'
  printf '\n(1) Scan parquet db.t\x1b[2J\xff\n'
  printf 'Output [1]: [a#1]\n'
  printf '::add-mask::secret\n'
  printf '::warning title=x::injected\n'
  printf '   ::error::indented\n'
  printf '\n(2) Filter\nInput [1]: [a#1]\nCondition : (cast(a#1 as date) = 2024-01-01)\n'
  printf '\n(3) Project\n\x00\x01bad line\n'
} > "$hostile"
# A file name with a newline, an escape and invalid UTF-8 in it.
weird="$tmp/$(printf 'we\nird\x1b[31m\xff.txt')"
cp "$hostile" "$weird"
no_raw_escapes() {  # name, file with the output
  if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$2"; then bad "$1: raw control characters: $(LC_ALL=C grep -n $'[\x01-\x08\x0b-\x1f\x7f]' "$2" | head -3 | cat -v)"
  elif LC_ALL=C grep -q $'\xff' "$2"; then bad "$1: invalid UTF-8 passed through"
  elif grep -qE '^[[:space:]]*::' "$2"; then bad "$1: a line starts with :: ($(grep -nE '^[[:space:]]*::' "$2" | head -2))"
  else ok "$1"; fi
}
for fmt in text concise full; do
  "$planlint" check --no-config --color never --format $fmt "$hostile" "$weird" > "$tmp/o" 2>&1
  no_raw_escapes "check --format $fmt" "$tmp/o"
done
"$planlint" check --no-config --format text "$hostile" 2>&1 | grep -q '\\x1b\[2J' && ok "text output shows \\x1b visibly" || bad "text output: no visible \\x1b"
"$planlint" show --no-config --color never "$hostile" "$weird" > "$tmp/o" 2>&1; no_raw_escapes "show" "$tmp/o"
"$planlint" show --no-config --format dot "$hostile" > "$tmp/o" 2>&1; no_raw_escapes "show --format dot" "$tmp/o"
"$planlint" parse "$hostile" "$weird" > "$tmp/o" 2>&1; no_raw_escapes "parse (tree and error messages)" "$tmp/o"
"$planlint" parse "$hostile" 2>&1 >/dev/null | grep -q '  | ' && ok "parse echoes plan lines behind a gutter" || bad "parse: no gutter"
"$planlint" check --no-config /nonexistent/"$(printf 'a\x1b[2Jb\n::warning::x')" > "$tmp/o" 2>&1; no_raw_escapes "error message for a missing file" "$tmp/o"
# Every concise line is one `path:line:col: ...` line, the newline in the file name shown as \n.
"$planlint" check --no-config --format concise "$weird" 2>/dev/null | grep -v '^Found\|^No findings\|^[0-9]* finding\|^$' > "$tmp/o"
if [ -s "$tmp/o" ] && ! grep -vqE '^.+:[0-9]+:[0-9]+: ' "$tmp/o" && grep -q 'we\\nird' "$tmp/o"; then ok "newline in a file name keeps path:line:col lines"
else bad "newline in a file name: $(cat -v "$tmp/o" | head -3)"; fi
# JUnit is well-formed XML whatever the plan and the file name hold.
if need xmllint; then
  "$planlint" check --no-config --format junit "$hostile" "$weird" > "$tmp/junit.xml" 2>/dev/null
  if xmllint --noout "$tmp/junit.xml" 2>"$tmp/xmlerr"; then ok "junit well-formed"; else bad "junit not well-formed: $(head -3 "$tmp/xmlerr")"; fi
fi
# --format github stays safe (it escapes), and the other machine formats are valid JSON.
for fmt in json sarif; do
  "$planlint" check --no-config --format $fmt "$hostile" "$weird" > "$tmp/o" 2>/dev/null
  if python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/o" 2>/dev/null; then ok "$fmt is valid UTF-8 JSON"; else bad "$fmt is not valid UTF-8 JSON"; fi
done
"$planlint" check --no-config --format github "$hostile" "$weird" > "$tmp/o" 2>&1
if grep -E '^::' "$tmp/o" | grep -vqE '^::(error|warning|notice) '; then bad "github: a line is a command other than a finding"; else ok "github format"; fi

# --- 8. bounded reads -------------------------------------------------------------------------------
out=$("$planlint" check --no-config /dev/zero 2>&1); rc=$?
[ $rc = 2 ] && grep -q "character device" <<<"$out" && ok "/dev/zero refused" || bad "/dev/zero (exit $rc): $out"
# `-` names stdin (with no path, a character device on stdin is not read: the current folder is checked).
out=$("$planlint" check --no-config - < /dev/zero 2>&1); rc=$?
[ $rc = 2 ] && grep -q "character device" <<<"$out" && ok "stdin from /dev/zero refused" || bad "stdin from /dev/zero (exit $rc): $out"
out=$("$planlint" show --no-config /dev/urandom 2>&1); rc=$?
[ $rc = 2 ] && grep -q "character device" <<<"$out" && ok "show /dev/urandom refused" || bad "show /dev/urandom (exit $rc)"
out=$("$planlint" parse /dev/zero 2>&1); rc=$?
[ $rc = 2 ] && ok "parse /dev/zero refused" || bad "parse /dev/zero (exit $rc)"
out=$("$planlint" check --no-config --max-input-size 1k "$plan" 2>&1); rc=$?
[ $rc = 2 ] && grep -q "larger than the maximum input size of 1.0 KiB" <<<"$out" && ok "--max-input-size on a file" || bad "--max-input-size (exit $rc): $out"
out=$(head -c 100000 /dev/urandom | "$planlint" check --no-config --max-input-size 10k 2>&1); rc=$?
[ $rc = 2 ] && grep -q "standard input: larger than" <<<"$out" && ok "--max-input-size on a pipe" || bad "--max-input-size on a pipe (exit $rc): $out"
mkdir -p "$tmp/cfg"; cp "$plan" "$tmp/cfg/p.txt"; printf 'max-input-size = "2KB"\n' > "$tmp/cfg/.planlint.toml"
out=$(cd "$tmp/cfg" && "$planlint" check p.txt 2>&1); rc=$?
[ $rc = 2 ] && grep -q "maximum input size of 2.0 KiB" <<<"$out" && ok "max-input-size in .planlint.toml" || bad "config max-input-size (exit $rc): $out"
out=$("$planlint" report --no-config --max-input-size 1k "$plan" -o "$tmp/r.html" 2>&1); rc=$?
[ $rc = 2 ] && ok "report --max-input-size" || bad "report --max-input-size (exit $rc)"

# --- 9. unreadable folders are reported, exit 2 -----------------------------------------------------
mkdir -p "$tmp/walk/ok" "$tmp/walk/locked"
cp "$plan" "$tmp/walk/ok/a.txt"; cp "$plan" "$tmp/walk/locked/b.txt"
chmod 000 "$tmp/walk/locked"
run_as=()
if [ "$(id -u)" = 0 ]; then
  # root reads mode-000 folders: run as nobody (the folders on the way must be open to it).
  if need setpriv; then
    chmod 755 "$tmp" "$tmp/walk" "$tmp/walk/ok"; chmod 644 "$tmp/walk/ok/a.txt"
    run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  fi
fi
if [ "$(id -u)" != 0 ] || [ ${#run_as[@]} -gt 0 ]; then
  out=$("${run_as[@]}" "$planlint" check --no-config --format concise "$tmp/walk" 2>&1); rc=$?
  if [ $rc = 2 ] && grep -q "walk/locked: Permission denied" <<<"$out" && grep -q "a.txt:" <<<"$out"; then ok "unreadable subfolder reported, exit 2, others checked"
  else bad "unreadable subfolder (exit $rc): $out"; fi
fi
chmod 755 "$tmp/walk/locked"

exit $fail
