#!/usr/bin/env bash
# The rule table of README.md is the rule catalogue's (`planlint rules --readme-table`, written by
# tools/update-rule-table.sh). First checks that the check notices a stale table and that the
# update repairs it, on a copy; then checks README.md itself.
# Usage: tests/rule_table.sh path/to/planlint   (run from the source folder)
set -u
planlint=${1:?usage: tests/rule_table.sh path/to/planlint}
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

table=$("$planlint" rules --readme-table)
check "the table lists every documented finding" '[ "$(grep -c "^| PL" <<<"$table")" = "$("$planlint" rules --format json | grep -c "\"code\":")" ]'
check "the table has the plan, built-in, diff and history findings" '[[ $table == *"| PL001 |"* && $table == *"| PL900 |"* && $table == *"| PLD001 |"* && $table == *"| PLH001 |"* ]]'
check "each plan rule links its page" 'grep -q "^| PL104 | \[\`disk-spill\`\](docs/rules/disk-spill.md) | warning | " <<<"$table" && [ -f docs/rules/disk-spill.md ]'

# The check on a copy: a stale row fails it, the update repairs it, text around the table stays.
sed -n '/^<!-- rule-table:begin/,/^<!-- rule-table:end -->$/!p' README.md >"$work/outside.md"
sed 's/^| PL104 | .*$/| PL104 | disk-spill | an old hand-written line |/' README.md >"$work/README.md"
check "a stale table fails the check" '! bash tools/update-rule-table.sh --check "$planlint" "$work/README.md" >/dev/null 2>&1'
bash tools/update-rule-table.sh "$planlint" "$work/README.md" >/dev/null
check "the update makes the check pass" 'bash tools/update-rule-table.sh --check "$planlint" "$work/README.md"'
check "the update leaves the rest of the file alone" 'sed -n "/^<!-- rule-table:begin/,/^<!-- rule-table:end -->\$/!p" "$work/README.md" | cmp -s - "$work/outside.md"'
printf '# no markers\n' >"$work/bare.md"
check "a file without the markers is refused" '! bash tools/update-rule-table.sh --check "$planlint" "$work/bare.md" >/dev/null 2>&1'

check "README.md holds the catalogue's table (else run tools/update-rule-table.sh)" 'bash tools/update-rule-table.sh --check "$planlint" README.md'
exit $fail
