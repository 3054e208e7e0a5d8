"""Runs one live-Spark scenario (tools/live-spark/scenarios/NAME.py) and captures what Spark prints.

Usage: python harness.py SCENARIO_FILE OUT_DIR [VARIANT ...]
  VARIANT: zstd (default), plain, lz4, rolling: one application per variant, each writing its own
  event log with Spark's own compression (spark.eventLog.compress, spark.eventLog.compression.codec)
  or rolling (spark.eventLog.rolling.enabled). The explain texts come from the first variant.

A scenario module defines:
  CONF      dict of Spark confs of the measured application (the query session); "{data}" in a
            value is the data folder
  SETUP_CONF  confs of the data-writing session as well (e.g. catalogs)
  DRIVER_JAVA_OPTIONS  optional JVM options instead of the default (C1 only, serial GC)
  SPARK_VERSIONS  optional prefixes ("3.5",): other Spark versions skip the scenario (exit 3)
  PACKAGES  optional list of Maven coordinates (spark.jars.packages, resolved at JVM start), or a
            dict from Spark version prefix to such a list (Delta and Iceberg build per Spark line)
  setup(spark, data)        writes the input data under the folder `data` (a session with no event log)
  query(spark, data) -> DataFrame   the measured query (may run warm-up actions, e.g. cache().count())
  or run(spark, data, out)  a scenario that captures itself (streaming)
The measured DataFrame must have a small result: it is collected.

Writes into OUT_DIR:
  explain-{simple,extended,formatted,cost,codegen}.txt  before execution
  final-formatted.txt, final-codegen.txt                after execution (final adaptive plan)
  eventlog/<Spark's file or folder name>                one per variant, as Spark wrote it
  driver/sql.json, driver/sql-<id>.json                 the live driver's REST answers (first variant)
  run.json                                              app ids, Spark version, timings, row count

The first variant's application runs with its UI on (127.0.0.1, a free port): once the measured
query is done, and before spark.stop(), the harness waits until Spark's listener bus is empty and
the SQL listener lists every execution as finished, then saves the driver's own /api/v1 answers
(the same requests capture.sh sends the History Server): `driver/sql.json`
(/applications/<app>/sql?details=true&planDescription=true) and `driver/sql-<id>.json` (the last
execution).
"""
import importlib.util
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import urllib.request

MODES = ["simple", "extended", "formatted", "cost", "codegen"]

BASE_CONF = {
    "spark.master": "local[2]",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.memory": "1g",
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.session.timeZone": "UTC",
}

VARIANTS = {
    # Spark 4 rolls event logs by default: every variant says what it wants.
    "plain": {"spark.eventLog.compress": "false", "spark.eventLog.rolling.enabled": "false"},
    "zstd": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "zstd",
             "spark.eventLog.rolling.enabled": "false"},
    "lz4": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "lz4",
            "spark.eventLog.rolling.enabled": "false"},
    "rolling": {"spark.eventLog.compress": "true", "spark.eventLog.compression.codec": "zstd",
                "spark.eventLog.rolling.enabled": "true", "spark.eventLog.rolling.maxFileSize": "10m"},
}


def free_port():
    """A TCP port free on 127.0.0.1 now (the UI binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        body = r.read()
    return body, json.loads(body)


def capture_driver(spark, out, timeout=120):
    """Saves the running driver's /api/v1 SQL answers into out/driver (sql.json, sql-<last id>.json),
    once every execution the SQL listener knows of is finished. Returns what was saved."""
    sc = spark.sparkContext
    base = sc.uiWebUrl.rstrip("/") + f"/api/v1/applications/{sc.applicationId}"
    # Every SparkListenerSQLExecutionEnd of the query was posted before collect() returned: once
    # the listener bus is empty, the SQL listener has seen them (and AQE's last plan update).
    sc._jsc.sc().listenerBus().waitUntilEmpty()
    query = "details=true&planDescription=true"
    deadline = time.time() + timeout
    while True:
        body, execs = get_json(f"{base}/sql?{query}")
        done = execs and all(e.get("status") != "RUNNING" for e in execs)
        if done or time.time() > deadline:
            break
        time.sleep(0.5)
    if not done:
        raise SystemExit(f"driver: executions still running after {timeout} s: "
                         + ", ".join(f"{e['id']}:{e.get('status')}" for e in execs))
    last = max(e["id"] for e in execs)
    body_last, _ = get_json(f"{base}/sql/{last}?{query}")
    dest = os.path.join(out, "driver")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "sql.json"), "wb") as f:
        f.write(body)
    with open(os.path.join(dest, f"sql-{last}.json"), "wb") as f:
        f.write(body_last)
    return {"driver_executions": len(execs), "driver_last_execution": last}


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def session(name, conf):
    from pyspark.sql import SparkSession
    b = SparkSession.builder.appName(name)
    for k, v in conf.items():
        b = b.config(k, v)
    return b.getOrCreate()


def explain(df, mode):
    jvm = df.sparkSession.sparkContext._jvm
    return jvm.PythonSQLUtils.explainString(df._jdf.queryExecution(), mode)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
        if not text.endswith("\n"):
            f.write("\n")


def packages_for(mod, version):
    """The scenario's Maven coordinates for this Spark version (PACKAGES, a list or a dict by prefix)."""
    packages = getattr(mod, "PACKAGES", [])
    if isinstance(packages, dict):
        return next((coords for prefix, coords in packages.items() if version.startswith(prefix)), [])
    return packages


def main(argv):
    scen_path, out = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    variants = argv[3:] or ["zstd"]
    mod = load(scen_path)
    name = os.path.splitext(os.path.basename(scen_path))[0]
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # the UI binds here, not on every interface
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f"planlint-live-{name}-")
    data = os.path.join(tmp, "data")
    os.makedirs(data)
    os.chdir(tmp)  # derby.log, hs_err_pid*.log and the like of the JVM stay out of the source tree
    import pyspark
    packages = packages_for(mod, pyspark.__version__)
    first = dict(BASE_CONF)
    if hasattr(mod, "DRIVER_JAVA_OPTIONS"):  # JVM options, fixed when the first session starts the JVM
        first["spark.driver.extraJavaOptions"] = mod.DRIVER_JAVA_OPTIONS
    if packages:
        first["spark.jars.packages"] = ",".join(packages)
        first["spark.jars.ivy"] = os.environ.get("PLANLINT_IVY", os.path.expanduser("~/.cache/planlint/ivy"))
    wanted = getattr(mod, "SPARK_VERSIONS", None)
    if wanted and not any(pyspark.__version__.startswith(v) for v in wanted):
        print(f"{name}: not for Spark {pyspark.__version__} (only {', '.join(wanted)})")
        shutil.rmtree(tmp, ignore_errors=True)
        sys.exit(3)
    fill = lambda conf: {k: v.replace("{data}", data) for k, v in conf.items()}  # noqa: E731
    run = {"scenario": name, "variants": {}, "python": sys.version.split()[0]}
    t0 = time.time()
    try:
        spark = session(f"{name}-setup", {**first, **fill(getattr(mod, "SETUP_CONF", {}))})
        run["spark_version"] = spark.version
        if hasattr(mod, "setup"):
            mod.setup(spark, data)
        spark.stop()
        run["setup_seconds"] = round(time.time() - t0, 1)
        for i, variant in enumerate(variants):
            t1 = time.time()
            logdir = os.path.join(tmp, f"eventlog-{variant}")
            os.makedirs(logdir)
            conf = {**BASE_CONF, **fill(getattr(mod, "SETUP_CONF", {})), **fill(mod.CONF), **VARIANTS[variant],
                    "spark.eventLog.enabled": "true", "spark.eventLog.dir": "file://" + logdir}
            if i == 0:  # the live driver's REST API: its UI on 127.0.0.1 (SPARK_LOCAL_IP), a free port
                conf.update({"spark.ui.enabled": "true", "spark.ui.port": str(free_port()),
                             "spark.port.maxRetries": "50", "spark.driver.host": "127.0.0.1",
                             "spark.driver.bindAddress": "127.0.0.1"})
            spark = session(name, conf)
            app = spark.sparkContext.applicationId
            info = {"app_id": app}
            if hasattr(mod, "run"):
                info.update(mod.run(spark, data, out if i == 0 else None) or {})
            else:
                df = mod.query(spark, data)
                if i == 0:
                    for m in MODES:
                        write(os.path.join(out, f"explain-{m}.txt"), explain(df, m))
                rows = df.collect()
                info["rows"] = len(rows)
                if i == 0:
                    write(os.path.join(out, "final-formatted.txt"), explain(df, "formatted"))
                    write(os.path.join(out, "final-codegen.txt"), explain(df, "codegen"))
                    write(os.path.join(out, "result.txt"), "\n".join(str(r) for r in rows[:20]))
            if i == 0:
                info.update(capture_driver(spark, out))
            spark.stop()
            dest = os.path.join(out, "eventlog")
            os.makedirs(dest, exist_ok=True)
            for f in os.listdir(logdir):
                if f.endswith(".inprogress"):
                    raise SystemExit(f"{name}: event log {f} still in progress after stop()")
                shutil.move(os.path.join(logdir, f), os.path.join(dest, f))
                info["eventlog"] = f
            info["seconds"] = round(time.time() - t1, 1)
            run["variants"][variant] = info
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    run["total_seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump(run, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{name}: {run['spark_version']} {run['total_seconds']} s", flush=True)


# Data helpers shared by the scenarios (all data is generated locally, from spark.range).

def fact(spark, path, rows, keys, hot_share=0.0, parts=4, extra=0):
    """rows with k (long; a share hot_share of them has key 0), v (double), s (string) and `extra` columns c0.."""
    from pyspark.sql import functions as F
    k = F.when(F.rand(1) < hot_share, F.lit(0)).otherwise((F.rand(2) * keys).cast("long")) if hot_share else (F.col("id") % keys)
    df = spark.range(rows, numPartitions=parts).select(
        F.col("id"), k.alias("k"), F.rand(3).alias("v"), F.concat(F.lit("s"), (F.col("id") % 997).cast("string")).alias("s"),
        *[(F.col("id") * (j + 1) % 1000).alias(f"c{j}") for j in range(extra)])
    df.write.mode("overwrite").parquet(path)


def events(spark, path, rows=500_000):
    """rows of id, ts (a timestamp every 17 s from 2024-03-01), name, code (a string of digits), x, v:
    the table the filter scenarios (pushdown, sargability, UDFs, reuse) read."""
    from pyspark.sql import functions as F
    spark.range(rows, numPartitions=2).select(
        F.col("id"), (F.lit(1709251200) + F.col("id") * 17).cast("timestamp").alias("ts"),
        F.concat(F.lit("n"), (F.col("id") % 1000).cast("string")).alias("name"),
        (F.col("id") % 1000).cast("string").alias("code"), (F.col("id") % 500).alias("x"),
        F.rand(5).alias("v")).write.mode("overwrite").parquet(path)


def dim(spark, path, rows):
    from pyspark.sql import functions as F
    spark.range(rows, numPartitions=1).select(
        F.col("id").alias("k"), F.concat(F.lit("name"), F.col("id").cast("string")).alias("name"),
        (F.col("id") % 10).alias("grp")).write.mode("overwrite").parquet(path)


# Iceberg (issue 38): the runtime jar for Spark 3.5 / Scala 2.12 and for Spark 4.1 / Scala 2.13 from
# Maven Central (no iceberg-spark-runtime-4.3_2.13 or -4.2 is served, so the Iceberg scenarios run on
# 3.5 and 4.1, the newest 4.x line Iceberg builds for, in a capture-only venv); a Hadoop catalog
# `lake` whose warehouse is a folder under the scenario's data folder, so the table's metadata and
# data files are local files like the parquet scenarios' (1.6.1 crashed the JVM here; 1.10.0 runs).
ICEBERG_PACKAGES = {"3.5": ["org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.10.0"],
                    "4.1": ["org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0"]}
ICEBERG_CONF = {
    "spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
    "spark.sql.catalog.lake": "org.apache.iceberg.spark.SparkCatalog",
    "spark.sql.catalog.lake.type": "hadoop",
    "spark.sql.catalog.lake.warehouse": "file://{data}/warehouse",
}


def iceberg_table(spark, name, rows=200_000, parts=8):
    """An unpartitioned Iceberg table of id, x (id % 500), name ('n' + id % 1000), v (random), in
    `parts` data files: the table the Iceberg filter scenarios read."""
    from pyspark.sql import functions as F
    spark.range(rows, numPartitions=parts).select(
        F.col("id"), (F.col("id") % 500).alias("x"), F.concat(F.lit("n"), (F.col("id") % 1000).cast("string")).alias("name"),
        F.rand(1).alias("v")).writeTo(name).create()


if __name__ == "__main__":
    main(sys.argv)
