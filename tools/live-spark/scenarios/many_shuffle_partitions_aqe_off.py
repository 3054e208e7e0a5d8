"""spark.sql.shuffle.partitions=400 with AQE off for a 100-group aggregation: 400 tiny reduce tasks, no coalescing."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.shuffle.partitions": "400", "spark.sql.adaptive.enabled": "false"}
def setup(spark, data):
    spark.range(100_000, numPartitions=2).select((F.col("id") % 100).alias("k"), F.rand(1).alias("v")) \
        .write.mode("overwrite").parquet(f"{data}/t")


def query(spark, data):
    return spark.read.parquet(f"{data}/t").groupBy("k").agg(F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])
