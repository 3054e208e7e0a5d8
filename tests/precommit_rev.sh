#!/usr/bin/env bash
# The pre-commit snippets of the docs name a `rev` that the repository will have: every `rev:` in
# README.md, docs/ci.md and .pre-commit-hooks.yaml is `v` + the project's version (CMakeLists.txt's
# project(VERSION), which pyproject.toml must repeat), the tag a release of that version is cut at;
# every hook id the snippets use is a hook of .pre-commit-hooks.yaml; and each hook's entry runs.
# Usage: tests/precommit_rev.sh path/to/planlint   (run from the source folder)
set -u
planlint=${1:?usage: tests/precommit_rev.sh path/to/planlint}
fail=0

version=$(sed -n 's/^project(planlint VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "FAIL: no project(planlint VERSION x.y.z) in CMakeLists.txt"; exit 1; }
py_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml | head -1)
[ "$py_version" = "$version" ] || { echo "FAIL: pyproject.toml version $py_version != CMakeLists.txt $version"; fail=1; }

revs=0
for f in README.md docs/ci.md .pre-commit-hooks.yaml; do
  while IFS= read -r line; do
    rev=$(printf '%s\n' "$line" | sed -n 's/^[#[:space:]]*rev: *\([^[:space:]#]*\).*/\1/p')
    [ -n "$rev" ] || continue
    revs=$((revs + 1))
    [ "$rev" = "v$version" ] || { echo "FAIL: $f: rev $rev, but the version is $version (tag v$version)"; fail=1; }
  done <"$f"
done
[ "$revs" -ge 3 ] || { echo "FAIL: expected a rev in README.md, docs/ci.md and .pre-commit-hooks.yaml, found $revs"; fail=1; }
grep -q 'rev:' README.md || { echo "FAIL: README.md has no pre-commit snippet"; fail=1; }

hooks=$(sed -n 's/^- id: *\([a-z0-9-]*\).*/\1/p' .pre-commit-hooks.yaml)
[ -n "$hooks" ] || { echo "FAIL: no hook in .pre-commit-hooks.yaml"; fail=1; }
for f in README.md docs/ci.md; do
  for id in $(sed -n 's/^ *- id: *\([a-z0-9-]*\).*/\1/p' "$f"); do
    printf '%s\n' "$hooks" | grep -qx "$id" || { echo "FAIL: $f uses hook $id, which .pre-commit-hooks.yaml lacks"; fail=1; }
  done
done

# Each hook's entry, with `planlint` the binary under test, runs on a plan as pre-commit would
# (the file names after the entry; exit 1: a finding, which is what a hook reports).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp corpus/check/orders-join.explain.txt "$work/q.explain.txt"
git -C "$work" init -q && git -C "$work" add q.explain.txt &&
  git -C "$work" -c user.email=t@t -c user.name=t commit -qm plan || { echo "FAIL: git"; exit 1; }
while IFS= read -r entry; do
  args=${entry#planlint }
  # shellcheck disable=SC2086
  out=$(cd "$work" && "$planlint" $args q.explain.txt 2>&1)
  rc=$?
  [ "$rc" = 1 ] || { echo "FAIL: hook entry '$entry' exited $rc: $out"; fail=1; }
done < <(sed -n 's/^ *entry: *//p' .pre-commit-hooks.yaml)

[ "$fail" = 0 ] && echo "OK: pre-commit rev v$version in $revs snippets; hooks $(echo $hooks)"
exit "$fail"
