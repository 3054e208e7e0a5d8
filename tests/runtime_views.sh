#!/usr/bin/env bash
# Runtime views (issue 35 item 5): `show`, `parse` and `report` take --execution; without it an
# input of several SQL executions lists them by time with the trivial ones folded into one line and
# shows the others only; a tree too deep for --width is folded (reference line + "continued"
# heading) instead of cut, so every operator's name and id stay visible.
# Usage: tests/runtime_views.sh path/to/planlint   (run from the source folder)
set -u
planlint=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# 1. rt14 (a real Spark 4.1 log): 10 executions, two of them CreateViewCommand (no metrics).
log=corpus/real-runtime/rt14-kubeflow-e2e-smj-spill-spark410.zstd
out=$("$planlint" show --no-config --width 140 "$log"); rc=$?
[ $rc -le 1 ] || bad "show rt14 exit $rc"
n=$("$planlint" parse --format json "$log" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["plans"]))')
head -1 <<<"$out" | grep -q "^$n SQL executions, longest first" && ok "show lists the $n executions" || bad "no listing: $(head -3 <<<"$out")"
folded=$(grep -E '^  \+ [0-9]+ trivial executions? folded' <<<"$out")
[ -n "$folded" ] && ok "trivial executions folded: $folded" || bad "no folded line"
grep -qE '\((driver-only command|no metrics|under 1% of the longest)(, [a-z1% -]+)*\)' <<<"$folded" || bad "the folded line does not say why"
# The folded ids are named, and their trees are not shown.
for id in 4 5; do
  grep -qE "(: |, |-)$id(,|-|$)" <<<"$folded" || bad "execution $id (CreateViewCommand) not in the folded line"
  grep -q "^execution $id: " <<<"$out" && bad "the tree of folded execution $id is shown"
done
# The one with a finding (python-udf on execution 2) is never folded.
grep -q '^execution 2: collect' <<<"$out" && ok "execution 2 (a finding) is shown" || bad "execution 2 with its finding was folded"
# Listed rows: the longest first.
durs=$(sed -n '3,/^  +/p' <<<"$out" | grep -vE '^  \+' | awk 'NF>=3{print $1}' | head -3)
[ -n "$durs" ] || bad "no execution rows"
# --execution: one plan, no listing; the same id in parse; an absent id is an error (exit 2).
one=$("$planlint" show --no-config --width 140 --execution 6 "$log")
grep -q 'SQL executions' <<<"$one" && bad "--execution 6 still lists the executions"
[ "$(grep -c '^execution [0-9]*:' <<<"$one")" = 1 ] && grep -q '^execution 6:' <<<"$one" && ok "show --execution 6" ||
  bad "show --execution 6: $(grep '^execution' <<<"$one")"
"$planlint" show --no-config --execution 99 "$log" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'no SQL execution 99' "$tmp/err" && ok "show --execution 99: exit 2" || bad "show --execution 99: exit $rc $(cat "$tmp/err")"
p=$("$planlint" parse --execution 6 "$log")
[ "$(grep -c '^execution [0-9]*:' <<<"$p")" = 1 ] && ok "parse --execution 6" || bad "parse --execution 6: $(grep '^execution' <<<"$p")"
"$planlint" parse --execution 99 "$log" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'no SQL execution 99' "$tmp/err" && ok "parse --execution 99: exit 2" || bad "parse --execution 99: exit $rc"
p=$("$planlint" parse "$log")
head -1 <<<"$p" | grep -q "^$n SQL executions" && grep -q 'trivial executions folded' <<<"$p" && ok "parse lists and folds" ||
  bad "parse: no listing"
[ "$n" -ge 7 ] && ok "parse --format json keeps the $n executions" || bad "parse json holds $n plans"

# 2. report: the executions and the stage view in the page's data; --execution keeps one plan.
data() { sed -n 's/.*<script type="application\/json" id="planlint-data">\(.*\)<\/script>.*/\1/p' "$1" | head -1; }
"$planlint" report --no-config "$log" -o "$tmp/all.html" 2>/dev/null
data "$tmp/all.html" > "$tmp/all.json"
python3 - "$tmp/all.json" "$n" <<'PY' && ok "report: executions listed, trivial ones left out, stages with histograms" || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"][0]
ex = f["executions"]
assert len(ex) == int(sys.argv[2]), len(ex)
folded = [e["id"] for e in ex if e.get("trivial")]
assert "4" in folded and "5" in folded, folded
assert len(f["plans"]) == len(ex) - len(folded), (len(f["plans"]), folded)
stages = [s for p in f["plans"] for s in p.get("stages", [])]
assert stages, "no stage view"
for s in stages:
    if "hist" in s:
        assert len(s["hist"]) == 10 and 0 < sum(s["hist"]) <= s["tasks"], s
        assert s["nmax"] >= 0
assert any("hist" in s for s in stages)
assert any(p.get("query", {}).get("metrics") for p in f["plans"])
PY
"$planlint" report --no-config --execution 6 "$log" -o "$tmp/one.html" 2>/dev/null
data "$tmp/one.html" | python3 -c '
import json,sys; d=json.load(sys.stdin); f=d["files"][0]
assert "executions" not in f and len(f["plans"]) == 1 and f["plans"][0]["name"].startswith("execution 6:"), f["plans"][0]["name"]' &&
  ok "report --execution 6" || bad "report --execution 6"
"$planlint" report --no-config --execution 99 "$log" -o "$tmp/none.html" 2>/dev/null; rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/none.html" ] && ok "report --execution 99: exit 2, nothing written" || bad "report --execution 99: exit $rc"

# 3. A one-plan input is shown as before: no listing.
one=$("$planlint" show --no-config --width 120 corpus/eventlog/skewed-join.eventlog)
grep -q 'SQL executions' <<<"$one" && bad "a one-execution log gets a listing"

# 4. A left-deep chain of 40 joins: folded, never cut; every operator's name and id on screen.
python3 - "$tmp/deep.txt" <<'PY'
import sys
joins, out, details, nid = 40, ["== Physical Plan =="], [], 0
ids = list(range(1, joins + 1))
scans = list(range(joins + 1, 2 * joins + 2))
for d, j in enumerate(ids):
    out.append(("" if d == 0 else ":  " * (d - 1) + ":- ") + f"BroadcastHashJoin Inner BuildRight ({j})")
out.append(":  " * (joins - 1) + ":- " + f"Scan parquet spark_catalog.default.fact_table ({scans[0]})")
for d in range(joins - 1, -1, -1):
    out.append(":  " * d + "+- " + f"Scan parquet spark_catalog.default.dim_{d} ({scans[d + 1]})")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
for w in 60 100; do
  out=$("$planlint" show --no-config --width $w "$tmp/deep.txt")
  n=$(grep -c '' <<<"$out")
  long=$(python3 -c 'import sys; w=int(sys.argv[1]); [print(l) for l in sys.stdin.read().splitlines() if len(l) > w]' $w <<<"$out" | head -3)
  [ -z "$long" ] || bad "width $w: lines longer than $w: $long"
  grep -q -- '-- continued: BroadcastHashJoin ' <<<"$out" || bad "width $w: no continued heading"
  grep -q '↪ BroadcastHashJoin ([0-9]*)' <<<"$out" || bad "width $w: no reference line"
  missing=0
  for id in $(seq 1 81); do grep -qE "[A-Za-z0-9_] \($id\)" <<<"$out" || missing=$((missing + 1)); done
  [ $missing = 0 ] || bad "width $w: $missing operators' name and id not visible"
  cut_names=$(grep -cE '(BroadcastHashJoin|Scan parquet) [^(]*…|\([0-9]*…' <<<"$out")
  [ "$cut_names" = 0 ] || bad "width $w: $cut_names operator names or ids cut"
  [ $fail = 0 ] && ok "deep chain at width $w: $n lines, every name and id visible"
done
# Wide enough: drawn as before (no fold).
out=$("$planlint" show --no-config --width 400 "$tmp/deep.txt")
grep -q 'continued' <<<"$out" && bad "width 400: folded although it fits"

# 5. TPC-DS q72 (a real left-deep chain), when the shared corpus is there.
q72=../shared/corpus/spark/v3.2/tpcds-v1_4/q72.explain.txt
[ -f "$q72" ] || q72=/work/shared/corpus/spark/v3.2/tpcds-v1_4/q72.explain.txt
if [ -f "$q72" ]; then
  out=$("$planlint" show --no-config --width 80 "$q72")
  tree=$(sed -n '2,/^$/p' "$q72")  # the tree part of the formatted plan
  ids=$(grep -oE '\([0-9]+\)' <<<"$tree" | tr -d '()' | sort -un)
  total=$(wc -l <<<"$ids"); seen=0
  for id in $ids; do grep -qE "[A-Za-z0-9_] \($id\)" <<<"$out" && seen=$((seen + 1)); done
  # Details may be cut at the width; an operator's name and id never are.
  [ "$(grep '…$' <<<"$out" | grep -v '^!\|^ *!' | grep -cvE '[A-Za-z] \([0-9]+\)')" = 0 ] || bad "q72 at width 80: a name or id cut"
  [ "$seen" = "$total" ] && ok "q72 at width 80: all $total operators named" || bad "q72 at width 80: $seen of $total operators named"
fi
exit $fail
