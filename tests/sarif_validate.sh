#!/usr/bin/env bash
# planlint's SARIF output passes Microsoft's SARIF validator (`sarif-multitool validate`).
# The validator comes from npm (@microsoft/sarif-multitool-linux, a self-contained Linux x64 build);
# tools/test-deps-npm.sh (called by tools/setup-deps.sh) installs it once, before the tests run.
# Without it: skip (exit 77), or fail under CI=true.
# Usage: tests/sarif_validate.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
build=$(dirname "$planlint")
. tests/shell_lib.bash
tool=$(sarif_multitool)
[ -e "$tool" ] || skip "the SARIF validator is not installed at $tool"
"$tool" --version >/dev/null 2>&1 || skip "the SARIF validator does not start on this machine ($tool --version failed)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A parse error, an unused and an unknown suppression (results with and without an operator),
# a file name that needs percent-encoding, and every plan of the corpus (rule findings).
cat >"$work/broken plan.txt" <<'PLAN'
# planlint: disable=no-such-rule
# planlint: disable=parse-error operator=7
== Physical Plan ==
AdaptiveSparkPlan (9)
+- SortMergeJoin Inner (8
PLAN
inputs=("$work/broken plan.txt")
[ -d corpus ] && inputs+=(corpus)
# corpus/real/060 is a real paste that starts inside the tree: unreadable on purpose (exit 2), as is
# corpus/real-runtime/rt17 (one History Server node, a WholeStageCodegen wrapper: no operator).
# corpus/real files labelled known_miss "read" (issue 34: first contact, not read yet) exit 2 too.
# corpus/live keeps, beside each run's plans, its query result and run record (no plans), and
# explain("codegen") of plans Spark did not codegen ("Found 0 WholeStageCodegen subtrees.").
unread=()
while read -r f; do unread+=(--exclude "$f"); done < <(
  awk '/^file = /{f=$3; gsub(/"/,"",f)} /^known_miss = .*"read"/{print f}' corpus/real/labels.toml)
# With --sarif-help-uri, so that each rule's helpUri (and PL007's deprecatedNames) is validated too.
"$planlint" check --no-config --exit-zero --format sarif -o "$work/planlint.sarif" \
  --sarif-help-uri 'https://example.org/planlint/docs/rules/{name}.md' \
  --exclude "060-photon-hand-wrapped-partial-paste.txt" --exclude "rt17-hs-fragment-*.json" "${unread[@]}" \
  --exclude "*.parse.json" \
  --exclude "result.txt" --exclude "run.json" --exclude "known-gaps.txt" --exclude "history-applications.json" --exclude "*-codegen.txt" "${inputs[@]}"
rc=$?
if [ $rc -ne 0 ]; then echo "FAIL: planlint check exited $rc"; exit 1; fi
results=$(grep -c '"ruleId"' "$work/planlint.sarif")
echo "planlint wrote $results results"
if [ "$results" -lt 2 ]; then echo "FAIL: expected results in the SARIF log"; exit 1; fi

"$tool" validate "$work/planlint.sarif" -o "$work/validation.sarif" >"$work/validate.log" 2>&1
rc=$?
cat "$work/validate.log"
# SARIF2005 asks for the tool's informationUri: planlint has no public home page yet. That warning
# is also the proof that the validator analysed the log at all: sarif-multitool 5.7 says "Analysis
# completed successfully" with no result for a log it cannot deserialize (e.g. a bad enum value).
if ! grep -q 'planlint.sarif([0-9,]*): warning SARIF2005' "$work/validate.log"; then
  echo "FAIL: the validator did not analyse planlint's log (no SARIF2005 result; if planlint now has an"
  echo "informationUri, look for another sign that the log was read)"
  exit 1
fi
problems=$(grep -E ': (error|warning) [A-Z]+[0-9]+:' "$work/validate.log" | grep -v ' SARIF2005: ')
if [ $rc -ne 0 ] || [ -n "$problems" ]; then
  echo "FAIL: the SARIF validator reported problems (exit $rc):"
  echo "$problems"
  exit 1
fi
echo "OK: SARIF output is valid"
