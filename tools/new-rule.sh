#!/usr/bin/env bash
# Scaffold a new rule: tools/new-rule.sh NAME CODE FAMILY
#   NAME    kebab-case rule name, e.g. expand-multiplies-rows
#   CODE    its short code, e.g. PL110 (PL0xx: plan rules, PL1xx: runtime / troubleshooting rules)
#   FAMILY  plan or runtime (RuleDoc::family; diff, history and builtin rules live in lint/)
# Writes rules/<name_with_underscores>.cpp from a template (doc sections marked TODO, a check over
# ctx.active_ops()), adds the rule to rules/registry.cpp, creates corpus/rules/<NAME>/ with a
# trigger and a near-miss stub, and prints the commands that regenerate the goldens and docs.
# Refuses a name or code already in use. Run from the source folder (or set PLANLINT_ROOT).
set -euo pipefail

usage() {
  echo "usage: tools/new-rule.sh NAME CODE FAMILY   (e.g. tools/new-rule.sh expand-multiplies-rows PL110 runtime)" >&2
  exit 2
}
fail() { echo "new-rule: $*" >&2; exit 1; }

[ $# -eq 3 ] || usage
name=$1 code=$2 family_arg=$3
root=${PLANLINT_ROOT:-$(pwd)}
cd "$root"
[ -f rules/registry.cpp ] && [ -f rules/rule.hpp ] || fail "run from the planlint source folder (no rules/registry.cpp here)"

[[ $name =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || fail "NAME must be kebab-case (lower-case words joined by '-'): $name"
[[ $code =~ ^PL[0-9]{3}$ ]] || fail "CODE must be PL and three digits: $code"
case $family_arg in
  plan | Plan) family=Plan ;;
  runtime | Runtime) family=Runtime ;;
  diff | Diff | history | History | builtin | Builtin)
    fail "family $family_arg: those rules are reported by lint/ (diff, history, the engine), not by a rule in rules/" ;;
  *) fail "FAMILY must be plan or runtime: $family_arg" ;;
esac

snake=${name//-/_}
camel=$(echo "$name" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2) }')
rule_file=rules/$snake.cpp
corpus=corpus/rules/$name

# Names and codes in use: every rule doc in rules/ and lint/ spells them as string literals.
in_use() { grep -rqF --include='*.cpp' --include='*.hpp' "\"$1\"" rules lint 2>/dev/null; }
in_use "$code" && fail "code $code is already used (grep -rn '\"$code\"' rules lint)"
in_use "$name" && fail "name $name is already used (grep -rn '\"$name\"' rules lint)"
[ -e "$rule_file" ] && fail "$rule_file already exists"
[ -e "$corpus" ] && fail "$corpus already exists"
grep -q "make_$snake()" rules/registry.cpp && fail "rules/registry.cpp already registers make_$snake"

cat >"$rule_file" <<EOF
// $code $name: TODO one line on what the rule finds and why it is slow.
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinRows{"min-rows"};

RuleDoc make_doc() {
  return RuleDoc{
      .name = "$name",
      .code = "$code",
      .family = RuleFamily::$family,
      .severity = Severity::Warning,
      .summary = "TODO: one line, as \`planlint rules\` lists it",
      .what = "TODO: what the rule reports, naming the operator and the numbers it quotes.",
      .why = "TODO: why this is slow, and when it is not.",
      .example = "TODO: a plan fragment that triggers the rule",
      .use_instead = "TODO: the better query or setting",
      .evidence = "TODO: what each input format (explain text, Query Profile JSON, event log) gives the rule.",
      .thresholds = {{kMinRows, 1e6, "rows", "TODO: why this default"}},
  };
}

class $camel final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const double min_rows = ctx.threshold(kMinRows);
    for (const Operator* op : ctx.active_ops()) {  // or ctx.active_ops(OpKind::Join) for one kind
      // TODO: the condition the rule looks for; this placeholder reports every large operator.
      if (!op->rows() || *op->rows() < min_rows) continue;
      Diagnostic d = ctx.make(*op, op_ref(*op) + " TODO: what is wrong, with the key numbers");
      d.evidence.push_back({"output rows", *op->rows(), Unit::Rows});
      d.fix = "TODO: what to do instead";
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_$snake() { return std::make_unique<$camel>(); }

}  // namespace planlint
EOF

# The registry: a declaration after the last one, and the rule at the end of the list.
tmp=$(mktemp)
awk -v decl="std::unique_ptr<Rule> make_$snake();" -v push="    v.push_back(make_$snake());" '
  { lines[NR] = $0 }
  /^std::unique_ptr<Rule> make_[a-z0-9_]+\(\);$/ { last_decl = NR }
  /^    return v;$/ { ret = NR }
  END {
    if (!last_decl || !ret) exit 3
    for (i = 1; i <= NR; i++) {
      if (i == ret) print push
      print lines[i]
      if (i == last_decl) print decl
    }
  }' rules/registry.cpp >"$tmp" || { rm -f "$tmp" "$rule_file"; fail "rules/registry.cpp: no factory declaration or 'return v;' found"; }
cat "$tmp" >rules/registry.cpp
rm -f "$tmp"

mkdir -p "$corpus"
cat >"$corpus/trigger-TODO.txt" <<'EOF'
== Physical Plan ==
*(1) Project [order_id#0L, amount#2]
+- *(1) ColumnarToRow
   +- FileScan parquet shop.orders[order_id#0L,amount#2] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/wh/shop.db/orders], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<order_id:bigint,amount:double>
EOF
cp "$corpus/trigger-TODO.txt" "$corpus/near-miss-TODO.txt"

cat <<EOF
new-rule: wrote $rule_file, registered make_$snake in rules/registry.cpp, and created
  $corpus/trigger-TODO.txt and near-miss-TODO.txt (placeholder plans: replace them, and rename
  them trigger-<what>.txt / near-miss-<what>.txt; a trigger must fire, a near miss must not).
Next:
  1. write the check and the doc (every TODO in $rule_file)
  2. cmake --build build                                   (rules/*.cpp are globbed: no CMake edit)
  3. PLANLINT_UPDATE_GOLDENS=1 ./build/planlint_tests -tc='corpus/rules*'   (the .expected goldens; read them)
  4. PLANLINT_UPDATE_GOLDENS=1 ./build/planlint_tests -tc='docs/rules*'     (docs/rules/$name.md and the index)
  5. tools/update-rule-table.sh                            (the rule table of README.md, from the catalogue)
  6. cd build && ctest -j2 -LE live
EOF
