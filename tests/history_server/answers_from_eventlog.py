#!/usr/bin/env python3
"""Build the answers a Spark History Server gives for /api/v1/applications/<app>/sql from an event log.

It replays what Spark does for that endpoint (Spark 3.1-4.x sources):
- SparkPlanGraph.buildSparkPlanGraphNode: node ids in pre-order from 0; WholeStageCodegen becomes a
  cluster (its own id, on no edge); InputAdapter, ShuffleQueryStage, BroadcastQueryStage,
  TableCacheQueryStage and ReusedSubquery get no node; a ReusedExchange of a known exchange (and a
  reused Subquery) becomes an edge to that exchange; edges go child (fromId) -> parent (toId).
- SQLAppStatusListener + SQLMetrics.stringValue: the display string of each metric from the task
  values ("sum": "10,000"; size/timing/nsTiming: one value alone, else
  "total (min, med, max (stageId: taskId))\\n<sum> (<min>, <med>, <max> (stage S.A: task T))";
  average: "(min, med, max (stageId: taskId)):\\n(...)").
- SqlResource.prepareExecutionData / printableMetrics: ExecutionData with nodes sorted by nodeId
  descending, metrics without a value left out, a leading newline stripped.

Usage: answers_from_eventlog.py EVENTLOG OUTDIR   writes OUTDIR/list.json and OUTDIR/<id>.json
"""
import json
import os
import sys
import datetime

KiB, MiB, GiB, TiB, PiB, EiB = 1 << 10, 1 << 20, 1 << 30, 1 << 40, 1 << 50, 1 << 60


def bytes_to_string(size):  # Utils.bytesToString
    for limit, unit, div in ((2 * EiB, "EiB", EiB), (2 * PiB, "PiB", PiB), (2 * TiB, "TiB", TiB),
                             (2 * GiB, "GiB", GiB), (2 * MiB, "MiB", MiB), (2 * KiB, "KiB", KiB)):
        if size >= limit:
            return "%.1f %s" % (size / div, unit)
    return "%.1f B" % size


def ms_to_string(ms):  # Utils.msDurationToString
    if ms < 1000:
        return "%d ms" % ms
    if ms < 60000:
        return "%.1f s" % (ms / 1000)
    if ms < 3600000:
        return "%.1f m" % (ms / 60000)
    return "%.2f h" % (ms / 3600000)


def avg_format(v):  # toNumberFormat: value / 10 with grouping, up to 3 decimals
    s = ("%.3f" % (v / 10)).rstrip("0").rstrip(".")
    whole, _, frac = s.partition(".")
    whole = "{:,}".format(int(whole))
    return whole + ("." + frac if frac else "")


def string_value(mtype, values, maxm):
    task = "(driver)" if maxm is None else "(stage %d.%d: task %d)" % maxm
    if mtype == "sum":
        return "{:,}".format(sum(values))
    if mtype == "average":
        valid = sorted(v for v in values if v > 0)
        if len(valid) <= 1:
            return avg_format(valid[0] if valid else 0)
        return "(min, med, max (stageId: taskId)):\n(%s, %s, %s %s)" % (
            avg_format(valid[0]), avg_format(valid[len(valid) // 2]), avg_format(valid[-1]), task)
    fmt = {"size": bytes_to_string, "timing": ms_to_string,
           "nsTiming": lambda ns: ms_to_string(ns // 1000000)}.get(mtype)
    if fmt is None:
        raise ValueError("unexpected metrics type " + mtype)
    valid = sorted(v for v in values if v >= 0)
    if len(valid) <= 1:
        return fmt(valid[0] if valid else 0)
    return "total (min, med, max (stageId: taskId))\n%s (%s, %s, %s %s)" % (
        fmt(sum(valid)), fmt(valid[0]), fmt(valid[len(valid) // 2]), fmt(valid[-1]), task)


def build_graph(info):
    nodes, edges, exchanges = [], [], {}
    counter = [0]

    def key(pi):
        return json.dumps(pi, sort_keys=True)

    def new_id():
        counter[0] += 1
        return counter[0] - 1

    # An explicit stack: (planInfo, parent node, codegen cluster)
    def build(pi, parent, cluster):
        name = pi.get("nodeName", "")
        kids = pi.get("children", [])
        if name.startswith("WholeStageCodegen"):
            c = {"id": new_id(), "name": name, "metrics": pi.get("metrics", []), "nodes": [], "cluster": True}
            nodes.append(c)
            build(kids[0], parent, c)
        elif name == "InputAdapter":
            build(kids[0], parent, None)
        elif name in ("BroadcastQueryStage", "ShuffleQueryStage"):
            if key(kids[0]) in exchanges:
                edges.append((exchanges[key(kids[0])]["id"], parent["id"]))
            else:
                build(kids[0], parent, None)
        elif name == "TableCacheQueryStage":
            build(kids[0], parent, None)
        elif name in ("Subquery", "SubqueryBroadcast") and cluster is not None:
            build(pi, parent, None)
        elif name in ("Subquery", "SubqueryBroadcast") and key(pi) in exchanges:
            edges.append((exchanges[key(pi)]["id"], parent["id"]))
        elif name == "ReusedSubquery":
            build(kids[0], parent, cluster)
        elif name == "ReusedExchange" and kids and key(kids[0]) in exchanges:
            edges.append((exchanges[key(kids[0])]["id"], parent["id"]))
        else:
            n = {"id": new_id(), "name": name, "metrics": pi.get("metrics", []), "cluster": False}
            (cluster["nodes"] if cluster is not None else nodes).append(n)
            if "Exchange" in name or name in ("Subquery", "SubqueryBroadcast"):
                exchanges[key(pi)] = n
            if parent is not None:
                edges.append((n["id"], parent["id"]))
            for k in kids:
                build(k, n, cluster)

    build(info, None, None)
    all_nodes = list(nodes)
    for c in nodes:
        if c["cluster"]:
            all_nodes.extend(c["nodes"])
    return nodes, all_nodes, edges


def gmt(ms):
    t = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dGMT" % (ms % 1000)


def main(log, outdir):
    execs, task_values, driver_values = {}, {}, {}
    job_exec, job_result = {}, {}
    with open(log, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            e = json.loads(line)
            ev = e.get("Event", "")
            if ev.endswith("SparkListenerSQLExecutionStart"):
                execs[e["executionId"]] = {"id": e["executionId"], "description": e.get("description", ""),
                                           "plan": e.get("physicalPlanDescription", ""),
                                           "info": e.get("sparkPlanInfo", {}), "start": e.get("time", 0),
                                           "end": None}
            elif ev.endswith("SparkListenerSQLAdaptiveExecutionUpdate"):
                x = execs.get(e["executionId"])
                if x:
                    x["plan"], x["info"] = e.get("physicalPlanDescription", ""), e.get("sparkPlanInfo", {})
            elif ev.endswith("SparkListenerSQLExecutionEnd"):
                if e["executionId"] in execs:
                    execs[e["executionId"]]["end"] = e.get("time", 0)
            elif ev.endswith("SparkListenerDriverAccumUpdates"):
                for acc, v in e.get("accumUpdates", []):
                    driver_values.setdefault(acc, []).append(int(v))
            elif ev == "SparkListenerJobStart":
                exid = (e.get("Properties") or {}).get("spark.sql.execution.id")
                if exid is not None:
                    job_exec[e["Job ID"]] = int(exid)
            elif ev == "SparkListenerJobEnd":
                job_result[e["Job ID"]] = (e.get("Job Result") or {}).get("Result", "")
            elif ev == "SparkListenerTaskEnd":
                ti = e.get("Task Info", {})
                for a in ti.get("Accumulables", []):
                    if a.get("Metadata") != "sql" or "Update" not in a:
                        continue
                    try:
                        v = int(a["Update"])
                    except (TypeError, ValueError):
                        continue
                    task_values.setdefault(a["ID"], []).append(
                        (v, e.get("Stage ID", 0), e.get("Stage Attempt ID", 0), ti.get("Task ID", 0)))

    answers = []
    for exid in sorted(execs):
        x = execs[exid]
        _, all_nodes, edges = build_graph(x["info"])
        out_nodes = []
        for n in all_nodes:
            metrics = []
            for m in n["metrics"]:
                acc, mtype = m.get("accumulatorId"), m.get("metricType", "sum")
                tv = task_values.get(acc, [])
                dv = driver_values.get(acc, [])
                if not tv and not dv:
                    continue  # no value: printableMetrics leaves the metric out
                values = [t[0] for t in tv] + dv
                maxm = None
                if tv and mtype != "sum":
                    best = max(tv, key=lambda t: t[0])
                    maxm = (best[1], best[2], best[3])
                v = string_value(mtype, values, maxm)
                if v.startswith("\n"):
                    v = v[1:]
                metrics.append({"name": m.get("name", "").strip(), "value": v})
            node = {"nodeId": n["id"], "nodeName": n["name"].strip()}
            wscg = next((c for c in all_nodes if c.get("cluster") and n in c.get("nodes", [])), None)
            if wscg is not None:
                try:
                    node["wholeStageCodegenId"] = int(wscg["name"].strip()[len("WholeStageCodegen ("):-1])
                except ValueError:
                    pass
            node["metrics"] = metrics
            out_nodes.append(node)
        out_nodes.sort(key=lambda n: n["nodeId"], reverse=True)
        jobs = sorted(j for j, e in job_exec.items() if e == exid)
        ok = [j for j in jobs if job_result.get(j) == "JobSucceeded"]
        bad = [j for j in jobs if j in job_result and job_result[j] != "JobSucceeded"]
        run = [j for j in jobs if j not in job_result]
        status = "RUNNING" if x["end"] is None else ("FAILED" if bad else "COMPLETED")
        end = x["end"] if x["end"] is not None else x["start"]
        answers.append({
            "id": exid, "status": status, "description": x["description"], "planDescription": x["plan"],
            "submissionTime": gmt(x["start"]), "duration": end - x["start"],
            "runningJobIds": run, "successJobIds": ok, "failedJobIds": bad,
            "nodes": out_nodes,
            "edges": [{"fromId": a, "toId": b} for a, b in edges],
        })
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "list.json"), "w", encoding="utf-8") as f:
        json.dump(answers, f, indent=2)  # Spark's Jackson mapper pretty-prints too
    for a in answers:
        with open(os.path.join(outdir, "%d.json" % a["id"]), "w", encoding="utf-8") as f:
            json.dump(a, f, indent=2)
    print(len(answers))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
