#!/usr/bin/env bash
# Rewrites the rule table of README.md, between the lines `<!-- rule-table:begin ... -->` and
# `<!-- rule-table:end -->`, with `planlint rules --readme-table` (the rule catalogue: every
# documented finding, its code, name, severity and summary). Run it after adding or renaming a rule,
# or after changing a rule's summary; tests/rule_table.sh fails while the two differ.
# Usage: tools/update-rule-table.sh [--check] [PLANLINT] [README]
#   --check   change nothing: exit 1 and print the difference when README's table is not the catalogue's
#   PLANLINT  the binary (default build/planlint); README the file (default README.md)
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
planlint=${1:-build/planlint}
readme=${2:-README.md}
begin='<!-- rule-table:begin'
end='<!-- rule-table:end -->'
die() { echo "update-rule-table: $*" >&2; exit 2; }
[ -x "$planlint" ] || die "no planlint binary at $planlint (build first, or pass its path)"
[ -f "$readme" ] || die "no $readme"
[ "$(grep -c "^$begin" "$readme")" = 1 ] && [ "$(grep -cxF "$end" "$readme")" = 1 ] ||
  die "$readme must hold one '$begin ... -->' line and one '$end' line"

table=$(mktemp)
new=$(mktemp)
trap 'rm -f "$table" "$new"' EXIT
"$planlint" rules --readme-table >"$table" || die "$planlint rules --readme-table failed"
[ -s "$table" ] || die "$planlint rules --readme-table printed nothing"
awk -v begin="$begin" -v end="$end" -v table="$table" '
  index($0, begin) == 1 { print; while ((getline line < table) > 0) print line; skip = 1; next }
  $0 == end { skip = 0 }
  !skip { print }' "$readme" >"$new"

if [ $check = 1 ]; then
  if ! diff -u "$readme" "$new"; then
    echo "update-rule-table: the rule table of $readme differs from the rule catalogue; run tools/update-rule-table.sh" >&2
    exit 1
  fi
  exit 0
fi
if cmp -s "$readme" "$new"; then
  echo "update-rule-table: $readme is up to date"
else
  cat "$new" >"$readme"
  echo "update-rule-table: rewrote the rule table of $readme"
fi
