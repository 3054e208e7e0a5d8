#!/usr/bin/env python3
"""End-to-end test of `planlint check --format ndjson -` through pipes (see tests/ndjson_cli.sh)."""
import json
import os
import select
import subprocess
import sys

planlint = sys.argv[1]
failures = []


def expect(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


plan_path = "corpus/examples/orders-by-region.explain.txt"
log_path = "corpus/eventlog/multi-exec.eventlog"
profile_path = "corpus/history-server/skewed-join.sql.json"
with open(plan_path, encoding="utf-8") as f:
    plan_text = f.read()

# The reference: the json format of a plain check of the same file.
ref = json.loads(subprocess.run([planlint, "check", "--no-config", "--format", "json", "--exit-zero", plan_path],
                                capture_output=True, text=True, check=True).stdout)["files"][0]["diagnostics"]
ref_log = json.loads(subprocess.run([planlint, "check", "--no-config", "--format", "json", "--exit-zero", log_path],
                                    capture_output=True, text=True, check=True).stdout)["files"][0]["diagnostics"]

records = [
    json.dumps({"id": "a", "text": plan_text}),
    json.dumps({"id": 2, "path": plan_path}),
    '{"id": "broken", "text": "== Physical Plan',          # cut JSON
    "",                                                    # blank: skipped
    json.dumps({"text": plan_text}),                       # no id
    json.dumps({"id": "both", "text": "x", "path": plan_path}),
    json.dumps({"id": "missing", "path": "/nonexistent/plan.txt"}),
    json.dumps({"id": "log", "path": log_path}),
    json.dumps({"id": "hs", "text": open(profile_path, encoding="utf-8").read()}),
    json.dumps({"id": "empty", "text": ""}),
    "[1, 2]",
    json.dumps({"id": "last", "text": plan_text}),
]

# Streaming: write one record, read its answer up to its "done"/"error" record, then the next.
p = subprocess.Popen([planlint, "check", "--no-config", "--format", "ndjson", "-"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
answers = []
streamed = True
pending = b""


def read_line():
    """One output line from the raw pipe (select on a buffered reader would miss buffered lines).
    A guard against a hang, not a speed check: no answer within 60 s fails the test."""
    global pending
    fd = p.stdout.fileno()
    while b"\n" not in pending:
        ready, _, _ = select.select([fd], [], [], 60)
        if not ready:
            return None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return None
        pending += chunk
    line, _, pending = pending.partition(b"\n")
    return line.decode()

for rec in records:
    p.stdin.write(rec + "\n")
    p.stdin.flush()
    if not rec.strip():
        continue
    got = []
    while True:
        line = read_line()
        if line is None:
            streamed = False
            break
        got.append(json.loads(line))
        if got[-1]["type"] in ("done", "error"):
            break
    answers.append(got)
    if not streamed:
        break
p.stdin.close()
rest = pending.decode() + os.read(p.stdout.fileno(), 1 << 16).decode()
rc = p.wait(timeout=60)
expect(streamed, "each record is answered before the next is written (streaming)")
expect(rest == "", "nothing is left after the last record")
expect(rc == 0, f"exit status 0 with findings and bad records (got {rc}; stderr {p.stderr.read()!r})")

if streamed and len(answers) == 11:
    a, b, broken, noid, both, missing, log, hs, empty, arr, last = answers
    strip = lambda fs: [{k: v for k, v in f.items() if k not in ("type", "id", "path")} for f in fs if f["type"] == "finding"]
    expect(strip(a) == ref, "a text record gives the findings of `planlint check FILE` (json format fields)")
    expect(a[-1] == {"type": "done", "id": "a", "path": None, "format": "explain-formatted", "findings": len(ref)},
           f"a done record closes each input: {a[-1]}")
    expect(all(f["id"] == "a" for f in a), "every record carries the input's id")
    expect(strip(b) == ref and b[-1]["id"] == 2 and b[-1]["path"] == plan_path, "a path record, a numeric id kept")
    expect(broken == [{"type": "error", "line": 3, "id": None, "error": broken[0]["error"]}]
           and "not a JSON record" in broken[0]["error"], f"cut JSON is an error record naming line 3: {broken}")
    expect(noid[0]["type"] == "error" and noid[0]["line"] == 5 and "id" in noid[0]["error"], f"no id: {noid}")
    expect(both[0]["type"] == "error" and both[0]["id"] == "both" and "exactly one" in both[0]["error"], f"text and path: {both}")
    expect(missing[0]["type"] == "error" and "No such file" in missing[0]["error"], f"missing file: {missing}")
    expect(strip(log) == ref_log and log[-1]["format"] == "event-log", "an event log path, streamed as the CLI does")
    expect(hs[-1]["format"] == "history-server" and hs[-1]["findings"] > 0, f"a History Server answer as text: {hs[-1]}")
    expect(empty[-1]["type"] == "done" and any(f.get("rule") == "parse-error" for f in empty),
           f"an empty text is read and says so (parse-error finding): {empty}")
    expect(arr[0]["type"] == "error" and arr[0]["line"] == 11, f"a JSON array is not a record: {arr}")
    expect(strip(last) == ref, "processing went on after every bad record")
else:
    expect(False, f"11 answers expected, got {len(answers)}")

# As rdd.pipe runs it: a whole batch through a pipe, line by line.
batch = "\n".join(json.dumps({"id": i, "text": plan_text}) for i in range(200)) + "\n"
out = subprocess.run([planlint, "check", "--format", "ndjson", "-", "--no-config"], input=batch,
                     capture_output=True, text=True)
lines = [json.loads(l) for l in out.stdout.splitlines()]
expect(out.returncode == 0 and sum(1 for l in lines if l["type"] == "done") == 200
       and sum(1 for l in lines if l["type"] == "finding") == 200 * len(ref), "200 records through one pipe")

# C1 of the December 2026 reliability probe: a number no double holds (1e400, a 400-digit integer),
# in the record or in a History Server answer it carries, is that record's error; the stream goes on.
hs_bad = '[{"id":0,"status":"COMPLETED","duration":1e400,"planDescription":"== Physical Plan ==\\n* Project (1)\\n"}]'
big = "\n".join([json.dumps({"id": 1, "text": plan_text}), '{"id":2,"x":1e400,"text":"x"}',
                  '{"id":3,"x":-1' + "0" * 400 + ',"text":"x"}', json.dumps({"id": 4, "text": hs_bad}),
                  json.dumps({"id": 5, "text": plan_text})]) + "\n"
out = subprocess.run([planlint, "check", "--format", "ndjson", "-", "--no-config"], input=big,
                     capture_output=True, text=True)
lines = [json.loads(l) for l in out.stdout.splitlines()] if out.returncode == 0 else []
errors = [l for l in lines if l["type"] == "error"]
hs4 = [l for l in lines if l.get("id") == 4 and l["type"] == "finding"]
expect(out.returncode == 0 and [e["line"] for e in errors] == [2, 3]
       and all("number out of range" in e["error"] for e in errors)
       and any("number out of range" in f["message"] for f in hs4)
       and sum(1 for l in lines if l["type"] == "done") == 3 and lines[-1] == {**lines[-1], "type": "done", "id": 5},
       f"out-of-range numbers are error records, the stream goes on (exit {out.returncode}, {out.stderr[:200]!r}): {errors} {hs4}")

# Usage errors are the only exit 2.
u = subprocess.run([planlint, "check", "--format", "ndjson", plan_path], capture_output=True, text=True)
expect(u.returncode == 2 and "standard input" in u.stderr, f"a file argument is a usage error: {u.stderr!r}")
sys.exit(1 if failures else 0)
