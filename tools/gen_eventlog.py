#!/usr/bin/env python3
"""Write the event logs of corpus/eventlog/: Spark-shaped JSON lines (as Spark 3.3 writes them with
spark.eventLog.enabled=true) for the cases Spark's own test logs lack.

  tools/gen_eventlog.py corpus/eventlog    # rewrites every log below

  skewed-join.eventlog, even-join.eventlog   one SQL execution each (a skewed / an even join stage)
  multi-exec.eventlog                        execution 0 even, execution 1 skewed, in one application
  eventlog_v2_app-20231114221320-0009/       multi-exec.eventlog as a rolling log directory
                                             (spark.eventLog.rolling.enabled=true): events_1_..., events_2_...
                                             and an empty appstatus_... file (the application finished)

Deterministic: same output every run."""
import json
import os
import sys

PLAN_FINAL = """== Physical Plan ==
AdaptiveSparkPlan (21)
+- == Final Plan ==
   * Project (14)
   +- * SortMergeJoin Inner (13)
      :- * Sort (6)
      :  +- AQEShuffleRead (5)
      :     +- ShuffleQueryStage (4), Statistics(sizeInBytes=12.0 GiB, rowCount=4.00E+8)
      :        +- Exchange (3)
      :           +- * ColumnarToRow (2)
      :              +- Scan parquet spark_catalog.default.events (1)
      +- * Sort (12)
         +- AQEShuffleRead (11)
            +- ShuffleQueryStage (10), Statistics(sizeInBytes=600.0 MiB, rowCount=2.00E+7)
               +- Exchange (9)
                  +- * ColumnarToRow (8)
                     +- Scan parquet spark_catalog.default.users (7)
+- == Initial Plan ==
   Project (20)
   +- SortMergeJoin Inner (19)
      :- Sort (16)
      :  +- Exchange (15)
      :     +- ColumnarToRow (2)
      :        +- Scan parquet spark_catalog.default.events (1)
      +- Sort (18)
         +- Exchange (17)
            +- ColumnarToRow (8)
               +- Scan parquet spark_catalog.default.users (7)


(1) Scan parquet spark_catalog.default.events
Output [3]: [user_id#1L, kind#2, ts#3]
Batched: true
Location: InMemoryFileIndex [hdfs://nn/warehouse/events]
ReadSchema: struct<user_id:bigint,kind:string,ts:timestamp>

(2) ColumnarToRow [codegen id : 1]
Input [3]: [user_id#1L, kind#2, ts#3]

(3) Exchange
Input [3]: [user_id#1L, kind#2, ts#3]
Arguments: hashpartitioning(user_id#1L, 200), ENSURE_REQUIREMENTS, [id=#41]

(4) ShuffleQueryStage
Output [3]: [user_id#1L, kind#2, ts#3]
Arguments: 0

(5) AQEShuffleRead
Input [3]: [user_id#1L, kind#2, ts#3]
Arguments: coalesced

(6) Sort [codegen id : 3]
Input [3]: [user_id#1L, kind#2, ts#3]
Arguments: [user_id#1L ASC NULLS FIRST], false, 0

(7) Scan parquet spark_catalog.default.users
Output [2]: [id#10L, country#11]
Batched: true
Location: InMemoryFileIndex [hdfs://nn/warehouse/users]
ReadSchema: struct<id:bigint,country:string>

(8) ColumnarToRow [codegen id : 2]
Input [2]: [id#10L, country#11]

(9) Exchange
Input [2]: [id#10L, country#11]
Arguments: hashpartitioning(id#10L, 200), ENSURE_REQUIREMENTS, [id=#52]

(10) ShuffleQueryStage
Output [2]: [id#10L, country#11]
Arguments: 1

(11) AQEShuffleRead
Input [2]: [id#10L, country#11]
Arguments: coalesced

(12) Sort [codegen id : 3]
Input [2]: [id#10L, country#11]
Arguments: [id#10L ASC NULLS FIRST], false, 0

(13) SortMergeJoin [codegen id : 3]
Left keys [1]: [user_id#1L]
Right keys [1]: [id#10L]
Join type: Inner
Join condition: None

(14) Project [codegen id : 3]
Output [3]: [kind#2, ts#3, country#11]
Input [5]: [user_id#1L, kind#2, ts#3, id#10L, country#11]

(15) Exchange
Input [3]: [user_id#1L, kind#2, ts#3]
Arguments: hashpartitioning(user_id#1L, 200), ENSURE_REQUIREMENTS, [id=#30]

(16) Sort
Input [3]: [user_id#1L, kind#2, ts#3]
Arguments: [user_id#1L ASC NULLS FIRST], false, 0

(17) Exchange
Input [2]: [id#10L, country#11]
Arguments: hashpartitioning(id#10L, 200), ENSURE_REQUIREMENTS, [id=#31]

(18) Sort
Input [2]: [id#10L, country#11]
Arguments: [id#10L ASC NULLS FIRST], false, 0

(19) SortMergeJoin
Left keys [1]: [user_id#1L]
Right keys [1]: [id#10L]
Join type: Inner
Join condition: None

(20) Project
Output [3]: [kind#2, ts#3, country#11]
Input [5]: [user_id#1L, kind#2, ts#3, id#10L, country#11]

(21) AdaptiveSparkPlan
Output [3]: [kind#2, ts#3, country#11]
Arguments: isFinalPlan=true

"""


ACC_OFFSET = 0  # added to every accumulator id: each execution of one log gets its own ids


def m(name, acc, typ="sum"):
    return {"name": name, "accumulatorId": acc + ACC_OFFSET, "metricType": typ}


def node(name, simple, children=(), metrics=()):
    return {"nodeName": name, "simpleString": simple, "children": list(children), "metadata": {},
            "metrics": list(metrics)}


def side(base, table, stage_id, codegen):
    scan = node("Scan parquet spark_catalog.default." + table, "FileScan parquet default." + table,
                metrics=[m("number of output rows", base + 1), m("number of files read", base + 2),
                         m("size of files read", base + 3, "size"), m("scan time", base + 4, "timing")])
    c2r = node("ColumnarToRow", "ColumnarToRow", [scan],
               [m("number of output rows", base + 5), m("number of input batches", base + 6)])
    wsc = node("WholeStageCodegen (%d)" % codegen, "WholeStageCodegen (%d)" % codegen, [c2r],
               [m("duration", base + 16, "timing")])
    exch = node("Exchange", "Exchange hashpartitioning", [wsc],
                [m("shuffle bytes written", base + 7, "size"), m("shuffle records written", base + 8),
                 m("data size", base + 9, "size"), m("shuffle write time", base + 10, "nsTiming")])
    stage = node("ShuffleQueryStage", "ShuffleQueryStage %d" % stage_id, [exch])
    read = node("AQEShuffleRead", "AQEShuffleRead coalesced", [stage],
                [m("number of partitions", base + 11), m("partition data size", base + 12, "size"),
                 m("number of coalesced partitions", base + 13)])
    inp = node("InputAdapter", "InputAdapter", [read])
    sort = node("Sort", "Sort", [inp], [m("sort time", base + 14, "timing"), m("peak memory", base + 15, "size"),
                                        m("spill size", base + 17, "size")])
    return sort


def plan_info():
    smj = node("SortMergeJoin", "SortMergeJoin [user_id#1L], [id#10L], Inner",
               [side(100, "events", 0, 1), side(200, "users", 1, 2)],
               [m("number of output rows", 301), m("spill size", 302, "size")])
    proj = node("Project", "Project", [smj])
    wsc = node("WholeStageCodegen (3)", "WholeStageCodegen (3)", [proj], [m("duration", 303, "timing")])
    return node("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", [wsc])


def acc(i, name, update):
    return {"ID": i + ACC_OFFSET, "Name": name, "Update": str(update), "Value": str(update), "Internal": True,
            "Count Failed Values": True, "Metadata": "sql"}


def task_end(stage, task_id, launch, ms, accs):
    return {"Event": "SparkListenerTaskEnd", "Stage ID": stage, "Stage Attempt ID": 0, "Task Type": "ShuffleMapTask",
            "Task End Reason": {"Reason": "Success"},
            "Task Info": {"Task ID": task_id, "Index": task_id, "Attempt": 0, "Partition ID": task_id,
                          "Launch Time": launch, "Executor ID": str(1 + task_id % 8), "Host": "10.0.0.%d" % (1 + task_id % 8),
                          "Locality": "NODE_LOCAL", "Speculative": False, "Getting Result Time": 0,
                          "Finish Time": launch + ms, "Failed": False, "Killed": False, "Accumulables": accs},
            "Task Metrics": {"Executor Deserialize Time": 2, "Executor Run Time": ms, "Result Size": 2600,
                             "JVM GC Time": 0, "Memory Bytes Spilled": 0, "Disk Bytes Spilled": 0}}


def execution(exec_id, description, skewed, clock, ids):
    """The events of one SQL execution (a join of events and users), starting at time `clock`;
    `ids` holds the next job, stage and task ids of the application."""
    global ACC_OFFSET
    ACC_OFFSET = 1000 * exec_id
    ev = [{"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart", "executionId": exec_id,
           "description": description, "details": "", "physicalPlanDescription": PLAN_FINAL.replace(
               "isFinalPlan=true", "isFinalPlan=false"), "sparkPlanInfo": plan_info(), "time": clock - 900}]
    props = {"spark.sql.execution.id": str(exec_id)}
    stage_name = description
    s0 = ids["stage"]
    stages = [(s0, 40, 100, 3000), (s0 + 1, 10, 200, 1500)]
    for sid, ntasks, base, ms in stages:
        ev.append({"Event": "SparkListenerJobStart", "Job ID": ids["job"], "Submission Time": clock, "Stage Infos": [],
                   "Stage IDs": [sid], "Properties": props})
        for k in range(ntasks):
            dur = ms + (k * 37) % 400
            rows = 10_000_000 if base == 100 else 2_000_000
            ev.append(task_end(sid, ids["task"], clock, dur, [acc(base + 1, "number of output rows", rows),
                                                              acc(base + 7, "shuffle bytes written", 300 << 20 if base == 100 else 60 << 20),
                                                              acc(base + 8, "shuffle records written", rows)]))
            ids["task"] += 1
        ev.append({"Event": "SparkListenerStageCompleted", "Stage Info": {
            "Stage ID": sid, "Stage Attempt ID": 0, "Stage Name": stage_name, "Number of Tasks": ntasks,
            "Submission Time": clock, "Completion Time": clock + ms + 400, "Accumulables": []}})
        ev.append({"Event": "SparkListenerJobEnd", "Job ID": ids["job"], "Completion Time": clock + ms + 400,
                   "Job Result": {"Result": "JobSucceeded"}})
        ids["job"] += 1
        clock += ms + 500
    ev.append({"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate", "executionId": exec_id,
               "physicalPlanDescription": PLAN_FINAL, "sparkPlanInfo": plan_info()})
    join_stage = s0 + 2
    ev.append({"Event": "SparkListenerJobStart", "Job ID": ids["job"], "Submission Time": clock, "Stage Infos": [],
               "Stage IDs": [join_stage], "Properties": props})
    longest = 0
    for k in range(50):
        dur = 1200 + (k * 53) % 300
        rows = 8_000_000
        spill = 0
        if skewed and k in (7, 19, 33):  # three hot user ids
            dur = {7: 95_000, 19: 61_000, 33: 41_000}[k]
            rows = 900_000_000 // {7: 3, 19: 5, 33: 7}[k]
            spill = {7: 14 << 30, 19: 6 << 30, 33: 2 << 30}[k]
        longest = max(longest, dur)
        ev.append(task_end(join_stage, ids["task"], clock, dur, [acc(301, "number of output rows", rows),
                                                                 acc(117, "spill size", spill), acc(114, "sort time", dur // 3),
                                                                 acc(303, "duration", dur)]))
        ids["task"] += 1
    ev.append({"Event": "SparkListenerStageCompleted", "Stage Info": {
        "Stage ID": join_stage, "Stage Attempt ID": 0, "Stage Name": stage_name, "Number of Tasks": 50,
        "Submission Time": clock, "Completion Time": clock + longest + 100, "Accumulables": []}})
    ev.append({"Event": "SparkListenerJobEnd", "Job ID": ids["job"], "Completion Time": clock + longest + 100,
               "Job Result": {"Result": "JobSucceeded"}})
    ids["job"] += 1
    ids["stage"] += 3
    ev.append({"Event": "org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates", "executionId": exec_id,
               "accumUpdates": [[a + ACC_OFFSET, v] for a, v in ((111, 50), (113, 150), (211, 50), (213, 150))]})
    ev.append({"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd", "executionId": exec_id,
               "time": clock + longest + 200})
    return ev, clock + longest + 300


def application(app_id, runs):
    """A whole log: `runs` is a list of (description, skewed), one SQL execution each."""
    t0 = 1700000000000
    ev = [
        {"Event": "SparkListenerLogStart", "Spark Version": "3.3.2"},
        {"Event": "SparkListenerApplicationStart", "App Name": "nightly-sessions", "App ID": app_id,
         "Timestamp": t0, "User": "etl"},
    ]
    ids = {"job": 0, "stage": 0, "task": 0}
    clock = t0 + 1000
    for exec_id, (description, skewed) in enumerate(runs):
        events, clock = execution(exec_id, description, skewed, clock, ids)
        ev += events
        clock += 1000
    ev.append({"Event": "SparkListenerApplicationEnd", "Timestamp": clock - 1000})
    return [json.dumps(e, separators=(",", ":")) + "\n" for e in ev]


def write(path, lines):
    with open(path, "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "corpus/eventlog"
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "skewed-join.eventlog"),
          application("app-20231114221320-0007", [("save at sessions.py:41", True)]))
    write(os.path.join(out, "even-join.eventlog"),
          application("app-20231114221320-0007", [("save at sessions.py:41", False)]))
    multi = application("app-20231114221320-0009", [("save at sessions.py:41", False), ("save at sessions.py:58", True)])
    write(os.path.join(out, "multi-exec.eventlog"), multi)
    # Rolled over in the middle of execution 1 (after its first job), as a size limit would.
    app = "app-20231114221320-0009"
    rolling = os.path.join(out, "eventlog_v2_" + app)
    os.makedirs(rolling, exist_ok=True)
    cut = next(i for i, line in enumerate(multi) if '"Job ID":3,' in line and "JobEnd" in line) + 1
    write(os.path.join(rolling, "events_1_" + app), multi[:cut])
    write(os.path.join(rolling, "events_2_" + app), multi[cut:])
    write(os.path.join(rolling, "appstatus_" + app), [])
