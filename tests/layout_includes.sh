#!/usr/bin/env bash
# The layers only include the layers before them (docs/architecture.md):
#   grammar/        the standard library and PEGTL only
#   support/        support/ and the standard library only
#   model/          model/, support/ and the standard library only
#   rules/          model/, support/, rules/ and the standard library only
#   parser/<reader> never lint/, rules/ or tools/
#   lint/           never tools/, and inside it, from the bottom up:
#     lint/core/      model/, support/, rules/, parser/common/ (file helpers) and lint/core/ only
#     lint/engine/    the readers, core and itself; never a front end or lint/catalog/
#     lint/output/    core and itself (pure emitters: never the engine)
#     lint/lsp|visual|diff|history/   core, the engine and itself: front ends never include each other
#     lint/mcp/       a front end over the front ends (its tools are check, diff and show): all of lint/
#                     except lint/catalog/
#     lint/catalog/   the top: registers every rule family (register_all_rules), may include all of lint/
#   A new room under lint/ must be added here, or this check fails.
# The CMake target graph enforces the model and rules lines at compile time (planlint_rules links
# only planlint_model and sees only include roots holding those two folders); this check also
# catches relative includes ("../lint/x.hpp"), which the include roots cannot stop.
# Usage: tests/layout_includes.sh [path/to/planlint]   (run from the source folder; the binary is unused)
set -u

# check DIR ALLOWED_QUOTED_REGEX STD_ONLY [DEPTH]: prints each include of DIR that breaks the rule.
# One grep per folder; the checks themselves are bash pattern matches (no process per line).
check() {
  local dir=$1 allowed=$2 std_only=$3 bad=0 line loc inc kind
  while IFS= read -r line; do
    loc=${line%%:*}
    inc=${line#*:}
    inc=${inc#*include}
    inc=${inc#"${inc%%[![:space:]]*}"}
    kind=${inc:0:1}
    inc=${inc:1}
    inc=${inc%%[>\"]*}
    if [ "$kind" = '"' ]; then
      if ! [[ $inc =~ ^($allowed) ]] || [[ $inc == *..* ]]; then
        echo "$loc: \"$inc\""; bad=1
      fi
    elif [ "$std_only" = 1 ] && ! [[ $inc =~ ^[a-z_0-9]+$ ]]; then
      # Standard library headers have no '/' and no '.' (<vector>, <string_view>).
      echo "$loc: <$inc>"; bad=1
    fi
  done < <(find "$dir" -maxdepth "${4:-1}" -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z |
           xargs -0 -r grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]')
  return $bad
}

# Self-test: the check must catch a rule that includes a reader, a relative include and a
# non-standard library, and accept a clean rule.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "rules/rule.hpp"\n#include "model/plan.hpp"\n#include <vector>\n' > "$tmp/ok.cpp"
check "$tmp" 'model/|support/|rules/' 1 >/dev/null || { echo "FAIL: self-test rejected a clean file"; exit 1; }
for bad in '#include "parser/explain/explain_ops.hpp"' '#include "../lint/engine/engine.hpp"' \
           '#include "rules/../lint/x.hpp"' '#include <nlohmann/json.hpp>'; do
  printf '%s\n' "$bad" > "$tmp/ok.cpp"
  if check "$tmp" 'model/|support/|rules/' 1 >/dev/null; then echo "FAIL: self-test accepted $bad"; exit 1; fi
done

# Self-test of the lint rooms: a layer crossed inside lint/ is caught.
core_ok='model/|support/|rules/|parser/common/|lint/core/'
frontend_ok() { echo "grammar/|parser/|model/|support/|rules/|lint/core/|lint/engine/|lint/$1/"; }
printf '#include "lint/core/config.hpp"\n#include "rules/catalog.hpp"\n' > "$tmp/ok.cpp"
check "$tmp" "$core_ok" 0 >/dev/null || { echo "FAIL: self-test rejected a clean core file"; exit 1; }
for bad in '#include "lint/engine/engine.hpp"' '#include "lint/output/output.hpp"' '#include "parser/registry/parse.hpp"'; do
  printf '%s\n' "$bad" > "$tmp/ok.cpp"
  if check "$tmp" "$core_ok" 0 >/dev/null; then echo "FAIL: self-test: lint/core accepted $bad"; exit 1; fi
done
for bad in '#include "lint/output/output.hpp"' '#include "lint/mcp/mcp_server.hpp"' '#include "lint/catalog/all_rules.hpp"'; do
  printf '%s\n' "$bad" > "$tmp/ok.cpp"
  if check "$tmp" "$(frontend_ok diff)" 0 >/dev/null; then echo "FAIL: self-test: lint/diff accepted $bad"; exit 1; fi
done

fail=0
check grammar 'a^' 0 || fail=1   # grammar/ includes no project header at all
if grep -h '#include <' grammar/*.hpp | grep -v -E '<(tao/pegtl[^>]*|[a-z_0-9]+)>'; then fail=1; fi
check support 'support/' 1 || fail=1
check model 'model/|support/' 1 || fail=1
check rules 'model/|support/|rules/' 1 || fail=1
for d in parser/*/; do
  check "$d" 'grammar/|parser/|model/|support/' 0 2 || fail=1
done
# One public header per reader: a reader includes the registry's face (parse.hpp) never; a
# reader's entry points are in its own folder's header.
if grep -rn --include='*.cpp' --include='*.hpp' '#include "parser/registry/parse.hpp"' parser \
    | grep -v '^parser/registry/'; then
  echo "FAIL: a reader includes parser/registry/parse.hpp (use its own header or parser/registry/detect.hpp)"
  fail=1
fi
check lint 'grammar/|parser/|model/|support/|rules/|lint/' 0 2 || fail=1
for d in lint/*/; do
  room=$(basename "$d")
  case $room in
    core) check "$d" "$core_ok" 0 || fail=1 ;;
    engine) check "$d" 'grammar/|parser/|model/|support/|rules/|lint/core/|lint/engine/' 0 || fail=1 ;;
    output) check "$d" 'model/|support/|rules/|lint/core/|lint/output/' 0 || fail=1 ;;
    lsp | visual | diff | history) check "$d" "$(frontend_ok "$room")" 0 || fail=1 ;;
    mcp) check "$d" 'grammar/|parser/|model/|support/|rules/|lint/(core|engine|output|lsp|visual|diff|history|mcp)/' 0 || fail=1 ;;
    catalog) ;;  # the top of lint/: anything in lint/ (checked above: never tools/)
    *) echo "$d: a lint room tests/layout_includes.sh does not place in the layers"; fail=1 ;;
  esac
done
if [ "$fail" = 1 ]; then
  echo "FAIL: the includes above cross a layer (docs/architecture.md)"
  exit 1
fi
echo "ok: grammar, support, model, rules, readers, lint and the lint rooms include only earlier layers"
