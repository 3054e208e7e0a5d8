"""Near miss: 2 of 31 columns selected with column pruning on: the scan reads only those."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    spark.range(200_000, numPartitions=2).select("id", *[(F.col("id") * (i + 3) % 1000).alias(f"c{i}") for i in range(30)]) \
        .write.mode("overwrite").parquet(f"{data}/wide")


def query(spark, data):
    w = spark.read.parquet(f"{data}/wide")
    return w.select("id", "c1").agg(F.sum("id").alias("s"), F.max("c1").alias("m"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
