#!/usr/bin/env bash
# `planlint report` renders in headless Chromium: the page's script runs without errors, draws
# every operator of the profile and lists its findings (the script writes data-ok, data-ops and
# data-findings on <body> after rendering). Also times opening a report of a generated
# 1,000-operator plan (printed, not asserted). Needs Debian `chromium` (tools/setup-deps.sh);
# without it: skip (exit 77), or fail under CI=true.
# Usage: tests/report_chromium.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
build=$(dirname "$planlint")

. tests/shell_lib.bash
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium is not installed"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chrome() {  # chrome OUT ERR ARGS...: headless, no network services, a fresh profile
  local out=$1 err=$2; shift 2
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$work")" \
    --enable-logging=stderr --v=0 "$@" >"$out" 2>"$err"
}
fail=0
attr() { sed -n "s/.*<body[^>]*\b$1=\"\([^\"]*\)\".*/\1/p" "$2" | head -1; }

# 1. A profile with metrics, Photon and JVM operators and findings.
profile=corpus/rules/native-engine-fallback/trigger-profile-jvm-aggregate.json
"$planlint" report "$profile" -o "$work/profile.html" 2>/dev/null
expected_ops=$("$planlint" parse --format json "$profile" 2>/dev/null |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["plans"][0]["operator_count"])' 2>/dev/null)
expected_findings=$("$planlint" check --format json "$profile" 2>/dev/null |
  python3 -c 'import json,sys; d=json.load(sys.stdin); f=d["files"][0] if "files" in d else d; print(len(f.get("diagnostics", f.get("findings", []))))' 2>/dev/null)
chrome "$work/profile.dom" "$work/profile.err" --dump-dom "file://$work/profile.html"
ok=$(attr data-ok "$work/profile.dom"); ops=$(attr data-ops "$work/profile.dom"); findings=$(attr data-findings "$work/profile.dom")
echo "profile: data-ok=$ok data-ops=$ops (expected ${expected_ops:-?}) data-findings=$findings (expected ${expected_findings:-?})"
[ "$ok" = 1 ] || { echo "FAIL: the page's script did not finish"; fail=1; }
[ -n "$ops" ] && [ "$ops" -gt 0 ] || { echo "FAIL: no operator drawn"; fail=1; }
[ -n "$findings" ] && [ "$findings" -gt 0 ] || { echo "FAIL: no finding listed"; fail=1; }
if [ -n "$expected_ops" ] && [ "$ops" != "$expected_ops" ]; then echo "FAIL: drew $ops operators, the plan has $expected_ops"; fail=1; fi
if [ -n "$expected_findings" ] && [ "$findings" != "$expected_findings" ]; then echo "FAIL: listed $findings findings, check reports $expected_findings"; fail=1; fi
grep -q 'class="n ' "$work/profile.dom" || { echo "FAIL: no operator box in the DOM"; fail=1; }
grep -q 'native-engine-fallback' "$work/profile.dom" || { echo "FAIL: the finding is not shown"; fail=1; }
# The top-operators table lists the hottest operator first, and the page opened on it.
hot=$(attr data-hot "$work/profile.dom")
[ -n "$hot" ] || { echo "FAIL: the page did not open on the hottest operator (no data-hot)"; fail=1; }
grep -q '<section id="top">' "$work/profile.dom" || { echo "FAIL: no top-operators table"; fail=1; }
grep -q "<tr class=\"[a-z0-9 ]*hot\" data-i=\"$hot\"" "$work/profile.dom" ||
  { echo "FAIL: the hottest operator ($hot) is not marked in the top-operators table"; fail=1; }
if grep -E 'Uncaught|SyntaxError|TypeError|ReferenceError' "$work/profile.err"; then echo "FAIL: script errors"; fail=1; fi

# 2. A text plan (structure only).
plan=corpus/rules/exploding-join/trigger-formatted-cartesian.txt
"$planlint" report "$plan" -o "$work/plan.html" 2>/dev/null
chrome "$work/plan.dom" "$work/plan.err" --dump-dom "file://$work/plan.html"
ok=$(attr data-ok "$work/plan.dom"); ops=$(attr data-ops "$work/plan.dom")
echo "text plan: data-ok=$ok data-ops=$ops"
[ "$ok" = 1 ] && [ "$ops" = 5 ] || { echo "FAIL: the text plan's 5 operators are not drawn"; fail=1; }
if grep -E 'Uncaught' "$work/plan.err"; then echo "FAIL: script errors"; fail=1; fi

# 2b. An event log of several SQL executions: the executions table with the trivial ones folded,
# and the stage view with a task-time histogram per stage.
log=corpus/real-runtime/rt14-kubeflow-e2e-smj-spill-spark410.zstd
"$planlint" report --no-config "$log" -o "$work/log.html" 2>/dev/null
chrome "$work/log.dom" "$work/log.err" --dump-dom "file://$work/log.html"
ok=$(attr data-ok "$work/log.dom"); stages=$(attr data-stages "$work/log.dom"); folded=$(attr data-folded "$work/log.dom")
echo "event log: data-ok=$ok data-stages=$stages data-folded=$folded"
[ "$ok" = 1 ] || { echo "FAIL: the event log's page did not finish"; fail=1; }
[ -n "$stages" ] && [ "$stages" -gt 0 ] || { echo "FAIL: no stage rows"; fail=1; }
[ -n "$folded" ] && [ "$folded" -ge 2 ] || { echo "FAIL: the trivial executions are not folded"; fail=1; }
grep -q '<section class="block" id="executions">' "$work/log.dom" || { echo "FAIL: the executions table is hidden"; fail=1; }
grep -q 'trivial executions folded' "$work/log.dom" || { echo "FAIL: no folded line"; fail=1; }
grep -q '<section class="block" id="query">' "$work/log.dom" || { echo "FAIL: the query's metrics are hidden"; fail=1; }
if grep -E 'Uncaught|SyntaxError|TypeError|ReferenceError' "$work/log.err"; then echo "FAIL: script errors"; fail=1; fi
# A skewed join: every stage with timed tasks has its histogram, the straggler's stage is marked.
"$planlint" report --no-config corpus/eventlog/skewed-join.eventlog -o "$work/skew.html" 2>/dev/null
chrome "$work/skew.dom" "$work/skew.err" --dump-dom "file://$work/skew.html"
stages=$(attr data-stages "$work/skew.dom")
hists=$(grep -o '<svg class="hist"' "$work/skew.dom" | wc -l)
echo "skewed join: data-stages=$stages histograms=$hists"
[ -n "$stages" ] && [ "$stages" -gt 0 ] && [ "$hists" -gt 0 ] || { echo "FAIL: no stage histogram"; fail=1; }
grep -q '<tr class="skew">' "$work/skew.dom" || { echo "FAIL: the skewed stage is not marked"; fail=1; }
if grep -E 'Uncaught|SyntaxError|TypeError|ReferenceError' "$work/skew.err"; then echo "FAIL: script errors"; fail=1; fi

# 3. Time to open a report of 1,000 operators (not asserted: machines differ).
if [ -x "$build/planlint_bench" ]; then
  "$build/planlint_bench" gen formatted -n 1000 -o "$work/big.txt" || { echo "FAIL: planlint_bench gen formatted -n 1000"; fail=1; }
else
  python3 - "$work/big.txt" <<'PY'
import sys
# A left-deep join tree of 1,000 operators: each join takes the tree so far and a scan.
n, lines, details, ident = 1000, [], [], [0]
def nid():
    ident[0] += 1
    return ident[0]
joins = (n - 1) // 2
ids = []
for d in range(joins):
    ids.append(nid())
scans = [nid() for _ in range(joins + 1)]
out = ["== Physical Plan =="]
for d, j in enumerate(ids):
    out.append(("" if d == 0 else ":  " * (d - 1) + ":- ") + f"BroadcastHashJoin Inner BuildRight ({j})")
out.append(":  " * (joins - 1) + ":- " + f"Scan parquet t{scans[0]} ({scans[0]})")
for d in range(joins, 0, -1):
    out.append(":  " * (d - 1) + "+- " + f"Scan parquet t{scans[d]} ({scans[d]})")
out.append("")
for j in ids:
    out += ["", f"({j}) BroadcastHashJoin", "Left keys [1]: [k#1]", "Right keys [1]: [k#1]", "Join type: Inner", "Join condition: None"]
for s in scans:
    out += ["", f"({s}) Scan parquet t{s}", "Output [1]: [k#1]", "ReadSchema: struct<k:int>"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
fi
"$planlint" report "$work/big.txt" -o "$work/big.html" 2>/dev/null
start=$(date +%s.%N)
chrome "$work/big.dom" "$work/big.err" --dump-dom "file://$work/big.html"
end=$(date +%s.%N)
bigops=$(attr data-ops "$work/big.dom")
echo '<!DOCTYPE html><title>empty</title>' >"$work/empty.html"
s0=$(date +%s.%N); chrome "$work/empty.dom" "$work/empty.err" --dump-dom "file://$work/empty.html"; s1=$(date +%s.%N)
echo "1,000-operator report: $(wc -c <"$work/big.html") bytes, drew ${bigops:-?} operators, headless open+render+dump $(python3 -c "print(f'{$end-$start:.2f}')") s (an empty page: $(python3 -c "print(f'{$s1-$s0:.2f}')") s; the page's script: $(attr data-render-ms "$work/big.dom") ms)"
[ "$(attr data-ok "$work/big.dom")" = 1 ] || { echo "FAIL: the large report did not render"; fail=1; }
if grep -E 'Uncaught' "$work/big.err"; then echo "FAIL: script errors in the large report"; fail=1; fi
exit $fail
