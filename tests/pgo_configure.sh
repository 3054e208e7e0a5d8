#!/usr/bin/env bash
# The PLANLINT_PGO option that tools/pgo-build.sh drives: GENERATE compiles every object with
# GCC's instrumentation, USE with the profiles (missing profiles allowed), empty adds neither, and
# any other value stops the configuration with a message. Configure-only (compile_commands.json):
# the two full builds of the script itself belong in the benchmark, not in the test suite.
# Usage: tests/pgo_configure.sh path/to/planlint   (run from the source folder)
set -u
command -v cmake >/dev/null || { [ "${CI:-}" = true ] && { echo "FAIL: cmake missing"; exit 1; }; echo "SKIP: no cmake"; exit 77; }
if ! "${CXX:-c++}" --version 2>/dev/null | grep -qi "gcc\|g++\|free software"; then
  echo "SKIP: the default compiler is not GCC"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
gen=(-G Ninja)
command -v ninja >/dev/null || gen=()
# One reader source and one rule source: the options apply to every library, not one.
flags_of() {  # flags_of DIR FILE-SUFFIX
  python3 - "$1/compile_commands.json" "$2" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith(sys.argv[2]):
        print(e.get("command") or " ".join(e["arguments"]))
        break
else:
    print("NO-ENTRY")
PY
}
check() {  # check PHASE MUST MUST_NOT
  local phase=$1 must=$2 mustnot=$3 d="$tmp/phase-${1:-off}"
  # File by file (no unity batches), so that compile_commands.json names each source.
  if ! cmake -S . -B "$d" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPLANLINT_PYTHON=OFF -DPLANLINT_UNITY=OFF "-DPLANLINT_PGO=$phase" >"$tmp/log" 2>&1; then
    echo "FAIL: PLANLINT_PGO=$phase does not configure"; cat "$tmp/log"; fail=1; return
  fi
  for src in parser/explain/normalize.cpp rules/skew_not_handled.cpp; do
    local f; f=$(flags_of "$d" "$src")
    if [ -n "$must" ] && [[ "$f" != *"$must"* ]]; then echo "FAIL: PLANLINT_PGO=$phase: $src lacks $must"; fail=1; fi
    if [[ "$f" == *"$mustnot"* ]]; then echo "FAIL: PLANLINT_PGO=$phase: $src has $mustnot"; fail=1; fi
  done
  echo "ok: PLANLINT_PGO=${phase:-(empty)}"
}
check GENERATE -fprofile-generate -fprofile-use
check USE -fprofile-use -fprofile-generate
check "" "" -fprofile-
if cmake -S . -B "$tmp/bad" "${gen[@]}" -DPLANLINT_PYTHON=OFF -DPLANLINT_PGO=yes >"$tmp/log" 2>&1; then
  echo "FAIL: PLANLINT_PGO=yes was accepted"; fail=1
elif ! grep -q "PLANLINT_PGO must be empty, GENERATE or USE" "$tmp/log"; then
  echo "FAIL: PLANLINT_PGO=yes: no message naming the choices"; cat "$tmp/log"; fail=1
else
  echo "ok: PLANLINT_PGO=yes refused"
fi
exit $fail
