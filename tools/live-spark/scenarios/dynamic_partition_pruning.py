"""A fact partitioned by day joined to a filtered date dimension: dynamic partition pruning (dynamicpruningexpression) on the fact scan."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    spark.range(400_000, numPartitions=2).select(F.col("id"), (F.col("id") % 20).alias("day"), F.rand(1).alias("v")) \
        .write.partitionBy("day").mode("overwrite").parquet(f"{data}/sales")
    spark.range(20).select(F.col("id").alias("day"), F.when(F.col("id") % 7 == 0, "sun").otherwise("other").alias("dow")) \
        .write.mode("overwrite").parquet(f"{data}/dates")


def query(spark, data):
    s = spark.read.parquet(f"{data}/sales")
    d = spark.read.parquet(f"{data}/dates").filter(F.col("dow") == "sun")
    return s.join(d, "day").groupBy("dow").agg(F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
