#!/usr/bin/env bash
# `python3 -m pip install --no-build-isolation .` from the source tree, offline, with Debian's
# /usr/bin/python3, into a temporary --target; then `import planlint` from there (not from the
# source tree) checks a plan. The CMake build folder under test is reused (PLANLINT_PY_BUILD_DIR),
# so this does not compile everything a second time.
# Usage: tests/python_install.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
build=${PLANLINT_BUILD_DIR:-$(dirname "$planlint")}
py=/usr/bin/python3
if grep -q "^PLANLINT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  echo "SKIP: sanitizer build (an ASan module cannot be loaded by python3)"; exit 77
fi
if ! [ -x "$py" ] || ! "$py" -m pip --version >/dev/null 2>&1 || ! ls "$build"/python/planlint/_core*.so >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && { echo "FAIL: /usr/bin/python3 with pip and the _core module are needed (tools/setup-deps.sh)"; exit 1; }
  echo "SKIP: /usr/bin/python3 -m pip or the _core module missing"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(pwd)
PLANLINT_PY_BUILD_DIR="$build" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  "$py" -m pip install --no-build-isolation --no-deps --no-index --target "$tmp/site" "$src" >"$tmp/pip.log" 2>&1 \
  || { echo "FAIL: pip install"; tail -30 "$tmp/pip.log"; exit 1; }
echo "ok: pip install --no-build-isolation ."
cd "$tmp"
out=$(PYTHONPATH="$tmp/site" PYTHONNOUSERSITE=1 "$py" - "$src/corpus/examples/orders-by-region.explain.txt" <<'PY'
import sys, planlint, planlint.spark
assert planlint.__file__.startswith(sys.path[0]) or "/site/" in planlint.__file__, planlint.__file__
f = planlint.check(sys.argv[1], config=False)
print(planlint.__file__)
print(planlint.__version__, len(f), sorted({x.rule for x in f}))
PY
) || { echo "FAIL: import planlint from the installed package: $out"; exit 1; }
if grep -q "$tmp/site/planlint/__init__.py" <<<"$out" && grep -q "shuffle-join-could-broadcast" <<<"$out"; then
  echo "ok: installed package checks a plan: $(tail -1 <<<"$out")"
else
  echo "FAIL: $out"; exit 1
fi
