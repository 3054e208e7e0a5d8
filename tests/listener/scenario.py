"""The live listener test's PySpark job (tests/listener.sh): queries with known findings, run with
planlint-spark registered, and their results checked, so that a broken or hanging planlint shows as
a wrong result or a slow run, never silently. Usage: scenario.py [N_EXTRA_QUERIES]"""
import sys
import time

from pyspark.sql import SparkSession

extra = int(sys.argv[1]) if len(sys.argv) > 1 else 0
spark = SparkSession.builder.getOrCreate()
t0 = time.monotonic()
orders = spark.range(0, 20000).selectExpr("id", "id % 50 AS customer_id", "id * 3 AS amount")
customers = spark.range(0, 50).selectExpr("id AS customer_id", "concat('c', id) AS name")
# Broadcast disabled (spark.sql.autoBroadcastJoinThreshold=-1 on the command line): a sort-merge
# join whose right side is a few KiB: shuffle-join-could-broadcast (PL002), from the metrics.
joined = orders.join(customers, "customer_id").groupBy("name").sum("amount").collect()
assert len(joined) == 50, len(joined)
total = sum(r[1] for r in joined)
assert total == 3 * sum(range(20000)), total
# A join with no condition: cartesian-product (PL009).
pairs = spark.range(0, 30).crossJoin(spark.range(0, 40).withColumnRenamed("id", "j")).count()  # 1,200 rows
assert pairs == 1200, pairs
for i in range(extra):  # many quick executions: fills a small queue
    assert spark.range(0, 10 + i).count() == 10 + i
print("SCENARIO OK %d %.1f s" % (pairs, time.monotonic() - t0), flush=True)
spark.stop()
