"""The same self-join of one aggregation with spark.sql.exchange.reuse=false: the filtered scan and its shuffle run twice."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.exchange.reuse": "false"}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    e = spark.read.parquet(f"{data}/events").filter(F.col("x") > 100)
    a = e.groupBy("code").agg(F.count("*").alias("n"))
    b = a.withColumnRenamed("n", "m")
    return a.join(b, "code").agg(F.sum("n").alias("n"), F.sum("m").alias("m"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
