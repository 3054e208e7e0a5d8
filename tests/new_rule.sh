#!/usr/bin/env bash
# tools/new-rule.sh in a temporary copy of the sources it reads and writes (rules/, lint/,
# corpus/rules/): it refuses a code, a name or a family it must not take, and otherwise writes the
# rule, the registry lines and the corpus stubs.
# Usage: tests/new_rule.sh [path/to/planlint]   (run from the source folder; the binary is unused)
set -u
fail=0
src=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/tools"
cp -r "$src/rules" "$src/lint" "$work/"
cp -r "$src/corpus/rules" "$work/corpus/"
cp "$src/tools/new-rule.sh" "$work/tools/"
cd "$work" || exit 1
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
refuses() {  # label, expected message part, args...
  local label=$1 want=$2
  shift 2
  local out
  if out=$(bash tools/new-rule.sh "$@" 2>&1); then
    echo "FAIL: $label: accepted ($out)"; fail=1
  elif [[ $out != *"$want"* ]]; then
    echo "FAIL: $label: message '$out' lacks '$want'"; fail=1
  else
    echo "ok: $label"
  fi
}

before=$(cat rules/registry.cpp)
refuses "a code in use" "code PL104 is already used" expand-multiplies-rows PL104 runtime
refuses "a name in use" "name disk-spill is already used" disk-spill PL190 runtime
refuses "a code used by lint/ (a builtin rule)" "code PL900 is already used" expand-multiplies-rows PL900 runtime
refuses "a bad name" "kebab-case" Expand_Rows PL190 runtime
refuses "a bad code" "CODE must be" expand-multiplies-rows X110 runtime
refuses "a family outside rules/" "reported by lint/" expand-multiplies-rows PL190 diff
refuses "a missing argument" "usage" expand-multiplies-rows PL190
check "refusals leave the registry alone" '[ "$(cat rules/registry.cpp)" = "$before" ]'
check "refusals write no rule" '[ ! -e rules/expand_multiplies_rows.cpp ] && [ ! -e corpus/rules/expand-multiplies-rows ]'

out=$(bash tools/new-rule.sh expand-multiplies-rows PL190 runtime 2>&1) || { echo "FAIL: scaffold: $out"; fail=1; }
echo "$out"
f=rules/expand_multiplies_rows.cpp
check "writes the rule" '[ -f $f ]'
check "the rule has its name, code and family" 'grep -q "\.name = \"expand-multiplies-rows\"," $f && grep -q "\.code = \"PL190\"," $f && grep -q "\.family = RuleFamily::Runtime," $f'
check "the rule reads a typed threshold over active_ops" 'grep -q "ctx.threshold(kMinRows)" $f && grep -q "ctx.active_ops()" $f && grep -q "class ExpandMultipliesRows final" $f'
check "the doc sections are marked TODO" '[ "$(grep -c "TODO" $f)" -ge 6 ]'
check "registry declares the factory once" '[ "$(grep -c "^std::unique_ptr<Rule> make_expand_multiplies_rows();$" rules/registry.cpp)" = 1 ]'
check "registry lists the rule once, before return" '[ "$(grep -c "v.push_back(make_expand_multiplies_rows());" rules/registry.cpp)" = 1 ] && grep -A1 "v.push_back(make_expand_multiplies_rows());" rules/registry.cpp | grep -q "return v;"'
check "trigger and near-miss stubs" '[ -s corpus/rules/expand-multiplies-rows/trigger-TODO.txt ] && [ -s corpus/rules/expand-multiplies-rows/near-miss-TODO.txt ]'
check "tells the golden, docs and README table commands" '[[ $out == *"PLANLINT_UPDATE_GOLDENS=1"*"corpus/rules*"* ]] && [[ $out == *"docs/rules*"* ]] && [[ $out == *"tools/update-rule-table.sh"* ]]'
refuses "the same rule twice" "already used" expand-multiplies-rows PL191 runtime
refuses "its code twice" "code PL190 is already used" other-rule PL190 plan

# The written rule compiles against the rule headers (syntax only), when a compiler is at hand.
if command -v c++ >/dev/null; then
  check "the written rule compiles" 'c++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$work" -I"$src" "$f" 2>"$work/cc.log" || { cat "$work/cc.log"; false; }'
fi

exit $fail
