"""A window sort of 3M rows in one shuffle partition with spark.memory.fraction=0.01: the sort spills to disk."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.memory.fraction": "0.01", "spark.sql.shuffle.partitions": "1", "spark.sql.adaptive.enabled": "false"}
def setup(spark, data):
    spark.range(3_000_000, numPartitions=2).select((F.col("id") % 3).alias("g"), F.rand(1).alias("x")) \
        .write.mode("overwrite").parquet(f"{data}/t")


def query(spark, data):
    t = spark.read.parquet(f"{data}/t")
    w = Window.partitionBy("g").orderBy("x")
    return t.withColumn("r", F.row_number().over(w)).groupBy("g").agg(F.max("r").alias("r"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
