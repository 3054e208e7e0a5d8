#!/usr/bin/env bash
# The Debian package: `cpack` builds planlint_<version>_<arch>.deb from the build folder; its
# Depends are the runtime libraries the binary links (dpkg-shlibdeps); unpacked into a temporary
# root with `dpkg-deb -x`, its planlint runs (--version, a check of a bundled plan) and its man
# page and rule docs are where the package says.
# Usage: tests/deb_package.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
build=${PLANLINT_BUILD_DIR:-$(dirname "$planlint")}
for tool in cpack dpkg-deb dpkg-shlibdeps objdump; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    [ "${CI:-}" = true ] && { echo "FAIL: $tool missing (tools/setup-deps.sh: dpkg-dev, cmake)"; exit 1; }
    echo "SKIP: $tool missing"; exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# cpack installs the build into its own staging folder; -B keeps the .deb out of the build folder.
(cd "$build" && cpack -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1) || { echo "FAIL: cpack"; cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/out/planlint_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL: no .deb"; cat "$tmp/cpack.log"; exit 1; }
echo "ok: built $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Every shared library the binary needs (its NEEDED entries) comes from a package in Depends.
for lib in $(objdump -p "$planlint" | awk '/NEEDED/ {print $2}'); do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
  pkg=""
  for p in "$path" "/usr$path" "$(realpath "$path" 2>/dev/null)"; do
    [ -n "$p" ] && pkg=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  if [ -z "$pkg" ]; then echo "FAIL: no Debian package owns $lib ($path)"; fail=1
  elif grep -q "\b$pkg\b" <<<"$depends"; then echo "ok: $lib from $pkg is in Depends"
  else echo "FAIL: $lib is from $pkg, which Depends lacks"; fail=1; fi
done
# libcurl is opened only by `check --history-server` (dlopen): not a NEEDED library, but recommended.
recommends=$(dpkg-deb -f "$deb" Recommends)
if grep -q "\blibcurl4\b" <<<"$recommends"; then echo "ok: Recommends: $recommends"
else echo "FAIL: Recommends lacks libcurl4 ($recommends)"; fail=1; fi
if objdump -p "$planlint" | awk '/NEEDED/ {print $2}' | grep -q libcurl; then
  echo "FAIL: planlint links libcurl (it is opened at the first fetch)"; fail=1; fi
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
exe="$root/usr/bin/planlint"
[ -x "$exe" ] || { echo "FAIL: no usr/bin/planlint in the package"; dpkg-deb -c "$deb"; exit 1; }
v=$("$exe" --version); rc=$?
if [ $rc -eq 0 ] && [ "$v" = "$("$planlint" --version)" ]; then echo "ok: $v"; else echo "FAIL: --version ($rc): $v"; fail=1; fi
"$exe" check --no-config --format concise corpus/examples/orders-by-region.explain.txt >"$tmp/out.txt"; rc=$?
if [ $rc -eq 1 ] && grep -q "shuffle-join-could-broadcast" "$tmp/out.txt"; then echo "ok: check from the unpacked root"
else echo "FAIL: check (exit $rc)"; cat "$tmp/out.txt"; fail=1; fi
if diff <("$planlint" check --no-config --format json --exit-zero corpus/examples/orders-by-region.explain.txt) \
        <("$exe" check --no-config --format json --exit-zero corpus/examples/orders-by-region.explain.txt) >/dev/null; then
  echo "ok: same findings as the build tree's planlint"; else echo "FAIL: findings differ"; fail=1; fi
for f in usr/share/man/man1/planlint.1 usr/share/doc/planlint/rules/skew-not-handled.md usr/share/doc/planlint/README.md; do
  if [ -s "$root/$f" ]; then echo "ok: $f"; else echo "FAIL: $f missing"; fail=1; fi
done
if command -v man >/dev/null 2>&1; then
  man -l "$root/usr/share/man/man1/planlint.1" 2>/dev/null | grep -q "history-server" && echo "ok: man page renders" \
    || { echo "FAIL: man page"; fail=1; }
fi
if dpkg-deb -c "$deb" | grep -q "_core"; then echo "FAIL: the Python module is in the .deb"; fail=1; fi
exit $fail
