"""A cast on a partition column (cast(part as int) = 3): partition pruning still applies, nothing to push."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    spark.range(200_000, numPartitions=2).select(F.col("id"), (F.col("id") % 8).cast("string").alias("part"), F.rand(1).alias("v")) \
        .write.partitionBy("part").mode("overwrite").parquet(f"{data}/p")


def query(spark, data):
    p = spark.read.parquet(f"{data}/p")
    return p.filter(F.col("part").cast("int") == 3).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
