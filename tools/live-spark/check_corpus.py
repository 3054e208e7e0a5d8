#!/usr/bin/env python3
"""Hold planlint to the ground truth of corpus/live (tools/live-spark/scenarios.toml).

Usage: check_corpus.py PLANLINT [--corpus corpus/live] [--manifest tools/live-spark/scenarios.toml]
                       [--gaps corpus/live/known-gaps.txt] [--first-contact] [--verbose] [--only A,B]

For every Spark version folder of the corpus and every scenario of the manifest, runs
`planlint check --format json` on each committed artefact and records a disagreement when
  missed    a rule the manifest says must fire on this kind of artefact is not reported
  false     a rule the manifest says must not fire is reported
  cross     a rule reported on the final plan text (final-formatted) is not reported on the event
            log, History Server answer or live driver answer of the same run, or the event log
            and a REST answer (History Server or driver) disagree on a runtime finding
            (skew-not-handled excepted: only event logs carry task times)
  operators the final plan's operators (names and counts) differ between final-formatted, the
            event logs, the History Server answers and the driver answers of the run
  unread    planlint could not read the artefact (parse-error) or the capture is missing
  says      a finding of a rule does not say what the manifest's `says` wants ("RULE@KINDS~TEXT":
            on every artefact of those kinds where RULE is reported, one of its findings has TEXT
            in its message or fix, e.g. the table format's own remedy), or says what `never_says`
            forbids ("RULE~TEXT": on no artefact)
Every disagreement must be listed in the known-gaps file, and every listed gap must still happen.
Known-gaps lines: VERSION SCENARIO ARTEFACT RULE WHAT | reason; each field a glob, or globs
separated by commas (e.g. "eventlog*,history*").
--first-contact ignores the gaps file and prints how many manifest labels held, per artefact kind
and Spark version. Exit 0 when all is as the gaps file says, 1 otherwise.
"""
import argparse
import collections
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys
import tomllib

TEXT_KINDS = ["explain-simple", "explain-extended", "explain-formatted", "explain-cost", "explain-codegen",
              "final-formatted", "final-codegen"]
# Rules that say something about how Spark printed the plan, not about the query: never compared.
NOT_COMPARED = {"truncated-metadata", "parse-error"}
EVENTLOG_ONLY = {"skew-not-handled"}  # task times: only event logs carry them
REST_SOURCES = ["history", "driver"]  # folders of /api/v1 answers: History Server, live driver
RUNTIME_KINDS = ("eventlog", "history", "history-exec", "driver", "driver-exec")


def artefacts(d):
    """(kind, label, path) of every artefact in a scenario's capture folder."""
    out = []
    for k in TEXT_KINDS:
        p = os.path.join(d, k + ".txt")
        if os.path.exists(p):
            out.append((k, k, p))
    run = {}
    if os.path.exists(os.path.join(d, "run.json")):
        run = json.load(open(os.path.join(d, "run.json")))
    for variant, info in run.get("variants", {}).items():
        p = os.path.join(d, "eventlog", info.get("eventlog", "?"))
        if os.path.exists(p):
            out.append(("eventlog", f"eventlog:{variant}", p))
    # The same two REST answers, from the History Server (history/) and from the live driver's UI
    # before spark.stop() (driver/): one kind each
    for src in REST_SOURCES:
        h = os.path.join(d, src, "sql.json")
        if os.path.exists(h):
            out.append((src, src, h))
        for p in sorted(glob.glob(os.path.join(d, src, "sql-*.json"))):
            out.append((src + "-exec", src + "-exec", p))
    return out


def said(diag):
    """What a finding says: its message and its fix."""
    return (diag.get("message") or "") + "\n" + (diag.get("fix") or "")


def planlint_json(binary, args, path):
    """planlint's JSON report of one file, or (None, error message) when it refused the file."""
    r = subprocess.run([binary, "check", "--no-config", "--format", "json", "--exit-zero", *args, path],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        return None, f"exit {r.returncode}: {r.stderr.strip()[:200]}"
    files = json.loads(r.stdout)["files"]
    return (files[0] if files else None), ""


def no_plan(path):
    """A codegen explain of a plan with no whole-stage codegen (AQE before execution): no operator to read."""
    with open(path, errors="replace") as fh:
        return fh.read().strip() == "Found 0 WholeStageCodegen subtrees."


def final_operators(binary, path):
    """Operator names of the last plan in the file, its final adaptive plan (no initial plan)."""
    r = subprocess.run([binary, "parse", "--format", "json", path], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    d = json.loads(r.stdout)
    if isinstance(d, list):
        d = d[-1]
    plans, ops = d.get("plans") or [], d.get("operators") or []
    if not plans:
        return None
    # the operators of all plans, one plan after the other; indexes count within a plan
    start = sum(p["operator_count"] for p in plans[:-1])
    ops = ops[start:start + plans[-1]["operator_count"]]
    seen, names, todo = set(), collections.Counter(), list(plans[-1]["roots"])
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        o = ops[i]
        if o.get("section") == "initial":
            continue
        names[o["name"]] += 1
        todo.extend(o.get("children") or [])
    return names


def load_gaps(path):
    gaps = []
    if path and os.path.exists(path):
        for n, line in enumerate(open(path), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, _, reason = line.partition("|")
            f = head.split()
            if len(f) != 5 or not reason.strip():
                raise SystemExit(f"{path}:{n}: want 'VERSION SCENARIO ARTEFACT RULE WHAT | reason': {line}")
            gaps.append({"key": f, "reason": reason.strip(), "line": n, "used": 0})
    return gaps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("planlint")
    ap.add_argument("--corpus", default="corpus/live")
    ap.add_argument("--manifest", default="tools/live-spark/scenarios.toml")
    ap.add_argument("--gaps", default=None)
    ap.add_argument("--first-contact", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated scenarios (a fresh capture of a few): stale gaps are not reported")
    a = ap.parse_args()
    gaps_path = a.gaps or os.path.join(a.corpus, "known-gaps.txt")
    man = tomllib.load(open(a.manifest, "rb"))
    kinds = man["kinds"]
    defaults = man["defaults"]
    gaps = [] if a.first_contact else load_gaps(gaps_path)
    versions = sorted(v for v in os.listdir(a.corpus) if re.fullmatch(r"\d+\.\d+\.\d+", v))
    if not versions:
        raise SystemExit(f"no Spark version folder in {a.corpus}")
    disagreements = []  # (version, scenario, artefact, rule, what, detail)
    held = collections.Counter()  # (version, kind) -> labels held
    total = collections.Counter()
    fire_held = collections.Counter()  # the same for must-fire labels alone
    fire_total = collections.Counter()
    asserted = collections.defaultdict(set)  # rule -> kinds some must-fire label asserts it on
    seen_kinds = set()
    runs, driver_runs, no_driver = 0, 0, []  # scenario captures, those with the driver's answers
    for version in versions:
        for name, sc in man["scenario"].items():
            if a.only and name not in a.only.split(","):
                continue
            # A partial version folder (manifest `partial_versions`: captured for a few scenarios
            # only, e.g. Delta and Iceberg on the newest Spark line they build for) holds the
            # scenarios that name it in `versions`, not every scenario.
            listed = sc.get("versions")
            if version not in (listed if listed is not None else
                               ([] if version in man.get("partial_versions", []) else [version])):
                continue
            d = os.path.join(a.corpus, version, name)
            over = sc.get("version", {}).get(version, {})
            fire = over.get("fire", sc.get("fire", []))
            allow = set(sc.get("allow", []))
            fire_rules = {f.split("@")[0] for f in fire}
            not_fire = set(over.get("not_fire", sc.get("not_fire", [])))
            not_fire |= {r for r in defaults["not_fire"] if r not in fire_rules and r not in allow}
            sets = [x for s in defaults.get("set", []) + sc.get("set", []) for x in ("--set", s)]
            arts = artefacts(d)
            runs += 1
            if any(k == "driver" for k, _, _ in arts):
                driver_runs += 1
            else:
                no_driver.append(f"{version}/{name}")
            if not arts:
                disagreements.append((version, name, "*", "*", "unread", "no capture"))
                continue
            rules = {}
            texts = {}  # label -> rule -> what its findings say
            for kind, label, p in arts:
                f, err = planlint_json(a.planlint, sets, p)
                if kind.endswith("codegen") and no_plan(p):
                    if f is not None:  # nothing to read: planlint must say so (exit 2), not invent a plan
                        disagreements.append((version, name, label, "parse-error", "unread", "read a plan in 'Found 0 WholeStageCodegen subtrees.'"))
                elif f is None or any(x["rule"] == "parse-error" for x in f["diagnostics"]):
                    msg = "; ".join(x["message"] for x in (f or {}).get("diagnostics", []) if x["rule"] == "parse-error")
                    disagreements.append((version, name, label, "parse-error", "unread", (msg or err)[:200]))
                rules[label] = {x["rule"] for x in (f or {}).get("diagnostics", [])}
                texts[label] = collections.defaultdict(list)
                for x in (f or {}).get("diagnostics", []):
                    texts[label][x["rule"]].append(said(x))
            # manifest labels
            for entry in fire:
                rule, _, ks = entry.partition("@")
                want = set()
                for k in (ks or "plan").split(","):
                    want |= set(kinds.get(k, [k]))
                asserted[rule] |= want
                for kind, label, _ in arts:
                    seen_kinds.add(kind)
                    if kind not in want:
                        continue
                    total[(version, kind)] += 1
                    fire_total[(version, kind)] += 1
                    if rule in rules[label]:
                        held[(version, kind)] += 1
                        fire_held[(version, kind)] += 1
                    else:
                        disagreements.append((version, name, label, rule, "missed", ""))
            # what the findings say (a remedy in the table format's own words)
            for entry in sc.get("says", []):
                head, _, text = entry.partition("~")
                rule, _, ks = head.partition("@")
                want = set()
                for k in (ks or "plan").split(","):
                    want |= set(kinds.get(k, [k]))
                for kind, label, _ in arts:
                    if kind not in want or rule not in rules[label]:
                        continue  # a missed rule is already a disagreement of its own
                    total[(version, kind)] += 1
                    if any(text in t for t in texts[label][rule]):
                        held[(version, kind)] += 1
                    else:
                        disagreements.append((version, name, label, rule, "says", f"no finding says {text!r}"))
            for entry in sc.get("never_says", []):
                rule, _, text = entry.partition("~")
                for kind, label, _ in arts:
                    if rule not in rules[label]:
                        continue
                    total[(version, kind)] += 1
                    if any(text in t for t in texts[label][rule]):
                        disagreements.append((version, name, label, rule, "says", f"a finding says {text!r}"))
                    else:
                        held[(version, kind)] += 1
            for kind, label, _ in arts:
                for rule in sorted(not_fire):
                    total[(version, kind)] += 1
                    if rule in rules[label]:
                        disagreements.append((version, name, label, rule, "false", ""))
                    else:
                        held[(version, kind)] += 1
            # cross-format: the final plan text against the runtime artefacts of the same run
            labels = {label: kind for kind, label, _ in arts}
            runtime = [lb for lb, k in labels.items() if k in RUNTIME_KINDS]
            if "final-formatted" in rules:
                for rule in sorted(rules["final-formatted"] - NOT_COMPARED):
                    for lb in runtime:
                        if rule not in rules[lb]:
                            disagreements.append((version, name, lb, rule, "cross", "reported on final-formatted only"))
            ev = [lb for lb in runtime if labels[lb] == "eventlog"]
            hs = [lb for lb in runtime if labels[lb] != "eventlog"]
            for e in ev:
                for h in hs:
                    for rule in sorted((rules[e] ^ rules[h]) - NOT_COMPARED - EVENTLOG_ONLY):
                        where = e if rule in rules[e] else h
                        other = h if where == e else e
                        disagreements.append((version, name, other, rule, "cross", f"reported on {where} only"))
            # operator counts of the final plan
            ref = None
            for kind, label, p in arts:
                if kind not in ("final-formatted",) + RUNTIME_KINDS:
                    continue
                ops = final_operators(a.planlint, p)
                if ops is None:
                    continue
                if ref is None:
                    ref = (label, ops)
                elif ops != ref[1]:
                    diff = {k: ops[k] - ref[1][k] for k in set(ops) | set(ref[1]) if ops[k] != ref[1][k]}
                    disagreements.append((version, name, label, "operators", "count",
                                          f"vs {ref[0]}: " + ", ".join(f"{k} {v:+d}" for k, v in sorted(diff.items()))))
    # report
    if a.first_contact or a.verbose:
        print("labels held (per Spark version and artefact kind; must-fire and must-not-fire labels, then must-fire alone):")
        print(f"{'version':8} {'kind':18} {'all held / total':>17}   {'must-fire held / total':>22}")
        for (version, kind) in sorted(total):
            k = (version, kind)
            print(f"{version:8} {kind:18} {held[k]:8} / {total[k]:<6}   {fire_held[k]:13} / {fire_total[k]:<6}")
        for version in versions:
            h, t = (sum(v for (ver, _), v in c.items() if ver == version) for c in (held, total))
            fh, ft = (sum(v for (ver, _), v in c.items() if ver == version) for c in (fire_held, fire_total))
            print(f"{version:8} {'all':18} {h:8} / {t:<6}   {fh:13} / {ft:<6}")
        for rule, ks in sorted(asserted.items()):
            missing = sorted(seen_kinds - ks - {"explain-codegen", "final-codegen"})
            if missing:
                print(f"{rule}: must-fire not asserted on {', '.join(missing)} (the format does not carry its evidence)")
        print(f"driver answers (driver/) in {driver_runs} of {runs} scenario captures"
              + (f"; none in {len(no_driver)}: {', '.join(no_driver)}" if a.verbose and no_driver else ""))
    unexpected = []
    for dis in disagreements:
        hit = [g for g in gaps if all(any(fnmatch.fnmatchcase(v, alt) for alt in pat.split(","))
                                      for v, pat in zip(dis[:5], g["key"]))]
        for g in hit:
            g["used"] += 1
        if not hit:
            unexpected.append(dis)
    if a.first_contact:
        print(f"\n{len(disagreements)} disagreements:")
        for dis in disagreements:
            print("  " + " ".join(dis[:5]) + (f"  ({dis[5]})" if dis[5] else ""))
        return 0
    stale = [g for g in gaps if not g["used"]] if not a.only else []
    for dis in unexpected:
        print("FAIL: not a known gap: " + " ".join(dis[:5]) + (f"  ({dis[5]})" if dis[5] else ""))
    for g in stale:
        print(f"FAIL: known gap no longer happens ({gaps_path}:{g['line']}): {' '.join(g['key'])} | {g['reason']}")
    n = sum(total.values())
    print(f"live corpus: {len(versions)} Spark versions, {len(man['scenario'])} scenarios, {n} labels, "
          f"{len(disagreements)} disagreements, all known: {'yes' if not unexpected else 'no'}, "
          f"{len(gaps)} known gaps, {len(stale)} stale")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main())
