#!/usr/bin/env bash
# docs/ci.md's GitHub Actions recipe: its `run:` steps are extracted and run with sudo, apt-get,
# git, cmake, ninja and planlint replaced by functions that record their arguments (a dry run).
# The packages the recipe installs must cover tools/setup-deps.sh's build list, and apt must know
# each one (apt-cache show). Also: no test installs packages itself (with apt, npm or pip).
# This script installs nothing: every package manager call of the recipe goes to a recording stub.
# Usage: tests/ci_recipe.sh path/to/planlint   (run from the source folder)
set -u
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The recipe's run: steps, in order, as one script.
awk '/^```yaml/{y=1;next} /^```/{y=0} y' docs/ci.md >"$work/workflow.yml"
grep -q 'name: Build planlint' "$work/workflow.yml" || { echo "FAIL: no 'Build planlint' step in docs/ci.md"; exit 1; }
awk '
  /^ *run: \|/ { block=1; ind=-1; next }
  /^ *run: / { sub(/^ *run: /, ""); print; next }
  block {
    if ($0 ~ /^ *$/) next
    match($0, /^ */); if (ind < 0) ind = RLENGTH
    if (RLENGTH < ind) { block=0; next }
    print substr($0, ind + 1)
  }' "$work/workflow.yml" >"$work/steps.sh"
[ -s "$work/steps.sh" ] || { echo "FAIL: no run: steps extracted"; exit 1; }
echo "--- the recipe's run: steps"; cat "$work/steps.sh"

cat >"$work/dry.sh" <<'DRY'
log=$DRY_LOG
sudo() { "$@"; }
apt-get() { echo "apt-get $*" >>"$log"; }
git() { echo "git $*" >>"$log"; }
cmake() { echo "cmake $*" >>"$log"; }
ninja() { echo "ninja $*" >>"$log"; }
planlint() { echo "planlint $*" >>"$log"; }
RUNNER_TEMP=$DRY_TMP
GITHUB_PATH=$DRY_TMP/github_path
set -e
DRY
cat "$work/steps.sh" >>"$work/dry.sh"
if ! DRY_LOG="$work/calls" DRY_TMP="$work" bash "$work/dry.sh"; then
  echo "FAIL: the recipe's steps do not run (dry)"; fail=1
fi
echo "--- recorded calls"; cat "$work/calls"

# 2. The packages it installs cover the build list of tools/setup-deps.sh.
installed=$(awk '$1 == "apt-get" && $2 == "install" { for (i = 3; i <= NF; i++) print $i }' "$work/calls" | grep -v '^-' | sort -u)
needed=$(sed -n '/^build_pkgs=(/,/)/p' tools/setup-deps.sh | tr -d '()' | sed 's/build_pkgs=//' | tr -s ' \n' '\n' | grep -v '^$' | sort -u)
[ -n "$needed" ] || { echo "FAIL: no build_pkgs list in tools/setup-deps.sh"; fail=1; }
for p in $needed; do
  echo "$installed" | grep -qx "$p" || { echo "FAIL: the recipe does not install $p (tools/setup-deps.sh needs it)"; fail=1; }
done
grep -q '^cmake .*-S' "$work/calls" && grep -q '^ninja .*planlint' "$work/calls" ||
  { echo "FAIL: the recipe does not configure and build planlint"; fail=1; }
grep -q '^planlint check .*--format sarif' "$work/calls" || { echo "FAIL: no SARIF step"; fail=1; }
if command -v apt-cache >/dev/null 2>&1 && [ -n "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock)" ]; then
  for p in $installed; do
    apt-cache show "$p" >/dev/null 2>&1 || { echo "FAIL: apt does not know the package $p"; fail=1; }
  done
fi

# 3. Tests never install packages (tools/setup-deps.sh does, before they run).
if grep -nE '(apt-get|apt|dnf|yum) +install|npm +(install|i) |pip3? +install' tests/*.sh tests/*.cpp tests/*.hpp tests/*.bash 2>/dev/null |
   grep -v '^tests/ci_recipe.sh:' |
   # Comments and messages that name an install are not one.
   grep -vE '^[^:]+:[0-9]+: *#|echo "[^"]*(pip|npm|apt)' |
   # python_install.sh installs the package under test (from the source tree, offline) into a
   # temporary --target folder: that is the test, not a dependency.
   grep -v -- '--no-index --target "\$tmp/site"'; then
  echo "FAIL: a test installs packages (move it to tools/setup-deps.sh)"; fail=1
fi
[ "$fail" = 0 ] && echo "ok: the recipe installs $(echo $installed | wc -w) packages, covering the build list"
exit $fail
