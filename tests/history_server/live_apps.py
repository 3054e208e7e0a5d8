"""Real PySpark applications for tests/history_server_live.sh, in one Python process (one JVM).

Usage: python live_apps.py OUT UI_PORT

  1. A 300,000-row table joined to a 200-row one with broadcast disabled (a sort-merge join of a
     tiny side: shuffle-join-could-broadcast). Plain event log into OUT/ev1.
  2. A cross join of two 2,000-row tables (CartesianProduct: cartesian-product). Plain event log
     into OUT/ev2. The test makes these two logs the attempts 1 and 2 of one application, as YARN
     writes them (local mode has no attempt id, and SparkContext sets spark.app.id itself).
  3. An application with its own id and the driver UI on 127.0.0.1:UI_PORT (or the next free port
     Spark picks), event log into OUT/ev3: the join (execution 0) then the cross join
     (execution 1). Then it prints `LIVE <app id> <UI URL>` and waits, the driver UI serving
     /api/v1, until the file OUT/stop exists (at most 300 s), and stops.
Prints `DONE` at the end.
"""
import os
import sys
import time

out, ui_port = sys.argv[1], sys.argv[2]
os.environ["PYSPARK_PYTHON"] = sys.executable
os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
os.chdir(out)  # derby.log and the like stay out of the source tree

from pyspark.sql import SparkSession, functions as F  # noqa: E402

BASE = {
    "spark.master": "local[2]",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.memory": "1g",
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.autoBroadcastJoinThreshold": "-1",
    "spark.sql.crossJoin.enabled": "true",
    "spark.eventLog.enabled": "true",
    "spark.eventLog.compress": "false",
    "spark.eventLog.rolling.enabled": "false",  # Spark 4 rolls by default
}


def session(name, logdir, **conf):
    os.makedirs(logdir, exist_ok=True)
    b = SparkSession.builder.appName(name)
    for k, v in {**BASE, "spark.eventLog.dir": "file://" + logdir, **conf}.items():
        b = b.config(k, v)
    return b.getOrCreate()


def join(spark):
    fact = spark.range(300_000, numPartitions=2).select((F.col("id") % 200).alias("k"), F.col("id").alias("v"))
    dim = spark.range(200, numPartitions=1).select(F.col("id").alias("k"), (F.col("id") % 10).alias("grp"))
    return fact.join(dim, "k").groupBy("grp").count().collect()


def cross(spark):
    a = spark.range(2000, numPartitions=2).select(F.col("id").alias("a"))
    b = spark.range(2000, numPartitions=2).select(F.col("id").alias("b"))
    return a.crossJoin(b).agg(F.count("*").alias("n"), F.sum(F.col("a") + F.col("b")).alias("s")).collect()


t0 = time.time()
spark = session("planlint-attempt-1", os.path.join(out, "ev1"), **{"spark.ui.enabled": "false"})
join(spark)
spark.stop()
spark = session("planlint-attempt-2", os.path.join(out, "ev2"), **{"spark.ui.enabled": "false"})
cross(spark)
spark.stop()
spark = session("planlint-live", os.path.join(out, "ev3"), **{"spark.ui.enabled": "true", "spark.ui.port": ui_port})
join(spark)
cross(spark)
print("LIVE", spark.sparkContext.applicationId, spark.sparkContext.uiWebUrl, flush=True)
stop = os.path.join(out, "stop")
deadline = time.time() + 300
while not os.path.exists(stop) and time.time() < deadline:
    time.sleep(0.2)
spark.stop()
print(f"DONE {time.time() - t0:.1f} s", flush=True)
