"""A window with orderBy and no partitionBy over 2M rows: every row goes to one partition (Exchange SinglePartition)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    spark.range(2_000_000, numPartitions=2).select(F.col("id"), F.rand(1).alias("x")).write.mode("overwrite").parquet(f"{data}/t")


def query(spark, data):
    t = spark.read.parquet(f"{data}/t")
    return t.withColumn("r", F.row_number().over(Window.orderBy("x"))).agg(F.max("r").alias("r"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
