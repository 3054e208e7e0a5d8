"""A cross join of two 2,000-row tables with no condition (4M pairs), broadcast disabled: CartesianProduct."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.crossJoin.enabled": "true"}
def setup(spark, data):
    spark.range(2000).select(F.col("id").alias("a")).write.mode("overwrite").parquet(f"{data}/l")
    spark.range(2000).select(F.col("id").alias("b")).write.mode("overwrite").parquet(f"{data}/r")


def query(spark, data):
    l_ = spark.read.parquet(f"{data}/l")
    r = spark.read.parquet(f"{data}/r")
    return l_.crossJoin(r).agg(F.count("*").alias("n"), F.sum(F.col("a") + F.col("b")).alias("s"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
